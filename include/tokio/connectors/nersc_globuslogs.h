/*
 * tokio/connectors/nersc_globuslogs.h - Globus transfer records kept in
 * NERSC's Elasticsearch (index dtn-dtn-log*), read from a saved cache of
 * a query's scroll pages: a JSON list of pages, each a list of hits,
 * each hit an object whose "_source" holds the transfer's fields (USER,
 * TYPE, NBYTES, DATE, bandwidth_mbps, ...).  Mirrors
 * tokio.connectors.nersc_globuslogs.NerscGlobusLogs.from_cache() (pytokio
 * 0.13) followed by query(): querying a cache keeps its pages as they are
 * (start, end, user and type do not filter), up to the first empty page,
 * which ends a scroll.  tokio_nersc_globuslogs_query() asks a server
 * (tokio/connectors/es.h) instead.
 */
#ifndef TOKIO_CONNECTORS_NERSC_GLOBUSLOGS_H
#define TOKIO_CONNECTORS_NERSC_GLOBUSLOGS_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include <stdint.h>

#include "tokio/common.h"

struct tokio_es;
struct tokio_nersc_globuslogs;

#define TOKIO_NERSC_GLOBUSLOGS_DEFAULT_INDEX "dtn-dtn-log*"

/**
 * The reference's query(), query_user() and query_type() against the
 * server `es`: the transfers that overlap [start, end) (start_date
 * before `end`, end_date at or after `start`), of `user` and of
 * transfer `type` when not NULL, scrolled page by page into a new
 * result.
 * @param[out] out  the pages; free with tokio_nersc_globuslogs_free().
 *                  NULL on failure.
 * @return TOKIO_OK; the failures of tokio_es_scroll(); TOKIO_EFORMAT (a
 *         page as tokio_nersc_globuslogs_open() refuses it).
 */
TOKIO_API int tokio_nersc_globuslogs_query(struct tokio_nersc_globuslogs **out,
                                           struct tokio_es *es,
                                           int64_t start, int64_t end,
                                           const char *user,
                                           const char *type);

/**
 * Read a cache of scroll pages (plain or compressed JSON; "-" is
 * standard input; empty input is an empty cache).
 * @param[out] out  the pages; free with tokio_nersc_globuslogs_free().
 *                  NULL on failure.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_EFORMAT (malformed JSON with its
 *         line and column; not a list of lists of hits; a hit without an
 *         object "_source": the message names page and hit), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_globuslogs_open(struct tokio_nersc_globuslogs **out,
                                          const char *path);

/** As tokio_nersc_globuslogs_open() over `len` bytes at `buf` (not
 *  kept; may be gzip), named `name` (may be NULL) in messages. */
TOKIO_API int tokio_nersc_globuslogs_open_mem(
    struct tokio_nersc_globuslogs **out, const void *buf, size_t len,
    const char *name);

/**
 * As tokio_nersc_globuslogs_open() over the cache's JSON, whose pages
 * the result keeps by reference (do not change them afterwards).
 * @return TOKIO_OK, TOKIO_EFORMAT (as there), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_globuslogs_from_json(
    struct tokio_nersc_globuslogs **out, const json_t *json);

/** Number of hits (transfers) in the pages kept. */
TOKIO_API size_t
tokio_nersc_globuslogs_count(const struct tokio_nersc_globuslogs *g);

/**
 * The pages kept, as the reference's save_cache() writes them: a new
 * reference in `*out` to the cache's own list of lists of hits (read
 * it, do not change it; json_decref() it), keys in input order.
 * @return TOKIO_OK.
 */
TOKIO_API int
tokio_nersc_globuslogs_to_json(const struct tokio_nersc_globuslogs *g,
                               json_t **out);

/**
 * CSV as the reference's to_dataframe().to_csv(): an unnamed index
 * column, then the fields it asked Elasticsearch for (@timestamp, BLOCK,
 * BUFFER, CODE, DATE, DEST, DESTIP, FILE, HOST, NBYTES, START, STREAMS,
 * STRIPES, TASKID, TYPE, USER, VOLUME, bandwidth_mbps, duration,
 * start_date, end_date, host) from each hit's _source, empty when absent;
 * as pandas prints them (an integer column with a missing cell as
 * floats, booleans as True/False).
 * @return TOKIO_OK, TOKIO_EFORMAT (a field holds a list or object, which
 *         has no CSV form here), TOKIO_EIO, TOKIO_ENOMEM.
 */
TOKIO_API int
tokio_nersc_globuslogs_write_csv(const struct tokio_nersc_globuslogs *g,
                                 FILE *fp);

/** Release; NULL is fine. */
TOKIO_API void tokio_nersc_globuslogs_free(struct tokio_nersc_globuslogs *g);

#endif
