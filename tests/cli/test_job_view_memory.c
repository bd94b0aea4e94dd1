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


/*
 * Run each of `cmds` (summary first) on the log at `log` in `dir`: each
 * succeeds within the file, the program and a few MiB of work, and the
 * first one's output holds `first_out` (it did its work).
 */
static void
run_bounded(const char *dir, const char *log, const char *const cmds[][6],
            size_t n, const char *first_out)
{
    const struct tokio_test_limits lim = { 0, 60 };
    struct stat st;

    assert_int_equal(stat(log, &st), 0);
    long file_kib = (long)(st.st_size / 1024);
    for (size_t i = 0; i < n; i++) {
        long rss = 0;
        struct tokio_run r = tokio_test_run_bounded(dir, NULL, cmds[i],
                                                    &lim, &rss);
        assert_int_equal(r.status, 0);
        if (i == 0)
            assert_non_null(strstr(r.out, first_out));
        print_message("%s: %ld KiB peak, log %ld KiB\n", cmds[i][0], rss,
                      file_kib);
        assert_true(rss < file_kib + 30 * 1024);
        tokio_run_free(&r);
    }
}

static void
test_job_views_peak_follow_the_file_not_the_records(void **state)
{
    const char *dir = *state;

    if (tokio_test_sanitized())
        skip();     /* ASan's shadow and quarantine are not ours */
    char *log = tokio_test_join(dir, "big.darshan");
    /* 30,000 POSIX records: 300 ranks on 100 files */
    assert_int_equal(tokio_test_darshan_posix_log(log, 30000, 100),
                     TOKIO_OK);
    const char *const cmds[][6] = {
        { "summarize-job", "--json", log, NULL },
        { "report", "-o", "r.html", log, NULL },
    };
    /* the summary was made: the POSIX sums over every record */
    run_bounded(dir, log, cmds, 2, "\"darshan_num_bytes_read_posix\": 30000");
    free(log);
}

static void
test_slow_ost_rule_peak_follows_the_files_not_the_records(void **state)
{
    const char *dir = *state;

    if (tokio_test_sanitized())
        skip();     /* ASan's shadow and quarantine are not ours */
    char *log = tokio_test_join(dir, "lustre.darshan");
    /* 30,000 POSIX records on 100 files, a LUSTRE record each */
    assert_int_equal(tokio_test_darshan_records_log(log, 30000, 100),
                     TOKIO_OK);
    const char *const cmds[][6] = {
        { "insights", "-j", log, NULL },
        { "report", "-o", "r.html", log, NULL },
    };
    /* the rule ran: the files' 64 OSTs were correlated */
    run_bounded(dir, log, cmds, 2, "\"osts_correlated\": 64.0");
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
