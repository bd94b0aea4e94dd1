/*
 * tests/cli/test_mpi_commands.c - `mpirun -n 4 tokio summarize-darshanlogs
 * | darshan-bad-ost | insights ...` (issue 20, src/cli/mpi/mpi_run.c)
 * writes byte for byte what the one-process command writes -- standard
 * output, -o's file, the messages on stderr (an unreadable log named in
 * the same words) and the exit status -- over generated logs, the pack's
 * Lustre logs when it is there, and a broken log.  Skips when mpirun is
 * absent or the command was built without TOKIO_MPI.
 */
#include "testutil.h"
#include "darshan_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N_LOGS 48

/* The generated logs, a broken one, two generated Lustre logs (p*: so
 * that the commands have LUSTRE records without the pack) and the pack's
 * Lustre logs in dir/logs; or skip when there is no MPI run to test. */
static void
setup_logs(const char *dir)
{
    static const char *const pack[] = {
        "pytokio-inputs/sample-badost.darshan",
        "pytokio-inputs/sample-goodost.darshan",
        "pytokio-inputs/sample.darshan",
        "pytokio-inputs/noposix.darshan",
    };
    char cmd[16384], path[4300];

    tokio_test_need_mpi();
    snprintf(path, sizeof(path), "%s/logs", dir);
    snprintf(cmd, sizeof(cmd), "mkdir '%s'", path);
    assert_int_equal(system(cmd), 0);
    tokio_test_make_darshan_logs(path, N_LOGS);
    snprintf(path, sizeof(path), "%s/logs/m-empty.darshan", dir);
    tokio_test_write_file(path, "", 0);
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof(path), "%s/logs/p9-lustre%d.darshan", dir, k);
        assert_int_equal(tokio_test_darshan_records_log(path, 200 + 40 * k,
                                                        20 + k), TOKIO_OK);
    }
    for (size_t i = 0; i < sizeof(pack) / sizeof(*pack); i++) {
        const char *p = tokio_test_data(pack[i]);
        if (p == NULL) {
            fprintf(stderr, "note: ../shared/testdata/%s is absent: "
                    "generated logs only\n", pack[i]);
            continue;
        }
        /* a copy, not a link: the pack's files may be stored symlinks */
        snprintf(cmd, sizeof(cmd), "cp '%s' '%s/logs/p%zu-%s'", p, dir, i,
                 strrchr(pack[i], '/') + 1);
        assert_int_equal(system(cmd), 0);
    }
}

/*
 * `tokio ARGS` (a shell word list) once as one process in dir/one and
 * once under mpirun -n 4 in dir/mpi: the same standard output, the same
 * file F1 there (when written), the same exit status (returned), and the
 * same stderr -- whole when the status is 0; else without mpirun's own
 * notices (each a block between lines of dashes).  `seed` (or NULL): a
 * file of dir copied to F1 before each run.
 */
static int
same_as_one(const char *dir, const char *args, const char *seed)
{
    const char *bin = getenv("TOKIO_BIN");
    static const char *const files[] = {
        "one/out", "mpi/out", "one/err", "mpi/err", "one/F1", "mpi/F1",
    };
    char cmd[16384], path[4300], *text[6];
    size_t len[6];
    int one, mpi;

    snprintf(cmd, sizeof(cmd), "cd '%s' && rm -rf one mpi && mkdir one mpi"
             "%s%s%s%s%s", dir, seed ? " && cp " : "", seed ? seed : "",
             seed ? " one/F1 && cp " : "", seed ? seed : "",
             seed ? " mpi/F1" : "");
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof(cmd), "cd '%s/one' && env -u OMPI_COMM_WORLD_SIZE "
             "'%s' %s >out 2>err", dir, bin, args);
    one = system(cmd);
    /* Open MPI's own allocations are never freed: the sanitizer build
     * checks these runs for memory errors, not leaks */
    snprintf(cmd, sizeof(cmd), "cd '%s/mpi' && ASAN_OPTIONS="
             "\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
             "mpirun --allow-run-as-root --oversubscribe -n 4 '%s' %s "
             ">out 2>err", dir, bin, args);
    mpi = system(cmd);
    assert_true(WIFEXITED(one) && WIFEXITED(mpi));
    assert_int_equal(WEXITSTATUS(mpi), WEXITSTATUS(one));
    if (WEXITSTATUS(one) != 0) {
        snprintf(cmd, sizeof(cmd), "cd '%s/mpi' && sed '/^-----*$/,"
                 "/^-----*$/d' err >errt && mv errt err", dir);
        assert_int_equal(system(cmd), 0);
    }
    for (size_t i = 0; i < 6; i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
        text[i] = access(path, F_OK) == 0 ? tokio_test_read_file(path,
                                                                 &len[i])
                                          : NULL;
    }
    for (size_t i = 0; i < 6; i += 2) {
        if (text[i] == NULL) {
            assert_null(text[i + 1]);
            continue;
        }
        assert_non_null(text[i + 1]);
        if (len[i] != len[i + 1] || memcmp(text[i], text[i + 1], len[i]))
            fail_msg("`tokio %s`: %s and %s differ:\n%s\n----\n%s", args,
                     files[i], files[i + 1], text[i], text[i + 1]);
    }
    for (size_t i = 0; i < 6; i++)
        free(text[i]);
    return WEXITSTATUS(one);
}

/* dir/NAME holds `what` */
static void
assert_file_has(const char *dir, const char *name, const char *what)
{
    char path[4300], *text;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    text = tokio_test_read_file(path, NULL);
    assert_non_null(text);
    if (strstr(text, what) == NULL)
        fail_msg("%s lacks '%s':\n%s", name, what, text);
    free(text);
}

static void
test_summarize_darshanlogs(void **state)
{
    const char *dir = *state;

    setup_logs(dir);
    /* a folder: the broken and the empty logs are warnings */
    assert_int_equal(same_as_one(dir, "summarize-darshanlogs ../logs",
                                 NULL), 0);
    assert_file_has(dir, "one/err", "skipping: '../logs/zz-broken.darshan'");
    assert_file_has(dir, "one/err", "skipping: '../logs/m-empty.darshan'");
    assert_file_has(dir, "one/out", "\"../logs/u12_app_id1012_1-1-1-1_1");
    /* -o, then -i of it with more logs and --max-mb */
    assert_int_equal(same_as_one(dir, "summarize-darshanlogs -o F1 "
                                 "../logs/u1_* ../logs/zz-broken.darshan",
                                 NULL), 0);
    assert_file_has(dir, "one/out", "Added 4 log summaries to F1");
    {
        char cmd[4400];
        snprintf(cmd, sizeof(cmd), "cp '%s/one/F1' '%s/base.json'", dir,
                 dir);
        assert_int_equal(system(cmd), 0);
    }
    assert_int_equal(same_as_one(dir, "summarize-darshanlogs -i F1 -o F1 "
                                 "-m 1 ../logs/u2_* ../logs/u1_* "
                                 "../logs/zz-broken.darshan", "base.json"), 0);
    assert_file_has(dir, "one/out", "Added 4 log summaries to F1");
    /* nothing readable: exit 1, each named */
    assert_int_equal(same_as_one(dir, "summarize-darshanlogs "
                                 "../logs/zz-broken.darshan "
                                 "../logs/m-empty.darshan", NULL), 1);
    assert_file_has(dir, "one/err", "error: '../logs/zz-broken.darshan'");
}

static void
test_darshan_bad_ost(void **state)
{
    const char *dir = *state;

    setup_logs(dir);
    /* the empty log and those without LUSTRE records: warnings */
    assert_int_equal(same_as_one(dir, "darshan-bad-ost ../logs/p* "
                                 "../logs/u1* ../logs/m-empty.darshan",
                                 NULL), 0);
    assert_file_has(dir, "one/err", "'../logs/m-empty.darshan' is empty");
    assert_int_equal(same_as_one(dir, "darshan-bad-ost -j -o F1 ../logs/u2* "
                                 "../logs/p*", NULL), 0);
    /* a broken log is an error, after the warnings of those before it */
    assert_int_equal(same_as_one(dir, "darshan-bad-ost ../logs/u3* "
                                 "../logs/zz-broken.darshan ../logs/p*",
                                 NULL), 1);
    assert_file_has(dir, "one/err", "error: '../logs/zz-broken.darshan'");
}

static void
test_insights(void **state)
{
    const char *dir = *state;

    setup_logs(dir);
    assert_int_equal(same_as_one(dir, "insights ../logs/p* ../logs/u1_*",
                                 NULL), 0);
    assert_file_has(dir, "one/out", "== ../logs/u1_app_id1001");
    assert_int_equal(same_as_one(dir, "insights -j --silent-errors "
                                 "../logs/u2_* ../logs/zz-broken.darshan "
                                 "../logs/p*", NULL), 0);
    assert_file_has(dir, "one/err", "skipped '../logs/zz-broken.darshan'");
    assert_int_equal(same_as_one(dir, "insights --csv -o F1 ../logs/u3_* "
                                 "../logs/zz-broken.darshan ../logs/p*",
                                 NULL), 1);
    assert_file_has(dir, "one/err", "error: '../logs/zz-broken.darshan'");
}

/*
 * Logs whose names are not UTF-8 (a log's outcome travels between ranks
 * as JSON, which holds only UTF-8): their messages and results name them
 * byte for byte as one process does.  In dir/logs: v-e<ff>.darshan
 * (empty), v-l<ff>.darshan (a log) and w-b<fe>.darshan (not a log).
 */
static void
test_names_not_utf8(void **state)
{
    const char *dir = *state;
    char path[4300], *log;
    size_t len;

    setup_logs(dir);
    snprintf(path, sizeof(path), "%s/logs/v-e\xff.darshan", dir);
    tokio_test_write_file(path, "", 0);
    snprintf(path, sizeof(path), "%s/logs/w-b\xfe.darshan", dir);
    tokio_test_write_file(path, "not a log", 9);
    snprintf(path, sizeof(path), "%s/logs/u1_app_id1001_1-1-1-1_1.darshan",
             dir);
    log = tokio_test_read_file(path, &len);
    assert_non_null(log);
    snprintf(path, sizeof(path), "%s/logs/v-l\xff.darshan", dir);
    tokio_test_write_file(path, log, len);
    free(log);

    assert_int_equal(same_as_one(dir, "darshan-bad-ost ../logs/p9* "
                                 "../logs/v-*", NULL), 0);
    assert_file_has(dir, "one/err", "'../logs/v-e\xff.darshan' is empty");
    assert_int_equal(same_as_one(dir, "darshan-bad-ost ../logs/p9* "
                                 "../logs/w-*", NULL), 1);
    assert_file_has(dir, "one/err", "error: '../logs/w-b\xfe.darshan'");
    assert_int_equal(same_as_one(dir, "insights ../logs/p9* ../logs/v-l*",
                                 NULL), 0);
    assert_file_has(dir, "one/out", "== ../logs/v-l\xff.darshan");
    assert_int_equal(same_as_one(dir, "insights --csv ../logs/v-l* "
                                 "../logs/p9*", NULL), 0);
    assert_int_equal(same_as_one(dir, "insights --silent-errors -j "
                                 "../logs/w-* ../logs/p9*", NULL), 0);
    assert_file_has(dir, "one/err", "skipped '../logs/w-b\xfe.darshan'");
    assert_int_equal(same_as_one(dir, "insights ../logs/v-l* ../logs/w-*",
                                 NULL), 1);
    assert_int_equal(same_as_one(dir, "summarize-darshanlogs ../logs/v-l* "
                                 "../logs/w-* ../logs/u2_*", NULL), 0);
    assert_file_has(dir, "one/err", "skipping: '../logs/w-b\xfe.darshan'");
}

/* --help and a bad command line are said once (by rank 0), with the
 * one process's exit status */
static void
test_command_line(void **state)
{
    static const char *const cmds[] = {
        "summarize-darshanlogs", "darshan-bad-ost", "insights",
        "index-darshanlogs",
    };
    const char *dir = *state;
    char args[256];

    tokio_test_need_mpi();
    for (size_t i = 0; i < sizeof(cmds) / sizeof(*cmds); i++) {
        snprintf(args, sizeof(args), "%s --help", cmds[i]);
        assert_int_equal(same_as_one(dir, args, NULL), 0);
        assert_file_has(dir, "one/out", "usage: tokio ");
        snprintf(args, sizeof(args), "%s --no-such-option x", cmds[i]);
        assert_int_equal(same_as_one(dir, args, NULL), 2);
        assert_file_has(dir, "one/err", "unknown option '--no-such-option'");
        /* no logs given */
        assert_int_equal(same_as_one(dir, cmds[i], NULL), 2);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_summarize_darshanlogs,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(test_darshan_bad_ost,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(test_insights,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(test_names_not_utf8,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(test_command_line,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
