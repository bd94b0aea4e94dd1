/*
 * src/connectors/darshan_derived.c - the derived views of darshan-parser
 * 3.5.0: --total (one aggregate record per module), --perf (slowest-rank
 * and shared-file time estimates) and --file (file counts by access
 * category), for the modules it derives them for (POSIX, MPI-IO, STDIO,
 * DFS, DAOS).
 *
 * Facts: darshan-util 3.5.0's per-module aggregation functions and its
 * accumulator, as ../shared/notes/darshan-log-format.md §11-13 sums them
 * up.  Every sum is taken in file order with the same types darshan-util
 * uses, so the printed doubles match to the last digit.  This file only
 * reads records (the public API, and darshan_text.h for the text it
 * shares with --base): --total and --perf fold them one at a time
 * (struct tokio_darshan_fold), so they work alike on a log's kept records
 * and on records handed over while a big log is read.
 *
 * Differs from darshan-parser: a record whose rank is at or beyond the
 * job's nprocs makes --perf fail with TOKIO_EFORMAT where darshan-parser
 * aborts on an assert; --total and --file do not need nprocs.
 * Memory: --perf and --file keep one small entry per rank or per record
 * id (hash tables), never a copy of the records.
 */
#include "tokio/connectors/darshan.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "connectors/darshan_text.h"
#include "core/alloc.h"
#include "core/error.h"

/* §11: how one counter of the aggregate record takes in a record. */
enum rule {
    KEEP = 0,       /* handled elsewhere (or stays 0) */
    SUM,            /* plain sum */
    SUM_CLAMP,      /* sum, then -1 if negative (POSIX, DFS, DAOS) */
    LAST,           /* the last record's value */
    MAX,            /* maximum, starting from 0 */
    MIN_POS,        /* smallest value > 0; 0 = none yet (start times) */
    ZERO            /* always 0 (variance counters) */
};

struct range {
    unsigned char lo, hi, rule;
};

#define NONE (-1)

/* The counter positions each module's aggregation and metrics use
 * (darshan 3.5.0 counter lists, as in darshan_modules.c). */
struct spec {
    int mod;
    const struct range *irules;
    size_t n_irules;
    const struct range *frules;
    size_t n_frules;
    int bytes_read, bytes_written;
    int max_byte_read, max_byte_written;    /* NONE: offset unknown */
    int max_read_size, max_write_size;      /* *_MAX_*_TIME_SIZE */
    int rank_ints;          /* FASTEST_RANK, _BYTES, SLOWEST_RANK, _BYTES */
    int read_time, write_time, meta_time;
    int max_read_time, max_write_time;      /* NONE in STDIO */
    int rank_times;         /* F_FASTEST_RANK_TIME, F_SLOWEST_RANK_TIME */
    int blocks[2];          /* common-value blocks: first value index */
    int skip_empty_block;   /* MPI-IO: skip when incoming ACCESS1 == 0 */
};

/* Common-value blocks: 4 values followed by their 4 counts. */
#define CV_SLOTS 4

static const struct range posix_i[] = {
    { 0, 11, SUM_CLAMP }, { 12, 13, LAST }, { 14, 15, SUM_CLAMP },
    { 16, 17, MAX }, { 18, 23, SUM_CLAMP }, { 24, 24, LAST },
    { 25, 25, SUM_CLAMP }, { 26, 26, LAST }, { 29, 48, SUM_CLAMP },
};
static const struct range posix_f[] = {
    { 0, 3, MIN_POS }, { 4, 7, MAX }, { 8, 10, SUM }, { 15, 16, ZERO },
};
static const struct range mpiio_i[] = {
    { 0, 12, SUM }, { 13, 13, LAST }, { 14, 16, SUM }, { 19, 38, SUM },
};
static const struct range stdio_i[] = {
    { 0, 7, SUM }, { 8, 9, MAX },
};
static const struct range stdio_f[] = {
    { 0, 2, SUM }, { 3, 6, MIN_POS }, { 7, 10, MAX }, { 13, 14, ZERO },
};
static const struct range dfs_i[] = {
    { 0, 16, SUM_CLAMP }, { 19, 38, SUM_CLAMP }, { 47, 47, LAST },
};
static const struct range daos_i[] = {
    { 0, 26, SUM_CLAMP }, { 29, 48, SUM_CLAMP }, { 57, 59, LAST },
};
/* DFS and DAOS: like POSIX without the variance counters */
static const struct range dfsdaos_f[] = {
    { 0, 3, MIN_POS }, { 4, 7, MAX }, { 8, 10, SUM },
};

#define R(a) a, sizeof(a) / sizeof((a)[0])

static const struct spec specs[] = {
    { TOKIO_DARSHAN_POSIX, R(posix_i), R(posix_f), 14, 15, 16, 17, 27, 28,
      65, 8, 9, 10, 11, 12, 13, { 49, 57 }, 0 },
    { TOKIO_DARSHAN_MPIIO, R(mpiio_i), R(posix_f), 14, 15, NONE, NONE, 17,
      18, 47, 8, 9, 10, 11, 12, 13, { 39, NONE }, 1 },
    { TOKIO_DARSHAN_STDIO, R(stdio_i), R(stdio_f), 7, 6, 8, 9, NONE, NONE,
      10, 2, 1, 0, NONE, NONE, 11, { NONE, NONE }, 0 },
    { TOKIO_DARSHAN_DFS, R(dfs_i), R(dfsdaos_f), 14, 15, NONE, NONE, 17,
      18, 48, 8, 9, 10, 11, 12, 13, { 39, NONE }, 0 },
    { TOKIO_DARSHAN_DAOS, R(daos_i), R(dfsdaos_f), 24, 25, NONE, NONE, 27,
      28, 60, 8, 9, 10, 11, 12, 13, { 49, NONE }, 0 },
};

#define N_SPECS (sizeof(specs) / sizeof(specs[0]))

static const struct spec *
spec_of(int mod)
{
    for (size_t i = 0; i < N_SPECS; i++)
        if (specs[i].mod == mod)
            return &specs[i];
    return NULL;
}

/* Small per-key entries (ranks, record ids): a hash of their keys. */
struct keymap {
    size_t *slots;      /* entry index + 1; 0 = empty */
    size_t mask;
    uint64_t *keys;     /* per entry, first-seen order */
    size_t n;
    size_t cap;         /* entries it has room for */
};

struct rank_time {
    double io, rw, md;
};

/* --perf's sums over the records seen so far. */
struct perf_acc {
    struct keymap km;           /* ranks, first-seen order */
    struct rank_time *rt;       /* per rank, km.cap long */
    int64_t total_bytes;
    double shared;
    size_t n;                   /* records seen (the next one's index) */
    char *bad;                  /* why --perf fails: a record's rank is
                                 * beyond nprocs (the first such) */
};

/* --total and --perf of every module of specs[], in its order. */
struct tokio_darshan_fold {
    unsigned views;
    struct tokio_darshan_total *total[N_SPECS];
    struct perf_acc perf[N_SPECS];
};

static int
bad_module(int mod)
{
    return tokio__error(TOKIO_EINVAL, "darshan module %d has no derived "
                        "views (POSIX, MPI-IO, STDIO, DFS, DAOS only)", mod);
}

/* Corrupt counters may overflow; darshan-util's sums wrap, and so do
 * ours, without signed-overflow undefined behaviour. */
static int64_t
add64(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

/* ---- --total (§11) --------------------------------------------------- */

/* Fold counters lo..hi of a record (`v`) into the aggregate's (`a`) by
 * `rule`; one loop per rule, as this runs for every counter of every
 * record. */
static void
apply_ints(int rule, int64_t *a, const int64_t *v, int lo, int hi)
{
    int c;

    switch (rule) {
    case SUM:
        for (c = lo; c <= hi; c++)
            a[c] = add64(a[c], v[c]);
        break;
    case SUM_CLAMP:
        for (c = lo; c <= hi; c++) {
            int64_t x = add64(a[c], v[c]);
            a[c] = x < 0 ? -1 : x;
        }
        break;
    case LAST:
        for (c = lo; c <= hi; c++)
            a[c] = v[c];
        break;
    case MAX:
        for (c = lo; c <= hi; c++)
            if (v[c] > a[c])
                a[c] = v[c];
        break;
    default:
        break;
    }
}

static void
apply_dbls(int rule, double *a, const double *v, int lo, int hi)
{
    int c;

    switch (rule) {
    case SUM:
        for (c = lo; c <= hi; c++)
            a[c] += v[c];
        break;
    case MIN_POS:
        /* -1 ("not recorded") never beats an unset 0 */
        for (c = lo; c <= hi; c++)
            if (v[c] > 0 && (a[c] == 0 || v[c] < a[c]))
                a[c] = v[c];
        break;
    case MAX:
        for (c = lo; c <= hi; c++)
            if (v[c] > a[c])
                a[c] = v[c];
        break;
    case ZERO:
        for (c = lo; c <= hi; c++)
            a[c] = 0.0;
        break;
    default:
        break;
    }
}

/*
 * Merge the 4 most common values of a record into the aggregate's,
 * keeping them ordered by count (then value), as darshan-util does.
 */
static void
merge_common(int64_t *av, int64_t *ac, const int64_t *rv, const int64_t *rc)
{
    int done[CV_SLOTS] = { 0 };

    /* values already present just add their counts (zeros match too) */
    for (int j = 0; j < CV_SLOTS; j++)
        for (int k = 0; k < CV_SLOTS; k++)
            if (av[k] == rv[j]) {
                ac[k] = add64(ac[k], rc[j]);
                done[j] = 1;
            }
    for (int j = 0; j < CV_SLOTS; j++) {
        if (done[j])
            continue;
        if (rv[j] == 0)
            return;
        int64_t total = rc[j];
        for (int k = 0; k < CV_SLOTS; k++)
            if (av[k] == rv[j]) {
                total = add64(ac[k], rc[j]);
                break;
            }
        int64_t tv[CV_SLOTS] = { 0 }, tc[CV_SLOTS] = { 0 };
        int n = 0, k = 0;
        while (k < CV_SLOTS &&
               (ac[k] > total || (ac[k] == total && av[k] > rv[j]))) {
            tv[n] = av[k];
            tc[n++] = ac[k++];
        }
        if (n == CV_SLOTS)
            return;
        tv[n] = rv[j];
        tc[n++] = rc[j];
        for (; k < CV_SLOTS && n < CV_SLOTS; k++)
            if (av[k] != rv[j]) {
                tv[n] = av[k];
                tc[n++] = ac[k];
            }
        memcpy(av, tv, sizeof(tv));
        memcpy(ac, tc, sizeof(tc));
    }
}

/* One rank's candidate for fastest or slowest (which: 0 or 2 / 0 or 1). */
static void
rank_candidate(const struct spec *s, const struct tokio_darshan_record *r,
               int which, int64_t *rank, int64_t *bytes, double *time)
{
    if (r->rank == -1) {
        /* a shared record carries its own fastest/slowest rank */
        *rank = r->counters[s->rank_ints + 2 * which];
        *bytes = r->counters[s->rank_ints + 2 * which + 1];
        *time = r->fcounters[s->rank_times + which];
    } else {
        *rank = r->rank;
        *bytes = add64(r->counters[s->bytes_read],
                       r->counters[s->bytes_written]);
        *time = r->fcounters[s->read_time] + r->fcounters[s->write_time] +
                r->fcounters[s->meta_time];
    }
}

static void
agg_ranks(const struct spec *s, struct tokio_darshan_total *t,
          const struct tokio_darshan_record *r)
{
    int64_t *ai = t->counters + s->rank_ints;
    double *af = t->fcounters + s->rank_times;
    int first = t->n_records == 0;

    /* the aggregate is "one file" only while every record has its id */
    if (first)
        t->id = r->id;
    else if (t->id != r->id)
        t->id = 0;
    if (t->id != r->id) {
        ai[0] = ai[1] = ai[2] = ai[3] = -1;
        af[0] = af[1] = 0.0;
        return;
    }
    for (int which = 0; which < 2; which++) {
        int64_t rank, bytes;
        double time;
        rank_candidate(s, r, which, &rank, &bytes, &time);
        if (first || (which == 0 ? time < af[0] : time > af[1])) {
            ai[2 * which] = rank;
            ai[2 * which + 1] = bytes;
            af[which] = time;
        }
    }
}

static void
agg_record(const struct spec *s, struct tokio_darshan_total *t,
           const struct tokio_darshan_record *r)
{
    for (size_t i = 0; i < s->n_irules; i++)
        apply_ints(s->irules[i].rule, t->counters, r->counters,
                   s->irules[i].lo, s->irules[i].hi);
    for (size_t i = 0; i < s->n_frules; i++)
        apply_dbls(s->frules[i].rule, t->fcounters, r->fcounters,
                   s->frules[i].lo, s->frules[i].hi);
    /* the slowest operation's size travels with its time */
    if (s->max_read_time != NONE) {
        if (r->fcounters[s->max_read_time] >
            t->fcounters[s->max_read_time]) {
            t->fcounters[s->max_read_time] = r->fcounters[s->max_read_time];
            t->counters[s->max_read_size] = r->counters[s->max_read_size];
        }
        if (r->fcounters[s->max_write_time] >
            t->fcounters[s->max_write_time]) {
            t->fcounters[s->max_write_time] =
                r->fcounters[s->max_write_time];
            t->counters[s->max_write_size] = r->counters[s->max_write_size];
        }
    }
    for (int b = 0; b < 2; b++) {
        int v = s->blocks[b];
        if (v == NONE)
            continue;
        if (s->skip_empty_block && r->counters[v] == 0)
            continue;
        merge_common(t->counters + v, t->counters + v + CV_SLOTS,
                     r->counters + v, r->counters + v + CV_SLOTS);
    }
    agg_ranks(s, t, r);
    t->n_records++;
}

/* Records shorter than the module's lists cannot be folded in (the
 * decoder always publishes full current-layout records). */
static int
record_fits(const struct tokio_darshan_record *r, size_t ni, size_t nf)
{
    return r->n_counters >= ni && r->n_fcounters >= nf;
}

/* A zeroed aggregate of module `mod` in one block: the struct, then the
 * ints, then the doubles. */
static struct tokio_darshan_total *
total_new(int mod)
{
    size_t ni = tokio_darshan_counter_count(mod);
    size_t nf = tokio_darshan_fcounter_count(mod);
    struct tokio_darshan_total *t =
        tokio__calloc(1, sizeof(*t) + ni * sizeof(int64_t) +
                             nf * sizeof(double));

    if (t == NULL)
        return NULL;
    t->module = mod;
    t->n_counters = ni;
    t->counters = (int64_t *)(t + 1);
    t->n_fcounters = nf;
    t->fcounters = (double *)(t->counters + ni);
    return t;
}

void
tokio_darshan_total_free(struct tokio_darshan_total *t)
{
    free(t);
}

/* ---- hash of small per-key entries (ranks, record ids) --------------- */

static int
keymap_init(struct keymap *km, size_t max_entries)
{
    size_t ns = 16;

    if (max_entries == 0)
        max_entries = 1;
    /* at most half full, so probes stay short */
    while (ns < 2 * max_entries)
        ns *= 2;
    memset(km, 0, sizeof(*km));
    km->slots = tokio__calloc(ns, sizeof(size_t));
    km->keys = tokio__calloc(max_entries, sizeof(uint64_t));
    km->mask = ns - 1;
    km->cap = max_entries;
    return km->slots && km->keys ? TOKIO_OK : TOKIO_ENOMEM;
}

static void
keymap_free(struct keymap *km)
{
    free(km->slots);
    free(km->keys);
}

static uint64_t
mix(uint64_t x)
{
    /* splitmix64's finalizer: ranks are small consecutive integers */
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* Index of `key`'s entry, adding it if new (the map must have room for
 * one more: keymap_room()). */
static size_t
keymap_get(struct keymap *km, uint64_t key, int *added)
{
    size_t at = (size_t)mix(key) & km->mask;

    *added = 0;
    for (;; at = (at + 1) & km->mask) {
        size_t e = km->slots[at];
        if (e == 0)
            break;
        if (km->keys[e - 1] == key)
            return e - 1;
    }
    km->keys[km->n] = key;
    km->slots[at] = ++km->n;
    *added = 1;
    return km->n - 1;
}

/* Room for one more entry: a full map doubles, its entries keeping
 * their indices. */
static int
keymap_room(struct keymap *km)
{
    struct keymap big;
    int added;

    if (km->n < km->cap)
        return TOKIO_OK;
    if (keymap_init(&big, 2 * km->cap) < 0) {
        keymap_free(&big);
        return TOKIO_ENOMEM;
    }
    for (size_t i = 0; i < km->n; i++)
        keymap_get(&big, km->keys[i], &added);
    keymap_free(km);
    *km = big;
    return TOKIO_OK;
}

/* ---- --perf (§12) ---------------------------------------------------- */

static int
perf_init(struct perf_acc *a, size_t hint)
{
    memset(a, 0, sizeof(*a));
    if (keymap_init(&a->km, hint) < 0 ||
        (a->rt = tokio__calloc(a->km.cap, sizeof(*a->rt))) == NULL)
        return TOKIO_ENOMEM;
    return TOKIO_OK;
}

static void
perf_free(struct perf_acc *a)
{
    keymap_free(&a->km);
    free(a->rt);
    free(a->bad);
}

/* Take record `r` of `log` in (the next in file order).  TOKIO_OK or
 * TOKIO_ENOMEM; a rank beyond nprocs is kept for perf_finish(). */
static int
perf_add(struct perf_acc *a, const struct spec *s,
         const struct tokio_darshan *log,
         const struct tokio_darshan_record *r, size_t ni, size_t nf)
{
    size_t i = a->n++;
    int64_t nprocs = tokio_darshan_job(log)->nprocs;

    if (a->bad != NULL || !record_fits(r, ni, nf))
        return TOKIO_OK;
    const double *f = r->fcounters;
    a->total_bytes = add64(a->total_bytes,
                           add64(r->counters[s->bytes_read],
                                 r->counters[s->bytes_written]));
    if (r->rank < 0) {
        a->shared += f[s->rank_times + 1];
        return TOKIO_OK;
    }
    if (r->rank >= nprocs) {
        char msg[128];
        snprintf(msg, sizeof(msg), "%s record %zu has rank %" PRId64
                 " but the job has %" PRId64 " processes",
                 tokio_darshan_module_name(s->mod), i, r->rank, nprocs);
        size_t len = strlen(tokio_darshan_logname(log)) + strlen(msg) + 5;
        if ((a->bad = tokio__malloc(len)) == NULL)
            return TOKIO_ENOMEM;
        snprintf(a->bad, len, "'%s': %s", tokio_darshan_logname(log), msg);
        return TOKIO_OK;
    }
    if (a->km.n == a->km.cap) {
        size_t cap = a->km.cap;
        if (keymap_room(&a->km) < 0)
            return TOKIO_ENOMEM;
        struct rank_time *rt = tokio__reallocarray(a->rt, a->km.cap,
                                                   sizeof(*rt));
        if (rt == NULL)
            return TOKIO_ENOMEM;
        memset(rt + cap, 0, (a->km.cap - cap) * sizeof(*rt));
        a->rt = rt;
    }
    int added;
    struct rank_time *t = &a->rt[keymap_get(&a->km, (uint64_t)r->rank,
                                            &added)];
    t->io += f[s->meta_time] + f[s->read_time] + f[s->write_time];
    t->rw += f[s->read_time] + f[s->write_time];
    t->md += f[s->meta_time];
    return TOKIO_OK;
}

/* The figures, or TOKIO_EFORMAT for a rank beyond nprocs. */
static int
perf_finish(const struct perf_acc *a, struct tokio_darshan_perf *out)
{
    memset(out, 0, sizeof(*out));
    if (a->bad != NULL)
        return tokio__error(TOKIO_EFORMAT, "%s", a->bad);
    /* darshan-util scans ranks upward with '>' from 0.0: the lowest rank
     * among those with the largest positive time */
    int found = 0;
    for (size_t k = 0; k < a->km.n; k++) {
        int64_t rank = (int64_t)a->km.keys[k];
        const struct rank_time *t = &a->rt[k];
        if (t->io > out->slowest_rank_io_time ||
            (found && t->io == out->slowest_rank_io_time &&
             rank < out->slowest_rank)) {
            found = 1;
            out->slowest_rank = rank;
            out->slowest_rank_io_time = t->io;
            out->slowest_rank_meta_only_time = t->md;
            out->slowest_rank_rw_only_time = t->rw;
        }
    }
    out->total_bytes = a->total_bytes;
    out->shared_time_by_slowest = a->shared;
    out->agg_time_by_slowest = out->slowest_rank_io_time + a->shared;
    if (out->agg_time_by_slowest != 0.0)
        out->agg_perf_by_slowest = ((double)a->total_bytes / 1048576.0) /
                                   out->agg_time_by_slowest;
    return TOKIO_OK;
}

/* ---- folds: --total and --perf one record at a time ------------------ */

int
tokio_darshan_fold_new(struct tokio_darshan_fold **out, unsigned views)
{
    struct tokio_darshan_fold *f;

    *out = NULL;
    if ((f = tokio__calloc(1, sizeof(*f))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory for Darshan "
                            "figures");
    f->views = views;
    for (size_t k = 0; k < N_SPECS; k++) {
        /* ranks: a few to start with, doubling as more turn up */
        if (((views & TOKIO_DARSHAN_FOLD_TOTALS) &&
             (f->total[k] = total_new(specs[k].mod)) == NULL) ||
            ((views & TOKIO_DARSHAN_FOLD_PERF) &&
             perf_init(&f->perf[k], 16) < 0)) {
            tokio_darshan_fold_free(f);
            return tokio__error(TOKIO_ENOMEM, "out of memory for Darshan "
                                "figures");
        }
    }
    *out = f;
    return TOKIO_OK;
}

int
tokio_darshan_fold_record(void *fold, const struct tokio_darshan *log,
                          int mod, const struct tokio_darshan_record *r)
{
    struct tokio_darshan_fold *f = fold;
    const struct spec *s = spec_of(mod);

    if (s == NULL)
        return TOKIO_OK;
    size_t k = (size_t)(s - specs);
    size_t ni = tokio_darshan_counter_count(mod);
    size_t nf = tokio_darshan_fcounter_count(mod);
    if (f->total[k] != NULL && record_fits(r, ni, nf))
        agg_record(s, f->total[k], r);
    if ((f->views & TOKIO_DARSHAN_FOLD_PERF) &&
        perf_add(&f->perf[k], s, log, r, ni, nf) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory estimating %s "
                            "performance of '%s'",
                            tokio_darshan_module_name(mod),
                            tokio_darshan_logname(log));
    return TOKIO_OK;
}

/* Module `mod`'s place in the fold, or an error: no derived views, or
 * `view` not kept. */
static int
fold_slot(const struct tokio_darshan_fold *f, int mod, unsigned view,
          size_t *k_out)
{
    const struct spec *s = spec_of(mod);

    if (s == NULL)
        return bad_module(mod);
    if (!(f->views & view))
        return tokio__error(TOKIO_EINVAL, "Darshan figures folded without "
                            "%s", view == TOKIO_DARSHAN_FOLD_PERF
                                      ? "--perf" : "--total");
    *k_out = (size_t)(s - specs);
    return TOKIO_OK;
}

int
tokio_darshan_fold_totals(const struct tokio_darshan_fold *f, int mod,
                          struct tokio_darshan_total **out)
{
    size_t k;
    int rc;

    *out = NULL;
    if ((rc = fold_slot(f, mod, TOKIO_DARSHAN_FOLD_TOTALS, &k)) < 0)
        return rc;
    const struct tokio_darshan_total *ft = f->total[k];
    struct tokio_darshan_total *t = total_new(mod);
    if (t == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory totalling %s "
                            "records", tokio_darshan_module_name(mod));
    t->n_records = ft->n_records;
    t->id = ft->id;
    memcpy(t->counters, ft->counters, t->n_counters * sizeof(int64_t));
    memcpy(t->fcounters, ft->fcounters, t->n_fcounters * sizeof(double));
    *out = t;
    return TOKIO_OK;
}

int
tokio_darshan_fold_perf(const struct tokio_darshan_fold *f, int mod,
                        struct tokio_darshan_perf *out)
{
    size_t k;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = fold_slot(f, mod, TOKIO_DARSHAN_FOLD_PERF, &k)) < 0)
        return rc;
    return perf_finish(&f->perf[k], out);
}

void
tokio_darshan_fold_free(struct tokio_darshan_fold *f)
{
    if (f == NULL)
        return;
    for (size_t k = 0; k < N_SPECS; k++) {
        free(f->total[k]);
        if (f->views & TOKIO_DARSHAN_FOLD_PERF)
            perf_free(&f->perf[k]);
    }
    free(f);
}

/* A fold of `views` over the kept records of module `mod` of `log`. */
static int
fold_log(struct tokio_darshan_fold **out, const struct tokio_darshan *log,
         int mod, unsigned views)
{
    size_t n = tokio_darshan_record_count(log, mod);
    int rc;

    *out = NULL;
    if (spec_of(mod) == NULL)
        return bad_module(mod);
    if ((rc = tokio_darshan_fold_new(out, views)) < 0)
        return rc;
    for (size_t i = 0; i < n && rc == TOKIO_OK; i++)
        rc = tokio_darshan_fold_record(*out, log, mod,
                                       tokio_darshan_record(log, mod, i));
    if (rc < 0) {
        tokio_darshan_fold_free(*out);
        *out = NULL;
    }
    return rc;
}

int
tokio_darshan_totals(const struct tokio_darshan *log, int mod,
                     struct tokio_darshan_total **out)
{
    struct tokio_darshan_fold *f = NULL;
    int rc;

    *out = NULL;
    if ((rc = fold_log(&f, log, mod, TOKIO_DARSHAN_FOLD_TOTALS)) < 0)
        return rc;
    rc = tokio_darshan_fold_totals(f, mod, out);
    tokio_darshan_fold_free(f);
    return rc;
}

int
tokio_darshan_perf(const struct tokio_darshan *log, int mod,
                   struct tokio_darshan_perf *out)
{
    struct tokio_darshan_fold *f = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = fold_log(&f, log, mod, TOKIO_DARSHAN_FOLD_PERF)) < 0)
        return rc;
    rc = tokio_darshan_fold_perf(f, mod, out);
    tokio_darshan_fold_free(f);
    return rc;
}

/* ---- --file (§13) ---------------------------------------------------- */

struct file_acc {
    int64_t r, w, max_offset, nprocs;
};

/* -1 ("unknown") poisons a maximum; a later known value replaces it. */
static void
merge_offset(int64_t *a, int64_t v)
{
    if (v == -1)
        *a = -1;
    else if (v > *a)
        *a = v;
}

static void
count_file(struct tokio_darshan_file_category *c, const struct file_acc *f)
{
    c->count++;
    c->bytes_read = add64(c->bytes_read, f->r);
    c->bytes_written = add64(c->bytes_written, f->w);
    merge_offset(&c->max_offset, f->max_offset);
}

int
tokio_darshan_file_counts(const struct tokio_darshan *log, int mod,
                          struct tokio_darshan_file_counts *out)
{
    const struct spec *s = spec_of(mod);

    memset(out, 0, sizeof(*out));
    if (s == NULL)
        return bad_module(mod);
    size_t n = tokio_darshan_record_count(log, mod);
    size_t ni = tokio_darshan_counter_count(mod);
    size_t nf = tokio_darshan_fcounter_count(mod);
    struct keymap km;
    struct file_acc *fa = tokio__calloc(n ? n : 1, sizeof(*fa));
    int rc = keymap_init(&km, n);

    if (rc < 0 || fa == NULL) {
        keymap_free(&km);
        free(fa);
        return tokio__error(TOKIO_ENOMEM, "out of memory counting %s files",
                            tokio_darshan_module_name(mod));
    }
    for (size_t i = 0; i < n; i++) {
        const struct tokio_darshan_record *r = tokio_darshan_record(log, mod,
                                                                    i);
        if (!record_fits(r, ni, nf))
            continue;
        const int64_t *c = r->counters;
        int added;
        struct file_acc *f = &fa[keymap_get(&km, r->id, &added)];
        f->r = add64(f->r, c[s->bytes_read]);
        f->w = add64(f->w, c[s->bytes_written]);
        /* MPI-IO, DFS and DAOS records do not know their extent */
        int64_t off = -1;
        if (s->max_byte_read != NONE)
            off = c[s->max_byte_read] > c[s->max_byte_written]
                      ? c[s->max_byte_read] : c[s->max_byte_written];
        merge_offset(&f->max_offset, off);
        /* a shared record makes the file shared for good, unless a rank
         * record follows: then the -1 counts up to 0 (darshan-util) */
        if (r->rank < 0)
            f->nprocs = -1;
        else
            f->nprocs = add64(f->nprocs, 1);
    }
    for (size_t k = 0; k < km.n; k++) {
        const struct file_acc *f = &fa[k];
        count_file(&out->kind[TOKIO_DARSHAN_FILES_TOTAL], f);
        if (f->r > 0 && f->w == 0)
            count_file(&out->kind[TOKIO_DARSHAN_FILES_READ_ONLY], f);
        else if (f->w > 0 && f->r == 0)
            count_file(&out->kind[TOKIO_DARSHAN_FILES_WRITE_ONLY], f);
        else if (f->r > 0 && f->w > 0)
            count_file(&out->kind[TOKIO_DARSHAN_FILES_READ_WRITE], f);
        if (f->nprocs == 1)
            count_file(&out->kind[TOKIO_DARSHAN_FILES_UNIQUE], f);
        else if (f->nprocs == -1)
            count_file(&out->kind[TOKIO_DARSHAN_FILES_SHARED], f);
        else
            count_file(&out->kind[TOKIO_DARSHAN_FILES_PARTSHARED], f);
    }
    keymap_free(&km);
    free(fa);
    return TOKIO_OK;
}

/* ---- text views (§10.3, §11-13) -------------------------------------- */

enum view { VIEW_TOTAL, VIEW_PERF, VIEW_FILE };

static int
print_total(const struct tokio_darshan *log, int mod, FILE *fp)
{
    struct tokio_darshan_total *t = NULL;
    int rc = tokio_darshan_totals(log, mod, &t);

    if (rc < 0)
        return rc;
    tokio__darshan_print_description_text(
        mod, tokio_darshan_module_version(log, mod), fp);
    fputc('\n', fp);
    for (size_t i = 0; i < t->n_counters; i++)
        fprintf(fp, "total_%s: %" PRId64 "\n",
                tokio_darshan_counter_name(mod, i), t->counters[i]);
    for (size_t i = 0; i < t->n_fcounters; i++)
        fprintf(fp, "total_%s: %f\n", tokio_darshan_fcounter_name(mod, i),
                t->fcounters[i]);
    tokio_darshan_total_free(t);
    return TOKIO_OK;
}

static int
print_perf(const struct tokio_darshan *log, int mod, FILE *fp)
{
    struct tokio_darshan_perf p;
    int rc = tokio_darshan_perf(log, mod, &p);

    if (rc < 0)
        return rc;
    fprintf(fp, "\n# performance\n# -----------\n"
            "# total_bytes: %" PRId64 "\n#\n"
            "# I/O timing for unique files (seconds):\n"
            "# ...........................\n"
            "# unique files: slowest_rank_io_time: %f\n"
            "# unique files: slowest_rank_meta_only_time: %f\n"
            "# unique files: slowest_rank_rw_only_time: %f\n"
            "# unique files: slowest_rank: %d\n#\n"
            "# I/O timing for shared files (seconds):\n"
            "# ...........................\n"
            "# shared files: time_by_slowest: %f\n#\n"
            "# Aggregate performance, including both shared and unique "
            "files:\n"
            "# ...........................\n"
            "# agg_time_by_slowest: %f # seconds\n"
            "# agg_perf_by_slowest: %f # MiB/s\n",
            p.total_bytes, p.slowest_rank_io_time,
            p.slowest_rank_meta_only_time, p.slowest_rank_rw_only_time,
            (int)p.slowest_rank, p.shared_time_by_slowest,
            p.agg_time_by_slowest, p.agg_perf_by_slowest);
    return TOKIO_OK;
}

static void
put_category(FILE *fp, const char *label, int64_t count, int64_t bytes,
             int64_t max_offset)
{
    fprintf(fp, "# %s: %" PRId64 " %" PRId64 " %" PRId64 "\n", label, count,
            bytes, max_offset);
}

static int
print_file(const struct tokio_darshan *log, int mod, FILE *fp)
{
    static const char *const labels[] = {
        "total", "read_only", "write_only", "read_write", "unique",
    };
    struct tokio_darshan_file_counts fc;
    int rc = tokio_darshan_file_counts(log, mod, &fc);

    if (rc < 0)
        return rc;
    fputs("\n# Total file counts\n"
          "# -----\n"
          "# <file_type>: type of file access:\n"
          "#    *read_only: file was only read\n"
          "#    *write_only: file was only written\n"
          "#    *read_write: file was read and written\n"
          "#    *unique: file was opened by a single process only\n"
          "#    *shared: file was accessed by a group of processes "
          "(maybe all processes)\n"
          "# <file_count> total number of files of this type\n"
          "# <total_bytes> total number of bytes moved to/from files of "
          "this type\n"
          "# <max_byte_offset> maximum byte offset accessed for a file of "
          "this type\n"
          "\n# <file_type> <file_count> <total_bytes> <max_byte_offset>\n",
          fp);
    for (int k = 0; k <= TOKIO_DARSHAN_FILES_UNIQUE; k++) {
        const struct tokio_darshan_file_category *c = &fc.kind[k];
        put_category(fp, labels[k], c->count,
                     add64(c->bytes_read, c->bytes_written), c->max_offset);
    }
    /* "shared" lumps in partially shared files, and darshan-parser adds
     * the two maximum offsets (so two unknowns print -2) */
    const struct tokio_darshan_file_category *sh =
        &fc.kind[TOKIO_DARSHAN_FILES_SHARED];
    const struct tokio_darshan_file_category *ps =
        &fc.kind[TOKIO_DARSHAN_FILES_PARTSHARED];
    put_category(fp, "shared", add64(sh->count, ps->count),
                 add64(add64(sh->bytes_read, sh->bytes_written),
                       add64(ps->bytes_read, ps->bytes_written)),
                 add64(sh->max_offset, ps->max_offset));
    return TOKIO_OK;
}

static int
write_view(const struct tokio_darshan *log, FILE *fp, enum view v)
{
    int empty = 0;

    tokio__darshan_write_preamble(log, fp);
    for (int i = 0; i < TOKIO_DARSHAN_MAX_MODULES; i++) {
        if (tokio_darshan_module_len(log, i) == 0) {
            empty++;
            if (!tokio_darshan_module_partial(log, i))
                continue;
        } else if (spec_of(i) == NULL) {
            /* darshan-parser derives nothing for other modules and
             * prints not even their banner */
            continue;
        }
        if (!tokio__darshan_write_banner(log, i, fp))
            continue;
        int rc = v == VIEW_TOTAL  ? print_total(log, i, fp)
                 : v == VIEW_PERF ? print_perf(log, i, fp)
                                  : print_file(log, i, fp);
        if (rc < 0)
            return rc;
    }
    if (empty == TOKIO_DARSHAN_MAX_MODULES)
        fputs("\n# no module data available.\n", fp);
    return tokio__write_check(fp, "cannot write darshan text for '%s'",
                              tokio_darshan_logname(log));
}

int
tokio_darshan_write_total(const struct tokio_darshan *log, FILE *fp)
{
    return write_view(log, fp, VIEW_TOTAL);
}

int
tokio_darshan_write_perf(const struct tokio_darshan *log, FILE *fp)
{
    return write_view(log, fp, VIEW_PERF);
}

int
tokio_darshan_write_file(const struct tokio_darshan *log, FILE *fp)
{
    return write_view(log, fp, VIEW_FILE);
}
