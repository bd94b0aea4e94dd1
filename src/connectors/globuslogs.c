/*
 * src/connectors/globuslogs.c - Globus GridFTP server transfer logs: one
 * transfer per line, KEY=VALUE pairs separated by white space.  Mirrors
 * tokio.connectors.globuslogs.GlobusLog (pytokio 0.13): parsing as its
 * load_str(), the JSON form as json.dumps() of it, the CSV as pandas'
 * DataFrame(records).to_csv().  The records are its list of dicts as a
 * jansson list of objects, keys in line order.  Tests: tests/connectors/
 * globuslogs/, pytokio-inputs/globuslogs.txt.gz and its golden.
 *
 * Differs from pytokio, on input the server does not write: text without
 * '=', a bad date or integer, invalid UTF-8 or a NUL byte are
 * TOKIO_EFORMAT naming the file and line; blank lines are skipped (the
 * reference raised); dates need all 14 digits and 1-6 fraction digits;
 * integers must fit int64; lines end at "\n" (and "\r\n") only and only
 * ASCII white space separates (Python's \s and splitlines() know more);
 * text whose first non-blank character is '[' or '{' is the JSON form.
 */
#define _GNU_SOURCE     /* memmem() */
#include "tokio/connectors/globuslogs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/output.h"
#include "tokio/time.h"
#include "connectors/registry.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/text.h"

struct tokio_globuslogs {
    json_t *recs;       /* list of records (objects), input order */
};

/* The reference's RECAST_KEYS, in its order: DATE and START to epoch
 * seconds (local time, "%Y%m%d%H%M%S.%f"), sizes to integers, DEST to a
 * list. */
enum recast { AS_TIME, AS_INT, AS_LIST };
static const struct { const char *key; enum recast as; } recast_keys[] = {
    { "DATE", AS_TIME }, { "START", AS_TIME }, { "BUFFER", AS_INT },
    { "BLOCK", AS_INT }, { "NBYTES", AS_INT }, { "STREAMS", AS_INT },
    { "STRIPES", AS_INT }, { "DEST", AS_LIST },
};

/* The end of the run of capital letters from s[i]. */
static size_t
upper_run(const char *s, size_t i, size_t len)
{
    while (i < len && s[i] >= 'A' && s[i] <= 'Z')
        i++;
    return i;
}

/* "YYYYmmddHHMMSS.ffffff" (1-6 fraction digits) as epoch seconds of
 * local time; 0 when it is not one. */
static int
parse_time(const char *s, size_t len, double *out)
{
    char date[15];
    int64_t epoch;
    double frac;

    if (len < 16 || len > 21 || s[14] != '.' || memcmp(s, "0000", 4) == 0)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (i != 14 && (s[i] < '0' || s[i] > '9'))
            return 0;
    snprintf(date, sizeof(date), "%.14s", s);
    if (tokio_time_parse_format(date, "%Y%m%d%H%M%S", &epoch) < 0 ||
        !tokio__py_float(s + 14, len - 14, &frac))
        return 0;
    *out = (double)epoch + frac;
    return 1;
}

/* DEST as the reference listed it: "[a, b]" without its leading '['s
 * and trailing ']'s, split at ',', each item stripped; anything else a
 * one-item list.  NULL when out of memory. */
static json_t *
listify(const char *s, size_t len)
{
    json_t *list = json_array();
    int bracket = len > 0 && s[0] == '[';
    const char *end = s + len;

    while (bracket && s < end && *s == '[')
        s++;
    while (bracket && end > s && end[-1] == ']')
        end--;
    for (;;) {
        const char *comma = bracket ? memchr(s, ',', (size_t)(end - s))
                                    : NULL;
        const char *b = s, *e = comma ? comma : end;
        while (bracket && b < e && tokio__py_space((unsigned char)*b))
            b++;
        while (bracket && e > b && tokio__py_space((unsigned char)e[-1]))
            e--;
        /* cut at ASCII bytes: still UTF-8 */
        if (json_array_append_new(list, json_stringn_nocheck(
                b, (size_t)(e - b))) < 0) {
            json_decref(list);
            return NULL;
        }
        if (comma == NULL)
            return list;
        s = comma + 1;
    }
}

/* The record's values of RECAST_KEYS recast, in the reference's order. */
static int
recast(json_t *rec, const char *name, size_t lineno)
{
    for (size_t k = 0; k < sizeof(recast_keys) / sizeof(recast_keys[0]);
         k++) {
        const char *key = recast_keys[k].key;
        const json_t *v = json_object_get(rec, key);
        const char *s = json_string_value(v);
        size_t len = json_string_length(v);
        enum recast as = recast_keys[k].as;
        int64_t i = 0;
        double d = 0;

        if (v == NULL)
            continue;
        if ((as == AS_TIME && !parse_time(s, len, &d)) ||
            (as == AS_INT && !tokio__py_int(s, len, &i)))
            return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s is not %s: "
                                "'%.*s'", name, lineno, key, as == AS_TIME
                                ? "a date YYYYmmddHHMMSS.ffffff"
                                : "an integer", (int)(len > 60 ? 60 : len), s);
        if (json_object_set_new_nocheck(rec, key, as == AS_TIME ? json_real(d)
                                        : as == AS_INT ? json_integer(i)
                                        : listify(s, len)) < 0)
            return tokio__error(TOKIO_ENOMEM, "out of memory");
    }
    return TOKIO_OK;
}

/*
 * One line (UTF-8 without NUL) as a record appended to `recs`.  The
 * reference peeled pairs with ^([A-Z]+)=(.*?)\s+([A-Z]+=.*)$, and where
 * that did not match split the rest at its first '=' as the last pair
 * (so "NL.EVNT=FTP_INFO" stays inside PROG's value, as the golden
 * shows); a repeated key keeps its first place and takes the last value,
 * as in a dict.  Then it recast some values.
 */
static int
parse_line(json_t *recs, const char *s, size_t len, const char *name,
           size_t lineno)
{
    json_t *rec = json_object();
    size_t pos = 0;

    if (json_array_append_new(recs, rec) < 0)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    while (pos < len) {
        size_t key_end = upper_run(s, pos, len), next = len, end = len;

        if (key_end > pos && key_end < len && s[key_end] == '=') {
            /* the value ends at the first white space run followed by
             * [A-Z]+'=', else at the end of the line */
            for (size_t q = key_end + 2; q < len && next == len; q++) {
                size_t w = tokio__py_space((unsigned char)s[q - 1])
                           ? upper_run(s, q, len) : q;
                if (w > q && w < len && s[w] == '=')
                    next = q;
            }
            end = next;
            while (end < len && tokio__py_space((unsigned char)s[end - 1]))
                end--;
        } else {
            /* no [A-Z]+ key: the rest split at its first '=' */
            const char *eq = memchr(s + pos, '=', len - pos);
            if (eq == NULL)
                return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: '%.*s' is "
                                    "not KEY=VALUE", name, lineno,
                                    (int)(len - pos > 60 ? 60 : len - pos),
                                    s + pos);
            key_end = (size_t)(eq - s);
        }
        if (json_object_setn_new_nocheck(rec, s + pos, key_end - pos,
                json_stringn_nocheck(s + key_end + 1, end - key_end - 1)) < 0)
            return tokio__error(TOKIO_ENOMEM, "out of memory");
        pos = next;
    }
    return recast(rec, name, lineno);
}

static int
add_text(void *h, const char *text, size_t len, const char *name)
{
    struct tokio_globuslogs *g = h;
    const char *p = text, *end = text + len;
    int rc = TOKIO_OK;

    for (size_t lineno = 1; rc == TOKIO_OK && p < end; lineno++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p), i = 0;

        if (n > 0 && p[n - 1] == '\r')
            n--;
        while (i < n && tokio__py_space((unsigned char)p[i]))
            i++;
        if (i < n && !tokio__text_valid(p, n))
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s", name,
                              lineno, memchr(p, '\0', n) ? "NUL byte"
                                                         : "invalid UTF-8");
        else if (i < n)
            rc = parse_line(g->recs, p, n, name, lineno);
        p = nl ? nl + 1 : end;
    }
    return rc;
}

/* The JSON form: records whose values are what a line's may become. */
static int
add_json(void *h, const json_t *json)
{
    struct tokio_globuslogs *g = h;
    size_t i, j;
    const json_t *rec, *v, *item;
    const char *key;

    if (!json_is_array(json))
        return tokio__error(TOKIO_EFORMAT, "Globus log JSON is not a list");
    json_array_foreach(json, i, rec) {
        if (!json_is_object(rec))
            return tokio__error(TOKIO_EFORMAT, "Globus log record %zu is not "
                                "an object", i);
        json_object_foreach((json_t *)rec, key, v) {
            int ok = json_is_string(v) || json_is_number(v) ||
                     json_is_array(v);
            json_array_foreach(v, j, item)
                ok &= json_is_string(item);
            if (!ok)
                return tokio__error(TOKIO_EFORMAT, "Globus log record %zu: "
                                    "'%s' is not a string, number or list "
                                    "of strings", i, key);
        }
    }
    json_decref(g->recs);       /* fed once: was empty */
    if ((g->recs = json_deep_copy(json)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    return TOKIO_OK;
}

static int
new_logs(void **out)
{
    struct tokio_globuslogs *g = tokio__calloc(1, sizeof(*g));

    if (g == NULL || (g->recs = json_array()) == NULL) {
        free(g);
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    }
    *out = g;
    return TOKIO_OK;
}

TOKIO__CONNECTOR_OPEN_FUNCTIONS(globuslogs)

size_t
tokio_globuslogs_count(const struct tokio_globuslogs *g)
{
    return json_array_size(g->recs);
}

int
tokio_globuslogs_to_json(const struct tokio_globuslogs *g, json_t **out)
{
    *out = json_incref(g->recs);
    return TOKIO_OK;
}

/* Python's repr() of a str, as pandas prints a list's items. */
static void
write_repr(FILE *fp, const char *s, size_t len)
{
    char q = memchr(s, '\'', len) && !memchr(s, '"', len) ? '"' : '\'';

    fputc(q, fp);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\' || c == (unsigned char)q)
            fprintf(fp, "\\%c", c);
        else if (c == '\t' || c == '\n' || c == '\r')
            fprintf(fp, "\\%c", c == '\t' ? 't' : c == '\n' ? 'n' : 'r');
        else if (c < 0x20 || c == 0x7f)
            fprintf(fp, "\\x%02x", c);
        else
            fputc(c, fp);
    }
    fputc(q, fp);
}

/* A cell as pandas prints it: a number of a float64 column (`as_float`)
 * as a float, a list as its str() in one field. */
static int
write_cell(FILE *fp, const json_t *v, int as_float)
{
    char buf[40], *text = NULL;
    size_t len = 0, i;
    const json_t *item;
    FILE *mem;

    if (json_is_integer(v) && !as_float) {
        fprintf(fp, "%" PRId64, (int64_t)json_integer_value(v));
    } else if (json_is_number(v)) {
        tokio_format_double(buf, sizeof(buf), json_number_value(v));
        fputs(buf, fp);
    } else if (json_is_string(v)) {
        tokio_csv_write_field(fp, json_string_value(v), json_string_length(v));
    } else if (v != NULL) {
        if ((mem = open_memstream(&text, &len)) == NULL)
            return tokio__error(TOKIO_ENOMEM, "out of memory");
        json_array_foreach(v, i, item) {
            fputs(i > 0 ? ", " : "[", mem);
            write_repr(mem, json_string_value(item), json_string_length(item));
        }
        fputs(json_array_size(v) > 0 ? "]" : "[]", mem);
        if (fclose(mem) != 0) {
            free(text);
            return tokio__error(TOKIO_ENOMEM, "out of memory");
        }
        tokio_csv_write_field(fp, text, len);
        free(text);
    }
    return TOKIO_OK;
}

int
tokio_globuslogs_write_csv(const struct tokio_globuslogs *g, FILE *fp)
{
    json_t *columns = json_object(), *rec, *v;  /* keys, first seen first */
    const char *key;
    size_t r;
    int rc = TOKIO_OK;

    json_array_foreach(g->recs, r, rec)
        if (json_object_update_missing(columns, rec) < 0) {
            json_decref(columns);
            return tokio__error(TOKIO_ENOMEM, "out of memory");
        }
    /* each column's value: true when pandas makes it float64 */
    for (void *it = json_object_iter(columns); it != NULL;
         it = json_object_iter_next(columns, it)) {
        int numeric = 1, real = 0, missing = 0;
        key = json_object_iter_key(it);
        json_array_foreach(g->recs, r, rec) {
            const json_t *cell = json_object_get(rec, key);
            missing |= cell == NULL;
            real |= json_is_real(cell);
            numeric &= cell == NULL || json_is_number(cell);
        }
        json_object_iter_set_new(columns, it,
                                 json_boolean(numeric && (real || missing)));
        fputc(',', fp);
        tokio_csv_write_field(fp, key, strlen(key));
    }
    fputc('\n', fp);
    json_array_foreach(g->recs, r, rec) {
        fprintf(fp, "%zu", r);
        json_object_foreach(columns, key, v) {
            fputc(',', fp);
            if (rc == TOKIO_OK)
                rc = write_cell(fp, json_object_get(rec, key), json_is_true(v));
        }
        fputc('\n', fp);
    }
    json_decref(columns);
    return rc < 0 ? rc : tokio__write_check(fp, "cannot write Globus CSV");
}

void
tokio_globuslogs_free(struct tokio_globuslogs *g)
{
    if (g != NULL)
        json_decref(g->recs);
    free(g);
}

/* ---- the connector interface (src/core/connector.h) -------------------- */

/* The server writes a DATE= on every transfer line; a log of other
 * records starts as one does, KEY=, after any blank lines. */
static int
bid(const char *head, size_t n)
{
    size_t i = 0, key_end;

    if (memmem(head, n, "DATE=", 5) != NULL)
        return 70;
    while (i < n && tokio__py_space((unsigned char)head[i]))
        i++;
    key_end = upper_run(head, i, n);
    return key_end > i && key_end < n && head[key_end] == '=' ? 70 : 0;
}

static int
to_json(const void *h, json_t **o) { return tokio_globuslogs_to_json(h, o); }

static int
write_csv(const void *h, FILE *fp) { return tokio_globuslogs_write_csv(h, fp); }

static void
free_logs(void *h) { tokio_globuslogs_free(h); }

const struct tokio__connector tokio__globuslogs_connector = {
    .name = "globuslogs",
    .what = "a Globus GridFTP transfer log (DATE=... records) or its JSON "
            "form",
    .bid = bid,
    .new = new_logs,
    .add_text = add_text,
    .add_json = add_json,
    .to_json = to_json,
    .write_csv = write_csv,
    .free = free_logs,
};
