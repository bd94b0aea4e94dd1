/*
 * src/connectors/lmtdb.c - the Lustre Monitoring Tool database (LMT 3
 * schema: OST_DATA, OSS_DATA, MDS_DATA, MDS_OPS_DATA keyed by TS_ID into
 * TIMESTAMP_INFO, and the *_INFO name tables) over a MySQL/MariaDB server
 * or an SQLite cache.  Mirrors tokio.connectors.lmtdb.LmtDb and the
 * retrieve_tables() of tokio.cli.cache_lmtdb (pytokio 0.13).
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/snx11025_2018-01-28.sqlite3
 * and lmtdb-reset.sqlite3; goldens in golden/pytokio/{lmtdb,cache_lmtdb}/.
 *
 * Differs from pytokio: an empty time range is TOKIO_ENOTFOUND with a
 * message (the reference raised ValueError from min()); the ids in
 * cache_lmtdb's range query are bound parameters, not pasted text.
 */
#include "tokio/connectors/lmtdb.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "tokio/time.h"

/* Seconds per query chunk in the reference's wrappers (timedelta(hours=1)) */
#define DEFAULT_TIMECHUNK 3600

/*
 * LMTDB_TABLES of the reference, in its order, with its schema text kept
 * verbatim: its FILESYSTEM_INFO list lacks a comma, so two names arrive
 * joined as "FILESYSTEM_MOUNT_NAME,SCHEMA_VERSION" (which SQL still reads
 * as two columns, and which its cache files carry).
 */
#define COLS(...) (const char *const[]){ __VA_ARGS__ }
#define N(...) (sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *))
#define TABLE(name, cols, pk) \
    { name, COLS cols, N cols, COLS pk, N pk }

static const struct tokio_db_table lmt_tables[] = {
    TABLE("FILESYSTEM_INFO", ("FILESYSTEM_ID", "FILESYSTEM_NAME",
          "FILESYSTEM_MOUNT_NAME,SCHEMA_VERSION"), ("FILESYSTEM_ID")),
    TABLE("MDS_DATA", ("MDS_ID", "TS_ID", "PCT_CPU", "KBYTES_FREE",
          "KBYTES_USED", "INODES_FREE", "INODES_USED"), ("MDS_ID", "TS_ID")),
    TABLE("MDS_INFO", ("MDS_ID", "FILESYSTEM_ID", "MDS_NAME", "HOSTNAME",
          "DEVICE_NAME"), ("MDS_ID")),
    TABLE("MDS_OPS_DATA", ("MDS_ID", "TS_ID", "OPERATION_ID", "SAMPLES",
          "SUM", "SUMSQUARES"), ("MDS_ID", "TS_ID", "OPERATION_ID")),
    TABLE("MDS_VARIABLE_INFO", ("VARIABLE_ID", "VARIABLE_NAME",
          "VARIABLE_LABEL", "THRESH_TYPE", "THRESH_VAL1", "THRESH_VAL2"),
          ("VARIABLE_ID")),
    TABLE("OPERATION_INFO", ("OPERATION_ID", "OPERATION_NAME", "UNITS"),
          ("OPERATION_ID")),
    TABLE("OSS_DATA", ("OSS_ID", "TS_ID", "PCT_CPU", "PCT_MEMORY"),
          ("OSS_ID", "TS_ID")),
    TABLE("OSS_INFO", ("OSS_ID", "FILESYSTEM_ID", "HOSTNAME",
          "FAILOVERHOST"), ("OSS_ID", "HOSTNAME")),
    TABLE("OST_DATA", ("OST_ID", "TS_ID", "READ_BYTES", "WRITE_BYTES",
          "PCT_CPU", "KBYTES_FREE", "KBYTES_USED", "INODES_FREE",
          "INODES_USED"), ("OST_ID", "TS_ID")),
    TABLE("OST_INFO", ("OST_ID", "OSS_ID", "OST_NAME", "HOSTNAME", "OFFLINE",
          "DEVICE_NAME"), ("OST_ID")),
    TABLE("OST_VARIABLE_INFO", ("VARIABLE_ID", "VARIABLE_NAME",
          "VARIABLE_LABEL", "THRESH_TYPE", "THRESH_VAL1", "THRESH_VAL2"),
          ("VARIABLE_ID")),
    TABLE("TIMESTAMP_INFO", ("TS_ID", "TIMESTAMP"), ("TS_ID")),
};
#define N_TABLES (sizeof(lmt_tables) / sizeof(lmt_tables[0]))

/* The queries the reference runs when it connects, one per kind. */
static const char *const name_queries[] = {
    "SELECT OST_ID, OST_NAME FROM OST_INFO",
    "SELECT OSS_ID, HOSTNAME FROM OSS_INFO",
    "SELECT MDS_ID, HOSTNAME FROM MDS_INFO",
    "SELECT OPERATION_ID, OPERATION_NAME FROM OPERATION_INFO",
};
#define N_KINDS 4

struct id_entry {
    int64_t id;
    size_t index;       /* into names; the last of equal ids wins */
};

struct name_map {
    char **names;
    struct id_entry *ids;   /* sorted by id, then index */
    size_t n;
};

struct tokio_lmtdb {
    struct tokio_cachingdb *db;
    struct name_map maps[N_KINDS];
};

static int
add_name(void *payload, const struct tokio_db_value *row, size_t n)
{
    struct name_map *m = payload;
    char **names;
    struct id_entry *ids;
    char text[64];
    const char *name = text;

    if (n != 2 || row[0].type != TOKIO_DB_INT)
        return tokio__error(TOKIO_EFORMAT, "an LMT name table row has no "
                            "integer id");
    if (row[1].type == TOKIO_DB_TEXT)
        name = row[1].s;
    else if (row[1].type == TOKIO_DB_INT)
        snprintf(text, sizeof(text), "%lld", (long long)row[1].i);
    else if (row[1].type == TOKIO_DB_REAL)
        snprintf(text, sizeof(text), "%.17g", row[1].d);
    else
        text[0] = '\0';   /* NEEDSWORK: the reference kept None */
    if ((names = tokio__reallocarray(m->names, m->n + 1, sizeof(*names)))
        == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading LMT names");
    m->names = names;
    if ((ids = tokio__reallocarray(m->ids, m->n + 1, sizeof(*ids))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading LMT names");
    m->ids = ids;
    if ((m->names[m->n] = tokio__strdup(name)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading LMT names");
    m->ids[m->n].id = row[0].i;
    m->ids[m->n].index = m->n;
    m->n++;
    return TOKIO_OK;
}

static int
cmp_id(const void *a, const void *b)
{
    const struct id_entry *x = a, *y = b;

    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

int
tokio_lmtdb_open_db(struct tokio_lmtdb **out, struct tokio_cachingdb *db)
{
    struct tokio_lmtdb *lmt;
    int rc = TOKIO_OK;

    *out = NULL;
    if ((lmt = tokio__calloc(1, sizeof(*lmt))) == NULL) {
        tokio_cachingdb_free(db);
        return tokio__error(TOKIO_ENOMEM, "out of memory opening LMT");
    }
    lmt->db = db;
    for (size_t k = 0; rc >= 0 && k < N_KINDS; k++) {
        rc = tokio_cachingdb_query(db, name_queries[k], NULL, 0, NULL, 0,
                                   add_name, &lmt->maps[k]);
        if (rc < 0)
            tokio__error_prefix("LMT database '%s'",
                                tokio_cachingdb_source(db));
        else if (lmt->maps[k].n)
            qsort(lmt->maps[k].ids, lmt->maps[k].n, sizeof(struct id_entry),
                  cmp_id);
    }
    if (rc < 0) {
        tokio_lmtdb_free(lmt);
        return rc;
    }
    *out = lmt;
    return TOKIO_OK;
}

int
tokio_lmtdb_open(struct tokio_lmtdb **out, const char *cache_file,
                 const struct tokio_db_remote *remote)
{
    struct tokio_cachingdb *db;
    int rc;

    *out = NULL;
    if ((rc = tokio_cachingdb_open(&db, cache_file, remote)) < 0)
        return rc;
    return tokio_lmtdb_open_db(out, db);
}

struct tokio_cachingdb *
tokio_lmtdb_db(struct tokio_lmtdb *lmt)
{
    return lmt->db;
}

const char *const *
tokio_lmtdb_names(const struct tokio_lmtdb *lmt, enum tokio_lmtdb_kind kind,
                  size_t *n_out)
{
    if ((unsigned)kind >= N_KINDS) {
        *n_out = 0;
        return NULL;
    }
    *n_out = lmt->maps[kind].n;
    return (const char *const *)lmt->maps[kind].names;
}

const char *
tokio_lmtdb_name_of(const struct tokio_lmtdb *lmt, enum tokio_lmtdb_kind kind,
                    int64_t id)
{
    const struct name_map *m;
    size_t lo = 0, hi;

    if ((unsigned)kind >= N_KINDS)
        return NULL;
    m = &lmt->maps[kind];
    hi = m->n;
    /* the first entry with an id greater than `id`; the one before wins */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (m->ids[mid].id <= id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || m->ids[lo - 1].id != id)
        return NULL;
    return m->names[m->ids[lo - 1].index];
}

/* The two text parameters of a query over start..end: each time as
 * "YYYY-MM-DD HH:MM:SS" of a local epoch (the reference's strftime),
 * written into a and b. */
static int
range_params(struct tokio_db_value p[2], char a[32], char b[32],
             int64_t start, int64_t end)
{
    int rc;

    if ((rc = tokio_time_format(a, 32, start, "%Y-%m-%d %H:%M:%S")) < 0 ||
        (rc = tokio_time_format(b, 32, end, "%Y-%m-%d %H:%M:%S")) < 0)
        return rc;
    memset(p, 0, 2 * sizeof(*p));
    p[0].type = p[1].type = TOKIO_DB_TEXT;
    p[0].s = a;
    p[0].len = strlen(a);
    p[1].s = b;
    p[1].len = strlen(b);
    return TOKIO_OK;
}

struct minmax {
    int64_t min, max;
    size_t n;
};

static int
add_ts_id(void *payload, const struct tokio_db_value *row, size_t n)
{
    struct minmax *mm = payload;

    if (n < 1 || row[0].type != TOKIO_DB_INT)
        return tokio__error(TOKIO_EFORMAT, "TIMESTAMP_INFO holds a TS_ID "
                            "that is not an integer");
    if (mm->n == 0 || row[0].i < mm->min)
        mm->min = row[0].i;
    if (mm->n == 0 || row[0].i > mm->max)
        mm->max = row[0].i;
    mm->n++;
    return TOKIO_OK;
}

int
tokio_lmtdb_get_ts_ids(struct tokio_lmtdb *lmt, int64_t start, int64_t end,
                       int64_t *min_out, int64_t *max_out)
{
    struct minmax mm = { 0, 0, 0 };
    char a[32], b[32];
    struct tokio_db_value p[2];
    int rc;

    if ((rc = range_params(p, a, b, start, end)) < 0)
        return rc;
    rc = tokio_cachingdb_query(lmt->db, "SELECT TIMESTAMP_INFO.TS_ID FROM "
                               "TIMESTAMP_INFO WHERE TIMESTAMP >= %(ps)s AND "
                               "TIMESTAMP <= %(ps)s", p, 2, NULL, 0,
                               add_ts_id, &mm);
    if (rc < 0)
        return rc;
    if (mm.n == 0)
        return tokio__error(TOKIO_ENOTFOUND, "LMT database '%s' has no "
                            "timestamps from %s to %s",
                            tokio_cachingdb_source(lmt->db), a, b);
    *min_out = mm.min;
    *max_out = mm.max;
    return TOKIO_OK;
}

const struct tokio_db_table *
tokio_lmtdb_table(const char *table)
{
    for (size_t i = 0; table && i < N_TABLES; i++)
        if (strcasecmp(lmt_tables[i].name, table) == 0)
            return &lmt_tables[i];
    return NULL;
}

const struct tokio_db_table *
tokio_lmtdb_tables(size_t *n_out)
{
    *n_out = N_TABLES;
    return lmt_tables;
}

/* The reference's SELECT list: TIMESTAMP, then the columns, with TS_ID
 * qualified by TIMESTAMP_INFO (its ', '.join(...).replace("TS_ID,", ...)). */
static int
select_sql(char **out, const struct tokio_db_table *t)
{
    size_t size = 512;
    char *sql, *p;
    int n;

    for (size_t i = 0; i < t->n_columns; i++)
        size += strlen(t->columns[i]) + 20;
    if ((sql = tokio__malloc(size)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory querying LMT");
    p = sql + sprintf(sql, "SELECT TIMESTAMP");
    for (size_t i = 0; i < t->n_columns; i++) {
        int last = i + 1 == t->n_columns;

        p += sprintf(p, ", %s%s",
                     strcmp(t->columns[i], "TS_ID") == 0 && !last
                     ? "TIMESTAMP_INFO." : "", t->columns[i]);
    }
    n = sprintf(p, " FROM %s INNER JOIN TIMESTAMP_INFO ON "
                "TIMESTAMP_INFO.TS_ID = %s.TS_ID WHERE "
                "TIMESTAMP_INFO.TIMESTAMP >= ? AND "
                "TIMESTAMP_INFO.TIMESTAMP < ?", t->name, t->name);
    (void)n;
    *out = sql;
    return TOKIO_OK;
}

int
tokio_lmtdb_get_timeseries_data(struct tokio_lmtdb *lmt, const char *table,
                                int64_t start, int64_t end,
                                int64_t timechunk, int keep,
                                tokio_db_row_fn fn, void *payload)
{
    const struct tokio_db_table *t = tokio_lmtdb_table(table);
    struct tokio_db_table keep_as;
    char *sql = NULL;
    int rc = TOKIO_OK;

    if (t == NULL)
        return tokio__error(TOKIO_EINVAL, "Table '%s' is not valid",
                            table ? table : "(null)");
    if (timechunk < 0)
        return tokio__error(TOKIO_EINVAL, "negative time chunk %lld",
                            (long long)timechunk);
    if ((rc = select_sql(&sql, t)) < 0)
        return rc;
    keep_as = *t;
    for (int64_t chunk_start = start; chunk_start < end;) {
        int64_t chunk_end = timechunk ? chunk_start + timechunk : end;
        struct tokio_db_value p[2];
        char a[32], b[32];

        if (chunk_end > end)
            chunk_end = end;
        if ((rc = range_params(p, a, b, chunk_start, chunk_end)) < 0)
            break;
        rc = tokio_cachingdb_query(lmt->db, sql, p, 2, keep ? &keep_as : NULL,
                                   0, fn, payload);
        if (rc < 0 || timechunk == 0)
            break;
        chunk_start += timechunk;
    }
    free(sql);
    return rc;
}

int
tokio_lmtdb_get_ost_data(struct tokio_lmtdb *lmt, int64_t start, int64_t end,
                         tokio_db_row_fn fn, void *payload)
{
    return tokio_lmtdb_get_timeseries_data(lmt, "OST_DATA", start, end,
                                           DEFAULT_TIMECHUNK, 0, fn, payload);
}

int
tokio_lmtdb_get_oss_data(struct tokio_lmtdb *lmt, int64_t start, int64_t end,
                         tokio_db_row_fn fn, void *payload)
{
    return tokio_lmtdb_get_timeseries_data(lmt, "OSS_DATA", start, end,
                                           DEFAULT_TIMECHUNK, 0, fn, payload);
}

int
tokio_lmtdb_get_mds_data(struct tokio_lmtdb *lmt, int64_t start, int64_t end,
                         tokio_db_row_fn fn, void *payload)
{
    return tokio_lmtdb_get_timeseries_data(lmt, "MDS_DATA", start, end,
                                           DEFAULT_TIMECHUNK, 0, fn, payload);
}

int
tokio_lmtdb_get_mds_ops_data(struct tokio_lmtdb *lmt, int64_t start,
                             int64_t end, tokio_db_row_fn fn, void *payload)
{
    return tokio_lmtdb_get_timeseries_data(lmt, "MDS_OPS_DATA", start, end,
                                           DEFAULT_TIMECHUNK, 0, fn, payload);
}

int
tokio_lmtdb_retrieve_tables(struct tokio_lmtdb *lmt, int64_t start,
                            int64_t end, int64_t limit)
{
    int64_t min_id, max_id;
    int rc;

    if ((rc = tokio_lmtdb_get_ts_ids(lmt, start, end, &min_id, &max_id)) < 0)
        return rc;
    for (size_t i = 0; i < N_TABLES; i++) {
        const struct tokio_db_table *t = &lmt_tables[i];
        struct tokio_db_value p[3];
        size_t np = 0;
        int timed = 0;
        char sql[256];
        int len;

        for (size_t c = 0; c < t->n_columns; c++)
            if (strcasecmp(t->columns[c], "TS_ID") == 0)
                timed = 1;
        memset(p, 0, sizeof(p));
        len = snprintf(sql, sizeof(sql), "SELECT * from %s", t->name);
        if (timed) {
            len += snprintf(sql + len, sizeof(sql) - (size_t)len,
                            " WHERE TS_ID >= ? AND TS_ID <= ?");
            p[np].type = TOKIO_DB_INT;
            p[np++].i = min_id;
            p[np].type = TOKIO_DB_INT;
            p[np++].i = max_id;
        }
        if (limit > 0) {
            snprintf(sql + len, sizeof(sql) - (size_t)len, " LIMIT ?");
            p[np].type = TOKIO_DB_INT;
            p[np++].i = limit;
        }
        if ((rc = tokio_cachingdb_query(lmt->db, sql, p, np, t, 0, NULL,
                                        NULL)) < 0)
            return rc;
    }
    return TOKIO_OK;
}

/* TS_ID -> epoch of the timestamps in a range, sorted by TS_ID. */
struct ts_entry {
    int64_t id, epoch;
    size_t seq;         /* read order: with duplicate TS_IDs the last wins */
};

struct ts_map {
    struct ts_entry *e;
    size_t n, cap, hint;
    int sorted;
};

static int
add_stamp(void *payload, const struct tokio_db_value *row, size_t n)
{
    struct ts_map *m = payload;
    int64_t t;
    int rc;

    if (n != 2 || row[0].type != TOKIO_DB_INT || row[1].type != TOKIO_DB_TEXT)
        return tokio__error(TOKIO_EFORMAT, "TIMESTAMP_INFO holds a row "
                            "without an integer TS_ID and a TIMESTAMP");
    if ((rc = tokio_lmtdb_parse_timestamp(row[1].s, row[1].len, &t)) < 0)
        return tokio__error_prefix("TIMESTAMP_INFO TS_ID %lld",
                                   (long long)row[0].i);
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 1024;
        struct ts_entry *e = tokio__reallocarray(m->e, cap, sizeof(*e));

        if (e == NULL)
            return tokio__error(TOKIO_ENOMEM, "out of memory reading LMT "
                                "timestamps");
        m->e = e;
        m->cap = cap;
    }
    if (m->n && row[0].i <= m->e[m->n - 1].id)
        m->sorted = 0;
    m->e[m->n].id = row[0].i;
    m->e[m->n].epoch = t;
    m->e[m->n].seq = m->n;
    m->n++;
    return TOKIO_OK;
}

static int
cmp_entry(const void *a, const void *b)
{
    const struct ts_entry *x = a, *y = b;

    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Epoch of TS_ID `id`, or 0 with *found = 0.  Rows mostly arrive in
 * TS_ID order, so the entry after the last one found is tried first. */
static int64_t
map_find(struct ts_map *m, int64_t id, int *found)
{
    size_t lo = 0, hi = m->n;

    for (size_t k = m->hint; k < m->hint + 2 && k < m->n; k++)
        if (m->e[k].id == id && (k + 1 == m->n || m->e[k + 1].id != id)) {
            m->hint = k;
            *found = 1;
            return m->e[k].epoch;
        }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (m->e[mid].id <= id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || m->e[lo - 1].id != id) {
        *found = 0;
        return 0;
    }
    m->hint = lo - 1;
    *found = 1;
    return m->e[lo - 1].epoch;
}

/* The timestamps of a range: by TS_ID, and the winners by time. */
struct tokio_lmtdb_stamps {
    struct ts_map map;
    struct ts_entry *by_time;   /* the entry each TS_ID resolves to, by
                                   (epoch, TS_ID) */
    size_t n_by_time;
};

static int
cmp_time(const void *a, const void *b)
{
    const struct ts_entry *x = a, *y = b;

    if (x->epoch != y->epoch)
        return x->epoch < y->epoch ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

void
tokio_lmtdb_stamps_free(struct tokio_lmtdb_stamps *st)
{
    if (st == NULL)
        return;
    free(st->map.e);
    free(st->by_time);
    free(st);
}

int
tokio_lmtdb_stamps_read(struct tokio_lmtdb *lmt, int64_t start, int64_t end,
                        struct tokio_lmtdb_stamps **out)
{
    struct tokio_lmtdb_stamps *st;
    struct tokio_db_value p[2];
    char a[32], b[32];
    int rc;

    *out = NULL;
    if ((rc = range_params(p, a, b, start, end)) < 0)
        return rc;
    if ((st = tokio__calloc(1, sizeof(*st))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading LMT "
                            "timestamps");
    st->map.sorted = 1;
    rc = tokio_cachingdb_query(lmt->db, "SELECT TS_ID, TIMESTAMP FROM "
                               "TIMESTAMP_INFO WHERE TIMESTAMP >= ? AND "
                               "TIMESTAMP < ?", p, 2, NULL, 0, add_stamp,
                               &st->map);
    if (rc >= 0 && st->map.n > 0) {
        struct ts_map *m = &st->map;

        if (!m->sorted)
            qsort(m->e, m->n, sizeof(*m->e), cmp_entry);
        if ((st->by_time = tokio__calloc(m->n, sizeof(*m->e))) == NULL)
            rc = tokio__error(TOKIO_ENOMEM, "out of memory reading LMT "
                              "timestamps");
        /* with duplicate TS_IDs the last read wins (map_find()) */
        for (size_t k = 0; rc >= 0 && k < m->n; k++)
            if (k + 1 == m->n || m->e[k + 1].id != m->e[k].id)
                st->by_time[st->n_by_time++] = m->e[k];
        if (rc >= 0)
            qsort(st->by_time, st->n_by_time, sizeof(*st->by_time),
                  cmp_time);
    }
    if (rc < 0) {
        tokio_lmtdb_stamps_free(st);
        return rc;
    }
    *out = st;
    return TOKIO_OK;
}

struct stream {
    struct ts_map *map;
    int64_t start, end;
    size_t ts_col;
    tokio_lmtdb_row_fn fn;
    void *payload;
};

static int
stream_row(void *payload, const struct tokio_db_value *row, size_t n)
{
    struct stream *s = payload;
    int found;
    int64_t t;

    if (n <= s->ts_col || row[s->ts_col].type != TOKIO_DB_INT)
        return TOKIO_OK;
    t = map_find(s->map, row[s->ts_col].i, &found);
    if (!found || t < s->start || t >= s->end)
        return TOKIO_OK;
    return s->fn(s->payload, t, row, n);
}

int
tokio_lmtdb_stream_stamps(struct tokio_lmtdb *lmt,
                          struct tokio_lmtdb_stamps *stamps,
                          const char *table, int64_t start, int64_t end,
                          tokio_lmtdb_row_fn fn, void *payload)
{
    const struct tokio_db_table *t = tokio_lmtdb_table(table);
    const struct ts_entry *e = stamps->by_time;
    struct stream s;
    struct tokio_db_value p[2];
    char sql[512];
    size_t len, lo = 0, hi = stamps->n_by_time;
    int64_t min_id = 0, max_id = 0;
    int any = 0;

    memset(&s, 0, sizeof(s));
    s.map = &stamps->map;
    s.start = start;
    s.end = end;
    s.fn = fn;
    s.payload = payload;
    s.ts_col = SIZE_MAX;
    for (size_t c = 0; t && c < t->n_columns; c++)
        if (strcmp(t->columns[c], "TS_ID") == 0)
            s.ts_col = c;
    if (t == NULL || s.ts_col == SIZE_MAX || strcmp(t->name, "TIMESTAMP_INFO")
        == 0)
        return tokio__error(TOKIO_EINVAL, "'%s' is not an LMT table of "
                            "timed data", table ? table : "(null)");
    /* the TS_IDs of [start, end): the first stamp at or after start ... */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (e[mid].epoch < start)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* ... up to the last before end */
    for (size_t k = lo; k < stamps->n_by_time; k++) {
        const struct ts_entry *x = &e[k];

        if (x->epoch >= end)
            break;
        if (!any || x->id < min_id)
            min_id = x->id;
        if (!any || x->id > max_id)
            max_id = x->id;
        any = 1;
    }
    if (!any)
        return TOKIO_OK;
    len = (size_t)snprintf(sql, sizeof(sql), "SELECT ");
    for (size_t c = 0; c < t->n_columns && len < sizeof(sql); c++)
        len += (size_t)snprintf(sql + len, sizeof(sql) - len, "%s%s",
                                c ? ", " : "", t->columns[c]);
    if (len < sizeof(sql))
        snprintf(sql + len, sizeof(sql) - len, " FROM %s WHERE TS_ID >= "
                 "? AND TS_ID <= ?", t->name);
    memset(p, 0, sizeof(p));
    p[0].type = p[1].type = TOKIO_DB_INT;
    p[0].i = min_id;
    p[1].i = max_id;
    return tokio_cachingdb_query(lmt->db, sql, p, 2, NULL, 0, stream_row, &s);
}

int
tokio_lmtdb_stream(struct tokio_lmtdb *lmt, const char *table, int64_t start,
                   int64_t end, tokio_lmtdb_row_fn fn, void *payload)
{
    const struct tokio_db_table *t = tokio_lmtdb_table(table);
    struct tokio_lmtdb_stamps *stamps;
    int ok = 0, rc;

    for (size_t c = 0; t && c < t->n_columns; c++)
        if (strcmp(t->columns[c], "TS_ID") == 0)
            ok = 1;
    if (!ok || strcmp(t->name, "TIMESTAMP_INFO") == 0)
        return tokio__error(TOKIO_EINVAL, "'%s' is not an LMT table of "
                            "timed data", table ? table : "(null)");
    if ((rc = tokio_lmtdb_stamps_read(lmt, start, end, &stamps)) < 0)
        return rc;
    rc = tokio_lmtdb_stream_stamps(lmt, stamps, table, start, end, fn,
                                   payload);
    tokio_lmtdb_stamps_free(stamps);
    return rc;
}

static int
digits(const char *s, size_t n, int *out)
{
    int v = 0;

    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

int
tokio_lmtdb_parse_timestamp(const char *text, size_t len, int64_t *epoch_out)
{
    int y, mo, d, h, mi, s;

    if (text == NULL || len < 19 || text[4] != '-' || text[7] != '-' ||
        (text[10] != ' ' && text[10] != 'T') || text[13] != ':' ||
        text[16] != ':' || digits(text, 4, &y) || digits(text + 5, 2, &mo) ||
        digits(text + 8, 2, &d) || digits(text + 11, 2, &h) ||
        digits(text + 14, 2, &mi) || digits(text + 17, 2, &s) ||
        mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 61 ||
        (len > 19 && text[19] != '.'))
        return tokio__error(TOKIO_EFORMAT, "'%.*s' is not an LMT timestamp "
                            "(YYYY-MM-DD HH:MM:SS)", (int)(len > 40 ? 40 : len),
                            text ? text : "");
    return tokio_time_from_local(y, mo, d, h, mi, s, epoch_out);
}

void
tokio_lmtdb_free(struct tokio_lmtdb *lmt)
{
    if (lmt == NULL)
        return;
    for (size_t k = 0; k < N_KINDS; k++) {
        for (size_t i = 0; i < lmt->maps[k].n; i++)
            free(lmt->maps[k].names[i]);
        free(lmt->maps[k].names);
        free(lmt->maps[k].ids);
    }
    tokio_cachingdb_free(lmt->db);
    free(lmt);
}
