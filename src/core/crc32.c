/*
 * src/core/crc32.c - the gzip CRC-32 by carry-less multiplication.
 *
 * The method is Intel's "Fast CRC Computation for Generic Polynomials
 * Using PCLMULQDQ Instruction" (Gopal et al., 2009), for the bit-reflected
 * CRC-32: four 128-bit lanes are folded forward over 64 bytes at a time,
 * folded into one lane, reduced to 64 and then 32 bits, and the last step
 * is a Barrett reduction.  The constants are powers of x modulo the
 * polynomial, as that paper derives them:
 *   fold by 64 bytes   x^(4*128+32) mod P, x^(4*128-32) mod P
 *   fold by 16 bytes   x^(128+32) mod P,   x^(128-32) mod P
 *   64 -> 32 bits      x^64 mod P
 *   Barrett            P itself and floor(x^64 / P), both bit-reflected.
 * Anything under 64 bytes, the tail after the last whole 16 bytes, and
 * processors without the instruction go to zlib's crc32().
 */
#include "core/crc32.h"

#include <zlib.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TOKIO_CRC32_CLMUL 1
#include <immintrin.h>
#endif

#ifdef TOKIO_CRC32_CLMUL

#define CLMUL_TARGET __attribute__((target("pclmul,sse2")))

/* a <- a.lo * k.lo ^ a.hi * k.hi ^ next: one lane carried 128 bits on */
CLMUL_TARGET static inline __m128i
fold(__m128i a, __m128i k, __m128i next)
{
    __m128i lo = _mm_clmulepi64_si128(a, k, 0x00);
    __m128i hi = _mm_clmulepi64_si128(a, k, 0x11);
    return _mm_xor_si128(_mm_xor_si128(lo, hi), next);
}

/* The CRC register `crc` (not inverted) carried over p[0..len), len at
 * least 64 and a multiple of 16. */
CLMUL_TARGET static uint32_t
crc32_clmul(uint32_t crc, const unsigned char *p, size_t len)
{
    const __m128i k_64 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4);
    const __m128i k_16 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
    const __m128i k_32 = _mm_set_epi64x(0, 0x163cd6124);
    const __m128i barrett = _mm_set_epi64x(0x1f7011641, 0x1db710641);
    const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);
    __m128i x0, x1, x2, x3, t;

    x0 = _mm_loadu_si128((const __m128i *)p);
    x1 = _mm_loadu_si128((const __m128i *)(p + 16));
    x2 = _mm_loadu_si128((const __m128i *)(p + 32));
    x3 = _mm_loadu_si128((const __m128i *)(p + 48));
    x0 = _mm_xor_si128(x0, _mm_cvtsi32_si128((int)crc));
    p += 64;
    len -= 64;
    for (; len >= 64; p += 64, len -= 64) {
        x0 = fold(x0, k_64, _mm_loadu_si128((const __m128i *)p));
        x1 = fold(x1, k_64, _mm_loadu_si128((const __m128i *)(p + 16)));
        x2 = fold(x2, k_64, _mm_loadu_si128((const __m128i *)(p + 32)));
        x3 = fold(x3, k_64, _mm_loadu_si128((const __m128i *)(p + 48)));
    }
    /* four lanes into one, then the remaining 16-byte blocks */
    x0 = fold(x0, k_16, x1);
    x0 = fold(x0, k_16, x2);
    x0 = fold(x0, k_16, x3);
    for (; len >= 16; p += 16, len -= 16)
        x0 = fold(x0, k_16, _mm_loadu_si128((const __m128i *)p));

    /* 128 -> 64 bits (appending the 32 zero bits a CRC implies) */
    t = _mm_clmulepi64_si128(x0, k_16, 0x10);
    x0 = _mm_xor_si128(_mm_srli_si128(x0, 8), t);
    /* 64 -> 32 bits */
    t = _mm_srli_si128(x0, 4);
    x0 = _mm_clmulepi64_si128(_mm_and_si128(x0, low32), k_32, 0x00);
    x0 = _mm_xor_si128(x0, t);
    /* Barrett reduction to the 32-bit remainder */
    t = _mm_clmulepi64_si128(_mm_and_si128(x0, low32), barrett, 0x10);
    t = _mm_clmulepi64_si128(_mm_and_si128(t, low32), barrett, 0x00);
    x0 = _mm_xor_si128(x0, t);
    return (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(x0, 4));
}

static int
have_clmul(void)
{
    return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse2");
}

#endif

uint32_t
tokio__crc32(uint32_t crc, const void *buf, size_t len)
{
    const unsigned char *p = buf;

#ifdef TOKIO_CRC32_CLMUL
    if (len >= 64 && have_clmul()) {
        size_t whole = len & ~(size_t)15;
        /* zlib's value is the register inverted before and after */
        crc = ~crc32_clmul(~crc, p, whole);
        p += whole;
        len -= whole;
    }
#endif
    /* zlib takes lengths in uInt: feed it at most 1 GiB at a time */
    while (len > 0) {
        size_t n = len < ((size_t)1 << 30) ? len : ((size_t)1 << 30);
        crc = (uint32_t)crc32(crc, p, (uInt)n);
        p += n;
        len -= n;
    }
    return crc;
}
