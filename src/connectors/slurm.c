/*
 * src/connectors/slurm.c - Slurm job accounting, the reference's
 * tokio.connectors.slurm (pytokio 0.13).
 *
 * Source: `sacct --parsable` (every line ends in '|') or `--parsable2`
 * (no trailing '|') text: a header of field names, then one line per
 * task, whose first field is the task id ("123", "123.batch",
 * "123.extern", "123.N"); and the reference's JSON cache of the same
 * table.  Both are read from files and memory (src/core/connector.c) or
 * from a sacct run here (an argument vector, never a shell).  Node lists
 * are expanded and compacted here: the reference ran `scontrol show
 * hostname|hostlist`, which exists only on Slurm hosts.
 *
 * The table is the reference's dict as a jansson object: task id ->
 * object of lower-cased sacct field names to values, in input order (a
 * repeated task id or field keeps its first place and takes the last
 * value, as a dict does).  As the reference recast them, "start" and
 * "end" must be zone-less local times (kept as text) and a "nodelist"
 * text becomes the array of its node names.
 *
 * Differs from pytokio:
 *  - text whose first line is not a sacct header ("JobID...|") is
 *    refused (the reference made tasks of any text's lines);
 *  - a line whose field count differs from the header's, or that is not
 *    UTF-8, is an error naming file and line (the reference silently
 *    misaligned or crashed); only ASCII letters of the header are
 *    lower-cased;
 *  - "Unknown" and "None" times (running or pending jobs) are kept as text
 *    and passed over by get_job_startend (the reference raised);
 *  - "None assigned" node lists (pending jobs) are empty lists; the node
 *    lists of one input may expand to TOKIO_SLURM_MAX_NODES names in all
 *    (scontrol had limits of its own);
 *  - node names holding a NUL character are refused;
 *  - the native form's node lists are comma-joined, not compacted: that
 *    is what the reference wrote wherever scontrol was absent (the goldens
 *    show it), and it reads back as the same list in the same order.
 *
 * Test inputs: tests/connectors/slurm/, and ../shared/testdata's
 * pytokio-inputs/sample.slurm (JSON) with the goldens in
 * golden/pytokio/{slurm,cache_slurm,jobinfo}/.
 */
#include "tokio/connectors/slurm.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "connectors/registry.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/json.h"
#include "core/run.h"
#include "core/sbuf.h"
#include "core/text.h"
#include "tokio/output.h"
#include "tokio/time.h"

/* The fields the reference recast (_RECAST_KEY_MAP), its time format. */
#define KEY_START    "start"
#define KEY_END      "end"
#define KEY_NODELIST "nodelist"
#define KEY_JOBIDRAW "jobidraw"
#define TIME_FORMAT  "%Y-%m-%dT%H:%M:%S"

/* Node numbers beyond 18 digits would overflow uint64 arithmetic. */
#define MAX_DIGITS 18
#define MAX_GROUPS 16   /* bracket groups in one host name */

/* What the node lists of one input have expanded to (their bound is
 * TOKIO_SLURM_MAX_NODES and _BYTES). */
struct spent {
    uint64_t names, bytes;
};

struct tokio_slurm {
    json_t *tasks;      /* task id -> object of fields, input order */
    struct spent spent;
};

static int
oom(void)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading Slurm tasks");
}

/* ---- node lists ------------------------------------------------------ */

/* A node list being expanded into `names`. */
struct expansion {
    const char *text;       /* the whole list, for messages */
    json_t *names;
    struct spent *spent;    /* names, and most bytes they take */
};

struct range {
    uint64_t lo, hi;
    int width;              /* zero-padded width, from the lower bound */
};

/* The run of at most MAX_DIGITS digits at *p, moving *p past it. */
static int
parse_number(const char **p, const char *end, uint64_t *value, int *width)
{
    const char *s = *p;
    uint64_t v = 0;

    while (s < end && *s >= '0' && *s <= '9') {
        if (s - *p >= MAX_DIGITS)
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
        s++;
    }
    if (s == *p)
        return -1;
    *width = (int)(s - *p);
    *value = v;
    *p = s;
    return 0;
}

static int
digits_of(uint64_t v)
{
    int n = 1;

    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

static int
too_many_names(const struct expansion *x)
{
    return tokio__error(TOKIO_EFORMAT, "node list '%.200s' takes the input "
                        "past %zu node names", x->text,
                        TOKIO_SLURM_MAX_NODES);
}

/*
 * The range at *p inside a bracket group ("7", "08-10"), moving *p past
 * it and the ',' or ']' after it: 1 when the group goes on, 0 when it
 * ended, < 0 (TOKIO_EFORMAT) when the text is no such range.
 */
static int
next_range(const struct expansion *x, const char **p, const char *end,
           struct range *r)
{
    int whi;

    if (parse_number(p, end, &r->lo, &r->width) < 0)
        return tokio__error(TOKIO_EFORMAT, "node list '%.200s': expected a "
                            "number (at most %d digits) at byte %zu",
                            x->text, MAX_DIGITS, (size_t)(*p - x->text));
    r->hi = r->lo;
    if (*p < end && **p == '-') {
        (*p)++;
        if (parse_number(p, end, &r->hi, &whi) < 0)
            return tokio__error(TOKIO_EFORMAT, "node list '%.200s': expected "
                                "a number after '-' at byte %zu", x->text,
                                (size_t)(*p - x->text));
        if (r->hi < r->lo)
            return tokio__error(TOKIO_EFORMAT, "node list '%.200s': range %"
                                PRIu64 "-%" PRIu64 " runs backwards", x->text,
                                r->lo, r->hi);
    }
    if (*p < end && (**p == ',' || **p == ']'))
        return *(*p)++ == ',';
    return tokio__error(TOKIO_EFORMAT, "node list '%.200s': expected ',' or "
                        "']' at byte %zu", x->text, (size_t)(*p - x->text));
}

/*
 * Check one host name of the list (`len` bytes at `name`, no comma
 * outside brackets) and count what it expands to against the limits,
 * before any of it is made: "n[0-99999999999]" is ten bytes.
 */
static int
measure(struct expansion *x, const char *name, size_t len)
{
    const char *p = name, *end = name + len;
    uint64_t total = 1, longest = (uint64_t)len + 1;
    int groups = 0, more;

    if (len == 0)
        return tokio__error(TOKIO_EFORMAT, "node list '%.200s': empty node "
                            "name", x->text);
    while (p < end) {
        uint64_t count = 0;
        int widest = 0;
        if (*p == ']')
            return tokio__error(TOKIO_EFORMAT, "node list '%.200s': ']' "
                                "without '['", x->text);
        if (*p++ != '[')
            continue;
        if (++groups > MAX_GROUPS)
            return tokio__error(TOKIO_EFORMAT, "node list '%.200s': more "
                                "than %d bracket groups in a name", x->text,
                                MAX_GROUPS);
        do {
            struct range r;
            if ((more = next_range(x, &p, end, &r)) < 0)
                return more;
            count += r.hi - r.lo + 1;   /* < 10^7 + 10^18: no overflow */
            if (count > TOKIO_SLURM_MAX_NODES)
                return too_many_names(x);
            if (digits_of(r.hi) > widest)
                widest = digits_of(r.hi);
            if (r.width > widest)
                widest = r.width;
        } while (more);
        if ((total *= count) > TOKIO_SLURM_MAX_NODES)
            return too_many_names(x);
        longest += (uint64_t)widest;
    }
    if ((x->spent->names += total) > TOKIO_SLURM_MAX_NODES)
        return too_many_names(x);
    if ((x->spent->bytes += total * longest) > TOKIO_SLURM_MAX_NODE_BYTES)
        return tokio__error(TOKIO_EFORMAT, "node list '%.200s' takes the "
                            "input past %zu bytes of node names", x->text,
                            TOKIO_SLURM_MAX_NODE_BYTES);
    return TOKIO_OK;
}

/*
 * Append the names of the measured host name [p, end) to x->names,
 * `buf` holding the `n` bytes made before p; the last bracket group
 * varies fastest, as in Slurm.
 */
static int
emit(struct expansion *x, const char *p, const char *end, char *buf, size_t n)
{
    const char *open = memchr(p, '[', (size_t)(end - p)), *close;
    struct range r;
    int more, rc = TOKIO_OK;

    if (open == NULL) {
        memcpy(buf + n, p, (size_t)(end - p));
        n += (size_t)(end - p);
        /* valid UTF-8: checked text, split at ASCII, digits put in */
        return json_array_append_new(x->names, json_stringn_nocheck(buf, n))
                   < 0 ? oom() : TOKIO_OK;
    }
    memcpy(buf + n, p, (size_t)(open - p));
    n += (size_t)(open - p);
    close = memchr(open, ']', (size_t)(end - open));
    p = open + 1;
    do {
        more = next_range(x, &p, end, &r);
        for (uint64_t v = r.lo; rc == TOKIO_OK && v <= r.hi; v++) {
            int k = snprintf(buf + n, MAX_DIGITS + 1, "%0*" PRIu64, r.width,
                             v);
            rc = emit(x, close + 1, end, buf, n + (size_t)k);
        }
    } while (more > 0 && rc == TOKIO_OK);
    return rc;
}

/*
 * Expand the node list `text` into the array `names`, adding to what the
 * input's lists have `spent`: host names split at commas outside
 * brackets, each measured, then made.
 */
static int
expand(const char *text, json_t *names, struct spent *spent)
{
    struct expansion x = { text, names, spent };
    const char *name = text;
    int depth = 0, rc;

    /* what sacct prints for a job that never got nodes */
    if (*text == '\0' || strcmp(text, "None assigned") == 0)
        return TOKIO_OK;
    for (const char *p = text;; p++) {
        if (*p == '[') {
            if (depth++ > 0)
                return tokio__error(TOKIO_EFORMAT, "node list '%.200s': "
                                    "nested '['", text);
        } else if (*p == ']') {
            depth--;
        } else if ((*p == ',' && depth == 0) || *p == '\0') {
            size_t len = (size_t)(p - name);
            char *buf;
            if (*p == '\0' && depth > 0)
                return tokio__error(TOKIO_EFORMAT, "node list '%.200s': '[' "
                                    "without ']'", text);
            if ((rc = measure(&x, name, len)) < 0)
                return rc;
            /* each group's brackets give way to at most its digits */
            if ((buf = tokio__malloc(len + MAX_GROUPS * MAX_DIGITS + 1)) ==
                NULL)
                return oom();
            rc = emit(&x, name, p, buf, 0);
            free(buf);
            if (rc < 0 || *p == '\0')
                return rc;
            name = p + 1;
        }
    }
}

int
tokio_slurm_nodelist_expand(const char *text, char ***names_out,
                            size_t *n_out)
{
    json_t *list = json_array();
    struct spent spent = { 0, 0 };
    char **names = NULL;
    size_t n = 0;
    int rc = list != NULL ? expand(text, list, &spent) : oom();

    *names_out = NULL;
    *n_out = 0;
    if (rc >= 0 && (n = json_array_size(list)) > 0 &&
        (names = tokio__calloc(n, sizeof(*names))) == NULL)
        rc = oom();
    for (size_t i = 0; rc >= 0 && i < n; i++)
        if ((names[i] = tokio__strdup(json_string_value(
                 json_array_get(list, i)))) == NULL)
            rc = oom();
    json_decref(list);
    if (rc < 0) {
        tokio_slurm_free_names(names, n);
        return rc;
    }
    *names_out = names;
    *n_out = n;
    return TOKIO_OK;
}

void
tokio_slurm_free_names(char **names, size_t n)
{
    if (names == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

struct cname {
    const char *name;
    size_t prefix_len;      /* == strlen(name) when there is no number */
    int width;              /* digits of the trailing number, 0: none */
    uint64_t value;
};

static int
cname_cmp(const void *a, const void *b)
{
    const struct cname *x = a, *y = b;
    size_t n = x->prefix_len < y->prefix_len ? x->prefix_len : y->prefix_len;
    int c = memcmp(x->name, y->name, n);

    if (c != 0)
        return c;
    if (x->prefix_len != y->prefix_len)
        return x->prefix_len < y->prefix_len ? -1 : 1;
    if (x->width != y->width)
        return x->width < y->width ? -1 : 1;
    return x->value < y->value ? -1 : x->value > y->value;
}

static int
sbuf_num(struct tokio__sbuf *b, uint64_t v, int width)
{
    char num[32];
    int n = snprintf(num, sizeof(num), "%0*" PRIu64, width, v);

    return tokio__sbuf_add(b, num, (size_t)n);
}

int
tokio_slurm_nodelist_compact(const char *const *names, size_t n, char **out)
{
    struct cname *c = NULL;
    struct tokio__sbuf b = { 0 };

    *out = NULL;
    if (n > 0 && (c = tokio__calloc(n, sizeof(*c))) == NULL)
        goto oom;
    for (size_t i = 0; i < n; i++) {
        const char *s = names[i];
        size_t len = strlen(s), d = len;
        while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
            d--;
        c[i].name = s;
        c[i].prefix_len = len;
        /* a name without a trailing number, or with one too long to
         * count, stands alone */
        if (d < len && len - d <= MAX_DIGITS) {
            const char *p = s + d;
            c[i].prefix_len = d;
            parse_number(&p, s + len, &c[i].value, &c[i].width);
        }
    }
    if (n > 0)
        qsort(c, n, sizeof(*c), cname_cmp);
    if (tokio__sbuf_add(&b, "", 0) < 0)
        goto oom;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        /* j: end of the group sharing prefix and width */
        while (j < n && c[i].width > 0 && c[j].width == c[i].width &&
               c[j].prefix_len == c[i].prefix_len &&
               memcmp(c[j].name, c[i].name, c[i].prefix_len) == 0)
            j++;
        if ((b.len > 0 && tokio__sbuf_add(&b, ",", 1) < 0) ||
            tokio__sbuf_add(&b, c[i].name, c[i].prefix_len) < 0)
            goto oom;
        if (c[i].width == 0) {
            /* identical standalone names are duplicates */
            while (j < n && c[j].width == 0 &&
                   strcmp(c[j].name, c[i].name) == 0)
                j++;
            i = j;
            continue;
        }
        int bracket = c[j - 1].value != c[i].value;
        if (bracket && tokio__sbuf_add(&b, "[", 1) < 0)
            goto oom;
        for (size_t k = i; k < j;) {
            size_t m = k;
            /* duplicates and consecutive numbers extend the range */
            while (m + 1 < j && c[m + 1].value <= c[m].value + 1)
                m++;
            if ((k > i && tokio__sbuf_add(&b, ",", 1) < 0) ||
                sbuf_num(&b, c[k].value, c[i].width) < 0)
                goto oom;
            if (c[m].value != c[k].value &&
                (tokio__sbuf_add(&b, "-", 1) < 0 ||
                 sbuf_num(&b, c[m].value, c[i].width) < 0))
                goto oom;
            k = m + 1;
        }
        if (bracket && tokio__sbuf_add(&b, "]", 1) < 0)
            goto oom;
        i = j;
    }
    free(c);
    *out = b.s;
    return TOKIO_OK;
oom:
    free(c);
    free(b.s);
    return tokio__error(TOKIO_ENOMEM, "out of memory compacting %zu node "
                        "names", n);
}

/* ---- recasting a task, as the reference did --------------------------- */

/* A time that sacct prints for "not yet" or "never". */
static int
is_unset_time(const char *s)
{
    return *s == '\0' || strcmp(s, "Unknown") == 0 ||
           strcmp(s, "None") == 0;
}

/*
 * The epoch of the task's time field `key` (start or end), read as local
 * time: 1; 0 when it is absent, null or unset; TOKIO_EFORMAT when it is
 * not such a time.
 */
static int
task_time(const json_t *task, const char *key, int64_t *epoch)
{
    const json_t *v = json_object_get(task, key);
    const char *text;

    if (v == NULL || json_is_null(v))
        return 0;
    if (!json_is_string(v))
        return tokio__error(TOKIO_EFORMAT, "'%s' is not a string", key);
    text = json_string_value(v);
    if (is_unset_time(text))
        return 0;
    if (tokio_time_parse_format(text, TIME_FORMAT, epoch) < 0)
        return tokio__error(TOKIO_EFORMAT, "%s time '%.100s' is not "
                            "YYYY-MM-DDTHH:MM:SS", key, text);
    return 1;
}

/* Check the times of a new task and make its node list an array. */
static int
recast(struct tokio_slurm *s, json_t *task)
{
    json_t *v = json_object_get(task, KEY_NODELIST), *names, *item;
    int64_t epoch;
    size_t i;
    int rc;

    if ((rc = task_time(task, KEY_START, &epoch)) < 0 ||
        (rc = task_time(task, KEY_END, &epoch)) < 0)
        return rc;
    if (json_is_string(v)) {
        if ((names = json_array()) == NULL)
            return oom();
        if ((rc = expand(json_string_value(v), names, &s->spent)) < 0) {
            json_decref(names);
            return rc;
        }
        return json_object_set_new(task, KEY_NODELIST, names) < 0 ? oom()
                                                                  : TOKIO_OK;
    }
    json_array_foreach(v, i, item) {
        if (!json_is_string(item))
            return tokio__error(TOKIO_EFORMAT, "nodelist item %zu is not a "
                                "string", i);
        if (memchr(json_string_value(item), '\0', json_string_length(item)))
            return tokio__error(TOKIO_EFORMAT, "nodelist item %zu holds a "
                                "NUL character", i);
    }
    if (v != NULL && !json_is_array(v) && !json_is_null(v))
        return tokio__error(TOKIO_EFORMAT, "nodelist is neither a list nor "
                            "a string");
    return TOKIO_OK;
}

/* ---- sacct text ------------------------------------------------------ */

/* The header's field names, lower-cased as the reference did (sacct
 * prints JobIDRaw), "" for the unnamed field after a trailing '|'. */
static int
read_header(json_t *header, const char *line, size_t len)
{
    char *copy = tokio__strndup(line, len), *p = copy;
    int rc = TOKIO_OK;

    if (copy == NULL)
        return oom();
    for (char *q = copy; *q; q++)
        if (*q >= 'A' && *q <= 'Z')
            *q = (char)(*q - 'A' + 'a');
    while (rc == TOKIO_OK) {
        char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (json_array_append_new(header, json_stringn_nocheck(p, n)) < 0)
            rc = oom();
        if (bar == NULL)
            break;
        p = bar + 1;
    }
    free(copy);
    return rc;
}

/* One task line (checked UTF-8): its fields under the header's names,
 * unnamed ones dropped; the first is the task id. */
static int
add_line(struct tokio_slurm *s, const json_t *header, const char *line,
         size_t len)
{
    const char *p = line, *end = line + len;
    size_t n = 1, id_len = 0;
    json_t *task;
    int rc;

    for (const char *q = line; (q = memchr(q, '|', (size_t)(end - q)));
         q++)
        n++;
    if (n != json_array_size(header))
        return tokio__error(TOKIO_EFORMAT, "%zu fields where the header has "
                            "%zu", n, json_array_size(header));
    if ((task = json_object()) == NULL)
        return oom();
    for (size_t i = 0; i < n; i++) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        size_t flen = (size_t)((bar ? bar : end) - p);
        const json_t *key = json_array_get(header, i);
        if (i == 0)
            id_len = flen;
        if (json_string_length(key) > 0 &&
            json_object_set_new_nocheck(task, json_string_value(key),
                                        json_stringn_nocheck(p, flen)) < 0) {
            json_decref(task);
            return oom();
        }
        p = bar ? bar + 1 : end;
    }
    if ((rc = recast(s, task)) < 0) {
        json_decref(task);
        return rc;
    }
    return json_object_setn_new_nocheck(s->tasks, line, id_len, task) < 0
               ? oom() : TOKIO_OK;
}

static int
add_text(void *h, const char *text, size_t len, const char *name)
{
    const char *p = text, *end = text + len;
    json_t *header = NULL;
    int rc = TOKIO_OK;

    for (size_t lineno = 1; rc == TOKIO_OK && p < end; lineno++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);

        if (n > 0 && p[n - 1] == '\r')
            n--;
        if (!tokio__text_valid(p, n))
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line %zu: %s in sacct "
                              "text", name, lineno, memchr(p, '\0', n)
                              ? "NUL byte" : "invalid UTF-8");
        else if (lineno == 1 && n == 0)
            rc = tokio__error(TOKIO_EFORMAT, "'%s' line 1: empty, expected "
                              "the sacct header", name);
        else if (lineno == 1)
            rc = (header = json_array()) ? read_header(header, p, n) : oom();
        else if (n > 0 && (rc = add_line(h, header, p, n)) < 0 &&
                 rc != TOKIO_ENOMEM)
            tokio__error_prefix("'%s' line %zu", name, lineno);
        p = nl ? nl + 1 : end;
    }
    json_decref(header);
    return rc;
}

/* ---- the JSON form --------------------------------------------------- */

static int
add_json(void *h, const json_t *json)
{
    struct tokio_slurm *s = h;
    const char *id;
    json_t *task, *copy;
    int rc;

    if (!json_is_object(json))
        return tokio__error(TOKIO_EFORMAT, "Slurm JSON must be an object of "
                            "tasks");
    json_object_foreach((json_t *)json, id, task) {
        if (!json_is_object(task))
            return tokio__error(TOKIO_EFORMAT, "Slurm task '%.100s': not an "
                                "object", id);
        /* the task's own object, its values shared: nothing here changes
         * a value (recast() replaces a node list), and copying them all
         * took a third of the time of opening a JSON cache */
        if ((copy = tokio__json_copy(task)) == NULL)
            return oom();
        if ((rc = recast(s, copy)) < 0) {
            json_decref(copy);
            return rc == TOKIO_ENOMEM
                       ? rc : tokio__error_prefix("Slurm task '%.100s'", id);
        }
        if (json_object_set_new(s->tasks, id, copy) < 0)
            return oom();
    }
    return TOKIO_OK;
}

static int
new_table(void **out)
{
    struct tokio_slurm *s = tokio__calloc(1, sizeof(*s));

    *out = s;
    if (s == NULL || (s->tasks = json_object()) == NULL) {
        tokio_slurm_free(s);
        *out = NULL;
        return oom();
    }
    return TOKIO_OK;
}

TOKIO__CONNECTOR_OPEN_FUNCTIONS(slurm)

/* ---- running sacct --------------------------------------------------- */

static int
query(struct tokio_slurm **out, const char *const *argv)
{
    char *buf = NULL;
    size_t len = 0;
    int rc;

    *out = NULL;
    if ((rc = tokio__run_capture(argv, "Slurm's 'sacct'", 0, &buf,
                                 &len)) < 0)
        return rc;
    rc = tokio_slurm_open_mem(out, buf, len, "sacct output");
    free(buf);
    return rc;
}

int
tokio_slurm_query(struct tokio_slurm **out, const char *jobid)
{
    int rc;

    *out = NULL;
    if (jobid == NULL || *jobid == '\0')
        return tokio__error(TOKIO_EINVAL, "a Slurm job id is required");
    /* a job id is a number (123, 123_4, 123+1, 123.batch): anything
     * else was meant as a file, which is not there */
    if (*jobid < '0' || *jobid > '9')
        return tokio__error(TOKIO_EINVAL, "'%.200s' is no file here, nor "
                            "a Slurm job id", jobid);
    /* what the reference asked for: DEFAULT_KEYS + nodelist */
    const char *argv[] = { "sacct", "--jobs", jobid,
                           "--format=jobidraw,start,end,nodelist",
                           "--parsable2", NULL };
    if ((rc = query(out, argv)) < 0)
        return rc;
    if (tokio_slurm_count(*out) == 0) {
        tokio_slurm_free(*out);
        *out = NULL;
        return tokio__error(TOKIO_ENOTFOUND, "sacct knows no job '%.200s'",
                            jobid);
    }
    return TOKIO_OK;
}

int
tokio_slurm_jobs_running_between(struct tokio_slurm **out, int64_t start,
                                 int64_t end, const char *const *keys,
                                 size_t n_keys)
{
    static const char *const default_keys[] = { "jobidraw", "start", "end" };
    char t0[32], t1[32];
    struct tokio__sbuf fmt = { 0 };
    int rc = TOKIO_OK;

    *out = NULL;
    if (keys == NULL) {
        keys = default_keys;
        n_keys = 3;
    }
    if (tokio_time_format(t0, sizeof(t0), start, TIME_FORMAT) < 0 ||
        tokio_time_format(t1, sizeof(t1), end, TIME_FORMAT) < 0)
        return tokio__error(TOKIO_EINVAL, "start or end time out of range");
    if (n_keys == 0)
        return tokio__error(TOKIO_EINVAL, "no sacct fields asked for");
    for (size_t i = 0; i < n_keys && rc == TOKIO_OK; i++)
        if ((i > 0 && tokio__sbuf_add(&fmt, ",", 1) < 0) ||
            tokio__sbuf_add(&fmt, keys[i], strlen(keys[i])) < 0)
            rc = oom();
    if (rc == TOKIO_OK) {
        const char *argv[] = { "sacct", "--parsable", "--starttime", t0,
                               "--endtime", t1, "--state", "R",
                               "--allusers", "--format", fmt.s, NULL };
        rc = query(out, argv);
    }
    free(fmt.s);
    return rc;
}

/* ---- questions ------------------------------------------------------- */

size_t
tokio_slurm_count(const struct tokio_slurm *s)
{
    return json_object_size(s->tasks);
}

static int
task_of_job(const char *id, const char *jobid)
{
    size_t n = strlen(jobid);

    return strncmp(id, jobid, n) == 0 && (id[n] == '\0' || id[n] == '.');
}

int
tokio_slurm_select_job(struct tokio_slurm *s, const char *jobid)
{
    json_t *kept = json_object(), *task;
    const char *id;

    if (kept == NULL)
        return oom();
    json_object_foreach(s->tasks, id, task)
        if (task_of_job(id, jobid) && json_object_set(kept, id, task) < 0) {
            json_decref(kept);
            return oom();
        }
    if (json_object_size(kept) == 0) {
        json_decref(kept);
        return tokio__error(TOKIO_ENOTFOUND, "no task of job '%s' among %zu "
                            "Slurm tasks", jobid, tokio_slurm_count(s));
    }
    json_decref(s->tasks);
    s->tasks = kept;
    return TOKIO_OK;
}

int
tokio_slurm_get_job_ids(const struct tokio_slurm *s, const char ***ids_out,
                        size_t *n_out)
{
    const char **ids = NULL, *id;
    size_t n = 0;
    json_t *task;

    *ids_out = NULL;
    *n_out = 0;
    json_object_foreach(s->tasks, id, task) {
        if (strchr(id, '.') != NULL)
            continue;
        if (ids == NULL &&
            (ids = tokio__calloc(tokio_slurm_count(s), sizeof(*ids))) == NULL)
            return tokio__error(TOKIO_ENOMEM, "out of memory listing job "
                                "ids");
        ids[n++] = id;
    }
    *ids_out = ids;
    *n_out = n;
    return TOKIO_OK;
}

static int
strp_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
tokio_slurm_get_job_nodes(const struct tokio_slurm *s,
                          const char ***nodes_out, size_t *n_out)
{
    const char **nodes, *id;
    size_t total = 0, n = 0, u = 0, i;
    json_t *task, *name;

    *nodes_out = NULL;
    *n_out = 0;
    json_object_foreach(s->tasks, id, task)
        total += json_array_size(json_object_get(task, KEY_NODELIST));
    if (total == 0)
        return TOKIO_OK;
    if ((nodes = tokio__calloc(total, sizeof(*nodes))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory listing %zu "
                            "nodes", total);
    json_object_foreach(s->tasks, id, task)
        json_array_foreach(json_object_get(task, KEY_NODELIST), i, name)
            nodes[n++] = json_string_value(name);
    qsort(nodes, n, sizeof(*nodes), strp_cmp);
    for (i = 0; i < n; i++)
        if (u == 0 || strcmp(nodes[u - 1], nodes[i]) != 0)
            nodes[u++] = nodes[i];
    *nodes_out = nodes;
    *n_out = u;
    return TOKIO_OK;
}

int
tokio_slurm_get_job_startend(const struct tokio_slurm *s, int64_t *start_out,
                             int64_t *end_out)
{
    int have_start = 0, have_end = 0;
    int64_t start = 0, end = 0, t;
    const char *id;
    json_t *task;

    /* the times were checked when the tasks came in */
    json_object_foreach(s->tasks, id, task) {
        if (task_time(task, KEY_START, &t) > 0 && (!have_start || t < start)) {
            start = t;
            have_start = 1;
        }
        if (task_time(task, KEY_END, &t) > 0 && (!have_end || t > end)) {
            end = t;
            have_end = 1;
        }
    }
    if (!have_start || !have_end)
        return tokio__error(TOKIO_ENOTFOUND, "no start and end time among "
                            "%zu Slurm tasks", tokio_slurm_count(s));
    *start_out = start;
    *end_out = end;
    return TOKIO_OK;
}

/* ---- writing --------------------------------------------------------- */

int
tokio_slurm_to_json(const struct tokio_slurm *s, json_t **out)
{
    *out = json_incref(s->tasks);
    return TOKIO_OK;
}

/* The native form as text cells: its columns, then a row per task. */
struct cells {
    const char **cols;      /* borrowed from the table */
    size_t n_cols, n_rows;
    char **text;            /* n_rows x n_cols, row-major */
};

static void
cells_free(struct cells *c)
{
    for (size_t i = 0; c->text != NULL && i < c->n_rows * c->n_cols; i++)
        free(c->text[i]);
    free(c->text);
    free(c->cols);
}

/*
 * One value as the native form writes it (a new string, NULL when out of
 * memory): text as it is, a list comma-joined, and what only a JSON cache
 * holds as Python's str() printed it.
 */
static char *
cell_text(const json_t *v)
{
    struct tokio__sbuf b = { 0 };
    char num[40];
    const json_t *item;
    size_t i;

    switch (json_typeof(v)) {
    case JSON_STRING:
        return tokio__strdup(json_string_value(v));
    case JSON_ARRAY:
        if (tokio__sbuf_add(&b, "", 0) < 0)
            return NULL;
        json_array_foreach(v, i, item) {
            const char *str = json_is_string(item) ? json_string_value(item)
                                                   : "";
            if ((i > 0 && tokio__sbuf_add(&b, ",", 1) < 0) ||
                tokio__sbuf_add(&b, str, strlen(str)) < 0) {
                free(b.s);
                return NULL;
            }
        }
        return b.s;
    case JSON_INTEGER:
        snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
                 json_integer_value(v));
        return tokio__strdup(num);
    case JSON_REAL:
        tokio_format_double(num, sizeof(num), json_real_value(v));
        return tokio__strdup(num);
    case JSON_TRUE:
        return tokio__strdup("True");
    case JSON_FALSE:
        return tokio__strdup("False");
    case JSON_NULL:
        return tokio__strdup("None");
    default:
        return tokio__strdup("");
    }
}

/* The columns are the reference's: jobidraw, then the first task's other
 * fields; every task must have them all. */
static int
make_cells(const struct tokio_slurm *s, struct cells *c)
{
    json_t *first = json_object_iter_value(json_object_iter(s->tasks));
    json_t *task, *v;
    const char *id, *key;
    size_t row = 0;

    memset(c, 0, sizeof(*c));
    if (first == NULL)
        return TOKIO_OK;
    c->n_rows = tokio_slurm_count(s);
    if ((c->cols = tokio__calloc(json_object_size(first) + 1,
                                 sizeof(*c->cols))) == NULL)
        return oom();
    c->cols[c->n_cols++] = KEY_JOBIDRAW;
    json_object_foreach(first, key, v)
        if (strcmp(key, KEY_JOBIDRAW) != 0)
            c->cols[c->n_cols++] = key;
    if ((c->text = tokio__calloc(c->n_rows * c->n_cols,
                                 sizeof(*c->text))) == NULL) {
        cells_free(c);
        return oom();
    }
    json_object_foreach(s->tasks, id, task) {
        for (size_t k = 0; k < c->n_cols; k++) {
            char **cell = &c->text[row * c->n_cols + k];
            int rc = TOKIO_OK;
            if ((v = json_object_get(task, c->cols[k])) == NULL)
                rc = tokio__error(TOKIO_EFORMAT, "Slurm task '%s' has no "
                                  "'%s' field, which the first task has", id,
                                  c->cols[k]);
            else if ((*cell = cell_text(v)) == NULL)
                rc = oom();
            if (rc < 0) {
                cells_free(c);
                return rc;
            }
        }
        row++;
    }
    return TOKIO_OK;
}

int
tokio_slurm_write_native(const struct tokio_slurm *s, FILE *fp)
{
    struct cells c;
    int rc;

    if ((rc = make_cells(s, &c)) < 0)
        return rc;
    for (size_t k = 0; k < c.n_cols; k++)
        fprintf(fp, "%s%s", k ? "|" : "", c.cols[k]);
    for (size_t i = 0; i < c.n_rows; i++) {
        fputc('\n', fp);
        for (size_t k = 0; k < c.n_cols; k++)
            fprintf(fp, "%s%s", k ? "|" : "", c.text[i * c.n_cols + k]);
    }
    cells_free(&c);
    return tokio__write_check(fp, "cannot write Slurm tasks");
}

enum col_kind { COL_NA, COL_INT, COL_FLOAT, COL_BOOL, COL_TEXT, COL_DATE };

/*
 * What pandas' read_csv makes of one cell, by pandas 1.5's rules (not
 * Python's int()/float(): "1_000" and "0x10" are text to pandas): NA (its
 * default na_values), an integer that fits int64 (in *iv, and in *dv), a
 * decimal float or infinity (*dv), a bool (*iv), or text.
 */
static enum col_kind
cell_kind(const char *s, int64_t *iv, double *dv)
{
    static const char *const na[] = {
        "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN",
        "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN",
        "n/a", "nan", "null"
    };
    const char *p = s + (*s == '+' || *s == '-');
    size_t digits = strspn(p, "0123456789");
    const char *q = p + digits;

    for (size_t i = 0; i < sizeof(na) / sizeof(na[0]); i++)
        if (strcmp(s, na[i]) == 0)
            return COL_NA;
    if (strcmp(s, "True") == 0 || strcmp(s, "TRUE") == 0 ||
        strcmp(s, "true") == 0)
        return *iv = 1, COL_BOOL;
    if (strcmp(s, "False") == 0 || strcmp(s, "FALSE") == 0 ||
        strcmp(s, "false") == 0)
        return *iv = 0, COL_BOOL;
    if (strcmp(p, "inf") == 0 || strcmp(p, "Infinity") == 0 ||
        strcmp(p, "INF") == 0)
        return *dv = *s == '-' ? -HUGE_VAL : HUGE_VAL, COL_FLOAT;
    if (digits > 0 && *q == '\0') {
        errno = 0;
        *iv = strtoll(s, NULL, 10);
        int fits = errno == 0;
        *dv = strtod(s, NULL);
        return fits ? COL_INT : COL_FLOAT;
    }
    if (*q == '.') {
        size_t frac = strspn(q + 1, "0123456789");
        digits += frac;
        q += 1 + frac;
    }
    if (digits > 0 && (*q == 'e' || *q == 'E')) {
        q++;
        q += *q == '+' || *q == '-';
        q += strspn(q, "0123456789");
        if (q[-1] < '0' || q[-1] > '9')
            return COL_TEXT;
    }
    if (digits == 0 || *q != '\0')
        return COL_TEXT;
    *dv = strtod(s, NULL);
    return COL_FLOAT;
}

/* How read_csv types column `k` (parse_dates for start and end). */
static enum col_kind
column_kind(const struct cells *c, size_t k)
{
    int seen[COL_DATE + 1] = { 0 }, dates = 1;
    int want_date = strcmp(c->cols[k], KEY_START) == 0 ||
                    strcmp(c->cols[k], KEY_END) == 0;
    int64_t iv;
    double dv;

    for (size_t i = 0; i < c->n_rows; i++) {
        const char *cell = c->text[i * c->n_cols + k];
        enum col_kind kind = cell_kind(cell, &iv, &dv);
        seen[kind] = 1;
        if (kind != COL_NA && want_date &&
            tokio_time_parse_format(cell, TIME_FORMAT, &iv) < 0)
            dates = 0;
    }
    if (want_date && dates)
        return COL_DATE;
    if (seen[COL_TEXT] || (seen[COL_BOOL] && (seen[COL_INT] ||
                                             seen[COL_FLOAT])))
        return COL_TEXT;
    if (seen[COL_BOOL])
        return COL_BOOL;
    /* integers with a missing value are floats, as in numpy */
    return seen[COL_FLOAT] || seen[COL_NA] ? COL_FLOAT : COL_INT;
}

/* One cell of a column of kind `kind` as to_csv() writes it. */
static void
write_csv_cell(FILE *fp, const char *cell, enum col_kind kind)
{
    char buf[64];
    int64_t iv = 0;
    double dv = 0;

    if (cell_kind(cell, &iv, &dv) == COL_NA)
        return;
    switch (kind) {
    case COL_DATE:
        /* pandas prints a datetime with a space, not 'T' */
        snprintf(buf, sizeof(buf), "%s", cell);
        if (strlen(buf) > 10 && buf[10] == 'T')
            buf[10] = ' ';
        fputs(buf, fp);
        break;
    case COL_INT:
        fprintf(fp, "%" PRId64, iv);
        break;
    case COL_FLOAT:
        tokio_format_double(buf, sizeof(buf), dv);
        fputs(buf, fp);
        break;
    case COL_BOOL:
        fputs(iv ? "True" : "False", fp);
        break;
    default:
        tokio_csv_write_field(fp, cell, strlen(cell));
        break;
    }
}

int
tokio_slurm_write_csv(const struct tokio_slurm *s, FILE *fp)
{
    struct cells c;
    enum col_kind *kinds = NULL;
    int rc;

    if ((rc = make_cells(s, &c)) < 0)
        return rc;
    if (c.n_cols > 0 &&
        (kinds = tokio__calloc(c.n_cols, sizeof(*kinds))) == NULL) {
        cells_free(&c);
        return oom();
    }
    for (size_t k = 0; k < c.n_cols; k++) {
        kinds[k] = column_kind(&c, k);
        fputc(',', fp);
        tokio_csv_write_field(fp, c.cols[k], strlen(c.cols[k]));
    }
    fputc('\n', fp);
    for (size_t i = 0; i < c.n_rows; i++) {
        fprintf(fp, "%zu", i);
        for (size_t k = 0; k < c.n_cols; k++) {
            fputc(',', fp);
            write_csv_cell(fp, c.text[i * c.n_cols + k], kinds[k]);
        }
        fputc('\n', fp);
    }
    free(kinds);
    cells_free(&c);
    return tokio__write_check(fp, "cannot write Slurm CSV");
}

void
tokio_slurm_free(struct tokio_slurm *s)
{
    if (s == NULL)
        return;
    json_decref(s->tasks);
    free(s);
}

/* ---- the connector interface (src/core/connector.h) -------------------- */

/* sacct's header starts with the task id's field, JobID or JobIDRaw. */
static int
bid(const char *head, size_t n)
{
    const char *nl = memchr(head, '\n', n);
    size_t line = nl ? (size_t)(nl - head) : n;

    return line > 5 && strncasecmp(head, "jobid", 5) == 0 &&
           memchr(head, '|', line) ? 90 : 0;
}

static int
to_json(const void *h, json_t **out) { return tokio_slurm_to_json(h, out); }

static int
write_csv(const void *h, FILE *fp) { return tokio_slurm_write_csv(h, fp); }

static void
free_table(void *h) { tokio_slurm_free(h); }

const struct tokio__connector tokio__slurm_connector = {
    .name = "slurm",
    .what = "sacct --parsable output (a 'JobID...|' header) or its JSON "
            "form",
    /* 25 bytes of memory per byte of sacct text (a jansson object per
     * task); a job's sacct output is kilobytes */
    .max_bytes = (size_t)128 << 20,
    .bid = bid,
    .new = new_table,
    .add_text = add_text,
    .add_json = add_json,
    .to_json = to_json,
    .write_csv = write_csv,
    .free = free_table,
};
