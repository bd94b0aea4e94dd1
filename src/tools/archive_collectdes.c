/*
 * src/tools/archive_collectdes.c - collectd metrics from Elasticsearch
 * into a TOKIO Time Series file: the reference's archive_collectdes
 * (pages_to_hdf5(), process_page(), update_datasets(),
 * normalize_cpu_datasets()), page by page through the all-or-nothing
 * HDF5 update, so memory holds the datasets and one page.
 *
 * What goes where (process_page()): disk documents (collectd_type
 * disk_octets / disk_ops with both read and write) to
 * datatargets/read|write[op]rates, column "hostname:plugin_instance";
 * cpu documents with a value to dataservers/cpuload (100 - idle),
 * cpuuser, cpusys, summed per host and row, then divided by how many
 * were summed; memory documents with a value to dataservers/memcached,
 * membuffered, memfree, memused, memslab (slab_recl), memslab_unrecl.
 * A document lands in the row holding its @timestamp (whole seconds).
 * The CPU datasets are cleared over the query's range first: an average
 * cannot be updated.
 *
 * Differs from pytokio: the output is created or updated (the
 * reference's h5py-3 failure, see golden COMMANDS.md); a live run
 * archives all three queries once (the reference committed after each,
 * the cpu pages three times); a CPU cell summed from several pages is
 * divided by its count once (the reference divided it once per page
 * that touched it); a hit without _source, plugin, @timestamp or a
 * needed field, or a value that is not a number, is an error naming it
 * (the reference printed and skipped the first, raised on the others);
 * every dataset gets its units and version even when no page came;
 * --threads has nothing to do.  Golden:
 * ../shared/testdata/golden/pytokio/archive_collectdes/.
 */
#include "tokio/tools/archive_collectdes.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/connectors/collectd_es.h"
#include "tokio/connectors/es.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/time.h"
#include "tokio/timeseries.h"
#include "connectors/es_hits.h"
#include "core/alloc.h"
#include "core/error.h"

#define SCHEMA_VERSION "1"

/* The reference's DATASETS and their units, in its order. */
enum {
    READRATES, WRITERATES, READOPRATES, WRITEOPRATES, MEMCACHED,
    MEMBUFFERED, MEMFREE, MEMUSED, MEMSLAB, MEMSLAB_UNRECL, CPULOAD,
    CPUUSER, CPUSYS, N_DATASETS
};

static const char *const datasets[N_DATASETS][2] = {
    { "datatargets/readrates", "bytes/sec" },
    { "datatargets/writerates", "bytes/sec" },
    { "datatargets/readoprates", "ops/sec" },
    { "datatargets/writeoprates", "ops/sec" },
    { "dataservers/memcached", "bytes" },
    { "dataservers/membuffered", "bytes" },
    { "dataservers/memfree", "bytes" },
    { "dataservers/memused", "bytes" },
    { "dataservers/memslab", "bytes" },
    { "dataservers/memslab_unrecl", "bytes" },
    { "dataservers/cpuload", "%" },
    { "dataservers/cpuuser", "%" },
    { "dataservers/cpusys", "%" },
};

/* memory type_instance -> dataset */
static const struct { const char *type; int set; } memory_sets[] = {
    { "cached", MEMCACHED }, { "buffered", MEMBUFFERED },
    { "free", MEMFREE }, { "used", MEMUSED }, { "slab_recl", MEMSLAB },
    { "slab_unrecl", MEMSLAB_UNRECL },
};

/* The _source fields read. */
enum {
    F_TIMESTAMP, F_HOSTNAME, F_PLUGIN, F_COLLECTD_TYPE, F_TYPE_INSTANCE,
    F_PLUGIN_INSTANCE, F_VALUE, F_READ, F_WRITE, N_FIELDS
};

static const char *const fields[N_FIELDS] = {
    "@timestamp", "hostname", "plugin", "collectd_type", "type_instance",
    "plugin_instance", "value", "read", "write",
};

struct archiver {
    struct tokio_timeseries *ts[N_DATASETS];
    uint32_t *count[3];     /* per cell of cpuload, cpuuser, cpusys */
    size_t hit;             /* of the page being read */
    struct tokio_hdf5_update *u;
    const struct tokio_archive_collectdes_options *o;
};

static int
bad_hit(const struct archiver *a, const char *what, const char *field)
{
    return tokio__error(TOKIO_EFORMAT, "hit %zu: %s '%s'", a->hit, what,
                        field);
}

/* The string field `f` of the hit `src`, or NULL with the error set. */
static const char *
text(const struct archiver *a, const struct tokio__es_value *src, int f)
{
    const struct tokio__es_value *v = &src[f];

    if (v->kind != TOKIO__ES_STRING) {
        bad_hit(a, v->kind != TOKIO__ES_ABSENT ? "a string is expected in"
                                               : "no", fields[f]);
        return NULL;
    }
    return v->s;
}

/* The number field `f` of `src`: 1 and *out; 0 when absent or null; -1
 * (error set) when of another type. */
static int
number(const struct archiver *a, const struct tokio__es_value *src, int f,
       double *out)
{
    const struct tokio__es_value *v = &src[f];

    if (v->kind == TOKIO__ES_ABSENT || v->kind == TOKIO__ES_NULL)
        return 0;
    if (v->kind != TOKIO__ES_INT && v->kind != TOKIO__ES_REAL)
        return bad_hit(a, "a number is expected in", fields[f]), -1;
    *out = v->kind == TOKIO__ES_INT ? (double)v->i : v->d;
    return 1;
}

static int
timestamp(const struct archiver *a, const struct tokio__es_value *src,
          int64_t *out)
{
    const char *s = text(a, src, F_TIMESTAMP);

    if (s == NULL)
        return TOKIO_EFORMAT;
    /* fractions of a second dropped, as mktime() of the local time did */
    if (tokio_time_parse(s, out) < 0)
        return bad_hit(a, "a date is expected in", "@timestamp");
    return TOKIO_OK;
}

/* Store `v` at (`t`, `col`) of dataset `set`; a full dataset is an
 * error naming the option that sizes it. */
static int
put(struct archiver *a, int set, int64_t t, const char *col, double v,
    enum tokio_ts_reducer reducer)
{
    int rc = tokio_timeseries_insert_element(a->ts[set], t, col, v, reducer,
                                             TOKIO_TS_LEFT);

    if (rc == TOKIO_EINVAL)
        return tokio__error(TOKIO_EINVAL, "%s: '%s' is one column more than "
                            "its %zu (--num-nodes, --ssds-per-node)",
                            datasets[set][0], col,
                            tokio_timeseries_cols(a->ts[set]));
    if (rc == 1 && set >= CPULOAD) {
        size_t row;
        long c;

        tokio_timeseries_get_insert_pos(a->ts[set], t, col, 0, TOKIO_TS_LEFT,
                                        &row, &c);
        a->count[set - CPULOAD][row * tokio_timeseries_cols(a->ts[set]) +
                                (size_t)c]++;
    }
    return rc < 0 ? rc : TOKIO_OK;
}

static int
add_disk(struct archiver *a, const struct tokio__es_value *src)
{
    const char *host, *dev, *type;
    double rd = 0, wr = 0;
    int64_t t;
    int rc, has_rd, has_wr, set;
    char col[512];

    if ((rc = timestamp(a, src, &t)) < 0)
        return rc;
    if ((host = text(a, src, F_HOSTNAME)) == NULL ||
        (dev = text(a, src, F_PLUGIN_INSTANCE)) == NULL ||
        (type = text(a, src, F_COLLECTD_TYPE)) == NULL)
        return TOKIO_EFORMAT;
    if (strcmp(type, "disk_octets") == 0)
        set = READRATES;
    else if (strcmp(type, "disk_ops") == 0)
        set = READOPRATES;
    else
        return TOKIO_OK;
    if ((has_rd = number(a, src, F_READ, &rd)) < 0 ||
        (has_wr = number(a, src, F_WRITE, &wr)) < 0)
        return TOKIO_EFORMAT;
    if (!has_rd || !has_wr)
        return TOKIO_OK;
    if ((size_t)snprintf(col, sizeof(col), "%s:%s", host, dev) >= sizeof(col))
        return bad_hit(a, "too long a name in", "hostname");
    if ((rc = put(a, set, t, col, rd, TOKIO_TS_REPLACE)) < 0)
        return rc;
    return put(a, set + 1, t, col, wr, TOKIO_TS_REPLACE);
}

static int
add_cpu_or_memory(struct archiver *a, const struct tokio__es_value *src,
                  int cpu)
{
    const char *host, *type;
    double v;
    int64_t t;
    int rc, has;

    if (src[F_VALUE].kind == TOKIO__ES_ABSENT)
        return TOKIO_OK;
    if ((rc = timestamp(a, src, &t)) < 0)
        return rc;
    if ((has = number(a, src, F_VALUE, &v)) <= 0)
        return has < 0 ? TOKIO_EFORMAT : bad_hit(a, "a number is expected in",
                                                 "value");
    if ((host = text(a, src, F_HOSTNAME)) == NULL ||
        (type = text(a, src, F_TYPE_INSTANCE)) == NULL)
        return TOKIO_EFORMAT;
    if (cpu) {
        if (strcmp(type, "idle") == 0)
            return put(a, CPULOAD, t, host, 100.0 - v, TOKIO_TS_SUM);
        if (strcmp(type, "user") == 0)
            return put(a, CPUUSER, t, host, v, TOKIO_TS_SUM);
        if (strcmp(type, "system") == 0)
            return put(a, CPUSYS, t, host, v, TOKIO_TS_SUM);
        return TOKIO_OK;
    }
    for (size_t i = 0; i < sizeof(memory_sets) / sizeof(memory_sets[0]); i++)
        if (strcmp(type, memory_sets[i].type) == 0)
            return put(a, memory_sets[i].set, t, host, v, TOKIO_TS_REPLACE);
    return TOKIO_OK;
}

/* A tokio__es_hit_fn: a document into the datasets. */
static int
add_hit(const struct tokio__es_value *src, size_t hit, void *payload)
{
    struct archiver *a = payload;
    const char *plugin;

    a->hit = hit;
    if ((plugin = text(a, src, F_PLUGIN)) == NULL)
        return TOKIO_EFORMAT;
    if (strcmp(plugin, "disk") == 0)
        return add_disk(a, src);
    if (strcmp(plugin, "cpu") == 0)
        return add_cpu_or_memory(a, src, 1);
    if (strcmp(plugin, "memory") == 0)
        return add_cpu_or_memory(a, src, 0);
    return TOKIO_OK;
}

/* A tokio_es_page_fn: every document of a page into the datasets. */
static int
add_page(const json_t *hits, size_t page, void *payload)
{
    struct archiver *a = payload;
    struct tokio__es_value v[N_FIELDS];
    const json_t *hit;
    size_t h;
    int rc;

    (void)page;
    json_array_foreach(hits, h, hit) {
        const json_t *src = json_object_get(hit, "_source");

        a->hit = h;
        if (!json_is_object(src))
            return bad_hit(a, "no object", "_source");
        for (size_t f = 0; f < N_FIELDS; f++)
            tokio__es_value_of(json_object_get(src, fields[f]), &v[f]);
        if ((rc = add_hit(v, h, a)) < 0)
            return rc;
    }
    return TOKIO_OK;
}

/* Dataset `set` from the file, or new over the init range. */
static int
open_dataset(struct archiver *a, struct tokio_hdf5_update *u, size_t set,
             const struct tokio_archive_collectdes_options *o)
{
    size_t cols = (size_t)o->num_nodes *
                  (set <= WRITEOPRATES ? (size_t)o->ssds_per_node : 1);
    int rc = tokio_hdf5_update_to_timeseries(u, datasets[set][0], &a->ts[set]);

    if (rc == TOKIO_ENOTFOUND)
        rc = tokio_timeseries_new(&a->ts[set], datasets[set][0],
                                  o->range.init_start, o->range.init_end, o->range.timestep,
                                  cols, NULL, 0);
    if (rc < 0)
        return rc;
    json_t *meta = tokio_timeseries_dataset_metadata(a->ts[set]);
    if (json_object_set_new(meta, "version", json_string(SCHEMA_VERSION)) < 0
        || json_object_set_new(meta, "units", json_string(datasets[set][1]))
            < 0
        || json_object_set_new(tokio_timeseries_group_metadata(a->ts[set]),
                               "source", json_string("collectd_disk")) < 0)
        return TOKIO_ENOMEM;
    if (set < CPULOAD)
        return TOKIO_OK;
    /* an average cannot be updated: clear what this run recomputes */
    struct tokio_timeseries *ts = a->ts[set];
    size_t rows = tokio_timeseries_rows(ts), r0, r1;
    const int64_t *t = tokio_timeseries_timestamps(ts);
    int64_t step = tokio_timeseries_timestep(ts);
    double *d = tokio_timeseries_data(ts);

    cols = tokio_timeseries_cols(ts);
    if ((a->count[set - CPULOAD] = tokio__calloc(rows * cols + 1,
                                                 sizeof(uint32_t))) == NULL)
        return TOKIO_ENOMEM;
    r0 = o->range.start <= t[0] ? 0
         : (size_t)((o->range.start - t[0]) / step);
    r1 = o->range.end <= t[0] ? 0 : (size_t)((o->range.end - t[0]) / step);
    for (size_t k = (r0 < rows ? r0 : rows) * cols;
         k < (r1 < rows ? r1 : rows) * cols; k++)
        d[k] = -0.0;
    return TOKIO_OK;
}

/* Every dataset as it was before the first hit: es_hits.c's fallback
 * to jansson reads the pages again. */
static int
reset(void *payload)
{
    struct archiver *a = payload;
    int rc = TOKIO_OK;

    for (size_t set = 0; set < N_DATASETS; set++) {
        tokio_timeseries_free(a->ts[set]);
        a->ts[set] = NULL;
    }
    for (size_t i = 0; i < 3; i++) {
        free(a->count[i]);
        a->count[i] = NULL;
    }
    for (size_t set = 0; set < N_DATASETS && rc >= 0; set++)
        rc = open_dataset(a, a->u, set, a->o);
    return rc;
}

/* CPU sums into averages; what is not a number becomes missing. */
static void
normalize(struct archiver *a)
{
    for (int set = CPULOAD; set <= CPUSYS; set++) {
        struct tokio_timeseries *ts = a->ts[set];
        size_t n = tokio_timeseries_rows(ts) * tokio_timeseries_cols(ts);
        const uint32_t *count = a->count[set - CPULOAD];
        double *d = tokio_timeseries_data(ts);

        for (size_t k = 0; k < n; k++) {
            if (count[k] > 0)
                d[k] /= count[k];
            if (isnan(d[k]))
                d[k] = -0.0;
        }
    }
}

int
tokio_archive_collectdes(const struct tokio_archive_collectdes_options *o)
{
    struct tokio_hdf5_update *u = NULL;
    struct archiver a;
    int rc;

    if ((rc = tokio_hdf5_check_range(&o->range, o->output)) < 0)
        return rc;
    if (o->num_nodes < 1 || o->ssds_per_node < 1 ||
        o->num_nodes > 1000000 / o->ssds_per_node)
        return tokio__error(TOKIO_EINVAL, "archive-collectdes: %ld nodes of "
                            "%ld SSDs is not a size to archive",
                            o->num_nodes, o->ssds_per_node);
    memset(&a, 0, sizeof(a));
    rc = tokio_hdf5_update_begin(&u, o->output);
    a.u = u;
    a.o = o;
    if (rc >= 0)
        rc = tokio_hdf5_update_set_version(u, SCHEMA_VERSION);
    for (size_t set = 0; set < N_DATASETS && rc >= 0; set++)
        rc = open_dataset(&a, u, set, o);
    if (rc >= 0)
        rc = o->input != NULL
             ? tokio__es_from_cache_hits(o->input, fields, N_FIELDS,
                                         add_hit, reset, add_page, &a)
             : tokio__collectd_es_scroll_hits(o->es, o->range.start,
                                              o->range.end, fields, N_FIELDS,
                                              add_hit, add_page, &a);
    if (rc >= 0)
        normalize(&a);
    for (size_t set = 0; set < N_DATASETS && rc >= 0; set++)
        rc = tokio_hdf5_update_commit(u, a.ts[set]);
    if (rc >= 0)
        rc = tokio_hdf5_update_finish(u);
    else
        tokio_hdf5_update_abort(u);
    if (rc == TOKIO_ENOMEM)
        tokio__error(rc, "out of memory archiving into '%s'", o->output);
    for (size_t set = 0; set < N_DATASETS; set++)
        tokio_timeseries_free(a.ts[set]);
    for (size_t i = 0; i < 3; i++)
        free(a.count[i]);
    return rc;
}
