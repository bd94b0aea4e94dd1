/*
 * fuzz/fuzz_input.c - libFuzzer target for the plain/gzip/bzip2 reader.
 *
 * Bytes → tokio_input_open_mem → every line → close, then the same bytes
 * once more through read_all with a small cap, so both ways of reading a
 * damaged stream are exercised.  Any status is fine; crashes, leaks and
 * hangs are not.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tokio/input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where the bytes read are summed, so the reads cannot be optimised away
 * and ASan checks each one. */
static volatile size_t sink;

/* Enough for any seed, small enough that a bzip2 bomb (a few bytes can
 * claim megabytes) stays quick: reading stops after this many bytes. */
#define FUZZ_MAX ((size_t)1 << 20)

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
    if (tokio_input_open_mem(&in, data, size, "fuzz") == TOKIO_OK) {
        if (tokio_input_read_all(in, FUZZ_MAX, &buf, &len) == TOKIO_OK) {
            total += buf[len];
            free(buf);
        }
        tokio_input_close(in);
    }
    sink = total;
    return 0;
}
