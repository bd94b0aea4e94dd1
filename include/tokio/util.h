/*
 * tokio/util.h - small helpers of the reference's tokio.common and
 * tokio.timeseries.sorted_nodenames.
 */
#ifndef TOKIO_UTIL_H
#define TOKIO_UTIL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "tokio/common.h"

/**
 * Human-readable bytes as the reference's humanize_bytes(): binary units
 * ("1.5 GiB") or, with `base10`, decimal ones ("1.6 GB"); "%.1f %s";
 * below 1 KiB "N.0 bytes" ("1.0 byte" for one).
 * @return TOKIO_OK, TOKIO_EINVAL if `size` is too small (64 fits any
 *         count below 1e50 bytes).
 */
TOKIO_API int tokio_humanize_bytes(char *buf, size_t size, double bytes,
                                   int base10);

/**
 * The most precise value a string stands for, as the reference's
 * recast_string(): an integer (decimal, else hexadecimal), a float,
 * true/false for "True"/"False", null for "null", else the string
 * itself.  Integers beyond int64 become reals; "nan"/"inf", which JSON
 * cannot hold, stay strings.
 * @return a new reference, NULL only when out of memory.
 */
TOKIO_API json_t *tokio_recast_string(const char *text);

/**
 * Compare node names naturally: digit runs as numbers ("bb2" < "bb10").
 * With `hex`, runs of hex digits are numbers instead ("bb9" < "bba"), as
 * sorted_nodenames(sort_hex=True).  Numbers sort before text.
 */
TOKIO_API int tokio_natural_compare(const char *a, const char *b, int hex);

/** Sort names in place, naturally and stably (equal keys keep order). */
TOKIO_API int tokio_sort_nodenames(const char **names, size_t n, int hex);

/* What tokio_utf8_next() returns for bytes that do not decode. */
#define TOKIO_UTF8_INVALID 0xffffffffu

/**
 * The code point of the UTF-8 sequence at *p (before `end`), decoded as
 * Python and jansson do: no overlong forms, surrogates or code points past
 * U+10FFFF.  *p moves past it; for bytes that do not decode, *p moves one
 * byte on and TOKIO_UTF8_INVALID is returned.  The one UTF-8 decoder of
 * the project: validation, the JSON writer, roff.
 */
TOKIO_API uint32_t tokio_utf8_next(const unsigned char **p,
                                   const unsigned char *end);

#endif
