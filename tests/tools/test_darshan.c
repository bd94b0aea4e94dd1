/*
 * tests/tools/test_darshan.c - finding Darshan logs and reading their
 * names (src/tools/darshan.c: the reference's tokio.tools.darshan and
 * tokio.connectors.darshan.parse_filename_metadata).
 *
 * First the name parser: the reference's case, the pack's log names, then
 * the corners of its regular expression.  Then every find_darshanlogs()
 * query of the reference's tests/test_tools_darshan.py, run as it runs
 * them: from a folder where `inputs` is its test inputs, with its
 * site.json.  Then our own tree in a temporary folder, so the finder is
 * covered without the pack: layouts, patterns, errors, allocation
 * failures.
 *
 * ctest runs this with TZ=America/Los_Angeles.
 */
#include "testutil.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "core/alloc.h"
#include "tokio/config.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_json.h"
#include "tokio/connectors/darshan_writer.h"
#include "tokio/time.h"
#include "tokio/tools/common.h"
#include "tokio/tools/darshan.h"

#define LOG_DIR "inputs/darshanlogs"
#define LOG_0320_DBSCAN LOG_DIR "/2017/3/20/glock_dbscan_read_id4478544_" \
    "3-20-7800-15217972833987807816_1.darshan"
#define LOG_0320_VPICIO LOG_DIR "/2017/3/20/glock_vpicio_uni_id4478544_" \
    "3-20-7667-18385393005962577517_1.darshan"
#define LOG_0321_DBSCAN LOG_DIR "/2017/3/21/glock_dbscan_read_id4487503_" \
    "3-21-14554-2400062619352127555_1.darshan"
#define LOG_0321_VPICIO LOG_DIR "/2017/3/21/glock_vpicio_uni_id4487503_" \
    "3-21-14391-1931100114561819213_1.darshan"

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

static void
expect_name(const char *name, const char *user, const char *exe,
            const char *jobid, int64_t month, int64_t day, int64_t secs,
            uint64_t logmod, int64_t shutdown)
{
    struct tokio_darshan_filename *f = NULL;
    int rc = tokio_darshan_parse_filename(&f, name);

    if (rc != TOKIO_OK)
        fail_msg("'%s': rc %d (%s)", name, rc, tokio_errmsg());
    assert_string_equal(f->username, user);
    assert_string_equal(f->exename, exe);
    assert_string_equal(f->jobid, jobid);
    assert_int_equal(f->start_month, month);
    assert_int_equal(f->start_day, day);
    assert_int_equal(f->start_second_in_day, secs);
    if (f->logmod != logmod)
        fail_msg("'%s': logmod %" PRIu64 ", want %" PRIu64, name, f->logmod,
                 logmod);
    assert_int_equal(f->shutdown_secs, shutdown);
    tokio_darshan_filename_free(f);
}

static void
expect_no_name(const char *name, const char *msg)
{
    struct tokio_darshan_filename *f = (void *)1;
    int rc = tokio_darshan_parse_filename(&f, name);

    if (rc != TOKIO_EFORMAT)
        fail_msg("'%s': rc %d, want TOKIO_EFORMAT", name, rc);
    assert_null(f);
    assert_contains(tokio_errmsg(), msg);
}

static int64_t
local_time(int y, int mo, int d, int h, int mi, int s)
{
    int64_t t;

    assert_int_equal(tokio_time_from_local(y, mo, d, h, mi, s, &t), 0);
    return t;
}

/* Run a query; compare the result with the NULL-ended `want`. */
static void
expect_find(const struct tokio_config *cfg,
            const struct tokio_find_darshanlogs_query *q,
            const char *const *want)
{
    char **paths = (void *)1;
    size_t n = 99, n_want = 0;
    int rc = tokio_find_darshanlogs(&paths, &n, cfg, q);

    if (rc != TOKIO_OK)
        fail_msg("rc %d (%s)", rc, tokio_errmsg());
    while (want[n_want] != NULL)
        n_want++;
    for (size_t i = 0; i < n && i < n_want; i++)
        assert_string_equal(paths[i], want[i]);
    assert_int_equal(n, n_want);
    if (n == 0)
        assert_null(paths);
    tokio_free_strings(paths, n);
}

static void
expect_find_fails(const struct tokio_config *cfg,
                  const struct tokio_find_darshanlogs_query *q, int status,
                  const char *msg)
{
    char **paths = (void *)1;
    size_t n = 99;
    int rc = tokio_find_darshanlogs(&paths, &n, cfg, q);

    if (rc != status)
        fail_msg("rc %d, want %d (%s)", rc, status, tokio_errmsg());
    assert_null(paths);
    assert_int_equal(n, 0);
    assert_contains(tokio_errmsg(), msg);
}

static struct tokio_config *
config_from(const char *text)
{
    struct tokio_config *cfg = NULL;

    assert_int_equal(tokio_config_open_mem(&cfg, text, strlen(text),
                                           "test.json"), 0);
    return cfg;
}

static void
make_dir(const char *dir, const char *rel)
{
    char path[4096];

    snprintf(path, sizeof(path), "%s/%s", dir, rel);
    for (char *p = path + strlen(dir) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0777);
            *p = '/';
        }
    mkdir(path, 0777);
}

static void
touch(const char *dir, const char *rel)
{
    char path[4096];

    snprintf(path, sizeof(path), "%s/%s", dir, rel);
    tokio_test_write_file(path, "", 0);
}

/*
 * Each test runs in a fresh temporary folder: `inputs` links to the
 * pack's pytokio-inputs when present, and our own tree is built beside it.
 */
struct fixture {
    char *dir;
    char oldcwd[PATH_MAX];
    int have_pack;
};

static int
setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof(*fx));
    const char *inputs = tokio_test_data("pytokio-inputs");

    assert_non_null(fx);
    setenv("TZ", "America/Los_Angeles", 1);
    tzset();
    assert_non_null(getcwd(fx->oldcwd, sizeof(fx->oldcwd)));
    fx->dir = tokio_test_mkdtemp();
    assert_int_equal(chdir(fx->dir), 0);
    if (inputs != NULL) {
        assert_int_equal(symlink(inputs, "inputs"), 0);
        fx->have_pack = 1;
    }
    *state = fx;
    return 0;
}

static int
teardown(void **state)
{
    struct fixture *fx = *state;

    assert_int_equal(chdir(fx->oldcwd), 0);
    tokio_test_rmtree(fx->dir);
    free(fx->dir);
    free(fx);
    return 0;
}

/* ------------------------------------------------------------------ */
/* File names                                                           */

/* tokiotest.SAMPLE_DARSHAN_FQLOG and _META, plus the fields it skips */
static void
test_name_reference_sample(void **state)
{
    (void)state;
    expect_name("inputs/glock_vpicio_uni_id4478544_3-20-7667-"
                "18385393005962577517_1.darshan", "glock", "vpicio_uni",
                "4478544", 3, 20, 7667, UINT64_C(18385393005962577517), 1);
}

/* every log name in the pack, whose logmods all pass INT64_MAX or not */
static void
test_name_pack_logs(void **state)
{
    (void)state;
    expect_name(LOG_0320_DBSCAN, "glock", "dbscan_read", "4478544", 3, 20,
                7800, UINT64_C(15217972833987807816), 1);
    expect_name(LOG_0320_VPICIO, "glock", "vpicio_uni", "4478544", 3, 20,
                7667, UINT64_C(18385393005962577517), 1);
    expect_name(LOG_0321_DBSCAN, "glock", "dbscan_read", "4487503", 3, 21,
                14554, UINT64_C(2400062619352127555), 1);
    expect_name(LOG_0321_VPICIO, "glock", "vpicio_uni", "4487503", 3, 21,
                14391, UINT64_C(1931100114561819213), 1);
}

static void
test_name_exe_underscores_and_ids(void **state)
{
    (void)state;
    /* the user stops at the first '_'; the exe takes the rest */
    expect_name("bob_a_b_c_id12_1-2-3-4_5.darshan", "bob", "a_b_c", "12",
                1, 2, 3, 4, 5);
    /* empty exe */
    expect_name("bob__id12_1-2-3-4_5.darshan", "bob", "", "12", 1, 2, 3, 4,
                5);
    /* lazy exe: the first "_id" that lets the rest match ends it */
    expect_name("bob_x_id9_y_id12_1-2-3-4_5.darshan", "bob", "x_id9_y",
                "12", 1, 2, 3, 4, 5);
    expect_name("bob_x_id1_2-3-4-5_6.darshan_id7_8-9-10-11_12.darshan",
                "bob", "x", "1", 2, 3, 4, 5, 6);
    /* zeros stay in the job id, not in numbers */
    expect_name("u_e_id007_01-02-03-04_05.darshan", "u", "e", "007", 1, 2,
                3, 4, 5);
}

static void
test_name_search_is_unanchored(void **state)
{
    (void)state;
    /* leading underscores: the match starts at the first user it can */
    expect_name("__u_e_id1_2-3-4-5_6.darshan", "u", "e", "1", 2, 3, 4, 5,
                6);
    /* anything may follow; '.' is any character */
    expect_name("u_e_id1_2-3-4-5_6.darshan.gz", "u", "e", "1", 2, 3, 4, 5,
                6);
    expect_name("u_e_id1_2-3-4-5_6xdarshan", "u", "e", "1", 2, 3, 4, 5, 6);
    /* '.' may take the last digit of the shutdown seconds */
    expect_name("u_e_id1_2-3-4-5_67darshan", "u", "e", "1", 2, 3, 4, 5, 6);
    /* '.' is one character, even a multi-byte one */
    expect_name("u_e_id1_2-3-4-5_6\xce\xa9" "darshan", "u", "e", "1", 2, 3,
                4, 5, 6);
    /* a match in a folder name counts, as re.search() finds it there */
    expect_name("/x/u_e_id1_2-3-4-5_6.darshan/other", "u", "e", "1", 2, 3,
                4, 5, 6);
    /* the user starts after the last '/' before it */
    expect_name("/a/b_c/u_e_id1_2-3-4-5_6.darshan", "u", "e", "1", 2, 3, 4,
                5, 6);
}

static void
test_name_not_a_log_is_eformat(void **state)
{
    static const char *const bad[] = {
        "", "sample.darshan", "_e_id1_2-3-4-5_6.darshan",
        "u_e_id_2-3-4-5_6.darshan", "u_e_id1_2-3-4_6.darshan",
        "u_e_id1_2-3-4-5-6.darshan", "u_e_id1_2-3-4-5_.darshan",
        "u_e_idx1_2-3-4-5_6.darshan", "u_e_id1_2-3-4-5_6.darsha",
        "u_e_id1_2-3-4-5_6darshan",       /* '.' needs a character */
        "u_e_id1_2-3-4-5_6\ndarshan",     /* and '.' is never '\n' */
        "u_e/f_id1_2-3-4-5_6.darshan",    /* the exe holds no '/' */
        "u/_e_id1_2-3-4-5_6.darshan",
        "u_e_id\xd9\xa1_2-3-4-5_6.darshan",  /* \d is ASCII here */
    };
    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        expect_no_name(bad[i], "is not named as a Darshan log");
}

static void
test_name_number_too_large_is_eformat(void **state)
{
    (void)state;
    /* UINT64_MAX is the largest logmod, INT64_MAX the largest month */
    expect_name("u_e_id1_9223372036854775807-3-4-18446744073709551615_6."
                "darshan", "u", "e", "1", INT64_MAX, 3, 4, UINT64_MAX, 6);
    expect_no_name("u_e_id1_2-3-4-18446744073709551616_6.darshan",
                   "logmod 18446744073709551616 is too large");
    expect_no_name("u_e_id1_9223372036854775808-3-4-5_6.darshan",
                   "start_month 9223372036854775808 is too large");
    expect_no_name("u_e_id1_2-3-4-5_99999999999999999999.darshan",
                   "shutdown_secs");
    /* the job id is text: any length */
    expect_name("u_e_id123456789012345678901234567890_2-3-4-5_6.darshan",
                "u", "e", "123456789012345678901234567890", 2, 3, 4, 5, 6);
}

static void
test_name_bad_arguments(void **state)
{
    struct tokio_darshan_filename *f = NULL;

    (void)state;
    assert_int_equal(tokio_darshan_parse_filename(&f, NULL), TOKIO_EINVAL);
    assert_null(f);
    assert_int_equal(tokio_darshan_parse_filename(NULL, "x"), TOKIO_EINVAL);
    tokio_darshan_filename_free(NULL);
}

/* hostile names cost linear time: a megabyte of near-misses */
static void
test_name_long_near_misses_are_fast(void **state)
{
    static const char unit[] = "a_id1_2-3-4-5_";
    size_t n = (1 << 20) / (sizeof(unit) - 1);
    char *s = malloc(n * (sizeof(unit) - 1) + 16);

    (void)state;
    assert_non_null(s);
    for (size_t i = 0; i < n; i++)
        memcpy(s + i * (sizeof(unit) - 1), unit, sizeof(unit) - 1);
    s[n * (sizeof(unit) - 1)] = '\0';
    expect_no_name(s, "is not named as a Darshan log");
    strcpy(s + n * (sizeof(unit) - 1), "6.darshan");
    struct tokio_darshan_filename *f = NULL;
    assert_int_equal(tokio_darshan_parse_filename(&f, s), 0);
    assert_string_equal(f->username, "a");
    assert_int_equal(strlen(f->exename), n * (sizeof(unit) - 1) - 15);
    tokio_darshan_filename_free(f);
    free(s);
}

static void
test_name_survives_every_oom(void **state)
{
    (void)state;
    for (size_t n = 1;; n++) {
        struct tokio_darshan_filename *f = NULL;
        tokio_test_fail_alloc_at(n);
        int rc = tokio_darshan_parse_filename(&f, LOG_0320_DBSCAN);
        tokio_test_fail_alloc_at(0);
        if (rc >= 0) {
            tokio_darshan_filename_free(f);
            break;
        }
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_null(f);
    }
}

/* ------------------------------------------------------------------ */
/* The reference's queries (tests/test_tools_darshan.py TEST_MATRIX)    */

struct ref_query {
    const char *descr;
    int days_before, days_after;    /* around SAMPLE_DARSHAN_START_TIME */
    const char *username;
    const char *jobid;
    const char *system;
    const char *want[5];
};

static const struct ref_query ref_queries[] = {
    { "valid jobid", 0, 0, NULL, "4478544", NULL,
      { LOG_0320_DBSCAN, LOG_0320_VPICIO } },
    { "valid jobid w/ valid user", 0, 0, "glock", "4478544", NULL,
      { LOG_0320_DBSCAN, LOG_0320_VPICIO } },
    { "valid jobid w/ invalid user", 0, 0, "invaliduser", "4478544", NULL,
      { NULL } },
    { "valid jobid w/ multiple dates", 1, 1, NULL, "4478544", NULL,
      { LOG_0320_DBSCAN, LOG_0320_VPICIO } },
    { "valid jobid, wrong date", 0, 0, NULL, "4487503", NULL, { NULL } },
    { "valid jobid, second day", 1, 1, NULL, "4487503", NULL,
      { LOG_0321_DBSCAN, LOG_0321_VPICIO } },
    { "invalid jobid", 0, 0, NULL, "5", NULL, { NULL } },
    { "no jobid, one day", 0, 0, NULL, NULL, NULL,
      { LOG_0320_DBSCAN, LOG_0320_VPICIO } },
    { "no jobid, many days", 1, 1, NULL, NULL, NULL,
      { LOG_0320_DBSCAN, LOG_0320_VPICIO, LOG_0321_DBSCAN,
        LOG_0321_VPICIO } },
    /* "load base", "load base,perf,total", "load invalid": no loader */
    { "valid jobid w/ valid user, valid log dir key", 0, 0, "glock",
      "4478544", "testsystem", { LOG_0320_DBSCAN, LOG_0320_VPICIO } },
    { "valid jobid w/ valid user, invalid log dir key", 0, 0, "glock",
      "4478544", "invalid key", { NULL } },
};

static void
test_find_reference_queries(void **state)
{
    struct fixture *fx = *state;
    struct tokio_config *cfg = NULL;

    if (!fx->have_pack) {
        print_message("skipped: ../shared/testdata/pytokio-inputs is "
                      "absent\n");
        skip();
    }
    assert_int_equal(tokio_config_open(&cfg, "inputs/site.json"), 0);
    /* tokiotest.SAMPLE_DARSHAN_START_TIME */
    int64_t t0 = local_time(2017, 3, 20, 2, 7, 47);
    for (size_t i = 0; i < sizeof(ref_queries) / sizeof(ref_queries[0]);
         i++) {
        const struct ref_query *r = &ref_queries[i];
        struct tokio_find_darshanlogs_query q = { 0 };

        print_message("%s\n", r->descr);
        q.have_start = 1;
        q.start = t0 - r->days_before * 86400;
        q.have_end = r->days_after != 0;
        q.end = t0 + r->days_after * 86400;
        q.username = r->username;
        q.jobid = r->jobid;
        q.system = r->system;
        expect_find(cfg, &q, r->want);
    }
    tokio_config_free(cfg);
}

/* the reference's test_cli_find_darshanlogs: --logdir instead of config */
static void
test_find_pack_with_log_dir(void **state)
{
    struct fixture *fx = *state;
    struct tokio_find_darshanlogs_query q = { 0 };
    const char *want[] = { LOG_0320_DBSCAN, LOG_0320_VPICIO, NULL };

    if (!fx->have_pack) {
        print_message("skipped: ../shared/testdata/pytokio-inputs is "
                      "absent\n");
        skip();
    }
    q.have_start = 1;
    q.start = local_time(2017, 3, 20, 0, 0, 0);
    q.username = "glock";
    q.jobid = "4478544";
    q.log_dir = LOG_DIR;
    expect_find(NULL, &q, want);
    /* an empty day folder (2017/3/19 holds only _empty) */
    const char *none[] = { NULL };
    q.start = local_time(2017, 3, 19, 0, 0, 0);
    expect_find(NULL, &q, none);
}

/* ------------------------------------------------------------------ */
/* Our own tree                                                         */

#define L1 "alice_app_id100_1-5-3600-42_1.darshan"
#define L2 "alice_my_app_id101_1-5-7200-43_2.darshan"
#define L3 "bob_app_id100_1-6-60-44_1.darshan"

static void
make_tree(void)
{
    make_dir(".", "repo/2020/1/5");
    make_dir(".", "repo/2020/1/6");
    make_dir(".", "repo/2020/1/7");
    make_dir(".", "other/2020/1/5");
    touch(".", "repo/2020/1/5/" L1);
    touch(".", "repo/2020/1/5/" L2);
    touch(".", "repo/2020/1/6/" L3);
    /* not logs, or hidden from '*' as Python's glob hides them */
    touch(".", "repo/2020/1/5/README");
    touch(".", "repo/2020/1/5/.carol_app_id100_1-5-1-1_1.darshan");
    touch(".", "repo/2020/1/5/alice_app_id100.darshan");
    touch(".", "other/2020/1/5/dave_x_id7_1-5-9-9_1.darshan");
    /* zero-padded folders are not the reference's layout */
    make_dir(".", "repo/2020/01/05");
    touch(".", "repo/2020/01/05/erin_x_id8_1-5-9-9_1.darshan");
}

static struct tokio_find_darshanlogs_query
day_query(int d_start, int d_end)
{
    struct tokio_find_darshanlogs_query q = { 0 };

    q.have_start = 1;
    q.start = local_time(2020, 1, d_start, 0, 0, 0);
    q.have_end = d_end != 0;
    q.end = d_end ? local_time(2020, 1, d_end, 23, 59, 59) : 0;
    return q;
}

static void
test_find_tree_days_users_jobs(void **state)
{
    (void)state;
    make_tree();
    struct tokio_find_darshanlogs_query q = day_query(5, 0);
    q.log_dir = "repo";
    const char *day5[] = { "repo/2020/1/5/" L1, "repo/2020/1/5/" L2, NULL };
    expect_find(NULL, &q, day5);

    q = day_query(4, 7);
    q.log_dir = "repo/";        /* os.path.join adds no second '/' */
    const char *all[] = { "repo/2020/1/5/" L1, "repo/2020/1/5/" L2,
                          "repo/2020/1/6/" L3, NULL };
    expect_find(NULL, &q, all);

    q.username = "alice";
    const char *alice[] = { "repo/2020/1/5/" L1, "repo/2020/1/5/" L2, NULL };
    expect_find(NULL, &q, alice);
    q.username = "";            /* falsy in the reference: any user */
    expect_find(NULL, &q, all);

    q.username = NULL;
    q.jobid = "100";
    const char *job100[] = { "repo/2020/1/5/" L1, "repo/2020/1/6/" L3, NULL };
    expect_find(NULL, &q, job100);
    q.jobid = "10";             /* whole job ids only */
    const char *none[] = { NULL };
    expect_find(NULL, &q, none);
    q.jobid = "";               /* not None in the reference: no log */
    expect_find(NULL, &q, none);
    /* the reference puts them in the pattern unescaped */
    q.jobid = "10[01]";
    q.username = "a*";
    expect_find(NULL, &q, alice);

    /* an end earlier in its day than the start still counts its day */
    q = day_query(6, 0);
    q.start = local_time(2020, 1, 5, 23, 0, 0);
    q.have_end = 1;
    q.end = local_time(2020, 1, 6, 1, 0, 0);
    q.log_dir = "repo";
    expect_find(NULL, &q, all);
}

static void
test_find_tree_config_shapes(void **state)
{
    (void)state;
    make_tree();
    struct tokio_find_darshanlogs_query q = day_query(5, 0);
    const char *repo[] = { "repo/2020/1/5/" L1, "repo/2020/1/5/" L2, NULL };
    const char *both[] = { "other/2020/1/5/dave_x_id7_1-5-9-9_1.darshan",
                           "repo/2020/1/5/" L1, "repo/2020/1/5/" L2, NULL };
    const char *other[] = { "other/2020/1/5/dave_x_id7_1-5-9-9_1.darshan",
                            NULL };
    const char *none[] = { NULL };

    /* a string */
    struct tokio_config *cfg = config_from("{\"darshan_log_dirs\": "
                                           "\"repo\"}");
    expect_find(cfg, &q, repo);
    tokio_config_free(cfg);

    /* an object without --host: every entry that exists */
    cfg = config_from("{\"darshan_log_dirs\": {\"a\": \"repo\", "
                      "\"b\": \"other\", \"c\": \"missing\"}}");
    expect_find(cfg, &q, both);
    q.system = "b";
    expect_find(cfg, &q, other);
    q.system = "zzz";           /* no such entry: nothing, no error */
    expect_find(cfg, &q, none);
    /* --logdir wins over the configuration, whatever the system */
    q.log_dir = "repo";
    expect_find(cfg, &q, repo);
    tokio_config_free(cfg);

    /* a list under a system: its first existing folder wins each day */
    cfg = config_from("{\"darshan_log_dirs\": {\"a\": [\"missing\", "
                      "\"other\", \"repo\"]}}");
    q = day_query(5, 0);
    q.system = "a";
    expect_find(cfg, &q, other);
    q.system = NULL;            /* without one, every folder of the list */
    expect_find(cfg, &q, both);
    tokio_config_free(cfg);

    /* the repository path is a template too; duplicates collapse */
    cfg = config_from("{\"darshan_log_dirs\": [\"re%-Cpo\", \"repo\", "
                      "\"./repo/..//repo\"]}");
    expect_find(cfg, &q, (const char *const[]){
        "./repo/..//repo/2020/1/5/" L1, "./repo/..//repo/2020/1/5/" L2,
        "repo/2020/1/5/" L1, "repo/2020/1/5/" L2, NULL });
    tokio_config_free(cfg);
    make_dir(".", "y2020/2020/1/5");
    touch(".", "y2020/2020/1/5/" L1);
    q.log_dir = "y%Y";
    expect_find(NULL, &q, (const char *const[]){ "y2020/2020/1/5/" L1,
                                                 NULL });
}

static void
test_find_errors(void **state)
{
    (void)state;
    make_tree();
    struct tokio_find_darshanlogs_query q = day_query(5, 0);
    char **paths = NULL;
    size_t n = 0;

    q.log_dir = "no/such/dir";
    expect_find_fails(NULL, &q, TOKIO_ENOTFOUND,
                      "Darshan log directory 'no/such/dir' does not exist");
    q.log_dir = NULL;
    struct tokio_config *cfg = config_from("{\"darshan_log_dirs\": "
                                           "{\"a\": \"m1\", \"b\": "
                                           "[\"m2\"]}}");
    expect_find_fails(cfg, &q, TOKIO_ENOTFOUND,
                      "none of the Darshan log directories exists: "
                      "'m1', 'm2'");
    q.system = "b";
    expect_find_fails(cfg, &q, TOKIO_ENOTFOUND, "'m2' does not exist");
    tokio_config_free(cfg);
    q.system = NULL;

    expect_find_fails(NULL, &q, TOKIO_EINVAL, "darshan_log_dirs");
    cfg = config_from("{\"lmt_timestep\": 5}");
    expect_find_fails(cfg, &q, TOKIO_EINVAL, "no Darshan log directory");
    tokio_config_free(cfg);
    cfg = config_from("{\"darshan_log_dirs\": 5}");
    expect_find_fails(cfg, &q, TOKIO_EINVAL, "darshan_log_dirs: ");
    tokio_config_free(cfg);

    q.log_dir = "repo";
    q.have_end = 1;
    q.end = q.start - 1;
    expect_find_fails(NULL, &q, TOKIO_EINVAL, "before start");
    q.have_end = 0;
    q.have_start = 0;
    expect_find_fails(NULL, &q, TOKIO_EINVAL, "a start date or a job id");
    q.jobid = "100";
    expect_find_fails(NULL, &q, TOKIO_EINVAL, "job 100");

    assert_int_equal(tokio_find_darshanlogs(NULL, &n, NULL, &q),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_find_darshanlogs(&paths, &n, NULL, NULL),
                     TOKIO_EINVAL);
}

static void
test_find_survives_every_oom(void **state)
{
    (void)state;
    make_tree();
    struct tokio_config *cfg = config_from("{\"darshan_log_dirs\": "
                                           "{\"a\": \"repo\", "
                                           "\"b\": \"other\"}}");
    struct tokio_find_darshanlogs_query q = day_query(4, 7);

    for (size_t n = 1;; n++) {
        char **paths = NULL;
        size_t np = 0;
        tokio_test_fail_alloc_at(n);
        int rc = tokio_find_darshanlogs(&paths, &np, cfg, &q);
        tokio_test_fail_alloc_at(0);
        if (rc >= 0) {
            assert_int_equal(np, 4);
            tokio_free_strings(paths, np);
            break;
        }
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_null(paths);
    }
    tokio_config_free(cfg);
}

/* ------------------------------------------------------------------ */
/* load_darshanlogs                                                     */

static json_t *
load_json_file(const char *path)
{
    json_error_t err;
    json_t *j = json_load_file(path, 0, &err);

    if (j == NULL)
        fail_msg("%s line %d: %s", path, err.line, err.text);
    return j;
}

static void
test_load_views_as_the_reference_reads_them(void **state)
{
    unsigned v = 99;

    (void)state;
    assert_int_equal(tokio_darshan_load_views("base", &v), TOKIO_OK);
    assert_int_equal(v, TOKIO_DARSHAN_LOAD_BASE);
    assert_int_equal(tokio_darshan_load_views("BASE,perf,Total", &v),
                     TOKIO_OK);
    assert_int_equal(v, TOKIO_DARSHAN_LOAD_BASE | TOKIO_DARSHAN_LOAD_TOTAL |
                            TOKIO_DARSHAN_LOAD_PERF);
    /* other items are ignored, as the reference's `in` tests ignore them */
    assert_int_equal(tokio_darshan_load_views("x,,perf", &v), TOKIO_OK);
    assert_int_equal(v, TOKIO_DARSHAN_LOAD_PERF);
    /* the reference's "load invalid" case: TypeError */
    assert_int_equal(tokio_darshan_load_views("asdflkj", &v), TOKIO_EINVAL);
    assert_int_equal(v, 0);
    assert_contains(tokio_errmsg(), "asdflkj");
    assert_int_equal(tokio_darshan_load_views("", &v), TOKIO_EINVAL);
    assert_int_equal(tokio_darshan_load_views(" base", &v), TOKIO_EINVAL);
    assert_int_equal(tokio_darshan_load_views(NULL, &v), TOKIO_EINVAL);
}

/* The pack's repository, copied so its links are real links. */
static char *
pack_repository(char **top)
{
    char *copy = tokio_test_copy_data("pytokio-inputs", top);
    char *dir;

    if (copy == NULL)
        return NULL;
    dir = malloc(strlen(copy) + sizeof("/darshanlogs"));
    assert_non_null(dir);
    sprintf(dir, "%s/darshanlogs", copy);
    free(copy);
    return dir;
}

/*
 * The reference's "load base" / "load base,perf,total" queries (job
 * 4478544 on 2017-03-20), compared by value with its cache_darshan
 * goldens of the two logs the repository links to.
 */
static void
test_load_pack_matches_cache_darshan_goldens(void **state)
{
    static const struct {
        unsigned views;
        const char *suffix;
    } views[] = {
        { TOKIO_DARSHAN_LOAD_BASE, "base" },
        { TOKIO_DARSHAN_LOAD_TOTAL, "total" },
        { TOKIO_DARSHAN_LOAD_PERF, "perf" },
    };
    char *top = NULL, *repo = pack_repository(&top);
    char golden[256];

    (void)state;
    if (repo == NULL) {
        print_message("skipped: ../shared/testdata/pytokio-inputs is "
                      "absent\n");
        skip();
    }
    for (size_t i = 0; i < sizeof(views) / sizeof(*views); i++) {
        struct tokio_find_darshanlogs_query q = { 0 };
        json_t *all = NULL;
        q.have_start = 1;
        q.start = local_time(2017, 3, 20, 2, 7, 47);
        q.jobid = "4478544";
        q.log_dir = repo;
        int rc = tokio_load_darshanlogs(&all, NULL, &q, views[i].views);
        if (rc != TOKIO_OK)
            fail_msg("rc %d (%s)", rc, tokio_errmsg());
        assert_int_equal(json_object_size(all), 2);
        const char *key;
        json_t *value;
        json_object_foreach(all, key, value) {
            /* vpicio links to sample.darshan, dbscan to sample-2 */
            snprintf(golden, sizeof(golden),
                     "golden/pytokio/cache_darshan/%s.%s.json",
                     strstr(key, "vpicio") ? "sample" : "sample-2",
                     views[i].suffix);
            assert_non_null(strstr(key, repo));
            json_t *want = load_json_file(tokio_test_data(golden));
            if (!json_equal(value, want))
                fail_msg("%s: differs from %s", key, golden);
            json_decref(want);
        }
        json_decref(all);
    }
    tokio_test_rmtree(top);
    free(top);
    free(repo);
}

/* 2017-03-21's logs are 0-byte placeholders: {} each, as the reference's
 * golden cache_darshan of one of them. */
static void
test_load_empty_logs_give_empty_objects(void **state)
{
    char *top = NULL, *repo = pack_repository(&top);
    struct tokio_find_darshanlogs_query q = { 0 };
    json_t *all = NULL;

    (void)state;
    if (repo == NULL) {
        print_message("skipped: ../shared/testdata/pytokio-inputs is "
                      "absent\n");
        skip();
    }
    q.have_start = 1;
    q.start = local_time(2017, 3, 21, 0, 0, 0);
    q.log_dir = repo;
    assert_int_equal(tokio_load_darshanlogs(&all, NULL, &q,
                                            TOKIO_DARSHAN_LOAD_BASE),
                     TOKIO_OK);
    assert_int_equal(json_object_size(all), 2);
    json_t *want = load_json_file(tokio_test_data(
        "golden/pytokio/cache_darshan/glock_vpicio_uni_id4487503_3-21-"
        "14391-1931100114561819213_1.empty-log.base.json"));
    const char *key;
    json_t *value;
    json_object_foreach(all, key, value)
        assert_true(json_equal(value, want));
    json_decref(want);
    json_decref(all);
    /* a day without logs */
    q.start = local_time(2017, 3, 19, 0, 0, 0);
    assert_int_equal(tokio_load_darshanlogs(&all, NULL, &q,
                                            TOKIO_DARSHAN_LOAD_BASE),
                     TOKIO_OK);
    assert_int_equal(json_object_size(all), 0);
    json_decref(all);
    tokio_test_rmtree(top);
    free(top);
    free(repo);
}

/* A log of our own, written where the finder looks. */
static void
write_log(const char *path)
{
    static const struct tokio_darshan_mount mounts[] = {
        { "/scratch", "lustre" },
    };
    struct tokio_darshan_job_info job = {
        .uid = 1000, .jobid = 100, .start_time = 1578218400,
        .end_time = 1578218460, .nprocs = 2, .exe = "./app -x",
        .n_mounts = 1, .mounts = mounts,
    };
    size_t n = tokio_darshan_counter_count(TOKIO_DARSHAN_POSIX);
    size_t nf = tokio_darshan_fcounter_count(TOKIO_DARSHAN_POSIX);
    int64_t *c = calloc(n, sizeof(*c));
    double *f = calloc(nf, sizeof(*f));
    struct tokio_darshan_writer *w = NULL;
    uint64_t id = tokio_darshan_writer_hash("/scratch/out");

    assert_non_null(c);
    assert_non_null(f);
    c[0] = 3;
    f[0] = 1.5;
    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_add_name(w, id, "/scratch/out"),
                     TOKIO_OK);
    for (int64_t rank = 0; rank < 2; rank++)
        assert_int_equal(tokio_darshan_writer_add_record(
                             w, TOKIO_DARSHAN_POSIX, id, rank, c, n, f, nf),
                         TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_write(w, path), TOKIO_OK);
    tokio_darshan_writer_free(w);
    free(c);
    free(f);
}

#define OWN_LOG "repo/2020/1/5/" L1

/* Each value is what tokio_darshan_to_json() gives for the log alone. */
static void
test_load_own_tree_equals_cache_darshan(void **state)
{
    struct tokio_find_darshanlogs_query q = day_query(5, 6);
    struct tokio_darshan_json_opts o = { .base = 1, .perf = 1 };
    struct tokio_darshan *log = NULL;
    json_t *all = NULL, *want = NULL;

    (void)state;
    make_tree();
    write_log(OWN_LOG);
    q.jobid = "100";
    q.log_dir = "repo";
    assert_int_equal(tokio_load_darshanlogs(&all, NULL, &q,
                                            TOKIO_DARSHAN_LOAD_BASE |
                                                TOKIO_DARSHAN_LOAD_PERF),
                     TOKIO_OK);
    assert_int_equal(tokio_darshan_open(&log, OWN_LOG), TOKIO_OK);
    assert_int_equal(tokio_darshan_to_json(log, &o, &want), TOKIO_OK);
    /* L1 (ours) and L3 (a 0-byte placeholder, the next day) */
    assert_int_equal(json_object_size(all), 2);
    assert_true(json_equal(json_object_get(all, OWN_LOG), want));
    json_t *placeholder = json_object_get(all, "repo/2020/1/6/" L3);
    assert_true(json_is_object(placeholder));
    assert_int_equal(json_object_size(placeholder), 0);
    json_decref(want);
    json_decref(all);
    tokio_darshan_free(log);
}

static void
test_load_unreadable_log_names_it(void **state)
{
    struct tokio_find_darshanlogs_query q = day_query(5, 0);
    json_t *all = (void *)1;

    (void)state;
    make_tree();
    tokio_test_write_file("repo/2020/1/5/" L1, "not a darshan log", SIZE_MAX);
    q.log_dir = "repo";
    assert_int_equal(tokio_load_darshanlogs(&all, NULL, &q,
                                            TOKIO_DARSHAN_LOAD_BASE),
                     TOKIO_EFORMAT);
    assert_null(all);
    assert_contains(tokio_errmsg(), L1);
    /* views without base, total or perf */
    assert_int_equal(tokio_load_darshanlogs(&all, NULL, &q, 8),
                     TOKIO_EINVAL);
    assert_null(all);
    /* what the finder refuses */
    q.log_dir = "no-such-repo";
    assert_int_equal(tokio_load_darshanlogs(&all, NULL, &q,
                                            TOKIO_DARSHAN_LOAD_BASE),
                     TOKIO_ENOTFOUND);
    assert_null(all);
}

static void
test_load_survives_every_oom(void **state)
{
    struct tokio_find_darshanlogs_query q = day_query(5, 6);

    (void)state;
    make_tree();
    write_log(OWN_LOG);
    q.log_dir = "repo";
    for (size_t n = 1;; n++) {
        json_t *all = (void *)1;
        tokio_test_fail_alloc_at(n);
        int rc = tokio_load_darshanlogs(&all, NULL, &q,
                                        TOKIO_DARSHAN_LOAD_BASE |
                                            TOKIO_DARSHAN_LOAD_TOTAL |
                                            TOKIO_DARSHAN_LOAD_PERF);
        tokio_test_fail_alloc_at(0);
        if (rc >= 0) {
            assert_int_equal(json_object_size(all), 3);
            json_decref(all);
            break;
        }
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_null(all);
    }
}

int
main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_name_reference_sample),
        T(test_name_pack_logs),
        T(test_name_exe_underscores_and_ids),
        T(test_name_search_is_unanchored),
        T(test_name_not_a_log_is_eformat),
        T(test_name_number_too_large_is_eformat),
        T(test_name_bad_arguments),
        T(test_name_long_near_misses_are_fast),
        T(test_name_survives_every_oom),
        T(test_find_reference_queries),
        T(test_find_pack_with_log_dir),
        T(test_find_tree_days_users_jobs),
        T(test_find_tree_config_shapes),
        T(test_find_errors),
        T(test_find_survives_every_oom),
        T(test_load_views_as_the_reference_reads_them),
        T(test_load_pack_matches_cache_darshan_goldens),
        T(test_load_empty_logs_give_empty_objects),
        T(test_load_own_tree_equals_cache_darshan),
        T(test_load_unreadable_log_names_it),
        T(test_load_survives_every_oom),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
