/*
 * bench/bench_dxt.c - the driver of bench-dxt.sh (never pass/fail):
 *
 *   bench_dxt make LOG MIB   write a Darshan log of MIB MiB of DXT_POSIX
 *                            segments (uncompressed; 64 ranks, one file
 *                            each, 1 MiB sequential writes then reads with
 *                            jittered times) with libtokio's writer
 *                            (tokio_test_darshan_dxt_log(),
 *                            tests/darshan_gen.c)
 *   bench_dxt inflate LOG    the floor: only inflate every module region
 *                            (a zcat of the log), output dropped
 *   bench_dxt decode LOG     read the traces through the library, handed
 *                            over in pieces (tokio_darshan_open_select()
 *                            with dxt_pieces), summing the bytes they moved
 *
 * Prints one line: what it did, bytes (uncompressed DXT or inflated).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "tokio/connectors/darshan.h"
#include "darshan_gen.h"

#define RANKS 64

static int
make(const char *path, long mib)
{
    size_t per = (size_t)mib * 1048576 / 32 / RANKS;

    if (tokio_test_darshan_dxt_log(path, RANKS, per) < 0) {
        fprintf(stderr, "%s\n", tokio_errmsg());
        return 1;
    }
    printf("made %s %zu\n", path, per * RANKS * 32);
    return 0;
}

/* Inflate `len` bytes at `off` of `fp` (back-to-back zlib streams),
 * returning the bytes inflated. */
static uint64_t
inflate_region(FILE *fp, uint64_t off, uint64_t len)
{
    static unsigned char in[1 << 18], out[1 << 16];
    z_stream z;
    uint64_t total = 0, left = len;

    memset(&z, 0, sizeof(z));
    if (inflateInit(&z) != Z_OK || fseeko(fp, (off_t)off, SEEK_SET) != 0)
        return 0;
    while (left > 0 || z.avail_in > 0) {
        if (z.avail_in == 0) {
            size_t k = fread(in, 1, left < sizeof(in) ? left : sizeof(in),
                             fp);
            if (k == 0)
                break;
            left -= k;
            z.next_in = in;
            z.avail_in = (uInt)k;
        }
        z.next_out = out;
        z.avail_out = sizeof(out);
        int zr = inflate(&z, Z_NO_FLUSH);
        total += sizeof(out) - z.avail_out;
        if (zr == Z_STREAM_END)
            inflateReset(&z);
        else if (zr != Z_OK && zr != Z_BUF_ERROR)
            break;
    }
    inflateEnd(&z);
    return total;
}

/* The floor: every region of a 3.41 log (what the writer writes)
 * inflated, nothing decoded. */
static int
floor_inflate(const char *path)
{
    unsigned char h[1328];
    FILE *fp = fopen(path, "rb");
    uint64_t total = 0;

    if (fp == NULL || fread(h, 1, sizeof(h), fp) != sizeof(h) ||
        memcmp(h, "3.41", 4) != 0)
        return 1;
    for (int i = 0; i < 64; i++) {
        uint64_t off, len;
        memcpy(&off, h + 48 + 16 * i, 8);
        memcpy(&len, h + 56 + 16 * i, 8);
        if (len > 0)
            total += inflate_region(fp, off, len);
    }
    fclose(fp);
    printf("inflated %" PRIu64 "\n", total);
    return 0;
}

struct sums {
    uint64_t segments, bytes;
};

static int
sum(void *payload, const struct tokio_darshan *log, int mod,
    const struct tokio_darshan_record *r)
{
    struct sums *s = payload;

    (void)log;
    (void)mod;
    for (size_t i = 0; i < r->n_piece; i++)
        s->bytes += (uint64_t)r->segments[i].length;
    s->segments += r->n_piece;
    return TOKIO_OK;
}

static int
decode(const char *path)
{
    struct sums s = { 0, 0 };
    struct tokio_darshan_select sel = {
        .modules = TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DXT_POSIX) |
                   TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DXT_MPIIO),
        .skip_names = 1, .record = sum, .payload = &s, .dxt_pieces = 1,
    };
    struct tokio_darshan *log = NULL;

    if (tokio_darshan_open_select(&log, path, &sel) < 0) {
        fprintf(stderr, "%s\n", tokio_errmsg());
        return 1;
    }
    tokio_darshan_free(log);
    printf("decoded %" PRIu64 " segments, %" PRIu64 " bytes moved\n",
           s.segments, s.bytes);
    return 0;
}

int
main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "make") == 0)
        return make(argv[2], atol(argv[3]));
    if (argc == 3 && strcmp(argv[1], "inflate") == 0)
        return floor_inflate(argv[2]);
    if (argc == 3 && strcmp(argv[1], "decode") == 0)
        return decode(argv[2]);
    fprintf(stderr, "usage: bench_dxt make LOG MIB | inflate LOG | "
            "decode LOG\n");
    return 2;
}
