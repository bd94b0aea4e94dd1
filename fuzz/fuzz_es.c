/*
 * fuzz/fuzz_es.c - a cache of Elasticsearch pages (the reference's
 * save_cache() form) on arbitrary bytes: parsed, handed page by page to
 * both writers (the JSON list of pages and the CSV of collectd's
 * fields), written out.  Then the JSON form read from a cache file as
 * tokio cache-collectdes --input reads it, one page at a time, must
 * equal, byte for byte and error for error, the JSON made from
 * jansson's tree of the whole text; where jansson refuses the text, the
 * pages must be refused too (but for a page nested as deep as jansson
 * goes: a page alone is one level less deep), and where jansson takes
 * a NUL byte (after a number or a literal: Python's json refuses it, as
 * the pages do).  The JSON form of the cache as es_hits.c copies the
 * pages it follows (tokio__es_hits_for_json, the default) must equal
 * the form jansson's page trees alone make, always: same bytes, same
 * error; and the text as one page, where es_hits.c follows it, must be
 * the page jansson reads there (same length) and be written alike.  Any
 * difference aborts.
 * Seeds: fuzz/corpus/es/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "tokio/common.h"
#include "tokio/connectors/collectd_es.h"
#include "tokio/connectors/es.h"
#include "connectors/es_hits.h"
#include "core/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The JSON form of `pages` (jansson's tree) or of the cache `path` (one
 * page at a time); its bytes and the error message, as one string. */
static char *
json_of(const json_t *pages, const char *path, int *rc_out, unsigned flags)
{
    struct tokio_es_pages *p = NULL;
    char *out = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&out, &len);
    int rc;

    if (fp == NULL)
        return NULL;
    if ((rc = tokio_es_pages_new_json(&p, flags)) >= 0)
        rc = pages ? tokio_es_from_json(pages, path, tokio_es_pages_add, p)
                   : tokio_es_from_cache(path, tokio_es_pages_add, p);
    if (rc >= 0)
        rc = tokio_es_pages_write(p, fp);
    fprintf(fp, "\n-- %d %s\n", rc, rc < 0 ? tokio_errmsg() : "");
    tokio_es_pages_free(p);
    fclose(fp);
    *rc_out = rc;
    return out;
}

static void
one_page_at_a_time(const uint8_t *data, size_t size, const json_t *pages,
                   const json_error_t *err)
{
    char path[] = "/tmp/fuzz-es-XXXXXX";
    int fd = mkstemp(path), rc, whole_rc;

    if (fd < 0)
        return;
    int ok = write(fd, data, size) == (ssize_t)size;
    close(fd);
    if (ok) {
        unsigned flags = size & 1 ? 4 : 0;
        char *paged = json_of(NULL, path, &rc, flags);
        char *whole = pages ? json_of(pages, path, &whole_rc, flags) : NULL;
        int jansson_rc;

        tokio__es_hits_for_json = 0;
        char *jansson = json_of(NULL, path, &jansson_rc, flags);
        tokio__es_hits_for_json = 1;
        if (paged != NULL && jansson != NULL && rc != TOKIO_ENOMEM &&
            jansson_rc != TOKIO_ENOMEM && strcmp(paged, jansson) != 0)
            abort();
        free(jansson);

        /* jansson takes a NUL byte after a number or a literal, the
         * pages refuse it as Python does */
        int nul = memchr(data, '\0', size) != NULL;

        if (rc != TOKIO_ENOMEM && paged != NULL &&
            (pages && !nul ? whole != NULL && strcmp(paged, whole) != 0
                   : rc >= 0 && (pages != NULL ||
                                 strstr(err->text, "maximum parsing depth")
                                 == NULL)))
            abort();
        free(paged);
        free(whole);
    }
    unlink(path);
}

/* The text as written by one page's walk (js) or jansson's tree of it. */
static char *
page_of(const uint8_t *data, size_t size, const json_t *tree, int *rc_out,
        size_t *used_out)
{
    char *out = NULL;
    size_t len = 0, hits;
    FILE *fp = open_memstream(&out, &len);
    struct tokio__jstream *js = fp ? tokio__jstream_open(fp, 4) : NULL;

    *rc_out = TOKIO_ENOMEM;
    if (js != NULL) {
        tokio__jstream_begin_list(js);
        if (tree != NULL) {
            tokio__jstream_item(js);
            tokio__jstream_value(js, tree);
            *rc_out = TOKIO_OK;
        } else {
            *rc_out = tokio__es_hits_json_page((const char *)data, size, js,
                                               used_out, &hits);
        }
        tokio__jstream_end(js);
        if (tokio__jstream_close(js) < 0)
            *rc_out = TOKIO_ENOMEM;
    }
    if (fp != NULL)
        fclose(fp);
    return out;
}

/* The text as one page: es_hits.c's walk against jansson's tree. */
static void
one_page(const uint8_t *data, size_t size)
{
    size_t used = 0, hits = 0, checked;
    int rc, tree_rc;

    rc = tokio__es_hits_json_page((const char *)data, size, NULL, &checked,
                                  &hits);
    if (rc != TOKIO_OK)
        return;
    json_error_t err;
    json_t *tree = json_loadb((const char *)data, size, JSON_DECODE_ANY |
                              JSON_DISABLE_EOF_CHECK, &err);
    if (tree == NULL || !json_is_array(tree) ||
        (size_t)err.position != checked || json_array_size(tree) != hits)
        abort();
    for (size_t i = 0; i < json_array_size(tree); i++)
        if (!json_is_object(json_object_get(json_array_get(tree, i),
                                            "_source")))
            abort();
    if (hits > 0) {
        char *fast = page_of(data, size, NULL, &rc, &used);
        char *slow = page_of(data, size, tree, &tree_rc, &used);

        if (rc == TOKIO_OK && tree_rc == TOKIO_OK &&
            (used != checked || fast == NULL || slow == NULL ||
             strcmp(fast, slow) != 0))
            abort();
        free(fast);
        free(slow);
    }
    json_decref(tree);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t err;
    json_t *pages = json_loadb((const char *)data, size, 0, &err);
    FILE *null = fopen("/dev/null", "w");
    size_t n;
    const char *const *fields = tokio_collectd_es_fields(&n);

    for (int csv = 0; pages != NULL && null != NULL && csv < 2; csv++) {
        struct tokio_es_pages *p = NULL;
        int rc = csv ? tokio_es_pages_new_csv(&p, fields, n)
                     : tokio_es_pages_new_json(&p, 4);

        if (rc >= 0 &&
            tokio_es_from_json(pages, "fuzz", tokio_es_pages_add, p) >= 0)
            tokio_es_pages_write(p, null);
        tokio_es_pages_free(p);
    }
    if (null != NULL)
        fclose(null);
    one_page_at_a_time(data, size, pages, &err);
    one_page(data, size);
    json_decref(pages);
    return 0;
}
