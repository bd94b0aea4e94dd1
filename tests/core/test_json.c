/*
 * tests/core/test_json.c - the JSON writer against Python's json.dumps().
 *
 * Expected strings were produced by CPython 3.11's repr() and json.dumps()
 * and are written out here; the golden files of the test data pack are
 * compared byte for byte after a jansson round trip.
 */
#include "testutil.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tokio/output.h"

static void
test_format_double_matches_python_repr(void **state)
{
    static const struct { double d; const char *repr; } cases[] = {
        { 0.0, "0.0" }, { -0.0, "-0.0" }, { 1.0, "1.0" }, { 0.1, "0.1" },
        { 1e16, "1e+16" }, { 1e15, "1000000000000000.0" },
        { 123456789012345678.0, "1.2345678901234568e+17" },
        { 1e-05, "1e-05" }, { 0.0001, "0.0001" },
        { 0.00012345, "0.00012345" }, { 5e-324, "5e-324" },
        { 1.7976931348623157e308, "1.7976931348623157e+308" },
        { 72.9888177739439, "72.9888177739439" }, { 2.5, "2.5" },
        { -3.14159, "-3.14159" }, { 100.0, "100.0" }, { 1e22, "1e+22" },
        { 1.5e-07, "1.5e-07" }, { 9999999999999998.0, "9999999999999998.0" },
        { 0.3, "0.3" }, { 0.1 + 0.2, "0.30000000000000004" },
    };
    char buf[40];

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_int_equal(tokio_format_double(buf, sizeof(buf), cases[i].d),
                         TOKIO_OK);
        assert_string_equal(buf, cases[i].repr);
    }
    assert_int_equal(tokio_format_double(buf, sizeof(buf), 0.0 / 0.0), 0);
    assert_string_equal(buf, "nan");
    assert_int_equal(tokio_format_double(buf, sizeof(buf), -1.0 / 0.0), 0);
    assert_string_equal(buf, "-inf");
    assert_int_equal(tokio_format_double(buf, 4, 1.5e-07), TOKIO_EINVAL);
}

static void
test_json_indent_sorted_matches_python(void **state)
{
    const char *expect =
        "{\n"
        "    \"a\": \"h\\u00e9llo \\ud83d\\ude00 \\u007f\\\"\\\\\\n\",\n"
        "    \"b\": [\n"
        "        1,\n"
        "        2.5,\n"
        "        {}\n"
        "    ],\n"
        "    \"c\": [],\n"
        "    \"d\": null,\n"
        "    \"e\": true\n"
        "}";
    json_t *v = json_pack("{s:[i,f,{}],s:s,s:[],s:n,s:b}", "b", 1, 2.5, "a",
                          "h\xc3\xa9llo \xf0\x9f\x98\x80 \x7f\"\\\n", "c",
                          "d", "e", 1);
    char *text;

    (void)state;
    assert_non_null(v);
    assert_int_equal(tokio_json_dumps(&text, v,
                                      TOKIO_JSON_INDENT(4) |
                                          TOKIO_JSON_SORT_KEYS), TOKIO_OK);
    assert_string_equal(text, expect);
    free(text);
    json_decref(v);
}

static void
test_json_compact_keeps_insertion_order(void **state)
{
    json_t *v = json_pack("{s:[i,f,{}],s:s}", "b", 1, 2.5, "a", "x");
    char *text;

    (void)state;
    assert_int_equal(tokio_json_dumps(&text, v, 0), TOKIO_OK);
    assert_string_equal(text, "{\"b\": [1, 2.5, {}], \"a\": \"x\"}");
    free(text);
    json_decref(v);
}

static void
test_json_invalid_utf8_becomes_replacement_char(void **state)
{
    json_t *v = json_stringn_nocheck("a\xff" "b", 3);
    char *text;

    (void)state;
    assert_int_equal(tokio_json_dumps(&text, v, 0), TOKIO_OK);
    assert_string_equal(text, "\"a\\ufffdb\"");
    free(text);
    json_decref(v);
}

static void
test_json_uint64_prints_all_64_bits(void **state)
{
    json_t *v = json_pack("{s:o,s:o,s:o}",
                          "big", tokio_json_uint64(16639669389163978655ULL),
                          "max", tokio_json_uint64(UINT64_MAX),
                          "small", tokio_json_uint64(42));
    char *text;
    uint64_t u;

    (void)state;
    assert_non_null(v);
    assert_true(json_is_integer(json_object_get(v, "small")));
    assert_int_equal(tokio_json_dumps(&text, v, TOKIO_JSON_SORT_KEYS), 0);
    assert_string_equal(text, "{\"big\": 16639669389163978655, "
                              "\"max\": 18446744073709551615, \"small\": 42}");
    free(text);
    assert_true(tokio_json_uint64_value(json_object_get(v, "big"), &u));
    assert_true(u == 16639669389163978655ULL);
    assert_true(tokio_json_uint64_value(json_object_get(v, "small"), &u));
    assert_true(u == 42);
    json_t *neg = json_integer(-1), *str = json_string("123");
    assert_false(tokio_json_uint64_value(neg, &u));
    assert_false(tokio_json_uint64_value(str, &u));
    json_decref(neg);
    json_decref(str);
    json_decref(v);
}

static void
test_json_too_deep_is_refused(void **state)
{
    json_t *root = json_array(), *cur = root;

    (void)state;
    for (int i = 0; i < 600; i++) {
        json_t *next = json_array();
        json_array_append_new(cur, next);
        cur = next;
    }
    char *text;
    assert_int_equal(tokio_json_dumps(&text, root, 0), TOKIO_EINVAL);
    assert_null(text);
    assert_contains(tokio_errmsg(), "deeper");
    json_decref(root);
}

/* Golden files of the pack, written by json.dumps(indent=4, sort_keys=True),
 * must come out of a jansson load and our writer byte for byte. */
static void
check_golden_round_trip(const char *rel)
{
    const char *path = tokio_test_data(rel);
    json_error_t jerr;
    size_t len;

    if (path == NULL) {
        print_message("skipped: ../shared/testdata/%s is absent\n", rel);
        return;
    }
    char *expect = tokio_test_read_file(path, &len);
    json_t *v = json_loads(expect, JSON_DECODE_ANY, &jerr);
    assert_non_null(v);
    char *text;
    assert_int_equal(tokio_json_dumps(&text, v, TOKIO_JSON_INDENT(4) |
                                                   TOKIO_JSON_SORT_KEYS), 0);
    assert_true(len > 0 && expect[len - 1] == '\n');
    expect[len - 1] = '\0';
    assert_string_equal(text, expect);
    free(text);
    free(expect);
    json_decref(v);
}

static void
test_json_golden_files_round_trip_byte_for_byte(void **state)
{
    TOKIO_TEST_NEED_DATA(dir, "golden/pytokio");
    (void)state;
    (void)dir;
    check_golden_round_trip("golden/pytokio/cache_darshan/dxt.perf.json");
    check_golden_round_trip("golden/pytokio/cache_darshan/"
                            "ior_hdf5_example.total.json");
    check_golden_round_trip("golden/pytokio/hpss/hsilog.HsiLog.json");
    check_golden_round_trip("golden/pytokio/hpss/"
                            "hpss_daily.HpssDailyReport.json");
    check_golden_round_trip("golden/pytokio/summarize_job/sample.json");
}

static void
test_json_write_survives_every_oom(void **state)
{
    json_t *v = json_pack("{s:{s:i},s:{s:i}}", "x", "b", 1, "y", "a", 2);

    (void)state;
    for (size_t n = 1;; n++) {
        char *text = NULL;
        tokio_test_fail_alloc_at(n);
        int rc = tokio_json_dumps(&text, v, TOKIO_JSON_SORT_KEYS);
        tokio_test_fail_alloc_at(0);
        if (rc == TOKIO_OK) {
            assert_string_equal(text, "{\"x\": {\"b\": 1}, \"y\": {\"a\": 2}}");
            free(text);
            break;
        }
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_null(text);
    }
    json_decref(v);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_double_matches_python_repr),
        cmocka_unit_test(test_json_indent_sorted_matches_python),
        cmocka_unit_test(test_json_compact_keeps_insertion_order),
        cmocka_unit_test(test_json_invalid_utf8_becomes_replacement_char),
        cmocka_unit_test(test_json_uint64_prints_all_64_bits),
        cmocka_unit_test(test_json_too_deep_is_refused),
        cmocka_unit_test(test_json_golden_files_round_trip_byte_for_byte),
        cmocka_unit_test(test_json_write_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
