/*
 * src/connectors/nersc_lfsstate.c - NERSC's BEGIN-separated histories of
 * `lfs df` and `lctl dl -t` (osts.txt, ost-map.txt), as
 * tokio.connectors.nersc_lfsstate of pytokio 0.13 (NerscLfsOstFullness,
 * NerscLfsOstMap): the reference's dict of snapshots by epoch, as an
 * array in timestamp order.  The lines between two BEGIN lines make one
 * lfshealth.c snapshot, as the reference builds on its lfshealth.
 *
 * Why a snapshot is kept as read (its lines, or its JSON form) and parsed
 * only when asked for: cache-lfsstatus reads a whole history to summarize
 * one snapshot, and building every snapshot's tree took 8.3 s of CPU (and
 * 2.7 GB) on the 214 MB history bench/bench-lfs.sh makes, where the
 * reference takes 11 s; checking each line as the history is read (errors
 * name file and line as before) and parsing one snapshot takes 1.1 s.
 *
 * Differs from pytokio:
 * - NerscLfsOstMap never stored the last BEGIN block of a file (it stored
 *   a block only when the next BEGIN came); we keep every block, so
 *   sample_ost-map.txt.gz has 70 snapshots, not 69.  A map block with no
 *   line at all is kept too (empty), as fullness blocks always were.
 * - a target line before the first BEGIN is TOKIO_EFORMAT; the reference
 *   crashed (fullness) or stored it under the key None (map).
 *
 * Tests: pytokio-inputs/sample_ost-fullness.txt.gz and sample_ost-map.txt.gz
 * with goldens in golden/pytokio/nersc_lfsstate/;
 * tests/connectors/nersc_lfsstate_{fullness,map}/.
 */
#define _GNU_SOURCE     /* memmem() */
#include "tokio/connectors/nersc_lfsstate.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "connectors/registry.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/text.h"

struct entry {
    int64_t ts;
    char *text;                 /* the snapshot's lines (NUL-ended), */
    size_t len;
    json_t *json;               /* or its JSON form */
};

struct tokio_nersc_lfsstate {
    enum tokio_nersc_lfsstate_kind kind;
    struct entry *e;            /* by timestamp, each once */
    size_t n, cap;
};

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading a Lustre "
                        "health history");
}

/* The snapshots' connector: lfshealth.c's. */
static const struct tokio__connector *
snaps(const struct tokio_nersc_lfsstate *s)
{
    return s->kind == TOKIO_NERSC_LFSSTATE_FULLNESS
               ? &tokio__lfshealth_fullness_connector
               : &tokio__lfshealth_map_connector;
}

/* Parse snapshot `i`, of a history of `kind`, into a new lfshealth handle
 * (its lines were checked when they were read: only memory can fail). */
static int
snapshot(const struct tokio_nersc_lfsstate *s, size_t i,
         enum tokio_nersc_lfsstate_kind kind, void **out)
{
    int rc;

    *out = NULL;
    if (i >= s->n || s->kind != kind)
        return tokio__error(TOKIO_EINVAL, "no %s snapshot %zu in a history "
                            "of %zu", kind == TOKIO_NERSC_LFSSTATE_MAP
                            ? "OST map" : "fullness", i, s->n);
    if (s->e[i].json != NULL)
        return tokio__connector_from_json(snaps(s), out, s->e[i].json);
    if ((rc = snaps(s)->new(out)) >= 0 &&
        (rc = snaps(s)->add_text(*out, s->e[i].text, s->e[i].len,
                                 "history")) < 0) {
        snaps(s)->free(*out);
        *out = NULL;
    }
    return rc;
}

/* The entry of `ts`, emptied, or a new one in its place: a repeated
 * timestamp keeps the later snapshot, as a Python dict assignment; NULL
 * when out of memory. */
static struct entry *
entry_at(struct tokio_nersc_lfsstate *s, int64_t ts)
{
    size_t lo = 0, hi = s->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->e[mid].ts < ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->n && s->e[lo].ts == ts) {
        free(s->e[lo].text);
        json_decref(s->e[lo].json);
    } else {
        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 64;
            struct entry *p = tokio__reallocarray(s->e, cap, sizeof(*p));
            if (p == NULL)
                return NULL;
            s->e = p;
            s->cap = cap;
        }
        memmove(s->e + lo + 1, s->e + lo, (s->n - lo) * sizeof(*s->e));
        s->n++;
    }
    s->e[lo] = (struct entry){ .ts = ts };
    return &s->e[lo];
}

/* The lines from `start` to `stop` as the snapshot of `e`. */
static int
keep_lines(struct entry *e, const char *start, const char *stop)
{
    e->len = (size_t)(stop - start);
    if ((e->text = tokio__malloc(e->len + 1)) == NULL)
        return oom();
    memcpy(e->text, start, e->len);
    e->text[e->len] = '\0';
    return TOKIO_OK;
}

/* The epoch of a BEGIN line: the reference's int(line.split()[1]). */
static int
begin_epoch(const char *line, size_t len, int64_t *ts)
{
    size_t i = 0, start;

    while (i < len && !tokio__py_space((unsigned char)line[i]))
        i++;                                /* "BEGIN" (and what sticks) */
    while (i < len && tokio__py_space((unsigned char)line[i]))
        i++;
    start = i;
    while (i < len && !tokio__py_space((unsigned char)line[i]))
        i++;
    return tokio__py_int(line + start, i - start, ts);
}

static int
add_text(void *h, const char *text, size_t len, const char *name)
{
    struct tokio_nersc_lfsstate *s = h;
    const char *p = text, *end = text + len, *block = NULL;
    struct entry *cur = NULL;
    int rc = TOKIO_OK;

    for (size_t lineno = 1; rc >= 0 && p < end; lineno++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        int64_t ts;

        if (n > 0 && p[n - 1] == '\r')
            n--;
        if (n >= 5 && memcmp(p, "BEGIN", 5) == 0) {
            if (!begin_epoch(p, n, &ts))
                rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: expected "
                                  "'BEGIN <epoch>', found '%.*s'", name,
                                  lineno, (int)(n > 60 ? 60 : n), p);
            else if (cur == NULL || (rc = keep_lines(cur, block, p)) >= 0)
                rc = (cur = entry_at(s, ts)) != NULL ? TOKIO_OK : oom();
            block = nl ? nl + 1 : end;
        } else if ((rc = s->kind == TOKIO_NERSC_LFSSTATE_FULLNESS
                       ? tokio_lfshealth_fullness_check_line(p, n, name,
                                                             lineno)
                       : tokio_lfshealth_map_check_line(p, n, name,
                                                        lineno)) > 0 &&
                   cur == NULL) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: target line "
                              "before the first BEGIN line", name, lineno);
        }
        p = nl ? nl + 1 : end;
    }
    if (rc >= 0 && cur != NULL)
        rc = keep_lines(cur, block, end);
    return rc < 0 ? rc : TOKIO_OK;
}

static int
add_json(void *h, const json_t *json)
{
    struct tokio_nersc_lfsstate *s = h;
    const char *key;
    const json_t *v;
    struct entry *e;
    int rc = TOKIO_OK;

    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "JSON: not an object of "
                            "timestamps");
    json_object_foreach((json_t *)json, key, v) {
        int64_t ts;
        void *snap;
        /* keys are "<epoch>": json.dumps made the int keys strings */
        if (!tokio__py_int(key, strlen(key), &ts))
            return tokio__error(TOKIO_EFORMAT, "JSON: key '%.40s' is not an "
                                "epoch", key);
        /* kept as the checked copy lfshealth.c makes of it */
        if ((rc = tokio__connector_from_json(snaps(s), &snap, v)) < 0)
            return rc == TOKIO_ENOMEM ? rc
                                      : tokio__error_prefix("snapshot %s",
                                                            key);
        if ((e = entry_at(s, ts)) == NULL)
            rc = oom();
        else
            rc = snaps(s)->to_json(snap, &e->json);
        snaps(s)->free(snap);
        if (rc < 0)
            return rc;
    }
    return TOKIO_OK;
}

static int
new_history(void **out, enum tokio_nersc_lfsstate_kind kind)
{
    struct tokio_nersc_lfsstate *s = tokio__calloc(1, sizeof(*s));

    if ((*out = s) == NULL)
        return oom();
    s->kind = kind;
    return TOKIO_OK;
}

static int
new_fullness(void **out)
{
    return new_history(out, TOKIO_NERSC_LFSSTATE_FULLNESS);
}

static int
new_map(void **out)
{
    return new_history(out, TOKIO_NERSC_LFSSTATE_MAP);
}

/* The connector of histories of `kind`; NULL (and the message set) for
 * an unknown kind. */
static const struct tokio__connector *
history(enum tokio_nersc_lfsstate_kind kind)
{
    if (kind == TOKIO_NERSC_LFSSTATE_FULLNESS)
        return &tokio__nersc_lfsstate_fullness_connector;
    if (kind == TOKIO_NERSC_LFSSTATE_MAP)
        return &tokio__nersc_lfsstate_map_connector;
    tokio__error(TOKIO_EINVAL, "unknown lfsstate kind %d", (int)kind);
    return NULL;
}

int
tokio_nersc_lfsstate_open(struct tokio_nersc_lfsstate **out,
                          enum tokio_nersc_lfsstate_kind kind,
                          const char *path)
{
    void *h = NULL;
    int rc = history(kind) ? tokio__connector_open(history(kind), &h, path)
                           : TOKIO_EINVAL;

    *out = h;
    return rc;
}

int
tokio_nersc_lfsstate_open_mem(struct tokio_nersc_lfsstate **out,
                              enum tokio_nersc_lfsstate_kind kind,
                              const void *buf, size_t len, const char *name)
{
    void *h = NULL;
    int rc = history(kind) ? tokio__connector_open_mem(history(kind), &h, buf,
                                                       len, name)
                           : TOKIO_EINVAL;

    *out = h;
    return rc;
}

int
tokio_nersc_lfsstate_from_json(struct tokio_nersc_lfsstate **out,
                               enum tokio_nersc_lfsstate_kind kind,
                               const json_t *json)
{
    void *h = NULL;
    int rc = history(kind) ? tokio__connector_from_json(history(kind), &h,
                                                        json)
                           : TOKIO_EINVAL;

    *out = h;
    return rc;
}

size_t
tokio_nersc_lfsstate_count(const struct tokio_nersc_lfsstate *s)
{
    return s->n;
}

int64_t
tokio_nersc_lfsstate_timestamp(const struct tokio_nersc_lfsstate *s,
                               size_t i)
{
    return i < s->n ? s->e[i].ts : 0;
}

int
tokio_nersc_lfsstate_fullness(const struct tokio_nersc_lfsstate *s, size_t i,
                              struct tokio_lfshealth_fullness **out)
{
    void *snap;
    int rc = snapshot(s, i, TOKIO_NERSC_LFSSTATE_FULLNESS, &snap);

    *out = snap;
    return rc;
}

int
tokio_nersc_lfsstate_map(const struct tokio_nersc_lfsstate *s, size_t i,
                         struct tokio_lfshealth_map **out)
{
    void *snap;
    int rc = snapshot(s, i, TOKIO_NERSC_LFSSTATE_MAP, &snap);

    *out = snap;
    return rc;
}

int
tokio_nersc_lfsstate_merge(struct tokio_nersc_lfsstate *dst,
                           struct tokio_nersc_lfsstate *src)
{
    int rc = TOKIO_OK;

    if (src == NULL)
        return TOKIO_OK;
    if (dst->kind != src->kind)
        rc = tokio__error(TOKIO_EINVAL, "cannot merge a fullness history "
                          "with an OST map history");
    for (size_t i = 0; rc >= 0 && i < src->n; i++) {
        struct entry *e = entry_at(dst, src->e[i].ts);
        if (e == NULL) {
            rc = oom();
        } else {
            *e = src->e[i];             /* dst's now */
            src->e[i] = (struct entry){ 0 };
        }
    }
    tokio_nersc_lfsstate_free(src);
    return rc;
}

/* {"<epoch>": each(snapshot)}, by timestamp; `each` makes a new value. */
static int
by_epoch(const struct tokio_nersc_lfsstate *s, json_t **out,
         int (*each)(const void *snap, json_t **out))
{
    json_t *root = json_object();
    int rc = root ? TOKIO_OK : oom();

    for (size_t i = 0; i < s->n && rc >= 0; i++) {
        char key[32];
        json_t *v = NULL;
        void *snap;
        snprintf(key, sizeof(key), "%" PRId64, s->e[i].ts);
        if ((rc = snapshot(s, i, s->kind, &snap)) < 0)
            break;
        if ((rc = each(snap, &v)) >= 0 &&
            json_object_set_new(root, key, v) < 0)
            rc = oom();
        snaps(s)->free(snap);
    }
    if (rc < 0) {
        json_decref(root);
        root = NULL;
    }
    *out = root;
    return rc;
}

int
tokio_nersc_lfsstate_to_json(const struct tokio_nersc_lfsstate *s,
                             json_t **out)
{
    return by_epoch(s, out, snaps(s)->to_json);
}

static int
failovers(const void *m, json_t **out)
{
    return tokio_lfshealth_map_failovers(m, out);
}

int
tokio_nersc_lfsstate_failovers(const struct tokio_nersc_lfsstate *s,
                               json_t **out)
{
    *out = NULL;
    if (s->kind != TOKIO_NERSC_LFSSTATE_MAP)
        return tokio__error(TOKIO_EINVAL, "failovers need an OST map "
                            "(lctl dl -t) history, not fullness");
    return by_epoch(s, out, failovers);
}

int
tokio_nersc_lfsstate_write_native(const struct tokio_nersc_lfsstate *s,
                                  FILE *fp)
{
    int rc = TOKIO_OK;

    for (size_t i = 0; i < s->n && rc >= 0; i++) {
        void *snap;
        fprintf(fp, "BEGIN %" PRId64 "\n", s->e[i].ts);
        if ((rc = snapshot(s, i, s->kind, &snap)) < 0)
            break;
        rc = s->kind == TOKIO_NERSC_LFSSTATE_FULLNESS
                 ? tokio_lfshealth_fullness_write_native(snap, fp)
                 : tokio_lfshealth_map_write_native(snap, fp);
        snaps(s)->free(snap);
    }
    return rc < 0 ? rc : tokio__write_check(fp, "cannot write lfsstate text");
}

void
tokio_nersc_lfsstate_free(struct tokio_nersc_lfsstate *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->e[i].text);
        json_decref(s->e[i].json);
    }
    free(s->e);
    free(s);
}

/* ---- the connector interface (src/core/connector.h) ---- */

/* A history starts with a BEGIN line (the reference's startswith()),
 * maybe after blank lines.  With its snapshots' own marks (lfshealth.c's
 * bids) it bids above those, so that a history is not taken for one
 * snapshot; with the other kind's marks it is the other kind's history;
 * with neither (snapshots without targets) it bids low. */
static int
bid_history(const char *head, size_t n, const struct tokio__connector *own,
            const struct tokio__connector *other)
{
    size_t i = 0;

    while (i < n && head[i] != '\0' && strchr(" \t\r\n", head[i]) != NULL)
        i++;
    if (n - i < 5 || memcmp(head + i, "BEGIN", 5) != 0)
        return 0;
    if (own->bid(head, n) > 0)
        return 80;
    return other->bid(head, n) > 0 ? 0 : 40;
}

static int
bid_fullness(const char *head, size_t n)
{
    return bid_history(head, n, &tokio__lfshealth_fullness_connector,
                       &tokio__lfshealth_map_connector);
}

static int
bid_map(const char *head, size_t n)
{
    return bid_history(head, n, &tokio__lfshealth_map_connector,
                       &tokio__lfshealth_fullness_connector);
}

static int
to_json(const void *h, json_t **out)
{
    return tokio_nersc_lfsstate_to_json(h, out);
}

static void
free_history(void *h) { tokio_nersc_lfsstate_free(h); }

const struct tokio__connector tokio__nersc_lfsstate_fullness_connector = {
    .name = "nersc_lfsstate_fullness",
    .what = "a history of lfs df outputs (BEGIN <epoch> lines) or its "
            "JSON form",
    /* 3 bytes of memory per byte of text; a day of a large file system
     * is some 50 MB */
    .max_bytes = (size_t)1 << 30,
    .bid = bid_fullness,
    .new = new_fullness,
    .add_text = add_text,
    .add_json = add_json,
    .to_json = to_json,
    .free = free_history,
};

const struct tokio__connector tokio__nersc_lfsstate_map_connector = {
    .name = "nersc_lfsstate_map",
    .what = "a history of lctl dl -t outputs (BEGIN <epoch> lines) or "
            "its JSON form",
    .max_bytes = (size_t)1 << 30,
    .bid = bid_map,
    .new = new_map,
    .add_text = add_text,
    .add_json = add_json,
    .to_json = to_json,
    .free = free_history,
};
