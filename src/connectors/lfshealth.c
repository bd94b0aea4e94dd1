/*
 * src/connectors/lfshealth.c - one snapshot of `lfs df` (fullness of each
 * OST and MDT) or of `lctl dl -t` (the OSS serving each OST), as saved by
 * a site's health checks; mirrors tokio.connectors.lfshealth (LfsOstFullness
 * and LfsOstMap) of pytokio 0.13.
 *
 * The reference picks target lines out with two regular expressions and
 * ignores every other line; we match the same lines by hand (one pass, no
 * backtracking engine), following what those expressions accept token by
 * token, and skip the rest as it does.  Lines matched but unusable are
 * errors with file and line.
 *
 * Differs from pytokio:
 * - lines end at "\n" only ("\r\n" too); the reference's splitlines() also
 *   breaks at "\r", "\v", "\f" and \x1c-\x1e, which we treat as blanks
 *   inside a line.  Only ASCII blanks and digits count as \s and \d.
 * - a matched line with a number beyond 64 bits, a name without a target
 *   part ("snx1-_UUID"), a NUL byte or invalid UTF-8 is TOKIO_EFORMAT
 *   (the reference kept huge numbers, crashed on the others).
 * - get_failovers() of a file system with no OSC (only an MDC) gives mode 0
 *   and no abnormal OSS; the reference raised KeyError for the whole map.
 * - save_cache() of a target with 0 used and 0 available KiB prints 0%
 *   (the reference divided by zero).
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/lfs-df.txt.gz and
 * lctl-dl-t.txt.gz; goldens in golden/pytokio/lfshealth/.
 */
#include "tokio/connectors/lfshealth.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "connectors/lfshealth_private.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/text.h"
#include "tokio/input.h"

/*
 * A snapshot is built in place: its public records (struct
 * tokio_lfs_df_target or tokio_lfs_dl_target) in one growing array, their
 * strings in an arena of blocks that never move, so that the records can
 * point into it from the start.  While lines come in, two hash tables
 * find the file system of a name and the record of a (file system,
 * target) key; _finish() drops them.
 */
struct slot {
    uint32_t hash;
    uint32_t id;                /* index + 1; 0: empty */
};

struct table {
    struct slot *slot;
    size_t cap;                 /* 0 or a power of two > 2 * entries */
};

struct key {                    /* what the key table compares */
    const char *target;
    uint32_t target_n;
    uint32_t fs;                /* the file system's rank */
};

struct block {
    struct block *next;
    size_t used, cap;
    char data[];
};

struct snap {
    void *recs;                 /* n records of rec_size bytes */
    size_t n, cap, rec_size;
    struct key *keys;           /* one per record, while building */
    struct table by_key;        /* (fs rank, target) -> record */
    const char **fs;            /* distinct file system names, in order */
    size_t *fs_n;
    size_t n_fs, fs_cap, last_fs;
    struct table by_fs;         /* name -> rank */
    struct block *arena;
    size_t arena_used;          /* bytes handed out, over all blocks */
    size_t hint_n, hint_pool;   /* first sizes: see tokio__lfs_df_size_like */
};

struct tokio_lfs_df {
    struct snap s;
    struct tokio_lfs_df_target *pub;    /* s.recs, once finished */
};

struct tokio_lfs_dl {
    struct snap s;
    struct tokio_lfs_dl_target *pub;
};

/* Python's str \s for ASCII: space, \t \n \v \f \r and \x1c-\x1f.  A
 * table, as tokenizing every line asks this of nearly every byte. */
static const unsigned char space_table[256] = {
    ['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1,
    [0x1c] = 1, [0x1d] = 1, [0x1e] = 1, [0x1f] = 1, [' '] = 1,
};

static int
is_space(unsigned char c)
{
    return space_table[c];
}

static int
is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static int
all_digits(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_digit((unsigned char)s[i]))
            return 0;
    return 1;
}

/*
 * A token of digits as int64: 1; 0 when it is empty or holds another
 * byte (not a number: the line is not ours); -1 when it is beyond
 * INT64_MAX (Python's int has no bound, the monitored numbers never come
 * near it).  Checking and converting in one pass matters: the numbers
 * are most of an `lfs df` line.
 */
static int
parse_digits(const char *s, size_t n, int64_t *out)
{
    size_t fast = n < 18 ? n : 18, i = 0;  /* 18 digits always fit */
    int64_t v = 0;
    int big = 0;

    if (n == 0)
        return 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* eight at a time, the first digit in the low byte: each byte less
     * '0' must be 0..9 (a byte below '0' borrows into its high bit, one
     * above '9' carries into it when 0x76 is added), then pairs, fours
     * and eights of digits are combined by multiplying */
    for (; fast - i >= 8; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        w -= 0x3030303030303030u;
        if (((w | (w + 0x7676767676767676u)) & 0x8080808080808080u) != 0)
            return 0;
        w = (w * 10 + (w >> 8)) & 0x00ff00ff00ff00ffu;
        w = (w * 100 + (w >> 16)) & 0x0000ffff0000ffffu;
        w = (w * 10000 + (w >> 32)) & 0xffffffffu;
        v = v * 100000000 + (int64_t)w;
    }
#endif
    for (; i < fast; i++) {
        unsigned d = (unsigned char)s[i] - (unsigned)'0';
        if (d > 9)
            return 0;
        v = v * 10 + (int64_t)d;
    }
    for (i = fast; i < n; i++) {
        unsigned d = (unsigned char)s[i] - (unsigned)'0';
        if (d > 9)
            return 0;
        if (v > INT64_MAX / 10 || (v == INT64_MAX / 10 && d > INT64_MAX % 10))
            big = 1;
        else
            v = v * 10 + (int64_t)d;
    }
    *out = v;
    return big ? -1 : 1;
}

/* "snx" digits "-" and at least one more byte: the reference's
 * (snx\d+-\S+) over a whole token.  The length of "snx" digits (the
 * file system's name), or 0 when the token is no such name. */
static size_t
is_snx_name(const char *s, size_t n)
{
    size_t i = 3;

    if (n < 6 || memcmp(s, "snx", 3) != 0 || !is_digit((unsigned char)s[3]))
        return 0;
    while (i < n && is_digit((unsigned char)s[i]))
        i++;
    return i + 1 < n && s[i] == '-' ? i : 0;
}

/* ---- the snapshot: records, their strings, two indexes ---- */

static void
snap_release(struct snap *s)
{
    while (s->arena != NULL) {
        struct block *b = s->arena;
        s->arena = b->next;
        free(b);
    }
    free(s->recs);
    free(s->keys);
    free(s->by_key.slot);
    free(s->fs);
    free(s->fs_n);
    free(s->by_fs.slot);
}

/* `n` bytes of the arena; NULL when out of memory.  A history's next
 * snapshot most likely fits in a first block sized as the one before it
 * needed, and needs little more when not (blocks of an eighth of that);
 * else each block is twice the one before. */
static char *
arena_alloc(struct snap *s, size_t n)
{
    struct block *b = s->arena;

    if (b == NULL || b->cap - b->used < n) {
        size_t cap = b == NULL ? (s->hint_pool > 0 ? s->hint_pool : 4096)
                     : s->hint_pool > 0 ? s->hint_pool / 8
                     : b->cap < SIZE_MAX / 4 ? 2 * b->cap : b->cap;
        if (cap < 4096)
            cap = 4096;
        if (cap < n)
            cap = n;
        if (cap > SIZE_MAX / 2 - sizeof(*b) ||
            (b = tokio__malloc(sizeof(*b) + cap)) == NULL)
            return NULL;
        b->next = s->arena;
        b->used = 0;
        b->cap = cap;
        s->arena = b;
    }
    b->used += n;
    s->arena_used += n;
    return b->data + b->used - n;
}

/* A NUL-ended copy of `n` bytes in the arena; NULL when out of memory. */
static const char *
arena_strdup(struct snap *s, const char *str, size_t n)
{
    char *p = arena_alloc(s, n + 1);

    if (p != NULL) {
        memcpy(p, str, n);
        p[n] = '\0';
    }
    return p;
}

/* Copy `n` bytes to `dst`, NUL-ended, lower-casing ASCII when `lower`;
 * the end of the copy. */
static char *
put_str(char *dst, const char *src, size_t n, int lower)
{
    if (lower) {
        for (size_t i = 0; i < n; i++) {
            char c = src[i];
            dst[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
        }
    } else {
        memcpy(dst, src, n);
    }
    dst[n] = '\0';
    return dst + n + 1;
}

/* Eight bytes at a time, the last word padded with 0xff (no UTF-8 byte);
 * its length mixed in, so that "ab" and "ab\xff" differ; then mixed so
 * that the low 32 bits depend on every byte. */
static uint32_t
hash_bytes(uint64_t h, const char *s, size_t n)
{
    const uint64_t k = 0x9e3779b97f4a7c15u;

    for (; n >= 8; s += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * k;
        h ^= h >> 29;
    }
    uint64_t w = ~(uint64_t)0;
    memcpy(&w, s, n);
    h = (h ^ w ^ n) * k;
    h = (h ^ (h >> 32)) * 0xbf58476d1ce4e5b9u;
    return (uint32_t)(h ^ (h >> 31));
}

/* The slot holding an entry whose hash is `h` and for which same(id)
 * holds, or the empty slot where it would go. */
static struct slot *
table_probe(const struct table *t, uint32_t h,
            int (*same)(const struct snap *, size_t, const void *),
            const struct snap *s, const void *key)
{
    size_t mask = t->cap - 1, i = h & mask;

    while (t->slot[i].id != 0 &&
           (t->slot[i].hash != h || !same(s, t->slot[i].id - 1, key)))
        i = (i + 1) & mask;
    return &t->slot[i];
}

/* A larger table for more than `n` entries (`hint`: how many to expect).
 * Entries keep their hashes: growing reads no record. */
static int
table_grow(struct table *t, size_t n, size_t hint)
{
    size_t cap = t->cap ? t->cap * 2 : 16;
    while (cap <= 2 * ((t->cap == 0 && hint > n ? hint : n) + 1))
        cap *= 2;
    if (cap > SIZE_MAX / 4 / sizeof(struct slot))
        return TOKIO_ENOMEM;
    struct slot *slot = tokio__calloc(cap, sizeof(*slot));
    if (slot == NULL)
        return TOKIO_ENOMEM;
    for (size_t i = 0; i < t->cap; i++) {
        if (t->slot[i].id == 0)
            continue;
        size_t j = t->slot[i].hash & (cap - 1);
        while (slot[j].id != 0)
            j = (j + 1) & (cap - 1);
        slot[j] = t->slot[i];
    }
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    return TOKIO_OK;
}

struct str {
    const char *p;
    size_t n;
};

static int
same_fs(const struct snap *s, size_t rank, const void *key)
{
    const struct str *k = key;

    return s->fs_n[rank] == k->n && memcmp(s->fs[rank], k->p, k->n) == 0;
}

static int
same_key(const struct snap *s, size_t i, const void *key)
{
    const struct key *k = key, *r = &s->keys[i];

    return r->fs == k->fs && r->target_n == k->target_n &&
           memcmp(r->target, k->target, k->target_n) == 0;
}

/* The rank of file system `fs` (order of first appearance), added when
 * new; most lines are of the file system of the line before. */
static int
fs_rank(struct snap *s, const char *fs, size_t fs_n, size_t *rank)
{
    struct str k = { fs, fs_n };
    struct slot *slot;
    uint32_t h;

    if (s->last_fs < s->n_fs && same_fs(s, s->last_fs, &k)) {
        *rank = s->last_fs;
        return TOKIO_OK;
    }
    if (s->by_fs.cap <= 2 * (s->n_fs + 1) &&
        table_grow(&s->by_fs, s->n_fs, 0) < 0)
        return TOKIO_ENOMEM;
    h = hash_bytes(0x243f6a8885a308d3u, fs, fs_n);
    slot = table_probe(&s->by_fs, h, same_fs, s, &k);
    if (slot->id == 0) {
        const char *copy;
        if (s->n_fs >= UINT32_MAX - 1)
            return TOKIO_ENOMEM;
        if (s->n_fs == s->fs_cap) {
            size_t cap = s->fs_cap ? s->fs_cap * 2 : 8;
            const char **p = tokio__reallocarray(s->fs, cap, sizeof(*p));
            if (p == NULL)
                return TOKIO_ENOMEM;
            s->fs = p;
            size_t *q = tokio__reallocarray(s->fs_n, cap, sizeof(*q));
            if (q == NULL)
                return TOKIO_ENOMEM;
            s->fs_n = q;
            s->fs_cap = cap;
        }
        if ((copy = arena_strdup(s, fs, fs_n)) == NULL)
            return TOKIO_ENOMEM;
        s->fs[s->n_fs] = copy;
        s->fs_n[s->n_fs] = fs_n;
        slot->hash = h;
        slot->id = (uint32_t)++s->n_fs;
    }
    *rank = s->last_fs = slot->id - 1;
    return TOKIO_OK;
}

/*
 * The record of (fs, target): 1 and a new record, whose fs and target
 * the caller sets to *fs_out and *tg_out (arena copies), or 0 and the
 * record holding that key already (a repeated target, a file system
 * mounted twice, keeps its first place and takes the later values, as a
 * Python dict assignment does); a negative status when out of memory.
 */
static int
snap_record(struct snap *s, const char *fs, size_t fs_n, const char *tg,
            size_t tg_n, void **rec, const char **fs_out,
            const char **tg_out)
{
    size_t rank;
    int rc;

    if (tg_n > UINT32_MAX || (rc = fs_rank(s, fs, fs_n, &rank)) < 0)
        return TOKIO_ENOMEM;
    struct key k = { tg, (uint32_t)tg_n, (uint32_t)rank };
    uint64_t seed = 0x243f6a8885a308d3u ^ (rank * 0x9e3779b97f4a7c15u);
    uint32_t h = hash_bytes(seed, tg, tg_n);

    if (s->by_key.cap <= 2 * (s->n + 1) &&
        table_grow(&s->by_key, s->n, s->hint_n) < 0)
        return TOKIO_ENOMEM;
    struct slot *slot = table_probe(&s->by_key, h, same_key, s, &k);
    if (slot->id != 0) {
        *rec = (char *)s->recs + (slot->id - 1) * s->rec_size;
        return 0;
    }
    if (s->n >= UINT32_MAX - 1)
        return TOKIO_ENOMEM;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : s->hint_n > 64 ? s->hint_n : 64;
        void *p = tokio__reallocarray(s->recs, cap, s->rec_size);
        if (p == NULL)
            return TOKIO_ENOMEM;
        s->recs = p;
        struct key *q = tokio__reallocarray(s->keys, cap, sizeof(*q));
        if (q == NULL)
            return TOKIO_ENOMEM;
        s->keys = q;
        s->cap = cap;
    }
    if ((k.target = arena_strdup(s, tg, tg_n)) == NULL)
        return TOKIO_ENOMEM;
    s->keys[s->n] = k;
    slot->hash = h;
    slot->id = (uint32_t)++s->n;
    *rec = (char *)s->recs + (s->n - 1) * s->rec_size;
    *fs_out = s->fs[rank];
    *tg_out = k.target;
    return 1;
}

/*
 * Group the records by file system (in order of first appearance), each
 * one's in order of first appearance; drop the indexes, as nothing is
 * added once a snapshot is finished, and the records' spare room.
 */
static int
snap_finish(struct snap *s)
{
    size_t i = 1;

    if (s->keys == NULL)                    /* finished already, or empty */
        return TOKIO_OK;
    /* the usual file lists one file system after another: already in
     * order; else a stable counting sort by file system */
    while (i < s->n && s->keys[i - 1].fs <= s->keys[i].fs)
        i++;
    if (i < s->n) {
        size_t *at = tokio__calloc(s->n_fs + 1, sizeof(*at));
        char *recs = tokio__reallocarray(NULL, s->n, s->rec_size);
        if (at == NULL || recs == NULL) {
            free(at);
            free(recs);
            return TOKIO_ENOMEM;
        }
        for (i = 0; i < s->n; i++)
            at[s->keys[i].fs + 1]++;
        for (i = 1; i <= s->n_fs; i++)
            at[i] += at[i - 1];
        for (i = 0; i < s->n; i++)
            memcpy(recs + at[s->keys[i].fs]++ * s->rec_size,
                   (char *)s->recs + i * s->rec_size, s->rec_size);
        free(at);
        free(s->recs);
        s->recs = recs;
        s->cap = s->n;
    }
    if (s->n == 0) {
        free(s->recs);
        s->recs = NULL;
        s->cap = 0;
    } else if (s->cap > s->n) {             /* keeps the old when it fails */
        void *p = tokio__reallocarray(s->recs, s->n, s->rec_size);
        if (p != NULL) {
            s->recs = p;
            s->cap = s->n;
        }
    }
    free(s->keys);
    free(s->by_key.slot);
    free(s->fs);
    free(s->fs_n);
    free(s->by_fs.slot);
    s->keys = NULL;
    s->by_key = (struct table){ NULL, 0 };
    s->fs = NULL;
    s->fs_n = NULL;
    s->by_fs = (struct table){ NULL, 0 };
    s->n_fs = s->fs_cap = s->last_fs = 0;
    return TOKIO_OK;
}

/*
 * Set the record of (fs, tg) in an `lfs df` snapshot being built: mount
 * point and role (strs, lens; the role lower-cased when `lower`), copied
 * to the arena, and total, used, remaining KiB and target index (nums).
 * TOKIO_OK or TOKIO_ENOMEM (no message).
 */
static int
df_put(struct tokio_lfs_df *df, const char *fs, size_t fs_n, const char *tg,
       size_t tg_n, const char *const *strs, const size_t *lens, int lower,
       const int64_t *nums)
{
    char *a = arena_alloc(&df->s, lens[0] + lens[1] + 2);
    const char *fs_s = NULL, *tg_s = NULL;
    void *rec;
    int rc;

    if (a == NULL ||
        (rc = snap_record(&df->s, fs, fs_n, tg, tg_n, &rec, &fs_s, &tg_s)) < 0)
        return TOKIO_ENOMEM;
    struct tokio_lfs_df_target *t = rec;
    if (rc == 1) {
        t->fs = fs_s;
        t->target = tg_s;
    }
    t->mount_pt = a;
    a = put_str(a, strs[0], lens[0], 0);
    t->role = a;
    put_str(a, strs[1], lens[1], lower);
    t->total_kib = nums[0];
    t->used_kib = nums[1];
    t->remaining_kib = nums[2];
    t->target_index = nums[3];
    return TOKIO_OK;
}

/* Set the record of (fs, tg) to `strs` (status, role, role_id, uuid,
 * target_ip, nid, NUL-ended in the arena) and `nums` (index, ref_count). */
static int
dl_set(struct tokio_lfs_dl *dl, const char *fs, size_t fs_n, const char *tg,
       size_t tg_n, const char *const *strs, const int64_t *nums)
{
    const char *fs_s = NULL, *tg_s = NULL;
    void *rec;
    int rc;

    if ((rc = snap_record(&dl->s, fs, fs_n, tg, tg_n, &rec, &fs_s, &tg_s)) < 0)
        return TOKIO_ENOMEM;
    struct tokio_lfs_dl_target *t = rec;
    if (rc == 1) {
        t->fs = fs_s;
        t->target = tg_s;
    }
    t->status = strs[0];
    t->role = strs[1];
    t->role_id = strs[2];
    t->uuid = strs[3];
    t->target_ip = strs[4];
    t->nid = strs[5];
    t->index = nums[0];
    t->ref_count = nums[1];
    return TOKIO_OK;
}

/* As dl_set(), copying the strings (`lens` bytes each) to the arena. */
static int
dl_put(struct tokio_lfs_dl *dl, const char *fs, size_t fs_n, const char *tg,
       size_t tg_n, const char *const *strs, const size_t *lens,
       const int64_t *nums)
{
    const char *copy[6];
    size_t total = 6;

    for (int i = 0; i < 6; i++)
        total += lens[i];
    char *a = arena_alloc(&dl->s, total);
    if (a == NULL)
        return TOKIO_ENOMEM;
    for (int i = 0; i < 6; i++) {
        copy[i] = a;
        a = put_str(a, strs[i], lens[i], 0);
    }
    return dl_set(dl, fs, fs_n, tg, tg_n, copy, nums);
}

/* ---- tokens ---- */

struct tok {
    const char *p;
    size_t n;
    size_t gap;                 /* blanks after it */
};

/* The end of the token at line[i]: the first blank from i on, or len.
 * Tokens are most of a line, so eight bytes at a time: (w - 0x21..) & ~w
 * has the high bit set of the first byte below 0x21 (every blank is; no
 * byte >= 0x80 is), which on a little-endian machine is the lowest set
 * bit's byte; bytes one by one for the rest of the line. */
static inline size_t
token_end(const char *line, size_t i, size_t len)
{
    const uint64_t low = 0x2121212121212121u, high = 0x8080808080808080u;

    while (len - i >= 8) {
        uint64_t w, m;
        memcpy(&w, line + i, 8);
        if ((m = (w - low) & ~w & high) == 0) {
            i += 8;
            continue;
        }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        i += (size_t)__builtin_ctzll(m) / 8;
        if (is_space((unsigned char)line[i]))
            return i;
        i++;                                /* a control byte, no blank */
#else
        break;
#endif
    }
    while (i < len && !is_space((unsigned char)line[i]))
        i++;
    return i;
}

/* All bytes in 1..0x7f, i.e. text that needs no UTF-8 decoding: eight at
 * a time (a byte's high bit, or a NUL's borrow, flags it), the tail as an
 * overlapping last word. */
static int
ascii_text(const char *s, size_t n)
{
    const uint64_t one = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t w, bad = 0;
    size_t i = 0;

    if (n < 8) {
        for (; i < n; i++)
            bad |= (unsigned char)s[i] == 0 ? 0x80u : (unsigned char)s[i];
        return (bad & 0x80u) == 0;
    }
    for (; n - i > 8; i += 8) {
        memcpy(&w, s + i, 8);
        bad |= w | ((w - one) & ~w);
    }
    memcpy(&w, s + n - 8, 8);
    bad |= w | ((w - one) & ~w);
    return (bad & high) == 0;
}

/* Text a parsed line must be: valid UTF-8 without NUL bytes. */
static int
text_ok(const char *line, size_t len)
{
    return ascii_text(line, len) ||
           tokio__text_valid((const unsigned char *)line, len);
}

/* Split at most `max` tokens; the rest of the line (from the start of the
 * next token) in *rest.  Returns the count. */
static size_t
tokenize(const char *line, size_t len, struct tok *t, size_t max,
         const char **rest, size_t *rest_n)
{
    size_t i = 0, n = 0;

    while (i < len && is_space((unsigned char)line[i]))
        i++;
    while (i < len && n < max) {
        size_t start = i;
        i = token_end(line, i, len);
        t[n].p = line + start;
        t[n].n = i - start;
        start = i;
        while (i < len && is_space((unsigned char)line[i]))
            i++;
        t[n].gap = i - start;
        n++;
    }
    *rest = line + i;
    *rest_n = len - i;
    return n;
}

/* ---- `lfs df` ---- */

/*
 * The reference's expression:
 *   ^\s*(snx\d+-\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+).\s+
 *   (\S+)\[([^:]+):(\d+)\]\s*$
 * Tokens 1-4 are whole tokens.  "(\d+)." takes "61%", or digits of which
 * the last stands for ".", or a lone digit string whose "." is the first
 * of at least two blanks.  The tail "/scratch2[OST:0]" may hold blanks
 * inside the brackets; the role is between the last "[" of the mount
 * point's token that leaves a colon-free role, and the last ":".
 */
int
tokio__lfs_df_add_line(struct tokio_lfs_df *df, const char *line, size_t len,
                       const char *name, size_t lineno)
{
    struct tok t[5];
    const char *r;
    size_t rn;

    if (tokenize(line, len, t, 5, &r, &rn) < 5 || rn == 0)
        return 0;
    int64_t nums[4] = { 0, 0, 0, 0 };
    int fits[4];
    size_t snx_n;
    if ((snx_n = is_snx_name(t[0].p, t[0].n)) == 0 ||
        (fits[0] = parse_digits(t[1].p, t[1].n, &nums[0])) == 0 ||
        (fits[1] = parse_digits(t[2].p, t[2].n, &nums[1])) == 0 ||
        (fits[2] = parse_digits(t[3].p, t[3].n, &nums[2])) == 0)
        return 0;
    if (all_digits(t[4].p, t[4].n)) {
        if (t[4].n < 2 && t[4].gap < 2)
            return 0;
    } else if (t[4].n < 2 || !all_digits(t[4].p, t[4].n - 1)) {
        return 0;
    }
    while (rn > 0 && is_space((unsigned char)r[rn - 1]))
        rn--;
    if (rn < 5 || r[rn - 1] != ']')
        return 0;
    size_t d = rn - 1;                      /* the index digits: [d, rn-1) */
    while (d > 0 && is_digit((unsigned char)r[d - 1]))
        d--;
    if (d == rn - 1 || d == 0 || r[d - 1] != ':')
        return 0;
    size_t colon = d - 1, tok_end = token_end(r, 0, rn), bracket = 0;
    for (size_t i = colon; i-- > 0;) {
        if (r[i] == ':')
            break;                          /* the role holds no colon */
        if (r[i] == '[' && i >= 1 && i + 1 < colon && i <= tok_end) {
            bracket = i;
            break;
        }
    }
    if (bracket == 0)
        return 0;
    if (!text_ok(line, len))
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: not UTF-8 text",
                            name, lineno);

    /* re.findall('[^-_]+', uuid)[0:2]: "snx11035", "OST0000" */
    const char *u = t[0].p, *end = t[0].p + t[0].n;
    const char *fs = u;
    size_t fs_n = snx_n;                    /* "snx" digits, then "-" */
    const char *tg = fs + fs_n;
    while (tg < end && (*tg == '-' || *tg == '_'))
        tg++;
    size_t tg_n = 0;
    while (tg + tg_n < end && tg[tg_n] != '-' && tg[tg_n] != '_')
        tg_n++;
    if (tg_n == 0)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: no target name "
                            "in '%.*s'", name, lineno, (int)t[0].n, t[0].p);

    fits[3] = parse_digits(r + d, rn - 1 - d, &nums[3]);
    if (fits[0] < 0 || fits[1] < 0 || fits[2] < 0 || fits[3] < 0)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: number too large",
                            name, lineno);

    const char *strs[2] = { r, r + bracket + 1 };
    size_t lens[2] = { bracket, colon - bracket - 1 };
    if (df_put(df, fs, fs_n, tg, tg_n, strs, lens, 1, nums) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
    return 1;
}

/* ---- `lctl dl -t` ---- */

/*
 * The reference's expression:
 *   ^\s*(\d+)\s+(\S+)\s+(\S+)\s+(snx\d+-\S+)\s+(\S+)\s+(\d+)\s+(\S+@\S+)\s*$
 * is exactly seven tokens; the last holds an "@" with a byte either side.
 * mgc, lov and lmv lines have no NID or no snx name and are skipped.
 */
int
tokio__lfs_dl_add_line(struct tokio_lfs_dl *dl, const char *line, size_t len,
                       const char *name, size_t lineno)
{
    struct tok t[7];
    const char *r;
    size_t rn;

    if (tokenize(line, len, t, 7, &r, &rn) != 7 || rn != 0)
        return 0;
    int64_t nums[2] = { 0, 0 };
    int fits[2];
    size_t fs_n;
    if ((fits[0] = parse_digits(t[0].p, t[0].n, &nums[0])) == 0 ||
        (fs_n = is_snx_name(t[3].p, t[3].n)) == 0 ||
        (fits[1] = parse_digits(t[5].p, t[5].n, &nums[1])) == 0 ||
        t[6].n < 3 || memchr(t[6].p + 1, '@', t[6].n - 2) == NULL)
        return 0;
    if (!text_ok(line, len))
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: not UTF-8 text",
                            name, lineno);

    if (fits[0] < 0 || fits[1] < 0)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: number too large",
                            name, lineno);

    /* role_id.split('-')[0:2]: "snx11025", "OST0007" */
    const char *id = t[3].p, *end = t[3].p + t[3].n;
    const char *tg = id + fs_n + 1;
    const char *dash = memchr(tg, '-', (size_t)(end - tg));
    size_t tg_n = (size_t)((dash ? dash : end) - tg);
    size_t ip_n = (size_t)((const char *)memchr(t[6].p, '@', t[6].n) - t[6].p);

    /* Tokens 1-6 in one copy, each NUL-ended in place of the blank after
     * it; status and role in lower case, as the reference stores them;
     * the target IP (the NID's part before "@") on its own after them. */
    size_t span = (size_t)(t[6].p + t[6].n - t[1].p);
    char *a = arena_alloc(&dl->s, span + ip_n + 2);
    if (a == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
    memcpy(a, t[1].p, span);
    const char *strs[6];
    for (int k = 1; k <= 6; k++)
        a[t[k].p - t[1].p + t[k].n] = '\0';
    for (int k = 1; k <= 2; k++)
        put_str(a + (t[k].p - t[1].p), t[k].p, t[k].n, 1);
    strs[0] = a;
    strs[1] = a + (t[2].p - t[1].p);
    strs[2] = a + (t[3].p - t[1].p);
    strs[3] = a + (t[4].p - t[1].p);
    strs[4] = a + span + 1;
    strs[5] = a + (t[6].p - t[1].p);
    put_str(a + span + 1, t[6].p, ip_n, 0);
    if (dl_set(dl, id, fs_n, tg, tg_n, strs, nums) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
    return 1;
}

/* ---- building, reading ---- */

struct tokio_lfs_df *
tokio__lfs_df_new(void)
{
    struct tokio_lfs_df *df = tokio__calloc(1, sizeof(*df));

    if (df != NULL)
        df->s.rec_size = sizeof(*df->pub);
    return df;
}

struct tokio_lfs_dl *
tokio__lfs_dl_new(void)
{
    struct tokio_lfs_dl *dl = tokio__calloc(1, sizeof(*dl));

    if (dl != NULL)
        dl->s.rec_size = sizeof(*dl->pub);
    return dl;
}

/* A history's snapshots are alike: sizing a new one's first allocations
 * as the one before spares it most regrowing. */
static void
snap_size_like(struct snap *s, const struct snap *like)
{
    s->hint_n = like->n;
    s->hint_pool = like->arena_used;
}

void
tokio__lfs_df_size_like(struct tokio_lfs_df *df,
                        const struct tokio_lfs_df *like)
{
    snap_size_like(&df->s, &like->s);
}

void
tokio__lfs_dl_size_like(struct tokio_lfs_dl *dl,
                        const struct tokio_lfs_dl *like)
{
    snap_size_like(&dl->s, &like->s);
}

int
tokio__lfs_df_finish(struct tokio_lfs_df *df)
{
    if (snap_finish(&df->s) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    df->pub = df->s.recs;
    return TOKIO_OK;
}

int
tokio__lfs_dl_finish(struct tokio_lfs_dl *dl)
{
    if (snap_finish(&dl->s) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    dl->pub = dl->s.recs;
    return TOKIO_OK;
}

typedef int (*add_line_fn)(void *snap, const char *line, size_t len,
                           const char *name, size_t lineno);

static int
df_add(void *snap, const char *line, size_t len, const char *name, size_t n)
{
    return tokio__lfs_df_add_line(snap, line, len, name, n);
}

static int
dl_add(void *snap, const char *line, size_t len, const char *name, size_t n)
{
    return tokio__lfs_dl_add_line(snap, line, len, name, n);
}

static int
read_lines(struct tokio_input *in, void *snap, add_line_fn add)
{
    const char *line;
    size_t len;
    int rc;

    while ((rc = tokio_input_getline(in, &line, &len)) == TOKIO_OK &&
           line != NULL) {
        if ((rc = add(snap, line, len, tokio_input_name(in),
                      tokio_input_lineno(in))) < 0)
            return rc;
    }
    return rc;
}

/* Read an opened input into a new snapshot; closes the input. */
static int
read_df(struct tokio_input *in, struct tokio_lfs_df **out)
{
    struct tokio_lfs_df *df = tokio__lfs_df_new();
    int rc;

    if (df == NULL)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                          tokio_input_name(in));
    else if ((rc = read_lines(in, df, df_add)) >= 0)
        rc = tokio__lfs_df_finish(df);
    if (rc < 0) {
        tokio_lfs_df_free(df);
        df = NULL;
    }
    tokio_input_close(in);
    *out = df;
    return rc;
}

int
tokio_lfs_df_open(struct tokio_lfs_df **out, const char *path)
{
    struct tokio_input *in = NULL;
    int rc;

    *out = NULL;
    if ((rc = tokio_input_open(&in, path)) < 0)
        return rc;
    return read_df(in, out);
}

int
tokio_lfs_df_open_mem(struct tokio_lfs_df **out, const void *buf, size_t len,
                      const char *name)
{
    struct tokio_input *in = NULL;
    int rc;

    *out = NULL;
    if ((rc = tokio_input_open_mem(&in, buf, len, name)) < 0)
        return rc;
    return read_df(in, out);
}

size_t
tokio_lfs_df_count(const struct tokio_lfs_df *df)
{
    return df->s.n;
}

const struct tokio_lfs_df_target *
tokio_lfs_df_target(const struct tokio_lfs_df *df, size_t i)
{
    return i < df->s.n ? &df->pub[i] : NULL;
}

/* Read an opened input into a new device list; closes the input. */
static int
read_dl(struct tokio_input *in, struct tokio_lfs_dl **out)
{
    struct tokio_lfs_dl *dl = tokio__lfs_dl_new();
    int rc;

    if (dl == NULL)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                          tokio_input_name(in));
    else if ((rc = read_lines(in, dl, dl_add)) >= 0)
        rc = tokio__lfs_dl_finish(dl);
    if (rc < 0) {
        tokio_lfs_dl_free(dl);
        dl = NULL;
    }
    tokio_input_close(in);
    *out = dl;
    return rc;
}

int
tokio_lfs_dl_open(struct tokio_lfs_dl **out, const char *path)
{
    struct tokio_input *in = NULL;
    int rc;

    *out = NULL;
    if ((rc = tokio_input_open(&in, path)) < 0)
        return rc;
    return read_dl(in, out);
}

int
tokio_lfs_dl_open_mem(struct tokio_lfs_dl **out, const void *buf, size_t len,
                      const char *name)
{
    struct tokio_input *in = NULL;
    int rc;

    *out = NULL;
    if ((rc = tokio_input_open_mem(&in, buf, len, name)) < 0)
        return rc;
    return read_dl(in, out);
}

size_t
tokio_lfs_dl_count(const struct tokio_lfs_dl *dl)
{
    return dl->s.n;
}

const struct tokio_lfs_dl_target *
tokio_lfs_dl_target(const struct tokio_lfs_dl *dl, size_t i)
{
    return i < dl->s.n ? &dl->pub[i] : NULL;
}

/* The object of file system `fs` inside `root`, created when absent. */
static json_t *
fs_object(json_t *root, const char *fs)
{
    json_t *o = json_object_get(root, fs);

    if (o == NULL && (json_object_set_new(root, fs, o = json_object()) < 0))
        return NULL;
    return o;
}

int
tokio_lfs_df_to_json(const struct tokio_lfs_df *df, json_t **out)
{
    json_t *root = json_object();

    *out = NULL;
    if (root == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    for (size_t i = 0; i < df->s.n; i++) {
        const struct tokio_lfs_df_target *t = &df->pub[i];
        json_t *fs = fs_object(root, t->fs);
        if (fs == NULL || json_object_set_new(fs, t->target, json_pack(
                "{s:I, s:I, s:I, s:s, s:s, s:I}",
                "total_kib", (json_int_t)t->total_kib,
                "used_kib", (json_int_t)t->used_kib,
                "remaining_kib", (json_int_t)t->remaining_kib,
                "mount_pt", t->mount_pt, "role", t->role,
                "target_index", (json_int_t)t->target_index)) < 0) {
            json_decref(root);
            return tokio__error(TOKIO_ENOMEM, "out of memory");
        }
    }
    *out = root;
    return TOKIO_OK;
}

int
tokio_lfs_dl_to_json(const struct tokio_lfs_dl *dl, json_t **out)
{
    json_t *root = json_object();

    *out = NULL;
    if (root == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    for (size_t i = 0; i < dl->s.n; i++) {
        const struct tokio_lfs_dl_target *t = &dl->pub[i];
        json_t *fs = fs_object(root, t->fs);
        if (fs == NULL || json_object_set_new(fs, t->target, json_pack(
                "{s:I, s:s, s:s, s:s, s:s, s:I, s:s, s:s}",
                "index", (json_int_t)t->index, "status", t->status,
                "role", t->role, "role_id", t->role_id, "uuid", t->uuid,
                "ref_count", (json_int_t)t->ref_count,
                "target_ip", t->target_ip, "nid", t->nid)) < 0) {
            json_decref(root);
            return tokio__error(TOKIO_ENOMEM, "out of memory");
        }
    }
    *out = root;
    return TOKIO_OK;
}

/* Field `key` of target `fs`/`tg`: a string, or an integer >= 0. */
static int
get_str(const json_t *o, const char *fs, const char *tg, const char *key,
        const char **out)
{
    const json_t *v = json_object_get(o, key);

    if (!json_is_string(v))
        return tokio__error(TOKIO_EFORMAT, "JSON %s/%s: \"%s\" is not a "
                            "string", fs, tg, key);
    *out = json_string_value(v);
    return TOKIO_OK;
}

static int
get_int(const json_t *o, const char *fs, const char *tg, const char *key,
        int64_t *out)
{
    const json_t *v = json_object_get(o, key);

    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return tokio__error(TOKIO_EFORMAT, "JSON %s/%s: \"%s\" is not a "
                            "whole number >= 0", fs, tg, key);
    *out = json_integer_value(v);
    return TOKIO_OK;
}

/* Walk {fs: {target: {...}}}, handing each target object to `one` with
 * the snapshot `snap`. */
static int
from_json_walk(const json_t *json, void *snap,
               int (*one)(void *snap, const char *fs, const char *tg,
                          const json_t *o))
{
    const char *fs, *tg;
    const json_t *fsv, *o;
    int rc;

    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "JSON: not an object of file "
                            "systems");
    json_object_foreach((json_t *)json, fs, fsv) {
        if (!json_is_object(fsv))
            return tokio__error(TOKIO_EFORMAT, "JSON %s: not an object of "
                                "targets", fs);
        json_object_foreach((json_t *)fsv, tg, o) {
            if (!json_is_object(o))
                return tokio__error(TOKIO_EFORMAT, "JSON %s/%s: not an "
                                    "object", fs, tg);
            if ((rc = one(snap, fs, tg, o)) < 0)
                return rc;
        }
    }
    return TOKIO_OK;
}

static int
df_from_one(void *df, const char *fs, const char *tg, const json_t *o)
{
    const char *strs[2] = { NULL, NULL };
    size_t lens[2];
    int64_t nums[4] = { 0, 0, 0, 0 };
    int rc;

    if ((rc = get_int(o, fs, tg, "total_kib", &nums[0])) < 0 ||
        (rc = get_int(o, fs, tg, "used_kib", &nums[1])) < 0 ||
        (rc = get_int(o, fs, tg, "remaining_kib", &nums[2])) < 0 ||
        (rc = get_int(o, fs, tg, "target_index", &nums[3])) < 0 ||
        (rc = get_str(o, fs, tg, "mount_pt", &strs[0])) < 0 ||
        (rc = get_str(o, fs, tg, "role", &strs[1])) < 0)
        return rc;
    for (int i = 0; i < 2; i++)
        lens[i] = strlen(strs[i]);
    if (df_put(df, fs, strlen(fs), tg, strlen(tg), strs, lens, 0, nums) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    return TOKIO_OK;
}

static int
dl_from_one(void *dl, const char *fs, const char *tg, const json_t *o)
{
    const char *strs[6] = { NULL, NULL, NULL, NULL, NULL, NULL };
    size_t lens[6];
    int64_t nums[2] = { 0, 0 };
    int rc;

    if ((rc = get_int(o, fs, tg, "index", &nums[0])) < 0 ||
        (rc = get_int(o, fs, tg, "ref_count", &nums[1])) < 0 ||
        (rc = get_str(o, fs, tg, "status", &strs[0])) < 0 ||
        (rc = get_str(o, fs, tg, "role", &strs[1])) < 0 ||
        (rc = get_str(o, fs, tg, "role_id", &strs[2])) < 0 ||
        (rc = get_str(o, fs, tg, "uuid", &strs[3])) < 0 ||
        (rc = get_str(o, fs, tg, "target_ip", &strs[4])) < 0 ||
        (rc = get_str(o, fs, tg, "nid", &strs[5])) < 0)
        return rc;
    for (int i = 0; i < 6; i++)
        lens[i] = strlen(strs[i]);
    if (dl_put(dl, fs, strlen(fs), tg, strlen(tg), strs, lens, nums) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    return TOKIO_OK;
}

int
tokio_lfs_df_from_json(struct tokio_lfs_df **out, const json_t *json)
{
    struct tokio_lfs_df *df = tokio__lfs_df_new();
    int rc;

    *out = NULL;
    if (df == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    if ((rc = from_json_walk(json, df, df_from_one)) < 0 ||
        (rc = tokio__lfs_df_finish(df)) < 0) {
        tokio_lfs_df_free(df);
        return rc;
    }
    *out = df;
    return TOKIO_OK;
}

int
tokio_lfs_dl_from_json(struct tokio_lfs_dl **out, const json_t *json)
{
    struct tokio_lfs_dl *dl = tokio__lfs_dl_new();
    int rc;

    *out = NULL;
    if (dl == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    if ((rc = from_json_walk(json, dl, dl_from_one)) < 0 ||
        (rc = tokio__lfs_dl_finish(dl)) < 0) {
        tokio_lfs_dl_free(dl);
        return rc;
    }
    *out = dl;
    return TOKIO_OK;
}

/* ---- save_cache ---- */

/* The reference's __repr__ order: file systems by name, then targets by
 * index, ties in dict order (Python's sort is stable). */
struct order_ctx {
    const char *fs;
    int64_t key;
    size_t pos;
};

static int
cmp_order(const void *a, const void *b)
{
    const struct order_ctx *x = a, *y = b;
    int c = strcmp(x->fs, y->fs);

    if (c != 0)
        return c;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int
write_order(size_t n, const char *(*fs_of)(const void *, size_t),
            int64_t (*key_of)(const void *, size_t), const void *h,
            struct order_ctx **out)
{
    struct order_ctx *o = NULL;

    *out = NULL;
    if (n == 0)
        return TOKIO_OK;
    if ((o = tokio__calloc(n, sizeof(*o))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        o[i].fs = fs_of(h, i);
        o[i].key = key_of(h, i);
        o[i].pos = i;
    }
    qsort(o, n, sizeof(*o), cmp_order);
    *out = o;
    return TOKIO_OK;
}

static const char *
df_fs(const void *h, size_t i)
{
    return ((const struct tokio_lfs_df *)h)->pub[i].fs;
}

static int64_t
df_key(const void *h, size_t i)
{
    return ((const struct tokio_lfs_df *)h)->pub[i].target_index;
}

static const char *
dl_fs(const void *h, size_t i)
{
    return ((const struct tokio_lfs_dl *)h)->pub[i].fs;
}

static int64_t
dl_key(const void *h, size_t i)
{
    return ((const struct tokio_lfs_dl *)h)->pub[i].index;
}

int
tokio_lfs_df_write(const struct tokio_lfs_df *df, FILE *fp)
{
    struct order_ctx *o;
    int rc = write_order(df->s.n, df_fs, df_key, df, &o);

    if (rc < 0)
        return rc;
    for (size_t i = 0; i < df->s.n; i++) {
        const struct tokio_lfs_df_target *t = &df->pub[o[i].pos];
        /* lfs df's percentage is of used + available, not of the total;
         * Python's round() halves to even, as rint() does by default */
        double sum = (double)((uint64_t)t->used_kib +
                              (uint64_t)t->remaining_kib);
        long long pct = sum > 0 ? (long long)rint(100.0 *
                                                  (double)t->used_kib / sum)
                                : 0;
        fprintf(fp, "%s-%s_UUID %" PRId64 " %" PRId64 " %" PRId64
                " %3lld%% %s[", t->fs, t->target, t->total_kib, t->used_kib,
                t->remaining_kib, pct, t->mount_pt);
        for (const char *c = t->role; *c; c++)
            fputc(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c, fp);
        fprintf(fp, ":%" PRId64 "]\n", t->target_index);
    }
    free(o);
    return tokio__write_check(fp, "cannot write lfs df text");
}

int
tokio_lfs_dl_write(const struct tokio_lfs_dl *dl, FILE *fp)
{
    struct order_ctx *o;
    int rc = write_order(dl->s.n, dl_fs, dl_key, dl, &o);

    if (rc < 0)
        return rc;
    for (size_t i = 0; i < dl->s.n; i++) {
        const struct tokio_lfs_dl_target *t = &dl->pub[o[i].pos];
        fprintf(fp, "%3" PRId64 " %2s %3s %s %s %" PRId64 " %s\n", t->index,
                t->status, t->role, t->role_id, t->uuid, t->ref_count,
                t->nid);
    }
    free(o);
    return tokio__write_check(fp, "cannot write lctl dl text");
}

/* ---- get_failovers ---- */

/* Failovers of the targets [lo, hi) of one file system (dict order). */
static json_t *
fs_failovers(const struct tokio_lfs_dl *dl, size_t lo, size_t hi)
{
    /* OSS addresses in order of first appearance, with OST counts: the
     * mode's ties go to the count seen first, as max() over the
     * reference's dicts does */
    const char **ips = tokio__calloc(hi - lo + 1, sizeof(*ips));
    size_t *counts = tokio__calloc(hi - lo + 1, sizeof(*counts));
    size_t n_ips = 0, mode = 0, mode_freq = 0;
    json_t *res = NULL, *abnormal = NULL;

    if (ips == NULL || counts == NULL)
        goto done;
    for (size_t i = lo; i < hi; i++) {
        const struct tokio_lfs_dl_target *t = &dl->pub[i];
        size_t k = 0;
        if (strcmp(t->role, "osc") != 0)
            continue;                       /* not mdc, mgc */
        while (k < n_ips && strcmp(ips[k], t->target_ip) != 0)
            k++;
        if (k == n_ips)
            ips[n_ips++] = t->target_ip;
        counts[k]++;
    }
    for (size_t k = 0; k < n_ips; k++) {
        size_t freq = 0;
        int seen = 0;
        for (size_t j = 0; j < n_ips; j++) {
            freq += counts[j] == counts[k];
            seen |= j < k && counts[j] == counts[k];
        }
        if (!seen && freq > mode_freq) {
            mode = counts[k];
            mode_freq = freq;
        }
    }
    if ((abnormal = json_object()) == NULL)
        goto done;
    for (size_t i = lo; i < hi; i++) {
        const struct tokio_lfs_dl_target *t = &dl->pub[i];
        size_t k = 0;
        if (strcmp(t->role, "osc") != 0)
            continue;
        while (strcmp(ips[k], t->target_ip) != 0)
            k++;
        if (counts[k] == mode)
            continue;
        json_t *list = json_object_get(abnormal, t->target_ip);
        if (list == NULL &&
            json_object_set_new(abnormal, t->target_ip,
                                list = json_array()) < 0)
            goto done;
        if (json_array_append_new(list, json_string(t->target)) < 0)
            goto done;
    }
    res = json_pack("{s:I, s:O}", "mode", (json_int_t)mode,
                    "abnormal_ips", abnormal);
done:
    json_decref(abnormal);
    free(ips);
    free(counts);
    return res;
}

int
tokio_lfs_dl_failovers(const struct tokio_lfs_dl *dl, json_t **out)
{
    json_t *root = json_object();

    *out = NULL;
    if (root == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    for (size_t lo = 0, hi; lo < dl->s.n; lo = hi) {
        for (hi = lo + 1; hi < dl->s.n; hi++)
            if (strcmp(dl->pub[hi].fs, dl->pub[lo].fs) != 0)
                break;
        if (json_object_set_new(root, dl->pub[lo].fs,
                                fs_failovers(dl, lo, hi)) < 0) {
            json_decref(root);
            return tokio__error(TOKIO_ENOMEM, "out of memory");
        }
    }
    *out = root;
    return TOKIO_OK;
}

void
tokio_lfs_df_free(struct tokio_lfs_df *df)
{
    if (df == NULL)
        return;
    snap_release(&df->s);
    free(df);
}

void
tokio_lfs_dl_free(struct tokio_lfs_dl *dl)
{
    if (dl == NULL)
        return;
    snap_release(&dl->s);
    free(dl);
}
