/*
 * src/core/timeseries.c - the in-memory TOKIO Time Series, mirroring
 * tokio.timeseries (pytokio 0.13).  The reference keeps a numpy matrix, a
 * list of names and a dict from name to index; here the matrix is one
 * row-major block of doubles, the names an array, and the dict an
 * open-addressing table of indexes into that array.
 *
 * Differs from pytokio (each also noted at its function): trim_rows(0)
 * keeps every row; operations the reference would crash on (deltas or
 * add_rows on a series without rows) return TOKIO_EINVAL.
 */
#include "tokio/timeseries.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tokio/output.h"
#include "tokio/util.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/timeseries_private.h"

struct tokio_timeseries {
    char *dataset_name;
    double *data;               /* rows * cols, row-major */
    int64_t *timestamps;        /* rows */
    size_t rows;
    size_t cols;
    int64_t timestep;
    char **names;               /* n_names <= cols, each owned */
    size_t n_names;
    size_t *slots;              /* name table: index + 1, 0 = empty */
    size_t n_slots;             /* power of two, > 2 * cols */
    json_t *dataset_metadata;
    json_t *group_metadata;
    char *version;
    char *global_version;
    char *timestamp_key;
};

/* -0.0 is how the reference marks a cell nobody wrote. */
static const double missing_cell = -0.0;

int
tokio_timeseries_is_missing(double x)
{
    return x == 0.0 && signbit(x);
}

/* FNV-1a: the names are short node names; anything spreading them works. */
static size_t
hash_name(const char *s)
{
    uint64_t h = 1469598103934665603u;

    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211u;
    }
    return (size_t)h;
}

/* Point `name` at column `index`, replacing any earlier entry (dict set). */
static void
map_set(struct tokio_timeseries *ts, const char *name, size_t index)
{
    size_t mask = ts->n_slots - 1;

    for (size_t i = hash_name(name) & mask;; i = (i + 1) & mask) {
        size_t s = ts->slots[i];
        if (s == 0 || strcmp(ts->names[s - 1], name) == 0) {
            ts->slots[i] = index + 1;
            return;
        }
    }
}

/* The map's entry of `name`, NULL when it has none. */
static size_t *
map_slot(const struct tokio_timeseries *ts, const char *name)
{
    size_t mask = ts->n_slots - 1;

    for (size_t i = hash_name(name) & mask;; i = (i + 1) & mask) {
        size_t s = ts->slots[i];
        if (s == 0)
            return NULL;
        if (strcmp(ts->names[s - 1], name) == 0)
            return &ts->slots[i];
    }
}

long
tokio_timeseries_column_index(const struct tokio_timeseries *ts,
                              const char *name)
{
    const size_t *slot = map_slot(ts, name);

    return slot != NULL ? (long)(*slot - 1) : -1;
}

static void
map_rebuild(struct tokio_timeseries *ts)
{
    memset(ts->slots, 0, ts->n_slots * sizeof(*ts->slots));
    for (size_t i = 0; i < ts->n_names; i++)
        map_set(ts, ts->names[i], i);
}

static void
fill_missing(double *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = missing_cell;
}

/*
 * Allocate everything but the timestamps' values.  Sizes are checked
 * before allocating: a caller (or a file) asking for 2^62 columns gets
 * TOKIO_EINVAL, not a wrapped multiplication and a tiny buffer.
 */
static int
ts_alloc(struct tokio_timeseries **out, const char *dataset_name,
         size_t rows, size_t cols, double *adopt)
{
    struct tokio_timeseries *ts;
    size_t n_slots = 16;

    *out = NULL;
    if ((cols != 0 && rows > SIZE_MAX / sizeof(double) / cols)
        || rows > SIZE_MAX / sizeof(int64_t)
        || cols > SIZE_MAX / 4 / sizeof(size_t))
        return tokio__error(TOKIO_EINVAL,
                            "time series '%s': %zu x %zu cells is too large",
                            dataset_name ? dataset_name : "", rows, cols);
    while (n_slots <= 2 * cols)
        n_slots *= 2;
    if ((ts = tokio__calloc(1, sizeof(*ts))) == NULL)
        goto oom;
    ts->rows = rows;
    ts->cols = cols;
    ts->n_slots = n_slots;
    /* +1: never a zero-byte malloc, whose NULL would look like OOM */
    if (adopt == NULL)
        ts->data = tokio__malloc(rows * cols * sizeof(double) + 1);
    ts->timestamps = tokio__malloc(rows * sizeof(int64_t) + 1);
    ts->names = tokio__calloc(cols + 1, sizeof(char *));
    ts->slots = tokio__calloc(n_slots, sizeof(size_t));
    ts->dataset_name = tokio__strdup(dataset_name ? dataset_name : "");
    ts->dataset_metadata = json_object();
    ts->group_metadata = json_object();
    if ((!adopt && !ts->data) || !ts->timestamps || !ts->names || !ts->slots
        || !ts->dataset_name || !ts->dataset_metadata || !ts->group_metadata)
        goto oom;
    if (adopt != NULL)
        ts->data = adopt;       /* only now: a failure leaves it the caller's */
    else
        fill_missing(ts->data, rows * cols);
    *out = ts;
    return TOKIO_OK;
oom:
    tokio_timeseries_free(ts);
    return tokio__error(TOKIO_ENOMEM, "out of memory making time series '%s'",
                        dataset_name ? dataset_name : "");
}

int
tokio_timeseries_new(struct tokio_timeseries **out, const char *dataset_name,
                     int64_t start, int64_t end, int64_t timestep,
                     size_t num_columns, const char *const *names,
                     size_t n_names)
{
    struct tokio_timeseries *ts = NULL;
    size_t rows = 0;
    int rc;

    *out = NULL;
    if (timestep <= 0)
        return tokio__error(TOKIO_EINVAL, "time series '%s': timestep %lld "
                            "is not positive", dataset_name ? dataset_name
                            : "", (long long)timestep);
    if (n_names > num_columns)
        return tokio__error(TOKIO_EINVAL, "time series '%s': %zu column names "
                            "for %zu columns", dataset_name ? dataset_name
                            : "", n_names, num_columns);
    /* [start, end) in steps; computed in unsigned to survive any span */
    if (end > start) {
        uint64_t span = (uint64_t)end - (uint64_t)start;
        uint64_t n = span / (uint64_t)timestep
                     + (span % (uint64_t)timestep != 0);
        if (n > SIZE_MAX)
            return tokio__error(TOKIO_EINVAL, "time series '%s': too many "
                                "timesteps", dataset_name ? dataset_name : "");
        rows = (size_t)n;
    }
    if ((rc = ts_alloc(&ts, dataset_name, rows, num_columns, NULL)) < 0)
        return rc;
    ts->timestep = timestep;
    for (size_t i = 0; i < rows; i++)
        ts->timestamps[i] = start + (int64_t)i * timestep;
    if (n_names > 0
        && (rc = tokio_timeseries_set_columns(ts, names, n_names)) < 0) {
        tokio_timeseries_free(ts);
        return rc;
    }
    *out = ts;
    return TOKIO_OK;
}

int
tokio_timeseries_new_rows(struct tokio_timeseries **out,
                          const char *dataset_name, const int64_t *timestamps,
                          size_t n_rows, size_t num_columns)
{
    struct tokio_timeseries *ts = NULL;
    int rc;

    if ((rc = ts_alloc(&ts, dataset_name, n_rows, num_columns, NULL)) < 0)
        return rc;
    if (n_rows > 0)
        memcpy(ts->timestamps, timestamps, n_rows * sizeof(int64_t));
    ts->timestep = n_rows >= 2 ? timestamps[1] - timestamps[0] : 0;
    *out = ts;
    return TOKIO_OK;
}

int
tokio__timeseries_new_adopt(struct tokio_timeseries **out,
                            const char *dataset_name,
                            const int64_t *timestamps, size_t n_rows,
                            size_t num_columns, double *data)
{
    struct tokio_timeseries *ts = NULL;
    int rc;

    if ((rc = ts_alloc(&ts, dataset_name, n_rows, num_columns, data)) < 0)
        return rc;
    if (n_rows > 0)
        memcpy(ts->timestamps, timestamps, n_rows * sizeof(int64_t));
    ts->timestep = n_rows >= 2 ? timestamps[1] - timestamps[0] : 0;
    *out = ts;
    return TOKIO_OK;
}

static void
free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
}

void
tokio_timeseries_free(struct tokio_timeseries *ts)
{
    if (ts == NULL)
        return;
    if (ts->names)
        free_names(ts->names, ts->n_names);
    free(ts->names);
    free(ts->slots);
    free(ts->data);
    free(ts->timestamps);
    free(ts->dataset_name);
    json_decref(ts->dataset_metadata);
    json_decref(ts->group_metadata);
    free(ts->version);
    free(ts->global_version);
    free(ts->timestamp_key);
    free(ts);
}

size_t
tokio_timeseries_rows(const struct tokio_timeseries *ts)
{
    return ts->rows;
}

size_t
tokio_timeseries_cols(const struct tokio_timeseries *ts)
{
    return ts->cols;
}

double *
tokio_timeseries_data(struct tokio_timeseries *ts)
{
    return ts->data;
}

const double *
tokio_timeseries_cdata(const struct tokio_timeseries *ts)
{
    return ts->data;
}

const int64_t *
tokio_timeseries_timestamps(const struct tokio_timeseries *ts)
{
    return ts->timestamps;
}

int64_t
tokio_timeseries_timestep(const struct tokio_timeseries *ts)
{
    return ts->timestep;
}

void
tokio_timeseries_set_timestep(struct tokio_timeseries *ts, int64_t timestep)
{
    ts->timestep = timestep;
}

size_t
tokio_timeseries_n_names(const struct tokio_timeseries *ts)
{
    return ts->n_names;
}

const char *
tokio_timeseries_column(const struct tokio_timeseries *ts, size_t i)
{
    return i < ts->n_names ? ts->names[i] : NULL;
}

const char *
tokio_timeseries_dataset_name(const struct tokio_timeseries *ts)
{
    return ts->dataset_name;
}

json_t *
tokio_timeseries_dataset_metadata(struct tokio_timeseries *ts)
{
    return ts->dataset_metadata;
}

json_t *
tokio_timeseries_group_metadata(struct tokio_timeseries *ts)
{
    return ts->group_metadata;
}

const char *
tokio_timeseries_version(const struct tokio_timeseries *ts)
{
    return ts->version;
}

const char *
tokio_timeseries_global_version(const struct tokio_timeseries *ts)
{
    return ts->global_version;
}

const char *
tokio_timeseries_timestamp_key(const struct tokio_timeseries *ts)
{
    return ts->timestamp_key;
}

static int
set_string(char **slot, const char *value, const char *what)
{
    char *copy = NULL;

    if (value != NULL && (copy = tokio__strdup(value)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory setting %s", what);
    free(*slot);
    *slot = copy;
    return TOKIO_OK;
}

int
tokio_timeseries_set_version(struct tokio_timeseries *ts, const char *version)
{
    return set_string(&ts->version, version, "a dataset version");
}

int
tokio_timeseries_set_global_version(struct tokio_timeseries *ts,
                                    const char *version)
{
    return set_string(&ts->global_version, version, "a schema version");
}

int
tokio_timeseries_set_timestamp_key(struct tokio_timeseries *ts,
                                   const char *key)
{
    return set_string(&ts->timestamp_key, key, "a timestamp key");
}

int
tokio_timeseries_set_columns(struct tokio_timeseries *ts,
                             const char *const *names, size_t n)
{
    char **copy;

    /* the reference truncates (with a warning) names beyond the width */
    if (n > ts->cols)
        n = ts->cols;
    if ((copy = tokio__calloc(ts->cols + 1, sizeof(char *))) == NULL)
        goto oom;
    for (size_t i = 0; i < n; i++) {
        if ((copy[i] = tokio__strdup(names[i])) == NULL) {
            free_names(copy, i);
            free(copy);
            goto oom;
        }
    }
    free_names(ts->names, ts->n_names);
    free(ts->names);
    ts->names = copy;
    ts->n_names = n;
    map_rebuild(ts);
    return TOKIO_OK;
oom:
    return tokio__error(TOKIO_ENOMEM, "out of memory naming the columns of "
                        "'%s'", ts->dataset_name);
}

int
tokio_timeseries_add_column(struct tokio_timeseries *ts, const char *name,
                            size_t *index_out)
{
    size_t index = ts->n_names;
    char *copy;

    if (index >= ts->cols)
        return tokio__error(TOKIO_EINVAL, "new index %zu (%s) exceeds number "
                            "of columns %zu in %s", index, name, ts->cols,
                            ts->dataset_name);
    if ((copy = tokio__strdup(name)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory adding column '%s' "
                            "to '%s'", name, ts->dataset_name);
    ts->names[index] = copy;
    ts->n_names++;
    map_set(ts, copy, index);
    if (index_out)
        *index_out = index;
    return TOKIO_OK;
}

/* Python's // on integers: floor, also for negative numerators. */
static int64_t
floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;

    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

int
tokio_timeseries_get_insert_pos(struct tokio_timeseries *ts,
                                int64_t timestamp, const char *column,
                                int create, enum tokio_ts_align align,
                                size_t *row_out, long *col_out)
{
    int64_t t_index;
    long c_index;

    if (ts->rows == 0 || ts->timestep <= 0)
        return 0;
    t_index = floor_div(timestamp - ts->timestamps[0], ts->timestep);
    if (align == TOKIO_TS_RIGHT)
        t_index--;
    if (t_index < 0 || (uint64_t)t_index >= ts->rows)
        return 0;
    c_index = tokio_timeseries_column_index(ts, column);
    if (c_index < 0 && create) {
        size_t idx;
        int rc = tokio_timeseries_add_column(ts, column, &idx);
        if (rc < 0)
            return rc;
        c_index = (long)idx;
    }
    *row_out = (size_t)t_index;
    *col_out = c_index;
    return 1;
}

int
tokio_timeseries_insert_element(struct tokio_timeseries *ts, int64_t timestamp,
                                const char *column, double value,
                                enum tokio_ts_reducer reducer,
                                enum tokio_ts_align align)
{
    size_t row;
    long col;
    int rc;
    double *cell;

    rc = tokio_timeseries_get_insert_pos(ts, timestamp, column, 1, align,
                                         &row, &col);
    if (rc <= 0)
        return rc;
    cell = &ts->data[row * ts->cols + (size_t)col];
    if (reducer == TOKIO_TS_SUM && (*cell != 0.0 || signbit(*cell)))
        *cell = *cell + value;
    else
        *cell = value;
    return 1;
}

/*
 * Column state for the delta walk: the last valid counter seen and
 * whether we are spanning a gap (searching for the next valid pair).
 */
struct delta_state {
    double prev_nonzero;
    int have_prev;
    int searching;
};

struct tokio_ts_deltas {
    size_t cols;
    int started;                /* the first row has been seen */
    struct delta_state st[];
};

int
tokio_timeseries_deltas_new(struct tokio_ts_deltas **out, size_t cols)
{
    struct tokio_ts_deltas *d;

    *out = NULL;
    if (cols > (SIZE_MAX - sizeof(*d)) / sizeof(d->st[0]) - 1)
        return tokio__error(TOKIO_EINVAL, "cannot convert %zu columns to "
                            "deltas: too many", cols);
    if ((d = tokio__calloc(1, sizeof(*d) + (cols + 1) * sizeof(d->st[0])))
        == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory converting %zu "
                            "columns to deltas", cols);
    d->cols = cols;
    for (size_t c = 0; c < cols; c++)
        d->st[c].searching = 1;
    *out = d;
    return TOKIO_OK;
}

void
tokio_timeseries_deltas_free(struct tokio_ts_deltas *d)
{
    free(d);
}

void
tokio_timeseries_deltas_step(struct tokio_ts_deltas *d, double *data,
                             size_t rows)
{
    const size_t cols = d->cols;
    struct delta_state *st = d->st;

    if (rows == 0)
        return;
    if (!d->started) {
        for (size_t c = 0; c < cols; c++)
            if (data[c] != 0.0) {
                st[c].prev_nonzero = data[c];
                st[c].have_prev = 1;
            }
        d->started = 1;
    }
    /*
     * In place: the delta for row r-1 overwrites row r-1 only after row r
     * has been compared with it, and no later row reads row r-1 again.
     */
    for (size_t r = 1; r < rows; r++) {
        double *prev = &data[(r - 1) * cols];
        const double *cur = &data[r * cols];
        for (size_t c = 0; c < cols; c++) {
            double x = cur[c];
            double out = missing_cell;
            if (st[c].searching) {
                if (x != 0.0) {
                    if (st[c].have_prev && x >= st[c].prev_nonzero) {
                        out = x - st[c].prev_nonzero;
                        st[c].searching = 0;
                    }
                    st[c].prev_nonzero = x;
                    st[c].have_prev = 1;
                }
            } else if (x < prev[c]) {
                st[c].searching = 1;    /* counter reset or a lost value */
            } else {
                out = x - prev[c];
                st[c].prev_nonzero = x;
                st[c].have_prev = 1;
            }
            prev[c] = out;
        }
    }
}

int
tokio_timeseries_convert_to_deltas(struct tokio_timeseries *ts,
                                   enum tokio_ts_align align)
{
    struct tokio_ts_deltas *d;
    int rc;

    if (ts->rows == 0)
        return tokio__error(TOKIO_EINVAL, "cannot convert '%s' to deltas: it "
                            "has no rows", ts->dataset_name);
    if ((rc = tokio_timeseries_deltas_new(&d, ts->cols)) == TOKIO_ENOMEM)
        return tokio__error(rc, "out of memory converting '%s' to deltas",
                            ts->dataset_name);
    if (rc < 0)
        return rc;
    tokio_timeseries_deltas_step(d, ts->data, ts->rows);
    tokio_timeseries_deltas_free(d);
    ts->rows--;
    if (align == TOKIO_TS_RIGHT)
        memmove(ts->timestamps, ts->timestamps + 1,
                ts->rows * sizeof(int64_t));
    return TOKIO_OK;
}

int
tokio_timeseries_add_rows(struct tokio_timeseries *ts, size_t n)
{
    double *data;
    int64_t *stamps;
    size_t rows;

    if (ts->rows == 0)
        return tokio__error(TOKIO_EINVAL, "cannot add rows to '%s': it has "
                            "no rows to continue", ts->dataset_name);
    if (n > SIZE_MAX - ts->rows
        || (ts->cols != 0
            && ts->rows + n > SIZE_MAX / sizeof(double) / ts->cols)
        || ts->rows + n > SIZE_MAX / sizeof(int64_t))
        return tokio__error(TOKIO_EINVAL, "cannot add %zu rows to '%s': too "
                            "large", n, ts->dataset_name);
    rows = ts->rows + n;
    if ((stamps = tokio__realloc(ts->timestamps,
                                 rows * sizeof(int64_t) + 1)) == NULL)
        goto oom;
    ts->timestamps = stamps;
    if ((data = tokio__realloc(ts->data,
                               rows * ts->cols * sizeof(double) + 1)) == NULL)
        goto oom;
    ts->data = data;
    fill_missing(data + ts->rows * ts->cols, n * ts->cols);
    for (size_t i = 0; i < n; i++)
        stamps[ts->rows + i] = stamps[ts->rows - 1]
                               + (int64_t)(i + 1) * ts->timestep;
    ts->rows = rows;
    return TOKIO_OK;
oom:
    return tokio__error(TOKIO_ENOMEM, "out of memory adding %zu rows to '%s'",
                        n, ts->dataset_name);
}

int
tokio_timeseries_trim_rows(struct tokio_timeseries *ts, size_t n)
{
    if (n > ts->rows)
        return tokio__error(TOKIO_EINVAL, "cannot trim %zu rows from '%s': "
                            "it has %zu", n, ts->dataset_name, ts->rows);
    ts->rows -= n;
    return TOKIO_OK;
}

int
tokio_timeseries_swap_columns(struct tokio_timeseries *ts, size_t i, size_t j)
{
    char *name;

    if (i >= ts->n_names || j >= ts->n_names)
        return tokio__error(TOKIO_EINVAL, "cannot swap columns %zu and %zu of "
                            "'%s': it has %zu named columns", i, j,
                            ts->dataset_name, ts->n_names);
    if (i == j)
        return TOKIO_OK;
    for (size_t r = 0; r < ts->rows; r++) {
        double *row = &ts->data[r * ts->cols];
        double tmp = row[i];
        row[i] = row[j];
        row[j] = tmp;
    }
    /* the map's entries found while they still match the names, then
     * pointed at the names' new places (a lookup after the swap would
     * compare against the swapped names, miss, and add a second entry:
     * each swap then grew the table until a lookup ran forever); set in
     * the reference's order, so a repeated name ends at j */
    size_t *slot_i = map_slot(ts, ts->names[i]);
    size_t *slot_j = map_slot(ts, ts->names[j]);
    name = ts->names[i];
    ts->names[i] = ts->names[j];
    ts->names[j] = name;
    *slot_j = i + 1;
    *slot_i = j + 1;
    return TOKIO_OK;
}

int
tokio_timeseries_rearrange_columns(struct tokio_timeseries *ts,
                                   const char *const *order, size_t n)
{
    /* validate everything first so a failure leaves the order unchanged */
    for (size_t k = 0; k < n; k++) {
        if (tokio_timeseries_column_index(ts, order[k]) < 0)
            return tokio__error(TOKIO_EINVAL, "key %s in new order not in "
                                "the columns of '%s'", order[k],
                                ts->dataset_name);
    }
    if (n > ts->n_names)
        return tokio__error(TOKIO_EINVAL, "new order of '%s' lists %zu "
                            "columns, it has %zu", ts->dataset_name, n,
                            ts->n_names);
    for (size_t k = 0; k < n; k++) {
        long old = tokio_timeseries_column_index(ts, order[k]);
        int rc = tokio_timeseries_swap_columns(ts, (size_t)old, k);
        if (rc < 0)
            return rc;
    }
    return TOKIO_OK;
}

int
tokio_timeseries_sort_columns(struct tokio_timeseries *ts, int hex)
{
    const char **order;
    int rc;

    if ((order = tokio__calloc(ts->n_names + 1, sizeof(*order))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory sorting the columns "
                            "of '%s'", ts->dataset_name);
    /* the pointers stay valid: swapping moves them, never frees them */
    for (size_t i = 0; i < ts->n_names; i++)
        order[i] = ts->names[i];
    if ((rc = tokio_sort_nodenames(order, ts->n_names, hex)) >= 0)
        rc = tokio_timeseries_rearrange_columns(ts, order, ts->n_names);
    free(order);
    return rc;
}

/* ---- CSV -------------------------------------------------------------- */

static int
local_midnight(int64_t t)
{
    time_t tt = (time_t)t;
    struct tm tm;

    return localtime_r(&tt, &tm) != NULL && !tm.tm_hour && !tm.tm_min
           && !tm.tm_sec;
}

int
tokio_timeseries_write_csv(const struct tokio_timeseries *ts, FILE *fp)
{
    int dates_only = ts->rows > 0;
    char buf[64];

    for (size_t r = 0; dates_only && r < ts->rows; r++)
        dates_only = local_midnight(ts->timestamps[r]);
    for (size_t c = 0; c < ts->cols; c++) {
        const char *name = c < ts->n_names ? ts->names[c] : "";
        fputc(',', fp);
        tokio_csv_write_field(fp, name, strlen(name));
    }
    fputc('\n', fp);
    for (size_t r = 0; r < ts->rows; r++) {
        time_t tt = (time_t)ts->timestamps[r];
        struct tm tm;
        if (localtime_r(&tt, &tm) != NULL)
            strftime(buf, sizeof(buf), dates_only ? "%Y-%m-%d"
                                                  : "%Y-%m-%d %H:%M:%S", &tm);
        else
            snprintf(buf, sizeof(buf), "%lld", (long long)tt);
        fputs(buf, fp);
        for (size_t c = 0; c < ts->cols; c++) {
            double x = ts->data[r * ts->cols + c];
            fputc(',', fp);
            if (tokio_timeseries_is_missing(x))
                continue;
            tokio_format_double(buf, sizeof(buf), x);
            fputs(buf, fp);
        }
        fputc('\n', fp);
    }
    return tokio__write_check(fp, "cannot write '%s' as CSV",
                              ts->dataset_name ? ts->dataset_name : "series");
}
