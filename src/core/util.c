/*
 * src/core/util.c - the reference's small helpers: humanize_bytes() and
 * recast_string() of tokio.common, and the natural node-name order of
 * tokio.timeseries.sorted_nodenames().
 *
 * Each reproduces the Python behaviour, including the parts that come from
 * Python itself rather than pytokio (what int() and float() accept, how
 * lists of mixed ints and strings compare); the few places where Python
 * has no answer or JSON cannot hold its answer are marked "Differs from
 * pytokio".
 */
#include "tokio/util.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

/* ---- humanize_bytes ------------------------------------------------- */

struct unit {
    double size;
    const char *name;
};

/* largest first, as the reference tries them; all exact in a double */
static const struct unit binary_units[] = {
    { 1208925819614629174706176.0, "YiB" },     /* 2^80 */
    { 1180591620717411303424.0, "ZiB" },        /* 2^70 */
    { 1152921504606846976.0, "EiB" },           /* 2^60 */
    { 1125899906842624.0, "PiB" },              /* 2^50 */
    { 1099511627776.0, "TiB" },                 /* 2^40 */
    { 1073741824.0, "GiB" },                    /* 2^30 */
    { 1048576.0, "MiB" },                       /* 2^20 */
    { 1024.0, "KiB" },                          /* 2^10 */
};

/* 10^24 is the one power here a double cannot hold; see reaches() */
static const struct unit decimal_units[] = {
    { 1e24, "YB" }, { 1e21, "ZB" }, { 1e18, "EB" }, { 1e15, "PB" },
    { 1e12, "TB" }, { 1e9, "GB" }, { 1e6, "MB" }, { 1e3, "KB" },
};

/*
 * |bytes| >= the unit, compared as Python compares a float with the exact
 * integer 10**24: the double 1e24 lies just below 10^24 and the next
 * double above it just above, so ">= 10^24" is "> 1e24".
 */
static int
reaches(double magnitude, const struct unit *u)
{
    if (u->size == 1e24)
        return magnitude > u->size;
    return magnitude >= u->size;
}

int
tokio_humanize_bytes(char *buf, size_t size, double bytes, int base10)
{
    const struct unit *units = base10 ? decimal_units : binary_units;
    const size_t n_units = base10
        ? sizeof(decimal_units) / sizeof(decimal_units[0])
        : sizeof(binary_units) / sizeof(binary_units[0]);
    int n = -1;

    if (buf == NULL || size == 0)
        return tokio__error(TOKIO_EINVAL, "humanize_bytes: no buffer");
    /* Python prints any NaN as "nan", C may print "-nan" */
    if (isnan(bytes))
        n = snprintf(buf, size, "nan bytes");
    for (size_t i = 0; n < 0 && i < n_units; i++)
        if (reaches(fabs(bytes), &units[i]))
            n = snprintf(buf, size, "%.1f %s", bytes / units[i].size,
                         units[i].name);
    if (n < 0)
        n = snprintf(buf, size, "%.1f %s", bytes,
                     bytes == 1.0 ? "byte" : "bytes");
    if (n < 0 || (size_t)n >= size) {
        buf[0] = '\0';
        return tokio__error(TOKIO_EINVAL,
                            "humanize_bytes: %g bytes do not fit in %zu "
                            "characters", bytes, size);
    }
    return TOKIO_OK;
}

/* ---- recast_string -------------------------------------------------- */

/*
 * The whitespace int() and float() skip around a number: ASCII's six
 * (not \x1c..\x1f, which str.isspace() would count) and, as UTF-8, the
 * Unicode spaces Python turns into ASCII ones before parsing.
 */
static const char *const unicode_spaces[] = {
    "\xc2\x85", "\xc2\xa0", "\xe1\x9a\x80", "\xe2\x80\x80",
    "\xe2\x80\x81", "\xe2\x80\x82", "\xe2\x80\x83", "\xe2\x80\x84",
    "\xe2\x80\x85", "\xe2\x80\x86", "\xe2\x80\x87", "\xe2\x80\x88",
    "\xe2\x80\x89", "\xe2\x80\x8a", "\xe2\x80\xa8", "\xe2\x80\xa9",
    "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80",
};

/* Bytes of the space starting (or, with `before`, ending) at p; or 0. */
static size_t
space_length(const char *b, const char *e, const char *p, int before)
{
    if (before ? p > b : p < e) {
        char c = before ? p[-1] : *p;
        if (c == ' ' || (c >= '\t' && c <= '\r'))
            return 1;
    }
    for (size_t i = 0; i < sizeof(unicode_spaces) / sizeof(*unicode_spaces);
         i++) {
        size_t n = strlen(unicode_spaces[i]);
        if (before ? (size_t)(p - b) >= n
                         && memcmp(p - n, unicode_spaces[i], n) == 0
                   : (size_t)(e - p) >= n
                         && memcmp(p, unicode_spaces[i], n) == 0)
            return n;
    }
    return 0;
}

static int
is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int
is_hex(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int
hex_value(char c)
{
    if (is_digit(c))
        return c - '0';
    return (c | 0x20) - 'a' + 10;
}

/*
 * Python's digit-part grammar (PEP 515): digits with single underscores
 * between them.  Copies the digits without underscores to `out` and
 * returns how many input characters matched (0: none).
 */
static size_t
digit_part(const char *p, int (*is_d)(char), char *out, size_t *n_out)
{
    size_t i = 0;

    if (!is_d(p[0]))
        return 0;
    while (is_d(p[i]) || (p[i] == '_' && i > 0 && is_d(p[i + 1]))) {
        if (p[i] != '_')
            out[(*n_out)++] = p[i];
        i++;
    }
    return i;
}

/* Trim Python's whitespace: [*begin, *end) */
static void
trim(const char *text, const char **begin, const char **end)
{
    const char *b = text, *e = text + strlen(text);
    size_t n;

    while ((n = space_length(b, e, b, 0)) > 0)
        b += n;
    while ((n = space_length(b, e, e, 1)) > 0)
        e -= n;
    *begin = b;
    *end = e;
}

/*
 * An integer literal as int(text, base) reads it, base 10 or 16, into
 * `clean` as "[-]DIGITS" (base 16: "[-]0xDIGITS").  0 if it is not one.
 */
static int
scan_int(const char *b, const char *e, int base, char *clean)
{
    size_t n = 0, used;

    if (b < e && (*b == '+' || *b == '-')) {
        if (*b == '-')
            clean[n++] = '-';
        b++;
    }
    if (base == 16) {
        clean[n++] = '0';
        clean[n++] = 'x';
        /* int(x, 16) takes an optional 0x, and "0x_1f" */
        if (e - b >= 2 && b[0] == '0' && (b[1] | 0x20) == 'x') {
            b += 2;
            if (b < e && *b == '_')
                b++;
        }
    }
    used = digit_part(b, base == 16 ? is_hex : is_digit, clean, &n);
    clean[n] = '\0';
    return used > 0 && b + used == e;
}

/* A float literal as float() reads it (not inf/nan), into `clean`. */
static int
scan_float(const char *b, const char *e, char *clean)
{
    size_t n = 0, used, mantissa = 0;

    if (b < e && (*b == '+' || *b == '-'))
        clean[n++] = *b++;
    used = digit_part(b, is_digit, clean, &n);
    mantissa += used;
    b += used;
    if (b < e && *b == '.') {
        clean[n++] = *b++;
        used = digit_part(b, is_digit, clean, &n);
        mantissa += used;
        b += used;
    }
    if (mantissa == 0)
        return 0;
    if (b < e && (*b | 0x20) == 'e') {
        clean[n++] = *b++;
        if (b < e && (*b == '+' || *b == '-'))
            clean[n++] = *b++;
        used = digit_part(b, is_digit, clean, &n);
        if (used == 0)
            return 0;
        b += used;
    }
    clean[n] = '\0';
    return b == e;
}

/* A json integer if `clean` ("[-]digits", base 10 or 16) fits int64. */
static json_t *
int_or_real(const char *clean, int base, int *is_string)
{
    char *end;

    errno = 0;
    long long v = strtoll(clean, &end, base);
    if (errno == 0)
        return json_integer(v);
    /*
     * Differs from pytokio: Python keeps any size of integer; jansson's
     * integers are int64, so larger ones become the nearest double, and
     * ones beyond even a double stay text.
     */
    double d = strtod(clean, &end);
    if (isinf(d)) {
        *is_string = 1;
        return NULL;
    }
    return json_real(d);
}

uint32_t
tokio_utf8_next(const unsigned char **pp, const unsigned char *end)
{
    const unsigned char *p = *pp;
    uint32_t c = *p;
    int extra;

    *pp = p + 1;
    if (c < 0x80)
        return c;
    if (c >= 0xc2 && c <= 0xdf) { extra = 1; c &= 0x1f; }
    else if (c >= 0xe0 && c <= 0xef) { extra = 2; c &= 0x0f; }
    else if (c >= 0xf0 && c <= 0xf4) { extra = 3; c &= 0x07; }
    else return TOKIO_UTF8_INVALID;
    if (end - p <= extra)
        return TOKIO_UTF8_INVALID;
    for (int i = 1; i <= extra; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return TOKIO_UTF8_INVALID;
        c = (c << 6) | (p[i] & 0x3f);
    }
    if ((extra == 2 && c < 0x800) ||
        (extra == 3 && (c < 0x10000 || c > 0x10ffff)) ||
        (c >= 0xd800 && c <= 0xdfff))
        return TOKIO_UTF8_INVALID;
    *pp = p + extra + 1;
    return c;
}
/*
 * Python strings are always valid Unicode, and jansson refuses text that
 * is not UTF-8; bytes that do not decode become U+FFFD, as
 * bytes.decode(errors="replace") would make them.
 */
static json_t *
string_value(const char *text)
{
    const unsigned char *p = (const unsigned char *)text, *end;
    size_t len = strlen(text), bad = 0;

    end = p + len;
    for (const unsigned char *at = p; at < end;)
        bad += tokio_utf8_next(&at, end) == TOKIO_UTF8_INVALID;
    if (bad == 0)
        return json_string(text);

    char *fixed = tokio__malloc(len + 2 * bad + 1), *q = fixed;
    if (fixed == NULL)
        return NULL;
    for (const unsigned char *at = p; at < end;) {
        const unsigned char *from = at;
        if (tokio_utf8_next(&at, end) == TOKIO_UTF8_INVALID) {
            memcpy(q, "\xef\xbf\xbd", 3);
            q += 3;
        } else {
            memcpy(q, from, (size_t)(at - from));
            q += at - from;
        }
    }
    *q = '\0';
    json_t *value = json_string(fixed);
    free(fixed);
    return value;
}

json_t *
tokio_recast_string(const char *text)
{
    const char *b, *e;
    json_t *value = NULL;
    int is_string = 0;

    if (text == NULL)
        return json_null();
    /* the reference's overrides win over any cast */
    if (strcmp(text, "True") == 0)
        return json_true();
    if (strcmp(text, "False") == 0)
        return json_false();
    if (strcmp(text, "null") == 0)
        return json_null();

    trim(text, &b, &e);
    /* a cleaned literal is never longer than the text plus "-0x" */
    char *clean = tokio__malloc((size_t)(e - b) + 4);
    if (clean == NULL)
        return NULL;
    /* the reference tries int(), float(), then int(x, 16), in that order */
    if (scan_int(b, e, 10, clean)) {
        value = int_or_real(clean, 10, &is_string);
    } else if (scan_float(b, e, clean)) {
        double d = strtod(clean, NULL);
        /*
         * Differs from pytokio: float("1e999") is inf, and float("inf")
         * and float("nan") are accepted; JSON has no such numbers, so
         * all of these stay the text they were.
         */
        if (isinf(d))
            is_string = 1;
        else
            value = json_real(d);
    } else if (scan_int(b, e, 16, clean)) {
        value = int_or_real(clean, 16, &is_string);
    } else {
        is_string = 1;
    }
    free(clean);
    return is_string ? string_value(text) : value;
}

/* ---- natural order of node names ------------------------------------ */

struct token {
    const char *s;
    size_t len;
    int number;
};

/*
 * Next run of the string: digits (hex digits with `hex`) form a number,
 * anything else text, as the reference's regular expressions (\d+|\D+)
 * and ([0-9a-fA-F]+|[^0-9a-fA-F]+) split it.  0 at the end.
 */
static int
next_token(const char **p, int hex, struct token *tok)
{
    int (*num)(char) = hex ? is_hex : is_digit;
    const char *s = *p;

    if (*s == '\0')
        return 0;
    tok->s = s;
    tok->number = num(*s);
    while (*s != '\0' && num(*s) == tok->number)
        s++;
    tok->len = (size_t)(s - tok->s);
    *p = s;
    return 1;
}

/* Numbers of any length compared by value: no overflow, "007" == "7". */
static int
compare_numbers(const struct token *a, const struct token *b)
{
    const char *x = a->s, *y = b->s;
    size_t nx = a->len, ny = b->len;

    while (nx > 0 && *x == '0') {
        x++;
        nx--;
    }
    while (ny > 0 && *y == '0') {
        y++;
        ny--;
    }
    if (nx != ny)
        return nx < ny ? -1 : 1;
    for (size_t i = 0; i < nx; i++) {
        int dx = hex_value(x[i]), dy = hex_value(y[i]);
        if (dx != dy)
            return dx < dy ? -1 : 1;
    }
    return 0;
}

/* Python compares str by code point, which is UTF-8 byte order */
static int
compare_text(const struct token *a, const struct token *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->s, b->s, n);

    if (c != 0)
        return c < 0 ? -1 : 1;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return 0;
}

int
tokio_natural_compare(const char *a, const char *b, int hex)
{
    struct token ta, tb;

    if (a == NULL)
        a = "";
    if (b == NULL)
        b = "";
    for (;;) {
        int more_a = next_token(&a, hex, &ta);
        int more_b = next_token(&b, hex, &tb);
        int c;

        /* a list that is a prefix of the other sorts first */
        if (!more_a || !more_b)
            return more_a - more_b;
        /*
         * Differs from pytokio: where one name has a number and the other
         * text at the same place ("1a" vs "a1"), Python 3 raises
         * TypeError comparing int with str; we put the number first.
         */
        if (ta.number != tb.number)
            return ta.number ? -1 : 1;
        c = ta.number ? compare_numbers(&ta, &tb) : compare_text(&ta, &tb);
        if (c != 0)
            return c;
    }
}

/*
 * Merge sort, because sorted() is stable and qsort(3) is not: equal keys
 * ("n01" and "n1") must keep their input order.
 */
static void
merge_sort(const char **v, const char **tmp, size_t n, int hex)
{
    if (n < 2)
        return;
    size_t half = n / 2;
    merge_sort(v, tmp, half, hex);
    merge_sort(v + half, tmp, n - half, hex);
    /* already in order: nothing to merge (common for sorted input) */
    if (tokio_natural_compare(v[half - 1], v[half], hex) <= 0)
        return;

    size_t i = 0, j = half, k = 0;
    while (i < half && j < n) {
        /* take from the right only when strictly smaller: stability */
        if (tokio_natural_compare(v[j], v[i], hex) < 0)
            tmp[k++] = v[j++];
        else
            tmp[k++] = v[i++];
    }
    while (i < half)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof(*v));
}

int
tokio_sort_nodenames(const char **names, size_t n, int hex)
{
    if (n < 2)
        return TOKIO_OK;
    if (names == NULL)
        return tokio__error(TOKIO_EINVAL, "sort_nodenames: no names");
    const char **tmp = tokio__reallocarray(NULL, n, sizeof(*tmp));
    if (tmp == NULL)
        return tokio__error(TOKIO_ENOMEM,
                            "out of memory sorting %zu node names", n);
    merge_sort(names, tmp, n, hex);
    free(tmp);
    return TOKIO_OK;
}
