/*
 * tokio/connectors/lfshealth.h - Lustre health as clients see it: one
 * snapshot of `lfs df` (OST/MDT fullness per file system) or of
 * `lctl dl -t` (which OSS serves each OST), as the reference's
 * tokio.connectors.lfshealth (LfsOstFullness, LfsOstMap).
 *
 * Both are read from saved command output (plain or gzip) or from their
 * JSON form, the reference's dict:
 *   fullness  {fs: {target: {"total_kib", "used_kib", "remaining_kib",
 *                            "mount_pt", "role", "target_index"}}}
 *   map       {fs: {target: {"index", "status", "role", "role_id", "uuid",
 *                            "ref_count", "target_ip", "nid"}}}
 * e.g. {"snx11035": {"OST0000": {...}}}: file systems in order of first
 * appearance, each one's targets likewise (a repeated target keeps its
 * place and takes the later values, as the reference's dict assignment);
 * role and status lower case.  The NERSC cron files that concatenate
 * many snapshots behind `BEGIN <epoch>` lines are
 * tokio/connectors/nersc_lfsstate.h.
 */
#ifndef TOKIO_CONNECTORS_LFSHEALTH_H
#define TOKIO_CONNECTORS_LFSHEALTH_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "tokio/common.h"

/* One `lfs df` snapshot (LfsOstFullness). */
struct tokio_lfshealth_fullness;
/* One `lctl dl -t` snapshot (LfsOstMap). */
struct tokio_lfshealth_map;

/**
 * Read saved `lfs df` output from `path` (plain or gzip; "-" is standard
 * input), or its JSON form (text whose first non-blank character is '{').
 * Lines that are not target lines (headers, "filesystem summary:",
 * blank) are skipped, as in the reference.
 * @param[out] out  release with tokio_lfshealth_fullness_free(); NULL on
 *                  failure.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_EFORMAT (a target line whose numbers
 *         overflow 64 bits, whose name has no target part, or that is not
 *         UTF-8: the message names file and line; JSON not of the form
 *         above), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_lfshealth_fullness_open(
    struct tokio_lfshealth_fullness **out, const char *path);
/** As tokio_lfshealth_fullness_open() over `len` bytes at `buf` (not
 * kept; may be gzip), named `name` (may be NULL) in messages. */
TOKIO_API int tokio_lfshealth_fullness_open_mem(
    struct tokio_lfshealth_fullness **out, const void *buf, size_t len,
    const char *name);
/** Build a snapshot from the JSON form (borrowed; the targets must hold
 * the keys above, integers >= 0 and strings; others are kept).
 * @return TOKIO_OK, TOKIO_EFORMAT (the message names the target),
 *         TOKIO_ENOMEM. */
TOKIO_API int tokio_lfshealth_fullness_from_json(
    struct tokio_lfshealth_fullness **out, const json_t *json);
/**
 * Check one line (`len` bytes, no newline) of `lfs df` output, line
 * `lineno` of input `name` (for messages), as the parser would read it,
 * keeping nothing: for readers of files that hold many snapshots.
 * @return 1 for a target line, 0 for a line the reference skips,
 *         TOKIO_EFORMAT (a target line the parser refuses).
 */
TOKIO_API int tokio_lfshealth_fullness_check_line(const char *line,
                                                  size_t len,
                                                  const char *name,
                                                  size_t lineno);
/** The JSON form: a new reference to the snapshot's own tree (read it, do
 * not change it).  @return TOKIO_OK. */
TOKIO_API int tokio_lfshealth_fullness_to_json(
    const struct tokio_lfshealth_fullness *f, json_t **out);
/**
 * Write the snapshot as `lfs df` target lines, as the reference's
 * save_cache(): file systems sorted by name, each one's targets by index.
 * @return TOKIO_OK, TOKIO_ENOMEM, TOKIO_EIO.
 */
TOKIO_API int tokio_lfshealth_fullness_write_native(
    const struct tokio_lfshealth_fullness *f, FILE *fp);
/** Release; NULL is fine. */
TOKIO_API void tokio_lfshealth_fullness_free(
    struct tokio_lfshealth_fullness *f);

/** As tokio_lfshealth_fullness_open(), for saved `lctl dl -t` output.
 * Lines that are not osc/mdc lines with a NID (mgc, lov, lmv, headers)
 * are skipped. */
TOKIO_API int tokio_lfshealth_map_open(struct tokio_lfshealth_map **out,
                                       const char *path);
/** As tokio_lfshealth_fullness_open_mem(). */
TOKIO_API int tokio_lfshealth_map_open_mem(struct tokio_lfshealth_map **out,
                                           const void *buf, size_t len,
                                           const char *name);
/** As tokio_lfshealth_fullness_from_json(). */
TOKIO_API int tokio_lfshealth_map_from_json(struct tokio_lfshealth_map **out,
                                            const json_t *json);
/** As tokio_lfshealth_fullness_check_line(), for `lctl dl -t`. */
TOKIO_API int tokio_lfshealth_map_check_line(const char *line, size_t len,
                                             const char *name,
                                             size_t lineno);
/** As tokio_lfshealth_fullness_to_json(). */
TOKIO_API int tokio_lfshealth_map_to_json(const struct tokio_lfshealth_map *m,
                                          json_t **out);
/** `lctl dl -t` lines, as the reference's save_cache(): file systems by
 * name, targets by index.  @return TOKIO_OK, TOKIO_ENOMEM, TOKIO_EIO. */
TOKIO_API int tokio_lfshealth_map_write_native(
    const struct tokio_lfshealth_map *m, FILE *fp);
/**
 * The reference's get_failovers(): per file system, the mode of OSTs per
 * OSS ("mode") and the OSSes holding another number of OSTs, each with its
 * OSTs ("abnormal_ips": {ip: [ost, ...]}), i.e. OSTs probably failed over.
 * `*out` is a new object {fs: {"mode": n, "abnormal_ips": {...}}}.
 * @return TOKIO_OK, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_lfshealth_map_failovers(
    const struct tokio_lfshealth_map *m, json_t **out);
/** Release; NULL is fine. */
TOKIO_API void tokio_lfshealth_map_free(struct tokio_lfshealth_map *m);

#endif
