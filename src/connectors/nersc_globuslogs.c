/*
 * src/connectors/nersc_globuslogs.c - Globus transfer records from NERSC's
 * Elasticsearch, read from a saved cache of scroll pages (the only mode:
 * there is no Elasticsearch client here).  Mirrors
 * tokio.connectors.nersc_globuslogs.NerscGlobusLogs (pytokio 0.13) with
 * es.EsConnection.from_cache(), query_and_scroll() over the fake pages,
 * save_cache() and to_dataframe(fields=SOURCE_FILTER).
 *
 * Test input: ../shared/testdata/pytokio-inputs/globuslogs.json.gz;
 * goldens in ../shared/testdata/golden/pytokio/cache_nersc_globuslogs/.
 *
 * A cache of the usual shape (hits of known keys holding scalars, a
 * _source object of known fields holding scalars) is read without a
 * tree by core/json_scan into typed members that point into the text,
 * which is kept; anything else (an escape in a string, another key, a
 * nested value, an error) is left to jansson, which reads it or says
 * where it is wrong.  to_json() and write_csv() build the tree they
 * need from the typed members.
 *
 * Differs from pytokio: a page that is not a list, or a hit without an
 * object "_source" is TOKIO_EFORMAT at open (the reference failed later,
 * in to_dataframe(), or never); a field holding a list or object has no
 * CSV form (pandas printed its Python repr).
 */
#include "tokio/connectors/nersc_globuslogs.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/input.h"
#include "tokio/output.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/json_scan.h"

/* The _source fields the reference asks for and puts in its CSV, in its
 * order (nersc_globuslogs.SOURCE_FILTER). */
struct key {
    const char *name;
    size_t len;
};
#define KEY(s) { s, sizeof(s) - 1 }
static const struct key fields[] = {
    KEY("@timestamp"), KEY("BLOCK"), KEY("BUFFER"), KEY("CODE"),
    KEY("DATE"), KEY("DEST"), KEY("DESTIP"), KEY("FILE"), KEY("HOST"),
    KEY("NBYTES"), KEY("START"), KEY("STREAMS"), KEY("STRIPES"),
    KEY("TASKID"), KEY("TYPE"), KEY("USER"), KEY("VOLUME"),
    KEY("bandwidth_mbps"), KEY("duration"), KEY("start_date"),
    KEY("end_date"), KEY("host"),
};
#define N_FIELDS (sizeof(fields) / sizeof(fields[0]))

/* The keys of a hit the fast reader reads (any others are jansson's). */
static const struct key hit_keys[] = {
    KEY("_id"), KEY("_index"), KEY("_score"), KEY("_source"), KEY("_type"),
};
#define N_HIT_KEYS (sizeof(hit_keys) / sizeof(hit_keys[0]))
#define SOURCE 3                    /* hit_keys[SOURCE] */
#define OBJECT (TOKIO__JSTRING + 1) /* a member's type: the _source */

/* A member of a hit or of its _source, as the fast reader read it. */
struct member {
    unsigned char key;      /* in hit_keys[], or fields[] in a _source */
    unsigned char type;     /* enum tokio__jtype, or OBJECT */
    uint32_t n;             /* a string's length; an OBJECT's members */
    union {
        int64_t i;
        double d;
        size_t at;          /* a string's offset in the text; an
                             * OBJECT's first member in src */
    } v;
};

struct members {
    struct member *m;
    size_t n, cap;
};

/*
 * The pages kept: read by jansson (`pages`), or by the fast reader when
 * the cache has its usual shape (every hit an object of scalars and a
 * _source object of scalars, with known keys, each once): then `pages`
 * is NULL and the hits are typed, in input order.
 */
struct tokio_nersc_globuslogs {
    json_t *pages;          /* list of lists of hits */
    size_t nhits;
    char *text;             /* the cache's text, where strings are */
    struct members meta;    /* every hit's members, hit after hit */
    struct members src;     /* every _source's members */
    size_t *hits;           /* first meta member of each hit; one more
                             * holding meta.n */
    size_t *page_end;       /* hits up to the end of each page */
    size_t npages, hits_cap, pages_cap;
    /* the order of keys in the last hit, for scan_object() */
    unsigned char follow_hit[N_HIT_KEYS + 1], follow_src[N_FIELDS + 1];
};

/* The array `a` of *cap items of `size` bytes, `have` used, with room
 * for `n` more: `a` or a larger copy (*cap updated); NULL when out of
 * memory (`a` unchanged). */
static void *
grow(void *a, size_t *cap, size_t have, size_t n, size_t size)
{
    size_t want;

    if (have + n <= *cap)
        return a;
    want = *cap ? *cap * 2 : 64;
    if (want < have + n)
        want = have + n;
    if ((a = tokio__reallocarray(a, want, size)) != NULL)
        *cap = want;
    return a;
}

static struct member *
push(struct members *l)
{
    struct member *m = grow(l->m, &l->cap, l->n, 1, sizeof(*m));

    if (m == NULL)
        return NULL;
    l->m = m;
    return &l->m[l->n++];
}

/*
 * The index among `names` of the key at js->p (after white space), or
 * -1 when it is none of them (a negative TOKIO_E* when it is no string
 * the reader reads).  Keys come in the same order hit after hit: the
 * text is first compared with names[hint] ("name" holds no escape),
 * else the key is read and looked up.
 */
static int
scan_key(struct tokio__jscan *js, const struct key *names, size_t count,
         size_t hint)
{
    struct tokio__jscalar v;
    int rc;

    if (tokio__jscan_peek(js) == '"' && hint < count) {
        const struct key *k = &names[hint];
        const char *p = js->p + 1;
        if ((size_t)(js->end - p) > k->len && p[k->len] == '"' &&
            memcmp(p, k->name, k->len) == 0) {
            js->p = p + k->len + 1;
            return (int)hint;
        }
    }
    if (tokio__jscan_peek(js) != '"')
        return TOKIO_EFORMAT;
    if ((rc = tokio__jscan_scalar(js, NULL, &v)) < 0)
        return rc;
    for (size_t k = 0; k < count; k++)
        if (names[k].len == v.len && memcmp(names[k].name, v.str, v.len) == 0)
            return (int)k;
    return -1;
}

/* A scalar value into *m (a string: where it is in the text). */
static int
scan_scalar(struct tokio_nersc_globuslogs *g, struct tokio__jscan *js,
            struct member *m)
{
    struct tokio__jscalar v;
    int rc;

    if ((rc = tokio__jscan_scalar(js, NULL, &v)) < 0)
        return rc;
    m->type = (unsigned char)v.type;
    if (v.type == TOKIO__JSTRING) {
        if (v.len > UINT32_MAX)
            return TOKIO_EFORMAT;
        m->n = (uint32_t)v.len;
        m->v.at = (size_t)(v.str - g->text);
    } else if (v.type == TOKIO__JINT) {
        m->v.i = v.i;
    } else if (v.type == TOKIO__JREAL) {
        m->v.d = v.d;
    }
    return TOKIO_OK;
}

/*
 * The members of an object with keys among `names` (at most 32), each
 * once, appended to `l`: _source's values are scalars; a hit's too but
 * for its _source.  TOKIO_EFORMAT for anything else (no message: the
 * caller asks jansson), TOKIO_ENOMEM.
 */
static int
scan_object(struct tokio_nersc_globuslogs *g, struct tokio__jscan *js,
            const struct key *names, size_t count, struct members *l,
            uint32_t *seen)
{
    /* the key that followed each key (the first: after `count`) in the
     * last object, where the next one is looked for first */
    unsigned char *follow = names == hit_keys ? g->follow_hit
                                              : g->follow_src;
    size_t prev = count;
    int rc, more, k;

    *seen = 0;
    if ((rc = tokio__jscan_eat(js, '{')) < 0)
        return rc;
    if (tokio__jscan_peek(js) == '}') {
        js->p++;
        return TOKIO_OK;
    }
    do {
        struct member *m;
        if ((k = scan_key(js, names, count, follow[prev])) < -1)
            return k;
        if (k < 0 || (*seen & UINT32_C(1) << k))
            return TOKIO_EFORMAT;
        follow[prev] = (unsigned char)k;
        prev = (size_t)k;
        if (js->p < js->end && *js->p == ':')   /* the usual "key": */
            js->p++;
        else if ((rc = tokio__jscan_eat(js, ':')) < 0)
            return rc;
        *seen |= UINT32_C(1) << k;
        if ((m = push(l)) == NULL)
            return TOKIO_ENOMEM;
        m->key = (unsigned char)k;
        if (names == hit_keys && k == SOURCE) {
            size_t first = g->src.n;
            uint32_t src_seen;
            m->type = OBJECT;
            m->v.at = first;
            /* m stays valid: the _source's members go to another list */
            if ((rc = scan_object(g, js, fields, N_FIELDS, &g->src,
                                  &src_seen)) < 0)
                return rc;
            m->n = (uint32_t)(g->src.n - first);
        } else if ((rc = scan_scalar(g, js, m)) < 0) {
            return rc;
        }
    } while ((more = tokio__jscan_next(js, '}')) == 1);
    return more;
}

/* One page's hits (after its '['); not empty. */
static int
scan_page(struct tokio_nersc_globuslogs *g, struct tokio__jscan *js)
{
    uint32_t seen;
    int rc, more;

    do {
        size_t *hits = grow(g->hits, &g->hits_cap, g->nhits, 2,
                            sizeof(*hits));
        if (hits == NULL)
            return TOKIO_ENOMEM;
        g->hits = hits;
        g->hits[g->nhits] = g->meta.n;
        if ((rc = scan_object(g, js, hit_keys, N_HIT_KEYS, &g->meta,
                              &seen)) < 0)
            return rc;
        if (!(seen & UINT32_C(1) << SOURCE))
            return TOKIO_EFORMAT;
        g->nhits++;
    } while ((more = tokio__jscan_next(js, ']')) == 1);
    if (more < 0)
        return more;
    size_t *ends = grow(g->page_end, &g->pages_cap, g->npages, 1,
                        sizeof(*ends));
    if (ends == NULL)
        return TOKIO_ENOMEM;
    g->page_end = ends;
    g->page_end[g->npages++] = g->nhits;
    return TOKIO_OK;
}

/*
 * The cache without a tree, when it has the usual shape: a list of
 * lists of hits, up to an empty list (what follows is only checked).
 * TOKIO_EFORMAT for anything else (the caller then asks jansson, which
 * says what is wrong or reads it), TOKIO_ENOMEM.
 */
static int
scan_cache(struct tokio_nersc_globuslogs *g, size_t len, const char *name)
{
    struct tokio__jscan js;
    int rc, more;

    tokio__jscan_init(&js, g->text, len, name);
    if ((rc = tokio__jscan_eat(&js, '[')) < 0)
        return rc;
    if (tokio__jscan_peek(&js) == ']') {
        js.p++;
        return tokio__jscan_end(&js);
    }
    do {
        if ((rc = tokio__jscan_eat(&js, '[')) < 0)
            return rc;
        if (tokio__jscan_peek(&js) == ']') {   /* the scroll's end */
            js.p++;
            while ((more = tokio__jscan_next(&js, ']')) == 1)
                if ((rc = tokio__jscan_skip(&js)) < 0)
                    return rc;
            return more < 0 ? more : tokio__jscan_end(&js);
        }
        if ((rc = scan_page(g, &js)) < 0)
            return rc;
        g->hits[g->nhits] = g->meta.n;
    } while ((more = tokio__jscan_next(&js, ']')) == 1);
    return more < 0 ? more : tokio__jscan_end(&js);
}

/* Forget what scan_cache() read. */
static void
clear_typed(struct tokio_nersc_globuslogs *g)
{
    free(g->text);
    free(g->meta.m);
    free(g->src.m);
    free(g->hits);
    free(g->page_end);
    memset(g, 0, sizeof(*g));
}

/* Python's truth of a JSON value: what ends a scroll. */
static int
falsy(const json_t *v)
{
    return json_is_null(v) || json_is_false(v) ||
           (json_is_integer(v) && json_integer_value(v) == 0) ||
           (json_is_real(v) && json_real_value(v) == 0.0) ||
           (json_is_string(v) && json_string_length(v) == 0) ||
           (json_is_array(v) && json_array_size(v) == 0) ||
           (json_is_object(v) && json_object_size(v) == 0);
}

/* The pages a query of the cache keeps: up to the first empty one. */
static int
load(struct tokio_nersc_globuslogs **out, json_t *json, const char *name)
{
    struct tokio_nersc_globuslogs *g;
    size_t p, n = 0;
    json_t *page;

    if (!json_is_array(json))
        return tokio__error(TOKIO_EFORMAT, "'%s' is not a list of pages of "
                            "Elasticsearch hits", name);
    json_array_foreach(json, p, page) {
        size_t h;
        json_t *hit;

        if (falsy(page))
            break;
        if (!json_is_array(page))
            return tokio__error(TOKIO_EFORMAT, "'%s': page %zu is not a "
                                "list of hits", name, p);
        json_array_foreach(page, h, hit) {
            if (!json_is_object(json_object_get(hit, "_source")))
                return tokio__error(TOKIO_EFORMAT, "'%s': page %zu hit %zu "
                                    "has no object _source", name, p, h);
        }
        n += json_array_size(page);
    }
    if ((g = tokio__calloc(1, sizeof(*g))) == NULL ||
        (g->pages = json_array()) == NULL) {
        free(g);
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
    }
    for (size_t i = 0; i < p; i++)
        if (json_array_append(g->pages, json_array_get(json, i)) < 0) {
            tokio_nersc_globuslogs_free(g);
            return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                                name);
        }
    g->nhits = n;
    *out = g;
    return TOKIO_OK;
}

static int
read_input(struct tokio_nersc_globuslogs **out, struct tokio_input *in)
{
    const char *name = tokio_input_name(in);
    struct tokio_nersc_globuslogs *g;
    unsigned char *buf = NULL;
    size_t len = 0;
    json_t *json;
    int rc;

    if ((rc = tokio_input_read_all(in, 0, &buf, &len)) < 0)
        return rc;
    if ((g = tokio__calloc(1, sizeof(*g))) == NULL) {
        free(buf);
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
    }
    g->text = (char *)buf;      /* g's now, where its strings are */
    rc = scan_cache(g, len, name);
    if (rc == TOKIO_OK) {
        *out = g;
        return TOKIO_OK;
    }
    g->text = NULL;
    clear_typed(g);
    free(g);
    if (rc == TOKIO_ENOMEM) {
        free(buf);
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
    }
    rc = tokio__json_parse_named(&json, (const char *)buf, len, 0, name);
    free(buf);
    if (rc < 0)
        return rc;
    rc = load(out, json, name);
    json_decref(json);
    return rc;
}

int
tokio_nersc_globuslogs_open(struct tokio_nersc_globuslogs **out,
                            const char *path)
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
tokio_nersc_globuslogs_open_mem(struct tokio_nersc_globuslogs **out,
                                const void *buf, size_t len,
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

size_t
tokio_nersc_globuslogs_count(const struct tokio_nersc_globuslogs *g)
{
    return g->nhits;
}

/* A member read by the fast reader as jansson would have read it (NULL
 * when out of memory). */
static json_t *
member_json(const struct tokio_nersc_globuslogs *g, const struct member *m)
{
    switch (m->type) {
    case TOKIO__JNULL:
        return json_null();
    case TOKIO__JFALSE:
        return json_false();
    case TOKIO__JTRUE:
        return json_true();
    case TOKIO__JINT:
        return json_integer(m->v.i);
    case TOKIO__JREAL:
        return json_real(m->v.d);
    case TOKIO__JSTRING:
        /* the reader checked it is UTF-8 */
        return json_stringn_nocheck(g->text + m->v.at, m->n);
    default: {
        json_t *o = json_object();
        for (size_t i = 0; o != NULL && i < m->n; i++) {
            const struct member *f = &g->src.m[m->v.at + i];
            if (json_object_set_new_nocheck(o, fields[f->key].name,
                                            member_json(g, f)) < 0) {
                json_decref(o);
                o = NULL;
            }
        }
        return o;
    }
    }
}

/* The typed pages as jansson would have read them (NULL when out of
 * memory). */
static json_t *
typed_json(const struct tokio_nersc_globuslogs *g)
{
    json_t *pages = json_array();
    size_t h = 0;

    for (size_t p = 0; pages != NULL && p < g->npages; p++) {
        json_t *page = json_array();
        if (json_array_append_new(pages, page) < 0)
            goto oom;
        for (; h < g->page_end[p]; h++) {
            json_t *hit = json_object();
            if (json_array_append_new(page, hit) < 0)
                goto oom;
            for (size_t i = g->hits[h]; i < g->hits[h + 1]; i++) {
                const struct member *m = &g->meta.m[i];
                if (json_object_set_new_nocheck(hit, hit_keys[m->key].name,
                                                member_json(g, m)) < 0)
                    goto oom;
            }
        }
    }
    return pages;
oom:
    json_decref(pages);
    return NULL;
}

int
tokio_nersc_globuslogs_to_json(const struct tokio_nersc_globuslogs *g,
                               json_t **out)
{
    /* a copy, so the caller may change it without changing `g` */
    *out = g->pages ? json_deep_copy(g->pages) : typed_json(g);
    if (*out == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    return TOKIO_OK;
}

/* What pandas makes of a column: float64 when it holds only numbers
 * (not booleans) and some real or missing cell; else each cell as str(). */
struct col {
    int numeric, real, missing;
};

static void
write_cell(FILE *fp, const json_t *v, const struct col *c)
{
    char buf[40];

    if (v == NULL || json_is_null(v))
        return;
    if (c->numeric && (c->real || c->missing)) {
        tokio_format_double(buf, sizeof(buf), json_number_value(v));
        fputs(buf, fp);
    } else if (json_is_integer(v)) {
        fprintf(fp, "%lld", (long long)json_integer_value(v));
    } else if (json_is_real(v)) {
        tokio_format_double(buf, sizeof(buf), json_real_value(v));
        fputs(buf, fp);
    } else if (json_is_boolean(v)) {
        fputs(json_is_true(v) ? "True" : "False", fp);
    } else {
        tokio_csv_write_field(fp, json_string_value(v),
                              json_string_length(v));
    }
}

static int
write_csv(const json_t *pages, FILE *fp)
{
    struct col cols[N_FIELDS];
    size_t p, h, row = 0;
    json_t *page, *hit;

    for (size_t f = 0; f < N_FIELDS; f++)
        cols[f] = (struct col){ 1, 0, 0 };
    json_array_foreach(pages, p, page) {
        json_array_foreach(page, h, hit) {
            json_t *src = json_object_get(hit, "_source");
            for (size_t f = 0; f < N_FIELDS; f++) {
                json_t *v = json_object_get(src, fields[f].name);
                if (v == NULL || json_is_null(v))
                    cols[f].missing = 1;
                else if (json_is_real(v))
                    cols[f].real = 1;
                else if (json_is_array(v) || json_is_object(v))
                    return tokio__error(TOKIO_EFORMAT, "page %zu hit %zu: "
                                        "field '%s' is a list or object, "
                                        "which has no CSV form", p, h,
                                        fields[f].name);
                else if (!json_is_integer(v))
                    cols[f].numeric = 0;
            }
        }
    }
    for (size_t f = 0; f < N_FIELDS; f++)
        fprintf(fp, ",%s", fields[f].name);
    fputc('\n', fp);
    json_array_foreach(pages, p, page) {
        json_array_foreach(page, h, hit) {
            json_t *src = json_object_get(hit, "_source");
            fprintf(fp, "%zu", row++);
            for (size_t f = 0; f < N_FIELDS; f++) {
                fputc(',', fp);
                write_cell(fp, json_object_get(src, fields[f].name), &cols[f]);
            }
            fputc('\n', fp);
        }
    }
    return tokio__write_check(fp, "cannot write Globus log CSV");
}

int
tokio_nersc_globuslogs_write_csv(const struct tokio_nersc_globuslogs *g,
                                 FILE *fp)
{
    json_t *pages;
    int rc;

    if (g->pages != NULL)
        return write_csv(g->pages, fp);
    /* typed pages: through the tree (CSV is not where the time goes) */
    if ((pages = typed_json(g)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    rc = write_csv(pages, fp);
    json_decref(pages);
    return rc;
}

void
tokio_nersc_globuslogs_free(struct tokio_nersc_globuslogs *g)
{
    if (g == NULL)
        return;
    json_decref(g->pages);
    clear_typed(g);
    free(g);
}
