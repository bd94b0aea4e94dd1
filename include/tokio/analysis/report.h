/*
 * tokio/analysis/report.h - a job on one page: one self-contained HTML
 * file (inline CSS and SVG figures, no script, nothing fetched) showing
 * what summarize-job gathers, with the job's I/O from its Darshan log,
 * the file system's activity around it and an UMAMI diagram of it
 * against earlier runs.
 */
#ifndef TOKIO_ANALYSIS_REPORT_H
#define TOKIO_ANALYSIS_REPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "tokio/common.h"
#include "tokio/tools/summarize_job.h"

struct tokio_config;

struct tokio_report_opts {
    struct tokio_summarize_job_opts job;    /* what summarize-job takes */
    const char *history;    /* summarize-job CSV of earlier runs, or NULL */
    int top_files;          /* busiest files listed (0: 10) */
};

/**
 * Write the report of the job whose Darshan logs are `logs` (or whose
 * window o->job gives) to `fp`: the job, its I/O, the file system during
 * it (a window around it, its span marked), OST fullness and failovers,
 * topology, concurrent jobs and an UMAMI diagram against o->history;
 * with o->job.dxt, after the I/O, "DXT: bytes by rank and time": a heat
 * map of the log's DXT traces (as tokio_summarize_job_dxt_heatmap()
 * makes it, 60 time bins, at most 32 rows of ranks) folded in the same
 * pass that reads the rest of the log for the page, or a sentence saying
 * the log has none (without it, DXT regions are not even inflated).  A
 * section whose data is absent says so.  Everything taken from a log, a
 * database or a file is HTML-escaped.
 * @param[out] warnings_out  a new JSON list of what could not be shown
 *         and why (also said in the page).
 * @return TOKIO_OK; the errors of tokio_summarize_job(), of reading the
 *         history (TOKIO_EFORMAT naming it), TOKIO_EIO (writing).
 */
TOKIO_API int tokio_report_write(FILE *fp, const struct tokio_config *cfg,
                                 const char *const *logs, size_t n_logs,
                                 const struct tokio_report_opts *o,
                                 json_t **warnings_out);

#endif
