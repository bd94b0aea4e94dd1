/*
 * tests/cli/test_darshan_memory.c - the Darshan summaries fold records as
 * the reader decodes them (issue 17 item 5): on a log of many records
 * over few files, index-darshanlogs (also -m 1), summarize-darshanlogs
 * and darshan-bad-ost peak at about what the log's file costs, not a
 * multiple of its records.  darshan-bad-ost held every record (about 1.2
 * KiB each: 126 MB on 100,000) before.  bench/bench-darshan-memory.sh
 * shows the figures up to 1,000,000 records.
 *
 * cache-darshan --base (issue 20) too: it held every record (about 1 KiB
 * each: 1.07 GB on 1,000,000) until it wrote them to a temporary file as
 * they were decoded, to read them back in the JSON's order; now it holds
 * 32 bytes a record.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "darshan_gen.h"

#define RECORDS 30000    /* 100 files, 300 ranks each */

static void
test_peak_memory_follows_the_file_not_the_records(void **state)
{
    const char *dir = *state;
    struct stat st;

    if (tokio_test_sanitized())
        skip();     /* ASan's shadow and quarantine are not ours */
    char *log = tokio_test_join(dir, "big.darshan");
    assert_int_equal(tokio_test_darshan_records_log(log, RECORDS, 100),
                     TOKIO_OK);
    assert_int_equal(stat(log, &st), 0);
    long file_kib = (long)(st.st_size / 1024);
    const char *const cmds[][8] = {
        { "darshan-bad-ost", "-j", log, NULL },
        { "summarize-darshanlogs", log, NULL },
        { "index-darshanlogs", "-q", "-o", "a.db", log, NULL },
        { "index-darshanlogs", "-q", "-m", "1", "-o", "b.db", log, NULL },
        { "cache-darshan", "--total", log, NULL },
        { "cache-darshan", "-o", "c.json", log, NULL },
        { "cache-darshan", "--base", "--total", "--perf", "--counters",
          "BYTES_READ,BYTES_WRITTEN", log, NULL },
    };
    const struct tokio_test_limits lim = { 0, 60 };
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        long rss = 0;
        struct tokio_run r = tokio_test_run_bounded(dir, NULL, cmds[i],
                                                    &lim, &rss);
        assert_int_equal(r.status, 0);
        print_message("%s: %ld KiB peak, log %ld KiB\n", cmds[i][0], rss,
                      file_kib);
        /* the file, the program and a few MiB of work; the records
         * themselves (30,000 x ~1.2 KiB = 35 MiB held) would not fit */
        assert_true(rss < file_kib + 20 * 1024);
        tokio_run_free(&r);
    }
    free(log);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            test_peak_memory_follows_the_file_not_the_records,
            tokio_test_mkdtemp_setup, tokio_test_remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
