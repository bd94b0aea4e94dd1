/*
 * src/analysis/report.c - `tokio report`: a job on one page.  One HTML
 * file that stands alone (inline CSS, inline SVG figures drawn with
 * cairo, no script; a Content-Security-Policy forbids fetching anything)
 * so it can be mailed and read offline.  Per log, in order: the job, its
 * I/O from Darshan, the file system during it (a window around the job
 * with its span shaded), OST fullness and failovers at its start, its
 * topology, the jobs beside it, and an UMAMI diagram of it against
 * earlier runs.  The numbers are summarize-job's row (tools/
 * summarize_job) and the log's JSON; a section without data says why.
 * Right after the job come its findings (analysis/insights), high
 * levels first.
 *
 * Text from a log, a database or a file (file names, the executable,
 * job ids, warnings quoting them) goes through html() and nothing else;
 * figures are cairo's SVG, whose ids are made unique per figure so that
 * several in one page do not borrow each other's glyphs.
 */
#include "tokio/analysis/report.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tokio/analysis/insights.h"
#include "tokio/analysis/umami.h"
#include "tokio/config.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_json.h"
#include "tokio/csv.h"
#include "tokio/output.h"
#include "tokio/time.h"
#include "tokio/util.h"
#include "tokio/timeseries.h"
#include "tokio/tools/hdf5.h"
#include "tokio/tools/jobinfo.h"
#include "analysis/plot.h"
#include "core/alloc.h"
#include "core/error.h"
#include "tools/summarize_job_private.h"

#define TOP_FILES_DEFAULT 10
#define GIB 1073741824.0
#define READ_COLOR  "#2C69A9"
#define WRITE_COLOR "#DA0017"
#define META_COLOR  "#40A43A"
#define OTHER_COLOR "#853692"

struct page {
    FILE *fp;
    const struct tokio_config *cfg;
    const struct tokio_report_opts *o;
    json_t *warnings;
    int figures;
};

static const char style[] =
    "body{font-family:sans-serif;margin:2em auto;max-width:62em;"
    "color:#222}h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:"
    "1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}table{"
    "border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .8em;"
    "border-bottom:1px solid #eee;text-align:left;vertical-align:top}"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}"
    ".absent{color:#777;font-style:italic}.warn{color:#a40}"
    "code{word-break:break-all}figure{margin:.5em 0}"
    "footer{margin-top:2em;color:#777;font-size:.85em}"
    ".lv{display:inline-block;min-width:4.5em;text-align:center;"
    "border-radius:.3em;padding:0 .3em;font-size:.85em;color:#fff}"
    ".lv-high{background:#DA0017}.lv-warning{background:#FD6A07}"
    ".lv-info{background:#2C69A9}.lv-ok{background:#40A43A}"
    ".lv-na{background:#999}.detail{color:#555;font-size:.9em}"
    "td.code{white-space:nowrap}";

/* ---- writing ------------------------------------------------------------ */

/* `s` as HTML text: the five characters that mean something escaped. */
static void
html(FILE *fp, const char *s)
{
    for (; s != NULL && *s != '\0'; s++)
        switch (*s) {
        case '&': fputs("&amp;", fp); break;
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '"': fputs("&quot;", fp); break;
        case '\'': fputs("&#39;", fp); break;
        default: fputc(*s, fp);
        }
}

/* A JSON scalar as HTML text; "-" when absent. */
static void
html_value(FILE *fp, const json_t *v)
{
    char buf[64];

    if (json_is_string(v))
        html(fp, json_string_value(v));
    else if (json_is_integer(v))
        fprintf(fp, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_real(v)) {
        tokio_format_double(buf, sizeof(buf), json_real_value(v));
        fputs(buf, fp);
    } else if (json_is_boolean(v))
        fputs(json_is_true(v) ? "yes" : "no", fp);
    else
        fputs("-", fp);
}

static void
bytes(FILE *fp, double b)
{
    char buf[64];

    tokio_humanize_bytes(buf, sizeof(buf), b, 0);
    fputs(buf, fp);
}

static void
when(FILE *fp, int64_t t)
{
    char buf[64];

    tokio_time_format(buf, sizeof(buf), t, "%Y-%m-%d %H:%M:%S %Z");
    html(fp, buf);
}

/* A section's plain statement that its data is absent, and why. */
static int
absent(struct page *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
absent(struct page *p, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    fputs("<p class=\"absent\">", p->fp);
    html(p->fp, buf);
    fputs("</p>\n", p->fp);
    return TOKIO_OK;
}

/* A row of a two-column table: `label` and an escaped value. */
static void
row_text(FILE *fp, const char *label, const char *value)
{
    fprintf(fp, "<tr><th>%s</th><td>", label);
    html(fp, value != NULL ? value : "-");
    fputs("</td></tr>\n", fp);
}

static void
row_json(FILE *fp, const char *label, const json_t *v)
{
    fprintf(fp, "<tr><th>%s</th><td>", label);
    html_value(fp, v);
    fputs("</td></tr>\n", fp);
}

/*
 * Copy cairo's SVG `svg` into the page: without its XML declaration
 * (inline SVG has none) and with every id and reference to one prefixed
 * "fN-", N the figure's number.
 */
static void
inline_svg(struct page *p, const char *svg)
{
    static const char *const refs[] = { "id=\"", "href=\"#", "url(#" };
    const char *s = strstr(svg, "<svg");

    p->figures++;
    fputs("<figure>", p->fp);
    while (s != NULL && *s != '\0') {
        size_t best = strlen(s), which = 3;
        for (size_t k = 0; k < 3; k++) {
            const char *hit = strstr(s, refs[k]);
            if (hit != NULL && (size_t)(hit - s) < best) {
                best = (size_t)(hit - s);
                which = k;
            }
        }
        fwrite(s, 1, best, p->fp);
        s += best;
        if (which == 3)
            break;
        fprintf(p->fp, "%sf%d-", refs[which], p->figures);
        s += strlen(refs[which]);
    }
    fputs("</figure>\n", p->fp);
}

/* Draw a figure with `draw` into memory, then into the page. */
static int
figure(struct page *p, int (*draw)(FILE *fp, const void *ctx),
       const void *ctx)
{
    char *svg = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&svg, &len);
    int rc;

    if (mem == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory drawing a figure");
    rc = draw(mem, ctx);
    if (fclose(mem) != 0 && rc == TOKIO_OK)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory drawing a figure");
    if (rc == TOKIO_OK)
        inline_svg(p, svg);
    free(svg);
    return rc;
}

static int
warn(struct page *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
warn(struct page *p, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (json_array_append_new(p->warnings, json_string(buf)) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing a report");
    return TOKIO_OK;
}

/* ---- the job ------------------------------------------------------------ */

static double
num(const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);

    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The job's window: the row's _datetime_* are local times read as UTC. */
static void
window(const json_t *row, const json_t *log, int64_t *start, int64_t *end)
{
    const json_t *h = json_object_get(log, "header");

    if (h != NULL) {
        *start = json_integer_value(json_object_get(h, "start_time"));
        *end = json_integer_value(json_object_get(h, "end_time"));
        return;
    }
    /* no log: back from wall clock to epoch */
    for (int k = 0; k < 2; k++) {
        char buf[32];
        time_t t = (time_t)num(row, k ? "_datetime_end" : "_datetime_start");
        struct tm tm;
        int64_t e = 0;
        gmtime_r(&t, &tm);
        strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
        tokio_time_parse_format(buf, "%Y-%m-%d %H:%M:%S", &e);
        *(k ? end : start) = e;
    }
}

static void
section_job(struct page *p, const json_t *row, const json_t *log,
            const char *path, int64_t start, int64_t end)
{
    FILE *fp = p->fp;
    const json_t *h = json_object_get(log, "header");
    const json_t *exe = json_object_get(h, "exe"), *v;
    char **nodes = NULL, jobid[64] = "";
    size_t n_nodes = 0, i;

    fputs("<h2>The job</h2>\n<table>\n", fp);
    row_json(fp, "Job id", json_object_get(row, "_jobid"));
    if (json_is_string(json_object_get(row, "_jobid")))
        snprintf(jobid, sizeof(jobid), "%s",
                 json_string_value(json_object_get(row, "_jobid")));
    row_json(fp, "User id", json_object_get(h, "uid"));
    fputs("<tr><th>Executable</th><td><code>", fp);
    json_array_foreach(exe, i, v) {
        if (i)
            fputc(' ', fp);
        html(fp, json_string_value(v));
    }
    if (json_array_size(exe) == 0)
        fputs("-", fp);
    fputs("</code></td></tr>\n", fp);
    row_json(fp, "Processes", json_object_get(h, "nprocs"));
    if (jobid[0] != '\0' &&
        tokio_jobinfo_get_job_nodes(p->cfg, jobid, p->o->job.slurm_jobid &&
                                    strcmp(p->o->job.slurm_jobid, jobid)
                                        ? p->o->job.slurm_jobid : NULL,
                                    &nodes, &n_nodes) == TOKIO_OK) {
        fprintf(fp, "<tr><th>Nodes</th><td>%zu", n_nodes);
        if (n_nodes > 0) {
            fputs(": <code>", fp);
            for (i = 0; i < n_nodes && i < 32; i++) {
                html(fp, nodes[i]);
                fputs(i + 1 < n_nodes ? " " : "", fp);
            }
            fputs(n_nodes > 32 ? "...</code>" : "</code>", fp);
        }
        fputs("</td></tr>\n", fp);
        for (i = 0; i < n_nodes; i++)
            free(nodes[i]);
        free(nodes);
    } else {
        row_text(fp, "Nodes", "unknown (no Slurm record of the job)");
    }
    fputs("<tr><th>Start</th><td>", fp);
    when(fp, start);
    fputs("</td></tr>\n<tr><th>End</th><td>", fp);
    when(fp, end);
    fprintf(fp, "</td></tr>\n<tr><th>Run time</th><td>%" PRId64
            " s</td></tr>\n", end - start);
    row_json(fp, "File system", json_object_get(row, "_file_system"));
    if (path != NULL)
        row_text(fp, "Darshan log", path);
    row_json(fp, "Log version", json_object_get(h, "version"));
    fputs("</table>\n", fp);
}

/* ---- its I/O ------------------------------------------------------------ */

static const char *const size_bins[] = {
    "0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M", "1M_4M", "4M_10M",
    "10M_100M", "100M_1G", "1G_PLUS"
};
static const char *const size_labels[] = {
    "<100", "<1K", "<10K", "<100K", "<1M", "<4M", "<10M", "<100M", "<1G",
    "1G+"
};

/* ---- the log, folded ---------------------------------------------------- */

/*
 * What the page shows of a Darshan log, folded as the reader decodes its
 * records (tokio_darshan_open_select()): the header and each module's
 * "_perf" from tokio_darshan_to_json() over the library's --perf fold,
 * and here each module's sums of the counters the page shows.  Of each
 * record only its key (module, name, rank), bytes and POSIX times are
 * kept (about 64 bytes): the files are counted and ranked by name, and
 * the times summed in the order the log's JSON lists them, as before
 * (floating-point sums depend on order).  Before, the log's whole --base
 * JSON was built (about 13 KiB a record).  tokio report of
 * bench_darshan_gen's logs: 100,000 records (15 MB) 8.7-10.9 s and
 * 1.42 GB peak before, 1.6 s and 30 MB now; 1,000,000 records (150 MB)
 * 228 s and 13.9 GB before, 17 s and 107 MB now (the findings,
 * tokio_insights_log(), read the log once more, in flat memory).  With
 * --dxt the same pass folds the DXT traces into the heat map of
 * section_dxt() (tokio__dxt_layers: memory is the map's whatever the
 * segments); without, their regions are not even inflated.
 */

/* The counters io_modules() sums, as the JSON names them. */
static const char *const io_counters[] = {
    "BYTES_READ", "BYTES_WRITTEN", "READS", "INDEP_READS", "COLL_READS",
    "WRITES", "INDEP_WRITES", "COLL_WRITES", "OPENS", "INDEP_OPENS",
    "COLL_OPENS"
};
#define N_IO (sizeof(io_counters) / sizeof(*io_counters))
#define N_SIZES 20              /* SIZE_READ_* then SIZE_WRITE_* */

/* POSIX times, in split's order. */
static const char *const posix_times[] = {
    "F_READ_TIME", "F_WRITE_TIME", "F_META_TIME"
};

/* One record: its key in the JSON, its bytes and (POSIX) its times. */
struct view_rec {
    char *name;                 /* borrowed from the log, or `own` */
    int own, mod;
    int ord;                    /* its module key's place in key order */
    int64_t rank;
    double bytes[2];            /* NAN: no such counter */
    double t[3];                /* NAN: none, or not a number */
};

struct view {
    struct tokio_darshan *log;
    json_t *json;               /* header, mounts, "_perf"s */
    struct tokio_darshan_fold *derived;
    int printed[TOKIO_DARSHAN_KNOWN_MODULES];       /* keys of the JSON */
    char keys[TOKIO_DARSHAN_KNOWN_MODULES][24];     /* "posix", "mpiio" */
    int ord[TOKIO_DARSHAN_KNOWN_MODULES];           /* keys' order */
    int io_idx[TOKIO_DARSHAN_KNOWN_MODULES][N_IO];
    double io[TOKIO_DARSHAN_KNOWN_MODULES][N_IO];
    size_t files[TOKIO_DARSHAN_KNOWN_MODULES];
    int size_idx[N_SIZES], time_idx[3];
    double sizes[N_SIZES];
    struct view_rec *recs;
    size_t n_recs, cap_recs;
    int dxt;                    /* --dxt: the traces' heat map */
    struct tokio__dxt_layers layers;
};


static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory writing a report");
}

/* A record of module `mod` as the reader decodes it. */
static int
view_record(void *payload, const struct tokio_darshan *log, int mod,
            const struct tokio_darshan_record *r)
{
    struct view *v = payload;
    struct view_rec *e;
    const char *name;
    char buf[48];
    int rc = tokio_darshan_fold_record(v->derived, log, mod, r);

    if (rc == TOKIO_OK && v->dxt)
        rc = tokio__dxt_layers_record(&v->layers, log, mod, r);
    if (rc < 0 || mod >= TOKIO_DARSHAN_KNOWN_MODULES ||
        !tokio__job_module_printed(log, mod))
        return rc;
    for (size_t k = 0; k < N_IO; k++)
        if (v->io_idx[mod][k] >= 0)
            v->io[mod][k] += (double)r->counters[v->io_idx[mod][k]];
    if (mod == TOKIO_DARSHAN_POSIX)
        for (int k = 0; k < N_SIZES; k++)
            if (v->size_idx[k] >= 0)
                v->sizes[k] += (double)r->counters[v->size_idx[k]];
    if (v->n_recs == v->cap_recs) {
        size_t cap = v->cap_recs ? 2 * v->cap_recs : 1024;
        void *p = tokio__reallocarray(v->recs, cap, sizeof(*v->recs));
        if (p == NULL)
            return oom();
        v->recs = p;
        v->cap_recs = cap;
    }
    e = &v->recs[v->n_recs];
    memset(e, 0, sizeof(*e));
    name = tokio__job_record_name(log, mod, r, buf, sizeof(buf));
    if (mod == TOKIO_DARSHAN_DAOS && (name = tokio__strdup(buf)) == NULL)
        return oom();
    e->own = mod == TOKIO_DARSHAN_DAOS;
    e->name = (char *)name;
    e->mod = mod;
    e->ord = v->ord[mod];
    e->rank = r->rank;
    for (int w = 0; w < 2; w++)
        e->bytes[w] = v->io_idx[mod][w] < 0
                          ? NAN : (double)r->counters[v->io_idx[mod][w]];
    for (int t = 0; t < 3; t++) {
        double x = mod == TOKIO_DARSHAN_POSIX && v->time_idx[t] >= 0
                       ? r->fcounters[v->time_idx[t]] : NAN;
        e->t[t] = isfinite(x) ? tokio_darshan_printed(x) : NAN;
    }
    v->n_recs++;
    v->printed[mod] = 1;
    return TOKIO_OK;
}

/* The JSON's order of records: module key, name, rank as text. */
static int
by_json_key(const void *a, const void *b)
{
    const struct view_rec *x = a, *y = b;
    char rx[24], ry[24];
    int c = x->ord != y->ord ? x->ord - y->ord : strcmp(x->name, y->name);

    if (c != 0)
        return c;
    snprintf(rx, sizeof(rx), "%" PRId64, x->rank);
    snprintf(ry, sizeof(ry), "%" PRId64, y->rank);
    return strcmp(rx, ry);
}

static void
view_free(struct view *v)
{
    for (size_t i = 0; i < v->n_recs; i++)
        if (v->recs[i].own)
            free(v->recs[i].name);
    free(v->recs);
    json_decref(v->json);
    tokio_darshan_fold_free(v->derived);
    tokio__dxt_layers_free(&v->layers);
    tokio_darshan_free(v->log);
}

/* Read the log at `path` into *v (view_free() it, even on failure); with
 * `dxt_bins`, its DXT traces too, as a heat map of that many time bins
 * (without, their regions are not even inflated). */
static int
view_load(struct view *v, const char *path, size_t dxt_bins)
{
    struct tokio_darshan_json_opts views = { .perf = 1 };
    struct tokio_darshan_select sel = {
        .modules = dxt_bins ? UINT64_MAX : UINT64_MAX & ~TOKIO__DXT_MODULES,
        .record = view_record, .payload = v, .dxt_pieces = 1
    };
    int rc;

    memset(v, 0, sizeof(*v));
    v->dxt = dxt_bins > 0;
    if (v->dxt && (rc = tokio__dxt_layers_init(&v->layers, dxt_bins)) < 0)
        return rc;
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++) {
        size_t k = 0;
        for (const char *p = tokio_darshan_module_name(mod); p && *p; p++)
            if (*p != '-' && *p != '/' && k + 1 < sizeof(v->keys[mod]))
                v->keys[mod][k++] = (char)tolower((unsigned char)*p);
        for (size_t c = 0; c < N_IO; c++)
            v->io_idx[mod][c] = tokio__job_counter_index(mod,
                                                         io_counters[c], 0);
    }
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++)
        for (int m = 0; m < TOKIO_DARSHAN_KNOWN_MODULES; m++)
            v->ord[mod] += strcmp(v->keys[m], v->keys[mod]) < 0;
    for (int k = 0; k < N_SIZES; k++) {
        char name[48];
        snprintf(name, sizeof(name), "SIZE_%s_%s", k < 10 ? "READ" : "WRITE",
                 size_bins[k % 10]);
        v->size_idx[k] = tokio__job_counter_index(TOKIO_DARSHAN_POSIX,
                                                  name, 0);
    }
    for (int t = 0; t < 3; t++)
        v->time_idx[t] = tokio__job_counter_index(TOKIO_DARSHAN_POSIX,
                                                  posix_times[t], 1);
    if ((rc = tokio_darshan_fold_new(&v->derived,
                                     TOKIO_DARSHAN_FOLD_PERF)) < 0)
        return rc;
    rc = tokio_darshan_open_select(&v->log, path, &sel);
    views.fold = v->derived;
    if (rc >= 0)
        rc = tokio_darshan_to_json(v->log, &views, &v->json);
    if (rc < 0)
        return rc;
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++)
        v->printed[mod] = tokio__job_module_listed(v->log, mod, v->printed[mod]);
    if (v->n_recs > 1)
        qsort(v->recs, v->n_recs, sizeof(*v->recs), by_json_key);
    for (size_t i = 0; i < v->n_recs; i++)
        if (v->recs[i].name[0] != '_' &&
            (i == 0 || v->recs[i].mod != v->recs[i - 1].mod ||
             strcmp(v->recs[i].name, v->recs[i - 1].name) != 0))
            v->files[v->recs[i].mod]++;
    return TOKIO_OK;
}

static void
io_modules(FILE *fp, const struct view *v)
{
    const json_t *counters = json_object_get(v->json, "counters");

    fputs("<table>\n<tr><th>Module</th><th class=\"n\">Files</th>"
          "<th class=\"n\">Read</th><th class=\"n\">Written</th>"
          "<th class=\"n\">Reads</th><th class=\"n\">Writes</th>"
          "<th class=\"n\">Opens</th><th class=\"n\">Rate by slowest "
          "rank</th></tr>\n", fp);
    for (int o = 0; o < TOKIO_DARSHAN_KNOWN_MODULES; o++) {
        int mod = 0;
        while (v->ord[mod] != o)
            mod++;
        const double *s = v->io[mod];
        double perf = num(json_object_get(json_object_get(counters,
                                                          v->keys[mod]),
                                          "_perf"), "agg_perf_by_slowest");
        if (!v->printed[mod] || strcmp(v->keys[mod], "lustre") == 0)
            continue;               /* striping, no traffic */
        fputs("<tr><td>", fp);
        html(fp, v->keys[mod]);
        fprintf(fp, "</td><td class=\"n\">%zu</td><td class=\"n\">",
                v->files[mod]);
        bytes(fp, s[0]);
        fputs("</td><td class=\"n\">", fp);
        bytes(fp, s[1]);
        fprintf(fp, "</td><td class=\"n\">%.0f</td><td class=\"n\">%.0f"
                "</td><td class=\"n\">%.0f</td><td class=\"n\">",
                s[2] + s[3] + s[4], s[5] + s[6] + s[7], s[8] + s[9] + s[10]);
        if (isfinite(perf))
            fprintf(fp, "%.1f MiB/s", perf);
        else
            fputs("-", fp);
        fputs("</td></tr>\n", fp);
    }
    fputs("</table>\n", fp);
}

struct sizes {
    double read[10], write[10];
};

static int
draw_sizes(FILE *fp, const void *ctx)
{
    const struct sizes *s = ctx;
    const double *series[2] = { s->read, s->write };
    static const char *const labels[2] = { "reads", "writes" };
    static const char *const colors[2] = { READ_COLOR, WRITE_COLOR };

    return tokio__plot_bars_svg(fp, "POSIX access sizes (bytes)",
                                "operations", size_labels, 10, series,
                                labels, colors, 2);
}

struct split {
    double read, write, meta;
};

static int
draw_split(FILE *fp, const void *ctx)
{
    const struct split *s = ctx;
    static const char *const cats[1] = { "all ranks" };
    const double r[1] = { s->read }, w[1] = { s->write }, m[1] = { s->meta };
    const double *series[3] = { r, w, m };
    static const char *const labels[3] = { "read", "write", "metadata" };
    static const char *const colors[3] = { READ_COLOR, WRITE_COLOR,
                                           META_COLOR };

    return tokio__plot_bars_svg(fp, "POSIX time (seconds, summed over "
                                "ranks)", "seconds", cats, 1, series,
                                labels, colors, 3);
}

/* One file's traffic, for the busiest files. */
struct file_bytes {
    const char *name;
    double read, written;
    long ranks;
};

static int
by_bytes(const void *a, const void *b)
{
    const struct file_bytes *x = a, *y = b;
    double tx = x->read + x->written, ty = y->read + y->written;

    return (tx < ty) - (tx > ty);
}

/* The POSIX records recs[a, b), in the JSON's order. */
static int
busiest_files(struct page *p, const struct view_rec *recs, size_t a,
              size_t b)
{
    size_t k = 0;
    struct file_bytes *f = tokio__calloc(b - a + 1, sizeof(*f));
    int top = p->o->top_files > 0 ? p->o->top_files : TOP_FILES_DEFAULT;

    if (f == NULL)
        return oom();
    for (size_t i = a; i < b; i++) {
        const struct view_rec *e = &recs[i];
        if (e->name[0] == '_')
            continue;
        if (k == 0 || strcmp(f[k - 1].name, e->name) != 0)
            f[k++].name = e->name;
        f[k - 1].read += isfinite(e->bytes[0]) ? e->bytes[0] : 0;
        f[k - 1].written += isfinite(e->bytes[1]) ? e->bytes[1] : 0;
        f[k - 1].ranks = e->rank == -1 ? -1 : f[k - 1].ranks + 1;
    }
    qsort(f, k, sizeof(*f), by_bytes);
    fprintf(p->fp, "<h3>The busiest files</h3>\n<table>\n<tr><th>File</th>"
            "<th class=\"n\">Read</th><th class=\"n\">Written</th>"
            "<th class=\"n\">Ranks</th></tr>\n");
    for (size_t i = 0; i < k && i < (size_t)top; i++) {
        fputs("<tr><td><code>", p->fp);
        html(p->fp, f[i].name);
        fputs("</code></td><td class=\"n\">", p->fp);
        bytes(p->fp, f[i].read);
        fputs("</td><td class=\"n\">", p->fp);
        bytes(p->fp, f[i].written);
        if (f[i].ranks < 0)
            fputs("</td><td class=\"n\">shared</td></tr>\n", p->fp);
        else
            fprintf(p->fp, "</td><td class=\"n\">%ld</td></tr>\n",
                    f[i].ranks);
    }
    fputs("</table>\n", p->fp);
    if (k > (size_t)top)
        fprintf(p->fp, "<p>and %zu more files.</p>\n", k - (size_t)top);
    free(f);
    return TOKIO_OK;
}

static int
section_io(struct page *p, const struct view *v)
{
    struct sizes sizes;
    struct split split = { 0, 0, 0 };
    double *times[3] = { &split.read, &split.write, &split.meta };
    size_t a = 0, b;
    int rc, any = 0;

    fputs("<h2>Its I/O (Darshan)</h2>\n", p->fp);
    if (v == NULL)
        return absent(p, "No Darshan log was given for this job.");
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++)
        any |= v->printed[mod];
    if (!any)
        return absent(p, "The Darshan log holds no records.");
    io_modules(p->fp, v);
    if (!v->printed[TOKIO_DARSHAN_POSIX])
        return absent(p, "No POSIX records: no access sizes, times or "
                      "files to show.");
    memcpy(sizes.read, v->sizes, sizeof(sizes.read));
    memcpy(sizes.write, v->sizes + 10, sizeof(sizes.write));
    /* POSIX's records, and their times summed in the JSON's order */
    while (a < v->n_recs && v->recs[a].mod != TOKIO_DARSHAN_POSIX)
        a++;
    for (b = a; b < v->n_recs && v->recs[b].mod == TOKIO_DARSHAN_POSIX; b++)
        for (int t = 0; t < 3; t++)
            if (v->recs[b].name[0] != '_' && isfinite(v->recs[b].t[t]))
                *times[t] += v->recs[b].t[t];
    double ops = 0;
    for (int i = 0; i < 10; i++)
        ops += sizes.read[i] + sizes.write[i];
    if (ops == 0)
        absent(p, "The log counts no POSIX reads or writes by size.");
    else if ((rc = figure(p, draw_sizes, &sizes)) < 0)
        return rc;
    if ((rc = figure(p, draw_split, &split)) < 0)
        return rc;
    return busiest_files(p, v->recs, a, b);
}

/* ---- DXT: bytes by rank and time (--dxt) -------------------------------- */

/* The heat map drawn: its time bins, and at most this many rows of ranks
 * (ranks grouped evenly into them beyond). */
#define DXT_BINS 60
#define DXT_ROWS 32

struct heat_fig {
    const double *v;
    size_t rows, cols, nranks;
    double seconds;
    char max[64];
};

static int
draw_heat(FILE *fp, const void *ctx)
{
    const struct heat_fig *c = ctx;

    return tokio__plot_heatmap_svg(fp, "Bytes read and written, by rank and "
                                   "time", c->v, c->rows, c->cols, 0,
                                   c->seconds, "seconds since the start", 0,
                                   (double)c->nranks, "rank", c->max);
}

/* The heat map of the log's DXT traces, folded as view_load() read the
 * log (memory is the map's, not the traces'). */
static int
section_dxt(struct page *p, struct view *view)
{
    struct tokio_darshan_dxt_heatmap *h = NULL;
    struct tokio_summarize_job_dxt d;
    struct heat_fig c = { 0 };
    const char *layer = NULL;
    double *v;
    int rc;

    fputs("<h2>DXT: bytes by rank and time</h2>\n", p->fp);
    if (view == NULL)
        return absent(p, "No Darshan log was given: no DXT traces.");
    rc = tokio__dxt_layers_end(&view->layers, view->log, &h, &layer);
    if (rc == TOKIO_ENOMEM)
        return rc;
    if (rc < 0) {
        absent(p, "No heat map: %s", tokio_errmsg());
        return warn(p, "DXT: %s", tokio_errmsg());
    }
    tokio_summarize_job_dxt_stats(h, &d);
    if (d.segments == 0 || !(d.total_bytes > 0)) {
        tokio_darshan_dxt_heatmap_free(h);
        return absent(p, "The log holds no DXT traces (Darshan records "
                      "them when run with DXT_ENABLE_IO_TRACE set).");
    }
    c.rows = h->nranks < DXT_ROWS ? h->nranks : DXT_ROWS;
    c.cols = h->nbins;
    c.nranks = h->nranks;
    c.seconds = h->bin_seconds * (double)h->nbins;
    if ((v = tokio__calloc(c.rows * c.cols, sizeof(*v))) == NULL) {
        tokio_darshan_dxt_heatmap_free(h);
        return tokio__error(TOKIO_ENOMEM, "out of memory writing a report");
    }
    for (size_t r = 0; r < h->nranks; r++)
        for (size_t b = 0; b < h->nbins; b++)
            v[r * c.rows / h->nranks * c.cols + b] +=
                h->read_bytes[r * h->nbins + b] +
                h->write_bytes[r * h->nbins + b];
    double vmax = 0;
    for (size_t i = 0; i < c.rows * c.cols; i++)
        vmax = fmax(vmax, v[i]);
    tokio_humanize_bytes(c.max, sizeof(c.max), vmax, 0);
    c.v = v;
    fprintf(p->fp, "<p>%" PRIu64 " %s segments traced moved ", d.segments,
            layer);
    bytes(p->fp, d.total_bytes);
    fprintf(p->fp, " in %zu time bins of %.3g s", h->nbins, h->bin_seconds);
    if (c.rows < h->nranks)
        fprintf(p->fp, " (%zu rows of about %.3g ranks each)", c.rows,
                (double)h->nranks / (double)c.rows);
    fprintf(p->fp, "; the busiest bin moved %.0f%% of the bytes, the "
            "busiest rank (%ld) %.0f%%.", 100 * d.peak_bin_share,
            d.busiest_rank, 100 * d.busiest_rank_share);
    if (h->skipped > 0)
        fprintf(p->fp, " %" PRIu64 " segments of ranks outside the job "
                "are left out.", h->skipped);
    fputs("</p>\n", p->fp);
    rc = figure(p, draw_heat, &c);
    free(v);
    tokio_darshan_dxt_heatmap_free(h);
    return rc;
}

/* ---- the file system during the job ------------------------------------ */

/* A chart: `dataset` of the file system over the window, reduced per row
 * (`per_row`: the sum or the mean and maximum over columns). */
struct fs_chart {
    const char *title, *ylabel;
    const char *datasets[12];
    int mean_max;           /* 0: the sum of every column of every dataset */
    double scale;
};

static const struct fs_chart fs_charts[] = {
    { "Read rate (all OSTs)", "GiB/s", { "/datatargets/readrates" }, 0,
      1 / GIB },
    { "Write rate (all OSTs)", "GiB/s", { "/datatargets/writerates" }, 0,
      1 / GIB },
    { "OSS CPU load", "%", { "/dataservers/cpuload" }, 1, 1 },
    { "MDS CPU load", "%", { "/mdservers/cpuload" }, 1, 1 },
    { "Metadata operations", "ops/s", {
          "/mdtargets/openrates", "/mdtargets/closerates",
          "/mdtargets/mknodrates", "/mdtargets/linkrates",
          "/mdtargets/unlinkrates", "/mdtargets/mkdirrates",
          "/mdtargets/rmdirrates", "/mdtargets/renamerates",
          "/mdtargets/getxattrrates", "/mdtargets/statfsrates",
          "/mdtargets/setattrrates", "/mdtargets/getattrrates" }, 0, 1 },
};

struct drawn {
    const struct fs_chart *chart;
    struct tokio__plot_line lines[2];
    size_t n_lines;
    int64_t x0, x1, span0, span1;
};

static int
draw_fs(FILE *fp, const void *ctx)
{
    const struct drawn *d = ctx;

    return tokio__plot_time_svg(fp, d->chart->title, d->chart->ylabel,
                                d->lines, d->n_lines, d->x0, d->x1,
                                d->span0, d->span1);
}

/* One chart of the file system; *missing_out adds the missing cells. */
static int
fs_chart(struct page *p, const struct fs_chart *c, const char *fs,
         int64_t x0, int64_t x1, int64_t start, int64_t end,
         double *missing, double *cells, int *drawn)
{
    struct tokio_timeseries *sum = NULL;
    double *a = NULL, *b = NULL;
    int64_t *t = NULL;
    size_t rows = 0;
    int rc = TOKIO_OK;

    for (size_t d = 0; d < 12 && c->datasets[d] != NULL && rc == 0; d++) {
        struct tokio_timeseries *ts = NULL;
        rc = tokio_hdf5_from_time_range(&ts, p->cfg, fs, c->datasets[d], x0,
                                        x1, 0);
        if (rc == TOKIO_ENOTFOUND)      /* a file without this dataset */
            rc = TOKIO_OK;
        if (rc < 0 || ts == NULL)
            break;
        size_t nr = tokio_timeseries_rows(ts), nc = tokio_timeseries_cols(ts);
        const double *v = tokio_timeseries_cdata(ts);
        if (sum == NULL) {
            rows = nr;
            t = tokio__calloc(rows + 1, sizeof(*t));
            a = tokio__calloc(rows + 1, sizeof(*a));
            b = tokio__calloc(rows + 1, sizeof(*b));
            if (t == NULL || a == NULL || b == NULL) {
                tokio_timeseries_free(ts);
                rc = tokio__error(TOKIO_ENOMEM, "out of memory");
                break;
            }
            memcpy(t, tokio_timeseries_timestamps(ts), rows * sizeof(*t));
            for (size_t r = 0; r < rows; r++)
                b[r] = c->mean_max ? NAN : 0;
            sum = ts;
        }
        for (size_t r = 0; r < rows && r < nr; r++) {
            double s = 0, n = 0, mx = NAN;
            for (size_t k = 0; k < nc; k++) {
                double x = v[r * nc + k];
                *cells += 1;
                if (tokio_timeseries_is_missing(x)) {
                    *missing += 1;
                    continue;
                }
                s += x;
                n++;
                mx = isnan(mx) || x > mx ? x : mx;
            }
            a[r] += c->mean_max ? (n > 0 ? s / n : NAN) : s;
            if (c->mean_max)
                b[r] = mx;
        }
        if (ts != sum)
            tokio_timeseries_free(ts);
    }
    if (rc == TOKIO_OK && sum != NULL) {
        struct drawn d = { c, { { c->mean_max ? "mean" : c->ylabel,
                                  OTHER_COLOR, t, a, rows },
                                { "max", WRITE_COLOR, t, b, rows } },
                           c->mean_max ? 2 : 1, x0, x1, start, end };
        for (size_t r = 0; r < rows; r++) {
            a[r] *= c->scale;
            b[r] *= c->scale;
        }
        rc = figure(p, draw_fs, &d);
        *drawn += 1;
    }
    tokio_timeseries_free(sum);
    free(t);
    free(a);
    free(b);
    return rc;
}

static int
section_fs(struct page *p, const json_t *row, int64_t start, int64_t end)
{
    const json_t *fs = json_object_get(row, "_file_system");
    int64_t pad = (end - start) / 2 > 600 ? (end - start) / 2 : 600;
    double missing = 0, cells = 0;
    double jb = 0, fb = 0;
    static const char *const job_keys[] = { "darshan_tot_bytes_read_posix",
                                            "darshan_tot_bytes_written_posix" };
    static const char *const fs_keys[] = { "fs_tot_bytes_read",
                                           "fs_tot_bytes_written" };

    /* the bytes of either direction the sources have */
    for (int k = 0; k < 2; k++) {
        jb += isfinite(num(row, job_keys[k])) ? num(row, job_keys[k]) : 0;
        fb += isfinite(num(row, fs_keys[k])) ? num(row, fs_keys[k]) : 0;
    }
    int drawn = 0, rc = TOKIO_OK;
    char a[32], b[32];

    fputs("<h2>The file system during the job</h2>\n", p->fp);
    if (!json_is_string(fs))
        return absent(p, "The file system is not known: give -f, or name "
                      "the log's mount points in the site's "
                      "mount_to_fsname.");
    fputs("<p>", p->fp);
    html(p->fp, json_string_value(fs));
    tokio_time_format(a, sizeof(a), start - pad, "%H:%M");
    tokio_time_format(b, sizeof(b), end + pad, "%H:%M");
    fprintf(p->fp, " from %s to %s; the job's span is shaded.</p>\n", a, b);
    for (size_t i = 0; rc == TOKIO_OK &&
         i < sizeof(fs_charts) / sizeof(*fs_charts); i++)
        rc = fs_chart(p, &fs_charts[i], json_string_value(fs), start - pad,
                      end + pad, start, end, &missing, &cells, &drawn);
    if (rc == TOKIO_EIO || rc == TOKIO_EFORMAT) {
        absent(p, "The file system's data could not be read: %s",
               tokio_errmsg());
        return warn(p, "file system data: %s", tokio_errmsg());
    }
    if (rc < 0)
        return rc;
    if (drawn == 0) {
        absent(p, "No file system data: the site has no TTS or H5LMT file "
               "for %s over this window (site configuration key "
               "hdf5_files).", json_string_value(fs));
        return warn(p, "no file system data for %s", json_string_value(fs));
    }
    if (cells > 0 && missing > 0)
        fprintf(p->fp, "<p class=\"warn\">%.1f%% of the data points over "
                "this window are missing.</p>\n", 100 * missing / cells);
    fputs("<table>\n", p->fp);
    if (fb > 0)
        fprintf(p->fp, "<tr><th>The job's share of the file system's "
                "traffic (coverage factor)</th><td class=\"n\">%.3f</td>"
                "</tr>\n", jb / fb);
    row_json(p->fp, "Read over the job's span (GiB)",
             json_object_get(row, "fs_tot_gibs_read"));
    row_json(p->fp, "Written over the job's span (GiB)",
             json_object_get(row, "fs_tot_gibs_written"));
    row_json(p->fp, "Highest OSS CPU load (%)",
             json_object_get(row, "fs_max_oss_cpu"));
    row_json(p->fp, "Mean MDS CPU load (%)",
             json_object_get(row, "fs_ave_mds_cpu"));
    fputs("</table>\n", p->fp);
    return TOKIO_OK;
}

/* ---- findings ----------------------------------------------------------- */

static const char *const level_names[] = { "high", "warning", "info", "ok",
                                           "n/a" };

/* One finding as a table row: level, code, title, and for findings
 * that fired their numbers, files, recommendation and source. */
static void
finding_row(FILE *fp, const json_t *x)
{
    int level = tokio_insights_level_rank(x);
    const json_t *v;
    const char *key, *rec;
    size_t i;
    int n = 0;

    fprintf(fp, "<tr><td><span class=\"lv lv-%s\">%s</span></td>"
            "<td class=\"code\"><code>",
            level == 4 ? "na" : level_names[level], level_names[level]);
    html(fp, json_string_value(json_object_get(x, "code")));
    fputs("</code></td><td>", fp);
    html(fp, json_string_value(json_object_get(x, "title")));
    if (level < 3) {
        fputs("<div class=\"detail\">", fp);
        json_object_foreach((json_t *)json_object_get(x, "numbers"), key, v) {
            fputs(n++ ? ", " : "", fp);
            html(fp, key);
            if (!json_is_number(v))
                fputs(" = -", fp);
            else if (json_number_value(v) == floor(json_number_value(v)) &&
                     fabs(json_number_value(v)) < 1e15)
                fprintf(fp, " = %.0f", json_number_value(v));
            else
                fprintf(fp, " = %.4g", json_number_value(v));
        }
        json_array_foreach(json_object_get(x, "files"), i, v) {
            const char *name = json_string_value(json_object_get(v, "name"));
            fputs(i ? "; " : "<br>Concerns: ", fp);
            if (name != NULL) {
                fputs("<code>", fp);
                html(fp, name);
                fputs("</code>", fp);
            } else {
                fputs("rank ", fp);
                html_value(fp, json_object_get(v, "rank"));
            }
        }
        if ((rec = json_string_value(json_object_get(x, "recommendation")))) {
            fputs("<br><strong>What to do:</strong> ", fp);
            html(fp, rec);
        }
        fputs("<br>Source: ", fp);
        html(fp, json_string_value(json_object_get(x, "source")));
        fputs("</div>", fp);
    }
    fputs("</td></tr>\n", fp);
}

/* The job's findings from both sides, high levels first; those that
 * found nothing, or could not look, folded away. */
static int
section_findings(struct page *p, const json_t *row, const char *path)
{
    struct tokio_insights_opts o = { 0 };
    json_t *res = NULL;
    const json_t *findings, *x;
    size_t i, counts[5] = { 0 };
    int rc;

    fputs("<h2>Findings</h2>\n", p->fp);
    if (path == NULL)
        return absent(p, "No Darshan log: the findings need one.");
    o.job = p->o->job;
    o.history = p->o->history;
    rc = tokio_insights_log(&res, p->cfg, path, row, &o);
    if (rc == TOKIO_ENOMEM)
        return rc;
    if (rc < 0) {
        absent(p, "No findings: %s", tokio_errmsg());
        return warn(p, "findings: %s", tokio_errmsg());
    }
    findings = json_object_get(res, "findings");
    json_array_foreach(findings, i, x)
        counts[tokio_insights_level_rank(x)]++;
    fprintf(p->fp, "<p>%zu high, %zu warning, %zu info; %zu rules found "
            "nothing wrong, %zu could not be evaluated.</p>\n<table>\n",
            counts[0], counts[1], counts[2], counts[3], counts[4]);
    for (int level = 0; level < 3; level++)
        json_array_foreach(findings, i, x)
            if (tokio_insights_level_rank(x) == level)
                finding_row(p->fp, x);
    fputs("</table>\n", p->fp);
    for (int level = 3; level <= 4; level++) {
        if (counts[level] == 0)
            continue;
        fprintf(p->fp, "<details><summary>%zu %s</summary>\n<table>\n",
                counts[level], level == 3 ? "found nothing wrong"
                                          : "could not be evaluated");
        json_array_foreach(findings, i, x)
            if (tokio_insights_level_rank(x) == level)
                finding_row(p->fp, x);
        fputs("</table>\n</details>\n", p->fp);
    }
    json_array_foreach(json_object_get(res, "notes"), i, x) {
        fputs("<p class=\"warn\">", p->fp);
        html(p->fp, json_string_value(x));
        fputs("</p>\n", p->fp);
    }
    json_decref(res);
    return TOKIO_OK;
}

/* ---- the rest of the row ------------------------------------------------ */

/* The row's keys with `prefix`, as a table; 0 when it has none. */
static int
prefixed(FILE *fp, const json_t *row, const char *prefix)
{
    const char *key;
    json_t *v;
    int n = 0;

    json_object_foreach((json_t *)row, key, v) {
        if (strncmp(key, prefix, strlen(prefix)) != 0)
            continue;
        if (n++ == 0)
            fputs("<table>\n", fp);
        fputs("<tr><th>", fp);
        html(fp, key + strlen(prefix));
        fputs("</th><td class=\"n\">", fp);
        html_value(fp, v);
        fputs("</td></tr>\n", fp);
    }
    if (n > 0)
        fputs("</table>\n", fp);
    return n;
}

static void
section_rest(struct page *p, const json_t *row)
{
    fputs("<h2>OST fullness and failovers at the start</h2>\n", p->fp);
    if (!prefixed(p->fp, row, "fshealth_"))
        absent(p, p->o->job.ost ? "No OST data for the job's file system "
                                  "at its start."
                                : "Not gathered: give -o (--ost) with "
                                  "--ost-fullness and --ost-map, or the "
                                  "site's lfsstatus files.");
    fputs("<h2>Topology</h2>\n", p->fp);
    if (!prefixed(p->fp, row, "topology_"))
        absent(p, p->o->job.topology ? "The job's nodes or their places "
                                       "in the network are not known."
                                     : "Not gathered: give -t (--topology) "
                                       "and --slurm-jobid.");
    fputs("<h2>Jobs running beside it</h2>\n", p->fp);
    if (!prefixed(p->fp, row, "jobsdb_"))
        absent(p, p->o->job.concurrentjobs ? "No jobs database answer for "
                                             "this window."
                                           : "Not gathered: give -c "
                                             "(--concurrentjobs) with "
                                             "--jobhost.");
}

/* ---- against earlier runs ----------------------------------------------- */

/* Metrics for which smaller is better, by part of their name. */
static int
small_is_good(const char *name)
{
    static const char *const parts[] = { "_cpu", "full", "missing",
                                         "meta_time", "io_time", "walltime",
                                         "concurrent", "lead_secs" };

    for (size_t i = 0; i < sizeof(parts) / sizeof(*parts); i++)
        if (strstr(name, parts[i]) != NULL)
            return 1;
    return 0;
}

struct umami_ctx {
    const struct tokio_umami *u;
};

static int
draw_umami(FILE *fp, const void *ctx)
{
    const struct umami_ctx *c = ctx;

    return tokio_umami_write_figure(c->u, fp, TOKIO_UMAMI_SVG, -1);
}

static int
section_umami(struct page *p, const json_t *row)
{
    struct tokio_csv *t = NULL;
    struct tokio_umami *all = NULL, *u = NULL;
    int64_t *times = NULL;
    double *v = NULL;
    int rc;

    fputs("<h2>Against earlier runs (UMAMI)</h2>\n", p->fp);
    if (p->o->history == NULL)
        return absent(p, "No history of earlier runs: give --history with "
                      "summarize-job rows of them.");
    if ((rc = tokio_csv_open(&t, p->o->history)) < 0 ||
        (rc = tokio_umami_from_csv(&all, t, p->o->history, NULL)) < 0) {
        tokio_csv_free(t);
        return rc;
    }
    /* the history's metrics this run has too, this run last */
    size_t n = tokio_csv_rows(t);
    long tcol = tokio_csv_column(t, "_datetime_start");
    double now = num(row, "_datetime_start");
    times = tokio__calloc(n + 1, sizeof(*times));
    v = tokio__calloc(n + 1, sizeof(*v));
    rc = times && v ? tokio_umami_new(&u)
                    : tokio__error(TOKIO_ENOMEM, "out of memory");
    for (size_t r = 0; rc == TOKIO_OK && r < n; r++) {
        const char *s = tokio_csv_cell(t, r + 1, tcol >= 0 ? (size_t)tcol
                                                           : 0);
        if (tokio_time_parse(s, &times[r]) < 0)
            times[r] = (int64_t)strtod(s, NULL);
    }
    for (size_t m = 0; rc == TOKIO_OK && m < tokio_umami_count(all); m++) {
        const char *name = tokio_umami_name(all, m);
        long c = tokio_csv_column(t, name);
        if (!isfinite(num(row, name)) || c < 0)
            continue;
        int varies = 0;
        for (size_t r = 0; r < n; r++) {
            const char *s = tokio_csv_cell(t, r + 1, (size_t)c);
            v[r] = s[0] ? strtod(s, NULL) : NAN;
            varies |= v[r] != num(row, name) && !isnan(v[r]);
        }
        if (!varies)
            continue;       /* the same in every run: nothing to compare */
        rc = tokio_umami_add(u, name, NULL, !small_is_good(name), times, v,
                             n);
        if (rc == TOKIO_OK)
            rc = tokio_umami_append(u, name, (int64_t)now, num(row, name));
    }
    if (rc == TOKIO_OK && tokio_umami_count(u) == 0)
        absent(p, "The history shares no numeric column with this run.");
    else if (rc == TOKIO_OK) {
        struct umami_ctx c = { u };
        fprintf(p->fp, "<p>This run (the star) against %zu earlier runs: "
                "its colour tells the quartile of the earlier runs it "
                "falls in, from red (worst) to blue (best).</p>\n", n);
        rc = figure(p, draw_umami, &c);
    }
    free(times);
    free(v);
    tokio_umami_free(u);
    tokio_umami_free(all);
    tokio_csv_free(t);
    return rc;
}

/* ---- the page ----------------------------------------------------------- */

static int
job_page(struct page *p, const json_t *row, const char *path)
{
    struct view v;
    const json_t *log = NULL;
    int64_t start = 0, end = 0;
    int rc = path != NULL ? view_load(&v, path,
                                      p->o->job.dxt ? DXT_BINS : 0)
                          : TOKIO_OK;

    if (rc < 0) {
        view_free(&v);
        return rc;
    }
    if (path != NULL)
        log = v.json;
    window(row, log, &start, &end);
    fputs("<section>\n<h1>Job ", p->fp);
    html_value(p->fp, json_object_get(row, "_jobid"));
    fputs("</h1>\n", p->fp);
    section_job(p, row, log, path, start, end);
    rc = section_findings(p, row, path);
    if (rc == TOKIO_OK)
        rc = section_io(p, path != NULL ? &v : NULL);
    if (rc == TOKIO_OK && p->o->job.dxt)
        rc = section_dxt(p, path != NULL ? &v : NULL);
    if (rc == TOKIO_OK)
        rc = section_fs(p, row, start, end);
    if (rc == TOKIO_OK)
        section_rest(p, row);
    if (rc == TOKIO_OK)
        rc = section_umami(p, row);
    fputs("</section>\n", p->fp);
    if (path != NULL)
        view_free(&v);
    return rc;
}

int
tokio_report_write(FILE *fp, const struct tokio_config *cfg,
                   const char *const *logs, size_t n_logs,
                   const struct tokio_report_opts *o, json_t **warnings_out)
{
    struct page p = { fp, cfg, o, json_array(), 0 };
    json_t *w;
    size_t i, jobs = 0;
    int rc = TOKIO_OK;

    *warnings_out = NULL;
    if (p.warnings == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing a report");
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8"
          "\">\n<meta http-equiv=\"Content-Security-Policy\" content=\""
          "default-src 'none'; style-src 'unsafe-inline'\">\n"
          "<title>tokio report</title>\n<style>", fp);
    fputs(style, fp);
    fputs("</style>\n</head>\n<body>\n", fp);
    /* a page per log (or for the window), each from its own row */
    for (i = 0; rc == TOKIO_OK && i < (o->job.has_window ? 1 : n_logs); i++) {
        const char *path = o->job.has_window ? NULL : logs[i];
        json_t *rows = NULL, *warned = NULL;
        rc = tokio_summarize_job(&rows, &warned, cfg, path ? &path : NULL,
                                 path ? 1 : 0, &o->job);
        if (rc == TOKIO_OK && json_array_extend(p.warnings, warned) < 0)
            rc = tokio__error(TOKIO_ENOMEM, "out of memory");
        if (rc == TOKIO_OK && json_array_size(rows) > 0) {
            jobs++;
            rc = job_page(&p, json_array_get(rows, 0), path);
        }
        json_decref(rows);
        json_decref(warned);
    }
    if (rc == TOKIO_OK && jobs == 0)
        absent(&p, "No job to report: no input was a Darshan log.");
    if (rc == TOKIO_OK && json_array_size(p.warnings) > 0) {
        fputs("<h2>Notes</h2>\n<ul>\n", fp);
        json_array_foreach(p.warnings, i, w) {
            fputs("<li>", fp);
            html(fp, json_string_value(w));
            fputs("</li>\n", fp);
        }
        fputs("</ul>\n", fp);
    }
    fprintf(fp, "<footer>Made by tokio %s.</footer>\n</body>\n</html>\n",
            tokio_version());
    if (rc == TOKIO_OK)
        rc = tokio__write_check(fp, "cannot write the report");
    if (rc < 0) {
        json_decref(p.warnings);
        return rc;
    }
    *warnings_out = p.warnings;
    return TOKIO_OK;
}
