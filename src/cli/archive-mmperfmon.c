/*
 * src/cli/archive-mmperfmon.c - `tokio archive-mmperfmon`: GPFS mmperfmon
 * outputs -> TOKIO Time Series HDF5 (the reference's archive_mmperfmon).
 *
 * The input files are those the site config's mmperfmon_output_files
 * names for --filesystem, hour by hour from <start> to <end>, all merged.
 * Each value goes to a dataset named after what it measures:
 *  - a counter of a device (a LUN) to "<type>s/<counter>", the type being
 *    the value of the first mmperfmon_lun_map regular expression that
 *    matches the device's name at its start (devices matching none, such
 *    as network interfaces, are left out), in column "host:device";
 *  - any other counter to "<type>s/<counter>", the type being the first
 *    match in mmperfmon_server_map of the host name, else "dataserver",
 *    in column "host"; cpu_user also adds into "<type>s/cpuload".
 * Counters are renamed as the reference's COUNTER_MAP does
 * (gpfs_nsdds_bytes_read -> readbytes, mem_free_bytes -> memfree, ...).
 * Each dataset has as many columns as it has distinct names, sorted
 * naturally, over --init-start..--init-end (default <start>..<end>) every
 * --timestep seconds; a value at time t fills the row of t - timestep
 * (mmperfmon's timestamp ends the interval it measured).  cpuuser and
 * cpusys become percents (cpuload stays the plain sum, as in the
 * reference); every dataset's units are "UNKNOWN" (the reference looks
 * its units table up by dataset name, whose keys are counter names).
 *
 * The HDF5 file is created or updated all or nothing: missing datasets
 * are first created empty, then each series is committed into place, so
 * archiving the same data again changes nothing.
 *
 * Differs from pytokio: the output is opened to create or append (the
 * reference's h5py-3 failure, see golden COMMANDS.md); values of datasets
 * outside the schema are left out with a warning (the reference warned,
 * then raised KeyError); string and null values are left out (numpy
 * raised); --files works without <start> <end> (the reference demanded
 * both and then refused them together), taking the data's first and last
 * timestamps as the defaults of --init-start and --init-end, and is
 * repeated for several files; --num-luns and --num-servers are accepted
 * and ignored, as they were; no "Initialized"/"Writing out" lines.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/config.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/connectors/mmperfmon.h"
#include "tokio/time.h"
#include "tokio/timeseries.h"
#include "tokio/tools/common.h"
#include "tokio/util.h"

#define SCHEMA_VERSION "1"

static const char *const usage[] = {
    "tokio archive-mmperfmon --filesystem <fs> [-o <file>] "
    "[--init-start <time>] [--init-end <time>] [--timestep <s>] "
    "<start> <end>",
    "tokio archive-mmperfmon --filesystem <fs> --files <file> "
    "[--files <file>]... [-o <file>] [--init-start <time>] "
    "[--init-end <time>] [--timestep <s>]",
    NULL
};

static const char description[] =
    "Archive the GPFS mmperfmon outputs of file system <fs> from <start>\n"
    "to <end> (YYYY-MM-DDTHH:MM:SS, local time; the files are those the\n"
    "site config's mmperfmon_output_files names) into the TOKIO Time\n"
    "Series HDF5 file -o (default output.hdf5), creating it, or its\n"
    "missing datasets, over --init-start..--init-end.  LUNs and servers\n"
    "are told apart by mmperfmon_lun_map and mmperfmon_server_map.";

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

/* The groups and datasets of schema "1" that mmperfmon can fill: the
 * reference's SCHEMA["1"] keys under these groups. */
static const char *const schema_groups[] = {
    "datatargets", "mdtargets", "dataservers", "mdservers"
};
static const char *const schema_target_sets[] = {
    "readbytes", "writebytes", "readrates", "writerates", "readops",
    "writeops", "readoprates", "writeoprates"
};
static const char *const schema_md_sets[] = {
    "opens", "openrates", "closes", "closerates", "mknods", "mknodrates",
    "links", "linkrates", "unlinks", "unlinkrates", "mkdirs", "mkdirrates",
    "rmdirs", "rmdirrates", "renames", "renamerates", "getxattrs",
    "getxattrrates", "statfss", "statfsrates", "setattrs", "setattrrates",
    "getattrs", "getattrrates"
};
static const char *const schema_server_sets[] = {
    "cpuuser", "cpusys", "cpuidle", "cpuload", "memfree", "memused",
    "memcached", "membuffered", "memslab", "memslab_unrecl", "memtotal",
    "netinbytes", "netoutbytes"
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

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
    const char *slash = strchr(name, '/');
    size_t glen;

    if (slash == NULL)
        return 0;
    glen = (size_t)(slash - name);
    for (size_t g = 0; g < N(schema_groups); g++) {
        if (strlen(schema_groups[g]) != glen ||
            memcmp(name, schema_groups[g], glen) != 0)
            continue;
        if (g < 2)
            return in_list(slash + 1, schema_target_sets,
                           N(schema_target_sets)) ||
                   (g == 1 && in_list(slash + 1, schema_md_sets,
                                      N(schema_md_sets)));
        return in_list(slash + 1, schema_server_sets,
                       N(schema_server_sets));
    }
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

/* ---- a small string -> int map ---------------------------------------- */

struct smap {
    char **keys;
    int *vals;
    size_t n, cap;
    size_t *slots;          /* index + 1, 0 empty */
    size_t nslots;
};

static size_t
shash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return (size_t)(h ^ (h >> 29));
}

/* index of `key`, or -1 */
static long
smap_find(const struct smap *m, const char *key)
{
    if (m->nslots == 0)
        return -1;
    for (size_t i = shash(key) & (m->nslots - 1); m->slots[i] != 0;
         i = (i + 1) & (m->nslots - 1))
        if (strcmp(m->keys[m->slots[i] - 1], key) == 0)
            return (long)m->slots[i] - 1;
    return -1;
}

/* add `key` (absent) with `val`; its index, or -1 when out of memory */
static long
smap_add(struct smap *m, const char *key, int val)
{
    if ((m->n + 1) * 2 > m->nslots) {
        size_t n = m->nslots ? m->nslots * 2 : 64;
        size_t *slots = calloc(n, sizeof(*slots));

        if (slots == NULL)
            return -1;
        for (size_t k = 0; k < m->n; k++) {
            size_t i = shash(m->keys[k]) & (n - 1);

            while (slots[i] != 0)
                i = (i + 1) & (n - 1);
            slots[i] = k + 1;
        }
        free(m->slots);
        m->slots = slots;
        m->nslots = n;
    }
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        char **keys = realloc(m->keys, cap * sizeof(*keys));

        if (keys == NULL)
            return -1;
        m->keys = keys;
        int *vals = realloc(m->vals, cap * sizeof(*vals));
        if (vals == NULL)
            return -1;
        m->vals = vals;
        m->cap = cap;
    }
    if ((m->keys[m->n] = strdup(key)) == NULL)
        return -1;
    m->vals[m->n] = val;
    size_t i = shash(key) & (m->nslots - 1);
    while (m->slots[i] != 0)
        i = (i + 1) & (m->nslots - 1);
    m->slots[i] = m->n + 1;
    return (long)m->n++;
}

static void
smap_free(struct smap *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    free(m->slots);
    memset(m, 0, sizeof(*m));
}

/* ---- the archiver ----------------------------------------------------- */

/* A config map of regular expression -> type, in the config's order. */
struct typemap {
    pcre2_code **re;
    const char **type;
    size_t n;
    struct smap cache;      /* name -> index of its type, -1 none */
};

struct dataset {
    char *name;             /* "mdservers/cpuuser" */
    struct smap cols;       /* column names, in order of appearance */
    struct tokio_timeseries *ts;
};

struct archiver {
    const char *cmd;
    struct typemap luns, servers;
    struct dataset *sets;
    size_t nsets, capsets;
    struct smap setmap;     /* name -> index in sets; -1: outside schema */
    pcre2_match_data *md;
    int64_t min_ts, max_ts;
    int any, oom, filling, too_long;
};

static void
typemap_free(struct typemap *t)
{
    for (size_t i = 0; i < t->n; i++)
        pcre2_code_free(t->re[i]);
    free(t->re);
    free(t->type);
    smap_free(&t->cache);
}

static int
typemap_load(struct archiver *a, struct typemap *t,
             const struct tokio_config *cfg, const char *key)
{
    const json_t *map = tokio_config_get(cfg, key), *v;
    const char *pattern;
    size_t n = 0;

    if (map == NULL)
        return 0;
    if (!json_is_object(map))
        return cli_fail(a->cmd, "site config '%s': not an object of "
                        "regular expression -> type", key), -1;
    t->re = calloc(json_object_size(map) + 1, sizeof(*t->re));
    t->type = calloc(json_object_size(map) + 1, sizeof(*t->type));
    if (t->re == NULL || t->type == NULL)
        return cli_fail(a->cmd, "out of memory"), -1;
    json_object_foreach((json_t *)map, pattern, v) {
        int err;
        PCRE2_SIZE off;

        if (!json_is_string(v))
            return cli_fail(a->cmd, "site config '%s' '%s': the type is "
                            "not a string", key, pattern), -1;
        t->re[n] = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                                 0, &err, &off, NULL);
        if (t->re[n] == NULL) {
            PCRE2_UCHAR msg[256];

            pcre2_get_error_message(err, msg, sizeof(msg));
            return cli_fail(a->cmd, "site config '%s': bad regular "
                            "expression '%s' at %zu: %s", key, pattern,
                            (size_t)off, (const char *)msg), -1;
        }
        t->type[n++] = json_string_value(v);
        t->n = n;
    }
    return 0;
}

/* The type of `name`: the first expression matching at its start, else
 * `fallback`; NULL when out of memory (a->oom set). */
static const char *
type_of(struct archiver *a, struct typemap *t, const char *name,
        const char *fallback)
{
    long i = smap_find(&t->cache, name);
    int found = -1;

    if (i >= 0)
        return t->cache.vals[i] >= 0 ? t->type[t->cache.vals[i]] : fallback;
    for (size_t k = 0; k < t->n && found < 0; k++)
        if (pcre2_match(t->re[k], (PCRE2_SPTR)name, PCRE2_ZERO_TERMINATED,
                        0, PCRE2_ANCHORED, a->md, NULL) >= 0)
            found = (int)k;
    if (smap_add(&t->cache, name, found) < 0) {
        a->oom = 1;
        return NULL;
    }
    return found >= 0 ? t->type[found] : fallback;
}

/* Index of dataset `name`, added if new; -1 outside the schema, -2 out
 * of memory. */
static long
dataset_of(struct archiver *a, const char *name)
{
    long i = smap_find(&a->setmap, name);

    if (i >= 0)
        return a->setmap.vals[i];
    if (!in_schema(name)) {
        fprintf(stderr, "tokio %s: warning: skipping %s (not in schema)\n",
                a->cmd, name);
        return smap_add(&a->setmap, name, -1) < 0 ? -2 : -1;
    }
    if (a->nsets == a->capsets) {
        size_t cap = a->capsets ? a->capsets * 2 : 16;
        struct dataset *sets = realloc(a->sets, cap * sizeof(*sets));

        if (sets == NULL)
            return -2;
        a->sets = sets;
        a->capsets = cap;
    }
    memset(&a->sets[a->nsets], 0, sizeof(a->sets[0]));
    if ((a->sets[a->nsets].name = strdup(name)) == NULL ||
        smap_add(&a->setmap, name, (int)a->nsets) < 0)
        return -2;
    return (long)a->nsets++;
}

/* Note column `col` of dataset `name`, or (when filling) store `value`. */
static int
place(struct archiver *a, const char *name, const char *col, int64_t t,
      double value, enum tokio_ts_reducer reducer)
{
    long i = dataset_of(a, name);
    struct dataset *d;
    int rc;

    if (i == -2) {
        a->oom = 1;
        return TOKIO_ENOMEM;
    }
    if (i < 0)
        return TOKIO_OK;
    d = &a->sets[i];
    if (!a->filling) {
        if (smap_find(&d->cols, col) < 0 && smap_add(&d->cols, col, 0) < 0) {
            a->oom = 1;
            return TOKIO_ENOMEM;
        }
        return TOKIO_OK;
    }
    rc = tokio_timeseries_insert_element(d->ts, t, col, value, reducer,
                                         TOKIO_TS_RIGHT);
    return rc < 0 ? rc : TOKIO_OK;
}

static int
too_long(struct archiver *a, const char *host, const char *counter)
{
    a->too_long = 1;
    fprintf(stderr, "tokio %s: error: the names of host '%.40s...' and "
            "counter '%.40s...' are too long for a dataset or column\n",
            a->cmd, host, counter);
    return TOKIO_EINVAL;
}

static int
visit(int64_t t, const char *host, const char *counter, const char *device,
      const struct tokio_mmperfmon_value *v, void *payload)
{
    struct archiver *a = payload;
    const char *type, *canon = canonical(counter);
    char name[512], col[1024];
    int rc;

    if (!a->any || t < a->min_ts)
        a->min_ts = t;
    if (!a->any || t > a->max_ts)
        a->max_ts = t;
    a->any = 1;
    /* numpy cannot hold text or None */
    if (v->kind == TOKIO_MMPM_STRING || v->kind == TOKIO_MMPM_NULL)
        return TOKIO_OK;
    if (device != NULL) {
        if ((type = type_of(a, &a->luns, device, "")) == NULL)
            return TOKIO_ENOMEM;
        if (type[0] == '\0')
            return TOKIO_OK;    /* no LUN: e.g. a network interface */
        if ((size_t)snprintf(name, sizeof(name), "%ss/%s", type, canon)
                >= sizeof(name) ||
            (size_t)snprintf(col, sizeof(col), "%s:%s", host, device)
                >= sizeof(col))
            return too_long(a, host, counter);
        return place(a, name, col, t, v->d, TOKIO_TS_REPLACE);
    }
    if ((type = type_of(a, &a->servers, host, "dataserver")) == NULL)
        return TOKIO_ENOMEM;
    if ((size_t)snprintf(name, sizeof(name), "%ss/%s", type, canon)
            >= sizeof(name) || strlen(host) >= sizeof(col))
        return too_long(a, host, counter);
    if ((rc = place(a, name, host, t, v->d, TOKIO_TS_REPLACE)) < 0)
        return rc;
    if (strcmp(canon, "cpuuser") == 0) {
        snprintf(name, sizeof(name), "%ss/cpuload", type);
        rc = place(a, name, host, t, v->d, TOKIO_TS_SUM);
    }
    return rc;
}

/* One empty series per dataset, its columns sorted naturally. */
static int
make_series(struct archiver *a, int64_t start, int64_t end, int64_t step)
{
    for (size_t i = 0; i < a->nsets; i++) {
        struct dataset *d = &a->sets[i];
        char path[600];
        int rc;

        snprintf(path, sizeof(path), "/%s", d->name);
        if ((rc = tokio_timeseries_new(&d->ts, path, start, end, step,
                                       d->cols.n,
                                       (const char *const *)d->cols.keys,
                                       d->cols.n)) < 0 ||
            (rc = tokio_timeseries_sort_columns(d->ts, 0)) < 0)
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
                                "source", json_string("mmperfmon"))) {
            a->oom = 1;
            return TOKIO_ENOMEM;
        }
    }
    return TOKIO_OK;
}

static int
write_file(struct archiver *a, const char *output, int64_t init_start,
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
    for (size_t i = 0; rc >= 0 && i < a->nsets; i++)
        rc = tokio_hdf5_update_commit(u, a->sets[i].ts);
    if (rc < 0) {
        tokio_hdf5_update_abort(u);
        return rc;
    }
    return tokio_hdf5_update_finish(u);
}

static void
archiver_free(struct archiver *a)
{
    typemap_free(&a->luns);
    typemap_free(&a->servers);
    for (size_t i = 0; i < a->nsets; i++) {
        free(a->sets[i].name);
        smap_free(&a->sets[i].cols);
        tokio_timeseries_free(a->sets[i].ts);
    }
    free(a->sets);
    smap_free(&a->setmap);
    pcre2_match_data_free(a->md);
}

static int
archiver_init(struct archiver *a, const struct tokio_config *cfg)
{
    if ((a->md = pcre2_match_data_create(1, NULL)) == NULL)
        return cli_fail(a->cmd, "out of memory"), -1;
    if (typemap_load(a, &a->luns, cfg, "mmperfmon_lun_map") < 0 ||
        typemap_load(a, &a->servers, cfg, "mmperfmon_server_map") < 0)
        return -1;
    return 0;
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

/* The input files: --files, else the dated files of the site config. */
static int
find_inputs(const char *cmd, const struct tokio_config *cfg,
            const char *fs, int64_t start, int64_t end, char ***paths,
            size_t *n)
{
    const json_t *tmpl = tokio_config_get(cfg, "mmperfmon_output_files");

    if (tmpl == NULL)
        return cli_fail(cmd, "the site config has no "
                        "mmperfmon_output_files"), -1;
    if (tokio_enumerate_dated_files(paths, n, start, end, tmpl, fs, 0, 3600,
                                    1) < 0)
        return cli_fail(cmd, NULL), -1;
    if (*n == 0)
        return cli_fail(cmd, "no input files of '%s' match the query "
                        "range", fs), -1;
    return 0;
}

static int
archive(struct archiver *a, const struct tokio_mmperfmon *m,
        const char *output, int64_t init_start, int64_t init_end,
        int64_t timestep)
{
    int rc = tokio_mmperfmon_foreach(m, visit, a);

    if (rc >= 0)
        rc = make_series(a, init_start, init_end, timestep);
    a->filling = 1;
    if (rc >= 0)
        rc = tokio_mmperfmon_foreach(m, visit, a);
    if (rc >= 0)
        rc = finalize(a);
    if (rc >= 0)
        rc = write_file(a, output, init_start, init_end, timestep);
    return rc;
}

int
cmd_archive_mmperfmon(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = "output.hdf5", *fs = NULL;
    const char *init_start_s = NULL, *init_end_s = NULL;
    long long timestep = 60, num_luns = 0, num_servers = 0;
    int debug = 0;
    struct cli_list files = { NULL, 0 };
    const struct cli_option opts[] = {
        OPT_STRING('o', "output", &output, "<file>",
                   "the HDF5 file to create or update (default output.hdf5)"),
        OPT_STRING(0, "init-start", &init_start_s, "<time>",
                   "first timestamp of a new file (default: <start>)"),
        OPT_STRING(0, "init-end", &init_end_s, "<time>",
                   "end (exclusive) of a new file (default: <end>)"),
        OPT_INT(0, "timestep", &timestep, "<s>",
                "collection frequency in seconds (default 60)"),
        OPT_STRING(0, "filesystem", &fs, "<fs>",
                   "file system to archive (required)"),
        OPT_LIST(0, "files", &files, "<file>",
                 "read this mmperfmon output instead (repeatable)"),
        OPT_INT(0, "num-luns", &num_luns, "<n>", "ignored (autodetected)"),
        OPT_INT(0, "num-servers", &num_servers, "<n>",
                "ignored (autodetected)"),
        OPT_FLAG(0, "debug", &debug, "list the input files"),
        OPT_END
    };
    struct tokio_config *cfg = NULL;
    struct tokio_mmperfmon *m = NULL;
    struct archiver a;
    char **paths = NULL;
    size_t npaths = 0;
    int64_t start = 0, end = 0, init_start = 0, init_end = 0;
    int npos, rc = CLI_EXIT_FAILURE;

    (void)num_luns;
    (void)num_servers;
    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0) {
        free(files.items);
        return cli_parse_exit(npos);
    }
    memset(&a, 0, sizeof(a));
    a.cmd = cmd;
    if (fs == NULL) {
        rc = cli_usage_error(cmd, "--filesystem is required");
        goto out;
    }
    if ((files.n == 0 && npos != 2) || (files.n > 0 && npos != 0)) {
        rc = cli_usage_error(cmd, files.n ? "--files or <start> <end>, not "
                             "both" : "expected <start> <end>");
        goto out;
    }
    if (npos == 2) {
        if (parse_time(cmd, argv[1], &start) < 0 ||
            parse_time(cmd, argv[2], &end) < 0) {
            rc = CLI_EXIT_USAGE;
            goto out;
        }
        if (start >= end) {
            rc = cli_usage_error(cmd, "<start> must come before <end>");
            goto out;
        }
        init_start = start;
        init_end = end;
    }
    if ((init_start_s && parse_time(cmd, init_start_s, &init_start) < 0) ||
        (init_end_s && parse_time(cmd, init_end_s, &init_end) < 0)) {
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    if (timestep < 1 || timestep > 86400 * 366) {
        rc = cli_usage_error(cmd, "--timestep must be > 0");
        goto out;
    }
    if (tokio_config_load(&cfg, NULL) < 0) {
        rc = cli_fail(cmd, NULL);
        goto out;
    }
    if (archiver_init(&a, cfg) < 0)
        goto out;
    if (files.n == 0 &&
        find_inputs(cmd, cfg, fs, start, end, &paths, &npaths) < 0)
        goto out;
    if (tokio_mmperfmon_new(&m) < 0) {
        rc = cli_fail(cmd, NULL);
        goto out;
    }
    for (size_t i = 0; i < (files.n ? files.n : npaths); i++) {
        const char *path = files.n ? files.items[i] : paths[i];

        if (debug)
            printf("Loading %s\n", path);
        if (tokio_mmperfmon_load(m, path) < 0) {
            rc = cli_fail(cmd, NULL);
            goto out;
        }
    }
    if (files.n > 0) {
        /* the data's own range, as the reference's Archiver */
        if (tokio_mmperfmon_foreach(m, visit, &a) < 0) {
            rc = a.too_long ? CLI_EXIT_FAILURE
                            : cli_fail(cmd, "out of memory");
            goto out;
        }
        if (!a.any) {
            rc = cli_fail(cmd, "no data in the input files");
            goto out;
        }
        if (init_start_s == NULL)
            init_start = a.min_ts;
        if (init_end_s == NULL)
            init_end = a.max_ts;
        archiver_free(&a);
        memset(&a, 0, sizeof(a));
        a.cmd = cmd;
        if (archiver_init(&a, cfg) < 0)
            goto out;
    }
    if (init_start >= init_end) {
        rc = cli_usage_error(cmd, "--init-start must come before "
                             "--init-end");
        goto out;
    }
    if (archive(&a, m, output, init_start, init_end, timestep) < 0)
        rc = a.too_long ? CLI_EXIT_FAILURE
             : a.oom ? cli_fail(cmd, "out of memory archiving '%s'", output)
                     : cli_fail(cmd, NULL);
    else
        rc = CLI_EXIT_OK;
out:
    archiver_free(&a);
    tokio_mmperfmon_free(m);
    tokio_free_strings(paths, npaths);
    tokio_config_free(cfg);
    free(files.items);
    return rc;
}
