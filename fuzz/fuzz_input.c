/*
 * fuzz/fuzz_input.c - libFuzzer target for the plain/gzip/bzip2 reader.
 *
 * Bytes → tokio_input_open_mem → every line → close, then the same bytes
 * once more through read_all with a small cap, so both ways of reading a
 * damaged stream are exercised.  Any status is fine; crashes, leaks and
 * hangs are not.  A single gzip member is also inflated by zlib alone:
 * tokio must accept exactly what zlib accepts, with the same bytes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "tokio/input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where the bytes read are summed, so the reads cannot be optimised away
 * and ASan checks each one. */
static volatile size_t sink;

/* Enough for any seed, small enough that a bzip2 bomb (a few bytes can
 * claim megabytes) stays quick: reading stops after this many bytes. */
#define FUZZ_MAX ((size_t)1 << 20)

/*
 * zlib's verdict on `data` as one gzip member and nothing after it: 1
 * and the bytes (out, *out_len) when it inflates whole with its CRC and
 * length right, 0 when zlib rejects it, -1 when it is something else
 * (more members, trailing bytes, over FUZZ_MAX) and not compared.
 */
static int
zlib_single_member(const uint8_t *data, size_t size, unsigned char *out,
                   size_t *out_len)
{
    z_stream z;
    int ret;

    memset(&z, 0, sizeof(z));
    if (size < 2 || data[0] != 0x1f || data[1] != 0x8b ||
        inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
        return -1;
    z.next_in = (unsigned char *)data;
    z.avail_in = (uInt)size;
    z.next_out = out;
    z.avail_out = (uInt)FUZZ_MAX;
    ret = inflate(&z, Z_FINISH);
    *out_len = FUZZ_MAX - z.avail_out;
    inflateEnd(&z);
    if (ret == Z_STREAM_END)
        return z.avail_in == 0 ? 1 : -1;
    if (ret == Z_DATA_ERROR)
        return 0;
    return -1;      /* truncated, or more than FUZZ_MAX bytes */
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tokio_input *in;
    const char *line;
    unsigned char *buf;
    size_t len, total = 0, seen = 0;

    if (tokio_input_open_mem(&in, data, size, "fuzz") == TOKIO_OK) {
        while (tokio_input_getline(in, &line, &len) == TOKIO_OK
               && line != NULL) {
            /* touch every byte and the NUL, so ASan checks the bounds */
            for (size_t i = 0; i <= len; i++)
                total += (unsigned char)line[i];
            if ((seen += len + 1) > FUZZ_MAX)
                break;
        }
        tokio_input_close(in);
    }
    unsigned char *want = malloc(FUZZ_MAX);
    size_t want_len = 0;
    int zlib_ok = want != NULL
        ? zlib_single_member(data, size, want, &want_len) : -1;
    if (tokio_input_open_mem(&in, data, size, "fuzz") == TOKIO_OK) {
        int rc = tokio_input_read_all(in, FUZZ_MAX, &buf, &len);
        if (rc == TOKIO_OK) {
            total += buf[len];
            if (zlib_ok == 0)
                abort();    /* zlib refused what tokio took */
            if (zlib_ok == 1 &&
                (len != want_len || memcmp(buf, want, len) != 0))
                abort();
            free(buf);
        } else if (zlib_ok == 1 && rc != TOKIO_ENOMEM) {
            abort();        /* zlib took what tokio refused */
        }
        tokio_input_close(in);
    }
    free(want);
    sink = total;
    return 0;
}
