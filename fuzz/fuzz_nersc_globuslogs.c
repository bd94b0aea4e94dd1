/*
 * fuzz/fuzz_nersc_globuslogs.c - the Elasticsearch page cache reader
 * (src/connectors/nersc_globuslogs.c) on arbitrary bytes: parse, then
 * JSON and CSV.  Seeds: fuzz/corpus/nersc_globuslogs/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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
    if (tokio_nersc_globuslogs_to_json(g, &json) == TOKIO_OK)
        json_decref(json);
    if ((fp = fopen("/dev/null", "w")) != NULL) {
        (void)tokio_nersc_globuslogs_write_csv(g, fp);
        fclose(fp);
    }
    tokio_nersc_globuslogs_free(g);
    return 0;
}
