/*
 * src/connectors/darshan_private.h - the reader's insides, shared by its
 * two files only: darshan.c (container, header, regions, job, names,
 * accessors) and darshan_modules.c (per-module record layouts and their
 * up-conversion).  The views (darshan_derived.c, darshan_dxt.c,
 * darshan_json.c) read a log through the public API and darshan_text.h.
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
    int streamed;               /* records go to the open's callback as
                                 * they are decoded, never to the pools */
    struct dxt_piece_state *dxt;        /* DXT handed over in pieces */
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
    /* while opening: where records go (tokio_darshan_open_select()) */
    tokio_darshan_record_fn record;
    void *payload;
    uint64_t kept;              /* modules read and kept, not handed over */
    int dxt_pieces;             /* DXT segments handed over in pieces */
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

/* Decode module `mod` of `log` from mods[mod].raw (darshan_modules.c).
 * Returns TOKIO_OK (module possibly left undecoded) or TOKIO_ENOMEM. */
int tokio__darshan_decode_module(struct tokio_darshan *log, int mod);

/* Module `mod` decoded piece by piece (tokio__darshan_decode_piece())
 * is complete: make its records (darshan_modules.c).  TOKIO_OK or
 * TOKIO_ENOMEM (the module then cleared). */
int tokio__darshan_decode_end(struct tokio_darshan *log, int mod);

/* Whether module `mod` of `log` can be decoded a piece at a time: a
 * decoder of fixed-size records reads its record version (modules.c). */
int tokio__darshan_streamable(const struct tokio_darshan *log, int mod);

/* Decode the whole records of module `mod` in `n` bytes at `p` (a piece
 * of its region, or all of it) into its pools, or to log->record when it
 * is streamed; *used_out is the bytes they took (a partial last record is
 * left).  Returns TOKIO_OK, TOKIO_ENOMEM or the callback's status
 * (darshan_modules.c). */
int tokio__darshan_decode_piece(struct tokio_darshan *log, int mod,
                                const unsigned char *p, size_t n,
                                size_t *used_out);

/* Release a module's decoded data (not its raw region). */
void tokio__darshan_module_clear(struct dmodule *m);

#endif
