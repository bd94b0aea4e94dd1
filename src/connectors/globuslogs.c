/*
 * src/connectors/globuslogs.c - Globus GridFTP server transfer logs: one
 * transfer per line, KEY=VALUE pairs separated by spaces.  Mirrors
 * tokio.connectors.globuslogs.GlobusLog (pytokio 0.13): its load_str()
 * peels pairs with ^([A-Z]+)=(.*?)\s+([A-Z]+=.*)$ - a value ends at the
 * first whitespace run followed by capital letters and '=' - and when
 * that does not match takes the rest of the line, split at its first '=',
 * as the last pair (so "NL.EVNT=FTP_INFO" stays inside PROG's value, as
 * the golden shows).  Then DATE/START become epoch seconds (local time,
 * "%Y%m%d%H%M%S.%f"), BUFFER/BLOCK/NBYTES/STREAMS/STRIPES integers, DEST
 * a list ("[a, b]" split at commas).
 *
 * Records are typed pairs in one array with strings in one pool (a JSON
 * object per line would cost several times the parse); keys repeated from
 * the previous line share its copy.  A log is read line by line as it
 * streams; only the JSON form is read whole.
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/globuslogs.txt.gz;
 * golden ../shared/testdata/golden/pytokio/globuslogs/.
 *
 * Differs from pytokio, on input the server does not write: text without
 * '=' (the reference raised ValueError), a bad date or integer, invalid
 * UTF-8 or a NUL byte are TOKIO_EFORMAT naming the file and line; blank
 * lines are skipped (the reference raised); dates need all 14 digits and
 * 1-6 fraction digits (strptime also took some shorter forms); integers
 * take no "_" and must fit int64; lines end at "\n" only and only ASCII
 * whitespace separates (Python's \s and splitlines() know more).
 */
#include "tokio/connectors/globuslogs.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "tokio/input.h"
#include "tokio/output.h"
#include "tokio/time.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/text.h"
#include "core/json.h"
#include "core/localdays.h"
#include "core/localtime.h"

/* Keys the reference recast (its RECAST_KEYS): DATE and START to times,
 * BUFFER, BLOCK, NBYTES, STREAMS and STRIPES to integers, DEST to a
 * list. */
enum vtype { V_STR, V_INT, V_REAL, V_LIST };

/* One KEY=VALUE of a record. */
struct kv {
    uint64_t key;           /* pool offset, NUL-ended */
    uint32_t klen;
    uint32_t n;             /* V_STR: length; V_LIST: items */
    uint8_t type;
    union {
        int64_t i;
        double d;
        uint64_t off;       /* V_STR, V_LIST: pool offset (list items
                               NUL-separated, one after another) */
    } v;
};

struct rec {
    size_t first, n;        /* its pairs in kvs[] */
};

struct tokio_globuslogs {
    struct rec *recs;
    size_t n, cap;
    struct kv *kvs;
    size_t nkv, kvcap;
    char *pool;
    size_t pool_len, pool_cap;
};

/* A pair while its line is parsed: spans of the line. */
struct raw {
    const char *k, *v;
    size_t klen, vlen;
    uint32_t hash;          /* of the key: repeated keys are rare */
};

struct parser {
    const char *name;
    size_t lineno;
    struct raw *raw;        /* scratch, reused per line */
    size_t nraw, rawcap;
    size_t *slots;          /* hash of raw[] by key: index + 1, 0 empty; */
    size_t nslots;          /* a line may hold a million distinct keys */
    size_t hashed;          /* raw[0..hashed) are in slots */
    struct tokio__local_days *tc;   /* local days seen, for parse_date() */
};

/* ---- helpers ------------------------------------------------------------ */

static int
upper(unsigned char c)
{
    return c >= 'A' && c <= 'Z';
}

static int
oom(const char *name)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
}

/* What the reference recast key k[0..len) to: V_REAL for times. */
static enum vtype
key_type(const char *k, size_t len)
{
    switch (len) {
    case 4:
        return memcmp(k, "DATE", 4) == 0 ? V_REAL
               : memcmp(k, "DEST", 4) == 0 ? V_LIST : V_STR;
    case 5:
        return memcmp(k, "START", 5) == 0 ? V_REAL
               : memcmp(k, "BLOCK", 5) == 0 ? V_INT : V_STR;
    case 6:
        return memcmp(k, "BUFFER", 6) == 0 || memcmp(k, "NBYTES", 6) == 0
               ? V_INT : V_STR;
    case 7:
        return memcmp(k, "STREAMS", 7) == 0 || memcmp(k, "STRIPES", 7) == 0
               ? V_INT : V_STR;
    default:
        return V_STR;
    }
}

/* The first index from `p` on whose byte is at most ' ' (white space is:
 * tokio__py_space()), else `len`: eight bytes at a time, by the classic
 * "some byte less than n" word test, over long values such as paths;
 * p <= len. */
static size_t
next_low(const char *s, size_t p, size_t len)
{
    for (; len - p >= 8; p += 8) {
        uint64_t w;
        memcpy(&w, s + p, 8);
        if ((w - 0x2121212121212121u) & ~w & 0x8080808080808080u)
            break;
    }
    while (p < len && (unsigned char)s[p] > ' ')
        p++;
    return p;
}

/* Python's int(): surrounding whitespace, a sign, decimal digits. */
static int
py_int(const char *s, size_t len, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    uint64_t v = 0, limit;

    while (len > 0 && tokio__py_space((unsigned char)s[len - 1]))
        len--;
    while (i < len && tokio__py_space((unsigned char)s[i]))
        i++;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    if (i >= len)
        return -1;
    limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    /* 18 digits cannot overflow: no division per digit then */
    for (size_t fast = len - i <= 18; i < len; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9 || (!fast && v > (limit - d) / 10))
            return -1;
        v = v * 10 + d;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

/* "YYYYmmddHHMMSS.ffffff" (1-6 fraction digits) as local time. */
static int
parse_date(struct parser *ps, const char *s, size_t len, double *out)
{
    static const int dm[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30,
                                31 };
    int v[6] = { 0, 0, 0, 0, 0, 0 };
    static const int width[6] = { 4, 2, 2, 2, 2, 2 };
    size_t i = 0;
    int64_t e;

    if (len < 16 || len > 21 || s[14] != '.')
        return -1;
    for (int k = 0; k < 6; k++)
        for (int j = 0; j < width[k]; j++, i++) {
            if (s[i] < '0' || s[i] > '9')
                return -1;
            v[k] = v[k] * 10 + (s[i] - '0');
        }
    long us = 0;
    size_t nf = len - 15;
    for (i = 15; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        us = us * 10 + (s[i] - '0');
    }
    for (; nf < 6; nf++)
        us *= 10;           /* "%f" pads on the right */
    int leap = (v[0] % 4 == 0 && v[0] % 100 != 0) || v[0] % 400 == 0;
    if (v[0] < 1 || v[1] < 1 || v[1] > 12 || v[2] < 1 ||
        v[2] > dm[v[1] - 1] + (v[1] == 2 && leap) || v[3] > 23 ||
        v[4] > 59 || v[5] > 59)
        return -1;
    if (tokio__local_epoch(ps->tc, v[0], v[1], v[2], v[3], v[4], v[5], &e) < 0)
        return -1;
    *out = (double)e + (double)us / 1e6;
    return 0;
}

/* ---- building ----------------------------------------------------------- */

static int
pool_reserve(struct tokio_globuslogs *g, size_t need)
{
    if (g->pool_cap - g->pool_len >= need)
        return 0;
    size_t cap = g->pool_cap ? g->pool_cap : 4096;
    while (cap - g->pool_len < need) {
        if (cap > SIZE_MAX / 2)
            return -1;
        cap *= 2;
    }
    char *np = tokio__realloc(g->pool, cap);
    if (np == NULL)
        return -1;
    g->pool = np;
    g->pool_cap = cap;
    return 0;
}

static int
pool_add(struct tokio_globuslogs *g, const char *p, size_t len,
         uint64_t *off_out)
{
    if (pool_reserve(g, len + 1) < 0)
        return -1;
    memcpy(g->pool + g->pool_len, p, len);
    g->pool[g->pool_len + len] = '\0';
    *off_out = g->pool_len;
    g->pool_len += len + 1;
    return 0;
}

static inline struct kv *
add_kv(struct tokio_globuslogs *g)
{
    if (g->nkv == g->kvcap) {
        size_t cap = g->kvcap ? g->kvcap * 2 : 1024;
        struct kv *nk = tokio__reallocarray(g->kvs, cap, sizeof(*nk));
        if (nk == NULL)
            return NULL;
        g->kvs = nk;
        g->kvcap = cap;
    }
    struct kv *kv = &g->kvs[g->nkv++];
    memset(kv, 0, sizeof(*kv));
    return kv;
}

static struct rec *
add_rec(struct tokio_globuslogs *g)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 256;
        struct rec *nr = tokio__reallocarray(g->recs, cap, sizeof(*nr));
        if (nr == NULL)
            return NULL;
        g->recs = nr;
        g->cap = cap;
    }
    struct rec *r = &g->recs[g->n++];
    r->first = g->nkv;
    r->n = 0;
    return r;
}

/* The key of a new pair: the previous record's copy when it has the same
 * key at the same place, else a new one. */
static inline int
set_key(struct tokio_globuslogs *g, const struct rec *r, struct kv *kv,
        const char *k, size_t klen)
{
    size_t idx = (size_t)(kv - g->kvs) - r->first;

    if (g->n >= 2) {
        const struct rec *prev = r - 1;
        if (idx < prev->n) {
            const struct kv *pk = &g->kvs[prev->first + idx];
            if (pk->klen == klen &&
                memcmp(g->pool + pk->key, k, klen) == 0) {
                kv->key = pk->key;
                kv->klen = (uint32_t)klen;
                return 0;
            }
        }
    }
    if (pool_add(g, k, klen, &kv->key) < 0)
        return -1;
    kv->klen = (uint32_t)klen;
    return 0;
}

/* Lines with more pairs than this find repeated keys by a hash table. */
#define SMALL_LINE 32

/* (Re)build ps->slots over ps->raw, at least four times as large. */
static int
rehash(struct parser *ps)
{
    size_t n = 64;

    while (n < 4 * (ps->nraw + 1))
        n *= 2;
    size_t *slots = tokio__calloc(n, sizeof(*slots));
    if (slots == NULL)
        return -1;
    for (size_t i = 0; i < ps->nraw; i++) {
        size_t s = ps->raw[i].hash & (n - 1);
        while (slots[s])
            s = (s + 1) & (n - 1);
        slots[s] = i + 1;
    }
    free(ps->slots);
    ps->slots = slots;
    ps->nslots = n;
    ps->hashed = ps->nraw;
    return 0;
}

/* Pairs of one line into ps->raw (a repeated key replaces its value in
 * place, as a dict assignment does). */
static int
peel(struct parser *ps, const char *line, size_t len)
{
    size_t pos = 0;
    size_t key_end = 0;     /* where the key at pos ends, when the search
                               for the value before it found it */
    uint64_t seen = 0;      /* a bit per key hash seen on a short line */

    /* the table only serves long lines: cleared when one used it */
    if (ps->hashed > 0)
        memset(ps->slots, 0, ps->nslots * sizeof(*ps->slots));
    ps->nraw = ps->hashed = 0;
    while (pos < len) {
        const char *k = line + pos, *v;
        size_t klen, vlen, u = key_end, next = len;
        int matched = 0;

        if (u == 0)
            for (u = pos; u < len && upper((unsigned char)line[u]); u++)
                ;
        key_end = 0;
        if (u > pos && u < len && line[u] == '=') {
            /* the shortest value followed by \s+[A-Z]+= */
            for (size_t p = next_low(line, u + 1, len); p < len;
                 p = next_low(line, p + 1, len)) {
                if (!tokio__py_space((unsigned char)line[p]))
                    continue;
                size_t q = p, w;
                while (q < len && tokio__py_space((unsigned char)line[q]))
                    q++;
                for (w = q; w < len && upper((unsigned char)line[w]); w++)
                    ;
                if (w > q && w < len && line[w] == '=') {
                    klen = u - pos;
                    v = line + u + 1;
                    vlen = p - (u + 1);
                    next = q;
                    key_end = w;
                    matched = 1;
                    break;
                }
                p = q - 1;
            }
        }
        if (!matched) {
            const char *eq = memchr(k, '=', len - pos);
            if (eq == NULL)
                return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: '%.*s' "
                                    "is not KEY=VALUE", ps->name, ps->lineno,
                                    (int)(len - pos > 60 ? 60 : len - pos),
                                    k);
            klen = (size_t)(eq - k);
            v = eq + 1;
            vlen = len - pos - klen - 1;
        }
        uint32_t hash = 2166136261u;        /* FNV-1a */
        for (size_t b = 0; b < klen; b++)
            hash = (hash ^ (unsigned char)k[b]) * 16777619u;
        size_t i, slot = 0;
        if (ps->nraw < SMALL_LINE) {
            uint64_t bit = (uint64_t)1 << (hash & 63);
            /* a key whose bit is clear is new: no search */
            i = ps->nraw;
            if (seen & bit)
                for (i = 0; i < ps->nraw; i++)
                    if (ps->raw[i].hash == hash && ps->raw[i].klen == klen &&
                        memcmp(ps->raw[i].k, k, klen) == 0)
                        break;
            seen |= bit;
        } else {
            if (ps->nraw * 2 >= ps->nslots) {
                if (rehash(ps) < 0)
                    return oom(ps->name);
            }
            for (; ps->hashed < ps->nraw; ps->hashed++) {
                size_t h = ps->raw[ps->hashed].hash & (ps->nslots - 1);
                while (ps->slots[h])
                    h = (h + 1) & (ps->nslots - 1);
                ps->slots[h] = ps->hashed + 1;
            }
            for (slot = hash & (ps->nslots - 1); ps->slots[slot];
                 slot = (slot + 1) & (ps->nslots - 1)) {
                const struct raw *r = &ps->raw[ps->slots[slot] - 1];
                if (r->hash == hash && r->klen == klen &&
                    memcmp(r->k, k, klen) == 0)
                    break;
            }
            i = ps->slots[slot] ? ps->slots[slot] - 1 : ps->nraw;
        }
        if (i == ps->nraw) {
            if (ps->nraw == ps->rawcap) {
                size_t cap = ps->rawcap ? ps->rawcap * 2 : 32;
                struct raw *nr = tokio__reallocarray(ps->raw, cap,
                                                     sizeof(*nr));
                if (nr == NULL)
                    return oom(ps->name);
                ps->raw = nr;
                ps->rawcap = cap;
            }
            if (ps->nraw >= SMALL_LINE) {
                ps->slots[slot] = i + 1;
                ps->hashed++;
            }
            ps->nraw++;
        }
        ps->raw[i] = (struct raw){ k, v, klen, vlen, hash };
        pos = next;
    }
    return TOKIO_OK;
}

/* "[a, b]" -> its items: leading '[' and trailing ']' removed, split at
 * ',', each stripped; anything else is a one-item list. */
static int
set_list(struct tokio_globuslogs *g, struct kv *kv, const char *v,
         size_t vlen)
{
    size_t start = g->pool_len;

    kv->type = V_LIST;
    kv->n = 0;
    if (vlen == 0 || v[0] != '[') {
        kv->n = 1;
        return pool_add(g, v, vlen, &kv->v.off);
    }
    while (vlen > 0 && *v == '[')
        v++, vlen--;
    while (vlen > 0 && v[vlen - 1] == ']')
        vlen--;
    for (const char *p = v, *end = v + vlen;;) {
        const char *c = memchr(p, ',', (size_t)(end - p));
        const char *e = c ? c : end, *b = p;
        uint64_t off;
        while (b < e && tokio__py_space((unsigned char)*b))
            b++;
        while (e > b && tokio__py_space((unsigned char)e[-1]))
            e--;
        if (pool_add(g, b, (size_t)(e - b), &off) < 0)
            return -1;
        kv->n++;
        if (c == NULL)
            break;
        p = c + 1;
    }
    kv->v.off = start;
    return 0;
}

static int
parse_line(struct tokio_globuslogs *g, struct parser *ps, const char *line,
           size_t len)
{
    int rc;

    if (!tokio__text_valid((const unsigned char *)line, len))
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s", ps->name,
                            ps->lineno, memchr(line, '\0', len)
                            ? "NUL byte" : "invalid UTF-8");
    if ((rc = peel(ps, line, len)) < 0)
        return rc;

    struct rec *r = add_rec(g);
    if (r == NULL)
        return oom(ps->name);
    for (size_t i = 0; i < ps->nraw; i++) {
        const struct raw *raw = &ps->raw[i];
        struct kv *kv = add_kv(g);
        if (kv == NULL || set_key(g, r, kv, raw->k, raw->klen) < 0)
            return oom(ps->name);
        r->n++;
        enum vtype type = key_type(raw->k, raw->klen);
        if (type == V_REAL) {
            kv->type = V_REAL;
            if (parse_date(ps, raw->v, raw->vlen, &kv->v.d) < 0)
                return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %.*s is "
                                    "not a date YYYYmmddHHMMSS.ffffff: "
                                    "'%.*s'", ps->name, ps->lineno,
                                    (int)raw->klen, raw->k,
                                    (int)(raw->vlen > 60 ? 60 : raw->vlen),
                                    raw->v);
        } else if (type == V_INT) {
            kv->type = V_INT;
            if (py_int(raw->v, raw->vlen, &kv->v.i) < 0)
                return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %.*s is "
                                    "not an integer: '%.*s'", ps->name,
                                    ps->lineno, (int)raw->klen, raw->k,
                                    (int)(raw->vlen > 60 ? 60 : raw->vlen),
                                    raw->v);
        } else if (type == V_LIST) {
            if (set_list(g, kv, raw->v, raw->vlen) < 0)
                return oom(ps->name);
        } else {
            kv->type = V_STR;
            kv->n = (uint32_t)raw->vlen;
            if (pool_add(g, raw->v, raw->vlen, &kv->v.off) < 0)
                return oom(ps->name);
        }
    }
    if (r->n == 0)
        g->n--;             /* an empty record is not kept, as there */
    return TOKIO_OK;
}

static int
new_logs(struct tokio_globuslogs **out)
{
    if ((*out = tokio__calloc(1, sizeof(**out))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    return TOKIO_OK;
}

/* ---- JSON --------------------------------------------------------------- */

static int
kv_from_json(struct tokio_globuslogs *g, struct kv *kv, size_t idx,
             const char *key, const json_t *v)
{
    size_t i;
    const json_t *item;

    if (json_is_string(v)) {
        kv->type = V_STR;
        if (json_string_length(v) > UINT32_MAX)
            goto bad;
        kv->n = (uint32_t)json_string_length(v);
        return pool_add(g, json_string_value(v), kv->n, &kv->v.off) < 0
               ? TOKIO_ENOMEM : TOKIO_OK;
    }
    if (json_is_integer(v)) {
        kv->type = V_INT;
        kv->v.i = (int64_t)json_integer_value(v);
        return TOKIO_OK;
    }
    if (json_is_real(v)) {
        kv->type = V_REAL;
        kv->v.d = json_real_value(v);
        return TOKIO_OK;
    }
    if (!json_is_array(v))
        goto bad;
    kv->type = V_LIST;
    kv->v.off = g->pool_len;
    kv->n = 0;
    json_array_foreach(v, i, item) {
        uint64_t off;
        /* items are NUL-separated in the pool */
        if (!json_is_string(item) ||
            strlen(json_string_value(item)) != json_string_length(item))
            goto bad;
        if (pool_add(g, json_string_value(item), json_string_length(item),
                     &off) < 0)
            return TOKIO_ENOMEM;
        kv->n++;
    }
    return TOKIO_OK;
bad:
    return tokio__error(TOKIO_EFORMAT, "Globus log record %zu: '%s' is not "
                        "a string, number or list of strings", idx, key);
}

int
tokio_globuslogs_from_json(struct tokio_globuslogs **out, const json_t *json)
{
    struct tokio_globuslogs *g = NULL;
    size_t idx;
    const json_t *obj;
    int rc;

    *out = NULL;
    if (!json_is_array(json))
        return tokio__error(TOKIO_EFORMAT, "Globus log JSON is not a list");
    if ((rc = new_logs(&g)) < 0)
        return rc;
    json_array_foreach(json, idx, obj) {
        const char *key;
        const json_t *v;
        struct rec *r;

        if (!json_is_object(obj)) {
            rc = tokio__error(TOKIO_EFORMAT, "Globus log record %zu is not "
                              "an object", idx);
            break;
        }
        if ((r = add_rec(g)) == NULL) {
            rc = TOKIO_ENOMEM;
            break;
        }
        json_object_foreach((json_t *)obj, key, v) {
            struct kv *kv = add_kv(g);
            if (kv == NULL || set_key(g, r, kv, key, strlen(key)) < 0) {
                rc = TOKIO_ENOMEM;
                break;
            }
            r->n++;
            if ((rc = kv_from_json(g, kv, idx, key, v)) < 0)
                break;
        }
        if (rc < 0)
            break;
    }
    if (rc == TOKIO_ENOMEM)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory");
    if (rc < 0) {
        tokio_globuslogs_free(g);
        return rc;
    }
    *out = g;
    return TOKIO_OK;
}

/* ---- reading ------------------------------------------------------------ */

/* The JSON form, whole in `buf`. */
static int
parse_json_text(struct tokio_globuslogs **out, const char *buf, size_t len,
                const char *name)
{
    json_t *json;
    int rc;

    if ((rc = tokio__json_parse_named(&json, buf, len, 0, name)) < 0)
        return rc;
    rc = tokio_globuslogs_from_json(out, json);
    json_decref(json);
    if (rc < 0)
        tokio__error_prefix("'%s'", name);
    return rc;
}

/* The JSON form: `nblank` blank lines, the line `first` (the reader's)
 * and the rest of `in`, as one text (so messages count lines right). */
static int
read_json(struct tokio_globuslogs **out, struct tokio_input *in,
          size_t nblank, const char *first, size_t first_len)
{
    const char *name = tokio_input_name(in);
    unsigned char *rest = NULL;
    size_t rest_len = 0, head = nblank + first_len + 1;
    char *buf = tokio__malloc(head), *all;
    int rc;

    if (buf == NULL)
        return oom(name);
    memset(buf, '\n', nblank);
    memcpy(buf + nblank, first, first_len);   /* before reading on */
    buf[head - 1] = '\n';
    if ((rc = tokio_input_read_all(in, 0, &rest, &rest_len)) < 0) {
        free(buf);
        return rc;
    }
    if ((all = tokio__realloc(buf, head + rest_len + 1)) == NULL) {
        free(buf);
        free(rest);
        return oom(name);
    }
    memcpy(all + head, rest, rest_len);
    all[head + rest_len] = '\0';
    free(rest);
    rc = parse_json_text(out, all, head + rest_len, name);
    free(all);
    return rc;
}

static int
blank(const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!tokio__py_space((unsigned char)p[i]))
            return 0;
    return 1;
}

/*
 * Read `in`: a log line by line as it streams (a log can be large; blank
 * lines skipped), the JSON form (its first non-blank byte a '[': log
 * lines start with a key) whole.
 */
static int
read_input(struct tokio_globuslogs **out, struct tokio_input *in)
{
    struct tokio_globuslogs *g = NULL;
    struct parser ps;
    const char *line;
    size_t len, nblank = 0, i = 0;
    int rc;

    *out = NULL;
    while ((rc = tokio_input_getline(in, &line, &len)) == TOKIO_OK &&
           line != NULL && blank(line, len))
        nblank++;
    if (rc < 0)
        return rc;
    while (line != NULL && i < len && tokio__py_space((unsigned char)line[i]))
        i++;
    if (line != NULL && line[i] == '[')
        return read_json(out, in, nblank, line, len);
    if ((rc = new_logs(&g)) < 0)
        return rc;
    memset(&ps, 0, sizeof(ps));
    ps.name = tokio_input_name(in);
    ps.tc = tokio__local_days_cached();
    while (rc == TOKIO_OK && line != NULL) {
        if (!blank(line, len)) {
            ps.lineno = tokio_input_lineno(in);
            rc = parse_line(g, &ps, line, len);
        }
        if (rc == TOKIO_OK)
            rc = tokio_input_getline(in, &line, &len);
    }
    free(ps.raw);
    free(ps.slots);
    if (rc < 0) {
        tokio_globuslogs_free(g);   /* no half-built result */
        return rc;
    }
    *out = g;
    return TOKIO_OK;
}

int
tokio_globuslogs_open(struct tokio_globuslogs **out, const char *path)
{
    struct tokio_input *in = NULL;
    int rc;

    *out = NULL;
    if ((rc = tokio_input_open(&in, path)) < 0)
        return rc;
    rc = read_input(out, in);
    tokio_input_close(in);
    return rc;
}

int
tokio_globuslogs_open_mem(struct tokio_globuslogs **out, const void *buf,
                          size_t len, const char *name)
{
    struct tokio_input *in = NULL;
    int rc;

    *out = NULL;
    if ((rc = tokio_input_open_mem(&in, buf, len,
                                   name ? name : "<memory>")) < 0)
        return rc;
    rc = read_input(out, in);
    tokio_input_close(in);
    return rc;
}

/* ---- output ------------------------------------------------------------- */

size_t
tokio_globuslogs_count(const struct tokio_globuslogs *g)
{
    return g->n;
}

static json_t *
kv_to_json(const struct tokio_globuslogs *g, const struct kv *kv)
{
    switch (kv->type) {
    case V_INT:
        return json_integer(kv->v.i);
    case V_REAL:
        return json_real(kv->v.d);
    case V_STR:
        return json_stringn(g->pool + kv->v.off, kv->n);
    default: {
        json_t *list = json_array();
        const char *s = g->pool + kv->v.off;
        for (uint32_t i = 0; list != NULL && i < kv->n; i++) {
            if (json_array_append_new(list, json_string(s)) < 0) {
                json_decref(list);
                return NULL;
            }
            s += strlen(s) + 1;
        }
        return list;
    }
    }
}

int
tokio_globuslogs_to_json(const struct tokio_globuslogs *g, json_t **out)
{
    json_t *list = json_array();

    *out = NULL;
    for (size_t r = 0; list != NULL && r < g->n; r++) {
        json_t *obj = json_object();
        if (json_array_append_new(list, obj) < 0)
            goto nomem;
        for (size_t i = 0; i < g->recs[r].n; i++) {
            const struct kv *kv = &g->kvs[g->recs[r].first + i];
            if (json_object_set_new(obj, g->pool + kv->key,
                                    kv_to_json(g, kv)) < 0)
                goto nomem;
        }
    }
    if (list == NULL)
        goto nomem;
    *out = list;
    return TOKIO_OK;
nomem:
    json_decref(list);
    return tokio__error(TOKIO_ENOMEM, "out of memory");
}

/* Python's repr() of a str, as pandas prints list items. */
static void
py_repr(FILE *fp, const char *s)
{
    char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';

    fputc(q, fp);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\\' || c == (unsigned char)q)
            fprintf(fp, "\\%c", c);
        else if (c == '\t')
            fputs("\\t", fp);
        else if (c == '\n')
            fputs("\\n", fp);
        else if (c == '\r')
            fputs("\\r", fp);
        else if (c < 0x20 || c == 0x7f)
            fprintf(fp, "\\x%02x", c);
        else
            fputc(c, fp);
    }
    fputc(q, fp);
}

/* Per column: what pandas' type inference would make of it. */
struct col {
    size_t present;
    int numeric;            /* only ints and reals */
    int real;               /* some real */
};

static void
write_cell(const struct tokio_globuslogs *g, const struct kv *kv,
           const struct col *c, size_t nrecs, FILE *fp)
{
    char buf[40];

    if (c->numeric && (c->real || c->present < nrecs)) {
        /* a float64 column */
        tokio_format_double(buf, sizeof(buf), kv->type == V_INT
                            ? (double)kv->v.i : kv->v.d);
        fputs(buf, fp);
        return;
    }
    switch (kv->type) {
    case V_INT:
        fprintf(fp, "%lld", (long long)kv->v.i);
        break;
    case V_REAL:
        tokio_format_double(buf, sizeof(buf), kv->v.d);
        fputs(buf, fp);
        break;
    case V_STR:
        tokio_csv_write_field(fp, g->pool + kv->v.off, kv->n);
        break;
    default: {
        /* str(list): its repr, then quoted as one CSV field */
        char *text = NULL;
        size_t tlen = 0;
        FILE *mem = open_memstream(&text, &tlen);
        const char *s = g->pool + kv->v.off;
        if (mem == NULL)
            return;
        fputc('[', mem);
        for (uint32_t i = 0; i < kv->n; i++) {
            if (i)
                fputs(", ", mem);
            py_repr(mem, s);
            s += strlen(s) + 1;
        }
        fputc(']', mem);
        if (fclose(mem) == 0)
            tokio_csv_write_field(fp, text, tlen);
        free(text);
    }
    }
}

int
tokio_globuslogs_write_csv(const struct tokio_globuslogs *g, FILE *fp)
{
    json_t *index = json_object();      /* key -> column number */
    const char **names = NULL;
    struct col *cols = NULL;
    const struct kv **row = NULL;
    size_t ncols = 0;
    int rc = TOKIO_OK;

    if (index == NULL)
        goto nomem;
    for (size_t k = 0; k < g->nkv; k++) {
        const char *key = g->pool + g->kvs[k].key;
        if (json_object_get(index, key) == NULL) {
            if (json_object_set_new(index, key, json_integer((json_int_t)
                                                             ncols)) < 0)
                goto nomem;
            ncols++;
        }
    }
    names = tokio__calloc(ncols + 1, sizeof(*names));
    cols = tokio__calloc(ncols + 1, sizeof(*cols));
    row = tokio__calloc(ncols + 1, sizeof(*row));
    if (names == NULL || cols == NULL || row == NULL)
        goto nomem;
    for (size_t c = 0; c < ncols; c++)
        cols[c].numeric = 1;
    for (size_t k = 0; k < g->nkv; k++) {
        const struct kv *kv = &g->kvs[k];
        size_t c = (size_t)json_integer_value(json_object_get(index,
                                              g->pool + kv->key));
        names[c] = g->pool + kv->key;
        cols[c].present++;
        if (kv->type == V_REAL)
            cols[c].real = 1;
        else if (kv->type != V_INT)
            cols[c].numeric = 0;
    }
    for (size_t c = 0; c < ncols; c++) {
        fputc(',', fp);
        tokio_csv_write_field(fp, names[c], strlen(names[c]));
    }
    fputc('\n', fp);
    for (size_t r = 0; r < g->n; r++) {
        memset(row, 0, ncols * sizeof(*row));
        for (size_t i = 0; i < g->recs[r].n; i++) {
            const struct kv *kv = &g->kvs[g->recs[r].first + i];
            row[json_integer_value(json_object_get(index, g->pool + kv->key))]
                = kv;
        }
        fprintf(fp, "%zu", r);
        for (size_t c = 0; c < ncols; c++) {
            fputc(',', fp);
            if (row[c] != NULL)
                write_cell(g, row[c], &cols[c], g->n, fp);
        }
        fputc('\n', fp);
    }
    rc = tokio__write_check(fp, "cannot write Globus log CSV");
    goto out;
nomem:
    rc = tokio__error(TOKIO_ENOMEM, "out of memory");
out:
    json_decref(index);
    free(names);
    free(cols);
    free(row);
    return rc;
}

void
tokio_globuslogs_free(struct tokio_globuslogs *g)
{
    if (g == NULL)
        return;
    free(g->recs);
    free(g->kvs);
    free(g->pool);
    free(g);
}
