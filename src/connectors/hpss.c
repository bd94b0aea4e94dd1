/*
 * src/connectors/hpss.c - HPSS text outputs: the FTP/PFTP daemon's
 * transfer log (HPSS 7.3/7.4), the HSI/HTAR transaction log, and the
 * daily report's fixed-width tables.  Mirrors tokio.connectors.hpss
 * (pytokio 0.13): FtpLog.load_str(), HsiLog.load_str() and
 * HpssDailyReport.load_str() with its _parse_section(), _find_columns(),
 * _rekey_table(), _hpss_timedelta_to_secs() and _get_ascii_resolution().
 *
 * The data is the reference's dict as a jansson object: {app: [record]}
 * for a log, {system: {title: rows}} for a report.  A log read as text
 * also keeps the application of each record in input order, which the
 * dict loses and the CSV's row order needs.
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/{hpss_daily.txt,
 * hsilog.txt.gz, hpssftplog.txt.gz}, goldens in
 * ../shared/testdata/golden/pytokio/hpss/, and tests/connectors/hpss/.
 *
 * Differs from pytokio, all on input the real tools do not write:
 *  - a garbled line (too few fields, a bad date or number, a NUL byte,
 *    invalid UTF-8) is TOKIO_EFORMAT naming the file and line; the
 *    reference raised IndexError/ValueError without saying where;
 *  - blank lines in logs are skipped (the reference raised);
 *  - lines end at "\n" only, and only ASCII white space counts as such
 *    (Python's splitlines()/split()/strip() know more);
 *  - numbers: no NaN or infinity (JSON has no such values), integers
 *    must fit int64; dates are read by strptime(3), which also takes
 *    years of fewer than four digits (names of days and months are the
 *    C locale's unless the program sets LC_TIME, as in Python);
 *  - daily report columns are cut at byte offsets (Python: characters),
 *    lower-cased in ASCII only, and a cell cut inside a UTF-8 character
 *    is TOKIO_EFORMAT; a title line within two lines of the end is no
 *    table (the reference raised IndexError); overlapping tables that
 *    would take quadratic time are refused (EXTRA_WORK); a time span
 *    beyond int64 seconds counts as -1, as one that does not parse.
 */
#define _GNU_SOURCE     /* memmem() */
#include "tokio/connectors/hpss.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/output.h"
#include "tokio/time.h"
#include "connectors/registry.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/text.h"

/* The daily report's first line (the reference searched for it). */
#define REPORT_MARK "HPSS Report for Date"

/* An HSI/HTAR line is split at most this many times on runs of spaces
 * (weekday, month, day, time, year, remote host, app, uid), the rest at
 * every tab. */
#define HSI_SPLITS 8

/* Fields kept of a split line; later ones are only counted (HTAR's last
 * three are kept apart: the reference indexed them from the end). */
#define MAX_FIELDS 20

/* A field's decimals beyond this: 10**n overflows a double, where the
 * reference raised OverflowError. */
#define MAX_DECIMALS 308

/* Daily report: cells parsed over all candidate tables, beyond one per
 * input byte and line.  The reference tries every line as a table start;
 * crafted input of nested candidates makes that quadratic in time.  A
 * real report parses each cell once, and a cell takes at least two bytes
 * of its row. */
#define EXTRA_WORK 100000

/* The record fields of each application, in the reference's order: what
 * the JSON form may hold, and the CSV's columns. */
enum ftype { T_INT, T_REAL, T_STR };

struct field {
    const char *name;
    enum ftype type;
};

static const struct field hsi_fields[] = {
    { "client_pid", T_INT }, { "opname", T_STR }, { "return_code", T_INT },
    { "access_latency_sec", T_REAL },
    { "access_latency_sec_resolution", T_REAL }, { "bytes", T_INT },
    { "bytes_sec", T_REAL }, { "bytes_sec_resolution", T_REAL },
    { "cos_id", T_INT }, { "source_path", T_STR }, { "dest_path", T_STR },
    { "account_id", T_INT }, { "hpss_uid", T_INT },
    { "remote_host", T_STR }, { "end_timestamp", T_REAL }, { NULL, T_INT }
};

static const struct field htar_fields[] = {
    { "client_pid", T_INT }, { "htar_op", T_STR }, { "opname", T_STR },
    { "return_code", T_INT }, { "bytes", T_INT },
    { "duration_sec", T_REAL }, { "duration_sec_resolution", T_REAL },
    { "bytes_sec", T_REAL }, { "bytes_sec_resolution", T_REAL },
    { "hpss_path", T_STR }, { "cos_id", T_INT }, { "account_id", T_INT },
    { "remote_ftp_host", T_STR }, { "hpss_uid", T_INT },
    { "remote_host", T_STR }, { "end_timestamp", T_REAL }, { NULL, T_INT }
};

/* FTP's hpss_uid is the user name, not a number as in HSI logs. */
static const struct field ftp_fields[] = {
    { "end_timestamp", T_REAL }, { "opname", T_STR },
    { "duration_sec", T_REAL }, { "duration_sec_resolution", T_REAL },
    { "remote_host", T_STR }, { "bytes", T_INT }, { "hpss_path", T_STR },
    { "hpss_uid", T_STR }, { NULL, T_INT }
};

enum app { APP_HSI, APP_HTAR, APP_FTP, APP_PFTP, N_APPS };

static const struct {
    const char *name;
    enum tokio_hpss_kind kind;
    const struct field *fields;
} apps[N_APPS] = {
    { "hsi", TOKIO_HPSS_HSI, hsi_fields },
    { "htar", TOKIO_HPSS_HSI, htar_fields },
    { "ftp", TOKIO_HPSS_FTP, ftp_fields },
    { "pftp", TOKIO_HPSS_FTP, ftp_fields },
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

struct tokio_hpss {
    enum tokio_hpss_kind kind;  /* TOKIO_HPSS_AUTO until the input tells */
    json_t *root;               /* the reference's dict */
    unsigned char *order;       /* a log read as text: each record's
                                   enum app, in input order */
    size_t n, cap;
    char date[16];              /* a report read as text: "YYYY-MM-DD" */
};

/* A piece of a line. */
struct span {
    const char *p;
    size_t len;
};

/* Where a line is, for messages. */
struct where {
    const char *name;
    size_t lineno;
};

/* ---- small helpers ----------------------------------------------------- */

static int
oom(const char *name)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
}

static struct span
strip(struct span s)
{
    while (s.len > 0 && tokio__py_space((unsigned char)*s.p))
        s.p++, s.len--;
    while (s.len > 0 && tokio__py_space((unsigned char)s.p[s.len - 1]))
        s.len--;
    return s;
}

static int
span_is(struct span s, const char *text)
{
    return s.len == strlen(text) && memcmp(s.p, text, s.len) == 0;
}

static int
ends_with(struct span s, const char *suffix)
{
    size_t n = strlen(suffix);

    return s.len >= n && memcmp(s.p + s.len - n, suffix, n) == 0;
}

static int
blank(struct span s)
{
    return strip(s).len == 0;
}

static int
in_list(const char *const *list, const char *s)
{
    for (; *list != NULL; list++)
        if (strcmp(*list, s) == 0)
            return 1;
    return 0;
}

static enum app
app_named(const char *name)
{
    int a = 0;

    while (a < N_APPS && strcmp(apps[a].name, name) != 0)
        a++;
    return (enum app)a;
}

static int
bad(const struct where *w, const char *what, struct span s)
{
    return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s '%.*s'", w->name,
                        w->lineno, what, (int)(s.len > 60 ? 60 : s.len), s.p);
}

/*
 * The lines of `text`, cut at "\n" (a "\r" before it dropped) and checked
 * for NUL bytes and UTF-8, into *out (free() it) and *n_out.
 */
static int
split_lines(const char *text, size_t len, const char *name,
            struct span **out, size_t *n_out)
{
    size_t n = 0, cap = 0;
    struct span *v = NULL;

    *out = NULL;
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len, l = end - pos;

        if (l > 0 && text[pos + l - 1] == '\r')
            l--;
        if (!tokio__text_valid(text + pos, l)) {
            free(v);
            return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s", name,
                                n + 1, memchr(text + pos, '\0', l)
                                ? "NUL byte" : "invalid UTF-8");
        }
        if (n == cap) {
            struct span *nv = tokio__reallocarray(v, cap = cap ? 2 * cap
                                                             : 256,
                                                  sizeof(*v));
            if (nv == NULL) {
                free(v);
                return oom(name);
            }
            v = nv;
        }
        v[n++] = (struct span){ text + pos, l };
        pos = end + 1;
    }
    *out = v;
    *n_out = n;
    return TOKIO_OK;
}

/* re.split(' +', line, maxsplit=HSI_SPLITS) into f (room for
 * HSI_SPLITS + 1); the number of pieces. */
static size_t
split_hsi(struct span line, struct span *f)
{
    size_t n = 0, pos = 0;

    while (n < HSI_SPLITS) {
        const char *sp = memchr(line.p + pos, ' ', line.len - pos);
        if (sp == NULL)
            break;
        f[n++] = (struct span){ line.p + pos, (size_t)(sp - line.p) - pos };
        for (pos = (size_t)(sp - line.p); pos < line.len && line.p[pos] == ' ';)
            pos++;
    }
    f[n++] = (struct span){ line.p + pos, line.len - pos };
    return n;
}

/* line.split(): the first MAX_FIELDS fields into f; their number. */
static size_t
split_ws(struct span line, struct span *f)
{
    size_t n = 0;

    for (size_t i = 0; i < line.len;) {
        size_t start;
        while (i < line.len && tokio__py_space((unsigned char)line.p[i]))
            i++;
        if (i == line.len)
            break;
        for (start = i; i < line.len &&
                        !tokio__py_space((unsigned char)line.p[i]);)
            i++;
        if (n < MAX_FIELDS)
            f[n] = (struct span){ line.p + start, i - start };
        n++;
    }
    return n;
}

/* The kind of a log line by its look, or TOKIO_HPSS_AUTO. */
static enum tokio_hpss_kind
sniff_line(struct span line)
{
    struct span f[MAX_FIELDS];
    size_t n = split_hsi(line, f);

    if (n == HSI_SPLITS + 1 && (span_is(f[6], "hsi") ||
                                span_is(f[6], "htar")) &&
        memchr(line.p, '\t', line.len) != NULL)
        return TOKIO_HPSS_HSI;
    n = split_ws(line, f);
    if (n >= 12 && (ends_with(f[8], "_Cmd") || ends_with(f[11], "_Cmd")))
        return TOKIO_HPSS_FTP;
    return TOKIO_HPSS_AUTO;
}

/* ---- record fields ------------------------------------------------------ */

/* json_object_set_new() into a record, failing as out of memory. */
static int
put(const struct where *w, json_t *rec, const char *key, json_t *v)
{
    return json_object_set_new(rec, key, v) < 0 ? oom(w->name) : TOKIO_OK;
}

static int
put_str(const struct where *w, json_t *rec, const char *key, struct span s)
{
    return put(w, rec, key, json_stringn(s.p, s.len));
}

/* Python's int() of a field. */
static int
put_int(const struct where *w, json_t *rec, const char *key, struct span s)
{
    int64_t v;

    if (!tokio__py_int(s.p, s.len, &v))
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s is not an "
                            "integer: '%.*s'", w->name, w->lineno, key,
                            (int)(s.len > 60 ? 60 : s.len), s.p);
    return put(w, rec, key, json_integer(v));
}

/*
 * Python's float() of a field times `scale`, and its
 * _get_ascii_resolution() times `scale` under KEY_resolution: the
 * smallest step its text can express (1.0 without a '.').
 */
static int
put_real(const struct where *w, json_t *rec, const char *key, struct span s,
         double scale)
{
    const char *dot = NULL;
    size_t decimals;
    char rkey[64];
    double v;
    int rc;

    for (size_t i = 0; i < s.len; i++)
        if (s.p[i] == '.')
            dot = s.p + i;
    decimals = dot ? (size_t)(s.p + s.len - dot - 1) : 0;
    if (!tokio__py_float(s.p, s.len, &v) || !isfinite(v) ||
        decimals > MAX_DECIMALS)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s is not a "
                            "finite number: '%.*s'", w->name, w->lineno, key,
                            (int)(s.len > 60 ? 60 : s.len), s.p);
    if ((rc = put(w, rec, key, json_real(scale * v))) < 0)
        return rc;
    snprintf(rkey, sizeof(rkey), "%s_resolution", key);
    return put(w, rec, rkey, json_real(scale * (dot ? 1.0 / pow(10.0,
                                                (double)decimals) : 1.0)));
}

/* The ctime-style date of fields f[0..4] ("Mon Dec 31 00:06:46 2018",
 * strptime "%a %b %d %H:%M:%S %Y" of them joined by spaces, as the
 * reference did) as local time, to epoch seconds. */
static int
put_date(const struct where *w, json_t *rec, const struct span *f)
{
    char text[96];
    int64_t t;
    int len = snprintf(text, sizeof(text), "%.*s %.*s %.*s %.*s %.*s",
                       (int)f[0].len, f[0].p, (int)f[1].len, f[1].p,
                       (int)f[2].len, f[2].p, (int)f[3].len, f[3].p,
                       (int)f[4].len, f[4].p);

    if (len < 0 || (size_t)len >= sizeof(text) ||
        tokio_time_parse_format(text, "%a %b %d %H:%M:%S %Y", &t) < 0)
        return bad(w, "bad date", (struct span){ f[0].p, (size_t)(f[4].p +
                                                    f[4].len - f[0].p) });
    return put(w, rec, "end_timestamp", json_real((double)t));
}

/* ---- logs --------------------------------------------------------------- */

/* Append `rec` (taken over) to the list of `app`. */
static int
add_record(struct tokio_hpss *h, enum app app, json_t *rec)
{
    json_t *list = json_object_get(h->root, apps[app].name);

    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 256;
        unsigned char *o = tokio__realloc(h->order, cap);
        if (o == NULL) {
            json_decref(rec);
            return TOKIO_ENOMEM;
        }
        h->order = o;
        h->cap = cap;
    }
    if (list == NULL && json_object_set_new(h->root, apps[app].name,
                                            list = json_array()) < 0) {
        json_decref(rec);
        return TOKIO_ENOMEM;
    }
    if (json_array_append_new(list, rec) < 0)
        return TOKIO_ENOMEM;
    h->order[h->n++] = (unsigned char)app;
    return TOKIO_OK;
}

/*
 * One HSI/HTAR line: split at most 8 times on runs of spaces, then the
 * rest at every tab, as the reference did:
 *   Sat Aug 10 00:05:26 2019 host hsi UID PID\tLH\t0\t0.02\t...
 */
static int
parse_hsi(const struct where *w, json_t *rec, struct span line,
          enum app *app)
{
    struct span f[MAX_FIELDS], last[3] = { { "", 0 }, { "", 0 }, { "", 0 } };
    size_t n = split_hsi(line, f), need = 16;
    int rc;

    if (n < 7)
        return bad(w, "not an HSI/HTAR line (too few fields):", line);
    /* the app is the 7th piece before the tab split, as there */
    if (span_is(f[6], "hsi"))
        *app = APP_HSI;
    else if (span_is(f[6], "htar"))
        *app = APP_HTAR;
    else
        return TOKIO_OK;        /* other applications: skipped, as there */
    struct span rest = f[--n];
    for (size_t a = 0;;) {
        const char *tab = memchr(rest.p + a, '\t', rest.len - a);
        size_t b = tab ? (size_t)(tab - rest.p) : rest.len;
        if (n < MAX_FIELDS)
            f[n] = (struct span){ rest.p + a, b - a };
        n++;
        last[0] = last[1];
        last[1] = last[2];
        last[2] = (struct span){ rest.p + a, b - a };
        if (b == rest.len)
            break;
        a = b + 1;
    }
    /* unlinks (FU) have no destination; renames (FR) no account */
    if (*app == APP_HSI && n >= 10 && !span_is(f[9], "FU"))
        need = span_is(f[9], "FR") ? 17 : 18;
    if (n < need)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s line has %zu "
                            "fields, expected at least %zu", w->name,
                            w->lineno, apps[*app].name, n, need);
    if (*app == APP_HSI) {
        if ((rc = put_int(w, rec, "client_pid", f[8])) < 0 ||
            (rc = put_str(w, rec, "opname", f[9])) < 0 ||
            (rc = put_int(w, rec, "return_code", f[10])) < 0 ||
            (rc = put_real(w, rec, "access_latency_sec", f[11], 1)) < 0 ||
            (rc = put_int(w, rec, "bytes", f[12])) < 0 ||
            (rc = put_real(w, rec, "bytes_sec", f[13], 1000)) < 0 ||
            (rc = put_int(w, rec, "cos_id", f[14])) < 0 ||
            (rc = put_str(w, rec, "source_path", f[15])) < 0 ||
            (need >= 17 &&
             (rc = put_str(w, rec, "dest_path", f[16])) < 0) ||
            (need >= 18 && (rc = put_int(w, rec, "account_id", f[17])) < 0))
            return rc;
    } else {
        if ((rc = put_int(w, rec, "client_pid", f[8])) < 0 ||
            (rc = put_str(w, rec, "htar_op", f[9])) < 0 ||
            (rc = put_str(w, rec, "opname", f[10])) < 0 ||
            (rc = put_int(w, rec, "return_code", f[11])) < 0 ||
            (rc = put_int(w, rec, "bytes", f[12])) < 0 ||
            (rc = put_real(w, rec, "duration_sec", f[13], 1)) < 0 ||
            (rc = put_real(w, rec, "bytes_sec", f[14], 1)) < 0 ||
            (rc = put_str(w, rec, "hpss_path", f[15])) < 0 ||
            (rc = put_int(w, rec, "cos_id", last[1])) < 0 ||
            (rc = put_int(w, rec, "account_id", last[2])) < 0 ||
            /* "whose idea was it to make the column count variable?" -
             * the reference; only 19-field lines name a remote FTP host */
            (n == 19 &&
             (rc = put_str(w, rec, "remote_ftp_host", last[0])) < 0))
            return rc;
    }
    if ((rc = put_int(w, rec, "hpss_uid", f[7])) < 0 ||
        (rc = put_str(w, rec, "remote_host", f[5])) < 0)
        return rc;
    return put_date(w, rec, f);
}

/*
 * One FTP daemon line, split on white space (HPSS 7.3 layout):
 *   Mon Dec 31 00:06:48 2018 0.430 host BYTES PATH b o RETR_Cmd r ftp UID
 */
static int
parse_ftp(const struct where *w, json_t *rec, struct span line,
          enum app *app)
{
    struct span f[MAX_FIELDS];
    size_t n = split_ws(line, f);
    int rc;

    /* the reference converted the date before looking at anything else */
    if (n < 5 || (rc = put_date(w, rec, f)) == TOKIO_EFORMAT)
        return bad(w, "bad date in FTP line", line);
    if (rc < 0)
        return rc;
    if (n < 12)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: FTP line has %zu "
                            "fields, expected at least 12", w->name,
                            w->lineno, n);
    if (span_is(f[11], "ftp") && span_is(f[8], "POPN_Cmd"))
        return TOKIO_OK;        /* HPSS 7.4's POPN command */
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
    *app = cmd.p[0] == 'P' || (cmd.p[0] == 'L' && cmd.p[1] == 'F')
           ? APP_PFTP : APP_FTP;
    if (span_is(cmd, "STOR_Cmd") || span_is(cmd, "PSTO_Cmd") ||
        span_is(cmd, "LFSTO_Cmd"))
        rc = put_str(w, rec, "opname", (struct span){ "LH", 2 });
    else if (span_is(cmd, "RETR_Cmd") || span_is(cmd, "PRTR_Cmd") ||
             span_is(cmd, "LFRTR_Cmd"))
        rc = put_str(w, rec, "opname", (struct span){ "HL", 2 });
    if (rc < 0 ||
        (rc = put_real(w, rec, "duration_sec", f[5], 1)) < 0 ||
        (rc = put_str(w, rec, "remote_host", f[6])) < 0 ||
        (rc = put_int(w, rec, "bytes", f[7])) < 0 ||
        (rc = put_str(w, rec, "hpss_path", f[8])) < 0)
        return rc;
    return put_str(w, rec, "hpss_uid", f[14]);
}

static int
parse_log(struct tokio_hpss *h, const struct span *lines, size_t n,
          const char *name)
{
    int rc = TOKIO_OK;

    for (size_t i = 0; i < n && rc == TOKIO_OK; i++) {
        struct where w = { name, i + 1 };
        enum app app = N_APPS;
        json_t *rec;

        if (blank(lines[i]))
            continue;
        if ((rec = json_object()) == NULL)
            return oom(name);
        rc = h->kind == TOKIO_HPSS_HSI ? parse_hsi(&w, rec, lines[i], &app)
                                       : parse_ftp(&w, rec, lines[i], &app);
        if (rc < 0 || app == N_APPS)
            json_decref(rec);
        else if (add_record(h, app, rec) < 0)
            rc = oom(name);
    }
    return rc;
}

/* ---- daily report ------------------------------------------------------- */

struct report {
    const struct span *lines;
    size_t n;
    const char *name;
    size_t work, max_work;
};

/* What a daily report column holds, by its heading. */
enum coltype { C_STR, C_FLOAT, C_INT, C_DELTIM };

struct column {
    size_t at, len;         /* where it is in a row */
    const char *name;       /* lower-cased heading */
    const char *secs;       /* C_DELTIM: name + "secs" */
    enum coltype type;
};

/* line[a:a+n] as Python slices it (clipped), stripped. */
static struct span
slice(struct span line, size_t a, size_t n)
{
    size_t end = a + n < line.len ? a + n : line.len;

    if (a >= end)
        return (struct span){ line.p, 0 };
    return strip((struct span){ line.p + a, end - a });
}

/* `s` lower-cased as a new JSON string; NULL when out of memory. */
static json_t *
lower_string(struct span s)
{
    char *buf = tokio__malloc(s.len + 1);
    json_t *j;

    if (buf == NULL)
        return NULL;
    for (size_t i = 0; i < s.len; i++)
        buf[i] = (char)(s.p[i] >= 'A' && s.p[i] <= 'Z' ? s.p[i] - 'A' + 'a'
                                                        : s.p[i]);
    j = json_stringn(buf, s.len);
    free(buf);
    return j;
}

/* _hpss_timedelta_to_secs(): "D-HH:MM:SS" to seconds, -1 otherwise. */
static int64_t
timedelta_secs(struct span s)
{
    static const char seps[4] = { '-', ':', ':', '\0' };
    static const int64_t unit[4] = { 86400, 3600, 60, 1 };
    int64_t secs = 0;
    size_t i = 0;

    for (int k = 0; k < 4; k++) {
        int64_t part = 0;
        size_t start = i;
        for (; i < s.len && s.p[i] >= '0' && s.p[i] <= '9'; i++) {
            if (part > (INT64_MAX - 9) / 10)
                return -1;
            part = part * 10 + (s.p[i] - '0');
        }
        if (i == start || (k < 3 ? i == s.len || s.p[i] != seps[k]
                                 : i != s.len) ||
            part > (INT64_MAX - secs) / unit[k])
            return -1;
        secs += part * unit[k];
        i++;
    }
    return secs;
}

/* _find_columns() in its non-strict form: each column runs from the end
 * of the previous one to the first gap after its '=' run.  *out (free()
 * it) holds the columns; 0 when the line holds anything but '=' and ' '
 * or no column, SIZE_MAX when out of memory. */
static size_t
find_columns(struct span line, struct column **out)
{
    size_t n = 0, start = 0;

    *out = NULL;
    for (size_t i = 0; i < line.len; i++)
        if (line.p[i] != '=' && line.p[i] != ' ')
            return 0;
    if (line.len == 0 || memchr(line.p, '=', line.len) == NULL)
        return 0;
    /* a column takes at least "= " but the last */
    if ((*out = tokio__calloc(line.len / 2 + 1, sizeof(**out))) == NULL)
        return SIZE_MAX;
    for (size_t i = 1; i < line.len; i++)
        if (line.p[i] == ' ' && line.p[i - 1] == '=') {
            (*out)[n].at = start;
            (*out)[n++].len = i - start;
            start = i;
        }
    if (line.p[line.len - 1] == '=') {
        (*out)[n].at = start;
        (*out)[n++].len = line.len - start;
    }
    return n;
}

/* One row as a new object in *out: a cell per column, keys in order of
 * first appearance, a repeated one keeping the last cell, as a dict. */
static int
parse_row(const struct report *r, struct span line, size_t lineno,
          const struct column *cols, size_t ncols, json_t **out)
{
    json_t *row = json_object();
    int rc = row ? TOKIO_OK : oom(r->name);

    for (size_t k = 0; k < ncols && rc == TOKIO_OK; k++) {
        struct span v = slice(line, cols[k].at, cols[k].len);
        const char *what = NULL;
        json_t *cell = NULL;
        int64_t i;
        double d;

        if (!tokio__text_valid(v.p, v.len))
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: column '%s' "
                              "cuts a UTF-8 character", r->name, lineno,
                              cols[k].name);
        else if (cols[k].type == C_FLOAT) {
            if (tokio__py_float(v.p, v.len, &d) && isfinite(d))
                cell = json_real(d);
            else
                what = "a number";
        } else if (cols[k].type == C_INT) {
            if (tokio__py_int(v.p, v.len, &i))
                cell = json_integer(i);
            else
                what = "an integer";
        } else {
            cell = lower_string(v);
        }
        if (what != NULL)
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: column '%s' is "
                              "not %s: '%.*s'", r->name, lineno, cols[k].name,
                              what, (int)(v.len > 60 ? 60 : v.len), v.p);
        else if (rc == TOKIO_OK &&
                 (json_object_set_new(row, cols[k].name, cell) < 0 ||
                  (cols[k].type == C_DELTIM &&
                   json_object_set_new(row, cols[k].secs,
                       json_integer(timedelta_secs(v))) < 0)))
            rc = oom(r->name);
    }
    if (rc < 0) {
        json_decref(row);
        row = NULL;
    }
    *out = row;
    return rc;
}

/* The lower-cased headings of line `s` + 1 into `cols` (their texts kept
 * in `names`); *cut when one is cut inside a UTF-8 character. */
static int
parse_headings(const struct report *r, size_t s, struct column *cols,
               size_t ncols, json_t *names, int *cut)
{
    for (size_t k = 0; k < ncols; k++) {
        struct span v = slice(r->lines[s + 1], cols[k].at, cols[k].len);
        json_t *name, *secs = NULL;

        if (!tokio__text_valid(v.p, v.len)) {
            *cut = 1;
            v.len = 0;
        }
        if ((name = lower_string(v)) == NULL ||
            json_array_append_new(names, name) < 0)
            return oom(r->name);
        cols[k].name = json_string_value(name);
        cols[k].type = in_list(float_cols, cols[k].name) ? C_FLOAT
                       : in_list(int_cols, cols[k].name) ? C_INT
                       : in_list(deltim_cols, cols[k].name) ? C_DELTIM
                       : C_STR;
        if (cols[k].type == C_DELTIM &&
            ((secs = json_sprintf("%ssecs", cols[k].name)) == NULL ||
             json_array_append_new(names, secs) < 0))
            return oom(r->name);
        cols[k].secs = json_string_value(secs);
    }
    return TOKIO_OK;
}

/*
 * _parse_section() at line `s` (blank lines already skipped): a title
 * "System : Title", a heading line, a '=' separator line, rows until a
 * blank or short line.  *rows_out is a new list of the rows, or NULL
 * when no table with rows starts here; then *system_out and *title_out
 * are new strings.  *finish_out is what the reference returned as the
 * table's end: the index, counted from the first row, of the row that
 * ended it, plus one.
 */
static int
parse_section(struct report *r, size_t s, json_t **rows_out,
              json_t **system_out, json_t **title_out, size_t *finish_out)
{
    struct span line = r->lines[s];
    const char *colon = memchr(line.p, ':', line.len);
    struct column *cols = NULL;
    json_t *names = NULL, *rows = NULL, *system = NULL, *title = NULL;
    size_t ncols, min_len;
    int rc = TOKIO_OK, cut = 0;

    *rows_out = *system_out = *title_out = NULL;
    *finish_out = 1;
    if (colon == NULL || s + 2 >= r->n ||
        (ncols = find_columns(r->lines[s + 2], &cols)) == 0)
        return TOKIO_OK;
    if (ncols == SIZE_MAX)
        return oom(r->name);
    size_t syslen = (size_t)(colon - line.p);
    if ((names = json_array()) == NULL || (rows = json_array()) == NULL ||
        (system = lower_string(slice(line, 0, syslen))) == NULL ||
        (title = lower_string(slice(line, syslen + 1, line.len))) == NULL)
        rc = oom(r->name);
    else
        rc = parse_headings(r, s, cols, ncols, names, &cut);
    min_len = cols[ncols - 1].at + cols[ncols - 1].len;
    for (size_t i = s + 3; i < r->n && rc == TOKIO_OK; i++) {
        json_t *row;

        *finish_out = i - (s + 3) + 1;
        if (blank(r->lines[i]) || r->lines[i].len + 1 < min_len)
            break;
        if ((r->work += ncols) > r->max_work)
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: too many "
                              "overlapping tables", r->name, s + 1);
        else if (cut)
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: a column "
                              "heading cuts a UTF-8 character", r->name,
                              s + 2);
        else if ((rc = parse_row(r, r->lines[i], i + 1, cols, ncols,
                                 &row)) == TOKIO_OK &&
                 json_array_append_new(rows, row) < 0)
            rc = oom(r->name);
    }
    if (rc == TOKIO_OK && json_array_size(rows) > 0) {
        *rows_out = json_incref(rows);
        *system_out = json_incref(system);
        *title_out = json_incref(title);
    }
    json_decref(names);
    json_decref(rows);
    json_decref(system);
    json_decref(title);
    free(cols);
    return rc;
}

/* _rekey_table(): the rows (taken over) keyed by their column `key`, each
 * without it; every row must hold a distinct string there. */
static int
rekey_rows(const struct report *r, const char *system, const char *title,
           json_t **rows, const char *key)
{
    json_t *keyed = json_object(), *row;
    size_t i;
    int rc = keyed ? TOKIO_OK : oom(r->name);

    for (i = 0; rc == TOKIO_OK && i < json_array_size(*rows); i++) {
        const char *k;
        row = json_array_get(*rows, i);
        k = json_string_value(json_object_get(row, key));
        if (k == NULL || json_object_get(keyed, k) != NULL)
            rc = tokio__error(TOKIO_EFORMAT, "'%s': table '%s : %s' %s "
                              "column '%s'%s%s", r->name, system, title,
                              k ? "repeats" : "lacks", key,
                              k ? " value " : "", k ? k : "");
        else if (json_object_set(keyed, k, row) < 0 ||
                 json_object_del(row, key) < 0)
            rc = oom(r->name);
    }
    json_decref(*rows);
    *rows = keyed;
    return rc;
}

/* The report's date from its first line: strptime "%Y-%m-%d" of its last
 * word, as the reference did. */
static int
report_date(struct tokio_hpss *h, struct span line, const struct where *w)
{
    struct span s = strip(line), word;
    size_t b = s.len;
    int64_t epoch;
    int y, m, d;

    while (b > 0 && !tokio__py_space((unsigned char)s.p[b - 1]))
        b--;
    word = (struct span){ s.p + b, s.len - b };
    if (word.len >= sizeof(h->date))
        return bad(w, "bad report date", word);
    memcpy(h->date, word.p, word.len);
    h->date[word.len] = '\0';
    if (tokio_time_parse_format(h->date, "%Y-%m-%d", &epoch) < 0 ||
        sscanf(h->date, "%d-%d-%d", &y, &m, &d) != 3) {
        h->date[0] = '\0';
        return bad(w, "bad report date", word);
    }
    snprintf(h->date, sizeof(h->date), "%04d-%02d-%02d", y, m, d);
    return TOKIO_OK;
}

static int
parse_report(struct tokio_hpss *h, const struct span *lines, size_t n,
             const char *name, size_t guessed)
{
    struct report r = { lines, n, name, 0, EXTRA_WORK + n };
    size_t start = 0, first = 0, last_first = SIZE_MAX;
    int rc = TOKIO_OK;

    while (start < n && (lines[start].len < strlen(REPORT_MARK) ||
                         memcmp(lines[start].p, REPORT_MARK,
                                strlen(REPORT_MARK)) != 0))
        start++;
    if (start == n && guessed)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: not an HPSS daily "
                            "report, HSI/HTAR log or FTP log", name, guessed);
    if (start == n)
        return tokio__error(TOKIO_EFORMAT, "'%s': no '%s' line: not an HPSS "
                            "daily report", name, REPORT_MARK);
    if ((rc = report_date(h, lines[start],
                          &(struct where){ name, start + 1 })) < 0)
        return rc;
    for (size_t i = 0; i < n; i++)
        r.max_work += lines[i].len;

    /*
     * Every line may start a table, as in the reference, which skips
     * blank lines first: a run of them is skipped once, and a table
     * already stored from the same first line is not parsed again (it
     * would store the same rows).  The reference kept a table only when
     * the end it computed differed from the start line: kept here too.
     */
    for (size_t i = start; i < n && rc == TOKIO_OK; i++) {
        json_t *rows, *system, *title, *tables;
        size_t finish;

        if (i > first)
            for (first = i; first < n && blank(lines[first]);)
                first++;
        if (first == last_first || first == n)
            continue;
        if ((rc = parse_section(&r, first, &rows, &system, &title,
                                &finish)) < 0 || rows == NULL)
            continue;
        const char *sys = json_string_value(system);
        const char *tit = json_string_value(title);
        if (finish == i) {
            json_decref(rows);
        } else {
            for (size_t k = 0; k < sizeof(rekey) / sizeof(rekey[0]); k++)
                if (strcmp(tit, rekey[k][0]) == 0)
                    rc = rekey_rows(&r, sys, tit, &rows, rekey[k][1]);
            if ((tables = json_object_get(h->root, sys)) == NULL &&
                rc == TOKIO_OK &&
                json_object_set_new(h->root, sys, tables = json_object()) < 0)
                rc = oom(name);
            /* a title stored before is replaced where it was, as in a
             * dict */
            if (rc == TOKIO_OK && json_object_set_new(tables, tit, rows) < 0)
                rc = oom(name);
            else if (rc < 0)
                json_decref(rows);
            last_first = first;
        }
        json_decref(system);
        json_decref(title);
    }
    return rc;
}

/* ---- the JSON form ------------------------------------------------------ */

/* Check record `idx` of `app` in a log's JSON form, in place: only its
 * application's fields with their types; integers become reals where the
 * text gives reals. */
static int
check_record(json_t *rec, enum app app, size_t idx)
{
    const struct field *f;
    const char *key;
    json_t *v;

    if (!json_is_object(rec))
        return tokio__error(TOKIO_EFORMAT, "HPSS %s record %zu is not an "
                            "object", apps[app].name, idx);
    json_object_foreach(rec, key, v) {
        for (f = apps[app].fields; f->name && strcmp(f->name, key) != 0;)
            f++;
        if (f->name == NULL)
            return tokio__error(TOKIO_EFORMAT, "HPSS %s record %zu: unknown "
                                "field '%s'", apps[app].name, idx, key);
        if (f->type == T_INT ? !json_is_integer(v)
            : f->type == T_REAL ? !json_is_number(v) : !json_is_string(v))
            return tokio__error(TOKIO_EFORMAT, "HPSS %s record %zu: field "
                                "'%s' is not %s", apps[app].name, idx, key,
                                f->type == T_STR ? "a string"
                                : f->type == T_INT ? "an integer"
                                                   : "a number");
        /* a value replaced keeps its place: the walk goes on */
        if (f->type == T_REAL && json_is_integer(v) &&
            json_object_set_new(rec, key,
                                json_real(json_number_value(v))) < 0)
            return tokio__error(TOKIO_ENOMEM, "out of memory");
    }
    return TOKIO_OK;
}

/* A log's JSON form: {app: [record]}; lists without records dropped. */
static int
log_from_json(struct tokio_hpss *h, const json_t *json)
{
    const char *key;
    json_t *list, *rec;
    void *next;
    size_t i;
    int rc;

    json_decref(h->root);
    if ((h->root = json_deep_copy(json)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    json_object_foreach_safe(h->root, next, key, list) {
        enum app a = app_named(key);
        if (a == N_APPS || apps[a].kind != h->kind || !json_is_array(list))
            return tokio__error(TOKIO_EFORMAT, "HPSS %s log JSON: '%s' is "
                                "not a list of %s records",
                                h->kind == TOKIO_HPSS_HSI ? "HSI" : "FTP",
                                key, h->kind == TOKIO_HPSS_HSI ? "hsi/htar"
                                                               : "ftp/pftp");
        json_array_foreach(list, i, rec)
            if ((rc = check_record(rec, a, i)) < 0)
                return rc;
        if (json_array_size(list) == 0)
            json_object_del(h->root, key);
    }
    return TOKIO_OK;
}

/* 1 if `row` is an object of strings and numbers. */
static int
row_ok(const json_t *row)
{
    const char *k;
    json_t *v;

    if (!json_is_object(row))
        return 0;
    json_object_foreach((json_t *)row, k, v)
        if (!json_is_string(v) && !json_is_number(v))
            return 0;
    return 1;
}

/* 1 if `rows` is a list or object of such rows. */
static int
rows_ok(const json_t *rows)
{
    const char *k;
    json_t *row;
    size_t i;

    json_array_foreach(rows, i, row)
        if (!row_ok(row))
            return 0;
    json_object_foreach((json_t *)rows, k, row)
        if (!row_ok(row))
            return 0;
    return json_is_array(rows) || json_is_object(rows);
}

/* A report's JSON form: {system: {title: rows}}, kept as it is. */
static int
report_from_json(struct tokio_hpss *h, const json_t *json)
{
    const char *system, *title;
    json_t *tables, *rows;

    json_object_foreach((json_t *)json, system, tables) {
        if (!json_is_object(tables))
            return tokio__error(TOKIO_EFORMAT, "HPSS daily report system "
                                "'%s' is not an object", system);
        json_object_foreach(tables, title, rows)
            if (!rows_ok(rows))
                return tokio__error(TOKIO_EFORMAT, "HPSS daily report table "
                                    "'%s : %s' is not a list or object of "
                                    "rows of strings and numbers", system,
                                    title);
    }
    json_decref(h->root);
    if ((h->root = json_deep_copy(json)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    return TOKIO_OK;
}

static int
add_json(void *hv, const json_t *json)
{
    struct tokio_hpss *h = hv;

    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "HPSS JSON is not an object");
    if (h->kind == TOKIO_HPSS_AUTO) {
        /* keys all hsi/htar: an HSI log; all ftp/pftp: an FTP log */
        int seen[3] = { 0, 0, 0 };
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)json, key, v) {
            enum app a = app_named(key);
            seen[a == N_APPS ? 0 : apps[a].kind == TOKIO_HPSS_HSI ? 1 : 2]++;
        }
        h->kind = seen[0] || (seen[1] && seen[2]) ? TOKIO_HPSS_DAILY
                  : seen[2] ? TOKIO_HPSS_FTP : TOKIO_HPSS_HSI;
    }
    return h->kind == TOKIO_HPSS_DAILY ? report_from_json(h, json)
                                       : log_from_json(h, json);
}

/* ---- reading ------------------------------------------------------------ */

static int
add_text(void *hv, const char *text, size_t len, const char *name)
{
    struct tokio_hpss *h = hv;
    struct span *lines = NULL;
    size_t n = 0, first = 0;
    size_t guessed = 0;     /* the line that made it a report by default */
    int rc;

    if ((rc = split_lines(text, len, name, &lines, &n)) < 0)
        return rc;
    while (first < n && blank(lines[first]))
        first++;
    /* the first line that is not blank tells the kind; an input without
     * one is an empty log */
    if (h->kind == TOKIO_HPSS_AUTO && first == n)
        h->kind = TOKIO_HPSS_HSI;
    if (h->kind == TOKIO_HPSS_AUTO &&
        (h->kind = sniff_line(lines[first])) == TOKIO_HPSS_AUTO) {
        h->kind = TOKIO_HPSS_DAILY;
        guessed = first + 1;
    }
    if (h->kind == TOKIO_HPSS_DAILY)
        rc = parse_report(h, lines, n, name, guessed);
    else
        rc = parse_log(h, lines, n, name);
    free(lines);
    return rc;
}

static int
new_handle(void **out, enum tokio_hpss_kind kind)
{
    struct tokio_hpss *h = tokio__calloc(1, sizeof(*h));

    *out = h;
    if (h == NULL || (h->root = json_object()) == NULL) {
        free(h);
        *out = NULL;
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    }
    h->kind = kind;
    return TOKIO_OK;
}

static int new_auto(void **out) { return new_handle(out, TOKIO_HPSS_AUTO); }
static int new_daily(void **out) { return new_handle(out, TOKIO_HPSS_DAILY); }
static int new_hsi(void **out) { return new_handle(out, TOKIO_HPSS_HSI); }
static int new_ftp(void **out) { return new_handle(out, TOKIO_HPSS_FTP); }

/* The connector entry of each kind (below), [TOKIO_HPSS_AUTO] the one
 * registered; NULL for no kind, with the message set. */
static const struct tokio__connector by_kind[4];

static const struct tokio__connector *
connector(enum tokio_hpss_kind kind)
{
    if ((unsigned)kind < sizeof(by_kind) / sizeof(by_kind[0]))
        return &by_kind[kind];
    tokio__error(TOKIO_EINVAL, "no HPSS input kind %d", (int)kind);
    return NULL;
}

int
tokio_hpss_open(struct tokio_hpss **out, const char *path,
                enum tokio_hpss_kind kind)
{
    const struct tokio__connector *c = connector(kind);
    void *h = NULL;
    int rc = c ? tokio__connector_open(c, &h, path) : TOKIO_EINVAL;

    *out = h;
    return rc;
}

int
tokio_hpss_open_mem(struct tokio_hpss **out, const void *buf, size_t len,
                    const char *name, enum tokio_hpss_kind kind)
{
    const struct tokio__connector *c = connector(kind);
    void *h = NULL;
    int rc = c ? tokio__connector_open_mem(c, &h, buf, len, name)
               : TOKIO_EINVAL;

    *out = h;
    return rc;
}

int
tokio_hpss_from_json(struct tokio_hpss **out, const json_t *json,
                     enum tokio_hpss_kind kind)
{
    const struct tokio__connector *c = connector(kind);
    void *h = NULL;
    int rc = c ? tokio__connector_from_json(c, &h, json) : TOKIO_EINVAL;

    *out = h;
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
    return h->kind == TOKIO_HPSS_DAILY ? 0
           : json_array_size(json_object_get(h->root, app));
}

const char *
tokio_hpss_report_date(const struct tokio_hpss *h)
{
    return h->date[0] ? h->date : NULL;
}

int
tokio_hpss_to_json(const struct tokio_hpss *h, json_t **out)
{
    *out = json_incref(h->root);
    return TOKIO_OK;
}

/* A CSV cell: a string quoted as needed, a number as the JSON has it,
 * nothing for anything else. */
static void
write_cell(FILE *fp, const json_t *v)
{
    char buf[40];

    if (json_is_string(v)) {
        tokio_csv_write_field(fp, json_string_value(v), json_string_length(v));
    } else if (json_is_integer(v)) {
        fprintf(fp, "%lld", (long long)json_integer_value(v));
    } else if (json_is_real(v)) {
        tokio_format_double(buf, sizeof(buf), json_real_value(v));
        fputs(buf, fp);
    }
}

static void
write_report_row(FILE *fp, const char *system, const char *title,
                 const char *rowkey, const json_t *row)
{
    const char *col;
    json_t *v;

    json_object_foreach((json_t *)row, col, v) {
        const char *const text[4] = { system, title, rowkey, col };
        for (int i = 0; i < 4; i++) {
            tokio_csv_write_field(fp, text[i], strlen(text[i]));
            fputc(',', fp);
        }
        write_cell(fp, v);
        fputc('\n', fp);
    }
}

/* A report: one row per cell. */
static void
write_report_csv(const struct tokio_hpss *h, FILE *fp)
{
    const char *system, *title, *key;
    json_t *tables, *rows, *row;
    char idx[32];
    size_t i;

    fputs("system,table,row,column,value\n", fp);
    json_object_foreach(h->root, system, tables)
        json_object_foreach(tables, title, rows) {
            json_array_foreach(rows, i, row) {
                snprintf(idx, sizeof(idx), "%zu", i);
                write_report_row(fp, system, title, idx, row);
            }
            json_object_foreach(rows, key, row)
                write_report_row(fp, system, title, key, row);
        }
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
write_log_row(FILE *fp, const char *app, const json_t *rec,
              const char *const *cols, size_t ncols)
{
    fputs(app, fp);
    for (size_t k = 0; k < ncols; k++) {
        fputc(',', fp);
        write_cell(fp, json_object_get(rec, cols[k]));
    }
    fputc('\n', fp);
}

/* A log: one row per record, in input order when read as text (else
 * application by application), columns the kind's field names sorted. */
static void
write_log_csv(const struct tokio_hpss *h, FILE *fp)
{
    const char *cols[64], *key;
    size_t n = 0, ncols = 0, next[N_APPS] = { 0 }, i;
    json_t *list, *rec;

    for (int a = 0; a < N_APPS; a++)
        for (const struct field *f = apps[a].fields;
             apps[a].kind == h->kind && f->name != NULL; f++)
            cols[n++] = f->name;
    qsort(cols, n, sizeof(cols[0]), cmp_str);
    fputs("app", fp);
    for (size_t k = 0; k < n; k++)
        if (ncols == 0 || strcmp(cols[k], cols[ncols - 1]) != 0) {
            cols[ncols++] = cols[k];
            fprintf(fp, ",%s", cols[k]);
        }
    fputc('\n', fp);
    for (i = 0; i < h->n; i++) {
        const char *app = apps[h->order[i]].name;
        write_log_row(fp, app, json_array_get(json_object_get(h->root, app),
                                              next[h->order[i]]++),
                      cols, ncols);
    }
    if (h->order == NULL)
        json_object_foreach(h->root, key, list)
            json_array_foreach(list, i, rec)
                write_log_row(fp, key, rec, cols, ncols);
}

int
tokio_hpss_write_csv(const struct tokio_hpss *h, FILE *fp)
{
    if (h->kind == TOKIO_HPSS_DAILY)
        write_report_csv(h, fp);
    else
        write_log_csv(h, fp);
    return tokio__write_check(fp, "cannot write HPSS CSV");
}

void
tokio_hpss_free(struct tokio_hpss *h)
{
    if (h == NULL)
        return;
    json_decref(h->root);
    free(h->order);
    free(h);
}

/* ---- the connector interface (src/core/connector.h) -------------------- */

/* A daily report holds its mark line; a log's first line looks like one. */
static int
bid(const char *head, size_t n)
{
    struct span line = { head, n };
    const char *nl;

    if (memmem(head, n, REPORT_MARK, strlen(REPORT_MARK)) != NULL)
        return 90;
    while (line.len > 0 && (nl = memchr(line.p, '\n', line.len)) != NULL &&
           blank((struct span){ line.p, (size_t)(nl - line.p) })) {
        line.len -= (size_t)(nl + 1 - line.p);
        line.p = nl + 1;
    }
    if ((nl = memchr(line.p, '\n', line.len)) != NULL)
        line.len = (size_t)(nl - line.p);
    return sniff_line(line) != TOKIO_HPSS_AUTO ? 80 : 0;
}

static int
to_json(const void *h, json_t **out) { return tokio_hpss_to_json(h, out); }

static int
write_csv(const void *h, FILE *fp) { return tokio_hpss_write_csv(h, fp); }

static void
free_handle(void *h) { tokio_hpss_free(h); }

#define WHAT "an HPSS daily report, HSI/HTAR log or FTP log, or their " \
             "JSON form"
#define HPSS_CONNECTOR(NEW) {                                               \
        .name = "hpss", .what = WHAT, .bid = bid, .new = NEW,               \
        .add_text = add_text,                                               \
        .add_json = add_json, .to_json = to_json, .write_csv = write_csv,   \
        .free = free_handle }

static const struct tokio__connector by_kind[4] = {
    [TOKIO_HPSS_AUTO] = HPSS_CONNECTOR(new_auto),
    [TOKIO_HPSS_DAILY] = HPSS_CONNECTOR(new_daily),
    [TOKIO_HPSS_HSI] = HPSS_CONNECTOR(new_hsi),
    [TOKIO_HPSS_FTP] = HPSS_CONNECTOR(new_ftp),
};

const struct tokio__connector tokio__hpss_connector = HPSS_CONNECTOR(new_auto);
