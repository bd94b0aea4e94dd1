/*
 * src/core/text.h - character classes the reference's Python string
 * methods use, so parsers split and strip exactly where it did.
 */
#ifndef TOKIO_CORE_TEXT_H
#define TOKIO_CORE_TEXT_H

/* Python's str.isspace() over ASCII: what str.strip(), str.split() and
 * int() treat as white space (the four information separators too). */
static inline int
tokio__py_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

#endif
