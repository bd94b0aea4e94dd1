/*
 * src/core/text.h - character classes the reference's Python string
 * methods use, so parsers split and strip exactly where it did.
 */
#ifndef TOKIO_CORE_TEXT_H
#define TOKIO_CORE_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Python's str.isspace() over ASCII: what str.strip(), str.split() and
 * int() treat as white space (the four information separators too). */
static inline int
tokio__py_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/*
 * 1 if s[0..len) is well-formed UTF-8 as Python's decoder and jansson
 * require: shortest forms only, no surrogates, nothing past U+10FFFF.
 * tokio__utf8_valid() accepts NUL bytes; tokio__text_valid() refuses
 * them too (text that becomes a C string or a jansson string).
 */
int tokio__utf8_valid(const void *s, size_t len);
int tokio__text_valid(const void *s, size_t len);

/*
 * Python's int() of the `len` bytes at `s` (no NUL needed): surrounding
 * white space, an optional sign, decimal digits with single underscores
 * between them ("1_000"), leading zeros allowed.  1 and the value in
 * *out when it is one and fits int64 (larger integers the reference kept
 * exactly are told apart by the caller), else 0.
 */
int tokio__py_int(const char *s, size_t len, int64_t *out);

/*
 * Python's float() of the `len` bytes at `s`: as above, with a fraction
 * and an exponent, or inf, infinity and nan in any case.  1 and the
 * correctly rounded value in *out, else 0.  Fields longer than 500 bytes
 * are refused.
 */
int tokio__py_float(const char *s, size_t len, double *out);

#endif
