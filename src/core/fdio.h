/*
 * src/core/fdio.h - read(2), pread(2) and write(2) retried when a signal
 * interrupts them, and the whole of a request where a call may do part.
 */
#ifndef TOKIO_CORE_FDIO_H
#define TOKIO_CORE_FDIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One read(2) of up to `n` bytes, retried on EINTR: the bytes read, 0 at
 * the end, or -1 with errno set. */
ssize_t tokio__read(int fd, void *buf, size_t n);

/* `n` bytes, fewer only at the end: the bytes read, or -1 with errno
 * set. */
ssize_t tokio__read_full(int fd, void *buf, size_t n);

/* `n` bytes at offset `off`, fewer only at the end: the bytes read, or -1
 * with errno set. */
ssize_t tokio__pread_full(int fd, void *buf, size_t n, uint64_t off);

/* All `n` bytes: 0, or -1 with errno set. */
int tokio__write_all(int fd, const void *buf, size_t n);

/* The `head_len` bytes at `head` (read from `fd` already; 0: none) and
 * all that is left of `fd`, into a new NUL-ended buffer (*buf, free() it;
 * *len bytes before the NUL): at most `max` bytes in all, `hint` (a plain
 * file's size, or 0) sizing the first room.  0, or -1 with errno set:
 * ENOMEM, EFBIG for more than `max` bytes, or read(2)'s. */
int tokio__read_whole_fd(int fd, const void *head, size_t head_len,
                         size_t max, size_t hint, unsigned char **buf,
                         size_t *len);

#endif
