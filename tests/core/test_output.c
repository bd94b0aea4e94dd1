/*
 * tests/core/test_output.c - atomic result files and CSV writing.
 */
#include "testutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/alloc.h"
#include "tokio/output.h"

/* The file at `path` holds `want`. */
static void
assert_holds(const char *path, const char *want)
{
    char *text = tokio_test_read_file(path, NULL);

    assert_string_equal(text, want);
    free(text);
}

static void
test_output_commit_replaces_file_whole(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    struct tokio_output *o;

    (void)state;
    snprintf(path, sizeof(path), "%s/result.json", dir);
    tokio_test_write_file(path, "old", SIZE_MAX);
    chmod(path, 0640);
    assert_int_equal(tokio_output_open(&o, path), TOKIO_OK);
    fputs("new contents\n", tokio_output_fp(o));
    /* nothing visible before the commit */
    assert_holds(path, "old");
    assert_int_equal(tokio_test_count_entries(dir), 2);
    assert_int_equal(tokio_output_commit(o), TOKIO_OK);
    assert_holds(path, "new contents\n");
    assert_int_equal(tokio_test_count_entries(dir), 1);   /* no temporary left */
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640); /* mode kept */
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_output_abort_leaves_old_file(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    struct tokio_output *o;

    (void)state;
    snprintf(path, sizeof(path), "%s/result.csv", dir);
    tokio_test_write_file(path, "keep me", SIZE_MAX);
    assert_int_equal(tokio_output_open(&o, path), TOKIO_OK);
    fputs("half a resu", tokio_output_fp(o));
    tokio_output_abort(o);
    assert_holds(path, "keep me");
    assert_int_equal(tokio_test_count_entries(dir), 1);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_output_write_error_keeps_old_file(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    struct tokio_output *o;

    (void)state;
    snprintf(path, sizeof(path), "%s/out.txt", dir);
    tokio_test_write_file(path, "before", SIZE_MAX);
    assert_int_equal(tokio_output_open(&o, path), TOKIO_OK);
    FILE *fp = tokio_output_fp(o);
    /* make the pending write fail as a full disk would */
    setvbuf(fp, NULL, _IOFBF, 1 << 16);
    fputs("after", fp);
    int fd = fileno(fp);
    int saved = dup(fd);
    close(fd);
    assert_int_equal(tokio_output_commit(o), TOKIO_EIO);
    assert_contains(tokio_errmsg(), path);
    close(saved);
    assert_holds(path, "before");
    assert_int_equal(tokio_test_count_entries(dir), 1);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_output_missing_folder_names_path(void **state)
{
    struct tokio_output *o = (void *)1;

    (void)state;
    assert_int_equal(tokio_output_open(&o, "/nonexistent-dir/x/out.json"),
                     TOKIO_EIO);
    assert_null(o);
    assert_contains(tokio_errmsg(), "'/nonexistent-dir/x/out.json'");
    assert_contains(tokio_errmsg(), "No such file or directory");
}

/* A FIFO (as /dev/null or /dev/stdout) is written in place, not replaced
 * by a renamed file: it stays a FIFO and its reader gets the output. */
static void
test_output_writes_a_fifo_in_place(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char *path = tokio_test_join(dir, "pipe");
    struct tokio_output *o;
    struct stat st;
    char buf[64];
    int reader;

    (void)state;
    assert_int_equal(mkfifo(path, 0600), 0);
    reader = open(path, O_RDONLY | O_NONBLOCK);     /* so the writer opens */
    assert_true(reader >= 0);
    assert_int_equal(tokio_output_open(&o, path), TOKIO_OK);
    fputs("through the pipe\n", tokio_output_fp(o));
    assert_int_equal(tokio_output_commit(o), TOKIO_OK);
    assert_int_equal(read(reader, buf, sizeof(buf)), 17);
    assert_memory_equal(buf, "through the pipe\n", 17);
    close(reader);
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(tokio_test_count_entries(dir), 1);       /* no temporary left */
    tokio_test_rmtree(dir);
    free(path);
    free(dir);
}

/* Through a symbolic link the file it names is replaced; the link stays. */
static void
test_output_replaces_the_file_a_link_names(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char *file = tokio_test_join(dir, "result.json");
    char *link = tokio_test_join(dir, "latest.json");
    struct tokio_output *o;
    struct stat st;

    (void)state;
    tokio_test_write_file(file, "old", SIZE_MAX);
    assert_int_equal(symlink("result.json", link), 0);
    assert_int_equal(tokio_output_open(&o, link), TOKIO_OK);
    fputs("new\n", tokio_output_fp(o));
    assert_int_equal(tokio_output_commit(o), TOKIO_OK);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_holds(file, "new\n");
    assert_int_equal(tokio_test_count_entries(dir), 2);
    tokio_test_rmtree(dir);
    free(link);
    free(file);
    free(dir);
}

/* A folder is refused at once, naming it, and left alone. */
static void
test_output_refuses_a_folder(void **state)
{
    char *dir = tokio_test_mkdtemp();
    struct tokio_output *o = NULL;

    (void)state;
    assert_int_equal(tokio_output_open(&o, dir), TOKIO_EIO);
    assert_null(o);
    assert_contains(tokio_errmsg(), dir);
    assert_contains(tokio_errmsg(), "it is a folder");
    assert_int_equal(tokio_test_count_entries(dir), 0);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_output_open_survives_every_oom(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096];

    (void)state;
    snprintf(path, sizeof(path), "%s/o.txt", dir);
    for (size_t n = 1;; n += tokio_test_oom_step()) {
        struct tokio_output *o = NULL;
        tokio_test_fail_alloc_at(n);
        int rc = tokio_output_open(&o, path);
        tokio_test_fail_alloc_at(0);
        if (rc == TOKIO_OK) {
            fputs("x", tokio_output_fp(o));
            assert_int_equal(tokio_output_commit(o), TOKIO_OK);
            break;
        }
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_null(o);
        assert_int_equal(tokio_test_count_entries(dir), 0);
    }
    assert_int_equal(tokio_test_count_entries(dir), 1);
    tokio_test_rmtree(dir);
    free(dir);
}

static char *
csv_row(const char *const *fields, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    assert_int_equal(tokio_csv_write_row(fp, fields, n), TOKIO_OK);
    fclose(fp);
    return buf;
}

/* Regression (issue 17, 9): SIGTERM during an -o write left the
 * temporary; with the cleanup asked for, nothing is left. */
static void
test_output_signal_removes_the_temporary(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "x.json");
    int ready[2];
    pid_t pid;
    char c;

    assert_int_equal(pipe(ready), 0);
    if ((pid = fork()) == 0) {
        struct tokio_output *o = NULL;
        tokio_output_cleanup_on_signals();
        if (tokio_output_open(&o, path) != TOKIO_OK)
            _exit(1);
        fputs("{\"half\": ", tokio_output_fp(o));
        fflush(tokio_output_fp(o));
        write(ready[1], "r", 1);
        pause();
        _exit(2);
    }
    close(ready[1]);
    assert_int_equal(read(ready[0], &c, 1), 1);
    assert_int_equal(tokio_test_count_entries(dir), 1);   /* the temporary */
    kill(pid, SIGTERM);
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    assert_int_equal(tokio_test_count_entries(dir), 0);
    close(ready[0]);
    tokio_test_rmtree(dir);
    free(path);
    free(dir);
}

/* Regression (issue 17, 9): a temporary a killed writer left is removed
 * by the next writer of the same file; a live writer's is kept. */
static void
test_output_removes_dead_writers_temporaries(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "x.json");
    char host[80], dead[4096], alive[4096];
    struct tokio_output *o = NULL;
    pid_t pid = fork();

    if (pid == 0)
        _exit(0);
    waitpid(pid, NULL, 0);          /* a process id no one has now */
    gethostname(host, 64);
    host[64] = '\0';
    for (char *p = host; *p; p++)
        if (*p == '-' || *p == '/')
            *p = '_';
    snprintf(dead, sizeof(dead), "%s/.x.json.tokio-tmp-%s-%ld-AbCdEf", dir,
             host, (long)pid);
    snprintf(alive, sizeof(alive), "%s/.x.json.tokio-tmp-%s-%ld-AbCdEf", dir,
             host, (long)getppid());
    tokio_test_write_file(dead, "stale", SIZE_MAX);
    tokio_test_write_file(alive, "busy", SIZE_MAX);
    assert_int_equal(tokio_output_open(&o, path), TOKIO_OK);
    fputs("{}", tokio_output_fp(o));
    assert_int_equal(tokio_output_commit(o), TOKIO_OK);
    assert_null(tokio_test_read_file(dead, NULL));
    char *kept = tokio_test_read_file(alive, NULL);
    assert_non_null(kept);
    free(kept);
    tokio_test_rmtree(dir);
    free(path);
    free(dir);
}

/* Regression (issue 17, 10): -o through a link to a file not yet made
 * writes that file and keeps the link. */
static void
test_output_writes_through_a_dangling_link(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), *link = tokio_test_join(dir, "link");
    char *target = tokio_test_join(dir, "target.json");
    struct tokio_output *o = NULL;
    struct stat st;

    assert_int_equal(symlink("target.json", link), 0);
    assert_int_equal(tokio_output_open(&o, link), TOKIO_OK);
    fputs("{}", tokio_output_fp(o));
    assert_int_equal(tokio_output_commit(o), TOKIO_OK);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_holds(target, "{}");
    tokio_test_rmtree(dir);
    free(target);
    free(link);
    free(dir);
}

/* Regression (issue 17, 10): a read-only result file is refused to a
 * user who may not write it (a child as "nobody" when run as root), as
 * the shell's redirection refuses it. */
static void
test_output_refuses_a_read_only_file(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "ro.json");
    int status;
    pid_t pid;

    tokio_test_write_file(path, "old", SIZE_MAX);
    assert_int_equal(chmod(path, 0444), 0);
    assert_int_equal(chmod(dir, 0777), 0);
    if ((pid = fork()) == 0) {
        struct tokio_output *o = NULL;
        if (geteuid() == 0 && setuid(65534) != 0)
            _exit(3);
        int rc = tokio_output_open(&o, path);
        _exit(rc == TOKIO_EIO && strstr(tokio_errmsg(), "ro.json") &&
              strstr(tokio_errmsg(), "Permission denied") ? 0 : 1);
    }
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_holds(path, "old");
    tokio_test_rmtree(dir);
    free(path);
    free(dir);
}

/* Two updates of one file take turns: the second waits for the lock. */
static void
test_output_lock_serializes_updates(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), *path = tokio_test_join(dir, "db");
    int lock = -1, status;
    pid_t pid;

    tokio_test_write_file(path, "0", SIZE_MAX);
    assert_int_equal(tokio_output_lock(path, &lock), TOKIO_OK);
    assert_true(lock >= 0);
    if ((pid = fork()) == 0) {
        int mine = -1;
        close(lock);    /* the parent's, inherited: another process's */
        /* waits until the parent is done, then sees its update */
        if (tokio_output_lock(path, &mine) != TOKIO_OK) {
            fprintf(stderr, "%s\n", tokio_errmsg());
            _exit(1);
        }
        char *text = tokio_test_read_file(path, NULL);
        _exit(text != NULL && strcmp(text, "1") == 0 ? 0 : 2);
    }
    usleep(200000);
    tokio_test_write_file(path, "1", SIZE_MAX);
    tokio_output_unlock(lock);
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    tokio_test_rmtree(dir);
    free(path);
    free(dir);
}

static void
test_csv_quotes_like_pandas(void **state)
{
    const char *plain[] = { "a", "1.5", "", "x y" };
    const char *special[] = { "a,b", "say \"hi\"", "two\nlines", "cr\r" };
    const char *empty[] = { "" };
    const char *null_field[] = { "a", NULL };
    char *row;

    (void)state;
    row = csv_row(plain, 4);
    assert_string_equal(row, "a,1.5,,x y\n");
    free(row);
    row = csv_row(special, 4);
    assert_string_equal(row,
                        "\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\"\n");
    free(row);
    row = csv_row(empty, 1);
    assert_string_equal(row, "\"\"\n");
    free(row);
    row = csv_row(null_field, 2);
    assert_string_equal(row, "a,\n");
    free(row);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_output_commit_replaces_file_whole),
        cmocka_unit_test(test_output_abort_leaves_old_file),
        cmocka_unit_test(test_output_write_error_keeps_old_file),
        cmocka_unit_test(test_output_missing_folder_names_path),
        cmocka_unit_test(test_output_writes_a_fifo_in_place),
        cmocka_unit_test(test_output_replaces_the_file_a_link_names),
        cmocka_unit_test(test_output_refuses_a_folder),
        cmocka_unit_test(test_output_open_survives_every_oom),
        cmocka_unit_test(test_output_signal_removes_the_temporary),
        cmocka_unit_test(test_output_removes_dead_writers_temporaries),
        cmocka_unit_test(test_output_writes_through_a_dangling_link),
        cmocka_unit_test(test_output_refuses_a_read_only_file),
        cmocka_unit_test(test_output_lock_serializes_updates),
        cmocka_unit_test(test_csv_quotes_like_pandas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
