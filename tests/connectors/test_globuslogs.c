/*
 * tests/connectors/test_globuslogs.c - Globus GridFTP transfer logs
 * (src/connectors/globuslogs.c) against the reference's golden
 * (golden/pytokio/globuslogs/, JSON by value), a fixture of our own whose
 * expected JSON and CSV were computed by the reference (pytokio 0.13's
 * GlobusLog.from_str() of the same text; pandas 1.5's
 * DataFrame(...).to_csv()), round trips, malformed lines and
 * out-of-memory failures.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "tokio/connectors/globuslogs.h"
#include "tokio/output.h"

#define SAMPLE "pytokio-inputs/globuslogs.txt.gz"
#define GOLDEN "golden/pytokio/globuslogs/globuslogs.GlobusLog.json"

/*
 * A file name with spaces, one with '=' and double spaces, a DEST list
 * with odd spacing, a repeated key (the last value wins, at the first
 * place), fraction digits 1 and 6 either side of a DST change, an integer
 * with spaces (the line's last value), a lower-case key (no pair matches:
 * the whole line splits at its first '='), NL.EVNT inside PROG.
 */
static const char log_text[] =
    "DATE=20190809091437.927804 HOST=dtn11.nersc.gov PROG=globus-grid"
    "ftp-server NL.EVNT=FTP_INFO START=20190809091437.884224 USER=glo"
    "ck FILE=/home/g/my results 0.tar.gz BUFFER=235104 BLOCK=262144 N"
    "BYTES=35616 VOLUME=/ STREAMS=4 STRIPES=1 DEST=[0.0.0.0] TYPE=RET"
    "R CODE=226\n"
    "DATE=20190310013000.5 FILE=/a=b  c  DEST=[1.2.3.4, 5.6.7.8 ,9.9."
    "9.9] TYPE=STOR TYPE=RETR EXTRA=x\n"
    "DATE=20190310033000.000001 DEST=10.0.0.1 NBYTES= 12 \n"
    "lower=case KEY=v\n";

static const char log_want[] =
    "[{\"BLOCK\": 262144, \"BUFFER\": 235104, \"CODE\": \"226\", \"DATE\": "
    "1565367277.927804, \"DEST\": [\"0.0.0.0\"], \"FILE\": \"/home/g/my "
    "results 0.tar.gz\", \"HOST\": \"dtn11.nersc.gov\", \"NBYTES\": 3561"
    "6, \"PROG\": \"globus-gridftp-server NL.EVNT=FTP_INFO\", \"START\""
    ": 1565367277.884224, \"STREAMS\": 4, \"STRIPES\": 1, \"TYPE\": \"RE"
    "TR\", \"USER\": \"glock\", \"VOLUME\": \"/\"}, {\"DATE\": 1552210200.5,"
    " \"DEST\": [\"1.2.3.4\", \"5.6.7.8\", \"9.9.9.9\"], \"EXTRA\": \"x\", \"F"
    "ILE\": \"/a=b  c\", \"TYPE\": \"RETR\"}, {\"DATE\": 1552213800.000001"
    ", \"DEST\": [\"10.0.0.1\"], \"NBYTES\": 12}, {\"lower\": \"case KEY=v"
    "\"}]";

static const char csv_want[] =
    ",DATE,HOST,PROG,START,USER,FILE,BUFFER,BLOCK,NBYTES,VOLUME,STREA"
    "MS,STRIPES,DEST,TYPE,CODE,EXTRA,lower\n"
    "0,1565367277.927804,dtn11.nersc.gov,globus-gridftp-server NL.EVN"
    "T=FTP_INFO,1565367277.884224,glock,/home/g/my results 0.tar.gz,2"
    "35104.0,262144.0,35616.0,/,4.0,1.0,['0.0.0.0'],RETR,226,,\n"
    "1,1552210200.5,,,,,/a=b  c,,,,,,,\"['1.2.3.4', '5.6.7.8', '9.9.9."
    "9']\",RETR,,x,\n"
    "2,1552213800.000001,,,,,,,,12.0,,,,['10.0.0.1'],,,,\n"
    "3,,,,,,,,,,,,,,,,,case KEY=v\n";

static struct tokio_globuslogs *
open_text(const char *text)
{
    struct tokio_globuslogs *g = NULL;

    if (tokio_globuslogs_open_mem(&g, text, strlen(text), "t") != TOKIO_OK)
        fail_msg("open: %s", tokio_errmsg());
    assert_non_null(g);
    return g;
}

static void
assert_json(const struct tokio_globuslogs *g, const char *want)
{
    json_t *ours = NULL, *w = json_loads(want, 0, NULL);

    assert_non_null(w);
    assert_int_equal(tokio_globuslogs_to_json(g, &ours), TOKIO_OK);
    if (!json_equal(ours, w)) {
        char *s = json_dumps(ours, JSON_SORT_KEYS);
        fail_msg("JSON differs:\n%s\nwant\n%s", s, want);
    }
    json_decref(ours);
    json_decref(w);
}

static char *
csv_text(const struct tokio_globuslogs *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    assert_int_equal(tokio_globuslogs_write_csv(g, fp), TOKIO_OK);
    assert_int_equal(fclose(fp), 0);
    return buf;
}

/* ---- golden --------------------------------------------------------- */

static void
test_globuslogs_matches_golden(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(sample, SAMPLE);
    char in[4096];
    snprintf(in, sizeof(in), "%s", sample);
    TOKIO_TEST_NEED_DATA(golden, GOLDEN);
    struct tokio_globuslogs *g = NULL, *again = NULL;
    json_t *want = json_load_file(golden, 0, NULL), *ours = NULL, *j2 = NULL;

    assert_non_null(want);
    assert_int_equal(tokio_globuslogs_open(&g, in), TOKIO_OK);
    assert_int_equal(tokio_globuslogs_count(g), 11);   /* zcat | wc -l */
    assert_int_equal(tokio_globuslogs_to_json(g, &ours), TOKIO_OK);
    assert_true(json_equal(ours, want));
    /* the golden reads back as the same records */
    assert_int_equal(tokio_globuslogs_open(&again, golden), TOKIO_OK);
    assert_int_equal(tokio_globuslogs_to_json(again, &j2), TOKIO_OK);
    assert_true(json_equal(j2, want));
    json_decref(want);
    json_decref(ours);
    json_decref(j2);
    tokio_globuslogs_free(g);
    tokio_globuslogs_free(again);
}

/* ---- fixture -------------------------------------------------------- */

static void
test_globuslogs_fixture_matches_reference(void **state)
{
    (void)state;
    struct tokio_globuslogs *g = open_text(log_text);

    assert_int_equal(tokio_globuslogs_count(g), 4);
    assert_json(g, log_want);
    tokio_globuslogs_free(g);
}

static void
test_globuslogs_csv_matches_pandas(void **state)
{
    (void)state;
    struct tokio_globuslogs *g = open_text(log_text);
    char *csv = csv_text(g);

    assert_string_equal(csv, csv_want);
    free(csv);
    tokio_globuslogs_free(g);
}

/* Python reprs of list items pick their quotes and escape as Python. */
static void
test_globuslogs_csv_quotes_lists_as_python(void **state)
{
    (void)state;
    struct tokio_globuslogs *g = open_text("DEST=[it's, \"q\", a\\b]\n");
    char *csv = csv_text(g);

    assert_string_equal(csv, ",DEST\n0,\"[\"\"it's\"\", '\"\"q\"\"', "
                        "'a\\\\b']\"\n");
    free(csv);
    tokio_globuslogs_free(g);
}

static void
test_globuslogs_blank_lines_crlf_and_empty_input(void **state)
{
    (void)state;
    struct tokio_globuslogs *g = open_text("\n  \nA=1 B=2\r\n\nC=3");
    json_t *j = NULL, *want = json_loads("[{\"A\": \"1\", \"B\": \"2\"}, "
                                         "{\"C\": \"3\"}]", 0, NULL);

    assert_int_equal(tokio_globuslogs_to_json(g, &j), TOKIO_OK);
    assert_true(json_equal(j, want));
    json_decref(j);
    json_decref(want);
    tokio_globuslogs_free(g);
    g = open_text("");
    assert_int_equal(tokio_globuslogs_count(g), 0);
    tokio_globuslogs_free(g);
}

/*
 * A line of many distinct keys (found by a hash table past 32) with
 * some repeated: the last value wins, in the first place; a later short
 * line starts clean.
 */
static void
test_globuslogs_many_keys_repeats_replace(void **state)
{
    (void)state;
    const size_t nkeys = 5000;
    char *text = malloc(nkeys * 24 + 64), *p = text;
    struct tokio_globuslogs *g;
    json_t *j = NULL, *rec;

    assert_non_null(text);
    for (size_t i = 0; i < nkeys; i++)
        p += sprintf(p, "K%c%c%c=%zu ", 'A' + (int)(i % 26),
                     'A' + (int)(i / 26 % 26), 'A' + (int)(i / 676 % 26), i);
    for (size_t i = 0; i < 40; i++)
        p += sprintf(p, "K%c%c%c=again ", 'A' + (int)(i % 26),
                     'A' + (int)(i / 26 % 26), 'A' + (int)(i / 676 % 26));
    p += sprintf(p, "Z=end\nKAAA=x KAAA=y\n");
    g = open_text(text);
    assert_int_equal(tokio_globuslogs_to_json(g, &j), TOKIO_OK);
    rec = json_array_get(j, 0);
    assert_int_equal(json_object_size(rec), nkeys + 1);
    assert_string_equal(json_string_value(json_object_get(rec, "KAAA")),
                        "again");
    assert_string_equal(json_string_value(json_object_get(rec, "KNBA")),
                        "again");       /* key 39 */
    assert_string_equal(json_string_value(json_object_get(rec, "KOBA")),
                        "40");
    assert_string_equal(json_string_value(json_object_get(rec, "Z")),
                        "end");
    /* insertion order: the repeated key keeps its first place */
    assert_string_equal(json_object_iter_key(json_object_iter(rec)), "KAAA");
    rec = json_array_get(j, 1);
    assert_int_equal(json_object_size(rec), 1);
    assert_string_equal(json_string_value(json_object_get(rec, "KAAA")), "y");
    json_decref(j);
    tokio_globuslogs_free(g);
    free(text);
}

/* ---- round trip ----------------------------------------------------- */

static void
test_globuslogs_json_round_trip(void **state)
{
    (void)state;
    struct tokio_globuslogs *g = open_text(log_text), *again = NULL;
    json_t *a = NULL, *b = NULL;
    char *s = NULL, *c1, *c2;

    assert_int_equal(tokio_globuslogs_to_json(g, &a), TOKIO_OK);
    assert_int_equal(tokio_globuslogs_from_json(&again, a), TOKIO_OK);
    assert_int_equal(tokio_globuslogs_to_json(again, &b), TOKIO_OK);
    assert_true(json_equal(a, b));
    c1 = csv_text(g);
    c2 = csv_text(again);
    assert_string_equal(c1, c2);
    json_decref(b);
    tokio_globuslogs_free(again);
    assert_int_equal(tokio_json_dumps(&s, a, TOKIO_JSON_INDENT(4)), TOKIO_OK);
    again = open_text(s);
    assert_int_equal(tokio_globuslogs_to_json(again, &b), TOKIO_OK);
    assert_true(json_equal(a, b));
    free(s);
    free(c1);
    free(c2);
    json_decref(a);
    json_decref(b);
    tokio_globuslogs_free(again);
    tokio_globuslogs_free(g);
}

static void
test_globuslogs_from_json_rejects_bad_shapes(void **state)
{
    (void)state;
    static const struct {
        const char *json, *msg;
    } cases[] = {
        { "{}", "not a list" },
        { "[1]", "record 0 is not an object" },
        { "[{}, {\"A\": null}]", "record 1: 'A' is not a string" },
        { "[{\"A\": [1]}]", "record 0: 'A'" },
        { "[{\"A\": {}}]", "record 0: 'A'" },
        { "[{\"A\": true}]", "record 0: 'A'" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_globuslogs *g = (struct tokio_globuslogs *)1;
        json_t *j = json_loads(cases[i].json, 0, NULL);
        assert_non_null(j);
        assert_int_equal(tokio_globuslogs_from_json(&g, j), TOKIO_EFORMAT);
        assert_null(g);
        assert_contains(tokio_errmsg(), cases[i].msg);
        json_decref(j);
    }
}

/* ---- malformed input ------------------------------------------------ */

static void
test_globuslogs_malformed_lines_report_file_and_line(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
    } cases[] = {
        { "A=1\nno pairs here\n", "'t' line 2: 'no pairs here' is not "
          "KEY=VALUE" },
        { "A=1 B=2 trailing words\nABC\n", "'t' line 2: 'ABC' is not "
          "KEY=VALUE" },
        { "\nDATE=2019080909143.927804\n", "'t' line 2: DATE is not a date "
          "YYYYmmddHHMMSS.ffffff: '2019080909143.927804'" },
        { "START=20190809091437\n", "START is not a date" },
        { "START=20190809091437.1234567\n", "START is not a date" },
        { "DATE=20190230091437.5\n", "DATE is not a date" },
        { "DATE=20190809241437.5\n", "DATE is not a date" },
        { "NBYTES=12a\n", "'t' line 1: NBYTES is not an integer: '12a'" },
        { "STREAMS=\n", "STREAMS is not an integer" },
        { "BLOCK=99999999999999999999\n", "BLOCK is not an integer" },
        { "A=\xc3\n", "'t' line 1: invalid UTF-8" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_globuslogs *g = (struct tokio_globuslogs *)1;
        int rc = tokio_globuslogs_open_mem(&g, cases[i].text,
                                           strlen(cases[i].text), "t");
        if (rc != TOKIO_EFORMAT)
            fail_msg("case %zu: status %d (%s)", i, rc, tokio_errmsg());
        assert_null(g);
        assert_contains(tokio_errmsg(), cases[i].msg);
    }
}

static void
test_globuslogs_nul_byte_and_bad_json(void **state)
{
    (void)state;
    static const char text[] = "A=1\nB=\0\n";
    struct tokio_globuslogs *g = NULL;

    assert_int_equal(tokio_globuslogs_open_mem(&g, text, sizeof(text) - 1,
                                               "n"), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'n' line 2: NUL byte");
    assert_int_equal(tokio_globuslogs_open_mem(&g, "[\n{,}]", 6, "j"),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'j' line 2");
    assert_int_equal(tokio_globuslogs_open_mem(&g, "[5]", 3, "j"),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'j'");
    assert_contains(tokio_errmsg(), "record 0 is not an object");
}

static void
test_globuslogs_missing_file_is_eio(void **state)
{
    (void)state;
    struct tokio_globuslogs *g = NULL;

    assert_int_equal(tokio_globuslogs_open(&g, "/nonexistent/globus.log"),
                     TOKIO_EIO);
    assert_null(g);
    assert_contains(tokio_errmsg(), "/nonexistent/globus.log");
}

/* ---- out of memory -------------------------------------------------- */

static int
open_trial(void *ctx)
{
    struct tokio_globuslogs *g = NULL;
    int rc = tokio_globuslogs_open_mem(&g, ctx, strlen(ctx), "t");

    if (rc < 0)
        assert_null(g);
    tokio_globuslogs_free(g);
    return rc;
}

static void
test_globuslogs_open_survives_every_oom(void **state)
{
    (void)state;
    tokio_test_every_oom(open_trial, (void *)log_text, 1);
}

static int
json_trial(void *ctx)
{
    struct tokio_globuslogs *again = NULL;
    json_t *json = NULL;
    int rc = tokio_globuslogs_to_json(ctx, &json);

    if (rc >= 0)
        rc = tokio_globuslogs_from_json(&again, json);
    if (rc < 0)
        assert_null(again);
    json_decref(json);
    tokio_globuslogs_free(again);
    return rc;
}

static int
csv_trial(void *ctx)
{
    FILE *fp = fopen("/dev/null", "w");
    int rc;

    assert_non_null(fp);
    rc = tokio_globuslogs_write_csv(ctx, fp);
    fclose(fp);
    return rc;
}

static void
test_globuslogs_json_and_csv_survive_every_oom(void **state)
{
    (void)state;
    struct tokio_globuslogs *g = open_text(log_text);

    tokio_test_every_oom(json_trial, g, 1);
    tokio_test_every_oom(csv_trial, g, 1);
    tokio_globuslogs_free(g);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_globuslogs_matches_golden),
        cmocka_unit_test(test_globuslogs_fixture_matches_reference),
        cmocka_unit_test(test_globuslogs_csv_matches_pandas),
        cmocka_unit_test(test_globuslogs_csv_quotes_lists_as_python),
        cmocka_unit_test(test_globuslogs_blank_lines_crlf_and_empty_input),
        cmocka_unit_test(test_globuslogs_many_keys_repeats_replace),
        cmocka_unit_test(test_globuslogs_json_round_trip),
        cmocka_unit_test(test_globuslogs_from_json_rejects_bad_shapes),
        cmocka_unit_test(test_globuslogs_malformed_lines_report_file_and_line),
        cmocka_unit_test(test_globuslogs_nul_byte_and_bad_json),
        cmocka_unit_test(test_globuslogs_missing_file_is_eio),
        cmocka_unit_test(test_globuslogs_open_survives_every_oom),
        cmocka_unit_test(test_globuslogs_json_and_csv_survive_every_oom),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
