/*
 * src/analysis/darshan_bad_ost.c - correlating Darshan per-file
 * performance with the Lustre OSTs the files live on (the reference's
 * tokio.cli.darshan_bad_ost; tokio/analysis/darshan_bad_ost.h).
 *
 * Facts taken from the reference (pytokio 0.13):
 * - A file's performance is (sum over its POSIX records of BYTES_READ +
 *   BYTES_WRITTEN) / (largest F_WRITE_TIME + F_READ_TIME + F_META_TIME of
 *   one record), the times as darshan-parser printed them ("%f", six
 *   decimals), since that text is what the reference computed from.
 * - Only files with a LUSTRE record count; the file's OSTs are the union
 *   of its LUSTRE records' OST lists; its share of each is 1/(number of
 *   its OSTs).  Files are "log@name", so one log given twice merges with
 *   itself (highest performance, union of OSTs).
 * - OSTs with the same share for every file are skipped, and nothing is
 *   correlated when all files performed the same.  Results are sorted by
 *   coefficient; shown when p < -p (0.05) and |r| > -c (0.0); flagged
 *   when |r| > -C (0.5).
 *
 * Differs from pytokio:
 * - The reference read LUSTRE records in darshan-util's pre-3.4.6 text
 *   (STRIPE_WIDTH, OST_ID_<k>).  darshan-util 3.5 prints every log in the
 *   component layout (LUSTRE_COMP1_STRIPE_COUNT, LUSTRE_COMP1_OST_ID_<k>),
 *   so the reference fails on every log with KeyError 'STRIPE_WIDTH'
 *   (the .err files of golden/pytokio/darshan_bad_ost/).  We do what it
 *   meant: the file's OSTs are those of its layout, i.e. all OST ids of
 *   all its components (an old log's single stripe list is component 1;
 *   a progressive layout's later components hold the file's later
 *   bytes, so they are the file's OSTs too).
 * - A file no rank spent time on has no performance; the reference died
 *   there (ZeroDivisionError), we leave it out and count it.
 * - Equal coefficients are ordered by OST id; the reference kept the
 *   order of its DataFrame columns (Python set order of the OST ids).
 */
#include "tokio/analysis/darshan_bad_ost.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "tokio/analysis/stats.h"

/* darshan-parser prints a record whose id the name table lacks as
 * "(null)" (glibc's %s of NULL), so the reference saw that name. */
#define NO_NAME "(null)"

/* One observation: a file of a log. */
struct obs {
    char *key;                  /* "label@name" */
    size_t label_len;           /* the "label" part of key */
    double perf;                /* bytes per second */
    int64_t *osts;              /* distinct, increasing */
    size_t n_osts;
};

struct tokio_darshan_bad_ost {
    struct obs *files;
    size_t n, cap;
    size_t no_time;
    /* open addressing, file index + 1 (0: empty): the first file of each
     * key and of each label, so adding files one at a time (--parts, MPI)
     * stays linear; n_slots is 0 or a power of two over twice n */
    size_t *by_key, *by_label;
    size_t n_slots;
};

/* A record of the log under its name, for grouping by name. */
struct ref {
    const char *name;
    size_t index;               /* record index in its module */
};

/* Counter positions of the POSIX layout, found by name so a change of
 * the reader's layout cannot silently shift them. */
struct posix_idx {
    size_t bytes_read, bytes_written;
    size_t read_time, write_time, meta_time;
};

static int
find_counter(int fcounter, const char *name, size_t *out)
{
    int i = tokio_darshan_counter_index(TOKIO_DARSHAN_POSIX, name, fcounter);

    if (i < 0)
        return tokio__error(TOKIO_ERR, "darshan-bad-ost: the POSIX layout "
                            "has no counter %s", name);
    *out = (size_t)i;
    return TOKIO_OK;
}

static int
posix_indexes(struct posix_idx *ix)
{
    int rc;

    if ((rc = find_counter(0, "POSIX_BYTES_READ", &ix->bytes_read)) < 0 ||
        (rc = find_counter(0, "POSIX_BYTES_WRITTEN", &ix->bytes_written)) < 0 ||
        (rc = find_counter(1, "POSIX_F_READ_TIME", &ix->read_time)) < 0 ||
        (rc = find_counter(1, "POSIX_F_WRITE_TIME", &ix->write_time)) < 0 ||
        (rc = find_counter(1, "POSIX_F_META_TIME", &ix->meta_time)) < 0)
        return rc;
    return TOKIO_OK;
}

static int
cmp_ref(const void *pa, const void *pb)
{
    const struct ref *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);

    if (c != 0)
        return c;
    return (a->index > b->index) - (a->index < b->index);
}

static int
cmp_i64(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

    return (a > b) - (a < b);
}

/* Sort and drop repeats; returns the new count. */
static size_t
sort_unique(int64_t *v, size_t n)
{
    size_t k = 0;

    if (n == 0)
        return 0;
    qsort(v, n, sizeof(*v), cmp_i64);
    for (size_t i = 1; i < n; i++)
        if (v[i] != v[k])
            v[++k] = v[i];
    return k + 1;
}

/* The module's records under their names, sorted by (name, index), in
 * *out (free()).  Returns the count, or (size_t)-1 when out of memory. */
static size_t
refs_by_name(const struct tokio_darshan *log, int mod, struct ref **out)
{
    size_t n = tokio_darshan_record_count(log, mod);

    *out = NULL;
    if (n == 0)
        return 0;
    if ((*out = tokio__calloc(n, sizeof(**out))) == NULL)
        return (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        const char *name =
            tokio_darshan_name(log, tokio_darshan_record(log, mod, i)->id);
        (*out)[i].name = name != NULL ? name : NO_NAME;
        (*out)[i].index = i;
    }
    qsort(*out, n, sizeof(**out), cmp_ref);
    return n;
}

/* The end of the run of refs[start..] sharing refs[start]'s name. */
static size_t
group_end(const struct ref *refs, size_t n, size_t start)
{
    size_t e = start + 1;

    while (e < n && strcmp(refs[e].name, refs[start].name) == 0)
        e++;
    return e;
}

/* First LUSTRE ref named `name`, or n. */
static size_t
find_group(const struct ref *refs, size_t n, const char *name)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(refs[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && strcmp(refs[lo].name, name) == 0 ? lo : n;
}

/*
 * Performance of the file whose POSIX records are refs[start..end), in
 * record order as the reference met them.  Returns 0 when no record
 * spent any time (*perf untouched).
 */
static int
file_perf(const struct tokio_darshan *log, const struct posix_idx *ix,
          const struct ref *refs, size_t start, size_t end, double *perf)
{
    double max_time = 0.0, bytes = 0.0;

    for (size_t i = start; i < end; i++) {
        const struct tokio_darshan_record *r =
            tokio_darshan_record(log, TOKIO_DARSHAN_POSIX, refs[i].index);
        double t = tokio_darshan_printed(r->fcounters[ix->write_time]) +
                   tokio_darshan_printed(r->fcounters[ix->read_time]) +
                   tokio_darshan_printed(r->fcounters[ix->meta_time]);
        if (t > max_time)
            max_time = t;
        /* the reference added Python ints (exact) and then a float */
        int64_t br = r->counters[ix->bytes_read];
        int64_t bw = r->counters[ix->bytes_written];
        if ((bw > 0 && br > INT64_MAX - bw) || (bw < 0 && br < INT64_MIN - bw))
            bytes += (double)br + (double)bw;
        else
            bytes += (double)(br + bw);
    }
    if (!(max_time > 0.0))
        return 0;
    *perf = bytes / max_time;
    return 1;
}

/* The distinct OST ids of the LUSTRE records lrefs[start..end). */
static int
file_osts(const struct tokio_darshan *log, const struct ref *lrefs,
          size_t start, size_t end, struct obs *o)
{
    size_t total = 0;

    for (size_t i = start; i < end; i++)
        total += tokio_darshan_record(log, TOKIO_DARSHAN_LUSTRE,
                                      lrefs[i].index)->n_extra;
    o->osts = NULL;
    o->n_osts = 0;
    if (total == 0)
        return TOKIO_OK;
    if ((o->osts = tokio__calloc(total, sizeof(*o->osts))) == NULL)
        return TOKIO_ENOMEM;
    for (size_t i = start; i < end; i++) {
        /* every component's OST ids, in order: see "Differs from
         * pytokio" above */
        const struct tokio_darshan_record *r =
            tokio_darshan_record(log, TOKIO_DARSHAN_LUSTRE, lrefs[i].index);
        memcpy(o->osts + o->n_osts, r->extra, r->n_extra * sizeof(int64_t));
        o->n_osts += r->n_extra;
    }
    o->n_osts = sort_unique(o->osts, o->n_osts);
    return TOKIO_OK;
}

static void
obs_clear(struct obs *o)
{
    free(o->key);
    free(o->osts);
    memset(o, 0, sizeof(*o));
}

static void
obs_array_free(struct obs *v, size_t n)
{
    for (size_t i = 0; v != NULL && i < n; i++)
        obs_clear(&v[i]);
    free(v);
}

/*
 * The observations of one log, in the order of their first POSIX record,
 * into *out (*n_out of them; obs_array_free()).
 */
static int
log_observations(struct tokio_darshan_bad_ost *b,
                 const struct tokio_darshan *log, const char *label,
                 struct obs **out, size_t *n_out)
{
    struct posix_idx ix = { 0 };
    struct ref *prefs = NULL, *lrefs = NULL;
    struct obs *v = NULL;
    size_t *first = NULL;       /* each observation's first POSIX record */
    size_t np, nl, n = 0, no_time = 0;
    int rc;

    *out = NULL;
    *n_out = 0;
    if ((rc = posix_indexes(&ix)) < 0)
        return rc;
    np = refs_by_name(log, TOKIO_DARSHAN_POSIX, &prefs);
    nl = np == (size_t)-1 ? 0 : refs_by_name(log, TOKIO_DARSHAN_LUSTRE,
                                             &lrefs);
    /* groups come out in name order; `first` restores log order below */
    if (np == (size_t)-1 || nl == (size_t)-1 ||
        (np > 0 && ((v = tokio__calloc(np, sizeof(*v))) == NULL ||
                    (first = tokio__calloc(np, sizeof(*first))) == NULL))) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory correlating '%s'",
                          label);
        goto done;
    }
    for (size_t s = 0, e; s < np; s = e) {
        e = group_end(prefs, np, s);
        size_t ls = find_group(lrefs, nl, prefs[s].name);
        double perf;

        if (ls == nl)
            continue;           /* not on Lustre */
        if (!file_perf(log, &ix, prefs, s, e, &perf)) {
            no_time++;
            continue;
        }
        struct obs *o = &v[n];
        size_t len = strlen(label) + 1 + strlen(prefs[s].name) + 1;
        if ((o->key = tokio__malloc(len)) == NULL ||
            file_osts(log, lrefs, ls, group_end(lrefs, nl, ls), o) < 0) {
            obs_clear(o);
            rc = tokio__error(TOKIO_ENOMEM, "out of memory correlating "
                              "'%s'", label);
            goto done;
        }
        snprintf(o->key, len, "%s@%s", label, prefs[s].name);
        o->label_len = strlen(label);
        o->perf = perf;
        first[n++] = prefs[s].index;
    }
    /* insertion sort by first record: groups are mostly in order already
     * (darshan writes a file's records together) */
    for (size_t i = 1; i < n; i++) {
        struct obs t = v[i];
        size_t f = first[i], j = i;
        for (; j > 0 && first[j - 1] > f; j--) {
            v[j] = v[j - 1];
            first[j] = first[j - 1];
        }
        v[j] = t;
        first[j] = f;
    }
    b->no_time += no_time;      /* only counted once the log is added */
    *out = v;
    *n_out = n;
    v = NULL;
    rc = TOKIO_OK;
done:
    obs_array_free(v, n);
    free(first);
    free(prefs);
    free(lrefs);
    return rc;
}

/* FNV-1a of `len` bytes */
static size_t
hash_of(const char *s, size_t len)
{
    uint64_t h = 14695981039346656037u;

    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return (size_t)h;
}

/* The slot of `key` in b->by_key, or the empty one where it would go. */
static size_t *
key_slot(const struct tokio_darshan_bad_ost *b, const char *key)
{
    size_t mask = b->n_slots - 1, h = hash_of(key, strlen(key)) & mask;

    while (b->by_key[h] != 0 &&
           strcmp(b->files[b->by_key[h] - 1].key, key) != 0)
        h = (h + 1) & mask;
    return &b->by_key[h];
}

/* The slot of label[0, len) in b->by_label, or the empty one. */
static size_t *
label_slot(const struct tokio_darshan_bad_ost *b, const char *label,
           size_t len)
{
    size_t mask = b->n_slots - 1, h = hash_of(label, len) & mask;

    while (b->by_label[h] != 0) {
        const struct obs *o = &b->files[b->by_label[h] - 1];
        if (o->label_len == len && memcmp(o->key, label, len) == 0)
            break;
        h = (h + 1) & mask;
    }
    return &b->by_label[h];
}

/* File i into the indexes, unless a file before it has its key or
 * label.  The tables have room (index_room()). */
static void
index_file(struct tokio_darshan_bad_ost *b, size_t i)
{
    size_t *k = key_slot(b, b->files[i].key);
    size_t *l = label_slot(b, b->files[i].key, b->files[i].label_len);

    if (*k == 0)
        *k = i + 1;
    if (*l == 0)
        *l = i + 1;
}

/* Room in the indexes for `n` files (the set unchanged on failure). */
static int
index_room(struct tokio_darshan_bad_ost *b, size_t n)
{
    size_t want = b->n_slots ? b->n_slots : 128;
    size_t *k, *l;

    while (want < 2 * n)
        want *= 2;
    if (want == b->n_slots)
        return TOKIO_OK;
    k = tokio__calloc(want, sizeof(*k));
    l = tokio__calloc(want, sizeof(*l));
    if (k == NULL || l == NULL) {
        free(k);
        free(l);
        return TOKIO_ENOMEM;
    }
    free(b->by_key);
    free(b->by_label);
    b->by_key = k;
    b->by_label = l;
    b->n_slots = want;
    for (size_t i = 0; i < b->n; i++)
        index_file(b, i);
    return TOKIO_OK;
}

/* Index of the file with `key` among the set's files, or b->n. */
static size_t
find_file(const struct tokio_darshan_bad_ost *b, const char *key)
{
    size_t at = b->n_slots ? *key_slot(b, key) : 0;

    return at ? at - 1 : b->n;
}

/* Nonzero if a file of the set came from `label`. */
static int
label_seen(const struct tokio_darshan_bad_ost *b, const char *label)
{
    return b->n_slots && *label_slot(b, label, strlen(label)) != 0;
}

/* The sorted union of two sorted id sets, into *out (free()). */
static int
union_osts(const struct obs *a, const struct obs *c, int64_t **out,
           size_t *n_out)
{
    size_t n = a->n_osts + c->n_osts;

    *out = NULL;
    *n_out = 0;
    if (n == 0)
        return TOKIO_OK;
    if ((*out = tokio__calloc(n, sizeof(**out))) == NULL)
        return TOKIO_ENOMEM;
    if (a->n_osts)
        memcpy(*out, a->osts, a->n_osts * sizeof(**out));
    if (c->n_osts)
        memcpy(*out + a->n_osts, c->osts, c->n_osts * sizeof(**out));
    *n_out = sort_unique(*out, n);
    return TOKIO_OK;
}

int
tokio_darshan_bad_ost_new(struct tokio_darshan_bad_ost **out)
{
    *out = tokio__calloc(1, sizeof(**out));
    if (*out == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    return TOKIO_OK;
}

static int add_observations(struct tokio_darshan_bad_ost *b,
                            const char *label, struct obs *v, size_t n,
                            size_t saved_no_time);

int
tokio_darshan_bad_ost_add_log(struct tokio_darshan_bad_ost *b,
                              const struct tokio_darshan *log,
                              const char *label)
{
    struct obs *v = NULL;
    size_t n = 0, saved_no_time = b->no_time;
    int rc;

    if (tokio_darshan_record_count(log, TOKIO_DARSHAN_POSIX) == 0)
        return tokio__error(TOKIO_ENOTFOUND, "'%s' has no POSIX records",
                            label);
    if (tokio_darshan_record_count(log, TOKIO_DARSHAN_LUSTRE) == 0)
        return tokio__error(TOKIO_ENOTFOUND, "'%s' has no LUSTRE records",
                            label);
    if ((rc = log_observations(b, log, label, &v, &n)) < 0)
        return rc;
    return add_observations(b, label, v, n, saved_no_time);
}

/* Add a log's observations v[0..n) (taken over, freed on failure); the
 * log's files without time are already in b->no_time, which was
 * saved_no_time before. */
static int
add_observations(struct tokio_darshan_bad_ost *b, const char *label,
                 struct obs *v, size_t n, size_t saved_no_time)
{
    size_t fresh = 0, old_n = b->n;
    size_t *at = NULL;

    if (n == 0) {
        free(v);
        return TOKIO_OK;
    }

    /* Everything that can fail happens before the set changes: where
     * each file goes (a new slot, or merged into one from the same
     * label), the merged OST sets, room for the new files. */
    int again = label_seen(b, label);
    if ((at = tokio__calloc(n, sizeof(*at))) == NULL)
        goto nomem;
    for (size_t i = 0; i < n; i++) {
        at[i] = again ? find_file(b, v[i].key) : old_n;
        if (at[i] == old_n) {
            fresh++;
            continue;
        }
        /* the merged set replaces this observation's own */
        int64_t *u;
        size_t nu;
        if (union_osts(&b->files[at[i]], &v[i], &u, &nu) < 0)
            goto nomem;
        free(v[i].osts);
        v[i].osts = u;
        v[i].n_osts = nu;
    }
    if (b->n + fresh > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->n + fresh)
            cap *= 2;
        struct obs *f = tokio__reallocarray(b->files, cap, sizeof(*f));
        if (f == NULL)
            goto nomem;
        b->files = f;
        b->cap = cap;
    }
    if (index_room(b, b->n + fresh) < 0)
        goto nomem;

    for (size_t i = 0; i < n; i++) {
        if (at[i] == old_n) {
            b->files[b->n++] = v[i];
            index_file(b, b->n - 1);
            continue;
        }
        struct obs *o = &b->files[at[i]];
        if (v[i].perf > o->perf)
            o->perf = v[i].perf;
        free(o->osts);
        o->osts = v[i].osts;
        o->n_osts = v[i].n_osts;
        v[i].osts = NULL;
        obs_clear(&v[i]);
    }
    free(at);
    free(v);
    return TOKIO_OK;

nomem:
    b->no_time = saved_no_time;
    free(at);
    obs_array_free(v, n);
    return tokio__error(TOKIO_ENOMEM, "out of memory correlating '%s'",
                        label);
}

/* ---- streaming: a log's records folded as they are decoded ----------- */

/* One record id's figures while its log streams by. */
struct acc {
    uint64_t id;
    const char *name;
    size_t first;               /* index of its first POSIX record */
    int has_posix, has_lustre;
    double max_time, bytes;
    int64_t *osts;              /* every OST id of its LUSTRE records */
    size_t n_osts, cap_osts;
};

struct stream {
    struct posix_idx ix;
    struct acc *a;
    size_t n, cap;
    size_t *slot;               /* open addressing: id -> index + 1 */
    size_t n_slots;             /* a power of two, over twice n */
    size_t n_posix, n_lustre;
    size_t last;                /* a file's records come together */
    int oom;
};

static size_t
slot_of(uint64_t id, size_t n_slots)
{
    /* ids are already hashes of the names (the runtime's lookup8) */
    return (size_t)(id ^ (id >> 32)) & (n_slots - 1);
}

/* The accumulator of `id`, made when new; NULL when out of memory. */
static struct acc *
acc_of(struct stream *st, const struct tokio_darshan *log, uint64_t id)
{
    if (st->last < st->n && st->a[st->last].id == id)
        return &st->a[st->last];
    if (2 * (st->n + 1) > st->n_slots) {
        size_t ns = st->n_slots ? st->n_slots * 2 : 1024;
        size_t *sl = tokio__calloc(ns, sizeof(*sl));
        if (sl == NULL)
            return NULL;
        for (size_t i = 0; i < st->n; i++) {
            size_t k = slot_of(st->a[i].id, ns);
            while (sl[k] != 0)
                k = (k + 1) & (ns - 1);
            sl[k] = i + 1;
        }
        free(st->slot);
        st->slot = sl;
        st->n_slots = ns;
    }
    size_t k = slot_of(id, st->n_slots);
    for (; st->slot[k] != 0; k = (k + 1) & (st->n_slots - 1))
        if (st->a[st->slot[k] - 1].id == id)
            return &st->a[st->last = st->slot[k] - 1];
    if (st->n == st->cap) {
        size_t nc = st->cap ? st->cap * 2 : 256;
        struct acc *more = tokio__reallocarray(st->a, nc, sizeof(*more));
        if (more == NULL)
            return NULL;
        st->a = more;
        st->cap = nc;
    }
    struct acc *a = &st->a[st->n];
    memset(a, 0, sizeof(*a));
    a->id = id;
    a->name = tokio_darshan_name(log, id);
    if (a->name == NULL)
        a->name = NO_NAME;
    st->slot[k] = st->n + 1;
    st->last = st->n++;
    return a;
}

/* The reader's callback: one POSIX or LUSTRE record in. */
static int
stream_record(void *payload, const struct tokio_darshan *log, int mod,
              const struct tokio_darshan_record *r)
{
    struct stream *st = payload;
    struct acc *a = acc_of(st, log, r->id);

    if (a == NULL) {
        st->oom = 1;
        return TOKIO_ENOMEM;
    }
    if (mod == TOKIO_DARSHAN_LUSTRE) {
        st->n_lustre++;
        a->has_lustre = 1;
        if (r->n_extra == 0)
            return TOKIO_OK;
        if (a->n_osts + r->n_extra > a->cap_osts) {
            size_t nc = (a->n_osts + r->n_extra) * 2;
            int64_t *more = tokio__reallocarray(a->osts, nc, sizeof(*more));
            if (more == NULL) {
                st->oom = 1;
                return TOKIO_ENOMEM;
            }
            a->osts = more;
            a->cap_osts = nc;
        }
        memcpy(a->osts + a->n_osts, r->extra, r->n_extra * sizeof(int64_t));
        a->n_osts = sort_unique(a->osts, a->n_osts + r->n_extra);
        return TOKIO_OK;
    }
    if (!a->has_posix) {
        a->has_posix = 1;
        a->first = st->n_posix;
    }
    st->n_posix++;
    /* as file_perf() */
    double t = tokio_darshan_printed(r->fcounters[st->ix.write_time]) +
               tokio_darshan_printed(r->fcounters[st->ix.read_time]) +
               tokio_darshan_printed(r->fcounters[st->ix.meta_time]);
    if (t > a->max_time)
        a->max_time = t;
    int64_t br = r->counters[st->ix.bytes_read];
    int64_t bw = r->counters[st->ix.bytes_written];
    if ((bw > 0 && br > INT64_MAX - bw) || (bw < 0 && br < INT64_MIN - bw))
        a->bytes += (double)br + (double)bw;
    else
        a->bytes += (double)(br + bw);
    return TOKIO_OK;
}

static int
cmp_acc_name(const void *pa, const void *pb)
{
    const struct acc *a = *(const struct acc *const *)pa;
    const struct acc *b = *(const struct acc *const *)pb;
    int c = strcmp(a->name, b->name);

    if (c != 0)
        return c;
    return (a->first > b->first) - (a->first < b->first);
}

static int
cmp_acc_first(const void *pa, const void *pb)
{
    const struct acc *a = *(const struct acc *const *)pa;
    const struct acc *b = *(const struct acc *const *)pb;

    return (a->first > b->first) - (a->first < b->first);
}

/* The streamed figures as observations, files in the order of their
 * first POSIX record (as log_observations()); ids sharing a name (a
 * runtime hash collision) are one file, as there. */
static int
stream_observations(struct tokio_darshan_bad_ost *b, struct stream *st,
                    const char *label, struct obs **out, size_t *n_out)
{
    struct acc **p = tokio__calloc(st->n ? st->n : 1, sizeof(*p));
    struct obs *v = tokio__calloc(st->n ? st->n : 1, sizeof(*v));
    size_t m = 0, n = 0, no_time = 0;

    *out = NULL;
    *n_out = 0;
    if (p == NULL || v == NULL)
        goto nomem;
    for (size_t i = 0; i < st->n; i++)
        p[i] = &st->a[i];
    qsort(p, st->n, sizeof(*p), cmp_acc_name);
    for (size_t i = 0; i < st->n; i++) {
        struct acc *g = p[i];
        if (m > 0 && strcmp(p[m - 1]->name, g->name) == 0) {
            struct acc *into = p[m - 1];
            if (g->has_posix && (!into->has_posix || g->first < into->first))
                into->first = g->first;
            into->has_posix |= g->has_posix;
            into->has_lustre |= g->has_lustre;
            into->bytes += g->bytes;
            if (g->max_time > into->max_time)
                into->max_time = g->max_time;
            if (g->n_osts > 0) {
                int64_t *u = tokio__reallocarray(into->osts, into->n_osts +
                                                 g->n_osts, sizeof(*u));
                if (u == NULL)
                    goto nomem;
                memcpy(u + into->n_osts, g->osts,
                       g->n_osts * sizeof(*u));
                into->osts = u;
                into->n_osts = sort_unique(u, into->n_osts + g->n_osts);
            }
            continue;
        }
        p[m++] = g;
    }
    qsort(p, m, sizeof(*p), cmp_acc_first);
    for (size_t i = 0; i < m; i++) {
        struct acc *g = p[i];
        if (!g->has_posix || !g->has_lustre)
            continue;           /* not on Lustre */
        if (!(g->max_time > 0.0)) {
            no_time++;
            continue;
        }
        struct obs *o = &v[n];
        size_t len = strlen(label) + 1 + strlen(g->name) + 1;
        if ((o->key = tokio__malloc(len)) == NULL)
            goto nomem;
        snprintf(o->key, len, "%s@%s", label, g->name);
        o->label_len = strlen(label);
        o->perf = g->bytes / g->max_time;
        o->osts = g->osts;      /* sorted and distinct already */
        o->n_osts = g->n_osts;
        g->osts = NULL;
        g->n_osts = 0;
        n++;
    }
    b->no_time += no_time;
    free(p);
    *out = v;
    *n_out = n;
    return TOKIO_OK;
nomem:
    free(p);
    obs_array_free(v, n);
    return tokio__error(TOKIO_ENOMEM, "out of memory correlating '%s'",
                        label);
}

int
tokio_darshan_bad_ost_add_path(struct tokio_darshan_bad_ost *b,
                               const char *path)
{
    struct stream st = { .last = (size_t)-1 };
    struct tokio_darshan_select sel = {
        .modules = TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_POSIX) |
                   TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_LUSTRE),
        .record = stream_record,
        .payload = &st,
    };
    struct tokio_darshan *log = NULL;
    struct obs *v = NULL;
    size_t n = 0, saved_no_time = b->no_time;
    int rc, opened;

    if ((rc = posix_indexes(&st.ix)) < 0)
        return rc;
    /* TOKIO_PARTIAL stays in `opened`: returned on success */
    opened = tokio_darshan_open_select(&log, path, &sel);
    if (st.oom)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory correlating '%s'",
                          path);
    else if ((rc = opened) < 0)
        ;
    else if (st.n_posix == 0)
        rc = tokio__error(TOKIO_ENOTFOUND, "'%s' has no POSIX records",
                          path);
    else if (st.n_lustre == 0)
        rc = tokio__error(TOKIO_ENOTFOUND, "'%s' has no LUSTRE records",
                          path);
    /* the names are the log's: it is freed once they are copied */
    else if ((rc = stream_observations(b, &st, path, &v, &n)) == TOKIO_OK &&
             (rc = add_observations(b, path, v, n, saved_no_time)) ==
                 TOKIO_OK)
        rc = opened;
    tokio_darshan_free(log);
    for (size_t i = 0; i < st.n; i++)
        free(st.a[i].osts);
    free(st.a);
    free(st.slot);
    return rc;
}

int
tokio_darshan_bad_ost_add_file(struct tokio_darshan_bad_ost *b,
                               const char *label, const char *name,
                               double perf, const int64_t *osts,
                               size_t n_osts, size_t no_time)
{
    struct obs *v;
    size_t len;

    if (name == NULL) {
        b->no_time += no_time;
        return TOKIO_OK;
    }
    len = strlen(label) + 1 + strlen(name) + 1;
    if ((v = tokio__calloc(1, sizeof(*v))) == NULL ||
        (v->key = tokio__malloc(len)) == NULL ||
        (n_osts > 0 &&
         (v->osts = tokio__calloc(n_osts, sizeof(*osts))) == NULL)) {
        obs_array_free(v, 1);
        return tokio__error(TOKIO_ENOMEM, "out of memory correlating '%s'",
                            label);
    }
    snprintf(v->key, len, "%s@%s", label, name);
    v->label_len = strlen(label);
    v->perf = perf;
    if (n_osts > 0)
        memcpy(v->osts, osts, n_osts * sizeof(*osts));
    v->n_osts = n_osts;
    size_t saved = b->no_time;
    b->no_time += no_time;
    return add_observations(b, label, v, 1, saved);
}

size_t
tokio_darshan_bad_ost_file_count(const struct tokio_darshan_bad_ost *b)
{
    return b->n;
}

const char *
tokio_darshan_bad_ost_file(const struct tokio_darshan_bad_ost *b, size_t i,
                           double *perf_out, const int64_t **osts_out,
                           size_t *n_osts_out)
{
    if (i >= b->n)
        return NULL;
    if (perf_out != NULL)
        *perf_out = b->files[i].perf;
    if (osts_out != NULL)
        *osts_out = b->files[i].osts;
    if (n_osts_out != NULL)
        *n_osts_out = b->files[i].n_osts;
    return b->files[i].key;
}

size_t
tokio_darshan_bad_ost_no_time(const struct tokio_darshan_bad_ost *b)
{
    return b->no_time;
}

static int
has_ost(const struct obs *o, int64_t id)
{
    return bsearch(&id, o->osts, o->n_osts, sizeof(id), cmp_i64) != NULL;
}

static int
cmp_result(const void *pa, const void *pb)
{
    const struct tokio_darshan_bad_ost_result *a = pa, *b = pb;

    if (a->coefficient != b->coefficient)
        return a->coefficient < b->coefficient ? -1 : 1;
    return (a->ost_id > b->ost_id) - (a->ost_id < b->ost_id);
}

int
tokio_darshan_bad_ost_correlate(const struct tokio_darshan_bad_ost *b,
                                struct tokio_darshan_bad_ost_result **out,
                                size_t *n_out)
{
    struct tokio_darshan_bad_ost_result *res = NULL;
    double *perf = NULL, *share = NULL;
    int64_t *ids = NULL;
    size_t n = b->n, n_ids = 0, n_res = 0;
    int rc = TOKIO_OK;

    *out = NULL;
    *n_out = 0;
    if (n < 2)
        return TOKIO_OK;

    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += b->files[i].n_osts;
    if ((perf = tokio__calloc(n, sizeof(*perf))) == NULL ||
        (share = tokio__calloc(n, sizeof(*share))) == NULL ||
        (total > 0 && (ids = tokio__calloc(total, sizeof(*ids))) == NULL)) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory correlating OSTs");
        goto done;
    }
    int same = 1;
    for (size_t i = 0; i < n; i++) {
        perf[i] = b->files[i].perf;
        same &= perf[i] == perf[0];
        if (b->files[i].n_osts)
            memcpy(ids + n_ids, b->files[i].osts,
                   b->files[i].n_osts * sizeof(*ids));
        n_ids += b->files[i].n_osts;
    }
    if (same)                   /* nothing to explain */
        goto done;
    n_ids = sort_unique(ids, n_ids);
    if (n_ids > 0 && (res = tokio__calloc(n_ids, sizeof(*res))) == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory correlating OSTs");
        goto done;
    }

    for (size_t k = 0; k < n_ids; k++) {
        int varies = 0;
        for (size_t i = 0; i < n; i++) {
            const struct obs *o = &b->files[i];
            /* 1.0 / float(len(osts)), as the reference computed it */
            share[i] = has_ost(o, ids[k]) ? 1.0 / (double)o->n_osts : 0.0;
            varies |= share[i] != share[0];
        }
        if (!varies)
            continue;
        struct tokio_darshan_bad_ost_result *r = &res[n_res];
        r->ost_id = ids[k];
        snprintf(r->ost_name, sizeof(r->ost_name), "OST#%" PRId64, ids[k]);
        if ((rc = tokio_stats_pearson(perf, share, n, &r->coefficient,
                                      &r->p_value)) < 0) {
            tokio__error_prefix("OST#%" PRId64, ids[k]);
            goto done;
        }
        n_res++;
    }
    qsort(res, n_res, sizeof(*res), cmp_result);
done:
    if (rc < 0 || n_res == 0) {
        free(res);
        res = NULL;
        n_res = 0;
    }
    free(perf);
    free(share);
    free(ids);
    *out = res;
    *n_out = n_res;
    return rc;
}

int
tokio_darshan_bad_ost_keep(const struct tokio_darshan_bad_ost_result *r,
                           const struct tokio_darshan_bad_ost_opts *o)
{
    return r->p_value < o->p_threshold &&
           fabs(r->coefficient) > o->c_threshold;
}

int
tokio_darshan_bad_ost_to_json(const struct tokio_darshan_bad_ost_result *res,
                              size_t n,
                              const struct tokio_darshan_bad_ost_opts *o,
                              json_t **out)
{
    json_t *list = json_array();

    *out = NULL;
    for (size_t i = 0; list != NULL && i < n; i++) {
        if (!tokio_darshan_bad_ost_keep(&res[i], o))
            continue;
        /* keep() passed only finite values: json_real() cannot refuse */
        if (json_array_append_new(list, json_pack(
                "{s:f, s:s, s:f}", "coefficient", res[i].coefficient,
                "ost_name", res[i].ost_name, "p-value", res[i].p_value))) {
            json_decref(list);
            list = NULL;
        }
    }
    if (list == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    *out = list;
    return TOKIO_OK;
}

int
tokio_darshan_bad_ost_write_text(
    const struct tokio_darshan_bad_ost_result *res, size_t n,
    const struct tokio_darshan_bad_ost_opts *o, FILE *fp)
{
    int bad = fprintf(fp, "%-10s %12s %10s\n", "OST Name", "Correlation",
                      "P-Value") < 0;

    for (size_t i = 0; !bad && i < n; i++) {
        const char *warning = "";

        if (!tokio_darshan_bad_ost_keep(&res[i], o))
            continue;
        if (fabs(res[i].coefficient) > o->c_warning)
            warning = res[i].coefficient < 0
                ? " <-- this OST looks unhealthy"
                : " <-- this OST is running unusually quickly";
        bad = fprintf(fp, "%-10s %12.3f %10.4g%s\n", res[i].ost_name,
                      res[i].coefficient, res[i].p_value, warning) < 0;
    }
    if (bad)
        return tokio__error(TOKIO_EIO, "cannot write the OST table");
    return TOKIO_OK;
}

void
tokio_darshan_bad_ost_free(struct tokio_darshan_bad_ost *b)
{
    if (b == NULL)
        return;
    obs_array_free(b->files, b->n);
    free(b->by_key);
    free(b->by_label);
    free(b);
}
