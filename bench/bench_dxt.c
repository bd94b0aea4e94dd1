/*
 * bench/bench_dxt.c - the driver of bench-dxt.sh (never pass/fail):
 *
 *   bench_dxt make LOG MIB   write a Darshan log of MIB MiB of DXT_POSIX
 *                            segments (uncompressed; 64 ranks, one file
 *                            each, 1 MiB sequential writes then reads with
 *                            jittered times) with libtokio's writer
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
#include "tokio/connectors/darshan_writer.h"

#define RANKS 64
#define MIB 1048576

static int
make(const char *path, long mib)
{
    struct tokio_darshan_job_info job = {
        .uid = 1000, .jobid = 1, .start_time = 1600000000,
        .end_time = 1600003600, .nprocs = RANKS, .exe = "./ior -a POSIX",
    };
    const struct tokio_darshan_mount mounts[] = { { "/lus", "lustre" } };
    size_t per = (size_t)mib * MIB / 32 / RANKS;
    struct tokio_darshan_writer *w = NULL;
    struct tokio_darshan_segment *segs = calloc(per, sizeof(*segs));
    uint64_t x = 88172645463325252u;

    job.n_mounts = 1;
    job.mounts = mounts;
    if (segs == NULL || tokio_darshan_writer_new(&w, &job) < 0)
        return 1;
    for (int r = 0; r < RANKS; r++) {
        char name[64];
        snprintf(name, sizeof(name), "/lus/scratch/ior/out.%05d", r);
        uint64_t id = tokio_darshan_writer_hash(name);
        double t = 1.0 + r * 0.001;
        for (size_t i = 0; i < per; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            size_t k = i < per / 2 ? i : i - per / 2;
            segs[i].offset = (int64_t)(k * MIB);
            segs[i].length = MIB;
            segs[i].start_time = t;
            t += 0.0005 + (double)(x >> 40) * 1e-11;
            segs[i].end_time = t;
        }
        struct tokio_darshan_record d = { 0 };
        d.id = id;
        d.rank = r;
        d.hostname = "nid00001";
        d.n_writes = per / 2;
        d.n_reads = per - per / 2;
        d.segments = segs;
        if (tokio_darshan_writer_add_name(w, id, name) < 0 ||
            tokio_darshan_writer_add(w, TOKIO_DARSHAN_DXT_POSIX, &d) < 0)
            return 1;
    }
    free(segs);
    if (tokio_darshan_writer_write(w, path) < 0) {
        fprintf(stderr, "%s\n", tokio_errmsg());
        return 1;
    }
    tokio_darshan_writer_free(w);
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
