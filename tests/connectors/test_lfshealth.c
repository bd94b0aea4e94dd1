/*
 * tests/connectors/test_lfshealth.c - src/connectors/lfshealth.c: single
 * `lfs df` and `lctl dl -t` snapshots against the reference's goldens
 * (golden/pytokio/lfshealth/), the order of the text written, dict
 * assignment at a size the fixtures do not reach, failovers, and what the
 * generic loops of test_connectors.c do not reach (the text writers and
 * failovers under failing allocations).  Fixtures and malformed inputs:
 * tests/connectors/lfshealth_fullness/ and lfshealth_map/.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/connectors/lfshealth.h"
#include "tokio/input.h"

static json_t *
load_json(const char *path)
{
    unsigned char *buf = NULL;
    size_t len = 0;

    assert_int_equal(tokio_read_file(path, 0, &buf, &len), TOKIO_OK);
    json_t *j = json_loadb((const char *)buf, len, 0, NULL);
    free(buf);
    assert_non_null(j);
    return j;
}

/* What a writer produced, as a string (free()). */
static char *
write_to_string(int (*fn)(const void *, FILE *), const void *h, size_t *len)
{
    char *buf = NULL;
    FILE *fp = open_memstream(&buf, len);

    assert_non_null(fp);
    assert_int_equal(fn(h, fp), TOKIO_OK);
    fclose(fp);
    return buf;
}

static int
df_write(const void *h, FILE *fp)
{
    return tokio_lfshealth_fullness_write_native(h, fp);
}

static int
dl_write(const void *h, FILE *fp)
{
    return tokio_lfshealth_map_write_native(h, fp);
}

static void
assert_same_text(const char *ours, size_t n, const char *golden_path)
{
    unsigned char *want = NULL;
    size_t want_n = 0;

    assert_int_equal(tokio_read_file(golden_path, 0, &want, &want_n),
                     TOKIO_OK);
    assert_int_equal(n, want_n);
    assert_memory_equal(ours, want, n);
    free(want);
}

/* ---- goldens ---- */

static void
test_fullness_matches_golden_json_and_text(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(in, "pytokio-inputs/lfs-df.txt.gz");
    struct tokio_lfshealth_fullness *df = NULL, *back = NULL;
    json_t *ours = NULL;
    size_t n, n2;

    assert_int_equal(tokio_lfshealth_fullness_open(&df, in), TOKIO_OK);
    assert_int_equal(tokio_lfshealth_fullness_to_json(df, &ours), TOKIO_OK);
    json_t *want = load_json(tokio_test_data(
        "golden/pytokio/lfshealth/lfs-df.LfsOstFullness.json"));
    assert_true(json_equal(ours, want));
    char *text = write_to_string(df_write, df, &n);
    assert_same_text(text, n, tokio_test_data(
        "golden/pytokio/lfshealth/lfs-df.save_cache.txt"));

    /* the JSON form read back writes the same text */
    assert_int_equal(tokio_lfshealth_fullness_from_json(&back, ours),
                     TOKIO_OK);
    char *text2 = write_to_string(df_write, back, &n2);
    assert_int_equal(n, n2);
    assert_memory_equal(text, text2, n);
    free(text);
    free(text2);
    tokio_lfshealth_fullness_free(back);
    json_decref(want);
    json_decref(ours);
    tokio_lfshealth_fullness_free(df);
}

static void
test_map_matches_golden_json_text_failovers(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(in, "pytokio-inputs/lctl-dl-t.txt.gz");
    struct tokio_lfshealth_map *dl = NULL;
    json_t *ours = NULL, *fo = NULL;
    size_t n;

    assert_int_equal(tokio_lfshealth_map_open(&dl, in), TOKIO_OK);
    assert_int_equal(tokio_lfshealth_map_to_json(dl, &ours), TOKIO_OK);
    json_t *want = load_json(tokio_test_data(
        "golden/pytokio/lfshealth/lctl-dl-t.LfsOstMap.json"));
    assert_true(json_equal(ours, want));
    char *text = write_to_string(dl_write, dl, &n);
    assert_same_text(text, n, tokio_test_data(
        "golden/pytokio/lfshealth/lctl-dl-t.save_cache.txt"));
    assert_int_equal(tokio_lfshealth_map_failovers(dl, &fo), TOKIO_OK);
    json_t *want_fo = load_json(tokio_test_data(
        "golden/pytokio/lfshealth/lctl-dl-t.get_failovers.json"));
    assert_true(json_equal(fo, want_fo));
    free(text);
    json_decref(want_fo);
    json_decref(fo);
    json_decref(want);
    json_decref(ours);
    tokio_lfshealth_map_free(dl);
}

/* ---- our fixtures ---- */

/* The target `fs`/`tg` of a snapshot's JSON form. */
static const json_t *
target(const json_t *tree, const char *fs, const char *tg)
{
    const json_t *t = json_object_get(json_object_get(tree, fs), tg);

    assert_non_null(t);
    return t;
}

static json_int_t
int_of(const json_t *rec, const char *key)
{
    const json_t *v = json_object_get(rec, key);

    assert_true(json_is_integer(v));
    return json_integer_value(v);
}

static const char *
str_of(const json_t *rec, const char *key)
{
    const json_t *v = json_object_get(rec, key);

    assert_true(json_is_string(v));
    return json_string_value(v);
}

static void
test_fullness_fixture_order_duplicates_and_odd_lines(void **state)
{
    (void)state;
    struct tokio_lfshealth_fullness *df = NULL;
    json_t *j = NULL;
    const char *fs, *tg;
    json_t *targets, *rec;
    size_t k = 0;

    assert_int_equal(tokio_lfshealth_fullness_open(&df, tokio_test_source(
        "tests/connectors/lfshealth_fullness/good/small.txt")), TOKIO_OK);
    assert_int_equal(tokio_lfshealth_fullness_to_json(df, &j), TOKIO_OK);
    /* snx11035 first (first seen), the repeated OST0001 keeps its place
     * with the later values; "... 3 /bad[OST:3]" does not match the
     * reference's expression ("(\d+)." needs two characters), while
     * "3  /odd[weird role:2]" does, role and all */
    static const char *const order[][2] = {
        { "snx11035", "MDT0000" }, { "snx11035", "OST0001" },
        { "snx11035", "OST0000" }, { "snx11025", "OST0000" },
        { "snx7", "OST0002" },
    };
    json_object_foreach(j, fs, targets)
        json_object_foreach(targets, tg, rec) {
            assert_true(k < 5);
            assert_string_equal(fs, order[k][0]);
            assert_string_equal(tg, order[k][1]);
            k++;
        }
    assert_int_equal(k, 5);
    assert_int_equal(int_of(target(j, "snx11035", "OST0001"), "used_kib"),
                     64867282281);
    rec = (json_t *)target(j, "snx7", "OST0002");
    assert_string_equal(str_of(rec, "mount_pt"), "/odd");
    assert_string_equal(str_of(rec, "role"), "weird role");
    assert_int_equal(int_of(rec, "target_index"), 2);

    size_t n;
    char *text = write_to_string(df_write, df, &n);
    assert_string_equal(text,
        "snx11025-OST0000_UUID 100 50 50  50% /scratch1[OST:0]\n"
        "snx11035-MDT0000_UUID 2255453580 115237564 2106016404   5% "
        "/scratch2[MDT:0]\n"
        "snx11035-OST0000_UUID 90767651352 65387344040 24423870832  73% "
        "/scratch2[OST:0]\n"
        "snx11035-OST0001_UUID 90767651352 64867282281 24942697307  72% "
        "/scratch2[OST:1]\n"
        "snx7-OST0002_UUID 10 3 7  30% /odd[WEIRD ROLE:2]\n");
    free(text);
    json_decref(j);
    tokio_lfshealth_fullness_free(df);
}

static void
test_map_fixture_failovers_mode_and_skips(void **state)
{
    (void)state;
    struct tokio_lfshealth_map *dl = NULL;
    json_t *j = NULL, *fo = NULL;

    assert_int_equal(tokio_lfshealth_map_open(&dl, tokio_test_source(
        "tests/connectors/lfshealth_map/good/small.txt")), TOKIO_OK);
    assert_int_equal(tokio_lfshealth_map_to_json(dl, &j), TOKIO_OK);
    /* no mgc, no lov */
    assert_int_equal(json_object_size(json_object_get(j, "snx11035")), 5);
    const json_t *t = target(j, "snx11035", "OST0003");
    assert_string_equal(str_of(t, "status"), "in");
    assert_string_equal(str_of(t, "target_ip"), "10.0.0.7");
    assert_int_equal(tokio_lfshealth_map_failovers(dl, &fo), TOKIO_OK);
    json_t *want = json_loads(
        "{\"snx11035\": {\"mode\": 1, \"abnormal_ips\": "
        "{\"10.0.0.7\": [\"OST0002\", \"OST0003\"]}}}", 0, NULL);
    assert_true(json_equal(fo, want));
    json_decref(want);
    json_decref(fo);
    json_decref(j);
    tokio_lfshealth_map_free(dl);
}

/* Many file systems, their lines interleaved (target by target), then
 * every key again with new values: the grouping by file system (order of
 * first appearance, each one's targets in order of first appearance) and
 * the dict assignment, at a size the fixtures do not reach; expectations
 * from the same formulas that wrote the text. */
enum { MANY_FS = 40, MANY_TG = 30 };

static char *
many_text(int dl)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *fp = open_memstream(&buf, &n);

    assert_non_null(fp);
    fprintf(fp, dl ? "  0 UP mgc MGC10.0.0.1@o2ib 1234-5678 5\n"
                   : "UUID 1K-blocks Used Available Use%% Mounted on\n");
    for (int pass = 0; pass < 2; pass++)
        for (int t = 0; t < MANY_TG; t++)
            for (int f = 0; f < MANY_FS; f++) {
                int v = (f * 100 + t) * 10 + pass;
                if (dl)
                    fprintf(fp, "%3d %s osc snx%d-OST%04x-osc-ffff8 "
                            "uuid-%d %d 10.0.%d.%d@o2ib\n", v,
                            pass ? "Up" : "UP", 1000 + f, t, v, pass,
                            f, t % 7);
                else
                    fprintf(fp, "snx%d-OST%04x_UUID %d %d %d 50%% "
                            "/m%d[OST:%d]\n", 1000 + f, t, 3 * v, v, 2 * v,
                            f, t);
            }
    fclose(fp);
    return buf;
}

/* Walk {fs: {target}} in order, checking names and that there are
 * MANY_FS x MANY_TG; `check` sees each record with its f and t. */
static void
walk_many(const json_t *j, void (*check)(const json_t *, int, int))
{
    const char *fs, *tg;
    json_t *targets, *rec;
    char want[64];
    int f = 0;

    json_object_foreach((json_t *)j, fs, targets) {
        int t = 0;
        snprintf(want, sizeof(want), "snx%d", 1000 + f);
        assert_string_equal(fs, want);
        json_object_foreach(targets, tg, rec) {
            snprintf(want, sizeof(want), "OST%04x", t);
            assert_string_equal(tg, want);
            check(rec, f, t++);
        }
        assert_int_equal(t, MANY_TG);
        f++;
    }
    assert_int_equal(f, MANY_FS);
}

static void
check_many_df(const json_t *rec, int f, int t)
{
    int v = (f * 100 + t) * 10 + 1;
    char want[64];

    snprintf(want, sizeof(want), "/m%d", f);
    assert_string_equal(str_of(rec, "mount_pt"), want);
    assert_string_equal(str_of(rec, "role"), "ost");
    assert_int_equal(int_of(rec, "total_kib"), 3 * v);
    assert_int_equal(int_of(rec, "used_kib"), v);
    assert_int_equal(int_of(rec, "remaining_kib"), 2 * v);
    assert_int_equal(int_of(rec, "target_index"), t);
}

static void
check_many_dl(const json_t *rec, int f, int t)
{
    int v = (f * 100 + t) * 10 + 1;
    char want[64];

    assert_int_equal(int_of(rec, "index"), v);
    assert_string_equal(str_of(rec, "status"), "up");
    assert_string_equal(str_of(rec, "role"), "osc");
    snprintf(want, sizeof(want), "snx%d-OST%04x-osc-ffff8", 1000 + f, t);
    assert_string_equal(str_of(rec, "role_id"), want);
    snprintf(want, sizeof(want), "uuid-%d", v);
    assert_string_equal(str_of(rec, "uuid"), want);
    assert_int_equal(int_of(rec, "ref_count"), 1);
    snprintf(want, sizeof(want), "10.0.%d.%d", f, t % 7);
    assert_string_equal(str_of(rec, "target_ip"), want);
    snprintf(want, sizeof(want), "10.0.%d.%d@o2ib", f, t % 7);
    assert_string_equal(str_of(rec, "nid"), want);
}

static void
test_many_file_systems_interleaved_and_repeated(void **state)
{
    (void)state;
    char *text = many_text(0);
    struct tokio_lfshealth_fullness *df = NULL;
    struct tokio_lfshealth_map *dl = NULL;
    json_t *j = NULL;

    assert_int_equal(tokio_lfshealth_fullness_open_mem(&df, text,
                                                       strlen(text), "many"),
                     TOKIO_OK);
    free(text);
    assert_int_equal(tokio_lfshealth_fullness_to_json(df, &j), TOKIO_OK);
    walk_many(j, check_many_df);
    json_decref(j);
    tokio_lfshealth_fullness_free(df);

    text = many_text(1);
    assert_int_equal(tokio_lfshealth_map_open_mem(&dl, text, strlen(text),
                                                  "many"), TOKIO_OK);
    free(text);
    assert_int_equal(tokio_lfshealth_map_to_json(dl, &j), TOKIO_OK);
    walk_many(j, check_many_dl);
    json_decref(j);
    tokio_lfshealth_map_free(dl);
}

/* A line checked is a line the parser would read (nersc_lfsstate.c checks
 * a history's lines this way and parses them later). */
static void
test_check_line_says_what_the_parser_does(void **state)
{
    (void)state;
    const char *df = "snx11035-OST0000_UUID 10 1 9  10% /scratch2[OST:0]";
    const char *dl = "  3 UP osc snx1-OST0001-osc-ff uuid 5 10.0.0.1@o2ib";

    assert_int_equal(tokio_lfshealth_fullness_check_line(df, strlen(df),
                                                         "x", 1), 1);
    assert_int_equal(tokio_lfshealth_fullness_check_line(dl, strlen(dl),
                                                         "x", 1), 0);
    assert_int_equal(tokio_lfshealth_map_check_line(dl, strlen(dl), "x", 1),
                     1);
    assert_int_equal(tokio_lfshealth_map_check_line(df, strlen(df), "x", 1),
                     0);
    assert_int_equal(tokio_lfshealth_fullness_check_line(
                         "snx1-__ 1 1 1 1% /a[OST:0]", 26, "x", 7),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'x' line 7: no target name");
}

/* ---- anomalies ---- */

static int
write_and_failovers(void *path)
{
    struct tokio_lfshealth_fullness *df = NULL;
    struct tokio_lfshealth_map *dl = NULL;
    FILE *null = fopen("/dev/null", "w");
    json_t *j = NULL;
    int rc;

    assert_non_null(null);
    rc = tokio_lfshealth_fullness_open(&df, tokio_test_source(
        "tests/connectors/lfshealth_fullness/good/small.txt"));
    if (rc >= 0)
        rc = tokio_lfshealth_fullness_write_native(df, null);
    if (rc >= 0)
        rc = tokio_lfshealth_map_open(&dl, path);
    if (rc >= 0)
        rc = tokio_lfshealth_map_failovers(dl, &j);
    if (rc >= 0)
        rc = tokio_lfshealth_map_write_native(dl, null);
    fclose(null);
    json_decref(j);
    tokio_lfshealth_map_free(dl);
    tokio_lfshealth_fullness_free(df);
    return rc;
}

static void
test_writers_and_failovers_survive_every_oom(void **state)
{
    (void)state;
    char path[4096];

    snprintf(path, sizeof(path), "%s", tokio_test_source(
        "tests/connectors/lfshealth_map/good/small.txt"));
    tokio_test_every_oom(write_and_failovers, path, 1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fullness_matches_golden_json_and_text),
        cmocka_unit_test(test_map_matches_golden_json_text_failovers),
        cmocka_unit_test(test_fullness_fixture_order_duplicates_and_odd_lines),
        cmocka_unit_test(test_map_fixture_failovers_mode_and_skips),
        cmocka_unit_test(test_many_file_systems_interleaved_and_repeated),
        cmocka_unit_test(test_check_line_says_what_the_parser_does),
        cmocka_unit_test(test_writers_and_failovers_survive_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
