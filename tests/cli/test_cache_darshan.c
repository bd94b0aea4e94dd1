/*
 * tests/cli/test_cache_darshan.c - `tokio cache-darshan` run as the
 * reference's goldens were made (golden/pytokio/COMMANDS.md, section
 * cache_darshan): from a working folder holding inputs/ (the pytokio
 * inputs) and darshan-logs/, output compared byte for byte with the
 * golden; then the empty and corrupt logs, -o, and usage errors; and the
 * base records read back from the temporary file cache-darshan writes
 * them to (issue 20), compared with the JSON of a log that kept them.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include <zlib.h>

#include "darshan_gen.h"
#include "tokio/connectors/darshan_json.h"
#include "tokio/connectors/darshan_writer.h"
#include "tokio/output.h"

#define GOLDEN "golden/pytokio/cache_darshan/"
#define EMPTY_LOG "inputs/darshanlogs/2017/3/21/" \
    "glock_vpicio_uni_id4487503_3-21-14391-1931100114561819213_1.darshan"
#define SHANE "shane_macsio_id29959_5-22-32552-7035573431850780836_1590156158"

/* ---- fixtures ------------------------------------------------------- */

struct work {
    char *dir;                  /* the working folder */
    char *tops[2];              /* the copies' parents, to remove */
};

static int
setup(void **state)
{
    struct work *w = calloc(1, sizeof(*w));
    char *inputs, *logs, link[4096];

    assert_non_null(w);
    *state = w;
    if (tokio_test_data("pytokio-inputs") == NULL)
        return 0;
    w->dir = tokio_test_mkdtemp();
    inputs = tokio_test_copy_data("pytokio-inputs", &w->tops[0]);
    logs = tokio_test_copy_data("darshan-logs", &w->tops[1]);
    assert_non_null(inputs);
    assert_non_null(logs);
    snprintf(link, sizeof(link), "%s/inputs", w->dir);
    assert_int_equal(symlink(inputs, link), 0);
    snprintf(link, sizeof(link), "%s/darshan-logs", w->dir);
    assert_int_equal(symlink(logs, link), 0);
    snprintf(link, sizeof(link), "%s/scratch", w->dir);
    assert_int_equal(mkdir(link, 0700), 0);
    free(inputs);
    free(logs);
    return 0;
}

static int
teardown(void **state)
{
    struct work *w = *state;

    if (w->dir != NULL) {
        tokio_test_rmtree(w->dir);
        for (int i = 0; i < 2; i++) {
            tokio_test_rmtree(w->tops[i]);
            free(w->tops[i]);
        }
        free(w->dir);
    }
    free(w);
    return 0;
}

#define NEED_WORK(w)                                                        \
    do {                                                                    \
        if ((w)->dir == NULL) {                                             \
            print_message("skipped: ../shared/testdata is absent\n");       \
            skip();                                                         \
        }                                                                   \
    } while (0)

/* A golden's text, gunzipped when it ends in .gz. */
static char *
read_golden(const char *name)
{
    char rel[512];
    size_t cap = 1 << 20, len = 0;

    snprintf(rel, sizeof(rel), GOLDEN "%s", name);
    const char *path = tokio_test_data(rel);
    assert_non_null(path);
    gzFile gz = gzopen(path, "rb");
    assert_non_null(gz);
    char *buf = malloc(cap + 1);
    assert_non_null(buf);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
            assert_non_null(buf);
        }
        int k = gzread(gz, buf + len, (unsigned)(cap - len));
        assert_true(k >= 0);
        if (k == 0)
            break;
        len += (size_t)k;
    }
    gzclose(gz);
    buf[len] = '\0';
    return buf;
}

/* ---- golden comparisons --------------------------------------------- */

struct cli_case {
    const char *args[8];        /* after "cache-darshan" */
    const char *golden;
};

/*
 * Every cache_darshan golden whose bytes we reproduce.  Not here, compared
 * by value in tests/connectors/test_darshan_json.c:
 * sample.base+total+perf.json (the reference's metadata listed three
 * times).
 */
static const struct cli_case cases[] = {
#define LOG3(dir, name)                                                     \
    { { "--base", dir "/" name ".darshan" }, name ".base.json" },           \
    { { "--total", dir "/" name ".darshan" }, name ".total.json" },         \
    { { "--perf", dir "/" name ".darshan" }, name ".perf.json" }
    LOG3("inputs", "sample"),
    { { "--base", "darshan-logs/dxt.darshan" }, "dxt.base.json" },
    LOG3("inputs", "sample-2"),
    { { "--base", "inputs/sample-badost.darshan" },
      "sample-badost.base.json.gz" },
    { { "--total", "inputs/sample-badost.darshan" },
      "sample-badost.total.json" },
    { { "--perf", "inputs/sample-badost.darshan" },
      "sample-badost.perf.json" },
    LOG3("inputs", "sample-goodost"),
    LOG3("inputs", "noposix"),
    LOG3("inputs", "noposixopens"),
    { { "--total", "darshan-logs/dxt.darshan" }, "dxt.total.json" },
    { { "--perf", "darshan-logs/dxt.darshan" }, "dxt.perf.json" },
    LOG3("darshan-logs", "ior_hdf5_example"),
    LOG3("darshan-logs", "sample-dxt-simple"),
    LOG3("darshan-logs", SHANE),
    { { "--base", "--modules", "posix", "--counters",
        "BYTES_READ,BYTES_WRITTEN", "inputs/sample.darshan" },
      "sample.base.posix-only.json" },
    /* regression: --base is the default, and its filters apply without
     * it as in the reference's cache_darshan (they were dropped) */
    { { "--modules", "posix", "--counters", "BYTES_READ,BYTES_WRITTEN",
        "inputs/sample.darshan" },
      "sample.base.posix-only.json" },
    { { "--base", EMPTY_LOG },
      "glock_vpicio_uni_id4487503_3-21-14391-1931100114561819213_1"
      ".empty-log.base.json" },
#undef LOG3
};

static void
test_cache_darshan_matches_goldens_byte_for_byte(void **state)
{
    struct work *w = *state;

    NEED_WORK(w);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct cli_case *c = &cases[i];
        const char *argv[10] = { "cache-darshan" };
        for (size_t k = 0; k < 8 && c->args[k]; k++)
            argv[k + 1] = c->args[k];
        struct tokio_run r = tokio_test_run(w->dir, NULL, argv);
        char *want = read_golden(c->golden);
        if (r.status != 0 || strcmp(r.out, want) != 0)
            fail_msg("%s: status %d, stderr: %s", c->golden, r.status,
                     r.err);
        free(want);
        tokio_run_free(&r);
    }
}

/* ---- edge cases ----------------------------------------------------- */

static void
test_cache_darshan_empty_log_prints_braces_and_warns(void **state)
{
    struct work *w = *state;
    const char *argv[] = { "cache-darshan", EMPTY_LOG, NULL };

    NEED_WORK(w);
    struct tokio_run r = tokio_test_run(w->dir, NULL, argv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "{}\n");
    assert_contains(r.err, "glock_vpicio_uni_id4487503");
    assert_contains(r.err, "warning");
    tokio_run_free(&r);
}

static void
test_cache_darshan_corrupt_log_exits_1_naming_it(void **state)
{
    struct work *w = *state;
    char path[4096];
    size_t len;

    NEED_WORK(w);
    snprintf(path, sizeof(path), "%s/inputs/sample.darshan", w->dir);
    char *log = tokio_test_read_file(path, &len);
    assert_non_null(log);
    assert_true(len > 4000);
    snprintf(path, sizeof(path), "%s/scratch/cut-short.darshan", w->dir);
    tokio_test_write_file(path, log, 3000);
    free(log);

    const char *argv[] = { "cache-darshan", "scratch/cut-short.darshan",
                           NULL };
    struct tokio_run r = tokio_test_run(w->dir, NULL, argv);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "cut-short.darshan");
    tokio_run_free(&r);

    const char *missing[] = { "cache-darshan", "scratch/nothere.darshan",
                              NULL };
    r = tokio_test_run(w->dir, NULL, missing);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "nothere.darshan");
    tokio_run_free(&r);
}

static void
test_cache_darshan_output_file_holds_same_json(void **state)
{
    struct work *w = *state;
    char path[4096];
    json_error_t err;

    NEED_WORK(w);
    const char *argv[] = { "cache-darshan", "-o", "scratch/out.json",
                           "--total", "inputs/sample.darshan", NULL };
    struct tokio_run r = tokio_test_run(w->dir, NULL, argv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    snprintf(path, sizeof(path), "%s/scratch/out.json", w->dir);
    json_t *ours = json_load_file(path, 0, &err);
    assert_non_null(ours);
    char *text = read_golden("sample.total.json");
    json_t *want = json_loads(text, 0, &err);
    assert_non_null(want);
    assert_true(json_equal(ours, want));
    json_decref(ours);
    json_decref(want);
    free(text);
}

static void
test_cache_darshan_bad_usage_exits_2(void **state)
{
    static const char *const bad[][4] = {
        { "cache-darshan", "--bogus", "x.darshan", NULL },
        { "cache-darshan", NULL },
        { "cache-darshan", "a.darshan", "b.darshan", NULL },
        { "cache-darshan", "--modules", NULL },
    };

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct tokio_run r = tokio_test_run(NULL, NULL, bad[i]);
        assert_int_equal(r.status, 2);
        assert_contains(r.err, "cache-darshan");
        tokio_run_free(&r);
    }
}

static void
test_cache_darshan_help_exits_0(void **state)
{
    const char *argv[] = { "cache-darshan", "--help", NULL };

    (void)state;
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "--counters");
    tokio_run_free(&r);
}

/* ---- base records through the spool ---------------------------------- */

#define MIX_NPROCS 128
/* POSIX records of 728 bytes: more than the spool keeps in memory (1 MiB),
 * so they go through its temporary file; 50 files, 100 ranks each */
#define BIG_RECORDS 5000
#define NO_NAME_ID 12345        /* an id the name table lacks: "(null)" */

/*
 * A log whose file order is not the JSON's: POSIX, STDIO, MPI-IO and H5D
 * records over names and ranks out of their keys' order ("-1" < "0" <
 * "1" < "10" < "100" < "11" < "2"), one id without a name, H5D file
 * record ids, LUSTRE layouts, DAOS objects (named by their ids).  With
 * `twice`, one POSIX name and rank comes twice (its counters too).
 */
static void
write_mixed_log(const char *path, int twice)
{
    static const char *const names[] = { "/scratch/b", "/scratch/a",
                                         "/home/z", "/scratch/a/x" };
    static const int64_t ranks[] = { 10, -1, 2, 100, 0, 11, 1 };
    static const int mods[] = { TOKIO_DARSHAN_POSIX, TOKIO_DARSHAN_STDIO,
                                TOKIO_DARSHAN_MPIIO, TOKIO_DARSHAN_H5D };
    static const struct tokio_darshan_mount mounts[] = {
        { "/scratch", "lustre" }, { "/home", "nfs" },
    };
    static const int64_t osts[] = { 12, 13, 200 };
    const struct tokio_darshan_job_info job = {
        .uid = 1000, .jobid = 77, .start_time = 1600000000,
        .end_time = 1600000100, .nprocs = MIX_NPROCS, .exe = "/bin/mix -n 4",
        .n_mounts = 2, .mounts = mounts,
    };
    struct tokio_darshan_writer *w = NULL;
    struct tokio_darshan_record rec;
    struct tokio_darshan_lustre_comp comps[2];
    unsigned char pool[16], cont[16];
    int64_t iv[256];
    double fv[64];
    uint64_t seed = 1;

    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    for (size_t n = 0; n < 4; n++)
        assert_int_equal(tokio_darshan_writer_add_name(
                             w, tokio_darshan_writer_hash(names[n]),
                             names[n]), TOKIO_OK);
    for (size_t k = 0; k < sizeof(mods) / sizeof(mods[0]); k++) {
        size_t ni = tokio_darshan_counter_count(mods[k]);
        size_t nf = tokio_darshan_fcounter_count(mods[k]);
        assert_true(ni <= 256 && nf <= 64);
        for (size_t n = 0; n <= 4; n++)
            for (size_t r = 0; r < sizeof(ranks) / sizeof(ranks[0]); r++) {
                if (mods[k] != TOKIO_DARSHAN_POSIX && r % 2 == 1)
                    continue;
                for (size_t i = 0; i < ni; i++)
                    iv[i] = (int64_t)((seed++ * 2654435761u) % 100003) - 7;
                for (size_t i = 0; i < nf; i++)
                    fv[i] = (double)(seed++ % 977) / 8.0;
                memset(&rec, 0, sizeof(rec));
                rec.id = n < 4 ? tokio_darshan_writer_hash(names[n])
                               : NO_NAME_ID;
                rec.rank = ranks[r];
                rec.n_counters = ni;
                rec.counters = iv;
                rec.n_fcounters = nf;
                rec.fcounters = fv;
                rec.file_rec_id = mods[k] == TOKIO_DARSHAN_H5D
                                      ? UINT64_MAX - n : 0;
                assert_int_equal(tokio_darshan_writer_add(w, mods[k], &rec),
                                 TOKIO_OK);
                if (twice && mods[k] == TOKIO_DARSHAN_POSIX && n == 1 &&
                    ranks[r] == 2)
                    assert_int_equal(tokio_darshan_writer_add(w, mods[k],
                                                              &rec),
                                     TOKIO_OK);
            }
    }
    tokio_test_darshan_lustre_comps(comps);
    for (size_t n = 0; n < 2; n++)
        assert_int_equal(tokio_darshan_writer_add_lustre(
                             w, tokio_darshan_writer_hash(names[1 - n]), -1,
                             comps, 2, osts, 3), TOKIO_OK);
    for (size_t i = 0; i < 16; i++) {
        pool[i] = (unsigned char)(i * 17);
        cont[i] = (unsigned char)(255 - i);
    }
    size_t ni = tokio_darshan_counter_count(TOKIO_DARSHAN_DAOS);
    size_t nf = tokio_darshan_fcounter_count(TOKIO_DARSHAN_DAOS);
    for (int d = 0; d < 4; d++) {
        for (size_t i = 0; i < ni; i++)
            iv[i] = (int64_t)(seed++ % 4099);
        for (size_t i = 0; i < nf; i++)
            fv[i] = (double)(seed++ % 31) / 4.0;
        memset(&rec, 0, sizeof(rec));
        rec.id = 900 + (uint64_t)d;
        rec.rank = d % 2 ? 3 : -1;
        rec.n_counters = ni;
        rec.counters = iv;
        rec.n_fcounters = nf;
        rec.fcounters = fv;
        rec.pool_uuid = pool;
        rec.cont_uuid = cont;
        rec.oid_hi = (uint64_t)(3 - d) * 1000003;
        rec.oid_lo = (uint64_t)d * 77;
        assert_int_equal(tokio_darshan_writer_add(w, TOKIO_DARSHAN_DAOS,
                                                  &rec), TOKIO_OK);
    }
    assert_int_equal(tokio_darshan_writer_write(w, path), TOKIO_OK);
    tokio_darshan_writer_free(w);
}

/* What cache-darshan prints for `path` with `o`, from the log's kept
 * records (tokio_darshan_open(): no spool), as its stdout takes it. */
static char *
kept_json(const char *path, const struct tokio_darshan_json_opts *o)
{
    struct tokio_darshan *log = NULL;
    char *text = NULL;
    size_t len = 0;

    assert_true(tokio_darshan_open(&log, path) >= 0);
    FILE *fp = open_memstream(&text, &len);
    assert_non_null(fp);
    assert_int_equal(tokio_darshan_write_json(log, fp, o,
                                              TOKIO_JSON_SORT_KEYS |
                                                  TOKIO_JSON_INDENT(4)),
                     TOKIO_OK);
    fputc('\n', fp);
    assert_int_equal(fclose(fp), 0);
    tokio_darshan_free(log);
    return text;
}

static void
test_cache_darshan_spooled_records_match_kept_ones(void **state)
{
    static const char *const modules[] = { "posix", "lustre", "daos" };
    static const char *const counters[] = {
        "BYTES_READ", "OST_ID_0", "STRIPE_WIDTH", "F_READ_TIME",
        "FILE_REC_ID", "OPENS", "COMP1_POOL_NAME"
    };
    static const char *const h5_stdio[] = { "h5d", "stdio" };
    const struct {
        const char *args[8];
        struct tokio_darshan_json_opts o;
    } spooled[] = {
        { { "cache-darshan", "mix.darshan" }, { .base = 1 } },
        { { "cache-darshan", "--base", "--total", "--perf", "mix.darshan" },
          { .base = 1, .total = 1, .perf = 1 } },
        { { "cache-darshan", "--modules", "posix,lustre,daos", "--counters",
            "BYTES_READ,OST_ID_0,STRIPE_WIDTH,F_READ_TIME,FILE_REC_ID,"
            "OPENS,COMP1_POOL_NAME", "mix.darshan" },
          { .base = 1, .modules = modules, .n_modules = 3,
            .counters = counters, .n_counters = 7 } },
        { { "cache-darshan", "--perf", "--modules", "h5d,stdio",
            "--base", "mix.darshan" },
          { .base = 1, .perf = 1, .modules = h5_stdio, .n_modules = 2 } },
    };
    char *dir = tokio_test_mkdtemp();
    char *log = tokio_test_join(dir, "mix.darshan");

    (void)state;
    write_mixed_log(log, 0);
    /* a big log through the file, its ranks read back out of order */
    char *big = tokio_test_join(dir, "big.darshan");
    assert_int_equal(tokio_test_darshan_records_log(big, BIG_RECORDS, 50),
                     TOKIO_OK);
    for (int k = 0; k < 2; k++) {
        const struct tokio_darshan_json_opts o = { .base = 1, .total = k,
                                                   .perf = k };
        const char *args[] = { "cache-darshan", "big.darshan", NULL, NULL,
                               NULL, NULL };
        if (k) {
            args[1] = "--base";
            args[2] = "--total";
            args[3] = "--perf";
            args[4] = "big.darshan";
        }
        char *want = kept_json(big, &o);
        struct tokio_run r = tokio_test_run(dir, NULL, args);
        if (r.status != 0 || strcmp(r.out, want) != 0)
            fail_msg("big.darshan %d: status %d, stderr: %s", k, r.status,
                     r.err);
        free(want);
        tokio_run_free(&r);
    }
    free(big);
    for (size_t i = 0; i < sizeof(spooled) / sizeof(spooled[0]); i++) {
        char *want = kept_json(log, &spooled[i].o);
        struct tokio_run r = tokio_test_run(dir, NULL, spooled[i].args);
        if (r.status != 0 || strcmp(r.out, want) != 0)
            fail_msg("case %zu: status %d, stderr: %s", i, r.status, r.err);
        /* the records really are out of order, and all there */
        if (i == 0) {
            assert_contains(r.out, "\"(null)\"");
            assert_contains(r.out, "\"3000009.0\"");
            assert_true(strstr(r.out, "\"100\"") < strstr(r.out, "\"11\""));
        }
        free(want);
        tokio_run_free(&r);
    }
    tokio_test_rmtree(dir);
    free(log);
    free(dir);
}

/* A name and rank given twice fails as the reference did, before any
 * output; a temporary file that cannot be made or written fails naming
 * its folder; -o then makes no file. */
static void
test_cache_darshan_spool_failures_leave_no_output(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char *log = tokio_test_join(dir, "big.darshan");
    char *twice = tokio_test_join(dir, "twice.darshan");
    char *out = tokio_test_join(dir, "out.json");
    struct stat st;

    (void)state;
    assert_int_equal(tokio_test_darshan_records_log(log, BIG_RECORDS, 50),
                     TOKIO_OK);
    write_mixed_log(twice, 1);

    const char *dup[] = { "cache-darshan", "-o", "out.json",
                          "twice.darshan", NULL };
    struct tokio_run r = tokio_test_run(dir, NULL, dup);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "twice.darshan': posix record '/scratch/a' "
                           "rank 2 has counter");
    assert_int_not_equal(stat(out, &st), 0);
    tokio_run_free(&r);

    const char *nodir[] = { "TMPDIR=/nonexistent/tokio-tmp", NULL };
    const char *args[] = { "cache-darshan", "-o", "out.json",
                           "big.darshan", NULL };
    r = tokio_test_run(dir, nodir, args);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "/nonexistent/tokio-tmp");
    assert_int_not_equal(stat(out, &st), 0);
    tokio_run_free(&r);

    /* a full disk: the records (3.6 MB) do not fit in 2 MiB */
    const char *to_stdout[] = { "cache-darshan", "big.darshan", NULL };
    r = tokio_test_run_limited(dir, NULL, to_stdout, 2 << 20);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "big.darshan': cannot write its records to a "
                           "temporary file");
    tokio_run_free(&r);

    tokio_test_rmtree(dir);
    free(log);
    free(twice);
    free(out);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_darshan_matches_goldens_byte_for_byte),
        cmocka_unit_test(test_cache_darshan_empty_log_prints_braces_and_warns),
        cmocka_unit_test(test_cache_darshan_corrupt_log_exits_1_naming_it),
        cmocka_unit_test(test_cache_darshan_output_file_holds_same_json),
        cmocka_unit_test(test_cache_darshan_bad_usage_exits_2),
        cmocka_unit_test(test_cache_darshan_help_exits_0),
        cmocka_unit_test(test_cache_darshan_spooled_records_match_kept_ones),
        cmocka_unit_test(test_cache_darshan_spool_failures_leave_no_output),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
