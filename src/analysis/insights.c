/*
 * src/analysis/insights.c - `tokio insights`' library: the thresholds,
 * the making of findings, one log's findings from both sides
 * (insights_client.c reads the Darshan log and runs the client-side
 * rules, insights_server.c asks the site's data), and the text and CSV
 * forms of the result.  The JSON form is the result itself
 * (tokio/analysis/insights.h describes it).
 */
#include "tokio/analysis/insights.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tokio/config.h"
#include "tokio/output.h"
#include "tokio/time.h"
#include "tokio/util.h"
#include "analysis/insights_private.h"
#include "core/alloc.h"
#include "core/error.h"

/* ---- thresholds --------------------------------------------------------- */

/* Every threshold, its default and its range.  The first thirteen and
 * their values are Drishti's (drishti/includes/config.py); the rest
 * belong to rules no peer has. */
static const struct threshold {
    const char *name;
    double value, min, max;
} thresholds[] = {
    { "imbalance_operations", 0.1, 0, 1 },
    { "small_bytes", 1048576, 0, 1e18 },
    { "small_requests", 0.1, 0, 1 },
    { "small_requests_absolute", 1000, 0, 1e18 },
    { "misaligned_requests", 0.1, 0, 1 },
    { "metadata_time_rank", 30, 0, 1e12 },
    { "random_operations", 0.2, 0, 1 },
    { "random_operations_absolute", 1000, 0, 1e18 },
    { "imbalance_stragglers", 0.15, 0, 1 },
    { "imbalance_size", 0.3, 0, 1 },
    { "interface_stdio", 0.1, 0, 1 },
    { "collective_operations", 0.5, 0, 1 },
    { "collective_operations_absolute", 1000, 0, 1e18 },
    /* share of the bytes moved that went beyond the files' extents;
     * Drishti warned at any */
    { "redundant_traffic", 0, 0, 1e6 },
    /* the job's share of the file system's bytes in its window below
     * which other jobs' traffic is worth telling */
    { "coverage_factor", 0.5, 0, 1 },
    /* the file system's mean rate in the window over the highest it
     * reached within fs_peak_window seconds either side */
    { "fs_load", 0.8, 0, 1 },
    { "fs_peak_window", 43200, 0, 1e8 },
    { "oss_cpu_pct", 90, 0, 100 },
    { "mds_cpu_pct", 80, 0, 100 },
    /* "more than 90% full" */
    { "ost_full_pct", 90, 0, 100 },
    /* darshan-bad-ost's -p and -C */
    { "slow_ost_p", 0.05, 0, 1 },
    { "slow_ost_coefficient", 0.5, 0, 1 },
    /* earlier runs compared with, the latest first; 0: all */
    { "history_runs", 30, 0, 1e9 },
};

#define N_THRESHOLDS (sizeof(thresholds) / sizeof(*thresholds))

static const struct threshold *
find_threshold(const char *name)
{
    for (size_t i = 0; i < N_THRESHOLDS; i++)
        if (strcmp(thresholds[i].name, name) == 0)
            return &thresholds[i];
    return NULL;
}

/* The names, for messages. */
static void
threshold_names(char *buf, size_t size)
{
    size_t n = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < N_THRESHOLDS && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
                              thresholds[i].name);
}

/* Set `name` to `v` in `out`, checking both; errors are `status`. */
static int
set_threshold(json_t *out, const char *name, double v, int status,
              const char *where)
{
    const struct threshold *t = find_threshold(name);
    char names[1024];

    if (t == NULL) {
        threshold_names(names, sizeof(names));
        return tokio__error(status, "%s: '%s' is no threshold (known: %s)",
                            where, name, names);
    }
    if (!(v >= t->min && v <= t->max))
        return tokio__error(status, "%s: threshold %s must be from %g to %g, "
                            "not %g", where, name, t->min, t->max, v);
    if (json_object_set_new(out, name, json_real(v)) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    return TOKIO_OK;
}

/* The site's `insights` key: {name: number} or {category: {name:
 * number}} (Drishti's configuration file), names joined with '_'. */
static int
site_thresholds(json_t *out, const struct tokio_config *cfg)
{
    const json_t *site = cfg ? tokio_config_get(cfg, "insights") : NULL;
    const char *key, *sub;
    json_t *v, *w;
    int rc = TOKIO_OK;

    if (site == NULL || json_is_null(site))
        return TOKIO_OK;
    if (!json_is_object(site))
        return tokio__error(TOKIO_EFORMAT, "site configuration key "
                            "insights: expected an object of threshold: "
                            "number");
    json_object_foreach((json_t *)site, key, v) {
        if (json_is_number(v)) {
            rc = set_threshold(out, key, json_number_value(v), TOKIO_EFORMAT,
                               "site configuration key insights");
        } else if (json_is_object(v)) {
            json_object_foreach(v, sub, w) {
                char name[256];
                snprintf(name, sizeof(name), "%s_%s", key, sub);
                if (!json_is_number(w))
                    return tokio__error(TOKIO_EFORMAT, "site configuration "
                                        "key insights: %s is not a number",
                                        name);
                if ((rc = set_threshold(out, name, json_number_value(w),
                                        TOKIO_EFORMAT, "site configuration "
                                        "key insights")) < 0)
                    return rc;
            }
        } else {
            return tokio__error(TOKIO_EFORMAT, "site configuration key "
                                "insights: %s is not a number", key);
        }
        if (rc < 0)
            return rc;
    }
    return TOKIO_OK;
}

int
tokio_insights_thresholds(json_t **out, const struct tokio_config *cfg,
                          const char *const *overrides, size_t n_overrides)
{
    json_t *t = json_object();
    int rc = t ? TOKIO_OK : tokio__error(TOKIO_ENOMEM, "out of memory");

    *out = NULL;
    for (size_t i = 0; rc == TOKIO_OK && i < N_THRESHOLDS; i++)
        if (json_object_set_new(t, thresholds[i].name,
                                json_real(thresholds[i].value)) < 0)
            rc = tokio__error(TOKIO_ENOMEM, "out of memory");
    if (rc == TOKIO_OK)
        rc = site_thresholds(t, cfg);
    for (size_t i = 0; rc == TOKIO_OK && i < n_overrides; i++) {
        const char *eq = strchr(overrides[i], '=');
        char name[256], *end;
        double v;
        if (eq == NULL || eq == overrides[i] ||
            (size_t)(eq - overrides[i]) >= sizeof(name)) {
            rc = tokio__error(TOKIO_EINVAL, "threshold '%s' is not "
                              "NAME=VALUE", overrides[i]);
            break;
        }
        memcpy(name, overrides[i], (size_t)(eq - overrides[i]));
        name[eq - overrides[i]] = '\0';
        v = strtod(eq + 1, &end);
        if (end == eq + 1 || *end != '\0')
            rc = tokio__error(TOKIO_EINVAL, "threshold '%s': '%s' is not a "
                              "number", overrides[i], eq + 1);
        else
            rc = set_threshold(t, name, v, TOKIO_EINVAL, "--threshold");
    }
    if (rc < 0) {
        json_decref(t);
        return rc;
    }
    *out = t;
    return TOKIO_OK;
}

/* ---- findings ----------------------------------------------------------- */

static void
failed(struct tokio__findings *f, int bad)
{
    if (bad)
        f->failed = 1;
}

json_t *
tokio__finding(struct tokio__findings *f, const char *code,
               const char *source)
{
    json_t *x;

    if (f->failed)
        return NULL;
    x = json_pack("{s:s, s:n, s:b, s:s, s:{}, s:{}, s:[], s:n, s:s}",
                  "code", code, "level", "evaluated", 0, "title", "",
                  "numbers", "thresholds", "files", "recommendation",
                  "source", source);
    if (json_array_append_new(f->list, x) < 0) {
        f->failed = 1;
        return NULL;
    }
    return x;
}

/*
 * finding[key] = the printf-style text.  Text may quote the log (file
 * names, the command line) and is kept as its bytes: the JSON writer
 * shows what is not UTF-8 as U+FFFD, as for the log's own JSON.
 */
static void
set_text(struct tokio__findings *f, json_t *x, const char *key,
         const char *fmt, va_list ap)
{
    char buf[2048];

    vsnprintf(buf, sizeof(buf), fmt, ap);
    failed(f, json_object_set_new(x, key, json_string_nocheck(buf)) < 0);
}

void
tokio__found(struct tokio__findings *f, json_t *x, enum tokio__level level,
             const char *fmt, ...)
{
    static const char *const names[] = { "high", "warning", "info", "ok" };
    va_list ap;

    if (x == NULL)
        return;
    failed(f, json_object_set_new(x, "level",
                                  json_string(names[level])) < 0 ||
              json_object_set_new(x, "evaluated", json_true()) < 0);
    va_start(ap, fmt);
    set_text(f, x, "title", fmt, ap);
    va_end(ap);
}

void
tokio__not_evaluated(struct tokio__findings *f, json_t *x, const char *fmt,
                     ...)
{
    va_list ap;

    if (x == NULL)
        return;
    failed(f, json_object_set_new(x, "level", json_null()) < 0 ||
              json_object_set_new(x, "evaluated", json_false()) < 0);
    va_start(ap, fmt);
    set_text(f, x, "title", fmt, ap);
    va_end(ap);
}

void
tokio__recommend(struct tokio__findings *f, json_t *x, const char *fmt, ...)
{
    va_list ap;

    if (x == NULL)
        return;
    va_start(ap, fmt);
    set_text(f, x, "recommendation", fmt, ap);
    va_end(ap);
}

void
tokio__source(struct tokio__findings *f, json_t *x, const char *fmt, ...)
{
    va_list ap;

    if (x == NULL)
        return;
    va_start(ap, fmt);
    set_text(f, x, "source", fmt, ap);
    va_end(ap);
}

static json_t *
number_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

void
tokio__number(struct tokio__findings *f, json_t *x, const char *name,
              double v)
{
    if (x != NULL)
        failed(f, json_object_set_new(json_object_get(x, "numbers"), name,
                                      number_or_null(v)) < 0);
}

double
tokio__threshold(struct tokio__findings *f, json_t *x, const char *name)
{
    double v = json_number_value(json_object_get(f->thresholds, name));

    if (x != NULL)
        failed(f, json_object_set_new(json_object_get(x, "thresholds"), name,
                                      json_real(v)) < 0);
    return v;
}

void
tokio__file(struct tokio__findings *f, json_t *x, const char *name,
            int64_t rank, double bytes, double value)
{
    /* the few biggest, however many lists a rule draws on */
    if (x == NULL || json_array_size(json_object_get(x, "files")) >=
                         (size_t)f->top)
        return;
    failed(f, json_array_append_new(json_object_get(x, "files"), json_pack(
        "{s:o, s:I, s:o, s:o}", "name", name ? json_string_nocheck(name)
                                              : json_null(),
        "rank", (json_int_t)rank, "bytes", number_or_null(bytes),
        "value", number_or_null(value))) < 0);
}

void
tokio__note(struct tokio__findings *f, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    failed(f, json_array_append_new(f->notes, json_string_nocheck(buf)) < 0);
}

const char *
tokio__bytes_text(char *buf, size_t size, double bytes)
{
    if (tokio_humanize_bytes(buf, size, bytes, 0) < 0)
        snprintf(buf, size, "%.0f bytes", bytes);
    return buf;
}

/* ---- one log ------------------------------------------------------------ */

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory finding insights");
}

/* What the reader saw that the findings should carry. */
static void
reading_notes(struct tokio__findings *f, const struct tokio__client *c)
{
    if (c->partial)
        tokio__note(f, "the log is partial: Darshan ran out of memory for "
                    "some module, so its counts are low");
    if (c->bad_rank_records > 0)
        tokio__note(f, "%zu records name a rank the job (of %lld processes) "
                    "did not have; the per-rank rules leave them out",
                    c->bad_rank_records, (long long)c->nprocs);
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++)
        if (c->undecoded & TOKIO_DARSHAN_MODULE_BIT(mod))
            tokio__note(f, "the log's %s records are of a version "
                        "darshan-util 3.5.0 does not read: the rules over "
                        "them take the module as absent",
                        tokio_darshan_module_name(mod));
    if (c->osts_dropped > 0)
        tokio__note(f, "the job's files were on more OSTs than are "
                    "followed; %zu OST entries were left out",
                    c->osts_dropped);
}

int
tokio_insights_log(json_t **out, const struct tokio_config *cfg,
                   const char *path, const json_t *row,
                   const struct tokio_insights_opts *o)
{
    struct tokio__client c = { 0 };
    struct tokio__findings f = { 0 };
    json_t *th = NULL, *res = NULL;
    int top = o->top > 0 ? o->top : TOKIO__INSIGHTS_TOP_DEFAULT;
    int rc;

    *out = NULL;
    if (top > TOKIO__INSIGHTS_TOP_MAX)
        top = TOKIO__INSIGHTS_TOP_MAX;
    if ((rc = tokio_insights_thresholds(&th, cfg, o->thresholds,
                                        o->n_thresholds)) < 0)
        return rc;
    rc = tokio__insights_read(&c, path, json_number_value(json_object_get(
                                  th, "small_bytes")),
                              json_number_value(json_object_get(
                                  th, "imbalance_stragglers")),
                              top, !o->client_only);
    f.list = json_array();
    f.notes = json_array();
    f.thresholds = th;
    f.top = top;
    if (rc == TOKIO_OK && (f.list == NULL || f.notes == NULL))
        rc = oom();
    if (rc == TOKIO_OK) {
        reading_notes(&f, &c);
        if (o->client_only)
            snprintf(c.nodes_why, sizeof(c.nodes_why), "only the log was "
                     "read");
        else
            rc = tokio__insights_job_nodes(&c, cfg, o);
    }
    if (rc == TOKIO_OK)
        tokio__insights_client_rules(&f, &c);
    if (rc == TOKIO_OK && o->job.dxt)
        rc = tokio__insights_dxt_rule(&f, path);
    if (rc == TOKIO_OK && o->client_only)
        tokio__insights_server_skipped(&f, "not evaluated: only the log was "
                                       "read (--client-only)");
    else if (rc == TOKIO_OK)
        rc = tokio__insights_server_rules(&f, &c, cfg, row, o);
    if (rc == TOKIO_OK && f.failed)
        rc = oom();
    if (rc == TOKIO_OK) {
        /* the path and the command line as their bytes (see set_text) */
        res = json_pack("{s:o, s:I, s:o, s:I, s:I, s:I, s:o, s:O, s:O, s:O}",
                        "log", json_string_nocheck(path),
                        "jobid", (json_int_t)c.jobid,
                        "exe", json_string_nocheck(c.exe),
                        "nprocs", (json_int_t)c.nprocs,
                        "start_time", (json_int_t)c.start,
                        "end_time", (json_int_t)c.end,
                        "file_system", f.file_system
                                           ? json_string_nocheck(f.file_system)
                                           : json_null(),
                        "findings", f.list, "notes", f.notes,
                        "thresholds", th);
        if (res == NULL)
            rc = oom();
    }
    json_decref(f.list);
    json_decref(f.notes);
    json_decref(th);
    free(f.file_system);
    tokio__insights_client_free(&c);
    *out = res;
    return rc;
}

int
tokio_insights_level_rank(const json_t *finding)
{
    static const char *const names[] = { "high", "warning", "info", "ok" };
    const char *level = json_string_value(json_object_get(finding, "level"));

    for (int i = 0; level != NULL && i < 4; i++)
        if (strcmp(level, names[i]) == 0)
            return i;
    return 4;
}

/* ---- text --------------------------------------------------------------- */

/* `s` with control characters shown as '?': names come from the log and
 * must not drive the terminal. */
static void
clean(FILE *fp, const char *s)
{
    for (; s != NULL && *s != '\0'; s++)
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, fp);
}

static void
number_text(FILE *fp, double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        fprintf(fp, "%.0f", v);
    else
        fprintf(fp, "%.4g", v);
}

/* The findings' order for reading: by level, high first, then as the
 * rules ran. */
static size_t *
by_level(const json_t *findings)
{
    size_t n = json_array_size(findings), k = 0;
    size_t *order = tokio__calloc(n + 1, sizeof(*order));

    if (order == NULL)
        return NULL;
    for (int level = 0; level <= 4; level++)
        for (size_t i = 0; i < n; i++)
            if (tokio_insights_level_rank(json_array_get(findings, i)) ==
                level)
                order[k++] = i;
    return order;
}

static void
finding_text(FILE *fp, const json_t *x, int color)
{
    static const char *const tags[] = { "HIGH", "WARNING", "info", "ok",
                                        "n/a" };
    static const char *const colors[] = { "\033[1;31m", "\033[1;33m",
                                          "\033[36m", "\033[32m",
                                          "\033[2m" };
    int level = tokio_insights_level_rank(x);
    const json_t *v, *numbers = json_object_get(x, "numbers");
    const char *key, *rec;
    size_t i;
    int n = 0;

    fprintf(fp, "%s%-8s%s %s: ", color ? colors[level] : "", tags[level],
            color ? "\033[0m" : "",
            json_string_value(json_object_get(x, "code")));
    clean(fp, json_string_value(json_object_get(x, "title")));
    fputc('\n', fp);
    if (level >= 3)
        return;                 /* ok and n/a: the title says it all */
    json_object_foreach((json_t *)numbers, key, v) {
        fputs(n++ ? ", " : "         numbers: ", fp);
        fprintf(fp, "%s=", key);
        if (json_is_number(v))
            number_text(fp, json_number_value(v));
        else
            fputs("-", fp);
    }
    if (n > 0)
        fputc('\n', fp);
    json_array_foreach(json_object_get(x, "files"), i, v) {
        const char *name = json_string_value(json_object_get(v, "name"));
        json_int_t rank = json_integer_value(json_object_get(v, "rank"));
        const json_t *bytes = json_object_get(v, "bytes");
        char buf[64];
        fputs(i ? "                  " : "         files:   ", fp);
        if (name != NULL) {
            clean(fp, name);
            if (rank >= 0)
                fprintf(fp, " (rank %" JSON_INTEGER_FORMAT ")", rank);
        } else {
            fprintf(fp, "rank %" JSON_INTEGER_FORMAT, rank);
        }
        if (json_is_number(json_object_get(v, "value"))) {
            fputs(": ", fp);
            number_text(fp, json_number_value(json_object_get(v, "value")));
        }
        if (json_is_number(bytes))
            fprintf(fp, " (%s)", tokio__bytes_text(buf, sizeof(buf),
                                                   json_number_value(bytes)));
        fputc('\n', fp);
    }
    if ((rec = json_string_value(json_object_get(x, "recommendation"))))
        fprintf(fp, "         do:      %s\n", rec);
    fputs("         source:  ", fp);
    clean(fp, json_string_value(json_object_get(x, "source")));
    fputc('\n', fp);
}

int
tokio_insights_write_text(FILE *fp, const json_t *result, int color)
{
    const json_t *findings = json_object_get(result, "findings"), *v;
    const json_t *fs = json_object_get(result, "file_system");
    int64_t start = json_integer_value(json_object_get(result, "start_time"));
    int64_t end = json_integer_value(json_object_get(result, "end_time"));
    size_t *order = by_level(findings), i, counts[5] = { 0 };
    char a[32], b[32];

    if (order == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing insights");
    tokio_time_format(a, sizeof(a), start, "%Y-%m-%d %H:%M:%S");
    tokio_time_format(b, sizeof(b), end, "%Y-%m-%d %H:%M:%S");
    fputs("== ", fp);
    clean(fp, json_string_value(json_object_get(result, "log")));
    fprintf(fp, "\njob %" JSON_INTEGER_FORMAT ", %" JSON_INTEGER_FORMAT
            " processes, ",
            json_integer_value(json_object_get(result, "jobid")),
            json_integer_value(json_object_get(result, "nprocs")));
    clean(fp, json_string_value(json_object_get(result, "exe")));
    fprintf(fp, "\n%s to %s (%lld s), file system ", a, b,
            (long long)(end - start));
    clean(fp, json_is_string(fs) ? json_string_value(fs) : "unknown");
    fputs("\n\n", fp);
    for (i = 0; i < json_array_size(findings); i++) {
        const json_t *x = json_array_get(findings, order[i]);
        counts[tokio_insights_level_rank(x)]++;
        finding_text(fp, x, color);
    }
    free(order);
    json_array_foreach(json_object_get(result, "notes"), i, v) {
        fputs("note: ", fp);
        clean(fp, json_string_value(v));
        fputc('\n', fp);
    }
    fprintf(fp, "\n%zu high, %zu warning, %zu info, %zu ok, %zu not "
            "evaluated\n\n", counts[0], counts[1], counts[2], counts[3],
            counts[4]);
    return tokio__write_check(fp, "cannot write the insights");
}

/* ---- CSV ---------------------------------------------------------------- */

/* Every rule's code, in the order the rules run. */
static const char *const codes[] = {
    "stdio_share", "no_mpiio", "operation_intensity", "byte_intensity",
    "small_reads", "small_writes", "small_shared_reads",
    "small_shared_writes", "misaligned_memory", "misaligned_file",
    "redundant_reads", "redundant_writes", "random_reads", "random_writes",
    "metadata_time", "straggler_bytes", "straggler_time",
    "rank_imbalance_reads", "rank_imbalance_writes", "collective_reads",
    "collective_writes", "nonblocking_reads", "nonblocking_writes",
    "cb_nodes", "hdf5_small_dataset_access",
    "hdf5_collective_dataset_access", "pnetcdf_small_var_access",
    "pnetcdf_collective_var_access", "fs_contention", "ost_full",
    "ost_failover", "slow_ost", "metadata_pressure", "history",
};

#define N_CODES (sizeof(codes) / sizeof(*codes))

int
tokio_insights_write_csv(FILE *fp, const json_t *results)
{
    const char *fields[N_CODES + 2];
    const json_t *res;
    size_t i;

    fields[0] = "log";
    fields[1] = "jobid";
    memcpy(fields + 2, codes, sizeof(codes));
    tokio_csv_write_row(fp, fields, N_CODES + 2);
    json_array_foreach(results, i, res) {
        char jobid[32];
        snprintf(jobid, sizeof(jobid), "%" JSON_INTEGER_FORMAT,
                 json_integer_value(json_object_get(res, "jobid")));
        fields[0] = json_string_value(json_object_get(res, "log"));
        fields[1] = jobid;
        for (size_t k = 0; k < N_CODES; k++) {
            const json_t *x;
            size_t j;
            fields[k + 2] = "";
            json_array_foreach(json_object_get(res, "findings"), j, x)
                if (strcmp(json_string_value(json_object_get(x, "code")),
                           codes[k]) == 0) {
                    const char *level = json_string_value(
                        json_object_get(x, "level"));
                    fields[k + 2] = level ? level : "n/a";
                }
        }
        tokio_csv_write_row(fp, fields, N_CODES + 2);
    }
    return tokio__write_check(fp, "cannot write the insights");
}
