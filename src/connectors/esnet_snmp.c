/*
 * src/connectors/esnet_snmp.c - ESnet's SNMP REST API and the reference's
 * cache of its answers; mirrors tokio.connectors.esnet_snmp.EsnetSnmp
 * (pytokio 0.13): get_interface_counters(), load_json()/save_cache(),
 * to_dataframe().  The counters are one jansson object in the
 * reference's layout, keys in the order they came.
 *
 * Differs from pytokio: the request carries the calc_func and calc the
 * caller asks for (the reference built them, then passed None for both);
 * $PYTOKIO_ESNET_SNMP_URI is honoured (the reference stored it under a
 * key its connector never read); a cache or answer of another shape is
 * an error naming the field (the reference raised TypeError, or kept
 * it); an answer without "data" is one (a TypeError there).
 * Tests: tests/connectors/test_esnet_snmp.c (against tests/http_server.c),
 * goldens in ../shared/testdata/golden/pytokio/cache_esnet_snmp/ and
 * esnet_snmp/.
 */
#include "tokio/connectors/esnet_snmp.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/config.h"
#include "tokio/input.h"
#include "tokio/output.h"
#include "tokio/time.h"
#include "connectors/http.h"
#include "core/alloc.h"
#include "core/connector.h"
#include "core/error.h"
#include "core/json.h"
#include "core/text.h"

#define UNITS "bytes/sec"

struct tokio_esnet_snmp {
    json_t *data;           /* {endpoint: {interface: {dir: {...}}}} */
    int64_t start, end;
    int64_t timestep;
    struct tokio__http *http;
};

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading ESnet SNMP "
                        "counters");
}

int
tokio_esnet_snmp_url(const struct tokio_config *cfg, const char **url_out)
{
    const char *url = json_string_value(tokio_config_get(cfg,
                                                         "esnet_snmp_uri"));

    if (url == NULL)
        url = json_string_value(tokio_config_get(cfg, "esnet_snmp_url"));
    *url_out = url;
    if (url == NULL || *url == '\0')
        return tokio__error(TOKIO_ENOTFOUND, "no esnet_snmp_url in the site "
                            "configuration, nor PYTOKIO_ESNET_SNMP_URI");
    return TOKIO_OK;
}

/* Append `interface` to out[endpoint]. */
static int
add_interface(json_t *out, const char *endpoint, size_t elen,
              const char *interface)
{
    char *ep = tokio__strndup(endpoint, elen);
    json_t *list;
    int rc = TOKIO_OK;

    if (ep == NULL)
        return oom();
    if ((list = json_object_get(out, ep)) == NULL &&
        json_object_set_new(out, ep, list = json_array()) < 0)
        rc = oom();
    else if (json_array_append_new(list, json_string(interface)) < 0)
        rc = oom();
    free(ep);
    return rc;
}

/* "Invalid endpoint specification", with the names there are. */
static int
invalid_spec(const json_t *configured, const char *spec)
{
    char names[512] = "";
    size_t n = 0;
    const char *key;
    json_t *v;

    json_object_foreach((json_t *)configured, key, v)
        n += (size_t)snprintf(names + (n < sizeof(names) ? n : sizeof(names)),
                              n < sizeof(names) ? sizeof(names) - n : 0,
                              "%s%s", n ? ", " : "", key);
    return tokio__error(TOKIO_EINVAL, "invalid endpoint specification '%s': "
                        "give one of the site's esnet_snmp_interfaces (%s) "
                        "or endpoint:interface[,endpoint:interface]...",
                        spec, n ? names : "none configured");
}

int
tokio_esnet_snmp_interfaces(const struct tokio_config *cfg, const char *spec,
                            json_t **out)
{
    const json_t *configured = tokio_config_get(cfg, "esnet_snmp_interfaces");
    json_t *o = json_object();
    int rc = TOKIO_OK;

    *out = NULL;
    if (o == NULL)
        return oom();
    if (strchr(spec, ':') == NULL) {
        const json_t *site = json_object_get(configured, spec), *list;
        const char *endpoint;

        json_object_foreach((json_t *)site, endpoint, list) {
            size_t i;
            const json_t *iface;

            if (!json_is_array(list))
                rc = tokio__error(TOKIO_EINVAL, "site configuration "
                                  "esnet_snmp_interfaces '%s' '%s': not a "
                                  "list of interfaces", spec, endpoint);
            json_array_foreach(list, i, iface) {
                if (rc < 0)
                    break;
                if (!json_is_string(iface))
                    rc = tokio__error(TOKIO_EINVAL, "site configuration "
                                      "esnet_snmp_interfaces '%s' '%s': "
                                      "interface %zu is not a string", spec,
                                      endpoint, i);
                else
                    rc = add_interface(o, endpoint, strlen(endpoint),
                                       json_string_value(iface));
            }
            if (rc < 0)
                break;
        }
    } else {
        for (const char *p = spec; rc >= 0 && p != NULL;) {
            const char *comma = strchr(p, ','), *colon = strchr(p, ':');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            char *iface;

            if (colon == NULL || (comma != NULL && colon > comma)) {
                rc = tokio__error(TOKIO_EINVAL, "invalid endpoint "
                                  "specification '%s': '%.*s' is not "
                                  "endpoint:interface", spec, (int)len, p);
                break;
            }
            if ((iface = tokio__strndup(colon + 1, len - (size_t)(colon + 1 - p)))
                    == NULL) {
                rc = oom();
                break;
            }
            rc = add_interface(o, p, (size_t)(colon - p), iface);
            free(iface);
            p = comma ? comma + 1 : NULL;
        }
    }
    if (rc >= 0 && json_object_size(o) == 0)
        rc = invalid_spec(configured, spec);
    if (rc < 0) {
        json_decref(o);
        return rc;
    }
    *out = o;
    return TOKIO_OK;
}

int
tokio_esnet_snmp_new(struct tokio_esnet_snmp **out, int64_t start,
                     int64_t end)
{
    struct tokio_esnet_snmp *e;

    *out = NULL;
    if (start >= end)
        return tokio__error(TOKIO_EINVAL, "ESnet SNMP: the start must come "
                            "before the end");
    if ((e = tokio__calloc(1, sizeof(*e))) == NULL ||
        (e->data = json_object()) == NULL) {
        free(e);
        return oom();
    }
    e->start = start;
    e->end = end;
    *out = e;
    return TOKIO_OK;
}

/* A direction's rates with canonical integer keys (Python's int(key),
 * then str() when saved), or NULL with the error set. */
static json_t *
load_rates(const json_t *rates, const char *name, const char *endpoint,
           const char *interface, const char *dir)
{
    json_t *out = json_object(), *v;
    const char *key;

    if (out == NULL) {
        oom();
        return NULL;
    }
    json_object_foreach((json_t *)rates, key, v) {
        char canon[32];
        int64_t t;

        if (!tokio__py_int(key, strlen(key), &t)) {
            tokio__error(TOKIO_EFORMAT, "'%s' %s/%s/%s: '%s' is not a "
                         "timestamp", name, endpoint, interface, dir, key);
            break;
        }
        if (!json_is_number(v) && !json_is_null(v)) {
            tokio__error(TOKIO_EFORMAT, "'%s' %s/%s/%s/%s: the rate is not "
                         "a number", name, endpoint, interface, dir, key);
            break;
        }
        snprintf(canon, sizeof(canon), "%" PRId64, t);
        if (json_object_set(out, canon, v) < 0) {
            oom();
            break;
        }
    }
    if (key != NULL) {      /* stopped early */
        json_decref(out);
        return NULL;
    }
    return out;
}

int
tokio_esnet_snmp_from_json(struct tokio_esnet_snmp **out, const json_t *json,
                           const char *name, int64_t start, int64_t end)
{
    struct tokio_esnet_snmp *e;
    const char *endpoint, *interface, *dir;
    json_t *ifaces, *dirs, *v;
    int rc;

    if ((rc = tokio_esnet_snmp_new(out, start, end)) < 0)
        return rc;
    e = *out;
    if (!json_is_object(json))
        rc = tokio__error(TOKIO_EFORMAT, "'%s': not an object of ESnet "
                          "endpoints", name);
    json_object_foreach((json_t *)json, endpoint, ifaces) {
        json_t *e_out;

        if (rc < 0)
            break;
        if (json_object_set_new(e->data, endpoint, e_out = json_object()) < 0) {
            rc = oom();
            break;
        }
        if (!json_is_object(ifaces)) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s' %s: not an object of "
                              "interfaces", name, endpoint);
            break;
        }
        json_object_foreach(ifaces, interface, dirs) {
            json_t *i_out;

            if (json_object_set_new(e_out, interface,
                                    i_out = json_object()) < 0) {
                rc = oom();
                break;
            }
            if (!json_is_object(dirs)) {
                rc = tokio__error(TOKIO_EFORMAT, "'%s' %s/%s: not an object "
                                  "of directions", name, endpoint, interface);
                break;
            }
            json_object_foreach(dirs, dir, v) {
                json_t *kept = json_is_object(v)
                    ? load_rates(v, name, endpoint, interface, dir)
                    : json_incref(v);

                if (kept == NULL) {
                    rc = tokio_errcode();
                    break;
                }
                if (json_object_set_new(i_out, dir, kept) < 0) {
                    rc = oom();
                    break;
                }
            }
            if (rc < 0)
                break;
        }
    }
    if (rc < 0) {
        tokio_esnet_snmp_free(e);
        *out = NULL;
    }
    return rc;
}

int
tokio_esnet_snmp_open(struct tokio_esnet_snmp **out, const char *path,
                      int64_t start, int64_t end)
{
    json_t *json;
    int rc;

    *out = NULL;
    /* refused from its head when it is not JSON; within a budget */
    if ((rc = tokio__read_json_file(path, &json)) < 0)
        return rc;
    rc = tokio_esnet_snmp_from_json(out, json, path, start, end);
    json_decref(json);
    return rc;
}

int
tokio_esnet_snmp_connect(struct tokio_esnet_snmp *e, const char *url,
                         long timeout, volatile sig_atomic_t *stop)
{
    size_t len = strlen(url);

    if (timeout < 1 || timeout > 86400)
        return tokio__error(TOKIO_EINVAL, "timeout %ld s is not between 1 s "
                            "and a day", timeout);
    tokio__http_free(e->http);
    e->http = NULL;
    /* the base without a trailing slash: paths start with one */
    char *base = tokio__strndup(url, len && url[len - 1] == '/' ? len - 1
                                                                : len);
    if (base == NULL)
        return oom();
    int rc = tokio__http_new(&e->http, base, timeout, NULL, NULL, stop);
    free(base);
    return rc;
}

/* The answer's timestep, the reference's _get_interval_result(): "agg",
 * else "calc", as an integer (text or number); 0 when neither. */
static int
interval_of(const json_t *answer, const char *url, int64_t *out)
{
    const char *keys[] = { "agg", "calc" };

    *out = 0;
    for (size_t i = 0; i < 2; i++) {
        const json_t *v = json_object_get(answer, keys[i]);

        if (v == NULL || json_is_null(v) ||
            (json_is_string(v) && json_string_length(v) == 0))
            continue;
        if (json_is_integer(v))
            *out = json_integer_value(v);
        else if (!json_is_string(v) ||
                 !tokio__py_int(json_string_value(v), json_string_length(v),
                                out))
            return tokio__error(TOKIO_EFORMAT, "'%s': \"%s\" is not a number "
                                "of seconds", url, keys[i]);
        return TOKIO_OK;
    }
    return TOKIO_OK;
}

/* The reference's _insert_result(): the answer's data into
 * data[endpoint][interface][direction], units after. */
static int
insert(struct tokio_esnet_snmp *e, const json_t *answer, const char *url,
       const char *endpoint, const char *interface, const char *direction,
       size_t *n_out)
{
    const json_t *data = json_object_get(answer, "data"), *point;
    json_t *ep, *iface, *rates;
    int64_t step;
    size_t i;
    int rc;

    if (!json_is_object(answer))
        return tokio__error(TOKIO_EFORMAT, "'%s': not an object", url);
    if ((rc = interval_of(answer, url, &step)) < 0)
        return rc;
    if (e->timestep == 0)
        e->timestep = step;
    if (!json_is_array(data))
        return tokio__error(TOKIO_EFORMAT, "'%s': no \"data\" list", url);
    json_array_foreach(data, i, point) {
        const json_t *t = json_array_get(point, 0), *v = json_array_get(point, 1);

        if (json_array_size(point) != 2 || !json_is_integer(t) ||
            !(json_is_number(v) || json_is_null(v)))
            return tokio__error(TOKIO_EFORMAT, "'%s': data point %zu is not "
                                "[timestamp, number]", url, i);
    }
    if ((ep = json_object_get(e->data, endpoint)) == NULL &&
        json_object_set_new(e->data, endpoint, ep = json_object()) < 0)
        return oom();
    if ((iface = json_object_get(ep, interface)) == NULL &&
        json_object_set_new(ep, interface, iface = json_object()) < 0)
        return oom();
    if ((rates = json_object_get(iface, direction)) == NULL &&
        json_object_set_new(iface, direction, rates = json_object()) < 0)
        return oom();
    json_array_foreach(data, i, point) {
        char key[32];

        snprintf(key, sizeof(key), "%" PRId64,
                 (int64_t)json_integer_value(json_array_get(point, 0)));
        if (json_object_set(rates, key, json_array_get(point, 1)) < 0)
            return oom();
    }
    if (json_object_set_new(iface, "units", json_string(UNITS)) < 0)
        return oom();
    if (n_out != NULL)
        *n_out = json_array_size(data);
    return TOKIO_OK;
}

int
tokio_esnet_snmp_get(struct tokio_esnet_snmp *e, const char *endpoint,
                     const char *interface, const char *direction,
                     const char *agg_func, int64_t interval, size_t *n_out)
{
    char *ep = NULL, *ifc = NULL, *fn = NULL, *path = NULL, *text = NULL;
    char url[4096];
    json_t *answer = NULL;
    size_t len;
    long status;
    int rc;

    if (n_out != NULL)
        *n_out = 0;
    if (strcmp(direction, "in") != 0 && strcmp(direction, "out") != 0)
        return tokio__error(TOKIO_EINVAL, "direction must be either in or "
                            "out, not '%s'", direction);
    if (e->http == NULL)
        return tokio__error(TOKIO_EINVAL, "ESnet SNMP: not connected");
    ep = tokio__http_escape(e->http, endpoint);
    ifc = tokio__http_escape(e->http, interface);
    fn = agg_func ? tokio__http_escape(e->http, agg_func) : NULL;
    len = strlen(endpoint) * 3 + strlen(interface) * 3 +
          (agg_func ? strlen(agg_func) * 3 : 0) + 160;
    if (ep == NULL || ifc == NULL || (agg_func && fn == NULL) ||
        (path = tokio__malloc(len)) == NULL) {
        rc = oom();
        goto done;
    }
    int n = snprintf(path, len, "/%s/interface/%s/%s?begin=%" PRId64
                     "&end=%" PRId64, ep, ifc, direction, e->start, e->end);
    if (fn != NULL)
        n += snprintf(path + n, len - (size_t)n, "&calc_func=%s", fn);
    if (interval > 0)
        snprintf(path + n, len - (size_t)n, "&calc=%" PRId64, interval);
    snprintf(url, sizeof(url), "%s%s", tokio__http_base(e->http), path);
    if ((rc = tokio__http_request(e->http, "GET", path, NULL, &text, &len,
                                  &status)) < 0)
        goto done;
    if (status >= 400) {
        rc = tokio__error(TOKIO_EIO, "GET '%s': HTTP %ld%s%s", url, status,
                          tokio__http_reason(status)[0] ? " " : "",
                          tokio__http_reason(status));
        goto done;
    }
    if ((rc = tokio__json_parse_named(&answer, text, len, 0, url)) >= 0)
        rc = insert(e, answer, url, endpoint, interface, direction, n_out);
done:
    json_decref(answer);
    free(text);
    free(path);
    free(fn);
    free(ifc);
    free(ep);
    return rc;
}

int64_t
tokio_esnet_snmp_timestep(const struct tokio_esnet_snmp *e)
{
    return e->timestep;
}

const json_t *
tokio_esnet_snmp_rates(const struct tokio_esnet_snmp *e, const char *endpoint,
                       const char *interface, const char *direction)
{
    const json_t *r = json_object_get(json_object_get(json_object_get(
        e->data, endpoint), interface), direction);

    return json_is_object(r) ? r : NULL;
}

int
tokio_esnet_snmp_to_json(const struct tokio_esnet_snmp *e, json_t **out)
{
    *out = json_incref(e->data);
    return TOKIO_OK;
}

/* Calls visit() on every rate, in order; as to_dataframe() walks them. */
struct row {
    const char *endpoint, *interface, *direction, *key;
    const json_t *value;
};

static int
each_rate(const struct tokio_esnet_snmp *e,
          int (*visit)(const struct row *r, void *ctx), void *ctx)
{
    const char *endpoint, *interface, *dir, *key;
    json_t *ifaces, *dirs, *rates, *v;
    int rc;

    json_object_foreach(e->data, endpoint, ifaces)
        json_object_foreach(ifaces, interface, dirs)
            json_object_foreach(dirs, dir, rates) {
                if (!json_is_object(rates))
                    continue;
                json_object_foreach(rates, key, v) {
                    struct row r = { endpoint, interface, dir, key, v };
                    if ((rc = visit(&r, ctx)) < 0)
                        return rc;
                }
            }
    return TOKIO_OK;
}

/* What the rows hold: whether data_rate is real, all at local midnight. */
struct shape {
    size_t rows;
    int real, midnight;
};

static int
look(const struct row *r, void *ctx)
{
    struct shape *s = ctx;
    char hms[16];
    int64_t t = 0;

    tokio__py_int(r->key, strlen(r->key), &t);
    s->rows++;
    s->real |= !json_is_integer(r->value);
    if (tokio_time_format(hms, sizeof(hms), t, "%H:%M:%S") < 0 ||
        strcmp(hms, "00:00:00") != 0)
        s->midnight = 0;
    return TOKIO_OK;
}

struct writer {
    FILE *fp;
    const struct shape *s;
    int multiindex;
    size_t row;
};

static int
put_row(const struct row *r, void *ctx)
{
    struct writer *w = ctx;
    char when[64], rate[40] = "";
    int64_t t = 0;

    tokio__py_int(r->key, strlen(r->key), &t);
    if (tokio_time_format(when, sizeof(when), t, w->s->midnight
                          ? "%Y-%m-%d" : "%Y-%m-%d %H:%M:%S") < 0)
        return TOKIO_EINVAL;
    if (json_is_integer(r->value) && !w->s->real)
        snprintf(rate, sizeof(rate), "%" PRId64,
                 (int64_t)json_integer_value(r->value));
    else if (json_is_number(r->value))
        tokio_format_double(rate, sizeof(rate), json_number_value(r->value));
    if (w->multiindex)
        fprintf(w->fp, "%s,", when);
    else
        fprintf(w->fp, "%zu,", w->row++);
    tokio_csv_write_field(w->fp, r->endpoint, strlen(r->endpoint));
    putc(',', w->fp);
    tokio_csv_write_field(w->fp, r->interface, strlen(r->interface));
    putc(',', w->fp);
    tokio_csv_write_field(w->fp, r->direction, strlen(r->direction));
    if (w->multiindex)
        fprintf(w->fp, ",%s\n", rate);
    else
        fprintf(w->fp, ",%s,%s\n", when, rate);
    return TOKIO_OK;
}

int
tokio_esnet_snmp_write_csv(const struct tokio_esnet_snmp *e, FILE *fp,
                           int multiindex)
{
    struct shape s = { 0, 0, 1 };
    struct writer w = { fp, &s, multiindex, 0 };
    int rc;

    each_rate(e, look, &s);
    if (s.rows == 0)
        fputs("\"\"\n", fp);
    else if (multiindex)
        fputs("timestamp,endpoint,interface,direction,data_rate\n", fp);
    else
        fputs(",endpoint,interface,direction,timestamp,data_rate\n", fp);
    if ((rc = each_rate(e, put_row, &w)) < 0)
        return tokio__error(rc, "ESnet SNMP: a timestamp out of range");
    return tokio__write_check(fp, "cannot write ESnet SNMP CSV");
}

void
tokio_esnet_snmp_free(struct tokio_esnet_snmp *e)
{
    if (e == NULL)
        return;
    json_decref(e->data);
    tokio__http_free(e->http);
    free(e);
}
