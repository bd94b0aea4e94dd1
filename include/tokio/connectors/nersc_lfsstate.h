/*
 * tokio/connectors/nersc_lfsstate.h - NERSC's Lustre health history: cron
 * jobs append `echo "BEGIN $(date +%s)"` and then `lfs df` (the fullness
 * file, osts.txt) or `lctl dl -t` (the OST map, ost-map.txt) to one file,
 * plain or gzip.  Mirrors tokio.connectors.nersc_lfsstate
 * (NerscLfsOstFullness, NerscLfsOstMap); each snapshot is a
 * tokio/connectors/lfshealth.h snapshot.
 *
 * Its JSON form is the reference's dict, {"<epoch>": snapshot}, each
 * snapshot the JSON form of tokio_lfshealth_fullness_to_json() or
 * tokio_lfshealth_map_to_json().
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

enum tokio_nersc_lfsstate_kind {
    TOKIO_NERSC_LFSSTATE_FULLNESS,  /* `lfs df` (NerscLfsOstFullness) */
    TOKIO_NERSC_LFSSTATE_MAP        /* `lctl dl -t` (NerscLfsOstMap) */
};

/**
 * Read a BEGIN-separated history of `kind` from `path` (plain or gzip;
 * "-" is standard input), or its JSON form (text whose first non-blank
 * character is '{').  Every snapshot is kept, the last one included; a
 * repeated timestamp keeps the later snapshot.  Lines that are not target
 * lines are skipped as the snapshot parsers skip them.
 * @param[out] out  release with tokio_nersc_lfsstate_free(); NULL on
 *                  failure.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_EFORMAT (a BEGIN line without an
 *         integer epoch, a target line before the first BEGIN line, a
 *         target line the snapshot parser refuses: the message names file
 *         and line; JSON not of the form above), TOKIO_ENOMEM,
 *         TOKIO_EINVAL (an unknown kind).
 */
TOKIO_API int tokio_nersc_lfsstate_open(struct tokio_nersc_lfsstate **out,
                                        enum tokio_nersc_lfsstate_kind kind,
                                        const char *path);
/** As tokio_nersc_lfsstate_open() over `len` bytes at `buf` (not kept;
 * may be gzip), named `name` (may be NULL) in messages. */
TOKIO_API int tokio_nersc_lfsstate_open_mem(
    struct tokio_nersc_lfsstate **out, enum tokio_nersc_lfsstate_kind kind,
    const void *buf, size_t len, const char *name);
/** Build a history from its JSON form (borrowed).  @return TOKIO_OK,
 * TOKIO_EFORMAT (the message names the key), TOKIO_ENOMEM,
 * TOKIO_EINVAL. */
TOKIO_API int tokio_nersc_lfsstate_from_json(
    struct tokio_nersc_lfsstate **out, enum tokio_nersc_lfsstate_kind kind,
    const json_t *json);

/** Number of snapshots; they are in increasing timestamp order. */
TOKIO_API size_t
tokio_nersc_lfsstate_count(const struct tokio_nersc_lfsstate *s);
/** Epoch of the i-th snapshot (i < count). */
TOKIO_API int64_t
tokio_nersc_lfsstate_timestamp(const struct tokio_nersc_lfsstate *s,
                               size_t i);
/**
 * The i-th snapshot (i < count), parsed now: a history keeps each
 * snapshot as it was read (its lines checked) and parses it when asked,
 * as a history is mostly read to look at one snapshot.
 * @param[out] out  a new snapshot; free it with
 *                  tokio_lfshealth_fullness_free().  NULL on failure.
 * @return TOKIO_OK, TOKIO_EINVAL (i out of range, or the history is of
 *         the other kind), TOKIO_ENOMEM.
 */
TOKIO_API int
tokio_nersc_lfsstate_fullness(const struct tokio_nersc_lfsstate *s, size_t i,
                              struct tokio_lfshealth_fullness **out);
/** As tokio_nersc_lfsstate_fullness(), for an OST map history. */
TOKIO_API int
tokio_nersc_lfsstate_map(const struct tokio_nersc_lfsstate *s, size_t i,
                         struct tokio_lfshealth_map **out);

/**
 * Python's dict.update(): the snapshots of `src` are added to `dst`,
 * replacing those of equal timestamp.  `src` is consumed (freed) whatever
 * happens.  @return TOKIO_OK, TOKIO_EINVAL (kinds differ), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_lfsstate_merge(struct tokio_nersc_lfsstate *dst,
                                         struct tokio_nersc_lfsstate *src);

/** The JSON form (above), by timestamp: a new object.
 * @return TOKIO_OK, TOKIO_ENOMEM. */
TOKIO_API int tokio_nersc_lfsstate_to_json(
    const struct tokio_nersc_lfsstate *s, json_t **out);
/** The cron file's text back, as the reference's save_cache(): "BEGIN
 * <epoch>" and the snapshot's native text, by timestamp.
 * @return TOKIO_OK, TOKIO_ENOMEM, TOKIO_EIO. */
TOKIO_API int tokio_nersc_lfsstate_write_native(
    const struct tokio_nersc_lfsstate *s, FILE *fp);
/**
 * get_failovers() of every snapshot of an OST map: {"<epoch>": {fs:
 * {"mode", "abnormal_ips"}}} (see tokio_lfshealth_map_failovers()); a new
 * object.  @return TOKIO_OK, TOKIO_EINVAL (a fullness history),
 * TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_lfsstate_failovers(
    const struct tokio_nersc_lfsstate *s, json_t **out);
/** Release; NULL is fine. */
TOKIO_API void tokio_nersc_lfsstate_free(struct tokio_nersc_lfsstate *s);

#endif
