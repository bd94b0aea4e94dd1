/*
 * fuzz/fuzz_craysdb.c - the Cray SDB processor table reader
 * (src/connectors/craysdb.c) on arbitrary bytes: parse, then every way
 * out (JSON, back to a table and to the same JSON again, JSON written
 * straight (the tree written, or sorted as numbers), xtdb2proc text,
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

/* tokio_craysdb_write_json()'s text, or NULL when it fails. */
static char *
direct_json(const struct tokio_craysdb *db, unsigned flags)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    int rc;

    if (mem == NULL)
        return NULL;
    rc = tokio_craysdb_write_json(db, mem, flags);
    if (fclose(mem) != 0 || rc != TOKIO_OK) {
        free(text);
        return NULL;
    }
    return text;
}

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
        /* the JSON written straight is the tree written; sorted, its
         * records come in numeric order, so it is the tree by value */
        char *tree = NULL, *direct = direct_json(db, TOKIO_JSON_INDENT(4));
        if (direct != NULL &&
            tokio_json_dumps(&tree, json, TOKIO_JSON_INDENT(4)) == TOKIO_OK &&
            strcmp(tree, direct) != 0)
            abort();
        free(tree);
        free(direct);
        direct = direct_json(db, TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4));
        if (direct != NULL) {
            json_t *sorted = json_loads(direct, 0, NULL);
            if (sorted != NULL && !json_equal(sorted, json))
                abort();
            json_decref(sorted);
        }
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
