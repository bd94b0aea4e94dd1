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
 * Differs from pytokio: a page that is not a list, or a hit without an
 * object "_source" is TOKIO_EFORMAT at open (the reference failed later,
 * in to_dataframe(), or never); a field holding a list or object has no
 * CSV form (pandas printed its Python repr).
 */
#include "tokio/connectors/nersc_globuslogs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/input.h"
#include "tokio/output.h"
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
    json_t *pages;          /* list of lists of hits */
    size_t nhits;
};

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
    unsigned char *buf = NULL;
    size_t len = 0;
    json_t *json;
    int rc;

    if ((rc = tokio_input_read_all(in, 0, &buf, &len)) < 0)
        return rc;
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

int
tokio_nersc_globuslogs_to_json(const struct tokio_nersc_globuslogs *g,
                               json_t **out)
{
    /* a copy, so the caller may change it without changing `g` */
    if ((*out = json_deep_copy(g->pages)) == NULL)
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
    if (ferror(fp))
        return tokio__error(TOKIO_EIO, "cannot write Globus log CSV");
    return TOKIO_OK;
}

void
tokio_nersc_globuslogs_free(struct tokio_nersc_globuslogs *g)
{
    if (g == NULL)
        return;
    json_decref(g->pages);
    free(g);
}
