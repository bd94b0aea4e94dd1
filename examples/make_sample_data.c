/*
 * examples/make_sample_data.c - writes the project's own sample Darshan
 * data with the library's log writer, so the demo, the examples' site.json
 * (darshan_log_dirs: examples/data/darshanlogs) and the benchmarks need no
 * third-party logs.  Everything is synthetic and deterministic (a fixed
 * PRNG seed), so two runs give the same bytes.
 *
 *   make_sample_data OUTDIR
 *       OUTDIR/darshanlogs/YYYY/M/D/<user>_<exe>_id<jobid>_<M>-<D>-<secs>-
 *       <hash>_1.darshan for four jobs (the runtime's naming; the date and
 *       seconds after midnight are the job's start in UTC, so the tree
 *       does not depend on the machine's time zone).
 *   make_sample_data --seeds DIR
 *       three small logs (< 4 KiB) for fuzz/corpus/darshan.
 *   make_sample_data --bench-log PATH --ranks N --files M
 *       one job of N ranks, each with M files of its own (POSIX) and
 *       a shared output file (POSIX, MPI-IO, LUSTRE), for benchmarks.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_writer.h"

#define MAX_COUNTERS    128     /* more than any module's list */
#define PRNG_SEED       UINT64_C(0x746f6b696f)  /* "tokio" */
#define MIB             INT64_C(1048576)

/* splitmix64: tiny, fixed, and the same everywhere. */
static uint64_t
next_rand(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A record under construction: counters looked up by their names, so
 * the code reads like darshan-parser output and survives list changes. */
struct rec {
    int mod;
    int64_t c[MAX_COUNTERS];
    double f[MAX_COUNTERS];
};

static void
rec_init(struct rec *r, int mod)
{
    r->mod = mod;
    for (size_t i = 0; i < MAX_COUNTERS; i++) {
        r->c[i] = 0;
        r->f[i] = 0.0;
    }
}

static void
die(const char *what)
{
    fprintf(stderr, "make_sample_data: %s\n", what);
    exit(1);
}

static size_t
index_of(int mod, const char *name, int floating)
{
    size_t n = floating ? tokio_darshan_fcounter_count(mod)
                        : tokio_darshan_counter_count(mod);

    for (size_t i = 0; i < n; i++) {
        const char *c = floating ? tokio_darshan_fcounter_name(mod, i)
                                 : tokio_darshan_counter_name(mod, i);
        if (strcmp(c, name) == 0)
            return i;
    }
    fprintf(stderr, "make_sample_data: no counter %s\n", name);
    exit(1);
}

static void
seti(struct rec *r, const char *name, int64_t v)
{
    r->c[index_of(r->mod, name, 0)] = v;
}

static void
setf(struct rec *r, const char *name, double v)
{
    r->f[index_of(r->mod, name, 1)] = v;
}

static void
check(int rc)
{
    if (rc < 0)
        die(tokio_errmsg());
}

static void
emit(struct tokio_darshan_writer *w, const struct rec *r, const char *name,
     int64_t rank)
{
    uint64_t id = tokio_darshan_writer_hash(name);

    check(tokio_darshan_writer_add_record(
        w, r->mod, id, rank, r->c, tokio_darshan_counter_count(r->mod),
        r->f, tokio_darshan_fcounter_count(r->mod)));
}

/* A POSIX/MPI-IO/STDIO record of one access pattern. */
static void
io_rec(struct rec *r, int mod, int64_t opens, int64_t reads,
       int64_t writes, int64_t xfer, double t0, double t1)
{
    const char *p = mod == TOKIO_DARSHAN_POSIX ? "POSIX"
                    : mod == TOKIO_DARSHAN_MPIIO ? "MPIIO" : "STDIO";
    char n[64];

    rec_init(r, mod);
#define I(s, v) (snprintf(n, sizeof(n), "%s_%s", p, s), seti(r, n, v))
#define F(s, v) (snprintf(n, sizeof(n), "%s_F_%s", p, s), setf(r, n, v))
    if (mod == TOKIO_DARSHAN_MPIIO) {
        I("COLL_OPENS", opens);
        I("COLL_READS", reads);
        I("COLL_WRITES", writes);
    } else {
        I("OPENS", opens);
        I("READS", reads);
        I("WRITES", writes);
    }
    I("BYTES_READ", reads * xfer);
    I("BYTES_WRITTEN", writes * xfer);
    if (mod == TOKIO_DARSHAN_POSIX) {
        I("MAX_BYTE_READ", reads ? reads * xfer - 1 : 0);
        I("MAX_BYTE_WRITTEN", writes ? writes * xfer - 1 : 0);
        I("CONSEC_READS", reads);
        I("CONSEC_WRITES", writes);
        I("ACCESS1_ACCESS", xfer);
        I("ACCESS1_COUNT", reads + writes);
        I("MEM_ALIGNMENT", 8);
        I("FILE_ALIGNMENT", 1048576);
        I("FASTEST_RANK", 0);
        I("SLOWEST_RANK", 0);
    }
    double io = (t1 - t0) * 0.8;
    F("OPEN_START_TIMESTAMP", t0);
    F(reads ? "READ_START_TIMESTAMP" : "WRITE_START_TIMESTAMP", t0 + 0.01);
    F(reads ? "READ_END_TIMESTAMP" : "WRITE_END_TIMESTAMP", t1 - 0.01);
    F("CLOSE_END_TIMESTAMP", t1);
    F(reads ? "READ_TIME" : "WRITE_TIME", io);
    F("META_TIME", (t1 - t0) * 0.05);
#undef I
#undef F
}

static void
lustre(struct tokio_darshan_writer *w, const char *name, int64_t count,
       uint64_t *rng)
{
    struct tokio_darshan_lustre_comp c;
    int64_t osts[64];
    int64_t first = (int64_t)(next_rand(rng) % 248);

    memset(&c, 0, sizeof(c));
    c.counters[0] = MIB;        /* STRIPE_SIZE */
    c.counters[1] = count;      /* STRIPE_COUNT */
    c.counters[2] = 0;          /* raid0 */
    c.counters[3] = 0;          /* no flags */
    c.counters[4] = 0;          /* EXT_START */
    c.counters[5] = -1;         /* EXT_END: to EOF */
    c.counters[6] = -1;         /* MIRROR_ID: none */
    for (int64_t i = 0; i < count; i++)
        osts[i] = (first + i) % 248;
    check(tokio_darshan_writer_add_lustre(w, tokio_darshan_writer_hash(name),
                                          -1, &c, 1, osts, (size_t)count));
}

static const struct tokio_darshan_mount site_mounts[] = {
    { "/global/cscratch1", "lustre" },
    { "/global/project", "gpfs" },
    { "/global/homes", "gpfs" },
    { "/scratch", "lustre" },
    { "/tmp", "tmpfs" },
    { "/", "rootfs" },
};

struct job {
    const char *user, *exe_name, *cmdline;
    int64_t uid, jobid, start, runtime, nprocs;
};

static struct tokio_darshan_writer *
new_writer(const struct job *j, uint64_t *rng)
{
    static const char *const keys[] = { "lib_ver", "h" };
    static const char *const vals[] = { "3.5.0", "romio_no_indep_rw=true" };
    struct tokio_darshan_job_info info;
    struct tokio_darshan_writer *w = NULL;

    memset(&info, 0, sizeof(info));
    info.uid = j->uid;
    info.jobid = j->jobid;
    info.start_time = j->start;
    info.start_time_nsec = (int64_t)(next_rand(rng) % 1000000000);
    info.end_time = j->start + j->runtime;
    info.end_time_nsec = (int64_t)(next_rand(rng) % 1000000000);
    info.nprocs = j->nprocs;
    info.exe = j->cmdline;
    info.n_metadata = 2;
    info.metadata_keys = keys;
    info.metadata_values = vals;
    info.n_mounts = sizeof(site_mounts) / sizeof(site_mounts[0]);
    info.mounts = site_mounts;
    check(tokio_darshan_writer_new(&w, &info));
    return w;
}

static void
name(struct tokio_darshan_writer *w, const char *n)
{
    check(tokio_darshan_writer_add_name(w, tokio_darshan_writer_hash(n), n));
}

static void
mkdirs(const char *path)
{
    char p[4096];

    snprintf(p, sizeof(p), "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            die("cannot make a folder");
        *s = '/';
    }
    if (mkdir(p, 0777) != 0 && errno != EEXIST)
        die("cannot make a folder");
}

/* Write `w` for job `j` under OUTDIR/darshanlogs with the runtime's name. */
static void
save(struct tokio_darshan_writer *w, const struct job *j, const char *out,
     uint64_t *rng)
{
    char dir[4096], path[4600];
    time_t t = (time_t)j->start;
    struct tm tm;

    gmtime_r(&t, &tm);
    snprintf(dir, sizeof(dir), "%s/darshanlogs/%d/%d/%d", out,
             tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    mkdirs(dir);
    snprintf(path, sizeof(path), "%s/%s_%s_id%" PRId64 "_%d-%d-%d-%" PRIu64
             "_1.darshan", dir, j->user, j->exe_name, j->jobid,
             tm.tm_mon + 1, tm.tm_mday,
             tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec,
             next_rand(rng) % UINT64_C(10000000000000000000));
    check(tokio_darshan_writer_write(w, path));
    printf("%s\n", path);
}

/* IOR-like: 64 ranks write one shared striped file through MPI-IO. */
static struct tokio_darshan_writer *
ior_job(const struct job *j, uint64_t *rng)
{
    struct tokio_darshan_writer *w = new_writer(j, rng);
    const char *f = "/scratch/glock/ior/testFile";
    struct rec r;
    double t0 = 2.0, t1 = (double)j->runtime - 2.0;
    int64_t per_rank = 64, xfer = 4 * MIB;

    name(w, f);
    name(w, "<STDOUT>");
    io_rec(&r, TOKIO_DARSHAN_POSIX, 64, 0, j->nprocs * per_rank, xfer, t0,
           t1);
    seti(&r, "POSIX_FASTEST_RANK", 17);
    seti(&r, "POSIX_SLOWEST_RANK", 42);
    seti(&r, "POSIX_FASTEST_RANK_BYTES", per_rank * xfer);
    seti(&r, "POSIX_SLOWEST_RANK_BYTES", per_rank * xfer);
    setf(&r, "POSIX_F_FASTEST_RANK_TIME", 21.5);
    setf(&r, "POSIX_F_SLOWEST_RANK_TIME", 38.25);
    emit(w, &r, f, -1);
    io_rec(&r, TOKIO_DARSHAN_MPIIO, 64, 0, j->nprocs * per_rank, xfer, t0,
           t1);
    emit(w, &r, f, -1);
    lustre(w, f, 8, rng);
    io_rec(&r, TOKIO_DARSHAN_STDIO, 1, 0, 40, 80, 0.5, (double)j->runtime);
    emit(w, &r, "<STDOUT>", 0);
    return w;
}

/* Read-heavy analysis: 16 ranks each read 4 HDF5 files of their own. */
static struct tokio_darshan_writer *
read_job(const struct job *j, uint64_t *rng)
{
    struct tokio_darshan_writer *w = new_writer(j, rng);
    char f[256];
    struct rec r;

    for (int64_t rank = 0; rank < j->nprocs; rank++) {
        for (int k = 0; k < 4; k++) {
            snprintf(f, sizeof(f), "/global/cscratch1/sd/alice/run42/"
                     "part-%03" PRId64 "-%d.h5", rank, k);
            name(w, f);
            int64_t reads = 100 + (int64_t)(next_rand(rng) % 400);
            double t0 = 1.0 + (double)(next_rand(rng) % 100) / 16.0;
            io_rec(&r, TOKIO_DARSHAN_POSIX, 1, reads, 0, MIB, t0,
                   t0 + (double)reads / 64.0);
            emit(w, &r, f, rank);
            rec_init(&r, TOKIO_DARSHAN_H5F);
            seti(&r, "H5F_OPENS", 1);
            seti(&r, "H5F_FLUSHES", 0);
            seti(&r, "H5F_USE_MPIIO", 0);
            setf(&r, "H5F_F_OPEN_START_TIMESTAMP", t0);
            setf(&r, "H5F_F_CLOSE_END_TIMESTAMP", t0 + (double)reads / 64.0);
            emit(w, &r, f, rank);
        }
    }
    name(w, "/global/homes/a/alice/analysis.cfg");
    io_rec(&r, TOKIO_DARSHAN_STDIO, 1, 3, 0, 4096, 0.25, 0.5);
    emit(w, &r, "/global/homes/a/alice/analysis.cfg", -1);
    return w;
}

/* A small serial script: STDIO only. */
static struct tokio_darshan_writer *
stdio_job(const struct job *j, uint64_t *rng)
{
    struct tokio_darshan_writer *w = new_writer(j, rng);
    static const char *const fs[] = {
        "<STDOUT>", "<STDERR>", "/global/homes/b/bob/params.yaml",
        "/global/project/projectdirs/m888/bob/summary.csv",
    };
    struct rec r;

    for (size_t i = 0; i < 4; i++) {
        name(w, fs[i]);
        io_rec(&r, TOKIO_DARSHAN_STDIO, 1, i == 2 ? 12 : 0,
               i == 2 ? 0 : 20 + (int64_t)i, 512, 0.1 * (double)i,
               (double)j->runtime - 1.0);
        emit(w, &r, fs[i], 0);
    }
    return w;
}

/* A checkpoint job: 32 ranks, a file per rank, written through POSIX. */
static struct tokio_darshan_writer *
fpp_job(const struct job *j, uint64_t *rng)
{
    struct tokio_darshan_writer *w = new_writer(j, rng);
    char f[256];
    struct rec r;

    for (int64_t rank = 0; rank < j->nprocs; rank++) {
        snprintf(f, sizeof(f), "/scratch/carol/ckpt/step0100/rank%04"
                 PRId64 ".dat", rank);
        name(w, f);
        io_rec(&r, TOKIO_DARSHAN_POSIX, 1, 0, 256, MIB, 3.0,
               3.0 + 4.0 + (double)(next_rand(rng) % 64) / 8.0);
        emit(w, &r, f, rank);
        lustre(w, f, 1, rng);
    }
    return w;
}

static const struct job jobs[] = {
    { "glock", "ior", "/global/homes/g/glock/bin/ior -a MPIIO -t 4m -b 256m "
      "-o /scratch/glock/ior/testFile", 69615, 4478601, 1550138400, 95, 64 },
    { "alice", "h5analyze", "./h5analyze --in /global/cscratch1/sd/alice/"
      "run42", 70001, 4478655, 1550145723, 310, 16 },
    { "bob", "python", "python summarize.py params.yaml", 70002, 4479002,
      1550188800 + 3600 * 5, 41, 1 },
    { "carol", "ckpt", "/scratch/carol/bin/ckpt --steps 100", 70003,
      4479120, 1550232000, 140, 32 },
};

typedef struct tokio_darshan_writer *(*job_fn)(const struct job *,
                                               uint64_t *);

static void
sample_tree(const char *out)
{
    static const job_fn fns[] = { ior_job, read_job, stdio_job, fpp_job };
    uint64_t rng = PRNG_SEED;

    for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
        struct tokio_darshan_writer *w = fns[i](&jobs[i], &rng);
        save(w, &jobs[i], out, &rng);
        tokio_darshan_writer_free(w);
    }
}

/* Small logs for the fuzzer: each module kind, each compression. */
static void
seeds(const char *dir)
{
    static const struct job tiny = { "fuzz", "seed", "./seed", 1, 2,
                                     1550138400, 10, 4 };
    char path[4096];
    uint64_t rng = PRNG_SEED;
    struct rec r;

    mkdirs(dir);
    for (int k = 0; k < 3; k++) {
        struct tokio_darshan_writer *w = new_writer(&tiny, &rng);
        const char *f = "/scratch/fuzz/a.dat";
        name(w, f);
        name(w, "<STDOUT>");
        io_rec(&r, TOKIO_DARSHAN_STDIO, 1, 0, 3, 64, 0.5, 1.0);
        emit(w, &r, "<STDOUT>", 0);
        if (k != 1) {
            io_rec(&r, TOKIO_DARSHAN_POSIX, 4, 8, 8, 4096, 1.0, 2.0);
            emit(w, &r, f, -1);
            lustre(w, f, 2, &rng);
        }
        if (k == 2) {
            io_rec(&r, TOKIO_DARSHAN_MPIIO, 4, 0, 8, 4096, 1.0, 2.0);
            emit(w, &r, f, -1);
        }
        /* zlib (the runtime's), bzip2, and plain, one seed each */
        check(tokio_darshan_writer_set_compression(
            w, k == 0 ? TOKIO_DARSHAN_ZLIB
               : k == 1 ? TOKIO_DARSHAN_NONE : TOKIO_DARSHAN_BZIP2));
        static const char *const names[] = {
            "writer_posix_lustre_stdio_zlib", "writer_stdio_only_none",
            "writer_mpiio_bzip2",
        };
        snprintf(path, sizeof(path), "%s/%s.darshan", dir, names[k]);
        check(tokio_darshan_writer_write(w, path));
        printf("%s\n", path);
        tokio_darshan_writer_free(w);
    }
}

static void
bench_log(const char *path, long ranks, long files)
{
    struct job j = { "bench", "bench", "./bench", 1, 1, 1550138400, 600,
                     ranks };
    uint64_t rng = PRNG_SEED;
    char f[256];
    struct rec r;

    struct tokio_darshan_writer *w = new_writer(&j, &rng);
    name(w, "/scratch/bench/shared.dat");
    io_rec(&r, TOKIO_DARSHAN_POSIX, ranks, 0, ranks * 16, MIB, 1.0, 500.0);
    emit(w, &r, "/scratch/bench/shared.dat", -1);
    io_rec(&r, TOKIO_DARSHAN_MPIIO, ranks, 0, ranks * 16, MIB, 1.0, 500.0);
    emit(w, &r, "/scratch/bench/shared.dat", -1);
    lustre(w, "/scratch/bench/shared.dat", 16, &rng);
    for (long rank = 0; rank < ranks; rank++) {
        for (long k = 0; k < files; k++) {
            snprintf(f, sizeof(f), "/scratch/bench/r%ld/f%ld", rank, k);
            name(w, f);
            int64_t n = 1 + (int64_t)(next_rand(&rng) % 64);
            io_rec(&r, TOKIO_DARSHAN_POSIX, 1, n, n, 65536, 2.0,
                   2.0 + (double)n / 32.0);
            emit(w, &r, f, rank);
        }
    }
    check(tokio_darshan_writer_write(w, path));
    tokio_darshan_writer_free(w);
}

static void
usage(void)
{
    fputs("usage: make_sample_data OUTDIR\n"
          "       make_sample_data --seeds DIR\n"
          "       make_sample_data --bench-log PATH --ranks N --files M\n",
          stderr);
    exit(2);
}

int
main(int argc, char **argv)
{
    if (argc == 2 && argv[1][0] != '-') {
        sample_tree(argv[1]);
    } else if (argc == 3 && strcmp(argv[1], "--seeds") == 0) {
        seeds(argv[2]);
    } else if (argc == 7 && strcmp(argv[1], "--bench-log") == 0 &&
               strcmp(argv[3], "--ranks") == 0 &&
               strcmp(argv[5], "--files") == 0) {
        char *e1, *e2;
        long ranks = strtol(argv[4], &e1, 10);
        long files = strtol(argv[6], &e2, 10);
        if (*e1 || *e2 || ranks < 1 || files < 0 || ranks > 1000000 ||
            files > 1000000)
            usage();
        bench_log(argv[2], ranks, files);
    } else {
        usage();
    }
    return 0;
}
