/*
 * tests/cli/test_usage.c - one rule for a bad command line (issue 17,
 * item 12): exit 2, the reason on one line naming the option or argument,
 * then "see 'tokio CMD --help'", and nothing on standard output.  The
 * rule lives in src/cli/cli.c (cli_parse(), cli_time()); these check it
 * over every command, and the cases the issue found one by one.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

/* `tokio argv...` must be a usage error whose message holds `msg`. */
static void
check_usage_error(const char *const *argv, const char *msg)
{
    const char *env[] = { "TZ=America/Los_Angeles", NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);
    char hint[128];
    const char *nl = strchr(r.err, '\n');

    snprintf(hint, sizeof(hint), "see 'tokio %s --help'\n", argv[0]);
    if (r.status != 2 || nl == NULL || strcmp(nl + 1, hint) != 0 ||
        r.out[0] != '\0' || (msg != NULL && strstr(r.err, msg) == NULL))
        fail_msg("tokio %s %s ...: exit %d, stderr: %s(expected exit 2, "
                 "'%s' and the hint)", argv[0], argv[1] ? argv[1] : "",
                 r.status, r.err, msg ? msg : "");
    tokio_run_free(&r);
}

/* An empty word as the first argument, and as -o's value, is a usage
 * error of every command (issue 17: `cache-slurm ''` and `-o ''` were
 * exit 1, `index-darshanlogs -o ''` exit 0). */
static void
test_every_command_refuses_empty_words(void **state)
{
    char **names = tokio_test_command_names();

    (void)state;
    for (size_t i = 0; names[i] != NULL; i++) {
        const char *empty[] = { names[i], "", NULL };
        const char *empty_o[] = { names[i], "-o", "", "x", NULL };

        print_message("%s\n", names[i]);
        check_usage_error(empty, NULL);
        check_usage_error(empty_o, NULL);
        free(names[i]);
    }
    free(names);
}

/* What the issue found, and its kind in each command of this lane. */
static void
test_bad_command_lines_exit_2(void **state)
{
    static const struct {
        const char *argv[12];
        const char *msg;
    } cases[] = {
        /* conflicting forms (the reference: the last or --csv won) */
        { { "cache-slurm", "--json", "--csv", "1" },
          "give --json or --csv, not both" },
        { { "cache-slurm", "-n", "-j", "1" }, "give --native or --json" },
        { { "cache-craysdb", "--csv", "--json", "x" },
          "give --csv or --json, not both" },
        { { "cache-globuslogs", "-j", "-c", "x" }, "give --json or --csv" },
        { { "cache-hpss", "--csv", "--json", "x" }, "give --csv or --json" },
        { { "cache-hpss", "--daily", "--ftp", "x" }, "give --daily or --ftp" },
        { { "cache-isdct", "--json", "--csv", "x" }, "give --json or --csv" },
        { { "cache-mmperfmon", "-c", "-j", "x" }, "give --csv or --json" },
        { { "cache-esnet-snmp", "-j", "-c", "nersc" },
          "give --json or --csv" },
        { { "insights", "-j", "--csv", "x" }, "give --json or --csv" },
        { { "summarize-h5lmt", "--kibs", "--gibs", "x" },
          "give --kibs or --gibs, not both" },
        { { "cache-nersc-jobsdb", "--json", "--csv", "2017-03-18T14:24:59",
            "2017-03-21T23:20:56", "edison" },
          "--json and --csv exclude each other" },
        /* the same form twice is no conflict: a later error shows it */
        { { "cache-slurm", "--json", "--json", "" }, "argument 1 is empty" },
        /* empty words */
        { { "cache-slurm", "" }, "argument 1 is empty ('')" },
        { { "cache-slurm", "-o", "", "1" },
          "--output needs a file name, not ''" },
        { { "cache-topology", "--jobinfo-cache", "" },
          "--jobinfo-cache needs a file name" },
        { { "config", "--config", "" }, "--config needs a file name" },
        { { "archive-lmtdb", "-o", "", "2018-01-28T00:00:00",
            "2018-01-28T00:05:00" }, "--output needs a file name" },
        { { "cache-nersc-globuslogs", "--input", "", "2019-01-29T00:00:00",
            "2019-01-29T00:10:00" }, "--input needs a file name" },
        /* negative counts, numbers that are none */
        { { "darshan-scoreboard", "--max-show", "-1", "x.db" },
          "--max-show expects a number 0 or above, not '-1'" },
        { { "insights", "--top", "-2", "x.darshan" }, "--top expects" },
        { { "report", "-o", "r.html", "--top-files", "-3", "x" },
          "--top-files expects a number 0 or above" },
        { { "summarize-h5lmt", "--bins", "-1", "x" }, "--bins expects" },
        { { "darshan-bad-ost", "-p", "nan", "x" },
          "--p-threshold expects a number, not 'nan'" },
        { { "umami", "--highlight", "x", "h.csv" },
          "--highlight expects a whole number, not 'x'" },
        /* bad times, start after end */
        { { "cache-lfsstatus", "--fullness", "snx11035", "noon" },
          "<datetime> 'noon' is not a time YYYY-MM-DDTHH:MM:SS" },
        { { "cache-nersc-globuslogs", "--input", "x", "2019-01-29T00:10:00",
            "2019-01-29T00:00:00" }, "<end> is before <start>" },
        { { "cache-collectdes", "--input", "x", "2017-12-13T00:00:00",
            "2017-12-13T00:00:00" }, "<end> is the same time as <start>" },
        { { "cache-esnet-snmp", "-s", "2019-02-11T01:05:00", "-e",
            "2019-02-11T01:00:00", "nersc" }, "--end is before --start" },
        { { "summarize-job", "--start-time", "2017-03-20 02:00:00",
            "--end-time", "2017-03-20 01:00:00" },
          "--end-time is before --start-time" },
        { { "report", "-o", "r.html", "--start-time", "2017-03-20T02:00:00",
            "--end-time", "2017-03-20T01:00:00" },
          "--end-time is before --start-time" },
        /* the cases still open after 75e6b45: exit 1 or 0 */
        { { "cache-nersc-jobsdb", "-i", "x", "2017-03-21T23:20:56",
            "2017-03-18T14:24:59", "edison" }, "<end> is before <start>" },
        { { "cache-nersc-jobsdb", "-i", "x", "2017-03-21", "2017-03-22",
            "edison" }, "<start> '2017-03-21' is not a time" },
        { { "cache-lmtdb", "-i", "x", "2018-01-28T00:05:00",
            "2018-01-28T00:00:00" }, "<end> is before <start>" },
        { { "summarize-h5lmt", "--start", "bad", "x" },
          "--start 'bad' is not a time YYYY-MM-DDTHH:MM:SS" },
        { { "summarize-h5lmt", "--end", "2018-01-28 00:00:00", "x" },
          "--end '2018-01-28 00:00:00' is not a time" },
        { { "summarize-h5lmt", "--start", "2018-01-28T01:00:00", "--end",
            "2018-01-28T00:00:00", "x" }, "--end is before --start" },
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_usage_error(cases[i].argv, cases[i].msg);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_command_refuses_empty_words),
        cmocka_unit_test(test_bad_command_lines_exit_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
