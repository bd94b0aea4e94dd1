/*
 * src/cli/archive-lmtdb.c - `tokio archive-lmtdb`: LMT database (server or
 * SQLite cache) -> TOKIO Time Series HDF5 (the reference's archive_lmtdb).
 *
 * OST bytes read and written, fullness and inodes, OSS and MDS CPU and
 * memory load, and every metadata operation of MDS_OPS_DATA demultiplexed
 * by OPERATION_ID (no JOIN).  The query runs one timestep past the end so
 * counters can become per-timestep deltas (left-aligned, resets masked as
 * -0.0 by the TimeSeries layer); the other datasets lose that extra row.
 *
 * The range goes block by block, each a whole number of the datasets'
 * HDF5 chunks of rows: each table is queried over the block's TS_IDs,
 * its rows go straight into a block of every dataset, the counters become
 * deltas (the last row of a block, kept as it is, starts the next one)
 * and the block is written into place.  Memory is that of two blocks, not
 * of the range or the query; each chunk is compressed once.  A second
 * thread runs the queries of the next block while this one converts and
 * writes (and HDF5 compresses) the last: this thread alone calls HDF5,
 * the other alone the database.
 *
 * The HDF5 file is updated all or nothing: missing datasets are first
 * created empty over --init-start..--init-end, then the blocks are
 * committed into place.
 *
 * Differs from pytokio: the password comes from PYTOKIO_LMT_PASSWORD only;
 * rows of an OST, OSS or MDS id missing from the *_INFO tables are skipped
 * (the reference raised KeyError for all but MDS operations); no
 * "Initialized"/"Writing out" chatter; --port is an addition.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>     /* mallopt() */
#endif

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/connectors/lmtdb.h"
#include "tokio/time.h"
#include "tokio/timeseries.h"

#define SCHEMA_VERSION "1"

static const char *const usage[] = {
    "tokio archive-lmtdb [-i <cache-file>] [-o <file>] [--init-start <time>] "
    "[--init-end <time>] [--timestep <s>] [--host <host>] [--user <user>] "
    "[--database <db>] [--port <port>] <start> <end>",
    NULL
};

static const char description[] =
    "Archive the LMT data of <start>..<end> (YYYY-MM-DDTHH:MM:SS, local\n"
    "time) into the TOKIO Time Series HDF5 file -o (default output.hdf5),\n"
    "creating it, or its missing datasets, over --init-start..--init-end.\n"
    "The data come from the SQLite cache given with -i, else from the MySQL\n"
    "server named by the options or PYTOKIO_LMT_HOST, PYTOKIO_LMT_USER,\n"
    "PYTOKIO_LMT_DB and PYTOKIO_LMT_PORT (password: PYTOKIO_LMT_PASSWORD).";

/* The datasets, in the reference's order; `col` is the row index of the
 * value in its table's query row, or a SUM_* for the totals. */
enum source { SRC_OST, SRC_OSS, SRC_MDS, SRC_MDS_OPS };
#define SUM_KBYTES (-1)
#define SUM_INODES (-2)

struct dataset {
    const char *name;
    const char *units;
    int delta;
    enum source src;
    int col;                /* value column in the row, or SUM_* */
    const char *opname;     /* SRC_MDS_OPS: OPERATION_NAME */
    struct tokio_timeseries *ts;    /* names and metadata; no cells */
    struct tokio_hdf5_rows *w;      /* the dataset being written */
    double *block[2];       /* rows r0 .. r0 + n of the range, two blocks
                               (one being read while the other is written) */
    double *carry;          /* the last row read, first of the next block */
    size_t cols;
    long *col_of;           /* database-order name index -> column */
    struct tokio_ts_deltas *deltas;
};

/* Row layouts: LMTDB_TABLES' columns (see lmtdb.c); the id comes first. */
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

#define DS(n_, u_, d_, s_, c_, o_) \
    { .name = n_, .units = u_, .delta = d_, .src = s_, .col = c_, \
      .opname = o_ }
static struct dataset datasets[] = {
    DS("datatargets/readbytes", "bytes", 1, SRC_OST, OST_READ_BYTES, NULL),
    DS("datatargets/writebytes", "bytes", 1, SRC_OST, OST_WRITE_BYTES, NULL),
    DS("fullness/bytes", "KiB", 0, SRC_OST, OST_KBYTES_USED, NULL),
    DS("fullness/bytestotal", "KiB", 0, SRC_OST, SUM_KBYTES, NULL),
    DS("fullness/inodes", "inodes", 0, SRC_OST, OST_INODES_USED, NULL),
    DS("fullness/inodestotal", "inodes", 0, SRC_OST, SUM_INODES, NULL),
    DS("dataservers/cpuload", "%", 0, SRC_OSS, OSS_PCT_CPU, NULL),
    DS("dataservers/memused", "%", 0, SRC_OSS, OSS_PCT_MEMORY, NULL),
    DS("mdservers/cpuload", "%", 0, SRC_MDS, MDS_PCT_CPU, NULL),
    DS("mdtargets/opens", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "open"),
    DS("mdtargets/closes", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "close"),
    DS("mdtargets/mknods", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "mknod"),
    DS("mdtargets/links", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "link"),
    DS("mdtargets/unlinks", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "unlink"),
    DS("mdtargets/mkdirs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "mkdir"),
    DS("mdtargets/rmdirs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "rmdir"),
    DS("mdtargets/renames", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "rename"),
    DS("mdtargets/getxattrs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "getxattr"),
    DS("mdtargets/statfss", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "statfs"),
    DS("mdtargets/setattrs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "setattr"),
    DS("mdtargets/getattrs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "getattr"),
};
#define N_DATASETS (sizeof(datasets) / sizeof(datasets[0]))
/* OPERATION_IDs looked up once; larger ones are looked up per row */
#define MAX_OP_ID 1024

/* Bytes of blocks (all datasets) to aim for: well inside 64 MiB. */
#define BLOCK_BYTES (8u << 20)

/*
 * id -> index of its name in the database's order, cached as ids arrive:
 * a direct table for the small ids LMT hands out (0: not looked up yet,
 * else index + 2, so 1 means "no such name"), a list for any others.
 */
#define DIRECT_IDS 65536
struct colcache {
    int32_t *direct;
    int64_t *ids;
    long *ks;
    size_t n;
};

#define N_KINDS 3   /* TOKIO_LMTDB_OST, _OSS, _MDS */

/* What the row callbacks share while one block streams in. */
struct archiver {
    struct tokio_lmtdb *lmt;
    enum source src;
    int64_t start, timestep;
    size_t r0, n;                   /* block: rows r0 .. r0 + n */
    int slot;                       /* of datasets[].block[] */
    enum tokio_lmtdb_kind kind;     /* whose id is in column 1 */
    struct colcache cache[N_KINDS];
    struct dataset *by_op[MAX_OP_ID]; /* SRC_MDS_OPS: OPERATION_ID -> set */
    struct dataset *of_src[SRC_MDS_OPS][N_DATASETS]; /* the others' sets */
    size_t n_of_src[SRC_MDS_OPS];
    int oom;
};

static long
lookup_name(struct archiver *a, int64_t id)
{
    const char *name = tokio_lmtdb_name_of(a->lmt, a->kind, id);
    const char *const *names;
    size_t n;

    names = tokio_lmtdb_names(a->lmt, a->kind, &n);
    for (size_t k = 0; name && k < n; k++)
        if (names[k] == name)
            return (long)k;
    return -1;
}

/* Name index of `id` (-1: none), -3 when out of memory. */
static long
name_of(struct archiver *a, int64_t id)
{
    struct colcache *c = &a->cache[a->kind];
    long k;

    if (id >= 0 && id < DIRECT_IDS) {
        if (c->direct == NULL &&
            (c->direct = calloc(DIRECT_IDS, sizeof(*c->direct))) == NULL)
            return -3;
        if (c->direct[id] == 0)
            c->direct[id] = (int32_t)(lookup_name(a, id) + 2);
        return c->direct[id] - 2;
    }
    for (size_t i = 0; i < c->n; i++)
        if (c->ids[i] == id)
            return c->ks[i];
    k = lookup_name(a, id);
    int64_t *ids = realloc(c->ids, (c->n + 1) * sizeof(*ids));
    if (ids == NULL)
        return -3;
    c->ids = ids;
    long *ks = realloc(c->ks, (c->n + 1) * sizeof(*ks));
    if (ks == NULL)
        return -3;
    c->ks = ks;
    c->ids[c->n] = id;
    c->ks[c->n++] = k;
    return k;
}

static void
colcache_clear(struct colcache *c)
{
    free(c->direct);
    free(c->ids);
    free(c->ks);
    memset(c, 0, sizeof(*c));
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
store(struct dataset *d, int a_slot, size_t row, long k, double value)
{
    long col = d->col_of[k];

    if (col >= 0)
        d->block[a_slot][row * d->cols + (size_t)col] = value;
}

/* The dataset of MDS operation `op` (the reference's opname_to_dataset). */
static struct dataset *
op_dataset(const struct tokio_lmtdb *lmt, int64_t op)
{
    const char *name = tokio_lmtdb_name_of(lmt, TOKIO_LMTDB_MDS_OP, op);

    for (size_t i = 0; name && i < N_DATASETS; i++)
        if (datasets[i].opname && strcmp(datasets[i].opname, name) == 0)
            return &datasets[i];
    return NULL;
}

static int
take_row(void *payload, int64_t t, const struct tokio_db_value *v, size_t n)
{
    struct archiver *a = payload;
    size_t row;
    long k;

    if (n < 4 || v[ID_COL].type != TOKIO_DB_INT)
        return 0;
    /* the reference's get_insert_pos(), align='l', within the block */
    if (t < a->start)
        return 0;
    row = (size_t)((t - a->start) / a->timestep);
    if (row < a->r0 || row - a->r0 > a->n)
        return 0;
    row -= a->r0;

    if (a->src == SRC_MDS_OPS) {
        struct dataset *d;

        int64_t op = v[OPS_OPERATION_ID].i;

        if (v[OPS_OPERATION_ID].type != TOKIO_DB_INT)
            return 0;
        d = op >= 0 && op < MAX_OP_ID ? a->by_op[op] : op_dataset(a->lmt, op);
        if (d == NULL)
            return 0;
        double x;
        if ((k = name_of(a, v[ID_COL].i)) == -3) {
            a->oom = 1;
            return TOKIO_ENOMEM;
        }
        if (k >= 0 && n > OPS_SAMPLES && as_double(&v[OPS_SAMPLES], &x) == 0)
            store(d, a->slot, row, k, x);
        return 0;
    }
    if ((k = name_of(a, v[ID_COL].i)) == -3) {
        a->oom = 1;
        return TOKIO_ENOMEM;
    }
    if (k < 0)
        return 0;
    for (size_t i = 0; i < a->n_of_src[a->src]; i++) {
        struct dataset *d = a->of_src[a->src][i];
        double x, y;

        if (d->col == SUM_KBYTES || d->col == SUM_INODES) {
            int u = d->col == SUM_KBYTES ? OST_KBYTES_USED : OST_INODES_USED;
            int f = d->col == SUM_KBYTES ? OST_KBYTES_FREE : OST_INODES_FREE;

            if ((size_t)u < n && (size_t)f < n && as_double(&v[u], &x) == 0 &&
                as_double(&v[f], &y) == 0) {
                int64_t sum;

                /* Python adds the ints exactly before the float store */
                if (v[u].type == TOKIO_DB_INT && v[f].type == TOKIO_DB_INT &&
                    !__builtin_add_overflow(v[u].i, v[f].i, &sum))
                    x = (double)sum, y = 0;
                store(d, a->slot, row, k, x + y);
            }
        } else if ((size_t)d->col < n && as_double(&v[d->col], &x) == 0) {
            store(d, a->slot, row, k, x);
        }
    }
    return 0;
}

static enum tokio_lmtdb_kind
kind_of(enum source src)
{
    return src == SRC_OST ? TOKIO_LMTDB_OST
         : src == SRC_OSS ? TOKIO_LMTDB_OSS : TOKIO_LMTDB_MDS;
}

/* The template of each dataset: its names and metadata, one row. */
static int
make_templates(struct tokio_lmtdb *lmt, int64_t start, int64_t timestep,
               int *oom)
{
    for (size_t i = 0; i < N_DATASETS; i++) {
        struct dataset *d = &datasets[i];
        size_t n;
        const char *const *names = tokio_lmtdb_names(lmt, kind_of(d->src),
                                                     &n);
        char path[64];
        json_t *meta;
        int rc;

        snprintf(path, sizeof(path), "/%s", d->name);
        if ((rc = tokio_timeseries_new(&d->ts, path, start, start + timestep,
                                       timestep, n, names, n)) < 0)
            return rc;
        meta = tokio_timeseries_dataset_metadata(d->ts);
        if (json_object_set_new(meta, "version", json_string(SCHEMA_VERSION))
            || json_object_set_new(meta, "units", json_string(d->units)) ||
            json_object_set_new(tokio_timeseries_group_metadata(d->ts),
                                "source", json_string("lmt"))) {
            *oom = 1;
            return TOKIO_ENOMEM;
        }
        d->cols = n;
    }
    return 0;
}

/* Create what is missing, begin every commit and size the blocks. */
static int
begin_datasets(struct tokio_hdf5_update *u, struct tokio_lmtdb *lmt,
               int64_t start, size_t rows, int64_t init_start,
               int64_t init_end, int64_t timestep, size_t *block_out,
               size_t *first_out, int *oom)
{
    size_t row_bytes = 0, chunk, block;
    int rc;

    if ((rc = tokio_hdf5_update_set_version(u, SCHEMA_VERSION)) < 0)
        return rc;
    for (size_t i = 0; i < N_DATASETS; i++)
        if ((rc = tokio_hdf5_update_init_dataset(
                 u, tokio_timeseries_dataset_name(datasets[i].ts), init_start,
                 init_end, timestep, datasets[i].cols)) < 0)
            return rc;
    for (size_t i = 0; i < N_DATASETS; i++) {
        struct dataset *d = &datasets[i];
        size_t n;
        const char *const *names = tokio_lmtdb_names(lmt, kind_of(d->src),
                                                     &n);

        if ((rc = tokio_hdf5_update_commit_begin(u, d->ts, start, rows,
                                                 &d->w)) < 0)
            return rc;
        /* commit may have put the columns in the file's order */
        if ((d->col_of = calloc(n + 1, sizeof(long))) == NULL) {
            *oom = 1;
            return TOKIO_ENOMEM;
        }
        for (size_t k = 0; k < n; k++)
            d->col_of[k] = tokio_timeseries_column_index(d->ts, names[k]);
        row_bytes += d->cols * sizeof(double);
    }
    /* whole chunks of rows of the largest datasets (the OSTs') */
    chunk = tokio_hdf5_rows_chunk(datasets[0].w, first_out);
    block = chunk * (BLOCK_BYTES / (row_bytes + 1) / chunk);
    if (block == 0)
        block = chunk;
    if (block * row_bytes > 2 * (size_t)BLOCK_BYTES) {
        /* chunks too tall to hold: smaller blocks, each chunk compressed
         * once all the same (it stays in HDF5's chunk cache) */
        block = BLOCK_BYTES / (row_bytes + 1);
        *first_out = 0;
    }
    *block_out = block ? block : 1;
    for (size_t i = 0; i < N_DATASETS; i++) {
        struct dataset *d = &datasets[i];
        size_t cells = (*block_out + 1) * d->cols;

        for (int b = 0; b < 2; b++) {
            if ((d->block[b] = malloc(cells * sizeof(double) + 1)) == NULL) {
                *oom = 1;
                return TOKIO_ENOMEM;
            }
            for (size_t c = 0; c < cells; c++)
                d->block[b][c] = -0.0;
        }
        if ((d->carry = malloc(d->cols * sizeof(double) + 1)) == NULL) {
            *oom = 1;
            return TOKIO_ENOMEM;
        }
        if (d->delta && (rc = tokio_timeseries_deltas_new(&d->deltas,
                                                          d->cols)) < 0)
            return rc;
    }
    return 0;
}

/* Read rows r0 .. r0 + n of every dataset into block `slot` (row r0
 * itself is carried over, unless r0 is 0) and keep row r0 + n to carry. */
static int
read_block(struct archiver *a, struct tokio_lmtdb_stamps *stamps, int slot,
           size_t r0, size_t n, int64_t end_pp)
{
    static const struct { enum source src; const char *table; } tables[] = {
        { SRC_OST, "OST_DATA" }, { SRC_OSS, "OSS_DATA" },
        { SRC_MDS, "MDS_DATA" }, { SRC_MDS_OPS, "MDS_OPS_DATA" },
    };
    int64_t from = a->start + (int64_t)(r0 ? r0 + 1 : 0) * a->timestep;
    int64_t to = a->start + (int64_t)(r0 + n + 1) * a->timestep;
    int rc;

    if (to > end_pp)
        to = end_pp;
    a->r0 = r0;
    a->n = n;
    a->slot = slot;
    for (size_t i = 0; r0 > 0 && i < N_DATASETS; i++)
        memcpy(datasets[i].block[slot], datasets[i].carry,
               datasets[i].cols * sizeof(double));
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
        a->src = tables[i].src;
        a->kind = kind_of(tables[i].src);
        if ((rc = tokio_lmtdb_stream_stamps(a->lmt, stamps, tables[i].table,
                                            from, to, take_row, a)) < 0)
            return rc;
    }
    for (size_t i = 0; i < N_DATASETS; i++)
        memcpy(datasets[i].carry, datasets[i].block[slot] + n * datasets[i].cols,
               datasets[i].cols * sizeof(double));
    return 0;
}

/* Write rows r0 .. r0 + n - 1 from block `slot`, then blank it. */
static int
write_block(int slot, size_t r0, size_t n)
{
    int rc;

    for (size_t i = 0; i < N_DATASETS; i++) {
        struct dataset *d = &datasets[i];
        double *b = d->block[slot];

        if (d->delta)
            tokio_timeseries_deltas_step(d->deltas, b, n + 1);
        if ((rc = tokio_hdf5_rows_write(d->w, r0, b, n)) < 0)
            return rc;
        for (size_t c = 0; c < (n + 1) * d->cols; c++)
            b[c] = -0.0;
    }
    return 0;
}

/*
 * Two threads share the work: a reader runs the queries and fills the
 * blocks in turn; this thread turns them into deltas and hands them to
 * HDF5 (which compresses), the only thread that calls it.  A block is
 * the reader's until marked full, then the writer's until marked free.
 */
struct pipeline {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int full[2];            /* the block holds rows r0[] .. r0[] + n[] */
    size_t r0[2], n[2];
    int stop;               /* the writer gave up */
    int rc;                 /* the reader's failure */
    char msg[1024];         /* ... and its message */
    struct archiver *a;
    struct tokio_lmtdb_stamps *stamps;
    size_t rows, block, first;
    int64_t end_pp;
};

/* Rows of the block starting at r0. */
static size_t
block_rows(const struct pipeline *p, size_t r0)
{
    size_t n = r0 < p->first ? p->first - r0 : p->block;

    return n > p->rows - r0 ? p->rows - r0 : n;
}

static void *
reader(void *arg)
{
    struct pipeline *p = arg;
    int k = 0, rc = 0;

    for (size_t r0 = 0; r0 < p->rows; r0 += block_rows(p, r0), k ^= 1) {
        pthread_mutex_lock(&p->mu);
        while (p->full[k] && !p->stop)
            pthread_cond_wait(&p->cv, &p->mu);
        pthread_mutex_unlock(&p->mu);
        if (p->stop)
            break;
        rc = read_block(p->a, p->stamps, k, r0, block_rows(p, r0),
                        p->end_pp);
        pthread_mutex_lock(&p->mu);
        if (rc < 0) {
            p->rc = rc;
            snprintf(p->msg, sizeof(p->msg), "%s", tokio_errmsg());
        } else {
            p->r0[k] = r0;
            p->n[k] = block_rows(p, r0);
            p->full[k] = 1;
        }
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        if (rc < 0)
            break;
    }
    return NULL;
}

static int
run_pipeline(struct pipeline *p, char *msg, size_t msg_size)
{
    pthread_t thread;
    int k = 0, rc = 0;

    if (pthread_mutex_init(&p->mu, NULL) != 0)
        return TOKIO_ENOMEM;
    if (pthread_cond_init(&p->cv, NULL) != 0) {
        pthread_mutex_destroy(&p->mu);
        return TOKIO_ENOMEM;
    }
    if (pthread_create(&thread, NULL, reader, p) != 0) {
        /* no second thread: read each block before writing it */
        for (size_t r0 = 0; rc >= 0 && r0 < p->rows; r0 += p->n[0]) {
            p->n[0] = block_rows(p, r0);
            if ((rc = read_block(p->a, p->stamps, 0, r0, p->n[0],
                                 p->end_pp)) >= 0)
                rc = write_block(0, r0, p->n[0]);
        }
    } else {
        for (size_t r0 = 0; rc >= 0 && r0 < p->rows; k ^= 1) {
            pthread_mutex_lock(&p->mu);
            while (!p->full[k] && p->rc == 0)
                pthread_cond_wait(&p->cv, &p->mu);
            if (!p->full[k]) {      /* the reader failed */
                rc = p->rc;
                snprintf(msg, msg_size, "%s", p->msg);
            }
            pthread_mutex_unlock(&p->mu);
            if (rc < 0)
                break;
            rc = write_block(k, p->r0[k], p->n[k]);
            r0 = p->r0[k] + p->n[k];
            pthread_mutex_lock(&p->mu);
            p->full[k] = 0;
            pthread_cond_broadcast(&p->cv);
            pthread_mutex_unlock(&p->mu);
        }
        pthread_mutex_lock(&p->mu);
        p->stop = 1;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        pthread_join(thread, NULL);
    }
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    return rc;
}

static int
archive(struct tokio_lmtdb *lmt, const char *output, int64_t start,
        int64_t end_pp, int64_t init_start, int64_t init_end,
        int64_t timestep, int *oom, char *msg, size_t msg_size)
{
    struct tokio_hdf5_update *u = NULL;
    struct pipeline p;
    struct archiver a;
    int rc;

#if defined(__GLIBC__) && defined(M_TRIM_THRESHOLD)
    /* HDF5's deflate filter allocates and frees zlib's state (~270 KiB)
     * for every chunk: keep freed memory for the next one instead of
     * handing it back to the kernel and faulting it in again */
    mallopt(M_TRIM_THRESHOLD, 32 << 20);
#endif
    memset(&a, 0, sizeof(a));
    memset(&p, 0, sizeof(p));
    a.lmt = lmt;
    a.start = start;
    a.timestep = timestep;
    p.a = &a;
    p.end_pp = end_pp;
    /* MDS operations: OPERATION_ID -> dataset, from OPERATION_INFO */
    for (int64_t id = 0; id < MAX_OP_ID; id++)
        a.by_op[id] = op_dataset(lmt, id);
    for (size_t i = 0; i < N_DATASETS; i++)
        if (datasets[i].src != SRC_MDS_OPS)
            a.of_src[datasets[i].src][a.n_of_src[datasets[i].src]++] =
                &datasets[i];
    /* the rows of the range, less the one past the end */
    p.rows = (size_t)(((uint64_t)end_pp - (uint64_t)start) / (uint64_t)timestep
                      + (((uint64_t)end_pp - (uint64_t)start)
                         % (uint64_t)timestep != 0)) - 1;
    if ((rc = make_templates(lmt, start, timestep, oom)) < 0)
        return rc;
    if ((rc = tokio_hdf5_update_begin(&u, output)) < 0)
        return rc;
    if ((rc = begin_datasets(u, lmt, start, p.rows, init_start, init_end,
                             timestep, &p.block, &p.first, oom)) >= 0)
        rc = tokio_lmtdb_stamps_read(lmt, start, end_pp, &p.stamps);
    if (rc >= 0)
        rc = run_pipeline(&p, msg, msg_size);
    for (size_t i = 0; i < N_DATASETS; i++) {
        int end_rc = tokio_hdf5_rows_end(datasets[i].w);

        datasets[i].w = NULL;
        if (end_rc < 0 && rc >= 0)
            rc = end_rc;
    }
    tokio_lmtdb_stamps_free(p.stamps);
    for (size_t k = 0; k < N_KINDS; k++)
        colcache_clear(&a.cache[k]);
    if (a.oom) {
        *oom = 1;
        msg[0] = '\0';
    }
    if (rc < 0) {
        tokio_hdf5_update_abort(u);
        return rc;
    }
    return tokio_hdf5_update_finish(u);
}

static int
parse_time(const char *cmd, const char *text, int64_t *out)
{
    if (tokio_time_parse_format(text, "%Y-%m-%dT%H:%M:%S", out) < 0) {
        cli_usage_error(cmd, "'%s': times must be YYYY-MM-DDTHH:MM:SS", text);
        return -1;
    }
    return 0;
}

int
cmd_archive_lmtdb(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *input = NULL, *output = "output.hdf5", *host = NULL;
    const char *user = NULL, *database = NULL, *password = NULL;
    const char *init_start_s = NULL, *init_end_s = NULL;
    long long timestep = 5, port = 0;
    int debug = 0;
    const struct cli_option opts[] = {
        OPT_STRING('i', "input", &input, "<cache-file>",
                   "read this SQLite cache instead of a server"),
        OPT_STRING('o', "output", &output, "<file>",
                   "the HDF5 file to create or update (default output.hdf5)"),
        OPT_STRING(0, "init-start", &init_start_s, "<time>",
                   "first timestamp of a new file (default: <start>)"),
        OPT_STRING(0, "init-end", &init_end_s, "<time>",
                   "end (exclusive) of a new file (default: <end>)"),
        OPT_INT(0, "timestep", &timestep, "<s>",
                "collection frequency in seconds (default 5)"),
        OPT_FLAG(0, "debug", &debug, "accepted for compatibility"),
        OPT_STRING(0, "host", &host, "<host>", "database host name"),
        OPT_STRING(0, "user", &user, "<user>", "database user"),
        OPT_STRING(0, "database", &database, "<db>", "database name"),
        OPT_INT(0, "port", &port, "<port>", "database port (default 3306)"),
        OPT_STRING(0, "password", &password, "<password>",
                   "refused: set PYTOKIO_LMT_PASSWORD instead"),
        OPT_END
    };
    struct tokio_db_remote remote;
    struct tokio_lmtdb *lmt = NULL;
    int64_t start, end, init_start, init_end;
    int npos, rc, oom = 0;
    char msg[1024] = "";

    (void)debug;
    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (password != NULL)
        return cli_usage_error(cmd, "a password on the command line is "
                               "visible to every user; set "
                               "PYTOKIO_LMT_PASSWORD instead");
    if (npos != 2)
        return cli_usage_error(cmd, "expected <start> <end>");
    if (parse_time(cmd, argv[1], &start) < 0 ||
        parse_time(cmd, argv[2], &end) < 0)
        return CLI_EXIT_USAGE;
    init_start = start;
    init_end = end;
    if ((init_start_s && parse_time(cmd, init_start_s, &init_start) < 0) ||
        (init_end_s && parse_time(cmd, init_end_s, &init_end) < 0))
        return CLI_EXIT_USAGE;
    if (start >= end)
        return cli_usage_error(cmd, "<start> must come before <end>");
    if (init_start >= init_end)
        return cli_usage_error(cmd, "--init-start must come before "
                               "--init-end");
    if (timestep < 1 || timestep > 86400 * 366)
        return cli_usage_error(cmd, "--timestep must be > 0");
    if (port < 0 || port > 65535)
        return cli_usage_error(cmd, "--port must be a port number");
    if (tokio_cachingdb_remote_from_env(&remote, TOKIO_LMTDB_ENV_PREFIX) < 0)
        return cli_fail(cmd, NULL);
    tokio_cachingdb_remote_override(&remote, &(struct tokio_db_remote){
        .host = host, .user = user, .database = database,
        .port = (unsigned)port });

    if (tokio_lmtdb_open(&lmt, input, &remote) < 0)
        return cli_fail(cmd, NULL);
    rc = archive(lmt, output, start, end + timestep, init_start, init_end,
                 timestep, &oom, msg, sizeof(msg));
    if (rc < 0 && oom)
        rc = cli_fail(cmd, "out of memory archiving '%s'", output);
    else if (rc < 0 && msg[0])
        rc = cli_fail(cmd, "%s", msg);
    else if (rc < 0)
        rc = cli_fail(cmd, NULL);
    else
        rc = CLI_EXIT_OK;
    for (size_t i = 0; i < N_DATASETS; i++) {
        struct dataset *d = &datasets[i];

        tokio_timeseries_free(d->ts);
        tokio_timeseries_deltas_free(d->deltas);
        free(d->block[0]);
        free(d->block[1]);
        free(d->carry);
        free(d->col_of);
        d->ts = NULL;
        d->deltas = NULL;
        d->block[0] = d->block[1] = d->carry = NULL;
        d->col_of = NULL;
    }
    tokio_lmtdb_free(lmt);
    return rc;
}
