/*
 * fuzz/fuzz_mmperfmon.c - the GPFS mmperfmon reader
 * (src/connectors/mmperfmon.c) on arbitrary bytes (text, JSON, tar, any
 * of them compressed): parse, then every way out (JSON text, a JSON value
 * read back, CSV by host and by metric, the visitor).
 * Seeds: fuzz/corpus/mmperfmon/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "tokio/connectors/mmperfmon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
visit(int64_t ts, const char *host, const char *counter, const char *device,
      const struct tokio_mmperfmon_value *v, void *payload)
{
    size_t *n = payload;

    (void)ts;
    (void)v;
    *n += (host[0] != '\0') + (counter[0] != '\0') + (device != NULL);
    return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tokio_mmperfmon *m = NULL, *again = NULL;
    json_t *json = NULL;
    size_t n = 0;
    FILE *fp;

    if (tokio_mmperfmon_new(&m) < 0)
        return 0;
    (void)tokio_mmperfmon_load_mem(m, data, size, "fuzz");
    /* whatever was read before a failure must be writable */
    if ((fp = fopen("/dev/null", "w")) != NULL) {
        (void)tokio_mmperfmon_write_json(m, fp);
        (void)tokio_mmperfmon_write_csv(m, fp, "h", NULL);
        (void)tokio_mmperfmon_write_csv(m, fp, NULL, "c");
        fclose(fp);
    }
    if (tokio_mmperfmon_to_json(m, &json) == 0 &&
        tokio_mmperfmon_new(&again) == 0 &&
        tokio_mmperfmon_from_json(again, json) != 0)
        __builtin_trap();   /* what we make we must read */
    (void)tokio_mmperfmon_foreach(m, visit, &n);
    json_decref(json);
    tokio_mmperfmon_free(again);
    tokio_mmperfmon_free(m);
    return 0;
}
