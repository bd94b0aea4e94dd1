/*
 * src/analysis/plot.h - what the figures of tokio share (UMAMI diagrams,
 * the job report's charts), drawn with cairo: axes, ticks, text, colours,
 * surfaces written to a stream, and the two charts the report draws.
 */
#ifndef TOKIO_ANALYSIS_PLOT_H
#define TOKIO_ANALYSIS_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cairo.h>

/* A data range drawn between two positions, in points. */
struct tokio__axis {
    double lo, hi;
    double px0, px1;
};

/* Where value `v` falls on `a`. */
double tokio__plot_to_px(const struct tokio__axis *a, double v);

/* Nice tick spacing (1, 2, 2.5 or 5 times a power of ten) giving at most
 * `max_ticks` ticks between lo and hi. */
double tokio__plot_tick_step(double lo, double hi, int max_ticks);

/* The ticks from lo to hi `step` apart, into v[0..max): how many.  At most
 * `max`, so an axis whose step is lost in its magnitude (1e20 + 1e4) or
 * whose span is absurd (a history over millions of years) still ends. */
size_t tokio__plot_ticks(double lo, double hi, double step, double *v,
                         size_t max);

/* A tick value as text ("%g", with -0 and float dust shown as 0). */
void tokio__plot_tick_label(char *buf, size_t size, double v, double step);

/* The source colour of `cr` from "#RRGGBB". */
void tokio__plot_color(cairo_t *cr, const char *hex);

/* `s` drawn with its box aligned at (x, y): align_x 0 left, 0.5 centre,
 * 1 right; align_y likewise from top to bottom. */
void tokio__plot_text(cairo_t *cr, const char *s, double x, double y,
                      double align_x, double align_y);

/* cairo's stream callback writing into the FILE `closure`. */
cairo_status_t tokio__plot_write(void *closure, const unsigned char *data,
                                 unsigned int length);

/*
 * Finish `s` (cairo's errors translated: TOKIO_ENOMEM, or TOKIO_EIO
 * naming `what` and the cause of a failed write to `fp`) and destroy it;
 * `status` is one cairo reported before (PNG writing), or SUCCESS.
 */
int tokio__plot_finish(cairo_surface_t *s, cairo_status_t status, FILE *fp,
                       const char *what);

/* One line of a time chart; NaN values leave gaps. */
struct tokio__plot_line {
    const char *label;
    const char *color;          /* "#RRGGBB" */
    const int64_t *t;
    const double *v;
    size_t n;
};

/*
 * A time chart as SVG into `fp`: lines over x0..x1 (epoch seconds, local
 * "%H:%M" labels), the span span0..span1 shaded (the job), y from 0 (or
 * the data's minimum when negative) to a little above the maximum,
 * labelled `ylabel`; a legend when there are several lines.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_ENOMEM.
 */
int tokio__plot_time_svg(FILE *fp, const char *title, const char *ylabel,
                         const struct tokio__plot_line *lines, size_t n,
                         int64_t x0, int64_t x1, int64_t span0,
                         int64_t span1);

/*
 * Grouped bars as SVG into `fp`: for each of `n` categories one bar of
 * each of the `n_series` series (values series[k][i], colours
 * colors[k], named labels[k] in a legend).
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_ENOMEM.
 */
int tokio__plot_bars_svg(FILE *fp, const char *title, const char *ylabel,
                         const char *const *categories, size_t n,
                         const double *const *series,
                         const char *const *labels,
                         const char *const *colors, size_t n_series);

/*
 * A heat map as SVG into `fp`: v[row * ncols + col] >= 0, row 0 at the
 * top, col 0 at the left; a cell is one filled rectangle coloured from
 * pale yellow (just above 0) to dark red (the largest value), cells of 0
 * left blank (white).  x runs over x_lo..x_hi (ticks labelled, named
 * `xlabel`), y over y_lo..y_hi from top to bottom (named `ylabel`); a
 * colour bar on the right labelled "0" and `max_text`.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_ENOMEM.
 */
int tokio__plot_heatmap_svg(FILE *fp, const char *title, const double *v,
                            size_t nrows, size_t ncols, double x_lo,
                            double x_hi, const char *xlabel, double y_lo,
                            double y_hi, const char *ylabel,
                            const char *max_text);

#endif
