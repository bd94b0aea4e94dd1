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

#endif
