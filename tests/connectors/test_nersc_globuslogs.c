/*
 * tests/connectors/test_nersc_globuslogs.c - the Elasticsearch page cache
 * of Globus transfers (src/connectors/nersc_globuslogs.c): the sample
 * against the reference's golden (golden/pytokio/cache_nersc_globuslogs/,
 * JSON by value), where a scroll ends, the pages kept as jansson reads
 * them (values and key order), the CSV of their values, and the CSV
 * under out-of-memory failures.  Malformed caches and opening under
 * failed allocations are in tests/connectors/nersc_globuslogs/ for
 * test_connectors.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "tokio/connectors/nersc_globuslogs.h"

static void
test_nersc_globuslogs_sample_matches_golden(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(sample, "pytokio-inputs/globuslogs.json.gz");
    char in[4096];
    snprintf(in, sizeof(in), "%s", sample);
    TOKIO_TEST_NEED_DATA(golden, "golden/pytokio/cache_nersc_globuslogs/"
                         "globuslogs.json.gz.json");
    struct tokio_nersc_globuslogs *g = NULL;
    json_t *want = json_load_file(golden, 0, NULL), *ours = NULL;

    assert_non_null(want);
    assert_int_equal(tokio_nersc_globuslogs_open(&g, in), TOKIO_OK);
    assert_int_equal(tokio_nersc_globuslogs_count(g), 3);
    assert_int_equal(tokio_nersc_globuslogs_to_json(g, &ours), TOKIO_OK);
    assert_true(json_equal(ours, want));
    json_decref(ours);
    json_decref(want);
    tokio_nersc_globuslogs_free(g);
}

static void
test_nersc_globuslogs_scroll_ends_at_empty_page(void **state)
{
    (void)state;
    static const char text[] = "[[{\"_source\": {}}, {\"_source\": {}}], "
                               "null, [{\"_source\": 5}]]";
    struct tokio_nersc_globuslogs *g = NULL;
    json_t *j = NULL;

    assert_int_equal(tokio_nersc_globuslogs_open_mem(&g, text, strlen(text),
                                                     "t"), TOKIO_OK);
    assert_int_equal(tokio_nersc_globuslogs_count(g), 2);
    assert_int_equal(tokio_nersc_globuslogs_to_json(g, &j), TOKIO_OK);
    assert_int_equal(json_array_size(j), 1);
    json_decref(j);
    tokio_nersc_globuslogs_free(g);
}

/* A list value has no CSV form here (pandas printed its repr). */
static void
test_nersc_globuslogs_csv_refuses_a_list(void **state)
{
    (void)state;
    static const char list[] = "[[{\"_source\": {\"DEST\": [\"a\"]}}]]";
    struct tokio_nersc_globuslogs *g = NULL;
    FILE *fp = fopen("/dev/null", "w");

    assert_non_null(fp);
    assert_int_equal(tokio_nersc_globuslogs_open_mem(&g, list, strlen(list),
                                                     "l"), TOKIO_OK);
    assert_int_equal(tokio_nersc_globuslogs_write_csv(g, fp), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "field 'DEST' is a list or object");
    fclose(fp);
    tokio_nersc_globuslogs_free(g);
}

/* `text` read as a cache must give the JSON jansson reads from it
 * (`pages` pages kept). */
static void
assert_reads_as_jansson(const char *text, size_t pages, size_t hits)
{
    struct tokio_nersc_globuslogs *g = NULL;
    json_t *want = json_loads(text, 0, NULL), *ours = NULL;

    assert_non_null(want);
    while (json_array_size(want) > pages)
        json_array_remove(want, pages);
    assert_int_equal(tokio_nersc_globuslogs_open_mem(&g, text, strlen(text),
                                                     "t"), TOKIO_OK);
    assert_int_equal(tokio_nersc_globuslogs_count(g), hits);
    assert_int_equal(tokio_nersc_globuslogs_to_json(g, &ours), TOKIO_OK);
    if (!json_equal(ours, want)) {
        char *a = json_dumps(ours, 0), *b = json_dumps(want, 0);
        fail_msg("ours %s\nwant %s", a, b);
    }
    /* in the input's order of keys too */
    char *a = json_dumps(ours, JSON_COMPACT | JSON_REAL_PRECISION(17));
    char *b = json_dumps(want, JSON_COMPACT | JSON_REAL_PRECISION(17));
    assert_string_equal(a, b);
    free(a);
    free(b);
    json_decref(ours);
    json_decref(want);
    tokio_nersc_globuslogs_free(g);
}

/* The CSV of `text`. */
static char *
csv_of(const char *text)
{
    struct tokio_nersc_globuslogs *g = NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    assert_int_equal(tokio_nersc_globuslogs_open_mem(&g, text, strlen(text),
                                                     "c"), TOKIO_OK);
    assert_int_equal(tokio_nersc_globuslogs_write_csv(g, fp), TOKIO_OK);
    fclose(fp);
    tokio_nersc_globuslogs_free(g);
    return buf;
}

/* The pages kept are jansson's reading of the cache up to its first
 * empty page: values of every kind, keys in input order. */
static void
test_nersc_globuslogs_reads_as_jansson(void **state)
{
    (void)state;
    /* scalars of every kind, keys in any order, other keys and values */
    static const char typed[] =
        "[\n [\n  {\"_id\": \"a\", \"_index\": \"i\", \"_score\": 1.0,\n"
        "   \"_source\": {\"@timestamp\": \"2019-01-29T08:04:53.472Z\",\n"
        "    \"BLOCK\": 4194304, \"NBYTES\": -9223372036854775808,\n"
        "    \"bandwidth_mbps\": 0.14, \"duration\": 1e-7, \"host\": null,\n"
        "    \"FILE\": \"/caf\xc3\xa9/\xf0\x9f\x98\x80\", \"CODE\": \"226\",\n"
        "    \"STREAMS\": true, \"STRIPES\": false, \"end_date\": -0.0,\n"
        "    \"start_date\": 1.7976931348623157e308, \"DEST\": \"\"},\n"
        "   \"_type\": \"doc\"},\n"
        "  {\"_type\": \"doc\", \"_source\": {\"USER\": \"u\", \"BLOCK\": 0},"
        " \"_score\": null}\n"
        " ],\n"
        " [{\"_source\": {}}, {\"_source\": {\"TYPE\": \"STOR\"}}]\n"
        "]\n";
    static const char *const others[] = {
        "[[{\"_source\": {\"FILE\": \"a\\\"b\\u00e9\"}}]]",
        "[[{\"sort\": [1], \"_source\": {\"other\": {\"x\": [1]}}}]]",
        "[[{\"_source\": {\"USER\": \"u\", \"USER\": \"v\"}}]]",
        "[[{\"_source\": {\"duration\": 0.1000000000000000055511151231257"
        "827021181583404541015625000000000000000000000000000000000000000000"
        "00000000000001}}]]",
    };

    assert_reads_as_jansson(typed, 2, 4);
    for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
        assert_reads_as_jansson(others[i], 1, 1);
    /* the scroll ends at an empty page: what follows is checked, not
     * kept */
    assert_reads_as_jansson("[[{\"_source\": {}}], [], [{\"a\": [1, {}]}], "
                            "[\"x\", null, 5.5]]", 1, 1);
    assert_reads_as_jansson("[[{\"_source\": {}}], [], "
                            "[{\"a\": \"\\n\"}]]", 1, 1);
    assert_reads_as_jansson("[]", 0, 0);
    assert_reads_as_jansson("[[], [{\"_source\": {}}]]", 0, 0);

    /* values as pandas prints them: True, a float column */
    char *a = csv_of("[[{\"_source\": {\"USER\": \"u\", \"NBYTES\": 5, "
                     "\"duration\": 0.5, \"BLOCK\": true}}, {\"_source\": "
                     "{\"NBYTES\": 7, \"duration\": null}, \"x\": 1}]]");
    assert_contains(a, "\n0,,True,,,,,,,,5,,,,,,u,,,0.5,,,\n"
                    "1,,,,,,,,,,7,,,,,,,,,,,,\n");
    free(a);
}

/* Reading the JSON form back and writing the CSV: the generic loop's
 * out-of-memory sweep of a JSON fixture ends early, at jansson's first
 * token of 16 bytes or more (jansson 2.14 carries on when growing its
 * token buffer fails). */
static int
json_and_csv_trial(void *ctx)
{
    struct tokio_nersc_globuslogs *again = NULL;
    json_t *json = NULL;
    FILE *fp = fopen("/dev/null", "w");
    int rc = tokio_nersc_globuslogs_to_json(ctx, &json);

    assert_non_null(fp);
    if (rc >= 0)
        rc = tokio_nersc_globuslogs_from_json(&again, json);
    if (rc < 0)
        assert_null(again);
    if (rc >= 0)
        rc = tokio_nersc_globuslogs_write_csv(again, fp);
    fclose(fp);
    json_decref(json);
    tokio_nersc_globuslogs_free(again);
    return rc;
}

static void
test_nersc_globuslogs_json_and_csv_survive_every_oom(void **state)
{
    (void)state;
    static const char text[] = "[[{\"_source\": {\"USER\": \"u\", "
                               "\"NBYTES\": 5, \"bandwidth_mbps\": 0.5}}], "
                               "[{\"_source\": {}}], []]";
    struct tokio_nersc_globuslogs *g = NULL;

    assert_int_equal(tokio_nersc_globuslogs_open_mem(&g, text, strlen(text),
                                                     "o"), TOKIO_OK);
    tokio_test_every_oom(json_and_csv_trial, g, 1);
    tokio_nersc_globuslogs_free(g);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nersc_globuslogs_sample_matches_golden),
        cmocka_unit_test(test_nersc_globuslogs_scroll_ends_at_empty_page),
        cmocka_unit_test(test_nersc_globuslogs_reads_as_jansson),
        cmocka_unit_test(test_nersc_globuslogs_csv_refuses_a_list),
        cmocka_unit_test(test_nersc_globuslogs_json_and_csv_survive_every_oom),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
