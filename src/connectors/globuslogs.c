/*
 * src/connectors/globuslogs.c - Globus GridFTP server transfer logs: one
 * transfer per line, KEY=VALUE pairs separated by white space.  Mirrors
 * tokio.connectors.globuslogs.GlobusLog (pytokio 0.13): parsing as its
 * load_str(), the JSON form as json.dumps() of it, the CSV as pandas'
 * DataFrame(records).to_csv().
 *
 * The reference peels pairs with ^([A-Z]+)=(.*?)\s+([A-Z]+=.*)$: a value
 * ends at the first white space run followed by capital letters and '=';
 * where that does not match, the rest of the line, split at its first
 * '=', is the last pair (so "NL.EVNT=FTP_INFO" stays inside PROG's value,
 * as the golden shows).  Then DATE and START become epoch seconds (local
 * time, "%Y%m%d%H%M%S.%f"), BUFFER, BLOCK, NBYTES, STREAMS and STRIPES
 * integers, DEST a list ("[a, b]" split at commas).
 *
 * The records are the reference's list of dicts as a jansson list of
 * objects, keys in line order.  Tests: pytokio-inputs/globuslogs.txt.gz
 * and golden/pytokio/globuslogs/ in ../shared/testdata, and
 * tests/connectors/globuslogs/.
 *
 * Differs from pytokio, on input the server does not write: text without
 * '=' (the reference raised ValueError), a bad date or integer, invalid
 * UTF-8 or a NUL byte are TOKIO_EFORMAT naming the file and line; blank
 * lines are skipped (the reference raised); dates need all 14 digits and
 * 1-6 fraction digits (strptime also took some shorter forms); integers
 * must fit int64; lines end at "\n" (and "\r\n") only and only ASCII
 * white space separates (Python's \s and splitlines() know more); text
 * whose first non-blank character is '[' or '{' is the JSON form.
 */
#include "tokio/connectors/globuslogs.h"

#include <inttypes.h>
#include <stdint.h>
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

/* The keys the reference recast (its RECAST_KEYS), in its order. */
enum recast { AS_TIME, AS_INT, AS_LIST };
static const struct {
    const char *key;
    enum recast as;
} recast_keys[] = {
    { "DATE", AS_TIME }, { "START", AS_TIME }, { "BUFFER", AS_INT },
    { "BLOCK", AS_INT }, { "NBYTES", AS_INT }, { "STREAMS", AS_INT },
    { "STRIPES", AS_INT }, { "DEST", AS_LIST },
};

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading a Globus log");
}

/* The end of the run of capital letters from s[i]. */
static size_t
upper_run(const char *s, size_t i, size_t len)
{
    while (i < len && s[i] >= 'A' && s[i] <= 'Z')
        i++;
    return i;
}

/*
 * Where the value from s[i] ends by the reference's rule: at the first
 * white space run followed by [A-Z]+'='.  1 with the value's end in *end
 * and the next key's start in *next; 0 when no such run follows.
 */
static int
value_end(const char *s, size_t i, size_t len, size_t *end, size_t *next)
{
    for (; i < len; i++) {
        size_t q = i, w;
        if (!tokio__py_space((unsigned char)s[i]))
            continue;
        while (q < len && tokio__py_space((unsigned char)s[q]))
            q++;
        w = upper_run(s, q, len);
        if (w > q && w < len && s[w] == '=') {
            *end = i;
            *next = q;
            return 1;
        }
        i = q - 1;          /* the run's other spaces end nothing else */
    }
    return 0;
}

/* "YYYYmmddHHMMSS.ffffff" (1-6 fraction digits, which "%f" pads on the
 * right) as epoch seconds of local time; 0 when it is not one. */
static int
parse_time(const char *s, size_t len, double *out)
{
    char date[15];
    long us = 0;
    int64_t epoch;

    if (len < 16 || len > 21 || s[14] != '.' || memcmp(s, "0000", 4) == 0)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (i != 14 && (s[i] < '0' || s[i] > '9'))
            return 0;
    memcpy(date, s, 14);
    date[14] = '\0';
    if (tokio_time_parse_format(date, "%Y%m%d%H%M%S", &epoch) < 0)
        return 0;
    for (size_t i = 15; i < 21; i++)
        us = us * 10 + (i < len ? s[i] - '0' : 0);
    *out = (double)epoch + (double)us / 1e6;
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
    for (const char *p = s; list != NULL;) {
        const char *comma = bracket ? memchr(p, ',', (size_t)(end - p)) : 0;
        const char *b = p, *e = comma ? comma : end;
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
            break;
        p = comma + 1;
    }
    return list;
}

/* The record's values of the reference's RECAST_KEYS recast, in its
 * order. */
static int
recast(json_t *rec, const char *name, size_t lineno)
{
    for (size_t k = 0; k < sizeof(recast_keys) / sizeof(recast_keys[0]);
         k++) {
        const char *key = recast_keys[k].key;
        const json_t *v = json_object_get(rec, key);
        const char *s = json_string_value(v);
        size_t len = json_string_length(v);
        int shown = (int)(len > 60 ? 60 : len);
        json_t *to = NULL;
        int64_t i;
        double d;

        if (v == NULL)
            continue;
        if (recast_keys[k].as == AS_TIME) {
            if (!parse_time(s, len, &d))
                return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s is not "
                                    "a date YYYYmmddHHMMSS.ffffff: '%.*s'",
                                    name, lineno, key, shown, s);
            to = json_real(d);
        } else if (recast_keys[k].as == AS_INT) {
            if (!tokio__py_int(s, len, &i))
                return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s is not "
                                    "an integer: '%.*s'", name, lineno, key,
                                    shown, s);
            to = json_integer(i);
        } else {
            to = listify(s, len);
        }
        if (json_object_set_new_nocheck(rec, key, to) < 0)
            return oom();
    }
    return TOKIO_OK;
}

/*
 * One line (UTF-8 without NUL) as a record appended to `recs`: its pairs
 * peeled as the reference did (a repeated key keeps its first place and
 * takes the last value, as a dict does), then recast.
 */
static int
parse_line(json_t *recs, const char *s, size_t len, const char *name,
           size_t lineno)
{
    json_t *rec = json_object();
    size_t pos = 0;

    if (json_array_append_new(recs, rec) < 0)
        return oom();
    while (pos < len) {
        size_t key_end = upper_run(s, pos, len), end = len, next = len;

        if (key_end == pos || key_end == len || s[key_end] != '=' ||
            !value_end(s, key_end + 1, len, &end, &next)) {
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
            return oom();
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

/* A value of the JSON form: what a line's value may have become. */
static int
valid_value(const json_t *v)
{
    size_t i;
    const json_t *item;

    if (!json_is_array(v))
        return json_is_string(v) || json_is_number(v);
    json_array_foreach(v, i, item)
        if (!json_is_string(item))
            return 0;
    return 1;
}

static int
add_json(void *h, const json_t *json)
{
    struct tokio_globuslogs *g = h;
    size_t i;
    const json_t *rec;
    json_t *copy;
    int rc;

    if (!json_is_array(json))
        return tokio__error(TOKIO_EFORMAT, "Globus log JSON is not a list");
    json_array_foreach(json, i, rec) {
        const char *key;
        const json_t *v;
        if (!json_is_object(rec))
            return tokio__error(TOKIO_EFORMAT, "Globus log record %zu is not "
                                "an object", i);
        json_object_foreach((json_t *)rec, key, v)
            if (!valid_value(v))
                return tokio__error(TOKIO_EFORMAT, "Globus log record %zu: "
                                    "'%s' is not a string, number or list "
                                    "of strings", i, key);
    }
    if ((copy = json_deep_copy(json)) == NULL)
        return oom();
    rc = json_array_extend(g->recs, copy) < 0 ? oom() : TOKIO_OK;
    json_decref(copy);
    return rc;
}

static int
new_logs(void **out)
{
    struct tokio_globuslogs *g = tokio__calloc(1, sizeof(*g));

    *out = g;
    if (g == NULL || (g->recs = json_array()) == NULL) {
        tokio_globuslogs_free(g);
        *out = NULL;
        return oom();
    }
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

/* str() of a list of strings, as one CSV field. */
static int
write_list(FILE *fp, const json_t *list)
{
    char *text = NULL;
    size_t len = 0, i;
    const json_t *item;
    FILE *mem = open_memstream(&text, &len);

    if (mem == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    fputc('[', mem);
    json_array_foreach(list, i, item) {
        if (i > 0)
            fputs(", ", mem);
        write_repr(mem, json_string_value(item), json_string_length(item));
    }
    fputc(']', mem);
    if (fclose(mem) != 0) {
        free(text);
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    }
    tokio_csv_write_field(fp, text, len);
    free(text);
    return TOKIO_OK;
}

/* What pandas makes of a column: float64 when it holds only numbers and
 * some real or missing cell; else each cell as str() prints it. */
struct col {
    int numeric, as_float;
};

static int
write_cell(FILE *fp, const json_t *v, struct col c)
{
    char buf[40];

    if (v == NULL)
        return TOKIO_OK;
    if (json_is_integer(v) && !c.as_float) {
        fprintf(fp, "%" PRId64, (int64_t)json_integer_value(v));
    } else if (json_is_number(v)) {
        tokio_format_double(buf, sizeof(buf), json_number_value(v));
        fputs(buf, fp);
    } else if (json_is_string(v)) {
        tokio_csv_write_field(fp, json_string_value(v), json_string_length(v));
    } else {
        return write_list(fp, v);
    }
    return TOKIO_OK;
}

int
tokio_globuslogs_write_csv(const struct tokio_globuslogs *g, FILE *fp)
{
    json_t *columns = json_object(), *rec, *v;  /* keys, first seen first */
    struct col *cols = NULL;
    const char *key;
    size_t r, c;
    int rc = TOKIO_OK;

    json_array_foreach(g->recs, r, rec)
        json_object_foreach(rec, key, v)
            if (json_object_get(columns, key) == NULL &&
                json_object_set_new_nocheck(columns, key, json_null()) < 0)
                rc = TOKIO_ENOMEM;
    if (rc < 0 || (cols = tokio__calloc(json_object_size(columns) + 1,
                                        sizeof(*cols))) == NULL) {
        json_decref(columns);
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    }
    c = 0;
    json_object_foreach(columns, key, v) {
        int real = 0, missing = 0;
        cols[c].numeric = 1;
        json_array_foreach(g->recs, r, rec) {
            const json_t *cell = json_object_get(rec, key);
            missing |= cell == NULL;
            real |= json_is_real(cell);
            if (cell != NULL && !json_is_number(cell))
                cols[c].numeric = 0;
        }
        cols[c].as_float = cols[c].numeric && (real || missing);
        fputc(',', fp);
        tokio_csv_write_field(fp, key, strlen(key));
        c++;
    }
    fputc('\n', fp);
    json_array_foreach(g->recs, r, rec) {
        fprintf(fp, "%zu", r);
        c = 0;
        json_object_foreach(columns, key, v) {
            fputc(',', fp);
            if (rc == TOKIO_OK)
                rc = write_cell(fp, json_object_get(rec, key), cols[c++]);
        }
        fputc('\n', fp);
    }
    json_decref(columns);
    free(cols);
    return rc < 0 ? rc : tokio__write_check(fp, "cannot write Globus log "
                                                "CSV");
}

void
tokio_globuslogs_free(struct tokio_globuslogs *g)
{
    if (g == NULL)
        return;
    json_decref(g->recs);
    free(g);
}

/* ---- the connector interface (src/core/connector.h) -------------------- */

/* The server starts every transfer line with its DATE. */
static int
bid(const char *head, size_t n)
{
    size_t i = 0;

    while (i < n && tokio__py_space((unsigned char)head[i]))
        i++;
    return n - i >= 5 && memcmp(head + i, "DATE=", 5) == 0 ? 70 : 0;
}

static int
to_json(const void *h, json_t **out)
{
    return tokio_globuslogs_to_json(h, out);
}

static int
write_csv(const void *h, FILE *fp) { return tokio_globuslogs_write_csv(h, fp); }

static void
free_logs(void *h) { tokio_globuslogs_free(h); }

const struct tokio__connector tokio__globuslogs_connector = {
    .name = "globuslogs",
    .bid = bid,
    .new = new_logs,
    .add_text = add_text,
    .add_json = add_json,
    .to_json = to_json,
    .write_csv = write_csv,
    .free = free_logs,
};
