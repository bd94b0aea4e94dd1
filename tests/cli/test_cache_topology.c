/*
 * tests/cli/test_cache_topology.c - `tokio cache-topology` run as the
 * reference's golden was made (golden/pytokio/COMMANDS.md, section
 * cache_topology), output compared with
 * golden/pytokio/cache_topology/sample.slurm+sample.xtdb2proc.json by
 * value: job_min_radius and job_max_radius exactly, job_avg_radius within
 * a relative 1e-14 (the reference summed over a Python set, so its last
 * digit depends on hash order); then -o, the {} case and usage errors.
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#define SLURM "pytokio-inputs/sample.slurm"
#define NODEMAP "pytokio-inputs/sample.xtdb2proc.gz"
#define GOLDEN \
    "golden/pytokio/cache_topology/sample.slurm+sample.xtdb2proc.json"
#define AVG_RTOL 1e-14

static void
assert_matches_golden(const char *text, const char *golden_path)
{
    json_t *golden = json_load_file(golden_path, 0, NULL);
    json_t *ours = json_loads(text, 0, NULL);
    static const char *const exact[] = { "job_min_radius", "job_max_radius" };

    assert_non_null(golden);
    assert_non_null(ours);
    assert_int_equal(json_object_size(ours), 3);
    for (int i = 0; i < 2; i++)
        assert_true(json_real_value(json_object_get(ours, exact[i])) ==
                    json_real_value(json_object_get(golden, exact[i])));
    double want = json_real_value(json_object_get(golden, "job_avg_radius"));
    double got = json_real_value(json_object_get(ours, "job_avg_radius"));
    if (fabs(got - want) > AVG_RTOL * want)
        fail_msg("job_avg_radius %.17g, golden %.17g", got, want);
    json_decref(golden);
    json_decref(ours);
}

static void
test_cache_topology_matches_golden(void **state)
{
    (void)state;
    char slurm[4096], nodemap[4096];
    TOKIO_TEST_NEED_DATA(s, SLURM);
    snprintf(slurm, sizeof(slurm), "%s", s);
    TOKIO_TEST_NEED_DATA(m, NODEMAP);
    snprintf(nodemap, sizeof(nodemap), "%s", m);
    TOKIO_TEST_NEED_DATA(golden, GOLDEN);
    const char *argv[] = { "cache-topology", "--nodemap-cache", nodemap,
                           "--jobinfo-cache", slurm, NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    /* the layout is json.dumps(indent=4, sort_keys=True) */
    assert_true(strncmp(r.out, "{\n    \"job_avg_radius\": ", 24) == 0);
    assert_contains(r.out, "\n    \"job_max_radius\": 8.042402428155796,\n"
                           "    \"job_min_radius\": 2.2518574147592583\n}\n");
    assert_matches_golden(r.out, golden);
    tokio_run_free(&r);
}

static void
test_cache_topology_output_file_holds_same_json(void **state)
{
    (void)state;
    char slurm[4096], nodemap[4096], out[4096];
    TOKIO_TEST_NEED_DATA(s, SLURM);
    snprintf(slurm, sizeof(slurm), "%s", s);
    TOKIO_TEST_NEED_DATA(m, NODEMAP);
    snprintf(nodemap, sizeof(nodemap), "%s", m);
    TOKIO_TEST_NEED_DATA(golden, GOLDEN);
    char *dir = tokio_test_mkdtemp();
    snprintf(out, sizeof(out), "%s/topo.json", dir);
    const char *argv[] = { "cache_topology", "--jobinfo-cache", slurm,
                           "--nodemap-cache", nodemap, "-o", out, NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);
    char *text;

    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    text = tokio_test_read_file(out, NULL);
    assert_non_null(text);
    assert_matches_golden(text, golden);
    free(text);
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
}

/* `tokio cache-topology` on job.json, a Slurm cache of job 7 on `node`,
 * and map.txt holding `map_text`, both in a temporary folder. */
static struct tokio_run
run_job_and_map(const char *node, const char *map_text)
{
    char *dir = tokio_test_mkdtemp(), job[512];
    char *slurm = tokio_test_join(dir, "job.json");
    char *map = tokio_test_join(dir, "map.txt");
    const char *argv[] = { "cache-topology", "--nodemap-cache", map,
                           "--jobinfo-cache", slurm, NULL };

    snprintf(job, sizeof(job),
             "{\"7\": {\"jobidraw\": \"7\", \"start\": "
             "\"2017-03-20T01:59:02\", \"end\": \"2017-03-20T02:11:39\", "
             "\"nodelist\": [\"%s\"]}}", node);
    tokio_test_write_file(slurm, job, SIZE_MAX);
    tokio_test_write_file(map, map_text, SIZE_MAX);
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);
    tokio_test_rmtree(dir);
    free(slurm);
    free(map);
    free(dir);
    return r;
}

static void
test_cache_topology_non_cray_nodes_print_braces_and_warn(void **state)
{
    (void)state;
    struct tokio_run r = run_job_and_map(
        "login3", "x_coord=0,y_coord=0,z_coord=0,processor_id=1\n");

    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "{}\n");
    assert_contains(r.err, "warning: cannot place node 'login3'");
    tokio_run_free(&r);
}

static void
test_cache_topology_garbled_map_exits_1_naming_line(void **state)
{
    (void)state;
    struct tokio_run r = run_job_and_map(
        "nid1", "# header\nprocessor_id=1,garbage\n");

    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "map.txt' line 2");
    tokio_run_free(&r);
}

/* Issue 17, item 8: a node the map lacks said only "node 'nid2':
 * processor 2 is not in the Cray SDB processor table", naming neither
 * file. */
static void
test_cache_topology_node_not_in_map_names_both_files(void **state)
{
    (void)state;
    struct tokio_run r = run_job_and_map(
        "nid2", "x_coord=0,y_coord=0,z_coord=0,processor_id=1\n");

    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "map.txt' (the nodes of '");
    assert_contains(r.err, "job.json'): node 'nid2': processor 2 is not in "
                    "the Cray SDB processor table\n");
    assert_int_equal(strchr(r.err, '\n')[1], '\0');
    tokio_run_free(&r);
}

/*
 * Without --nodemap-cache the map comes from running `xtdb2proc -f -`:
 * a stand-in on PATH prints the sample map, and the result is the
 * golden's; with no xtdb2proc on PATH the failure names it.
 */
static void
test_cache_topology_runs_xtdb2proc_without_nodemap(void **state)
{
    (void)state;
    char slurm[4096], tool[4096], path_env[4200], script[8300];
    TOKIO_TEST_NEED_DATA(s, SLURM);
    snprintf(slurm, sizeof(slurm), "%s", s);
    TOKIO_TEST_NEED_DATA(m, NODEMAP);
    TOKIO_TEST_NEED_DATA(golden, GOLDEN);
    char *dir = tokio_test_mkdtemp();
    const char *argv[] = { "cache-topology", "--jobinfo-cache", slurm, NULL };

    snprintf(tool, sizeof(tool), "%s/xtdb2proc", dir);
    snprintf(script, sizeof(script),
             "#!/bin/sh\n[ \"$*\" = \"-f -\" ] || exit 2\n"
             "exec gzip -dc '%s'\n", m);
    tokio_test_write_file(tool, script, SIZE_MAX);
    assert_int_equal(chmod(tool, 0755), 0);
    snprintf(path_env, sizeof(path_env), "PATH=%s:/usr/bin:/bin", dir);
    const char *env[] = { path_env, NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    assert_matches_golden(r.out, golden);
    tokio_run_free(&r);

    const char *no_tool[] = { "PATH=/nonexistent", NULL };
    r = tokio_test_run(NULL, no_tool, argv);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "'xtdb2proc' command is not on PATH");
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_cache_topology_bad_usage_exits_2(void **state)
{
    (void)state;
    static const char *const cases[][6] = {
        { "cache-topology", NULL },
        { "cache-topology", "--nodemap-cache", "m", NULL },
        { "cache-topology", "--nodemap-cache", "m", "--jobinfo-cache", "j" },
        { "cache-topology", "--nodemap-cache", "m", "1", "2", NULL },
        { "cache-topology", "--bogus", NULL },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *argv[8] = { 0 };
        for (int k = 0; k < 6 && cases[i][k]; k++)
            argv[k] = cases[i][k];
        if (i == 2)
            argv[5] = "1";      /* both a cache and a job id */
        struct tokio_run r = tokio_test_run(NULL, NULL, argv);

        assert_int_equal(r.status, 2);
        assert_contains(r.err, "tokio cache-topology --help");
        tokio_run_free(&r);
    }
}

static void
test_cache_topology_help_exits_0(void **state)
{
    (void)state;
    const char *argv[] = { "cache-topology", "--help", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    assert_int_equal(r.status, 0);
    assert_contains(r.out, "--nodemap-cache");
    assert_contains(r.out, "--jobinfo-cache");
    tokio_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_topology_matches_golden),
        cmocka_unit_test(test_cache_topology_output_file_holds_same_json),
        cmocka_unit_test(
            test_cache_topology_non_cray_nodes_print_braces_and_warn),
        cmocka_unit_test(test_cache_topology_garbled_map_exits_1_naming_line),
        cmocka_unit_test(
            test_cache_topology_node_not_in_map_names_both_files),
        cmocka_unit_test(test_cache_topology_runs_xtdb2proc_without_nodemap),
        cmocka_unit_test(test_cache_topology_bad_usage_exits_2),
        cmocka_unit_test(test_cache_topology_help_exits_0),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
