/*
 * src/analysis/insights_dxt.c - with --dxt, one finding from the log's
 * DXT traces: whether the traced bytes were concentrated in one rank or
 * in one short burst of the run.  The traces are read as a heat map of
 * bytes by rank and time bin (tokio_summarize_job_dxt_heatmap(), built as
 * the log streams), so memory is the map's whatever the traces' size.
 */
#include "analysis/insights_private.h"

#include <math.h>

#include "tokio/connectors/darshan.h"
#include "tokio/tools/summarize_job.h"

/* The rule's thresholds: a rank moving this share of the bytes (of a job
 * of several ranks) is a bottleneck; a time bin (1/100 of the run)
 * moving this share is a burst. */
#define RANK_SHARE  0.5
#define BURST_SHARE 0.5

static void
threshold(struct tokio__findings *f, json_t *x, const char *name, double v)
{
    if (x != NULL &&
        json_object_set_new(json_object_get(x, "thresholds"), name,
                            json_real(v)) < 0)
        f->failed = 1;
}

int
tokio__insights_dxt_rule(struct tokio__findings *f, const char *path)
{
    struct tokio_darshan_dxt_heatmap *h = NULL;
    struct tokio_summarize_job_dxt d;
    const char *layer = NULL;
    char total[64], moved[64];
    json_t *x = tokio__finding(f, "dxt_concentration", "the log's DXT "
                               "traces");
    int rc = tokio_summarize_job_dxt_heatmap(
                 path, TOKIO_SUMMARIZE_JOB_DXT_BINS, &h, &layer);

    if (rc == TOKIO_ENOMEM)
        return rc;
    if (rc < 0) {
        tokio__not_evaluated(f, x, "not evaluated: the DXT traces cannot "
                             "be read: %s", tokio_errmsg());
        return TOKIO_OK;
    }
    tokio_summarize_job_dxt_stats(h, &d);
    size_t nranks = h->nranks;
    tokio_darshan_dxt_heatmap_free(h);
    threshold(f, x, "dxt_rank_share", RANK_SHARE);
    threshold(f, x, "dxt_burst_share", BURST_SHARE);
    if (d.segments == 0 || !(d.total_bytes > 0)) {
        tokio__not_evaluated(f, x, "not evaluated: the log holds no DXT "
                             "traces (Darshan records them when run with "
                             "DXT_ENABLE_IO_TRACE set)");
        return TOKIO_OK;
    }
    tokio__source(f, x, "the log's DXT_%s traces, as a heat map of %d time "
                  "bins of %.3g s", layer[0] == 'P' ? "POSIX" : "MPIIO",
                  TOKIO_SUMMARIZE_JOB_DXT_BINS, d.bin_seconds);
    tokio__number(f, x, "segments", (double)d.segments);
    tokio__number(f, x, "bytes", d.total_bytes);
    tokio__number(f, x, "ranks", (double)nranks);
    tokio__number(f, x, "active_ranks", (double)d.active_ranks);
    tokio__number(f, x, "busiest_rank", (double)d.busiest_rank);
    tokio__number(f, x, "busiest_rank_share", d.busiest_rank_share);
    tokio__number(f, x, "peak_bin_share", d.peak_bin_share);
    tokio__number(f, x, "peak_bin_start_seconds",
                  d.bin_seconds * (double)d.peak_bin);
    tokio__number(f, x, "active_bin_share",
                  (double)d.active_bins / TOKIO_SUMMARIZE_JOB_DXT_BINS);
    tokio__file(f, x, NULL, d.busiest_rank,
                d.busiest_rank_share * d.total_bytes, d.busiest_rank_share);
    tokio__bytes_text(total, sizeof(total), d.total_bytes);
    int one_rank = nranks > 1 && d.busiest_rank_share >= RANK_SHARE;
    int burst = d.peak_bin_share >= BURST_SHARE;
    if (one_rank) {
        tokio__bytes_text(moved, sizeof(moved),
                          d.busiest_rank_share * d.total_bytes);
        tokio__found(f, x, TOKIO__WARNING, "rank %ld of %zu moved %s, %.0f%% "
                     "of the %s the DXT traces show%s", d.busiest_rank,
                     nranks, moved, 100 * d.busiest_rank_share, total,
                     burst ? ", most of it in one burst" : "");
        tokio__recommend(f, x, "spread the I/O over the ranks (each its own "
                         "part of the data, or collective MPI-IO with "
                         "several aggregators): one rank's bandwidth "
                         "bounds the job's");
    } else if (burst) {
        tokio__found(f, x, TOKIO__INFO, "%.0f%% of the %s the DXT traces "
                     "show moved in one burst of %.3g s (from %.3g s into "
                     "the run)", 100 * d.peak_bin_share, total,
                     d.bin_seconds, d.bin_seconds * (double)d.peak_bin);
        tokio__recommend(f, x, "if the burst is a checkpoint or an output "
                         "step, asynchronous I/O or a burst buffer lets "
                         "computing go on while it drains");
    } else
        tokio__found(f, x, TOKIO__OK, "the %s the DXT traces show are "
                     "spread over %zu of %zu ranks and %.0f%% of the run",
                     total, d.active_ranks, nranks,
                     100.0 * (double)d.active_bins /
                         TOKIO_SUMMARIZE_JOB_DXT_BINS);
    return TOKIO_OK;
}
