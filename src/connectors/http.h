/*
 * src/connectors/http.h - one HTTP client for the connectors that read
 * REST services (Elasticsearch, ESnet's SNMP API), over libcurl.
 *
 * Every request has a connect timeout and a read timeout (no byte for
 * that many seconds), verifies TLS certificates and host names (never
 * turned off), speaks only http and https, follows no redirect, and
 * refuses a response body larger than TOKIO__HTTP_MAX_BODY.  Failures
 * are messages naming the server, the request and curl's or the HTTP
 * reason.
 */
#ifndef TOKIO_CONNECTORS_HTTP_H
#define TOKIO_CONNECTORS_HTTP_H

#include <signal.h>
#include <stddef.h>

/* A page of 10,000 Elasticsearch hits is a few megabytes; a response
 * past this is not one, and must not take the memory it claims. */
#define TOKIO__HTTP_MAX_BODY ((size_t)1 << 30)

struct tokio__http;

/*
 * A client of the server at `base` ("http://host:port", no trailing
 * slash), with `timeout` seconds (> 0) to connect and between bytes
 * read, basic auth when `user` is not NULL, and `stop` (may be NULL): a
 * flag a signal handler sets to abandon the request under way.
 * @return TOKIO_OK, TOKIO_ENOMEM, TOKIO_EIO (curl would not start).
 */
int tokio__http_new(struct tokio__http **out, const char *base, long timeout,
                    const char *user, const char *password,
                    volatile sig_atomic_t *stop);

/* The base URL, for messages; borrowed. */
const char *tokio__http_base(const struct tokio__http *h);

/*
 * `method` ("GET", "POST", "DELETE") of base + `path` (starting with
 * '/', query string included), with a JSON `body` when not NULL.  The
 * response body is in *body_out (NUL-ended, free()), its length in
 * *len_out and the HTTP status in *status_out; statuses >= 400 are not
 * failures here (the caller reads the server's explanation).
 * @return TOKIO_OK; TOKIO_EIO (no connection, timed out, dropped,
 *         interrupted, body too large: the message names the URL);
 *         TOKIO_ENOMEM.
 */
int tokio__http_request(struct tokio__http *h, const char *method,
                        const char *path, const char *body, char **body_out,
                        size_t *len_out, long *status_out);

/* As tokio__http_request(), ignoring `stop` and with at most `timeout`
 * seconds: for freeing server state after a failure or an interruption. */
int tokio__http_request_anyway(struct tokio__http *h, long timeout,
                               const char *method, const char *path,
                               const char *body, long *status_out);

/* `s` escaped for a URL path segment or query value (free()); NULL when
 * out of memory. */
char *tokio__http_escape(struct tokio__http *h, const char *s);

/* The reason phrase of HTTP status `status` ("Not Found"), "" if unknown. */
const char *tokio__http_reason(long status);

/* Release; NULL is fine. */
void tokio__http_free(struct tokio__http *h);

#endif
