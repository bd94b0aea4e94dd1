/*
 * tests/core/test_util.c - humanize_bytes, recast_string and the natural
 * node-name order (src/core/util.c).
 *
 * Expected values were produced by running the reference's own
 * humanize_bytes(), recast_string() and sorted_nodenames() under
 * CPython 3.11 and are written out here.
 */
#include "testutil.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tokio/util.h"

/* ---- humanize_bytes -------------------------------------------------- */

static void
test_humanize_bytes_matches_reference(void **state)
{
    static const struct {
        double bytes;
        const char *binary, *decimal;
    } cases[] = {
        { 0, "0.0 bytes", "0.0 bytes" },
        { 1, "1.0 byte", "1.0 byte" },
        { -1, "-1.0 bytes", "-1.0 bytes" },
        { 1.5, "1.5 bytes", "1.5 bytes" },
        { 999, "999.0 bytes", "999.0 bytes" },
        { 1000, "1000.0 bytes", "1.0 KB" },
        { 1023, "1023.0 bytes", "1.0 KB" },
        { 1024, "1.0 KiB", "1.0 KB" },
        { 1025, "1.0 KiB", "1.0 KB" },
        { 1536, "1.5 KiB", "1.5 KB" },
        { 1048575, "1024.0 KiB", "1.0 MB" },
        { 1048576, "1.0 MiB", "1.0 MB" },
        { 1e6, "976.6 KiB", "1.0 MB" },
        { 1610612736.0, "1.5 GiB", "1.6 GB" },
        { 1.6e9, "1.5 GiB", "1.6 GB" },
        { 1e12, "931.3 GiB", "1.0 TB" },
        { 1099511627776.0, "1.0 TiB", "1.1 TB" },
        { 1e15, "909.5 TiB", "1.0 PB" },
        { 1125899906842624.0, "1.0 PiB", "1.1 PB" },
        { 1e18, "888.2 PiB", "1.0 EB" },
        { 1152921504606846976.0, "1.0 EiB", "1.2 EB" },
        { 1e21, "867.4 EiB", "1.0 ZB" },
        { 1180591620717411303424.0, "1.0 ZiB", "1.2 ZB" },
        /* the double 1e24 is just below 10**24, so Python stays in ZB */
        { 1e24, "847.0 ZiB", "1000.0 ZB" },
        { 1.0000001e24, "847.0 ZiB", "1.0 YB" },
        { 1208925819614629174706176.0, "1.0 YiB", "1.2 YB" },
        { 1237940039285380274899124224.0, "1024.0 YiB", "1237.9 YB" },
        { 1e27, "827.2 YiB", "1000.0 YB" },
        { -2048, "-2.0 KiB", "-2.0 KB" },
        { INFINITY, "inf YiB", "inf YB" },
        { -INFINITY, "-inf YiB", "-inf YB" },
        { NAN, "nan bytes", "nan bytes" },
        { -NAN, "nan bytes", "nan bytes" },
    };
    char buf[32];

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_int_equal(tokio_humanize_bytes(buf, sizeof(buf),
                                              cases[i].bytes, 0), 0);
        assert_string_equal(buf, cases[i].binary);
        assert_int_equal(tokio_humanize_bytes(buf, sizeof(buf),
                                              cases[i].bytes, 1), 0);
        assert_string_equal(buf, cases[i].decimal);
    }
}

static void
test_humanize_bytes_small_buffer_is_einval(void **state)
{
    char buf[32];

    (void)state;
    /* "1.5 GiB" needs 8 bytes with its NUL */
    assert_int_equal(tokio_humanize_bytes(buf, 8, 1610612736.0, 0), 0);
    assert_string_equal(buf, "1.5 GiB");
    assert_int_equal(tokio_humanize_bytes(buf, 7, 1610612736.0, 0),
                     TOKIO_EINVAL);
    assert_string_equal(buf, "");
    assert_contains(tokio_errmsg(), "do not fit");
    /* Python would print all 284 digits; 32 bytes cannot hold them */
    assert_int_equal(tokio_humanize_bytes(buf, sizeof(buf), 1e308, 0),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_humanize_bytes(NULL, 32, 1, 0), TOKIO_EINVAL);
    assert_int_equal(tokio_humanize_bytes(buf, 0, 1, 0), TOKIO_EINVAL);
}

/* ---- recast_string --------------------------------------------------- */

static void
assert_recast_int(const char *text, json_int_t expect)
{
    json_t *v = tokio_recast_string(text);

    assert_non_null(v);
    if (!json_is_integer(v))
        print_error("'%s': not an integer\n", text);
    assert_true(json_is_integer(v));
    assert_int_equal(json_integer_value(v), expect);
    json_decref(v);
}

static void
assert_recast_real(const char *text, double expect)
{
    json_t *v = tokio_recast_string(text);

    assert_non_null(v);
    if (!json_is_real(v))
        print_error("'%s': not a real\n", text);
    assert_true(json_is_real(v));
    assert_true(json_real_value(v) == expect);
    assert_int_equal(signbit(json_real_value(v)), signbit(expect));
    json_decref(v);
}

static void
assert_recast_string(const char *text, const char *expect)
{
    json_t *v = tokio_recast_string(text);

    assert_non_null(v);
    if (!json_is_string(v))
        print_error("'%s': not a string\n", text);
    assert_true(json_is_string(v));
    assert_string_equal(json_string_value(v), expect);
    json_decref(v);
}

static void
test_recast_string_integers(void **state)
{
    (void)state;
    assert_recast_int("0", 0);
    assert_recast_int("12", 12);
    assert_recast_int("-12", -12);
    assert_recast_int("+12", 12);
    assert_recast_int(" 12 ", 12);
    assert_recast_int("\t42\n", 42);
    /* Unicode spaces count, \x1c..\x1f do not (CPython's int()) */
    assert_recast_int("\xc2\xa0" "5\xe3\x80\x80", 5);
    assert_recast_int("\xe2\x80\x80" "5", 5);
    assert_recast_string("\x1c" "5", "\x1c" "5");
    assert_recast_int("1_000", 1000);
    assert_recast_int("007", 7);
    assert_recast_int("9223372036854775807", INT64_MAX);
    assert_recast_int("-9223372036854775808", INT64_MIN);
    /* not decimal, not float, but hexadecimal */
    assert_recast_int("ff", 255);
    assert_recast_int("0x1f", 31);
    assert_recast_int("0X1F", 31);
    assert_recast_int("-0x1f", -31);
    assert_recast_int("0x_1f", 31);
    assert_recast_int("e5", 229);
    assert_recast_int("abc", 2748);
    assert_recast_int("deadbeef", 3735928559LL);
}

static void
test_recast_string_big_integers_become_reals(void **state)
{
    (void)state;
    /* Differs from pytokio: Python keeps these exact (arbitrary ints) */
    assert_recast_real("9223372036854775808", 9223372036854775808.0);
    assert_recast_real("-9223372036854775809", -9223372036854775808.0);
    assert_recast_real("ffffffffffffffffff", 4722366482869645213695.0);
    assert_recast_real("123456789012345678901234567890",
                       1.2345678901234568e+29);
    /* beyond a double: kept as the text */
    char big[400];
    memset(big, '9', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    assert_recast_string(big, big);
}

static void
test_recast_string_floats(void **state)
{
    (void)state;
    assert_recast_real("1.5", 1.5);
    assert_recast_real(" 1.5 ", 1.5);
    assert_recast_real("\xc2\x85" "1.5", 1.5);
    assert_recast_real("-0.0", -0.0);
    assert_recast_real(".5", 0.5);
    assert_recast_real("5.", 5.0);
    assert_recast_real("1e5", 100000.0);          /* float before hex */
    assert_recast_real("1E-3", 0.001);
    assert_recast_real("1_0.5", 10.5);
    assert_recast_real("72.9888177739439", 72.9888177739439);
    /* Differs from pytokio: float() accepts these; JSON cannot hold them */
    assert_recast_string("inf", "inf");
    assert_recast_string("-inf", "-inf");
    assert_recast_string("nan", "nan");
    assert_recast_string("Infinity", "Infinity");
    assert_recast_string("1e999", "1e999");
}

static void
test_recast_string_words_and_text(void **state)
{
    json_t *v;

    (void)state;
    assert_true(json_is_true(v = tokio_recast_string("True")));
    json_decref(v);
    assert_true(json_is_false(v = tokio_recast_string("False")));
    json_decref(v);
    assert_true(json_is_null(v = tokio_recast_string("null")));
    json_decref(v);
    assert_recast_string("true", "true");
    assert_recast_string("None", "None");
    assert_recast_string(" True", " True");
    assert_recast_string("", "");
    assert_recast_string("  ", "  ");
    assert_recast_string("1__0", "1__0");
    assert_recast_string("_1", "_1");
    assert_recast_string("1_", "1_");
    assert_recast_string("1._5", "1._5");
    assert_recast_string("0x", "0x");
    assert_recast_string("0x1g", "0x1g");
    assert_recast_string("1.2.3", "1.2.3");
    assert_recast_string("1 2", "1 2");
    assert_recast_string("+", "+");
    assert_recast_string("-", "-");
    assert_recast_string("scratch2", "scratch2");
    assert_recast_string("h\xc3\xa9llo", "h\xc3\xa9llo");
    /* bytes that are not UTF-8 become U+FFFD, as Python's "replace" */
    assert_recast_string("a\xff" "b\xc3", "a\xef\xbf\xbd" "b\xef\xbf\xbd");
    assert_recast_string("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd"
                         "\xef\xbf\xbd");                 /* surrogate */
}

static void
test_recast_string_survives_every_oom(void **state)
{
    static const char *const texts[] = {
        "12", "1.5", "ff", "99999999999999999999", "text", "a\xff",
    };

    (void)state;
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        for (size_t n = 1;; n += tokio_test_oom_step()) {
            tokio_test_fail_alloc_at(n);
            json_t *v = tokio_recast_string(texts[i]);
            tokio_test_fail_alloc_at(0);
            if (v != NULL) {
                json_decref(v);
                break;
            }
            assert_true(n < 20);
        }
    }
}

/* ---- natural order --------------------------------------------------- */

static void
assert_sorted(const char **names, size_t n, int hex,
              const char *const *expect)
{
    assert_int_equal(tokio_sort_nodenames(names, n, hex), 0);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(names[i], expect[i]) != 0)
            print_error("position %zu: '%s', expected '%s'\n", i, names[i],
                        expect[i]);
        assert_string_equal(names[i], expect[i]);
    }
}

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static void
test_natural_sort_matches_reference(void **state)
{
    (void)state;
    {
        const char *v[] = { "bb23", "bb231", "bb3", "bb1", "bb100", "bb2" };
        static const char *const e[] = { "bb1", "bb2", "bb3", "bb23",
                                         "bb100", "bb231" };
        assert_sorted(v, N_OF(v), 0, e);
    }
    {
        /* equal keys ("nid1" == "nid01") keep their input order */
        const char *v[] = { "nid00010", "nid00009", "nid00100", "nid1",
                            "nid01" };
        static const char *const e[] = { "nid1", "nid01", "nid00009",
                                         "nid00010", "nid00100" };
        assert_sorted(v, N_OF(v), 0, e);
    }
    {
        const char *v[] = { "snx11025n022", "snx11025n003", "snx11025n010",
                            "snx11025n001" };
        static const char *const e[] = { "snx11025n001", "snx11025n003",
                                         "snx11025n010", "snx11025n022" };
        assert_sorted(v, N_OF(v), 0, e);
    }
    {
        const char *v[] = { "a", "", "b", "a1", "a01", "a0" };
        static const char *const e[] = { "", "a", "a0", "a1", "a01", "b" };
        assert_sorted(v, N_OF(v), 0, e);
    }
    {
        const char *v[] = { "x-10", "x-9", "x_1", "x-1" };
        static const char *const e[] = { "x-1", "x-9", "x-10", "x_1" };
        assert_sorted(v, N_OF(v), 0, e);
    }
    {
        const char *v[] = { "a-b", "a1", "a", "a10b", "a10a", "a9z" };
        static const char *const e[] = { "a", "a1", "a9z", "a10a", "a10b",
                                         "a-b" };
        assert_sorted(v, N_OF(v), 0, e);
    }
    {
        const char *v[] = { "c1", "b", "c", "c0", "c00" };
        static const char *const e[] = { "b", "c", "c0", "c00", "c1" };
        assert_sorted(v, N_OF(v), 0, e);
    }
    {
        const char *v[] = { "n1", "n1a", "n1-", "n1 " };
        static const char *const e[] = { "n1", "n1 ", "n1-", "n1a" };
        assert_sorted(v, N_OF(v), 0, e);
    }
    {
        /* longer than any integer type: compared digit by digit */
        const char *v[] = { "n12345678901234567890123",
                            "n12345678901234567890122", "n9" };
        static const char *const e[] = { "n9", "n12345678901234567890122",
                                         "n12345678901234567890123" };
        assert_sorted(v, N_OF(v), 0, e);
    }
    {
        const char *v[] = { "ABC", "abc", "Abc", "aBc" };
        static const char *const e[] = { "ABC", "Abc", "aBc", "abc" };
        assert_sorted(v, N_OF(v), 0, e);
    }
}

static void
test_natural_sort_hex_matches_reference(void **state)
{
    (void)state;
    {
        /* "bb9" is all hex: 0xbb9 < 0xbba < 0xbbf < 0xbb0a < 0xbb10 */
        const char *v[] = { "bb9", "bba", "bb10", "bbf", "bb0a" };
        static const char *const e[] = { "bb9", "bba", "bbf", "bb0a",
                                         "bb10" };
        assert_sorted(v, N_OF(v), 1, e);
    }
    {
        const char *v[] = { "bb9", "bba", "bb10", "bbf", "bb0a" };
        static const char *const e[] = { "bb0a", "bb9", "bb10", "bba",
                                         "bbf" };
        assert_sorted(v, N_OF(v), 0, e);
    }
    {
        const char *v[] = { "OST000a", "OST0009", "OST0010", "OST000f",
                            "OST0001" };
        static const char *const e[] = { "OST0001", "OST0009", "OST000a",
                                         "OST000f", "OST0010" };
        assert_sorted(v, N_OF(v), 1, e);
    }
    {
        const char *v[] = { "OST000a", "OST0009", "OST0010", "OST000f",
                            "OST0001" };
        static const char *const e[] = { "OST000a", "OST000f", "OST0001",
                                         "OST0009", "OST0010" };
        assert_sorted(v, N_OF(v), 0, e);
    }
    {
        const char *v[] = { "ngfsv492", "ngfsv493", "ngfsv491" };
        static const char *const e[] = { "ngfsv491", "ngfsv492",
                                         "ngfsv493" };
        assert_sorted(v, N_OF(v), 1, e);
    }
    {
        /* hex digits compare by value whatever their case: all equal */
        const char *v[] = { "ABC", "abc", "Abc", "aBc" };
        static const char *const e[] = { "ABC", "abc", "Abc", "aBc" };
        assert_sorted(v, N_OF(v), 1, e);
    }
    {
        const char *v[] = { "g1", "G1", "xg" };
        static const char *const e[] = { "G1", "g1", "xg" };
        assert_sorted(v, N_OF(v), 1, e);
    }
}

static void
test_natural_compare_numbers_before_text(void **state)
{
    (void)state;
    /* Differs from pytokio: Python 3 raises TypeError for these */
    assert_true(tokio_natural_compare("1a", "a1", 0) < 0);
    assert_true(tokio_natural_compare("a1", "1a", 0) > 0);
    assert_true(tokio_natural_compare("0xg", "xg", 1) < 0);
    assert_int_equal(tokio_natural_compare("nid01", "nid1", 0), 0);
    assert_int_equal(tokio_natural_compare("", "", 0), 0);
    assert_true(tokio_natural_compare("", "a", 0) < 0);
    assert_true(tokio_natural_compare(NULL, "a", 0) < 0);
    assert_true(tokio_natural_compare("bb2", "bb10", 0) < 0);
    assert_true(tokio_natural_compare("bb10", "bb2", 0) > 0);
    assert_true(tokio_natural_compare("bb9", "bba", 1) < 0);
    /* UTF-8 text compares by code point, as Python's str */
    assert_true(tokio_natural_compare("\xc3\xa9", "z", 0) > 0);
}

/*
 * The order TimeSeries.sort_columns() gives the reference's
 * sample_tokiots.hdf5 columns (test_timeseries.py's test_sort): burst
 * buffer nodes bb1..bb16, four NVMe devices each, as the file stores them.
 */
static void
test_natural_sort_tokiots_columns(void **state)
{
    char names[64][16];
    const char *v[64], *expect[64];
    unsigned seed = 12345;

    (void)state;
    for (int i = 0; i < 64; i++) {
        snprintf(names[i], sizeof(names[i]), "bb%d:nvme%dn1", i / 4 + 1,
                 i % 4);
        expect[i] = v[i] = names[i];
    }
    /* a deterministic shuffle */
    for (int i = 63; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        int j = (int)((seed >> 16) % (unsigned)(i + 1));
        const char *t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
    assert_sorted(v, 64, 0, expect);
    /* already sorted input stays put; reversed input sorts too */
    assert_sorted(v, 64, 0, expect);
    for (int i = 0; i < 32; i++) {
        const char *t = v[i];
        v[i] = v[63 - i];
        v[63 - i] = t;
    }
    assert_sorted(v, 64, 0, expect);
}

static void
test_natural_sort_bb1_to_bb231_and_stability(void **state)
{
    char names[231][8];
    const char *v[231 * 2], *expect[231 * 2];
    char copies[231][8];
    unsigned seed = 7;

    (void)state;
    for (int i = 0; i < 231; i++) {
        snprintf(names[i], sizeof(names[i]), "bb%d", i + 1);
        /* "bb0N": a different string with an equal key */
        snprintf(copies[i], sizeof(copies[i]), "bb0%d", i + 1);
    }
    /* input: every name, shuffled, then every copy in the same order */
    const char *shuffled[231];
    for (int i = 0; i < 231; i++)
        shuffled[i] = names[i];
    for (int i = 230; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        int j = (int)((seed >> 16) % (unsigned)(i + 1));
        const char *t = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = t;
    }
    for (int i = 0; i < 231; i++) {
        v[i] = shuffled[i];
        v[231 + i] = copies[atoi(shuffled[i] + 2) - 1];
    }
    /* stable: each "bbN" (earlier in the input) precedes its "bb0N" */
    for (int i = 0; i < 231; i++) {
        expect[2 * i] = names[i];
        expect[2 * i + 1] = copies[i];
    }
    assert_sorted(v, 231 * 2, 0, expect);
}

static void
test_sort_nodenames_edges_and_oom(void **state)
{
    const char *one[] = { "x" };

    (void)state;
    assert_int_equal(tokio_sort_nodenames(NULL, 0, 0), 0);
    assert_int_equal(tokio_sort_nodenames(one, 1, 0), 0);
    assert_int_equal(tokio_sort_nodenames(NULL, 2, 0), TOKIO_EINVAL);

    const char *v[] = { "b2", "b10", "b1" };
    tokio_test_fail_alloc_at(1);
    int rc = tokio_sort_nodenames(v, 3, 0);
    tokio_test_fail_alloc_at(0);
    assert_int_equal(rc, TOKIO_ENOMEM);
    /* untouched on failure */
    assert_string_equal(v[0], "b2");
    assert_string_equal(v[2], "b1");
    assert_int_equal(tokio_sort_nodenames(v, 3, 0), 0);
    assert_string_equal(v[0], "b1");
    assert_string_equal(v[2], "b10");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_humanize_bytes_matches_reference),
        cmocka_unit_test(test_humanize_bytes_small_buffer_is_einval),
        cmocka_unit_test(test_recast_string_integers),
        cmocka_unit_test(test_recast_string_big_integers_become_reals),
        cmocka_unit_test(test_recast_string_floats),
        cmocka_unit_test(test_recast_string_words_and_text),
        cmocka_unit_test(test_recast_string_survives_every_oom),
        cmocka_unit_test(test_natural_sort_matches_reference),
        cmocka_unit_test(test_natural_sort_hex_matches_reference),
        cmocka_unit_test(test_natural_compare_numbers_before_text),
        cmocka_unit_test(test_natural_sort_tokiots_columns),
        cmocka_unit_test(test_natural_sort_bb1_to_bb231_and_stability),
        cmocka_unit_test(test_sort_nodenames_edges_and_oom),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
