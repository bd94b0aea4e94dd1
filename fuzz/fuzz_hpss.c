/*
 * fuzz/fuzz_hpss.c - the HPSS log and daily report reader
 * (src/connectors/hpss.c) on arbitrary bytes: the first byte picks the
 * kind (auto, daily, hsi, ftp), the rest is the input; then every way
 * out (JSON, back from JSON, CSV), and the JSON written straight from the
 * records must be the tree's, byte for byte.  Seeds: fuzz/corpus/hpss/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/connectors/hpss.h"
#include "tokio/output.h"
#include "fuzz_same_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
write_hpss(const void *h, FILE *fp, unsigned flags)
{
    return tokio_hpss_write_json(h, fp, flags);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tokio_hpss *h = NULL, *again = NULL;
    json_t *json = NULL;

    if (size < 1)
        return 0;
    if (tokio_hpss_open_mem(&h, data + 1, size - 1, "fuzz",
                            (enum tokio_hpss_kind)(data[0] % 4)) < 0)
        return 0;
    (void)tokio_hpss_count(h, "hsi");
    (void)tokio_hpss_report_date(h);
    if (tokio_hpss_to_json(h, &json) == TOKIO_OK)
        fuzz_same_json(write_hpss, h, json,
                       TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4));
    if (json != NULL &&
        tokio_hpss_from_json(&again, json, tokio_hpss_kind(h)) == TOKIO_OK) {
        FILE *fp = fopen("/dev/null", "w");
        if (fp != NULL) {
            (void)tokio_hpss_write_csv(again, fp);
            (void)tokio_hpss_write_csv(h, fp);
            fclose(fp);
        }
    }
    json_decref(json);
    tokio_hpss_free(again);
    tokio_hpss_free(h);
    return 0;
}
