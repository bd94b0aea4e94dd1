/*
 * tests/connectors/test_nersc_jobsdb.c - the NERSC jobs database
 * connector: get_job_startend and get_concurrent_jobs for every job of
 * the sample, against the reference's goldens (golden/pytokio/
 * nersc_jobsdb/: per-job CSV, windows JSON); the overlap arithmetic on a
 * fixture written here; the query memory; errors and out of memory.
 */
#include "testutil.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "tokio/config.h"
#include "tokio/connectors/nersc_jobsdb.h"
#include "tokio/output.h"
#include "tokio/tools/jobinfo.h"

#define SAMPLE "pytokio-inputs/sample_nersc_jobsdb.sqlite3"
#define GOLDEN "golden/pytokio/nersc_jobsdb/"

static char fixture_path[4200];

/* Three jobs on "h": fully inside, straddling the start, straddling the
 * end of [1000, 2000); one on another host; one ending at the start. */
static const char fixture[] =
    "CREATE TABLE summary(stepid primary key, hostname, start integer, "
    "completion integer, numnodes integer);"
    "INSERT INTO summary VALUES ('1.h', 'h', 1100, 1200, 2);"
    "INSERT INTO summary VALUES ('2.h', 'h', 500, 1500, 3);"
    "INSERT INTO summary VALUES ('3.h', 'h', 1900, 9000, 10);"
    "INSERT INTO summary VALUES ('4.o', 'o', 1000, 2000, 99);"
    "INSERT INTO summary VALUES ('5.h', 'h', 0, 1000, 7);"
    "INSERT INTO summary VALUES ('6.x', 'x', 0, 'late', 7);";

static int
setup(void **state)
{
    *state = tokio_test_sqlite_fixture(fixture, "jobs.sqlite3", fixture_path,
                                       sizeof(fixture_path));
    return *state != NULL ? 0 : -1;
}

static void
test_nersc_jobsdb_overlap_arithmetic(void **state)
{
    struct tokio_nersc_jobsdb *j = NULL;
    struct tokio_nersc_concurrent c;
    int64_t s, e;
    (void)state;

    assert_int_equal(tokio_nersc_jobsdb_open(&j, fixture_path, NULL), 0);
    assert_int_equal(tokio_nersc_jobsdb_get_concurrent_jobs(j, 1000, 2000,
                                                            "h", &c), 0);
    /* 2*100 + 3*500 + 10*100 node-seconds */
    assert_true(c.nodehrs == (2.0 * 100 + 3 * 500 + 10 * 100) / 3600.0);
    assert_int_equal(c.numnodes, 15);
    assert_int_equal(c.numjobs, 3);
    assert_int_equal(tokio_nersc_jobsdb_get_job_startend(j, "2", "h", &s, &e),
                     0);
    assert_int_equal(s, 500);
    assert_int_equal(e, 1500);
    assert_int_equal(tokio_nersc_jobsdb_get_job_startend(j, "4", "h", &s, &e),
                     TOKIO_ENOTFOUND);
    assert_contains(tokio_errmsg(), "no job '4' on 'h'");
    /* a row whose completion is not a number */
    assert_int_equal(tokio_nersc_jobsdb_get_job_startend(j, "6", "x", &s, &e),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'6.x'");
    tokio_nersc_jobsdb_free(j);
}

/* The same question twice is answered from memory. */
static void
test_nersc_jobsdb_remembers(void **state)
{
    struct tokio_nersc_jobsdb *j = NULL;
    struct tokio_nersc_concurrent a, b;
    (void)state;

    assert_int_equal(tokio_nersc_jobsdb_open(&j, fixture_path, NULL), 0);
    assert_int_equal(tokio_nersc_jobsdb_get_concurrent_jobs(j, 1000, 1100,
                                                            "h", &a), 0);
    assert_int_equal(tokio_cachingdb_last_hit(tokio_nersc_jobsdb_db(j)),
                     TOKIO_DB_HIT_CACHE);
    assert_int_equal(tokio_nersc_jobsdb_get_concurrent_jobs(j, 1000, 1100,
                                                            "h", &b), 0);
    assert_int_equal(tokio_cachingdb_last_hit(tokio_nersc_jobsdb_db(j)),
                     TOKIO_DB_HIT_MEMORY);
    assert_memory_equal(&a, &b, sizeof(a));
    tokio_nersc_jobsdb_free(j);
}

/*
 * The reference's per-job CSV: every job id of the sample, or under
 * valgrind every $TOKIO_TEST_GOLDEN_STRIDE-th (tests/CMakeLists.txt).
 * Each job is two queries over the whole sample (485 jobs, all
 * concurrent), the same lines and branches of the library for each (gcov:
 * all and every 7th take the same ones), and 485 of them were 77 s of
 * valgrind's time; the plain and sanitizer builds check them all.
 */
static void
test_nersc_jobsdb_per_job_golden(void **state)
{
    TOKIO_TEST_NEED_DATA(path, SAMPLE);
    struct tokio_nersc_jobsdb *j = NULL;
    char *want = tokio_test_read_file(tokio_test_data(GOLDEN
                                      "sample_nersc_jobsdb.per-job.csv"),
                                      NULL);
    char *line, *save = NULL;
    const char *env = getenv("TOKIO_TEST_GOLDEN_STRIDE");
    size_t n = 0, stride = env != NULL && atoi(env) > 1 ? (size_t)atoi(env)
                                                         : 1;
    (void)state;

    assert_non_null(want);
    assert_int_equal(tokio_nersc_jobsdb_open(&j, path, NULL), 0);
    for (line = strtok_r(want, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char jobid[64], got[256], num[64];
        int64_t s, e;
        struct tokio_nersc_concurrent c;

        if (n++ == 0 || (n - 2) % stride != 0)
            continue;   /* the header, or not sampled */
        assert_int_equal(sscanf(line, "%63[^,]", jobid), 1);
        assert_int_equal(tokio_nersc_jobsdb_get_job_startend(j, jobid,
                                                             "edison", &s,
                                                             &e), 0);
        assert_int_equal(tokio_nersc_jobsdb_get_concurrent_jobs(j, s, e,
                                                                "edison",
                                                                &c), 0);
        tokio_format_double(num, sizeof(num), c.nodehrs);
        snprintf(got, sizeof(got), "%s,%lld,%lld,%s,%lld,%lld", jobid,
                 (long long)s, (long long)e, num, (long long)c.numnodes,
                 (long long)c.numjobs);
        assert_string_equal(got, line);
    }
    assert_true(n > 400);
    free(want);
    tokio_nersc_jobsdb_free(j);
}

static void
test_nersc_jobsdb_windows_golden(void **state)
{
    TOKIO_TEST_NEED_DATA(path, SAMPLE);
    struct tokio_nersc_jobsdb *j = NULL;
    json_t *want = json_load_file(tokio_test_data(GOLDEN
                                  "sample_nersc_jobsdb.concurrent-windows."
                                  "json"), 0, NULL);
    size_t i;
    json_t *w;
    (void)state;

    assert_int_equal(json_array_size(want), 6);
    assert_int_equal(tokio_nersc_jobsdb_open(&j, path, NULL), 0);
    json_array_foreach(want, i, w) {
        struct tokio_nersc_concurrent c;

        assert_int_equal(tokio_nersc_jobsdb_get_concurrent_jobs(
            j, json_integer_value(json_object_get(w, "start")),
            json_integer_value(json_object_get(w, "end")), "edison", &c), 0);
        assert_true(c.nodehrs ==
                    json_real_value(json_object_get(w, "nodehrs")) ||
                    c.nodehrs ==
                    (double)json_integer_value(json_object_get(w,
                                                               "nodehrs")));
        assert_int_equal(c.numnodes,
                         json_integer_value(json_object_get(w, "numnodes")));
        assert_int_equal(c.numjobs,
                         json_integer_value(json_object_get(w, "numjobs")));
    }
    json_decref(want);
    tokio_nersc_jobsdb_free(j);
}

static void
test_nersc_jobsdb_no_database(void **state)
{
    struct tokio_nersc_jobsdb *j = NULL;
    (void)state;

    unsetenv("NERSC_JOBSDB_HOST");
    assert_int_equal(tokio_nersc_jobsdb_open(&j, NULL, NULL), TOKIO_EINVAL);
    assert_null(j);
    assert_contains(tokio_errmsg(), "NERSC_JOBSDB_HOST");
    setenv("NERSC_JOBSDB_HOST", "127.0.0.1", 1);
    setenv("NERSC_JOBSDB_USER", "u", 1);
    setenv("NERSC_JOBSDB_DB", "jobs", 1);
    setenv("NERSC_JOBSDB_PORT", "1", 1);
    assert_int_equal(tokio_nersc_jobsdb_open(&j, NULL, NULL), TOKIO_EIO);
    assert_contains(tokio_errmsg(), "connection refused");
    unsetenv("NERSC_JOBSDB_HOST");
}

/* jobinfo's "nersc_jobsdb" provider reads an SQLite cache file; the
 * host comes from the configuration or NERSC_HOST. */
static void
test_nersc_jobsdb_jobinfo_provider(void **state)
{
    struct tokio_config *cfg = NULL;
    static const char text[] = "{\"jobinfo_jobid_providers\": "
                               "[\"nersc_jobsdb\", \"slurm\"]}";
    int64_t s, e;
    (void)state;

    assert_int_equal(tokio_config_open_mem(&cfg, text, strlen(text), "t"), 0);
    unsetenv("NERSC_HOST");
    unsetenv("NERSC_JOBSDB_HOST");
    /* no host: skipped with the reason, slurm cannot read SQLite either */
    assert_true(tokio_jobinfo_get_job_startend(cfg, "2", fixture_path, &s,
                                               &e) < 0);
    assert_contains(tokio_errmsg(), "nersc_jobsdb: not available: "
                    "NERSC_HOST");
    setenv("NERSC_HOST", "h", 1);
    assert_int_equal(tokio_jobinfo_get_job_startend(cfg, "2", fixture_path,
                                                    &s, &e), 0);
    assert_int_equal(s, 500);
    assert_int_equal(e, 1500);
    /* nodes: this provider knows none */
    char **nodes = NULL;
    size_t n = 0;
    static const char ntext[] = "{\"jobinfo_jobnodes_providers\": "
                                "[\"nersc_jobsdb\"]}";
    tokio_config_free(cfg);
    assert_int_equal(tokio_config_open_mem(&cfg, ntext, strlen(ntext), "t"),
                     0);
    assert_int_equal(tokio_jobinfo_get_job_nodes(cfg, "2", fixture_path,
                                                 &nodes, &n),
                     TOKIO_ENOTFOUND);
    assert_contains(tokio_errmsg(), "knows no job nodes");
    unsetenv("NERSC_HOST");
    tokio_config_free(cfg);
}

static int
oom_trial(void *ctx)
{
    struct tokio_nersc_jobsdb *j = NULL;
    struct tokio_nersc_concurrent c;
    int64_t s, e;
    int rc;

    (void)ctx;
    if ((rc = tokio_nersc_jobsdb_open(&j, fixture_path, NULL)) < 0)
        return rc;
    rc = tokio_nersc_jobsdb_get_concurrent_jobs(j, 1000, 2000, "h", &c);
    if (rc >= 0)
        rc = tokio_nersc_jobsdb_get_job_startend(j, "1", "h", &s, &e);
    tokio_nersc_jobsdb_free(j);
    return rc;
}

static void
test_nersc_jobsdb_survives_every_oom(void **state)
{
    (void)state;
    tokio_test_every_oom(oom_trial, NULL, 1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nersc_jobsdb_overlap_arithmetic),
        cmocka_unit_test(test_nersc_jobsdb_remembers),
        cmocka_unit_test(test_nersc_jobsdb_per_job_golden),
        cmocka_unit_test(test_nersc_jobsdb_windows_golden),
        cmocka_unit_test(test_nersc_jobsdb_no_database),
        cmocka_unit_test(test_nersc_jobsdb_jobinfo_provider),
        cmocka_unit_test(test_nersc_jobsdb_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, setup, tokio_test_remove_dir);
}
