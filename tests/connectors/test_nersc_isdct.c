/*
 * tests/connectors/test_nersc_isdct.c - the NERSC ISDCT connector
 * (src/connectors/nersc_isdct.c): the reference's goldens for the sample
 * dumps (golden/pytokio/cache_isdct, nersc_isdct, compare_isdct), then the
 * same ground on small tarballs and folders this file writes itself (key
 * normalization, recasting, units, synthesized counters, timestamps, the
 * pandas typing of the CSV), round trips, diffs and their reduction, and
 * out-of-memory sweeps.  Malformed inputs, and the round trip and
 * out-of-memory sweep of opening tests/connectors/nersc_isdct/good/, are
 * tests/connectors/test_connectors.c's.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <jansson.h>
#include <stdio.h>

#include "tokio/connectors/nersc_isdct.h"
#include "tokio/output.h"

#define INPUTS "pytokio-inputs/"
#define GOLDEN "golden/pytokio/"

/* ---- a tiny ustar writer for fixtures --------------------------------- */

struct tarbuf {
    unsigned char *b;
    size_t len;
};

static void
tar_add(struct tarbuf *t, const char *name, const char *data, long mtime)
{
    size_t n = strlen(data), blocks = (n + 511) / 512;
    unsigned char *h;
    unsigned sum = 0;

    t->b = realloc(t->b, t->len + 512 * (1 + blocks) + 1024);
    assert_non_null(t->b);
    h = t->b + t->len;
    memset(h, 0, 512 * (1 + blocks));
    assert_true(strlen(name) < 100);
    memcpy(h, name, strlen(name));
    memcpy(h + 100, "0000644", 7);
    memcpy(h + 108, "0000000", 7);
    memcpy(h + 116, "0000000", 7);
    char num[32];
    snprintf(num, sizeof(num), "%011lo", (unsigned long)n & 077777777777);
    memcpy(h + 124, num, 11);
    snprintf(num, sizeof(num), "%011lo", (unsigned long)mtime & 077777777777);
    memcpy(h + 136, num, 11);
    memset(h + 148, ' ', 8);
    h[156] = '0';
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    for (int i = 0; i < 512; i++)
        sum += h[i];
    snprintf((char *)h + 148, 8, "%06o", sum);
    memcpy(h + 512, data, n);
    t->len += 512 * (1 + blocks);
}

/* End the archive (two zero blocks); the buffer stays the caller's. */
static void
tar_end(struct tarbuf *t)
{
    memset(t->b + t->len, 0, 1024);
    t->len += 1024;
}

/* ---- fixtures ---------------------------------------------------------- */

static const char DRIVE_INFO[] =
    "\n- Intel SSD DC P3608 Series CVFAAA-1 -\n\n"
    "IOCompletionQueuesRequested : 30\n"
    "SMBusAddress : 0x1f\n"
    "IntelNVMe : True\n"
    "PCILinkGenSpeed : 3\n"
    "Bootloader : 8B1B0130\n"
    "Firmware : 8DV10170\n"
    "Temperature : 27 Celsius\n"
    "EnduranceAnalyzer : 2628.15 years\n"
    "ThrottleStatus : 3 %\n"
    "DataUnitsRead : 0x10\n"
    "DataUnitsWritten : 10\n"
    "ErrorString : \n"
    "FloatLike : 1E5\n"
    "HexLike : E5\n"
    "HexLike2 : 5ee\n"
    "Negative : -12\n"
    "Big : 1234567890123456\n"
    "Spaced : 1 2\n"
    "PowerGovernorMode : 0 40W for 8 Lane Slot power\n";

static const char SMART_INFO[] =
    "\n- SMART Attributes CVFAAA-1 -\n\n\n"
    "- AB -\n\nAction : Pass\nDescription : Program Fail Count\n"
    "ID : AB\nRaw : 0\n\n"
    "- B8 -\n\nDescription : End-to-End Error Detection Count\nRaw : 2\n\n"
    "- E3 -\n\nDescription : Timed Workload - Host Read/Write Ratio\n"
    "Raw : 42\n\n"
    "- F4 -\n\nDescription : NAND Bytes Written\nRaw : 100\n\n"
    "- F5 -\n\nDescription : Host Bytes Written\nRaw : 40\n\n"
    "- F9 -\n\nRaw : 7\n";

static const char HEALTH_INFO[] =
    "\n- SMART and Health Information CVFBBB-2 -\n\n"
    "Media is in a read-only mode : False\n"
    "Temperature - Celsius : 30\n"
    "Data Units Read : 0x014C0D3B\n"
    "Available Spare Normalized percentage : 100\n";

static const char SENSOR_INFO[] =
    "\n- Intel SSD DC P3608 Series CVFBBB-2 -\n\n"
    "EnduranceAnalyzer : 12.5\n"
    "Temperature : 28\n";

/* mtimes: the earliest ISDCT file (not the unparsed readme) decides */
static void
fixture_tar(struct tarbuf *t, int with_timestamp)
{
    memset(t, 0, sizeof(*t));
    tar_add(t, "dump/nid00001/ssd0_drive_info.txt", DRIVE_INFO, 1500000100);
    tar_add(t, "dump/nid00001/ssd0_smart_info.txt", SMART_INFO, 1500000050);
    tar_add(t, "dump/nid00002/ssd1_health.txt", HEALTH_INFO, 1500000200);
    tar_add(t, "dump/nid00002/readme.txt", "no drive here\n", 1500000000);
    tar_add(t, "dump/nid00003/ssd1_sensor.txt", SENSOR_INFO, 1500000300);
    if (with_timestamp)
        tar_add(t, "dump/timestamp_20170825113100", "", 1);
    tar_end(t);
}

static struct tokio_nersc_isdct *
open_fixture(int with_timestamp)
{
    struct tarbuf t;
    struct tokio_nersc_isdct *d = NULL;

    fixture_tar(&t, with_timestamp);
    int rc = tokio_nersc_isdct_open_mem(&d, t.b, t.len, "fixture.tar");
    if (rc != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    free(t.b);
    return d;
}

static const json_t *
counter(const struct tokio_nersc_isdct *d, const char *sn, const char *key)
{
    const json_t *c = tokio_nersc_isdct_device(d, sn);
    assert_non_null(c);
    return json_object_get(c, key);
}

static void
assert_int_counter(const struct tokio_nersc_isdct *d, const char *sn,
                   const char *key, long long want)
{
    const json_t *v = counter(d, sn, key);
    if (!json_is_integer(v))
        fail_msg("%s/%s is not an integer", sn, key);
    assert_int_equal(json_integer_value(v), want);
}

static void
assert_str_counter(const struct tokio_nersc_isdct *d, const char *sn,
                   const char *key, const char *want)
{
    const json_t *v = counter(d, sn, key);
    if (!json_is_string(v))
        fail_msg("%s/%s is not text", sn, key);
    assert_string_equal(json_string_value(v), want);
}

static char *
csv_of(const struct tokio_nersc_isdct *d, int only_numeric)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    assert_int_equal(tokio_nersc_isdct_write_csv(d, fp, only_numeric),
                     TOKIO_OK);
    fclose(fp);
    return buf;
}

static char *
json_text(const json_t *j, unsigned flags)
{
    char *s = NULL;
    assert_int_equal(tokio_json_dumps(&s, j, flags), TOKIO_OK);
    return s;
}

/* ---- goldens ----------------------------------------------------------- */

static void
check_cache_golden(const char *input)
{
    char rel[256], grel[256];
    struct tokio_nersc_isdct *d = NULL;
    json_t *j = NULL;

    snprintf(rel, sizeof(rel), INPUTS "%s", input);
    TOKIO_TEST_NEED_DATA(path, rel);
    if (tokio_nersc_isdct_open(&d, path) != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    assert_int_equal(tokio_nersc_isdct_to_json(d, &j), TOKIO_OK);
    char *text = json_text(j, 0);
    snprintf(grel, sizeof(grel), GOLDEN "cache_isdct/%s.json", input);
    assert_golden(text, grel);
    char *csv = csv_of(d, 0);
    snprintf(grel, sizeof(grel), GOLDEN "cache_isdct/%s.csv", input);
    /* byte for byte (assert_golden would take "x.json.gz.csv" for JSON);
     * the golden is print(to_csv()): one newline more */
    char *want = tokio_test_read_file(tokio_test_data(grel), NULL);
    assert_non_null(want);
    size_t n = strlen(csv);
    assert_int_equal(strlen(want), n + 1);
    assert_memory_equal(want, csv, n);
    free(want);
    free(csv);
    free(text);
    json_decref(j);
    tokio_nersc_isdct_free(d);
}

static void
test_nersc_isdct_tgz_matches_golden(void **state)
{
    (void)state;
    check_cache_golden("sample_nersc_isdct.tgz");
}

static void
test_nersc_isdct_timestamped_tgz_matches_golden(void **state)
{
    (void)state;
    check_cache_golden("sample_nersc_isdct_timestamped.tgz");
}

static void
test_nersc_isdct_json_gz_matches_golden(void **state)
{
    (void)state;
    check_cache_golden("sample_nersc_isdct.json.gz");
    check_cache_golden("sample_nersc_isdct-1.json.gz");
}

static void
test_nersc_isdct_only_numeric_csv_matches_golden(void **state)
{
    struct tokio_nersc_isdct *d = NULL;
    (void)state;
    TOKIO_TEST_NEED_DATA(path, INPUTS "sample_nersc_isdct.tgz");

    assert_int_equal(tokio_nersc_isdct_open(&d, path), TOKIO_OK);
    char *csv = csv_of(d, 1);
    assert_golden(csv, GOLDEN "nersc_isdct/"
                  "sample_nersc_isdct.tgz.to_dataframe.only_numeric.csv");
    /* and byte for byte: same columns, same number formatting */
    char *want = tokio_test_read_file(tokio_test_data(GOLDEN "nersc_isdct/"
        "sample_nersc_isdct.tgz.to_dataframe.only_numeric.csv"), NULL);
    assert_string_equal(csv, want);
    free(want);
    free(csv);
    tokio_nersc_isdct_free(d);
}

/* compare_isdct's outputs, rebuilt from the library calls it uses. */
static void
test_nersc_isdct_diffs_match_golden(void **state)
{
    struct tokio_nersc_isdct *old_d = NULL, *new_d = NULL;
    (void)state;
    TOKIO_TEST_NEED_DATA(oldp, INPUTS "sample_nersc_isdct-1.json.gz");
    char *old_path = strdup(oldp);
    TOKIO_TEST_NEED_DATA(newp, INPUTS "sample_nersc_isdct.json.gz");
    static const struct {
        const char *name;
        int all, zeros, gibs;
    } runs[] = {
        { "default", 0, 0, 0 }, { "all", 1, 0, 0 },
        { "report-zeros", 0, 1, 0 }, { "all+report-zeros", 1, 1, 0 },
        { "gibs", 0, 0, 1 }, { "all+gibs", 1, 0, 1 },
    };

    assert_int_equal(tokio_nersc_isdct_open(&old_d, old_path), TOKIO_OK);
    assert_int_equal(tokio_nersc_isdct_open(&new_d, newp), TOKIO_OK);
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
        json_t *diff = NULL, *out = NULL;
        char grel[256];

        assert_int_equal(tokio_nersc_isdct_diff(old_d, new_d, runs[i].zeros,
                                                &diff), TOKIO_OK);
        if (runs[i].gibs) {
            assert_int_equal(tokio_nersc_isdct_diff_gibs(diff, &out),
                             TOKIO_OK);
            json_decref(diff);
            diff = out;
            out = NULL;
        }
        if (runs[i].all)
            out = json_incref(diff);
        else
            assert_int_equal(tokio_nersc_isdct_reduce_diff(diff, &out),
                             TOKIO_OK);
        char *text = json_text(out, TOKIO_JSON_SORT_KEYS |
                                    TOKIO_JSON_INDENT(4));
        snprintf(grel, sizeof(grel),
                 GOLDEN "compare_isdct/isdct-1_vs_isdct.%s.json",
                 runs[i].name);
        assert_golden(text, grel);
        free(text);
        json_decref(out);
        json_decref(diff);
    }

    /* --summary, byte for byte (TZ=America/Los_Angeles from ctest) */
    json_t *diff = NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    assert_int_equal(tokio_nersc_isdct_diff(old_d, new_d, 0, &diff),
                     TOKIO_OK);
    assert_int_equal(tokio_nersc_isdct_write_summary(old_d, new_d, diff, fp),
                     TOKIO_OK);
    fclose(fp);
    assert_golden(buf, GOLDEN "compare_isdct/isdct-1_vs_isdct.summary.txt");
    free(buf);
    json_decref(diff);
    free(old_path);
    tokio_nersc_isdct_free(old_d);
    tokio_nersc_isdct_free(new_d);
}

/* The sample tarball's values, checked against the raw text by hand. */
static void
test_nersc_isdct_sample_values_are_sane(void **state)
{
    struct tokio_nersc_isdct *d = NULL;
    (void)state;
    TOKIO_TEST_NEED_DATA(path, INPUTS "sample_nersc_isdct.tgz");

    assert_int_equal(tokio_nersc_isdct_open(&d, path), TOKIO_OK);
    assert_int_equal(tokio_nersc_isdct_count(d), 16);
    /* nid04242/ssd0_*.txt: DataUnitsRead 0x014C0D3B, F4 raw 1231211,
     * F5 raw 444447 */
    const char *sn = "CVF84679515755866C-1";
    assert_str_counter(d, sn, "node_name", "nid04242");
    assert_int_counter(d, sn, "data_units_read", 0x014C0D3B);
    assert_int_counter(d, sn, "data_units_read_bytes",
                       0x014C0D3BLL * 512000);
    assert_int_counter(d, sn, "smart_nand_bytes_written_bytes",
                       1231211LL << 25);
    assert_true(json_real_value(counter(d, sn, "write_amplification_factor"))
                == 1231211.0 / 444447.0);
    assert_int_counter(d, sn, "bootloader", 0x8B1B0130);
    /* 2017-08-25 18:31 UTC is the members' mtime */
    assert_int_counter(d, sn, "timestamp", 1503685872);
    tokio_nersc_isdct_free(d);
}

/* ---- the same ground on fixtures written here ------------------------- */

static void
test_nersc_isdct_keys_normalized_as_reference(void **state)
{
    struct tokio_nersc_isdct *d = open_fixture(0);
    (void)state;

    assert_int_equal(tokio_nersc_isdct_count(d), 2);
    const char *a = "CVFAAA-1", *b = "CVFBBB-2";
    assert_int_counter(d, a, "io_completion_queues_requested", 30);
    assert_int_counter(d, a, "smbus_address", 0x1f);
    assert_true(json_is_true(counter(d, a, "intelnvme")));
    assert_int_counter(d, a, "pci_link_gen_speed", 3);
    /* SMART registers: SMART_<Description>_<key>, dashes dropped */
    assert_int_counter(d, a, "smart_program_fail_count_id", 0xAB);
    assert_str_counter(d, a, "smart_program_fail_count_action", "Pass");
    assert_int_counter(d, a, "smart_endto_end_error_detection_count_raw", 2);
    assert_int_counter(d, a, "smart_timed_workload_host_read/_write_ratio_raw",
                       42);
    /* a register without a description is named by its id */
    assert_int_counter(d, a, "smart_f9_raw", 7);
    /* spaced words */
    assert_true(json_is_false(counter(d, b, "media_is_in_a_readonly_mode")));
    assert_int_counter(d, b, "temperature_celsius", 30);
    assert_int_counter(d, b, "available_spare_normalized_percentage", 100);
    tokio_nersc_isdct_free(d);
}

static void
test_nersc_isdct_values_recast_with_units(void **state)
{
    struct tokio_nersc_isdct *d = open_fixture(0);
    (void)state;
    const char *a = "CVFAAA-1", *b = "CVFBBB-2";

    /* hex without 0x only when neither int nor float */
    assert_int_counter(d, a, "bootloader", 0x8B1B0130);
    assert_str_counter(d, a, "firmware", "8DV10170");
    assert_str_counter(d, a, "error_string", "");
    /* float() before int(x, 16): "1E5" is 100000.0, "E5" and "5ee" hex */
    assert_true(json_real_value(counter(d, a, "float_like")) == 100000.0);
    assert_int_counter(d, a, "hex_like", 0xE5);
    assert_int_counter(d, a, "hex_like2", 0x5ee);
    assert_int_counter(d, a, "negative", -12);
    assert_int_counter(d, a, "big", 1234567890123456LL);
    assert_str_counter(d, a, "spaced", "1 2");
    /* the value keeps its unit; the unit is copied out */
    assert_str_counter(d, a, "temperature", "27 Celsius");
    assert_str_counter(d, a, "temperature_unit", "Celsius");
    assert_str_counter(d, a, "throttle_status", "3 %");
    assert_str_counter(d, a, "throttle_status_unit", "%");
    /* text endurance is null with no unit; a bare number is in years */
    assert_true(json_is_null(counter(d, a, "endurance_analyzer")));
    assert_null(counter(d, a, "endurance_analyzer_unit"));
    assert_true(json_real_value(counter(d, b, "endurance_analyzer")) == 12.5);
    assert_str_counter(d, b, "endurance_analyzer_unit", "years");
    assert_int_counter(d, b, "temperature", 28);
    assert_null(counter(d, b, "temperature_unit"));
    tokio_nersc_isdct_free(d);
}

static void
test_nersc_isdct_metrics_synthesized(void **state)
{
    struct tokio_nersc_isdct *d = open_fixture(0);
    (void)state;
    const char *a = "CVFAAA-1", *b = "CVFBBB-2";

    assert_int_counter(d, a, "data_units_read_bytes", 16 * 512000);
    assert_int_counter(d, a, "data_units_written_bytes", 10 * 512000);
    assert_int_counter(d, a, "smart_nand_bytes_written_bytes", 100LL << 25);
    assert_int_counter(d, a, "smart_host_bytes_written_bytes", 40LL << 25);
    assert_true(json_real_value(counter(d, a, "write_amplification_factor"))
                == 2.5);
    assert_int_counter(d, b, "data_units_read_bytes",
                       0x014C0D3BLL * 512000);
    assert_null(counter(d, b, "write_amplification_factor"));
    tokio_nersc_isdct_free(d);
}

static void
test_nersc_isdct_timestamp_from_file_or_earliest_mtime(void **state)
{
    (void)state;
    struct tokio_nersc_isdct *d = open_fixture(0);
    /* the readme (1500000000) has no drive but its mtime still counts,
     * as in the reference */
    assert_int_counter(d, "CVFAAA-1", "timestamp", 1500000000);
    assert_int_counter(d, "CVFBBB-2", "timestamp", 1500000000);
    tokio_nersc_isdct_free(d);

    /* 2017-08-25 11:31:00 PDT */
    d = open_fixture(1);
    assert_int_counter(d, "CVFAAA-1", "timestamp", 1503685860);
    tokio_nersc_isdct_free(d);

    /* only a member's own name makes it the timestamp file, not the
     * archive's */
    struct tarbuf t;
    fixture_tar(&t, 0);
    assert_int_equal(tokio_nersc_isdct_open_mem(&d, t.b, t.len,
                     "timestamp_20170825113100.tar"), TOKIO_OK);
    assert_int_counter(d, "CVFAAA-1", "timestamp", 1500000000);
    tokio_nersc_isdct_free(d);
    free(t.b);
}

/* A drive's counters merge across members; the timestamp sits after the
 * first member's counters, node_name first; later values win. */
static void
test_nersc_isdct_members_merge_in_order(void **state)
{
    struct tokio_nersc_isdct *d = open_fixture(0);
    (void)state;
    const json_t *c = tokio_nersc_isdct_device(d, "CVFBBB-2");
    void *it = json_object_iter((json_t *)c);

    assert_string_equal(json_object_iter_key(it), "node_name");
    /* the last member seen names the node (dict.update) */
    assert_str_counter(d, "CVFBBB-2", "node_name", "nid00003");
    const char *keys[8];
    size_t n = 0;
    for (; it != NULL && n < 8; it = json_object_iter_next((json_t *)c, it))
        keys[n++] = json_object_iter_key(it);
    assert_string_equal(keys[5], "timestamp");
    assert_string_equal(keys[6], "endurance_analyzer");
    tokio_nersc_isdct_free(d);
}

static void
test_nersc_isdct_folder_input_matches_tarball(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), path[4096];
    struct tokio_nersc_isdct *from_dir = NULL, *from_tar = NULL;
    struct tarbuf t;
    static const struct {
        const char *name, *text;
        long mtime;
    } files[] = {
        { "nid00001/ssd0_drive_info.txt", DRIVE_INFO, 1500000100 },
        { "nid00001/ssd0_smart_info.txt", SMART_INFO, 1500000050 },
    };

    memset(&t, 0, sizeof(t));
    snprintf(path, sizeof(path), "%s/nid00001", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    for (size_t i = 0; i < 2; i++) {
        struct timeval tv[2] = { { files[i].mtime, 0 },
                                 { files[i].mtime, 0 } };
        snprintf(path, sizeof(path), "%s/%s", dir, files[i].name);
        tokio_test_write_file(path, files[i].text, SIZE_MAX);
        assert_int_equal(utimes(path, tv), 0);
        snprintf(path, sizeof(path), "x/%s", files[i].name);
        tar_add(&t, path, files[i].text, files[i].mtime);
    }
    tar_end(&t);
    /* a plain .tar file too */
    snprintf(path, sizeof(path), "%s.tar", dir);
    tokio_test_write_file(path, t.b, t.len);
    assert_int_equal(tokio_nersc_isdct_open(&from_tar, path), TOKIO_OK);
    unlink(path);
    if (tokio_nersc_isdct_open(&from_dir, dir) != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    json_t *a = NULL, *b = NULL;
    assert_int_equal(tokio_nersc_isdct_to_json(from_dir, &a), TOKIO_OK);
    assert_int_equal(tokio_nersc_isdct_to_json(from_tar, &b), TOKIO_OK);
    assert_true(json_equal(a, b));
    assert_int_counter(from_dir, "CVFAAA-1", "timestamp", 1500000050);
    json_decref(a);
    json_decref(b);
    free(t.b);
    tokio_nersc_isdct_free(from_dir);
    tokio_nersc_isdct_free(from_tar);
    tokio_test_rmtree(dir);
    free(dir);
}

/* pandas' typing: a numeric column with a gap is float ("30.0"), a bool
 * column with a gap is object, text stays text; rows follow columns. */
static void
test_nersc_isdct_csv_types_columns_as_pandas(void **state)
{
    (void)state;
    json_t *j = json_loads(
        "{\"r0\": {\"z\": 1},"
        " \"r1\": {\"a\": 1, \"b\": true, \"c\": null, \"d\": 1.5,"
        "          \"e\": \"x,y\", \"h\": true, \"i\": 3},"
        " \"r2\": {},"
        " \"r3\": {\"a\": 2, \"b\": false, \"c\": null, \"d\": 2,"
        "          \"e\": null, \"h\": 1, \"i\": 4, \"z\": 1}}", 0, NULL);
    struct tokio_nersc_isdct *d = NULL;

    assert_non_null(j);
    assert_int_equal(tokio_nersc_isdct_from_json(&d, j), TOKIO_OK);
    char *csv = csv_of(d, 0);
    /* what pandas 1.5.3 printed for the same dict: r2 has no counters
     * and vanishes; r3 has z, the first column, so it comes before r1 */
    assert_string_equal(csv,
        "serial_number,z,a,b,c,d,e,h,i\n"
        "r0,1.0,,,,,,,\n"
        "r3,1.0,2.0,False,,2.0,,1,4.0\n"
        "r1,,1.0,True,,1.5,\"x,y\",True,3.0\n");
    free(csv);
    /* only_numeric: sorted int64/float64 columns holding more than one
     * value (NaN is one); c is all NaN; no node_name column here */
    csv = csv_of(d, 1);
    assert_string_equal(csv, "serial_number,a,d,i,z\nr0,,,,1.0\n"
                             "r3,2.0,2.0,4.0,1.0\nr1,1.0,1.5,3.0,\n");
    free(csv);
    json_decref(j);
    tokio_nersc_isdct_free(d);
}

/* ---- round trips ------------------------------------------------------- */

static void
test_nersc_isdct_json_round_trip_keeps_dump(void **state)
{
    (void)state;
    struct tokio_nersc_isdct *d = open_fixture(1), *again = NULL,
                             *from_file = NULL;
    json_t *a = NULL, *b = NULL, *c = NULL;
    char *dir = tokio_test_mkdtemp(), path[4096];

    assert_int_equal(tokio_nersc_isdct_to_json(d, &a), TOKIO_OK);
    assert_int_equal(tokio_nersc_isdct_from_json(&again, a), TOKIO_OK);
    assert_int_equal(tokio_nersc_isdct_to_json(again, &b), TOKIO_OK);
    assert_true(json_equal(a, b));
    /* through a saved file, as cache_isdct writes it */
    char *text = json_text(a, 0);
    snprintf(path, sizeof(path), "%s/dump.json", dir);
    tokio_test_write_file(path, text, SIZE_MAX);
    assert_int_equal(tokio_nersc_isdct_open(&from_file, path), TOKIO_OK);
    assert_int_equal(tokio_nersc_isdct_to_json(from_file, &c), TOKIO_OK);
    assert_true(json_equal(a, c));
    char *text2 = json_text(c, 0);
    assert_string_equal(text, text2);   /* same order too */
    free(text);
    free(text2);
    json_decref(a);
    json_decref(b);
    json_decref(c);
    tokio_nersc_isdct_free(d);
    tokio_nersc_isdct_free(again);
    tokio_nersc_isdct_free(from_file);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_nersc_isdct_sample_round_trips(void **state)
{
    struct tokio_nersc_isdct *d = NULL, *again = NULL;
    json_t *a = NULL, *b = NULL;
    (void)state;
    TOKIO_TEST_NEED_DATA(path, INPUTS "sample_nersc_isdct.tgz");

    assert_int_equal(tokio_nersc_isdct_open(&d, path), TOKIO_OK);
    assert_int_equal(tokio_nersc_isdct_to_json(d, &a), TOKIO_OK);
    char *text = json_text(a, 0);
    assert_int_equal(tokio_nersc_isdct_open_mem(&again, text, strlen(text),
                                                "saved"), TOKIO_OK);
    assert_int_equal(tokio_nersc_isdct_to_json(again, &b), TOKIO_OK);
    assert_true(json_equal(a, b));
    free(text);
    json_decref(a);
    json_decref(b);
    tokio_nersc_isdct_free(d);
    tokio_nersc_isdct_free(again);
}

/* A saved dump's counters are computed again as the reference does on
 * loading, and the JSON given is left as it was: a drive is copied only
 * when a counter must change (a saved dump holds them all already). */
static void
test_nersc_isdct_from_json_keeps_its_argument(void **state)
{
    (void)state;
    json_t *j = json_loads(
        "{\"A\": {\"data_units_read\": 2, \"data_units_read_bytes\": 5},"
        " \"B\": {\"data_units_read\": 1, \"data_units_read_bytes\": 512000}}",
        0, NULL);
    struct tokio_nersc_isdct *d = NULL;

    assert_non_null(j);
    char *before = json_text(j, 0);
    assert_int_equal(tokio_nersc_isdct_from_json(&d, j), TOKIO_OK);
    assert_int_counter(d, "A", "data_units_read_bytes", 1024000);
    assert_int_counter(d, "B", "data_units_read_bytes", 512000);
    assert_ptr_equal(tokio_nersc_isdct_device(d, "B"),
                     json_object_get(j, "B"));
    char *after = json_text(j, 0);
    assert_string_equal(before, after);
    free(before);
    free(after);
    json_decref(j);
    /* the dump outlives the JSON it was read from */
    assert_int_counter(d, "B", "data_units_read", 1);
    tokio_nersc_isdct_free(d);
}

/* ---- diff -------------------------------------------------------------- */

static struct tokio_nersc_isdct *
from_text(const char *text)
{
    struct tokio_nersc_isdct *d = NULL;
    if (tokio_nersc_isdct_open_mem(&d, text, strlen(text), "t") != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    return d;
}

static void
test_nersc_isdct_diff_reports_changes(void **state)
{
    (void)state;
    struct tokio_nersc_isdct *old_d = from_text(
        "{\"A\": {\"node_name\": \"nid1\", \"n\": 5, \"f\": 1.5, \"s\": \"x\","
        " \"same\": \"y\", \"endurance_analyzer\": null, \"only_old\": 1,"
        " \"z\": 3, \"b\": true},"
        " \"GONE\": {\"node_name\": \"nid2\"}}");
    struct tokio_nersc_isdct *new_d = from_text(
        "{\"A\": {\"node_name\": \"nid1\", \"n\": 8, \"f\": 1, \"s\": \"w\","
        " \"same\": \"y\", \"endurance_analyzer\": 3.0, \"only_new\": 1,"
        " \"z\": 3, \"b\": 1},"
        " \"NEW\": {\"node_name\": \"nid3\"}}");
    json_t *diff = NULL, *zeros = NULL;

    assert_int_equal(tokio_nersc_isdct_diff(old_d, new_d, 0, &diff),
                     TOKIO_OK);
    json_t *want = json_loads(
        "{\"added_devices\": [\"NEW\"], \"removed_devices\": [\"GONE\"],"
        " \"devices\": {\"A\": {\"n\": 3, \"f\": -0.5,"
        " \"s\": \"+++w ---x\"}}}", 0, NULL);
    if (!json_equal(diff, want))
        fail_msg("got %s", json_text(diff, TOKIO_JSON_SORT_KEYS));
    json_decref(want);
    assert_int_equal(tokio_nersc_isdct_diff(old_d, new_d, 1, &zeros),
                     TOKIO_OK);
    want = json_loads("{\"n\": 3, \"f\": -0.5, \"s\": \"+++w ---x\","
                      " \"same\": \"\", \"z\": 0, \"b\": 0,"
                      " \"node_name\": \"\"}", 0, NULL);
    assert_true(json_equal(json_object_get(json_object_get(zeros, "devices"),
                                           "A"), want));
    json_decref(want);

    /* reduced: sums, averages over the drives reporting the counter */
    json_t *red = NULL;
    assert_int_equal(tokio_nersc_isdct_reduce_diff(zeros, &red), TOKIO_OK);
    assert_int_equal(json_integer_value(json_object_get(red, "sum_n")), 3);
    assert_true(json_real_value(json_object_get(red, "ave_n")) == 3.0);
    assert_int_equal(json_integer_value(json_object_get(red, "count_s")), 1);
    assert_null(json_object_get(red, "sum_s"));
    json_decref(red);
    json_decref(zeros);
    json_decref(diff);

    /* a number against text is an error naming drive and counter */
    struct tokio_nersc_isdct *bad = from_text("{\"A\": {\"s\": 5}}");
    assert_int_equal(tokio_nersc_isdct_diff(old_d, bad, 0, &diff),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "incompatible numeric types for A/s");
    assert_null(diff);
    tokio_nersc_isdct_free(bad);
    /* unchanged text endurance_analyzer is skipped, even with zeros */
    bad = from_text("{\"A\": {\"endurance_analyzer\": \"n/a\","
                    " \"s\": \"n/a\"}}");
    assert_int_equal(tokio_nersc_isdct_diff(bad, bad, 1, &diff), TOKIO_OK);
    want = json_loads("{\"added_devices\": [], \"removed_devices\": [],"
                      " \"devices\": {\"A\": {\"s\": \"\"}}}", 0, NULL);
    assert_true(json_equal(diff, want));
    json_decref(want);
    json_decref(diff);
    tokio_nersc_isdct_free(bad);
    /* null - null is Python's TypeError too, but for endurance_analyzer */
    bad = from_text("{\"A\": {\"node_name\": null}}");
    assert_int_equal(tokio_nersc_isdct_diff(bad, bad, 0, &diff),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "A/node_name");
    tokio_nersc_isdct_free(bad);
    tokio_nersc_isdct_free(old_d);
    tokio_nersc_isdct_free(new_d);
}

/* reduce_diff(diff(old, new)) */
static json_t *
reduced(const struct tokio_nersc_isdct *old_d,
        const struct tokio_nersc_isdct *new_d, int zeros)
{
    json_t *diff = NULL, *red = NULL;
    int rc = tokio_nersc_isdct_diff(old_d, new_d, zeros, &diff);

    if (rc == TOKIO_OK)
        rc = tokio_nersc_isdct_reduce_diff(diff, &red);
    json_decref(diff);
    if (rc != TOKIO_OK)
        assert_null(red);
    return red;
}

/* The reduction as Python computes it: text counted only, numbers of
 * both kinds, min and max ties, a counter that is text on one drive and
 * a number on the next, errors. */
static void
test_nersc_isdct_reduce_diff_as_python(void **state)
{
    (void)state;
    struct tokio_nersc_isdct *old_d = from_text(
        "{\"A\": {\"n\": 5, \"f\": 1.5, \"s\": \"x\", \"m\": \"p\","
        " \"t\": 1, \"endurance_analyzer\": null, \"b\": true},"
        " \"B\": {\"n\": 1, \"f\": 1, \"m\": 1, \"t\": 2.0, \"s\": \"x\"},"
        " \"GONE\": {\"n\": 1}}");
    struct tokio_nersc_isdct *new_d = from_text(
        "{\"A\": {\"n\": 8, \"f\": 1, \"s\": \"w\", \"m\": \"q\","
        " \"t\": 2, \"endurance_analyzer\": 3.0, \"b\": 1},"
        " \"B\": {\"n\": 2.0, \"f\": 0.5, \"m\": 4, \"t\": 3.0, \"s\": \"x\"},"
        " \"NEW\": {\"n\": 1}}");
    json_t *red = reduced(old_d, new_d, 0);

    /* by hand: n 3 and 1.0, m text then 3, t 1 then 1.0: the reference's
     * min(value, cur) and max(value, cur) return the later drive's 1.0 on
     * the tie, as Python's min() and max() keep their first argument */
    assert_non_null(red);
    assert_true(json_real_value(json_object_get(red, "sum_n")) == 4.0);
    assert_true(json_real_value(json_object_get(red, "ave_n")) == 2.0);
    assert_int_equal(json_integer_value(json_object_get(red, "count_m")), 2);
    assert_int_equal(json_integer_value(json_object_get(red, "sum_m")), 3);
    assert_true(json_is_real(json_object_get(red, "min_t")));
    assert_true(json_is_real(json_object_get(red, "max_t")));
    assert_true(json_real_value(json_object_get(red, "min_f")) == -0.5);
    /* s changed on A only, and text is counted, not summed */
    assert_int_equal(json_integer_value(json_object_get(red, "count_s")), 1);
    assert_null(json_object_get(red, "sum_s"));
    /* a bool change (True - 1) is the int 0: left out without zeros */
    assert_null(json_object_get(red, "count_b"));
    json_decref(red);
    red = reduced(old_d, new_d, 1);
    assert_int_equal(json_integer_value(json_object_get(red, "sum_b")), 0);
    assert_int_equal(json_integer_value(json_object_get(red, "count_s")), 2);
    json_decref(red);
    tokio_nersc_isdct_free(new_d);

    tokio_nersc_isdct_free(old_d);

    /* the errors: text against a number, a difference out of range, a
     * sum over the drives out of range */
    static const char *const fails[][3] = {
        { "{\"A\": {\"s\": \"x\"}}", "{\"A\": {\"s\": 5}}",
          "incompatible numeric types for A/s" },
        { "{\"A\": {\"r\": -1.5e308}}", "{\"A\": {\"r\": 1.5e308}}",
          "'r': difference out of range" },
        { "{\"A\": {\"r\": 0.0}, \"B\": {\"r\": 0.0}}",
          "{\"A\": {\"r\": 1.5e308}, \"B\": {\"r\": 1.5e308}}",
          "'r': sum over the drives out of range" },
    };
    for (size_t i = 0; i < sizeof(fails) / sizeof(fails[0]); i++) {
        old_d = from_text(fails[i][0]);
        new_d = from_text(fails[i][1]);
        assert_null(reduced(old_d, new_d, 0));
        assert_contains(tokio_errmsg(), fails[i][2]);
        tokio_nersc_isdct_free(new_d);
        tokio_nersc_isdct_free(old_d);
    }
    /* not a diff */
    json_t *bogus = json_object();
    assert_int_equal(tokio_nersc_isdct_reduce_diff(bogus, &red),
                     TOKIO_EFORMAT);
    json_decref(bogus);
}

static void
test_nersc_isdct_gibs_renames_every_bytes(void **state)
{
    (void)state;
    json_t *diff = json_loads(
        "{\"added_devices\": [], \"removed_devices\": [], \"devices\":"
        " {\"A\": {\"x_bytes_y_bytes\": 1073741824, \"n\": 2,"
        " \"bytes\": 5}}}", 0, NULL), *out = NULL;

    assert_int_equal(tokio_nersc_isdct_diff_gibs(diff, &out), TOKIO_OK);
    json_t *a = json_object_get(json_object_get(out, "devices"), "A");
    assert_true(json_real_value(json_object_get(a, "x_gibs_y_gibs")) == 1.0);
    assert_int_equal(json_integer_value(json_object_get(a, "n")), 2);
    assert_int_equal(json_integer_value(json_object_get(a, "bytes")), 5);
    json_decref(out);
    json_object_set_new(json_object_get(json_object_get(diff, "devices"),
                                        "A"), "t_bytes", json_string("x"));
    assert_int_equal(tokio_nersc_isdct_diff_gibs(diff, &out), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "t_bytes");
    json_decref(diff);
}

/* ---- odd inputs (malformed ones are in nersc_isdct/bad/) ------------- */

/* A register of many lines: the last value of a repeated key wins in its
 * first place, as in a dict. */
static void
test_nersc_isdct_long_smart_register_keeps_dict_semantics(void **state)
{
    (void)state;
    char text[8192];
    size_t n = (size_t)snprintf(text, sizeof(text),
                                "- SMART Attributes CVFAAA-1 -\n- F0 -\n");
    for (int i = 0; i < 100; i++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, "K%d : %d\n", i, i);
    n += (size_t)snprintf(text + n, sizeof(text) - n, "K5 : 500\nK50 : 5\n");
    struct tarbuf t;
    struct tokio_nersc_isdct *d = NULL;

    memset(&t, 0, sizeof(t));
    tar_add(&t, "d/nid1/s.txt", text, 1);
    tar_end(&t);
    assert_int_equal(tokio_nersc_isdct_open_mem(&d, t.b, t.len, "s.tar"),
                     TOKIO_OK);
    assert_int_counter(d, "CVFAAA-1", "smart_f0_k5", 500);
    assert_int_counter(d, "CVFAAA-1", "smart_f0_k50", 5);
    assert_int_counter(d, "CVFAAA-1", "smart_f0_k99", 99);
    /* node_name, _id/id, 100 keys, timestamp */
    assert_int_equal(json_object_size(tokio_nersc_isdct_device(d,
                     "CVFAAA-1")), 1 + 1 + 100 + 1);
    tokio_nersc_isdct_free(d);
    free(t.b);
}

/* A file naming no drive among outputs is skipped, as the reference
 * skipped it; an archive of nothing else is no ISDCT dump (issue 17: it
 * was an empty one, {}). */
static void
test_nersc_isdct_file_without_drive_is_skipped(void **state)
{
    (void)state;
    struct tarbuf t;
    struct tokio_nersc_isdct *d = NULL;

    memset(&t, 0, sizeof(t));
    tar_add(&t, "d/nid1/junk.txt", "whatever\nB 2\n\x01\x02\n", 7);
    tar_add(&t, "d/nid1/s.txt", DRIVE_INFO, 7);
    tar_end(&t);
    assert_int_equal(tokio_nersc_isdct_open_mem(&d, t.b, t.len, "j"),
                     TOKIO_OK);
    assert_int_equal(tokio_nersc_isdct_count(d), 1);
    assert_non_null(tokio_nersc_isdct_device(d, "CVFAAA-1"));
    tokio_nersc_isdct_free(d);
    free(t.b);

    memset(&t, 0, sizeof(t));
    tar_add(&t, "d/nid1/junk.txt", "whatever\nB 2\n\x01\x02\n", 7);
    tar_add(&t, "d/README", "a dump of something else\n", 7);
    tar_end(&t);
    d = (struct tokio_nersc_isdct *)1;
    assert_int_equal(tokio_nersc_isdct_open_mem(&d, t.b, t.len, "j.tar"),
                     TOKIO_EFORMAT);
    assert_null(d);
    assert_contains(tokio_errmsg(), "'j.tar': not a folder or tar archive "
                    "of ISDCT outputs, nor a saved JSON dump (no file in it "
                    "is)");
    free(t.b);
}

/* A folder without outputs is an empty dump; an archive holding only
 * the timestamp file too. */
static void
test_nersc_isdct_dump_without_outputs_is_empty(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp();
    struct tokio_nersc_isdct *d = NULL;
    struct tarbuf t;

    assert_int_equal(tokio_nersc_isdct_open(&d, dir), TOKIO_OK);
    assert_int_equal(tokio_nersc_isdct_count(d), 0);
    tokio_nersc_isdct_free(d);
    memset(&t, 0, sizeof(t));
    tar_add(&t, "d/timestamp_20170825113100", "", 7);
    tar_end(&t);
    assert_int_equal(tokio_nersc_isdct_open_mem(&d, t.b, t.len, "ts.tar"),
                     TOKIO_OK);
    assert_int_equal(tokio_nersc_isdct_count(d), 0);
    tokio_nersc_isdct_free(d);
    free(t.b);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_nersc_isdct_summary_needs_timestamps(void **state)
{
    (void)state;
    struct tokio_nersc_isdct *a = from_text("{}");
    struct tokio_nersc_isdct *b = from_text("{\"X\": {\"node_name\": 1}}");
    json_t *diff = NULL;
    FILE *fp = fopen("/dev/null", "w");

    assert_int_equal(tokio_nersc_isdct_diff(a, b, 0, &diff), TOKIO_OK);
    assert_int_equal(tokio_nersc_isdct_write_summary(a, b, diff, fp),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "old ISDCT dump is empty");
    assert_int_equal(tokio_nersc_isdct_write_summary(b, b, diff, fp),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "no timestamp");
    fclose(fp);
    json_decref(diff);
    tokio_nersc_isdct_free(a);
    tokio_nersc_isdct_free(b);
}

/* ---- out of memory ----------------------------------------------------- */

static int
open_fixture_trial(void *ctx)
{
    struct tarbuf *t = ctx;
    struct tokio_nersc_isdct *d = NULL;
    int rc = tokio_nersc_isdct_open_mem(&d, t->b, t->len, "oom.tar");

    if (rc >= 0)
        assert_int_equal(tokio_nersc_isdct_count(d), 2);
    else
        assert_null(d);
    tokio_nersc_isdct_free(d);
    return rc;
}

static void
test_nersc_isdct_open_survives_every_oom(void **state)
{
    (void)state;
    struct tarbuf t;

    fixture_tar(&t, 1);
    tokio_test_every_oom(open_fixture_trial, &t, 1);
    free(t.b);

    /* the saved JSON form */
    static const char json[] =
        "{\"A-1\": {\"node_name\": \"n\\u00e9\", \"data_units_read\": 2},"
        " \"B-1\": {\"t\": true, \"r\": 1.5}}";
    t.b = (unsigned char *)json;
    t.len = sizeof(json) - 1;
    tokio_test_every_oom(open_fixture_trial, &t, 1);
}

/* Everything after opening: JSON, CSV, diff, its reduction, summary. */
static int
outputs_trial(void *ctx)
{
    struct tokio_nersc_isdct *d = ctx, *again = NULL;
    json_t *j = NULL, *diff = NULL, *g = NULL, *red = NULL;
    FILE *fp = fopen("/dev/null", "w");
    int rc;

    if ((rc = tokio_nersc_isdct_to_json(d, &j)) >= 0 &&
        (rc = tokio_json_write(j, fp, 0)) >= 0 &&
        (rc = tokio_nersc_isdct_from_json(&again, j)) >= 0 &&
        (rc = tokio_nersc_isdct_write_csv(again, fp, 0)) >= 0 &&
        (rc = tokio_nersc_isdct_write_csv(again, fp, 1)) >= 0 &&
        (rc = tokio_nersc_isdct_diff(d, again, 1, &diff)) >= 0 &&
        (rc = tokio_nersc_isdct_diff_gibs(diff, &g)) >= 0 &&
        (rc = tokio_nersc_isdct_reduce_diff(g, &red)) >= 0)
        rc = tokio_nersc_isdct_write_summary(d, again, g, fp);
    fclose(fp);
    json_decref(j);
    json_decref(diff);
    json_decref(g);
    json_decref(red);
    tokio_nersc_isdct_free(again);
    return rc;
}

static void
test_nersc_isdct_outputs_survive_every_oom(void **state)
{
    (void)state;
    struct tokio_nersc_isdct *d = open_fixture(1);

    tokio_test_every_oom(outputs_trial, d, 1);
    tokio_nersc_isdct_free(d);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nersc_isdct_tgz_matches_golden),
        cmocka_unit_test(test_nersc_isdct_timestamped_tgz_matches_golden),
        cmocka_unit_test(test_nersc_isdct_json_gz_matches_golden),
        cmocka_unit_test(test_nersc_isdct_only_numeric_csv_matches_golden),
        cmocka_unit_test(test_nersc_isdct_diffs_match_golden),
        cmocka_unit_test(test_nersc_isdct_sample_values_are_sane),
        cmocka_unit_test(test_nersc_isdct_keys_normalized_as_reference),
        cmocka_unit_test(test_nersc_isdct_values_recast_with_units),
        cmocka_unit_test(test_nersc_isdct_metrics_synthesized),
        cmocka_unit_test(test_nersc_isdct_timestamp_from_file_or_earliest_mtime),
        cmocka_unit_test(test_nersc_isdct_members_merge_in_order),
        cmocka_unit_test(test_nersc_isdct_folder_input_matches_tarball),
        cmocka_unit_test(test_nersc_isdct_csv_types_columns_as_pandas),
        cmocka_unit_test(test_nersc_isdct_json_round_trip_keeps_dump),
        cmocka_unit_test(test_nersc_isdct_sample_round_trips),
        cmocka_unit_test(test_nersc_isdct_from_json_keeps_its_argument),
        cmocka_unit_test(test_nersc_isdct_diff_reports_changes),
        cmocka_unit_test(test_nersc_isdct_reduce_diff_as_python),
        cmocka_unit_test(test_nersc_isdct_gibs_renames_every_bytes),
        cmocka_unit_test(test_nersc_isdct_long_smart_register_keeps_dict_semantics),
        cmocka_unit_test(test_nersc_isdct_file_without_drive_is_skipped),
        cmocka_unit_test(test_nersc_isdct_dump_without_outputs_is_empty),
        cmocka_unit_test(test_nersc_isdct_summary_needs_timestamps),
        cmocka_unit_test(test_nersc_isdct_open_survives_every_oom),
        cmocka_unit_test(test_nersc_isdct_outputs_survive_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
