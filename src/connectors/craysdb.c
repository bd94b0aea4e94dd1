/*
 * src/connectors/craysdb.c - the Cray SDB processor table as printed by
 * `xtdb2proc -f -` (CLE 5/6): '#' comment lines, then one line per
 * processor of comma-separated key=value fields where strings are quoted
 * ('up') and absent values are null.  Mirrors
 * tokio.connectors.craysdb.CraySdbProc (pytokio 0.13): parsing as its
 * load_str(), writing back as its __repr__()/save_cache().
 *
 * The table is typed, not a jansson tree: records in input order, each a
 * run of values (null, an integer or text) in one array and a list of
 * their keys; keys are kept once each, in order of first appearance (the
 * CSV's columns).  Every line of real output has the same keys in the
 * same order, so a record's key list equal to the one before is kept
 * once, and a line is read in one pass: each key is first matched where
 * the line before had it, each value scanned as it is read (integers and
 * null without a copy), text equal to the line before's under the same
 * key shared; only new text is checked for UTF-8.  Text is in one pool
 * addressed by offset; an index by processor_id finds records and
 * repeated ids.  Input streams line by line (gzip inflated ahead in a
 * second thread, see input.c); JSON is built, or written straight, only
 * when asked for.
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
#define NO_KEY ((size_t)-1)

enum kind { V_NULL, V_INT, V_TEXT };

/* A value; its key is in the record's key list, at the same place. */
struct field {
    union {
        int64_t i;          /* V_INT */
        size_t off;         /* V_TEXT: in db->text */
    } v;
    uint32_t len;           /* V_TEXT (a line is at most 256 MiB) */
    uint8_t kind;
};

struct record {
    int64_t id;
    size_t first;           /* its values in db->fields */
    size_t keys;            /* its key list in db->order */
    size_t n;               /* number of both */
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
    uint32_t *order;        /* key lists: indexes in keys[] */
    size_t n_order, cap_order;
    struct field *fields;
    size_t n_fields, cap_fields;
    struct record *recs;
    size_t n_recs, cap_recs;
    size_t *slots;          /* record index + 1 by processor_id hash */
    size_t n_slots;
    size_t id_key;          /* index of "processor_id", or NO_KEY */
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

/* 1 if key `k` is `s` (`len` bytes). */
static int
key_is(const struct tokio_craysdb *db, size_t k, const char *s, size_t len)
{
    return db->keys[k].len == len && memcmp(key_name(db, k), s, len) == 0;
}

/* The index of key `s` (`len` bytes), added when new; NO_KEY when out of
 * memory or when the table already has UINT32_MAX keys. */
static size_t
intern(struct tokio_craysdb *db, const char *s, size_t len)
{
    size_t k;

    for (k = 0; k < db->n_keys; k++)
        if (key_is(db, k, s, len))
            return k;
    if (db->n_keys == UINT32_MAX ||
        grow(&db->keys, &db->cap_keys, db->n_keys, sizeof(*db->keys)) < 0 ||
        add_text(db, s, len, &db->keys[db->n_keys].off) < 0)
        return NO_KEY;
    db->keys[db->n_keys].len = len;
    db->keys[db->n_keys].seen = 0;
    if (key_is(db, db->n_keys, PROCESSOR_ID_KEY,
               sizeof(PROCESSOR_ID_KEY) - 1))
        db->id_key = db->n_keys;
    return db->n_keys++;
}

/* The key of a given name, or NO_KEY. */
static size_t
find_key(const struct tokio_craysdb *db, const char *name)
{
    for (size_t k = 0; k < db->n_keys; k++)
        if (strcmp(key_name(db, k), name) == 0)
            return k;
    return NO_KEY;
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

/* The value of key `key` in record `r`, or NULL. */
static const struct field *
rec_field(const struct tokio_craysdb *db, const struct record *r, size_t key)
{
    for (size_t i = 0; i < r->n; i++)
        if (db->order[r->keys + i] == key)
            return &db->fields[r->first + i];
    return NULL;
}

/* As rec_field(), looking first at place `i`, where keys of a record
 * like the others are. */
static const struct field *
rec_field_at(const struct tokio_craysdb *db, const struct record *r,
             size_t i, size_t key)
{
    if (i < r->n && db->order[r->keys + i] == key)
        return &db->fields[r->first + i];
    return rec_field(db, r, key);
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
    db->recs[db->n_recs].keys = db->n_order;
    db->recs[db->n_recs].n = 0;
    db->recs[db->n_recs].id = 0;
    return 0;
}

/* A new value, of key `key`, of the record being built; NULL when out of
 * memory. */
static inline struct field *
field_add(struct tokio_craysdb *db, size_t key)
{
    if ((db->n_fields == db->cap_fields &&
         grow(&db->fields, &db->cap_fields, db->n_fields,
              sizeof(*db->fields)) < 0) ||
        (db->n_order == db->cap_order &&
         grow(&db->order, &db->cap_order, db->n_order,
              sizeof(*db->order)) < 0))
        return NULL;
    db->order[db->n_order++] = (uint32_t)key;
    struct field *f = &db->fields[db->n_fields++];
    f->kind = V_NULL;
    f->len = 0;
    f->v.i = 0;
    db->recs[db->n_recs].n++;
    return f;
}

/* Value `i` of the record before the one being built, if it has key `key`
 * there too; else NULL. */
static inline const struct field *
field_before(const struct tokio_craysdb *db, size_t i, size_t key)
{
    const struct record *prev = db->n_recs ? &db->recs[db->n_recs - 1]
                                           : NULL;

    if (prev == NULL || i >= prev->n || db->order[prev->keys + i] != key)
        return NULL;
    return &db->fields[prev->first + i];
}

/*
 * End the record being built: it needs an integer processor_id not seen
 * before.  Every record of real output has the same keys in the same
 * order: a key list equal to the record before's is kept once.  Returns
 * 0, or a message's text via *why (EFORMAT) and 1, or -1 when out of
 * memory.
 */
static int
rec_end(struct tokio_craysdb *db, const char **why)
{
    struct record *r = &db->recs[db->n_recs];
    const struct field *id = db->id_key == NO_KEY
                                 ? NULL : rec_field(db, r, db->id_key);

    if (id == NULL || id->kind != V_INT) {
        *why = id == NULL ? "no processor_id"
                          : "processor_id is not an integer";
        return 1;
    }
    r->id = id->v.i;
    if (grow_slots(db) < 0)
        return -1;
    size_t *slot = find_slot(db, r->id);
    if (*slot != 0) {
        *why = NULL;        /* repeated */
        return 1;
    }
    if (db->n_recs > 0) {
        const struct record *prev = r - 1;
        if (prev->n == r->n &&
            memcmp(db->order + prev->keys, db->order + r->keys,
                   r->n * sizeof(*db->order)) == 0) {
            db->n_order = r->keys;
            r->keys = prev->keys;
        }
    }
    *slot = ++db->n_recs;
    return 0;
}

/* Text value `s` (`len` bytes) into `f`: the copy of the record before
 * when it has the same text under the same key (a status, a type), else
 * a new one, which with `check` must be UTF-8 without NUL.  -1 when out
 * of memory, 1 when the text is not valid. */
static int
set_text(struct tokio_craysdb *db, struct field *f, const char *s,
         size_t len, const struct field *before, int check)
{
    f->kind = V_TEXT;
    f->len = (uint32_t)len;
    if (before != NULL && before->kind == V_TEXT && before->len == len &&
        memcmp(db->text + before->v.off, s, len) == 0) {
        f->v.off = before->v.off;
        return 0;
    }
    if (check && !tokio__text_valid(s, len))
        return 1;
    return add_text(db, s, len, &f->v.off);
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
 * integer, or the remaining text.  -1 when out of memory, 1 when the text
 * is not UTF-8 without NUL.
 */
static int
parse_value(struct tokio_craysdb *db, struct field *f, const char *s,
            size_t len, const struct field *before)
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
    if (py_int(s, len, &f->v.i)) {
        f->kind = V_INT;
        return 0;
    }
    /* quotes, blanks and digits are ASCII: only the text left needs
     * checking */
    return set_text(db, f, s, len, before, 1);
}

/*
 * The value that starts at `s` and runs to the next ',' or `end`, into
 * `f`; returns where it stops (that ',' or `end`), NULL when out of
 * memory (*bad_text 0) or when the text is not valid (*bad_text 1).
 * Plain integers and null, most of a line, are read as they are scanned;
 * anything else as parse_value() says.
 */
static const char *
scan_value(struct tokio_craysdb *db, struct field *f, const char *s,
           const char *end, const struct field *before, int *bad_text)
{
    int rc;

    const char *p = s + (s < end && *s == '-'), *digits = p;
    uint64_t v = 0;

    /* up to 18 digits cannot overflow */
    while (p < end && *p >= '0' && *p <= '9' && p - digits < 18)
        v = v * 10 + (uint64_t)(*p++ - '0');
    if (p > digits && (p == end || *p == ',')) {
        f->kind = V_INT;
        f->v.i = *s == '-' ? -(int64_t)v : (int64_t)v;
        return p;
    }
    if (end - s >= 4 && memcmp(s, "null", 4) == 0 &&
        (end - s == 4 || s[4] == ',')) {
        f->kind = V_NULL;
        return s + 4;
    }
    p = memchr(s, ',', (size_t)(end - s));
    if (p == NULL)
        p = end;
    rc = parse_value(db, f, s, (size_t)(p - s), before);
    *bad_text = rc > 0;
    return rc == 0 ? p : NULL;
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

/* The error for a line that is not UTF-8 without NUL, told before any
 * other; 0 when it is. */
static int
text_error(const char *line, size_t len, const char *name, size_t lineno)
{
    if (tokio__text_valid(line, len))
        return 0;
    return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s", name, lineno,
                        memchr(line, '\0', len) ? "NUL byte"
                                                : "invalid UTF-8");
}

/*
 * Parse one record line into `db`, in one pass: each key is first looked
 * for where the line before had it (every line of real output has the
 * same keys in the same order), each value scanned as it is read.  Only
 * new text is checked for UTF-8 (keys matched, digits and separators are
 * ASCII), and any error is first checked to be one of the line's text.
 * `name` and `lineno` say where, for messages.
 */
static int
parse_line(struct tokio_craysdb *db, const char *line, size_t len,
           const char *name, size_t lineno)
{
    const char *end = line + len, *p = line;
    const char *why;
    int rc, bad_text = 0;
    /* the record before: its key list (which does not move while this
     * line is read) and values */
    size_t prev_keys = 0, prev_first = 0, prev_n = 0;

    if (db->n_recs > 0) {
        prev_keys = db->recs[db->n_recs - 1].keys;
        prev_first = db->recs[db->n_recs - 1].first;
        prev_n = db->recs[db->n_recs - 1].n;
    }
    if (rec_begin(db) < 0)
        goto oom;
    for (size_t field = 0;; field++) {
        size_t k = field < prev_n ? db->order[prev_keys + field] : NO_KEY;
        const struct field *before = NULL;
        const char *v;

        /* a key holds no ',' or '=': if it matches up to an '=', that is
         * this field's first '=' */
        if (k != NO_KEY && (size_t)(end - p) > db->keys[k].len &&
            p[db->keys[k].len] == '=' &&
            memcmp(p, key_name(db, k), db->keys[k].len) == 0) {
            v = p + db->keys[k].len + 1;
        } else {
            const char *stop = memchr(p, ',', (size_t)(end - p));
            const char *eq;
            if (stop == NULL)
                stop = end;
            if ((eq = memchr(p, '=', (size_t)(stop - p))) == NULL) {
                if ((rc = text_error(line, len, name, lineno)) < 0)
                    return rc;
                return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: field %zu "
                                    "('%.*s') is not key=value", name,
                                    lineno, field + 1,
                                    (int)(stop - p > 40 ? 40 : stop - p), p);
            }
            if (!tokio__text_valid(p, (size_t)(eq - p)))
                return text_error(line, len, name, lineno);
            /* keys are taken as they are: the reference did not strip
             * them */
            if ((k = intern(db, p, (size_t)(eq - p))) == NO_KEY)
                goto oom;
            v = eq + 1;
        }
        if (db->keys[k].seen == db->n_recs + 1) {
            if ((rc = text_error(line, len, name, lineno)) < 0)
                return rc;
            return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: key '%s' "
                                "repeated", name, lineno, key_name(db, k));
        }
        db->keys[k].seen = db->n_recs + 1;
        struct field *f = field_add(db, k);
        if (f == NULL)
            goto oom;
        if (field < prev_n && db->order[prev_keys + field] == k)
            before = &db->fields[prev_first + field];
        p = scan_value(db, f, v, end, before, &bad_text);
        if (p == NULL && bad_text)
            return text_error(line, len, name, lineno);
        if (p == NULL)
            goto oom;
        if (p == end)
            break;
        p++;
    }
    switch (rec_end(db, &why)) {
    case 0:
        return TOKIO_OK;
    case 1:
        if ((rc = text_error(line, len, name, lineno)) < 0)
            return rc;
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
new_db(struct tokio_craysdb **out)
{
    struct tokio_craysdb *db = tokio__calloc(1, sizeof(*db));

    *out = db;
    if (db == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    db->id_key = NO_KEY;
    return TOKIO_OK;
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

/* The JSON form: `head` (`head_len` bytes: the lines already read, each
 * ended by "\n") and the rest of `in`, as one text (so messages count
 * lines right). */
static int
read_json(struct tokio_craysdb **out, struct tokio_input *in,
          const char *head, size_t head_len)
{
    const char *name = tokio_input_name(in);
    unsigned char *rest = NULL;
    size_t rest_len = 0;
    char *all;
    int rc;

    if ((rc = tokio_input_read_all(in, 0, &rest, &rest_len)) < 0)
        return rc;
    if ((all = tokio__malloc(head_len + rest_len + 1)) == NULL) {
        free(rest);
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                            name);
    }
    memcpy(all, head, head_len);
    memcpy(all + head_len, rest, rest_len);
    all[head_len + rest_len] = '\0';
    free(rest);
    rc = load_json(out, all, head_len + rest_len, name);
    free(all);
    return rc;
}

/* Append `len` bytes and a "\n" to the growing text `*buf`. */
static int
keep_line(char **buf, size_t *used, const char *line, size_t len)
{
    char *b = tokio__realloc(*buf, *used + len + 1);

    if (b == NULL)
        return -1;
    memcpy(b + *used, line, len);
    b[*used + len] = '\n';
    *buf = b;
    *used += len + 1;
    return 0;
}

/*
 * Read `in` into a new table: xtdb2proc text line by line as it streams,
 * or the JSON form (what tokio_craysdb_to_json() gives: its first
 * non-blank character is a '{', which xtdb2proc text never has) whole.
 * `*out` stays NULL on failure.
 */
static int
load(struct tokio_craysdb **out, struct tokio_input *in)
{
    const char *name = tokio_input_name(in);
    struct tokio_craysdb *db = NULL;
    char *head = NULL;          /* leading blank lines, for the JSON form */
    size_t head_len = 0, i = 0;
    const char *line;
    size_t len;
    int rc;

    while ((rc = tokio_input_getline(in, &line, &len)) == TOKIO_OK &&
           line != NULL && blank_line(line, len))
        if (keep_line(&head, &head_len, line, len) < 0) {
            free(head);
            return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                                name);
        }
    while (rc == TOKIO_OK && line != NULL && i < len &&
           tokio__py_space((unsigned char)line[i]))
        i++;
    if (rc == TOKIO_OK && line != NULL && i < len && line[i] == '{') {
        if (keep_line(&head, &head_len, line, len) < 0)
            rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                              name);
        else
            rc = read_json(out, in, head, head_len);
        free(head);
        return rc;
    }
    free(head);
    if (rc == TOKIO_OK)
        rc = new_db(&db);
    while (rc == TOKIO_OK && line != NULL) {
        /* only a '#' in the first column starts a comment, as there */
        if (!(len > 0 && line[0] == '#') && !blank_line(line, len))
            rc = parse_line(db, line, len, name, tokio_input_lineno(in));
        if (rc == TOKIO_OK)
            rc = tokio_input_getline(in, &line, &len);
    }
    if (rc < 0) {
        tokio_craysdb_free(db);     /* no half-built table */
        return rc;
    }
    *out = db;
    return TOKIO_OK;
}

int
tokio_craysdb_open(struct tokio_craysdb **out, const char *path)
{
    struct tokio_input *in = NULL;
    int rc;

    *out = NULL;
    if ((rc = tokio_input_open(&in, path)) < 0)
        return rc;
    rc = load(out, in);
    tokio_input_close(in);
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
        size_t k = db->order[r->keys + i];
        json_t *v = f->kind == V_INT ? json_integer(f->v.i)
                    : f->kind == V_TEXT
                        ? json_stringn_nocheck(db->text + f->v.off, f->len)
                        : json_null();
        if (v == NULL || json_object_setn_new_nocheck(
                             obj, key_name(db, k), db->keys[k].len, v) < 0) {
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
        const struct field *f = k == NO_KEY ? NULL : rec_field(db, r, k);

        if (f == NULL || f->kind != V_INT)
            return tokio__error(TOKIO_EFORMAT, "processor %" PRId64 ": %s is "
                                "%s", processor_id, names[i],
                                f ? "not an integer" : "missing");
        xyz_out[i] = f->v.i;
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

/* A record's processor_id, for sorting, and the record. */
struct id_rec {
    int64_t id;
    size_t rec;
};

/* Sorted as numbers, as Python's json.dumps(sort_keys=True) sorts the
 * reference's int keys (-3, 9, 10, 100, not "-3", "10", "100", "9"). */
static int
cmp_id(const void *a, const void *b)
{
    const struct id_rec *x = a, *y = b;

    return (x->id > y->id) - (x->id < y->id);
}

/* A key by name, for ranking keys in the order of sorted JSON keys. */
struct key_name {
    const char *s;
    size_t k;
};

static int
cmp_key_name(const void *a, const void *b)
{
    return strcmp(((const struct key_name *)a)->s,
                  ((const struct key_name *)b)->s);
}

/* A place in a key list and the rank of its key. */
struct place {
    size_t rank, i;
};

static int
cmp_place(const void *a, const void *b)
{
    const struct place *x = a, *y = b;

    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Record `r` into `js`, members in the order of `places` (r->n). */
static void
rec_stream(const struct tokio_craysdb *db, const struct record *r,
           const struct place *places, struct tokio__jstream *js)
{
    tokio__jstream_begin(js);
    for (size_t j = 0; j < r->n; j++) {
        size_t i = places[j].i, k = db->order[r->keys + i];
        const struct field *f = &db->fields[r->first + i];

        tokio__jstream_key(js, key_name(db, k), db->keys[k].len);
        if (f->kind == V_INT)
            tokio__jstream_int(js, f->v.i);
        else if (f->kind == V_TEXT)
            tokio__jstream_string(js, db->text + f->v.off, f->len);
        else
            tokio__jstream_value(js, json_null());
    }
    tokio__jstream_end(js);
}

int
tokio_craysdb_write_json(const struct tokio_craysdb *db, FILE *fp,
                         unsigned flags)
{
    const int sort = (flags & TOKIO_JSON_SORT_KEYS) != 0;
    struct id_rec *ids = tokio__calloc(db->n_recs + 1, sizeof(*ids));
    struct key_name *names = tokio__calloc(db->n_keys + 1, sizeof(*names));
    size_t *rank = tokio__calloc(db->n_keys + 1, sizeof(*rank));
    struct place *places = NULL;
    size_t most = 0, sorted_for = SIZE_MAX;
    struct tokio__jstream *js = NULL;
    int rc;

    for (size_t r = 0; r < db->n_recs; r++)
        most = db->recs[r].n > most ? db->recs[r].n : most;
    places = tokio__calloc(most + 1, sizeof(*places));
    if (ids == NULL || names == NULL || rank == NULL || places == NULL ||
        (js = tokio__jstream_open(fp, flags)) == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory writing JSON");
        goto out;
    }
    /* each key's rank among the keys sorted by name */
    for (size_t k = 0; k < db->n_keys; k++) {
        names[k].s = key_name(db, k);
        names[k].k = k;
    }
    if (sort)
        qsort(names, db->n_keys, sizeof(*names), cmp_key_name);
    for (size_t k = 0; k < db->n_keys; k++)
        rank[names[k].k] = k;
    for (size_t r = 0; r < db->n_recs; r++) {
        ids[r].id = db->recs[r].id;
        ids[r].rec = r;
    }
    if (sort)
        qsort(ids, db->n_recs, sizeof(*ids), cmp_id);
    tokio__jstream_begin(js);
    for (size_t j = 0; j < db->n_recs; j++) {
        const struct record *r = &db->recs[ids[j].rec];

        /* records mostly share one key list: sorted once for them */
        if (r->keys != sorted_for) {
            for (size_t i = 0; i < r->n; i++) {
                places[i].i = i;
                places[i].rank = sort ? rank[db->order[r->keys + i]] : i;
            }
            qsort(places, r->n, sizeof(*places), cmp_place);
            sorted_for = r->keys;
        }
        char key[24];
        int len = snprintf(key, sizeof(key), "%" PRId64, ids[j].id);
        tokio__jstream_key(js, key, (size_t)len);
        rec_stream(db, r, places, js);
    }
    tokio__jstream_end(js);
    rc = TOKIO_OK;
out:
    if (js != NULL) {
        int wrc = tokio__jstream_close(js);
        if (rc == TOKIO_OK)
            rc = wrc;
    }
    free(ids);
    free(names);
    free(rank);
    free(places);
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
    json_object_foreach((json_t *)rec, k, v) {
        if (!json_is_integer(v) && !json_is_string(v) && !json_is_null(v))
            return tokio__error(TOKIO_EFORMAT, "Cray SDB record '%s': '%s' "
                                "is not an integer, string or null", key, k);
        if (json_is_string(v) && json_string_length(v) > UINT32_MAX)
            return tokio__error(TOKIO_EFORMAT, "Cray SDB record '%s': '%s' "
                                "is too long", key, k);
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
    const char *k;
    const json_t *v;
    const char *why;
    size_t j = 0;

    if (rec_begin(db) < 0)
        return -1;
    json_object_foreach((json_t *)rec, k, v) {
        const struct record *prev = db->n_recs ? &db->recs[db->n_recs - 1]
                                               : NULL;
        size_t len = strlen(k);
        size_t key = prev && j < prev->n ? db->order[prev->keys + j] : NO_KEY;
        struct field *f;

        if (key == NO_KEY || !key_is(db, key, k, len))
            key = intern(db, k, len);
        if (key == NO_KEY || (f = field_add(db, key)) == NULL)
            return -1;
        if (json_is_integer(v)) {
            f->kind = V_INT;
            f->v.i = (int64_t)json_integer_value(v);
        } else if (json_is_string(v) &&
                   set_text(db, f, json_string_value(v),
                            json_string_length(v),
                            field_before(db, j, key), 0) < 0) {
            return -1;
        }
        j++;
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
            size_t key = db->order[first->keys + i];
            const struct field *f = rec_field_at(db, &db->recs[r], i, key);

            if (f == NULL)
                return tokio__error(TOKIO_EFORMAT, "Cray SDB record %" PRId64
                                    " lacks key '%s' that the first record "
                                    "has", db->recs[r].id, key_name(db, key));
            if (i)
                fputc(',', fp);
            if (f->kind == V_INT)
                fprintf(fp, "%s=%" PRId64, key_name(db, key), f->v.i);
            else if (f->kind == V_TEXT)
                fprintf(fp, "%s='%s'", key_name(db, key),
                        db->text + f->v.off);
            else
                fprintf(fp, "%s=null", key_name(db, key));
        }
        fputc('\n', fp);
    }
    return tokio__write_check(fp, "cannot write the Cray SDB table");
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
            const struct field *f = rec_field_at(db, &db->recs[r], k, k);
            if (k)
                fputc(',', fp);
            if (f != NULL && f->kind == V_INT)
                fprintf(fp, "%" PRId64, f->v.i);
            else if (f != NULL && f->kind == V_TEXT)
                tokio_csv_write_field(fp, db->text + f->v.off, f->len);
        }
        fputc('\n', fp);
    }
    return tokio__write_check(fp, "cannot write the Cray SDB CSV");
}

void
tokio_craysdb_free(struct tokio_craysdb *db)
{
    if (db == NULL)
        return;
    free(db->text);
    free(db->keys);
    free(db->order);
    free(db->fields);
    free(db->recs);
    free(db->slots);
    free(db);
}
