/*
 * fuzz/fuzz_darshan_json.c - the Darshan reader, then the log's JSON
 * (darshan_json.c's one emitter) both written (tokio_darshan_write_json())
 * and built as a tree (tokio_darshan_to_json()), with every view and a
 * counter filter: no crash, no leak, and the two succeed or fail alike.
 * Seeds in fuzz/corpus/darshan_json/ (logs made with the project's
 * writer).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_json.h"
#include "tokio/output.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const ctrs[] = { "BYTES_READ", "COMP1_FLAGS" };
    const struct tokio_darshan_json_opts opts[] = {
        { .base = 1, .total = 1, .perf = 1 },
        { .base = 1, .counters = ctrs, .n_counters = 2 },
    };
    struct tokio_darshan *log = NULL;
    FILE *null = fopen("/dev/null", "w");

    if (null == NULL)
        abort();
    if (tokio_darshan_open_mem(&log, data, size, "fuzz.darshan") >= 0) {
        for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
            json_t *j = NULL;
            int rc_w = tokio_darshan_write_json(log, null, &opts[i],
                                                TOKIO_JSON_SORT_KEYS);
            int rc_t = tokio_darshan_to_json(log, &opts[i], &j);
            if ((rc_w < 0) != (rc_t < 0))
                abort();
            json_decref(j);
        }
        tokio_darshan_free(log);
    }
    fclose(null);
    return 0;
}
