/*
 * tests/tools/test_hdf5_tools.c - tokio/tools/hdf5.h over three daily TTS
 * files this test writes (one minute steps, three OSTs): which files and
 * rows a range covers, one series across the days with values derived
 * from their times, and, when /usr/bin/python3 has h5py and the reference
 * is at /tmp/pytokio, the reference's get_dataframe_from_time_range() on
 * the same files printing the same CSV.
 */
#include "tokio/tools/hdf5.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tokio/config.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/time.h"
#include "tokio/tools/common.h"
#include "testutil.h"

#define STEP 60
#define ROWS (86400 / STEP)

struct days {
    char *dir;
    char *config;               /* site.json naming the files */
    int64_t midnight[3];        /* local midnights of 2018-01-27..29 */
    struct tokio_config *cfg;
};

/* The value of OST column c at time t, as the test writes it. */
static double
value_at(int64_t t, size_t c, int64_t day0)
{
    int64_t minute = (t - day0) / STEP;

    if (minute % 97 == 5 && c == 1)
        return -0.0;                        /* missing */
    return (double)minute * 1.5 + (double)c * 0.25;
}

static void
write_day(struct days *d, int i)
{
    const char *names[] = { "OST0002", "OST0000", "OST0001" };
    char sub[512], path[600], date[16];
    struct tokio_timeseries *ts = NULL;
    struct tokio_hdf5_update *u = NULL;
    double *v;

    tokio_time_format(date, sizeof(date), d->midnight[i], "%Y-%m-%d");
    snprintf(sub, sizeof(sub), "%s/%s", d->dir, date);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(path, sizeof(path), "%s/testfs.hdf5", sub);
    assert_int_equal(tokio_timeseries_new(&ts, "datatargets/readrates",
                                          d->midnight[i],
                                          d->midnight[i] + 86400, STEP, 3,
                                          names, 3), TOKIO_OK);
    v = tokio_timeseries_data(ts);
    for (size_t r = 0; r < ROWS; r++) {
        int64_t t = d->midnight[i] + (int64_t)r * STEP;
        for (size_t c = 0; c < 3; c++) {
            /* names[c] is OST000{2,0,1}: store by the OST's number */
            size_t ost = (size_t)(names[c][6] - '0');
            v[r * 3 + c] = value_at(t, ost, d->midnight[0]);
        }
    }
    assert_int_equal(tokio_timeseries_set_version(ts, "1"), TOKIO_OK);
    assert_int_equal(tokio_timeseries_set_global_version(ts, "1"), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_commit(u, ts), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_finish(u), TOKIO_OK);
    tokio_timeseries_free(ts);
}

static int
setup(void **state)
{
    struct days *d = calloc(1, sizeof(*d));
    char text[1024];
    int n;

    assert_non_null(d);
    d->dir = tokio_test_mkdtemp();
    for (int i = 0; i < 3; i++)
        assert_int_equal(tokio_time_from_local(2018, 1, 27 + i, 0, 0, 0,
                                               &d->midnight[i]), TOKIO_OK);
    for (int i = 0; i < 3; i++)
        write_day(d, i);
    n = snprintf(text, sizeof(text),
                 "{\"hdf5_files\": {\"testfs\": [\"%s/%%Y-%%m-%%d/"
                 "testfs.hdf5\", \"%s/%%Y-%%m-%%d/testfs.h5lmt\"]}}\n",
                 d->dir, d->dir);
    d->config = malloc(strlen(d->dir) + 16);
    assert_non_null(d->config);
    sprintf(d->config, "%s/site.json", d->dir);
    tokio_test_write_file(d->config, text, (size_t)n);
    assert_int_equal(tokio_config_open(&d->cfg, d->config), TOKIO_OK);
    *state = d;
    return 0;
}

static int
teardown(void **state)
{
    struct days *d = *state;

    tokio_config_free(d->cfg);
    tokio_test_rmtree(d->dir);
    free(d->dir);
    free(d->config);
    free(d);
    return 0;
}

static void
test_hdf5_tools_enumerate_takes_each_existing_day(void **state)
{
    struct days *d = *state;
    char **paths;
    size_t n;

    assert_int_equal(tokio_hdf5_enumerate(&paths, &n, d->cfg, "testfs",
                                          d->midnight[0] + 3600,
                                          d->midnight[2] + 3600), TOKIO_OK);
    assert_int_equal(n, 3);
    assert_non_null(strstr(paths[0], "/2018-01-27/testfs.hdf5"));
    assert_non_null(strstr(paths[2], "/2018-01-29/testfs.hdf5"));
    tokio_free_strings(paths, n);
    /* a day with no file, and a file system with no templates */
    assert_int_equal(tokio_hdf5_enumerate(&paths, &n, d->cfg, "testfs",
                                          d->midnight[2] + 86400,
                                          d->midnight[2] + 90000), TOKIO_OK);
    assert_int_equal(n, 0);
    assert_int_equal(tokio_hdf5_enumerate(&paths, &n, d->cfg, "nofs",
                                          d->midnight[0], d->midnight[1]),
                     TOKIO_OK);
    assert_int_equal(n, 0);
    assert_int_equal(tokio_hdf5_enumerate(&paths, &n, NULL, "testfs",
                                          d->midnight[0], d->midnight[1]),
                     TOKIO_EINVAL);
}

static void
test_hdf5_tools_files_and_indices(void **state)
{
    struct days *d = *state;
    struct tokio_hdf5_file_range *r;
    size_t n;

    /* 01:00 on the 27th to 12:00 on the 29th */
    assert_int_equal(tokio_hdf5_get_files_and_indices(&r, &n, d->cfg,
                     "testfs", "datatargets/readrates",
                     d->midnight[0] + 3600, d->midnight[2] + 43200),
                     TOKIO_OK);
    assert_int_equal(n, 3);
    assert_int_equal(r[0].first, 60);
    assert_int_equal(r[0].last, -1);
    assert_int_equal(r[1].first, 0);
    assert_int_equal(r[1].last, -1);
    assert_int_equal(r[2].first, 0);
    assert_int_equal(r[2].last, 719);
    tokio_hdf5_file_ranges_free(r, n);
    /* ending at the 29th's midnight: that file is dropped */
    assert_int_equal(tokio_hdf5_get_files_and_indices(&r, &n, d->cfg,
                     "testfs", "datatargets/readrates",
                     d->midnight[1] + 120, d->midnight[2]), TOKIO_OK);
    assert_int_equal(n, 1);
    assert_int_equal(r[0].first, 2);
    assert_int_equal(r[0].last, -1);        /* the 28th ends at 23:59 */
    tokio_hdf5_file_ranges_free(r, n);
    /* a dataset the files lack */
    assert_int_equal(tokio_hdf5_get_files_and_indices(&r, &n, d->cfg,
                     "testfs", "mdtargets/opens", d->midnight[0],
                     d->midnight[1]), TOKIO_ENOTFOUND);
    assert_contains(tokio_errmsg(), "testfs.hdf5");
    tokio_hdf5_file_ranges_free(NULL, 0);
}

static void
test_hdf5_tools_series_spans_days(void **state)
{
    struct days *d = *state;
    struct tokio_timeseries *ts;
    int64_t start = d->midnight[0] + 22 * 3600 + 30;   /* not on a step */
    int64_t end = d->midnight[2] + 3600;
    size_t rows;
    const double *v;
    const int64_t *t;

    assert_int_equal(tokio_hdf5_from_time_range(&ts, d->cfg, "testfs",
                     "datatargets/readrates", start, end, 0), TOKIO_OK);
    rows = tokio_timeseries_rows(ts);
    /* 22:01 .. 23:59 (119), a whole day (1440), 00:00 .. 00:59 (60) */
    assert_int_equal(rows, 119 + 1440 + 60);
    assert_int_equal(tokio_timeseries_cols(ts), 3);
    assert_int_equal(tokio_timeseries_timestep(ts), STEP);
    assert_string_equal(tokio_timeseries_column(ts, 0), "OST0000");
    assert_string_equal(tokio_timeseries_column(ts, 2), "OST0002");
    v = tokio_timeseries_cdata(ts);
    t = tokio_timeseries_timestamps(ts);
    assert_int_equal(t[0], d->midnight[0] + 22 * 3600 + 60);
    for (size_t r = 0; r < rows; r++) {
        if (r > 0)
            assert_int_equal(t[r] - t[r - 1], STEP);
        for (size_t c = 0; c < 3; c++) {
            double want = value_at(t[r], c, d->midnight[0]);
            assert_memory_equal(&v[r * 3 + c], &want, sizeof(double));
        }
    }
    /* a full disk is an error naming the dataset */
    {
        FILE *full = fopen("/dev/full", "w");
        if (full != NULL) {
            assert_int_equal(tokio_timeseries_write_csv(ts, full), TOKIO_EIO);
            assert_contains(tokio_errmsg(), "datatargets/readrates");
            fclose(full);
        }
    }
    tokio_timeseries_free(ts);
    /* no file in range: no series, as the reference's None */
    assert_int_equal(tokio_hdf5_from_time_range(&ts, d->cfg, "testfs",
                     "datatargets/readrates", d->midnight[2] + 86400,
                     d->midnight[2] + 90000, 0), TOKIO_OK);
    assert_null(ts);
}

static void
test_hdf5_tools_fix_errors_masks_negatives(void **state)
{
    struct days *d = *state;
    struct tokio_timeseries *ts;
    char path[600], date[16];
    struct tokio_hdf5_update *u = NULL;
    const char *names[] = { "OST0000", "OST0001", "OST0002" };

    /* a fourth day with a negative value in it */
    int64_t day = d->midnight[2] + 86400;
    tokio_time_format(date, sizeof(date), day, "%Y-%m-%d");
    snprintf(path, sizeof(path), "%s/%s", d->dir, date);
    assert_int_equal(mkdir(path, 0755), 0);
    strcat(path, "/testfs.hdf5");
    assert_int_equal(tokio_timeseries_new(&ts, "datatargets/readrates", day,
                                          day + 180, STEP, 3, names, 3),
                     TOKIO_OK);
    tokio_timeseries_data(ts)[0] = -5.0;
    tokio_timeseries_data(ts)[1] = 7.0;
    assert_int_equal(tokio_timeseries_set_global_version(ts, "1"), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_commit(u, ts), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_finish(u), TOKIO_OK);
    tokio_timeseries_free(ts);
    assert_int_equal(tokio_hdf5_from_time_range(&ts, d->cfg, "testfs",
                     "datatargets/readrates", day, day + 180,
                     TOKIO_HDF5_FIX_ERRORS), TOKIO_OK);
    assert_true(tokio_timeseries_is_missing(tokio_timeseries_cdata(ts)[0]));
    assert_true(tokio_timeseries_cdata(ts)[1] == 7.0);
    tokio_timeseries_free(ts);
    assert_int_equal(tokio_hdf5_from_time_range(&ts, d->cfg, "testfs",
                     "datatargets/readrates", day, day + 180, 0), TOKIO_OK);
    assert_true(tokio_timeseries_cdata(ts)[0] == -5.0);
    tokio_timeseries_free(ts);
    unlink(path);
    *strrchr(path, '/') = '\0';
    rmdir(path);
}

/* ---- against the reference -------------------------------------------- */

static const char ref_script[] =
    "import datetime, sys\n"
    "import tokio.tools.hdf5\n"
    "s = datetime.datetime.fromtimestamp(int(sys.argv[1]))\n"
    "e = datetime.datetime.fromtimestamp(int(sys.argv[2]))\n"
    "df = tokio.tools.hdf5.get_dataframe_from_time_range('testfs', "
    "'datatargets/readrates', s, e)\n"
    "sys.stdout.write(df.to_csv())\n";

static void
test_hdf5_tools_csv_matches_reference(void **state)
{
    struct days *d = *state;
    struct tokio_timeseries *ts;
    struct stat st;
    char *script, a1[32], a2[32], *ours = NULL, *theirs;
    size_t len = 0, cap = 1 << 20, n = 0;
    int64_t start = d->midnight[0] + 23 * 3600, end = d->midnight[1] + 7200;
    int fds[2], status;
    FILE *fp;
    pid_t pid;

    if (stat("/usr/bin/python3", &st) != 0
        || stat("/tmp/pytokio/tokio/tools/hdf5.py", &st) != 0)
        skip();
    script = malloc(strlen(d->dir) + 16);
    assert_non_null(script);
    sprintf(script, "%s/ref.py", d->dir);
    tokio_test_write_file(script, ref_script, strlen(ref_script));
    snprintf(a1, sizeof(a1), "%lld", (long long)start);
    snprintf(a2, sizeof(a2), "%lld", (long long)end);
    assert_int_equal(pipe(fds), 0);
    if ((pid = fork()) == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        setenv("PYTHONPATH", "/tmp/pytokio", 1);
        setenv("PYTOKIO_CONFIG", d->config, 1);
        execl("/usr/bin/python3", "python3", script, a1, a2, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    theirs = calloc(1, cap);
    assert_non_null(theirs);
    for (ssize_t k; (k = read(fds[0], theirs + n, cap - 1 - n)) > 0;)
        n += (size_t)k;
    close(fds[0]);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(theirs);
        free(script);
        skip();         /* no h5py/pandas there */
    }
    assert_int_equal(tokio_hdf5_from_time_range(&ts, d->cfg, "testfs",
                     "datatargets/readrates", start, end, 0), TOKIO_OK);
    fp = open_memstream(&ours, &len);
    assert_non_null(fp);
    assert_int_equal(tokio_timeseries_write_csv(ts, fp), TOKIO_OK);
    fclose(fp);
    assert_int_equal(tokio_test_csv_diff(ours, theirs), 0);
    assert_string_equal(ours, theirs);      /* byte for byte, in fact */
    tokio_timeseries_free(ts);
    free(ours);
    free(theirs);
    free(script);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hdf5_tools_enumerate_takes_each_existing_day),
        cmocka_unit_test(test_hdf5_tools_files_and_indices),
        cmocka_unit_test(test_hdf5_tools_series_spans_days),
        cmocka_unit_test(test_hdf5_tools_fix_errors_masks_negatives),
        cmocka_unit_test(test_hdf5_tools_csv_matches_reference),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
