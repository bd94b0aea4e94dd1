/*
 * tokio/connectors/darshan.h - native reader for Darshan binary logs
 * (format versions 3.00, 3.10, 3.20, 3.21 and 3.41; zlib, bzip2 and
 * uncompressed regions; either byte order) and the text views of
 * darshan-parser 3.5.0.  Mirrors tokio.connectors.darshan, which ran
 * darshan-parser as a subprocess; this reads the log itself.
 *
 * Module ids are darshan-util 3.5.0's current ids (0 NULL, 1 POSIX,
 * 2 MPI-IO, 3 H5F, 4 H5D, 5 PNETCDF_FILE, 6 PNETCDF_VAR, 7 BG/Q,
 * 8 LUSTRE, 9 STDIO, 10 DXT_POSIX, 11 DXT_MPIIO, 12 MDHIM, 13 APXC,
 * 14 APMPI, 15 HEATMAP, 16 DFS, 17 DAOS); older logs are remapped on
 * reading and every record is up-converted to the current layout.
 */
#ifndef TOKIO_CONNECTORS_DARSHAN_H
#define TOKIO_CONNECTORS_DARSHAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_darshan;

enum tokio_darshan_module {
    TOKIO_DARSHAN_NULL = 0,
    TOKIO_DARSHAN_POSIX = 1,
    TOKIO_DARSHAN_MPIIO = 2,
    TOKIO_DARSHAN_H5F = 3,
    TOKIO_DARSHAN_H5D = 4,
    TOKIO_DARSHAN_PNETCDF_FILE = 5,
    TOKIO_DARSHAN_PNETCDF_VAR = 6,
    TOKIO_DARSHAN_BGQ = 7,
    TOKIO_DARSHAN_LUSTRE = 8,
    TOKIO_DARSHAN_STDIO = 9,
    TOKIO_DARSHAN_DXT_POSIX = 10,
    TOKIO_DARSHAN_DXT_MPIIO = 11,
    TOKIO_DARSHAN_MDHIM = 12,
    TOKIO_DARSHAN_APXC = 13,
    TOKIO_DARSHAN_APMPI = 14,
    TOKIO_DARSHAN_HEATMAP = 15,
    TOKIO_DARSHAN_DFS = 16,
    TOKIO_DARSHAN_DAOS = 17,
    TOKIO_DARSHAN_KNOWN_MODULES = 18,   /* ids darshan-util 3.5.0 names */
    TOKIO_DARSHAN_MAX_MODULES = 64      /* slots in a 3.41 header */
};

enum tokio_darshan_compression {
    TOKIO_DARSHAN_ZLIB = 0,
    TOKIO_DARSHAN_BZIP2 = 1,
    TOKIO_DARSHAN_NONE = 2
};

/* The job record (times in seconds since the epoch; nsec only in 3.41). */
struct tokio_darshan_job {
    int64_t uid;
    int64_t jobid;
    int64_t start_time;
    int64_t start_time_nsec;
    int64_t end_time;
    int64_t end_time_nsec;
    int64_t nprocs;
    const char *exe;            /* "" when the log's buffer held no '\n' */
    size_t n_metadata;          /* key = value pairs, in log order */
    const char *const *metadata_keys;
    const char *const *metadata_values;
};

/* One mount table entry. */
struct tokio_darshan_mount {
    const char *path;
    const char *type;
};

/* One LUSTRE layout component (LUSTRE_COMP_* counters in list order). */
struct tokio_darshan_lustre_comp {
    int64_t counters[7];        /* STRIPE_SIZE .. MIRROR_ID */
    char pool_name[17];         /* 16 bytes in the log, NUL added */
};

/* One DXT trace segment. */
struct tokio_darshan_segment {
    int64_t offset;
    int64_t length;
    double start_time;
    double end_time;
    uint64_t pthread_id;        /* 0 unless the record version has it */
};

/*
 * One record of any module, in darshan-util 3.5.0's current layout.
 * Fields a module does not have are 0/NULL.  All pointers are borrowed
 * from the log handle.
 */
struct tokio_darshan_record {
    uint64_t id;                /* name-table id */
    int64_t rank;               /* -1: shared across all ranks */
    size_t n_counters;
    const int64_t *counters;    /* names: tokio_darshan_counter_name() */
    size_t n_fcounters;
    const double *fcounters;    /* names: tokio_darshan_fcounter_name() */
    uint64_t file_rec_id;       /* H5D, PNETCDF_VAR */
    /* LUSTRE: OST ids; MDHIM: server histogram (MDHIM_SERVERS long);
     * HEATMAP: read bins then write bins (n_extra = 2 * nbins) */
    size_t n_extra;
    const int64_t *extra;
    size_t n_comps;             /* LUSTRE components */
    const struct tokio_darshan_lustre_comp *comps;
    const unsigned char *pool_uuid;   /* DFS, DAOS: 16 bytes */
    const unsigned char *cont_uuid;
    uint64_t oid_hi, oid_lo;    /* DAOS */
    const char *hostname;       /* DXT */
    size_t n_writes, n_reads;   /* DXT: segments holds writes, then reads */
    const struct tokio_darshan_segment *segments;
    /* DXT handed over in pieces (tokio_darshan_select's dxt_pieces):
     * segments holds the n_piece segments from index seg_first of the
     * record's writes-then-reads; n_writes and n_reads are the record's
     * totals.  Both 0 otherwise (segments holds them all). */
    size_t seg_first, n_piece;
};

/**
 * Read the Darshan log at `path`.  On success *out holds the log (free
 * with tokio_darshan_free()) and the result is TOKIO_OK, or TOKIO_PARTIAL
 * when the log says some module ran out of memory
 * (tokio_darshan_module_partial()).  Fails with TOKIO_EIO (unreadable),
 * TOKIO_EFORMAT (not a log, a version darshan-util 3.5.0 rejects, or
 * truncated/corrupt; the message names the log and the region) or
 * TOKIO_ENOMEM; then *out is NULL.
 */
TOKIO_API int tokio_darshan_open(struct tokio_darshan **out, const char *path);

/**
 * As tokio_darshan_open(), from `len` bytes at `buf` (not kept after
 * return); `name` is used in messages (NULL: "<memory>").
 */
TOKIO_API int tokio_darshan_open_mem(struct tokio_darshan **out,
                                     const void *buf, size_t len,
                                     const char *name);

/** The bit of module `mod` in struct tokio_darshan_select's mask. */
#define TOKIO_DARSHAN_MODULE_BIT(mod) (UINT64_C(1) << (mod))

/**
 * A record handed over by tokio_darshan_open_select() as it is decoded
 * (module `mod`, file order).  `r` and what it points to last until the
 * call returns.  `log` is the log being read: its header, job record,
 * mount table and name table (unless skipped) are complete, its records
 * are not.  Return TOKIO_OK to go on; a negative status stops the read,
 * and the open fails with it (set the message with the status).
 */
typedef int (*tokio_darshan_record_fn)(void *payload,
                                       const struct tokio_darshan *log,
                                       int mod,
                                       const struct tokio_darshan_record *r);

/** What tokio_darshan_open_select() reads and where records go. */
struct tokio_darshan_select {
    /* the TOKIO_DARSHAN_MODULE_BIT()s of the modules to read (UINT64_MAX:
     * all); bits are current module ids (older logs are remapped first) */
    uint64_t modules;
    int skip_names;             /* no name table: names are NULL */
    tokio_darshan_record_fn record;     /* NULL: records are kept */
    void *payload;              /* record's first argument */
    /* modules read and kept as tokio_darshan_open() keeps them, not
     * handed to `record` (e.g. LUSTRE, to annotate DXT as it streams):
     * TOKIO_DARSHAN_MODULE_BIT()s, read only if also in `modules` */
    uint64_t kept;
    /* DXT records are handed to `record` a few hundred segments at a
     * time as they are inflated (the record's seg_first and n_piece say
     * which), header facts repeated: memory does not grow with a
     * record's segments.  0: each DXT record handed over whole. */
    int dxt_pieces;
};

/**
 * As tokio_darshan_open(), reading only what `sel` asks for (NULL: all,
 * records kept): the header, job record and mount table always; the
 * module regions whose bit is set; the name table unless skipped.  A
 * module left out keeps its header facts (tokio_darshan_module_len(),
 * _version(), _partial()) but is neither inflated nor decoded: no
 * records, and corruption inside it goes unnoticed (a region reaching
 * past the end of the file is still TOKIO_EFORMAT).
 *
 * With sel->record, every record of the modules read is handed to it as
 * it is decoded and is not kept: those modules have no records
 * afterwards, but count as decoded.  Fixed-size records (all modules but
 * LUSTRE, DXT, MDHIM and HEATMAP) are decoded from a small piece of their
 * region at a time as it is inflated, so memory then stays a few pages
 * whatever the log's size; the others are decoded whole, handed over,
 * released.
 * For readers that fold records into figures of their own
 * (index-darshanlogs, tokio_darshan_fold_record()).
 */
TOKIO_API int tokio_darshan_open_select(struct tokio_darshan **out,
                                        const char *path,
                                        const struct tokio_darshan_select *sel);

/**
 * As tokio_darshan_open_select(), from `len` bytes at `buf` (not kept
 * after return); `name` as in tokio_darshan_open_mem().
 */
TOKIO_API int tokio_darshan_open_mem_select(
    struct tokio_darshan **out, const void *buf, size_t len,
    const char *name, const struct tokio_darshan_select *sel);

/** Release a log (NULL is fine). */
TOKIO_API void tokio_darshan_free(struct tokio_darshan *log);

/** The name given when the log was opened (its path, or open_mem's
 *  `name`, "<memory>" by default): what messages about it say. */
TOKIO_API const char *tokio_darshan_logname(const struct tokio_darshan *log);

/* Header. */
/** Version string as stored, e.g. "3.10". */
TOKIO_API const char *tokio_darshan_version(const struct tokio_darshan *log);
/** enum tokio_darshan_compression of the log. */
TOKIO_API int tokio_darshan_compression(const struct tokio_darshan *log);
/** Whether the log was written in the other byte order. */
TOKIO_API int tokio_darshan_swapped(const struct tokio_darshan *log);
/** Partial-data bits by current module id (as darshan-util reads them). */
TOKIO_API uint64_t tokio_darshan_partial_flags(const struct tokio_darshan *l);
/** Nonzero if module `mod` says it ran out of memory. */
TOKIO_API int tokio_darshan_module_partial(const struct tokio_darshan *log,
                                           int mod);
/** Compressed bytes of module `mod`'s region (0: absent). */
TOKIO_API uint64_t tokio_darshan_module_len(const struct tokio_darshan *log,
                                            int mod);
/** Record-format version module `mod` was written with (0: absent). */
TOKIO_API unsigned tokio_darshan_module_version(
    const struct tokio_darshan *log, int mod);
/**
 * Nonzero if module `mod` is present and its records were decoded.  A
 * module present but not decoded (APXC, APMPI, NULL, unknown ids, or a
 * record version darshan-util 3.5.0 rejects) keeps its raw region:
 * tokio_darshan_module_raw().
 */
TOKIO_API int tokio_darshan_module_decoded(const struct tokio_darshan *log,
                                           int mod);
/** The decompressed region of a module read but not decoded
 *  (tokio_darshan_module_decoded() 0); NULL for any other. */
TOKIO_API const unsigned char *tokio_darshan_module_raw(
    const struct tokio_darshan *log, int mod, size_t *len_out);

/* Job, mounts, names. */
TOKIO_API const struct tokio_darshan_job *tokio_darshan_job(
    const struct tokio_darshan *log);
/** Run time as darshan-parser 3.5.0 prints it (end - start + 1 before
 *  3.41; with nanoseconds and without the +1 from 3.41). */
TOKIO_API double tokio_darshan_run_time(const struct tokio_darshan *log);
/** Mount table sorted as darshan-util sorts it (longest path first). */
TOKIO_API size_t tokio_darshan_mount_count(const struct tokio_darshan *log);
TOKIO_API const struct tokio_darshan_mount *tokio_darshan_mount(
    const struct tokio_darshan *log, size_t i);
/** Name of record id `id` (borrowed), NULL if the name table lacks it. */
TOKIO_API const char *tokio_darshan_name(const struct tokio_darshan *log,
                                         uint64_t id);
/** Distinct entries of the name table, in first-seen order. */
TOKIO_API size_t tokio_darshan_name_count(const struct tokio_darshan *log);
TOKIO_API const char *tokio_darshan_name_at(const struct tokio_darshan *log,
                                            size_t i, uint64_t *id_out);

/* Records. */
TOKIO_API size_t tokio_darshan_record_count(const struct tokio_darshan *log,
                                            int mod);
/** Record i of module mod (borrowed), NULL if out of range. */
TOKIO_API const struct tokio_darshan_record *tokio_darshan_record(
    const struct tokio_darshan *log, int mod, size_t i);

/* Module and counter names (darshan-util 3.5.0 spelling). */
/** "POSIX", "MPI-IO", ...; NULL for ids >= TOKIO_DARSHAN_KNOWN_MODULES. */
TOKIO_API const char *tokio_darshan_module_name(int mod);
TOKIO_API size_t tokio_darshan_counter_count(int mod);
TOKIO_API size_t tokio_darshan_fcounter_count(int mod);
/** e.g. "POSIX_OPENS"; NULL out of range. */
TOKIO_API const char *tokio_darshan_counter_name(int mod, size_t i);
/** e.g. "POSIX_F_READ_TIME"; NULL out of range. */
TOKIO_API const char *tokio_darshan_fcounter_name(int mod, size_t i);
/**
 * The position of module `mod`'s counter named `name` (its whole name,
 * "POSIX_BYTES_READ"), among the fcounters when `fcounter` is non-zero
 * ("POSIX_F_READ_TIME"); -1 when the module has no such counter.
 */
TOKIO_API int tokio_darshan_counter_index(int mod, const char *name,
                                          int fcounter);

/**
 * Write what `darshan-parser --base --show-incomplete` prints for the
 * log (byte for byte; start/end times use ctime() in the local zone).
 * Returns TOKIO_OK or TOKIO_EIO.
 */
TOKIO_API int tokio_darshan_write_base(const struct tokio_darshan *log,
                                       FILE *fp);

/**
 * `v` as read back from darshan-parser's "%f" text of it (six decimals):
 * what the reference, which parsed that text, holds for a real counter.
 * NaN and infinities come back unchanged.  Thread-safe.
 */
TOKIO_API double tokio_darshan_printed(double v);

/* ==== Derived views: darshan-parser --total, --perf and --file ==========
 *
 * Computed from the records of one module exactly as darshan-parser 3.5.0
 * computes them (same accumulation order and floating-point types), for
 * the modules it derives them for: POSIX, MPI-IO, STDIO, DFS and DAOS.
 * Any other module id gives TOKIO_EINVAL.  A module without records gives
 * the all-zero result, as darshan-parser's empty accumulator does.
 */

/** The modules with derived views, as TOKIO_DARSHAN_MODULE_BIT()s (what
 *  cache-darshan --total and --perf read). */
#define TOKIO_DARSHAN_DERIVED_MODULES                                      \
    (TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_POSIX) |                        \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_MPIIO) |                        \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_STDIO) |                        \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DFS) |                          \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DAOS))

/** The aggregate record of --total: counters in the record layout. */
struct tokio_darshan_total {
    int module;
    size_t n_records;           /* records folded in */
    uint64_t id;                /* first record's id, 0 if ids differed */
    size_t n_counters;
    int64_t *counters;          /* names: tokio_darshan_counter_name() */
    size_t n_fcounters;
    double *fcounters;          /* names: tokio_darshan_fcounter_name() */
};

/**
 * Aggregate all records of module `mod` (--total).  On success *out holds
 * the result (free with tokio_darshan_total_free()) and the result is
 * TOKIO_OK; fails with TOKIO_EINVAL (module without --total) or
 * TOKIO_ENOMEM, leaving *out NULL.  Thread-safe on a shared log.
 */
TOKIO_API int tokio_darshan_totals(const struct tokio_darshan *log, int mod,
                                   struct tokio_darshan_total **out);

/** Release a total (NULL is fine). */
TOKIO_API void tokio_darshan_total_free(struct tokio_darshan_total *t);

/** What --perf prints for one module. */
struct tokio_darshan_perf {
    int64_t total_bytes;                /* read + written, all records */
    double slowest_rank_io_time;        /* unique (rank >= 0) records */
    double slowest_rank_meta_only_time;
    double slowest_rank_rw_only_time;
    int64_t slowest_rank;               /* 0 when no unique-file time */
    double shared_time_by_slowest;      /* shared (rank < 0) records */
    double agg_time_by_slowest;         /* seconds */
    double agg_perf_by_slowest;         /* MiB/s, 0 when time is 0 */
};

/**
 * Fill *out with module `mod`'s performance estimates (--perf).  Returns
 * TOKIO_OK, TOKIO_EINVAL (module without --perf), TOKIO_EFORMAT (a record
 * names a rank at or beyond the job's nprocs: darshan-parser aborts
 * there) or TOKIO_ENOMEM; *out is zeroed on failure.
 */
TOKIO_API int tokio_darshan_perf(const struct tokio_darshan *log, int mod,
                                 struct tokio_darshan_perf *out);

/*
 * The same figures folded from records one at a time: give
 * tokio_darshan_fold_record() and a fold to tokio_darshan_open_select()
 * as its record callback, and a big log's --total and --perf cost a few
 * pages of memory, its records never held (cache-darshan --total/--perf).
 * tokio_darshan_totals() and tokio_darshan_perf() fold a log's kept
 * records the same way.
 */
struct tokio_darshan_fold;

/** The figures a fold keeps (flags). */
enum tokio_darshan_fold_views {
    TOKIO_DARSHAN_FOLD_TOTALS = 1,      /* --total */
    TOKIO_DARSHAN_FOLD_PERF = 2         /* --perf */
};

/**
 * An empty fold of the `views` asked for, for every module with derived
 * views.  *out holds it (free with tokio_darshan_fold_free()); TOKIO_OK
 * or TOKIO_ENOMEM (then *out is NULL).
 */
TOKIO_API int tokio_darshan_fold_new(struct tokio_darshan_fold **out,
                                     unsigned views);

/**
 * Fold record `r` of module `mod` of `log` into the fold `fold` (a
 * tokio_darshan_record_fn; records of modules without derived views are
 * ignored).  Records must come in file order, one log per fold.  Returns
 * TOKIO_OK or TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_fold_record(void *fold,
                                        const struct tokio_darshan *log,
                                        int mod,
                                        const struct tokio_darshan_record *r);

/**
 * tokio_darshan_totals() and tokio_darshan_perf() of the records folded
 * in (all zero for a module none came from).  Statuses as theirs, and
 * TOKIO_EINVAL when the fold does not keep that view.
 */
TOKIO_API int tokio_darshan_fold_totals(const struct tokio_darshan_fold *f,
                                        int mod,
                                        struct tokio_darshan_total **out);
TOKIO_API int tokio_darshan_fold_perf(const struct tokio_darshan_fold *f,
                                      int mod,
                                      struct tokio_darshan_perf *out);

/** Release a fold (NULL is fine). */
TOKIO_API void tokio_darshan_fold_free(struct tokio_darshan_fold *f);

/** One file category of --file. */
struct tokio_darshan_file_category {
    int64_t count;
    int64_t bytes_read;
    int64_t bytes_written;
    int64_t max_offset;         /* -1: some file's offset was unknown */
};

enum tokio_darshan_file_kind {
    TOKIO_DARSHAN_FILES_TOTAL = 0,
    TOKIO_DARSHAN_FILES_READ_ONLY,
    TOKIO_DARSHAN_FILES_WRITE_ONLY,
    TOKIO_DARSHAN_FILES_READ_WRITE,
    TOKIO_DARSHAN_FILES_UNIQUE,         /* one rank */
    TOKIO_DARSHAN_FILES_SHARED,         /* a shared (rank -1) record */
    TOKIO_DARSHAN_FILES_PARTSHARED,     /* several rank records */
    TOKIO_DARSHAN_FILE_KINDS
};

/** --file's counts; "shared" there is SHARED + PARTSHARED. */
struct tokio_darshan_file_counts {
    struct tokio_darshan_file_category kind[TOKIO_DARSHAN_FILE_KINDS];
};

/**
 * Fill *out with module `mod`'s per-file-category counts (--file).
 * Returns TOKIO_OK, TOKIO_EINVAL (module without --file) or TOKIO_ENOMEM;
 * *out is zeroed on failure.
 */
TOKIO_API int tokio_darshan_file_counts(const struct tokio_darshan *log,
                                        int mod,
                                        struct tokio_darshan_file_counts *out);

/**
 * Write what `darshan-parser --total --show-incomplete` (resp. --perf,
 * --file) prints for the log, byte for byte (preamble as in
 * tokio_darshan_write_base()).  Returns TOKIO_OK, TOKIO_EIO (write
 * failed), TOKIO_ENOMEM, or for --perf TOKIO_EFORMAT as above; output
 * may then be incomplete.
 */
TOKIO_API int tokio_darshan_write_total(const struct tokio_darshan *log,
                                        FILE *fp);
TOKIO_API int tokio_darshan_write_perf(const struct tokio_darshan *log,
                                       FILE *fp);
TOKIO_API int tokio_darshan_write_file(const struct tokio_darshan *log,
                                       FILE *fp);

/* ==== DXT traces: darshan-dxt-parser ===================================
 *
 * The DXT_POSIX and DXT_MPIIO records (struct tokio_darshan_record's
 * hostname and segments) as darshan-dxt-parser 3.5.0 prints them, with
 * each POSIX segment annotated by the Lustre OSTs it touched when the
 * log has a LUSTRE record for the same file.
 */

/**
 * Write what `darshan-dxt-parser --show-incomplete` prints for the log,
 * byte for byte (preamble as in tokio_darshan_write_base(); start/end
 * times use ctime() in the local zone).  Returns TOKIO_OK, TOKIO_EIO
 * (write failed), TOKIO_ENOMEM, or TOKIO_EFORMAT when a DXT or LUSTRE
 * module is present but was not decoded (a record version darshan-util
 * 3.5.0 rejects; darshan-dxt-parser stops there too); output may then be
 * incomplete.  Thread-safe on a shared log.
 */
TOKIO_API int tokio_darshan_write_dxt(const struct tokio_darshan *log,
                                      FILE *fp);

/**
 * The text of tokio_darshan_write_dxt() for the log at `path`, written
 * as the log is read: the DXT records are inflated, decoded and printed a
 * few hundred segments at a time, never held, so memory stays a few
 * hundred KiB whatever the number of segments (only the LUSTRE records,
 * and a record with thread ids, are held whole).  Differs from
 * tokio_darshan_write_dxt() only on a damaged log: a record whose counts
 * claim more segments than its region holds is printed up to the
 * region's end (darshan-dxt-parser drops it), and an error in a region
 * comes after the text of the records before it.  Returns
 * tokio_darshan_open()'s failures and tokio_darshan_write_dxt()'s.
 */
TOKIO_API int tokio_darshan_stream_dxt(const char *path, FILE *fp);

/** Bytes moved by rank and time bin, from a log's DXT traces. */
struct tokio_darshan_dxt_heatmap {
    size_t nranks;              /* the job's nprocs */
    size_t nbins;
    double bin_seconds;         /* the job's run time / nbins */
    /* [rank * nbins + bin]: a segment's bytes spread over the bins its
     * start..end time spans, in proportion (times past the run's end in
     * the last bin) */
    double *read_bytes;
    double *write_bytes;
    uint64_t segments;          /* segments counted */
    uint64_t skipped;           /* segments of a rank outside 0..nprocs-1 */
};

/**
 * The heat map of the log at `path` in `nbins` (1 - 100000) time bins,
 * from DXT_POSIX (`modules` bit 1) and/or DXT_MPIIO (bit 2) segments,
 * built as the log is read (tokio_darshan_stream_dxt()'s way): memory is
 * the map's (nprocs x nbins x 16 bytes, at most 2^24 cells), whatever
 * the number of segments.  *out (free with
 * tokio_darshan_dxt_heatmap_free()) on TOKIO_OK or TOKIO_PARTIAL;
 * TOKIO_EINVAL (bins, or a map too big), tokio_darshan_open()'s failures.
 */
TOKIO_API int tokio_darshan_dxt_heatmap(
    const char *path, size_t nbins, int modules,
    struct tokio_darshan_dxt_heatmap **out);

/**
 * An empty heat map of `nbins` (1 - 100000) time bins, to fold a log's
 * DXT traces into as it is read, in the same pass as other figures: hand
 * tokio_darshan_dxt_heatmap_record() the DXT records (in pieces:
 * tokio_darshan_select's dxt_pieces), then call
 * tokio_darshan_dxt_heatmap_end().  TOKIO_OK, TOKIO_EINVAL (bins),
 * TOKIO_ENOMEM; *out (free with tokio_darshan_dxt_heatmap_free()).
 */
TOKIO_API int tokio_darshan_dxt_heatmap_new(
    struct tokio_darshan_dxt_heatmap **out, size_t nbins);

/**
 * Fold record `r` of module `mod` of `log` (a tokio_darshan_record_fn;
 * `payload` is the heat map) as tokio_darshan_dxt_heatmap() does: the
 * segments of a DXT_POSIX or DXT_MPIIO piece (other modules are
 * ignored).  The map takes the job's shape at the first one.  TOKIO_OK,
 * TOKIO_EINVAL (a map too big), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_dxt_heatmap_record(
    void *payload, const struct tokio_darshan *log, int mod,
    const struct tokio_darshan_record *r);

/**
 * After the log is read: a map no segment came to takes the job's shape
 * (every cell 0).  TOKIO_OK, TOKIO_EINVAL, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_dxt_heatmap_end(
    struct tokio_darshan_dxt_heatmap *h, const struct tokio_darshan *log);

/** Release a heat map (NULL is fine). */
TOKIO_API void tokio_darshan_dxt_heatmap_free(
    struct tokio_darshan_dxt_heatmap *h);

#endif
