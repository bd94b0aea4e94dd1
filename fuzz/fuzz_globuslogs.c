/*
 * fuzz/fuzz_globuslogs.c - the Globus GridFTP transfer log reader
 * (src/connectors/globuslogs.c) on arbitrary bytes: parse, then every
 * way out (JSON, back from JSON, CSV).  Seeds: fuzz/corpus/globuslogs/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "tokio/connectors/globuslogs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tokio_globuslogs *g = NULL, *again = NULL;
    json_t *json = NULL;

    if (tokio_globuslogs_open_mem(&g, data, size, "fuzz") < 0)
        return 0;
    (void)tokio_globuslogs_count(g);
    if (tokio_globuslogs_to_json(g, &json) == TOKIO_OK &&
        tokio_globuslogs_from_json(&again, json) == TOKIO_OK) {
        FILE *fp = fopen("/dev/null", "w");
        if (fp != NULL) {
            (void)tokio_globuslogs_write_csv(again, fp);
            (void)tokio_globuslogs_write_csv(g, fp);
            fclose(fp);
        }
    }
    json_decref(json);
    tokio_globuslogs_free(again);
    tokio_globuslogs_free(g);
    return 0;
}
