/*
 * tests/connectors/test_nersc_lfsstate.c - src/connectors/nersc_lfsstate.c:
 * the BEGIN-separated histories against golden/pytokio/nersc_lfsstate/,
 * merge, snapshots parsed when asked for, and what the generic loops of
 * test_connectors.c do not reach (failovers and the text writer under
 * failing allocations).  Fixtures and malformed inputs:
 * tests/connectors/nersc_lfsstate_fullness/ and nersc_lfsstate_map/.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/connectors/nersc_lfsstate.h"
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

static char *
save(const struct tokio_nersc_lfsstate *s, size_t *len)
{
    char *buf = NULL;
    FILE *fp = open_memstream(&buf, len);

    assert_non_null(fp);
    assert_int_equal(tokio_nersc_lfsstate_write_native(s, fp), TOKIO_OK);
    fclose(fp);
    return buf;
}

static void
test_nersc_fullness_matches_golden(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(in, "pytokio-inputs/sample_ost-fullness.txt.gz");
    struct tokio_nersc_lfsstate *s = NULL, *back = NULL;
    json_t *ours = NULL, *again = NULL;
    unsigned char *want_text = NULL;
    size_t n, want_n;

    assert_int_equal(tokio_nersc_lfsstate_open(&s, TOKIO_NERSC_LFSSTATE_FULLNESS,
                                               in), TOKIO_OK);
    assert_int_equal(tokio_nersc_lfsstate_count(s), 70);
    assert_int_equal(tokio_nersc_lfsstate_to_json(s, &ours), TOKIO_OK);
    json_t *want = load_json(tokio_test_data("golden/pytokio/nersc_lfsstate/"
        "sample_ost-fullness.NerscLfsOstFullness.json.gz"));
    assert_true(json_equal(ours, want));
    char *text = save(s, &n);
    assert_int_equal(tokio_read_file(tokio_test_data(
        "golden/pytokio/nersc_lfsstate/sample_ost-fullness.save_cache.txt.gz"),
        0, &want_text, &want_n), TOKIO_OK);
    assert_int_equal(n, want_n);
    assert_memory_equal(text, want_text, n);
    assert_int_equal(tokio_nersc_lfsstate_from_json(
        &back, TOKIO_NERSC_LFSSTATE_FULLNESS, ours), TOKIO_OK);
    assert_int_equal(tokio_nersc_lfsstate_to_json(back, &again), TOKIO_OK);
    assert_true(json_equal(again, want));
    json_decref(again);
    assert_int_equal(tokio_nersc_lfsstate_failovers(s, &again), TOKIO_EINVAL);
    assert_null(again);
    tokio_nersc_lfsstate_free(back);
    free(text);
    free(want_text);
    json_decref(want);
    json_decref(ours);
    tokio_nersc_lfsstate_free(s);
}

/* Differs from pytokio: NerscLfsOstMap dropped the last BEGIN block, so
 * its goldens hold 69 of the 70 snapshots; ours hold all 70, agree on the
 * 69, and the text golden is ours minus the last block. */
static void
test_nersc_map_keeps_last_block_else_matches_golden(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(in, "pytokio-inputs/sample_ost-map.txt.gz");
    struct tokio_nersc_lfsstate *s = NULL;
    json_t *ours = NULL, *fo = NULL;
    unsigned char *want_text = NULL;
    size_t n, want_n;

    assert_int_equal(tokio_nersc_lfsstate_open(&s, TOKIO_NERSC_LFSSTATE_MAP, in),
                     TOKIO_OK);
    assert_int_equal(tokio_nersc_lfsstate_count(s), 70);
    assert_int_equal(tokio_nersc_lfsstate_timestamp(s, 69), 1490081108);
    assert_int_equal(tokio_nersc_lfsstate_to_json(s, &ours), TOKIO_OK);
    json_t *want = load_json(tokio_test_data("golden/pytokio/nersc_lfsstate/"
        "sample_ost-map.NerscLfsOstMap.json.gz"));
    assert_int_equal(json_object_size(want), 69);
    assert_non_null(json_object_get(ours, "1490081108"));
    json_object_del(ours, "1490081108");
    assert_true(json_equal(ours, want));

    assert_int_equal(tokio_nersc_lfsstate_failovers(s, &fo), TOKIO_OK);
    json_t *want_fo = load_json(tokio_test_data("golden/pytokio/nersc_lfsstate/"
        "sample_ost-map.get_failovers.json"));
    assert_non_null(json_object_get(fo, "1490081108"));
    json_object_del(fo, "1490081108");
    assert_true(json_equal(fo, want_fo));

    char *text = save(s, &n);
    assert_int_equal(tokio_read_file(tokio_test_data(
        "golden/pytokio/nersc_lfsstate/sample_ost-map.save_cache.txt.gz"),
        0, &want_text, &want_n), TOKIO_OK);
    assert_true(n > want_n);
    assert_memory_equal(text, want_text, want_n);
    assert_true(strncmp(text + want_n, "BEGIN 1490081108\n", 17) == 0);
    free(text);
    free(want_text);
    json_decref(want_fo);
    json_decref(fo);
    json_decref(want);
    json_decref(ours);
    tokio_nersc_lfsstate_free(s);
}

/* The number of targets of snapshot `i` of an OST map history. */
static size_t
map_targets(const struct tokio_nersc_lfsstate *s, size_t i)
{
    struct tokio_lfshealth_map *m = NULL;
    json_t *j = NULL, *targets;
    const char *fs;
    size_t n = 0;

    assert_int_equal(tokio_nersc_lfsstate_map(s, i, &m), TOKIO_OK);
    assert_int_equal(tokio_lfshealth_map_to_json(m, &j), TOKIO_OK);
    json_object_foreach(j, fs, targets)
        n += json_object_size(targets);
    json_decref(j);
    tokio_lfshealth_map_free(m);
    return n;
}

static void
test_nersc_merge_later_wins_and_sorts(void **state)
{
    (void)state;
    const char *a = "BEGIN 200\n  4 UP osc snx1-OST0000-osc-f u 5 1.1.1.1@o\n"
                    "BEGIN 100\n";
    const char *b = "BEGIN 200\nBEGIN 300\nBEGIN 300\n"
                    "  4 UP osc snx1-OST0000-osc-f u 5 1.1.1.2@o\n";
    struct tokio_nersc_lfsstate *x = NULL, *y = NULL;
    struct tokio_lfshealth_fullness *df = NULL;

    assert_int_equal(tokio_nersc_lfsstate_open_mem(
        &x, TOKIO_NERSC_LFSSTATE_MAP, a, strlen(a), "a"), TOKIO_OK);
    assert_int_equal(tokio_nersc_lfsstate_open_mem(
        &y, TOKIO_NERSC_LFSSTATE_MAP, b, strlen(b), "b"), TOKIO_OK);
    assert_int_equal(tokio_nersc_lfsstate_count(y), 2);  /* 300 twice */
    assert_int_equal(map_targets(y, 1), 1);
    assert_int_equal(tokio_nersc_lfsstate_merge(x, y), TOKIO_OK);
    assert_int_equal(tokio_nersc_lfsstate_count(x), 3);
    assert_int_equal(tokio_nersc_lfsstate_timestamp(x, 0), 100);
    /* 200 came from b, which had no target in it */
    assert_int_equal(map_targets(x, 1), 0);
    assert_int_equal(map_targets(x, 2), 1);
    /* a map history has no fullness snapshot, nor a fourth one */
    assert_int_equal(tokio_nersc_lfsstate_fullness(x, 0, &df), TOKIO_EINVAL);
    assert_null(df);
    struct tokio_lfshealth_map *m = NULL;
    assert_int_equal(tokio_nersc_lfsstate_map(x, 3, &m), TOKIO_EINVAL);
    assert_null(m);
    tokio_nersc_lfsstate_free(x);
}

/* The epoch is the reference's int(line.split()[1]): Python's white
 * space around it, underscores in it, anything after it. */
static void
test_nersc_begin_epoch_as_python_reads_it(void **state)
{
    (void)state;
    const char *text = "BEGINNING\v1_000\fmore\nBEGIN +20 x\n";
    struct tokio_nersc_lfsstate *s = NULL;

    assert_int_equal(tokio_nersc_lfsstate_open_mem(
        &s, TOKIO_NERSC_LFSSTATE_MAP, text, strlen(text), "t"), TOKIO_OK);
    assert_int_equal(tokio_nersc_lfsstate_count(s), 2);
    assert_int_equal(tokio_nersc_lfsstate_timestamp(s, 0), 20);
    assert_int_equal(tokio_nersc_lfsstate_timestamp(s, 1), 1000);
    tokio_nersc_lfsstate_free(s);
}

/* A history read from its JSON form gives its snapshots as one read from
 * text does; kinds that differ do not merge. */
static void
test_nersc_json_snapshots_and_kinds(void **state)
{
    (void)state;
    const char *path = tokio_test_source(
        "tests/connectors/nersc_lfsstate_fullness/good/small.txt");
    struct tokio_nersc_lfsstate *s = NULL, *back = NULL, *map = NULL;
    struct tokio_lfshealth_fullness *a = NULL, *b = NULL;
    json_t *j = NULL, *ja = NULL, *jb = NULL;
    size_t n, n2;

    assert_int_equal(tokio_nersc_lfsstate_open(
        &s, TOKIO_NERSC_LFSSTATE_FULLNESS, path), TOKIO_OK);
    /* 1489998100 twice: the later block stays */
    assert_int_equal(tokio_nersc_lfsstate_count(s), 3);
    assert_int_equal(tokio_nersc_lfsstate_to_json(s, &j), TOKIO_OK);
    assert_int_equal(tokio_nersc_lfsstate_from_json(
        &back, TOKIO_NERSC_LFSSTATE_FULLNESS, j), TOKIO_OK);
    assert_int_equal(tokio_nersc_lfsstate_fullness(s, 0, &a), TOKIO_OK);
    assert_int_equal(tokio_nersc_lfsstate_fullness(back, 0, &b), TOKIO_OK);
    assert_int_equal(tokio_lfshealth_fullness_to_json(a, &ja), TOKIO_OK);
    assert_int_equal(tokio_lfshealth_fullness_to_json(b, &jb), TOKIO_OK);
    assert_true(json_equal(ja, jb));
    assert_int_equal(json_integer_value(json_object_get(json_object_get(
        json_object_get(ja, "snx11168"), "OST0000"), "used_kib")), 60);
    char *text = save(s, &n), *text2 = save(back, &n2);
    assert_int_equal(n, n2);
    assert_memory_equal(text, text2, n);
    assert_int_equal(tokio_nersc_lfsstate_open_mem(
        &map, TOKIO_NERSC_LFSSTATE_MAP, "", 0, "empty"), TOKIO_OK);
    assert_int_equal(tokio_nersc_lfsstate_merge(s, map), TOKIO_EINVAL);
    assert_int_equal(tokio_nersc_lfsstate_open_mem(
        &map, (enum tokio_nersc_lfsstate_kind)7, "", 0, "x"), TOKIO_EINVAL);
    assert_null(map);
    free(text);
    free(text2);
    json_decref(ja);
    json_decref(jb);
    json_decref(j);
    tokio_lfshealth_fullness_free(a);
    tokio_lfshealth_fullness_free(b);
    tokio_nersc_lfsstate_free(back);
    tokio_nersc_lfsstate_free(s);
}

static int
map_failovers_and_text(void *path)
{
    struct tokio_nersc_lfsstate *s = NULL;
    FILE *null = fopen("/dev/null", "w");
    json_t *j = NULL;
    int rc = tokio_nersc_lfsstate_open(&s, TOKIO_NERSC_LFSSTATE_MAP, path);

    assert_non_null(null);
    if (rc >= 0)
        rc = tokio_nersc_lfsstate_failovers(s, &j);
    if (rc >= 0)
        rc = tokio_nersc_lfsstate_write_native(s, null);
    fclose(null);
    json_decref(j);
    tokio_nersc_lfsstate_free(s);
    return rc;
}

static void
test_nersc_failovers_and_text_survive_every_oom(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof(path), "%s", tokio_test_source(
        "tests/connectors/nersc_lfsstate_map/good/small.txt"));

    tokio_test_every_oom(map_failovers_and_text, path, 1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nersc_fullness_matches_golden),
        cmocka_unit_test(test_nersc_map_keeps_last_block_else_matches_golden),
        cmocka_unit_test(test_nersc_merge_later_wins_and_sorts),
        cmocka_unit_test(test_nersc_begin_epoch_as_python_reads_it),
        cmocka_unit_test(test_nersc_json_snapshots_and_kinds),
        cmocka_unit_test(test_nersc_failovers_and_text_survive_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
