/*
 * src/connectors/craysdb.c - the Cray SDB processor table as printed by
 * `xtdb2proc -f -` (CLE 5/6): '#' comment lines, then one line per
 * processor of comma-separated key=value fields where strings are quoted
 * ('up') and absent values are null.  Mirrors
 * tokio.connectors.craysdb.CraySdbProc (pytokio 0.13): parsing as its
 * load_str(), writing back as its __repr__()/save_cache().
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/sample.xtdb2proc.gz;
 * goldens in ../shared/testdata/golden/pytokio/craysdb/.
 *
 * Differs from pytokio, all on input the real command never prints: a
 * line without '=' in a field, a repeated key within one line, a missing
 * or non-integer processor_id, a repeated processor_id, a NUL byte or
 * invalid UTF-8 are TOKIO_EFORMAT naming the file and line (the reference
 * raised, kept the last value, or failed to decode); lines end at "\n"
 * only (Python's splitlines() also splits at \v, \f, \x1c-\x1e); only
 * ASCII whitespace is stripped; integers beyond int64 stay strings.
 *
 * NEEDSWORK: each record is a jansson object (a value and a key pair
 * allocated per field), which bounds reading at ~4-8x the reference
 * (bench-craysdb.sh), not 30x.  Records share one set of keys: a typed
 * table with the JSON built on demand would read several times faster,
 * but tokio_craysdb_proc() hands out a borrowed json_t; worth changing?
 */
#include "tokio/connectors/craysdb.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/input.h"
#include "tokio/output.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/run.h"
#include "core/text.h"

/* The key that names a record; the reference keys its dict by it. */
#define PROCESSOR_ID_KEY "processor_id"

struct tokio_craysdb {
    json_t *procs;      /* processor_id string -> record, in input order */
};

/*
 * Python's int() over a stripped field: optional sign, decimal digits,
 * single underscores between digits, leading zeros allowed.  Returns 1 and
 * the value when it fits int64, else 0 (the caller keeps the text).
 */
static int
py_int(const char *s, size_t len, int64_t *value_out)
{
    size_t i = 0;
    int neg = 0;
    uint64_t v = 0;
    /* |INT64_MIN| is one more than INT64_MAX */
    uint64_t limit;

    while (i < len && tokio__py_space((unsigned char)s[i]))
        i++;
    while (len > i && tokio__py_space((unsigned char)s[len - 1]))
        len--;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    if (i >= len || s[i] < '0' || s[i] > '9')
        return 0;
    for (; i < len; i++) {
        if (s[i] == '_') {
            /* "1__2" and a trailing "_" are not integers to Python */
            if (i + 1 >= len || s[i + 1] < '0' || s[i + 1] > '9')
                return 0;
            continue;
        }
        if (s[i] < '0' || s[i] > '9')
            return 0;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (limit - d) / 10)
            return 0;
        v = v * 10 + d;
    }
    *value_out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 1;
}

/*
 * The value of one field as the reference's load_str(): surrounding
 * whitespace, then any surrounding quote characters removed (so 'null'
 * and '5' lose their quotes and their type too); null, an integer, or
 * the remaining text.  NULL only when out of memory.
 */
static json_t *
parse_value(const char *s, size_t len)
{
    int64_t v;

    while (len > 0 && tokio__py_space((unsigned char)*s))
        s++, len--;
    while (len > 0 && tokio__py_space((unsigned char)s[len - 1]))
        len--;
    while (len > 0 && (*s == '\'' || *s == '"'))
        s++, len--;
    while (len > 0 && (s[len - 1] == '\'' || s[len - 1] == '"'))
        len--;
    if (len == 4 && memcmp(s, "null", 4) == 0)
        return json_null();
    if (py_int(s, len, &v))
        return json_integer(v);
    /* the caller checked the whole line is UTF-8; quotes and blanks cut
     * off its ends are ASCII, so what is left still is */
    return json_stringn_nocheck(s, len);
}

/* 1 if the line holds nothing but Python whitespace. */
static int
blank_line(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!tokio__py_space((unsigned char)line[i]))
            return 0;
    return 1;
}

/*
 * Parse one record line into `db`.  `name` and `lineno` say where, for
 * messages.
 */
static int
parse_line(struct tokio_craysdb *db, const char *line, size_t len,
           const char *name, size_t lineno)
{
    json_t *rec = NULL, *val;
    char idbuf[32];
    size_t field = 0;
    int rc = TOKIO_OK;

    if (memchr(line, '\0', len) != NULL)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: NUL byte", name,
                            lineno);
    if (!tokio__utf8_valid((const unsigned char *)line, len))
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: invalid UTF-8",
                            name, lineno);
    if ((rec = json_object()) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);

    for (const char *p = line, *end = line + len; rc == TOKIO_OK; field++) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *stop = comma ? comma : end;
        const char *eq = memchr(p, '=', (size_t)(stop - p));

        if (eq == NULL) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: field %zu "
                              "('%.*s') is not key=value", name, lineno,
                              field + 1, (int)(stop - p > 40 ? 40 : stop - p),
                              p);
            break;
        }
        /* keys are taken as they are: the reference did not strip them.
         * The line was checked (UTF-8, no NUL), so jansson need not check
         * again; a repeated key replaces the value and leaves the size. */
        size_t before = json_object_size(rec);
        if ((val = parse_value(eq + 1, (size_t)(stop - eq - 1))) == NULL ||
            json_object_setn_new_nocheck(rec, p, (size_t)(eq - p), val) < 0)
            rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                              name);
        else if (json_object_size(rec) == before)
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: key '%.*s' "
                              "repeated", name, lineno, (int)(eq - p), p);
        if (comma == NULL)
            break;
        p = comma + 1;
    }
    if (rc < 0)
        goto out;

    json_t *id = json_object_get(rec, PROCESSOR_ID_KEY);
    if (!json_is_integer(id)) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s", name, lineno,
                          id == NULL ? "no processor_id"
                                     : "processor_id is not an integer");
        goto out;
    }
    snprintf(idbuf, sizeof(idbuf), "%" PRId64, (int64_t)json_integer_value(id));
    if (json_object_get(db->procs, idbuf) != NULL) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: processor_id %s "
                          "repeated", name, lineno, idbuf);
        goto out;
    }
    if (json_object_set(db->procs, idbuf, rec) < 0)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
out:
    json_decref(rec);
    return rc;
}

static int
parse_input(struct tokio_craysdb *db, struct tokio_input *in,
            const char *name)
{
    const char *line;
    size_t len;
    int rc;

    while ((rc = tokio_input_getline(in, &line, &len)) == TOKIO_OK &&
           line != NULL) {
        /* only a '#' in the first column starts a comment, as there */
        if ((len > 0 && line[0] == '#') || blank_line(line, len))
            continue;
        if ((rc = parse_line(db, line, len, name, tokio_input_lineno(in))) <
            0)
            return rc;
    }
    return rc;
}

static int
new_db(struct tokio_craysdb **out)
{
    struct tokio_craysdb *db = tokio__calloc(1, sizeof(*db));

    *out = NULL;
    if (db == NULL || (db->procs = json_object()) == NULL) {
        free(db);
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    }
    *out = db;
    return TOKIO_OK;
}

/* Read all of `in` into a new table; `*out` stays NULL on failure. */
static int
load(struct tokio_craysdb **out, struct tokio_input *in)
{
    struct tokio_craysdb *db = NULL;
    int rc;

    if ((rc = new_db(&db)) < 0)
        return rc;
    if ((rc = parse_input(db, in, tokio_input_name(in))) < 0) {
        tokio_craysdb_free(db);     /* no half-built table */
        return rc;
    }
    *out = db;
    return TOKIO_OK;
}

/* A table saved as JSON (what tokio_craysdb_to_json() gives) starts with
 * '{'; xtdb2proc text never does. */
static int
looks_like_json(const unsigned char *buf, size_t len)
{
    size_t i = 0;

    while (i < len && tokio__py_space(buf[i]))
        i++;
    return i < len && buf[i] == '{';
}

static int
load_json(struct tokio_craysdb **out, const char *text, size_t len,
          const char *name)
{
    json_error_t err;
    int oom = 0, rc;
    json_t *json = tokio__json_parse(text, len, JSON_REJECT_DUPLICATES, &err,
                                     &oom);

    if (json == NULL && oom)
        return tokio__error(TOKIO_ENOMEM, "'%s': out of memory", name);
    if (json == NULL)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %d column %d: %s",
                            name, err.line, err.column, err.text);
    rc = tokio_craysdb_from_json(out, json);
    json_decref(json);
    if (rc < 0)
        return tokio__error_prefix("'%s'", name);
    return rc;
}

int
tokio_craysdb_open(struct tokio_craysdb **out, const char *path)
{
    unsigned char *buf = NULL;
    size_t len = 0;
    int rc;

    *out = NULL;
    if ((rc = tokio_read_file(path, 0, &buf, &len)) < 0)
        return rc;
    rc = tokio_craysdb_open_mem(out, buf, len, path);
    free(buf);
    return rc;
}

int
tokio_craysdb_query(struct tokio_craysdb **out)
{
    static const char *const argv[] = { "xtdb2proc", "-f", "-", NULL };
    char *text = NULL;
    size_t len = 0;
    int rc;

    *out = NULL;
    if ((rc = tokio__run_capture(argv, "the Cray SDB's 'xtdb2proc'", 0, &text,
                                 &len)) < 0)
        return rc;
    rc = tokio_craysdb_open_mem(out, text, len, "xtdb2proc output");
    free(text);
    return rc;
}

int
tokio_craysdb_open_mem(struct tokio_craysdb **out, const void *buf,
                       size_t len, const char *name)
{
    struct tokio_input *in = NULL;
    int rc;

    *out = NULL;
    if (looks_like_json(buf, len))
        return load_json(out, buf, len, name ? name : "<memory>");
    if ((rc = tokio_input_open_mem(&in, buf, len,
                                   name ? name : "<memory>")) < 0)
        return rc;
    rc = load(out, in);
    tokio_input_close(in);
    return rc;
}

size_t
tokio_craysdb_count(const struct tokio_craysdb *db)
{
    return json_object_size(db->procs);
}

const json_t *
tokio_craysdb_proc(const struct tokio_craysdb *db, int64_t processor_id)
{
    char key[32];

    snprintf(key, sizeof(key), "%" PRId64, processor_id);
    return json_object_get(db->procs, key);
}

int
tokio_craysdb_coords(const struct tokio_craysdb *db, int64_t processor_id,
                     int64_t xyz_out[3])
{
    static const char *const names[3] = { "x_coord", "y_coord", "z_coord" };
    const json_t *rec = tokio_craysdb_proc(db, processor_id);

    if (rec == NULL)
        return tokio__error(TOKIO_ENOTFOUND, "processor %" PRId64 " is not "
                            "in the Cray SDB processor table", processor_id);
    for (int i = 0; i < 3; i++) {
        const json_t *v = json_object_get(rec, names[i]);

        if (!json_is_integer(v))
            return tokio__error(TOKIO_EFORMAT, "processor %" PRId64 ": %s is "
                                "%s", processor_id, names[i],
                                v ? "not an integer" : "missing");
        xyz_out[i] = (int64_t)json_integer_value(v);
    }
    return TOKIO_OK;
}

int
tokio_craysdb_to_json(const struct tokio_craysdb *db, json_t **out)
{
    /* a copy, so the caller may change it without changing the table */
    if ((*out = json_deep_copy(db->procs)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    return TOKIO_OK;
}

/* Check one record of the JSON form; `key` is its processor_id text. */
static int
check_record(const char *key, const json_t *rec)
{
    const char *k;
    const json_t *v;
    char idbuf[32];

    if (!json_is_object(rec))
        return tokio__error(TOKIO_EFORMAT, "Cray SDB record '%s' is not an "
                            "object", key);
    json_object_foreach((json_t *)rec, k, v) {
        if (!json_is_integer(v) && !json_is_string(v) && !json_is_null(v))
            return tokio__error(TOKIO_EFORMAT, "Cray SDB record '%s': '%s' "
                                "is not an integer, string or null", key, k);
    }
    v = json_object_get(rec, PROCESSOR_ID_KEY);
    if (!json_is_integer(v))
        return tokio__error(TOKIO_EFORMAT, "Cray SDB record '%s': no integer "
                            "processor_id", key);
    snprintf(idbuf, sizeof(idbuf), "%" PRId64, (int64_t)json_integer_value(v));
    if (strcmp(idbuf, key) != 0)
        return tokio__error(TOKIO_EFORMAT, "Cray SDB record '%s' has "
                            "processor_id %s", key, idbuf);
    return TOKIO_OK;
}

int
tokio_craysdb_from_json(struct tokio_craysdb **out, const json_t *json)
{
    struct tokio_craysdb *db = NULL;
    const char *key;
    const json_t *rec;
    int rc;

    *out = NULL;
    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "Cray SDB table is not a JSON "
                            "object");
    json_object_foreach((json_t *)json, key, rec) {
        if ((rc = check_record(key, rec)) < 0)
            return rc;
    }
    if ((rc = new_db(&db)) < 0)
        return rc;
    json_decref(db->procs);
    if ((db->procs = json_deep_copy(json)) == NULL) {
        tokio_craysdb_free(db);
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    }
    *out = db;
    return TOKIO_OK;
}

int
tokio_craysdb_write(const struct tokio_craysdb *db, FILE *fp)
{
    void *it = json_object_iter(db->procs);
    const json_t *first = it ? json_object_iter_value(it) : NULL;
    const char *id, *key;
    const json_t *rec, *order_v;

    /* the reference wrote every record with the first record's keys */
    json_object_foreach(db->procs, id, rec) {
        int sep = 0;

        json_object_foreach((json_t *)first, key, order_v) {
            const json_t *v = json_object_get(rec, key);

            if (v == NULL)
                return tokio__error(TOKIO_EFORMAT, "Cray SDB record %s lacks "
                                    "key '%s' that the first record has", id,
                                    key);
            if (sep++)
                fputc(',', fp);
            if (json_is_integer(v))
                fprintf(fp, "%s=%" PRId64, key, (int64_t)json_integer_value(v));
            else if (json_is_string(v))
                fprintf(fp, "%s='%s'", key, json_string_value(v));
            else
                fprintf(fp, "%s=null", key);
        }
        (void)order_v;
        fputc('\n', fp);
    }
    if (ferror(fp))
        return tokio__error(TOKIO_EIO, "cannot write the Cray SDB table");
    return TOKIO_OK;
}

int
tokio_craysdb_write_csv(const struct tokio_craysdb *db, FILE *fp)
{
    json_t *table = NULL, *cols = NULL, *rec, *v;
    const char *id, *key;
    size_t i;
    int rc;

    if ((rc = tokio_craysdb_to_json(db, &table)) < 0)
        return rc;
    if ((cols = json_array()) == NULL)
        goto nomem;
    json_object_foreach(table, id, rec) {
        json_object_foreach(rec, key, v) {
            json_t *c;
            int seen = 0;
            json_array_foreach(cols, i, c)
                if (strcmp(json_string_value(c), key) == 0) {
                    seen = 1;
                    break;
                }
            if (!seen && json_array_append_new(cols, json_string(key)) < 0)
                goto nomem;
        }
    }
    for (i = 0; i < json_array_size(cols); i++) {
        const char *name = json_string_value(json_array_get(cols, i));
        if (i)
            fputc(',', fp);
        tokio_csv_write_field(fp, name, strlen(name));
    }
    fputc('\n', fp);
    json_object_foreach(table, id, rec) {
        for (i = 0; i < json_array_size(cols); i++) {
            v = json_object_get(rec, json_string_value(json_array_get(cols,
                                                                      i)));
            if (i)
                fputc(',', fp);
            if (json_is_integer(v))
                fprintf(fp, "%lld", (long long)json_integer_value(v));
            else if (json_is_string(v))
                tokio_csv_write_field(fp, json_string_value(v),
                                      json_string_length(v));
        }
        fputc('\n', fp);
    }
    json_decref(cols);
    json_decref(table);
    if (ferror(fp))
        return tokio__error(TOKIO_EIO, "cannot write CSV");
    return TOKIO_OK;
nomem:
    json_decref(cols);
    json_decref(table);
    return tokio__error(TOKIO_ENOMEM, "out of memory writing CSV");
}

void
tokio_craysdb_free(struct tokio_craysdb *db)
{
    if (db == NULL)
        return;
    json_decref(db->procs);
    free(db);
}
