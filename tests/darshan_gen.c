/*
 * tests/darshan_gen.c - Darshan logs of a chosen size (darshan_gen.h).
 */
#include "darshan_gen.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_writer.h"

/* xorshift64: figures that compress about as real ones do */
static uint64_t
next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* The records of tokio_test_darshan_records_log() into `w`; the LUSTRE
 * ones only when `lustre`. */
static int
add_records(struct tokio_darshan_writer *w, long long records,
            long long files, long long ranks, int lustre)
{
    const int P = TOKIO_DARSHAN_POSIX;
    size_t n = tokio_darshan_counter_count(P);
    size_t nf = tokio_darshan_fcounter_count(P);
    int64_t *c = calloc(n, sizeof(*c));
    double *f = calloc(nf, sizeof(*f));
    int i_br = tokio_darshan_counter_index(P, "POSIX_BYTES_READ", 0);
    int i_bw = tokio_darshan_counter_index(P, "POSIX_BYTES_WRITTEN", 0);
    int i_rd = tokio_darshan_counter_index(P, "POSIX_READS", 0);
    int i_wr = tokio_darshan_counter_index(P, "POSIX_WRITES", 0);
    int i_op = tokio_darshan_counter_index(P, "POSIX_OPENS", 0);
    int f_rt = tokio_darshan_counter_index(P, "POSIX_F_READ_TIME", 1);
    int f_wt = tokio_darshan_counter_index(P, "POSIX_F_WRITE_TIME", 1);
    int f_mt = tokio_darshan_counter_index(P, "POSIX_F_META_TIME", 1);
    uint64_t x = 88172645463325252ull;
    long long done = 0;
    int rc = TOKIO_OK;

    if (c == NULL || f == NULL)
        rc = TOKIO_ENOMEM;
    else if (i_br < 0 || i_bw < 0 || i_rd < 0 || i_wr < 0 || i_op < 0 ||
             f_rt < 0 || f_wt < 0 || f_mt < 0)
        rc = TOKIO_EINVAL;
    for (long long k = 0; rc == TOKIO_OK && k < files; k++) {
        char name[64];
        snprintf(name, sizeof(name), "/scratch/bench/file%06lld", k);
        rc = tokio_darshan_writer_add_name(w, (uint64_t)k + 1, name);
    }
    for (long long k = 0; k < files; k++)
        for (long long r = 0; rc == TOKIO_OK && r < ranks && done < records;
             r++, done++) {
            for (size_t i = 0; i < n; i++)
                c[i] = (int64_t)(next(&x) >> (54 + i % 10));
            for (size_t i = 0; i < nf; i++)
                f[i] = (double)(next(&x) >> 52) / 1e3;
            c[i_op] = 1;
            c[i_rd] = c[i_wr] = 16;
            c[i_br] = (1 + k % 7) << 20;
            c[i_bw] = (1 + r % 5) << 20;
            f[f_rt] = 0.01 * (double)(1 + k % 13);
            f[f_wt] = 0.02 * (double)(1 + r % 3);
            f[f_mt] = 0.001;
            rc = tokio_darshan_writer_add_record(w, P, (uint64_t)k + 1, r,
                                                 c, n, f, nf);
        }
    for (long long k = 0; lustre && rc == TOKIO_OK && k < files; k++) {
        struct tokio_darshan_lustre_comp comp = { .counters = {
            1 << 20, 4, 0, 0, 0, -1, 0 } };
        int64_t osts[4];
        for (int s = 0; s < 4; s++)
            osts[s] = (k * 4 + s) % 64;
        rc = tokio_darshan_writer_add_lustre(w, (uint64_t)k + 1, -1, &comp,
                                             1, osts, 4);
    }
    free(c);
    free(f);
    return rc;
}

static int
records_log(const char *path, long long records, long long files, int lustre)
{
    static const struct tokio_darshan_mount mounts[] = {
        { "/scratch", "lustre" },
    };
    struct tokio_darshan_writer *w = NULL;

    if (records < 1 || files < 1)
        return TOKIO_EINVAL;
    if (files > records)
        files = records;
    long long ranks = (records + files - 1) / files;
    struct tokio_darshan_job_info job = {
        .uid = 1000, .jobid = 4242, .start_time = 1600000000,
        .end_time = 1600003600, .nprocs = ranks, .exe = "/bin/bench",
        .n_mounts = 1, .mounts = mounts,
    };
    int rc = tokio_darshan_writer_new(&w, &job);
    if (rc == TOKIO_OK)
        rc = add_records(w, records, files, ranks, lustre);
    if (rc == TOKIO_OK)
        rc = tokio_darshan_writer_write(w, path);
    tokio_darshan_writer_free(w);
    return rc;
}

int
tokio_test_darshan_records_log(const char *path, long long records,
                               long long files)
{
    return records_log(path, records, files, 1);
}

int
tokio_test_darshan_posix_log(const char *path, long long records,
                             long long files)
{
    return records_log(path, records, files, 0);
}

int
tokio_test_darshan_dxt_log(const char *path, int ranks, size_t segments)
{
    static const struct tokio_darshan_mount mounts[] = {
        { "/lus", "lustre" },
    };
    const struct tokio_darshan_job_info job = {
        .uid = 1000, .jobid = 1, .start_time = 1600000000,
        .end_time = 1600003600, .nprocs = ranks, .exe = "./ior -a POSIX",
        .n_mounts = 1, .mounts = mounts,
    };
    struct tokio_darshan_writer *w = NULL;
    struct tokio_darshan_segment *segs = calloc(segments + 1, sizeof(*segs));
    uint64_t x = 88172645463325252u;
    int rc = segs == NULL ? TOKIO_ENOMEM : tokio_darshan_writer_new(&w, &job);

    for (int r = 0; rc == TOKIO_OK && r < ranks; r++) {
        char name[64];
        snprintf(name, sizeof(name), "/lus/scratch/ior/out.%05d", r);
        uint64_t id = tokio_darshan_writer_hash(name);
        double t = 1.0 + r * 0.001;
        for (size_t i = 0; i < segments; i++) {
            size_t k = i < segments / 2 ? i : i - segments / 2;
            segs[i].offset = (int64_t)(k * 1048576);
            segs[i].length = 1048576;
            segs[i].start_time = t;
            t += 0.0005 + (double)(next(&x) >> 40) * 1e-11;
            segs[i].end_time = t;
        }
        struct tokio_darshan_record d = { 0 };
        d.id = id;
        d.rank = r;
        d.hostname = "nid00001";
        d.n_writes = segments / 2;
        d.n_reads = segments - segments / 2;
        d.segments = segs;
        rc = tokio_darshan_writer_add_name(w, id, name);
        if (rc == TOKIO_OK)
            rc = tokio_darshan_writer_add(w, TOKIO_DARSHAN_DXT_POSIX, &d);
    }
    if (rc == TOKIO_OK)
        rc = tokio_darshan_writer_write(w, path);
    tokio_darshan_writer_free(w);
    free(segs);
    return rc;
}

void
tokio_test_darshan_lustre_comps(struct tokio_darshan_lustre_comp *c)
{
    memset(c, 0, 2 * sizeof(*c));
    c[0].counters[0] = 1048576;     /* STRIPE_SIZE */
    c[0].counters[1] = 2;           /* STRIPE_COUNT */
    c[0].counters[2] = 0;           /* raid0 */
    c[0].counters[3] = 16;          /* init */
    c[0].counters[4] = 0;
    c[0].counters[5] = 4194304;
    c[0].counters[6] = -1;
    c[1] = c[0];
    c[1].counters[1] = 1;
    c[1].counters[4] = 4194304;
    c[1].counters[5] = -1;
    snprintf(c[1].pool_name, sizeof(c[1].pool_name), "flash");
}
