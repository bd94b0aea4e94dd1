/*
 * src/connectors/lfshealth.c - one snapshot of `lfs df` (fullness of each
 * OST and MDT) or of `lctl dl -t` (the OSS serving each OST), as saved by
 * a site's health checks; mirrors tokio.connectors.lfshealth (LfsOstFullness
 * and LfsOstMap) of pytokio 0.13.
 *
 * A snapshot is the reference's dict as a jansson object, {fs: {target:
 * {...}}}.  The reference picks target lines out with two regular
 * expressions and skips the other lines; we split a line into its tokens
 * and check them as those would.  Lines matched but unusable are errors.
 *
 * Differs from pytokio:
 * - lines end at "\n" only ("\r\n" too); the reference's splitlines() also
 *   breaks at "\r", "\v", "\f" and \x1c-\x1e, which we treat as blanks
 *   inside a line.  Only ASCII blanks and digits count as \s and \d, and
 *   lower() and upper() change ASCII letters only.
 * - a matched line with a number beyond 64 bits, a name without a target
 *   part ("snx1-_UUID"), a NUL byte or invalid UTF-8 is TOKIO_EFORMAT
 *   (the reference kept huge numbers, crashed on the others).
 * - get_failovers() of a file system with no OSC (only an MDC) gives mode 0
 *   and no abnormal OSS; the reference raised KeyError for the whole map.
 * - save_cache() of a target with 0 used and 0 available KiB prints 0%
 *   (the reference divided by zero).
 *
 * Tests: pytokio-inputs/lfs-df.txt.gz and lctl-dl-t.txt.gz, with goldens
 * in golden/pytokio/lfshealth/; tests/connectors/lfshealth_{fullness,map}/.
 */
#define _GNU_SOURCE     /* memmem() */
#include "tokio/connectors/lfshealth.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "connectors/registry.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/text.h"

/* A handle is its tree (struct tokio_lfshealth_fullness is never defined) */
#define TREE(h) ((json_t *)(h))

/* A target's keys, integers (>= 0) and strings, as the reference's: */
static const char *const df_ints[] = { "total_kib", "used_kib",
                                       "remaining_kib", "target_index", NULL };
static const char *const df_strs[] = { "mount_pt", "role", NULL };
static const char *const dl_ints[] = { "index", "ref_count", NULL };
static const char *const dl_strs[] = { "status", "role", "role_id", "uuid",
                                       "target_ip", "nid", NULL };

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading Lustre health");
}

static int
is_digit(char c) { return c >= '0' && c <= '9'; }

/* A token of the reference's \d+ as an integer: 1; 0 when it is not
 * one (the line is not a target line); -1 when it is beyond int64
 * (Python's int has no bound; the monitored numbers never come near). */
static int
digits(const char *s, size_t n, int64_t *out)
{
    int fits = n > 0;

    *out = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(s[i]))
            return 0;
        if (*out > (INT64_MAX - (s[i] - '0')) / 10)
            fits = -1;
        else
            *out = *out * 10 + (s[i] - '0');
    }
    return fits;
}

struct tok {
    const char *p;
    size_t n;
};

/* Split `line` at blanks (\s) into at most `max` tokens; *rest is the
 * offset of what follows the last token and its blanks.  The count. */
static size_t
tokenize(const char *line, size_t len, struct tok *t, size_t max,
         size_t *rest)
{
    size_t i = 0, n = 0;

    while (i < len && tokio__py_space((unsigned char)line[i]))
        i++;
    while (i < len && n < max) {
        t[n].p = line + i;
        while (i < len && !tokio__py_space((unsigned char)line[i]))
            i++;
        t[n].n = (size_t)(line + i - t[n].p);
        n++;
        while (i < len && tokio__py_space((unsigned char)line[i]))
            i++;
    }
    *rest = i;
    return n;
}

/* The length of "snx" and its digits when token `t` is the reference's
 * (snx\d+-\S+), else 0. */
static size_t
snx_name(const struct tok *t)
{
    size_t i = 3;

    if (t->n < 6 || memcmp(t->p, "snx", 3) != 0 || !is_digit(t->p[3]))
        return 0;
    while (i < t->n && is_digit(t->p[i]))
        i++;
    return i + 1 < t->n && t->p[i] == '-' ? i : 0;
}

/* A JSON string of `n` bytes (checked UTF-8) with ASCII letters lowered;
 * NULL when out of memory. */
static json_t *
lower_string(const char *s, size_t n)
{
    char *copy = tokio__malloc(n + 1);
    json_t *v = NULL;

    for (size_t i = 0; copy != NULL && i < n; i++)
        copy[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] + 32) : s[i];
    if (copy != NULL)
        v = json_stringn_nocheck(copy, n);
    free(copy);
    return v;
}

/* Set target `tg` of file system `fs` in `tree` to `rec` (stolen; NULL
 * when out of memory): a new target goes last, a known one keeps its
 * place (a Python dict assignment).  1, or TOKIO_ENOMEM. */
static int
put_target(json_t *tree, const char *fs, size_t fs_n, const char *tg,
           size_t tg_n, json_t *rec)
{
    json_t *targets = json_object_getn(tree, fs, fs_n);

    if (targets == NULL &&
        json_object_setn_new(tree, fs, fs_n, targets = json_object()) < 0) {
        json_decref(rec);
        return oom();
    }
    return json_object_setn_new(targets, tg, tg_n, rec) < 0 ? oom() : 1;
}

/*
 * An `lfs df` target line is the reference's
 *   ^\s*(snx\d+-\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+).\s+
 *   (\S+)\[([^:]+):(\d+)\]\s*$
 * Tokens 1-4 are whole tokens.  "(\d+)." takes "61%", or digits of which
 * the last stands for ".", or a lone digit whose "." is the first of at
 * least two blanks.  The rest, "/scratch2[OST:0]", may hold blanks inside
 * the brackets: the role runs from the last "[" inside the mount point's
 * token that leaves a colon-free role, to the ":" before the index.
 * 1 (added to `tree` unless it is NULL), 0 for another line, or < 0.
 */
static int
df_line(json_t *tree, const char *line, size_t len, const char *name,
        size_t lineno)
{
    struct tok t[5];
    int64_t total, used, avail, index, pct;
    int fit[4];
    size_t r, fs_n;

    if (tokenize(line, len, t, 5, &r) < 5 || r == len ||
        (fs_n = snx_name(&t[0])) == 0 ||
        (fit[0] = digits(t[1].p, t[1].n, &total)) == 0 ||
        (fit[1] = digits(t[2].p, t[2].n, &used)) == 0 ||
        (fit[2] = digits(t[3].p, t[3].n, &avail)) == 0)
        return 0;
    const char *m = line + r;           /* "/scratch2[OST:0]" */
    if (t[4].n == 1 ? !is_digit(t[4].p[0]) || m - (t[4].p + 1) < 2
                    : digits(t[4].p, t[4].n - 1, &pct) == 0)
        return 0;
    size_t mn = len - r, d, colon, word = 0, bracket = 0;
    while (mn > 0 && tokio__py_space((unsigned char)m[mn - 1]))
        mn--;
    if (mn == 0 || m[mn - 1] != ']')
        return 0;
    for (d = mn - 1; d > 0 && is_digit(m[d - 1]); d--)
        ;
    if (d == mn - 1 || d == 0 || m[d - 1] != ':')
        return 0;
    colon = d - 1;
    while (word < mn && !tokio__py_space((unsigned char)m[word]))
        word++;
    for (size_t i = colon; i-- > 1 && m[i] != ':';)
        if (m[i] == '[' && i + 1 < colon && i <= word) {
            bracket = i;
            break;
        }
    if (bracket == 0)
        return 0;

    if (!tokio__text_valid(line, len))
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: not UTF-8 text",
                            name, lineno);
    /* re.findall('[^-_]+', uuid)[0:2]: "snx11035", "OST0000" */
    const char *tg = t[0].p + fs_n, *end = t[0].p + t[0].n;
    size_t tg_n = 0;
    while (tg < end && (*tg == '-' || *tg == '_'))
        tg++;
    while (tg + tg_n < end && tg[tg_n] != '-' && tg[tg_n] != '_')
        tg_n++;
    if (tg_n == 0)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: no target name "
                            "in '%.*s'", name, lineno, (int)t[0].n, t[0].p);
    fit[3] = digits(m + d, mn - 1 - d, &index);
    if (fit[0] < 0 || fit[1] < 0 || fit[2] < 0 || fit[3] < 0)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: number too large",
                            name, lineno);
    if (tree == NULL)
        return 1;
    return put_target(tree, t[0].p, fs_n, tg, tg_n, json_pack(
        "{s:I, s:I, s:I, s:s%, s:o, s:I}", "total_kib", (json_int_t)total,
        "used_kib", (json_int_t)used, "remaining_kib", (json_int_t)avail,
        "mount_pt", m, bracket,
        "role", lower_string(m + bracket + 1, colon - bracket - 1),
        "target_index", (json_int_t)index));
}

/*
 * An `lctl dl -t` target line is the reference's
 *   ^\s*(\d+)\s+(\S+)\s+(\S+)\s+(snx\d+-\S+)\s+(\S+)\s+(\d+)\s+(\S+@\S+)\s*$
 * that is exactly seven tokens, the last with an "@" that has a byte
 * either side.  mgc, lov and lmv lines have no NID or no snx name.  As
 * df_line().
 */
static int
dl_line(json_t *tree, const char *line, size_t len, const char *name,
        size_t lineno)
{
    struct tok t[7];
    int64_t index, refs;
    int fit[2];
    size_t r, fs_n;

    if (tokenize(line, len, t, 7, &r) != 7 || r != len ||
        (fit[0] = digits(t[0].p, t[0].n, &index)) == 0 ||
        (fs_n = snx_name(&t[3])) == 0 ||
        (fit[1] = digits(t[5].p, t[5].n, &refs)) == 0 ||
        t[6].n < 3 || memchr(t[6].p + 1, '@', t[6].n - 2) == NULL)
        return 0;
    if (!tokio__text_valid(line, len))
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: not UTF-8 text",
                            name, lineno);
    if (fit[0] < 0 || fit[1] < 0)
        return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: number too large",
                            name, lineno);
    if (tree == NULL)
        return 1;

    /* role_id.split('-')[0:2]: "snx11025", "OST0007"; nid.split('@')[0] */
    const char *tg = t[3].p + fs_n + 1, *end = t[3].p + t[3].n;
    const char *dash = memchr(tg, '-', (size_t)(end - tg));
    const char *at = memchr(t[6].p, '@', t[6].n);
    return put_target(tree, t[3].p, fs_n, tg,
                      (size_t)((dash ? dash : end) - tg), json_pack(
        "{s:I, s:o, s:o, s:s%, s:s%, s:I, s:s%, s:s%}",
        "index", (json_int_t)index, "status", lower_string(t[1].p, t[1].n),
        "role", lower_string(t[2].p, t[2].n), "role_id", t[3].p, t[3].n,
        "uuid", t[4].p, t[4].n, "ref_count", (json_int_t)refs,
        "target_ip", t[6].p, (size_t)(at - t[6].p), "nid", t[6].p, t[6].n));
}

/* Every line of `text` into `tree` through `add_line` (df_line, dl_line). */
static int
add_lines(json_t *tree, const char *text, size_t len, const char *name,
          int (*add_line)(json_t *, const char *, size_t, const char *,
                          size_t))
{
    const char *p = text, *end = text + len;
    int rc = TOKIO_OK;

    for (size_t lineno = 1; rc >= 0 && p < end; lineno++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        rc = add_line(tree, p, n > 0 && p[n - 1] == '\r' ? n - 1 : n, name,
                      lineno);
        p = nl ? nl + 1 : end;
    }
    return rc < 0 ? rc : TOKIO_OK;
}

/* Fill `tree` (empty) with a copy of `json` when it is a JSON form:
 * {fs: {target: {...}}}, each target holding the integers `ints` (>= 0)
 * and the strings `strs`. */
static int
add_json(json_t *tree, const json_t *json, const char *const *ints,
         const char *const *strs)
{
    const char *fs, *tg;
    json_t *targets, *rec, *copy;
    int rc;

    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "JSON: not an object of file "
                            "systems");
    json_object_foreach((json_t *)json, fs, targets) {
        if (!json_is_object(targets))
            return tokio__error(TOKIO_EFORMAT, "JSON %s: not an object of "
                                "targets", fs);
        json_object_foreach(targets, tg, rec) {
            if (!json_is_object(rec))
                return tokio__error(TOKIO_EFORMAT, "JSON %s/%s: not an "
                                    "object", fs, tg);
            for (size_t i = 0; ints[i] != NULL; i++) {
                const json_t *v = json_object_get(rec, ints[i]);
                if (!json_is_integer(v) || json_integer_value(v) < 0)
                    return tokio__error(TOKIO_EFORMAT, "JSON %s/%s: \"%s\" "
                                        "is not a whole number >= 0", fs, tg,
                                        ints[i]);
            }
            for (size_t i = 0; strs[i] != NULL; i++)
                if (!json_is_string(json_object_get(rec, strs[i])))
                    return tokio__error(TOKIO_EFORMAT, "JSON %s/%s: \"%s\" "
                                        "is not a string", fs, tg, strs[i]);
        }
    }
    copy = json_deep_copy(json);
    rc = json_object_update(tree, copy) < 0 ? oom() : TOKIO_OK;
    json_decref(copy);
    return rc;
}

static int64_t
int_of(const json_t *rec, const char *key)
{
    return json_integer_value(json_object_get(rec, key));
}

static const char *
str_of(const json_t *rec, const char *key)
{
    return json_string_value(json_object_get(rec, key));
}

/* One target in the reference's __repr__ order: file systems by name,
 * targets by index, ties in dict order (Python's sort is stable). */
struct row {
    const char *fs, *target;
    const json_t *rec;
    int64_t index;
    size_t pos;
};

static int
cmp_row(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    int c = strcmp(x->fs, y->fs);

    if (c == 0)
        c = (x->index > y->index) - (x->index < y->index);
    return c != 0 ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

static void
df_row(FILE *fp, const struct row *w)
{
    int64_t used = int_of(w->rec, "used_kib");
    int64_t avail = int_of(w->rec, "remaining_kib");
    /* lfs df's percentage is of used + available, not of the total;
     * Python's round() halves to even, as rint() does by default */
    double sum = (double)((uint64_t)used + (uint64_t)avail);

    fprintf(fp, "%s-%s_UUID %" PRId64 " %" PRId64 " %" PRId64 " %3lld%% %s[",
            w->fs, w->target, int_of(w->rec, "total_kib"), used, avail,
            sum > 0 ? (long long)rint(100.0 * (double)used / sum) : 0,
            str_of(w->rec, "mount_pt"));
    for (const char *c = str_of(w->rec, "role"); *c; c++)
        fputc(*c >= 'a' && *c <= 'z' ? *c - 32 : *c, fp);
    fprintf(fp, ":%" PRId64 "]\n", w->index);
}

static void
dl_row(FILE *fp, const struct row *w)
{
    fprintf(fp, "%3" PRId64 " %2s %3s %s %s %" PRId64 " %s\n", w->index,
            str_of(w->rec, "status"), str_of(w->rec, "role"),
            str_of(w->rec, "role_id"), str_of(w->rec, "uuid"),
            int_of(w->rec, "ref_count"), str_of(w->rec, "nid"));
}

/* Write the targets of `tree` in that order, sorted by their integer
 * `key`, each by `write_row`. */
static int
write_rows(const json_t *tree, const char *key,
           void (*write_row)(FILE *, const struct row *), FILE *fp)
{
    const char *fs, *tg;
    json_t *targets, *rec;
    struct row *rows;
    size_t n = 0;

    json_object_foreach((json_t *)tree, fs, targets)
        n += json_object_size(targets);
    if ((rows = tokio__calloc(n + 1, sizeof(*rows))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory");
    n = 0;
    json_object_foreach((json_t *)tree, fs, targets)
        json_object_foreach(targets, tg, rec) {
            rows[n] = (struct row){ fs, tg, rec, int_of(rec, key), n };
            n++;
        }
    qsort(rows, n, sizeof(*rows), cmp_row);
    for (size_t i = 0; i < n; i++)
        write_row(fp, &rows[i]);
    free(rows);
    return tokio__write_check(fp, "cannot write Lustre health text");
}

int
tokio_lfshealth_fullness_write_native(const struct tokio_lfshealth_fullness *f,
                                      FILE *fp)
{
    return write_rows(TREE(f), "target_index", df_row, fp);
}

int
tokio_lfshealth_map_write_native(const struct tokio_lfshealth_map *m,
                                 FILE *fp)
{
    return write_rows(TREE(m), "index", dl_row, fp);
}

/* The failovers of one file system's targets (dict order); NULL when out
 * of memory. */
static json_t *
fs_failovers(const json_t *targets)
{
    /* each OSS address's OSTs, addresses in order of first appearance:
     * the mode's ties go to the count seen first, as max() over the
     * reference's dicts does */
    json_t *osts = json_object(), *abnormal = json_object(), *res = NULL;
    json_t *rec, *list, *l;
    const char *tg, *ip, *other;
    size_t mode = 0, best = 0;

    json_object_foreach((json_t *)targets, tg, rec) {
        if (strcmp(str_of(rec, "role"), "osc") != 0)
            continue;                               /* not mdc, mgc */
        ip = str_of(rec, "target_ip");
        if (((list = json_object_get(osts, ip)) == NULL &&
             json_object_set_new(osts, ip, list = json_array()) < 0) ||
            json_array_append_new(list, json_string(tg)) < 0)
            goto done;
    }
    json_object_foreach(osts, ip, list) {
        size_t freq = 0;
        json_object_foreach(osts, other, l)
            freq += json_array_size(l) == json_array_size(list);
        if (freq > best) {
            mode = json_array_size(list);
            best = freq;
        }
    }
    json_object_foreach(osts, ip, list)
        if (json_array_size(list) != mode &&
            json_object_set(abnormal, ip, list) < 0)
            goto done;
    res = json_pack("{s:I, s:O}", "mode", (json_int_t)mode, "abnormal_ips",
                    abnormal);
done:
    json_decref(abnormal);
    json_decref(osts);
    return res;
}

int
tokio_lfshealth_map_failovers(const struct tokio_lfshealth_map *m,
                              json_t **out)
{
    const char *fs;
    json_t *targets;

    *out = json_object();
    json_object_foreach(TREE(m), fs, targets)
        if (json_object_set_new(*out, fs, fs_failovers(targets)) < 0) {
            json_decref(*out);
            *out = NULL;
            break;
        }
    return *out ? TOKIO_OK : tokio__error(TOKIO_ENOMEM, "out of memory");
}

int
tokio_lfshealth_fullness_check_line(const char *line, size_t len,
                                    const char *name, size_t lineno)
{
    return df_line(NULL, line, len, name, lineno);
}

int
tokio_lfshealth_map_check_line(const char *line, size_t len,
                               const char *name, size_t lineno)
{
    return dl_line(NULL, line, len, name, lineno);
}

int
tokio_lfshealth_fullness_to_json(const struct tokio_lfshealth_fullness *f,
                                 json_t **out)
{
    *out = json_incref(TREE(f));
    return TOKIO_OK;
}

int
tokio_lfshealth_map_to_json(const struct tokio_lfshealth_map *m, json_t **out)
{
    *out = json_incref(TREE(m));
    return TOKIO_OK;
}

void
tokio_lfshealth_fullness_free(struct tokio_lfshealth_fullness *f)
{
    json_decref(TREE(f));
}

void
tokio_lfshealth_map_free(struct tokio_lfshealth_map *m)
{
    json_decref(TREE(m));
}

TOKIO__CONNECTOR_OPEN_FUNCTIONS(lfshealth_fullness)
TOKIO__CONNECTOR_OPEN_FUNCTIONS(lfshealth_map)

static int
new_tree(void **out) { return (*out = json_object()) ? TOKIO_OK : oom(); }

static int
df_text(void *h, const char *text, size_t len, const char *name)
{
    return add_lines(h, text, len, name, df_line);
}

static int
dl_text(void *h, const char *text, size_t len, const char *name)
{
    return add_lines(h, text, len, name, dl_line);
}

static int
df_json(void *h, const json_t *j) { return add_json(h, j, df_ints, df_strs); }

static int
dl_json(void *h, const json_t *j) { return add_json(h, j, dl_ints, dl_strs); }

static int
to_json(const void *h, json_t **out)
{
    *out = json_incref(TREE(h));
    return TOKIO_OK;
}

static void
free_tree(void *h) { json_decref(h); }

/* `lfs df` names every target NAME_UUID; `lctl dl -t` lists the OSTs'
 * client devices as osc.  NERSC's histories of them bid higher. */
static int
df_bid(const char *h, size_t n) { return memmem(h, n, "_UUID", 5) ? 60 : 0; }

static int
dl_bid(const char *h, size_t n) { return memmem(h, n, " osc ", 5) ? 60 : 0; }

const struct tokio__connector tokio__lfshealth_fullness_connector = {
    .name = "lfshealth_fullness",
    .what = "lfs df output (NAME_UUID lines) or its JSON form",
    .bid = df_bid,
    .new = new_tree,
    .add_text = df_text,
    .add_json = df_json,
    .to_json = to_json,
    .free = free_tree,
};

const struct tokio__connector tokio__lfshealth_map_connector = {
    .name = "lfshealth_map",
    .what = "lctl dl -t output (osc lines) or its JSON form",
    .bid = dl_bid,
    .new = new_tree,
    .add_text = dl_text,
    .add_json = dl_json,
    .to_json = to_json,
    .free = free_tree,
};
