/*
 * tokio/analysis/insights.h - what went wrong in a job's I/O and why,
 * from both sides: rules over the job's Darshan counters (the client
 * side, as rule-based advisers such as Drishti read them) and over what
 * the site's own data says the file system was doing in the job's
 * window (the server side: TTS/H5LMT time series, OST fullness and
 * failovers, the job's files against its OSTs, earlier runs).
 *
 * Every rule gives one finding, whether it fired or not:
 *
 *   { "code": "small_writes",            one per rule, see below
 *     "level": "high" | "warning" | "info" | "ok" | null,
 *     "evaluated": true | false,         false: level null, and the
 *                                        title says why it could not be
 *     "title": "...",                    one sentence, with the numbers
 *     "numbers": { "name": number|null },  what triggered it (or not)
 *     "thresholds": { "name": number },  the thresholds the rule used
 *     "files": [ { "name": str|null, "rank": int, "bytes": num|null,
 *                  "value": num|null } ],   the top few it concerns
 *                                        (files, datasets, or ranks
 *                                        with name null)
 *     "recommendation": str|null,        what to do about it
 *     "source": "..." }                  where the data came from
 *
 * Rule codes, in the order the rules run (and of --csv's columns):
 * client side stdio_share, no_mpiio, operation_intensity,
 * byte_intensity, small_reads, small_writes, small_shared_reads,
 * small_shared_writes, misaligned_memory, misaligned_file,
 * redundant_reads, redundant_writes, random_reads, random_writes,
 * metadata_time, straggler_bytes, straggler_time, rank_imbalance_reads,
 * rank_imbalance_writes, collective_reads, collective_writes,
 * nonblocking_reads, nonblocking_writes, cb_nodes,
 * hdf5_small_dataset_access, hdf5_collective_dataset_access,
 * pnetcdf_small_var_access, pnetcdf_collective_var_access; server side
 * fs_contention, ost_full, ost_failover, slow_ost, metadata_pressure,
 * history.  With o->job.dxt only, after the client side:
 * dxt_concentration (from the DXT traces' heat map: warning when one
 * rank of several moved at least dxt_rank_share 0.5 of the traced bytes,
 * info when one time bin, 1/100 of the run, moved at least
 * dxt_burst_share 0.5 of them; fixed thresholds, not set by the
 * configuration or overrides); it is no --csv column.
 *
 * Thresholds have names and the peer's (Drishti's) values by default;
 * the site configuration's key `insights` (an object of name: number,
 * or Drishti's {category: {name: number}} whose names are joined with
 * '_') and "NAME=VALUE" overrides change them.
 */
#ifndef TOKIO_ANALYSIS_INSIGHTS_H
#define TOKIO_ANALYSIS_INSIGHTS_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "tokio/common.h"
#include "tokio/tools/summarize_job.h"

struct tokio_config;

/* What to look at; zero-initialise and fill in. */
struct tokio_insights_opts {
    /* the site's data, as summarize-job takes it: file_system (NULL: the
     * mount the job moved most bytes on, named by mount_to_fsname),
     * slurm_jobid (the job's nodes), ost_fullness and ost_map (saved
     * `lfs df` / `lctl dl -t` histories instead of the site's),
     * concurrentjobs and jobhost; the window is the log's */
    struct tokio_summarize_job_opts job;
    const char *history;        /* summarize-job CSV of earlier runs */
    const char *const *thresholds;      /* "NAME=VALUE" overrides */
    size_t n_thresholds;
    int top;                    /* files or ranks listed per finding
                                   (0: 5; at most 32) */
    int client_only;            /* the Darshan log alone */
};

/**
 * The thresholds in force: the defaults, then the site configuration's
 * `insights` key (`cfg` may be NULL), then `overrides` ("NAME=VALUE").
 * @param[out] out  a new object {name: value}, every threshold.
 * @return TOKIO_OK; TOKIO_EINVAL (an override that is not NAME=VALUE,
 *         names no threshold, or is out of its range: the message says
 *         which and lists the names); TOKIO_EFORMAT (the same in the
 *         site configuration, naming its key); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_insights_thresholds(json_t **out,
                                        const struct tokio_config *cfg,
                                        const char *const *overrides,
                                        size_t n_overrides);

/**
 * The findings of the job whose Darshan log is `path`.  `row` is
 * summarize-job's row of it when the caller has one (tokio report does;
 * borrowed); NULL: gathered here over the log's window, without reading
 * the log again.  Server-side data that is missing or unreadable makes
 * its findings "not evaluated" with the reason, never a failure.
 * @param[out] out  a new object: { "log", "jobid", "exe", "nprocs",
 *         "start_time", "end_time" (epoch), "file_system" (or null),
 *         "findings": [...] in rule order, "notes": [strings: what was
 *         partial or skipped], "thresholds": {...} }.
 * @return TOKIO_OK; TOKIO_EIO, TOKIO_EFORMAT (the log cannot be read,
 *         or the history named by o->history; the message names it);
 *         TOKIO_EINVAL (bad thresholds, as tokio_insights_thresholds());
 *         TOKIO_ENOMEM.  On failure *out is NULL.
 */
TOKIO_API int tokio_insights_log(json_t **out, const struct tokio_config *cfg,
                                 const char *path, const json_t *row,
                                 const struct tokio_insights_opts *o);

/** Rank of a finding's level for sorting, high first: 0 high, 1
 *  warning, 2 info, 3 ok, 4 not evaluated (null or unknown). */
TOKIO_API int tokio_insights_level_rank(const json_t *finding);

/**
 * One log's result (tokio_insights_log()) as text for a terminal: a
 * line about the job, then each finding, high levels first, with its
 * numbers, files, recommendation and source; levels in colour (ANSI) when
 * `color`.  @return TOKIO_OK, TOKIO_EIO (writing failed).
 */
TOKIO_API int tokio_insights_write_text(FILE *fp, const json_t *result,
                                        int color);

/**
 * Results of several logs (a list of tokio_insights_log() results) as
 * CSV: a header "log,jobid,<code>..." with every rule code, then one row
 * per log whose cells are the findings' levels ("n/a" when not
 * evaluated).  @return TOKIO_OK, TOKIO_EIO.
 */
TOKIO_API int tokio_insights_write_csv(FILE *fp, const json_t *results);

#endif
