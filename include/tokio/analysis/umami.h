/*
 * tokio/analysis/umami.h - UMAMI diagrams (Lockwood et al., "UMAMI: a
 * recipe for generating meaningful metrics through holistic I/O
 * performance analysis", PDSW-DISCS'17): one row per metric of a job's
 * runs over time, the time series on the left, a box plot of its history
 * on the right, and one run (by default the last) highlighted in the
 * colour of the quartile of the runs before it that it falls in.
 * Mirrors tokio.analysis.umami.Umami and UmamiMetric.
 */
#ifndef TOKIO_ANALYSIS_UMAMI_H
#define TOKIO_ANALYSIS_UMAMI_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_umami;
struct tokio_csv;

/* The reference's colours of the highlighted run, from the lowest
 * quartile to the highest when big is good (read backwards when small is
 * good): red, orange, green, blue. */
#define TOKIO_UMAMI_COLOR_Q1 "#DA0017"
#define TOKIO_UMAMI_COLOR_Q2 "#FD6A07"
#define TOKIO_UMAMI_COLOR_Q3 "#40A43A"
#define TOKIO_UMAMI_COLOR_Q4 "#2C69A9"
/* the time series' line */
#define TOKIO_UMAMI_COLOR_LINE "#853692"

/** A new diagram without metrics.  @return TOKIO_OK, TOKIO_ENOMEM. */
TOKIO_API int tokio_umami_new(struct tokio_umami **out);

/**
 * Add a metric (a row, drawn in the order added): `n` pairs of a
 * timestamp (epoch seconds) and a value (NaN: missing), copied; `label`
 * names the row in the picture (NULL: `name`); `big_is_good` says which
 * way is better.
 * @return TOKIO_OK, TOKIO_EINVAL (no name, or a name already added),
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_umami_add(struct tokio_umami *u, const char *name,
                              const char *label, int big_is_good,
                              const int64_t *timestamps,
                              const double *values, size_t n);

/**
 * Add one run to metric `name`: the value `value` (NaN: missing) at
 * `timestamp`, after the others (the reference's UmamiMetric.append()).
 * @return TOKIO_OK, TOKIO_ENOTFOUND (no such metric), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_umami_append(struct tokio_umami *u, const char *name,
                                 int64_t timestamp, double value);

/** Which columns of a history to draw, and how (all may be NULL/0). */
struct tokio_umami_columns {
    const char *const *names;   /* NULL: every numeric column */
    size_t n_names;
    const char *const *labels;  /* one per name (names required) */
    size_t n_labels;
    const char *const *small_is_good;   /* names whose small is better */
    size_t n_small_is_good;
};

/**
 * A diagram of a history of runs: a CSV table (tokio/csv.h) whose time
 * is its `_datetime_start` column when it has one (as summarize-job
 * writes it), else its first column ("YYYY-MM-DD HH:MM:SS" local time,
 * ISO 8601, or epoch seconds), one row per run.  Without `cols->names`,
 * every column whose cells are all numbers or empty is a metric, but the
 * time, a first column named "index" (pandas' row numbers) and
 * bookkeeping columns starting with '_'.  `name` names the table in
 * messages.
 * @param[out] out  the diagram; tokio_umami_free() it.
 * @return TOKIO_OK, TOKIO_EFORMAT (a time that does not parse, a chosen
 *         column that is not numeric, no numeric column at all: the
 *         message names the table, column and row), TOKIO_EINVAL (a
 *         named column absent, labels not one per name), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_umami_from_csv(struct tokio_umami **out,
                                   const struct tokio_csv *table,
                                   const char *name,
                                   const struct tokio_umami_columns *cols);

/** Number of metrics. */
TOKIO_API size_t tokio_umami_count(const struct tokio_umami *u);

/** Name of metric `i` (< count); borrowed. */
TOKIO_API const char *tokio_umami_name(const struct tokio_umami *u, size_t i);

/**
 * The colour of metric `i`'s highlighted run (`highlight` indexes its
 * values, negative from the end as in Python: -1 is the last) as
 * "#RRGGBB": the first of the 25th, 50th, 75th and 100th percentiles
 * (linear, NaNs skipped) of the values before it that it does not exceed
 * picks TOKIO_UMAMI_COLOR_Q1..Q4 when big is good, Q4..Q1 when small is
 * good; a value above all, or missing, or without history keeps the
 * last.  Differs from pytokio: the reference took the percentiles of all
 * values but the last whatever run was highlighted.
 * @return TOKIO_OK, TOKIO_EINVAL (no such metric or run).
 */
TOKIO_API int tokio_umami_highlight_color(const struct tokio_umami *u,
                                          size_t i, long highlight,
                                          const char **color_out);

/**
 * The diagram's numbers as the reference's to_json(): an object keyed by
 * timestamp ("YYYY-MM-DD HH:MM:SS", local time) of objects keyed by
 * metric; a missing value is null (the reference wrote NaN, which is not
 * JSON).  A new reference in `*out`.  @return TOKIO_OK, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_umami_to_json(const struct tokio_umami *u, json_t **out);

/** The same as pandas' to_csv() of the reference's to_dataframe(): a row
 * per timestamp in time order, a column per metric, empty cells where a
 * metric has no value.  @return TOKIO_OK, TOKIO_EIO, TOKIO_ENOMEM. */
TOKIO_API int tokio_umami_write_csv(const struct tokio_umami *u, FILE *fp);

enum tokio_umami_format {
    TOKIO_UMAMI_PNG,
    TOKIO_UMAMI_SVG,
    TOKIO_UMAMI_PDF
};

/**
 * Draw the diagram with cairo into `fp`, run `highlight` of each metric
 * highlighted (see tokio_umami_highlight_color(); a metric without that
 * run has none): a PNG at 100 pixels per inch, an SVG or a PDF.
 * @return TOKIO_OK, TOKIO_EINVAL (no metric), TOKIO_EIO (writing failed:
 *         the cause), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_umami_write_figure(const struct tokio_umami *u, FILE *fp,
                                       enum tokio_umami_format format,
                                       long highlight);

/** Release the diagram; NULL is fine. */
TOKIO_API void tokio_umami_free(struct tokio_umami *u);

#endif
