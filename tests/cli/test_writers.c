/*
 * tests/cli/test_writers.c - issue 17's rules for every command that
 * writes a file with -o, over one table of them all:
 *
 *  - two updates of one file at once both land (archive-mmperfmon,
 *    cache-lmtdb, cache-nersc-jobsdb: archive-lmtdb's is in
 *    test_archive_lmtdb.c);
 *  - a full disk fails on one line naming the file, leaving nothing but
 *    the lock (archive-mmperfmon: archive-lmtdb's, again, there);
 *  - SIGINT, SIGTERM or SIGHUP while the temporary exists leaves no
 *    temporary and the old output byte for byte: the command is held
 *    just before its rename by tests/hold_rename.c (LD_PRELOAD), so the
 *    signal lands when the temporary is written in full, however fast
 *    the command;
 *  - through a symbolic link the file it names is written, existing or
 *    not, and the link stays; an existing mode-0444 output is refused
 *    for a user who is not root (the command runs as nobody when the
 *    tests run as root).
 */
#include "testutil.h"
#include "lmt_check.h"

#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the table -------------------------------------------------------- */

#define OUT "@OUT@"             /* where the output's path goes */
#define HISTORY "@HISTORY@"     /* examples/ior-history.csv */

struct writer {
    int updates;        /* reads the file it replaces: an old output must
                           be one of its own; 2: updates it in place, in
                           SQLite transactions (no temporary to signal) */
    const char *argv[24];
};

/* Every command with -o (src/cli: OPT_OUTPUT, or an "output" option),
 * on a small input of the test data, run from a COMMANDS.md folder. */
static const struct writer writers[] = {
    { 1, { "archive-collectdes", "--init-start", "2017-12-13T00:00:00",
           "--init-end", "2017-12-13T01:00:00", "--input",
           "inputs/sample_collectdes-full.json.gz", "--num-nodes", "288",
           "--ssds-per-node", "4", "--timestep", "10", "-o", OUT,
           "2017-12-13T00:00:00", "2017-12-13T01:00:00", NULL } },
    { 1, { "archive-esnet-snmp", "--init-start", "2019-02-11T00:00:00",
           "--init-end", "2019-02-11T23:59:59", "-i",
           "inputs/esnet_snmp.json.gz", "-o", OUT, "--timeout", "5",
           "2019-02-11T00:00:00", "2019-02-11T23:59:59", "nersc", NULL } },
    { 1, { "archive-lmtdb", "-i", "inputs/snx11025_2018-01-28.sqlite3",
           "-o", OUT, "2018-01-28T00:00:00", "2018-01-28T00:05:00",
           NULL } },
    { 1, { "archive-mmperfmon", "--filesystem", "testfs-mini",
           "--init-start", "2019-05-15T00:00:00", "--init-end",
           "2019-05-16T00:00:00", "--timestep", "60", "-o", OUT,
           "2019-05-15T11:00:00", "2019-05-15T12:00:00", NULL } },
    { 0, { "cache-collectdes", "--input",
           "inputs/sample_collectdes-part.json.gz", "-o", OUT,
           "2017-12-13T00:00:00", "2017-12-13T01:00:00", NULL } },
    { 0, { "cache-craysdb", "-o", OUT, "inputs/sample.xtdb2proc.gz",
           NULL } },
    { 0, { "cache-darshan", "--total", "-o", OUT, "inputs/sample.darshan",
           NULL } },
    { 0, { "cache-esnet-snmp", "-i", "inputs/esnet_snmp.json.gz", "-s",
           "2019-02-11T01:00:00", "-e", "2019-02-11T01:05:00", "--json",
           "-o", OUT, "nersc", NULL } },
    { 0, { "cache-globuslogs", "-o", OUT, "inputs/globuslogs.txt.gz",
           NULL } },
    { 0, { "cache-hpss", "-o", OUT, "inputs/hpss_daily.txt", NULL } },
    { 0, { "cache-isdct", "-o", OUT, "inputs/sample_nersc_isdct.tgz",
           NULL } },
    { 0, { "cache-lfsstatus", "--fullness",
           "inputs/sample_ost-fullness.txt.gz", "-o", OUT, "snx11035",
           "2017-03-20T02:07:47", NULL } },
    { 1, { "cache-lmtdb", "-i", "inputs/snx11025_2018-01-28.sqlite3", "-o",
           OUT, "2018-01-28T00:00:00", "2018-01-28T00:05:05", NULL } },
    { 0, { "cache-mmperfmon", "-o", OUT, "inputs/mmperfmon-usage.txt.gz",
           NULL } },
    { 0, { "cache-nersc-globuslogs", "--input", "inputs/globuslogs.json.gz",
           "-o", OUT, "2019-01-29T00:00:00", "2019-01-29T00:10:00",
           NULL } },
    { 1, { "cache-nersc-jobsdb", "-i", "inputs/sample_nersc_jobsdb.sqlite3",
           "-o", OUT, "2017-03-18T14:24:59", "2017-03-21T23:20:56",
           "edison", NULL } },
    { 0, { "cache-slurm", "--json", "-o", OUT, "inputs/sample.slurm",
           NULL } },
    { 0, { "cache-topology", "--nodemap-cache", "inputs/sample.xtdb2proc.gz",
           "--jobinfo-cache", "inputs/sample.slurm", "-o", OUT, NULL } },
    { 0, { "darshan-bad-ost", "-o", OUT, "inputs/sample-badost.darshan",
           NULL } },
    { 0, { "export-tts", "-o", OUT, "inputs/sample_tokiots.hdf5",
           "datatargets/readbytes", NULL } },
    { 2, { "index-darshanlogs", "-o", OUT, "inputs/sample.darshan", NULL } },
    { 0, { "insights", "--json", "-o", OUT, "inputs/sample.darshan",
           NULL } },
    { 0, { "report", "-o", OUT, "inputs/sample.darshan", NULL } },
    { 0, { "summarize-darshanlogs", "-o", OUT, "inputs/sample.darshan",
           NULL } },
    { 0, { "summarize-h5lmt", "-o", OUT,
           "inputs/snx11025_2018-01-28.h5lmt", NULL } },
    { 0, { "summarize-job", "--output", OUT, "inputs/sample.darshan",
           NULL } },
    { 0, { "summarize-tts", "-o", OUT, "inputs/sample_tokiots.hdf5",
           NULL } },
    { 0, { "umami", "--format", "csv", "-o", OUT, HISTORY, NULL } },
};
#define N_WRITERS (sizeof(writers) / sizeof(writers[0]))

static const char *const env[] = { "TZ=America/Los_Angeles",
                                   "PYTOKIO_CONFIG=inputs/site.json", NULL };

/* `w`'s arguments with the output at `out` (static; valid until the next
 * call). */
static const char *const *
args(const struct writer *w, const char *out)
{
    static const char *a[24];
    static char history[4096];

    snprintf(history, sizeof(history), "%s",
             tokio_test_source("examples/ior-history.csv"));
    for (size_t i = 0; i < 24; i++) {
        a[i] = w->argv[i];
        if (a[i] != NULL && strcmp(a[i], OUT) == 0)
            a[i] = out;
        else if (a[i] != NULL && strcmp(a[i], HISTORY) == 0)
            a[i] = history;
        if (a[i] == NULL)
            break;
    }
    return a;
}

/* Run `w` in `dir` writing `out`; it must work. */
static void
run_ok(const char *dir, const struct writer *w, const char *out)
{
    struct tokio_run r = tokio_test_run(dir, env, args(w, out));

    if (r.status != 0)
        fail_msg("%s -o %s: exit %d: %s", w->argv[0], out, r.status, r.err);
    tokio_run_free(&r);
}

/* ---- signals ---------------------------------------------------------- */

/* Regression (issue 17, 9): SIGINT, SIGTERM or SIGHUP during an -o write
 * left ".NAME.XXXXXX" behind.  Each writer, held between its temporary
 * and the rename, is signalled (SIGINT, SIGTERM, SIGHUP in turn down the
 * table, each signal on nine or ten writers): it dies of the signal, no
 * temporary is left, and the old output is there byte for byte. */
static void
test_every_writer_cleans_up_on_signals(void **state)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    struct tokio_workdir wd;
    char preload[4200];
    (void)state;

    TOKIO_TEST_NEED_WORKDIR(&wd);
    snprintf(preload, sizeof(preload), "LD_PRELOAD=%s", TOKIO_HOLD_RENAME);
    const char *held[] = { "TZ=America/Los_Angeles",
                           "PYTOKIO_CONFIG=inputs/site.json", preload,
                           /* the preloaded library comes before ASan's */
                           tokio_test_sanitized()
                           ? "ASAN_OPTIONS=verify_asan_link_order=0" : NULL,
                           NULL };
    char *outdir = tokio_test_join(wd.dir, "out");
    assert_int_equal(mkdir(outdir, 0700), 0);
    for (size_t i = 0; i < N_WRITERS; i++) {
        const struct writer *w = &writers[i];
        char name[64], *path;
        size_t len0, len1;

        if (w->updates == 2)
            continue;

        snprintf(name, sizeof(name), "out/%s.out", w->argv[0]);
        path = tokio_test_join(wd.dir, name);
        if (w->updates)
            run_ok(wd.dir, w, name);
        else
            tokio_test_write_file(path, "the old output\n", SIZE_MAX);
        char *before = tokio_test_read_file(path, &len0);
        /* the three signals in turn over the table (one handler for
         * all: a run per writer keeps the test short) */
        const int sig = sigs[i % 3];
        int caught;
        struct tokio_run r = tokio_test_run_signalled(
            wd.dir, held, args(w, name), outdir, sig, &caught);

        if (!caught || r.status != 128 + sig)
            fail_msg("%s, signal %d: %s, exit %d: %s", w->argv[0], sig,
                     caught ? "signalled" : "no temporary seen", r.status,
                     r.err);
        tokio_run_free(&r);
        if (tokio_test_count_temporaries(outdir) != 0)
            fail_msg("%s, signal %d: a temporary is left", w->argv[0], sig);
        char *after = tokio_test_read_file(path, &len1);
        if (after == NULL || len1 != len0 || memcmp(before, after, len0) != 0)
            fail_msg("%s, signal %d: the old output changed", w->argv[0],
                     sig);
        free(after);
        free(before);
        free(path);
    }
    free(outdir);
    tokio_test_workdir_free(&wd);
}

/* ---- links and permissions -------------------------------------------- */

/* Make a folder and what is under it open to every user (nftw()). */
static int
open_up(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)f;
    if (flag == FTW_D || flag == FTW_DP)
        chmod(path, 0755);
    (void)st;
    return 0;
}

/* `link` is still a symbolic link to `target`. */
static void
assert_link(const char *cmd, const char *link, const char *target)
{
    char buf[4096];
    struct stat st;
    ssize_t n = -1;

    if (lstat(link, &st) != 0 || !S_ISLNK(st.st_mode) ||
        (n = readlink(link, buf, sizeof(buf) - 1)) < 0)
        fail_msg("%s: %s is no longer a symbolic link", cmd, link);
    buf[n] = '\0';
    assert_string_equal(buf, target);
}

/* Regression (issue 17, 10): cache-lmtdb and cache-nersc-jobsdb replaced
 * a link itself rather than the file it names, a link to a file not yet
 * existing was replaced by every command, and a mode-0444 output was
 * replaced for a user who may not write it.  One rule for all: through
 * links the file they name, existing or not, the link kept; a file the
 * user may not write is refused, naming it (given directly or through a
 * link, in turn down the table), and left as it was. */
static void
test_every_writer_follows_links_and_modes(void **state)
{
    struct tokio_workdir wd;
    int as_nobody = geteuid() == 0, nobody_ok = 1;
    (void)state;

    TOKIO_TEST_NEED_WORKDIR(&wd);
    char *outdir = tokio_test_join(wd.dir, "out");
    assert_int_equal(mkdir(outdir, 0777), 0);
    if (as_nobody) {
        /* the inputs readable, the output folder writable by nobody */
        assert_int_equal(chmod(outdir, 0777), 0);
        nftw(wd.top, open_up, 16, FTW_PHYS);
        nftw(wd.dir, open_up, 16, FTW_PHYS);
        assert_int_equal(chmod(outdir, 0777), 0);
    }
    for (size_t i = 0; i < N_WRITERS; i++) {
        const struct writer *w = &writers[i];
        const char *cmd = w->argv[0];
        char link_rel[128], real_name[96], real_rel[128];
        struct stat st0, st1;

        snprintf(link_rel, sizeof(link_rel), "out/%s.link", cmd);
        snprintf(real_name, sizeof(real_name), "%s.real", cmd);
        snprintf(real_rel, sizeof(real_rel), "out/%s", real_name);
        char *link = tokio_test_join(wd.dir, link_rel);
        char *real = tokio_test_join(wd.dir, real_rel);

        /* a link to a file not yet there: the file is made */
        assert_int_equal(symlink(real_name, link), 0);
        run_ok(wd.dir, w, link_rel);
        assert_link(cmd, link, real_name);
        if (stat(real, &st0) != 0 || !S_ISREG(st0.st_mode) ||
            st0.st_size == 0)
            fail_msg("%s: -o through a link to nothing made no %s", cmd,
                     real);

        /* a link to an existing file: that file is replaced */
        if (!w->updates) {
            tokio_test_write_file(real, "the old output\n", SIZE_MAX);
            assert_int_equal(stat(real, &st0), 0);
        }
        run_ok(wd.dir, w, link_rel);
        assert_link(cmd, link, real_name);
        assert_int_equal(stat(real, &st1), 0);
        if ((w->updates != 2 && st1.st_ino == st0.st_ino) ||
            !S_ISREG(st1.st_mode))
            fail_msg("%s: -o through a link did not replace %s", cmd, real);
        if (!w->updates) {
            char *text = tokio_test_read_file(real, NULL);
            assert_string_not_equal(text, "the old output\n");
            free(text);
        }
        assert_int_equal(tokio_test_count_temporaries(outdir), 0);

        /* an existing file of mode 0444: refused for a user who is not
         * root, through the link or not */
        if (nobody_ok) {
            size_t len0, len1;

            assert_int_equal(chmod(real, 0444), 0);
            char *before = tokio_test_read_file(real, &len0);
            /* the file and a link to it in turn over the table */
            for (int via_link = (int)(i % 2); via_link == (int)(i % 2);
                 via_link++) {
                const char *const *a = args(w, via_link ? link_rel
                                                        : real_rel);
                struct tokio_run r = as_nobody
                    ? tokio_test_run_as_nobody(wd.dir, env, a)
                    : tokio_test_run(wd.dir, env, a);

                if (as_nobody && r.status == 125) {
                    print_message("skipped: cannot run as nobody here, so "
                                  "mode 0444 was not tried\n");
                    nobody_ok = 0;
                    tokio_run_free(&r);
                    break;
                }
                /* index-darshanlogs with nothing new to add writes
                 * nothing (the file is checked below) */
                if (w->updates == 2 && r.status == 0) {
                    tokio_run_free(&r);
                    continue;
                }
                if (r.status != 1)
                    fail_msg("%s -o %s (mode 0444): exit %d: %s", cmd,
                             via_link ? "a link" : "the file", r.status,
                             r.err);
                assert_contains(r.err, via_link ? link_rel : real_rel);
                assert_contains(r.err, "Permission denied");
                tokio_run_free(&r);
            }
            char *after = tokio_test_read_file(real, &len1);
            assert_int_equal(len0, len1);
            assert_memory_equal(before, after, len0);
            assert_int_equal(stat(real, &st0), 0);
            assert_int_equal(st0.st_mode & 07777, 0444);
            free(before);
            free(after);
            assert_int_equal(tokio_test_count_temporaries(outdir), 0);
        }
        /* a file nobody may write, whose lock root made (0644): the
         * update takes the lock read-only and goes through */
        if (nobody_ok && as_nobody && w->updates == 1) {
            assert_int_equal(chmod(real, 0666), 0);
            struct tokio_run r = tokio_test_run_as_nobody(wd.dir, env,
                                                          args(w, link_rel));
            if (r.status != 0)
                fail_msg("%s -o %s as nobody: exit %d: %s", cmd, link_rel,
                         r.status, r.err);
            tokio_run_free(&r);
            assert_link(cmd, link, real_name);
        }
        free(link);
        free(real);
    }
    free(outdir);
    tokio_test_workdir_free(&wd);
}

/* ---- two updates at once ---------------------------------------------- */

/* Run the two argument vectors at once in `dir`; both must work. */
static void
at_once(const char *dir, const char *const *a, const char *const *b)
{
    const char *const *argvs[2] = { a, b };
    struct tokio_run r[2];

    tokio_test_run_concurrently(dir, env, argvs, 2, r);
    for (int k = 0; k < 2; k++) {
        if (r[k].status != 0)
            fail_msg("%s, update %d of 2: exit %d: %s", argvs[k][0], k,
                     r[k].status, r[k].err);
        tokio_run_free(&r[k]);
    }
}

/* Run `argv` in `dir`; it must work. */
static void
ok(const char *dir, const char *const *argv)
{
    struct tokio_run r = tokio_test_run(dir, env, argv);

    if (r.status != 0)
        fail_msg("%s: exit %d: %s", argv[0], r.status, r.err);
    tokio_run_free(&r);
}

/* An SQLite file as its sorted `.dump` lines (free()); NULL without the
 * sqlite3 command. */
static char *
sorted_dump(const char *path)
{
    char *text = tokio_test_sqlite_dump(path);

    return text ? lmt_sort_lines(text) : NULL;
}

/* The 1-based line where `a` and `b` first differ. */
static size_t
first_difference(const char *a, const char *b)
{
    size_t line = 1;

    for (; *a && *a == *b; a++, b++)
        line += *a == '\n';
    return line;
}

/* Regression (issue 17, 1): two cache-lmtdb or cache-nersc-jobsdb runs
 * updating one cache at once each kept only their own rows (3 of 3 and
 * 2 of 3 trials).  The first-made cache, then the two halves of the
 * range at once: the cache is, row for row, what the halves make one
 * after the other. */
static void
test_sqlite_caches_take_both_updates(void **state)
{
    static const struct {
        const char *cmd, *input, *from, *first, *mid, *to, *tail;
    } cases[] = {
        { "cache-lmtdb", "inputs/snx11025_2018-01-28.sqlite3",
          "2018-01-28T00:00:00", "2018-01-28T00:00:10",
          "2018-01-28T00:02:30", "2018-01-28T00:05:05", NULL },
        { "cache-nersc-jobsdb", "inputs/sample_nersc_jobsdb.sqlite3",
          "2017-03-18T14:24:59", "2017-03-19T00:00:00",
          "2017-03-20T02:00:00", "2017-03-21T23:20:56", "edison" },
    };
    struct tokio_workdir wd;
    (void)state;

    TOKIO_TEST_NEED_WORKDIR(&wd);
    for (size_t c = 0; c < 2; c++) {
        const char *cmd = cases[c].cmd, *in = cases[c].input;
        const char *a[] = { cmd, "-i", in, "-o", "ref.sqlite3",
                            cases[c].from, cases[c].mid, cases[c].tail,
                            NULL };
        const char *b[] = { cmd, "-i", in, "-o", "ref.sqlite3",
                            cases[c].mid, cases[c].to, cases[c].tail, NULL };
        char *ref = tokio_test_join(wd.dir, "ref.sqlite3");
        char *out = tokio_test_join(wd.dir, "o.sqlite3");

        unlink(ref);
        ok(wd.dir, a);
        char *half = sorted_dump(ref);
        TOKIO_TEST_NEED_SQLITE3(half);
        ok(wd.dir, b);
        char *want = sorted_dump(ref);
        assert_string_not_equal(half, want);    /* each half has rows */
        for (int trial = 0; trial < 3; trial++) {
            unlink(out);
            a[4] = b[4] = "o.sqlite3";
            /* an existing cache, so that both runs update it */
            const char *first[] = { cmd, "-i", in, "-o", "o.sqlite3",
                                    cases[c].from, cases[c].first,
                                    cases[c].tail, NULL };
            ok(wd.dir, first);
            at_once(wd.dir, a, b);
            char *got = sorted_dump(out);
            if (strcmp(got, want) != 0)
                fail_msg("%s: the cache updated twice at once lost rows "
                         "(trial %d): line %zu differs", cmd, trial,
                         first_difference(got, want));
            free(got);
        }
        assert_int_equal(tokio_test_count_temporaries(wd.dir), 0);
        free(half);
        free(want);
        free(ref);
        free(out);
    }
    tokio_test_workdir_free(&wd);
}

/* A site of archive-mmperfmon's own: one data server with two LUNs. */
static const char mm_site[] =
    "{\"mmperfmon_lun_map\": {\"^lun\\\\d+$\": \"datatarget\"}, "
    "\"mmperfmon_server_map\": {\"^meta\": \"mdserver\"}}";

/* An hour of mmperfmon output: 2019-01-11 `hour`:01 and :02 (PST). */
static void
mm_hour(const char *dir, int hour, double base)
{
    char path[4200], text[1024];

    snprintf(path, sizeof(path), "%s/%02d.txt", dir, hour);
    snprintf(text, sizeof(text),
             "Legend:\n"
             " 1:\tdata1|CPU|cpu_user\n"
             " 2:\tdata1|GPFSNSDDisk|lun2|gpfs_nsdds_bytes_read\n"
             " 3:\tdata1|GPFSNSDDisk|lun10|gpfs_nsdds_bytes_read\n"
             "Row           Timestamp cpu_user  lun2 lun10 \n"
             "  1 2019-01-11-%02d:01:00     0.25%6g  null \n"
             "  2 2019-01-11-%02d:02:00     0.75%6g    30 \n",
             hour, base, hour, base + 1);
    tokio_test_write_file(path, text, SIZE_MAX);
}

static const char *const mm_sets[] = { "/datatargets/readbytes",
                                       "/dataservers/cpuuser",
                                       "/dataservers/cpuload" };

/* datatargets/readbytes of `path` at `row`, column data1:lun2. */
static double
lun2(const char *path, size_t row)
{
    struct tokio_hdf5 *h = NULL;
    struct tokio_timeseries *ts = NULL;

    assert_int_equal(tokio_hdf5_open(&h, path, 0), 0);
    assert_int_equal(tokio_hdf5_to_timeseries(h, "datatargets/readbytes",
                                              &ts), 0);
    long c = tokio_timeseries_column_index(ts, "data1:lun2");
    assert_true(c >= 0 && row < tokio_timeseries_rows(ts));
    double v = tokio_timeseries_cdata(ts)[row * tokio_timeseries_cols(ts) +
                                          (size_t)c];
    tokio_timeseries_free(ts);
    tokio_hdf5_free(h);
    return v;
}

/* Regression (issue 17, 1): archive-mmperfmon rewrote every row of the
 * file's span, so of two updates of one file (the hours 10 and 11 of a
 * file made for 10 to 12) the last erased the other, one after the other
 * as well as at once (5 of 5).  Now each commits the rows of its own
 * data and query, under the file's lock: both hours land, at once too,
 * and the file equals the one the two make in turn. */
static void
test_archive_mmperfmon_takes_both_updates(void **state)
{
    char *dir = tokio_test_mkdtemp(), path[4200];
    const char *const mm_env[] = { "TZ=America/Los_Angeles",
                                   "PYTOKIO_CONFIG=site.json", NULL };
    (void)state;

    snprintf(path, sizeof(path), "%s/site.json", dir);
    tokio_test_write_file(path, mm_site, SIZE_MAX);
    mm_hour(dir, 10, 10);
    mm_hour(dir, 11, 110);
#define MM(out, file) { "archive-mmperfmon", "--filesystem", "fs1",       \
        "--init-start", "2019-01-11T10:00:00", "--init-end",               \
        "2019-01-11T12:00:00", "-o", (out), "--files", (file), NULL }
    const char *ref10[] = MM("ref.hdf5", "10.txt");
    const char *ref11[] = MM("ref.hdf5", "11.txt");
    const char *a[] = MM("o.hdf5", "10.txt");
    const char *b[] = MM("o.hdf5", "11.txt");
#undef MM
    struct tokio_run r;
    char *ref = tokio_test_join(dir, "ref.hdf5");
    char *out = tokio_test_join(dir, "o.hdf5");

    r = tokio_test_run(dir, mm_env, ref10);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    r = tokio_test_run(dir, mm_env, ref11);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    /* one after the other: both hours (row 0 is 10:00-10:01, row 60
     * 11:00-11:01) */
    assert_true(lun2(ref, 0) == 10.0 && lun2(ref, 1) == 11.0);
    assert_true(lun2(ref, 60) == 110.0 && lun2(ref, 61) == 111.0);
    for (int trial = 0; trial < 3; trial++) {
        const char *const *argvs[2] = { a, b };
        struct tokio_run rr[2];

        unlink(out);
        r = tokio_test_run(dir, mm_env, a);     /* made first */
        assert_int_equal(r.status, 0);
        tokio_run_free(&r);
        tokio_test_run_concurrently(dir, mm_env, argvs, 2, rr);
        for (int k = 0; k < 2; k++) {
            if (rr[k].status != 0)
                fail_msg("update %d: exit %d: %s", k, rr[k].status,
                         rr[k].err);
            tokio_run_free(&rr[k]);
        }
        tts_assert_same(out, ref, mm_sets, 3);
    }
    assert_int_equal(tokio_test_count_temporaries(dir), 0);
    free(ref);
    free(out);
    tokio_test_rmtree(dir);
    free(dir);
}

/* 1 when dataset `set` of the TTS files `a` and `b` holds the same cells
 * (bit for bit). */
static int
same_cells(const char *a, const char *b, const char *set)
{
    struct tokio_hdf5 *h[2] = { NULL, NULL };
    struct tokio_timeseries *ts[2] = { NULL, NULL };
    int same;

    for (int k = 0; k < 2; k++) {
        assert_int_equal(tokio_hdf5_open(&h[k], k ? b : a, 0), 0);
        assert_int_equal(tokio_hdf5_to_timeseries(h[k], set, &ts[k]), 0);
    }
    size_t n = tokio_timeseries_rows(ts[0]) * tokio_timeseries_cols(ts[0]);
    same = n == tokio_timeseries_rows(ts[1]) * tokio_timeseries_cols(ts[1])
           && memcmp(tokio_timeseries_cdata(ts[0]),
                     tokio_timeseries_cdata(ts[1]), n * sizeof(double)) == 0;
    for (int k = 0; k < 2; k++) {
        tokio_timeseries_free(ts[k]);
        tokio_hdf5_free(h[k]);
    }
    return same;
}

/* archive-esnet-snmp fed from a file: the two halves of its five minutes
 * at once, into a file the first made, give what they give in turn.
 * (archive-collectdes archives every record of its --input whatever the
 * range, so halves of a file are the same update; its update, as
 * archive-lmtdb's, reads the file under the lock it commits under.) */
static void
test_archive_esnet_snmp_takes_both_updates(void **state)
{
    static const char *const sets[] = { "/datatargets/readrates",
                                        "/datatargets/writerates" };
#define ES(out, from, to) { "archive-esnet-snmp", "--init-start",          \
        "2019-02-11T00:00:00", "--init-end", "2019-02-11T23:59:59", "-i",   \
        "inputs/esnet_snmp.json.gz", "-o", (out), "--timeout", "5",         \
        (from), (to), "nersc", NULL }
    const char *a[] = ES("o.hdf5", "2019-02-11T01:00:00",
                         "2019-02-11T01:02:30");
    const char *b[] = ES("o.hdf5", "2019-02-11T01:02:30",
                         "2019-02-11T01:06:00");
    const char *ref_a[] = ES("ref.hdf5", "2019-02-11T01:00:00",
                             "2019-02-11T01:02:30");
    const char *ref_b[] = ES("ref.hdf5", "2019-02-11T01:02:30",
                             "2019-02-11T01:06:00");
#undef ES
    struct tokio_workdir wd;
    (void)state;

    TOKIO_TEST_NEED_WORKDIR(&wd);
    char *ref = tokio_test_join(wd.dir, "ref.hdf5");
    char *out = tokio_test_join(wd.dir, "o.hdf5");
    ok(wd.dir, ref_a);
    ok(wd.dir, ref_b);
    for (int trial = 0; trial < 3; trial++) {
        unlink(out);
        ok(wd.dir, a);
        /* the second half changes the file: else the test shows nothing */
        if (trial == 0 && same_cells(out, ref, sets[0]))
            fail_msg("the first half alone holds it all");
        at_once(wd.dir, a, b);
        tts_assert_same(out, ref, sets, 2);
    }
    assert_int_equal(tokio_test_count_temporaries(wd.dir), 0);
    free(ref);
    free(out);
    tokio_test_workdir_free(&wd);
}

/* ---- a full disk ------------------------------------------------------ */

/* Regression (issue 17, 2): archive-mmperfmon on a full file system
 * printed its error, then died of SIGSEGV in HDF5's exit handler (exit
 * 139).  Now, in a 64 KiB tmpfs (a private mount namespace; skipped
 * where not allowed) and under a 64 KiB file-size limit: exit 1, one
 * line naming the file, nothing left but the update's lock. */
static void
test_archive_mmperfmon_full_disk_fails_cleanly(void **state)
{
    struct tokio_workdir wd;
    char site[4300], tgz[4300];
    (void)state;

    TOKIO_TEST_NEED_WORKDIR(&wd);
    snprintf(site, sizeof(site), "PYTOKIO_CONFIG=%s/site.json", wd.inputs);
    snprintf(tgz, sizeof(tgz), "%s/mmperfmon.2019-05-15-mini.tgz",
             wd.inputs);
    const char *const mm_env[] = { "TZ=America/Los_Angeles", site, NULL };
    /* 183 KB of HDF5 */
    const char *argv[] = { "archive-mmperfmon", "--filesystem",
                           "testfs-mini", "--init-start",
                           "2019-05-15T00:00:00", "--init-end",
                           "2019-05-16T00:00:00", "--timestep", "60", "-o",
                           "o.hdf5", "--files", tgz, NULL };
    tokio_test_full_disk_fails(wd.dir, mm_env, argv, "o.hdf5");
    tokio_test_workdir_free(&wd);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_archive_mmperfmon_takes_both_updates),
        cmocka_unit_test(test_sqlite_caches_take_both_updates),
        cmocka_unit_test(test_archive_esnet_snmp_takes_both_updates),
        cmocka_unit_test(test_archive_mmperfmon_full_disk_fails_cleanly),
        cmocka_unit_test(test_every_writer_cleans_up_on_signals),
        cmocka_unit_test(test_every_writer_follows_links_and_modes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
