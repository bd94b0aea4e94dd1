/*
 * tests/cli/test_output_failures.c - every command that writes text, made
 * to fail while writing it: to /dev/full ("No space left on device"), and
 * to a file no larger than a few bytes may grow (RLIMIT_FSIZE: "File too
 * large", as when the disk fills).  Each must exit 1 with a message that
 * names the output and the cause, print nothing on standard output, and
 * leave the file it was to replace as it was, with no temporary file
 * beside it.  Standard output on /dev/full fails the same way, for the
 * commands that print to it themselves too.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Every output below is larger than this, so writing it must fail. */
#define LIMIT 128

/* A command and its arguments (inputs under the working folder's
 * inputs/), without -o. */
static const char *const *const commands[] = {
    (const char *[]){ "cache-hpss", "--json", "inputs/hsilog.txt.gz", NULL },
    (const char *[]){ "cache-hpss", "--csv", "inputs/hpssftplog.txt.gz",
                      NULL },
    (const char *[]){ "cache-hpss", "--json", "inputs/hpss_daily.txt", NULL },
    (const char *[]){ "cache-slurm", "--json", "inputs/sample.slurm", NULL },
    (const char *[]){ "cache-slurm", "--csv", "inputs/sample.slurm", NULL },
    (const char *[]){ "cache-slurm", "--native", "inputs/sample.slurm",
                      NULL },
    (const char *[]){ "cache-craysdb", "--json", "inputs/sample.xtdb2proc.gz",
                      NULL },
    (const char *[]){ "cache-craysdb", "--csv", "inputs/sample.xtdb2proc.gz",
                      NULL },
    (const char *[]){ "cache-craysdb", "--native",
                      "inputs/sample.xtdb2proc.gz", NULL },
    (const char *[]){ "cache-isdct", "--json", "inputs/sample_nersc_isdct.tgz",
                      NULL },
    (const char *[]){ "cache-isdct", "--csv", "inputs/sample_nersc_isdct.tgz",
                      NULL },
    (const char *[]){ "cache-globuslogs", "--json", "inputs/globuslogs.txt.gz",
                      NULL },
    (const char *[]){ "cache-globuslogs", "--csv", "inputs/globuslogs.txt.gz",
                      NULL },
    (const char *[]){ "cache-nersc-globuslogs", "--input",
                      "inputs/globuslogs.json.gz", "2019-01-01T00:00:00",
                      "2020-01-01T00:00:00", NULL },
    (const char *[]){ "cache-nersc-globuslogs", "--csv", "--input",
                      "inputs/globuslogs.json.gz", "2019-01-01T00:00:00",
                      "2020-01-01T00:00:00", NULL },
    (const char *[]){ "cache-mmperfmon", "--json",
                      "inputs/mmperfmon-usage.txt.gz", NULL },
    (const char *[]){ "cache-mmperfmon", "--csv", "--metric", "cpu_user",
                      "inputs/mmperfmon-usage.txt.gz", NULL },
    (const char *[]){ "cache-darshan", "inputs/sample.darshan", NULL },
    (const char *[]){ "darshan-bad-ost", "inputs/sample-badost.darshan",
                      NULL },
    (const char *[]){ "summarize-darshanlogs", "inputs/sample.darshan",
                      "inputs/sample-2.darshan", NULL },
    (const char *[]){ "summarize-tts", "inputs/sample_tokiots.hdf5", NULL },
    (const char *[]){ "export-tts", "inputs/snx11025_2018-01-28.hdf5",
                      "datatargets/readbytes", NULL },
    (const char *[]){ "summarize-h5lmt", "inputs/snx11025_2018-01-28.h5lmt",
                      NULL },
    (const char *[]){ "cache-lfsstatus", "--fullness",
                      "inputs/sample_ost-fullness.txt.gz", "snx11035",
                      "2017-03-20T02:07:47", NULL },
};

/* `argv` with "-o", `out` added (a NULL-ended array; free()). */
static const char **
with_output(const char *const *argv, const char *out)
{
    size_t n = 0;

    while (argv[n] != NULL)
        n++;
    const char **all = calloc(n + 3, sizeof(*all));
    assert_non_null(all);
    memcpy(all, argv, n * sizeof(*all));
    all[n] = "-o";
    all[n + 1] = out;
    return all;
}

/* A one-line description of `argv` for failure messages (static). */
static const char *
describe(const char *const *argv)
{
    static char text[512];
    size_t used = 0;

    text[0] = '\0';
    for (size_t i = 0; argv[i] != NULL && used < sizeof(text); i++)
        used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s",
                                 i ? " " : "", argv[i]);
    return text;
}

/* The command failed as a write should: exit 1, nothing on standard
 * output, `name` and `cause` in the message. */
static void
check_failed(const struct tokio_run *r, const char *const *argv,
             const char *name, const char *cause)
{
    if (r->status != 1 || r->out[0] != '\0' || strstr(r->err, name) == NULL ||
        strstr(r->err, cause) == NULL)
        fail_msg("tokio %s -o %s: exit %d, %zu bytes out, message '%s' "
                 "(wanted exit 1, nothing out, '%s' and '%s')",
                 describe(argv), name, r->status, strlen(r->out), r->err,
                 name, cause);
}

static void
test_writing_to_a_full_device_fails_cleanly(void **state)
{
    struct tokio_workdir *wd = *state;

    TOKIO_TEST_NEED_INPUTS(wd);
    if (access("/dev/full", W_OK) != 0) {
        print_message("skipped: no /dev/full\n");
        skip();
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        const char **argv = with_output(commands[i], "/dev/full");
        struct tokio_run r = tokio_test_run(wd->dir, NULL, argv);

        check_failed(&r, commands[i], "'/dev/full'",
                     "No space left on device");
        tokio_run_free(&r);
        free(argv);
    }
}

static void
test_a_file_too_large_leaves_the_old_one(void **state)
{
    struct tokio_workdir *wd = *state;

    TOKIO_TEST_NEED_INPUTS(wd);
    char *outdir = tokio_test_join(wd->dir, "out");
    char *out = tokio_test_join(outdir, "result");
    static const char old[] = "the result of an earlier run\n";

    assert_int_equal(mkdir(outdir, 0755), 0);
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        const char **argv = with_output(commands[i], out);
        struct stat st;
        struct tokio_run r;

        /* unlimited, the command writes more than the limit */
        unlink(out);
        r = tokio_test_run(wd->dir, NULL, argv);
        if (r.status != 0 || stat(out, &st) != 0 || st.st_size <= LIMIT)
            fail_msg("tokio %s: exit %d, %s (%s)", describe(argv), r.status,
                     r.err, "its output must exceed the limit");
        tokio_run_free(&r);

        /* limited, it fails and the file it was to replace stays */
        FILE *fp = fopen(out, "w");
        assert_non_null(fp);
        fputs(old, fp);
        assert_int_equal(fclose(fp), 0);
        r = tokio_test_run_limited(wd->dir, NULL, argv, LIMIT);
        check_failed(&r, commands[i], out, "File too large");
        tokio_run_free(&r);
        char *text = tokio_test_read_file(out, NULL);
        assert_string_equal(text, old);
        free(text);
        if (tokio_test_count_entries(outdir) != 1)
            fail_msg("tokio %s: a temporary file was left beside %s",
                     describe(argv), out);
        free(argv);
    }
    free(out);
    free(outdir);
}

/* Commands that print to standard output themselves (help, version, the
 * scoreboard's text), and one through the output helpers: standard output
 * on /dev/full fails them too, not silently at exit. */
static void
test_standard_output_on_a_full_device_fails(void **state)
{
    struct tokio_workdir *wd = *state;
    const char *const *const printers[] = {
        (const char *[]){ "--help", NULL },
        (const char *[]){ "--version", NULL },
        (const char *[]){ "help", "cache-slurm", NULL },
        (const char *[]){ "find-darshanlogs", "--help", NULL },
        (const char *[]){ "compare-isdct", "--help", NULL },
        (const char *[]){ "cache-topology", "--help", NULL },
        (const char *[]){ "cache-slurm", "--csv", "inputs/sample.slurm", NULL },
        (const char *[]){ "darshan-scoreboard", "inputs/darshanlogs.db", NULL },
    };

    TOKIO_TEST_NEED_INPUTS(wd);
    if (access("/dev/full", W_OK) != 0) {
        print_message("skipped: no /dev/full\n");
        skip();
    }
    for (size_t i = 0; i < sizeof(printers) / sizeof(printers[0]); i++) {
        struct tokio_run r = tokio_test_run_stdout_to(wd->dir, "/dev/full",
                                                      printers[i]);
        if (r.status != 1 ||
            strstr(r.err, "standard output") == NULL ||
            strstr(r.err, "No space left on device") == NULL)
            fail_msg("tokio %s > /dev/full: exit %d, message '%s'",
                     describe(printers[i]), r.status, r.err);
        tokio_run_free(&r);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        TOKIO_TEST_IN_WORKDIR(test_writing_to_a_full_device_fails_cleanly),
        TOKIO_TEST_IN_WORKDIR(test_a_file_too_large_leaves_the_old_one),
        TOKIO_TEST_IN_WORKDIR(test_standard_output_on_a_full_device_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
