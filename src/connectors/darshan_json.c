/*
 * src/connectors/darshan_json.c - a Darshan log as the JSON of the
 * reference's tokio.connectors.darshan.Darshan (what cache_darshan prints).
 *
 * The reference ran darshan-parser 3.5.0 and typed each value of its text
 * by a rule ("." in it: float(), else int(), else kept as the string).
 * Here every line darshan-parser --base would print for a record (walked
 * by tokio__darshan_visit_record(), the visitor that prints --base)
 * becomes one counter, typed as the reference typed its text.  Nothing is
 * printed and re-read; a double is rounded through "%f" only because that
 * rounding is the value the reference stored (tokio_darshan_printed()).
 *
 * One emitter makes the JSON, in sorted key order, member by member,
 * holding an index of the records (one small entry each) and one record
 * group's counters at a time.  tokio_darshan_write_json() writes what it
 * emits as it comes (cache-darshan); tokio_darshan_to_json() gathers it
 * into a jansson tree (tokio_load_darshanlogs()).  Written, not built:
 * the tree of a big log is ten times the log's decoded size, and building
 * it and writing it takes seven times as long (cache-darshan --base of a
 * 12 MB log of 262,000 POSIX records, 980 MB of JSON: 1.4 s written as
 * made, 4.1 + 6.9 s as a tree); and logs of any size must stream.
 * The records come from the log, or from a spool (tokio_darshan_spool_*):
 * a temporary file they were written to as the log was decoded, read
 * back one record at a time in the JSON's order, so that cache-darshan
 * never holds a log's records (1.07 GB for a million, 62 MB now).
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

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "connectors/darshan_text.h"
#include "core/alloc.h"
#include "core/beside.h"
#include "core/error.h"
#include "core/json.h"
#include "core/text.h"
#include "tokio/output.h"

/* darshan-util's compression names, by enum tokio_darshan_compression. */
static const char *const comp_names[] = { "ZLIB", "BZIP2", "NONE" };

/* "%f" of the largest double is 309 digits, a point and 6 decimals. */
#define FIXED_MAX 400

/* Objects nest at most: root, counters, module, record, rank. */
#define MAX_DEPTH 8

static int
nomem(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory building Darshan "
                        "JSON");
}

/* ---- values: the reference's typing of darshan-parser's text --------- */

enum jkind { JV_INT, JV_UINT, JV_REAL, JV_STR };

struct jval {
    enum jkind kind;
    int64_t i;
    uint64_t u;
    double d;
    const char *s;              /* JV_STR: len bytes */
    size_t len;
};

/*
 * Text the way the reference read it: with a '.' Python's float(), else
 * its int(), and (as its goldens show) the string itself when that fails
 * ("N/A", "raid0", "init,prefwr").  A JV_STR points at `text`.
 */
static void
type_text(const char *text, struct jval *out)
{
    size_t len = strlen(text);

    if (strchr(text, '.') != NULL ? tokio__py_float(text, len, &out->d) &&
                                        isfinite(out->d)
                                  : tokio__py_int(text, len, &out->i)) {
        out->kind = strchr(text, '.') != NULL ? JV_REAL : JV_INT;
        return;
    }
    out->kind = JV_STR;
    out->s = text;
    out->len = len;
}

/* A line's value from the visitor's, typed as the reference typed the
 * text darshan-parser printed for it; `buf` holds a JV_STR's text. */
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
            out->kind = JV_REAL;
            out->d = tokio_darshan_printed(v->v.d);
            return;
        }
        snprintf(buf, size, "%f", v->v.d);      /* "inf", "-nan" */
        out->kind = JV_STR;
        out->s = buf;
        out->len = strlen(buf);
        return;
    case TOKIO__DARSHAN_STRING:
        /* "N/A", "raid0" stay strings; a flags "0" or a numeric pool
         * name became a number in the reference */
        type_text(v->v.s, out);
        return;
    }
}

static json_t *
jval_json(const struct jval *v)
{
    switch (v->kind) {
    case JV_INT:
        return json_integer(v->i);
    case JV_UINT:
        return tokio_json_uint64(v->u);
    case JV_REAL:
        return json_real(v->d);
    case JV_STR:
        break;
    }
    return json_stringn_nocheck(v->s, v->len);
}

/* ---- where the JSON goes: a stream, or a tree ------------------------- */

/*
 * Where the JSON goes: written as it comes (js), or built as a tree whose
 * root, stack[0], holds every object opened so far; the others on the
 * stack are borrowed from their parents.  A member that could not be
 * added is a NULL entry, into which jansson adds nothing.
 */
struct out {
    struct tokio__jstream *js;
    json_t *stack[MAX_DEPTH];
    int depth;
    const char *key;            /* the next member's */
    int oom;
};

/* Put `v` (a new reference, consumed) under the pending key. */
static int
tree_put(struct out *o, json_t *v)
{
    if (v != NULL &&
        json_object_set_new_nocheck(o->stack[o->depth - 1], o->key, v) == 0)
        return 1;
    o->oom = 1;
    return 0;
}

static void
out_begin(struct out *o)
{
    if (o->js != NULL) {
        tokio__jstream_begin(o->js);
        return;
    }
    json_t *obj = json_object();
    if (obj == NULL)
        o->oom = 1;
    else if (o->depth > 0 && !tree_put(o, obj))
        obj = NULL;             /* released by jansson */
    o->stack[o->depth++] = obj;
}

static void
out_end(struct out *o)
{
    if (o->js != NULL)
        tokio__jstream_end(o->js);
    else
        o->depth--;
}

/* The next member's key: `len` bytes at `key`, NUL-terminated. */
static void
out_key(struct out *o, const char *key, size_t len)
{
    if (o->js != NULL)
        tokio__jstream_key(o->js, key, len);
    else
        o->key = key;
}

static void
out_jval(struct out *o, const struct jval *v)
{
    if (o->js == NULL) {
        tree_put(o, jval_json(v));
        return;
    }
    switch (v->kind) {
    case JV_INT:
        tokio__jstream_int(o->js, v->i);
        break;
    case JV_UINT:
        tokio__jstream_uint(o->js, v->u);
        break;
    case JV_REAL:
        tokio__jstream_real(o->js, v->d);
        break;
    case JV_STR:
        tokio__jstream_string(o->js, v->s, v->len);
        break;
    }
}

/* A value made as a tree (borrowed: the tree takes a reference). */
static void
out_value(struct out *o, json_t *v)
{
    if (o->js != NULL)
        tokio__jstream_value(o->js, v);
    else
        tree_put(o, json_incref(v));
}


/* ---- header and mounts ----------------------------------------------- */

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

/* A *_time_asci line's ctime() without its newline, as the reference
 * stripped it. */
static json_t *
ctime_string(int64_t t)
{
    char buf[64];

    return json_string(tokio__darshan_ctime(t, buf, sizeof(buf))
                           ? buf : "(null)");
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

/* ---- the emitter's state ---------------------------------------------- */

/* One base record that passes the filters: tens of bytes, as a log of
 * a million records has a million of them. */
struct sentry {
    const char *name;           /* its key: the log's name table, a
                                   literal, or an index's own copy */
    uint64_t pos;               /* the record's place in its module (a
                                   log's records) or in the spool's file:
                                   file order, the last tie-breaker */
    int64_t rank;
    int kord;                   /* its module key's place in key order */
};

/* The base records the options keep, sorted as their keys go out. */
struct index {
    struct sentry *ents;
    size_t n_ents, cap_ents;
    char **owned;               /* generated names (DAOS object ids) */
    size_t n_owned, cap_owned;
};

/* One counter line: offsets into the arenas until the group is whole. */
struct sline {
    size_t key, klen;           /* offset in the key arena, length */
    const char *kp;             /* the key, once the arena is complete */
    struct jval v;              /* a JV_STR's text: strs + soff */
    size_t soff;
    size_t idx;                 /* collection order */
};

struct emit {
    const struct tokio_darshan *log;
    const struct tokio_darshan_json_opts *opts;
    struct out *out;
    int by_key[TOKIO_DARSHAN_KNOWN_MODULES];    /* modules in key order */
    int mkord[TOKIO_DARSHAN_KNOWN_MODULES];     /* a module's place there */
    char mkeys[TOKIO_DARSHAN_KNOWN_MODULES][32];        /* "mpiio" */
    char prefixes[TOKIO_DARSHAN_KNOWN_MODULES][32];     /* "MPIIO_" */
    /* the records: the log's (own) or a spool's */
    struct index own, *ix;
    struct sentry *ents;        /* ix->ents, once sorted */
    size_t n_ents;
    struct tokio_darshan_spool *spool;
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
     * next has the same key list (every record of a module, mostly):
     * sorting each record's hundred counters would double the time */
    char *ckeys;
    size_t n_ckeys, cap_ckeys, c_lines;
    int c_mod;
    size_t *corder;
    size_t cap_corder;
    /* "_total" and "_perf" per module, made before anything is written */
    json_t *derived[TOKIO_DARSHAN_KNOWN_MODULES][2];
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
listed(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] != NULL && strcmp(list[i], s) == 0)
            return 1;
    return 0;
}

static int
counter_wanted(const struct emit *e, const char *counter)
{
    const struct tokio_darshan_json_opts *o = e->opts;

    return o->n_counters == 0 || listed(counter, o->counters, o->n_counters);
}

/* `counter` without the prefix of the module being collected. */
static const char *
strip_prefix(const struct emit *e, const char *counter)
{
    return strncmp(counter, e->prefixes[e->mod], e->plen) == 0
               ? counter + e->plen : counter;
}

/* darshan-parser's module names without '-' and '/': lower-cased the
 * module keys, with '_' the counter prefixes; and the keys' order. */
static void
module_keys(struct emit *e)
{
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++) {
        size_t k = 0;
        for (const char *p = tokio_darshan_module_name(mod); *p; p++) {
            if (*p == '-' || *p == '/')
                continue;
            e->prefixes[mod][k] = *p;
            e->mkeys[mod][k++] = (char)tolower((unsigned char)*p);
        }
        e->mkeys[mod][k] = '\0';
        memcpy(e->prefixes[mod] + k, "_", 2);
        /* insertion sort of 18 */
        int at = mod;
        while (at > 0 && strcmp(e->mkeys[e->by_key[at - 1]],
                                e->mkeys[mod]) > 0) {
            e->by_key[at] = e->by_key[at - 1];
            at--;
        }
        e->by_key[at] = mod;
    }
    for (int k = 0; k < TOKIO_DARSHAN_KNOWN_MODULES; k++)
        e->mkord[e->by_key[k]] = k;
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

/* ---- "_total" and "_perf" --------------------------------------------- */

/* A double as darshan-parser printed it ("%f") and the reference read it. */
static json_t *
fixed_real(double v)
{
    struct tokio__darshan_value dv = { .kind = TOKIO__DARSHAN_DOUBLE };
    char buf[FIXED_MAX];
    struct jval j;

    dv.v.d = v;
    line_value(&dv, &j, buf, sizeof(buf));
    return jval_json(&j);
}

/* Set `key` of `obj`, consuming `v`; a key set twice keeps the last. */
static int
put(json_t *obj, const char *key, json_t *v)
{
    return json_object_set_new_nocheck(obj, key, v) < 0 ? nomem() : TOKIO_OK;
}

/* "_total": the lines `total_<COUNTER>: <value>`, prefix stripped. */
static int
make_total(struct emit *e, int mod, json_t *obj)
{
    struct tokio_darshan_total *t = NULL;
    const struct tokio_darshan_json_opts *o = e->opts;
    int rc = o->fold ? tokio_darshan_fold_totals(o->fold, mod, &t)
                     : tokio_darshan_totals(e->log, mod, &t);

    for (size_t i = 0; rc >= 0 && i < t->n_counters; i++)
        rc = put(obj, strip_prefix(e, tokio_darshan_counter_name(mod, i)),
                 json_integer(t->counters[i]));
    for (size_t i = 0; rc >= 0 && i < t->n_fcounters; i++)
        rc = put(obj, strip_prefix(e, tokio_darshan_fcounter_name(mod, i)),
                 fixed_real(t->fcounters[i]));
    tokio_darshan_total_free(t);
    return rc;
}

/*
 * "_perf": the `# key: value` lines of --perf, "unique files:" and
 * "shared files:" lines suffixed "_unique_files" / "_shared_files".  The
 * reference's goldens have no agg_time_by_slowest (its parser dropped
 * the line with the trailing "# seconds" comment), so neither do we.
 */
static int
make_perf(struct emit *e, int mod, json_t *obj)
{
    const struct tokio_darshan_json_opts *o = e->opts;
    struct tokio_darshan_perf p;
    int rc = o->fold ? tokio_darshan_fold_perf(o->fold, mod, &p)
                     : tokio_darshan_perf(e->log, mod, &p);

    if (rc < 0 ||
        (rc = put(obj, "total_bytes", json_integer(p.total_bytes))) < 0 ||
        (rc = put(obj, "slowest_rank_io_time_unique_files",
                  fixed_real(p.slowest_rank_io_time))) < 0 ||
        (rc = put(obj, "slowest_rank_meta_only_time_unique_files",
                  fixed_real(p.slowest_rank_meta_only_time))) < 0 ||
        (rc = put(obj, "slowest_rank_rw_only_time_unique_files",
                  fixed_real(p.slowest_rank_rw_only_time))) < 0 ||
        /* printed with %d */
        (rc = put(obj, "slowest_rank_unique_files",
                  json_integer((int)p.slowest_rank))) < 0 ||
        (rc = put(obj, "time_by_slowest_shared_files",
                  fixed_real(p.shared_time_by_slowest))) < 0)
        return rc;
    return put(obj, "agg_perf_by_slowest",
               fixed_real(p.agg_perf_by_slowest));
}

/* --total and --perf of every module that prints them, before writing:
 * derived[mod][0] is "_perf", [1] "_total" (their key order). */
static int
derive_all(struct emit *e)
{
    const struct tokio_darshan_json_opts *o = e->opts;
    int rc;

    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++) {
        /* a partial module without data prints only its banner */
        if (!derived_printed(e->log, mod) ||
            tokio_darshan_module_len(e->log, mod) == 0)
            continue;
        e->mod = mod;
        e->plen = strlen(e->prefixes[mod]);
        for (int k = 0; k < 2; k++) {
            if (!(k == 0 ? o->perf : o->total))
                continue;
            if ((e->derived[mod][k] = json_object()) == NULL)
                return nomem();
            rc = k == 0 ? make_perf(e, mod, e->derived[mod][k])
                        : make_total(e, mod, e->derived[mod][k]);
            if (rc < 0)
                return rc;
        }
    }
    return TOKIO_OK;
}

/* ---- base records ------------------------------------------------------ */

/* Visitor callback: append one line of the group. */
static int
collect_line(void *payload, const char *counter,
             const struct tokio__darshan_value *v)
{
    struct emit *e = payload;
    char buf[FIXED_MAX];
    int rc;

    counter = strip_prefix(e, counter);
    if (!counter_wanted(e, counter))
        return TOKIO_OK;
    if ((rc = grow_to((void **)&e->lines, &e->cap_lines, e->n_lines + 1,
                      sizeof(*e->lines))) < 0)
        return rc;
    struct sline *l = &e->lines[e->n_lines];
    l->klen = strlen(counter);
    if ((rc = arena_add(&e->keys, &e->n_keys, &e->cap_keys, counter,
                        l->klen, &l->key)) < 0)
        return rc;
    line_value(v, &l->v, buf, sizeof(buf));
    if (l->v.kind == JV_STR &&
        (rc = arena_add(&e->strs, &e->n_strs, &e->cap_strs, l->v.s,
                        l->v.len, &l->soff)) < 0)
        return rc;
    l->idx = e->n_lines++;
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

/* Keep group [a, b)'s key order for the next group with the same keys.
 * The cache is optional (a failure only loses the shortcut), so it
 * bypasses the tokio__ allocators and their failure injection. */
static void
cache_order(struct emit *e, int mod, size_t n)
{
    e->c_mod = -1;
    if (e->cap_corder < n) {
        size_t *o = realloc(e->corder, n * sizeof(*o));
        if (o == NULL)
            return;
        e->corder = o;
        e->cap_corder = n;
    }
    if (e->cap_ckeys < e->n_keys) {
        char *k = realloc(e->ckeys, e->n_keys);
        if (k == NULL)
            return;
        e->ckeys = k;
        e->cap_ckeys = e->n_keys;
    }
    for (size_t i = 0; i < n; i++)
        e->corder[i] = e->lines[i].idx;
    memcpy(e->ckeys, e->keys, e->n_keys);
    e->n_ckeys = e->n_keys;
    e->c_lines = n;
    e->c_mod = mod;
}

/* ---- the spool: base records in a temporary file ------------------------
 *
 * cache-darshan's records go to an unlinked temporary file as the log is
 * decoded (tokio_darshan_spool_record()), each behind a small head, and
 * come back one at a time in the JSON's order (fseeko, fread): memory is
 * the index (struct sentry), whatever the records.  The first SPOOL_MEM
 * bytes stay in memory: a log that small (most) makes no file at all.
 */

/* Records kept in memory before a file is made for them. */
#define SPOOL_MEM (1024 * 1024)

/* A record's head in the spool: its counters, fcounters, extra and
 * LUSTRE components follow, and padding to 8 bytes, so that every record
 * starts aligned for its arrays.  The name and rank are in the index. */
struct spilled {
    uint32_t n_counters, n_fcounters, n_extra, n_comps;
    uint64_t file_rec_id;
};

struct tokio_darshan_spool {
    struct tokio_darshan_json_opts opts;        /* its filters */
    struct emit filter;                         /* has_line()'s state */
    struct index ix;
    FILE *file;                                 /* NULL: all in buf */
    uint64_t size;                              /* bytes of records */
    unsigned char *buf;                         /* or the last read back */
    size_t cap;
    int reading;
    struct tokio_darshan_record rec;            /* the last read back */
};

static size_t
spilled_size(const struct spilled *h)
{
    size_t n = sizeof(*h) +
               8 * ((size_t)h->n_counters + h->n_fcounters + h->n_extra) +
               (size_t)h->n_comps * sizeof(struct tokio_darshan_lustre_comp);

    return (n + 7) & ~(size_t)7;
}

static int
spool_write_error(const struct tokio_darshan *log)
{
    return tokio__error(TOKIO_EIO, "'%s': cannot write its records to a "
                        "temporary file in '%s': %s",
                        tokio_darshan_logname(log), tokio__scratch_dir(),
                        strerror(errno));
}

/* Bytes [p, p + n) after the records: in memory up to SPOOL_MEM, then
 * all of them in the file. */
static int
spool_put(struct tokio_darshan_spool *s, const struct tokio_darshan *log,
          const void *p, size_t n)
{
    int rc;

    if (s->file == NULL && s->size + n > SPOOL_MEM) {
        int fd = tokio__scratch_file(".tokio-darshan");
        if (fd < 0 || (s->file = fdopen(fd, "w+")) == NULL) {
            int err = errno;
            if (fd >= 0)
                close(fd);
            return tokio__error(TOKIO_EIO, "'%s': cannot make a temporary "
                                "file for its records in '%s': %s",
                                tokio_darshan_logname(log),
                                tokio__scratch_dir(), strerror(err));
        }
        if (fwrite(s->buf, 1, (size_t)s->size, s->file) != s->size)
            return spool_write_error(log);
    }
    if (s->file != NULL) {
        if (fwrite(p, 1, n, s->file) != n)
            return spool_write_error(log);
    } else {
        if ((rc = grow_to((void **)&s->buf, &s->cap, s->size + n, 1)) < 0)
            return rc;
        memcpy(s->buf + s->size, p, n);
    }
    s->size += n;
    return TOKIO_OK;
}

/* The last writes out: a full disk fails here, before any output. */
static int
spool_finish(struct tokio_darshan_spool *s, const struct tokio_darshan *log)
{
    if (s->reading)
        return TOKIO_OK;
    if (s->file != NULL && fflush(s->file) != 0)
        return spool_write_error(log);
    s->reading = 1;
    return TOKIO_OK;
}

/* The record at `pos`, head first, at *p: in memory, or read back from
 * the file into s->buf. */
static int
spool_read(struct tokio_darshan_spool *s, const struct tokio_darshan *log,
           uint64_t pos, const unsigned char **p)
{
    struct spilled h;
    int rc;

    if ((rc = spool_finish(s, log)) < 0)
        return rc;
    if (s->file == NULL) {
        *p = s->buf + pos;
        return TOKIO_OK;
    }
    /* no seek for a record that follows the last one read (glibc's
     * fseeko() makes a system call even within its buffer) */
    if ((ftello(s->file) == (off_t)pos ||
         fseeko(s->file, (off_t)pos, SEEK_SET) == 0) &&
        fread(&h, sizeof(h), 1, s->file) == 1) {
        size_t n = spilled_size(&h) - sizeof(h);
        if ((rc = grow_to((void **)&s->buf, &s->cap, sizeof(h) + n, 1)) < 0)
            return rc;
        memcpy(s->buf, &h, sizeof(h));
        if (fread(s->buf + sizeof(h), 1, n, s->file) == n) {
            *p = s->buf;
            return TOKIO_OK;
        }
    }
    return tokio__error(TOKIO_EIO, "'%s': cannot read its records back "
                        "from a temporary file in '%s': %s",
                        tokio_darshan_logname(log), tokio__scratch_dir(),
                        ferror(s->file) ? strerror(errno) : "it is short");
}

/* Entry `ent`'s record, read back into s->rec. */
static int
spool_load(struct tokio_darshan_spool *s, const struct tokio_darshan *log,
           const struct sentry *ent, const struct tokio_darshan_record **out)
{
    struct tokio_darshan_record *r = &s->rec;
    const unsigned char *p = NULL;
    struct spilled h;
    int rc;

    if ((rc = spool_read(s, log, ent->pos, &p)) < 0)
        return rc;
    memcpy(&h, p, sizeof(h));
    p += sizeof(h);
    memset(r, 0, sizeof(*r));
    r->rank = ent->rank;
    r->file_rec_id = h.file_rec_id;
    r->n_counters = h.n_counters;
    r->counters = (const int64_t *)(const void *)p;
    p += 8 * (size_t)h.n_counters;
    r->n_fcounters = h.n_fcounters;
    r->fcounters = (const double *)(const void *)p;
    p += 8 * (size_t)h.n_fcounters;
    r->n_extra = h.n_extra;
    r->extra = (const int64_t *)(const void *)p;
    p += 8 * (size_t)h.n_extra;
    r->n_comps = h.n_comps;
    r->comps = (const struct tokio_darshan_lustre_comp *)(const void *)p;
    *out = r;
    return TOKIO_OK;
}

/* Entry `ent`'s record: the log's, or read back from the spool. */
static int
load_record(struct emit *e, const struct sentry *ent,
            const struct tokio_darshan_record **r)
{
    if (e->spool != NULL)
        return spool_load(e->spool, e->log, ent, r);
    *r = tokio_darshan_record(e->log, e->by_key[ent->kord],
                              (size_t)ent->pos);
    return TOKIO_OK;
}

/*
 * Collect the lines of entries [a, b) (one module, name and rank) into
 * e->lines in key order, e->perm giving the order.  Fails with
 * TOKIO_EFORMAT when two lines have the same key, as the reference did.
 */
static int
collect_group(struct emit *e, size_t a, size_t b)
{
    const struct sentry *ent = &e->ents[a];
    int mod = e->by_key[ent->kord];
    int rc;

    e->mod = mod;
    e->plen = strlen(e->prefixes[mod]);
    e->n_lines = e->n_keys = e->n_strs = 0;
    for (size_t i = a; i < b; i++) {
        const struct tokio_darshan_record *r;
        if ((rc = load_record(e, &e->ents[i], &r)) < 0 ||
            (rc = tokio__darshan_visit_record(mod, r, collect_line, e)) < 0)
            return rc;
    }
    size_t n = e->n_lines;
    for (size_t i = 0; i < n; i++) {
        struct sline *l = &e->lines[i];
        l->kp = e->keys + l->key;
        if (l->v.kind == JV_STR)
            l->v.s = e->strs + l->soff;
    }
    if ((rc = grow_to((void **)&e->perm, &e->cap_perm, n + 1,
                      sizeof(*e->perm))) < 0)
        return rc;
    if (b - a == 1 && n > 0 && e->c_mod == mod && e->c_lines == n &&
        e->n_ckeys == e->n_keys &&
        memcmp(e->ckeys, e->keys, e->n_keys) == 0) {
        memcpy(e->perm, e->corder, n * sizeof(*e->perm));
        return TOKIO_OK;
    }
    if (n > 1)
        qsort(e->lines, n, sizeof(*e->lines), cmp_line);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(e->lines[i - 1].kp, e->lines[i].kp) == 0)
            /* the reference raised "Duplicate counter" here too */
            return tokio__error(TOKIO_EFORMAT, "'%s': %s record '%s' rank "
                                "%" PRId64 " has counter %s twice",
                                tokio_darshan_logname(e->log),
                                e->mkeys[mod], ent->name, ent->rank,
                                e->lines[i].kp);
        e->perm[i] = i;         /* the lines themselves are sorted now */
    }
    /* the next group with these keys gets its lines in insertion order:
     * keep which insertion index each sorted position holds */
    if (b - a == 1 && n > 0)
        cache_order(e, mod, n);
    return TOKIO_OK;
}

/* Visitor callback of has_line(): stop at the first wanted counter. */
#define FOUND_LINE (-100)

static int
find_line(void *payload, const char *counter,
          const struct tokio__darshan_value *v)
{
    struct emit *e = payload;

    (void)v;
    return counter_wanted(e, strip_prefix(e, counter)) ? FOUND_LINE
                                                      : TOKIO_OK;
}

/* Whether record `r` of module `mod` gives a counter the filters keep
 * (the reference made a record's objects with its first such counter). */
static int
has_line(struct emit *e, int mod, const struct tokio_darshan_record *r)
{
    if (e->opts->n_counters == 0)
        return 1;
    e->mod = mod;
    e->plen = strlen(e->prefixes[mod]);
    return tokio__darshan_visit_record(mod, r, find_line, e) == FOUND_LINE;
}

/* `rank` in decimal in `buf`: the key it goes out under. */
static const char *
rank_text(int64_t rank, char buf[24])
{
    uint64_t u = rank < 0 ? 0 - (uint64_t)rank : (uint64_t)rank;
    char *p = buf + 23;

    *p = '\0';
    do
        *--p = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (rank < 0)
        *--p = '-';
    return p;
}

static int
same_group(const struct sentry *x, const struct sentry *y)
{
    return x->kord == y->kord && x->rank == y->rank &&
           strcmp(x->name, y->name) == 0;
}

static int
cmp_entry(const void *a, const void *b)
{
    const struct sentry *x = a, *y = b;
    char bx[24], by[24];
    int c;

    if (x->kord != y->kord)
        return x->kord - y->kord;
    if ((c = strcmp(x->name, y->name)) != 0)
        return c;
    /* ranks sort as the keys they are: "-1" < "0" < "10" < "2" */
    if (x->rank != y->rank)
        return strcmp(rank_text(x->rank, bx), rank_text(y->rank, by));
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Whether the base records of module `mod` go out at all. */
static int
module_wanted(const struct emit *e, const struct tokio_darshan *log, int mod)
{
    const struct tokio_darshan_json_opts *o = e->opts;

    return module_printed(log, mod) &&
           (o->n_modules == 0 || listed(e->mkeys[mod], o->modules,
                                        o->n_modules));
}

/* Record `r` of module `mod`, at `pos`, into `ix`; its key is its name
 * column, as darshan-parser fills it. */
static int
index_add(struct index *ix, const struct emit *e,
          const struct tokio_darshan *log, int mod,
          const struct tokio_darshan_record *r, uint64_t pos)
{
    struct tokio__darshan_columns cols;
    const char *name;
    char *own;
    int rc;

    if ((rc = grow_to((void **)&ix->ents, &ix->cap_ents, ix->n_ents + 1,
                      sizeof(*ix->ents))) < 0)
        return rc;
    tokio__darshan_record_columns(log, mod, r, &cols);
    name = cols.name;
    if (cols.name == cols.name_buf) {
        if ((rc = grow_to((void **)&ix->owned, &ix->cap_owned,
                          ix->n_owned + 1, sizeof(*ix->owned))) < 0)
            return rc;
        if ((own = tokio__strdup(cols.name_buf)) == NULL)
            return nomem();
        ix->owned[ix->n_owned++] = own;
        name = own;
    }
    struct sentry *ent = &ix->ents[ix->n_ents++];
    ent->name = name;
    ent->pos = pos;
    ent->rank = r->rank;
    ent->kord = e->mkord[mod];
    return TOKIO_OK;
}

static void
index_free(struct index *ix)
{
    for (size_t i = 0; i < ix->n_owned; i++)
        free(ix->owned[i]);
    free(ix->owned);
    free(ix->ents);
}

/* Index the base records the options keep (the log's, or the spool's,
 * which indexed them as they came), sorted as the keys go out; groups of
 * several records under one name and rank are checked for repeated
 * counters now, before anything is written. */
static int
index_records(struct emit *e)
{
    const struct tokio_darshan_json_opts *o = e->opts;
    int rc;

    if (!o->base)
        return TOKIO_OK;
    if (e->spool != NULL && (rc = spool_finish(e->spool, e->log)) < 0)
        return rc;
    e->ix = e->spool != NULL ? &e->spool->ix : &e->own;
    for (int mod = 0; e->spool == NULL && mod < TOKIO_DARSHAN_KNOWN_MODULES;
         mod++) {
        if (!module_wanted(e, e->log, mod))
            continue;
        size_t n = tokio_darshan_record_count(e->log, mod);
        for (size_t i = 0; i < n; i++) {
            const struct tokio_darshan_record *r =
                tokio_darshan_record(e->log, mod, i);
            if (has_line(e, mod, r) &&
                (rc = index_add(&e->own, e, e->log, mod, r, i)) < 0)
                return rc;
        }
    }
    e->ents = e->ix->ents;
    e->n_ents = e->ix->n_ents;
    if (e->n_ents > 1)
        qsort(e->ents, e->n_ents, sizeof(*e->ents), cmp_entry);
    for (size_t a = 0, b; a < e->n_ents; a = b) {
        for (b = a + 1; b < e->n_ents && same_group(&e->ents[a],
                                                    &e->ents[b]); b++)
            ;
        if (b - a > 1 && (rc = collect_group(e, a, b)) < 0)
            return rc;
    }
    return TOKIO_OK;
}

/* ---- the document ------------------------------------------------------ */

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The members of object `obj`, in key order. */
static int
put_members(struct out *o, json_t *obj)
{
    size_t n = json_object_size(obj), k = 0;
    const char **keys = tokio__calloc(n ? n : 1, sizeof(*keys));
    const char *key;
    json_t *v;

    if (keys == NULL)
        return nomem();
    json_object_foreach(obj, key, v)
        keys[k++] = key;
    qsort(keys, n, sizeof(*keys), cmp_str);
    for (k = 0; k < n; k++) {
        out_key(o, keys[k], strlen(keys[k]));
        out_value(o, json_object_get(obj, keys[k]));
    }
    free(keys);
    return TOKIO_OK;
}

/* Module `mod`'s members: its records' names (entries [a, b)) and
 * "_perf" / "_total", merged in key order. */
static int
put_module(struct emit *e, int mod, size_t a, size_t b)
{
    static const char *const pseudo[2] = { "_perf", "_total" };
    int j = 0, rc;

    while (j < 2 && e->derived[mod][j] == NULL)
        j++;
    while (a < b || j < 2) {
        const char *name = a < b ? e->ents[a].name : NULL;
        if (name == NULL || (j < 2 && strcmp(pseudo[j], name) < 0))
            name = pseudo[j];
        out_key(e->out, name, strlen(name));
        out_begin(e->out);
        /* ranks ("-1", "0", ...) sort before the pseudo-records' keys,
         * which are letters: a record named "_total" merges first */
        while (a < b && strcmp(e->ents[a].name, name) == 0) {
            size_t end = a + 1;
            while (end < b && same_group(&e->ents[a], &e->ents[end]))
                end++;
            if ((rc = collect_group(e, a, end)) < 0)
                return rc;
            char buf[24];
            const char *rank = rank_text(e->ents[a].rank, buf);
            out_key(e->out, rank, strlen(rank));
            out_begin(e->out);
            for (size_t k = 0; k < e->n_lines; k++) {
                const struct sline *l = &e->lines[e->perm[k]];
                out_key(e->out, l->kp, l->klen);
                out_jval(e->out, &l->v);
            }
            out_end(e->out);
            a = end;
        }
        if (j < 2 && strcmp(pseudo[j], name) == 0) {
            if ((rc = put_members(e->out, e->derived[mod][j])) < 0)
                return rc;
            while (++j < 2 && e->derived[mod][j] == NULL)
                ;
        }
        out_end(e->out);
    }
    return TOKIO_OK;
}

/* Whether the document has "counters": a module banner one of the
 * darshan-parser runs prints, even if no record follows. */
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

/* The whole document, after everything that can fail on the log's
 * contents (a counter given twice for one record name and rank, --perf's
 * rank check) has been checked. */
static int
put_document(struct emit *e, json_t *header, json_t *mounts)
{
    int rc = TOKIO_OK;

    out_begin(e->out);
    if (has_counters(e->log, e->opts)) {
        out_key(e->out, "counters", 8);
        out_begin(e->out);
        size_t a = 0;
        for (int k = 0; rc >= 0 && k < TOKIO_DARSHAN_KNOWN_MODULES; k++) {
            int mod = e->by_key[k];
            size_t b = a;
            while (b < e->n_ents && e->ents[b].kord == k)
                b++;
            if (b > a || e->derived[mod][0] || e->derived[mod][1]) {
                out_key(e->out, e->mkeys[mod], strlen(e->mkeys[mod]));
                out_begin(e->out);
                rc = put_module(e, mod, a, b);
                out_end(e->out);
            }
            a = b;
        }
        out_end(e->out);
    }
    out_key(e->out, "header", 6);
    out_value(e->out, header);
    out_key(e->out, "mounts", 6);
    out_value(e->out, mounts);
    out_end(e->out);
    return rc;
}

/* Emit the JSON of `log` with `opts` (NULL: base only) into `out`. */
static int
emit(const struct tokio_darshan *log,
     const struct tokio_darshan_json_opts *opts, struct out *out)
{
    struct tokio_darshan_json_opts o = { .base = 1 };
    struct emit e = { .log = log, .opts = &o, .out = out, .c_mod = -1 };
    json_t *header = NULL, *mounts = NULL;
    int rc;

    /* no view named: the base view, with its filters, as in the
     * reference's cache_darshan */
    if (opts != NULL)
        o = *opts;
    if (!o.base && !o.total && !o.perf)
        o.base = 1;
    e.spool = o.spool;
    module_keys(&e);
    if ((header = build_header(log)) == NULL ||
        (mounts = build_mounts(log)) == NULL)
        rc = nomem();
    else if ((rc = derive_all(&e)) >= 0 && (rc = index_records(&e)) >= 0)
        rc = put_document(&e, header, mounts);
    json_decref(header);
    json_decref(mounts);
    index_free(&e.own);
    free(e.lines);
    free(e.keys);
    free(e.strs);
    free(e.perm);
    free(e.ckeys);
    free(e.corder);
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++) {
        json_decref(e.derived[mod][0]);
        json_decref(e.derived[mod][1]);
    }
    return rc;
}

/* ---- public ------------------------------------------------------------ */

int
tokio_darshan_to_json(const struct tokio_darshan *log,
                      const struct tokio_darshan_json_opts *opts,
                      json_t **out)
{
    struct out o = { 0 };
    int rc;

    *out = NULL;
    if (log == NULL)
        return tokio__error(TOKIO_EINVAL, "no Darshan log given");
    rc = emit(log, opts, &o);
    if (rc >= 0 && o.oom)
        rc = nomem();
    /* the objects still open after a failure are held by the root */
    if (rc < 0) {
        json_decref(o.stack[0]);
        return rc;
    }
    *out = o.stack[0];
    return TOKIO_OK;
}

int
tokio_darshan_write_json(const struct tokio_darshan *log, FILE *fp,
                         const struct tokio_darshan_json_opts *opts,
                         unsigned flags)
{
    struct out o = { 0 };
    int rc;

    if (log == NULL || fp == NULL)
        return tokio__error(TOKIO_EINVAL, "no Darshan log or no file given");
    /* keys sorted whatever `flags` says: the emitter's order */
    if ((o.js = tokio__jstream_open(fp, flags | TOKIO_JSON_SORT_KEYS)) ==
        NULL)
        return TOKIO_ENOMEM;
    rc = emit(log, opts, &o);
    int crc = tokio__jstream_close(o.js);
    return rc < 0 ? rc : crc;
}

int
tokio_darshan_spool_new(struct tokio_darshan_spool **out,
                        const struct tokio_darshan_json_opts *opts)
{
    struct tokio_darshan_spool *s;

    *out = NULL;
    if ((s = tokio__calloc(1, sizeof(*s))) == NULL)
        return nomem();
    if (opts != NULL)
        s->opts = *opts;
    s->opts.fold = NULL;
    s->opts.spool = NULL;
    s->filter.opts = &s->opts;
    s->filter.c_mod = -1;
    module_keys(&s->filter);
    *out = s;
    return TOKIO_OK;
}

int
tokio_darshan_spool_record(void *spool, const struct tokio_darshan *log,
                           int mod, const struct tokio_darshan_record *r)
{
    static const unsigned char zeros[8];
    struct tokio_darshan_spool *s = spool;
    struct emit *f = &s->filter;
    int rc;

    if (mod < 0 || mod >= TOKIO_DARSHAN_KNOWN_MODULES ||
        !module_wanted(f, log, mod) || !has_line(f, mod, r))
        return TOKIO_OK;
    if (s->reading)
        return tokio__error(TOKIO_EINVAL, "'%s': a Darshan spool takes no "
                            "records once read", tokio_darshan_logname(log));
    if (r->n_counters > UINT32_MAX || r->n_fcounters > UINT32_MAX ||
        r->n_extra > UINT32_MAX || r->n_comps > UINT32_MAX)
        return tokio__error(TOKIO_EFORMAT, "'%s': a %s record too big to "
                            "keep", tokio_darshan_logname(log),
                            tokio_darshan_module_name(mod));
    struct spilled h = {
        (uint32_t)r->n_counters, (uint32_t)r->n_fcounters,
        (uint32_t)r->n_extra, (uint32_t)r->n_comps, r->file_rec_id
    };
    size_t size = spilled_size(&h);
    size_t pad = size - (sizeof(h) + 8 * (r->n_counters + r->n_fcounters +
                                          r->n_extra) +
                         r->n_comps * sizeof(*r->comps));
    if ((rc = index_add(&s->ix, f, log, mod, r, s->size)) < 0 ||
        (rc = spool_put(s, log, &h, sizeof(h))) < 0 ||
        (r->n_counters > 0 &&
         (rc = spool_put(s, log, r->counters, 8 * r->n_counters)) < 0) ||
        (r->n_fcounters > 0 &&
         (rc = spool_put(s, log, r->fcounters, 8 * r->n_fcounters)) < 0) ||
        (r->n_extra > 0 &&
         (rc = spool_put(s, log, r->extra, 8 * r->n_extra)) < 0) ||
        (r->n_comps > 0 &&
         (rc = spool_put(s, log, r->comps,
                         r->n_comps * sizeof(*r->comps))) < 0) ||
        (rc = spool_put(s, log, zeros, pad)) < 0)
        return rc;
    return TOKIO_OK;
}

void
tokio_darshan_spool_free(struct tokio_darshan_spool *s)
{
    if (s == NULL)
        return;
    if (s->file != NULL)
        fclose(s->file);
    index_free(&s->ix);
    free(s->buf);
    free(s);
}
