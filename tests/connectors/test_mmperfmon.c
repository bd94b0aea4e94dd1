/*
 * tests/connectors/test_mmperfmon.c - GPFS mmperfmon outputs
 * (src/connectors/mmperfmon.c): a small wrapped table of our own with
 * units, nulls and device counters; the CSV views on a JSON of our own
 * that exercises pandas' row order and column types; the sample inputs
 * against the reference's goldens; tarballs and directories; round trips;
 * malformed input naming file and line; out-of-memory failures.
 *
 * The expected values of the small inputs were worked out by hand from
 * the reference's rules (and agree with what pytokio 0.13 prints for the
 * same inputs, checked once by hand).  TZ is America/Los_Angeles (ctest).
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>

#include "tokio/connectors/mmperfmon.h"
#include "tokio/output.h"
#include "core/alloc.h"

#define GOLDEN "golden/pytokio/cache_mmperfmon/"

/*
 * Two tables of the same rows (mmperfmon wraps wide queries), the second
 * with its rows out of order; MB and kB cells, nulls, a plain integer in
 * a column of MB values, device counters.
 */
static const char small[] =
    "\n"
    "Legend:\n"
    " 1:\ta.example|CPU|cpu_user\n"
    " 2:\ta.example|Memory|mem_total\n"
    " 3:\ta.example|Network|lo|net_r\n"
    " 4:\tb.example|GPFSNSDDisk|lun1|gpfs_nsdds_bytes_read\n"
    " 5:\tb.example|GPFSNSDDisk|lun2|gpfs_nsdds_bytes_read\n"
    " \n"
    "Row           Timestamp cpu_user   mem_total     net_r \n"
    "  1 2019-01-11-10:00:00      0.2  31371.0 MB    1.7 kB \n"
    "  2 2019-01-11-10:01:00     null        1024      null \n"
    "\n"
    "Row           Timestamp gpfs_nsdds_bytes_read gpfs_nsdds_bytes_read \n"
    "  2 2019-01-11-10:01:00                     7                  null \n"
    "  1 2019-01-11-10:00:00                     5                     6 \n";

/* 10:00 PST is 18:00 UTC; 31371.0 MB = 31371 * 2^20 bytes; 1.7 kB =
 * 1.7 * 1024 */
static const char small_json[] =
    "{\"1547229600\": {\"a.example\": {\"cpu_user\": 0.2, "
    "\"mem_total_bytes\": 32894877696.0, \"net_r_bytes\": {\"lo\": 1740.8}}, "
    "\"b.example\": {\"gpfs_nsdds_bytes_read\": {\"lun1\": 5, \"lun2\": 6}}}, "
    "\"1547229660\": {\"a.example\": {\"mem_total\": 1024}, "
    "\"b.example\": {\"gpfs_nsdds_bytes_read\": {\"lun1\": 7}}}}";

/* mem_total is an integer column with a gap: pandas prints it as reals */
static const char small_by_host[] =
    "timestamp,cpu_user,mem_total_bytes,net_r_bytes:lo,mem_total\n"
    "2019-01-11 10:00:00,0.2,32894877696.0,1740.8,\n"
    "2019-01-11 10:01:00,,,,1024.0\n";

static const char small_by_metric[] =
    "timestamp,b.example:lun1,b.example:lun2\n"
    "2019-01-11 10:00:00,5,6.0\n"
    "2019-01-11 10:01:00,7,\n";

/*
 * Timestamps out of order, a string and a null, a boolean, a counter with
 * devices on one host and without on another.
 */
static const char mixed_json[] =
    "{\"300\": {\"h\": {\"m\": 1, \"s\": \"5 GB\"}}, "
    "\"100\": {\"h\": {\"m\": 2, \"s\": null}, \"g\": {\"m\": true}}, "
    "\"200\": {\"g\": {\"m\": {\"d1\": 1.5, \"d2\": null}}, \"h\": {\"m\": 4}}}";

static struct tokio_mmperfmon *
load_text(const char *text, const char *name)
{
    struct tokio_mmperfmon *m = NULL;

    assert_int_equal(tokio_mmperfmon_new(&m), TOKIO_OK);
    if (tokio_mmperfmon_load_mem(m, text, strlen(text), name) != TOKIO_OK)
        fail_msg("%s: %s", name, tokio_errmsg());
    return m;
}

static char *
json_text(const struct tokio_mmperfmon *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    assert_int_equal(tokio_mmperfmon_write_json(m, fp), TOKIO_OK);
    assert_int_equal(fclose(fp), 0);
    return buf;
}

static char *
csv_text(const struct tokio_mmperfmon *m, const char *host,
         const char *metric)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    if (tokio_mmperfmon_write_csv(m, fp, host, metric) != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    assert_int_equal(fclose(fp), 0);
    return buf;
}

static void
assert_json_text(const char *got, const char *want)
{
    json_t *a = json_loads(got, 0, NULL), *b = json_loads(want, 0, NULL);

    assert_non_null(a);
    assert_non_null(b);
    if (!json_equal(a, b))
        fail_msg("got %s\nwant %s", got, want);
    json_decref(a);
    json_decref(b);
}

/* ---- our own inputs --------------------------------------------------- */

static void
test_mmperfmon_small_table(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = load_text(small, "small");
    char *text = json_text(m);

    /* json.dumps() of the dict, key order included */
    assert_string_equal(text, small_json);
    assert_int_equal(tokio_mmperfmon_count(m), 2);
    free(text);
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_small_csv(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = load_text(small, "small");
    char *a = csv_text(m, "a.example", NULL);
    char *b = csv_text(m, NULL, "gpfs_nsdds_bytes_read");
    char *c = csv_text(m, NULL, "mem_total");

    assert_string_equal(a, small_by_host);
    assert_string_equal(b, small_by_metric);
    assert_string_equal(c, "timestamp,a.example\n"
                        "2019-01-11 10:01:00,1024\n");
    free(a);
    free(b);
    free(c);
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_csv_follows_pandas(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = load_text(mixed_json, "mixed");
    char *a = csv_text(m, "h", NULL);
    char *b = csv_text(m, NULL, "m");
    char *c = csv_text(m, NULL, "s");
    char *d = csv_text(m, "g", NULL);
    char *e = csv_text(m, "nope", NULL);

    /* several columns: rows in order of first appearance; 100 s after
     * the epoch is 1969-12-31 16:01:40 in Los Angeles */
    assert_string_equal(a, "timestamp,m,s\n"
                        "1969-12-31 16:05:00,1,5 GB\n"
                        "1969-12-31 16:01:40,2,\n"
                        "1969-12-31 16:03:20,4,\n");
    /* union of the columns' rows, column by column; the boolean makes
     * g an object column */
    assert_string_equal(b, "timestamp,h,g,g:d1,g:d2\n"
                        "1969-12-31 16:05:00,1,,,\n"
                        "1969-12-31 16:01:40,2,True,,\n"
                        "1969-12-31 16:03:20,4,,1.5,\n");
    /* by metric, a null value is left out altogether */
    assert_string_equal(c, "timestamp,h\n1969-12-31 16:05:00,5 GB\n");
    assert_string_equal(d, "timestamp,m,m:d1,m:d2\n"
                        "1969-12-31 16:01:40,True,,\n"
                        "1969-12-31 16:03:20,,1.5,\n");
    assert_string_equal(e, "timestamp\n");
    free(a);
    free(b);
    free(c);
    free(d);
    free(e);
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_one_column_is_sorted(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = load_text(
        "{\"300\": {\"h\": {\"m\": 1}}, \"100\": {\"h\": {\"m\": 2}}}", "one");
    char *a = csv_text(m, "h", NULL);

    assert_string_equal(a, "timestamp,m\n"
                        "1969-12-31 16:01:40,2\n"
                        "1969-12-31 16:05:00,1\n");
    free(a);
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_values_recast_as_reference(void **state)
{
    (void)state;
    static const char text[] =
        "Legend:\n"
        " 1:\th|S|a\n 2:\th|S|b\n 3:\th|S|c\n 4:\th|S|d\n 5:\th|S|e\n"
        " 6:\th|S|dev|f\n 7:\th|S||g\n"
        "Row           Timestamp       a       b       c       d       e"
        "       f       g \n"
        "  1 2019-01-11-10:00:00     -12    True    5 GB     1e3    0x1f"
        "  2.5 MB       3 \n";
    struct tokio_mmperfmon *m = load_text(text, "recast");
    char *got = json_text(m);

    /* "5 GB" is no unit the reference knows: the text stays; "1e3" is a
     * float and "0x1f" a hexadecimal integer; an empty device is none */
    assert_string_equal(got, "{\"1547229600\": {\"h\": {\"a\": -12, "
                        "\"b\": true, \"c\": \"5 GB\", \"d\": 1000.0, "
                        "\"e\": 31, \"f_bytes\": {\"dev\": 2621440.0}, "
                        "\"g\": 3}}}");
    free(got);
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_merges_inputs(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = load_text(small, "small");
    char *once = json_text(m), *twice;

    /* the same input again overwrites values in place */
    assert_int_equal(tokio_mmperfmon_load_mem(m, small, strlen(small), "2"),
                     TOKIO_OK);
    twice = json_text(m);
    assert_string_equal(once, twice);
    free(once);
    free(twice);
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_round_trips(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = load_text(small, "small"), *again = NULL;
    struct tokio_mmperfmon *mixed = load_text(mixed_json, "mixed");
    char *text = json_text(m), *text2, *text3;
    json_t *j = NULL;

    /* load -> save -> load gives the same object, by text and by JSON */
    struct tokio_mmperfmon *reloaded = load_text(text, "saved");
    text2 = json_text(reloaded);
    assert_string_equal(text, text2);
    assert_int_equal(tokio_mmperfmon_to_json(m, &j), TOKIO_OK);
    assert_int_equal(tokio_mmperfmon_new(&again), TOKIO_OK);
    assert_int_equal(tokio_mmperfmon_from_json(again, j), TOKIO_OK);
    text3 = json_text(again);
    assert_string_equal(text, text3);
    json_decref(j);
    free(text3);
    free(text2);
    free(text);
    /* strings, nulls and booleans too */
    text = json_text(mixed);
    assert_json_text(text, mixed_json);
    free(text);
    tokio_mmperfmon_free(m);
    tokio_mmperfmon_free(again);
    tokio_mmperfmon_free(reloaded);
    tokio_mmperfmon_free(mixed);
}

struct seen {
    char buf[1024];
    size_t len;
};

static int
visit(int64_t ts, const char *host, const char *counter, const char *device,
      const struct tokio_mmperfmon_value *v, void *payload)
{
    struct seen *s = payload;

    s->len += (size_t)snprintf(s->buf + s->len, sizeof(s->buf) - s->len,
                               "%lld %s %s %s %d %g|", (long long)ts, host,
                               counter, device ? device : "-", (int)v->kind,
                               v->d);
    return TOKIO_OK;
}

static void
test_mmperfmon_foreach_in_order(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = load_text(small, "small");
    struct seen s = { "", 0 };

    assert_int_equal(tokio_mmperfmon_foreach(m, visit, &s), TOKIO_OK);
    assert_string_equal(s.buf,
        "1547229600 a.example cpu_user - 2 0.2|"
        "1547229600 a.example mem_total_bytes - 2 3.28949e+10|"
        "1547229600 a.example net_r_bytes lo 2 1740.8|"
        "1547229600 b.example gpfs_nsdds_bytes_read lun1 1 5|"
        "1547229600 b.example gpfs_nsdds_bytes_read lun2 1 6|"
        "1547229660 a.example mem_total - 1 1024|"
        "1547229660 b.example gpfs_nsdds_bytes_read lun1 1 7|");
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_empty_input_is_empty_dict(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = load_text("", "empty");
    char *text = json_text(m), *csv = csv_text(m, "h", NULL);

    assert_string_equal(text, "{}");
    assert_string_equal(csv, "timestamp\n");
    free(text);
    free(csv);
    tokio_mmperfmon_free(m);
    m = load_text("\nLegend:\n \n", "blank");
    assert_int_equal(tokio_mmperfmon_count(m), 0);
    tokio_mmperfmon_free(m);
}

/* ---- tarballs and directories ----------------------------------------- */

/* A ustar archive of `n` members (names[i], texts[i]); free() it. */
static unsigned char *
make_tar(const char *const *names, const char *const *texts, size_t n,
         size_t *len_out)
{
    size_t cap = 1024;
    unsigned char *buf;

    for (size_t i = 0; i < n; i++)
        cap += 512 + (strlen(texts[i]) + 511) / 512 * 512;
    buf = calloc(1, cap);
    assert_non_null(buf);
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char *h = buf + at;
        size_t len = strlen(texts[i]);
        unsigned sum = 0;

        snprintf((char *)h, 100, "%s", names[i]);
        memcpy(h + 100, "0000644", 8);
        memcpy(h + 108, "0000000", 8);
        memcpy(h + 116, "0000000", 8);
        snprintf((char *)h + 124, 12, "%011o", (unsigned)len);
        memcpy(h + 136, "00000000000", 12);
        h[156] = '0';
        memcpy(h + 257, "ustar", 6);
        memcpy(h + 263, "00", 2);
        memset(h + 148, ' ', 8);
        for (int k = 0; k < 512; k++)
            sum += h[k];
        snprintf((char *)h + 148, 8, "%06o", sum);
        memcpy(buf + at + 512, texts[i], len);
        at += 512 + (len + 511) / 512 * 512;
    }
    *len_out = at + 1024;
    return buf;
}

static void
test_mmperfmon_tarball_in_memory(void **state)
{
    (void)state;
    const char *names[] = { "d/first.out", "d/second.out" };
    const char *texts[] = { small, "Legend:\n 1:\tc.example|CPU|cpu_sys\n"
                            "Row           Timestamp cpu_sys\n"
                            "  1 2019-01-11-10:00:00    0.5\n" };
    size_t len;
    unsigned char *tar = make_tar(names, texts, 2, &len);
    struct tokio_mmperfmon *m = NULL;
    char *text;

    assert_int_equal(tokio_mmperfmon_new(&m), TOKIO_OK);
    assert_int_equal(tokio_mmperfmon_load_mem(m, tar, len, "t.tar"),
                     TOKIO_OK);
    text = json_text(m);
    assert_contains(text, "\"b.example\": {\"gpfs_nsdds_bytes_read\": "
                    "{\"lun1\": 5, \"lun2\": 6}}, \"c.example\": "
                    "{\"cpu_sys\": 0.5}}, \"1547229660\"");
    free(text);
    tokio_mmperfmon_free(m);
    free(tar);

    /* a garbled member is named with its archive and line */
    texts[1] = "Legend:\nthis is not mmperfmon\n";
    tar = make_tar(names, texts, 2, &len);
    assert_int_equal(tokio_mmperfmon_new(&m), TOKIO_OK);
    assert_int_equal(tokio_mmperfmon_load_mem(m, tar, len, "t.tar"),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'t.tar' member 'd/second.out' line 2");
    tokio_mmperfmon_free(m);
    free(tar);
}

static void
test_mmperfmon_directory_and_files(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), path[4096];
    struct tokio_mmperfmon *m = NULL;
    char *text;

    snprintf(path, sizeof(path), "%s/sub", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/sub/a.out", dir);
    tokio_test_write_file(path, small, SIZE_MAX);
    assert_int_equal(tokio_mmperfmon_new(&m), TOKIO_OK);
    assert_int_equal(tokio_mmperfmon_load(m, dir), TOKIO_OK);
    text = json_text(m);
    assert_string_equal(text, small_json);
    free(text);
    /* a single file, and then the JSON saved from it */
    tokio_mmperfmon_free(m);
    assert_int_equal(tokio_mmperfmon_new(&m), TOKIO_OK);
    assert_int_equal(tokio_mmperfmon_load(m, path), TOKIO_OK);
    snprintf(path, sizeof(path), "%s/saved.json", dir);
    tokio_test_write_file(path, small_json, SIZE_MAX);
    assert_int_equal(tokio_mmperfmon_load(m, path), TOKIO_OK);
    text = json_text(m);
    assert_string_equal(text, small_json);
    free(text);
    tokio_mmperfmon_free(m);
    /* missing */
    assert_int_equal(tokio_mmperfmon_new(&m), TOKIO_OK);
    snprintf(path, sizeof(path), "%s/missing.out", dir);
    assert_int_equal(tokio_mmperfmon_load(m, path), TOKIO_EIO);
    assert_contains(tokio_errmsg(), "missing.out");
    tokio_mmperfmon_free(m);
    tokio_test_rmtree(dir);
    free(dir);
}

/* ---- the reference's goldens ------------------------------------------ */

static void
check_golden(const char *input, const char *golden)
{
    char rel[512];
    struct tokio_mmperfmon *m = NULL;
    char *text;

    snprintf(rel, sizeof(rel), "pytokio-inputs/%s", input);
    TOKIO_TEST_NEED_DATA(path, rel);
    assert_int_equal(tokio_mmperfmon_new(&m), TOKIO_OK);
    if (tokio_mmperfmon_load(m, path) != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    text = json_text(m);
    snprintf(rel, sizeof(rel), GOLDEN "%s", golden);
    assert_golden(text, rel);
    free(text);
    tokio_mmperfmon_free(m);
}

static void
test_mmperfmon_goldens(void **state)
{
    (void)state;
    check_golden("mmperfmon-usage.txt.gz", "mmperfmon-usage.txt.gz.json");
    check_golden("mmperfmon-nsdds.txt.gz", "mmperfmon-nsdds.txt.gz.json");
    check_golden("mmperfmon-gpfsNumberOperations.txt.gz",
                 "mmperfmon-gpfsNumberOperations.txt.gz.json");
    check_golden("mmperfmon.tgz", "mmperfmon.tgz.json");
    check_golden("mmperfmon.2019-05-15-mini.tgz",
                 "mmperfmon.2019-05-15-mini.tgz.json");
    check_golden("mmperfmon.2019-05-16-mini.tgz",
                 "mmperfmon.2019-05-16-mini.tgz.json");
}

static void
test_mmperfmon_sample_round_trips(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/mmperfmon.2019-05-15-mini.tgz");
    struct tokio_mmperfmon *m = NULL;
    char *text, *again;

    assert_int_equal(tokio_mmperfmon_new(&m), TOKIO_OK);
    assert_int_equal(tokio_mmperfmon_load(m, path), TOKIO_OK);
    text = json_text(m);
    tokio_mmperfmon_free(m);
    m = load_text(text, "saved");
    again = json_text(m);
    assert_string_equal(text, again);
    free(text);
    free(again);
    tokio_mmperfmon_free(m);
}

/* ---- malformed input -------------------------------------------------- */

#define HEAD "Legend:\n 1:\th|CPU|cpu_user\n 2:\th|CPU|cpu_sys\n" \
             "Row           Timestamp cpu_user cpu_sys\n"

static void
test_mmperfmon_malformed_input_names_line(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } cases[] = {
        { HEAD "  1 2019-01-11-10:00:00      0.2    0.5\nwhat is this\n",
          "'bad' line 6: not a legend entry" },
        { "Legend:\n 1:\th|CPU|cpu_user\n  1 2019-01-11-10:00:00   0.2\n",
          "'bad' line 3: data row before" },
        { HEAD "  1 2019-01-11-10:00:00      0.2       \n",
          "'bad' line 5: empty cell" },
        { HEAD "  1 2019-01-11-10:00:00      0.2    abc!\n",
          "'bad' line 5: cell 'abc!' is not a number" },
        { HEAD "  1 2019-01-11-10:00:00      0.2  1 2 3\n",
          "'bad' line 5: cell '1 2 3' is not a number and a unit" },
        { HEAD "  1 2019-01-11-10:00:00      0.2  x MB\n",
          "'bad' line 5: cell 'x MB' is not a number" },
        { HEAD "  1 2019-01-11-10:00:00      0.2  1e308 MB\n",
          "'bad' line 5: cell '1e308 MB' is out of range" },
        { HEAD "  1 2019-13-11-10:00:00      0.2    0.5\n",
          "'bad' line 5: timestamp '2019-13-11-10:00:00' out of range" },
        { HEAD "  1 2019-02-29-10:00:00      0.2    0.5\n",
          "'bad' line 5: timestamp" },
        { "Legend:\n 1:\th|CPU|cpu_user\n"
          "Row           Timestamp cpu_user cpu_sys\n"
          "  1 2019-01-11-10:00:00      0.2     0.5\n",
          "'bad' line 4: row 1 has 2 cells but the legend entries 1 to 1" },
        { "Legend:\n 1:\th|CPU|c\n 2:\th|CPU|x|c\n"
          "Row           Timestamp        c        c\n"
          "  1 2019-01-11-10:00:00        1        2\n",
          "'bad' line 5: counter 'c' of 'h' has both" },
        { "Legend:\n 1:\th\xff|CPU|c\n", "'bad' line 2: legend entry is not" },
        { "Legend:\n 99999999999:\th|CPU|c\n", "'bad' line 2: legend number" },
        { "Row  Timestamp  c\n 1x 2019-01-11-10:00:00 1\n",
          "'bad' line 2: not a legend entry" },
        { "{\"1\": [1]}", "'bad': mmperfmon JSON key '1': not an object" },
        { "{\"1\": {\"h\": 5}}", "not an object of counters" },
        { "{\"x\": {}}", "'x': not an integer timestamp" },
        { "{\"1\": 2}", "not an object of hosts" },
        { "{\"1\": {\"h\": {\"c\": {\"d\": {}}}}}", "'c' 'd': not a number" },
        { "{\"1\": {\"h\": {\"c\": [1]}}}", "'c': not a number" },
        { "{\"1\": ", "'bad' line 1 column" },
        { "[1]", "not a legend entry" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_mmperfmon *m = NULL;
        int rc;

        assert_int_equal(tokio_mmperfmon_new(&m), TOKIO_OK);
        rc = tokio_mmperfmon_load_mem(m, cases[i].text, strlen(cases[i].text),
                                      "bad");
        if (rc != TOKIO_EFORMAT)
            fail_msg("case %zu: rc %d (%s)", i, rc, tokio_errmsg());
        assert_contains(tokio_errmsg(), cases[i].want);
        tokio_mmperfmon_free(m);
    }
}

static void
test_mmperfmon_bad_arguments(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = load_text(small, "small");
    FILE *fp = fopen("/dev/null", "w");

    assert_non_null(fp);
    assert_int_equal(tokio_mmperfmon_write_csv(m, fp, NULL, NULL),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_mmperfmon_write_csv(m, fp, "a", "b"),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_mmperfmon_load(NULL, "x"), TOKIO_EINVAL);
    assert_int_equal(tokio_mmperfmon_load_mem(m, NULL, 3, "x"), TOKIO_EINVAL);
    assert_int_equal(tokio_mmperfmon_from_json(m, NULL), TOKIO_EINVAL);
    assert_int_equal(tokio_mmperfmon_foreach(m, NULL, NULL), TOKIO_EINVAL);
    fclose(fp);
    tokio_mmperfmon_free(m);
    tokio_mmperfmon_free(NULL);
    assert_int_equal(tokio_mmperfmon_count(NULL), 0);
}

/* ---- out of memory ---------------------------------------------------- */

static int
load_small(void *ctx)
{
    struct tokio_mmperfmon *m = NULL;
    int rc = tokio_mmperfmon_new(&m);

    if (rc == TOKIO_OK)
        rc = tokio_mmperfmon_load_mem(m, ctx, strlen(ctx), "oom");
    tokio_mmperfmon_free(m);
    return rc;
}

static void
test_mmperfmon_load_survives_every_oom(void **state)
{
    (void)state;
    tokio_test_every_oom(load_small, (void *)small, 1);
    tokio_test_every_oom(load_small, (void *)mixed_json, 1);
    tokio_test_every_oom(load_small, (void *)"Legend:\n 1:\th|S|c\n"
                         "Row           Timestamp    c\n"
                         "  1 2019-01-11-10:00:00 0x1f\n", 1);
}

static int
json_and_csv(void *ctx)
{
    struct tokio_mmperfmon *again = NULL;
    json_t *json = NULL;
    FILE *fp = fopen("/dev/null", "w");
    int rc;

    assert_non_null(fp);
    rc = tokio_mmperfmon_to_json(ctx, &json);
    if (rc >= 0)
        rc = tokio_mmperfmon_new(&again);
    if (rc >= 0)
        rc = tokio_mmperfmon_from_json(again, json);
    if (rc >= 0)
        rc = tokio_mmperfmon_write_csv(ctx, fp, NULL, "gpfs_nsdds_bytes_read");
    if (rc >= 0)
        rc = tokio_mmperfmon_write_csv(ctx, fp, "a.example", NULL);
    fclose(fp);
    json_decref(json);
    tokio_mmperfmon_free(again);
    return rc;
}

static void
test_mmperfmon_json_and_csv_survive_every_oom(void **state)
{
    (void)state;
    struct tokio_mmperfmon *m = load_text(small, "small");

    tokio_test_every_oom(json_and_csv, m, 1);
    tokio_mmperfmon_free(m);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mmperfmon_small_table),
        cmocka_unit_test(test_mmperfmon_small_csv),
        cmocka_unit_test(test_mmperfmon_csv_follows_pandas),
        cmocka_unit_test(test_mmperfmon_one_column_is_sorted),
        cmocka_unit_test(test_mmperfmon_values_recast_as_reference),
        cmocka_unit_test(test_mmperfmon_merges_inputs),
        cmocka_unit_test(test_mmperfmon_round_trips),
        cmocka_unit_test(test_mmperfmon_foreach_in_order),
        cmocka_unit_test(test_mmperfmon_empty_input_is_empty_dict),
        cmocka_unit_test(test_mmperfmon_tarball_in_memory),
        cmocka_unit_test(test_mmperfmon_directory_and_files),
        cmocka_unit_test(test_mmperfmon_goldens),
        cmocka_unit_test(test_mmperfmon_sample_round_trips),
        cmocka_unit_test(test_mmperfmon_malformed_input_names_line),
        cmocka_unit_test(test_mmperfmon_bad_arguments),
        cmocka_unit_test(test_mmperfmon_load_survives_every_oom),
        cmocka_unit_test(test_mmperfmon_json_and_csv_survive_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
