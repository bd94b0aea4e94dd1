/*
 * tests/connectors/test_hpss.c - HPSS logs and daily report
 * (src/connectors/hpss.c) against the reference's goldens
 * (golden/pytokio/hpss/, JSON by value), then fixtures of our own in
 * tests/connectors/hpss/good/: each X.txt has beside it X.json, what the
 * reference printed of it (pytokio 0.13's from_str(),
 * json.dumps(indent=4, sort_keys=True)); then kinds, CSV, the daily
 * report's dict semantics, and malformed input that needs an explicit
 * kind (the rest is in tests/connectors/hpss/bad/, which
 * test_connectors runs, as it runs the out-of-memory sweeps).
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jansson.h>

#include "tokio/connectors/hpss.h"
#include "tokio/output.h"

#define INPUTS "pytokio-inputs/"
#define GOLDEN "golden/pytokio/hpss/"
#define FIXTURES "tests/connectors/hpss/good/"

static struct tokio_hpss *
open_text(const char *text, enum tokio_hpss_kind kind)
{
    struct tokio_hpss *h = NULL;

    if (tokio_hpss_open_mem(&h, text, strlen(text), "t", kind) != TOKIO_OK)
        fail_msg("open: %s", tokio_errmsg());
    assert_non_null(h);
    return h;
}

/* The contents of fixture `name` (free()). */
static char *
fixture(const char *name)
{
    char rel[256], *text;

    snprintf(rel, sizeof(rel), FIXTURES "%s", name);
    text = tokio_test_read_file(tokio_test_source(rel), NULL);
    assert_non_null(text);
    return text;
}

/* The handle's JSON as the goldens were written (free()). */
static char *
json_text(const struct tokio_hpss *h)
{
    json_t *tree = NULL;
    char *s = NULL;

    assert_int_equal(tokio_hpss_to_json(h, &tree), TOKIO_OK);
    assert_int_equal(tokio_json_dumps(&s, tree, TOKIO_JSON_SORT_KEYS |
                                      TOKIO_JSON_INDENT(4)), TOKIO_OK);
    json_decref(tree);
    return s;
}

/* The CSV of a handle as a string (free()). */
static char *
csv_text(const struct tokio_hpss *h)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    assert_int_equal(tokio_hpss_write_csv(h, fp), TOKIO_OK);
    assert_int_equal(fclose(fp), 0);
    return buf;
}

/* ---- goldens ---------------------------------------------------------- */

static void
golden(const char *input, const char *golden_rel, enum tokio_hpss_kind kind)
{
    TOKIO_TEST_NEED_DATA(in_path, input);
    char in[4096];
    snprintf(in, sizeof(in), "%s", in_path);
    TOKIO_TEST_NEED_DATA(g_path, golden_rel);
    struct tokio_hpss *h = NULL, *again = NULL;
    json_error_t err;
    json_t *want = json_load_file(g_path, 0, &err), *ours = NULL, *j2 = NULL;

    assert_non_null(want);
    assert_int_equal(tokio_hpss_open(&h, in, TOKIO_HPSS_AUTO), TOKIO_OK);
    assert_int_equal(tokio_hpss_kind(h), kind);
    assert_int_equal(tokio_hpss_to_json(h, &ours), TOKIO_OK);
    assert_true(json_equal(ours, want));
    /* the golden itself reads back as the same data */
    assert_int_equal(tokio_hpss_open(&again, g_path, TOKIO_HPSS_AUTO),
                     TOKIO_OK);
    assert_int_equal(tokio_hpss_kind(again), kind);
    assert_int_equal(tokio_hpss_to_json(again, &j2), TOKIO_OK);
    assert_true(json_equal(j2, want));
    json_decref(want);
    json_decref(ours);
    json_decref(j2);
    tokio_hpss_free(h);
    tokio_hpss_free(again);
}

static void
test_hpss_daily_report_matches_golden(void **state)
{
    (void)state;
    golden(INPUTS "hpss_daily.txt", GOLDEN "hpss_daily.HpssDailyReport.json",
           TOKIO_HPSS_DAILY);
}

static void
test_hpss_hsi_log_matches_golden(void **state)
{
    (void)state;
    golden(INPUTS "hsilog.txt.gz", GOLDEN "hsilog.HsiLog.json",
           TOKIO_HPSS_HSI);
}

static void
test_hpss_ftp_log_matches_golden(void **state)
{
    (void)state;
    golden(INPUTS "hpssftplog.txt.gz", GOLDEN "hpssftplog.FtpLog.json",
           TOKIO_HPSS_FTP);
}

/* Figures counted independently in the sample inputs (grep/awk). */
static void
test_hpss_sample_counts(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(hsi, INPUTS "hsilog.txt.gz");
    struct tokio_hpss *h = NULL;

    assert_int_equal(tokio_hpss_open(&h, hsi, TOKIO_HPSS_HSI), TOKIO_OK);
    assert_int_equal(tokio_hpss_count(h, "hsi"), 61);
    assert_int_equal(tokio_hpss_count(h, "htar"), 1);
    assert_int_equal(tokio_hpss_count(h, "ftp"), 0);
    assert_null(tokio_hpss_report_date(h));
    tokio_hpss_free(h);
    TOKIO_TEST_NEED_DATA(daily, INPUTS "hpss_daily.txt");
    assert_int_equal(tokio_hpss_open(&h, daily, TOKIO_HPSS_AUTO), TOKIO_OK);
    assert_string_equal(tokio_hpss_report_date(h), "2018-08-09");
    tokio_hpss_free(h);
}

/* ---- fixtures ------------------------------------------------------- */

/*
 * Every record shape (hsi transfer, FU without destination, FR without
 * account, htar with 19 and 18 fields, a skipped application, a time
 * either side of a DST change; FTP's POPN, pftp, ftp, LF commands, a
 * command without direction, a non-ftp line; report tables re-keyed,
 * listed, with a bad time span and a typed percentage; a report whose
 * tables repeat a column name, store a title twice and are wide): the
 * JSON is the reference's, by value and byte for byte, and so is that of
 * the JSON read back.
 */
static void
test_hpss_fixtures_match_reference(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        enum tokio_hpss_kind kind;
    } cases[] = {
        { "hsi", TOKIO_HPSS_HSI }, { "ftp", TOKIO_HPSS_FTP },
        { "daily", TOKIO_HPSS_DAILY }, { "dup_columns", TOKIO_HPSS_DAILY },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char name[64], *text, *want, *ours;
        struct tokio_hpss *h, *again;

        snprintf(name, sizeof(name), "%s.txt", cases[i].name);
        text = fixture(name);
        snprintf(name, sizeof(name), "%s.json", cases[i].name);
        want = fixture(name);
        print_message("%s\n", cases[i].name);
        h = open_text(text, TOKIO_HPSS_AUTO);
        assert_int_equal(tokio_hpss_kind(h), cases[i].kind);
        ours = json_text(h);
        want[strlen(want) - 1] = '\0';      /* print() added a newline */
        assert_string_equal(ours, want);
        free(ours);
        again = open_text(want, TOKIO_HPSS_AUTO);
        assert_int_equal(tokio_hpss_kind(again), cases[i].kind);
        ours = json_text(again);
        assert_string_equal(ours, want);
        free(ours);
        tokio_hpss_free(again);
        tokio_hpss_free(h);
        free(want);
        free(text);
    }
}

static void
test_hpss_fixture_counts_and_date(void **state)
{
    (void)state;
    char *text = fixture("hsi.txt");
    struct tokio_hpss *h = open_text(text, TOKIO_HPSS_AUTO);

    assert_int_equal(tokio_hpss_count(h, "hsi"), 5);
    assert_int_equal(tokio_hpss_count(h, "htar"), 2);
    assert_int_equal(tokio_hpss_count(h, "pftp"), 0);
    assert_null(tokio_hpss_report_date(h));
    tokio_hpss_free(h);
    free(text);
    text = fixture("daily.txt");
    h = open_text(text, TOKIO_HPSS_AUTO);
    assert_string_equal(tokio_hpss_report_date(h), "2018-08-09");
    assert_int_equal(tokio_hpss_count(h, "hsi"), 0);
    tokio_hpss_free(h);
    free(text);
}

/* A repeated column keeps its first place and its last cell, and a title
 * stored twice keeps its first place and its last table, as in the
 * reference's dicts. */
static void
test_hpss_daily_repeated_columns_and_titles(void **state)
{
    (void)state;
    char *text = fixture("dup_columns.txt");
    struct tokio_hpss *h = open_text(text, TOKIO_HPSS_DAILY);
    json_t *json = NULL, *row;
    const char *key;
    const json_t *v;
    static const char *const order[] = { "name", "ops", "migtime",
                                         "migtimesecs" };
    size_t i = 0;

    assert_int_equal(tokio_hpss_to_json(h, &json), TOKIO_OK);
    row = json_array_get(json_object_get(json_object_get(json, "archive"),
                                         "dup columns"), 0);
    assert_non_null(row);
    json_object_foreach(row, key, v) {
        assert_true(i < 4);
        assert_string_equal(key, order[i++]);
    }
    assert_int_equal(i, 4);
    assert_string_equal(json_string_value(json_object_get(row, "name")),
                        "b");
    json_object_foreach(json_object_get(json, "archive"), key, v) {
        assert_string_equal(key, "replaced");
        break;
    }
    json_decref(json);
    tokio_hpss_free(h);
    free(text);
}

/* Dates are local times of $TZ: a change of TZ between two reads is
 * seen. */
static void
test_hpss_follows_tz_changes(void **state)
{
    (void)state;
    static const char line[] = "Sat Aug 10 00:05:26 2019 h hsi 1 2\tLH\t0"
        "\t0.02\t5\t1.0\t4\t/a\t/b\t1\n";
    const char *old = getenv("TZ");
    char *saved = old ? strdup(old) : NULL;
    json_t *a = NULL, *b = NULL;
    struct tokio_hpss *h;

    h = open_text(line, TOKIO_HPSS_HSI);
    assert_int_equal(tokio_hpss_to_json(h, &a), TOKIO_OK);
    tokio_hpss_free(h);
    setenv("TZ", "UTC", 1);
    tzset();
    h = open_text(line, TOKIO_HPSS_HSI);
    assert_int_equal(tokio_hpss_to_json(h, &b), TOKIO_OK);
    tokio_hpss_free(h);
    if (saved)
        setenv("TZ", saved, 1);
    else
        unsetenv("TZ");
    tzset();
    free(saved);
    /* 2019-08-10 00:05:26 in Los Angeles (UTC-7), then in UTC */
    assert_true(json_real_value(json_object_get(json_array_get(
        json_object_get(a, "hsi"), 0), "end_timestamp")) == 1565420726.0);
    assert_true(json_real_value(json_object_get(json_array_get(
        json_object_get(b, "hsi"), 0), "end_timestamp")) == 1565395526.0);
    json_decref(a);
    json_decref(b);
}

/* Blank lines and CRLF line ends do not change the records. */
static void
test_hpss_blank_lines_and_crlf_are_ignored(void **state)
{
    (void)state;
    char *hsi = fixture("hsi.txt"), *want = fixture("hsi.json"), *ours;
    char *text = malloc(2 * strlen(hsi) + 8), *p = text;
    struct tokio_hpss *h;

    assert_non_null(text);
    *p++ = '\n';
    for (const char *s = hsi; *s; s++) {
        if (*s == '\n') {
            memcpy(p, "\r\n \n", 4);
            p += 4;
        } else {
            *p++ = *s;
        }
    }
    *p = '\0';
    h = open_text(text, TOKIO_HPSS_HSI);
    ours = json_text(h);
    want[strlen(want) - 1] = '\0';
    assert_string_equal(ours, want);
    free(ours);
    tokio_hpss_free(h);
    free(text);
    free(want);
    free(hsi);
}

/* ---- kinds ---------------------------------------------------------- */

static void
test_hpss_kind_detection(void **state)
{
    (void)state;
    char *hsi = fixture("hsi.txt");
    struct tokio_hpss *h = NULL;
    json_t *j;

    /* the empty object and empty text are an empty HSI log, as the
     * reference's HsiLog.from_str("") */
    h = open_text("{}", TOKIO_HPSS_AUTO);
    assert_int_equal(tokio_hpss_kind(h), TOKIO_HPSS_HSI);
    tokio_hpss_free(h);
    h = open_text("\n \n", TOKIO_HPSS_AUTO);
    assert_int_equal(tokio_hpss_kind(h), TOKIO_HPSS_HSI);
    assert_int_equal(tokio_hpss_count(h, "hsi"), 0);
    tokio_hpss_free(h);
    h = open_text("\n\n", TOKIO_HPSS_FTP);
    assert_int_equal(tokio_hpss_kind(h), TOKIO_HPSS_FTP);
    assert_int_equal(tokio_hpss_count(h, "ftp"), 0);
    tokio_hpss_free(h);
    h = open_text("{}", TOKIO_HPSS_DAILY);
    assert_int_equal(tokio_hpss_kind(h), TOKIO_HPSS_DAILY);
    tokio_hpss_free(h);
    /* an explicit kind wins over the content's look */
    assert_int_equal(tokio_hpss_open_mem(&h, hsi, strlen(hsi), "x",
                                         TOKIO_HPSS_DAILY), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'x': no 'HPSS Report for Date' line");
    assert_null(h);
    assert_int_equal(tokio_hpss_open_mem(&h, "{\"ftp\": []}", 11, "j",
                                         TOKIO_HPSS_HSI), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'j': HPSS HSI log JSON: 'ftp' is not a "
                    "list of hsi/htar records");
    /* no such kind */
    assert_int_equal(tokio_hpss_open_mem(&h, hsi, strlen(hsi), "x",
                                         (enum tokio_hpss_kind)7),
                     TOKIO_EINVAL);
    assert_null(h);
    j = json_object();
    assert_int_equal(tokio_hpss_from_json(&h, j, (enum tokio_hpss_kind)-1),
                     TOKIO_EINVAL);
    assert_null(h);
    /* applications without records are dropped, as the text never makes
     * them */
    json_object_set_new(j, "hsi", json_array());
    assert_int_equal(tokio_hpss_from_json(&h, j, TOKIO_HPSS_AUTO), TOKIO_OK);
    assert_int_equal(tokio_hpss_kind(h), TOKIO_HPSS_HSI);
    char *s = json_text(h);
    assert_string_equal(s, "{}");
    free(s);
    tokio_hpss_free(h);
    json_decref(j);
    free(hsi);
}

/* Malformed input whose meaning depends on the kind asked for. */
static void
test_hpss_malformed_input_of_a_given_kind(void **state)
{
    (void)state;
    static const struct {
        enum tokio_hpss_kind kind;
        const char *text;
        const char *msg;
    } cases[] = {
        { TOKIO_HPSS_DAILY, "no date here\n",
          "'t': no 'HPSS Report for Date' line: not an HPSS daily report" },
        { TOKIO_HPSS_HSI, "Sat Aug 10 00:05:26 2019 h hsi\n",
          "'t' line 1: hsi line has 7 fields, expected at least 16" },
        { TOKIO_HPSS_HSI, "\na b c\n", "'t' line 2: not an HSI/HTAR line" },
        { TOKIO_HPSS_FTP, "Mon Dec 31 00:06:46 2018 1.0 h 33 /x b o\n",
          "'t' line 1: FTP line has 11 fields, expected at least 12" },
        { TOKIO_HPSS_FTP, "HPSS Report for Date 2018-08-09\n",
          "'t' line 1: bad date in FTP line 'HPSS Report for Date" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_hpss *h = (struct tokio_hpss *)1;
        int rc = tokio_hpss_open_mem(&h, cases[i].text, strlen(cases[i].text),
                                     "t", cases[i].kind);
        if (rc != TOKIO_EFORMAT)
            fail_msg("case %zu: status %d (%s)", i, rc, tokio_errmsg());
        assert_null(h);
        assert_contains(tokio_errmsg(), cases[i].msg);
    }
}

/* ---- CSV ------------------------------------------------------------ */

static void
test_hpss_csv_of_logs_and_report(void **state)
{
    (void)state;
    char *text = fixture("ftp.txt");
    struct tokio_hpss *h = open_text(text, TOKIO_HPSS_AUTO), *again = NULL;
    char *csv = csv_text(h);
    json_t *json = NULL;

    /* input order, sorted columns, empty where a record lacks a field */
    assert_string_equal(csv,
        "app,bytes,duration_sec,duration_sec_resolution,end_timestamp,"
        "hpss_path,hpss_uid,opname,remote_host\n"
        "pftp,33,0.01,0.001,1546243606.0,/home/o/x,operator,HL,"
        "dtn01-int.nersc.gov\n"
        "ftp,7184842752,457.8,0.1,1549327504.0,/home/r/y,wwwhpss,HL,"
        "sgn.nersc.gov\n"
        "pftp,5,2.0,1.0,1562970763.0,/home/n/z,nickb,LH,gert.nersc.gov\n"
        "ftp,0,0.5,0.1,1562970780.0,/home/n/w,nickb,,gert.nersc.gov\n");
    free(csv);
    /* read back from JSON, which keeps no order across applications:
     * application by application */
    assert_int_equal(tokio_hpss_to_json(h, &json), TOKIO_OK);
    assert_int_equal(tokio_hpss_from_json(&again, json, TOKIO_HPSS_AUTO),
                     TOKIO_OK);
    csv = csv_text(again);
    assert_contains(csv, "remote_host\npftp,33,0.01,");
    assert_contains(csv, "nickb,LH,gert.nersc.gov\nftp,7184842752,");
    free(csv);
    json_decref(json);
    tokio_hpss_free(again);
    tokio_hpss_free(h);
    free(text);

    text = fixture("daily.txt");
    h = open_text(text, TOKIO_HPSS_DAILY);
    csv = csv_text(h);
    assert_contains(csv, "system,table,row,column,value\n"
                    "archive,io totals by hpss client gateway (ui) host,"
                    "heart,users,53\n");
    assert_contains(csv, "archive,largest users,1,io_gb,23733.9\n");
    assert_contains(csv, "hpss,migration purge report,,migtimesecs,-1\n");
    assert_contains(csv, "archive,tape drive report,0,mnt%,12.5\n");
    free(csv);
    tokio_hpss_free(h);
    free(text);

    text = fixture("hsi.txt");
    h = open_text(text, TOKIO_HPSS_HSI);
    csv = csv_text(h);
    assert_contains(csv, "\nhtar,,,58888,58178668032,146472.0,0.1,14301,5,,"
                    "397.2,0.01,1565420728.0,/nersc/p/x.tar,58888,create,"
                    "LH,,cori02.nersc.gov,0,\n");
    free(csv);
    tokio_hpss_free(h);
    free(text);
}

/* ---- work bounds ---------------------------------------------------- */

/*
 * Every line of a report may start a table, as in the reference, so
 * nested candidates ("x:" lines two above a separator) make the work
 * quadratic; it is refused instead of taking minutes.
 */
static void
test_hpss_overlapping_tables_are_refused(void **state)
{
    (void)state;
    const size_t reps = 3000;
    char *text = malloc(reps * 9 + 64), *p = text;
    struct tokio_hpss *h = NULL;

    assert_non_null(text);
    p += sprintf(p, "HPSS Report for Date 2018-08-09\n");
    for (size_t i = 0; i < reps; i++)
        p += sprintf(p, "x:\nx:\n=\n");
    assert_int_equal(tokio_hpss_open_mem(&h, text, (size_t)(p - text), "q",
                                         TOKIO_HPSS_DAILY), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "too many overlapping tables");
    free(text);
}

/* A long run of blank lines is skipped once, not once per line (the
 * reference's loop would be quadratic here). */
static void
test_hpss_many_blank_lines_are_linear(void **state)
{
    (void)state;
    const size_t n = 400000;
    char *text = malloc(n + 128), *p = text, *s;
    struct tokio_hpss *h = NULL;

    assert_non_null(text);
    p += sprintf(p, "HPSS Report for Date 2018-08-09\n");
    memset(p, '\n', n);
    p += n;
    p += sprintf(p, "A : T\nX\n=\nv\n");
    assert_int_equal(tokio_hpss_open_mem(&h, text, (size_t)(p - text), "b",
                                         TOKIO_HPSS_DAILY), TOKIO_OK);
    s = json_text(h);
    assert_string_equal(s, "{\n    \"a\": {\n        \"t\": [\n            "
                        "{\n                \"x\": \"v\"\n            }\n"
                        "        ]\n    }\n}");
    free(s);
    tokio_hpss_free(h);
    free(text);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hpss_daily_report_matches_golden),
        cmocka_unit_test(test_hpss_hsi_log_matches_golden),
        cmocka_unit_test(test_hpss_ftp_log_matches_golden),
        cmocka_unit_test(test_hpss_sample_counts),
        cmocka_unit_test(test_hpss_fixtures_match_reference),
        cmocka_unit_test(test_hpss_fixture_counts_and_date),
        cmocka_unit_test(test_hpss_daily_repeated_columns_and_titles),
        cmocka_unit_test(test_hpss_follows_tz_changes),
        cmocka_unit_test(test_hpss_blank_lines_and_crlf_are_ignored),
        cmocka_unit_test(test_hpss_kind_detection),
        cmocka_unit_test(test_hpss_malformed_input_of_a_given_kind),
        cmocka_unit_test(test_hpss_csv_of_logs_and_report),
        cmocka_unit_test(test_hpss_overlapping_tables_are_refused),
        cmocka_unit_test(test_hpss_many_blank_lines_are_linear),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
