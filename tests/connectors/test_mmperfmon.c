/*
 * tests/connectors/test_mmperfmon.c - GPFS mmperfmon outputs
 * (src/connectors/mmperfmon.c) beyond what tests/connectors/
 * test_connectors.c checks of every connector from tests/connectors/
 * mmperfmon/ (opening, the JSON form read back, malformed inputs, running
 * out of memory): the exact JSON text of a small wrapped table of our own
 * with units, nulls and device counters; the CSV views on a JSON of our
 * own that exercises pandas' row order and column types; several outputs
 * stored in the reference's order; tarballs and folders; the sample
 * inputs against the reference's goldens.
 *
 * The expected values of the small inputs were worked out by hand from
 * the reference's rules (and agree with what pytokio 0.13 prints for the
 * same inputs, checked once by hand).  TZ is America/Los_Angeles (ctest).
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>

#include "tokio/connectors/mmperfmon.h"
#include "tokio/output.h"

#define GOLDEN "golden/pytokio/cache_mmperfmon/"
#define FIXTURES "tests/connectors/mmperfmon/good/"

/* 10:00 PST is 18:00 UTC; 31371.0 MB = 31371 * 2^20 bytes; 1.7 kB =
 * 1.7 * 1024 (the JSON form of good/small.txt) */
static const char small_json[] =
    "{\"1547229600\": {\"a.example\": {\"cpu_user\": 0.2, "
    "\"mem_total_bytes\": 32894877696.0, \"net_r_bytes\": {\"lo\": 1740.8}}, "
    "\"b.example\": {\"gpfs_nsdds_bytes_read\": {\"lun1\": 5, \"lun2\": 6}}}, "
    "\"1547229660\": {\"a.example\": {\"mem_total\": 1024}, "
    "\"b.example\": {\"gpfs_nsdds_bytes_read\": {\"lun1\": 7}}}}";

/* mem_total is an integer column with a gap: pandas prints it as reals */
static const char small_by_host[] =
    "timestamp,cpu_user,mem_total_bytes,net_r_bytes:lo,mem_total\n"
    "2019-01-11 10:00:00,0.2,32894877696.0,1740.8,\n"
    "2019-01-11 10:01:00,,,,1024.0\n";

static const char small_by_metric[] =
    "timestamp,b.example:lun1,b.example:lun2\n"
    "2019-01-11 10:00:00,5,6.0\n"
    "2019-01-11 10:01:00,7,\n";

static struct tokio_mmperfmon *
open_fixture(const char *name)
{
    char rel[256];
    struct tokio_mmperfmon *m = NULL;

    snprintf(rel, sizeof(rel), FIXTURES "%s", name);
    if (tokio_mmperfmon_open(&m, tokio_test_source(rel)) != TOKIO_OK)
        fail_msg("%s: %s", name, tokio_errmsg());
    return m;
}

static struct tokio_mmperfmon *
open_text(const char *text, const char *name)
{
    struct tokio_mmperfmon *m = NULL;

    if (tokio_mmperfmon_open_mem(&m, text, strlen(text), name) != TOKIO_OK)
        fail_msg("%s: %s", name, tokio_errmsg());
    return m;
}

/* The JSON as the reference's save_cache() writes it. */
static char *
json_text(const struct tokio_mmperfmon *m)
{
    json_t *json = NULL;
    char *text = NULL;

    assert_int_equal(tokio_mmperfmon_to_json(m, &json), TOKIO_OK);
    assert_int_equal(tokio_json_dumps(&text, json, 0), TOKIO_OK);
    json_decref(json);
    return text;
}

static char *
csv_text(const struct tokio_mmperfmon *m, const char *host,
         const char *metric)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    if (tokio_mmperfmon_write_csv(m, fp, host, metric) != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    assert_int_equal(fclose(fp), 0);
    return buf;
}

/* ---- our own inputs --------------------------------------------------- */

static void
test_mmperfmon_small_table(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = open_fixture("small.txt");
    char *text = json_text(m);

    /* json.dumps() of the dict, key order included */
    assert_string_equal(text, small_json);
    free(text);
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_small_csv(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = open_fixture("small.txt");
    char *a = csv_text(m, "a.example", NULL);
    char *b = csv_text(m, NULL, "gpfs_nsdds_bytes_read");
    char *c = csv_text(m, NULL, "mem_total");

    assert_string_equal(a, small_by_host);
    assert_string_equal(b, small_by_metric);
    assert_string_equal(c, "timestamp,a.example\n"
                        "2019-01-11 10:01:00,1024\n");
    free(a);
    free(b);
    free(c);
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_csv_follows_pandas(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = open_fixture("mixed.json");
    char *a = csv_text(m, "h", NULL);
    char *b = csv_text(m, NULL, "m");
    char *c = csv_text(m, NULL, "s");
    char *d = csv_text(m, "g", NULL);
    char *e = csv_text(m, "nope", NULL);

    /* several columns: rows in order of first appearance; 100 s after
     * the epoch is 1969-12-31 16:01:40 in Los Angeles */
    assert_string_equal(a, "timestamp,m,s\n"
                        "1969-12-31 16:05:00,1,5 GB\n"
                        "1969-12-31 16:01:40,2,\n"
                        "1969-12-31 16:03:20,4,\n");
    /* union of the columns' rows, column by column; the boolean makes
     * g an object column */
    assert_string_equal(b, "timestamp,h,g,g:d1,g:d2\n"
                        "1969-12-31 16:05:00,1,,,\n"
                        "1969-12-31 16:01:40,2,True,,\n"
                        "1969-12-31 16:03:20,4,,1.5,\n");
    /* by metric, a null value is left out altogether */
    assert_string_equal(c, "timestamp,h\n1969-12-31 16:05:00,5 GB\n");
    /* an empty dict of devices is no column and, alone, no row */
    assert_string_equal(d, "timestamp,m,m:d1,m:d2\n"
                        "1969-12-31 16:01:40,True,,\n"
                        "1969-12-31 16:03:20,,1.5,\n");
    assert_string_equal(e, "timestamp\n");
    free(a);
    free(b);
    free(c);
    free(d);
    free(e);
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_one_column_is_sorted(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = open_text(
        "{\"300\": {\"h\": {\"m\": 1}}, \"100\": {\"h\": {\"m\": 2}}}", "one");
    char *a = csv_text(m, "h", NULL);

    assert_string_equal(a, "timestamp,m\n"
                        "1969-12-31 16:01:40,2\n"
                        "1969-12-31 16:05:00,1\n");
    free(a);
    tokio_mmperfmon_free(m);
    /* an integer in an object column stays one */
    m = open_text("{\"2\": {\"h\": {\"m\": true}}, \"1\": {\"h\": "
                  "{\"m\": 1}}}", "object");
    a = csv_text(m, "h", NULL);
    assert_string_equal(a, "timestamp,m\n"
                        "1969-12-31 16:00:01,1\n"
                        "1969-12-31 16:00:02,True\n");
    free(a);
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_values_recast_as_reference(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = open_fixture("recast.txt");
    char *got = json_text(m);

    /* "5 GB" is no unit the reference knows: the text stays; "1e3" is a
     * float and "0x1f" a hexadecimal integer; an empty device is none */
    assert_string_equal(got, "{\"1547229600\": {\"h\": {\"a\": -12, "
                        "\"b\": true, \"c\": \"5 GB\", \"d\": 1000.0, "
                        "\"e\": 31, \"f_bytes\": {\"dev\": 2621440.0}, "
                        "\"g\": 3}}}");
    free(got);
    tokio_mmperfmon_free(m);
}

/*
 * Outputs are stored as the reference's row-by-row loop over them in
 * turn stores them: timestamps in the order they first come (10:01 of
 * the first output before 10:00 of the second), hosts, counters and
 * devices in theirs, later values over earlier ones in place.
 */
static void
test_mmperfmon_outputs_keep_the_reference_order(void **state)
{
    (void)state;
    const char *names[] = { "one", "two" };
    const char *texts[] = {
        "Legend:\n 1:\tb|S|x\n 2:\ta|D|d2|y\n"
        "Row           Timestamp   x   y\n"
        "  1 2019-01-11-10:01:00   1   2\n",
        "Legend:\n 1:\ta|S|x\n 2:\ta|D|d1|y\n 3:\ta|D|d2|y\n 4:\tb|S|x\n"
        "Row           Timestamp   x   y   y   x\n"
        "  1 2019-01-11-10:00:00   3   4   5   6\n"
        "  2 2019-01-11-10:01:00   7   8   9  10\n" };
    char *dir = tokio_test_mkdtemp(), path[4096], *got;
    struct tokio_mmperfmon *m = NULL;

    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        tokio_test_write_file(path, texts[i], SIZE_MAX);
    }
    /* a folder, and the same two files one after the other */
    assert_int_equal(tokio_mmperfmon_open(&m, dir), TOKIO_OK);
    got = json_text(m);
    assert_string_equal(got,
        "{\"1547229660\": {\"b\": {\"x\": 10}, \"a\": {\"y\": {\"d2\": 9, "
        "\"d1\": 8}, \"x\": 7}}, \"1547229600\": {\"a\": {\"x\": 3, \"y\": "
        "{\"d1\": 4, \"d2\": 5}}, \"b\": {\"x\": 6}}}");
    tokio_mmperfmon_free(m);
    snprintf(path, sizeof(path), "%s/one", dir);
    assert_int_equal(tokio_mmperfmon_open(&m, path), TOKIO_OK);
    snprintf(path, sizeof(path), "%s/two", dir);
    assert_int_equal(tokio_mmperfmon_add(m, path), TOKIO_OK);
    char *again = json_text(m);
    assert_string_equal(got, again);
    free(again);
    /* a JSON input comes after what was read before it */
    snprintf(path, sizeof(path), "%s/late.json", dir);
    tokio_test_write_file(path, "{\"1547229600\": {\"c\": {\"x\": 1}, "
                          "\"a\": {\"x\": 0}}}", SIZE_MAX);
    assert_int_equal(tokio_mmperfmon_add(m, path), TOKIO_OK);
    again = json_text(m);
    assert_contains(again, "\"1547229600\": {\"a\": {\"x\": 0, \"y\": "
                    "{\"d1\": 4, \"d2\": 5}}, \"b\": {\"x\": 6}, \"c\": "
                    "{\"x\": 1}}}");
    free(again);
    free(got);
    tokio_mmperfmon_free(m);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_mmperfmon_merges_inputs(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = open_fixture("small.txt");
    char *once = json_text(m), *twice;

    /* the same input again overwrites values in place */
    assert_int_equal(tokio_mmperfmon_add(m, tokio_test_source(
                         FIXTURES "small.txt")), TOKIO_OK);
    twice = json_text(m);
    assert_string_equal(once, twice);
    free(twice);
    /* its JSON form too */
    assert_int_equal(tokio_mmperfmon_add(m, tokio_test_source(
                         FIXTURES "small.json")), TOKIO_OK);
    twice = json_text(m);
    assert_string_equal(once, twice);
    free(once);
    free(twice);
    tokio_mmperfmon_free(m);
}

/* open -> save -> open gives the same text; frees `m` */
static void
check_reads_back(struct tokio_mmperfmon *m)
{
    char *text = json_text(m), *again;

    tokio_mmperfmon_free(m);
    m = open_text(text, "saved");
    again = json_text(m);
    assert_string_equal(text, again);
    free(text);
    free(again);
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_saved_json_reads_back_the_same(void **state)
{
    (void)state;
    const char *fixtures[] = { "small.txt", "mixed.json", "recast.txt",
                               "outputs.tgz" };

    for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++)
        check_reads_back(open_fixture(fixtures[i]));
}

static void
test_mmperfmon_empty_input_is_empty_dict(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = open_text("", "empty");
    char *text = json_text(m), *csv = csv_text(m, "h", NULL);

    assert_string_equal(text, "{}");
    assert_string_equal(csv, "timestamp\n");
    free(text);
    free(csv);
    tokio_mmperfmon_free(m);
    /* a legend, and rows of nulls only, make no timestamp */
    m = open_text("\nLegend:\n 1:\th|S|c\n \n"
                  "Row           Timestamp    c\n"
                  "  1 2019-01-11-10:00:00 null\n"
                  "  2 2019-01-11-10:01:00\n", "blank");
    text = json_text(m);
    assert_string_equal(text, "{}");
    free(text);
    tokio_mmperfmon_free(m);
}

/* ---- tarballs and folders --------------------------------------------- */

static void
test_mmperfmon_tarball(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = open_fixture("outputs.tgz");
    char *text = json_text(m);

    /* d/first.out is small.txt, d/second.out adds c.example */
    assert_contains(text, "\"b.example\": {\"gpfs_nsdds_bytes_read\": "
                    "{\"lun1\": 5, \"lun2\": 6}}, \"c.example\": "
                    "{\"cpu_sys\": 0.5}}, \"1547229660\"");
    free(text);
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_folder_and_files(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), path[4096];
    char *small = tokio_test_read_file(tokio_test_source(
        FIXTURES "small.txt"), NULL);
    struct tokio_mmperfmon *m = NULL;
    char *text;

    assert_non_null(small);
    snprintf(path, sizeof(path), "%s/sub", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/sub/a.out", dir);
    tokio_test_write_file(path, small, SIZE_MAX);
    assert_int_equal(tokio_mmperfmon_open(&m, dir), TOKIO_OK);
    text = json_text(m);
    assert_string_equal(text, small_json);
    free(text);
    tokio_mmperfmon_free(m);
    /* a single file, and then the JSON saved from it */
    assert_int_equal(tokio_mmperfmon_open(&m, path), TOKIO_OK);
    snprintf(path, sizeof(path), "%s/saved.json", dir);
    tokio_test_write_file(path, small_json, SIZE_MAX);
    assert_int_equal(tokio_mmperfmon_add(m, path), TOKIO_OK);
    text = json_text(m);
    assert_string_equal(text, small_json);
    free(text);
    /* a missing file to add is named */
    snprintf(path, sizeof(path), "%s/missing.out", dir);
    assert_int_equal(tokio_mmperfmon_add(m, path), TOKIO_EIO);
    assert_contains(tokio_errmsg(), "missing.out");
    tokio_mmperfmon_free(m);
    tokio_test_rmtree(dir);
    free(dir);
    free(small);
}

/* ---- the reference's goldens ------------------------------------------ */

static void
check_golden(const char *input, const char *golden)
{
    char rel[512];
    struct tokio_mmperfmon *m = NULL;
    char *text;

    snprintf(rel, sizeof(rel), "pytokio-inputs/%s", input);
    TOKIO_TEST_NEED_DATA(path, rel);
    if (tokio_mmperfmon_open(&m, path) != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    text = json_text(m);
    snprintf(rel, sizeof(rel), GOLDEN "%s", golden);
    assert_golden(text, rel);
    free(text);
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_goldens(void **state)
{
    (void)state;
    check_golden("mmperfmon-usage.txt.gz", "mmperfmon-usage.txt.gz.json");
    check_golden("mmperfmon-nsdds.txt.gz", "mmperfmon-nsdds.txt.gz.json");
    check_golden("mmperfmon-gpfsNumberOperations.txt.gz",
                 "mmperfmon-gpfsNumberOperations.txt.gz.json");
    check_golden("mmperfmon.tgz", "mmperfmon.tgz.json");
    check_golden("mmperfmon.2019-05-15-mini.tgz",
                 "mmperfmon.2019-05-15-mini.tgz.json");
    check_golden("mmperfmon.2019-05-16-mini.tgz",
                 "mmperfmon.2019-05-16-mini.tgz.json");
}

static void
test_mmperfmon_sample_round_trips(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/mmperfmon.2019-05-15-mini.tgz");
    struct tokio_mmperfmon *m = NULL;

    assert_int_equal(tokio_mmperfmon_open(&m, path), TOKIO_OK);
    check_reads_back(m);
}

/* ---- CSV arguments and failures --------------------------------------- */

static void
test_mmperfmon_csv_wants_a_host_or_a_metric(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = open_fixture("small.txt");
    FILE *fp = fopen("/dev/null", "w");

    assert_non_null(fp);
    assert_int_equal(tokio_mmperfmon_write_csv(m, fp, NULL, NULL),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_mmperfmon_write_csv(m, fp, "a", "b"),
                     TOKIO_EINVAL);
    fclose(fp);
    tokio_mmperfmon_free(m);
    tokio_mmperfmon_free(NULL);
}

static int
csv_both_ways(void *ctx)
{
    FILE *fp = fopen("/dev/null", "w");
    int rc;

    assert_non_null(fp);
    rc = tokio_mmperfmon_write_csv(ctx, fp, NULL, "gpfs_nsdds_bytes_read");
    if (rc >= 0)
        rc = tokio_mmperfmon_write_csv(ctx, fp, "a.example", NULL);
    fclose(fp);
    return rc;
}

static void
test_mmperfmon_csv_survives_every_oom(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = open_fixture("small.txt");

    tokio_test_every_oom(csv_both_ways, m, 1);
    tokio_mmperfmon_free(m);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mmperfmon_small_table),
        cmocka_unit_test(test_mmperfmon_small_csv),
        cmocka_unit_test(test_mmperfmon_csv_follows_pandas),
        cmocka_unit_test(test_mmperfmon_one_column_is_sorted),
        cmocka_unit_test(test_mmperfmon_values_recast_as_reference),
        cmocka_unit_test(test_mmperfmon_outputs_keep_the_reference_order),
        cmocka_unit_test(test_mmperfmon_merges_inputs),
        cmocka_unit_test(test_mmperfmon_saved_json_reads_back_the_same),
        cmocka_unit_test(test_mmperfmon_empty_input_is_empty_dict),
        cmocka_unit_test(test_mmperfmon_tarball),
        cmocka_unit_test(test_mmperfmon_folder_and_files),
        cmocka_unit_test(test_mmperfmon_goldens),
        cmocka_unit_test(test_mmperfmon_sample_round_trips),
        cmocka_unit_test(test_mmperfmon_csv_wants_a_host_or_a_metric),
        cmocka_unit_test(test_mmperfmon_csv_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
