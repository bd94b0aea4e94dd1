/*
 * src/core/json.h - internals of json.c shared with its tests.
 */
#ifndef TOKIO_CORE_JSON_H
#define TOKIO_CORE_JSON_H

#include <stddef.h>

/* repr() of `d` by its definition (shortest "%.*e" that reads back, via
 * snprintf and strtod per precision): the reference that
 * tokio_format_double()'s fast paths are tested against. */
int tokio__format_double_exact(char *buf, size_t size, double d);

#endif
