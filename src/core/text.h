/*
 * src/core/text.h - character classes the reference's Python string
 * methods use, so parsers split and strip exactly where it did.
 */
#ifndef TOKIO_CORE_TEXT_H
#define TOKIO_CORE_TEXT_H

#include <stddef.h>

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

#endif
