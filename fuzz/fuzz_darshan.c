/*
 * fuzz/fuzz_darshan.c - bytes -> tokio_darshan_open_mem -> the --base
 * text (into a memory stream, so printing every record is exercised) ->
 * free; and the same bytes read for --total/--perf only (records handed
 * to tokio_darshan_fold_record() as they are inflated, never kept),
 * whose figures must equal the full read's (abort() otherwise).  Seeds:
 * fuzz/corpus/darshan/README; real logs are third-party data and stay out
 * of the tree, so copy the .darshan files of testdata/darshan-logs into a
 * scratch corpus to start from real inputs.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokio/connectors/darshan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int derived[] = {
    TOKIO_DARSHAN_POSIX, TOKIO_DARSHAN_MPIIO, TOKIO_DARSHAN_STDIO,
    TOKIO_DARSHAN_DFS, TOKIO_DARSHAN_DAOS,
};

/* A folded read of the bytes `full` was read from gives its figures. */
static void
check_folded(const struct tokio_darshan *full, const uint8_t *data,
             size_t size)
{
    struct tokio_darshan_fold *fold = NULL;
    struct tokio_darshan_select sel = {
        .modules = TOKIO_DARSHAN_DERIVED_MODULES, .skip_names = 1,
        .record = tokio_darshan_fold_record,
    };
    struct tokio_darshan *log = NULL;

    if (tokio_darshan_fold_new(&fold, TOKIO_DARSHAN_FOLD_TOTALS |
                                          TOKIO_DARSHAN_FOLD_PERF) < 0)
        return;
    sel.payload = fold;
    /* it reads a subset: it can fail only for lack of memory */
    if (tokio_darshan_open_mem_select(&log, data, size, "fuzz.darshan",
                                      &sel) < 0) {
        tokio_darshan_fold_free(fold);
        return;
    }
    for (size_t k = 0; k < sizeof(derived) / sizeof(derived[0]); k++) {
        int mod = derived[k];
        struct tokio_darshan_total *a = NULL, *b = NULL;
        struct tokio_darshan_perf p, q;
        if (tokio_darshan_totals(full, mod, &a) == 0 &&
            tokio_darshan_fold_totals(fold, mod, &b) == 0 &&
            (a->n_records != b->n_records || a->id != b->id ||
             memcmp(a->counters, b->counters,
                    a->n_counters * sizeof(int64_t)) != 0 ||
             memcmp(a->fcounters, b->fcounters,
                    a->n_fcounters * sizeof(double)) != 0))
            abort();
        tokio_darshan_total_free(a);
        tokio_darshan_total_free(b);
        int rc = tokio_darshan_perf(full, mod, &p);
        if (tokio_darshan_fold_perf(fold, mod, &q) != rc ||
            memcmp(&p, &q, sizeof(p)) != 0)
            abort();
    }
    tokio_darshan_free(log);
    tokio_darshan_fold_free(fold);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tokio_darshan *log = NULL;

    if (tokio_darshan_open_mem(&log, data, size, "fuzz.darshan") >= 0) {
        char *text = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&text, &len);
        if (fp != NULL) {
            (void)tokio_darshan_write_base(log, fp);
            fclose(fp);
        }
        free(text);
        check_folded(log, data, size);
        tokio_darshan_free(log);
    }
    return 0;
}
