/*
 * tests/testutil.h - what every test program needs besides cmocka.
 */
#ifndef TOKIO_TESTUTIL_H
#define TOKIO_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

/*
 * Path of `rel` inside ../shared/testdata (from $TOKIO_TESTDATA), or NULL
 * when the pack is absent.  Returns a static buffer per call slot: copy if
 * kept across calls.
 */
const char *tokio_test_data(const char *rel);

/* Skip the current test, saying why, when the test data pack is absent. */
#define TOKIO_TEST_NEED_DATA(var, rel)                                      \
    const char *var = tokio_test_data(rel);                                 \
    do {                                                                    \
        if (var == NULL) {                                                  \
            print_message("skipped: ../shared/testdata/%s is absent\n",     \
                          (rel));                                           \
            skip();                                                         \
        }                                                                   \
    } while (0)

/*
 * A private copy of the test data folder `rel` (e.g. "pytokio-inputs")
 * in a fresh temporary folder, made of symlinks to the pack's files, with
 * the pack's own links restored: a checkout may store a symlink as a
 * small file holding its target ("../../sample.darshan"); in the copy it
 * is a real symlink again.  Returns the copy's path (free() it, and
 * tokio_test_rmtree() its parent, given in `*top_out`), or NULL when the
 * pack is absent.
 */
char *tokio_test_copy_data(const char *rel, char **top_out);

/* Path of `rel` inside the project source tree (static buffer). */
const char *tokio_test_source(const char *rel);

/* A fresh empty folder under $TMPDIR; remove it with tokio_test_rmtree(). */
char *tokio_test_mkdtemp(void);
void tokio_test_rmtree(const char *path);
/* A cmocka teardown: remove the folder *state (tokio_test_mkdtemp()). */
int tokio_test_remove_dir(void **state);
/* A cmocka setup: *state is a fresh tokio_test_mkdtemp() folder. */
int tokio_test_mkdtemp_setup(void **state);

/* "dir/name", malloc()ed (the test fails when out of memory). */
char *tokio_test_join(const char *dir, const char *name);

/* Write `len` bytes (or strlen(text) if len is SIZE_MAX) to `path`. */
void tokio_test_write_file(const char *path, const void *data, size_t len);

/* A file `name` in a temporary folder made on first use (the name of the
 * first put stays), rewritten by each tokio_test_tmpfile_put();
 * tokio_test_tmpfile_free() removes both. */
struct tokio_test_tmpfile {
    char *dir;          /* NULL until the first put */
    char path[4096];
};
void tokio_test_tmpfile_put(struct tokio_test_tmpfile *t, const char *name,
                            const void *data, size_t len);
void tokio_test_tmpfile_free(struct tokio_test_tmpfile *t);

/* Whole contents of a file (NUL-ended, free()), NULL if unreadable. */
char *tokio_test_read_file(const char *path, size_t *len_out);

/* The result of running the tokio command. */
struct tokio_run {
    int status;         /* exit status, or 128 + signal */
    char *out;          /* standard output, NUL-ended */
    char *err;          /* standard error, NUL-ended */
};

/*
 * Run $TOKIO_BIN with `argv` (NULL-ended, without the program name), in
 * folder `cwd` (NULL: unchanged), with `env` (NULL-ended "K=V" entries;
 * "K=" with nothing after it unsets K) added to the environment.  Standard
 * input is /dev/null.  Free with tokio_run_free().
 */
struct tokio_run tokio_test_run(const char *cwd, const char *const *env,
                                const char *const *argv);

/* tokio_test_run(), with no file the command writes allowed to grow past
 * `max_file_bytes` (> 0): a write past it fails with EFBIG, "File too
 * large", as on a full disk. */
struct tokio_run tokio_test_run_limited(const char *cwd,
                                        const char *const *env,
                                        const char *const *argv,
                                        long max_file_bytes);

/* Limits on a command's run; 0 is none. */
struct tokio_test_limits {
    size_t max_address_space;   /* bytes (RLIMIT_AS; not under ASan,
                                   whose shadow memory takes terabytes) */
    int max_seconds;            /* of CPU (RLIMIT_CPU), and twice that of
                                   wall-clock time (SIGALRM) */
};

/* tokio_test_run() within `lim`: a command over them dies of a signal
 * (r.status 128 + SIGKILL, SIGXCPU or SIGALRM) or fails to allocate.
 * `*max_rss_kib` (may be NULL) is its peak resident memory in KiB. */
struct tokio_run tokio_test_run_bounded(const char *cwd,
                                        const char *const *env,
                                        const char *const *argv,
                                        const struct tokio_test_limits *lim,
                                        long *max_rss_kib);

/* 1 when built with AddressSanitizer (the children too). */
int tokio_test_sanitized(void);

/* The LSAN_OPTIONS entry (for tokio_test_run()'s `env`) of a command that
 * reads hostile HDF5 files: the inherited options (tests/lsan.supp) with
 * whole stacks, so that the suppression can name libhdf5's own leak on a
 * failed open by function (its frames have no frame pointers); slow, so
 * only for those runs.  A static buffer. */
const char *tokio_test_lsan_hdf5(void);

/* A gzip file at `path`: `head` (NULL: none) then `unit` `count` times,
 * as members of about a MiB each, made once and repeated: a gzip bomb
 * of any inflated size costs about a thousandth of it on disk. */
void tokio_test_write_gzip_repeat(const char *path, const char *head,
                                  const char *unit, size_t count);

/* A sparse file of `size` zero bytes (no disk space taken). */
void tokio_test_write_sparse(const char *path, long long size);

/* The commands `tokio help` lists, config included: a NULL-ended array
 * (free each and it). */
char **tokio_test_command_names(void);

/* tokio_test_run(cwd, NULL, argv) with standard output to the existing
 * file or device `path` (r.out stays empty). */
struct tokio_run tokio_test_run_stdout_to(const char *cwd, const char *path,
                                          const char *const *argv);
void tokio_run_free(struct tokio_run *r);

/* Run `tokio argv...` as tokio_test_run(NULL, env, argv) and check that
 * it failed as it should: exit `status`, `msg` in its standard error and
 * nothing on its standard output (no partial result). */
#define tokio_test_run_fails(env, argv, status, msg)                        \
    tokio_test_check_fails((env), (argv), (status), (msg), __FILE__,        \
                           __LINE__)
void tokio_test_check_fails(const char *const *env, const char *const *argv,
                            int status, const char *msg, const char *file,
                            int line);

/* Fail the test, showing both, unless `haystack` contains `needle`. */
#define assert_contains(haystack, needle)                                   \
    tokio_test_assert_contains((haystack), (needle), __FILE__, __LINE__)
void tokio_test_assert_contains(const char *haystack, const char *needle,
                                const char *file, int line);

/*
 * A working folder laid out as golden/pytokio/COMMANDS.md describes:
 * `inputs` -> a private copy of pytokio-inputs (links restored), `golden`
 * -> golden/pytokio.  Commands run in `dir` with
 * PYTOKIO_CONFIG=inputs/site.json see what the reference saw.
 */
struct tokio_workdir {
    char *dir;          /* the working folder */
    char *inputs;       /* the copy of pytokio-inputs */
    char *top;          /* temporary folder holding the copy */
};

/* Make one; returns 0, or -1 when the test data pack is absent. */
int tokio_test_workdir(struct tokio_workdir *wd);
/* Remove the folders and free the names; a zeroed struct is fine. */
void tokio_test_workdir_free(struct tokio_workdir *wd);

/*
 * cmocka setup and teardown of a struct tokio_workdir in *state: `dir`
 * always exists; `inputs` and the links are there only when the test
 * data pack is (else NULL: tests that need it skip themselves).
 */
int tokio_test_workdir_setup(void **state);
int tokio_test_workdir_teardown(void **state);
#define TOKIO_TEST_IN_WORKDIR(test)                                         \
    cmocka_unit_test_setup_teardown((test), tokio_test_workdir_setup,       \
                                    tokio_test_workdir_teardown)

/* In such a test: skip, saying why, when `wd` has no inputs. */
#define TOKIO_TEST_NEED_INPUTS(wd)                                          \
    do {                                                                    \
        if ((wd)->inputs == NULL) {                                         \
            print_message("skipped: ../shared/testdata is absent\n");       \
            skip();                                                         \
        }                                                                   \
    } while (0)

/* Skip the current test, saying why, when tokio_test_workdir() cannot
 * make `wd` (the test data pack is absent). */
#define TOKIO_TEST_NEED_WORKDIR(wd)                                         \
    do {                                                                    \
        if (tokio_test_workdir(wd) != 0) {                                  \
            tokio_test_workdir_free(wd);                                    \
            print_message("skipped: ../shared/testdata is absent\n");       \
            skip();                                                         \
        }                                                                   \
    } while (0)

/*
 * Fail the test unless `out` equals the golden file `rel` (a path inside
 * the test data pack; .gz and .bz2 goldens are read decompressed):
 * by value (json_equal) when its name ends in ".json", cell by cell when
 * it ends in ".csv" (cells equal as text or as the same number, so "1.0"
 * matches "1.00"), byte for byte otherwise; a compression suffix after
 * the extension does not count (x.json.gz is JSON, x.json.gz.csv CSV).
 * The message names `rel`.
 */
#define assert_golden(out, rel)                                             \
    tokio_test_assert_golden((out), (rel), __FILE__, __LINE__)
void tokio_test_assert_golden(const char *out, const char *rel,
                              const char *file, int line);

/* 0 when two CSV texts are equal cell by cell as above, else the 1-based
 * line of the first difference. */
size_t tokio_test_csv_diff(const char *a, const char *b);

/*
 * One command of COMMANDS.md and the golden output it must reproduce:
 * `golden` is a file name under the table's golden folder, `warning` what
 * standard error must contain (NULL: it must be empty), `argv` the
 * arguments after the program name, NULL-ended.
 */
struct tokio_golden_case {
    const char *golden;
    const char *warning;
    const char *argv[10];
};

/*
 * Run every case in the working folder `dir` (tokio_test_workdir()) with
 * TZ=America/Los_Angeles: each must exit 0, write standard error as its
 * case says, and print its golden `golden_dir/golden` (a path inside the
 * test data pack), compared as assert_golden() does and, when `exact`,
 * byte for byte too.  Failures name the golden file.
 */
void tokio_test_golden_cases(const char *dir, const char *golden_dir,
                             const struct tokio_golden_case *cases,
                             size_t count, int exact);

/* Epoch seconds of a local wall-clock time (in $TZ); fails the test
 * when that time does not exist. */
int64_t tokio_test_local(int year, int month, int day, int hour, int minute,
                         int second);

/*
 * A fresh temporary folder holding the SQLite database `name` made by
 * running the statements `sql`; the database's path is written to `path`
 * (`size` bytes).  Returns the folder (tokio_test_rmtree() and free() it),
 * or NULL, with a message, when SQLite refuses the statements.
 */
char *tokio_test_sqlite_fixture(const char *sql, const char *name,
                                char *path, size_t size);

/* A new SQLite database `path` (an old file there is removed) made by
 * running `sql`; the test fails, with SQLite's message, when it cannot. */
void tokio_test_make_db(const char *path, const char *sql);

/*
 * Call check(path, ctx) on every "*.darshan" of the test data pack's
 * darshan-logs, darshan-logs-derived and pytokio-inputs folders; `check`
 * returns 1 for a log it checked, 0 for one it passed over.  Returns how
 * many were checked.  Skips the test when the pack is absent.
 */
size_t tokio_test_each_pack_darshan_log(int (*check)(const char *path,
                                                     void *ctx),
                                        void *ctx);

/* The number of entries in `dir` besides . and .. (the test fails when
 * it cannot be read). */
size_t tokio_test_count_entries(const char *dir);

/* What write(obj, fp, flags) writes, as a string (free()); the test
 * fails unless it returns TOKIO_OK. */
char *tokio_test_written(int (*write)(const void *obj, FILE *fp,
                                      unsigned flags),
                         const void *obj, unsigned flags);

/*
 * Check that write(obj, fp, flags) writes, byte for byte, what
 * tokio_json_write() makes of `tree` (a json_t), for each of the `n`
 * layouts in `flags`: for connectors that write their JSON straight from
 * their records.
 */
void tokio_test_assert_writes_tree(int (*write)(const void *obj, FILE *fp,
                                                unsigned flags),
                                   const void *obj, const void *tree,
                                   const unsigned *flags, size_t n);

struct tokio_darshan;
struct tokio_darshan_json_opts;

/* What tokio_darshan_write_json(log, o, fp, flags) writes, as a string
 * (free()), or NULL with *rc_out its failure status. */
char *tokio_test_darshan_json_text(const struct tokio_darshan *log,
                                   const struct tokio_darshan_json_opts *o,
                                   unsigned flags, int *rc_out);

struct tokio_timeseries;

/* Write `ts` into the TTS HDF5 file `path` in one update (schema version
 * "1"), failing the test on any error. */
void tokio_test_tts_write(const char *path, struct tokio_timeseries *ts);

/* The dataset `name` of the HDF5 file `path` as a time series (free with
 * tokio_timeseries_free()); the test fails, with the message, on error. */
struct tokio_timeseries *tokio_test_tts_read(const char *path,
                                             const char *name);

/*
 * Out-of-memory sweep: run trial(ctx) with the 1st allocation failing,
 * then the (1 + step)th, ... until it succeeds (step times
 * $TOKIO_TEST_OOM_STRIDE, which the valgrind build sets: the sanitizer
 * build tries every point).  Every failing run must
 * return TOKIO_ENOMEM (else the test fails, naming the allocation and the
 * message); the trial frees what it made either way, so the sanitizers
 * and valgrind catch a leak on any error path.
 */
void tokio_test_every_oom(int (*trial)(void *ctx), void *ctx, size_t step);

/* The step between failure points for a test's own out-of-memory loop:
 * 1, or $TOKIO_TEST_OOM_STRIDE under valgrind. */
size_t tokio_test_oom_step(void);

/*
 * `sqlite3 DB .dump` (how the SQLite goldens were made), run from an
 * argument vector; the text (free()), or NULL when there is no sqlite3
 * command.  TOKIO_TEST_NEED_SQLITE3(text) skips the test then.
 */
char *tokio_test_sqlite_dump(const char *db);

#define TOKIO_TEST_NEED_SQLITE3(text)                                       \
    do {                                                                    \
        if ((text) == NULL) {                                               \
            print_message("skipped: no sqlite3 command to dump with\n");    \
            skip();                                                         \
        }                                                                   \
    } while (0)

/* Skip the current test, saying why, unless mpirun is on PATH and
 * $TOKIO_BIN was built with TOKIO_MPI (its MPI runs can be tested). */
void tokio_test_need_mpi(void);

/* ---- writers under stress: at once, interrupted, on hostile files ---- */

/*
 * Run the `n` commands `argvs` (each as tokio_test_run() takes it) at the
 * same time, in folder `cwd` with `env`, and wait for all: out[i] is the
 * result of argvs[i] (tokio_run_free() each).
 */
void tokio_test_run_concurrently(const char *cwd, const char *const *env,
                                 const char *const *const *argvs, size_t n,
                                 struct tokio_run *out);

/*
 * Run `argv` as tokio_test_run() does and send it `sig` as soon as a
 * temporary of a writer (a name holding ".tokio-tmp-") appears in folder
 * `dir`.  *caught_out says whether the signal went while the temporary
 * was there (0: the command ended first, or made none in 60 s).
 */
struct tokio_run tokio_test_run_signalled(const char *cwd,
                                          const char *const *env,
                                          const char *const *argv,
                                          const char *dir, int sig,
                                          int *caught_out);

/* How many writers' temporaries (".tokio-tmp-" in the name) are in
 * `dir`. */
size_t tokio_test_count_temporaries(const char *dir);

/*
 * A TOKIO Time Series file (root version "1", start and end) written
 * through the HDF5 library alone, so it can hold what our writer refuses:
 * datatargets/readbytes and writebytes, both `rows` x `cols` of `data`
 * (row-major; NULL: zeros), columns "OST0".., timestamps every 5 s from
 * 1517126400 (2018-01-28 00:00 in Los Angeles).
 */
void tokio_test_tts_raw(const char *path, size_t rows, size_t cols,
                        const double *data);

/* A copy of file `from` at `to` with byte `offset` set to `value`. */
void tokio_test_copy_set_byte(const char *from, const char *to,
                              size_t offset, unsigned char value);

/*
 * Run `argv` as tokio_test_run() does, but in a fresh file system of
 * `kib` KiB (a tmpfs mounted on the empty folder `dir` in a private mount
 * namespace, by `unshare -rm`) as its working folder, which is all it may
 * fill.  *listing_out: the names left there afterwards, one a line
 * (free()).  Returns 0, or -1 when this machine allows no such mount
 * (then skip).
 */
int tokio_test_run_in_tmpfs(const char *dir, size_t kib,
                            const char *const *env, const char *const *argv,
                            struct tokio_run *out, char **listing_out);

/*
 * Check that `argv`, updating the file `name` in its working folder,
 * fails cleanly where the disk fills up: run in a new folder under `dir`
 * with no file allowed past 64 KiB ("File too large"), then in a 64 KiB
 * tmpfs (tokio_test_run_in_tmpfs(), "No space left on device"; passed
 * over, saying so, where no such mount may be made).  Each run must exit
 * 1 with nothing on standard output and one line naming `name` and the
 * cause, and leave nothing in its folder but the update's lock,
 * .NAME.lock.
 */
void tokio_test_full_disk_fails(const char *dir, const char *const *env,
                                const char *const *argv, const char *name);

/*
 * tokio_test_run(), the command running as user and group 65534
 * (nobody) with no supplementary groups: for the checks of what a user
 * who is not root may do when the tests run as root.  Exit 125 when
 * the identity cannot be dropped (then skip).
 */
struct tokio_run tokio_test_run_as_nobody(const char *cwd,
                                          const char *const *env,
                                          const char *const *argv);

/*
 * A small Darshan log at `path` made with the library's writer: job id
 * `seed`, mounts /scratch (lustre) and /home (nfs), POSIX and STDIO
 * records of two ranks on files under them whose counters derive from
 * `seed` (some seeds touch /scratch only, some /home first), so many logs
 * index into varied rows.
 */
void tokio_test_make_darshan_log(const char *path, unsigned seed);

/*
 * In the folder `dir`, `n` logs of tokio_test_make_darshan_log() (seeds 0
 * to n - 1) named as the Darshan runtime names them,
 * u<seed % 13>_app_id<1000 + seed>_1-1-1-1_1.darshan, and one that is
 * not a log, zz-broken.darshan: many logs of varied rows, and one that
 * fails.
 */
void tokio_test_make_darshan_logs(const char *dir, unsigned n);

/*
 * tokio_test_read_file() of a file of the test data pack, following the
 * pack's symbolic links when they arrive as small files holding the
 * link's target (a copy made without -L; at most 4 hops).  NULL when
 * the file cannot be read.
 */
char *tokio_test_read_data(const char *path, size_t *len_out);

#endif
