/*
 * src/core/sbuf.h - a growing NUL-ended string, for text built in pieces
 * (SQL, a command's output, a list of names).  Start it as { 0 }; free(s)
 * when done.
 */
#ifndef TOKIO_CORE_SBUF_H
#define TOKIO_CORE_SBUF_H

#include <stddef.h>

struct tokio__sbuf {
    char *s;                    /* NULL until the first append */
    size_t len, cap;
    int failed;                 /* an append ran out of memory: the later
                                   ones do nothing */
};

/* Append the `n` bytes at `p`; -1 when out of memory, now or before. */
int tokio__sbuf_add(struct tokio__sbuf *b, const void *p, size_t n);

/* Append the string `s`, as tokio__sbuf_add(). */
int tokio__sbuf_str(struct tokio__sbuf *b, const char *s);

/* The string built, the caller's to free; NULL (nothing kept) when an
 * append failed. */
char *tokio__sbuf_take(struct tokio__sbuf *b);

#endif
