/*
 * src/connectors/nersc_lfsstate.c - NERSC's BEGIN-separated histories of
 * `lfs df` and `lctl dl -t` (osts.txt, ost-map.txt), as
 * tokio.connectors.nersc_lfsstate of pytokio 0.13.  Each block is parsed
 * by lfshealth.c through its private line interface, as the reference
 * builds on tokio.connectors.lfshealth.
 *
 * Differs from pytokio:
 * - NerscLfsOstMap never stored the last BEGIN block of a file (it stored
 *   a block only when the next BEGIN came); we keep every block, so
 *   sample_ost-map.txt.gz has 70 snapshots, not 69.  A map block with no
 *   line at all is kept too (empty), as fullness blocks always were.
 * - a target line before the first BEGIN is TOKIO_EFORMAT; the reference
 *   crashed (fullness) or stored it under the key None (map).
 * - the epoch is [+-]digits; Python's int() also took "1_000".
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/sample_ost-fullness.txt.gz
 * and sample_ost-map.txt.gz; goldens in golden/pytokio/nersc_lfsstate/.
 */
#include "tokio/connectors/nersc_lfsstate.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "connectors/lfshealth_private.h"
#include "core/alloc.h"
#include "core/error.h"
#include "tokio/input.h"

struct entry {
    int64_t ts;
    void *snap;                 /* struct tokio_lfs_df or tokio_lfs_dl */
    size_t pos;                 /* order added: later wins a tie */
};

struct tokio_nersc_lfsstate {
    enum tokio_lfsstate_kind kind;
    struct entry *e;
    size_t n, cap;
};

static void
snap_free(enum tokio_lfsstate_kind kind, void *snap)
{
    if (kind == TOKIO_LFSSTATE_FULLNESS)
        tokio_lfs_df_free(snap);
    else
        tokio_lfs_dl_free(snap);
}

static void *
snap_new(enum tokio_lfsstate_kind kind)
{
    return kind == TOKIO_LFSSTATE_FULLNESS ? (void *)tokio__lfs_df_new()
                                           : (void *)tokio__lfs_dl_new();
}

static int
snap_add_line(enum tokio_lfsstate_kind kind, void *snap, const char *line,
              size_t len, const char *name, size_t lineno)
{
    return kind == TOKIO_LFSSTATE_FULLNESS
               ? tokio__lfs_df_add_line(snap, line, len, name, lineno)
               : tokio__lfs_dl_add_line(snap, line, len, name, lineno);
}

static void
snap_size_like(enum tokio_lfsstate_kind kind, void *snap, const void *like)
{
    if (kind == TOKIO_LFSSTATE_FULLNESS)
        tokio__lfs_df_size_like(snap, like);
    else
        tokio__lfs_dl_size_like(snap, like);
}

static int
snap_finish(enum tokio_lfsstate_kind kind, void *snap)
{
    return kind == TOKIO_LFSSTATE_FULLNESS ? tokio__lfs_df_finish(snap)
                                           : tokio__lfs_dl_finish(snap);
}

/* Append (ts, snap); on failure `snap` is freed. */
static int
push(struct tokio_nersc_lfsstate *s, int64_t ts, void *snap)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        struct entry *p = tokio__reallocarray(s->e, cap, sizeof(*p));
        if (p == NULL) {
            snap_free(s->kind, snap);
            return tokio__error(TOKIO_ENOMEM, "out of memory");
        }
        s->e = p;
        s->cap = cap;
    }
    s->e[s->n].ts = ts;
    s->e[s->n].snap = snap;
    s->e[s->n].pos = s->n;
    s->n++;
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
 * dict assignment). */
static void
sort_dedupe(struct tokio_nersc_lfsstate *s)
{
    size_t w = 0;

    if (s->n > 1)
        qsort(s->e, s->n, sizeof(*s->e), cmp_entry);
    for (size_t i = 0; i < s->n; i++) {
        if (i + 1 < s->n && s->e[i + 1].ts == s->e[i].ts) {
            snap_free(s->kind, s->e[i].snap);
            continue;
        }
        s->e[w] = s->e[i];
        s->e[w].pos = w;
        w++;
    }
    s->n = w;
}

/* [+-]digits, all of `len` bytes. */
static int
parse_epoch(const char *p, size_t len, int64_t *ts)
{
    size_t i = 0, start;
    int neg = 0;
    int64_t v = 0;

    if (i < len && (p[i] == '+' || p[i] == '-'))
        neg = p[i++] == '-';
    start = i;
    while (i < len && p[i] >= '0' && p[i] <= '9') {
        int d = p[i++] - '0';
        if (v > (INT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    if (i == start || i != len)
        return -1;
    *ts = neg ? -v : v;
    return 0;
}

/* The epoch of a BEGIN line: the reference's int(line.split()[1]). */
static int
parse_begin(const char *line, size_t len, int64_t *ts)
{
    size_t i = 0, start;

    while (i < len && line[i] != ' ' && line[i] != '\t')
        i++;                                /* "BEGIN" (and what sticks) */
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    start = i;
    while (i < len && line[i] != ' ' && line[i] != '\t')
        i++;
    return parse_epoch(line + start, i - start, ts);
}

static int
parse(struct tokio_nersc_lfsstate *s, struct tokio_input *in)
{
    const char *name = tokio_input_name(in);
    void *cur = NULL, *pre = NULL;
    int64_t ts = 0;
    const char *line;
    size_t len;
    int rc;

    while ((rc = tokio_input_getline(in, &line, &len)) == TOKIO_OK &&
           line != NULL) {
        size_t lineno = tokio_input_lineno(in);
        if (len >= 5 && memcmp(line, "BEGIN", 5) == 0) {
            int64_t next;
            if (parse_begin(line, len, &next) < 0) {
                rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: expected "
                                  "'BEGIN <epoch>', found '%.*s'", name,
                                  lineno, (int)(len > 60 ? 60 : len), line);
                break;
            }
            if (cur != NULL) {
                void *done = cur;
                cur = NULL;
                if ((rc = snap_finish(s->kind, done)) < 0) {
                    snap_free(s->kind, done);
                    break;
                }
                if ((rc = push(s, ts, done)) < 0)
                    break;
            }
            ts = next;
            if ((cur = snap_new(s->kind)) == NULL) {
                rc = tokio__error(TOKIO_ENOMEM, "out of memory reading "
                                  "'%s'", name);
                break;
            }
            if (s->n > 0)
                snap_size_like(s->kind, cur, s->e[s->n - 1].snap);
            continue;
        }
        if (cur == NULL) {
            /* lines before the first BEGIN: fine unless they hold data */
            if (pre == NULL && (pre = snap_new(s->kind)) == NULL) {
                rc = tokio__error(TOKIO_ENOMEM, "out of memory reading "
                                  "'%s'", name);
                break;
            }
            rc = snap_add_line(s->kind, pre, line, len, name, lineno);
            if (rc > 0)
                rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: target "
                                  "line before the first BEGIN line", name,
                                  lineno);
            if (rc < 0)
                break;
            continue;
        }
        if ((rc = snap_add_line(s->kind, cur, line, len, name, lineno)) < 0)
            break;
    }
    /* Differs from pytokio: the last block counts too (NerscLfsOstMap
     * dropped it) */
    if (rc >= 0 && cur != NULL) {
        void *done = cur;
        cur = NULL;
        if ((rc = snap_finish(s->kind, done)) < 0)
            snap_free(s->kind, done);
        else
            rc = push(s, ts, done);
    }
    snap_free(s->kind, cur);
    snap_free(s->kind, pre);
    if (rc >= 0) {
        sort_dedupe(s);
        rc = TOKIO_OK;
    }
    return rc;
}

static int
open_input(struct tokio_nersc_lfsstate **out, enum tokio_lfsstate_kind kind,
           struct tokio_input *in)
{
    struct tokio_nersc_lfsstate *s = tokio__calloc(1, sizeof(*s));
    int rc;

    if (s == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'",
                            tokio_input_name(in));
    s->kind = kind;
    if ((rc = parse(s, in)) < 0) {
        tokio_nersc_lfsstate_free(s);
        return rc;
    }
    *out = s;
    return TOKIO_OK;
}

int
tokio_nersc_lfsstate_open(struct tokio_nersc_lfsstate **out,
                          enum tokio_lfsstate_kind kind, const char *path)
{
    struct tokio_input *in = NULL;
    int rc;

    *out = NULL;
    if (kind != TOKIO_LFSSTATE_FULLNESS && kind != TOKIO_LFSSTATE_MAP)
        return tokio__error(TOKIO_EINVAL, "unknown lfsstate kind %d",
                            (int)kind);
    if ((rc = tokio_input_open(&in, path)) < 0)
        return rc;
    rc = open_input(out, kind, in);
    tokio_input_close(in);
    return rc;
}

int
tokio_nersc_lfsstate_open_mem(struct tokio_nersc_lfsstate **out,
                              enum tokio_lfsstate_kind kind, const void *buf,
                              size_t len, const char *name)
{
    struct tokio_input *in = NULL;
    int rc;

    *out = NULL;
    if (kind != TOKIO_LFSSTATE_FULLNESS && kind != TOKIO_LFSSTATE_MAP)
        return tokio__error(TOKIO_EINVAL, "unknown lfsstate kind %d",
                            (int)kind);
    if ((rc = tokio_input_open_mem(&in, buf, len, name)) < 0)
        return rc;
    rc = open_input(out, kind, in);
    tokio_input_close(in);
    return rc;
}

enum tokio_lfsstate_kind
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

const struct tokio_lfs_df *
tokio_nersc_lfsstate_fullness(const struct tokio_nersc_lfsstate *s, size_t i)
{
    return i < s->n && s->kind == TOKIO_LFSSTATE_FULLNESS ? s->e[i].snap
                                                          : NULL;
}

const struct tokio_lfs_dl *
tokio_nersc_lfsstate_map(const struct tokio_nersc_lfsstate *s, size_t i)
{
    return i < s->n && s->kind == TOKIO_LFSSTATE_MAP ? s->e[i].snap : NULL;
}

int
tokio_nersc_lfsstate_merge(struct tokio_nersc_lfsstate *dst,
                           struct tokio_nersc_lfsstate *src)
{
    int rc = TOKIO_OK;

    if (src == NULL)
        return TOKIO_OK;
    if (dst->kind != src->kind) {
        tokio_nersc_lfsstate_free(src);
        return tokio__error(TOKIO_EINVAL, "cannot merge a fullness history "
                            "with an OST map history");
    }
    for (size_t i = 0; i < src->n; i++) {
        void *snap = src->e[i].snap;
        src->e[i].snap = NULL;
        if ((rc = push(dst, src->e[i].ts, snap)) < 0)
            break;
    }
    tokio_nersc_lfsstate_free(src);
    sort_dedupe(dst);
    return rc;
}

int
tokio_nersc_lfsstate_to_json(const struct tokio_nersc_lfsstate *s,
                             json_t **out)
{
    json_t *root = json_object();
    int rc = TOKIO_OK;

    *out = NULL;
    if (root == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    for (size_t i = 0; i < s->n && rc >= 0; i++) {
        char key[32];
        json_t *snap;
        snprintf(key, sizeof(key), "%" PRId64, s->e[i].ts);
        rc = s->kind == TOKIO_LFSSTATE_FULLNESS
                 ? tokio_lfs_df_to_json(s->e[i].snap, &snap)
                 : tokio_lfs_dl_to_json(s->e[i].snap, &snap);
        if (rc >= 0 && json_object_set_new(root, key, snap) < 0)
            rc = tokio__error(TOKIO_ENOMEM, "out of memory");
    }
    if (rc < 0) {
        json_decref(root);
        return rc;
    }
    *out = root;
    return TOKIO_OK;
}

int
tokio_nersc_lfsstate_from_json(struct tokio_nersc_lfsstate **out,
                               enum tokio_lfsstate_kind kind,
                               const json_t *json)
{
    struct tokio_nersc_lfsstate *s;
    const char *key;
    const json_t *v;
    int rc = TOKIO_OK;

    *out = NULL;
    if (kind != TOKIO_LFSSTATE_FULLNESS && kind != TOKIO_LFSSTATE_MAP)
        return tokio__error(TOKIO_EINVAL, "unknown lfsstate kind %d",
                            (int)kind);
    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "JSON: not an object of "
                            "timestamps");
    if ((s = tokio__calloc(1, sizeof(*s))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    s->kind = kind;
    json_object_foreach((json_t *)json, key, v) {
        int64_t ts;
        void *snap;
        /* keys are "<epoch>": json.dumps made the int keys strings */
        if (parse_epoch(key, strlen(key), &ts) < 0) {
            rc = tokio__error(TOKIO_EFORMAT, "JSON: key '%.40s' is not an "
                              "epoch", key);
            break;
        }
        struct tokio_lfs_df *df = NULL;
        struct tokio_lfs_dl *dl = NULL;
        rc = kind == TOKIO_LFSSTATE_FULLNESS ? tokio_lfs_df_from_json(&df, v)
                                             : tokio_lfs_dl_from_json(&dl, v);
        snap = df ? (void *)df : (void *)dl;
        if (rc < 0 || (rc = push(s, ts, snap)) < 0)
            break;
    }
    if (rc < 0) {
        tokio_nersc_lfsstate_free(s);
        return rc;
    }
    sort_dedupe(s);
    *out = s;
    return TOKIO_OK;
}

int
tokio_nersc_lfsstate_write(const struct tokio_nersc_lfsstate *s, FILE *fp)
{
    int rc;

    for (size_t i = 0; i < s->n; i++) {
        fprintf(fp, "BEGIN %" PRId64 "\n", s->e[i].ts);
        rc = s->kind == TOKIO_LFSSTATE_FULLNESS
                 ? tokio_lfs_df_write(s->e[i].snap, fp)
                 : tokio_lfs_dl_write(s->e[i].snap, fp);
        if (rc < 0)
            return rc;
    }
    return tokio__write_check(fp, "cannot write lfsstate text");
}

int
tokio_nersc_lfsstate_failovers(const struct tokio_nersc_lfsstate *s,
                               json_t **out)
{
    json_t *root;
    int rc = TOKIO_OK;

    *out = NULL;
    if (s->kind != TOKIO_LFSSTATE_MAP)
        return tokio__error(TOKIO_EINVAL, "failovers need an OST map "
                            "(lctl dl -t) history, not fullness");
    if ((root = json_object()) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    for (size_t i = 0; i < s->n && rc >= 0; i++) {
        char key[32];
        json_t *f;
        snprintf(key, sizeof(key), "%" PRId64, s->e[i].ts);
        if ((rc = tokio_lfs_dl_failovers(s->e[i].snap, &f)) >= 0 &&
            json_object_set_new(root, key, f) < 0)
            rc = tokio__error(TOKIO_ENOMEM, "out of memory");
    }
    if (rc < 0) {
        json_decref(root);
        return rc;
    }
    *out = root;
    return TOKIO_OK;
}

void
tokio_nersc_lfsstate_free(struct tokio_nersc_lfsstate *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->n; i++)
        snap_free(s->kind, s->e[i].snap);
    free(s->e);
    free(s);
}
