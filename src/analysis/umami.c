/*
 * src/analysis/umami.c - UMAMI diagrams: the data (metrics of a job's
 * runs over time), its JSON and table forms, and its picture drawn with
 * cairo as PNG, SVG or PDF.  Mirrors tokio.analysis.umami (pytokio 0.13),
 * whose picture matplotlib drew; the layout and colour rules are its:
 *
 * - one row per metric, 4/5 of the width the time series (line #853692,
 *   'x' markers, grid, one x range for all rows, dates "%b %d" rotated
 *   45 degrees under the bottom row only), 1/5 a box plot of every value
 *   but the highlighted one (NaNs dropped; whiskers at the 5th and 95th
 *   percentiles, values beyond them drawn as circles), on the same y
 *   range, which is the data's (with matplotlib's 5% margins) scaled by
 *   0.9 below and 1.1 above, as the reference did;
 * - the row's label wrapped at 15 characters, right-aligned left of it;
 * - the highlighted run (default the last) a 15-point star in the colour
 *   of its quartile (tokio_umami_highlight_color()), the segment from the
 *   run before it twice as thick in that colour, and a dashed line at its
 *   value across the box plot.  Missing values leave gaps in the line.
 *
 * Geometry is in points (1/72 inch): the reference's rows were 6 by 4/3
 * inches; a PNG is rendered at 100 pixels per inch, matplotlib's default.
 */
#include "tokio/analysis/umami.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "analysis/plot.h"

#include "tokio/csv.h"
#include "tokio/output.h"
#include "tokio/time.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/text.h"

struct metric {
    char *name, *label;
    int big_is_good;
    int64_t *t;
    double *v;
    size_t n;
};

struct tokio_umami {
    struct metric *m;
    size_t n;
};

/* ---- data -------------------------------------------------------------- */

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory making an UMAMI "
                        "diagram");
}

int
tokio_umami_new(struct tokio_umami **out)
{
    if ((*out = tokio__calloc(1, sizeof(**out))) == NULL)
        return oom();
    return TOKIO_OK;
}

int
tokio_umami_add(struct tokio_umami *u, const char *name, const char *label,
                int big_is_good, const int64_t *timestamps,
                const double *values, size_t n)
{
    struct metric *grown, *m;

    if (name == NULL || name[0] == '\0')
        return tokio__error(TOKIO_EINVAL, "an UMAMI metric needs a name");
    for (size_t i = 0; i < u->n; i++)
        if (strcmp(u->m[i].name, name) == 0)
            return tokio__error(TOKIO_EINVAL, "UMAMI metric '%s' added "
                                "twice", name);
    if ((grown = tokio__reallocarray(u->m, u->n + 1, sizeof(*grown))) == NULL)
        return oom();
    u->m = grown;
    m = memset(&u->m[u->n], 0, sizeof(*m));
    m->big_is_good = big_is_good != 0;
    m->n = n;
    if ((m->name = tokio__strdup(name)) == NULL ||
        (m->label = tokio__strdup(label ? label : name)) == NULL ||
        (m->t = tokio__calloc(n + 1, sizeof(*m->t))) == NULL ||
        (m->v = tokio__calloc(n + 1, sizeof(*m->v))) == NULL) {
        free(m->name);
        free(m->label);
        free(m->t);
        return oom();
    }
    memcpy(m->t, timestamps, n * sizeof(*m->t));
    memcpy(m->v, values, n * sizeof(*m->v));
    u->n++;
    return TOKIO_OK;
}

int
tokio_umami_append(struct tokio_umami *u, const char *name, int64_t timestamp,
                   double value)
{
    for (size_t i = 0; i < u->n; i++) {
        struct metric *m = &u->m[i];
        int64_t *t;
        double *v;
        if (strcmp(m->name, name) != 0)
            continue;
        /* each array has room for one more than it holds */
        if ((t = tokio__reallocarray(m->t, m->n + 2, sizeof(*t))) == NULL)
            return oom();
        m->t = t;
        if ((v = tokio__reallocarray(m->v, m->n + 2, sizeof(*v))) == NULL)
            return oom();
        m->v = v;
        m->t[m->n] = timestamp;
        m->v[m->n++] = value;
        return TOKIO_OK;
    }
    return tokio__error(TOKIO_ENOTFOUND, "no UMAMI metric '%s'", name);
}

size_t
tokio_umami_count(const struct tokio_umami *u)
{
    return u->n;
}

const char *
tokio_umami_name(const struct tokio_umami *u, size_t i)
{
    return i < u->n ? u->m[i].name : NULL;
}

void
tokio_umami_free(struct tokio_umami *u)
{
    if (u == NULL)
        return;
    for (size_t i = 0; i < u->n; i++) {
        free(u->m[i].name);
        free(u->m[i].label);
        free(u->m[i].t);
        free(u->m[i].v);
    }
    free(u->m);
    free(u);
}

/* ---- statistics -------------------------------------------------------- */

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* The finite values of v[0..n) but v[skip], sorted, into `out` (room for
 * n); their number. */
static size_t
sorted_finite(const double *v, size_t n, size_t skip, double *out)
{
    size_t k = 0;

    for (size_t i = 0; i < n; i++)
        if (i != skip && isfinite(v[i]))
            out[k++] = v[i];
    qsort(out, k, sizeof(*out), cmp_double);
    return k;
}

/* numpy's percentile (linear interpolation) of sorted x[0..n); NaN when
 * n is 0. */
static double
percentile(const double *x, size_t n, double p)
{
    if (n == 0)
        return NAN;
    double rank = p / 100.0 * (double)(n - 1);
    size_t lo = (size_t)floor(rank);

    if (lo + 1 >= n)
        return x[n - 1];
    return x[lo] + (rank - (double)lo) * (x[lo + 1] - x[lo]);
}

/* Run `highlight` of `m` (negative: from the end), or -1 when none. */
static long
run_index(const struct metric *m, long highlight)
{
    long i = highlight < 0 ? (long)m->n + highlight : highlight;

    return i >= 0 && (size_t)i < m->n ? i : -1;
}

static const char *const colorscale[4] = {
    TOKIO_UMAMI_COLOR_Q1, TOKIO_UMAMI_COLOR_Q2, TOKIO_UMAMI_COLOR_Q3,
    TOKIO_UMAMI_COLOR_Q4
};

static const char *
highlight_color(const struct metric *m, size_t h)
{
    double *before = tokio__calloc(m->n + 1, sizeof(*before));
    size_t k, q = 0;

    if (before == NULL)
        return NULL;
    /* the runs before the highlighted one: its history */
    k = sorted_finite(m->v, h, h, before);
    for (q = 0; q < 3; q++)
        if (m->v[h] <= percentile(before, k, 25.0 * (double)(q + 1)))
            break;
    free(before);
    return m->big_is_good ? colorscale[q] : colorscale[3 - q];
}

int
tokio_umami_highlight_color(const struct tokio_umami *u, size_t i,
                            long highlight, const char **color_out)
{
    long h;

    *color_out = NULL;
    if (i >= u->n || (h = run_index(&u->m[i], highlight)) < 0)
        return tokio__error(TOKIO_EINVAL, "UMAMI metric %zu has no run %ld",
                            i, highlight);
    if ((*color_out = highlight_color(&u->m[i], (size_t)h)) == NULL)
        return oom();
    return TOKIO_OK;
}

/* ---- the JSON and table forms ----------------------------------------- */

/* Every timestamp of every metric, sorted and distinct, into *out. */
static int
all_times(const struct tokio_umami *u, int64_t **out, size_t *n_out)
{
    size_t total = 0, n = 0;
    int64_t *t;

    for (size_t i = 0; i < u->n; i++)
        total += u->m[i].n;
    if ((t = tokio__calloc(total + 1, sizeof(*t))) == NULL)
        return oom();
    for (size_t i = 0; i < u->n; i++)
        for (size_t j = 0; j < u->m[i].n; j++)
            t[n++] = u->m[i].t[j];
    for (size_t i = 1; i < n; i++)          /* insertion sort, then uniq */
        for (size_t j = i; j > 0 && t[j - 1] > t[j]; j--) {
            int64_t x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    total = n;
    n = 0;
    for (size_t i = 0; i < total; i++)
        if (n == 0 || t[n - 1] != t[i])
            t[n++] = t[i];
    *out = t;
    *n_out = n;
    return TOKIO_OK;
}

/* 1 and the value of `m` at time `t` (its last, as the reference's dict
 * kept) in *v, or 0 when `m` has no run then. */
static int
value_at(const struct metric *m, int64_t t, double *v)
{
    int found = 0;

    for (size_t j = 0; j < m->n; j++)
        if (m->t[j] == t) {
            *v = m->v[j];
            found = 1;
        }
    return found;
}

int
tokio_umami_to_json(const struct tokio_umami *u, json_t **out)
{
    json_t *all = json_object();
    int64_t *t = NULL;
    size_t n = 0;
    char key[64];

    *out = NULL;
    if (all == NULL || all_times(u, &t, &n) < 0) {
        json_decref(all);
        return oom();
    }
    for (size_t k = 0; k < n; k++) {
        json_t *row = json_object();
        for (size_t i = 0; i < u->n && row != NULL; i++) {
            double v;
            if (!value_at(&u->m[i], t[k], &v))
                continue;
            if (json_object_set_new(row, u->m[i].name, isfinite(v)
                                    ? json_real(v) : json_null()) < 0) {
                json_decref(row);
                row = NULL;
            }
        }
        tokio_time_format(key, sizeof(key), t[k], "%Y-%m-%d %H:%M:%S");
        if (json_object_set_new(all, key, row) < 0) {
            json_decref(all);
            free(t);
            return oom();
        }
    }
    free(t);
    *out = all;
    return TOKIO_OK;
}

int
tokio_umami_write_csv(const struct tokio_umami *u, FILE *fp)
{
    int64_t *t = NULL;
    size_t n = 0;
    char buf[64];

    if (all_times(u, &t, &n) < 0)
        return TOKIO_ENOMEM;
    for (size_t i = 0; i < u->n; i++) {
        fputc(',', fp);
        tokio_csv_write_field(fp, u->m[i].name, strlen(u->m[i].name));
    }
    fputc('\n', fp);
    for (size_t k = 0; k < n; k++) {
        tokio_time_format(buf, sizeof(buf), t[k], "%Y-%m-%d %H:%M:%S");
        fputs(buf, fp);
        for (size_t i = 0; i < u->n; i++) {
            double v = NAN;
            fputc(',', fp);
            if (value_at(&u->m[i], t[k], &v) && isfinite(v)) {
                tokio_format_double(buf, sizeof(buf), v);
                fputs(buf, fp);
            }
        }
        fputc('\n', fp);
    }
    free(t);
    return tokio__write_check(fp, "cannot write the UMAMI table");
}

/* ---- from a history of runs -------------------------------------------- */

/* A cell as a time: local date text, ISO 8601, or epoch seconds. */
static int
cell_time(const char *s, int64_t *out)
{
    double d;

    if (tokio__py_float(s, strlen(s), &d) && isfinite(d)) {
        *out = (int64_t)d;
        return TOKIO_OK;
    }
    return tokio_time_parse(s, out);
}

/* 1 if every cell of column `c` is a number or empty, and one is not
 * empty. */
static int
numeric_column(const struct tokio_csv *t, size_t c)
{
    int any = 0;

    for (size_t r = 1; r <= tokio_csv_rows(t); r++) {
        const char *s = tokio_csv_cell(t, r, c);
        double d;
        if (s[0] == '\0')
            continue;
        if (!tokio__py_float(s, strlen(s), &d))
            return 0;
        any = 1;
    }
    return any;
}

static int
listed(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0)
            return 1;
    return 0;
}

/* Column `c` as metric `label` of the runs at times `t`. */
static int
add_column(struct tokio_umami *u, const struct tokio_csv *table,
           const char *name, size_t c, const char *label, int big_is_good,
           const int64_t *t)
{
    size_t n = tokio_csv_rows(table);
    double *v = tokio__calloc(n + 1, sizeof(*v));
    const char *col = tokio_csv_cell(table, 0, c);
    int rc = TOKIO_OK;

    if (v == NULL)
        return oom();
    for (size_t r = 0; r < n && rc == TOKIO_OK; r++) {
        const char *s = tokio_csv_cell(table, r + 1, c);
        v[r] = NAN;
        if (s[0] != '\0' && !tokio__py_float(s, strlen(s), &v[r]))
            rc = tokio__error(TOKIO_EFORMAT, "'%s' row %zu: column '%s' "
                              "holds '%.40s', not a number", name, r + 1,
                              col, s);
    }
    if (rc == TOKIO_OK)
        rc = tokio_umami_add(u, col, label, big_is_good, t, v, n);
    free(v);
    return rc;
}

int
tokio_umami_from_csv(struct tokio_umami **out, const struct tokio_csv *table,
                     const char *name, const struct tokio_umami_columns *cols)
{
    static const struct tokio_umami_columns none = { 0 };
    struct tokio_umami *u = NULL;
    size_t n = tokio_csv_rows(table), ncol = tokio_csv_cols(table);
    long tcol = tokio_csv_column(table, "_datetime_start");
    int64_t *t = NULL;
    int rc;

    *out = NULL;
    cols = cols != NULL ? cols : &none;
    if (cols->labels != NULL && cols->n_labels != cols->n_names)
        return tokio__error(TOKIO_EINVAL, "%zu labels for %zu columns",
                            cols->n_labels, cols->n_names);
    if (ncol < 2)
        return tokio__error(TOKIO_EFORMAT, "'%s' has no column beside the "
                            "time", name);
    tcol = tcol >= 0 ? tcol : 0;
    if ((rc = tokio_umami_new(&u)) < 0)
        return rc;
    if ((t = tokio__calloc(n + 1, sizeof(*t))) == NULL)
        rc = oom();
    for (size_t r = 0; r < n && rc == TOKIO_OK; r++)
        if (cell_time(tokio_csv_cell(table, r + 1, (size_t)tcol), &t[r]) < 0)
            rc = tokio__error(TOKIO_EFORMAT, "'%s' row %zu: '%.40s' in "
                              "column '%s' is not a time", name, r + 1,
                              tokio_csv_cell(table, r + 1, (size_t)tcol),
                              tokio_csv_cell(table, 0, (size_t)tcol));
    for (size_t i = 0; rc == TOKIO_OK && i < cols->n_names; i++) {
        long c = tokio_csv_column(table, cols->names[i]);
        if (c < 0)
            rc = tokio__error(TOKIO_EINVAL, "'%s' has no column '%s'", name,
                              cols->names[i]);
        else
            rc = add_column(u, table, name, (size_t)c,
                            cols->labels ? cols->labels[i] : NULL,
                            !listed(cols->names[i], cols->small_is_good,
                                    cols->n_small_is_good), t);
    }
    for (size_t c = 0; rc == TOKIO_OK && cols->names == NULL && c < ncol;
         c++) {
        const char *col = tokio_csv_cell(table, 0, c);
        if (c == (size_t)tcol || col[0] == '_' ||
            (c == 0 && strcmp(col, "index") == 0) ||
            !numeric_column(table, c))
            continue;
        rc = add_column(u, table, name, c, NULL,
                        !listed(col, cols->small_is_good,
                                cols->n_small_is_good), t);
    }
    if (rc == TOKIO_OK && u->n == 0)
        rc = tokio__error(TOKIO_EFORMAT, "'%s' has no numeric column to "
                          "draw", name);
    free(t);
    if (rc < 0) {
        tokio_umami_free(u);
        return rc;
    }
    *out = u;
    return TOKIO_OK;
}

/* ---- the picture ------------------------------------------------------- */

/* Layout, in points. */
#define FONT_SIZE   12.0    /* the reference's fontsize */
#define ROW_HEIGHT  74.0    /* 4/3 inch rows, less matplotlib's margins */
#define TS_WIDTH    268.0   /* 4/5 and 1/5 of the reference's axes */
#define BOX_WIDTH   67.0
#define PAD         6.0
#define LABEL_CHARS 15      /* textwrap.wrap(width=15) */
#define MAX_TICKS   5

/* The y range of a row: its data with matplotlib's 5% margins, then the
 * reference's scaling by 0.9 and 1.1. */
static struct tokio__axis
y_axis(const struct metric *m, double top, double bottom)
{
    double lo = INFINITY, hi = -INFINITY, margin;
    struct tokio__axis a = { 0, 1, bottom, top };

    for (size_t j = 0; j < m->n; j++)
        if (isfinite(m->v[j])) {
            lo = fmin(lo, m->v[j]);
            hi = fmax(hi, m->v[j]);
        }
    if (!isfinite(lo))
        return a;
    margin = hi > lo ? 0.05 * (hi - lo) : (lo != 0 ? 0.05 * fabs(lo) : 1.0);
    lo -= margin;
    hi += margin;
    a.lo = lo * 0.9;
    a.hi = hi * 1.1;
    if (!(a.hi > a.lo)) {       /* negative data scaled past itself */
        a.lo = lo;
        a.hi = hi;
    }
    return a;
}

/* textwrap.wrap(label, 15, break_on_hyphens=True): words split at spaces
 * and after hyphens, lines filled greedily, longer words cut.  Lines go
 * to `lines` (each at most LABEL_CHARS + 1 bytes); their number. */
static size_t
wrap_label(const char *label, char lines[][LABEL_CHARS + 1], size_t max)
{
    size_t n = 0, len = 0;
    const char *p = label;

    lines[0][0] = '\0';
    while (*p != '\0' && n < max) {
        size_t w = 0;
        while (*p == ' ')
            p++;
        while (p[w] != '\0' && p[w] != ' ' && (w == 0 || p[w - 1] != '-'))
            w++;
        if (w == 0)
            break;
        if (len > 0 && len + 1 + w > LABEL_CHARS) {   /* a new line */
            if (++n == max)
                break;
            len = 0;
            lines[n][0] = '\0';
        }
        while (w > 0) {
            size_t room = LABEL_CHARS - len - (len > 0 && p[-1] == ' ');
            size_t take = w < room ? w : room;
            if (len > 0 && p[-1] == ' ')
                lines[n][len++] = ' ';
            memcpy(lines[n] + len, p, take);
            len += take;
            lines[n][len] = '\0';
            p += take;
            w -= take;
            if (w > 0) {
                if (++n == max)
                    break;
                len = 0;
                lines[n][0] = '\0';
            }
        }
    }
    if (n == max)           /* cut short: lines[max] was never begun */
        return max;
    return len > 0 || n == 0 ? n + 1 : n;
}

/* Width of the widest y tick label of any row, to place the labels. */
static double
tick_label_width(cairo_t *cr, const struct tokio_umami *u)
{
    double widest = 0;
    char buf[32];

    for (size_t i = 0; i < u->n; i++) {
        struct tokio__axis a = y_axis(&u->m[i], 0, 1);
        double step = tokio__plot_tick_step(a.lo, a.hi, MAX_TICKS);
        double v[MAX_TICKS + 2];
        size_t n = tokio__plot_ticks(a.lo, a.hi, step, v, MAX_TICKS + 2);
        for (size_t k = 0; k < n; k++) {
            cairo_text_extents_t e;
            tokio__plot_tick_label(buf, sizeof(buf), v[k], step);
            cairo_text_extents(cr, buf, &e);
            widest = fmax(widest, e.x_advance);
        }
    }
    return widest;
}

/* The time axis' ticks: the step, in seconds, giving at most MAX_TICKS
 * + 1 ticks over `span` (whole years beyond a year). */
static double
time_step(double span)
{
    static const int64_t steps[] = {
        60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400,
        2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400, 91 * 86400,
        182 * 86400, 365 * 86400
    };
    size_t i;

    for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
        if (span / (double)steps[i] <= MAX_TICKS + 1)
            return (double)steps[i];
    return 365.0 * 86400 * ceil(span / (365.0 * 86400) / MAX_TICKS);
}

static void
star(cairo_t *cr, double x, double y, double size)
{
    const double outer = size / 2.0, inner = outer * 0.382;

    for (int k = 0; k < 10; k++) {
        double r = k % 2 ? inner : outer, a = -M_PI / 2 + k * M_PI / 5;
        if (k == 0)
            cairo_move_to(cr, x + r * cos(a), y + r * sin(a));
        else
            cairo_line_to(cr, x + r * cos(a), y + r * sin(a));
    }
    cairo_close_path(cr);
    cairo_fill(cr);
}

static void
draw_series(cairo_t *cr, const struct metric *m, const struct tokio__axis *x,
            const struct tokio__axis *y)
{
    int pen_down = 0;

    tokio__plot_color(cr, TOKIO_UMAMI_COLOR_LINE);
    cairo_set_line_width(cr, 1.0);
    for (size_t j = 0; j < m->n; j++) {
        double px = tokio__plot_to_px(x, (double)m->t[j]), py = tokio__plot_to_px(y, m->v[j]);
        if (!isfinite(m->v[j])) {
            pen_down = 0;               /* a gap, as matplotlib leaves */
            continue;
        }
        if (pen_down)
            cairo_line_to(cr, px, py);
        else
            cairo_move_to(cr, px, py);
        pen_down = 1;
    }
    cairo_stroke(cr);
    for (size_t j = 0; j < m->n; j++) {   /* 'x' markers, 6 points */
        double px = tokio__plot_to_px(x, (double)m->t[j]), py = tokio__plot_to_px(y, m->v[j]);
        if (!isfinite(m->v[j]))
            continue;
        cairo_move_to(cr, px - 3, py - 3);
        cairo_line_to(cr, px + 3, py + 3);
        cairo_move_to(cr, px - 3, py + 3);
        cairo_line_to(cr, px + 3, py - 3);
    }
    cairo_stroke(cr);
}

/* The box plot of the runs but `skip`, in the panel x0..x1 on axis y. */
static int
draw_box(cairo_t *cr, const struct metric *m, size_t skip, double x0,
         double x1, const struct tokio__axis *y)
{
    double *v = tokio__calloc(m->n + 1, sizeof(*v));
    size_t k;

    if (v == NULL)
        return oom();
    if ((k = sorted_finite(m->v, m->n, skip, v)) > 0) {
        /* the panel spans -0.1..2.1 around a box of width 0.7 at 1 */
        double unit = (x1 - x0) / 2.2, mid = x0 + 1.1 * unit;
        double half = 0.35 * unit, cap = 0.175 * unit;
        double q1 = percentile(v, k, 25), q2 = percentile(v, k, 50);
        double q3 = percentile(v, k, 75);
        double w5 = percentile(v, k, 5), w95 = percentile(v, k, 95);

        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_set_line_width(cr, 1.0);
        cairo_rectangle(cr, mid - half, tokio__plot_to_px(y, q3), 2 * half,
                        tokio__plot_to_px(y, q1) - tokio__plot_to_px(y, q3));
        cairo_move_to(cr, mid, tokio__plot_to_px(y, q1));
        cairo_line_to(cr, mid, tokio__plot_to_px(y, w5));
        cairo_move_to(cr, mid - cap, tokio__plot_to_px(y, w5));
        cairo_line_to(cr, mid + cap, tokio__plot_to_px(y, w5));
        cairo_move_to(cr, mid, tokio__plot_to_px(y, q3));
        cairo_line_to(cr, mid, tokio__plot_to_px(y, w95));
        cairo_move_to(cr, mid - cap, tokio__plot_to_px(y, w95));
        cairo_line_to(cr, mid + cap, tokio__plot_to_px(y, w95));
        cairo_stroke(cr);
        for (size_t j = 0; j < k; j++)      /* fliers */
            if (v[j] < w5 || v[j] > w95) {
                cairo_new_sub_path(cr);
                cairo_arc(cr, mid, tokio__plot_to_px(y, v[j]), 3, 0, 2 * M_PI);
            }
        cairo_stroke(cr);
        tokio__plot_color(cr, "#FF7F0E");           /* matplotlib's median line */
        cairo_move_to(cr, mid - half, tokio__plot_to_px(y, q2));
        cairo_line_to(cr, mid + half, tokio__plot_to_px(y, q2));
        cairo_stroke(cr);
    }
    free(v);
    return TOKIO_OK;
}

/* Grid lines and tick labels of axis `y` over the panel x0..x1 (labels
 * left of x0 when `labels`). */
static void
draw_y_grid(cairo_t *cr, const struct tokio__axis *y, double x0, double x1,
            int labels)
{
    double step = tokio__plot_tick_step(y->lo, y->hi, MAX_TICKS);
    double ticks[MAX_TICKS + 2];
    size_t n = tokio__plot_ticks(y->lo, y->hi, step, ticks, MAX_TICKS + 2);
    char buf[32];

    for (size_t k = 0; k < n; k++) {
        double v = ticks[k], py = tokio__plot_to_px(y, v);
        cairo_set_source_rgb(cr, 0.69, 0.69, 0.69);
        cairo_set_line_width(cr, 0.8);
        cairo_move_to(cr, x0, py);
        cairo_line_to(cr, x1, py);
        cairo_stroke(cr);
        if (labels) {
            cairo_set_source_rgb(cr, 0, 0, 0);
            tokio__plot_tick_label(buf, sizeof(buf), v, step);
            tokio__plot_text(cr, buf, x0 - PAD, py, 1.0, 0.5);
        }
    }
}

static int
draw_row(cairo_t *cr, const struct metric *m, size_t row, long highlight,
         const struct tokio__axis *x, double left, double label_x)
{
    double top = PAD + (double)row * ROW_HEIGHT, bottom = top + ROW_HEIGHT;
    struct tokio__axis y = y_axis(m, top, bottom);
    double box0 = left + TS_WIDTH, box1 = box0 + BOX_WIDTH;
    long h = run_index(m, highlight);
    char lines[8][LABEL_CHARS + 1];
    size_t nl = wrap_label(m->label, lines, 8);
    int rc;

    cairo_save(cr);
    cairo_rectangle(cr, left, top, TS_WIDTH + BOX_WIDTH, ROW_HEIGHT);
    cairo_clip(cr);
    draw_y_grid(cr, &y, left, box1, 0);
    double t[MAX_TICKS + 2];
    size_t nt = tokio__plot_ticks(x->lo, x->hi, time_step(x->hi - x->lo), t,
                                  MAX_TICKS + 2);
    for (size_t k = 0; k < nt; k++) {  /* the time grid */
        cairo_set_source_rgb(cr, 0.69, 0.69, 0.69);
        cairo_set_line_width(cr, 0.8);
        cairo_move_to(cr, tokio__plot_to_px(x, t[k]), top);
        cairo_line_to(cr, tokio__plot_to_px(x, t[k]), bottom);
        cairo_stroke(cr);
    }
    draw_series(cr, m, x, &y);
    rc = draw_box(cr, m, h >= 0 ? (size_t)h : m->n, box0, box1, &y);
    if (h >= 0 && isfinite(m->v[h])) {
        const char *color = highlight_color(m, (size_t)h);
        double px = tokio__plot_to_px(x, (double)m->t[h]), py = tokio__plot_to_px(&y, m->v[h]);
        const double dash[] = { 7.4, 3.2 };
        if (color == NULL) {
            cairo_restore(cr);
            return oom();
        }
        tokio__plot_color(cr, color);
        if (h > 0 && isfinite(m->v[h - 1])) {
            cairo_set_line_width(cr, 2.0);
            cairo_move_to(cr, tokio__plot_to_px(x, (double)m->t[h - 1]),
                          tokio__plot_to_px(&y, m->v[h - 1]));
            cairo_line_to(cr, px, py);
            cairo_stroke(cr);
        }
        star(cr, px, py, 15.0 * 1.4);       /* a 15-point star marker */
        cairo_set_dash(cr, dash, 2, 0);
        cairo_set_line_width(cr, 2.0);
        cairo_move_to(cr, box0, py);
        cairo_line_to(cr, box1, py);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    cairo_restore(cr);
    /* frames, tick labels, the row's label */
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 0.8);
    cairo_rectangle(cr, left, top, TS_WIDTH, ROW_HEIGHT);
    cairo_rectangle(cr, box0, top, BOX_WIDTH, ROW_HEIGHT);
    cairo_stroke(cr);
    cairo_save(cr);
    cairo_rectangle(cr, 0, top, left, ROW_HEIGHT);
    cairo_clip(cr);
    draw_y_grid(cr, &y, left, left, 1);
    cairo_restore(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    for (size_t i = 0; i < nl; i++)
        tokio__plot_text(cr, lines[i], label_x, (top + bottom) / 2 +
                ((double)i - (double)(nl - 1) / 2.0) * FONT_SIZE * 1.2,
                1.0, 0.5);
    return rc;
}

/* The dates under the bottom row, "%b %d", rotated 45 degrees. */
static void
draw_time_labels(cairo_t *cr, const struct tokio__axis *x, double y)
{
    double t[MAX_TICKS + 2];
    size_t nt = tokio__plot_ticks(x->lo, x->hi, time_step(x->hi - x->lo), t,
                                  MAX_TICKS + 2);
    char buf[32];

    cairo_set_source_rgb(cr, 0, 0, 0);
    for (size_t k = 0; k < nt; k++) {
        cairo_text_extents_t e;
        if (fabs(t[k]) > 9e18)          /* beyond int64_t: no date */
            continue;
        tokio_time_format(buf, sizeof(buf), (int64_t)t[k], "%b %d");
        cairo_text_extents(cr, buf, &e);
        cairo_save(cr);
        cairo_translate(cr, tokio__plot_to_px(x, t[k]), y + PAD);
        cairo_rotate(cr, -M_PI / 4);
        cairo_move_to(cr, -e.x_advance, e.height);
        cairo_show_text(cr, buf);
        cairo_restore(cr);
    }
}

/* The time range of all rows (one x range for all, as the reference). */
static struct tokio__axis
x_axis(const struct tokio_umami *u, double left)
{
    struct tokio__axis a = { INFINITY, -INFINITY, left, left + TS_WIDTH };

    for (size_t i = 0; i < u->n; i++)
        for (size_t j = 0; j < u->m[i].n; j++) {
            a.lo = fmin(a.lo, (double)u->m[i].t[j]);
            a.hi = fmax(a.hi, (double)u->m[i].t[j]);
        }
    if (!isfinite(a.lo)) {
        a.lo = 0;
        a.hi = 86400;
    } else if (a.hi <= a.lo) {          /* one run: a day around it */
        a.lo -= 43200;
        a.hi += 43200;
    }
    return a;
}

/* Draw everything on `cr`: width left + TS + BOX + PAD. */
static int
draw(cairo_t *cr, const struct tokio_umami *u, long highlight, double left,
     double label_x)
{
    struct tokio__axis x = x_axis(u, left);
    int rc = TOKIO_OK;

    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, FONT_SIZE);
    for (size_t i = 0; i < u->n && rc == TOKIO_OK; i++)
        rc = draw_row(cr, &u->m[i], i, highlight, &x, left, label_x);
    draw_time_labels(cr, &x, PAD + (double)u->n * ROW_HEIGHT);
    return rc;
}

int
tokio_umami_write_figure(const struct tokio_umami *u, FILE *fp,
                         enum tokio_umami_format format, long highlight)
{
    cairo_surface_t *probe, *s;
    cairo_status_t status = CAIRO_STATUS_SUCCESS;
    cairo_t *cr;
    double ticks, left, width, height, scale = 1.0;
    int rc;

    if (u->n == 0)
        return tokio__error(TOKIO_EINVAL, "an UMAMI diagram needs a metric");
    /* measure the labels first, to place the panels right of them */
    probe = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    cr = cairo_create(probe);
    cairo_set_font_size(cr, FONT_SIZE);
    ticks = tick_label_width(cr, u);
    cairo_text_extents_t e;
    cairo_text_extents(cr, "MMMMMMMMMMMMMMM", &e);
    cairo_destroy(cr);
    cairo_surface_destroy(probe);
    left = PAD + e.x_advance * 0.75 + PAD + ticks + PAD;
    width = left + TS_WIDTH + BOX_WIDTH + PAD;
    height = PAD + (double)u->n * ROW_HEIGHT + 60.0;
    switch (format) {
    case TOKIO_UMAMI_SVG:
        s = cairo_svg_surface_create_for_stream(tokio__plot_write, fp, width,
                                                height);
        break;
    case TOKIO_UMAMI_PDF:
        s = cairo_pdf_surface_create_for_stream(tokio__plot_write, fp, width,
                                                height);
        break;
    default:
        scale = 100.0 / 72.0;
        s = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
                                       (int)ceil(width * scale),
                                       (int)ceil(height * scale));
        break;
    }
    cr = cairo_create(s);
    cairo_scale(cr, scale, scale);
    rc = draw(cr, u, highlight, left, left - ticks - 2 * PAD);
    cairo_destroy(cr);
    if (format == TOKIO_UMAMI_PNG)
        status = cairo_surface_write_to_png_stream(s, tokio__plot_write, fp);
    if (rc < 0) {
        cairo_surface_destroy(s);
        return rc;
    }
    return tokio__plot_finish(s, status, fp, "the UMAMI diagram");
}
