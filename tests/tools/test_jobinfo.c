/*
 * tests/tools/test_jobinfo.c - src/tools/jobinfo.c: the reference's
 * goldens (golden/pytokio/jobinfo/, job 4478544 of sample.slurm), then
 * the provider list: skipping unavailable providers, and the message when
 * none can answer.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "tokio/config.h"
#include "tokio/time.h"
#include "tokio/tools/common.h"
#include "tokio/tools/jobinfo.h"

#define SAMPLE "pytokio-inputs/sample.slurm"
#define GOLDEN "golden/pytokio/jobinfo/"

static struct tokio_config *
config(const char *text)
{
    struct tokio_config *cfg = NULL;

    assert_int_equal(tokio_config_open_mem(&cfg, text, strlen(text), "t"),
                     TOKIO_OK);
    return cfg;
}

/* ---- goldens ---------------------------------------------------------- */

static void
test_jobinfo_startend_matches_golden(void **state)
{
    TOKIO_TEST_NEED_DATA(path, SAMPLE);
    char *p = strdup(path);
    TOKIO_TEST_NEED_DATA(golden, GOLDEN
                         "get_job_startend.4478544.sample.slurm.json");
    int64_t start, end;
    char t0[32], t1[32];
    (void)state;

    assert_int_equal(tokio_jobinfo_get_job_startend(NULL, "4478544", p,
                                                    &start, &end), TOKIO_OK);
    tokio_time_format(t0, sizeof(t0), start, "%Y-%m-%d %H:%M:%S");
    tokio_time_format(t1, sizeof(t1), end, "%Y-%m-%d %H:%M:%S");
    json_t *got = json_pack("[s,s]", t0, t1);
    json_t *want = json_load_file(golden, 0, NULL);
    assert_true(json_equal(got, want));
    json_decref(got);
    json_decref(want);
    free(p);
}

static void
test_jobinfo_nodes_match_golden(void **state)
{
    TOKIO_TEST_NEED_DATA(path, SAMPLE);
    char *p = strdup(path);
    TOKIO_TEST_NEED_DATA(golden, GOLDEN
                         "get_job_nodes.4478544.sample.slurm.json");
    char **nodes = NULL;
    size_t n = 0;
    (void)state;

    assert_int_equal(tokio_jobinfo_get_job_nodes(NULL, "4478544", p, &nodes,
                                                 &n), TOKIO_OK);
    json_t *got = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(got, json_string(nodes[i]));
    json_t *want = json_load_file(golden, 0, NULL);
    assert_int_equal(n, 128);
    assert_true(json_equal(got, want));
    json_decref(got);
    json_decref(want);
    tokio_free_strings(nodes, n);
    free(p);
}

/* ---- providers -------------------------------------------------------- */

static void
test_jobinfo_skips_unavailable_provider(void **state)
{
    TOKIO_TEST_NEED_DATA(path, SAMPLE);
    struct tokio_config *cfg = config(
        "{\"jobinfo_jobid_providers\": [\"nersc_jobsdb\", \"slurm\"]}");
    int64_t start, end;
    (void)state;

    assert_int_equal(tokio_jobinfo_get_job_startend(cfg, "4478544", path,
                                                    &start, &end), TOKIO_OK);
    assert_true(end - start == 12 * 60 + 37);
    tokio_config_free(cfg);
}

static void
test_jobinfo_no_provider_names_each(void **state)
{
    struct tokio_config *cfg = config(
        "{\"jobinfo_jobid_providers\": [\"nersc_jobsdb\", \"bogus\"]}");
    int64_t start, end;
    (void)state;

    assert_int_equal(tokio_jobinfo_get_job_startend(cfg, "1", NULL, &start,
                                                    &end), TOKIO_ENOTFOUND);
    assert_contains(tokio_errmsg(), "no jobinfo provider could answer for "
                    "job '1'");
    assert_contains(tokio_errmsg(), "nersc_jobsdb: not available");
    assert_contains(tokio_errmsg(), "bogus: unknown provider");
    tokio_config_free(cfg);
}

static void
test_jobinfo_slurm_without_sacct_says_why(void **state)
{
    char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    char **nodes = NULL;
    size_t n = 0;
    (void)state;

    setenv("PATH", "/nonexistent", 1);
    assert_int_equal(tokio_jobinfo_get_job_nodes(NULL, "1", NULL, &nodes,
                                                 &n), TOKIO_ENOTFOUND);
    assert_contains(tokio_errmsg(), "slurm: Slurm's 'sacct' command is not "
                    "on PATH");
    assert_null(nodes);
    if (old) {
        setenv("PATH", old, 1);
        free(old);
    }
}

static void
test_jobinfo_job_not_in_cache_is_enotfound(void **state)
{
    TOKIO_TEST_NEED_DATA(path, SAMPLE);
    int64_t start, end;
    (void)state;

    assert_int_equal(tokio_jobinfo_get_job_startend(NULL, "447854", path,
                                                    &start, &end),
                     TOKIO_ENOTFOUND);
    assert_contains(tokio_errmsg(), "no task of job '447854'");
}

static void
test_jobinfo_bad_cache_keeps_its_status(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    int64_t start, end;
    (void)state;

    snprintf(path, sizeof(path), "%s/bad.json", dir);
    tokio_test_write_file(path, "{\"1\": 5}", SIZE_MAX);
    assert_int_equal(tokio_jobinfo_get_job_startend(NULL, "1", path, &start,
                                                    &end), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "task '1': not an object");
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_jobinfo_bad_provider_lists_are_einval(void **state)
{
    struct tokio_config *a = config("{\"jobinfo_jobid_providers\": \"slurm\"}");
    struct tokio_config *b = config("{\"jobinfo_jobnodes_providers\": [1]}");
    struct tokio_config *c = config("{\"jobinfo_jobid_providers\": []}");
    int64_t s, e;
    char **nodes = NULL;
    size_t n = 0;
    (void)state;

    assert_int_equal(tokio_jobinfo_get_job_startend(a, "1", NULL, &s, &e),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "must be a list of provider names");
    assert_int_equal(tokio_jobinfo_get_job_nodes(b, "1", NULL, &nodes, &n),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_jobinfo_get_job_startend(c, "1", NULL, &s, &e),
                     TOKIO_ENOTFOUND);
    assert_contains(tokio_errmsg(), "is empty");
    assert_int_equal(tokio_jobinfo_get_job_startend(NULL, "", NULL, &s, &e),
                     TOKIO_EINVAL);
    tokio_config_free(a);
    tokio_config_free(b);
    tokio_config_free(c);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jobinfo_startend_matches_golden),
        cmocka_unit_test(test_jobinfo_nodes_match_golden),
        cmocka_unit_test(test_jobinfo_skips_unavailable_provider),
        cmocka_unit_test(test_jobinfo_no_provider_names_each),
        cmocka_unit_test(test_jobinfo_slurm_without_sacct_says_why),
        cmocka_unit_test(test_jobinfo_job_not_in_cache_is_enotfound),
        cmocka_unit_test(test_jobinfo_bad_cache_keeps_its_status),
        cmocka_unit_test(test_jobinfo_bad_provider_lists_are_einval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
