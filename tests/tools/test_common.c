/*
 * tests/tools/test_common.c - finding time-indexed files
 * (src/tools/common.c, the reference's tokio.tools.common).
 *
 * First every case of the reference's tests/test_tools_common.py, run the
 * way it runs them: from a folder where `inputs` is the reference's test
 * inputs (../shared/testdata/pytokio-inputs) and with the templates of its
 * site.json.  Then our own cases in a temporary tree: template shapes,
 * stepping, bad arguments, the step cap and every allocation failing.
 *
 * ctest runs this with TZ=America/Los_Angeles; the epochs below are local
 * midnights there, computed with `TZ=America/Los_Angeles date -d ... +%s`.
 */
#include "testutil.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "tokio/time.h"
#include "tokio/tools/common.h"

#define DAY 86400
#define HOUR 3600

/* SAMPLE_H5LMT_DATES of the reference's tokiotest.py: 2017-03-20, -21 */
#define START 1489993200        /* 2017-03-20 00:00 PDT */
#define END 1490079600          /* 2017-03-21 00:00 PDT */
#define EXPECTED_DAYS 2

struct fixture {
    char *dir;              /* temporary folder, the cwd during the test */
    char oldcwd[PATH_MAX];
    json_t *site;           /* the reference's site.json; NULL if absent */
};

static int
setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof(*fx));
    const char *inputs = tokio_test_data("pytokio-inputs/site.json");

    assert_non_null(fx);
    setenv("TZ", "America/Los_Angeles", 1);
    tzset();
    assert_non_null(getcwd(fx->oldcwd, sizeof(fx->oldcwd)));
    fx->dir = tokio_test_mkdtemp();
    assert_int_equal(chdir(fx->dir), 0);
    if (inputs != NULL) {
        json_error_t err;
        fx->site = json_load_file(inputs, 0, &err);
        if (fx->site == NULL)
            print_error("%s: %s\n", inputs, err.text);
        assert_non_null(fx->site);
        /* the reference's templates say "inputs/...", relative to its
         * tests folder */
        const char *folder = tokio_test_data("pytokio-inputs");
        assert_int_equal(symlink(folder, "inputs"), 0);
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
    json_decref(fx->site);
    free(fx);
    return 0;
}

/* site.json's value under `key`, failing the test if it is missing */
static json_t *
site(struct fixture *fx, const char *key)
{
    json_t *v = json_object_get(fx->site, key);

    if (v == NULL)
        print_error("site.json has no '%s'\n", key);
    assert_non_null(v);
    return v;
}

/*
 * Run enumerate_dated_files and compare with `expect` (NULL-ended, in
 * sorted order); returns how many were found.
 */
static size_t
check(int64_t start, int64_t end, const json_t *tmpl, const char *key,
      int match_first, int64_t step, int use_glob,
      const char *const *expect)
{
    char **paths = (char **)1;
    size_t n = 99, n_expect = 0;
    int rc = tokio_enumerate_dated_files(&paths, &n, start, end, tmpl, key,
                                         match_first, step, use_glob);

    if (rc != TOKIO_OK)
        print_error("%s\n", tokio_errmsg());
    assert_int_equal(rc, TOKIO_OK);
    while (expect != NULL && expect[n_expect] != NULL)
        n_expect++;
    for (size_t i = 0; i < n; i++)
        print_message("  found %s\n", paths[i]);
    assert_int_equal(n, n_expect);
    if (n == 0)
        assert_null(paths);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(paths[i], expect[i]);
    tokio_free_strings(paths, n);
    return n;
}

/* ---- the reference's test_tools_common.py ---------------------------- */

/* What its templates find from START to END: the first day's first file;
 * each day's first (match_first); all of them. */
static const char *const day1_file1[] = { "inputs/2017-03-20/file1", NULL };
static const char *const first_a_day[] = {
    "inputs/2017-03-20/file1", "inputs/2017-03-21/file2", NULL };
static const char *const all_files[] = {
    "inputs/2017-03-20/file1", "inputs/2017-03-20/file2",
    "inputs/2017-03-21/file2", NULL };

/* TEST_FILE, TEST_LIST, TEST_DICT, TEST_RECURSE of the reference */
static json_t *
test_file(struct fixture *fx)
{
    return json_array_get(site(fx, "test_list"), 0);
}

static void
test_enumerate_dated_files_str(void **state)
{
    struct fixture *fx = *state;
    TOKIO_TEST_NEED_DATA(data, "pytokio-inputs/site.json");

    (void)data;
    assert_string_equal(json_string_value(test_file(fx)),
                        "inputs/%Y-%m-%d/file1");
    /* the reference's default: match_first, one-day steps, no glob */
    assert_int_equal(check(START, END, test_file(fx), NULL, 1, DAY, 0,
                           day1_file1), 1);
}

static void
test_enumerate_dated_files_list(void **state)
{
    struct fixture *fx = *state;
    TOKIO_TEST_NEED_DATA(data, "pytokio-inputs/site.json");

    (void)data;
    /* match_first returns at most one entry per day */
    assert_int_equal(check(START, END, site(fx, "test_list"), NULL, 1, DAY,
                           0, first_a_day), EXPECTED_DAYS);
    /* without it, more than one per day */
    assert_true(check(START, END, site(fx, "test_list"), NULL, 0, DAY, 0,
                      all_files) > EXPECTED_DAYS);
}

static json_t *
test_dict(struct fixture *fx)
{
    json_t *list = site(fx, "test_list");

    return json_pack("{sOsO}", "fakefs", json_array_get(list, 0),
                     "fakefs2", json_array_get(list, 1));
}

static void
test_enumerate_dated_files_dict_scalar(void **state)
{
    struct fixture *fx = *state;
    TOKIO_TEST_NEED_DATA(data, "pytokio-inputs/site.json");
    json_t *dict = test_dict(fx);

    (void)data;
    assert_int_equal(check(START, END, dict, "fakefs", 1, DAY, 0,
                           day1_file1), 1);
    json_decref(dict);
}

static void
test_enumerate_dated_files_dict_scalar_nokey(void **state)
{
    struct fixture *fx = *state;
    TOKIO_TEST_NEED_DATA(data, "pytokio-inputs/site.json");
    json_t *dict = test_dict(fx);

    (void)data;
    assert_int_equal(check(START, END, dict, NULL, 1, DAY, 0, first_a_day),
                     2);
    json_decref(dict);
}

static void
test_enumerate_dated_files_dict_list(void **state)
{
    struct fixture *fx = *state;
    TOKIO_TEST_NEED_DATA(data, "pytokio-inputs/site.json");
    json_t *recurse = json_pack("{sO}", "fakefs", site(fx, "test_list"));

    (void)data;
    assert_int_equal(check(START, END, recurse, "fakefs", 1, DAY, 0,
                           first_a_day), EXPECTED_DAYS);
    assert_true(check(START, END, recurse, "fakefs", 0, DAY, 0, all_files)
                > EXPECTED_DAYS);
    json_decref(recurse);
}

/*
 * The reference's test_enumerate_dated_files_glob: ten daily folders
 * ending today, folder i holding i files spread over four subfolders.
 */
static void
test_enumerate_dated_files_glob(void **state)
{
    struct fixture *fx = *state;
    enum { MAX_MATCH = 10, NUM_SUBDIRS = 4 };
    int64_t day_start[MAX_MATCH];
    char base[MAX_MATCH][PATH_MAX], path[PATH_MAX + 64];
    time_t now = time(NULL);
    struct tm tm;

    assert_non_null(localtime_r(&now, &tm));
    for (int i = 0; i < MAX_MATCH; i++) {
        char date[16];
        assert_int_equal(tokio_time_from_local(tm.tm_year + 1900,
                                               tm.tm_mon + 1, tm.tm_mday - i,
                                               0, 0, 0, &day_start[i]), 0);
        assert_int_equal(tokio_time_format(date, sizeof(date), day_start[i],
                                           "%Y-%m-%d"), 0);
        snprintf(base[i], sizeof(base[i]), "%s/%s", fx->dir, date);
        assert_int_equal(mkdir(base[i], 0700), 0);
        for (int d = 0; d < NUM_SUBDIRS; d++) {
            snprintf(path, sizeof(path), "%.4000s/dir%d", base[i], d);
            assert_int_equal(mkdir(path, 0700), 0);
        }
        for (int k = 0; k < i; k++) {
            snprintf(path, sizeof(path), "%.4000s/dir%d/file%d", base[i],
                     k % NUM_SUBDIRS, k);
            tokio_test_write_file(path, "", SIZE_MAX);
        }
    }

    for (int glob = 0; glob <= 1; glob++) {
        for (int first = 0; first <= glob; first++) {
            for (int i = first; i < MAX_MATCH; i++) {
                char **paths;
                size_t n;
                snprintf(path, sizeof(path), "%s/*/file*", base[i]);
                json_t *tmpl = json_string(path);
                assert_int_equal(tokio_enumerate_dated_files(
                                     &paths, &n, day_start[i],
                                     day_start[i] + DAY - 1, tmpl, NULL,
                                     first, DAY, glob), 0);
                /* globbing finds all i; without it, "*" is no file; with
                 * match_first, one */
                size_t expect = !glob ? 0 : first ? 1 : (size_t)i;
                assert_int_equal(n, expect);
                for (size_t k = 0; k < n; k++)
                    assert_int_equal(strncmp(paths[k], base[i],
                                             strlen(base[i])), 0);
                tokio_free_strings(paths, n);
                json_decref(tmpl);
            }
        }
    }
}

/* ---- more of the reference's site.json ------------------------------ */

/*
 * find_darshanlogs' two passes: the base folder from darshan_log_dirs
 * under the system key, then its %-Y/%-m/%-d day folders.
 */
static void
test_enumerate_dated_files_darshan_log_dirs(void **state)
{
    struct fixture *fx = *state;
    TOKIO_TEST_NEED_DATA(data, "pytokio-inputs/site.json");
    static const char *const base[] = { "inputs/darshanlogs", NULL };
    static const char *const days[] = {
        "inputs/darshanlogs/2017/3/19", "inputs/darshanlogs/2017/3/20",
        "inputs/darshanlogs/2017/3/21", NULL };
    static const char *const two_days[] = {
        "inputs/darshanlogs/2017/3/20", "inputs/darshanlogs/2017/3/21",
        NULL };
    int64_t from = START - DAY;                 /* 2017-03-19 00:00 PDT */

    (void)data;
    check(from, END, site(fx, "darshan_log_dirs"), "testsystem", 1, DAY, 0,
          base);
    check(from, END, site(fx, "darshan_log_dirs"), "nosuchsystem", 1, DAY,
          0, NULL);
    json_t *tmpl = json_string("inputs/darshanlogs/%-Y/%-m/%-d");
    check(from, END + 12 * HOUR, tmpl, "testsystem", 1, DAY, 0, days);
    check(START, END, tmpl, NULL, 1, DAY, 0, two_days);
    json_decref(tmpl);
}

static void
test_enumerate_dated_files_site_lfsstatus_and_mmperfmon(void **state)
{
    struct fixture *fx = *state;
    TOKIO_TEST_NEED_DATA(data, "pytokio-inputs/site.json");
    static const char *const osts[] = {
        "inputs/2017-03-20/osts.txt.gz", NULL };
    static const char *const maps[] = {
        "inputs/2017-03-20/ost-map.txt.gz", NULL };
    static const char *const mini[] = {
        "inputs/mmperfmon.2019-05-15-mini.tgz",
        "inputs/mmperfmon.2019-05-16-mini.tgz", NULL };
    int64_t target = START + DAY + 6 * HOUR;    /* 2017-03-21 06:00 */
    int64_t may15 = 1557903600;                 /* 2019-05-15 00:00 PDT */

    (void)data;
    /* lfsstatus looks from a day before the target to an hour after */
    check(target - DAY, target + HOUR, site(fx, "lfsstatus_fullness_files"),
          NULL, 1, DAY, 0, osts);
    check(target - DAY, target + HOUR, site(fx, "lfsstatus_map_files"),
          NULL, 1, DAY, 0, maps);
    /* nersc_mmperfmon: hourly, globbed, every match */
    check(may15, may15 + DAY + 23 * HOUR,
          site(fx, "mmperfmon_output_files"), "testfs-mini", 0, HOUR, 1,
          mini);
    static const char *const micro[] = {
        "inputs/mmperfmon.2019-05-15-micro.tgz", NULL };
    check(may15, may15 + DAY, site(fx, "mmperfmon_output_files"),
          "testfs-micro", 0, HOUR, 1, micro);
}

/* ---- own cases in a temporary tree ---------------------------------- */

static void
touch(const char *path)
{
    tokio_test_write_file(path, "x", SIZE_MAX);
}

static void
test_enumerate_match_first_takes_first_existing_template(void **state)
{
    (void)state;
    assert_int_equal(mkdir("t", 0700), 0);
    touch("t/b-2017-03-20");
    touch("t/c-2017-03-20");
    touch("t/c-2017-03-21");
    touch("t/a-2017-03-22");
    json_t *list = json_pack("[sss]", "t/a-%Y-%m-%d", "t/b-%Y-%m-%d",
                             "t/c-%Y-%m-%d");
    static const char *const first[] = {
        "t/a-2017-03-22", "t/b-2017-03-20", "t/c-2017-03-21", NULL };
    static const char *const all[] = {
        "t/a-2017-03-22", "t/b-2017-03-20", "t/c-2017-03-20",
        "t/c-2017-03-21", NULL };
    check(START, END + DAY, list, NULL, 1, DAY, 0, first);
    check(START, END + DAY, list, NULL, 0, DAY, 0, all);

    /* the same through objects: no key takes every value, in order */
    json_t *dict = json_pack("{s[s]s{ss}s[s]}", "x", "t/a-%Y-%m-%d",
                             "y", "z", "t/b-%Y-%m-%d", "w", "t/c-%Y-%m-%d");
    check(START, END + DAY, dict, NULL, 1, DAY, 0, first);
    check(START, END + DAY, dict, NULL, 0, DAY, 0, all);
    /* a key applies at every level; absent means nothing */
    static const char *const only_b[] = { "t/b-2017-03-20", NULL };
    check(START, END + DAY, dict, "y", 1, DAY, 0, NULL);
    json_t *nested = json_pack("{s{s[s{ss}]}}", "k", "k", "t/nope-%Y",
                               "k", "t/b-%Y-%m-%d");
    check(START, END + DAY, nested, "k", 1, DAY, 0, only_b);
    json_t *empty = json_pack("{s[]}", "k");
    check(START, END, empty, "k", 1, DAY, 0, NULL);
    check(START, END, empty, NULL, 1, DAY, 0, NULL);
    json_decref(list);
    json_decref(dict);
    json_decref(nested);
    json_decref(empty);
}

static void
test_enumerate_sub_day_steps_cover_the_whole_end_day(void **state)
{
    (void)state;
    assert_int_equal(mkdir("h", 0700), 0);
    touch("h/2017-03-20-21");
    touch("h/2017-03-20-22");
    touch("h/2017-03-21-00");
    touch("h/2017-03-21-05");
    touch("h/2017-03-21-23");
    touch("h/2017-03-22-00");
    json_t *tmpl = json_string("h/%Y-%m-%d-%H");
    static const char *const expect[] = {
        "h/2017-03-20-22", "h/2017-03-21-00", "h/2017-03-21-05",
        "h/2017-03-21-23", NULL };
    /* 2017-03-20 22:00 .. 2017-03-21 01:00, but the end day runs on */
    check(START + 22 * HOUR, END + HOUR, tmpl, NULL, 0, HOUR, 0, expect);
    /* steps keep start's minutes: 22:30, 23:30, ... */
    json_t *minutes = json_string("h/%Y-%m-%d-%H:%M");
    touch("h/2017-03-20-23:30");
    touch("h/2017-03-20-23:00");
    static const char *const half[] = { "h/2017-03-20-23:30", NULL };
    check(START + 22 * HOUR + 1800, END, minutes, NULL, 0, HOUR, 0, half);
    /* one-second steps over two days are cheap: a step whose paths are
     * all unchanged is skipped */
    static const char *const both_days[] = {
        "h/2017-03-20-21", "h/2017-03-20-22", "h/2017-03-21-00",
        "h/2017-03-21-05", "h/2017-03-21-23", NULL };
    check(START, END, tmpl, NULL, 0, 1, 0, both_days);
    json_decref(tmpl);
    json_decref(minutes);
}

static void
test_enumerate_steps_wall_clock_across_dst(void **state)
{
    (void)state;
    assert_int_equal(mkdir("d", 0700), 0);
    /* 2017-03-12: 02:00 PST never happens, but the reference's naive
     * datetime walks through it, so its file is found */
    touch("d/2017-03-12-01");
    touch("d/2017-03-12-02");
    touch("d/2017-03-12-03");
    touch("d/2017-03-13-12");
    touch("d/2017-03-14-12");
    json_t *hourly = json_string("d/%Y-%m-%d-%H");
    static const char *const spring[] = {
        "d/2017-03-12-01", "d/2017-03-12-02", "d/2017-03-12-03", NULL };
    int64_t mar12 = 1489305600;                 /* 2017-03-12 00:00 PST */
    check(mar12, mar12 + HOUR, hourly, NULL, 0, HOUR, 0, spring);
    /* a one-day step stays at noon across the change */
    static const char *const noon[] = {
        "d/2017-03-13-12", "d/2017-03-14-12", NULL };
    int64_t mar11_noon = 1489262400;            /* 2017-03-11 12:00 PST */
    check(mar11_noon, mar11_noon + 3 * DAY - HOUR, hourly, NULL, 0, DAY, 0,
          noon);
    /* %Z and %z of a naive datetime are empty, as in Python */
    touch("d/zone-");
    json_t *zone = json_string("d/zone-%Z%z");
    static const char *const zone_expect[] = { "d/zone-", NULL };
    check(mar12, mar12, zone, NULL, 1, DAY, 0, zone_expect);
    json_decref(hourly);
    json_decref(zone);
}

static void
test_enumerate_glob_details(void **state)
{
    (void)state;
    assert_int_equal(mkdir("g", 0700), 0);
    assert_int_equal(mkdir("g/2017-03-20", 0700), 0);
    touch("g/2017-03-20/b.log");
    touch("g/2017-03-20/a.log");
    touch("g/2017-03-20/.hidden.log");
    touch("g/2017-03-20/a\\.log");
    /* dangling links match the pattern but do not exist */
    assert_int_equal(symlink("nowhere", "g/2017-03-20/c.log"), 0);
    json_t *tmpl = json_string("g/%Y-%m-%d/*.log");
    static const char *const all[] = {
        "g/2017-03-20/a.log", "g/2017-03-20/a\\.log", "g/2017-03-20/b.log",
        NULL };
    check(START, START, tmpl, NULL, 0, DAY, 1, all);
    /* backslash is an ordinary character, as in Python's glob */
    json_t *bs = json_string("g/%Y-%m-%d/a\\.*");
    static const char *const bs_expect[] = { "g/2017-03-20/a\\.log", NULL };
    check(START, START, bs, NULL, 0, DAY, 1, bs_expect);
    json_t *none = json_string("g/%Y-%m-%d/*.nothing");
    check(START, START, none, NULL, 0, DAY, 1, NULL);
    /* a long expansion grows the buffer */
    char longtmpl[2100] = "g/";
    for (int i = 0; i < 500; i++)
        strcat(longtmpl, "%Y");
    json_t *lt = json_string(longtmpl);
    check(START, END, lt, NULL, 0, DAY, 1, NULL);
    check(START, END, lt, NULL, 0, DAY, 0, NULL);
    json_decref(tmpl);
    json_decref(bs);
    json_decref(none);
    json_decref(lt);
}

static void
test_enumerate_rejects_bad_arguments(void **state)
{
    json_t *ok = json_string("x-%Y");
    json_t *bad[] = { json_integer(5), json_null(), json_true(),
                      json_pack("[si]", "x", 1),
                      json_pack("{s[n]}", "k"), json_real(1.5) };
    char **paths = (char **)1;
    size_t n = 7;

    (void)state;
    assert_int_equal(tokio_enumerate_dated_files(&paths, &n, END, START, ok,
                                                 NULL, 1, DAY, 0),
                     TOKIO_EINVAL);
    assert_null(paths);
    assert_int_equal(n, 0);
    assert_contains(tokio_errmsg(), "before start");
    assert_int_equal(tokio_enumerate_dated_files(&paths, &n, START, END, ok,
                                                 NULL, 1, 0, 0),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_enumerate_dated_files(&paths, &n, START, END, ok,
                                                 NULL, 1, -DAY, 0),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_enumerate_dated_files(&paths, &n, START, END,
                                                 NULL, NULL, 1, DAY, 0),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_enumerate_dated_files(NULL, &n, START, END, ok,
                                                 NULL, 1, DAY, 0),
                     TOKIO_EINVAL);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        paths = (char **)1;
        assert_int_equal(tokio_enumerate_dated_files(&paths, &n, START, END,
                                                     bad[i], "k", 1, DAY, 0),
                         TOKIO_EINVAL);
        assert_contains(tokio_errmsg(), "string, list or object");
        assert_null(paths);
        json_decref(bad[i]);
    }
    /* hostile nesting is refused, not recursed into */
    json_t *deep = json_string("x");
    for (int i = 0; i < 1000; i++) {
        json_t *outer = json_array();
        json_array_append_new(outer, deep);
        deep = outer;
    }
    assert_int_equal(tokio_enumerate_dated_files(&paths, &n, START, END,
                                                 deep, NULL, 1, DAY, 0),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "deeper");
    json_decref(deep);
    /* start == end is one step */
    check(START, START, ok, NULL, 1, DAY, 0, NULL);
    json_decref(ok);
}

static void
test_enumerate_refuses_too_many_steps(void **state)
{
    json_t *tmpl = json_string("x-%Y-%m-%d-%H-%M-%S");
    char **paths = (char **)1;
    size_t n = 7;
    int64_t millennium = (int64_t)1000 * 365 * DAY;

    (void)state;
    time_t t0 = time(NULL);
    assert_int_equal(tokio_enumerate_dated_files(&paths, &n, 0, millennium,
                                                 tmpl, NULL, 1, 1, 0),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "steps");
    assert_null(paths);
    assert_int_equal(n, 0);
    /* a year at one-second steps is also past the cap */
    assert_int_equal(tokio_enumerate_dated_files(&paths, &n, START,
                                                 START + 365 * DAY, tmpl,
                                                 NULL, 1, 1, 0),
                     TOKIO_EINVAL);
    /* a huge step is a single one, without overflow */
    check(START, END, tmpl, NULL, 1, INT64_MAX, 0, NULL);
    check(0, millennium, tmpl, NULL, 1, INT64_MAX / 2, 0, NULL);
    assert_true(time(NULL) - t0 < 5);
    json_decref(tmpl);
}

static void
test_enumerate_survives_every_oom(void **state)
{
    (void)state;
    assert_int_equal(mkdir("o", 0700), 0);
    assert_int_equal(mkdir("o/2017-03-20", 0700), 0);
    assert_int_equal(mkdir("o/2017-03-21", 0700), 0);
    for (int i = 0; i < 40; i++) {
        char path[64];
        snprintf(path, sizeof(path), "o/2017-03-2%d/f%02d", i % 2, i);
        touch(path);
    }
    touch("o/plain-2017-03-21");
    json_t *tmpl = json_pack("{s[ss]s[s]}", "a", "o/%Y-%m-%d/f*",
                             "o/plain-%Y-%m-%d", "b", "o/%Y-%m-%d/*1");
    size_t n_ok = 0;

    for (int use_glob = 0; use_glob <= 1; use_glob++) {
        for (size_t n = 1;; n += tokio_test_oom_step()) {
            char **paths = (char **)1;
            size_t count = 99;
            tokio_test_fail_alloc_at(n);
            int rc = tokio_enumerate_dated_files(&paths, &count, START, END,
                                                 tmpl, NULL, 0, HOUR,
                                                 use_glob);
            tokio_test_fail_alloc_at(0);
            if (rc >= 0) {
                n_ok = count;
                tokio_free_strings(paths, count);
                break;
            }
            assert_int_equal(rc, TOKIO_ENOMEM);
            assert_null(paths);
            assert_int_equal(count, 0);
        }
        /* globbing: 40 files plus the plain one; f01..f31 match *1 too */
        assert_int_equal(n_ok, use_glob ? 41 : 1);
    }
    json_decref(tmpl);
}

int
main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_enumerate_dated_files_str),
        T(test_enumerate_dated_files_list),
        T(test_enumerate_dated_files_dict_scalar),
        T(test_enumerate_dated_files_dict_scalar_nokey),
        T(test_enumerate_dated_files_dict_list),
        T(test_enumerate_dated_files_glob),
        T(test_enumerate_dated_files_darshan_log_dirs),
        T(test_enumerate_dated_files_site_lfsstatus_and_mmperfmon),
        T(test_enumerate_match_first_takes_first_existing_template),
        T(test_enumerate_sub_day_steps_cover_the_whole_end_day),
        T(test_enumerate_steps_wall_clock_across_dst),
        T(test_enumerate_glob_details),
        T(test_enumerate_rejects_bad_arguments),
        T(test_enumerate_refuses_too_many_steps),
        T(test_enumerate_survives_every_oom),
    };
#undef T

    return cmocka_run_group_tests(tests, NULL, NULL);
}
