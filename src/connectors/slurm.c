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
 * The table is kept as the JSON form (jansson keeps insertion order, as
 * Python's dict does, so the native text comes out in the reference's
 * order), with the typed fields recast in place: "nodelist" becomes a list
 * of names, and "start"/"end" are checked as zone-less local times; their
 * epochs are cached beside.
 *
 * NEEDSWORK: the JSON form as storage bounds the speed (bench-slurm.sh):
 * every node name of every task is a jansson string, two allocations,
 * and reading a JSON cache runs jansson's parser, no faster than the
 * reference's; reading is ~1x (JSON) to ~3x (sacct text) the reference,
 * not 30x.  Would a typed table (tasks, a pool of names, JSON built on
 * demand) be worth the change to the json_t-based accessors?
 *
 * Differs from pytokio:
 *  - a line whose field count differs from the header's is an error
 *    naming file and line (the reference silently misaligned or crashed);
 *  - "Unknown" and "None" times (running or pending jobs) are kept as text
 *    and passed over by get_job_startend (the reference raised);
 *  - "None assigned" node lists (pending jobs) are empty lists;
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
#include "core/run.h"
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

struct task {
    const char *id;         /* key in s->json, borrowed */
    json_t *fields;         /* borrowed from s->json */
    int64_t start, end;
    int has_start, has_end;
};

struct tokio_slurm {
    json_t *json;           /* task id -> object of fields */
    struct task *tasks;     /* index over json, in its order */
    size_t n_tasks;
};

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

struct expansion {
    char **names;
    size_t n, cap;
    const char *text;       /* the whole list, for messages */
};

static int
push_name(struct expansion *x, const char *name, size_t len)
{
    if (x->n == x->cap) {
        size_t cap = x->cap ? x->cap * 2 : 16;
        char **names = tokio__reallocarray(x->names, cap, sizeof(*names));
        if (names == NULL)
            return tokio__error(TOKIO_ENOMEM, "out of memory expanding "
                                "node list '%.200s'", x->text);
        x->names = names;
        x->cap = cap;
    }
    if ((x->names[x->n] = tokio__strndup(name, len)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory expanding node "
                            "list '%.200s'", x->text);
    x->n++;
    return TOKIO_OK;
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
 * Expand one host token (no top-level commas) of `len` bytes: literal
 * text and bracket groups, the last group varying fastest (Slurm's
 * order).
 */
static int
expand_token(struct expansion *x, const char *tok, size_t len)
{
    struct bgroup groups[16];
    struct range *ranges = NULL;
    size_t n_groups = 0, n_ranges = 0, cap_ranges = 0, lit_start = 0;
    const char *end = tok + len;
    uint64_t total = 1;
    char *buf = NULL;
    size_t *idx = NULL;
    uint64_t *val = NULL;
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
                    rc = tokio__error(TOKIO_ENOMEM, "out of memory "
                                      "expanding node list '%.200s'",
                                      x->text);
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
        g->n_ranges = n_ranges - g->first_range;
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
    if (n_groups == 0) {
        rc = push_name(x, tok, len);
        goto done;
    }

    /* the name is at most the token's literals plus 18 digits a group */
    size_t bufsize = len + (size_t)n_groups * (MAX_NUMBER_DIGITS + 1) + 1;
    buf = tokio__malloc(bufsize);
    idx = tokio__calloc(n_groups, sizeof(*idx));    /* range per group */
    val = tokio__calloc(n_groups, sizeof(*val));    /* value per group */
    if (buf == NULL || idx == NULL || val == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory expanding node list "
                          "'%.200s'", x->text);
        goto done;
    }
    for (size_t i = 0; i < n_groups; i++)
        val[i] = ranges[groups[i].first_range].lo;
    for (;;) {
        size_t n = 0;
        for (size_t i = 0; i < n_groups; i++) {
            const struct range *r = &ranges[groups[i].first_range + idx[i]];
            memcpy(buf + n, tok + groups[i].lit_before, groups[i].lit_len);
            n += groups[i].lit_len;
            n += put_number(buf + n, val[i], r->width);
        }
        memcpy(buf + n, tok + lit_start, len - lit_start);
        n += len - lit_start;
        if ((rc = push_name(x, buf, n)) < 0)
            goto done;
        /* odometer: advance the last group, carrying leftwards */
        size_t i = n_groups;
        while (i-- > 0) {
            const struct range *r = &ranges[groups[i].first_range + idx[i]];
            if (val[i] < r->hi) {
                val[i]++;
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
    free(buf);
    free(idx);
    free(val);
    free(ranges);
    return rc;
}

int
tokio_slurm_nodelist_expand(const char *text, char ***names_out,
                            size_t *n_out)
{
    struct expansion x = { NULL, 0, 0, text };
    int rc = TOKIO_OK;

    *names_out = NULL;
    *n_out = 0;
    /* what sacct prints for a job that never got nodes */
    if (*text == '\0' || strcmp(text, "None assigned") == 0)
        return TOKIO_OK;
    const char *tok = text;
    int depth = 0;
    for (const char *p = text;; p++) {
        if (*p == '[') {
            if (depth++ > 0)
                rc = tokio__error(TOKIO_EFORMAT, "node list '%.200s': "
                                  "nested '['", text);
        } else if (*p == ']') {
            depth--;
        } else if ((*p == ',' && depth == 0) || *p == '\0') {
            if (*p == '\0' && depth > 0)
                rc = tokio__error(TOKIO_EFORMAT, "node list '%.200s': '[' "
                                  "without ']'", text);
            if (rc == TOKIO_OK)
                rc = expand_token(&x, tok, (size_t)(p - tok));
            if (rc < 0 || *p == '\0')
                break;
            tok = p + 1;
        }
        if (rc < 0)
            break;
    }
    if (rc < 0) {
        tokio_slurm_free_names(x.names, x.n);
        return rc;
    }
    *names_out = x.names;
    *n_out = x.n;
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

/* ---- recasting and the task index ----------------------------------- */

/* A time that sacct prints for "not yet" or "never". */
static int
is_unset_time(const char *s)
{
    return *s == '\0' || strcmp(s, "Unknown") == 0 ||
           strcmp(s, "None") == 0;
}

/*
 * Check a start/end field; `*has` says whether it holds a time.  `where`
 * names the file and line or the task, for messages.
 */
static int
parse_time_field(const json_t *v, const char *key, const char *where,
                 int64_t *epoch, int *has)
{
    *has = 0;
    if (v == NULL || json_is_null(v))
        return TOKIO_OK;
    if (!json_is_string(v))
        return tokio__error(TOKIO_EFORMAT, "%s: '%s' is not a string",
                            where, key);
    const char *s = json_string_value(v);
    if (is_unset_time(s))
        return TOKIO_OK;
    if (tokio_time_parse_format(s, TIME_FORMAT, epoch) < 0)
        return tokio__error(TOKIO_EFORMAT, "%s: %s time '%.100s' is not "
                            "YYYY-MM-DDTHH:MM:SS", where, key, s);
    *has = 1;
    return TOKIO_OK;
}

/* Turn a task's nodelist string into a list and check its times. */
static int
recast_task(json_t *fields, const char *where)
{
    json_t *nl = json_object_get(fields, KEY_NODELIST);
    int64_t t;
    int has, rc;

    if ((rc = parse_time_field(json_object_get(fields, KEY_START), KEY_START,
                               where, &t, &has)) < 0 ||
        (rc = parse_time_field(json_object_get(fields, KEY_END), KEY_END,
                               where, &t, &has)) < 0)
        return rc;
    if (json_is_array(nl)) {
        size_t i;
        json_t *name;
        json_array_foreach(nl, i, name) {
            if (!json_is_string(name))
                return tokio__error(TOKIO_EFORMAT, "%s: nodelist item %zu "
                                    "is not a string", where, i);
        }
    } else if (json_is_string(nl)) {
        char **names = NULL;
        size_t n = 0;
        json_t *arr = json_array();
        if (arr == NULL)
            return tokio__error(TOKIO_ENOMEM, "%s: out of memory", where);
        if ((rc = tokio_slurm_nodelist_expand(json_string_value(nl), &names,
                                              &n)) < 0) {
            json_decref(arr);
            return tokio__error_prefix("%s", where);
        }
        for (size_t i = 0; i < n && rc == 0; i++)
            if (json_array_append_new(arr, json_string(names[i])) < 0)
                rc = tokio__error(TOKIO_ENOMEM, "%s: out of memory", where);
        tokio_slurm_free_names(names, n);
        if (rc == 0 && json_object_set_new(fields, KEY_NODELIST, arr) < 0)
            return tokio__error(TOKIO_ENOMEM, "%s: out of memory", where);
        if (rc < 0)
            json_decref(arr);
        return rc;
    } else if (nl != NULL && !json_is_null(nl)) {
        return tokio__error(TOKIO_EFORMAT, "%s: nodelist is neither a list "
                            "nor a string", where);
    }
    return TOKIO_OK;
}

/* (Re)build s->tasks over s->json; times were checked by recast_task. */
static int
index_tasks(struct tokio_slurm *s)
{
    size_t n = json_object_size(s->json), i = 0;
    struct task *t = NULL;
    const char *key;
    json_t *v;

    if (n > 0 && (t = tokio__calloc(n, sizeof(*t))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory indexing %zu Slurm "
                            "tasks", n);
    json_object_foreach(s->json, key, v) {
        t[i].id = key;
        t[i].fields = v;
        parse_time_field(json_object_get(v, KEY_START), KEY_START, key,
                         &t[i].start, &t[i].has_start);
        parse_time_field(json_object_get(v, KEY_END), KEY_END, key,
                         &t[i].end, &t[i].has_end);
        i++;
    }
    free(s->tasks);
    s->tasks = t;
    s->n_tasks = n;
    return TOKIO_OK;
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

static int
parse_sacct(json_t *tasks, char *text, size_t len, const char *name)
{
    char **cols = NULL, **fields = NULL;
    size_t n_cols = 0, cap_cols = 0, n_fields = 0, cap_fields = 0;
    size_t lineno = 0;
    char where[512];
    int rc = TOKIO_OK;

    for (char *line = text; line < text + len && rc == TOKIO_OK;) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        char *next = nl ? nl + 1 : text + len;
        size_t ll = (size_t)((nl ? nl : text + len) - line);
        lineno++;
        if (ll > 0 && line[ll - 1] == '\r')
            ll--;
        line[ll] = '\0';
        if (memchr(line, '\0', ll) != NULL) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: NUL byte in "
                              "sacct text", name, lineno);
            break;
        }
        if (lineno == 1) {
            if (ll == 0) {
                rc = tokio__error(TOKIO_EFORMAT, "'%s' line 1: empty, "
                                  "expected the sacct header", name);
                break;
            }
            if (split_pipes(line, &cols, &cap_cols, &n_cols) < 0)
                goto oom;
            /* sacct capitalizes (JobIDRaw); the reference lower-cased */
            for (size_t i = 0; i < n_cols; i++)
                for (char *p = cols[i]; *p; p++)
                    if (*p >= 'A' && *p <= 'Z')
                        *p = (char)(*p - 'A' + 'a');
        } else if (ll > 0) {
            if (split_pipes(line, &fields, &cap_fields, &n_fields) < 0)
                goto oom;
            if (n_fields != n_cols) {
                rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %zu fields "
                                  "where the header has %zu", name, lineno,
                                  n_fields, n_cols);
                break;
            }
            json_t *rec = json_object();
            if (rec == NULL)
                goto oom;
            for (size_t i = 0; i < n_cols; i++) {
                /* the trailing '|' of --parsable makes an unnamed column */
                if (cols[i][0] == '\0')
                    continue;
                if (json_object_set_new(rec, cols[i],
                                        json_string(fields[i])) < 0) {
                    json_decref(rec);
                    goto oom;
                }
            }
            snprintf(where, sizeof(where), "'%s' line %zu", name, lineno);
            if ((rc = recast_task(rec, where)) < 0) {
                json_decref(rec);
                break;
            }
            /* a repeated task id replaces the earlier line, as there */
            if (json_object_set_new(tasks, fields[0], rec) < 0)
                goto oom;
        }
        line = next;
    }
    if (lineno == 0)
        rc = tokio__error(TOKIO_EFORMAT, "'%s': empty, expected sacct text "
                          "or JSON", name);
    free(cols);
    free(fields);
    return rc;
oom:
    free(cols);
    free(fields);
    return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s' line %zu",
                        name, lineno);
}

/* ---- JSON ------------------------------------------------------------ */

/*
 * Check and recast the tasks of `json` into `tasks`.  A caller's JSON is
 * borrowed, so each task is copied; JSON we parsed ourselves (`ours`) is
 * recast in place and its tasks shared, as copying them was most of the
 * time spent reading a cache file.
 */
static int
tasks_from_json(json_t *tasks, const json_t *json, int ours,
                const char *name)
{
    char where[512];
    const char *key;
    json_t *v;
    int rc;

    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "'%s': Slurm JSON must be an "
                            "object of tasks", name);
    json_object_foreach((json_t *)json, key, v) {
        if (!json_is_object(v))
            return tokio__error(TOKIO_EFORMAT, "'%s' task '%.100s': not an "
                                "object", name, key);
        json_t *copy = ours ? json_incref(v) : json_deep_copy(v);
        if (copy == NULL)
            return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                                name);
        snprintf(where, sizeof(where), "'%s' task '%.100s'", name, key);
        if ((rc = recast_task(copy, where)) < 0) {
            json_decref(copy);
            return rc;
        }
        if (json_object_set_new(tasks, key, copy) < 0)
            return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                                name);
    }
    return TOKIO_OK;
}

static int
new_table(struct tokio_slurm **out, const char *name)
{
    struct tokio_slurm *s = tokio__calloc(1, sizeof(*s));

    if (s == NULL || (s->json = json_object()) == NULL) {
        free(s);
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                            name);
    }
    *out = s;
    return TOKIO_OK;
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
    if (i < len && buf[i] == '{') {
        json_error_t err;
        int oom = 0;
        json_t *json = tokio__json_parse(buf, len, 0, &err, &oom);
        if (json == NULL) {
            if (oom)
                rc = tokio__error(TOKIO_ENOMEM, "out of memory reading "
                                  "'%s'", name);
            else
                rc = tokio__error(TOKIO_EFORMAT, "'%s' line %d column %d: "
                                  "%s", name, err.line, err.column,
                                  err.text);
        } else {
            rc = tasks_from_json(s->json, json, 1, name);
            json_decref(json);
        }
    } else {
        rc = parse_sacct(s->json, buf, len, name);
    }
    if (rc >= 0)
        rc = index_tasks(s);
    if (rc < 0) {
        tokio_slurm_free(s);
        return rc;
    }
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
    if ((rc = tasks_from_json(s->json, json, 0, "JSON")) < 0 ||
        (rc = index_tasks(s)) < 0) {
        tokio_slurm_free(s);
        return rc;
    }
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
    return i < s->n_tasks ? s->tasks[i].id : NULL;
}

const json_t *
tokio_slurm_task(const struct tokio_slurm *s, size_t i)
{
    return i < s->n_tasks ? s->tasks[i].fields : NULL;
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
        keep += task_of_job(s->tasks[i].id, jobid);
    if (keep == 0)
        return tokio__error(TOKIO_ENOTFOUND, "no task of job '%s' among %zu "
                            "Slurm tasks", jobid, s->n_tasks);
    /* deleting keys frees them: collect first, index afterwards */
    const char *key;
    void *tmp;
    json_t *v;
    json_object_foreach_safe(s->json, tmp, key, v) {
        if (!task_of_job(key, jobid))
            json_object_del(s->json, key);
    }
    if (index_tasks(s) < 0) {
        /* the old index points at deleted keys: leave an empty table */
        free(s->tasks);
        s->tasks = NULL;
        s->n_tasks = 0;
        return TOKIO_ENOMEM;
    }
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
        if (strchr(s->tasks[i].id, '.') == NULL)
            ids[n++] = s->tasks[i].id;
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
    for (size_t i = 0; i < s->n_tasks; i++)
        total += json_array_size(json_object_get(s->tasks[i].fields,
                                                 KEY_NODELIST));
    if (total == 0)
        return TOKIO_OK;
    if ((nodes = tokio__calloc(total, sizeof(*nodes))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory listing %zu "
                            "nodes", total);
    for (size_t i = 0; i < s->n_tasks; i++) {
        const json_t *nl = json_object_get(s->tasks[i].fields, KEY_NODELIST);
        for (size_t k = 0; k < json_array_size(nl); k++)
            nodes[n++] = json_string_value(json_array_get(nl, k));
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
    *out = json_deep_copy(s->json);
    if (*out == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory serializing %zu "
                            "Slurm tasks", s->n_tasks);
    return TOKIO_OK;
}

/* Header of the native form: jobidraw, then the first task's keys. */
static int
native_columns(const struct tokio_slurm *s, const char ***cols_out,
               size_t *n_out)
{
    const json_t *first = s->n_tasks ? s->tasks[0].fields : NULL;
    size_t n = 1;
    const char **cols;
    const char *key;
    json_t *v;

    *cols_out = NULL;
    *n_out = 0;
    if (first == NULL)
        return TOKIO_OK;
    cols = tokio__calloc(json_object_size(first) + 1, sizeof(*cols));
    if (cols == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing Slurm "
                            "tasks");
    cols[0] = KEY_JOBIDRAW;
    json_object_foreach((json_t *)first, key, v) {
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
cell_text(struct sbuf *b, const json_t *v)
{
    char num[40];
    int n;

    b->len = 0;
    if (sbuf_add(b, "", 0) < 0)
        return -1;
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
            const json_t *v = json_object_get(s->tasks[i].fields, cols[c]);
            if (v == NULL)
                rc = tokio__error(TOKIO_EFORMAT, "Slurm task '%s' has no "
                                  "'%s' field, which the first task has",
                                  s->tasks[i].id, cols[c]);
            else if (cell_text(&b, v) < 0 ||
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
    if (ferror(fp))
        return tokio__error(TOKIO_EIO, "cannot write Slurm tasks: %s",
                            strerror(errno));
    return TOKIO_OK;
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
    if (ferror(fp))
        rc = tokio__error(TOKIO_EIO, "cannot write Slurm CSV: %s",
                          strerror(errno));
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
    json_decref(s->json);
    free(s->tasks);
    free(s);
}
