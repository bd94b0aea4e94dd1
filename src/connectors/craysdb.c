/*
 * src/connectors/craysdb.c - the Cray SDB processor table as printed by
 * `xtdb2proc -f -` (CLE 5/6): '#' comment lines, then one line per
 * processor of comma-separated key=value fields where strings are quoted
 * ('up') and absent values are null.  Mirrors
 * tokio.connectors.craysdb.CraySdbProc (pytokio 0.13): parsing as its
 * load_str(), writing back as its __repr__()/save_cache().
 *
 * The table is typed, not a jansson tree: records in input order, each a
 * run of fields (key, then null, an integer or text) in one array; keys
 * are kept once each, in order of first appearance (the CSV's columns),
 * and a line's keys are looked for first where the line before had them,
 * as every line of real output has the same keys in the same order; text
 * is in one pool addressed by offset; an index by processor_id finds
 * records and repeated ids.  JSON is built only when asked for.
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

enum kind { V_NULL, V_INT, V_TEXT };

struct field {
    size_t key;             /* index in db->keys */
    enum kind kind;
    int64_t i;              /* V_INT */
    size_t off, len;        /* V_TEXT: in db->text */
};

struct record {
    int64_t id;
    size_t first, n;        /* in db->fields */
};

struct key {
    size_t off, len;        /* in db->text */
    size_t seen;            /* the last record that had it, plus one */
};

struct tokio_craysdb {
    char *text;             /* keys and text values, NUL-terminated */
    size_t text_len, text_cap;
    struct key *keys;
    size_t n_keys, cap_keys;
    struct field *fields;
    size_t n_fields, cap_fields;
    struct record *recs;
    size_t n_recs, cap_recs;
    size_t *slots;          /* record index + 1 by processor_id hash */
    size_t n_slots;
    size_t id_key;          /* index of "processor_id", or (size_t)-1 */
};

/* Grow `*p` (`*cap` items of `size`) to room for one more; -1: no memory. */
static int
grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 64;
    void *q = tokio__reallocarray(*(void **)p, c, size);
    if (q == NULL)
        return -1;
    *(void **)p = q;
    *cap = c;
    return 0;
}

/* Append `len` bytes and a NUL to the text pool; offset in *off. */
static int
add_text(struct tokio_craysdb *db, const char *s, size_t len, size_t *off)
{
    if (len + 1 > db->text_cap - db->text_len) {
        size_t c = db->text_cap ? db->text_cap : 4096;
        while (c - db->text_len < len + 1) {
            if (c > SIZE_MAX / 2)
                return -1;
            c *= 2;
        }
        char *t = tokio__realloc(db->text, c);
        if (t == NULL)
            return -1;
        db->text = t;
        db->text_cap = c;
    }
    *off = db->text_len;
    memcpy(db->text + db->text_len, s, len);
    db->text[db->text_len + len] = '\0';
    db->text_len += len + 1;
    return 0;
}

static const char *
key_name(const struct tokio_craysdb *db, size_t k)
{
    return db->text + db->keys[k].off;
}

/* The index of key `s` (`len` bytes), added when new; `guess` is where
 * it is likely to be.  (size_t)-1 when out of memory. */
static size_t
intern(struct tokio_craysdb *db, const char *s, size_t len, size_t guess)
{
    size_t k;

    if (guess < db->n_keys && db->keys[guess].len == len &&
        memcmp(key_name(db, guess), s, len) == 0)
        return guess;
    for (k = 0; k < db->n_keys; k++)
        if (db->keys[k].len == len && memcmp(key_name(db, k), s, len) == 0)
            return k;
    if (grow(&db->keys, &db->cap_keys, db->n_keys, sizeof(*db->keys)) < 0 ||
        add_text(db, s, len, &db->keys[db->n_keys].off) < 0)
        return (size_t)-1;
    db->keys[db->n_keys].len = len;
    db->keys[db->n_keys].seen = 0;
    if (len == sizeof(PROCESSOR_ID_KEY) - 1 &&
        memcmp(s, PROCESSOR_ID_KEY, len) == 0)
        db->id_key = db->n_keys;
    return db->n_keys++;
}

/* The key of a given name, or (size_t)-1. */
static size_t
find_key(const struct tokio_craysdb *db, const char *name)
{
    for (size_t k = 0; k < db->n_keys; k++)
        if (strcmp(key_name(db, k), name) == 0)
            return k;
    return (size_t)-1;
}

/* The slot of processor `id`: empty, or holding its record. */
static size_t *
find_slot(const struct tokio_craysdb *db, int64_t id)
{
    size_t mask = db->n_slots - 1;
    uint64_t h = (uint64_t)id * 0x9e3779b97f4a7c15u;

    for (size_t i = (size_t)(h >> 20) & mask;; i = (i + 1) & mask) {
        size_t r = db->slots[i];
        if (r == 0 || db->recs[r - 1].id == id)
            return &db->slots[i];
    }
}

/* Keep the id index at most half full. */
static int
grow_slots(struct tokio_craysdb *db)
{
    if (2 * (db->n_recs + 1) <= db->n_slots)
        return 0;
    size_t n = db->n_slots ? db->n_slots * 2 : 256;
    size_t *slots = tokio__calloc(n, sizeof(*slots));
    if (slots == NULL)
        return -1;
    free(db->slots);
    db->slots = slots;
    db->n_slots = n;
    for (size_t r = 0; r < db->n_recs; r++)
        *find_slot(db, db->recs[r].id) = r + 1;
    return 0;
}

/* The field `key` of record `r`, or NULL. */
static const struct field *
rec_field(const struct tokio_craysdb *db, const struct record *r, size_t key)
{
    for (size_t i = 0; i < r->n; i++)
        if (db->fields[r->first + i].key == key)
            return &db->fields[r->first + i];
    return NULL;
}

/* The record of processor `id`, or NULL. */
static const struct record *
find_rec(const struct tokio_craysdb *db, int64_t id)
{
    if (db->n_slots == 0)
        return NULL;
    size_t r = *find_slot(db, id);
    return r ? &db->recs[r - 1] : NULL;
}

/* Start a record (its fields come next); -1 when out of memory. */
static int
rec_begin(struct tokio_craysdb *db)
{
    if (grow(&db->recs, &db->cap_recs, db->n_recs, sizeof(*db->recs)) < 0)
        return -1;
    db->recs[db->n_recs].first = db->n_fields;
    db->recs[db->n_recs].n = 0;
    db->recs[db->n_recs].id = 0;
    return 0;
}

/* A new field of the record being built; NULL when out of memory. */
static struct field *
field_add(struct tokio_craysdb *db, size_t key)
{
    if (grow(&db->fields, &db->cap_fields, db->n_fields,
             sizeof(*db->fields)) < 0)
        return NULL;
    struct field *f = &db->fields[db->n_fields++];
    f->key = key;
    f->kind = V_NULL;
    f->i = 0;
    f->off = f->len = 0;
    db->recs[db->n_recs].n++;
    return f;
}

/*
 * End the record being built: it needs an integer processor_id not seen
 * before.  Returns 0, or a message's text via *why (EFORMAT) and 1, or
 * -1 when out of memory.
 */
static int
rec_end(struct tokio_craysdb *db, const char **why)
{
    struct record *r = &db->recs[db->n_recs];
    const struct field *id = db->id_key == (size_t)-1
                                 ? NULL : rec_field(db, r, db->id_key);

    if (id == NULL || id->kind != V_INT) {
        *why = id == NULL ? "no processor_id"
                          : "processor_id is not an integer";
        return 1;
    }
    r->id = id->i;
    if (grow_slots(db) < 0)
        return -1;
    size_t *slot = find_slot(db, r->id);
    if (*slot != 0) {
        *why = NULL;        /* repeated */
        return 1;
    }
    *slot = ++db->n_recs;
    return 0;
}



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
 * The value of one field into `f`, as the reference's load_str():
 * surrounding whitespace, then any surrounding quote characters removed
 * (so 'null' and '5' lose their quotes and their type too); null, an
 * integer, or the remaining text.  -1 when out of memory.
 */
static int
parse_value(struct tokio_craysdb *db, struct field *f, const char *s,
            size_t len)
{
    while (len > 0 && tokio__py_space((unsigned char)*s))
        s++, len--;
    while (len > 0 && tokio__py_space((unsigned char)s[len - 1]))
        len--;
    while (len > 0 && (*s == '\'' || *s == '"'))
        s++, len--;
    while (len > 0 && (s[len - 1] == '\'' || s[len - 1] == '"'))
        len--;
    if (len == 4 && memcmp(s, "null", 4) == 0) {
        f->kind = V_NULL;
        return 0;
    }
    if (py_int(s, len, &f->i)) {
        f->kind = V_INT;
        return 0;
    }
    /* the caller checked the whole line is UTF-8; quotes and blanks cut
     * off its ends are ASCII, so what is left still is */
    f->kind = V_TEXT;
    f->len = len;
    return add_text(db, s, len, &f->off);
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
    const struct record *prev;
    size_t field = 0;
    const char *why;

    if (memchr(line, '\0', len) != NULL)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: NUL byte", name,
                            lineno);
    if (!tokio__utf8_valid((const unsigned char *)line, len))
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: invalid UTF-8",
                            name, lineno);
    if (rec_begin(db) < 0)
        goto oom;
    /* after rec_begin(), which may move the records */
    prev = db->n_recs ? &db->recs[db->n_recs - 1] : NULL;
    for (const char *p = line, *end = line + len;; field++) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *stop = comma ? comma : end;
        const char *eq = memchr(p, '=', (size_t)(stop - p));

        if (eq == NULL)
            return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: field %zu "
                                "('%.*s') is not key=value", name, lineno,
                                field + 1,
                                (int)(stop - p > 40 ? 40 : stop - p), p);
        /* keys are taken as they are: the reference did not strip them */
        size_t guess = prev && field < prev->n
                           ? db->fields[prev->first + field].key
                           : (size_t)-1;
        size_t k = intern(db, p, (size_t)(eq - p), guess);
        if (k == (size_t)-1)
            goto oom;
        if (db->keys[k].seen == db->n_recs + 1)
            return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: key '%.*s' "
                                "repeated", name, lineno, (int)(eq - p), p);
        db->keys[k].seen = db->n_recs + 1;
        struct field *f = field_add(db, k);
        if (f == NULL ||
            parse_value(db, f, eq + 1, (size_t)(stop - eq - 1)) < 0)
            goto oom;
        if (comma == NULL)
            break;
        p = comma + 1;
    }
    switch (rec_end(db, &why)) {
    case 0:
        return TOKIO_OK;
    case 1:
        if (why != NULL)
            return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s", name,
                                lineno, why);
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: processor_id %"
                            PRId64 " repeated", name, lineno,
                            db->recs[db->n_recs].id);
    default:
        break;
    }
oom:
    return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
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

    *out = db;
    if (db == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    db->id_key = (size_t)-1;
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
    json_t *json;
    int rc = tokio__json_parse_named(&json, text, len,
                                     JSON_REJECT_DUPLICATES, name);

    if (rc < 0)
        return rc;
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
    return db->n_recs;
}

/* Record `r` as a new JSON object; NULL when out of memory. */
static json_t *
rec_json(const struct tokio_craysdb *db, const struct record *r)
{
    json_t *obj = json_object();

    for (size_t i = 0; i < r->n && obj != NULL; i++) {
        const struct field *f = &db->fields[r->first + i];
        json_t *v = f->kind == V_INT ? json_integer(f->i)
                    : f->kind == V_TEXT
                        ? json_stringn_nocheck(db->text + f->off, f->len)
                        : json_null();
        if (v == NULL || json_object_setn_new_nocheck(
                             obj, key_name(db, f->key),
                             db->keys[f->key].len, v) < 0) {
            json_decref(obj);
            obj = NULL;
        }
    }
    return obj;
}

json_t *
tokio_craysdb_proc_json(const struct tokio_craysdb *db, int64_t processor_id)
{
    const struct record *r = find_rec(db, processor_id);
    json_t *obj;

    if (r == NULL) {
        tokio__error(TOKIO_ENOTFOUND, "processor %" PRId64 " is not in the "
                     "Cray SDB processor table", processor_id);
        return NULL;
    }
    if ((obj = rec_json(db, r)) == NULL)
        tokio__error(TOKIO_ENOMEM, "out of memory");
    return obj;
}

int
tokio_craysdb_coords(const struct tokio_craysdb *db, int64_t processor_id,
                     int64_t xyz_out[3])
{
    static const char *const names[3] = { "x_coord", "y_coord", "z_coord" };
    const struct record *r = find_rec(db, processor_id);

    if (r == NULL)
        return tokio__error(TOKIO_ENOTFOUND, "processor %" PRId64 " is not "
                            "in the Cray SDB processor table", processor_id);
    for (int i = 0; i < 3; i++) {
        size_t k = find_key(db, names[i]);
        const struct field *f = k == (size_t)-1 ? NULL : rec_field(db, r, k);

        if (f == NULL || f->kind != V_INT)
            return tokio__error(TOKIO_EFORMAT, "processor %" PRId64 ": %s is "
                                "%s", processor_id, names[i],
                                f ? "not an integer" : "missing");
        xyz_out[i] = f->i;
    }
    return TOKIO_OK;
}

int
tokio_craysdb_to_json(const struct tokio_craysdb *db, json_t **out)
{
    json_t *all = json_object();
    char id[32];

    for (size_t i = 0; i < db->n_recs && all != NULL; i++) {
        json_t *rec = rec_json(db, &db->recs[i]);
        snprintf(id, sizeof(id), "%" PRId64, db->recs[i].id);
        if (rec == NULL || json_object_set_new_nocheck(all, id, rec) < 0) {
            json_decref(all);
            all = NULL;
        }
    }
    if ((*out = all) == NULL)
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

/* The checked record `rec` into `db`; -1 when out of memory. */
static int
add_json_record(struct tokio_craysdb *db, const json_t *rec)
{
    const struct record *prev;
    const char *k;
    const json_t *v;
    const char *why;
    size_t j = 0;

    if (rec_begin(db) < 0)
        return -1;
    prev = db->n_recs ? &db->recs[db->n_recs - 1] : NULL;
    json_object_foreach((json_t *)rec, k, v) {
        size_t guess = prev && j < prev->n ? db->fields[prev->first + j].key
                                           : (size_t)-1;
        size_t key = intern(db, k, strlen(k), guess);
        j++;
        struct field *f;
        if (key == (size_t)-1 || (f = field_add(db, key)) == NULL)
            return -1;
        if (json_is_integer(v)) {
            f->kind = V_INT;
            f->i = (int64_t)json_integer_value(v);
        } else if (json_is_string(v)) {
            f->kind = V_TEXT;
            f->len = json_string_length(v);
            if (add_text(db, json_string_value(v), f->len, &f->off) < 0)
                return -1;
        }
    }
    /* keys are distinct and ids were checked: only memory can fail */
    return rec_end(db, &why) == 0 ? 0 : -1;
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
    json_object_foreach((json_t *)json, key, rec) {
        if (add_json_record(db, rec) < 0) {
            tokio_craysdb_free(db);
            return tokio__error(TOKIO_ENOMEM, "out of memory");
        }
    }
    *out = db;
    return TOKIO_OK;
}

int
tokio_craysdb_write(const struct tokio_craysdb *db, FILE *fp)
{
    const struct record *first = db->n_recs ? &db->recs[0] : NULL;

    /* the reference wrote every record with the first record's keys */
    for (size_t r = 0; r < db->n_recs; r++) {
        for (size_t i = 0; i < first->n; i++) {
            size_t key = db->fields[first->first + i].key;
            const struct field *f = rec_field(db, &db->recs[r], key);

            if (f == NULL)
                return tokio__error(TOKIO_EFORMAT, "Cray SDB record %" PRId64
                                    " lacks key '%s' that the first record "
                                    "has", db->recs[r].id, key_name(db, key));
            if (i)
                fputc(',', fp);
            if (f->kind == V_INT)
                fprintf(fp, "%s=%" PRId64, key_name(db, key), f->i);
            else if (f->kind == V_TEXT)
                fprintf(fp, "%s='%s'", key_name(db, key), db->text + f->off);
            else
                fprintf(fp, "%s=null", key_name(db, key));
        }
        fputc('\n', fp);
    }
    if (ferror(fp))
        return tokio__error(TOKIO_EIO, "cannot write the Cray SDB table");
    return TOKIO_OK;
}

int
tokio_craysdb_write_csv(const struct tokio_craysdb *db, FILE *fp)
{
    /* the columns: every key in order of first appearance, which is the
     * order they were kept in */
    for (size_t k = 0; k < db->n_keys; k++) {
        if (k)
            fputc(',', fp);
        tokio_csv_write_field(fp, key_name(db, k), db->keys[k].len);
    }
    fputc('\n', fp);
    for (size_t r = 0; r < db->n_recs; r++) {
        for (size_t k = 0; k < db->n_keys; k++) {
            const struct field *f = rec_field(db, &db->recs[r], k);
            if (k)
                fputc(',', fp);
            if (f != NULL && f->kind == V_INT)
                fprintf(fp, "%" PRId64, f->i);
            else if (f != NULL && f->kind == V_TEXT)
                tokio_csv_write_field(fp, db->text + f->off, f->len);
        }
        fputc('\n', fp);
    }
    if (ferror(fp))
        return tokio__error(TOKIO_EIO, "cannot write CSV");
    return TOKIO_OK;
}

void
tokio_craysdb_free(struct tokio_craysdb *db)
{
    if (db == NULL)
        return;
    free(db->text);
    free(db->keys);
    free(db->fields);
    free(db->recs);
    free(db->slots);
    free(db);
}
