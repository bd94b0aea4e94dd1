/*
 * tests/core/test_json_scan.c - the strict pull reader (core/json_scan.h):
 * a cache-shaped document read token by token, its strings copied out
 * byte for byte (short ones, long ones that take the sixteen-byte path,
 * non-ASCII ones at every offset), white space where JSON allows it, and
 * each refusal (an escape, a control character, invalid UTF-8, an
 * unterminated string, a missing separator, trailing text) an error
 * naming the input and the byte.  Every accepted string is compared with
 * jansson's reading of the same text; so are numbers (integers, reals
 * on the fast path and strtod()'s, the edges of int64 and double) and
 * the values skipped.  Numbers, literals and skipping refuse what
 * jansson refuses, and a few things it reads (a very long number, deep
 * nesting) that the caller then leaves to jansson.
 */
#include "testutil.h"

#include <jansson.h>
#include <string.h>

#include "core/json_scan.h"
#include "tokio/common.h"

static char out[512];

static void
assert_string_is(struct tokio__jscan *js, const char *want)
{
    size_t n;

    memset(out, 'x', sizeof(out));
    assert_int_equal(tokio__jscan_string(js, out, &n), TOKIO_OK);
    assert_int_equal(n, strlen(want));
    assert_string_equal(out, want);
}

static void
test_json_scan_reads_a_cache_shape(void **state)
{
    static const char text[] =
        " {\"1.batch\" :{\"start\":\"2017-03-20T01:59:02\",\n"
        "\t\"nodelist\": [\"nid0\", \"caf\xc3\xa9\"] ,\"e\":[ ]}}\r\n";
    struct tokio__jscan js;
    size_t n, used;
    (void)state;

    tokio__jscan_init(&js, text, sizeof(text) - 1, "t.json");
    assert_int_equal(tokio__jscan_eat(&js, '{'), TOKIO_OK);
    assert_string_is(&js, "1.batch");
    assert_int_equal(tokio__jscan_eat(&js, ':'), TOKIO_OK);
    assert_int_equal(tokio__jscan_eat(&js, '{'), TOKIO_OK);
    assert_string_is(&js, "start");
    assert_int_equal(tokio__jscan_eat(&js, ':'), TOKIO_OK);
    assert_string_is(&js, "2017-03-20T01:59:02");
    assert_int_equal(tokio__jscan_next(&js, '}'), 1);
    assert_string_is(&js, "nodelist");
    assert_int_equal(tokio__jscan_eat(&js, ':'), TOKIO_OK);
    assert_int_equal(tokio__jscan_peek(&js), '[');
    assert_int_equal(tokio__jscan_strings(&js, out, &n, &used), TOKIO_OK);
    assert_int_equal(n, 2);
    assert_int_equal(used, 5 + 6);
    assert_memory_equal(out, "nid0\0caf\xc3\xa9", 11);
    assert_int_equal(tokio__jscan_next(&js, '}'), 1);
    assert_string_is(&js, "e");
    assert_int_equal(tokio__jscan_eat(&js, ':'), TOKIO_OK);
    assert_int_equal(tokio__jscan_strings(&js, out, &n, &used), TOKIO_OK);
    assert_int_equal(n, 0);
    assert_int_equal(used, 0);
    assert_int_equal(tokio__jscan_next(&js, '}'), 0);
    assert_int_equal(tokio__jscan_next(&js, '}'), 0);
    assert_int_equal(tokio__jscan_end(&js), TOKIO_OK);
    assert_int_equal(tokio__jscan_peek(&js), -1);
}

/* Strings of every length up to 70, plain and with a two-byte character
 * at every offset, as a list: the copies are jansson's strings. */
static void
test_json_scan_strings_match_jansson(void **state)
{
    char text[8192], *p;
    static char dst[8192 + TOKIO__JSCAN_SLACK];
    (void)state;

    for (size_t len = 0; len <= 70; len++) {
        for (size_t at = 0; at <= len; at++) {
            struct tokio__jscan js;
            size_t n, used;
            p = text;
            *p++ = '[';
            for (int k = 0; k < 3; k++) {
                *p++ = '"';
                for (size_t i = 0; i <= len; i++) {
                    if (k == 1 && i == at) {     /* U+00E9 */
                        *p++ = (char)0xc3;
                        *p++ = (char)0xa9;
                    }
                    if (i < len)
                        *p++ = (char)('a' + (i + (size_t)k) % 26);
                }
                *p++ = '"';
                *p++ = k < 2 ? ',' : ']';
            }
            size_t tlen = (size_t)(p - text);
            json_t *j = json_loadb(text, tlen, 0, NULL);
            assert_non_null(j);
            tokio__jscan_init(&js, text, tlen, "t");
            assert_int_equal(tokio__jscan_strings(&js, dst, &n, &used),
                             TOKIO_OK);
            assert_int_equal(n, 3);
            assert_int_equal(tokio__jscan_end(&js), TOKIO_OK);
            const char *s = dst;
            for (size_t k = 0; k < 3; k++) {
                const json_t *item = json_array_get(j, k);
                assert_int_equal(strlen(s), json_string_length(item));
                assert_string_equal(s, json_string_value(item));
                s += strlen(s) + 1;
            }
            assert_int_equal((size_t)(s - dst), used);
            json_decref(j);
        }
    }
}

/* `text` read as one string must fail, the message holding `want`. */
static void
assert_string_refused(const char *text, size_t len, const char *want)
{
    struct tokio__jscan js;
    size_t n;

    tokio__jscan_init(&js, text, len, "bad.json");
    assert_int_equal(tokio__jscan_string(&js, out, &n), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'bad.json' byte ");
    assert_contains(tokio_errmsg(), want);
}

#define REFUSED(text, want) assert_string_refused(text, strlen(text), want)

static void
test_json_scan_refuses_what_it_does_not_read(void **state)
{
    struct tokio__jscan js;
    size_t n, used;
    (void)state;

    REFUSED("\"a\\\"b\"", "byte 2: '\\' (0x5c) where a string character "
            "without escape was expected");
    /* the same past the sixteen-byte path */
    REFUSED("\"abcdefghijklmnopqrstu\\n\"", "byte 22: '\\' (0x5c)");
    REFUSED("\"a\tb\"", "byte 2: '?' (0x09)");
    REFUSED("\"abcdefghijklmnopqrstuvwxyz\x01\"", "byte 27: '?' (0x01)");
    REFUSED("\"ab", "byte 3: end of text where the end of a string was "
            "expected");
    REFUSED("\"abcdefghijklmnopqrstuvwxyz", "byte 27: end of text");
    REFUSED("\"\xc3(\"", "byte 1: invalid UTF-8");
    REFUSED("\"abcdefghijklmnopqrstuvwxyz\xed\xa0\x80\"", "invalid UTF-8");
    REFUSED("12", "byte 0: '1' (0x31) where a string was expected");
    REFUSED("", "byte 0: end of text where a string");
    /* a NUL byte inside a string is a control character */
    assert_string_refused("\"a\0\"", 4, "byte 2: '?' (0x00)");
    /* the reader never looks past `len` */
    assert_string_refused("\"abc\"", 3, "byte 3: end of text");
    assert_string_refused("\"abcdefghijklmnopqrstuvwxyz\"", 27,
                          "byte 27: end of text");

    tokio__jscan_init(&js, "{\"a\" \"b\"}", 9, "bad.json");
    assert_int_equal(tokio__jscan_eat(&js, '{'), TOKIO_OK);
    assert_string_is(&js, "a");
    assert_int_equal(tokio__jscan_eat(&js, ':'), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "byte 5: '\"' (0x22) where ':' was "
                    "expected");

    tokio__jscan_init(&js, "[\"a\" 1", 6, "bad.json");
    assert_int_equal(tokio__jscan_strings(&js, out, &n, &used),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "byte 5: '1' (0x31) where ',' or ']' "
                    "was expected");
    tokio__jscan_init(&js, "[\"a\", 2]", 8, "bad.json");
    assert_int_equal(tokio__jscan_strings(&js, out, &n, &used),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "byte 6: '2' (0x32) where a string");
    tokio__jscan_init(&js, "\"a\"", 3, "bad.json");
    assert_int_equal(tokio__jscan_strings(&js, out, &n, &used),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "byte 0: '\"' (0x22) where '[' was");

    tokio__jscan_init(&js, "{} x", 4, NULL);
    assert_int_equal(tokio__jscan_eat(&js, '{'), TOKIO_OK);
    assert_int_equal(tokio__jscan_next(&js, '}'), 0);
    assert_int_equal(tokio__jscan_end(&js), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'<memory>' byte 3: 'x' (0x78) where "
                    "the end of text was expected");
    tokio__jscan_init(&js, "{", 1, "cut");
    assert_int_equal(tokio__jscan_eat(&js, '{'), TOKIO_OK);
    assert_int_equal(tokio__jscan_next(&js, '}'), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'cut' byte 1: end of text where ',' "
                    "or '}' was expected");
}

/* Each number read as jansson reads it: integers to the same int64,
 * reals to the same double, bit for bit. */
static void
test_json_scan_numbers_match_jansson(void **state)
{
    static const char *const nums[] = {
        "0", "-0", "7", "-1", "1234567890", "9223372036854775807",
        "-9223372036854775808", "0.0", "-0.0", "1.5", "-1.5e+10", "1e5",
        "1E5", "1e-5", "2e-0", "0.1", "3.141592653589793",
        "1.7976931348623157e308", "4.9e-324", "2.2250738585072014e-308",
        "9007199254740992.0", "9007199254740993.0", "123456789012345678.5",
        "1e22", "1e23", "1e-22", "1e-23", "0.000001", "1e-400",
        "-1e-400", "123456789e-30", "0e999",
        "0.1000000000000000055511151231257827021181583404541015625",
        "100000000000000000000000000000000000000.0",
        "0.30000000000000004", "5e-324", "2.5e-324",
    };
    (void)state;

    for (size_t k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
        struct tokio__jscan js;
        json_error_t err;
        int64_t i = 42;
        double d = 42;
        int real;
        size_t len = strlen(nums[k]);
        json_t *j = json_loadb(nums[k], len, JSON_DECODE_ANY, &err);

        assert_non_null(j);
        tokio__jscan_init(&js, nums[k], len, "n");
        assert_int_equal(tokio__jscan_number(&js, &i, &d, &real), TOKIO_OK);
        assert_int_equal(tokio__jscan_end(&js), TOKIO_OK);
        if (json_is_integer(j)) {
            assert_int_equal(real, 0);
            assert_true(i == json_integer_value(j));
        } else {
            double want = json_real_value(j);
            assert_int_equal(real, 1);
            assert_memory_equal(&d, &want, sizeof(d));
        }
        json_decref(j);
    }
}

/* `text` read as a number must fail, the message holding `want`. */
static void
assert_number_refused(const char *text, const char *want)
{
    struct tokio__jscan js;
    int64_t i;
    double d;
    int real;

    tokio__jscan_init(&js, text, strlen(text), "bad.json");
    assert_int_equal(tokio__jscan_number(&js, &i, &d, &real), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'bad.json' byte ");
    assert_contains(tokio_errmsg(), want);
}

static void
test_json_scan_refuses_numbers_jansson_refuses(void **state)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        { "1e400", "byte 0: '1' (0x31) where a number within the range" },
        { "-1e400", "within the range of a double" },
        { "9223372036854775808", "an integer within 64 bits" },
        { "-9223372036854775809", "an integer within 64 bits" },
        { "123456789012345678901234567890", "an integer within 64 bits" },
        { "01", "byte 1: '1' (0x31) where no digit after a leading 0" },
        { "-01", "byte 2: '1'" },
        { "-", "byte 1: end of text where a number" },
        { "-a", "byte 1: 'a' (0x61) where a number" },
        { "+1", "byte 0: '+' (0x2b) where a number" },
        { ".5", "byte 0: '.' (0x2e) where a number" },
        { "1.", "byte 2: end of text where a digit after '.'" },
        { "1.e5", "byte 2: 'e' (0x65) where a digit after '.'" },
        { "1e", "byte 2: end of text where a digit in an exponent" },
        { "1e+", "byte 3: end of text where a digit in an exponent" },
        { "\"1\"", "byte 0: '\"' (0x22) where a number" },
    };
    char big[160];
    (void)state;

    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        assert_number_refused(cases[k].text, cases[k].want);
        /* jansson refuses all of these too (but the string) */
        if (cases[k].text[0] != '"')
            assert_null(json_loads(cases[k].text, JSON_DECODE_ANY, NULL));
    }
    /* a valid number too long for this reader: the caller's full parser
     * reads it */
    memset(big, '1', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    big[1] = '.';
    assert_number_refused(big, "a number of at most 100 characters");
}

static void
test_json_scan_reads_scalars(void **state)
{
    static const char text[] =
        "[null, true ,false,\"s\xc3\xa9\", -12, 0.25, nul";
    struct tokio__jscan js;
    struct tokio__jscalar v;
    (void)state;

    tokio__jscan_init(&js, text, sizeof(text) - 1, "s.json");
    assert_int_equal(tokio__jscan_eat(&js, '['), TOKIO_OK);
    assert_int_equal(tokio__jscan_scalar(&js, out, &v), TOKIO_OK);
    assert_int_equal(v.type, TOKIO__JNULL);
    assert_int_equal(tokio__jscan_next(&js, ']'), 1);
    assert_int_equal(tokio__jscan_scalar(&js, out, &v), TOKIO_OK);
    assert_int_equal(v.type, TOKIO__JTRUE);
    assert_int_equal(tokio__jscan_next(&js, ']'), 1);
    assert_int_equal(tokio__jscan_scalar(&js, out, &v), TOKIO_OK);
    assert_int_equal(v.type, TOKIO__JFALSE);
    assert_int_equal(tokio__jscan_next(&js, ']'), 1);
    assert_int_equal(tokio__jscan_scalar(&js, out, &v), TOKIO_OK);
    assert_int_equal(v.type, TOKIO__JSTRING);
    assert_int_equal(v.len, 3);
    assert_string_equal(out, "s\xc3\xa9");
    assert_int_equal(tokio__jscan_next(&js, ']'), 1);
    assert_int_equal(tokio__jscan_scalar(&js, out, &v), TOKIO_OK);
    assert_int_equal(v.type, TOKIO__JINT);
    assert_true(v.i == -12);
    assert_int_equal(tokio__jscan_next(&js, ']'), 1);
    assert_int_equal(tokio__jscan_scalar(&js, out, &v), TOKIO_OK);
    assert_int_equal(v.type, TOKIO__JREAL);
    assert_true(v.d == 0.25);
    assert_int_equal(tokio__jscan_next(&js, ']'), 1);
    assert_int_equal(tokio__jscan_scalar(&js, out, &v), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'s.json' byte 37: 'n' (0x6e) where a "
                    "string, number, true, false or null was expected");
    tokio__jscan_init(&js, "[1]", 3, "s.json");
    assert_int_equal(tokio__jscan_scalar(&js, out, &v), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "byte 0: '[' (0x5b) where a string, "
                    "number");
}

/* `text` skipped must fail (or succeed: want NULL), as jansson agrees. */
static void
assert_skip(const char *text, const char *want)
{
    struct tokio__jscan js;

    tokio__jscan_init(&js, text, strlen(text), "k.json");
    if (want == NULL) {
        json_t *j = json_loads(text, JSON_DECODE_ANY, NULL);
        assert_non_null(j);
        json_decref(j);
        assert_int_equal(tokio__jscan_skip(&js), TOKIO_OK);
        assert_int_equal(tokio__jscan_end(&js), TOKIO_OK);
        return;
    }
    assert_int_equal(tokio__jscan_skip(&js), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), want);
}

static void
test_json_scan_skips_any_value(void **state)
{
    char deep[2 * (TOKIO__JSCAN_DEPTH + 1) + 1];
    (void)state;

    assert_skip(" {\"a\": [1, -2.5e3, \"x\xc3\xa9\", true, false, null, "
                "{\"b\": {}}, [], [[]]], \"c\" : {\"d\": \"\"}} ", NULL);
    assert_skip("\"s\"", NULL);
    assert_skip("17", NULL);
    assert_skip("[1, 2", "'k.json' byte 5: end of text where ',' or ']'");
    assert_skip("[1,]", "byte 3: ']' (0x5d) where a string, number");
    assert_skip("{\"a\" 1}", "byte 5: '1' (0x31) where ':' was expected");
    assert_skip("{1: 2}", "byte 1: '1' (0x31) where a string was expected");
    assert_skip("{\"a\": 1,}", "byte 8: '}' (0x7d) where a string");
    assert_skip("[\"a\\nb\"]", "byte 3: '\\' (0x5c) where a string "
                "character without escape");
    assert_skip("[\"a", "byte 3: end of text where the end of a string");
    assert_skip("[\"\xc3(\"]", "byte 2: invalid UTF-8");
    assert_skip("[01]", "no digit after a leading 0");
    assert_skip("", "byte 0: end of text where a string, number");
    /* nesting: as deep as TOKIO__JSCAN_DEPTH, not deeper */
    for (size_t k = 0; k < TOKIO__JSCAN_DEPTH; k++) {
        deep[k] = '[';
        deep[2 * TOKIO__JSCAN_DEPTH - 1 - k] = ']';
    }
    deep[2 * TOKIO__JSCAN_DEPTH] = '\0';
    assert_skip(deep, NULL);
    memset(deep, '[', TOKIO__JSCAN_DEPTH + 1);
    memset(deep + TOKIO__JSCAN_DEPTH + 1, ']', TOKIO__JSCAN_DEPTH + 1);
    deep[2 * (TOKIO__JSCAN_DEPTH + 1)] = '\0';
    assert_skip(deep, "byte 64: '[' (0x5b) where a value nested less "
                "deeply");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_scan_reads_a_cache_shape),
        cmocka_unit_test(test_json_scan_strings_match_jansson),
        cmocka_unit_test(test_json_scan_refuses_what_it_does_not_read),
        cmocka_unit_test(test_json_scan_numbers_match_jansson),
        cmocka_unit_test(test_json_scan_refuses_numbers_jansson_refuses),
        cmocka_unit_test(test_json_scan_reads_scalars),
        cmocka_unit_test(test_json_scan_skips_any_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
