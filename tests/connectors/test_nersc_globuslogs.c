/*
 * tests/connectors/test_nersc_globuslogs.c - the Elasticsearch page cache
 * of Globus transfers (src/connectors/nersc_globuslogs.c): the sample
 * against the reference's golden (golden/pytokio/cache_nersc_globuslogs/,
 * JSON by value), where a scroll ends, malformed caches, out of memory;
 * caches of the usual shape (read without jansson) and others (read by
 * jansson) give jansson's values in the input's order, and the same CSV.
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

static void
test_nersc_globuslogs_malformed_caches(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
    } cases[] = {
        { "{}", "'t' is not a list of pages" },
        { "[[{\"_source\": {}}], 5]", "'t': page 1 is not a list" },
        { "[[{\"_source\": {}}, {\"x\": 1}]]", "'t': page 0 hit 1 has no "
          "object _source" },
        { "[\n[}", "'t' line 2" },
        /* past the reader's usual shape: jansson's message */
        { "[[{\"_source\": {\"A\": 1}}],\n [{\"_source\": {\"B\": 01}}]]",
          "'t' line 2 column" },
        { "[[{\"_source\": {\"NBYTES\": 99999999999999999999}}]]",
          "'t' line 1 column 45: too big integer" },
        { "[[{\"_source\": {\"duration\": 1e999}}]]",
          "'t' line 1 column 32: real number overflow" },
        { "[[{\"_source\": {\"FILE\": \"a\xff\"}}]]", "'t' line 1" },
        { "[[{\"_source\": {}}], [], [}]", "'t' line 1 column 26" },
        { "[[{\"_source\": {}}]] x", "'t' line 1 column 21: end of file "
          "expected" },
        { "[[{\"_source\": {}}]", "'t' line 1 column 18: ']' expected" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_nersc_globuslogs *g = (void *)1;
        assert_int_equal(tokio_nersc_globuslogs_open_mem(
            &g, cases[i].text, strlen(cases[i].text), "t"), TOKIO_EFORMAT);
        assert_null(g);
        assert_contains(tokio_errmsg(), cases[i].msg);
    }
    struct tokio_nersc_globuslogs *g = NULL;
    assert_int_equal(tokio_nersc_globuslogs_open(&g, "/nonexistent/x.json"),
                     TOKIO_EIO);
    /* a list value has no CSV form */
    static const char list[] = "[[{\"_source\": {\"DEST\": [\"a\"]}}]]";
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

/* Caches of the usual shape (read without jansson) and of others (read
 * by jansson): the same pages, values and key order as jansson's. */
static void
test_nersc_globuslogs_reads_as_jansson(void **state)
{
    (void)state;
    /* the usual shape: scalars of every kind, keys in any order */
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
    /* read by jansson: an escape, a key the reader does not know, a
     * repeated one, a list, a long number; each after a typed page */
    static const char *const others[] = {
        "[[{\"_source\": {\"USER\": \"u\"}}], "
        "[{\"_source\": {\"FILE\": \"a\\\"b\\u00e9\"}}]]",
        "[[{\"_source\": {\"USER\": \"u\"}}], "
        "[{\"_source\": {\"other\": 1}}]]",
        "[[{\"_source\": {\"USER\": \"u\"}}], "
        "[{\"sort\": [1], \"_source\": {}}]]",
        "[[{\"_source\": {\"USER\": \"u\"}}], "
        "[{\"_source\": {\"USER\": \"u\", \"USER\": \"v\"}}]]",
        "[[{\"_source\": {\"USER\": \"u\"}}], "
        "[{\"_source\": {\"DEST\": [\"a\"]}}]]",
        "[[{\"_source\": {\"duration\": 0.1000000000000000055511151231257"
        "827021181583404541015625000000000000000000000000000000000000000000"
        "00000000000001}}]]",
    };

    assert_reads_as_jansson(typed, 2, 4);
    for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
        assert_reads_as_jansson(others[i], i == 5 ? 1 : 2, i == 5 ? 1 : 2);
    /* the scroll ends at an empty page: what follows is checked, not
     * kept, by either reader */
    assert_reads_as_jansson("[[{\"_source\": {}}], [], [{\"a\": [1, {}]}], "
                            "[\"x\", null, 5.5]]", 1, 1);
    assert_reads_as_jansson("[[{\"_source\": {}}], [], "
                            "[{\"a\": \"\\n\"}]]", 1, 1);
    assert_reads_as_jansson("[]", 0, 0);
    assert_reads_as_jansson("[[], [{\"_source\": {}}]]", 0, 0);

    /* the same CSV from either reader (a key it does not know sends
     * the second to jansson; the CSV does not show it) */
    char *a = csv_of("[[{\"_source\": {\"USER\": \"u\", \"NBYTES\": 5, "
                     "\"duration\": 0.5, \"BLOCK\": true}}, {\"_source\": "
                     "{\"NBYTES\": 7, \"duration\": null}}]]");
    char *b = csv_of("[[{\"_source\": {\"USER\": \"u\", \"NBYTES\": 5, "
                     "\"duration\": 0.5, \"BLOCK\": true}}, {\"_source\": "
                     "{\"NBYTES\": 7, \"duration\": null}, \"x\": 1}]]");
    assert_string_equal(a, b);
    assert_contains(a, "\n0,,True,,,,,,,,5,,,,,,u,,,0.5,,,\n"
                    "1,,,,,,,,,,7,,,,,,,,,,,,\n");
    free(a);
    free(b);
}

static int
open_trial(void *ctx)
{
    struct tokio_nersc_globuslogs *g = NULL;
    json_t *j = NULL;
    FILE *fp = fopen("/dev/null", "w");
    int rc = tokio_nersc_globuslogs_open_mem(&g, ctx, strlen(ctx), "o");

    assert_non_null(fp);
    if (rc < 0)
        assert_null(g);
    if (rc >= 0)
        rc = tokio_nersc_globuslogs_to_json(g, &j);
    if (rc >= 0)
        rc = tokio_nersc_globuslogs_write_csv(g, fp);
    fclose(fp);
    json_decref(j);
    tokio_nersc_globuslogs_free(g);
    return rc;
}

static void
test_nersc_globuslogs_survives_every_oom(void **state)
{
    (void)state;
    static const char text[] = "[[{\"_source\": {\"USER\": \"u\", "
                               "\"NBYTES\": 5}}], [{\"_source\": {}}]]";

    tokio_test_every_oom(open_trial, (void *)text, 1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nersc_globuslogs_sample_matches_golden),
        cmocka_unit_test(test_nersc_globuslogs_scroll_ends_at_empty_page),
        cmocka_unit_test(test_nersc_globuslogs_malformed_caches),
        cmocka_unit_test(test_nersc_globuslogs_reads_as_jansson),
        cmocka_unit_test(test_nersc_globuslogs_survives_every_oom),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
