/*
 * tokio/connectors/collectd_es.h - collectd's cpu, disk and memory
 * metrics of burst-buffer nodes ("bb*" hosts) kept in Elasticsearch
 * (index cori-collectd-*).  Mirrors tokio.connectors.collectd_es
 * (pytokio 0.13): its three queries, the _source fields it asks for and
 * puts in its table; the scroll, the cache of pages and the table are
 * tokio/connectors/es.h's.
 */
#ifndef TOKIO_CONNECTORS_COLLECTD_ES_H
#define TOKIO_CONNECTORS_COLLECTD_ES_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "tokio/common.h"
#include "tokio/connectors/es.h"

#define TOKIO_COLLECTD_ES_DEFAULT_INDEX "cori-collectd-*"

/* The reference's QUERY_CPU_DATA, QUERY_DISK_DATA, QUERY_MEMORY_DATA. */
enum tokio_collectd_es_query {
    TOKIO_COLLECTD_ES_CPU,      /* plugin cpu, type_instance idle|user|system */
    TOKIO_COLLECTD_ES_DISK,     /* plugin disk, nvme*, disk_(octets|ops) */
    TOKIO_COLLECTD_ES_MEMORY    /* plugin memory */
};

/**
 * The _source fields the reference asks for and tabulates (its
 * SOURCE_FILTER: @timestamp, hostname, plugin, ..., io_time), in order;
 * borrowed, static.
 */
TOKIO_API const char *const *tokio_collectd_es_fields(size_t *n_out);

/**
 * The request body of query `which` over [start, end): the reference's
 * query with its @timestamp range bounded (epoch seconds) and the
 * _source filter.
 * @param[out] out  a new reference.
 * @return TOKIO_OK, TOKIO_EINVAL (unknown query), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_collectd_es_query(json_t **out,
                                      enum tokio_collectd_es_query which,
                                      int64_t start, int64_t end);

/**
 * Run the cpu, disk and memory queries over [start, end) in turn and
 * hand every page of each to `fn` (see tokio_es_scroll()).
 * @return as tokio_es_scroll().
 */
TOKIO_API int tokio_collectd_es_scroll(struct tokio_es *es, int64_t start,
                                       int64_t end, tokio_es_page_fn fn,
                                       void *payload);

#endif
