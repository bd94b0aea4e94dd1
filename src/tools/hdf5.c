/*
 * src/tools/hdf5.c - TOKIO Time Series data by time range across a site's
 * daily files (tokio/tools/hdf5.py in pytokio 0.13).
 */
#include "tokio/tools/hdf5.h"

#include <stdlib.h>
#include <string.h>

#include "tokio/config.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/tools/common.h"
#include "core/alloc.h"
#include "core/error.h"

#define DAY_SECONDS 86400

int
tokio_hdf5_enumerate(char ***paths_out, size_t *n_out,
                     const struct tokio_config *cfg, const char *fsname,
                     int64_t start, int64_t end)
{
    const json_t *tmpl = cfg ? tokio_config_get(cfg, "hdf5_files") : NULL;

    *paths_out = NULL;
    *n_out = 0;
    if (tmpl == NULL)
        return tokio__error(TOKIO_EINVAL, "the site configuration has no "
                            "hdf5_files");
    return tokio_enumerate_dated_files(paths_out, n_out, start, end, tmpl,
                                       fsname, 1, DAY_SECONDS, 0);
}

void
tokio_hdf5_file_ranges_free(struct tokio_hdf5_file_range *r, size_t n)
{
    for (size_t i = 0; r != NULL && i < n; i++)
        free(r[i].path);
    free(r);
}

/* The rows of `dataset` in `path` that [start, end) covers. */
static int
range_of(const char *path, const char *dataset, int64_t start, int64_t end,
         int64_t *first, int64_t *last, int *reaches_end)
{
    struct tokio_hdf5 *h;
    int64_t *t = NULL;
    size_t n;
    int rc;

    *first = 0;
    *last = -1;
    *reaches_end = 0;
    if ((rc = tokio_hdf5_open(&h, path, 0)) < 0)
        return rc;
    if ((rc = tokio_hdf5_get_timestamps(h, dataset, &t, &n)) >= 0 && n == 0)
        rc = tokio__error(TOKIO_EFORMAT, "'%s': '%s' has no timestamps", path,
                          dataset);
    if (rc >= 0 && t[0] <= start)
        rc = tokio_hdf5_get_index(h, dataset, start, first);
    if (rc >= 0 && t[n - 1] >= end) {
        rc = tokio_hdf5_get_index(h, dataset, end, last);
        *last -= 1;     /* end is exclusive */
        *reaches_end = 1;
    }
    free(t);
    tokio_hdf5_free(h);
    return rc;
}

int
tokio_hdf5_get_files_and_indices(struct tokio_hdf5_file_range **out,
                                 size_t *n_out,
                                 const struct tokio_config *cfg,
                                 const char *fsname, const char *dataset,
                                 int64_t start, int64_t end)
{
    struct tokio_hdf5_file_range *r = NULL;
    char **paths;
    size_t n, k = 0;
    int rc;

    *out = NULL;
    *n_out = 0;
    if ((rc = tokio_hdf5_enumerate(&paths, &n, cfg, fsname, start, end)) < 0)
        return rc;
    if (n > 0 && (r = tokio__calloc(n, sizeof(*r))) == NULL)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory listing '%s'", fsname);
    for (size_t i = 0; rc >= 0 && i < n; i++) {
        int64_t first, last;
        int reaches_end;
        if ((rc = range_of(paths[i], dataset, start, end, &first, &last,
                           &reaches_end)) < 0)
            break;
        /* `end` falls on the file's first row: nothing of it is wanted
         * (the reference's `continue`) */
        if (reaches_end && last < 0)
            continue;
        r[k].path = paths[i];
        paths[i] = NULL;
        r[k].first = first;
        r[k].last = last;
        k++;
    }
    tokio_free_strings(paths, n);
    if (rc < 0) {
        tokio_hdf5_file_ranges_free(r, k);
        return rc;
    }
    *out = r;
    *n_out = k;
    return TOKIO_OK;
}

/* ---- one series over a time range ------------------------------------- */

static int
cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return (x > y) - (x < y);
}

/* Index of `t` in the sorted `v`. */
static size_t
find_i64(const int64_t *v, size_t n, int64_t t)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Rows of every slice merged over the union of their timestamps. */
static int
merge(struct tokio_timeseries **out, struct tokio_timeseries **parts,
      size_t n_parts, const char *dataset, int64_t start, int64_t end)
{
    struct tokio_timeseries *first = parts[0], *res = NULL;
    size_t total = 0, n = 0, cols = tokio_timeseries_cols(first);
    size_t names = tokio_timeseries_n_names(first);
    int64_t *t = NULL;
    long *map = NULL;
    int rc = TOKIO_OK;

    for (size_t p = 0; p < n_parts; p++)
        total += tokio_timeseries_rows(parts[p]);
    if ((t = tokio__malloc((total + 1) * sizeof(*t))) == NULL
        || (map = tokio__malloc((cols + 1) * sizeof(*map))) == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory merging '%s'",
                          dataset);
        goto done;
    }
    for (size_t p = 0; p < n_parts; p++) {
        const int64_t *pt = tokio_timeseries_timestamps(parts[p]);
        for (size_t r = 0; r < tokio_timeseries_rows(parts[p]); r++)
            if (pt[r] >= start && pt[r] < end)
                t[n++] = pt[r];
    }
    qsort(t, n, sizeof(*t), cmp_i64);
    total = n;
    n = 0;
    for (size_t i = 0; i < total; i++)
        if (n == 0 || t[i] != t[n - 1])
            t[n++] = t[i];
    if ((rc = tokio_timeseries_new_rows(&res, dataset, t, n, cols)) < 0)
        goto done;
    tokio_timeseries_set_timestep(res, tokio_timeseries_timestep(first));
    {
        const char **cn = tokio__calloc(names + 1, sizeof(*cn));
        if (cn == NULL) {
            rc = tokio__error(TOKIO_ENOMEM, "out of memory merging '%s'",
                              dataset);
            goto done;
        }
        for (size_t c = 0; c < names; c++)
            cn[c] = tokio_timeseries_column(first, c);
        rc = tokio_timeseries_set_columns(res, cn, names);
        free(cn);
    }
    if (rc < 0
        || (rc = tokio_timeseries_set_version(res,
                                    tokio_timeseries_version(first))) < 0
        || (rc = tokio_timeseries_set_global_version(res,
                                    tokio_timeseries_global_version(first)))
           < 0)
        goto done;
    if (json_object_update(tokio_timeseries_dataset_metadata(res),
                           tokio_timeseries_dataset_metadata(first)) < 0
        || json_object_update(tokio_timeseries_group_metadata(res),
                              tokio_timeseries_group_metadata(first)) < 0) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory merging '%s'",
                          dataset);
        goto done;
    }
    for (size_t p = 0; p < n_parts; p++) {
        struct tokio_timeseries *ts = parts[p];
        const int64_t *pt = tokio_timeseries_timestamps(ts);
        const double *src = tokio_timeseries_cdata(ts);
        double *dst = tokio_timeseries_data(res);
        size_t pc = tokio_timeseries_cols(ts);
        /* the columns of `ts` by the first file's names (by position
         * where the first names none) */
        for (size_t c = 0; c < cols; c++) {
            const char *name = tokio_timeseries_column(first, c);
            map[c] = name ? tokio_timeseries_column_index(ts, name)
                          : (c < pc ? (long)c : -1);
        }
        for (size_t r = 0; r < tokio_timeseries_rows(ts); r++) {
            size_t row;
            if (pt[r] < start || pt[r] >= end)
                continue;
            row = find_i64(t, n, pt[r]);
            for (size_t c = 0; c < cols; c++)
                dst[row * cols + c] = map[c] >= 0 ? src[r * pc + map[c]]
                                                  : -0.0;
        }
    }
done:
    free(t);
    free(map);
    if (rc < 0) {
        tokio_timeseries_free(res);
        res = NULL;
    }
    *out = res;
    return rc;
}

int
tokio_hdf5_from_time_range(struct tokio_timeseries **out,
                           const struct tokio_config *cfg, const char *fsname,
                           const char *dataset, int64_t start, int64_t end,
                           unsigned flags)
{
    struct tokio_timeseries **parts = NULL;
    char **paths;
    size_t n, k = 0;
    int rc;

    *out = NULL;
    if ((rc = tokio_hdf5_enumerate(&paths, &n, cfg, fsname, start, end)) < 0
        || n == 0)
        return rc;
    if ((parts = tokio__calloc(n, sizeof(*parts))) == NULL)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", fsname);
    for (; rc >= 0 && k < n; k++) {
        struct tokio_hdf5 *h;
        if ((rc = tokio_hdf5_open(&h, paths[k], 0)) < 0)
            break;
        rc = tokio_hdf5_to_timeseries(h, dataset, &parts[k]);
        tokio_hdf5_free(h);
    }
    if (rc >= 0)
        rc = merge(out, parts, n, dataset, start, end);
    if (rc >= 0 && (flags & TOKIO_HDF5_FIX_ERRORS)) {
        double *d = tokio_timeseries_data(*out);
        size_t cells = tokio_timeseries_rows(*out) * tokio_timeseries_cols(*out);
        for (size_t i = 0; i < cells; i++)
            if (d[i] < 0.0)
                d[i] = -0.0;
    }
    for (size_t i = 0; parts != NULL && i < n; i++)
        tokio_timeseries_free(parts[i]);
    free(parts);
    tokio_free_strings(paths, n);
    return rc;
}
