/*
 * tokio/connectors/es.h - an Elasticsearch (or OpenSearch) client: a
 * query's results read with the scroll API one page at a time, and the
 * reference's cache of them (a JSON list of pages, each the list of hits
 * a page held).  Mirrors tokio.connectors.es (pytokio 0.13): EsConnection's
 * query_and_scroll(), from_cache(), save_cache() and to_dataframe(), and
 * build_timeseries_query()/mutate_query().
 *
 * A scroll is POST /<index>/_search?scroll=1m&size=10000 with the query,
 * then POST /_search/scroll with the latest scroll_id until a page comes
 * back without hits, then DELETE /_search/scroll to free the server's
 * context: also after a failure or an interruption, whenever the server
 * still answers.  Each page is handed to a callback and released before
 * the next is asked for, so memory holds one page whatever the query
 * returns.
 */
#ifndef TOKIO_CONNECTORS_ES_H
#define TOKIO_CONNECTORS_ES_H

#include <jansson.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_config;
struct tokio_es;

/* The reference's defaults: scroll context kept 1 minute, 10,000 hits a
 * page, 30 seconds to wait. */
#define TOKIO_ES_DEFAULT_PORT 9200
#define TOKIO_ES_DEFAULT_TIMEOUT 30
#define TOKIO_ES_PAGE_SIZE 10000

/* Where and how to connect. */
struct tokio_es_options {
    const char *host;       /* "localhost", or "https://host" for TLS */
    long port;              /* 1 .. 65535 */
    const char *index;      /* "cori-collectd-*" */
    long timeout;           /* seconds to connect, and between bytes read */
    const char *user;       /* basic auth (tokio_es_credentials()), or NULL */
    const char *password;
    volatile sig_atomic_t *stop;  /* set by a signal handler to stop; or NULL */
};

/**
 * The credentials for basic auth: $PYTOKIO_ES_USER and
 * $PYTOKIO_ES_PASSWORD when both are set (the reference's variables),
 * else the site configuration's "es_user" and "es_password" strings,
 * else none (*user_out NULL).  Never from the command line.  Borrowed
 * from the environment or `cfg` (may be NULL).
 */
TOKIO_API void tokio_es_credentials(const struct tokio_config *cfg,
                                    const char **user_out,
                                    const char **password_out);

/**
 * A client of the server `o` names (nothing is sent yet).
 * @param[out] out  free with tokio_es_free().
 * @return TOKIO_OK; TOKIO_EINVAL (no host, a port or timeout out of
 *         range, no index); TOKIO_EIO (curl cannot start); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_es_open(struct tokio_es **out,
                            const struct tokio_es_options *o);

/** The server's URL ("http://localhost:9200"), for messages; borrowed. */
TOKIO_API const char *tokio_es_url(const struct tokio_es *es);

/**
 * What a scroll hands each page to: `hits`, the list of hits (each an
 * object with "_source" and the server's "_index", "_id", ...), borrowed
 * until the callback returns (json_incref() it to keep it); `page`
 * counts from 0.  Return < 0 with a message set (tokio_errmsg()) to
 * stop the scroll with that failure.
 */
typedef int (*tokio_es_page_fn)(const json_t *hits, size_t page,
                                void *payload);

/**
 * Run `query` (borrowed; the request body, "_source" filter included)
 * against the index and hand every page of hits to `fn`, in order; then
 * free the scroll context.
 * @return TOKIO_OK; TOKIO_EIO (no connection, timed out, dropped,
 *         interrupted, an HTTP error: the message names the server, the
 *         request and the server's reason, e.g. an expired scroll's
 *         search_context_missing_exception); TOKIO_EFORMAT (a page that
 *         is not the JSON of a search response); TOKIO_ENOMEM; or what
 *         `fn` returned.
 */
TOKIO_API int tokio_es_scroll(struct tokio_es *es, const json_t *query,
                              tokio_es_page_fn fn, void *payload);

/** Close the connection; NULL is fine. */
TOKIO_API void tokio_es_free(struct tokio_es *es);

/**
 * The pages of a cache (the reference's from_cache(): a JSON list of
 * pages, plain or compressed; "-" is standard input) handed to `fn` as a
 * scroll hands them: up to the first empty page, which ends a scroll.
 * Parsed one page at a time, each freed before the next (a plain file's
 * text too): memory holds one page, of at most 256 MiB of text.
 * @return TOKIO_OK; TOKIO_EIO; TOKIO_EFORMAT (not JSON, with line and
 *         column; not a list of lists: the message names the page);
 *         TOKIO_ENOMEM; or what `fn` returned.
 */
TOKIO_API int tokio_es_from_cache(const char *path, tokio_es_page_fn fn,
                                  void *payload);

/** As tokio_es_from_cache() over the parsed cache `pages` (borrowed),
 *  named `name` in messages. */
TOKIO_API int tokio_es_from_json(const json_t *pages, const char *name,
                                 tokio_es_page_fn fn, void *payload);

/* ---- queries ------------------------------------------------------------ */

/**
 * The reference's BASE_QUERY: a constant_score query whose bool filter
 * must match a range of "@timestamp".
 * @return a new reference, NULL when out of memory.
 */
TOKIO_API json_t *tokio_es_base_query(void);

/**
 * The reference's build_timeseries_query(): a copy of `query` in which
 * the object under each `start_key` found (searching objects and lists,
 * not below a match) is bounded: without `end_key`, {"gte": start, "lt":
 * end, "format": "epoch_second"}; with it, `start_key` gets "lt": end
 * and `end_key` "gte": start (records that overlap the interval).
 * @param[out] out  a new reference.
 * @return TOKIO_OK; TOKIO_EINVAL (no such key, or its value is not an
 *         object); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_es_build_timeseries_query(json_t **out,
                                              const json_t *query,
                                              int64_t start, int64_t end,
                                              const char *start_key,
                                              const char *end_key);

/**
 * The reference's mutate_query(): append {term: {field: value}} to the
 * query's constant_score.filter.bool.must list.  `value` is stolen.
 * @return TOKIO_OK; TOKIO_EINVAL (no such list); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_es_mutate_query(json_t *query, const char *field,
                                    json_t *value, const char *term);

/* ---- results, as the pages arrive --------------------------------------- */

/*
 * The pages of a scroll or cache written as they arrive into a private
 * temporary file (so memory holds one page), then copied out whole by
 * tokio_es_pages_write(): either the reference's cache (save_cache(): the
 * JSON list of pages) or its to_dataframe(fields).to_csv().  Nothing
 * reaches the output until the last page is in, so a scroll that fails
 * leaves no partial result.
 */
struct tokio_es_pages;

/**
 * Pages to be written as JSON with tokio_json_write()'s `flags`.
 * @param[out] out  free with tokio_es_pages_free().
 * @return TOKIO_OK; TOKIO_EIO (no temporary file); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_es_pages_new_json(struct tokio_es_pages **out,
                                      unsigned flags);

/**
 * Pages to be written as pandas' CSV of the reference's
 * to_dataframe(fields): an unnamed index column, then the `n_fields`
 * `fields` (borrowed, at most 255) of each hit's "_source", empty when
 * absent; a column of numbers with a missing cell or a real prints every
 * number as a real ("5.0"), one of integers prints them as such, one
 * holding strings or booleans prints each value as str() (True, 5,
 * 0.5).  No hits at all is pandas' empty frame, a line `""`.
 * @return as tokio_es_pages_new_json().
 */
TOKIO_API int tokio_es_pages_new_csv(struct tokio_es_pages **out,
                                     const char *const *fields,
                                     size_t n_fields);

/**
 * tokio_es_pages_new_csv(), the rows written as they come straight into
 * `to` when it is a regular file with nothing written yet, and its
 * descriptor open for reading too (the temporary of tokio_output_open()
 * for a file: no second copy of the CSV); then tokio_es_pages_write()
 * with that same `to` only finishes it.  On any failure `to` holds a
 * partial CSV: drop it (tokio_output_abort()).  Any other `to`, or NULL,
 * is as tokio_es_pages_new_csv().
 * @return as tokio_es_pages_new_csv(); TOKIO_EIO (writing `to`).
 */
TOKIO_API int tokio_es_pages_new_csv_to(struct tokio_es_pages **out,
                                        const char *const *fields,
                                        size_t n_fields, FILE *to);

/**
 * A tokio_es_page_fn (payload: the struct tokio_es_pages): add a page.
 * @return TOKIO_OK; TOKIO_EFORMAT (for CSV: a hit without an object
 *         "_source", or a field holding a list or object, naming the
 *         hit and field); TOKIO_EIO (the temporary file); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_es_pages_add(const json_t *hits, size_t page,
                                 void *pages);

/** Hits added so far. */
TOKIO_API size_t tokio_es_pages_count(const struct tokio_es_pages *p);

/**
 * Write everything added to `fp` (JSON without a final newline).
 * @return TOKIO_OK; TOKIO_EIO.
 */
TOKIO_API int tokio_es_pages_write(struct tokio_es_pages *p, FILE *fp);

/** Release, removing the temporary file; NULL is fine. */
TOKIO_API void tokio_es_pages_free(struct tokio_es_pages *p);

#endif
