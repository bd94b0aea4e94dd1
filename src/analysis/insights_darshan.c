/*
 * src/analysis/insights_darshan.c - the one place `tokio insights` reads
 * a Darshan log: one pass over its records gathering what the
 * client-side rules (insights_client.c) and the OST rules
 * (insights_server.c) need, with memory bounded by the job's ranks and
 * OSTs, never by its records: every record is folded into totals, a
 * table per rank, the OSTs the files were striped on and a few short
 * lists of the biggest offenders per rule (the top files), then
 * forgotten.  The reader keeps the records it decodes today; once it
 * hands them over one at a time, tokio__insights_read() changes and
 * nothing else.
 *
 * Facts used (counter names are darshan-util 3.5.0's):
 * - Access sizes: Darshan's ten SIZE_*_ bins count requests of at most
 *   100, 1024, 10240, 102400, 1048576, 4194304, 10485760, 104857600,
 *   1073741824 bytes and more (darshan-runtime's DARSHAN_BUCKET_INC).
 *   A request is small when its bin's upper edge is at most the
 *   small_bytes threshold (1 MiB: the first five bins, as Drishti).
 * - A shared record (rank -1) sums its ranks' bytes and times; its
 *   MAX_BYTE_* is the highest offset any rank touched, so bytes beyond
 *   MAX_BYTE_* + 1 were moved more than once.
 * - MPI-IO hints are in the job's metadata under "h" as
 *   key=value;key=value (when the runtime was asked to log them).
 */
#include "analysis/insights_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

/* Upper edges of Darshan's access-size bins (inclusive). */
static const double bin_edges[10] = {
    100, 1024, 10240, 102400, 1048576, 4194304, 10485760, 104857600,
    1073741824, INFINITY
};
static const char *const bin_names[10] = {
    "0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M", "1M_4M", "4M_10M",
    "10M_100M", "100M_1G", "1G_PLUS"
};

/* Ranks tracked one by one at most: a corrupt header can claim 2^62
 * processes; past this the per-rank rules say they were not evaluated. */
#define MAX_RANKS ((int64_t)1 << 21)
/* OSTs tracked at most (the largest Lustre file systems have a few
 * thousand). */
#define MAX_OSTS 4096

/* ---- counter indices ---------------------------------------------------- */

/* The counters the rules read, found by name once per log. */
enum {
    P_READS, P_WRITES, P_BYTES_READ, P_BYTES_WRITTEN, P_SEQ_READS,
    P_SEQ_WRITES, P_CONSEC_READS, P_CONSEC_WRITES, P_MEM_NOT_ALIGNED,
    P_FILE_NOT_ALIGNED, P_FILE_ALIGNMENT, P_MAX_BYTE_READ,
    P_MAX_BYTE_WRITTEN, P_FASTEST_RANK_BYTES, P_SLOWEST_RANK_BYTES,
    P_SIZE_READ, P_SIZE_WRITE = P_SIZE_READ + 10,
    M_INDEP_READS = P_SIZE_WRITE + 10, M_INDEP_WRITES, M_COLL_READS,
    M_COLL_WRITES, M_SPLIT_READS, M_SPLIT_WRITES, M_NB_READS, M_NB_WRITES,
    M_BYTES_READ, M_BYTES_WRITTEN,
    S_BYTES_READ, S_BYTES_WRITTEN,
    HF_USE_MPIIO,
    HD_READS, HD_WRITES, HD_BYTES_READ, HD_BYTES_WRITTEN, HD_USE_COLLECTIVE,
    HD_SIZE_READ, HD_SIZE_WRITE = HD_SIZE_READ + 10,
    N_INDEP_READS = HD_SIZE_WRITE + 10, N_INDEP_WRITES, N_COLL_READS,
    N_COLL_WRITES, N_NB_READS, N_NB_WRITES, N_BYTES_READ, N_BYTES_WRITTEN,
    N_SIZE_READ, N_SIZE_WRITE = N_SIZE_READ + 10,
    N_COUNTERS = N_SIZE_WRITE + 10
};
enum { PF_META, PF_READ, PF_WRITE, PF_FASTEST, PF_SLOWEST, N_FCOUNTERS };

struct indices {
    int c[N_COUNTERS];          /* -1: the module lacks it */
    int f[N_FCOUNTERS];
};

static void
find_bins(struct indices *x, int at, int mod, const char *fmt)
{
    char name[64];

    for (int b = 0; b < 10; b++) {
        snprintf(name, sizeof(name), fmt, bin_names[b]);
        x->c[at + b] = tokio_darshan_counter_index(mod, name, 0);
    }
}

static void
find_indices(struct indices *x)
{
    static const struct { int at, mod; const char *name; } names[] = {
        { P_READS, TOKIO_DARSHAN_POSIX, "POSIX_READS" },
        { P_WRITES, TOKIO_DARSHAN_POSIX, "POSIX_WRITES" },
        { P_BYTES_READ, TOKIO_DARSHAN_POSIX, "POSIX_BYTES_READ" },
        { P_BYTES_WRITTEN, TOKIO_DARSHAN_POSIX, "POSIX_BYTES_WRITTEN" },
        { P_SEQ_READS, TOKIO_DARSHAN_POSIX, "POSIX_SEQ_READS" },
        { P_SEQ_WRITES, TOKIO_DARSHAN_POSIX, "POSIX_SEQ_WRITES" },
        { P_CONSEC_READS, TOKIO_DARSHAN_POSIX, "POSIX_CONSEC_READS" },
        { P_CONSEC_WRITES, TOKIO_DARSHAN_POSIX, "POSIX_CONSEC_WRITES" },
        { P_MEM_NOT_ALIGNED, TOKIO_DARSHAN_POSIX, "POSIX_MEM_NOT_ALIGNED" },
        { P_FILE_NOT_ALIGNED, TOKIO_DARSHAN_POSIX,
          "POSIX_FILE_NOT_ALIGNED" },
        { P_FILE_ALIGNMENT, TOKIO_DARSHAN_POSIX, "POSIX_FILE_ALIGNMENT" },
        { P_MAX_BYTE_READ, TOKIO_DARSHAN_POSIX, "POSIX_MAX_BYTE_READ" },
        { P_MAX_BYTE_WRITTEN, TOKIO_DARSHAN_POSIX,
          "POSIX_MAX_BYTE_WRITTEN" },
        { P_FASTEST_RANK_BYTES, TOKIO_DARSHAN_POSIX,
          "POSIX_FASTEST_RANK_BYTES" },
        { P_SLOWEST_RANK_BYTES, TOKIO_DARSHAN_POSIX,
          "POSIX_SLOWEST_RANK_BYTES" },
        { M_INDEP_READS, TOKIO_DARSHAN_MPIIO, "MPIIO_INDEP_READS" },
        { M_INDEP_WRITES, TOKIO_DARSHAN_MPIIO, "MPIIO_INDEP_WRITES" },
        { M_COLL_READS, TOKIO_DARSHAN_MPIIO, "MPIIO_COLL_READS" },
        { M_COLL_WRITES, TOKIO_DARSHAN_MPIIO, "MPIIO_COLL_WRITES" },
        { M_SPLIT_READS, TOKIO_DARSHAN_MPIIO, "MPIIO_SPLIT_READS" },
        { M_SPLIT_WRITES, TOKIO_DARSHAN_MPIIO, "MPIIO_SPLIT_WRITES" },
        { M_NB_READS, TOKIO_DARSHAN_MPIIO, "MPIIO_NB_READS" },
        { M_NB_WRITES, TOKIO_DARSHAN_MPIIO, "MPIIO_NB_WRITES" },
        { M_BYTES_READ, TOKIO_DARSHAN_MPIIO, "MPIIO_BYTES_READ" },
        { M_BYTES_WRITTEN, TOKIO_DARSHAN_MPIIO, "MPIIO_BYTES_WRITTEN" },
        { S_BYTES_READ, TOKIO_DARSHAN_STDIO, "STDIO_BYTES_READ" },
        { S_BYTES_WRITTEN, TOKIO_DARSHAN_STDIO, "STDIO_BYTES_WRITTEN" },
        { HF_USE_MPIIO, TOKIO_DARSHAN_H5F, "H5F_USE_MPIIO" },
        { HD_READS, TOKIO_DARSHAN_H5D, "H5D_READS" },
        { HD_WRITES, TOKIO_DARSHAN_H5D, "H5D_WRITES" },
        { HD_BYTES_READ, TOKIO_DARSHAN_H5D, "H5D_BYTES_READ" },
        { HD_BYTES_WRITTEN, TOKIO_DARSHAN_H5D, "H5D_BYTES_WRITTEN" },
        { HD_USE_COLLECTIVE, TOKIO_DARSHAN_H5D, "H5D_USE_MPIIO_COLLECTIVE" },
        { N_INDEP_READS, TOKIO_DARSHAN_PNETCDF_VAR,
          "PNETCDF_VAR_INDEP_READS" },
        { N_INDEP_WRITES, TOKIO_DARSHAN_PNETCDF_VAR,
          "PNETCDF_VAR_INDEP_WRITES" },
        { N_COLL_READS, TOKIO_DARSHAN_PNETCDF_VAR, "PNETCDF_VAR_COLL_READS" },
        { N_COLL_WRITES, TOKIO_DARSHAN_PNETCDF_VAR,
          "PNETCDF_VAR_COLL_WRITES" },
        { N_NB_READS, TOKIO_DARSHAN_PNETCDF_VAR, "PNETCDF_VAR_NB_READS" },
        { N_NB_WRITES, TOKIO_DARSHAN_PNETCDF_VAR, "PNETCDF_VAR_NB_WRITES" },
        { N_BYTES_READ, TOKIO_DARSHAN_PNETCDF_VAR, "PNETCDF_VAR_BYTES_READ" },
        { N_BYTES_WRITTEN, TOKIO_DARSHAN_PNETCDF_VAR,
          "PNETCDF_VAR_BYTES_WRITTEN" },
    };
    static const char *const fnames[N_FCOUNTERS] = {
        "POSIX_F_META_TIME", "POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME",
        "POSIX_F_FASTEST_RANK_TIME", "POSIX_F_SLOWEST_RANK_TIME"
    };

    for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
        x->c[names[i].at] = tokio_darshan_counter_index(names[i].mod,
                                                        names[i].name, 0);
    find_bins(x, P_SIZE_READ, TOKIO_DARSHAN_POSIX, "POSIX_SIZE_READ_%s");
    find_bins(x, P_SIZE_WRITE, TOKIO_DARSHAN_POSIX, "POSIX_SIZE_WRITE_%s");
    find_bins(x, HD_SIZE_READ, TOKIO_DARSHAN_H5D, "H5D_SIZE_READ_AGG_%s");
    find_bins(x, HD_SIZE_WRITE, TOKIO_DARSHAN_H5D, "H5D_SIZE_WRITE_AGG_%s");
    find_bins(x, N_SIZE_READ, TOKIO_DARSHAN_PNETCDF_VAR,
              "PNETCDF_VAR_SIZE_READ_AGG_%s");
    find_bins(x, N_SIZE_WRITE, TOKIO_DARSHAN_PNETCDF_VAR,
              "PNETCDF_VAR_SIZE_WRITE_AGG_%s");
    for (int i = 0; i < N_FCOUNTERS; i++)
        x->f[i] = tokio_darshan_counter_index(TOKIO_DARSHAN_POSIX,
                                              fnames[i], 1);
}

/* ---- the pass over the records ----------------------------------------- */

struct pass {
    struct tokio__client *c;
    struct indices x;
    int small_bins;             /* bins 0 .. small_bins - 1 are small */
    double straggler;           /* imbalance_stragglers */
    int top;
    int ready;
    size_t n_mounts;
    double *mount_bytes;        /* per mount of the log's table */
    struct tokio_darshan_fold *fold;    /* POSIX's --perf figures */
};

/* Counter `k` of `r` (0 when the module lacks it). */
static double
cnt(const struct pass *p, const struct tokio_darshan_record *r, int k)
{
    int i = p->x.c[k];

    return i >= 0 && (size_t)i < r->n_counters ? (double)r->counters[i] : 0;
}

static double
fcnt(const struct pass *p, const struct tokio_darshan_record *r, int k)
{
    int i = p->x.f[k];

    return i >= 0 && (size_t)i < r->n_fcounters ? r->fcounters[i] : 0;
}

/* The small requests among the bins starting at counter `at`. */
static double
small(const struct pass *p, const struct tokio_darshan_record *r, int at)
{
    double s = 0;

    for (int b = 0; b < p->small_bins; b++)
        s += cnt(p, r, at + b);
    return s;
}

/* Keep (id, rank) if `key` is among the t->max biggest; the first of
 * equals stays. */
void
tokio__top_add(struct tokio__top *t, uint64_t id, int64_t rank, double key,
        double bytes)
{
    size_t low = 0;

    if (!(key > 0) || t->max == 0)
        return;
    if (t->n < t->max) {
        t->e[t->n++] = (struct tokio__top_entry){ id, rank, key, bytes,
                                                  NULL };
        return;
    }
    for (size_t i = 1; i < t->n; i++)
        if (t->e[i].key < t->e[low].key)
            low = i;
    if (key > t->e[low].key)
        t->e[low] = (struct tokio__top_entry){ id, rank, key, bytes, NULL };
}

static int
by_key(const void *a, const void *b)
{
    const struct tokio__top_entry *x = a, *y = b;

    return (x->key < y->key) - (x->key > y->key);
}

static void
add_io(struct tokio__io *io, double ops, double bytes, double small_ops,
       double seq, double consec)
{
    io->ops += ops;
    io->bytes += bytes;
    io->small += small_ops;
    io->seq += seq;
    io->consec += consec;
}

/* The mount point `name` is under (the table is longest first). */
static void
count_mount(struct pass *p, const struct tokio_darshan *log,
            const char *name, double bytes)
{
    if (name == NULL || bytes <= 0)
        return;
    for (size_t i = 0; i < p->n_mounts; i++) {
        const char *m = tokio_darshan_mount(log, i)->path;
        if (strncmp(name, m, strlen(m)) == 0) {
            p->mount_bytes[i] += bytes;
            return;
        }
    }
}

static void
on_posix(struct pass *p, const struct tokio_darshan *log,
         const struct tokio_darshan_record *r)
{
    struct tokio__client *c = p->c;
    double reads = cnt(p, r, P_READS), writes = cnt(p, r, P_WRITES);
    double br = cnt(p, r, P_BYTES_READ), bw = cnt(p, r, P_BYTES_WRITTEN);
    double sr = small(p, r, P_SIZE_READ), sw = small(p, r, P_SIZE_WRITE);
    double seqr = cnt(p, r, P_SEQ_READS), seqw = cnt(p, r, P_SEQ_WRITES);
    double mem = cnt(p, r, P_MEM_NOT_ALIGNED);
    double file = cnt(p, r, P_FILE_NOT_ALIGNED);
    double meta = fcnt(p, r, PF_META), rt = fcnt(p, r, PF_READ);
    double wt = fcnt(p, r, PF_WRITE);
    double mbr = cnt(p, r, P_MAX_BYTE_READ);
    double mbw = cnt(p, r, P_MAX_BYTE_WRITTEN);
    /* bytes beyond the extent: moved more than once */
    double red_r = br > mbr + 1 ? br - (mbr + 1) : 0;
    double red_w = bw > mbw + 1 ? bw - (mbw + 1) : 0;

    add_io(&c->p_read, reads, br, sr, seqr, cnt(p, r, P_CONSEC_READS));
    add_io(&c->p_write, writes, bw, sw, seqw, cnt(p, r, P_CONSEC_WRITES));
    c->mem_not_aligned += mem;
    c->file_not_aligned += file;
    if (cnt(p, r, P_FILE_ALIGNMENT) > c->file_alignment)
        c->file_alignment = cnt(p, r, P_FILE_ALIGNMENT);
    c->meta_time += meta;
    c->read_time += rt;
    c->write_time += wt;
    c->redundant_read += red_r;
    c->redundant_write += red_w;
    tokio__top_add(&c->top_small_read, r->id, r->rank, sr, br);
    tokio__top_add(&c->top_small_write, r->id, r->rank, sw, bw);
    tokio__top_add(&c->top_mem, r->id, r->rank, mem, br + bw);
    tokio__top_add(&c->top_file, r->id, r->rank, file, br + bw);
    tokio__top_add(&c->top_red_read, r->id, r->rank, red_r, br);
    tokio__top_add(&c->top_red_write, r->id, r->rank, red_w, bw);
    tokio__top_add(&c->top_rand_read, r->id, r->rank,
            reads - fmax(seqr, cnt(p, r, P_CONSEC_READS)), br);
    tokio__top_add(&c->top_rand_write, r->id, r->rank,
            writes - fmax(seqw, cnt(p, r, P_CONSEC_WRITES)), bw);
    count_mount(p, log, tokio_darshan_name(log, r->id), br + bw);
    if (r->rank == -1) {
        double total = br + bw, tt = rt + wt + meta;
        c->shared_files++;
        c->shared_meta += meta;
        add_io(&c->sh_read, reads, br, sr, 0, 0);
        add_io(&c->sh_write, writes, bw, sw, 0, 0);
        tokio__top_add(&c->top_sh_small_read, r->id, r->rank, sr, br);
        tokio__top_add(&c->top_sh_small_write, r->id, r->rank, sw, bw);
        if (total > 0) {
            double imb = fabs(cnt(p, r, P_SLOWEST_RANK_BYTES) -
                              cnt(p, r, P_FASTEST_RANK_BYTES)) / total;
            c->straggler_bytes_files += imb > p->straggler;
            c->straggler_bytes_max = fmax(c->straggler_bytes_max, imb);
            tokio__top_add(&c->top_strag_bytes, r->id, r->rank, imb, total);
        }
        if (tt > 0) {
            double imb = fabs(fcnt(p, r, PF_SLOWEST) -
                              fcnt(p, r, PF_FASTEST)) / tt;
            c->straggler_time_files += imb > p->straggler;
            c->straggler_time_max = fmax(c->straggler_time_max, imb);
            tokio__top_add(&c->top_strag_time, r->id, r->rank, imb, total);
        }
    } else if (c->ranks != NULL && r->rank >= 0 && r->rank < c->nprocs) {
        struct tokio__rank *k = &c->ranks[r->rank];
        k->read += br;
        k->written += bw;
        k->meta += meta;
        k->own = 1;
    } else if (c->ranks != NULL) {
        c->bad_rank_records++;      /* a rank the job did not have */
    }
}

static void
on_mpiio(struct pass *p, const struct tokio_darshan_record *r)
{
    struct tokio__client *c = p->c;
    double ir = cnt(p, r, M_INDEP_READS), iw = cnt(p, r, M_INDEP_WRITES);

    c->m_indep_reads += ir;
    c->m_indep_writes += iw;
    c->m_coll_reads += cnt(p, r, M_COLL_READS);
    c->m_coll_writes += cnt(p, r, M_COLL_WRITES);
    c->m_split_reads += cnt(p, r, M_SPLIT_READS);
    c->m_split_writes += cnt(p, r, M_SPLIT_WRITES);
    c->m_nb_reads += cnt(p, r, M_NB_READS);
    c->m_nb_writes += cnt(p, r, M_NB_WRITES);
    c->m_bytes += cnt(p, r, M_BYTES_READ) + cnt(p, r, M_BYTES_WRITTEN);
    tokio__top_add(&c->top_indep_read, r->id, r->rank, ir, cnt(p, r, M_BYTES_READ));
    tokio__top_add(&c->top_indep_write, r->id, r->rank, iw,
            cnt(p, r, M_BYTES_WRITTEN));
}

static void
on_stdio(struct pass *p, const struct tokio_darshan *log,
         const struct tokio_darshan_record *r)
{
    double b = cnt(p, r, S_BYTES_READ) + cnt(p, r, S_BYTES_WRITTEN);

    p->c->s_bytes += b;
    tokio__top_add(&p->c->top_stdio, r->id, r->rank, b, b);
    count_mount(p, log, tokio_darshan_name(log, r->id), b);
}

static void
on_h5d(struct pass *p, const struct tokio_darshan_record *r)
{
    struct tokio__client *c = p->c;
    double ops = cnt(p, r, HD_READS) + cnt(p, r, HD_WRITES);
    double bytes = cnt(p, r, HD_BYTES_READ) + cnt(p, r, HD_BYTES_WRITTEN);
    double sm = small(p, r, HD_SIZE_READ) + small(p, r, HD_SIZE_WRITE);

    add_io(&c->h_read, cnt(p, r, HD_READS), cnt(p, r, HD_BYTES_READ),
           small(p, r, HD_SIZE_READ), 0, 0);
    add_io(&c->h_write, cnt(p, r, HD_WRITES), cnt(p, r, HD_BYTES_WRITTEN),
           small(p, r, HD_SIZE_WRITE), 0, 0);
    tokio__top_add(&c->top_h5_small, r->id, r->rank, sm, bytes);
    if (cnt(p, r, HD_USE_COLLECTIVE) > 0)
        c->h_coll_ops += ops;
    else
        tokio__top_add(&c->top_h5_indep, r->id, r->rank, ops, bytes);
}

static void
on_ncvar(struct pass *p, const struct tokio_darshan_record *r)
{
    struct tokio__client *c = p->c;
    double indep = cnt(p, r, N_INDEP_READS) + cnt(p, r, N_INDEP_WRITES);
    double coll = cnt(p, r, N_COLL_READS) + cnt(p, r, N_COLL_WRITES);
    double bytes = cnt(p, r, N_BYTES_READ) + cnt(p, r, N_BYTES_WRITTEN);

    add_io(&c->n_read, cnt(p, r, N_INDEP_READS) + cnt(p, r, N_COLL_READS),
           cnt(p, r, N_BYTES_READ), small(p, r, N_SIZE_READ), 0, 0);
    add_io(&c->n_write, cnt(p, r, N_INDEP_WRITES) + cnt(p, r, N_COLL_WRITES),
           cnt(p, r, N_BYTES_WRITTEN), small(p, r, N_SIZE_WRITE), 0, 0);
    c->n_coll_ops += coll;
    c->n_nb_ops += cnt(p, r, N_NB_READS) + cnt(p, r, N_NB_WRITES);
    tokio__top_add(&c->top_nc_small, r->id, r->rank,
            small(p, r, N_SIZE_READ) + small(p, r, N_SIZE_WRITE), bytes);
    tokio__top_add(&c->top_nc_indep, r->id, r->rank, indep, bytes);
}

/* The OST `id` in the table, added if new; NULL when the table is full
 * or out of memory (*oom set). */
static struct tokio__ost *
ost(struct tokio__client *c, int64_t id, int *oom)
{
    for (size_t i = 0; i < c->n_osts; i++)
        if (c->osts[i].id == id)
            return &c->osts[i];
    if (c->n_osts == MAX_OSTS) {
        c->osts_dropped++;
        return NULL;
    }
    if (c->n_osts == c->cap_osts) {
        size_t cap = c->cap_osts ? 2 * c->cap_osts : 64;
        struct tokio__ost *o = tokio__reallocarray(c->osts, cap, sizeof(*o));
        if (o == NULL) {
            *oom = 1;
            return NULL;
        }
        c->osts = o;
        c->cap_osts = cap;
    }
    memset(&c->osts[c->n_osts], 0, sizeof(*c->osts));
    c->osts[c->n_osts].id = id;
    return &c->osts[c->n_osts++];
}

static int
on_lustre(struct pass *p, const struct tokio_darshan_record *r)
{
    struct tokio__client *c = p->c;
    int oom = 0;

    for (size_t k = 0; k < r->n_comps; k++)
        if ((double)r->comps[k].counters[0] > c->stripe_size)
            c->stripe_size = (double)r->comps[k].counters[0];
    if (r->n_extra == 0) {
        c->lustre_without_osts++;
        return TOKIO_OK;
    }
    for (size_t k = 0; k < r->n_extra; k++) {
        struct tokio__ost *o = ost(c, r->extra[k], &oom);
        if (oom)
            return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                                c->path);
        if (o == NULL)
            continue;
        /* a file striped twice over one OST counts once */
        if (o->n_files > 0 && o->last == r->id)
            continue;
        if (o->n_files < (size_t)p->top)
            o->ids[o->n_files] = r->id;
        o->last = r->id;
        o->n_files++;
    }
    return TOKIO_OK;
}

/* The job's facts and the tables sized by it, on the first record. */
static int
setup(struct pass *p, const struct tokio_darshan *log)
{
    struct tokio__client *c = p->c;

    if (p->ready)
        return TOKIO_OK;
    p->ready = 1;
    find_indices(&p->x);
    /* the job record is complete before the first record comes */
    c->nprocs = tokio_darshan_job(log)->nprocs;
    if (c->nprocs > 0 && c->nprocs <= MAX_RANKS &&
        (c->ranks = tokio__calloc((size_t)c->nprocs,
                                  sizeof(*c->ranks))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                            c->path);
    p->n_mounts = tokio_darshan_mount_count(log);
    if ((p->mount_bytes = tokio__calloc(p->n_mounts + 1,
                                        sizeof(double))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                            c->path);
    return TOKIO_OK;
}

/* One record of module `mod`: the reader's record callback to be. */
static int
on_record(void *payload, const struct tokio_darshan *log, int mod,
          const struct tokio_darshan_record *r)
{
    struct pass *p = payload;
    int rc = setup(p, log);

    if (rc < 0)
        return rc;
    p->c->records[mod]++;
    switch (mod) {
    case TOKIO_DARSHAN_POSIX: on_posix(p, log, r); break;
    case TOKIO_DARSHAN_MPIIO: on_mpiio(p, r); break;
    case TOKIO_DARSHAN_STDIO: on_stdio(p, log, r); break;
    case TOKIO_DARSHAN_H5F:
        p->c->h5f_mpiio += cnt(p, r, HF_USE_MPIIO) > 0;
        break;
    case TOKIO_DARSHAN_H5D: on_h5d(p, r); break;
    case TOKIO_DARSHAN_PNETCDF_VAR: on_ncvar(p, r); break;
    case TOKIO_DARSHAN_LUSTRE: return on_lustre(p, r);
    default: break;
    }
    return TOKIO_OK;
}

/* The job record: its times, size, command and MPI-IO hints. */
static int
read_job(struct tokio__client *c, const struct tokio_darshan *log)
{
    const struct tokio_darshan_job *j = tokio_darshan_job(log);

    c->jobid = j->jobid;
    c->nprocs = j->nprocs;
    c->start = j->start_time;
    c->end = j->end_time;
    c->cb_nodes = -1;
    if ((c->exe = tokio__strdup(j->exe ? j->exe : "")) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                            c->path);
    /* hints as Darshan keeps them: h=key=value;key=value */
    for (size_t i = 0; i < j->n_metadata; i++) {
        const char *v = j->metadata_values[i], *s;
        if (strcmp(j->metadata_keys[i], "h") != 0)
            continue;
        for (s = strstr(v, "cb_nodes="); s != NULL;
             s = strstr(s + 1, "cb_nodes="))
            if (s == v || s[-1] == ';') {
                char *end;
                long n = strtol(s + 9, &end, 10);
                if (end != s + 9 && (*end == '\0' || *end == ';') && n > 0)
                    c->cb_nodes = n;
            }
    }
    return TOKIO_OK;
}

void
tokio__top_sort(struct tokio__top *t)
{
    qsort(t->e, t->n, sizeof(*t->e), by_key);
}

static int
resolve(struct tokio__top *t, const struct tokio_darshan *log)
{
    tokio__top_sort(t);
    for (size_t i = 0; i < t->n; i++) {
        const char *name = t->e[i].id ? tokio_darshan_name(log, t->e[i].id)
                                      : NULL;
        if (name != NULL && (t->e[i].name = tokio__strdup(name)) == NULL)
            return TOKIO_ENOMEM;
    }
    return TOKIO_OK;
}

static struct tokio__top *
tops(struct tokio__client *c, size_t i)
{
    struct tokio__top *all[] = {
        &c->top_stdio, &c->top_small_read, &c->top_small_write,
        &c->top_sh_small_read, &c->top_sh_small_write, &c->top_mem,
        &c->top_file, &c->top_red_read, &c->top_red_write,
        &c->top_rand_read, &c->top_rand_write, &c->top_strag_bytes,
        &c->top_strag_time, &c->top_indep_read, &c->top_indep_write,
        &c->top_h5_small, &c->top_h5_indep, &c->top_nc_small,
        &c->top_nc_indep
    };

    return i < sizeof(all) / sizeof(*all) ? all[i] : NULL;
}

/* After the records: performance, names of the few biggest, the busiest
 * mount, and darshan-bad-ost's correlation over the job's files. */
static int
finish(struct pass *p, const struct tokio_darshan *log, int slow_ost)
{
    struct tokio__client *c = p->c;
    struct tokio_darshan_perf perf;
    const char *mount = NULL;
    double most = 0;
    int rc = TOKIO_OK;

    if (c->present[TOKIO_DARSHAN_POSIX] &&
        tokio_darshan_fold_perf(p->fold, TOKIO_DARSHAN_POSIX, &perf) ==
            TOKIO_OK) {
        c->has_perf = 1;
        c->agg_perf = perf.agg_perf_by_slowest;
        /* summarize-job's darshan_io_time */
        c->io_time = perf.slowest_rank_io_time != 0
                         ? perf.slowest_rank_io_time +
                               perf.shared_time_by_slowest
                         : perf.slowest_rank_io_time;
    }
    for (size_t i = 0; rc == TOKIO_OK && tops(c, i) != NULL; i++)
        rc = resolve(tops(c, i), log);
    for (size_t i = 0; rc == TOKIO_OK && i < c->n_osts; i++)
        for (size_t k = 0; k < c->osts[i].n_files && k < (size_t)p->top;
             k++) {
            const char *name = tokio_darshan_name(log, c->osts[i].ids[k]);
            if (name != NULL &&
                (c->osts[i].names[k] = tokio__strdup(name)) == NULL)
                rc = TOKIO_ENOMEM;
        }
    for (size_t i = 0; i < p->n_mounts; i++)
        if (p->mount_bytes[i] > most) {
            most = p->mount_bytes[i];
            mount = tokio_darshan_mount(log, i)->path;
        }
    if (rc == TOKIO_OK && mount != NULL &&
        (c->mount = tokio__strdup(mount)) == NULL)
        rc = TOKIO_ENOMEM;
    if (rc < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                            c->path);
    if (slow_ost && c->n_osts > 0 && c->records[TOKIO_DARSHAN_POSIX] > 0) {
        /* darshan-bad-ost's correlation: the two modules it needs read
         * again, only they, folded per file as they are decoded */
        struct tokio_darshan_bad_ost *b = NULL;
        if ((rc = tokio_darshan_bad_ost_new(&b)) == TOKIO_OK &&
            (rc = tokio_darshan_bad_ost_add_path(b, c->path)) >= 0) {
            c->bad_ost_files = tokio_darshan_bad_ost_file_count(b);
            rc = tokio_darshan_bad_ost_correlate(b, &c->bad_ost,
                                                 &c->n_bad_ost);
        }
        tokio_darshan_bad_ost_free(b);
        c->bad_ost_done = rc == TOKIO_OK;
        /* a p-value that would not converge, or no file in both
         * modules: the rule says it could not be evaluated */
        if (rc == TOKIO_ERR || rc == TOKIO_ENOTFOUND)
            rc = TOKIO_OK;
    }
    return rc;
}

/* The modules the rules read: not DXT, whose traces can be big. */
#define MODULES_READ                                                        \
    (TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_POSIX) |                        \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_MPIIO) |                        \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_H5F) |                          \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_H5D) |                          \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_PNETCDF_VAR) |                  \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_LUSTRE) |                       \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_STDIO))

/* Each record as the reader decodes it: the rules' pass and the fold of
 * POSIX's performance figures, nothing kept. */
static int
read_record(void *payload, const struct tokio_darshan *log, int mod,
            const struct tokio_darshan_record *r)
{
    struct pass *p = payload;
    int rc = on_record(p, log, mod, r);

    return rc < 0 ? rc : tokio_darshan_fold_record(p->fold, log, mod, r);
}

/*
 * The one place the log is read: its records are handed to read_record()
 * as they are decoded, so memory does not grow with them
 * (darshan-bad-ost, which needs kept POSIX and LUSTRE records, reads
 * those two modules again in finish()).
 */
int
tokio__insights_read(struct tokio__client *c, const char *path,
                     double small_bytes, double straggler, int top,
                     int slow_ost)
{
    struct pass p = { 0 };
    struct tokio_darshan *log = NULL;
    int rc, partial;

    c->path = path;
    p.c = c;
    p.top = top;
    p.straggler = straggler;
    for (int b = 0; b < 10 && bin_edges[b] <= small_bytes; b++)
        p.small_bins = b + 1;
    c->small_bytes = p.small_bins > 0 ? bin_edges[p.small_bins - 1] : 0;
    for (size_t i = 0; tops(c, i) != NULL; i++)
        tops(c, i)->max = (size_t)top;
    const struct tokio_darshan_select sel = { MODULES_READ, 0, read_record,
                                              &p, 0, 0 };
    if ((rc = tokio_darshan_fold_new(&p.fold, TOKIO_DARSHAN_FOLD_PERF)) < 0)
        return rc;
    if ((rc = tokio_darshan_open_select(&log, path, &sel)) < 0) {
        tokio_darshan_fold_free(p.fold);
        free(p.mount_bytes);
        return rc;
    }
    partial = rc == TOKIO_PARTIAL;
    rc = read_job(c, log);
    c->partial = partial;
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++) {
        c->present[mod] = tokio_darshan_module_len(log, mod) > 0;
        /* a record version darshan-util rejects: as if absent, said */
        if (c->present[mod] && (MODULES_READ &
                                TOKIO_DARSHAN_MODULE_BIT(mod)) &&
            !tokio_darshan_module_decoded(log, mod)) {
            c->present[mod] = 0;
            c->undecoded |= TOKIO_DARSHAN_MODULE_BIT(mod);
        }
    }
    if (rc == TOKIO_OK)
        rc = setup(&p, log);        /* a log without records */
    if (rc == TOKIO_OK)
        rc = finish(&p, log, slow_ost);
    free(p.mount_bytes);
    tokio_darshan_fold_free(p.fold);
    tokio_darshan_free(log);
    return rc;
}

const char *
tokio__ranks_why(const struct tokio__client *c)
{
    return c->nprocs <= 0 ? "the log's job record gives no process count"
                          : "the job's processes are too many to follow one "
                            "by one";
}

void
tokio__insights_client_free(struct tokio__client *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; tops(c, i) != NULL; i++)
        for (size_t k = 0; k < tops(c, i)->n; k++)
            free(tops(c, i)->e[k].name);
    for (size_t i = 0; i < c->n_osts; i++)
        for (size_t k = 0; k < TOKIO__INSIGHTS_TOP_MAX; k++)
            free(c->osts[i].names[k]);
    free(c->osts);
    free(c->ranks);
    free(c->exe);
    free(c->mount);
    free(c->bad_ost);
    memset(c, 0, sizeof(*c));
}

