/*
 * tests/connectors/test_nersc_globuslogs.c - the Elasticsearch page cache
 * of Globus transfers (src/connectors/nersc_globuslogs.c): the sample
 * against the reference's golden (golden/pytokio/cache_nersc_globuslogs/,
 * JSON by value), where a scroll ends, malformed caches, out of memory.
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
        cmocka_unit_test(test_nersc_globuslogs_survives_every_oom),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
