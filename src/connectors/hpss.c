/*
 * src/connectors/hpss.c - HPSS text outputs: the FTP/PFTP daemon's
 * transfer log (HPSS 7.3/7.4), the HSI/HTAR transaction log, and the
 * daily report's fixed-width tables.  Mirrors tokio.connectors.hpss
 * (pytokio 0.13): FtpLog.load_str(), HsiLog.load_str() and
 * HpssDailyReport.load_str() with its _parse_section(), _find_columns(),
 * _rekey_table(), _hpss_timedelta_to_secs() and _get_ascii_resolution().
 *
 * Log records are typed (one table of field names and types per
 * application, values in a small array per record, strings in one pool),
 * because logs are large and a JSON object per record costs several times
 * the parse; so are a daily report's tables (a typed cell per row and
 * key, keys and strings in the pool), the JSON tree built on output.
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/{hpss_daily.txt,
 * hsilog.txt.gz, hpssftplog.txt.gz}; goldens in
 * ../shared/testdata/golden/pytokio/hpss/.
 *
 * Differs from pytokio, all on input the real tools do not write:
 *  - a garbled line (too few fields, a bad date or number, a NUL byte,
 *    invalid UTF-8) is TOKIO_EFORMAT naming the file and line; the
 *    reference raised IndexError/ValueError without saying where;
 *  - blank lines in logs are skipped (the reference raised);
 *  - lines end at "\n" only, and only ASCII whitespace counts as
 *    whitespace (Python's splitlines()/split()/strip() know more);
 *  - numbers: no "_" digit separators, no NaN or infinity (JSON has no
 *    such values), integers must fit int64;
 *  - dates: day and month names in English, as the C locale prints them;
 *  - daily report columns are cut at byte offsets (Python: characters)
 *    and lower-cased in ASCII only; a title line within two lines of the
 *    end is no table (the reference raised IndexError); overlapping
 *    tables that would take quadratic time are refused (EXTRA_WORK).
 *  - a daily report cell or heading cut inside a UTF-8 character (the
 *    reference cut characters, not bytes) is TOKIO_EFORMAT.
 */
#include "tokio/connectors/hpss.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "tokio/input.h"
#include "tokio/output.h"
#include "tokio/time.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/text.h"
#include "core/json.h"
#include "core/localdays.h"
#include "core/localtime.h"

/* ---- format facts ------------------------------------------------------ */

/* The daily report's first line (the reference searched for it). */
#define REPORT_MARK "HPSS Report for Date"

/* Fields before the tab-separated part of an HSI/HTAR line: weekday,
 * month, day, time, year, remote host, app, uid (HsiLog splits at most 8
 * times on runs of spaces). */
#define HSI_PREFIX 8

/* Fields kept of a split line; later ones are only counted (HTAR's last
 * three are kept apart, the reference indexed them from the end). */
#define MAX_KEPT 20

/* A field's decimals beyond this: 10**n overflows a double, where the
 * reference raised OverflowError. */
#define MAX_DECIMALS 308

/* Daily report: cells parsed over all candidate tables, beyond one per
 * input byte and line.  The reference tries every line as a table start;
 * crafted input of nested candidates makes that quadratic in time and in
 * kept tables.  A real report parses each cell once, and a cell takes at
 * least two bytes of its row. */
#define EXTRA_WORK 100000

enum ftype { T_INT, T_REAL, T_STR };

struct field {
    const char *name;
    enum ftype type;
};

/* Field indexes, per application, in the reference's record order. */
enum { H_CLIENT_PID, H_OPNAME, H_RETURN_CODE, H_LATENCY, H_LATENCY_RES,
       H_BYTES, H_BYTES_SEC, H_BYTES_SEC_RES, H_COS_ID, H_SOURCE_PATH,
       H_DEST_PATH, H_ACCOUNT_ID, H_HPSS_UID, H_REMOTE_HOST, H_END, H_N };
static const struct field hsi_fields[H_N] = {
    { "client_pid", T_INT }, { "opname", T_STR }, { "return_code", T_INT },
    { "access_latency_sec", T_REAL },
    { "access_latency_sec_resolution", T_REAL }, { "bytes", T_INT },
    { "bytes_sec", T_REAL }, { "bytes_sec_resolution", T_REAL },
    { "cos_id", T_INT }, { "source_path", T_STR }, { "dest_path", T_STR },
    { "account_id", T_INT }, { "hpss_uid", T_INT },
    { "remote_host", T_STR }, { "end_timestamp", T_REAL },
};

enum { A_CLIENT_PID, A_HTAR_OP, A_OPNAME, A_RETURN_CODE, A_BYTES,
       A_DURATION, A_DURATION_RES, A_BYTES_SEC, A_BYTES_SEC_RES,
       A_HPSS_PATH, A_COS_ID, A_ACCOUNT_ID, A_REMOTE_FTP_HOST, A_HPSS_UID,
       A_REMOTE_HOST, A_END, A_N };
static const struct field htar_fields[A_N] = {
    { "client_pid", T_INT }, { "htar_op", T_STR }, { "opname", T_STR },
    { "return_code", T_INT }, { "bytes", T_INT },
    { "duration_sec", T_REAL }, { "duration_sec_resolution", T_REAL },
    { "bytes_sec", T_REAL }, { "bytes_sec_resolution", T_REAL },
    { "hpss_path", T_STR }, { "cos_id", T_INT }, { "account_id", T_INT },
    { "remote_ftp_host", T_STR }, { "hpss_uid", T_INT },
    { "remote_host", T_STR }, { "end_timestamp", T_REAL },
};

/* FTP's hpss_uid is the user name, not a number as in HSI logs. */
enum { F_END, F_OPNAME, F_DURATION, F_DURATION_RES, F_REMOTE_HOST,
       F_BYTES, F_HPSS_PATH, F_HPSS_UID, F_N };
static const struct field ftp_fields[F_N] = {
    { "end_timestamp", T_REAL }, { "opname", T_STR },
    { "duration_sec", T_REAL }, { "duration_sec_resolution", T_REAL },
    { "remote_host", T_STR }, { "bytes", T_INT }, { "hpss_path", T_STR },
    { "hpss_uid", T_STR },
};

#define MAX_FIELDS 16

enum app { APP_HSI, APP_HTAR, APP_FTP, APP_PFTP, N_APPS };
static const struct {
    const char *name;
    enum tokio_hpss_kind kind;
    const struct field *fields;
    size_t n;
} apps[N_APPS] = {
    { "hsi", TOKIO_HPSS_HSI, hsi_fields, H_N },
    { "htar", TOKIO_HPSS_HSI, htar_fields, A_N },
    { "ftp", TOKIO_HPSS_FTP, ftp_fields, F_N },
    { "pftp", TOKIO_HPSS_FTP, ftp_fields, F_N },
};

/* Daily report column types (the reference's FLOAT_KEYS, INT_KEYS,
 * DELTIM_KEYS) and the tables it re-keys by a column (REKEY_TABLES). */
static const char *const float_cols[] = {
    "io_gb", "write_gb", "read_gb", "copy_gb", "mig (gb)", "purge(gb)",
    "lock%", NULL
};
static const char *const int_cols[] = {
    "users", "ops", "w_ops", "r_ops", "c_ops", "migfiles", "purfiles",
    "count", "cleans", "locks", "mounts", NULL
};
static const char *const deltim_cols[] = {
    "migtime", "purgetime", "availtime", "locktime", "mounttime", NULL
};
static const char *const rekey[][2] = {
    { "io totals by client application", "client" },
    { "io totals by client host", "host" },
    { "io totals by hpss client gateway (ui) host", "host" },
    { "migration purge report", "sc" },
};

/* ---- the private struct ------------------------------------------------ */

union val {
    int64_t i;
    double d;
    uint64_t off;       /* T_STR: NUL-ended string at pool + off */
};

struct rec {
    uint8_t app;
    uint32_t present;   /* bit per field index */
    union val v[MAX_FIELDS];
};

/* A daily report cell: T_INT, T_REAL or T_STR. */
struct rcell {
    uint8_t type;
    union val v;
};

/* A daily report table: rows of one cell per key. */
struct table {
    uint64_t system, title;     /* pool offsets */
    uint64_t *keys;             /* the rows' keys, pool offsets, in order */
    size_t nkeys;
    size_t keyslot;             /* re-keyed tables: the key keying rows
                                   (not a key of the row then), else
                                   SIZE_MAX */
    struct rcell *cells;        /* nrows * nkeys */
    size_t nrows;
};

struct tokio_hpss {
    enum tokio_hpss_kind kind;
    struct rec *recs;           /* logs: in input order */
    size_t n, cap;
    char *pool;
    size_t pool_len, pool_cap;
    struct table *tables;       /* daily report text: in order stored */
    size_t ntables, tcap;
    json_t *tindex;             /* system -> title -> index in tables */
    json_t *report;             /* daily report from JSON: system ->
                                   title -> rows */
    char date[24];              /* daily report: "YYYY-MM-DD" or "" */
};

/* A piece of a line. */
struct span {
    const char *p;
    size_t len;
};


/* ---- small helpers ----------------------------------------------------- */

/* tokio__py_space(), quick to say no (white space is at most ' ') */
static int
space(unsigned char c)
{
    return c <= ' ' && tokio__py_space(c);
}

static struct span
strip(struct span s)
{
    /* report cells are padded with runs of spaces */
    while (s.len >= 8 && memcmp(s.p, "        ", 8) == 0)
        s.p += 8, s.len -= 8;
    while (s.len > 0 && space((unsigned char)*s.p))
        s.p++, s.len--;
    while (s.len > 0 && space((unsigned char)s.p[s.len - 1]))
        s.len--;
    return s;
}

static int
span_is(struct span s, const char *text)
{
    size_t n = strlen(text);
    return s.len == n && memcmp(s.p, text, n) == 0;
}

static int
blank(const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!space((unsigned char)p[i]))
            return 0;
    return 1;
}

/* Python's int() of a field: surrounding whitespace, a sign, digits. */
static int
py_int(struct span s, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    uint64_t v = 0, limit;

    s = strip(s);
    if (i < s.len && (s.p[i] == '+' || s.p[i] == '-'))
        neg = s.p[i++] == '-';
    if (i >= s.len)
        return -1;
    limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    /* 18 digits cannot overflow: no division per digit then */
    for (size_t fast = s.len - i <= 18; i < s.len; i++) {
        unsigned d = (unsigned)(unsigned char)s.p[i] - '0';
        if (d > 9 || (!fast && v > (limit - d) / 10))
            return -1;
        v = v * 10 + d;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

/* Python's float() of a field, finite values only: [sign] digits with at
 * most one '.', at least one digit, optional exponent. */
static int
py_float(struct span s, double *out)
{
    char buf[64], *end;
    size_t i = 0, digits = 0;
    int exp = 0;

    s = strip(s);
    if (i < s.len && (s.p[i] == '+' || s.p[i] == '-'))
        i++;
    for (; i < s.len && s.p[i] >= '0' && s.p[i] <= '9'; i++)
        digits++;
    if (i < s.len && s.p[i] == '.')
        for (i++; i < s.len && s.p[i] >= '0' && s.p[i] <= '9'; i++)
            digits++;
    if (digits == 0)
        return -1;
    if (i < s.len && (s.p[i] == 'e' || s.p[i] == 'E')) {
        size_t e = ++i;
        exp = 1;
        if (i < s.len && (s.p[i] == '+' || s.p[i] == '-'))
            e = ++i;
        while (i < s.len && s.p[i] >= '0' && s.p[i] <= '9')
            i++;
        if (i == e)
            return -1;
    }
    if (i != s.len)
        return -1;
    /* Clinger's fast path: up to 15 digits and no exponent make an exact
     * integer over an exact power of ten, whose quotient is correctly
     * rounded, so equal to strtod()'s and Python's float() */
    if (digits <= 15 && !exp) {
        static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
            1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
        uint64_t m = 0;
        size_t frac = 0;
        int seen_dot = 0, neg = s.p[0] == '-';
        for (size_t k = 0; k < s.len; k++) {
            if (s.p[k] == '.')
                seen_dot = 1;
            else if (s.p[k] >= '0' && s.p[k] <= '9') {
                m = m * 10 + (uint64_t)(s.p[k] - '0');
                frac += seen_dot;
            }
        }
        double v = (double)m / p10[frac];
        *out = neg ? -v : v;
        return 0;
    }
    if (s.len < sizeof(buf)) {
        memcpy(buf, s.p, s.len);
        buf[s.len] = '\0';
        *out = strtod(buf, &end);
    } else {
        char *big = tokio__strndup(s.p, s.len);
        if (big == NULL)
            return -2;
        *out = strtod(big, &end);
        free(big);
    }
    return isfinite(*out) ? 0 : -1;
}

/*
 * _get_ascii_resolution(): the smallest step the text can express, from
 * its digits after the last '.' (1.0 without one).
 */
static int
resolution(struct span s, double *out)
{
    const char *dot = NULL;

    for (size_t i = s.len; i > 0; i--)
        if (s.p[i - 1] == '.') {
            dot = s.p + i - 1;
            break;
        }
    if (dot == NULL) {
        *out = 1.0;
        return 0;
    }
    /* powers of ten exact in a double, so 1/p10[n] is what Python's
     * 1.0 / 10**float(n) gives, without pow() per field */
    static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22 };
    size_t n = s.len - (size_t)(dot + 1 - s.p);
    if (n > MAX_DECIMALS)
        return -1;
    *out = n < sizeof(p10) / sizeof(p10[0]) ? 1.0 / p10[n]
                                            : 1.0 / pow(10.0, (double)n);
    return 0;
}

static int
days_in_month(int y, int m)
{
    static const int dm[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30,
                                31 };
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : dm[m - 1];
}

/* A day or month name, abbreviated or full, any case (strptime %a/%b). */
static int
name_index(struct span s, const char *const *names, int n)
{
    /* the common case first: a capitalized abbreviation as ctime prints */
    if (s.len == 3)
        for (int i = 0; i < n; i++)
            if (s.p[0] == names[i][0] - 'a' + 'A' &&
                s.p[1] == names[i][1] && s.p[2] == names[i][2])
                return i;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]);
        if ((s.len == 3 || s.len == len) &&
            strncasecmp(s.p, names[i], s.len) == 0)
            return i;
    }
    return -1;
}

/* 1 or 2 digits in [lo, hi]. */
static int
small_num(const char *p, size_t len, int lo, int hi, int *out)
{
    if (len < 1 || len > 2)
        return -1;
    int v = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        v = v * 10 + (p[i] - '0');
    }
    if (v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* The date part of the last ctime-style date parsed: a log's lines share
 * it, and its names cost more than the rest. */
struct date_memo {
    char text[24];      /* weekday, month and day as they were, year */
    size_t len;         /* 0: none */
    int y, mon, day;
};

/*
 * The five fields of a ctime-style date ("Mon Dec 31 00:06:46 2018",
 * strptime "%a %b %d %H:%M:%S %Y") as local time, to epoch seconds.
 * Fields 0-2 are parts of one line.
 */
static int
parse_ctime(struct tokio__local_days *tc, struct date_memo *m,
            const struct span *f, double *out)
{
    static const char *const wdays[] = { "monday", "tuesday", "wednesday",
        "thursday", "friday", "saturday", "sunday" };
    static const char *const months[] = { "january", "february", "march",
        "april", "may", "june", "july", "august", "september", "october",
        "november", "december" };
    int mon, day, h, mi, s, y = 0;
    int64_t e;
    const char *t = f[3].p, *c1, *c2;
    size_t dlen = (size_t)(f[2].p + f[2].len - f[0].p);

    if (m->len > 0 && m->len == dlen + f[4].len &&
        memcmp(m->text, f[0].p, dlen) == 0 &&
        memcmp(m->text + dlen, f[4].p, f[4].len) == 0) {
        y = m->y;
        mon = m->mon;
        day = m->day;
    } else {
        if (name_index(f[0], wdays, 7) < 0 ||
            (mon = name_index(f[1], months, 12)) < 0 ||
            small_num(f[2].p, f[2].len, 1, 31, &day) < 0 || f[4].len != 4)
            return -1;
        mon++;
        for (int i = 0; i < 4; i++) {
            if (f[4].p[i] < '0' || f[4].p[i] > '9')
                return -1;
            y = y * 10 + (f[4].p[i] - '0');
        }
        if (y < 1 || day > days_in_month(y, mon))
            return -1;
        m->len = 0;
        if (dlen + f[4].len <= sizeof(m->text)) {
            memcpy(m->text, f[0].p, dlen);
            memcpy(m->text + dlen, f[4].p, f[4].len);
            m->len = dlen + f[4].len;
            m->y = y;
            m->mon = mon;
            m->day = day;
        }
    }
    c1 = memchr(t, ':', f[3].len);
    c2 = c1 ? memchr(c1 + 1, ':', (size_t)(t + f[3].len - c1 - 1)) : NULL;
    if (c2 == NULL || small_num(t, (size_t)(c1 - t), 0, 23, &h) < 0 ||
        small_num(c1 + 1, (size_t)(c2 - c1 - 1), 0, 59, &mi) < 0 ||
        small_num(c2 + 1, (size_t)(t + f[3].len - c2 - 1), 0, 59, &s) < 0)
        return -1;
    if (tokio__local_epoch(tc, y, mon, day, h, mi, s, &e) < 0)
        return -1;
    *out = (double)e;
    return 0;
}

/* ---- building the handle ------------------------------------------------ */

static int
oom(const char *name)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
}

/* Copy a string into the pool; its offset in *off_out. */
static int
pool_add(struct tokio_hpss *h, const char *p, size_t len, uint64_t *off_out)
{
    if (h->pool_cap - h->pool_len < len + 1) {
        size_t cap = h->pool_cap ? h->pool_cap : 4096;
        while (cap - h->pool_len < len + 1) {
            if (cap > SIZE_MAX / 2)
                return -1;
            cap *= 2;
        }
        char *np = tokio__realloc(h->pool, cap);
        if (np == NULL)
            return -1;
        h->pool = np;
        h->pool_cap = cap;
    }
    memcpy(h->pool + h->pool_len, p, len);
    h->pool[h->pool_len + len] = '\0';
    *off_out = h->pool_len;
    h->pool_len += len + 1;
    return 0;
}

/* A new zeroed record of `app` at the end; NULL when out of memory. */
static struct rec *
add_rec(struct tokio_hpss *h, enum app app)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 256;
        struct rec *nr = tokio__reallocarray(h->recs, cap, sizeof(*nr));
        if (nr == NULL)
            return NULL;
        h->recs = nr;
        h->cap = cap;
    }
    struct rec *r = &h->recs[h->n++];
    memset(r, 0, sizeof(*r));
    r->app = (uint8_t)app;
    return r;
}

static void
set_int(struct rec *r, int i, int64_t v)
{
    r->v[i].i = v;
    r->present |= 1u << i;
}

static void
set_real(struct rec *r, int i, double v)
{
    r->v[i].d = v;
    r->present |= 1u << i;
}

static int
set_str(struct tokio_hpss *h, struct rec *r, int i, struct span s)
{
    if (pool_add(h, s.p, s.len, &r->v[i].off) < 0)
        return -1;
    r->present |= 1u << i;
    return 0;
}

/* Where a line is, for messages and the parsers. */
struct where {
    const char *name;
    size_t lineno;
    struct tokio__local_days *tc;   /* local days seen */
    struct date_memo memo;
};

static int
bad(const struct where *w, const char *what, struct span s)
{
    return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s '%.*s'", w->name,
                        w->lineno, what, (int)(s.len > 60 ? 60 : s.len), s.p);
}

/* Typed fields of a record, failing with a message naming the line. */
static int
get_int(const struct where *w, struct rec *r, int i, struct span s,
        const char *field)
{
    int64_t v;
    if (py_int(s, &v) < 0)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s is not an "
                            "integer: '%.*s'", w->name, w->lineno, field,
                            (int)(s.len > 60 ? 60 : s.len), s.p);
    set_int(r, i, v);
    return 0;
}

/* A real and, when `res` >= 0, its resolution, both times `scale`. */
static int
get_real(const struct where *w, struct rec *r, int i, int res, double scale,
         struct span s, const char *field)
{
    double v, step;
    int rc = py_float(s, &v);

    if (rc == -2)
        return oom(w->name);
    if (rc < 0 || (res >= 0 && resolution(s, &step) < 0))
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s is not a "
                            "finite number: '%.*s'", w->name, w->lineno,
                            field, (int)(s.len > 60 ? 60 : s.len), s.p);
    set_real(r, i, scale * v);
    if (res >= 0)
        set_real(r, res, scale * step);
    return 0;
}

/* ---- HSI/HTAR log ------------------------------------------------------- */

/*
 * One HSI/HTAR line.  The reference split the line at most 8 times on
 * runs of spaces, then the rest at every tab:
 *   Sat Aug 10 00:05:26 2019 host hsi UID PID\tLH\t0\t0.02\t...
 */
static int
parse_hsi_line(struct tokio_hpss *h, struct where *w, const char *line,
               size_t len)
{
    struct span f[MAX_KEPT], last[3] = { { "", 0 }, { "", 0 }, { "", 0 } };
    size_t n = 0, pos = 0;

    /* re.split(' +', line, maxsplit=8) */
    while (n < HSI_PREFIX && pos < len) {
        const char *sp = memchr(line + pos, ' ', len - pos);
        if (sp == NULL)
            break;
        f[n].p = line + pos;
        f[n].len = (size_t)(sp - line) - pos;
        n++;
        pos = (size_t)(sp - line);
        while (pos < len && line[pos] == ' ')
            pos++;
    }
    f[n].p = line + pos;
    f[n].len = len - pos;
    n++;
    if (n < 7)
        return bad(w, "not an HSI/HTAR line (too few fields):",
                   (struct span){ line, len });

    /* the app is the 7th field before the tab split, as there */
    enum app app;
    if (span_is(f[6], "hsi"))
        app = APP_HSI;
    else if (span_is(f[6], "htar"))
        app = APP_HTAR;
    else
        return TOKIO_OK;        /* other applications: skipped, as there */

    /* the last field splits at every tab; keep the first MAX_KEPT
     * fields and the last three */
    struct span rest = f[n - 1];
    n--;
    for (size_t a = 0;;) {
        const char *tab = memchr(rest.p + a, '\t', rest.len - a);
        size_t b = tab ? (size_t)(tab - rest.p) : rest.len;
        struct span sp = { rest.p + a, b - a };
        if (n < MAX_KEPT)
            f[n] = sp;
        n++;
        last[0] = last[1];
        last[1] = last[2];
        last[2] = sp;
        if (b == rest.len)
            break;
        a = b + 1;
    }

    size_t need = 16;
    if (app == APP_HSI && n >= 10 && !span_is(f[9], "FU"))
        need = span_is(f[9], "FR") ? 17 : 18;
    if (n < need)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s line has %zu "
                            "fields, expected at least %zu", w->name,
                            w->lineno, apps[app].name, n, need);

    struct rec *r = add_rec(h, app);
    int rc;
    if (r == NULL)
        return oom(w->name);
    if (app == APP_HSI) {
        if ((rc = get_int(w, r, H_CLIENT_PID, f[8], "client_pid")) < 0 ||
            (rc = get_int(w, r, H_RETURN_CODE, f[10], "return_code")) < 0 ||
            (rc = get_real(w, r, H_LATENCY, H_LATENCY_RES, 1.0, f[11],
                           "access_latency_sec")) < 0 ||
            (rc = get_int(w, r, H_BYTES, f[12], "bytes")) < 0 ||
            (rc = get_real(w, r, H_BYTES_SEC, H_BYTES_SEC_RES, 1000.0, f[13],
                           "bytes_sec")) < 0 ||
            (rc = get_int(w, r, H_COS_ID, f[14], "cos_id")) < 0)
            return rc;
        if (set_str(h, r, H_OPNAME, f[9]) < 0 ||
            set_str(h, r, H_SOURCE_PATH, f[15]) < 0)
            return oom(w->name);
        /* unlinks (FU) have no destination; renames (FR) no account */
        if (need >= 17 && set_str(h, r, H_DEST_PATH, f[16]) < 0)
            return oom(w->name);
        if (need >= 18 &&
            (rc = get_int(w, r, H_ACCOUNT_ID, f[17], "account_id")) < 0)
            return rc;
        if ((rc = get_int(w, r, H_HPSS_UID, f[7], "uid")) < 0)
            return rc;
        if (set_str(h, r, H_REMOTE_HOST, f[5]) < 0)
            return oom(w->name);
    } else {
        if ((rc = get_int(w, r, A_CLIENT_PID, f[8], "client_pid")) < 0 ||
            (rc = get_int(w, r, A_RETURN_CODE, f[11], "return_code")) < 0 ||
            (rc = get_int(w, r, A_BYTES, f[12], "bytes")) < 0 ||
            (rc = get_real(w, r, A_DURATION, A_DURATION_RES, 1.0, f[13],
                           "duration_sec")) < 0 ||
            (rc = get_real(w, r, A_BYTES_SEC, A_BYTES_SEC_RES, 1.0, f[14],
                           "bytes_sec")) < 0 ||
            (rc = get_int(w, r, A_COS_ID, last[1], "cos_id")) < 0 ||
            (rc = get_int(w, r, A_ACCOUNT_ID, last[2], "account_id")) < 0 ||
            (rc = get_int(w, r, A_HPSS_UID, f[7], "uid")) < 0)
            return rc;
        if (set_str(h, r, A_HTAR_OP, f[9]) < 0 ||
            set_str(h, r, A_OPNAME, f[10]) < 0 ||
            set_str(h, r, A_HPSS_PATH, f[15]) < 0 ||
            set_str(h, r, A_REMOTE_HOST, f[5]) < 0)
            return oom(w->name);
        /* "whose idea was it to make the column count variable?" - the
         * reference; only 19-field lines name a remote FTP host */
        if (n == 19 && set_str(h, r, A_REMOTE_FTP_HOST, last[0]) < 0)
            return oom(w->name);
    }
    double t;
    if (parse_ctime(w->tc, &w->memo, f, &t) < 0) {
        struct span d = { f[0].p, (size_t)(f[4].p + f[4].len - f[0].p) };
        return bad(w, "bad date", d);
    }
    set_real(r, app == APP_HSI ? H_END : A_END, t);
    return TOKIO_OK;
}

/* ---- FTP log ------------------------------------------------------------ */

static int
ends_with(struct span s, const char *suffix)
{
    size_t n = strlen(suffix);
    return s.len >= n && memcmp(s.p + s.len - n, suffix, n) == 0;
}

/*
 * One FTP daemon line, split on whitespace (HPSS 7.3 layout):
 *   Mon Dec 31 00:06:48 2018 0.430 host BYTES PATH b o RETR_Cmd r ftp UID
 */
static int
parse_ftp_line(struct tokio_hpss *h, struct where *w, const char *line,
               size_t len)
{
    struct span f[MAX_KEPT];
    size_t n = 0;
    double t;

    for (size_t i = 0; i < len;) {
        while (i < len && space((unsigned char)line[i]))
            i++;
        if (i == len)
            break;
        size_t start = i;
        while (i < len && !space((unsigned char)line[i]))
            i++;
        if (n < MAX_KEPT)
            f[n] = (struct span){ line + start, i - start };
        n++;
    }
    /* the reference converted the date before looking at anything else */
    if (n < 5 || parse_ctime(w->tc, &w->memo, f, &t) < 0)
        return bad(w, "bad date in FTP line", (struct span){ line, len });
    if (n < 12)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: FTP line has %zu "
                            "fields, expected at least 12", w->name,
                            w->lineno, n);
    /* HPSS 7.4's POPN command */
    if (span_is(f[11], "ftp") && span_is(f[8], "POPN_Cmd"))
        return TOKIO_OK;
    if (n < 14)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: FTP line has %zu "
                            "fields, expected at least 14", w->name,
                            w->lineno, n);
    if (!span_is(f[13], "ftp") || !ends_with(f[11], "_Cmd"))
        return TOKIO_OK;        /* not a transfer: skipped, as there */
    if (n < 15)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: FTP transfer "
                            "line has %zu fields, expected at least 15",
                            w->name, w->lineno, n);

    /* P... is parallel FTP; LF... ("local file" commands) count as it */
    struct span cmd = f[11];
    enum app app = (cmd.p[0] == 'P' || (cmd.len >= 2 && cmd.p[0] == 'L' &&
                                        cmd.p[1] == 'F')) ? APP_PFTP
                                                           : APP_FTP;
    struct rec *r = add_rec(h, app);
    int rc;
    if (r == NULL)
        return oom(w->name);
    set_real(r, F_END, t);
    if (span_is(cmd, "STOR_Cmd") || span_is(cmd, "PSTO_Cmd") ||
        span_is(cmd, "LFSTO_Cmd")) {
        if (set_str(h, r, F_OPNAME, (struct span){ "LH", 2 }) < 0)
            return oom(w->name);
    } else if (span_is(cmd, "RETR_Cmd") || span_is(cmd, "PRTR_Cmd") ||
               span_is(cmd, "LFRTR_Cmd")) {
        if (set_str(h, r, F_OPNAME, (struct span){ "HL", 2 }) < 0)
            return oom(w->name);
    }
    if ((rc = get_real(w, r, F_DURATION, F_DURATION_RES, 1.0, f[5],
                       "duration")) < 0 ||
        (rc = get_int(w, r, F_BYTES, f[7], "bytes")) < 0)
        return rc;
    if (set_str(h, r, F_REMOTE_HOST, f[6]) < 0 ||
        set_str(h, r, F_HPSS_PATH, f[8]) < 0 ||
        set_str(h, r, F_HPSS_UID, f[14]) < 0)
        return oom(w->name);
    return TOKIO_OK;
}

/* ---- lines of a buffer -------------------------------------------------- */

struct lines {
    struct span *v;
    size_t n, cap;
};

static int
add_line(struct lines *L, const char *p, size_t len)
{
    if (L->n == L->cap) {
        size_t cap = L->cap ? L->cap * 2 : 256;
        struct span *nv = tokio__reallocarray(L->v, cap, sizeof(*nv));
        if (nv == NULL)
            return -1;
        L->v = nv;
        L->cap = cap;
    }
    L->v[L->n++] = (struct span){ p, len };
    return 0;
}

/* Add the lines of a buffer to `L`, cut at "\n" (a "\r" before it
 * dropped), checking them for NUL bytes and UTF-8. */
static int
split_lines(struct lines *L, const char *buf, size_t len, const char *name)
{
    /* one check of the whole (valid exactly when every line is); line by
     * line only to name the bad one */
    int valid = tokio__text_valid((const unsigned char *)buf, len);

    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - buf) : len;
        size_t l = end - pos;

        if (l > 0 && buf[pos + l - 1] == '\r')
            l--;
        if (!valid && !tokio__text_valid((const unsigned char *)buf + pos, l))
            return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s", name,
                                L->n + 1, memchr(buf + pos, '\0', l)
                                ? "NUL byte" : "invalid UTF-8");
        if (add_line(L, buf + pos, l) < 0)
            return oom(name);
        pos = end + 1;
    }
    return TOKIO_OK;
}

/* ---- daily report ------------------------------------------------------- */

static int
in_list(const char *const *list, const char *s)
{
    for (; *list; list++)
        if ((*list)[0] == s[0] && strcmp(*list, s) == 0)
            return 1;
    return 0;
}

/* _hpss_timedelta_to_secs(): "D-HH:MM:SS" to seconds, -1 otherwise. */
static int64_t
timedelta_secs(const char *s)
{
    int64_t part[4] = { 0, 0, 0, 0 };
    const char seps[4] = { '-', ':', ':', '\0' };

    for (int k = 0; k < 4; k++) {
        const char *start = s;
        while (*s >= '0' && *s <= '9') {
            if (part[k] > (INT64_MAX - 9) / 10)
                return -1;
            part[k] = part[k] * 10 + (*s++ - '0');
        }
        if (s == start || *s != seps[k])
            return -1;
        if (*s)
            s++;
    }
    if (part[0] > INT64_MAX / 86400 - 1 || part[1] > INT64_MAX / 7200 ||
        part[2] > INT64_MAX / 120 || part[3] > INT64_MAX / 4)
        return -1;
    return part[0] * 86400 + part[1] * 3600 + part[2] * 60 + part[3];
}

/* _find_columns() in its non-strict form: each column runs from the end
 * of the previous one to the first gap after its '=' run.  0 columns when
 * the line holds anything but '=' and ' '. */
static size_t
find_columns(struct span line, size_t **out)
{
    size_t n = 0, start = 0;
    size_t *cols;

    *out = NULL;
    for (size_t i = 0; i < line.len; i++)
        if (line.p[i] != '=' && line.p[i] != ' ')
            return 0;
    /* a column takes at least "= " but the last */
    if ((cols = tokio__malloc((line.len / 2 + 1) * 2 * sizeof(size_t))) ==
        NULL)
        return SIZE_MAX;
    for (size_t i = 1; i < line.len; i++)
        if (line.p[i] == ' ' && line.p[i - 1] == '=') {
            cols[2 * n] = start;
            cols[2 * n + 1] = i - start;
            n++;
            start = i;
        }
    if (line.len > 0 && line.p[line.len - 1] == '=') {
        cols[2 * n] = start;
        cols[2 * n + 1] = line.len - start;
        n++;
    }
    if (n == 0)
        free(cols);
    else
        *out = cols;
    return n;
}

/* line[a:a+n] as Python slices it (clipped), lower-cased and stripped,
 * into a new string. */
static char *
cell(struct span line, size_t a, size_t n)
{
    struct span s = { line.p + (a < line.len ? a : line.len), 0 };
    size_t end = a + n < line.len ? a + n : line.len;

    s.len = a < end ? end - a : 0;
    s = strip(s);
    char *c = tokio__strndup(s.p, s.len);
    if (c != NULL)
        for (char *p = c; *p; p++)
            if (*p >= 'A' && *p <= 'Z')
                *p = (char)(*p - 'A' + 'a');
    return c;
}

struct report_ctx {
    struct tokio_hpss *h;
    const struct lines *L;
    const char *name;
    size_t work, max_work;
};

/* What a daily report column holds, by its heading. */
enum coltype { C_STR, C_FLOAT, C_INT, C_DELTIM };

struct column {
    char *name;         /* lower-cased heading */
    char *secs;         /* C_DELTIM: name + "secs", else NULL */
    enum coltype type;
    size_t slot;        /* its key's place in a row (a name repeated by */
    size_t secs_slot;   /* a later column shares it, as dict keys do) */
};

/* 1 when line[a:a+n], clipped, starts or ends inside a UTF-8 character
 * (a line is valid UTF-8; cells are cut at byte offsets). */
static int
cuts_char(struct span line, size_t a, size_t n)
{
    size_t end = a + n < line.len ? a + n : line.len;

    return (a < end && ((unsigned char)line.p[a] & 0xc0) == 0x80) ||
           (end < line.len && a < end &&
            ((unsigned char)line.p[end] & 0xc0) == 0x80);
}

/* line[a:a+n] as Python slices it (clipped), stripped. */
static struct span
slice(struct span line, size_t a, size_t n)
{
    size_t end = a + n < line.len ? a + n : line.len;
    struct span s = { line.p + (a < line.len ? a : line.len),
                      a < end ? end - a : 0 };

    return strip(s);
}

/* Copy `s` lower-cased into the pool; its offset in *off_out. */
static int
pool_add_lower(struct tokio_hpss *h, struct span s, uint64_t *off_out)
{
    if (pool_add(h, s.p, s.len, off_out) < 0)
        return -1;
    for (char *c = h->pool + *off_out; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    return 0;
}

/* A bad number in a row: the message shows the cell as the reference
 * saw it (lower-cased). */
static int
bad_cell(struct report_ctx *c, size_t lineno, const char *col,
         struct span v, const char *what)
{
    char *low = tokio__strndup(v.p, v.len);

    for (char *p = low; p && *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    tokio__error(TOKIO_EFORMAT, "'%s' line %zu: column '%s' is not %s: "
                 "'%s'", c->name, lineno, col, what, low ? low : "?");
    free(low);
    return TOKIO_EFORMAT;
}

/* One row of a table into `row` (a cell per key of the table). */
static int
parse_row(struct report_ctx *c, struct span line, size_t lineno,
          const size_t *cols, size_t ncols, const struct column *heads,
          struct rcell *row)
{
    struct tokio_hpss *h = c->h;

    for (size_t k = 0; k < ncols; k++) {
        const char *col = heads[k].name;
        struct rcell *dst = &row[heads[k].slot];
        struct span v = slice(line, cols[2 * k], cols[2 * k + 1]);
        int fr;

        switch (heads[k].type) {
        case C_FLOAT:
            dst->type = T_REAL;
            if ((fr = py_float(v, &dst->v.d)) == -2)
                return oom(c->name);
            if (fr < 0)
                return bad_cell(c, lineno, col, v, "a number");
            break;
        case C_INT:
            dst->type = T_INT;
            if (py_int(v, &dst->v.i) < 0)
                return bad_cell(c, lineno, col, v, "an integer");
            break;
        default:
            dst->type = T_STR;
            if (cuts_char(line, cols[2 * k], cols[2 * k + 1]))
                return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: column "
                                    "'%s' cuts a UTF-8 character", c->name,
                                    lineno, col);
            if (pool_add_lower(h, v, &dst->v.off) < 0)
                return oom(c->name);
            /* a time span: the text, and its seconds under COLsecs */
            if (heads[k].type == C_DELTIM) {
                row[heads[k].secs_slot].type = T_INT;
                row[heads[k].secs_slot].v.i =
                    timedelta_secs(h->pool + dst->v.off);
            }
        }
    }
    return TOKIO_OK;
}

struct name_ref {
    const char *s;
    size_t pos;
};

static int
cmp_name_ref(const void *a, const void *b)
{
    const struct name_ref *x = a, *y = b;
    int c = strcmp(x->s, y->s);

    return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/*
 * The keys of a table's rows: each column's name (and a time span's
 * name + "secs" after it) in that order, a repeated name keeping its
 * first place, as a dict's keys do.  Sets each column's slot(s) and
 * t->keys, t->nkeys.
 */
static int
assign_slots(struct tokio_hpss *h, struct table *t, struct column *heads,
             size_t ncols)
{
    size_t n = 0, *slot = NULL, *rep = NULL;
    struct name_ref *seq = NULL;
    int rc = -1;

    if ((seq = tokio__calloc(2 * ncols, sizeof(*seq))) == NULL ||
        (slot = tokio__calloc(2 * ncols, sizeof(*slot))) == NULL ||
        (rep = tokio__calloc(2 * ncols, sizeof(*rep))) == NULL ||
        (t->keys = tokio__calloc(2 * ncols, sizeof(*t->keys))) == NULL)
        goto out;
    for (size_t k = 0; k < ncols; k++) {
        seq[n] = (struct name_ref){ heads[k].name, n };
        n++;
        if (heads[k].secs != NULL) {
            seq[n] = (struct name_ref){ heads[k].secs, n };
            n++;
        }
    }
    /* rep[i]: the first place of name i; a few names are compared each
     * with each, many sorted (equal names together, first place first) */
    if (n <= 32) {
        for (size_t i = 0; i < n; i++) {
            rep[i] = i;
            for (size_t j = 0; j < i; j++)
                if (strcmp(seq[i].s, seq[j].s) == 0) {
                    rep[i] = rep[j];
                    break;
                }
        }
    } else {
        qsort(seq, n, sizeof(*seq), cmp_name_ref);
        for (size_t i = 0; i < n; i++)
            rep[seq[i].pos] = i > 0 && strcmp(seq[i].s, seq[i - 1].s) == 0
                              ? rep[seq[i - 1].pos] : seq[i].pos;
    }
    t->nkeys = 0;
    for (size_t i = 0; i < n; i++)
        slot[i] = rep[i] == i ? t->nkeys++ : slot[rep[i]];
    for (size_t k = 0, i = 0; k < ncols; k++) {
        heads[k].slot = slot[i];
        if (rep[i] == i &&
            pool_add(h, heads[k].name, strlen(heads[k].name),
                     &t->keys[slot[i]]) < 0)
            goto out;
        i++;
        if (heads[k].secs != NULL) {
            heads[k].secs_slot = slot[i];
            if (rep[i] == i &&
                pool_add(h, heads[k].secs, strlen(heads[k].secs),
                         &t->keys[slot[i]]) < 0)
                goto out;
            i++;
        }
    }
    rc = 0;
out:
    free(seq);
    free(slot);
    free(rep);
    return rc;
}

static void
free_headings(struct column *heads, size_t n)
{
    if (heads == NULL)
        return;
    for (size_t i = 0; i < n; i++) {
        free(heads[i].name);
        free(heads[i].secs);
    }
    free(heads);
}

static void
free_table(struct table *t)
{
    free(t->keys);
    free(t->cells);
    memset(t, 0, sizeof(*t));
}

/*
 * _parse_section() at line `s` (blank lines already skipped): a title
 * "System : Title", a heading line, a '=' separator line, rows until a
 * blank or short line.  *got_out is 1 when a table with rows starts
 * here, then in `t` (its strings in the handle's pool, else the pool is
 * as it was).  *finish_out is what the reference returned as the
 * table's end: the index, counted from the first row, of the row that
 * ended it, plus one.
 */
static int
parse_section(struct report_ctx *c, size_t s, size_t *finish_out,
              struct table *t, int *got_out)
{
    const struct lines *L = c->L;
    struct tokio_hpss *h = c->h;
    size_t *cols = NULL, ncols, pool_len = h->pool_len, cap = 0;
    struct column *headings = NULL;
    char *system = NULL, *title = NULL;
    int rc = TOKIO_OK, cut = 0;

    memset(t, 0, sizeof(*t));
    t->keyslot = SIZE_MAX;
    *got_out = 0;
    *finish_out = 1;
    if (s >= L->n)
        return TOKIO_OK;
    const char *colon = memchr(L->v[s].p, ':', L->v[s].len);
    if (colon == NULL || s + 2 >= L->n)
        return TOKIO_OK;
    if ((ncols = find_columns(L->v[s + 2], &cols)) == 0)
        return TOKIO_OK;
    if (ncols == SIZE_MAX)
        return oom(c->name);

    struct span line = L->v[s];
    size_t syslen = (size_t)(colon - line.p);
    if ((system = cell(line, 0, syslen)) == NULL ||
        (title = cell(line, syslen + 1, line.len)) == NULL ||
        pool_add(h, system, strlen(system), &t->system) < 0 ||
        pool_add(h, title, strlen(title), &t->title) < 0 ||
        (headings = tokio__calloc(ncols, sizeof(*headings))) == NULL) {
        rc = oom(c->name);
        goto out;
    }
    for (size_t k = 0; k < ncols; k++) {
        struct column *hd = &headings[k];
        cut |= cuts_char(L->v[s + 1], cols[2 * k], cols[2 * k + 1]);
        if ((hd->name = cell(L->v[s + 1], cols[2 * k], cols[2 * k + 1])) ==
            NULL) {
            rc = oom(c->name);
            goto out;
        }
        hd->type = in_list(float_cols, hd->name) ? C_FLOAT
                   : in_list(int_cols, hd->name) ? C_INT
                   : in_list(deltim_cols, hd->name) ? C_DELTIM : C_STR;
        if (hd->type == C_DELTIM) {
            size_t n = strlen(hd->name) + 5;
            if ((hd->secs = tokio__malloc(n)) == NULL) {
                rc = oom(c->name);
                goto out;
            }
            snprintf(hd->secs, n, "%ssecs", hd->name);
        }
    }
    if (assign_slots(h, t, headings, ncols) < 0) {
        rc = oom(c->name);
        goto out;
    }
    size_t min_len = cols[2 * (ncols - 1)] + cols[2 * (ncols - 1) + 1];
    for (size_t r = s + 3; r < L->n; r++) {
        struct span row = L->v[r];

        *finish_out = r - (s + 3) + 1;
        if (blank(row.p, row.len) || row.len + 1 < min_len)
            break;
        c->work += ncols;
        if (c->work > c->max_work) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: too many "
                              "overlapping tables", c->name, s + 1);
            goto out;
        }
        if (cut) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: a column "
                              "heading cuts a UTF-8 character", c->name,
                              s + 2);
            goto out;
        }
        if (t->nrows == cap) {
            size_t ncap = cap ? 2 * cap : 16;
            struct rcell *nc = ncap <= SIZE_MAX / t->nkeys
                ? tokio__reallocarray(t->cells, ncap * t->nkeys,
                                      sizeof(*nc)) : NULL;
            if (nc == NULL) {
                rc = oom(c->name);
                goto out;
            }
            t->cells = nc;
            cap = ncap;
        }
        if ((rc = parse_row(c, row, r + 1, cols, ncols, headings,
                            &t->cells[t->nrows * t->nkeys])) < 0)
            goto out;
        t->nrows++;
    }
    *got_out = t->nrows > 0;
out:
    free_headings(headings, ncols);
    free(cols);
    free(system);
    free(title);
    if (rc < 0 || !*got_out) {
        free_table(t);
        t->keyslot = SIZE_MAX;
        h->pool_len = pool_len;
        *got_out = 0;
    }
    return rc;
}

/* Key a table's rows by column `key` (_rekey_table()): every row must
 * hold a distinct string there. */
static int
rekey_table(struct report_ctx *c, struct table *t, const char *key)
{
    struct tokio_hpss *h = c->h;
    const char *system = h->pool + t->system, *title = h->pool + t->title;
    json_t *seen = json_object();
    size_t slot;
    int rc = TOKIO_OK;

    if (seen == NULL)
        return oom(c->name);
    for (slot = 0; slot < t->nkeys; slot++)
        if (strcmp(h->pool + t->keys[slot], key) == 0)
            break;
    for (size_t r = 0; r < t->nrows && rc == TOKIO_OK; r++) {
        const struct rcell *kc = slot < t->nkeys
                                 ? &t->cells[r * t->nkeys + slot] : NULL;
        const char *ks = kc && kc->type == T_STR ? h->pool + kc->v.off
                                                 : NULL;
        if (ks == NULL || json_object_get(seen, ks) != NULL)
            rc = tokio__error(TOKIO_EFORMAT, "'%s': table '%s : %s' %s "
                              "column '%s'%s%s", c->name, system, title,
                              ks ? "repeats" : "lacks", key,
                              ks ? " value " : "", ks ? ks : "");
        else if (json_object_set_new(seen, ks, json_null()) < 0)
            rc = oom(c->name);
    }
    json_decref(seen);
    if (rc == TOKIO_OK)
        t->keyslot = slot;
    return rc;
}

/* Keep table `t` (taken over) under its system and title, replacing a
 * table stored there before in its place, as dict assignment does. */
static int
store_table(struct report_ctx *c, struct table *t)
{
    struct tokio_hpss *h = c->h;
    const char *system = h->pool + t->system, *title = h->pool + t->title;
    json_t *titles = json_object_get(h->tindex, system), *idx;

    if (titles == NULL &&
        json_object_set_new(h->tindex, system, titles = json_object()) < 0)
        return oom(c->name);
    if ((idx = json_object_get(titles, title)) != NULL) {
        struct table *old = &h->tables[json_integer_value(idx)];
        free_table(old);
        *old = *t;
        return TOKIO_OK;
    }
    if (h->ntables == h->tcap) {
        size_t cap = h->tcap ? 2 * h->tcap : 32;
        struct table *nt = tokio__reallocarray(h->tables, cap, sizeof(*nt));
        if (nt == NULL)
            return oom(c->name);
        h->tables = nt;
        h->tcap = cap;
    }
    if (json_object_set_new(titles, title,
                            json_integer((json_int_t)h->ntables)) < 0)
        return oom(c->name);
    h->tables[h->ntables++] = *t;
    return TOKIO_OK;
}

/* "YYYY-MM-DD" (strptime %Y-%m-%d) into `date`, or -1. */
static int
report_date(struct span s, char date[24])
{
    int y = 0, m, d;
    const char *p = s.p, *end = s.p + s.len, *d1, *d2;

    if (s.len < 8 || s.len > 10)
        return -1;
    for (int i = 0; i < 4; i++) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        y = y * 10 + (p[i] - '0');
    }
    d1 = p + 4;
    if (*d1 != '-' ||
        (d2 = memchr(d1 + 1, '-', (size_t)(end - d1 - 1))) == NULL ||
        small_num(d1 + 1, (size_t)(d2 - d1 - 1), 1, 12, &m) < 0 ||
        small_num(d2 + 1, (size_t)(end - d2 - 1), 1, 31, &d) < 0 ||
        y < 1 || d > days_in_month(y, m))
        return -1;
    snprintf(date, 24, "%04d-%02d-%02d", y, m, d);
    return 0;
}

static int
parse_report(struct tokio_hpss *h, const struct lines *L, const char *name)
{
    struct report_ctx c = { h, L, name, 0, 0 };
    size_t start = L->n, last_first = SIZE_MAX, next = 0;
    int rc = TOKIO_OK;

    c.max_work = EXTRA_WORK + L->n;
    for (size_t i = 0; i < L->n; i++)
        c.max_work += L->v[i].len;
    for (size_t i = 0; i < L->n; i++) {
        if (L->v[i].len >= strlen(REPORT_MARK) &&
            memcmp(L->v[i].p, REPORT_MARK, strlen(REPORT_MARK)) == 0) {
            struct span line = L->v[i], word;
            size_t e = line.len;
            while (e > 0 && tokio__py_space((unsigned char)line.p[e - 1]))
                e--;
            size_t b = e;
            while (b > 0 && !tokio__py_space((unsigned char)line.p[b - 1]))
                b--;
            word = (struct span){ line.p + b, e - b };
            if (report_date(word, h->date) < 0)
                return bad(&(struct where){ .name = name, .lineno = i + 1 },
                           "bad report date", word);
            start = i;
            break;
        }
    }
    if (start == L->n)
        return tokio__error(TOKIO_EFORMAT, "'%s': no '%s' line: not an HPSS "
                            "daily report", name, REPORT_MARK);
    if ((h->tindex = json_object()) == NULL)
        return oom(name);

    /*
     * Every line may start a table, as in the reference.  A start whose
     * blank lines lead to a title already stored is not parsed again (it
     * would store the same rows).  The reference kept a table only when
     * the end it computed differed from the start line: kept here too.
     */
    next = start;       /* the report's first line: not blank */
    for (size_t i = start; i < L->n && rc == TOKIO_OK; i++) {
        struct table t;
        size_t first, finish, pool_len = h->pool_len;
        int got;

        /* the next non-blank line, found once for a run of blank ones */
        if (i > next) {
            next = i;
            while (next < L->n && blank(L->v[next].p, L->v[next].len))
                next++;
        }
        first = next;
        if (first == last_first)
            continue;
        if ((rc = parse_section(&c, first, &finish, &t, &got)) < 0)
            break;
        if (!got)
            continue;
        if (finish == i) {
            free_table(&t);
            h->pool_len = pool_len;
            continue;
        }
        const char *title = h->pool + t.title;
        for (size_t k = 0; k < sizeof(rekey) / sizeof(rekey[0]); k++)
            if (strcmp(title, rekey[k][0]) == 0) {
                rc = rekey_table(&c, &t, rekey[k][1]);
                break;
            }
        if (rc == TOKIO_OK)
            rc = store_table(&c, &t);
        if (rc < 0)
            free_table(&t);
        last_first = first;
    }
    return rc;
}

/* ---- kinds, JSON input -------------------------------------------------- */

/* The kind of a log line by its look, or AUTO when neither. */
static enum tokio_hpss_kind
sniff_line(struct span line)
{
    struct span f[16];
    size_t n = 0;

    /* HSI: 8 fields split on spaces, the 7th "hsi"/"htar", tabs after */
    for (size_t i = 0, k = 0; i <= line.len && k < 8; k++) {
        const char *sp = memchr(line.p + i, ' ', line.len - i);
        if (sp == NULL)
            break;
        f[k] = (struct span){ line.p + i, (size_t)(sp - line.p) - i };
        n = k + 1;
        i = (size_t)(sp - line.p);
        while (i < line.len && line.p[i] == ' ')
            i++;
    }
    if (n == 8 && (span_is(f[6], "hsi") || span_is(f[6], "htar")) &&
        memchr(line.p, '\t', line.len) != NULL)
        return TOKIO_HPSS_HSI;
    n = 0;
    for (size_t i = 0; i < line.len && n < 16;) {
        while (i < line.len && tokio__py_space((unsigned char)line.p[i]))
            i++;
        size_t b = i;
        while (i < line.len && !tokio__py_space((unsigned char)line.p[i]))
            i++;
        if (i > b)
            f[n++] = (struct span){ line.p + b, i - b };
    }
    if (n >= 12 && (ends_with(f[8], "_Cmd") || ends_with(f[11], "_Cmd")))
        return TOKIO_HPSS_FTP;
    return TOKIO_HPSS_AUTO;
}

static int
new_handle(struct tokio_hpss **out, enum tokio_hpss_kind kind)
{
    struct tokio_hpss *h = tokio__calloc(1, sizeof(*h));

    *out = h;
    if (h == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    h->kind = kind;
    return TOKIO_OK;
}

/* One log record from JSON. */
static int
rec_from_json(struct tokio_hpss *h, enum app app, size_t idx,
              const json_t *obj)
{
    const char *key;
    const json_t *v;
    struct rec *r;

    if (!json_is_object(obj))
        return tokio__error(TOKIO_EFORMAT, "HPSS %s record %zu is not an "
                            "object", apps[app].name, idx);
    if ((r = add_rec(h, app)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    json_object_foreach((json_t *)obj, key, v) {
        size_t i;
        for (i = 0; i < apps[app].n; i++)
            if (strcmp(apps[app].fields[i].name, key) == 0)
                break;
        if (i == apps[app].n)
            return tokio__error(TOKIO_EFORMAT, "HPSS %s record %zu: unknown "
                                "field '%s'", apps[app].name, idx, key);
        switch (apps[app].fields[i].type) {
        case T_INT:
            if (!json_is_integer(v))
                goto type;
            set_int(r, (int)i, (int64_t)json_integer_value(v));
            break;
        case T_REAL:
            if (!json_is_number(v))
                goto type;
            set_real(r, (int)i, json_number_value(v));
            break;
        case T_STR:
            if (!json_is_string(v))
                goto type;
            if (set_str(h, r, (int)i, (struct span){ json_string_value(v),
                                                     json_string_length(v) })
                < 0)
                return tokio__error(TOKIO_ENOMEM, "out of memory");
            break;
        }
        continue;
type:
        return tokio__error(TOKIO_EFORMAT, "HPSS %s record %zu: field '%s' "
                            "is not %s", apps[app].name, idx, key,
                            apps[app].fields[i].type == T_STR ? "a string"
                            : apps[app].fields[i].type == T_INT
                            ? "an integer" : "a number");
    }
    return TOKIO_OK;
}

static enum app
app_by_name(const char *name)
{
    for (int a = 0; a < N_APPS; a++)
        if (strcmp(apps[a].name, name) == 0)
            return (enum app)a;
    return N_APPS;
}

/* A daily report table's rows must be objects of strings and numbers. */
static int
check_rows(const char *system, const char *title, const json_t *rows)
{
    const json_t *row, *v;
    const char *k, *rk;
    size_t i;

    if (json_is_array(rows)) {
        json_array_foreach(rows, i, row) {
            if (!json_is_object(row))
                goto bad;
            json_object_foreach((json_t *)row, k, v)
                if (!json_is_string(v) && !json_is_number(v))
                    goto bad;
        }
        return TOKIO_OK;
    }
    if (!json_is_object(rows))
        goto bad;
    json_object_foreach((json_t *)rows, rk, row) {
        if (!json_is_object(row))
            goto bad;
        json_object_foreach((json_t *)row, k, v)
            if (!json_is_string(v) && !json_is_number(v))
                goto bad;
    }
    return TOKIO_OK;
bad:
    return tokio__error(TOKIO_EFORMAT, "HPSS daily report table '%s : %s' "
                        "is not a list or object of rows of strings and "
                        "numbers", system, title);
}

int
tokio_hpss_from_json(struct tokio_hpss **out, const json_t *json,
                     enum tokio_hpss_kind kind)
{
    struct tokio_hpss *h = NULL;
    const char *key;
    const json_t *v;
    int rc;

    *out = NULL;
    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "HPSS JSON is not an object");
    if (kind == TOKIO_HPSS_AUTO) {
        int hsi = 0, ftp = 0, other = 0;
        json_object_foreach((json_t *)json, key, v) {
            enum app a = app_by_name(key);
            if (a == N_APPS)
                other++;
            else if (apps[a].kind == TOKIO_HPSS_HSI)
                hsi++;
            else
                ftp++;
        }
        kind = other || (hsi && ftp) ? TOKIO_HPSS_DAILY
               : ftp ? TOKIO_HPSS_FTP : TOKIO_HPSS_HSI;
    }
    if ((rc = new_handle(&h, kind)) < 0)
        return rc;
    json_object_foreach((json_t *)json, key, v) {
        if (kind == TOKIO_HPSS_DAILY) {
            const char *title;
            const json_t *rows;
            if (!json_is_object(v)) {
                rc = tokio__error(TOKIO_EFORMAT, "HPSS daily report system "
                                  "'%s' is not an object", key);
                break;
            }
            json_object_foreach((json_t *)v, title, rows)
                if ((rc = check_rows(key, title, rows)) < 0)
                    break;
            if (rc < 0)
                break;
            continue;
        }
        enum app a = app_by_name(key);
        if (a == N_APPS || apps[a].kind != kind || !json_is_array(v)) {
            rc = tokio__error(TOKIO_EFORMAT, "HPSS %s log JSON: '%s' is not "
                              "a list of %s records",
                              kind == TOKIO_HPSS_HSI ? "HSI" : "FTP", key,
                              kind == TOKIO_HPSS_HSI ? "hsi/htar"
                                                     : "ftp/pftp");
            break;
        }
        for (size_t i = 0; i < json_array_size(v) && rc == TOKIO_OK; i++)
            rc = rec_from_json(h, a, i, json_array_get(v, i));
        if (rc < 0)
            break;
    }
    if (rc == TOKIO_OK && kind == TOKIO_HPSS_DAILY &&
        (h->report = json_deep_copy(json)) == NULL)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory");
    if (rc < 0) {
        tokio_hpss_free(h);
        return rc;
    }
    *out = h;
    return TOKIO_OK;
}

/* ---- reading ------------------------------------------------------------ */

/* The JSON form (text that starts with '{'): logs never start so. */
static int
parse_json_text(struct tokio_hpss **out, const char *buf, size_t len,
                const char *name, enum tokio_hpss_kind kind)
{
    json_t *json;
    int rc;

    if ((rc = tokio__json_parse_named(&json, buf, len, 0, name)) < 0)
        return rc;
    rc = tokio_hpss_from_json(out, json, kind);
    json_decref(json);
    if (rc < 0)
        tokio__error_prefix("'%s'", name);
    return rc;
}

/*
 * The rest of `in` as one buffer after `nblank` empty lines and `first`
 * (the lines read so far: blank ones are blank either way), for the
 * JSON form (a daily report's lines are kept in place instead, see
 * read_report()).  `*buf_out` is the caller's.
 */
static int
read_whole(struct tokio_input *in, size_t nblank, const char *first,
           size_t first_len, char **buf_out, size_t *len_out)
{
    unsigned char *rest = NULL;
    size_t rest_len = 0, head = nblank + first_len + 1;
    char *buf;
    int rc;

    *buf_out = NULL;
    /* `first` is the reader's: copy it before reading on */
    if ((buf = tokio__malloc(head)) == NULL)
        return oom(tokio_input_name(in));
    memset(buf, '\n', nblank);
    memcpy(buf + nblank, first, first_len);
    buf[nblank + first_len] = '\n';
    if ((rc = tokio_input_read_all(in, 0, &rest, &rest_len)) < 0) {
        free(buf);
        return rc;
    }
    char *all = rest_len < SIZE_MAX - head - 1
                ? tokio__realloc(buf, head + rest_len + 1) : NULL;
    if (all == NULL) {
        free(buf);
        free(rest);
        return oom(tokio_input_name(in));
    }
    memcpy(all + head, rest, rest_len);
    all[head + rest_len] = '\0';
    free(rest);
    *buf_out = all;
    *len_out = head + rest_len;
    return TOKIO_OK;
}

/*
 * A daily report: `nblank` blank lines, the line `first` (the reader's:
 * copied), then the rest of `in`.  `guessed` when no kind was given and
 * `first` looked like no log either.
 */
static int
read_report(struct tokio_hpss *h, struct tokio_input *in, size_t nblank,
            const char *first, size_t first_len, int guessed)
{
    const char *name = tokio_input_name(in);
    struct lines L = { NULL, 0, 0 };
    unsigned char *rest = NULL;
    size_t rest_len = 0;
    char *head = tokio__malloc(first_len + 1);
    int rc = TOKIO_OK, marked = 0;

    if (head == NULL)
        return oom(name);
    memcpy(head, first, first_len);
    for (size_t i = 0; i < nblank && rc == TOKIO_OK; i++)
        if (add_line(&L, "", 0) < 0)
            rc = oom(name);
    if (rc == TOKIO_OK && first_len == 0 && add_line(&L, "", 0) < 0)
        rc = oom(name);
    if (rc == TOKIO_OK && first_len > 0)
        rc = split_lines(&L, head, first_len, name);
    if (rc == TOKIO_OK &&
        (rc = tokio_input_read_all(in, 0, &rest, &rest_len)) == TOKIO_OK)
        rc = split_lines(&L, (const char *)rest, rest_len, name);
    for (size_t i = 0; rc == TOKIO_OK && guessed && i < L.n && !marked; i++)
        marked = L.v[i].len >= strlen(REPORT_MARK) &&
                 memcmp(L.v[i].p, REPORT_MARK, strlen(REPORT_MARK)) == 0;
    if (rc == TOKIO_OK && guessed && !marked)
        rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: not an HPSS daily "
                          "report, HSI/HTAR log or FTP log", name,
                          nblank + 1);
    else if (rc == TOKIO_OK)
        rc = parse_report(h, &L, name);
    free(L.v);
    free(rest);
    free(head);
    return rc;
}

/* One log line, checked for NUL bytes and UTF-8 first. */
static int
parse_log_line(struct tokio_hpss *h, struct where *w, const char *line,
               size_t len)
{
    if (!tokio__text_valid((const unsigned char *)line, len))
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s", w->name,
                            w->lineno, memchr(line, '\0', len)
                            ? "NUL byte" : "invalid UTF-8");
    return h->kind == TOKIO_HPSS_HSI ? parse_hsi_line(h, w, line, len)
                                     : parse_ftp_line(h, w, line, len);
}

/*
 * Read `in`: logs line by line as they stream (a log can be large), the
 * JSON form and daily reports whole.  The first non-blank line tells
 * JSON, and with TOKIO_HPSS_AUTO an HSI or FTP log from anything else,
 * which is then read as a daily report.
 */
static int
read_input(struct tokio_hpss **out, struct tokio_input *in,
           enum tokio_hpss_kind kind)
{
    const char *name = tokio_input_name(in), *line;
    struct tokio_hpss *h = NULL;
    struct where w = { .name = name };
    size_t len, nblank = 0, i;
    char *buf = NULL;
    int rc;

    *out = NULL;
    while ((rc = tokio_input_getline(in, &line, &len)) == TOKIO_OK &&
           line != NULL && blank(line, len))
        nblank++;
    if (rc < 0)
        return rc;
    if (line == NULL && kind == TOKIO_HPSS_AUTO)
        return tokio__error(TOKIO_EFORMAT, "'%s' holds no HPSS records: "
                            "give its kind", name);
    for (i = 0; line != NULL && i < len && tokio__py_space((unsigned char)line[i]);
         i++)
        ;
    if (line != NULL && line[i] == '{') {
        if ((rc = read_whole(in, nblank, line, len, &buf, &len)) < 0)
            return rc;
        rc = parse_json_text(out, buf, len, name, kind);
        free(buf);
        return rc;
    }
    int guessed = 0;
    if (kind == TOKIO_HPSS_AUTO &&
        (kind = sniff_line((struct span){ line, len })) == TOKIO_HPSS_AUTO) {
        kind = TOKIO_HPSS_DAILY;
        guessed = 1;
    }
    if ((rc = new_handle(&h, kind)) < 0)
        return rc;
    if (kind == TOKIO_HPSS_DAILY) {
        rc = read_report(h, in, nblank, line ? line : "", line ? len : 0,
                         guessed);
    } else if (line != NULL) {
        w.tc = tokio__local_days_cached();
        w.lineno = tokio_input_lineno(in);
        rc = parse_log_line(h, &w, line, len);
        while (rc == TOKIO_OK &&
               (rc = tokio_input_getline(in, &line, &len)) == TOKIO_OK &&
               line != NULL) {
            if (blank(line, len))
                continue;
            w.lineno = tokio_input_lineno(in);
            rc = parse_log_line(h, &w, line, len);
        }
    }
    if (rc < 0) {
        tokio_hpss_free(h);     /* no half-built result */
        return rc;
    }
    *out = h;
    return TOKIO_OK;
}

int
tokio_hpss_open(struct tokio_hpss **out, const char *path,
                enum tokio_hpss_kind kind)
{
    struct tokio_input *in = NULL;
    int rc;

    *out = NULL;
    if ((rc = tokio_input_open(&in, path)) < 0)
        return rc;
    rc = read_input(out, in, kind);
    tokio_input_close(in);
    return rc;
}

int
tokio_hpss_open_mem(struct tokio_hpss **out, const void *buf, size_t len,
                    const char *name, enum tokio_hpss_kind kind)
{
    struct tokio_input *in = NULL;
    int rc;

    *out = NULL;
    if ((rc = tokio_input_open_mem(&in, buf, len,
                                   name ? name : "<memory>")) < 0)
        return rc;
    rc = read_input(out, in, kind);
    tokio_input_close(in);
    return rc;
}

/* ---- accessors and output ----------------------------------------------- */

enum tokio_hpss_kind
tokio_hpss_kind(const struct tokio_hpss *h)
{
    return h->kind;
}

size_t
tokio_hpss_count(const struct tokio_hpss *h, const char *app)
{
    enum app a = app_by_name(app);
    size_t n = 0;

    for (size_t i = 0; a != N_APPS && i < h->n; i++)
        n += h->recs[i].app == a;
    return n;
}

const char *
tokio_hpss_report_date(const struct tokio_hpss *h)
{
    return h->kind == TOKIO_HPSS_DAILY && h->date[0] ? h->date : NULL;
}

/* One record as a new JSON object; NULL when out of memory. */
static json_t *
rec_to_json(const struct tokio_hpss *h, const struct rec *r)
{
    json_t *obj = json_object();
    const struct field *f = apps[r->app].fields;

    for (size_t i = 0; obj != NULL && i < apps[r->app].n; i++) {
        json_t *v;
        if (!(r->present & (1u << i)))
            continue;
        v = f[i].type == T_INT ? json_integer(r->v[i].i)
            : f[i].type == T_REAL ? json_real(r->v[i].d)
            : json_string(h->pool + r->v[i].off);
        if (json_object_set_new(obj, f[i].name, v) < 0) {
            json_decref(obj);
            obj = NULL;
        }
    }
    return obj;
}

/* One cell as a new JSON value; NULL when out of memory. */
static json_t *
cell_to_json(const struct tokio_hpss *h, const struct rcell *c)
{
    return c->type == T_INT ? json_integer(c->v.i)
           : c->type == T_REAL ? json_real(c->v.d)
           : json_string(h->pool + c->v.off);
}

/* A table's rows: a list of objects, or an object of them by key. */
static json_t *
table_to_json(const struct tokio_hpss *h, const struct table *t)
{
    json_t *rows = t->keyslot == SIZE_MAX ? json_array() : json_object();

    for (size_t r = 0; rows != NULL && r < t->nrows; r++) {
        const struct rcell *c = &t->cells[r * t->nkeys];
        json_t *row = json_object();
        int rc = row == NULL ? -1 : 0;

        for (size_t k = 0; rc == 0 && k < t->nkeys; k++)
            if (k != t->keyslot)
                rc = json_object_set_new(row, h->pool + t->keys[k],
                                         cell_to_json(h, &c[k]));
        if (rc == 0)
            rc = t->keyslot == SIZE_MAX
                 ? json_array_append_new(rows, row)
                 : json_object_set_new(rows, h->pool + c[t->keyslot].v.off,
                                       row);
        else
            json_decref(row);
        if (rc < 0) {
            json_decref(rows);
            rows = NULL;
        }
    }
    return rows;
}

/* A daily report read as text: system -> title -> rows. */
static json_t *
report_to_json(const struct tokio_hpss *h)
{
    json_t *root = json_object();

    for (size_t i = 0; root != NULL && i < h->ntables; i++) {
        const struct table *t = &h->tables[i];
        const char *system = h->pool + t->system;
        json_t *sys = json_object_get(root, system);

        if ((sys == NULL &&
             json_object_set_new(root, system, sys = json_object()) < 0) ||
            json_object_set_new(sys, h->pool + t->title,
                                table_to_json(h, t)) < 0) {
            json_decref(root);
            root = NULL;
        }
    }
    return root;
}

int
tokio_hpss_to_json(const struct tokio_hpss *h, json_t **out)
{
    json_t *root;

    *out = NULL;
    if (h->kind == TOKIO_HPSS_DAILY)
        root = h->report ? json_deep_copy(h->report) : report_to_json(h);
    else
        root = json_object();
    if (root == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    for (size_t i = 0; h->kind != TOKIO_HPSS_DAILY && i < h->n; i++) {
        const char *app = apps[h->recs[i].app].name;
        json_t *list = json_object_get(root, app), *rec;

        if (list == NULL &&
            json_object_set_new(root, app, list = json_array()) < 0)
            goto nomem;
        if ((rec = rec_to_json(h, &h->recs[i])) == NULL ||
            json_array_append_new(list, rec) < 0)
            goto nomem;
    }
    *out = root;
    return TOKIO_OK;
nomem:
    json_decref(root);
    return tokio__error(TOKIO_ENOMEM, "out of memory");
}

/* Field indexes of `app` in the order of their names. */
static size_t
fields_by_name(enum app app, size_t order[MAX_FIELDS])
{
    const struct field *f = apps[app].fields;
    size_t n = apps[app].n;

    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        for (; j > 0 && strcmp(f[order[j - 1]].name, f[i].name) > 0; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    return n;
}

/* A value of type `type` (T_INT, T_REAL, T_STR: a pool offset). */
static void
write_typed(struct tokio__jstream *js, const struct tokio_hpss *h,
            int type, const union val *v)
{
    if (type == T_INT)
        tokio__jstream_int(js, v->i);
    else if (type == T_REAL)
        tokio__jstream_real(js, v->d);
    else
        tokio__jstream_string(js, h->pool + v->off, strlen(h->pool + v->off));
}

/* A log's JSON straight from its records: applications and field names
 * sorted, records in input order, as tokio_json_write() lays out
 * tokio_hpss_to_json()'s tree. */
static int
write_log_json(const struct tokio_hpss *h, FILE *fp, unsigned flags)
{
    static const enum app by_name[N_APPS] = {
        APP_FTP, APP_HSI, APP_HTAR, APP_PFTP
    };
    struct tokio__jstream *js = tokio__jstream_open(fp, flags);

    if (js == NULL)
        return TOKIO_ENOMEM;
    tokio__jstream_begin(js);
    for (size_t a = 0; a < N_APPS; a++) {
        enum app app = by_name[a];
        const struct field *f = apps[app].fields;
        size_t order[MAX_FIELDS], nf = fields_by_name(app, order);
        int any = 0;

        for (size_t i = 0; i < h->n; i++) {
            const struct rec *r = &h->recs[i];
            if (r->app != app)
                continue;
            if (!any) {
                tokio__jstream_key(js, apps[app].name,
                                   strlen(apps[app].name));
                tokio__jstream_begin_list(js);
                any = 1;
            }
            tokio__jstream_item(js);
            tokio__jstream_begin(js);
            for (size_t k = 0; k < nf; k++) {
                size_t x = order[k];
                if (!(r->present & (1u << x)))
                    continue;
                tokio__jstream_key(js, f[x].name, strlen(f[x].name));
                write_typed(js, h, f[x].type, &r->v[x]);
            }
            tokio__jstream_end(js);
        }
        if (any)
            tokio__jstream_end(js);
    }
    tokio__jstream_end(js);
    return tokio__jstream_close(js);
}

/* Row `r` of `t`: its columns in `cols` (sorted, the key column left
 * out where rows are keyed by it). */
static void
write_row(struct tokio__jstream *js, const struct tokio_hpss *h,
          const struct table *t, size_t r, const struct tokio__jkey *cols,
          size_t ncols)
{
    tokio__jstream_begin(js);
    for (size_t k = 0; k < ncols; k++)
        if (tokio__jkeys_last(cols, ncols, k)) {
            const struct rcell *c = &t->cells[r * t->nkeys + cols[k].i];
            tokio__jstream_key(js, cols[k].s, strlen(cols[k].s));
            write_typed(js, h, c->type, &c->v);
        }
    tokio__jstream_end(js);
}

/* Table `t` as table_to_json() makes it, keys sorted. */
static int
write_table(struct tokio__jstream *js, const struct tokio_hpss *h,
            const struct table *t)
{
    struct tokio__jkey *cols = tokio__calloc(t->nkeys + 1, sizeof(*cols));
    struct tokio__jkey *rows = NULL;
    size_t ncols = 0;

    if (cols == NULL)
        return TOKIO_ENOMEM;
    for (size_t k = 0; k < t->nkeys; k++)
        if (k != t->keyslot)
            cols[ncols++] = (struct tokio__jkey){ h->pool + t->keys[k], k };
    tokio__jkeys_sort(cols, ncols);
    if (t->keyslot == SIZE_MAX) {
        tokio__jstream_begin_list(js);
        for (size_t r = 0; r < t->nrows; r++) {
            tokio__jstream_item(js);
            write_row(js, h, t, r, cols, ncols);
        }
        tokio__jstream_end(js);
        free(cols);
        return TOKIO_OK;
    }
    /* rows keyed by a column: by that key, the last row of a key wins */
    if ((rows = tokio__calloc(t->nrows + 1, sizeof(*rows))) == NULL) {
        free(cols);
        return TOKIO_ENOMEM;
    }
    for (size_t r = 0; r < t->nrows; r++)
        rows[r] = (struct tokio__jkey){
            h->pool + t->cells[r * t->nkeys + t->keyslot].v.off, r };
    tokio__jkeys_sort(rows, t->nrows);
    tokio__jstream_begin(js);
    for (size_t k = 0; k < t->nrows; k++)
        if (tokio__jkeys_last(rows, t->nrows, k)) {
            tokio__jstream_key(js, rows[k].s, strlen(rows[k].s));
            write_row(js, h, t, rows[k].i, cols, ncols);
        }
    tokio__jstream_end(js);
    free(rows);
    free(cols);
    return TOKIO_OK;
}

/* A daily report read as text: systems, titles, rows and columns sorted,
 * as tokio_json_write() lays out report_to_json()'s tree (a system and
 * title name one table: a later one replaced it where it was read). */
static int
write_report_json(const struct tokio_hpss *h, FILE *fp, unsigned flags)
{
    struct tokio__jkey *tabs = tokio__calloc(h->ntables + 1, sizeof(*tabs));
    struct tokio__jstream *js = NULL;
    int rc = TOKIO_OK;

    if (tabs == NULL || (js = tokio__jstream_open(fp, flags)) == NULL) {
        free(tabs);
        return tokio__error(TOKIO_ENOMEM, "out of memory writing JSON");
    }
    for (size_t i = 0; i < h->ntables; i++)
        tabs[i] = (struct tokio__jkey){ h->pool + h->tables[i].system, i };
    tokio__jkeys_sort(tabs, h->ntables);
    tokio__jstream_begin(js);
    for (size_t a = 0; a < h->ntables && rc == TOKIO_OK;) {
        /* one system: its tables by title */
        size_t b = a + 1;
        while (b < h->ntables && strcmp(tabs[a].s, tabs[b].s) == 0)
            b++;
        for (size_t k = a; k < b; k++)
            tabs[k].s = h->pool + h->tables[tabs[k].i].title;
        tokio__jkeys_sort(tabs + a, b - a);
        tokio__jstream_key(js, h->pool + h->tables[tabs[a].i].system,
                           strlen(h->pool + h->tables[tabs[a].i].system));
        tokio__jstream_begin(js);
        for (size_t k = a; k < b && rc == TOKIO_OK; k++) {
            tokio__jstream_key(js, tabs[k].s, strlen(tabs[k].s));
            rc = write_table(js, h, &h->tables[tabs[k].i]);
        }
        tokio__jstream_end(js);
        a = b;
    }
    tokio__jstream_end(js);
    free(tabs);
    int crc = tokio__jstream_close(js);
    if (rc == TOKIO_ENOMEM)
        return tokio__error(rc, "out of memory writing JSON");
    return crc;
}

int
tokio_hpss_write_json(const struct tokio_hpss *h, FILE *fp, unsigned flags)
{
    json_t *j = NULL;
    int rc;

    /* unsorted, the tree's order is that of first appearance */
    if (flags & TOKIO_JSON_SORT_KEYS) {
        if (h->kind != TOKIO_HPSS_DAILY)
            return write_log_json(h, fp, flags);
        if (h->report == NULL)
            return write_report_json(h, fp, flags);
    }
    if (h->report != NULL)
        return tokio_json_write(fp, h->report, flags);
    if ((rc = tokio_hpss_to_json(h, &j)) < 0)
        return rc;
    rc = tokio_json_write(fp, j, flags);
    json_decref(j);
    return rc;
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
write_double(FILE *fp, double d)
{
    char buf[40];
    tokio_format_double(buf, sizeof(buf), d);
    fputs(buf, fp);
}

static void
write_value(FILE *fp, const json_t *v)
{
    if (json_is_string(v))
        tokio_csv_write_field(fp, json_string_value(v),
                              json_string_length(v));
    else if (json_is_integer(v))
        fprintf(fp, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        write_double(fp, json_real_value(v));
}

static void
write_report_row(FILE *fp, const char *system, const char *title,
                 const char *rowkey, const json_t *row)
{
    const char *col;
    const json_t *v;

    json_object_foreach((json_t *)row, col, v) {
        tokio_csv_write_field(fp, system, strlen(system));
        fputc(',', fp);
        tokio_csv_write_field(fp, title, strlen(title));
        fputc(',', fp);
        tokio_csv_write_field(fp, rowkey, strlen(rowkey));
        fputc(',', fp);
        tokio_csv_write_field(fp, col, strlen(col));
        fputc(',', fp);
        write_value(fp, v);
        fputc('\n', fp);
    }
}

static void
write_report_csv(const json_t *report, FILE *fp)
{
    const char *system, *title;
    const json_t *tables, *rows;

    fputs("system,table,row,column,value\n", fp);
    json_object_foreach((json_t *)report, system, tables) {
        json_object_foreach((json_t *)tables, title, rows) {
            if (json_is_array(rows)) {
                for (size_t i = 0; i < json_array_size(rows); i++) {
                    char idx[32];
                    snprintf(idx, sizeof(idx), "%zu", i);
                    write_report_row(fp, system, title, idx,
                                     json_array_get(rows, i));
                }
            } else {
                const char *key;
                const json_t *row;
                json_object_foreach((json_t *)rows, key, row)
                    write_report_row(fp, system, title, key, row);
            }
        }
    }
}

int
tokio_hpss_write_csv(const struct tokio_hpss *h, FILE *fp)
{
    const char *cols[2 * MAX_FIELDS];
    int map[N_APPS][2 * MAX_FIELDS];
    size_t ncols = 0;

    if (h->kind == TOKIO_HPSS_DAILY) {
        json_t *built = NULL;
        if (h->report == NULL && (built = report_to_json(h)) == NULL)
            return tokio__error(TOKIO_ENOMEM, "out of memory");
        write_report_csv(h->report ? h->report : built, fp);
        json_decref(built);
        goto done;
    }
    /* the union of the kind's field names, sorted */
    for (int a = 0; a < N_APPS; a++) {
        if (apps[a].kind != h->kind)
            continue;
        for (size_t i = 0; i < apps[a].n; i++) {
            size_t k;
            for (k = 0; k < ncols; k++)
                if (strcmp(cols[k], apps[a].fields[i].name) == 0)
                    break;
            if (k == ncols)
                cols[ncols++] = apps[a].fields[i].name;
        }
    }
    qsort(cols, ncols, sizeof(cols[0]), cmp_str);
    for (int a = 0; a < N_APPS; a++)
        for (size_t k = 0; k < ncols; k++) {
            map[a][k] = -1;
            for (size_t i = 0; apps[a].kind == h->kind && i < apps[a].n; i++)
                if (strcmp(cols[k], apps[a].fields[i].name) == 0)
                    map[a][k] = (int)i;
        }
    fputs("app", fp);
    for (size_t k = 0; k < ncols; k++)
        fprintf(fp, ",%s", cols[k]);
    fputc('\n', fp);
    for (size_t r = 0; r < h->n; r++) {
        const struct rec *rec = &h->recs[r];
        fputs(apps[rec->app].name, fp);
        for (size_t k = 0; k < ncols; k++) {
            int i = map[rec->app][k];
            fputc(',', fp);
            if (i < 0 || !(rec->present & (1u << i)))
                continue;
            switch (apps[rec->app].fields[i].type) {
            case T_INT:
                fprintf(fp, "%lld", (long long)rec->v[i].i);
                break;
            case T_REAL:
                write_double(fp, rec->v[i].d);
                break;
            case T_STR: {
                const char *s = h->pool + rec->v[i].off;
                tokio_csv_write_field(fp, s, strlen(s));
                break;
            }
            }
        }
        fputc('\n', fp);
    }
done:
    return tokio__write_check(fp, "cannot write HPSS CSV");
}

void
tokio_hpss_free(struct tokio_hpss *h)
{
    if (h == NULL)
        return;
    free(h->recs);
    free(h->pool);
    for (size_t i = 0; i < h->ntables; i++)
        free_table(&h->tables[i]);
    free(h->tables);
    json_decref(h->tindex);
    json_decref(h->report);
    free(h);
}
