/*
 * src/cli/archive-lmtdb.c - `tokio archive-lmtdb`: LMT database (server or
 * SQLite cache) -> TOKIO Time Series HDF5 (the reference's archive_lmtdb).
 *
 * OST bytes read and written, fullness and inodes, OSS and MDS CPU and
 * memory load, and every metadata operation of MDS_OPS_DATA demultiplexed
 * by OPERATION_ID (no JOIN).  The query runs one timestep past the end so
 * counters can become per-timestep deltas (left-aligned, resets masked as
 * -0.0 by the TimeSeries layer); the other datasets lose that extra row.
 * Rows are streamed from the database straight into the series, whose
 * size is that of the output, not of the query.
 *
 * The HDF5 file is updated all or nothing: missing datasets are first
 * created empty over --init-start..--init-end, then each series is
 * committed into place.
 *
 * Differs from pytokio: the password comes from PYTOKIO_LMT_PASSWORD only;
 * rows of an OST, OSS or MDS id missing from the *_INFO tables are skipped
 * (the reference raised KeyError for all but MDS operations); no
 * "Initialized"/"Writing out" chatter; --port is an addition.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    struct tokio_timeseries *ts;
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

static struct dataset datasets[] = {
    { "datatargets/readbytes", "bytes", 1, SRC_OST, OST_READ_BYTES, NULL,
      NULL },
    { "datatargets/writebytes", "bytes", 1, SRC_OST, OST_WRITE_BYTES, NULL,
      NULL },
    { "fullness/bytes", "KiB", 0, SRC_OST, OST_KBYTES_USED, NULL, NULL },
    { "fullness/bytestotal", "KiB", 0, SRC_OST, SUM_KBYTES, NULL, NULL },
    { "fullness/inodes", "inodes", 0, SRC_OST, OST_INODES_USED, NULL, NULL },
    { "fullness/inodestotal", "inodes", 0, SRC_OST, SUM_INODES, NULL, NULL },
    { "dataservers/cpuload", "%", 0, SRC_OSS, OSS_PCT_CPU, NULL, NULL },
    { "dataservers/memused", "%", 0, SRC_OSS, OSS_PCT_MEMORY, NULL, NULL },
    { "mdservers/cpuload", "%", 0, SRC_MDS, MDS_PCT_CPU, NULL, NULL },
    { "mdtargets/opens", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "open", NULL },
    { "mdtargets/closes", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "close", NULL },
    { "mdtargets/mknods", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "mknod", NULL },
    { "mdtargets/links", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "link", NULL },
    { "mdtargets/unlinks", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "unlink",
      NULL },
    { "mdtargets/mkdirs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "mkdir", NULL },
    { "mdtargets/rmdirs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "rmdir", NULL },
    { "mdtargets/renames", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "rename",
      NULL },
    { "mdtargets/getxattrs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "getxattr",
      NULL },
    { "mdtargets/statfss", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "statfs",
      NULL },
    { "mdtargets/setattrs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "setattr",
      NULL },
    { "mdtargets/getattrs", "ops", 1, SRC_MDS_OPS, OPS_SAMPLES, "getattr",
      NULL },
};
#define N_DATASETS (sizeof(datasets) / sizeof(datasets[0]))
/* OPERATION_IDs looked up once; larger ones are looked up per row */
#define MAX_OP_ID 1024

/*
 * id -> column of the series, cached as ids arrive: a direct table for
 * the small ids LMT hands out (0: not looked up yet, else column + 2, so
 * 1 means "no such column"), a list for any others.
 */
#define DIRECT_IDS 65536
struct colcache {
    int32_t *direct;
    int64_t *ids;
    long *cols;
    size_t n;
};

/* What the row callbacks share while one table streams in. */
struct archiver {
    struct tokio_lmtdb *lmt;
    enum source src;
    int64_t start, end, timestep;
    size_t rows;                    /* of every series */
    enum tokio_lmtdb_kind kind;     /* whose id is in column 1 */
    struct colcache cache;
    struct dataset *by_op[MAX_OP_ID]; /* SRC_MDS_OPS: OPERATION_ID -> set */
    int oom;
};

static long
lookup_column(struct archiver *a, int64_t id, struct tokio_timeseries *ts)
{
    const char *name = tokio_lmtdb_name_of(a->lmt, a->kind, id);

    return name ? tokio_timeseries_column_index(ts, name) : -1;
}

/* Column of `id` in `ts` (-1: none), -3 when out of memory. */
static long
column_of(struct archiver *a, int64_t id, struct tokio_timeseries *ts)
{
    struct colcache *c = &a->cache;
    long col;

    if (id >= 0 && id < DIRECT_IDS) {
        if (c->direct == NULL &&
            (c->direct = calloc(DIRECT_IDS, sizeof(*c->direct))) == NULL)
            return -3;
        if (c->direct[id] == 0)
            c->direct[id] = (int32_t)(lookup_column(a, id, ts) + 2);
        return c->direct[id] - 2;
    }
    for (size_t i = 0; i < c->n; i++)
        if (c->ids[i] == id)
            return c->cols[i];
    col = lookup_column(a, id, ts);
    int64_t *ids = realloc(c->ids, (c->n + 1) * sizeof(*ids));
    if (ids == NULL)
        return -3;
    c->ids = ids;
    long *cols = realloc(c->cols, (c->n + 1) * sizeof(*cols));
    if (cols == NULL)
        return -3;
    c->cols = cols;
    c->ids[c->n] = id;
    c->cols[c->n++] = col;
    return col;
}

static void
colcache_clear(struct colcache *c)
{
    free(c->direct);
    free(c->ids);
    free(c->cols);
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
store(struct dataset *d, size_t row, long col, double value)
{
    size_t cols = tokio_timeseries_cols(d->ts);

    tokio_timeseries_data(d->ts)[row * cols + (size_t)col] = value;
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
    long col;

    if (n < 4 || v[ID_COL].type != TOKIO_DB_INT)
        return 0;
    /* the reference's get_insert_pos(), align='l' */
    if (t < a->start)
        return 0;
    row = (size_t)((t - a->start) / a->timestep);
    if (row >= a->rows)
        return 0;

    if (a->src == SRC_MDS_OPS) {
        struct dataset *d;

        int64_t op = v[OPS_OPERATION_ID].i;

        if (v[OPS_OPERATION_ID].type != TOKIO_DB_INT)
            return 0;
        d = op >= 0 && op < MAX_OP_ID ? a->by_op[op] : op_dataset(a->lmt, op);
        if (d == NULL)
            return 0;
        double x;
        if ((col = column_of(a, v[ID_COL].i, d->ts)) == -3) {
            a->oom = 1;
            return TOKIO_ENOMEM;
        }
        if (col >= 0 && n > OPS_SAMPLES && as_double(&v[OPS_SAMPLES], &x) == 0)
            store(d, row, col, x);
        return 0;
    }
    col = -1;
    for (size_t i = 0; i < N_DATASETS; i++) {
        struct dataset *d = &datasets[i];
        double x, y;

        if (d->src != a->src || d->ts == NULL)
            continue;
        if (col == -1 && (col = column_of(a, v[ID_COL].i, d->ts)) == -3) {
            a->oom = 1;
            return TOKIO_ENOMEM;
        }
        if (col < 0)
            return 0;
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
                store(d, row, col, x + y);
            }
        } else if ((size_t)d->col < n && as_double(&v[d->col], &x) == 0) {
            store(d, row, col, x);
        }
    }
    return 0;
}

static int
archive_table(struct archiver *a, enum source src, const char *table,
              enum tokio_lmtdb_kind kind, int64_t start, int64_t end_pp)
{
    colcache_clear(&a->cache);
    a->src = src;
    a->kind = kind;
    return tokio_lmtdb_stream(a->lmt, table, start, end_pp, take_row, a);
}

static int
make_series(struct tokio_lmtdb *lmt, int64_t start, int64_t end_pp,
            int64_t timestep)
{
    for (size_t i = 0; i < N_DATASETS; i++) {
        struct dataset *d = &datasets[i];
        enum tokio_lmtdb_kind kind = d->src == SRC_OST ? TOKIO_LMTDB_OST
                                   : d->src == SRC_OSS ? TOKIO_LMTDB_OSS
                                   : TOKIO_LMTDB_MDS;
        size_t n;
        const char *const *names = tokio_lmtdb_names(lmt, kind, &n);
        char path[64];
        int rc;

        snprintf(path, sizeof(path), "/%s", d->name);
        if ((rc = tokio_timeseries_new(&d->ts, path, start, end_pp, timestep,
                                       n, names, n)) < 0)
            return rc;
    }
    return 0;
}

static int
finalize(int *oom)
{
    for (size_t i = 0; i < N_DATASETS; i++) {
        struct dataset *d = &datasets[i];
        json_t *meta = tokio_timeseries_dataset_metadata(d->ts);
        int rc = d->delta ? tokio_timeseries_convert_to_deltas(d->ts,
                                                               TOKIO_TS_LEFT)
                          : tokio_timeseries_trim_rows(d->ts, 1);

        if (rc < 0)
            return rc;
        if (json_object_set_new(meta, "version", json_string(SCHEMA_VERSION))
            || json_object_set_new(meta, "units", json_string(d->units)) ||
            json_object_set_new(tokio_timeseries_group_metadata(d->ts),
                                "source", json_string("lmt"))) {
            *oom = 1;
            return TOKIO_ENOMEM;
        }
    }
    return 0;
}

static int
write_file(const char *output, int64_t init_start, int64_t init_end,
           int64_t timestep)
{
    struct tokio_hdf5_update *u = NULL;
    int rc;

    if ((rc = tokio_hdf5_update_begin(&u, output)) < 0)
        return rc;
    rc = tokio_hdf5_update_set_version(u, SCHEMA_VERSION);
    for (size_t i = 0; rc >= 0 && i < N_DATASETS; i++)
        rc = tokio_hdf5_update_init_dataset(
            u, tokio_timeseries_dataset_name(datasets[i].ts), init_start,
            init_end, timestep, tokio_timeseries_cols(datasets[i].ts));
    for (size_t i = 0; rc >= 0 && i < N_DATASETS; i++)
        rc = tokio_hdf5_update_commit(u, datasets[i].ts);
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
    struct archiver a;
    int64_t start, end, init_start, init_end;
    int npos, rc;

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
    if (host)
        remote.host = host;
    if (user)
        remote.user = user;
    if (database)
        remote.database = database;
    if (port)
        remote.port = (unsigned)port;

    if (tokio_lmtdb_open(&lmt, input, &remote) < 0)
        return cli_fail(cmd, NULL);
    int64_t end_pp = end + timestep;
    memset(&a, 0, sizeof(a));
    a.lmt = lmt;
    a.start = start;
    a.end = end_pp;
    a.timestep = timestep;
    rc = make_series(lmt, start, end_pp, timestep);
    if (rc >= 0) {
        a.rows = tokio_timeseries_rows(datasets[0].ts);
        /* MDS operations: OPERATION_ID -> dataset, from OPERATION_INFO */
        for (int64_t id = 0; id < MAX_OP_ID; id++)
            a.by_op[id] = op_dataset(lmt, id);
        rc = archive_table(&a, SRC_OST, "OST_DATA", TOKIO_LMTDB_OST, start,
                           end_pp);
    }
    if (rc >= 0)
        rc = archive_table(&a, SRC_OSS, "OSS_DATA", TOKIO_LMTDB_OSS, start,
                           end_pp);
    if (rc >= 0)
        rc = archive_table(&a, SRC_MDS, "MDS_DATA", TOKIO_LMTDB_MDS, start,
                           end_pp);
    if (rc >= 0)
        rc = archive_table(&a, SRC_MDS_OPS, "MDS_OPS_DATA", TOKIO_LMTDB_MDS,
                           start, end_pp);
    if (rc >= 0)
        rc = finalize(&a.oom);
    if (rc >= 0)
        rc = write_file(output, init_start, init_end, timestep);
    if (rc < 0 && a.oom)
        rc = cli_fail(cmd, "out of memory archiving '%s'", output);
    else if (rc < 0)
        rc = cli_fail(cmd, NULL);
    else
        rc = CLI_EXIT_OK;
    colcache_clear(&a.cache);
    for (size_t i = 0; i < N_DATASETS; i++) {
        tokio_timeseries_free(datasets[i].ts);
        datasets[i].ts = NULL;
    }
    tokio_lmtdb_free(lmt);
    return rc;
}
