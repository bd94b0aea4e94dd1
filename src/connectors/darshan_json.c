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
 * tokio_darshan_write_json() writes the same text without the tree (the
 * streaming section at the end): what cache-darshan uses, since the tree
 * of a big log is ten times the log's decoded size.
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

#include "connectors/darshan_text.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"

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
 * neither ("N/A", "raid0", "init,prefwr").  The tree and the stream both
 * type values here; a JV_STR points at `text`.
 */
enum jkind { JV_INT, JV_UINT, JV_REAL, JV_STR };

struct jval {
    enum jkind kind;
    int64_t i;
    uint64_t u;
    double d;
    const char *s;
    size_t len;
};

static void
type_text(const char *text, struct jval *out)
{
    char *end;

    if (strchr(text, '.') != NULL) {
        errno = 0;
        double d = strtod(text, &end);
        if (end != text && *end == '\0' && isfinite(d) &&
            strpbrk(text, "xX") == NULL) {
            out->kind = JV_REAL;
            out->d = d;
            return;
        }
    } else if (*text != '\0') {
        errno = 0;
        long long v = strtoll(text, &end, 10);
        if (*end == '\0' && errno == 0 && !isspace((unsigned char)*text)) {
            out->kind = JV_INT;
            out->i = v;
            return;
        }
    }
    out->kind = JV_STR;
    out->s = text;
    out->len = strlen(text);
}

static json_t *
typed_text(const char *text)
{
    struct jval v;

    type_text(text, &v);
    if (v.kind == JV_REAL)
        return json_real(v.d);
    if (v.kind == JV_INT)
        return json_integer(v.i);
    return json_string_nocheck(text);
}

/* A double as darshan-parser printed it ("%f") and the reference read it. */
static json_t *
fixed_real(double v)
{
    if (isfinite(v))
        return json_real(tokio_darshan_printed(v));
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
            if ((rc = b->opts->fold
                           ? tokio_darshan_fold_totals(b->opts->fold, mod, &t)
                           : tokio_darshan_totals(b->log, mod, &t)) < 0)
                return rc;
            rc = put_total(b, t);
            tokio_darshan_total_free(t);
            if (rc < 0)
                return rc;
        }
        if (perf) {
            struct tokio_darshan_perf p;
            if ((rc = b->opts->fold
                           ? tokio_darshan_fold_perf(b->opts->fold, mod, &p)
                           : tokio_darshan_perf(b->log, mod, &p)) < 0 ||
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

/* ---- streaming: the same JSON without the tree ------------------------ */

/*
 * tokio_darshan_write_json() writes what tokio_json_write() would write
 * for tokio_darshan_to_json()'s tree, member by member in sorted order,
 * holding only an index of the records (one small entry each) and one
 * record group's counters at a time.  The records are sorted by module
 * key, name and rank (the strings the tree's keys would be); each
 * group's counter lines are collected, sorted and written.  Everything
 * that can fail on the log's contents (a counter given twice for one
 * record name and rank, --perf's rank check) is checked before the first
 * byte goes out.
 */

/* One base record that passes the filters. */
struct sentry {
    const struct tokio_darshan_record *r;
    const char *name;           /* the tree's key; may be `own` */
    char *own;                  /* a generated name (DAOS object ids) */
    size_t idx;                 /* file order, the last tie-breaker */
    int mod;
    int mkord;                  /* the module key's place in sorted order */
    char rank[24];
};

/* One counter line: offsets into the stream's arenas until sorting. */
struct sline {
    size_t key, klen;           /* offset in the key arena, length */
    const char *kp;             /* the key, once the arena is complete */
    struct jval v;              /* a JV_STR's text: strs + soff */
    size_t soff;
    size_t idx;                 /* collection order */
};

struct stream {
    const struct tokio_darshan *log;
    const struct tokio_darshan_json_opts *opts;
    struct tokio__jstream *js;
    int by_key[TOKIO_DARSHAN_KNOWN_MODULES];    /* modules in key order */
    int mkord[TOKIO_DARSHAN_KNOWN_MODULES];     /* a module's place there */
    char mkeys[TOKIO_DARSHAN_KNOWN_MODULES][32];
    char prefixes[TOKIO_DARSHAN_KNOWN_MODULES][32];
    struct sentry *ents;
    size_t n_ents, cap_ents;
    /* the group being collected */
    int mod;
    size_t plen;
    struct sline *lines;
    size_t n_lines, cap_lines;
    char *keys, *strs;
    size_t n_keys, cap_keys, n_strs, cap_strs;
    size_t *perm;               /* sorted position -> line */
    size_t cap_perm;
    /* the last single-record group's keys and order, reused while the
     * next has the same key list (every record of a module, mostly) */
    char *ckeys;
    size_t n_ckeys, cap_ckeys, c_lines;
    int c_mod;
    size_t *corder;
    size_t cap_corder;
    /* derived figures, computed before writing */
    struct tokio_darshan_total *totals[TOKIO_DARSHAN_KNOWN_MODULES];
    struct tokio_darshan_perf perf[TOKIO_DARSHAN_KNOWN_MODULES];
    int has_derived[TOKIO_DARSHAN_KNOWN_MODULES];
};

/* Grow `*p` (of `*cap` items of `size`) to hold `need`. */
static int
grow_to(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return TOKIO_OK;
    size_t c = *cap ? *cap : 64;
    while (c < need) {
        if (c > SIZE_MAX / 2 / size)
            return nomem();
        c *= 2;
    }
    void *q = tokio__realloc(*p, c * size);
    if (q == NULL)
        return nomem();
    *p = q;
    *cap = c;
    return TOKIO_OK;
}

static int
arena_add(char **a, size_t *n, size_t *cap, const char *s, size_t len,
          size_t *off)
{
    int rc = grow_to((void **)a, cap, *n + len + 1, 1);

    if (rc < 0)
        return rc;
    memcpy(*a + *n, s, len);
    (*a)[*n + len] = '\0';
    *off = *n;
    *n += len + 1;
    return TOKIO_OK;
}

static int
counter_wanted(const struct stream *st, const char *counter)
{
    const struct tokio_darshan_json_opts *o = st->opts;

    return o->n_counters == 0 || listed(counter, o->counters, o->n_counters);
}

/* A line's value from the visitor's, typed as put_line() types it. */
static void
line_value(const struct tokio__darshan_value *v, struct jval *out,
           char *buf, size_t size)
{
    switch (v->kind) {
    case TOKIO__DARSHAN_INT:
        out->kind = JV_INT;
        out->i = v->v.i;
        return;
    case TOKIO__DARSHAN_UINT:
        out->kind = JV_UINT;
        out->u = v->v.u;
        return;
    case TOKIO__DARSHAN_DOUBLE:
        if (isfinite(v->v.d)) {
            out->d = tokio_darshan_printed(v->v.d);
            out->kind = JV_REAL;
            return;
        }
        snprintf(buf, size, "%f", v->v.d);
        type_text(buf, out);
        return;
    case TOKIO__DARSHAN_STRING:
        type_text(v->v.s, out);
        return;
    }
    out->kind = JV_STR;         /* not reached */
    out->s = "";
    out->len = 0;
}

/* Visitor callback: append one line of the group. */
static int
collect_line(void *payload, const char *counter,
             const struct tokio__darshan_value *v)
{
    struct stream *st = payload;
    char buf[FIXED_MAX];
    int rc;

    if (strncmp(counter, st->prefixes[st->mod], st->plen) == 0)
        counter += st->plen;
    if (!counter_wanted(st, counter))
        return TOKIO_OK;
    if ((rc = grow_to((void **)&st->lines, &st->cap_lines, st->n_lines + 1,
                      sizeof(*st->lines))) < 0)
        return rc;
    struct sline *l = &st->lines[st->n_lines];
    l->klen = strlen(counter);
    if ((rc = arena_add(&st->keys, &st->n_keys, &st->cap_keys, counter,
                        l->klen, &l->key)) < 0)
        return rc;
    line_value(v, &l->v, buf, sizeof(buf));
    if (l->v.kind == JV_STR &&
        (rc = arena_add(&st->strs, &st->n_strs, &st->cap_strs, l->v.s,
                        l->v.len, &l->soff)) < 0)
        return rc;
    l->idx = st->n_lines++;
    return TOKIO_OK;
}

static int
cmp_line(const void *a, const void *b)
{
    const struct sline *x = a, *y = b;
    int c = strcmp(x->kp, y->kp);

    if (c != 0)
        return c;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Collect the lines of entries [a, b) (one module, name and rank) into
 * st->lines in key order, st->perm giving the order.  Fails with
 * TOKIO_EFORMAT when two lines have the same key, as the reference did.
 */
static int
collect_group(struct stream *st, size_t a, size_t b)
{
    const struct sentry *e = &st->ents[a];
    int rc;

    st->mod = e->mod;
    st->plen = strlen(st->prefixes[e->mod]);
    st->n_lines = st->n_keys = st->n_strs = 0;
    for (size_t i = a; i < b; i++)
        if ((rc = tokio__darshan_visit_record(e->mod, st->ents[i].r,
                                              collect_line, st)) < 0)
            return rc;
    size_t n = st->n_lines;
    for (size_t i = 0; i < n; i++) {
        struct sline *l = &st->lines[i];
        l->kp = st->keys + l->key;
        if (l->v.kind == JV_STR)
            l->v.s = st->strs + l->soff;
    }
    if ((rc = grow_to((void **)&st->perm, &st->cap_perm, n + 1,
                      sizeof(*st->perm))) < 0)
        return rc;
    if (b - a == 1 && n > 0 && st->c_mod == e->mod && st->c_lines == n &&
        st->n_ckeys == st->n_keys &&
        memcmp(st->ckeys, st->keys, st->n_keys) == 0) {
        memcpy(st->perm, st->corder, n * sizeof(*st->perm));
        return TOKIO_OK;
    }
    if (n > 1)
        qsort(st->lines, n, sizeof(*st->lines), cmp_line);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(st->lines[i - 1].kp, st->lines[i].kp) == 0)
            /* the reference raised "Duplicate counter" here too */
            return tokio__error(TOKIO_EFORMAT, "'%s': %s record '%s' rank "
                                "%s has counter %s twice",
                                tokio_darshan_logname(st->log),
                                st->mkeys[e->mod], e->name, e->rank,
                                st->lines[i].kp);
        st->perm[i] = i;        /* the lines themselves are sorted now */
    }
    /* the next group with these keys gets its lines in insertion order:
     * keep which insertion index each sorted position holds.  The cache
     * is optional (a failure only loses the shortcut), so it bypasses
     * the tokio__ allocators and their failure injection, as json.c's */
    if (b - a != 1 || n == 0)
        return TOKIO_OK;
    st->c_mod = -1;
    if (st->cap_corder < n) {
        size_t *o = realloc(st->corder, n * sizeof(*o));
        if (o == NULL)
            return TOKIO_OK;
        st->corder = o;
        st->cap_corder = n;
    }
    if (st->cap_ckeys < st->n_keys) {
        char *k = realloc(st->ckeys, st->n_keys);
        if (k == NULL)
            return TOKIO_OK;
        st->ckeys = k;
        st->cap_ckeys = st->n_keys;
    }
    for (size_t i = 0; i < n; i++)
        st->corder[i] = st->lines[i].idx;
    memcpy(st->ckeys, st->keys, st->n_keys);
    st->n_ckeys = st->n_keys;
    st->c_lines = n;
    st->c_mod = e->mod;
    return TOKIO_OK;
}

/* Visitor callback of has_line(): stop at the first wanted counter. */
#define FOUND_LINE (-100)

static int
find_line(void *payload, const char *counter,
          const struct tokio__darshan_value *v)
{
    struct stream *st = payload;

    (void)v;
    if (strncmp(counter, st->prefixes[st->mod], st->plen) == 0)
        counter += st->plen;
    return counter_wanted(st, counter) ? FOUND_LINE : TOKIO_OK;
}

/* Whether record `r` of module `mod` gives a counter the filters keep
 * (the tree makes a record's objects with its first such counter). */
static int
has_line(struct stream *st, int mod, const struct tokio_darshan_record *r)
{
    st->mod = mod;
    st->plen = strlen(st->prefixes[mod]);
    return tokio__darshan_visit_record(mod, r, find_line, st) == FOUND_LINE;
}

static int
same_group(const struct sentry *x, const struct sentry *y)
{
    return x->mod == y->mod && strcmp(x->name, y->name) == 0 &&
           strcmp(x->rank, y->rank) == 0;
}

static int
cmp_entry(const void *a, const void *b)
{
    const struct sentry *x = a, *y = b;
    int c;

    if (x->mkord != y->mkord)
        return x->mkord - y->mkord;
    if ((c = strcmp(x->name, y->name)) != 0 ||
        (c = strcmp(x->rank, y->rank)) != 0)
        return c;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Index the base records the options keep, sorted as the keys go out;
 * groups of several records under one name and rank are checked for
 * repeated counters now, before anything is written. */
static int
index_records(struct stream *st)
{
    const struct tokio_darshan_json_opts *o = st->opts;
    int rc;

    for (int mod = 0; o->base && mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++) {
        if (!module_printed(st->log, mod) ||
            (o->n_modules > 0 && !listed(st->mkeys[mod], o->modules,
                                         o->n_modules)))
            continue;
        size_t n = tokio_darshan_record_count(st->log, mod);
        for (size_t i = 0; i < n; i++) {
            const struct tokio_darshan_record *r =
                tokio_darshan_record(st->log, mod, i);
            if (!has_line(st, mod, r))
                continue;
            if ((rc = grow_to((void **)&st->ents, &st->cap_ents,
                              st->n_ents + 1, sizeof(*st->ents))) < 0)
                return rc;
            struct sentry *e = &st->ents[st->n_ents];
            struct tokio__darshan_columns cols;
            tokio__darshan_record_columns(st->log, mod, r, &cols);
            e->own = NULL;
            e->name = cols.name;
            if (cols.name == cols.name_buf) {
                if ((e->own = tokio__strdup(cols.name_buf)) == NULL)
                    return nomem();
                e->name = e->own;
            }
            e->r = r;
            e->idx = st->n_ents++;
            e->mod = mod;
            e->mkord = st->mkord[mod];
            snprintf(e->rank, sizeof(e->rank), "%" PRId64, r->rank);
        }
    }
    if (st->n_ents > 1)
        qsort(st->ents, st->n_ents, sizeof(*st->ents), cmp_entry);
    for (size_t a = 0, b; a < st->n_ents; a = b) {
        for (b = a + 1; b < st->n_ents && same_group(&st->ents[a],
                                                     &st->ents[b]); b++)
            ;
        if (b - a > 1 && (rc = collect_group(st, a, b)) < 0)
            return rc;
    }
    return TOKIO_OK;
}

/* --total and --perf of every module that prints them, before writing. */
static int
derive_all(struct stream *st)
{
    const struct tokio_darshan_json_opts *o = st->opts;
    int rc;

    if (!o->total && !o->perf)
        return TOKIO_OK;
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++) {
        /* a partial module without data prints only its banner */
        if (!derived_printed(st->log, mod) ||
            tokio_darshan_module_len(st->log, mod) == 0)
            continue;
        st->has_derived[mod] = 1;
        if (o->total &&
            (rc = o->fold ? tokio_darshan_fold_totals(o->fold, mod,
                                                      &st->totals[mod])
                          : tokio_darshan_totals(st->log, mod,
                                                 &st->totals[mod])) < 0)
            return rc;
        if (o->perf &&
            (rc = o->fold ? tokio_darshan_fold_perf(o->fold, mod,
                                                    &st->perf[mod])
                          : tokio_darshan_perf(st->log, mod,
                                               &st->perf[mod])) < 0)
            return rc;
    }
    return TOKIO_OK;
}

static void
put_value(struct tokio__jstream *js, const struct jval *v)
{
    switch (v->kind) {
    case JV_INT:
        tokio__jstream_int(js, v->i);
        break;
    case JV_UINT:
        tokio__jstream_uint(js, v->u);
        break;
    case JV_REAL:
        tokio__jstream_real(js, v->d);
        break;
    case JV_STR:
        tokio__jstream_string(js, v->s, v->len);
        break;
    }
}

/* Write the collected lines in st->perm's order. */
static void
put_lines(struct stream *st)
{
    for (size_t k = 0; k < st->n_lines; k++) {
        const struct sline *l = &st->lines[st->perm[k]];
        tokio__jstream_key(st->js, l->kp, l->klen);
        put_value(st->js, &l->v);
    }
}

/* Add a pseudo-record line (key and string value copied). */
static int
add_line(struct stream *st, const char *key, const struct jval *v)
{
    int rc = grow_to((void **)&st->lines, &st->cap_lines, st->n_lines + 1,
                     sizeof(*st->lines));

    if (rc < 0)
        return rc;
    struct sline *l = &st->lines[st->n_lines];
    l->klen = strlen(key);
    if ((rc = arena_add(&st->keys, &st->n_keys, &st->cap_keys, key, l->klen,
                        &l->key)) < 0)
        return rc;
    l->v = *v;
    if (v->kind == JV_STR &&
        (rc = arena_add(&st->strs, &st->n_strs, &st->cap_strs, v->s, v->len,
                        &l->soff)) < 0)
        return rc;
    l->idx = st->n_lines++;
    return TOKIO_OK;
}

static void
real_value(double d, struct jval *v, char *buf, size_t size)
{
    struct tokio__darshan_value dv = { .kind = TOKIO__DARSHAN_DOUBLE };

    dv.v.d = d;
    line_value(&dv, v, buf, size);
}

/*
 * Write "_total" or "_perf" of module `mod`: the members put_total() and
 * put_perf() set (a key set twice keeps its last value, as there).
 */
static int
put_pseudo_stream(struct stream *st, int mod, int perf)
{
    static const char *const perf_keys[] = {
        "total_bytes", "slowest_rank_io_time_unique_files",
        "slowest_rank_meta_only_time_unique_files",
        "slowest_rank_rw_only_time_unique_files",
        "slowest_rank_unique_files", "time_by_slowest_shared_files",
        "agg_perf_by_slowest",
    };
    size_t plen = strlen(st->prefixes[mod]);
    char buf[FIXED_MAX];
    struct jval v = { 0 };
    int rc = TOKIO_OK;

    st->n_lines = st->n_keys = st->n_strs = 0;
    if (perf) {
        const struct tokio_darshan_perf *p = &st->perf[mod];
        const double reals[] = {
            0, p->slowest_rank_io_time, p->slowest_rank_meta_only_time,
            p->slowest_rank_rw_only_time, 0, p->shared_time_by_slowest,
            p->agg_perf_by_slowest,
        };
        for (size_t i = 0; rc >= 0 && i < 7; i++) {
            if (i == 0 || i == 4) {
                v.kind = JV_INT;
                /* slowest_rank is printed with %d */
                v.i = i == 0 ? p->total_bytes : (int)p->slowest_rank;
            } else {
                real_value(reals[i], &v, buf, sizeof(buf));
            }
            rc = add_line(st, perf_keys[i], &v);
        }
    } else {
        const struct tokio_darshan_total *t = st->totals[mod];
        for (size_t i = 0; rc >= 0 && i < t->n_counters; i++) {
            const char *cn = tokio_darshan_counter_name(mod, i);
            if (cn == NULL)
                continue;
            v.kind = JV_INT;
            v.i = t->counters[i];
            rc = add_line(st, strncmp(cn, st->prefixes[mod], plen) == 0
                                  ? cn + plen : cn, &v);
        }
        for (size_t i = 0; rc >= 0 && i < t->n_fcounters; i++) {
            const char *cn = tokio_darshan_fcounter_name(mod, i);
            if (cn == NULL)
                continue;
            real_value(t->fcounters[i], &v, buf, sizeof(buf));
            rc = add_line(st, strncmp(cn, st->prefixes[mod], plen) == 0
                                  ? cn + plen : cn, &v);
        }
    }
    if (rc < 0)
        return rc;
    size_t n = st->n_lines;
    for (size_t i = 0; i < n; i++) {
        struct sline *l = &st->lines[i];
        l->kp = st->keys + l->key;
        if (l->v.kind == JV_STR)
            l->v.s = st->strs + l->soff;
    }
    if (n > 1)
        qsort(st->lines, n, sizeof(*st->lines), cmp_line);
    for (size_t i = 0; i < n; i++)
        if (i + 1 == n || strcmp(st->lines[i].kp, st->lines[i + 1].kp) != 0) {
            tokio__jstream_key(st->js, st->lines[i].kp, st->lines[i].klen);
            put_value(st->js, &st->lines[i].v);
        }
    return TOKIO_OK;
}

/* Write module `mod`'s members: its records' names (entries [a, b)) and
 * "_perf" / "_total", merged in key order. */
static int
put_module_stream(struct stream *st, int mod, size_t a, size_t b)
{
    const char *pseudo[2];
    size_t np = 0, j = 0;
    int rc;

    if (st->has_derived[mod] && st->opts->perf)
        pseudo[np++] = "_perf";
    if (st->has_derived[mod] && st->opts->total)
        pseudo[np++] = "_total";
    while (a < b || j < np) {
        const char *name = a < b ? st->ents[a].name : NULL;
        if (name == NULL || (j < np && strcmp(pseudo[j], name) < 0))
            name = pseudo[j];
        tokio__jstream_key(st->js, name, strlen(name));
        tokio__jstream_begin(st->js);
        /* ranks ("-1", "0", ...) sort before the pseudo-records' keys,
         * which are letters: a record named "_total" merges first */
        while (a < b && strcmp(st->ents[a].name, name) == 0) {
            size_t e = a + 1;
            while (e < b && same_group(&st->ents[a], &st->ents[e]))
                e++;
            if ((rc = collect_group(st, a, e)) < 0)
                return rc;
            tokio__jstream_key(st->js, st->ents[a].rank,
                               strlen(st->ents[a].rank));
            tokio__jstream_begin(st->js);
            put_lines(st);
            tokio__jstream_end(st->js);
            a = e;
        }
        if (j < np && strcmp(pseudo[j], name) == 0 &&
            (rc = put_pseudo_stream(st, mod, pseudo[j++][1] == 'p')) < 0)
            return rc;
        tokio__jstream_end(st->js);
    }
    return TOKIO_OK;
}

static void
stream_free(struct stream *st)
{
    for (size_t i = 0; i < st->n_ents; i++)
        free(st->ents[i].own);
    free(st->ents);
    free(st->lines);
    free(st->keys);
    free(st->strs);
    free(st->perm);
    free(st->ckeys);
    free(st->corder);
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++)
        tokio_darshan_total_free(st->totals[mod]);
}

/* Whether the tree has "counters" (tokio_darshan_to_json()'s rule). */
static int
has_counters(const struct tokio_darshan *log,
             const struct tokio_darshan_json_opts *opts)
{
    for (int mod = 0; mod < TOKIO_DARSHAN_MAX_MODULES; mod++)
        if ((opts->base && module_printed(log, mod)) ||
            ((opts->total || opts->perf) && derived_printed(log, mod)))
            return 1;
    return 0;
}

static int
write_stream(struct stream *st, FILE *fp, unsigned flags, json_t *header,
             json_t *mounts)
{
    int rc = TOKIO_OK;

    if ((st->js = tokio__jstream_open(fp, flags)) == NULL)
        return TOKIO_ENOMEM;
    tokio__jstream_begin(st->js);
    if (has_counters(st->log, st->opts)) {
        tokio__jstream_key(st->js, "counters", 8);
        tokio__jstream_begin(st->js);
        size_t a = 0;
        for (int k = 0; rc >= 0 && k < TOKIO_DARSHAN_KNOWN_MODULES; k++) {
            int mod = st->by_key[k];
            size_t b = a;
            while (b < st->n_ents && st->ents[b].mod == mod)
                b++;
            if (rc >= 0 && (b > a || st->has_derived[mod])) {
                tokio__jstream_key(st->js, st->mkeys[mod],
                                   strlen(st->mkeys[mod]));
                tokio__jstream_begin(st->js);
                rc = put_module_stream(st, mod, a, b);
                tokio__jstream_end(st->js);
            }
            a = b;
        }
        tokio__jstream_end(st->js);
    }
    if (rc < 0) {
        tokio__jstream_close(st->js);
        st->js = NULL;
        return rc;
    }
    tokio__jstream_key(st->js, "header", 6);
    tokio__jstream_value(st->js, header);
    tokio__jstream_key(st->js, "mounts", 6);
    tokio__jstream_value(st->js, mounts);
    tokio__jstream_end(st->js);
    int crc = tokio__jstream_close(st->js);
    st->js = NULL;
    return rc < 0 ? rc : crc;
}

int
tokio_darshan_write_json(const struct tokio_darshan *log,
                         const struct tokio_darshan_json_opts *opts,
                         FILE *fp, unsigned flags)
{
    static const struct tokio_darshan_json_opts base_only = { .base = 1 };
    struct stream st = { 0 };
    json_t *header = NULL, *mounts = NULL;
    int rc;

    if (log == NULL || fp == NULL)
        return tokio__error(TOKIO_EINVAL, "no Darshan log or no file given");
    if (opts == NULL || (!opts->base && !opts->total && !opts->perf))
        opts = &base_only;  /* with the filters, if any */
    st.log = log;
    st.opts = opts;
    st.c_mod = -1;
    /* module keys, and their sorted order (insertion sort of 18) */
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++) {
        module_key(mod, st.mkeys[mod], st.prefixes[mod],
                   sizeof(st.mkeys[mod]));
        int k = mod;
        while (k > 0 && strcmp(st.mkeys[st.by_key[k - 1]],
                               st.mkeys[mod]) > 0) {
            st.by_key[k] = st.by_key[k - 1];
            k--;
        }
        st.by_key[k] = mod;
    }
    for (int k = 0; k < TOKIO_DARSHAN_KNOWN_MODULES; k++)
        st.mkord[st.by_key[k]] = k;
    if ((header = build_header(log)) == NULL ||
        (mounts = build_mounts(log)) == NULL)
        rc = nomem();
    else if ((rc = derive_all(&st)) >= 0 && (rc = index_records(&st)) >= 0)
        rc = write_stream(&st, fp, flags | TOKIO_JSON_SORT_KEYS, header,
                          mounts);
    json_decref(header);
    json_decref(mounts);
    stream_free(&st);
    return rc;
}
