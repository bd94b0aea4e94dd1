/*
 * fuzz/fuzz_craysdb.c - the Cray SDB processor table reader
 * (src/connectors/craysdb.c) on arbitrary bytes: parse, then every way
 * out (JSON, back to a table and to the same JSON again, JSON written
 * straight (the same text as the tree written), xtdb2proc text,
 * CSV, one record alone, a coordinate lookup).
 * Seeds: fuzz/corpus/craysdb/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/connectors/craysdb.h"
#include "tokio/output.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tokio_craysdb *db = NULL, *again = NULL;
    json_t *json = NULL;
    int64_t xyz[3];

    if (tokio_craysdb_open_mem(&db, data, size, "fuzz") < 0)
        return 0;
    if (tokio_craysdb_to_json(db, &json) == TOKIO_OK &&
        tokio_craysdb_from_json(&again, json) == TOKIO_OK) {
        /* what was read must be writable, unless a record lacks a key
         * of the first (the reference's KeyError) */
        FILE *fp = fopen("/dev/null", "w");
        if (fp != NULL) {
            (void)tokio_craysdb_write(again, fp);
            (void)tokio_craysdb_write_csv(again, fp);
            fclose(fp);
        }
        /* and the typed table read back must give the same JSON */
        json_t *back = NULL;
        if (tokio_craysdb_to_json(again, &back) == TOKIO_OK &&
            !json_equal(json, back))
            abort();
        json_decref(back);
        /* the JSON written straight is the tree written */
        char *tree = NULL, *direct = NULL;
        size_t direct_len = 0;
        FILE *mem = open_memstream(&direct, &direct_len);
        if (mem != NULL &&
            tokio_json_dumps(&tree, json, TOKIO_JSON_SORT_KEYS |
                                          TOKIO_JSON_INDENT(4)) == TOKIO_OK &&
            tokio_craysdb_write_json(db, mem, TOKIO_JSON_SORT_KEYS |
                                              TOKIO_JSON_INDENT(4)) ==
                TOKIO_OK) {
            fclose(mem);
            mem = NULL;
            if (strcmp(tree, direct) != 0)
                abort();
        }
        if (mem != NULL)
            fclose(mem);
        free(tree);
        free(direct);
        /* each record alone is the table's record */
        const char *id;
        json_t *rec;
        json_object_foreach(json, id, rec) {
            json_t *one = tokio_craysdb_proc_json(db, strtoll(id, NULL, 10));
            if (one != NULL && !json_equal(one, rec))
                abort();
            json_decref(one);
            break;
        }
    }
    (void)tokio_craysdb_coords(db, 5000, xyz);
    json_decref(json);
    tokio_craysdb_free(again);
    tokio_craysdb_free(db);
    return 0;
}
