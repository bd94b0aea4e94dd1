/*
 * tests/core/test_json.c - the JSON writer against Python's json.dumps().
 *
 * Expected strings were produced by CPython 3.11's json.dumps() and are
 * written out here; the golden files of the test data pack are compared
 * byte for byte after a jansson round trip.  Doubles: test_repr.c.
 */
#include "testutil.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/json.h"
#include "tokio/output.h"

/* Python's escaping, one character at a time (the writer copies runs). */
static size_t
escape_slowly(char *out, const unsigned char *s, size_t len)
{
    size_t o = 0;

    out[o++] = '"';
    for (size_t i = 0; i < len; i++) {
        unsigned c = s[i];
        if (c == '"' || c == '\\') {
            out[o++] = '\\';
            out[o++] = (char)c;
        } else if (c == '\n') {
            out[o++] = '\\';
            out[o++] = 'n';
        } else if (c == '\t') {
            out[o++] = '\\';
            out[o++] = 't';
        } else if (c == 0xc3 && i + 1 < len && s[i + 1] == 0xa9) {
            o += (size_t)sprintf(out + o, "\\u00e9");
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            o += (size_t)sprintf(out + o, "\\u%04x", c);
        } else {
            out[o++] = (char)c;
        }
    }
    out[o++] = '"';
    return o;
}

/* Long strings whose escapes fall on every offset around the writer's
 * buffer boundaries (32 KiB), through a FILE and through dumps(). */
static void
test_json_long_strings_escape_across_buffers(void **state)
{
    const size_t len = 100000;
    unsigned char *s = tokio__malloc(len);
    char *expect = tokio__malloc(2 + 6 * len + 16);
    static const char specials[] = "\"\\\n\t\x01\x7f";

    (void)state;
    assert_non_null(s);
    assert_non_null(expect);
    for (size_t shift = 0; shift < 24; shift++) {
        for (size_t i = 0; i < len; i++)
            s[i] = (unsigned char)('a' + i % 26);
        /* escapes and a two-byte character straddling 32 KiB multiples */
        for (size_t b = 32768; b < len; b += 32768)
            for (size_t k = 0; k < 12; k++) {
                size_t at = b - 8 + k + shift - 12;
                if (k == 11) {
                    s[at] = 0xc3;
                    s[at + 1] = 0xa9;
                } else {
                    s[at] = (unsigned char)specials[(k + shift) % 6];
                }
            }
        json_t *v = json_stringn((const char *)s, len);
        assert_non_null(v);
        size_t n = escape_slowly(expect, s, len);
        expect[n] = '\0';

        char *text = NULL;
        assert_int_equal(tokio_json_dumps(&text, v, 0), TOKIO_OK);
        assert_string_equal(text, expect);
        free(text);

        FILE *fp = tmpfile();
        assert_non_null(fp);
        assert_int_equal(tokio_json_write(v, fp, 0), TOKIO_OK);
        assert_int_equal((long)ftell(fp), (long)n);
        rewind(fp);
        char *back = tokio__malloc(n + 1);
        assert_non_null(back);
        assert_int_equal(fread(back, 1, n + 1, fp), n);
        assert_memory_equal(back, expect, n);
        free(back);
        fclose(fp);
        json_decref(v);
    }
    free(s);
    free(expect);
}

/* Objects at one depth with the same keys (the writer reuses their sorted
 * order), then the same keys in another order, fewer keys, other keys. */
static void
test_json_sorted_keys_repeat_and_change(void **state)
{
    json_t *v = json_pack("[{si si si} {si si si} {si si si} {si si} "
                          "{si si si}]",
                          "b", 1, "a", 2, "c", 3, "b", 4, "a", 5, "c", 6,
                          "c", 7, "a", 8, "b", 9, "b", 10, "a", 11,
                          "b", 12, "a", 13, "d", 14);
    char *text = NULL;

    (void)state;
    assert_non_null(v);
    assert_int_equal(tokio_json_dumps(&text, v, TOKIO_JSON_SORT_KEYS),
                     TOKIO_OK);
    assert_string_equal(text,
        "[{\"a\": 2, \"b\": 1, \"c\": 3}, {\"a\": 5, \"b\": 4, \"c\": 6}, "
        "{\"a\": 8, \"b\": 9, \"c\": 7}, {\"a\": 11, \"b\": 10}, "
        "{\"a\": 13, \"b\": 12, \"d\": 14}]");
    free(text);
    json_decref(v);
}

static void
test_json_integers_at_the_limits(void **state)
{
    json_t *v = json_pack("[IIIII]", (json_int_t)INT64_MIN,
                          (json_int_t)INT64_MAX, (json_int_t)0,
                          (json_int_t)-1, (json_int_t)1000000007);
    char *text = NULL;

    (void)state;
    assert_non_null(v);
    assert_int_equal(tokio_json_dumps(&text, v, 0), TOKIO_OK);
    assert_string_equal(text, "[-9223372036854775808, 9223372036854775807, "
                              "0, -1, 1000000007]");
    free(text);
    json_decref(v);
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
    for (size_t n = 1;; n += tokio_test_oom_step()) {
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
        cmocka_unit_test(test_json_long_strings_escape_across_buffers),
        cmocka_unit_test(test_json_integers_at_the_limits),
        cmocka_unit_test(test_json_sorted_keys_repeat_and_change),
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
