/*
 * src/core/sbuf.c - a growing NUL-ended string.
 */
#include "core/sbuf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

int
tokio__sbuf_add(struct tokio__sbuf *b, const void *p, size_t n)
{
    if (b->failed || n >= SIZE_MAX / 2 - b->len) {
        b->failed = 1;
        return -1;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        char *s;

        while (cap < b->len + n + 1)
            cap *= 2;
        if ((s = tokio__realloc(b->s, cap)) == NULL) {
            b->failed = 1;
            return -1;
        }
        b->s = s;
        b->cap = cap;
    }
    if (n > 0)
        memcpy(b->s + b->len, p, n);
    b->len += n;
    b->s[b->len] = '\0';
    return 0;
}

int
tokio__sbuf_str(struct tokio__sbuf *b, const char *s)
{
    return tokio__sbuf_add(b, s, strlen(s));
}

char *
tokio__sbuf_take(struct tokio__sbuf *b)
{
    if (!b->failed)
        return b->s;
    free(b->s);
    return NULL;
}
