/*
 * tests/connectors/test_hpss.c - HPSS logs and daily report
 * (src/connectors/hpss.c) against the reference's goldens
 * (golden/pytokio/hpss/, JSON by value), small fixtures of our own whose
 * expected JSON was computed by the reference (pytokio 0.13's from_str()
 * of the same text, json.dumps(sort_keys=True)), round trips, kind
 * detection, CSV, malformed lines and out-of-memory failures.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jansson.h>

#include "tokio/connectors/hpss.h"
#include "tokio/output.h"
#include "core/alloc.h"

#define INPUTS "pytokio-inputs/"
#define GOLDEN "golden/pytokio/hpss/"

/*
 * Fixtures: every record shape (hsi transfer, FU without destination, FR
 * without account, htar with 19 and 18 fields, a skipped application, a
 * time either side of a DST change; FTP's POPN, pftp, ftp, LF commands,
 * a command without direction, a non-ftp line; report tables re-keyed,
 * listed, with a bad timedelta and a typed percentage).
 */
static const char hsi_text[] =
    "Sat Aug 10 00:05:26 2019 dtn01.nersc.gov hsi 57074 31117\tLH\t0\t0.02"
    "\t543608\t12356.7\t4\t/src/a.h5\t/home/p/a.h5\t57074\n"
    "Sat Aug 10 00:05:28 2019 cori02.nersc.gov htar 58888 14301\tcreate\t"
    "LH\t0\t58178668032\t397.20\t146472.0\t/nersc/p/x.tar\t\t5\t58888\n"
    "Sun Aug 11 00:05:14 2019 dtn03.nersc.gov hsi 72820 2204\tFU\t0\t0.00\t"
    "215328\t0.0\t0\t/home/n/x.idx\t\n"
    "Sun Aug 11 00:06:00 2019 dtn03.nersc.gov hsi 72820 2205\tFR\t0\t0.01\t"
    "0\t0.0\t0\t/home/old\t/home/new\t\n"
    "Sun Aug 11 00:07:00 2019 h.edu htar 1 2\tget\tHL\t0\t100\t1.5\t66.7\t/p/y"
    ".tar\t3\t4\n"
    "Sun Aug 11 00:08:00 2019 h.edu pftp 1 2\tblah\n"
    "Sun Mar 10 01:30:00 2019 a.edu hsi 1 3\tHL\t0\t1.000\t10\t0.001\t1\t/x\t/y"
    "\t1\n"
    "Sun Mar 10 03:30:00 2019 a.edu hsi 1 4\tHL\t0\t1\t10\t5\t1\t/x\t/y\t1\n";

static const char ftp_text[] =
    "Mon Dec 31 00:06:46 2018 dtn01-int.nersc.gov /home/o/operator/.che"
    "ck_ftp.25651 b POPN_Cmd r r ftp operator fd 0\n"
    "Mon Dec 31 00:06:46 2018 0.010 dtn01-int.nersc.gov 33 /home/o/x b "
    "o PRTR_Cmd r ftp operator fd 0\n"
    "Mon Feb 4 16:45:04 2019 457.8 sgn.nersc.gov 7184842752 /home/r/y b"
    " o RETR_Cmd r ftp wwwhpss\n"
    "Fri Jul 12 15:32:43 2019 2 gert.nersc.gov 5 /home/n/z b i LFSTO_Cm"
    "d r ftp nickb\n"
    "Fri Jul 12 15:33:00 2019 0.5 gert.nersc.gov 0 /home/n/w b o LIST_C"
    "md r ftp nickb\n"
    "Fri Jul 12 15:34:00 2019 0.5 gert.nersc.gov 0 /home/n/w b o RETR_C"
    "md r sftp nickb\n";

static const char daily_text[] =
    "HPSS Report for Date 2018-08-09\n"
    "\n"
    "Archive : IO Totals by HPSS Client Gateway (UI) Host\n"
    "Host             Users      IO_GB       Ops\n"
    "===============  =====  =========  ========\n"
    "heart               53   148740.6     27991\n"
    "Total               58   178279.2     29685\n"
    "HPSS ACCOUNTING:         224962.6\n"
    "\n"
    "Archive : Largest Users\n"
    "User              App      IO_GB\n"
    "===============  ====  =========\n"
    "user001          gftp    28372.1\n"
    "user002          htar    23733.9\n"
    "\n"
    "Hpss: Migration Purge Report\n"
    "Storage Class              SC  MigFiles         MigTime\n"
    "=========================  ==  ========  ==============\n"
    "Small Disk                  4     52681      0-05:20:07\n"
    "TOTAL                             57860           bogus\n"
    "\n"
    "Archive: Tape Drive Report\n"
    "DriveTyp  Count  Lock%  Mnt%\n"
    "========  =====  =====  =====\n"
    "   T10KB      4    0.5   12.5\n";

static const char hsi_want[] =
    "{\"hsi\": [{\"access_latency_sec\": 0.02, \"access_latency_sec_re"
    "solution\": 0.01, \"account_id\": 57074, \"bytes\": 543608, \"byte"
    "s_sec\": 12356700.0, \"bytes_sec_resolution\": 100.0, \"client_p"
    "id\": 31117, \"cos_id\": 4, \"dest_path\": \"/home/p/a.h5\", \"end_t"
    "imestamp\": 1565420726.0, \"hpss_uid\": 57074, \"opname\": \"LH\", "
    "\"remote_host\": \"dtn01.nersc.gov\", \"return_code\": 0, \"source_"
    "path\": \"/src/a.h5\"}, {\"access_latency_sec\": 0.0, \"access_lat"
    "ency_sec_resolution\": 0.01, \"bytes\": 215328, \"bytes_sec\": 0."
    "0, \"bytes_sec_resolution\": 100.0, \"client_pid\": 2204, \"cos_i"
    "d\": 0, \"end_timestamp\": 1565507114.0, \"hpss_uid\": 72820, \"op"
    "name\": \"FU\", \"remote_host\": \"dtn03.nersc.gov\", \"return_code\""
    ": 0, \"source_path\": \"/home/n/x.idx\"}, {\"access_latency_sec\":"
    " 0.01, \"access_latency_sec_resolution\": 0.01, \"bytes\": 0, \"b"
    "ytes_sec\": 0.0, \"bytes_sec_resolution\": 100.0, \"client_pid\":"
    " 2205, \"cos_id\": 0, \"dest_path\": \"/home/new\", \"end_timestamp"
    "\": 1565507160.0, \"hpss_uid\": 72820, \"opname\": \"FR\", \"remote_"
    "host\": \"dtn03.nersc.gov\", \"return_code\": 0, \"source_path\": \""
    "/home/old\"}, {\"access_latency_sec\": 1.0, \"access_latency_sec"
    "_resolution\": 0.001, \"account_id\": 1, \"bytes\": 10, \"bytes_se"
    "c\": 1.0, \"bytes_sec_resolution\": 1.0, \"client_pid\": 3, \"cos_"
    "id\": 1, \"dest_path\": \"/y\", \"end_timestamp\": 1552210200.0, \"h"
    "pss_uid\": 1, \"opname\": \"HL\", \"remote_host\": \"a.edu\", \"return"
    "_code\": 0, \"source_path\": \"/x\"}, {\"access_latency_sec\": 1.0,"
    " \"access_latency_sec_resolution\": 1.0, \"account_id\": 1, \"byt"
    "es\": 10, \"bytes_sec\": 5000.0, \"bytes_sec_resolution\": 1000.0"
    ", \"client_pid\": 4, \"cos_id\": 1, \"dest_path\": \"/y\", \"end_time"
    "stamp\": 1552213800.0, \"hpss_uid\": 1, \"opname\": \"HL\", \"remote"
    "_host\": \"a.edu\", \"return_code\": 0, \"source_path\": \"/x\"}], \"h"
    "tar\": [{\"account_id\": 58888, \"bytes\": 58178668032, \"bytes_se"
    "c\": 146472.0, \"bytes_sec_resolution\": 0.1, \"client_pid\": 143"
    "01, \"cos_id\": 5, \"duration_sec\": 397.2, \"duration_sec_resolu"
    "tion\": 0.01, \"end_timestamp\": 1565420728.0, \"hpss_path\": \"/n"
    "ersc/p/x.tar\", \"hpss_uid\": 58888, \"htar_op\": \"create\", \"opna"
    "me\": \"LH\", \"remote_ftp_host\": \"\", \"remote_host\": \"cori02.ner"
    "sc.gov\", \"return_code\": 0}, {\"account_id\": 4, \"bytes\": 100, "
    "\"bytes_sec\": 66.7, \"bytes_sec_resolution\": 0.1, \"client_pid\""
    ": 2, \"cos_id\": 3, \"duration_sec\": 1.5, \"duration_sec_resolut"
    "ion\": 0.1, \"end_timestamp\": 1565507220.0, \"hpss_path\": \"/p/y"
    ".tar\", \"hpss_uid\": 1, \"htar_op\": \"get\", \"opname\": \"HL\", \"rem"
    "ote_host\": \"h.edu\", \"return_code\": 0}]}";

static const char ftp_want[] =
    "{\"ftp\": [{\"bytes\": 7184842752, \"duration_sec\": 457.8, \"durat"
    "ion_sec_resolution\": 0.1, \"end_timestamp\": 1549327504.0, \"hp"
    "ss_path\": \"/home/r/y\", \"hpss_uid\": \"wwwhpss\", \"opname\": \"HL\""
    ", \"remote_host\": \"sgn.nersc.gov\"}, {\"bytes\": 0, \"duration_se"
    "c\": 0.5, \"duration_sec_resolution\": 0.1, \"end_timestamp\": 15"
    "62970780.0, \"hpss_path\": \"/home/n/w\", \"hpss_uid\": \"nickb\", \""
    "remote_host\": \"gert.nersc.gov\"}], \"pftp\": [{\"bytes\": 33, \"du"
    "ration_sec\": 0.01, \"duration_sec_resolution\": 0.001, \"end_ti"
    "mestamp\": 1546243606.0, \"hpss_path\": \"/home/o/x\", \"hpss_uid\""
    ": \"operator\", \"opname\": \"HL\", \"remote_host\": \"dtn01-int.ners"
    "c.gov\"}, {\"bytes\": 5, \"duration_sec\": 2.0, \"duration_sec_res"
    "olution\": 1.0, \"end_timestamp\": 1562970763.0, \"hpss_path\": \""
    "/home/n/z\", \"hpss_uid\": \"nickb\", \"opname\": \"LH\", \"remote_hos"
    "t\": \"gert.nersc.gov\"}]}";

static const char daily_want[] =
    "{\"archive\": {\"io totals by hpss client gateway (ui) host\": {"
    "\"heart\": {\"io_gb\": 148740.6, \"ops\": 27991, \"users\": 53}, \"to"
    "tal\": {\"io_gb\": 178279.2, \"ops\": 29685, \"users\": 58}}, \"larg"
    "est users\": [{\"app\": \"gftp\", \"io_gb\": 28372.1, \"user\": \"user"
    "001\"}, {\"app\": \"htar\", \"io_gb\": 23733.9, \"user\": \"user002\"}]"
    ", \"tape drive report\": [{\"count\": 4, \"drivetyp\": \"t10kb\", \"l"
    "ock%\": 0.5, \"mnt%\": \"12.5\"}]}, \"hpss\": {\"migration purge rep"
    "ort\": {\"\": {\"migfiles\": 57860, \"migtime\": \"bogus\", \"migtimes"
    "ecs\": -1, \"storage class\": \"total\"}, \"4\": {\"migfiles\": 52681"
    ", \"migtime\": \"0-05:20:07\", \"migtimesecs\": 19207, \"storage cl"
    "ass\": \"small disk\"}}}}";

/*
 * A report whose tables repeat a column name (the later cell wins, the
 * key keeps its first place, as in a dict; a time span's "secs" key too),
 * store a title twice (the later table replaces the first in its place)
 * and are wide (60 keys before merging); expected JSON computed by the
 * reference as above.
 */
static const char dup_text[] =
    "HPSS Report for Date 2018-08-09\n\nHpss : Largest Users\nUser  I"
    "O_GB\n====  =====\nu1      1.5\n\nArchive : Replaced\nName   Ops"
    "\n=====  ===\nfirst    1\n\nArchive : Dup Columns\nName   Ops  N"
    "ame   MigTime     MigTimeSecs\n=====  ===  =====  ==========  =="
    "=========\na        1  B      0-00:00:10            x\nc        "
    "2  d      0-00:01:00            y\n\nArchive : Replaced\nName   "
    "Ops\n=====  ===\nz        9\n\nHpss : Wide\nMigTime     X    Pur"
    "geTime   MigTime     X    PurgeTime   MigTime     X    PurgeTime"
    "   MigTime     X    PurgeTime   MigTime     X    PurgeTime   Mig"
    "Time     X    PurgeTime   MigTime     X    PurgeTime   MigTime  "
    "   X    PurgeTime   MigTime     X    PurgeTime   MigTime     X  "
    "  PurgeTime   MigTime     X    PurgeTime   MigTime     X    Purg"
    "eTime\n==========  ===  ==========  ==========  ===  ========== "
    " ==========  ===  ==========  ==========  ===  ==========  ====="
    "=====  ===  ==========  ==========  ===  ==========  ========== "
    " ===  ==========  ==========  ===  ==========  ==========  ===  "
    "==========  ==========  ===  ==========  ==========  ===  ======"
    "====  ==========  ===  ==========\n0-00:00:00  x0   1-00:00:00  "
    "0-00:00:01  x1   1-00:00:01  0-00:00:02  x2   1-00:00:02  0-00:0"
    "0:03  x3   1-00:00:03  0-00:00:04  x4   1-00:00:04  0-00:00:05  "
    "x5   1-00:00:05  0-00:00:06  x6   1-00:00:06  0-00:00:07  x7   1"
    "-00:00:07  0-00:00:08  x8   1-00:00:08  0-00:00:09  x9   1-00:00"
    ":09  0-00:00:10  x10  1-00:00:10  0-00:00:11  x11  1-00:00:11\n0"
    "-00:01:00  y0   bogus       0-00:01:01  y1   bogus       0-00:01"
    ":02  y2   bogus       0-00:01:03  y3   bogus       0-00:01:04  y"
    "4   bogus       0-00:01:05  y5   bogus       0-00:01:06  y6   bo"
    "gus       0-00:01:07  y7   bogus       0-00:01:08  y8   bogus   "
    "    0-00:01:09  y9   bogus       0-00:01:10  y10  bogus       0-"
    "00:01:11  y11  bogus     \n\nend\nend\nend\n";

static const char dup_want[] =
    "{\"archive\": {\"dup columns\": [{\"migtime\": \"0-00:00:10\", \""
    "migtimesecs\": \"x\", \"name\": \"b\", \"ops\": 1}, {\"migtime\""
    ": \"0-00:01:00\", \"migtimesecs\": \"y\", \"name\": \"d\", \"ops"
    "\": 2}], \"replaced\": [{\"name\": \"z\", \"ops\": 9}]}, \"hpss\""
    ": {\"largest users\": [{\"io_gb\": 1.5, \"user\": \"u1\"}], \"wi"
    "de\": [{\"migtime\": \"0-00:00:11\", \"migtimesecs\": 11, \"purg"
    "etime\": \"1-00:00:11\", \"purgetimesecs\": 86411, \"x\": \"x11\""
    "}, {\"migtime\": \"0-00:01:11\", \"migtimesecs\": 71, \"purgetim"
    "e\": \"bogus\", \"purgetimesecs\": -1, \"x\": \"y11\"}]}}";

static struct tokio_hpss *
open_text(const char *text, enum tokio_hpss_kind kind)
{
    struct tokio_hpss *h = NULL;

    if (tokio_hpss_open_mem(&h, text, strlen(text), "t", kind) != TOKIO_OK)
        fail_msg("open: %s", tokio_errmsg());
    assert_non_null(h);
    return h;
}

/* Fail unless the handle's JSON equals `want` by value. */
static void
assert_json(const struct tokio_hpss *h, const char *want)
{
    json_t *ours = NULL, *w = json_loads(want, 0, NULL);

    assert_non_null(w);
    assert_int_equal(tokio_hpss_to_json(h, &ours), TOKIO_OK);
    if (!json_equal(ours, w)) {
        char *s = json_dumps(ours, JSON_SORT_KEYS);
        fail_msg("JSON differs:\n%s\nwant\n%s", s, want);
    }
    json_decref(ours);
    json_decref(w);
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

static void
test_hpss_hsi_fixture_matches_reference(void **state)
{
    (void)state;
    struct tokio_hpss *h = open_text(hsi_text, TOKIO_HPSS_AUTO);

    assert_int_equal(tokio_hpss_kind(h), TOKIO_HPSS_HSI);
    assert_json(h, hsi_want);
    assert_int_equal(tokio_hpss_count(h, "hsi"), 5);
    assert_int_equal(tokio_hpss_count(h, "htar"), 2);
    tokio_hpss_free(h);
}

static void
test_hpss_ftp_fixture_matches_reference(void **state)
{
    (void)state;
    struct tokio_hpss *h = open_text(ftp_text, TOKIO_HPSS_AUTO);

    assert_int_equal(tokio_hpss_kind(h), TOKIO_HPSS_FTP);
    assert_json(h, ftp_want);
    tokio_hpss_free(h);
}

static void
test_hpss_daily_fixture_matches_reference(void **state)
{
    (void)state;
    struct tokio_hpss *h = open_text(daily_text, TOKIO_HPSS_AUTO);

    assert_int_equal(tokio_hpss_kind(h), TOKIO_HPSS_DAILY);
    assert_string_equal(tokio_hpss_report_date(h), "2018-08-09");
    assert_json(h, daily_want);
    tokio_hpss_free(h);
}

static void
test_hpss_daily_repeated_columns_and_titles(void **state)
{
    (void)state;
    struct tokio_hpss *h = open_text(dup_text, TOKIO_HPSS_DAILY);
    json_t *json = NULL, *row;
    const char *key;
    const json_t *v;
    static const char *const order[] = { "name", "ops", "migtime",
                                         "migtimesecs" };
    size_t i = 0;

    assert_json(h, dup_want);
    /* keys in first-insertion order, as the reference's dicts */
    assert_int_equal(tokio_hpss_to_json(h, &json), TOKIO_OK);
    row = json_array_get(json_object_get(json_object_get(json, "archive"),
                                         "dup columns"), 0);
    assert_non_null(row);
    json_object_foreach(row, key, v) {
        assert_true(i < 4);
        assert_string_equal(key, order[i++]);
    }
    assert_int_equal(i, 4);
    json_object_foreach(json_object_get(json, "archive"), key, v) {
        assert_string_equal(key, "replaced");
        break;
    }
    json_decref(json);
    tokio_hpss_free(h);
}

/* A cell cut inside a UTF-8 character (columns are byte offsets here,
 * characters in the reference) is refused, naming the line. */
static void
test_hpss_daily_cell_cutting_a_character(void **state)
{
    (void)state;
    static const char cell[] = "HPSS Report for Date 2018-08-09\n\n"
        "A: T\nNm  Ops\n==  ===\na\xc3\xa9   5\n\nend\nend\nend\n";
    static const char head[] = "HPSS Report for Date 2018-08-09\n\n"
        "A: T\nN\xc3\xa9  Ops\n==  ===\nab    5\n\nend\nend\nend\n";
    struct tokio_hpss *h = NULL;

    assert_int_equal(tokio_hpss_open_mem(&h, cell, strlen(cell), "u",
                                         TOKIO_HPSS_DAILY), TOKIO_EFORMAT);
    assert_null(h);
    assert_contains(tokio_errmsg(), "'u' line 6: column 'nm' cuts a UTF-8 "
                    "character");
    assert_int_equal(tokio_hpss_open_mem(&h, head, strlen(head), "u",
                                         TOKIO_HPSS_DAILY), TOKIO_EFORMAT);
    assert_null(h);
    assert_contains(tokio_errmsg(), "'u' line 4: a column heading cuts a "
                    "UTF-8 character");
}

/* Dates are local times of $TZ: a change of TZ between two reads is seen
 * (the days cache outlives a read). */
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

/* Blank lines, gzip input, CRLF line ends do not change the records. */
static void
test_hpss_blank_lines_and_crlf_are_ignored(void **state)
{
    (void)state;
    size_t n = strlen(hsi_text);
    char *text = malloc(2 * n + 8), *p = text;

    assert_non_null(text);
    *p++ = '\n';
    for (const char *s = hsi_text; *s; s++) {
        if (*s == '\n') {
            *p++ = '\r';
            *p++ = '\n';
            *p++ = ' ';
            *p++ = '\n';
        } else {
            *p++ = *s;
        }
    }
    *p = '\0';
    struct tokio_hpss *h = open_text(text, TOKIO_HPSS_HSI);
    assert_json(h, hsi_want);
    tokio_hpss_free(h);
    free(text);
}

/* ---- round trips ---------------------------------------------------- */

static void
round_trip(const char *text)
{
    struct tokio_hpss *h = open_text(text, TOKIO_HPSS_AUTO), *again = NULL;
    json_t *a = NULL, *b = NULL;
    char *s;

    assert_int_equal(tokio_hpss_to_json(h, &a), TOKIO_OK);
    assert_int_equal(tokio_hpss_from_json(&again, a, TOKIO_HPSS_AUTO),
                     TOKIO_OK);
    assert_int_equal(tokio_hpss_kind(again), tokio_hpss_kind(h));
    assert_int_equal(tokio_hpss_to_json(again, &b), TOKIO_OK);
    assert_true(json_equal(a, b));
    json_decref(b);
    tokio_hpss_free(again);
    /* and through the written text, as a file would hold it */
    assert_int_equal(tokio_json_dumps(&s, a, TOKIO_JSON_INDENT(4)),
                     TOKIO_OK);
    again = open_text(s, TOKIO_HPSS_AUTO);
    assert_int_equal(tokio_hpss_to_json(again, &b), TOKIO_OK);
    assert_true(json_equal(a, b));
    free(s);
    json_decref(a);
    json_decref(b);
    tokio_hpss_free(again);
    tokio_hpss_free(h);
}

/* tokio_hpss_write_json() writes, byte for byte, what tokio_json_write()
 * makes of tokio_hpss_to_json()'s tree, for each layout: logs and daily
 * reports (repeated columns, replaced tables, rows keyed by a column). */
static int
write_json(const void *h, FILE *fp, unsigned flags)
{
    return tokio_hpss_write_json(h, fp, flags);
}

static void
assert_write_json_matches_tree(const struct tokio_hpss *h)
{
    static const unsigned flags[] = {
        TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4), TOKIO_JSON_SORT_KEYS,
        TOKIO_JSON_INDENT(4),
    };
    json_t *tree = NULL;

    assert_int_equal(tokio_hpss_to_json(h, &tree), TOKIO_OK);
    tokio_test_assert_writes_tree(write_json, h, tree, flags,
                                  sizeof(flags) / sizeof(flags[0]));
    json_decref(tree);
}

static void
test_hpss_write_json_matches_tree(void **state)
{
    (void)state;
    const char *texts[] = { hsi_text, ftp_text, daily_text, dup_text };
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        struct tokio_hpss *h = open_text(texts[i], TOKIO_HPSS_AUTO), *again;
        json_t *j = NULL;
        assert_write_json_matches_tree(h);
        /* and read back from its JSON */
        assert_int_equal(tokio_hpss_to_json(h, &j), TOKIO_OK);
        assert_int_equal(tokio_hpss_from_json(&again, j, TOKIO_HPSS_AUTO),
                         TOKIO_OK);
        assert_write_json_matches_tree(again);
        tokio_hpss_free(again);
        json_decref(j);
        tokio_hpss_free(h);
    }
    /* an empty log: "{}" */
    struct tokio_hpss *h = NULL;
    json_t *empty = json_object();
    assert_int_equal(tokio_hpss_from_json(&h, empty, TOKIO_HPSS_AUTO),
                     TOKIO_OK);
    json_decref(empty);
    assert_int_equal(tokio_hpss_kind(h), TOKIO_HPSS_HSI);
    assert_write_json_matches_tree(h);
    /* a stream that takes no writes */
    FILE *ro = fopen("/dev/null", "r");
    assert_non_null(ro);
    assert_int_equal(tokio_hpss_write_json(h, ro, TOKIO_JSON_SORT_KEYS),
                     TOKIO_EIO);
    fclose(ro);
    tokio_hpss_free(h);
    /* the pack's logs */
    static const char *const inputs[] = {
        INPUTS "hsilog.txt.gz", INPUTS "hpssftplog.txt.gz",
        INPUTS "hpss_daily.txt",
    };
    for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
        const char *path = tokio_test_data(inputs[i]);
        if (path == NULL)
            continue;   /* the goldens' tests say it is absent */
        h = NULL;
        assert_int_equal(tokio_hpss_open(&h, path, TOKIO_HPSS_AUTO),
                         TOKIO_OK);
        assert_write_json_matches_tree(h);
        tokio_hpss_free(h);
    }
}

static void
test_hpss_json_round_trips(void **state)
{
    (void)state;
    round_trip(hsi_text);
    round_trip(ftp_text);
    round_trip(daily_text);
}

static void
test_hpss_from_json_rejects_bad_shapes(void **state)
{
    (void)state;
    static const struct {
        const char *json;
        enum tokio_hpss_kind kind;
        const char *msg;
    } cases[] = {
        { "[]", TOKIO_HPSS_AUTO, "not an object" },
        { "{\"hsi\": {}}", TOKIO_HPSS_AUTO, "'hsi' is not a list" },
        { "{\"hsi\": [1]}", TOKIO_HPSS_AUTO, "hsi record 0 is not an object" },
        { "{\"hsi\": [{\"bogus\": 1}]}", TOKIO_HPSS_AUTO,
          "unknown field 'bogus'" },
        { "{\"hsi\": [{\"bytes\": \"x\"}]}", TOKIO_HPSS_AUTO,
          "'bytes' is not an integer" },
        { "{\"ftp\": [{\"hpss_uid\": 5}]}", TOKIO_HPSS_AUTO,
          "'hpss_uid' is not a string" },
        { "{\"htar\": [{\"duration_sec\": null}]}", TOKIO_HPSS_AUTO,
          "'duration_sec' is not a number" },
        { "{\"ftp\": []}", TOKIO_HPSS_HSI, "'ftp' is not a list of hsi" },
        { "{\"archive\": []}", TOKIO_HPSS_AUTO, "system 'archive' is not" },
        { "{\"a\": {\"t\": [{\"x\": [1]}]}}", TOKIO_HPSS_AUTO,
          "table 'a : t'" },
        { "{\"a\": {\"t\": 5}}", TOKIO_HPSS_AUTO, "table 'a : t'" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_hpss *h = (struct tokio_hpss *)1;
        json_t *j = json_loads(cases[i].json, 0, NULL);
        assert_non_null(j);
        assert_int_equal(tokio_hpss_from_json(&h, j, cases[i].kind),
                         TOKIO_EFORMAT);
        assert_null(h);
        assert_contains(tokio_errmsg(), cases[i].msg);
        json_decref(j);
    }
}

/* ---- kinds and CSV -------------------------------------------------- */

static void
test_hpss_kind_detection(void **state)
{
    (void)state;
    struct tokio_hpss *h = NULL;

    /* the empty object is an empty HSI log; empty text is refused */
    h = open_text("{}", TOKIO_HPSS_AUTO);
    assert_int_equal(tokio_hpss_kind(h), TOKIO_HPSS_HSI);
    tokio_hpss_free(h);
    h = open_text("\n\n", TOKIO_HPSS_FTP);
    assert_int_equal(tokio_hpss_kind(h), TOKIO_HPSS_FTP);
    assert_int_equal(tokio_hpss_count(h, "ftp"), 0);
    tokio_hpss_free(h);
    assert_int_equal(tokio_hpss_open_mem(&h, "\n", 1, "e", TOKIO_HPSS_AUTO),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'e' holds no HPSS records");
    assert_int_equal(tokio_hpss_open_mem(&h, "hello world\n", 12, "w",
                                         TOKIO_HPSS_AUTO), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'w' line 1: not an HPSS");
    assert_null(h);
    /* an explicit kind wins over the content's look */
    assert_int_equal(tokio_hpss_open_mem(&h, hsi_text, strlen(hsi_text), "x",
                                         TOKIO_HPSS_DAILY), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "no 'HPSS Report for Date' line");
}

static void
test_hpss_csv_of_logs_and_report(void **state)
{
    (void)state;
    struct tokio_hpss *h = open_text(ftp_text, TOKIO_HPSS_AUTO);
    char *csv = csv_text(h);

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
    tokio_hpss_free(h);

    h = open_text(daily_text, TOKIO_HPSS_DAILY);
    csv = csv_text(h);
    assert_contains(csv, "system,table,row,column,value\n"
                    "archive,io totals by hpss client gateway (ui) host,"
                    "heart,users,53\n");
    assert_contains(csv, "archive,largest users,1,io_gb,23733.9\n");
    assert_contains(csv, "hpss,migration purge report,,migtimesecs,-1\n");
    assert_contains(csv, "archive,tape drive report,0,mnt%,12.5\n");
    free(csv);
    tokio_hpss_free(h);

    h = open_text(hsi_text, TOKIO_HPSS_HSI);
    csv = csv_text(h);
    assert_contains(csv, "\nhtar,,,58888,58178668032,146472.0,0.1,14301,5,,"
                    "397.2,0.01,1565420728.0,/nersc/p/x.tar,58888,create,"
                    "LH,,cori02.nersc.gov,0,\n");
    free(csv);
    tokio_hpss_free(h);
}

/* ---- malformed input ------------------------------------------------ */

#define HSI_OK "Sat Aug 10 00:05:26 2019 h hsi 1 2\tLH\t0\t0.02\t5\t1.0" \
               "\t4\t/a\t/b\t7\n"

static void
test_hpss_malformed_lines_report_file_and_line(void **state)
{
    (void)state;
    static const struct {
        enum tokio_hpss_kind kind;
        const char *text;
        const char *msg;
    } cases[] = {
        { TOKIO_HPSS_HSI, HSI_OK "Sat Aug 10 00:05:26 2019 h hsi 1 2\tLH\n",
          "'t' line 2: hsi line has 10 fields, expected at least 18" },
        { TOKIO_HPSS_HSI, HSI_OK HSI_OK "a b c\n",
          "'t' line 3: not an HSI/HTAR line" },
        { TOKIO_HPSS_HSI, "Sat Aug 10 00:05:26 2019 h hsi\n",
          "'t' line 1: hsi line has 7 fields, expected at least 16" },
        { TOKIO_HPSS_HSI, "Sat Aug 10 00:05:26 2019 h hsi 1 x\tLH\t0\t0.02"
          "\t5\t1.0\t4\t/a\t/b\t7\n", "'t' line 1: client_pid is not an "
          "integer: 'x'" },
        { TOKIO_HPSS_HSI, "Sat Aug 10 00:05:26 2019 h hsi 1 2\tLH\t0\t0.0.2"
          "\t5\t1.0\t4\t/a\t/b\t7\n", "'t' line 1: access_latency_sec is "
          "not a finite number: '0.0.2'" },
        { TOKIO_HPSS_HSI, "Sat Aug 10 00:05:26 2019 h hsi 1 2\tLH\t0\tnan"
          "\t5\t1.0\t4\t/a\t/b\t7\n", "not a finite number: 'nan'" },
        { TOKIO_HPSS_HSI, "Sat Aug 10 00:05:26 2019 h hsi 1 2\tLH\t0\t1"
          "\t99999999999999999999\t1.0\t4\t/a\t/b\t7\n",
          "bytes is not an integer" },
        { TOKIO_HPSS_HSI, "Sat Feb 30 00:05:26 2019 h hsi 1 2\tLH\t0\t1"
          "\t5\t1.0\t4\t/a\t/b\t7\n", "'t' line 1: bad date 'Sat Feb 30" },
        { TOKIO_HPSS_HSI, "Sat Aug 10 24:05:26 2019 h hsi 1 2\tLH\t0\t1"
          "\t5\t1.0\t4\t/a\t/b\t7\n", "bad date" },
        { TOKIO_HPSS_HSI, "Xyz Aug 10 00:05:26 2019 h htar 1 2\tc\tLH\t0\t1"
          "\t5\t1.0\t/a\t4\t7\n", "'t' line 1: bad date" },
        { TOKIO_HPSS_HSI, "Sat Aug 10 00:05:26 2019 h htar 1 2\tc\tLH\t0\t1"
          "\t5\t1.0\t/a\tx\t7\n", "cos_id is not an integer: 'x'" },
        { TOKIO_HPSS_FTP, "Mon Dec 31 00:06:46 2018 1.0 h 33 /x b o\n",
          "'t' line 1: FTP line has 11 fields, expected at least 12" },
        { TOKIO_HPSS_FTP, "Mon Dec 31 00:06:46 2018 1.0 h 33 /x b o RETR_Cmd"
          " r\n", "FTP line has 13 fields, expected at least 14" },
        { TOKIO_HPSS_FTP, "Mon Dec 31 00:06:46 2018 1.0 h 33 /x b o RETR_Cmd"
          " r ftp\n", "FTP transfer line has 14 fields, expected at least "
          "15" },
        { TOKIO_HPSS_FTP, "Mon Dec 31 99:06:46 2018 1.0 h 33 /x b o RETR_Cmd"
          " r ftp u\n", "'t' line 1: bad date in FTP line" },
        { TOKIO_HPSS_FTP, "Mon Dec 31 00:06:46 2018 1.0 h 3x /x b o RETR_Cmd"
          " r ftp u\n", "'t' line 1: bytes is not an integer: '3x'" },
        { TOKIO_HPSS_FTP, "Mon Dec 31 00:06:46 2018 1.0e h 3 /x b o RETR_Cmd"
          " r ftp u\n", "duration is not a finite number" },
        { TOKIO_HPSS_FTP, "Mon Dec 31 00:06:46 2018 1.0 h 3 /x\xff b o "
          "RETR_Cmd r ftp u\n", "'t' line 1: invalid UTF-8" },
        { TOKIO_HPSS_DAILY, "no date here\n",
          "'t': no 'HPSS Report for Date' line" },
        { TOKIO_HPSS_DAILY, "\nHPSS Report\xff for Date 2018-08-09\n",
          "'t' line 2: invalid UTF-8" },
        { TOKIO_HPSS_DAILY, "HPSS Report for Date 2018-08-09\n\nA\xc3: T\n",
          "'t' line 3: invalid UTF-8" },
        { TOKIO_HPSS_DAILY, "\nHPSS Report for Date 2018-02-30\n",
          "'t' line 2: bad report date '2018-02-30'" },
        { TOKIO_HPSS_DAILY, "HPSS Report for Date 2018-08-09\n\nA: T\n"
          "Users  IO_GB\n=====  =====\n   5    x.y\n",
          "'t' line 6: column 'io_gb' is not a number: 'x.y'" },
        { TOKIO_HPSS_DAILY, "HPSS Report for Date 2018-08-09\n\nA: T\n"
          "Users  IO_GB\n=====  =====\n  5.    1.0\n",
          "'t' line 6: column 'users' is not an integer: '5.'" },
        { TOKIO_HPSS_DAILY, "HPSS Report for Date 2018-08-09\n\n"
          "A: IO Totals by Client Host\nHost   IO_GB\n=====  =====\n"
          "x        1.0\nx        2.0\n",
          "'t': table 'a : io totals by client host' repeats column 'host' "
          "value x" },
        { TOKIO_HPSS_DAILY, "HPSS Report for Date 2018-08-09\n\n"
          "A: IO Totals by Client Host\nName   IO_GB\n=====  =====\n"
          "x        1.0\n", "lacks column 'host'" },
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

static void
test_hpss_nul_byte_is_format_error(void **state)
{
    (void)state;
    static const char text[] = HSI_OK "Sat Aug 10\0 00:05:26\n";
    struct tokio_hpss *h = NULL;

    assert_int_equal(tokio_hpss_open_mem(&h, text, sizeof(text) - 1, "n",
                                         TOKIO_HPSS_HSI), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'n' line 2: NUL byte");
}

static void
test_hpss_bad_json_names_line(void **state)
{
    (void)state;
    struct tokio_hpss *h = NULL;

    assert_int_equal(tokio_hpss_open_mem(&h, "{\n\"hsi\": [,]}", 13, "j",
                                         TOKIO_HPSS_AUTO), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'j' line 2");
    assert_int_equal(tokio_hpss_open_mem(&h, "{\"hsi\": 5}", 10, "j",
                                         TOKIO_HPSS_AUTO), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'j'");
    assert_contains(tokio_errmsg(), "'hsi' is not a list");
}

static void
test_hpss_missing_file_is_eio(void **state)
{
    (void)state;
    struct tokio_hpss *h = NULL;

    assert_int_equal(tokio_hpss_open(&h, "/nonexistent/hsi.log",
                                     TOKIO_HPSS_AUTO), TOKIO_EIO);
    assert_null(h);
    assert_contains(tokio_errmsg(), "/nonexistent/hsi.log");
}

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
    char *text = malloc(n + 128), *p = text;
    struct tokio_hpss *h = NULL;

    assert_non_null(text);
    p += sprintf(p, "HPSS Report for Date 2018-08-09\n");
    memset(p, '\n', n);
    p += n;
    p += sprintf(p, "A : T\nX\n=\nv\n");
    assert_int_equal(tokio_hpss_open_mem(&h, text, (size_t)(p - text), "b",
                                         TOKIO_HPSS_DAILY), TOKIO_OK);
    assert_json(h, "{\"a\": {\"t\": [{\"x\": \"v\"}]}}");
    tokio_hpss_free(h);
    free(text);
}

/* ---- out of memory -------------------------------------------------- */

static int
open_trial(void *ctx)
{
    struct tokio_hpss *h = NULL;
    int rc = tokio_hpss_open_mem(&h, ctx, strlen(ctx), "t", TOKIO_HPSS_AUTO);

    if (rc < 0)
        assert_null(h);
    tokio_hpss_free(h);
    return rc;
}

static void
test_hpss_open_survives_every_oom(void **state)
{
    (void)state;
    tokio_test_every_oom(open_trial, (void *)hsi_text, 1);
    tokio_test_every_oom(open_trial, (void *)ftp_text, 1);
    tokio_test_every_oom(open_trial, (void *)daily_text, 1);
    tokio_test_every_oom(open_trial, (void *)dup_text, 1);
    /* JSON text is not swept: jansson's lexer ignores a failed append
     * and can read a key with a byte missing; json_trial() covers
     * building from JSON */
}

static int
json_trial(void *ctx)
{
    struct tokio_hpss *again = NULL;
    json_t *json = NULL;
    int rc = tokio_test_write_to_null(write_json, ctx);

    if (rc >= 0)
        rc = tokio_hpss_to_json(ctx, &json);
    if (rc >= 0)
        rc = tokio_hpss_from_json(&again, json, TOKIO_HPSS_AUTO);
    if (rc < 0)
        assert_null(again);
    json_decref(json);
    tokio_hpss_free(again);
    return rc;
}

static void
test_hpss_json_survives_every_oom(void **state)
{
    (void)state;
    struct tokio_hpss *h = open_text(hsi_text, TOKIO_HPSS_AUTO);

    tokio_test_every_oom(json_trial, h, 1);
    tokio_hpss_free(h);
    h = open_text(daily_text, TOKIO_HPSS_AUTO);
    tokio_test_every_oom(json_trial, h, 1);
    tokio_hpss_free(h);
    h = open_text(dup_text, TOKIO_HPSS_AUTO);
    tokio_test_every_oom(json_trial, h, 1);
    tokio_hpss_free(h);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hpss_daily_report_matches_golden),
        cmocka_unit_test(test_hpss_hsi_log_matches_golden),
        cmocka_unit_test(test_hpss_ftp_log_matches_golden),
        cmocka_unit_test(test_hpss_sample_counts),
        cmocka_unit_test(test_hpss_hsi_fixture_matches_reference),
        cmocka_unit_test(test_hpss_ftp_fixture_matches_reference),
        cmocka_unit_test(test_hpss_daily_fixture_matches_reference),
        cmocka_unit_test(test_hpss_daily_repeated_columns_and_titles),
        cmocka_unit_test(test_hpss_daily_cell_cutting_a_character),
        cmocka_unit_test(test_hpss_follows_tz_changes),
        cmocka_unit_test(test_hpss_blank_lines_and_crlf_are_ignored),
        cmocka_unit_test(test_hpss_json_round_trips),
        cmocka_unit_test(test_hpss_write_json_matches_tree),
        cmocka_unit_test(test_hpss_from_json_rejects_bad_shapes),
        cmocka_unit_test(test_hpss_kind_detection),
        cmocka_unit_test(test_hpss_csv_of_logs_and_report),
        cmocka_unit_test(test_hpss_malformed_lines_report_file_and_line),
        cmocka_unit_test(test_hpss_nul_byte_is_format_error),
        cmocka_unit_test(test_hpss_bad_json_names_line),
        cmocka_unit_test(test_hpss_missing_file_is_eio),
        cmocka_unit_test(test_hpss_overlapping_tables_are_refused),
        cmocka_unit_test(test_hpss_many_blank_lines_are_linear),
        cmocka_unit_test(test_hpss_open_survives_every_oom),
        cmocka_unit_test(test_hpss_json_survives_every_oom),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
