/*
 * src/connectors/craysdb.c - the Cray SDB processor table as printed by
 * `xtdb2proc -f -` (CLE 5/6): '#' comment lines, then one line per
 * processor of comma-separated key=value fields where strings are quoted
 * ('up') and absent values are null.  Mirrors
 * tokio.connectors.craysdb.CraySdbProc (pytokio 0.13): parsing as its
 * load_str(), writing back as its __repr__()/save_cache().
 *
 * The table is the reference's dict as a jansson object: processor_id
 * (as text) -> record, each record an object of the line's keys in their
 * order.  Tests: pytokio-inputs/sample.xtdb2proc.gz and golden/pytokio/
 * craysdb/ in ../shared/testdata, and tests/connectors/craysdb/.
 *
 * Differs from pytokio, all on input the real command never prints: a
 * field without '=', a repeated key within one line, a missing or
 * non-integer processor_id, a repeated processor_id, a NUL byte or
 * invalid UTF-8 are TOKIO_EFORMAT naming the input and line (the
 * reference raised, kept the last value, or failed to decode); lines end
 * at "\n" (and "\r\n") only, where Python's splitlines() also splits at
 * \v, \f and \x1c-\x1e; only ASCII white space is stripped; integers
 * beyond int64 stay strings.
 */
#define _GNU_SOURCE     /* memmem() */
#include "tokio/connectors/craysdb.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tokio/output.h"
#include "connectors/registry.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/run.h"
#include "core/text.h"

/* The key that names a record; the reference keys its dict by it. */
#define PROCESSOR_ID_KEY "processor_id"

struct tokio_craysdb {
    json_t *procs;      /* processor_id text -> record, input order */
};

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading a Cray SDB "
                        "table");
}

/* The record of processor `id`, or NULL. */
static json_t *
find_proc(const struct tokio_craysdb *db, int64_t id)
{
    char idbuf[32];

    snprintf(idbuf, sizeof(idbuf), "%" PRId64, id);
    return json_object_get(db->procs, idbuf);
}

/* Add a checked record under its processor_id. */
static int
add_record(struct tokio_craysdb *db, json_t *rec)
{
    char idbuf[32];

    snprintf(idbuf, sizeof(idbuf), "%" PRId64, (int64_t)json_integer_value(
                                       json_object_get(rec, PROCESSOR_ID_KEY)));
    return json_object_set_new(db->procs, idbuf, rec) < 0 ? oom() : TOKIO_OK;
}

/*
 * One value as the reference's load_str() read it: surrounding white
 * space, then any surrounding quote characters removed (so 'null' and
 * '5' lose their quotes and their type too); null, an integer, or the
 * remaining text.  NULL when out of memory.
 */
static json_t *
parse_value(const char *s, size_t len)
{
    int64_t i;

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
    if (tokio__py_int(s, len, &i))
        return json_integer(i);
    return json_stringn(s, len);
}

/* One record line (UTF-8 without NUL) into `db`. */
static int
parse_line(struct tokio_craysdb *db, const char *line, size_t len,
           const char *name, size_t lineno)
{
    const char *p = line, *end = line + len;
    json_t *rec = json_object(), *id;
    int rc = TOKIO_OK;

    if (rec == NULL)
        return oom();
    for (size_t field = 1; rc == TOKIO_OK; field++) {
        const char *stop = memchr(p, ',', (size_t)(end - p));
        const char *eq;

        if (stop == NULL)
            stop = end;
        if ((eq = memchr(p, '=', (size_t)(stop - p))) == NULL) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: field %zu "
                              "('%.*s') is not key=value", name, lineno,
                              field, (int)(stop - p > 40 ? 40 : stop - p), p);
            break;
        }
        /* keys are taken as they are: the reference did not strip them */
        if (json_object_getn(rec, p, (size_t)(eq - p)) != NULL)
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: key '%.*s' "
                              "repeated", name, lineno, (int)(eq - p), p);
        else if (json_object_setn_new(rec, p, (size_t)(eq - p),
                     parse_value(eq + 1, (size_t)(stop - eq - 1))) < 0)
            rc = oom();
        if (stop == end)
            break;
        p = stop + 1;
    }
    id = json_object_get(rec, PROCESSOR_ID_KEY);
    if (rc == TOKIO_OK && !json_is_integer(id))
        rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s", name, lineno,
                          id == NULL ? "no processor_id"
                                     : "processor_id is not an integer");
    if (rc == TOKIO_OK && find_proc(db, json_integer_value(id)) != NULL)
        rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: processor_id %"
                          PRId64 " repeated", name, lineno,
                          (int64_t)json_integer_value(id));
    if (rc < 0) {
        json_decref(rec);
        return rc;
    }
    return add_record(db, rec);
}

static int
add_text(void *h, const char *text, size_t len, const char *name)
{
    const char *p = text, *end = text + len;
    int rc = TOKIO_OK;

    for (size_t lineno = 1; rc == TOKIO_OK && p < end; lineno++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        size_t i = 0;

        if (n > 0 && p[n - 1] == '\r')
            n--;
        while (i < n && tokio__py_space((unsigned char)p[i]))
            i++;
        if (!tokio__text_valid(p, n))
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s", name,
                              lineno, memchr(p, '\0', n) ? "NUL byte"
                                                         : "invalid UTF-8");
        /* only a '#' in the first column starts a comment, as there */
        else if (i < n && p[0] != '#')
            rc = parse_line(h, p, n, name, lineno);
        p = nl ? nl + 1 : end;
    }
    return rc;
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
    json_object_foreach((json_t *)rec, k, v)
        if (!json_is_integer(v) && !json_is_string(v) && !json_is_null(v))
            return tokio__error(TOKIO_EFORMAT, "Cray SDB record '%s': '%s' "
                                "is not an integer, string or null", key, k);
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

static int
add_json(void *h, const json_t *json)
{
    const char *key;
    json_t *rec;
    int rc = TOKIO_OK;

    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "Cray SDB table is not a JSON "
                            "object");
    json_object_foreach((json_t *)json, key, rec) {
        json_t *copy = NULL;
        if ((rc = check_record(key, rec)) < 0 ||
            (rc = (copy = json_deep_copy(rec)) ? TOKIO_OK : oom()) < 0 ||
            (rc = add_record(h, copy)) < 0)
            break;
    }
    return rc;
}

static int
new_table(void **out)
{
    struct tokio_craysdb *db = tokio__calloc(1, sizeof(*db));

    *out = db;
    if (db == NULL || (db->procs = json_object()) == NULL) {
        tokio_craysdb_free(db);
        *out = NULL;
        return oom();
    }
    return TOKIO_OK;
}

TOKIO__CONNECTOR_OPEN_FUNCTIONS(craysdb)

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

size_t
tokio_craysdb_count(const struct tokio_craysdb *db)
{
    return json_object_size(db->procs);
}

int
tokio_craysdb_coords(const struct tokio_craysdb *db, int64_t processor_id,
                     int64_t xyz_out[3])
{
    static const char *const names[3] = { "x_coord", "y_coord", "z_coord" };
    const json_t *rec = find_proc(db, processor_id);

    if (rec == NULL)
        return tokio__error(TOKIO_ENOTFOUND, "processor %" PRId64 " is not "
                            "in the Cray SDB processor table", processor_id);
    for (int i = 0; i < 3; i++) {
        const json_t *v = json_object_get(rec, names[i]);
        if (!json_is_integer(v))
            return tokio__error(TOKIO_EFORMAT, "processor %" PRId64 ": %s is "
                                "%s", processor_id, names[i],
                                v ? "not an integer" : "missing");
        xyz_out[i] = json_integer_value(v);
    }
    return TOKIO_OK;
}

int
tokio_craysdb_to_json(const struct tokio_craysdb *db, json_t **out)
{
    *out = json_incref(db->procs);
    return TOKIO_OK;
}

int
tokio_craysdb_write_native(const struct tokio_craysdb *db, FILE *fp)
{
    const char *id, *key;
    json_t *rec, *v;
    /* the reference wrote every record with the first record's keys */
    json_t *first = json_object_iter_value(json_object_iter(db->procs));

    json_object_foreach(db->procs, id, rec) {
        int sep = 0;
        json_object_foreach(first, key, v) {
            const json_t *val = json_object_get(rec, key);
            if (val == NULL)
                return tokio__error(TOKIO_EFORMAT, "Cray SDB record %s lacks "
                                    "key '%s' that the first record has", id,
                                    key);
            fprintf(fp, sep++ ? ",%s=" : "%s=", key);
            if (json_is_integer(val))
                fprintf(fp, "%" PRId64, (int64_t)json_integer_value(val));
            else if (json_is_string(val))
                fprintf(fp, "'%s'", json_string_value(val));
            else
                fputs("null", fp);
        }
        fputc('\n', fp);
    }
    return tokio__write_check(fp, "cannot write the Cray SDB table");
}

int
tokio_craysdb_write_csv(const struct tokio_craysdb *db, FILE *fp)
{
    const char *id, *col;
    json_t *rec, *v, *columns = json_object();    /* keys, first seen first */
    int sep = 0;

    json_object_foreach(db->procs, id, rec)
        json_object_foreach(rec, col, v)
            if (json_object_get(columns, col) == NULL &&
                json_object_set_new(columns, col, json_null()) < 0) {
                json_decref(columns);
                return tokio__error(TOKIO_ENOMEM, "out of memory");
            }
    json_object_foreach(columns, col, v) {
        if (sep++)
            fputc(',', fp);
        tokio_csv_write_field(fp, col, strlen(col));
    }
    fputc('\n', fp);
    json_object_foreach(db->procs, id, rec) {
        sep = 0;
        json_object_foreach(columns, col, v) {
            const json_t *cell = json_object_get(rec, col);
            if (sep++)
                fputc(',', fp);
            if (json_is_integer(cell))
                fprintf(fp, "%" PRId64, (int64_t)json_integer_value(cell));
            else if (json_is_string(cell))
                tokio_csv_write_field(fp, json_string_value(cell),
                                      json_string_length(cell));
        }
        fputc('\n', fp);
    }
    json_decref(columns);
    return tokio__write_check(fp, "cannot write the Cray SDB CSV");
}

void
tokio_craysdb_free(struct tokio_craysdb *db)
{
    if (db == NULL)
        return;
    json_decref(db->procs);
    free(db);
}

/* ---- the connector interface (src/core/connector.h) -------------------- */

/* Every record line of xtdb2proc has a processor_id field; its output
 * starts with a block of '#' comments (all there is of an empty table). */
static int
bid(const char *head, size_t n)
{
    if (memmem(head, n, PROCESSOR_ID_KEY "=", sizeof(PROCESSOR_ID_KEY)))
        return 80;
    return n > 0 && head[0] == '#' ? 50 : 0;
}

static int
to_json(const void *h, json_t **out) { return tokio_craysdb_to_json(h, out); }

static int
write_csv(const void *h, FILE *fp) { return tokio_craysdb_write_csv(h, fp); }

static void
free_table(void *h) { tokio_craysdb_free(h); }

const struct tokio__connector tokio__craysdb_connector = {
    .name = "craysdb",
    .what = "xtdb2proc output (processor_id=... records) or its JSON form",
    /* xtdb2proc of the largest Cray (some 20,000 nodes) is 5 MB */
    .max_bytes = (size_t)64 << 20,
    .bid = bid,
    .new = new_table,
    .add_text = add_text,
    .add_json = add_json,
    .to_json = to_json,
    .write_csv = write_csv,
    .free = free_table,
};
