/*
 * fuzz/fuzz_darshan_json.c - the Darshan reader, then the log's JSON both
 * ways (tokio_darshan_write_json() streamed, tokio_darshan_to_json() as a
 * tree written by tokio_json_write()), with every view and a filter:
 * the two must succeed or fail alike and give the same bytes.  Also
 * tokio__darshan_adler32() against zlib on the input itself.  Seeds in
 * fuzz/corpus/darshan_json/ (logs made with the project's writer).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "connectors/darshan_private.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_json.h"
#include "tokio/output.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *
streamed(const struct tokio_darshan *log,
         const struct tokio_darshan_json_opts *o, int *rc)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);

    if (fp == NULL)
        abort();
    *rc = tokio_darshan_write_json(log, o, fp, TOKIO_JSON_SORT_KEYS);
    fclose(fp);
    return text;
}

static char *
tree(const struct tokio_darshan *log, const struct tokio_darshan_json_opts *o,
     int *rc)
{
    json_t *j = NULL;
    char *text = NULL;

    *rc = tokio_darshan_to_json(log, o, &j);
    if (*rc >= 0) {
        *rc = tokio_json_dumps(&text, j, TOKIO_JSON_SORT_KEYS);
        json_decref(j);
    }
    return text;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const ctrs[] = { "BYTES_READ", "COMP1_FLAGS" };
    const struct tokio_darshan_json_opts opts[] = {
        { .base = 1, .total = 1, .perf = 1 },
        { .base = 1, .counters = ctrs, .n_counters = 2 },
    };
    struct tokio_darshan *log = NULL;

    if (tokio__darshan_adler32(1, data, size) !=
        (uint32_t)adler32(1, data, (uInt)size))
        abort();
    if (tokio_darshan_open_mem(&log, data, size, "fuzz.darshan") < 0)
        return 0;
    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
        int rc_s, rc_t;
        char *s = streamed(log, &opts[i], &rc_s);
        char *t = tree(log, &opts[i], &rc_t);
        if ((rc_s < 0) != (rc_t < 0) ||
            (rc_s >= 0 && (s == NULL || t == NULL || strcmp(s, t) != 0)))
            abort();
        free(s);
        free(t);
    }
    tokio_darshan_free(log);
    return 0;
}
