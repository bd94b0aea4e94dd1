/*
 * src/core/json_scan.h - a strict, bounded pull reader over JSON text in
 * memory, for parsers that know the exact shape of the JSON they read
 * (the Slurm cache: an object of objects of strings and lists of
 * strings; NERSC's Globus cache: lists of objects of scalars) and want
 * it without building a jansson tree.
 *
 * It reads only what its caller asks for, one token at a time, and gives
 * up (TOKIO_EFORMAT, with the input's name, the byte offset and what was
 * expected) at anything else: a value of another type, a string with an
 * escape or a control character, invalid UTF-8, a number jansson refuses
 * (or longer than 100 characters), nesting deeper than
 * TOKIO__JSCAN_DEPTH, trailing text.  Everything it accepts is valid
 * JSON, read to the values jansson reads; a caller meeting valid JSON it
 * does not handle falls back to a full parser (jansson).  It never reads
 * outside the text and allocates nothing.  Strings are copied out,
 * NUL-terminated, into room the caller provides, or (scalars) pointed at
 * in the text.
 *
 * Calls: init; then eat/peek/next for structure, string/strings/number/
 * scalar for values, skip for a value not wanted; end.
 */
#ifndef TOKIO_CORE_JSON_SCAN_H
#define TOKIO_CORE_JSON_SCAN_H

#include <stddef.h>
#include <stdint.h>

struct tokio__jscan {
    const char *base;       /* the text, for offsets in messages */
    const char *p, *end;    /* next byte, end of the text */
    const char *name;       /* the input, for messages */
};

/* Room the string readers may write to: the rest of the text plus this
 * (they copy sixteen bytes at a time, past the NUL). */
#define TOKIO__JSCAN_SLACK 16

/* Start reading `len` bytes at `text`, named `name` in messages. */
void tokio__jscan_init(struct tokio__jscan *js, const char *text,
                       size_t len, const char *name);

/* The next byte after white space (not consumed), or -1 at the end. */
int tokio__jscan_peek(struct tokio__jscan *js);

/* Consume `c` after white space: 0, or TOKIO_EFORMAT. */
int tokio__jscan_eat(struct tokio__jscan *js, char c);

/*
 * After a member or item: consume ',' (returns 1: another follows) or
 * `close` ('}' or ']': returns 0); TOKIO_EFORMAT for anything else.
 */
int tokio__jscan_next(struct tokio__jscan *js, char close);

/*
 * A string after white space, without escapes or control characters and
 * valid UTF-8: its bytes copied to `dst` and NUL-terminated, their number
 * in *len.  `dst` must have room for the rest of the text plus
 * TOKIO__JSCAN_SLACK bytes (js->end - js->p + TOKIO__JSCAN_SLACK).
 * @return 0 or TOKIO_EFORMAT.
 */
int tokio__jscan_string(struct tokio__jscan *js, char *dst, size_t *len);

/*
 * A list of such strings after white space ("[]", "[\"a\", \"b\"]"):
 * each copied to `dst`, NUL-terminated, one after another; their number
 * in *count, the bytes written (NULs included) in *used.  Room as for
 * tokio__jscan_string().  @return 0 or TOKIO_EFORMAT.
 */
int tokio__jscan_strings(struct tokio__jscan *js, char *dst, size_t *count,
                         size_t *used);

/* What tokio__jscan_scalar() read. */
enum tokio__jtype {
    TOKIO__JNULL, TOKIO__JFALSE, TOKIO__JTRUE, TOKIO__JINT, TOKIO__JREAL,
    TOKIO__JSTRING
};

struct tokio__jscalar {
    enum tokio__jtype type;
    int64_t i;              /* TOKIO__JINT */
    double d;               /* TOKIO__JREAL */
    const char *str;        /* TOKIO__JSTRING: its bytes in the text */
    size_t len;             /* TOKIO__JSTRING: their number */
};

/*
 * A number after white space, as jansson reads it: without a fraction or
 * exponent an integer (*is_real 0, the value in *i; one outside int64 is
 * refused, as jansson refuses it), else a real (*is_real 1, in *d: the
 * double strtod() gives; one beyond the double range is refused, as
 * jansson refuses it, and so is one longer than 100 characters).
 * JSON's grammar only: no '+', no leading zero, no "1." or ".5".
 * @return 0 or TOKIO_EFORMAT.
 */
int tokio__jscan_number(struct tokio__jscan *js, int64_t *i, double *d,
                        int *is_real);

/*
 * Any value but a list or an object after white space: null, false,
 * true, a number (as tokio__jscan_number()) or a string (checked as
 * tokio__jscan_string() checks it; as it has no escape, v->str points
 * at its v->len bytes in the text; when `dst` is not NULL they are also
 * copied there and NUL-terminated, `dst` having the room
 * tokio__jscan_string() wants).  @return 0 or TOKIO_EFORMAT.
 */
int tokio__jscan_scalar(struct tokio__jscan *js, char *dst,
                        struct tokio__jscalar *v);

/* Lists and objects nested deeper than this are refused by skip. */
#define TOKIO__JSCAN_DEPTH 64

/*
 * Past one value of any kind after white space, checked as strictly as
 * the readers above check it (strings as tokio__jscan_string() reads
 * them, no deeper than TOKIO__JSCAN_DEPTH).  @return 0 or TOKIO_EFORMAT.
 */
int tokio__jscan_skip(struct tokio__jscan *js);

/* TOKIO_OK when only white space is left, else TOKIO_EFORMAT. */
int tokio__jscan_end(struct tokio__jscan *js);

#endif
