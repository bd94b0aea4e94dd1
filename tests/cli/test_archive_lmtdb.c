/*
 * tests/cli/test_archive_lmtdb.c - `tokio archive-lmtdb` from SQLite LMT
 * caches: every dataset of the HDF5 file it writes equals the
 * reference's golden (golden/pytokio/archive_lmtdb/: values bit for bit
 * including -0.0 for missing data and counter resets, columns,
 * timestamps, units and versions; "updated" differs by design), from the
 * sample and from the OSS-reboot day; updating the file again with the
 * same data changes nothing; an archive from a cache written by
 * cache-lmtdb equals one from the original; failures leave an existing
 * output file untouched; usage errors.
 */
#include "testutil.h"
#include "lmt_check.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#define INPUTS "pytokio-inputs/"
#define GOLDEN "golden/pytokio/archive_lmtdb/"

static const char *const env[] = { "TZ=America/Los_Angeles", NULL };

static void
archive(const char *input, const char *out, const char *day,
        const char *next, const char *end)
{
    char init_end[32], qs[32], qe[32];

    snprintf(qs, sizeof(qs), "%sT00:00:00", day);
    snprintf(qe, sizeof(qe), "%sT%s", next ? next : day, end);
    snprintf(init_end, sizeof(init_end), "%s", qe);
    const char *argv[] = { "archive-lmtdb", "--init-start", qs, "--init-end",
                           init_end, "--input", input, "--timestep", "5",
                           "--output", out, qs, qe, NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    if (r.status != 0)
        fail_msg("exit %d\nstderr: %s", r.status, r.err);
    assert_string_equal(r.err, "");
    tokio_run_free(&r);
}

/* archive() of the pack's database `input` for `day` into a new file,
 * `times` times over, equals the pack's `golden`. */
static void
archive_matches(const char *input, const char *golden, const char *day,
                const char *next, const char *end, int times)
{
    TOKIO_TEST_NEED_DATA(in, input);
    char *dir = tokio_test_mkdtemp(), out[4200], want[4200];

    snprintf(want, sizeof(want), "%s", tokio_test_data(golden));
    snprintf(out, sizeof(out), "%s/a.hdf5", dir);
    for (int i = 0; i < times; i++)
        archive(in, out, day, next, end);
    lmt_assert_same_tts(out, want);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_archive_lmtdb_matches_golden(void **state)
{
    (void)state;
    archive_matches(INPUTS "snx11025_2018-01-28.sqlite3",
                    GOLDEN "snx11025_2018-01-28.hdf5", "2018-01-28", NULL,
                    "00:05:00", 1);
}

/* Counters that go backwards (an OSS reboot) become -0.0, not negative. */
static void
test_archive_lmtdb_reset_matches_golden(void **state)
{
    (void)state;
    archive_matches(INPUTS "lmtdb-reset.sqlite3", GOLDEN "lmtdb-reset.hdf5",
                    "2018-04-18", "2018-04-19", "00:00:00", 1);
}

/* Archiving the same range into an existing file changes no value. */
static void
test_archive_lmtdb_update_is_idempotent(void **state)
{
    (void)state;
    archive_matches(INPUTS "snx11025_2018-01-28.sqlite3",
                    GOLDEN "snx11025_2018-01-28.hdf5", "2018-01-28", NULL,
                    "00:05:00", 2);
}

/* A cache written by cache-lmtdb archives like the database it came from. */
static void
test_archive_lmtdb_from_own_cache(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUTS "snx11025_2018-01-28.sqlite3");
    char *dir = tokio_test_mkdtemp(), cache[4200], out[4200], golden[4200];
    (void)state;

    snprintf(golden, sizeof(golden), "%s",
             tokio_test_data(GOLDEN "snx11025_2018-01-28.hdf5"));
    snprintf(cache, sizeof(cache), "%s/c.sqlite3", dir);
    snprintf(out, sizeof(out), "%s/a.hdf5", dir);
    /* one timestep past the end: archive-lmtdb needs it for the deltas */
    const char *argv[] = { "cache-lmtdb", "-i", in, "-o", cache,
                           "2018-01-28T00:00:00", "2018-01-28T00:05:05",
                           NULL };
    struct tokio_run r = tokio_test_run(NULL, env, argv);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    archive(cache, out, "2018-01-28", NULL, "00:05:00");
    lmt_assert_same_tts(out, golden);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Bad input or a range the existing file does not cover: exit 1, and
 * the file is exactly as before. */
static void
test_archive_lmtdb_failures_leave_output(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUTS "snx11025_2018-01-28.sqlite3");
    char *dir = tokio_test_mkdtemp(), out[4200], junk[4200];
    size_t len0, len1;
    (void)state;

    snprintf(out, sizeof(out), "%s/a.hdf5", dir);
    snprintf(junk, sizeof(junk), "%s/junk.sqlite3", dir);
    tokio_test_write_file(junk, "not a database, not at all, no no no no.",
                          SIZE_MAX);
    archive(in, out, "2018-01-28", NULL, "00:05:00");
    char *before = tokio_test_read_file(out, &len0);

    const char *bad_input[] = { "archive-lmtdb", "-i", junk, "-o", out,
                                "2018-01-28T00:00:00", "2018-01-28T00:05:00",
                                NULL };
    struct tokio_run r = tokio_test_run(NULL, env, bad_input);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "junk.sqlite3");
    tokio_run_free(&r);

    /* a range the file does not cover: nothing is committed */
    const char *outside[] = { "archive-lmtdb", "-i", in, "-o", out,
                              "2018-01-28T00:10:00", "2018-01-28T00:15:00",
                              NULL };
    r = tokio_test_run(NULL, env, outside);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "not a subset");
    tokio_run_free(&r);

    char *after = tokio_test_read_file(out, &len1);
    assert_int_equal(len0, len1);
    assert_memory_equal(before, after, len0);
    free(before);
    free(after);
    tokio_test_rmtree(dir);
    free(dir);
}

/* ---- issue 17: runaways, other files, concurrency, signals, disks ---- */

/* `argv` run in no folder in particular; exit status and the standard
 * error kept in *err (free()). */
static int
run(const char *const *argv, char **err)
{
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    *err = r.err;
    r.err = NULL;
    tokio_run_free(&r);
    return r.status;
}

/* Regression (issue 17, 3): 1900..2200 ran for minutes, reached 14.8 GB
 * and left a 15.7 GB temporary.  A range outside the span of a new file,
 * or a span of more rows than a file may hold, is a bad command line:
 * exit 2 at once, no file. */
static void
test_archive_lmtdb_runaway_range_is_refused(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUTS "snx11025_2018-01-28.sqlite3");
    char *dir = tokio_test_mkdtemp(), *out = tokio_test_join(dir, "o.hdf5");
    const char *wide[] = { "archive-lmtdb", "-i", in, "-o", out,
                           "1900-01-01T00:00:00", "2200-01-01T00:00:00",
                           NULL };
    const char *outside[] = { "archive-lmtdb", "-i", in, "-o", out,
                              "--init-start", "2018-01-28T00:00:00",
                              "--init-end", "2018-01-29T00:00:00",
                              "1900-01-01T00:00:00", "2200-01-01T00:00:00",
                              NULL };
    char *err;
    (void)state;

    assert_int_equal(run(wide, &err), 2);
    assert_contains(err, "rows");
    free(err);
    assert_int_equal(run(outside, &err), 2);
    assert_contains(err, "must lie within --init-start..--init-end");
    free(err);
    assert_int_equal(tokio_test_count_entries(dir), 0);
    tokio_test_rmtree(dir);
    free(out);
    free(dir);
}

/* A file with root attribute version = `version` and one group. */
static void
make_foreign(const char *path, const char *version)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t s = H5Screate(H5S_SCALAR), t = H5Tcopy(H5T_C_S1);
    hid_t a, g;

    assert_true(f >= 0);
    H5Tset_size(t, strlen(version));
    a = H5Acreate2(f, "version", t, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, t, version);
    H5Aclose(a);
    g = H5Gcreate2(f, "datatargets", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(g);
    H5Tclose(t);
    H5Sclose(s);
    H5Fclose(f);
}

/* Regression (issue 17, 11): an H5LMT file or a TTS of version "99" was
 * updated (groups added, the version rewritten to 1) and then misread.
 * Now refused, naming the file and why, and left byte for byte. */
static void
test_archive_lmtdb_refuses_files_it_does_not_own(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUTS "snx11025_2018-01-28.sqlite3");
    TOKIO_TEST_NEED_DATA(h5lmt, INPUTS "snx11025_2018-01-28.h5lmt");
    char *dir = tokio_test_mkdtemp(), path[4200], *err;
    const char *argv[] = { "archive-lmtdb", "-i", in, "-o", path,
                           "2018-01-28T00:00:00", "2018-01-28T00:05:00",
                           NULL };
    static const char *const why[] = {
        "is an H5LMT file, not a TOKIO Time Series: not updated",
        "is a TOKIO Time Series of unknown version '99': not updated",
        "is an HDF5 file without a schema version",
    };
    (void)state;

    for (int k = 0; k < 3; k++) {
        size_t len0, len1;

        snprintf(path, sizeof(path), "%s/f%d.hdf5", dir, k);
        if (k == 0) {
            char *data = tokio_test_read_file(h5lmt, &len0);
            tokio_test_write_file(path, data, len0);
            free(data);
        } else {
            make_foreign(path, k == 1 ? "99" : "x");
        }
        if (k == 2) {   /* no version at all, but a group */
            hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
            H5Adelete(f, "version");
            H5Fclose(f);
        }
        char *before = tokio_test_read_file(path, &len0);
        assert_int_equal(run(argv, &err), 1);
        assert_contains(err, path);
        assert_contains(err, why[k]);
        free(err);
        char *after = tokio_test_read_file(path, &len1);
        assert_int_equal(len0, len1);
        assert_memory_equal(before, after, len0);
        free(before);
        free(after);
    }
    tokio_test_rmtree(dir);
    free(dir);
}

/* archive-lmtdb of `day`'s [from, to) into `out` (a day's span). */
static const char **
half(const char *in, const char *out, const char *from, const char *to)
{
    static const char *argv[2][14];
    static int k;
    const char **a = argv[k++ % 2];
    const char *const v[] = { "archive-lmtdb", "--init-start",
                              "2018-01-28T00:00:00", "--init-end",
                              "2018-01-29T00:00:00", "-i", in, "-o", out,
                              from, to, NULL };

    memcpy(a, v, sizeof(v));
    return a;
}

/* Regression (issue 17, 1): two runs into one file at once, one for each
 * half of the sample's five minutes, both exited 0 and one half was gone
 * (10 of 10 trials).  Now the second waits for the first's lock: the
 * file equals the one the two make one after the other. */
static void
test_archive_lmtdb_concurrent_halves_both_land(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUTS "snx11025_2018-01-28.sqlite3");
    char *dir = tokio_test_mkdtemp(), *err;
    char *ref = tokio_test_join(dir, "ref.hdf5");
    char *out = tokio_test_join(dir, "out.hdf5");
    const char *a = "2018-01-28T00:00:00", *m = "2018-01-28T00:02:30";
    const char *b = "2018-01-28T00:05:00";
    (void)state;

    assert_int_equal(run(half(in, ref, a, m), &err), 0);
    free(err);
    assert_int_equal(run(half(in, ref, m, b), &err), 0);
    free(err);
    for (int trial = 0; trial < 3; trial++) {
        struct tokio_run r[2];
        const char *const *argvs[2];

        unlink(out);
        /* made first, so both runs update it */
        assert_int_equal(run(half(in, out, a, "2018-01-28T00:00:05"), &err),
                         0);
        free(err);
        argvs[0] = half(in, out, a, m);
        argvs[1] = half(in, out, m, b);
        tokio_test_run_concurrently(NULL, env, argvs, 2, r);
        for (int k = 0; k < 2; k++) {
            if (r[k].status != 0)
                fail_msg("half %d: exit %d: %s", k, r[k].status, r[k].err);
            tokio_run_free(&r[k]);
        }
        lmt_assert_same_tts(out, ref);
    }
    assert_int_equal(tokio_test_count_temporaries(dir), 0);
    tokio_test_rmtree(dir);
    free(ref);
    free(out);
    free(dir);
}

/* Regression (issue 17, 9): SIGINT, SIGTERM or SIGHUP while the update's
 * temporary exists (a two-month file being copied, or made) removes it,
 * and the file is as it was: absent, or byte for byte. */
static void
test_archive_lmtdb_signals_leave_no_temporary(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUTS "snx11025_2018-01-28.sqlite3");
    char *dir = tokio_test_mkdtemp(), *err;
    char *out = tokio_test_join(dir, "o.hdf5");
    const char *argv[] = { "archive-lmtdb", "--init-start",
                           "2018-01-01T00:00:00", "--init-end",
                           "2018-03-01T00:00:00", "-i", in, "-o", out,
                           "2018-01-28T00:00:00", "2018-01-28T00:05:00",
                           NULL };
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    (void)state;

    for (int existing = 0; existing < 2; existing++) {
        for (size_t k = 0; k < 3; k++) {
            size_t len0 = 0, len1 = 0;
            char *before = NULL, *after;
            int caught;

            if (existing) {
                unlink(out);
                assert_int_equal(run(argv, &err), 0);
                free(err);
                before = tokio_test_read_file(out, &len0);
            }
            struct tokio_run r = tokio_test_run_signalled(NULL, env, argv,
                                                          dir, sigs[k],
                                                          &caught);
            if (!caught)
                fail_msg("the update ended (exit %d) before its temporary "
                         "was seen", r.status);
            assert_int_equal(r.status, 128 + sigs[k]);
            tokio_run_free(&r);
            assert_int_equal(tokio_test_count_temporaries(dir), 0);
            after = tokio_test_read_file(out, &len1);
            if (existing) {
                assert_non_null(after);
                assert_int_equal(len0, len1);
                assert_memory_equal(before, after, len0);
            } else {
                assert_null(after);
            }
            free(before);
            free(after);
        }
    }
    tokio_test_rmtree(dir);
    free(out);
    free(dir);
}

/* Regression (issue 17, 2): on a full file system the error was printed,
 * then HDF5's exit handler died of SIGSEGV (exit 139).  Now exit 1 with
 * one line naming the file and the cause, and nothing left: in a 64 KiB
 * tmpfs (mounted in a private namespace; skipped where that is not
 * allowed) and under a file-size limit. */
static void
test_archive_lmtdb_full_disk_fails_cleanly(void **state)
{
    TOKIO_TEST_NEED_DATA(in, INPUTS "snx11025_2018-01-28.sqlite3");
    char *dir = tokio_test_mkdtemp();
    const char *argv[] = { "archive-lmtdb", "-i", in, "-o", "o.hdf5",
                           "2018-01-28T00:00:00", "2018-01-28T00:05:00",
                           NULL };
    (void)state;

    tokio_test_full_disk_fails(dir, env, argv, "o.hdf5");
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_archive_lmtdb_usage_errors(void **state)
{
    static const char *const cases[][8] = {
        { "archive-lmtdb", NULL },
        { "archive-lmtdb", "2018-01-28T00:05:00", "2018-01-28T00:00:00",
          NULL },
        { "archive-lmtdb", "--timestep", "0", "2018-01-28T00:00:00",
          "2018-01-28T00:05:00", NULL },
        { "archive-lmtdb", "--init-start", "noon", "2018-01-28T00:00:00",
          "2018-01-28T00:05:00", NULL },
        { "archive-lmtdb", "--password", "x", "2018-01-28T00:00:00",
          "2018-01-28T00:05:00", NULL },
    };
    (void)state;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_run r = tokio_test_run(NULL, env, cases[i]);

        assert_int_equal(r.status, 2);
        assert_contains(r.err, "see 'tokio archive-lmtdb --help'");
        tokio_run_free(&r);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_archive_lmtdb_matches_golden),
        cmocka_unit_test(test_archive_lmtdb_reset_matches_golden),
        cmocka_unit_test(test_archive_lmtdb_update_is_idempotent),
        cmocka_unit_test(test_archive_lmtdb_from_own_cache),
        cmocka_unit_test(test_archive_lmtdb_failures_leave_output),
        cmocka_unit_test(test_archive_lmtdb_runaway_range_is_refused),
        cmocka_unit_test(test_archive_lmtdb_refuses_files_it_does_not_own),
        cmocka_unit_test(test_archive_lmtdb_concurrent_halves_both_land),
        cmocka_unit_test(test_archive_lmtdb_signals_leave_no_temporary),
        cmocka_unit_test(test_archive_lmtdb_full_disk_fails_cleanly),
        cmocka_unit_test(test_archive_lmtdb_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
