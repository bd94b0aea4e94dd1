/*
 * tests/core/test_time.c - parsing and formatting times (src/core/time.c).
 *
 * ctest runs this with TZ=America/Los_Angeles.  Every expected epoch was
 * computed independently with `TZ=America/Los_Angeles date -d ... +%s`
 * (GNU coreutils), or `date -u` for zoned inputs, and is written out here.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/localtime.h"
#include "tokio/time.h"

/* The zone every expected value below assumes. */
static int
setup_tz(void **state)
{
    (void)state;
    setenv("TZ", "America/Los_Angeles", 1);
    tzset();
    return 0;
}

static void
assert_parses(const char *text, int64_t expect)
{
    int64_t t = 12345;
    int rc = tokio_time_parse(text, &t);

    if (rc != TOKIO_OK)
        print_error("'%s': %s\n", text, tokio_errmsg());
    assert_int_equal(rc, TOKIO_OK);
    if (t != expect)
        print_error("'%s': got %lld\n", text, (long long)t);
    assert_int_equal(t, expect);
}

/* ---- every accepted form ------------------------------------------- */

static void
test_time_parse_accepts_every_documented_form(void **state)
{
    (void)state;
    /* the reference's sample Darshan log started at this local time */
    assert_parses("2017-03-20T02:07:47", 1490000867);
    assert_parses("2017-03-20 02:07:47", 1490000867);
    assert_parses("2017-03-20T02:07", 1490000820);
    assert_parses("2017-03-20 02:07", 1490000820);
    assert_parses("2017-03-20", 1489993200);
    assert_parses("2017-03-20T02:07:47.999999", 1490000867);
    assert_parses("2017-03-20T02:07:47.1", 1490000867);
    assert_parses("2017-03-20T02:07:47Z", 1489975667);
    assert_parses("2017-03-20T02:07:47.5Z", 1489975667);
    assert_parses("2017-03-20T02:07:47+01:00", 1489972067);
    assert_parses("2017-03-20T02:07:47+0100", 1489972067);
    assert_parses("2017-03-20T02:07:47-0530", 1489995467);
    assert_parses("2017-03-20 02:07:47-05:30", 1489995467);
    assert_parses("2017-03-20T02:07Z", 1489975620);
    assert_parses("@1490000867", 1490000867);
    assert_parses("@0", 0);
    assert_parses("@-1", -1);
    assert_parses("@+5", 5);
    assert_parses("2016-02-29T12:00:00", 1456776000);
    assert_parses("2017-01-01", 1483257600);
    /* one second before the epoch: mktime's error value, a real time */
    assert_parses("1969-12-31T15:59:59", -1);
}

/* ---- DST ------------------------------------------------------------ */

static void
test_time_parse_dst_edges(void **state)
{
    (void)state;
    /* 2017-03-12 02:00 PST jumps to 03:00 PDT */
    assert_parses("2017-03-12T01:59:59", 1489312799);
    assert_parses("2017-03-12T03:00:00", 1489312800);
    /* the skipped hour reads with the offset before the gap (PST), as
     * mktime and Python's fold=0 both do: 02:30 PST == 03:30 PDT */
    assert_parses("2017-03-12T02:30:00", 1489314600);
    /* 2017-11-05 02:00 PDT falls back to 01:00 PST; 01:30 happens twice
     * (1509870600 PDT, 1509874200 PST); the first one is taken, as
     * Python's fold=0 does, whatever mktime's cache would say */
    assert_parses("2017-11-05T01:30:00", 1509870600);
    assert_parses("2017-11-05T00:59:59", 1509868799);
    assert_parses("2017-11-05T02:00:00", 1509876000);
    /* the explicit zone is unaffected by the overlap */
    assert_parses("2017-11-05T01:30:00-08:00", 1509874200);
}

static void
test_time_from_local_resolves_and_normalizes(void **state)
{
    int64_t t;

    (void)state;
    assert_int_equal(tokio_time_from_local(2017, 3, 20, 2, 7, 47, &t), 0);
    assert_int_equal(t, 1490000867);
    /* out-of-range fields carry over, as mktime(3) does */
    assert_int_equal(tokio_time_from_local(2017, 3, 32, 0, 0, 0, &t), 0);
    assert_int_equal(t, 1491030000);                 /* 2017-04-01 */
    assert_int_equal(tokio_time_from_local(2017, 13, 1, 0, 0, 0, &t), 0);
    assert_int_equal(t, 1514793600);                 /* 2018-01-01 */
    assert_int_equal(tokio_time_from_local(2017, 0, 1, 0, 0, 0, &t), 0);
    assert_int_equal(t, 1480579200);                 /* 2016-12-01 */
    assert_int_equal(tokio_time_from_local(2017, 3, 20, 24, 0, 0, &t), 0);
    assert_int_equal(t, 1490079600);                 /* 2017-03-21 */
    assert_int_equal(tokio_time_from_local(2017, 3, 21, 0, 0, -1, &t), 0);
    assert_int_equal(t, 1490079599);
    assert_int_equal(tokio_time_from_local(2017, 3, 12, 2, 30, 0, &t), 0);
    assert_int_equal(t, 1489314600);
    assert_int_equal(tokio_time_from_local(2017, 11, 5, 1, 30, 0, &t), 0);
    assert_int_equal(t, 1509870600);
    assert_int_equal(tokio_time_from_local(2000000000, 1, 1, 0, 0, 0, &t),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_time_from_local(2017, 1, 1, 0, 0, 0, NULL),
                     TOKIO_EINVAL);
}

static void
test_time_parse_honours_tz(void **state)
{
    int64_t t;

    (void)state;
    setenv("TZ", "UTC", 1);
    tzset();
    assert_int_equal(tokio_time_parse("2017-03-20T02:07:47", &t), 0);
    assert_int_equal(t, 1489975667);
    setenv("TZ", "Asia/Kolkata", 1);                 /* +05:30, no DST */
    assert_int_equal(tokio_time_parse("2017-03-20T02:07:47", &t), 0);
    assert_int_equal(t, 1489975667 - 19800);
    setup_tz(state);
    assert_int_equal(tokio_time_parse("2017-03-20T02:07:47", &t), 0);
    assert_int_equal(t, 1490000867);
}

/* ---- strptime formats ------------------------------------------------ */

static void
test_time_parse_format(void **state)
{
    int64_t t;

    (void)state;
    assert_int_equal(tokio_time_parse_format("2017-03-20 02:07:47",
                                             "%Y-%m-%d %H:%M:%S", &t), 0);
    assert_int_equal(t, 1490000867);
    assert_int_equal(tokio_time_parse_format("2017-03-20", "%Y-%m-%d", &t),
                     0);
    assert_int_equal(t, 1489993200);
    /* Python's strptime defaults: 1900-01-01 (PST then: -08:00) */
    assert_int_equal(tokio_time_parse_format("02:07", "%H:%M", &t), 0);
    assert_int_equal(t, -2208952380);
    assert_int_equal(tokio_time_parse_format("1490000867", "%s", &t), 0);
    assert_int_equal(t, 1490000867);
    assert_int_equal(tokio_time_parse_format("2017-03-20T02:07:47+0100",
                                             "%Y-%m-%dT%H:%M:%S%z", &t), 0);
    assert_int_equal(t, 1489972067);
    /* LMT's "%Y%m%d%H%M%S"-style stamps */
    assert_int_equal(tokio_time_parse_format("20170320020747",
                                             "%Y%m%d%H%M%S", &t), 0);
    assert_int_equal(t, 1490000867);

    t = 7;
    assert_int_equal(tokio_time_parse_format("2017-03-20x", "%Y-%m-%d", &t),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "'2017-03-20x'");
    assert_contains(tokio_errmsg(), "'%Y-%m-%d'");
    assert_int_equal(t, 7);
    assert_int_equal(tokio_time_parse_format("2017-02-30", "%Y-%m-%d", &t),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_time_parse_format("2017-13-01", "%Y-%m-%d", &t),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_time_parse_format("2017-03-20 25:00",
                                             "%Y-%m-%d %H:%M", &t),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_time_parse_format("", "%Y", &t), TOKIO_EINVAL);
    assert_int_equal(tokio_time_parse_format(NULL, "%Y", &t), TOKIO_EINVAL);
    assert_int_equal(tokio_time_parse_format("1", NULL, &t), TOKIO_EINVAL);
}

/* ---- formatting ------------------------------------------------------ */

static void
test_time_format_and_iso(void **state)
{
    char buf[64];

    (void)state;
    assert_int_equal(tokio_time_format(buf, sizeof(buf), 1490000867,
                                       "%Y-%m-%d %H:%M:%S %Z"), 0);
    assert_string_equal(buf, "2017-03-20 02:07:47 PDT");
    /* GNU's no-padding flags, which the Darshan log folders use */
    assert_int_equal(tokio_time_format(buf, sizeof(buf), 1490000867,
                                       "%-Y/%-m/%-d"), 0);
    assert_string_equal(buf, "2017/3/20");
    assert_int_equal(tokio_time_format(buf, sizeof(buf), 1490000867, ""), 0);
    assert_string_equal(buf, "");
    assert_int_equal(tokio_time_format(buf, 5, 1490000867, "%Y-%m"),
                     TOKIO_EINVAL);
    assert_string_equal(buf, "");
    assert_int_equal(tokio_time_format(buf, 8, 1490000867, "%Y-%m"), 0);
    assert_string_equal(buf, "2017-03");
    assert_int_equal(tokio_time_format(buf, 7, 1490000867, "%Y-%m"),
                     TOKIO_EINVAL);

    assert_int_equal(tokio_time_to_iso(buf, 20, 1490000867), 0);
    assert_string_equal(buf, "2017-03-20T02:07:47");
    assert_int_equal(tokio_time_to_iso(buf, 19, 1490000867), TOKIO_EINVAL);
    assert_int_equal(tokio_time_to_iso(buf, sizeof(buf), -1), 0);
    assert_string_equal(buf, "1969-12-31T15:59:59");
    assert_int_equal(tokio_time_to_iso(buf, sizeof(buf), INT64_MAX),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_time_format(NULL, 10, 0, "%Y"), TOKIO_EINVAL);
}

static void
test_time_iso_round_trips(void **state)
{
    char buf[32];
    int64_t t;

    (void)state;
    /* every hour over both 2017 DST changes, except the repeated hour's
     * second pass, which no local text can name */
    for (int64_t e = 1489219200; e < 1489431600; e += 1800) {
        assert_int_equal(tokio_time_to_iso(buf, sizeof(buf), e), 0);
        assert_int_equal(tokio_time_parse(buf, &t), 0);
        assert_int_equal(t, e);
    }
    for (int64_t e = 1509778800; e < 1509998400; e += 1800) {
        assert_int_equal(tokio_time_to_iso(buf, sizeof(buf), e), 0);
        assert_int_equal(tokio_time_parse(buf, &t), 0);
        if (e >= 1509872400 && e < 1509876000)
            assert_int_equal(t, e - 3600);       /* second 01:xx: PST */
        else
            assert_int_equal(t, e);
    }
}

/* ---- malformed ------------------------------------------------------- */

static void
test_time_parse_rejects_malformed(void **state)
{
    static const char *const bad[] = {
        "", "now", "2017", "2017-03", "17-03-20", "2017-3-20", "2017-03-2",
        "2017-03-20T", "2017-03-20T02", "2017-03-20T02:7", "2017-03-20T2:07",
        "2017-03-20T02:07:4", "2017-03-20T02:07:47 ", " 2017-03-20",
        "2017-03-20 ", "2017-03-20t02:07:47", "2017-03-20_02:07:47",
        "2017-13-01", "2017-00-10", "2017-03-00", "2017-03-32",
        "2017-04-31", "2017-02-29", "1900-02-29", "2017-03-20T24:00:00",
        "2017-03-20T02:60", "2017-03-20T02:07:60", "2017-03-20T02:07:47.",
        "2017-03-20T02:07.5", "2017-03-20Z", "2017-03-20T02:07:47+1",
        "2017-03-20T02:07:47+01", "2017-03-20T02:07:47+01:0",
        "2017-03-20T02:07:47+24:00", "2017-03-20T02:07:47+01:60",
        "2017-03-20T02:07:47+01:00Z", "2017-03-20T02:07:47z",
        "2017-03-20T02:07:47 PDT", "２０１７-03-20", "@", "@-", "@12x",
        "@ 12", "@1.5", "@99999999999999999999", "2017-03-20\n",
    };
    int64_t t = 42;

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        int rc = tokio_time_parse(bad[i], &t);
        if (rc != TOKIO_EINVAL)
            print_error("accepted '%s' as %lld\n", bad[i], (long long)t);
        assert_int_equal(rc, TOKIO_EINVAL);
        assert_int_equal(t, 42);                 /* untouched on failure */
    }
    assert_int_equal(tokio_time_parse("2017-13-01", &t), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "'2017-13-01'");
    assert_contains(tokio_errmsg(), "YYYY-MM-DD");
    assert_contains(tokio_errmsg(), "@EPOCH");
    assert_int_equal(tokio_errcode(), TOKIO_EINVAL);
    assert_int_equal(tokio_time_parse(NULL, &t), TOKIO_EINVAL);
    assert_int_equal(tokio_time_parse("2017-03-20", NULL), TOKIO_EINVAL);
}

/*
 * The cached conversion gives what the plain one gives for every quarter
 * hour of 2017-2018 in Los Angeles (two spring-forward gaps, two
 * fall-back overlaps), visited forwards and then in a scrambled order
 * so cached days are hit from every side.
 */
static void
test_time_local_epoch_cache_agrees_with_from_local(void **state)
{
    (void)state;
    struct tokio__local_days cache;
    const int64_t n = 2 * 365 * 96;
    int64_t hits = 0;

    memset(&cache, 0, sizeof(cache));
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t k = 0; k < n; k++) {
            int64_t i = pass == 0 ? k : (k * 7919) % n;
            int day = (int)(i / 96), q = (int)(i % 96);
            int64_t want, got;

            /* mday past the month's end is normalized, as mktime does */
            assert_int_equal(tokio_time_from_local(2017, 1, 1 + day, q / 4,
                                                   (q % 4) * 15, 7, &want),
                             TOKIO_OK);
            assert_int_equal(tokio__local_epoch(&cache, 2017, 1, 1 + day,
                                                q / 4, (q % 4) * 15, 7, &got),
                             TOKIO_OK);
            if (got != want)
                fail_msg("day %d quarter %d: %lld, want %lld", day, q,
                         (long long)got, (long long)want);
            hits += cache.day[0] != 0;
        }
    }
    assert_true(hits > 0);
    /* 2017-03-12 02:30 does not exist: the pre-gap offset, as mktime */
    assert_int_equal(tokio__local_epoch(&cache, 2017, 3, 12, 2, 30, 0,
                                        &hits), TOKIO_OK);
    assert_int_equal(hits, 1489314600);
    assert_int_equal(tokio__local_epoch(&cache, 2000000, 1, 1, 0, 0, 0,
                                        &hits), TOKIO_EINVAL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_time_parse_accepts_every_documented_form,
                               setup_tz),
        cmocka_unit_test_setup(test_time_parse_dst_edges, setup_tz),
        cmocka_unit_test_setup(test_time_from_local_resolves_and_normalizes,
                               setup_tz),
        cmocka_unit_test_setup(test_time_parse_honours_tz, setup_tz),
        cmocka_unit_test_setup(test_time_parse_format, setup_tz),
        cmocka_unit_test_setup(test_time_format_and_iso, setup_tz),
        cmocka_unit_test_setup(test_time_iso_round_trips, setup_tz),
        cmocka_unit_test_setup(test_time_parse_rejects_malformed, setup_tz),
        cmocka_unit_test_setup(test_time_local_epoch_cache_agrees_with_from_local,
                               setup_tz),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
