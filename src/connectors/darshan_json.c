/*
 * src/connectors/darshan_json.c - a Darshan log as the JSON of the
 * reference's tokio.connectors.darshan.Darshan (what cache_darshan prints).
 *
 * The reference ran darshan-parser 3.5.0 and typed each value of its text
 * by a rule ("." in it: float(), else int(), else kept as the string).
 * This file builds the same tree from the reader's typed records: every
 * line darshan-parser --base would print for a record (walked by
 * tokio__darshan_visit_record(), the same visitor that prints --base)
 * becomes one counter, typed as the reference typed its text.  Nothing
 * is printed and re-read; a double is rounded through "%f" only because
 * that rounding is the value the reference stored.
 *
 * Differs from pytokio:
 * - PNETCDF_FILE/PNETCDF_VAR records go under "pnetcdf_file" and
 *   "pnetcdf_var" with their prefixes stripped.  The reference's module
 *   pattern ([A-Z0-9/-]+) does not match '_', so it filed them under the
 *   previous module with their prefixes kept (or failed when they came
 *   first).
 * - --base --total --perf together give "metadata" once.  The reference
 *   reparsed the header once per darshan-parser run and so listed every
 *   metadata entry three times (golden sample.base+total+perf.json).
 * - Unsigned 64-bit values above INT64_MAX (record ids darshan-parser
 *   prints with %llu: POSIX_RENAMED_FROM, *_FILE_REC_ID) are kept exact
 *   with tokio_json_uint64(), which tokio_json_write() prints as the
 *   reference does.
 *
 * Golden outputs: testdata/golden/pytokio/cache_darshan/.
 */
#include "tokio/connectors/darshan_json.h"

#include "tokio/output.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "connectors/darshan_private.h"
#include "core/alloc.h"
#include "core/error.h"

/* darshan-util's compression names, by enum tokio_darshan_compression. */
static const char *const comp_names[] = { "ZLIB", "BZIP2", "NONE" };

/* "%f" of the largest double is 309 digits, a point and 6 decimals. */
#define FIXED_MAX 400

/* What one build needs at hand. */
struct build {
    const struct tokio_darshan *log;
    const struct tokio_darshan_json_opts *opts;
    json_t *counters;           /* "counters", NULL until a module prints */
    /* the record being emitted */
    int mod;
    char mkey[32];              /* "posix" */
    char prefix[32];            /* "POSIX_" */
    int mod_wanted;
    const char *name;
    char rank[24];
    json_t *rank_obj;           /* NULL until its first counter */
};

/* ---- values: the reference's typing of darshan-parser's text --------- */

static int
nomem(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory building Darshan "
                        "JSON");
}

/*
 * A value the way the reference read it from text: with a '.' a float,
 * else an int, and (as its goldens show) the string itself when it is
 * neither ("N/A", "raid0", "init,prefwr").
 */
static json_t *
typed_text(const char *text)
{
    char *end;

    if (strchr(text, '.') != NULL) {
        errno = 0;
        double d = strtod(text, &end);
        if (end != text && *end == '\0' && isfinite(d) &&
            strpbrk(text, "xX") == NULL)
            return json_real(d);
    } else if (*text != '\0') {
        errno = 0;
        long long v = strtoll(text, &end, 10);
        if (*end == '\0' && errno == 0 && !isspace((unsigned char)*text))
            return json_integer(v);
    }
    return json_string_nocheck(text);
}

/*
 * strtod() of "%f" text of `v`, without the text, where that is exact:
 * "%f" is M / 10^6 with M the exact v * 10^6 rounded to an integer (ties
 * to even, glibc's printf in the default rounding mode), and for |M| <
 * 2^53 strtod() of it is the one correctly rounded division M / 1e6
 * (Clinger's fast path).  M comes from p = v * 1e6 rounded and its exact
 * error fma(v, 1e6, -p): only when p is a tie does the error decide.
 * Returns 0 (use the text) for |v| >= 4e9, NaN and infinities.
 */
int
tokio__darshan_fixed6(double v, double *out)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    if (!(fabs(v) < 4e9))
        return 0;
    double p = v * 1e6;
    double m = nearbyint(p);
    double fl = floor(p);
    if (p - fl == 0.5) {
        double err = fma(v, 1e6, -p);
        if (err > 0)
            m = fl + 1;
        else if (err < 0)
            m = fl;
    }
    *out = m == 0 ? copysign(0.0, v) : m / 1e6;
    return 1;
#else
    (void)v;
    (void)out;
    return 0;
#endif
}

/* A double as darshan-parser printed it ("%f") and the reference read it. */
static json_t *
fixed_real(double v)
{
    double d;

    if (tokio__darshan_fixed6(v, &d))
        return json_real(d);
    char buf[FIXED_MAX];
    snprintf(buf, sizeof(buf), "%f", v);
    return typed_text(buf);
}

/* ---- base records ---------------------------------------------------- */

/* darshan-parser's module name without '-' and '/' (the reference's
 * module key is this lower-cased, its counter prefix this plus '_'). */
static void
module_key(int mod, char *key, char *prefix, size_t size)
{
    const char *name = tokio_darshan_module_name(mod);
    size_t k = 0;

    for (const char *p = name; *p && k + 2 < size; p++) {
        if (*p == '-' || *p == '/')
            continue;
        prefix[k] = *p;
        key[k++] = (char)tolower((unsigned char)*p);
    }
    key[k] = '\0';
    prefix[k] = '_';
    prefix[k + 1] = '\0';
}

/* `counter` without the module's prefix, if it has it. */
static const char *
strip_prefix(const struct build *b, const char *counter)
{
    size_t plen = strlen(b->prefix);

    return strncmp(counter, b->prefix, plen) == 0 ? counter + plen : counter;
}

static int
listed(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] != NULL && strcmp(list[i], s) == 0)
            return 1;
    return 0;
}

/* Get or make object `key` of `parent`; NULL only when out of memory. */
static json_t *
child(json_t *parent, const char *key)
{
    json_t *o = json_object_get(parent, key);

    if (o != NULL)
        return o;
    o = json_object();
    if (o == NULL || json_object_set_new_nocheck(parent, key, o) < 0)
        return NULL;
    return o;
}

/*
 * One counter line of the current record.  `v` is a new reference,
 * consumed.  The module, record and rank objects appear with their first
 * counter that passes the filters, as in the reference.
 */
static int
put(struct build *b, const char *counter, json_t *v)
{
    const struct tokio_darshan_json_opts *o = b->opts;

    if (v == NULL)
        return nomem();
    counter = strip_prefix(b, counter);
    if (!b->mod_wanted || (o->n_counters > 0 &&
                           !listed(counter, o->counters, o->n_counters))) {
        json_decref(v);
        return TOKIO_OK;
    }
    if (b->rank_obj == NULL) {
        json_t *m = child(b->counters, b->mkey);
        json_t *r = m ? child(m, b->name) : NULL;
        if (r == NULL || (b->rank_obj = child(r, b->rank)) == NULL) {
            json_decref(v);
            return nomem();
        }
    }
    if (json_object_get(b->rank_obj, counter) != NULL) {
        json_decref(v);
        /* the reference raised "Duplicate counter" here too */
        return tokio__error(TOKIO_EFORMAT, "'%s': %s record '%s' rank %s "
                            "has counter %s twice",
                            tokio_darshan_logname(b->log), b->mkey,
                            b->name, b->rank, counter);
    }
    if (json_object_set_new_nocheck(b->rank_obj, counter, v) < 0)
        return nomem();
    return TOKIO_OK;
}

/* One counter line of the current record (the visitor's callback),
 * typed as the reference typed darshan-parser's text of it. */
static int
put_line(void *payload, const char *counter,
         const struct tokio__darshan_value *v)
{
    json_t *j = NULL;

    switch (v->kind) {
    case TOKIO__DARSHAN_INT:
        j = json_integer(v->v.i);
        break;
    case TOKIO__DARSHAN_UINT:
        j = tokio_json_uint64(v->v.u);
        break;
    case TOKIO__DARSHAN_DOUBLE:
        j = fixed_real(v->v.d);
        break;
    case TOKIO__DARSHAN_STRING:
        /* "N/A", "raid0" stay strings; a flags "0" or a numeric pool
         * name became a number in the reference */
        j = typed_text(v->v.s);
        break;
    }
    return put(payload, counter, j);
}

/* Every counter line of one record, in darshan-parser's order. */
static int
put_record(struct build *b, const struct tokio_darshan_record *r)
{
    struct tokio__darshan_columns cols;

    /* the record's key is its name column, as darshan-parser fills it */
    tokio__darshan_record_columns(b->log, b->mod, r, &cols);
    b->name = cols.name;
    snprintf(b->rank, sizeof(b->rank), "%" PRId64, r->rank);
    b->rank_obj = NULL;
    int rc = tokio__darshan_visit_record(b->mod, r, put_line, b);
    b->name = NULL;             /* it pointed into `cols` */
    return rc;
}

/*
 * Whether darshan-parser prints module `mod` at all (the rule of
 * tokio_darshan_write_base()): present, or flagged partial; never NULL,
 * APXC, APMPI, DXT (darshan-dxt-parser's) or ids it does not know.
 */
static int
module_printed(const struct tokio_darshan *log, int mod)
{
    if (tokio_darshan_module_len(log, mod) == 0)
        return tokio_darshan_module_partial(log, mod);
    return mod > TOKIO_DARSHAN_NULL && mod < TOKIO_DARSHAN_KNOWN_MODULES &&
           mod != TOKIO_DARSHAN_APXC && mod != TOKIO_DARSHAN_APMPI &&
           mod != TOKIO_DARSHAN_DXT_POSIX && mod != TOKIO_DARSHAN_DXT_MPIIO;
}

static int
build_base(struct build *b)
{
    const struct tokio_darshan_json_opts *o = b->opts;
    int rc;

    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++) {
        if (!module_printed(b->log, mod))
            continue;
        b->mod = mod;
        module_key(mod, b->mkey, b->prefix, sizeof(b->mkey));
        b->mod_wanted = o->n_modules == 0 ||
                        listed(b->mkey, o->modules, o->n_modules);
        if (!b->mod_wanted)
            continue;
        size_t n = tokio_darshan_record_count(b->log, mod);
        for (size_t i = 0; i < n; i++)
            if ((rc = put_record(b, tokio_darshan_record(b->log, mod,
                                                         i))) < 0)
                return rc;
    }
    return TOKIO_OK;
}

/* ---- --total and --perf ---------------------------------------------- */

/*
 * Whether darshan-parser --total/--perf prints module `mod`'s banner: a
 * flagged partial module, or one it derives figures for (POSIX, MPI-IO,
 * STDIO, DFS, DAOS, as tokio/connectors/darshan.h lists them).
 */
static int
derived_printed(const struct tokio_darshan *log, int mod)
{
    if (tokio_darshan_module_len(log, mod) == 0)
        return tokio_darshan_module_partial(log, mod);
    return mod == TOKIO_DARSHAN_POSIX || mod == TOKIO_DARSHAN_MPIIO ||
           mod == TOKIO_DARSHAN_STDIO || mod == TOKIO_DARSHAN_DFS ||
           mod == TOKIO_DARSHAN_DAOS;
}

/* Set `key` of the module's pseudo-record `rec`; `v` is consumed. */
static int
put_pseudo(struct build *b, const char *rec, const char *key, json_t *v)
{
    json_t *m = v ? child(b->counters, b->mkey) : NULL;
    json_t *r = m ? child(m, rec) : NULL;

    if (r == NULL) {
        json_decref(v);
        return nomem();
    }
    /* the setter consumes `v` even when it fails */
    if (json_object_set_new_nocheck(r, key, v) < 0)
        return nomem();
    return TOKIO_OK;
}

/* "_total": the lines `total_<COUNTER>: <value>`, prefix stripped. */
static int
put_total(struct build *b, const struct tokio_darshan_total *t)
{
    int rc = TOKIO_OK;

    for (size_t i = 0; rc >= 0 && i < t->n_counters; i++) {
        const char *cn = tokio_darshan_counter_name(b->mod, i);
        if (cn != NULL)
            rc = put_pseudo(b, "_total", strip_prefix(b, cn),
                            json_integer(t->counters[i]));
    }
    for (size_t i = 0; rc >= 0 && i < t->n_fcounters; i++) {
        const char *cn = tokio_darshan_fcounter_name(b->mod, i);
        if (cn != NULL)
            rc = put_pseudo(b, "_total", strip_prefix(b, cn),
                            fixed_real(t->fcounters[i]));
    }
    return rc;
}

/*
 * "_perf": the `# key: value` lines of --perf, "unique files:" and
 * "shared files:" lines suffixed "_unique_files" / "_shared_files".  The
 * reference's goldens have no agg_time_by_slowest (its parser dropped
 * the line with the trailing "# seconds" comment), so neither do we.
 */
static int
put_perf(struct build *b, const struct tokio_darshan_perf *p)
{
    int rc;

    if ((rc = put_pseudo(b, "_perf", "total_bytes",
                         json_integer(p->total_bytes))) < 0 ||
        (rc = put_pseudo(b, "_perf", "slowest_rank_io_time_unique_files",
                         fixed_real(p->slowest_rank_io_time))) < 0 ||
        (rc = put_pseudo(b, "_perf",
                         "slowest_rank_meta_only_time_unique_files",
                         fixed_real(p->slowest_rank_meta_only_time))) < 0 ||
        (rc = put_pseudo(b, "_perf",
                         "slowest_rank_rw_only_time_unique_files",
                         fixed_real(p->slowest_rank_rw_only_time))) < 0 ||
        /* printed with %d */
        (rc = put_pseudo(b, "_perf", "slowest_rank_unique_files",
                         json_integer((int)p->slowest_rank))) < 0 ||
        (rc = put_pseudo(b, "_perf", "time_by_slowest_shared_files",
                         fixed_real(p->shared_time_by_slowest))) < 0)
        return rc;
    return put_pseudo(b, "_perf", "agg_perf_by_slowest",
                      fixed_real(p->agg_perf_by_slowest));
}

static int
build_derived(struct build *b, int total, int perf)
{
    int rc;

    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++) {
        /* a partial module without data prints only its banner */
        if (!derived_printed(b->log, mod) ||
            tokio_darshan_module_len(b->log, mod) == 0)
            continue;
        b->mod = mod;
        module_key(mod, b->mkey, b->prefix, sizeof(b->mkey));
        if (total) {
            struct tokio_darshan_total *t = NULL;
            if ((rc = tokio_darshan_totals(b->log, mod, &t)) < 0)
                return rc;
            rc = put_total(b, t);
            tokio_darshan_total_free(t);
            if (rc < 0)
                return rc;
        }
        if (perf) {
            struct tokio_darshan_perf p;
            if ((rc = tokio_darshan_perf(b->log, mod, &p)) < 0 ||
                (rc = put_perf(b, &p)) < 0)
                return rc;
        }
    }
    return TOKIO_OK;
}

/* ---- header and mounts ----------------------------------------------- */

/* ctime() in the local zone without its newline, as darshan-parser's
 * *_time_asci lines show it (the reference stripped the line). */
static json_t *
ctime_string(int64_t t)
{
    static const char days[] = "SunMonTueWedThuFriSat";
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    time_t tt = (time_t)t;
    struct tm tm;
    char buf[64];

    if (localtime_r(&tt, &tm) == NULL || tm.tm_wday < 0 || tm.tm_wday > 6 ||
        tm.tm_mon < 0 || tm.tm_mon > 11)
        return json_string("(null)");
    snprintf(buf, sizeof(buf), "%.3s %.3s%3d %.2d:%.2d:%.2d %d",
             days + 3 * tm.tm_wday, months + 3 * tm.tm_mon, tm.tm_mday,
             tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_year + 1900);
    return json_string(buf);
}

/* Python's str.split() whitespace within ASCII (it also splits on the
 * \x1c-\x1f separators). */
static int
py_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* The `# exe:` line split on whitespace, as the reference kept it. */
static json_t *
exe_words(const char *exe)
{
    json_t *a = json_array();

    for (const char *p = exe; a != NULL && *p;) {
        while (*p && py_space((unsigned char)*p))
            p++;
        const char *w = p;
        while (*p && !py_space((unsigned char)*p))
            p++;
        if (p > w && json_array_append_new(
                         a, json_stringn_nocheck(w, (size_t)(p - w))) < 0) {
            json_decref(a);
            a = NULL;
        }
    }
    return a;
}

/* `s` without leading and trailing whitespace, as a new JSON string. */
static json_t *
stripped(const char *s)
{
    size_t n = strlen(s);

    while (n > 0 && py_space((unsigned char)*s)) {
        s++;
        n--;
    }
    while (n > 0 && py_space((unsigned char)s[n - 1]))
        n--;
    return json_stringn_nocheck(s, n);
}

/*
 * `# run time: %.4f` as the reference read it (the pack's patched
 * int(float())): the 4-decimal text truncated toward zero.
 */
static json_t *
walltime(double t)
{
    char buf[FIXED_MAX];

    snprintf(buf, sizeof(buf), "%.4f", t);
    double d = strtod(buf, NULL);
    if (!isfinite(d))
        return json_string(buf);
    d = trunc(d);
    if (d >= -9.2e18 && d <= 9.2e18)
        return json_integer((json_int_t)d);
    return json_real(d);
}

static json_t *
build_header(const struct tokio_darshan *log)
{
    const struct tokio_darshan_job *j = tokio_darshan_job(log);
    int comp = tokio_darshan_compression(log);
    json_t *exe = exe_words(j->exe);
    json_t *start = ctime_string(j->start_time);
    json_t *end = ctime_string(j->end_time);
    json_t *wall = walltime(tokio_darshan_run_time(log));
    json_t *h = NULL;
    char jobid[24];

    snprintf(jobid, sizeof(jobid), "%" PRId64, j->jobid);
    if (exe != NULL && start != NULL && end != NULL && wall != NULL)
        h = json_pack("{s:s, s:s, s:O, s:I, s:s, s:I, s:O, s:I, s:O, s:I, "
                      "s:O}",
                      "version", tokio_darshan_version(log),
                      "compression", comp >= 0 && comp <= 2
                                         ? comp_names[comp] : "UNKNOWN",
                      "exe", exe,
                      "uid", (json_int_t)j->uid,
                      "jobid", jobid,
                      "start_time", (json_int_t)j->start_time,
                      "start_time_string", start,
                      "end_time", (json_int_t)j->end_time,
                      "end_time_string", end,
                      "nprocs", (json_int_t)j->nprocs,
                      "walltime", wall);
    json_decref(exe);
    json_decref(start);
    json_decref(end);
    json_decref(wall);
    if (h == NULL)
        return NULL;
    if (j->n_metadata == 0)   /* the key comes with the first entry */
        return h;
    json_t *md = json_array();
    if (md == NULL || json_object_set_new(h, "metadata", md) < 0) {
        json_decref(h);
        return NULL;
    }
    for (size_t i = 0; i < j->n_metadata; i++) {
        char *line = NULL;
        size_t len = strlen(j->metadata_keys[i]) +
                     strlen(j->metadata_values[i]) + 4;
        if ((line = tokio__malloc(len)) == NULL) {
            json_decref(h);
            return NULL;
        }
        snprintf(line, len, "%s = %s", j->metadata_keys[i],
                 j->metadata_values[i]);
        int bad = json_array_append_new(md, stripped(line)) < 0;
        free(line);
        if (bad) {
            json_decref(h);
            return NULL;
        }
    }
    return h;
}

static json_t *
build_mounts(const struct tokio_darshan *log)
{
    json_t *m = json_object();
    size_t n = tokio_darshan_mount_count(log);

    /* in table order: a later entry for the same path wins, as in the
     * reference's dict */
    for (size_t i = 0; m != NULL && i < n; i++) {
        const struct tokio_darshan_mount *e = tokio_darshan_mount(log, i);
        if (json_object_set_new_nocheck(m, e->path, stripped(e->type)) < 0) {
            json_decref(m);
            m = NULL;
        }
    }
    return m;
}

/* ---- public ---------------------------------------------------------- */

int
tokio_darshan_to_json(const struct tokio_darshan *log,
                      const struct tokio_darshan_json_opts *opts,
                      json_t **out)
{
    static const struct tokio_darshan_json_opts base_only = { .base = 1 };
    struct build b = { 0 };
    json_t *root = NULL;
    int rc = TOKIO_OK;

    *out = NULL;
    if (log == NULL)
        return tokio__error(TOKIO_EINVAL, "no Darshan log given");
    if (opts == NULL || (!opts->base && !opts->total && !opts->perf))
        opts = &base_only;  /* with the filters, if any */
    b.log = log;
    b.opts = opts;
    if ((root = json_object()) == NULL)
        return nomem();
    if (json_object_set_new(root, "header", build_header(log)) < 0 ||
        json_object_set_new(root, "mounts", build_mounts(log)) < 0) {
        json_decref(root);
        return nomem();
    }
    /* "counters" appears with the first module banner one of the
     * darshan-parser runs prints, even if no record follows */
    for (int mod = 0; mod < TOKIO_DARSHAN_MAX_MODULES; mod++) {
        if ((opts->base && module_printed(log, mod)) ||
            ((opts->total || opts->perf) && derived_printed(log, mod))) {
            b.counters = json_object();
            if (json_object_set_new(root, "counters", b.counters) < 0) {
                json_decref(root);
                return nomem();
            }
            break;
        }
    }
    /* the reference's order: --total, --perf, then --base */
    if (b.counters != NULL && (opts->total || opts->perf))
        rc = build_derived(&b, opts->total, opts->perf);
    if (rc >= 0 && b.counters != NULL && opts->base)
        rc = build_base(&b);
    if (rc < 0) {
        json_decref(root);
        return rc;
    }
    *out = root;
    return TOKIO_OK;
}
