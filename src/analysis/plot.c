/*
 * src/analysis/plot.c - the drawing every figure of tokio shares (axes,
 * ticks, text, colours, finishing a cairo surface into a stream) and the
 * two charts of the job report: values over time with the job's span
 * shaded, and grouped bars.  Sizes are in points; text is cairo's own
 * sans-serif, so nothing is fetched or embedded but the glyphs cairo
 * writes into the SVG.
 */
#include "analysis/plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-svg.h>

#include "tokio/time.h"
#include "core/error.h"

double
tokio__plot_to_px(const struct tokio__axis *a, double v)
{
    return a->px0 + (v - a->lo) / (a->hi - a->lo) * (a->px1 - a->px0);
}

double
tokio__plot_tick_step(double lo, double hi, int max_ticks)
{
    static const double steps[] = { 1.0, 2.0, 2.5, 5.0, 10.0 };
    double span = hi - lo;
    double mag = pow(10.0, floor(log10(span / max_ticks)));

    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
        if (span / (steps[i] * mag) <= max_ticks)
            return steps[i] * mag;
    return 10.0 * mag;
}

size_t
tokio__plot_ticks(double lo, double hi, double step, double *v, size_t max)
{
    double first = ceil(lo / step) * step;
    size_t n = 0;

    if (!(step > 0) || !isfinite(first) || !isfinite(hi))
        return 0;
    for (size_t k = 0; n < max; k++) {
        double t = first + (double)k * step;
        if (t > hi + step / 1e9)
            break;
        v[n++] = t;
    }
    return n;
}

void
tokio__plot_tick_label(char *buf, size_t size, double v, double step)
{
    snprintf(buf, size, "%g", fabs(v) < step / 1e6 ? 0.0 : v);
}

void
tokio__plot_color(cairo_t *cr, const char *hex)
{
    unsigned long v = strtoul(hex + 1, NULL, 16);

    cairo_set_source_rgb(cr, (double)((v >> 16) & 0xff) / 255.0,
                         (double)((v >> 8) & 0xff) / 255.0,
                         (double)(v & 0xff) / 255.0);
}

void
tokio__plot_text(cairo_t *cr, const char *s, double x, double y,
                 double align_x, double align_y)
{
    cairo_text_extents_t e;

    cairo_text_extents(cr, s, &e);
    cairo_move_to(cr, x - align_x * e.x_advance - e.x_bearing,
                  y - align_y * e.height - e.y_bearing);
    cairo_show_text(cr, s);
}

cairo_status_t
tokio__plot_write(void *closure, const unsigned char *data,
                  unsigned int length)
{
    return fwrite(data, 1, length, closure) == length
               ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

int
tokio__plot_finish(cairo_surface_t *s, cairo_status_t status, FILE *fp,
                   const char *what)
{
    int rc;

    cairo_surface_finish(s);
    if (status == CAIRO_STATUS_SUCCESS)
        status = cairo_surface_status(s);
    cairo_surface_destroy(s);
    if (status == CAIRO_STATUS_NO_MEMORY)
        return tokio__error(TOKIO_ENOMEM, "out of memory drawing %s", what);
    if (status != CAIRO_STATUS_SUCCESS && status != CAIRO_STATUS_WRITE_ERROR)
        return tokio__error(TOKIO_EIO, "cannot draw %s: %s", what,
                            cairo_status_to_string(status));
    rc = tokio__write_check(fp, "cannot write %s", what);
    if (rc == TOKIO_OK && status == CAIRO_STATUS_WRITE_ERROR)
        rc = tokio__error(TOKIO_EIO, "cannot write %s", what);
    return rc;
}

/* ---- the report's charts ------------------------------------------------ */

#define WIDTH   560.0
#define HEIGHT  170.0
#define LEFT    64.0
#define RIGHT   12.0
#define TOP     22.0
#define BOTTOM  30.0
#define FONT    10.0

static cairo_t *
begin(FILE *fp, cairo_surface_t **s, const char *title)
{
    cairo_t *cr;

    *s = cairo_svg_surface_create_for_stream(tokio__plot_write, fp, WIDTH,
                                             HEIGHT);
    cr = cairo_create(*s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, FONT + 1);
    cairo_set_source_rgb(cr, 0, 0, 0);
    tokio__plot_text(cr, title, LEFT, 6, 0, 0);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, FONT);
    return cr;
}

/* The y axis over the plot area: grid, tick labels, its name. */
static void
y_axis(cairo_t *cr, const struct tokio__axis *y, const char *label)
{
    double step = tokio__plot_tick_step(y->lo, y->hi, 4), ticks[8];
    size_t n = tokio__plot_ticks(y->lo, y->hi, step, ticks, 8);
    char buf[32];

    for (size_t k = 0; k < n; k++) {
        double v = ticks[k], py = tokio__plot_to_px(y, v);
        cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
        cairo_set_line_width(cr, 0.5);
        cairo_move_to(cr, LEFT, py);
        cairo_line_to(cr, WIDTH - RIGHT, py);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        tokio__plot_tick_label(buf, sizeof(buf), v, step);
        tokio__plot_text(cr, buf, LEFT - 4, py, 1, 0.5);
    }
    cairo_save(cr);
    cairo_translate(cr, 10, (y->px0 + y->px1) / 2);
    cairo_rotate(cr, -M_PI / 2);
    tokio__plot_text(cr, label, 0, 0, 0.5, 0.5);
    cairo_restore(cr);
}

/* The plot area's border, its right edge at `right`. */
static void
frame_at(cairo_t *cr, double right)
{
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 0.8);
    cairo_rectangle(cr, LEFT, TOP, right - LEFT, HEIGHT - TOP - BOTTOM);
    cairo_stroke(cr);
}

static void
frame(cairo_t *cr)
{
    frame_at(cr, WIDTH - RIGHT);
}

/* The legend, top right, one entry per line or series. */
static void
legend(cairo_t *cr, const char *const *labels, const char *const *colors,
       size_t n)
{
    double x = WIDTH - RIGHT - 4;

    for (size_t i = n; i-- > 0;) {
        cairo_text_extents_t e;
        cairo_text_extents(cr, labels[i], &e);
        x -= e.x_advance;
        cairo_set_source_rgb(cr, 0, 0, 0);
        tokio__plot_text(cr, labels[i], x, TOP + 4, 0, 0);
        x -= 14;
        tokio__plot_color(cr, colors[i]);
        cairo_rectangle(cr, x, TOP + 5, 10, 7);
        cairo_fill(cr);
        x -= 10;
    }
}

/* The y range of the data: from 0 (or below) to 5% above the top. */
static void
y_range(struct tokio__axis *y, double lo, double hi)
{
    if (!isfinite(lo) || !isfinite(hi)) {
        lo = 0;
        hi = 1;
    }
    y->lo = lo < 0 ? lo * 1.05 : 0;
    y->hi = hi > y->lo ? y->lo + (hi - y->lo) * 1.05 : y->lo + 1;
    y->px0 = HEIGHT - BOTTOM;
    y->px1 = TOP;
}

int
tokio__plot_time_svg(FILE *fp, const char *title, const char *ylabel,
                     const struct tokio__plot_line *lines, size_t n,
                     int64_t x0, int64_t x1, int64_t span0, int64_t span1)
{
    struct tokio__axis x = { (double)x0, (double)(x1 > x0 ? x1 : x0 + 1),
                             LEFT, WIDTH - RIGHT };
    struct tokio__axis y;
    double lo = INFINITY, hi = -INFINITY;
    cairo_surface_t *s;
    cairo_t *cr = begin(fp, &s, title);
    const char *labels[8], *colors[8];
    char buf[32];
    int64_t step;

    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < lines[i].n; j++)
            if (isfinite(lines[i].v[j])) {
                lo = fmin(lo, lines[i].v[j]);
                hi = fmax(hi, lines[i].v[j]);
            }
    y_range(&y, lo, hi);
    /* the job's span */
    cairo_set_source_rgb(cr, 1.0, 0.95, 0.75);
    cairo_rectangle(cr, tokio__plot_to_px(&x, (double)span0), TOP,
                    tokio__plot_to_px(&x, (double)span1) -
                        tokio__plot_to_px(&x, (double)span0),
                    HEIGHT - TOP - BOTTOM);
    cairo_fill(cr);
    y_axis(cr, &y, ylabel);
    /* time ticks: a round number of minutes or hours */
    for (step = 60; (x1 - x0) / step > 6; )
        step = step < 3600 ? (step == 60 ? 300 : step == 300 ? 900
                              : step == 900 ? 1800 : 3600)
                           : step * 2;
    double ticks[8];
    size_t nt = tokio__plot_ticks((double)x0, (double)x1, (double)step,
                                  ticks, 8);
    for (size_t k = 0; k < nt; k++) {
        tokio_time_format(buf, sizeof(buf), (int64_t)ticks[k], "%H:%M");
        cairo_set_source_rgb(cr, 0, 0, 0);
        tokio__plot_text(cr, buf, tokio__plot_to_px(&x, ticks[k]),
                         HEIGHT - BOTTOM + 4, 0.5, 0);
    }
    cairo_save(cr);
    cairo_rectangle(cr, LEFT, TOP, WIDTH - LEFT - RIGHT,
                    HEIGHT - TOP - BOTTOM);
    cairo_clip(cr);
    for (size_t i = 0; i < n; i++) {
        int down = 0;
        tokio__plot_color(cr, lines[i].color);
        cairo_set_line_width(cr, 1.2);
        for (size_t j = 0; j < lines[i].n; j++) {
            double px = tokio__plot_to_px(&x, (double)lines[i].t[j]);
            double py = tokio__plot_to_px(&y, lines[i].v[j]);
            if (!isfinite(lines[i].v[j])) {
                down = 0;
                continue;
            }
            if (down)
                cairo_line_to(cr, px, py);
            else
                cairo_move_to(cr, px, py);
            down = 1;
        }
        cairo_stroke(cr);
        if (i < 8) {
            labels[i] = lines[i].label;
            colors[i] = lines[i].color;
        }
    }
    cairo_restore(cr);
    frame(cr);
    if (n > 1)
        legend(cr, labels, colors, n < 8 ? n : 8);
    cairo_destroy(cr);
    return tokio__plot_finish(s, CAIRO_STATUS_SUCCESS, fp, "a chart");
}

int
tokio__plot_bars_svg(FILE *fp, const char *title, const char *ylabel,
                     const char *const *categories, size_t n,
                     const double *const *series, const char *const *labels,
                     const char *const *colors, size_t n_series)
{
    struct tokio__axis y;
    double hi = 0, slot = (WIDTH - LEFT - RIGHT) / (double)(n ? n : 1);
    double bar = slot * 0.8 / (double)(n_series ? n_series : 1);
    cairo_surface_t *s;
    cairo_t *cr = begin(fp, &s, title);

    for (size_t k = 0; k < n_series; k++)
        for (size_t i = 0; i < n; i++)
            hi = fmax(hi, series[k][i]);
    y_range(&y, 0, hi);
    y_axis(cr, &y, ylabel);
    for (size_t i = 0; i < n; i++) {
        double x = LEFT + slot * (double)i + slot * 0.1;
        for (size_t k = 0; k < n_series; k++) {
            double top = tokio__plot_to_px(&y, series[k][i]);
            tokio__plot_color(cr, colors[k]);
            cairo_rectangle(cr, x + bar * (double)k, top, bar * 0.95,
                            HEIGHT - BOTTOM - top);
            cairo_fill(cr);
        }
        cairo_set_source_rgb(cr, 0, 0, 0);
        tokio__plot_text(cr, categories[i], LEFT + slot * ((double)i + 0.5),
                         HEIGHT - BOTTOM + 4, 0.5, 0);
    }
    frame(cr);
    legend(cr, labels, colors, n_series);
    cairo_destroy(cr);
    return tokio__plot_finish(s, CAIRO_STATUS_SUCCESS, fp, "a chart");
}

/* The heat map's colour of `f` in (0, 1]: pale yellow to dark red. */
static void
heat_color(cairo_t *cr, double f)
{
    static const double stops[3][3] = {
        { 1.00, 0.93, 0.63 }, { 0.94, 0.40, 0.15 }, { 0.50, 0.00, 0.05 }
    };
    double t = f <= 0.5 ? f * 2 : (f - 0.5) * 2;
    const double *a = stops[f <= 0.5 ? 0 : 1], *b = stops[f <= 0.5 ? 1 : 2];

    cairo_set_source_rgb(cr, a[0] + (b[0] - a[0]) * t,
                         a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t);
}

int
tokio__plot_heatmap_svg(FILE *fp, const char *title, const double *v,
                        size_t nrows, size_t ncols, double x_lo, double x_hi,
                        const char *xlabel, double y_lo, double y_hi,
                        const char *ylabel, const char *max_text)
{
    const double bar = 60.0, right = WIDTH - RIGHT - bar;
    struct tokio__axis x = { x_lo, x_hi > x_lo ? x_hi : x_lo + 1, LEFT,
                             right };
    struct tokio__axis y = { y_lo, y_hi > y_lo ? y_hi : y_lo + 1, TOP,
                             HEIGHT - BOTTOM };
    double vmax = 0, cw = (right - LEFT) / (double)(ncols ? ncols : 1);
    double ch = (HEIGHT - BOTTOM - TOP) / (double)(nrows ? nrows : 1);
    double ticks[8];
    cairo_surface_t *s;
    cairo_t *cr = begin(fp, &s, title);
    char buf[32];

    for (size_t i = 0; i < nrows * ncols; i++)
        if (isfinite(v[i]))
            vmax = fmax(vmax, v[i]);
    for (size_t r = 0; r < nrows; r++)
        for (size_t c = 0; c < ncols; c++) {
            double f = v[r * ncols + c];
            if (!(f > 0) || !(vmax > 0))
                continue;
            heat_color(cr, f / vmax);
            cairo_rectangle(cr, LEFT + cw * (double)c, TOP + ch * (double)r,
                            cw, ch);
            cairo_fill(cr);
        }
    frame_at(cr, right);
    /* x ticks below, y ticks left (the first rank at the top) */
    double step = tokio__plot_tick_step(x.lo, x.hi, 6);
    size_t n = tokio__plot_ticks(x.lo, x.hi, step, ticks, 8);
    cairo_set_source_rgb(cr, 0, 0, 0);
    for (size_t k = 0; k < n; k++) {
        tokio__plot_tick_label(buf, sizeof(buf), ticks[k], step);
        tokio__plot_text(cr, buf, tokio__plot_to_px(&x, ticks[k]),
                         HEIGHT - BOTTOM + 3, 0.5, 0);
    }
    tokio__plot_text(cr, xlabel, (LEFT + right) / 2, HEIGHT - 2, 0.5, 1);
    step = tokio__plot_tick_step(y.lo, y.hi, 4);
    if (step < 1)
        step = 1;
    n = tokio__plot_ticks(y.lo, y.hi - step / 2, step, ticks, 8);
    for (size_t k = 0; k < n; k++) {
        tokio__plot_tick_label(buf, sizeof(buf), ticks[k], step);
        tokio__plot_text(cr, buf, LEFT - 4, tokio__plot_to_px(&y, ticks[k]),
                         1, 0);
    }
    cairo_save(cr);
    cairo_translate(cr, 10, (TOP + HEIGHT - BOTTOM) / 2);
    cairo_rotate(cr, -M_PI / 2);
    tokio__plot_text(cr, ylabel, 0, 0, 0.5, 0.5);
    cairo_restore(cr);
    /* the colour scale: a gradient from the palest to the darkest */
    cairo_pattern_t *g = cairo_pattern_create_linear(0, HEIGHT - BOTTOM, 0,
                                                     TOP);
    cairo_pattern_add_color_stop_rgb(g, 0.0, 1.00, 0.93, 0.63);
    cairo_pattern_add_color_stop_rgb(g, 0.5, 0.94, 0.40, 0.15);
    cairo_pattern_add_color_stop_rgb(g, 1.0, 0.50, 0.00, 0.05);
    cairo_set_source(cr, g);
    cairo_rectangle(cr, right + 10, TOP, 10, HEIGHT - BOTTOM - TOP);
    cairo_fill(cr);
    cairo_pattern_destroy(g);
    cairo_set_source_rgb(cr, 0, 0, 0);
    tokio__plot_text(cr, max_text, right + 24, TOP, 0, 0);
    tokio__plot_text(cr, "0", right + 24, HEIGHT - BOTTOM, 0, 1);
    cairo_destroy(cr);
    return tokio__plot_finish(s, CAIRO_STATUS_SUCCESS, fp, "a heat map");
}
