/*
 * src/connectors/darshan_json.c - a Darshan log as the JSON of the
 * reference's tokio.connectors.darshan.Darshan (what cache_darshan prints).
 *
 * The reference ran darshan-parser 3.5.0 and typed each value of its text
 * by a rule ("." in it: float(), else int(), else kept as the string).
 * This file builds the same tree from the reader's typed records: every
 * line darshan-parser --base would print for a record (the enumeration
 * below follows tokio__darshan_print_record() line for line) becomes one
 * counter, typed as the reference typed its text.  Nothing is printed and
 * re-read; a double is rounded through "%f" only because that rounding is
 * the value the reference stored.
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
 *   prints with %llu: POSIX_RENAMED_FROM, *_FILE_REC_ID) are stored as
 *   the int64 with the same bits: a JSON integer here is an int64
 *   (jansson), and a record id must stay exact rather than become a
 *   rounded real.  NEEDSWORK: exact output needs unsigned integers in
 *   src/core/json.c.
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

/* A double as darshan-parser printed it ("%f") and the reference read it. */
static json_t *
fixed_real(double v)
{
    char buf[FIXED_MAX];

    snprintf(buf, sizeof(buf), "%f", v);
    return typed_text(buf);
}

/* An unsigned id: see "Differs from pytokio" above. */
static json_t *
unsigned_int(uint64_t v)
{
    return json_integer((json_int_t)(int64_t)v);
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
                            b->log->logname, b->mkey,
                            b->name, b->rank, counter);
    }
    if (json_object_set_new_nocheck(b->rank_obj, counter, v) < 0)
        return nomem();
    return TOKIO_OK;
}

/* Lustre layout pattern and flag names as darshan-parser prints them
 * (lustreapi.h values quoted by darshan-lustre-logutils.c). */
static const char *
lustre_pattern(int64_t v)
{
    switch (v) {
    case 0: return "raid0";
    case 2: return "mdt";
    case 4: return "raid0,overstriped";
    case 8: return "foreign";
    default: return "N/A";
    }
}

static void
lustre_flags(int64_t v, char *buf, size_t size)
{
    static const char *const flag[] = {
        "stale", "prefrd", "prefwr", "offline", "init", "nosync",
        "extension", "parity", "compress", "partial", "nocompr", "neg"
    };
    size_t len = 0;

    if (v == -1) {
        snprintf(buf, size, "N/A");
        return;
    }
    buf[0] = '\0';
    for (size_t k = 0; k < sizeof(flag) / sizeof(flag[0]); k++) {
        if (((uint64_t)v & (UINT64_C(1) << k)) == 0)
            continue;
        int n = snprintf(buf + len, size - len, "%s%s", len ? "," : "",
                         flag[k]);
        if (n < 0 || (size_t)n >= size - len)
            break;
        len += (size_t)n;
    }
    if (len == 0)
        snprintf(buf, size, "0");
}

static int
put_lustre(struct build *b, const struct tokio_darshan_record *r)
{
    char cname[64], val[128];
    size_t ost = 0;
    int rc;

    if ((rc = put(b, "LUSTRE_NUM_COMPONENTS",
                  json_integer((json_int_t)r->n_comps))) < 0 ||
        (rc = put(b, "LUSTRE_NUM_STRIPES",
                  json_integer((json_int_t)r->n_extra))) < 0)
        return rc;
    for (size_t i = 0; i < r->n_comps; i++) {
        const struct tokio_darshan_lustre_comp *c = &r->comps[i];
        for (size_t j = 0; j < 7; j++) {
            /* LUSTRE_COMP_X -> LUSTRE_COMP<n>_X */
            const char *base = tokio_darshan_counter_name(
                TOKIO_DARSHAN_LUSTRE, j);
            json_t *v;
            snprintf(cname, sizeof(cname), "LUSTRE_COMP%zu%s", i + 1,
                     base + strlen("LUSTRE_COMP"));
            if (j == 2) {
                v = typed_text(lustre_pattern(c->counters[j]));
            } else if (j == 3) {
                lustre_flags(c->counters[j], val, sizeof(val));
                v = typed_text(val);
            } else {
                v = json_integer(c->counters[j]);
            }
            if ((rc = put(b, cname, v)) < 0)
                return rc;
        }
        snprintf(cname, sizeof(cname), "LUSTRE_COMP%zu_POOL_NAME", i + 1);
        if ((rc = put(b, cname, typed_text(c->pool_name[0] ? c->pool_name
                                                           : "N/A"))) < 0)
            return rc;
        for (int64_t k = 0; k < c->counters[1] && ost < r->n_extra; k++) {
            snprintf(cname, sizeof(cname), "LUSTRE_COMP%zu_OST_ID_%" PRId64,
                     i + 1, k);
            if ((rc = put(b, cname, json_integer(r->extra[ost++]))) < 0)
                return rc;
        }
    }
    return TOKIO_OK;
}

static int
put_heatmap(struct build *b, const struct tokio_darshan_record *r)
{
    size_t nb = r->n_extra / 2;
    char cname[64];
    int rc;

    if ((rc = put(b, "HEATMAP_F_BIN_WIDTH_SECONDS",
                  fixed_real(r->fcounters[0]))) < 0)
        return rc;
    for (size_t k = 0; k < nb; k++) {
        snprintf(cname, sizeof(cname), "HEATMAP_READ_BIN_%zu", k);
        if ((rc = put(b, cname, json_integer(r->extra[k]))) < 0)
            return rc;
    }
    for (size_t k = 0; k < nb; k++) {
        snprintf(cname, sizeof(cname), "HEATMAP_WRITE_BIN_%zu", k);
        if ((rc = put(b, cname, json_integer(r->extra[nb + k]))) < 0)
            return rc;
    }
    return TOKIO_OK;
}

/* Every counter line of one record, in darshan-parser's order. */
static int
put_record(struct build *b, const struct tokio_darshan_record *r)
{
    const int mod = b->mod;
    char cname[64], oid[48];
    int rc;

    /* the record's name column, as darshan-parser fills it */
    b->name = tokio_darshan_name(b->log, r->id);
    if (b->name == NULL)   /* glibc prints a NULL %s as "(null)" */
        b->name = mod == TOKIO_DARSHAN_BGQ ? "darshan-bgq-record" : "(null)";
    if (mod == TOKIO_DARSHAN_DAOS) {
        snprintf(oid, sizeof(oid), "%" PRIu64 ".%" PRIu64, r->oid_hi,
                 r->oid_lo);
        b->name = oid;
    }
    snprintf(b->rank, sizeof(b->rank), "%" PRId64, r->rank);
    b->rank_obj = NULL;

    if (mod == TOKIO_DARSHAN_LUSTRE)
        return put_lustre(b, r);
    if (mod == TOKIO_DARSHAN_HEATMAP)
        return put_heatmap(b, r);
    for (size_t i = 0; i < r->n_counters; i++) {
        const char *cn = tokio_darshan_counter_name(mod, i);
        /* POSIX_RENAMED_FROM holds a record id, printed unsigned */
        json_t *v = mod == TOKIO_DARSHAN_POSIX && i == 12
                        ? unsigned_int((uint64_t)r->counters[i])
                        : json_integer(r->counters[i]);
        if (cn == NULL) {
            json_decref(v);
            continue;
        }
        if ((rc = put(b, cn, v)) < 0)
            return rc;
    }
    for (size_t i = 0; i < r->n_fcounters; i++) {
        const char *cn = tokio_darshan_fcounter_name(mod, i);
        if (cn != NULL && (rc = put(b, cn, fixed_real(r->fcounters[i]))) < 0)
            return rc;
    }
    if (mod == TOKIO_DARSHAN_H5D)
        return put(b, "H5D_FILE_REC_ID", unsigned_int(r->file_rec_id));
    if (mod == TOKIO_DARSHAN_PNETCDF_VAR)
        return put(b, "PNETCDF_VAR_FILE_REC_ID",
                   unsigned_int(r->file_rec_id));
    if (mod == TOKIO_DARSHAN_MDHIM) {
        for (size_t k = 0; k < r->n_extra &&
                           (int64_t)k < r->counters[4]; k++) {
            snprintf(cname, sizeof(cname), "MDHIM_SERVER_%zu", k);
            if ((rc = put(b, cname, json_integer(r->extra[k]))) < 0)
                return rc;
        }
    }
    return TOKIO_OK;
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
