/*
 * tests/http_server.c - the tests' HTTP server (see http_server.h): one
 * forked child serving one connection at a time, HTTP/1.1 with
 * keep-alive, Content-Length bodies only.
 */
#define _GNU_SOURCE
#include "http_server.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "tokio/input.h"

#define MAX_CONTEXTS 64
#define MAX_REQUEST (1 << 20)

/* A scroll context: the matching documents and how far it got. */
struct context {
    char id[80];
    json_t *hits;           /* the matches, _source cut */
    size_t pos, page;
    size_t answers;         /* answers given so far */
    int live;
};

struct server {
    const struct http_server_config *c;
    FILE *log;
    struct context ctx[MAX_CONTEXTS];
    unsigned serial;
    size_t answers;         /* of the whole server, for faults without a
                               context (ESnet, the first search) */
    char auth[512];         /* the expected Authorization header value */
};

/* ---- sockets ------------------------------------------------------------ */

static int
send_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void
respond(int fd, int status, const char *reason, const char *body,
        const char *extra)
{
    char head[512];
    size_t len = strlen(body);

    snprintf(head, sizeof(head), "HTTP/1.1 %d %s\r\nContent-Type: "
             "application/json; charset=UTF-8\r\nContent-Length: %zu\r\n%s"
             "\r\n", status, reason, len, extra ? extra : "");
    if (send_all(fd, head, strlen(head)) == 0)
        send_all(fd, body, len);
}

static void
respond_json(int fd, int status, const char *reason, json_t *j)
{
    char *text = json_dumps(j, JSON_COMPACT);

    respond(fd, status, reason, text ? text : "{}", NULL);
    free(text);
    json_decref(j);
}

static void
es_error(int fd, int status, const char *reason, const char *type,
         const char *why)
{
    respond_json(fd, status, reason,
                 json_pack("{s:{s:[{s:s,s:s}],s:s,s:s},s:i}", "error",
                           "root_cause", "type", type, "reason", why, "type",
                           type, "reason", why, "status", status));
}

/* One request: its method, target and body (NUL-ended, free()); -1 when
 * the client closed, timed out or sent too much. */
static int
read_request(int fd, char *method, size_t msize, char *target, size_t tsize,
             char *auth, size_t asize, char **body_out)
{
    static char buf[MAX_REQUEST + 1];
    size_t n = 0, need = 0;
    char *end = NULL, *p;

    *body_out = NULL;
    auth[0] = '\0';
    for (;;) {
        struct pollfd pfd = { fd, POLLIN, 0 };
        ssize_t r;

        if (end != NULL && n >= need)
            break;
        if (poll(&pfd, 1, 20000) <= 0 || n == MAX_REQUEST)
            return -1;
        if ((r = recv(fd, buf + n, MAX_REQUEST - n, 0)) <= 0)
            return -1;
        n += (size_t)r;
        buf[n] = '\0';
        if (end == NULL && (end = strstr(buf, "\r\n\r\n")) != NULL) {
            size_t clen = 0;

            for (p = buf; p < end; p = strstr(p, "\r\n") + 2) {
                if (strncasecmp(p, "Content-Length:", 15) == 0)
                    clen = strtoul(p + 15, NULL, 10);
                if (strncasecmp(p, "Authorization:", 14) == 0)
                    sscanf(p + 14, " %511[^\r]", auth);
            }
            need = (size_t)(end + 4 - buf) + clen;
            if (need > MAX_REQUEST)
                return -1;
        }
    }
    (void)asize;
    if (sscanf(buf, "%15s %4095s", method, target) != 2)
        return -1;
    (void)msize;
    (void)tsize;
    *body_out = strndup(end + 4, n - (size_t)(end + 4 - buf));
    return *body_out ? 0 : -1;
}

/* ---- Elasticsearch ------------------------------------------------------ */

/* Epoch seconds of an ISO 8601 UTC date ("2017-12-13T08:26:20.677Z"). */
static int
iso_epoch(const char *s, double *out)
{
    struct tm tm;
    double frac = 0;
    char *rest;

    memset(&tm, 0, sizeof(tm));
    rest = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
    if (rest == NULL)
        return -1;
    if (*rest == '.')
        frac = strtod(rest, &rest);
    *out = (double)timegm(&tm) + frac;
    return 0;
}

/* 1 when document `src` passes clause {kind: {field: arg}}; -1 when the
 * clause is not understood. */
static int
passes(const json_t *src, const char *kind, const char *field,
       const json_t *arg)
{
    const json_t *v = json_object_get(src, field);
    const char *s = json_string_value(v);

    if (strcmp(kind, "range") == 0) {
        double t, gte = -1e300, lt = 1e300;

        if (!json_is_object(arg))
            return -1;
        if (json_object_get(arg, "gte"))
            gte = json_number_value(json_object_get(arg, "gte"));
        if (json_object_get(arg, "lt"))
            lt = json_number_value(json_object_get(arg, "lt"));
        if (s == NULL || iso_epoch(s, &t) < 0)
            return 0;
        return t >= gte && t < lt;
    }
    if (strcmp(kind, "term") == 0)
        return v != NULL && json_equal((json_t *)v, (json_t *)arg);
    if (strcmp(kind, "prefix") == 0)
        return s != NULL && json_is_string(arg) &&
               strncmp(s, json_string_value(arg),
                       strlen(json_string_value(arg))) == 0;
    if (strcmp(kind, "regexp") == 0) {
        char pattern[1024];
        regex_t re;
        int ok;

        if (!json_is_string(arg))
            return -1;
        /* Elasticsearch's regexp matches the whole term */
        snprintf(pattern, sizeof(pattern), "^(%s)$", json_string_value(arg));
        if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
            return -1;
        ok = s != NULL && regexec(&re, s, 0, NULL, 0) == 0;
        regfree(&re);
        return ok;
    }
    return -1;
}

/* The documents matching `query`, _source cut to its "_source" list. */
static json_t *
search(const struct server *sv, const json_t *query, const char **why)
{
    const json_t *must = json_object_get(json_object_get(json_object_get(
        json_object_get(json_object_get(query, "query"), "constant_score"),
        "filter"), "bool"), "must");
    const json_t *keep = json_object_get(query, "_source"), *hit, *clause;
    json_t *out = json_array();
    size_t i, k;

    *why = NULL;
    if (must != NULL && !json_is_array(must)) {
        *why = "must is not a list";
        return out;
    }
    json_array_foreach(sv->c->hits, i, hit) {
        const json_t *src = json_object_get(hit, "_source");
        int ok = 1;

        json_array_foreach(must, k, clause) {
            const char *kind, *field;
            json_t *body, *arg;

            json_object_foreach((json_t *)clause, kind, body)
                json_object_foreach(body, field, arg) {
                    int p = passes(src, kind, field, arg);

                    if (p < 0) {
                        *why = "unsupported clause";
                        return out;
                    }
                    ok &= p;
                }
        }
        if (!ok)
            continue;
        json_t *copy = json_deep_copy(hit);
        if (json_is_array(keep)) {
            json_t *cut = json_object(), *v;
            const char *key;

            json_object_foreach(json_object_get(copy, "_source"), key, v) {
                size_t j;
                const json_t *name;

                json_array_foreach(keep, j, name)
                    if (strcmp(json_string_value(name), key) == 0)
                        json_object_set(cut, key, v);
            }
            json_object_set_new(copy, "_source", cut);
        }
        json_array_append_new(out, copy);
    }
    return out;
}

/* The next page of context `x`. */
static void
answer_page(struct server *sv, int fd, struct context *x, size_t size)
{
    size_t n = sv->c->page_hits ? sv->c->page_hits : size;
    json_t *page = json_array();

    for (size_t i = 0; i < n && x->pos < json_array_size(x->hits); i++)
        json_array_append(page, json_array_get(x->hits, x->pos++));
    respond_json(fd, 200, "OK",
                 json_pack("{s:s,s:i,s:b,s:{s:i,s:f,s:o}}", "_scroll_id",
                           x->id, "took", 3, "timed_out", 0, "hits", "total",
                           (int)json_array_size(x->hits), "max_score", 1.0,
                           "hits", page));
}

static struct context *
find_context(struct server *sv, const char *id)
{
    for (size_t i = 0; id && i < MAX_CONTEXTS; i++)
        if (sv->ctx[i].live && strcmp(sv->ctx[i].id, id) == 0)
            return &sv->ctx[i];
    return NULL;
}

static void
free_context(struct context *x)
{
    json_decref(x->hits);
    memset(x, 0, sizeof(*x));
}

/* A fault due at this answer: 1 when it was given instead of one. */
static int
fault(struct server *sv, int fd, size_t answer, struct context *x)
{
    const struct http_server_config *c = sv->c;
    static const char half[] = "{\"_scroll_id\": \"x\", \"hits\": {\"hits\": "
                               "[{\"_source\": {\"plugin\": \"di";

    if (c->fault == HTTP_FAULT_NONE || answer != c->fault_at)
        return 0;
    switch (c->fault) {
    case HTTP_FAULT_DROP: {
        char head[256];
        snprintf(head, sizeof(head), "HTTP/1.1 200 OK\r\nContent-Type: "
                 "application/json\r\nContent-Length: 100000\r\n\r\n");
        send_all(fd, head, strlen(head));
        send_all(fd, half, sizeof(half) - 1);
        return 2;               /* close the connection */
    }
    case HTTP_FAULT_STATUS:
        if (c->status == 429)
            es_error(fd, 429, "Too Many Requests",
                     "es_rejected_execution_exception",
                     "rejected execution: queue capacity 1000 reached");
        else if (c->status == 404)
            es_error(fd, 404, "Not Found", "index_not_found_exception",
                     "no such index [cori-collectd-*]");
        else
            es_error(fd, c->status, "Internal Server Error",
                     "null_pointer_exception", "something broke");
        return 1;
    case HTTP_FAULT_MALFORMED:
        respond(fd, 200, "OK", half, NULL);
        return 1;
    case HTTP_FAULT_SLOW:
        sleep((unsigned)c->slow_seconds);
        return 0;               /* then answer, to a client long gone */
    case HTTP_FAULT_EXPIRE:
        if (x != NULL) {
            char why[160];
            snprintf(why, sizeof(why), "No search context found for id "
                     "[%u]", sv->serial);
            free_context(x);
            es_error(fd, 404, "Not Found",
                     "search_context_missing_exception", why);
            return 1;
        }
        return 0;
    default:
        return 0;
    }
}

static int
serve_es(struct server *sv, int fd, const char *method, const char *target,
         const char *body)
{
    json_t *req = json_loads(body, 0, NULL);
    const char *q = strchr(target, '?');
    int rc = 0;

    if (strcmp(method, "DELETE") == 0 &&
        strncmp(target, "/_search/scroll", 15) == 0) {
        const json_t *ids = json_object_get(req, "scroll_id"), *id;
        size_t i;
        int freed = 0;

        json_array_foreach(ids, i, id) {
            struct context *x = find_context(sv, json_string_value(id));
            if (x != NULL) {
                free_context(x);
                freed++;
            }
        }
        fprintf(sv->log, "freed=%d\n", freed);
        respond_json(fd, freed ? 200 : 404, freed ? "OK" : "Not Found",
                     json_pack("{s:b,s:i}", "succeeded", 1, "num_freed",
                               freed));
    } else if (strcmp(method, "POST") == 0 &&
               strncmp(target, "/_search/scroll", 15) == 0) {
        struct context *x = find_context(
            sv, json_string_value(json_object_get(req, "scroll_id")));

        if (x == NULL) {
            es_error(fd, 404, "Not Found", "search_context_missing_exception",
                     "No search context found for id [0]");
        } else if ((rc = fault(sv, fd, x->answers, x)) == 0) {
            x->answers++;
            answer_page(sv, fd, x, 10000);
        }
    } else if (strcmp(method, "POST") == 0 && q != NULL &&
               strstr(target, "/_search?") != NULL &&
               strstr(q, "scroll=") != NULL) {
        const char *why;
        const char *size = strstr(q, "size=");
        struct context *x;

        if (req == NULL) {
            es_error(fd, 400, "Bad Request", "parse_exception",
                     "request body is required");
        } else if ((rc = fault(sv, fd, 0, NULL)) == 0) {
            /* a client that never freed its context (a test stopping a
             * scroll midway on purpose) loses its oldest one */
            x = &sv->ctx[sv->serial % MAX_CONTEXTS];
            free_context(x);
            x->live = 1;
            x->answers = 1;
            snprintf(x->id, sizeof(x->id), "DXF1ZXJ5QW5kRmV0Y2gBAAAAAAAAA"
                     "%uWZ0VWdzWGZ4UnRTcE5qNzF6Qkt2MkEtZw==", ++sv->serial);
            x->hits = search(sv, req, &why);
            if (why != NULL) {
                free_context(x);
                es_error(fd, 400, "Bad Request", "parsing_exception", why);
            } else {
                answer_page(sv, fd, x, size ? strtoul(size + 5, NULL, 10)
                                            : 10);
            }
        }
    } else {
        es_error(fd, 404, "Not Found", "resource_not_found_exception",
                 "no handler found for uri and method");
    }
    json_decref(req);
    return rc;
}

/* ---- ESnet SNMP --------------------------------------------------------- */

static long
query_value(const char *q, const char *key)
{
    char pat[64];
    const char *p;

    snprintf(pat, sizeof(pat), "%s=", key);
    for (p = q; p && (p = strstr(p, pat)) != NULL; p++)
        if (p[-1] == '?' || p[-1] == '&')
            return strtol(p + strlen(pat), NULL, 10);
    return -1;
}

static int
serve_esnet(struct server *sv, int fd, const char *method, const char *target)
{
    char endpoint[256] = "", iface[256] = "", dir[16] = "";
    const char *at = strstr(target, "/interface/"), *q = strchr(target, '?');
    const char *p;
    int rc;

    if ((rc = fault(sv, fd, sv->answers++, NULL)) != 0)
        return rc;
    if (strcmp(method, "GET") != 0 || at == NULL || q == NULL) {
        respond(fd, 404, "Not Found", "{\"error\": \"no such resource\"}",
                NULL);
        return 0;
    }
    for (p = at; p > target && p[-1] != '/'; p--)
        ;
    snprintf(endpoint, sizeof(endpoint), "%.*s", (int)(at - p), p);
    sscanf(at + 11, "%255[^/]/%15[^?]", iface, dir);
    const json_t *series = json_object_get(json_object_get(json_object_get(
        sv->c->esnet, endpoint), iface), dir);
    long begin = query_value(q, "begin"), end = query_value(q, "end");
    if (!json_is_object(series) || begin < 0 || end < 0) {
        respond(fd, 404, "Not Found", "{\"error\": \"no such interface\"}",
                NULL);
        return 0;
    }
    json_t *data = json_array();
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)series, key, v) {
        long t = strtol(key, NULL, 10);
        if (t >= begin && t <= end)
            json_array_append_new(data, json_pack("[iO]", (json_int_t)t, v));
    }
    respond_json(fd, 200, "OK",
                 json_pack("{s:s,s:i,s:i,s:s,s:o}", "agg", "30", "begin_time",
                           (json_int_t)begin, "end_time", (json_int_t)end,
                           "cf", "average", "data", data));
    return 0;
}

/* ---- the child ---------------------------------------------------------- */

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void
basic_auth(char *out, size_t size, const char *user, const char *password)
{
    char plain[256];
    size_t n = (size_t)snprintf(plain, sizeof(plain), "%s:%s", user,
                                password), o = 0;

    o += (size_t)snprintf(out, size, "Basic ");
    for (size_t i = 0; i < n && o + 5 < size; i += 3) {
        unsigned v = (unsigned char)plain[i] << 16;
        if (i + 1 < n)
            v |= (unsigned char)plain[i + 1] << 8;
        if (i + 2 < n)
            v |= (unsigned char)plain[i + 2];
        out[o++] = b64[(v >> 18) & 63];
        out[o++] = b64[(v >> 12) & 63];
        out[o++] = i + 1 < n ? b64[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? b64[v & 63] : '=';
    }
    out[o] = '\0';
}

static void
serve(int lfd, const struct http_server_config *c, const char *log)
{
    struct server sv;

    memset(&sv, 0, sizeof(sv));
    sv.c = c;
    if ((sv.log = fopen(log, "w")) == NULL)
        _exit(3);
    setvbuf(sv.log, NULL, _IOLBF, 0);
    if (c->user != NULL)
        basic_auth(sv.auth, sizeof(sv.auth), c->user, c->password);
    for (;;) {
        int fd = accept(lfd, NULL, NULL);

        if (fd < 0)
            continue;
        for (;;) {
            char method[16], target[4096], auth[512], *body;
            int rc;

            if (read_request(fd, method, sizeof(method), target,
                             sizeof(target), auth, sizeof(auth), &body) < 0)
                break;
            fprintf(sv.log, "%s %s\n", method, target);
            if (c->user != NULL && strcmp(auth, sv.auth) != 0) {
                respond(fd, 401, "Unauthorized", "{\"error\": {\"type\": "
                        "\"security_exception\", \"reason\": \"missing "
                        "authentication credentials\"}, \"status\": 401}",
                        "WWW-Authenticate: Basic realm=\"test\"\r\n");
                rc = 0;
            } else if (c->esnet != NULL) {
                rc = serve_esnet(&sv, fd, method, target);
            } else {
                rc = serve_es(&sv, fd, method, target, body);
            }
            free(body);
            if (rc == 2)
                break;
        }
        close(fd);
    }
}

void
http_server_start(struct http_server *s, const struct http_server_config *c)
{
    struct sockaddr_in a;
    socklen_t len = sizeof(a);
    int lfd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

    memset(s, 0, sizeof(*s));
    assert_true(lfd >= 0);
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(lfd, (struct sockaddr *)&a, sizeof(a)), 0);
    assert_int_equal(listen(lfd, 16), 0);
    assert_int_equal(getsockname(lfd, (struct sockaddr *)&a, &len), 0);
    s->port = ntohs(a.sin_port);
    snprintf(s->url, sizeof(s->url), "http://127.0.0.1:%d", s->port);
    s->dir = tokio_test_mkdtemp();
    snprintf(s->log, sizeof(s->log), "%s/requests.log", s->dir);
    fflush(NULL);
    s->pid = fork();
    assert_true(s->pid >= 0);
    if (s->pid == 0) {
        /* die with the test, even one a failed assertion ended before
         * it stopped the server; hold none of its output pipes, which
         * ctest waits on */
        int null = open("/dev/null", O_RDWR);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == 1)
            _exit(0);
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        alarm(300);             /* never outlive a stuck test for long */
        signal(SIGPIPE, SIG_IGN);
        serve(lfd, c, s->log);
        _exit(0);
    }
    close(lfd);
    /* the log exists once the child runs: wait for it (bounded) */
    for (int i = 0; i < 500 && access(s->log, F_OK) != 0; i++)
        usleep(2000);
}

void
http_server_stop(struct http_server *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGKILL);
        waitpid(s->pid, NULL, 0);
        s->pid = 0;
    }
    if (s->dir != NULL) {
        tokio_test_rmtree(s->dir);
        free(s->dir);
        s->dir = NULL;
    }
}

char *
http_server_log(const struct http_server *s)
{
    char *text = tokio_test_read_file(s->log, NULL);

    assert_non_null(text);
    return text;
}

int
http_server_free_port(void)
{
    struct sockaddr_in a;
    socklen_t len = sizeof(a);
    int fd = socket(AF_INET, SOCK_STREAM, 0), port;

    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    port = ntohs(a.sin_port);
    close(fd);
    return port;
}

json_t *
http_server_json_file(const char *path)
{
    unsigned char *text;
    size_t len;
    json_t *j;

    if (tokio_read_file(path, 0, &text, &len) != TOKIO_OK)
        fail_msg("%s", tokio_errmsg());
    j = json_loadb((const char *)text, len, 0, NULL);
    free(text);
    assert_non_null(j);
    return j;
}

json_t *
http_server_hits_of(const char *rel)
{
    const char *path = tokio_test_data(rel);
    json_t *pages, *all, *page;
    size_t i;

    if (path == NULL) {
        print_message("skipped: ../shared/testdata/%s is absent\n", rel);
        skip();
    }
    pages = http_server_json_file(path);
    all = json_array();
    json_array_foreach(pages, i, page)
        json_array_extend(all, page);
    json_decref(pages);
    return all;
}

json_t *
http_server_esnet_rates(const char *inputs)
{
    char path[4200];

    snprintf(path, sizeof(path), "%s/esnet_snmp.json.gz", inputs);
    return http_server_json_file(path);
}

void
http_server_esnet_env(struct http_esnet_env *e, const struct http_server *s,
                      const char *path)
{
    snprintf(e->uri, sizeof(e->uri), "PYTOKIO_ESNET_SNMP_URI=%s%s", s->url,
             path);
    e->env[0] = "TZ=America/Los_Angeles";
    e->env[1] = "PYTOKIO_CONFIG=inputs/site.json";
    e->env[2] = e->uri;
    e->env[3] = NULL;
}
