/*
 * tests/cli/test_cache_globuslogs.c - `tokio cache-globuslogs` from a
 * working folder laid out as golden/pytokio/COMMANDS.md describes; JSON
 * compared by value with the reference's golden (section globuslogs:
 * json.dumps of GlobusLog.from_file), CSV with what pandas wrote of the
 * same records (computed by the reference for the fixture below), -o and
 * reading back, failures.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOLDEN "golden/pytokio/globuslogs/globuslogs.GlobusLog.json"

static const char *const env[] = { "TZ=America/Los_Angeles", NULL };

static void
test_cache_globuslogs_matches_golden(void **state)
{
    (void)state;
    struct tokio_workdir wd;
    const char *argv[] = { "cache-globuslogs", "inputs/globuslogs.txt.gz",
                           NULL };
    const char *argv2[] = { "cache-globuslogs", "--json",
                            "golden/globuslogs/globuslogs.GlobusLog.json",
                            NULL };

    if (tokio_test_workdir(&wd) != 0) {
        tokio_test_workdir_free(&wd);
        print_message("skipped: ../shared/testdata is absent\n");
        skip();
    }
    struct tokio_run r = tokio_test_run(wd.dir, env, argv);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    assert_golden(r.out, GOLDEN);
    tokio_run_free(&r);
    r = tokio_test_run(wd.dir, env, argv2);
    assert_int_equal(r.status, 0);
    assert_golden(r.out, GOLDEN);
    tokio_run_free(&r);
    tokio_test_workdir_free(&wd);
}

static const char log_text[] =
    "DATE=20190809091437.927804 HOST=dtn11 PROG=globus-gridftp-server "
    "NL.EVNT=FTP_INFO FILE=/home/g/my results.tar NBYTES=35616 "
    "DEST=[0.0.0.0] TYPE=RETR CODE=226\n"
    "DATE=20190310013000.5 FILE=/a=b DEST=[1.2.3.4, 5.6.7.8] TYPE=STOR\n";

/* pandas.DataFrame(GlobusLog.from_str(log_text)).to_csv() */
static const char csv_want[] =
    ",DATE,HOST,PROG,FILE,NBYTES,DEST,TYPE,CODE\n"
    "0,1565367277.927804,dtn11,globus-gridftp-server NL.EVNT=FTP_INFO,"
    "/home/g/my results.tar,35616.0,['0.0.0.0'],RETR,226\n"
    "1,1552210200.5,,,/a=b,,\"['1.2.3.4', '5.6.7.8']\",STOR,\n";

static void
test_cache_globuslogs_csv_and_output_file(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), in[4096], out[4096], *saved;

    snprintf(in, sizeof(in), "%s/gridftp.log", dir);
    snprintf(out, sizeof(out), "%s/out.csv", dir);
    tokio_test_write_file(in, log_text, SIZE_MAX);
    const char *argv[] = { "cache-globuslogs", "--csv", in, NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, csv_want);
    tokio_run_free(&r);

    const char *argv2[] = { "cache-globuslogs", "-c", "-o", out, in, NULL };
    r = tokio_test_run(NULL, env, argv2);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    saved = tokio_test_read_file(out, NULL);
    assert_string_equal(saved, csv_want);
    free(saved);

    /* JSON to a file reads back to the same cells; its keys are sorted,
     * so are the columns */
    snprintf(out, sizeof(out), "%s/out.json", dir);
    const char *argv3[] = { "cache-globuslogs", "-o", out, in, NULL };
    const char *argv4[] = { "cache-globuslogs", "--csv", out, NULL };
    r = tokio_test_run(NULL, env, argv3);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    r = tokio_test_run(NULL, env, argv4);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out,
        ",CODE,DATE,DEST,FILE,HOST,NBYTES,PROG,TYPE\n"
        "0,226,1565367277.927804,['0.0.0.0'],/home/g/my results.tar,dtn11,"
        "35616.0,globus-gridftp-server NL.EVNT=FTP_INFO,RETR\n"
        "1,,1552210200.5,\"['1.2.3.4', '5.6.7.8']\",/a=b,,,,STOR\n");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_cache_globuslogs_failures(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), bad[4096];
    snprintf(bad, sizeof(bad), "%s/bad.log", dir);
    tokio_test_write_file(bad, "A=1\nNBYTES=x\n", SIZE_MAX);
    const struct {
        int status;
        const char *argv[5];
        const char *msg;
    } cases[] = {
        { 2, { "cache-globuslogs", NULL }, "an input file is required" },
        { 2, { "cache-globuslogs", "a", "b", NULL }, "only one input file" },
        { 2, { "cache-globuslogs", "-j", "-c", "a", NULL }, "not both" },
        { 1, { "cache-globuslogs", "/nonexistent/g.log", NULL },
          "/nonexistent/g.log" },
        { 1, { "cache-globuslogs", bad, NULL },
          "bad.log' line 2: NBYTES is not an integer: 'x'" },
        { 1, { "cache-globuslogs", "-o", "/nonexistent/d/o.json",
               "/dev/null", NULL }, "/nonexistent/d" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        tokio_test_run_fails(env, cases[i].argv, cases[i].status,
                             cases[i].msg);
    tokio_test_rmtree(dir);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_globuslogs_matches_golden),
        cmocka_unit_test(test_cache_globuslogs_csv_and_output_file),
        cmocka_unit_test(test_cache_globuslogs_failures),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
