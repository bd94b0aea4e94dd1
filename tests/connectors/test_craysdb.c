/*
 * tests/connectors/test_craysdb.c - the Cray SDB processor table
 * (src/connectors/craysdb.c) against the reference's goldens
 * (golden/pytokio/craysdb/: the JSON compared by value, the save_cache()
 * text byte for byte), then round trips, value recasting, malformed lines
 * and out-of-memory failures.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "tokio/connectors/craysdb.h"
#include "tokio/output.h"
#include "core/alloc.h"

#define SAMPLE "pytokio-inputs/sample.xtdb2proc.gz"
#define GOLDEN_JSON "golden/pytokio/craysdb/sample.xtdb2proc.CraySdbProc.json"
#define GOLDEN_TEXT "golden/pytokio/craysdb/sample.xtdb2proc.save_cache.txt"

/* A small table of our own, in the sample's layout, for the tests that
 * must run without the data pack. */
static const char small[] =
    "#\n"
    "# comment header as xtdb2proc prints it\n"
    "#\n"
    "cpu=0,slot=2,cabinet=null,x_coord=13,y_coord=0,z_coord=2,"
    "processor_status='up',processor_id=5000\n"
    "\n"
    "cpu=1,slot=2,cabinet=null,x_coord=13,y_coord=1,z_coord=3,"
    "processor_status='down',processor_id=5001\n"
    "cpu=2,slot=3,cabinet=4,x_coord=-1,y_coord=7,z_coord=0,"
    "processor_status='up',processor_id=17\n";

static const char small_saved[] =
    "cpu=0,slot=2,cabinet=null,x_coord=13,y_coord=0,z_coord=2,"
    "processor_status='up',processor_id=5000\n"
    "cpu=1,slot=2,cabinet=null,x_coord=13,y_coord=1,z_coord=3,"
    "processor_status='down',processor_id=5001\n"
    "cpu=2,slot=3,cabinet=4,x_coord=-1,y_coord=7,z_coord=0,"
    "processor_status='up',processor_id=17\n";

/* The table written to a string (free()). */
static char *
write_text(const struct tokio_craysdb *db)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    assert_int_equal(tokio_craysdb_write_native(db, fp), TOKIO_OK);
    assert_int_equal(fclose(fp), 0);
    return buf;
}

/* The record of processor `id` (a new reference), or NULL. */
static json_t *
proc_json(const struct tokio_craysdb *db, long long id)
{
    json_t *all = NULL, *rec;
    char key[32];

    assert_int_equal(tokio_craysdb_to_json(db, &all), TOKIO_OK);
    snprintf(key, sizeof(key), "%lld", id);
    rec = json_incref(json_object_get(all, key));
    json_decref(all);
    return rec;
}

static struct tokio_craysdb *
open_text(const char *text)
{
    struct tokio_craysdb *db = NULL;

    assert_int_equal(tokio_craysdb_open_mem(&db, text, strlen(text), "t"),
                     TOKIO_OK);
    assert_non_null(db);
    return db;
}

/* ---- goldens -------------------------------------------------------- */

static void
test_craysdb_json_matches_golden(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(sample, SAMPLE);
    char path[4096];
    snprintf(path, sizeof(path), "%s", sample);
    TOKIO_TEST_NEED_DATA(golden_path, GOLDEN_JSON);
    struct tokio_craysdb *db = NULL;
    json_error_t err;
    json_t *golden = json_load_file(golden_path, 0, &err), *ours = NULL;

    assert_non_null(golden);
    assert_int_equal(tokio_craysdb_open(&db, path), TOKIO_OK);
    assert_int_equal(tokio_craysdb_count(db), 499);
    assert_int_equal(tokio_craysdb_to_json(db, &ours), TOKIO_OK);
    /* by value: integers stay integers, null stays null */
    assert_true(json_equal(golden, ours));
    json_decref(golden);
    json_decref(ours);
    tokio_craysdb_free(db);
}

static void
test_craysdb_save_matches_golden_byte_for_byte(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(sample, SAMPLE);
    char path[4096];
    snprintf(path, sizeof(path), "%s", sample);
    TOKIO_TEST_NEED_DATA(golden_path, GOLDEN_TEXT);
    struct tokio_craysdb *db = NULL;
    char *golden = tokio_test_read_file(golden_path, NULL), *ours;

    assert_non_null(golden);
    assert_int_equal(tokio_craysdb_open(&db, path), TOKIO_OK);
    ours = write_text(db);
    assert_string_equal(ours, golden);
    free(ours);
    free(golden);
    tokio_craysdb_free(db);
}

/* The reference test's checks (tests/test_connectors_craysdb.py). */
static void
test_craysdb_sample_records_are_sane(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(sample, SAMPLE);
    static const char *const nonneg[] = {
        "cab_position", "cab_row", "cage", "cpu", "process_slots", "slot",
        "x_coord", "y_coord", "z_coord"
    };
    struct tokio_craysdb *db = NULL;
    json_t *all = NULL, *rec;
    const char *key;
    int64_t xyz[3];

    assert_int_equal(tokio_craysdb_open(&db, sample), TOKIO_OK);
    assert_int_equal(tokio_craysdb_to_json(db, &all), TOKIO_OK);
    json_object_foreach(all, key, rec) {
        int64_t id = json_integer_value(json_object_get(rec, "processor_id"));
        assert_int_equal(id, strtoll(key, NULL, 10));
        json_t *one = proc_json(db, id);
        assert_true(json_equal(one, rec));
        json_decref(one);
        assert_true(json_integer_value(json_object_get(rec,
                                       "process_slots_free")) >=
                    json_integer_value(json_object_get(rec,
                                       "process_slots")));
        for (size_t i = 0; i < sizeof(nonneg) / sizeof(nonneg[0]); i++)
            assert_true(json_integer_value(json_object_get(rec, nonneg[i]))
                        >= 0);
    }
    assert_int_equal(tokio_craysdb_coords(db, 5000, xyz), TOKIO_OK);
    assert_int_equal(xyz[0], 13);
    assert_int_equal(xyz[1], 0);
    assert_int_equal(xyz[2], 2);
    assert_int_equal(tokio_craysdb_coords(db, 1, xyz), TOKIO_ENOTFOUND);
    assert_contains(tokio_errmsg(), "processor 1 ");
    json_decref(all);
    tokio_craysdb_free(db);
}

/* ---- round trips ---------------------------------------------------- */

static void
test_craysdb_text_round_trip_keeps_table(void **state)
{
    (void)state;
    struct tokio_craysdb *db = open_text(small), *again;
    char *text = write_text(db);
    json_t *a = NULL, *b = NULL;

    assert_string_equal(text, small_saved);
    again = open_text(text);
    assert_int_equal(tokio_craysdb_to_json(db, &a), TOKIO_OK);
    assert_int_equal(tokio_craysdb_to_json(again, &b), TOKIO_OK);
    assert_true(json_equal(a, b));
    assert_int_equal(tokio_craysdb_count(again), 3);
    json_t *p5001 = proc_json(again, 5001);
    assert_true(json_is_null(json_object_get(p5001, "cabinet")));
    assert_string_equal(json_string_value(json_object_get(
        p5001, "processor_status")), "down");
    json_decref(p5001);
    assert_null(proc_json(again, 4));
    json_decref(a);
    json_decref(b);
    free(text);
    tokio_craysdb_free(again);
    tokio_craysdb_free(db);
}

static void
test_craysdb_json_round_trip_writes_same_text(void **state)
{
    (void)state;
    struct tokio_craysdb *db = open_text(small), *again = NULL;
    json_t *json = NULL;
    char *text;

    assert_int_equal(tokio_craysdb_to_json(db, &json), TOKIO_OK);
    assert_int_equal(tokio_craysdb_from_json(&again, json), TOKIO_OK);
    text = write_text(again);
    assert_string_equal(text, small_saved);
    free(text);
    json_decref(json);
    tokio_craysdb_free(again);
    tokio_craysdb_free(db);
}

static void
test_craysdb_sample_round_trips_through_text(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(sample, SAMPLE);
    struct tokio_craysdb *db = NULL, *again;
    json_t *a = NULL, *b = NULL;
    char *text;

    assert_int_equal(tokio_craysdb_open(&db, sample), TOKIO_OK);
    text = write_text(db);
    again = open_text(text);
    assert_int_equal(tokio_craysdb_to_json(db, &a), TOKIO_OK);
    assert_int_equal(tokio_craysdb_to_json(again, &b), TOKIO_OK);
    assert_true(json_equal(a, b));
    json_decref(a);
    json_decref(b);
    free(text);
    tokio_craysdb_free(again);
    tokio_craysdb_free(db);
}

/* ---- value recasting as the reference's load_str() ------------------ */

static void
test_craysdb_values_recast_as_reference(void **state)
{
    (void)state;
    struct tokio_craysdb *db = open_text(
        "a='null',b='5', c = 7 ,d=1_000,e=0x10,f=1.5,g=99999999999999999999,"
        "h='a b',i=\"q\",j=,k=-3,l=+4,m=1__0,n='' x '',processor_id='9'\n");
    json_t *r = proc_json(db, 9);

    assert_non_null(r);
    assert_true(json_is_null(json_object_get(r, "a")));
    assert_int_equal(json_integer_value(json_object_get(r, "b")), 5);
    /* keys are not stripped, values are */
    assert_int_equal(json_integer_value(json_object_get(r, " c ")), 7);
    assert_int_equal(json_integer_value(json_object_get(r, "d")), 1000);
    assert_string_equal(json_string_value(json_object_get(r, "e")), "0x10");
    assert_string_equal(json_string_value(json_object_get(r, "f")), "1.5");
    /* Differs from pytokio: Python kept the big integer, we the text */
    assert_string_equal(json_string_value(json_object_get(r, "g")),
                        "99999999999999999999");
    assert_string_equal(json_string_value(json_object_get(r, "h")), "a b");
    assert_string_equal(json_string_value(json_object_get(r, "i")), "q");
    assert_string_equal(json_string_value(json_object_get(r, "j")), "");
    assert_int_equal(json_integer_value(json_object_get(r, "k")), -3);
    assert_int_equal(json_integer_value(json_object_get(r, "l")), 4);
    assert_string_equal(json_string_value(json_object_get(r, "m")), "1__0");
    assert_string_equal(json_string_value(json_object_get(r, "n")), " x ");
    json_decref(r);
    tokio_craysdb_free(db);
}

/* ---- malformed input (more in tests/connectors/craysdb/bad/) ------- */

static void
test_craysdb_empty_input_is_empty_table(void **state)
{
    (void)state;
    struct tokio_craysdb *db = open_text("# only comments\n\n");
    char *text = write_text(db);

    assert_int_equal(tokio_craysdb_count(db), 0);
    assert_string_equal(text, "");
    free(text);
    tokio_craysdb_free(db);
}

/* The reference's __repr__ failed (KeyError) on such a table too. */
static void
test_craysdb_write_fails_when_record_lacks_first_key(void **state)
{
    (void)state;
    struct tokio_craysdb *db = open_text("a=1,processor_id=1\n"
                                         "processor_id=2\n");
    FILE *fp = tmpfile();

    assert_non_null(fp);
    assert_int_equal(tokio_craysdb_write_native(db, fp), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "record 2 lacks key 'a'");
    fclose(fp);
    tokio_craysdb_free(db);
}

static void
test_craysdb_from_json_rejects_bad_tables(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "[]",
        "{\"1\": 5}",
        "{\"1\": {\"processor_id\": 2}}",
        "{\"1\": {\"processor_id\": \"1\"}}",
        "{\"1\": {\"processor_id\": 1, \"x\": 1.5}}",
        "{\"1\": {\"processor_id\": 1, \"x\": [1]}}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct tokio_craysdb *db = NULL;
        json_t *j = json_loads(bad[i], 0, NULL);

        assert_non_null(j);
        assert_int_equal(tokio_craysdb_from_json(&db, j), TOKIO_EFORMAT);
        assert_null(db);
        json_decref(j);
    }
}

/* ---- JSON in the reference's order -------------------------------- */

/* Written sorted, records come as Python's json.dumps(sort_keys=True)
 * ordered the reference's dict: int keys as numbers, each record's str
 * keys as text. */
static void
test_craysdb_sorted_json_orders_ids_as_numbers(void **state)
{
    (void)state;
    /* records whose keys differ in set and order, ids that sort
     * differently as text and as numbers */
    struct tokio_craysdb *db = open_text(
        "b=1,a='x',processor_id=10\n"
        "b=2,a='x',processor_id=9\n"
        "a='y',b=null,processor_id=100\n"
        "processor_id=-3,c='\xc3\xa9t\xc3\xa9 \"q\" x',a='x'\n"
        "processor_id=11,c='z'\n");
    json_t *json = NULL;
    char *text = NULL;

    assert_int_equal(tokio_craysdb_to_json(db, &json), TOKIO_OK);
    assert_int_equal(tokio_json_dumps(&text, json, TOKIO_JSON_SORT_KEYS |
                                      TOKIO_JSON_SORT_INT_KEYS), TOKIO_OK);
    assert_string_equal(text,
        "{\"-3\": {\"a\": \"x\", \"c\": \"\\u00e9t\\u00e9 \\\"q\\\" x\", "
        "\"processor_id\": -3}, "
        "\"9\": {\"a\": \"x\", \"b\": 2, \"processor_id\": 9}, "
        "\"10\": {\"a\": \"x\", \"b\": 1, \"processor_id\": 10}, "
        "\"11\": {\"c\": \"z\", \"processor_id\": 11}, "
        "\"100\": {\"a\": \"y\", \"b\": null, \"processor_id\": 100}}");
    free(text);
    json_decref(json);
    tokio_craysdb_free(db);
}

/* Keys found where the line before had them, or looked for when a line
 * differs; values kept apart even when the text repeats. */
static void
test_craysdb_lines_with_other_keys(void **state)
{
    (void)state;
    struct tokio_craysdb *db = open_text(
        "a=1,b='up',processor_id=1\n"
        "a=2,b='up',processor_id=2\n"
        "b='up',a=3,processor_id=3\n"
        "a=4,b='down',c=null,processor_id=4\n"
        "a=5,b=,processor_id=5\n"
        "ab=6,a=7,processor_id=6\n");
    json_t *r;

    assert_int_equal(tokio_craysdb_count(db), 6);
    r = proc_json(db, 3);
    assert_int_equal(json_integer_value(json_object_get(r, "a")), 3);
    assert_string_equal(json_string_value(json_object_get(r, "b")), "up");
    json_decref(r);
    r = proc_json(db, 4);
    assert_string_equal(json_string_value(json_object_get(r, "b")), "down");
    assert_true(json_is_null(json_object_get(r, "c")));
    json_decref(r);
    r = proc_json(db, 5);
    assert_string_equal(json_string_value(json_object_get(r, "b")), "");
    json_decref(r);
    r = proc_json(db, 6);
    assert_int_equal(json_integer_value(json_object_get(r, "ab")), 6);
    assert_int_equal(json_integer_value(json_object_get(r, "a")), 7);
    assert_null(json_object_get(r, "b"));
    json_decref(r);
    tokio_craysdb_free(db);
}

/* Only new text is checked as it is read, yet a line that is not UTF-8
 * (or holds a NUL) is reported as such before any other fault of it. */
static void
test_craysdb_bad_text_is_told_first(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        size_t len;
        const char *fragment;
    } cases[] = {
        { "a=1,junk,b='\xff',processor_id=1\n", 0,
          "'t' line 1: invalid UTF-8" },
        { "a=1,processor_id=1\na=1,\xff=2,processor_id=2\n", 0,
          "'t' line 2: invalid UTF-8" },
        { "a=1,processor_id=1\na=1,a=2,b='\xe9',processor_id=2\n", 0,
          "'t' line 2: invalid UTF-8" },
        { "a='\xc3',processor_id=1\n", 0, "'t' line 1: invalid UTF-8" },
        { "a='x',processor_id=1\na='\xff',processor_id=2\n", 0,
          "'t' line 2: invalid UTF-8" },
        { "a=1,b='\xff'\n", 0, "'t' line 1: invalid UTF-8" },
        { "a=1,processor_id=1\na\0=1,processor_id=2\n", 39,
          "'t' line 2: NUL byte" },
        { "a=1,processor_id=1\na=1,processor_id=1,x=\0\n", 42,
          "'t' line 2: NUL byte" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_craysdb *db = (struct tokio_craysdb *)1;
        size_t len = cases[i].len ? cases[i].len : strlen(cases[i].text);

        print_message("case %zu\n", i);
        assert_int_equal(tokio_craysdb_open_mem(&db, cases[i].text, len,
                                                "t"), TOKIO_EFORMAT);
        assert_null(db);
        assert_contains(tokio_errmsg(), cases[i].fragment);
    }
}

/* The JSON form is told by its first non-blank character, after blank
 * lines, and compressed as well. */
static void
test_craysdb_json_form_after_blank_lines(void **state)
{
    (void)state;
    static const char json[] =
        "\n \t\n  {\"5\": {\"processor_id\": 5, \"s\": \"up\"}}\n";
    static const char bad[] = "\n\n{\"5\": {\"processor_id\": 5,}}\n";
    struct tokio_craysdb *db = NULL;
    json_t *r;

    assert_int_equal(tokio_craysdb_open_mem(&db, json, strlen(json), "j"),
                     TOKIO_OK);
    r = proc_json(db, 5);
    assert_string_equal(json_string_value(json_object_get(r, "s")), "up");
    json_decref(r);
    tokio_craysdb_free(db);
    assert_int_equal(tokio_craysdb_open_mem(&db, bad, strlen(bad), "j"),
                     TOKIO_EFORMAT);
    assert_null(db);
    /* the syntax error's line counts the blank lines */
    assert_contains(tokio_errmsg(), "'j' line 3");
}

/* ---- anomalies: out of memory --------------------------------------- */

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_craysdb_json_matches_golden),
        cmocka_unit_test(test_craysdb_save_matches_golden_byte_for_byte),
        cmocka_unit_test(test_craysdb_sample_records_are_sane),
        cmocka_unit_test(test_craysdb_text_round_trip_keeps_table),
        cmocka_unit_test(test_craysdb_json_round_trip_writes_same_text),
        cmocka_unit_test(test_craysdb_sample_round_trips_through_text),
        cmocka_unit_test(test_craysdb_values_recast_as_reference),
        cmocka_unit_test(test_craysdb_empty_input_is_empty_table),
        cmocka_unit_test(test_craysdb_write_fails_when_record_lacks_first_key),
        cmocka_unit_test(test_craysdb_from_json_rejects_bad_tables),
        cmocka_unit_test(test_craysdb_sorted_json_orders_ids_as_numbers),
        cmocka_unit_test(test_craysdb_lines_with_other_keys),
        cmocka_unit_test(test_craysdb_bad_text_is_told_first),
        cmocka_unit_test(test_craysdb_json_form_after_blank_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
