/*
 * src/core/json.h - internals of json.c shared with the library and its
 * tests.
 */
#ifndef TOKIO_CORE_JSON_H
#define TOKIO_CORE_JSON_H

#include <jansson.h>
#include <stddef.h>

/* repr() of `d` by its definition (shortest "%.*e" that reads back, via
 * snprintf and strtod per precision): the reference that
 * tokio_format_double()'s fast paths are tested against. */
int tokio__format_double_exact(char *buf, size_t size, double d);

/*
 * json_loadb() that tells running out of memory from malformed text
 * (jansson 2.14 reports some allocation failures as syntax errors).
 * Returns the value, or NULL with *oom_out set when memory was the cause
 * and *err describing the syntax error otherwise.
 */
json_t *tokio__json_parse(const char *text, size_t len, size_t flags,
                          json_error_t *err, int *oom_out);

#endif
