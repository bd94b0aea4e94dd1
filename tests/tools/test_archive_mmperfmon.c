/*
 * tests/tools/test_archive_mmperfmon.c - tokio_archive_mmperfmon()
 * (src/tools/archive_mmperfmon.c) in process, on a small site and input
 * of our own: where each value goes, the warnings, the failures (each
 * leaving no file), running out of memory.  The command and the sample
 * data are tests/cli/test_archive_mmperfmon.c's.
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/config.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/time.h"
#include "tokio/timeseries.h"
#include "tokio/tools/archive_mmperfmon.h"

static const char site[] =
    "{\"mmperfmon_lun_map\": {\"^lun\\\\d+$\": \"datatarget\", "
    "\"^md\\\\d+$\": \"mdtarget\"}, "
    "\"mmperfmon_server_map\": {\"^meta\": \"mdserver\"}, "
    "\"mmperfmon_output_files\": {\"fs1\": [\"%s/%%Y-%%m-%%d.%%H.txt\"]}}";

/* 10:01, 10:02 and 10:03 on 2019-01-11 (PST) fill rows 0 to 2 of a
 * series starting at 10:00; mem_free (no unit) names no dataset of the
 * schema */
static const char data[] =
    "Legend:\n"
    " 1:\tdata1|CPU|cpu_user\n"
    " 2:\tmeta1|CPU|cpu_user\n"
    " 3:\tdata1|GPFSNSDDisk|lun2|gpfs_nsdds_bytes_read\n"
    " 4:\tdata1|GPFSNSDDisk|lun10|gpfs_nsdds_bytes_read\n"
    " 5:\tmeta1|GPFSNSDDisk|md1|gpfs_nsdds_bytes_written\n"
    " 6:\tdata1|Network|eth0|net_r\n"
    " 7:\tdata1|Memory|mem_free\n"
    "Row           Timestamp cpu_user cpu_user  lun2 lun10   md1  net_r "
    "mem_free\n"
    "  1 2019-01-11-10:01:00     0.25      0.5    10  null     7   1 kB "
    "       5\n"
    "  2 2019-01-11-10:02:00     0.75     null    20    30  null   2 kB "
    "    null\n"
    "  3 2019-01-11-10:03:00      0.5     null  null  null  null   3 kB "
    "    null\n";

struct fixture {
    char *dir, input[4096], output[4096];
    struct tokio_config *cfg;
    struct tokio_archive_mmperfmon_args args;
    const char *files[1];
};

static int
setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    char cfg[1024];
    int64_t start;

    assert_non_null(f);
    f->dir = tokio_test_mkdtemp();
    snprintf(f->input, sizeof(f->input), "%s/2019-01-11.10.txt", f->dir);
    snprintf(f->output, sizeof(f->output), "%s/out.hdf5", f->dir);
    tokio_test_write_file(f->input, data, SIZE_MAX);
    snprintf(cfg, sizeof(cfg), site, f->dir);
    assert_int_equal(tokio_config_open_mem(&f->cfg, cfg, strlen(cfg),
                                           "site"), TOKIO_OK);
    assert_int_equal(tokio_time_parse("2019-01-11T10:00:00", &start),
                     TOKIO_OK);
    f->files[0] = f->input;
    f->args = (struct tokio_archive_mmperfmon_args){
        .output = f->output, .filesystem = "fs1",
        .start = start, .end = start + 3600,
        .init_start = TOKIO_ARCHIVE_MMPERFMON_DEFAULT,
        .init_end = TOKIO_ARCHIVE_MMPERFMON_DEFAULT, .timestep = 60 };
    *state = f;
    return 0;
}

static int
teardown(void **state)
{
    struct fixture *f = *state;

    tokio_config_free(f->cfg);
    tokio_test_rmtree(f->dir);
    free(f->dir);
    free(f);
    return 0;
}

static double
cell(const char *path, const char *set, size_t row, const char *col)
{
    struct tokio_timeseries *ts = tokio_test_tts_read(path, set);
    long c = tokio_timeseries_column_index(ts, col);
    double v;

    if (c < 0)
        fail_msg("%s: no column %s", set, col);
    v = tokio_timeseries_cdata(ts)[row * tokio_timeseries_cols(ts) +
                                   (size_t)c];
    tokio_timeseries_free(ts);
    return v;
}

static int
same(double a, double b)
{
    return a == b && signbit(a) == signbit(b);
}

static void
check_output(const char *path)
{
    struct tokio_timeseries *ts;

    assert_true(same(cell(path, "dataservers/cpuuser", 0, "data1"), 25));
    assert_true(same(cell(path, "dataservers/cpuuser", 1, "data1"), 75));
    assert_true(same(cell(path, "dataservers/cpuload", 1, "data1"), 0.75));
    assert_true(same(cell(path, "mdservers/cpuuser", 0, "meta1"), 50));
    assert_true(same(cell(path, "mdservers/cpuuser", 1, "meta1"), -0.0));
    assert_true(same(cell(path, "datatargets/readbytes", 0, "data1:lun2"),
                     10));
    assert_true(same(cell(path, "datatargets/readbytes", 1, "data1:lun10"),
                     30));
    assert_true(same(cell(path, "mdtargets/writebytes", 0, "meta1:md1"), 7));
    /* natural order: lun2 before lun10; 60 rows from 10:00 */
    ts = tokio_test_tts_read(path, "datatargets/readbytes");
    assert_int_equal(tokio_timeseries_rows(ts), 60);
    assert_string_equal(tokio_timeseries_column(ts, 0), "data1:lun2");
    assert_string_equal(tokio_timeseries_column(ts, 1), "data1:lun10");
    tokio_timeseries_free(ts);
}

static void
test_archive_from_the_site_files(void **state)
{
    struct fixture *f = *state;
    json_t *warnings = NULL;

    if (tokio_archive_mmperfmon(f->cfg, &f->args, &warnings) != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    check_output(f->output);
    /* the interface has no dataset; mem_free is outside the schema */
    assert_int_equal(json_array_size(warnings), 1);
    assert_string_equal(json_string_value(json_array_get(warnings, 0)),
                        "skipping dataservers/mem_free (not in schema)");
    json_decref(warnings);
}

static void
test_archive_given_files_spans_their_data(void **state)
{
    struct fixture *f = *state;
    struct tokio_timeseries *ts;
    FILE *log = tmpfile();
    char line[4200];

    assert_non_null(log);
    f->args.files = f->files;
    f->args.nfiles = 1;
    f->args.log = log;
    if (tokio_archive_mmperfmon(f->cfg, &f->args, NULL) != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    rewind(log);
    assert_non_null(fgets(line, sizeof(line), log));
    assert_contains(line, "Loading ");
    assert_contains(line, "2019-01-11.10.txt");
    fclose(log);
    /* from the first timestamp, 10:01, to the last, 10:03, exclusive:
     * rows of 10:01 and 10:02, holding the values of 10:02 and 10:03 */
    ts = tokio_test_tts_read(f->output, "dataservers/cpuuser");
    assert_int_equal(tokio_timeseries_rows(ts), 2);
    assert_true(same(tokio_timeseries_cdata(ts)[0], 75));
    assert_true(same(tokio_timeseries_cdata(ts)[1], 50));
    tokio_timeseries_free(ts);
}

static void
expect_failure(struct fixture *f, int status, const char *message)
{
    json_t *warnings = NULL;

    assert_int_equal(tokio_archive_mmperfmon(f->cfg, &f->args, &warnings),
                     status);
    assert_contains(tokio_errmsg(), message);
    assert_non_null(warnings);
    json_decref(warnings);
    assert_null(tokio_test_read_file(f->output, NULL));
}

static void
test_archive_failures(void **state)
{
    struct fixture *f = *state;
    struct tokio_config *cfg = f->cfg;
    const char *nodata[] = { "/dev/null", "/dev/null" };

    f->args.start += 86400;
    f->args.end += 86400;
    expect_failure(f, TOKIO_ENOTFOUND, "no input files of 'fs1'");
    f->args.start -= 86400;
    f->args.end -= 86400;
    f->args.init_end = f->args.start;
    expect_failure(f, TOKIO_EINVAL, "must come before");
    f->args.init_end = TOKIO_ARCHIVE_MMPERFMON_DEFAULT;
    f->args.files = nodata;
    f->args.nfiles = 1;
    /* issue 17, item 8: it said "no data in the input files" */
    expect_failure(f, TOKIO_ENOTFOUND, "'/dev/null': no mmperfmon data in it");
    f->args.nfiles = 2;
    expect_failure(f, TOKIO_ENOTFOUND, "'/dev/null' and the 1 other input "
                   "files: no mmperfmon data in them");
    f->args.nfiles = 0;
    tokio_test_write_file(f->input, "Legend:\nbroken\n", SIZE_MAX);
    expect_failure(f, TOKIO_EFORMAT, "2019-01-11.10.txt' line 2");
    const char *bad = "{\"mmperfmon_lun_map\": {\"(\": \"x\"}}";

    assert_int_equal(tokio_config_open_mem(&f->cfg, bad, strlen(bad), "bad"),
                     TOKIO_OK);
    expect_failure(f, TOKIO_EINVAL, "mmperfmon_lun_map': bad regular "
                   "expression '('");
    tokio_config_free(f->cfg);
    f->cfg = cfg;
}

static int
archive_once(void *ctx)
{
    struct fixture *f = ctx;
    json_t *warnings = NULL;
    int rc;

    remove(f->output);
    rc = tokio_archive_mmperfmon(f->cfg, &f->args, &warnings);
    json_decref(warnings);
    return rc;
}

static void
test_archive_survives_every_oom(void **state)
{
    struct fixture *f = *state;

    tokio_test_every_oom(archive_once, f, 1);
    check_output(f->output);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_archive_from_the_site_files,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_archive_given_files_spans_their_data, setup, teardown),
        cmocka_unit_test_setup_teardown(test_archive_failures, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_archive_survives_every_oom,
                                        setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
