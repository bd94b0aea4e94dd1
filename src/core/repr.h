/*
 * src/core/repr.h - Python's repr() of a double (src/core/repr.c).
 *
 * tokio_format_double(), the one the writers call, is public and declared
 * in tokio/output.h; this adds the definition it is tested against.
 */
#ifndef TOKIO_CORE_REPR_H
#define TOKIO_CORE_REPR_H

#include <stddef.h>
#include <stdint.h>

#include "tokio/output.h"

/* repr() of `d` by its definition (shortest "%.*e" that reads back, via
 * snprintf and strtod per precision): the reference that
 * tokio_format_double()'s fast paths are tested against. */
int tokio__format_double_exact(char *buf, size_t size, double d);

/* The longest repr() of a double: "-2.2250738585072014e-308". */
#define TOKIO__REPR_MAX 24

/* tokio_format_double() of `d` into `out` (room for TOKIO__REPR_MAX + 1
 * bytes), NUL-ended; returns its length. */
size_t tokio__repr_double(char *out, double d);

/* The double nearest v * 10^q (ties to even), negated when `neg`, as
 * strtod() reads the decimal, by exact integer arithmetic: 1 with *out
 * set where it applies (|q| <= 22, doubles evaluated in double
 * precision), else 0: ask strtod(). */
int tokio__decimal_to_double(uint64_t v, int q, int neg, double *out);

#endif
