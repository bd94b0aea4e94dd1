/*
 * tests/cli/test_hostile.c - issue 17's hostile-input corpus: every
 * command over the same kinds of bad input (another kind of file, random
 * text and bytes, deep JSON, gzip bombs, a gigabyte line, a sparse
 * gigabyte, a name that is not UTF-8, and its own kind of input truncated,
 * with bytes flipped and with bytes made not UTF-8), each run under a
 * memory and a time limit.
 *
 * Every run must end by itself (no signal: no crash, no runaway) within
 * the limits, with a peak resident memory far below the inputs' size.
 * A run that fails must exit 1 or 2 with one line on standard error
 * naming the input (2: the line and "see 'tokio CMD --help'"), print
 * nothing on standard output, never say "out of memory" (no allocation
 * may fail when the input is judged by its head), create nothing at the
 * -o path and leave an old -o file as it was, with nothing beside it.
 * Inputs that are not the command's kind must fail; its own input
 * truncated or flipped may still be read (a truncated text log is a
 * shorter log), and its own input under a name that is not UTF-8 must be
 * read as under any other name.
 *
 * The corpus is made from the test data pack (skipped without it); the
 * bombs and the sparse file cost a few MB of disk.
 */
#include "testutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The limits of a run: every command reads the good inputs of the pack
 * in far less. */
#define MAX_ADDRESS_SPACE ((size_t)768 << 20)
#define MAX_SECONDS       20
/* Peak resident memory allowed; a run that read a 1 GiB input whole
 * would pass it.  ASan's shadow and quarantine take more. */
#define MAX_RSS_KIB        (200L << 10)
#define MAX_RSS_KIB_ASAN   (600L << 10)
/* Commands are shared among this many worker processes, each with its
 * own -o folder and damaged copies: most of a run is the start of a
 * process (loading its libraries) and waiting for it, so four at once
 * take a third of the time one at a time takes, even on two cores. */
#define WORKERS 4

/* What an input is, so that a command is not given its own kind as a
 * foreign one. */
enum kind {
    K_NONE = 0, K_TEXT = 1, K_DARSHAN = 2, K_HDF5 = 4, K_SQLITE = 8,
    K_LFSDF = 16, K_JSON = 32
};

/* A command: "@" stands for the input, "%o" for its -o path. */
struct command {
    const char *argv[20];
    const char *own;            /* an input of its kind (NULL: none) */
    unsigned kinds;             /* kinds it reads: not foreign to it */
    int updates;                /* -o is a file it updates, not replaces */
};

static const struct command commands[] = {
    { { "cache-craysdb", "--json", "-o", "%o", "@" },
      "inputs/sample.xtdb2proc.gz", K_JSON, 0 },
    { { "cache-slurm", "--json", "-o", "%o", "@" },
      "inputs/sample.slurm", K_JSON, 0 },
    { { "cache-slurm", "--csv", "-o", "%o", "@" },
      "inputs/sample.slurm", K_JSON, 0 },
    { { "cache-hpss", "-o", "%o", "@" }, "inputs/hsilog.txt.gz", K_JSON, 0 },
    { { "cache-globuslogs", "-o", "%o", "@" },
      "inputs/globuslogs.txt.gz", K_JSON, 0 },
    { { "cache-isdct", "-o", "%o", "@" },
      "inputs/sample_nersc_isdct.tgz", K_JSON, 0 },
    { { "compare-isdct", "@", "inputs/sample_nersc_isdct.json.gz" },
      "inputs/sample_nersc_isdct-1.json.gz", K_JSON, 0 },
    { { "cache-mmperfmon", "-o", "%o", "@" },
      "inputs/mmperfmon-usage.txt.gz", K_JSON, 0 },
    { { "cache-lfsstatus", "--fullness", "@", "-o", "%o", "snx11035",
        "2017-03-20T02:07:47" },
      "inputs/sample_ost-fullness.txt.gz", K_JSON | K_LFSDF, 0 },
    { { "cache-lfsstatus", "--failure", "@", "-o", "%o", "snx11035",
        "2017-03-20T02:07:47" },
      "inputs/sample_ost-map.txt.gz", K_JSON, 0 },
    { { "cache-topology", "--nodemap-cache", "inputs/sample.xtdb2proc.gz",
        "--jobinfo-cache", "@", "-o", "%o" },
      "inputs/sample.slurm", K_JSON, 0 },
    { { "cache-topology", "--nodemap-cache", "@", "--jobinfo-cache",
        "inputs/sample.slurm", "-o", "%o" },
      "inputs/sample.xtdb2proc.gz", K_JSON, 0 },
    { { "cache-nersc-globuslogs", "--input", "@", "-o", "%o",
        "2019-01-29T00:00:00", "2019-01-29T00:10:00" },
      "inputs/globuslogs.json.gz", K_JSON, 0 },
    { { "cache-collectdes", "--input", "@", "-o", "%o",
        "2017-12-13T00:00:00", "2017-12-13T01:00:00" },
      "inputs/sample_collectdes-part.json.gz", K_JSON, 0 },
    { { "cache-esnet-snmp", "-i", "@", "-s", "2019-02-11T01:00:00", "-e",
        "2019-02-11T01:05:00", "--json", "-o", "%o", "nersc" },
      "inputs/esnet_snmp.json.gz", K_JSON, 0 },
    { { "config", "--config", "@" }, "inputs/site.json", K_JSON, 0 },
    { { "umami", "--format", "json", "-o", "%o", "@" }, NULL, 0, 0 },
    { { "cache-darshan", "-o", "%o", "@" },
      "inputs/sample.darshan", K_DARSHAN, 0 },
    { { "darshan-bad-ost", "-o", "%o", "@" },
      "inputs/sample-badost.darshan", K_DARSHAN, 0 },
    { { "darshan-dxt", "-o", "%o", "@" },
      "inputs/sample.darshan", K_DARSHAN, 0 },
    { { "summarize-darshanlogs", "-o", "%o", "@" },
      "inputs/sample.darshan", K_DARSHAN, 0 },
    { { "index-darshanlogs", "-o", "%o", "@" },
      "inputs/sample.darshan", K_DARSHAN, 1 },
    { { "darshan-scoreboard", "@" }, "inputs/darshanlogs.db", K_SQLITE, 0 },
    { { "summarize-job", "--json", "--output", "%o", "@" },
      "inputs/sample.darshan", K_DARSHAN, 0 },
    { { "insights", "-o", "%o", "@" }, "inputs/sample.darshan", K_DARSHAN,
      0 },
    { { "report", "-o", "%o", "@" }, "inputs/sample.darshan", K_DARSHAN, 0 },
    { { "cache-lmtdb", "-i", "@", "-o", "%o", "2018-01-28T00:00:00",
        "2018-01-28T00:05:00" },
      "inputs/snx11025_2018-01-28.sqlite3", K_SQLITE, 1 },
    { { "cache-nersc-jobsdb", "-i", "@", "-o", "%o", "2017-03-18T14:24:59",
        "2017-03-21T23:20:56", "edison" },
      "inputs/sample_nersc_jobsdb.sqlite3", K_SQLITE, 1 },
    { { "archive-lmtdb", "-i", "@", "-o", "%o", "--init-start",
        "2018-01-28T00:00:00", "--init-end", "2018-01-28T00:05:00",
        "--timestep", "5", "2018-01-28T00:00:00", "2018-01-28T00:05:00" },
      "inputs/snx11025_2018-01-28.sqlite3", K_SQLITE, 1 },
    { { "archive-mmperfmon", "--init-start", "2019-05-15T00:00:00",
        "--init-end", "2019-05-16T00:00:00", "--timestep", "60",
        "--filesystem", "testfs-mini", "--files", "@", "-o", "%o" },
      "inputs/mmperfmon.2019-05-15-mini.tgz", K_JSON, 1 },
    { { "archive-collectdes", "--input", "@", "-o", "%o", "--init-start",
        "2017-12-13T00:00:00", "--init-end", "2017-12-13T01:00:00",
        "2017-12-13T00:00:00", "2017-12-13T01:00:00" },
      "inputs/sample_collectdes-part.json.gz", K_JSON, 1 },
    { { "archive-esnet-snmp", "-i", "@", "-o", "%o", "--init-start",
        "2019-02-11T00:00:00", "--init-end", "2019-02-11T23:59:59",
        "2019-02-11T00:00:00", "2019-02-11T23:59:59", "nersc" },
      "inputs/esnet_snmp.json.gz", K_JSON, 1 },
    { { "export-tts", "-o", "%o", "@", "datatargets/readbytes" },
      "inputs/snx11025_2018-01-28.hdf5", K_HDF5, 0 },
    { { "summarize-tts", "-o", "%o", "@" },
      "inputs/snx11025_2018-01-28.hdf5", K_HDF5, 0 },
    { { "summarize-h5lmt", "-o", "%o", "@" },
      "inputs/snx11025_2018-01-28.h5lmt", K_HDF5, 0 },
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* A bad input: its file under bad/, its kind, and whether every command
 * not of its kind must refuse it. */
struct input {
    const char *name;
    enum kind kind;
    int must_fail;
};

/* A name that is not UTF-8 (0xff never occurs in UTF-8). */
#define NOT_UTF8 "\xff\xfe-not-utf8.txt"

static const struct input foreign[] = {
    { "random.txt", K_TEXT, 1 },        /* printable words and lines */
    { "random.bin", K_NONE, 1 },
    { "brackets.txt", K_NONE, 1 },      /* [[[[[[ */
    { "deep.json", K_NONE, 1 },         /* 100,000 nested lists */
    { "lfs-df.txt", K_LFSDF, 1 },       /* an lfs df history */
    { "log.darshan", K_DARSHAN, 1 },
    { "tts.hdf5", K_HDF5, 1 },
    { "jobs.sqlite3", K_SQLITE, 1 },
    { "other.tgz", K_NONE, 1 },         /* a tarball of random text */
    { "bomb.gz", K_NONE, 1 },           /* 1 GiB of "x" lines */
    { "hugeline.gz", K_NONE, 1 },       /* one line of 1 GiB */
    { "sparse", K_NONE, 1 },            /* 1 GiB of zeros, on no disk */
    { NOT_UTF8, K_TEXT, 1 },            /* random text so named */
};
#define N_FOREIGN (sizeof(foreign) / sizeof(foreign[0]))

/* The tally printed at the end: issue 17's figures. */
struct tally {
    size_t runs, failures, crashes, runaways, wrong_status, other;
    long max_rss_kib;
    char max_rss_run[256];
};

/* What went wrong in a run. */
enum verdict { V_OK, V_CRASH, V_RUNAWAY, V_RSS, V_STATUS, V_OTHER };

/* 64 KiB of pseudo-random printable words in lines (a fixed seed). */
static void
write_random_text(const char *path)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyz"
                                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    char *text = malloc(65536 + 1);
    unsigned long x = 12345;

    assert_non_null(text);
    for (size_t i = 0; i < 65536; i++) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        unsigned r = (unsigned)(x >> 33);
        text[i] = r % 53 == 0 ? '\n' : r % 7 == 0 ? ' '
                                     : letters[r % (sizeof(letters) - 1)];
    }
    tokio_test_write_file(path, text, 65536);
    free(text);
}

static void
write_random_bytes(const char *path)
{
    unsigned char *bytes = malloc(65536);
    unsigned long x = 54321;

    assert_non_null(bytes);
    for (size_t i = 0; i < 65536; i++) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        bytes[i] = (unsigned char)(x >> 40);
    }
    tokio_test_write_file(path, bytes, 65536);
    free(bytes);
}

/* A copy of `src`, or of its first `keep` bytes (SIZE_MAX: all), with
 * every `flip_every`th byte's bit 5 flipped (0: none), or bit 7 when
 * `flip_every` is negative: text then holds bytes that are not UTF-8. */
static void
copy_damaged(const char *src, const char *dst, size_t keep,
             long flip_every)
{
    const unsigned char bit = flip_every < 0 ? 0x80 : 0x20;
    const size_t every = (size_t)(flip_every < 0 ? -flip_every : flip_every);
    size_t len = 0;
    char *data = tokio_test_read_file(src, &len);

    assert_non_null(data);
    if (keep < len)
        len = keep;
    for (size_t i = every; every > 0 && i < len; i += every)
        data[i] ^= (char)bit;
    tokio_test_write_file(dst, data, len);
    free(data);
}

/* snprintf() into a buffer that must be large enough. */
static void
format(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < size);
}

/* The corpus, in `dir`/bad: all of `foreign`. */
static void
make_corpus(const char *dir)
{
    char bad[4096], p[4096], q[4096], cmd[8192];

    format(bad, sizeof(bad), "%s/bad", dir);
    assert_int_equal(mkdir(bad, 0755), 0);
    format(p, sizeof(p), "%s/%s", bad, "random.txt");
    write_random_text(p);
    format(p, sizeof(p), "%s/%s", bad, NOT_UTF8);
    write_random_text(p);
    format(p, sizeof(p), "%s/%s", bad, "random.bin");
    write_random_bytes(p);
    format(p, sizeof(p), "%s/%s", bad, "brackets.txt");
    tokio_test_write_file(p, "[[[[[[", SIZE_MAX);
    char *deep = malloc(100001);
    assert_non_null(deep);
    memset(deep, '[', 100000);
    deep[100000] = '\0';
    format(p, sizeof(p), "%s/%s", bad, "deep.json");
    tokio_test_write_file(p, deep, 100000);
    free(deep);
    /* the first snapshots of a history, decompressed */
    format(p, sizeof(p), "%s/%s", dir, "inputs/sample_ost-fullness.txt.gz");
    format(q, sizeof(q), "%s/%s", bad, "lfs-df.txt");
    format(cmd, sizeof(cmd), "gzip -dc '%s' | head -c 200000 > '%s'", p,
             q);
    assert_int_equal(system(cmd), 0);
    format(p, sizeof(p), "%s/%s", dir, "inputs/sample.darshan");
    format(q, sizeof(q), "%s/%s", bad, "log.darshan");
    copy_damaged(p, q, SIZE_MAX, 0);
    format(p, sizeof(p), "%s/%s", dir, "inputs/snx11025_2018-01-28.hdf5");
    format(q, sizeof(q), "%s/%s", bad, "tts.hdf5");
    copy_damaged(p, q, SIZE_MAX, 0);
    format(p, sizeof(p), "%s/%s", dir, "inputs/sample_nersc_jobsdb.sqlite3");
    format(q, sizeof(q), "%s/%s", bad, "jobs.sqlite3");
    copy_damaged(p, q, SIZE_MAX, 0);
    format(cmd, sizeof(cmd), "mkdir -p '%s/t/d' && cp '%s/random.txt' "
             "'%s/t/d/readme.txt' && tar -czf '%s/other.tgz' -C '%s/t' d "
             "&& rm -r '%s/t'", bad, bad, bad, bad, bad, bad);
    assert_int_equal(system(cmd), 0);
    format(p, sizeof(p), "%s/%s", bad, "bomb.gz");
    tokio_test_write_gzip_repeat(p, NULL, "x\n", (size_t)1 << 29);
    format(p, sizeof(p), "%s/%s", bad, "hugeline.gz");
    tokio_test_write_gzip_repeat(p, NULL, "a", (size_t)1 << 30);
    format(p, sizeof(p), "%s/%s", bad, "sparse");
    tokio_test_write_sparse(p, (long long)1 << 30);
}

/* `argv` of `c` with "@" as `input` and "%o" as `out`. */
static void
fill_argv(const struct command *c, const char *input, const char *out,
          const char **argv)
{
    size_t i;

    for (i = 0; c->argv[i] != NULL; i++)
        argv[i] = strcmp(c->argv[i], "@") == 0 ? input
                  : strcmp(c->argv[i], "%o") == 0 ? out : c->argv[i];
    argv[i] = NULL;
}

/* The -o path of `c` run by worker `w` (in `buf`), or NULL if it has
 * none. */
static const char *
output_of(const struct command *c, size_t w, char *buf, size_t size)
{
    for (size_t i = 0; c->argv[i] != NULL; i++)
        if (strcmp(c->argv[i], "%o") == 0) {
            format(buf, size, "out%zu/result", w);
            return buf;
        }
    return NULL;
}

/* The entries of `dir` but an updater's lock: what a run left there.  A
 * command updating -o keeps .NAME.lock beside it (a lock file removed
 * after use would let a third writer lock a new one while a second
 * still holds the old). */
static size_t
count_left(const char *dir, int updates)
{
    char lock[4200];

    format(lock, sizeof(lock), "%s/.result.lock", dir);
    return tokio_test_count_entries(dir) -
           (updates && access(lock, F_OK) == 0);
}

/* The name of `path` after its last '/'. */
static const char *
base_name(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash != NULL ? slash + 1 : path;
}

static int
count_lines(const char *s)
{
    int n = 0;

    for (; *s != '\0'; s++)
        n += *s == '\n';
    return n;
}

/*
 * Run command `c` on `input` (label `label` in messages) and count it in
 * `t`; return 0 when all is as it should be, else 1 after printing what
 * is wrong.  `must_fail`: it must not succeed; `must_pass`: it must.
 */
static int
run_one(const char *dir, size_t w, const struct command *c, const char *input,
        const char *label, int must_fail, int must_pass, size_t serial,
        struct tally *t)
{
    char why[1024];
    enum verdict v = V_OTHER;
    const char *env[] = { "TZ=America/Los_Angeles",
                          "PYTOKIO_CONFIG=inputs/site.json",
                          c->kinds & K_HDF5 ? tokio_test_lsan_hdf5() : NULL,
                          NULL };
    const struct tokio_test_limits lim = { MAX_ADDRESS_SPACE, MAX_SECONDS };
    char outdir[4096], target[4096], outpath[64];
    const char *out = output_of(c, w, outpath, sizeof(outpath)), *argv[24];
    const int sentinel = out != NULL && !c->updates && serial % 2 == 1;
    long rss = 0;

    format(outdir, sizeof(outdir), "%s/out%zu", dir, w);
    tokio_test_rmtree(outdir);
    assert_int_equal(mkdir(outdir, 0755), 0);
    format(target, sizeof(target), "%s/out%zu/result", dir, w);
    if (sentinel)
        tokio_test_write_file(target, "old contents\n", SIZE_MAX);
    fill_argv(c, input, out, argv);
    struct tokio_run r = tokio_test_run_bounded(dir, env, argv, &lim, &rss);

    t->runs++;
    if (rss > t->max_rss_kib) {
        t->max_rss_kib = rss;
        snprintf(t->max_rss_run, sizeof(t->max_rss_run), "%s %s",
                 c->argv[0], label);
    }
    why[0] = '\0';
    t->failures += r.status != 0;
    if (r.status >= 128) {
        /* SIGKILL: over the address space; SIGALRM, SIGXCPU: time */
        v = r.status == 128 + 14 || r.status == 128 + 24 ||
             r.status == 128 + 9 ? V_RUNAWAY : V_CRASH;
        snprintf(why, sizeof(why), "died of signal %d", r.status - 128);
    } else if (rss > (tokio_test_sanitized() ? MAX_RSS_KIB_ASAN
                                             : MAX_RSS_KIB)) {
        v = V_RSS;
        snprintf(why, sizeof(why), "took %ld MiB", rss >> 10);
    } else if ((r.status == 0 && must_fail) || (r.status != 0 && must_pass) ||
               (r.status != 0 && r.status != 1 && r.status != 2)) {
        v = V_STATUS;
        snprintf(why, sizeof(why), "exit %d", r.status);
    } else if (r.status != 0) {
        int lines = count_lines(r.err);
        if (lines != r.status || r.err[strlen(r.err) - 1] != '\n') {
            snprintf(why, sizeof(why), "%d lines on stderr", lines);
        } else if (strstr(r.err, base_name(input)) == NULL) {
            snprintf(why, sizeof(why), "the message does not name it");
        } else if (strstr(r.err, "out of memory") != NULL) {
            snprintf(why, sizeof(why), "says out of memory");
        } else if (r.out[0] != '\0') {
            snprintf(why, sizeof(why), "printed on stdout");
        } else if (out != NULL && !sentinel &&
                   count_left(outdir, c->updates) != 0) {
            snprintf(why, sizeof(why), "left a file at or beside -o");
        } else if (sentinel) {
            char *now = tokio_test_read_file(target, NULL);
            if (now == NULL || strcmp(now, "old contents\n") != 0)
                snprintf(why, sizeof(why), "changed the old -o file");
            else if (tokio_test_count_entries(outdir) != 1)
                snprintf(why, sizeof(why), "left a file beside -o");
            free(now);
        }
    }
    if (why[0] == '\0')
        v = V_OK;
    else
        print_error("%s %s on %s: %s (exit %d, %ld MiB): %s", c->argv[0],
                    c->argv[1], label, why, r.status, rss >> 10, r.err);
    tokio_run_free(&r);
    t->crashes += v == V_CRASH;
    t->runaways += v == V_RUNAWAY || v == V_RSS;
    t->wrong_status += v == V_STATUS;
    t->other += v == V_OTHER;
    return v != V_OK;
}

/* The runs of command `c` (number `k`) by worker `w`: every foreign
 * input not of its kind, then its own input truncated, with bytes
 * flipped, with bytes made not UTF-8 and under a name that is not UTF-8.
 * Returns the runs that went wrong. */
static size_t
run_command(const char *dir, size_t w, size_t k, struct tally *t)
{
    /* its own kind damaged: as copy_damaged() takes them, the first 60%
     * (`truncate`) and the bytes to flip; a name that is not UTF-8 */
    static const struct {
        const char *prefix, *label;
        int truncate;
        long flip_every;
        int must_pass;
    } damages[] = {
        { "truncated", "truncated", 1, 0, 0 },
        { "flipped", "flipped", 0, 61, 0 },
        { "high", "not-utf8", 0, -97, 0 },
        { "own\xff", "own-not-utf8", 0, 0, 1 },
    };
    const struct command *c = &commands[k];
    size_t serial = k * 32, bad = 0;
    char path[4096], src[4096];

    for (size_t i = 0; i < N_FOREIGN; i++) {
        if (foreign[i].kind & c->kinds)
            continue;
        format(path, sizeof(path), "bad/%s", foreign[i].name);
        bad += run_one(dir, w, c, path, foreign[i].name,
                       foreign[i].must_fail, 0, serial++, t);
    }
    if (c->own == NULL)
        return bad;
    /* copies of the command's own, as another worker may damage the
     * same input at once */
    struct stat st;
    format(src, sizeof(src), "%s/%s", dir, c->own);
    assert_int_equal(stat(src, &st), 0);
    const char *ext = strchr(base_name(c->own), '.');
    for (size_t i = 0; i < sizeof(damages) / sizeof(damages[0]); i++) {
        format(path, sizeof(path), "%s/bad/%s-%zu%s", dir, damages[i].prefix,
               k, ext);
        copy_damaged(src, path,
                     damages[i].truncate ? (size_t)st.st_size * 3 / 5
                                         : SIZE_MAX,
                     damages[i].flip_every);
        bad += run_one(dir, w, c, path + strlen(dir) + 1, damages[i].label,
                       0, damages[i].must_pass, serial++, t);
    }
    return bad;
}

/* What a worker hands back through its pipe. */
struct report {
    struct tally t;
    size_t bad;
};

static void
test_every_command_survives_the_corpus(void **state)
{
    struct tokio_workdir wd = { NULL, NULL, NULL };
    struct tally t;
    size_t bad = 0;
    pid_t pids[WORKERS];
    int fds[WORKERS];

    (void)state;
    TOKIO_TEST_NEED_WORKDIR(&wd);
    memset(&t, 0, sizeof(t));
    make_corpus(wd.dir);
    fflush(NULL);
    for (size_t w = 0; w < WORKERS; w++) {
        int p[2];

        assert_int_equal(pipe(p), 0);
        pids[w] = fork();
        assert_true(pids[w] >= 0);
        if (pids[w] == 0) {
            struct report r;

            close(p[0]);
            memset(&r, 0, sizeof(r));
            for (size_t k = w; k < N_COMMANDS; k += WORKERS)
                r.bad += run_command(wd.dir, w, k, &r.t);
            fflush(NULL);
            /* a worker whose assertion failed never gets here: the
             * parent then reads no report and fails */
            _exit(write(p[1], &r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 1);
        }
        close(p[1]);
        fds[w] = p[0];
    }
    for (size_t w = 0; w < WORKERS; w++) {
        struct report r;
        ssize_t n = read(fds[w], &r, sizeof(r));
        int status = 0;

        close(fds[w]);
        assert_int_equal(waitpid(pids[w], &status, 0), pids[w]);
        if (n != (ssize_t)sizeof(r) || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0) {
            print_error("worker %zu ended without its report\n", w);
            bad++;
            continue;
        }
        bad += r.bad;
        t.runs += r.t.runs;
        t.failures += r.t.failures;
        t.crashes += r.t.crashes;
        t.runaways += r.t.runaways;
        t.wrong_status += r.t.wrong_status;
        t.other += r.t.other;
        if (r.t.max_rss_kib > t.max_rss_kib) {
            t.max_rss_kib = r.t.max_rss_kib;
            memcpy(t.max_rss_run, r.t.max_rss_run, sizeof(t.max_rss_run));
        }
    }
    print_message("hostile corpus: %zu runs (%zu exit 1 or 2), %zu "
                  "crashes, %zu runaways, %zu wrong exit statuses, %zu other "
                  "faults; peak memory %ld MiB (%s)\n", t.runs, t.failures,
                  t.crashes, t.runaways, t.wrong_status, t.other,
                  t.max_rss_kib >> 10, t.max_rss_run);
    tokio_test_workdir_free(&wd);
    if (bad > 0)
        fail_msg("%zu runs went wrong (above)", bad);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_command_survives_the_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
