/*
 * src/core/wbuf.h - output gathered in a buffer and written to a stream
 * in large pieces, for the writers that make much small text (JSON, CSV).
 *
 * A large fwrite() bypasses the stream's own buffer, so after a failure
 * nothing is kept to try again: the cause (errno) of the first failed
 * write is noted when it happens, and tokio__wbuf_finish() reports it.
 */
#ifndef TOKIO_CORE_WBUF_H
#define TOKIO_CORE_WBUF_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/repr.h"

struct tokio__wbuf {
    FILE *fp;
    int cause;                  /* errno of the first failed write, or 0 */
    size_t n;                   /* bytes gathered in buf */
    char buf[1 << 16];
};

static inline void
tokio__wbuf_init(struct tokio__wbuf *w, FILE *fp)
{
    w->fp = fp;
    w->cause = 0;
    w->n = 0;
}

static inline void
tokio__wbuf_write(struct tokio__wbuf *w, const void *p, size_t len)
{
    errno = 0;
    if (fwrite(p, 1, len, w->fp) < len && w->cause == 0)
        w->cause = errno != 0 ? errno : EIO;
}

static inline void
tokio__wbuf_flush(struct tokio__wbuf *w)
{
    if (w->n > 0)
        tokio__wbuf_write(w, w->buf, w->n);
    w->n = 0;
}

static inline void
tokio__wbuf_put(struct tokio__wbuf *w, const void *s, size_t len)
{
    if (len > sizeof(w->buf) - w->n) {
        tokio__wbuf_flush(w);
        if (len > sizeof(w->buf)) {
            tokio__wbuf_write(w, s, len);
            return;
        }
    }
    memcpy(w->buf + w->n, s, len);
    w->n += len;
}

/* Room for `len` (<= the buffer) bytes at w->buf + w->n; the caller
 * adds what it wrote there to w->n. */
static inline char *
tokio__wbuf_room(struct tokio__wbuf *w, size_t len)
{
    if (len > sizeof(w->buf) - w->n)
        tokio__wbuf_flush(w);
    return w->buf + w->n;
}

static inline void
tokio__wbuf_char(struct tokio__wbuf *w, char c)
{
    if (w->n == sizeof(w->buf))
        tokio__wbuf_flush(w);
    w->buf[w->n++] = c;
}

/* `u` in decimal, after a minus sign when `negative`, straight into the
 * buffer (its digits counted first). */
static inline void
tokio__wbuf_digits(struct tokio__wbuf *w, uint64_t u, int negative)
{
    size_t n = 1 + (negative != 0);

    for (uint64_t rest = u; rest >= 10; rest /= 10)
        n++;
    char *end = tokio__wbuf_room(w, n) + n;
    do {
        *--end = (char)('0' + u % 10);
        u /= 10;
    } while (u > 0);
    if (negative)
        *--end = '-';
    w->n += n;
}

static inline void
tokio__wbuf_int(struct tokio__wbuf *w, int64_t v)
{
    /* negated as unsigned: INT64_MIN too */
    tokio__wbuf_digits(w, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

/* `d` as Python's repr(float) writes it (tokio_format_double()). */
static inline void
tokio__wbuf_real(struct tokio__wbuf *w, double d)
{
    char num[40];

    tokio_format_double(num, sizeof(num), d);
    tokio__wbuf_put(w, num, strlen(num));
}

/*
 * Write out what is gathered, and with `flush_stream` the stream's own
 * buffer too (so that a full disk is seen here, not at fclose()).
 * TOKIO_OK, or TOKIO_EIO "WHAT: cause" when any write failed.
 */
static inline int
tokio__wbuf_finish(struct tokio__wbuf *w, int flush_stream, const char *what)
{
    tokio__wbuf_flush(w);
    errno = 0;
    if (flush_stream && fflush(w->fp) != 0 && w->cause == 0)
        w->cause = errno != 0 ? errno : EIO;
    return tokio__write_check_cause(w->fp, w->cause, "%s", what);
}

#endif
