/*
 * tests/cli/test_index_mpi.c - `mpirun -n N tokio index-darshanlogs -o X
 * DIR` (issue 20, src/cli/mpi/mpi_run.c) writes the very index the
 * one-process command writes, for N of 1, 2 and 4, over a few hundred
 * generated logs and a broken one; no part is left beside X.  Skips when
 * mpirun is absent or the command was built without TOKIO_MPI.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N_LOGS 240

static void
test_mpi_index_is_one_run(void **state)
{
    const char *dir = *state;
    const char *bin = getenv("TOKIO_BIN");
    char cmd[16384], path[4300], *want, *got;

    tokio_test_need_mpi();
    snprintf(path, sizeof(path), "%s/logs", dir);
    snprintf(cmd, sizeof(cmd), "mkdir '%s'", path);
    assert_int_equal(system(cmd), 0);
    tokio_test_make_darshan_logs(path, N_LOGS);

    snprintf(cmd, sizeof(cmd), "cd '%s' && env -u OMPI_COMM_WORLD_SIZE "
             "'%s' index-darshanlogs -q -o one.db logs", dir, bin);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof(path), "%s/one.db", dir);
    want = tokio_test_sqlite_dump(path);
    TOKIO_TEST_NEED_SQLITE3(want);
    assert_non_null(strstr(want, "u12_app_id1012"));

    static const int ranks[] = { 1, 2, 4 };
    for (size_t r = 0; r < 3; r++) {
        /* Open MPI's own allocations (its plugins, unloaded at exit, so
         * unnamed) are never freed: the sanitizer build checks these runs
         * for memory errors, not leaks (none of tokio's shows either). */
        snprintf(cmd, sizeof(cmd), "cd '%s' && ASAN_OPTIONS="
                 "\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
                 "mpirun --allow-run-as-root "
                 "--oversubscribe -n %d '%s' index-darshanlogs -o mpi%d.db "
                 "logs 2>err%d", dir, ranks[r], bin, ranks[r], ranks[r]);
        assert_int_equal(system(cmd), 0);
        snprintf(path, sizeof(path), "%s/mpi%d.db", dir, ranks[r]);
        got = tokio_test_sqlite_dump(path);
        assert_non_null(got);
        assert_string_equal(got, want);
        free(got);
        /* the broken log is named, and no part is left */
        snprintf(cmd, sizeof(cmd), "grep -q \"skipping '.*zz-broken.darshan'"
                 "\" '%s/err%d'", dir, ranks[r]);
        assert_int_equal(system(cmd), 0);
        snprintf(path, sizeof(path), "%s/mpi%d.db.rank0.part", dir,
                 ranks[r]);
        assert_int_not_equal(access(path, F_OK), 0);
        snprintf(path, sizeof(path), "%s/mpi%d.db.rank1.part", dir,
                 ranks[r]);
        assert_int_not_equal(access(path, F_OK), 0);
    }

    /* an index already there is refused, not replaced */
    snprintf(cmd, sizeof(cmd), "cd '%s' && ASAN_OPTIONS=detect_leaks=0 "
             "mpirun --allow-run-as-root --oversubscribe -n 2 '%s' "
             "index-darshanlogs -o one.db logs >/dev/null 2>&1", dir, bin);
    assert_int_not_equal(system(cmd), 0);
    snprintf(path, sizeof(path), "%s/one.db", dir);
    got = tokio_test_sqlite_dump(path);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
    free(want);

    /* no log readable: exit 1 (as the one-process command), no index */
    snprintf(cmd, sizeof(cmd), "cd '%s' && mkdir bad && echo x >bad/a && "
             "echo y >bad/b && ASAN_OPTIONS=detect_leaks=0 mpirun "
             "--allow-run-as-root --oversubscribe -n 3 '%s' "
             "index-darshanlogs -o bad.db bad >/dev/null 2>&1", dir, bin);
    assert_int_not_equal(system(cmd), 0);
    snprintf(path, sizeof(path), "%s/bad.db", dir);
    assert_int_not_equal(access(path, F_OK), 0);
}

/* An empty folder: an empty index, as one process writes it (the MPI
 * run failed with "cannot list" and wrote nothing). */
static void
test_mpi_index_of_empty_folder(void **state)
{
    const char *dir = *state;
    const char *bin = getenv("TOKIO_BIN");
    char cmd[16384], path[4300], *want, *got;

    tokio_test_need_mpi();
    snprintf(cmd, sizeof(cmd), "cd '%s' && mkdir empty && env -u "
             "OMPI_COMM_WORLD_SIZE '%s' index-darshanlogs -q -o one.db "
             "empty && ASAN_OPTIONS=detect_leaks=0 mpirun "
             "--allow-run-as-root --oversubscribe -n 2 '%s' "
             "index-darshanlogs -o mpi.db empty", dir, bin, bin);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof(path), "%s/one.db", dir);
    want = tokio_test_sqlite_dump(path);
    TOKIO_TEST_NEED_SQLITE3(want);
    assert_non_null(strstr(want, "CREATE TABLE"));
    snprintf(path, sizeof(path), "%s/mpi.db", dir);
    got = tokio_test_sqlite_dump(path);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
    free(want);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mpi_index_is_one_run,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(test_mpi_index_of_empty_folder,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
