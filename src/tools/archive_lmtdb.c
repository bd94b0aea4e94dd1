/*
 * src/tools/archive_lmtdb.c - LMT database (server or SQLite cache) ->
 * TOKIO Time Series HDF5 (the reference's tokio.cli.archive_lmtdb).
 *
 * OST bytes read and written, fullness and inodes, OSS and MDS CPU and
 * memory load, and every metadata operation of MDS_OPS_DATA demultiplexed
 * by OPERATION_ID (no JOIN).  The query runs one timestep past the end so
 * counters can become per-timestep deltas (left-aligned, resets masked as
 * -0.0 by the TimeSeries layer); the other datasets lose that extra row.
 *
 * A day of LMT rows is millions of them, so the range goes block by block,
 * each a whole number of the datasets' HDF5 chunks of rows: each table is
 * queried over the block's TS_IDs, its rows go straight into a block of
 * every dataset, the counters become deltas (the last row of a block, kept
 * as it is, starts the next one) and the block is written into place.
 * Memory is that of one block, not of the range or the query; each chunk
 * is compressed once.
 *
 * The HDF5 file is updated all or nothing: missing datasets are first
 * created empty over init_start..init_end, then the blocks are committed
 * into place.
 */
#include "tokio/tools/archive_lmtdb.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/connectors/lmtdb.h"
#include "tokio/timeseries.h"
#include "tools/archive_lmtdb_private.h"

#define SCHEMA_VERSION "1"

/* The datasets, in the reference's order; `col` is the index of the value
 * in its table's query row, or a SUM_* for the totals. */
enum source { SRC_OST, SRC_OSS, SRC_MDS, SRC_MDS_OPS };
#define N_SOURCES 4
#define SUM_KBYTES (-1)
#define SUM_INODES (-2)

struct spec {
    const char *name;
    const char *units;
    int delta;              /* counters: stored as per-timestep deltas */
    enum source src;
    int col;                /* value column in the row, or SUM_* */
    const char *opname;     /* SRC_MDS_OPS: OPERATION_NAME */
};

/* Row layouts: the columns of lmtdb.c's LMTDB_TABLES; the id comes
 * first. */
#define ID_COL 0
#define OST_READ_BYTES 2
#define OST_WRITE_BYTES 3
#define OST_KBYTES_FREE 5
#define OST_KBYTES_USED 6
#define OST_INODES_FREE 7
#define OST_INODES_USED 8
#define OSS_PCT_CPU 2
#define OSS_PCT_MEMORY 3
#define MDS_PCT_CPU 2
#define OPS_OPERATION_ID 2
#define OPS_SAMPLES 3

static const struct spec specs[] = {
    { "datatargets/readbytes", "bytes", 1, SRC_OST, OST_READ_BYTES, NULL },
    { "datatargets/writebytes", "bytes", 1, SRC_OST, OST_WRITE_BYTES, NULL },
    { "fullness/bytes", "KiB", 0, SRC_OST, OST_KBYTES_USED, NULL },
    { "fullness/bytestotal", "KiB", 0, SRC_OST, SUM_KBYTES, NULL },
    { "fullness/inodes", "inodes", 0, SRC_OST, OST_INODES_USED, NULL },
    { "fullness/inodestotal", "inodes", 0, SRC_OST, SUM_INODES, NULL },
    { "dataservers/cpuload", "%", 0, SRC_OSS, OSS_PCT_CPU, NULL },
    { "dataservers/memused", "%", 0, SRC_OSS, OSS_PCT_MEMORY, NULL },
    { "mdservers/cpuload", "%", 0, SRC_MDS, MDS_PCT_CPU, NULL },
    { "mdtargets/opens", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "open" },
    { "mdtargets/closes", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "close" },
    { "mdtargets/mknods", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "mknod" },
    { "mdtargets/links", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "link" },
    { "mdtargets/unlinks", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "unlink" },
    { "mdtargets/mkdirs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "mkdir" },
    { "mdtargets/rmdirs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "rmdir" },
    { "mdtargets/renames", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "rename" },
    { "mdtargets/getxattrs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "getxattr" },
    { "mdtargets/statfss", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "statfs" },
    { "mdtargets/setattrs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "setattr" },
    { "mdtargets/getattrs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "getattr" },
};
#define N_DATASETS (sizeof(specs) / sizeof(specs[0]))

/* The tables read for each block (indexed by source), and whose id their
 * first column holds. */
static const struct {
    enum source src;
    const char *table;
    enum tokio_lmtdb_kind kind;
} tables[N_SOURCES] = {
    { SRC_OST, "OST_DATA", TOKIO_LMTDB_OST },
    { SRC_OSS, "OSS_DATA", TOKIO_LMTDB_OSS },
    { SRC_MDS, "MDS_DATA", TOKIO_LMTDB_MDS },
    { SRC_MDS_OPS, "MDS_OPS_DATA", TOKIO_LMTDB_MDS },
};

/* Bytes of a block (all datasets) to aim for: well inside 64 MiB. */
#define BLOCK_BYTES ((size_t)8 << 20)

/* BLOCK_BYTES, or a test's smaller size */
static size_t block_bytes = BLOCK_BYTES;

size_t
tokio__archive_lmtdb_block_bytes(size_t bytes)
{
    size_t before = block_bytes;

    block_bytes = bytes > 0 ? bytes : BLOCK_BYTES;
    return before;
}

/* OPERATION_IDs and OST/OSS/MDS ids below these are looked up once and
 * remembered (LMT numbers them from 1); larger ones at every row. */
#define MAX_OP_ID 1024
#define MAX_CACHED_ID 65536

#define N_KINDS 3   /* TOKIO_LMTDB_OST, _OSS, _MDS */

/* One dataset being written. */
struct dataset {
    const struct spec *spec;
    struct tokio_timeseries *ts;    /* names and metadata; no cells */
    struct tokio_hdf5_rows *w;
    size_t cols;
    long *col_of;           /* database-order name index -> column, or -1 */
    double *block;          /* rows r0 .. r0 + n of the range */
    struct tokio_ts_deltas *deltas;
};

struct archiver {
    struct tokio_lmtdb *lmt;
    const char *output;
    int64_t start, timestep;
    struct dataset sets[N_DATASETS];
    /* while a table streams in: */
    size_t r0, n;                   /* the block: rows r0 .. r0 + n */
    enum source src;
    enum tokio_lmtdb_kind kind;     /* whose id is in column ID_COL */
    /* id -> database-order name index + 2 (0: not looked up yet, 1: no
     * such name), for ids below MAX_CACHED_ID; allocated on first use */
    int32_t *index_of[N_KINDS];
    struct dataset *by_op[MAX_OP_ID];   /* OPERATION_ID -> its dataset */
    struct dataset *of_src[N_SOURCES][N_DATASETS];  /* all but MDS ops */
    size_t n_of_src[N_SOURCES];
};

static int
oom(const struct archiver *a)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory archiving '%s'",
                        a->output);
}

static long
lookup_name(const struct archiver *a, int64_t id)
{
    const char *name = tokio_lmtdb_name_of(a->lmt, a->kind, id);
    size_t n;
    const char *const *names = tokio_lmtdb_names(a->lmt, a->kind, &n);

    for (size_t k = 0; name != NULL && k < n; k++)
        if (names[k] == name)
            return (long)k;
    return -1;
}

/* Database-order name index of `id` in *k_out (-1: none). */
static int
name_index(struct archiver *a, int64_t id, long *k_out)
{
    int32_t *cache = a->index_of[a->kind];

    if (id < 0 || id >= MAX_CACHED_ID) {
        *k_out = lookup_name(a, id);
        return TOKIO_OK;
    }
    if (cache == NULL) {
        cache = tokio__calloc(MAX_CACHED_ID, sizeof(*cache));
        if (cache == NULL)
            return oom(a);
        a->index_of[a->kind] = cache;
    }
    if (cache[id] == 0)
        cache[id] = (int32_t)(lookup_name(a, id) + 2);
    *k_out = cache[id] - 2;
    return TOKIO_OK;
}

static int
as_double(const struct tokio_db_value *v, double *out)
{
    if (v->type == TOKIO_DB_INT)
        *out = (double)v->i;
    else if (v->type == TOKIO_DB_REAL)
        *out = v->d;
    else
        return -1;      /* NULL or text: leave the cell missing */
    return 0;
}

static void
store(struct dataset *d, size_t row, long k, double value)
{
    long col = d->col_of[k];

    if (col >= 0)
        d->block[row * d->cols + (size_t)col] = value;
}

/* The dataset of MDS operation `op` (the reference's opname_to_dataset). */
static struct dataset *
op_dataset(struct archiver *a, int64_t op)
{
    const char *name = tokio_lmtdb_name_of(a->lmt, TOKIO_LMTDB_MDS_OP, op);

    for (size_t i = 0; name != NULL && i < N_DATASETS; i++)
        if (specs[i].opname != NULL && strcmp(specs[i].opname, name) == 0)
            return &a->sets[i];
    return NULL;
}

/* One MDS_OPS_DATA row: its SAMPLES into the operation's dataset. */
static int
take_op(struct archiver *a, size_t row, const struct tokio_db_value *v,
        size_t n)
{
    int64_t op = v[OPS_OPERATION_ID].i;
    struct dataset *d;
    double x;
    long k;
    int rc;

    if (n <= OPS_SAMPLES || v[OPS_OPERATION_ID].type != TOKIO_DB_INT)
        return TOKIO_OK;
    d = op >= 0 && op < MAX_OP_ID ? a->by_op[op] : op_dataset(a, op);
    if (d == NULL)
        return TOKIO_OK;
    if ((rc = name_index(a, v[ID_COL].i, &k)) < 0)
        return rc;
    if (k >= 0 && as_double(&v[OPS_SAMPLES], &x) == 0)
        store(d, row, k, x);
    return TOKIO_OK;
}

/* tokio_lmtdb_stream_stamps()' callback: one row of a table into the
 * block's row of every dataset it feeds. */
static int
take_row(void *payload, int64_t t, const struct tokio_db_value *v, size_t n)
{
    struct archiver *a = payload;
    size_t row;
    long k;
    int rc;

    if (n < 4 || v[ID_COL].type != TOKIO_DB_INT)
        return TOKIO_OK;
    /* the reference's get_insert_pos(), align='l', within the block */
    if (t < a->start)
        return TOKIO_OK;
    row = (size_t)((t - a->start) / a->timestep);
    if (row < a->r0 || row - a->r0 > a->n)
        return TOKIO_OK;
    row -= a->r0;
    if (a->src == SRC_MDS_OPS)
        return take_op(a, row, v, n);
    if ((rc = name_index(a, v[ID_COL].i, &k)) < 0)
        return rc;
    if (k < 0)
        return TOKIO_OK;
    for (size_t i = 0; i < a->n_of_src[a->src]; i++) {
        struct dataset *d = a->of_src[a->src][i];
        int col = d->spec->col;
        double x, y;

        if (col == SUM_KBYTES || col == SUM_INODES) {
            int u = col == SUM_KBYTES ? OST_KBYTES_USED : OST_INODES_USED;
            int f = col == SUM_KBYTES ? OST_KBYTES_FREE : OST_INODES_FREE;
            int64_t sum;

            if ((size_t)u >= n || (size_t)f >= n ||
                as_double(&v[u], &x) < 0 || as_double(&v[f], &y) < 0)
                continue;
            /* Python adds the ints exactly before the float store */
            if (v[u].type == TOKIO_DB_INT && v[f].type == TOKIO_DB_INT &&
                !__builtin_add_overflow(v[u].i, v[f].i, &sum))
                x = (double)sum, y = 0;
            store(d, row, k, x + y);
        } else if ((size_t)col < n && as_double(&v[col], &x) == 0) {
            store(d, row, k, x);
        }
    }
    return TOKIO_OK;
}

/* The names of a dataset's columns, in database order. */
static const char *const *
names_of(const struct archiver *a, const struct dataset *d, size_t *n_out)
{
    return tokio_lmtdb_names(a->lmt, tables[d->spec->src].kind, n_out);
}

/* Each dataset's series: its names and metadata, one row. */
static int
make_series(struct archiver *a)
{
    for (size_t i = 0; i < N_DATASETS; i++) {
        struct dataset *d = &a->sets[i];
        size_t n;
        const char *const *names = names_of(a, d, &n);
        char path[64];
        json_t *meta;
        int rc;

        snprintf(path, sizeof(path), "/%s", d->spec->name);
        if ((rc = tokio_timeseries_new(&d->ts, path, a->start,
                                       a->start + a->timestep, a->timestep,
                                       n, names, n)) < 0)
            return rc;
        meta = tokio_timeseries_dataset_metadata(d->ts);
        if (json_object_set_new(meta, "version", json_string(SCHEMA_VERSION))
            || json_object_set_new(meta, "units", json_string(d->spec->units))
            || json_object_set_new(tokio_timeseries_group_metadata(d->ts),
                                   "source", json_string("lmt")))
            return oom(a);
        d->cols = n;
    }
    return TOKIO_OK;
}

/* Create what is missing, begin every commit and size the block: *block_out
 * rows from row *first_out on (the first block is shorter, up to it). */
static int
begin_datasets(struct archiver *a, struct tokio_hdf5_update *u,
               const struct tokio_archive_range *r, size_t rows,
               size_t *block_out, size_t *first_out)
{
    size_t row_bytes = 0, chunk, block;
    int rc;

    if ((rc = tokio_hdf5_update_set_version(u, SCHEMA_VERSION)) < 0)
        return rc;
    for (size_t i = 0; i < N_DATASETS; i++)
        if ((rc = tokio_hdf5_update_init_dataset(
                 u, tokio_timeseries_dataset_name(a->sets[i].ts),
                 r->init_start, r->init_end, r->timestep,
                 a->sets[i].cols)) < 0)
            return rc;
    for (size_t i = 0; i < N_DATASETS; i++) {
        struct dataset *d = &a->sets[i];
        size_t n;
        const char *const *names = names_of(a, d, &n);

        if ((rc = tokio_hdf5_update_commit_begin(u, d->ts, r->start, rows,
                                                 &d->w)) < 0)
            return rc;
        /* commit may have put the columns in the file's order */
        if ((d->col_of = tokio__calloc(n + 1, sizeof(long))) == NULL)
            return oom(a);
        for (size_t k = 0; k < n; k++)
            d->col_of[k] = tokio_timeseries_column_index(d->ts, names[k]);
        row_bytes += d->cols * sizeof(double);
    }
    /* whole chunks of rows of the largest datasets (the OSTs') */
    chunk = tokio_hdf5_rows_chunk(a->sets[0].w, first_out);
    block = chunk * (block_bytes / (row_bytes + 1) / chunk);
    if (block == 0)
        block = chunk;
    if (block * row_bytes > 2 * block_bytes) {
        /* chunks too tall to hold: smaller blocks, each chunk compressed
         * once all the same (it stays in HDF5's chunk cache) */
        block = block_bytes / (row_bytes + 1);
        *first_out = 0;
    }
    *block_out = block > 0 ? block : 1;
    for (size_t i = 0; i < N_DATASETS; i++) {
        struct dataset *d = &a->sets[i];
        size_t cells = (*block_out + 1) * d->cols;

        if ((d->block = tokio__malloc(cells * sizeof(double) + 1)) == NULL)
            return oom(a);
        for (size_t c = 0; c < cells; c++)
            d->block[c] = -0.0;
        if (d->spec->delta &&
            (rc = tokio_timeseries_deltas_new(&d->deltas, d->cols)) < 0)
            return rc;
    }
    return TOKIO_OK;
}

/* Read rows r0 .. r0 + n of every dataset into its block (row r0 itself
 * is already there, carried from the block before, unless r0 is 0). */
static int
read_block(struct archiver *a, struct tokio_lmtdb_stamps *stamps, size_t r0,
           size_t n, int64_t end_pp)
{
    int64_t from = a->start + (int64_t)(r0 > 0 ? r0 + 1 : 0) * a->timestep;
    int64_t to = a->start + (int64_t)(r0 + n + 1) * a->timestep;
    int rc;

    if (to > end_pp)
        to = end_pp;
    a->r0 = r0;
    a->n = n;
    for (size_t i = 0; i < N_SOURCES; i++) {
        a->src = tables[i].src;
        a->kind = tables[i].kind;
        if ((rc = tokio_lmtdb_stream_stamps(a->lmt, stamps, tables[i].table,
                                            from, to, take_row, a)) < 0)
            return rc;
    }
    return TOKIO_OK;
}

/* Write rows r0 .. r0 + n - 1 from the blocks, then carry row n (its
 * counters as read) to row 0 and blank the others. */
static int
write_block(struct archiver *a, size_t r0, size_t n)
{
    int rc;

    for (size_t i = 0; i < N_DATASETS; i++) {
        struct dataset *d = &a->sets[i];
        double *b = d->block;

        if (d->deltas != NULL)
            tokio_timeseries_deltas_step(d->deltas, b, n + 1);
        if ((rc = tokio_hdf5_rows_write(d->w, r0, b, n)) < 0)
            return rc;
        memcpy(b, b + n * d->cols, d->cols * sizeof(double));
        for (size_t c = d->cols; c < (n + 1) * d->cols; c++)
            b[c] = -0.0;
    }
    return TOKIO_OK;
}

/* Every block of the range in turn: the first up to row `first` (where
 * the datasets' HDF5 chunks begin), then `block` rows at a time. */
static int
archive_rows(struct archiver *a, struct tokio_lmtdb_stamps *stamps,
             size_t rows, size_t block, size_t first, int64_t end_pp)
{
    size_t n;
    int rc = TOKIO_OK;

    for (size_t r0 = 0; rc >= 0 && r0 < rows; r0 += n) {
        n = r0 < first ? first - r0 : block;
        if (n > rows - r0)
            n = rows - r0;
        if ((rc = read_block(a, stamps, r0, n, end_pp)) >= 0)
            rc = write_block(a, r0, n);
    }
    return rc;
}

static void
archiver_free(struct archiver *a)
{
    for (size_t i = 0; i < N_DATASETS; i++) {
        struct dataset *d = &a->sets[i];

        tokio_timeseries_free(d->ts);
        tokio_timeseries_deltas_free(d->deltas);
        free(d->block);
        free(d->col_of);
    }
    for (size_t k = 0; k < N_KINDS; k++)
        free(a->index_of[k]);
    free(a);
}

int
tokio_archive_lmtdb(struct tokio_lmtdb *lmt, const char *output,
                    const struct tokio_archive_range *r)
{
    struct tokio_hdf5_update *u = NULL;
    struct tokio_lmtdb_stamps *stamps = NULL;
    struct archiver *a;
    size_t rows, block = 0, first = 0;
    int64_t end_pp;
    int rc;

    if (lmt == NULL || output == NULL || r == NULL)
        return tokio__error(TOKIO_EINVAL, "tokio_archive_lmtdb: no %s",
                            lmt == NULL ? "database" : output == NULL
                            ? "output" : "range");
    if ((rc = tokio_hdf5_check_range(r, output)) < 0)
        return rc;
    rows = (size_t)tokio_hdf5_rows(r->start, r->end, r->timestep);
    /* the query reads one timestep more */
    end_pp = r->end + r->timestep;
    if ((a = tokio__calloc(1, sizeof(*a))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory archiving '%s'",
                            output);
    a->lmt = lmt;
    a->output = output;
    a->start = r->start;
    a->timestep = r->timestep;
    for (size_t i = 0; i < N_DATASETS; i++) {
        enum source src = specs[i].src;

        a->sets[i].spec = &specs[i];
        if (src != SRC_MDS_OPS)
            a->of_src[src][a->n_of_src[src]++] = &a->sets[i];
    }
    /* MDS operations: OPERATION_ID -> dataset, from OPERATION_INFO */
    for (int64_t id = 0; id < MAX_OP_ID; id++)
        a->by_op[id] = op_dataset(a, id);

    if ((rc = make_series(a)) >= 0 &&
        (rc = tokio_hdf5_update_begin(&u, output)) >= 0) {
        if ((rc = begin_datasets(a, u, r, rows, &block, &first)) >= 0 &&
            (rc = tokio_lmtdb_stamps_read(lmt, r->start, end_pp,
                                          &stamps)) >= 0)
            rc = archive_rows(a, stamps, rows, block, first, end_pp);
        for (size_t i = 0; i < N_DATASETS; i++) {
            int end_rc = tokio_hdf5_rows_end(a->sets[i].w);

            if (end_rc < 0 && rc >= 0)
                rc = end_rc;
        }
        if (rc < 0)
            tokio_hdf5_update_abort(u);
        else
            rc = tokio_hdf5_update_finish(u);
    }
    tokio_lmtdb_stamps_free(stamps);
    archiver_free(a);
    return rc;
}
