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
};

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
