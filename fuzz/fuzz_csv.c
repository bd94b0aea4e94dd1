/*
 * fuzz/fuzz_csv.c - the CSV reader (src/core/csv.c) and what reads a
 * history through it, UMAMI (src/analysis/umami.c), on arbitrary bytes:
 * a table, a diagram of it, its JSON and table forms and its picture.
 * Seeds: fuzz/corpus/csv/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "tokio/analysis/umami.h"
#include "tokio/csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tokio_csv *t = NULL;
    struct tokio_umami *u = NULL;
    json_t *json = NULL;
    FILE *null = fopen("/dev/null", "w");

    if (null == NULL)
        return 0;
    if (tokio_csv_open_mem(&t, data, size, "fuzz") >= 0 &&
        tokio_umami_from_csv(&u, t, "fuzz", NULL) >= 0 &&
        tokio_umami_to_json(u, &json) >= 0) {
        (void)tokio_umami_write_csv(u, null);
        (void)tokio_umami_write_figure(u, null, TOKIO_UMAMI_SVG, -1);
    }
    json_decref(json);
    tokio_umami_free(u);
    tokio_csv_free(t);
    fclose(null);
    return 0;
}
