/*
 * tests/analysis/test_insights.c - the findings of `tokio insights`
 * (src/analysis/insights*.c) on Darshan logs this test writes with the
 * library's writer, and on site data it writes beside them (TTS files,
 * `lfs df` and `lctl dl -t` histories, a saved Slurm record, a history
 * of runs).  Every rule is driven to both sides of its threshold: a log
 * that just triggers it and one that just misses it, the figures chosen
 * so the boundary is exact (stated beside each).  Every result is checked
 * against tests/analysis/insights.schema.json.  Then what degrades
 * (missing modules, Lustre without OST ids, no site data), bad
 * thresholds, and out-of-memory sweeps.
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "analysis/schema_check.h"
#include "tokio/analysis/insights.h"
#include "tokio/config.h"
#include "tokio/output.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_writer.h"
#include "tokio/timeseries.h"

#define MIB 1048576LL
#define GIB 1073741824LL

/* The job: 2019-02-14 02:00:00 local for 100 s, job id 777, on /scratch. */
static int64_t
t0(void)
{
    return tokio_test_local(2019, 2, 14, 2, 0, 0);
}

static struct tokio_darshan_writer *
new_job(int64_t nprocs, const char *hints)
{
    static const struct tokio_darshan_mount mounts[] = {
        { "/scratch", "lustre" }, { "/", "rootfs" }
    };
    static const char *const keys[] = { "h" };
    const char *values[] = { hints };
    struct tokio_darshan_job_info job = { 0 };
    struct tokio_darshan_writer *w = NULL;

    job.uid = 1000;
    job.jobid = 777;
    job.start_time = t0();
    job.end_time = job.start_time + 100;
    job.nprocs = nprocs;
    job.exe = "./app --steps 10";
    job.n_mounts = 2;
    job.mounts = mounts;
    if (hints != NULL) {
        job.n_metadata = 1;
        job.metadata_keys = keys;
        job.metadata_values = values;
    }
    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    return w;
}

/* A record of `mod` for `file` at `rank`, its counters given by name as
 * "NAME=VALUE ..." (integer or real counters alike); the rest are 0. */
static void
add(struct tokio_darshan_writer *w, int mod, const char *file, int64_t rank,
    const char *spec)
{
    size_t n = tokio_darshan_counter_count(mod);
    size_t nf = tokio_darshan_fcounter_count(mod);
    int64_t *c = calloc(n + 1, sizeof(*c));
    double *f = calloc(nf + 1, sizeof(*f));
    char *copy = strdup(spec), *save = NULL;
    uint64_t id = tokio_darshan_writer_hash(file);

    for (char *tok = strtok_r(copy, " ", &save); tok != NULL;
         tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        size_t i;
        int found = 0;
        assert_non_null(eq);
        *eq = '\0';
        for (i = 0; i < n && !found; i++)
            if (strcmp(tokio_darshan_counter_name(mod, i), tok) == 0) {
                c[i] = strtoll(eq + 1, NULL, 10);
                found = 1;
            }
        for (i = 0; i < nf && !found; i++)
            if (strcmp(tokio_darshan_fcounter_name(mod, i), tok) == 0) {
                f[i] = strtod(eq + 1, NULL);
                found = 1;
            }
        if (!found)
            fail_msg("no counter %s in module %d", tok, mod);
    }
    assert_int_equal(tokio_darshan_writer_add_name(w, id, file), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_add_record(w, mod, id, rank, c, n,
                                                     f, nf), TOKIO_OK);
    free(copy);
    free(c);
    free(f);
}

/* A LUSTRE record: `file` striped over `osts` (1 MiB stripes). */
static void
add_lustre(struct tokio_darshan_writer *w, const char *file,
           const int64_t *osts, size_t n)
{
    struct tokio_darshan_lustre_comp comp = { { 0 }, "" };

    comp.counters[0] = MIB;         /* STRIPE_SIZE */
    comp.counters[1] = (int64_t)n;  /* STRIPE_COUNT */
    comp.counters[5] = -1;          /* EXT_END: to the end */
    assert_int_equal(tokio_darshan_writer_add_lustre(
                         w, tokio_darshan_writer_hash(file), -1, &comp, 1,
                         osts, n), TOKIO_OK);
}

/* Write the log into `dir` as `name` and free the writer; the path. */
static char *
save(struct tokio_darshan_writer *w, const char *dir, const char *name)
{
    char *path = tokio_test_join(dir, name);

    assert_int_equal(tokio_darshan_writer_write(w, path), TOKIO_OK);
    tokio_darshan_writer_free(w);
    return path;
}

/* The result must be valid against the committed schema. */
static void
assert_schema(const json_t *res)
{
    json_error_t e;
    json_t *schema = json_load_file(tokio_test_source(
                                        "tests/analysis/insights.schema.json"),
                                    0, &e);
    json_t *list = json_pack("[O]", res);
    char err[1024];

    if (schema == NULL)
        fail_msg("insights.schema.json: %s", e.text);
    if (schema_check(schema, list, err, sizeof(err)) != 0)
        fail_msg("not valid against the schema: %s", err);
    /* the schema allows a 35th, dxt_concentration, which only --dxt
     * (never used here) adds */
    assert_int_equal(json_array_size(json_object_get(res, "findings")), 34);
    json_decref(list);
    json_decref(schema);
}

struct run {
    const struct tokio_config *cfg;
    const char *override;       /* one "NAME=VALUE", or NULL */
    const char *history;
    const char *slurm;
    const char *ost_fullness;
    int server;                 /* 0: --client-only */
};

static json_t *
insights(const char *path, const struct run *r)
{
    struct tokio_insights_opts o = { 0 };
    json_t *res = NULL;

    o.thresholds = &r->override;
    o.n_thresholds = r->override != NULL;
    o.client_only = !r->server;
    o.history = r->history;
    o.job.slurm_jobid = r->slurm;
    o.job.ost_fullness = r->ost_fullness;
    if (tokio_insights_log(&res, r->cfg, path, NULL, &o) != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    assert_schema(res);
    return res;
}

static const json_t *
finding(const json_t *res, const char *code)
{
    const json_t *x;
    size_t i;

    json_array_foreach(json_object_get(res, "findings"), i, x)
        if (strcmp(json_string_value(json_object_get(x, "code")), code) == 0)
            return x;
    fail_msg("no finding %s", code);
    return NULL;
}

/* The finding's level, "n/a" when it was not evaluated. */
static const char *
level(const json_t *res, const char *code)
{
    const char *l = json_string_value(json_object_get(finding(res, code),
                                                      "level"));

    return l ? l : "n/a";
}

static double
number(const json_t *res, const char *code, const char *name)
{
    const json_t *v = json_object_get(json_object_get(finding(res, code),
                                                      "numbers"), name);

    if (!json_is_number(v))
        fail_msg("%s has no number %s", code, name);
    return json_number_value(v);
}

static const char *
title(const json_t *res, const char *code)
{
    return json_string_value(json_object_get(finding(res, code), "title"));
}

/* The result of `r` on the log of `w`, written (and the writer freed)
 * into a folder of its own that is gone again. */
static json_t *
insights_of(struct tokio_darshan_writer *w, const struct run *r)
{
    char *dir = tokio_test_mkdtemp(), *path = save(w, dir, "job.darshan");
    json_t *res = insights(path, r);

    tokio_test_rmtree(dir);
    free(dir);
    free(path);
    return res;
}

/* Write `w` and check that rule `code` comes out at `expected` (with
 * `override` in force), client side only. */
static void
expect(struct tokio_darshan_writer *w, const char *code,
       const char *override, const char *expected)
{
    struct run r = { NULL, override, NULL, NULL, NULL, 0 };
    json_t *res = insights_of(w, &r);

    if (strcmp(level(res, code), expected) != 0)
        fail_msg("%s: '%s', not %s: %s", code, level(res, code), expected,
                 title(res, code));
    json_decref(res);
}

/* expect() of a job of 4 ranks with one record: `spec` of `mod` for
 * `file` at `rank` (add()). */
static void
expect1(int mod, const char *file, int64_t rank, const char *spec,
        const char *code, const char *override, const char *expected)
{
    struct tokio_darshan_writer *w = new_job(4, NULL);

    add(w, mod, file, rank, spec);
    expect(w, code, override, expected);
}

/* ---- client side, rule by rule ------------------------------------------ */

/* STDIO share: STDIO bytes / (STDIO + POSIX) > 0.1.  11 of 100 is
 * 0.11 (high); 10 of 100 is exactly 0.1 (ok). */
static void
test_stdio_share_both_sides(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        struct tokio_darshan_writer *w = new_job(4, NULL);
        char spec[64];
        snprintf(spec, sizeof(spec), "STDIO_BYTES_WRITTEN=%d", k ? 10 : 11);
        add(w, TOKIO_DARSHAN_STDIO, "/scratch/u/log.txt", 0, spec);
        snprintf(spec, sizeof(spec), "POSIX_BYTES_WRITTEN=%d", k ? 90 : 89);
        add(w, TOKIO_DARSHAN_POSIX, "/scratch/u/out.dat", -1, spec);
        expect(w, "stdio_share", NULL, k ? "ok" : "high");
    }
}

/* Regression (Drishti counted MPI-IO's bytes on top of POSIX's, which
 * carry them): STDIO 11, POSIX 89 and MPI-IO 89 of the same bytes is
 * 11 / (11 + 89) = 0.11, high; Drishti's 11 / 189 = 0.058 said nothing. */
static void
test_stdio_share_counts_mpiio_bytes_once(void **state)
{
    struct tokio_darshan_writer *w = new_job(4, NULL);

    (void)state;
    add(w, TOKIO_DARSHAN_STDIO, "/scratch/u/log.txt", 0,
        "STDIO_BYTES_WRITTEN=11");
    add(w, TOKIO_DARSHAN_POSIX, "/scratch/u/out.dat", -1,
        "POSIX_BYTES_WRITTEN=89");
    add(w, TOKIO_DARSHAN_MPIIO, "/scratch/u/out.dat", -1,
        "MPIIO_BYTES_WRITTEN=89 MPIIO_COLL_WRITES=1");
    expect(w, "stdio_share", NULL, "high");
}

/* No MPI-IO: warning with several processes, info with one, ok with
 * MPI-IO records. */
static void
test_no_mpiio_levels(void **state)
{
    struct tokio_darshan_writer *w;

    (void)state;
    expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/a", 0, "POSIX_WRITES=1",
            "no_mpiio", NULL, "warning");
    w = new_job(1, NULL);
    add(w, TOKIO_DARSHAN_POSIX, "/scratch/u/a", 0, "POSIX_WRITES=1");
    expect(w, "no_mpiio", NULL, "info");
    expect1(TOKIO_DARSHAN_MPIIO, "/scratch/u/a", -1, "MPIIO_COLL_WRITES=1",
            "no_mpiio", NULL, "ok");
}

/* |W - R| / (W + R) > 0.1: 56 writes and 44 reads is 0.12 (info); 55
 * and 45 is exactly 0.1 (ok).  The same with bytes. */
static void
test_intensity_both_sides(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        char spec[160];
        snprintf(spec, sizeof(spec), "POSIX_WRITES=%d POSIX_READS=%d "
                 "POSIX_BYTES_WRITTEN=%d POSIX_BYTES_READ=%d",
                 k ? 55 : 56, k ? 45 : 44, k ? 55 : 56, k ? 45 : 44);
        expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/a", -1, spec,
                "operation_intensity", NULL, k ? "ok" : "info");
        expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/a", -1, spec,
                "byte_intensity", NULL, k ? "ok" : "info");
    }
}

/* Small reads: share > 0.1 and count > 1000.  1001 of 10000 (0.1001,
 * 1001) is high; 1000 of 10000 misses both; 1000 of 5000 (0.2) misses the
 * count; 1001 of 5000 makes both. */
static void
test_small_reads_both_thresholds(void **state)
{
    static const struct { int small, ops; const char *level; } cases[] = {
        { 1001, 10000, "high" }, { 1000, 10000, "ok" },
        { 1000, 5000, "ok" }, { 1001, 5000, "high" },
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        char spec[160];
        snprintf(spec, sizeof(spec), "POSIX_READS=%d POSIX_BYTES_READ=%d "
                 "POSIX_SIZE_READ_1K_10K=%d POSIX_SIZE_READ_1M_4M=%d",
                 cases[i].ops, cases[i].ops, cases[i].small,
                 cases[i].ops - cases[i].small);
        expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/a", 0, spec,
                "small_reads", NULL, cases[i].level);
    }
}

/* Small writes on shared files only: 2000 small writes of 10000 on a
 * per-rank file do not count there, on a shared one they do. */
static void
test_small_shared_writes_only_shared_files(void **state)
{
    (void)state;
    for (int shared = 0; shared < 2; shared++) {
        struct tokio_darshan_writer *w = new_job(4, NULL);
        add(w, TOKIO_DARSHAN_POSIX, "/scratch/u/a", shared ? -1 : 0,
            "POSIX_WRITES=10000 POSIX_SIZE_WRITE_0_100=2000 "
            "POSIX_SIZE_WRITE_4M_10M=8000");
        add(w, TOKIO_DARSHAN_POSIX, "/scratch/u/b", shared ? 0 : -1,
            "POSIX_WRITES=10000 POSIX_SIZE_WRITE_4M_10M=10000");
        expect(w, "small_shared_writes", NULL, shared ? "high" : "ok");
    }
    expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/a", 0,
            "POSIX_WRITES=10000 POSIX_SIZE_WRITE_0_100=2000", "small_writes",
            NULL, "high");
}

/* Regression (Drishti's small_bytes was configurable but unused): 2000
 * reads of 100 KiB-1 MiB in 10000 are small at the default 1 MiB (high)
 * and not at small_bytes=102400 (ok), which the finding states. */
static void
test_small_bytes_threshold_is_used(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/a", 0,
                "POSIX_READS=10000 POSIX_SIZE_READ_100K_1M=2000 "
                "POSIX_SIZE_READ_1M_4M=8000", "small_reads",
                k ? "small_bytes=102400" : NULL, k ? "ok" : "high");
    }
}

/* A small_bytes between bin edges is rounded down to one: 65536 counts
 * the bins up to 10 KiB; below 100 bytes there is no bin at all. */
static void
test_small_bytes_rounds_to_a_bin_edge(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path;
    struct tokio_darshan_writer *w = new_job(4, NULL);
    struct run r = { NULL, "small_bytes=65536", NULL, NULL, NULL, 0 };
    json_t *res;

    (void)state;
    add(w, TOKIO_DARSHAN_POSIX, "/scratch/u/a", 0,
        "POSIX_READS=5000 POSIX_SIZE_READ_1K_10K=1500 "
        "POSIX_SIZE_READ_10K_100K=3500");
    path = save(w, dir, "job.darshan");
    res = insights(path, &r);
    assert_true(number(res, "small_reads", "small_bytes") == 10240);
    assert_true(number(res, "small_reads", "small") == 1500);
    json_decref(res);
    r.override = "small_bytes=99";
    res = insights(path, &r);
    assert_string_equal(level(res, "small_reads"), "n/a");
    assert_contains(title(res, "small_reads"), "smallest access-size bin");
    json_decref(res);
    tokio_test_rmtree(dir);
    free(dir);
    free(path);
}

/* Misaligned: share of requests > 0.1: 101 of 1000 (high), 100 (ok). */
static void
test_misaligned_both_sides(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        char spec[160];
        snprintf(spec, sizeof(spec), "POSIX_WRITES=1000 "
                 "POSIX_MEM_NOT_ALIGNED=%d POSIX_FILE_NOT_ALIGNED=%d",
                 k ? 100 : 101, k ? 100 : 101);
        expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/a", -1, spec,
                "misaligned_memory", NULL, k ? "ok" : "high");
        expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/a", -1, spec,
                "misaligned_file", NULL, k ? "ok" : "high");
    }
}

/* Regression (Drishti looked for a module "HF5", so its HDF5 alignment
 * advice never appeared): with H5F records the advice names
 * H5Pset_alignment, without them it does not. */
static void
test_misaligned_file_advises_h5pset_alignment_for_hdf5(void **state)
{
    (void)state;
    for (int hdf5 = 0; hdf5 < 2; hdf5++) {
        struct tokio_darshan_writer *w = new_job(4, NULL);
        struct run r = { NULL, NULL, NULL, NULL, NULL, 0 };
        add(w, TOKIO_DARSHAN_POSIX, "/scratch/u/a.h5", -1,
            "POSIX_WRITES=1000 POSIX_FILE_NOT_ALIGNED=500");
        if (hdf5)
            add(w, TOKIO_DARSHAN_H5F, "/scratch/u/a.h5", -1, "H5F_OPENS=1");
        json_t *res = insights_of(w, &r);
        assert_string_equal(level(res, "misaligned_file"), "high");
        const char *rec = json_string_value(json_object_get(
            finding(res, "misaligned_file"), "recommendation"));
        assert_int_equal(strstr(rec, "H5Pset_alignment") != NULL, hdf5);
        json_decref(res);
    }
}

/* Redundant reads: bytes beyond the extent (MAX_BYTE_READ + 1).  2000
 * bytes read of a 1000-byte extent re-read 1000 (warning); 1000 read
 * re-read nothing (ok).  With redundant_traffic=0.5 the share 0.5 is not
 * above it (ok), 1001 of 2001 is (warning). */
static void
test_redundant_reads_both_sides(void **state)
{
    static const struct {
        int bytes; const char *override, *level;
    } cases[] = {
        { 2000, NULL, "warning" }, { 1000, NULL, "ok" },
        { 2000, "redundant_traffic=0.5", "ok" },
        { 2001, "redundant_traffic=0.5", "warning" },
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        char spec[160];
        snprintf(spec, sizeof(spec), "POSIX_READS=10 POSIX_BYTES_READ=%d "
                 "POSIX_MAX_BYTE_READ=999", cases[i].bytes);
        expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/in", -1, spec,
                "redundant_reads", cases[i].override, cases[i].level);
    }
    expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/out", 0, "POSIX_WRITES=10 "
            "POSIX_BYTES_WRITTEN=3000 POSIX_MAX_BYTE_WRITTEN=999",
            "redundant_writes", NULL, "warning");
}

/* Random: reads - sequential, share > 0.2 and count > 1000.  10000
 * reads with 7999 sequential leave 2001 random (high); 8000 leave 2000
 * (ok). */
static void
test_random_reads_both_sides(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        char spec[160];
        snprintf(spec, sizeof(spec), "POSIX_READS=10000 POSIX_SEQ_READS=%d "
                 "POSIX_CONSEC_READS=5000", k ? 8000 : 7999);
        expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/a", 0, spec,
                "random_reads", NULL, k ? "ok" : "high");
    }
}

/* Consecutive requests are sequential too: a log with consecutive but
 * no sequential writes (as some writers make them) is not random. */
static void
test_random_writes_takes_consecutive_as_sequential(void **state)
{
    struct tokio_darshan_writer *w = new_job(4, NULL);

    (void)state;
    add(w, TOKIO_DARSHAN_POSIX, "/scratch/u/a", 0,
        "POSIX_WRITES=4096 POSIX_CONSEC_WRITES=4096");
    expect(w, "random_writes", NULL, "ok");
}

/* Metadata time per rank > 30 s: rank 1's two records of 15.0005 s
 * make 30.001 s (high; Drishti counted records, each under 30 s, and
 * said nothing); two of 15 s make 30 s (ok).  A shared record's time is
 * spread over the ranks: 4 ranks and 124 s shared give each 31 s. */
static void
test_metadata_time_per_rank(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        struct tokio_darshan_writer *w = new_job(4, NULL);
        const char *spec = k ? "POSIX_OPENS=1 POSIX_F_META_TIME=15"
                             : "POSIX_OPENS=1 POSIX_F_META_TIME=15.0005";
        add(w, TOKIO_DARSHAN_POSIX, "/scratch/u/a", 1, spec);
        add(w, TOKIO_DARSHAN_POSIX, "/scratch/u/b", 1, spec);
        expect(w, "metadata_time", NULL, k ? "ok" : "high");
    }
    expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/a", -1,
            "POSIX_OPENS=4 POSIX_F_META_TIME=124", "metadata_time", NULL,
            "high");
}

/* Stragglers on a shared file: |slowest - fastest| / total > 0.15.
 * Bytes: 400 and 249 of 1000 is 0.151 (high), 400 and 250 is 0.15 (ok).
 * Time: 30 and 14.9 of 100 s is 0.151 (high), 30 and 15 (ok). */
static void
test_stragglers_both_sides(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        char spec[256];
        snprintf(spec, sizeof(spec), "POSIX_WRITES=10 "
                 "POSIX_BYTES_WRITTEN=1000 POSIX_SLOWEST_RANK_BYTES=400 "
                 "POSIX_FASTEST_RANK_BYTES=%d POSIX_F_WRITE_TIME=100 "
                 "POSIX_F_SLOWEST_RANK_TIME=30 POSIX_F_FASTEST_RANK_TIME=%s",
                 k ? 250 : 249, k ? "15" : "14.9");
        expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/a", -1, spec,
                "straggler_bytes", NULL, k ? "ok" : "high");
        expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/a", -1, spec,
                "straggler_time", NULL, k ? "ok" : "high");
    }
}

/* Ranks' own files: (max - min) / max > 0.3.  1000 and 699 bytes is
 * 0.301 (high), 1000 and 700 is 0.3 (ok).  Ranks without files of their
 * own are not compared. */
static void
test_rank_imbalance_both_sides(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        struct tokio_darshan_writer *w = new_job(8, NULL);
        char spec[96], name[64];
        for (int r = 0; r < 4; r++) {
            snprintf(spec, sizeof(spec), "POSIX_WRITES=1 "
                     "POSIX_BYTES_WRITTEN=%d",
                     r < 3 ? 1000 : k ? 700 : 699);
            snprintf(name, sizeof(name), "/scratch/u/rank%d", r);
            add(w, TOKIO_DARSHAN_POSIX, name, r, spec);
        }
        expect(w, "rank_imbalance_writes", NULL, k ? "ok" : "high");
    }
}

/* Collective reads: share < 0.5 and operations > 1000.  501 independent
 * and 500 collective (1001, 0.4995) is high; 500 and 501 (0.5005) is ok;
 * 500 and 500 (1000 operations) is ok. */
static void
test_collective_reads_both_sides(void **state)
{
    static const struct { int indep, coll; const char *level; } cases[] = {
        { 501, 500, "high" }, { 500, 501, "ok" }, { 500, 500, "ok" },
        { 1001, 0, "high" },
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        char spec[128];
        snprintf(spec, sizeof(spec), "MPIIO_INDEP_READS=%d "
                 "MPIIO_COLL_READS=%d MPIIO_NB_READS=1", cases[i].indep,
                 cases[i].coll);
        expect1(TOKIO_DARSHAN_MPIIO, "/scratch/u/a", -1, spec,
                "collective_reads", NULL, cases[i].level);
    }
}

/* Non-blocking writes: none among MPI-IO writes is a warning, one is ok,
 * and a job without MPI-IO is not evaluated. */
static void
test_nonblocking_writes(void **state)
{
    (void)state;
    expect1(TOKIO_DARSHAN_MPIIO, "/scratch/u/a", -1, "MPIIO_COLL_WRITES=10",
            "nonblocking_writes", NULL, "warning");
    expect1(TOKIO_DARSHAN_MPIIO, "/scratch/u/a", -1,
            "MPIIO_COLL_WRITES=10 MPIIO_NB_WRITES=1", "nonblocking_writes",
            NULL, "ok");
    expect1(TOKIO_DARSHAN_POSIX, "/scratch/u/a", -1, "POSIX_WRITES=10",
            "nonblocking_writes", NULL, "n/a");
}

/* HDF5 and PnetCDF: small accesses as for POSIX (1001 of 10000 high,
 * 1000 ok); collective transfers below half of more than 1000 accesses
 * is high. */
static void
test_hdf5_and_pnetcdf_rules(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        struct tokio_darshan_writer *w = new_job(4, NULL);
        char spec[160];
        add(w, TOKIO_DARSHAN_H5F, "/scratch/u/a.h5", -1,
            "H5F_OPENS=4 H5F_USE_MPIIO=1");
        snprintf(spec, sizeof(spec), "H5D_READS=10000 "
                 "H5D_SIZE_READ_AGG_0_100=%d H5D_SIZE_READ_AGG_1M_4M=%d",
                 k ? 1000 : 1001, k ? 9000 : 8999);
        add(w, TOKIO_DARSHAN_H5D, "/scratch/u/a.h5:/data", -1, spec);
        expect(w, "hdf5_small_dataset_access", NULL, k ? "ok" : "high");

        w = new_job(4, NULL);
        add(w, TOKIO_DARSHAN_H5F, "/scratch/u/a.h5", -1,
            "H5F_OPENS=4 H5F_USE_MPIIO=1");
        snprintf(spec, sizeof(spec), "H5D_WRITES=1001 "
                 "H5D_USE_MPIIO_COLLECTIVE=%d", k);
        add(w, TOKIO_DARSHAN_H5D, "/scratch/u/a.h5:/data", -1, spec);
        expect(w, "hdf5_collective_dataset_access", NULL, k ? "ok" : "high");

        w = new_job(4, NULL);
        snprintf(spec, sizeof(spec), "PNETCDF_VAR_COLL_WRITES=10000 "
                 "PNETCDF_VAR_SIZE_WRITE_AGG_100_1K=%d",
                 k ? 1000 : 1001);
        add(w, TOKIO_DARSHAN_PNETCDF_VAR, "/scratch/u/a.nc:v", -1, spec);
        expect(w, "pnetcdf_small_var_access", NULL, k ? "ok" : "high");

        w = new_job(4, NULL);
        snprintf(spec, sizeof(spec), "PNETCDF_VAR_INDEP_WRITES=%d "
                 "PNETCDF_VAR_COLL_WRITES=%d", k ? 500 : 501, k ? 501 : 500);
        add(w, TOKIO_DARSHAN_PNETCDF_VAR, "/scratch/u/a.nc:v", -1, spec);
        expect(w, "pnetcdf_collective_var_access", NULL, k ? "ok" : "high");
    }
}

/* Serial HDF5 (files opened without MPI-IO): collective transfers do not
 * apply, whatever the datasets did. */
static void
test_hdf5_serial_files_are_ok(void **state)
{
    struct tokio_darshan_writer *w = new_job(4, NULL);

    (void)state;
    add(w, TOKIO_DARSHAN_H5F, "/scratch/u/a.h5", 0, "H5F_OPENS=1");
    add(w, TOKIO_DARSHAN_H5D, "/scratch/u/a.h5:/d", 0, "H5D_WRITES=5000");
    expect(w, "hdf5_collective_dataset_access", NULL, "ok");
}

/* A log with STDIO alone: the POSIX, MPI-IO, HDF5 and PnetCDF rules say
 * they were not evaluated and why; the top files name the files. */
static void
test_missing_modules_are_not_evaluated(void **state)
{
    struct tokio_darshan_writer *w = new_job(1, NULL);
    struct run r = { NULL, NULL, NULL, NULL, NULL, 0 };
    json_t *res;

    (void)state;
    add(w, TOKIO_DARSHAN_STDIO, "/scratch/u/params.txt", 0,
        "STDIO_BYTES_READ=100");
    res = insights_of(w, &r);
    assert_string_equal(level(res, "stdio_share"), "high");
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(finding(res, "stdio_share"), "files"), 0), "name")),
        "/scratch/u/params.txt");
    assert_string_equal(level(res, "small_reads"), "n/a");
    assert_contains(title(res, "small_reads"), "no POSIX module");
    assert_string_equal(level(res, "collective_reads"), "n/a");
    assert_contains(title(res, "collective_reads"), "no MPI-IO module");
    assert_string_equal(level(res, "hdf5_small_dataset_access"), "n/a");
    assert_string_equal(level(res, "pnetcdf_collective_var_access"), "n/a");
    assert_string_equal(level(res, "fs_contention"), "n/a");
    assert_contains(title(res, "fs_contention"), "--client-only");
    json_decref(res);
}

/* ---- server side --------------------------------------------------------- */

/* One TTS dataset of 2 columns over 01:00-03:00 of the job's day, every
 * 5 s: `inside` per cell in the job's window [02:00:00, 02:01:45),
 * `outside` elsewhere, and `peak` at 01:30. */
static void
tts(const char *path, const char *dataset, double inside, double outside,
    double peak)
{
    static const char *const cols[] = { "OST0000", "OST0001" };
    int64_t start = t0() - 3600, w0 = t0(), w1 = t0() + 105;
    struct tokio_timeseries *ts = NULL;

    assert_int_equal(tokio_timeseries_new(&ts, dataset, start, start + 7200,
                                          5, 2, cols, 2), TOKIO_OK);
    for (size_t r = 0; r < tokio_timeseries_rows(ts); r++) {
        int64_t t = tokio_timeseries_timestamps(ts)[r];
        double v = t >= w0 && t < w1 ? inside
                   : t == t0() - 1800 ? peak : outside;
        tokio_timeseries_data(ts)[2 * r] = v;
        tokio_timeseries_data(ts)[2 * r + 1] = v;
    }
    tokio_test_tts_write(path, ts);
    tokio_timeseries_free(ts);
}

/*
 * The site in `dir`: /scratch is "scratch" (backend snx11035), whose TTS
 * file of the day has 1 GiB written per step in the job's window (21
 * steps of 2 columns of 512 MiB: 21 GiB) and 10 MiB elsewhere, with a
 * peak of 4 GiB per column at 01:30; OSS CPU 50%, MDS CPU 85%; and lfs
 * df and lctl dl -t histories of the day.
 */
static struct tokio_config *
site(const char *dir)
{
    struct tokio_config *cfg = NULL;
    char path[4096], text[4096];
    int64_t before = t0() - 600, after = t0() + 600;

    snprintf(path, sizeof(path), "%s/2019-02-14", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof(path), "%s/2019-02-14/scr.hdf5", dir);
    tts(path, "datatargets/writebytes", 512.0 * MIB, 10.0 * MIB,
        4.0 * GIB);
    tts(path, "datatargets/readbytes", 0, 0, 0);
    tts(path, "dataservers/cpuload", 50, 50, 50);
    tts(path, "mdservers/cpuload", 85, 10, 10);
    /* fullness before the start: OST 1 at 90%, OST 2 at 91%; after it
     * OST 1 at 99% (a snapshot the rule must not use) */
    snprintf(path, sizeof(path), "%s/2019-02-14/osts.txt", dir);
    snprintf(text, sizeof(text),
             "BEGIN %lld\n"
             "UUID 1K-blocks Used Available Use%% Mounted on\n"
             "snx11035-MDT0000_UUID 10000 100 9900 1%% /scratch[MDT:0]\n"
             "snx11035-OST0000_UUID 10000 5000 5000 50%% /scratch[OST:0]\n"
             "snx11035-OST0001_UUID 10000 9000 1000 90%% /scratch[OST:1]\n"
             "snx11035-OST0002_UUID 10000 9100 900 91%% /scratch[OST:2]\n"
             "BEGIN %lld\n"
             "snx11035-OST0000_UUID 10000 5000 5000 50%% /scratch[OST:0]\n"
             "snx11035-OST0001_UUID 10000 9900 100 99%% /scratch[OST:1]\n"
             "snx11035-OST0002_UUID 10000 9100 900 91%% /scratch[OST:2]\n",
             (long long)before, (long long)after);
    tokio_test_write_file(path, text, SIZE_MAX);
    /* the OST map before the start: servers .1 and .2 hold two OSTs
     * each, .3 holds four (4-7: .4's, failed over) */
    snprintf(path, sizeof(path), "%s/2019-02-14/ost-map.txt", dir);
    size_t n = (size_t)snprintf(text, sizeof(text), "BEGIN %lld\n",
                                (long long)before);
    for (int o = 0; o < 8; o++)
        n += (size_t)snprintf(text + n, sizeof(text) - n,
                              "%3d UP osc snx11035-OST%04x-osc-ffff88 "
                              "8dbdc7f6-8f86 5 10.0.0.%d@o2ib\n", o + 4, o,
                              o < 2 ? 1 : o < 4 ? 2 : 3);
    tokio_test_write_file(path, text, SIZE_MAX);
    snprintf(text, sizeof(text),
             "{\"mount_to_fsname\": {\"^/scratch\": \"scratch\"},"
             " \"fsname_to_backend_name\": {\"scratch\": \"snx11035\"},"
             " \"hdf5_files\": {\"scratch\": \"%s/%%Y-%%m-%%d/scr.hdf5\"},"
             " \"lfsstatus_fullness_files\": \"%s/%%Y-%%m-%%d/osts.txt\","
             " \"lfsstatus_map_files\": \"%s/%%Y-%%m-%%d/ost-map.txt\"}",
             dir, dir, dir);
    assert_int_equal(tokio_config_open_mem(&cfg, text, strlen(text), "site"),
                     TOKIO_OK);
    return cfg;
}

/* A job writing `bytes` to /scratch/u/out on OSTs `osts`. */
static char *
server_log(const char *dir, const char *name, long long bytes,
           const int64_t *osts, size_t n_osts, const char *extra)
{
    struct tokio_darshan_writer *w = new_job(4, NULL);
    char spec[256];

    snprintf(spec, sizeof(spec), "POSIX_WRITES=100 POSIX_BYTES_WRITTEN=%lld "
             "POSIX_F_WRITE_TIME=10 %s", bytes, extra ? extra : "");
    add(w, TOKIO_DARSHAN_POSIX, "/scratch/u/out", -1, spec);
    if (n_osts > 0)
        add_lustre(w, "/scratch/u/out", osts, n_osts);
    return save(w, dir, name);
}

/*
 * Contention.  The window holds 21 GiB of the file system's bytes; the
 * peak (8 GiB per 5 s step) is 8 times the window's mean rate, so the
 * load is 0.125.  A job of 2 GiB covers 2/21 (below 0.5: others moved
 * the bytes) on an unloaded file system: info.  With fs_load at exactly
 * the load the file system counts as busy: high; just above it: info
 * again.  A job of 21 GiB covers all of it: ok.  OSS CPU at 50% is busy
 * with oss_cpu_pct=50.
 */
static void
test_fs_contention_both_sides(void **state)
{
    char *dir = tokio_test_mkdtemp(), *small, *big, over[64];
    struct tokio_config *cfg = site(dir);
    struct run r = { cfg, NULL, NULL, NULL, NULL, 1 };
    json_t *res;

    (void)state;
    small = server_log(dir, "small.darshan", 2 * GIB, NULL, 0, NULL);
    big = server_log(dir, "big.darshan", 21 * GIB, NULL, 0, NULL);
    res = insights(small, &r);
    assert_string_equal(json_string_value(json_object_get(res,
                                                          "file_system")),
                        "scratch");
    assert_string_equal(level(res, "fs_contention"), "info");
    /* independently: 21 steps x 2 columns x 512 MiB */
    /* (the rates are bytes / 5 s, summed and times 5 s again: equal to
     * a few ulps) */
    assert_true(fabs(number(res, "fs_contention", "fs_bytes") / (21.0 * GIB)
                     - 1) < 1e-12);
    assert_true(fabs(number(res, "fs_contention", "coverage_factor") -
                     2.0 / 21) < 1e-12);
    double load = number(res, "fs_contention", "fs_load");
    assert_true(fabs(load - 0.125) < 1e-12);
    json_decref(res);
    snprintf(over, sizeof(over), "fs_load=%.17g", load);
    r.override = over;
    res = insights(small, &r);
    assert_string_equal(level(res, "fs_contention"), "high");
    assert_non_null(json_object_get(finding(res, "fs_contention"),
                                    "recommendation"));
    json_decref(res);
    snprintf(over, sizeof(over), "fs_load=%.17g", nextafter(load, 1));
    res = insights(small, &r);
    assert_string_equal(level(res, "fs_contention"), "info");
    json_decref(res);
    r.override = "oss_cpu_pct=50";
    res = insights(small, &r);
    assert_string_equal(level(res, "fs_contention"), "high");
    json_decref(res);
    r.override = NULL;
    res = insights(big, &r);
    assert_string_equal(level(res, "fs_contention"), "ok");
    double cov = number(res, "fs_contention", "coverage_factor");
    assert_true(fabs(cov - 1) < 1e-12);
    json_decref(res);
    /* the coverage's own boundary: at coverage_factor = the coverage the
     * job is not below it (ok); just above, other jobs' bytes count
     * (info, the file system being unloaded) */
    snprintf(over, sizeof(over), "coverage_factor=%.17g", cov);
    r.override = over;
    res = insights(big, &r);
    assert_string_equal(level(res, "fs_contention"), "ok");
    json_decref(res);
    snprintf(over, sizeof(over), "coverage_factor=%.17g", nextafter(cov, 2));
    res = insights(big, &r);
    assert_string_equal(level(res, "fs_contention"), "info");
    json_decref(res);
    tokio_config_free(cfg);
    tokio_test_rmtree(dir);
    free(dir);
    free(small);
    free(big);
}

/* Full OSTs at the start: more than 90% full.  OST 2 (91%) is; OST 1
 * (90% before the start, 99% after it) is not. */
static void
test_ost_full_both_sides(void **state)
{
    char *dir = tokio_test_mkdtemp(), *a, *b;
    struct tokio_config *cfg = site(dir);
    struct run r = { cfg, NULL, NULL, NULL, NULL, 1 };
    static const int64_t on_full[] = { 0, 2 }, on_ninety[] = { 0, 1 };
    json_t *res;

    (void)state;
    a = server_log(dir, "a.darshan", GIB, on_full, 2, NULL);
    b = server_log(dir, "b.darshan", GIB, on_ninety, 2, NULL);
    res = insights(a, &r);
    assert_string_equal(level(res, "ost_full"), "high");
    assert_true(number(res, "ost_full", "fullest_ost") == 2);
    assert_true(number(res, "ost_full", "fullest_pct") == 91);
    assert_true(number(res, "ost_full", "snapshot_time") ==
                (double)(t0() - 600));
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(finding(res, "ost_full"), "files"), 0), "name")),
        "/scratch/u/out");
    json_decref(res);
    res = insights(b, &r);
    assert_string_equal(level(res, "ost_full"), "ok");
    assert_true(number(res, "ost_full", "fullest_pct") == 90);
    json_decref(res);
    /* the saved history given instead of the site's */
    char hist[4096];
    snprintf(hist, sizeof(hist), "%s/2019-02-14/osts.txt", dir);
    r.ost_fullness = hist;
    r.cfg = NULL;
    res = insights(a, &r);
    assert_string_equal(level(res, "ost_full"), "n/a");     /* fs unknown */
    json_decref(res);
    tokio_config_free(cfg);
    tokio_test_rmtree(dir);
    free(dir);
    free(a);
    free(b);
}

/* Failovers: OSTs 4-7 sit on a server holding four OSTs where two is
 * usual.  A file on OST 5 is on one (high); on OST 1 it is not (ok). */
static void
test_ost_failover_both_sides(void **state)
{
    char *dir = tokio_test_mkdtemp(), *a, *b;
    struct tokio_config *cfg = site(dir);
    struct run r = { cfg, NULL, NULL, NULL, NULL, 1 };
    static const int64_t failed[] = { 5 }, fine[] = { 1 };
    json_t *res;

    (void)state;
    a = server_log(dir, "a.darshan", GIB, failed, 1, NULL);
    b = server_log(dir, "b.darshan", GIB, fine, 1, NULL);
    res = insights(a, &r);
    assert_string_equal(level(res, "ost_failover"), "high");
    assert_true(number(res, "ost_failover", "osts_failed_over") == 1);
    assert_true(number(res, "ost_failover", "usual_osts_per_server") == 2);
    json_decref(res);
    res = insights(b, &r);
    assert_string_equal(level(res, "ost_failover"), "ok");
    json_decref(res);
    tokio_config_free(cfg);
    tokio_test_rmtree(dir);
    free(dir);
    free(a);
    free(b);
}

/* Lustre records without OST ids: the OST rules say so. */
static void
test_lustre_without_osts_is_not_evaluated(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path;
    struct tokio_config *cfg = site(dir);
    struct run r = { cfg, NULL, NULL, NULL, NULL, 1 };
    struct tokio_darshan_writer *w = new_job(4, NULL);
    struct tokio_darshan_lustre_comp comp = { { 0 }, "" };
    json_t *res;

    (void)state;
    add(w, TOKIO_DARSHAN_POSIX, "/scratch/u/out", -1,
        "POSIX_WRITES=1 POSIX_BYTES_WRITTEN=10");
    comp.counters[0] = MIB;
    assert_int_equal(tokio_darshan_writer_add_lustre(
                         w, tokio_darshan_writer_hash("/scratch/u/out"), -1,
                         &comp, 1, NULL, 0), TOKIO_OK);
    path = save(w, dir, "job.darshan");
    res = insights(path, &r);
    for (size_t i = 0; i < 3; i++) {
        static const char *const codes[] = { "ost_full", "ost_failover",
                                             "slow_ost" };
        assert_string_equal(level(res, codes[i]), "n/a");
        assert_contains(title(res, codes[i]), "no OST ids");
    }
    json_decref(res);
    tokio_config_free(cfg);
    tokio_test_rmtree(dir);
    free(dir);
    free(path);
}

/*
 * A slow OST: 24 shared files of 100 MiB, file k alone on OST k % 6;
 * those on OST 3 take 100 s, the others 1 + 0.05 k s.  scipy.stats.
 * pearsonr gives OST 3 r = -0.8622 (p = 6.1e-8): high.  With
 * slow_ost_coefficient at exactly -r it is no longer beyond it: ok.
 * Files all alike but for a slow trend (1 + 0.05 k s everywhere) give no
 * OST beyond -0.5 (the lowest r is -0.16): ok.
 */
static void
test_slow_ost_both_sides(void **state)
{
    char *dir = tokio_test_mkdtemp(), *paths[2], over[64];
    struct tokio_config *cfg = site(dir);
    struct run r = { cfg, NULL, NULL, NULL, NULL, 1 };
    json_t *res;

    (void)state;
    for (int k = 0; k < 2; k++) {
        struct tokio_darshan_writer *w = new_job(4, NULL);
        for (int i = 0; i < 24; i++) {
            char name[64], spec[160];
            int64_t ost = i % 6;
            double t = k == 0 && ost == 3 ? 100 : 1 + 0.05 * i;
            snprintf(name, sizeof(name), "/scratch/u/f%02d", i);
            snprintf(spec, sizeof(spec), "POSIX_WRITES=100 "
                     "POSIX_BYTES_WRITTEN=%lld POSIX_F_WRITE_TIME=%.17g",
                     100 * MIB, t);
            add(w, TOKIO_DARSHAN_POSIX, name, -1, spec);
            add_lustre(w, name, &ost, 1);
        }
        paths[k] = save(w, dir, k ? "even.darshan" : "slow.darshan");
    }
    res = insights(paths[0], &r);
    assert_string_equal(level(res, "slow_ost"), "high");
    assert_true(number(res, "slow_ost", "worst_ost") == 3);
    double rr = number(res, "slow_ost", "worst_coefficient");
    assert_true(fabs(rr - -0.8622037764121947) < 1e-9);
    assert_true(number(res, "slow_ost", "files") == 24);
    assert_contains(title(res, "slow_ost"), "OST#3");
    json_decref(res);
    snprintf(over, sizeof(over), "slow_ost_coefficient=%.17g", -rr);
    r.override = over;
    res = insights(paths[0], &r);
    assert_string_equal(level(res, "slow_ost"), "ok");
    json_decref(res);
    r.override = NULL;
    res = insights(paths[1], &r);
    assert_string_equal(level(res, "slow_ost"), "ok");
    json_decref(res);
    tokio_config_free(cfg);
    tokio_test_rmtree(dir);
    free(dir);
    free(paths[0]);
    free(paths[1]);
}

/* Metadata pressure: a rank with 40 s of metadata while the MDS ran at
 * 85% (mds_cpu_pct 80) is a warning; at mds_cpu_pct=85.0001 it is info;
 * light metadata is ok whatever the MDS did. */
static void
test_metadata_pressure_both_sides(void **state)
{
    char *dir = tokio_test_mkdtemp(), *heavy, *light;
    struct tokio_config *cfg = site(dir);
    struct run r = { cfg, NULL, NULL, NULL, NULL, 1 };
    struct tokio_darshan_writer *w = new_job(4, NULL);
    json_t *res;

    (void)state;
    add(w, TOKIO_DARSHAN_POSIX, "/scratch/u/a", 0,
        "POSIX_OPENS=1000 POSIX_WRITES=1 POSIX_BYTES_WRITTEN=1 "
        "POSIX_F_META_TIME=40");
    heavy = save(w, dir, "heavy.darshan");
    light = server_log(dir, "light.darshan", GIB, NULL, 0, NULL);
    res = insights(heavy, &r);
    assert_string_equal(level(res, "metadata_pressure"), "warning");
    assert_true(number(res, "metadata_pressure", "max_mds_cpu") == 85);
    json_decref(res);
    r.override = "mds_cpu_pct=85.0001";
    res = insights(heavy, &r);
    assert_string_equal(level(res, "metadata_pressure"), "info");
    json_decref(res);
    r.override = NULL;
    res = insights(light, &r);
    assert_string_equal(level(res, "metadata_pressure"), "ok");
    json_decref(res);
    tokio_config_free(cfg);
    tokio_test_rmtree(dir);
    free(dir);
    free(heavy);
    free(light);
}

/* This run's POSIX performance, as darshan-parser --perf computes it. */
static double
perf_of(const char *path)
{
    struct tokio_darshan *log = NULL;
    struct tokio_darshan_perf p;

    assert_true(tokio_darshan_open(&log, path) >= 0);
    assert_int_equal(tokio_darshan_perf(log, TOKIO_DARSHAN_POSIX, &p),
                     TOKIO_OK);
    tokio_darshan_free(log);
    return p.agg_perf_by_slowest;
}

/*
 * History: 10 earlier runs of ./app at twice this run's performance put
 * it in the worst quartile (a warning: worse than 100% of them); at half
 * of it, the best (ok).  20 runs of another application, far slower, are
 * left out (with them this run would not be the worst), as is a row of
 * this very job.  Without --history the rule says so.
 */
static void
test_history_both_sides(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path, *csv = tokio_test_join(dir,
                                                                   "h.csv");
    struct run r = { NULL, NULL, NULL, NULL, NULL, 1 };
    json_t *res;

    (void)state;
    path = server_log(dir, "job.darshan", GIB, NULL, 0,
                      "POSIX_F_SLOWEST_RANK_TIME=10");
    double perf = perf_of(path);
    assert_true(perf > 0);
    for (int k = 0; k < 2; k++) {
        char text[8192];
        size_t n = (size_t)snprintf(text, sizeof(text), "_datetime_start,"
                                    "_jobid,darshan_app,"
                                    "darshan_agg_perf_by_slowest_posix\n");
        for (int i = 0; i < 30; i++)
            n += (size_t)snprintf(text + n, sizeof(text) - n,
                                  "2019-01-%02d 02:00:00,%d,%s,%.6f\n",
                                  i + 1, 100 + i, i < 10 ? "./app" : "other",
                                  i < 10 ? perf * (k ? 0.5 : 2)
                                         : perf * 0.01);
        n += (size_t)snprintf(text + n, sizeof(text) - n,
                              "2019-02-14 02:00:00,777,./app,%.6f\n",
                              perf * 0.001);
        tokio_test_write_file(csv, text, n);
        r.history = csv;
        res = insights(path, &r);
        assert_string_equal(level(res, "history"), k ? "ok" : "warning");
        assert_true(number(res, "history", "runs") == 10);
        assert_true(number(res, "history",
                           "darshan_agg_perf_by_slowest_posix_quartile") ==
                    (k ? 4 : 1));
        assert_true(number(res, "history", "darshan_agg_perf_by_slowest_"
                           "posix_runs_better_share") == (k ? 0 : 1));
        json_decref(res);
    }
    /* history_runs=3 keeps the latest three */
    r.override = "history_runs=3";
    res = insights(path, &r);
    assert_true(number(res, "history", "runs") == 3);
    json_decref(res);
    r.override = NULL;
    r.history = NULL;
    res = insights(path, &r);
    assert_string_equal(level(res, "history"), "n/a");
    assert_contains(title(res, "history"), "--history");
    json_decref(res);
    tokio_test_rmtree(dir);
    free(dir);
    free(path);
    free(csv);
}

/* cb_nodes=4 against the job's nodes from its saved Slurm record: 2
 * nodes is high (several aggregators per node), 4 ok, 8 info; without the
 * record the count is unknown. */
static void
test_cb_nodes_against_slurm_nodes(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path, *slurm = tokio_test_join(
                                                   dir, "job.json");
    struct tokio_darshan_writer *w = new_job(16, "romio_no_indep_rw=true;"
                                                 "cb_nodes=4");
    struct run r = { NULL, NULL, NULL, NULL, NULL, 1 };
    static const struct { int nodes; const char *level; } cases[] = {
        { 2, "high" }, { 4, "ok" }, { 8, "info" }
    };
    json_t *res;

    (void)state;
    add(w, TOKIO_DARSHAN_MPIIO, "/scratch/u/a", -1, "MPIIO_COLL_WRITES=10");
    path = save(w, dir, "job.darshan");
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        char text[1024];
        size_t n = (size_t)snprintf(text, sizeof(text), "{\"777\": "
                                    "{\"jobidraw\": \"777\", \"start\": "
                                    "\"2019-02-14T02:00:00\", \"end\": "
                                    "\"2019-02-14T02:01:40\", "
                                    "\"nodelist\": [");
        for (int k = 0; k < cases[i].nodes; k++)
            n += (size_t)snprintf(text + n, sizeof(text) - n, "%s\"nid%05d\"",
                                  k ? ", " : "", k);
        snprintf(text + n, sizeof(text) - n, "]}}");
        tokio_test_write_file(slurm, text, SIZE_MAX);
        r.slurm = slurm;
        res = insights(path, &r);
        assert_string_equal(level(res, "cb_nodes"), cases[i].level);
        assert_true(number(res, "cb_nodes", "cb_nodes") == 4);
        assert_true(number(res, "cb_nodes", "nodes") == cases[i].nodes);
        json_decref(res);
    }
    r.server = 0;
    res = insights(path, &r);
    assert_string_equal(level(res, "cb_nodes"), "n/a");
    json_decref(res);
    tokio_test_rmtree(dir);
    free(dir);
    free(path);
    free(slurm);
}

/* No site at all: the server side says why for each rule and nothing
 * fails; a known file system without TTS data says that. */
static void
test_no_site_data_degrades_to_the_client_side(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path;
    static const int64_t osts[] = { 1 };
    struct run r = { NULL, NULL, NULL, NULL, NULL, 1 };
    struct tokio_config *cfg = NULL;
    const char *text = "{\"mount_to_fsname\": {\"^/scratch\": \"scratch\"},"
                       " \"hdf5_files\": {\"scratch\": \"/nonexistent/"
                       "%Y/x.hdf5\"}}";
    json_t *res;

    (void)state;
    path = server_log(dir, "job.darshan", GIB, osts, 1, NULL);
    res = insights(path, &r);
    assert_string_equal(level(res, "fs_contention"), "n/a");
    assert_contains(title(res, "fs_contention"), "file system is unknown");
    assert_string_equal(level(res, "ost_full"), "n/a");
    assert_string_equal(level(res, "ost_failover"), "n/a");
    assert_string_equal(level(res, "small_writes"), "ok");
    json_decref(res);
    assert_int_equal(tokio_config_open_mem(&cfg, text, strlen(text), "site"),
                     TOKIO_OK);
    r.cfg = cfg;
    res = insights(path, &r);
    assert_string_equal(level(res, "fs_contention"), "n/a");
    assert_contains(title(res, "fs_contention"), "no TTS/H5LMT data");
    assert_string_equal(json_string_value(json_object_get(res,
                                                          "file_system")),
                        "scratch");
    json_decref(res);
    tokio_config_free(cfg);
    tokio_test_rmtree(dir);
    free(dir);
    free(path);
}

/* ---- thresholds and bad input ------------------------------------------- */

static void
test_thresholds_defaults_site_and_overrides(void **state)
{
    struct tokio_config *cfg = NULL;
    const char *site = "{\"insights\": {\"small_requests\": 0.2, "
                       "\"metadata\": {\"time_rank\": 60}}}";
    const char *over[] = { "small_requests=0.3" };
    json_t *t = NULL;

    (void)state;
    assert_int_equal(tokio_insights_thresholds(&t, NULL, NULL, 0), TOKIO_OK);
    /* Drishti's defaults */
    assert_true(json_number_value(json_object_get(t, "small_bytes")) ==
                1048576);
    assert_true(json_number_value(json_object_get(t, "small_requests")) ==
                0.1);
    assert_true(json_number_value(json_object_get(t,
                                                  "metadata_time_rank")) ==
                30);
    json_decref(t);
    assert_int_equal(tokio_config_open_mem(&cfg, site, strlen(site), "site"),
                     TOKIO_OK);
    assert_int_equal(tokio_insights_thresholds(&t, cfg, NULL, 0), TOKIO_OK);
    assert_true(json_number_value(json_object_get(t, "small_requests")) ==
                0.2);
    assert_true(json_number_value(json_object_get(t,
                                                  "metadata_time_rank")) ==
                60);
    json_decref(t);
    assert_int_equal(tokio_insights_thresholds(&t, cfg, over, 1), TOKIO_OK);
    assert_true(json_number_value(json_object_get(t, "small_requests")) ==
                0.3);
    json_decref(t);
    tokio_config_free(cfg);
}

static void
test_bad_thresholds_are_refused(void **state)
{
    static const char *const bad[] = {
        "small_requests", "=3", "no_such=1", "small_requests=abc",
        "small_requests=1.5", "ost_full_pct=-1",
    };
    static const char *const sites[] = {
        "{\"insights\": 3}", "{\"insights\": {\"nope\": 1}}",
        "{\"insights\": {\"small_requests\": \"x\"}}",
        "{\"insights\": {\"small\": {\"requests\": 7}}}",
    };
    json_t *t = NULL;

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        assert_int_equal(tokio_insights_thresholds(&t, NULL, &bad[i], 1),
                         TOKIO_EINVAL);
        assert_null(t);
        assert_true(strlen(tokio_errmsg()) > 0);
    }
    assert_int_equal(tokio_insights_thresholds(&t, NULL, &bad[2], 1),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "small_requests_absolute");  /* lists */
    for (size_t i = 0; i < sizeof(sites) / sizeof(*sites); i++) {
        struct tokio_config *cfg = NULL;
        assert_int_equal(tokio_config_open_mem(&cfg, sites[i],
                                               strlen(sites[i]), "site"),
                         TOKIO_OK);
        assert_int_equal(tokio_insights_thresholds(&t, cfg, NULL, 0),
                         TOKIO_EFORMAT);
        assert_contains(tokio_errmsg(), "insights");
        tokio_config_free(cfg);
    }
}

/* A file that is no Darshan log, and an unreadable history, fail with a
 * message naming them. */
static void
test_bad_inputs_fail_naming_them(void **state)
{
    char *dir = tokio_test_mkdtemp(), *junk = tokio_test_join(dir, "junk");
    char *path, *csv = tokio_test_join(dir, "h.csv");
    struct tokio_insights_opts o = { 0 };
    json_t *res = NULL;

    (void)state;
    tokio_test_write_file(junk, "not a log", SIZE_MAX);
    assert_true(tokio_insights_log(&res, NULL, junk, NULL, &o) < 0);
    assert_null(res);
    assert_contains(tokio_errmsg(), junk);
    path = server_log(dir, "job.darshan", GIB, NULL, 0, NULL);
    tokio_test_write_file(csv, "a,b\n1\n", SIZE_MAX);
    o.history = csv;
    assert_int_equal(tokio_insights_log(&res, NULL, path, NULL, &o),
                     TOKIO_EFORMAT);
    assert_null(res);
    assert_contains(tokio_errmsg(), csv);
    tokio_test_rmtree(dir);
    free(dir);
    free(junk);
    free(path);
    free(csv);
}

/* ---- output forms -------------------------------------------------------- */

static char *
text_of(const json_t *res, int color)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_int_equal(tokio_insights_write_text(fp, res, color), TOKIO_OK);
    fclose(fp);
    return buf;
}

/* Text: high levels first, colour only when asked, names from the log
 * shown without their control characters; CSV: a column per rule. */
static void
test_text_and_csv(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path, *text, *buf = NULL;
    struct tokio_darshan_writer *w = new_job(4, NULL);
    struct run r = { NULL, NULL, NULL, NULL, NULL, 0 };
    json_t *res, *list;
    size_t len = 0;
    FILE *fp;

    (void)state;
    add(w, TOKIO_DARSHAN_STDIO, "/scratch/u/\033[2Jevil", 0,
        "STDIO_BYTES_WRITTEN=100");
    add(w, TOKIO_DARSHAN_POSIX, "/scratch/u/a", -1, "POSIX_WRITES=10");
    path = save(w, dir, "job.darshan");
    res = insights(path, &r);
    text = text_of(res, 0);
    assert_null(strchr(text, '\033'));
    assert_contains(text, "/scratch/u/?[2Jevil");
    char *high = strstr(text, "HIGH"), *ok = strstr(text, "\nok ");
    assert_non_null(high);
    assert_non_null(ok);
    assert_true(high < ok);
    assert_contains(text, "n/a      pnetcdf_small_var_access");
    free(text);
    text = text_of(res, 1);
    assert_contains(text, "\033[1;31mHIGH");
    free(text);
    list = json_pack("[O]", res);
    fp = open_memstream(&buf, &len);
    assert_int_equal(tokio_insights_write_csv(fp, list), TOKIO_OK);
    fclose(fp);
    assert_true(strncmp(buf, "log,jobid,stdio_share,no_mpiio,", 31) == 0);
    assert_contains(buf, "\n");
    assert_contains(strchr(buf, '\n'), ",777,high,warning,");
    assert_contains(buf, ",n/a,n/a");
    free(buf);
    json_decref(list);
    json_decref(res);
    tokio_test_rmtree(dir);
    free(dir);
    free(path);
}

/* Names from the log that are not UTF-8 are kept as their bytes (not an
 * out-of-memory failure, as json_string() would make it) and written as
 * U+FFFD. */
static void
test_names_not_utf8_are_kept(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path, *text = NULL;
    struct tokio_darshan_writer *w = new_job(4, NULL);
    struct run r = { NULL, NULL, NULL, NULL, NULL, 0 };
    json_t *res;

    (void)state;
    add(w, TOKIO_DARSHAN_STDIO, "/scratch/u/\xff\xfeout", 0,
        "STDIO_BYTES_WRITTEN=100");
    path = save(w, dir, "job\xff.darshan");
    res = insights(path, &r);
    assert_string_equal(level(res, "stdio_share"), "high");
    assert_int_equal(tokio_json_dumps(&text, res, 0), TOKIO_OK);
    assert_contains(text, "/scratch/u/\\ufffd\\ufffdout");
    free(text);
    json_decref(res);
    tokio_test_rmtree(dir);
    free(dir);
    free(path);
}

/* ---- anomalies ----------------------------------------------------------- */

struct oom_ctx {
    const char *path;
    const struct tokio_config *cfg;
    int server;
    const char *history;
};

static int
oom_trial(void *ctx)
{
    const struct oom_ctx *c = ctx;
    struct tokio_insights_opts o = { 0 };
    json_t *res = NULL;
    int rc;

    o.client_only = !c->server;
    o.history = c->history;
    rc = tokio_insights_log(&res, c->cfg, c->path, NULL, &o);
    assert_true(rc < 0 ? res == NULL : res != NULL);
    json_decref(res);
    return rc;
}

static void
test_insights_survives_every_oom(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path, *csv = tokio_test_join(dir,
                                                                   "h.csv");
    struct tokio_config *cfg = site(dir);
    static const int64_t osts[] = { 1, 2, 5 };
    struct oom_ctx c;

    (void)state;
    path = server_log(dir, "job.darshan", 2 * GIB, osts, 3,
                      "POSIX_SIZE_WRITE_0_100=90 POSIX_F_META_TIME=40");
    tokio_test_write_file(csv, "_datetime_start,darshan_agg_perf_by_slowest"
                          "_posix\n2019-01-01 00:00:00,1\n"
                          "2019-01-02 00:00:00,2\n", SIZE_MAX);
    c = (struct oom_ctx){ path, cfg, 0, NULL };
    tokio_test_every_oom(oom_trial, &c, 1);
    c = (struct oom_ctx){ path, cfg, 1, csv };
    tokio_test_every_oom(oom_trial, &c, 7);
    tokio_config_free(cfg);
    tokio_test_rmtree(dir);
    free(dir);
    free(path);
    free(csv);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stdio_share_both_sides),
        cmocka_unit_test(test_stdio_share_counts_mpiio_bytes_once),
        cmocka_unit_test(test_no_mpiio_levels),
        cmocka_unit_test(test_intensity_both_sides),
        cmocka_unit_test(test_small_reads_both_thresholds),
        cmocka_unit_test(test_small_shared_writes_only_shared_files),
        cmocka_unit_test(test_small_bytes_threshold_is_used),
        cmocka_unit_test(test_small_bytes_rounds_to_a_bin_edge),
        cmocka_unit_test(test_misaligned_both_sides),
        cmocka_unit_test(test_misaligned_file_advises_h5pset_alignment_for_hdf5),
        cmocka_unit_test(test_redundant_reads_both_sides),
        cmocka_unit_test(test_random_reads_both_sides),
        cmocka_unit_test(test_random_writes_takes_consecutive_as_sequential),
        cmocka_unit_test(test_metadata_time_per_rank),
        cmocka_unit_test(test_stragglers_both_sides),
        cmocka_unit_test(test_rank_imbalance_both_sides),
        cmocka_unit_test(test_collective_reads_both_sides),
        cmocka_unit_test(test_nonblocking_writes),
        cmocka_unit_test(test_hdf5_and_pnetcdf_rules),
        cmocka_unit_test(test_hdf5_serial_files_are_ok),
        cmocka_unit_test(test_missing_modules_are_not_evaluated),
        cmocka_unit_test(test_fs_contention_both_sides),
        cmocka_unit_test(test_ost_full_both_sides),
        cmocka_unit_test(test_ost_failover_both_sides),
        cmocka_unit_test(test_lustre_without_osts_is_not_evaluated),
        cmocka_unit_test(test_slow_ost_both_sides),
        cmocka_unit_test(test_metadata_pressure_both_sides),
        cmocka_unit_test(test_history_both_sides),
        cmocka_unit_test(test_cb_nodes_against_slurm_nodes),
        cmocka_unit_test(test_no_site_data_degrades_to_the_client_side),
        cmocka_unit_test(test_thresholds_defaults_site_and_overrides),
        cmocka_unit_test(test_bad_thresholds_are_refused),
        cmocka_unit_test(test_bad_inputs_fail_naming_them),
        cmocka_unit_test(test_text_and_csv),
        cmocka_unit_test(test_names_not_utf8_are_kept),
        cmocka_unit_test(test_insights_survives_every_oom),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
