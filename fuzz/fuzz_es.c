/*
 * fuzz/fuzz_es.c - a cache of Elasticsearch pages (the reference's
 * save_cache() form) on arbitrary bytes: parsed, handed page by page to
 * both writers (the JSON list of pages and the CSV of collectd's
 * fields), written out.  Seeds: fuzz/corpus/es/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "tokio/connectors/collectd_es.h"
#include "tokio/connectors/es.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *pages = json_loadb((const char *)data, size, 0, NULL);
    FILE *null = fopen("/dev/null", "w");
    size_t n;
    const char *const *fields = tokio_collectd_es_fields(&n);

    for (int csv = 0; pages != NULL && null != NULL && csv < 2; csv++) {
        struct tokio_es_pages *p = NULL;
        int rc = csv ? tokio_es_pages_new_csv(&p, fields, n)
                     : tokio_es_pages_new_json(&p, 4);

        if (rc >= 0 &&
            tokio_es_from_json(pages, "fuzz", tokio_es_pages_add, p) >= 0)
            tokio_es_pages_write(p, null);
        tokio_es_pages_free(p);
    }
    if (null != NULL)
        fclose(null);
    json_decref(pages);
    return 0;
}
