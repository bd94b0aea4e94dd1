/*
 * src/tools/summarize_job_private.h - what summarize-job and the report
 * share of reading a Darshan log in one pass: the heat map of its DXT
 * traces (--dxt; summarize-job's dxt_* keys and the report's "DXT: bytes
 * by rank and time"), and the rules of the log's JSON
 * (connectors/darshan_json.c) that their folds follow.
 */
#ifndef TOKIO_TOOLS_SUMMARIZE_JOB_PRIVATE_H
#define TOKIO_TOOLS_SUMMARIZE_JOB_PRIVATE_H

#include <stddef.h>

#include "tokio/connectors/darshan.h"

/* The modules to add to a tokio_darshan_select's for the fold. */
#define TOKIO__DXT_MODULES                                                 \
    (TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DXT_POSIX) |                   \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DXT_MPIIO))

/* The DXT_POSIX segments, or the DXT_MPIIO ones when the log has no
 * POSIX segment: the bytes of one layer, not both (an MPI-IO write is
 * also traced as the POSIX writes it makes).  The reader hands DXT_POSIX
 * records over before DXT_MPIIO ones (module order), so MPI-IO ones are
 * folded only when no POSIX segment came. */
struct tokio__dxt_layers {
    struct tokio_darshan_dxt_heatmap *posix, *mpiio;
    int failed;                 /* the map's error (not TOKIO_ENOMEM) */
    char why[512];              /* its message */
};

/* Empty maps of `nbins` bins: TOKIO_OK, TOKIO_EINVAL, TOKIO_ENOMEM (free
 * with tokio__dxt_layers_free() either way). */
int tokio__dxt_layers_init(struct tokio__dxt_layers *l, size_t nbins);

/* Fold a record as a tokio_darshan_record_fn gets it (DXT records in
 * pieces: dxt_pieces; other modules are ignored).  Only TOKIO_ENOMEM
 * stops the read: a map that cannot be made (too big) is kept as its
 * error for tokio__dxt_layers_end(), the rest of the log read on. */
int tokio__dxt_layers_record(struct tokio__dxt_layers *l,
                             const struct tokio_darshan *log, int mod,
                             const struct tokio_darshan_record *r);

/* After the read: the map of the layer kept into *out (the caller's to
 * free), "POSIX" or "MPI-IO" into *layer (may be NULL); or the map's
 * error. */
int tokio__dxt_layers_end(struct tokio__dxt_layers *l,
                          const struct tokio_darshan *log,
                          struct tokio_darshan_dxt_heatmap **out,
                          const char **layer);

void tokio__dxt_layers_free(struct tokio__dxt_layers *l);

/* Whether darshan-parser --base prints module `mod`, so that the
 * log's JSON has its key (the rule of connectors/darshan_json). */
int tokio__job_module_printed(const struct tokio_darshan *log, int mod);

/* Whether the JSON has module `mod`'s key: a record of it was read
 * (`had_records`), or it is present and has "_perf" (the same rule). */
int tokio__job_module_listed(const struct tokio_darshan *log, int mod,
                             int had_records);

/* A record's key in the JSON: its name as darshan-parser printed it;
 * a DAOS object's id written into `buf` (returned). */
const char *tokio__job_record_name(const struct tokio_darshan *log, int mod,
                                   const struct tokio_darshan_record *r,
                                   char *buf, size_t size);

/* The position of `mod`'s counter (or fcounter) named `name` after the
 * module's prefix, as the JSON keys it ("BYTES_READ" for
 * "MPIIO_BYTES_READ"); -1 if none. */
int tokio__job_counter_index(int mod, const char *name, int fcounter);

#endif
