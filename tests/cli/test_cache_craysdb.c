/*
 * tests/cli/test_cache_craysdb.c - `tokio cache-craysdb` from a working
 * folder laid out as golden/pytokio/COMMANDS.md describes: JSON by value
 * against the reference's golden (section craysdb: json.dumps of
 * CraySdbProc), --native byte for byte against its save_cache() text,
 * reading its own JSON back, CSV, failures.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GOLDEN "golden/pytokio/craysdb/"

static void
test_cache_craysdb_matches_goldens(void **state)
{
    (void)state;
    struct tokio_workdir wd;
    const char *json[] = { "cache-craysdb", "inputs/sample.xtdb2proc.gz",
                           NULL };
    const char *native[] = { "cache-craysdb", "--native",
                             "inputs/sample.xtdb2proc.gz", NULL };
    const char *back[] = { "cache-craysdb", "-n",
                           "golden/craysdb/sample.xtdb2proc.CraySdbProc.json",
                           NULL };

    if (tokio_test_workdir(&wd) != 0) {
        tokio_test_workdir_free(&wd);
        print_message("skipped: ../shared/testdata is absent\n");
        skip();
    }
    struct tokio_run r = tokio_test_run(wd.dir, NULL, json);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    assert_golden(r.out, GOLDEN "sample.xtdb2proc.CraySdbProc.json");
    tokio_run_free(&r);
    r = tokio_test_run(wd.dir, NULL, native);
    assert_int_equal(r.status, 0);
    assert_golden(r.out, GOLDEN "sample.xtdb2proc.save_cache.txt");
    tokio_run_free(&r);
    /* the golden JSON read back: same records; the golden is key-sorted,
     * so the text lists keys in sorted order (compare by line count) */
    r = tokio_test_run(wd.dir, NULL, back);
    assert_int_equal(r.status, 0);
    size_t lines = 0;
    for (const char *p = r.out; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 499);
    assert_contains(r.out, "alloc_mode='interactive',cab_position=");
    tokio_run_free(&r);
    tokio_test_workdir_free(&wd);
}

static const char table[] =
    "# xtdb2proc -f -\n"
    "cpu=0,slot=2,cabinet=null,x_coord=13,processor_status='up',"
    "processor_id=5000\n"
    "cpu=1,slot=2,cabinet=null,x_coord=14,processor_status='s\"q',"
    "processor_id=5001\n";

static void
test_cache_craysdb_csv_json_and_output(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), in[4096], out[4096], *saved;

    snprintf(in, sizeof(in), "%s/xtdb2proc.txt", dir);
    snprintf(out, sizeof(out), "%s/out.json", dir);
    tokio_test_write_file(in, table, SIZE_MAX);
    const char *csv[] = { "cache-craysdb", "--csv", in, NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, csv);
    assert_int_equal(r.status, 0);
    /* null is an empty cell; a double quote is quoted */
    assert_string_equal(r.out,
        "cpu,slot,cabinet,x_coord,processor_status,processor_id\n"
        "0,2,,13,up,5000\n"
        "1,2,,14,\"s\"\"q\",5001\n");
    tokio_run_free(&r);

    const char *to_file[] = { "cache-craysdb", "-o", out, in, NULL };
    r = tokio_test_run(NULL, NULL, to_file);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
    saved = tokio_test_read_file(out, NULL);
    assert_contains(saved, "\"5000\": {\n        \"cabinet\": null,");
    const char *back[] = { "cache-craysdb", "--native", out, NULL };
    r = tokio_test_run(NULL, NULL, back);
    assert_int_equal(r.status, 0);
    /* JSON keys come back sorted */
    assert_string_equal(r.out,
        "cabinet=null,cpu=0,processor_id=5000,processor_status='up',slot=2,"
        "x_coord=13\n"
        "cabinet=null,cpu=1,processor_id=5001,processor_status='s\"q',"
        "slot=2,x_coord=14\n");
    tokio_run_free(&r);
    free(saved);
    tokio_test_rmtree(dir);
    free(dir);
}

/*
 * Without a file the command runs `xtdb2proc -f -`: a stand-in script on
 * PATH prints a table and checks the arguments it was given; with no
 * xtdb2proc on PATH the failure names it.
 */
static void
test_cache_craysdb_runs_xtdb2proc(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), tool[4096], path_env[4200];
    const char *argv[] = { "cache-craysdb", "--native", NULL };

    snprintf(tool, sizeof(tool), "%s/xtdb2proc", dir);
    tokio_test_write_file(tool,
        "#!/bin/sh\n"
        "[ \"$*\" = \"-f -\" ] || { echo \"bad args: $*\" >&2; exit 2; }\n"
        "echo '# comment'\n"
        "echo \"processor_id=7,x_coord=1,status='up'\"\n", SIZE_MAX);
    assert_int_equal(chmod(tool, 0755), 0);
    snprintf(path_env, sizeof(path_env), "PATH=%s:/usr/bin:/bin", dir);
    const char *env[] = { path_env, NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "processor_id=7,x_coord=1,status='up'\n");
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
test_cache_craysdb_failures(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), bad[4096], badjson[4096];
    snprintf(bad, sizeof(bad), "%s/bad.txt", dir);
    snprintf(badjson, sizeof(badjson), "%s/bad.json", dir);
    tokio_test_write_file(bad, "cpu=0,processor_id=1\ncpu\n", SIZE_MAX);
    tokio_test_write_file(badjson, "{\"1\": 5,}", SIZE_MAX);
    const struct {
        int status;
        const char *argv[5];
        const char *msg;
    } cases[] = {
        { 2, { "cache-craysdb", "a", "b", NULL }, "only one input file" },
        { 2, { "cache-craysdb", "-c", "-n", "a", NULL },
          "give --csv or --native, not both" },
        { 1, { "cache-craysdb", "/nonexistent/x", NULL }, "/nonexistent/x" },
        { 1, { "cache-craysdb", bad, NULL }, "bad.txt' line 2" },
        { 1, { "cache-craysdb", badjson, NULL }, "bad.json' line 1" },
        { 1, { "cache-craysdb", "-o", "/nonexistent/d/o.json", "/dev/null",
               NULL }, "/nonexistent/d" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_run r = tokio_test_run(NULL, NULL, cases[i].argv);
        if (r.status != cases[i].status)
            fail_msg("case %zu: exit %d, stderr %s", i, r.status, r.err);
        assert_contains(r.err, cases[i].msg);
        assert_string_equal(r.out, "");
        tokio_run_free(&r);
    }
    /* a JSON table that is not the reference's form */
    tokio_test_write_file(badjson, "{\"1\": 5}", SIZE_MAX);
    const char *argv[] = { "cache-craysdb", badjson, NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "bad.json': Cray SDB record '1' is not an object");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_craysdb_matches_goldens),
        cmocka_unit_test(test_cache_craysdb_csv_json_and_output),
        cmocka_unit_test(test_cache_craysdb_runs_xtdb2proc),
        cmocka_unit_test(test_cache_craysdb_failures),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
