/*
 * tests/core/test_collection.c - walking folders and tarballs of files.
 *
 * Folders are built in a temporary directory and tarballs with
 * libarchive's writer, at run time, so each test shows exactly what the
 * collection holds.
 */
#include "testutil.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/collection.h"
#include "tokio/input.h"

/* ---- fixtures ---- */

#define SEEN_MAX 128

/* What a walk saw, member by member. */
struct seen {
    size_t n;
    char *name[SEEN_MAX];
    char *data[SEEN_MAX];
    size_t len[SEEN_MAX];
    int64_t mtime[SEEN_MAX];
    size_t stop_after;          /* 0: never stop */
    int stop_rc;
};

static int
remember(const struct tokio_collection_member *m, void *payload)
{
    struct seen *s = payload;

    assert_true(s->n < SEEN_MAX);
    assert_int_equal(m->data[m->len], '\0');
    s->name[s->n] = strdup(m->name);
    s->data[s->n] = malloc(m->len + 1);
    assert_non_null(s->data[s->n]);
    memcpy(s->data[s->n], m->data, m->len + 1);
    s->len[s->n] = m->len;
    s->mtime[s->n] = m->mtime;
    s->n++;
    if (s->stop_after != 0 && s->n == s->stop_after)
        return s->stop_rc;
    return TOKIO_OK;
}

static void
seen_free(struct seen *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->name[i]);
        free(s->data[i]);
    }
    memset(s, 0, sizeof(*s));
}

enum tar_kind { TAR_FILE, TAR_DIR, TAR_SYMLINK, TAR_HARDLINK };

struct tar_entry {
    const char *name;
    enum tar_kind kind;
    const void *data;           /* TAR_FILE: contents; links: target */
    size_t len;
    int64_t mtime;
};

/* A pax tar of `entries`, filtered by `filter` ("gzip", "bzip2" or NULL),
 * in memory (free()). */
static unsigned char *
make_tar(const struct tar_entry *entries, size_t n, const char *filter,
         size_t *len_out)
{
    struct archive *a = archive_write_new();
    size_t cap = 1 << 20, used = 0;
    unsigned char *buf;

    for (size_t i = 0; i < n; i++)
        cap += entries[i].len + 1024;
    buf = malloc(cap);
    assert_non_null(buf);
    assert_non_null(a);
    assert_int_equal(archive_write_set_format_pax_restricted(a),
                     ARCHIVE_OK);
    if (filter != NULL)
        assert_int_equal(archive_write_add_filter_by_name(a, filter),
                         ARCHIVE_OK);
    assert_int_equal(archive_write_open_memory(a, buf, cap, &used),
                     ARCHIVE_OK);
    for (size_t i = 0; i < n; i++) {
        const struct tar_entry *t = &entries[i];
        struct archive_entry *e = archive_entry_new();

        archive_entry_set_pathname(e, t->name);
        archive_entry_set_mtime(e, (time_t)t->mtime, 0);
        archive_entry_set_perm(e, 0644);
        switch (t->kind) {
        case TAR_FILE:
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_size(e, (la_int64_t)t->len);
            break;
        case TAR_DIR:
            archive_entry_set_filetype(e, AE_IFDIR);
            archive_entry_set_perm(e, 0755);
            break;
        case TAR_SYMLINK:
            archive_entry_set_filetype(e, AE_IFLNK);
            archive_entry_set_symlink(e, t->data);
            break;
        case TAR_HARDLINK:
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_hardlink(e, t->data);
            archive_entry_set_size(e, 0);
            break;
        }
        assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
        if (t->kind == TAR_FILE && t->len > 0)
            assert_int_equal(archive_write_data(a, t->data, t->len),
                             (la_ssize_t)t->len);
        archive_entry_free(e);
    }
    assert_int_equal(archive_write_close(a), ARCHIVE_OK);
    archive_write_free(a);
    *len_out = used;
    return buf;
}

/* One gzip member of `text` (free()). */
static unsigned char *
gzip_text(const char *text, size_t *len_out)
{
    uLongf cap = compressBound(strlen(text)) + 32;
    unsigned char *out = malloc(cap);
    z_stream z;

    assert_non_null(out);
    memset(&z, 0, sizeof(z));
    assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8,
                                  Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (unsigned char *)text;
    z.avail_in = (uInt)strlen(text);
    z.next_out = out;
    z.avail_out = (uInt)cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    *len_out = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

/* Bytes no compressor shrinks much: truncation lands where we cut. */
static char *
noise(size_t len)
{
    char *p = malloc(len);
    uint32_t x = 2463534242u;

    assert_non_null(p);
    for (size_t i = 0; i < len; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (char)x;
    }
    return p;
}

static void
write_at(const char *dir, const char *rel, const char *text, time_t mtime)
{
    char path[4096];
    struct timespec ts[2] = { { mtime, 0 }, { mtime, 0 } };

    snprintf(path, sizeof(path), "%s/%s", dir, rel);
    tokio_test_write_file(path, text, SIZE_MAX);
    assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static void
mkdir_at(const char *dir, const char *rel)
{
    char path[4096];

    snprintf(path, sizeof(path), "%s/%s", dir, rel);
    assert_int_equal(mkdir(path, 0755), 0);
}

static void
symlink_at(const char *dir, const char *target, const char *rel)
{
    char path[4096];

    snprintf(path, sizeof(path), "%s/%s", dir, rel);
    assert_int_equal(symlink(target, path), 0);
}

/*
 * top/ b.txt a.txt ln-file -> a.txt  ln-dir -> sub1  dangling -> nowhere
 *      fifo  sub2/z  sub1/y  sub1/deeper/x  sub1/.hidden
 */
static char *
make_tree(void)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096];

    write_at(dir, "b.txt", "bee\n", 1500000002);
    write_at(dir, "a.txt", "ay\n", 1500000001);
    mkdir_at(dir, "sub2");
    mkdir_at(dir, "sub1");
    mkdir_at(dir, "sub1/deeper");
    write_at(dir, "sub2/z", "zed", 1500000005);
    write_at(dir, "sub1/y", "", 1500000004);
    write_at(dir, "sub1/.hidden", "h", 1500000006);
    write_at(dir, "sub1/deeper/x", "ex\nex\n", 1500000003);
    symlink_at(dir, "a.txt", "ln-file");
    symlink_at(dir, "sub1", "ln-dir");
    symlink_at(dir, "nowhere", "dangling");
    snprintf(path, sizeof(path), "%s/fifo", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    return dir;
}

/* Walk `path` into `s`: status `rc`, `n` members seen. */
static void
walk(const char *path, struct seen *s, int rc, size_t n)
{
    assert_int_equal(tokio_walk_file_collection(path, remember, s), rc);
    assert_int_equal(s->n, n);
}

/* ---- golden comparisons with the shared data ---- */

/* Expected values from `tar tvzf` (and Python's tarfile for mtimes) */
static void
test_collection_mmperfmon_tgz_members(void **state)
{
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/mmperfmon.tgz");
    struct seen s = { 0 };
    size_t total = 0;

    (void)state;
    walk(path, &s, TOKIO_OK, 36);      /* 37 entries less the folder */
    assert_string_equal(s.name[0], "mmperfmon_dir/ngfsv459.nersc.gov."
                        "2019-01-11-10:00:00.out");
    assert_int_equal(s.len[0], 5487);
    assert_int_equal(s.mtime[0], 1548456434);
    assert_string_equal(s.name[1], "mmperfmon_dir/ngfsv448.nersc.gov."
                        "2019-01-11-10:00:00.out");
    assert_string_equal(s.name[3], "mmperfmon_dir/ngfsv471.nersc.gov."
                        "2019-01-11-10:00:00.out");
    assert_int_equal(s.len[3], 5365);
    assert_string_equal(s.name[35], "mmperfmon_dir/ngfsv477.nersc.gov."
                        "2019-01-11-10:00:00.out");
    assert_int_equal(s.mtime[35], 1548456435);
    for (size_t i = 0; i < s.n; i++)
        total += s.len[i];
    assert_int_equal(total, 197288);
    seen_free(&s);
}

static void
test_collection_isdct_tgz_members(void **state)
{
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/sample_nersc_isdct.tgz");
    struct seen s = { 0 };
    size_t total = 0;

    (void)state;
    walk(path, &s, TOKIO_OK, 80);      /* 85 entries less 5 folders */
    assert_string_equal(s.name[0],
                        "sample_nersc_isdct_dir/nid04242/ssd1_sensor_info.txt");
    assert_int_equal(s.len[0], 630);
    assert_int_equal(s.mtime[0], 1503685894);
    assert_string_equal(s.name[1], "sample_nersc_isdct_dir/nid04242/"
                        "ssd3_smarthealthinfo.txt");
    assert_int_equal(s.len[1], 775);
    assert_string_equal(s.name[79],
                        "sample_nersc_isdct_dir/nid09166/ssd1_drive_info.txt");
    assert_int_equal(s.len[79], 1634);
    assert_int_equal(s.mtime[79], 1503685872);
    for (size_t i = 0; i < s.n; i++) {
        total += s.len[i];
        assert_int_equal(strlen(s.data[i]), s.len[i]);    /* text */
    }
    assert_int_equal(total, 74284);
    seen_free(&s);
}

/* The shared copy holds the reference's symlinks as small text files
 * naming their targets; the walk must give all five, sorted. */
static void
test_collection_darshanlogs_folder(void **state)
{
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/darshanlogs");
    struct seen s = { 0 };
    char want[4096];
    static const char *const rel[] = {
        "2017/3/19/_empty",
        "2017/3/20/glock_dbscan_read_id4478544_3-20-7800-15217972833987807816"
        "_1.darshan",
        "2017/3/20/glock_vpicio_uni_id4478544_3-20-7667-18385393005962577517"
        "_1.darshan",
        "2017/3/21/glock_dbscan_read_id4487503_3-21-14554-2400062619352127555"
        "_1.darshan",
        "2017/3/21/glock_vpicio_uni_id4487503_3-21-14391-1931100114561819213"
        "_1.darshan",
    };

    (void)state;
    walk(path, &s, TOKIO_OK, 5);
    for (size_t i = 0; i < 5; i++) {
        snprintf(want, sizeof(want), "%s/%s", path, rel[i]);
        assert_string_equal(s.name[i], want);
    }
    assert_int_equal(s.len[0], 0);
    /* the logs are links in the pack (or, where links did not survive, a
     * small file holding the link's target): each member is what reading
     * its path gives, a log or that text */
    for (size_t i = 1; i < 5; i++) {
        size_t len = 0;
        char *data = tokio_test_read_file(s.name[i], &len);
        assert_non_null(data);
        assert_int_equal(s.len[i], len);
        assert_memory_equal(s.data[i], data, len);
        free(data);
    }
    seen_free(&s);
}

/* ---- folders ---- */

static void
test_collection_folder_sorted_files_then_subfolders(void **state)
{
    char *dir = make_tree();
    char want[4096], top[4096];
    struct seen s = { 0 };
    static const char *const rel[] = {
        "a.txt", "b.txt", "ln-file", "sub1/.hidden", "sub1/y",
        "sub1/deeper/x", "sub2/z",
    };
    static const char *const data[] = {
        "ay\n", "bee\n", "ay\n", "h", "", "ex\nex\n", "zed",
    };
    static const int64_t mtime[] = {
        1500000001, 1500000002, 1500000001, 1500000006, 1500000004,
        1500000003, 1500000005,
    };

    (void)state;
    assert_int_equal(tokio_walk_file_collection(dir, remember, &s),
                     TOKIO_OK);
    /* ln-dir, dangling and fifo are no regular files of this folder */
    assert_int_equal(s.n, 7);
    for (size_t i = 0; i < 7; i++) {
        snprintf(want, sizeof(want), "%s/%s", dir, rel[i]);
        assert_string_equal(s.name[i], want);
        assert_string_equal(s.data[i], data[i]);
        assert_int_equal(s.len[i], strlen(data[i]));
        assert_int_equal(s.mtime[i], mtime[i]);
    }
    seen_free(&s);
    /* a trailing '/' is not doubled, as with os.path.join */
    snprintf(top, sizeof(top), "%s/", dir);
    assert_int_equal(tokio_walk_file_collection(top, remember, &s),
                     TOKIO_OK);
    snprintf(want, sizeof(want), "%s/a.txt", dir);
    assert_string_equal(s.name[0], want);
    snprintf(want, sizeof(want), "%s/sub1/deeper/x", dir);
    assert_string_equal(s.name[5], want);
    seen_free(&s);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_collection_callback_status_stops_walk(void **state)
{
    char *dir = make_tree();
    char path[4096];
    struct seen s = { 0 };
    static const char *const names[] = { "a", "b", "c" };
    struct tar_entry e[3];
    unsigned char *tar;
    size_t len;

    (void)state;
    s.stop_after = 2;
    s.stop_rc = TOKIO_ENOTFOUND;
    walk(dir, &s, TOKIO_ENOTFOUND, 2);
    seen_free(&s);
    /* any status but OK stops, a positive one too */
    s.stop_after = 5;
    s.stop_rc = TOKIO_PARTIAL;
    walk(dir, &s, TOKIO_PARTIAL, 5);
    seen_free(&s);
    for (size_t i = 0; i < 3; i++)
        e[i] = (struct tar_entry){ names[i], TAR_FILE, "x", 1, 0 };
    tar = make_tar(e, 3, "gzip", &len);
    snprintf(path, sizeof(path), "%s/three.tgz", dir);
    tokio_test_write_file(path, tar, len);
    s.stop_after = 1;
    s.stop_rc = TOKIO_EFORMAT;
    walk(path, &s, TOKIO_EFORMAT, 1);
    assert_string_equal(s.name[0], "a");
    seen_free(&s);
    free(tar);
    tokio_test_rmtree(dir);
    free(dir);
}

/* ---- tar archives ---- */

static void
test_collection_tar_gives_regular_members_as_stored(void **state)
{
    static const char *const filters[] = { NULL, "gzip", "bzip2" };
    char *dir = tokio_test_mkdtemp();
    size_t gzlen, len;
    unsigned char *gz = gzip_text("zipped line\n", &gzlen);
    const struct tar_entry e[] = {
        { "top/", TAR_DIR, NULL, 0, 1400000000 },
        { "top/b.txt", TAR_FILE, "beta\nline 2\n", 12, 1500000000 },
        { "top/ln", TAR_SYMLINK, "b.txt", 0, 1500000000 },
        { "top/hard", TAR_HARDLINK, "top/b.txt", 0, 1500000000 },
        { "top/a.gz", TAR_FILE, gz, gzlen, 1600000000 },
        { "top/empty", TAR_FILE, "", 0, 1700000000 },
    };

    (void)state;
    for (size_t f = 0; f < 3; f++) {
        unsigned char *tar = make_tar(e, 6, filters[f], &len);
        struct seen s = { 0 };
        char path[4096];
        struct tokio_input *in;
        const char *line;

        snprintf(path, sizeof(path), "%s/t%zu", dir, f);
        tokio_test_write_file(path, tar, len);
        walk(path, &s, TOKIO_OK, 3);
        assert_string_equal(s.name[0], "top/b.txt");
        assert_string_equal(s.data[0], "beta\nline 2\n");
        assert_int_equal(s.len[0], 12);
        assert_int_equal(s.mtime[0], 1500000000);
        assert_string_equal(s.name[1], "top/a.gz");
        assert_int_equal(s.len[1], gzlen);
        assert_memory_equal(s.data[1], gz, gzlen);  /* still gzip */
        assert_int_equal(tokio_input_open_mem(&in, s.data[1], s.len[1],
                                              s.name[1]), TOKIO_OK);
        assert_int_equal(tokio_input_getline(in, &line, NULL), TOKIO_OK);
        assert_string_equal(line, "zipped line");
        tokio_input_close(in);
        assert_string_equal(s.name[2], "top/empty");
        assert_int_equal(s.len[2], 0);
        assert_int_equal(s.mtime[2], 1700000000);
        seen_free(&s);
        /* the same from memory */
        assert_int_equal(tokio__walk_archive_mem(tar, len, "mem", 0,
                                                 remember, &s), TOKIO_OK);
        assert_int_equal(s.n, 3);
        assert_string_equal(s.name[2], "top/empty");
        seen_free(&s);
        free(tar);
    }
    free(gz);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_collection_big_member_crosses_growth(void **state)
{
    size_t big = 3 * 1000 * 1000, len;
    char *data = noise(big);
    const struct tar_entry e[] = {
        { "big", TAR_FILE, data, big, 1 },
        { "after", TAR_FILE, "tail", 4, 2 },
    };
    unsigned char *tar = make_tar(e, 2, "gzip", &len);
    struct seen s = { 0 };

    (void)state;
    assert_int_equal(tokio__walk_archive_mem(tar, len, "big.tgz", 0,
                                             remember, &s), TOKIO_OK);
    assert_int_equal(s.n, 2);
    assert_int_equal(s.len[0], big);
    assert_memory_equal(s.data[0], data, big);
    assert_string_equal(s.data[1], "tail");
    seen_free(&s);
    /* a member over the cap is refused by its declared size */
    assert_int_equal(tokio__walk_archive_mem(tar, len, "big.tgz", big - 1,
                                             remember, &s), TOKIO_EFORMAT);
    assert_int_equal(s.n, 0);
    assert_contains(tokio_errmsg(), "'big.tgz' member 'big': 3000000 bytes, "
                    "more than the limit of 2999999");
    /* exactly the cap is fine */
    assert_int_equal(tokio__walk_archive_mem(tar, len, "big.tgz", big,
                                             remember, &s), TOKIO_OK);
    assert_int_equal(s.n, 2);
    seen_free(&s);
    free(tar);
    free(data);
}

/* ---- malformed inputs ---- */

static void
test_collection_plain_file_is_no_archive(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    struct seen s = { 0 };
    size_t gzlen;
    unsigned char *gz = gzip_text("just text, gzipped\n", &gzlen);

    (void)state;
    snprintf(path, sizeof(path), "%s/notes.txt", dir);
    tokio_test_write_file(path, "just some text\nnot a tarball\n", SIZE_MAX);
    assert_int_equal(tokio_walk_file_collection(path, remember, &s),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), path);
    assert_contains(tokio_errmsg(), "Unrecognized archive format");
    snprintf(path, sizeof(path), "%s/notes.txt.gz", dir);
    tokio_test_write_file(path, gz, gzlen);
    assert_int_equal(tokio_walk_file_collection(path, remember, &s),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), path);
    snprintf(path, sizeof(path), "%s/empty", dir);
    tokio_test_write_file(path, "", 0);
    assert_int_equal(tokio_walk_file_collection(path, remember, &s),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), path);
    assert_int_equal(s.n, 0);
    free(gz);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_collection_missing_path_is_eio(void **state)
{
    struct seen s = { 0 };

    (void)state;
    assert_int_equal(tokio_walk_file_collection("/nonexistent/tokio.tgz",
                                                remember, &s), TOKIO_EIO);
    assert_contains(tokio_errmsg(), "cannot open '/nonexistent/tokio.tgz': "
                    "No such file");
    assert_int_equal(tokio_walk_file_collection("/x", NULL, &s),
                     TOKIO_EINVAL);
}

/* Cut in the middle of the second member's data: the error names both
 * the archive and that member, and the first member was still seen. */
static void
test_collection_truncated_tar_names_archive_member(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    size_t big = 200000, len;
    char *data = noise(big);
    const struct tar_entry e[] = {
        { "top/small", TAR_FILE, "small\n", 6, 1 },
        { "top/big", TAR_FILE, data, big, 2 },
        { "top/last", TAR_FILE, "last\n", 5, 3 },
    };
    unsigned char *tar = make_tar(e, 3, NULL, &len);
    unsigned char *tgz;
    size_t tgzlen;
    struct seen s = { 0 };

    (void)state;
    snprintf(path, sizeof(path), "%s/cut.tar", dir);
    tokio_test_write_file(path, tar, len / 2);
    walk(path, &s, TOKIO_EFORMAT, 1);
    assert_string_equal(s.name[0], "top/small");
    assert_contains(tokio_errmsg(), path);
    assert_contains(tokio_errmsg(), "member 'top/big'");
    assert_contains(tokio_errmsg(), "runcated");
    seen_free(&s);

    /* the same cut in a compressed stream */
    tgz = make_tar(e, 3, "gzip", &tgzlen);
    snprintf(path, sizeof(path), "%s/cut.tgz", dir);
    tokio_test_write_file(path, tgz, tgzlen / 2);
    walk(path, &s, TOKIO_EFORMAT, 1);
    assert_contains(tokio_errmsg(), path);
    assert_contains(tokio_errmsg(), "member 'top/big'");
    seen_free(&s);

    /* cut after a whole member: found looking for the next header */
    snprintf(path, sizeof(path), "%s/cut2.tar", dir);
    tokio_test_write_file(path, tar, 512 + 512 + 100);
    walk(path, &s, TOKIO_EFORMAT, 1);
    assert_contains(tokio_errmsg(), "after member 'top/small'");
    seen_free(&s);
    free(tgz);
    free(tar);
    free(data);
    tokio_test_rmtree(dir);
    free(dir);
}

/* A tarball of many members: they come in order, a callback that stops
 * early stops the walk, and damage past many members is reported after
 * the members before it, naming the member. */
static void
test_collection_many_members_order_stop_and_damage(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096], names[40][16], texts[40][32];
    struct tar_entry e[40];
    struct seen s = { 0 };
    unsigned char *tgz;
    size_t len;

    (void)state;
    for (size_t i = 0; i < 40; i++) {
        snprintf(names[i], sizeof(names[i]), "m/%02zu", i);
        snprintf(texts[i], sizeof(texts[i]), "member %zu\n", i);
        e[i] = (struct tar_entry){ names[i], TAR_FILE, texts[i],
                                   strlen(texts[i]), (int64_t)i };
    }
    tgz = make_tar(e, 40, "gzip", &len);
    snprintf(path, sizeof(path), "%s/forty.tgz", dir);
    tokio_test_write_file(path, tgz, len);
    walk(path, &s, TOKIO_OK, 40);
    for (size_t i = 0; i < 40; i++) {
        assert_string_equal(s.name[i], names[i]);
        assert_string_equal(s.data[i], texts[i]);
        assert_int_equal(s.mtime[i], (int64_t)i);
    }
    seen_free(&s);

    s.stop_after = 3;
    s.stop_rc = TOKIO_ENOTFOUND;
    walk(path, &s, TOKIO_ENOTFOUND, 3);
    assert_string_equal(s.name[2], "m/02");
    seen_free(&s);
    free(tgz);

    /* plain tar cut inside the 31st member */
    tgz = make_tar(e, 40, NULL, &len);
    tokio_test_write_file(path, tgz, 30 * 1024 + 512 + 100);
    walk(path, &s, TOKIO_EFORMAT, 30);
    assert_contains(tokio_errmsg(), path);
    assert_contains(tokio_errmsg(), "member 'm/30'");
    assert_contains(tokio_errmsg(), "runcated");
    seen_free(&s);
    free(tgz);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_collection_bad_header_checksum_is_eformat(void **state)
{
    const struct tar_entry e[] = {
        { "first", TAR_FILE, "1\n", 2, 1 },
        { "second", TAR_FILE, "2\n", 2, 2 },
    };
    size_t len;
    unsigned char *tar = make_tar(e, 2, NULL, &len);
    struct seen s = { 0 };
    size_t at;

    (void)state;
    /* pax writes an extended header before each member; find the
     * ustar header of "second" by its name field */
    for (at = 512; at < len; at += 512)
        if (memcmp(tar + at, "second", 7) == 0)
            break;
    assert_true(at < len);
    tar[at] = 'S';
    assert_int_equal(tokio__walk_archive_mem(tar, len, "sum.tar", 0,
                                             remember, &s), TOKIO_EFORMAT);
    assert_int_equal(s.n, 1);
    assert_contains(tokio_errmsg(), "'sum.tar' after member 'first'");
    seen_free(&s);
    free(tar);
}

/* ---- anomalies ---- */

static void
walk_survives_every_oom(const char *path, size_t want_n)
{
    for (size_t n = 1;; n++) {
        struct seen s = { 0 };
        int rc;

        tokio_test_fail_alloc_at(n);
        rc = tokio_walk_file_collection(path, remember, &s);
        tokio_test_fail_alloc_at(0);
        if (rc == TOKIO_OK) {
            assert_int_equal(s.n, want_n);
            seen_free(&s);
            break;
        }
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_contains(tokio_errmsg(), "out of memory");
        seen_free(&s);
        assert_true(n < 10000);
    }
}

static void
test_collection_walk_survives_every_oom(void **state)
{
    char *dir = make_tree();
    char path[4096];
    const struct tar_entry e[] = {
        { "d/", TAR_DIR, NULL, 0, 1 },
        { "d/one", TAR_FILE, "1\n", 2, 1 },
        { "d/two", TAR_FILE, "22\n", 3, 1 },
    };
    size_t len;
    unsigned char *tar = make_tar(e, 3, "bzip2", &len);

    (void)state;
    walk_survives_every_oom(dir, 7);
    snprintf(path, sizeof(path), "%s/sub2/t.tbz", dir);
    tokio_test_write_file(path, tar, len);
    walk_survives_every_oom(path, 2);
    free(tar);
    tokio_test_rmtree(dir);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collection_mmperfmon_tgz_members),
        cmocka_unit_test(test_collection_isdct_tgz_members),
        cmocka_unit_test(test_collection_darshanlogs_folder),
        cmocka_unit_test(test_collection_folder_sorted_files_then_subfolders),
        cmocka_unit_test(test_collection_callback_status_stops_walk),
        cmocka_unit_test(test_collection_tar_gives_regular_members_as_stored),
        cmocka_unit_test(test_collection_big_member_crosses_growth),
        cmocka_unit_test(test_collection_plain_file_is_no_archive),
        cmocka_unit_test(test_collection_missing_path_is_eio),
        cmocka_unit_test(test_collection_truncated_tar_names_archive_member),
        cmocka_unit_test(test_collection_bad_header_checksum_is_eformat),
        cmocka_unit_test(test_collection_many_members_order_stop_and_damage),
        cmocka_unit_test(test_collection_walk_survives_every_oom),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
