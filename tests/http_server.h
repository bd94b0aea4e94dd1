/*
 * tests/http_server.h - an HTTP server of the tests' own, on 127.0.0.1
 * (an ephemeral port), in a forked child: it speaks what the REST
 * connectors talk to, from recorded data, and fails on request.
 *
 * Elasticsearch: POST /<index>/_search?scroll=..&size=N answers the
 * documents (`hits`, in their order) that match the query's
 * constant_score.filter.bool.must clauses (range with gte/lt in
 * epoch_second on a date field, term, prefix, regexp; others refused with
 * 400), their "_source" cut to the request's "_source" list, `page_hits`
 * (else N) at a time with a real-looking _scroll_id; POST /_search/scroll
 * answers the next page, an empty one at the end; DELETE /_search/scroll
 * frees the context.  An unknown scroll id is
 * search_context_missing_exception, as there.
 *
 * ESnet SNMP: GET .../<endpoint>/interface/<interface>/<in|out>?begin=B&
 * end=E answers {"agg": "30", "begin_time": B, "end_time": E, "cf":
 * "average", "data": [[t, v], ...]} from a cache of the reference's
 * EsnetSnmp JSON (t from B to E inclusive); an unknown endpoint,
 * interface or direction is 404.
 *
 * Every request is logged ("METHOD TARGET", and "freed=N" after a
 * DELETE) for the tests to read.  Loops are bounded: each connection
 * waits at most 20 s for a request, and the child ends after 5 minutes
 * whatever happens.
 */
#ifndef TOKIO_TESTS_HTTP_SERVER_H
#define TOKIO_TESTS_HTTP_SERVER_H

#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

enum http_fault {
    HTTP_FAULT_NONE,
    HTTP_FAULT_DROP,        /* half the answer, then the connection closed */
    HTTP_FAULT_STATUS,      /* answer `status` with an Elasticsearch error */
    HTTP_FAULT_MALFORMED,   /* 200 with a page that is not JSON */
    HTTP_FAULT_SLOW,        /* wait `slow_seconds` before answering */
    HTTP_FAULT_EXPIRE,      /* the scroll context is gone (404) */
};

struct http_server_config {
    const json_t *hits;         /* Elasticsearch: every document, a list */
    const json_t *esnet;        /* ESnet: {endpoint: {interface: {...}}} */
    size_t page_hits;           /* hits per page; 0: the request's size */
    enum http_fault fault;
    size_t fault_at;            /* the answer it hits: 0 = the first */
    int status;                 /* HTTP_FAULT_STATUS */
    int slow_seconds;           /* HTTP_FAULT_SLOW */
    const char *user;           /* basic auth required when not NULL */
    const char *password;
};

struct http_server {
    pid_t pid;
    int port;
    char url[64];               /* "http://127.0.0.1:PORT" */
    char *dir;                  /* holds the log */
    char log[4200];
};

/* Start a server (the test fails if it cannot). */
void http_server_start(struct http_server *s,
                       const struct http_server_config *c);

/* Stop it and remove its folder. */
void http_server_stop(struct http_server *s);

/* The request log so far (free()). */
char *http_server_log(const struct http_server *s);

/* A port on 127.0.0.1 nothing listens on (bound, then closed). */
int http_server_free_port(void);

/* The JSON of file `path` (plain or compressed), a new reference; the
 * test fails if it cannot be read. */
json_t *http_server_json_file(const char *path);

/* Every hit of the reference's cache of pages `rel` (a path inside the
 * test data pack), as one list (new reference); when the pack is
 * absent, the test is skipped, saying so. */
json_t *http_server_hits_of(const char *rel);

/* The ESnet rates the tests serve: esnet_snmp.json.gz of a working
 * folder's `inputs` (struct tokio_workdir), a new reference. */
json_t *http_server_esnet_rates(const char *inputs);

/* The environment of a `tokio` run in a working folder against `s`'s
 * ESnet API: Los Angeles time, the site configuration inputs/site.json,
 * and PYTOKIO_ESNET_SNMP_URI=<its url><path>. */
struct http_esnet_env {
    char uri[128];
    const char *env[4];
};
void http_server_esnet_env(struct http_esnet_env *e,
                           const struct http_server *s, const char *path);

#endif
