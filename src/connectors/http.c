/*
 * src/connectors/http.c - the HTTP client of the REST connectors (es.c,
 * esnet_snmp.c), over libcurl's easy interface: one handle per server,
 * reused so a scroll keeps its connection.
 *
 * Timeouts: CURLOPT_CONNECTTIMEOUT for the connection, and a read
 * timeout kept by on_progress(): no byte sent or received for `timeout`
 * seconds aborts.  There is no limit on the whole transfer, which a
 * large page may need.
 */
#include "connectors/http.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "core/alloc.h"
#include "core/error.h"

struct tokio__http {
    CURL *curl;
    char *base;
    long timeout;
    volatile sig_atomic_t *stop;
    int ignore_stop;
    /* the read timeout: when bytes last moved, and the limit in force */
    struct timespec last;
    curl_off_t last_up, last_down;
    long read_timeout;
    int timed_out;
    char errbuf[CURL_ERROR_SIZE];
};

/* The response as it arrives. */
struct body {
    char *p;
    size_t n, cap;
    int too_big, oom;
};

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static CURLcode global_rc = CURLE_FAILED_INIT;

/* curl_global_init() is not safe to call twice at once: once per process. */
static void
global_init(void)
{
    global_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

static size_t
on_data(char *data, size_t size, size_t nmemb, void *ctx)
{
    struct body *b = ctx;
    size_t len = size * nmemb;

    if (len > TOKIO__HTTP_MAX_BODY - b->n) {
        b->too_big = 1;
        return 0;
    }
    if (b->n + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1 << 16;
        char *p;

        while (cap < b->n + len + 1)
            cap *= 2;
        if ((p = tokio__realloc(b->p, cap)) == NULL) {
            b->oom = 1;
            return 0;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, data, len);
    b->n += len;
    b->p[b->n] = '\0';
    return len;
}

/*
 * Abandon the transfer once a signal asked to stop, or when no byte has
 * moved for the read timeout.  (curl's own CURLOPT_LOW_SPEED_TIME
 * averages over a few seconds that include sending the request, so a
 * server that never answers is caught seconds late.)  curl calls this
 * about once a second while waiting.
 */
static int
on_progress(void *ctx, curl_off_t dltotal, curl_off_t dlnow,
            curl_off_t ultotal, curl_off_t ulnow)
{
    struct tokio__http *h = ctx;
    struct timespec now;

    (void)dltotal;
    (void)ultotal;
    if (!h->ignore_stop && h->stop != NULL && *h->stop)
        return 1;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (dlnow != h->last_down || ulnow != h->last_up) {
        h->last = now;
        h->last_down = dlnow;
        h->last_up = ulnow;
    } else if ((double)(now.tv_sec - h->last.tv_sec) +
               (double)(now.tv_nsec - h->last.tv_nsec) / 1e9 >=
               (double)h->read_timeout) {
        h->timed_out = 1;
        return 1;
    }
    return 0;
}

int
tokio__http_new(struct tokio__http **out, const char *base, long timeout,
                const char *user, const char *password,
                volatile sig_atomic_t *stop)
{
    struct tokio__http *h;
    int ok = 1;

    *out = NULL;
    pthread_once(&global_once, global_init);
    if (global_rc != CURLE_OK)
        return tokio__error(TOKIO_EIO, "'%s': curl cannot start: %s", base,
                            curl_easy_strerror(global_rc));
    if ((h = tokio__calloc(1, sizeof(*h))) == NULL ||
        (h->base = tokio__strdup(base)) == NULL) {
        tokio__http_free(h);
        return tokio__error(TOKIO_ENOMEM, "out of memory connecting to '%s'",
                            base);
    }
    if ((h->curl = curl_easy_init()) == NULL) {
        tokio__http_free(h);
        return tokio__error(TOKIO_EIO, "'%s': curl cannot start", base);
    }
    h->timeout = timeout;
    h->stop = stop;
    ok &= curl_easy_setopt(h->curl, CURLOPT_ERRORBUFFER, h->errbuf) == 0;
    ok &= curl_easy_setopt(h->curl, CURLOPT_NOSIGNAL, 1L) == 0;
    ok &= curl_easy_setopt(h->curl, CURLOPT_PROTOCOLS_STR, "http,https") == 0;
    ok &= curl_easy_setopt(h->curl, CURLOPT_FOLLOWLOCATION, 0L) == 0;
    /* curl's defaults, said out loud: certificates and names are checked */
    ok &= curl_easy_setopt(h->curl, CURLOPT_SSL_VERIFYPEER, 1L) == 0;
    ok &= curl_easy_setopt(h->curl, CURLOPT_SSL_VERIFYHOST, 2L) == 0;
    ok &= curl_easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, on_data) == 0;
    ok &= curl_easy_setopt(h->curl, CURLOPT_XFERINFOFUNCTION,
                           on_progress) == 0;
    ok &= curl_easy_setopt(h->curl, CURLOPT_XFERINFODATA, h) == 0;
    ok &= curl_easy_setopt(h->curl, CURLOPT_NOPROGRESS, 0L) == 0;
    ok &= curl_easy_setopt(h->curl, CURLOPT_USERAGENT,
                           "tokio/" TOKIO_VERSION) == 0;
    if (user != NULL) {
        ok &= curl_easy_setopt(h->curl, CURLOPT_HTTPAUTH,
                               (long)CURLAUTH_BASIC) == 0;
        ok &= curl_easy_setopt(h->curl, CURLOPT_USERNAME, user) == 0;
        ok &= curl_easy_setopt(h->curl, CURLOPT_PASSWORD,
                               password ? password : "") == 0;
    }
    if (!ok) {
        tokio__http_free(h);
        return tokio__error(TOKIO_ENOMEM, "out of memory connecting to '%s'",
                            base);
    }
    *out = h;
    return TOKIO_OK;
}

const char *
tokio__http_base(const struct tokio__http *h)
{
    return h->base;
}

/* One transfer; the body into `b` when not NULL, else dropped. */
static int
perform(struct tokio__http *h, long timeout, const char *method,
        const char *path, const char *body, struct body *b, long *status_out)
{
    struct body sink = { 0 };
    struct curl_slist *headers = NULL, *more;
    size_t len = strlen(h->base) + strlen(path) + 1;
    char *url = tokio__malloc(len);
    CURLcode cc;
    int ok = 1;

    *status_out = 0;
    if (b == NULL)
        b = &sink;
    if (url == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory requesting '%s%s'",
                            h->base, path);
    snprintf(url, len, "%s%s", h->base, path);
    /* no "Expect: 100-continue" round trip before a body */
    headers = curl_slist_append(NULL, "Expect:");
    more = headers == NULL || body == NULL ? headers
           : curl_slist_append(headers, "Content-Type: application/json");
    if (more == NULL) {
        curl_slist_free_all(headers);
        free(url);
        return tokio__error(TOKIO_ENOMEM, "out of memory requesting '%s%s'",
                            h->base, path);
    }
    h->errbuf[0] = '\0';
    ok &= curl_easy_setopt(h->curl, CURLOPT_URL, url) == 0;
    ok &= curl_easy_setopt(h->curl, CURLOPT_CUSTOMREQUEST, method) == 0;
    ok &= curl_easy_setopt(h->curl, CURLOPT_HTTPGET, 1L) == 0;
    if (body != NULL) {
        ok &= curl_easy_setopt(h->curl, CURLOPT_POSTFIELDS, body) == 0;
        ok &= curl_easy_setopt(h->curl, CURLOPT_POSTFIELDSIZE,
                               (long)strlen(body)) == 0;
    }
    ok &= curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, headers) == 0;
    ok &= curl_easy_setopt(h->curl, CURLOPT_CONNECTTIMEOUT, timeout) == 0;
    clock_gettime(CLOCK_MONOTONIC, &h->last);
    h->last_up = h->last_down = 0;
    h->read_timeout = timeout;
    h->timed_out = 0;
    ok &= curl_easy_setopt(h->curl, CURLOPT_WRITEDATA, b) == 0;
    cc = ok ? curl_easy_perform(h->curl) : CURLE_OUT_OF_MEMORY;
    /* the handle outlives these: forget them before they are freed */
    curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, NULL);
    curl_easy_setopt(h->curl, CURLOPT_POSTFIELDS, NULL);
    curl_slist_free_all(headers);
    free(sink.p);
    if (cc == CURLE_OK) {
        curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, status_out);
        free(url);
        return TOKIO_OK;
    }
    int rc;
    if (b->oom || cc == CURLE_OUT_OF_MEMORY)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", url);
    else if (b->too_big)
        rc = tokio__error(TOKIO_EIO, "%s '%s': the response is larger than "
                          "%zu MiB", method, url, TOKIO__HTTP_MAX_BODY >> 20);
    else if (cc == CURLE_ABORTED_BY_CALLBACK && !h->timed_out)
        rc = tokio__error(TOKIO_EIO, "%s '%s': interrupted", method, url);
    else if (cc == CURLE_OPERATION_TIMEDOUT || h->timed_out)
        rc = tokio__error(TOKIO_EIO, "%s '%s': no answer within %ld s "
                          "(--timeout)", method, url, timeout);
    else
        rc = tokio__error(TOKIO_EIO, "%s '%s': %s", method, url,
                          h->errbuf[0] ? h->errbuf : curl_easy_strerror(cc));
    free(url);
    return rc;
}

int
tokio__http_request(struct tokio__http *h, const char *method,
                    const char *path, const char *body, char **body_out,
                    size_t *len_out, long *status_out)
{
    struct body b = { 0 };
    int rc;

    *body_out = NULL;
    *len_out = 0;
    rc = perform(h, h->timeout, method, path, body, &b, status_out);
    if (rc < 0) {
        free(b.p);
        return rc;
    }
    if (b.p == NULL && (b.p = tokio__calloc(1, 1)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s%s'",
                            h->base, path);
    *body_out = b.p;
    *len_out = b.n;
    return TOKIO_OK;
}

int
tokio__http_request_anyway(struct tokio__http *h, long timeout,
                           const char *method, const char *path,
                           const char *body, long *status_out)
{
    int rc;

    h->ignore_stop = 1;
    rc = perform(h, timeout, method,
                 path, body, NULL, status_out);
    h->ignore_stop = 0;
    return rc;
}

char *
tokio__http_escape(struct tokio__http *h, const char *s)
{
    char *e = curl_easy_escape(h->curl, s, 0), *copy;

    if (e == NULL)
        return NULL;
    copy = tokio__strdup(e);
    curl_free(e);
    return copy;
}

const char *
tokio__http_reason(long status)
{
    switch (status) {
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "";
    }
}

void
tokio__http_free(struct tokio__http *h)
{
    if (h == NULL)
        return;
    if (h->curl != NULL)
        curl_easy_cleanup(h->curl);
    free(h->base);
    free(h);
}
