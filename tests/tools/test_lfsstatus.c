/*
 * tests/tools/test_lfsstatus.c - src/tools/lfsstatus.c: the pick of the
 * snapshot, the summaries, providers.  The nine golden runs are in
 * tests/cli/test_cache_lfsstatus.c.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/config.h"
#include "tokio/tools/lfsstatus.h"

static char *
write_tmp(char **dir, const char *text)
{
    char *path = malloc(4096);

    *dir = tokio_test_mkdtemp();
    snprintf(path, 4096, "%s/osts.txt", *dir);
    tokio_test_write_file(path, text, SIZE_MAX);
    return path;
}

static const char history[] =
    "BEGIN 100\n"
    "snx1-MDT0000_UUID 10 0 10   0% /s[MDT:0]\n"
    "snx1-OST0000_UUID 10 0 10   0% /s[OST:0]\n"
    "snx1-OST0001_UUID 20 0 20   0% /s[OST:1]\n"
    "BEGIN 200\n"
    "snx1-OST0000_UUID 10 5 5  50% /s[OST:0]\n"
    "snx1-OST0001_UUID 20 5 15  25% /s[OST:1]\n"
    "snx1-OST0002_UUID 40 30 10  75% /s[OST:2]\n";

static void
test_lfsstatus_picks_preceding_snapshot(void **state)
{
    (void)state;
    char *dir, *path = write_tmp(&dir, history);
    json_t *r = NULL;

    /* before every snapshot: the first, with the next one's time */
    assert_int_equal(tokio_lfsstatus_get_fullness(&r, NULL, "snx1", 50,
                                                  path), TOKIO_OK);
    assert_int_equal(json_integer_value(json_object_get(
        r, "ost_actual_timestamp")), 100);
    assert_int_equal(json_integer_value(json_object_get(
        r, "ost_next_timestamp")), 200);
    /* all used 0: Differs from pytokio (KeyError): the first OST */
    assert_string_equal(json_string_value(json_object_get(
        r, "ost_most_full_name")), "OST0000");
    json_decref(r);
    /* exactly at 200: the one before, as the reference */
    assert_int_equal(tokio_lfsstatus_get_fullness(&r, NULL, "snx1", 200,
                                                  path), TOKIO_OK);
    assert_int_equal(json_integer_value(json_object_get(
        r, "ost_actual_timestamp")), 100);
    json_decref(r);
    /* after all: the last (Differs from pytokio: it gave the first) */
    assert_int_equal(tokio_lfsstatus_get_fullness(&r, NULL, "snx1", 999,
                                                  path), TOKIO_OK);
    assert_int_equal(json_integer_value(json_object_get(
        r, "ost_actual_timestamp")), 200);
    assert_null(json_object_get(r, "ost_next_timestamp"));
    assert_int_equal(json_integer_value(json_object_get(r, "ost_count")), 3);
    /* least: the first of equals (OST0000 and OST0001 both 5) */
    assert_string_equal(json_string_value(json_object_get(
        r, "ost_least_full_name")), "OST0000");
    assert_int_equal(json_integer_value(json_object_get(
        r, "ost_most_full_id")), 2);
    assert_int_equal(json_integer_value(json_object_get(
        r, "ost_avg_full_kib")), 13);
    /* 100.0 * 13 / 70 * 3, in that order */
    assert_true(json_real_value(json_object_get(r, "ost_avg_full_pct")) ==
                100.0 * 13.0 / 70.0 * 3.0);
    json_decref(r);
    assert_int_equal(tokio_lfsstatus_get_fullness(&r, NULL, "snx9", 999,
                                                  path), TOKIO_ENOTFOUND);
    assert_null(r);
    /* an lfs df history is no map history (issue 17: it was read as
     * one without targets) */
    assert_int_equal(tokio_lfsstatus_get_failures(&r, NULL, "snx1", 999,
                                                  path), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "osts.txt': not a history of lctl dl "
                    "-t outputs");
    tokio_test_rmtree(dir);
    free(dir);
    free(path);
}

static void
test_lfsstatus_providers_and_config(void **state)
{
    (void)state;
    struct tokio_config *cfg = NULL;
    const char *text = "{\"lfsstatus_fullness_providers\": [\"hdf5\"]}";
    json_t *r = NULL;

    assert_int_equal(tokio_config_open_mem(&cfg, text, strlen(text), "t"),
                     TOKIO_OK);
    assert_int_equal(tokio_lfsstatus_get_fullness(&r, cfg, "x", 0, NULL),
                     TOKIO_EINVAL);
    /* hdf5 without hdf5_files does not apply: no usable provider */
    assert_contains(tokio_errmsg(), "no usable lfsstatus_fullness_providers");
    assert_contains(tokio_errmsg(), "hdf5, which needs hdf5_files");
    /* nersc_lfsstate without a template */
    assert_int_equal(tokio_lfsstatus_get_fullness(&r, NULL, "x", 0, NULL),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "lfsstatus_fullness_files");
    assert_int_equal(tokio_lfsstatus_get_failures(&r, cfg, "x", 0, NULL),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "lfsstatus_map_files");
    tokio_config_free(cfg);
    /* text that is no history is refused as such (issue 17: it was
     * read whole, as a history without snapshots) */
    char *dir, *path = write_tmp(&dir, "no history here\n");
    assert_int_equal(tokio_lfsstatus_get_failures(&r, NULL, "x", 0, path),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "osts.txt': not a history of lctl dl -t "
                    "outputs (BEGIN <epoch> lines)");
    tokio_test_rmtree(dir);
    free(dir);
    free(path);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lfsstatus_picks_preceding_snapshot),
        cmocka_unit_test(test_lfsstatus_providers_and_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
