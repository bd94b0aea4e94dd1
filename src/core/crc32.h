/*
 * src/core/crc32.h - the gzip CRC-32 (ISO 3309, the reflected polynomial
 * 0xedb88320), fast where the processor has carry-less multiplication.
 *
 * zlib checks each gzip member with its own table-driven CRC, which runs
 * at 1.5-2 GB/s and was a tenth of the CPU time of reading a large gzip
 * cache; folding 64 bytes at a time with PCLMULQDQ is about ten times
 * faster.  The value is zlib's crc32() to the bit (tests compare them).
 */
#ifndef TOKIO_CORE_CRC32_H
#define TOKIO_CORE_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* As zlib's crc32(crc, buf, len): start with crc 0, feed the bytes in
 * pieces or at once, same result. */
uint32_t tokio__crc32(uint32_t crc, const void *buf, size_t len);

#endif
