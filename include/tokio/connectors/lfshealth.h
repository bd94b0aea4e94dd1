/*
 * tokio/connectors/lfshealth.h - Lustre health as clients see it: one
 * snapshot of `lfs df` (OST/MDT fullness per file system) or of
 * `lctl dl -t` (which OSS serves each OST), as the reference's
 * tokio.connectors.lfshealth (LfsOstFullness, LfsOstMap).
 *
 * Both are read from saved command output (plain or gzip).  The NERSC
 * cron files that concatenate many snapshots behind `BEGIN <epoch>` lines
 * are tokio/connectors/nersc_lfsstate.h.
 */
#ifndef TOKIO_CONNECTORS_LFSHEALTH_H
#define TOKIO_CONNECTORS_LFSHEALTH_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"

/* One `lfs df` snapshot: file system -> target -> fullness. */
struct tokio_lfs_df;
/* One `lctl dl -t` snapshot: file system -> target -> device entry. */
struct tokio_lfs_dl;

/* One target line of `lfs df`, e.g.
 * "snx11035-OST0000_UUID 90767651352 54512631228 35277748388 61%
 *  /scratch2[OST:0]".  Strings are borrowed from the snapshot. */
struct tokio_lfs_df_target {
    const char *fs;             /* "snx11035" */
    const char *target;         /* "OST0000" */
    int64_t total_kib;
    int64_t used_kib;
    int64_t remaining_kib;
    const char *mount_pt;       /* "/scratch2" */
    const char *role;           /* "ost", "mdt" (lower case) */
    int64_t target_index;       /* 0 */
};

/* One osc/mdc line of `lctl dl -t`, e.g. "351 UP osc
 * snx11025-OST0007-osc-ffff8875ac1e7c00 3f30f170-... 5 10.100.100.12@o2ib1".
 * Strings are borrowed from the snapshot. */
struct tokio_lfs_dl_target {
    const char *fs;             /* "snx11025" */
    const char *target;         /* "OST0007" */
    int64_t index;              /* 351 */
    const char *status;         /* "up" (lower case) */
    const char *role;           /* "osc" (lower case) */
    const char *role_id;        /* "snx11025-OST0007-osc-ffff8875ac1e7c00" */
    const char *uuid;
    int64_t ref_count;          /* 5 */
    const char *target_ip;      /* "10.100.100.12" */
    const char *nid;            /* "10.100.100.12@o2ib1" */
};

/**
 * Read saved `lfs df` output from `path` (plain or gzip).  Lines that are
 * not target lines (headers, "filesystem summary:", blank) are skipped, as
 * in the reference; a target line whose numbers overflow 64 bits or whose
 * name has no target part is TOKIO_EFORMAT naming file and line.
 * @param[out] out  release with tokio_lfs_df_free(); NULL on failure.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_EFORMAT, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_lfs_df_open(struct tokio_lfs_df **out, const char *path);
/** As tokio_lfs_df_open() over `len` bytes (not kept); `name` for messages. */
TOKIO_API int tokio_lfs_df_open_mem(struct tokio_lfs_df **out,
                                    const void *buf, size_t len,
                                    const char *name);
/**
 * Number of targets, and the i-th (borrowed until the snapshot is freed):
 * file systems in order of first appearance, each one's targets in order
 * of first appearance (a repeated target keeps its place, takes the later
 * values: the reference's dict assignment).
 */
TOKIO_API size_t tokio_lfs_df_count(const struct tokio_lfs_df *df);
TOKIO_API const struct tokio_lfs_df_target *
tokio_lfs_df_target(const struct tokio_lfs_df *df, size_t i);
/**
 * The reference's structure, {fs: {target: {total_kib, used_kib,
 * remaining_kib, mount_pt, role, target_index}}}; a new reference.
 * @return TOKIO_OK, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_lfs_df_to_json(const struct tokio_lfs_df *df,
                                   json_t **out);
/**
 * Rebuild a snapshot from tokio_lfs_df_to_json()'s structure (`json` is
 * borrowed).  @return TOKIO_OK, TOKIO_EFORMAT (message names the key),
 * TOKIO_ENOMEM.
 */
TOKIO_API int tokio_lfs_df_from_json(struct tokio_lfs_df **out,
                                     const json_t *json);
/**
 * Write the snapshot as `lfs df`-like text, as the reference's save_cache():
 * file systems sorted by name, targets by index.
 * @return TOKIO_OK, TOKIO_EIO.
 */
TOKIO_API int tokio_lfs_df_write(const struct tokio_lfs_df *df, FILE *fp);
/** Release; NULL is fine. */
TOKIO_API void tokio_lfs_df_free(struct tokio_lfs_df *df);

/** As tokio_lfs_df_open(), for saved `lctl dl -t` output.  Lines that are
 * not osc/mdc lines with a NID (mgc, lov, lmv, headers) are skipped. */
TOKIO_API int tokio_lfs_dl_open(struct tokio_lfs_dl **out, const char *path);
TOKIO_API int tokio_lfs_dl_open_mem(struct tokio_lfs_dl **out,
                                    const void *buf, size_t len,
                                    const char *name);
/** As tokio_lfs_df_count() and tokio_lfs_df_target(). */
TOKIO_API size_t tokio_lfs_dl_count(const struct tokio_lfs_dl *dl);
TOKIO_API const struct tokio_lfs_dl_target *
tokio_lfs_dl_target(const struct tokio_lfs_dl *dl, size_t i);
/** {fs: {target: {index, status, role, role_id, uuid, ref_count,
 * target_ip, nid}}}; a new reference.  @return TOKIO_OK, TOKIO_ENOMEM. */
TOKIO_API int tokio_lfs_dl_to_json(const struct tokio_lfs_dl *dl,
                                   json_t **out);
/** As tokio_lfs_df_from_json(). */
TOKIO_API int tokio_lfs_dl_from_json(struct tokio_lfs_dl **out,
                                     const json_t *json);
/** `lctl dl -t`-like text (file systems by name, targets by index). */
TOKIO_API int tokio_lfs_dl_write(const struct tokio_lfs_dl *dl, FILE *fp);
TOKIO_API void tokio_lfs_dl_free(struct tokio_lfs_dl *dl);

/**
 * The reference's get_failovers(): per file system, the mode of OSTs per
 * OSS ("mode") and the OSSes holding another number of OSTs, each with its
 * OSTs ("abnormal_ips": {ip: [ost, ...]}), i.e. OSTs probably failed over.
 * `*out` is a new reference {fs: {"mode": n, "abnormal_ips": {...}}}.
 * @return TOKIO_OK, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_lfs_dl_failovers(const struct tokio_lfs_dl *dl,
                                     json_t **out);

#endif
