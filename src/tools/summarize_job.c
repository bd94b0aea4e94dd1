/*
 * src/tools/summarize_job.c - one job seen from every source the site
 * has, as one row of scalars per Darshan log: the reference's
 * tokio/cli/summarize_job.py (pytokio 0.13), its logic here and its
 * options and output in src/cli/summarize-job.c.
 *
 * A row is built as the reference built its dict, key by key in its
 * order (the CSV's columns follow it):
 *   _datetime_start, _datetime_end  the log's start and end (the end plus
 *                      the site's lmt_timestep, 5 s by default: LMT still
 *                      flushes then), or --start-time/--end-time;
 *   _jobid             --slurm-jobid, else the log's;
 *   darshan_*          the log's header, POSIX totals and performance,
 *                      the API and file system that moved most bytes;
 *   _file_system       -f, else the busiest mount named by the site's
 *                      mount_to_fsname (re.search, first match);
 *   fs_*               the file system's TTS/H5LMT datasets over the
 *                      window (tools/hdf5): byte rates, CPU loads,
 *                      metadata op rates, the fraction missing;
 *   topology_*         the job's radius in the network (tools/topology);
 *   fshealth_ost_*     OST fullness and failovers at the job's start
 *                      (tools/lfsstatus);
 *   jobsdb_concurrent_* the jobs that ran beside it.
 * With --dxt, after darshan_*, the dxt_* keys of a heat map of the log's
 * DXT traces folded in the same pass (tokio__dxt_layers).
 *
 * Darshan values are read from the log's JSON (connectors/darshan_json),
 * typed as the reference typed darshan-parser's text, so sums and
 * minima keep its integers and reals.
 *
 * Differs from pytokio:
 * - A file that is no Darshan log is an error naming it, or with
 *   --silent-errors skipped with a warning (the reference made an empty
 *   row, dropped unless it held the --slurm-jobid).
 * - A single-row metadata dataset is summarized without a total (the
 *   reference raised); a single-row byte-rate one without any key, as
 *   there.
 */
#include "tokio/tools/summarize_job.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "tokio/config.h"
#include "tokio/connectors/cachingdb.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_json.h"
#include "tokio/connectors/nersc_jobsdb.h"
#include "tokio/connectors/slurm.h"
#include "tokio/time.h"
#include "tokio/timeseries.h"
#include "tokio/tools/hdf5.h"
#include "tokio/tools/lfsstatus.h"
#include "tokio/tools/topology.h"
#include "core/alloc.h"
#include "core/error.h"
#include "tools/summarize_job_private.h"

/* The POSIX counters the reference summarized, in its order. */
static const char *const useful_counters[] = {
    "BYTES_READ", "BYTES_WRITTEN", "READS", "WRITES", "F_META_TIME",
    "F_READ_TIME", "F_WRITE_TIME", "OPENS", "SEQ_READS", "SEQ_WRITES",
    "STATS", "FILE_NOT_ALIGNED", "MEM_NOT_ALIGNED",
};

#define LMT_TIMESTEP_DEFAULT 5

/* What one row is built with. */
struct job {
    const struct tokio_config *cfg;
    const struct tokio_summarize_job_opts *o;
    json_t *row, *warnings;
    int64_t start, end;         /* the window, epoch seconds */
    int has_window;
};

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory summarizing a job");
}

/* row[key] = value (stolen; NULL: out of memory). */
static int
put(struct job *j, const char *key, json_t *value)
{
    return json_object_set_new(j->row, key, value) < 0 ? oom() : TOKIO_OK;
}

static int
warn(struct job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
warn(struct job *j, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return json_array_append_new(j->warnings, json_string(buf)) < 0 ? oom()
                                                                    : 0;
}

/* A local time as the reference's naive datetime serialized: its wall
 * clock read as UTC. */
static double
naive(int64_t epoch)
{
    char buf[32];
    int y, mo, d, h, mi, s;

    tokio_time_format(buf, sizeof(buf), epoch, "%Y %m %d %H %M %S");
    if (sscanf(buf, "%d %d %d %d %d %d", &y, &mo, &d, &h, &mi, &s) != 6)
        return (double)epoch;
    /* days from civil (Howard Hinnant's algorithm) */
    y -= mo <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    long days = era * 146097 + doe - 719468;
    return (double)days * 86400.0 + h * 3600.0 + mi * 60.0 + s;
}

static char *
local_text(int64_t epoch, char *buf, size_t size)
{
    tokio_time_format(buf, size, epoch, "%Y-%m-%d %H:%M:%S");
    return buf;
}

/* ---- the Darshan log ---------------------------------------------------- */

/* A number's value, and whether it is one. */
static int
number(const json_t *v, double *out)
{
    if (!json_is_number(v))
        return 0;
    *out = json_number_value(v);
    return 1;
}

/* The JSON key of module `mod` ("MPI-IO" -> "mpiio"). */
static void
module_key(int mod, char *buf, size_t size)
{
    const char *name = tokio_darshan_module_name(mod);
    size_t n = 0;

    for (; name != NULL && *name != '\0' && n + 1 < size; name++)
        if (*name != '-')
            buf[n++] = (char)(*name >= 'A' && *name <= 'Z' ? *name + 32
                                                           : *name);
    buf[n] = '\0';
}

/*
 * The Darshan log is read once, its records folded as the reader decodes
 * them (tokio_darshan_open_select()): the --perf figures by the
 * library's own fold (tokio_darshan_fold_record(), given to
 * tokio_darshan_to_json() for the header and "_perf"), the POSIX sums,
 * minima and maxima and each module's bytes per mount here.  Nothing per
 * record is kept but, for each POSIX record, its name, rank and three
 * times (32 bytes): the reference summed F_*_TIME in its JSON's key
 * order (name, then rank as text), and floating-point sums depend on
 * order.  Before, the whole log's --base JSON was built to read these
 * few figures off it.  summarize-job --json of bench_darshan_gen's logs:
 * 100,000 records (15 MB): 5.4-8 s and 1.34 GB peak before, 0.4 s and
 * 19 MB now; 1,000,000 records (150 MB): 85 s and 13.2 GB before,
 * 3.6 s and 64 MB now.
 * Differs from before: a log with two records of one module under one
 * name and rank is summed, not refused (the JSON had no room for both).
 */

/* The POSIX times the reference summed, by fcounter (sorted later). */
static const char *const posix_times[] = {
    "F_META_TIME", "F_READ_TIME", "F_WRITE_TIME"
};

/* One POSIX record's key in the reference's JSON and its times. */
struct posix_rec {
    const char *name;           /* borrowed from the log */
    int64_t rank;
    double t[3];                /* posix_times, as printed */
};

/* What a useful counter was: its sum, extremes and how many had it. */
struct counter_stat {
    int fcounter;               /* index into fcounters (else counters) */
    int idx;                    /* -1: the module has no such counter */
    size_t n;
    int64_t tot, imin, imax;    /* counters */
    double dmin, dmax;          /* fcounters */
};

/* A module's bytes through one mount (the last slot: "_unknown"). */
struct mount_bytes {
    double b[2];                /* read, written */
    char *first;                /* the smallest name seen: its JSON order */
    int seen;
};

/* The folded log. */
struct fold {
    struct tokio_darshan_fold *derived;     /* --perf */
    struct counter_stat stats[sizeof(useful_counters) / sizeof(*useful_counters)];
    int times[3];                           /* fcounters of posix_times */
    struct posix_rec *posix;
    size_t n_posix, cap_posix;
    int bytes_idx[TOKIO_DARSHAN_KNOWN_MODULES][2];
    double bytes[TOKIO_DARSHAN_KNOWN_MODULES][2];
    double files[TOKIO_DARSHAN_KNOWN_MODULES][2];
    int had_records[TOKIO_DARSHAN_KNOWN_MODULES];
    size_t n_mounts;                        /* the table's, + 1 */
    struct mount_bytes *by_mount[TOKIO_DARSHAN_KNOWN_MODULES];
    int dxt;                                /* --dxt: the heat map */
    struct tokio__dxt_layers layers;
};

int
tokio__job_counter_index(int mod, const char *name, int fcounter)
{
    char want[96];
    size_t k = 0;

    for (const char *p = tokio_darshan_module_name(mod); p && *p; p++)
        if (*p != '-' && *p != '/' && k + 1 < sizeof(want))
            want[k++] = *p;
    snprintf(want + k, sizeof(want) - k, "_%s", name);
    return tokio_darshan_counter_index(mod, want, fcounter);
}

int
tokio__job_module_printed(const struct tokio_darshan *log, int mod)
{
    if (tokio_darshan_module_len(log, mod) == 0)
        return tokio_darshan_module_partial(log, mod);
    return mod > TOKIO_DARSHAN_NULL && mod != TOKIO_DARSHAN_APXC &&
           mod != TOKIO_DARSHAN_APMPI && mod != TOKIO_DARSHAN_DXT_POSIX &&
           mod != TOKIO_DARSHAN_DXT_MPIIO;
}

int
tokio__job_module_listed(const struct tokio_darshan *log, int mod, int had_records)
{
    return had_records || (tokio_darshan_module_len(log, mod) != 0 &&
                           (TOKIO_DARSHAN_DERIVED_MODULES &
                            TOKIO_DARSHAN_MODULE_BIT(mod)) != 0);
}

const char *
tokio__job_record_name(const struct tokio_darshan *log, int mod,
            const struct tokio_darshan_record *r, char *buf, size_t size)
{
    const char *name = tokio_darshan_name(log, r->id);

    if (mod == TOKIO_DARSHAN_DAOS) {
        snprintf(buf, size, "%" PRIu64 ".%" PRIu64, r->oid_hi, r->oid_lo);
        return buf;
    }
    if (name == NULL)       /* glibc prints a NULL %s as "(null)" */
        name = mod == TOKIO_DARSHAN_BGQ ? "darshan-bgq-record" : "(null)";
    return name;
}

/* The mount point `name` is under (the longest), as a slot of
 * struct fold's by_mount: the table's index, or its size when none. */
static size_t
mount_slot(const struct tokio_darshan *log, const char *name)
{
    size_t n = tokio_darshan_mount_count(log), best = n, len = 0;

    for (size_t i = 0; i < n; i++) {
        const char *m = tokio_darshan_mount(log, i)->path;
        size_t l = strlen(m);
        if (strncmp(name, m, l) == 0 && (best == n || l > len)) {
            best = i;
            len = l;
        }
    }
    return best;
}

/* POSIX record `r`: its useful counters and times. */
static int
fold_posix(struct fold *f, const struct tokio_darshan_record *r,
           const char *name)
{
    for (size_t k = 0; k < sizeof(f->stats) / sizeof(*f->stats); k++) {
        struct counter_stat *s = &f->stats[k];
        if (s->idx < 0)
            continue;
        if (s->fcounter) {
            double x = r->fcounters[s->idx];
            if (!isfinite(x))           /* a string in the JSON */
                continue;
            x = tokio_darshan_printed(x);
            if (s->n == 0 || s->dmin > x)
                s->dmin = x;
            if (s->n == 0 || s->dmax < x)
                s->dmax = x;
        } else {
            int64_t x = r->counters[s->idx];
            s->tot = (int64_t)((uint64_t)s->tot + (uint64_t)x);
            if (s->n == 0 || s->imin > x)
                s->imin = x;
            if (s->n == 0 || s->imax < x)
                s->imax = x;
        }
        s->n++;
    }
    if (f->n_posix == f->cap_posix) {
        size_t cap = f->cap_posix ? 2 * f->cap_posix : 1024;
        void *p = tokio__reallocarray(f->posix, cap, sizeof(*f->posix));
        if (p == NULL)
            return oom();
        f->posix = p;
        f->cap_posix = cap;
    }
    struct posix_rec *p = &f->posix[f->n_posix++];
    p->name = name;
    p->rank = r->rank;
    for (int t = 0; t < 3; t++)
        p->t[t] = f->times[t] < 0 ? NAN : r->fcounters[f->times[t]];
    return TOKIO_OK;
}

/* A record of module `mod`, as the reader decodes it (the
 * tokio_darshan_record_fn of add_darshan()). */
static int
fold_record(void *payload, const struct tokio_darshan *log, int mod,
            const struct tokio_darshan_record *r)
{
    struct fold *f = payload;
    char buf[48];
    const char *name;
    struct mount_bytes *mb;
    int rc = tokio_darshan_fold_record(f->derived, log, mod, r);

    if (rc == TOKIO_OK && f->dxt)
        rc = tokio__dxt_layers_record(&f->layers, log, mod, r);
    if (rc < 0 || mod >= TOKIO_DARSHAN_KNOWN_MODULES ||
        !tokio__job_module_printed(log, mod))
        return rc;
    f->had_records[mod] = 1;
    name = tokio__job_record_name(log, mod, r, buf, sizeof(buf));
    if (mod == TOKIO_DARSHAN_POSIX && name[0] != '_' &&
        (rc = fold_posix(f, r, name)) < 0)
        return rc;
    if (f->by_mount[mod] == NULL) {
        f->n_mounts = tokio_darshan_mount_count(log) + 1;
        f->by_mount[mod] = tokio__calloc(f->n_mounts, sizeof(*mb));
        if (f->by_mount[mod] == NULL)
            return oom();
    }
    mb = &f->by_mount[mod][mount_slot(log, name)];
    if (!mb->seen || strcmp(name, mb->first) < 0) {
        char *copy = tokio__strdup(name);
        if (copy == NULL)
            return oom();
        free(mb->first);
        mb->first = copy;
    }
    mb->seen = 1;
    for (int w = 0; w < 2; w++) {
        double b = f->bytes_idx[mod][w] < 0
                       ? 0 : (double)r->counters[f->bytes_idx[mod][w]];
        if (strcmp(name, "_perf") != 0 && strcmp(name, "_total") != 0)
            mb->b[w] += b;
        if (name[0] != '_' && b != 0) {
            f->bytes[mod][w] += b;
            f->files[mod][w]++;
        }
    }
    return TOKIO_OK;
}

static int
fold_init(struct fold *f, int dxt)
{
    memset(f, 0, sizeof(*f));
    f->dxt = dxt;
    int rc = dxt ? tokio__dxt_layers_init(&f->layers,
                                          TOKIO_SUMMARIZE_JOB_DXT_BINS)
                 : TOKIO_OK;
    if (rc < 0)
        return rc;
    for (size_t k = 0; k < sizeof(f->stats) / sizeof(*f->stats); k++) {
        const char *c = useful_counters[k];
        f->stats[k].fcounter = strncmp(c, "F_", 2) == 0;
        f->stats[k].idx = tokio__job_counter_index(TOKIO_DARSHAN_POSIX, c,
                                                   f->stats[k].fcounter);
    }
    for (int t = 0; t < 3; t++)
        f->times[t] = tokio__job_counter_index(TOKIO_DARSHAN_POSIX,
                                               posix_times[t], 1);
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++) {
        f->bytes_idx[mod][0] = tokio__job_counter_index(mod, "BYTES_READ",
                                                        0);
        f->bytes_idx[mod][1] = tokio__job_counter_index(mod,
                                                        "BYTES_WRITTEN", 0);
    }
    return tokio_darshan_fold_new(&f->derived, TOKIO_DARSHAN_FOLD_PERF) < 0
               ? oom() : TOKIO_OK;
}

static void
fold_free(struct fold *f)
{
    tokio_darshan_fold_free(f->derived);
    tokio__dxt_layers_free(&f->layers);
    free(f->posix);
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++) {
        for (size_t i = 0; f->by_mount[mod] && i < f->n_mounts; i++)
            free(f->by_mount[mod][i].first);
        free(f->by_mount[mod]);
    }
}

/* The reference's order of POSIX records: name, then rank as text. */
static int
by_key(const void *a, const void *b)
{
    const struct posix_rec *x = a, *y = b;
    char rx[24], ry[24];
    int c = strcmp(x->name, y->name);

    if (c != 0)
        return c;
    snprintf(rx, sizeof(rx), "%" PRId64, x->rank);
    snprintf(ry, sizeof(ry), "%" PRId64, y->rank);
    return strcmp(rx, ry);
}

/* The header keys and the POSIX summary (summarize_darshan_posix()). */
static int
summarize_posix(struct job *j, const json_t *log, struct fold *f)
{
    const json_t *posix = json_object_get(json_object_get(log, "counters"),
                                          "posix");
    const json_t *perf = json_object_get(posix, "_perf"), *v;
    int rc = TOKIO_OK;

    if (posix == NULL)
        return TOKIO_OK;
    if (perf != NULL) {
        const json_t *bytes = json_object_get(perf, "total_bytes");
        double b = 0, io = 0, shared = 0;
        if (number(bytes, &b) && b != 0) {
            rc = put(j, "darshan_total_gibs_posix", json_real(b / 1073741824.0));
            v = json_object_get(perf, "agg_perf_by_slowest");
            if (rc == TOKIO_OK)
                rc = put(j, "darshan_agg_perf_by_slowest_posix",
                         v ? json_deep_copy(v) : json_null());
            v = json_object_get(perf, "slowest_rank_io_time_unique_files");
            if (rc == TOKIO_OK && number(v, &io) && io != 0 &&
                number(json_object_get(perf, "time_by_slowest_shared_files"),
                       &shared))
                rc = put(j, "darshan_io_time", json_real(io + shared));
            else if (rc == TOKIO_OK)
                rc = put(j, "darshan_io_time",
                         v ? json_deep_copy(v) : json_null());
        } else {
            rc = put(j, "darshan_total_gibs_posix",
                     bytes ? json_deep_copy(bytes) : json_null());
        }
    }
    /* the times summed in the reference's order */
    if (f->n_posix > 1)
        qsort(f->posix, f->n_posix, sizeof(*f->posix), by_key);
    for (size_t k = 0; rc == TOKIO_OK &&
         k < sizeof(useful_counters) / sizeof(*useful_counters); k++) {
        const struct counter_stat *s = &f->stats[k];
        json_t *tot, *lo, *hi;
        char key[96], lower[48];
        size_t n = 0;
        if (s->n == 0)
            continue;
        if (s->fcounter) {
            double sum = 0;
            int t = 0, first = 1;
            while (strcmp(posix_times[t], useful_counters[k]) != 0)
                t++;
            for (size_t i = 0; i < f->n_posix; i++) {
                double x = f->posix[i].t[t];
                if (!isfinite(x))
                    continue;
                x = tokio_darshan_printed(x);
                sum = first ? x : sum + x;
                first = 0;
            }
            tot = json_real(sum);
            lo = json_real(s->dmin);
            hi = json_real(s->dmax);
        } else {
            tot = json_integer(s->tot);
            lo = json_integer(s->imin);
            hi = json_integer(s->imax);
        }
        for (const char *p = useful_counters[k]; *p; p++)
            lower[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
        lower[n] = '\0';
        double count = (double)s->n;
#define PUT(fmt, value)                                                     \
        if (rc == TOKIO_OK) {                                               \
            snprintf(key, sizeof(key), fmt, lower);                         \
            rc = put(j, key, value);                                        \
        }
        PUT("darshan_tot_%s_posix", json_incref(tot));
        PUT("darshan_ave_%s_posix", json_real(json_number_value(tot) / count));
        PUT("darshan_num_%s_posix", json_integer((json_int_t)count));
        PUT("darshan_min_%s_posix", json_incref(lo));
        PUT("darshan_max_%s_posix", json_incref(hi));
#undef PUT
        json_decref(tot);
        json_decref(lo);
        json_decref(hi);
    }
    return rc;
}

/* A number as the reference kept it: an integer when it is whole. */
static json_t *
count_json(double v)
{
    return v == floor(v) && fabs(v) < 9e15 ? json_integer((json_int_t)v)
                                          : json_real(v);
}

/* get_biggest_api(): the module (of `mods`, in the JSON's order) that
 * read and wrote most, by bytes and the number of records that did. */
static int
biggest_api(struct job *j, const struct fold *f, const int *mods, size_t n,
            int best_out[2])
{
    double best[2] = { -1, -1 }, best_files[2] = { 0, 0 };
    int rc = TOKIO_OK;

    for (size_t m = 0; m < n; m++)
        for (int w = 0; w < 2; w++)
            if (f->bytes[mods[m]][w] > best[w]) {  /* max() keeps the first */
                best[w] = f->bytes[mods[m]][w];
                best_files[w] = f->files[mods[m]][w];
                best_out[w] = mods[m];
            }
    for (int w = 0; w < 2 && rc == TOKIO_OK; w++) {
        char key[64], name[64];
        module_key(best_out[w], name, sizeof(name));
        snprintf(key, sizeof(key), "darshan_biggest_%s_api",
                 w ? "write" : "read");
        rc = put(j, key, json_string(name));
        strcat(key, "_bytes");
        if (rc == TOKIO_OK)
            rc = put(j, key, count_json(best[w]));
        snprintf(key, sizeof(key), "darshan_biggest_%s_api_files",
                 w ? "write" : "read");
        if (rc == TOKIO_OK)
            rc = put(j, key, count_json(best_files[w]));
    }
    return rc;
}

/* get_biggest_fs(): the mount point read and written most through the
 * biggest APIs (each visited once per role: when one module is both, its
 * bytes count twice, as in the reference).  Ties go to the mount the
 * reference met first: through apis[0] before apis[1], by name. */
static int
biggest_fs(struct job *j, const struct tokio_darshan *log,
           const struct fold *f, const int apis[2])
{
    for (int w = 0; w < 2; w++) {
        size_t best = 0;
        int found = 0, best_a = 0;
        double most = -1;
        char name[64];
        for (size_t i = 0; i < f->n_mounts; i++) {
            const struct mount_bytes *mb[2] = { NULL, NULL };
            double sum = 0;
            int a0 = -1;
            for (int a = 0; a < 2; a++) {
                if (f->by_mount[apis[a]] == NULL ||
                    !f->by_mount[apis[a]][i].seen)
                    continue;
                mb[a] = &f->by_mount[apis[a]][i];
                sum += mb[a]->b[w];
                if (a0 < 0)
                    a0 = a;
            }
            if (a0 < 0)
                continue;
            /* first met: lower role, then smaller name */
            const struct mount_bytes *bm = found
                ? (f->by_mount[apis[best_a]] ? &f->by_mount[apis[best_a]][best]
                                             : NULL) : NULL;
            int earlier = !found || a0 < best_a ||
                          (a0 == best_a && strcmp(mb[a0]->first,
                                                  bm->first) < 0);
            if (sum > most || (sum == most && earlier)) {
                most = sum;
                best = i;
                best_a = a0;
                found = 1;
            }
        }
        if (!found)
            break;                          /* no record at all */
        snprintf(name, sizeof(name), "darshan_biggest_%s_fs",
                 w ? "write" : "read");
        int rc = put(j, name, json_string(
            best + 1 == f->n_mounts ? "_unknown"
                                    : tokio_darshan_mount(log, best)->path));
        strcat(name, "_bytes");
        if (rc == TOKIO_OK)
            rc = put(j, name, count_json(most));
        if (rc != TOKIO_OK)
            return rc;
    }
    return TOKIO_OK;
}

/* summarize_darshan(): the header, POSIX, APIs and file systems. */
static int
summarize_darshan(struct job *j, const struct tokio_darshan *dlog,
                  const json_t *log, struct fold *f)
{
    static const char *const header_keys[] = {
        "walltime", "end_time", "start_time", "jobid", "nprocs"
    };
    const json_t *header = json_object_get(log, "header");
    int mods[TOKIO_DARSHAN_KNOWN_MODULES], apis[2] = { 0, 0 };
    size_t n = 0;
    int rc = TOKIO_OK;

    for (size_t k = 0; k < 5 && rc == TOKIO_OK; k++) {
        const json_t *v = json_object_get(header, header_keys[k]);
        char key[64];
        snprintf(key, sizeof(key), "darshan_%s", header_keys[k]);
        rc = put(j, key, v ? json_deep_copy(v) : json_null());
    }
    if (rc == TOKIO_OK) {
        const json_t *exe = json_array_get(json_object_get(header, "exe"), 0);
        rc = put(j, "darshan_app", exe ? json_deep_copy(exe) : json_null());
    }
    if (rc == TOKIO_OK)
        rc = summarize_posix(j, log, f);
    /* the modules the JSON has, by id: the order darshan-parser printed
     * them, which the reference's dict kept and its max() broke ties by */
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++)
        if (tokio__job_module_listed(dlog, mod, f->had_records[mod]))
            mods[n++] = mod;
    if (rc == TOKIO_OK && n > 0) {
        rc = biggest_api(j, f, mods, n, apis);
        if (rc == TOKIO_OK)
            rc = biggest_fs(j, dlog, f, apis);
    }
    return rc;
}

/* --dxt: the dxt_* keys of the heat map folded from the log's DXT traces
 * (see summarize_job.h). */
static int
add_dxt(struct job *j, const struct tokio_darshan *log,
        struct tokio__dxt_layers *layers)
{
    struct tokio_darshan_dxt_heatmap *h = NULL;
    struct tokio_summarize_job_dxt d;
    int rc = tokio__dxt_layers_end(layers, log, &h, NULL);

    if (rc < 0)
        return rc;
    tokio_summarize_job_dxt_stats(h, &d);
    tokio_darshan_dxt_heatmap_free(h);
    rc = put(j, "dxt_segments", json_integer((json_int_t)d.segments));
    if (rc != TOKIO_OK || d.segments == 0 || !(d.total_bytes > 0))
        return rc;
    /* the bins' proportional split leaves float dust: a whole number */
    rc = put(j, "dxt_bytes", json_real(round(d.total_bytes)));
    if (rc == TOKIO_OK)
        rc = put(j, "dxt_bin_seconds", json_real(d.bin_seconds));
    if (rc == TOKIO_OK)
        rc = put(j, "dxt_peak_bin_bytes", json_real(d.peak_bin_bytes));
    if (rc == TOKIO_OK)
        rc = put(j, "dxt_peak_bin_share", json_real(d.peak_bin_share));
    if (rc == TOKIO_OK)
        rc = put(j, "dxt_active_bin_share",
                 json_real((double)d.active_bins /
                           TOKIO_SUMMARIZE_JOB_DXT_BINS));
    if (rc == TOKIO_OK)
        rc = put(j, "dxt_busiest_rank", json_integer(d.busiest_rank));
    if (rc == TOKIO_OK)
        rc = put(j, "dxt_busiest_rank_share",
                 json_real(d.busiest_rank_share));
    if (rc == TOKIO_OK)
        rc = put(j, "dxt_active_ranks",
                 json_integer((json_int_t)d.active_ranks));
    return rc;
}

/* retrieve_darshan_data(): the log's window, job id and summary. */
static int
add_darshan(struct job *j, const char *path)
{
    struct fold f;
    struct tokio_darshan_json_opts views = { .perf = 1 };
    /* the DXT traces only for --dxt: without it their regions are not
     * even inflated */
    struct tokio_darshan_select sel = {
        .modules = j->o->dxt ? UINT64_MAX : UINT64_MAX & ~TOKIO__DXT_MODULES,
        .record = fold_record, .payload = &f, .dxt_pieces = 1
    };
    struct tokio_darshan *log = NULL;
    json_t *json = NULL;
    const json_t *header, *step;
    int rc = fold_init(&f, j->o->dxt);

    views.fold = f.derived;
    if (rc >= 0)
        rc = tokio_darshan_open_select(&log, path, &sel);
    if (rc >= 0)
        rc = tokio_darshan_to_json(log, &views, &json);
    if (rc < 0 && rc != TOKIO_ENOMEM && j->o->silent_errors) {
        tokio_darshan_free(log);
        fold_free(&f);
        rc = warn(j, "%s is not a valid darshan log: %s", path,
                  tokio_errmsg());
        return rc < 0 ? rc : 1;     /* skipped */
    }
    if (rc < 0)
        goto out;
    header = json_object_get(json, "header");
    step = j->cfg ? tokio_config_get(j->cfg, "lmt_timestep") : NULL;
    j->start = json_integer_value(json_object_get(header, "start_time"));
    j->end = json_integer_value(json_object_get(header, "end_time")) +
             (json_is_integer(step) ? json_integer_value(step)
                                    : LMT_TIMESTEP_DEFAULT);
    j->has_window = 1;
    rc = put(j, "_datetime_start", json_real(naive(j->start)));
    if (rc == TOKIO_OK)
        rc = put(j, "_datetime_end", json_real(naive(j->end)));
    if (rc == TOKIO_OK && json_object_get(j->row, "_jobid") == NULL)
        rc = put(j, "_jobid",
                 json_deep_copy(json_object_get(header, "jobid")));
    if (rc == TOKIO_OK)
        rc = summarize_darshan(j, log, json, &f);
    if (rc == TOKIO_OK && f.dxt)
        rc = add_dxt(j, log, &f.layers);
out:
    json_decref(json);
    tokio_darshan_free(log);
    fold_free(&f);
    return rc;
}

/* ---- the file system's time series -------------------------------------- */

/* The reference's datasets and how each is summarized. */
enum summary { BYTERATE, CPU, MDS_OPS, MISSING };

static const struct {
    const char *dataset;
    enum summary how;
    const char *key;
} datasets[] = {
    { "/datatargets/readrates", BYTERATE, "read" },
    { "/datatargets/writerates", BYTERATE, "written" },
    { "/dataservers/cpuload", CPU, "oss" },
    { "/mdservers/cpuload", CPU, "mds" },
    { "/mdtargets/openrates", MDS_OPS, "open" },
    { "/mdtargets/closerates", MDS_OPS, "close" },
    { "/mdtargets/mknodrates", MDS_OPS, "mknod" },
    { "/mdtargets/linkrates", MDS_OPS, "link" },
    { "/mdtargets/unlinkrates", MDS_OPS, "unlink" },
    { "/mdtargets/mkdirrates", MDS_OPS, "mkdir" },
    { "/mdtargets/rmdirrates", MDS_OPS, "rmdir" },
    { "/mdtargets/renamerates", MDS_OPS, "rename" },
    { "/mdtargets/getxattrrates", MDS_OPS, "getxattr" },
    { "/mdtargets/statfsrates", MDS_OPS, "statfs" },
    { "/mdtargets/setattrrates", MDS_OPS, "setattr" },
    { "/mdtargets/getattrrates", MDS_OPS, "getattr" },
    /* missing data is only told by the dataset's own mask */
    { "/dataservers/cpuload/missing", MISSING, NULL },
};

/* pandas' view of a series: missing cells (-0.0) are NaN. */
static double
cell(const struct tokio_timeseries *ts, size_t r, size_t c)
{
    double x = tokio_timeseries_cdata(ts)[r * tokio_timeseries_cols(ts) + c];

    return tokio_timeseries_is_missing(x) ? NAN : x;
}

/* Statistics of a frame as pandas computes them, NaN skipped. */
struct frame_stats {
    double sum;             /* df.sum().sum() */
    double mean_of_means;   /* df.mean().mean() */
    double max, min;        /* df.max().max(), df.min().min() */
    double row_mean, row_max, row_min;  /* of df.sum(axis=1) */
    double zeros, nonzeros; /* cells == 0.0 and != 0.0 (NaN counts) */
    double cells;
};

static struct frame_stats
frame_stats(const struct tokio_timeseries *ts)
{
    size_t rows = tokio_timeseries_rows(ts), cols = tokio_timeseries_cols(ts);
    struct frame_stats s = { 0, NAN, NAN, NAN, NAN, NAN, NAN, 0, 0, 0 };
    double means = 0, n_means = 0, row_sums = 0;

    s.cells = (double)rows * (double)cols;
    for (size_t c = 0; c < cols; c++) {
        double sum = 0, n = 0;
        for (size_t r = 0; r < rows; r++) {
            double x = cell(ts, r, c);
            s.zeros += x == 0.0;
            s.nonzeros += !(x == 0.0);
            if (isnan(x))
                continue;
            sum += x;
            n++;
            s.max = isnan(s.max) || x > s.max ? x : s.max;
            s.min = isnan(s.min) || x < s.min ? x : s.min;
        }
        s.sum += sum;
        if (n > 0) {
            means += sum / n;
            n_means++;
        }
    }
    s.mean_of_means = n_means > 0 ? means / n_means : NAN;
    for (size_t r = 0; r < rows; r++) {
        double sum = 0;
        for (size_t c = 0; c < cols; c++)
            if (!isnan(cell(ts, r, c)))
                sum += cell(ts, r, c);
        row_sums += sum;
        s.row_max = isnan(s.row_max) || sum > s.row_max ? sum : s.row_max;
        s.row_min = isnan(s.row_min) || sum < s.row_min ? sum : s.row_min;
    }
    s.row_mean = rows > 0 ? row_sums / (double)rows : NAN;
    return s;
}

/* A real, NaN as null (JSON has no NaN; the reference printed NaN). */
static json_t *
real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* The key "fs_" fmt (with `name`) set to `v`. */
static int
put_fs(struct job *j, const char *fmt, const char *name, double v)
{
    char key[96] = "fs_";

    snprintf(key + 3, sizeof(key) - 3, fmt, name);
    return put(j, key, real(v));
}

static int
summarize_dataset(struct job *j, const struct tokio_timeseries *ts,
                  enum summary how, const char *name)
{
    struct frame_stats s = frame_stats(ts);
    size_t rows = tokio_timeseries_rows(ts);
    const int64_t *t = tokio_timeseries_timestamps(ts);
    double step = rows >= 2 ? (double)(t[1] - t[0]) : NAN;
    const double gib = 1073741824.0;
    int rc = TOKIO_OK;

    switch (how) {
    case BYTERATE:
        if (rows < 2)
            return warn(j, "given single-row dataframe without timestep");
        rc = put_fs(j, "tot_bytes_%s", name, s.sum * step);
        if (rc == TOKIO_OK)
            rc = put_fs(j, "tot_gibs_%s", name, s.sum * step / gib);
        if (rc == TOKIO_OK)
            rc = put_fs(j, "ave_bytes_%s_per_sec", name, s.row_mean);
        if (rc == TOKIO_OK)
            rc = put_fs(j, "ave_gibs_%s_per_sec", name, s.row_mean / gib);
        if (rc == TOKIO_OK)
            rc = put_fs(j, "max_bytes_%s_per_sec", name, s.row_max);
        if (rc == TOKIO_OK)
            rc = put_fs(j, "max_gibs_%s_per_sec", name, s.row_max / gib);
        if (rc == TOKIO_OK)
            rc = put_fs(j, "min_bytes_%s_per_sec", name, s.row_min);
        if (rc == TOKIO_OK)
            rc = put_fs(j, "min_gibs_%s_per_sec", name, s.row_min / gib);
        if (rc == TOKIO_OK)
            rc = put_fs(j, "frac_zero_%s", name, s.zeros / s.cells);
        return rc;
    case CPU:
        rc = put_fs(j, "ave_%s_cpu", name, s.mean_of_means);
        if (rc == TOKIO_OK)
            rc = put_fs(j, "max_%s_cpu", name, s.max);
        return rc;
    case MDS_OPS:
        if (rows >= 2)
            rc = put_fs(j, "tot_%s_ops", name, s.sum * step);
        if (rc == TOKIO_OK)
            rc = put_fs(j, "ave_%s_ops_per_sec", name, s.mean_of_means);
        if (rc == TOKIO_OK)
            rc = put_fs(j, "max_%s_ops_per_sec", name, s.max);
        if (rc == TOKIO_OK)
            rc = put_fs(j, "min_%s_ops_per_sec", name, s.min);
        return rc;
    case MISSING:
        /* the mask holds 1 where data is missing */
        return put_fs(j, "frac_missing%s", "", s.nonzeros / s.cells);
    }
    return rc;
}

/* The file system of the busiest mount, by mount_to_fsname (re.search
 * of each pattern in the file's order, the first that matches). */
static int
file_system_of(struct job *j, const char *mount, const char **out)
{
    const json_t *map = j->cfg ? tokio_config_get(j->cfg, "mount_to_fsname")
                               : NULL;
    const char *pattern;
    json_t *name;

    *out = NULL;
    json_object_foreach((json_t *)map, pattern, name) {
        int err;
        PCRE2_SIZE off;
        pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern,
                                       PCRE2_ZERO_TERMINATED, PCRE2_UTF,
                                       &err, &off, NULL);
        pcre2_match_data *md;
        int found;
        if (re == NULL)
            return tokio__error(TOKIO_EFORMAT, "site configuration key "
                                "mount_to_fsname: bad regular expression "
                                "'%s'", pattern);
        md = pcre2_match_data_create_from_pattern(re, NULL);
        found = md != NULL && pcre2_match(re, (PCRE2_SPTR)mount,
                                          PCRE2_ZERO_TERMINATED, 0, 0, md,
                                          NULL) >= 0;
        pcre2_match_data_free(md);
        pcre2_code_free(re);
        if (found && json_is_string(name)) {
            *out = json_string_value(name);
            return TOKIO_OK;
        }
    }
    return TOKIO_OK;
}

/* retrieve_lmt_data(): the file system, then its datasets. */
static int
add_file_system(struct job *j)
{
    const char *fs = j->o->file_system;
    int rc = TOKIO_OK, errors = 0;

    if (fs == NULL) {
        const json_t *w = json_object_get(j->row,
                                          "darshan_biggest_write_fs_bytes");
        const json_t *r = json_object_get(j->row,
                                          "darshan_biggest_read_fs_bytes");
        if (w == NULL || r == NULL)
            return TOKIO_OK;
        const json_t *mount = json_object_get(
            j->row, json_number_value(w) > json_number_value(r)
                        ? "darshan_biggest_write_fs"
                        : "darshan_biggest_read_fs");
        if ((rc = file_system_of(j, json_string_value(mount), &fs)) < 0)
            return rc;
    }
    if ((rc = put(j, "_file_system", fs ? json_string(fs) : json_null())) < 0 ||
        fs == NULL || !j->has_window)
        return rc;
    for (size_t d = 0; rc == TOKIO_OK &&
         d < sizeof(datasets) / sizeof(*datasets); d++) {
        struct tokio_timeseries *ts = NULL;
        char a[32], b[32];
        rc = tokio_hdf5_from_time_range(&ts, j->cfg, fs, datasets[d].dataset,
                                        j->start, j->end, 0);
        if (rc == TOKIO_EIO || rc == TOKIO_EFORMAT) {
            rc = warn(j, "%s", tokio_errmsg());     /* the reference's IOError */
        } else if (rc == TOKIO_ENOTFOUND || (rc == TOKIO_OK && ts == NULL)) {
            /* no file, or a file without the dataset (the reference
             * raised KeyError on the latter); only the first dataset
             * without data is told */
            rc = TOKIO_OK;
            if (errors++ == 0)
                rc = warn(j, "No HDF5 data for %s from %s to %s on %s",
                          datasets[d].dataset,
                          local_text(j->start, a, sizeof(a)),
                          local_text(j->end, b, sizeof(b)), fs);
        } else if (rc == TOKIO_OK) {
            rc = summarize_dataset(j, ts, datasets[d].how, datasets[d].key);
        }
        tokio_timeseries_free(ts);
    }
    return rc;
}

/* ---- topology, OSTs, concurrent jobs ------------------------------------ */

static int
is_file(const char *path)
{
    struct stat st;

    return path != NULL && path[0] != '\0' && stat(path, &st) == 0 &&
           S_ISREG(st.st_mode);
}

/* Copy every member of `from` into the row as PREFIX + key. */
static int
merge(struct job *j, const json_t *from, const char *prefix)
{
    const char *key;
    json_t *v;
    char name[160];

    json_object_foreach((json_t *)from, key, v) {
        snprintf(name, sizeof(name), "%s%s", prefix, key);
        if (put(j, name, json_deep_copy(v)) < 0)
            return TOKIO_ENOMEM;
    }
    return TOKIO_OK;
}

/* retrieve_topology_data() */
static int
add_topology(struct job *j)
{
    const json_t *jobid = json_object_get(j->row, "_jobid");
    const char *slurm = j->o->slurm_jobid;
    struct tokio_job_diameter d;
    json_t *json = NULL;
    char idbuf[32];
    const char *id;
    int rc;

    if (j->o->topology == NULL || jobid == NULL)
        return TOKIO_OK;
    if (json_is_integer(jobid)) {
        snprintf(idbuf, sizeof(idbuf), "%" JSON_INTEGER_FORMAT,
                 json_integer_value(jobid));
        id = idbuf;
    } else {
        id = json_string_value(jobid);
    }
    rc = tokio_topology_get_job_diameter(
        &d, id, j->o->topology[0] ? j->o->topology : NULL,
        is_file(slurm) ? slurm : NULL);
    if (rc == TOKIO_OK)
        rc = tokio_topology_diameter_to_json(&d, &json);
    if (rc == TOKIO_OK)
        rc = merge(j, json, "topology_");
    json_decref(json);
    return rc;
}

/* retrieve_ost_data() */
static int
add_osts(struct job *j)
{
    const json_t *fs = json_object_get(j->row, "_file_system");
    const json_t *map = j->cfg ? tokio_config_get(j->cfg,
                                                  "fsname_to_backend_name")
                               : NULL;
    json_t *full = NULL, *fail = NULL;
    const json_t *v;
    char a[32];
    int rc;

    if (!j->o->ost || !json_is_string(fs) ||
        json_object_get(map, json_string_value(fs)) == NULL)
        return TOKIO_OK;
    rc = tokio_lfsstatus_get_fullness(&full, j->cfg, json_string_value(fs),
                                      j->start, j->o->ost_fullness);
    if (rc == TOKIO_ENOTFOUND)
        rc = warn(j, "KeyError: %s for %s", tokio_errmsg(),
                  local_text(j->start, a, sizeof(a)));
    else if (rc == TOKIO_OK)
        rc = merge(j, full, "fshealth_");
    if (rc == TOKIO_OK) {
        rc = tokio_lfsstatus_get_failures(&fail, j->cfg,
                                          json_string_value(fs), j->start,
                                          j->o->ost_map);
        if (rc == TOKIO_ENOTFOUND)
            rc = warn(j, "KeyError: %s for %s", tokio_errmsg(),
                      local_text(j->start, a, sizeof(a)));
        else if (rc == TOKIO_OK)
            rc = merge(j, fail, "fshealth_");
    }
    json_decref(full);
    json_decref(fail);
    /* how long before the job its OST data was taken, and the share of
     * OSTs in trouble */
    v = json_object_get(j->row, "fshealth_ost_actual_timestamp");
    if (rc == TOKIO_OK && json_is_integer(v))
        rc = put(j, "fshealth_ost_fullness_lead_secs",
                 json_real(naive(j->start) - naive(json_integer_value(v))));
    if (rc == TOKIO_OK &&
        json_is_number(json_object_get(j->row,
                                       "fshealth_ost_overloaded_ost_count")) &&
        json_is_number(json_object_get(j->row, "fshealth_ost_count")))
        rc = put(j, "fshealth_ost_overloaded_pct", real(
            100.0 * json_number_value(json_object_get(
                        j->row, "fshealth_ost_overloaded_ost_count")) /
            json_number_value(json_object_get(j->row, "fshealth_ost_count"))));
    if (rc == TOKIO_OK && json_is_integer(v))
        rc = put(j, "fshealth_ost_failures_lead_secs",
                 json_real(naive(j->start) - naive(json_integer_value(v))));
    return rc;
}

/* retrieve_concurrent_job_data() */
static int
add_concurrent_jobs(struct job *j)
{
    struct tokio_nersc_jobsdb *db = NULL;
    struct tokio_nersc_concurrent c;
    struct tokio_db_remote remote = { 0 };
    const char *cache = j->o->concurrentjobs;
    int rc;

    if (cache == NULL || !j->has_window || j->o->jobhost == NULL)
        return TOKIO_OK;
    if (cache[0] == '\0') {
        if ((rc = tokio_cachingdb_remote_from_env(&remote,
                                                  "NERSC_JOBSDB")) < 0)
            return rc;
        cache = NULL;
    }
    rc = tokio_nersc_jobsdb_open(&db, cache, &remote);
    if (rc == TOKIO_OK)
        rc = tokio_nersc_jobsdb_get_concurrent_jobs(db, j->start, j->end,
                                                    j->o->jobhost, &c);
    tokio_nersc_jobsdb_free(db);
    if (rc == TOKIO_OK)
        rc = put(j, "jobsdb_concurrent_jobs", json_integer(c.numjobs));
    if (rc == TOKIO_OK)
        rc = put(j, "jobsdb_concurrent_nodes", json_integer(c.numnodes));
    if (rc == TOKIO_OK)
        rc = put(j, "jobsdb_concurrent_nodehrs", json_real(c.nodehrs));
    return rc;
}

/* ---- the rows ----------------------------------------------------------- */

/* retrieve_jobid(): the job id --slurm-jobid names. */
static int
slurm_jobid(json_t **out, const char *arg)
{
    struct tokio_slurm *s = NULL;
    const char **ids = NULL;
    size_t n = 0;
    int rc;

    *out = NULL;
    if (!is_file(arg)) {
        *out = json_string(arg);
        return *out ? TOKIO_OK : oom();
    }
    rc = tokio_slurm_open(&s, arg);
    if (rc == TOKIO_OK)
        rc = tokio_slurm_get_job_ids(s, &ids, &n);
    if (rc == TOKIO_OK && n == 0)
        rc = tokio__error(TOKIO_ENOTFOUND, "'%s' holds no job", arg);
    if (rc == TOKIO_OK && (*out = json_string(ids[0])) == NULL)
        rc = oom();
    free(ids);
    tokio_slurm_free(s);
    return rc;
}

/* One row: the log `path` (NULL: the window) and every other source. */
static int
summarize_one(struct job *j, const char *path)
{
    int rc = TOKIO_OK;

    if (path != NULL && (rc = add_darshan(j, path)) != TOKIO_OK)
        return rc;                  /* 1: skipped */
    if ((rc = add_file_system(j)) == TOKIO_OK &&
        (rc = add_topology(j)) == TOKIO_OK &&
        (rc = add_osts(j)) == TOKIO_OK)
        rc = add_concurrent_jobs(j);
    return rc;
}

int
tokio_summarize_job(json_t **rows_out, json_t **warnings_out,
                    const struct tokio_config *cfg,
                    const char *const *logs, size_t n_logs,
                    const struct tokio_summarize_job_opts *o)
{
    struct job j = { cfg, o, NULL, json_array(), 0, 0, 0 };
    json_t *rows = json_array(), *jobid = NULL;
    size_t records = o->has_window ? 1 : n_logs;
    int rc = TOKIO_OK;

    *rows_out = NULL;
    *warnings_out = NULL;
    if (o->has_window && n_logs > 0)
        rc = tokio__error(TOKIO_EINVAL, "--start-time and Darshan logs "
                          "cannot be given together");
    else if (o->slurm_jobid != NULL && n_logs > 1)
        rc = tokio__error(TOKIO_EINVAL, "--slurm-jobid with more than one "
                          "Darshan log is undefined");
    else if (rows == NULL || j.warnings == NULL)
        rc = oom();
    if (rc == TOKIO_OK && o->slurm_jobid != NULL)
        rc = slurm_jobid(&jobid, o->slurm_jobid);
    for (size_t i = 0; rc == TOKIO_OK && i < records; i++) {
        if ((j.row = json_object()) == NULL) {
            rc = oom();
            break;
        }
        j.has_window = o->has_window;
        j.start = o->start;
        j.end = o->end;
        if (j.has_window) {
            rc = put(&j, "_datetime_start", json_real(naive(o->start)));
            if (rc == TOKIO_OK)
                rc = put(&j, "_datetime_end", json_real(naive(o->end)));
        }
        /* the job id belongs to the first row only, as there */
        if (rc == TOKIO_OK && i == 0 && jobid != NULL)
            rc = put(&j, "_jobid", json_incref(jobid));
        if (rc == TOKIO_OK)
            rc = summarize_one(&j, n_logs > 0 ? logs[i] : NULL);
        if (rc == 1)
            rc = TOKIO_OK;
        if (rc == TOKIO_OK && json_object_size(j.row) > 0 &&
            json_array_append(rows, j.row) < 0)
            rc = oom();
        json_decref(j.row);
    }
    json_decref(jobid);
    if (rc < 0) {
        json_decref(rows);
        json_decref(j.warnings);
        return rc;
    }
    *rows_out = rows;
    *warnings_out = j.warnings;
    return TOKIO_OK;
}

/* ---- --dxt: the heat map of the traces, and a few numbers of it ------- */

int
tokio__dxt_layers_init(struct tokio__dxt_layers *l, size_t nbins)
{
    int rc = tokio_darshan_dxt_heatmap_new(&l->posix, nbins);

    l->mpiio = NULL;
    l->failed = 0;
    return rc < 0 ? rc : tokio_darshan_dxt_heatmap_new(&l->mpiio, nbins);
}

int
tokio__dxt_layers_record(struct tokio__dxt_layers *l,
                         const struct tokio_darshan *log, int mod,
                         const struct tokio_darshan_record *r)
{
    int rc = TOKIO_OK;

    if (l->failed)
        return TOKIO_OK;
    if (mod == TOKIO_DARSHAN_DXT_POSIX)
        rc = tokio_darshan_dxt_heatmap_record(l->posix, log, mod, r);
    else if (mod == TOKIO_DARSHAN_DXT_MPIIO && l->posix->segments == 0)
        rc = tokio_darshan_dxt_heatmap_record(l->mpiio, log, mod, r);
    if (rc < 0 && rc != TOKIO_ENOMEM) {
        l->failed = rc;
        snprintf(l->why, sizeof(l->why), "%s", tokio_errmsg());
        rc = TOKIO_OK;
    }
    return rc;
}

int
tokio__dxt_layers_end(struct tokio__dxt_layers *l,
                      const struct tokio_darshan *log,
                      struct tokio_darshan_dxt_heatmap **out,
                      const char **layer)
{
    int posix = l->posix->segments > 0;
    struct tokio_darshan_dxt_heatmap **keep = posix ? &l->posix : &l->mpiio;

    *out = NULL;
    if (layer != NULL)
        *layer = posix ? "POSIX" : "MPI-IO";
    if (l->failed)
        return tokio__error(l->failed, "%s", l->why);
    int rc = tokio_darshan_dxt_heatmap_end(*keep, log);
    if (rc < 0)
        return rc;
    *out = *keep;
    *keep = NULL;
    return TOKIO_OK;
}

void
tokio__dxt_layers_free(struct tokio__dxt_layers *l)
{
    tokio_darshan_dxt_heatmap_free(l->posix);
    tokio_darshan_dxt_heatmap_free(l->mpiio);
    l->posix = l->mpiio = NULL;
}

/* tokio__dxt_layers_record() as a tokio_darshan_record_fn. */
static int
layers_record(void *payload, const struct tokio_darshan *log, int mod,
              const struct tokio_darshan_record *r)
{
    return tokio__dxt_layers_record(payload, log, mod, r);
}

int
tokio_summarize_job_dxt_heatmap(const char *path, size_t nbins,
                                struct tokio_darshan_dxt_heatmap **out,
                                const char **layer)
{
    struct tokio__dxt_layers l;
    struct tokio_darshan *log = NULL;
    struct tokio_darshan_select sel = {
        .modules = TOKIO__DXT_MODULES, .skip_names = 1, .payload = &l,
        .record = layers_record,
        .dxt_pieces = 1,
    };
    int rc = tokio__dxt_layers_init(&l, nbins);

    *out = NULL;
    if (rc >= 0)
        rc = tokio_darshan_open_select(&log, path, &sel);
    if (rc >= 0) {
        int end = tokio__dxt_layers_end(&l, log, out, layer);
        if (end < 0)
            rc = end;
    }
    tokio_darshan_free(log);
    tokio__dxt_layers_free(&l);
    return rc;
}

void
tokio_summarize_job_dxt_stats(const struct tokio_darshan_dxt_heatmap *h,
                              struct tokio_summarize_job_dxt *out)
{
    double best_rank = 0;

    memset(out, 0, sizeof(*out));
    out->segments = h->segments;
    out->bin_seconds = h->bin_seconds;
    out->busiest_rank = -1;
    for (size_t b = 0; b < h->nbins; b++) {
        double bin = 0;
        for (size_t r = 0; r < h->nranks; r++)
            bin += h->read_bytes[r * h->nbins + b] +
                   h->write_bytes[r * h->nbins + b];
        out->total_bytes += bin;
        out->active_bins += bin > 0;
        if (bin > out->peak_bin_bytes) {
            out->peak_bin_bytes = bin;
            out->peak_bin = b;
        }
    }
    for (size_t r = 0; r < h->nranks; r++) {
        double rank = 0;
        for (size_t b = 0; b < h->nbins; b++)
            rank += h->read_bytes[r * h->nbins + b] +
                    h->write_bytes[r * h->nbins + b];
        out->active_ranks += rank > 0;
        if (rank > best_rank) {
            best_rank = rank;
            out->busiest_rank = (long)r;
        }
    }
    if (out->total_bytes > 0) {
        out->peak_bin_share = out->peak_bin_bytes / out->total_bytes;
        out->busiest_rank_share = best_rank / out->total_bytes;
    }
}
