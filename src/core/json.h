/*
 * src/core/json.h - internals of json.c shared with the library and its
 * tests.
 */
#ifndef TOKIO_CORE_JSON_H
#define TOKIO_CORE_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * json_loadb() that tells running out of memory from malformed text
 * (jansson 2.14 reports some allocation failures as syntax errors).
 * Returns the value, or NULL with *oom_out set when memory was the cause
 * and *err describing the syntax error otherwise.
 */
json_t *tokio__json_parse(const char *text, size_t len, size_t flags,
                          json_error_t *err, int *oom_out);

/*
 * tokio__json_parse() of input `name`, with the error every reader gives:
 * TOKIO_ENOMEM ("out of memory reading 'NAME'") or TOKIO_EFORMAT ("'NAME'
 * line L column C: what").  *out is the value, or NULL on error.
 */
int tokio__json_parse_named(json_t **out, const char *text, size_t len,
                            size_t flags, const char *name);

/*
 * A JSON object written as it is produced, in the layout of
 * tokio_json_write() (same flags), without building a tree: for outputs
 * too large to hold twice.  The caller emits members in the order they
 * must appear (sorted, for TOKIO_JSON_SORT_KEYS output); a value given as
 * a json_t is written with tokio_json_write()'s rules at its depth.
 * Usage: open, then begin/key/values/end in JSON order, then close.
 * Writing functions never fail by themselves; errors (write failures,
 * out of memory, nesting deeper than 64 objects) are kept and returned
 * by tokio__jstream_close(), which also releases the stream.
 */
struct tokio__jstream;

/* NULL when out of memory (tokio__error() set). */
struct tokio__jstream *tokio__jstream_open(FILE *fp, unsigned flags);
/* Start an object, or a list, where a value goes (top level, after a
 * key, or after tokio__jstream_item()). */
void tokio__jstream_begin(struct tokio__jstream *js);
void tokio__jstream_begin_list(struct tokio__jstream *js);
/* End the innermost object or list ("{}" or "[]" if it got no member). */
void tokio__jstream_end(struct tokio__jstream *js);
/* The next member's key (`len` bytes, escaped as the writer does). */
void tokio__jstream_key(struct tokio__jstream *js, const char *key,
                        size_t len);
/* The next element of a list: a value or a begin follows. */
void tokio__jstream_item(struct tokio__jstream *js);
/* Values, each after a key or item (or alone at the top level). */
void tokio__jstream_int(struct tokio__jstream *js, int64_t v);
void tokio__jstream_uint(struct tokio__jstream *js, uint64_t v);
void tokio__jstream_real(struct tokio__jstream *js, double v);
void tokio__jstream_string(struct tokio__jstream *js, const char *s,
                           size_t len);
void tokio__jstream_value(struct tokio__jstream *js, const json_t *v);
/* Flush (the FILE too) and release; TOKIO_OK or the first error
 * (TOKIO_EIO when the FILE reports one). */
int tokio__jstream_close(struct tokio__jstream *js);

/*
 * A shallow copy of `v` (a new object or array holding `v`'s values, not
 * copies of them), NULL when out of memory: jansson 2.14's json_copy()
 * ignores a failure to add a member and returns a short copy.
 */
json_t *tokio__json_copy(json_t *v);

/* Python's truth of a JSON value, negated: null, false, 0, 0.0, "", []
 * and {} (an Elasticsearch scroll ends at a false page). */
int tokio__json_falsy(const json_t *v);

#endif
