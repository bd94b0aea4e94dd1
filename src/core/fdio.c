/*
 * src/core/fdio.c - read(2), pread(2) and write(2) retried when a signal
 * interrupts them, and the whole of a request where a call may do part.
 */
#include "core/fdio.h"

#include <errno.h>
#include <unistd.h>

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
