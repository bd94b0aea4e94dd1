/*
 * fuzz/fuzz_esnet_snmp.c - a cache of ESnet SNMP rates (the reference's
 * EsnetSnmp JSON) on arbitrary bytes: read, written as JSON and as both
 * CSV forms.  Seeds: fuzz/corpus/esnet_snmp/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "tokio/connectors/esnet_snmp.h"
#include "tokio/output.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *json = json_loadb((const char *)data, size, 0, NULL), *out = NULL;
    struct tokio_esnet_snmp *e = NULL;
    FILE *null = fopen("/dev/null", "w");

    if (json != NULL && null != NULL &&
        tokio_esnet_snmp_from_json(&e, json, "fuzz", 0, 1) >= 0) {
        tokio_esnet_snmp_write_csv(e, null, 0);
        tokio_esnet_snmp_write_csv(e, null, 1);
        tokio_esnet_snmp_to_json(e, &out);
        tokio_json_write(out, null, TOKIO_JSON_INDENT(4) |
                                    TOKIO_JSON_SORT_KEYS |
                                    TOKIO_JSON_SORT_INT_KEYS);
        json_decref(out);
    }
    tokio_esnet_snmp_free(e);
    if (null != NULL)
        fclose(null);
    json_decref(json);
    return 0;
}
