/*
 * src/analysis/insights_client.c - the client-side rules of `tokio
 * insights`: Drishti's classes and a few more over what
 * insights_darshan.c gathered from the job's Darshan counters.  Each
 * rule makes one finding whether it fires or not, with the numbers it
 * compared, the thresholds it used, the top files or ranks and what to
 * do; a rule that lacks its module says so.
 *
 * Random operations are those neither sequential nor consecutive:
 * READS - SEQ_READS (consecutive ones are sequential too).
 *
 * Differs from Drishti (hpc-io/drishti-io), deliberately:
 * - the STDIO share is of STDIO + the larger of POSIX and MPI-IO bytes
 *   (MPI-IO's bytes reach the file through POSIX; Drishti added both);
 * - small_bytes is used (Drishti's was configurable but ignored), rounded
 *   down to a bin edge, which the finding states;
 * - the HDF5 advice (H5Pset_alignment, collective metadata) is given when
 *   the log has HDF5 records (Drishti looked for a module "HF5");
 * - redundant traffic is measured per record, bytes moved beyond the
 *   file's extent (Drishti compared the largest offset of all files with
 *   the bytes of all files);
 * - metadata time is per rank (its own records, and its share of shared
 *   ones), not per record;
 * - imbalance across per-rank files compares the ranks that have files
 *   of their own (Drishti grouped by file, where a file written by one
 *   rank can never be imbalanced);
 * - non-blocking I/O is only suggested to jobs that use MPI-IO at all,
 *   and the cb_nodes hint is compared as a number, not a string.
 */
#include "analysis/insights_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SRC_POSIX "Darshan POSIX module"
#define SRC_MPIIO "Darshan MPI-IO module"

/* A share as a percentage, 0 when there is no whole. */
static double
pct(double part, double whole)
{
    return whole > 0 ? 100.0 * part / whole : 0;
}

/* The rules that need POSIX records say so when there are none. */
static int
need_posix(struct tokio__findings *f, json_t *x,
           const struct tokio__client *c)
{
    if (c->present[TOKIO_DARSHAN_POSIX])
        return 1;
    tokio__not_evaluated(f, x, "not evaluated: the log has no POSIX "
                         "module (no POSIX I/O was recorded)");
    return 0;
}

/* The per-rank rules need the table of ranks. */
static int
need_ranks(struct tokio__findings *f, json_t *x,
           const struct tokio__client *c)
{
    if (c->ranks != NULL)
        return 1;
    tokio__not_evaluated(f, x, "not evaluated: %s", tokio__ranks_why(c));
    return 0;
}

static int
need_module(struct tokio__findings *f, json_t *x,
            const struct tokio__client *c, int mod, const char *why)
{
    if (c->present[mod])
        return 1;
    tokio__not_evaluated(f, x, "not evaluated: the log has no %s module%s",
                         tokio_darshan_module_name(mod), why);
    return 0;
}

static void
stdio_share(struct tokio__findings *f, const struct tokio__client *c)
{
    json_t *x = tokio__finding(f, "stdio_share", "Darshan STDIO, POSIX and "
                               "MPI-IO modules");
    double posix = c->p_read.bytes + c->p_write.bytes;
    /* MPI-IO's bytes reach the file through POSIX: counted once */
    double total = c->s_bytes + fmax(posix, c->m_bytes);
    double thr = tokio__threshold(f, x, "interface_stdio");
    char a[64], b[64];

    tokio__number(f, x, "stdio_bytes", c->s_bytes);
    tokio__number(f, x, "posix_bytes", posix);
    tokio__number(f, x, "mpiio_bytes", c->m_bytes);
    tokio__number(f, x, "total_bytes", total);
    if (total == 0) {
        tokio__not_evaluated(f, x, "not evaluated: the job moved no bytes "
                             "through STDIO, POSIX or MPI-IO");
        return;
    }
    tokio__number(f, x, "share", c->s_bytes / total);
    tokio__bytes_text(a, sizeof(a), c->s_bytes);
    tokio__bytes_text(b, sizeof(b), total);
    if (c->s_bytes / total > thr) {
        tokio__found(f, x, TOKIO__HIGH, "STDIO, a slow interface for bulk "
                     "data, moved %.1f%% of the job's bytes (%s of %s)",
                     pct(c->s_bytes, total), a, b);
        tokio__recommend(f, x, "Move bulk data from fread/fwrite/fprintf "
                         "to large POSIX reads and writes, or to MPI-IO, "
                         "HDF5 or PnetCDF; keep STDIO for small text.");
        tokio__top_files(f, x, &c->top_stdio);
    } else {
        tokio__found(f, x, TOKIO__OK, "STDIO moved %.1f%% of the job's bytes "
                     "(%s of %s)", pct(c->s_bytes, total), a, b);
    }
}

static void
no_mpiio(struct tokio__findings *f, const struct tokio__client *c)
{
    json_t *x = tokio__finding(f, "no_mpiio", "Darshan job record and "
                               "module list");

    tokio__number(f, x, "nprocs", (double)c->nprocs);
    tokio__number(f, x, "mpiio_records",
                  (double)c->records[TOKIO_DARSHAN_MPIIO]);
    if (c->present[TOKIO_DARSHAN_MPIIO]) {
        tokio__found(f, x, TOKIO__OK, "The job uses MPI-IO (%zu record%s)",
                     c->records[TOKIO_DARSHAN_MPIIO],
                     c->records[TOKIO_DARSHAN_MPIIO] == 1 ? "" : "s");
    } else if (c->nprocs > 1) {
        tokio__found(f, x, TOKIO__WARNING, "%lld processes and no MPI-IO: "
                     "every rank does its own I/O", (long long)c->nprocs);
        tokio__recommend(f, x, "Use MPI-IO (directly, or through HDF5 or "
                         "PnetCDF) for data the ranks share, so the library "
                         "can aggregate their requests with collective I/O.");
    } else {
        tokio__found(f, x, TOKIO__INFO, "A single process without MPI-IO: "
                     "collective I/O would bring nothing here");
    }
}

/* operation_intensity and byte_intensity: |W - R| / (W + R). */
static void
intensity(struct tokio__findings *f, const struct tokio__client *c,
          int bytes)
{
    json_t *x = tokio__finding(f, bytes ? "byte_intensity"
                                        : "operation_intensity", SRC_POSIX);
    double r = bytes ? c->p_read.bytes : c->p_read.ops;
    double w = bytes ? c->p_write.bytes : c->p_write.ops;
    double thr = tokio__threshold(f, x, "imbalance_operations");
    const char *what = bytes ? "bytes" : "operations";

    if (!need_posix(f, x, c))
        return;
    tokio__number(f, x, bytes ? "bytes_read" : "reads", r);
    tokio__number(f, x, bytes ? "bytes_written" : "writes", w);
    if (r + w == 0) {
        tokio__not_evaluated(f, x, "not evaluated: no POSIX %s were read or "
                             "written", what);
        return;
    }
    tokio__number(f, x, "imbalance", fabs(w - r) / (w + r));
    if (fabs(w - r) / (w + r) > thr)
        tokio__found(f, x, TOKIO__INFO, "The job is %s-intensive by %s: "
                     "%.1f%% writes, %.1f%% reads", w > r ? "write" : "read",
                     what, pct(w, r + w), pct(r, r + w));
    else
        tokio__found(f, x, TOKIO__OK, "Reads and writes are balanced by %s: "
                     "%.1f%% writes, %.1f%% reads", what, pct(w, r + w),
                     pct(r, r + w));
}

/* small_reads, small_writes and their shared-file forms. */
static void
small_requests(struct tokio__findings *f, const struct tokio__client *c,
               int write, int shared)
{
    static const char *const codes[2][2] = {
        { "small_reads", "small_writes" },
        { "small_shared_reads", "small_shared_writes" }
    };
    json_t *x = tokio__finding(f, codes[shared][write], SRC_POSIX);
    const struct tokio__io *io = shared ? (write ? &c->sh_write : &c->sh_read)
                                        : (write ? &c->p_write : &c->p_read);
    const struct tokio__top *t = shared ? (write ? &c->top_sh_small_write
                                                 : &c->top_sh_small_read)
                                        : (write ? &c->top_small_write
                                                 : &c->top_small_read);
    double thr = tokio__threshold(f, x, "small_requests");
    double abs_thr = tokio__threshold(f, x, "small_requests_absolute");
    const char *op = write ? "write" : "read";
    char size[64];

    tokio__threshold(f, x, "small_bytes");
    if (!need_posix(f, x, c))
        return;
    if (c->small_bytes == 0) {
        tokio__not_evaluated(f, x, "not evaluated: small_bytes is below "
                             "Darshan's smallest access-size bin (requests "
                             "of up to 100 bytes)");
        return;
    }
    tokio__bytes_text(size, sizeof(size), c->small_bytes);
    tokio__number(f, x, "small", io->small);
    tokio__number(f, x, write ? "writes" : "reads", io->ops);
    tokio__number(f, x, "small_bytes", c->small_bytes);
    if (shared && c->shared_files == 0) {
        tokio__found(f, x, TOKIO__OK, "No file was shared by all ranks "
                     "(the log has no shared records)");
        return;
    }
    if (io->ops == 0) {
        tokio__found(f, x, TOKIO__OK, "No POSIX %ss%s", op,
                     shared ? " on shared files" : "");
        return;
    }
    tokio__number(f, x, "share", io->small / io->ops);
    if (io->small / io->ops > thr && io->small > abs_thr) {
        tokio__found(f, x, TOKIO__HIGH, "%.0f small %ss (up to %s) are "
                     "%.1f%% of the job's %.0f %ss%s", io->small, op, size,
                     pct(io->small, io->ops), io->ops, op,
                     shared ? " on shared files" : "");
        tokio__recommend(f, x, "Buffer %ss into larger, contiguous "
                         "requests of %s or more.  %s", op, size,
                         c->present[TOKIO_DARSHAN_MPIIO]
                             ? (write ? "The job uses MPI-IO: collective "
                                        "writes (MPI_File_write_all, "
                                        "MPI_File_write_at_all) let the "
                                        "aggregators merge the ranks' "
                                        "requests."
                                      : "The job uses MPI-IO: collective "
                                        "reads (MPI_File_read_all, "
                                        "MPI_File_read_at_all) let the "
                                        "aggregators merge the ranks' "
                                        "requests.")
                             : "MPI-IO collective I/O (or HDF5 and PnetCDF "
                               "over it) would merge the ranks' requests.");
        tokio__top_files(f, x, t);
    } else {
        tokio__found(f, x, TOKIO__OK, "%.0f small %ss (up to %s): %.1f%% "
                     "of the job's %.0f %ss%s", io->small, op, size,
                     pct(io->small, io->ops), io->ops, op,
                     shared ? " on shared files" : "");
    }
}

static void
misaligned(struct tokio__findings *f, const struct tokio__client *c,
           int file)
{
    json_t *x = tokio__finding(f, file ? "misaligned_file"
                                       : "misaligned_memory", SRC_POSIX);
    double ops = c->p_read.ops + c->p_write.ops;
    double n = file ? c->file_not_aligned : c->mem_not_aligned;
    double thr = tokio__threshold(f, x, "misaligned_requests");
    const char *what = file ? "file offsets" : "memory buffers";

    if (!need_posix(f, x, c))
        return;
    tokio__number(f, x, "misaligned", n);
    tokio__number(f, x, "operations", ops);
    if (file) {
        tokio__number(f, x, "file_alignment", c->file_alignment);
        tokio__number(f, x, "stripe_size", c->stripe_size > 0
                                               ? c->stripe_size : NAN);
    }
    if (ops == 0) {
        tokio__not_evaluated(f, x, "not evaluated: no POSIX reads or "
                             "writes");
        return;
    }
    tokio__number(f, x, "share", n / ops);
    if (!(n / ops > thr)) {
        tokio__found(f, x, TOKIO__OK, "%.1f%% of the requests had misaligned "
                     "%s", pct(n, ops), what);
        return;
    }
    tokio__found(f, x, TOKIO__HIGH, "%.1f%% of the requests (%.0f of %.0f) "
                 "had misaligned %s", pct(n, ops), n, ops, what);
    tokio__top_files(f, x, file ? &c->top_file : &c->top_mem);
    if (!file) {
        tokio__recommend(f, x, "Allocate I/O buffers aligned to the page "
                         "size (posix_memalign), so that the kernel and the "
                         "file system client need no extra copy.");
        return;
    }
    char align[64];
    tokio__bytes_text(align, sizeof(align),
                      c->stripe_size > 0 ? c->stripe_size
                                         : c->file_alignment);
    tokio__recommend(f, x, "Start requests at multiples of %s (the %s).%s%s",
                     align, c->stripe_size > 0 ? "Lustre stripe size"
                                               : "file system's alignment",
                     c->present[TOKIO_DARSHAN_H5F]
                         ? "  The job uses HDF5: H5Pset_alignment(fapl, "
                           "threshold, alignment) on the file access "
                           "property list puts datasets on those "
                           "boundaries."
                         : "",
                     c->present[TOKIO_DARSHAN_MPIIO]
                         ? "  With MPI-IO, collective buffering aligns "
                           "the aggregators' requests to the stripes "
                           "(romio_cb_write/romio_cb_read=enable)."
                         : "");
}

static void
redundant(struct tokio__findings *f, const struct tokio__client *c,
          int write)
{
    json_t *x = tokio__finding(f, write ? "redundant_writes"
                                        : "redundant_reads", SRC_POSIX);
    double red = write ? c->redundant_write : c->redundant_read;
    double moved = write ? c->p_write.bytes : c->p_read.bytes;
    double thr = tokio__threshold(f, x, "redundant_traffic");
    const char *op = write ? "written" : "read";
    char a[64], b[64];

    if (!need_posix(f, x, c))
        return;
    tokio__number(f, x, "redundant_bytes", red);
    tokio__number(f, x, write ? "bytes_written" : "bytes_read", moved);
    if (moved == 0) {
        tokio__found(f, x, TOKIO__OK, "No bytes %s through POSIX", op);
        return;
    }
    tokio__number(f, x, "share", red / moved);
    tokio__bytes_text(a, sizeof(a), red);
    tokio__bytes_text(b, sizeof(b), moved);
    if (red / moved > thr) {
        tokio__found(f, x, TOKIO__WARNING, "%s of the %s %s (%.1f%%) went "
                     "beyond the files' extents: the same bytes were %s "
                     "more than once", a, b, op, pct(red, moved), op);
        tokio__recommend(f, x, write
                         ? "Write each region once: keep data in memory "
                           "until it is final, and avoid rewriting files "
                           "from the start."
                         : "Read shared input once (on one rank, or a few) "
                           "and broadcast it, or keep it in memory instead "
                           "of reading it again.");
        tokio__top_files(f, x, write ? &c->top_red_write : &c->top_red_read);
    } else {
        tokio__found(f, x, TOKIO__OK, "No bytes were %s more than once "
                     "(%s %s)", op, b, op);
    }
}

static void
random_access(struct tokio__findings *f, const struct tokio__client *c,
              int write)
{
    json_t *x = tokio__finding(f, write ? "random_writes" : "random_reads",
                               SRC_POSIX);
    const struct tokio__io *io = write ? &c->p_write : &c->p_read;
    double thr = tokio__threshold(f, x, "random_operations");
    double abs_thr = tokio__threshold(f, x, "random_operations_absolute");
    /* consecutive requests are sequential too (Darshan counts both);
     * a log claiming more consecutive than sequential ones is taken at
     * its larger word */
    double seq = fmax(io->seq, io->consec);
    double rnd = io->ops - seq > 0 ? io->ops - seq : 0;
    const char *op = write ? "write" : "read";

    if (!need_posix(f, x, c))
        return;
    tokio__number(f, x, "random", rnd);
    tokio__number(f, x, "sequential", seq - io->consec);
    tokio__number(f, x, "consecutive", io->consec);
    tokio__number(f, x, write ? "writes" : "reads", io->ops);
    if (io->ops == 0) {
        tokio__found(f, x, TOKIO__OK, "No POSIX %ss", op);
        return;
    }
    tokio__number(f, x, "share", rnd / io->ops);
    if (rnd / io->ops > thr && rnd > abs_thr) {
        tokio__found(f, x, TOKIO__HIGH, "%.0f %ss (%.1f%%) were random: "
                     "neither consecutive nor sequential", rnd, op,
                     pct(rnd, io->ops));
        tokio__recommend(f, x, "Make accesses sequential (sort them by "
                         "offset), or %s larger regions at once and index "
                         "them in memory; with MPI-IO, describe the pattern "
                         "with a file view and use collective I/O.", op);
        tokio__top_files(f, x, write ? &c->top_rand_write
                                     : &c->top_rand_read);
    } else {
        tokio__found(f, x, TOKIO__OK, "%ss were mostly in order: %.1f%% "
                     "consecutive, %.1f%% sequential, %.1f%% random",
                     write ? "Write" : "Read", pct(io->consec, io->ops),
                     pct(seq - io->consec, io->ops), pct(rnd, io->ops));
    }
}

/* The ranks of the table as the few biggest by `what` (0 read, 1
 * written, 2 metadata time with the shared share). */
static void
rank_top(struct tokio__top *t, const struct tokio__client *c, int what,
         size_t max)
{
    double share = c->nprocs > 0 ? c->shared_meta / (double)c->nprocs : 0;

    memset(t, 0, sizeof(*t));
    t->max = max;
    for (int64_t r = 0; r < c->nprocs; r++) {
        const struct tokio__rank *k = &c->ranks[r];
        double v = what == 0 ? k->read : what == 1 ? k->written
                                                   : k->meta + share;
        if (what == 2 || k->own)
            tokio__top_add(t, 0, r, v, what == 2 ? k->read + k->written : v);
    }
    tokio__top_sort(t);
}

static void
metadata_time(struct tokio__findings *f, const struct tokio__client *c)
{
    json_t *x = tokio__finding(f, "metadata_time", SRC_POSIX);
    double thr = tokio__threshold(f, x, "metadata_time_rank");
    double share, most = 0;
    size_t over = 0;
    struct tokio__top t;

    if (!need_posix(f, x, c))
        return;
    if (!need_ranks(f, x, c))
        return;
    share = c->shared_meta / (double)c->nprocs;
    for (int64_t r = 0; r < c->nprocs; r++) {
        double v = c->ranks[r].meta + share;
        over += v > thr;
        most = fmax(most, v);
    }
    tokio__number(f, x, "ranks_over", (double)over);
    tokio__number(f, x, "max_rank_seconds", most);
    tokio__number(f, x, "total_seconds", c->meta_time);
    if (over == 0) {
        tokio__found(f, x, TOKIO__OK, "No rank spent more than %g s in "
                     "metadata operations (the most: %.1f s)", thr, most);
        return;
    }
    tokio__found(f, x, TOKIO__HIGH, "%zu rank%s spent more than %g s in "
                 "metadata operations (open, stat, seek, close; the most: "
                 "%.1f s)", over, over == 1 ? "" : "s", thr, most);
    tokio__recommend(f, x, "Open, stat and close fewer files: combine "
                     "per-rank files, keep files open between accesses, "
                     "and avoid stat and seek storms.%s",
                     c->present[TOKIO_DARSHAN_H5F]
                         ? "  The job uses HDF5: collective metadata "
                           "(H5Pset_all_coll_metadata_ops, "
                           "H5Pset_coll_metadata_write) and a larger "
                           "metadata cache defer and share the work."
                         : "");
    rank_top(&t, c, 2, (size_t)f->top);
    tokio__top_files(f, x, &t);
}

static void
stragglers(struct tokio__findings *f, const struct tokio__client *c,
           int time)
{
    json_t *x = tokio__finding(f, time ? "straggler_time"
                                       : "straggler_bytes", SRC_POSIX);
    double thr = tokio__threshold(f, x, "imbalance_stragglers");
    size_t n = time ? c->straggler_time_files : c->straggler_bytes_files;
    double worst = time ? c->straggler_time_max : c->straggler_bytes_max;
    const char *what = time ? "time" : "bytes";

    if (!need_posix(f, x, c))
        return;
    tokio__number(f, x, "files_over", (double)n);
    tokio__number(f, x, "shared_files", (double)c->shared_files);
    tokio__number(f, x, "max_imbalance", worst);
    if (c->shared_files == 0) {
        tokio__found(f, x, TOKIO__OK, "No file was shared by all ranks");
        return;
    }
    if (n == 0) {
        tokio__found(f, x, TOKIO__OK, "On no shared file did the slowest "
                     "and fastest rank differ by more than %.0f%% of the "
                     "%s (the most: %.1f%%)", 100 * thr, what, 100 * worst);
        return;
    }
    tokio__found(f, x, TOKIO__HIGH, "On %zu of %zu shared files the slowest "
                 "and fastest rank differ by more than %.0f%% of the file's "
                 "%s (the most: %.1f%%)", n, c->shared_files, 100 * thr,
                 what, 100 * worst);
    tokio__recommend(f, x, time
                     ? "Find out why some ranks are slower on shared files: "
                       "uneven shares, an OST in trouble (see slow_ost), "
                       "misaligned requests; collective I/O evens ranks "
                       "out, and more stripes spread the load."
                     : "Give the ranks equal shares of shared files, and "
                       "tune the striping (stripe count and size) so their "
                       "requests spread over the OSTs.");
    tokio__top_files(f, x, time ? &c->top_strag_time : &c->top_strag_bytes);
}

static void
rank_imbalance(struct tokio__findings *f, const struct tokio__client *c,
               int write)
{
    json_t *x = tokio__finding(f, write ? "rank_imbalance_writes"
                                        : "rank_imbalance_reads", SRC_POSIX);
    double thr = tokio__threshold(f, x, "imbalance_size");
    double most = 0, least = INFINITY;
    int64_t most_rank = -1, least_rank = -1;
    size_t ranks = 0;
    const char *op = write ? "wrote to" : "read from";
    char a[64], b[64];

    if (!need_posix(f, x, c))
        return;
    if (!need_ranks(f, x, c))
        return;
    for (int64_t r = 0; r < c->nprocs; r++) {
        double v = write ? c->ranks[r].written : c->ranks[r].read;
        if (!c->ranks[r].own)
            continue;
        ranks++;
        if (v > most || most_rank < 0) {
            most = v;
            most_rank = r;
        }
        if (v < least) {
            least = v;
            least_rank = r;
        }
    }
    tokio__number(f, x, "ranks", (double)ranks);
    if (ranks < 2 || most == 0) {
        tokio__found(f, x, TOKIO__OK, "%s", ranks < 2
                     ? "Fewer than two ranks had files of their own"
                     : write ? "No rank wrote to files of its own"
                             : "No rank read from files of its own");
        return;
    }
    tokio__number(f, x, "max_bytes", most);
    tokio__number(f, x, "max_rank", (double)most_rank);
    tokio__number(f, x, "min_bytes", least);
    tokio__number(f, x, "min_rank", (double)least_rank);
    tokio__number(f, x, "imbalance", (most - least) / most);
    tokio__bytes_text(a, sizeof(a), most);
    tokio__bytes_text(b, sizeof(b), least);
    if ((most - least) / most > thr) {
        struct tokio__top t;
        tokio__found(f, x, TOKIO__HIGH, "The %zu ranks with files of their "
                     "own %s them unevenly: %.1f%% apart (rank %lld %s, rank "
                     "%lld %s)", ranks, op, 100 * (most - least) / most,
                     (long long)most_rank, a, (long long)least_rank, b);
        tokio__recommend(f, x, "Balance what each rank %s its own files; "
                         "if rank 0 alone does the I/O, spread it over the "
                         "ranks or use MPI-IO collectives on a shared file.",
                         write ? "writes to" : "reads from");
        rank_top(&t, c, write, (size_t)f->top);
        tokio__top_files(f, x, &t);
    } else {
        tokio__found(f, x, TOKIO__OK, "The %zu ranks with files of their "
                     "own %s them evenly: %.1f%% apart at most", ranks, op,
                     100 * (most - least) / most);
    }
}

static void
collective(struct tokio__findings *f, const struct tokio__client *c,
           int write)
{
    json_t *x = tokio__finding(f, write ? "collective_writes"
                                        : "collective_reads", SRC_MPIIO);
    double coll = write ? c->m_coll_writes : c->m_coll_reads;
    double ops = coll + (write ? c->m_indep_writes : c->m_indep_reads);
    double thr = tokio__threshold(f, x, "collective_operations");
    double abs_thr = tokio__threshold(f, x,
                                      "collective_operations_absolute");
    const char *op = write ? "write" : "read";

    if (!need_module(f, x, c, TOKIO_DARSHAN_MPIIO, " (the job does not "
                     "use MPI-IO)"))
        return;
    tokio__number(f, x, "collective", coll);
    tokio__number(f, x, write ? "writes" : "reads", ops);
    if (ops == 0) {
        tokio__found(f, x, TOKIO__OK, "No MPI-IO %ss", op);
        return;
    }
    tokio__number(f, x, "share", coll / ops);
    if (coll / ops < thr && ops > abs_thr) {
        if (coll == 0)
            tokio__found(f, x, TOKIO__HIGH, "None of the job's %.0f MPI-IO "
                         "%ss was collective", ops, op);
        else
            tokio__found(f, x, TOKIO__HIGH, "Only %.1f%% of the job's %.0f "
                         "MPI-IO %ss were collective", pct(coll, ops), ops,
                         op);
        tokio__recommend(f, x, "Use collective %ss (MPI_File_%s_all, "
                         "MPI_File_%s_at_all) with one aggregator per "
                         "compute node, so that ROMIO merges the ranks' "
                         "requests into large ones.", op, op, op);
        tokio__top_files(f, x, write ? &c->top_indep_write
                                     : &c->top_indep_read);
    } else {
        tokio__found(f, x, TOKIO__OK, "%.1f%% of the job's %.0f MPI-IO %ss "
                     "were collective", pct(coll, ops), ops, op);
    }
}

static void
nonblocking(struct tokio__findings *f, const struct tokio__client *c,
            int write)
{
    json_t *x = tokio__finding(f, write ? "nonblocking_writes"
                                        : "nonblocking_reads", SRC_MPIIO);
    double nb = write ? c->m_nb_writes : c->m_nb_reads;
    double ops = write ? c->m_indep_writes + c->m_coll_writes +
                             c->m_split_writes
                       : c->m_indep_reads + c->m_coll_reads + c->m_split_reads;
    const char *op = write ? "write" : "read";

    if (!need_module(f, x, c, TOKIO_DARSHAN_MPIIO, " (the job does not "
                     "use MPI-IO)"))
        return;
    tokio__number(f, x, "nonblocking", nb);
    tokio__number(f, x, write ? "blocking_writes" : "blocking_reads", ops);
    if (nb > 0) {
        tokio__found(f, x, TOKIO__OK, "%.0f non-blocking MPI-IO %ss", nb, op);
    } else if (ops == 0) {
        tokio__found(f, x, TOKIO__OK, "No MPI-IO %ss", op);
    } else {
        tokio__found(f, x, TOKIO__WARNING, "All %.0f MPI-IO %ss blocked: "
                     "none overlapped computation", ops, op);
        tokio__recommend(f, x, "Overlap I/O with computation: "
                         "MPI_File_i%s_at or MPI_File_i%s_all (MPI 3.1), or "
                         "MPI_File_%s_all_begin/end%s%s", op, op, op,
                         c->present[TOKIO_DARSHAN_H5F]
                             ? "; with HDF5, the asynchronous I/O VOL "
                               "connector (hpc-io/vol-async)"
                             : "",
                         c->present[TOKIO_DARSHAN_PNETCDF_VAR]
                             ? "; with PnetCDF, ncmpi_iput_vara/"
                               "ncmpi_iget_vara and ncmpi_wait_all."
                             : ".");
    }
}

static void
cb_nodes(struct tokio__findings *f, const struct tokio__client *c)
{
    json_t *x = tokio__finding(f, "cb_nodes", "Darshan MPI-IO module and "
                               "hints ('h' metadata), the job's nodes");
    double coll = c->m_coll_reads + c->m_coll_writes;

    if (!need_module(f, x, c, TOKIO_DARSHAN_MPIIO, " (the job does not "
                     "use MPI-IO)"))
        return;
    tokio__number(f, x, "cb_nodes", c->cb_nodes > 0 ? (double)c->cb_nodes
                                                    : NAN);
    tokio__number(f, x, "nodes", c->nodes > 0 ? (double)c->nodes : NAN);
    tokio__number(f, x, "collective_operations", coll);
    if (coll == 0) {
        tokio__found(f, x, TOKIO__OK, "No collective MPI-IO: collective "
                     "buffering was not used");
    } else if (c->cb_nodes < 0) {
        tokio__found(f, x, TOKIO__INFO, "The log holds no cb_nodes hint "
                     "(Darshan keeps hints in its 'h' metadata); ROMIO then "
                     "uses one aggregator per node");
    } else if (c->nodes == 0) {
        tokio__not_evaluated(f, x, "not evaluated: the job's node count is "
                             "unknown (%s)", c->nodes_why);
    } else if ((size_t)c->cb_nodes > c->nodes) {
        tokio__found(f, x, TOKIO__HIGH, "cb_nodes=%ld aggregators on %zu "
                     "nodes: several per node share its network link",
                     c->cb_nodes, c->nodes);
        tokio__recommend(f, x, "Set the MPI-IO hint cb_nodes=%zu (one "
                         "aggregator per compute node), e.g. in "
                         "ROMIO_HINTS or MPICH_MPIIO_HINTS.", c->nodes);
    } else if ((size_t)c->cb_nodes < c->nodes) {
        tokio__found(f, x, TOKIO__INFO, "cb_nodes=%ld aggregators on %zu "
                     "nodes: some nodes do no collective I/O", c->cb_nodes,
                     c->nodes);
        tokio__recommend(f, x, "If collective I/O is slow, try cb_nodes=%zu "
                         "(one aggregator per node).", c->nodes);
    } else {
        tokio__found(f, x, TOKIO__OK, "One aggregator per node "
                     "(cb_nodes=%ld on %zu nodes)", c->cb_nodes, c->nodes);
    }
}

/* hdf5_small_dataset_access and pnetcdf_small_var_access. */
static void
library_small(struct tokio__findings *f, const struct tokio__client *c,
              int nc)
{
    int mod = nc ? TOKIO_DARSHAN_PNETCDF_VAR : TOKIO_DARSHAN_H5D;
    json_t *x = tokio__finding(f, nc ? "pnetcdf_small_var_access"
                                     : "hdf5_small_dataset_access",
                               nc ? "Darshan PNETCDF_VAR module"
                                  : "Darshan H5D module");
    const struct tokio__io *r = nc ? &c->n_read : &c->h_read;
    const struct tokio__io *w = nc ? &c->n_write : &c->h_write;
    double ops = r->ops + w->ops, sm = r->small + w->small;
    double thr = tokio__threshold(f, x, "small_requests");
    double abs_thr = tokio__threshold(f, x, "small_requests_absolute");
    const char *what = nc ? "variable" : "dataset";
    char size[64];

    tokio__threshold(f, x, "small_bytes");
    if (!need_module(f, x, c, mod, nc ? " (not a PnetCDF job, or Darshan "
                                        "without PnetCDF instrumentation)"
                                      : " (not an HDF5 job, or Darshan "
                                        "without HDF5 instrumentation)"))
        return;
    if (c->small_bytes == 0) {
        tokio__not_evaluated(f, x, "not evaluated: small_bytes is below "
                             "Darshan's smallest access-size bin");
        return;
    }
    tokio__bytes_text(size, sizeof(size), c->small_bytes);
    tokio__number(f, x, "small", sm);
    tokio__number(f, x, "operations", ops);
    tokio__number(f, x, "small_bytes", c->small_bytes);
    if (ops == 0) {
        tokio__found(f, x, TOKIO__OK, "No %s reads or writes", what);
        return;
    }
    tokio__number(f, x, "share", sm / ops);
    if (sm / ops > thr && sm > abs_thr) {
        tokio__found(f, x, TOKIO__HIGH, "%.0f small %s accesses (up to %s) "
                     "are %.1f%% of %.0f", sm, what, size, pct(sm, ops), ops);
        tokio__recommend(f, x, "%s", nc
                         ? "Read and write larger subarrays per call, or "
                           "post many with ncmpi_iput_vara/ncmpi_iget_vara "
                           "and complete them together with ncmpi_wait_all."
                         : "Read and write larger hyperslabs per H5Dread/"
                           "H5Dwrite call, chunk datasets in chunks of 1 MiB "
                           "or more, and align objects to the stripe size "
                           "with H5Pset_alignment.");
        tokio__top_files(f, x, nc ? &c->top_nc_small : &c->top_h5_small);
    } else {
        tokio__found(f, x, TOKIO__OK, "%.0f small %s accesses (up to %s): "
                     "%.1f%% of %.0f", sm, what, size, pct(sm, ops), ops);
    }
}

/* hdf5_collective_dataset_access and pnetcdf_collective_var_access. */
static void
library_collective(struct tokio__findings *f, const struct tokio__client *c,
                   int nc)
{
    int mod = nc ? TOKIO_DARSHAN_PNETCDF_VAR : TOKIO_DARSHAN_H5D;
    json_t *x = tokio__finding(f, nc ? "pnetcdf_collective_var_access"
                                     : "hdf5_collective_dataset_access",
                               nc ? "Darshan PNETCDF_VAR module"
                                  : "Darshan H5F and H5D modules");
    double ops = nc ? c->n_read.ops + c->n_write.ops
                    : c->h_read.ops + c->h_write.ops;
    double coll = nc ? c->n_coll_ops : c->h_coll_ops;
    double thr = tokio__threshold(f, x, "collective_operations");
    double abs_thr = tokio__threshold(f, x,
                                      "collective_operations_absolute");
    const char *what = nc ? "variable" : "dataset";

    if (!need_module(f, x, c, mod, nc ? " (not a PnetCDF job)"
                                      : " (not an HDF5 job)"))
        return;
    tokio__number(f, x, "collective", coll);
    tokio__number(f, x, "operations", ops);
    if (!nc && c->present[TOKIO_DARSHAN_H5F] && c->h5f_mpiio == 0) {
        tokio__found(f, x, TOKIO__OK, "The HDF5 files were opened without "
                     "the MPI-IO driver: collective transfers do not apply");
        return;
    }
    if (ops == 0) {
        tokio__found(f, x, TOKIO__OK, "No %s reads or writes", what);
        return;
    }
    tokio__number(f, x, "share", coll / ops);
    if (coll / ops < thr && ops > abs_thr) {
        tokio__found(f, x, TOKIO__HIGH, "Only %.1f%% of %.0f %s accesses "
                     "were collective", pct(coll, ops), ops, what);
        tokio__recommend(f, x, "%s", nc
                         ? "Use the collective calls (ncmpi_put_vara_all, "
                           "ncmpi_get_vara_all) so MPI-IO can aggregate the "
                           "ranks' requests."
                         : "Request collective transfers: "
                           "H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE) on "
                           "the transfer property list given to H5Dread and "
                           "H5Dwrite.");
        tokio__top_files(f, x, nc ? &c->top_nc_indep : &c->top_h5_indep);
    } else {
        tokio__found(f, x, TOKIO__OK, "%.1f%% of %.0f %s accesses were "
                     "collective", pct(coll, ops), ops, what);
    }
}

void
tokio__insights_client_rules(struct tokio__findings *f,
                             const struct tokio__client *c)
{
    stdio_share(f, c);
    no_mpiio(f, c);
    intensity(f, c, 0);
    intensity(f, c, 1);
    small_requests(f, c, 0, 0);
    small_requests(f, c, 1, 0);
    small_requests(f, c, 0, 1);
    small_requests(f, c, 1, 1);
    misaligned(f, c, 0);
    misaligned(f, c, 1);
    redundant(f, c, 0);
    redundant(f, c, 1);
    random_access(f, c, 0);
    random_access(f, c, 1);
    metadata_time(f, c);
    stragglers(f, c, 0);
    stragglers(f, c, 1);
    rank_imbalance(f, c, 0);
    rank_imbalance(f, c, 1);
    collective(f, c, 0);
    collective(f, c, 1);
    nonblocking(f, c, 0);
    nonblocking(f, c, 1);
    cb_nodes(f, c);
    library_small(f, c, 0);
    library_collective(f, c, 0);
    library_small(f, c, 1);
    library_collective(f, c, 1);
}

void
tokio__top_files(struct tokio__findings *f, json_t *finding,
                 const struct tokio__top *t)
{
    for (size_t i = 0; i < t->n && i < (size_t)f->top; i++)
        tokio__file(f, finding, t->e[i].name, t->e[i].rank, t->e[i].bytes,
                    t->e[i].key);
}
