/*
 * tests/cli/test_archive_mmperfmon.c - `tokio archive-mmperfmon` run as
 * golden/pytokio/COMMANDS.md section archive_mmperfmon runs the reference
 * (which failed there only because h5py 3 opens read-only by default),
 * from a working folder with PYTOKIO_CONFIG=inputs/site.json.  Every
 * dataset of the file it writes is checked against values derived here,
 * independently of the command, from the parsed mmperfmon input and the
 * site's LUN and server maps (written out as plain string tests); the same
 * file was compared once by hand with the one the reference writes when
 * its output is opened with mode "a": equal in every dataset and
 * attribute but the update time.  Then updates are idempotent, a small
 * site of our own needs no test data, and failures.
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>

#include "tokio/connectors/hdf5.h"
#include "tokio/connectors/mmperfmon.h"
#include "tokio/time.h"
#include "tokio/timeseries.h"
#include "tokio/util.h"

#define CMD "archive-mmperfmon"

static const char *const env[] = { "TZ=America/Los_Angeles",
                                   "PYTOKIO_CONFIG=inputs/site.json", NULL };

/* ---- expected values -------------------------------------------------- */

/* "<letters><digits><letters><digits>" with the given letters */
static int
lun_like(const char *s, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);

    if (strncmp(s, a, la) != 0)
        return 0;
    s += la;
    if (*s < '0' || *s > '9')
        return 0;
    while (*s >= '0' && *s <= '9')
        s++;
    if (strncmp(s, b, lb) != 0)
        return 0;
    s += lb;
    if (*s < '0' || *s > '9')
        return 0;
    while (*s >= '0' && *s <= '9')
        s++;
    return *s == '\0';
}

/* site.json's mmperfmon_lun_map and mmperfmon_server_map, spelled out */
static const char *
lun_type(const char *dev)
{
    if (lun_like(dev, "ddn", "dt") || lun_like(dev, "xx", "yy"))
        return "datatarget";
    if (lun_like(dev, "zz", "qq") || lun_like(dev, "na", "md"))
        return "mdtarget";
    return NULL;
}

static const char *
server_type(const char *host)
{
    if (strncmp(host, "ngfsv492", 8) == 0 || strncmp(host, "ngfsv493", 8) == 0
        || strncmp(host, "xxxxx492", 8) == 0
        || strncmp(host, "xxxxx493", 8) == 0)
        return "mdserver";
    return "dataserver";
}

static const char *
short_name(const char *counter)
{
    static const char *const map[][2] = {
        { "gpfs_nsdds_bytes_read", "readbytes" },
        { "gpfs_nsdds_bytes_written", "writebytes" },
        { "cpu_sys", "cpusys" }, { "cpu_user", "cpuuser" },
        { "mem_free_bytes", "memfree" }, { "mem_total_bytes", "memtotal" },
    };

    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (strcmp(counter, map[i][0]) == 0)
            return map[i][1];
    return counter;
}

/* One expected cell: dataset, column, row, value. */
struct cell {
    char set[64];
    char col[128];
    long row;
    double value;
};

struct expect {
    struct cell *cells;
    size_t n, cap;
    int64_t start, step;
    size_t rows;
};

static void
add_cell(struct expect *e, const char *set, const char *col, int64_t t,
         double value, int sum)
{
    long row = (long)((t - e->start) / e->step) - 1;  /* right-aligned */

    if (t - e->step < e->start || row >= (long)e->rows)
        return;
    for (size_t i = 0; sum && i < e->n; i++) {
        if (strcmp(e->cells[i].set, set) == 0 &&
            strcmp(e->cells[i].col, col) == 0 && e->cells[i].row == row) {
            e->cells[i].value += value;
            return;
        }
    }
    if (e->n == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 1024;
        e->cells = realloc(e->cells, e->cap * sizeof(*e->cells));
        assert_non_null(e->cells);
    }
    struct cell *c = &e->cells[e->n++];
    snprintf(c->set, sizeof(c->set), "%s", set);
    snprintf(c->col, sizeof(c->col), "%s", col);
    c->row = row;
    c->value = value;
}

static void
derive_value(struct expect *e, int64_t t, const char *host,
             const char *counter, const char *device, const json_t *v)
{
    char set[64], col[128];
    const char *name = short_name(counter);
    double x = json_number_value(v);

    if (!json_is_number(v))
        return;
    if (device != NULL) {
        const char *type = lun_type(device);

        if (type == NULL)
            return;
        snprintf(set, sizeof(set), "%ss/%s", type, name);
        snprintf(col, sizeof(col), "%s:%s", host, device);
        add_cell(e, set, col, t, x, 0);
        return;
    }
    snprintf(set, sizeof(set), "%ss/%s", server_type(host), name);
    /* CPU shares become percents; cpuload keeps the plain value */
    add_cell(e, set, host, t,
             strcmp(name, "cpuuser") == 0 || strcmp(name, "cpusys") == 0
             ? x * 100.0 : x, 0);
    if (strcmp(name, "cpuuser") == 0) {
        snprintf(set, sizeof(set), "%ss/cpuload", server_type(host));
        add_cell(e, set, host, t, x, 1);
    }
}

/* Every value of the mmperfmon dict where it is expected. */
static void
derive_values(struct expect *e, const json_t *dict)
{
    const char *tkey, *host, *counter, *dev;
    json_t *hosts, *counters, *v, *dv;

    json_object_foreach((json_t *)dict, tkey, hosts)
        json_object_foreach(hosts, host, counters)
            json_object_foreach(counters, counter, v) {
                if (!json_is_object(v))
                    derive_value(e, strtoll(tkey, NULL, 10), host, counter,
                                 NULL, v);
                else
                    json_object_foreach(v, dev, dv)
                        derive_value(e, strtoll(tkey, NULL, 10), host,
                                     counter, dev, dv);
            }
}

static int
same_double(double a, double b)
{
    return a == b && signbit(a) == signbit(b);
}

/* Check dataset `set` of `h` against the expected cells: its columns are
 * exactly the expected ones, naturally sorted; every cell is the
 * expected value or -0.0. */
static void
check_dataset(struct tokio_hdf5 *h, const struct expect *e, const char *set)
{
    struct tokio_timeseries *ts = NULL;
    size_t found = 0;

    if (tokio_hdf5_to_timeseries(h, set, &ts) != TOKIO_OK)
        fail_msg("%s: %s", set, tokio_errmsg());
    size_t rows = tokio_timeseries_rows(ts), cols = tokio_timeseries_cols(ts);
    double *want = malloc(rows * cols * sizeof(*want));
    assert_non_null(want);
    assert_int_equal(rows, e->rows);
    assert_int_equal(tokio_timeseries_timestamps(ts)[0], e->start);
    assert_int_equal(tokio_timeseries_timestep(ts), e->step);
    assert_int_equal(tokio_timeseries_n_names(ts), cols);
    for (size_t c = 1; c < cols; c++)
        assert_true(tokio_natural_compare(tokio_timeseries_column(ts, c - 1),
                                          tokio_timeseries_column(ts, c),
                                          0) < 0);
    for (size_t k = 0; k < rows * cols; k++)
        want[k] = -0.0;
    for (size_t i = 0; i < e->n; i++) {
        if (strcmp(e->cells[i].set, set) != 0)
            continue;
        long c = tokio_timeseries_column_index(ts, e->cells[i].col);
        if (c < 0)
            fail_msg("%s: no column %s", set, e->cells[i].col);
        want[(size_t)e->cells[i].row * cols + (size_t)c] = e->cells[i].value;
        found++;
    }
    assert_true(found > 0);
    /* no column without a value */
    for (size_t c = 0; c < cols; c++) {
        size_t r = 0;

        while (r < rows && tokio_timeseries_is_missing(want[r * cols + c]))
            r++;
        if (r == rows)
            fail_msg("%s: column %s has no value", set,
                     tokio_timeseries_column(ts, c));
    }
    const double *got = tokio_timeseries_cdata(ts);
    for (size_t k = 0; k < rows * cols; k++)
        if (!same_double(got[k], want[k]))
            fail_msg("%s row %zu column %s: %.17g, expected %.17g", set,
                     k / cols, tokio_timeseries_column(ts, k % cols), got[k],
                     want[k]);
    json_t *meta = tokio_timeseries_dataset_metadata(ts);
    assert_string_equal(json_string_value(json_object_get(meta, "units")),
                        "UNKNOWN");
    assert_string_equal(json_string_value(json_object_get(meta, "version")),
                        "1");
    json_t *group = tokio_timeseries_group_metadata(ts);
    assert_string_equal(json_string_value(json_object_get(group, "source")),
                        "mmperfmon");
    free(want);
    tokio_timeseries_free(ts);
}

static const char *const mini_sets[] = {
    "mdservers/cpuuser", "mdservers/cpuload", "mdservers/cpusys",
    "mdservers/memtotal", "mdservers/memfree", "mdtargets/readbytes",
    "mdtargets/writebytes", "dataservers/cpuuser", "dataservers/cpuload",
    "dataservers/cpusys", "dataservers/memtotal", "dataservers/memfree",
    "datatargets/readbytes", "datatargets/writebytes",
};

static void
check_file(const char *path, const char *input, int64_t start, size_t rows,
           const char *const *sets, size_t nsets)
{
    struct tokio_mmperfmon *m = NULL;
    struct expect e = { NULL, 0, 0, start, 60, rows };
    struct tokio_hdf5 *h = NULL;
    json_t *dict = NULL;

    if (tokio_mmperfmon_open(&m, input) != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    assert_int_equal(tokio_mmperfmon_to_json(m, &dict), TOKIO_OK);
    derive_values(&e, dict);
    json_decref(dict);
    if (tokio_hdf5_open(&h, path, 0) != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    assert_string_equal(tokio_hdf5_schema_version(h), "1");
    for (size_t i = 0; i < nsets; i++)
        check_dataset(h, &e, sets[i]);
    /* nothing for the loopback interface, nothing outside the schema */
    struct tokio_timeseries *ts = NULL;
    assert_int_equal(tokio_hdf5_to_timeseries(h, "mdservers/netinbytes", &ts),
                     TOKIO_ENOTFOUND);
    /* every expected cell belongs to a checked dataset */
    for (size_t i = 0; i < e.n; i++) {
        size_t k = 0;

        while (k < nsets && strcmp(sets[k], e.cells[i].set) != 0)
            k++;
        if (k == nsets)
            fail_msg("unexpected dataset %s", e.cells[i].set);
    }
    tokio_hdf5_free(h);
    tokio_mmperfmon_free(m);
    free(e.cells);
}

/* ---- with the test data ----------------------------------------------- */

static void
test_archive_mmperfmon_matches_derived_values(void **state)
{
    (void)state;
    struct tokio_workdir wd;
    char path[4096], input[4096];
    int64_t start;

    TOKIO_TEST_NEED_WORKDIR(&wd);
    const char *argv[] = { CMD, "--init-start", "2019-05-15T00:00:00",
                           "--init-end", "2019-05-16T00:00:00", "--timestep",
                           "60", "--output", "scratch/mini.hdf5",
                           "--filesystem", "testfs-mini",
                           "2019-05-15T11:00:00", "2019-05-15T14:00:00",
                           NULL };
    snprintf(path, sizeof(path), "%s/scratch", wd.dir);
    assert_int_equal(mkdir(path, 0700), 0);
    struct tokio_run r = tokio_test_run(wd.dir, env, argv);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    assert_int_equal(tokio_time_parse("2019-05-15T00:00:00", &start),
                     TOKIO_OK);
    snprintf(path, sizeof(path), "%s/scratch/mini.hdf5", wd.dir);
    snprintf(input, sizeof(input), "%s/mmperfmon.2019-05-15-mini.tgz",
             wd.inputs);
    check_file(path, input, start, 1440, mini_sets,
               sizeof(mini_sets) / sizeof(mini_sets[0]));

    /* again: nothing changes */
    struct tokio_hdf5 *h = NULL;
    struct tokio_timeseries *before = NULL, *after = NULL;
    assert_int_equal(tokio_hdf5_open(&h, path, 0), TOKIO_OK);
    assert_int_equal(tokio_hdf5_to_timeseries(h, "datatargets/readbytes",
                                              &before), TOKIO_OK);
    tokio_hdf5_free(h);
    r = tokio_test_run(wd.dir, env, argv);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    check_file(path, input, start, 1440, mini_sets,
               sizeof(mini_sets) / sizeof(mini_sets[0]));
    assert_int_equal(tokio_hdf5_open(&h, path, 0), TOKIO_OK);
    assert_int_equal(tokio_hdf5_to_timeseries(h, "datatargets/readbytes",
                                              &after), TOKIO_OK);
    tokio_hdf5_free(h);
    size_t n = tokio_timeseries_rows(before) * tokio_timeseries_cols(before);
    assert_int_equal(n, tokio_timeseries_rows(after) *
                     tokio_timeseries_cols(after));
    assert_memory_equal(tokio_timeseries_cdata(before),
                        tokio_timeseries_cdata(after), n * sizeof(double));
    tokio_timeseries_free(before);
    tokio_timeseries_free(after);
    tokio_test_workdir_free(&wd);
}

/* ---- a site of our own ------------------------------------------------ */

static const char site[] =
    "{\"mmperfmon_lun_map\": {\"^lun\\\\d+$\": \"datatarget\", "
    "\"^md\\\\d+$\": \"mdtarget\"}, "
    "\"mmperfmon_server_map\": {\"^meta\": \"mdserver\"}, "
    "\"mmperfmon_output_files\": {\"fs1\": [\"in/%Y-%m-%d.%H.txt\"]}}";

/* 10:01 and 10:02 on 2019-01-11 (PST) fill rows 0 and 1 of a series
 * starting at 10:00 */
static const char data[] =
    "Legend:\n"
    " 1:\tdata1|CPU|cpu_user\n"
    " 2:\tmeta1|CPU|cpu_user\n"
    " 3:\tdata1|GPFSNSDDisk|lun2|gpfs_nsdds_bytes_read\n"
    " 4:\tdata1|GPFSNSDDisk|lun10|gpfs_nsdds_bytes_read\n"
    " 5:\tmeta1|GPFSNSDDisk|md1|gpfs_nsdds_bytes_written\n"
    " 6:\tdata1|Network|eth0|net_r\n"
    "Row           Timestamp cpu_user cpu_user  lun2 lun10   md1  net_r \n"
    "  1 2019-01-11-10:01:00     0.25      0.5    10  null     7   1 kB \n"
    "  2 2019-01-11-10:02:00     0.75     null    20    30  null   2 kB \n";

static char *
small_site(void)
{
    char *dir = tokio_test_mkdtemp(), path[4096];

    snprintf(path, sizeof(path), "%s/inputs", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/in", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/inputs/site.json", dir);
    tokio_test_write_file(path, site, SIZE_MAX);
    snprintf(path, sizeof(path), "%s/in/2019-01-11.10.txt", dir);
    tokio_test_write_file(path, data, SIZE_MAX);
    return dir;
}

static double
cell(struct tokio_hdf5 *h, const char *set, size_t row, const char *col)
{
    struct tokio_timeseries *ts = NULL;

    if (tokio_hdf5_to_timeseries(h, set, &ts) != TOKIO_OK)
        fail_msg("%s: %s", set, tokio_errmsg());
    long c = tokio_timeseries_column_index(ts, col);
    if (c < 0)
        fail_msg("%s: no column %s", set, col);
    double v = tokio_timeseries_cdata(ts)[row * tokio_timeseries_cols(ts) +
                                          (size_t)c];
    tokio_timeseries_free(ts);
    return v;
}

static void
check_small(const char *file)
{
    struct tokio_hdf5 *h = NULL;

    if (tokio_hdf5_open(&h, file, 0) != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    assert_true(same_double(cell(h, "dataservers/cpuuser", 0, "data1"), 25));
    assert_true(same_double(cell(h, "dataservers/cpuuser", 1, "data1"), 75));
    assert_true(same_double(cell(h, "dataservers/cpuload", 1, "data1"), 0.75));
    assert_true(same_double(cell(h, "mdservers/cpuuser", 0, "meta1"), 50));
    assert_true(same_double(cell(h, "mdservers/cpuuser", 1, "meta1"), -0.0));
    assert_true(same_double(cell(h, "datatargets/readbytes", 0,
                                 "data1:lun2"), 10));
    assert_true(same_double(cell(h, "datatargets/readbytes", 1,
                                 "data1:lun10"), 30));
    assert_true(same_double(cell(h, "datatargets/readbytes", 0,
                                 "data1:lun10"), -0.0));
    assert_true(same_double(cell(h, "mdtargets/writebytes", 0, "meta1:md1"),
                            7));
    /* natural order: lun2 before lun10 */
    struct tokio_timeseries *ts = NULL;
    assert_int_equal(tokio_hdf5_to_timeseries(h, "datatargets/readbytes",
                                              &ts), TOKIO_OK);
    assert_int_equal(tokio_timeseries_cols(ts), 2);
    assert_string_equal(tokio_timeseries_column(ts, 0), "data1:lun2");
    assert_string_equal(tokio_timeseries_column(ts, 1), "data1:lun10");
    tokio_timeseries_free(ts);
    tokio_hdf5_free(h);
}

static void
test_archive_mmperfmon_small_site(void **state)
{
    (void)state;
    char *dir = small_site(), path[4096];
    const char *argv[] = { CMD, "--filesystem", "fs1", "-o", "out.hdf5",
                           "2019-01-11T10:00:00", "2019-01-11T11:00:00",
                           NULL };
    struct tokio_run r = tokio_test_run(dir, env, argv);

    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    tokio_run_free(&r);
    snprintf(path, sizeof(path), "%s/out.hdf5", dir);
    check_small(path);

    /* --files instead of the site's file names */
    const char *files[] = { CMD, "--filesystem", "fs1", "-o", "f.hdf5",
                            "--init-start", "2019-01-11T10:00:00",
                            "--init-end", "2019-01-11T11:00:00",
                            "--files", "in/2019-01-11.10.txt", NULL };
    r = tokio_test_run(dir, env, files);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    tokio_run_free(&r);
    snprintf(path, sizeof(path), "%s/f.hdf5", dir);
    check_small(path);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_archive_mmperfmon_failures(void **state)
{
    (void)state;
    char *dir = small_site(), path[4096];
    struct tokio_run r;

    const char *nofs[] = { CMD, "2019-01-11T10:00:00", "2019-01-11T11:00:00",
                           NULL };
    r = tokio_test_run(dir, env, nofs);
    assert_int_equal(r.status, 2);
    assert_contains(r.err, "--filesystem");
    tokio_run_free(&r);

    const char *backwards[] = { CMD, "--filesystem", "fs1",
                                "2019-01-11T11:00:00", "2019-01-11T10:00:00",
                                NULL };
    r = tokio_test_run(dir, env, backwards);
    assert_int_equal(r.status, 2);
    tokio_run_free(&r);

    const char *nothing[] = { CMD, "--filesystem", "fs1", "-o", "x.hdf5",
                              "2019-02-11T10:00:00", "2019-02-11T11:00:00",
                              NULL };
    r = tokio_test_run(dir, env, nothing);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "no input files");
    tokio_run_free(&r);

    /* a host name too long for a column */
    char *longtext = malloc(1400);
    assert_non_null(longtext);
    strcpy(longtext, "Legend:\n 1:\t");
    memset(longtext + strlen(longtext), 'a', 1100);
    strcpy(longtext + 12 + 1100, "|CPU|cpu_user\n"
           "Row           Timestamp cpu_user \n"
           "  1 2019-01-11-10:01:00      0.5 \n");
    snprintf(path, sizeof(path), "%s/in/2019-01-11.10.txt", dir);
    tokio_test_write_file(path, longtext, SIZE_MAX);
    free(longtext);
    const char *toolong[] = { CMD, "--filesystem", "fs1", "-o", "long.hdf5",
                              "2019-01-11T10:00:00", "2019-01-11T11:00:00",
                              NULL };
    r = tokio_test_run(dir, env, toolong);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "too long");
    tokio_run_free(&r);
    snprintf(path, sizeof(path), "%s/long.hdf5", dir);
    assert_null(tokio_test_read_file(path, NULL));

    /* a garbled input: named with its line, and no output file */
    snprintf(path, sizeof(path), "%s/in/2019-01-11.10.txt", dir);
    tokio_test_write_file(path, "Legend:\n 1:\th|CPU|cpu_user\nbroken\n",
                          SIZE_MAX);
    const char *bad[] = { CMD, "--filesystem", "fs1", "-o", "bad.hdf5",
                          "2019-01-11T10:00:00", "2019-01-11T11:00:00",
                          NULL };
    r = tokio_test_run(dir, env, bad);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "2019-01-11.10.txt' line 3");
    tokio_run_free(&r);
    snprintf(path, sizeof(path), "%s/bad.hdf5", dir);
    assert_null(tokio_test_read_file(path, NULL));
    tokio_test_rmtree(dir);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_archive_mmperfmon_matches_derived_values),
        cmocka_unit_test(test_archive_mmperfmon_small_site),
        cmocka_unit_test(test_archive_mmperfmon_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
