/*
 * src/core/text.c - UTF-8 validation for every parser: one strict
 * decoder, with an eight-bytes-at-a-time path for the ASCII that logs
 * are nearly all made of.
 */
#include "core/text.h"

#include <stdint.h>
#include <string.h>

#define HIGH_BITS UINT64_C(0x8080808080808080)
#define LOW_BITS  UINT64_C(0x0101010101010101)

/* Length of the valid multi-byte sequence at s (lead byte >= 0x80), or 0. */
static size_t
sequence_length(const unsigned char *s, size_t left)
{
    unsigned c = s[0];
    size_t n;
    uint32_t cp, min;

    if (c >= 0xc2 && c <= 0xdf)
        n = 1, cp = c & 0x1f, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef)
        n = 2, cp = c & 0x0f, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 3, cp = c & 0x07, min = 0x10000;
    else
        return 0;
    if (left <= n)
        return 0;
    for (size_t k = 1; k <= n; k++) {
        if ((s[k] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[k] & 0x3f);
    }
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
        return 0;
    return n + 1;
}

static int
validate(const unsigned char *s, size_t len, int allow_nul)
{
    size_t i = 0;

    while (i < len) {
        uint64_t w;

        /* eight ASCII bytes (and, unless allowed, no NUL) at a time */
        if (len - i >= 8) {
            memcpy(&w, s + i, 8);
            if (((allow_nul ? w : (w | ((w - LOW_BITS) & ~w))) &
                 HIGH_BITS) == 0) {
                i += 8;
                continue;
            }
        }
        if (s[i] < 0x80) {
            if (s[i] == 0 && !allow_nul)
                return 0;
            i++;
        } else {
            size_t n = sequence_length(s + i, len - i);
            if (n == 0)
                return 0;
            i += n;
        }
    }
    return 1;
}

int
tokio__utf8_valid(const void *s, size_t len)
{
    return validate(s, len, 1);
}

int
tokio__text_valid(const void *s, size_t len)
{
    return validate(s, len, 0);
}
