/*
 * src/core/json.c - JSON text exactly as the reference writes it.
 *
 * The reference's caches and command outputs come from Python's
 * json.dumps(), so downstream scripts (and our golden comparisons) see its
 * layout: ", " and ": " separators, one item per line under `indent`,
 * "{}"/"[]" for empty containers, non-ASCII as \uXXXX, and floats in
 * repr() form.  jansson's own dumper differs in all of these, so we walk
 * the jansson tree ourselves; jansson still owns parsing and the values.
 */
#include "tokio/output.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

/*
 * Python's repr(float): the shortest decimal string that reads back as the
 * same double (at most 17 significant digits), in fixed notation when the
 * decimal exponent is in [-4, 16), else scientific with a signed exponent
 * of at least two digits.
 */
int
tokio_format_double(char *buf, size_t size, double d)
{
    char sci[40], digits[20];
    int ndigits = 0, exp10, n;

    if (isnan(d))
        n = snprintf(buf, size, "nan");
    else if (isinf(d))
        n = snprintf(buf, size, d < 0 ? "-inf" : "inf");
    else {
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(sci, sizeof(sci), "%.*e", prec - 1, d);
            if (strtod(sci, NULL) == d)
                break;
        }
        /* sci is "[-]D[.DDD]e[+-]XX": split into digits and exponent */
        const char *p = sci;
        int negative = (*p == '-');
        if (negative)
            p++;
        for (; *p && *p != 'e'; p++)
            if (*p != '.')
                digits[ndigits++] = *p;
        digits[ndigits] = '\0';
        exp10 = atoi(p + 1);
        /* "%.0e" of 0.0 is "0e+00"; trailing zeros never carry meaning */
        while (ndigits > 1 && digits[ndigits - 1] == '0')
            digits[--ndigits] = '\0';

        char out[48];
        size_t o = 0;
        if (negative)
            out[o++] = '-';
        if (exp10 < -4 || exp10 >= 16) {
            out[o++] = digits[0];
            if (ndigits > 1) {
                out[o++] = '.';
                memcpy(out + o, digits + 1, ndigits - 1);
                o += ndigits - 1;
            }
            o += snprintf(out + o, sizeof(out) - o, "e%c%02d",
                          exp10 < 0 ? '-' : '+', abs(exp10));
        } else if (exp10 < 0) {
            out[o++] = '0';
            out[o++] = '.';
            for (int i = -1; i > exp10; i--)
                out[o++] = '0';
            memcpy(out + o, digits, ndigits);
            o += ndigits;
        } else {
            for (int i = 0; i <= exp10; i++)
                out[o++] = i < ndigits ? digits[i] : '0';
            out[o++] = '.';
            if (ndigits > exp10 + 1) {
                memcpy(out + o, digits + exp10 + 1, ndigits - exp10 - 1);
                o += ndigits - exp10 - 1;
            } else {
                out[o++] = '0';
            }
        }
        out[o] = '\0';
        n = snprintf(buf, size, "%s", out);
    }
    if (n < 0 || (size_t)n >= size)
        return tokio__error(TOKIO_EINVAL, "number does not fit in %zu bytes",
                            size);
    return TOKIO_OK;
}

/*
 * Integers above INT64_MAX travel as a string "\0u64:" followed by the
 * decimal digits: a NUL first byte never comes from text we parse (our
 * readers stop strings at NUL), so it cannot be confused with data.
 */
static const char U64_TAG[] = "\0u64:";
#define U64_TAG_LEN (sizeof(U64_TAG) - 1)

json_t *
tokio_json_uint64(uint64_t value)
{
    char buf[U64_TAG_LEN + 24];

    if (value <= (uint64_t)INT64_MAX)
        return json_integer((json_int_t)value);
    memcpy(buf, U64_TAG, U64_TAG_LEN);
    int n = snprintf(buf + U64_TAG_LEN, sizeof(buf) - U64_TAG_LEN,
                     "%" PRIu64, value);
    return json_stringn_nocheck(buf, U64_TAG_LEN + (size_t)n);
}

/* The digits of a tagged big integer, or NULL if `v` is not one. */
static const char *
u64_digits(const json_t *v)
{
    if (!json_is_string(v) || json_string_length(v) <= U64_TAG_LEN ||
        memcmp(json_string_value(v), U64_TAG, U64_TAG_LEN) != 0)
        return NULL;
    return json_string_value(v) + U64_TAG_LEN;
}

int
tokio_json_uint64_value(const json_t *json, uint64_t *value_out)
{
    const char *digits = u64_digits(json);

    if (digits != NULL) {
        *value_out = strtoull(digits, NULL, 10);
        return 1;
    }
    if (json_is_integer(json) && json_integer_value(json) >= 0) {
        *value_out = (uint64_t)json_integer_value(json);
        return 1;
    }
    return 0;
}

/* Decode one UTF-8 sequence; invalid bytes decode as U+FFFD, one by one. */
static uint32_t
utf8_next(const unsigned char **pp, const unsigned char *end)
{
    const unsigned char *p = *pp;
    uint32_t c = *p;
    int extra;

    if (c < 0x80) {
        *pp = p + 1;
        return c;
    }
    if (c >= 0xc2 && c <= 0xdf) { extra = 1; c &= 0x1f; }
    else if (c >= 0xe0 && c <= 0xef) { extra = 2; c &= 0x0f; }
    else if (c >= 0xf0 && c <= 0xf4) { extra = 3; c &= 0x07; }
    else { *pp = p + 1; return 0xfffd; }
    if (end - p <= extra) {
        *pp = p + 1;
        return 0xfffd;
    }
    for (int i = 1; i <= extra; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            *pp = p + 1;
            return 0xfffd;
        }
        c = (c << 6) | (p[i] & 0x3f);
    }
    if ((extra == 2 && c < 0x800) || (extra == 3 && (c < 0x10000 || c > 0x10ffff))
        || (c >= 0xd800 && c <= 0xdfff)) {
        *pp = p + 1;
        return 0xfffd;
    }
    *pp = p + extra + 1;
    return c;
}

static void
write_string(FILE *fp, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *end = p + len;

    fputc('"', fp);
    while (p < end) {
        uint32_t c = utf8_next(&p, end);

        switch (c) {
        case '"':  fputs("\\\"", fp); break;
        case '\\': fputs("\\\\", fp); break;
        case '\n': fputs("\\n", fp); break;
        case '\r': fputs("\\r", fp); break;
        case '\t': fputs("\\t", fp); break;
        case '\b': fputs("\\b", fp); break;
        case '\f': fputs("\\f", fp); break;
        default:
            if (c >= 0x20 && c < 0x7f) {
                fputc((int)c, fp);
            } else if (c < 0x10000) {
                fprintf(fp, "\\u%04" PRIx32, c);
            } else {
                c -= 0x10000;
                fprintf(fp, "\\u%04" PRIx32 "\\u%04" PRIx32,
                        0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff));
            }
        }
    }
    fputc('"', fp);
}

static void
newline_indent(FILE *fp, unsigned indent, unsigned depth)
{
    fputc('\n', fp);
    for (unsigned i = 0; i < indent * depth; i++)
        fputc(' ', fp);
}

static int
compare_keys(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Deep trees are refused rather than risking the C stack. */
#define MAX_DEPTH 512

static int
write_value(FILE *fp, const json_t *v, unsigned flags, unsigned depth)
{
    const unsigned indent = flags & 0xffu;
    char num[40];

    if (depth > MAX_DEPTH)
        return tokio__error(TOKIO_EINVAL, "JSON nested deeper than %d levels",
                            MAX_DEPTH);
    switch (json_typeof(v)) {
    case JSON_NULL:  fputs("null", fp); return TOKIO_OK;
    case JSON_TRUE:  fputs("true", fp); return TOKIO_OK;
    case JSON_FALSE: fputs("false", fp); return TOKIO_OK;
    case JSON_INTEGER:
        fprintf(fp, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return TOKIO_OK;
    case JSON_REAL:
        tokio_format_double(num, sizeof(num), json_real_value(v));
        fputs(num, fp);
        return TOKIO_OK;
    case JSON_STRING: {
        const char *digits = u64_digits(v);
        if (digits != NULL)
            fputs(digits, fp);
        else
            write_string(fp, json_string_value(v), json_string_length(v));
        return TOKIO_OK;
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(v);
        if (n == 0) {
            fputs("[]", fp);
            return TOKIO_OK;
        }
        fputc('[', fp);
        for (size_t i = 0; i < n; i++) {
            if (i > 0)
                fputs(indent ? "," : ", ", fp);
            if (indent)
                newline_indent(fp, indent, depth + 1);
            int rc = write_value(fp, json_array_get(v, i), flags, depth + 1);
            if (rc < 0)
                return rc;
        }
        if (indent)
            newline_indent(fp, indent, depth);
        fputc(']', fp);
        return TOKIO_OK;
    }
    case JSON_OBJECT: {
        size_t n = json_object_size(v);
        if (n == 0) {
            fputs("{}", fp);
            return TOKIO_OK;
        }
        const char **keys = tokio__calloc(n, sizeof(*keys));
        if (keys == NULL)
            return tokio__error(TOKIO_ENOMEM, "out of memory writing JSON");
        size_t i = 0;
        const char *key;
        json_t *item;
        json_object_foreach((json_t *)v, key, item)
            keys[i++] = key;
        if (flags & TOKIO_JSON_SORT_KEYS)
            qsort(keys, n, sizeof(*keys), compare_keys);
        fputc('{', fp);
        int rc = TOKIO_OK;
        for (i = 0; i < n && rc == TOKIO_OK; i++) {
            if (i > 0)
                fputs(indent ? "," : ", ", fp);
            if (indent)
                newline_indent(fp, indent, depth + 1);
            write_string(fp, keys[i], strlen(keys[i]));
            fputs(": ", fp);
            rc = write_value(fp, json_object_get(v, keys[i]), flags,
                             depth + 1);
        }
        free(keys);
        if (rc < 0)
            return rc;
        if (indent)
            newline_indent(fp, indent, depth);
        fputc('}', fp);
        return TOKIO_OK;
    }
    }
    return tokio__error(TOKIO_EINVAL, "not a JSON value");
}

int
tokio_json_write(FILE *fp, const json_t *value, unsigned flags)
{
    if (value == NULL)
        return tokio__error(TOKIO_EINVAL, "no JSON value to write");
    int rc = write_value(fp, value, flags, 0);
    if (rc < 0)
        return rc;
    if (ferror(fp))
        return tokio__error(TOKIO_EIO, "writing JSON failed: %s",
                            strerror(errno));
    return TOKIO_OK;
}

int
tokio_json_dumps(char **out, const json_t *value, unsigned flags)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp;

    *out = NULL;
    /* open_memstream uses the system allocator: the result is free()able */
    if ((fp = open_memstream(&buf, &len)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing JSON");
    int rc = tokio_json_write(fp, value, flags);
    if (fclose(fp) != 0 && rc == TOKIO_OK)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory writing JSON");
    if (rc < 0) {
        free(buf);
        return rc;
    }
    *out = buf;
    return TOKIO_OK;
}
