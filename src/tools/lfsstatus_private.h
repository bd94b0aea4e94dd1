/*
 * src/tools/lfsstatus_private.h - what the lfsstatus tool's providers hand
 * to its summary: one snapshot of OST fullness, however it was read.
 */
#ifndef TOKIO_TOOLS_LFSSTATUS_PRIVATE_H
#define TOKIO_TOOLS_LFSSTATUS_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

struct tokio_config;

/* One target of a snapshot, as nersc_lfsstate and the hdf5 provider give
 * it. */
struct tokio__ost_fullness {
    const char *name;           /* OST0000, MDT0000, ... */
    int64_t used_kib;
    int64_t total_kib;
    int64_t target_index;
};

/* A snapshot: its targets and timestamps. */
struct tokio__fullness_snapshot {
    struct tokio__ost_fullness *targets;
    size_t n_targets;
    int64_t timestamp;          /* the sample used */
    int64_t next_timestamp;     /* the one after it */
    int has_next;               /* 0: it was the last sample */
    char *names;                /* storage of the targets' names */
};

/*
 * The reference's get_fullness_hdf5(): /fullness/bytes and
 * /fullness/bytestotal of the site's TTS files of `file_system` (a
 * logical name, the key of hdf5_files) from an hour before `when` to an
 * hour after, missing cells filled from the previous sample (else the
 * next), at the sample nearest `when` (of two as near, the later).
 * *found is 0 when there is nothing to read (no hdf5_files for it, no file
 * that day, no fullness datasets, no rows): the caller tries the next
 * provider, as the reference does.
 * @return TOKIO_OK; TOKIO_EFORMAT (an OST column whose name gives no
 *         index, no value at all in a column, the two datasets disagreeing
 *         on timestamps); the errors of reading the files.
 */
int tokio__lfsstatus_hdf5_fullness(struct tokio__fullness_snapshot *out,
                                   int *found,
                                   const struct tokio_config *cfg,
                                   const char *file_system, int64_t when);

/* Free what a snapshot holds; a zeroed one is fine. */
void tokio__fullness_snapshot_free(struct tokio__fullness_snapshot *s);

#endif
