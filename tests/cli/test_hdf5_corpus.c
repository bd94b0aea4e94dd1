/*
 * tests/cli/test_hdf5_corpus.c - the commands that read HDF5 files
 * (export-tts, summarize-tts, summarize-h5lmt), run as a user runs them
 * over hostile files: the fuzz_hdf5 corpus (fuzz/corpus/hdf5/, and every
 * crash kept in tests/regress/hdf5/) and one flipped byte in the pack's
 * snx11025_2018-01-28.hdf5 at each offset of its first kilobytes (the
 * root's attributes and the global heap their strings live in).  Each
 * run must end on its own (exit 0, or 1 with one line naming the file),
 * never by a signal, and print nothing on a failure.
 *
 * Issue 17, item 2: the three died with SIGSEGV on that file with byte
 * 895 set to 0x5f (an index into the global heap that HDF5 1.10 does not
 * check); the connector now checks such references before HDF5 follows
 * them (src/connectors/hdf5_heap.c).
 */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The commands, "@" standing for the file. */
static const char *const *const commands[] = {
    (const char *[]){ "export-tts", "@", "datatargets/readbytes", NULL },
    (const char *[]){ "export-tts", "@", "mdtargets/opens", NULL },
    (const char *[]){ "summarize-tts", "--timesteps", "--columns", "@",
                      NULL },
    (const char *[]){ "summarize-h5lmt", "--bins", "1", "--summary", "@",
                      NULL },
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* Run every command over `path`; the number of runs that failed (exit
 * 1), after checking each ended as it must. */
static size_t
run_all(const char *path)
{
    /* under ASan, libhdf5's own leak on a failed open is suppressed by
     * name (tests/lsan.supp) */
    const char *env[] = { "TZ=America/Los_Angeles", tokio_test_lsan_hdf5(),
                          NULL };
    size_t failed = 0;

    for (size_t c = 0; c < N_COMMANDS; c++) {
        const char *argv[8];
        size_t n;

        for (n = 0; commands[c][n] != NULL; n++)
            argv[n] = strcmp(commands[c][n], "@") == 0 ? path
                                                       : commands[c][n];
        argv[n] = NULL;
        struct tokio_run r = tokio_test_run(NULL, env, argv);

        if (r.status != 0 && r.status != 1)
            fail_msg("tokio %s ... %s: exit %d (a signal: %s)\nstderr: %s",
                     argv[0], path, r.status, r.status > 128 ? "yes" : "no",
                     r.err);
        if (r.status == 1) {
            const char *nl = strchr(r.err, '\n');
            if (r.out[0] != '\0' || strstr(r.err, path) == NULL ||
                nl == NULL || nl[1] != '\0')
                fail_msg("tokio %s ... %s: exit 1 with %zu bytes out and "
                         "not one line naming the file: %s", argv[0], path,
                         strlen(r.out), r.err);
            failed++;
        }
        tokio_run_free(&r);
    }
    return failed;
}

/* Every file of the source folder `rel`; how many. */
static size_t
run_folder(const char *rel)
{
    const char *dir = tokio_test_source(rel);
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t files = 0;

    if (d == NULL)
        return 0;       /* no crash kept yet */
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *path = tokio_test_join(dir, e->d_name);
        run_all(path);
        files++;
        free(path);
    }
    closedir(d);
    return files;
}

static void
test_hdf5_commands_survive_the_fuzz_corpus(void **state)
{
    (void)state;
    assert_true(run_folder("fuzz/corpus/hdf5") >= 3);
    run_folder("tests/regress/hdf5");
}

/* The issue's file first (one line, no signal), then every byte of the
 * first kilobyte-and-a-half set to 0x5f in turn. */
static void
test_hdf5_commands_survive_flipped_bytes(void **state)
{
    TOKIO_TEST_NEED_DATA(good, "pytokio-inputs/snx11025_2018-01-28.hdf5");
    char *dir = tokio_test_mkdtemp();
    char *path = tokio_test_join(dir, "flipped.hdf5");
    (void)state;

    tokio_test_copy_set_byte(good, path, 895, 0x5f);
    assert_int_equal(run_all(path), N_COMMANDS);
    for (size_t off = 0; off < 1536; off += 11) {
        tokio_test_copy_set_byte(good, path, off, 0x5f);
        run_all(path);
    }
    tokio_test_rmtree(dir);
    free(path);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hdf5_commands_survive_the_fuzz_corpus),
        cmocka_unit_test(test_hdf5_commands_survive_flipped_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
