/*
 * src/tools/lfsstatus_hdf5.c - the lfsstatus tool's "hdf5" fullness
 * provider (get_fullness_hdf5 of pytokio 0.13): OST fullness from the
 * /fullness datasets that archive-lmtdb writes into the site's daily TTS
 * files.
 *
 * Differs from pytokio:
 * - the timestamps are epoch seconds, as the nersc_lfsstate provider's;
 *   the reference returned datetimes, which its own cache_lfsstatus could
 *   not serialize (TypeError), so it never printed this provider's answer.
 * - ost_next_timestamp is left out when the nearest sample is the last;
 *   the reference raised IndexError there.
 * - a cell a TTS file holds as missing (-0.0) is filled like a cell no
 *   file holds; pandas filled only the latter (NaN) and kept the -0.0,
 *   which would count as an empty OST.
 * - the capacity is read at the nearest sample's timestamp in
 *   bytestotal, not at the same row number.
 */
#include "tools/lfsstatus_private.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "tokio/config.h"
#include "tokio/timeseries.h"
#include "tokio/tools/hdf5.h"

/* the reference's window around the time asked for */
#define WINDOW_SECONDS 3600

void
tokio__fullness_snapshot_free(struct tokio__fullness_snapshot *s)
{
    if (s == NULL)
        return;
    free(s->targets);
    free(s->names);
    memset(s, 0, sizeof(*s));
}

/* One dataset over the window; *ts NULL when there is nothing to read. */
static int
read_window(struct tokio_timeseries **ts, const struct tokio_config *cfg,
            const char *file_system, const char *dataset, int64_t when)
{
    int rc = tokio_hdf5_from_time_range(ts, cfg, file_system, dataset,
                                        when - WINDOW_SECONDS,
                                        when + WINDOW_SECONDS, 0);
    /* no such dataset in the file: the reference's KeyError, "no data" */
    if (rc == TOKIO_ENOTFOUND) {
        tokio_timeseries_free(*ts);
        *ts = NULL;
        return TOKIO_OK;
    }
    if (rc >= 0 && *ts != NULL && tokio_timeseries_rows(*ts) == 0) {
        tokio_timeseries_free(*ts);
        *ts = NULL;
    }
    return rc;
}

/* The row nearest `when`; of two as near, the later (pandas' 'nearest'). */
static size_t
nearest_row(const int64_t *t, size_t n, int64_t when)
{
    size_t best = 0;

    for (size_t i = 1; i < n; i++) {
        int64_t d_best = t[best] > when ? t[best] - when : when - t[best];
        int64_t d = t[i] > when ? t[i] - when : when - t[i];
        if (d <= d_best)
            best = i;
    }
    return best;
}

/*
 * Column `c` at `row`, a missing cell taken from the nearest earlier
 * sample holding one, else the nearest later (ffill, then bfill).
 * Returns 0 when the whole column is missing.
 */
static int
filled_cell(const struct tokio_timeseries *ts, size_t row, size_t c,
            double *out)
{
    const double *d = tokio_timeseries_cdata(ts);
    size_t rows = tokio_timeseries_rows(ts), cols = tokio_timeseries_cols(ts);

    for (size_t r = row + 1; r-- > 0;)
        if (!tokio_timeseries_is_missing(d[r * cols + c])) {
            *out = d[r * cols + c];
            return 1;
        }
    for (size_t r = row + 1; r < rows; r++)
        if (!tokio_timeseries_is_missing(d[r * cols + c])) {
            *out = d[r * cols + c];
            return 1;
        }
    return 0;
}

/* "snx11025-OST001f" -> "OST001f" and 31, as the reference derives it. */
static int
parse_target(const char *column, const char **key, int64_t *index)
{
    const char *dash = strrchr(column, '-');
    const char *k = dash ? dash + 1 : column;
    const char *p = k;
    char *end;

    /* lower() then lstrip('ost'): any run of o, s and t, in any case */
    while (*p && strchr("ost", tolower((unsigned char)*p)) != NULL)
        p++;
    errno = 0;
    long long v = *p && isxdigit((unsigned char)*p) ? strtoll(p, &end, 16) : 0;
    if (!*p || !isxdigit((unsigned char)*p) || *end != '\0' || errno != 0)
        return tokio__error(TOKIO_EFORMAT, "cannot derive an OST index from "
                            "the column name '%s'", column);
    *key = k;
    *index = v;
    return TOKIO_OK;
}

/* KiB as the reference truncates it: int(bytes / 1024.0) */
static int
to_kib(double bytes, int64_t *kib, const char *column)
{
    double k = bytes / 1024.0;

    if (!(k > -9.2e18 && k < 9.2e18))
        return tokio__error(TOKIO_EFORMAT, "fullness of '%s' out of range: "
                            "%g bytes", column, bytes);
    *kib = (int64_t)k;
    return TOKIO_OK;
}

static int
fill_snapshot(struct tokio__fullness_snapshot *s,
              const struct tokio_timeseries *bytes,
              const struct tokio_timeseries *total, int64_t when)
{
    const int64_t *t = tokio_timeseries_timestamps(bytes);
    const int64_t *tt = tokio_timeseries_timestamps(total);
    size_t rows = tokio_timeseries_rows(bytes);
    size_t n = tokio_timeseries_n_names(bytes), names_len = 0;
    size_t row = nearest_row(t, rows, when), trow = 0;

    while (trow < tokio_timeseries_rows(total) && tt[trow] != t[row])
        trow++;
    if (trow == tokio_timeseries_rows(total))
        return tokio__error(TOKIO_EFORMAT, "%s has no sample at %lld, "
                            "which %s has",
                            tokio_timeseries_dataset_name(total),
                            (long long)t[row],
                            tokio_timeseries_dataset_name(bytes));
    for (size_t c = 0; c < n; c++)
        names_len += strlen(tokio_timeseries_column(bytes, c)) + 1;
    if ((s->targets = tokio__calloc(n ? n : 1, sizeof(*s->targets))) == NULL ||
        (s->names = tokio__malloc(names_len ? names_len : 1)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");

    char *store = s->names;
    for (size_t c = 0; c < n; c++) {
        const char *column = tokio_timeseries_column(bytes, c), *key = NULL;
        long tc = tokio_timeseries_column_index(total, column);
        struct tokio__ost_fullness *o = &s->targets[c];
        double used, cap;
        int rc;

        if ((rc = parse_target(column, &key, &o->target_index)) < 0)
            return rc;
        if (tc < 0 || !filled_cell(bytes, row, c, &used) ||
            !filled_cell(total, trow, (size_t)tc, &cap))
            return tokio__error(TOKIO_EFORMAT, "no fullness data for '%s' "
                                "near %lld", column, (long long)when);
        if ((rc = to_kib(used, &o->used_kib, column)) < 0 ||
            (rc = to_kib(cap, &o->total_kib, column)) < 0)
            return rc;
        size_t len = strlen(key) + 1;
        memcpy(store, key, len);
        o->name = store;
        store += len;
    }
    s->n_targets = n;
    s->timestamp = t[row];
    s->has_next = row + 1 < rows;
    s->next_timestamp = s->has_next ? t[row + 1] : 0;
    return TOKIO_OK;
}

int
tokio__lfsstatus_hdf5_fullness(struct tokio__fullness_snapshot *out,
                               int *found, const struct tokio_config *cfg,
                               const char *file_system, int64_t when)
{
    struct tokio_timeseries *bytes = NULL, *total = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    *found = 0;
    /* no hdf5_files at all: the reference's KeyError, "no data" */
    if (cfg == NULL || tokio_config_get(cfg, "hdf5_files") == NULL)
        return TOKIO_OK;
    if ((rc = read_window(&bytes, cfg, file_system, "fullness/bytes",
                          when)) < 0 ||
        (rc = read_window(&total, cfg, file_system, "fullness/bytestotal",
                          when)) < 0)
        goto done;
    if (bytes == NULL || total == NULL)
        goto done;
    if ((rc = fill_snapshot(out, bytes, total, when)) < 0) {
        tokio__fullness_snapshot_free(out);
        goto done;
    }
    *found = 1;
done:
    tokio_timeseries_free(bytes);
    tokio_timeseries_free(total);
    return rc;
}
