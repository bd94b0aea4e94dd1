/*
 * tokio/tools/summarize_job.h - one job seen from every source a site
 * has, as the reference's summarize_job: its Darshan logs, the file
 * system's time series over its window (TTS/H5LMT files), its place in
 * the network, the OST fullness and failovers at its start and the jobs
 * that ran beside it, as one row of scalar values per log.
 */
#ifndef TOKIO_TOOLS_SUMMARIZE_JOB_H
#define TOKIO_TOOLS_SUMMARIZE_JOB_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_config;

/* What to look at besides the logs; zero-initialise and fill in. */
struct tokio_summarize_job_opts {
    const char *file_system;    /* its name (scratch2); NULL: the one the
                                   log moved most bytes on, named by the
                                   site's mount_to_fsname */
    int has_window;             /* no logs: the job ran from start to end
                                   (epoch seconds) */
    int64_t start, end;
    const char *slurm_jobid;    /* the job's id, or a saved sacct output
                                   whose first job it is */
    const char *topology;       /* NULL: no; "": ask xtdb2proc; else a
                                   saved Cray SDB processor table */
    int ost;                    /* OST fullness and failovers */
    const char *ost_fullness;   /* saved `lfs df` (NULL: the site's) */
    const char *ost_map;        /* saved `lctl dl -t` (NULL: the site's) */
    const char *concurrentjobs; /* NULL: no; "": the jobs database named
                                   by NERSC_JOBSDB_*; else its SQLite
                                   cache */
    const char *jobhost;        /* the system, for concurrentjobs */
    int silent_errors;          /* skip inputs that are no Darshan logs */
    int dxt;                    /* read the DXT traces too, in the same
                                   pass as the rest of the log, folded
                                   into a heat map as
                                   tokio_summarize_job_dxt_heatmap()
                                   makes it (the bins:
                                   TOKIO_SUMMARIZE_JOB_DXT_BINS); each
                                   row gets, after its
                                   darshan_* keys: dxt_segments (segments
                                   traced; 0 and no other key when the log
                                   has none), dxt_bytes (bytes they moved,
                                   a whole number), dxt_bin_seconds (a
                                   bin's width), dxt_peak_bin_bytes (the
                                   busiest bin's, all ranks),
                                   dxt_peak_bin_share (its share of
                                   dxt_bytes), dxt_active_bin_share (the
                                   share of bins moving any byte),
                                   dxt_busiest_rank (the rank moving most
                                   bytes), dxt_busiest_rank_share and
                                   dxt_active_ranks (ranks moving any
                                   byte).  Memory is the map's, whatever
                                   the number of segments.  0: DXT regions
                                   are not even inflated */
};

/* The time bins of the heat map behind the dxt_* keys. */
#define TOKIO_SUMMARIZE_JOB_DXT_BINS 100

struct tokio_darshan_dxt_heatmap;

/** What a DXT heat map says in a few numbers. */
struct tokio_summarize_job_dxt {
    uint64_t segments;          /* DXT segments counted */
    double total_bytes;         /* read and written, all ranks and bins */
    double bin_seconds;         /* a time bin's width */
    double peak_bin_bytes;      /* the busiest time bin's bytes (all ranks) */
    size_t peak_bin;            /* which bin (from 0) */
    double peak_bin_share;      /* peak_bin_bytes / total_bytes */
    size_t active_bins;         /* bins with any bytes */
    long busiest_rank;          /* the rank moving most bytes (-1: none) */
    double busiest_rank_share;  /* its bytes / total_bytes */
    size_t active_ranks;        /* ranks with any bytes */
};

/**
 * The heat map (tokio_darshan_dxt_heatmap()) of the log at `path` in
 * `nbins` bins from its DXT_POSIX traces, or from its DXT_MPIIO traces
 * when it has no POSIX ones: the bytes of one layer, not both (an MPI-IO
 * write is also traced as the POSIX writes it makes), in one pass over
 * the DXT regions (DXT_POSIX's come first; the MPI-IO segments are
 * folded only when no POSIX one came).
 * @param[out] layer  "POSIX" or "MPI-IO" (may be NULL).
 * @return as tokio_darshan_dxt_heatmap().
 */
TOKIO_API int tokio_summarize_job_dxt_heatmap(
    const char *path, size_t nbins,
    struct tokio_darshan_dxt_heatmap **out, const char **layer);

/**
 * The figures of heat map `h` (shares are 0 when it holds no bytes).
 */
TOKIO_API void tokio_summarize_job_dxt_stats(
    const struct tokio_darshan_dxt_heatmap *h,
    struct tokio_summarize_job_dxt *out);

/* Keys whose values are the reference's datetimes: local wall-clock
 * times counted as if UTC, as its JSON serializer wrote them. */
#define TOKIO_SUMMARIZE_JOB_DATES "_datetime_start", "_datetime_end"

/**
 * Summarize the job: a row per Darshan log of `logs` (or one row for the
 * window of `o` when there are none), each an object of the reference's
 * keys in its order (`_datetime_*`, `_jobid`, `_file_system`,
 * `darshan_*`, `fs_*`, `topology_*`, `fshealth_ost_*`, `jobsdb_*`).
 * @param[out] rows_out  a new JSON list of the rows.
 * @param[out] warnings_out  a new JSON list of strings: what the
 *         reference warned about ("No HDF5 data for ..."), and the
 *         inputs skipped with silent_errors.
 * @return TOKIO_OK; TOKIO_EINVAL (--slurm-jobid with several logs, a
 *         window with logs); TOKIO_EFORMAT (a file that is no Darshan
 *         log, without silent_errors: the message names it); the errors
 *         of the sources asked (a Slurm file, a node map, the jobs
 *         database, the site's HDF5 files).
 */
TOKIO_API int tokio_summarize_job(json_t **rows_out, json_t **warnings_out,
                                  const struct tokio_config *cfg,
                                  const char *const *logs, size_t n_logs,
                                  const struct tokio_summarize_job_opts *o);

#endif
