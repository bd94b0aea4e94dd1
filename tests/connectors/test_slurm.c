/*
 * tests/connectors/test_slurm.c - src/connectors/slurm.c against the
 * reference's goldens (golden/pytokio/slurm/ and cache_slurm/, made from
 * pytokio-inputs/sample.slurm), recasting, the methods, node-list
 * expansion and compaction, round trips.  What every connector must do
 * (fixtures in tests/connectors/slurm/good/ read and read back, the
 * malformed inputs of tests/connectors/slurm/bad/, every failed
 * allocation) is checked by test_connectors.c.
 */
#include "testutil.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>

#include "core/alloc.h"
#include "tokio/connectors/slurm.h"
#include "tokio/output.h"
#include "tokio/time.h"

#define SAMPLE "pytokio-inputs/sample.slurm"
#define GOLDEN "golden/pytokio/"

/* ---- helpers --------------------------------------------------------- */

static char *
write_native(const struct tokio_slurm *s, int csv)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    assert_int_equal(csv ? tokio_slurm_write_csv(s, fp)
                         : tokio_slurm_write_native(s, fp), TOKIO_OK);
    fclose(fp);
    return buf;
}

static json_t *
load_golden(const char *path)
{
    json_error_t err;
    json_t *j = json_load_file(path, 0, &err);

    if (j == NULL)
        fail_msg("%s: %s", path, err.text);
    return j;
}

static void
assert_json_equal(json_t *got, json_t *want)
{
    if (!json_equal(got, want)) {
        char *a = json_dumps(got, JSON_SORT_KEYS | JSON_INDENT(1));
        char *b = json_dumps(want, JSON_SORT_KEYS | JSON_INDENT(1));
        print_message("got:\n%.2000s\nwant:\n%.2000s\n", a, b);
        free(a);
        free(b);
        fail();
    }
}

/* ---- goldens ---------------------------------------------------------- */

static void
test_slurm_methods_match_golden(void **state)
{
    TOKIO_TEST_NEED_DATA(path, SAMPLE);
    char *p = strdup(path);
    TOKIO_TEST_NEED_DATA(golden, GOLDEN "slurm/sample.slurm.methods.json");
    struct tokio_slurm *s = NULL;
    const char **ids = NULL, **nodes = NULL;
    size_t n_ids, n_nodes;
    int64_t start, end;
    char t0[32], t1[32];
    (void)state;

    assert_int_equal(tokio_slurm_open(&s, p), TOKIO_OK);
    assert_int_equal(tokio_slurm_count(s), 11);
    assert_int_equal(tokio_slurm_get_job_ids(s, &ids, &n_ids), TOKIO_OK);
    assert_int_equal(tokio_slurm_get_job_nodes(s, &nodes, &n_nodes),
                     TOKIO_OK);
    assert_int_equal(tokio_slurm_get_job_startend(s, &start, &end),
                     TOKIO_OK);
    /* Python printed the datetimes with str(): a space, no 'T' */
    tokio_time_format(t0, sizeof(t0), start, "%Y-%m-%d %H:%M:%S");
    tokio_time_format(t1, sizeof(t1), end, "%Y-%m-%d %H:%M:%S");
    json_t *got = json_pack("{s:[],s:[s,s],s:[]}", "get_job_ids",
                            "get_job_startend", t0, t1,
                            "get_job_nodes(sorted)");
    for (size_t i = 0; i < n_ids; i++)
        json_array_append_new(json_object_get(got, "get_job_ids"),
                              json_string(ids[i]));
    for (size_t i = 0; i < n_nodes; i++)
        json_array_append_new(json_object_get(got, "get_job_nodes(sorted)"),
                              json_string(nodes[i]));
    json_t *want = load_golden(golden);
    assert_json_equal(got, want);
    json_decref(got);
    json_decref(want);
    free(ids);
    free(nodes);
    free(p);
    tokio_slurm_free(s);
}

static void
test_slurm_csv_matches_to_dataframe(void **state)
{
    TOKIO_TEST_NEED_DATA(path, SAMPLE);
    char *p = strdup(path);
    TOKIO_TEST_NEED_DATA(golden, GOLDEN "slurm/sample.slurm.to_dataframe.csv");
    struct tokio_slurm *s = NULL;
    (void)state;

    assert_int_equal(tokio_slurm_open(&s, p), TOKIO_OK);
    char *want = tokio_test_read_file(golden, NULL);
    char *got = write_native(s, 1);
    assert_string_equal(got, want);
    free(got);
    free(want);
    free(p);
    tokio_slurm_free(s);
}

static void
test_slurm_json_and_native_match_cache_slurm(void **state)
{
    TOKIO_TEST_NEED_DATA(path, SAMPLE);
    char *p = strdup(path);
    TOKIO_TEST_NEED_DATA(gj, GOLDEN "cache_slurm/sample.slurm.json");
    char *gjson = strdup(gj);
    TOKIO_TEST_NEED_DATA(gn, GOLDEN "cache_slurm/sample.slurm.native.txt");
    struct tokio_slurm *s = NULL;
    json_t *got = NULL;
    (void)state;

    assert_int_equal(tokio_slurm_open(&s, p), TOKIO_OK);
    assert_int_equal(tokio_slurm_to_json(s, &got), TOKIO_OK);
    json_t *want = load_golden(gjson);
    assert_json_equal(got, want);
    /* the golden is print(str(...)): one newline more than the form */
    char *native = tokio_test_read_file(gn, NULL);
    native[strlen(native) - 1] = '\0';
    char *mine = write_native(s, 0);
    assert_string_equal(mine, native);
    free(mine);
    free(native);
    json_decref(got);
    json_decref(want);
    free(gjson);
    free(p);
    tokio_slurm_free(s);
}

/* ---- round trips -------------------------------------------------------- */

static void
test_slurm_json_round_trip(void **state)
{
    TOKIO_TEST_NEED_DATA(path, SAMPLE);
    struct tokio_slurm *s = NULL, *t = NULL;
    json_t *a = NULL, *b = NULL;
    (void)state;

    assert_int_equal(tokio_slurm_open(&s, path), TOKIO_OK);
    assert_int_equal(tokio_slurm_to_json(s, &a), TOKIO_OK);
    assert_int_equal(tokio_slurm_from_json(&t, a), TOKIO_OK);
    assert_int_equal(tokio_slurm_to_json(t, &b), TOKIO_OK);
    assert_json_equal(b, a);
    /* and through the native text form, which is sacct text */
    char *native = write_native(s, 0);
    tokio_slurm_free(t);
    assert_int_equal(tokio_slurm_open_mem(&t, native, strlen(native), "n"),
                     TOKIO_OK);
    json_decref(b);
    assert_int_equal(tokio_slurm_to_json(t, &b), TOKIO_OK);
    assert_json_equal(b, a);
    free(native);
    json_decref(a);
    json_decref(b);
    tokio_slurm_free(s);
    tokio_slurm_free(t);
}

/* The task `id` of the table's JSON form (borrowed from `all`). */
static json_t *
task(json_t *all, const char *id)
{
    json_t *t = json_object_get(all, id);

    if (t == NULL)
        fail_msg("no task '%s'", id);
    return t;
}

static struct tokio_slurm *
open_fixture(const char *name)
{
    char rel[256];
    struct tokio_slurm *s = NULL;

    snprintf(rel, sizeof(rel), "tests/connectors/slurm/good/%s", name);
    if (tokio_slurm_open(&s, tokio_test_source(rel)) < 0)
        fail_msg("%s: %s", name, tokio_errmsg());
    return s;
}

/* The table's earliest start is `t0` (local time), its latest end `dt`
 * seconds later. */
static void
assert_startend(const struct tokio_slurm *s, const char *t0, int64_t dt)
{
    int64_t start, end, want;

    assert_int_equal(tokio_slurm_get_job_startend(s, &start, &end),
                     TOKIO_OK);
    assert_int_equal(tokio_time_parse_format(t0, "%Y-%m-%dT%H:%M:%S",
                                             &want), TOKIO_OK);
    assert_int_equal(start, want);
    assert_int_equal(end, want + dt);
}

/* sacct --parsable text of two jobs: trailing '|', a pending job */
static void
test_slurm_sacct_text_parses_and_recasts(void **state)
{
    struct tokio_slurm *s = open_fixture("parsable.txt");
    const char **ids = NULL, **nodes = NULL;
    json_t *all = NULL;
    size_t n;
    int64_t start, end;
    (void)state;

    assert_int_equal(tokio_slurm_count(s), 4);
    assert_int_equal(tokio_slurm_to_json(s, &all), TOKIO_OK);
    /* input order */
    assert_string_equal(json_object_iter_key(json_object_iter_next(all,
                            json_object_iter(all))), "5.batch");
    json_t *t0 = task(all, "5");
    assert_string_equal(json_string_value(json_object_get(t0, "state")),
                        "COMPLETED");
    assert_null(json_object_get(t0, ""));
    assert_int_equal(json_array_size(json_object_get(t0, "nodelist")), 4);
    assert_string_equal(json_string_value(json_array_get(
        json_object_get(t0, "nodelist"), 3)), "nid00007");
    json_t *t3 = task(all, "6");
    assert_true(json_is_array(json_object_get(t3, "nodelist")));
    assert_int_equal(json_array_size(json_object_get(t3, "nodelist")), 0);
    json_decref(all);
    assert_int_equal(tokio_slurm_get_job_ids(s, &ids, &n), TOKIO_OK);
    assert_int_equal(n, 2);
    assert_string_equal(ids[0], "5");
    assert_string_equal(ids[1], "6");
    free(ids);
    assert_int_equal(tokio_slurm_get_job_nodes(s, &nodes, &n), TOKIO_OK);
    assert_int_equal(n, 4);
    free(nodes);
    /* job 6 is pending: its Unknown times are passed over */
    assert_startend(s, "2019-02-14T10:00:00", 3601);
    assert_int_equal(tokio_slurm_select_job(s, "7"), TOKIO_ENOTFOUND);
    assert_int_equal(tokio_slurm_count(s), 4);
    assert_int_equal(tokio_slurm_select_job(s, "6"), TOKIO_OK);
    assert_int_equal(tokio_slurm_count(s), 1);
    assert_int_equal(tokio_slurm_get_job_startend(s, &start, &end),
                     TOKIO_ENOTFOUND);
    assert_int_equal(tokio_slurm_get_job_ids(s, &ids, &n), TOKIO_OK);
    assert_int_equal(n, 1);
    free(ids);
    assert_int_equal(tokio_slurm_get_job_nodes(s, &nodes, &n), TOKIO_OK);
    assert_int_equal(n, 0);
    assert_null(nodes);
    tokio_slurm_free(s);
}

/* A repeated task id keeps its first place and takes its last fields, a
 * repeated key its first place and its last value, as in a Python dict;
 * a node list given as text in JSON is expanded; "None" and "" times are
 * passed over; a caller's tree reads as the same text does. */
static void
test_slurm_json_cache_reads_as_a_dict(void **state)
{
    struct tokio_slurm *a = open_fixture("cache.json"), *b = NULL;
    const char **nodes = NULL;
    json_t *ja = NULL, *jb = NULL, *tree;
    char *text;
    size_t n;
    (void)state;

    assert_int_equal(tokio_slurm_count(a), 3);
    assert_int_equal(tokio_slurm_to_json(a, &ja), TOKIO_OK);
    assert_string_equal(json_object_iter_key(json_object_iter_next(ja,
                            json_object_iter_next(ja, json_object_iter(ja)))),
                        "8");
    assert_string_equal(json_string_value(json_object_get(task(ja, "8"),
                                                          "jobidraw")), "8b");
    assert_int_equal(json_object_size(task(ja, "8")), 8);
    assert_string_equal(json_object_iter_key(json_object_iter(
                            task(ja, "8"))), "jobidraw");
    assert_int_equal(tokio_slurm_get_job_nodes(a, &nodes, &n), TOKIO_OK);
    assert_int_equal(n, 4);
    assert_string_equal(nodes[2], "nid00003");
    assert_string_equal(nodes[3], "nid00004");
    free(nodes);
    assert_startend(a, "2019-02-14T10:00:00", 3600);
    text = tokio_test_read_file(
        tokio_test_source("tests/connectors/slurm/good/cache.json"), NULL);
    tree = json_loads(text, 0, NULL);
    assert_non_null(tree);
    assert_int_equal(tokio_slurm_from_json(&b, tree), TOKIO_OK);
    assert_int_equal(tokio_slurm_to_json(b, &jb), TOKIO_OK);
    assert_json_equal(jb, ja);
    json_decref(ja);
    json_decref(jb);
    json_decref(tree);
    free(text);
    tokio_slurm_free(a);
    tokio_slurm_free(b);
}

static void
test_slurm_csv_types_columns_as_pandas(void **state)
{
    static const char text[] =
        "JobIDRaw|Start|End|NCPUS|MaxRSS|Flag|NodeList\n"
        "7|2019-02-14T10:00:00|Unknown|007|1.5|True|n1\n"
        "7.0|2019-02-14T10:00:00|Unknown|8||False|n[2-3]\n";
    struct tokio_slurm *s = NULL;
    (void)state;

    assert_int_equal(tokio_slurm_open_mem(&s, text, sizeof(text) - 1, "t"),
                     TOKIO_OK);
    char *csv = write_native(s, 1);
    /* jobidraw is all numbers, so pandas made floats of it; "Unknown"
     * is not a date, so end stays text */
    assert_string_equal(csv,
        ",jobidraw,start,end,ncpus,maxrss,flag,nodelist\n"
        "0,7.0,2019-02-14 10:00:00,Unknown,7,1.5,True,n1\n"
        "1,7.0,2019-02-14 10:00:00,Unknown,8,,False,\"n2,n3\"\n");
    free(csv);
    tokio_slurm_free(s);
}

/* ---- node lists ------------------------------------------------------- */

static void
check_expand(const char *text, const char *joined)
{
    char **names = NULL;
    size_t n = 0;
    char buf[4096] = "";

    if (tokio_slurm_nodelist_expand(text, &names, &n) != TOKIO_OK)
        fail_msg("'%s': %s", text, tokio_errmsg());
    for (size_t i = 0; i < n; i++) {
        strcat(buf, i ? " " : "");
        strcat(buf, names[i]);
    }
    assert_string_equal(buf, joined);
    tokio_slurm_free_names(names, n);
}

static void
test_slurm_nodelist_expands(void **state)
{
    (void)state;
    check_expand("nid0[5032-5034,5200]", "nid05032 nid05033 nid05034 "
                 "nid05200");
    check_expand("a[1-2]b[3-4]", "a1b3 a1b4 a2b3 a2b4");
    check_expand("n[08-10]", "n08 n09 n10");
    check_expand("n[8-10]", "n8 n9 n10");
    check_expand("x1,n[1-2],y", "x1 n1 n2 y");
    check_expand("n[1-2]-ib,m[3]", "n1-ib n2-ib m3");
    check_expand("plain", "plain");
    check_expand("", "");
    check_expand("None assigned", "");
}

static void
test_slurm_nodelist_malformed_is_eformat(void **state)
{
    static const char *const bad[] = {
        "n[1-2", "n1-2]", "n[[1]]", "n[]", "n[a]", "n[1-]", "n[2-1]",
        "n[1,]", "a,,b", ",a", "a,", "n[1-2]x[", "n[0-9999999999]",
        "n[0-9999]m[0-9999]", "n[1234567890123456789]", NULL
    };
    (void)state;
    for (size_t i = 0; bad[i] != NULL; i++) {
        char **names = NULL;
        size_t n = 0;
        int rc = tokio_slurm_nodelist_expand(bad[i], &names, &n);
        if (rc != TOKIO_EFORMAT)
            fail_msg("'%s': rc %d, %zu names", bad[i], rc, n);
        assert_null(names);
        assert_contains(tokio_errmsg(), "node list '");
    }
}

static void
check_compact(const char *text, const char *want)
{
    char **names = NULL, *got = NULL;
    size_t n = 0;

    assert_int_equal(tokio_slurm_nodelist_expand(text, &names, &n), 0);
    assert_int_equal(tokio_slurm_nodelist_compact((const char *const *)names,
                                                  n, &got), TOKIO_OK);
    assert_string_equal(got, want);
    tokio_slurm_free_names(names, n);
    free(got);
}

static void
test_slurm_nodelist_compacts(void **state)
{
    (void)state;
    check_compact("nid05034,nid05032,nid05033,nid05200,nid05033",
                  "nid[05032-05034,05200]");
    check_compact("n1", "n1");
    check_compact("login,n08,n09,n10,x", "login,n[08-10],x");
    check_compact("a1b3,a1b4,a2b3", "a1b[3-4],a2b3");
    check_compact("", "");
}

/* ---- malformed inputs (tests/connectors/slurm/bad/) -------------------- */

/* Times are local, on either side of a daylight-saving change too, and
 * what strptime takes ("2019-2-14") is taken. */
static void
test_slurm_times_are_local(void **state)
{
    static const char *const times[] = {
        "2019-03-10T01:59:59", "2019-03-10T03:00:00", "2019-11-03T01:30:00",
        "2019-11-03T00:59:59", "2020-02-29T12:00:00", "1970-01-01T00:00:00",
        "2019-2-14T10:00:00"
    };
    (void)state;

    for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
        char text[256];
        struct tokio_slurm *s = NULL;
        snprintf(text, sizeof(text), "JobIDRaw|Start|End\n1|%s|%s\n",
                 times[i], times[i]);
        assert_int_equal(tokio_slurm_open_mem(&s, text, strlen(text), "t"),
                         TOKIO_OK);
        assert_startend(s, times[i], 0);
        tokio_slurm_free(s);
    }
}

/* jansson reads no NUL from text, but a caller's tree may hold one */
static void
test_slurm_node_name_with_nul_is_eformat(void **state)
{
    struct tokio_slurm *s = NULL;
    json_t *tree = json_pack("{s:{s:[s%]}}", "1", "nodelist", "a\0b",
                             (size_t)3);
    (void)state;

    assert_non_null(tree);
    assert_int_equal(tokio_slurm_from_json(&s, tree), TOKIO_EFORMAT);
    assert_null(s);
    assert_contains(tokio_errmsg(), "Slurm task '1': nodelist item 0 holds "
                    "a NUL character");
    json_decref(tree);
}

/* Empty input is an empty table, as the reference's parse_sacct("") */
static void
test_slurm_empty_input_is_empty_table(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4200];
    struct tokio_slurm *s = NULL;
    const char **list = NULL;
    size_t n = 1;
    int64_t a, b;

    (void)state;
    snprintf(path, sizeof(path), "%s/empty.txt", dir);
    tokio_test_write_file(path, "", 0);
    assert_int_equal(tokio_slurm_open(&s, path), TOKIO_OK);
    assert_int_equal(tokio_slurm_count(s), 0);
    assert_int_equal(tokio_slurm_get_job_ids(s, &list, &n), TOKIO_OK);
    assert_int_equal(n, 0);
    assert_int_equal(tokio_slurm_get_job_startend(s, &a, &b),
                     TOKIO_ENOTFOUND);
    char *native = write_native(s, 0);
    assert_string_equal(native, "");
    free(native);
    tokio_slurm_free(s);
    tokio_test_rmtree(dir);
    free(dir);
}

/* A task without one of the first task's fields has no native form: the
 * reference failed too (KeyError); nothing is written. */
static void
test_slurm_native_needs_first_tasks_fields(void **state)
{
    static const char text[] = "JobID|Start\n7|None\n";
    struct tokio_slurm *s = NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp;
    (void)state;

    assert_int_equal(tokio_slurm_open_mem(&s, text, sizeof(text) - 1, "t"),
                     TOKIO_OK);
    fp = open_memstream(&buf, &len);
    assert_non_null(fp);
    assert_int_equal(tokio_slurm_write_native(s, fp), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "Slurm task '7' has no 'jobidraw' "
                    "field, which the first task has");
    assert_int_equal(tokio_slurm_write_csv(s, fp), TOKIO_EFORMAT);
    fclose(fp);
    assert_int_equal(len, 0);
    free(buf);
    /* and a stream that takes no writes is an I/O error */
    tokio_slurm_free(s);
    s = open_fixture("parsable.txt");
    fp = fopen("/dev/null", "r");
    assert_non_null(fp);
    assert_int_equal(tokio_slurm_write_native(s, fp), TOKIO_EIO);
    assert_int_equal(tokio_slurm_write_csv(s, fp), TOKIO_EIO);
    fclose(fp);
    tokio_slurm_free(s);
}

static int
open_path(void *path)
{
    struct tokio_slurm *s = NULL;
    int rc = tokio_slurm_open(&s, path);

    if (rc < 0)
        assert_null(s);
    tokio_slurm_free(s);
    return rc;
}

static void
test_slurm_sample_survives_every_oom(void **state)
{
    TOKIO_TEST_NEED_DATA(path, SAMPLE);
    (void)state;
    tokio_test_every_oom(open_path, (void *)path, 7);
}

static void
test_slurm_query_without_sacct_is_enotfound(void **state)
{
    struct tokio_slurm *s = NULL;
    char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    (void)state;

    setenv("PATH", "/nonexistent", 1);
    assert_int_equal(tokio_slurm_query(&s, "123"), TOKIO_ENOTFOUND);
    assert_contains(tokio_errmsg(), "'sacct' command is not on PATH");
    assert_null(s);
    if (old) {
        setenv("PATH", old, 1);
        free(old);
    }
}

/* jobs_running_between() asks sacct for the jobs running in a window,
 * the times as local ISO 8601 (a fake sacct on PATH records its
 * arguments and answers two jobs). */
static void
test_slurm_jobs_running_between_asks_sacct(void **state)
{
    const char *dir = *state;
    struct tokio_slurm *s = NULL;
    char path[4200], script[8800];
    char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

    snprintf(script, sizeof(script),
             "#!/bin/sh\nfor a; do echo \"$a\"; done >'%s/args'\n"
             "echo 'JobIDRaw|Start|End|'\n"
             "echo '11|2020-06-01T11:00:00|2020-06-01T12:30:00|'\n"
             "echo '12|2020-06-01T12:10:00|2020-06-01T14:00:00|'\n", dir);
    snprintf(path, sizeof(path), "%s/sacct", dir);
    tokio_test_write_file(path, script, strlen(script));
    assert_int_equal(chmod(path, 0755), 0);
    setenv("PATH", dir, 1);
    assert_int_equal(tokio_slurm_jobs_running_between(
                         &s, tokio_test_local(2020, 6, 1, 12, 0, 0),
                         tokio_test_local(2020, 6, 1, 13, 0, 0), NULL, 0),
                     TOKIO_OK);
    assert_int_equal(tokio_slurm_count(s), 2);
    tokio_slurm_free(s);
    snprintf(path, sizeof(path), "%s/args", dir);
    char *args = tokio_test_read_file(path, NULL);
    assert_string_equal(args, "--parsable\n--starttime\n2020-06-01T12:00:00\n"
                        "--endtime\n2020-06-01T13:00:00\n--state\nR\n"
                        "--allusers\n--format\njobidraw,start,end\n");
    free(args);
    /* keys of one's own; none at all is a caller's error */
    static const char *const keys[] = { "jobidraw", "nodelist" };
    assert_int_equal(tokio_slurm_jobs_running_between(&s, 0, 60, keys, 0),
                     TOKIO_EINVAL);
    assert_null(s);
    assert_int_equal(tokio_slurm_jobs_running_between(&s, 0, 60, keys, 2),
                     TOKIO_OK);
    tokio_slurm_free(s);
    args = tokio_test_read_file(path, NULL);
    assert_non_null(strstr(args, "--format\njobidraw,nodelist\n"));
    free(args);
    if (old) {
        setenv("PATH", old, 1);
        free(old);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slurm_methods_match_golden),
        cmocka_unit_test(test_slurm_csv_matches_to_dataframe),
        cmocka_unit_test(test_slurm_json_and_native_match_cache_slurm),
        cmocka_unit_test(test_slurm_json_round_trip),
        cmocka_unit_test(test_slurm_sacct_text_parses_and_recasts),
        cmocka_unit_test(test_slurm_json_cache_reads_as_a_dict),
        cmocka_unit_test(test_slurm_csv_types_columns_as_pandas),
        cmocka_unit_test(test_slurm_nodelist_expands),
        cmocka_unit_test(test_slurm_nodelist_malformed_is_eformat),
        cmocka_unit_test(test_slurm_nodelist_compacts),
        cmocka_unit_test(test_slurm_times_are_local),
        cmocka_unit_test(test_slurm_node_name_with_nul_is_eformat),
        cmocka_unit_test(test_slurm_empty_input_is_empty_table),
        cmocka_unit_test(test_slurm_native_needs_first_tasks_fields),
        cmocka_unit_test(test_slurm_sample_survives_every_oom),
        cmocka_unit_test(test_slurm_query_without_sacct_is_enotfound),
        cmocka_unit_test_setup_teardown(
            test_slurm_jobs_running_between_asks_sacct,
            tokio_test_mkdtemp_setup, tokio_test_remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
