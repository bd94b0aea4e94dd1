/*
 * tests/core/test_text.c - the one UTF-8 check every parser uses:
 * known good and bad sequences, then every 1-, 2- and 3-byte sequence
 * (and a sweep of 4-byte ones) against an oracle built the other way
 * round: a sequence is valid exactly when it is the shortest encoding of
 * a scalar value (not a surrogate, at most U+10FFFF).
 */
#include "testutil.h"

#include <stdint.h>
#include <string.h>

#include "core/text.h"

/* Shortest UTF-8 encoding of `cp` into out; its length. */
static size_t
encode(uint32_t cp, unsigned char *out)
{
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xc0 | cp >> 6);
        out[1] = (unsigned char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xe0 | cp >> 12);
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (unsigned char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (unsigned char)(0xf0 | cp >> 18);
    out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
    out[3] = (unsigned char)(0x80 | (cp & 0x3f));
    return 4;
}

/* The oracle for one sequence s[0..n) of a single character. */
static int
one_valid_character(const unsigned char *s, size_t n)
{
    unsigned char buf[4];

    /* decode leniently: the lead byte's payload and the continuation
     * bits, whatever the lead byte says; then re-encode and compare */
    uint32_t cp;
    if (n == 1)
        cp = s[0];
    else if (n == 2)
        cp = (uint32_t)(s[0] & 0x1f) << 6 | (s[1] & 0x3f);
    else if (n == 3)
        cp = (uint32_t)(s[0] & 0x0f) << 12 | (uint32_t)(s[1] & 0x3f) << 6 |
             (s[2] & 0x3f);
    else
        cp = (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3f) << 12 |
             (uint32_t)(s[2] & 0x3f) << 6 | (s[3] & 0x3f);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return encode(cp, buf) == n && memcmp(buf, s, n) == 0;
}

static void
test_text_known_sequences(void **state)
{
    (void)state;
    assert_true(tokio__utf8_valid("", 0));
    assert_true(tokio__utf8_valid("plain ascii text, longer than 8", 31));
    assert_true(tokio__utf8_valid("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
                                  14));
    assert_false(tokio__utf8_valid("\xc0\x80", 2));          /* overlong */
    assert_false(tokio__utf8_valid("\xe0\x80\xaf", 3));      /* overlong */
    assert_false(tokio__utf8_valid("\xed\xa0\x80", 3));      /* surrogate */
    assert_false(tokio__utf8_valid("\xf4\x90\x80\x80", 4));  /* > U+10FFFF */
    assert_false(tokio__utf8_valid("abc\xe2\x82", 5));       /* cut short */
    assert_false(tokio__utf8_valid("\x80", 1));              /* stray */
    assert_false(tokio__utf8_valid("\xf5\x80\x80\x80", 4));
    /* NUL: fine for the byte check, not for text; also past 8 bytes */
    assert_true(tokio__utf8_valid("ab\0cd", 5));
    assert_false(tokio__text_valid("ab\0cd", 5));
    assert_false(tokio__text_valid("0123456789\0bcdef", 16));
    assert_true(tokio__text_valid("0123456789abcdef\xc3\xa9", 18));
    /* a bad byte after an ASCII run the fast path skips */
    assert_false(tokio__text_valid("0123456789abcdef\xff", 17));
    assert_false(tokio__utf8_valid("0123456789abcdef\xff", 17));
}

static void
test_text_every_short_sequence_matches_the_oracle(void **state)
{
    (void)state;
    unsigned char s[4];

    for (unsigned a = 0; a < 256; a++) {
        s[0] = (unsigned char)a;
        assert_int_equal(tokio__utf8_valid(s, 1), one_valid_character(s, 1));
        for (unsigned b = 0; b < 256; b++) {
            s[1] = (unsigned char)b;
            if (a >= 0xc0 && a < 0xe0)
                assert_int_equal(tokio__utf8_valid(s, 2),
                                 one_valid_character(s, 2));
            if (a < 0xe0 || a >= 0xf0 || (b & 0xc0) != 0x80)
                continue;
            for (unsigned c = 0; c < 256; c++) {
                s[2] = (unsigned char)c;
                assert_int_equal(tokio__utf8_valid(s, 3),
                                 one_valid_character(s, 3));
            }
        }
    }
    /* four bytes: every lead byte from 0xf0 and second byte, third
     * bytes at and around the continuation range, every fourth byte
     * there too */
    static const unsigned thirds[] = { 0x7f, 0x80, 0x9a, 0xbf, 0xc0 };
    for (unsigned a = 0xf0; a < 0x100; a++)
        for (unsigned b = 0; b < 256; b++)
            for (size_t k = 0; k < sizeof(thirds) / sizeof(thirds[0]); k++)
                for (unsigned d = 0x7f; d <= 0xc0; d++) {
                    s[0] = (unsigned char)a, s[1] = (unsigned char)b;
                    s[2] = (unsigned char)thirds[k], s[3] = (unsigned char)d;
                    assert_int_equal(tokio__utf8_valid(s, 4),
                                     one_valid_character(s, 4));
                }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_known_sequences),
        cmocka_unit_test(test_text_every_short_sequence_matches_the_oracle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
