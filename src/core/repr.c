/*
 * src/core/repr.c - doubles as Python's repr(float) writes them.
 *
 * The reference's JSON caches and CSV outputs come from Python, which
 * prints a float as the shortest decimal string that reads back as the
 * same double; tokio's writers (tokio_json_write(), src/core/wbuf.h, the
 * CSV forms) print doubles through tokio_format_double() to match it.
 * Darshan JSON output writes millions of them: the common cases take fast
 * paths that the tests check against the definition,
 * tokio__format_double_exact().
 *
 * Speed code, and why: `tokio cache-collectdes --csv --input` (issue 18:
 * 30x the reference, bench/bench-collectdes.sh) prints 200,000 doubles of
 * 16-17 digits per 100,000 hits; the exact one-pass path for 1e-11 ..
 * 1e17 (shortest_scaled) took their formatting from ~20% of the command
 * (Clinger tries, strtod checks, nextafter steps) to ~7%: 135 -> 124 ms
 * CPU beside the build before, 2026-11-27; a table of powers of five
 * and 128-bit products for rounds_to (reading 17-digit numbers), -2%.
 */
#include "tokio/output.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/repr.h"

/*
 * Python's repr(float): the shortest decimal string that reads back as the
 * same double (at most 17 significant digits), in fixed notation when the
 * decimal exponent is in [-4, 16), else scientific with a signed exponent
 * of at least two digits.
 */

/* Lay out `ndigits` significant digits (no trailing zeros, at least one)
 * with decimal exponent `exp10` as repr() does; returns the length. */
static size_t
repr_layout(char *out, int negative, const char *digits, int ndigits,
            int exp10)
{
    size_t o = 0;

    if (negative)
        out[o++] = '-';
    if (exp10 < -4 || exp10 >= 16) {
        out[o++] = digits[0];
        if (ndigits > 1) {
            out[o++] = '.';
            memcpy(out + o, digits + 1, (size_t)ndigits - 1);
            o += (size_t)ndigits - 1;
        }
        int e = abs(exp10);
        out[o++] = 'e';
        out[o++] = exp10 < 0 ? '-' : '+';
        if (e >= 100)
            out[o++] = (char)('0' + e / 100);
        out[o++] = (char)('0' + e / 10 % 10);
        out[o++] = (char)('0' + e % 10);
    } else if (exp10 < 0) {
        out[o++] = '0';
        out[o++] = '.';
        for (int i = -1; i > exp10; i--)
            out[o++] = '0';
        memcpy(out + o, digits, (size_t)ndigits);
        o += (size_t)ndigits;
    } else {
        for (int i = 0; i <= exp10; i++)
            out[o++] = i < ndigits ? digits[i] : '0';
        out[o++] = '.';
        if (ndigits > exp10 + 1) {
            memcpy(out + o, digits + exp10 + 1,
                   (size_t)(ndigits - exp10 - 1));
            o += (size_t)(ndigits - exp10 - 1);
        } else {
            out[o++] = '0';
        }
    }
    out[o] = '\0';
    return o;
}

/* Lay out "%.*e" text `sci` ("[-]D[.DDD]e[+-]XX"), trailing zeros
 * dropped. */
static size_t
layout_sci(char *out, const char *sci)
{
    char digits[24];
    int ndigits = 0;
    const char *p = sci;
    int negative = (*p == '-');

    if (negative)
        p++;
    for (; *p && *p != 'e'; p++)
        if (*p != '.' && ndigits < 20)
            digits[ndigits++] = *p;
    int exp10 = atoi(p + 1);
    /* "%.0e" of 0.0 is "0e+00"; trailing zeros never carry meaning */
    while (ndigits > 1 && digits[ndigits - 1] == '0')
        ndigits--;
    return repr_layout(out, negative, digits, ndigits, exp10);
}

static int
finish_double(char *buf, size_t size, const char *text, size_t n)
{
    if (n >= size)
        return tokio__error(TOKIO_EINVAL, "number does not fit in %zu bytes",
                            size);
    memcpy(buf, text, n + 1);
    return TOKIO_OK;
}

/* The definition: the first precision whose "%.*e" reads back exactly. */
int
tokio__format_double_exact(char *buf, size_t size, double d)
{
    char sci[40], out[48];

    if (isnan(d))
        return finish_double(buf, size, "nan", 3);
    if (isinf(d))
        return d < 0 ? finish_double(buf, size, "-inf", 4)
                     : finish_double(buf, size, "inf", 3);
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(sci, sizeof(sci), "%.*e", prec - 1, d);
        if (strtod(sci, NULL) == d)
            break;
    }
    return finish_double(buf, size, out, layout_sci(out, sci));
}

/* Exact powers of ten (all of 10^0 .. 10^22 are doubles). */
static const double POW10[] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* Powers of five below 2^64. */
static const uint64_t POW5[28] = {
    1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125,
    9765625, 48828125, 244140625, 1220703125, 6103515625,
    30517578125, 152587890625, 762939453125, 3814697265625,
    19073486328125, 95367431640625, 476837158203125,
    2384185791015625, 11920928955078125, 59604644775390625,
    298023223876953125, 1490116119384765625, 7450580596923828125,
};

/* hi:lo = a * b */
static void
mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__)
    unsigned __int128 p = (unsigned __int128)a * b;

    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
    uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);

    *lo = (mid << 32) | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* An unsigned 128-bit integer, hi:lo. */
struct u128 {
    uint64_t hi, lo;
};

static int
bits64(uint64_t x)
{
#if defined(__GNUC__)
    return x != 0 ? 64 - __builtin_clzll(x) : 0;
#else
    int n = 0;

    for (int s = 32; s > 0; s /= 2)
        if (x >> s) {
            x >>= s;
            n += s;
        }
    return n + (x != 0);
#endif
}

static int
bits128(struct u128 a)
{
    return a.hi != 0 ? 64 + bits64(a.hi) : bits64(a.lo);
}

/* a << s, for a result within 128 bits */
static struct u128
shl128(struct u128 a, int s)
{
    struct u128 r = a;

    if (s >= 64) {
        r.hi = a.lo << (s - 64);
        r.lo = 0;
    } else if (s > 0) {
        r.hi = (a.hi << s) | (a.lo >> (64 - s));
        r.lo = a.lo << s;
    }
    return r;
}

/* The sign of a * 2^ea - b * 2^eb, for a, b > 0. */
static int
cmp_scaled(struct u128 a, int ea, struct u128 b, int eb)
{
    int la = bits128(a), lb = bits128(b);

    if (la + ea != lb + eb)
        return la + ea < lb + eb ? -1 : 1;
    if (la < lb)
        a = shl128(a, lb - la);
    else
        b = shl128(b, la - lb);
    if (a.hi != b.hi)
        return a.hi < b.hi ? -1 : 1;
    return a.lo < b.lo ? -1 : a.lo > b.lo;
}

/* Whether v * 10^q (v > 0, |q| <= 27) rounds to `c` (positive, normal)
 * to nearest, ties to even: it lies within c's rounding interval, by
 * exact integer comparison with the interval's ends. */
static int
rounds_to(uint64_t v, int q, double c)
{
    uint64_t bits, m, p5 = 1;
    int e, k = q < 0 ? -q : q;
    struct u128 x = { 0, v }, lo, hi;

    memcpy(&bits, &c, sizeof(bits));
    m = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    e = (int)((bits >> 52) & 0x7ff) - 1075;         /* c = m * 2^e */
    p5 = POW5[k];
    /* the ends: (2m + 1) * 2^(e-1) and (2m - 1) * 2^(e-1), or
     * (4m - 1) * 2^(e-2) at a power of two (its lower neighbour is
     * nearer); times 5^k when q < 0, as x = v * 5^q when q >= 0 */
    uint64_t up = 2 * m + 1, down = 2 * m - 1;
    int eu = e - 1, ed = e - 1;
    if (m == (UINT64_C(1) << 52) && (bits >> 52 & 0x7ff) > 1) {
        down = 4 * m - 1;
        ed = e - 2;
    }
    if (q >= 0) {
        mul_64x64(v, p5, &x.hi, &x.lo);
        hi.hi = 0;
        hi.lo = up;
        lo.hi = 0;
        lo.lo = down;
        eu -= q;        /* x * 2^q against end * 2^eu: shift both */
        ed -= q;
    } else {
        mul_64x64(up, p5, &hi.hi, &hi.lo);
        mul_64x64(down, p5, &lo.hi, &lo.lo);
        eu -= q;        /* v / (5^k 2^k) against end: times 5^k 2^k */
        ed -= q;
    }
    int cu = cmp_scaled(x, 0, hi, eu), cl = cmp_scaled(x, 0, lo, ed);
    if (cl > 0 && cu < 0)
        return 1;
    return (cl == 0 || cu == 0) && (m & 1) == 0;
}

int
tokio__decimal_to_double(uint64_t v, int q, int neg, double *out)
{
    double c;

    if (v == 0) {
        *out = neg ? -0.0 : 0.0;
        return 1;
    }
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    if (q < -22 || q > 22)
        return 0;
    c = q >= 0 ? (double)v * POW10[q] : (double)v / POW10[-q];
    if (v > (UINT64_C(1) << 53)) {
        /* two roundings: c is within an ulp or two; find the one */
        double up = c, down = c;
        int found = rounds_to(v, q, c);

        for (int i = 0; i < 2 && !found; i++) {
            up = nextafter(up, INFINITY);
            down = nextafter(down, 0.0);
            if (rounds_to(v, q, up))
                c = up, found = 1;
            else if (rounds_to(v, q, down))
                c = down, found = 1;
        }
        if (!found)
            return 0;
    }
    *out = neg ? -c : c;
    return 1;
#else
    (void)c;
    (void)q;
    return 0;
#endif
}

/*
 * Fast paths, equal to tokio__format_double_exact() by these facts:
 * - For a normal double, at most one decimal of <= 15 significant digits
 *   reads back as it (DBL_DIG = 15: such a decimal survives decimal ->
 *   double -> 15-digit decimal, so it is "%.14e" of the double), and the
 *   exact loop stops at exactly that decimal's digit count (fewer digits
 *   would be another such decimal; rounding to its own count gives it).
 *   So any such decimal found by any means, and checked, is the answer.
 * - Candidate 1: N / 10^j with integer N < 10^15, j <= 22: both exact,
 *   so the one IEEE division is correctly rounded, i.e. what strtod()
 *   returns for that decimal (Clinger's fast path).  Needs doubles
 *   evaluated in double precision (FLT_EVAL_METHOD 0).
 * - Candidate 2: "%.14e" checked with strtod(); failing that the answer
 *   has 16 or 17 digits and the exact loop's last two steps follow.
 * Subnormals (fewer digits of precision) take the exact loop.
 */
/*
 * Whether `n` digits (exponent exp10, sign `neg`) read back as `d`:
 * Clinger's fast path where it holds (as above), else strtod().
 */
static int
reads_back(const char *digits, int n, int exp10, int neg, double d)
{
    uint64_t v = 0;
    int q = exp10 - (n - 1);
    char text[48];

    double x;

    for (int i = 0; i < n; i++)
        v = v * 10 + (uint64_t)(digits[i] - '0');
    if (tokio__decimal_to_double(v, q, neg, &x))
        return x == d;
    snprintf(text, sizeof(text), "%s%.*se%d", neg ? "-" : "", n, digits, q);
    return strtod(text, NULL) == d;
}

/*
 * Candidates 3 and 4 from one "%.16e" (17 digits, R) instead of a
 * "%.*e" per precision: "%.14e" and "%.15e" are R rounded to 15 and 16
 * digits unless the digits R drops are exactly half ("50", "5").
 * Rounding X (the double's exact value) and rounding R differ only when
 * a 15- or 16-digit midpoint M lies between them; M has 17 digits, so it
 * would be nearer X than R is, or be R itself.  In that one case R is
 * M, and digits_17() says on which side of R X lies (X == R: the even
 * neighbour, as glibc rounds); without it (and for a text not of the
 * expected form) the answer is 0 and the loop below decides; else the
 * layout's length in `out`.
 */
/*
 * "%.16e"'s 17 digits of `a` (> 0, normal) by integer arithmetic where it
 * is exact: a = m * 2^e, so a * 10^k = m * 5^k * 2^(e + k), held in 128
 * bits for 5^k < 2^64 (k <= 27), rounded half to even on the bits shifted
 * out as glibc's printf rounds; *side_out the sign of a - R (R the
 * rounded 17 digits).  0 where it does not apply.
 */
static int
digits_17(double a, char r[17], int *exp_out, int *side_out)
{
    static const uint64_t E17 = UINT64_C(100000000000000000);
    uint64_t bits, m, hi, lo, n, p5 = 1;
    int e, exp10 = (int)floor(log10(a));

    memcpy(&bits, &a, sizeof(bits));
    m = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    e = (int)((bits >> 52) & 0x7ff) - 1075;
    for (int tries = 0; tries < 3; tries++) {
        int k = 16 - exp10, s = -(e + k);

        if (k < 0 || k > 27 || s <= 0 || s >= 128)
            return 0;
        p5 = POW5[k];
        mul_64x64(m, p5, &hi, &lo);
        /* n = hi:lo >> s, then the rounding of what went */
        int half, more;
        if (s >= 64) {
            n = hi >> (s - 64);
            half = s == 64 ? (int)(lo >> 63)
                           : (int)((hi >> (s - 65)) & 1);
            more = s == 64 ? (lo << 1) != 0
                           : lo != 0 || (s > 65 &&
                             (hi & ((UINT64_C(1) << (s - 65)) - 1)) != 0);
        } else {
            if ((hi >> s) != 0)
                return 0;
            n = (lo >> s) | (hi << (64 - s));
            half = (int)((lo >> (s - 1)) & 1);
            more = s > 1 && (lo & ((UINT64_C(1) << (s - 1)) - 1)) != 0;
        }
        int up = half && (more || (n & 1));
        n += (uint64_t)up;
        if (n >= E17 && n != E17) {
            exp10++;
            continue;
        }
        if (n < E17 / 10) {
            exp10--;
            continue;
        }
        if (n == E17) {         /* rounded up to 10^17 */
            n = E17 / 10;
            exp10++;
        }
        for (int i = 16; i >= 0; i--, n /= 10)
            r[i] = (char)('0' + n % 10);
        *exp_out = exp10;
        *side_out = up ? -1 : half || more;
        return 1;
    }
    return 0;
}

static size_t
from_17_digits(char *out, double d)
{
    char sci[40], r[17], c[17];
    int neg = d < 0, exp10, side = 2;

    if (!digits_17(fabs(d), r, &exp10, &side)) {
        snprintf(sci, sizeof(sci), "%.16e", d);
        const char *p = sci + neg;
        if (p[1] != '.' || p[18] != 'e')
            return 0;
        r[0] = p[0];
        memcpy(r + 1, p + 2, 16);
        exp10 = atoi(p + 19);
    }
    for (int n = 15; n <= 16; n++) {
        int e = exp10, up;

        if (r[n] != '5')
            up = r[n] > '5';
        else if (n == 15 && r[16] != '0')
            up = 1;
        else if (side == 2)
            return 0;
        else    /* R is the midpoint: X's side of it; on it, to even */
            up = side > 0 || (side == 0 && (r[n - 1] - '0') % 2 == 1);
        memcpy(c, r, (size_t)n);
        for (int i = n - 1; up && i >= 0; i--) {
            if (c[i] == '9') {
                c[i] = '0';
            } else {
                c[i]++;
                up = 0;
            }
        }
        if (up) {               /* 99..9 rounded up to 100..0 */
            c[0] = '1';
            e++;
        }
        if (reads_back(c, n, e, neg, d)) {
            while (n > 1 && c[n - 1] == '0')
                n--;
            return repr_layout(out, neg, c, n, e);
        }
    }
    int n = 17;
    while (n > 1 && r[n - 1] == '0')
        n--;
    return repr_layout(out, neg, r, n, exp10);
}

/*
 * The common case in one pass of exact integer arithmetic: a normal `a`
 * (> 0) of 10^-11 .. 10^16.  a = m 2^e exactly, so X = a 10^k (k = 16 -
 * floor(log10 a), X in [10^16, 10^17)) is P / 2^s with P = m 5^k (k <=
 * 27: 5^k and P fit 64 and 128 bits) and s = -(e + k) in 1..63: its
 * integer part N and fraction F / 2^s are exact.  The "%.*e" of the
 * definition with p digits is X rounded half to even to a multiple of
 * 10^(17-p); it reads back when it lies within a's rounding interval,
 * X - 2^e 10^k / 2 .. X + 2^e 10^k / 2 (the lower half a quarter at a
 * power of two, its lower neighbour being nearer; the ends belong to a
 * when m is even), compared exactly in units of 2^-(s+2), where the
 * half-widths are 2 5^k and 5^k.  Only p = 15, 16, 17 are tried: 15-digit
 * decimals lie more than 4 ulps apart, so at most one is in the interval
 * and, when one is, it is the 15-digit rounding of X and, without its
 * trailing zeros, the shortest (every shorter rounding that reads back
 * is it); the definition stops at that length, as here.  At 17 digits
 * the definition gives "%.16e" whatever it reads back as.  Returns the
 * layout's length, or 0 outside this range.
 */
static size_t
shortest_scaled(char *out, int neg, double a)
{
    static const uint64_t E16 = UINT64_C(10000000000000000);
    uint64_t bits, m, hi, lo, n, f;
    int be, e, e2, exp10, k, s;

    memcpy(&bits, &a, sizeof(bits));
    be = (int)((bits >> 52) & 0x7ff);
    m = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    e = be - 1075;
    e2 = e + 52;                        /* a in [2^e2, 2^(e2+1)) */
    if (e2 < -40 || e2 > 56)
        return 0;
    /* floor(e2 log10 2), 78913 / 2^18 close enough for |e2| <= 56;
     * floor(log10 a) is it or one more */
    exp10 = e2 >= 0 ? (e2 * 78913) >> 18
                    : -((-e2 * 78913 + (1 << 18) - 1) >> 18);
    for (int tries = 0;; tries++) {
        k = 16 - exp10;
        s = -(e + k);
        if (tries > 1 || k < 0 || k > 27 || s < 1 || s > 63)
            return 0;
        mul_64x64(m, POW5[k], &hi, &lo);
        if ((hi >> s) != 0)
            return 0;
        n = (lo >> s) | (hi << (64 - s));
        if (n < E16)
            return 0;
        if (n < 10 * E16)
            break;
        exp10++;
    }
    f = lo & ((UINT64_C(1) << s) - 1);
    /* the interval's half-widths, in units of 2^-(s+2) */
    uint64_t above = 2 * POW5[k];
    uint64_t below = m == (UINT64_C(1) << 52) && be > 1 ? POW5[k] : above;
    int inclusive = (m & 1) == 0;
    for (int j = 2; j >= 0; j--) {
        /* constant divisors: a division by a variable one was a fifth of
         * this function */
        uint64_t pw = j == 2 ? 100 : j == 1 ? 10 : 1;
        uint64_t q = j == 2 ? n / 100 : j == 1 ? n / 10 : n;
        uint64_t r = n - q * pw, c;
        int up;

        if (j > 0)
            up = 2 * r > pw || (2 * r == pw && (f != 0 || (q & 1)));
        else
            up = f > (UINT64_C(1) << (s - 1)) ||
                 (f == (UINT64_C(1) << (s - 1)) && (q & 1));
        c = q + (uint64_t)up;
        if (j > 0) {
            /* |c 10^j - X| 2^(s+2) against the half-width that side */
            uint64_t diff = up ? c * pw - n : n - c * pw;
            struct u128 t = shl128((struct u128){ 0, diff }, s + 2);
            uint64_t f4hi = f >> 62, f4lo = f << 2;

            if (up) {           /* t - 4f: c 10^j is above X */
                t.hi -= f4hi + (t.lo < f4lo);
                t.lo -= f4lo;
            } else {            /* t + 4f: at or below X */
                t.lo += f4lo;
                t.hi += f4hi + (t.lo < f4lo);
            }
            uint64_t half = up ? above : below;
            if (t.hi != 0 || t.lo > half || (t.lo == half && !inclusive))
                continue;
        }
        /* c's 17 - j digits (10^(17-j) when all nines rounded up), two
         * at a time */
        static const char PAIRS[] =
            "00010203040506070809101112131415161718192021222324252627282930"
            "31323334353637383940414243444546474849505152535455565758596061"
            "62636465666768697071727374757677787980818283848586878889909192"
            "93949596979899";
        char digits[20];
        int nd = 17 - j, e10 = exp10, i;

        if (c == (j == 2 ? E16 / 10 : j == 1 ? E16 : 10 * E16)) {
            digits[0] = '1';    /* carried into another place */
            nd = 1;
            e10++;
        } else {
            /* the last eight digits and the first seven to nine as two
             * chains of divisions, not one of sixteen */
            uint32_t last = (uint32_t)(c % 100000000u);
            uint32_t first = (uint32_t)(c / 100000000u);

            for (i = 0; i < 4; i++, last /= 100)
                memcpy(digits + nd - 2 - 2 * i, PAIRS + 2 * (last % 100), 2);
            for (i = nd - 8; i >= 2; i -= 2, first /= 100)
                memcpy(digits + i - 2, PAIRS + 2 * (first % 100), 2);
            if (i == 1)
                digits[0] = (char)('0' + first);
        }
        while (nd > 1 && digits[nd - 1] == '0')
            nd--;
        return repr_layout(out, neg, digits, nd, e10);
    }
    return 0;
}

size_t
tokio__repr_double(char *out, double d)
{
    double a = fabs(d);
    size_t len;

    if (isfinite(d) && a >= DBL_MIN && (len = shortest_scaled(out, d < 0, a)))
        return len;
    if (tokio_format_double(out, TOKIO__REPR_MAX + 1, d) < 0)
        return 0;
    return strlen(out);
}

int
tokio_format_double(char *buf, size_t size, double d)
{
    char sci[40], out[48];
    double a = fabs(d);

    if (!isfinite(d) || (a < DBL_MIN && a != 0.0))
        return tokio__format_double_exact(buf, size, d);
    if (a == 0.0)
        return signbit(d) ? finish_double(buf, size, "-0.0", 4)
                          : finish_double(buf, size, "0.0", 3);
    size_t len = shortest_scaled(out, d < 0, a);
    if (len > 0)
        return finish_double(buf, size, out, len);
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    if (a < 1e15) {
        for (int j = 0; j <= 22; j++) {
            double scaled = a * POW10[j];
            if (scaled >= 1e15)
                break;
            double n = nearbyint(scaled);
            if (n == 0.0 || n / POW10[j] != a)
                continue;
            /* N's digits, trailing zeros dropped */
            char digits[24];
            uint64_t v = (uint64_t)n;
            int nd = 0;
            char rev[24] = { 0 };
            while (v > 0) {
                rev[nd++] = (char)('0' + v % 10);
                v /= 10;
            }
            int exp10 = nd - 1 - j;
            int lo = 0;
            while (lo < nd - 1 && rev[lo] == '0')
                lo++;
            int ndigits = nd - lo;
            for (int k = 0; k < ndigits; k++)
                digits[k] = rev[nd - 1 - k];
            return finish_double(buf, size, out,
                                 repr_layout(out, d < 0, digits, ndigits,
                                             exp10));
        }
    }
#endif
    size_t n = from_17_digits(out, d);
    if (n > 0)
        return finish_double(buf, size, out, n);
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(sci, sizeof(sci), "%.*e", prec - 1, d);
        if (prec == 17 || strtod(sci, NULL) == d)
            break;
    }
    return finish_double(buf, size, out, layout_sci(out, sci));
}
