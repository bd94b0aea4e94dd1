/*
 * src/connectors/darshan.c - Darshan binary logs: header, compressed
 * regions, job record, mount table and name table, the public accessors,
 * and the `darshan-parser --base` text view.  Per-module record layouts
 * live in darshan_modules.c.
 *
 * Reads log format versions 3.00, 3.10, 3.20, 3.21 and 3.41 (what
 * darshan-util 3.5.0 accepts), zlib/bzip2/uncompressed, either byte
 * order.  Facts: darshan-util 3.5.0 (darshan-hpc/darshan at 45bcba8e),
 * as the fact sheet ../shared/notes/darshan-log-format.md beside the
 * project sums it up (cited as §N).  Mirrors tokio.connectors.darshan,
 * which ran darshan-parser instead.  Test inputs: testdata/darshan-logs,
 * darshan-logs-derived, pytokio-inputs, and logs made with
 * darshan_writer.c.
 *
 * Differs from darshan-parser: nothing is ever fatal after the header
 * (partial modules are shown as with --show-incomplete, and the open
 * returns TOKIO_PARTIAL), and every length read from the file is bounded.
 *
 * Speed kept on purpose (logs by the thousand, logs of gigabytes):
 * fixed-size records are decoded from 16 KiB pieces of a region as it is
 * inflated, never from the region held whole, and records a caller folds
 * (tokio_darshan_open_select()) are never held at all.  zlib regions are
 * inflated raw so that a missing header or trailer is told as such, and
 * their Adler-32 is zlib's adler32_z(): a hand-written SSE2 sum saved a
 * fifth of the CPU of cache-darshan --total (0.78 against 0.98 s on a
 * million-record log), not the doubling that would justify it.
 */
#include "tokio/connectors/darshan.h"

#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "connectors/darshan_private.h"
#include "connectors/darshan_text.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/fdio.h"

/* §3: header layouts. */
#define MAGIC_NR            INT64_C(6567223)
#define OLD_HEADER_SIZE     360     /* 3.00 - 3.21: 16 slots */
#define OLD_SLOTS           16
#define NEW_HEADER_SIZE     1328    /* 3.41: 64 slots */
#define NEW_SLOTS           64
#define VERSION_LEN         8

/* §5: darshan-util reads at most this much of the job region and needs
 * more than the 3.41 struct (1080 bytes). */
#define JOB_RECORD_SIZE     4096
#define JOB_STRUCT_NEW      1080
#define JOB_STRUCT_OLD      1064
#define JOB_METADATA_LEN    1024

/*
 * Decompression bounds.  A corrupt map can point a small region at an
 * inflater that never stops (zlib reaches ~1000:1); real Darshan regions
 * inflate 2-30x (samples: at most ~23x, many zero counters).  64x + 1 MiB
 * covers that with room, and 1 GiB bounds the whole region absolutely.
 */
#define INFLATE_RATIO       64
#define INFLATE_SLACK       (1u << 20)
#define INFLATE_ABS_CAP     (UINT64_C(1) << 30)

static const char *
region_name(int mod, char *buf, size_t size)
{
    const char *n = tokio_darshan_module_name(mod);

    if (mod == -2)
        return "job region";
    if (mod == -1)
        return "name region";
    if (n != NULL)
        snprintf(buf, size, "%s module region", n);
    else
        snprintf(buf, size, "module %d region", mod);
    return buf;
}

/* ---- regions -------------------------------------------------------- */

static int
nomem(const struct tokio_darshan *log)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                        log->logname);
}

static int
grow(const struct tokio_darshan *log, unsigned char **buf, size_t *cap,
     size_t need, size_t limit)
{
    size_t c = *cap ? *cap : 4096;

    while (c < need)
        c *= 2;
    if (c > limit)
        c = limit;
    unsigned char *b = tokio__realloc(*buf, c);
    if (b == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                            log->logname);
    *buf = b;
    *cap = c;
    return TOKIO_OK;
}

/* The two-byte zlib header (RFC 1950) of a stream darshan wrote:
 * deflate, a window of at most 32 KiB, no preset dictionary. */
static int
zlib_header_ok(const unsigned char *h)
{
    return (h[0] & 0x0f) == 8 && (h[0] >> 4) <= 7 &&
           ((unsigned)h[0] << 8 | h[1]) % 31 == 0 && !(h[1] & 0x20);
}

/*
 * One zlib inflater for all regions of a log: the runtime writes one
 * stream per rank (§4), so a 2048-rank log has thousands of tiny streams,
 * and inflateReset() between them saves an inflateInit()/inflateEnd()
 * (two allocations, a 32 KiB window) per stream, as darshan-util does.
 * `piece` is the buffer streamed regions inflate into.
 */
struct inflater {
    z_stream z;
    int ready;
    unsigned char *piece;
};

/* Regions of fixed-size records inflate through a buffer of this size
 * (L1-sized, 4 pages to fault in), never the whole region: the records it
 * holds are decoded and only a partial last record is carried over to
 * the next piece. */
#define PIECE_SIZE          (16u << 10)

static void
inflater_end(struct inflater *zi)
{
    if (zi->ready)
        inflateEnd(&zi->z);
    zi->ready = 0;
    free(zi->piece);
    zi->piece = NULL;
}

/*
 * Where decompress() puts what it inflates: the whole region in one
 * buffer grown as needed (mod < 0), or PIECE_SIZE bytes at a time handed
 * to module `mod`'s record decoder, which takes whole records.
 */
struct outbuf {
    unsigned char *buf;
    size_t cap;
    size_t n;                   /* bytes in buf */
    size_t total;               /* bytes inflated: what `limit` bounds */
    size_t limit;
    size_t first;               /* first size of a growing buffer */
    int mod;
};

/* Hand the whole records in `n` bytes at `p` over; *used_out is what
 * they took.  The callback's failure is passed on as it is. */
static int
hand_piece(struct tokio_darshan *log, int mod, const unsigned char *p,
           size_t n, size_t *used_out)
{
    int rc = tokio__darshan_decode_piece(log, mod, p, n, used_out);

    return rc == TOKIO_ENOMEM ? nomem(log) : rc;
}

/* Hand the whole records in o->buf over; keep the rest. */
static int
out_flush(struct tokio_darshan *log, struct outbuf *o)
{
    size_t used = 0;
    int rc = hand_piece(log, o->mod, o->buf, o->n, &used);

    if (rc < 0)
        return rc;
    memmove(o->buf, o->buf + used, o->n - used);
    o->n -= used;
    return TOKIO_OK;
}

/* Room for more output: TOKIO_OK, 1 when `limit` is reached, or an
 * error.  Returns the room in *room. */
static int
out_room(struct tokio_darshan *log, struct outbuf *o, size_t *room)
{
    int rc = TOKIO_OK;

    if (o->total >= o->limit)
        return 1;
    if (o->n == o->cap) {
        if (o->mod < 0)
            rc = grow(log, &o->buf, &o->cap, o->cap ? o->n + 1 : o->first,
                      o->limit);
        else if ((rc = out_flush(log, o)) == TOKIO_OK && o->n == o->cap)
            /* fixed-size records of streamed modules are < 1 KiB */
            rc = tokio__error(TOKIO_EFORMAT, "'%s': record larger than "
                              "%zu bytes", log->logname, o->cap);
        if (rc < 0)
            return rc;
    }
    *room = o->cap - o->n;
    if (*room > o->limit - o->total)
        *room = o->limit - o->total;
    return TOKIO_OK;
}

/*
 * Where a log's bytes come from: the whole file in memory (`mem`, from
 * tokio_darshan_open_mem() or a pipe read whole), or a regular file read
 * IN_CHUNK bytes at a time with pread() as its regions are inflated, so
 * that a log of gigabytes never sits in memory whole.
 */
struct dsrc {
    const unsigned char *mem;
    int fd;
    uint64_t size;              /* bytes in the log */
    unsigned char *buf;         /* fd: bytes [start, start + n) */
    uint64_t start;
    size_t n;
};

#define IN_CHUNK            (256u << 10)

/*
 * The log's bytes from `off` on: *p, of which *avail (> 0) may be read,
 * at least `want` unless `end` (the region's end) comes first, and never
 * past `end`.  TOKIO_OK, TOKIO_EIO or TOKIO_ENOMEM.
 */
static int
src_at(struct tokio_darshan *log, struct dsrc *s, uint64_t off,
       size_t want, uint64_t end, const unsigned char **p, size_t *avail)
{
    if (want > end - off)
        want = (size_t)(end - off);
    if (s->fd < 0) {
        *p = s->mem + off;
        *avail = (size_t)(end - off);
        return TOKIO_OK;
    }
    if (off < s->start || off - s->start + want > s->n) {
        if (s->buf == NULL && (s->buf = tokio__malloc(IN_CHUNK)) == NULL)
            return nomem(log);
        size_t k = end - off < IN_CHUNK ? (size_t)(end - off) : IN_CHUNK;
        ssize_t got = tokio__pread_full(s->fd, s->buf, k, off);
        if (got < 0 || (size_t)got < k)
            return tokio__error(TOKIO_EIO, "cannot read '%s' at byte "
                                "%" PRIu64 ": %s", log->logname,
                                off + (got < 0 ? 0 : (uint64_t)got),
                                got < 0 ? strerror(errno)
                                : "the file shrank while read");
        s->start = off;
        s->n = k;
    }
    *p = s->buf + (off - s->start);
    *avail = s->n - (size_t)(off - s->start);
    if (*avail > end - off)
        *avail = (size_t)(end - off);
    return TOKIO_OK;
}

/*
 * Decompress the `len` bytes of `src` at `off`: one or more back-to-back
 * streams (§4: the runtime compresses each rank's share separately).
 * Output stops at `limit` bytes; `stop_at_limit` says that is fine (the
 * job region, of which only 4096 bytes count), else it is corruption.
 * With `mod` >= 0 the output goes to that module's records through
 * zi->piece and *out stays NULL; else *out is the region.
 */
static int
decompress(struct tokio_darshan *log, struct inflater *zi,
           const char *what, struct dsrc *src, uint64_t off, size_t len,
           size_t limit, int stop_at_limit, int mod, unsigned char **out,
           size_t *out_len)
{
    struct outbuf o = { 0 };
    size_t pos = 0, room = 0, avail = 0;
    const unsigned char *in = NULL;
    uint64_t end_abs = off + len;
    int rc = TOKIO_OK;

    *out = NULL;
    *out_len = 0;
    o.limit = limit;
    o.mod = mod;
    /* the first buffer: regions inflate 1-10x, so 4x the input saves
     * most regrowing (and its copies) and wastes little */
    o.first = len > limit / 4 ? limit : 4 * len;
    if (log->comp == TOKIO_DARSHAN_NONE && src->fd < 0) {
        size_t k = len < limit ? len : limit;
        if (mod >= 0) {
            size_t used;
            return hand_piece(log, mod, src->mem + off, k, &used);
        }
        if ((o.buf = tokio__malloc(k ? k : 1)) == NULL)
            return nomem(log);
        memcpy(o.buf, src->mem + off, k);
        *out = o.buf;
        *out_len = k;
        return TOKIO_OK;
    }
    if (mod >= 0) {
        if (zi->piece == NULL &&
            (zi->piece = tokio__malloc(PIECE_SIZE)) == NULL)
            return nomem(log);
        o.buf = zi->piece;
        o.cap = PIECE_SIZE;
    }
    if (log->comp == TOKIO_DARSHAN_NONE) {
        /* uncompressed, read from the file: copied through the output */
        while (pos < len && rc == TOKIO_OK) {
            if ((rc = out_room(log, &o, &room)) != TOKIO_OK ||
                (rc = src_at(log, src, off + pos, 1, end_abs, &in,
                             &avail)) < 0)
                break;
            size_t k = avail < room ? avail : room;
            memcpy(o.buf + o.n, in, k);
            o.n += k;
            o.total += k;
            pos += k;
        }
        if (rc == 1)
            rc = TOKIO_OK;      /* `limit` is the region's length */
    }
    while (log->comp != TOKIO_DARSHAN_NONE && pos < len && rc == TOKIO_OK) {
        if (log->comp == TOKIO_DARSHAN_ZLIB) {
            /* raw inflate between our own header and trailer checks */
            z_stream *zp = &zi->z;
            uint32_t adler = 1;
            if ((rc = src_at(log, src, off + pos, 2, end_abs, &in,
                             &avail)) < 0)
                break;
            if (avail < 2 || !zlib_header_ok(in)) {
                rc = tokio__error(TOKIO_EFORMAT, avail < 2
                                  ? "'%s': %s: truncated compressed stream "
                                    "at byte %zu"
                                  : "'%s': %s: bad compressed data (no "
                                    "zlib header at byte %zu)",
                                  log->logname, what, pos);
                break;
            }
            int zinit = zi->ready ? inflateReset(zp)
                                  : inflateInit2(zp, -MAX_WBITS);
            if (zinit != Z_OK) {
                rc = nomem(log);
                break;
            }
            zi->ready = 1;
            size_t body = pos + 2;      /* the deflate data's start */
            zp->next_in = (unsigned char *)in + 2;
            zp->avail_in = (uInt)(avail - 2 > UINT32_MAX ? UINT32_MAX
                                                         : avail - 2);
            int ended = 0;
            while (rc == TOKIO_OK) {
                if ((rc = out_room(log, &o, &room)) != TOKIO_OK)
                    break;
                size_t at = body + zp->total_in;
                if (zp->avail_in == 0 && at < len) {
                    if ((rc = src_at(log, src, off + at, 1, end_abs, &in,
                                     &avail)) < 0)
                        break;
                    zp->next_in = (unsigned char *)in;
                    zp->avail_in = (uInt)(avail > UINT32_MAX ? UINT32_MAX
                                                             : avail);
                }
                size_t before = o.n;
                zp->next_out = o.buf + o.n;
                zp->avail_out = (uInt)room;
                int zr = inflate(zp, Z_NO_FLUSH);
                o.n += room - zp->avail_out;
                o.total += room - zp->avail_out;
                adler = (uint32_t)adler32_z(adler, o.buf + before,
                                            o.n - before);
                if (zr == Z_STREAM_END) {
                    ended = 1;
                    break;
                }
                if (zr == Z_BUF_ERROR && zp->avail_out != 0) {
                    rc = tokio__error(TOKIO_EFORMAT, "'%s': %s: truncated "
                                      "compressed stream at byte %zu",
                                      log->logname, what, pos);
                } else if (zr != Z_OK && zr != Z_BUF_ERROR) {
                    rc = tokio__error(zr == Z_MEM_ERROR ? TOKIO_ENOMEM
                                                        : TOKIO_EFORMAT,
                                      "'%s': %s: bad compressed data (%s)",
                                      log->logname, what,
                                      zp->msg ? zp->msg : "zlib error");
                }
            }
            size_t end = body + zp->total_in;
            if (ended) {
                int r2 = src_at(log, src, off + end, 4, end_abs, &in,
                                &avail);
                if (r2 < 0) {
                    rc = r2;
                } else if (avail < 4) {
                    rc = tokio__error(TOKIO_EFORMAT, "'%s': %s: truncated "
                                      "compressed stream at byte %zu",
                                      log->logname, what, pos);
                } else if (((uint32_t)in[0] << 24 | (uint32_t)in[1] << 16 |
                            (uint32_t)in[2] << 8 | in[3]) != adler) {
                    rc = tokio__error(TOKIO_EFORMAT, "'%s': %s: bad "
                                      "compressed data (incorrect data "
                                      "check)", log->logname, what);
                }
                end += 4;
            }
            pos = end;
        } else {
            bz_stream b;
            memset(&b, 0, sizeof(b));
            if ((rc = src_at(log, src, off + pos, 1, end_abs, &in,
                             &avail)) < 0)
                break;
            if (BZ2_bzDecompressInit(&b, 0, 0) != BZ_OK) {
                rc = nomem(log);
                break;
            }
            size_t start = pos;
            b.next_in = (char *)in;
            b.avail_in = (unsigned)(avail > UINT32_MAX ? UINT32_MAX : avail);
            while (rc == TOKIO_OK) {
                if ((rc = out_room(log, &o, &room)) != TOKIO_OK)
                    break;
                size_t at = start + ((size_t)b.total_in_hi32 << 32 |
                                     b.total_in_lo32);
                if (b.avail_in == 0 && at < len) {
                    if ((rc = src_at(log, src, off + at, 1, end_abs, &in,
                                     &avail)) < 0)
                        break;
                    b.next_in = (char *)in;
                    b.avail_in = (unsigned)(avail > UINT32_MAX ? UINT32_MAX
                                                               : avail);
                }
                b.next_out = (char *)o.buf + o.n;
                b.avail_out = (unsigned)room;
                int br = BZ2_bzDecompress(&b);
                o.n += room - b.avail_out;
                o.total += room - b.avail_out;
                if (br == BZ_STREAM_END)
                    break;
                if (br == BZ_OK && b.avail_in == 0 && b.avail_out != 0 &&
                    start + ((size_t)b.total_in_hi32 << 32 |
                             b.total_in_lo32) >= len) {
                    rc = tokio__error(TOKIO_EFORMAT, "'%s': %s: truncated "
                                      "compressed stream at byte %zu",
                                      log->logname, what, pos);
                } else if (br != BZ_OK) {
                    rc = tokio__error(br == BZ_MEM_ERROR ? TOKIO_ENOMEM
                                                         : TOKIO_EFORMAT,
                                      "'%s': %s: bad bzip2 data (error %d)",
                                      log->logname, what, br);
                }
            }
            pos = start + ((size_t)b.total_in_hi32 << 32 | b.total_in_lo32);
            BZ2_bzDecompressEnd(&b);
        }
        if (rc == 1) {          /* hit the limit */
            if (stop_at_limit) {
                rc = TOKIO_OK;
                break;
            }
            rc = tokio__error(TOKIO_EFORMAT, "'%s': %s: inflates past %zu "
                              "bytes (corrupt or hostile log)",
                              log->logname, what, limit);
        }
    }
    if (mod >= 0) {
        /* the last records; a partial one at the end is ignored, as a
         * whole region's trailing bytes are */
        if (rc == TOKIO_OK)
            rc = out_flush(log, &o);
        return rc;
    }
    if (rc < 0) {
        free(o.buf);
        return rc;
    }
    *out = o.buf;
    *out_len = o.n;
    return TOKIO_OK;
}

/* Check a map entry against the file and decompress it (streamed to
 * module `mod`'s records when `mod` >= 0). */
static int
load_region(struct tokio_darshan *log, struct inflater *zi, int which,
            struct dsrc *src, uint64_t off, uint64_t len, size_t limit,
            int stop_at_limit, int mod, unsigned char **out,
            size_t *out_len)
{
    char nb[64];
    const char *what = region_name(which, nb, sizeof(nb));
    uint64_t size = src->size;

    if (off > size || len > size - off)
        return tokio__error(TOKIO_EFORMAT, "'%s': %s: truncated (claims "
                            "bytes %" PRIu64 "+%" PRIu64 " of a %" PRIu64
                            "-byte file)", log->logname, what, off, len,
                            size);
    if (!stop_at_limit) {
        uint64_t cap = (uint64_t)len * INFLATE_RATIO + INFLATE_SLACK;
        /* records handed over as they are inflated are never held: only
         * the ratio bounds them (the time a hostile region can cost) */
        uint64_t abs_cap = mod >= 0 && log->mods[mod].streamed
                               ? UINT64_MAX / 2 : INFLATE_ABS_CAP;
        if (log->comp == TOKIO_DARSHAN_NONE)
            cap = len;
        if (cap > SIZE_MAX / 2)
            cap = SIZE_MAX / 2;
        limit = cap > abs_cap ? (size_t)abs_cap : (size_t)cap;
    }
    return decompress(log, zi, what, src, off, (size_t)len, limit,
                      stop_at_limit, mod, out, out_len);
}

/* ---- header (§1, §3) ------------------------------------------------ */

/* Insert an empty slot at `at` (§3.4 remapping of older logs). */
static void
insert_slot(struct tokio_darshan *log, int at)
{
    memmove(&log->mods[at + 1], &log->mods[at],
            (TOKIO_DARSHAN_MAX_MODULES - at - 1) * sizeof(log->mods[0]));
    memset(&log->mods[at], 0, sizeof(log->mods[0]));
    uint64_t low = log->partial & ((UINT64_C(1) << at) - 1);
    log->partial = ((log->partial & ~low) << 1) | low;
}

/* The version string a log starts with (§1), checked by
 * darshan_log_get_header's rule before anything else is read: *minor. */
static int
check_version(const char *logname, const unsigned char *p, size_t size,
              char ver[VERSION_LEN + 1], int *minor)
{
    int major = 0;

    if (size < VERSION_LEN)
        return tokio__error(TOKIO_EFORMAT, "'%s': not a darshan log (%zu "
                            "bytes, too short for a version string)",
                            logname, size);
    memcpy(ver, p, VERSION_LEN);
    ver[VERSION_LEN] = '\0';
    if (sscanf(ver, "%d.%d", &major, minor) != 2 || major != 3 ||
        (*minor != 0 && *minor != 10 && *minor != 20 && *minor != 21 &&
         *minor != 41)) {
        for (char *c = ver; *c; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
                *c = '?';
        return tokio__error(TOKIO_EFORMAT, "'%s': incompatible darshan file "
                            "(version '%s'; darshan-util 3.5.0 reads 3.00, "
                            "3.10, 3.20, 3.21 and 3.41)", logname, ver);
    }
    return TOKIO_OK;
}

static int
parse_header(struct tokio_darshan *log, const unsigned char *p, size_t size)
{
    char ver[VERSION_LEN + 1];
    int minor = 0, rc = check_version(log->logname, p, size, ver, &minor);

    if (rc < 0)
        return rc;
    memcpy(log->version, ver, sizeof(ver));
    log->minor = minor;
    size_t hsize = minor == 41 ? NEW_HEADER_SIZE : OLD_HEADER_SIZE;
    int slots = minor == 41 ? NEW_SLOTS : OLD_SLOTS;
    if (size < hsize)
        return tokio__error(TOKIO_EFORMAT, "'%s': header: truncated (%zu of "
                            "%zu bytes)", log->logname, size, hsize);
    int64_t magic = (int64_t)darshan_u64(p + 8, 0);
    if (magic != MAGIC_NR) {
        if ((int64_t)darshan_u64(p + 8, 1) != MAGIC_NR)
            return tokio__error(TOKIO_EFORMAT, "'%s': header: bad magic "
                                "number", log->logname);
        log->swap = 1;
    }
    log->comp = p[16];
    if (log->comp > TOKIO_DARSHAN_NONE)
        return tokio__error(TOKIO_EFORMAT, "'%s': header: invalid "
                            "compression type %d", log->logname, log->comp);
    /* §3.3: darshan-util never swaps partial_flag; neither do we, so the
     * module banners match its output */
    size_t o = minor == 41 ? 24 : 20;
    log->partial = minor == 41 ? darshan_u64(p + o, 0) : darshan_u32(p + o, 0);
    o += minor == 41 ? 8 : 4;
    log->name_off = darshan_u64(p + o, log->swap);
    log->name_len = darshan_u64(p + o + 8, log->swap);
    o += 16;
    for (int i = 0; i < slots; i++) {
        log->mods[i].off = darshan_u64(p + o + 16 * (size_t)i, log->swap);
        log->mods[i].len = darshan_u64(p + o + 16 * (size_t)i + 8,
                                       log->swap);
        log->mods[i].ver = darshan_u32(p + o + 16 * (size_t)slots +
                                       4 * (size_t)i, log->swap);
    }
    if (minor < 20)
        insert_slot(log, TOKIO_DARSHAN_H5D);
    if (minor < 41)
        insert_slot(log, TOKIO_DARSHAN_PNETCDF_VAR);
    return TOKIO_OK;
}

/* ---- job record, exe and mounts (§5) -------------------------------- */

static int
cmp_mount(const void *a, const void *b)
{
    const struct tokio_darshan_mount *x = a, *y = b;
    size_t lx = strlen(x->path), ly = strlen(y->path);

    if (lx != ly)
        return lx < ly ? 1 : -1;
    /* ties keep file order (darshan-util's glibc qsort is a merge sort) */
    return x < y ? -1 : x > y;
}

/* isspace() in the C locale, as sscanf's %s uses it */
static int
is_blank(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

static int
parse_mounts(struct tokio_darshan *log, const char *trailer)
{
    const char *nl = strchr(trailer, '\n');
    size_t count = 0;

    /* no '\n' at all: darshan-util prints an empty exe and no mounts */
    log->exe = tokio__strndup(trailer, nl ? (size_t)(nl - trailer) : 0);
    if (log->exe == NULL)
        return nomem(log);
    for (const char *c = trailer; (c = strchr(c, '\n')) != NULL; c++)
        count++;
    if (count == 0)
        return TOKIO_OK;
    /*
     * A word is a maximal run of non-blanks, and sscanf may take an
     * entry's words from later lines, so entries can share words: point
     * into one copy of the trailer with every blank turned into NUL.
     */
    size_t tlen = strlen(trailer);
    log->mount_strings = tokio__malloc(tlen + 1);
    log->mounts = tokio__calloc(count, sizeof(*log->mounts));
    if (log->mount_strings == NULL || log->mounts == NULL)
        return nomem(log);
    char *w = log->mount_strings;
    for (size_t i = 0; i <= tlen; i++)
        w[i] = is_blank(trailer[i]) ? '\0' : trailer[i];
    for (const char *c = trailer; (c = strchr(c, '\n')) != NULL; ) {
        const char *word[2];
        c++;
        /* sscanf("%s\t%s"): two whitespace-delimited words (§5) */
        const char *q = c;
        for (int k = 0; k < 2; k++) {
            while (is_blank(*q))
                q++;
            word[k] = w + (q - trailer);
            if (*q == '\0')
                return tokio__error(TOKIO_EFORMAT, "'%s': job region: "
                                    "poorly formatted mount table entry "
                                    "%zu", log->logname, log->n_mounts + 1);
            while (*q && !is_blank(*q))
                q++;
        }
        struct tokio_darshan_mount *m = &log->mounts[log->n_mounts++];
        m->type = word[0];
        m->path = word[1];
    }
    qsort(log->mounts, log->n_mounts, sizeof(*log->mounts), cmp_mount);
    return TOKIO_OK;
}

static int
parse_metadata(struct tokio_darshan *log, const char *md)
{
    size_t count = 0;

    for (const char *c = md; *c; c++)
        if (*c == '=')
            count++;
    log->meta_keys = tokio__calloc(count + 1, sizeof(char *));
    log->meta_values = tokio__calloc(count + 1, sizeof(char *));
    if (log->meta_keys == NULL || log->meta_values == NULL)
        return nomem(log);
    /* lines split on '\n' (empty ones skipped), then at the first '=';
     * lines without '=' are dropped, as darshan-parser does (§10.2) */
    for (const char *c = md; *c; ) {
        const char *end = strchr(c, '\n');
        size_t n = end ? (size_t)(end - c) : strlen(c);
        const char *eq = memchr(c, '=', n);
        if (eq != NULL) {
            size_t i = log->job.n_metadata;
            log->meta_keys[i] = tokio__strndup(c, (size_t)(eq - c));
            log->meta_values[i] = tokio__strndup(eq + 1,
                                                 n - (size_t)(eq - c) - 1);
            log->job.n_metadata++;
            if (log->meta_keys[i] == NULL || log->meta_values[i] == NULL)
                return nomem(log);
        }
        c += n;
        if (*c == '\n')
            c++;
    }
    log->job.metadata_keys = (const char *const *)log->meta_keys;
    log->job.metadata_values = (const char *const *)log->meta_values;
    return TOKIO_OK;
}

static int
parse_job(struct tokio_darshan *log, struct inflater *zi, struct dsrc *src)
{
    uint64_t off = log->minor == 41 ? NEW_HEADER_SIZE : OLD_HEADER_SIZE;
    uint64_t end = 0;
    unsigned char *raw = NULL;
    size_t n = 0;
    int rc;

    /* §2: the job region has no map entry; it ends where the next
     * region starts */
    if (log->name_off != 0) {
        end = log->name_off;
    } else {
        for (int i = 0; i < TOKIO_DARSHAN_MAX_MODULES && end == 0; i++)
            end = log->mods[i].off;
        if (end == 0)
            end = src->size;
    }
    if (end < off)
        return tokio__error(TOKIO_EFORMAT, "'%s': job region: name region "
                            "offset %" PRIu64 " lies inside the header",
                            log->logname, end);
    log->job_len = end - off;
    rc = load_region(log, zi, -2, src, off, end - off,
                     JOB_RECORD_SIZE, 1, -1, &raw, &n);
    if (rc < 0)
        return rc;
    if (n <= JOB_STRUCT_NEW) {
        free(raw);
        return tokio__error(TOKIO_EFORMAT, "'%s': job region: truncated "
                            "(%zu bytes, need more than %d)", log->logname,
                            n, JOB_STRUCT_NEW);
    }
    unsigned char job[JOB_RECORD_SIZE + 1];
    memset(job, 0, sizeof(job));
    memcpy(job, raw, n);
    free(raw);
    int sw = log->swap;
    size_t md;
    log->job.uid = (int64_t)darshan_u64(job, sw);
    log->job.start_time = (int64_t)darshan_u64(job + 8, sw);
    if (log->minor == 41) {
        log->job.start_time_nsec = (int64_t)darshan_u64(job + 16, sw);
        log->job.end_time = (int64_t)darshan_u64(job + 24, sw);
        log->job.end_time_nsec = (int64_t)darshan_u64(job + 32, sw);
        log->job.nprocs = (int64_t)darshan_u64(job + 40, sw);
        log->job.jobid = (int64_t)darshan_u64(job + 48, sw);
        md = 56;
    } else {
        log->job.end_time = (int64_t)darshan_u64(job + 16, sw);
        log->job.nprocs = (int64_t)darshan_u64(job + 24, sw);
        log->job.jobid = (int64_t)darshan_u64(job + 32, sw);
        md = 40;
    }
    char meta[JOB_METADATA_LEN + 1];
    memcpy(meta, job + md, JOB_METADATA_LEN);
    meta[JOB_METADATA_LEN] = '\0';
    if ((rc = parse_metadata(log, meta)) < 0)
        return rc;
    /* the trailer (exe, mounts) runs to the first NUL of the 4096 bytes */
    job[JOB_RECORD_SIZE - 1] = '\0';
    rc = parse_mounts(log, (const char *)job + md + JOB_METADATA_LEN);
    if (rc < 0)
        return rc;
    log->job.exe = log->exe;
    return TOKIO_OK;
}

/* ---- name table (§6) ------------------------------------------------ */

static size_t
slot_of(const struct tokio_darshan *log, uint64_t id)
{
    size_t mask = log->name_nslots - 1;
    size_t h = (size_t)((id ^ (id >> 29)) * UINT64_C(0x9e3779b97f4a7c15));

    for (size_t i = h & mask;; i = (i + 1) & mask) {
        size_t s = log->name_slots[i];
        if (s == 0 || log->names[s - 1].id == id)
            return i;
    }
}

/* Add `len` bytes at `name` (copied to the name arena, NUL added). */
static void
add_name(struct tokio_darshan *log, uint64_t id, const char *name,
         size_t len)
{
    size_t i = slot_of(log, id);
    char *s;

    if (log->name_slots[i] != 0) {
        /* duplicates keep the first name unless it was empty (§6) */
        struct dname *d = &log->names[log->name_slots[i] - 1];
        if (d->name[0] != '\0' || len == 0)
            return;
    }
    s = log->name_arena + log->name_used;
    memcpy(s, name, len);
    s[len] = '\0';
    log->name_used += len + 1;
    if (log->name_slots[i] != 0) {
        log->names[log->name_slots[i] - 1].name = s;
        return;
    }
    log->names[log->n_names].id = id;
    log->names[log->n_names].name = s;
    log->name_slots[i] = ++log->n_names;
}

static int
parse_names(struct tokio_darshan *log, struct inflater *zi,
            struct dsrc *src)
{
    unsigned char *raw = NULL;
    size_t n = 0;
    int rc;

    if (log->name_len == 0)
        return TOKIO_OK;
    rc = load_region(log, zi, -1, src, log->name_off, log->name_len,
                     0, 0, -1, &raw, &n);
    if (rc < 0)
        return rc;
    /* at most one entry per 9 bytes (id + NUL): size the table once */
    size_t max = n / 9 + 1, slots = 16;
    while (slots < 2 * max)
        slots *= 2;
    log->names = tokio__malloc(max * sizeof(*log->names));
    log->name_slots = tokio__calloc(slots, sizeof(size_t));
    log->name_nslots = slots;
    /* every name and its NUL fit in the region, which spends at least 8
     * more bytes on each entry: one arena holds them all */
    log->name_arena = tokio__malloc(n + 1);
    if (log->names == NULL || log->name_slots == NULL ||
        log->name_arena == NULL) {
        free(raw);
        return nomem(log);
    }
    size_t pos = 0;
    while (rc == TOKIO_OK && n - pos >= 9) {
        uint64_t id = darshan_u64(raw + pos, log->swap);
        const char *name = (const char *)raw + pos + 8;
        size_t len;
        if (log->minor == 0) {
            /* 3.00: u32 length, no NUL */
            if (n - pos < 12)
                break;
            len = darshan_u32(raw + pos + 8, log->swap);
            if (len > n - pos - 12)
                break;
            name += 4;
            pos += 12 + len;
        } else {
            const char *nul = memchr(name, '\0', n - pos - 8);
            if (nul == NULL)
                break;          /* incomplete last entry is ignored */
            len = (size_t)(nul - name);
            pos += 8 + len + 1;
        }
        add_name(log, id, name, len);
    }
    free(raw);
    return rc;
}

/* ---- open / free ---------------------------------------------------- */

/* Hand every record of decoded module `mod` to the open's callback,
 * then release them: a module that is not read a piece at a time. */
static int
hand_module(struct tokio_darshan *log, int mod)
{
    struct dmodule *m = &log->mods[mod];
    int rc = TOKIO_OK;

    for (size_t i = 0; i < m->n_pub && rc == TOKIO_OK; i++)
        rc = log->record(log->payload, log, mod, &m->pub[i]);
    tokio__darshan_module_clear(m);
    m->decoded = 1;
    return rc;
}

static int
parse_log(struct tokio_darshan *log, struct dsrc *src,
          const struct tokio_darshan_select *sel)
{
    struct inflater zi = { 0 };
    const unsigned char *hp = src->mem;
    uint64_t size = src->size;
    int rc = TOKIO_OK;

    if (src->fd >= 0) {
        /* the header, from the chunk buffer */
        size_t want = size < NEW_HEADER_SIZE ? (size_t)size
                                             : NEW_HEADER_SIZE;
        size_t avail = 0;
        if (want > 0 &&
            (rc = src_at(log, src, 0, want, size, &hp, &avail)) >= 0 &&
            avail < want)
            rc = tokio__error(TOKIO_EIO, "cannot read '%s': the file "
                              "shrank while read", log->logname);
        if (rc < 0)
            return rc;
    }
    if ((rc = parse_header(log, hp, size > SIZE_MAX ? SIZE_MAX
                                                    : (size_t)size)) < 0 ||
        (rc = parse_job(log, &zi, src)) < 0 ||
        (!sel->skip_names && (rc = parse_names(log, &zi, src)) < 0)) {
        inflater_end(&zi);
        return rc;
    }
    for (int i = 0; i < TOKIO_DARSHAN_MAX_MODULES; i++) {
        struct dmodule *m = &log->mods[i];
        char nb[64];
        if (m->len == 0)
            continue;
        if (!(sel->modules >> i & 1)) {
            /* not read, but a region past the end is still an error */
            if (m->off > size || m->len > size - m->off) {
                rc = tokio__error(TOKIO_EFORMAT, "'%s': %s: truncated "
                                  "(claims bytes %" PRIu64 "+%" PRIu64
                                  " of a %" PRIu64 "-byte file)",
                                  log->logname,
                                  region_name(i, nb, sizeof(nb)), m->off,
                                  m->len, size);
                break;
            }
            continue;
        }
        /* records of a fixed size (and DXT handed over in pieces) are
         * decoded from a piece of the region at a time as it is inflated
         * (into the pools, or straight to the callback): the region is
         * never held whole */
        int piecewise = tokio__darshan_streamable(log, i);
        int handed = log->record != NULL && !(sel->kept >> i & 1);
        m->streamed = piecewise && handed;
        rc = load_region(log, &zi, i, src, m->off, m->len, 0, 0,
                         piecewise ? i : -1, &m->raw, &m->raw_len);
        if (rc >= 0 && (piecewise ? tokio__darshan_decode_end(log, i)
                                  : tokio__darshan_decode_module(log, i)) < 0)
            rc = nomem(log);
        if (rc < 0)
            break;
        if (!m->decoded)
            continue;           /* kept raw: tokio_darshan_module_raw() */
        /* the records hold all of the region now */
        free(m->raw);
        m->raw = NULL;
        m->raw_len = 0;
        if (handed && !m->streamed && (rc = hand_module(log, i)) < 0)
            break;
    }
    inflater_end(&zi);
    if (rc < 0)
        return rc;
    return log->partial ? TOKIO_PARTIAL : TOKIO_OK;
}

/* A new log handle named `name` reading `src` as `sel` says. */
static int
open_src(struct tokio_darshan **out, struct dsrc *src, const char *name,
         const struct tokio_darshan_select *sel)
{
    static const struct tokio_darshan_select all = { .modules = UINT64_MAX };
    struct tokio_darshan *log;
    int rc;

    *out = NULL;
    if ((log = tokio__calloc(1, sizeof(*log))) == NULL ||
        (log->logname = tokio__strdup(name ? name : "<memory>")) == NULL) {
        free(log);
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                            name ? name : "<memory>");
    }
    if (sel == NULL)
        sel = &all;
    log->record = sel->record;
    log->payload = sel->payload;
    log->kept = sel->kept;
    log->dxt_pieces = sel->dxt_pieces;
    rc = parse_log(log, src, sel);
    log->record = NULL;         /* the payload may not outlive the open */
    log->payload = NULL;
    if (rc < 0) {
        tokio_darshan_free(log);
        return rc;
    }
    *out = log;
    return rc;
}

int
tokio_darshan_open_mem_select(struct tokio_darshan **out, const void *buf,
                              size_t len, const char *name,
                              const struct tokio_darshan_select *sel)
{
    struct dsrc src = { .mem = buf, .fd = -1, .size = len };

    *out = NULL;
    if (buf == NULL && len > 0)
        return tokio__error(TOKIO_EINVAL, "tokio_darshan_open_mem: NULL "
                            "buffer");
    return open_src(out, &src, name, sel);
}

int
tokio_darshan_open_mem(struct tokio_darshan **out, const void *buf,
                       size_t len, const char *name)
{
    return tokio_darshan_open_mem_select(out, buf, len, name, NULL);
}

int
tokio_darshan_open(struct tokio_darshan **out, const char *path)
{
    return tokio_darshan_open_select(out, path, NULL);
}

int
tokio_darshan_open_select(struct tokio_darshan **out, const char *path,
                          const struct tokio_darshan_select *sel)
{
    unsigned char *buf = NULL, head[VERSION_LEN];
    char ver[VERSION_LEN + 1];
    size_t n = 0, h = 0;
    struct stat st;
    int fd, minor, rc = TOKIO_OK;

    *out = NULL;
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return tokio__error(TOKIO_EIO, "cannot open '%s': %s", path,
                            strerror(errno));
    /* its version first, so that another kind of file (a sparse GiB, say)
     * is refused before any of it is held in memory */
    ssize_t k = tokio__read_full(fd, head, sizeof(head));
    if (k < 0)
        rc = tokio__error(TOKIO_EIO, "cannot read '%s': %s", path,
                          strerror(errno));
    else
        h = (size_t)k;
    if (rc < 0 || (rc = check_version(path, head, h, ver, &minor)) < 0) {
        close(fd);
        return rc;
    }
    /* then a regular file a chunk at a time as its regions are inflated
     * (pread(): a log of gigabytes never sits in memory whole) */
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        struct dsrc src = { .fd = fd, .size = (uint64_t)st.st_size };
#ifdef POSIX_FADV_SEQUENTIAL
        (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
        rc = open_src(out, &src, path, sel);
        free(src.buf);
        close(fd);
        return rc;
    }
    /* anything else (a pipe) whole */
    if (tokio__read_whole_fd(fd, head, h, SIZE_MAX, 0, &buf, &n) < 0)
        rc = errno == ENOMEM ? tokio__error(TOKIO_ENOMEM, "out of memory "
                                            "reading '%s'", path)
                             : tokio__error(TOKIO_EIO, "cannot read '%s': %s",
                                            path, strerror(errno));
    close(fd);
    if (rc == TOKIO_OK)
        rc = tokio_darshan_open_mem_select(out, buf, n, path, sel);
    free(buf);
    return rc;
}

void
tokio_darshan_free(struct tokio_darshan *log)
{
    if (log == NULL)
        return;
    for (int i = 0; i < TOKIO_DARSHAN_MAX_MODULES; i++) {
        tokio__darshan_module_clear(&log->mods[i]);
        free(log->mods[i].raw);
    }
    for (size_t i = 0; i < log->job.n_metadata; i++) {
        free(log->meta_keys[i]);
        free(log->meta_values[i]);
    }
    free(log->meta_keys);
    free(log->meta_values);
    free(log->exe);
    free(log->mounts);
    free(log->mount_strings);
    free(log->name_arena);
    free(log->names);
    free(log->name_slots);
    free(log->logname);
    free(log);
}

/* ---- accessors ------------------------------------------------------ */

static const struct dmodule *
module(const struct tokio_darshan *log, int mod)
{
    if (log == NULL || mod < 0 || mod >= TOKIO_DARSHAN_MAX_MODULES)
        return NULL;
    return &log->mods[mod];
}

const char *
tokio_darshan_logname(const struct tokio_darshan *log)
{
    return log->logname;
}

const char *
tokio_darshan_version(const struct tokio_darshan *log)
{
    return log->version;
}

int
tokio_darshan_compression(const struct tokio_darshan *log)
{
    return log->comp;
}

int
tokio_darshan_swapped(const struct tokio_darshan *log)
{
    return log->swap;
}

uint64_t
tokio_darshan_partial_flags(const struct tokio_darshan *l)
{
    return l->partial;
}

int
tokio_darshan_module_partial(const struct tokio_darshan *log, int mod)
{
    if (module(log, mod) == NULL)
        return 0;
    return (log->partial >> mod) & 1;
}

uint64_t
tokio_darshan_module_len(const struct tokio_darshan *log, int mod)
{
    const struct dmodule *m = module(log, mod);

    return m ? m->len : 0;
}

unsigned
tokio_darshan_module_version(const struct tokio_darshan *log, int mod)
{
    const struct dmodule *m = module(log, mod);

    return m ? m->ver : 0;
}

int
tokio_darshan_module_decoded(const struct tokio_darshan *log, int mod)
{
    const struct dmodule *m = module(log, mod);

    return m ? m->decoded : 0;
}

const unsigned char *
tokio_darshan_module_raw(const struct tokio_darshan *log, int mod,
                         size_t *len_out)
{
    const struct dmodule *m = module(log, mod);

    *len_out = m ? m->raw_len : 0;
    return m ? m->raw : NULL;
}

const struct tokio_darshan_job *
tokio_darshan_job(const struct tokio_darshan *log)
{
    return &log->job;
}

double
tokio_darshan_run_time(const struct tokio_darshan *log)
{
    const struct tokio_darshan_job *j = &log->job;

    /* §10.2: the formula changed with the 3.41 job record */
    if (log->minor == 41)
        return ((double)j->end_time + (double)j->end_time_nsec / 1e9) -
               ((double)j->start_time + (double)j->start_time_nsec / 1e9);
    return (double)(j->end_time - j->start_time + 1);
}

size_t
tokio_darshan_mount_count(const struct tokio_darshan *log)
{
    return log->n_mounts;
}

const struct tokio_darshan_mount *
tokio_darshan_mount(const struct tokio_darshan *log, size_t i)
{
    return i < log->n_mounts ? &log->mounts[i] : NULL;
}

void
tokio__darshan_mount_of(const struct tokio_darshan *log, const char *name,
                        const char **mnt_out, const char **fs_out)
{
    *mnt_out = *fs_out = "UNKNOWN";
    if (name == NULL)
        return;
    /* first mount (longest first) whose path is a byte prefix: no '/'
     * boundary check, as darshan-util */
    for (size_t k = 0; k < log->n_mounts; k++) {
        const char *p = log->mounts[k].path;
        if (strncmp(p, name, strlen(p)) == 0) {
            *mnt_out = p;
            *fs_out = log->mounts[k].type;
            return;
        }
    }
}

const char *
tokio_darshan_name(const struct tokio_darshan *log, uint64_t id)
{
    if (log->name_nslots == 0)
        return NULL;
    size_t s = log->name_slots[slot_of(log, id)];
    return s ? log->names[s - 1].name : NULL;
}

size_t
tokio_darshan_name_count(const struct tokio_darshan *log)
{
    return log->n_names;
}

const char *
tokio_darshan_name_at(const struct tokio_darshan *log, size_t i,
                      uint64_t *id_out)
{
    if (i >= log->n_names)
        return NULL;
    if (id_out != NULL)
        *id_out = log->names[i].id;
    return log->names[i].name;
}

size_t
tokio_darshan_record_count(const struct tokio_darshan *log, int mod)
{
    const struct dmodule *m = module(log, mod);

    return m ? m->n_pub : 0;
}

const struct tokio_darshan_record *
tokio_darshan_record(const struct tokio_darshan *log, int mod, size_t i)
{
    const struct dmodule *m = module(log, mod);

    return m && i < m->n_pub ? &m->pub[i] : NULL;
}

/* ---- darshan-parser --base (§10) ------------------------------------ */

static const char *const comp_names[] = { "ZLIB", "BZIP2", "NONE" };

const char *
tokio__darshan_ctime(int64_t t, char *buf, size_t size)
{
    static const char days[] = "SunMonTueWedThuFriSat";
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    time_t tt = (time_t)t;
    struct tm tm;

    if (localtime_r(&tt, &tm) == NULL || tm.tm_wday < 0 || tm.tm_wday > 6 ||
        tm.tm_mon < 0 || tm.tm_mon > 11)
        return NULL;
    snprintf(buf, size, "%.3s %.3s%3d %.2d:%.2d:%.2d %d",
             days + 3 * tm.tm_wday, months + 3 * tm.tm_mon, tm.tm_mday,
             tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_year + 1900);
    return buf;
}

/* A *_time_asci line: "(null)" and no newline where glibc's ctime()
 * fails, as darshan-parser prints its NULL. */
static void
put_ctime(FILE *fp, const char *label, int64_t t)
{
    char buf[64];

    if (tokio__darshan_ctime(t, buf, sizeof(buf)) == NULL)
        fprintf(fp, "# %s: (null)", label);
    else
        fprintf(fp, "# %s: %s\n", label, buf);
}

void
tokio__darshan_write_preamble(const struct tokio_darshan *log, FILE *fp)
{
    const struct tokio_darshan_job *j = &log->job;

    if (log->minor == 20) {
        fputs("# WARNING: Darshan logs generated by runtime version 3.2.0 "
              "likely exhibit some corruption in counter values.\n"
              "#          This bug clearly results in bogus values for some "
              "COMMON_ACCESS counters (POSIX, MPIIO, H5 modules),\n"
              "#          but preceding data may also be corrupted.\n", fp);
    }
    fprintf(fp, "# darshan log version: %s\n", log->version);
    fprintf(fp, "# compression method: %s\n", comp_names[log->comp]);
    fprintf(fp, "# exe: %s\n", j->exe);
    fprintf(fp, "# uid: %" PRId64 "\n", j->uid);
    fprintf(fp, "# jobid: %" PRId64 "\n", j->jobid);
    fprintf(fp, "# start_time: %" PRId64 "\n", j->start_time);
    put_ctime(fp, "start_time_asci", j->start_time);
    fprintf(fp, "# end_time: %" PRId64 "\n", j->end_time);
    put_ctime(fp, "end_time_asci", j->end_time);
    fprintf(fp, "# nprocs: %" PRId64 "\n", j->nprocs);
    fprintf(fp, "# run time: %.4f\n", tokio_darshan_run_time(log));
    for (size_t i = 0; i < j->n_metadata; i++)
        fprintf(fp, "# metadata: %s = %s\n", j->metadata_keys[i],
                j->metadata_values[i]);
    fputs("\n# log file regions\n"
          "# -------------------------------------------------------\n", fp);
    /* darshan-parser prints its own header size, whatever the log's */
    fprintf(fp, "# header: %d bytes (uncompressed)\n", NEW_HEADER_SIZE);
    fprintf(fp, "# job data: %" PRIu64 " bytes (compressed)\n", log->job_len);
    fprintf(fp, "# record table: %" PRIu64 " bytes (compressed)\n",
            log->name_len);
    for (int i = 0; i < TOKIO_DARSHAN_MAX_MODULES; i++) {
        const struct dmodule *m = &log->mods[i];
        if (m->len == 0 && !tokio_darshan_module_partial(log, i))
            continue;
        if (i < TOKIO_DARSHAN_KNOWN_MODULES)
            fprintf(fp, "# %s module: %" PRIu64 " bytes (compressed), "
                    "ver=%d\n", tokio_darshan_module_name(i), m->len,
                    (int)m->ver);
        else
            fprintf(fp, "# <UNKNOWN> module (id %d): %" PRIu64 " bytes "
                    "(compressed), ver=%d\n", i, m->len, (int)m->ver);
    }
    fputs("\n# mounted file systems (mount point and fs type)\n"
          "# -------------------------------------------------------\n", fp);
    for (size_t i = 0; i < log->n_mounts; i++)
        fprintf(fp, "# mount entry:\t%s\t%s\n", log->mounts[i].path,
                log->mounts[i].type);
}

int
tokio__darshan_write_banner(const struct tokio_darshan *log, int mod,
                            FILE *fp)
{
    const struct dmodule *m = &log->mods[mod];
    const char *name = mod < TOKIO_DARSHAN_KNOWN_MODULES
                           ? tokio_darshan_module_name(mod) : "<UNKNOWN>";

    fprintf(fp, "\n# *******************************************************"
            "\n# %s module data\n"
            "# *******************************************************\n",
            name);
    if (tokio_darshan_module_partial(log, mod)) {
        /* what --show-incomplete prints (§10.3) */
        fprintf(fp, "\n# *WARNING*: The %s module contains incomplete data!\n"
                "#            This happens when a module runs out of\n"
                "#            memory to store new record data.\n", name);
        fputs("\n# To avoid this error, consult the darshan-runtime\n"
              "# documentation and consider setting the NAME_EXCLUDE\n"
              "# variable in a run-time configuration file to prevent\n"
              "# Darshan from instrumenting unnecessary files.\n", fp);
        if (m->len == 0)
            return 0;
    }
    return 1;
}

static void
write_module(const struct tokio_darshan *log, int mod, FILE *fp)
{
    const struct dmodule *m = &log->mods[mod];

    if (!tokio__darshan_write_banner(log, mod, fp))
        return;
    tokio__darshan_print_description(mod, m->ver, fp);
    for (size_t i = 0; i < m->n_pub; i++) {
        tokio__darshan_print_record(log, mod, &m->pub[i], fp);
    }
}

int
tokio_darshan_write_base(const struct tokio_darshan *log, FILE *fp)
{
    int empty = 0;

    tokio__darshan_write_preamble(log, fp);
    fputs("\n# description of columns:\n"
          "#   <module>: module responsible for this I/O record.\n"
          "#   <rank>: MPI rank.  -1 indicates that the file is shared\n"
          "#      across all processes and statistics are aggregated.\n"
          "#   <record id>: hash of the record's file path\n"
          "#   <counter name> and <counter value>: statistical counters.\n"
          "#      A value of -1 indicates that Darshan could not monitor\n"
          "#      that counter, and its value should be ignored.\n"
          "#   <file name>: full file path for the record.\n"
          "#   <mount pt>: mount point that the file resides on.\n"
          "#   <fs type>: type of file system that the file resides on.\n",
          fp);
    for (int i = 0; i < TOKIO_DARSHAN_MAX_MODULES; i++) {
        const struct dmodule *m = &log->mods[i];
        if (m->len == 0) {
            empty++;
            if (!tokio_darshan_module_partial(log, i))
                continue;
        } else if (i >= TOKIO_DARSHAN_KNOWN_MODULES ||
                   i == TOKIO_DARSHAN_NULL || i == TOKIO_DARSHAN_APXC ||
                   i == TOKIO_DARSHAN_APMPI ||
                   i == TOKIO_DARSHAN_DXT_POSIX ||
                   i == TOKIO_DARSHAN_DXT_MPIIO) {
            /* darshan-parser skips these (stderr warning or DXT's own
             * tool); the data stays available through the accessors */
            continue;
        }
        write_module(log, i, fp);
    }
    if (empty == TOKIO_DARSHAN_MAX_MODULES)
        fputs("\n# no module data available.\n", fp);
    return tokio__write_check(fp, "cannot write darshan text for '%s'",
                              log->logname);
}
