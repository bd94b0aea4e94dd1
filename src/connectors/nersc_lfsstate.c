/*
 * src/connectors/nersc_lfsstate.c - NERSC's BEGIN-separated histories of
 * `lfs df` and `lctl dl -t` (osts.txt, ost-map.txt), as
 * tokio.connectors.nersc_lfsstate of pytokio 0.13 (NerscLfsOstFullness,
 * NerscLfsOstMap): the reference's dict of snapshots by epoch, as an
 * array of (epoch, snapshot) in timestamp order.  The lines between two
 * BEGIN lines make one lfshealth.c snapshot, as the reference builds on
 * tokio.connectors.lfshealth.
 *
 * Why a snapshot is kept as read (its lines, or its JSON form) and
 * parsed only when asked for: cache-lfsstatus reads a whole history to
 * summarize one snapshot, and building every snapshot's tree took 8.3 s
 * of CPU (and 2.7 GB) on the 214 MB fullness history bench/bench-lfs.sh
 * makes, where the reference takes 11 s; checking each line when the
 * history is read (errors name file and line as before) and parsing one
 * snapshot takes 1.1 s.
 *
 * Differs from pytokio:
 * - NerscLfsOstMap never stored the last BEGIN block of a file (it stored
 *   a block only when the next BEGIN came); we keep every block, so
 *   sample_ost-map.txt.gz has 70 snapshots, not 69.  A map block with no
 *   line at all is kept too (empty), as fullness blocks always were.
 * - a target line before the first BEGIN is TOKIO_EFORMAT; the reference
 *   crashed (fullness) or stored it under the key None (map).
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/sample_ost-fullness.txt.gz
 * and sample_ost-map.txt.gz, goldens in golden/pytokio/nersc_lfsstate/;
 * our own in tests/connectors/nersc_lfsstate_fullness/ and _map/.
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
    char *text;                 /* the snapshot's lines, NUL-ended, */
    size_t len;
    json_t *json;               /* or its JSON form */
    size_t pos;                 /* order added: the later of a tie wins */
};

struct tokio_nersc_lfsstate {
    enum tokio_nersc_lfsstate_kind kind;
    struct entry *e;
    size_t n, cap;
};

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading a Lustre "
                        "health history");
}

/* The snapshots' connector, lfshealth.c's. */
static const struct tokio__connector *
snap_connector(const struct tokio_nersc_lfsstate *s)
{
    return s->kind == TOKIO_NERSC_LFSSTATE_FULLNESS
               ? &tokio__lfshealth_fullness_connector
               : &tokio__lfshealth_map_connector;
}

/* Parse snapshot `i` into a new lfshealth handle. */
static int
snapshot(const struct tokio_nersc_lfsstate *s, size_t i, void **out)
{
    const struct tokio__connector *c = snap_connector(s);
    const struct entry *e = &s->e[i];
    int rc;

    if (e->json != NULL)
        return tokio__connector_from_json(c, out, e->json);
    if ((rc = c->new(out)) >= 0 &&
        (rc = c->add_text(*out, e->text, e->len, "a history")) < 0) {
        c->free(*out);
        *out = NULL;
    }
    return rc;
}

static void
entry_free(struct entry *e)
{
    free(e->text);
    json_decref(e->json);
}

/* Append a snapshot at `ts`, its lines or JSON form to come. */
static int
push(struct tokio_nersc_lfsstate *s, int64_t ts)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        struct entry *p = tokio__reallocarray(s->e, cap, sizeof(*p));
        if (p == NULL)
            return oom();
        s->e = p;
        s->cap = cap;
    }
    s->e[s->n] = (struct entry){ .ts = ts, .pos = s->n };
    s->n++;
    return TOKIO_OK;
}

/* The lines from `start` to `stop` as the last snapshot's. */
static int
keep_lines(struct tokio_nersc_lfsstate *s, const char *start,
           const char *stop)
{
    struct entry *e = &s->e[s->n - 1];

    e->len = (size_t)(stop - start);
    if ((e->text = tokio__malloc(e->len + 1)) == NULL)
        return oom();
    memcpy(e->text, start, e->len);
    e->text[e->len] = '\0';
    return TOKIO_OK;
}

static int
cmp_entry(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;

    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Sort by timestamp; of equal timestamps the last added stays (a Python
 * dict assignment).  The connector's finish(). */
static int
sort_dedupe(void *h)
{
    struct tokio_nersc_lfsstate *s = h;
    size_t w = 0;

    if (s->n > 1)
        qsort(s->e, s->n, sizeof(*s->e), cmp_entry);
    for (size_t i = 0; i < s->n; i++) {
        if (i + 1 < s->n && s->e[i + 1].ts == s->e[i].ts) {
            entry_free(&s->e[i]);
            continue;
        }
        s->e[w] = s->e[i];
        s->e[w].pos = w;
        w++;
    }
    s->n = w;
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
    int rc = TOKIO_OK;

    for (size_t lineno = 1; rc >= 0 && p < end; lineno++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        int64_t ts;

        if (n > 0 && p[n - 1] == '\r')
            n--;
        if (n >= 5 && memcmp(p, "BEGIN", 5) == 0) {
            if (block != NULL && (rc = keep_lines(s, block, p)) < 0)
                break;
            if (!begin_epoch(p, n, &ts))
                rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: expected "
                                  "'BEGIN <epoch>', found '%.*s'", name,
                                  lineno, (int)(n > 60 ? 60 : n), p);
            else
                rc = push(s, ts);
            block = nl ? nl + 1 : end;
        } else if ((rc = s->kind == TOKIO_NERSC_LFSSTATE_FULLNESS
                       ? tokio_lfshealth_fullness_check_line(p, n, name,
                                                             lineno)
                       : tokio_lfshealth_map_check_line(p, n, name,
                                                        lineno)) > 0 &&
                   block == NULL) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: target line "
                              "before the first BEGIN line", name, lineno);
        }
        p = nl ? nl + 1 : end;
    }
    if (rc >= 0 && block != NULL)
        rc = keep_lines(s, block, end);
    return rc < 0 ? rc : TOKIO_OK;
}

static int
add_json(void *h, const json_t *json)
{
    struct tokio_nersc_lfsstate *s = h;
    const struct tokio__connector *c = snap_connector(s);
    const char *key;
    const json_t *v;
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
        if ((rc = tokio__connector_from_json(c, &snap, v)) < 0)
            return rc == TOKIO_ENOMEM ? rc
                                      : tokio__error_prefix("snapshot %s",
                                                            key);
        if ((rc = push(s, ts)) >= 0)
            rc = c->to_json(snap, &s->e[s->n - 1].json);
        c->free(snap);
        if (rc < 0)
            return rc;
    }
    return TOKIO_OK;
}

static int
new_history(void **out, enum tokio_nersc_lfsstate_kind kind)
{
    struct tokio_nersc_lfsstate *s = tokio__calloc(1, sizeof(*s));

    *out = s;
    if (s == NULL)
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

/* The connector of `kind`, NULL (and the message set) when unknown. */
static const struct tokio__connector *
history_connector(enum tokio_nersc_lfsstate_kind kind)
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
    const struct tokio__connector *c = history_connector(kind);
    void *h = NULL;
    int rc = c ? tokio__connector_open(c, &h, path) : TOKIO_EINVAL;

    *out = h;
    return rc;
}

int
tokio_nersc_lfsstate_open_mem(struct tokio_nersc_lfsstate **out,
                              enum tokio_nersc_lfsstate_kind kind,
                              const void *buf, size_t len, const char *name)
{
    const struct tokio__connector *c = history_connector(kind);
    void *h = NULL;
    int rc = c ? tokio__connector_open_mem(c, &h, buf, len, name)
               : TOKIO_EINVAL;

    *out = h;
    return rc;
}

int
tokio_nersc_lfsstate_from_json(struct tokio_nersc_lfsstate **out,
                               enum tokio_nersc_lfsstate_kind kind,
                               const json_t *json)
{
    const struct tokio__connector *c = history_connector(kind);
    void *h = NULL;
    int rc = c ? tokio__connector_from_json(c, &h, json) : TOKIO_EINVAL;

    *out = h;
    return rc;
}

enum tokio_nersc_lfsstate_kind
tokio_nersc_lfsstate_kind(const struct tokio_nersc_lfsstate *s)
{
    return s->kind;
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

/* Snapshot `i` of a history of `kind`, as the two accessors give it. */
static int
snapshot_of(const struct tokio_nersc_lfsstate *s, size_t i,
            enum tokio_nersc_lfsstate_kind kind, void **out)
{
    *out = NULL;
    if (i >= s->n || s->kind != kind)
        return tokio__error(TOKIO_EINVAL, "no %s snapshot %zu in a history "
                            "of %zu", kind == TOKIO_NERSC_LFSSTATE_MAP
                            ? "OST map" : "fullness", i, s->n);
    return snapshot(s, i, out);
}

int
tokio_nersc_lfsstate_fullness(const struct tokio_nersc_lfsstate *s, size_t i,
                              struct tokio_lfshealth_fullness **out)
{
    void *snap;
    int rc = snapshot_of(s, i, TOKIO_NERSC_LFSSTATE_FULLNESS, &snap);

    *out = snap;
    return rc;
}

int
tokio_nersc_lfsstate_map(const struct tokio_nersc_lfsstate *s, size_t i,
                         struct tokio_lfshealth_map **out)
{
    void *snap;
    int rc = snapshot_of(s, i, TOKIO_NERSC_LFSSTATE_MAP, &snap);

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
        if ((rc = push(dst, src->e[i].ts)) < 0)
            break;
        /* dst's now: what is left stays src's to free */
        dst->e[dst->n - 1].text = src->e[i].text;
        dst->e[dst->n - 1].len = src->e[i].len;
        dst->e[dst->n - 1].json = src->e[i].json;
        src->e[i] = (struct entry){ 0 };
    }
    tokio_nersc_lfsstate_free(src);
    sort_dedupe(dst);
    return rc;
}

/* {"<epoch>": each(snapshot)}, by timestamp; `each` makes a new value. */
static int
by_epoch(const struct tokio_nersc_lfsstate *s, json_t **out,
         int (*each)(const void *snap, json_t **out))
{
    json_t *root = json_object();
    int rc = root ? TOKIO_OK : oom();

    *out = NULL;
    for (size_t i = 0; i < s->n && rc >= 0; i++) {
        char key[32];
        json_t *v = NULL;
        void *snap;
        snprintf(key, sizeof(key), "%" PRId64, s->e[i].ts);
        if ((rc = snapshot(s, i, &snap)) < 0)
            break;
        if ((rc = each(snap, &v)) >= 0 &&
            json_object_set_new(root, key, v) < 0)
            rc = oom();
        snap_connector(s)->free(snap);
    }
    if (rc < 0) {
        json_decref(root);
        return rc;
    }
    *out = root;
    return TOKIO_OK;
}

int
tokio_nersc_lfsstate_to_json(const struct tokio_nersc_lfsstate *s,
                             json_t **out)
{
    return by_epoch(s, out, snap_connector(s)->to_json);
}

static int
failovers(const void *snap, json_t **out)
{
    return tokio_lfshealth_map_failovers(snap, out);
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
    for (size_t i = 0; i < s->n; i++) {
        void *snap;
        int rc;
        fprintf(fp, "BEGIN %" PRId64 "\n", s->e[i].ts);
        if ((rc = snapshot(s, i, &snap)) < 0)
            return rc;
        rc = s->kind == TOKIO_NERSC_LFSSTATE_FULLNESS
                 ? tokio_lfshealth_fullness_write_native(snap, fp)
                 : tokio_lfshealth_map_write_native(snap, fp);
        snap_connector(s)->free(snap);
        if (rc < 0)
            return rc;
    }
    return tokio__write_check(fp, "cannot write lfsstate text");
}

void
tokio_nersc_lfsstate_free(struct tokio_nersc_lfsstate *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->n; i++)
        entry_free(&s->e[i]);
    free(s->e);
    free(s);
}

/* ---- the connector interface (src/core/connector.h) ---- */

/* BEGIN lines and a snapshot's own marks (lfshealth.c's bids): above
 * those, so that a history is not taken for one snapshot. */
static int
bid_fullness(const char *head, size_t n)
{
    return memmem(head, n, "BEGIN ", 6) &&
           tokio__lfshealth_fullness_connector.bid(head, n) > 0 ? 80 : 0;
}

static int
bid_map(const char *head, size_t n)
{
    return memmem(head, n, "BEGIN ", 6) &&
           tokio__lfshealth_map_connector.bid(head, n) > 0 ? 80 : 0;
}

static int
to_json(const void *h, json_t **out)
{
    return tokio_nersc_lfsstate_to_json(h, out);
}

static void
free_history(void *h)
{
    tokio_nersc_lfsstate_free(h);
}

const struct tokio__connector tokio__nersc_lfsstate_fullness_connector = {
    .name = "nersc_lfsstate_fullness",
    .bid = bid_fullness,
    .new = new_fullness,
    .add_text = add_text,
    .add_json = add_json,
    .finish = sort_dedupe,
    .to_json = to_json,
    .free = free_history,
};

const struct tokio__connector tokio__nersc_lfsstate_map_connector = {
    .name = "nersc_lfsstate_map",
    .bid = bid_map,
    .new = new_map,
    .add_text = add_text,
    .add_json = add_json,
    .finish = sort_dedupe,
    .to_json = to_json,
    .free = free_history,
};
