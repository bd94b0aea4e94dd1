/*
 * src/core/config.c - the site configuration (tokio.config in pytokio).
 *
 * One file tells tokio where a site keeps its monitoring data.  It is JSON
 * (site.json, parsed by jansson) or YAML (parsed by libyaml's event API and
 * turned into the same jansson tree).  The YAML side mirrors what the
 * reference gets from PyYAML's SafeLoader plus its "!path" resolver:
 *
 *   - plain scalars are typed as YAML 1.1 says (null, bool, int, float,
 *     else string); quoted scalars are strings;
 *   - a plain scalar holding "${NAME}" on its first line is a string in
 *     which $NAME and ${NAME} are replaced from the environment, as
 *     os.path.expandvars() does (unknown names stay as written);
 *   - "<<" merge keys, anchors and aliases work; the explicit tags !!str,
 *     !!int, !!float, !!bool, !!null, !!map, !!seq and !path are honoured.
 *
 * Differs from pytokio:
 *   - top-level keys starting with '_' are skipped (comments), as the
 *     reference means to do (its loop says `pass` instead of `continue`);
 *   - when two top-level keys are the same once lower-cased, the later one
 *     wins whatever its type (the reference keeps an earlier number);
 *   - lower-casing is ASCII only (str.lower() also folds other letters);
 *   - values JSON cannot hold stay strings as written: .inf/.nan, ints
 *     beyond 64 bits, timestamps ("2001-12-14"), !!binary;
 *   - a missing file named explicitly or by $PYTOKIO_CONFIG/$TOKIO_CONFIG
 *     is an error (the reference silently uses an empty configuration);
 *   - an empty YAML document gives an empty configuration (the reference
 *     fails on None.items()).
 *
 * Input is hostile until parsed: alias expansion, nesting and file size
 * are all capped, so a small file cannot make us build or print a huge
 * tree ("billion laughs").
 */
#include "tokio/config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/fdio.h"
#include "core/text.h"
#include "core/json.h"
#include "core/sbuf.h"
#include "tokio/output.h"

#ifndef TOKIO_DEFAULT_CONFIG
#define TOKIO_DEFAULT_CONFIG "/etc/tokio/site.json"
#endif

/* A site configuration is a few kilobytes; anything this big is a mistake
 * (PYTOKIO_CONFIG pointing at a data file) and should not be slurped. */
#define CONFIG_MAX_BYTES ((size_t)64 << 20)

/* Aliases let a few hundred bytes describe 10^9 nodes.  Aliased subtrees
 * are shared, not copied, but everything that walks the result (printing,
 * comparing) sees them expanded, so the expanded count is what is capped. */
#define YAML_MAX_NODES 1000000

/* The JSON writer refuses trees deeper than 512 (src/core/json.c); refusing
 * them here too means every configuration that loads can be printed. */
#define CONFIG_MAX_DEPTH 512

struct tokio_config {
    json_t *root;       /* object: lower-case keys, overrides applied */
    char *path;         /* the file it came from, or NULL */
};

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */

/* A value's nesting depth, 1 for a scalar; stops counting past `limit`. */
static size_t
json_depth(const json_t *v, size_t limit)
{
    size_t deepest = 0;

    if (limit == 0)
        return 1;
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            size_t d = json_depth(json_array_get(v, i), limit - 1);
            if (d > deepest)
                deepest = d;
        }
    } else if (json_is_object(v)) {
        const char *key;
        json_t *item;
        json_object_foreach((json_t *)v, key, item) {
            size_t d = json_depth(item, limit - 1);
            if (d > deepest)
                deepest = d;
        }
    }
    return deepest + 1;
}

/* ------------------------------------------------------------------ */
/* Environment expansion (the reference's YAML "!path" constructor)     */

static int
is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/*
 * The reference's implicit resolver: re.match(r'.*\$\{([^}^{]+)\}.*').
 * Since '.' stops at a newline, the "${" must be on the first line; the
 * name may be anything but '{', '^' and '}', and not empty.
 */
static int
has_braced_var(const char *s, size_t n)
{
    const char *nl = memchr(s, '\n', n);
    size_t first = nl ? (size_t)(nl - s) : n;

    for (size_t i = 0; i + 1 < first; i++) {
        if (s[i] != '$' || s[i + 1] != '{')
            continue;
        size_t j = i + 2;
        while (j < n && s[j] != '}' && s[j] != '{' && s[j] != '^')
            j++;
        if (j < n && s[j] == '}' && j > i + 2)
            return 1;
    }
    return 0;
}

/*
 * os.path.expandvars() on POSIX: each $WORD or ${ANYTHING} whose name is
 * set in the environment is replaced by its value; the rest is copied as
 * is, and substituted values are not scanned again.
 */
static int
expand_vars(const char *s, size_t n, struct tokio__sbuf *out)
{
    size_t i = 0;

    while (i < n) {
        const char *dollar = memchr(s + i, '$', n - i);
        if (dollar == NULL)
            return tokio__sbuf_add(out, s + i, n - i);
        size_t d = (size_t)(dollar - s);
        size_t name_at, name_len, end;

        if (tokio__sbuf_add(out, s + i, d - i) < 0)
            return -1;
        if (d + 1 < n && s[d + 1] == '{') {
            const char *close = memchr(s + d + 2, '}', n - d - 2);
            if (close == NULL) {
                /* not a variable; a later $NAME still may be */
                if (tokio__sbuf_add(out, "$", 1) < 0)
                    return -1;
                i = d + 1;
                continue;
            }
            name_at = d + 2;
            name_len = (size_t)(close - (s + name_at));
            end = (size_t)(close - s) + 1;
        } else {
            name_at = d + 1;
            name_len = 0;
            while (name_at + name_len < n &&
                   is_word_char(s[name_at + name_len]))
                name_len++;
            end = name_at + name_len;
            if (name_len == 0) {
                if (tokio__sbuf_add(out, "$", 1) < 0)
                    return -1;
                i = d + 1;
                continue;
            }
        }
        /* names with '=' or NUL are never environment names */
        const char *value = NULL;
        if (name_len > 0 && memchr(s + name_at, '=', name_len) == NULL &&
            memchr(s + name_at, '\0', name_len) == NULL) {
            char *name = tokio__strndup(s + name_at, name_len);
            if (name == NULL)
                return -1;
            value = getenv(name);
            free(name);
        }
        if (value != NULL) {
            if (tokio__sbuf_add(out, value, strlen(value)) < 0)
                return -1;
        } else if (tokio__sbuf_add(out, s + d, end - d) < 0) {
            return -1;
        }
        i = end;
    }
    if (out->s == NULL)
        return tokio__sbuf_add(out, "", 0);
    return 0;
}

/* ------------------------------------------------------------------ */
/* YAML 1.1 scalar types, as PyYAML's SafeLoader resolves them          */

static int
matches_any(const char *s, size_t n, const char *const *words)
{
    for (; *words; words++)
        if (strlen(*words) == n && memcmp(*words, s, n) == 0)
            return 1;
    return 0;
}

static const char *const null_words[] = { "", "~", "null", "Null", "NULL",
                                          NULL };
static const char *const true_words[] = { "yes", "Yes", "YES", "true",
                                          "True", "TRUE", "on", "On", "ON",
                                          NULL };
static const char *const false_words[] = { "no", "No", "NO", "false",
                                           "False", "FALSE", "off", "Off",
                                           "OFF", NULL };

/* Add one digit to a magnitude, failing on overflow past 2^63. */
static int
accumulate(uint64_t *mag, unsigned base, unsigned digit)
{
    const uint64_t limit = (uint64_t)1 << 63;

    if (*mag > (limit - digit) / base)
        return -1;
    *mag = *mag * base + digit;
    return 0;
}

static int
digit_value(char c, unsigned base)
{
    unsigned v;

    if (c >= '0' && c <= '9')
        v = (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f')
        v = (unsigned)(c - 'a') + 10;
    else if (c >= 'A' && c <= 'F')
        v = (unsigned)(c - 'A') + 10;
    else
        return -1;
    return v < base ? (int)v : -1;
}

/*
 * PyYAML's int: [-+]? then 0b[01_]+, 0x[0-9a-fA-F_]+, 0[0-7_]+ (octal),
 * 0, [1-9][0-9_]*, or [1-9][0-9_]*(:[0-5]?[0-9])+ (base 60, "1:20" is
 * 80).  Returns 1 with *out set; 0 when `s` is not such an int or does not
 * fit in 64 bits (it then stays a string: JSON here has no bignums).
 */
static int
parse_int(const char *s, size_t n, json_int_t *out)
{
    size_t i = 0;
    int neg = 0;
    unsigned base = 10;
    uint64_t mag = 0;
    size_t digits = 0;

    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    if (i >= n)
        return 0;
    if (s[i] == '0' && i + 1 < n && (s[i + 1] == 'b' || s[i + 1] == 'x')) {
        base = s[i + 1] == 'b' ? 2 : 16;
        i += 2;
        if (i >= n)
            return 0;
    } else if (s[i] == '0' && i + 1 < n) {
        base = 8;
        i++;
    } else if (s[i] < '0' || s[i] > '9') {
        return 0;
    }
    if (base == 8)
        digits = 1;             /* "0_" is 0, as PyYAML strips '_' first */
    if (memchr(s + i, ':', n - i) != NULL) {
        /* base 60: [1-9][0-9_]* then one or more :[0-5]?[0-9] */
        if (base != 10)
            return 0;
        for (; i < n && s[i] != ':'; i++) {
            if (s[i] == '_')
                continue;
            if (s[i] < '0' || s[i] > '9' ||
                accumulate(&mag, 10, (unsigned)(s[i] - '0')) < 0)
                return 0;
        }
        while (i < n) {
            size_t start = ++i;         /* past the ':' */
            while (i < n && s[i] >= '0' && s[i] <= '9' && i - start < 2)
                i++;
            size_t len = i - start;
            if (len == 0 || (len == 2 && s[start] > '5') ||
                (i < n && s[i] != ':'))
                return 0;
            unsigned part = (unsigned)(s[start] - '0');
            if (len == 2)
                part = part * 10 + (unsigned)(s[start + 1] - '0');
            if (accumulate(&mag, 60, part) < 0)
                return 0;
        }
        digits = 1;
    } else {
        for (; i < n; i++) {
            if (s[i] == '_')
                continue;
            int d = digit_value(s[i], base);
            if (d < 0)
                return 0;
            if (accumulate(&mag, base, (unsigned)d) < 0)
                return 0;
            digits++;
        }
    }
    if (digits == 0)
        return 0;
    if (!neg && mag > (uint64_t)INT64_MAX)
        return 0;
    *out = neg ? (json_int_t)(0 - mag) : (json_int_t)mag;
    return 1;
}

/*
 * strtod() on a copy without '_', with '.' read as '.' whatever the
 * locale.  Numerals of 120 characters or more fail here and so stay
 * strings: no site configuration needs one.
 */
static int
to_double(const char *s, size_t n, double *out)
{
    char buf[128];
    size_t k = 0;
    const char *point = localeconv()->decimal_point;

    for (size_t i = 0; i < n; i++) {
        if (s[i] == '_')
            continue;
        if (k + 8 >= sizeof(buf))
            return 0;
        if (s[i] == '.' && point && point[0] && strcmp(point, ".") != 0) {
            size_t pl = strlen(point);
            if (k + pl + 8 >= sizeof(buf))
                return 0;
            memcpy(buf + k, point, pl);
            k += pl;
            continue;
        }
        buf[k++] = s[i];
    }
    buf[k] = '\0';
    if (k == 0 || strpbrk(buf, "xXpP") != NULL)
        return 0;               /* C's hex floats are not YAML's */
    char *end;
    *out = strtod(buf, &end);
    return *end == '\0';
}

/* Run of [0-9_], returning how many digits (not underscores) it held. */
static size_t
skip_digits(const char *s, size_t n, size_t *i)
{
    size_t digits = 0;

    while (*i < n && ((s[*i] >= '0' && s[*i] <= '9') || s[*i] == '_')) {
        if (s[*i] != '_')
            digits++;
        (*i)++;
    }
    return digits;
}

/*
 * PyYAML's float, which needs a '.':
 *   [-+]?[0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)?   ("1.5", "1.e+3")
 *   \.[0-9][0-9_]*([eE][-+][0-9]+)?                (".5")
 *   [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*      (base 60)
 *   [-+]?\.(inf|Inf|INF)   \.(nan|NaN|NAN)
 * So "1e5" and "1.0e5" are strings, as in the reference.  Returns 1 and
 * *out for a finite float, 2 for infinity or NaN (kept as the string, JSON
 * has no such numbers), 0 when not a float.
 */
static int
parse_float(const char *s, size_t n, double *out)
{
    size_t i = 0;
    int neg = 0;

    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    static const char *const infs[] = { ".inf", ".Inf", ".INF", NULL };
    static const char *const nans[] = { ".nan", ".NaN", ".NAN", NULL };
    if (matches_any(s + i, n - i, infs))
        return 2;
    if (i == 0 && matches_any(s, n, nans))
        return 2;
    if (i < n && s[i] == '.') {
        if (i != 0)
            return 0;           /* no sign before ".5" */
        i++;
        if (skip_digits(s, n, &i) == 0 || s[1] == '_')
            return 0;
    } else {
        if (i >= n || s[i] < '0' || s[i] > '9')
            return 0;
        skip_digits(s, n, &i);
        if (i < n && s[i] == ':') {
            /* base 60: every part after the first is [0-5]?[0-9] */
            double v = 0;
            size_t at = neg || s[0] == '+' ? 1 : 0;
            size_t first_end = i;
            if (!to_double(s + at, first_end - at, &v))
                return 0;
            while (i < n && s[i] == ':') {
                size_t start = ++i;
                while (i < n && s[i] >= '0' && s[i] <= '9' && i - start < 2)
                    i++;
                size_t len = i - start;
                if (len == 0 || (len == 2 && s[start] > '5'))
                    return 0;
                unsigned part = (unsigned)(s[start] - '0');
                if (len == 2)
                    part = part * 10 + (unsigned)(s[start + 1] - '0');
                v = v * 60 + part;
            }
            if (i >= n || s[i] != '.')
                return 0;
            size_t frac_at = i++;
            skip_digits(s, n, &i);
            if (i != n)
                return 0;
            double frac = 0;
            if (i - frac_at > 1 && !to_double(s + frac_at, i - frac_at, &frac))
                return 0;
            v += frac;
            *out = neg ? -v : v;
            return 1;
        }
        if (i >= n || s[i] != '.')
            return 0;
        i++;
        skip_digits(s, n, &i);
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i >= n || (s[i] != '-' && s[i] != '+'))
            return 0;
        i++;
        size_t start = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == start)
            return 0;
    }
    if (i != n)
        return 0;
    if (!to_double(s, n, out))
        return 0;
    /* "1.0e+999" is a float in YAML but infinite in a double */
    if (*out - *out != 0)
        return 2;
    return 1;
}

/* ------------------------------------------------------------------ */
/* YAML → jansson                                                       */

struct anchor {
    json_t *value;      /* NULL while its node is still open */
    size_t weight;      /* nodes it stands for, expanded */
    size_t height;      /* its nesting depth, 1 for a scalar */
};

/* An open sequence or mapping. */
struct frame {
    json_t *node;           /* array or object */
    json_t *merged;         /* mapping: what "<<" keys brought in, or NULL */
    char *key;              /* mapping: key waiting for its value */
    int have_key;
    int key_is_merge;
    size_t anchor;          /* 1 + index into anchors, 0: none */
    size_t start_nodes;     /* builder's node count when it opened */
    size_t height;          /* tallest child so far */
};

struct yaml_builder {
    const char *name;
    const char *text;
    size_t len;
    struct frame *stack;
    size_t depth;
    size_t cap;
    struct anchor *anchors;
    size_t n_anchors;
    size_t cap_anchors;
    json_t *anchor_index;   /* anchor name → index (json integer) */
    size_t nodes;           /* nodes so far, aliases expanded */
    json_t *doc;            /* the document's root, once complete */
    yaml_mark_t doc_mark;   /* where that root started */
    int seen_doc;
};

static int
mark_error(const struct yaml_builder *b, int status, yaml_mark_t m,
           const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int
mark_error(const struct yaml_builder *b, int status, yaml_mark_t m,
           const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    /* libyaml counts from 0; editors and PyYAML count from 1 */
    return tokio__error(status, "'%s' line %zu column %zu: %s", b->name,
                        m.line + 1, m.column + 1, msg);
}

static int
oom(const char *name)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s'", name);
}

/*
 * libyaml's reader reports a byte offset, not a line: count it out, with
 * columns in characters as the scanner counts them.
 */
static void
offset_to_mark(const char *text, size_t len, size_t offset, yaml_mark_t *m)
{
    m->line = 0;
    m->column = 0;
    if (offset > len)
        offset = len;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            m->line++;
            m->column = 0;
        } else if (((unsigned char)text[i] & 0xc0) != 0x80) {
            m->column++;
        }
    }
}

static int
parser_error(const struct yaml_builder *b, const yaml_parser_t *p)
{
    const char *problem = p->problem ? p->problem : "malformed YAML";
    yaml_mark_t m;

    switch (p->error) {
    case YAML_MEMORY_ERROR:
        return oom(b->name);
    case YAML_READER_ERROR:
        offset_to_mark(b->text, b->len, p->problem_offset, &m);
        if (p->problem_value != -1)
            return mark_error(b, TOKIO_EFORMAT, m, "%s (#%X at byte %zu)",
                              problem, (unsigned)p->problem_value,
                              p->problem_offset);
        return mark_error(b, TOKIO_EFORMAT, m, "%s (at byte %zu)", problem,
                          p->problem_offset);
    default:
        if (p->context != NULL)
            return mark_error(b, TOKIO_EFORMAT, p->problem_mark,
                              "%s (%s at line %zu column %zu)", problem,
                              p->context, p->context_mark.line + 1,
                              p->context_mark.column + 1);
        return mark_error(b, TOKIO_EFORMAT, p->problem_mark, "%s", problem);
    }
}

static int
count_nodes(struct yaml_builder *b, size_t n, yaml_mark_t m)
{
    if (n > YAML_MAX_NODES - b->nodes)
        return mark_error(b, TOKIO_EFORMAT, m,
                          "more than %d nodes once aliases are expanded "
                          "(an alias bomb?)", YAML_MAX_NODES);
    b->nodes += n;
    return 0;
}

static int
check_depth(const struct yaml_builder *b, size_t height, yaml_mark_t m)
{
    if (b->depth + height > CONFIG_MAX_DEPTH)
        return mark_error(b, TOKIO_EFORMAT, m, "nested deeper than %d levels",
                          CONFIG_MAX_DEPTH);
    return 0;
}

/*
 * Remember anchor `name`; its value is filled in when its node is
 * complete.  PyYAML refuses a second anchor of the same name, so do we.
 */
static int
add_anchor(struct yaml_builder *b, const yaml_char_t *name, yaml_mark_t m,
           size_t *index_out)
{
    const char *key = (const char *)name;

    if (json_object_get(b->anchor_index, key) != NULL)
        return mark_error(b, TOKIO_EFORMAT, m, "found duplicate anchor '%s'",
                          key);
    if (!tokio__utf8_valid(key, strlen(key)))
        return mark_error(b, TOKIO_EFORMAT, m, "anchor is not UTF-8");
    if (b->n_anchors == b->cap_anchors) {
        size_t cap = b->cap_anchors ? b->cap_anchors * 2 : 16;
        struct anchor *a = tokio__reallocarray(b->anchors, cap, sizeof(*a));
        if (a == NULL)
            return oom(b->name);
        b->anchors = a;
        b->cap_anchors = cap;
    }
    if (json_object_set_new(b->anchor_index, key,
                            json_integer((json_int_t)b->n_anchors)) < 0)
        return oom(b->name);
    b->anchors[b->n_anchors] = (struct anchor){ NULL, 0, 0 };
    *index_out = b->n_anchors++;
    return 0;
}

/* A scalar used as a mapping key, spelled as json.dumps() spells keys. */
static int
key_text(struct yaml_builder *b, const json_t *v, yaml_mark_t m, char **out)
{
    char num[64];
    const char *s;
    size_t n;

    switch (json_typeof(v)) {
    case JSON_STRING:
        s = json_string_value(v);
        n = json_string_length(v);
        if (memchr(s, '\0', n) != NULL)
            return mark_error(b, TOKIO_EFORMAT, m,
                              "mapping key holds a NUL character");
        break;
    case JSON_INTEGER:
        snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
                 json_integer_value(v));
        s = num;
        n = strlen(num);
        break;
    case JSON_REAL:
        tokio_format_double(num, sizeof(num), json_real_value(v));
        s = num;
        n = strlen(num);
        break;
    case JSON_TRUE:  s = "true";  n = 4; break;
    case JSON_FALSE: s = "false"; n = 5; break;
    case JSON_NULL:  s = "null";  n = 4; break;
    default:
        return mark_error(b, TOKIO_EFORMAT, m,
                          "mapping keys must be scalars");
    }
    if ((*out = tokio__strndup(s, n)) == NULL)
        return oom(b->name);
    return 0;
}

/*
 * Fold a "<<" value into the mapping being built.  As in PyYAML, keys
 * written in the mapping beat merged ones, a later "<<" beats an earlier
 * one, and in "<<: [*a, *b]" a beats b.
 */
static int
merge_into(struct yaml_builder *b, struct frame *f, const json_t *v,
           yaml_mark_t m)
{
    if (!json_is_object(v) && !json_is_array(v))
        return mark_error(b, TOKIO_EFORMAT, m,
                          "expected a mapping or list of mappings for "
                          "merging");
    for (size_t i = 0; json_is_array(v) && i < json_array_size(v); i++)
        if (!json_is_object(json_array_get(v, i)))
            return mark_error(b, TOKIO_EFORMAT, m,
                              "expected a mapping for merging");
    if (f->merged == NULL && (f->merged = json_object()) == NULL)
        return oom(b->name);
    if (json_is_object(v))
        return json_object_update(f->merged, (json_t *)v) < 0 ? oom(b->name)
                                                              : 0;
    for (size_t i = json_array_size(v); i-- > 0;)
        if (json_object_update(f->merged, json_array_get(v, i)) < 0)
            return oom(b->name);
    return 0;
}

/*
 * Put a finished node (a new reference, always consumed) where it belongs:
 * the document root, the next item of a sequence, or a mapping's key or
 * value.
 */
static int
attach(struct yaml_builder *b, json_t *v, size_t height, yaml_mark_t m)
{
    int rc = 0;

    if (b->depth == 0) {
        b->doc = v;
        return 0;
    }
    struct frame *f = &b->stack[b->depth - 1];
    if (height > f->height)
        f->height = height;
    if (json_is_array(f->node)) {
        if (json_array_append_new(f->node, v) < 0)
            return oom(b->name);
        return 0;
    }
    if (!f->have_key) {
        /* strings were checked for UTF-8 when made; the rest are ASCII */
        rc = key_text(b, v, m, &f->key);
        json_decref(v);
        if (rc < 0)
            return rc;
        f->have_key = 1;
        return 0;
    }
    if (f->key_is_merge) {
        rc = merge_into(b, f, v, m);
        json_decref(v);
    } else if (json_object_set_new(f->node, f->key, v) < 0) {
        rc = oom(b->name);
    }
    free(f->key);
    f->key = NULL;
    f->have_key = 0;
    f->key_is_merge = 0;
    return rc;
}

static int
is_tag(const yaml_char_t *tag, const char *want)
{
    return tag != NULL && strcmp((const char *)tag, want) == 0;
}

static int
unknown_tag(const struct yaml_builder *b, const yaml_char_t *tag,
            yaml_mark_t m)
{
    return mark_error(b, TOKIO_EFORMAT, m,
                      "could not determine a constructor for the tag '%s'",
                      (const char *)tag);
}

static int
new_string(struct yaml_builder *b, const char *s, size_t n, yaml_mark_t m,
           json_t **out)
{
    /* only expanded variables can bring in bytes that are not UTF-8 */
    if (!tokio__utf8_valid(s, n))
        return mark_error(b, TOKIO_EFORMAT, m,
                          "value is not UTF-8 once variables are expanded");
    if ((*out = json_stringn(s, n)) == NULL)
        return oom(b->name);
    return 0;
}

static int
expanded_string(struct yaml_builder *b, const char *s, size_t n,
                yaml_mark_t m, json_t **out)
{
    struct tokio__sbuf sb = { 0 };

    if (expand_vars(s, n, &sb) < 0) {
        free(sb.s);
        return oom(b->name);
    }
    int rc = new_string(b, sb.s, sb.len, m, out);
    free(sb.s);
    return rc;
}

/* An untagged plain scalar: YAML 1.1 types, then the "${" resolver. */
static int
resolve_plain(struct yaml_builder *b, const char *s, size_t n, yaml_mark_t m,
              json_t **out)
{
    json_int_t i;
    double d;

    if (matches_any(s, n, null_words))
        *out = json_null();
    else if (matches_any(s, n, true_words))
        *out = json_true();
    else if (matches_any(s, n, false_words))
        *out = json_false();
    else if (parse_int(s, n, &i))
        *out = json_integer(i);
    else if (parse_float(s, n, &d) == 1)
        *out = json_real(d);
    else if (has_braced_var(s, n))
        return expanded_string(b, s, n, m, out);
    else
        return new_string(b, s, n, m, out);
    return *out == NULL ? oom(b->name) : 0;
}

/* A scalar with an explicit tag, constructed as PyYAML's SafeConstructor
 * does: the tag decides, and text that does not fit it is an error. */
static int
resolve_tagged(struct yaml_builder *b, const yaml_char_t *tag, const char *s,
               size_t n, yaml_mark_t m, json_t **out)
{
    json_int_t i;
    double d;

    if (is_tag(tag, YAML_STR_TAG) || is_tag(tag, YAML_TIMESTAMP_TAG) ||
        is_tag(tag, "tag:yaml.org,2002:binary"))
        return new_string(b, s, n, m, out);
    if (is_tag(tag, "!path"))
        return expanded_string(b, s, n, m, out);
    if (is_tag(tag, YAML_NULL_TAG)) {
        *out = json_null();
    } else if (is_tag(tag, YAML_BOOL_TAG)) {
        static const char *const yes[] = { "yes", "true", "on", NULL };
        static const char *const no[] = { "no", "false", "off", NULL };
        char low[8];
        size_t k;
        for (k = 0; k < n && k < sizeof(low); k++)
            low[k] = (char)((s[k] >= 'A' && s[k] <= 'Z') ? s[k] + 32 : s[k]);
        if (n <= sizeof(low) && matches_any(low, n, yes))
            *out = json_true();
        else if (n <= sizeof(low) && matches_any(low, n, no))
            *out = json_false();
        else
            return mark_error(b, TOKIO_EFORMAT, m, "'%.*s' is not a bool",
                              (int)(n > 64 ? 64 : n), s);
    } else if (is_tag(tag, YAML_INT_TAG)) {
        if (!parse_int(s, n, &i))
            return mark_error(b, TOKIO_EFORMAT, m,
                              "'%.*s' is not a 64-bit int",
                              (int)(n > 64 ? 64 : n), s);
        *out = json_integer(i);
    } else if (is_tag(tag, YAML_FLOAT_TAG)) {
        /* construct_yaml_float takes what float() takes: "1", "1e5" */
        int kind = parse_float(s, n, &d);
        if (kind == 0 && to_double(s, n, &d))
            kind = d - d != 0 ? 2 : 1;
        if (kind == 2)
            return new_string(b, s, n, m, out);
        if (kind == 0)
            return mark_error(b, TOKIO_EFORMAT, m, "'%.*s' is not a float",
                              (int)(n > 64 ? 64 : n), s);
        *out = json_real(d);
    } else {
        return unknown_tag(b, tag, m);
    }
    return *out == NULL ? oom(b->name) : 0;
}

static int
on_scalar(struct yaml_builder *b, const yaml_event_t *ev)
{
    const char *s = (const char *)ev->data.scalar.value;
    const size_t n = ev->data.scalar.length;
    const yaml_char_t *tag = ev->data.scalar.tag;
    const yaml_mark_t m = ev->start_mark;
    const int plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    json_t *v = NULL;
    int rc;

    if (b->depth == 0)
        b->doc_mark = m;
    if ((rc = count_nodes(b, 1, m)) < 0 || (rc = check_depth(b, 1, m)) < 0)
        return rc;
    /* "<<" as a plain key means "merge"; quoted, it is just a key */
    struct frame *f = b->depth ? &b->stack[b->depth - 1] : NULL;
    if (f && json_is_object(f->node) && !f->have_key && plain &&
        tag == NULL && n == 2 && memcmp(s, "<<", 2) == 0) {
        f->have_key = 1;
        f->key_is_merge = 1;
        return 0;
    }
    /* "!" alone is PyYAML's non-specific tag: plain stays implicit */
    if (tag == NULL || is_tag(tag, "!"))
        rc = plain ? resolve_plain(b, s, n, m, &v) : new_string(b, s, n, m,
                                                                 &v);
    else
        rc = resolve_tagged(b, tag, s, n, m, &v);
    if (rc < 0)
        return rc;
    if (ev->data.scalar.anchor != NULL) {
        size_t a;
        if ((rc = add_anchor(b, ev->data.scalar.anchor, m, &a)) < 0) {
            json_decref(v);
            return rc;
        }
        b->anchors[a] = (struct anchor){ json_incref(v), 1, 1 };
    }
    return attach(b, v, 1, m);
}

static int
on_alias(struct yaml_builder *b, const yaml_event_t *ev)
{
    const char *name = (const char *)ev->data.alias.anchor;
    const yaml_mark_t m = ev->start_mark;
    json_t *idx = json_object_get(b->anchor_index, name);
    int rc;

    if (b->depth == 0)
        b->doc_mark = m;
    if (idx == NULL)
        return mark_error(b, TOKIO_EFORMAT, m, "found undefined alias '%s'",
                          name);
    const struct anchor *a = &b->anchors[json_integer_value(idx)];
    if (a->value == NULL)
        return mark_error(b, TOKIO_EFORMAT, m,
                          "alias '%s' is inside its own anchor (JSON cannot "
                          "hold a cycle)", name);
    if ((rc = count_nodes(b, a->weight, m)) < 0 ||
        (rc = check_depth(b, a->height, m)) < 0)
        return rc;
    /* shared, not copied: the cap above bounds what walkers will see */
    return attach(b, json_incref(a->value), a->height, m);
}

static int
on_start(struct yaml_builder *b, const yaml_event_t *ev, int mapping)
{
    const yaml_mark_t m = ev->start_mark;
    const yaml_char_t *tag = mapping ? ev->data.mapping_start.tag
                                     : ev->data.sequence_start.tag;
    const yaml_char_t *anchor = mapping ? ev->data.mapping_start.anchor
                                        : ev->data.sequence_start.anchor;
    size_t start = b->nodes;
    int rc;

    if (b->depth == 0)
        b->doc_mark = m;
    if (b->depth > 0) {
        const struct frame *top = &b->stack[b->depth - 1];
        if (json_is_object(top->node) && !top->have_key)
            return mark_error(b, TOKIO_EFORMAT, m,
                              "mapping keys must be scalars, not a %s",
                              mapping ? "mapping" : "sequence");
    }
    if (tag != NULL && !is_tag(tag, "!") &&
        !is_tag(tag, mapping ? YAML_MAP_TAG : YAML_SEQ_TAG))
        return unknown_tag(b, tag, m);
    if ((rc = count_nodes(b, 1, m)) < 0 || (rc = check_depth(b, 1, m)) < 0)
        return rc;
    if (b->depth == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 16;
        struct frame *st = tokio__reallocarray(b->stack, cap, sizeof(*st));
        if (st == NULL)
            return oom(b->name);
        b->stack = st;
        b->cap = cap;
    }
    struct frame f = { NULL, NULL, NULL, 0, 0, 0, start, 0 };
    if ((f.node = mapping ? json_object() : json_array()) == NULL)
        return oom(b->name);
    if (anchor != NULL) {
        size_t a;
        if ((rc = add_anchor(b, anchor, m, &a)) < 0) {
            json_decref(f.node);
            return rc;
        }
        f.anchor = a + 1;
    }
    b->stack[b->depth++] = f;
    return 0;
}

static int
on_end(struct yaml_builder *b, const yaml_event_t *ev)
{
    struct frame f = b->stack[--b->depth];
    json_t *node = f.node;

    free(f.key);        /* libyaml pairs every key, but be safe */
    if (f.merged != NULL) {
        /* merged keys first, the mapping's own keys over them */
        if (json_object_update(f.merged, node) < 0) {
            json_decref(f.merged);
            json_decref(node);
            return oom(b->name);
        }
        json_decref(node);
        node = f.merged;
    }
    size_t height = f.height + 1;
    if (f.anchor != 0)
        b->anchors[f.anchor - 1] = (struct anchor){
            json_incref(node), b->nodes - f.start_nodes, height
        };
    return attach(b, node, height, ev->start_mark);
}

static int
on_event(struct yaml_builder *b, const yaml_event_t *ev)
{
    switch (ev->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (b->seen_doc)
            return mark_error(b, TOKIO_EFORMAT, ev->start_mark,
                              "expected a single document in the stream, "
                              "found another");
        b->seen_doc = 1;
        return 0;
    case YAML_ALIAS_EVENT:
        return on_alias(b, ev);
    case YAML_SCALAR_EVENT:
        return on_scalar(b, ev);
    case YAML_SEQUENCE_START_EVENT:
        return on_start(b, ev, 0);
    case YAML_MAPPING_START_EVENT:
        return on_start(b, ev, 1);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        return on_end(b, ev);
    default:
        return 0;
    }
}

static void
builder_free(struct yaml_builder *b)
{
    for (size_t i = 0; i < b->depth; i++) {
        json_decref(b->stack[i].node);
        json_decref(b->stack[i].merged);
        free(b->stack[i].key);
    }
    free(b->stack);
    for (size_t i = 0; i < b->n_anchors; i++)
        json_decref(b->anchors[i].value);
    free(b->anchors);
    json_decref(b->anchor_index);
    json_decref(b->doc);
}

/* YAML text → *out, an object (empty for an empty document). */
static int
parse_yaml(const char *text, size_t len, const char *name, json_t **out)
{
    struct yaml_builder b;
    yaml_parser_t parser;
    int rc = 0;

    memset(&b, 0, sizeof(b));
    b.name = name;
    b.text = text;
    b.len = len;
    *out = NULL;
    if ((b.anchor_index = json_object()) == NULL)
        return oom(name);
    if (!yaml_parser_initialize(&parser)) {
        builder_free(&b);
        return oom(name);
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    for (int done = 0; !done && rc == 0;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            rc = parser_error(&b, &parser);
            break;
        }
        done = ev.type == YAML_STREAM_END_EVENT;
        rc = on_event(&b, &ev);
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    if (rc == 0) {
        if (b.doc == NULL || json_is_null(b.doc)) {
            /* an empty file, "---" or "~": nothing configured */
            json_decref(b.doc);
            if ((b.doc = json_object()) == NULL)
                rc = oom(name);
        } else if (!json_is_object(b.doc)) {
            rc = mark_error(&b, TOKIO_EFORMAT, b.doc_mark,
                            "the top level must be a mapping, not %s",
                            json_is_array(b.doc) ? "a sequence"
                                                 : "a scalar");
        }
    }
    if (rc == 0) {
        *out = b.doc;
        b.doc = NULL;
    }
    builder_free(&b);
    return rc;
}

/* ------------------------------------------------------------------ */
/* JSON, files, and the configuration itself                            */

static int
parse_json(const char *text, size_t len, const char *name, json_t **out)
{
    int rc = tokio__json_parse_named(out, text, len, 0, name);

    if (rc < 0)
        return rc;
    if (!json_is_object(*out)) {
        json_decref(*out);
        *out = NULL;
        return tokio__error(TOKIO_EFORMAT,
                            "'%s' line 1 column 1: the top level must be an "
                            "object", name);
    }
    return 0;
}

/* The contract: .yaml/.yml, or text not starting with '{', is YAML. */
static int
looks_like_yaml(const char *name, const char *text, size_t len)
{
    size_t nl = name ? strlen(name) : 0;

    if ((nl >= 5 && strcmp(name + nl - 5, ".yaml") == 0) ||
        (nl >= 4 && strcmp(name + nl - 4, ".yml") == 0))
        return 1;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' ||
            text[i] == '\n')
            continue;
        return text[i] != '{';
    }
    return 1;
}

/*
 * Whole file into a new NUL-ended buffer.  *missing is set when the file
 * does not exist, which the caller forgives for the installed default.
 */
static int
read_file(const char *path, char **text_out, size_t *len_out, int *missing)
{
    unsigned char *text = NULL;
    struct stat st;
    int fd, rc = 0, failed = 0;     /* failed: errno says why */

    *text_out = NULL;
    *len_out = 0;
    *missing = 0;
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
        *missing = errno == ENOENT;
        return tokio__error(TOKIO_EIO, "cannot open '%s': %s", path,
                            strerror(errno));
    }
    if (fstat(fd, &st) < 0) {
        rc = tokio__error(TOKIO_EIO, "cannot stat '%s': %s", path,
                          strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
        rc = tokio__error(TOKIO_EIO, "cannot read '%s': %s", path,
                          strerror(EISDIR));
    } else if (S_ISREG(st.st_mode) &&
               (uintmax_t)st.st_size > CONFIG_MAX_BYTES) {
        errno = EFBIG;      /* refused before a byte is read */
        failed = 1;
    } else if (tokio__read_whole_fd(fd, NULL, 0, CONFIG_MAX_BYTES,
                                    /* a hint: pipes and /proc say 0 */
                                    S_ISREG(st.st_mode)
                                    ? (size_t)st.st_size : 0,
                                    &text, len_out) < 0) {
        failed = 1;
    }
    if (failed)
        rc = errno == ENOMEM ? oom(path)
             : errno == EFBIG ? tokio__error(TOKIO_EFORMAT, "'%s' is "
                                             "larger than %zu MiB; not a "
                                             "site configuration", path,
                                             CONFIG_MAX_BYTES >> 20)
             : tokio__error(TOKIO_EIO, "cannot read '%s': %s", path,
                            strerror(errno));
    close(fd);
    *text_out = (char *)text;
    return rc;
}

/* Apply the PYTOKIO_<NAME> environment overrides to `root`. */
static int
apply_overrides(json_t *root)
{
    static const char *const names[] = { TOKIO_CONFIG_OVERRIDES };

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char var[64], key[64];
        size_t k;

        snprintf(var, sizeof(var), "PYTOKIO_%s", names[i]);
        const char *s = getenv(var);
        /* set but empty counts as set: the reference stores "" then */
        if (s == NULL)
            continue;
        for (k = 0; names[i][k] && k + 1 < sizeof(key); k++)
            key[k] = (char)(names[i][k] >= 'A' && names[i][k] <= 'Z'
                                ? names[i][k] + 32 : names[i][k]);
        key[k] = '\0';

        json_error_t err;
        int memory;
        json_t *v = tokio__json_parse(s, strlen(s), JSON_DECODE_ANY, &err,
                                       &memory);
        if (v == NULL) {
            if (memory)
                return tokio__error(TOKIO_ENOMEM,
                                    "out of memory reading $%s", var);
            if (!tokio__utf8_valid(s, strlen(s)))
                return tokio__error(TOKIO_EFORMAT, "$%s is not UTF-8", var);
            if ((v = json_string(s)) == NULL)
                return tokio__error(TOKIO_ENOMEM,
                                    "out of memory reading $%s", var);
        }
        if (json_object_set_new(root, key, v) < 0)
            return tokio__error(TOKIO_ENOMEM, "out of memory reading $%s",
                                var);
    }
    return 0;
}

/*
 * Build the configuration from a parsed document (borrowed): top-level
 * keys lower-cased, '_' keys dropped, then the environment overrides.
 */
static int
make_config(struct tokio_config **out, const json_t *doc, const char *name,
            const char *path)
{
    struct tokio_config *cfg = tokio__calloc(1, sizeof(*cfg));
    int rc = 0;

    if (cfg == NULL)
        return oom(name);
    if ((cfg->root = json_object()) == NULL ||
        (path != NULL && (cfg->path = tokio__strdup(path)) == NULL)) {
        rc = oom(name);
        goto fail;
    }
    if (json_depth(doc, CONFIG_MAX_DEPTH + 1) > CONFIG_MAX_DEPTH) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s': nested deeper than %d levels",
                          name, CONFIG_MAX_DEPTH);
        goto fail;
    }
    for (void *it = json_object_iter((json_t *)doc); it != NULL;
         it = json_object_iter_next((json_t *)doc, it)) {
        const char *key = json_object_iter_key(it);
        if (key[0] == '_')
            continue;
        char *low = tokio__strdup(key);
        if (low == NULL) {
            rc = oom(name);
            goto fail;
        }
        for (char *p = low; *p; p++)
            if (*p >= 'A' && *p <= 'Z')
                *p = (char)(*p + 32);
        rc = json_object_set(cfg->root, low, json_object_iter_value(it));
        free(low);
        if (rc < 0) {
            rc = oom(name);
            goto fail;
        }
    }
    if ((rc = apply_overrides(cfg->root)) < 0)
        goto fail;
    *out = cfg;
    return 0;
fail:
    tokio_config_free(cfg);
    return rc;
}

static int
load_text(struct tokio_config **out, const char *text, size_t len,
          const char *name, const char *path)
{
    json_t *doc = NULL;
    int rc;

    if (looks_like_yaml(name, text, len))
        rc = parse_yaml(text, len, name, &doc);
    else
        rc = parse_json(text, len, name, &doc);
    if (rc < 0)
        return rc;
    rc = make_config(out, doc, name, path);
    json_decref(doc);
    return rc;
}

static const char *
env_path(const char *var)
{
    const char *s = getenv(var);

    /* "VAR=" unsets in spirit: no file is called "" */
    return s != NULL && s[0] != '\0' ? s : NULL;
}

int
tokio_config_open(struct tokio_config **out, const char *path)
{
    char *text;
    size_t len;
    int missing, rc;
    int installed_default = 0;

    if (out == NULL)
        return tokio__error(TOKIO_EINVAL, "tokio_config_open: out is NULL");
    *out = NULL;
    if (path == NULL && (path = env_path("PYTOKIO_CONFIG")) == NULL &&
        (path = env_path("TOKIO_CONFIG")) == NULL) {
        path = TOKIO_DEFAULT_CONFIG;
        installed_default = 1;
    }
    if ((rc = read_file(path, &text, &len, &missing)) < 0) {
        if (!(installed_default && missing))
            return rc;
        /* no site file installed: defaults and overrides only */
        json_t *empty = json_object();
        if (empty == NULL)
            return oom(path);
        rc = make_config(out, empty, path, NULL);
        json_decref(empty);
        return rc;
    }
    rc = load_text(out, text, len, path, path);
    free(text);
    return rc;
}

int
tokio_config_open_mem(struct tokio_config **out, const char *text,
                      size_t len, const char *name)
{
    if (out == NULL)
        return tokio__error(TOKIO_EINVAL,
                            "tokio_config_open_mem: out is NULL");
    *out = NULL;
    if (text == NULL && len > 0)
        return tokio__error(TOKIO_EINVAL,
                            "tokio_config_open_mem: no text");
    return load_text(out, text ? text : "", len, name ? name : "<memory>",
                     NULL);
}

const json_t *
tokio_config_get(const struct tokio_config *cfg, const char *key)
{
    if (cfg == NULL || key == NULL)
        return NULL;
    return json_object_get(cfg->root, key);
}

const json_t *
tokio_config_json(const struct tokio_config *cfg)
{
    return cfg ? cfg->root : NULL;
}

const char *
tokio_config_path(const struct tokio_config *cfg)
{
    return cfg ? cfg->path : NULL;
}

void
tokio_config_free(struct tokio_config *cfg)
{
    if (cfg == NULL)
        return;
    json_decref(cfg->root);
    free(cfg->path);
    free(cfg);
}
