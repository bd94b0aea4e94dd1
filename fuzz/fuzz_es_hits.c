/*
 * fuzz/fuzz_es_hits.c - src/connectors/es_hits.c against jansson on
 * arbitrary bytes: what es_hits.c takes, jansson must take too, giving
 * each page and hit, and each of collectd's _source fields, the same
 * value (tokio_es_from_json()'s pages: up to the first false one); what
 * jansson refuses, es_hits.c must leave to it (fall back, handing
 * nothing on; with a reset function, one pass: having reset what went).
 * A converter that fails gets its error back only where jansson takes
 * the text and es_hits.c follows all of it.  The same text read as a
 * scroll's search response (its _scroll_id and hits.hits) must agree
 * with jansson's too.  Then the CSV of tokio cache-collectdes --input,
 * made through es_hits.c where it can (a cache file), must equal, byte
 * for byte and error for error, the CSV made from jansson's tree.  Any
 * difference aborts.  Seeds: fuzz/corpus/es_hits/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "tokio/connectors/collectd_es.h"
#include "tokio/connectors/es.h"
#include "tokio/common.h"
#include "connectors/es_hits.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct cursor {
    const json_t *pages;
    const char *const *fields;
    size_t n_fields;
    size_t page, hit, calls, resets;
    int fail;                   /* the first hit fails */
};

/* Python's truth, as es.c's falsy(). */
static int
truthy(const json_t *v)
{
    return !(json_is_null(v) || json_is_false(v) ||
             (json_is_integer(v) && json_integer_value(v) == 0) ||
             (json_is_real(v) && json_real_value(v) == 0.0) ||
             (json_is_string(v) && json_string_length(v) == 0) ||
             (json_is_array(v) && json_array_size(v) == 0) ||
             (json_is_object(v) && json_object_size(v) == 0));
}

static void
same_value(const struct tokio__es_value *a, const json_t *j)
{
    struct tokio__es_value b;

    tokio__es_value_of(j, &b);
    if (a->kind != b.kind || b.kind == TOKIO__ES_OTHER)
        abort();
    if ((a->kind == TOKIO__ES_INT && a->i != b.i) ||
        (a->kind == TOKIO__ES_REAL && memcmp(&a->d, &b.d, sizeof(a->d))) ||
        (a->kind == TOKIO__ES_STRING &&
         (a->len != b.len || memcmp(a->s, b.s, a->len) != 0 ||
          a->s[a->len] != '\0')))
        abort();
}

/* A tokio__es_hit_fn: the hit against jansson's. */
static int
check_hit(const struct tokio__es_value *v, size_t hit, void *payload)
{
    struct cursor *c = payload;
    const json_t *page, *src;

    if (c->fail)
        return c->calls++, TOKIO_EFORMAT;
    if (c->pages == NULL)
        return c->calls++, TOKIO_OK;    /* one pass: a fallback follows */
    if (c->calls++ > 0 && hit == 0) {
        c->page++;
        c->hit = 0;
    }
    if (hit != c->hit++)
        abort();
    page = json_array_get(c->pages, c->page);
    if (!json_is_array(page) || !truthy(page))
        abort();
    src = json_object_get(json_array_get(page, hit), "_source");
    if (!json_is_object(src))
        abort();
    for (size_t f = 0; f < c->n_fields; f++)
        same_value(&v[f], json_object_get(src, c->fields[f]));
    return TOKIO_OK;
}

static int
reset(void *payload)
{
    struct cursor *c = payload;

    c->resets++;
    return TOKIO_OK;
}

/* tokio__es_hits_read() with a fresh cursor: two passes (mode 0), one
 * (1), one with the first hit failing (2). */
static int
read_hits(const uint8_t *data, size_t size, const json_t *pages, int mode,
          struct cursor *c, size_t *page)
{
    memset(c, 0, sizeof(*c));
    c->pages = pages;
    c->fields = tokio_collectd_es_fields(&c->n_fields);
    c->fail = mode == 2;
    int rc = tokio__es_hits_read((const char *)data, size, c->fields,
                                 c->n_fields, check_hit,
                                 mode ? reset : NULL, c, NULL, page);
    if (rc == TOKIO__ES_HITS_FALLBACK && c->resets != (c->calls > 0))
        abort();    /* hits went, no reset; or a reset for nothing */
    if (rc != TOKIO__ES_HITS_FALLBACK && c->resets != 0)
        abort();
    if (mode == 0 && c->calls > 0 && rc == TOKIO__ES_HITS_FALLBACK)
        abort();    /* two passes fell back after handing hits on */
    return rc;
}

/* tokio__es_hits_response() against jansson: the text as a search
 * response, checked, then its hits handed on. */
static void
check_response(const uint8_t *data, size_t size, const json_t *j)
{
    struct tokio__es_response r, again;
    struct cursor c;
    const json_t *hits = json_object_get(json_object_get(j, "hits"), "hits");
    const char *id = json_string_value(json_object_get(j, "_scroll_id"));
    json_t *one = json_array();
    int rc;

    memset(&c, 0, sizeof(c));
    c.fields = tokio_collectd_es_fields(&c.n_fields);
    rc = tokio__es_hits_response((const char *)data, size, c.fields,
                                 c.n_fields, NULL, NULL, &r);
    if (rc == TOKIO__ES_HITS_FALLBACK || rc == TOKIO_ENOMEM) {
        json_decref(one);
        return;
    }
    if (rc != TOKIO_OK || !json_is_array(hits) ||
        r.hits != json_array_size(hits) ||
        (id == NULL) != (r.scroll_id == NULL) ||
        (id != NULL && (strlen(id) != r.scroll_id_len ||
                        memcmp(id, r.scroll_id, r.scroll_id_len) != 0)))
        abort();
    /* the hits, as the one page of a cache */
    json_array_append((json_t *)one, (json_t *)hits);
    c.pages = one;
    rc = tokio__es_hits_response((const char *)data, size, c.fields,
                                 c.n_fields, check_hit, &c, &again);
    if (rc != TOKIO_OK || c.calls != r.hits || again.hits != r.hits)
        abort();
    json_decref(one);
}

/* The CSV of `pages` (jansson's) or of the cache `path` (es_hits.c
 * where it can); its bytes and the error message, as one string. */
static char *
csv_of(const json_t *pages, const char *path)
{
    size_t n, len = 0;
    const char *const *fields = tokio_collectd_es_fields(&n);
    struct tokio_es_pages *p = NULL;
    char *out = NULL;
    FILE *fp = open_memstream(&out, &len);
    int rc;

    if (fp == NULL)
        return NULL;
    if ((rc = tokio_es_pages_new_csv(&p, fields, n)) >= 0)
        rc = pages ? tokio_es_from_json(pages, path, tokio_es_pages_add, p)
                   : tokio_es_from_cache(path, tokio_es_pages_add, p);
    if (rc >= 0)
        rc = tokio_es_pages_write(p, fp);
    fprintf(fp, "\n-- %d %s\n", rc, rc < 0 ? tokio_errmsg() : "");
    tokio_es_pages_free(p);
    fclose(fp);
    return out;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *pages = json_loadb((const char *)data, size, 0, NULL);
    struct cursor c;
    size_t page, truthy_pages = 0;
    int rc = TOKIO_OK, first = 0;

    for (int mode = 0; mode < 2; mode++) {
        rc = read_hits(data, size, pages, mode, &c, &page);
        if (mode == 0)
            first = rc;
        else if (rc != first)
            abort();    /* one pass and two differ */
    }
    if (rc != TOKIO__ES_HITS_FALLBACK && rc != TOKIO_ENOMEM) {
        if (rc != TOKIO_OK || pages == NULL || !json_is_array(pages))
            abort();    /* took what jansson refuses */
        /* every page up to the first false one, every hit of each */
        for (size_t i = 0; i < json_array_size(pages); i++) {
            const json_t *hits = json_array_get(pages, i);
            if (!truthy(hits))
                break;
            truthy_pages++;
        }
        if (truthy_pages != (c.calls ? c.page + 1 : 0) ||
            (c.calls && c.hit != json_array_size(json_array_get(pages,
                                                                c.page))))
            abort();
    }
    /* a converter's error only for a text followed to its end */
    int failed = read_hits(data, size, pages, 2, &c, &page);
    if ((failed == TOKIO_EFORMAT && (rc != TOKIO_OK || page != 0)) ||
        (failed == TOKIO_OK && (rc != TOKIO_OK || c.calls != 0)) ||
        (failed == TOKIO__ES_HITS_FALLBACK && rc != failed))
        abort();

    check_response(data, size, pages);

    /* the CSV, both ways: through a cache file as the command reads it */
    char path[] = "/tmp/fuzz-es-hits-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) {
        int ok = write(fd, data, size) == (ssize_t)size;
        close(fd);
        if (ok && pages != NULL) {
            char *fast = csv_of(NULL, path), *slow = csv_of(pages, path);
            if (fast != NULL && slow != NULL && strcmp(fast, slow) != 0)
                abort();
            free(fast);
            free(slow);
        }
        unlink(path);
    }
    json_decref(pages);
    return 0;
}
