/*
 * src/connectors/mmperfmon.c - GPFS `mmperfmon query` outputs.  Mirrors
 * tokio.connectors.mmperfmon.Mmperfmon (pytokio 0.13): load_str() for the
 * text, load_multiple() for tarballs and folders (one add_text() per
 * member, src/core/connector.c), load_cache() for its own JSON,
 * save_cache() and to_dataframe(by_host/by_metric).
 *
 * One output is read as the reference does: legend lines give each column
 * number its host, counter and optional device ("host|sub|dev|counter");
 * a "Row Timestamp ..." header gives the column offsets (right-aligned:
 * a column runs from the end of the previous header word to the end of
 * its own); a data row is cut at those offsets.  mmperfmon wraps wide
 * queries into several tables with the same row numbers, so a row seen
 * again appends its cells to the first one; when the output ends, rows are
 * taken in row-number order and cell k belongs to legend entry k.
 *
 * The dict is the reference's, a jansson object: timestamp (decimal text)
 * -> host -> counter -> value, or counter -> device -> value, every level
 * in insertion order as Python's dicts keep it.
 *
 * The rows read wait, their values typed, until the last input of an
 * open or add is read (finish(): store()), and are then stored timestamp
 * by timestamp, each timestamp's object built at once.  Stored output by
 * output instead, on bench-mmperfmon.sh's x100 input (5.1 million values
 * from 4,200 outputs of one host each), every timestamp's values lie all
 * over the heap, and building, writing and freeing the dict make
 * cache-mmperfmon take 4.1-4.8 s of CPU instead of 3.0-3.4 s: not 5x
 * the reference's 18-26 s.
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/mmperfmon*; goldens in
 * ../shared/testdata/golden/pytokio/cache_mmperfmon/; tests/connectors/
 * mmperfmon/.
 *
 * Differs from pytokio, all on input mmperfmon does not print:
 *  - a line that is not blank, "Legend:", a legend entry, a table header
 *    or a data row, a data row before any header, an empty or non-numeric
 *    cell, a bad timestamp or row number, a cell without a legend entry,
 *    a counter holding both device values and a plain value, invalid
 *    UTF-8 in a name or text, a NUL byte in a data row: TOKIO_EFORMAT
 *    naming the input and line, where the reference ignored the line,
 *    raised, or kept the last value;
 *  - a malformed JSON file is TOKIO_EFORMAT (the reference fell back to
 *    reading it as text, i.e. to an empty result); a JSON file merges into
 *    existing timestamps (the reference replaced them), and timestamps or
 *    hosts without any counter are left out;
 *  - columns are cut at byte offsets (Python: characters), lines end at
 *    "\n", only ASCII whitespace is stripped;
 *  - a folder is read in sorted name order (os.walk: directory order);
 *    tar members that are gzip or bzip2 files are decompressed;
 *  - in CSV, two timestamps with the same local time (the hour repeated
 *    when summer time ends) stay two rows (pandas kept one).
 */
#define _GNU_SOURCE     /* memmem() */
#include "tokio/connectors/mmperfmon.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/output.h"
#include "tokio/time.h"
#include "tokio/util.h"
#include "connectors/registry.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/localdays.h"
#include "core/text.h"

/* legend numbers above this cannot be real column numbers */
#define LEGEND_MAX 65536

struct legend {         /* "N: host|subsystem[|device]|counter" */
    char *host;         /* the block holding the three others too */
    char *counter, *counter_bytes;
    char *device;       /* NULL: none */
};

struct cell {           /* a value read, made a json_t when it is stored */
    enum { CELL_NULL, CELL_INT, CELL_REAL, CELL_JSON } kind;
    uint32_t col : 31;  /* its legend entry (<= LEGEND_MAX) */
    uint32_t bytes : 1; /* MB or kB made bytes: the counter gets "_bytes" */
    union {
        int64_t i;
        double d;
        json_t *json;   /* anything else: text, booleans... */
    } v;
};

struct row {            /* a row of an output (its tables' segments), read,
                           not stored */
    int64_t ts;
    size_t src;         /* its output in tokio_mmperfmon.srcs */
    size_t line;
    size_t first, n;    /* its values in tokio_mmperfmon.cells */
    size_t seq;         /* order of reading */
    int64_t key;        /* store()'s sort key */
};

struct source {         /* an output whose rows wait to be stored */
    char *name;
    struct legend *legend;      /* by number */
    size_t nlegend;
};

struct tokio_mmperfmon {
    json_t *dict;       /* timestamp -> host -> counter -> value */
    /* the outputs read since the last store() (see above), in order */
    struct source *srcs;
    size_t nsrcs, capsrcs;
    struct row *rows;
    size_t nrows, caprows;
    struct cell *cells;
    size_t ncells, capcells;
};

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading mmperfmon "
                        "data");
}

/* ---- the dict ---------------------------------------------------------- */

/* The object under `key` of `parent`, added empty when absent; NULL when
 * out of memory.  `key` is known to be UTF-8. */
static json_t *
child(json_t *parent, const char *key)
{
    json_t *c = json_object_get(parent, key);

    if (c == NULL &&
        json_object_set_new_nocheck(parent, key, c = json_object()) < 0)
        return NULL;
    return c;
}

/*
 * Set host/counter (`device` NULL) or host/counter/device to `v` (stolen)
 * under the timestamp object `t`; with a device and no `v`, only make
 * sure the counter has a dict of devices.  TOKIO_EFORMAT (no message: the
 * caller names the input) when the counter holds devices and gets a
 * plain value or the other way round; TOKIO_ENOMEM.
 */
static int
put(json_t *t, const char *host, const char *counter, const char *device,
    json_t *v)
{
    json_t *h = child(t, host), *d = NULL;

    if (h == NULL || (device != NULL && (d = child(h, counter)) == NULL)) {
        json_decref(v);
        return oom();
    }
    if (device == NULL ? json_is_object(json_object_get(h, counter))
                       : !json_is_object(d)) {
        json_decref(v);
        return TOKIO_EFORMAT;
    }
    if (device == NULL)
        return json_object_set_new_nocheck(h, counter, v) ? oom() : TOKIO_OK;
    if (v == NULL)
        return TOKIO_OK;
    return json_object_set_new_nocheck(d, device, v) ? oom() : TOKIO_OK;
}

/* ---- one mmperfmon output ---------------------------------------------- */

struct segment {        /* a data row of one table, as read */
    int64_t rowid;
    size_t seq;         /* order of appearance: the sort keeps it */
    size_t line;
    const char *stamp;  /* its timestamp field */
    size_t stamplen;
    size_t first, n;    /* its values in tokio_mmperfmon.cells */
    size_t ncells;      /* its cells, "null" ones too */
};

struct colpos {
    size_t start, stop; /* stop SIZE_MAX: to the end of the line */
};

struct output {         /* one output being read */
    struct tokio_mmperfmon *m;
    const char *name;
    struct tokio__local_days *days;
    struct legend *legend;      /* by number */
    size_t nlegend;
    struct segment *segs;
    size_t nsegs, capsegs;
    struct colpos *cols;
    size_t ncols, capcols;
};

static int __attribute__((format(printf, 3, 4)))
bad_line(const struct output *o, size_t line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s", o->name, line,
                        msg);
}

/* Make room for `need` items of `size` in `*p` of `*cap`; 0 or -1. */
static int
grow(void *p, size_t *cap, size_t need, size_t size)
{
    void **pp = p, *q;
    size_t n = *cap ? *cap : 16;

    if (need <= *cap)
        return 0;
    while (n < need)
        n *= 2;
    if ((q = tokio__reallocarray(*pp, n, size)) == NULL)
        return -1;
    *pp = q;
    *cap = n;
    return 0;
}

static void
legend_free(struct legend *legend, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(legend[i].host);
    free(legend);
}

static void
output_free(struct output *o)
{
    legend_free(o->legend, o->nlegend);
    free(o->segs);
    free(o->cols);
}

/* Drop the values read from `cells` on (not stored). */
static void
cells_drop(struct tokio_mmperfmon *m, size_t cells)
{
    for (size_t i = cells; i < m->ncells; i++)
        if (m->cells[i].kind == CELL_JSON)
            json_decref(m->cells[i].v.json);
    m->ncells = cells;
}

/* Drop what was read and not stored. */
static void
pending_free(struct tokio_mmperfmon *m)
{
    for (size_t i = 0; i < m->nsrcs; i++) {
        free(m->srcs[i].name);
        legend_free(m->srcs[i].legend, m->srcs[i].nlegend);
    }
    cells_drop(m, 0);
    m->nsrcs = m->nrows = 0;
}

static int
is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The first index from `i` on of s[0..len) that is not white space. */
static size_t
skip_space(const char *s, size_t i, size_t len)
{
    while (i < len && tokio__py_space((unsigned char)s[i]))
        i++;
    return i;
}

static void
strip(const char **s, size_t *len)
{
    size_t i = skip_space(*s, 0, *len);

    *s += i;
    *len -= i;
    while (*len > 0 && tokio__py_space((unsigned char)(*s)[*len - 1]))
        (*len)--;
}

/* `^\s*(\d+):\s+([^|]+)\|([^|]+)\|(\S+)\s*$`: 1 and the number, host and
 * the part after the subsystem (`[device|]counter`) if `s` is a legend
 * entry. */
static int
match_legend(const char *s, size_t len, size_t *num, const char **host,
             size_t *hostlen, const char **rest, size_t *restlen)
{
    size_t i = skip_space(s, 0, len), j;

    if (i >= len || !is_digit(s[i]))
        return 0;
    for (*num = 0; i < len && is_digit(s[i]); i++)
        *num = *num > LEGEND_MAX ? *num : *num * 10 + (size_t)(s[i] - '0');
    if (i + 1 >= len || s[i] != ':' ||
        !tokio__py_space((unsigned char)s[i + 1]))
        return 0;
    i = skip_space(s, i + 1, len);
    for (j = i; j < len && s[j] != '|'; j++)
        ;
    if (j == i || j >= len)
        return 0;
    *host = s + i;
    *hostlen = j - i;
    for (i = ++j; j < len && s[j] != '|'; j++)
        ;
    if (j == i || j >= len)
        return 0;
    *rest = s + j + 1;
    for (*restlen = len - j - 1; *restlen > 0 &&
         tokio__py_space((unsigned char)(*rest)[*restlen - 1]);)
        (*restlen)--;
    for (j = 0; j < *restlen; j++)
        if (tokio__py_space((unsigned char)(*rest)[j]))
            return 0;
    return *restlen > 0;
}

/* `^\s*Row\s+Timestamp` */
static int
match_header(const char *s, size_t len)
{
    size_t i = skip_space(s, 0, len);

    if (len - i < 4 || memcmp(s + i, "Row", 3) != 0 ||
        !tokio__py_space((unsigned char)s[i + 3]))
        return 0;
    i = skip_space(s, i + 3, len);
    return len - i >= 9 && memcmp(s + i, "Timestamp", 9) == 0;
}

/* "DDDD-DD-DD-DD:DD:DD" at s (19 bytes there) */
static int
is_stamp(const char *s)
{
    static const char pat[] = "0000-00-00-00:00:00";

    for (int i = 0; i < 19; i++)
        if (pat[i] == '0' ? !is_digit(s[i]) : s[i] != pat[i])
            return 0;
    return 1;
}

/*
 * `^\s*\d+\s+(\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d)\s+`: 1 if a data row, 2 if
 * a row that ends right after its timestamp (no cells: the reference's
 * expression does not match it, so it is skipped), else 0.
 */
static int
match_row(const char *s, size_t len)
{
    size_t i = skip_space(s, 0, len), j;

    for (j = i; j < len && is_digit(s[j]); j++)
        ;
    if (j == i || j >= len || !tokio__py_space((unsigned char)s[j]))
        return 0;
    j = skip_space(s, j, len);
    if (len - j < 19 || !is_stamp(s + j))
        return 0;
    j += 19;
    if (j < len && tokio__py_space((unsigned char)s[j]))
        return 1;
    return j == len ? 2 : 0;
}

/*
 * The reference's get_col_pos(line, align='right'): words split at ' '
 * only; the first column runs from 0, each other from one past the end of
 * the word before it, to the end of its word (the last, when the line
 * does not end in a space, to the end of any line).
 */
static int
set_columns(struct output *o, const char *s, size_t len)
{
    size_t i = 0, prev_end = 0;

    o->ncols = 0;
    while (i < len) {
        while (i < len && s[i] == ' ')
            i++;
        if (i >= len)
            break;
        while (i < len && s[i] != ' ')
            i++;
        if (grow(&o->cols, &o->capcols, o->ncols + 1, sizeof(*o->cols)) < 0)
            return oom();
        o->cols[o->ncols].start = o->ncols == 0 ? 0 : prev_end + 1;
        o->cols[o->ncols].stop = i < len ? i : SIZE_MAX;
        o->ncols++;
        prev_end = i;
    }
    return TOKIO_OK;
}

static int
add_legend(struct output *o, size_t line, size_t n, const char *host,
           size_t hostlen, const char *rest, size_t restlen)
{
    const char *bar = NULL;
    size_t dlen = 0;
    struct legend *e;
    char *p;

    if (n > LEGEND_MAX)
        return bad_line(o, line, "legend number %zu too large", n);
    if (!tokio__text_valid(host, hostlen) || !tokio__text_valid(rest, restlen))
        return bad_line(o, line, "legend entry is not UTF-8 text");
    if (n >= o->nlegend) {
        size_t cap = o->nlegend;

        if (grow(&o->legend, &cap, n + 1, sizeof(*o->legend)) < 0)
            return oom();
        memset(o->legend + o->nlegend, 0,
               (cap - o->nlegend) * sizeof(*o->legend));
        o->nlegend = cap;
    }
    for (size_t k = restlen; k > 0 && bar == NULL; k--)
        if (rest[k - 1] == '|')
            bar = rest + k - 1;
    if (bar != NULL) {
        dlen = (size_t)(bar - rest);
        restlen -= dlen + 1;
    }
    /* host, counter, counter_bytes, device: one block, read together */
    if ((p = tokio__malloc(hostlen + 2 * restlen + dlen + 10)) == NULL)
        return oom();
    e = &o->legend[n];
    free(e->host);
    e->host = memcpy(p, host, hostlen);
    p[hostlen] = '\0';
    e->counter = memcpy(p += hostlen + 1, bar ? bar + 1 : rest, restlen);
    p[restlen] = '\0';
    e->counter_bytes = memcpy(p += restlen + 1, e->counter, restlen);
    memcpy(p + restlen, "_bytes", 7);
    e->device = memcpy(p += restlen + 7, rest, dlen);
    p[dlen] = '\0';
    /* an empty device ("a||b") is no device, as `if device_id:` */
    if (dlen == 0)
        e->device = NULL;
    return TOKIO_OK;
}

/*
 * The value of a stripped, non-empty cell other than "null" into `c`, as
 * recast_string() and then value_unit_to_bytes() make it: an integer, a
 * real, true or false, or "number unit" (MB and kB in bytes, c->bytes
 * set; other units keep the text).
 */
static int
parse_cell(const struct output *o, size_t line, const char *s, size_t len,
           struct cell *c)
{
    const int shown = (int)(len > 64 ? 64 : len);
    const char *unit = s;
    size_t numlen, ulen;
    json_t *v;
    char *text;
    double d;

    c->bytes = 0;
    if (tokio__py_int(s, len, &c->v.i)) {
        c->kind = CELL_INT;
        return TOKIO_OK;
    }
    if (tokio__py_float(s, len, &d) && isfinite(d)) {
        c->kind = CELL_REAL;
        c->v.d = d;
        return TOKIO_OK;
    }
    while (unit < s + len && !tokio__py_space((unsigned char)*unit))
        unit++;
    numlen = (size_t)(unit - s);
    if (numlen == len) {
        /* one word: True, False, hexadecimal, beyond int64 */
        if ((text = tokio__strndup(s, len)) == NULL)
            return oom();
        v = tokio_recast_string(text);
        free(text);
        if (v == NULL)
            return oom();
        if (json_is_string(v)) {
            json_decref(v);
            return bad_line(o, line, "cell '%.*s' is not a number", shown,
                            s);
        }
        c->kind = CELL_JSON;
        c->v.json = v;
        return TOKIO_OK;
    }
    /* "value unit": exactly two words, the first a float */
    ulen = len - numlen;
    strip(&unit, &ulen);
    for (size_t k = 0; k < ulen; k++)
        if (tokio__py_space((unsigned char)unit[k]))
            return bad_line(o, line, "cell '%.*s' is not a number and a "
                            "unit", shown, s);
    if (!tokio__py_float(s, numlen, &d) || !isfinite(d))
        return bad_line(o, line, "cell '%.*s' is not a number", shown, s);
    if (ulen == 2 && (memcmp(unit, "MB", 2) == 0 ||
                      memcmp(unit, "kB", 2) == 0)) {
        c->kind = CELL_REAL;
        c->v.d = d * (unit[0] == 'M' ? 1048576 : 1024);
        c->bytes = 1;
        /* json.dumps() would write Infinity, which is no JSON */
        return isfinite(c->v.d) ? TOKIO_OK
               : bad_line(o, line, "cell '%.*s' is out of range", shown, s);
    }
    if (!tokio__text_valid(s, len))
        return bad_line(o, line, "cell is not UTF-8 text");
    c->kind = CELL_JSON;
    return (c->v.json = json_stringn_nocheck(s, len)) ? TOKIO_OK : oom();
}

/* The cell's value as a new json_t (taken from the cell); NULL when out
 * of memory. */
static json_t *
cell_value(struct cell *c)
{
    json_t *v = c->kind == CELL_INT ? json_integer(c->v.i)
                : c->kind == CELL_REAL ? json_real(c->v.d) : c->v.json;

    c->kind = CELL_NULL;
    return v;
}

/* One data row of a table: its row number, timestamp field and cells,
 * the values among them into m->cells. */
static int
add_row(struct output *o, size_t line, const char *s, size_t len)
{
    struct tokio_mmperfmon *m = o->m;
    struct segment *sg;
    int64_t rowid;
    int rc;

    if (o->ncols < 2)
        return bad_line(o, line, "data row before a 'Row Timestamp' table "
                        "header");
    /* Python's int() and float() refuse it; tokio__py_int() stops there */
    if (memchr(s, '\0', len) != NULL)
        return bad_line(o, line, "NUL byte in a data row");
    if (grow(&o->segs, &o->capsegs, o->nsegs + 1, sizeof(*o->segs)) < 0)
        return oom();
    sg = &o->segs[o->nsegs];
    for (size_t k = 0; k < o->ncols; k++) {
        size_t a = o->cols[k].start, b = o->cols[k].stop;
        const char *f;
        size_t flen;
        struct cell *c;

        b = b > len ? len : b;
        a = a > b ? b : a;
        f = s + a;
        flen = b - a;
        if (k == 0) {
            if (!tokio__py_int(f, flen, &rowid))
                return bad_line(o, line, "row number '%.*s' is not an "
                                "integer", (int)(flen > 32 ? 32 : flen), f);
            *sg = (struct segment){ rowid, o->nsegs, line, NULL, 0,
                                    m->ncells, 0, 0 };
            continue;
        }
        if (k == 1) {
            sg->stamp = f;
            sg->stamplen = flen;
            continue;
        }
        strip(&f, &flen);
        if (flen == 0)
            return bad_line(o, line, "empty cell in column %zu", k + 1);
        sg->ncells++;
        if (flen == 4 && memcmp(f, "null", 4) == 0)
            continue;
        if (grow(&m->cells, &m->capcells, m->ncells + 1,
                 sizeof(*m->cells)) < 0)
            return oom();
        c = &m->cells[m->ncells++];
        c->kind = CELL_NULL;
        if ((rc = parse_cell(o, line, f, flen, c)) < 0)
            return rc;
        c->col = (uint32_t)sg->ncells;  /* within the segment, from 1 */
        sg->n++;
    }
    o->nsegs++;
    return TOKIO_OK;
}

static int
days_in_month(int y, int mon)
{
    static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30,
                                31 };

    if (mon == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        return 29;
    return days[mon - 1];
}

static int
num(const char *s, int n)
{
    int v = 0;

    for (int i = 0; i < n; i++)
        v = v * 10 + (s[i] - '0');
    return v;
}

/* The segment's local time "YYYY-MM-DD-HH:MM:SS" as epoch seconds, as
 * strptime() and to_epoch() took it. */
static int
parse_stamp(const struct output *o, const struct segment *sg, int64_t *out)
{
    const char *s = sg->stamp;
    size_t len = sg->stamplen;
    int y, mon, day, hh, mm, ss;

    strip(&s, &len);
    if (len != 19 || !is_stamp(s))
        return bad_line(o, sg->line, "timestamp '%.*s' is not "
                        "YYYY-MM-DD-HH:MM:SS", (int)(len > 32 ? 32 : len), s);
    y = num(s, 4), mon = num(s + 5, 2), day = num(s + 8, 2);
    hh = num(s + 11, 2), mm = num(s + 14, 2), ss = num(s + 17, 2);
    if (y < 1 || mon < 1 || mon > 12 || day < 1 ||
        day > days_in_month(y, mon) || hh > 23 || mm > 59 || ss > 59 ||
        tokio__local_epoch(o->days, y, mon, day, hh, mm, ss, out) < 0)
        return bad_line(o, sg->line, "timestamp '%.19s' out of range", s);
    return TOKIO_OK;
}

/* qsort() order of (x1, x2) and (y1, y2), first members first */
static int
order2(int64_t x1, size_t x2, int64_t y1, size_t y2)
{
    if (x1 != y1)
        return x1 < y1 ? -1 : 1;
    return x2 < y2 ? -1 : x2 > y2;
}

static int
cmp_segment(const void *a, const void *b)
{
    const struct segment *x = a, *y = b;

    return order2(x->rowid, x->seq, y->rowid, y->seq);
}

/*
 * The rows of a finished output, by row number, into m->rows: the
 * segments of one row in the order they came, cell k to legend entry k,
 * the row's values moved together; then the output's legend into
 * m->srcs.  `first` is where its values start in m->cells.
 */
static int
output_done(struct output *o, size_t first)
{
    struct tokio_mmperfmon *m = o->m;
    size_t read = m->ncells, base = 0;
    struct source *src;
    int rc;

    if (o->nsegs > 0)
        qsort(o->segs, o->nsegs, sizeof(*o->segs), cmp_segment);
    for (size_t i = 0; i < o->nsegs; i++) {
        const struct segment *sg = &o->segs[i];
        struct row *r;

        if (i == 0 || sg->rowid != sg[-1].rowid) {
            if (grow(&m->rows, &m->caprows, m->nrows + 1,
                     sizeof(*m->rows)) < 0)
                return oom();
            r = &m->rows[m->nrows++];
            *r = (struct row){ 0, m->nsrcs, sg->line, m->ncells, 0,
                               m->nrows - 1, 0 };
            if ((rc = parse_stamp(o, sg, &r->ts)) < 0)
                return rc;
            base = 0;
        } else {
            r = &m->rows[m->nrows - 1];
        }
        for (size_t col = base + 1; col <= base + sg->ncells; col++)
            if (col >= o->nlegend || o->legend[col].host == NULL)
                return bad_line(o, sg->line, "row %" PRId64 " has a cell "
                                "%zu but no legend entry %zu", sg->rowid,
                                col, col);
        if (grow(&m->cells, &m->capcells, m->ncells + sg->n,
                 sizeof(*m->cells)) < 0)
            return oom();
        for (size_t k = 0; k < sg->n; k++) {
            struct cell *c = &m->cells[sg->first + k];

            c->col += (uint32_t)base;
            m->cells[m->ncells++] = *c;
            c->kind = CELL_NULL;        /* moved */
        }
        r->n += sg->n;
        base += sg->ncells;
    }
    /* the rows' values where the values as read were */
    if (m->ncells > read) {
        memmove(m->cells + first, m->cells + read,
                (m->ncells - read) * sizeof(*m->cells));
        m->ncells -= read - first;
        for (size_t i = m->nrows; i > 0 && m->rows[i - 1].src == m->nsrcs;
             i--)
            m->rows[i - 1].first -= read - first;
    }
    if (grow(&m->srcs, &m->capsrcs, m->nsrcs + 1, sizeof(*m->srcs)) < 0)
        return oom();
    src = &m->srcs[m->nsrcs];
    if ((src->name = tokio__strdup(o->name)) == NULL)
        return oom();
    src->legend = o->legend;
    src->nlegend = o->nlegend;
    o->legend = NULL;
    o->nlegend = 0;
    m->nsrcs++;
    return TOKIO_OK;
}

static int
add_text(void *h, const char *text, size_t len, const char *name)
{
    struct output o = { .m = h, .name = name,
                        .days = tokio__local_days_cached() };
    const char *p = text, *end = text + len;
    size_t ncells = o.m->ncells, nrows = o.m->nrows;
    int rc = TOKIO_OK;

    for (size_t line = 1; rc == TOKIO_OK && p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *s = p, *host, *rest;
        size_t n = (size_t)((nl ? nl : end) - p), hostlen, restlen, num;
        int kind;

        p = nl ? nl + 1 : end;
        if (n > 0 && s[n - 1] == '\r')
            n--;
        /* the three forms exclude each other: data rows, the most
         * common, are tried first */
        if ((kind = match_row(s, n)) == 1) {
            rc = add_row(&o, line, s, n);
        } else if (kind == 2) {
            continue;
        } else if (match_legend(s, n, &num, &host, &hostlen, &rest,
                                &restlen)) {
            rc = add_legend(&o, line, num, host, hostlen, rest, restlen);
        } else if (match_header(s, n)) {
            rc = set_columns(&o, s, n);
        } else {
            strip(&s, &n);
            if (n > 0 && !(n == 7 && memcmp(s, "Legend:", 7) == 0))
                rc = bad_line(&o, line, "not a legend entry, table header "
                              "or data row: '%.*s'", (int)(n > 60 ? 60 : n),
                              s);
        }
    }
    if (rc == TOKIO_OK)
        rc = output_done(&o, ncells);
    if (rc < 0) {
        cells_drop(o.m, ncells);
        o.m->nrows = nrows;
    }
    output_free(&o);
    return rc;
}

/* ---- storing the rows read --------------------------------------------- */

static int
cmp_row(const void *a, const void *b)
{
    const struct row *x = a, *y = b;

    return order2(x->key, x->seq, y->key, y->seq);
}

/* One row's values into the dict, under the timestamp object `t`. */
static int
store_row(struct tokio_mmperfmon *m, json_t *t, const struct row *r)
{
    const struct source *src = &m->srcs[r->src];

    for (size_t k = 0; k < r->n; k++) {
        struct cell *c = &m->cells[r->first + k];
        const struct legend *e = &src->legend[c->col];
        const char *counter = c->bytes ? e->counter_bytes : e->counter;
        json_t *v = cell_value(c);
        int rc = v ? put(t, e->host, counter, e->device, v) : oom();

        if (rc == TOKIO_EFORMAT)
            return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: counter '%s' "
                                "of '%s' has both values per device and a "
                                "single value", src->name, r->line, counter,
                                e->host);
        if (rc < 0)
            return rc;
    }
    return TOKIO_OK;
}

/*
 * Store the rows read into the dict, timestamp by timestamp (the reason
 * is at the top of this file).  The dict comes out as the reference's
 * row-by-row loop makes it: the timestamps keep the order in which they
 * first came, and the rows of one timestamp theirs, so every object gets
 * its keys in the same order and every value its last setting.
 */
static int
store(void *h)
{
    struct tokio_mmperfmon *m = h;
    json_t *t = NULL;
    char key[32];
    size_t k;
    int rc = TOKIO_OK;

    /* rows of nulls only make no timestamp: `if timestamp not in self` */
    for (size_t i = k = 0; i < m->nrows; i++)
        if (m->rows[i].n > 0)
            m->rows[k++] = m->rows[i];
    if ((m->nrows = k) == 0) {
        pending_free(m);
        return TOKIO_OK;
    }
    /* by timestamp, then by where each timestamp came first */
    for (size_t i = 0; i < m->nrows; i++)
        m->rows[i].key = m->rows[i].ts;
    qsort(m->rows, m->nrows, sizeof(*m->rows), cmp_row);
    for (size_t i = 0; i < m->nrows; i++)
        m->rows[i].key = i > 0 && m->rows[i].ts == m->rows[i - 1].ts
                         ? m->rows[i - 1].key : (int64_t)m->rows[i].seq;
    qsort(m->rows, m->nrows, sizeof(*m->rows), cmp_row);
    for (size_t i = 0; i < m->nrows && rc == TOKIO_OK; i++) {
        if (i == 0 || m->rows[i].ts != m->rows[i - 1].ts) {
            snprintf(key, sizeof(key), "%" PRId64, m->rows[i].ts);
            if ((t = child(m->dict, key)) == NULL)
                rc = oom();
        }
        if (rc == TOKIO_OK)
            rc = store_row(m, t, &m->rows[i]);
    }
    pending_free(m);
    return rc;
}

/* ---- the JSON form ---------------------------------------------------- */

/* What a counter (or a device of it) may hold. */
static int
is_scalar(const json_t *v)
{
    return !json_is_object(v) && !json_is_array(v);
}

/* One counter of the JSON form into the timestamp object `t`. */
static int
add_counter(json_t *t, const char *tkey, const char *host,
            const char *counter, json_t *v)
{
    const char *dkey;
    json_t *dv;
    int rc;

    if (!is_scalar(v) && !json_is_object(v))
        return tokio__error(TOKIO_EFORMAT, "mmperfmon JSON '%s' '%s' '%s': "
                            "not a number, string or object of them", tkey,
                            host, counter);
    /* an empty dict of devices stays one */
    rc = json_is_object(v) ? put(t, host, counter, "", NULL)
                           : put(t, host, counter, NULL, json_incref(v));
    json_object_foreach(v, dkey, dv) {
        if (rc < 0)
            break;
        if (!is_scalar(dv))
            return tokio__error(TOKIO_EFORMAT, "mmperfmon JSON '%s' '%s' "
                                "'%s' '%s': not a number or string", tkey,
                                host, counter, dkey);
        rc = put(t, host, counter, dkey, json_incref(dv));
    }
    if (rc == TOKIO_EFORMAT)
        return tokio__error(TOKIO_EFORMAT, "mmperfmon JSON '%s' '%s' '%s': "
                            "values per device and a single value", tkey,
                            host, counter);
    return rc;
}

static int
add_json(void *h, const json_t *json)
{
    struct tokio_mmperfmon *m = h;
    const char *tkey, *host, *counter;
    json_t *hosts, *counters, *v;
    int rc;

    /* what came before it goes first */
    if ((rc = store(m)) < 0)
        return rc;
    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "mmperfmon JSON: not an object");
    json_object_foreach((json_t *)json, tkey, hosts) {
        json_t *k = tokio_recast_string(tkey), *t = NULL;
        char key[32];

        if (k == NULL)
            return oom();
        if (!json_is_integer(k)) {
            json_decref(k);
            return tokio__error(TOKIO_EFORMAT, "mmperfmon JSON key '%s': "
                                "not an integer timestamp", tkey);
        }
        snprintf(key, sizeof(key), "%" PRId64,
                 (int64_t)json_integer_value(k));
        json_decref(k);
        if (!json_is_object(hosts))
            return tokio__error(TOKIO_EFORMAT, "mmperfmon JSON key '%s': "
                                "not an object of hosts", tkey);
        json_object_foreach(hosts, host, counters) {
            if (!json_is_object(counters))
                return tokio__error(TOKIO_EFORMAT, "mmperfmon JSON '%s' "
                                    "'%s': not an object of counters", tkey,
                                    host);
            json_object_foreach(counters, counter, v) {
                if (t == NULL && (t = child(m->dict, key)) == NULL)
                    return oom();
                if ((rc = add_counter(t, tkey, host, counter, v)) < 0)
                    return rc;
            }
        }
    }
    return TOKIO_OK;
}

/* ---- the public interface ---------------------------------------------- */

static int
new_dict(void **out)
{
    struct tokio_mmperfmon *m = tokio__calloc(1, sizeof(*m));

    *out = m;
    if (m == NULL || (m->dict = json_object()) == NULL) {
        free(m);
        *out = NULL;
        return oom();
    }
    return TOKIO_OK;
}

TOKIO__CONNECTOR_OPEN_FUNCTIONS(mmperfmon)

int
tokio_mmperfmon_add(struct tokio_mmperfmon *m, const char *path)
{
    return tokio__connector_add(&tokio__mmperfmon_connector, m, path);
}

int
tokio_mmperfmon_to_json(const struct tokio_mmperfmon *m, json_t **out)
{
    *out = json_incref(m->dict);
    return TOKIO_OK;
}

void
tokio_mmperfmon_free(struct tokio_mmperfmon *m)
{
    if (m == NULL)
        return;
    pending_free(m);
    free(m->srcs);
    free(m->rows);
    free(m->cells);
    json_decref(m->dict);
    free(m);
}

/* ---- CSV: the reference's to_dataframe() through pandas' to_csv() ------ */

struct table {              /* the reference's to_df, cell by cell */
    json_t *cols;           /* column name -> index, first seen first */
    struct entry {
        size_t row, col;
        const json_t *v;
    } *e;
    size_t n, cap;
    int64_t *stamps;        /* of the rows, in dict order */
    size_t nrows, caprows;
    char *key;              /* room for "name:device" */
    size_t keycap;
};

/* `v` in the current row's column `key`; -1 when out of memory. */
static int
table_cell(struct table *tb, const char *key, const json_t *v)
{
    json_t *col = json_object_get(tb->cols, key);

    if (col == NULL && json_object_set_new_nocheck(tb->cols, key,
            col = json_integer((json_int_t)json_object_size(tb->cols))) < 0)
        return -1;
    if (grow(&tb->e, &tb->cap, tb->n + 1, sizeof(*tb->e)) < 0)
        return -1;
    tb->e[tb->n++] = (struct entry){ tb->nrows,
                                     (size_t)json_integer_value(col), v };
    return 0;
}

/* `v` in column `name`, or each device's value in "name:device". */
static int
table_put(struct table *tb, const char *name, const json_t *v)
{
    size_t n = strlen(name), d;
    const char *dev;
    json_t *dv;

    if (!json_is_object(v))
        return table_cell(tb, name, v);
    json_object_foreach((json_t *)v, dev, dv) {
        if (grow(&tb->key, &tb->keycap, n + (d = strlen(dev)) + 2, 1) < 0)
            return -1;
        memcpy(tb->key, name, n);
        tb->key[n] = ':';
        memcpy(tb->key + n + 1, dev, d + 1);
        if (table_cell(tb, tb->key, dv) < 0)
            return -1;
    }
    return 0;
}

/* The cells to_dataframe_by_host(host) or _by_metric(metric) collects, a
 * row per timestamp that has any; -1 when out of memory. */
static int
table_fill(struct table *tb, const json_t *dict, const char *host,
           const char *metric)
{
    const char *tkey, *h, *c;
    json_t *hosts, *counters, *v;
    int rc = 0;

    json_object_foreach((json_t *)dict, tkey, hosts) {
        size_t before = tb->n;

        if (host != NULL && (counters = json_object_get(hosts, host)))
            json_object_foreach(counters, c, v)
                rc |= table_put(tb, c, v);
        if (metric != NULL)
            json_object_foreach(hosts, h, counters)
                /* `if value is None: continue` */
                if ((v = json_object_get(counters, metric)) != NULL &&
                    !json_is_null(v))
                    rc |= table_put(tb, h, v);
        if (rc < 0 || grow(&tb->stamps, &tb->caprows, tb->nrows + 1,
                           sizeof(*tb->stamps)) < 0)
            return -1;
        if (tb->n > before)
            tb->stamps[tb->nrows++] = strtoll(tkey, NULL, 10);
    }
    return 0;
}

static int
cmp_stamp(const void *a, const void *b, void *stamps)
{
    const int64_t *ts = stamps;

    return order2(ts[*(const size_t *)a], 0, ts[*(const size_t *)b], 0);
}

/*
 * Write the table as pandas prints it: columns in order of first
 * appearance; rows in the order of its index (one column: sorted; more:
 * the union of the columns' keys, column by column, in order of first
 * appearance); a column of integers with gaps is a column of reals, one
 * with booleans or text an object column.
 */
static int
table_write(const struct table *tb, FILE *fp)
{
    size_t ncols = json_object_size(tb->cols), nrows = tb->nrows, norder = 0;
    /* rows and columns are each at most the values: no overflow */
    const json_t **grid = tokio__calloc(nrows * ncols + 1, sizeof(*grid));
    size_t *order = tokio__calloc(nrows + 1, sizeof(*order));
    unsigned char *taken = tokio__calloc(nrows + 1, 1);
    char *kind = tokio__calloc(ncols + 1, 1), buf[64];
    const char *name;
    json_t *v;
    int rc = TOKIO_ENOMEM;

    if (grid == NULL || order == NULL || taken == NULL || kind == NULL)
        goto out;
    for (size_t i = 0; i < tb->n; i++)
        grid[tb->e[i].row * ncols + tb->e[i].col] = tb->e[i].v;
    fputs("timestamp", fp);
    json_object_foreach(tb->cols, name, v) {
        size_t c = (size_t)json_integer_value(v), present = 0;
        int real = 0, other = 0;

        for (size_t r = 0; r < nrows; r++) {
            const json_t *cell = grid[r * ncols + c];

            if (cell == NULL)
                continue;
            if (!taken[r]) {
                taken[r] = 1;
                order[norder++] = r;
            }
            present += !json_is_null(cell);
            real |= json_is_real(cell);
            other |= !json_is_number(cell) && !json_is_null(cell);
        }
        /* every row has a cell: nrows is the length of the index */
        kind[c] = other ? 'o' : real || present < nrows ? 'r' : 'i';
        fputc(',', fp);
        tokio_csv_write_field(fp, name, strlen(name));
    }
    fputc('\n', fp);
    if (ncols == 1)
        qsort_r(order, norder, sizeof(*order), cmp_stamp, tb->stamps);
    for (size_t k = 0; k < norder; k++) {
        if ((rc = tokio_time_format(buf, sizeof(buf), tb->stamps[order[k]],
                                    "%Y-%m-%d %H:%M:%S")) < 0)
            goto out;
        fputs(buf, fp);
        for (size_t c = 0; c < ncols; c++) {
            const json_t *cell = grid[order[k] * ncols + c];

            fputc(',', fp);
            if (json_is_integer(cell) && kind[c] != 'r')
                fprintf(fp, "%" PRId64, (int64_t)json_integer_value(cell));
            else if (json_is_number(cell) &&
                     tokio_format_double(buf, sizeof(buf),
                                         json_number_value(cell)) >= 0)
                fputs(buf, fp);
            else if (json_is_boolean(cell))
                fputs(json_is_true(cell) ? "True" : "False", fp);
            else if (json_is_string(cell))
                tokio_csv_write_field(fp, json_string_value(cell),
                                      json_string_length(cell));
        }
        fputc('\n', fp);
    }
    rc = TOKIO_OK;
out:
    free(grid);
    free(order);
    free(taken);
    free(kind);
    return rc;
}

int
tokio_mmperfmon_write_csv(const struct tokio_mmperfmon *m, FILE *fp,
                          const char *host, const char *metric)
{
    struct table tb = { .cols = json_object() };
    int rc;

    if ((host == NULL) == (metric == NULL)) {
        json_decref(tb.cols);
        return tokio__error(TOKIO_EINVAL, "mmperfmon CSV: give a host or a "
                            "metric");
    }
    rc = tb.cols != NULL && table_fill(&tb, m->dict, host, metric) == 0
         ? table_write(&tb, fp) : TOKIO_ENOMEM;
    json_decref(tb.cols);
    free(tb.e);
    free(tb.stamps);
    free(tb.key);
    if (rc == TOKIO_ENOMEM)
        return tokio__error(rc, "out of memory writing mmperfmon CSV");
    return rc < 0 ? rc : tokio__write_check(fp, "cannot write mmperfmon CSV");
}

/* ---- the connector interface (src/core/connector.h) -------------------- */

/* Every output starts with its legend. */
static int
bid(const char *head, size_t n)
{
    return memmem(head, n, "Legend:", 7) ? 80 : 0;
}

static int
to_json(const void *h, json_t **out)
{
    return tokio_mmperfmon_to_json(h, out);
}

static void
free_dict(void *h)
{
    tokio_mmperfmon_free(h);
}

const struct tokio__connector tokio__mmperfmon_connector = {
    .name = "mmperfmon",
    .flags = TOKIO__CONNECTOR_COLLECTION,
    .what = "mmperfmon query output (a Legend: line first), a folder or "
            "tar archive of them, or their JSON form",
    /* a day of a large GPFS site's hourly outputs, tarred */
    .max_bytes = (size_t)1 << 30,
    .bid = bid,
    .new = new_dict,
    .add_text = add_text,
    .add_json = add_json,
    .finish = store,
    .to_json = to_json,
    .free = free_dict,
};
