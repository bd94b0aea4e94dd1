/*
 * src/connectors/darshan_private.h - what darshan.c (container, header,
 * regions, job, names, text views) and darshan_modules.c (per-module
 * record layouts, up-conversion and record printing) share.
 */
#ifndef TOKIO_CONNECTORS_DARSHAN_PRIVATE_H
#define TOKIO_CONNECTORS_DARSHAN_PRIVATE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tokio/connectors/darshan.h"

/* Growable array of fixed-size items whose offsets records keep until the
 * module is complete (pointers are taken only then, so growth is safe). */
struct dpool {
    unsigned char *data;
    size_t n;           /* items */
    size_t cap;         /* items */
};

/* A record while its module is being decoded: offsets into the pools. */
struct dprec {
    uint64_t id;
    int64_t rank;
    uint64_t file_rec_id, oid_hi, oid_lo;
    size_t i_off, ni, f_off, nf, x_off, nx, c_off, nc, s_off, nw, nr;
    size_t uuid_off, host_off;
    int has_uuid, has_host;
};

struct dmodule {
    uint64_t off, len;          /* compressed region, from the header map */
    unsigned ver;               /* record-format version (mod_ver) */
    int decoded;
    unsigned char *raw;         /* decompressed region */
    size_t raw_len;
    struct dpool recs;          /* struct dprec */
    struct dpool ints;          /* int64_t: counters and extras */
    struct dpool dbls;          /* double */
    struct dpool comps;         /* struct tokio_darshan_lustre_comp */
    struct dpool segs;          /* struct tokio_darshan_segment */
    struct dpool bytes;         /* uuids and hostnames */
    struct tokio_darshan_record *pub;   /* built when decoding ends */
    size_t n_pub;
    /* TOKIO_DARSHAN_FOLD_*: the --total/--perf figures the records
     * were folded into (no raw region, no records) */
    struct tokio__darshan_fold *fold;
};

struct dname {
    uint64_t id;
    char *name;                 /* in the log's name arena */
};

struct tokio_darshan {
    char *logname;              /* for messages */
    char version[9];
    int minor;                  /* 0, 10, 20, 21, 41 */
    int comp;
    int swap;
    uint64_t partial;
    uint64_t job_len, name_off, name_len;
    struct dmodule mods[TOKIO_DARSHAN_MAX_MODULES];
    struct tokio_darshan_job job;
    char *exe;
    char **meta_keys, **meta_values;
    size_t n_mounts;
    struct tokio_darshan_mount *mounts;
    char *mount_strings;
    struct dname *names;        /* first-seen order */
    size_t n_names;
    size_t *name_slots;         /* open addressing, index + 1, 0 = empty */
    size_t name_nslots;
    char *name_arena;           /* every name, NUL-terminated */
    size_t name_used;
};

/* Byte readers in the log's order (swap: the log is foreign-endian). */
static inline uint64_t
darshan_u64(const unsigned char *p, int swap)
{
    uint64_t v;

    memcpy(&v, p, sizeof(v));
    return swap ? __builtin_bswap64(v) : v;
}

static inline uint32_t
darshan_u32(const unsigned char *p, int swap)
{
    uint32_t v;

    memcpy(&v, p, sizeof(v));
    return swap ? __builtin_bswap32(v) : v;
}

static inline double
darshan_f64(const unsigned char *p, int swap)
{
    uint64_t u = darshan_u64(p, swap);
    double d;

    memcpy(&d, &u, sizeof(d));
    return d;
}

/* Adler-32 of `n` bytes at `p` continuing `adler` (1 to start), as
 * zlib's adler32() computes it (darshan.c). */
uint32_t tokio__darshan_adler32(uint32_t adler, const unsigned char *p,
                                size_t n);

/* Decode module `mod` of `log` from mods[mod].raw (darshan_modules.c).
 * Returns TOKIO_OK (module possibly left undecoded) or TOKIO_ENOMEM. */
int tokio__darshan_decode_module(struct tokio_darshan *log, int mod);

/* Whether module `mod` of `log` can be decoded a piece at a time: a
 * decoder of fixed-size records reads its record version (modules.c). */
int tokio__darshan_streamable(const struct tokio_darshan *log, int mod);

/* Decode the whole records of module `mod` in `n` bytes at `p` (a piece
 * of its region) into the module's fold, or its pools when it has none;
 * *used_out is the bytes they took (a partial last record is left).
 * Returns TOKIO_OK or TOKIO_ENOMEM (darshan_modules.c). */
int tokio__darshan_decode_piece(struct tokio_darshan *log, int mod,
                                const unsigned char *p, size_t n,
                                size_t *used_out);

/*
 * Streamed derived figures (darshan_derived.c): --total's aggregate and
 * --perf's per-rank times of one module, taking one record at a time, so
 * tokio_darshan_totals() and tokio_darshan_perf() need no records.
 */
struct tokio__darshan_fold;

/* A fold for module `mod` of `log` (job record read) of the figures
 * `flags` (TOKIO_DARSHAN_FOLD_*) ask for: *out is NULL when the module
 * has no derived views.  TOKIO_OK or TOKIO_ENOMEM. */
int tokio__darshan_fold_new(struct tokio__darshan_fold **out,
                            const struct tokio_darshan *log, int mod,
                            unsigned flags);

/* Fold record `r` in (TOKIO_OK or TOKIO_ENOMEM). */
int tokio__darshan_fold_record(struct tokio__darshan_fold *f,
                               const struct tokio_darshan_record *r);

/* Release a fold (NULL is fine). */
void tokio__darshan_fold_free(struct tokio__darshan_fold *f);

/* The module's own description block of `darshan-parser --base`. */
void tokio__darshan_print_description(int mod, unsigned ver, FILE *fp);

/* The same without the column legend that follows it in --base (what
 * --total prints before its totals). */
void tokio__darshan_print_description_text(int mod, unsigned ver, FILE *fp);

/* The preamble every darshan-parser mode prints (§10.2; darshan.c). */
void tokio__darshan_write_preamble(const struct tokio_darshan *log,
                                   FILE *fp);

/* A module's banner, and with a partial bit the --show-incomplete
 * warning.  Returns 0 when nothing follows (partial module without
 * data), else 1. */
int tokio__darshan_write_banner(const struct tokio_darshan *log, int mod,
                                FILE *fp);

/*
 * The counter lines of a record, as one visitor: every view that lists a
 * record's counters the way `darshan-parser --base` prints them (its text
 * here, the cache-darshan JSON in darshan_json.c) walks them with
 * tokio__darshan_visit_record(), so Lustre components with their pattern
 * and flag names, heatmap bins, MDHIM servers and the H5D/PNETCDF_VAR
 * file record ids are spelled, ordered and typed in one place (§10.4).
 */

/* A value as darshan-parser prints it: %lld, %llu, %f or %s. */
enum tokio__darshan_kind {
    TOKIO__DARSHAN_INT,
    TOKIO__DARSHAN_UINT,        /* record ids: POSIX_RENAMED_FROM, ... */
    TOKIO__DARSHAN_DOUBLE,
    TOKIO__DARSHAN_STRING       /* Lustre pattern, flags, pool name */
};

struct tokio__darshan_value {
    enum tokio__darshan_kind kind;
    union {
        int64_t i;
        uint64_t u;
        double d;
        const char *s;          /* valid during the callback only */
    } v;
};

/* Called once per line with the full counter name ("POSIX_OPENS",
 * "LUSTRE_COMP1_OST_ID_0"); a negative return stops the walk and is
 * returned by the visitor. */
typedef int (*tokio__darshan_counter_fn)(
    void *payload, const char *counter,
    const struct tokio__darshan_value *value);

/* Walk record `r` of module `mod` (decoded, id below
 * TOKIO_DARSHAN_KNOWN_MODULES) in darshan-parser's line order.  Returns
 * TOKIO_OK or the callback's first negative status. */
int tokio__darshan_visit_record(int mod, const struct tokio_darshan_record *r,
                                tokio__darshan_counter_fn fn, void *payload);

/* The name, mount point and fs type columns of a record's lines: the
 * name table's entry ("(null)" or "darshan-bgq-record" without one) and
 * its mount, except that DFS/DAOS put pool:container uuids and "N/A" in
 * the mount columns and DAOS names the object by its id.  The pointers
 * may point into *out itself: do not copy the struct. */
struct tokio__darshan_columns {
    const char *name, *mnt, *fs;
    char name_buf[48];          /* "<oid_hi>.<oid_lo>" */
    char mnt_buf[2 * 37];       /* "<pool uuid>:<container uuid>" */
};

void tokio__darshan_record_columns(const struct tokio_darshan *log, int mod,
                                   const struct tokio_darshan_record *r,
                                   struct tokio__darshan_columns *out);

/* All lines of one record in `darshan-parser --base`. */
void tokio__darshan_print_record(const struct tokio_darshan *log, int mod,
                                 const struct tokio_darshan_record *r,
                                 FILE *fp);

/* Mount point and fs type of record name `name` as darshan-util finds
 * them (first mount whose path is a byte prefix; "UNKNOWN" for both when
 * none matches or `name` is NULL).  Borrowed from the log. */
void tokio__darshan_mount_of(const struct tokio_darshan *log,
                             const char *name, const char **mnt_out,
                             const char **fs_out);

/* Release a module's decoded data (not its raw region). */
void tokio__darshan_module_clear(struct dmodule *m);

/* strtod() of the "%f" text of `v` into *out without printing it; 0 when
 * `v` needs the text (darshan_json.c). */
int tokio__darshan_fixed6(double v, double *out);

#endif
