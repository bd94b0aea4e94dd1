/*
 * src/connectors/collectd_es.c - collectd metrics in Elasticsearch: the
 * reference's three queries (tokio.connectors.collectd_es, pytokio 0.13)
 * over es.c's scroll.
 *
 * Differs from pytokio: tokio_collectd_es_scroll() runs all three
 * queries and hands on every page of each; the reference's
 * cache_collectdes ran them in turn but kept only the last query's pages
 * in what it printed (each query_and_scroll() started scroll_pages
 * afresh), so its live output held the memory metrics alone.
 * Tests: tests/connectors/test_collectd_es.c, goldens in
 * ../shared/testdata/golden/pytokio/cache_collectdes/.
 */
#include "tokio/connectors/collectd_es.h"

#include <stdlib.h>

#include <jansson.h>

#include "connectors/es_hits.h"
#include "core/error.h"

/* The reference's SOURCE_FILTER, in its order. */
static const char *const fields[] = {
    "@timestamp", "hostname", "plugin", "collectd_type", "type_instance",
    "plugin_instance", "value", "longterm", "midterm", "shortterm",
    "majflt", "minflt", "if_octets", "if_packets", "if_errors", "rx", "tx",
    "read", "write", "io_time",
};
#define N_FIELDS (sizeof(fields) / sizeof(fields[0]))

const char *const *
tokio_collectd_es_fields(size_t *n_out)
{
    *n_out = N_FIELDS;
    return fields;
}

/* The reference's BASE_QUERY with hostname prefix "bb", then the
 * clauses of `which`, in its order. */
static int
add_clauses(json_t *q, enum tokio_collectd_es_query which)
{
    int rc = tokio_es_mutate_query(q, "hostname", json_string("bb"),
                                   "prefix");

    if (rc < 0)
        return rc;
    switch (which) {
    case TOKIO_COLLECTD_ES_DISK:
        if ((rc = tokio_es_mutate_query(q, "plugin", json_string("disk"),
                                        "term")) < 0 ||
            (rc = tokio_es_mutate_query(q, "plugin_instance",
                                        json_string("nvme"), "prefix")) < 0)
            return rc;
        return tokio_es_mutate_query(q, "collectd_type",
                                     json_string("disk_(octets|ops)"),
                                     "regexp");
    case TOKIO_COLLECTD_ES_CPU:
        if ((rc = tokio_es_mutate_query(q, "plugin", json_string("cpu"),
                                        "term")) < 0)
            return rc;
        return tokio_es_mutate_query(q, "type_instance",
                                     json_string("(idle|user|system)"),
                                     "regexp");
    case TOKIO_COLLECTD_ES_MEMORY:
        return tokio_es_mutate_query(q, "plugin", json_string("memory"),
                                     "term");
    }
    return tokio__error(TOKIO_EINVAL, "unknown collectd query %d",
                        (int)which);
}

int
tokio_collectd_es_query(json_t **out, enum tokio_collectd_es_query which,
                        int64_t start, int64_t end)
{
    json_t *base = tokio_es_base_query(), *source = json_array();
    int rc;

    *out = NULL;
    if (base == NULL || source == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory building a query");
    } else if ((rc = add_clauses(base, which)) >= 0 &&
               (rc = tokio_es_build_timeseries_query(out, base, start, end,
                                                     "@timestamp",
                                                     NULL)) >= 0) {
        for (size_t f = 0; f < N_FIELDS && rc >= 0; f++)
            if (json_array_append_new(source, json_string(fields[f])) < 0)
                rc = TOKIO_ENOMEM;
        if (rc < 0 || json_object_set(*out, "_source", source) < 0) {
            json_decref(*out);
            *out = NULL;
            rc = tokio__error(TOKIO_ENOMEM, "out of memory building a query");
        }
    }
    json_decref(source);
    json_decref(base);
    return rc;
}

int
tokio_collectd_es_scroll(struct tokio_es *es, int64_t start, int64_t end,
                         tokio_es_page_fn fn, void *payload)
{
    return tokio__collectd_es_scroll_hits(es, start, end, NULL, 0, NULL, fn,
                                          payload);
}

int
tokio__collectd_es_scroll_hits(struct tokio_es *es, int64_t start,
                               int64_t end, const char *const *want,
                               size_t n_want, tokio__es_hit_fn hit_fn,
                               tokio_es_page_fn fn, void *payload)
{
    /* the reference's order in cache_collectdes and archive_collectdes */
    static const enum tokio_collectd_es_query order[] = {
        TOKIO_COLLECTD_ES_CPU, TOKIO_COLLECTD_ES_DISK,
        TOKIO_COLLECTD_ES_MEMORY,
    };
    int rc = TOKIO_OK;

    for (size_t i = 0; i < 3 && rc >= 0; i++) {
        json_t *q;

        if ((rc = tokio_collectd_es_query(&q, order[i], start, end)) < 0)
            break;
        rc = want != NULL
             ? tokio__es_scroll_hits(es, q, want, n_want, hit_fn, fn,
                                     payload)
             : tokio_es_scroll(es, q, fn, payload);
        json_decref(q);
    }
    return rc;
}
