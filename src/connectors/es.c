/*
 * src/connectors/es.c - an Elasticsearch client over the scroll API, the
 * reference's cache of pages, and its table of hits; mirrors
 * tokio.connectors.es (pytokio 0.13).  The HTTP side is http.c.
 *
 * Protocol facts (Elasticsearch reference, "Paginate search results",
 * "Clear scroll API"): a search with ?scroll=<keep-alive> answers
 * {"_scroll_id": ID, "hits": {"hits": [...]}}; POST /_search/scroll with
 * {"scroll": <keep-alive>, "scroll_id": ID} answers the next page (its
 * _scroll_id may change: the latest counts); an empty "hits" list ends
 * the results; DELETE /_search/scroll with {"scroll_id": [ID]} frees the
 * context.  Errors come as {"error": {"type": ..., "reason": ...},
 * "status": N}; an expired context is search_context_missing_exception.
 *
 * The pages of a result go through a temporary file (struct
 * tokio_es_pages) so that memory holds one page and nothing is written
 * before the last page is in.  pandas decides a column's type only after
 * seeing all of it (integers print as "5" in an integer column, "5.0"
 * once a real or a missing cell joins them), so an integer whose column
 * is still undecided goes to the temporary file in both forms, marked,
 * and the copy keeps the one the finished column calls for.
 *
 * Differs from pytokio: the "_source" filter travels in the request body
 * (elasticsearch-py put it in the URL; the server treats both alike);
 * basic auth comes from the site configuration too; a hit without
 * "_source" is an error naming it, as is a field holding a list or
 * object in the CSV (pandas printed its repr).  Tests:
 * tests/connectors/test_es.c against tests/http_server.c.
 *
 * Speed code (issue 18, bench/bench-collectdes.sh): the CSV rows are made
 * with room taken once a row, into a 64 KiB block written to the
 * temporary file at once: put_row and its fwrite() per row were ~17% of
 * `cache-collectdes --csv --input`, ~9% after (2026-11-27; with the
 * other levers of that day 133 -> 100 ms of CPU).  Then (issue 18's
 * second round): -o's CSV written straight into its temporary
 * (tokio_es_pages_new_csv_to: one write of the CSV, not a spool written,
 * read back and written again; 74.9 -> 70.6 ms), absent, text and real
 * cells without the switch's jump, texts of 1-24 bytes checked and
 * copied as overlapping words, the row number counted up in decimal
 * (with es_hits.c's round, 88.6 -> 61.9 ms; rows ~7% of it now).  The
 * JSON form of a cache copies the pages es_hits.c follows token by token
 * into the JSON stream (plain_page()), jansson's tree only for the
 * others: 913 -> 152 ms of the bench cache.
 */
#include "tokio/connectors/es.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "tokio/config.h"
#include "tokio/input.h"
#include "tokio/output.h"
#include "connectors/es_hits.h"
#include "connectors/http.h"
#include "core/alloc.h"
#include "core/beside.h"
#include "core/connector.h"
#include "core/error.h"
#include "core/json.h"
#include "core/repr.h"

/* How long the server keeps a scroll context between pages; seconds to
 * wait for the DELETE that frees it after a failure. */
#define SCROLL_KEEP_ALIVE "1m"
#define CLEAR_TIMEOUT 5

struct tokio_es {
    struct tokio__http *http;
    char *index;            /* URL-escaped */
    volatile sig_atomic_t *stop;
};

void
tokio_es_credentials(const struct tokio_config *cfg, const char **user_out,
                     const char **password_out)
{
    const char *user = getenv("PYTOKIO_ES_USER");
    const char *password = getenv("PYTOKIO_ES_PASSWORD");

    if (user != NULL && *user && password != NULL && *password) {
        *user_out = user;
        *password_out = password;
        return;
    }
    user = cfg ? json_string_value(tokio_config_get(cfg, "es_user")) : NULL;
    password = cfg ? json_string_value(tokio_config_get(cfg, "es_password"))
                   : NULL;
    *user_out = user && password ? user : NULL;
    *password_out = user && password ? password : NULL;
}

int
tokio_es_open(struct tokio_es **out, const struct tokio_es_options *o)
{
    struct tokio_es *es;
    char base[1024];
    int rc;

    *out = NULL;
    if (o->host == NULL || o->host[0] == '\0')
        return tokio__error(TOKIO_EINVAL, "no Elasticsearch host given");
    if (o->port < 1 || o->port > 65535)
        return tokio__error(TOKIO_EINVAL, "Elasticsearch port %ld is not a "
                            "port number", o->port);
    if (o->timeout < 1 || o->timeout > 86400)
        return tokio__error(TOKIO_EINVAL, "timeout %ld s is not between 1 s "
                            "and a day", o->timeout);
    if (o->index == NULL || o->index[0] == '\0')
        return tokio__error(TOKIO_EINVAL, "no Elasticsearch index given");
    if ((size_t)snprintf(base, sizeof(base), "%s%s:%ld",
                         strstr(o->host, "://") ? "" : "http://", o->host,
                         o->port) >= sizeof(base))
        return tokio__error(TOKIO_EINVAL, "Elasticsearch host name '%.40s...'"
                            " is too long", o->host);
    if ((es = tokio__calloc(1, sizeof(*es))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory connecting to '%s'",
                            base);
    es->stop = o->stop;
    if ((rc = tokio__http_new(&es->http, base, o->timeout, o->user,
                              o->password, o->stop)) < 0) {
        tokio_es_free(es);
        return rc;
    }
    if ((es->index = tokio__http_escape(es->http, o->index)) == NULL) {
        tokio_es_free(es);
        return tokio__error(TOKIO_ENOMEM, "out of memory connecting to '%s'",
                            base);
    }
    *out = es;
    return TOKIO_OK;
}

const char *
tokio_es_url(const struct tokio_es *es)
{
    return tokio__http_base(es->http);
}

void
tokio_es_free(struct tokio_es *es)
{
    if (es == NULL)
        return;
    tokio__http_free(es->http);
    free(es->index);
    free(es);
}

/* ---- the scroll --------------------------------------------------------- */

static int pages_add_hit(const struct tokio__es_value *v, size_t hit,
                         void *pages);
static int pages_reset(void *pages);
static const char *const *csv_fields(const void *pages, size_t *n_out);
static struct tokio__jstream *json_stream(void *pages, size_t **hits_out);

/* The failure of an answer with HTTP status >= 400: Elasticsearch's
 * error type and reason when the body has them. */
static int
http_failure(struct tokio_es *es, const char *what, long status,
             const char *body, size_t len)
{
    json_t *j = json_loadb(body, len, 0, NULL);
    json_t *err = json_object_get(j, "error");
    const char *type = json_string_value(json_object_get(err, "type"));
    const char *reason = json_string_value(json_object_get(err, "reason"));
    int rc;

    if (type == NULL && json_is_string(err))
        reason = json_string_value(err);
    rc = tokio__error(TOKIO_EIO, "'%s' %s: HTTP %ld%s%s%s%s%s%s",
                      tokio_es_url(es), what, status,
                      tokio__http_reason(status)[0] ? " " : "",
                      tokio__http_reason(status), type ? ": " : "",
                      type ? type : "", reason ? ": " : "",
                      reason ? reason : "");
    json_decref(j);
    return rc;
}

/* A page of a scroll: read by es_hits.c (its text kept for handing the
 * hits on) or by jansson. */
struct page {
    char *text;
    size_t len;
    json_t *json, *hits;        /* jansson's: the response, its hits */
    size_t n_hits;
};

static void
page_clear(struct page *pg)
{
    free(pg->text);
    json_decref(pg->json);
    memset(pg, 0, sizeof(*pg));
}

/* Keep `id` (`len` bytes) in *scroll_id unless it holds it already. */
static int
keep_scroll_id(struct tokio_es *es, const char *id, size_t len,
               char **scroll_id)
{
    char *copy;

    if (*scroll_id != NULL && strlen(*scroll_id) == len &&
        memcmp(*scroll_id, id, len) == 0)
        return TOKIO_OK;
    if ((copy = tokio__malloc(len + 1)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                            tokio_es_url(es));
    memcpy(copy, id, len);
    copy[len] = '\0';
    free(*scroll_id);
    *scroll_id = copy;
    return TOKIO_OK;
}

/*
 * Send `what` (method and path) with `body`, and read the answer as a
 * search response into *pg: by es_hits.c where it follows it (with
 * `fields`), else by jansson; its scroll id copied into *scroll_id,
 * replacing it, when present.
 */
static int
request_page(struct tokio_es *es, const char *method, const char *path,
             const char *body, size_t page, const char *const *fields,
             size_t n_fields, struct page *pg, char **scroll_id)
{
    char what[512], *text = NULL;
    size_t len;
    long status;
    json_t *j = NULL, *hits;
    const char *id;
    int rc;

    memset(pg, 0, sizeof(*pg));
    snprintf(what, sizeof(what), "page %zu (%s %s)", page, method, path);
    if ((rc = tokio__http_request(es->http, method, path, body, &text, &len,
                                  &status)) < 0)
        return rc;      /* the message names the URL */
    if (status >= 400) {
        rc = http_failure(es, what, status, text, len);
        free(text);
        return rc;
    }
    if (fields != NULL) {
        struct tokio__es_response r;

        rc = tokio__es_hits_response(text, len, fields, n_fields, NULL, NULL,
                                     &r);
        if (rc == TOKIO_ENOMEM)     /* as jansson's parse says it */
            tokio__error(rc, "out of memory reading '%s'", what);
        if (rc == TOKIO_OK && r.scroll_id != NULL)
            rc = keep_scroll_id(es, r.scroll_id, r.scroll_id_len, scroll_id);
        if (rc == TOKIO_OK && *scroll_id == NULL && r.hits > 0)
            rc = tokio__error(TOKIO_EFORMAT, "'%s' %s: no _scroll_id to go "
                              "on with", tokio_es_url(es), what);
        if (rc != TOKIO__ES_HITS_FALLBACK) {
            if (rc < 0) {
                free(text);
                return rc;
            }
            pg->text = text;
            pg->len = len;
            pg->n_hits = r.hits;
            return TOKIO_OK;
        }
    }
    rc = tokio__json_parse_named(&j, text, len, 0, what);
    free(text);
    if (rc < 0)
        return rc == TOKIO_ENOMEM ? rc
                                  : tokio__error_prefix("'%s'", tokio_es_url(es));
    hits = json_object_get(json_object_get(j, "hits"), "hits");
    if (!json_is_array(hits)) {
        json_decref(j);
        return tokio__error(TOKIO_EFORMAT, "'%s' %s: not a search response "
                            "(no hits.hits list)", tokio_es_url(es), what);
    }
    if ((id = json_string_value(json_object_get(j, "_scroll_id"))) != NULL &&
        (rc = keep_scroll_id(es, id, strlen(id), scroll_id)) < 0) {
        json_decref(j);
        return rc;
    }
    if (*scroll_id == NULL && json_array_size(hits) > 0) {
        json_decref(j);
        return tokio__error(TOKIO_EFORMAT, "'%s' %s: no _scroll_id to go on "
                            "with", tokio_es_url(es), what);
    }
    pg->json = j;
    pg->hits = hits;
    pg->n_hits = json_array_size(hits);
    return TOKIO_OK;
}

/* `json` (stolen) as a request body (free()); NULL when out of memory. */
static char *
body_of(json_t *json)
{
    char *text = NULL;

    if (json != NULL && tokio_json_dumps(&text, json, 0) < 0)
        text = NULL;
    json_decref(json);
    return text;
}

/* Free the server's scroll context, whatever happened before: the
 * failure being reported, if any, keeps its message. */
static void
clear_scroll(struct tokio_es *es, const char *scroll_id)
{
    char *body, saved[1024];
    int saved_code = tokio_errcode();
    long status;

    snprintf(saved, sizeof(saved), "%s", tokio_errmsg());
    body = body_of(json_pack("{s:[s]}", "scroll_id", scroll_id));
    if (body != NULL)
        tokio__http_request_anyway(es->http, CLEAR_TIMEOUT, "DELETE",
                                   "/_search/scroll", body, &status);
    free(body);
    if (saved_code < 0)
        tokio__error(saved_code, "%s", saved);
}

int
tokio_es_scroll(struct tokio_es *es, const json_t *query,
                tokio_es_page_fn fn, void *payload)
{
    const char *const *fields;
    size_t n_fields;

    /* the CSV form: without jansson's trees where es_hits.c can */
    if (fn == tokio_es_pages_add &&
        (fields = csv_fields(payload, &n_fields)) != NULL)
        return tokio__es_scroll_hits(es, query, fields, n_fields,
                                     pages_add_hit, fn, payload);
    return tokio__es_scroll_hits(es, query, NULL, 0, NULL, fn, payload);
}

int
tokio__es_scroll_hits(struct tokio_es *es, const json_t *query,
                      const char *const *fields, size_t n_fields,
                      tokio__es_hit_fn hit_fn, tokio_es_page_fn page_fn,
                      void *payload)
{
    char *path = NULL, *body = NULL, *scroll_id = NULL;
    struct page pg = { 0 };
    size_t len, n = 0;
    int rc;

    tokio_errclear();
    if (tokio_json_dumps(&body, query, 0) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory querying '%s'",
                            tokio_es_url(es));
    len = strlen(es->index) + 64;
    if ((path = tokio__malloc(len)) == NULL) {
        free(body);
        return tokio__error(TOKIO_ENOMEM, "out of memory querying '%s'",
                            tokio_es_url(es));
    }
    snprintf(path, len, "/%s/_search?scroll=%s&size=%d", es->index,
             SCROLL_KEEP_ALIVE, TOKIO_ES_PAGE_SIZE);
    rc = request_page(es, "POST", path, body, n, fields, n_fields, &pg,
                      &scroll_id);
    free(body);
    free(path);
    while (rc >= 0 && pg.n_hits > 0) {
        if (pg.text != NULL) {
            struct tokio__es_response r;

            rc = tokio__es_hits_response(pg.text, pg.len, fields, n_fields,
                                         hit_fn, payload, &r);
        } else {
            rc = page_fn(pg.hits, n, payload);
        }
        page_clear(&pg);
        if (rc < 0) {
            if (rc != TOKIO_ENOMEM)
                tokio__error_prefix("'%s' page %zu", tokio_es_url(es), n);
            break;
        }
        if (es->stop != NULL && *es->stop) {
            rc = tokio__error(TOKIO_EIO, "'%s': interrupted after page %zu",
                              tokio_es_url(es), n);
            break;
        }
        n++;
        body = body_of(json_pack("{s:s,s:s}", "scroll", SCROLL_KEEP_ALIVE,
                                 "scroll_id", scroll_id));
        if (body == NULL) {
            rc = tokio__error(TOKIO_ENOMEM, "out of memory querying '%s'",
                              tokio_es_url(es));
            break;
        }
        rc = request_page(es, "POST", "/_search/scroll", body, n, fields,
                          n_fields, &pg, &scroll_id);
        free(body);
    }
    page_clear(&pg);
    if (scroll_id != NULL)
        clear_scroll(es, scroll_id);
    free(scroll_id);
    return rc < 0 ? rc : TOKIO_OK;
}

/* ---- the cache of pages ------------------------------------------------- */

/* Page `p` of `name`, `hits`, to `fn`, unless a falsy page (the empty
 * one that ends a scroll) came before: *done then, and after it. */
static int
take_page(const json_t *hits, size_t p, const char *name,
          tokio_es_page_fn fn, void *payload, int *done)
{
    int rc;

    if (*done || (*done = tokio__json_falsy(hits)) != 0)
        return TOKIO_OK;
    if (!json_is_array(hits))
        return tokio__error(TOKIO_EFORMAT, "'%s' page %zu: not a list of "
                            "hits", name, p);
    if ((rc = fn(hits, p, payload)) < 0)
        return rc == TOKIO_ENOMEM ? rc
                                  : tokio__error_prefix("'%s' page %zu",
                                                        name, p);
    return TOKIO_OK;
}

int
tokio_es_from_json(const json_t *pages, const char *name,
                   tokio_es_page_fn fn, void *payload)
{
    const json_t *hits;
    size_t p;
    int done = 0, rc;

    if (!json_is_array(pages))
        return tokio__error(TOKIO_EFORMAT, "'%s': not a list of pages of "
                            "Elasticsearch hits", name);
    json_array_foreach(pages, p, hits)
        if ((rc = take_page(hits, p, name, fn, payload, &done)) < 0 || done)
            return rc;
    return TOKIO_OK;
}

static void give_back(const char *text, size_t n);

/* The text of pages read is given back a MiB at a time (a multiple of
 * the memory page). */
#define GIVE_BACK_BYTES ((size_t)1 << 20)

static size_t
skip_space(const char *text, size_t off, size_t len)
{
    while (off < len && (text[off] == ' ' || text[off] == '\n' ||
                         text[off] == '\r' || text[off] == '\t'))
        off++;
    return off;
}

/* A syntax error at `off` of `text` (jansson's `err` from there when
 * not NULL), with the line and column jansson gives in a whole file. */
static int
syntax_error(const char *text, size_t off, const json_error_t *err,
             const char *what, const char *path)
{
    int line = 1, column = 0;

    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            line++;
            column = 0;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            column++;
        }
    }
    if (err != NULL) {
        column = err->line > 1 ? err->column : column + err->column;
        line += err->line - 1;
        what = err->text;
    }
    return tokio__error(TOKIO_EFORMAT, "'%s' line %d column %d: %s", path,
                        line, column, what);
}

/* Page `p` of the cache `text`, at `*off`: parsed by jansson, within
 * TOKIO__CONNECTOR_MAX_BYTES of text, `*off` moved past it. */
static int
parse_page(json_t **out, const char *text, size_t len, size_t *off,
           size_t p, const char *path)
{
    size_t room = len - *off < TOKIO__CONNECTOR_MAX_BYTES
                  ? len - *off : TOKIO__CONNECTOR_MAX_BYTES;
    json_error_t err;
    int oom;

    *out = tokio__json_parse(text + *off, room,
                             JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK, &err,
                             &oom);
    if (*out != NULL) {
        /* jansson reads past a NUL byte right after a number or a
         * literal, leaving it out of its count; not JSON (Python's json
         * refuses it), and the count would be wrong */
        size_t n = (size_t)err.position < room ? (size_t)err.position + 1
                                                : room;
        const char *nul = memchr(text + *off, '\0', n);

        if (nul == NULL) {
            *off += (size_t)err.position;
            return TOKIO_OK;
        }
        json_decref(*out);
        *out = NULL;
        return syntax_error(text, (size_t)(nul - text) + 1, NULL,
                            "NUL byte", path);
    }
    if (oom)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                            path);
    if (room < len - *off && (size_t)err.position >= room)
        return tokio__error(TOKIO_EFORMAT, "'%s' page %zu: more than %zu MiB, "
                            "the most a page takes", path, p,
                            TOKIO__CONNECTOR_MAX_BYTES >> 20);
    return syntax_error(text, *off, &err, NULL, path);
}

int tokio__es_hits_for_json = 1;

/*
 * Page `p` of the cache `text` at `*off` to the JSON form `pages`
 * without jansson's tree where es_hits.c follows it: checked, then
 * written token by token (an empty page sets *done; after it, pages are
 * only checked), `*off` moved past it.  TOKIO__ES_HITS_FALLBACK: nothing
 * was written; read it with jansson.
 */
static int
plain_page(const char *text, size_t len, size_t *off, const char *path,
           void *pages, int *done)
{
    size_t room = len - *off < TOKIO__CONNECTOR_MAX_BYTES
                  ? len - *off : TOKIO__CONNECTOR_MAX_BYTES;
    size_t used = 0, again = 0, hits = 0, *count;
    struct tokio__jstream *js = json_stream(pages, &count);
    int rc;

    if (*done)
        rc = tokio__es_hits_json_skip(text + *off, room, &used);
    else
        rc = tokio__es_hits_json_page(text + *off, room, NULL, &used, &hits);
    /* parse_page() refuses a NUL byte right after a page, in its words */
    if (rc == TOKIO_OK && used < room && text[*off + used] == '\0')
        rc = TOKIO__ES_HITS_FALLBACK;
    if (rc == TOKIO_OK && !*done) {
        if (hits == 0)
            *done = 1;          /* an empty page ends the pages */
        else if ((rc = tokio__es_hits_json_page(text + *off, room, js,
                                                &again, &hits)) == TOKIO_OK
                 && again != used)
            rc = tokio__error(TOKIO_EFORMAT, "'%s': a page read two ways",
                              path);    /* the same walk twice: cannot be */
    }
    if (rc == TOKIO_ENOMEM)
        return tokio__error(rc, "out of memory reading '%s'", path);
    if (rc == TOKIO_OK) {
        *count += hits;
        *off += used;
    }
    return rc;
}

/* jansson's most values within one another (JSON_PARSER_MAX_DEPTH). */
#define JANSSON_DEPTH 2048

/* Whether `v` holds values `depth` deep (itself the first). */
static int
nested(const json_t *v, int depth)
{
    const json_t *item;
    const char *key;
    size_t i;

    if (depth <= 1)
        return 1;
    if (json_is_array(v)) {
        json_array_foreach(v, i, item)
            if (nested(item, depth - 1))
                return 1;
    } else if (json_is_object(v)) {
        json_object_foreach((json_t *)v, key, item)
            if (nested(item, depth - 1))
                return 1;
    }
    return 0;
}

/*
 * The pages of the cache `text` (`len` bytes) one at a time: each parsed,
 * handed to `fn` and freed before the next, so that memory holds one
 * page (`mapped`: the text read given back too); the JSON form's pages
 * without jansson's tree where es_hits.c follows them (plain_page()).
 * `refused` (NULL: none): fn's error (or a page's that is not a list)
 * is returned only once the rest of the text is read as JSON, as when
 * the whole text was parsed first; *refused is 1 when the text itself
 * was refused (not JSON, or a page too large).
 */
static int
pages_of_text(const char *text, size_t len, int mapped, int *refused,
              const char *path, tokio_es_page_fn fn, void *payload)
{
    size_t off = skip_space(text, 0, len), p = 0, given = 0;
    json_t *hits;
    int done = 0, failed = TOKIO_OK, rc;
    char msg[2048];
    size_t *count;
    void *plain = fn == tokio_es_pages_add && tokio__es_hits_for_json &&
                  json_stream(payload, &count) != NULL ? payload : NULL;

    if (refused != NULL)
        *refused = 0;
    /* a failure of the text itself: said in *refused */
#define REFUSED(rc) (refused != NULL && (rc) != TOKIO_ENOMEM \
                     ? (*refused = 1, (rc)) : (rc))

    if (off == len || text[off] != '[') {
        /* not a list: jansson's word on why, as a whole */
        if (len > TOKIO__CONNECTOR_MAX_BYTES)
            return tokio__error(TOKIO_EFORMAT, "'%s': not a list of pages "
                                "of Elasticsearch hits", path);
        if ((rc = tokio__json_parse_named(&hits, text, len, 0, path)) < 0)
            return REFUSED(rc);
        rc = tokio_es_from_json(hits, path, fn, payload);
        json_decref(hits);
        return rc;
    }
    off = skip_space(text, off + 1, len);
    for (int more = off == len || text[off] != ']'; more; p++) {
        if (off == len)
            return REFUSED(syntax_error(text, off, NULL,
                                        "']' expected near end of file",
                                        path));
        rc = plain != NULL ? plain_page(text, len, &off, path, plain, &done)
                           : TOKIO__ES_HITS_FALLBACK;
        if (rc == TOKIO__ES_HITS_FALLBACK) {
            if ((rc = parse_page(&hits, text, len, &off, p, path)) < 0)
                return REFUSED(rc);
            if (refused != NULL && nested(hits, JANSSON_DEPTH)) {
                /* a level more than the whole tree could take */
                json_decref(hits);
                return REFUSED(tokio__error(TOKIO_EFORMAT, "'%s' page %zu: "
                                            "nested too deep", path, p));
            }
            rc = take_page(hits, p, path, fn, payload, &done);
            json_decref(hits);
        }
        if (rc < 0 && rc != TOKIO_ENOMEM && refused != NULL &&
            failed == TOKIO_OK) {
            /* kept until the rest is read; no page is handed on now */
            failed = rc;
            snprintf(msg, sizeof(msg), "%s", tokio_errmsg());
            done = 1;
            rc = TOKIO_OK;
        }
        if (rc < 0)
            return rc;
        if (mapped && off - given >= GIVE_BACK_BYTES) {
            size_t n = (off - given) / GIVE_BACK_BYTES * GIVE_BACK_BYTES;

            give_back(text + given, n);
            given += n;
        }
        off = skip_space(text, off, len);
        if (off == len)
            return REFUSED(syntax_error(text, off, NULL,
                                        "']' expected near end of file",
                                        path));
        if (text[off] != ',' && text[off] != ']')
            return REFUSED(syntax_error(text, off + 1, NULL,
                                        "',' or ']' expected", path));
        if ((more = text[off] == ',') != 0)
            off = skip_space(text, off + 1, len);
    }
    off = skip_space(text, off + 1, len);
    if (off != len)
        return REFUSED(syntax_error(text, off + 1, NULL,
                                    "end of file expected", path));
    return failed < 0 ? tokio__error(failed, "%s", msg) : TOKIO_OK;
#undef REFUSED
}

/* The text of the cache `path`, refused from its head when it is not
 * JSON: a plain file of up to `map_max` bytes mapped (*map, munmap() it),
 * any other input read whole within the connectors' budget (*text,
 * free() it). */
static int
cache_text(const char *path, size_t map_max, const unsigned char **map,
           unsigned char **text, size_t *len)
{
    struct tokio_input *in = NULL;
    int rc;

    *map = NULL;
    *text = NULL;
    *len = 0;
    if ((rc = tokio_input_open(&in, path)) == TOKIO_OK &&
        tokio__input_map(in, map_max, map, len) == 0) {
        if (tokio__bid_json((const char *)*map,
                            *len < TOKIO__CONNECTOR_HEAD_BYTES
                            ? *len : TOKIO__CONNECTOR_HEAD_BYTES) == 0) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s': not JSON", path);
            munmap((void *)*map, *len);
            *map = NULL;
        }
    } else if (rc == TOKIO_OK) {
        rc = tokio__read_whole(in, path, 0, tokio__bid_json, "JSON", text,
                               len);
    }
    tokio_input_close(in);
    return rc;
}

int
tokio_es_from_cache(const char *path, tokio_es_page_fn fn, void *payload)
{
    const char *const *fields;
    unsigned char *text = NULL;
    const unsigned char *map = NULL;
    size_t n_fields, len = 0;
    int rc;

    /* the CSV form: without jansson's trees where es_hits.c can */
    if (fn == tokio_es_pages_add &&
        (fields = csv_fields(payload, &n_fields)) != NULL)
        return tokio__es_from_cache_hits(path, fields, n_fields,
                                         pages_add_hit, pages_reset, fn,
                                         payload);
    /* a plain file mapped, any size, each page within
     * TOKIO__CONNECTOR_MAX_BYTES; any other input read whole within that */
    if ((rc = cache_text(path, SIZE_MAX, &map, &text, &len)) == TOKIO_OK)
        rc = pages_of_text(map != NULL ? (const char *)map
                                       : (const char *)text,
                           len, map != NULL, NULL, path, fn, payload);
    free(text);
    if (map != NULL)
        munmap((void *)map, len);
    return rc;
}

/* The pages of a mapped cache read so far: out of memory (read again
 * from the file if needed), so that it stays one page of the cache. */
static void
give_back(const char *text, size_t n)
{
    long page = sysconf(_SC_PAGESIZE);

    if (page > 0 && n >= (size_t)page)
        (void)madvise((void *)text, n - n % (size_t)page, MADV_DONTNEED);
}

/* The text of the cache `path` as one jansson tree, its pages to
 * `page_fn` after `reset` (pages may have gone; NULL: no reset). */
static int
whole_tree(const char *text, size_t len, const char *path,
           int (*reset)(void *payload), tokio_es_page_fn page_fn,
           void *payload)
{
    json_t *pages;
    int rc = tokio__json_parse_named(&pages, text, len, 0, path);

    if (rc == TOKIO_OK && (reset == NULL || (rc = reset(payload)) >= 0))
        rc = tokio_es_from_json(pages, path, page_fn, payload);
    json_decref(pages);
    return rc;
}

int
tokio__es_from_cache_hits(const char *path, const char *const *fields,
                          size_t n_fields, tokio__es_hit_fn hit_fn,
                          int (*reset)(void *payload),
                          tokio_es_page_fn page_fn, void *payload)
{
    unsigned char *text = NULL;
    const unsigned char *map = NULL;
    size_t len = 0, page = 0;
    int rc;

    /* as tokio__read_json_file(), then es_hits.c or jansson; a plain
     * file mapped rather than copied (perf: the copy was 13% of the CSV
     * form, 0.195 s -> 0.162 s on bench/bench-collectdes.sh's cache) */
    rc = cache_text(path, TOKIO__CONNECTOR_MAX_BYTES, &map, &text, &len);
    const char *bytes = map != NULL ? (const char *)map : (const char *)text;
    if (rc == TOKIO_OK)
        rc = tokio__es_hits_read(bytes, len, fields, n_fields, hit_fn, reset,
                                 payload, map != NULL ? give_back : NULL,
                                 &page);
    if (rc == TOKIO__ES_HITS_FALLBACK) {
        /* jansson's trees one page at a time, so that memory holds one
         * page; a text they refuse, as jansson's whole tree takes it or
         * refuses it (its words; a NUL byte after a number it takes) */
        int refused;

        rc = pages_of_text(bytes, len, map != NULL, &refused, path, page_fn,
                           payload);
        if (refused)
            rc = whole_tree(bytes, len, path, reset, page_fn, payload);
    } else if (rc < 0 && rc != TOKIO_ENOMEM && bytes != NULL) {
        tokio__error_prefix("'%s' page %zu", path, page);
    } else if (rc == TOKIO_ENOMEM && bytes != NULL) {
        tokio__error(rc, "out of memory reading '%s'", path);
    }
    free(text);
    if (map != NULL)
        munmap((void *)map, len);
    return rc;
}

/* ---- queries ------------------------------------------------------------ */

json_t *
tokio_es_base_query(void)
{
    return json_pack("{s:{s:{s:{s:{s:[{s:{s:{}}}]}}}}}", "query",
                     "constant_score", "filter", "bool", "must", "range",
                     "@timestamp");
}

/* Set key = value (an integer) in `range`; -1 when out of memory. */
static int
set_time(json_t *range, const char *key, int64_t value)
{
    return json_object_set_new(range, key, json_integer(value)) < 0 ||
           json_object_set_new(range, "format",
                               json_string("epoch_second")) < 0 ? -1 : 0;
}

/*
 * The reference's map_item(): under `obj`, each object holding `key`
 * gets its value bounded (and is not searched further); others are
 * searched through their values.  Counts the matches in *n.
 */
static int
bound(json_t *obj, const char *key, const char *op1, int64_t v1,
      const char *op2, int64_t v2, int *n)
{
    json_t *v;
    const char *k;
    size_t i;
    int rc = TOKIO_OK;

    if (json_is_object(obj) && (v = json_object_get(obj, key)) != NULL) {
        if (!json_is_object(v))
            return tokio__error(TOKIO_EINVAL, "query: '%s' holds no object "
                                "to bound", key);
        (*n)++;
        if (set_time(v, op1, v1) < 0 ||
            (op2 != NULL && set_time(v, op2, v2) < 0))
            return tokio__error(TOKIO_ENOMEM, "out of memory building a "
                                "query");
        if (op2 != NULL && json_object_del(v, "format") == 0 &&
            json_object_set_new(v, "format", json_string("epoch_second")) < 0)
            return tokio__error(TOKIO_ENOMEM, "out of memory building a "
                                "query");
        return TOKIO_OK;
    }
    if (json_is_object(obj)) {
        json_object_foreach(obj, k, v)
            if ((rc = bound(v, key, op1, v1, op2, v2, n)) < 0)
                return rc;
    } else if (json_is_array(obj)) {
        json_array_foreach(obj, i, v)
            if ((rc = bound(v, key, op1, v1, op2, v2, n)) < 0)
                return rc;
    }
    return rc;
}

int
tokio_es_build_timeseries_query(json_t **out, const json_t *query,
                                int64_t start, int64_t end,
                                const char *start_key, const char *end_key)
{
    json_t *q = json_deep_copy(query);
    int n = 0, rc;

    *out = NULL;
    if (q == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory building a query");
    if (end_key == NULL)
        rc = bound(q, start_key, "gte", start, "lt", end, &n);
    else if ((rc = bound(q, start_key, "lt", end, NULL, 0, &n)) >= 0)
        rc = bound(q, end_key, "gte", start, NULL, 0, &n);
    if (rc >= 0 && n == 0)
        rc = tokio__error(TOKIO_EINVAL, "query: unable to locate timestamp "
                          "'%s'", start_key);
    if (rc < 0) {
        json_decref(q);
        return rc;
    }
    *out = q;
    return TOKIO_OK;
}

int
tokio_es_mutate_query(json_t *query, const char *field, json_t *value,
                      const char *term)
{
    json_t *must = json_object_get(json_object_get(json_object_get(
        json_object_get(json_object_get(query, "query"), "constant_score"),
        "filter"), "bool"), "must");

    if (!json_is_array(must)) {
        json_decref(value);
        return tokio__error(TOKIO_EINVAL, "query: no constant_score.filter."
                            "bool.must list to add to");
    }
    if (value == NULL ||
        json_array_append_new(must, json_pack("{s:{s:o}}", term, field,
                                              value)) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory building a query");
    return TOKIO_OK;
}

/* ---- results, as the pages arrive --------------------------------------- */

/*
 * The temporary file's marks.  MARK, 0, byte: that byte, literally (a
 * string holding bytes 1..3).  MARK, column + 1, real text, ALT, integer
 * text, END: an integer whose column's type is not known yet.
 */
#define MARK '\x01'
#define ALT '\x02'
#define END '\x03'

#define MAX_FIELDS 255

/* What pandas will make of a column, from what it has seen. */
struct column {
    unsigned integer : 1, real : 1, missing : 1, other : 1;
};

struct tokio_es_pages {
    FILE *spool;                    /* the output itself when direct */
    int direct;
    int marked;                     /* MARK written: the copy unmarks */
    long header_len;                /* direct: the header's bytes */
    struct tokio__jstream *js;      /* JSON form */
    const char *const *fields;      /* CSV form */
    size_t n_fields;
    struct column cols[MAX_FIELDS];
    size_t hits;
    char number[24];                /* hits in decimal, at its end */
    size_t number_len;
    char *row;                      /* the CSV row being made */
    size_t row_len, row_cap;
};

static int
pages_new(struct tokio_es_pages **out)
{
    struct tokio_es_pages *p = tokio__calloc(1, sizeof(*p));

    *out = NULL;
    if (p == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory keeping pages");
    int fd = tokio__scratch_file(".tokio-es");
    if (fd < 0 || (p->spool = fdopen(fd, "w+")) == NULL) {
        if (fd >= 0)
            close(fd);
        free(p);
        return tokio__error(TOKIO_EIO, "cannot make a temporary file for "
                            "pages in '%s': %m", tokio__scratch_dir());
    }
    *out = p;
    return TOKIO_OK;
}

int
tokio_es_pages_new_json(struct tokio_es_pages **out, unsigned flags)
{
    int rc = pages_new(out);

    if (rc < 0)
        return rc;
    if (((*out)->js = tokio__jstream_open((*out)->spool, flags)) == NULL) {
        tokio_es_pages_free(*out);
        *out = NULL;
        return TOKIO_ENOMEM;
    }
    tokio__jstream_begin_list((*out)->js);
    return TOKIO_OK;
}

int
tokio_es_pages_new_csv(struct tokio_es_pages **out,
                       const char *const *fields, size_t n_fields)
{
    int rc;

    if (n_fields > MAX_FIELDS)
        return tokio__error(TOKIO_EINVAL, "%zu fields are more than %d",
                            n_fields, MAX_FIELDS);
    if ((rc = pages_new(out)) < 0)
        return rc;
    (*out)->fields = fields;
    (*out)->n_fields = n_fields;
    return TOKIO_OK;
}

/* The CSV form's header line to fp. */
static void
put_header(const struct tokio_es_pages *p, FILE *fp)
{
    putc(',', fp);
    for (size_t f = 0; f < p->n_fields; f++) {
        if (f > 0)
            putc(',', fp);
        tokio_csv_write_field(fp, p->fields[f], strlen(p->fields[f]));
    }
    putc('\n', fp);
}

int
tokio_es_pages_new_csv_to(struct tokio_es_pages **out,
                          const char *const *fields, size_t n_fields,
                          FILE *to)
{
    struct tokio_es_pages *p;
    struct stat st;
    int rc, fd = to != NULL ? fileno(to) : -1;
    char c;

    /* a regular file, at its start, that reads back (O_RDWR) */
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        ftell(to) != 0 || lseek(fd, 0, SEEK_CUR) != 0 ||
        pread(fd, &c, 1, 0) < 0)
        return tokio_es_pages_new_csv(out, fields, n_fields);
    if (n_fields > MAX_FIELDS)
        return tokio__error(TOKIO_EINVAL, "%zu fields are more than %d",
                            n_fields, MAX_FIELDS);
    if ((p = tokio__calloc(1, sizeof(*p))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory keeping pages");
    p->spool = to;
    p->direct = 1;
    p->fields = fields;
    p->n_fields = n_fields;
    put_header(p, to);
    if ((rc = tokio__write_check(to, "cannot write CSV")) < 0 ||
        (p->header_len = ftell(to)) < 0) {
        tokio_es_pages_free(p);
        return rc < 0 ? rc : tokio__error(TOKIO_EIO, "cannot write CSV: %m");
    }
    *out = p;
    return TOKIO_OK;
}

size_t
tokio_es_pages_count(const struct tokio_es_pages *p)
{
    return p->hits;
}

/* Rows are made in p->row and go to the temporary file in blocks of
 * about this many bytes (one fwrite() a row was ~5% of --csv). */
#define ROW_BLOCK (64 * 1024)
/* The most a cell other than a string takes: MARK, column, repr() of a
 * double (at most 24 bytes), ALT, an int64_t (at most 20), END, comma. */
#define CELL_MAX 64

/* Room for `n` more bytes in the rows being made, from `at`. */
static int
row_room(struct tokio_es_pages *p, size_t at, size_t n)
{
    if (p->row_cap - at >= n)
        return TOKIO_OK;
    size_t cap = p->row_cap ? p->row_cap : ROW_BLOCK + 4096;
    while (cap - at < n)
        cap *= 2;
    char *row = tokio__realloc(p->row, cap);
    if (row == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory keeping pages");
    p->row = row;
    p->row_cap = cap;
    return TOKIO_OK;
}

/* The rows made so far to the temporary file. */
static int
flush_rows(struct tokio_es_pages *p)
{
    size_t n = p->row_len;

    p->row_len = 0;
    if (n > 0 && fwrite(p->row, 1, n, p->spool) != n)
        return tokio__write_check(p->spool, p->direct ? "cannot write CSV"
                                  : "cannot write a temporary file of "
                                  "pages");
    return TOKIO_OK;
}

/* Bytes of text cells: 1 calls for quotes (as pandas quotes: a comma,
 * quote, CR or LF), 2 for escaping (1..3, the marks). */
static const unsigned char text_class[256] = {
    [','] = 1, ['"'] = 1, ['\r'] = 1, ['\n'] = 1,
    [(unsigned char)MARK] = 2, [(unsigned char)ALT] = 2,
    [(unsigned char)END] = 2,
};

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Eight bytes at s (unaligned, in memory order); and to o. */
static uint64_t
load8(const char *s)
{
    uint64_t w;

    memcpy(&w, s, 8);
    return w;
}

static void
store8(char *o, uint64_t w)
{
    memcpy(o, &w, 8);
}

/* The high bit of some byte of w set where w holds a byte of text_class:
 * one below 0x20 (not 0x80 and up), a comma or a quote (exact as to
 * whether there is one: no byte is taken for another before the first
 * such byte). */
static uint64_t
special(uint64_t w)
{
    uint64_t c = w ^ (ONES * ','), q = w ^ (ONES * '"');

    return (((w - ONES * 0x20) & ~w) | ((c - ONES) & ~c) |
            ((q - ONES) & ~q)) & HIGHS;
}

/* Whether s[0..n) may hold a byte of text_class, eight bytes a word
 * (the last word overlapping the one before). */
static int
maybe_special(const char *s, size_t n)
{
    uint64_t any = 0;
    size_t i;

    for (i = 0; i + 8 < n; i += 8)
        any |= special(load8(s + i));
    return (any | special(load8(s + n - 8))) != 0;
}

/* A text cell at o (room for 3 n + 2 bytes), its bytes 1..3 escaped for
 * the copy; returns the end. */
static char *
put_text(char *o, const char *s, size_t n, int *marked)
{
    unsigned cls = 0;
    size_t i;

    /* the usual texts (1 to 24 bytes, none special) by overlapping
     * words, not memcpy() and a loop: their lengths vary from cell to
     * cell, and each branch on them was a mispredicted one */
    if (n >= 8 && n <= 24) {
        size_t mid = n > 16 ? 8 : n - 8;
        uint64_t a = load8(s), b = load8(s + mid), c = load8(s + n - 8);

        if ((special(a) | special(b) | special(c)) == 0) {
            store8(o, a);
            store8(o + mid, b);
            store8(o + n - 8, c);
            return o + n;
        }
    } else if (n >= 4 && n < 8) {
        uint32_t a, b;

        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        if (special(a | (uint64_t)b << 32) == 0) {
            memcpy(o, &a, 4);
            memcpy(o + n - 4, &b, 4);
            return o + n;
        }
    } else if (n > 0 && n < 4) {
        uint64_t w = (unsigned char)s[0] | (uint64_t)(unsigned char)s[n / 2]
                     << 8 | (uint64_t)(unsigned char)s[n - 1] << 16;

        if (special(w | ONES * 'a' << 24) == 0) {
            o[0] = s[0];
            o[n / 2] = s[n / 2];
            o[n - 1] = s[n - 1];
            return o + n;
        }
    } else if (n > 24 && !maybe_special(s, n)) {
        memcpy(o, s, n);
        return o + n;
    }
    for (i = 0; i < n; i++)
        cls |= text_class[(unsigned char)s[i]];
    if (cls == 0) {
        memcpy(o, s, n);
        return o + n;
    }
    if (cls & 1)
        *o++ = '"';
    for (i = 0; i < n; i++) {
        if (s[i] == '"' && (cls & 1)) {
            *o++ = '"';
        } else if (s[i] >= MARK && s[i] <= END) {
            *o++ = MARK;
            *o++ = '\0';
            *marked = 1;
        }
        *o++ = s[i];
    }
    if (cls & 1)
        *o++ = '"';
    return o;
}

/* v's decimal text at o (room for 20 bytes); returns the end. */
static char *
int_text(char *o, int64_t v)
{
    char rev[24];
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    size_t n = 0;

    do {
        rev[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u > 0);
    if (v < 0)
        *o++ = '-';
    while (n > 0)
        *o++ = rev[--n];
    return o;
}

/* A cell of the row at o (room made for it), after its comma; returns
 * the end, or NULL (error set). */
static char *
put_cell(struct tokio_es_pages *p, char *o, size_t f,
         const struct tokio__es_value *v, size_t hit)
{
    struct column *c = &p->cols[f];

    switch (v->kind) {
    case TOKIO__ES_STRING:
        c->other = 1;
        return put_text(o, v->s, v->len, &p->marked);
    case TOKIO__ES_ABSENT:
    case TOKIO__ES_NULL:
        c->missing = 1;
        return o;
    case TOKIO__ES_INT:
        c->integer = 1;
        if (c->other)
            return int_text(o, v->i);
        p->marked = 1;
        *o++ = MARK;
        *o++ = (char)(f + 1);
        o += tokio__repr_double(o, (double)v->i);
        *o++ = ALT;
        o = int_text(o, v->i);
        *o++ = END;
        return o;
    case TOKIO__ES_REAL:
        c->real = 1;
        return o + tokio__repr_double(o, v->d);
    case TOKIO__ES_FALSE:
        c->other = 1;
        memcpy(o, "False", 5);
        return o + 5;
    case TOKIO__ES_TRUE:
        c->other = 1;
        memcpy(o, "True", 4);
        return o + 4;
    case TOKIO__ES_OTHER:
        break;
    }
    tokio__error(TOKIO_EFORMAT, "hit %zu: field '%s' is a list or object, "
                 "which has no CSV form", hit, p->fields[f]);
    return NULL;
}

/* The next row's number (p->hits, counted up in decimal) at o; returns
 * the end. */
static char *
row_number(struct tokio_es_pages *p, char *o)
{
    char *end = p->number + sizeof(p->number), *d = end - 1, *first;

    if (p->number_len == 0) {
        *d = '0';
        p->number_len = 1;
    }
    first = end - p->number_len;
    memcpy(o, first, p->number_len);
    o += p->number_len;
    p->hits++;
    while (d >= first && *d == '9')
        *d-- = '0';
    if (d < first) {
        *d = '1';
        p->number_len++;
    } else {
        ++*d;
    }
    return o;
}

/* One CSV row: the hit's number, then its cells; room made at once for
 * all of it, unless a text is longer than a cell's share. */
static int
put_row(struct tokio_es_pages *p, const struct tokio__es_value *v,
        size_t hit)
{
    char *o;

    if (row_room(p, p->row_len, 24 + p->n_fields * CELL_MAX) < 0)
        return TOKIO_ENOMEM;
    o = row_number(p, p->row + p->row_len);
    for (size_t f = 0; f < p->n_fields; f++) {
        if (v[f].kind == TOKIO__ES_STRING && 3 * v[f].len + 3 > CELL_MAX) {
            size_t at = (size_t)(o - p->row);

            if (row_room(p, at, 3 * v[f].len + 4 +
                         (p->n_fields - f) * CELL_MAX) < 0)
                return TOKIO_ENOMEM;
            o = p->row + at;
        }
        *o++ = ',';
        /* an absent field, a text, a real, without the switch's jump (a
         * mispredicted one every few cells: the kinds go with the kind
         * of document) */
        if (v[f].kind == TOKIO__ES_ABSENT) {
            p->cols[f].missing = 1;
        } else if (v[f].kind == TOKIO__ES_STRING) {
            p->cols[f].other = 1;
            o = put_text(o, v[f].s, v[f].len, &p->marked);
        } else if (v[f].kind == TOKIO__ES_REAL) {
            p->cols[f].real = 1;
            o += tokio__repr_double(o, v[f].d);
        } else if ((o = put_cell(p, o, f, &v[f], hit)) == NULL) {
            return TOKIO_EFORMAT;
        }
    }
    *o++ = '\n';
    p->row_len = (size_t)(o - p->row);
    return p->row_len >= ROW_BLOCK ? flush_rows(p) : TOKIO_OK;
}

/* The fields of `pages` in the CSV form; NULL in the JSON form. */
static const char *const *
csv_fields(const void *pages, size_t *n_out)
{
    const struct tokio_es_pages *p = pages;

    *n_out = p->n_fields;
    return p->js == NULL ? p->fields : NULL;
}

/* The stream of `pages` in the JSON form (NULL in the CSV form), and
 * its count of hits. */
static struct tokio__jstream *
json_stream(void *pages, size_t **hits_out)
{
    struct tokio_es_pages *p = pages;

    *hits_out = &p->hits;
    return p->js;
}

/* The CSV form as new, for es_hits.c's fallback to jansson. */
static int
pages_reset(void *pages)
{
    struct tokio_es_pages *p = pages;

    p->hits = 0;
    p->number_len = 0;
    p->row_len = 0;
    p->marked = 0;
    memset(p->cols, 0, sizeof(p->cols));
    if (fflush(p->spool) != 0 || ftruncate(fileno(p->spool), 0) != 0 ||
        fseek(p->spool, 0, SEEK_SET) != 0)
        return tokio__error(TOKIO_EIO, "cannot write a temporary file of "
                            "pages: %m");
    if (p->direct)
        put_header(p, p->spool);
    return TOKIO_OK;
}

/* A tokio__es_hit_fn: a hit of the CSV form, from es_hits.c. */
static int
pages_add_hit(const struct tokio__es_value *v, size_t hit, void *pages)
{
    return put_row(pages, v, hit);
}

int
tokio_es_pages_add(const json_t *hits, size_t page, void *pages)
{
    struct tokio_es_pages *p = pages;
    struct tokio__es_value v[MAX_FIELDS];
    const json_t *hit;
    size_t h;
    int rc;

    (void)page;
    if (!json_is_array(hits))
        return tokio__error(TOKIO_EFORMAT, "not a list of hits");
    /* streamed back as JSON too, only hits (issue 17: '[[1]]' was) */
    json_array_foreach(hits, h, hit)
        if (!json_is_object(json_object_get(hit, "_source")))
            return tokio__error(TOKIO_EFORMAT, "hit %zu has no object "
                                "_source", h);
    if (p->js != NULL) {
        tokio__jstream_item(p->js);
        tokio__jstream_value(p->js, hits);
        p->hits += json_array_size(hits);
        return TOKIO_OK;
    }
    json_array_foreach(hits, h, hit) {
        const json_t *src = json_object_get(hit, "_source");

        for (size_t f = 0; f < p->n_fields; f++)
            tokio__es_value_of(json_object_get(src, p->fields[f]), &v[f]);
        if ((rc = put_row(p, v, h)) < 0)
            return rc;
    }
    return tokio__write_check(p->spool, p->direct ? "cannot write CSV"
                              : "cannot write a temporary file of pages");
}

/* Where the marks of the temporary file are, from one block to the
 * next. */
struct unmark {
    int state;          /* 0 text, 1 after MARK, 2 literal, 3 real text,
                           4 integer text */
    int as_real;
};

/* in[0..n) with each marked integer in the form its column calls for,
 * and escaped bytes as they were, to out (room for n; `in` itself will
 * do: what is written never passes what is read); returns the bytes
 * out. */
static size_t
unmark(const struct tokio_es_pages *p, struct unmark *u, const char *in,
       size_t n, char *out)
{
    size_t o = 0;

    for (size_t i = 0; i < n;) {
        if (u->state == 0) {
            const char *m = memchr(in + i, MARK, n - i);
            size_t run = m ? (size_t)(m - (in + i)) : n - i;

            memmove(out + o, in + i, run);
            o += run;
            i += run;
            if (m != NULL) {
                u->state = 1;
                i++;
            }
            continue;
        }
        char ch = in[i++];
        if (u->state == 1) {
            if (ch == '\0') {
                u->state = 2;
            } else {
                const struct column *c = &p->cols[(unsigned char)ch - 1];
                u->as_real = !c->other && (c->real || c->missing);
                u->state = 3;
            }
        } else if (u->state == 2) {
            out[o++] = ch;
            u->state = 0;
        } else if (ch == ALT) {
            u->state = 4;
        } else if (ch == END) {
            u->state = 0;
        } else if ((u->state == 3) == u->as_real) {
            out[o++] = ch;
        }
    }
    return o;
}

/* Copy the CSV from the temporary file to fp, unmarked where marked. */
static int
copy_csv(struct tokio_es_pages *p, FILE *fp)
{
    char buf[1 << 16];
    struct unmark u = { 0, 0 };
    size_t n;

    while ((n = fread(buf, 1, sizeof(buf), p->spool)) > 0) {
        if (!p->marked) {
            fwrite(buf, 1, n, fp);
        } else {
            fwrite(buf, 1, unmark(p, &u, buf, n, buf), fp);
        }
    }
    if (ferror(p->spool))
        return tokio__error(TOKIO_EIO, "cannot read back a temporary file of "
                            "pages");
    return TOKIO_OK;
}

/* The direct form's end: its rows unmarked in place (unmarking only
 * shortens, so what is written never passes what is read), or `""` for
 * no hits at all. */
static int
finish_direct(struct tokio_es_pages *p)
{
    char buf[1 << 16];
    struct unmark u = { 0, 0 };
    FILE *fp = p->spool;
    int fd = fileno(fp);
    off_t r = p->header_len, w = r;
    ssize_t n;
    int rc;

    if ((rc = flush_rows(p)) < 0)
        return rc;
    if (fflush(fp) != 0)
        return tokio__write_check(fp, "cannot write CSV");
    if (p->hits == 0) {
        if (ftruncate(fd, 0) != 0 || fseek(fp, 0, SEEK_SET) != 0)
            return tokio__error(TOKIO_EIO, "cannot write CSV: %m");
        fputs("\"\"\n", fp);
        return tokio__write_check(fp, "cannot write CSV");
    }
    if (!p->marked)
        return TOKIO_OK;
    while ((n = pread(fd, buf, sizeof(buf), r)) > 0) {
        size_t m = unmark(p, &u, buf, (size_t)n, buf);

        if (pwrite(fd, buf, m, w) != (ssize_t)m)
            return tokio__error(TOKIO_EIO, "cannot write CSV: %m");
        r += n;
        w += (off_t)m;
    }
    if (n < 0 || ftruncate(fd, w) != 0 || fseek(fp, 0, SEEK_END) != 0)
        return tokio__error(TOKIO_EIO, "cannot write CSV: %m");
    return TOKIO_OK;
}

int
tokio_es_pages_write(struct tokio_es_pages *p, FILE *fp)
{
    char buf[1 << 16];
    size_t n;
    int rc;

    if (p->direct && fp == p->spool)
        return finish_direct(p);
    if (p->js != NULL) {
        tokio__jstream_end(p->js);
        rc = tokio__jstream_close(p->js);
        p->js = NULL;
        if (rc < 0)
            return rc;
    } else if (p->hits == 0) {
        fputs("\"\"\n", fp);
        return tokio__write_check(fp, "cannot write CSV");
    }
    if (p->js == NULL && (rc = flush_rows(p)) < 0)
        return rc;
    if (fflush(p->spool) != 0 || fseek(p->spool, 0, SEEK_SET) != 0)
        return tokio__error(TOKIO_EIO, "cannot read back a temporary file of "
                            "pages: %m");
    if (p->js == NULL && p->fields != NULL) {
        put_header(p, fp);
        if ((rc = copy_csv(p, fp)) < 0)
            return rc;
    } else {
        while ((n = fread(buf, 1, sizeof(buf), p->spool)) > 0)
            fwrite(buf, 1, n, fp);
        if (ferror(p->spool))
            return tokio__error(TOKIO_EIO, "cannot read back a temporary "
                                "file of pages");
    }
    return tokio__write_check(fp, "cannot write Elasticsearch pages");
}

void
tokio_es_pages_free(struct tokio_es_pages *p)
{
    if (p == NULL)
        return;
    if (p->js != NULL)
        tokio__jstream_close(p->js);
    if (p->spool != NULL && !p->direct)
        fclose(p->spool);
    free(p->row);
    free(p);
}
