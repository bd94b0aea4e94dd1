/*
 * bench/bench_darshan.c - what bench/bench-darshan.sh times besides the
 * `tokio` and darshan-parser processes:
 *
 *   bench_darshan floor LOG [N]    the inflate floor: read LOG, take the
 *       region map from its header and inflate every region (job, name
 *       table, every module) with zlib/libbz2 directly, output discarded.
 *       Without N, once (the script times the process, start-up included,
 *       as it times the CLIs); with N, N times in-process and prints the
 *       microseconds per pass.  Always prints "regions in_bytes out_bytes".
 *   bench_darshan open LOG N       tokio_darshan_open()+free N times,
 *       microseconds per call.
 *   bench_darshan phases LOG N base|total
 *       microseconds per call of each step cache-darshan takes: open (of
 *       the modules the view needs), tokio_darshan_write_json() to
 *       /dev/null (4-space indent, sorted keys, as on stdout), free; and
 *       for comparison the same JSON built as a tree and then written
 *       (tokio_darshan_to_json() + tokio_json_write()), which the
 *       command avoids.
 *   bench_darshan time N -- CMD ARGS... [-- CMD ARGS...]...
 *       runs the commands round-robin N times each (so a busy machine
 *       slows all of them alike), stdout and stderr to /dev/null, and
 *       prints per command "median_ms min_ms peak_rss_kib failures
 *       minor_faults min_cpu_ms" (faults: the median run's count; CPU:
 *       user + system, the least of the runs).
 *
 * The floor reads the header itself (layout: darshan's
 * include/darshan-log-format.h, 3.00-3.21: 16 map slots, 3.41: 64) so it
 * shares no code with the reader it measures.
 */
#include <bzlib.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_json.h"
#include "tokio/output.h"

static unsigned char sink[1 << 18];

static double
now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static unsigned char *
slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t n = 0, cap = 0, k;
    struct stat st;

    if (fp == NULL)
        return NULL;
    if (fstat(fileno(fp), &st) == 0 && st.st_size > 0)
        cap = (size_t)st.st_size + 1;       /* one read, as tokio does */
    do {
        if (n == cap || buf == NULL) {
            cap = buf == NULL ? (cap ? cap : 65536) : 2 * cap;
            unsigned char *b = realloc(buf, cap);
            if (b == NULL) {
                free(buf);
                fclose(fp);
                return NULL;
            }
            buf = b;
        }
        k = fread(buf + n, 1, cap - n, fp);
        n += k;
    } while (k > 0);
    fclose(fp);
    *len = n;
    return buf;
}

static uint64_t
u64(const unsigned char *p, int swap)
{
    uint64_t v;

    memcpy(&v, p, 8);
    return swap ? __builtin_bswap64(v) : v;
}

/*
 * Inflate back-to-back streams in src[0..len) (the runtime compresses each
 * rank's share separately), as darshan-util does: one z_stream for the
 * whole log, inflateReset() between streams.  Returns bytes out or -1.
 */
static long long
inflate_region(z_stream *z, int comp, const unsigned char *src, size_t len)
{
    long long out = 0;
    size_t pos = 0;

    if (comp == 2)              /* uncompressed */
        return (long long)len;
    while (pos < len) {
        if (comp == 0) {
            int zr;
            inflateReset(z);
            z->next_in = (unsigned char *)src + pos;
            z->avail_in = (uInt)(len - pos);
            do {
                z->next_out = sink;
                z->avail_out = sizeof(sink);
                zr = inflate(z, Z_NO_FLUSH);
            } while (zr == Z_OK);
            pos += z->total_in;
            out += (long long)z->total_out;
            if (zr != Z_STREAM_END)
                return -1;
        } else {
            bz_stream b;
            int br;
            memset(&b, 0, sizeof(b));
            if (BZ2_bzDecompressInit(&b, 0, 0) != BZ_OK)
                return -1;
            b.next_in = (char *)src + pos;
            b.avail_in = (unsigned)(len - pos);
            do {
                b.next_out = (char *)sink;
                b.avail_out = sizeof(sink);
                br = BZ2_bzDecompress(&b);
            } while (br == BZ_OK && b.avail_in > 0);
            pos = len - b.avail_in;
            out += (long long)(((uint64_t)b.total_out_hi32 << 32) |
                               b.total_out_lo32);
            BZ2_bzDecompressEnd(&b);
            if (br != BZ_STREAM_END)
                return -1;
        }
    }
    return out;
}

/* The floor over one log in memory; prints nothing, fills the counts. */
static int
floor_once(const unsigned char *f, size_t size, int *regions,
           long long *in, long long *out)
{
    uint64_t off[1 + 64], len[1 + 64];
    int major, minor, swap = 0, slots, n = 0;
    char ver[9];

    if (size < 8)
        return -1;
    memcpy(ver, f, 8);
    ver[8] = '\0';
    if (sscanf(ver, "%d.%d", &major, &minor) != 2)
        return -1;
    size_t hsize = minor == 41 ? 1328 : 360;
    slots = minor == 41 ? 64 : 16;
    if (size < hsize)
        return -1;
    if (u64(f + 8, 0) != 6567223)
        swap = 1;
    int comp = f[16];
    size_t o = minor == 41 ? 32 : 24;   /* past partial_flag */
    uint64_t name_off = u64(f + o, swap), name_len = u64(f + o + 8, swap);
    o += 16;
    for (int i = 0; i < slots; i++) {
        off[n] = u64(f + o + 16 * (size_t)i, swap);
        len[n] = u64(f + o + 16 * (size_t)i + 8, swap);
        if (len[n] > 0)
            n++;
    }
    /* the job region runs from the header to the first region after it */
    uint64_t job_end = name_len ? name_off : (n ? off[0] : size);
    off[n] = hsize;
    len[n++] = job_end - hsize;
    if (name_len) {
        off[n] = name_off;
        len[n++] = name_len;
    }
    *regions = n;
    *in = *out = 0;
    z_stream z;
    memset(&z, 0, sizeof(z));
    if (inflateInit(&z) != Z_OK)
        return -1;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        long long k = -1;
        if (off[i] <= size && len[i] <= size - off[i])
            k = inflate_region(&z, comp, f + off[i], (size_t)len[i]);
        if (k < 0)
            rc = -1;
        *in += (long long)len[i];
        *out += k;
    }
    inflateEnd(&z);
    return rc;
}

static int
cmd_floor(const char *path, long iters)
{
    size_t size;
    unsigned char *f = slurp(path, &size);
    long long in = 0, out = 0;
    int regions = 0;

    if (f == NULL || floor_once(f, size, &regions, &in, &out) < 0) {
        fprintf(stderr, "bench_darshan: %s: unreadable log\n", path);
        free(f);
        return 1;
    }
    if (iters > 0) {
        free(f);
        double t0 = now_us();
        for (long i = 0; i < iters; i++) {
            /* the read counts too, as it does for every CLI */
            f = slurp(path, &size);
            floor_once(f, size, &regions, &in, &out);
            free(f);
        }
        printf("%.1f us/pass; ", (now_us() - t0) / (double)iters);
        f = NULL;
    }
    printf("%d %lld %lld\n", regions, in, out);
    free(f);
    return 0;
}

static int
cmd_open(const char *path, long iters)
{
    struct tokio_darshan *log;
    double t0 = now_us();

    for (long i = 0; i < iters; i++) {
        if (tokio_darshan_open(&log, path) < 0) {
            fprintf(stderr, "bench_darshan: %s\n", tokio_errmsg());
            return 1;
        }
        tokio_darshan_free(log);
    }
    printf("%.1f us/open\n", (now_us() - t0) / (double)iters);
    return 0;
}

/* What cache-darshan opens for `o` (darshan_json.h's views): --total
 * alone folds the records of the modules it derives figures for into
 * o->fold as they are inflated. */
static int
open_for(struct tokio_darshan **log, const char *path,
         struct tokio_darshan_json_opts *o)
{
    struct tokio_darshan_fold *fold = NULL;
    struct tokio_darshan_select sel = {
        .modules = TOKIO_DARSHAN_DERIVED_MODULES,
        .skip_names = 1,
        .record = tokio_darshan_fold_record,
    };

    if (o->base)
        return tokio_darshan_open(log, path);
    if (tokio_darshan_fold_new(&fold, TOKIO_DARSHAN_FOLD_TOTALS) < 0)
        return -1;
    sel.payload = fold;
    o->fold = fold;
    return tokio_darshan_open_select(log, path, &sel);
}

/* Release what open_for() made. */
static void
close_for(struct tokio_darshan *log, struct tokio_darshan_json_opts *o)
{
    tokio_darshan_free(log);
    tokio_darshan_fold_free((struct tokio_darshan_fold *)o->fold);
    o->fold = NULL;
}

static int
cmd_phases(const char *path, long iters, const char *mode)
{
    struct tokio_darshan_json_opts o = { 0 };
    double t_open = 0, t_stream = 0, t_free = 0, t_tree = 0, t_twrite = 0;
    FILE *null = fopen("/dev/null", "w");
    const unsigned flags = TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4);

    if (null == NULL)
        return 1;
    if (getenv("BENCH_DARSHAN_NOLOCK") != NULL)
        __fsetlocking(null, FSETLOCKING_BYCALLER);
    if (strcmp(mode, "total") == 0)
        o.total = 1;
    else
        o.base = 1;
    for (long i = 0; i < iters; i++) {
        struct tokio_darshan *log;
        json_t *json;
        double t0 = now_us();
        if (open_for(&log, path, &o) < 0) {
            fprintf(stderr, "bench_darshan: %s\n", tokio_errmsg());
            return 1;
        }
        double t1 = now_us();
        if (tokio_darshan_write_json(log, null, &o, flags) < 0) {
            fprintf(stderr, "bench_darshan: %s\n", tokio_errmsg());
            return 1;
        }
        fflush(null);
        double t2 = now_us();
        close_for(log, &o);
        double t3 = now_us();
        /* the tree the command does not build, for comparison (on a log
         * of its own, so that releasing the tree's memory does not land
         * in the timed free above) */
        if (open_for(&log, path, &o) < 0)
            return 1;
        double t4 = now_us();
        if (tokio_darshan_to_json(log, &o, &json) < 0) {
            fprintf(stderr, "bench_darshan: %s\n", tokio_errmsg());
            return 1;
        }
        double t5 = now_us();
        tokio_json_write(json, null, flags);
        fflush(null);
        json_decref(json);
        double t6 = now_us();
        close_for(log, &o);
        t_open += t1 - t0;
        t_stream += t2 - t1;
        t_free += t3 - t2;
        t_tree += t5 - t4;
        t_twrite += t6 - t5;
    }
    fclose(null);
    printf("open %.1f us, write_json %.1f us, free %.1f us (per call, %s; "
           "as a tree: to_json %.1f us + write and free %.1f us)\n",
           t_open / iters, t_stream / iters, t_free / iters, mode,
           t_tree / iters, t_twrite / iters);
    return 0;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* One run of argv; wall milliseconds, peak RSS, minor faults, CPU
 * milliseconds and exit status. */
static double
run_once(char **av, long *rss_kib, long *faults, double *cpu_ms,
         int *failed)
{
    struct rusage ru;
    int status;
    double t0 = now_us();
    pid_t pid = fork();

    *faults = 0;
    *cpu_ms = 0;
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        dup2(fd, 1);
        dup2(fd, 2);
        execvp(av[0], av);
        _exit(127);
    }
    if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
        *failed = 1;
        return 0;
    }
    double t = (now_us() - t0) / 1e3;
    *failed = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    if (ru.ru_maxrss > *rss_kib)
        *rss_kib = ru.ru_maxrss;
    *faults = ru.ru_minflt;
    *cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
              (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    return t;
}

static int
cmd_time(int argc, char **argv)
{
    long iters = atol(argv[2]);
    char **cmds[64];
    int ncmd = 0;

    if (iters <= 0)
        return 2;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            argv[i] = NULL;
            if (i + 1 < argc && ncmd < 64)
                cmds[ncmd++] = &argv[i + 1];
        }
    }
    double *t = calloc((size_t)(ncmd * iters), sizeof(double));
    double *flt = calloc((size_t)(ncmd * iters), sizeof(double));
    long rss[64] = { 0 };
    double cpu[64];
    int fails[64] = { 0 };
    if (t == NULL || flt == NULL) {
        free(t);
        free(flt);
        return 1;
    }
    for (long r = 0; r < iters; r++) {
        for (int c = 0; c < ncmd; c++) {
            int failed;
            long faults;
            double ms;
            t[c * iters + r] = run_once(cmds[c], &rss[c], &faults, &ms,
                                        &failed);
            flt[c * iters + r] = (double)faults;
            if (r == 0 || ms < cpu[c])
                cpu[c] = ms;
            fails[c] += failed;
        }
    }
    for (int c = 0; c < ncmd; c++) {
        double *v = t + c * iters, *f = flt + c * iters;
        qsort(v, (size_t)iters, sizeof(double), cmp_double);
        qsort(f, (size_t)iters, sizeof(double), cmp_double);
        double med = iters % 2 ? v[iters / 2]
                               : (v[iters / 2 - 1] + v[iters / 2]) / 2;
        printf("%.2f %.2f %ld %d %.0f %.2f\n", med, v[0], rss[c], fails[c],
               f[iters / 2], cpu[c]);
    }
    free(t);
    free(flt);
    return 0;
}

int
main(int argc, char **argv)
{
    if (argc >= 5 && strcmp(argv[1], "time") == 0)
        return cmd_time(argc, argv);
    if (argc >= 3 && strcmp(argv[1], "floor") == 0)
        return cmd_floor(argv[2], argc > 3 ? atol(argv[3]) : 0);
    if (argc == 4 && strcmp(argv[1], "open") == 0)
        return cmd_open(argv[2], atol(argv[3]));
    if (argc == 5 && strcmp(argv[1], "phases") == 0)
        return cmd_phases(argv[2], atol(argv[3]), argv[4]);
    fprintf(stderr, "usage: bench_darshan floor LOG [N] | open LOG N | "
            "phases LOG N base|total | time N -- CMD... [-- CMD...]\n");
    return 2;
}
