/*
 * src/core/input.c - plain, gzip and bzip2 inputs, read by line or by byte.
 *
 * Every connector that reads text goes through here, so that a log being
 * gzipped by a rotation script, or bzipped by an archiver, changes nothing
 * for its reader.  The compression is recognised by the first bytes, never
 * by the name (pytokio goes by the ".gz" suffix, which misses renamed
 * files).
 *
 * Three layers, bottom up: raw bytes (a file descriptor or a caller's
 * buffer), one decoder per codec turning raw bytes into decompressed
 * chunks, and line splitting over those chunks.  A damaged compressed
 * stream is always an error: a reader that silently stops at the damage
 * would hand a connector a shorter log that looks complete.  zlib and
 * libbzip2 check what they decompress (CRC and length); their words for a
 * failed check end up in our message, after the input's name.
 */
#include "tokio/input.h"

#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define ZLIB_CONST
#include <zlib.h>

#include "core/alloc.h"
#include "core/connector.h"
#include "core/error.h"
#include "core/fdio.h"

/* Compressed bytes are read, and decompressed bytes produced, in chunks of
 * this size: large enough that syscalls and decoder calls are amortised. */
#define CHUNK_SIZE ((size_t)64 << 10)

/* No monitoring format has lines anywhere near this long; a longer one is
 * corrupt or hostile input, and buffering it would only exhaust memory. */
#define LINE_MAX_LEN ((size_t)256 << 20)

/* zlib and libbzip2 count bytes in unsigned int: feed them less. */
#define CODEC_FEED_MAX ((size_t)1 << 30)

/* gzip: RFC 1952 section 2.3.1.  bzip2: "BZh" then the block size digit. */
static const unsigned char gzip_magic[] = { 0x1f, 0x8b };
static const unsigned char bzip2_magic[] = { 'B', 'Z', 'h' };

enum codec { CODEC_PLAIN, CODEC_GZIP, CODEC_BZIP2 };

struct tokio_input {
    char *name;
    int fd;                     /* -1: the raw bytes are in `mem` */
    int close_fd;               /* 0 for standard input, which we borrow */
    const unsigned char *mem;   /* open_mem: the caller's bytes */
    size_t mem_len, mem_pos;
    unsigned char *raw;         /* fd: compressed bytes read, CHUNK_SIZE */
    size_t raw_pos, raw_len;
    int raw_eof;

    enum codec codec;
    z_stream z;
    int z_live;                 /* inflateInit2 succeeded: inflateEnd due */
    bz_stream bz;
    int bz_live;
    int between;                /* a gzip member just ended */
    size_t members;             /* gzip members or bzip2 streams finished */

    unsigned char *buf;         /* decompressed, CHUNK_SIZE + 1 for a NUL */
    size_t pos, len;
    uint64_t produced;          /* decompressed bytes so far, for messages */
    int eof;

    char *line;                 /* a line that spans chunks is joined here */
    size_t line_len, line_cap;
    size_t lineno;
    int by_line;                /* getline was used: messages give lines */
    int failed;                 /* the first error's status, kept */
};

/*
 * Record a failure of the decoder and keep its status, so that a caller
 * retrying after an error cannot read past damaged data as if it were
 * not there.  Says where: the line being read, or the decompressed byte.
 */
static int
fail(struct tokio_input *in, int status, const char *what,
     const char *detail)
{
    const char *sep = detail != NULL ? ": " : "";

    in->failed = status;
    if (detail == NULL)
        detail = "";
    if (in->by_line)
        return tokio__error(status, "'%s' line %zu: %s%s%s", in->name,
                            in->lineno + 1, what, sep, detail);
    return tokio__error(status, "'%s' at byte %ju: %s%s%s", in->name,
                        (uintmax_t)in->produced, what, sep, detail);
}

/* Read more raw bytes from the descriptor into the free end of `raw`. */
static int
raw_read(struct tokio_input *in)
{
    ssize_t r;

    r = tokio__read(in->fd, in->raw + in->raw_len, CHUNK_SIZE - in->raw_len);
    if (r < 0) {
        in->failed = TOKIO_EIO;
        return tokio__error(TOKIO_EIO, "cannot read '%s': %s", in->name,
                            strerror(errno));
    }
    if (r == 0)
        in->raw_eof = 1;
    in->raw_len += (size_t)r;
    return TOKIO_OK;
}

/* Point `*p` at the next raw bytes; `*n` is 0 only at the end. */
static int
raw_peek(struct tokio_input *in, const unsigned char **p, size_t *n)
{
    int rc;

    if (in->fd < 0) {
        size_t left = in->mem_len - in->mem_pos;

        *p = in->mem + in->mem_pos;
        *n = left < CODEC_FEED_MAX ? left : CODEC_FEED_MAX;
        return TOKIO_OK;
    }
    if (in->raw_pos == in->raw_len && !in->raw_eof) {
        in->raw_pos = in->raw_len = 0;
        if ((rc = raw_read(in)) < 0)
            return rc;
    }
    *p = in->raw + in->raw_pos;
    *n = in->raw_len - in->raw_pos;
    return TOKIO_OK;
}

static void
raw_skip(struct tokio_input *in, size_t n)
{
    if (in->fd < 0)
        in->mem_pos += n;
    else
        in->raw_pos += n;
}

static int
plain_fill(struct tokio_input *in, unsigned char *dst, size_t size,
           size_t *n_out)
{
    const unsigned char *p;
    size_t avail;
    int rc;

    if ((rc = raw_peek(in, &p, &avail)) < 0)
        return rc;
    if (avail > size)
        avail = size;
    memcpy(dst, p, avail);
    raw_skip(in, avail);
    *n_out = avail;
    return TOKIO_OK;
}

/*
 * After a member, gzip(1) goes on to the next one (what `cat a.gz b.gz`
 * makes) and skips NUL padding (tape blocks), as Python's gzip module
 * does.  Anything else after a member is an error here, as in Python
 * (gzip(1) warns and exits 2): such a file was damaged or mis-written.
 */
static int
gzip_next_member(struct tokio_input *in, int *done)
{
    const unsigned char *p;
    size_t avail, k;
    int rc;

    *done = 0;
    for (;;) {
        if ((rc = raw_peek(in, &p, &avail)) < 0)
            return rc;
        if (avail == 0) {
            *done = 1;
            return TOKIO_OK;
        }
        for (k = 0; k < avail && p[k] == 0; k++)
            ;
        raw_skip(in, k);
        if (k < avail)
            break;
    }
    if (p[k] != gzip_magic[0])
        return fail(in, TOKIO_EFORMAT, "trailing garbage after gzip data",
                    NULL);
    if (inflateReset(&in->z) != Z_OK)
        return fail(in, TOKIO_ERR, "cannot restart the gzip decoder", NULL);
    in->between = 0;
    return TOKIO_OK;
}

static int
gzip_fill(struct tokio_input *in, unsigned char *dst, size_t size,
          size_t *n_out)
{
    for (;;) {
        const unsigned char *p;
        size_t avail;
        int rc, ret, done;

        if (in->between) {
            if ((rc = gzip_next_member(in, &done)) < 0)
                return rc;
            if (done)
                return TOKIO_OK;
        }
        if ((rc = raw_peek(in, &p, &avail)) < 0)
            return rc;
        in->z.next_in = p;
        in->z.avail_in = (uInt)avail;
        in->z.next_out = dst;
        in->z.avail_out = (uInt)size;
        ret = inflate(&in->z, Z_NO_FLUSH);
        raw_skip(in, avail - in->z.avail_in);
        *n_out = size - in->z.avail_out;
        switch (ret) {
        case Z_STREAM_END:
            in->between = 1;
            in->members++;
            break;
        case Z_OK:
        case Z_BUF_ERROR:
            /* No progress happens only when the input ran out
             * mid-member; the second test guards against looping. */
            if (avail == 0 && *n_out == 0)
                return fail(in, TOKIO_EFORMAT, "truncated gzip data", NULL);
            if (avail == in->z.avail_in && *n_out == 0)
                return fail(in, TOKIO_EFORMAT, "corrupt gzip data",
                            "decoder made no progress");
            break;
        case Z_MEM_ERROR:
            return fail(in, TOKIO_ENOMEM, "out of memory decompressing",
                        NULL);
        case Z_NEED_DICT:
            return fail(in, TOKIO_EFORMAT, "corrupt gzip data",
                        "needs a preset dictionary");
        default:        /* a failed CRC or length check among them */
            return fail(in, TOKIO_EFORMAT, "corrupt gzip data",
                        in->z.msg != NULL ? in->z.msg : "unknown error");
        }
        if (*n_out > 0)
            return TOKIO_OK;
    }
}

static int
bzip2_start_stream(struct tokio_input *in)
{
    int ret;

    memset(&in->bz, 0, sizeof(in->bz));
    in->bz.bzalloc = tokio__bz2_alloc;
    in->bz.bzfree = tokio__bz2_free;
    ret = BZ2_bzDecompressInit(&in->bz, 0, 0);
    if (ret == BZ_MEM_ERROR)
        return fail(in, TOKIO_ENOMEM, "out of memory decompressing", NULL);
    if (ret != BZ_OK)
        return fail(in, TOKIO_ERR, "cannot start the bzip2 decoder", NULL);
    in->bz_live = 1;
    return TOKIO_OK;
}

/*
 * Streams follow each other as in gzip (pbzip2 writes many).  Bytes after
 * the last stream that do not start another one are ignored, as bzip2(1)
 * and Python's bz2 module do; a second stream that starts and breaks off
 * is still an error.
 */
static int
bzip2_fill(struct tokio_input *in, unsigned char *dst, size_t size,
           size_t *n_out)
{
    for (;;) {
        const unsigned char *p;
        size_t avail, used;
        int rc, ret;

        if ((rc = raw_peek(in, &p, &avail)) < 0)
            return rc;
        if (!in->bz_live) {
            if (in->members > 0 && avail == 0)
                return TOKIO_OK;
            if ((rc = bzip2_start_stream(in)) < 0)
                return rc;
        }
        in->bz.next_in = (char *)p;     /* libbzip2 never writes to it */
        in->bz.avail_in = (unsigned int)avail;
        in->bz.next_out = (char *)dst;
        in->bz.avail_out = (unsigned int)size;
        ret = BZ2_bzDecompress(&in->bz);
        used = avail - in->bz.avail_in;
        raw_skip(in, used);
        *n_out = size - in->bz.avail_out;
        switch (ret) {
        case BZ_STREAM_END:
            BZ2_bzDecompressEnd(&in->bz);
            in->bz_live = 0;
            in->members++;
            break;
        case BZ_OK:
            if (avail == 0 && *n_out == 0)
                return fail(in, TOKIO_EFORMAT, "truncated bzip2 data",
                            NULL);
            if (used == 0 && *n_out == 0)
                return fail(in, TOKIO_EFORMAT, "corrupt bzip2 data",
                            "decoder made no progress");
            break;
        case BZ_DATA_ERROR_MAGIC:
            if (in->members > 0) {
                in->eof = 1;    /* trailing garbage: see above */
                return TOKIO_OK;
            }
            return fail(in, TOKIO_EFORMAT, "corrupt bzip2 data",
                        "bad magic");
        case BZ_MEM_ERROR:
            return fail(in, TOKIO_ENOMEM, "out of memory decompressing",
                        NULL);
        default:
            return fail(in, TOKIO_EFORMAT, "corrupt bzip2 data", NULL);
        }
        if (*n_out > 0)
            return TOKIO_OK;
    }
}

/* Decompress into `dst`: at least one byte, or none at end of input. */
static int
fill(struct tokio_input *in, unsigned char *dst, size_t size,
     size_t *n_out)
{
    int rc;

    *n_out = 0;
    if (in->failed)
        return tokio__error(in->failed,
                            "'%s': cannot read on after an earlier error",
                            in->name);
    if (in->eof)
        return TOKIO_OK;
    if (size > CODEC_FEED_MAX)
        size = CODEC_FEED_MAX;
    switch (in->codec) {
    case CODEC_GZIP:
        rc = gzip_fill(in, dst, size, n_out);
        break;
    case CODEC_BZIP2:
        rc = bzip2_fill(in, dst, size, n_out);
        break;
    default:
        rc = plain_fill(in, dst, size, n_out);
        break;
    }
    if (rc < 0) {
        *n_out = 0;
        return rc;
    }
    in->produced += *n_out;
    if (*n_out == 0)
        in->eof = 1;
    return TOKIO_OK;
}

/* Pick the decoder from the first raw bytes. */
static int
start_codec(struct tokio_input *in)
{
    const unsigned char *p;
    size_t n;
    int rc;

    if ((rc = raw_peek(in, &p, &n)) < 0)
        return rc;
    if (n >= sizeof(gzip_magic)
        && memcmp(p, gzip_magic, sizeof(gzip_magic)) == 0) {
        in->codec = CODEC_GZIP;
        in->z.zalloc = tokio__zlib_alloc;
        in->z.zfree = tokio__zlib_free;
        /* 16 + MAX_WBITS: gzip wrapper only, the largest window */
        rc = inflateInit2(&in->z, 16 + MAX_WBITS);
        if (rc == Z_MEM_ERROR)
            return tokio__error(TOKIO_ENOMEM, "out of memory opening '%s'",
                                in->name);
        if (rc != Z_OK)
            return tokio__error(TOKIO_ERR, "'%s': cannot start the gzip "
                                "decoder (zlib %s)", in->name, zlibVersion());
        in->z_live = 1;
    } else if (n >= sizeof(bzip2_magic)
               && memcmp(p, bzip2_magic, sizeof(bzip2_magic)) == 0) {
        in->codec = CODEC_BZIP2;    /* decoder started on first read */
    } else {
        in->codec = CODEC_PLAIN;
    }
    return TOKIO_OK;
}

static int
input_new(struct tokio_input **out, const char *name)
{
    struct tokio_input *in = tokio__calloc(1, sizeof(*in));

    *out = NULL;
    if (in == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory opening '%s'",
                            name);
    in->fd = -1;
    in->name = tokio__strdup(name);
    in->buf = tokio__malloc(CHUNK_SIZE + 1);
    if (in->name == NULL || in->buf == NULL) {
        tokio_input_close(in);
        return tokio__error(TOKIO_ENOMEM, "out of memory opening '%s'",
                            name);
    }
    *out = in;
    return TOKIO_OK;
}

int
tokio_input_open(struct tokio_input **out, const char *path)
{
    struct tokio_input *in = NULL;
    int rc = TOKIO_OK;

    if (out == NULL || path == NULL)
        return tokio__error(TOKIO_EINVAL, "tokio_input_open: no %s",
                            out == NULL ? "output" : "path");
    *out = NULL;
    if ((rc = input_new(&in, path)) < 0)
        return rc;
    in->raw = tokio__malloc(CHUNK_SIZE);
    if (in->raw == NULL) {
        tokio_input_close(in);
        return tokio__error(TOKIO_ENOMEM, "out of memory opening '%s'",
                            path);
    }
    if (strcmp(path, "-") == 0) {
        in->fd = STDIN_FILENO;
    } else {
        in->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (in->fd < 0) {
            int err = errno;

            tokio_input_close(in);
            return tokio__error(TOKIO_EIO, "cannot open '%s': %s", path,
                                strerror(err));
        }
        in->close_fd = 1;
    }
    /* A pipe may deliver the magic bytes in pieces: wait for enough. */
    while (in->raw_len < 3 && !in->raw_eof)
        if ((rc = raw_read(in)) < 0)
            break;
    if (rc < 0 || (rc = start_codec(in)) < 0) {
        tokio_input_close(in);
        return rc;
    }
    *out = in;
    return TOKIO_OK;
}

int
tokio_input_open_mem(struct tokio_input **out, const void *buf, size_t len,
                     const char *name)
{
    struct tokio_input *in = NULL;
    int rc;

    if (out == NULL || (buf == NULL && len > 0))
        return tokio__error(TOKIO_EINVAL, "tokio_input_open_mem: no %s",
                            out == NULL ? "output" : "buffer");
    *out = NULL;
    if ((rc = input_new(&in, name != NULL ? name : "<memory>")) < 0)
        return rc;
    in->mem = buf;
    in->mem_len = len;
    if ((rc = start_codec(in)) < 0) {
        tokio_input_close(in);
        return rc;
    }
    *out = in;
    return TOKIO_OK;
}

/* Add `n` bytes to the line being joined, within LINE_MAX_LEN. */
static int
line_append(struct tokio_input *in, const unsigned char *p, size_t n)
{
    if (n > LINE_MAX_LEN - in->line_len)
        return fail(in, TOKIO_EFORMAT, "line longer than 256 MiB", NULL);
    if (in->line_len + n + 1 > in->line_cap) {
        size_t cap = in->line_cap ? in->line_cap : 256;
        char *line;

        while (cap < in->line_len + n + 1)
            cap *= 2;
        if (cap > LINE_MAX_LEN + 1)
            cap = LINE_MAX_LEN + 1;
        if ((line = tokio__realloc(in->line, cap)) == NULL)
            return fail(in, TOKIO_ENOMEM, "out of memory", NULL);
        in->line = line;
        in->line_cap = cap;
    }
    memcpy(in->line + in->line_len, p, n);
    in->line_len += n;
    return TOKIO_OK;
}

static int
emit(struct tokio_input *in, char *line, size_t len, const char **line_out,
     size_t *len_out)
{
    line[len] = '\0';
    in->lineno++;
    *line_out = line;
    if (len_out != NULL)
        *len_out = len;
    return TOKIO_OK;
}

int
tokio_input_getline(struct tokio_input *in, const char **line_out,
                    size_t *len_out)
{
    int joined = 0, ended = 0, rc;

    *line_out = NULL;
    if (len_out != NULL)
        *len_out = 0;
    in->by_line = 1;
    in->line_len = 0;
    for (;;) {
        if (in->pos < in->len) {
            unsigned char *start = in->buf + in->pos;
            unsigned char *nl = memchr(start, '\n', in->len - in->pos);
            size_t n = nl != NULL ? (size_t)(nl - start) : in->len - in->pos;

            if (nl != NULL && !joined) {
                /* The common case: the whole line is in the chunk, so
                 * hand it out in place, the '\n' becoming its NUL. */
                in->pos += n + 1;
                if (n > 0 && start[n - 1] == '\r')
                    n--;
                return emit(in, (char *)start, n, line_out, len_out);
            }
            if ((rc = line_append(in, start, n)) < 0)
                return rc;
            joined = 1;
            in->pos += n;
            if (nl != NULL) {
                in->pos++;
                ended = 1;
                break;
            }
        }
        in->pos = 0;
        if ((rc = fill(in, in->buf, CHUNK_SIZE, &in->len)) < 0)
            return rc;
        if (in->len == 0) {
            if (!joined)
                return TOKIO_OK;        /* end of input */
            break;                      /* last line without '\n' */
        }
    }
    if (ended && in->line_len > 0 && in->line[in->line_len - 1] == '\r')
        in->line_len--;
    return emit(in, in->line, in->line_len, line_out, len_out);
}

size_t
tokio_input_lineno(const struct tokio_input *in)
{
    return in->lineno;
}

int
tokio_input_read(struct tokio_input *in, void *buf, size_t size,
                 size_t *n_out)
{
    *n_out = 0;
    if (size == 0)
        return tokio__error(TOKIO_EINVAL, "'%s': read of 0 bytes",
                            in->name);
    if (in->pos < in->len) {
        size_t n = in->len - in->pos;

        if (n > size)
            n = size;
        memcpy(buf, in->buf + in->pos, n);
        in->pos += n;
        *n_out = n;
        return TOKIO_OK;
    }
    return fill(in, buf, size, n_out);
}

/* For a plain regular file, its size plus one (room to see the end in
 * one read), else `dflt`. */
static size_t
plain_size_hint(const struct tokio_input *in, size_t dflt)
{
    struct stat st;

    if (in->codec != CODEC_PLAIN || in->fd < 0 || fstat(in->fd, &st) != 0 ||
        !S_ISREG(st.st_mode) || st.st_size <= 0 ||
        (uint64_t)st.st_size >= SIZE_MAX / 2)
        return dflt;
    return (size_t)st.st_size + 1 > dflt ? (size_t)st.st_size + 1 : dflt;
}

int
tokio_input_read_all(struct tokio_input *in, size_t max,
                     unsigned char **buf_out, size_t *len_out)
{
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0, n;
    int rc;

    *buf_out = NULL;
    if (len_out != NULL)
        *len_out = 0;
    if (max == 0)
        max = TOKIO_INPUT_DEFAULT_MAX;
    if (max > SIZE_MAX - 2)
        max = SIZE_MAX - 2;
    for (;;) {
        if (len == cap) {
            /* Room for one byte past `max`: reading it proves the input
             * too long without holding more than max + 1 bytes.  A plain
             * file's size is known: room for it and the end at once. */
            size_t want = cap < CHUNK_SIZE ? CHUNK_SIZE : cap;
            if (cap == 0)
                want = plain_size_hint(in, want);
            unsigned char *grown;

            want = want > max + 1 - cap ? max + 1 : cap + want;
            if ((grown = tokio__realloc(buf, want + 1)) == NULL) {
                free(buf);
                return tokio__error(TOKIO_ENOMEM,
                                    "out of memory reading '%s'", in->name);
            }
            buf = grown;
            cap = want;
        }
        if ((rc = tokio_input_read(in, buf + len, cap - len, &n)) < 0) {
            free(buf);
            return rc;
        }
        if (n == 0)
            break;
        len += n;
        if (len > max) {
            free(buf);
            return tokio__error(TOKIO_EFORMAT,
                                "'%s': more than %zu bytes after "
                                "decompression", in->name, max);
        }
    }
    buf[len] = '\0';
    *buf_out = buf;
    if (len_out != NULL)
        *len_out = len;
    return TOKIO_OK;
}

const char *
tokio_input_name(const struct tokio_input *in)
{
    return in->name;
}

void
tokio_input_close(struct tokio_input *in)
{
    if (in == NULL)
        return;
    if (in->z_live)
        inflateEnd(&in->z);
    if (in->bz_live)
        BZ2_bzDecompressEnd(&in->bz);
    if (in->close_fd)
        close(in->fd);
    free(in->line);
    free(in->buf);
    free(in->raw);
    free(in->name);
    free(in);
}

int
tokio_read_file(const char *path, size_t max, unsigned char **buf_out,
                size_t *len_out)
{
    struct tokio_input *in;
    int rc;

    *buf_out = NULL;
    if (len_out != NULL)
        *len_out = 0;
    if ((rc = tokio_input_open(&in, path)) < 0)
        return rc;
    rc = tokio_input_read_all(in, max, buf_out, len_out);
    tokio_input_close(in);
    return rc;
}

int
tokio__input_map(struct tokio_input *in, size_t max,
                 const unsigned char **p, size_t *len)
{
    struct stat st;
    void *m;

    *p = NULL;
    *len = 0;
    /* a file opened by name (standard input may be a regular file at
     * any offset), plain, none of it handed out yet */
    if (in == NULL || !in->close_fd || in->codec != CODEC_PLAIN ||
        in->produced != 0 || in->len != 0 || fstat(in->fd, &st) != 0 ||
        !S_ISREG(st.st_mode) || st.st_size <= 0 ||
        (uint64_t)st.st_size > (uint64_t)max)
        return 1;
    m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, in->fd, 0);
    if (m == MAP_FAILED)
        return 1;
    (void)madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
    *p = m;
    *len = (size_t)st.st_size;
    return 0;
}
