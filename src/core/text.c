/*
 * src/core/text.c - what every text parser needs to read values as the
 * reference's Python did: strict UTF-8 validation, and int() and float()
 * of a field.
 */
#include "core/text.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tokio/util.h"

static int
validate(const unsigned char *s, size_t len, int allow_nul)
{
    const unsigned char *end = s + len;

    while (s < end)
        if (*s == 0 && !allow_nul)
            return 0;
        else if (*s < 0x80)
            s++;
        else if (tokio_utf8_next(&s, end) == TOKIO_UTF8_INVALID)
            return 0;
    return 1;
}

int
tokio__utf8_valid(const void *s, size_t len)
{
    return validate(s, len, 1);
}

int
tokio__text_valid(const void *s, size_t len)
{
    return validate(s, len, 0);
}

/* `s`, `len` without Python's white space at either end. */
static void
strip(const char **s, size_t *len)
{
    while (*len > 0 && tokio__py_space((unsigned char)**s))
        (*s)++, (*len)--;
    while (*len > 0 && tokio__py_space((unsigned char)(*s)[*len - 1]))
        (*len)--;
}

/*
 * Copy the digits of s[0..len) to `buf` without the underscores Python
 * allows between two digits ("1_000"); 0 when an underscore stands
 * anywhere else or the copy does not fit.
 */
static int
drop_underscores(const char *s, size_t len, char *buf, size_t size)
{
    size_t n = 0;

    if (memchr(s, '\0', len) != NULL)
        return 0;               /* Python refuses a NUL: so do we */
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '_') {
            if (i == 0 || i + 1 == len || s[i - 1] < '0' || s[i - 1] > '9' ||
                s[i + 1] < '0' || s[i + 1] > '9')
                return 0;
            continue;
        }
        if (n + 1 >= size)
            return 0;
        buf[n++] = s[i];
    }
    buf[n] = '\0';
    return 1;
}

int
tokio__py_int(const char *s, size_t len, int64_t *out)
{
    char buf[64], *end;
    const char *p;

    strip(&s, &len);
    if (!drop_underscores(s, len, buf, sizeof(buf)))
        return 0;
    p = buf + (buf[0] == '+' || buf[0] == '-');
    if (*p < '0' || *p > '9')
        return 0;
    for (; *p != '\0'; p++)
        if (*p < '0' || *p > '9')
            return 0;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (errno == ERANGE || v < INT64_MIN || v > INT64_MAX)
        return 0;
    *out = (int64_t)v;
    return 1;
}

int
tokio__py_float(const char *s, size_t len, double *out)
{
    char buf[512], *end;
    size_t i = 0, digits = 0;

    strip(&s, &len);
    if (!drop_underscores(s, len, buf, sizeof(buf)))
        return 0;
    /* Python's grammar: [sign] (digits [. [digits]] | . digits)
     * [(e|E) [sign] digits], or inf, infinity, nan in any case */
    if (buf[i] == '+' || buf[i] == '-')
        i++;
    if (strcasecmp(buf + i, "inf") == 0 ||
        strcasecmp(buf + i, "infinity") == 0 ||
        strcasecmp(buf + i, "nan") == 0) {
        *out = strtod(buf, NULL);
        return 1;
    }
    for (; buf[i] >= '0' && buf[i] <= '9'; i++)
        digits++;
    if (buf[i] == '.')
        for (i++; buf[i] >= '0' && buf[i] <= '9'; i++)
            digits++;
    if (digits == 0)
        return 0;
    if (buf[i] == 'e' || buf[i] == 'E') {
        size_t e;
        i += buf[i + 1] == '+' || buf[i + 1] == '-' ? 2 : 1;
        for (e = i; buf[i] >= '0' && buf[i] <= '9'; i++)
            ;
        if (i == e)
            return 0;
    }
    if (buf[i] != '\0')
        return 0;
    *out = strtod(buf, &end);    /* correctly rounded, as Python's */
    return 1;
}
