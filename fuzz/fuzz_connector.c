/*
 * fuzz/fuzz_connector.c - one libFuzzer driver for every text connector
 * (src/core/connector.h), built once per connector as fuzz_NAME with
 * TOKIO_FUZZ_CONNECTOR="NAME": arbitrary bytes are opened as that
 * connector's input, then taken every way out (the JSON form written,
 * read back into a new handle that must give the same JSON, the CSV).
 * Seeds: fuzz/corpus/NAME/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "tokio/output.h"
#include "connectors/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct tokio__connector *c =
        tokio__connector_find(TOKIO_FUZZ_CONNECTOR);
    void *h = NULL, *again = NULL;
    json_t *json = NULL, *back = NULL;
    FILE *null = fopen("/dev/null", "w");

    if (c == NULL || null == NULL)
        abort();
    if (tokio__connector_open_mem(c, &h, data, size, "fuzz") >= 0 &&
        c->to_json(h, &json) >= 0) {
        (void)tokio_json_write(json, null, TOKIO_JSON_SORT_KEYS |
                                           TOKIO_JSON_INDENT(2));
        if (c->write_csv != NULL)
            (void)c->write_csv(h, null);
        /* the JSON form holds all there is: read back, it is the same */
        if (c->add_json != NULL &&
            tokio__connector_from_json(c, &again, json) >= 0 &&
            c->to_json(again, &back) >= 0 && !json_equal(json, back))
            abort();
    }
    json_decref(back);
    json_decref(json);
    if (again != NULL)
        c->free(again);
    if (h != NULL)
        c->free(h);
    fclose(null);
    return 0;
}
