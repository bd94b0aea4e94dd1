/*
 * src/core/json.c - JSON text exactly as the reference writes it.
 *
 * The reference's caches and command outputs come from Python's
 * json.dumps(), so downstream scripts (and our golden comparisons) see its
 * layout: ", " and ": " separators, one item per line under `indent`,
 * "{}"/"[]" for empty containers, non-ASCII as \uXXXX, and floats in
 * repr() form (src/core/repr.c).  jansson's own dumper differs in all of
 * these, so we walk the jansson tree ourselves; jansson still owns parsing
 * and the values.  The same writer also streams (tokio__jstream_*) for the
 * two outputs too large to build as a tree first: a Darshan log's records
 * (darshan_json.c) and Elasticsearch pages (es.c).
 */
#include "tokio/output.h"
#include "tokio/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/wbuf.h"

/*
 * Integers above INT64_MAX travel as a string "\0u64:" followed by the
 * decimal digits: a NUL first byte never comes from text we parse (our
 * readers stop strings at NUL), so it cannot be confused with data.
 */
static const char U64_TAG[] = "\0u64:";
#define U64_TAG_LEN (sizeof(U64_TAG) - 1)

json_t *
tokio_json_uint64(uint64_t value)
{
    char buf[U64_TAG_LEN + 24];

    if (value <= (uint64_t)INT64_MAX)
        return json_integer((json_int_t)value);
    memcpy(buf, U64_TAG, U64_TAG_LEN);
    int n = snprintf(buf + U64_TAG_LEN, sizeof(buf) - U64_TAG_LEN,
                     "%" PRIu64, value);
    return json_stringn_nocheck(buf, U64_TAG_LEN + (size_t)n);
}

/* The digits of a tagged big integer, or NULL if `v` is not one. */
static const char *
u64_digits(const json_t *v)
{
    if (!json_is_string(v) || json_string_length(v) <= U64_TAG_LEN ||
        memcmp(json_string_value(v), U64_TAG, U64_TAG_LEN) != 0)
        return NULL;
    return json_string_value(v) + U64_TAG_LEN;
}

int
tokio_json_uint64_value(const json_t *json, uint64_t *value_out)
{
    const char *digits = u64_digits(json);

    if (digits != NULL) {
        *value_out = strtoull(digits, NULL, 10);
        return 1;
    }
    if (json_is_integer(json) && json_integer_value(json) >= 0) {
        *value_out = (uint64_t)json_integer_value(json);
        return 1;
    }
    return 0;
}

/* ---- the writer: text goes through a buffer, out in big fwrite()s ---- */

/*
 * Sorting keys dominates writing Darshan's JSON, whose objects at one
 * depth mostly repeat one key list (every rank's counters).  The last
 * sorted order at each depth is kept (pointers into the tree being
 * written, which does not change meanwhile) and reused when the next
 * object there has the same keys in the same insertion order.
 */
#define SORT_CACHE_DEPTHS 16

struct sort_cache {
    const char **keys;          /* insertion order */
    size_t *order;              /* sorted position -> insertion index */
    size_t n, cap;
};

struct out {
    struct tokio__wbuf w;       /* first: the buffer is large */
    struct sort_cache cache[SORT_CACHE_DEPTHS];
};

#define put_lit(o, s) tokio__wbuf_put(&(o)->w, (s), sizeof(s) - 1)

/* Bytes written as themselves inside a string: printable ASCII but the
 * quote and the backslash. */
static const unsigned char PLAIN[256] = {
#define R16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
    R16(0), R16(0),
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,   /* 0x20: '"' */
    R16(1), R16(1),
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,   /* 0x50: '\\' */
    R16(1),
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,   /* 0x7f */
    R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0), R16(0),
#undef R16
};

static void
put_u4(struct out *o, uint32_t c)
{
    static const char hex[] = "0123456789abcdef";
    char *w = tokio__wbuf_room(&o->w, 6);

    w[0] = '\\';
    w[1] = 'u';
    w[2] = hex[(c >> 12) & 0xf];
    w[3] = hex[(c >> 8) & 0xf];
    w[4] = hex[(c >> 4) & 0xf];
    w[5] = hex[c & 0xf];
    o->w.n += 6;
}

/* Most strings are short and plain: copied byte by byte straight into
 * the buffer as far as they are plain, the rest escaped piece by piece. */
static void
write_string(struct out *o, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *end = p + len;

    if (len <= 4096) {
        char *d = tokio__wbuf_room(&o->w, len + 2);
        size_t i = 0;

        d[0] = '"';
        while (i < len && PLAIN[p[i]]) {
            d[1 + i] = (char)p[i];
            i++;
        }
        if (i == len) {
            d[1 + len] = '"';
            o->w.n += len + 2;
            return;
        }
        o->w.n += 1 + i;
        p += i;
    } else {
        tokio__wbuf_char(&o->w, '"');
    }
    while (p < end) {
        const unsigned char *run = p;
        while (p < end && PLAIN[*p])
            p++;
        if (p > run)
            tokio__wbuf_put(&o->w, (const char *)run, (size_t)(p - run));
        if (p == end)
            break;
        uint32_t c = tokio_utf8_next(&p, end);
        if (c == TOKIO_UTF8_INVALID)    /* as U+FFFD, byte by byte */
            c = 0xfffd;

        switch (c) {
        case '"':  put_lit(o, "\\\""); break;
        case '\\': put_lit(o, "\\\\"); break;
        case '\n': put_lit(o, "\\n"); break;
        case '\r': put_lit(o, "\\r"); break;
        case '\t': put_lit(o, "\\t"); break;
        case '\b': put_lit(o, "\\b"); break;
        case '\f': put_lit(o, "\\f"); break;
        default:
            if (c < 0x10000) {
                put_u4(o, c);
            } else {
                c -= 0x10000;
                put_u4(o, 0xd800 + (c >> 10));
                put_u4(o, 0xdc00 + (c & 0x3ff));
            }
        }
    }
    tokio__wbuf_char(&o->w, '"');
}

static void
newline_indent(struct out *o, unsigned indent, unsigned depth)
{
    size_t n = (size_t)indent * depth;

    if (n < 4096) {
        char *d = tokio__wbuf_room(&o->w, n + 1);
        d[0] = '\n';
        memset(d + 1, ' ', n);
        o->w.n += n + 1;
        return;
    }
    tokio__wbuf_char(&o->w, '\n');
    while (n > 0) {
        static const char spaces[] = "                                ";
        size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;
        tokio__wbuf_put(&o->w, spaces, k);
        n -= k;
    }
}

/* Before an item or member at `depth`: after the first, its separator
 * ("," when indenting, else ", "); then, when indenting, its own line. */
static void
item_start(struct out *o, unsigned indent, unsigned depth, int first)
{
    if (!first) {
        if (indent)
            tokio__wbuf_char(&o->w, ',');
        else
            put_lit(o, ", ");
    }
    if (indent)
        newline_indent(o, indent, depth);
}

struct member {
    const char *key;
    size_t len;
    json_t *value;
    size_t idx;                 /* insertion index */
    long long num;              /* the key's value, for SORT_INT_KEYS */
};

/* strcmp() order (unsigned bytes); keys hold no NUL (jansson's object
 * keys are C strings here). */
static int
compare_members(const void *a, const void *b)
{
    const struct member *x = a, *y = b;

    return strcmp(x->key, y->key);
}

static int
compare_int_members(const void *a, const void *b)
{
    const struct member *x = a, *y = b;

    return (x->num > y->num) - (x->num < y->num);
}

/* 1 if every key is an integer as Python prints one (into mem[].num). */
static int
int_keys(struct member *mem, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *end, again[32];
        errno = 0;
        mem[i].num = strtoll(mem[i].key, &end, 10);
        snprintf(again, sizeof(again), "%lld", mem[i].num);
        if (errno != 0 || strcmp(again, mem[i].key) != 0)
            return 0;
    }
    return 1;
}

/* Sort `mem` by key, from the depth's cache when the keys repeat. */
static void
sort_members(struct out *o, struct member *mem, size_t n, unsigned depth)
{
    struct sort_cache *c = depth < SORT_CACHE_DEPTHS ? &o->cache[depth]
                                                     : NULL;
    size_t i;

    if (c != NULL && c->n == n) {
        for (i = 0; i < n; i++)
            if (strcmp(c->keys[i], mem[i].key) != 0)
                break;
        if (i == n) {
            struct member tmp[64];
            struct member *copy = n <= 64 ? tmp : malloc(n * sizeof(*copy));
            if (copy != NULL) {
                memcpy(copy, mem, n * sizeof(*mem));
                for (i = 0; i < n; i++)
                    mem[i] = copy[c->order[i]];
                if (copy != tmp)
                    free(copy);
                return;
            }
        }
    }
    /* remember this order; the cache's memory is optional (a failure
     * only loses the shortcut), so it bypasses tokio__ allocators and
     * their failure injection */
    qsort(mem, n, sizeof(*mem), compare_members);
    if (c == NULL)
        return;
    c->n = 0;
    if (c->cap < n) {
        const char **k = realloc(c->keys, n * sizeof(*k));
        if (k == NULL)
            return;
        c->keys = k;
        size_t *ord = realloc(c->order, n * sizeof(*ord));
        if (ord == NULL)
            return;
        c->order = ord;
        c->cap = n;
    }
    for (i = 0; i < n; i++) {
        c->keys[mem[i].idx] = mem[i].key;
        c->order[i] = mem[i].idx;
    }
    c->n = n;
}

static void
free_cache(struct out *o)
{
    for (size_t d = 0; d < SORT_CACHE_DEPTHS; d++) {
        free(o->cache[d].keys);
        free(o->cache[d].order);
    }
}

/* Deep trees are refused rather than risking the C stack. */
#define MAX_DEPTH 512

static int
write_value(struct out *o, const json_t *v, unsigned flags, unsigned depth)
{
    const unsigned indent = flags & 0xffu;

    if (depth > MAX_DEPTH)
        return tokio__error(TOKIO_EINVAL, "JSON nested deeper than %d levels",
                            MAX_DEPTH);
    switch (json_typeof(v)) {
    case JSON_NULL:  put_lit(o, "null"); return TOKIO_OK;
    case JSON_TRUE:  put_lit(o, "true"); return TOKIO_OK;
    case JSON_FALSE: put_lit(o, "false"); return TOKIO_OK;
    case JSON_INTEGER:
        tokio__wbuf_int(&o->w, json_integer_value(v));
        return TOKIO_OK;
    case JSON_REAL: {
        tokio__wbuf_real(&o->w, json_real_value(v));
        return TOKIO_OK;
    }
    case JSON_STRING: {
        const char *digits = u64_digits(v);
        if (digits != NULL)
            tokio__wbuf_put(&o->w, digits, strlen(digits));
        else
            write_string(o, json_string_value(v), json_string_length(v));
        return TOKIO_OK;
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(v);
        if (n == 0) {
            put_lit(o, "[]");
            return TOKIO_OK;
        }
        tokio__wbuf_char(&o->w, '[');
        for (size_t i = 0; i < n; i++) {
            item_start(o, indent, depth + 1, i == 0);
            int rc = write_value(o, json_array_get(v, i), flags, depth + 1);
            if (rc < 0)
                return rc;
        }
        if (indent)
            newline_indent(o, indent, depth);
        tokio__wbuf_char(&o->w, ']');
        return TOKIO_OK;
    }
    case JSON_OBJECT: {
        size_t n = json_object_size(v);
        if (n == 0) {
            put_lit(o, "{}");
            return TOKIO_OK;
        }
        struct member *mem = tokio__calloc(n, sizeof(*mem));
        if (mem == NULL)
            return tokio__error(TOKIO_ENOMEM, "out of memory writing JSON");
        size_t i = 0;
        int sorted = 1;
        const char *key;
        json_t *item;
        json_object_foreach((json_t *)v, key, item) {
            mem[i].key = key;
            mem[i].len = strlen(key);
            mem[i].value = item;
            mem[i].idx = i;
            if (i > 0 && sorted && strcmp(mem[i - 1].key, key) > 0)
                sorted = 0;
            i++;
        }
        if ((flags & TOKIO_JSON_SORT_KEYS) &&
            (flags & TOKIO_JSON_SORT_INT_KEYS) && int_keys(mem, n))
            qsort(mem, n, sizeof(*mem), compare_int_members);
        else if ((flags & TOKIO_JSON_SORT_KEYS) && !sorted)
            sort_members(o, mem, n, depth);
        tokio__wbuf_char(&o->w, '{');
        int rc = TOKIO_OK;
        for (i = 0; i < n && rc == TOKIO_OK; i++) {
            item_start(o, indent, depth + 1, i == 0);
            write_string(o, mem[i].key, mem[i].len);
            put_lit(o, ": ");
            rc = write_value(o, mem[i].value, flags, depth + 1);
        }
        free(mem);
        if (rc < 0)
            return rc;
        if (indent)
            newline_indent(o, indent, depth);
        tokio__wbuf_char(&o->w, '}');
        return TOKIO_OK;
    }
    }
    return tokio__error(TOKIO_EINVAL, "not a JSON value");
}

int
tokio_json_write(const json_t *value, FILE *fp, unsigned flags)
{
    if (value == NULL)
        return tokio__error(TOKIO_EINVAL, "no JSON value to write");
    struct out *o = tokio__calloc(1, sizeof(*o));
    if (o == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing JSON");
    tokio__wbuf_init(&o->w, fp);
    int rc = write_value(o, value, flags, 0);
    if (rc >= 0)
        rc = tokio__wbuf_finish(&o->w, 0, "writing JSON failed");
    free_cache(o);
    free(o);
    return rc;
}

int
tokio_json_dumps(char **out, const json_t *value, unsigned flags)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp;

    *out = NULL;
    /* open_memstream uses the system allocator: the result is free()able */
    if ((fp = open_memstream(&buf, &len)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing JSON");
    int rc = tokio_json_write(value, fp, flags);
    if (fclose(fp) != 0 && rc == TOKIO_OK)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory writing JSON");
    if (rc < 0) {
        free(buf);
        return rc;
    }
    *out = buf;
    return TOKIO_OK;
}

/*
 * Whether jansson failed for want of memory rather than because of the
 * text.  jansson 2.14 reports that with json_error_out_of_memory, except
 * when its lexer cannot even start, where it leaves the message empty.
 */
static int
json_oom(const json_error_t *err)
{
    return json_error_code(err) == json_error_out_of_memory ||
           err->text[0] == '\0';
}

/*
 * json_loadb() that tells memory from syntax.  jansson 2.14 reports some
 * allocation failures (a string token it cannot copy) as syntax errors.  A
 * real syntax error is deterministic, so on failure parse once more: a
 * different outcome, or an allocator failing right now, means the first
 * failure was memory.  Malformed input is rare enough to parse twice.  Its
 * lexer also drops a byte of a string it cannot grow and parses on: a
 * value made while an allocation failed is refused as out of memory.
 * Returns the value, or NULL with *oom_out saying which kind of failure.
 */
json_t *
tokio__json_parse(const char *text, size_t len, size_t flags,
                  json_error_t *err, int *oom_out)
{
    json_error_t again;
    size_t failures = tokio__alloc_failures();

    /* where jansson gives up before its lexer starts it writes only the
     * start of *err; zeroed, that reads as "empty message, no code" */
    memset(err, 0, sizeof(*err));
    memset(&again, 0, sizeof(again));
    tokio__alloc_spare(1);
    json_t *v = json_loadb(text, len, flags, err);
    tokio__alloc_spare(0);

    *oom_out = 0;
    if (v != NULL && tokio__alloc_failures() == failures)
        return v;
    if (v != NULL) {
        json_decref(v);
        *oom_out = 1;
        return NULL;
    }
    if (json_oom(err)) {
        *oom_out = 1;
        return NULL;
    }
    tokio__alloc_spare(1);
    v = json_loadb(text, len, flags, &again);
    tokio__alloc_spare(0);
    if (v != NULL || json_oom(&again) || again.position != err->position ||
        strcmp(again.text, err->text) != 0) {
        json_decref(v);
        *oom_out = 1;
        return NULL;
    }
    json_t *probe = json_object();
    if (probe == NULL)
        *oom_out = 1;
    json_decref(probe);
    return NULL;
}

int
tokio__json_parse_named(json_t **out, const char *text, size_t len,
                        size_t flags, const char *name)
{
    json_error_t err;
    int oom;

    *out = tokio__json_parse(text, len, flags, &err, &oom);
    if (*out != NULL)
        return TOKIO_OK;
    if (oom)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
    return tokio__error(TOKIO_EFORMAT, "'%s' line %d column %d: %s", name,
                        err.line, err.column, err.text);
}

/* ---- streaming: an object written member by member ------------------- */

#define JSTREAM_DEPTH 64

struct tokio__jstream {
    struct out o;               /* buffer and sort caches */
    unsigned flags;
    unsigned depth;             /* objects and lists open */
    int rc;                     /* first error */
    unsigned char first[JSTREAM_DEPTH + 1];   /* no member yet, per depth */
    unsigned char list[JSTREAM_DEPTH + 1];    /* a list, not an object */
};

struct tokio__jstream *
tokio__jstream_open(FILE *fp, unsigned flags)
{
    struct tokio__jstream *js = tokio__calloc(1, sizeof(*js));

    if (js == NULL) {
        tokio__error(TOKIO_ENOMEM, "out of memory writing JSON");
        return NULL;
    }
    tokio__wbuf_init(&js->o.w, fp);
    js->flags = flags;
    return js;
}

static void
jstream_open_one(struct tokio__jstream *js, int list)
{
    if (js->depth == JSTREAM_DEPTH) {
        if (js->rc == TOKIO_OK)
            js->rc = tokio__error(TOKIO_EINVAL, "JSON stream nested deeper "
                                  "than %d objects", JSTREAM_DEPTH);
        return;
    }
    /* "{" or "[" waits for the first member: an empty one is "{}"/"[]" */
    js->first[++js->depth] = 1;
    js->list[js->depth] = (unsigned char)list;
}

void
tokio__jstream_begin(struct tokio__jstream *js)
{
    jstream_open_one(js, 0);
}

void
tokio__jstream_begin_list(struct tokio__jstream *js)
{
    jstream_open_one(js, 1);
}

void
tokio__jstream_end(struct tokio__jstream *js)
{
    if (js->depth == 0)
        return;
    if (js->first[js->depth]) {
        if (js->list[js->depth])
            put_lit(&js->o, "[]");
        else
            put_lit(&js->o, "{}");
    } else {
        if (js->flags & 0xffu)
            newline_indent(&js->o, js->flags & 0xffu, js->depth - 1);
        tokio__wbuf_char(&js->o.w, js->list[js->depth] ? ']' : '}');
    }
    js->depth--;
}

/* What comes before a member: the opening bracket or a separator, and
 * the member's line. */
static void
jstream_next(struct tokio__jstream *js)
{
    const int first = js->first[js->depth];

    if (first) {
        tokio__wbuf_char(&js->o.w, js->list[js->depth] ? '[' : '{');
        js->first[js->depth] = 0;
    }
    item_start(&js->o, js->flags & 0xffu, js->depth, first);
}

void
tokio__jstream_key(struct tokio__jstream *js, const char *key, size_t len)
{
    jstream_next(js);
    write_string(&js->o, key, len);
    put_lit(&js->o, ": ");
}

void
tokio__jstream_item(struct tokio__jstream *js)
{
    jstream_next(js);
}

void
tokio__jstream_int(struct tokio__jstream *js, int64_t v)
{
    tokio__wbuf_int(&js->o.w, v);
}

void
tokio__jstream_uint(struct tokio__jstream *js, uint64_t v)
{
    tokio__wbuf_digits(&js->o.w, v, 0);
}

void
tokio__jstream_real(struct tokio__jstream *js, double v)
{
    tokio__wbuf_real(&js->o.w, v);
}

void
tokio__jstream_string(struct tokio__jstream *js, const char *s, size_t len)
{
    write_string(&js->o, s, len);
}

void
tokio__jstream_value(struct tokio__jstream *js, const json_t *v)
{
    int rc = v != NULL ? write_value(&js->o, v, js->flags, js->depth)
                       : tokio__error(TOKIO_EINVAL, "no JSON value to "
                                      "write");

    if (rc < 0 && js->rc == TOKIO_OK)
        js->rc = rc;
}

int
tokio__jstream_close(struct tokio__jstream *js)
{
    if (js == NULL)
        return TOKIO_OK;
    int rc = js->rc;
    if (rc == TOKIO_OK)
        rc = tokio__wbuf_finish(&js->o.w, 1, "writing JSON failed");
    free_cache(&js->o);
    free(js);
    return rc;
}

json_t *
tokio__json_copy(json_t *v)
{
    json_t *copy, *item;
    const char *key;
    size_t i;

    if (json_is_object(v)) {
        if ((copy = json_object()) == NULL)
            return NULL;
        json_object_foreach(v, key, item)
            if (json_object_set_nocheck(copy, key, item) < 0) {
                json_decref(copy);
                return NULL;
            }
        return copy;
    }
    if (json_is_array(v)) {
        if ((copy = json_array()) == NULL)
            return NULL;
        json_array_foreach(v, i, item)
            if (json_array_append(copy, item) < 0) {
                json_decref(copy);
                return NULL;
            }
        return copy;
    }
    return json_copy(v);
}

int
tokio__json_falsy(const json_t *v)
{
    return json_is_null(v) || json_is_false(v) ||
           (json_is_integer(v) && json_integer_value(v) == 0) ||
           (json_is_real(v) && json_real_value(v) == 0.0) ||
           (json_is_string(v) && json_string_length(v) == 0) ||
           (json_is_array(v) && json_array_size(v) == 0) ||
           (json_is_object(v) && json_object_size(v) == 0);
}
