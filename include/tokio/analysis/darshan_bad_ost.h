/*
 * tokio/analysis/darshan_bad_ost.h - which Lustre OSTs slow files down,
 * from Darshan logs (the reference's tokio.cli.darshan_bad_ost).
 *
 * Each file of each log that has both POSIX and LUSTRE records becomes
 * one observation: its performance (bytes read and written over all its
 * POSIX records, divided by the longest read + write + metadata time of
 * any one of them) and its OSTs (the set of OST ids of its LUSTRE
 * records).  For every OST the file's share of it is 1/(number of the
 * file's OSTs) if the file is on it, else 0; the Pearson correlation of
 * performance against that share, over all files, with its two-sided
 * p-value, says how strongly that OST goes with fast (r > 0) or slow
 * (r < 0) files.
 *
 * Usage: _new(), _add_log() per log, _correlate(), then select and print
 * with _keep(), _to_json() or _write_text(); _free().  A handle is not
 * thread-safe; distinct handles are.
 */
#ifndef TOKIO_ANALYSIS_DARSHAN_BAD_OST_H
#define TOKIO_ANALYSIS_DARSHAN_BAD_OST_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"
#include "tokio/connectors/darshan.h"

struct tokio_darshan_bad_ost;

/* One OST's correlation. */
struct tokio_darshan_bad_ost_result {
    int64_t ost_id;
    char ost_name[32];          /* "OST#14", the reference's column name */
    double coefficient;         /* Pearson r, in [-1, 1] */
    double p_value;             /* two-sided, Student's t, n - 2 df */
};

/* Which results to show, and when to warn: the reference's options. */
struct tokio_darshan_bad_ost_opts {
    double p_threshold;         /* shown if p < this (-p, 0.05) */
    double c_threshold;         /* shown if |r| > this (-c, 0.0) */
    double c_warning;           /* flagged if |r| > this (-C, 0.5) */
};

#define TOKIO_DARSHAN_BAD_OST_OPTS_DEFAULT { 0.05, 0.0, 0.5 }

/**
 * Start an empty set of observations.  *out holds it (free with
 * tokio_darshan_bad_ost_free()).
 * @return TOKIO_OK or TOKIO_ENOMEM (*out NULL).
 */
TOKIO_API int tokio_darshan_bad_ost_new(struct tokio_darshan_bad_ost **out);

/**
 * Add the files of `log`, named `label` (the log's path; copied): files
 * are told apart by "label@file name", so the same log added twice under
 * one label merges with itself (best performance, union of OSTs), as the
 * reference did.  A file with no I/O time at all has no performance and
 * is left out (tokio_darshan_bad_ost_no_time() counts them).  `log` is
 * not kept.
 * @return TOKIO_OK; TOKIO_ENOTFOUND when the log has no POSIX records or
 * no LUSTRE records (the message names the label and the module; nothing
 * is added), TOKIO_ENOMEM (the set is left as it was).
 */
TOKIO_API int tokio_darshan_bad_ost_add_log(struct tokio_darshan_bad_ost *b,
                                            const struct tokio_darshan *log,
                                            const char *label);

/**
 * As tokio_darshan_bad_ost_add_log() for the log at `path` (its label),
 * reading it as it is decoded: only its POSIX and LUSTRE records, folded
 * per file as they come, never held, so memory follows the number of
 * files, not of records (issue 17 item 5).
 * @return TOKIO_OK, TOKIO_PARTIAL (a module of the log ran out of memory
 * in the runtime; what it holds was added), what tokio_darshan_open()
 * fails with, TOKIO_ENOTFOUND (no POSIX or no LUSTRE records; nothing
 * added), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_bad_ost_add_path(struct tokio_darshan_bad_ost *b,
                                             const char *path);

/**
 * Add one file's observation as tokio_darshan_bad_ost_file() gave it out
 * (for merging the partial results of shards): file `name` of the log
 * `label`, its performance and its OST ids (sorted, distinct; copied).
 * A file of a label already added merges as in _add_log().  `no_time`
 * adds to tokio_darshan_bad_ost_no_time() (pass the file as NULL to add
 * only that).
 * @return TOKIO_OK, TOKIO_ENOMEM (the set is left as it was).
 */
TOKIO_API int tokio_darshan_bad_ost_add_file(struct tokio_darshan_bad_ost *b,
                                             const char *label,
                                             const char *name, double perf,
                                             const int64_t *osts,
                                             size_t n_osts, size_t no_time);

/** Observations so far: files with both POSIX and LUSTRE records. */
TOKIO_API size_t tokio_darshan_bad_ost_file_count(
    const struct tokio_darshan_bad_ost *b);

/**
 * File i (in the order first added): its "label@name" (borrowed), its
 * performance in bytes per second (*perf_out), and its distinct OST ids in
 * increasing order (borrowed, *n_osts_out of them).  Returns NULL when i
 * is out of range.  Pointers stay valid until the next _add_log().
 */
TOKIO_API const char *tokio_darshan_bad_ost_file(
    const struct tokio_darshan_bad_ost *b, size_t i, double *perf_out,
    const int64_t **osts_out, size_t *n_osts_out);

/** Files left out so far because no rank spent any time on them. */
TOKIO_API size_t tokio_darshan_bad_ost_no_time(
    const struct tokio_darshan_bad_ost *b);

/**
 * Correlate every OST with file performance.  *out (free()) holds *n_out
 * results, by increasing coefficient (most suspicious first; equal
 * coefficients by OST id).  OSTs whose share is the same for every file
 * are left out (nothing to correlate), and when every file performed the
 * same, or there are fewer than two files, there are no results (*out
 * NULL, *n_out 0), as in the reference.
 * @return TOKIO_OK, TOKIO_ENOMEM, TOKIO_ERR (a p-value did not converge;
 * not seen in practice); on failure *out is NULL and *n_out 0.
 */
TOKIO_API int tokio_darshan_bad_ost_correlate(
    const struct tokio_darshan_bad_ost *b,
    struct tokio_darshan_bad_ost_result **out, size_t *n_out);

/** Nonzero if `r` passes `o`'s thresholds (p < p_threshold and
 *  |r| > c_threshold; NaN never passes). */
TOKIO_API int tokio_darshan_bad_ost_keep(
    const struct tokio_darshan_bad_ost_result *r,
    const struct tokio_darshan_bad_ost_opts *o);

/**
 * The results `o` keeps, in order, as the reference's --json list:
 * [{"coefficient": r, "ost_name": "OST#14", "p-value": p}, ...].  *out is
 * a new reference.
 * @return TOKIO_OK or TOKIO_ENOMEM (*out NULL).
 */
TOKIO_API int tokio_darshan_bad_ost_to_json(
    const struct tokio_darshan_bad_ost_result *results, size_t n,
    const struct tokio_darshan_bad_ost_opts *o, json_t **out);

/**
 * The reference's text table of the results `o` keeps: a header line,
 * then "%-10s %12.3f %10.4g" per OST, with " <-- this OST looks
 * unhealthy" (r < 0) or " <-- this OST is running unusually quickly"
 * (r > 0) where |r| > c_warning.
 * @return TOKIO_OK or TOKIO_EIO (write failed).
 */
TOKIO_API int tokio_darshan_bad_ost_write_text(
    const struct tokio_darshan_bad_ost_result *results, size_t n,
    const struct tokio_darshan_bad_ost_opts *o, FILE *fp);

/** Release (NULL is fine). */
TOKIO_API void tokio_darshan_bad_ost_free(struct tokio_darshan_bad_ost *b);

#endif
