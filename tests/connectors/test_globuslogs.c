/*
 * tests/connectors/test_globuslogs.c - Globus GridFTP transfer logs
 * (src/connectors/globuslogs.c) against the reference's golden
 * (golden/pytokio/globuslogs/, JSON by value), a fixture of our own whose
 * expected JSON and CSV were computed by the reference (pytokio 0.13's
 * GlobusLog.from_str() of the same text; pandas 1.5's
 * DataFrame(...).to_csv()), round trips and the CSV under out-of-memory
 * failures.  Malformed logs, the JSON form's bad shapes and opening
 * under failed allocations are in tests/connectors/globuslogs/ for
 * test_connectors.
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

/* Integers as Python's int() reads them: white space, a sign, single
 * underscores between digits. */
static void
test_globuslogs_integers_as_python_int(void **state)
{
    (void)state;
    struct tokio_globuslogs *g = open_text(
        "NBYTES= 1_000  BLOCK=+5 STREAMS=-0 BUFFER=007 STRIPES=\t9\n");

    assert_json(g, "[{\"NBYTES\": 1000, \"BLOCK\": 5, \"STREAMS\": 0, "
                "\"BUFFER\": 7, \"STRIPES\": 9}]");
    tokio_globuslogs_free(g);
}

/*
 * A line of many distinct keys with some repeated: the last value wins,
 * in the first place, as in a dict; a later short line starts clean.
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

/* ---- out of memory -------------------------------------------------- */

/* Reading the JSON form back: the generic loop's out-of-memory sweep of
 * a JSON fixture ends early, at jansson's first token of 16 bytes or
 * more (jansson 2.14 carries on when growing its token buffer fails). */
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
        cmocka_unit_test(test_globuslogs_integers_as_python_int),
        cmocka_unit_test(test_globuslogs_many_keys_repeats_replace),
        cmocka_unit_test(test_globuslogs_json_round_trip),
        cmocka_unit_test(test_globuslogs_json_and_csv_survive_every_oom),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
