/*
 * bench/bench_darshan_gen.c - Darshan logs of a chosen number of records,
 * made with the library's writer, for bench/bench-darshan-memory.sh:
 *
 *   bench_darshan_gen OUT RECORDS [FILES]
 *
 * writes OUT with RECORDS POSIX records: FILES files (default 1000, fewer
 * when RECORDS is smaller) on /scratch (lustre), each with RECORDS/FILES
 * ranks' records (nprocs is that count), and one LUSTRE record per file
 * (a 4-stripe layout over 64 OSTs); the other counters are
 * pseudo-random, so the log compresses about as real ones do (the reader
 * refuses regions that inflate far beyond their size).  index-darshanlogs,
 * summarize-darshanlogs and darshan-bad-ost all have work to do; more
 * records mean more ranks, not more files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_writer.h"

static int
counter(int mod, const char *name)
{
    for (size_t i = 0; i < tokio_darshan_counter_count(mod); i++)
        if (strcmp(tokio_darshan_counter_name(mod, i), name) == 0)
            return (int)i;
    return -1;
}

static int
fcounter(int mod, const char *name)
{
    for (size_t i = 0; i < tokio_darshan_fcounter_count(mod); i++)
        if (strcmp(tokio_darshan_fcounter_name(mod, i), name) == 0)
            return (int)i;
    return -1;
}

int
main(int argc, char **argv)
{
    static const struct tokio_darshan_mount mounts[] = {
        { "/scratch", "lustre" },
    };
    const int P = TOKIO_DARSHAN_POSIX;
    struct tokio_darshan_writer *w = NULL;

    if (argc < 3) {
        fprintf(stderr, "usage: bench_darshan_gen OUT RECORDS [FILES]\n");
        return 2;
    }
    long long records = atoll(argv[2]);
    long long files = argc > 3 ? atoll(argv[3]) : 1000;
    if (records < 1 || files < 1) {
        fprintf(stderr, "bench_darshan_gen: RECORDS and FILES must be 1 "
                "or more\n");
        return 2;
    }
    if (files > records)
        files = records;
    long long ranks = (records + files - 1) / files;
    struct tokio_darshan_job_info job = {
        .uid = 1000, .jobid = 4242, .start_time = 1600000000,
        .end_time = 1600003600, .nprocs = ranks, .exe = "/bin/bench",
        .n_mounts = 1, .mounts = mounts,
    };
    if (tokio_darshan_writer_new(&w, &job) < 0)
        goto fail;
    size_t n = tokio_darshan_counter_count(P);
    size_t nf = tokio_darshan_fcounter_count(P);
    int64_t *c = calloc(n, sizeof(*c));
    double *f = calloc(nf, sizeof(*f));
    int i_br = counter(P, "POSIX_BYTES_READ");
    int i_bw = counter(P, "POSIX_BYTES_WRITTEN");
    int i_rd = counter(P, "POSIX_READS"), i_wr = counter(P, "POSIX_WRITES");
    int i_op = counter(P, "POSIX_OPENS");
    int f_rt = fcounter(P, "POSIX_F_READ_TIME");
    int f_wt = fcounter(P, "POSIX_F_WRITE_TIME");
    int f_mt = fcounter(P, "POSIX_F_META_TIME");
    if (c == NULL || f == NULL || i_br < 0 || i_bw < 0 || f_rt < 0 ||
        f_wt < 0 || f_mt < 0 || i_rd < 0 || i_wr < 0 || i_op < 0)
        goto fail;
    for (long long k = 0; k < files; k++) {
        char name[64];
        snprintf(name, sizeof(name), "/scratch/bench/file%06lld", k);
        if (tokio_darshan_writer_add_name(w, (uint64_t)k + 1, name) < 0)
            goto fail;
    }
    long long done = 0;
    uint64_t x = 88172645463325252ull;      /* xorshift64: counters that
                                              * compress like real ones */
    for (long long k = 0; k < files; k++)
        for (long long r = 0; r < ranks && done < records; r++, done++) {
            for (size_t i = 0; i < n; i++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                c[i] = (int64_t)(x >> (54 + i % 10));
            }
            for (size_t i = 0; i < nf; i++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                f[i] = (double)(x >> 52) / 1e3;
            }
            c[i_op] = 1;
            c[i_rd] = c[i_wr] = 16;
            c[i_br] = (1 + k % 7) << 20;
            c[i_bw] = (1 + r % 5) << 20;
            f[f_rt] = 0.01 * (double)(1 + k % 13);
            f[f_wt] = 0.02 * (double)(1 + r % 3);
            f[f_mt] = 0.001;
            if (tokio_darshan_writer_add_record(w, P, (uint64_t)k + 1, r, c,
                                                n, f, nf) < 0)
                goto fail;
        }
    for (long long k = 0; k < files; k++) {
        struct tokio_darshan_lustre_comp comp = { .counters = {
            1 << 20, 4, 0, 0, 0, -1, 0 } };
        int64_t osts[4];
        for (int s = 0; s < 4; s++)
            osts[s] = (k * 4 + s) % 64;
        if (tokio_darshan_writer_add_lustre(w, (uint64_t)k + 1, -1, &comp,
                                            1, osts, 4) < 0)
            goto fail;
    }
    if (tokio_darshan_writer_write(w, argv[1]) < 0)
        goto fail;
    tokio_darshan_writer_free(w);
    free(c);
    free(f);
    return 0;
fail:
    fprintf(stderr, "bench_darshan_gen: %s\n", tokio_errmsg());
    return 1;
}
