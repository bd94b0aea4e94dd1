/*
 * src/connectors/slurm.c - Slurm job accounting, the reference's
 * tokio.connectors.slurm (pytokio 0.13).
 *
 * Source: `sacct --parsable` (every line ends in '|') or `--parsable2`
 * (no trailing '|') text: a header of field names, then one line per
 * task, where the first field is the task id ("123", "123.batch",
 * "123.extern", "123.N"); and the reference's JSON cache of the same
 * table.  Both are read from files (plain or gzip), memory, or a sacct
 * run here (fork and execvp of an argument vector, never a shell).
 * Node lists are expanded and compacted natively: the reference ran
 * `scontrol show hostname|hostlist`, which exists only on Slurm hosts.
 *
 * The table is typed, not a jansson tree: an array of tasks in input
 * order (a repeated task id replaces the earlier task's fields in its
 * place, as a Python dict does), each a run of fields in one array, all
 * text in one pool of NUL-terminated strings addressed by offset.  A
 * field is text, a node list (its names one after another in the pool),
 * or, only from a JSON cache, some other JSON value kept as it is.
 * "start" and "end" are checked as zone-less local times and their
 * epochs kept beside; "nodelist" text is expanded straight into the pool.
 * The JSON form is built only when asked for.  A JSON cache of the usual
 * shape (tasks of strings and lists of strings, no escapes) is read by
 * core/json_scan.h without a tree; anything else it falls back to jansson
 * for, which reads every valid JSON and words the errors.
 *
 * Differs from pytokio:
 *  - a line whose field count differs from the header's, or that is not
 *    UTF-8, is an error naming file and line (the reference silently
 *    misaligned or crashed);
 *  - "Unknown" and "None" times (running or pending jobs) are kept as text
 *    and passed over by get_job_startend (the reference raised);
 *  - "None assigned" node lists (pending jobs) are empty lists;
 *  - node names holding a NUL character (JSON "\u0000") are refused;
 *  - the native form's node lists are comma-joined, not compacted: that
 *    is what the reference wrote wherever scontrol was absent (the goldens
 *    show it), and it reads back as the same list in the same order.
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/sample.slurm (JSON),
 * goldens in golden/pytokio/{slurm,cache_slurm,jobinfo}/.
 */
#include "tokio/connectors/slurm.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/json_scan.h"
#include "core/localtime.h"
#include "core/run.h"
#include "core/text.h"
#include "tokio/input.h"
#include "tokio/output.h"
#include "tokio/time.h"

/* The reference's recast table (_RECAST_KEY_MAP) and its time format. */
#define KEY_START    "start"
#define KEY_END      "end"
#define KEY_NODELIST "nodelist"
#define KEY_JOBIDRAW "jobidraw"
#define TIME_FORMAT  "%Y-%m-%dT%H:%M:%S"

/* What the reference asked sacct for (DEFAULT_KEYS + nodelist). */
#define SACCT "sacct"
#define QUERY_FORMAT "--format=jobidraw,start,end,nodelist"

/* Node numbers beyond 18 digits would overflow uint64 arithmetic. */
#define MAX_NUMBER_DIGITS 18

/* A JSON cache task with more fields than this is left to jansson (the
 * fast reader looks repeated keys up one by one). */
#define MAX_SCAN_FIELDS 64

/* NUL-terminated strings one after another, addressed by offset (the
 * pool moves as it grows). */
struct pool {
    char *s;
    size_t len, cap;
};

enum kind { V_TEXT, V_LIST, V_JSON };

/* The fields the reference recast, told once when a field is made. */
enum role { R_OTHER, R_START, R_END, R_NODELIST };

struct field {
    size_t key;             /* pool offset of the name */
    enum role role;
    size_t val;             /* V_TEXT: the text; V_LIST: the first name */
    size_t n;               /* V_TEXT: bytes; V_LIST: names */
    json_t *json;           /* V_JSON: the value, owned */
    enum kind kind;
};

struct task {
    size_t id;              /* pool offset */
    size_t first, n_fields; /* in s->fields */
    int64_t start, end;
    int has_start, has_end;
};

struct tokio_slurm {
    struct pool pool;
    struct field *fields;   /* every field ever added, replaced or not */
    size_t n_fields, cap_fields;
    struct task *tasks;
    size_t n_tasks, cap_tasks;
    size_t *slots;          /* while building: task index + 1 by id hash */
    size_t n_slots;
    struct tokio__local_days days;
};

/* ---- the string pool ------------------------------------------------- */

/* Grow to room for `n` more bytes; -1 when out of memory. */
static int
pool_grow(struct pool *p, size_t n)
{
    if (n > SIZE_MAX / 2 - p->len)
        return -1;
    size_t cap = p->cap ? p->cap : 256;
    while (cap - p->len < n)
        cap *= 2;
    char *s = tokio__realloc(p->s, cap);
    if (s == NULL)
        return -1;
    p->s = s;
    p->cap = cap;
    return 0;
}

/* Room for `n` more bytes; -1 when out of memory.  Inline: it is asked
 * once a node name. */
static inline int
pool_reserve(struct pool *p, size_t n)
{
    return n <= p->cap - p->len ? 0 : pool_grow(p, n);
}

/* Append `n` bytes and a NUL; their offset in *off.  -1: out of memory. */
static inline int
pool_add(struct pool *p, const char *s, size_t n, size_t *off)
{
    if (pool_reserve(p, n + 1) < 0)
        return -1;
    *off = p->len;
    memcpy(p->s + p->len, s, n);
    p->s[p->len + n] = '\0';
    p->len += n + 1;
    return 0;
}

/* ---- node lists ------------------------------------------------------ */

struct range {
    uint64_t lo, hi;
    int width;              /* zero-padded width, from the lower bound */
};

struct bgroup {             /* one [...] of a host name */
    size_t first_range, n_ranges;
    size_t lit_before;      /* offset in the token of the literal before */
    size_t lit_len;
    uint64_t count;
};

/* Parse a run of digits at *p (at most MAX_NUMBER_DIGITS). */
static int
parse_number(const char **p, const char *end, uint64_t *value, int *width)
{
    const char *s = *p;
    uint64_t v = 0;

    while (s < end && *s >= '0' && *s <= '9') {
        if (s - *p >= MAX_NUMBER_DIGITS)
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
        s++;
    }
    if (s == *p)
        return -1;
    *width = (int)(s - *p);
    *value = v;
    *p = s;
    return 0;
}

/* An expansion in progress: names appended to `pool`, NUL-terminated. */
struct expansion {
    struct pool *pool;
    size_t n;               /* names so far */
    uint64_t bytes;         /* most bytes they can take */
    const char *text;       /* the whole list, for messages */
};

/* Decimal digits of `v`. */
static int
digits_of(uint64_t v)
{
    int n = 1;

    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

/* `v` in decimal, zero-padded to `width` (both at most
 * MAX_NUMBER_DIGITS), at `buf`; its length.  Not snprintf(): a node list
 * can expand to many thousand names, and this was most of the time. */
static size_t
put_number(char *buf, uint64_t v, int width)
{
    char tmp[MAX_NUMBER_DIGITS + 2];
    size_t n = 0;

    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0 && n < sizeof(tmp));
    while (n < (size_t)width && n < sizeof(tmp))
        tmp[n++] = '0';
    for (size_t i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    return n;
}

/*
 * The name after `src` (`n` bytes) whose last number, `dlen` digits at
 * `dpos`, is one more, into `dst`: 1, or 0 when the number needs another
 * digit (the caller writes it afresh).  Most names of a range are made
 * so, without formatting a number.
 */
static int
bump(char *dst, const char *src, size_t n, size_t dpos, size_t dlen)
{
    memcpy(dst, src, n);
    for (size_t k = dpos + dlen; k-- > dpos;) {
        if (dst[k] != '9') {
            dst[k]++;
            return 1;
        }
        dst[k] = '0';
    }
    return 0;
}

static int
expand_oom(const struct expansion *x)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory expanding node list "
                        "'%.200s'", x->text);
}

/*
 * Expand one host token (no top-level commas) of `len` bytes into the
 * pool: literal text and bracket groups, the last group varying fastest
 * (Slurm's order).
 */
static int
expand_token(struct expansion *x, const char *tok, size_t len)
{
    struct bgroup groups[16];
    struct range *ranges = NULL;
    size_t n_groups = 0, n_ranges = 0, cap_ranges = 0, lit_start = 0;
    const char *end = tok + len;
    uint64_t total = 1;
    size_t idx[16];         /* range per group */
    uint64_t val[16];       /* value per group */
    int rc = TOKIO_OK;

    if (len == 0)
        return tokio__error(TOKIO_EFORMAT, "node list '%.200s': empty node "
                            "name", x->text);
    for (const char *p = tok; p < end;) {
        if (*p == ']') {
            rc = tokio__error(TOKIO_EFORMAT, "node list '%.200s': ']' "
                              "without '['", x->text);
            goto done;
        }
        if (*p != '[') {
            p++;
            continue;
        }
        if (n_groups == sizeof(groups) / sizeof(groups[0])) {
            rc = tokio__error(TOKIO_EFORMAT, "node list '%.200s': more "
                              "than 16 bracket groups in a name", x->text);
            goto done;
        }
        struct bgroup *g = &groups[n_groups++];
        g->lit_before = lit_start;
        g->lit_len = (size_t)(p - tok) - lit_start;
        g->first_range = n_ranges;
        g->n_ranges = 0;
        g->count = 0;
        p++;
        for (;;) {
            struct range r;
            int wlo;
            if (parse_number(&p, end, &r.lo, &wlo) < 0) {
                rc = tokio__error(TOKIO_EFORMAT, "node list '%.200s': "
                                  "expected a number (at most %d digits) "
                                  "at byte %zu", x->text, MAX_NUMBER_DIGITS,
                                  (size_t)(p - x->text));
                goto done;
            }
            r.hi = r.lo;
            r.width = wlo;
            if (p < end && *p == '-') {
                int whi;
                p++;
                if (parse_number(&p, end, &r.hi, &whi) < 0) {
                    rc = tokio__error(TOKIO_EFORMAT, "node list '%.200s': "
                                      "expected a number after '-' at byte "
                                      "%zu", x->text, (size_t)(p - x->text));
                    goto done;
                }
                if (r.hi < r.lo) {
                    rc = tokio__error(TOKIO_EFORMAT, "node list '%.200s': "
                                      "range %" PRIu64 "-%" PRIu64 " runs "
                                      "backwards", x->text, r.lo, r.hi);
                    goto done;
                }
            }
            if (n_ranges == cap_ranges) {
                size_t cap = cap_ranges ? cap_ranges * 2 : 8;
                struct range *nr = tokio__reallocarray(ranges, cap,
                                                       sizeof(*nr));
                if (nr == NULL) {
                    rc = expand_oom(x);
                    goto done;
                }
                ranges = nr;
                cap_ranges = cap;
            }
            ranges[n_ranges++] = r;
            g->n_ranges++;
            /* ranges are bounded by MAX_NUMBER_DIGITS, so this cannot
             * overflow; the product is capped below */
            g->count += r.hi - r.lo + 1;
            if (g->count > TOKIO_SLURM_MAX_NODES)
                break;
            if (p < end && *p == ',') {
                p++;
                continue;
            }
            if (p < end && *p == ']') {
                p++;
                break;
            }
            rc = tokio__error(TOKIO_EFORMAT, "node list '%.200s': expected "
                              "',' or ']' at byte %zu", x->text,
                              (size_t)(p - x->text));
            goto done;
        }
        if (g->count > TOKIO_SLURM_MAX_NODES ||
            (total *= g->count) > TOKIO_SLURM_MAX_NODES) {
            rc = tokio__error(TOKIO_EFORMAT, "node list '%.200s' expands to "
                              "more than %zu names", x->text,
                              TOKIO_SLURM_MAX_NODES);
            goto done;
        }
        lit_start = (size_t)(p - tok);
    }
    if (x->n + total > TOKIO_SLURM_MAX_NODES) {
        rc = tokio__error(TOKIO_EFORMAT, "node list '%.200s' expands to "
                          "more than %zu names", x->text,
                          TOKIO_SLURM_MAX_NODES);
        goto done;
    }
    /* and to a bounded number of bytes: long names times many numbers */
    uint64_t name_max = (uint64_t)len + 1;
    for (size_t i = 0; i < n_groups; i++) {
        int widest = 0;
        for (size_t k = 0; k < groups[i].n_ranges; k++) {
            const struct range *r = &ranges[groups[i].first_range + k];
            int w = digits_of(r->hi) > r->width ? digits_of(r->hi)
                                                : r->width;
            widest = w > widest ? w : widest;
        }
        name_max += (uint64_t)widest;
    }
    x->bytes += total * name_max;
    if (x->bytes > TOKIO_SLURM_MAX_NODE_BYTES) {
        rc = tokio__error(TOKIO_EFORMAT, "node list '%.200s' expands to "
                          "more than %zu bytes of names", x->text,
                          TOKIO_SLURM_MAX_NODE_BYTES);
        goto done;
    }
    if (n_groups == 0) {
        size_t off;
        if (pool_add(x->pool, tok, len, &off) < 0)
            rc = expand_oom(x);
        else
            x->n++;
        goto done;
    }

    /* a name is at most the token's literals plus 18 digits a group */
    size_t most = len + (size_t)n_groups * (MAX_NUMBER_DIGITS + 1) + 1;
    size_t prev = 0, prev_n = 0, dpos = 0, dlen = 0;
    int next_in_range = 0;  /* only the last group's number went up */
    for (size_t i = 0; i < n_groups; i++) {
        idx[i] = 0;
        val[i] = ranges[groups[i].first_range].lo;
    }
    for (;;) {
        if (pool_reserve(x->pool, most) < 0) {
            rc = expand_oom(x);
            goto done;
        }
        char *buf = x->pool->s + x->pool->len;
        size_t n = 0;
        if (!next_in_range ||
            !bump(buf, x->pool->s + prev, prev_n, dpos, dlen)) {
            for (size_t i = 0; i < n_groups; i++) {
                const struct range *r =
                    &ranges[groups[i].first_range + idx[i]];
                memcpy(buf + n, tok + groups[i].lit_before,
                       groups[i].lit_len);
                n += groups[i].lit_len;
                dpos = n;
                n += put_number(buf + n, val[i], r->width);
                dlen = n - dpos;
            }
            memcpy(buf + n, tok + lit_start, len - lit_start);
            n += len - lit_start;
        } else {
            n = prev_n;
        }
        buf[n] = '\0';
        prev = x->pool->len;
        prev_n = n;
        x->pool->len += n + 1;
        x->n++;
        /* odometer: advance the last group, carrying leftwards */
        size_t i = n_groups;
        next_in_range = 0;
        while (i-- > 0) {
            const struct range *r = &ranges[groups[i].first_range + idx[i]];
            if (val[i] < r->hi) {
                val[i]++;
                next_in_range = i == n_groups - 1;
                break;
            }
            if (idx[i] + 1 < groups[i].n_ranges) {
                idx[i]++;
                val[i] = ranges[groups[i].first_range + idx[i]].lo;
                break;
            }
            idx[i] = 0;
            val[i] = ranges[groups[i].first_range].lo;
        }
        if (i == (size_t)-1)
            break;
    }
done:
    free(ranges);
    return rc;
}

/*
 * Expand the node list `text` into `pool`, each name NUL-terminated, one
 * after another; their number in *n_out.  On failure the pool may hold
 * part of the names.
 */
static int
expand_into(struct pool *pool, const char *text, size_t *n_out)
{
    struct expansion x = { pool, 0, 0, text };
    int rc = TOKIO_OK;

    *n_out = 0;
    /* what sacct prints for a job that never got nodes */
    if (*text == '\0' || strcmp(text, "None assigned") == 0)
        return TOKIO_OK;
    const char *tok = text;
    int depth = 0;
    for (const char *p = text;; p++) {
        if (*p == '[') {
            if (depth++ > 0)
                return tokio__error(TOKIO_EFORMAT, "node list '%.200s': "
                                    "nested '['", text);
        } else if (*p == ']') {
            depth--;
        } else if ((*p == ',' && depth == 0) || *p == '\0') {
            if (*p == '\0' && depth > 0)
                return tokio__error(TOKIO_EFORMAT, "node list '%.200s': '[' "
                                    "without ']'", text);
            if ((rc = expand_token(&x, tok, (size_t)(p - tok))) < 0)
                return rc;
            if (*p == '\0')
                break;
            tok = p + 1;
        }
    }
    *n_out = x.n;
    return TOKIO_OK;
}

int
tokio_slurm_nodelist_expand(const char *text, char ***names_out,
                            size_t *n_out)
{
    struct pool pool = { NULL, 0, 0 };
    char **names = NULL;
    size_t n = 0;
    int rc;

    *names_out = NULL;
    *n_out = 0;
    if ((rc = expand_into(&pool, text, &n)) < 0) {
        free(pool.s);
        return rc;
    }
    if (n > 0 && (names = tokio__calloc(n, sizeof(*names))) == NULL) {
        free(pool.s);
        return tokio__error(TOKIO_ENOMEM, "out of memory expanding node "
                            "list '%.200s'", text);
    }
    const char *p = pool.s;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(p);
        if ((names[i] = tokio__strndup(p, len)) == NULL) {
            tokio_slurm_free_names(names, i);
            free(pool.s);
            return tokio__error(TOKIO_ENOMEM, "out of memory expanding node "
                                "list '%.200s'", text);
        }
        p += len + 1;
    }
    free(pool.s);
    *names_out = names;
    *n_out = n;
    return TOKIO_OK;
}

void
tokio_slurm_free_names(char **names, size_t n)
{
    if (names == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

struct cname {
    const char *name;
    size_t prefix_len;      /* == strlen(name) when there is no number */
    int width;              /* digits of the trailing number, 0: none */
    uint64_t value;
};

static int
cname_cmp(const void *a, const void *b)
{
    const struct cname *x = a, *y = b;
    size_t n = x->prefix_len < y->prefix_len ? x->prefix_len : y->prefix_len;
    int c = memcmp(x->name, y->name, n);

    if (c != 0)
        return c;
    if (x->prefix_len != y->prefix_len)
        return x->prefix_len < y->prefix_len ? -1 : 1;
    if (x->width != y->width)
        return x->width < y->width ? -1 : 1;
    return x->value < y->value ? -1 : x->value > y->value;
}

/* Append to a growing string; -1 when out of memory. */
struct sbuf {
    char *s;
    size_t len, cap;
};

static int
sbuf_add(struct sbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = tokio__realloc(b->s, cap);
        if (p == NULL)
            return -1;
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    return 0;
}

static int
sbuf_num(struct sbuf *b, uint64_t v, int width)
{
    char num[32];
    int n = snprintf(num, sizeof(num), "%0*" PRIu64, width, v);
    return sbuf_add(b, num, (size_t)n);
}

int
tokio_slurm_nodelist_compact(const char *const *names, size_t n, char **out)
{
    struct cname *c = NULL;
    struct sbuf b = { NULL, 0, 0 };

    *out = NULL;
    if (n > 0 && (c = tokio__calloc(n, sizeof(*c))) == NULL)
        goto oom;
    for (size_t i = 0; i < n; i++) {
        const char *s = names[i];
        size_t len = strlen(s), d = len;
        while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
            d--;
        c[i].name = s;
        c[i].prefix_len = len;
        /* a name without a trailing number, or with one too long to
         * count, stands alone */
        if (d < len && len - d <= MAX_NUMBER_DIGITS) {
            const char *p = s + d;
            c[i].prefix_len = d;
            parse_number(&p, s + len, &c[i].value, &c[i].width);
        }
    }
    if (n > 0)
        qsort(c, n, sizeof(*c), cname_cmp);
    if (sbuf_add(&b, "", 0) < 0)
        goto oom;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        /* j: end of the group sharing prefix and width */
        while (j < n && c[i].width > 0 && c[j].width == c[i].width &&
               c[j].prefix_len == c[i].prefix_len &&
               memcmp(c[j].name, c[i].name, c[i].prefix_len) == 0)
            j++;
        if (b.len > 0 && sbuf_add(&b, ",", 1) < 0)
            goto oom;
        if (sbuf_add(&b, c[i].name, c[i].prefix_len) < 0)
            goto oom;
        if (c[i].width == 0) {
            /* identical standalone names are duplicates */
            while (j < n && c[j].width == 0 &&
                   strcmp(c[j].name, c[i].name) == 0)
                j++;
            i = j;
            continue;
        }
        int bracket = c[j - 1].value != c[i].value;
        if (bracket && sbuf_add(&b, "[", 1) < 0)
            goto oom;
        for (size_t k = i; k < j;) {
            size_t m = k;
            /* duplicates and consecutive numbers extend the range */
            while (m + 1 < j && c[m + 1].value <= c[m].value + 1)
                m++;
            if (k > i && sbuf_add(&b, ",", 1) < 0)
                goto oom;
            if (sbuf_num(&b, c[k].value, c[i].width) < 0)
                goto oom;
            if (c[m].value != c[k].value &&
                (sbuf_add(&b, "-", 1) < 0 ||
                 sbuf_num(&b, c[m].value, c[i].width) < 0))
                goto oom;
            k = m + 1;
        }
        if (bracket && sbuf_add(&b, "]", 1) < 0)
            goto oom;
        i = j;
    }
    free(c);
    *out = b.s;
    return TOKIO_OK;
oom:
    free(c);
    free(b.s);
    return tokio__error(TOKIO_ENOMEM, "out of memory compacting %zu node "
                        "names", n);
}


/* ---- building the table ---------------------------------------------- */

static int
new_table(struct tokio_slurm **out, const char *name)
{
    struct tokio_slurm *s = tokio__calloc(1, sizeof(*s));

    *out = s;
    if (s == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                            name);
    return TOKIO_OK;
}

static const char *
str_at(const struct tokio_slurm *s, size_t off)
{
    return s->pool.s + off;
}

/* FNV-1a of a task id. */
static size_t
hash_id(const char *id, size_t len)
{
    uint64_t h = 14695981039346656037u;

    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)id[i]) * 1099511628211u;
    return (size_t)h;
}

/* The slot of task id `id` (`len` bytes): empty, or holding that task. */
static size_t *
find_slot(const struct tokio_slurm *s, const char *id, size_t len)
{
    size_t mask = s->n_slots - 1;

    for (size_t i = hash_id(id, len) & mask;; i = (i + 1) & mask) {
        size_t t = s->slots[i];
        if (t == 0)
            return &s->slots[i];
        const char *other = str_at(s, s->tasks[t - 1].id);
        if (strncmp(other, id, len) == 0 && other[len] == '\0')
            return &s->slots[i];
    }
}

/* Keep the id index at most half full. */
static int
grow_slots(struct tokio_slurm *s)
{
    if (2 * (s->n_tasks + 1) <= s->n_slots)
        return 0;
    size_t n = s->n_slots ? s->n_slots * 2 : 64;
    size_t *slots = tokio__calloc(n, sizeof(*slots));
    if (slots == NULL)
        return -1;
    free(s->slots);
    s->slots = slots;
    s->n_slots = n;
    for (size_t t = 0; t < s->n_tasks; t++) {
        const char *id = str_at(s, s->tasks[t].id);
        *find_slot(s, id, strlen(id)) = t + 1;
    }
    return 0;
}

/*
 * Start task `id` (`len` bytes): a new one at the end, or, for an id
 * seen before, the earlier one emptied in its place.  Fields added next
 * are its own.  Its index in *t_out.  -1 when out of memory.
 */
static int
task_begin(struct tokio_slurm *s, const char *id, size_t len, size_t *t_out)
{
    /* the JSON reader copies ids to the pool's end, not yet added */
    int at_tail = s->pool.s != NULL && id == s->pool.s + s->pool.len;

    if (grow_slots(s) < 0)
        return -1;
    size_t *slot = find_slot(s, id, len);
    size_t t = *slot;
    if (t == 0) {
        if (s->n_tasks == s->cap_tasks) {
            size_t cap = s->cap_tasks ? s->cap_tasks * 2 : 16;
            struct task *nt = tokio__reallocarray(s->tasks, cap,
                                                  sizeof(*nt));
            if (nt == NULL)
                return -1;
            s->tasks = nt;
            s->cap_tasks = cap;
        }
        t = ++s->n_tasks;
        if (at_tail) {
            s->tasks[t - 1].id = s->pool.len;
            s->pool.len += len + 1;
        } else if (pool_add(&s->pool, id, len, &s->tasks[t - 1].id) < 0) {
            s->n_tasks--;
            return -1;
        }
        *slot = t;
    }
    struct task *task = &s->tasks[t - 1];
    task->first = s->n_fields;
    task->n_fields = 0;
    task->has_start = task->has_end = 0;
    *t_out = t - 1;
    return 0;
}

/* A new field of the task being built, its value for the caller to set;
 * NULL when out of memory. */
static struct field *
field_add(struct tokio_slurm *s, size_t t, size_t key)
{
    if (s->n_fields == s->cap_fields) {
        size_t cap = s->cap_fields ? s->cap_fields * 2 : 64;
        struct field *nf = tokio__reallocarray(s->fields, cap, sizeof(*nf));
        if (nf == NULL)
            return NULL;
        s->fields = nf;
        s->cap_fields = cap;
    }
    struct field *f = &s->fields[s->n_fields++];
    const char *name = str_at(s, key);
    memset(f, 0, sizeof(*f));
    f->key = key;
    f->role = strcmp(name, KEY_START) == 0      ? R_START
              : strcmp(name, KEY_END) == 0      ? R_END
              : strcmp(name, KEY_NODELIST) == 0 ? R_NODELIST
                                                : R_OTHER;
    s->tasks[t].n_fields++;
    return f;
}

/* The field of task `t` in role `role` (not R_OTHER), or NULL. */
static const struct field *
task_role(const struct tokio_slurm *s, size_t t, enum role role)
{
    const struct task *task = &s->tasks[t];

    for (size_t i = 0; i < task->n_fields; i++)
        if (s->fields[task->first + i].role == role)
            return &s->fields[task->first + i];
    return NULL;
}

/* The field `key` of task `t`, or NULL. */
static const struct field *
task_field(const struct tokio_slurm *s, size_t t, const char *key)
{
    const struct task *task = &s->tasks[t];

    for (size_t i = 0; i < task->n_fields; i++) {
        const struct field *f = &s->fields[task->first + i];
        if (strcmp(str_at(s, f->key), key) == 0)
            return f;
    }
    return NULL;
}

/* Where a task came from, for messages: a line of sacct text, or a task
 * of JSON. */
struct origin {
    const char *name;
    size_t lineno;          /* 0: JSON */
};

static int
task_error(const struct tokio_slurm *s, size_t t, const struct origin *o,
           const char *fmt, const char *arg, const char *arg2)
{
    char what[256];

    snprintf(what, sizeof(what), fmt, arg, arg2);
    if (o->lineno > 0)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s", o->name,
                            o->lineno, what);
    return tokio__error(TOKIO_EFORMAT, "'%s' task '%.100s': %s", o->name,
                        str_at(s, s->tasks[t].id), what);
}

/* A time that sacct prints for "not yet" or "never". */
static int
is_unset_time(const char *s)
{
    return *s == '\0' || strcmp(s, "Unknown") == 0 ||
           strcmp(s, "None") == 0;
}

static int
two(const char *p)
{
    return (p[0] - '0') * 10 + (p[1] - '0');
}

/*
 * A zone-less local time "YYYY-MM-DDTHH:MM:SS" as epoch seconds: the
 * usual form directly (through the day cache), anything else through
 * tokio_time_parse_format(), which also decides what is not a time.
 */
static int
parse_time(struct tokio__local_days *days, const char *s, int64_t *epoch)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:dd";
    static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30,
                                 31 };
    int ok = 1;

    for (size_t i = 0; i < sizeof(shape) - 1 && ok; i++)
        ok = shape[i] == 'd' ? s[i] >= '0' && s[i] <= '9' : s[i] == shape[i];
    if (ok && s[sizeof(shape) - 1] == '\0') {
        int year = two(s) * 100 + two(s + 2), mon = two(s + 5);
        int mday = two(s + 8), hour = two(s + 11), min = two(s + 14);
        int sec = two(s + 17);
        int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        if (mon >= 1 && mon <= 12 && mday >= 1 && mday <= mdays[mon - 1] &&
            (mon != 2 || mday <= 28 + leap) && hour <= 23 && min <= 59 &&
            sec <= 59 && year >= 1 &&
            tokio__local_epoch(days, year, mon, mday, hour, min, sec,
                               epoch) == TOKIO_OK)
            return 0;
    }
    return tokio_time_parse_format(s, TIME_FORMAT, epoch) < 0 ? -1 : 0;
}

/* Check a start/end field of task `t`; `*has` says whether it holds a
 * time. */
static int
time_field(struct tokio_slurm *s, size_t t, const struct origin *o,
           const char *key, int64_t *epoch, int *has)
{
    const struct field *f = task_role(s, t, strcmp(key, KEY_START) == 0
                                                ? R_START : R_END);

    *has = 0;
    if (f == NULL || (f->kind == V_JSON && json_is_null(f->json)))
        return TOKIO_OK;
    if (f->kind != V_TEXT)
        return task_error(s, t, o, "'%s' is not a string", key, "");
    const char *text = str_at(s, f->val);
    if (is_unset_time(text))
        return TOKIO_OK;
    if (parse_time(&s->days, text, epoch) < 0)
        return task_error(s, t, o, "%s time '%.100s' is not "
                          "YYYY-MM-DDTHH:MM:SS", key, text);
    *has = 1;
    return TOKIO_OK;
}

/* Turn a text value into a node list, expanded into the pool. */
static int
expand_field(struct tokio_slurm *s, struct field *f, const char *text,
             const struct origin *o, size_t t)
{
    size_t start = s->pool.len, n;
    int rc = expand_into(&s->pool, text, &n);

    if (rc < 0) {
        if (rc == TOKIO_ENOMEM)
            return rc;
        if (o->lineno > 0)
            return tokio__error_prefix("'%s' line %zu", o->name, o->lineno);
        return tokio__error_prefix("'%s' task '%.100s'", o->name,
                                   str_at(s, s->tasks[t].id));
    }
    f->kind = V_LIST;
    f->val = start;
    f->n = n;
    return TOKIO_OK;
}

/* A node list given as a JSON array (a JSON cache): its names into the
 * pool. */
static int
list_field(struct tokio_slurm *s, struct field *f, const struct origin *o,
           size_t t)
{
    size_t start = s->pool.len, off, i;
    json_t *name;

    json_array_foreach(f->json, i, name) {
        if (!json_is_string(name))
            return tokio__error(TOKIO_EFORMAT, "'%s' task '%.100s': nodelist "
                                "item %zu is not a string", o->name,
                                str_at(s, s->tasks[t].id), i);
        const char *text = json_string_value(name);
        size_t len = json_string_length(name);
        if (memchr(text, '\0', len) != NULL)
            return tokio__error(TOKIO_EFORMAT, "'%s' task '%.100s': nodelist "
                                "item %zu holds a NUL character", o->name,
                                str_at(s, s->tasks[t].id), i);
        if (pool_add(&s->pool, text, len, &off) < 0)
            return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                                o->name);
    }
    f->n = json_array_size(f->json);
    json_decref(f->json);
    f->json = NULL;
    f->kind = V_LIST;
    f->val = start;
    return TOKIO_OK;
}

/* The task's fields are in: recast them as the reference did. */
static int
task_end(struct tokio_slurm *s, size_t t, const struct origin *o)
{
    struct task *task = &s->tasks[t];
    int rc;

    if ((rc = time_field(s, t, o, KEY_START, &task->start,
                         &task->has_start)) < 0 ||
        (rc = time_field(s, t, o, KEY_END, &task->end, &task->has_end)) < 0)
        return rc;
    for (size_t i = 0; i < task->n_fields; i++) {
        struct field *f = &s->fields[task->first + i];
        if (f->kind == V_TEXT &&
            f->role == R_NODELIST) {
            /* the text moves if the pool grows: expand a copy */
            char *text = tokio__strndup(str_at(s, f->val), f->n);
            if (text == NULL)
                return tokio__error(TOKIO_ENOMEM, "out of memory reading "
                                    "'%s'", o->name);
            rc = expand_field(s, f, text, o, t);
            free(text);
            if (rc < 0)
                return rc;
        } else if (f->kind == V_JSON &&
                   f->role == R_NODELIST) {
            if (json_is_array(f->json)) {
                if ((rc = list_field(s, f, o, t)) < 0)
                    return rc;
            } else if (!json_is_null(f->json)) {
                return task_error(s, t, o, "nodelist is neither a list nor "
                                  "a string", "", "");
            }
        }
    }
    return TOKIO_OK;
}

/* The id index is for building only. */
static void
built(struct tokio_slurm *s)
{
    free(s->slots);
    s->slots = NULL;
    s->n_slots = 0;
}

/* ---- sacct text ------------------------------------------------------ */

/* Split `line` at '|' in place into `*fields` (grown as needed). */
static int
split_pipes(char *line, char ***fields, size_t *cap, size_t *n)
{
    *n = 0;
    for (char *p = line;;) {
        if (*n == *cap) {
            size_t c = *cap ? *cap * 2 : 16;
            char **f = tokio__reallocarray(*fields, c, sizeof(*f));
            if (f == NULL)
                return -1;
            *fields = f;
            *cap = c;
        }
        (*fields)[(*n)++] = p;
        char *bar = strchr(p, '|');
        if (bar == NULL)
            break;
        *bar = '\0';
        p = bar + 1;
    }
    return 0;
}

/* The header's columns: each distinct name once (a repeated name keeps
 * its first place and takes the last value, as a dict does); unnamed
 * ones, as the trailing '|' of --parsable makes, are dropped. */
struct columns {
    size_t *key;            /* pool offsets of the distinct names */
    size_t *of;             /* per header field: distinct index, or -1 */
    size_t n, n_header;
};

static int
read_header(struct tokio_slurm *s, struct columns *c, char **fields,
            size_t n)
{
    c->n_header = n;
    c->n = 0;
    if ((c->key = tokio__calloc(n, sizeof(*c->key))) == NULL ||
        (c->of = tokio__calloc(n, sizeof(*c->of))) == NULL)
        return -1;
    for (size_t i = 0; i < n; i++) {
        /* sacct capitalizes (JobIDRaw); the reference lower-cased */
        for (char *p = fields[i]; *p; p++)
            if (*p >= 'A' && *p <= 'Z')
                *p = (char)(*p - 'A' + 'a');
        c->of[i] = (size_t)-1;
        if (fields[i][0] == '\0')
            continue;
        for (size_t k = 0; k < c->n && c->of[i] == (size_t)-1; k++)
            if (strcmp(str_at(s, c->key[k]), fields[i]) == 0)
                c->of[i] = k;
        if (c->of[i] == (size_t)-1) {
            if (pool_add(&s->pool, fields[i], strlen(fields[i]),
                         &c->key[c->n]) < 0)
                return -1;
            c->of[i] = c->n++;
        }
    }
    return 0;
}

/* One task line, split into the header's number of fields. */
static int
read_task(struct tokio_slurm *s, const struct columns *c, char **fields,
          const char **vals, const struct origin *o)
{
    size_t t;

    for (size_t i = 0; i < c->n_header; i++)
        if (c->of[i] != (size_t)-1)
            vals[c->of[i]] = fields[i];
    /* a repeated task id replaces the earlier line, as there */
    if (task_begin(s, fields[0], strlen(fields[0]), &t) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s' line "
                            "%zu", o->name, o->lineno);
    for (size_t k = 0; k < c->n; k++) {
        struct field *f = field_add(s, t, c->key[k]);
        if (f == NULL ||
            pool_add(&s->pool, vals[k], strlen(vals[k]), &f->val) < 0)
            return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s' "
                                "line %zu", o->name, o->lineno);
        f->kind = V_TEXT;
        f->n = strlen(vals[k]);
    }
    return task_end(s, t, o);
}

static int
parse_sacct(struct tokio_slurm *s, char *text, size_t len, const char *name)
{
    char **fields = NULL;
    const char **vals = NULL;
    struct columns cols = { NULL, NULL, 0, 0 };
    size_t n_fields = 0, cap_fields = 0;
    struct origin o = { name, 0 };
    int rc = TOKIO_OK;

    for (char *line = text; line < text + len && rc == TOKIO_OK;) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        char *next = nl ? nl + 1 : text + len;
        size_t ll = (size_t)((nl ? nl : text + len) - line);
        o.lineno++;
        if (ll > 0 && line[ll - 1] == '\r')
            ll--;
        line[ll] = '\0';
        if (memchr(line, '\0', ll) != NULL) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: NUL byte in "
                              "sacct text", name, o.lineno);
            break;
        }
        if (!tokio__utf8_valid(line, ll)) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: invalid UTF-8 "
                              "in sacct text", name, o.lineno);
            break;
        }
        if (o.lineno == 1) {
            if (ll == 0) {
                rc = tokio__error(TOKIO_EFORMAT, "'%s' line 1: empty, "
                                  "expected the sacct header", name);
                break;
            }
            if (split_pipes(line, &fields, &cap_fields, &n_fields) < 0 ||
                read_header(s, &cols, fields, n_fields) < 0 ||
                (cols.n > 0 &&
                 (vals = tokio__calloc(cols.n, sizeof(*vals))) == NULL))
                goto oom;
        } else if (ll > 0) {
            if (split_pipes(line, &fields, &cap_fields, &n_fields) < 0)
                goto oom;
            if (n_fields != cols.n_header) {
                rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %zu fields "
                                  "where the header has %zu", name, o.lineno,
                                  n_fields, cols.n_header);
                break;
            }
            rc = read_task(s, &cols, fields, vals, &o);
        }
        line = next;
    }
    if (o.lineno == 0)
        rc = tokio__error(TOKIO_EFORMAT, "'%s': empty, expected sacct text "
                          "or JSON", name);
    free(cols.key);
    free(cols.of);
    free(fields);
    free(vals);
    return rc;
oom:
    free(cols.key);
    free(cols.of);
    free(fields);
    free(vals);
    return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s' line %zu",
                        name, o.lineno);
}

/* ---- JSON ------------------------------------------------------------ */

/*
 * The tasks of a JSON tree into `s`.  A caller's JSON is borrowed, so
 * other values are copied; JSON we parsed ourselves (`ours`) is shared.
 */
static int
tasks_from_json(struct tokio_slurm *s, const json_t *json, int ours,
                const char *name)
{
    struct origin o = { name, 0 };
    const char *id, *key;
    json_t *task, *v;
    int rc;

    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "'%s': Slurm JSON must be an "
                            "object of tasks", name);
    json_object_foreach((json_t *)json, id, task) {
        size_t t;
        if (!json_is_object(task))
            return tokio__error(TOKIO_EFORMAT, "'%s' task '%.100s': not an "
                                "object", name, id);
        if (task_begin(s, id, strlen(id), &t) < 0)
            goto oom;
        json_object_foreach(task, key, v) {
            size_t k;
            struct field *f;
            if (pool_add(&s->pool, key, strlen(key), &k) < 0 ||
                (f = field_add(s, t, k)) == NULL)
                goto oom;
            if (json_is_string(v)) {
                f->kind = V_TEXT;
                f->n = json_string_length(v);
                if (pool_add(&s->pool, json_string_value(v), f->n,
                             &f->val) < 0)
                    goto oom;
            } else {
                f->kind = V_JSON;
                f->json = ours ? json_incref(v) : json_deep_copy(v);
                if (f->json == NULL)
                    goto oom;
            }
        }
        if ((rc = task_end(s, t, &o)) < 0)
            return rc;
    }
    return TOKIO_OK;
oom:
    return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
}

/*
 * The next string of the JSON text copied to the pool's end, not yet
 * added (the caller adds it, or leaves it to be overwritten): its text
 * in *str, length in *n.  0, TOKIO_EFORMAT, TOKIO_ENOMEM.
 */
static int
scan_string(struct tokio_slurm *s, struct tokio__jscan *js, char **str,
            size_t *n)
{
    /* the reader wants room for the rest of the text */
    if (pool_reserve(&s->pool, (size_t)(js->end - js->p) +
                                   TOKIO__JSCAN_SLACK) < 0)
        return TOKIO_ENOMEM;
    *str = s->pool.s + s->pool.len;
    return tokio__jscan_string(js, *str, n);
}

/* The field named by the string at the pool's end (`len` bytes) of task
 * `t`: the task's own when it has one so named (a repeated key), else a
 * new one.  NULL when out of memory or when the task has too many fields
 * (*many set). */
static struct field *
scan_field(struct tokio_slurm *s, size_t t, const char *key, size_t len,
           int *many)
{
    const struct task *task = &s->tasks[t];

    for (size_t i = 0; i < task->n_fields; i++) {
        struct field *f = &s->fields[task->first + i];
        if (strcmp(str_at(s, f->key), key) == 0)
            return f;
    }
    if (task->n_fields >= MAX_SCAN_FIELDS) {
        *many = 1;
        return NULL;
    }
    struct field *f = field_add(s, t, s->pool.len);
    if (f != NULL)
        s->pool.len += len + 1;
    return f;
}

/* One value of a task (the key read): a string or a list of strings. */
static int
scan_value(struct tokio_slurm *s, struct tokio__jscan *js, struct field *f)
{
    char *str;
    size_t n, used;
    int rc;

    if (tokio__jscan_peek(js) != '[') {
        if ((rc = scan_string(s, js, &str, &n)) < 0)
            return rc;
        f->kind = V_TEXT;
        f->n = n;
        f->val = s->pool.len;
        s->pool.len += n + 1;
        return TOKIO_OK;
    }
    if (pool_reserve(&s->pool, (size_t)(js->end - js->p) +
                                   TOKIO__JSCAN_SLACK) < 0)
        return TOKIO_ENOMEM;
    if ((rc = tokio__jscan_strings(js, s->pool.s + s->pool.len, &n,
                                   &used)) < 0)
        return rc;
    f->kind = V_LIST;
    f->val = s->pool.len;
    f->n = n;
    s->pool.len += used;
    return TOKIO_OK;
}

/*
 * A JSON cache of the usual shape, without a tree: an object of task
 * objects whose values are strings or lists of strings.  TOKIO_EFORMAT
 * for anything else (the caller then asks jansson), TOKIO_ENOMEM.
 */
static int
scan_cache(struct tokio_slurm *s, const char *text, size_t len,
           const char *name)
{
    struct tokio__jscan js;
    struct origin o = { name, 0 };
    char *str;
    size_t n;
    int rc, more, many = 0;

    tokio__jscan_init(&js, text, len, name);
    if ((rc = tokio__jscan_eat(&js, '{')) < 0)
        return rc;
    if (tokio__jscan_peek(&js) == '}') {
        js.p++;
        return tokio__jscan_end(&js);
    }
    do {
        size_t t;
        if ((rc = scan_string(s, &js, &str, &n)) < 0)
            return rc;
        if (task_begin(s, str, n, &t) < 0)
            return TOKIO_ENOMEM;
        if ((rc = tokio__jscan_eat(&js, ':')) < 0 ||
            (rc = tokio__jscan_eat(&js, '{')) < 0)
            return rc;
        if (tokio__jscan_peek(&js) == '}') {
            js.p++;
        } else {
            do {
                struct field *f;
                if ((rc = scan_string(s, &js, &str, &n)) < 0 ||
                    (rc = tokio__jscan_eat(&js, ':')) < 0)
                    return rc;
                if ((f = scan_field(s, t, str, n, &many)) == NULL)
                    return many ? TOKIO_EFORMAT : TOKIO_ENOMEM;
                if ((rc = scan_value(s, &js, f)) < 0)
                    return rc;
            } while ((more = tokio__jscan_next(&js, '}')) == 1);
            if (more < 0)
                return more;
        }
        if ((rc = task_end(s, t, &o)) < 0)
            return rc;
    } while ((more = tokio__jscan_next(&js, '}')) == 1);
    return more < 0 ? more : tokio__jscan_end(&js);
}

static void
clear_table(struct tokio_slurm *s)
{
    for (size_t i = 0; i < s->n_fields; i++)
        json_decref(s->fields[i].json);
    free(s->pool.s);
    free(s->fields);
    free(s->tasks);
    free(s->slots);
    memset(s, 0, sizeof(*s));
}

/* A JSON cache: the fast reader, or jansson for what it does not read. */
static int
parse_json(struct tokio_slurm *s, const char *buf, size_t len,
           const char *name)
{
    int rc;

    if ((rc = scan_cache(s, buf, len, name)) != TOKIO_EFORMAT) {
        if (rc == TOKIO_ENOMEM)
            return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                                name);
        return rc;
    }
    clear_table(s);
    json_t *json;
    if ((rc = tokio__json_parse_named(&json, buf, len, 0, name)) < 0)
        return rc;
    rc = tasks_from_json(s, json, 1, name);
    json_decref(json);
    return rc;
}

/* Parse a whole buffer (modified: lines are cut in place). */
static int
parse_buffer(struct tokio_slurm **out, char *buf, size_t len,
             const char *name)
{
    struct tokio_slurm *s = NULL;
    size_t i = 0;
    int rc;

    *out = NULL;
    if ((rc = new_table(&s, name)) < 0)
        return rc;
    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
                       buf[i] == '\r'))
        i++;
    /* the reference tried JSON first; sacct text never starts with '{' */
    if (i < len && buf[i] == '{')
        rc = parse_json(s, buf, len, name);
    else
        rc = parse_sacct(s, buf, len, name);
    if (rc < 0) {
        tokio_slurm_free(s);
        return rc;
    }
    built(s);
    *out = s;
    return TOKIO_OK;
}

static int
read_input(struct tokio_slurm **out, struct tokio_input *in)
{
    unsigned char *buf = NULL;
    size_t len = 0;
    int rc;

    if ((rc = tokio_input_read_all(in, 0, &buf, &len)) < 0)
        return rc;
    rc = parse_buffer(out, (char *)buf, len, tokio_input_name(in));
    free(buf);
    return rc;
}

int
tokio_slurm_open(struct tokio_slurm **out, const char *path)
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
tokio_slurm_open_mem(struct tokio_slurm **out, const void *buf, size_t len,
                     const char *name)
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

/* ---- running sacct --------------------------------------------------- */

static int
query(struct tokio_slurm **out, const char *const *argv)
{
    char *buf = NULL;
    size_t len = 0;
    int rc;

    *out = NULL;
    if ((rc = tokio__run_capture(argv, "Slurm's 'sacct'", 0, &buf,
                                 &len)) < 0)
        return rc;
    if (len == 0)
        rc = new_table(out, "sacct") < 0 ? TOKIO_ENOMEM : TOKIO_OK;
    else
        rc = parse_buffer(out, buf, len, "sacct output");
    free(buf);
    return rc;
}

int
tokio_slurm_query(struct tokio_slurm **out, const char *jobid)
{
    char jobs[256];
    int rc;

    *out = NULL;
    if (jobid == NULL || *jobid == '\0' || strlen(jobid) > 200)
        return tokio__error(TOKIO_EINVAL, "a Slurm job id is required");
    snprintf(jobs, sizeof(jobs), "%s", jobid);
    const char *argv[] = { SACCT, "--jobs", jobs, QUERY_FORMAT,
                           "--parsable2", NULL };
    if ((rc = query(out, argv)) < 0)
        return rc;
    if ((*out)->n_tasks == 0) {
        tokio_slurm_free(*out);
        *out = NULL;
        return tokio__error(TOKIO_ENOTFOUND, "sacct knows no job '%s'",
                            jobid);
    }
    return TOKIO_OK;
}

int
tokio_slurm_jobs_running_between(struct tokio_slurm **out, int64_t start,
                                 int64_t end, const char *const *keys,
                                 size_t n_keys)
{
    static const char *const default_keys[] = { "jobidraw", "start", "end" };
    char t0[32], t1[32];
    struct sbuf fmt = { NULL, 0, 0 };
    int rc;

    *out = NULL;
    if (keys == NULL) {
        keys = default_keys;
        n_keys = 3;
    }
    if (tokio_time_format(t0, sizeof(t0), start, TIME_FORMAT) < 0 ||
        tokio_time_format(t1, sizeof(t1), end, TIME_FORMAT) < 0)
        return tokio__error(TOKIO_EINVAL, "start or end time out of range");
    if (n_keys == 0)
        return tokio__error(TOKIO_EINVAL, "no sacct fields asked for");
    for (size_t i = 0; i < n_keys; i++)
        if ((i > 0 && sbuf_add(&fmt, ",", 1) < 0) ||
            sbuf_add(&fmt, keys[i], strlen(keys[i])) < 0) {
            free(fmt.s);
            return tokio__error(TOKIO_ENOMEM, "out of memory");
        }
    const char *argv[] = { SACCT, "--parsable", "--starttime", t0,
                           "--endtime", t1, "--state", "R", "--allusers",
                           "--format", fmt.s, NULL };
    rc = query(out, argv);
    free(fmt.s);
    return rc;
}

int
tokio_slurm_from_json(struct tokio_slurm **out, const json_t *json)
{
    struct tokio_slurm *s = NULL;
    int rc;

    *out = NULL;
    if ((rc = new_table(&s, "JSON")) < 0)
        return rc;
    if ((rc = tasks_from_json(s, json, 0, "JSON")) < 0) {
        tokio_slurm_free(s);
        return rc;
    }
    built(s);
    *out = s;
    return TOKIO_OK;
}

/* ---- accessors ------------------------------------------------------- */

size_t
tokio_slurm_count(const struct tokio_slurm *s)
{
    return s->n_tasks;
}

const char *
tokio_slurm_task_id(const struct tokio_slurm *s, size_t i)
{
    return i < s->n_tasks ? str_at(s, s->tasks[i].id) : NULL;
}

/* Task `t` as a new JSON object; NULL when out of memory. */
static json_t *
task_to_json(const struct tokio_slurm *s, size_t t)
{
    const struct task *task = &s->tasks[t];
    json_t *obj = json_object(), *v = NULL;

    for (size_t i = 0; i < task->n_fields && obj != NULL; i++) {
        const struct field *f = &s->fields[task->first + i];
        if (f->kind == V_TEXT) {
            v = json_stringn_nocheck(str_at(s, f->val), f->n);
        } else if (f->kind == V_JSON) {
            v = json_deep_copy(f->json);
        } else if ((v = json_array()) != NULL) {
            const char *name = str_at(s, f->val);
            for (size_t k = 0; k < f->n; k++) {
                size_t len = strlen(name);
                if (json_array_append_new(v, json_stringn_nocheck(name,
                                                                  len)) < 0) {
                    json_decref(v);
                    v = NULL;
                    break;
                }
                name += len + 1;
            }
        }
        if (v == NULL || json_object_set_new(obj, str_at(s, f->key), v) < 0) {
            json_decref(obj);
            obj = NULL;
        }
    }
    return obj;
}

json_t *
tokio_slurm_task_json(const struct tokio_slurm *s, size_t i)
{
    if (i >= s->n_tasks)
        return NULL;
    json_t *obj = task_to_json(s, i);
    if (obj == NULL)
        tokio__error(TOKIO_ENOMEM, "out of memory serializing Slurm task "
                     "'%.100s'", str_at(s, s->tasks[i].id));
    return obj;
}

static int
task_of_job(const char *id, const char *jobid)
{
    size_t n = strlen(jobid);
    return strncmp(id, jobid, n) == 0 && (id[n] == '\0' || id[n] == '.');
}

int
tokio_slurm_select_job(struct tokio_slurm *s, const char *jobid)
{
    size_t keep = 0;

    for (size_t i = 0; i < s->n_tasks; i++)
        keep += task_of_job(str_at(s, s->tasks[i].id), jobid);
    if (keep == 0)
        return tokio__error(TOKIO_ENOTFOUND, "no task of job '%s' among %zu "
                            "Slurm tasks", jobid, s->n_tasks);
    /* the fields of dropped tasks stay in the arrays until the free */
    keep = 0;
    for (size_t i = 0; i < s->n_tasks; i++)
        if (task_of_job(str_at(s, s->tasks[i].id), jobid))
            s->tasks[keep++] = s->tasks[i];
    s->n_tasks = keep;
    return TOKIO_OK;
}

int
tokio_slurm_get_job_ids(const struct tokio_slurm *s, const char ***ids_out,
                        size_t *n_out)
{
    const char **ids = NULL;
    size_t n = 0;

    *ids_out = NULL;
    *n_out = 0;
    if (s->n_tasks > 0 &&
        (ids = tokio__calloc(s->n_tasks, sizeof(*ids))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory listing job ids");
    for (size_t i = 0; i < s->n_tasks; i++)
        if (strchr(str_at(s, s->tasks[i].id), '.') == NULL)
            ids[n++] = str_at(s, s->tasks[i].id);
    if (n == 0) {
        free(ids);
        ids = NULL;
    }
    *ids_out = ids;
    *n_out = n;
    return TOKIO_OK;
}

static int
strp_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
tokio_slurm_get_job_nodes(const struct tokio_slurm *s,
                          const char ***nodes_out, size_t *n_out)
{
    const char **nodes = NULL;
    size_t total = 0, n = 0;

    *nodes_out = NULL;
    *n_out = 0;
    for (size_t i = 0; i < s->n_tasks; i++) {
        const struct field *f = task_role(s, i, R_NODELIST);
        if (f != NULL && f->kind == V_LIST)
            total += f->n;
    }
    if (total == 0)
        return TOKIO_OK;
    if ((nodes = tokio__calloc(total, sizeof(*nodes))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory listing %zu "
                            "nodes", total);
    for (size_t i = 0; i < s->n_tasks; i++) {
        const struct field *f = task_role(s, i, R_NODELIST);
        if (f == NULL || f->kind != V_LIST)
            continue;
        const char *name = str_at(s, f->val);
        for (size_t k = 0; k < f->n; k++) {
            nodes[n++] = name;
            name += strlen(name) + 1;
        }
    }
    qsort(nodes, n, sizeof(*nodes), strp_cmp);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || strcmp(nodes[u - 1], nodes[i]) != 0)
            nodes[u++] = nodes[i];
    *nodes_out = nodes;
    *n_out = u;
    return TOKIO_OK;
}

int
tokio_slurm_get_job_startend(const struct tokio_slurm *s, int64_t *start_out,
                             int64_t *end_out)
{
    int have_start = 0, have_end = 0;
    int64_t start = 0, end = 0;

    for (size_t i = 0; i < s->n_tasks; i++) {
        const struct task *t = &s->tasks[i];
        if (t->has_start && (!have_start || t->start < start)) {
            start = t->start;
            have_start = 1;
        }
        if (t->has_end && (!have_end || t->end > end)) {
            end = t->end;
            have_end = 1;
        }
    }
    if (!have_start || !have_end)
        return tokio__error(TOKIO_ENOTFOUND, "no start and end time among "
                            "%zu Slurm tasks", s->n_tasks);
    *start_out = start;
    *end_out = end;
    return TOKIO_OK;
}

/* ---- serialization --------------------------------------------------- */

int
tokio_slurm_to_json(const struct tokio_slurm *s, json_t **out)
{
    json_t *all = json_object();

    for (size_t i = 0; i < s->n_tasks && all != NULL; i++) {
        json_t *task = task_to_json(s, i);
        if (task == NULL ||
            json_object_set_new(all, str_at(s, s->tasks[i].id), task) < 0) {
            json_decref(all);
            all = NULL;
        }
    }
    if ((*out = all) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory serializing %zu "
                            "Slurm tasks", s->n_tasks);
    return TOKIO_OK;
}

/* Task `t` as task_to_json() makes it, its keys sorted. */
static int
write_task(struct tokio__jstream *js, const struct tokio_slurm *s, size_t t)
{
    const struct task *task = &s->tasks[t];
    struct tokio__jkey *keys = tokio__calloc(task->n_fields + 1,
                                             sizeof(*keys));

    if (keys == NULL)
        return TOKIO_ENOMEM;
    for (size_t i = 0; i < task->n_fields; i++)
        keys[i] = (struct tokio__jkey){
            str_at(s, s->fields[task->first + i].key), task->first + i };
    tokio__jkeys_sort(keys, task->n_fields);
    tokio__jstream_begin(js);
    for (size_t k = 0; k < task->n_fields; k++) {
        const struct field *f = &s->fields[keys[k].i];
        if (!tokio__jkeys_last(keys, task->n_fields, k))
            continue;
        tokio__jstream_key(js, keys[k].s, strlen(keys[k].s));
        if (f->kind == V_TEXT) {
            tokio__jstream_string(js, str_at(s, f->val), f->n);
        } else if (f->kind == V_JSON) {
            tokio__jstream_value(js, f->json);
        } else {
            const char *name = str_at(s, f->val);
            tokio__jstream_begin_list(js);
            for (size_t n = 0; n < f->n; n++) {
                size_t len = strlen(name);
                tokio__jstream_item(js);
                tokio__jstream_string(js, name, len);
                name += len + 1;
            }
            tokio__jstream_end(js);
        }
    }
    tokio__jstream_end(js);
    free(keys);
    return TOKIO_OK;
}

int
tokio_slurm_write_json(const struct tokio_slurm *s, FILE *fp, unsigned flags)
{
    struct tokio__jkey *ids = NULL;
    struct tokio__jstream *js = NULL;
    json_t *j = NULL;
    int rc = TOKIO_OK;

    /* unsorted, the tree's order is the tasks' */
    if (!(flags & TOKIO_JSON_SORT_KEYS)) {
        if ((rc = tokio_slurm_to_json(s, &j)) < 0)
            return rc;
        rc = tokio_json_write(fp, j, flags);
        json_decref(j);
        return rc;
    }
    if ((ids = tokio__calloc(s->n_tasks + 1, sizeof(*ids))) == NULL ||
        (js = tokio__jstream_open(fp, flags)) == NULL) {
        free(ids);
        return tokio__error(TOKIO_ENOMEM, "out of memory serializing %zu "
                            "Slurm tasks", s->n_tasks);
    }
    for (size_t i = 0; i < s->n_tasks; i++)
        ids[i] = (struct tokio__jkey){ str_at(s, s->tasks[i].id), i };
    tokio__jkeys_sort(ids, s->n_tasks);
    tokio__jstream_begin(js);
    for (size_t k = 0; k < s->n_tasks && rc == TOKIO_OK; k++) {
        if (!tokio__jkeys_last(ids, s->n_tasks, k))
            continue;
        tokio__jstream_key(js, ids[k].s, strlen(ids[k].s));
        rc = write_task(js, s, ids[k].i);
    }
    tokio__jstream_end(js);
    free(ids);
    int crc = tokio__jstream_close(js);
    if (rc < 0)
        return tokio__error(rc, "out of memory serializing %zu Slurm tasks",
                            s->n_tasks);
    return crc;
}

/* Header of the native form: jobidraw, then the first task's keys. */
static int
native_columns(const struct tokio_slurm *s, const char ***cols_out,
               size_t *n_out)
{
    size_t n = 1;
    const char **cols;

    *cols_out = NULL;
    *n_out = 0;
    if (s->n_tasks == 0)
        return TOKIO_OK;
    const struct task *first = &s->tasks[0];
    cols = tokio__calloc(first->n_fields + 1, sizeof(*cols));
    if (cols == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing Slurm "
                            "tasks");
    cols[0] = KEY_JOBIDRAW;
    for (size_t i = 0; i < first->n_fields; i++) {
        const char *key = str_at(s, s->fields[first->first + i].key);
        if (strcmp(key, KEY_JOBIDRAW) != 0)
            cols[n++] = key;
    }
    *cols_out = cols;
    *n_out = n;
    return TOKIO_OK;
}

/*
 * The text of one cell of the native form into `b` (reset first).
 * Non-string values can only come from a JSON cache; they are written as
 * Python's str() would.
 */
static int
cell_text(struct sbuf *b, const struct tokio_slurm *s, const struct field *f)
{
    char num[40];
    int n;

    b->len = 0;
    if (sbuf_add(b, "", 0) < 0)
        return -1;
    if (f->kind == V_TEXT) {
        const char *text = str_at(s, f->val);
        return sbuf_add(b, text, strlen(text));
    }
    if (f->kind == V_LIST) {
        const char *name = str_at(s, f->val);
        for (size_t i = 0; i < f->n; i++) {
            size_t len = strlen(name);
            if ((i > 0 && sbuf_add(b, ",", 1) < 0) ||
                sbuf_add(b, name, len) < 0)
                return -1;
            name += len + 1;
        }
        return 0;
    }
    const json_t *v = f->json;
    switch (json_typeof(v)) {
    case JSON_STRING:
        return sbuf_add(b, json_string_value(v), json_string_length(v));
    case JSON_ARRAY:
        for (size_t i = 0; i < json_array_size(v); i++) {
            const json_t *item = json_array_get(v, i);
            const char *str = json_is_string(item)
                                  ? json_string_value(item) : "";
            if ((i > 0 && sbuf_add(b, ",", 1) < 0) ||
                sbuf_add(b, str, strlen(str)) < 0)
                return -1;
        }
        return 0;
    case JSON_INTEGER:
        n = snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
                     json_integer_value(v));
        return sbuf_add(b, num, (size_t)n);
    case JSON_REAL:
        tokio_format_double(num, sizeof(num), json_real_value(v));
        return sbuf_add(b, num, strlen(num));
    case JSON_TRUE:
        return sbuf_add(b, "True", 4);
    case JSON_FALSE:
        return sbuf_add(b, "False", 5);
    case JSON_NULL:
        return sbuf_add(b, "None", 4);
    default:
        return 0;
    }
}

/* All cells of the native form, row-major: n_tasks x n_cols strings. */
static int
native_cells(const struct tokio_slurm *s, const char *const *cols,
             size_t n_cols, char ***cells_out)
{
    char **cells = NULL;
    struct sbuf b = { NULL, 0, 0 };
    int rc = TOKIO_OK;

    *cells_out = NULL;
    if (s->n_tasks == 0)
        return TOKIO_OK;
    if ((cells = tokio__calloc(s->n_tasks * n_cols, sizeof(*cells))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing Slurm "
                            "tasks");
    for (size_t i = 0; i < s->n_tasks && rc == 0; i++)
        for (size_t c = 0; c < n_cols && rc == 0; c++) {
            const struct field *f = task_field(s, i, cols[c]);
            if (f == NULL)
                rc = tokio__error(TOKIO_EFORMAT, "Slurm task '%s' has no "
                                  "'%s' field, which the first task has",
                                  str_at(s, s->tasks[i].id), cols[c]);
            else if (cell_text(&b, s, f) < 0 ||
                     (cells[i * n_cols + c] = tokio__strdup(b.s)) == NULL)
                rc = tokio__error(TOKIO_ENOMEM, "out of memory writing "
                                  "Slurm tasks");
        }
    free(b.s);
    if (rc < 0) {
        tokio_slurm_free_names(cells, s->n_tasks * n_cols);
        return rc;
    }
    *cells_out = cells;
    return TOKIO_OK;
}

int
tokio_slurm_write_native(const struct tokio_slurm *s, FILE *fp)
{
    const char **cols = NULL;
    char **cells = NULL;
    size_t n_cols = 0;
    int rc;

    if ((rc = native_columns(s, &cols, &n_cols)) < 0)
        return rc;
    if ((rc = native_cells(s, cols, n_cols, &cells)) < 0) {
        free(cols);
        return rc;
    }
    for (size_t c = 0; c < n_cols; c++)
        fprintf(fp, "%s%s", c ? "|" : "", cols[c]);
    for (size_t i = 0; i < s->n_tasks; i++) {
        fputc('\n', fp);
        for (size_t c = 0; c < n_cols; c++)
            fprintf(fp, "%s%s", c ? "|" : "", cells[i * n_cols + c]);
    }
    tokio_slurm_free_names(cells, s->n_tasks * n_cols);
    free(cols);
    return tokio__write_check(fp, "cannot write Slurm tasks");
}


/* pandas 1.5's default NA strings (read_csv na_values). */
static int
is_na(const char *s)
{
    static const char *const na[] = {
        "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN",
        "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN",
        "n/a", "nan", "null"
    };
    for (size_t i = 0; i < sizeof(na) / sizeof(na[0]); i++)
        if (strcmp(s, na[i]) == 0)
            return 1;
    return 0;
}

static int
is_int_text(const char *s, int64_t *v)
{
    char *end;
    const char *p = s + (*s == '+' || *s == '-');

    if (*p < '0' || *p > '9')
        return 0;
    for (const char *q = p; *q; q++)
        if (*q < '0' || *q > '9')
            return 0;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno != 0)
        return 0;
    *v = x;
    return 1;
}

static int
is_float_text(const char *s, double *v)
{
    const char *p = s + (*s == '+' || *s == '-');
    char *end;
    int digits = 0;

    if (strcmp(p, "inf") == 0 || strcmp(p, "Infinity") == 0 ||
        strcmp(p, "INF") == 0) {
        *v = *s == '-' ? -HUGE_VAL : HUGE_VAL;
        return 1;
    }
    /* decimal only: strtod would also take hex, which pandas does not */
    for (const char *q = p; *q >= '0' && *q <= '9'; q++)
        digits++;
    const char *q = p + digits;
    if (*q == '.')
        for (q++; *q >= '0' && *q <= '9'; q++)
            digits++;
    if (digits == 0)
        return 0;
    if (*q == 'e' || *q == 'E') {
        q++;
        q += *q == '+' || *q == '-';
        if (*q < '0' || *q > '9')
            return 0;
        while (*q >= '0' && *q <= '9')
            q++;
    }
    if (*q != '\0')
        return 0;
    *v = strtod(s, &end);
    return 1;
}

enum col_kind { COL_INT, COL_FLOAT, COL_BOOL, COL_DATE, COL_TEXT };

static int
is_bool_text(const char *s, int *b)
{
    if (strcmp(s, "True") == 0 || strcmp(s, "TRUE") == 0 ||
        strcmp(s, "true") == 0)
        return *b = 1, 1;
    if (strcmp(s, "False") == 0 || strcmp(s, "FALSE") == 0 ||
        strcmp(s, "false") == 0)
        return *b = 0, 1;
    return 0;
}

/* How pandas' read_csv types a column (parse_dates for start/end). */
static enum col_kind
column_kind(char *const *cells, size_t stride, size_t n, const char *name,
            int *has_na)
{
    int ints = 1, floats = 1, bools = 1, dates = 1;
    int64_t iv;
    double dv;
    int bv;

    *has_na = 0;
    int want_date = strcmp(name, KEY_START) == 0 ||
                    strcmp(name, KEY_END) == 0;
    for (size_t i = 0; i < n; i++) {
        const char *c = cells[i * stride];
        if (is_na(c)) {
            *has_na = 1;
            continue;
        }
        int64_t t;
        if (want_date && tokio_time_parse_format(c, TIME_FORMAT, &t) < 0)
            dates = 0;
        if (!is_int_text(c, &iv))
            ints = 0;
        if (!is_float_text(c, &dv))
            floats = 0;
        if (!is_bool_text(c, &bv))
            bools = 0;
    }
    if (want_date && dates)
        return COL_DATE;
    if (ints)
        return *has_na ? COL_FLOAT : COL_INT;
    if (floats)
        return COL_FLOAT;
    if (bools)
        return COL_BOOL;
    return COL_TEXT;
}

int
tokio_slurm_write_csv(const struct tokio_slurm *s, FILE *fp)
{
    const char **cols = NULL;
    char **cells = NULL;
    enum col_kind *kinds = NULL;
    size_t n_cols = 0;
    int rc;

    if ((rc = native_columns(s, &cols, &n_cols)) < 0)
        return rc;
    if ((rc = native_cells(s, cols, n_cols, &cells)) < 0) {
        free(cols);
        return rc;
    }
    if (n_cols > 0 && (kinds = tokio__calloc(n_cols, sizeof(*kinds))) == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory writing Slurm CSV");
        goto done;
    }
    for (size_t c = 0; c < n_cols; c++) {
        int has_na;
        kinds[c] = column_kind(cells + c, n_cols, s->n_tasks, cols[c],
                               &has_na);
    }
    for (size_t c = 0; c < n_cols; c++) {
        fputc(',', fp);
        tokio_csv_write_field(fp, cols[c], strlen(cols[c]));
    }
    fputc('\n', fp);
    for (size_t i = 0; i < s->n_tasks; i++) {
        fprintf(fp, "%zu", i);
        for (size_t c = 0; c < n_cols; c++) {
            const char *cell = cells[i * n_cols + c];
            char buf[64];
            int64_t iv = 0;
            double dv;
            int bv;
            fputc(',', fp);
            if (is_na(cell))
                continue;
            switch (kinds[c]) {
            case COL_DATE:
                /* pandas prints a datetime with a space, not 'T' */
                snprintf(buf, sizeof(buf), "%s", cell);
                if (strlen(buf) > 10 && buf[10] == 'T')
                    buf[10] = ' ';
                fputs(buf, fp);
                break;
            case COL_INT:
                is_int_text(cell, &iv);
                fprintf(fp, "%" PRId64, iv);
                break;
            case COL_FLOAT:
                is_float_text(cell, &dv);
                tokio_format_double(buf, sizeof(buf), dv);
                fputs(buf, fp);
                break;
            case COL_BOOL:
                is_bool_text(cell, &bv);
                fputs(bv ? "True" : "False", fp);
                break;
            case COL_TEXT:
                tokio_csv_write_field(fp, cell, strlen(cell));
                break;
            }
        }
        fputc('\n', fp);
    }
    rc = tokio__write_check(fp, "cannot write Slurm CSV");
done:
    free(kinds);
    tokio_slurm_free_names(cells, s->n_tasks * n_cols);
    free(cols);
    return rc;
}

void
tokio_slurm_free(struct tokio_slurm *s)
{
    if (s == NULL)
        return;
    clear_table(s);
    free(s);
}
