/*
 * src/connectors/nersc_globuslogs.c - Globus transfer records from NERSC's
 * Elasticsearch, read from a saved cache of scroll pages or queried
 * through es.c (tokio_nersc_globuslogs_query()).  Mirrors
 * tokio.connectors.nersc_globuslogs.NerscGlobusLogs (pytokio 0.13) with
 * es.EsConnection.from_cache(), query_and_scroll() over the fake pages,
 * save_cache() and to_dataframe(fields=SOURCE_FILTER).
 *
 * The pages are the reference's scroll_pages as a jansson list of lists
 * of hits, as read.  add_page() takes one page at a time, as a scroll
 * delivers them.  Test input: ../shared/testdata/pytokio-inputs/
 * globuslogs.json.gz; goldens in ../shared/testdata/golden/pytokio/
 * cache_nersc_globuslogs/; tests/connectors/nersc_globuslogs/.
 *
 * Differs from pytokio: a page that is not a list, or a hit without an
 * object "_source" is TOKIO_EFORMAT at open (the reference failed later,
 * in to_dataframe(), or never); a field holding a list or object has no
 * CSV form (pandas printed its Python repr); empty input is an empty
 * cache (json.load() raised).
 */
#include "tokio/connectors/nersc_globuslogs.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/connectors/es.h"
#include "tokio/output.h"
#include "connectors/registry.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"

/* The _source fields the reference asks for and puts in its CSV, in its
 * order (nersc_globuslogs.SOURCE_FILTER). */
static const char *const fields[] = {
    "@timestamp", "BLOCK", "BUFFER", "CODE", "DATE", "DEST", "DESTIP",
    "FILE", "HOST", "NBYTES", "START", "STREAMS", "STRIPES", "TASKID",
    "TYPE", "USER", "VOLUME", "bandwidth_mbps", "duration", "start_date",
    "end_date", "host",
};
#define N_FIELDS (sizeof(fields) / sizeof(fields[0]))

struct tokio_nersc_globuslogs {
    json_t *pages;      /* list of pages, each a list of hits */
    size_t nhits;
    int ended;          /* an empty page ended the scroll */
};

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading Globus "
                        "transfers");
}

/*
 * One page of a scroll (`hits`: the list of hits the reference's
 * filter_function takes from each response) appended to `g`, kept by
 * reference, not copied (a cache of pages is tens of megabytes; the
 * caller must not change it afterwards); an empty page ends the scroll,
 * and it and every later page are ignored, as query_and_scroll()
 * stopped there.
 * @return TOKIO_OK, TOKIO_EFORMAT (not a list; a hit without an object
 *         "_source": the message names page and hit), TOKIO_ENOMEM.
 */
static int
add_page(struct tokio_nersc_globuslogs *g, const json_t *hits)
{
    size_t p = json_array_size(g->pages), h;
    const json_t *hit;

    if (g->ended || (g->ended = tokio__json_falsy(hits)))
        return TOKIO_OK;
    if (!json_is_array(hits))
        return tokio__error(TOKIO_EFORMAT, "page %zu is not a list of hits",
                            p);
    json_array_foreach(hits, h, hit)
        if (!json_is_object(json_object_get(hit, "_source")))
            return tokio__error(TOKIO_EFORMAT, "page %zu hit %zu has no "
                                "object _source", p, h);
    if (json_array_append(g->pages, (json_t *)hits) < 0)
        return oom();
    g->nhits += json_array_size(hits);
    return TOKIO_OK;
}

static int
add_json(void *h, const json_t *json)
{
    size_t p;
    const json_t *page;
    int rc = TOKIO_OK;

    if (!json_is_array(json))
        return tokio__error(TOKIO_EFORMAT, "not a list of pages of "
                            "Elasticsearch hits");
    json_array_foreach(json, p, page)
        if ((rc = add_page(h, page)) < 0)
            break;
    return rc;
}

/* The cache has no other form than JSON: text that does not start as
 * JSON gets jansson's message, and empty text is an empty cache. */
static int
add_text(void *h, const char *text, size_t len, const char *name)
{
    json_t *json;
    int rc;

    if (strspn(text, " \t\r\n") == len)
        return TOKIO_OK;
    if ((rc = tokio__json_parse_named(&json, text, len, 0, name)) < 0)
        return rc;
    if ((rc = add_json(h, json)) < 0 && rc != TOKIO_ENOMEM)
        tokio__error_prefix("'%s'", name);
    json_decref(json);
    return rc;
}

static int
new_cache(void **out)
{
    struct tokio_nersc_globuslogs *g = tokio__calloc(1, sizeof(*g));

    *out = g;
    if (g == NULL || (g->pages = json_array()) == NULL) {
        tokio_nersc_globuslogs_free(g);
        *out = NULL;
        return oom();
    }
    return TOKIO_OK;
}

TOKIO__CONNECTOR_OPEN_FUNCTIONS(nersc_globuslogs)

/* A tokio_es_page_fn: a page of a live scroll into the result. */
static int
add_scrolled_page(const json_t *hits, size_t page, void *g)
{
    (void)page;
    return add_page(g, hits);
}

/* The reference's QUERY: start_date and end_date ranges, then the terms
 * of `user` and `type`; the _source filter. */
static int
build_query(json_t **out, int64_t start, int64_t end, const char *user,
            const char *type)
{
    json_t *q = json_pack("{s:{s:{s:{s:{s:[{s:{s:{}}},{s:{s:{}}}]}}}}}",
                          "query", "constant_score", "filter", "bool",
                          "must", "range", "start_date", "range",
                          "end_date");
    json_t *source = json_array();
    int rc = q && source ? TOKIO_OK : TOKIO_ENOMEM;

    for (size_t f = 0; f < N_FIELDS && rc >= 0; f++)
        if (json_array_append_new(source, json_string(fields[f])) < 0)
            rc = TOKIO_ENOMEM;
    if (rc >= 0 && user != NULL)
        rc = tokio_es_mutate_query(q, "USER", json_string(user), "term");
    if (rc >= 0 && type != NULL)
        rc = tokio_es_mutate_query(q, "TYPE", json_string(type), "term");
    if (rc >= 0)
        rc = tokio_es_build_timeseries_query(out, q, start, end,
                                             "start_date", "end_date");
    if (rc >= 0 && json_object_set(*out, "_source", source) < 0) {
        json_decref(*out);
        *out = NULL;
        rc = TOKIO_ENOMEM;
    }
    json_decref(q);
    json_decref(source);
    return rc == TOKIO_ENOMEM ? oom() : rc;
}

int
tokio_nersc_globuslogs_query(struct tokio_nersc_globuslogs **out,
                             struct tokio_es *es, int64_t start, int64_t end,
                             const char *user, const char *type)
{
    json_t *query = NULL;
    void *g = NULL;
    int rc;

    *out = NULL;
    if ((rc = build_query(&query, start, end, user, type)) < 0)
        return rc;
    if ((rc = new_cache(&g)) >= 0 &&
        (rc = tokio_es_scroll(es, query, add_scrolled_page, g)) < 0) {
        tokio_nersc_globuslogs_free(g);
        g = NULL;
    }
    json_decref(query);
    *out = g;
    return rc;
}

size_t
tokio_nersc_globuslogs_count(const struct tokio_nersc_globuslogs *g)
{
    return g->nhits;
}

int
tokio_nersc_globuslogs_to_json(const struct tokio_nersc_globuslogs *g,
                               json_t **out)
{
    *out = json_incref(g->pages);
    return TOKIO_OK;
}

/* What pandas makes of a column: float64 when it holds only numbers
 * (not booleans) and some real or missing cell; else each cell as
 * str(). */
struct col {
    int numeric, real, missing;
};

static void
write_cell(FILE *fp, const json_t *v, const struct col *c)
{
    char buf[40];

    if (v == NULL || json_is_null(v))
        return;
    if (json_is_integer(v) && !(c->numeric && (c->real || c->missing))) {
        fprintf(fp, "%" PRId64, (int64_t)json_integer_value(v));
    } else if (json_is_number(v)) {
        tokio_format_double(buf, sizeof(buf), json_number_value(v));
        fputs(buf, fp);
    } else if (json_is_boolean(v)) {
        fputs(json_is_true(v) ? "True" : "False", fp);
    } else {
        tokio_csv_write_field(fp, json_string_value(v),
                              json_string_length(v));
    }
}

int
tokio_nersc_globuslogs_write_csv(const struct tokio_nersc_globuslogs *g,
                                 FILE *fp)
{
    struct col cols[N_FIELDS];
    size_t p, h, row = 0;
    json_t *page, *hit;

    for (size_t f = 0; f < N_FIELDS; f++)
        cols[f] = (struct col){ 1, 0, 0 };
    json_array_foreach(g->pages, p, page) {
        json_array_foreach(page, h, hit) {
            json_t *src = json_object_get(hit, "_source");
            for (size_t f = 0; f < N_FIELDS; f++) {
                json_t *v = json_object_get(src, fields[f]);
                if (v == NULL || json_is_null(v))
                    cols[f].missing = 1;
                else if (json_is_real(v))
                    cols[f].real = 1;
                else if (json_is_array(v) || json_is_object(v))
                    return tokio__error(TOKIO_EFORMAT, "page %zu hit %zu: "
                                        "field '%s' is a list or object, "
                                        "which has no CSV form", p, h,
                                        fields[f]);
                else if (!json_is_integer(v))
                    cols[f].numeric = 0;
            }
        }
    }
    for (size_t f = 0; f < N_FIELDS; f++)
        fprintf(fp, ",%s", fields[f]);
    fputc('\n', fp);
    json_array_foreach(g->pages, p, page) {
        json_array_foreach(page, h, hit) {
            json_t *src = json_object_get(hit, "_source");
            fprintf(fp, "%zu", row++);
            for (size_t f = 0; f < N_FIELDS; f++) {
                fputc(',', fp);
                write_cell(fp, json_object_get(src, fields[f]), &cols[f]);
            }
            fputc('\n', fp);
        }
    }
    return tokio__write_check(fp, "cannot write Globus log CSV");
}

void
tokio_nersc_globuslogs_free(struct tokio_nersc_globuslogs *g)
{
    if (g == NULL)
        return;
    json_decref(g->pages);
    free(g);
}

/* ---- the connector interface (src/core/connector.h) -------------------- */

/* There is no native text to bid for: the cache is JSON. */
static int
bid(const char *head, size_t n)
{
    (void)head;
    (void)n;
    return 0;
}

static int
to_json(const void *h, json_t **out)
{
    return tokio_nersc_globuslogs_to_json(h, out);
}

static int
write_csv(const void *h, FILE *fp)
{
    return tokio_nersc_globuslogs_write_csv(h, fp);
}

static void
free_cache(void *h) { tokio_nersc_globuslogs_free(h); }

const struct tokio__connector tokio__nersc_globuslogs_connector = {
    .name = "nersc_globuslogs",
    .what = "a JSON list of pages of Elasticsearch hits",
    .bid = bid,
    .new = new_cache,
    .add_text = add_text,
    .add_json = add_json,
    .to_json = to_json,
    .write_csv = write_csv,
    .free = free_cache,
};
