/*
 * tests/core/test_repr.c - doubles as Python's repr() writes them
 * (src/core/repr.c).
 *
 * Expected strings were produced by CPython 3.11's repr() and are written
 * out here; the fast paths are checked against the definition over
 * hundreds of thousands of doubles of every kind.
 */
#include "testutil.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/repr.h"
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

/* splitmix64: a fixed sequence, so a failure reproduces */
static uint64_t
next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static double
bits_to_double(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof(d));
    return d;
}

/* tokio_format_double() gives what the definition does
 * (tokio__format_double_exact) for d. */
static void
assert_formats_as_exact(double d)
{
    char fast[40], exact[40];

    assert_int_equal(tokio_format_double(fast, sizeof(fast), d), TOKIO_OK);
    assert_int_equal(tokio__format_double_exact(exact, sizeof(exact), d),
                     TOKIO_OK);
    if (strcmp(fast, exact) != 0)
        fail_msg("%a: fast %s, exact %s", d, fast, exact);
}

/* The fast paths of tokio_format_double() against the definition
 * (tokio__format_double_exact) over doubles of every kind: raw bit
 * patterns (subnormals, huge, tiny), "%f"-style values and short
 * decimals with their neighbours one ulp away, integers, and the
 * subnormal range.  TOKIO_TEST_DOUBLES sets the count (default 2e5, ~4 s;
 * 1e6 and more pass too, with any TOKIO_TEST_SEED). */
static void
test_format_double_fast_equals_exact(void **state)
{
    const char *env = getenv("TOKIO_TEST_DOUBLES");
    const char *seed = getenv("TOKIO_TEST_SEED");
    size_t count = env != NULL ? (size_t)strtoull(env, NULL, 10) : 200000;
    uint64_t rng = seed != NULL ? strtoull(seed, NULL, 10) : 42;

    (void)state;
    for (size_t i = 0; i < count; i++) {
        uint64_t r = next_random(&rng);
        double d;
        switch (i % 8) {
        case 0:     /* any bit pattern */
            d = bits_to_double(r);
            break;
        case 1:     /* subnormal */
            d = bits_to_double(r & UINT64_C(0x800fffffffffffff));
            break;
        case 2:     /* darshan-parser's "%f" values read back */
            d = (double)(int64_t)(r % UINT64_C(20000000000000000)) / 1e6;
            break;
        case 3: {   /* a short decimal with a random exponent */
            uint64_t digits = (r >> 12) % 1000000000000000u;
            digits /= (uint64_t)pow(10, (double)(r % 15));
            d = (double)digits * pow(10, (double)(int)((r >> 4) % 60) - 40);
            break;
        }
        case 4:     /* a neighbour of a short decimal */
            d = nextafter((double)(r % 100000000) / 1e4,
                          (r >> 40) & 1 ? INFINITY : -INFINITY);
            break;
        case 5:     /* integers, some beyond 2^53 */
            d = (double)(r >> (r % 64));
            break;
        case 6:     /* times since the epoch, and their halves */
            d = 1.6e9 + (double)(r % 100000000000u) / 1e5;
            d = (r >> 63) ? d / 2 : -d;
            break;
        default:    /* near the normal/subnormal edge and the top */
            d = (r & 1) ? DBL_MIN * (double)(r % 1000) / 7
                        : DBL_MAX / (double)(1 + (r >> 1) % 1000);
            break;
        }
        assert_formats_as_exact(d);
    }
}

/* Doubles of 16 and 17 significant digits, as measurements are (the
 * 17-digit "%.16e" path), among them ones whose 17 digits end in 5 or
 * 50: tokio_format_double() against the definition. */
static void
test_format_double_long_digits_equal_exact(void **state)
{
    const char *env = getenv("TOKIO_TEST_DOUBLES");
    size_t count = env != NULL ? (size_t)strtoull(env, NULL, 10) : 100000;
    uint64_t rng = 7;
    char sci[40];
    size_t halves = 0;

    (void)state;
    for (size_t i = 0; i < count; i++) {
        uint64_t r = next_random(&rng);
        double d = (double)(r >> 11) / 9007199254740992.0 *
                   pow(10, (double)(int)(r % 48) - 24);
        if (i % 3 == 0) {   /* a 17-digit decimal ending in 5 or 50 */
            snprintf(sci, sizeof(sci), "%.16e", d);
            sci[17] = '5';
            if (i % 2)
                sci[16] = '5', sci[17] = '0';
            d = strtod(sci, NULL);
        }
        if (i % 2)
            d = -d;
        snprintf(sci, sizeof(sci), "%.16e", fabs(d));
        halves += sci[17] == '5' || (sci[16] == '5' && sci[17] == '0');
        assert_formats_as_exact(d);
    }
    assert_true(halves > count / 10);
}

/* The exact one-pass path (doubles of 1e-11 .. 1e17) at its edges:
 * powers of two (a narrower lower half interval) and their neighbours,
 * decimals of 15 and 16 digits and one ulp off them, and doubles whose
 * 16th or 17th digit is a 5 (ties in the rounding to 15 or 16 digits),
 * across the range and a little beyond it; against the definition. */
static void
test_format_double_scaled_edges_equal_exact(void **state)
{
    const char *env = getenv("TOKIO_TEST_DOUBLES");
    size_t count = env != NULL ? (size_t)strtoull(env, NULL, 10) : 200000;
    uint64_t rng = 23;
    char sci[40];

    (void)state;
    /* powers of ten, some just below theirs (1e-06, 1e-07: rounding up
     * carries into another place) and their neighbours */
    for (int e = -13; e <= 18; e++) {
        snprintf(sci, sizeof(sci), "1e%d", e);
        for (int k = -1; k <= 1; k++) {
            double d = strtod(sci, NULL);

            d = k < 0 ? nextafter(d, 0.0) : k > 0 ? nextafter(d, INFINITY)
                                                  : d;
            assert_formats_as_exact(d);
        }
    }
    for (size_t i = 0; i < count; i++) {
        uint64_t r = next_random(&rng);
        int e2 = (int)(r % 110) - 48;       /* 2^-48 .. 2^61 */
        double d;

        switch (i % 4) {
        case 0:     /* a power of two, or a small multiple of one */
            d = ldexp((double)(1 + ((r >> 8) & 7) * ((r >> 12) & 1)), e2);
            break;
        case 1:     /* 15 or 16 digits */
            d = (double)((r >> 11) % UINT64_C(10000000000000000)) *
                pow(10, (double)((int)((r >> 4) % 30) - 26));
            break;
        case 2:     /* a 17-digit decimal ending in 5, or 16 in 5 */
            d = ldexp(1 + (double)(r >> 12) / 4503599627370496.0, e2);
            snprintf(sci, sizeof(sci), "%.16e", d);
            if ((r >> 7) & 1)
                sci[17] = '5';
            else
                sci[16] = '5', sci[17] = '0';
            d = strtod(sci, NULL);
            break;
        default:    /* any mantissa */
            d = ldexp(1 + (double)(r >> 12) / 4503599627370496.0, e2);
            break;
        }
        if ((r >> 9) & 1)
            d = nextafter(d, (r >> 10) & 1 ? INFINITY : 0.0);
        if ((r >> 62) & 1)
            d = -d;
        assert_formats_as_exact(d);
    }
}

/* tokio__decimal_to_double() against strtod() on decimals of up to 19
 * digits with exponents -22..22: random ones, the exact midpoints
 * between two neighbouring doubles and decimals just off them (one unit
 * in their 19th or 17th digit), where two roundings would go wrong. */
static void
test_decimal_to_double_equals_strtod(void **state)
{
    const char *env = getenv("TOKIO_TEST_DOUBLES");
    size_t count = env != NULL ? (size_t)strtoull(env, NULL, 10) : 200000;
    uint64_t rng = 11;
    size_t taken = 0, ties = 0;
    char text[64];

    (void)state;
    for (size_t i = 0; i < count; i++) {
        uint64_t r = next_random(&rng), v;
        int q = (int)(r % 45) - 22, neg = (int)(r >> 63);
        double got, want;

        if (i % 2 == 0) {
            v = next_random(&rng) >> (r >> 8) % 12;
        } else {
            /* o 2^-k, o odd in (2^53, 2^54), lies exactly halfway
             * between the doubles m 2^(1-k) and (m+1) 2^(1-k), o = 2m+1:
             * as a decimal v 10^q, v = o 2^-k for k <= 0 (q = 0), or
             * o 5^k for k = 1..4 (q = -k); then one unit off it */
            uint64_t o = (UINT64_C(1) << 53) | (r >> 11) | 1;
            int k = (int)((r >> 4) % 15) - 10;

            v = k <= 0 ? o << -k : o;
            for (int j = 0; j < k; j++)
                v *= 5;
            q = k <= 0 ? 0 : -k;
            v += (r >> 30) % 3 - 1;     /* on it, one unit below, above */
            ties++;
        }
        snprintf(text, sizeof(text), "%s%" PRIu64 "e%d", neg ? "-" : "", v,
                 q);
        want = strtod(text, NULL);
        if (!tokio__decimal_to_double(v, q, neg, &got))
            fail_msg("%s: not taken", text);
        taken++;
        if (memcmp(&got, &want, sizeof(got)) != 0)
            fail_msg("%s: %a, strtod %a", text, got, want);
    }
    assert_true(ties > count / 4);
    assert_true(taken > count / 2);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_double_matches_python_repr),
        cmocka_unit_test(test_format_double_fast_equals_exact),
        cmocka_unit_test(test_format_double_long_digits_equal_exact),
        cmocka_unit_test(test_format_double_scaled_edges_equal_exact),
        cmocka_unit_test(test_decimal_to_double_equals_strtod),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
