/*
 * fuzz/fuzz_darshan.c - bytes -> tokio_darshan_open_mem -> the --base
 * text (into a memory stream, so printing every record is exercised) ->
 * free.  Seeds: fuzz/corpus/darshan/README; real logs are third-party
 * data and stay out of the tree, so copy the .darshan files of
 * testdata/darshan-logs into a scratch corpus to start from real inputs.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tokio/connectors/darshan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tokio_darshan *log = NULL;

    if (tokio_darshan_open_mem(&log, data, size, "fuzz.darshan") >= 0) {
        char *text = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&text, &len);
        if (fp != NULL) {
            (void)tokio_darshan_write_base(log, fp);
            fclose(fp);
        }
        free(text);
        tokio_darshan_free(log);
    }
    return 0;
}
