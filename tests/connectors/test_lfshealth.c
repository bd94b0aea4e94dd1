/*
 * tests/connectors/test_lfshealth.c - src/connectors/lfshealth.c: single
 * `lfs df` and `lctl dl -t` snapshots against the reference's goldens
 * (golden/pytokio/lfshealth/), round trips, our own fixtures
 * (tests/connectors/lfshealth/good/), malformed inputs as data
 * (lfshealth/bad/: df-*, dl-*), OOM.
 */
#include "testutil.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/alloc.h"
#include "tokio/connectors/lfshealth.h"
#include "tokio/input.h"
#include "tokio/output.h"

static json_t *
load_json(const char *path)
{
    unsigned char *buf = NULL;
    size_t len = 0;
    json_error_t err;

    assert_int_equal(tokio_read_file(path, 0, &buf, &len), TOKIO_OK);
    json_t *j = json_loadb((const char *)buf, len, 0, &err);
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
    return tokio_lfs_df_write(h, fp);
}

static int
dl_write(const void *h, FILE *fp)
{
    return tokio_lfs_dl_write(h, fp);
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
test_lfs_df_matches_golden_json_and_text(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(in, "pytokio-inputs/lfs-df.txt.gz");
    struct tokio_lfs_df *df = NULL;
    json_t *ours = NULL;
    size_t n;

    assert_int_equal(tokio_lfs_df_open(&df, in), TOKIO_OK);
    assert_int_equal(tokio_lfs_df_to_json(df, &ours), TOKIO_OK);
    json_t *want = load_json(tokio_test_data(
        "golden/pytokio/lfshealth/lfs-df.LfsOstFullness.json"));
    assert_true(json_equal(ours, want));
    char *text = write_to_string(df_write, df, &n);
    assert_same_text(text, n, tokio_test_data(
        "golden/pytokio/lfshealth/lfs-df.save_cache.txt"));

    /* round trip: JSON -> snapshot -> the same JSON and text */
    struct tokio_lfs_df *back = NULL;
    json_t *again = NULL;
    size_t n2;
    assert_int_equal(tokio_lfs_df_from_json(&back, ours), TOKIO_OK);
    assert_int_equal(tokio_lfs_df_to_json(back, &again), TOKIO_OK);
    assert_true(json_equal(again, want));
    char *text2 = write_to_string(df_write, back, &n2);
    assert_int_equal(n, n2);
    assert_memory_equal(text, text2, n);
    free(text);
    free(text2);
    json_decref(again);
    tokio_lfs_df_free(back);
    json_decref(want);
    json_decref(ours);
    tokio_lfs_df_free(df);
}

static void
test_lfs_dl_matches_golden_json_text_failovers(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(in, "pytokio-inputs/lctl-dl-t.txt.gz");
    struct tokio_lfs_dl *dl = NULL;
    json_t *ours = NULL, *fo = NULL;
    size_t n;

    assert_int_equal(tokio_lfs_dl_open(&dl, in), TOKIO_OK);
    assert_int_equal(tokio_lfs_dl_to_json(dl, &ours), TOKIO_OK);
    json_t *want = load_json(tokio_test_data(
        "golden/pytokio/lfshealth/lctl-dl-t.LfsOstMap.json"));
    assert_true(json_equal(ours, want));
    char *text = write_to_string(dl_write, dl, &n);
    assert_same_text(text, n, tokio_test_data(
        "golden/pytokio/lfshealth/lctl-dl-t.save_cache.txt"));
    assert_int_equal(tokio_lfs_dl_failovers(dl, &fo), TOKIO_OK);
    json_t *want_fo = load_json(tokio_test_data(
        "golden/pytokio/lfshealth/lctl-dl-t.get_failovers.json"));
    assert_true(json_equal(fo, want_fo));

    struct tokio_lfs_dl *back = NULL;
    json_t *again = NULL;
    assert_int_equal(tokio_lfs_dl_from_json(&back, ours), TOKIO_OK);
    assert_int_equal(tokio_lfs_dl_to_json(back, &again), TOKIO_OK);
    assert_true(json_equal(again, want));
    json_decref(again);
    tokio_lfs_dl_free(back);
    free(text);
    json_decref(want_fo);
    json_decref(fo);
    json_decref(want);
    json_decref(ours);
    tokio_lfs_dl_free(dl);
}

/* ---- our fixtures ---- */

static void
test_lfs_df_fixture_order_duplicates_and_odd_lines(void **state)
{
    (void)state;
    struct tokio_lfs_df *df = NULL;

    assert_int_equal(tokio_lfs_df_open(&df, tokio_test_source(
        "tests/connectors/lfshealth/good/small-df.txt")), TOKIO_OK);
    /* snx11035 first (first seen), the repeated OST0001 keeps its place
     * with the later values; "... 3 /bad[OST:3]" does not match the
     * reference's expression ("(\d+)." needs two characters), while
     * "3  /odd[weird role:2]" does, role and all */
    assert_int_equal(tokio_lfs_df_count(df), 5);
    const struct tokio_lfs_df_target *t = tokio_lfs_df_target(df, 1);
    assert_string_equal(t->fs, "snx11035");
    assert_string_equal(t->target, "OST0001");
    assert_int_equal(t->used_kib, 64867282281);
    t = tokio_lfs_df_target(df, 3);
    assert_string_equal(t->fs, "snx11025");
    t = tokio_lfs_df_target(df, 4);
    assert_string_equal(t->fs, "snx7");
    assert_string_equal(t->mount_pt, "/odd");
    assert_string_equal(t->role, "weird role");
    assert_int_equal(t->target_index, 2);
    assert_null(tokio_lfs_df_target(df, 5));

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
    tokio_lfs_df_free(df);
}

static void
test_lfs_dl_fixture_failovers_mode_and_skips(void **state)
{
    (void)state;
    struct tokio_lfs_dl *dl = NULL;
    json_t *fo = NULL;

    assert_int_equal(tokio_lfs_dl_open(&dl, tokio_test_source(
        "tests/connectors/lfshealth/good/small-dl.txt")), TOKIO_OK);
    assert_int_equal(tokio_lfs_dl_count(dl), 5);      /* no mgc, no lov */
    const struct tokio_lfs_dl_target *t = tokio_lfs_dl_target(dl, 4);
    assert_string_equal(t->status, "in");
    assert_string_equal(t->target_ip, "10.0.0.7");
    assert_int_equal(tokio_lfs_dl_failovers(dl, &fo), TOKIO_OK);
    json_t *want = json_loads(
        "{\"snx11035\": {\"mode\": 1, \"abnormal_ips\": "
        "{\"10.0.0.7\": [\"OST0002\", \"OST0003\"]}}}", 0, NULL);
    assert_true(json_equal(fo, want));
    json_decref(want);
    json_decref(fo);
    tokio_lfs_dl_free(dl);
}

/* Many file systems, their lines interleaved (target by target), then
 * every key again with new values: the indexes' growth, the grouping by
 * file system (order of first appearance, each one's targets in order of
 * first appearance) and the dict assignment, at a size the fixtures do
 * not reach; expectations from the same formulas that wrote the text. */
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

static void
test_lfs_many_file_systems_interleaved_and_repeated(void **state)
{
    (void)state;
    char want[64];
    char *text = many_text(0);
    struct tokio_lfs_df *df = NULL, *back = NULL;
    json_t *j = NULL, *j2 = NULL;

    assert_int_equal(tokio_lfs_df_open_mem(&df, text, strlen(text), "many"),
                     TOKIO_OK);
    free(text);
    assert_int_equal(tokio_lfs_df_count(df), MANY_FS * MANY_TG);
    for (int f = 0; f < MANY_FS; f++)
        for (int t = 0; t < MANY_TG; t++) {
            const struct tokio_lfs_df_target *p =
                tokio_lfs_df_target(df, (size_t)(f * MANY_TG + t));
            int v = (f * 100 + t) * 10 + 1;
            snprintf(want, sizeof(want), "snx%d", 1000 + f);
            assert_string_equal(p->fs, want);
            snprintf(want, sizeof(want), "OST%04x", t);
            assert_string_equal(p->target, want);
            snprintf(want, sizeof(want), "/m%d", f);
            assert_string_equal(p->mount_pt, want);
            assert_string_equal(p->role, "ost");
            assert_int_equal(p->total_kib, 3 * v);
            assert_int_equal(p->used_kib, v);
            assert_int_equal(p->remaining_kib, 2 * v);
            assert_int_equal(p->target_index, t);
        }
    assert_int_equal(tokio_lfs_df_to_json(df, &j), TOKIO_OK);
    assert_int_equal(tokio_lfs_df_from_json(&back, j), TOKIO_OK);
    assert_int_equal(tokio_lfs_df_to_json(back, &j2), TOKIO_OK);
    assert_true(json_equal(j, j2));
    json_decref(j);
    json_decref(j2);
    tokio_lfs_df_free(back);
    tokio_lfs_df_free(df);

    struct tokio_lfs_dl *dl = NULL, *dback = NULL;
    text = many_text(1);
    assert_int_equal(tokio_lfs_dl_open_mem(&dl, text, strlen(text), "many"),
                     TOKIO_OK);
    free(text);
    assert_int_equal(tokio_lfs_dl_count(dl), MANY_FS * MANY_TG);
    for (int f = 0; f < MANY_FS; f++)
        for (int t = 0; t < MANY_TG; t++) {
            const struct tokio_lfs_dl_target *p =
                tokio_lfs_dl_target(dl, (size_t)(f * MANY_TG + t));
            int v = (f * 100 + t) * 10 + 1;
            snprintf(want, sizeof(want), "snx%d", 1000 + f);
            assert_string_equal(p->fs, want);
            snprintf(want, sizeof(want), "OST%04x", t);
            assert_string_equal(p->target, want);
            assert_int_equal(p->index, v);
            assert_string_equal(p->status, "up");
            assert_string_equal(p->role, "osc");
            snprintf(want, sizeof(want), "snx%d-OST%04x-osc-ffff8",
                     1000 + f, t);
            assert_string_equal(p->role_id, want);
            snprintf(want, sizeof(want), "uuid-%d", v);
            assert_string_equal(p->uuid, want);
            assert_int_equal(p->ref_count, 1);
            snprintf(want, sizeof(want), "10.0.%d.%d", f, t % 7);
            assert_string_equal(p->target_ip, want);
            snprintf(want, sizeof(want), "10.0.%d.%d@o2ib", f, t % 7);
            assert_string_equal(p->nid, want);
        }
    assert_int_equal(tokio_lfs_dl_to_json(dl, &j), TOKIO_OK);
    assert_int_equal(tokio_lfs_dl_from_json(&dback, j), TOKIO_OK);
    assert_int_equal(tokio_lfs_dl_to_json(dback, &j2), TOKIO_OK);
    assert_true(json_equal(j, j2));
    json_decref(j);
    json_decref(j2);
    tokio_lfs_dl_free(dback);
    tokio_lfs_dl_free(dl);
}

static void
test_lfs_from_json_rejects_wrong_types(void **state)
{
    (void)state;
    struct tokio_lfs_df *df = NULL;
    struct tokio_lfs_dl *dl = NULL;
    json_t *j = json_loads("{\"snx1\": {\"OST0000\": {\"total_kib\": \"x\"}}}",
                           0, NULL);

    assert_int_equal(tokio_lfs_df_from_json(&df, j), TOKIO_EFORMAT);
    assert_null(df);
    assert_contains(tokio_errmsg(), "snx1/OST0000");
    assert_int_equal(tokio_lfs_dl_from_json(&dl, j), TOKIO_EFORMAT);
    json_decref(j);
    j = json_loads("[1]", 0, NULL);
    assert_int_equal(tokio_lfs_df_from_json(&df, j), TOKIO_EFORMAT);
    json_decref(j);
}

/* ---- malformed inputs, as data ---- */

static void
test_lfs_bad_inputs_report_file_and_line(void **state)
{
    (void)state;
    const char *dir = tokio_test_source("tests/connectors/lfshealth/bad");
    char dirbuf[4096];
    snprintf(dirbuf, sizeof(dirbuf), "%s", dir);
    DIR *d = opendir(dirbuf);
    struct dirent *e;
    int n = 0;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        int is_df = strncmp(e->d_name, "df-", 3) == 0;
        int is_dl = strncmp(e->d_name, "dl-", 3) == 0;
        if ((!is_df && !is_dl) || len < 5 ||
            strcmp(e->d_name + len - 4, ".txt") != 0)
            continue;
        char path[4096 + 512], expect[4096 + 512];
        snprintf(path, sizeof(path), "%s/%s", dirbuf, e->d_name);
        snprintf(expect, sizeof(expect), "%s/%.*s.expect", dirbuf,
                 (int)(len - 4), e->d_name);
        char *want = tokio_test_read_file(expect, NULL);
        assert_non_null(want);
        int status = atoi(want);
        char *msg = strchr(want, '\n') + 1;
        msg[strcspn(msg, "\n")] = '\0';
        int rc;
        if (is_df) {
            struct tokio_lfs_df *df = NULL;
            rc = tokio_lfs_df_open(&df, path);
            assert_null(df);
        } else {
            struct tokio_lfs_dl *dl = NULL;
            rc = tokio_lfs_dl_open(&dl, path);
            assert_null(dl);
        }
        if (rc != status)
            print_error("%s: rc %d, expected %d\n", e->d_name, rc, status);
        assert_int_equal(rc, status);
        assert_contains(tokio_errmsg(), msg);
        assert_contains(tokio_errmsg(), e->d_name);
        free(want);
        n++;
    }
    closedir(d);
    assert_true(n >= 4);
}

/* ---- anomalies ---- */

static int
df_to_json(void *path)
{
    struct tokio_lfs_df *df = NULL;
    json_t *j = NULL;
    int rc = tokio_lfs_df_open(&df, path);

    if (rc >= 0)
        rc = tokio_lfs_df_to_json(df, &j);
    json_decref(j);
    tokio_lfs_df_free(df);
    return rc;
}

static int
dl_failovers(void *path)
{
    struct tokio_lfs_dl *dl = NULL;
    json_t *j = NULL;
    int rc = tokio_lfs_dl_open(&dl, path);

    if (rc >= 0)
        rc = tokio_lfs_dl_failovers(dl, &j);
    json_decref(j);
    tokio_lfs_dl_free(dl);
    return rc;
}

static void
test_lfs_open_survives_every_oom(void **state)
{
    (void)state;
    const char *dfp = tokio_test_source(
        "tests/connectors/lfshealth/good/small-df.txt");
    char df_path[4096];
    snprintf(df_path, sizeof(df_path), "%s", dfp);
    const char *dlp = tokio_test_source(
        "tests/connectors/lfshealth/good/small-dl.txt");
    char dl_path[4096];
    snprintf(dl_path, sizeof(dl_path), "%s", dlp);

    tokio_test_every_oom(df_to_json, df_path, 1);
    tokio_test_every_oom(dl_failovers, dl_path, 1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lfs_df_matches_golden_json_and_text),
        cmocka_unit_test(test_lfs_dl_matches_golden_json_text_failovers),
        cmocka_unit_test(test_lfs_df_fixture_order_duplicates_and_odd_lines),
        cmocka_unit_test(test_lfs_dl_fixture_failovers_mode_and_skips),
        cmocka_unit_test(test_lfs_many_file_systems_interleaved_and_repeated),
        cmocka_unit_test(test_lfs_from_json_rejects_wrong_types),
        cmocka_unit_test(test_lfs_bad_inputs_report_file_and_line),
        cmocka_unit_test(test_lfs_open_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
