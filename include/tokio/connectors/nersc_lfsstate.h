/*
 * tokio/connectors/nersc_lfsstate.h - NERSC's Lustre health history: cron
 * jobs append `echo "BEGIN $(date +%s)"` and then `lfs df` (the fullness
 * file, osts.txt) or `lctl dl -t` (the OST map, ost-map.txt) to one file,
 * plain or gzip.  Mirrors tokio.connectors.nersc_lfsstate
 * (NerscLfsOstFullness, NerscLfsOstMap); each snapshot is a
 * tokio/connectors/lfshealth.h snapshot.
 */
#ifndef TOKIO_CONNECTORS_NERSC_LFSSTATE_H
#define TOKIO_CONNECTORS_NERSC_LFSSTATE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"
#include "tokio/connectors/lfshealth.h"

/* Snapshots by timestamp, all `lfs df` or all `lctl dl -t`. */
struct tokio_nersc_lfsstate;

enum tokio_lfsstate_kind {
    TOKIO_LFSSTATE_FULLNESS,    /* `lfs df` snapshots (NerscLfsOstFullness) */
    TOKIO_LFSSTATE_MAP          /* `lctl dl -t` snapshots (NerscLfsOstMap) */
};

/**
 * Read a BEGIN-separated history from `path` (plain or gzip).  Every
 * snapshot is kept, the last one included; a repeated timestamp keeps the
 * later snapshot.  A BEGIN line without an integer epoch, or a target
 * line before the first BEGIN line, is TOKIO_EFORMAT naming file and line;
 * other lines are skipped as the snapshot parsers skip them.
 * @param[out] out  release with tokio_nersc_lfsstate_free(); NULL on
 *                  failure.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_EFORMAT, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_lfsstate_open(struct tokio_nersc_lfsstate **out,
                                        enum tokio_lfsstate_kind kind,
                                        const char *path);
/** As tokio_nersc_lfsstate_open() over `len` bytes (not kept). */
TOKIO_API int tokio_nersc_lfsstate_open_mem(
    struct tokio_nersc_lfsstate **out, enum tokio_lfsstate_kind kind,
    const void *buf, size_t len, const char *name);

TOKIO_API enum tokio_lfsstate_kind
tokio_nersc_lfsstate_kind(const struct tokio_nersc_lfsstate *s);
/** Number of snapshots; they are in increasing timestamp order. */
TOKIO_API size_t
tokio_nersc_lfsstate_count(const struct tokio_nersc_lfsstate *s);
/** Epoch of the i-th snapshot (i < count). */
TOKIO_API int64_t
tokio_nersc_lfsstate_timestamp(const struct tokio_nersc_lfsstate *s,
                               size_t i);
/** The i-th snapshot, borrowed; NULL when i is out of range or the
 * history is of the other kind. */
TOKIO_API const struct tokio_lfs_df *
tokio_nersc_lfsstate_fullness(const struct tokio_nersc_lfsstate *s,
                              size_t i);
TOKIO_API const struct tokio_lfs_dl *
tokio_nersc_lfsstate_map(const struct tokio_nersc_lfsstate *s, size_t i);

/**
 * Python's dict.update(): the snapshots of `src` are added to `dst`,
 * replacing those of equal timestamp.  `src` is consumed (freed) whatever
 * happens.  @return TOKIO_OK, TOKIO_EINVAL (kinds differ), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_lfsstate_merge(struct tokio_nersc_lfsstate *dst,
                                         struct tokio_nersc_lfsstate *src);

/**
 * {"<epoch>": snapshot JSON (tokio_lfs_df_to_json / tokio_lfs_dl_to_json)};
 * a new reference.  @return TOKIO_OK, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_lfsstate_to_json(
    const struct tokio_nersc_lfsstate *s, json_t **out);
/** The inverse, `json` borrowed.  @return TOKIO_OK, TOKIO_EFORMAT (message
 * names the key), TOKIO_ENOMEM. */
TOKIO_API int tokio_nersc_lfsstate_from_json(
    struct tokio_nersc_lfsstate **out, enum tokio_lfsstate_kind kind,
    const json_t *json);
/** The cron file's text back, as the reference's save_cache(): "BEGIN
 * <epoch>" and the snapshot, by timestamp.  @return TOKIO_OK, TOKIO_EIO. */
TOKIO_API int tokio_nersc_lfsstate_write(
    const struct tokio_nersc_lfsstate *s, FILE *fp);
/**
 * get_failovers() of every snapshot of an OST map: {"<epoch>": {fs:
 * {"mode", "abnormal_ips"}}} (see tokio_lfs_dl_failovers()); a new
 * reference.  @return TOKIO_OK, TOKIO_EINVAL (a fullness history),
 * TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_lfsstate_failovers(
    const struct tokio_nersc_lfsstate *s, json_t **out);
/** Release; NULL is fine. */
TOKIO_API void tokio_nersc_lfsstate_free(struct tokio_nersc_lfsstate *s);

#endif
