/*
 * tests/core/test_input.c - plain, gzip and bzip2 inputs by line and byte;
 * a descriptor read whole (src/core/fdio.c).
 *
 * Compressed fixtures are made here, at run time, with zlib and libbzip2
 * themselves, so no binary file is committed and each test shows exactly
 * what bytes it feeds in.
 */
#include "testutil.h"

#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/fdio.h"
#include "tokio/input.h"

/* ---- fixtures ---- */

/* One gzip member holding `len` bytes of `data` deflated at `level`
 * (free()). */
static unsigned char *
gzip_level_bytes(const void *data, size_t len, int level, size_t *out_len)
{
    z_stream z;
    size_t cap = compressBound(len) + 64;
    unsigned char *out = malloc(cap);

    assert_non_null(out);
    memset(&z, 0, sizeof(z));
    assert_int_equal(deflateInit2(&z, level, Z_DEFLATED, 16 + MAX_WBITS, 8,
                                  Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (unsigned char *)data;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    *out_len = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

static unsigned char *
gzip_bytes(const void *data, size_t len, size_t *out_len)
{
    return gzip_level_bytes(data, len, 6, out_len);
}

/* One bzip2 stream holding `len` bytes of `data` (free()). */
static unsigned char *
bzip2_bytes(const void *data, size_t len, size_t *out_len)
{
    unsigned int cap = (unsigned int)(len + len / 100 + 600);
    unsigned char *out = malloc(cap);

    assert_non_null(out);
    assert_int_equal(BZ2_bzBuffToBuffCompress((char *)out, &cap,
                                              (char *)data,
                                              (unsigned int)len, 9, 0, 0),
                     BZ_OK);
    *out_len = cap;
    return out;
}

/* A file written through zlib's own gzip writer, named without ".gz". */
static void
write_gzfile(const char *path, const char *text)
{
    gzFile gz = gzopen(path, "wb");

    assert_non_null(gz);
    assert_int_equal(gzwrite(gz, text, (unsigned)strlen(text)),
                     (int)strlen(text));
    assert_int_equal(gzclose(gz), Z_OK);
}

/* "line 00001 ...\n" for n lines: enough text that cuts land mid-stream. */
static char *
numbered_lines(size_t n, size_t *len_out)
{
    char *text = malloc(n * 64 + 1);
    size_t len = 0;

    assert_non_null(text);
    for (size_t i = 1; i <= n; i++)
        len += (size_t)sprintf(text + len, "line %05zu value %zu\n", i,
                               i * 7919 % 10007);
    *len_out = len;
    return text;
}

/* Read every line, checking each against numbered_lines(); returns the
 * status that ended the reading and the number of lines read. */
static int
read_numbered(struct tokio_input *in, size_t *count)
{
    const char *line;
    size_t len;
    int rc;

    *count = 0;
    while ((rc = tokio_input_getline(in, &line, &len)) == TOKIO_OK
           && line != NULL) {
        char want[64];
        size_t i = ++*count;

        snprintf(want, sizeof(want), "line %05zu value %zu", i,
                 i * 7919 % 10007);
        assert_string_equal(line, want);
        assert_int_equal(len, strlen(want));
        assert_int_equal(tokio_input_lineno(in), i);
    }
    return rc;
}

/* Every line of `buf`, as "a|b|c" with NULs shown as "\0". */
static char *
lines_of(const void *buf, size_t n, const char *name, size_t *count)
{
    struct tokio_input *in;
    const char *line;
    size_t len, cap = 4096, used = 0;
    char *joined = malloc(cap);

    assert_non_null(joined);
    joined[0] = '\0';
    *count = 0;
    assert_int_equal(tokio_input_open_mem(&in, buf, n, name), TOKIO_OK);
    while (tokio_input_getline(in, &line, &len) == TOKIO_OK && line) {
        assert_int_equal(line[len], '\0');
        for (size_t i = 0; i < len; i++) {
            assert_true(used + 4 < cap);
            if (line[i] == '\0') {
                memcpy(joined + used, "\\0", 2);
                used += 2;
            } else {
                joined[used++] = line[i];
            }
        }
        joined[used++] = '|';
        joined[used] = '\0';
        ++*count;
    }
    tokio_input_close(in);
    return joined;
}

/* ---- golden comparisons with the shared data ---- */

/* Expected values from `zcat FILE | wc -l`, `head -1`, `tail -2`,
 * `wc -c`: the file ends in "\n\n", so its last line is empty. */
static void
test_input_ost_fullness_matches_zcat(void **state)
{
    TOKIO_TEST_NEED_DATA(path, "pytokio-inputs/sample_ost-fullness.txt.gz");
    struct tokio_input *in;
    const char *line;
    char *first = NULL, *prev = NULL, *last = NULL;
    size_t len, n = 0, bytes = 0;

    (void)state;
    assert_int_equal(tokio_input_open(&in, path), TOKIO_OK);
    while (tokio_input_getline(in, &line, &len) == TOKIO_OK && line) {
        if (++n == 1)
            first = strdup(line);
        free(prev);
        prev = last;
        last = strdup(line);
        bytes += len + 1;
    }
    assert_null(line);
    assert_int_equal(n, 24990);
    assert_int_equal(tokio_input_lineno(in), 24990);
    assert_int_equal(bytes, 2138430);
    assert_string_equal(first, "BEGIN 1489998203");
    assert_string_equal(prev, "filesystem summary:  2178423632448 "
                        "1571165868640 584262960212  73% /scratch1");
    assert_string_equal(last, "");
    free(first);
    free(prev);
    free(last);
    tokio_input_close(in);

    unsigned char *buf;
    assert_int_equal(tokio_read_file(path, 0, &buf, &len), TOKIO_OK);
    assert_int_equal(len, 2138430);
    assert_memory_equal(buf, "BEGIN 1489998203\n", 17);
    assert_int_equal(buf[len], '\0');
    free(buf);
}

/* ---- lines ---- */

static void
test_input_plain_lines_crlf_and_last_without_newline(void **state)
{
    static const char text[] = "alpha\nbeta\r\n\r\nmid\rcr\ngamma";
    size_t n;
    char *got;

    (void)state;
    got = lines_of(text, sizeof(text) - 1, "t.txt", &n);
    /* only a '\r' right before '\n' goes; a lone one is data */
    assert_string_equal(got, "alpha|beta||mid\rcr|gamma|");
    assert_int_equal(n, 5);
    free(got);
}

static void
test_input_nul_inside_line_keeps_true_length(void **state)
{
    static const char text[] = "a\0b\n\0\nend\n";
    struct tokio_input *in;
    const char *line;
    size_t len;

    (void)state;
    assert_int_equal(tokio_input_open_mem(&in, text, sizeof(text) - 1, NULL),
                     TOKIO_OK);
    assert_string_equal(tokio_input_name(in), "<memory>");
    assert_int_equal(tokio_input_getline(in, &line, &len), TOKIO_OK);
    assert_int_equal(len, 3);
    assert_memory_equal(line, "a\0b", 4);
    assert_int_equal(tokio_input_getline(in, &line, &len), TOKIO_OK);
    assert_int_equal(len, 1);
    assert_int_equal(line[0], '\0');
    assert_int_equal(tokio_input_getline(in, &line, &len), TOKIO_OK);
    assert_string_equal(line, "end");
    assert_int_equal(tokio_input_getline(in, &line, &len), TOKIO_OK);
    assert_null(line);
    assert_int_equal(len, 0);
    /* end of input stays the end */
    assert_int_equal(tokio_input_getline(in, &line, &len), TOKIO_OK);
    assert_null(line);
    assert_int_equal(tokio_input_lineno(in), 3);
    tokio_input_close(in);
}

static void
test_input_empty_file_has_no_lines(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    struct tokio_input *in;
    const char *line = "x";
    unsigned char *buf;
    size_t len = 99;

    (void)state;
    snprintf(path, sizeof(path), "%s/empty", dir);
    tokio_test_write_file(path, "", 0);
    assert_int_equal(tokio_input_open(&in, path), TOKIO_OK);
    assert_string_equal(tokio_input_name(in), path);
    assert_int_equal(tokio_input_getline(in, &line, &len), TOKIO_OK);
    assert_null(line);
    assert_int_equal(tokio_input_lineno(in), 0);
    tokio_input_close(in);
    assert_int_equal(tokio_read_file(path, 0, &buf, &len), TOKIO_OK);
    assert_int_equal(len, 0);
    assert_string_equal((char *)buf, "");
    free(buf);
    /* a blank-lines-only file: two empty lines, not zero */
    size_t n;
    char *got = lines_of("\n\n", 2, "blank", &n);
    assert_string_equal(got, "||");
    assert_int_equal(n, 2);
    free(got);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_input_long_line_spans_chunks(void **state)
{
    size_t big = 300000, zlen, n;
    char *text = malloc(big + 16);
    unsigned char *z;
    struct tokio_input *in;
    const char *line;

    (void)state;
    assert_non_null(text);
    for (size_t i = 0; i < big; i++)
        text[i] = (char)('a' + i % 26);
    memcpy(text + big, "\r\nshort\n", 8);
    z = gzip_bytes(text, big + 8, &zlen);
    assert_int_equal(tokio_input_open_mem(&in, z, zlen, "long.gz"),
                     TOKIO_OK);
    assert_int_equal(tokio_input_getline(in, &line, &n), TOKIO_OK);
    assert_int_equal(n, big);
    assert_memory_equal(line, text, big);
    assert_int_equal(line[big], '\0');
    assert_int_equal(tokio_input_getline(in, &line, &n), TOKIO_OK);
    assert_string_equal(line, "short");
    assert_int_equal(tokio_input_getline(in, &line, &n), TOKIO_OK);
    assert_null(line);
    tokio_input_close(in);
    free(z);
    free(text);
}

/* 257 gzip members of 1 MiB of 'x' each: one line of 257 MiB, built
 * without compressing 257 MiB. */
static void
test_input_line_over_256mib_is_eformat(void **state)
{
    const size_t mib = (size_t)1 << 20, copies = 257;
    char *x = malloc(mib);
    unsigned char *member, *all;
    size_t mlen, n;
    struct tokio_input *in;
    const char *line;

    (void)state;
    assert_non_null(x);
    memset(x, 'x', mib);
    member = gzip_bytes(x, mib, &mlen);
    all = malloc(mlen * copies);
    assert_non_null(all);
    for (size_t i = 0; i < copies; i++)
        memcpy(all + i * mlen, member, mlen);
    assert_int_equal(tokio_input_open_mem(&in, all, mlen * copies, "huge"),
                     TOKIO_OK);
    assert_int_equal(tokio_input_getline(in, &line, &n), TOKIO_EFORMAT);
    assert_null(line);
    assert_contains(tokio_errmsg(), "'huge' line 1: line longer than 256");
    tokio_input_close(in);
    free(all);
    free(member);
    free(x);
}

/* ---- compression ---- */

static void
test_input_gzip_detected_by_content_not_name(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    struct tokio_input *in;
    const char *line;
    size_t len;

    (void)state;
    snprintf(path, sizeof(path), "%s/plain-name.txt", dir);
    write_gzfile(path, "one\r\ntwo\nthree");
    assert_int_equal(tokio_input_open(&in, path), TOKIO_OK);
    assert_int_equal(tokio_input_getline(in, &line, &len), TOKIO_OK);
    assert_string_equal(line, "one");
    assert_int_equal(tokio_input_getline(in, &line, &len), TOKIO_OK);
    assert_string_equal(line, "two");
    assert_int_equal(tokio_input_getline(in, &line, &len), TOKIO_OK);
    assert_string_equal(line, "three");
    assert_int_equal(tokio_input_getline(in, &line, &len), TOKIO_OK);
    assert_null(line);
    tokio_input_close(in);
    tokio_test_rmtree(dir);
    free(dir);
}

/* `cat a.gz b.gz` decompresses to a then b, as with `gzip -dc`, even with
 * a line split between members; NUL padding after the end is ignored. */
static void
test_input_gzip_concatenated_members(void **state)
{
    size_t l1, l2, l3, n;
    unsigned char *m1 = gzip_bytes("first\nsplit ", 12, &l1);
    unsigned char *m2 = gzip_bytes("", 0, &l2);
    unsigned char *m3 = gzip_bytes("line\nlast\n", 10, &l3);
    unsigned char *all = malloc(l1 + l2 + l3 + 512);
    char *got;

    (void)state;
    assert_non_null(all);
    memcpy(all, m1, l1);
    memcpy(all + l1, m2, l2);
    memcpy(all + l1 + l2, m3, l3);
    got = lines_of(all, l1 + l2 + l3, "cat.gz", &n);
    assert_string_equal(got, "first|split line|last|");
    assert_int_equal(n, 3);
    free(got);
    memset(all + l1 + l2 + l3, 0, 512);
    got = lines_of(all, l1 + l2 + l3 + 512, "padded.gz", &n);
    assert_string_equal(got, "first|split line|last|");
    free(got);

    /* but other bytes after the data are damage, not padding */
    struct tokio_input *in;
    const char *line;
    memcpy(all + l1 + l2 + l3, "junk\n", 5);
    assert_int_equal(tokio_input_open_mem(&in, all, l1 + l2 + l3 + 5,
                                          "junk.gz"), TOKIO_OK);
    assert_int_equal(tokio_input_getline(in, &line, &n), TOKIO_OK);
    assert_int_equal(tokio_input_getline(in, &line, &n), TOKIO_OK);
    assert_int_equal(tokio_input_getline(in, &line, &n), TOKIO_OK);
    assert_int_equal(tokio_input_getline(in, &line, &n), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'junk.gz' line 4: trailing garbage");
    tokio_input_close(in);
    free(all);
    free(m1);
    free(m2);
    free(m3);
}

static void
test_input_bzip2_streams_and_trailing_garbage(void **state)
{
    size_t l1, l2, n;
    unsigned char *s1 = bzip2_bytes("one\ntw", 6, &l1);
    unsigned char *s2 = bzip2_bytes("o\r\nthree\n", 9, &l2);
    unsigned char *all = malloc(l1 + l2 + 8);
    char *got;

    (void)state;
    assert_non_null(all);
    memcpy(all, s1, l1);
    got = lines_of(all, l1, "one.bz2", &n);
    assert_string_equal(got, "one|tw|");
    free(got);
    memcpy(all + l1, s2, l2);
    got = lines_of(all, l1 + l2, "two.bz2", &n);
    assert_string_equal(got, "one|two|three|");
    assert_int_equal(n, 3);
    free(got);
    /* bzip2(1) and Python ignore what follows the last stream */
    memcpy(all + l1 + l2, "garbage!", 8);
    got = lines_of(all, l1 + l2 + 8, "tail.bz2", &n);
    assert_string_equal(got, "one|two|three|");
    free(got);
    free(all);
    free(s1);
    free(s2);
}

static void
test_input_bzip2_file_read_whole(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    size_t tlen, zlen, len;
    char *text = numbered_lines(5000, &tlen);
    unsigned char *z = bzip2_bytes(text, tlen, &zlen), *buf;

    (void)state;
    snprintf(path, sizeof(path), "%s/data", dir);
    tokio_test_write_file(path, z, zlen);
    assert_int_equal(tokio_read_file(path, 0, &buf, &len), TOKIO_OK);
    assert_int_equal(len, tlen);
    assert_memory_equal(buf, text, tlen);
    assert_int_equal(buf[len], '\0');
    free(buf);
    /* exactly the limit is fine, one byte under is not */
    assert_int_equal(tokio_read_file(path, tlen, &buf, &len), TOKIO_OK);
    free(buf);
    assert_int_equal(tokio_read_file(path, tlen - 1, &buf, &len),
                     TOKIO_EFORMAT);
    assert_null(buf);
    assert_int_equal(len, 0);
    assert_contains(tokio_errmsg(), path);
    assert_contains(tokio_errmsg(), "more than");
    free(z);
    free(text);
    tokio_test_rmtree(dir);
    free(dir);
}

/* Reading in odd-sized pieces and by line then by byte gives the same
 * bytes as the original. */
static void
test_input_read_in_pieces_after_getline(void **state)
{
    size_t tlen, zlen, n, got = 0;
    char *text = numbered_lines(20000, &tlen);
    unsigned char *z = gzip_bytes(text, tlen, &zlen);
    char *back = malloc(tlen + 7);
    struct tokio_input *in;
    const char *line;

    (void)state;
    assert_non_null(back);
    assert_int_equal(tokio_input_open_mem(&in, z, zlen, "p.gz"), TOKIO_OK);
    assert_int_equal(tokio_input_getline(in, &line, &n), TOKIO_OK);
    assert_string_equal(line, "line 00001 value 7919");
    got = n + 1;
    memcpy(back, text, got);
    for (;;) {
        assert_int_equal(tokio_input_read(in, back + got, 7, &n), TOKIO_OK);
        if (n == 0)
            break;
        assert_true(n <= 7);
        got += n;
        assert_true(got <= tlen);
    }
    assert_int_equal(got, tlen);
    assert_memory_equal(back, text, tlen);
    assert_int_equal(tokio_input_read(in, back, 0, &n), TOKIO_EINVAL);
    tokio_input_close(in);
    free(back);
    free(z);
    free(text);
}

/* A gzip input of many chunks, from a file and from memory: every line,
 * a switch to read_all() midway, and a close before the end. */
static void
test_input_gzip_many_chunks_lines_then_bytes(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    size_t tlen, zlen, count, half = 0, rest_len;
    char *text = numbered_lines(100000, &tlen);    /* ~2.2 MB, 35 chunks */
    unsigned char *z = gzip_bytes(text, tlen, &zlen), *rest;
    struct tokio_input *in;
    const char *line;

    (void)state;
    snprintf(path, sizeof(path), "%s/big.gz", dir);
    tokio_test_write_file(path, z, zlen);
    for (int mem = 0; mem < 2; mem++) {
        assert_int_equal(mem ? tokio_input_open_mem(&in, z, zlen, "big.gz")
                             : tokio_input_open(&in, path), TOKIO_OK);
        assert_int_equal(read_numbered(in, &count), TOKIO_OK);
        assert_int_equal(count, 100000);
        tokio_input_close(in);

        /* half the lines, then the rest as bytes */
        assert_int_equal(mem ? tokio_input_open_mem(&in, z, zlen, "big.gz")
                             : tokio_input_open(&in, path), TOKIO_OK);
        half = 0;
        for (size_t i = 0; i < 50000; i++) {
            size_t n;
            assert_int_equal(tokio_input_getline(in, &line, &n), TOKIO_OK);
            assert_non_null(line);
            half += n + 1;
        }
        assert_int_equal(tokio_input_read_all(in, 0, &rest, &rest_len),
                         TOKIO_OK);
        assert_int_equal(half + rest_len, tlen);
        assert_memory_equal(rest, text + half, rest_len);
        free(rest);
        tokio_input_close(in);

        /* closed before the end */
        assert_int_equal(mem ? tokio_input_open_mem(&in, z, zlen, "big.gz")
                             : tokio_input_open(&in, path), TOKIO_OK);
        for (size_t i = 0; i < 5000; i++)      /* into the second chunk */
            assert_int_equal(tokio_input_getline(in, &line, NULL), TOKIO_OK);
        assert_string_equal(line, "line 05000 value 7308");
        tokio_input_close(in);
    }
    free(z);
    free(text);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_input_read_all_over_max_is_eformat(void **state)
{
    static const char text[] = "0123456789abcdef";
    struct tokio_input *in;
    unsigned char *buf;
    size_t len;

    (void)state;
    assert_int_equal(tokio_input_open_mem(&in, text, 16, "bomb"), TOKIO_OK);
    assert_int_equal(tokio_input_read_all(in, 15, &buf, &len),
                     TOKIO_EFORMAT);
    assert_null(buf);
    assert_contains(tokio_errmsg(), "'bomb': more than 15 bytes");
    tokio_input_close(in);
    assert_int_equal(tokio_input_open_mem(&in, text, 16, "fits"), TOKIO_OK);
    assert_int_equal(tokio_input_read_all(in, 16, &buf, &len), TOKIO_OK);
    assert_int_equal(len, 16);
    assert_string_equal((char *)buf, text);
    free(buf);
    tokio_input_close(in);
}

static void
test_input_stdin_is_dash(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    struct tokio_input *in;
    const char *line;
    size_t len;
    int saved = dup(STDIN_FILENO), fd;

    (void)state;
    snprintf(path, sizeof(path), "%s/in.gz", dir);
    write_gzfile(path, "from stdin\n");
    fd = open(path, O_RDONLY);
    assert_true(fd >= 0 && saved >= 0);
    assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
    close(fd);
    assert_int_equal(tokio_input_open(&in, "-"), TOKIO_OK);
    assert_string_equal(tokio_input_name(in), "-");
    assert_int_equal(tokio_input_getline(in, &line, &len), TOKIO_OK);
    assert_string_equal(line, "from stdin");
    tokio_input_close(in);
    /* standard input is borrowed, not closed */
    assert_true(fcntl(STDIN_FILENO, F_GETFD) >= 0);
    assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
    close(saved);
    tokio_test_rmtree(dir);
    free(dir);
}

/* ---- malformed inputs ---- */

/* Every cut of a gzip stream fails at the line it reached, by name;
 * none is taken for a shorter complete file. */
static void
test_input_truncated_gzip_names_input_and_line(void **state)
{
    size_t tlen, zlen, count;
    char *text = numbered_lines(20000, &tlen);
    unsigned char *z = gzip_bytes(text, tlen, &zlen);

    (void)state;
    for (size_t cut = 2; cut < zlen; cut += cut < 64 ? 1 : 997) {
        struct tokio_input *in;
        char want[64];

        assert_int_equal(tokio_input_open_mem(&in, z, cut, "cut.gz"),
                         TOKIO_OK);
        assert_int_equal(read_numbered(in, &count), TOKIO_EFORMAT);
        snprintf(want, sizeof(want), "'cut.gz' line %zu: ", count + 1);
        assert_contains(tokio_errmsg(), want);
        assert_contains(tokio_errmsg(), "gzip data");
        /* the error stays: no reading on past the damage */
        const char *line;
        assert_int_equal(tokio_input_getline(in, &line, NULL),
                         TOKIO_EFORMAT);
        assert_null(line);
        tokio_input_close(in);
    }
    /* the last 8 bytes are CRC and length: losing one must show */
    struct tokio_input *in;
    assert_int_equal(tokio_input_open_mem(&in, z, zlen - 1, "crc.gz"),
                     TOKIO_OK);
    assert_int_equal(read_numbered(in, &count), TOKIO_EFORMAT);
    assert_int_equal(count, 20000);
    assert_contains(tokio_errmsg(), "'crc.gz' line 20001: truncated gzip");
    tokio_input_close(in);
    free(z);
    free(text);
}

static void
test_input_truncated_bzip2_names_input_and_line(void **state)
{
    size_t tlen, zlen, count;
    char *text = numbered_lines(20000, &tlen);
    unsigned char *z = bzip2_bytes(text, tlen, &zlen);

    (void)state;
    for (size_t cut = 3; cut < zlen; cut += cut < 64 ? 1 : 1499) {
        struct tokio_input *in;
        char want[64];

        assert_int_equal(tokio_input_open_mem(&in, z, cut, "cut.bz2"),
                         TOKIO_OK);
        assert_int_equal(read_numbered(in, &count), TOKIO_EFORMAT);
        snprintf(want, sizeof(want), "'cut.bz2' line %zu: ", count + 1);
        assert_contains(tokio_errmsg(), want);
        assert_contains(tokio_errmsg(), "bzip2 data");
        tokio_input_close(in);
    }
    /* and through a file, with read_all */
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    unsigned char *buf;
    size_t len;
    snprintf(path, sizeof(path), "%s/short.bz2", dir);
    tokio_test_write_file(path, z, zlen - 1);
    assert_int_equal(tokio_read_file(path, 0, &buf, &len), TOKIO_EFORMAT);
    assert_null(buf);
    assert_contains(tokio_errmsg(), path);
    assert_contains(tokio_errmsg(), "truncated bzip2 data");
    tokio_test_rmtree(dir);
    free(dir);
    free(z);
    free(text);
}

/* Lines read until the end or an error, whatever they hold. */
static int
count_lines(struct tokio_input *in, size_t *count)
{
    const char *line;
    int rc;

    *count = 0;
    while ((rc = tokio_input_getline(in, &line, NULL)) == TOKIO_OK && line)
        ++*count;
    return rc;
}

static void
test_input_corrupt_bytes_are_eformat(void **state)
{
    size_t tlen, zlen, blen, count;
    char *text = numbered_lines(3000, &tlen);
    unsigned char *gz = gzip_bytes(text, tlen, &zlen);
    unsigned char *bz = bzip2_bytes(text, tlen, &blen);
    unsigned char *bad = malloc(zlen > blen ? zlen : blen);
    struct tokio_input *in;

    (void)state;
    assert_non_null(bad);
    /* damage in the deflate data, caught by it or by the CRC after it */
    for (size_t at = 20; at < zlen; at += zlen / 13) {
        memcpy(bad, gz, zlen);
        bad[at] ^= 0x55;
        assert_int_equal(tokio_input_open_mem(&in, bad, zlen, "flip.gz"),
                         TOKIO_OK);
        assert_int_equal(count_lines(in, &count), TOKIO_EFORMAT);
        assert_contains(tokio_errmsg(), "'flip.gz' line ");
        assert_contains(tokio_errmsg(), "gzip data");
        tokio_input_close(in);
    }
    /* compression method 9 does not exist */
    memcpy(bad, gz, zlen);
    bad[2] = 9;
    assert_int_equal(tokio_input_open_mem(&in, bad, zlen, "method.gz"),
                     TOKIO_OK);
    assert_int_equal(count_lines(in, &count), TOKIO_EFORMAT);
    assert_int_equal(count, 0);
    assert_contains(tokio_errmsg(), "'method.gz' line 1: corrupt gzip data: "
                    "unknown compression method");
    tokio_input_close(in);
    for (size_t at = 10; at < blen; at += blen / 11) {
        memcpy(bad, bz, blen);
        bad[at] ^= 0x21;
        assert_int_equal(tokio_input_open_mem(&in, bad, blen, "flip.bz2"),
                         TOKIO_OK);
        assert_int_equal(count_lines(in, &count), TOKIO_EFORMAT);
        assert_contains(tokio_errmsg(), "'flip.bz2' line ");
        assert_contains(tokio_errmsg(), "corrupt bzip2 data");
        tokio_input_close(in);
    }
    /* a header CRC (FLG.FHCRC), checked as gzip(1) checks it */
    unsigned char *hcrc = malloc(zlen + 2);
    uint32_t crc16;
    assert_non_null(hcrc);
    memcpy(hcrc, gz, 10);
    hcrc[3] |= 2;
    crc16 = (uint32_t)crc32(0, hcrc, 10) & 0xffff;
    hcrc[10] = (unsigned char)(crc16 & 0xff);
    hcrc[11] = (unsigned char)(crc16 >> 8);
    memcpy(hcrc + 12, gz + 10, zlen - 10);
    assert_int_equal(tokio_input_open_mem(&in, hcrc, zlen + 2, "hcrc.gz"),
                     TOKIO_OK);
    assert_int_equal(count_lines(in, &count), TOKIO_OK);
    assert_int_equal(count, 3000);
    tokio_input_close(in);
    hcrc[11] ^= 1;
    assert_int_equal(tokio_input_open_mem(&in, hcrc, zlen + 2, "hcrc.gz"),
                     TOKIO_OK);
    assert_int_equal(count_lines(in, &count), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'hcrc.gz' line 1: corrupt gzip data: "
                    "header crc mismatch");
    tokio_input_close(in);
    free(hcrc);
    /* "BZh" with no valid block size after it */
    assert_int_equal(tokio_input_open_mem(&in, "BZhx\n", 5, "magic"),
                     TOKIO_OK);
    assert_int_equal(count_lines(in, &count), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'magic' line 1: corrupt bzip2 data");
    tokio_input_close(in);
    free(bad);
    free(bz);
    free(gz);
    free(text);
}

/* Read `path` whole: the status, and the bytes compared with `want`. */
static int
read_file_equal(const char *path, const unsigned char *want, size_t len)
{
    unsigned char *buf;
    size_t n;
    int rc = tokio_read_file(path, 0, &buf, &n);

    if (rc == TOKIO_OK) {
        assert_int_equal(n, len);
        assert_memory_equal(buf, want, len);
        free(buf);
    }
    return rc;
}

/*
 * The trailer (CRC-32 and length) is checked wherever it lies: stored
 * (level 0) members of sizes that put the trailer on each side of and
 * across the first 64 KiB read of the file, alone and followed by a
 * second member.  Each of its 8 bytes flipped fails with zlib's words
 * for it, after the file's name.
 */
static void
test_input_gzip_trailer_checked_across_reads(void **state)
{
    const size_t chunk = (size_t)64 << 10;
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    unsigned char *data = malloc(chunk + 256);
    size_t straddled = 0;

    (void)state;
    assert_non_null(data);
    for (size_t i = 0; i < chunk + 256; i++)
        data[i] = (unsigned char)(i * 2654435761u >> 13);
    snprintf(path, sizeof(path), "%s/t.gz", dir);
    for (size_t len = chunk - 64; len < chunk + 16; len++) {
        size_t zlen;
        unsigned char *z = gzip_level_bytes(data, len, 0, &zlen);
        unsigned char *two = malloc(2 * zlen);
        unsigned char *want = malloc(2 * len);

        assert_non_null(two);
        assert_non_null(want);
        if (zlen - 8 < chunk && zlen > chunk)
            straddled++;
        tokio_test_write_file(path, z, zlen);
        assert_int_equal(read_file_equal(path, data, len), TOKIO_OK);
        /* two members: the first one's trailer is checked mid-file */
        memcpy(two, z, zlen);
        memcpy(two + zlen, z, zlen);
        memcpy(want, data, len);
        memcpy(want + len, data, len);
        tokio_test_write_file(path, two, 2 * zlen);
        assert_int_equal(read_file_equal(path, want, 2 * len), TOKIO_OK);
        for (size_t k = 0; k < 8; k++) {
            z[zlen - 8 + k] ^= 0x40;
            tokio_test_write_file(path, z, zlen);
            assert_int_equal(read_file_equal(path, data, len),
                             TOKIO_EFORMAT);
            assert_contains(tokio_errmsg(), path);
            assert_contains(tokio_errmsg(), k < 4
                            ? "corrupt gzip data: incorrect data check"
                            : "corrupt gzip data: incorrect length check");
            z[zlen - 8 + k] ^= 0x40;
        }
        free(want);
        free(two);
        free(z);
    }
    /* the sizes above did put some trailers across the read */
    assert_true(straddled >= 7);
    tokio_test_rmtree(dir);
    free(dir);
    free(data);
}

static void
test_input_missing_file_is_eio_naming_path(void **state)
{
    struct tokio_input *in = (struct tokio_input *)1;
    unsigned char *buf = (unsigned char *)1;
    size_t len = 1;

    (void)state;
    assert_int_equal(tokio_input_open(&in, "/nonexistent/tokio/x.gz"),
                     TOKIO_EIO);
    assert_null(in);
    assert_contains(tokio_errmsg(),
                    "cannot open '/nonexistent/tokio/x.gz': No such file");
    assert_int_equal(tokio_read_file("/nonexistent/y", 0, &buf, &len),
                     TOKIO_EIO);
    assert_null(buf);
    assert_contains(tokio_errmsg(), "'/nonexistent/y'");
    /* a folder opens but cannot be read */
    char *dir = tokio_test_mkdtemp();
    assert_int_equal(tokio_input_open(&in, dir), TOKIO_EIO);
    assert_null(in);
    assert_contains(tokio_errmsg(), dir);
    tokio_test_rmtree(dir);
    free(dir);
}

/* ---- anomalies ---- */

/* Open and read every line of `path`; each allocation in turn fails. */
static void
oom_loop_over(const char *path, const void *mem, size_t mem_len)
{
    for (size_t n = 1;; n++) {
        struct tokio_input *in = NULL;
        size_t count = 0;
        int rc;

        tokio_test_fail_alloc_at(n);
        rc = mem ? tokio_input_open_mem(&in, mem, mem_len, "oom")
                 : tokio_input_open(&in, path);
        if (rc == TOKIO_OK)
            rc = read_numbered(in, &count);
        tokio_test_fail_alloc_at(0);
        tokio_input_close(in);
        if (rc == TOKIO_OK) {
            assert_int_equal(count, 3000);
            assert_true(n > 3);
            break;
        }
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_contains(tokio_errmsg(), "out of memory");
        assert_true(n < 1000);
    }
}

static void
test_input_open_getline_survives_every_oom(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char path[4096];
    size_t tlen, zlen, blen;
    char *text = numbered_lines(3000, &tlen);
    unsigned char *gz, *bz;

    (void)state;
    /* 3000 lines are 69 KB, so one crosses the 64 KiB chunk boundary
     * and is joined: the line buffer's allocation is reached too */
    assert_true(tlen > 65536);
    gz = gzip_bytes(text, tlen, &zlen);
    bz = bzip2_bytes(text, tlen, &blen);
    snprintf(path, sizeof(path), "%s/oom.gz", dir);
    tokio_test_write_file(path, gz, zlen);
    oom_loop_over(path, NULL, 0);
    oom_loop_over(NULL, gz, zlen);
    oom_loop_over(NULL, bz, blen);
    oom_loop_over(NULL, text, tlen);
    free(gz);
    free(bz);
    free(text);
    tokio_test_rmtree(dir);
    free(dir);
}

/* tokio__read_whole_fd() (src/core/fdio.c) on a pipe of `n` bytes after
 * `head_len` bytes of head: 0 with the bytes NUL-ended, or -1 and errno. */
static int
read_pipe(const char *head, size_t head_len, size_t n, size_t max,
          size_t hint, unsigned char **buf, size_t *len)
{
    char body[6000];
    int fds[2], rc;

    assert_true(n <= sizeof(body));
    for (size_t i = 0; i < n; i++)
        body[i] = (char)('a' + i % 26);
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], body, n), (ssize_t)n);
    close(fds[1]);
    rc = tokio__read_whole_fd(fds[0], head, head_len, max, hint, buf, len);
    close(fds[0]);
    if (rc == 0) {
        assert_memory_equal(*buf, head, head_len);
        assert_memory_equal(*buf + head_len, body, n);
        assert_int_equal((*buf)[*len], '\0');
    }
    return rc;
}

static int
read_pipe_trial(void *ctx)
{
    unsigned char *buf = NULL;
    size_t len;

    (void)ctx;
    if (read_pipe("", 0, 5000, 6000, 0, &buf, &len) == 0) {
        free(buf);
        return TOKIO_OK;
    }
    return errno == ENOMEM ? TOKIO_ENOMEM : TOKIO_EIO;
}

static void
test_read_whole_fd_grows_and_bounds(void **state)
{
    unsigned char *buf = NULL;
    size_t len = 99;

    (void)state;
    /* empty, no head: an empty NUL-ended buffer */
    assert_int_equal(read_pipe("", 0, 0, 10, 0, &buf, &len), 0);
    assert_int_equal(len, 0);
    free(buf);
    /* a head and 5000 bytes, past the first 4 KiB of room */
    assert_int_equal(read_pipe("3.41", 4, 5000, 6000, 0, &buf, &len), 0);
    assert_int_equal(len, 5004);
    free(buf);
    /* exactly `max`, a wrong hint either way */
    assert_int_equal(read_pipe("xy", 2, 5998, 6000, 10, &buf, &len), 0);
    assert_int_equal(len, 6000);
    free(buf);
    assert_int_equal(read_pipe("", 0, 100, 100, 5000, &buf, &len), 0);
    assert_int_equal(len, 100);
    free(buf);
    /* one byte more than `max`, in the body or already in the head */
    assert_int_equal(read_pipe("xy", 2, 5999, 6000, 0, &buf, &len), -1);
    assert_int_equal(errno, EFBIG);
    assert_null(buf);
    assert_int_equal(len, 0);
    assert_int_equal(read_pipe("abc", 3, 0, 2, 0, &buf, &len), -1);
    assert_int_equal(errno, EFBIG);
    /* out of memory at the first room and at growing */
    tokio_test_every_oom(read_pipe_trial, NULL, 1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_input_ost_fullness_matches_zcat),
        cmocka_unit_test(test_input_plain_lines_crlf_and_last_without_newline),
        cmocka_unit_test(test_input_nul_inside_line_keeps_true_length),
        cmocka_unit_test(test_input_empty_file_has_no_lines),
        cmocka_unit_test(test_input_long_line_spans_chunks),
        cmocka_unit_test(test_input_line_over_256mib_is_eformat),
        cmocka_unit_test(test_input_gzip_detected_by_content_not_name),
        cmocka_unit_test(test_input_gzip_concatenated_members),
        cmocka_unit_test(test_input_bzip2_streams_and_trailing_garbage),
        cmocka_unit_test(test_input_bzip2_file_read_whole),
        cmocka_unit_test(test_input_read_in_pieces_after_getline),
        cmocka_unit_test(test_input_gzip_many_chunks_lines_then_bytes),
        cmocka_unit_test(test_input_read_all_over_max_is_eformat),
        cmocka_unit_test(test_input_stdin_is_dash),
        cmocka_unit_test(test_input_truncated_gzip_names_input_and_line),
        cmocka_unit_test(test_input_truncated_bzip2_names_input_and_line),
        cmocka_unit_test(test_input_corrupt_bytes_are_eformat),
        cmocka_unit_test(test_input_gzip_trailer_checked_across_reads),
        cmocka_unit_test(test_input_missing_file_is_eio_naming_path),
        cmocka_unit_test(test_input_open_getline_survives_every_oom),
        cmocka_unit_test(test_read_whole_fd_grows_and_bounds),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
