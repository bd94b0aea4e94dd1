/*
 * fuzz/fuzz_darshan.c - bytes -> tokio_darshan_open_mem -> the --base
 * text (into a memory stream, so printing every record is exercised) ->
 * free; and the same bytes read for --total/--perf only (records handed
 * to tokio_darshan_fold_record() as they are inflated, never kept),
 * whose figures must equal the full read's (abort() otherwise); and the
 * DXT records handed over in pieces, which must be the full read's.  Seeds:
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

/* The DXT records of `full`, met again as they are handed over in
 * pieces: the same segments in the same order (a record the full read
 * dropped as short may be handed over in part after them). */
struct dxt_check {
    const struct tokio_darshan *full;
    int mod;
    size_t rec;                 /* records begun */
};

static int
check_piece(void *payload, const struct tokio_darshan *log, int mod,
            const struct tokio_darshan_record *r)
{
    struct dxt_check *c = payload;

    (void)log;
    if (mod != c->mod) {
        c->mod = mod;
        c->rec = 0;
    }
    if (r->seg_first == 0)
        c->rec++;
    const struct tokio_darshan_record *f =
        tokio_darshan_record(c->full, mod, c->rec - 1);
    if (c->rec == 0 || r->seg_first + r->n_piece > r->n_writes + r->n_reads)
        abort();
    if (f == NULL)
        return 0;               /* beyond what the full read kept */
    if (f->id != r->id || f->rank != r->rank ||
        f->n_writes != r->n_writes || f->n_reads != r->n_reads ||
        strcmp(f->hostname, r->hostname) != 0 ||
        (r->n_piece > 0 &&
         memcmp(f->segments + r->seg_first, r->segments,
                r->n_piece * sizeof(*r->segments)) != 0))
        abort();
    return 0;
}

static void
check_dxt_pieces(const struct tokio_darshan *full, const uint8_t *data,
                 size_t size)
{
    struct dxt_check c = { full, -1, 0 };
    struct tokio_darshan_select sel = {
        .modules = TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DXT_POSIX) |
                   TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DXT_MPIIO),
        .skip_names = 1, .record = check_piece, .payload = &c,
        .dxt_pieces = 1,
    };
    struct tokio_darshan *log = NULL;

    (void)tokio_darshan_open_mem_select(&log, data, size, "fuzz.darshan",
                                        &sel);
    tokio_darshan_free(log);
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
        check_dxt_pieces(log, data, size);
        tokio_darshan_free(log);
    }
    return 0;
}
