/*
 * tests/core/test_json_scan.c - the strict pull reader (core/json_scan.h):
 * a cache-shaped document read token by token, its strings copied out
 * byte for byte (short ones, long ones that take the sixteen-byte path,
 * non-ASCII ones at every offset), white space where JSON allows it, and
 * each refusal (an escape, a control character, invalid UTF-8, an
 * unterminated string, a missing separator, trailing text) an error
 * naming the input and the byte.  Every accepted string is compared with
 * jansson's reading of the same text.
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

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_scan_reads_a_cache_shape),
        cmocka_unit_test(test_json_scan_strings_match_jansson),
        cmocka_unit_test(test_json_scan_refuses_what_it_does_not_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
