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

/* A record keeps its strings as offsets into the snapshot's pool while the
 * pool may still move; _finish() turns them into pointers.  Field slots,
 * `lfs df`: str fs, target, mount_pt, role; num total, used, remaining,
 * target_index.  `lctl dl -t`: str fs, target, status, role, role_id,
 * uuid, target_ip, nid; num index, ref_count. */
#define N_STR 8
#define N_NUM 4

struct rec {
    size_t str[N_STR];
    int64_t num[N_NUM];
    size_t fs_rank;             /* order of the file system's first line */
    size_t pos;                 /* order of the target's first line */
    uint64_t hash;              /* of (fs, target): see hash_key() */
};

struct snap {
    char *pool;
    size_t pool_len, pool_cap;
    struct rec *recs;
    size_t n, cap;
    size_t *hash;               /* record index + 1, 0 = empty */
    size_t hash_cap;            /* power of two, > 2n */
    size_t *fs_off;             /* pool offsets of distinct fs names */
    size_t n_fs, fs_cap;
    size_t hint_n, hint_pool;   /* first sizes: see tokio__lfs_df_size_like */
};

struct tokio_lfs_df {
    struct snap s;
    struct tokio_lfs_df_target *pub;
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
    size_t fast = n < 18 ? n : 18;      /* 18 digits always fit */
    int64_t v = 0;
    int big = 0;

    if (n == 0)
        return 0;
    for (size_t i = 0; i < fast; i++) {
        unsigned d = (unsigned char)s[i] - (unsigned)'0';
        if (d > 9)
            return 0;
        v = v * 10 + (int64_t)d;
    }
    for (size_t i = fast; i < n; i++) {
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

/* ---- the snapshot: a pool of strings, records, a (fs, target) index ---- */

static void
snap_release(struct snap *s)
{
    free(s->pool);
    free(s->recs);
    free(s->hash);
    free(s->fs_off);
}

/* Copy `n` bytes into the pool, NUL-ended; offset in *off. */
static int
pool_add(struct snap *s, const char *str, size_t n, size_t *off)
{
    if (s->pool_cap - s->pool_len < n + 1) {
        size_t cap = s->pool_cap ? s->pool_cap
                                 : s->hint_pool > 4096 ? s->hint_pool : 4096;
        while (cap - s->pool_len < n + 1) {
            if (cap > SIZE_MAX / 2)
                return TOKIO_ENOMEM;
            cap *= 2;
        }
        char *p = tokio__realloc(s->pool, cap);
        if (p == NULL)
            return TOKIO_ENOMEM;
        s->pool = p;
        s->pool_cap = cap;
    }
    memcpy(s->pool + s->pool_len, str, n);
    s->pool[s->pool_len + n] = '\0';
    *off = s->pool_len;
    s->pool_len += n + 1;
    return TOKIO_OK;
}

/* Eight bytes at a time, the last word padded with 0xff (no UTF-8 byte);
 * its length mixed in, so that "ab" and "ab\xff" differ. */
static uint64_t
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
    return h ^ (h >> 29);
}

/* The hash of (fs, target); the table takes its low bits, which the
 * final multiply and shift leave depending on every byte. */
static uint64_t
hash_key(const char *fs, size_t fs_n, const char *t, size_t t_n)
{
    uint64_t h = hash_bytes(0x243f6a8885a308d3u, fs, fs_n);

    h = hash_bytes(h, t, t_n);
    h = (h ^ (h >> 32)) * 0xbf58476d1ce4e5b9u;
    return h ^ (h >> 31);
}

static int
str_is(const struct snap *s, size_t off, const char *str, size_t n)
{
    return strncmp(s->pool + off, str, n) == 0 && s->pool[off + n] == '\0';
}

/* The slot of (fs, target), whose hash_key() is `h`, in the hash: holding
 * its record, or empty.  Records keep their hash, so that most probes
 * that miss compare no strings. */
static size_t
hash_slot(const struct snap *s, uint64_t h, const char *fs, size_t fs_n,
          const char *t, size_t t_n)
{
    size_t mask = s->hash_cap - 1;
    size_t i = h & mask;

    while (s->hash[i] != 0) {
        const struct rec *r = &s->recs[s->hash[i] - 1];
        if (r->hash == h && str_is(s, r->str[0], fs, fs_n) &&
            str_is(s, r->str[1], t, t_n))
            break;
        i = (i + 1) & mask;
    }
    return i;
}

static int
hash_grow(struct snap *s)
{
    size_t cap = s->hash_cap ? s->hash_cap * 2 : 64;

    while (s->hash_cap == 0 && cap <= 2 * (s->hint_n + 1))
        cap *= 2;
    size_t *hash = tokio__calloc(cap, sizeof(*hash));

    if (hash == NULL)
        return TOKIO_ENOMEM;
    /* Every record is in the table: walk them in order, not the old
     * table (that would visit the records at random); keys are distinct,
     * so the first empty slot is the place. */
    for (size_t i = 0; i < s->n; i++) {
        size_t j = s->recs[i].hash & (cap - 1);
        while (hash[j] != 0)
            j = (j + 1) & (cap - 1);
        hash[j] = i + 1;
    }
    free(s->hash);
    s->hash = hash;
    s->hash_cap = cap;
    return TOKIO_OK;
}

/* Add or replace the record of (strs[0], strs[1]): a repeated target (a
 * file system mounted twice) keeps its first place and takes the later
 * values, as a Python dict assignment does.  A file system's name is kept
 * once, however many targets it has. */
static int
snap_put(struct snap *s, const char *const *strs, const size_t *lens,
         size_t n_str, const int64_t *nums, size_t n_num)
{
    struct rec r;
    struct rec *old = NULL;
    size_t slot, first = 0;
    int rc;

    if (s->hash_cap <= 2 * (s->n + 1) && (rc = hash_grow(s)) < 0)
        return rc;
    for (size_t i = n_str; i < N_STR; i++)
        r.str[i] = 0;
    for (size_t i = n_num; i < N_NUM; i++)
        r.num[i] = 0;
    r.hash = hash_key(strs[0], lens[0], strs[1], lens[1]);
    slot = hash_slot(s, r.hash, strs[0], lens[0], strs[1], lens[1]);
    if (s->hash[slot] != 0) {
        old = &s->recs[s->hash[slot] - 1];
        r.str[0] = old->str[0];
        r.str[1] = old->str[1];
        r.fs_rank = old->fs_rank;
        r.pos = old->pos;
        first = 2;
    } else {
        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2
                                : s->hint_n > 64 ? s->hint_n : 64;
            struct rec *p = tokio__reallocarray(s->recs, cap, sizeof(*p));
            if (p == NULL)
                return TOKIO_ENOMEM;
            s->recs = p;
            s->cap = cap;
        }
        if (s->n_fs == s->fs_cap) {
            size_t cap = s->fs_cap ? s->fs_cap * 2 : 8;
            size_t *p = tokio__reallocarray(s->fs_off, cap, sizeof(*p));
            if (p == NULL)
                return TOKIO_ENOMEM;
            s->fs_off = p;
            s->fs_cap = cap;
        }
        /* most lines are of the file system of the line before */
        r.fs_rank = s->n > 0 ? s->recs[s->n - 1].fs_rank : 0;
        if (r.fs_rank >= s->n_fs ||
            !str_is(s, s->fs_off[r.fs_rank], strs[0], lens[0]))
            for (r.fs_rank = 0; r.fs_rank < s->n_fs; r.fs_rank++)
                if (str_is(s, s->fs_off[r.fs_rank], strs[0], lens[0]))
                    break;
        if (r.fs_rank < s->n_fs) {
            r.str[0] = s->fs_off[r.fs_rank];
            first = 1;
        }
        r.pos = s->n;
    }
    for (size_t i = first; i < n_str; i++)
        if ((rc = pool_add(s, strs[i], lens[i], &r.str[i])) < 0)
            return rc;
    for (size_t i = 0; i < n_num; i++)
        r.num[i] = nums[i];
    if (old != NULL) {
        *old = r;
        return TOKIO_OK;
    }
    if (r.fs_rank == s->n_fs)
        s->fs_off[s->n_fs++] = r.str[0];
    s->recs[s->n++] = r;
    s->hash[slot] = s->n;
    return TOKIO_OK;
}

static int
cmp_rec(const void *a, const void *b)
{
    const struct rec *x = a, *y = b;

    if (x->fs_rank != y->fs_rank)
        return x->fs_rank < y->fs_rank ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Group by file system; the hash is stale afterwards and is dropped, as
 * nothing is added once a snapshot is finished. */
static void
snap_order(struct snap *s)
{
    size_t i = 1;

    /* the usual file lists one file system after another: already in
     * order, which one pass shows more cheaply than qsort() finds out */
    while (i < s->n && cmp_rec(&s->recs[i - 1], &s->recs[i]) < 0)
        i++;
    if (i < s->n)
        qsort(s->recs, s->n, sizeof(*s->recs), cmp_rec);
    free(s->hash);
    s->hash = NULL;
    s->hash_cap = 0;
}

/* Once the public array is built the records are not needed any more:
 * dropping them halves what a history of snapshots holds. */
static void
snap_drop_recs(struct snap *s)
{
    free(s->recs);
    s->recs = NULL;
    s->cap = 0;
}

/* ---- tokens ---- */

struct tok {
    const char *p;
    size_t n;
    size_t gap;                 /* blanks after it */
};

/* The end of the token at line[i]: the first blank from i on, or len.
 * Tokens are most of a line, so eight bytes at a time while none of them
 * is below 0x21 (every blank is; (w - 0x21..) & ~w has the high bit of
 * such a byte set, and of no byte >= 0x80); bytes one by one after. */
static size_t
token_end(const char *line, size_t i, size_t len)
{
    const uint64_t low = 0x2121212121212121u, high = 0x8080808080808080u;

    while (len - i >= 8) {
        uint64_t w;
        memcpy(&w, line + i, 8);
        if (((w - low) & ~w & high) != 0)
            break;
        i += 8;
    }
    while (i < len && !is_space((unsigned char)line[i]))
        i++;
    return i;
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
    int64_t nums[4];
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
    size_t colon = d - 1, tok_end = 0, bracket = 0;
    while (tok_end < rn && !is_space((unsigned char)r[tok_end]))
        tok_end++;
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
    if (!tokio__text_valid((const unsigned char *)line, len))
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

    char role[64];
    size_t role_n = colon - bracket - 1;
    char *role_heap = NULL;
    char *rp = role;
    if (role_n >= sizeof(role) &&
        (rp = role_heap = tokio__malloc(role_n + 1)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
    for (size_t i = 0; i < role_n; i++) {
        char c = r[bracket + 1 + i];
        rp[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    const char *strs[4] = { fs, tg, r, rp };
    size_t lens[4] = { fs_n, tg_n, bracket, role_n };
    int rc = snap_put(&df->s, strs, lens, 4, nums, 4);
    free(role_heap);
    if (rc < 0)
        return tokio__error(rc, "out of memory reading '%s'", name);
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
    int64_t nums[2];
    int fits[2];
    if ((fits[0] = parse_digits(t[0].p, t[0].n, &nums[0])) == 0 ||
        !is_snx_name(t[3].p, t[3].n) ||
        (fits[1] = parse_digits(t[5].p, t[5].n, &nums[1])) == 0 ||
        t[6].n < 3 || memchr(t[6].p + 1, '@', t[6].n - 2) == NULL)
        return 0;
    if (!tokio__text_valid((const unsigned char *)line, len))
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: not UTF-8 text",
                            name, lineno);

    if (fits[0] < 0 || fits[1] < 0)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: number too large",
                            name, lineno);

    /* role_id.split('-')[0:2]: "snx11025", "OST0007" */
    const char *id = t[3].p, *end = t[3].p + t[3].n;
    size_t fs_n = (size_t)((const char *)memchr(id, '-', t[3].n) - id);
    const char *tg = id + fs_n + 1;
    const char *dash = memchr(tg, '-', (size_t)(end - tg));
    size_t tg_n = (size_t)((dash ? dash : end) - tg);
    size_t ip_n = (size_t)((const char *)memchr(t[6].p, '@', t[6].n) - t[6].p);

    /* status and role in lower case, as the reference stores them */
    char low[2][64];
    char *heap[2] = { NULL, NULL };
    char *lp[2];
    for (int k = 0; k < 2; k++) {
        const struct tok *src = &t[1 + k];
        lp[k] = low[k];
        if (src->n >= sizeof(low[k]) &&
            (lp[k] = heap[k] = tokio__malloc(src->n + 1)) == NULL) {
            free(heap[0]);
            return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                                name);
        }
        for (size_t i = 0; i < src->n; i++) {
            char c = src->p[i];
            lp[k][i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
        }
    }
    const char *strs[8] = { id, tg, lp[0], lp[1], t[3].p, t[4].p, t[6].p,
                            t[6].p };
    size_t lens[8] = { fs_n, tg_n, t[1].n, t[2].n, t[3].n, t[4].n, ip_n,
                       t[6].n };
    int rc = snap_put(&dl->s, strs, lens, 8, nums, 2);
    free(heap[0]);
    free(heap[1]);
    if (rc < 0)
        return tokio__error(rc, "out of memory reading '%s'", name);
    return 1;
}

/* ---- building, reading ---- */

struct tokio_lfs_df *
tokio__lfs_df_new(void)
{
    return tokio__calloc(1, sizeof(struct tokio_lfs_df));
}

struct tokio_lfs_dl *
tokio__lfs_dl_new(void)
{
    return tokio__calloc(1, sizeof(struct tokio_lfs_dl));
}

/* A history's snapshots are alike: sizing a new one's first allocations
 * as the one before spares it most regrowing. */
static void
snap_size_like(struct snap *s, const struct snap *like)
{
    s->hint_n = like->n;
    s->hint_pool = like->pool_len;
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
    const struct snap *s = &df->s;

    snap_order(&df->s);
    free(df->pub);
    df->pub = NULL;
    if (s->n == 0)
        return TOKIO_OK;
    if ((df->pub = tokio__reallocarray(NULL, s->n, sizeof(*df->pub))) ==
        NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    for (size_t i = 0; i < s->n; i++) {
        const struct rec *r = &s->recs[i];
        struct tokio_lfs_df_target *p = &df->pub[i];
        p->fs = s->pool + r->str[0];
        p->target = s->pool + r->str[1];
        p->mount_pt = s->pool + r->str[2];
        p->role = s->pool + r->str[3];
        p->total_kib = r->num[0];
        p->used_kib = r->num[1];
        p->remaining_kib = r->num[2];
        p->target_index = r->num[3];
    }
    snap_drop_recs(&df->s);
    return TOKIO_OK;
}

int
tokio__lfs_dl_finish(struct tokio_lfs_dl *dl)
{
    const struct snap *s = &dl->s;

    snap_order(&dl->s);
    free(dl->pub);
    dl->pub = NULL;
    if (s->n == 0)
        return TOKIO_OK;
    if ((dl->pub = tokio__reallocarray(NULL, s->n, sizeof(*dl->pub))) ==
        NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    for (size_t i = 0; i < s->n; i++) {
        const struct rec *r = &s->recs[i];
        struct tokio_lfs_dl_target *p = &dl->pub[i];
        p->fs = s->pool + r->str[0];
        p->target = s->pool + r->str[1];
        p->status = s->pool + r->str[2];
        p->role = s->pool + r->str[3];
        p->role_id = s->pool + r->str[4];
        p->uuid = s->pool + r->str[5];
        p->target_ip = s->pool + r->str[6];
        p->nid = s->pool + r->str[7];
        p->index = r->num[0];
        p->ref_count = r->num[1];
    }
    snap_drop_recs(&dl->s);
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

/* Walk {fs: {target: {...}}}, handing each target object to `one`. */
static int
from_json_walk(const json_t *json, struct snap *s,
               int (*one)(struct snap *s, const char *fs, const char *tg,
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
            if ((rc = one(s, fs, tg, o)) < 0)
                return rc;
        }
    }
    return TOKIO_OK;
}

static int
df_from_one(struct snap *s, const char *fs, const char *tg, const json_t *o)
{
    const char *strs[4] = { fs, tg, NULL, NULL };
    size_t lens[4];
    int64_t nums[4];
    int rc;

    if ((rc = get_int(o, fs, tg, "total_kib", &nums[0])) < 0 ||
        (rc = get_int(o, fs, tg, "used_kib", &nums[1])) < 0 ||
        (rc = get_int(o, fs, tg, "remaining_kib", &nums[2])) < 0 ||
        (rc = get_int(o, fs, tg, "target_index", &nums[3])) < 0 ||
        (rc = get_str(o, fs, tg, "mount_pt", &strs[2])) < 0 ||
        (rc = get_str(o, fs, tg, "role", &strs[3])) < 0)
        return rc;
    for (int i = 0; i < 4; i++)
        lens[i] = strlen(strs[i]);
    if (snap_put(s, strs, lens, 4, nums, 4) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    return TOKIO_OK;
}

static int
dl_from_one(struct snap *s, const char *fs, const char *tg, const json_t *o)
{
    const char *strs[8] = { fs, tg, NULL, NULL, NULL, NULL, NULL, NULL };
    size_t lens[8];
    int64_t nums[2];
    int rc;

    if ((rc = get_int(o, fs, tg, "index", &nums[0])) < 0 ||
        (rc = get_int(o, fs, tg, "ref_count", &nums[1])) < 0 ||
        (rc = get_str(o, fs, tg, "status", &strs[2])) < 0 ||
        (rc = get_str(o, fs, tg, "role", &strs[3])) < 0 ||
        (rc = get_str(o, fs, tg, "role_id", &strs[4])) < 0 ||
        (rc = get_str(o, fs, tg, "uuid", &strs[5])) < 0 ||
        (rc = get_str(o, fs, tg, "target_ip", &strs[6])) < 0 ||
        (rc = get_str(o, fs, tg, "nid", &strs[7])) < 0)
        return rc;
    for (int i = 0; i < 8; i++)
        lens[i] = strlen(strs[i]);
    if (snap_put(s, strs, lens, 8, nums, 2) < 0)
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
    if ((rc = from_json_walk(json, &df->s, df_from_one)) < 0 ||
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
    if ((rc = from_json_walk(json, &dl->s, dl_from_one)) < 0 ||
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
    if (ferror(fp))
        return tokio__error(TOKIO_EIO, "writing lfs df text failed");
    return TOKIO_OK;
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
    if (ferror(fp))
        return tokio__error(TOKIO_EIO, "writing lctl dl text failed");
    return TOKIO_OK;
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
    free(df->pub);
    free(df);
}

void
tokio_lfs_dl_free(struct tokio_lfs_dl *dl)
{
    if (dl == NULL)
        return;
    snap_release(&dl->s);
    free(dl->pub);
    free(dl);
}
