/*
 * tests/tools/test_lfsstatus_hdf5.c - the lfsstatus tool's "hdf5"
 * fullness provider (src/tools/lfsstatus_hdf5.c): the sample nearest the
 * time, missing cells filled, OST indices from column names, and "no
 * data" versus errors.  Its summaries through tokio_lfsstatus_get_fullness()
 * are checked against the reference's get_fullness_hdf5() at the end.
 */
#include "testutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "tokio/config.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/timeseries.h"
#include "tokio/tools/lfsstatus.h"
#include "tools/lfsstatus_private.h"

/* 2018-01-28T00:00:00 in America/Los_Angeles, the tests' zone */
#define DAY0 1517126400

struct site {
    char *dir;
    struct tokio_config *cfg;
};

/* A site whose hdf5_files for "fs1" is DIR/%Y-%m-%d/fs1.hdf5. */
static void
site_new(struct site *s, const char *extra)
{
    char json[8192];

    s->dir = tokio_test_mkdtemp();
    snprintf(json, sizeof(json),
             "{\"hdf5_files\": {\"fs1\": \"%s/%%Y-%%m-%%d/fs1.hdf5\"}%s}",
             s->dir, extra ? extra : "");
    assert_int_equal(tokio_config_open_mem(&s->cfg, json, strlen(json), "site.json"),
                     TOKIO_OK);
}

static void
site_free(struct site *s)
{
    tokio_config_free(s->cfg);
    tokio_test_rmtree(s->dir);
    free(s->dir);
}

/* The day folder's file name (made on demand). */
static char *
day_file(const struct site *s)
{
    char *path = malloc(4096);

    snprintf(path, 4096, "%s/2018-01-28", s->dir);
    assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
    snprintf(path, 4096, "%s/2018-01-28/fs1.hdf5", s->dir);
    return path;
}

/* Commit `dataset`, rows every 10 s from DAY0, `cells` row by row. */
static void
commit(struct tokio_hdf5_update *u, const char *dataset, size_t rows,
       const char *const *names, size_t cols, const double *cells)
{
    struct tokio_timeseries *ts;

    assert_int_equal(tokio_timeseries_new(&ts, dataset, DAY0,
                                          DAY0 + 10 * (int64_t)rows, 10, cols,
                                          names, cols), TOKIO_OK);
    memcpy(tokio_timeseries_data(ts), cells, rows * cols * sizeof(double));
    assert_int_equal(tokio_hdf5_update_commit(u, ts), TOKIO_OK);
    tokio_timeseries_free(ts);
}

/* A file with /fullness/bytes and /fullness/bytestotal, 3 rows. */
static void
write_fullness(const struct site *s, const char *const *names, size_t cols,
               const double *bytes, const double *total)
{
    char *path = day_file(s);
    struct tokio_hdf5_update *u;

    assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_set_version(u, "1"), TOKIO_OK);
    commit(u, "fullness/bytes", 3, names, cols, bytes);
    commit(u, "fullness/bytestotal", 3, names, cols, total);
    assert_int_equal(tokio_hdf5_update_finish(u), TOKIO_OK);
    free(path);
}

/* tokio__lfsstatus_hdf5_fullness() of `fs` at `t` on `cfg` into *snap:
 * status `rc`, and found or not as `found` says. */
static void
fullness(struct tokio__fullness_snapshot *snap, const struct tokio_config *cfg,
         const char *fs, int64_t t, int rc, int found)
{
    int got = -1;

    assert_int_equal(tokio__lfsstatus_hdf5_fullness(snap, &got, cfg, fs, t),
                     rc);
    assert_int_equal(got, found);
}

static void
test_nearest_sample_and_filled_cells(void **state)
{
    (void)state;
    static const char *const names[] = { "fs1-OST0000", "fs1-OST000a" };
    /* -0.0 is missing: OST0000 lacks row 1, OST000a lacks rows 0 and 1 */
    static const double bytes[] = { 1024.0 * 10, -0.0,
                                    -0.0, -0.0,
                                    1024.0 * 30, 1024.0 * 7.9 };
    static const double total[] = { 1024.0 * 100, 1024.0 * 200,
                                    1024.0 * 100, 1024.0 * 200,
                                    1024.0 * 100, 1024.0 * 200 };
    struct site s;
    struct tokio__fullness_snapshot snap;

    site_new(&s, NULL);
    write_fullness(&s, names, 2, bytes, total);

    /* DAY0 + 5 is as near row 0 as row 1: the later one, row 1 */
    fullness(&snap, s.cfg, "fs1", DAY0 + 5, TOKIO_OK, 1);
    assert_int_equal(snap.timestamp, DAY0 + 10);
    assert_true(snap.has_next);
    assert_int_equal(snap.next_timestamp, DAY0 + 20);
    assert_int_equal(snap.n_targets, 2);
    assert_string_equal(snap.targets[0].name, "OST0000");
    assert_int_equal(snap.targets[0].target_index, 0);
    /* row 1 missing: the earlier sample's 10 KiB (ffill) */
    assert_int_equal(snap.targets[0].used_kib, 10);
    assert_int_equal(snap.targets[0].total_kib, 100);
    assert_string_equal(snap.targets[1].name, "OST000a");
    assert_int_equal(snap.targets[1].target_index, 10);
    /* no earlier sample: the later one's 7.9 KiB, truncated (bfill) */
    assert_int_equal(snap.targets[1].used_kib, 7);
    assert_int_equal(snap.targets[1].total_kib, 200);
    tokio__fullness_snapshot_free(&snap);

    /* long after: the last row, no next */
    fullness(&snap, s.cfg, "fs1", DAY0 + 3000, TOKIO_OK, 1);
    assert_int_equal(snap.timestamp, DAY0 + 20);
    assert_false(snap.has_next);
    assert_int_equal(snap.targets[0].used_kib, 30);
    tokio__fullness_snapshot_free(&snap);
    site_free(&s);
}

static void
test_nothing_to_read_is_not_an_error(void **state)
{
    (void)state;
    struct site s;
    struct tokio__fullness_snapshot snap;
    struct tokio_config *empty;

    site_new(&s, NULL);
    /* no file that day */
    fullness(&snap, s.cfg, "fs1", DAY0, TOKIO_OK, 0);
    /* a file system hdf5_files does not list */
    fullness(&snap, s.cfg, "fs2", DAY0, TOKIO_OK, 0);
    /* no hdf5_files at all */
    assert_int_equal(tokio_config_open_mem(&empty, "{}", 2, "empty.json"), TOKIO_OK);
    fullness(&snap, empty, "fs1", DAY0, TOKIO_OK, 0);
    tokio_config_free(empty);
    /* a TTS file without the fullness datasets */
    {
        static const char *const names[] = { "fs1-OST0000" };
        static const double rb[] = { 1.0, 2.0, 3.0 };
        char *path = day_file(&s);
        struct tokio_hdf5_update *u;
        assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_OK);
        assert_int_equal(tokio_hdf5_update_set_version(u, "1"), TOKIO_OK);
        commit(u, "datatargets/readbytes", 3, names, 1, rb);
        assert_int_equal(tokio_hdf5_update_finish(u), TOKIO_OK);
        free(path);
    }
    fullness(&snap, s.cfg, "fs1", DAY0, TOKIO_OK, 0);
    site_free(&s);
}

static void
test_bad_columns_are_errors(void **state)
{
    (void)state;
    static const double ok[] = { 1024.0, 1024.0, 1024.0 };
    static const double none[] = { -0.0, -0.0, -0.0 };
    static const char *const no_index[] = { "fs1-OST" };
    static const char *const not_hex[] = { "fs1-OSTxyz" };
    struct site s;
    struct tokio__fullness_snapshot snap;
    int found = -1;

    site_new(&s, NULL);
    write_fullness(&s, no_index, 1, ok, ok);
    assert_int_equal(tokio__lfsstatus_hdf5_fullness(&snap, &found, s.cfg,
                                                    "fs1", DAY0),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'fs1-OST'");
    assert_int_equal(found, 0);
    site_free(&s);

    site_new(&s, NULL);
    write_fullness(&s, not_hex, 1, ok, ok);
    assert_int_equal(tokio__lfsstatus_hdf5_fullness(&snap, &found, s.cfg,
                                                    "fs1", DAY0),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "cannot derive an OST index");
    site_free(&s);

    /* a column with no value in the window */
    static const char *const names[] = { "fs1-OST0001" };
    site_new(&s, NULL);
    write_fullness(&s, names, 1, none, ok);
    assert_int_equal(tokio__lfsstatus_hdf5_fullness(&snap, &found, s.cfg,
                                                    "fs1", DAY0),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "no fullness data for "
                                           "'fs1-OST0001'");
    site_free(&s);
}

/*
 * Through tokio_lfsstatus_get_fullness(): the pack's archive-lmtdb output
 * for snx11025 (2018-01-28, 00:00 to 00:04:55 every 5 s) as scratch1's
 * TTS file.  The expected values are the reference's get_fullness_hdf5()
 * on the same file and times (pytokio 0.13, pandas 1.5), timestamps as
 * epochs.
 */
static void
test_summary_equals_reference(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(src, "pytokio-inputs/snx11025_2018-01-28.hdf5");
    struct site s;
    json_t *r = NULL;

    site_new(&s, ", \"lfsstatus_fullness_providers\": [\"hdf5\"]");
    char *path = day_file(&s);
    assert_int_equal(symlink(src, path), 0);

    struct {
        int64_t when, actual, next;
        int64_t avg_kib, least_kib, most_kib;
        double avg_pct, least_pct, most_pct;
    } cases[] = {
        /* 00:02:32 -> the 00:02:30 sample */
        { DAY0 + 152, DAY0 + 150, DAY0 + 155, 49963369, 48032734, 52850931,
          56.36643605519134, 54.18838008235623, 59.6240542279851 },
        /* 23:30 the day before: the window reaches the first sample */
        { DAY0 - 1800, DAY0, DAY0 + 5, 49962066, 48032706, 52850924,
          56.36496606892641, 54.18834849400979, 59.62404633089849 },
        { DAY0 + 290, DAY0 + 290, DAY0 + 295, 49964583, 48032763, 52850956,
          56.367805635640785, 54.18841279885791, 59.62408243186585 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_int_equal(tokio_lfsstatus_get_fullness(&r, s.cfg, "fs1",
                                                      cases[i].when, NULL),
                         TOKIO_OK);
        assert_int_equal(json_integer_value(json_object_get(
            r, "ost_count")), 24);
        assert_int_equal(json_integer_value(json_object_get(
            r, "ost_actual_timestamp")), cases[i].actual);
        assert_int_equal(json_integer_value(json_object_get(
            r, "ost_next_timestamp")), cases[i].next);
        assert_int_equal(json_integer_value(json_object_get(
            r, "ost_requested_timestamp")), cases[i].when);
        assert_int_equal(json_integer_value(json_object_get(
            r, "ost_avg_full_kib")), cases[i].avg_kib);
        assert_int_equal(json_integer_value(json_object_get(
            r, "ost_least_full_kib")), cases[i].least_kib);
        assert_int_equal(json_integer_value(json_object_get(
            r, "ost_most_full_kib")), cases[i].most_kib);
        assert_true(json_real_value(json_object_get(
            r, "ost_avg_full_pct")) == cases[i].avg_pct);
        assert_true(json_real_value(json_object_get(
            r, "ost_least_full_pct")) == cases[i].least_pct);
        assert_true(json_real_value(json_object_get(
            r, "ost_most_full_pct")) == cases[i].most_pct);
        assert_string_equal(json_string_value(json_object_get(
            r, "ost_least_full_name")), "OST0009");
        assert_int_equal(json_integer_value(json_object_get(
            r, "ost_least_full_id")), 9);
        assert_string_equal(json_string_value(json_object_get(
            r, "ost_most_full_name")), "OST0005");
        assert_int_equal(json_integer_value(json_object_get(
            r, "ost_most_full_id")), 5);
        json_decref(r);
    }
    free(path);
    site_free(&s);
}

/* hdf5 without data falls through to nersc_lfsstate, which reads the
 * back-end name's history; with nothing anywhere the error says so */
static void
test_providers_in_turn(void **state)
{
    (void)state;
    struct site s;
    json_t *r = NULL;
    char extra[8192], hist[4096];

    site_new(&s, NULL);
    snprintf(hist, sizeof(hist), "%s/osts.txt", s.dir);
    tokio_test_write_file(hist,
                          "BEGIN 1517126400\n"
                          "snx11001-OST0000_UUID 100 40 60  40% /s[OST:0]\n",
                          SIZE_MAX);
    snprintf(extra, sizeof(extra),
             ", \"lfsstatus_fullness_providers\": [\"hdf5\", "
             "\"nersc_lfsstate\"], \"lfsstatus_fullness_files\": \"%s\", "
             "\"fsname_to_backend_name\": {\"fs1\": \"snx11001\"}",
             hist);
    tokio_config_free(s.cfg);
    char json[16384];
    snprintf(json, sizeof(json),
             "{\"hdf5_files\": {\"fs1\": \"%s/%%Y-%%m-%%d/fs1.hdf5\"}%s}",
             s.dir, extra);
    assert_int_equal(tokio_config_open_mem(&s.cfg, json, strlen(json),
                                           "site.json"), TOKIO_OK);
    /* no TTS file that day: answered from the lfs df history */
    int rc = tokio_lfsstatus_get_fullness(&r, s.cfg, "fs1", DAY0 + 60, NULL);
    if (rc != TOKIO_OK)
        print_message("%s\n", tokio_errmsg());
    assert_int_equal(rc, TOKIO_OK);
    assert_int_equal(json_integer_value(json_object_get(
        r, "ost_least_full_kib")), 40);
    json_decref(r);

    /* hdf5 only, no data: an error naming the file system */
    static const char only[] =
        "{\"hdf5_files\": \"/nonexistent/%Y.hdf5\", "
        "\"lfsstatus_fullness_providers\": [\"hdf5\"]}";
    struct tokio_config *cfg;
    assert_int_equal(tokio_config_open_mem(&cfg, only, strlen(only),
                                           "only.json"), TOKIO_OK);
    assert_int_equal(tokio_lfsstatus_get_fullness(&r, cfg, "fs1", DAY0,
                                                  NULL), TOKIO_ENOTFOUND);
    assert_null(r);
    assert_contains(tokio_errmsg(), "no fullness data for 'fs1'");
    tokio_config_free(cfg);
    site_free(&s);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nearest_sample_and_filled_cells),
        cmocka_unit_test(test_nothing_to_read_is_not_an_error),
        cmocka_unit_test(test_bad_columns_are_errors),
        cmocka_unit_test(test_summary_equals_reference),
        cmocka_unit_test(test_providers_in_turn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
