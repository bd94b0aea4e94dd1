/*
 * src/analysis/insights_server.c - the server side of `tokio insights`:
 * what the site's own data says about the job's window, which no
 * client-side adviser sees.
 *
 * - fs_contention: the job's bytes against the file system's in its
 *   window (the coverage factor, from summarize-job's row), and how hard
 *   the file system ran: its mean rate in the window against the highest
 *   it reached within fs_peak_window seconds either side (TTS/H5LMT
 *   datatargets/readrates and writerates), and its OSS CPU load.
 * - ost_full, ost_failover: the OSTs the job's files were striped on (the
 *   log's LUSTRE records) against the OST fullness and OST map snapshots
 *   just before its start (the site's lfsstatus providers, or the saved
 *   histories given), as tools/lfsstatus picks them.
 * - slow_ost: darshan-bad-ost's correlation over the job's own files.
 * - metadata_pressure: the MDS's CPU and operation rates in the window,
 *   when the client side shows heavy metadata time.
 * - history: where the run falls among earlier runs of the application
 *   (summarize-job rows), by UMAMI's quartiles.
 *
 * Data that is missing or unreadable makes a finding not evaluated, with
 * the reason; only running out of memory and an unreadable history (an
 * input named on the command line) fail.
 */
#include "analysis/insights_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "tokio/analysis/umami.h"
#include "tokio/config.h"
#include "tokio/connectors/nersc_lfsstate.h"
#include "tokio/csv.h"
#include "tokio/time.h"
#include "tokio/timeseries.h"
#include "tokio/tools/common.h"
#include "tokio/tools/darshan_indexer.h"
#include "tokio/tools/hdf5.h"
#include "tokio/tools/jobinfo.h"
#include "tokio/tools/summarize_job.h"
#include "core/alloc.h"
#include "core/error.h"
#include "tools/lfsstatus_private.h"

#define LMT_TIMESTEP_DEFAULT 5      /* summarize-job's, as the reference */
/* tools/lfsstatus' look-behind and look-ahead for the daily files */
#define LOOKBEHIND_SECONDS 86400
#define LOOKAHEAD_SECONDS 3600

static const struct {
    const char *code, *source;
} server_rules[] = {
    { "fs_contention", "the file system's TTS/H5LMT data (hdf5_files) in "
                       "the job's window, Darshan POSIX bytes" },
    { "ost_full", "OST fullness at the job's start (lfs df history or TTS "
                  "fullness), Darshan LUSTRE module" },
    { "ost_failover", "OST map at the job's start (lctl dl -t history), "
                      "Darshan LUSTRE module" },
    { "slow_ost", "darshan-bad-ost over the job's files (Darshan POSIX and "
                  "LUSTRE modules)" },
    { "metadata_pressure", "the file system's MDS data (TTS/H5LMT) in the "
                           "job's window, Darshan POSIX metadata time" },
    { "history", "summarize-job rows of earlier runs (--history), UMAMI "
                 "quartiles" },
};

void
tokio__insights_server_skipped(struct tokio__findings *f, const char *why)
{
    for (size_t i = 0; i < sizeof(server_rules) / sizeof(*server_rules); i++)
        tokio__not_evaluated(f, tokio__finding(f, server_rules[i].code,
                                               server_rules[i].source),
                             "%s", why);
}

static json_t *
finding(struct tokio__findings *f, size_t rule)
{
    return tokio__finding(f, server_rules[rule].code,
                          server_rules[rule].source);
}

static int
is_file(const char *path)
{
    struct stat st;

    return path != NULL && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A number of the row, NaN when absent. */
static double
row_num(const json_t *row, const char *key)
{
    const json_t *v = json_object_get(row, key);

    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A site-data failure becomes a reason; running out of memory stays. */
static int
reason(int rc, char *why, size_t size)
{
    if (rc == TOKIO_ENOMEM)
        return rc;
    snprintf(why, size, "%s", tokio_errmsg());
    return TOKIO_OK;
}

/* ---- the job's nodes ---------------------------------------------------- */

int
tokio__insights_job_nodes(struct tokio__client *c,
                          const struct tokio_config *cfg,
                          const struct tokio_insights_opts *o)
{
    const char *slurm = o->job.slurm_jobid;
    char **nodes = NULL, id[32];
    size_t n = 0;
    int rc;

    /* only cb_nodes needs them, and only to compare a hint */
    if (c->cb_nodes < 0 || c->m_coll_reads + c->m_coll_writes == 0) {
        snprintf(c->nodes_why, sizeof(c->nodes_why), "not needed");
        return TOKIO_OK;
    }
    snprintf(id, sizeof(id), "%lld", (long long)c->jobid);
    rc = tokio_jobinfo_get_job_nodes(cfg, slurm && !is_file(slurm) ? slurm
                                                                   : id,
                                     is_file(slurm) ? slurm : NULL, &nodes,
                                     &n);
    if (rc < 0)
        return reason(rc, c->nodes_why, sizeof(c->nodes_why));
    tokio_free_strings(nodes, n);
    c->nodes = n;
    if (n == 0)
        snprintf(c->nodes_why, sizeof(c->nodes_why), "the job's record "
                 "lists no nodes");
    return TOKIO_OK;
}

/* ---- the job's row ------------------------------------------------------ */

/* The file system: -f, else the busiest mount named by mount_to_fsname. */
static int
file_system(const char **out, const struct tokio__client *c,
            const struct tokio_config *cfg,
            const struct tokio_insights_opts *o,
            struct tokio_darshan_fsmap **map)
{
    int rc;

    *out = o->job.file_system;
    if (*out != NULL || c->mount == NULL)
        return TOKIO_OK;
    if ((rc = tokio_darshan_fsmap_new(map, cfg)) < 0)
        return rc;
    *out = tokio_darshan_fsmap_lookup(*map, c->mount);
    return TOKIO_OK;
}

/*
 * summarize-job's row over the log's window (its end plus the site's
 * lmt_timestep, as summarize-job takes it), for file system `fs`,
 * without reading the log again; its warnings become notes.
 */
static int
make_row(json_t **out, struct tokio__findings *f,
         const struct tokio__client *c, const struct tokio_config *cfg,
         const char *fs, const struct tokio_insights_opts *o)
{
    const json_t *step = cfg ? tokio_config_get(cfg, "lmt_timestep") : NULL;
    struct tokio_summarize_job_opts j = o->job;
    json_t *rows = NULL, *warnings = NULL, *w;
    size_t i;
    int rc;

    *out = NULL;
    j.has_window = 1;
    j.start = c->start;
    j.end = c->end + (json_is_integer(step) ? json_integer_value(step)
                                            : LMT_TIMESTEP_DEFAULT);
    j.file_system = fs;
    j.topology = NULL;          /* not used here */
    j.ost = 0;                  /* OSTs are read one by one below */
    j.silent_errors = 0;
    rc = tokio_summarize_job(&rows, &warnings, cfg, NULL, 0, &j);
    if (rc == TOKIO_ENOMEM)
        return rc;
    if (rc < 0) {
        tokio__note(f, "the site's data for the job's window could not be "
                    "gathered: %s", tokio_errmsg());
        return TOKIO_OK;
    }
    json_array_foreach(warnings, i, w)
        tokio__note(f, "%s", json_string_value(w));
    *out = json_incref(json_array_get(rows, 0));
    json_decref(rows);
    json_decref(warnings);
    return TOKIO_OK;
}

/* ---- fs_contention ------------------------------------------------------ */

/* Per-row sums of a byte-rate dataset; missing cells skipped, a row with
 * none present NaN.  *rows_out 0 when there is no data. */
static int
row_sums(const struct tokio_config *cfg, const char *fs, const char *dataset,
         int64_t start, int64_t end, double **sums, int64_t **times,
         size_t *rows_out, char *why, size_t size)
{
    struct tokio_timeseries *ts = NULL;
    int rc = tokio_hdf5_from_time_range(&ts, cfg, fs, dataset, start, end, 0);

    *rows_out = 0;
    if (rc < 0 || ts == NULL) {
        tokio_timeseries_free(ts);
        if (rc < 0)
            return reason(rc, why, size);
        snprintf(why, size, "no TTS/H5LMT file of %s covers the window", fs);
        return TOKIO_OK;
    }
    size_t n = tokio_timeseries_rows(ts), cols = tokio_timeseries_cols(ts);
    const double *d = tokio_timeseries_cdata(ts);
    *sums = tokio__calloc(n + 1, sizeof(**sums));
    *times = tokio__calloc(n + 1, sizeof(**times));
    if (*sums == NULL || *times == NULL) {
        tokio_timeseries_free(ts);
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    }
    memcpy(*times, tokio_timeseries_timestamps(ts), n * sizeof(**times));
    for (size_t r = 0; r < n; r++) {
        double s = 0;
        size_t present = 0;
        for (size_t k = 0; k < cols; k++)
            if (!tokio_timeseries_is_missing(d[r * cols + k])) {
                s += d[r * cols + k];
                present++;
            }
        (*sums)[r] = present ? s : NAN;
    }
    *rows_out = n;
    tokio_timeseries_free(ts);
    return TOKIO_OK;
}

/* The file system's load: its mean rate (read + write) in [start, end)
 * over the highest within `pad` seconds either side. */
static int
fs_load(const struct tokio_config *cfg, const char *fs, int64_t start,
        int64_t end, double pad, double *mean_out, double *peak_out,
        char *why, size_t size)
{
    static const char *const sets[2] = { "/datatargets/readrates",
                                         "/datatargets/writerates" };
    double *sums[2] = { NULL, NULL }, total = 0, n_in = 0;
    int64_t *times[2] = { NULL, NULL };
    size_t rows[2] = { 0, 0 };
    int rc = TOKIO_OK;

    *mean_out = *peak_out = NAN;
    for (int k = 0; k < 2 && rc == TOKIO_OK; k++)
        rc = row_sums(cfg, fs, sets[k], start - (int64_t)pad,
                      end + (int64_t)pad, &sums[k], &times[k], &rows[k], why,
                      size);
    /* both datasets come from the same files: same rows, same times */
    if (rc == TOKIO_OK && rows[0] > 0 && rows[0] == rows[1] &&
        memcmp(times[0], times[1], rows[0] * sizeof(int64_t)) == 0) {
        double peak = 0;
        for (size_t r = 0; r < rows[0]; r++) {
            double v = (isnan(sums[0][r]) ? 0 : sums[0][r]) +
                       (isnan(sums[1][r]) ? 0 : sums[1][r]);
            if (isnan(sums[0][r]) && isnan(sums[1][r]))
                continue;
            peak = fmax(peak, v);
            if (times[0][r] >= start && times[0][r] < end) {
                total += v;
                n_in++;
            }
        }
        *peak_out = peak;
        *mean_out = n_in > 0 ? total / n_in : NAN;
        if (n_in == 0)
            snprintf(why, size, "no sample of %s's rates falls in the "
                     "window", fs);
    } else if (rc == TOKIO_OK && rows[0] > 0 && rows[1] > 0) {
        snprintf(why, size, "%s's read and write rates are not sampled "
                 "alike", fs);
    }
    for (int k = 0; k < 2; k++) {
        free(sums[k]);
        free(times[k]);
    }
    return rc;
}

static int
fs_contention(struct tokio__findings *f, const struct tokio__client *c,
              const struct tokio_config *cfg, const json_t *row,
              const char *fs)
{
    json_t *x = finding(f, 0);
    double job = c->p_read.bytes + c->p_write.bytes;
    double fr = row_num(row, "fs_tot_bytes_read");
    double fw = row_num(row, "fs_tot_bytes_written");
    double fsb = (isnan(fr) ? 0 : fr) + (isnan(fw) ? 0 : fw);
    double cov_thr = tokio__threshold(f, x, "coverage_factor");
    double load_thr = tokio__threshold(f, x, "fs_load");
    double pad = tokio__threshold(f, x, "fs_peak_window");
    double cpu_thr = tokio__threshold(f, x, "oss_cpu_pct");
    double cpu = row_num(row, "fs_max_oss_cpu"), mean, peak, load;
    char why[512] = "", a[64], b[64];
    int rc;

    if (fs == NULL) {
        tokio__not_evaluated(f, x, "not evaluated: the job's file system is "
                             "unknown (give -f, or name its mount point in "
                             "the site's mount_to_fsname)");
        return TOKIO_OK;
    }
    if (isnan(fr) && isnan(fw)) {
        tokio__not_evaluated(f, x, "not evaluated: the site has no TTS/H5LMT "
                             "data of %s for the job's window (hdf5_files)",
                             fs);
        return TOKIO_OK;
    }
    if ((rc = fs_load(cfg, fs, c->start, c->end + 1, pad, &mean, &peak, why,
                      sizeof(why))) < 0)
        return rc;
    load = peak > 0 ? mean / peak : NAN;
    tokio__number(f, x, "job_bytes", job);
    tokio__number(f, x, "fs_bytes", fsb);
    tokio__number(f, x, "coverage_factor", fsb > 0 ? job / fsb : NAN);
    tokio__number(f, x, "fs_mean_bytes_per_sec", mean);
    tokio__number(f, x, "fs_peak_bytes_per_sec", peak);
    tokio__number(f, x, "fs_load", load);
    tokio__number(f, x, "max_oss_cpu", cpu);
    tokio__number(f, x, "ave_oss_cpu", row_num(row, "fs_ave_oss_cpu"));
    tokio__number(f, x, "concurrent_jobs",
                  row_num(row, "jobsdb_concurrent_jobs"));
    if (fsb <= 0) {
        tokio__not_evaluated(f, x, "not evaluated: %s recorded no bytes in "
                             "the job's window", fs);
        return TOKIO_OK;
    }
    if (why[0] != '\0')
        tokio__note(f, "fs_contention: the file system's load is unknown: "
                    "%s", why);
    double cov = job / fsb;
    int busy = load >= load_thr || cpu >= cpu_thr;
    int others = cov < cov_thr;
    tokio__bytes_text(a, sizeof(a), job);
    tokio__bytes_text(b, sizeof(b), fsb);
    if (others && busy) {
        tokio__found(f, x, TOKIO__HIGH, "%s was busy with other jobs' I/O: "
                     "the job moved %.1f%% of its bytes in the window (%s of "
                     "%s) while it ran at %.0f%% of its peak rate%s", fs,
                     100 * cov, a, b, isnan(load) ? 0 : 100 * load,
                     cpu >= cpu_thr ? ", its OSS CPUs near saturation" : "");
        tokio__recommend(f, x, "Little in the job causes this: compare with "
                         "runs at quieter times (--history), and tell the "
                         "center if it recurs; more stripes (lfs setstripe "
                         "-c) spread the job's share over more OSTs.");
    } else if (others) {
        tokio__found(f, x, TOKIO__INFO, "Other jobs moved most of %s's bytes "
                     "in the window (the job %.1f%%: %s of %s), but %s was "
                     "not near its peak (%.0f%%)", fs, 100 * cov, a, b, fs,
                     isnan(load) ? 0 : 100 * load);
    } else if (busy) {
        tokio__found(f, x, TOKIO__INFO, "%s ran near its peak (%.0f%%) "
                     "mostly with the job's own I/O (%.1f%%: %s of %s)", fs,
                     isnan(load) ? 0 : 100 * load, 100 * cov, a, b);
    } else {
        tokio__found(f, x, TOKIO__OK, "%s was not contended: the job moved "
                     "%.1f%% of its bytes in the window (%s of %s)", fs,
                     100 * cov, a, b);
    }
    if (cov > 1)
        tokio__note(f, "fs_contention: the job moved more bytes than %s "
                    "recorded in its window (client caching, or files on "
                    "another file system)", fs);
    return TOKIO_OK;
}

/* ---- the OSTs at the job's start ---------------------------------------- */

/* What the site knew of one OST just before the job started. */
struct ost_state {
    int64_t index;
    double pct;                 /* full; NaN: unknown */
    int failed_over;
};

struct osts_at {
    struct ost_state *s;
    size_t n;
    int64_t when;               /* the snapshot's time */
    char source[256];
};

static struct ost_state *
state_of(struct osts_at *a, int64_t index)
{
    for (size_t i = 0; i < a->n; i++)
        if (a->s[i].index == index)
            return &a->s[i];
    return NULL;
}

static int
add_state(struct osts_at *a, int64_t index, double pct, int failed_over)
{
    struct ost_state *s = state_of(a, index);

    if (s == NULL) {
        s = tokio__reallocarray(a->s, a->n + 1, sizeof(*a->s));
        if (s == NULL)
            return tokio__error(TOKIO_ENOMEM, "out of memory");
        a->s = s;
        s = &a->s[a->n++];
        *s = (struct ost_state){ index, NAN, 0 };
    }
    if (!isnan(pct))
        s->pct = pct;
    s->failed_over |= failed_over;
    return TOKIO_OK;
}

/* The backend name of a file system (scratch2 -> snx11035), as
 * tools/lfsstatus maps it. */
static const char *
backend(const struct tokio_config *cfg, const char *fs)
{
    const json_t *map = cfg ? tokio_config_get(cfg, "fsname_to_backend_name")
                            : NULL;
    const char *v = json_string_value(json_object_get(map, fs));

    return v && *v ? v : fs;
}

/* "OST001f" -> 31; -1 when it names no OST. */
static int64_t
ost_index(const char *name)
{
    const char *p = strrchr(name, '-');
    char *end;

    p = p ? p + 1 : name;
    if (strncasecmp(p, "OST", 3) != 0 || p[3] == '\0')
        return -1;
    long long v = strtoll(p + 3, &end, 16);
    return *end == '\0' && v >= 0 ? v : -1;
}

/*
 * A history (`kind`) of the saved file `file`, else of the site's files
 * named by `key` around `when`: the JSON of the last snapshot before
 * `when` (the first when none is), *snap_out a new reference or NULL with
 * the reason in `why`.  With `failovers`, the snapshot's failovers.
 */
static int
lfsstate_snapshot(json_t **snap_out, const struct tokio_config *cfg,
                  const char *file, const char *key, int map, int64_t when,
                  int64_t *time_out, char *why, size_t size)
{
    struct tokio_nersc_lfsstate *h = NULL;
    enum tokio_nersc_lfsstate_kind kind = map ? TOKIO_NERSC_LFSSTATE_MAP
                                              : TOKIO_NERSC_LFSSTATE_FULLNESS;
    json_t *all = NULL;
    char **paths = NULL;
    size_t n = 0;
    int rc = TOKIO_OK;

    *snap_out = NULL;
    if (file != NULL) {
        rc = tokio_nersc_lfsstate_open(&h, kind, file);
    } else {
        const json_t *tmpl = cfg ? tokio_config_get(cfg, key) : NULL;
        if (tmpl == NULL) {
            snprintf(why, size, "the site configuration has no %s", key);
            return TOKIO_OK;
        }
        rc = tokio_enumerate_dated_files(&paths, &n,
                                         when - LOOKBEHIND_SECONDS,
                                         when + LOOKAHEAD_SECONDS, tmpl,
                                         NULL, 1, 86400, 0);
        for (size_t i = 0; rc == TOKIO_OK && i < n; i++) {
            struct tokio_nersc_lfsstate *one = NULL;
            rc = tokio_nersc_lfsstate_open(&one, kind, paths[i]);
            if (rc == TOKIO_OK && h == NULL)
                h = one;
            else if (rc == TOKIO_OK)
                rc = tokio_nersc_lfsstate_merge(h, one);
        }
        tokio_free_strings(paths, n);
        if (rc == TOKIO_OK && h == NULL) {
            snprintf(why, size, "no %s file for the job's start", key);
            return TOKIO_OK;
        }
    }
    if (rc == TOKIO_OK)
        rc = map ? tokio_nersc_lfsstate_failovers(h, &all)
                 : tokio_nersc_lfsstate_to_json(h, &all);
    tokio_nersc_lfsstate_free(h);
    if (rc < 0)
        return reason(rc, why, size);
    /* the snapshot immediately before `when`, else the first */
    const char *k, *best = NULL, *first = NULL;
    json_t *v;
    int64_t best_t = INT64_MIN, first_t = INT64_MAX;
    json_object_foreach(all, k, v) {
        int64_t t = strtoll(k, NULL, 10);
        if (t < when && t > best_t) {
            best_t = t;
            best = k;
        }
        if (t < first_t) {
            first_t = t;
            first = k;
        }
    }
    if (best == NULL) {
        best = first;
        best_t = first_t;
    }
    if (best == NULL)
        snprintf(why, size, "the %s history holds no snapshot",
                 map ? "OST map" : "fullness");
    else
        *snap_out = json_incref(json_object_get(all, best));
    *time_out = best_t;
    json_decref(all);
    return TOKIO_OK;
}

/* OST fullness at the job's start, from the saved history, else the
 * site's providers in order (tools/lfsstatus' defaults: "hdf5", then
 * "nersc_lfsstate"). */
static int
fullness(struct osts_at *a, const struct tokio_config *cfg, const char *fs,
         int64_t when, const struct tokio_insights_opts *o, char *why,
         size_t size)
{
    const json_t *prov = cfg ? tokio_config_get(cfg,
                                                "lfsstatus_fullness_providers")
                             : NULL;
    size_t n = o->job.ost_fullness ? 1
               : prov == NULL ? 2
               : json_is_array(prov) ? json_array_size(prov) : 1;
    int rc = TOKIO_OK;

    snprintf(why, size, "no OST fullness provider is configured");
    for (size_t i = 0; i < n && a->n == 0; i++) {
        const char *p = o->job.ost_fullness ? "nersc_lfsstate"
                        : prov == NULL ? (i ? "nersc_lfsstate" : "hdf5")
                        : json_is_array(prov)
                            ? json_string_value(json_array_get(prov, i))
                            : json_string_value(prov);
        if (p != NULL && strcmp(p, "hdf5") == 0) {
            struct tokio__fullness_snapshot s = { 0 };
            int found = 0;
            rc = tokio__lfsstatus_hdf5_fullness(&s, &found, cfg, fs, when);
            for (size_t k = 0; rc == TOKIO_OK && k < s.n_targets; k++)
                if (strncasecmp(s.targets[k].name, "ost", 3) == 0 &&
                    s.targets[k].total_kib > 0)
                    rc = add_state(a, s.targets[k].target_index,
                                   100.0 * (double)s.targets[k].used_kib /
                                       (double)s.targets[k].total_kib, 0);
            a->when = s.timestamp;
            snprintf(a->source, sizeof(a->source), "TTS fullness of %s",
                     fs);
            tokio__fullness_snapshot_free(&s);
            if (rc < 0 && (rc = reason(rc, why, size)) < 0)
                return rc;
            if (rc == TOKIO_OK && !found)
                snprintf(why, size, "no TTS fullness data of %s near the "
                         "job's start", fs);
        } else if (p != NULL && strcmp(p, "nersc_lfsstate") == 0) {
            json_t *snap = NULL;
            const char *target;
            json_t *t;
            rc = lfsstate_snapshot(&snap, cfg, o->job.ost_fullness,
                                   "lfsstatus_fullness_files", 0, when,
                                   &a->when, why, size);
            json_object_foreach(json_object_get(snap, backend(cfg, fs)),
                                target, t) {
                double used = json_number_value(json_object_get(t,
                                                                "used_kib"));
                double total = json_number_value(json_object_get(
                    t, "total_kib"));
                int64_t idx = ost_index(target);
                if (rc == TOKIO_OK && idx >= 0 && total > 0)
                    rc = add_state(a, idx, 100.0 * used / total, 0);
            }
            if (rc == TOKIO_OK && snap != NULL && a->n == 0)
                snprintf(why, size, "the fullness snapshot has no OST of "
                         "%s", backend(cfg, fs));
            snprintf(a->source, sizeof(a->source), "lfs df history (%s)",
                     o->job.ost_fullness ? o->job.ost_fullness
                                         : "lfsstatus_fullness_files");
            json_decref(snap);
            if (rc < 0)
                return rc;
        }
    }
    return TOKIO_OK;
}

static void
files_on(struct tokio__findings *f, json_t *x, const struct tokio__client *c,
         int64_t index)
{
    for (size_t i = 0; i < c->n_osts; i++)
        if (c->osts[i].id == index)
            for (size_t k = 0; k < c->osts[i].n_files && k < (size_t)f->top;
                 k++)
                tokio__file(f, x, c->osts[i].names[k], -1, NAN, NAN);
}

/* Whether the job's OSTs are known; the finding says why not. */
static int
need_osts(struct tokio__findings *f, json_t *x, const struct tokio__client *c)
{
    if (!c->present[TOKIO_DARSHAN_LUSTRE])
        tokio__not_evaluated(f, x, "not evaluated: the log has no LUSTRE "
                             "module, so the job's OSTs are unknown");
    else if (c->n_osts == 0)
        tokio__not_evaluated(f, x, "not evaluated: the log's Lustre records "
                             "list no OST ids (%zu records without them)",
                             c->lustre_without_osts);
    else
        return 1;
    return 0;
}

static int
ost_full(struct tokio__findings *f, const struct tokio__client *c,
         const struct tokio_config *cfg, const char *fs,
         const struct tokio_insights_opts *o)
{
    json_t *x = finding(f, 1);
    double thr = tokio__threshold(f, x, "ost_full_pct");
    struct osts_at a = { 0 };
    size_t full = 0, known = 0;
    double most = -1;
    int64_t most_ost = -1;
    char why[512];
    int rc;

    if (!need_osts(f, x, c))
        return TOKIO_OK;
    if (fs == NULL && o->job.ost_fullness == NULL) {
        tokio__not_evaluated(f, x, "not evaluated: the job's file system is "
                             "unknown (give -f)");
        return TOKIO_OK;
    }
    if ((rc = fullness(&a, cfg, fs ? fs : "", c->start, o, why,
                       sizeof(why))) < 0) {
        free(a.s);
        return rc;
    }
    if (a.n == 0) {
        tokio__not_evaluated(f, x, "not evaluated: no OST fullness at the "
                             "job's start: %s", why);
        free(a.s);
        return TOKIO_OK;
    }
    for (size_t i = 0; i < c->n_osts; i++) {
        const struct ost_state *s = state_of(&a, c->osts[i].id);
        if (s == NULL || isnan(s->pct))
            continue;
        known++;
        full += s->pct > thr;
        if (s->pct > most) {
            most = s->pct;
            most_ost = s->index;
        }
    }
    tokio__number(f, x, "osts_used", (double)c->n_osts);
    tokio__number(f, x, "osts_known", (double)known);
    tokio__number(f, x, "osts_full", (double)full);
    tokio__number(f, x, "fullest_ost", most_ost >= 0 ? (double)most_ost
                                                     : NAN);
    tokio__number(f, x, "fullest_pct", most >= 0 ? most : NAN);
    tokio__number(f, x, "snapshot_time", (double)a.when);
    tokio__number(f, x, "lead_seconds", (double)(c->start - a.when));
    tokio__source(f, x, "%s, Darshan LUSTRE module", a.source);
    if (known == 0) {
        tokio__not_evaluated(f, x, "not evaluated: the fullness snapshot "
                             "(%s) has none of the job's %zu OSTs", a.source,
                             c->n_osts);
    } else if (full > 0) {
        tokio__found(f, x, TOKIO__HIGH, "%zu of the job's %zu OSTs were more "
                     "than %.0f%% full at its start (OST %lld: %.1f%%)", full,
                     c->n_osts, thr, (long long)most_ost, most);
        tokio__recommend(f, x, "Stripe new files away from full OSTs (lfs "
                         "setstripe, or an OST pool) and tell the center: "
                         "Lustre slows writes to nearly full OSTs, and they "
                         "can run out of space.");
        for (size_t i = 0; i < c->n_osts; i++) {
            const struct ost_state *s = state_of(&a, c->osts[i].id);
            if (s != NULL && s->pct > thr)
                files_on(f, x, c, s->index);
        }
    } else {
        tokio__found(f, x, TOKIO__OK, "None of the job's %zu OSTs was more "
                     "than %.0f%% full at its start (the fullest: OST %lld, "
                     "%.1f%%)", c->n_osts, thr, (long long)most_ost, most);
    }
    free(a.s);
    return TOKIO_OK;
}

static int
ost_failover(struct tokio__findings *f, const struct tokio__client *c,
             const struct tokio_config *cfg, const char *fs,
             const struct tokio_insights_opts *o)
{
    json_t *x = finding(f, 2), *snap = NULL;
    const json_t *mine, *list, *v;
    struct osts_at a = { 0 };
    const char *ip;
    size_t hit = 0, servers = 0, i;
    char why[512] = "", names[256] = "";
    int rc;

    if (!need_osts(f, x, c))
        return TOKIO_OK;
    if (fs == NULL && o->job.ost_map == NULL) {
        tokio__not_evaluated(f, x, "not evaluated: the job's file system is "
                             "unknown (give -f)");
        return TOKIO_OK;
    }
    if ((rc = lfsstate_snapshot(&snap, cfg, o->job.ost_map,
                                "lfsstatus_map_files", 1, c->start, &a.when,
                                why, sizeof(why))) < 0)
        return rc;
    mine = json_object_get(snap, backend(cfg, fs ? fs : ""));
    if (snap == NULL || mine == NULL) {
        tokio__not_evaluated(f, x, "not evaluated: no OST map at the job's "
                             "start: %s", snap == NULL ? why
                             : "the snapshot has no such file system");
        json_decref(snap);
        return TOKIO_OK;
    }
    json_object_foreach((json_t *)json_object_get(mine, "abnormal_ips"), ip,
                        list) {
        servers++;
        json_array_foreach(list, i, v) {
            int64_t idx = ost_index(json_string_value(v));
            if (idx >= 0 && (rc = add_state(&a, idx, NAN, 1)) < 0) {
                json_decref(snap);
                free(a.s);
                return rc;
            }
        }
    }
    for (i = 0; i < c->n_osts; i++)
        if (state_of(&a, c->osts[i].id) != NULL) {
            size_t len = strlen(names);
            if (hit++ < 8 && len + 24 < sizeof(names))
                snprintf(names + len, sizeof(names) - len, "%s%lld",
                         len ? ", " : "", (long long)c->osts[i].id);
        }
    tokio__number(f, x, "osts_used", (double)c->n_osts);
    tokio__number(f, x, "osts_failed_over", (double)hit);
    tokio__number(f, x, "overloaded_servers", (double)servers);
    tokio__number(f, x, "usual_osts_per_server",
                  json_number_value(json_object_get(mine, "mode")));
    tokio__number(f, x, "snapshot_time", (double)a.when);
    if (hit > 0) {
        tokio__found(f, x, TOKIO__HIGH, "%zu of the job's %zu OSTs (%s%s) "
                     "were on servers holding an unusual number of OSTs at "
                     "its start: failed over, and serving their partners' "
                     "load too", hit, c->n_osts, names, hit > 8 ? ", ..." : "");
        tokio__recommend(f, x, "Expect slower I/O on those OSTs until the "
                         "failover is undone; run later, or stripe new "
                         "files away from them (lfs setstripe).");
        for (i = 0; i < c->n_osts; i++)
            if (state_of(&a, c->osts[i].id) != NULL)
                files_on(f, x, c, c->osts[i].id);
    } else {
        tokio__found(f, x, TOKIO__OK, "None of the job's %zu OSTs was on a "
                     "failed-over server at its start (%zu servers "
                     "abnormal)", c->n_osts, servers);
    }
    json_decref(snap);
    free(a.s);
    return TOKIO_OK;
}

/* ---- slow_ost ----------------------------------------------------------- */

static void
slow_ost(struct tokio__findings *f, const struct tokio__client *c)
{
    json_t *x = finding(f, 3);
    double p_thr = tokio__threshold(f, x, "slow_ost_p");
    double r_thr = tokio__threshold(f, x, "slow_ost_coefficient");
    const struct tokio_darshan_bad_ost_result *worst = NULL;
    size_t significant = 0;

    if (!need_osts(f, x, c))
        return;
    if (!c->bad_ost_done || c->n_bad_ost == 0) {
        tokio__not_evaluated(f, x, "not evaluated: %zu file%s with both POSIX "
                             "and LUSTRE records and time spent on them: "
                             "too few, or too alike, to correlate",
                             c->bad_ost_files,
                             c->bad_ost_files == 1 ? "" : "s");
        return;
    }
    for (size_t i = 0; i < c->n_bad_ost; i++) {
        const struct tokio_darshan_bad_ost_result *r = &c->bad_ost[i];
        if (r->p_value < p_thr && r->coefficient < -r_thr)
            significant++;
        if (worst == NULL || r->coefficient < worst->coefficient)
            worst = r;
    }
    tokio__number(f, x, "files", (double)c->bad_ost_files);
    tokio__number(f, x, "osts_correlated", (double)c->n_bad_ost);
    tokio__number(f, x, "osts_slow", (double)significant);
    tokio__number(f, x, "worst_ost", (double)worst->ost_id);
    tokio__number(f, x, "worst_coefficient", worst->coefficient);
    tokio__number(f, x, "worst_p_value", worst->p_value);
    if (significant > 0 && worst->p_value < p_thr) {
        tokio__found(f, x, TOKIO__HIGH, "%s goes with slow files: over the "
                     "job's %zu files, their speed and their share of it "
                     "correlate at r = %.3f (p = %.3g)%s", worst->ost_name,
                     c->bad_ost_files, worst->coefficient, worst->p_value,
                     significant > 1 ? ", and other OSTs too" : "");
        tokio__recommend(f, x, "Tell the center about %s (darshan-bad-ost "
                         "over other jobs' logs confirms it), and stripe "
                         "new files away from it (lfs setstripe).",
                         worst->ost_name);
        files_on(f, x, c, worst->ost_id);
    } else {
        tokio__found(f, x, TOKIO__OK, "No OST goes with slow files over the "
                     "job's %zu files (the most suspicious, %s: r = %.3f, "
                     "p = %.3g)", c->bad_ost_files, worst->ost_name,
                     worst->coefficient, worst->p_value);
    }
}

/* ---- metadata_pressure -------------------------------------------------- */

static void
metadata_pressure(struct tokio__findings *f, const struct tokio__client *c,
                  const json_t *row, const char *fs)
{
    json_t *x = finding(f, 4);
    double thr = tokio__threshold(f, x, "metadata_time_rank");
    double cpu_thr = tokio__threshold(f, x, "mds_cpu_pct");
    double most = 0, ops = NAN;
    double max_cpu = row_num(row, "fs_max_mds_cpu");
    const char *key;
    json_t *v;

    if (!c->present[TOKIO_DARSHAN_POSIX] || c->ranks == NULL) {
        tokio__not_evaluated(f, x, "not evaluated: %s",
                             c->present[TOKIO_DARSHAN_POSIX]
                                 ? tokio__ranks_why(c)
                                 : "the log has no POSIX module");
        return;
    }
    for (int64_t r = 0; r < c->nprocs; r++)
        most = fmax(most, c->ranks[r].meta +
                              c->shared_meta / (double)c->nprocs);
    /* the MDT's mean operation rates, all operations */
    json_object_foreach((json_t *)row, key, v)
        if (strncmp(key, "fs_ave_", 7) == 0 &&
            strstr(key, "_ops_per_sec") != NULL && json_is_number(v))
            ops = (isnan(ops) ? 0 : ops) + json_number_value(v);
    tokio__number(f, x, "max_rank_seconds", most);
    tokio__number(f, x, "max_mds_cpu", max_cpu);
    tokio__number(f, x, "ave_mds_cpu", row_num(row, "fs_ave_mds_cpu"));
    tokio__number(f, x, "mds_ops_per_sec", ops);
    if (most <= thr) {
        tokio__found(f, x, TOKIO__OK, "The job's metadata time was light "
                     "(the most on one rank: %.1f s): the metadata server "
                     "was not a factor", most);
    } else if (fs == NULL || isnan(max_cpu)) {
        tokio__not_evaluated(f, x, "not evaluated: the job spent up to %.1f "
                             "s per rank in metadata, but the site has no "
                             "MDS data%s%s for its window", most,
                             fs ? " of " : "", fs ? fs : "");
    } else if (max_cpu >= cpu_thr) {
        tokio__found(f, x, TOKIO__WARNING, "The metadata server was busy "
                     "too (CPU up to %.0f%%, %.0f operations/s on average) "
                     "while ranks spent up to %.1f s in metadata", max_cpu,
                     isnan(ops) ? 0 : ops, most);
        tokio__recommend(f, x, "Cut the job's metadata operations (see "
                         "metadata_time); when the server is busy with "
                         "others, every open and stat waits longer.");
    } else {
        tokio__found(f, x, TOKIO__INFO, "The metadata server was not busy "
                     "(CPU up to %.0f%%): the %.1f s per rank in metadata "
                     "are the job's own pattern (see metadata_time)",
                     max_cpu, most);
    }
}

/* ---- history ------------------------------------------------------------ */

/* The metrics compared with earlier runs: summarize-job's columns. */
struct metric {
    const char *column, *label;
    int big_is_good;
    double value;
};

/* Where `value` falls among `vals` (n, NaN skipped), by UMAMI's
 * quartiles: 0 worst .. 3 best, or -1 when it cannot tell; *worse_out
 * the share of runs better than it. */
static int
quartile(const struct metric *m, const int64_t *times, const double *vals,
         size_t n, int64_t now, double *worse_out)
{
    static const char *const order[4] = {
        TOKIO_UMAMI_COLOR_Q1, TOKIO_UMAMI_COLOR_Q2, TOKIO_UMAMI_COLOR_Q3,
        TOKIO_UMAMI_COLOR_Q4
    };
    struct tokio_umami *u = NULL;
    const char *color = NULL;
    double better = 0, counted = 0;
    int q = -1;

    for (size_t i = 0; i < n; i++)
        if (!isnan(vals[i])) {
            counted++;
            better += m->big_is_good ? vals[i] > m->value
                                     : vals[i] < m->value;
        }
    *worse_out = counted > 0 ? better / counted : NAN;
    if (counted < 2)
        return -1;
    if (tokio_umami_new(&u) == TOKIO_OK &&
        tokio_umami_add(u, m->column, m->label, m->big_is_good, times, vals,
                        n) == TOKIO_OK &&
        tokio_umami_append(u, m->column, now, m->value) == TOKIO_OK &&
        tokio_umami_highlight_color(u, 0, -1, &color) == TOKIO_OK)
        for (int k = 0; k < 4; k++)
            if (strcmp(color, order[k]) == 0)
                /* red is the worst quartile whichever way is good */
                q = m->big_is_good ? k : 3 - k;
    tokio_umami_free(u);
    return q;
}

/* Row indices of the earlier runs to compare with: this application's
 * (when the history says), not this job, the latest `keep` by time. */
struct run {
    size_t row;
    int64_t time;
};

static int
by_time(const void *a, const void *b)
{
    const struct run *x = a, *y = b;

    return (x->time > y->time) - (x->time < y->time);
}

static int
history(struct tokio__findings *f, const struct tokio__client *c,
        const struct tokio_insights_opts *o)
{
    json_t *x = finding(f, 5);
    double keep = tokio__threshold(f, x, "history_runs");
    struct metric metrics[] = {
        { "darshan_agg_perf_by_slowest_posix", "performance (MiB/s)", 1,
          c->has_perf ? c->agg_perf : NAN },
        { "darshan_io_time", "I/O time (s)", 0,
          c->has_perf ? c->io_time : NAN },
        { "darshan_tot_f_meta_time_posix", "metadata time (s)", 0,
          c->present[TOKIO_DARSHAN_POSIX] ? c->meta_time : NAN },
    };
    struct tokio_csv *t = NULL;
    struct run *runs = NULL;
    int64_t *times = NULL;
    double *vals = NULL;
    char app[256] = "";
    size_t n = 0, rows;
    int rc, told = 0;

    if (o->history == NULL) {
        tokio__not_evaluated(f, x, "not evaluated: no history of earlier "
                             "runs (give --history with summarize-job rows "
                             "of them)");
        return TOKIO_OK;
    }
    if ((rc = tokio_csv_open(&t, o->history)) < 0)
        return rc;
    tokio__source(f, x, "%s (summarize-job rows of earlier runs), UMAMI "
                  "quartiles", o->history);
    rows = tokio_csv_rows(t);
    sscanf(c->exe, "%255s", app);
    long tcol = tokio_csv_column(t, "_datetime_start");
    long acol = tokio_csv_column(t, "darshan_app");
    long jcol = tokio_csv_column(t, "_jobid");
    int same_app = 0;
    for (size_t r = 1; acol >= 0 && app[0] && r <= rows; r++)
        same_app |= strcmp(tokio_csv_cell(t, r, (size_t)acol), app) == 0;
    runs = tokio__calloc(rows + 1, sizeof(*runs));
    times = tokio__calloc(rows + 1, sizeof(*times));
    vals = tokio__calloc(rows + 1, sizeof(*vals));
    if (runs == NULL || times == NULL || vals == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t r = 1; r <= rows; r++) {
        const char *s = tokio_csv_cell(t, r, tcol >= 0 ? (size_t)tcol : 0);
        char id[32];
        int64_t when;
        snprintf(id, sizeof(id), "%lld", (long long)c->jobid);
        if ((same_app && strcmp(tokio_csv_cell(t, r, (size_t)acol), app)) ||
            (jcol >= 0 && strcmp(tokio_csv_cell(t, r, (size_t)jcol), id) ==
                              0))
            continue;
        if (tokio_time_parse(s, &when) < 0) {
            double e = strtod(s, NULL);       /* epoch seconds */
            when = e > -9e18 && e < 9e18 ? (int64_t)e : 0;
        }
        runs[n++] = (struct run){ r, when };
    }
    qsort(runs, n, sizeof(*runs), by_time);
    if (keep > 0 && (double)n > keep) {
        memmove(runs, runs + n - (size_t)keep, (size_t)keep * sizeof(*runs));
        n = (size_t)keep;
    }
    tokio__number(f, x, "runs", (double)n);
    for (size_t m = 0; m < sizeof(metrics) / sizeof(*metrics); m++) {
        long col = tokio_csv_column(t, metrics[m].column);
        double worse;
        char key[128];
        if (col < 0 || isnan(metrics[m].value))
            continue;
        for (size_t i = 0; i < n; i++) {
            const char *s = tokio_csv_cell(t, runs[i].row, (size_t)col);
            char *end;
            times[i] = runs[i].time;
            vals[i] = strtod(s, &end);
            if (end == s || *end != '\0')
                vals[i] = NAN;
        }
        int q = quartile(&metrics[m], times, vals, n, c->start, &worse);
        if (q < 0)
            continue;
        snprintf(key, sizeof(key), "%s", metrics[m].column);
        tokio__number(f, x, key, metrics[m].value);
        snprintf(key, sizeof(key), "%s_runs_better_share",
                 metrics[m].column);
        tokio__number(f, x, key, worse);
        snprintf(key, sizeof(key), "%s_quartile", metrics[m].column);
        tokio__number(f, x, key, q + 1);
        if (told++)
            continue;           /* the first metric known speaks */
        const char *of = same_app ? " of " : "";
        if (q == 0) {
            tokio__found(f, x, TOKIO__WARNING, "This run's %s (%.4g) is "
                         "worse than %.0f%% of the last %zu runs%s%s: the "
                         "worst quartile", metrics[m].label,
                         metrics[m].value, 100 * worse, n, of,
                         same_app ? app : "");
            tokio__recommend(f, x, "See what changed: the server-side "
                             "findings tell whether the file system was "
                             "the difference (fs_contention, ost_full, "
                             "ost_failover, slow_ost), the client-side ones "
                             "whether the job was.");
        } else {
            tokio__found(f, x, q == 1 ? TOKIO__INFO : TOKIO__OK, "This "
                         "run's %s (%.4g) is worse than %.0f%% of the last "
                         "%zu runs%s%s: quartile %d of 4 (4 is the best)",
                         metrics[m].label, metrics[m].value, 100 * worse, n,
                         of, same_app ? app : "", q + 1);
        }
    }
    if (!told)
        tokio__not_evaluated(f, x, "not evaluated: the history (%zu earlier "
                             "runs) has too few values of this run's "
                             "metrics (%s, %s, %s)", n, metrics[0].column,
                             metrics[1].column, metrics[2].column);
    if (acol >= 0 && app[0] && !same_app)
        tokio__note(f, "history: no earlier run of %s; compared with every "
                    "run of the history", app);
done:
    free(runs);
    free(times);
    free(vals);
    tokio_csv_free(t);
    return rc;
}

/* ---- all of them -------------------------------------------------------- */

int
tokio__insights_server_rules(struct tokio__findings *f,
                             const struct tokio__client *c,
                             const struct tokio_config *cfg,
                             const json_t *row,
                             const struct tokio_insights_opts *o)
{
    struct tokio_darshan_fsmap *map = NULL;
    json_t *made = NULL;
    const char *fs = NULL;
    int rc = TOKIO_OK;

    if (row != NULL)
        fs = json_string_value(json_object_get(row, "_file_system"));
    else if ((rc = file_system(&fs, c, cfg, o, &map)) < 0 &&
             rc != TOKIO_ENOMEM) {
        tokio__note(f, "the job's file system is unknown: %s",
                    tokio_errmsg());
        rc = TOKIO_OK;
    }
    if (rc == TOKIO_OK && fs != NULL &&
        (f->file_system = tokio__strdup(fs)) == NULL)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory");
    tokio_darshan_fsmap_free(map);
    fs = f->file_system;
    if (rc == TOKIO_OK && row == NULL && fs != NULL)
        rc = make_row(&made, f, c, cfg, fs, o);
    if (row == NULL)
        row = made;
    if (rc == TOKIO_OK)
        rc = fs_contention(f, c, cfg, row, fs);
    if (rc == TOKIO_OK)
        rc = ost_full(f, c, cfg, fs, o);
    if (rc == TOKIO_OK)
        rc = ost_failover(f, c, cfg, fs, o);
    if (rc == TOKIO_OK) {
        slow_ost(f, c);
        metadata_pressure(f, c, row, fs);
        rc = history(f, c, o);
    }
    json_decref(made);
    return rc;
}
