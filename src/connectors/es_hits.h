/*
 * src/connectors/es_hits.h - the values of chosen _source fields of
 * Elasticsearch hits, read straight from a cache's text (es_hits.c) or
 * taken from jansson's tree; for the converters of es.c and
 * archive_collectdes.c, which handle both alike.
 */
#ifndef TOKIO_CONNECTORS_ES_HITS_H
#define TOKIO_CONNECTORS_ES_HITS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "tokio/connectors/es.h"

enum tokio__es_kind {
    TOKIO__ES_ABSENT, TOKIO__ES_NULL, TOKIO__ES_FALSE, TOKIO__ES_TRUE,
    TOKIO__ES_INT, TOKIO__ES_REAL, TOKIO__ES_STRING,
    TOKIO__ES_OTHER         /* a list or an object */
};

/* One field of a hit's _source. */
struct tokio__es_value {
    enum tokio__es_kind kind;
    size_t len;             /* STRING: its bytes */
    const char *s;          /* STRING: NUL-ended */
    int64_t i;              /* INT */
    double d;               /* REAL */
};

/* One hit: `v` holds the values of the fields asked for, in their order;
 * `hit` is its place in its page.  < 0 stops the reading (error set). */
typedef int (*tokio__es_hit_fn)(const struct tokio__es_value *v, size_t hit,
                                void *payload);

/* tokio__es_hits_read()'s answer for a text it does not fully follow:
 * nothing was handed on; read it with jansson. */
#define TOKIO__ES_HITS_FALLBACK 1

/*
 * Read `text` (`len` bytes), a JSON list of pages (lists of hits), as
 * jansson and tokio_es_from_json() would, handing each hit's values of
 * `fields` (at most TOKIO__ES_HITS_MAX_FIELDS, names without escapes) to
 * `fn`, page after page until an empty one.  A text that is not JSON, or
 * holds anything else (a page not a list, a hit without an object
 * _source, a field holding a list or object or given twice, escapes
 * other than the short ones, bytes beyond ASCII, deep nesting) gives
 * TOKIO__ES_HITS_FALLBACK: with `reset` NULL that is known before the
 * first hit goes (two passes); else hits may have gone and `reset`
 * (payload) was called to undo them (one pass).  fn's error is returned
 * only if the whole text is otherwise followed.  `behind` (NULL: none)
 * is told, after each page handed on, the bytes of `text` read so far:
 * a mapped text may give their memory back (they may be read again, on
 * a fallback).
 * @param[out] page_out  the page of the hit that failed
 * @return TOKIO_OK, TOKIO__ES_HITS_FALLBACK, TOKIO_ENOMEM, fn's or
 *         reset's error.
 */
#define TOKIO__ES_HITS_MAX_FIELDS 64
int tokio__es_hits_read(const char *text, size_t len,
                        const char *const *fields, size_t n_fields,
                        tokio__es_hit_fn fn, int (*reset)(void *payload),
                        void *payload,
                        void (*behind)(const char *text, size_t n),
                        size_t *page_out);

/* What a search response holds besides its hits. */
struct tokio__es_response {
    const char *scroll_id;      /* in the text, not NUL-ended; NULL: none */
    size_t scroll_id_len;
    size_t hits;                /* in hits.hits */
};

/*
 * Read `text`, a search response ({"_scroll_id": ID, "hits": {"hits":
 * [...]}}, members in any order, others passed over) as jansson would:
 * with `fn` NULL, check it and find its scroll id and count its hits;
 * with `fn`, hand its hits' values of `fields` on as well.  What is not
 * followed gives TOKIO__ES_HITS_FALLBACK as tokio__es_hits_read(); a
 * _scroll_id that is not a string is not followed either.  Checking
 * first, then handing on, hands nothing on before a fallback.
 * @return TOKIO_OK, TOKIO__ES_HITS_FALLBACK, TOKIO_ENOMEM or fn's error.
 */
int tokio__es_hits_response(const char *text, size_t len,
                            const char *const *fields, size_t n_fields,
                            tokio__es_hit_fn fn, void *payload,
                            struct tokio__es_response *out);

struct tokio__jstream;

/*
 * Page of a cache at `text` (white space first allowed; `len` bytes: as
 * far as it may reach) for the JSON form (tokio_es_pages_add() with
 * tokio_es_pages_new_json()), in one walk without jansson's tree: with
 * `js` NULL, checked; else written to `js` as tokio__jstream_item() and
 * tokio__jstream_value() of jansson's tree of it would write it, token
 * by token.  Followed only where the page is a list of hits, each an
 * object holding an object _source (or the empty list, which ends the
 * pages: nothing written, *hits_out 0), in the plain subset of
 * tokio__es_hits_read() (nesting under 32 deep from the page) with no
 * key given twice in any object (jansson keeps its first place and its
 * last value) nor more than 1024 keys open at once; anything else gives
 * TOKIO__ES_HITS_FALLBACK, with `js` untouched if the page was checked
 * first.
 * @param[out] used_out  the page's bytes from `text` (followed only)
 * @param[out] hits_out  its hits
 * @return TOKIO_OK, TOKIO__ES_HITS_FALLBACK or TOKIO_ENOMEM.
 */
int tokio__es_hits_json_page(const char *text, size_t len,
                             struct tokio__jstream *js, size_t *used_out,
                             size_t *hits_out);

/* A list or object at `text` (white space first allowed; `len` bytes)
 * in the plain subset, checked: TOKIO_OK and its bytes in *used_out, or
 * TOKIO__ES_HITS_FALLBACK (read it with jansson; as anything else). */
int tokio__es_hits_json_skip(const char *text, size_t len,
                             size_t *used_out);

/* 0: the JSON form of a cache reads every page with jansson, as before
 * tokio__es_hits_json_page() (for tests and fuzz/fuzz_es.c to compare
 * the two ways); 1 (the default): that first, jansson where it falls
 * back. */
extern int tokio__es_hits_for_json;

/* `v` (borrowed, NULL: absent) as a value; a string stays jansson's. */
void tokio__es_value_of(const json_t *v, struct tokio__es_value *out);

/*
 * tokio_es_from_cache() for a converter that takes hits field by field
 * (es.c): the cache `path` read whole, its hits' values of `fields` to
 * `hit_fn` (and `reset`) by tokio__es_hits_read(), or, where that falls
 * back, the pages of jansson's tree to `page_fn` (which must do what
 * hit_fn does: tokio__es_value_of() helps), one page at a time; where
 * those refuse the text, jansson's tree of the whole of it (after
 * `reset`, which should not be NULL: pages may have gone).  Outputs and
 * errors as of jansson's whole tree.
 */
int tokio__es_from_cache_hits(const char *path, const char *const *fields,
                              size_t n_fields, tokio__es_hit_fn hit_fn,
                              int (*reset)(void *payload),
                              tokio_es_page_fn page_fn, void *payload);

/*
 * tokio_es_scroll() for a converter that takes hits field by field: each
 * page's hits' values of `fields` to `hit_fn` where es_hits.c follows
 * the page, else jansson's hits of the page to `page_fn` (as for
 * tokio__es_from_cache_hits()); `fields` NULL: jansson's always.
 */
int tokio__es_scroll_hits(struct tokio_es *es, const json_t *query,
                          const char *const *fields, size_t n_fields,
                          tokio__es_hit_fn hit_fn, tokio_es_page_fn page_fn,
                          void *payload);

/* tokio_collectd_es_scroll() (collectd_es.c) so, for such a converter. */
int tokio__collectd_es_scroll_hits(struct tokio_es *es, int64_t start,
                                   int64_t end, const char *const *fields,
                                   size_t n_fields, tokio__es_hit_fn hit_fn,
                                   tokio_es_page_fn page_fn, void *payload);

#endif
