/*
 * tests/cli/test_export_tts.c - `tokio export-tts`, run as a user runs
 * it: every CSV golden of golden/pytokio/hdf5/ (the reference's
 * to_dataframe(NAME).to_csv() of TTS and H5LMT files) from the
 * COMMANDS.md working folder, byte for byte; a time range across daily
 * files this test writes, through a site configuration; then malformed
 * HDF5 (not HDF5, truncated, wrong types), missing files and usage
 * errors: a message naming the file and exit 1 (2 for usage).
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <hdf5.h>

#include "tokio/connectors/hdf5.h"
#include "tokio/time.h"

static const char *const env[] = { "TZ=America/Los_Angeles", NULL };

/* golden/pytokio/hdf5/ files: input, dataset */
static const char *const goldens[][2] = {
    { "snx11025_2018-01-28.hdf5", "datatargets/readbytes" },
    { "snx11025_2018-01-28.hdf5", "datatargets/writebytes" },
    { "snx11025_2018-01-28.hdf5", "datatargets/readrates" },
    { "snx11025_2018-01-28.hdf5", "datatargets/writerates" },
    { "snx11025_2018-01-28.hdf5", "dataservers/cpuload" },
    { "snx11025_2018-01-28.hdf5", "dataservers/memused" },
    { "snx11025_2018-01-28.hdf5", "mdservers/cpuload" },
    { "snx11025_2018-01-28.hdf5", "mdtargets/opens" },
    { "snx11025_2018-01-28.hdf5", "mdtargets/openrates" },
    { "snx11025_2018-01-28.hdf5", "mdtargets/closes" },
    { "snx11025_2018-01-28.hdf5", "fullness/bytes" },
    { "snx11025_2018-01-28.hdf5", "fullness/bytestotal" },
    { "snx11025_2018-01-28.h5lmt", "dataservers/cpuload" },
    { "snx11025_2018-01-28.h5lmt", "datatargets/readbytes" },
    { "snx11025_2018-01-28.h5lmt", "datatargets/readrates" },
    { "snx11025_2018-01-28.h5lmt", "datatargets/writebytes" },
    { "snx11025_2018-01-28.h5lmt", "datatargets/writerates" },
    { "snx11025_2018-01-28.h5lmt", "mdservers/cpuload" },
    { "snx11025_2018-01-28.h5lmt", "mdtargets/closes" },
    { "snx11025_2018-01-28.h5lmt", "mdtargets/openrates" },
    { "snx11025_2018-01-28.h5lmt", "mdtargets/opens" },
    { "sample_tokiots.hdf5", "datatargets/readbytes" },
    { "sample_tokiots.hdf5", "datatargets/readrates" },
    { "sample_tokiots.hdf5", "datatargets/writebytes" },
    { "sample_tokiots.hdf5", "datatargets/writerates" },
};

static void
test_export_tts_matches_every_golden(void **state)
{
    struct tokio_workdir wd;
    (void)state;

    TOKIO_TEST_NEED_WORKDIR(&wd);
    for (size_t i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++) {
        char in[256], rel[256], *p;
        snprintf(in, sizeof(in), "inputs/%s", goldens[i][0]);
        snprintf(rel, sizeof(rel), "golden/pytokio/hdf5/%s.%s.csv",
                 goldens[i][0], goldens[i][1]);
        for (p = rel + strlen("golden/pytokio/hdf5/") + strlen(goldens[i][0]);
             *p; p++)
            if (*p == '/')
                *p = '.';
        const char *argv[] = { "export-tts", in, goldens[i][1], NULL };
        struct tokio_run r = tokio_test_run(wd.dir, env, argv);
        if (r.status != 0)
            fail_msg("%s %s: exit %d: %s", in, goldens[i][1], r.status, r.err);
        assert_string_equal(r.err, "");
        assert_golden(r.out, rel);
        tokio_run_free(&r);
    }
    tokio_test_workdir_free(&wd);
}

/* ---- a time range over daily files ------------------------------------ */

/* One day of five-minute rows, two columns: value = minute of the day. */
static void
write_day(const char *dir, int mday)
{
    char sub[512], path[600], date[16];
    const char *names[] = { "ost1", "ost0" };
    struct tokio_timeseries *ts = NULL;
    struct tokio_hdf5_update *u = NULL;
    int64_t t0;
    double *v;

    assert_int_equal(tokio_time_from_local(2019, 3, mday, 0, 0, 0, &t0), 0);
    tokio_time_format(date, sizeof(date), t0, "%Y-%m-%d");
    snprintf(sub, sizeof(sub), "%s/%s", dir, date);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(path, sizeof(path), "%s/fs.hdf5", sub);
    assert_int_equal(tokio_timeseries_new(&ts, "datatargets/readbytes", t0,
                                          t0 + 86400, 300, 2, names, 2), 0);
    v = tokio_timeseries_data(ts);
    for (size_t r = 0; r < 288; r++) {
        v[r * 2] = (double)(r * 5) + 0.5;       /* ost1 */
        v[r * 2 + 1] = (double)(r * 5);         /* ost0 */
    }
    v[2 * 3 + 1] = -0.0;                        /* ost0 at 00:15 missing */
    assert_int_equal(tokio_timeseries_set_global_version(ts, "1"), 0);
    assert_int_equal(tokio_hdf5_update_begin(&u, path), 0);
    assert_int_equal(tokio_hdf5_update_commit(u, ts), 0);
    assert_int_equal(tokio_hdf5_update_finish(u), 0);
    tokio_timeseries_free(ts);
}

static void
test_export_tts_time_range_across_days(void **state)
{
    char *dir = tokio_test_mkdtemp(), cfg[600], text[1024], envcfg[700];
    const char *renv[] = { "TZ=America/Los_Angeles", envcfg, NULL };
    const char *argv[] = { "export-tts", "--start", "2019-03-01T23:50:00",
                           "--end", "2019-03-02T00:20:00", "fs",
                           "datatargets/readbytes", NULL };
    const char *none[] = { "export-tts", "--start", "2019-04-01T00:00:00",
                           "--end", "2019-04-02T00:00:00", "fs",
                           "datatargets/readbytes", NULL };
    struct tokio_run r;
    int n;
    (void)state;

    /* the test process runs in whatever TZ; the files' days are local to
     * America/Los_Angeles, as the command will see them */
    setenv("TZ", "America/Los_Angeles", 1);
    tzset();
    write_day(dir, 1);
    write_day(dir, 2);
    n = snprintf(text, sizeof(text), "{\"hdf5_files\": {\"fs\": "
                 "[\"%s/%%Y-%%m-%%d/fs.hdf5\"]}}\n", dir);
    snprintf(cfg, sizeof(cfg), "%s/site.json", dir);
    tokio_test_write_file(cfg, text, (size_t)n);
    snprintf(envcfg, sizeof(envcfg), "PYTOKIO_CONFIG=%s", cfg);
    r = tokio_test_run(NULL, renv, argv);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    assert_string_equal(r.out,
                        ",ost0,ost1\n"
                        "2019-03-01 23:50:00,1430.0,1430.5\n"
                        "2019-03-01 23:55:00,1435.0,1435.5\n"
                        "2019-03-02 00:00:00,0.0,0.5\n"
                        "2019-03-02 00:05:00,5.0,5.5\n"
                        "2019-03-02 00:10:00,10.0,10.5\n"
                        "2019-03-02 00:15:00,,15.5\n");
    tokio_run_free(&r);
    r = tokio_test_run(NULL, renv, none);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "'fs'");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
}

/* ---- malformed input -------------------------------------------------- */

static void
expect_failure(const char *path, const char *dataset, const char *needle)
{
    const char *argv[] = { "export-tts", path, dataset, NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    if (r.status != 1)
        fail_msg("%s: exit %d, stderr %s", path, r.status, r.err);
    assert_contains(r.err, path);
    if (needle)
        assert_contains(r.err, needle);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
}

/* A version-1 file whose datatargets/readrates is made by `how`. */
static void
make_bad(const char *path, int how)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g, s, d, a, str = H5Tcopy(H5T_C_S1);
    hsize_t dims3[3] = { 2, 2, 2 }, dims2[2] = { 2, 2 }, one = 2;
    int64_t t[2] = { 0, 5 }, cols[2] = { 1, 2 };
    double v[8] = { 0 };

    assert_true(f >= 0);
    H5Tset_size(str, 1);
    s = H5Screate(H5S_SCALAR);
    a = H5Acreate2(f, "version", str, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, str, "1");
    H5Aclose(a);
    H5Sclose(s);
    g = H5Gcreate2(f, "datatargets", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (how != 1) {
        s = H5Screate_simple(1, &one, NULL);
        d = H5Dcreate2(g, "timestamps", H5T_STD_I64LE, s, H5P_DEFAULT,
                       H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, t);
        H5Dclose(d);
        H5Sclose(s);
    }
    s = how == 0 ? H5Screate_simple(3, dims3, NULL)
                 : H5Screate_simple(2, dims2, NULL);
    d = H5Dcreate2(g, "readrates", how == 3 ? str : H5T_IEEE_F64LE, s,
                   H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (how != 3)
        H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Sclose(s);
    if (how == 2) {     /* column names that are numbers */
        s = H5Screate_simple(1, &one, NULL);
        a = H5Acreate2(d, "columns", H5T_STD_I64LE, s, H5P_DEFAULT,
                       H5P_DEFAULT);
        H5Awrite(a, H5T_NATIVE_INT64, cols);
        H5Aclose(a);
        H5Sclose(s);
    }
    H5Dclose(d);
    H5Gclose(g);
    H5Tclose(str);
    H5Fclose(f);
}

static void
test_export_tts_malformed_hdf5_fails_naming_file(void **state)
{
    char *dir = tokio_test_mkdtemp(), path[600], *data;
    const char *names[] = { "a" };
    struct tokio_timeseries *ts = NULL;
    struct tokio_hdf5_update *u = NULL;
    size_t len;
    (void)state;

    /* not HDF5 at all */
    snprintf(path, sizeof(path), "%s/text.hdf5", dir);
    tokio_test_write_file(path, "hello, world\n", 13);
    expect_failure(path, "datatargets/readbytes", "not an HDF5 file");

    /* a good file cut in half */
    snprintf(path, sizeof(path), "%s/whole.hdf5", dir);
    assert_int_equal(tokio_timeseries_new(&ts, "datatargets/readrates", 0,
                                          5000, 5, 1, names, 1), 0);
    assert_int_equal(tokio_timeseries_set_global_version(ts, "1"), 0);
    assert_int_equal(tokio_hdf5_update_begin(&u, path), 0);
    assert_int_equal(tokio_hdf5_update_commit(u, ts), 0);
    assert_int_equal(tokio_hdf5_update_finish(u), 0);
    tokio_timeseries_free(ts);
    data = tokio_test_read_file(path, &len);
    snprintf(path, sizeof(path), "%s/half.hdf5", dir);
    tokio_test_write_file(path, data, len / 2);
    free(data);
    expect_failure(path, "datatargets/readrates", NULL);

    /* wrong shapes and types */
    snprintf(path, sizeof(path), "%s/three-d.hdf5", dir);
    make_bad(path, 0);
    expect_failure(path, "datatargets/readrates", NULL);
    snprintf(path, sizeof(path), "%s/no-timestamps.hdf5", dir);
    make_bad(path, 1);
    expect_failure(path, "datatargets/readrates", "timestamp");
    snprintf(path, sizeof(path), "%s/int-columns.hdf5", dir);
    make_bad(path, 2);
    expect_failure(path, "datatargets/readrates", "columns");
    snprintf(path, sizeof(path), "%s/string-data.hdf5", dir);
    make_bad(path, 3);
    expect_failure(path, "datatargets/readrates", NULL);
    /* a dataset the file lacks */
    snprintf(path, sizeof(path), "%s/whole.hdf5", dir);
    expect_failure(path, "mdtargets/opens", "mdtargets/opens");

    /* missing */
    expect_failure("/nonexistent/x.hdf5", "datatargets/readbytes", NULL);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_export_tts_writes_output_file(void **state)
{
    char *dir, out[600], *text;
    size_t len;
    (void)state;
    TOKIO_TEST_NEED_DATA(in, "pytokio-inputs/sample_tokiots.hdf5");
    dir = tokio_test_mkdtemp();

    snprintf(out, sizeof(out), "%s/out.csv", dir);
    const char *argv[] = { "export-tts", "-o", out, in,
                           "datatargets/readrates", NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    text = tokio_test_read_file(out, &len);
    assert_golden(text, "golden/pytokio/hdf5/"
                        "sample_tokiots.hdf5.datatargets.readrates.csv");
    free(text);
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_export_tts_usage_errors_exit_2(void **state)
{
    const char *none[] = { "export-tts", NULL };
    const char *one[] = { "export-tts", "a.hdf5", NULL };
    const char *half[] = { "export-tts", "--start", "2019-01-01", "fs", "x",
                           NULL };
    const char *bad[] = { "export-tts", "--start", "yesterday", "--end",
                          "2019-01-01", "fs", "x", NULL };
    const char *back[] = { "export-tts", "--start", "2019-01-02", "--end",
                           "2019-01-01", "fs", "x", NULL };
    const char *fix[] = { "export-tts", "--fix-errors", "a", "x", NULL };
    const char *const *argvs[] = { none, one, half, bad, back, fix };
    (void)state;

    for (size_t i = 0; i < sizeof(argvs) / sizeof(argvs[0]); i++) {
        struct tokio_run r = tokio_test_run(NULL, env, argvs[i]);
        assert_int_equal(r.status, 2);
        assert_contains(r.err, "export-tts --help");
        tokio_run_free(&r);
    }
}

int
main(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_export_tts_matches_every_golden),
        cmocka_unit_test(test_export_tts_time_range_across_days),
        cmocka_unit_test(test_export_tts_malformed_hdf5_fails_naming_file),
        cmocka_unit_test(test_export_tts_writes_output_file),
        cmocka_unit_test(test_export_tts_usage_errors_exit_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
