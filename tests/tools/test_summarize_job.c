/*
 * tests/tools/test_summarize_job.c - tokio_summarize_job()
 * (src/tools/summarize_job.c) on what the shared goldens cannot show:
 * the fs_* keys, from a TTS file this test writes for a job's window,
 * every value worked out by hand below (and checked against the
 * reference run on the same file, see the comment of the expected
 * values); the warnings; failures.
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "tokio/config.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/time.h"
#include "tokio/timeseries.h"
#include "tokio/tools/summarize_job.h"

#define MISSING (-0.0)
#define FAR     1e9     /* outside the window: any row let in shows */

/* The window: 2017-03-20 02:08:00 to 02:08:20, rows every 5 seconds. */
static const double readbytes[4][2] = {
    { 1000, 3000 }, { 0, 0 }, { 2000, MISSING }, { 500, 500 } };
static const double writebytes[4][2] = {
    { 5, 5 }, { 10, 10 }, { 0, 20 }, { 5, 0 } };
static const double oss_cpu[4][2] = {
    { 10, 20 }, { 30, MISSING }, { 50, 60 }, { 70, 80 } };
static const double mds_cpu[4][1] = { { 5 }, { 15 }, { 25 }, { 35 } };
static const double opens[4][1] = { { 50 }, { 100 }, { 0 }, { 150 } };

static const char *const md_ops[] = {
    "opens", "closes", "mknods", "links", "unlinks", "mkdirs", "rmdirs",
    "renames", "getxattrs", "statfss", "setattrs", "getattrs",
};

/* One dataset over 02:00:00-02:20:00: `window` in the job's four rows,
 * FAR elsewhere. */
static struct tokio_timeseries *
dataset(const char *name, size_t cols, const double *window,
        int64_t day_start)
{
    struct tokio_timeseries *ts = NULL;
    static const char *const names[] = { "c0", "c1" };
    int64_t t0 = day_start + 2 * 3600;
    size_t job_row = (8 * 60) / 5;          /* 02:08:00 */

    assert_int_equal(tokio_timeseries_new(&ts, name, t0, t0 + 20 * 60, 5,
                                          cols, names, cols), TOKIO_OK);
    double *d = tokio_timeseries_data(ts);
    for (size_t r = 0; r < tokio_timeseries_rows(ts); r++)
        for (size_t c = 0; c < cols; c++)
            d[r * cols + c] = r >= job_row && r < job_row + 4
                                  ? (window ? window[(r - job_row) * cols + c]
                                            : 0.0)
                                  : FAR;
    return ts;
}

/* A site whose file system "testfs" has a TTS file for 2017-03-20;
 * returns the folder (remove it), the configuration in *cfg. */
static char *
make_site(struct tokio_config **cfg)
{
    char *dir = tokio_test_mkdtemp(), path[4096], text[8192];
    struct tokio_hdf5_update *u = NULL;
    int64_t day = tokio_test_local(2017, 3, 20, 0, 0, 0);

    snprintf(path, sizeof(path), "%s/2017-03-20", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof(path), "%s/2017-03-20/testfs.hdf5", dir);
    assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_set_version(u, "1"), TOKIO_OK);
    struct tokio_timeseries *ts[4 + 12] = {
        dataset("datatargets/readbytes", 2, &readbytes[0][0], day),
        dataset("datatargets/writebytes", 2, &writebytes[0][0], day),
        dataset("dataservers/cpuload", 2, &oss_cpu[0][0], day),
        dataset("mdservers/cpuload", 1, &mds_cpu[0][0], day),
    };
    for (size_t i = 0; i < 12; i++) {
        char name[64];
        snprintf(name, sizeof(name), "mdtargets/%s", md_ops[i]);
        ts[4 + i] = dataset(name, 1, i == 0 ? &opens[0][0] : NULL, day);
    }
    for (size_t i = 0; i < 16; i++) {
        assert_int_equal(tokio_hdf5_update_commit(u, ts[i]), TOKIO_OK);
        tokio_timeseries_free(ts[i]);
    }
    assert_int_equal(tokio_hdf5_update_finish(u), TOKIO_OK);
    snprintf(text, sizeof(text),
             "{\"hdf5_files\": {\"testfs\": \"%s/%%Y-%%m-%%d/testfs.hdf5\"},"
             " \"lmt_timestep\": 5}", dir);
    assert_int_equal(tokio_config_open_mem(cfg, text, strlen(text), "site"),
                     TOKIO_OK);
    return dir;
}

static void
assert_real(const json_t *row, const char *key, double want)
{
    const json_t *v = json_object_get(row, key);

    if (!json_is_number(v))
        fail_msg("%s is missing", key);
    if (fabs(json_number_value(v) - want) > 1e-12 * fmax(1, fabs(want)))
        fail_msg("%s is %.17g, not %.17g", key, json_number_value(v), want);
}

/*
 * Worked out by hand from the tables above (rates are bytes or ops per
 * timestep / 5; a missing cell is NaN to pandas and skipped):
 *   read rates  200 600 | 0 0 | 400 NaN | 100 100: sum 1400, times 5
 *               = 7000 bytes; row sums 800 0 400 200: mean 350, max 800,
 *               min 0; 2 zero cells of 8;
 *   write rates 1 1 | 2 2 | 0 4 | 1 0: sum 11, 55 bytes; row sums 2 4 4
 *               1: mean 2.75, max 4, min 1; 2 zero cells of 8;
 *   OSS CPU     column means 40 and (20+60+80)/3, their mean 46.67;
 *               max 80; MDS CPU mean 20, max 35;
 *   opens       rates 10 20 0 30: 60 x 5 = 300 ops; mean 15, max 30,
 *               min 0; the other operations all 0;
 *   missing     1 cell of the 8 of dataservers/cpuload.
 * The reference (pytokio 0.13 summarize_job --json --start-time
 * "2017-03-20 02:08:00" --end-time "2017-03-20 02:08:20" -f testfs on
 * this file) gave the same numbers.
 */
static void
test_summarize_job_fs_keys_over_the_window(void **state)
{
    (void)state;
    struct tokio_config *cfg = NULL;
    char *dir = make_site(&cfg);
    struct tokio_summarize_job_opts o = { 0 };
    json_t *rows = NULL, *warnings = NULL;
    const double gib = 1073741824.0;

    o.file_system = "testfs";
    o.has_window = 1;
    o.start = tokio_test_local(2017, 3, 20, 2, 8, 0);
    o.end = tokio_test_local(2017, 3, 20, 2, 8, 20);
    if (tokio_summarize_job(&rows, &warnings, cfg, NULL, 0, &o) < 0)
        fail_msg("%s", tokio_errmsg());
    assert_int_equal(json_array_size(rows), 1);
    assert_int_equal(json_array_size(warnings), 0);
    const json_t *row = json_array_get(rows, 0);
    assert_string_equal(json_string_value(json_object_get(row,
                                                          "_file_system")),
                        "testfs");
    assert_real(row, "fs_tot_bytes_read", 7000);
    assert_real(row, "fs_tot_gibs_read", 7000 / gib);
    assert_real(row, "fs_ave_bytes_read_per_sec", 350);
    assert_real(row, "fs_ave_gibs_read_per_sec", 350 / gib);
    assert_real(row, "fs_max_bytes_read_per_sec", 800);
    assert_real(row, "fs_min_bytes_read_per_sec", 0);
    assert_real(row, "fs_frac_zero_read", 0.25);
    assert_real(row, "fs_tot_bytes_written", 55);
    assert_real(row, "fs_ave_bytes_written_per_sec", 2.75);
    assert_real(row, "fs_max_bytes_written_per_sec", 4);
    assert_real(row, "fs_min_gibs_written_per_sec", 1 / gib);
    assert_real(row, "fs_frac_zero_written", 0.25);
    assert_real(row, "fs_ave_oss_cpu", (40 + 160.0 / 3) / 2);
    assert_real(row, "fs_max_oss_cpu", 80);
    assert_real(row, "fs_ave_mds_cpu", 20);
    assert_real(row, "fs_max_mds_cpu", 35);
    assert_real(row, "fs_tot_open_ops", 300);
    assert_real(row, "fs_ave_open_ops_per_sec", 15);
    assert_real(row, "fs_max_open_ops_per_sec", 30);
    assert_real(row, "fs_min_open_ops_per_sec", 0);
    assert_real(row, "fs_tot_getattr_ops", 0);
    assert_real(row, "fs_max_rename_ops_per_sec", 0);
    assert_real(row, "fs_frac_missing", 0.125);
    /* 3 bookkeeping keys and 9 + 9 + 2 + 2 + 12 x 4 + 1 fs_ keys */
    assert_int_equal(json_object_size(row), 3 + 71);
    json_decref(rows);
    json_decref(warnings);
    tokio_config_free(cfg);
    tokio_test_rmtree(dir);
    free(dir);
}

/* No file for the window: the reference's one warning, no fs_ key. */
static void
test_summarize_job_without_data_warns_once(void **state)
{
    (void)state;
    struct tokio_config *cfg = NULL;
    char *dir = make_site(&cfg);
    struct tokio_summarize_job_opts o = { 0 };
    json_t *rows = NULL, *warnings = NULL;

    o.file_system = "testfs";
    o.has_window = 1;
    o.start = tokio_test_local(2017, 3, 22, 2, 8, 0);
    o.end = tokio_test_local(2017, 3, 22, 2, 8, 20);
    o.slurm_jobid = "1234";
    assert_int_equal(tokio_summarize_job(&rows, &warnings, cfg, NULL, 0, &o),
                     TOKIO_OK);
    assert_int_equal(json_array_size(warnings), 1);
    assert_string_equal(json_string_value(json_array_get(warnings, 0)),
                        "No HDF5 data for /datatargets/readrates from "
                        "2017-03-22 02:08:00 to 2017-03-22 02:08:20 on "
                        "testfs");
    const json_t *row = json_array_get(rows, 0);
    assert_int_equal(json_object_size(row), 4);
    assert_string_equal(json_string_value(json_object_get(row, "_jobid")),
                        "1234");
    /* the reference's datetimes: local wall clock read as UTC */
    assert_real(row, "_datetime_start", 1490148480.0);
    json_decref(rows);
    json_decref(warnings);
    tokio_config_free(cfg);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_summarize_job_refuses_what_is_undefined(void **state)
{
    (void)state;
    struct tokio_summarize_job_opts o = { 0 };
    json_t *rows = NULL, *warnings = NULL;
    const char *logs[] = { "a.darshan", "b.darshan" };

    o.slurm_jobid = "1";
    assert_int_equal(tokio_summarize_job(&rows, &warnings, NULL, logs, 2,
                                         &o), TOKIO_EINVAL);
    assert_null(rows);
    o.slurm_jobid = NULL;
    o.has_window = 1;
    assert_int_equal(tokio_summarize_job(&rows, &warnings, NULL, logs, 1,
                                         &o), TOKIO_EINVAL);
    /* a file that is no Darshan log: named, unless skipped */
    char *dir = tokio_test_mkdtemp(), *bad = tokio_test_join(dir, "x.darshan");
    tokio_test_write_file(bad, "not a log\n", SIZE_MAX);
    logs[0] = bad;
    o.has_window = 0;
    assert_true(tokio_summarize_job(&rows, &warnings, NULL, logs, 1, &o) < 0);
    assert_contains(tokio_errmsg(), bad);
    o.silent_errors = 1;
    assert_int_equal(tokio_summarize_job(&rows, &warnings, NULL, logs, 1, &o),
                     TOKIO_OK);
    assert_int_equal(json_array_size(rows), 0);
    assert_contains(json_string_value(json_array_get(warnings, 0)),
                    "is not a valid darshan log");
    json_decref(rows);
    json_decref(warnings);
    tokio_test_rmtree(dir);
    free(bad);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summarize_job_fs_keys_over_the_window),
        cmocka_unit_test(test_summarize_job_without_data_warns_once),
        cmocka_unit_test(test_summarize_job_refuses_what_is_undefined),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
