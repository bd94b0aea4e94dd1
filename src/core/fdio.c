/*
 * src/core/fdio.c - read(2), pread(2) and write(2) retried when a signal
 * interrupts them, and the whole of a request where a call may do part.
 */
#include "core/fdio.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"

ssize_t
tokio__read(int fd, void *buf, size_t n)
{
    ssize_t k;

    do {
        k = read(fd, buf, n);
    } while (k < 0 && errno == EINTR);
    return k;
}

ssize_t
tokio__read_full(int fd, void *buf, size_t n)
{
    size_t got = 0;

    while (got < n) {
        ssize_t k = tokio__read(fd, (char *)buf + got, n - got);
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        got += (size_t)k;
    }
    return (ssize_t)got;
}

ssize_t
tokio__pread_full(int fd, void *buf, size_t n, uint64_t off)
{
    size_t got = 0;

    while (got < n) {
        ssize_t k = pread(fd, (char *)buf + got, n - got,
                          (off_t)(off + got));
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        got += (size_t)k;
    }
    return (ssize_t)got;
}

int
tokio__write_all(int fd, const void *buf, size_t n)
{
    for (size_t done = 0; done < n;) {
        ssize_t k = write(fd, (const char *)buf + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        done += (size_t)k;
    }
    return 0;
}

int
tokio__read_whole_fd(int fd, const void *head, size_t head_len, size_t max,
                     size_t hint, unsigned char **buf_out, size_t *len_out)
{
    /* room for a byte past the hint (or past `max`): the read that finds
     * the end, or the one byte too many, needs no growing first */
    size_t len = head_len, cap = hint > head_len ? hint : head_len;
    unsigned char *buf, *grown;
    int err = EFBIG;

    *buf_out = NULL;
    *len_out = 0;
    if (max > SIZE_MAX / 2)
        max = SIZE_MAX / 2;
    if (head_len > max)
        return errno = EFBIG, -1;
    cap = cap < 4096 ? 4096 : cap + 1;
    if (cap > max + 1)
        cap = max + 1;
    if ((buf = tokio__malloc(cap + 1)) == NULL)
        return errno = ENOMEM, -1;
    if (head_len > 0)
        memcpy(buf, head, head_len);
    while (len <= max) {
        if (len == cap) {
            size_t want = cap > max + 1 - cap ? max + 1 : 2 * cap;

            if ((grown = tokio__realloc(buf, want + 1)) == NULL) {
                err = ENOMEM;
                break;
            }
            buf = grown;
            cap = want;
        }
        ssize_t k = tokio__read(fd, buf + len, cap - len);
        if (k <= 0) {
            if (k == 0) {
                buf[len] = '\0';
                *buf_out = buf;
                *len_out = len;
                return 0;
            }
            err = errno;
            break;
        }
        len += (size_t)k;
    }
    free(buf);
    errno = err;
    return -1;
}
