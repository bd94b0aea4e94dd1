/*
 * fuzz/fuzz_same_json.h - for fuzz targets of connectors that write their
 * JSON straight from their records: that text must be, byte for byte,
 * what tokio_json_write() makes of the connector's jansson tree.
 */
#ifndef TOKIO_FUZZ_SAME_JSON_H
#define TOKIO_FUZZ_SAME_JSON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/output.h"

/* A connector's writer: `obj` written to `fp` in the layout `flags`. */
typedef int (*fuzz_json_writer)(const void *obj, FILE *fp, unsigned flags);

/* Abort when both succeed and write different bytes. */
static inline void
fuzz_same_json(fuzz_json_writer write, const void *obj, const json_t *tree,
               unsigned flags)
{
    char *a = NULL, *b = NULL;
    size_t alen = 0, blen = 0;
    FILE *fa = open_memstream(&a, &alen), *fb = open_memstream(&b, &blen);

    if (fa != NULL && fb != NULL && tree != NULL &&
        write(obj, fa, flags) == TOKIO_OK &&
        tokio_json_write(tree, fb, flags) == TOKIO_OK) {
        fflush(fa);
        fflush(fb);
        if (alen != blen || memcmp(a, b, alen) != 0)
            abort();
    }
    if (fa != NULL)
        fclose(fa);
    if (fb != NULL)
        fclose(fb);
    free(a);
    free(b);
}

#endif
