/*
 * tests/cli/test_summarize_job.c - `tokio summarize-job`: the ten
 * summarize_job rows of golden/pytokio/COMMANDS.md from a working folder
 * laid out as it describes, by value (CSV cell by cell), with the
 * reference's warning on standard error; bad command lines and inputs.
 *
 * Two values differ from the goldens on purpose, as their tools document:
 * fshealth_ost_next_timestamp is the next snapshot's time (the reference
 * wrote the chosen one's plus a second, src/tools/lfsstatus.c) and
 * topology_job_avg_radius may differ in its last digit (the reference
 * summed over a Python set, src/tools/topology.c).
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#define GOLDEN "golden/summarize_job/"
#define WARNING "No HDF5 data for /datatargets/readrates from 2017-03-20 " \
                "02:07:47 to 2017-03-20 02:09:"

/* The next snapshot of sample_ost-fullness.txt.gz after the job's start:
 * what our ost_next_timestamp is where the golden has the chosen one's
 * plus 1. */
#define NEXT_SNAPSHOT 1490001750

static const char *const csv_cases[][8] = {
    { "sample.csv", "inputs/sample.darshan" },
    { "sample+sample-2.csv", "inputs/sample.darshan",
      "inputs/sample-2.darshan" },
    { "bogus-darshans.csv", "--silent-errors", "inputs/sample.darshan",
      "inputs/sample.xtdb2proc.gz", "inputs/sample-2.darshan",
      "garbagefile" },
};

static const char *const json_cases[][24] = {
    { "sample.json", "--json", "inputs/sample.darshan" },
    { "sample.topology.json", "--topology", "inputs/sample.xtdb2proc.gz",
      "--slurm-jobid", "inputs/sample.slurm", "--json",
      "inputs/sample.darshan" },
    { "sample.ost.json", "--json", "--ost", "--ost-fullness",
      "inputs/sample_ost-fullness.txt.gz", "--ost-map",
      "inputs/sample_ost-map.txt.gz", "inputs/sample.darshan" },
    { "sample.concurrentjobs.json", "--json", "--concurrentjobs",
      "inputs/sample_nersc_jobsdb.sqlite3", "--jobhost", "edison",
      "inputs/sample.darshan" },
    { "no-darshan.json", "--json", "--slurm-jobid", "4478544",
      "--start-time", "2017-03-20 02:07:47", "--end-time",
      "2017-03-20 02:09:43", "--file-system", "scratch2" },
    { "most-without-darshan.json", "--json", "--slurm-jobid",
      "inputs/sample.slurm", "--start-time", "2017-03-20 02:07:47",
      "--end-time", "2017-03-20 02:09:43", "--file-system", "scratch2",
      "--concurrentjobs", "inputs/sample_nersc_jobsdb.sqlite3", "--jobhost",
      "edison", "--ost", "--ost-fullness",
      "inputs/sample_ost-fullness.txt.gz", "--ost-map",
      "inputs/sample_ost-map.txt.gz", "--topology",
      "inputs/sample.xtdb2proc.gz" },
    { "sample.everything.json", "--json", "--slurm-jobid",
      "inputs/sample.slurm", "--topology", "inputs/sample.xtdb2proc.gz",
      "--concurrentjobs", "inputs/sample_nersc_jobsdb.sqlite3", "--jobhost",
      "edison", "--ost", "--ost-fullness",
      "inputs/sample_ost-fullness.txt.gz", "--ost-map",
      "inputs/sample_ost-map.txt.gz", "inputs/sample.darshan" },
};

static struct tokio_run
run_case(const struct tokio_workdir *wd, const char *const *args)
{
    const char *argv[32] = { "summarize-job" };
    const char *env[] = { "PYTOKIO_CONFIG=inputs/site.json", NULL };
    size_t n = 1;

    for (size_t i = 1; args[i] != NULL; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    struct tokio_run r = tokio_test_run(wd->dir, env, argv);
    if (r.status != 0)
        fail_msg("%s: exit %d: %s", args[0], r.status, r.err);
    assert_contains(r.err, WARNING);
    return r;
}

static void
test_summarize_job_csv_goldens(void **state)
{
    struct tokio_workdir *wd = *state;
    char rel[256];

    TOKIO_TEST_NEED_INPUTS(wd);
    for (size_t i = 0; i < sizeof(csv_cases) / sizeof(csv_cases[0]); i++) {
        struct tokio_run r = run_case(wd, csv_cases[i]);
        print_message("%s\n", csv_cases[i][0]);
        snprintf(rel, sizeof(rel), "golden/pytokio/summarize_job/%s",
                 csv_cases[i][0]);
        assert_golden(r.out, rel);
        tokio_run_free(&r);
    }
}

static void
test_summarize_job_json_goldens(void **state)
{
    struct tokio_workdir *wd = *state;
    char path[4096];

    TOKIO_TEST_NEED_INPUTS(wd);
    for (size_t i = 0; i < sizeof(json_cases) / sizeof(json_cases[0]); i++) {
        struct tokio_run r = run_case(wd, json_cases[i]);
        json_error_t err;
        json_t *ours = json_loads(r.out, 0, &err), *golden, *row;
        size_t k;

        print_message("%s\n", json_cases[i][0]);
        snprintf(path, sizeof(path), "%s/" GOLDEN "%s", wd->dir,
                 json_cases[i][0]);
        golden = json_load_file(path, 0, &err);
        assert_non_null(ours);
        assert_non_null(golden);
        json_array_foreach(golden, k, row) {
            json_t *mine = json_array_get(ours, k);
            json_t *g = json_object_get(row, "topology_job_avg_radius");
            const json_t *m = json_object_get(mine,
                                              "topology_job_avg_radius");
            if (g != NULL) {
                assert_non_null(m);
                assert_true(fabs(json_real_value(g) - json_real_value(m)) <=
                            1e-14 * json_real_value(g));
                json_object_set(mine, "topology_job_avg_radius", g);
            }
            if (json_object_get(row, "fshealth_ost_next_timestamp")) {
                assert_int_equal(json_integer_value(json_object_get(
                                     mine, "fshealth_ost_next_timestamp")),
                                 NEXT_SNAPSHOT);
                json_object_set(mine, "fshealth_ost_next_timestamp",
                                json_object_get(row,
                                                "fshealth_ost_next_timestamp"));
            }
        }
        if (!json_equal(ours, golden))
            fail_msg("%s differs from its golden:\n%s", json_cases[i][0],
                     r.out);
        json_decref(ours);
        json_decref(golden);
        tokio_run_free(&r);
    }
}

static void
test_summarize_job_bad_command_lines_exit_2(void **state)
{
    (void)state;
    tokio_test_run_fails(NULL, ((const char *[]){ "summarize-job", NULL }), 2,
                         "give Darshan logs, or --start-time and --end-time");
    tokio_test_run_fails(NULL, ((const char *[]){ "summarize-job",
                                                  "--start-time",
                                                  "2017-03-20 02:07:47",
                                                  NULL }),
                         2, "must be given together");
    tokio_test_run_fails(NULL, ((const char *[]){ "summarize-job",
                                                  "--start-time", "noon",
                                                  "--end-time", "later",
                                                  NULL }),
                         2, "--start-time 'noon' is not a time "
                         "YYYY-MM-DD HH:MM:SS");
    tokio_test_run_fails(NULL, ((const char *[]){ "summarize-job",
                                                  "--slurm-jobid", "1",
                                                  "a.darshan", "b.darshan",
                                                  NULL }),
                         2, "more than one log");
}

static void
test_summarize_job_bad_inputs_exit_1(void **state)
{
    struct tokio_workdir *wd = *state;
    const char *env[] = { "PYTOKIO_CONFIG=", NULL };
    char *bad = tokio_test_join(wd->dir, "notalog.darshan");
    char *out = tokio_test_join(wd->dir, "out.csv");

    tokio_test_write_file(bad, "hello\n", SIZE_MAX);
    tokio_test_run_fails(env, ((const char *[]){ "summarize-job", bad,
                                                 NULL }), 1, bad);
    tokio_test_run_fails(env, ((const char *[]){ "summarize-job", bad,
                                                 "--output", out, NULL }),
                         1, bad);
    tokio_test_run_fails(env, ((const char *[]){ "summarize-job",
                                                 "/nonexistent/x.darshan",
                                                 NULL }),
                         1, "/nonexistent/x.darshan");
    /* an unwritable output: named, and nothing left behind */
    tokio_test_run_fails(env, ((const char *[]){ "summarize-job",
                                                 "--start-time",
                                                 "2017-03-20 02:07:47",
                                                 "--end-time",
                                                 "2017-03-20 02:09:43",
                                                 "--output",
                                                 "/nonexistent/dir/o.csv",
                                                 NULL }),
                         1, "/nonexistent/dir/o.csv");
    assert_null(tokio_test_read_file(out, NULL));
    free(bad);
    free(out);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        TOKIO_TEST_IN_WORKDIR(test_summarize_job_csv_goldens),
        TOKIO_TEST_IN_WORKDIR(test_summarize_job_json_goldens),
        cmocka_unit_test(test_summarize_job_bad_command_lines_exit_2),
        TOKIO_TEST_IN_WORKDIR(test_summarize_job_bad_inputs_exit_1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
