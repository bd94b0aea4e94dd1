/*
 * tests/cli/test_job_view_memory.c - summarize-job folds a Darshan log's
 * records as the reader decodes them (see add_darshan() in
 * src/tools/summarize_job.c): on a log of 30,000 POSIX records it peaks
 * at about what the log's file costs.  It built the log's whole --base
 * JSON before (about 13 KiB a record: some 400 MB here).  insights (and
 * report, which runs it) on a log with LUSTRE records too: its slow-OST
 * rule read the POSIX and LUSTRE records again and kept them (46 MB at
 * 30,000 records, 318 MB at 300,000); now they are folded per file.
 */
#include "testutil.h"
#include "darshan_gen.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_writer.h"

#define FILES 100
#define RANKS 300       /* 30,000 POSIX records */

/* Counters that compress about as real ones do (xorshift64). */
static uint64_t
next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* POSIX records of RANKS ranks on FILES files, half under /scratch. */
static void
make_big_log(const char *path)
{
    static const struct tokio_darshan_mount mounts[] = {
        { "/scratch", "lustre" }, { "/home", "nfs" },
    };
    struct tokio_darshan_job_info job = {
        .uid = 1, .jobid = 2, .start_time = 1600000000,
        .end_time = 1600000100, .nprocs = RANKS, .exe = "/bin/big",
        .n_mounts = 2, .mounts = mounts,
    };
    const int P = TOKIO_DARSHAN_POSIX;
    size_t n = tokio_darshan_counter_count(P);
    size_t nf = tokio_darshan_fcounter_count(P);
    int64_t *c = calloc(n, sizeof(*c));
    double *f = calloc(nf, sizeof(*f));
    struct tokio_darshan_writer *w = NULL;
    uint64_t x = 88172645463325252ull;

    assert_non_null(c);
    assert_non_null(f);
    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    for (int k = 0; k < FILES; k++) {
        char name[64];
        snprintf(name, sizeof(name), "/%s/big/file%03d",
                 k % 2 ? "home" : "scratch", k);
        assert_int_equal(tokio_darshan_writer_add_name(w, (uint64_t)k + 1,
                                                       name), TOKIO_OK);
        for (int r = 0; r < RANKS; r++) {
            for (size_t i = 0; i < n; i++)
                c[i] = (int64_t)(next(&x) >> (54 + i % 10));
            for (size_t i = 0; i < nf; i++)
                f[i] = (double)(next(&x) >> 52) / 1e3 + 0.001;
            assert_int_equal(tokio_darshan_writer_add_record(
                                 w, P, (uint64_t)k + 1, r, c, n, f, nf),
                             TOKIO_OK);
        }
    }
    assert_int_equal(tokio_darshan_writer_write(w, path), TOKIO_OK);
    tokio_darshan_writer_free(w);
    free(c);
    free(f);
}

static void
test_job_views_peak_follow_the_file_not_the_records(void **state)
{
    const char *dir = *state;
    struct stat st;

    if (tokio_test_sanitized())
        skip();     /* ASan's shadow and quarantine are not ours */
    char *log = tokio_test_join(dir, "big.darshan");
    make_big_log(log);
    assert_int_equal(stat(log, &st), 0);
    long file_kib = (long)(st.st_size / 1024);
    const char *const cmds[][6] = {
        { "summarize-job", "--json", log, NULL },
        { "report", "-o", "r.html", log, NULL },
    };
    const struct tokio_test_limits lim = { 0, 60 };
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        long rss = 0;
        struct tokio_run r = tokio_test_run_bounded(dir, NULL, cmds[i],
                                                    &lim, &rss);
        assert_int_equal(r.status, 0);
        /* the summary was made: the POSIX sums over every record */
        if (i == 0)
            assert_non_null(strstr(r.out,
                                   "\"darshan_num_bytes_read_posix\": 30000"));
        print_message("%s: %ld KiB peak, log %ld KiB\n", cmds[i][0], rss,
                      file_kib);
        /* the file, the program and a few MiB of work */
        assert_true(rss < file_kib + 30 * 1024);
        tokio_run_free(&r);
    }
    free(log);
}

static void
test_slow_ost_rule_peak_follows_the_files_not_the_records(void **state)
{
    const char *dir = *state;
    struct stat st;

    if (tokio_test_sanitized())
        skip();     /* ASan's shadow and quarantine are not ours */
    char *log = tokio_test_join(dir, "lustre.darshan");
    /* 30,000 POSIX records on 100 files, a LUSTRE record each */
    assert_int_equal(tokio_test_darshan_records_log(log, 30000, 100),
                     TOKIO_OK);
    assert_int_equal(stat(log, &st), 0);
    long file_kib = (long)(st.st_size / 1024);
    const char *const cmds[][6] = {
        { "insights", "-j", log, NULL },
        { "report", "-o", "r.html", log, NULL },
    };
    const struct tokio_test_limits lim = { 0, 60 };
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        long rss = 0;
        struct tokio_run r = tokio_test_run_bounded(dir, NULL, cmds[i],
                                                    &lim, &rss);
        assert_int_equal(r.status, 0);
        /* the rule ran: the files' 64 OSTs were correlated */
        if (i == 0)
            assert_non_null(strstr(r.out, "\"osts_correlated\": 64.0"));
        print_message("%s: %ld KiB peak, log %ld KiB\n", cmds[i][0], rss,
                      file_kib);
        assert_true(rss < file_kib + 30 * 1024);
        tokio_run_free(&r);
    }
    free(log);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            test_job_views_peak_follow_the_file_not_the_records,
            tokio_test_mkdtemp_setup, tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(
            test_slow_ost_rule_peak_follows_the_files_not_the_records,
            tokio_test_mkdtemp_setup, tokio_test_remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
