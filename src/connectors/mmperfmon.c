/*
 * src/connectors/mmperfmon.c - GPFS `mmperfmon query` outputs.  Mirrors
 * tokio.connectors.mmperfmon.Mmperfmon (pytokio 0.13): load_str() for the
 * text, load_multiple() for tarballs and directories, load_cache() for its
 * own JSON, save_cache() and to_dataframe(by_host/by_metric).
 *
 * One output is read as the reference does: legend lines give each column
 * number its host, counter and optional device ("host|sub|dev|counter");
 * a "Row Timestamp ..." header gives the column offsets (right-aligned:
 * a column runs from the end of the previous header word to the end of
 * its own); a data row is cut at those offsets.  mmperfmon wraps wide
 * queries into several tables with the same row numbers, so a row seen
 * again appends its cells to the first one; when the output ends, rows are
 * taken in row-number order and cell k belongs to legend entry k.
 *
 * The dict is a tree of nodes kept in one array, each node linked to its
 * children in insertion order, and one hash table from (parent, key) to
 * node: a key is a timestamp at the first level, an interned string below.
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/mmperfmon*; goldens in
 * ../shared/testdata/golden/pytokio/cache_mmperfmon/.
 *
 * Differs from pytokio, all on input mmperfmon does not print:
 *  - a line that is not blank, "Legend:", a legend entry, a table header
 *    or a data row, a data row before any header, an empty or non-numeric
 *    cell, a bad timestamp or row number, a row with more cells than the
 *    legend has entries, a counter holding both device values and a plain
 *    value, invalid UTF-8 in a name: TOKIO_EFORMAT naming the file (and
 *    archive member) and line, where the reference ignored the line,
 *    raised, or kept the last value;
 *  - a malformed JSON file is TOKIO_EFORMAT (the reference fell back to
 *    reading it as text, i.e. to an empty result); a JSON file merges into
 *    existing timestamps (the reference replaced them);
 *  - columns are cut at byte offsets (Python: characters), lines end at
 *    "\n", only ASCII whitespace is stripped;
 *  - a directory is read in sorted name order (os.walk: directory order);
 *    tar members that are gzip or bzip2 files are decompressed;
 *  - in CSV, two timestamps with the same local time (the hour repeated
 *    when summer time ends) stay two rows (pandas kept one).
 */
#include "tokio/connectors/mmperfmon.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "tokio/input.h"
#include "tokio/output.h"
#include "tokio/time.h"
#include "tokio/util.h"
#include "core/alloc.h"
#include "core/collection.h"
#include "core/error.h"
#include "core/wbuf.h"
#include "core/text.h"
#include "core/json.h"

#define NONE UINT32_MAX
/* legend numbers above this cannot be real column numbers */
#define LEGEND_MAX (1u << 16)
/* node kinds besides the public scalar kinds */
#define K_DICT 0

union val {
    int64_t i;
    double d;
    uint32_t s;     /* string id */
};

struct node {
    int64_t key;            /* timestamp, or string id */
    union val v;
    uint32_t parent, first, last, next;     /* 0: none (0 is the root) */
    uint32_t tab;           /* child table + 1, or 0: see node_get() */
    uint8_t kind;           /* K_DICT or enum tokio_mmperfmon_kind */
};

/* A hash of a node's children: node indexes, 0 empty. */
struct ctab {
    uint32_t *slots;
    uint32_t cap, n;
};

struct strtab {
    char *buf;              /* NUL-ended strings back to back */
    size_t len, cap;
    size_t *off;            /* id -> offset in buf */
    uint32_t *plain;        /* id -> length, top bit: JSON needs escapes */
    uint32_t *slots;        /* hash: id + 1, 0 empty */
    size_t n, cap_ids, nslots;
};

struct tokio_mmperfmon {
    struct node *nodes;
    uint32_t nnodes, cap;
    struct ctab *tabs;
    size_t ntabs, captabs;
    /* the last timestamp, host and counter nodes put() found: a row's
     * cells mostly share them */
    int64_t last_ts;
    uint32_t last_t, last_host, last_h, last_counter, last_c;
    /* nodes from `fresh_from` on were made by the output being added;
     * stamp[device id]: the last such counter the device was put under */
    uint32_t fresh_from;
    uint32_t *stamp;
    size_t nstamp;
    size_t nts;             /* children of the root */
    struct strtab str;
};

/* ---- small helpers ---------------------------------------------------- */

static int
is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static inline void
strip(const char **s, size_t *len)
{
    const char *p = *s, *e = p + *len;
    const uint64_t spaces = 0x2020202020202020ULL;
    uint64_t w;

    /* fixed-width cells are mostly blanks: skip them 8 at a time */
    while (e - p >= 8 && (memcpy(&w, p, 8), w == spaces))
        p += 8;
    while (p < e && (*p == ' ' || tokio__py_space((unsigned char)*p)))
        p++;
    while (e > p && (e[-1] == ' ' || tokio__py_space((unsigned char)e[-1])))
        e--;
    *s = p;
    *len = (size_t)(e - p);
}

static uint64_t
mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static uint64_t
hash_bytes(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;

    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    return mix(h);
}

/* Grow `*p` (of `*cap` items of `size`) to hold `need`; 0 or -1. */
static int
grow(void *p, size_t *cap, size_t need, size_t size)
{
    void **pp = p;
    size_t n = *cap ? *cap : 16;
    void *q;

    if (need <= *cap)
        return 0;
    while (n < need)
        n *= 2;
    if ((q = tokio__reallocarray(*pp, n, size)) == NULL)
        return -1;
    *pp = q;
    *cap = n;
    return 0;
}

/* ---- interned strings ------------------------------------------------- */

static const char *
str_get(const struct tokio_mmperfmon *m, uint32_t id)
{
    return m->str.buf + m->str.off[id];
}

static int
str_grow_slots(struct strtab *t)
{
    size_t n = t->nslots ? t->nslots * 2 : 256;
    uint32_t *slots = tokio__calloc(n, sizeof(*slots));

    if (slots == NULL)
        return TOKIO_ENOMEM;
    for (size_t id = 0; id < t->n; id++) {
        const char *s = t->buf + t->off[id];
        size_t i = hash_bytes(s, strlen(s)) & (n - 1);

        while (slots[i] != 0)
            i = (i + 1) & (n - 1);
        slots[i] = (uint32_t)id + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = n;
    return TOKIO_OK;
}

/* Find `s` (no NUL inside), or add it when `add`; NONE when absent. */
static int
str_id(struct tokio_mmperfmon *m, const char *s, size_t len, int add,
       uint32_t *id_out)
{
    struct strtab *t = &m->str;
    size_t i;

    *id_out = NONE;
    if (t->nslots == 0 && !add)
        return TOKIO_OK;
    if ((t->n + 1) * 2 > t->nslots) {
        if (!add)
            goto lookup;
        if (str_grow_slots(t) < 0)
            return TOKIO_ENOMEM;
    }
lookup:
    i = hash_bytes(s, len) & (t->nslots - 1);
    for (; t->slots[i] != 0; i = (i + 1) & (t->nslots - 1)) {
        const char *o = t->buf + t->off[t->slots[i] - 1];

        if (strncmp(o, s, len) == 0 && o[len] == '\0') {
            *id_out = t->slots[i] - 1;
            return TOKIO_OK;
        }
    }
    if (!add)
        return TOKIO_OK;
    if (t->n >= NONE - 1)
        return TOKIO_ENOMEM;
    if (t->len + len + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        char *buf;

        while (cap < t->len + len + 1)
            cap *= 2;
        if ((buf = tokio__realloc(t->buf, cap)) == NULL)
            return TOKIO_ENOMEM;
        t->buf = buf;
        t->cap = cap;
    }
    if (t->n == t->cap_ids) {
        size_t cap = t->cap_ids ? t->cap_ids * 2 : 64;
        size_t *off = tokio__reallocarray(t->off, cap, sizeof(*off));
        uint32_t *plain;

        if (off == NULL)
            return TOKIO_ENOMEM;
        t->off = off;
        if ((plain = tokio__reallocarray(t->plain, cap,
                                         sizeof(*plain))) == NULL)
            return TOKIO_ENOMEM;
        t->plain = plain;
        t->cap_ids = cap;
    }
    if (len >= 0x80000000u)
        return TOKIO_ENOMEM;
    t->plain[t->n] = (uint32_t)len;
    for (size_t k = 0; k < len; k++)
        if ((unsigned char)s[k] < 0x20 || (unsigned char)s[k] > 0x7e ||
            s[k] == '"' || s[k] == '\\')
            t->plain[t->n] |= 0x80000000u;
    memcpy(t->buf + t->len, s, len);
    t->buf[t->len + len] = '\0';
    t->off[t->n] = t->len;
    t->len += len + 1;
    t->slots[i] = (uint32_t)t->n + 1;
    *id_out = (uint32_t)t->n++;
    return TOKIO_OK;
}

/* ---- the tree --------------------------------------------------------- */

static uint64_t
key_hash(int64_t key)
{
    return mix((uint64_t)key);
}

static void
tab_put(uint32_t *slots, uint32_t cap, const struct node *nodes, uint32_t k)
{
    size_t i = key_hash(nodes[k].key) & (cap - 1);

    while (slots[i] != 0)
        i = (i + 1) & (cap - 1);
    slots[i] = k;
}

/* (Re)build the child table of `parent` with room for `want` children. */
static int
tab_build(struct tokio_mmperfmon *m, uint32_t parent, uint32_t want)
{
    struct node *p = &m->nodes[parent];
    struct ctab *t;
    uint32_t cap = 32, *slots;

    while (cap < 2 * (size_t)want)
        cap *= 2;
    if ((slots = tokio__calloc(cap, sizeof(*slots))) == NULL)
        return TOKIO_ENOMEM;
    if (p->tab == 0) {
        if (grow(&m->tabs, &m->captabs, m->ntabs + 1, sizeof(*m->tabs)) < 0) {
            free(slots);
            return TOKIO_ENOMEM;
        }
        m->tabs[m->ntabs] = (struct ctab){ NULL, 0, 0 };
        p->tab = (uint32_t)++m->ntabs;
    }
    t = &m->tabs[p->tab - 1];
    t->n = 0;
    for (uint32_t k = p->first; k != 0; k = m->nodes[k].next, t->n++)
        tab_put(slots, cap, m->nodes, k);
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return TOKIO_OK;
}

/*
 * The child `key` of `parent`, or 0.  `*count_out` (may be NULL): when a
 * parent without a table was searched, how many children it has.
 */
static uint32_t
node_find_n(const struct tokio_mmperfmon *m, uint32_t parent, int64_t key,
            uint32_t *count_out)
{
    const struct node *p = &m->nodes[parent];
    uint32_t n = 0;

    if (p->tab != 0) {
        const struct ctab *t = &m->tabs[p->tab - 1];

        for (size_t i = key_hash(key) & (t->cap - 1); t->slots[i] != 0;
             i = (i + 1) & (t->cap - 1))
            if (m->nodes[t->slots[i]].key == key)
                return t->slots[i];
        n = t->n;
    } else {
        for (uint32_t k = p->first; k != 0; k = m->nodes[k].next, n++)
            if (m->nodes[k].key == key)
                return k;
    }
    if (count_out != NULL)
        *count_out = n;
    return 0;
}

static uint32_t
node_find(const struct tokio_mmperfmon *m, uint32_t parent, int64_t key)
{
    return node_find_n(m, parent, key, NULL);
}

/*
 * Add the child `key`, known to be absent, last under `parent` (a dict),
 * and to the parent's table if it has one; a parent grown long without
 * one gets it at its next node_get().
 */
static int
node_append(struct tokio_mmperfmon *m, uint32_t parent, int64_t key,
            uint32_t *idx_out)
{
    struct node *n;
    uint32_t k;

    if (m->nnodes >= NONE - 1)
        return TOKIO_ENOMEM;
    if (m->nnodes == m->cap) {
        uint32_t cap = m->cap * 2;
        struct node *nodes = tokio__reallocarray(m->nodes, cap,
                                                 sizeof(*nodes));
        if (nodes == NULL)
            return TOKIO_ENOMEM;
        m->nodes = nodes;
        m->cap = cap;
    }
    if (m->nodes[parent].tab != 0) {
        struct ctab *t = &m->tabs[m->nodes[parent].tab - 1];

        if (2 * (size_t)(t->n + 1) > t->cap &&
            tab_build(m, parent, t->n + 1) < 0)
            return TOKIO_ENOMEM;
    }
    k = m->nnodes++;
    n = &m->nodes[k];
    memset(n, 0, sizeof(*n));
    n->key = key;
    n->parent = parent;
    if (m->nodes[parent].last != 0)
        m->nodes[m->nodes[parent].last].next = k;
    else
        m->nodes[parent].first = k;
    m->nodes[parent].last = k;
    if (m->nodes[parent].tab != 0) {
        struct ctab *t = &m->tabs[m->nodes[parent].tab - 1];

        tab_put(t->slots, t->cap, m->nodes, k);
        t->n++;
    }
    if (parent == 0)
        m->nts++;
    *idx_out = k;
    return TOKIO_OK;
}

/*
 * The child `key` of `parent`, added last (a dict) if absent.  A parent
 * keeps its first children in its list only; from the ninth on, a table
 * of its own finds them.
 */
static int
node_get(struct tokio_mmperfmon *m, uint32_t parent, int64_t key,
         uint32_t *idx_out, int *created_out)
{
    uint32_t count = 0, k = node_find_n(m, parent, key, &count);

    *created_out = 0;
    if (k != 0) {
        *idx_out = k;
        return TOKIO_OK;
    }
    if (count >= 8) {
        uint32_t tab = m->nodes[parent].tab;

        if ((tab == 0 || 2 * (size_t)(count + 1) > m->tabs[tab - 1].cap) &&
            tab_build(m, parent, count + 1) < 0)
            return TOKIO_ENOMEM;
    }
    *created_out = 1;
    return node_append(m, parent, key, idx_out);
}

/*
 * Set timestamp/host/counter[/device] to a scalar.  TOKIO_EFORMAT (no
 * message) when the counter holds device values and gets a plain one or
 * the other way round; TOKIO_ENOMEM (no message).
 */
static int
put(struct tokio_mmperfmon *m, int64_t ts, uint32_t host, uint32_t counter,
    uint32_t device, int kind, union val v)
{
    uint32_t t, h, c;
    int created = 0, rc;

    if (m->last_t != 0 && m->last_ts == ts) {
        t = m->last_t;
    } else if ((rc = node_get(m, 0, ts, &t, &created)) < 0) {
        return rc;
    }
    if (m->last_h != 0 && m->nodes[m->last_h].parent == t &&
        m->last_host == host) {
        h = m->last_h;
    } else if ((rc = node_get(m, t, host, &h, &created)) < 0) {
        return rc;
    }
    if (m->last_c != 0 && m->nodes[m->last_c].parent == h &&
        m->last_counter == counter) {
        c = m->last_c;
        created = 0;
    } else if ((rc = node_get(m, h, counter, &c, &created)) < 0) {
        return rc;
    }
    m->last_ts = ts, m->last_t = t;
    m->last_host = host, m->last_h = h;
    m->last_counter = counter, m->last_c = c;
    if (device != NONE) {
        if (!created && m->nodes[c].kind != K_DICT)
            return TOKIO_EFORMAT;
        /* under a counter made during this output's rows, a device not
         * stamped with it yet is new: no search */
        if (c >= m->fresh_from && device < m->nstamp &&
            m->stamp[device] != c) {
            m->stamp[device] = c;
            rc = node_append(m, c, device, &c);
        } else {
            if (c >= m->fresh_from && device < m->nstamp)
                m->stamp[device] = c;
            rc = node_get(m, c, device, &c, &created);
        }
        if (rc < 0)
            return rc;
    } else if (!created && m->nodes[c].kind == K_DICT) {
        return TOKIO_EFORMAT;
    }
    m->nodes[c].kind = (uint8_t)kind;
    m->nodes[c].v = v;
    return TOKIO_OK;
}

int
tokio_mmperfmon_new(struct tokio_mmperfmon **out)
{
    struct tokio_mmperfmon *m;

    if (out == NULL)
        return tokio__error(TOKIO_EINVAL, "tokio_mmperfmon_new: no output");
    *out = NULL;
    if ((m = tokio__calloc(1, sizeof(*m))) == NULL ||
        (m->nodes = tokio__malloc(256 * sizeof(*m->nodes))) == NULL) {
        free(m);
        return tokio__error(TOKIO_ENOMEM, "out of memory for mmperfmon");
    }
    m->cap = 256;
    m->nnodes = 1;
    m->fresh_from = NONE;
    memset(&m->nodes[0], 0, sizeof(m->nodes[0]));
    *out = m;
    return TOKIO_OK;
}

void
tokio_mmperfmon_free(struct tokio_mmperfmon *m)
{
    if (m == NULL)
        return;
    free(m->nodes);
    for (size_t i = 0; i < m->ntabs; i++)
        free(m->tabs[i].slots);
    free(m->tabs);
    free(m->stamp);
    free(m->str.buf);
    free(m->str.off);
    free(m->str.plain);
    free(m->str.slots);
    free(m);
}

size_t
tokio_mmperfmon_count(const struct tokio_mmperfmon *m)
{
    return m != NULL ? m->nts : 0;
}

/* ---- parsing one output ----------------------------------------------- */

struct legend {
    uint32_t host, counter, counter_bytes, device;
    int set;
};

struct row {
    int64_t rowid, ts;
    uint32_t ncells;        /* cells seen, nulls included */
    uint32_t nstored;       /* cells kept */
    uint32_t line;          /* where the row first appeared */
};

struct cell {
    union val v;
    uint32_t row, col, line;
    uint8_t kind, bytes;
};

struct colpos {
    size_t start, stop;     /* stop SIZE_MAX: to the end of the line */
};

struct doc {
    struct tokio_mmperfmon *m;
    char where[512];        /* "'file'" or "'archive' member 'name'" */
    struct legend *legend;  /* by legend number */
    size_t nlegend;
    struct row *rows;
    size_t nrows, caprows;
    uint32_t *rowmap;       /* hash rowid -> row index + 1 */
    size_t nrowslots;
    struct cell *cells;
    size_t ncells, capcells;
    struct colpos *cols;
    size_t ncols, capcols;
    /* the last hour converted to epoch, to spare mktime() per row */
    int cache_key;
    int64_t cache_base;
};

static int
doc_error(const struct doc *d, size_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
doc_error(const struct doc *d, size_t line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return tokio__error(TOKIO_EFORMAT, "%s line %zu: %s", d->where, line,
                        msg);
}

static int
doc_oom(const struct doc *d)
{
    return tokio__error(TOKIO_ENOMEM, "%s: out of memory", d->where);
}

static void
doc_free(struct doc *d)
{
    free(d->legend);
    free(d->rows);
    free(d->rowmap);
    free(d->cells);
    free(d->cols);
}

/*
 * `^\s*(\d+):\s+([^|]+)\|([^|]+)\|(\S+)\s*$`: 1 and the parts if `s` is
 * a legend entry.
 */
static int
match_legend(const char *s, size_t len, uint64_t *num, const char **host,
             size_t *hostlen, const char **rest, size_t *restlen)
{
    size_t i = 0, j;

    while (i < len && tokio__py_space((unsigned char)s[i]))
        i++;
    if (i >= len || !is_digit(s[i]))
        return 0;
    *num = 0;
    for (; i < len && is_digit(s[i]); i++)
        *num = *num > LEGEND_MAX ? *num : *num * 10 + (uint64_t)(s[i] - '0');
    if (i >= len || s[i++] != ':' || i >= len || !tokio__py_space((unsigned char)s[i]))
        return 0;
    while (i < len && tokio__py_space((unsigned char)s[i]))
        i++;
    for (j = i; j < len && s[j] != '|'; j++)
        ;
    if (j == i || j >= len)
        return 0;
    *host = s + i;
    *hostlen = j - i;
    for (i = ++j; j < len && s[j] != '|'; j++)
        ;
    if (j == i || j >= len)
        return 0;
    i = j + 1;
    while (len > i && tokio__py_space((unsigned char)s[len - 1]))
        len--;
    if (i >= len)
        return 0;
    for (j = i; j < len; j++)
        if (tokio__py_space((unsigned char)s[j]))
            return 0;
    *rest = s + i;
    *restlen = len - i;
    return 1;
}

/* `^\s*Row\s+Timestamp` */
static int
match_header(const char *s, size_t len)
{
    size_t i = 0;

    while (i < len && tokio__py_space((unsigned char)s[i]))
        i++;
    if (len - i < 3 || memcmp(s + i, "Row", 3) != 0)
        return 0;
    i += 3;
    if (i >= len || !tokio__py_space((unsigned char)s[i]))
        return 0;
    while (i < len && tokio__py_space((unsigned char)s[i]))
        i++;
    return len - i >= 9 && memcmp(s + i, "Timestamp", 9) == 0;
}

/* "DDDD-DD-DD-DD:DD:DD" at s (19 bytes available) */
static int
is_stamp(const char *s)
{
    static const char pat[] = "0000-00-00-00:00:00";

    for (int i = 0; i < 19; i++)
        if (pat[i] == '0' ? !is_digit(s[i]) : s[i] != pat[i])
            return 0;
    return 1;
}

/*
 * `^\s*\d+\s+(\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d)\s+`: 1 if a data row, 2 if
 * a row that ends right after its timestamp (no cells: the reference
 * skips it), else 0.
 */
static int
match_row(const char *s, size_t len)
{
    size_t i = 0, j;

    while (i < len && tokio__py_space((unsigned char)s[i]))
        i++;
    for (j = i; j < len && is_digit(s[j]); j++)
        ;
    if (j == i || j >= len || !tokio__py_space((unsigned char)s[j]))
        return 0;
    while (j < len && tokio__py_space((unsigned char)s[j]))
        j++;
    if (len - j < 19 || !is_stamp(s + j))
        return 0;
    j += 19;
    if (j < len && tokio__py_space((unsigned char)s[j]))
        return 1;
    return j == len ? 2 : 0;
}

/*
 * The reference's get_col_pos(line, align='right'): words split at ' '
 * only; the first column runs from 0, each other from one past the end of
 * the word before it, to the end of its word (the last, when the line
 * does not end in a space, to the end of any line).
 */
static int
set_columns(struct doc *d, const char *s, size_t len)
{
    size_t i = 0, prev_end = 0;

    d->ncols = 0;
    while (i < len) {
        size_t end;

        while (i < len && s[i] == ' ')
            i++;
        if (i >= len)
            break;
        while (i < len && s[i] != ' ')
            i++;
        end = i < len ? i : SIZE_MAX;
        if (grow(&d->cols, &d->capcols, d->ncols + 1, sizeof(*d->cols)) < 0)
            return doc_oom(d);
        d->cols[d->ncols].start = d->ncols == 0 ? 0 : prev_end + 1;
        d->cols[d->ncols].stop = end;
        d->ncols++;
        prev_end = end;
    }
    return TOKIO_OK;
}

static int
days_in_month(int y, int mon)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30,
                               31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

    return mon == 2 && leap ? 29 : days[mon - 1];
}

static int
num(const char *s, int n)
{
    int v = 0;

    for (int i = 0; i < n; i++)
        v = v * 10 + (s[i] - '0');
    return v;
}

/* The local time "YYYY-MM-DD-HH:MM:SS" (stripped) as epoch seconds. */
static int
parse_stamp(struct doc *d, const char *s, size_t len, size_t line,
            int64_t *ts_out)
{
    int y, mon, day, hh, mm, ss, key;
    int64_t end;

    strip(&s, &len);
    if (len != 19 || !is_stamp(s))
        return doc_error(d, line, "timestamp '%.*s' is not "
                         "YYYY-MM-DD-HH:MM:SS", (int)len, s);
    y = num(s, 4), mon = num(s + 5, 2), day = num(s + 8, 2);
    hh = num(s + 11, 2), mm = num(s + 14, 2), ss = num(s + 17, 2);
    if (y < 1 || mon < 1 || mon > 12 || day < 1 ||
        day > days_in_month(y, mon) || hh > 23 || mm > 59 || ss > 59)
        return doc_error(d, line, "timestamp '%.19s' out of range", s);
    /* an hour without a clock change in it is 3600 plain seconds */
    key = ((y * 16 + mon) * 32 + day) * 32 + hh + 1;
    if (key != d->cache_key) {
        d->cache_key = 0;
        if (tokio_time_from_local(y, mon, day, hh, 0, 0, &d->cache_base) < 0
            || tokio_time_from_local(y, mon, day, hh, 59, 59, &end) < 0)
            return doc_error(d, line, "timestamp '%.19s' out of range", s);
        if (end - d->cache_base == 3599)
            d->cache_key = key;
        else if (tokio_time_from_local(y, mon, day, hh, mm, ss, ts_out) < 0)
            return doc_error(d, line, "timestamp '%.19s' out of range", s);
        else
            return TOKIO_OK;
    }
    *ts_out = d->cache_base + mm * 60 + ss;
    return TOKIO_OK;
}

/* Python's int() of a stripped row number: sign and at most 18 digits. */
static int
parse_rowid(const char *s, size_t len, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    int64_t v = 0;

    strip(&s, &len);
    if (len > 0 && (s[0] == '+' || s[0] == '-'))
        neg = s[i++] == '-';
    if (i >= len || len - i > 18)
        return 0;
    for (; i < len; i++) {
        if (!is_digit(s[i]))
            return 0;
        v = v * 10 + (s[i] - '0');
    }
    *out = neg ? -v : v;
    return 1;
}

/*
 * "-123" or "-12.5" (sign optional) short enough to be exact: 1 and an
 * integer, 2 and a real, 0 for anything else.  A real of at most 15
 * digits is an exact integer divided by an exact power of ten, which
 * IEEE division rounds correctly, as strtod() and Python's float() do.
 */
static int
scan_decimal(const char *s, size_t len, union val *out)
{
    static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
                                    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
                                    1e15 };
    size_t i = 0, digits = 0, frac = 0;
    int64_t v = 0;
    int dot = 0;

    if (len > 0 && s[0] == '-')
        i = 1;
    if (i >= len || !is_digit(s[i]) || !is_digit(s[len - 1]))
        return 0;
    for (; i < len; i++) {
        if (s[i] == '.') {
            if (dot++)
                return 0;
            continue;
        }
        if (!is_digit(s[i]) || ++digits > 18)
            return 0;
        v = v * 10 + (s[i] - '0');
        frac += (size_t)dot;
    }
    if (s[0] == '-')
        v = -v;
    if (!dot) {
        out->i = v;
        return 1;
    }
    if (digits > 15)
        return 0;
    out->d = (double)v / pow10[frac];
    /* "-0.0" is -0.0 */
    if (v == 0 && s[0] == '-')
        out->d = -0.0;
    return 2;
}

/*
 * The value of a stripped, non-empty, non-"null" cell as recast_string()
 * and value_unit_to_bytes() make it: a number, True/False, or "number
 * unit" (MB and kB in bytes, `*bytes` set; other units keep the text).
 */
static int
parse_cell(struct doc *d, size_t line, const char *s, size_t len,
           struct cell *c)
{
    char tmp[64];
    size_t sp;

    c->bytes = 0;
    if (memchr(s, '\0', len) != NULL)
        return doc_error(d, line, "NUL byte in a cell");
    /* fast paths: plain integers and decimals */
    switch (scan_decimal(s, len, &c->v)) {
    case 1:
        c->kind = TOKIO_MMPM_INT;
        return TOKIO_OK;
    case 2:
        c->kind = TOKIO_MMPM_REAL;
        return TOKIO_OK;
    }
    for (sp = 0; sp < len && !tokio__py_space((unsigned char)s[sp]); sp++)
        ;
    if (sp < len) {
        /* "value unit": exactly two words, the first a float */
        const char *unit = s + sp;
        size_t ulen = len - sp;
        union val num;
        char *end;
        double v;

        strip(&unit, &ulen);
        for (size_t k = 0; k < ulen; k++)
            if (tokio__py_space((unsigned char)unit[k]))
                return doc_error(d, line, "cell '%.*s' is not a number "
                                 "and a unit", (int)len, s);
        if (sp >= sizeof(tmp) || memchr(s, 'x', sp) || memchr(s, 'X', sp))
            goto bad;
        switch (scan_decimal(s, sp, &num)) {
        case 1:
            v = (double)num.i;
            break;
        case 2:
            v = num.d;
            break;
        default:
            memcpy(tmp, s, sp);
            tmp[sp] = '\0';
            v = strtod(tmp, &end);
            if (end != tmp + sp || !isfinite(v))
                goto bad;
        }
        if (ulen == 2 && memcmp(unit, "MB", 2) == 0) {
            c->kind = TOKIO_MMPM_REAL, c->v.d = v * 1048576, c->bytes = 1;
        } else if (ulen == 2 && memcmp(unit, "kB", 2) == 0) {
            c->kind = TOKIO_MMPM_REAL, c->v.d = v * 1024, c->bytes = 1;
        } else {
            if (!tokio__utf8_valid((const unsigned char *)s, len))
                goto bad;
            c->kind = TOKIO_MMPM_STRING;
            if (str_id(d->m, s, len, 1, &c->v.s) < 0)
                return doc_oom(d);
        }
        /* Python's json.dumps() would write Infinity, which is no JSON */
        if (c->kind == TOKIO_MMPM_REAL && !isfinite(c->v.d))
            return doc_error(d, line, "cell '%.*s' is out of range",
                             (int)len, s);
        return TOKIO_OK;
    }
    /* anything else recast_string() makes a number or a boolean of */
    {
        char *text = tokio__strndup(s, len);
        json_t *j;

        if (text == NULL)
            return doc_oom(d);
        j = tokio_recast_string(text);
        free(text);
        if (j == NULL)
            return doc_oom(d);
        if (json_is_integer(j)) {
            c->kind = TOKIO_MMPM_INT, c->v.i = json_integer_value(j);
        } else if (json_is_real(j)) {
            c->kind = TOKIO_MMPM_REAL, c->v.d = json_real_value(j);
        } else if (json_is_boolean(j)) {
            c->kind = TOKIO_MMPM_BOOL, c->v.i = json_is_true(j);
        } else {
            json_decref(j);
            goto bad;
        }
        json_decref(j);
        return TOKIO_OK;
    }
bad:
    return doc_error(d, line, "cell '%.*s' is not a number",
                     (int)(len > 64 ? 64 : len), s);
}

static int
add_legend(struct doc *d, size_t line, uint64_t n, const char *host,
           size_t hostlen, const char *rest, size_t restlen)
{
    struct tokio_mmperfmon *m = d->m;
    const char *bar = NULL;
    struct legend *e;

    if (n > LEGEND_MAX)
        return doc_error(d, line, "legend number %" PRIu64 " too large", n);
    if (!tokio__utf8_valid((const unsigned char *)host, hostlen) ||
        !tokio__utf8_valid((const unsigned char *)rest, restlen) ||
        memchr(host, '\0', hostlen) || memchr(rest, '\0', restlen))
        return doc_error(d, line, "legend entry is not UTF-8 text");
    if (n >= d->nlegend) {
        size_t cap = d->nlegend;

        if (grow(&d->legend, &cap, n + 1, sizeof(*d->legend)) < 0)
            return doc_oom(d);
        memset(d->legend + d->nlegend, 0,
               (cap - d->nlegend) * sizeof(*d->legend));
        d->nlegend = cap;
    }
    e = &d->legend[n];
    for (size_t k = restlen; k > 0; k--) {
        if (rest[k - 1] == '|') {
            bar = rest + k - 1;
            break;
        }
    }
    e->device = NONE;
    e->counter_bytes = NONE;
    /* an empty device ("a||b") is no device, as `if device_id:` */
    if (bar != NULL && bar > rest) {
        if (str_id(m, rest, (size_t)(bar - rest), 1, &e->device) < 0)
            return doc_oom(d);
    }
    if (bar != NULL) {
        restlen -= (size_t)(bar + 1 - rest);
        rest = bar + 1;
    }
    if (str_id(m, host, hostlen, 1, &e->host) < 0 ||
        str_id(m, rest, restlen, 1, &e->counter) < 0)
        return doc_oom(d);
    e->set = 1;
    return TOKIO_OK;
}

/* row index of `rowid`, added if new (`*created_out`) */
static int
row_get(struct doc *d, int64_t rowid, size_t line, size_t *idx_out,
        int *created_out)
{
    size_t i;

    *created_out = 0;
    if ((d->nrows + 1) * 2 > d->nrowslots) {
        size_t n = d->nrowslots ? d->nrowslots * 2 : 256;
        uint32_t *slots = tokio__calloc(n, sizeof(*slots));

        if (slots == NULL)
            return doc_oom(d);
        for (size_t r = 0; r < d->nrows; r++) {
            i = mix((uint64_t)d->rows[r].rowid) & (n - 1);
            while (slots[i] != 0)
                i = (i + 1) & (n - 1);
            slots[i] = (uint32_t)r + 1;
        }
        free(d->rowmap);
        d->rowmap = slots;
        d->nrowslots = n;
    }
    i = mix((uint64_t)rowid) & (d->nrowslots - 1);
    for (; d->rowmap[i] != 0; i = (i + 1) & (d->nrowslots - 1)) {
        if (d->rows[d->rowmap[i] - 1].rowid == rowid) {
            *idx_out = d->rowmap[i] - 1;
            return TOKIO_OK;
        }
    }
    if (d->nrows >= NONE - 1 || line > NONE)
        return doc_error(d, line, "too many rows");
    if (grow(&d->rows, &d->caprows, d->nrows + 1, sizeof(*d->rows)) < 0)
        return doc_oom(d);
    d->rows[d->nrows] = (struct row){ .rowid = rowid, .line = (uint32_t)line };
    d->rowmap[i] = (uint32_t)d->nrows + 1;
    *idx_out = d->nrows++;
    *created_out = 1;
    return TOKIO_OK;
}

static int
add_row(struct doc *d, size_t line, const char *s, size_t len)
{
    size_t r = 0;
    int64_t rowid = 0;
    int created = 0, rc;

    if (d->ncols < 2)
        return doc_error(d, line, "data row before a 'Row Timestamp' "
                         "table header");
    for (size_t k = 0; k < d->ncols; k++) {
        size_t a = d->cols[k].start, b = d->cols[k].stop;
        const char *f;
        size_t flen;

        if (b > len)
            b = len;
        if (a > b)
            a = b;
        f = s + a;
        flen = b - a;
        if (k == 0) {
            if (!parse_rowid(f, flen, &rowid))
                return doc_error(d, line, "row number '%.*s' is not an "
                                 "integer", (int)(flen > 32 ? 32 : flen), f);
            if ((rc = row_get(d, rowid, line, &r, &created)) < 0)
                return rc;
            continue;
        }
        if (k == 1) {
            if (created && (rc = parse_stamp(d, f, flen, line,
                                             &d->rows[r].ts)) < 0)
                return rc;
            continue;
        }
        strip(&f, &flen);
        if (flen == 0)
            return doc_error(d, line, "empty cell in column %zu", k + 1);
        if (d->rows[r].ncells >= LEGEND_MAX)
            return doc_error(d, line, "more than %u cells in a row",
                             LEGEND_MAX);
        d->rows[r].ncells++;
        if (flen == 4 && memcmp(f, "null", 4) == 0)
            continue;
        if (grow(&d->cells, &d->capcells, d->ncells + 1,
                 sizeof(*d->cells)) < 0)
            return doc_oom(d);
        struct cell *c = &d->cells[d->ncells];

        if ((rc = parse_cell(d, line, f, flen, c)) < 0)
            return rc;
        c->row = (uint32_t)r;
        c->col = d->rows[r].ncells - 1;
        c->line = (uint32_t)line;
        d->rows[r].nstored++;
        d->ncells++;
    }
    return TOKIO_OK;
}

static int
cmp_rowid(const void *a, const void *b)
{
    const struct row *x = *(const struct row *const *)a;
    const struct row *y = *(const struct row *const *)b;

    return x->rowid < y->rowid ? -1 : x->rowid > y->rowid;
}

/* Move the rows of a finished output into the dict, by row number. */
static int
doc_finish(struct doc *d)
{
    struct tokio_mmperfmon *m = d->m;
    const struct row **order = NULL;
    size_t *pos = NULL, *perm = NULL, nlegend = 0, at = 0;
    int rc = TOKIO_OK;

    if (d->nrows == 0)
        return TOKIO_OK;
    if (m->nstamp < m->str.n) {
        size_t n = m->str.cap_ids;
        uint32_t *stamp = tokio__reallocarray(m->stamp, n, sizeof(*stamp));

        if (stamp == NULL)
            return doc_oom(d);
        memset(stamp + m->nstamp, 0, (n - m->nstamp) * sizeof(*stamp));
        m->stamp = stamp;
        m->nstamp = n;
    }
    m->fresh_from = m->nnodes;
    /* legend entries 1..nlegend are all there */
    while (nlegend + 1 < d->nlegend && d->legend[nlegend + 1].set)
        nlegend++;
    order = tokio__reallocarray(NULL, d->nrows, sizeof(*order));
    pos = tokio__reallocarray(NULL, d->nrows, sizeof(*pos));
    perm = tokio__reallocarray(NULL, d->ncells ? d->ncells : 1,
                               sizeof(*perm));
    if (order == NULL || pos == NULL || perm == NULL) {
        rc = doc_oom(d);
        goto out;
    }
    for (size_t r = 0; r < d->nrows; r++)
        order[r] = &d->rows[r];
    qsort(order, d->nrows, sizeof(*order), cmp_rowid);
    for (size_t k = 0; k < d->nrows; k++) {
        const struct row *row = order[k];

        if (row->ncells > nlegend) {
            rc = doc_error(d, row->line, "row %" PRId64 " has %u cells but "
                           "the legend entries 1 to %zu", row->rowid,
                           row->ncells, nlegend);
            goto out;
        }
        pos[row - d->rows] = at;
        at += row->nstored;
    }
    for (size_t i = 0; i < d->ncells; i++)
        perm[pos[d->cells[i].row]++] = i;
    for (size_t i = 0; i < d->ncells; i++) {
        const struct cell *c = &d->cells[perm[i]];
        struct legend *e = &d->legend[c->col + 1];
        uint32_t counter = e->counter;

        if (c->bytes) {
            if (e->counter_bytes == NONE) {
                const char *name = str_get(m, e->counter);
                size_t n = strlen(name);
                char *tmp = tokio__malloc(n + 7);

                if (tmp == NULL) {
                    rc = doc_oom(d);
                    goto out;
                }
                memcpy(tmp, name, n);
                memcpy(tmp + n, "_bytes", 7);
                rc = str_id(m, tmp, n + 6, 1, &e->counter_bytes);
                free(tmp);
                if (rc < 0) {
                    rc = doc_oom(d);
                    goto out;
                }
            }
            counter = e->counter_bytes;
        }
        rc = put(m, d->rows[c->row].ts, e->host, counter, e->device,
                 c->kind, c->v);
        if (rc == TOKIO_ENOMEM) {
            rc = doc_oom(d);
            goto out;
        }
        if (rc < 0) {
            rc = doc_error(d, c->line, "counter '%s' of '%s' has both "
                           "values per device and a single value",
                           str_get(m, counter), str_get(m, e->host));
            goto out;
        }
    }
out:
    m->fresh_from = NONE;
    free(order);
    free(pos);
    free(perm);
    return rc;
}

static int
parse_text(struct tokio_mmperfmon *m, const char *where, const char *buf,
           size_t len)
{
    struct doc d;
    size_t line = 0;
    int rc = TOKIO_OK;

    memset(&d, 0, sizeof(d));
    d.m = m;
    snprintf(d.where, sizeof(d.where), "%s", where);
    for (size_t i = 0; i < len && rc == TOKIO_OK;) {
        const char *s = buf + i, *nl = memchr(s, '\n', len - i);
        size_t n = nl ? (size_t)(nl - s) : len - i;
        const char *host, *rest;
        size_t hostlen, restlen, a = 0;
        uint64_t num;
        int kind;

        i += n + 1;
        line++;
        if (n > 0 && s[n - 1] == '\r')
            n--;
        while (a < n && tokio__py_space((unsigned char)s[a]))
            a++;
        if (a == n)
            continue;
        /* the three forms exclude each other: data rows, the most
         * common, are tried first */
        kind = match_row(s, n);
        if (kind == 1) {
            rc = add_row(&d, line, s, n);
        } else if (kind == 2) {
            continue;
        } else if (match_legend(s, n, &num, &host, &hostlen, &rest,
                                &restlen)) {
            rc = add_legend(&d, line, num, host, hostlen, rest, restlen);
        } else if (match_header(s, n)) {
            rc = set_columns(&d, s, n);
        } else {
            const char *t = s + a;
            size_t tl = n - a;

            strip(&t, &tl);
            if (!(tl == 7 && memcmp(t, "Legend:", 7) == 0))
                rc = doc_error(&d, line, "not a legend entry, table "
                               "header or data row: '%.*s'",
                               (int)(tl > 60 ? 60 : tl), t);
        }
    }
    if (rc == TOKIO_OK)
        rc = doc_finish(&d);
    doc_free(&d);
    return rc;
}

/* ---- JSON ------------------------------------------------------------- */

static int
json_scalar(struct tokio_mmperfmon *m, const json_t *j, int *kind,
            union val *v)
{
    switch (json_typeof(j)) {
    case JSON_INTEGER:
        *kind = TOKIO_MMPM_INT, v->i = json_integer_value(j);
        return TOKIO_OK;
    case JSON_REAL:
        *kind = TOKIO_MMPM_REAL, v->d = json_real_value(j);
        return TOKIO_OK;
    case JSON_TRUE:
    case JSON_FALSE:
        *kind = TOKIO_MMPM_BOOL, v->i = json_is_true(j);
        return TOKIO_OK;
    case JSON_NULL:
        *kind = TOKIO_MMPM_NULL, v->i = 0;
        return TOKIO_OK;
    case JSON_STRING: {
        const char *s = json_string_value(j);

        *kind = TOKIO_MMPM_STRING;
        return str_id(m, s, strlen(s), 1, &v->s);
    }
    default:
        return TOKIO_EFORMAT;
    }
}

int
tokio_mmperfmon_from_json(struct tokio_mmperfmon *m, const json_t *json)
{
    const char *tkey, *hkey, *ckey, *dkey;
    json_t *hosts, *counters, *value, *dv;

    if (m == NULL || json == NULL)
        return tokio__error(TOKIO_EINVAL, "tokio_mmperfmon_from_json: "
                            "no %s", m == NULL ? "dict" : "JSON");
    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "mmperfmon JSON: not an object");
    json_object_foreach((json_t *)json, tkey, hosts) {
        json_t *k = tokio_recast_string(tkey);
        int64_t ts;

        if (k == NULL)
            return tokio__error(TOKIO_ENOMEM, "out of memory reading "
                                "mmperfmon JSON");
        if (!json_is_integer(k)) {
            json_decref(k);
            return tokio__error(TOKIO_EFORMAT, "mmperfmon JSON key '%s': "
                                "not an integer timestamp", tkey);
        }
        ts = json_integer_value(k);
        json_decref(k);
        if (!json_is_object(hosts))
            return tokio__error(TOKIO_EFORMAT, "mmperfmon JSON key '%s': "
                                "not an object of hosts", tkey);
        json_object_foreach(hosts, hkey, counters) {
            uint32_t host;

            if (!json_is_object(counters))
                return tokio__error(TOKIO_EFORMAT, "mmperfmon JSON '%s' "
                                    "'%s': not an object of counters",
                                    tkey, hkey);
            if (str_id(m, hkey, strlen(hkey), 1, &host) < 0)
                goto oom;
            json_object_foreach(counters, ckey, value) {
                uint32_t counter, device;
                union val v;
                int kind, rc;

                if (str_id(m, ckey, strlen(ckey), 1, &counter) < 0)
                    goto oom;
                if (!json_is_object(value)) {
                    if ((rc = json_scalar(m, value, &kind, &v)) == TOKIO_OK)
                        rc = put(m, ts, host, counter, NONE, kind, v);
                    if (rc == TOKIO_ENOMEM)
                        goto oom;
                    if (rc < 0)
                        return tokio__error(TOKIO_EFORMAT, "mmperfmon JSON "
                                            "'%s' '%s' '%s': not a number, "
                                            "string or object of them",
                                            tkey, hkey, ckey);
                    continue;
                }
                if (json_object_size(value) == 0) {
                    /* an empty dict of devices stays one */
                    uint32_t t, h, c;
                    int created;

                    if (node_get(m, 0, ts, &t, &created) < 0 ||
                        node_get(m, t, host, &h, &created) < 0 ||
                        node_get(m, h, counter, &c, &created) < 0)
                        goto oom;
                    if (!created && m->nodes[c].kind != K_DICT)
                        return tokio__error(TOKIO_EFORMAT, "mmperfmon JSON "
                                            "'%s' '%s' '%s': a value and "
                                            "devices", tkey, hkey, ckey);
                    continue;
                }
                json_object_foreach(value, dkey, dv) {
                    if (str_id(m, dkey, strlen(dkey), 1, &device) < 0)
                        goto oom;
                    if (json_is_object(dv) || json_is_array(dv))
                        rc = TOKIO_EFORMAT;
                    else if ((rc = json_scalar(m, dv, &kind, &v)) == TOKIO_OK)
                        rc = put(m, ts, host, counter, device, kind, v);
                    if (rc == TOKIO_ENOMEM)
                        goto oom;
                    if (rc < 0)
                        return tokio__error(TOKIO_EFORMAT, "mmperfmon JSON "
                                            "'%s' '%s' '%s' '%s': not a "
                                            "number or string, or the "
                                            "counter also has a value",
                                            tkey, hkey, ckey, dkey);
                }
            }
        }
    }
    return TOKIO_OK;
oom:
    return tokio__error(TOKIO_ENOMEM, "out of memory reading mmperfmon "
                        "JSON");
}

static json_t *
scalar_json(const struct tokio_mmperfmon *m, const struct node *n)
{
    switch (n->kind) {
    case TOKIO_MMPM_INT:
        return json_integer(n->v.i);
    case TOKIO_MMPM_REAL:
        return json_real(n->v.d);
    case TOKIO_MMPM_BOOL:
        return json_boolean(n->v.i);
    case TOKIO_MMPM_STRING:
        return json_string(str_get(m, n->v.s));
    default:
        return json_null();
    }
}

int
tokio_mmperfmon_to_json(const struct tokio_mmperfmon *m, json_t **out)
{
    json_t *root;

    if (out == NULL || m == NULL)
        return tokio__error(TOKIO_EINVAL, "tokio_mmperfmon_to_json: no %s",
                            m == NULL ? "dict" : "output");
    *out = NULL;
    if ((root = json_object()) == NULL)
        goto oom;
    for (uint32_t t = m->nodes[0].first; t != 0; t = m->nodes[t].next) {
        char key[32];
        json_t *hosts = json_object();

        snprintf(key, sizeof(key), "%" PRId64, m->nodes[t].key);
        if (json_object_set_new(root, key, hosts) < 0)
            goto oom;
        for (uint32_t h = m->nodes[t].first; h != 0; h = m->nodes[h].next) {
            json_t *counters = json_object();

            if (json_object_set_new(hosts, str_get(m, (uint32_t)m->nodes[h].key),
                                    counters) < 0)
                goto oom;
            for (uint32_t c = m->nodes[h].first; c != 0;
                 c = m->nodes[c].next) {
                const struct node *cn = &m->nodes[c];
                json_t *v;

                if (cn->kind == K_DICT) {
                    v = json_object();
                    for (uint32_t dv = cn->first; dv != 0 && v != NULL;
                         dv = m->nodes[dv].next)
                        if (json_object_set_new(
                                v, str_get(m, (uint32_t)m->nodes[dv].key),
                                scalar_json(m, &m->nodes[dv])) < 0) {
                            json_decref(v);
                            v = NULL;
                        }
                } else {
                    v = scalar_json(m, cn);
                }
                if (json_object_set_new(counters,
                                        str_get(m, (uint32_t)cn->key), v) < 0)
                    goto oom;
            }
        }
    }
    *out = root;
    return TOKIO_OK;
oom:
    json_decref(root);
    return tokio__error(TOKIO_ENOMEM, "out of memory making mmperfmon JSON");
}

/* Writing goes through a tokio__wbuf: stdio's per-call locking costs more
 * than the JSON. */

static void
jw_str(struct tokio__wbuf *w, const char *s)
{
    tokio__wbuf_put(w, s, strlen(s));
}

/* A JSON string as Python writes it (ensure_ascii). */
static int
jw_jstr(struct tokio__wbuf *w, const char *s)
{
    const char *p;
    json_t *j;
    int rc;

    for (p = s; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e ||
            *p == '"' || *p == '\\')
            break;
    if (*p == '\0') {
        tokio__wbuf_put(w, "\"", 1);
        tokio__wbuf_put(w, s, (size_t)(p - s));
        tokio__wbuf_put(w, "\"", 1);
        return TOKIO_OK;
    }
    /* names and values are checked UTF-8: only memory can fail here */
    if ((j = json_string(s)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing JSON");
    tokio__wbuf_flush(w);
    rc = tokio_json_write(w->fp, j, 0);
    json_decref(j);
    return rc;
}

static int
jw_scalar(const struct tokio_mmperfmon *m, struct tokio__wbuf *w, const struct node *n)
{
    switch (n->kind) {
    case TOKIO_MMPM_INT:
        tokio__wbuf_int(w, n->v.i);
        return TOKIO_OK;
    case TOKIO_MMPM_REAL:
        tokio__wbuf_real(w, n->v.d);
        return TOKIO_OK;
    case TOKIO_MMPM_BOOL:
        jw_str(w, n->v.i ? "true" : "false");
        return TOKIO_OK;
    case TOKIO_MMPM_STRING:
        return jw_jstr(w, str_get(m, n->v.s));
    default:
        jw_str(w, "null");
        return TOKIO_OK;
    }
}

/* `"key": ` with ", " before all but the first */
static int
jw_key(const struct tokio_mmperfmon *m, struct tokio__wbuf *w, uint32_t node,
       uint32_t first)
{
    int rc;

    uint32_t id = (uint32_t)m->nodes[node].key, plain = m->str.plain[id];

    if (node != first)
        tokio__wbuf_put(w, ", ", 2);
    if (plain & 0x80000000u) {
        rc = jw_jstr(w, str_get(m, id));
    } else {
        tokio__wbuf_put(w, "\"", 1);
        tokio__wbuf_put(w, str_get(m, id), plain);
        tokio__wbuf_put(w, "\"", 1);
        rc = TOKIO_OK;
    }
    tokio__wbuf_put(w, ": ", 2);
    return rc;
}

int
tokio_mmperfmon_write_json(const struct tokio_mmperfmon *m, FILE *fp)
{
    struct tokio__wbuf *w;
    int rc = TOKIO_OK;

    if (m == NULL || fp == NULL)
        return tokio__error(TOKIO_EINVAL, "tokio_mmperfmon_write_json: no "
                            "%s", m == NULL ? "dict" : "stream");
    if ((w = tokio__malloc(sizeof(*w))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing JSON");
    tokio__wbuf_init(w, fp);
    tokio__wbuf_put(w, "{", 1);
    for (uint32_t t = m->nodes[0].first; t != 0 && rc == TOKIO_OK;
         t = m->nodes[t].next) {
        if (t != m->nodes[0].first)
            tokio__wbuf_put(w, ", ", 2);
        tokio__wbuf_put(w, "\"", 1);
        tokio__wbuf_int(w, m->nodes[t].key);
        tokio__wbuf_put(w, "\": {", 4);
        for (uint32_t h = m->nodes[t].first; h != 0 && rc == TOKIO_OK;
             h = m->nodes[h].next) {
            rc = jw_key(m, w, h, m->nodes[t].first);
            tokio__wbuf_put(w, "{", 1);
            for (uint32_t c = m->nodes[h].first; c != 0 && rc == TOKIO_OK;
                 c = m->nodes[c].next) {
                const struct node *cn = &m->nodes[c];

                if ((rc = jw_key(m, w, c, m->nodes[h].first)) < 0)
                    break;
                if (cn->kind != K_DICT) {
                    rc = jw_scalar(m, w, cn);
                    continue;
                }
                tokio__wbuf_put(w, "{", 1);
                for (uint32_t dv = cn->first; dv != 0 && rc == TOKIO_OK;
                     dv = m->nodes[dv].next)
                    if ((rc = jw_key(m, w, dv, cn->first)) == TOKIO_OK)
                        rc = jw_scalar(m, w, &m->nodes[dv]);
                tokio__wbuf_put(w, "}", 1);
            }
            tokio__wbuf_put(w, "}", 1);
        }
        tokio__wbuf_put(w, "}", 1);
    }
    tokio__wbuf_put(w, "}", 1);
    if (rc == TOKIO_OK)
        rc = tokio__wbuf_finish(w, 0, "cannot write mmperfmon JSON");
    free(w);
    return rc;
}

int
tokio_mmperfmon_foreach(const struct tokio_mmperfmon *m,
                        tokio_mmperfmon_cb cb, void *payload)
{
    if (m == NULL || cb == NULL)
        return tokio__error(TOKIO_EINVAL, "tokio_mmperfmon_foreach: no %s",
                            m == NULL ? "dict" : "callback");
    for (uint32_t t = m->nodes[0].first; t != 0; t = m->nodes[t].next) {
        for (uint32_t h = m->nodes[t].first; h != 0; h = m->nodes[h].next) {
            const char *host = str_get(m, (uint32_t)m->nodes[h].key);

            for (uint32_t c = m->nodes[h].first; c != 0;
                 c = m->nodes[c].next) {
                const struct node *cn = &m->nodes[c];
                uint32_t first = cn->kind == K_DICT ? cn->first : c;

                for (uint32_t v = first; v != 0;
                     v = cn->kind == K_DICT ? m->nodes[v].next : 0) {
                    const struct node *vn = &m->nodes[v];
                    struct tokio_mmperfmon_value val;
                    int rc;

                    val.kind = (enum tokio_mmperfmon_kind)vn->kind;
                    val.i = vn->kind == TOKIO_MMPM_REAL ? 0 : vn->v.i;
                    val.d = vn->kind == TOKIO_MMPM_REAL ? vn->v.d
                                                        : (double)val.i;
                    val.s = vn->kind == TOKIO_MMPM_STRING
                            ? str_get(m, vn->v.s) : NULL;
                    if (vn->kind == TOKIO_MMPM_STRING ||
                        vn->kind == TOKIO_MMPM_NULL)
                        val.i = 0, val.d = 0;
                    rc = cb(m->nodes[t].key, host,
                            str_get(m, (uint32_t)cn->key),
                            cn->kind == K_DICT
                            ? str_get(m, (uint32_t)vn->key) : NULL,
                            &val, payload);
                    if (rc != TOKIO_OK)
                        return rc;
                }
            }
        }
    }
    return TOKIO_OK;
}

/* ---- CSV -------------------------------------------------------------- */

struct column {
    uint32_t a, b;          /* counter or host id; device id or NONE */
    int has_int, has_real, has_other;
    size_t present;         /* non-null values */
};

struct table {
    struct column *cols;
    size_t ncols, capcols;
    uint32_t *colslots;     /* hash of (a, b): column index + 1 */
    size_t ncolslots;
    uint32_t *rows;         /* timestamp nodes with a value, dict order */
    size_t nrows, caprows;
    uint32_t *grid;         /* rows x cols: value node or 0 */
};

static void
table_free(struct table *tb)
{
    free(tb->cols);
    free(tb->colslots);
    free(tb->rows);
    free(tb->grid);
}

/* column index of (a, b), added if new; -1 when out of memory */
static long
table_col(struct table *tb, uint32_t a, uint32_t b)
{
    uint64_t key = (uint64_t)a << 32 | b;
    size_t i;

    if ((tb->ncols + 1) * 2 > tb->ncolslots) {
        size_t n = tb->ncolslots ? tb->ncolslots * 2 : 64;
        uint32_t *slots = tokio__calloc(n, sizeof(*slots));

        if (slots == NULL)
            return -1;
        for (size_t c = 0; c < tb->ncols; c++) {
            i = mix((uint64_t)tb->cols[c].a << 32 | tb->cols[c].b) & (n - 1);
            while (slots[i] != 0)
                i = (i + 1) & (n - 1);
            slots[i] = (uint32_t)c + 1;
        }
        free(tb->colslots);
        tb->colslots = slots;
        tb->ncolslots = n;
    }
    for (i = mix(key) & (tb->ncolslots - 1); tb->colslots[i] != 0;
         i = (i + 1) & (tb->ncolslots - 1)) {
        const struct column *c = &tb->cols[tb->colslots[i] - 1];

        if (c->a == a && c->b == b)
            return (long)tb->colslots[i] - 1;
    }
    if (grow(&tb->cols, &tb->capcols, tb->ncols + 1, sizeof(*tb->cols)) < 0)
        return -1;
    memset(&tb->cols[tb->ncols], 0, sizeof(*tb->cols));
    tb->cols[tb->ncols].a = a;
    tb->cols[tb->ncols].b = b;
    tb->colslots[i] = (uint32_t)tb->ncols + 1;
    return (long)tb->ncols++;
}

/*
 * The values that go into the row of timestamp node `t`: `emit(col, v)`
 * for each, as to_dataframe_by_host()/by_metric() collect them.  With
 * `grid` NULL only the columns are found.
 */
static int
table_visit(const struct tokio_mmperfmon *m, struct table *tb, uint32_t t,
            uint32_t host, uint32_t metric, uint32_t *gridrow, int *any)
{
    *any = 0;
    for (uint32_t h = m->nodes[t].first; h != 0; h = m->nodes[h].next) {
        uint32_t c;

        if (host != NONE) {
            if (m->nodes[h].key != host)
                continue;
            c = m->nodes[h].first;
        } else {
            c = node_find(m, h, metric);
            /* `if value is None: continue` */
            if (c == 0 || m->nodes[c].kind == TOKIO_MMPM_NULL)
                continue;
        }
        for (; c != 0; c = host != NONE ? m->nodes[c].next : 0) {
            const struct node *cn = &m->nodes[c];
            uint32_t a = host != NONE ? (uint32_t)cn->key
                                      : (uint32_t)m->nodes[h].key;
            uint32_t v = cn->kind == K_DICT ? cn->first : c;

            for (; v != 0; v = cn->kind == K_DICT ? m->nodes[v].next : 0) {
                uint32_t b = cn->kind == K_DICT ? (uint32_t)m->nodes[v].key
                                                : NONE;
                long col = table_col(tb, a, b);

                if (col < 0)
                    return TOKIO_ENOMEM;
                *any = 1;
                if (gridrow != NULL)
                    gridrow[col] = v;
            }
        }
    }
    return TOKIO_OK;
}

struct rowkey {
    int64_t ts;
    uint32_t row;
};

static int
cmp_rowkey(const void *a, const void *b)
{
    int64_t x = ((const struct rowkey *)a)->ts;
    int64_t y = ((const struct rowkey *)b)->ts;

    return x < y ? -1 : x > y;
}

static void
write_cell(const struct tokio_mmperfmon *m, FILE *fp, const struct node *n,
           int as_real)
{
    char buf[40];

    switch (n->kind) {
    case TOKIO_MMPM_INT:
        if (as_real)
            tokio_format_double(buf, sizeof(buf), (double)n->v.i);
        else
            snprintf(buf, sizeof(buf), "%" PRId64, n->v.i);
        fputs(buf, fp);
        break;
    case TOKIO_MMPM_REAL:
        tokio_format_double(buf, sizeof(buf), n->v.d);
        fputs(buf, fp);
        break;
    case TOKIO_MMPM_BOOL:
        fputs(n->v.i ? "True" : "False", fp);
        break;
    case TOKIO_MMPM_STRING: {
        const char *s = str_get(m, n->v.s);

        tokio_csv_write_field(fp, s, strlen(s));
        break;
    }
    default:
        break;
    }
}

static int
write_table(const struct tokio_mmperfmon *m, FILE *fp, struct table *tb)
{
    uint32_t *order = NULL;
    unsigned char *seen = NULL;
    size_t norder = 0;
    int rc = TOKIO_OK;

    fputs("timestamp", fp);
    for (size_t c = 0; c < tb->ncols; c++) {
        const char *a = str_get(m, tb->cols[c].a);

        fputc(',', fp);
        if (tb->cols[c].b == NONE) {
            tokio_csv_write_field(fp, a, strlen(a));
        } else {
            const char *b = str_get(m, tb->cols[c].b);
            size_t la = strlen(a), lb = strlen(b);
            char *name = tokio__malloc(la + lb + 2);

            if (name == NULL)
                return TOKIO_ENOMEM;
            memcpy(name, a, la);
            name[la] = ':';
            memcpy(name + la + 1, b, lb + 1);
            tokio_csv_write_field(fp, name, la + lb + 1);
            free(name);
        }
    }
    fputc('\n', fp);
    if (tb->nrows == 0)
        return TOKIO_OK;
    order = tokio__reallocarray(NULL, tb->nrows, sizeof(*order));
    seen = tokio__calloc(tb->nrows, 1);
    if (order == NULL || seen == NULL) {
        rc = TOKIO_ENOMEM;
        goto out;
    }
    /* pandas' index: one column sorts its keys; more take the union of
     * their keys, column by column, in order of first appearance */
    for (size_t c = 0; c < tb->ncols; c++) {
        for (size_t r = 0; r < tb->nrows; r++) {
            if (!seen[r] && tb->grid[r * tb->ncols + c] != 0) {
                seen[r] = 1;
                order[norder++] = (uint32_t)r;
            }
        }
    }
    if (tb->ncols == 1) {
        struct rowkey *keys = tokio__reallocarray(NULL, norder,
                                                  sizeof(*keys));

        if (keys == NULL) {
            rc = TOKIO_ENOMEM;
            goto out;
        }
        for (size_t k = 0; k < norder; k++)
            keys[k] = (struct rowkey){ m->nodes[tb->rows[order[k]]].key,
                                       order[k] };
        qsort(keys, norder, sizeof(*keys), cmp_rowkey);
        for (size_t k = 0; k < norder; k++)
            order[k] = keys[k].row;
        free(keys);
    }
    for (size_t c = 0; c < tb->ncols; c++) {
        struct column *col = &tb->cols[c];

        for (size_t r = 0; r < tb->nrows; r++) {
            uint32_t v = tb->grid[r * tb->ncols + c];

            if (v == 0)
                continue;
            switch (m->nodes[v].kind) {
            case TOKIO_MMPM_INT:
                col->has_int = 1, col->present++;
                break;
            case TOKIO_MMPM_REAL:
                col->has_real = 1, col->present++;
                break;
            case TOKIO_MMPM_NULL:
                break;
            default:
                col->has_other = 1, col->present++;
            }
        }
    }
    for (size_t k = 0; k < norder; k++) {
        size_t r = order[k];
        char stamp[64];

        if (tokio_time_format(stamp, sizeof(stamp),
                              m->nodes[tb->rows[r]].key,
                              "%Y-%m-%d %H:%M:%S") < 0) {
            rc = TOKIO_EINVAL;
            goto out;
        }
        fputs(stamp, fp);
        for (size_t c = 0; c < tb->ncols; c++) {
            const struct column *col = &tb->cols[c];
            uint32_t v = tb->grid[r * tb->ncols + c];
            int as_real = !col->has_other &&
                          (col->has_real || col->present < norder);

            fputc(',', fp);
            if (v != 0)
                write_cell(m, fp, &m->nodes[v], as_real);
        }
        fputc('\n', fp);
    }
out:
    free(order);
    free(seen);
    return rc;
}

int
tokio_mmperfmon_write_csv(const struct tokio_mmperfmon *m, FILE *fp,
                          const char *host, const char *metric)
{
    struct table tb;
    uint32_t host_id = NONE, metric_id = NONE, key;
    int rc = TOKIO_OK, any;

    if (m == NULL || fp == NULL || (host == NULL) == (metric == NULL))
        return tokio__error(TOKIO_EINVAL, "tokio_mmperfmon_write_csv: "
                            "give a dict, a stream, and a host or a "
                            "metric");
    memset(&tb, 0, sizeof(tb));
    /* a name never seen matches nothing: an empty table */
    if (str_id((struct tokio_mmperfmon *)m, host ? host : metric,
               strlen(host ? host : metric), 0, &key) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    if (host != NULL)
        host_id = key;
    else
        metric_id = key;
    if (key != NONE) {
        for (uint32_t t = m->nodes[0].first; t != 0; t = m->nodes[t].next) {
            if ((rc = table_visit(m, &tb, t, host_id, metric_id, NULL,
                                  &any)) < 0)
                goto out;
            if (!any)
                continue;
            if (grow(&tb.rows, &tb.caprows, tb.nrows + 1,
                     sizeof(*tb.rows)) < 0) {
                rc = TOKIO_ENOMEM;
                goto out;
            }
            tb.rows[tb.nrows++] = t;
        }
    }
    if (tb.nrows > 0) {
        if (tb.ncols > SIZE_MAX / sizeof(uint32_t) / tb.nrows ||
            (tb.grid = tokio__calloc(tb.nrows * tb.ncols,
                                     sizeof(uint32_t))) == NULL) {
            rc = TOKIO_ENOMEM;
            goto out;
        }
        for (size_t r = 0; r < tb.nrows; r++)
            if ((rc = table_visit(m, &tb, tb.rows[r], host_id, metric_id,
                                  tb.grid + r * tb.ncols, &any)) < 0)
                goto out;
    }
    rc = write_table(m, fp, &tb);
    if (rc == TOKIO_OK) {
        table_free(&tb);
        return tokio__write_check(fp, "cannot write mmperfmon CSV");
    }
out:
    table_free(&tb);
    if (rc == TOKIO_ENOMEM)
        return tokio__error(rc, "out of memory writing mmperfmon CSV");
    if (rc < 0)
        return tokio__error(rc, "cannot write mmperfmon CSV");
    return rc;
}

/* ---- loading ---------------------------------------------------------- */

/* 1 if the first 512 bytes are a tar header (its checksum adds up) */
static int
is_tar(const unsigned char *buf, size_t len)
{
    unsigned long sum = 0, want = 0;
    size_t i;

    if (len < 512)
        return 0;
    for (i = 0; i < 512; i++)
        sum += (i >= 148 && i < 156) ? ' ' : buf[i];
    for (i = 148; i < 156 && buf[i] == ' '; i++)
        ;
    if (i == 156 || buf[i] < '0' || buf[i] > '7')
        return 0;
    for (; i < 156 && buf[i] >= '0' && buf[i] <= '7'; i++)
        want = want * 8 + (unsigned long)(buf[i] - '0');
    return sum == want;
}

static int
compressed(const unsigned char *buf, size_t len)
{
    return (len >= 2 && buf[0] == 0x1f && buf[1] == 0x8b) ||
           (len >= 3 && memcmp(buf, "BZh", 3) == 0);
}

/* Decompress `buf` into a new buffer (caller frees). */
static int
inflate_all(const unsigned char *buf, size_t len, const char *name,
            unsigned char **out, size_t *outlen)
{
    struct tokio_input *in = NULL;
    int rc;

    if ((rc = tokio_input_open_mem(&in, buf, len, name)) < 0)
        return rc;
    rc = tokio_input_read_all(in, 0, out, outlen);
    tokio_input_close(in);
    return rc;
}

struct walk {
    struct tokio_mmperfmon *m;
    const char *archive;    /* NULL: a directory walk */
};

static int
member_cb(const struct tokio_collection_member *mem, void *payload)
{
    struct walk *w = payload;
    char where[512];
    unsigned char *plain = NULL;
    size_t len = mem->len;
    const unsigned char *data = mem->data;
    int rc;

    if (w->archive != NULL)
        snprintf(where, sizeof(where), "'%s' member '%s'", w->archive,
                 mem->name);
    else
        snprintf(where, sizeof(where), "'%s'", mem->name);
    if (compressed(data, len)) {
        if ((rc = inflate_all(data, len, mem->name, &plain, &len)) < 0)
            return tokio__error_prefix("%s", where);
        data = plain;
    }
    rc = parse_text(w->m, where, (const char *)data, len);
    free(plain);
    return rc;
}

/* Decompressed bytes of input `name`: a tarball, JSON or mmperfmon text. */
static int
load_plain(struct tokio_mmperfmon *m, const unsigned char *buf, size_t len,
           const char *name)
{
    char where[512];
    size_t i = 0;

    if (is_tar(buf, len)) {
        struct walk w = { m, name };

        return tokio__walk_archive_mem(buf, len, name, 0, member_cb, &w);
    }
    snprintf(where, sizeof(where), "'%s'", name);
    while (i < len && tokio__py_space(buf[i]))
        i++;
    if (i < len && buf[i] == '{') {
        json_t *j;
        int rc = tokio__json_parse_named(&j, (const char *)buf, len, 0, name);

        if (rc < 0)
            return rc;
        rc = tokio_mmperfmon_from_json(m, j);
        json_decref(j);
        if (rc < 0)
            return tokio__error_prefix("%s", where);
        return rc;
    }
    return parse_text(m, where, (const char *)buf, len);
}

int
tokio_mmperfmon_load_mem(struct tokio_mmperfmon *m, const void *buf,
                         size_t len, const char *name)
{
    unsigned char *plain = NULL;
    size_t plen;
    int rc;

    if (m == NULL || (buf == NULL && len > 0))
        return tokio__error(TOKIO_EINVAL, "tokio_mmperfmon_load_mem: no %s",
                            m == NULL ? "dict" : "buffer");
    if (name == NULL)
        name = "<memory>";
    if (!compressed(buf, len))
        return load_plain(m, buf, len, name);
    if ((rc = inflate_all(buf, len, name, &plain, &plen)) < 0)
        return rc;
    rc = load_plain(m, plain, plen, name);
    free(plain);
    return rc;
}

/* 1 if `path`, decompressed, starts with a tar header, else 0 */
static int
starts_tar(const char *path)
{
    struct tokio_input *in = NULL;
    unsigned char head[512];
    size_t have = 0, n = 1;
    int rc;

    if ((rc = tokio_input_open(&in, path)) < 0)
        return rc;
    while (have < sizeof(head) && n > 0 &&
           (rc = tokio_input_read(in, head + have, sizeof(head) - have,
                                  &n)) == TOKIO_OK)
        have += n;
    tokio_input_close(in);
    if (rc < 0)
        return rc;
    return is_tar(head, have);
}

int
tokio_mmperfmon_load(struct tokio_mmperfmon *m, const char *path)
{
    struct stat st;
    unsigned char *buf = NULL;
    size_t len;
    int rc;

    if (m == NULL || path == NULL)
        return tokio__error(TOKIO_EINVAL, "tokio_mmperfmon_load: no %s",
                            m == NULL ? "dict" : "path");
    if (strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
        S_ISDIR(st.st_mode)) {
        struct walk w = { m, NULL };

        return tokio_walk_file_collection(path, member_cb, &w);
    }
    if (strcmp(path, "-") != 0) {
        /* a tarball is read member by member, never whole */
        if ((rc = starts_tar(path)) < 0)
            return rc;
        if (rc == 1) {
            struct walk w = { m, path };

            return tokio_walk_file_collection(path, member_cb, &w);
        }
    }
    if ((rc = tokio_read_file(path, 0, &buf, &len)) < 0)
        return rc;
    rc = load_plain(m, buf, len, path);
    free(buf);
    return rc;
}
