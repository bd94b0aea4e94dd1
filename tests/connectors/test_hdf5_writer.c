/*
 * tests/connectors/test_hdf5_writer.c - writing TOKIO Time Series files:
 * round trips through the reader bit for bit (-0.0 included), updates of
 * part of a dataset, the reference's checks (start/end, timestep,
 * subset), init_hdf5_file(), all-or-nothing under SIGKILL, and, when
 * /usr/bin/python3 has h5py, the same values and attribute types seen
 * from h5py.
 */
#include "tokio/connectors/hdf5.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/alloc.h"
#include "testutil.h"

#define T0 1517126400       /* 2018-01-28 00:00:00 -08:00 */

/* A 6 x 3 series of "datatargets/readrates" with columns named out of
 * order and cells that tell -0.0, 0.0 and NaN apart. */
static struct tokio_timeseries *
sample(int64_t start, size_t rows)
{
    const char *names[] = { "OST10", "OST2", "OST1" };
    struct tokio_timeseries *ts = NULL;
    double *d;

    assert_int_equal(tokio_timeseries_new(&ts, "datatargets/readrates",
                                          start, start + 5 * (int64_t)rows, 5,
                                          3, names, 3), TOKIO_OK);
    d = tokio_timeseries_data(ts);
    for (size_t r = 0; r < rows; r++) {
        d[r * 3 + 0] = 10.0 + (double)r;        /* OST10 */
        d[r * 3 + 1] = r % 2 ? 0.0 : 2.5e300;   /* OST2 */
        d[r * 3 + 2] = r == 1 ? -0.0 : -1.0 / 3 * (double)r;    /* OST1 */
    }
    assert_int_equal(tokio_timeseries_set_version(ts, "1"), TOKIO_OK);
    assert_int_equal(tokio_timeseries_set_global_version(ts, "1"), TOKIO_OK);
    json_object_set_new(tokio_timeseries_dataset_metadata(ts), "units",
                        json_string("bytes/sec"));
    json_object_set_new(tokio_timeseries_group_metadata(ts), "source",
                        json_string("lmt"));
    return ts;
}

/* 1 if `name` is the update lock of a file (".NAME.lock", which stays
 * for the next writer: src/core/beside.c). */
static int
is_lock(const char *name)
{
    size_t n = strlen(name);

    return name[0] == '.' && n > 5 && strcmp(name + n - 5, ".lock") == 0;
}

/* Only `keep` (or nothing) in `dir`, but update locks: no temporary left
 * behind. */
static void
assert_only(const char *dir, const char *keep)
{
    DIR *d = opendir(dir);
    struct dirent *e;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            is_lock(e->d_name))
            continue;
        if (keep == NULL || strcmp(e->d_name, keep) != 0)
            fail_msg("unexpected file '%s' in '%s'", e->d_name, dir);
    }
    closedir(d);
}

static void
test_hdf5_writer_round_trip_is_bit_exact(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "a.hdf5");
    struct tokio_timeseries *ts = sample(T0, 6), *back;
    char *v = NULL;
    struct tokio_hdf5 *h = NULL;
    (void)state;

    tokio_test_tts_write(path, ts);
    assert_only(dir, "a.hdf5");
    back = tokio_test_tts_read(path, "datatargets/readrates");
    /* committed sorted naturally; ts itself was reordered the same way */
    assert_int_equal(tokio_timeseries_cols(back), 3);
    assert_string_equal(tokio_timeseries_column(back, 0), "OST1");
    assert_string_equal(tokio_timeseries_column(back, 1), "OST2");
    assert_string_equal(tokio_timeseries_column(back, 2), "OST10");
    assert_string_equal(tokio_timeseries_column(ts, 0), "OST1");
    assert_int_equal(tokio_timeseries_rows(back), 6);
    assert_memory_equal(tokio_timeseries_cdata(back),
                        tokio_timeseries_cdata(ts), 6 * 3 * sizeof(double));
    assert_memory_equal(tokio_timeseries_timestamps(back),
                        tokio_timeseries_timestamps(ts), 6 * sizeof(int64_t));
    /* the -0.0 survived as -0.0: missing, and distinct from 0.0 */
    assert_true(tokio_timeseries_is_missing(tokio_timeseries_cdata(back)[3]));
    assert_false(tokio_timeseries_is_missing(tokio_timeseries_cdata(back)[4]));
    assert_int_equal(tokio_timeseries_timestep(back), 5);
    assert_string_equal(tokio_timeseries_version(back), "1");
    assert_string_equal(tokio_timeseries_global_version(back), "1");
    assert_string_equal(json_string_value(json_object_get(
        tokio_timeseries_dataset_metadata(back), "units")), "bytes/sec");
    assert_true(json_is_integer(json_object_get(
        tokio_timeseries_dataset_metadata(back), "updated")));
    assert_string_equal(json_string_value(json_object_get(
        tokio_timeseries_group_metadata(back), "source")), "lmt");
    /* the derived bytes = rates * timestep work on the written file */
    assert_int_equal(tokio_hdf5_open(&h, path, 0), TOKIO_OK);
    assert_int_equal(tokio_hdf5_get_version(h, "datatargets/readrates", &v),
                     TOKIO_OK);
    assert_string_equal(v, "1");
    free(v);
    tokio_hdf5_free(h);
    tokio_timeseries_free(back);
    back = tokio_test_tts_read(path, "datatargets/readbytes");
    assert_true(tokio_timeseries_cdata(back)[2] == 50.0);   /* 10 * 5 */
    tokio_timeseries_free(back);
    tokio_timeseries_free(ts);
    free(path);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_hdf5_writer_updates_part_keeping_column_order(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "a.hdf5");
    struct tokio_timeseries *ts = sample(T0, 6), *part, *back;
    struct tokio_hdf5_update *u = NULL;
    const char *order[] = { "OST10", "OST1", "OST2" };
    double *d;
    (void)state;

    tokio_test_tts_write(path, ts);
    /* rows 2..3, columns in another order, new values */
    part = sample(T0 + 10, 2);
    assert_int_equal(tokio_timeseries_rearrange_columns(part, order, 3),
                     TOKIO_OK);
    d = tokio_timeseries_data(part);
    for (size_t i = 0; i < 6; i++)
        d[i] = 100.0 + (double)i;   /* OST10, OST1, OST2 per row */
    assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_commit(u, part), TOKIO_OK);
    /* the update sees its own change before finishing */
    assert_int_equal(tokio_hdf5_update_to_timeseries(u,
                     "datatargets/readrates", &back), TOKIO_OK);
    assert_true(tokio_timeseries_cdata(back)[2 * 3 + 2] == 100.0);
    tokio_timeseries_free(back);
    assert_int_equal(tokio_hdf5_update_finish(u), TOKIO_OK);
    back = tokio_test_tts_read(path, "datatargets/readrates");
    assert_string_equal(tokio_timeseries_column(back, 0), "OST1");
    assert_string_equal(tokio_timeseries_column(back, 2), "OST10");
    d = tokio_timeseries_data(back);
    /* row 2: OST1 = 101, OST2 = 102, OST10 = 100; rows 0-1, 4-5 kept */
    assert_true(d[6] == 101.0 && d[7] == 102.0 && d[8] == 100.0);
    assert_true(d[9] == 104.0 && d[10] == 105.0 && d[11] == 103.0);
    assert_memory_equal(d, tokio_timeseries_cdata(ts), 6 * sizeof(double));
    assert_memory_equal(d + 12, tokio_timeseries_cdata(ts) + 12,
                        6 * sizeof(double));
    tokio_timeseries_free(back);
    tokio_timeseries_free(part);
    tokio_timeseries_free(ts);
    assert_only(dir, "a.hdf5");
    free(path);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Regression (issue 17, 1): two updates of one file at once both land:
 * each child rewrites its half of the rows; the second to start waits
 * for the first's lock and reads its result.  Before the lock, the last
 * rename won and the other half was lost. */
static void
test_hdf5_writer_concurrent_updates_both_land(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "a.hdf5");
    struct tokio_timeseries *ts = sample(T0, 6), *back;
    pid_t pids[2];
    (void)state;

    tokio_test_tts_write(path, ts);
    for (int k = 0; k < 2; k++) {
        if ((pids[k] = fork()) == 0) {
            struct tokio_timeseries *part = sample(T0 + 15 * k, 3);
            struct tokio_hdf5_update *u = NULL;
            double *d = tokio_timeseries_data(part);
            for (size_t i = 0; i < 9; i++)
                d[i] = 1000.0 * (k + 1) + (double)i;
            if (tokio_hdf5_update_begin(&u, path) != TOKIO_OK ||
                tokio_hdf5_update_commit(u, part) != TOKIO_OK)
                _exit(1);
            usleep(300000);         /* both are at work at once */
            _exit(tokio_hdf5_update_finish(u) == TOKIO_OK ? 0 : 2);
        }
    }
    for (int k = 0; k < 2; k++) {
        int status;
        waitpid(pids[k], &status, 0);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    back = tokio_test_tts_read(path, "datatargets/readrates");
    /* the file's first column is OST1, the series' third */
    assert_string_equal(tokio_timeseries_column(back, 0), "OST1");
    for (size_t r = 0; r < 6; r++)
        assert_true(tokio_timeseries_cdata(back)[r * 3] ==
                    1000.0 * (double)(r / 3 + 1) +
                        (double)((r % 3) * 3 + 2));
    tokio_timeseries_free(back);
    tokio_timeseries_free(ts);
    assert_only(dir, "a.hdf5");
    free(path);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_hdf5_writer_refuses_what_the_reference_refuses(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "a.hdf5");
    struct tokio_timeseries *ts = sample(T0, 6), *bad;
    struct tokio_hdf5_update *u = NULL;
    char *before, *after;
    size_t n_before, n_after;
    (void)state;

    tokio_test_tts_write(path, ts);
    before = tokio_test_read_file(path, &n_before);
    assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_OK);
    /* another group over another day: the root's start/end disagree */
    bad = sample(T0 + 86400, 6);
    assert_int_equal(tokio_timeseries_set_timestamp_key(bad, NULL), TOKIO_OK);
    {
        struct tokio_timeseries *other = NULL;
        assert_int_equal(tokio_timeseries_new(&other, "mdtargets/opens",
                                              T0 + 86400, T0 + 86430, 5, 1,
                                              NULL, 0), TOKIO_OK);
        assert_int_equal(tokio_hdf5_update_commit(u, other), TOKIO_EINVAL);
        assert_contains(tokio_errmsg(), "1517212800 != 1517126400");
        assert_contains(tokio_errmsg(), "1517212830 != 1517126430");
        tokio_timeseries_free(other);
    }
    /* past the end of the existing timestamps: not a subset */
    assert_int_equal(tokio_hdf5_update_commit(u, bad), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "not a subset");
    tokio_timeseries_free(bad);
    /* a different timestep */
    assert_int_equal(tokio_timeseries_new(&bad, "datatargets/readrates", T0,
                                          T0 + 60, 10, 3, NULL, 0), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_commit(u, bad), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "different timestep");
    tokio_timeseries_free(bad);
    /* a different width */
    assert_int_equal(tokio_timeseries_new(&bad, "datatargets/readrates", T0,
                                          T0 + 30, 5, 2, NULL, 0), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_commit(u, bad), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "a.hdf5");
    tokio_timeseries_free(bad);
    /* one row, so no timestep */
    {
        int64_t one = T0;
        assert_int_equal(tokio_timeseries_new_rows(&bad, "datatargets/x",
                                                   &one, 1, 3), TOKIO_OK);
        assert_int_equal(tokio_hdf5_update_commit(u, bad), TOKIO_EINVAL);
        assert_contains(tokio_errmsg(), "timestep 0");
        tokio_timeseries_free(bad);
    }
    /* a metadata value HDF5 cannot hold */
    json_object_set_new(tokio_timeseries_dataset_metadata(ts), "nested",
                        json_object());
    assert_int_equal(tokio_hdf5_update_commit(u, ts), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "nested");
    tokio_hdf5_update_abort(u);
    after = tokio_test_read_file(path, &n_after);
    assert_int_equal(n_before, n_after);
    assert_memory_equal(before, after, n_before);
    assert_only(dir, "a.hdf5");
    free(before);
    free(after);
    tokio_timeseries_free(ts);
    free(path);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_hdf5_writer_init_dataset_is_all_missing(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "a.hdf5");
    struct tokio_hdf5_update *u = NULL;
    struct tokio_timeseries *back;
    char **names;
    size_t n;
    struct tokio_hdf5 *h;
    (void)state;

    assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_set_version(u, "1"), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_init_dataset(u, "dataservers/cpuload",
                                                    T0, T0 + 3600, 5, 4),
                     TOKIO_OK);
    /* already there: left alone */
    assert_int_equal(tokio_hdf5_update_init_dataset(u, "dataservers/cpuload",
                                                    T0, T0 + 60, 5, 9),
                     TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_init_dataset(u, "dataservers/memused",
                                                    T0, T0, 5, 4),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_hdf5_update_finish(u), TOKIO_OK);
    back = tokio_test_tts_read(path, "dataservers/cpuload");
    assert_int_equal(tokio_timeseries_rows(back), 720);
    assert_int_equal(tokio_timeseries_cols(back), 4);
    assert_int_equal(tokio_timeseries_n_names(back), 0);
    for (size_t i = 0; i < 720 * 4; i++)
        assert_true(tokio_timeseries_is_missing(
            tokio_timeseries_cdata(back)[i]));
    assert_int_equal(tokio_timeseries_timestamps(back)[719], T0 + 3595);
    tokio_timeseries_free(back);
    assert_int_equal(tokio_hdf5_open(&h, path, 0), TOKIO_OK);
    assert_int_equal(tokio_hdf5_get_columns(h, "dataservers/cpuload", &names,
                                            &n), TOKIO_OK);
    assert_int_equal(n, 0);
    free(names);
    tokio_hdf5_free(h);
    free(path);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_hdf5_writer_begin_errors_name_the_file(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char *path = tokio_test_join(dir, "junk.hdf5");
    char *missing = tokio_test_join(dir, "no/such/dir/x.hdf5");
    struct tokio_hdf5_update *u = NULL;
    (void)state;

    tokio_test_write_file(path, "not hdf5\n", 9);
    assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_EFORMAT);
    assert_null(u);
    assert_contains(tokio_errmsg(), "junk.hdf5");
    assert_only(dir, "junk.hdf5");
    assert_int_equal(tokio_hdf5_update_begin(&u, missing), TOKIO_EIO);
    assert_contains(tokio_errmsg(), "x.hdf5");
    tokio_hdf5_update_abort(NULL);
    free(missing);
    free(path);
    tokio_test_rmtree(dir);
    free(dir);
}

/* finish cannot rename when the folder went away; a folder is no file */
static void
test_hdf5_writer_finish_failure_is_eio(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "a.hdf5");
    struct tokio_timeseries *ts = sample(T0, 6);
    struct tokio_hdf5_update *u = NULL;
    (void)state;

    assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_commit(u, ts), TOKIO_OK);
    tokio_test_rmtree(dir);
    assert_int_equal(tokio_hdf5_update_finish(u), TOKIO_EIO);
    assert_contains(tokio_errmsg(), "a.hdf5");
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(mkdir(path, 0700), 0);     /* a.hdf5 is a folder */
    assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_EIO);
    assert_contains(tokio_errmsg(), "not a regular file");
    assert_only(dir, "a.hdf5");
    tokio_timeseries_free(ts);
    free(path);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Through a symbolic link the file it names is updated; the link stays.
 * A FIFO is refused without being replaced. */
static void
test_hdf5_writer_follows_a_link_and_refuses_a_fifo(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char *file = tokio_test_join(dir, "a.hdf5");
    char *link = tokio_test_join(dir, "latest.hdf5");
    char *fifo = tokio_test_join(dir, "pipe.hdf5");
    struct tokio_timeseries *ts = sample(T0, 6), *back;
    struct tokio_hdf5_update *u = NULL;
    struct stat st;
    (void)state;

    tokio_test_tts_write(file, ts);
    tokio_timeseries_free(ts);
    ts = sample(T0, 6);
    tokio_timeseries_data(ts)[0] = 42.0;        /* a new value */
    assert_int_equal(symlink("a.hdf5", link), 0);
    tokio_test_tts_write(link, ts);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    back = tokio_test_tts_read(file, "datatargets/readrates");
    size_t c = 0;
    while (c < tokio_timeseries_cols(back) &&
           strcmp(tokio_timeseries_column(back, c), "OST10") != 0)
        c++;
    assert_true(c < tokio_timeseries_cols(back));
    assert_true(tokio_timeseries_cdata(back)[c] == 42.0);
    tokio_timeseries_free(back);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(tokio_hdf5_update_begin(&u, fifo), TOKIO_EIO);
    assert_contains(tokio_errmsg(), "pipe.hdf5': not a regular file");
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    tokio_timeseries_free(ts);
    free(fifo);
    free(link);
    free(file);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Keeps the old mode of the file it replaces. */
static void
test_hdf5_writer_keeps_mode(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "a.hdf5");
    struct tokio_timeseries *ts = sample(T0, 6);
    struct stat st;
    (void)state;

    tokio_test_tts_write(path, ts);
    assert_int_equal(chmod(path, 0640), 0);
    tokio_test_tts_write(path, ts);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
    tokio_timeseries_free(ts);
    free(path);
    tokio_test_rmtree(dir);
    free(dir);
}

/*
 * A child updates the file with many datasets and is killed midway: the
 * file is still the old one, byte for byte, and opens; the temporary is
 * hidden (a ".name" no glob or template matches).  Then a child that is
 * not killed leaves the complete new file.
 */
static void
child_update(const char *path, int fd, int datasets)
{
    struct tokio_hdf5_update *u = NULL;
    char name[64];

    if (tokio_hdf5_update_begin(&u, path) < 0)
        _exit(2);
    if (write(fd, "x", 1) != 1)
        _exit(3);
    for (int i = 0; i < datasets; i++) {
        struct tokio_timeseries *ts = NULL;
        snprintf(name, sizeof(name), "g%d/d", i);
        if (tokio_timeseries_new(&ts, name, T0, T0 + 30, 5, 2000, NULL, 0)
            < 0 || tokio_hdf5_update_commit(u, ts) < 0)
            _exit(4);
        tokio_timeseries_free(ts);
    }
    _exit(tokio_hdf5_update_finish(u) < 0 ? 5 : 0);
}

static void
test_hdf5_writer_is_all_or_nothing_under_sigkill(void **state)
{
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "a.hdf5");
    struct tokio_timeseries *ts = sample(T0, 6), *back;
    char *before, *after, c;
    size_t n_before, n_after;
    int fds[2], status;
    pid_t pid;
    (void)state;

    tokio_test_tts_write(path, ts);
    before = tokio_test_read_file(path, &n_before);
    assert_int_equal(pipe(fds), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        child_update(path, fds[1], 1000000);    /* never finishes */
    }
    close(fds[1]);
    assert_int_equal(read(fds[0], &c, 1), 1);   /* the update has begun */
    close(fds[0]);
    usleep(200 * 1000);
    assert_int_equal(kill(pid, SIGKILL), 0);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFSIGNALED(status))
        fail_msg("the child exited with %d", WEXITSTATUS(status));
    after = tokio_test_read_file(path, &n_after);
    assert_int_equal(n_before, n_after);
    assert_memory_equal(before, after, n_before);
    free(after);
    back = tokio_test_tts_read(path, "datatargets/readrates");
    assert_memory_equal(tokio_timeseries_cdata(back),
                        tokio_timeseries_cdata(ts), 18 * sizeof(double));
    tokio_timeseries_free(back);
    /* the dead child's copy is hidden beside the file */
    {
        DIR *d = opendir(dir);
        struct dirent *e;
        int hidden = 0;
        assert_non_null(d);
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0
                || strcmp(e->d_name, "a.hdf5") == 0 || is_lock(e->d_name))
                continue;
            assert_true(strncmp(e->d_name, ".a.hdf5.tokio-tmp-", 18) == 0);
            hidden++;
        }
        closedir(d);
        assert_int_equal(hidden, 1);
    }

    /* two copies the next update must leave: one of a live writer of
     * this host (us), one of another host's writer */
    char host[65], live[4300], other[4300];
    if (gethostname(host, 64) != 0)
        strcpy(host, "localhost");
    host[64] = '\0';
    for (char *p = host; *p; p++)
        if (*p == '/' || *p == '-')
            *p = '_';
    snprintf(live, sizeof(live), "%s/.a.hdf5.tokio-tmp-%s-%ld-abcdef", dir,
             host, (long)getpid());
    snprintf(other, sizeof(other), "%s/.a.hdf5.tokio-tmp-%s_x-1-abcdef",
             dir, host);
    tokio_test_write_file(live, "", 0);
    tokio_test_write_file(other, "", 0);

    /* the same update, finished: the whole new file */
    assert_int_equal(pipe(fds), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        child_update(path, fds[1], 3);
    }
    close(fds[1]);
    assert_int_equal(read(fds[0], &c, 1), 1);
    close(fds[0]);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    back = tokio_test_tts_read(path, "g2/d");
    assert_int_equal(tokio_timeseries_rows(back), 6);
    assert_int_equal(tokio_timeseries_cols(back), 2000);
    tokio_timeseries_free(back);
    /* and the killed writer's copy is gone; the live and foreign stay */
    {
        DIR *d = opendir(dir);
        struct dirent *e;
        int kept = 0;
        assert_non_null(d);
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0
                || strcmp(e->d_name, "a.hdf5") == 0 || is_lock(e->d_name))
                continue;
            if (strcmp(e->d_name, strrchr(live, '/') + 1) != 0 &&
                strcmp(e->d_name, strrchr(other, '/') + 1) != 0)
                fail_msg("left beside the file: %s", e->d_name);
            kept++;
        }
        closedir(d);
        assert_int_equal(kept, 2);
    }
    back = tokio_test_tts_read(path, "datatargets/readrates");
    assert_memory_equal(tokio_timeseries_cdata(back),
                        tokio_timeseries_cdata(ts), 18 * sizeof(double));
    tokio_timeseries_free(back);
    free(before);
    tokio_timeseries_free(ts);
    free(path);
    tokio_test_rmtree(dir);
    free(dir);
}

/* ---- h5py ------------------------------------------------------------- */

static int
have_h5py(void)
{
    struct stat st;
    pid_t pid;
    int status;

    if (stat("/usr/bin/python3", &st) != 0)
        return 0;
    if ((pid = fork()) == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execl("/usr/bin/python3", "python3", "-c", "import h5py, numpy",
              (char *)NULL);
        _exit(127);
    }
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)
           && WEXITSTATUS(status) == 0;
}

/* What h5py sees: each value's bit pattern, and each attribute's type. */
static const char h5py_script[] =
    "import sys, struct, h5py\n"
    "f = h5py.File(sys.argv[1], 'r')\n"
    "d = f['datatargets/readrates']\n"
    "print(d.dtype, d.shape, d.chunks, d.compression, d.compression_opts)\n"
    "print(' '.join(struct.pack('<d', x).hex() for x in d[:].flatten()))\n"
    "print(list(f['datatargets/timestamps'][:]), f['datatargets/timestamps'].dtype)\n"
    "print(repr(d.attrs['columns']))\n"
    "print(repr(d.attrs['units']), repr(d.attrs['version']))\n"
    "print(type(d.attrs['updated']).__name__)\n"
    "print(repr(f['datatargets'].attrs['source']))\n"
    "print(repr(f.attrs['version']), repr(f.attrs['start']), repr(f.attrs['end']))\n";

static void
test_hdf5_writer_files_open_in_h5py(void **state)
{
    char *dir, *path, *script, *out;
    struct tokio_timeseries *ts;
    int fds[2], status;
    size_t len = 0, cap = 1 << 16;
    pid_t pid;
    char expect[2048];
    const double *d;
    (void)state;

    if (!have_h5py())
        skip();
    dir = tokio_test_mkdtemp();
    path = tokio_test_join(dir, "a.hdf5");
    script = tokio_test_join(dir, "check.py");
    ts = sample(T0, 6);
    tokio_test_tts_write(path, ts);
    tokio_test_write_file(script, h5py_script, strlen(h5py_script));
    assert_int_equal(pipe(fds), 0);
    if ((pid = fork()) == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        execl("/usr/bin/python3", "python3", script, path, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    out = calloc(1, cap);
    assert_non_null(out);
    for (ssize_t n; (n = read(fds[0], out + len, cap - 1 - len)) > 0;)
        len += (size_t)n;
    close(fds[0]);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    assert_contains(out, "float64 (6, 3) (6, 3) gzip 4\n");
    /* every cell's bits, in file order */
    d = tokio_timeseries_cdata(ts);
    expect[0] = '\n';
    len = 1;
    for (size_t i = 0; i < 18; i++) {
        unsigned char b[8];
        memcpy(b, &d[i], 8);    /* little-endian host, as '<d' */
        for (int k = 0; k < 8; k++)
            len += (size_t)snprintf(expect + len, sizeof(expect) - len,
                                    "%02x", b[k]);
        expect[len++] = i < 17 ? ' ' : '\n';
    }
    expect[len] = '\0';
    assert_contains(out, expect);
    assert_contains(out, "[1517126400, 1517126405, 1517126410, 1517126415, "
                         "1517126420, 1517126425] int64\n");
    assert_contains(out, "array([b'OST1', b'OST2', b'OST10'], dtype='|S5')");
    assert_contains(out, "b'bytes/sec' '1'\n");
    assert_contains(out, "\nint64\n");
    assert_contains(out, "\nb'lmt'\n");
    assert_contains(out, "'1' 1517126400 1517126430\n");
    free(out);
    tokio_timeseries_free(ts);
    free(script);
    free(path);
    tokio_test_rmtree(dir);
    free(dir);
}

/* ---- out of memory ---------------------------------------------------- */

struct oom_ctx {
    char *path;
};

static int
oom_trial(void *p)
{
    struct oom_ctx *ctx = p;
    struct tokio_hdf5_update *u = NULL;
    struct tokio_timeseries *ts = NULL;
    const char *names[] = { "b", "a" };
    int rc;

    if ((rc = tokio_timeseries_new(&ts, "x/y", T0, T0 + 20, 5, 2, names,
                                   2)) < 0)
        return rc;
    /* jansson's allocations may fail too; a metadata entry then is
     * simply absent */
    json_object_set_new(tokio_timeseries_dataset_metadata(ts), "list",
                        json_pack("[ss]", "p", "q"));
    json_object_set_new(tokio_timeseries_dataset_metadata(ts), "nums",
                        json_pack("[if]", 1, 2.5));
    unlink(ctx->path);
    if ((rc = tokio_hdf5_update_begin(&u, ctx->path)) >= 0) {
        if ((rc = tokio_hdf5_update_commit(u, ts)) >= 0)
            rc = tokio_hdf5_update_commit(u, ts);
        if (rc >= 0)
            rc = tokio_hdf5_update_finish(u);
        else
            tokio_hdf5_update_abort(u);
    }
    tokio_timeseries_free(ts);
    return rc;
}

static void
test_hdf5_writer_survives_every_oom(void **state)
{
    char *dir = tokio_test_mkdtemp();
    struct oom_ctx ctx = { tokio_test_join(dir, "oom.hdf5") };
    (void)state;

    tokio_test_every_oom(oom_trial, &ctx, 1);
    free(ctx.path);
    tokio_test_rmtree(dir);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hdf5_writer_round_trip_is_bit_exact),
        cmocka_unit_test(test_hdf5_writer_updates_part_keeping_column_order),
        cmocka_unit_test(test_hdf5_writer_concurrent_updates_both_land),
        cmocka_unit_test(test_hdf5_writer_refuses_what_the_reference_refuses),
        cmocka_unit_test(test_hdf5_writer_init_dataset_is_all_missing),
        cmocka_unit_test(test_hdf5_writer_begin_errors_name_the_file),
        cmocka_unit_test(test_hdf5_writer_follows_a_link_and_refuses_a_fifo),
        cmocka_unit_test(test_hdf5_writer_finish_failure_is_eio),
        cmocka_unit_test(test_hdf5_writer_keeps_mode),
        cmocka_unit_test(test_hdf5_writer_is_all_or_nothing_under_sigkill),
        cmocka_unit_test(test_hdf5_writer_files_open_in_h5py),
        cmocka_unit_test(test_hdf5_writer_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
