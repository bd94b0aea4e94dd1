/*
 * tests/testutil.c - shared helpers for the cmocka test programs.
 */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hdf5.h>
#include <jansson.h>
#include <sqlite3.h>
#define ZLIB_CONST
#include <zlib.h>

#include "core/alloc.h"
#include "core/run.h"
#include "tokio/common.h"
#include "tokio/connectors/darshan_json.h"
#include "tokio/connectors/darshan_writer.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/input.h"
#include "tokio/output.h"
#include "tokio/time.h"

const char *
tokio_test_data(const char *rel)
{
    static char buf[8][4096];
    static int slot;
    const char *root = getenv("TOKIO_TESTDATA");
    struct stat st;
    char *path = buf[slot++ % 8];

    if (root == NULL || *root == '\0')
        return NULL;
    snprintf(path, 4096, "%s/%s", root, rel);
    if (lstat(path, &st) != 0)
        return NULL;
    return path;
}

const char *
tokio_test_source(const char *rel)
{
    static char buf[8][4096];
    static int slot;
    const char *root = getenv("TOKIO_SOURCE_DIR");
    char *path = buf[slot++ % 8];

    snprintf(path, 4096, "%s/%s", root ? root : ".", rel);
    return path;
}

/* Is `path` (a small regular file) a stored symlink: does its content
 * name an existing path relative to its folder?  Fills `target`. */
static int
stored_link_target(const char *path, const struct stat *st, char *target,
                   size_t size)
{
    char resolved[8192];
    const char *slash = strrchr(path, '/');
    FILE *fp;
    size_t n;

    if (!S_ISREG(st->st_mode) || st->st_size == 0 ||
        (size_t)st->st_size >= size || (fp = fopen(path, "rb")) == NULL)
        return 0;
    n = fread(target, 1, size - 1, fp);
    fclose(fp);
    target[n] = '\0';
    if (n == 0 || memchr(target, '\n', n) || memchr(target, '\0', n))
        return 0;
    snprintf(resolved, sizeof(resolved), "%.*s/%s",
             (int)(slash ? slash - path : 1), slash ? path : ".", target);
    return access(resolved, F_OK) == 0;
}

static void
copy_tree(const char *src, const char *dst)
{
    DIR *d = opendir(src);
    struct dirent *e;

    assert_non_null(d);
    assert_int_equal(mkdir(dst, 0755), 0);
    while ((e = readdir(d)) != NULL) {
        char from[4096], to[4096], target[256];
        struct stat st;

        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(from, sizeof(from), "%s/%s", src, e->d_name);
        snprintf(to, sizeof(to), "%s/%s", dst, e->d_name);
        assert_int_equal(lstat(from, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            copy_tree(from, to);
        } else if (S_ISLNK(st.st_mode)) {
            ssize_t n = readlink(from, target, sizeof(target) - 1);
            assert_true(n > 0);
            target[n] = '\0';
            assert_int_equal(symlink(target, to), 0);
        } else if (stored_link_target(from, &st, target, sizeof(target))) {
            assert_int_equal(symlink(target, to), 0);
        } else {
            assert_int_equal(symlink(from, to), 0);
        }
    }
    closedir(d);
}

char *
tokio_test_copy_data(const char *rel, char **top_out)
{
    const char *src = tokio_test_data(rel);
    char *top, *copy;
    const char *base;

    *top_out = NULL;
    if (src == NULL)
        return NULL;
    top = tokio_test_mkdtemp();
    copy = malloc(4096);
    assert_non_null(copy);
    base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
    snprintf(copy, 4096, "%s/%s", top, base);
    copy_tree(src, copy);
    *top_out = top;
    return copy;
}

char *
tokio_test_mkdtemp(void)
{
    const char *tmp = getenv("TMPDIR");
    char *path = malloc(4096);

    assert_non_null(path);
    snprintf(path, 4096, "%s/tokio-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(path));
    return path;
}

static int
remove_entry(const char *path, const struct stat *st, int flag,
             struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    return remove(path);
}

void
tokio_test_rmtree(const char *path)
{
    if (path != NULL)
        nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void
tokio_test_write_file(const char *path, const void *data, size_t len)
{
    FILE *fp = fopen(path, "wb");

    assert_non_null(fp);
    if (len == SIZE_MAX)
        len = strlen(data);
    assert_int_equal(fwrite(data, 1, len, fp), len);
    assert_int_equal(fclose(fp), 0);
}

char *
tokio_test_read_file(const char *path, size_t *len_out)
{
    FILE *fp = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0, n;

    if (fp == NULL)
        return NULL;
    do {
        if (cap - len < 65536) {
            cap = cap ? cap * 2 : 65536;
            buf = realloc(buf, cap + 1);
            assert_non_null(buf);
        }
        n = fread(buf + len, 1, cap - len, fp);
        len += n;
    } while (n > 0);
    fclose(fp);
    buf[len] = '\0';
    if (len_out)
        *len_out = len;
    return buf;
}

/* Append what is readable on fd to a growing buffer; 0 at end of file. */
static ssize_t
drain(int fd, char **buf, size_t *len, size_t *cap)
{
    if (*cap - *len < 4096) {
        *cap = *cap ? *cap * 2 : 65536;
        *buf = realloc(*buf, *cap + 1);
        assert_non_null(*buf);
    }
    ssize_t n = read(fd, *buf + *len, *cap - *len);
    if (n > 0)
        *len += (size_t)n;
    (*buf)[*len] = '\0';
    return n;
}

/* The limits tokio_test_run_bounded() puts on the child it is running
 * (NULL for every other run), and the child's peak memory it reports. */
static const struct tokio_test_limits *child_limits;
static long child_max_rss_kib;

/* In the child, before exec: the limits of `lim`.  The alarm survives
 * exec and kills a child that hangs; RLIMIT_CPU one that spins. */
static void
apply_limits(const struct tokio_test_limits *lim)
{
    if (lim->max_address_space > 0 && !tokio_test_sanitized()) {
        struct rlimit as = { (rlim_t)lim->max_address_space,
                             (rlim_t)lim->max_address_space };
        if (setrlimit(RLIMIT_AS, &as) != 0)
            _exit(125);
    }
    if (lim->max_seconds > 0) {
        struct rlimit cpu = { (rlim_t)lim->max_seconds,
                              (rlim_t)lim->max_seconds };
        if (setrlimit(RLIMIT_CPU, &cpu) != 0)
            _exit(125);
        alarm((unsigned)lim->max_seconds * 2);
    }
}

/* In a child about to run tokio: add `env` ("K=V"; "K=" unsets K). */
static void
set_child_env(const char *const *env)
{
    for (size_t i = 0; env != NULL && env[i] != NULL; i++) {
        const char *eq = strchr(env[i], '=');
        char name[256];
        size_t n = eq ? (size_t)(eq - env[i]) : strlen(env[i]);

        snprintf(name, sizeof(name), "%.*s", (int)n, env[i]);
        if (eq == NULL || eq[1] == '\0')
            unsetenv(name);
        else
            setenv(name, eq + 1, 1);
    }
}

/* tokio_test_run_as_nobody(): the next child drops to uid/gid 65534. */
static int child_as_nobody;

/* tokio_test_run() with a file size limit (0: none), and standard output
 * to `stdout_path` instead of r.out (NULL: to r.out). */
static struct tokio_run
run_tokio(const char *cwd, const char *const *env, const char *const *argv,
          long max_file_bytes, const char *stdout_path)
{
    struct tokio_run r = { -1, NULL, NULL };
    const char *bin = getenv("TOKIO_BIN");
    int out_pipe[2], err_pipe[2];
    size_t argc = 0;

    assert_non_null(bin);
    while (argv[argc] != NULL)
        argc++;
    assert_int_equal(pipe(out_pipe), 0);
    assert_int_equal(pipe(err_pipe), 0);

    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const char **args = calloc(argc + 2, sizeof(*args));
        int devnull = open("/dev/null", O_RDONLY);

        dup2(devnull, 0);
        if (stdout_path == NULL) {
            dup2(out_pipe[1], 1);
        } else {
            int fd = open(stdout_path, O_WRONLY);
            if (fd < 0 || dup2(fd, 1) < 0)
                _exit(124);
        }
        dup2(err_pipe[1], 2);
        close(out_pipe[0]); close(err_pipe[0]);
        set_child_env(env);
        if (cwd != NULL && chdir(cwd) != 0)
            _exit(126);
        if (max_file_bytes > 0) {
            /* writing past the limit then fails with EFBIG (the signal
             * that would kill the process stays ignored across exec) */
            struct rlimit limit = { (rlim_t)max_file_bytes,
                                    (rlim_t)max_file_bytes };
            signal(SIGXFSZ, SIG_IGN);
            if (setrlimit(RLIMIT_FSIZE, &limit) != 0)
                _exit(125);
        }
        if (child_limits != NULL)
            apply_limits(child_limits);
        if (child_as_nobody && (setgroups(0, NULL) != 0 ||
                                setgid(65534) != 0 || setuid(65534) != 0))
            _exit(125);
        args[0] = "tokio";
        memcpy(args + 1, argv, argc * sizeof(*args));
        execv(bin, (char *const *)args);
        _exit(127);
    }
    close(out_pipe[1]);
    close(err_pipe[1]);

    size_t olen = 0, ocap = 0, elen = 0, ecap = 0;
    struct pollfd fds[2] = { { out_pipe[0], POLLIN, 0 },
                             { err_pipe[0], POLLIN, 0 } };
    int open_fds = 2;
    drain(-1, &r.out, &olen, &ocap);   /* allocate both buffers */
    drain(-1, &r.err, &elen, &ecap);
    while (open_fds > 0) {
        if (poll(fds, 2, -1) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || fds[i].revents == 0)
                continue;
            ssize_t n = i == 0 ? drain(fds[i].fd, &r.out, &olen, &ocap)
                               : drain(fds[i].fd, &r.err, &elen, &ecap);
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    int wstatus;
    struct rusage usage;
    memset(&usage, 0, sizeof(usage));
    while (wait4(pid, &wstatus, 0, &usage) < 0 && errno == EINTR)
        ;
    child_max_rss_kib = usage.ru_maxrss;
    r.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus)
                                  : 128 + WTERMSIG(wstatus);
    return r;
}

struct tokio_run
tokio_test_run(const char *cwd, const char *const *env,
               const char *const *argv)
{
    return run_tokio(cwd, env, argv, 0, NULL);
}

struct tokio_run
tokio_test_run_limited(const char *cwd, const char *const *env,
                       const char *const *argv, long max_file_bytes)
{
    return run_tokio(cwd, env, argv, max_file_bytes, NULL);
}

struct tokio_run
tokio_test_run_stdout_to(const char *cwd, const char *path,
                         const char *const *argv)
{
    return run_tokio(cwd, NULL, argv, 0, path);
}

struct tokio_run
tokio_test_run_bounded(const char *cwd, const char *const *env,
                       const char *const *argv,
                       const struct tokio_test_limits *lim,
                       long *max_rss_kib)
{
    struct tokio_run r;

    child_limits = lim;
    r = run_tokio(cwd, env, argv, 0, NULL);
    child_limits = NULL;
    if (max_rss_kib != NULL)
        *max_rss_kib = child_max_rss_kib;
    return r;
}

int
tokio_test_sanitized(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return 1;
#else
    return 0;
#endif
#else
    return 0;
#endif
}

const char *
tokio_test_lsan_hdf5(void)
{
    static char entry[4200];
    const char *inherited = getenv("LSAN_OPTIONS");

    if (entry[0] == '\0')
        snprintf(entry, sizeof(entry), "LSAN_OPTIONS=%s%s"
                 "fast_unwind_on_malloc=0:print_suppressions=0",
                 inherited ? inherited : "", inherited ? ":" : "");
    return entry;
}

/* One gzip member of the `len` bytes at `data`, appended to `fp`. */
static void
gzip_member(FILE *fp, const void *data, size_t len)
{
    z_stream z;
    unsigned char out[1 << 16];
    int ret;

    memset(&z, 0, sizeof(z));
    assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9,
                                  Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (const Bytef *)data;
    z.avail_in = (uInt)len;
    do {
        z.next_out = out;
        z.avail_out = sizeof(out);
        ret = deflate(&z, Z_FINISH);
        assert_true(ret == Z_OK || ret == Z_STREAM_END);
        assert_int_equal(fwrite(out, 1, sizeof(out) - z.avail_out, fp),
                         sizeof(out) - z.avail_out);
    } while (ret != Z_STREAM_END);
    deflateEnd(&z);
}

void
tokio_test_write_gzip_repeat(const char *path, const char *head,
                             const char *unit, size_t count)
{
    const size_t block_bytes = (size_t)1 << 20;
    size_t unit_len = strlen(unit), per_block, left = count;
    FILE *fp = fopen(path, "w+b");
    char *block;

    assert_non_null(fp);
    assert_true(unit_len > 0 && unit_len <= block_bytes);
    if (head != NULL && *head != '\0')
        gzip_member(fp, head, strlen(head));
    per_block = block_bytes / unit_len;
    block = malloc(per_block * unit_len);
    assert_non_null(block);
    for (size_t i = 0; i < per_block; i++)
        memcpy(block + i * unit_len, unit, unit_len);
    /* one member deflated once, written as often as it fits: a gigabyte
     * inflated costs a megabyte and a moment to make */
    if (left >= per_block) {
        long start = ftell(fp), end;
        char *member;

        gzip_member(fp, block, per_block * unit_len);
        end = ftell(fp);
        assert_true(start >= 0 && end > start);
        member = malloc((size_t)(end - start));
        assert_non_null(member);
        assert_int_equal(fseek(fp, start, SEEK_SET), 0);
        assert_int_equal(fread(member, 1, (size_t)(end - start), fp),
                         (size_t)(end - start));
        assert_int_equal(fseek(fp, end, SEEK_SET), 0);
        left -= per_block;
        for (; left >= per_block; left -= per_block)
            assert_int_equal(fwrite(member, 1, (size_t)(end - start), fp),
                             (size_t)(end - start));
        free(member);
    }
    if (left > 0)
        gzip_member(fp, block, left * unit_len);
    free(block);
    assert_int_equal(fclose(fp), 0);
}

void
tokio_test_write_sparse(const char *path, long long size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)size), 0);
    assert_int_equal(close(fd), 0);
}

char **
tokio_test_command_names(void)
{
    const char *argv[] = { "help", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);
    char **names = calloc(64, sizeof(*names));
    size_t n = 0;
    const char *line;

    assert_int_equal(r.status, 0);
    assert_non_null(names);
    line = strstr(r.out, "\ncommands:\n");
    assert_non_null(line);
    /* "  name   what it does" lines, up to the first unindented one */
    for (line = strchr(line + 1, '\n'); line != NULL && line[1] == ' ';
         line = strchr(line + 1, '\n')) {
        char name[64];
        if (sscanf(line, "\n  %63s", name) == 1) {
            assert_true(n < 63);
            names[n] = strdup(name);
            assert_non_null(names[n++]);
        }
    }
    tokio_run_free(&r);
    assert_true(n >= 30);
    return names;
}

void
tokio_run_free(struct tokio_run *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

void
tokio_test_assert_contains(const char *haystack, const char *needle,
                           const char *file, int line)
{
    if (haystack != NULL && strstr(haystack, needle) != NULL)
        return;
    print_error("%s:%d: expected to find \"%s\" in \"%s\"\n", file, line,
                needle, haystack ? haystack : "(null)");
    _fail(file, line);
}

void
tokio_test_check_fails(const char *const *env, const char *const *argv,
                       int status, const char *msg, const char *file,
                       int line)
{
    struct tokio_run r = tokio_test_run(NULL, env, argv);

    if (r.status != status) {
        print_error("%s:%d: tokio %s ...: exit %d, not %d; stderr: %s\n",
                    file, line, argv[0], r.status, status, r.err);
        _fail(file, line);
    }
    tokio_test_assert_contains(r.err, msg, file, line);
    if (r.out == NULL || r.out[0] != '\0') {
        print_error("%s:%d: tokio %s ...: wrote to stdout: %s\n", file,
                    line, argv[0], r.out ? r.out : "(null)");
        _fail(file, line);
    }
    tokio_run_free(&r);
}

char *
tokio_test_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);

    assert_non_null(p);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

void
tokio_test_tts_write(const char *path, struct tokio_timeseries *ts)
{
    struct tokio_hdf5_update *u = NULL;

    assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_set_version(u, "1"), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_commit(u, ts), TOKIO_OK);
    assert_int_equal(tokio_hdf5_update_finish(u), TOKIO_OK);
}

struct tokio_timeseries *
tokio_test_tts_read(const char *path, const char *name)
{
    struct tokio_hdf5 *h = NULL;
    struct tokio_timeseries *ts = NULL;

    if (tokio_hdf5_open(&h, path, 0) != TOKIO_OK ||
        tokio_hdf5_to_timeseries(h, name, &ts) != TOKIO_OK)
        fail_msg("%s: %s: %s", path, name, tokio_errmsg());
    tokio_hdf5_free(h);
    return ts;
}

size_t
tokio_test_each_pack_darshan_log(int (*check)(const char *path, void *ctx),
                                 void *ctx)
{
    static const char *const folders[] = {
        "darshan-logs", "darshan-logs-derived", "pytokio-inputs",
    };
    size_t checked = 0;

    TOKIO_TEST_NEED_DATA(top, "darshan-logs");
    (void)top;
    for (size_t f = 0; f < sizeof(folders) / sizeof(folders[0]); f++) {
        const char *p = tokio_test_data(folders[f]);
        if (p == NULL)
            continue;
        char *dir = strdup(p);
        DIR *dh = opendir(dir);
        struct dirent *de;
        assert_non_null(dh);
        while ((de = readdir(dh)) != NULL) {
            size_t n = strlen(de->d_name);
            char path[4096];
            if (n < 8 || strcmp(de->d_name + n - 8, ".darshan") != 0)
                continue;
            snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
            checked += (size_t)check(path, ctx);
        }
        closedir(dh);
        free(dir);
    }
    return checked;
}

size_t
tokio_test_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

char *
tokio_test_written(int (*write)(const void *obj, FILE *fp, unsigned flags),
                   const void *obj, unsigned flags)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    assert_int_equal(write(obj, fp, flags), TOKIO_OK);
    assert_int_equal(fclose(fp), 0);
    return buf;
}

void
tokio_test_assert_writes_tree(int (*write)(const void *obj, FILE *fp,
                                           unsigned flags),
                              const void *obj, const void *tree,
                              const unsigned *flags, size_t n)
{
    for (size_t f = 0; f < n; f++) {
        char *want = NULL, *got = tokio_test_written(write, obj, flags[f]);
        assert_int_equal(tokio_json_dumps(&want, tree, flags[f]), TOKIO_OK);
        assert_string_equal(got, want);
        free(got);
        free(want);
    }
}

char *
tokio_test_darshan_json_text(const struct tokio_darshan *log,
                             const struct tokio_darshan_json_opts *o,
                             unsigned flags, int *rc_out)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    *rc_out = tokio_darshan_write_json(log, fp, o, flags);
    assert_int_equal(fclose(fp), 0);
    if (*rc_out < 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

void
tokio_test_tmpfile_put(struct tokio_test_tmpfile *t, const char *name,
                       const void *data, size_t len)
{
    if (t->dir == NULL) {
        t->dir = tokio_test_mkdtemp();
        snprintf(t->path, sizeof(t->path), "%s/%s", t->dir, name);
    }
    tokio_test_write_file(t->path, data, len);
}

void
tokio_test_tmpfile_free(struct tokio_test_tmpfile *t)
{
    if (t->dir != NULL)
        tokio_test_rmtree(t->dir);
    free(t->dir);
    t->dir = NULL;
}

int
tokio_test_mkdtemp_setup(void **state)
{
    *state = tokio_test_mkdtemp();
    return 0;
}

int
tokio_test_remove_dir(void **state)
{
    tokio_test_rmtree(*state);
    free(*state);
    *state = NULL;
    return 0;
}

int
tokio_test_workdir(struct tokio_workdir *wd)
{
    const char *golden = tokio_test_data("golden/pytokio");
    char link[4200];

    memset(wd, 0, sizeof(*wd));
    wd->inputs = tokio_test_copy_data("pytokio-inputs", &wd->top);
    if (wd->inputs == NULL || golden == NULL)
        return -1;
    wd->dir = tokio_test_mkdtemp();
    snprintf(link, sizeof(link), "%s/golden", wd->dir);
    assert_int_equal(symlink(golden, link), 0);
    snprintf(link, sizeof(link), "%s/inputs", wd->dir);
    assert_int_equal(symlink(wd->inputs, link), 0);
    return 0;
}

void
tokio_test_workdir_free(struct tokio_workdir *wd)
{
    if (wd->dir != NULL)
        tokio_test_rmtree(wd->dir);
    if (wd->top != NULL)
        tokio_test_rmtree(wd->top);
    free(wd->dir);
    free(wd->inputs);
    free(wd->top);
    memset(wd, 0, sizeof(*wd));
}

void
tokio_test_golden_cases(const char *dir, const char *golden_dir,
                        const struct tokio_golden_case *cases, size_t count,
                        int exact)
{
    static const char *const env[] = { "TZ=America/Los_Angeles", NULL };

    for (size_t i = 0; i < count; i++) {
        const struct tokio_golden_case *gc = &cases[i];
        struct tokio_run r = tokio_test_run(dir, env, gc->argv);
        char rel[512];

        if (r.status != 0)
            fail_msg("%s: exit %d\nstderr: %s", gc->golden, r.status, r.err);
        if (gc->warning != NULL)
            assert_contains(r.err, gc->warning);
        else if (r.err[0] != '\0')
            fail_msg("%s: unexpected stderr: %s", gc->golden, r.err);
        snprintf(rel, sizeof(rel), "%s%s%s", golden_dir,
                 golden_dir[strlen(golden_dir) - 1] == '/' ? "" : "/",
                 gc->golden);
        assert_golden(r.out, rel);
        if (exact) {
            char *want = tokio_test_read_file(tokio_test_data(rel), NULL);

            assert_non_null(want);
            if (strcmp(r.out, want) != 0)
                fail_msg("%s: equal by value but not byte for byte", rel);
            free(want);
        }
        tokio_run_free(&r);
    }
}

int64_t
tokio_test_local(int year, int month, int day, int hour, int minute,
                 int second)
{
    int64_t t;

    assert_int_equal(tokio_time_from_local(year, month, day, hour, minute,
                                           second, &t), 0);
    return t;
}

/* Run `sql` in a new database `path` (an old file there is removed):
 * NULL, or SQLite's message (sqlite3_free() it). */
static char *
sqlite_create(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    char *msg = NULL;

    unlink(path);
    if (sqlite3_open(path, &db) != SQLITE_OK)
        msg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
    else if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK &&
             msg == NULL)
        msg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
    sqlite3_close(db);
    return msg;
}

void
tokio_test_make_db(const char *path, const char *sql)
{
    char *msg = sqlite_create(path, sql);

    if (msg != NULL)
        fail_msg("database %s: %s", path, msg);
}

char *
tokio_test_sqlite_fixture(const char *sql, const char *name, char *path,
                          size_t size)
{
    char *dir = tokio_test_mkdtemp();
    char *msg;

    snprintf(path, size, "%s/%s", dir, name);
    if ((msg = sqlite_create(path, sql)) != NULL) {
        print_error("fixture %s: %s\n", path, msg);
        sqlite3_free(msg);
        tokio_test_rmtree(dir);
        free(dir);
        return NULL;
    }
    return dir;
}

int
tokio_test_workdir_setup(void **state)
{
    struct tokio_workdir *wd = calloc(1, sizeof(*wd));

    assert_non_null(wd);
    if (tokio_test_workdir(wd) != 0) {
        tokio_test_workdir_free(wd);
        wd->dir = tokio_test_mkdtemp();
    }
    *state = wd;
    return 0;
}

int
tokio_test_workdir_teardown(void **state)
{
    tokio_test_workdir_free(*state);
    free(*state);
    *state = NULL;
    return 0;
}

/* The next CSV cell of `*p` (quotes removed, "" unescaped) into `cell`;
 * sets *eol at the end of a record.  Returns 0 at the end of the text. */
static int
csv_next_cell(const char **p, char *cell, size_t cap, int *eol)
{
    const char *s = *p;
    size_t n = 0;
    int quoted = 0;

    if (*s == '\0')
        return 0;
    for (;; s++) {
        if (*s == '\0' || (!quoted && (*s == ',' || *s == '\n' ||
                                      *s == '\r'))) {
            break;
        } else if (*s == '"') {
            if (quoted && s[1] == '"')
                s++;
            else {
                quoted = !quoted;
                continue;
            }
        }
        if (n + 1 < cap)
            cell[n++] = *s;
    }
    cell[n] = '\0';
    *eol = *s != ',';
    if (*s == '\r')
        s++;
    if (*s != '\0')
        s++;
    *p = s;
    return 1;
}

static int
cells_equal(const char *a, const char *b)
{
    char *end_a, *end_b;
    double x, y;

    if (strcmp(a, b) == 0)
        return 1;
    if (*a == '\0' || *b == '\0')
        return 0;
    x = strtod(a, &end_a);
    y = strtod(b, &end_b);
    return *end_a == '\0' && *end_b == '\0' && (x == y || (x != x && y != y));
}

size_t
tokio_test_csv_diff(const char *a, const char *b)
{
    static char cell_a[65536], cell_b[65536];
    size_t line = 1;

    for (;;) {
        int eol_a = 0, eol_b = 0;
        int more_a = csv_next_cell(&a, cell_a, sizeof(cell_a), &eol_a);
        int more_b = csv_next_cell(&b, cell_b, sizeof(cell_b), &eol_b);

        if (!more_a && !more_b)
            return 0;
        if (more_a != more_b || eol_a != eol_b ||
            !cells_equal(cell_a, cell_b))
            return line;
        if (eol_a)
            line++;
    }
}

/* Whether golden `rel` is of kind `ext` (".json"): its last extension,
 * after a compression suffix, so x.json.gz is JSON and x.json.gz.csv CSV. */
static int
golden_kind(const char *rel, const char *ext)
{
    size_t n = strlen(rel), e = strlen(ext);

    if (n > 3 && strcmp(rel + n - 3, ".gz") == 0)
        n -= 3;
    else if (n > 4 && strcmp(rel + n - 4, ".bz2") == 0)
        n -= 4;
    return n >= e && strncmp(rel + n - e, ext, e) == 0;
}

void
tokio_test_assert_golden(const char *out, const char *rel, const char *file,
                         int line)
{
    const char *path = tokio_test_data(rel);
    unsigned char *want = NULL;
    size_t len, bad_line;
    int same;

    if (path == NULL || tokio_read_file(path, 0, &want, &len) != 0) {
        print_error("%s:%d: cannot read golden %s\n", file, line, rel);
        _fail(file, line);
    }
    if (golden_kind(rel, ".json")) {
        json_error_t e;
        json_t *got = json_loads(out, 0, &e);
        json_t *exp = json_loads((const char *)want, 0, &e);

        same = got != NULL && exp != NULL && json_equal(got, exp);
        json_decref(got);
        json_decref(exp);
        if (!same)
            print_error("%s:%d: %s: JSON differs (or does not parse)\n"
                        "--- got\n%.4000s\n", file, line, rel, out);
    } else if (golden_kind(rel, ".csv")) {
        bad_line = tokio_test_csv_diff(out, (const char *)want);
        same = bad_line == 0;
        if (!same)
            print_error("%s:%d: %s: CSV differs at line %zu\n", file, line,
                        rel, bad_line);
    } else {
        same = strcmp(out, (const char *)want) == 0;
        if (!same)
            print_error("%s:%d: %s: output differs\n--- got\n%.4000s--- "
                        "want\n%.4000s", file, line, rel, out,
                        (const char *)want);
    }
    free(want);
    if (!same)
        _fail(file, line);
}

size_t
tokio_test_oom_step(void)
{
    /* under valgrind (TOKIO_TEST_OOM_STRIDE, tests/CMakeLists.txt) a
     * sample of the failure points: the sanitizer build tries them all */
    const char *stride = getenv("TOKIO_TEST_OOM_STRIDE");

    return stride != NULL && atoi(stride) > 1 ? (size_t)atoi(stride) : 1;
}

void
tokio_test_every_oom(int (*trial)(void *ctx), void *ctx, size_t step)
{
    step = (step ? step : 1) * tokio_test_oom_step();
    for (size_t n = 1; n < 100000000; n += step) {
        tokio_test_fail_alloc_at(n);
        int rc = trial(ctx);
        tokio_test_fail_alloc_at(0);
        if (rc >= 0)
            return;
        if (rc != TOKIO_ENOMEM)
            fail_msg("allocation %zu failed: status %d, not TOKIO_ENOMEM: %s",
                     n, rc, tokio_errmsg());
    }
    fail_msg("the trial never succeeded");
}

char *
tokio_test_sqlite_dump(const char *db)
{
    const char *argv[] = { "sqlite3", db, ".dump", NULL };
    char *text = NULL;
    size_t len = 0;
    int rc = tokio__run_capture(argv, "sqlite3", 0, &text, &len);

    if (rc == TOKIO_ENOTFOUND)
        return NULL;
    if (rc != TOKIO_OK)
        fail_msg("sqlite3 %s .dump: %s", db, tokio_errmsg());
    return text;
}

void
tokio_test_need_mpi(void)
{
    const char *bin = getenv("TOKIO_BIN");
    char cmd[4400];

    assert_non_null(bin);
    /* the MPI build's part names are in the binary */
    snprintf(cmd, sizeof(cmd), "command -v mpirun >/dev/null 2>&1 && "
             "grep -q 'rank%%d.part' '%s'", bin);
    if (system(cmd) != 0) {
        print_message("skipped: no mpirun, or tokio built without "
                      "TOKIO_MPI\n");
        skip();
    }
}

/* ---- writers under stress: at once, interrupted, on hostile files ---- */

/* Start $TOKIO_BIN `argv` in `cwd` with `env`, standard input /dev/null,
 * standard output and error to the files `out` and `err`. */
static pid_t
spawn_tokio(const char *cwd, const char *const *env, const char *const *argv,
            const char *out, const char *err)
{
    const char *bin = getenv("TOKIO_BIN");
    size_t argc = 0;
    pid_t pid;

    assert_non_null(bin);
    while (argv[argc] != NULL)
        argc++;
    if ((pid = fork()) == 0) {
        const char **args = calloc(argc + 2, sizeof(*args));
        int in = open("/dev/null", O_RDONLY);
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);

        if (args == NULL || in < 0 || o < 0 || e < 0 || dup2(in, 0) < 0 ||
            dup2(o, 1) < 0 || dup2(e, 2) < 0)
            _exit(124);
        set_child_env(env);
        if (cwd != NULL && chdir(cwd) != 0)
            _exit(126);
        args[0] = "tokio";
        memcpy(args + 1, argv, argc * sizeof(*args));
        execv(bin, (char *const *)args);
        _exit(127);
    }
    assert_true(pid > 0);
    return pid;
}

/* Wait for `pid` and collect its result from the files of spawn_tokio(),
 * which are removed. */
static struct tokio_run
reap_tokio(pid_t pid, const char *out, const char *err)
{
    struct tokio_run r = { -1, NULL, NULL };
    int wstatus;

    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
        ;
    r.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus)
                                  : 128 + WTERMSIG(wstatus);
    r.out = tokio_test_read_file(out, NULL);
    r.err = tokio_test_read_file(err, NULL);
    assert_non_null(r.out);
    assert_non_null(r.err);
    unlink(out);
    unlink(err);
    return r;
}

void
tokio_test_run_concurrently(const char *cwd, const char *const *env,
                            const char *const *const *argvs, size_t n,
                            struct tokio_run *out)
{
    char *dir = tokio_test_mkdtemp(), name[64];
    char **outs = calloc(n, sizeof(*outs)), **errs = calloc(n, sizeof(*errs));
    pid_t *pids = calloc(n, sizeof(*pids));

    assert_true(outs != NULL && errs != NULL && pids != NULL);
    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof(name), "out%zu", i);
        outs[i] = tokio_test_join(dir, name);
        snprintf(name, sizeof(name), "err%zu", i);
        errs[i] = tokio_test_join(dir, name);
        pids[i] = spawn_tokio(cwd, env, argvs[i], outs[i], errs[i]);
    }
    for (size_t i = 0; i < n; i++) {
        out[i] = reap_tokio(pids[i], outs[i], errs[i]);
        free(outs[i]);
        free(errs[i]);
    }
    free(outs);
    free(errs);
    free(pids);
    tokio_test_rmtree(dir);
    free(dir);
}

/* 1 if `dir` holds a writer's temporary. */
static int
has_temporary(const char *dir)
{
    return tokio_test_count_temporaries(dir) > 0;
}

struct tokio_run
tokio_test_run_signalled(const char *cwd, const char *const *env,
                         const char *const *argv, const char *dir, int sig,
                         int *caught_out)
{
    char *tmp = tokio_test_mkdtemp();
    char *out = tokio_test_join(tmp, "out"), *err = tokio_test_join(tmp, "err");
    pid_t pid = spawn_tokio(cwd, env, argv, out, err);
    struct tokio_run r;
    int wstatus;

    /* Look as often as the machine lets us: the window is the writing of
     * the temporary, tenths of a second for the inputs the tests give. */
    *caught_out = 0;
    for (long spins = 0; spins < 60L * 100000; spins++) {
        if (has_temporary(dir)) {
            *caught_out = kill(pid, sig) == 0;
            break;
        }
        if (waitpid(pid, &wstatus, WNOHANG) == pid) {
            /* ended before anything showed: report it as it ended */
            r.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus)
                                          : 128 + WTERMSIG(wstatus);
            r.out = tokio_test_read_file(out, NULL);
            r.err = tokio_test_read_file(err, NULL);
            tokio_test_rmtree(tmp);
            free(tmp);
            free(out);
            free(err);
            return r;
        }
        usleep(10);
    }
    r = reap_tokio(pid, out, err);
    tokio_test_rmtree(tmp);
    free(tmp);
    free(out);
    free(err);
    return r;
}

size_t
tokio_test_count_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0;

    assert_non_null(d);
    while ((e = readdir(d)) != NULL)
        n += strstr(e->d_name, ".tokio-tmp-") != NULL;
    closedir(d);
    return n;
}

void
tokio_test_tts_raw(const char *path, size_t rows, size_t cols,
                   const double *data)
{
    static const char *const sets[] = { "readbytes", "writebytes" };
    const int64_t t0 = INT64_C(1517126400), start = t0;
    const int64_t end = t0 + 5 * (int64_t)rows;
    hsize_t dims[2] = { rows, cols }, n_rows = rows, n_cols = cols;
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t scalar = H5Screate(H5S_SCALAR), str = H5Tcopy(H5T_C_S1);
    hid_t name_t = H5Tcopy(H5T_C_S1), g, s, d, a;
    double *zeros = calloc(rows * cols + 1, sizeof(double));
    int64_t *t = calloc(rows + 1, sizeof(int64_t));
    char *names = calloc(cols + 1, 16);

    assert_true(f >= 0 && zeros != NULL && t != NULL && names != NULL);
    H5Tset_size(str, 1);
    a = H5Acreate2(f, "version", str, scalar, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, str, "1");
    H5Aclose(a);
    a = H5Acreate2(f, "start", H5T_STD_I64LE, scalar, H5P_DEFAULT,
                   H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT64, &start);
    H5Aclose(a);
    a = H5Acreate2(f, "end", H5T_STD_I64LE, scalar, H5P_DEFAULT,
                   H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT64, &end);
    H5Aclose(a);
    g = H5Gcreate2(f, "datatargets", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    for (size_t r = 0; r < rows; r++)
        t[r] = t0 + 5 * (int64_t)r;
    s = H5Screate_simple(1, &n_rows, NULL);
    d = H5Dcreate2(g, "timestamps", H5T_STD_I64LE, s, H5P_DEFAULT,
                   H5P_DEFAULT, H5P_DEFAULT);
    if (rows > 0)
        H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, t);
    H5Dclose(d);
    H5Sclose(s);
    H5Tset_size(name_t, 16);
    for (size_t c = 0; c < cols; c++)
        snprintf(names + 16 * c, 16, "OST%u", (unsigned)(c % 100000));
    for (size_t k = 0; k < 2; k++) {
        s = H5Screate_simple(2, dims, NULL);
        d = H5Dcreate2(g, sets[k], H5T_IEEE_F64LE, s, H5P_DEFAULT,
                       H5P_DEFAULT, H5P_DEFAULT);
        if (rows * cols > 0)
            H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                     data != NULL ? data : zeros);
        H5Sclose(s);
        a = H5Acreate2(d, "version", str, scalar, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, str, "1");
        H5Aclose(a);
        if (cols > 0) {     /* no names: no attribute, as h5py leaves it */
            s = H5Screate_simple(1, &n_cols, NULL);
            a = H5Acreate2(d, "columns", name_t, s, H5P_DEFAULT,
                           H5P_DEFAULT);
            H5Awrite(a, name_t, names);
            H5Aclose(a);
            H5Sclose(s);
        }
        H5Dclose(d);
    }
    H5Gclose(g);
    H5Tclose(name_t);
    H5Tclose(str);
    H5Sclose(scalar);
    assert_true(H5Fclose(f) >= 0);
    free(zeros);
    free(t);
    free(names);
}

void
tokio_test_copy_set_byte(const char *from, const char *to, size_t offset,
                         unsigned char value)
{
    size_t len;
    char *data = tokio_test_read_file(from, &len);

    assert_non_null(data);
    assert_true(offset < len);
    data[offset] = (char)value;
    tokio_test_write_file(to, data, len);
    free(data);
}

/* `script` run by `unshare -rm sh -c` with `args` after it, standard
 * output and error to `out` and `err`; its exit status. */
static int
run_unshared(const char *script, const char *const *env,
             const char *const *args, const char *out, const char *err)
{
    size_t n = 0;
    pid_t pid;
    int wstatus;

    while (args[n] != NULL)
        n++;
    if ((pid = fork()) == 0) {
        const char **v = calloc(n + 7, sizeof(*v));
        int in = open("/dev/null", O_RDONLY);
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);

        if (v == NULL || in < 0 || o < 0 || e < 0 || dup2(in, 0) < 0 ||
            dup2(o, 1) < 0 || dup2(e, 2) < 0)
            _exit(124);
        set_child_env(env);
        v[0] = "unshare";
        v[1] = "-rm";
        v[2] = "sh";
        v[3] = "-c";
        v[4] = script;
        v[5] = "sh";
        memcpy(v + 6, args, n * sizeof(*v));
        execvp("unshare", (char *const *)v);
        _exit(127);
    }
    assert_true(pid > 0);
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus)
                              : 128 + WTERMSIG(wstatus);
}

int
tokio_test_run_in_tmpfs(const char *dir, size_t kib, const char *const *env,
                        const char *const *argv, struct tokio_run *out,
                        char **listing_out)
{
    /* $1 size, $2 folder, $3 listing, then the command; 125: no mount */
    static const char script[] =
        "mount -t tmpfs -o size=\"$1\"k tmpfs \"$2\" 2>/dev/null && "
        "cd \"$2\" || exit 125; l=$3; shift 3; \"$@\"; s=$?; "
        "ls -A > \"$l\"; exit $s";
    char *tmp = tokio_test_mkdtemp(), size[32];
    char *o = tokio_test_join(tmp, "out"), *e = tokio_test_join(tmp, "err");
    char *listing = tokio_test_join(tmp, "listing");
    const char *bin = getenv("TOKIO_BIN");
    const char *probe[] = { "16", dir, listing, "true", NULL };
    size_t argc = 0;
    int rc = -1;

    assert_non_null(bin);
    snprintf(size, sizeof(size), "%zu", kib);
    *listing_out = NULL;
    if (run_unshared(script, NULL, probe, o, e) == 0) {
        while (argv[argc] != NULL)
            argc++;
        const char **args = calloc(argc + 6, sizeof(*args));
        assert_non_null(args);
        args[0] = size;
        args[1] = dir;
        args[2] = listing;
        args[3] = bin;
        memcpy(args + 4, argv, argc * sizeof(*args));
        out->status = run_unshared(script, env, args, o, e);
        out->out = tokio_test_read_file(o, NULL);
        out->err = tokio_test_read_file(e, NULL);
        *listing_out = tokio_test_read_file(listing, NULL);
        assert_true(out->out != NULL && out->err != NULL &&
                    *listing_out != NULL);
        free(args);
        rc = 0;
    }
    tokio_test_rmtree(tmp);
    free(tmp);
    free(o);
    free(e);
    free(listing);
    return rc;
}

/* A run that failed as a full disk must fail it: exit 1, nothing on
 * standard output, one line naming `name` and `cause`; `left` (one name a
 * line) holds the update's lock alone. */
static void
check_full_disk(const struct tokio_run *r, const char *left,
                const char *name, const char *cause)
{
    char lock[4096];

    snprintf(lock, sizeof(lock), ".%s.lock\n", name);
    if (r->status != 1 || r->out[0] != '\0' ||
        strstr(r->err, name) == NULL || strstr(r->err, cause) == NULL ||
        strchr(r->err, '\n') != r->err + strlen(r->err) - 1 ||
        strcmp(left, lock) != 0)
        fail_msg("exit %d, %zu bytes out, message '%s', left '%s' (wanted "
                 "exit 1, nothing out, one line naming %s and '%s', and %s "
                 "left)", r->status, strlen(r->out), r->err, left, name,
                 cause, lock);
}

/* The names in `dir`, one a line (free()). */
static char *
list_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char *text = calloc(1, 1);
    size_t len = 0;

    assert_non_null(d);
    assert_non_null(text);
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        size_t n = strlen(e->d_name);
        text = realloc(text, len + n + 2);
        assert_non_null(text);
        memcpy(text + len, e->d_name, n);
        len += n;
        text[len++] = '\n';
        text[len] = '\0';
    }
    closedir(d);
    return text;
}

void
tokio_test_full_disk_fails(const char *dir, const char *const *env,
                           const char *const *argv, const char *name)
{
    char *limited = tokio_test_join(dir, "limited");
    char *mnt = tokio_test_join(dir, "tmpfs"), *left;
    struct tokio_run r;

    assert_int_equal(mkdir(limited, 0700), 0);
    r = tokio_test_run_limited(limited, env, argv, 65536);
    left = list_entries(limited);
    check_full_disk(&r, left, name, "File too large");
    tokio_run_free(&r);
    free(left);
    assert_int_equal(mkdir(mnt, 0700), 0);
    if (tokio_test_run_in_tmpfs(mnt, 64, env, argv, &r, &left) < 0) {
        print_message("no tmpfs of our own here: the file-size limit "
                      "alone was tried\n");
    } else {
        check_full_disk(&r, left, name, "No space left on device");
        tokio_run_free(&r);
        free(left);
    }
    free(limited);
    free(mnt);
}

struct tokio_run
tokio_test_run_as_nobody(const char *cwd, const char *const *env,
                         const char *const *argv)
{
    struct tokio_run r;

    child_as_nobody = 1;
    r = run_tokio(cwd, env, argv, 0, NULL);
    child_as_nobody = 0;
    return r;
}

void
tokio_test_make_darshan_log(const char *path, unsigned seed)
{
    static const struct tokio_darshan_mount mounts[] = {
        { "/scratch", "lustre" },
        { "/home", "nfs" },
    };
    struct tokio_darshan_job_info job = {
        .uid = 1000 + seed % 7, .jobid = seed, .nprocs = 2,
        .start_time = 1500000000 + (int64_t)seed,
        .end_time = 1500000100 + (int64_t)seed * 2,
        .exe = seed % 3 ? "/bin/sim -x" : "/usr/bin/vpic",
        .n_mounts = 2, .mounts = mounts,
    };
    const char *files[2] = { "/scratch/out.dat", "/home/in.dat" };
    int order[2] = { 0, 1 };
    int n_files = seed % 5 == 0 ? 1 : 2;
    struct tokio_darshan_writer *w = NULL;

    if (seed % 7 == 3) {
        order[0] = 1;
        order[1] = 0;
    }
    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    for (int k = 0; k < 2; k++)
        assert_int_equal(tokio_darshan_writer_add_name(
                             w, (uint64_t)k + 1, files[k]), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_add_name(w, 9, "<STDOUT>"),
                     TOKIO_OK);
    for (int mod = TOKIO_DARSHAN_POSIX; mod <= TOKIO_DARSHAN_STDIO;
         mod += TOKIO_DARSHAN_STDIO - TOKIO_DARSHAN_POSIX) {
        size_t n = tokio_darshan_counter_count(mod);
        size_t nf = tokio_darshan_fcounter_count(mod);
        int64_t *c = calloc(n, sizeof(*c));
        double *f = calloc(nf, sizeof(*f));
        assert_non_null(c);
        assert_non_null(f);
        for (int j = 0; j < (mod == TOKIO_DARSHAN_POSIX ? n_files : 1);
             j++) {
            int k = order[j];
            for (size_t i = 0; i < n; i++)
                c[i] = (int64_t)((i + 1) * (seed + 1) + (size_t)k * 11);
            for (size_t i = 0; i < nf; i++)
                f[i] = (double)(i + 1) + (double)seed / 8.0;
            for (int64_t rank = 0; rank < 2; rank++)
                assert_int_equal(tokio_darshan_writer_add_record(
                                     w, mod, mod == TOKIO_DARSHAN_POSIX
                                             ? (uint64_t)k + 1 : 9,
                                     rank, c, n, f, nf), TOKIO_OK);
        }
        free(c);
        free(f);
    }
    assert_int_equal(tokio_darshan_writer_write(w, path), TOKIO_OK);
    tokio_darshan_writer_free(w);
}

void
tokio_test_make_darshan_logs(const char *dir, unsigned n)
{
    char path[4300];

    for (unsigned i = 0; i < n; i++) {
        snprintf(path, sizeof(path), "%s/u%u_app_id%u_1-1-1-1_1.darshan",
                 dir, i % 13, 1000 + i);
        tokio_test_make_darshan_log(path, i);
    }
    snprintf(path, sizeof(path), "%s/zz-broken.darshan", dir);
    tokio_test_write_file(path, "not a log", 9);
}

char *
tokio_test_read_data(const char *path, size_t *len_out)
{
    char cur[4096], target[256];
    struct stat st;

    snprintf(cur, sizeof(cur), "%s", path);
    for (int hop = 0; hop < 4; hop++) {
        if (stat(cur, &st) != 0 ||
            !stored_link_target(cur, &st, target, sizeof(target)))
            return tokio_test_read_file(cur, len_out);
        const char *slash = strrchr(cur, '/');
        char next[sizeof(cur)];
        snprintf(next, sizeof(next), "%.*s/%s",
                 (int)(slash ? slash - cur : 1), slash ? cur : ".", target);
        snprintf(cur, sizeof(cur), "%s", next);
    }
    return NULL;
}
