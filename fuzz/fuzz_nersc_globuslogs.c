/*
 * fuzz/fuzz_nersc_globuslogs.c - the Elasticsearch page cache reader
 * (src/connectors/nersc_globuslogs.c) on arbitrary bytes: parse, then
 * JSON and CSV; the JSON of a cache read must be jansson's reading of
 * its pages up to the first empty one (whichever reader read it).
 * Seeds: fuzz/corpus/nersc_globuslogs/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "tokio/connectors/nersc_globuslogs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tokio_nersc_globuslogs *g = NULL;
    json_t *json = NULL;
    FILE *fp;

    if (tokio_nersc_globuslogs_open_mem(&g, data, size, "fuzz") < 0)
        return 0;
    (void)tokio_nersc_globuslogs_count(g);
    if (tokio_nersc_globuslogs_to_json(g, &json) == TOKIO_OK) {
        /* not gzip: the text is the JSON */
        json_t *want = size >= 2 && data[0] == 0x1f && data[1] == 0x8b
                           ? NULL
                           : json_loadb((const char *)data, size, 0, NULL);
        if (want != NULL) {
            size_t n = 0;
            while (n < json_array_size(want) &&
                   json_array_size(json_array_get(want, n)) > 0)
                n++;
            while (json_array_size(want) > n)
                json_array_remove(want, n);
            if (!json_equal(json, want))
                abort();
            json_decref(want);
        }
        json_decref(json);
    }
    if ((fp = fopen("/dev/null", "w")) != NULL) {
        (void)tokio_nersc_globuslogs_write_csv(g, fp);
        fclose(fp);
    }
    tokio_nersc_globuslogs_free(g);
    return 0;
}
