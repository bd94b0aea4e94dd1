/*
 * fuzz/fuzz_slurm.c - the Slurm connector on arbitrary bytes: sacct text
 * or JSON (told apart by the first byte, as the connector does) through
 * open_mem, every serializer and the JSON round trip, a JSON cache also
 * through jansson and tokio_slurm_from_json() (the fast reader must
 * agree with it), the JSON written without a tree byte for byte the
 * tree's; and the same bytes
 * as a node list, expanded and compacted again.  Seeds: fuzz/corpus/slurm/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tokio/connectors/slurm.h"
#include "tokio/output.h"
#include "fuzz_same_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
write_slurm(const void *s, FILE *fp, unsigned flags)
{
    return tokio_slurm_write_json(s, fp, flags);
}

static void
exercise_table(const uint8_t *data, size_t size)
{
    static FILE *sink;
    struct tokio_slurm *s = NULL, *t = NULL;
    json_t *j = NULL;
    const char **list = NULL;
    size_t n;
    int64_t a, b;

    if (sink == NULL && (sink = fopen("/dev/null", "w")) == NULL)
        abort();
    if (tokio_slurm_open_mem(&s, data, size, "fuzz") < 0)
        return;
    tokio_slurm_write_native(s, sink);
    tokio_slurm_write_csv(s, sink);
    tokio_slurm_get_job_startend(s, &a, &b);
    if (tokio_slurm_get_job_ids(s, &list, &n) >= 0)
        free(list);
    if (tokio_slurm_get_job_nodes(s, &list, &n) >= 0)
        free(list);
    if (tokio_slurm_to_json(s, &j) >= 0) {
        fuzz_same_json(write_slurm, s, j,
                       TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4));
        /* what we wrote must read back as the same table */
        int rc = tokio_slurm_from_json(&t, j);
        if (rc < 0 && rc != TOKIO_ENOMEM)
            abort();
        json_t *k = NULL;
        if (rc >= 0 && tokio_slurm_to_json(t, &k) >= 0 && !json_equal(j, k))
            abort();
        json_decref(k);
    }
    /* a JSON cache read without a tree must be what jansson reads */
    size_t i = 0;
    while (i < size && (data[i] == ' ' || data[i] == '\t' ||
                        data[i] == '\n' || data[i] == '\r'))
        i++;
    if (j != NULL && i < size && data[i] == '{') {
        json_error_t error;
        json_t *tree = json_loadb((const char *)data, size, 0, &error);
        struct tokio_slurm *u = NULL;
        json_t *k = NULL;
        if (tree == NULL) {
            /* the connector read it, so only memory can stop jansson */
            if (json_error_code(&error) != json_error_out_of_memory)
                abort();
            goto done;
        }
        int rc = tokio_slurm_from_json(&u, tree);
        if (rc < 0 && rc != TOKIO_ENOMEM)
            abort();
        if (rc >= 0 && tokio_slurm_to_json(u, &k) >= 0 && !json_equal(j, k))
            abort();
        json_decref(k);
        json_decref(tree);
        tokio_slurm_free(u);
    }
done:
    if (tokio_slurm_count(s) > 0) {
        json_t *task = tokio_slurm_task_json(s, 0);
        json_decref(task);
        tokio_slurm_select_job(s, tokio_slurm_task_id(s, 0));
    }
    json_decref(j);
    tokio_slurm_free(t);
    tokio_slurm_free(s);
}

static void
exercise_nodelist(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), **names = NULL, *compact = NULL;
    size_t n = 0;

    if (text == NULL)
        return;
    memcpy(text, data, size);
    text[size] = '\0';
    if (tokio_slurm_nodelist_expand(text, &names, &n) >= 0 &&
        tokio_slurm_nodelist_compact((const char *const *)names, n,
                                     &compact) >= 0) {
        /* compaction must expand back to the same set */
        char **again = NULL;
        size_t m = 0;
        int rc = tokio_slurm_nodelist_expand(compact, &again, &m);
        if (rc < 0 && rc != TOKIO_ENOMEM && n > 0 &&
            strchr(text, ' ') == NULL)
            abort();
        tokio_slurm_free_names(again, m);
    }
    tokio_slurm_free_names(names, n);
    free(compact);
    free(text);
}

/*
 * A few bytes of node list may legally expand to TOKIO_SLURM_MAX_NODES
 * names, over libFuzzer's memory limit under ASan, and take seconds.  So
 * each input gets a budget of bytes, after which every allocation fails:
 * big inputs then take the out-of-memory paths, which are worth fuzzing
 * too.  (A budget of allocations would not do: the string pool makes few.)
 */
#define BYTE_BUDGET (1u << 20)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tokio_test_fail_alloc_bytes(BYTE_BUDGET);
    exercise_table(data, size);
    tokio_test_fail_alloc_bytes(BYTE_BUDGET);
    if (size < 4096)
        exercise_nodelist(data, size);
    tokio_test_fail_alloc_at(0);
    return 0;
}
