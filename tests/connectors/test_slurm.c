/*
 * tests/connectors/test_slurm.c - src/connectors/slurm.c against the
 * reference's goldens (golden/pytokio/slurm/ and cache_slurm/, made from
 * pytokio-inputs/sample.slurm), node-list expansion and compaction,
 * round trips, malformed inputs (tests/connectors/slurm/bad/) and OOM.
 */
#include "testutil.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "core/alloc.h"
#include "tokio/connectors/slurm.h"
#include "tokio/output.h"
#include "tokio/time.h"

#define SAMPLE "pytokio-inputs/sample.slurm"
#define GOLDEN "golden/pytokio/"

/* sacct --parsable text of two jobs: trailing '|', a pending job */
static const char sacct_text[] =
    "JobIDRaw|Start|End|NodeList|State|\n"
    "5|2019-02-14T10:00:00|2019-02-14T11:00:00|nid0[0001-0003,0007]|"
    "COMPLETED|\n"
    "5.batch|2019-02-14T10:00:00|2019-02-14T11:00:01|nid00001|COMPLETED|\n"
    "5.0|2019-02-14T10:00:05|2019-02-14T10:59:00|nid0[0001-0003,0007]|"
    "COMPLETED|\n"
    "6|Unknown|Unknown|None assigned|PENDING|\n";

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

static void
test_slurm_sacct_text_parses_and_recasts(void **state)
{
    struct tokio_slurm *s = NULL;
    const char **ids = NULL, **nodes = NULL;
    size_t n;
    int64_t start, end, want;
    (void)state;

    assert_int_equal(tokio_slurm_open_mem(&s, sacct_text,
                                          sizeof(sacct_text) - 1, "t"),
                     TOKIO_OK);
    assert_int_equal(tokio_slurm_count(s), 4);
    assert_string_equal(tokio_slurm_task_id(s, 1), "5.batch");
    json_t *t0 = tokio_slurm_task_json(s, 0);
    assert_non_null(t0);
    assert_string_equal(json_string_value(json_object_get(t0, "state")),
                        "COMPLETED");
    assert_null(json_object_get(t0, ""));
    assert_int_equal(json_array_size(json_object_get(t0, "nodelist")), 4);
    assert_string_equal(json_string_value(json_array_get(
        json_object_get(t0, "nodelist"), 3)), "nid00007");
    json_decref(t0);
    json_t *t3 = tokio_slurm_task_json(s, 3);
    assert_true(json_is_array(json_object_get(t3, "nodelist")));
    assert_int_equal(json_array_size(json_object_get(t3, "nodelist")), 0);
    json_decref(t3);
    assert_null(tokio_slurm_task_json(s, 4));
    assert_int_equal(tokio_slurm_get_job_ids(s, &ids, &n), TOKIO_OK);
    assert_int_equal(n, 2);
    assert_string_equal(ids[0], "5");
    assert_string_equal(ids[1], "6");
    free(ids);
    assert_int_equal(tokio_slurm_get_job_nodes(s, &nodes, &n), TOKIO_OK);
    assert_int_equal(n, 4);
    free(nodes);
    /* job 6 is pending: its Unknown times are passed over */
    assert_int_equal(tokio_slurm_get_job_startend(s, &start, &end),
                     TOKIO_OK);
    tokio_time_parse_format("2019-02-14T10:00:00", "%Y-%m-%dT%H:%M:%S",
                            &want);
    assert_int_equal(start, want);
    assert_int_equal(end, want + 3601);
    assert_int_equal(tokio_slurm_select_job(s, "7"), TOKIO_ENOTFOUND);
    assert_int_equal(tokio_slurm_count(s), 4);
    assert_int_equal(tokio_slurm_select_job(s, "6"), TOKIO_OK);
    assert_int_equal(tokio_slurm_count(s), 1);
    assert_int_equal(tokio_slurm_get_job_startend(s, &start, &end),
                     TOKIO_ENOTFOUND);
    tokio_slurm_free(s);
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

static void
test_slurm_bad_inputs_report_where(void **state)
{
    const char *dir = tokio_test_source("tests/connectors/slurm/bad");
    char *d = strdup(dir);
    DIR *dp = opendir(d);
    struct dirent *e;
    int count = 0;
    (void)state;

    assert_non_null(dp);
    while ((e = readdir(dp)) != NULL) {
        size_t len = strlen(e->d_name);
        char path[4096], expect[4096];
        if (len < 5 || strcmp(e->d_name + len - 4, ".txt") != 0)
            continue;
        snprintf(path, sizeof(path), "%s/%s", d, e->d_name);
        snprintf(expect, sizeof(expect), "%s/%.*s.expect", d,
                 (int)(len - 4), e->d_name);
        char *want = tokio_test_read_file(expect, NULL);
        assert_non_null(want);
        char *nl = strchr(want, '\n');
        *nl = '\0';
        nl[1 + strcspn(nl + 1, "\n")] = '\0';
        struct tokio_slurm *s = NULL;
        int rc = tokio_slurm_open(&s, path);
        print_message("%s: %d %s\n", e->d_name, rc, tokio_errmsg());
        assert_int_equal(rc, strcmp(want, "EFORMAT") == 0 ? TOKIO_EFORMAT
                                                          : TOKIO_ERR);
        assert_null(s);
        assert_contains(tokio_errmsg(), nl + 1);
        free(want);
        count++;
    }
    closedir(dp);
    free(d);
    assert_true(count >= 8);
}

/* An empty input, made here: a committed 0-byte file would look like a
 * copy of the pack's empty placeholders. */
static void
test_slurm_empty_input_is_eformat(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4200];
    struct tokio_slurm *s = NULL;

    (void)state;
    snprintf(path, sizeof(path), "%s/empty.txt", dir);
    tokio_test_write_file(path, "", 0);
    assert_int_equal(tokio_slurm_open(&s, path), TOKIO_EFORMAT);
    assert_null(s);
    assert_contains(tokio_errmsg(), "empty, expected sacct text or JSON");
    assert_contains(tokio_errmsg(), "empty.txt");
    assert_int_equal(tokio_slurm_open_mem(&s, "", 0, "nothing"),
                     TOKIO_EFORMAT);
    assert_null(s);
    assert_contains(tokio_errmsg(), "empty, expected sacct text or JSON");
    tokio_test_rmtree(dir);
    free(dir);
}

/* ---- the JSON cache without a tree ------------------------------------ */

/* The cache shape the fast reader takes, and the same table written so
 * that it cannot (an escape, a number, a null): both must read alike,
 * and as jansson's tree given to tokio_slurm_from_json(). */
static const char fast_json[] =
    "{\"9\": {\"jobidraw\": \"9\", \"start\": \"2019-02-14T10:00:00\", "
    "\"end\": \"Unknown\", \"nodelist\": [\"nid00001\", \"nid00002\"]},"
    " \"9.0\": {\"jobidraw\": \"9.0\", \"start\": \"2019-02-14T10:00:01\","
    " \"end\": \"2019-02-14T11:00:00\", \"nodelist\": \"nid0000[3-4]\"},"
    " \"8\": {\"jobidraw\": \"x\", \"nodelist\": []},"
    " \"8\": {\"jobidraw\": \"8\", \"jobidraw\": \"8b\", \"start\": "
    "\"None\", \"end\": \"\", \"nodelist\": []}}";
static const char slow_json[] =
    "{\"9\": {\"jobidraw\": \"\\u0039\", \"start\": \"2019-02-14T10:00:00\", "
    "\"end\": \"Unknown\", \"nodelist\": [\"nid00001\", \"nid00002\"]},"
    " \"9.0\": {\"jobidraw\": \"9.0\", \"start\": \"2019-02-14T10:00:01\","
    " \"end\": \"2019-02-14T11:00:00\", \"nodelist\": \"nid0000[3-4]\"},"
    " \"8\": {\"jobidraw\": \"8b\", \"start\": \"None\", \"end\": \"\","
    " \"nodelist\": []}}";

static void
test_slurm_json_fast_and_jansson_paths_agree(void **state)
{
    struct tokio_slurm *a = NULL, *b = NULL, *c = NULL;
    json_t *ja = NULL, *jb = NULL, *jc = NULL, *tree;
    const char **nodes = NULL;
    size_t n;
    int64_t start, end, want;
    (void)state;

    assert_int_equal(tokio_slurm_open_mem(&a, fast_json,
                                          sizeof(fast_json) - 1, "f"),
                     TOKIO_OK);
    assert_int_equal(tokio_slurm_open_mem(&b, slow_json,
                                          sizeof(slow_json) - 1, "s"),
                     TOKIO_OK);
    tree = json_loads(fast_json, 0, NULL);
    assert_non_null(tree);
    assert_int_equal(tokio_slurm_from_json(&c, tree), TOKIO_OK);
    assert_int_equal(tokio_slurm_to_json(a, &ja), TOKIO_OK);
    assert_int_equal(tokio_slurm_to_json(b, &jb), TOKIO_OK);
    assert_int_equal(tokio_slurm_to_json(c, &jc), TOKIO_OK);
    assert_json_equal(ja, jb);
    assert_json_equal(ja, jc);
    /* a repeated task id keeps its first place and its last fields, a
     * repeated key its first place and its last value */
    assert_int_equal(tokio_slurm_count(a), 3);
    assert_string_equal(tokio_slurm_task_id(a, 2), "8");
    assert_string_equal(json_string_value(json_object_get(
        json_object_get(ja, "8"), "jobidraw")), "8b");
    assert_int_equal(json_object_size(json_object_get(ja, "8")), 4);
    assert_int_equal(tokio_slurm_get_job_nodes(a, &nodes, &n), TOKIO_OK);
    assert_int_equal(n, 4);
    assert_string_equal(nodes[2], "nid00003");
    assert_string_equal(nodes[3], "nid00004");
    free(nodes);
    assert_int_equal(tokio_slurm_get_job_startend(a, &start, &end),
                     TOKIO_OK);
    tokio_time_parse_format("2019-02-14T10:00:00", "%Y-%m-%dT%H:%M:%S",
                            &want);
    assert_int_equal(start, want);
    assert_int_equal(end, want + 3600);
    json_decref(ja);
    json_decref(jb);
    json_decref(jc);
    json_decref(tree);
    tokio_slurm_free(a);
    tokio_slurm_free(b);
    tokio_slurm_free(c);
}

/* Times through the fast path and through strptime agree, on either side
 * of a daylight-saving change and for what only strptime takes. */
/* tokio_slurm_write_json() writes, byte for byte, what
 * tokio_json_write() makes of tokio_slurm_to_json()'s tree, in each
 * layout: sacct text, the cache forms above (repeated tasks and keys, a
 * node list as text, values jansson reads), the pack's sample. */
static int
write_json(const void *s, FILE *fp, unsigned flags)
{
    return tokio_slurm_write_json(s, fp, flags);
}

static void
assert_write_json_matches_tree(const struct tokio_slurm *s)
{
    static const unsigned flags[] = {
        TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4), TOKIO_JSON_SORT_KEYS, 0,
    };
    json_t *tree = NULL;

    assert_int_equal(tokio_slurm_to_json(s, &tree), TOKIO_OK);
    tokio_test_assert_writes_tree(write_json, s, tree, flags,
                                  sizeof(flags) / sizeof(flags[0]));
    json_decref(tree);
}

static void
test_slurm_write_json_matches_tree(void **state)
{
    (void)state;
    const char *texts[] = { sacct_text, fast_json, slow_json };
    struct tokio_slurm *s;

    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        s = NULL;
        assert_int_equal(tokio_slurm_open_mem(&s, texts[i], strlen(texts[i]),
                                              "t"), TOKIO_OK);
        assert_write_json_matches_tree(s);
        tokio_slurm_free(s);
    }
    /* a stream that takes no writes */
    s = NULL;
    assert_int_equal(tokio_slurm_open_mem(&s, sacct_text, strlen(sacct_text),
                                          "t"), TOKIO_OK);
    FILE *ro = fopen("/dev/null", "r");
    assert_non_null(ro);
    assert_int_equal(tokio_slurm_write_json(s, ro, TOKIO_JSON_SORT_KEYS),
                     TOKIO_EIO);
    fclose(ro);
    tokio_slurm_free(s);
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/sample.slurm");
    s = NULL;
    assert_int_equal(tokio_slurm_open(&s, path), TOKIO_OK);
    assert_write_json_matches_tree(s);
    tokio_slurm_free(s);
}

static void
test_slurm_times_match_strptime(void **state)
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
        int64_t start, end, want;
        snprintf(text, sizeof(text), "JobIDRaw|Start|End\n1|%s|%s\n",
                 times[i], times[i]);
        assert_int_equal(tokio_slurm_open_mem(&s, text, strlen(text), "t"),
                         TOKIO_OK);
        assert_int_equal(tokio_slurm_get_job_startend(s, &start, &end),
                         TOKIO_OK);
        assert_int_equal(tokio_time_parse_format(times[i],
                                                 "%Y-%m-%dT%H:%M:%S",
                                                 &want), TOKIO_OK);
        assert_int_equal(start, want);
        assert_int_equal(end, want);
        tokio_slurm_free(s);
    }
}

static const struct {
    const char *text, *fragment;
} new_errors[] = {
    { "JobIDRaw|NodeList\n1|a\xff\n", "'e' line 2: invalid UTF-8" },
    { "{\"1\": {\"nodelist\": [\"a\\u0000b\"]}}",
      "'e' line 1 column 30: \\u0000 is not allowed" },
    { "{\"1\": {\"nodelist\": [\"a\", 5]}}",
      "'e' task '1': nodelist item 1 is not a string" },
    { "{\"1\": {\"nodelist\": 5}}",
      "'e' task '1': nodelist is neither a list nor a string" },
    { "{\"1\": {\"start\": \"2019-02-30T00:00:00\"}}",
      "'e' task '1': start time '2019-02-30T00:00:00' is not" },
    { "{\"1\": {\"end\": [\"x\"]}}", "'e' task '1': 'end' is not a string" },
    { "{\"1\": {\"a\": \"b\"}} x", "'e' line 1 column" },
    { "{\"1\": {\"nodelist\": \"n[1-3\"}}", "'e' task '1': node list" },
    { "JobIDRaw|NodeList\n1|nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn[0-9999999]\n",
      "bytes of names" },
};

static void
test_slurm_bad_values_are_eformat(void **state)
{
    (void)state;

    for (size_t i = 0; i < sizeof(new_errors) / sizeof(new_errors[0]); i++) {
        struct tokio_slurm *s = NULL;
        int rc = tokio_slurm_open_mem(&s, new_errors[i].text,
                                      strlen(new_errors[i].text), "e");
        print_message("%s -> %s\n", new_errors[i].text, tokio_errmsg());
        assert_int_equal(rc, TOKIO_EFORMAT);
        assert_null(s);
        assert_contains(tokio_errmsg(), new_errors[i].fragment);
    }
    /* jansson reads no NUL from text, but a caller's tree may hold one */
    struct tokio_slurm *s = NULL;
    json_t *tree = json_pack("{s:{s:[s%]}}", "1", "nodelist", "a\0b",
                             (size_t)3);
    assert_non_null(tree);
    assert_int_equal(tokio_slurm_from_json(&s, tree), TOKIO_EFORMAT);
    assert_null(s);
    assert_contains(tokio_errmsg(), "'JSON' task '1': nodelist item 0 "
                    "holds a NUL character");
    json_decref(tree);
}

/* ---- anomalies --------------------------------------------------------- */

static int
open_text_to_json(void *ctx)
{
    struct tokio_slurm *s = NULL;
    json_t *j = NULL;
    int rc = tokio_slurm_open_mem(&s, sacct_text, sizeof(sacct_text) - 1,
                                  "t");

    (void)ctx;
    if (rc >= 0)
        rc = tokio_slurm_to_json(s, &j);
    if (rc >= 0)
        rc = tokio_test_write_to_null(write_json, s);
    json_decref(j);
    tokio_slurm_free(s);
    return rc;
}

static void
test_slurm_open_survives_every_oom(void **state)
{
    (void)state;
    tokio_test_every_oom(open_text_to_json, NULL, 1);
}

static int
open_json(void *text)
{
    struct tokio_slurm *s = NULL;
    json_t *j = NULL;
    int rc = tokio_slurm_open_mem(&s, text, strlen(text), "j");

    if (rc >= 0)
        rc = tokio_slurm_to_json(s, &j);
    if (rc >= 0)
        rc = tokio_test_write_to_null(write_json, s);
    json_decref(j);
    tokio_slurm_free(s);
    return rc;
}

static void
test_slurm_json_survives_every_oom(void **state)
{
    (void)state;
    tokio_test_every_oom(open_json, (void *)fast_json, 1);
    tokio_test_every_oom(open_json, (void *)slow_json, 1);
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

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slurm_methods_match_golden),
        cmocka_unit_test(test_slurm_csv_matches_to_dataframe),
        cmocka_unit_test(test_slurm_json_and_native_match_cache_slurm),
        cmocka_unit_test(test_slurm_json_round_trip),
        cmocka_unit_test(test_slurm_sacct_text_parses_and_recasts),
        cmocka_unit_test(test_slurm_csv_types_columns_as_pandas),
        cmocka_unit_test(test_slurm_nodelist_expands),
        cmocka_unit_test(test_slurm_nodelist_malformed_is_eformat),
        cmocka_unit_test(test_slurm_nodelist_compacts),
        cmocka_unit_test(test_slurm_bad_inputs_report_where),
        cmocka_unit_test(test_slurm_empty_input_is_eformat),
        cmocka_unit_test(test_slurm_open_survives_every_oom),
        cmocka_unit_test(test_slurm_json_fast_and_jansson_paths_agree),
        cmocka_unit_test(test_slurm_write_json_matches_tree),
        cmocka_unit_test(test_slurm_times_match_strptime),
        cmocka_unit_test(test_slurm_bad_values_are_eformat),
        cmocka_unit_test(test_slurm_json_survives_every_oom),
        cmocka_unit_test(test_slurm_sample_survives_every_oom),
        cmocka_unit_test(test_slurm_query_without_sacct_is_enotfound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
