/*
 * src/tools/archive_mmperfmon.c - GPFS mmperfmon outputs -> TOKIO Time
 * Series HDF5 (the reference's tokio.cli.archive_mmperfmon: Archiver,
 * init_hdf5_file, archive_mmperfmon()); see
 * tokio/tools/archive_mmperfmon.h for what goes where.
 *
 * The dict of the outputs (src/connectors/mmperfmon.c) is walked twice:
 * first to find each dataset's columns, as the reference's
 * init_datasets() sizes its series, then to fill the series.  Every
 * dataset's units are "UNKNOWN": the reference looks its units table up
 * by dataset name, whose keys are counter names.
 *
 * Differs from pytokio: the output is opened to create or append (the
 * reference's h5py-3 failure, see golden COMMANDS.md) and updated all or
 * nothing, in the rows of the query's range and of the data read only
 * (the reference rewrote every row of --init-start..--init-end, so an
 * update of the afternoon erased the morning: issue 17); values of datasets outside the schema are left out with a
 * warning (the reference warned, then raised KeyError); string and null
 * values are left out (numpy raised); with files, a missing init_start
 * or init_end defaults to the data's first or last timestamp even when
 * the other is given.
 */
#include "tokio/tools/archive_mmperfmon.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "tokio/config.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/connectors/mmperfmon.h"
#include "tokio/timeseries.h"
#include "tokio/tools/common.h"
#include "tokio/util.h"
#include "core/alloc.h"
#include "core/error.h"

#define SCHEMA_VERSION "1"
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The reference's COUNTER_MAP */
static const char *const counter_map[][2] = {
    { "gpfs_nsdds_bytes_read", "readbytes" },
    { "gpfs_nsdds_bytes_written", "writebytes" },
    { "gpfs_nsdds_read_ops", "readops" },
    { "gpfs_nsdds_write_ops", "writeops" },
    { "gpfs_fs_bytes_read", "readbytes" },
    { "gpfs_fs_bytes_written", "writebytes" },
    { "gpfs_fs_read_ops", "readops" },
    { "gpfs_fs_write_ops", "writeops" },
    { "cpu_sys", "cpusys" },
    { "cpu_user", "cpuuser" },
    { "mem_free_bytes", "memfree" },
    { "mem_total_bytes", "memtotal" },
    { "net_r_bytes", "netinbytes" },
    { "net_s_bytes", "netoutbytes" },
};

/* The datasets of schema "1" that mmperfmon can fill: the reference's
 * SCHEMA["1"] keys under these groups. */
static const char *const target_sets[] = {
    "readbytes", "writebytes", "readrates", "writerates", "readops",
    "writeops", "readoprates", "writeoprates"
};
static const char *const md_sets[] = {
    "opens", "openrates", "closes", "closerates", "mknods", "mknodrates",
    "links", "linkrates", "unlinks", "unlinkrates", "mkdirs", "mkdirrates",
    "rmdirs", "rmdirrates", "renames", "renamerates", "getxattrs",
    "getxattrrates", "statfss", "statfsrates", "setattrs", "setattrrates",
    "getattrs", "getattrrates"
};
static const char *const server_sets[] = {
    "cpuuser", "cpusys", "cpuidle", "cpuload", "memfree", "memused",
    "memcached", "membuffered", "memslab", "memslab_unrecl", "memtotal",
    "netinbytes", "netoutbytes"
};

static int
in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0)
            return 1;
    return 0;
}

/* 1 if "group/set" is a dataset of schema "1" */
static int
in_schema(const char *name)
{
    const char *set = strchr(name, '/');
    size_t glen = set ? (size_t)(set++ - name) : 0;

    if (set == NULL)
        return 0;
    if ((glen == 11 && memcmp(name, "datatargets", 11) == 0) ||
        (glen == 9 && memcmp(name, "mdtargets", 9) == 0))
        return in_list(set, target_sets, N(target_sets)) ||
               (glen == 9 && in_list(set, md_sets, N(md_sets)));
    if ((glen == 11 && memcmp(name, "dataservers", 11) == 0) ||
        (glen == 9 && memcmp(name, "mdservers", 9) == 0))
        return in_list(set, server_sets, N(server_sets));
    return 0;
}

static const char *
canonical(const char *counter)
{
    for (size_t i = 0; i < N(counter_map); i++)
        if (strcmp(counter, counter_map[i][0]) == 0)
            return counter_map[i][1];
    return counter;
}

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory archiving mmperfmon "
                        "data");
}

/* A site config map of regular expression -> type, in the config's
 * order, with the types of the names asked so far. */
struct typemap {
    pcre2_code **re;
    const char **type;      /* borrowed from the config */
    size_t n;
    json_t *seen;           /* name -> its type, "" for none */
};

struct dataset {
    char *name;             /* "mdservers/cpuuser" */
    json_t *cols;           /* its column names, first seen first */
    struct tokio_timeseries *ts;
};

struct archiver {
    struct typemap luns, servers;
    pcre2_match_data *md;
    json_t *index;          /* dataset name -> index in sets, or -1 */
    struct dataset *sets;
    size_t nsets, capsets;
    json_t *warnings;
    int filling;            /* second walk: values into the series */
    /* the rows of the series the data fills, first and past the last:
     * only they and the query's are committed, so that an update of
     * one range leaves the rows of others as they are */
    int64_t t0, step;
    size_t rows, lo, hi;
};

static void
typemap_free(struct typemap *t)
{
    for (size_t i = 0; i < t->n; i++)
        pcre2_code_free(t->re[i]);
    free(t->re);
    free(t->type);
    json_decref(t->seen);
}

static int
typemap_load(struct typemap *t, const struct tokio_config *cfg,
             const char *key)
{
    const json_t *map = tokio_config_get(cfg, key), *v;
    const char *pattern;
    size_t n = map ? json_object_size(map) : 0;

    if ((t->seen = json_object()) == NULL ||
        (t->re = tokio__calloc(n + 1, sizeof(*t->re))) == NULL ||
        (t->type = tokio__calloc(n + 1, sizeof(*t->type))) == NULL)
        return oom();
    if (map == NULL)
        return TOKIO_OK;
    if (!json_is_object(map))
        return tokio__error(TOKIO_EINVAL, "site config '%s': not an object "
                            "of regular expression -> type", key);
    json_object_foreach((json_t *)map, pattern, v) {
        PCRE2_UCHAR msg[256];
        PCRE2_SIZE off;
        int err;

        if (!json_is_string(v))
            return tokio__error(TOKIO_EINVAL, "site config '%s' '%s': the "
                                "type is not a string", key, pattern);
        t->re[t->n] = pcre2_compile((PCRE2_SPTR)pattern,
                                    PCRE2_ZERO_TERMINATED, 0, &err, &off,
                                    NULL);
        if (t->re[t->n] == NULL) {
            pcre2_get_error_message(err, msg, sizeof(msg));
            return tokio__error(TOKIO_EINVAL, "site config '%s': bad regular "
                                "expression '%s' at %zu: %s", key, pattern,
                                (size_t)off, (const char *)msg);
        }
        t->type[t->n++] = json_string_value(v);
    }
    return TOKIO_OK;
}

/* The type of `name`: the first expression matching at its start, else
 * `fallback`; NULL when out of memory. */
static const char *
type_of(struct archiver *a, struct typemap *t, const char *name,
        const char *fallback)
{
    json_t *known = json_object_get(t->seen, name);
    const char *type = "";

    if (known == NULL) {
        for (size_t k = 0; k < t->n && type[0] == '\0'; k++)
            if (pcre2_match(t->re[k], (PCRE2_SPTR)name, PCRE2_ZERO_TERMINATED,
                            0, PCRE2_ANCHORED, a->md, NULL) >= 0)
                type = t->type[k];
        if (json_object_set_new(t->seen, name, known = json_string(type)) < 0)
            return oom(), NULL;
    }
    type = json_string_value(known);
    return type[0] != '\0' ? type : fallback;
}

/* Index of dataset `name`, added if new; -1 outside the schema, -2 out
 * of memory. */
static long
dataset_of(struct archiver *a, const char *name)
{
    const json_t *known = json_object_get(a->index, name);
    char msg[600];
    long i = -1;

    if (known != NULL)
        return (long)json_integer_value(known);
    if (!in_schema(name)) {
        snprintf(msg, sizeof(msg), "skipping %s (not in schema)", name);
        if (json_array_append_new(a->warnings, json_string(msg)) < 0)
            return -2;
    } else {
        struct dataset *d;

        if (a->nsets == a->capsets) {
            size_t cap = a->capsets ? 2 * a->capsets : 16;
            if ((d = tokio__reallocarray(a->sets, cap, sizeof(*d))) == NULL)
                return -2;
            a->sets = d;
            a->capsets = cap;
        }
        d = &a->sets[a->nsets];
        memset(d, 0, sizeof(*d));
        if ((d->name = tokio__strdup(name)) == NULL ||
            (d->cols = json_object()) == NULL) {
            free(d->name);
            return -2;
        }
        i = (long)a->nsets++;
    }
    return json_object_set_new(a->index, name, json_integer(i)) < 0 ? -2 : i;
}

/* Note column `col` of dataset `name`, or (when filling) store `value`. */
static int
place(struct archiver *a, const char *name, const char *col, int64_t t,
      double value, enum tokio_ts_reducer reducer)
{
    long i = dataset_of(a, name);
    struct dataset *d;
    int rc;

    if (i == -2)
        return oom();
    if (i < 0)
        return TOKIO_OK;
    d = &a->sets[i];
    if (!a->filling)
        return json_object_get(d->cols, col) != NULL ||
               json_object_set_new(d->cols, col, json_null()) == 0
               ? TOKIO_OK : oom();
    rc = tokio_timeseries_insert_element(d->ts, t, col, value, reducer,
                                         TOKIO_TS_RIGHT);
    return rc < 0 ? rc : TOKIO_OK;
}

/* "a" sep "b" into `buf` of `size` (snprintf() is slower than the rest
 * of a value's way); TOKIO_EINVAL naming host and counter when it does
 * not fit: a dataset name or column longer than any real one. */
static int
join(char *buf, size_t size, const char *a, const char *sep, const char *b,
     const char *host, const char *counter)
{
    size_t la = strlen(a), ls = strlen(sep), lb = strlen(b);

    if (la + ls + lb >= size)
        return tokio__error(TOKIO_EINVAL, "the names of host '%.40s...' and "
                            "counter '%.40s...' are too long for a dataset "
                            "or column", host, counter);
    memcpy(buf, a, la);
    memcpy(buf + la, sep, ls);
    memcpy(buf + la + ls, b, lb + 1);
    return TOKIO_OK;
}

/* One value of the dict where it belongs. */
static int
visit(struct archiver *a, int64_t t, const char *host, const char *counter,
      const char *device, const json_t *v)
{
    const char *type, *canon = canonical(counter);
    char name[512], col[1024];
    double x;
    int rc;

    /* numpy cannot hold text or None; True is 1.0 */
    if (!json_is_number(v) && !json_is_boolean(v))
        return TOKIO_OK;
    x = json_is_number(v) ? json_number_value(v) : json_is_true(v);
    if (device != NULL) {
        if ((type = type_of(a, &a->luns, device, "")) == NULL)
            return TOKIO_ENOMEM;
        if (type[0] == '\0')
            return TOKIO_OK;    /* no LUN: e.g. a network interface */
        if ((rc = join(name, sizeof(name), type, "s/", canon, host,
                       counter)) < 0 ||
            (rc = join(col, sizeof(col), host, ":", device, host,
                       counter)) < 0)
            return rc;
        return place(a, name, col, t, x, TOKIO_TS_REPLACE);
    }
    if ((type = type_of(a, &a->servers, host, "dataserver")) == NULL)
        return TOKIO_ENOMEM;
    if ((rc = join(name, sizeof(name), type, "s/", canon, host, counter)) < 0
        || (rc = join(col, sizeof(col), host, "", "", host, counter)) < 0 ||
        (rc = place(a, name, col, t, x, TOKIO_TS_REPLACE)) < 0 ||
        strcmp(canon, "cpuuser") != 0 ||
        (rc = join(name, sizeof(name), type, "s/", "cpuload", host,
                   counter)) < 0)
        return rc;
    return place(a, name, col, t, x, TOKIO_TS_SUM);
}

/* Floor of a / b (b > 0), as Python's //. */
static int64_t
floor_div(int64_t a, int64_t b)
{
    return a / b - (a % b != 0 && a < 0);
}

/* Widen a->lo..a->hi by the row a value at `t` fills (right-aligned: a
 * timestamp ends the interval it measured). */
static void
note_row(struct archiver *a, int64_t t)
{
    int64_t row = floor_div(t - a->t0, a->step) - 1;

    if (row < 0 || (uint64_t)row >= a->rows)
        return;
    if ((size_t)row < a->lo)
        a->lo = (size_t)row;
    if ((size_t)row + 1 > a->hi)
        a->hi = (size_t)row + 1;
}

/* Every value of the dict, in its order. */
static int
walk(struct archiver *a, const json_t *dict)
{
    const char *tkey, *host, *counter, *dev;
    json_t *hosts, *counters, *v, *dv;
    int rc;

    json_object_foreach((json_t *)dict, tkey, hosts) {
        int64_t t = strtoll(tkey, NULL, 10);

        if (a->filling)
            note_row(a, t);

        json_object_foreach(hosts, host, counters)
            json_object_foreach(counters, counter, v) {
                if (!json_is_object(v)) {
                    if ((rc = visit(a, t, host, counter, NULL, v)) < 0)
                        return rc;
                    continue;
                }
                json_object_foreach(v, dev, dv)
                    if ((rc = visit(a, t, host, counter, dev, dv)) < 0)
                        return rc;
            }
    }
    return TOKIO_OK;
}

/* One empty series per dataset, its columns sorted naturally. */
static int
make_series(struct archiver *a, int64_t start, int64_t end, int64_t step)
{
    for (size_t i = 0; i < a->nsets; i++) {
        struct dataset *d = &a->sets[i];
        size_t n = json_object_size(d->cols), k = 0;
        const char **names = tokio__calloc(n + 1, sizeof(*names));
        char path[600];
        const char *col;
        json_t *v;
        int rc;

        if (names == NULL)
            return oom();
        json_object_foreach(d->cols, col, v)
            names[k++] = col;
        snprintf(path, sizeof(path), "/%s", d->name);
        /* sorted before, as tokio_timeseries_sort_columns() sorts: its
         * swaps cost more than the filling (src/core/timeseries.c) */
        if ((rc = tokio_sort_nodenames(names, n, 0)) >= 0)
            rc = tokio_timeseries_new(&d->ts, path, start, end, step, n,
                                      names, n);
        free(names);
        if (rc < 0)
            return rc;
    }
    return TOKIO_OK;
}

/* Percents, and the metadata every dataset carries. */
static int
finalize(struct archiver *a)
{
    for (size_t i = 0; i < a->nsets; i++) {
        struct dataset *d = &a->sets[i];
        size_t len = strlen(d->name);
        json_t *meta = tokio_timeseries_dataset_metadata(d->ts);

        if ((len >= 7 && strcmp(d->name + len - 7, "cpuuser") == 0) ||
            (len >= 6 && strcmp(d->name + len - 6, "cpusys") == 0)) {
            double *x = tokio_timeseries_data(d->ts);
            size_t n = tokio_timeseries_rows(d->ts) *
                       tokio_timeseries_cols(d->ts);

            for (size_t k = 0; k < n; k++)
                x[k] *= 100.0;
        }
        if (json_object_set_new(meta, "version", json_string(SCHEMA_VERSION))
            || json_object_set_new(meta, "units", json_string("UNKNOWN")) ||
            json_object_set_new(tokio_timeseries_group_metadata(d->ts),
                                "source", json_string("mmperfmon")))
            return oom();
    }
    return TOKIO_OK;
}

/* Missing datasets made empty over [init_start, init_end), then the rows
 * of each series the query or the data covers committed into place (the
 * rest of the file is left as it is: two updates of different ranges
 * both land); all or nothing. */
static int
write_file(const struct archiver *a, const char *output, int64_t init_start,
           int64_t init_end, int64_t timestep)
{
    struct tokio_hdf5_update *u = NULL;
    int rc;

    if ((rc = tokio_hdf5_update_begin(&u, output)) < 0)
        return rc;
    rc = tokio_hdf5_update_set_version(u, SCHEMA_VERSION);
    for (size_t i = 0; rc >= 0 && i < a->nsets; i++)
        rc = tokio_hdf5_update_init_dataset(
            u, a->sets[i].name, init_start, init_end, timestep,
            tokio_timeseries_cols(a->sets[i].ts));
    for (size_t i = 0; rc >= 0 && a->lo < a->hi && i < a->nsets; i++) {
        struct tokio_timeseries *ts = a->sets[i].ts;
        struct tokio_hdf5_rows *w;
        size_t n = a->hi - a->lo;

        if ((rc = tokio_hdf5_update_commit_begin(
                 u, ts, tokio_timeseries_timestamps(ts)[a->lo], n, &w)) < 0)
            break;
        /* the cells after commit_begin(), which may reorder the columns
         * as the file has them */
        rc = tokio_hdf5_rows_write(w, 0, tokio_timeseries_cdata(ts) +
                                   a->lo * tokio_timeseries_cols(ts), n);
        if (tokio_hdf5_rows_end(w) < 0 && rc >= 0)
            rc = TOKIO_EIO;
    }
    if (rc < 0) {
        tokio_hdf5_update_abort(u);
        return rc;
    }
    return tokio_hdf5_update_finish(u);
}

/* The input files: args->files, else the site's dated files. */
static int
find_inputs(const struct tokio_config *cfg,
            const struct tokio_archive_mmperfmon_args *args, char ***paths,
            size_t *n)
{
    const json_t *tmpl = tokio_config_get(cfg, "mmperfmon_output_files");
    int rc;

    if (args->nfiles > 0) {
        if ((*paths = tokio__calloc(args->nfiles, sizeof(**paths))) == NULL)
            return oom();
        for (*n = 0; *n < args->nfiles; (*n)++)
            if (((*paths)[*n] = tokio__strdup(args->files[*n])) == NULL)
                return oom();
        return TOKIO_OK;
    }
    if (tmpl == NULL)
        return tokio__error(TOKIO_EINVAL, "the site config has no "
                            "mmperfmon_output_files");
    if ((rc = tokio_enumerate_dated_files(paths, n, args->start, args->end,
                                          tmpl, args->filesystem, 0, 3600,
                                          1)) < 0)
        return rc;
    if (*n == 0)
        return tokio__error(TOKIO_ENOTFOUND, "no input files of '%s' match "
                            "the query range", args->filesystem);
    return TOKIO_OK;
}

/* All the inputs in one dict, in order. */
static int
read_inputs(const struct tokio_config *cfg,
            const struct tokio_archive_mmperfmon_args *args,
            struct tokio_mmperfmon **m)
{
    char **paths = NULL;
    size_t n = 0;
    int rc = find_inputs(cfg, args, &paths, &n);

    for (size_t i = 0; rc >= 0 && i < n; i++) {
        if (args->log != NULL)
            fprintf(args->log, "Loading %s\n", paths[i]);
        rc = i == 0 ? tokio_mmperfmon_open(m, paths[i])
                    : tokio_mmperfmon_add(*m, paths[i]);
    }
    tokio_free_strings(paths, n);
    return rc;
}

/* The span of new datasets: as given, else the query's, else the data's. */
static int
init_span(const struct tokio_archive_mmperfmon_args *args,
          const json_t *dict, int64_t *start, int64_t *end)
{
    const char *tkey;
    json_t *v;

    *start = args->nfiles > 0 ? INT64_MAX : args->start;
    *end = args->nfiles > 0 ? INT64_MIN : args->end;
    if (args->nfiles > 0) {
        if (json_object_size(dict) == 0)
            return args->nfiles == 1
                ? tokio__error(TOKIO_ENOTFOUND, "'%s': no mmperfmon data "
                               "in it", args->files[0])
                : tokio__error(TOKIO_ENOTFOUND, "'%s' and the %zu other "
                               "input files: no mmperfmon data in them",
                               args->files[0], args->nfiles - 1);
        json_object_foreach((json_t *)dict, tkey, v) {
            int64_t t = strtoll(tkey, NULL, 10);
            *start = t < *start ? t : *start;
            *end = t > *end ? t : *end;
        }
    }
    if (args->init_start != TOKIO_ARCHIVE_MMPERFMON_DEFAULT)
        *start = args->init_start;
    if (args->init_end != TOKIO_ARCHIVE_MMPERFMON_DEFAULT)
        *end = args->init_end;
    if (*start >= *end)
        return tokio__error(TOKIO_EINVAL, "the first timestamp of new "
                            "datasets must come before their end");
    /* the series below hold every row of the span: bounded first */
    uint64_t span = (uint64_t)*end - (uint64_t)*start;
    uint64_t step = (uint64_t)args->timestep;
    if (span / step + (span % step != 0) > TOKIO_HDF5_MAX_ROWS)
        return tokio__error(TOKIO_EINVAL, "archiving into '%s': new datasets "
                            "would span more than the %zu rows of %" PRId64
                            " s a file may hold", args->output,
                            TOKIO_HDF5_MAX_ROWS, args->timestep);
    return TOKIO_OK;
}

/* The rows of the query's range (none with files): committed even where
 * the data has nothing, as missing. */
static void
query_rows(struct archiver *a, const struct tokio_archive_mmperfmon_args *args,
           int64_t start)
{
    a->t0 = start;
    a->step = args->timestep;
    a->rows = tokio_timeseries_rows(a->sets[0].ts);
    a->lo = a->rows;
    a->hi = 0;
    if (args->nfiles > 0)
        return;
    int64_t lo = floor_div(args->start - start, a->step);
    int64_t hi = -floor_div(start - args->end, a->step);   /* ceiling */
    lo = lo < 0 ? 0 : lo;
    hi = hi > (int64_t)a->rows ? (int64_t)a->rows : hi;
    if (lo < hi) {
        a->lo = (size_t)lo;
        a->hi = (size_t)hi;
    }
}

static void
archiver_free(struct archiver *a)
{
    typemap_free(&a->luns);
    typemap_free(&a->servers);
    for (size_t i = 0; i < a->nsets; i++) {
        free(a->sets[i].name);
        json_decref(a->sets[i].cols);
        tokio_timeseries_free(a->sets[i].ts);
    }
    free(a->sets);
    json_decref(a->index);
    pcre2_match_data_free(a->md);
}

int
tokio_archive_mmperfmon(const struct tokio_config *cfg,
                        const struct tokio_archive_mmperfmon_args *args,
                        json_t **warnings_out)
{
    struct archiver a = { .warnings = json_array(), .index = json_object(),
                          .md = pcre2_match_data_create(1, NULL) };
    struct tokio_mmperfmon *m = NULL;
    json_t *dict = NULL;
    int64_t start = 0, end = 0;
    int rc = TOKIO_OK;

    if (args->timestep <= 0)
        rc = tokio__error(TOKIO_EINVAL, "the timestep must be > 0");
    else if (a.warnings == NULL || a.index == NULL || a.md == NULL)
        rc = oom();
    if (rc >= 0)
        rc = typemap_load(&a.luns, cfg, "mmperfmon_lun_map");
    if (rc >= 0)
        rc = typemap_load(&a.servers, cfg, "mmperfmon_server_map");
    if (rc >= 0 && (rc = read_inputs(cfg, args, &m)) >= 0) {
        tokio_mmperfmon_to_json(m, &dict);
        rc = init_span(args, dict, &start, &end);
    }
    if (rc >= 0)
        rc = walk(&a, dict);
    if (rc >= 0)
        rc = make_series(&a, start, end, args->timestep);
    if (rc >= 0 && a.nsets > 0)
        query_rows(&a, args, start);
    a.filling = 1;
    if (rc >= 0)
        rc = walk(&a, dict);
    if (rc >= 0)
        rc = finalize(&a);
    if (rc >= 0)
        rc = write_file(&a, args->output, start, end, args->timestep);
    if (warnings_out != NULL)
        *warnings_out = json_incref(a.warnings);
    json_decref(a.warnings);
    json_decref(dict);
    tokio_mmperfmon_free(m);
    archiver_free(&a);
    return rc;
}
