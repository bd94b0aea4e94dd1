/*
 * src/core/connector.h - what generic code (the open functions, the fuzz
 * driver, the malformed-input, round-trip and out-of-memory loops of the
 * tests) may ask of a connector that reads text: the monitoring tools'
 * saved outputs (sacct, xtdb2proc, lfs df, lctl dl, HPSS and Globus
 * logs, mmperfmon, ISDCT dumps) and the JSON caches the reference writes
 * of them.  Modelled on libarchive's format readers: each connector fills
 * one table entry; reading files, telling text from JSON and collections
 * from single files is done here, once.
 *
 * A handle is built by new(), then fed: add_text() with one input's text
 * (a saved output, decompressed), or add_json() with its JSON form.  A
 * connector that reads collections (a folder or tarball of outputs, as
 * mmperfmon and ISDCT dumps come) is fed once per member; the others are
 * fed exactly once.  finish(), when there is one, runs after the last
 * input.
 */
#ifndef TOKIO_CORE_CONNECTOR_H
#define TOKIO_CORE_CONNECTOR_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* flags of struct tokio__connector */
#define TOKIO__CONNECTOR_COLLECTION 0x1u  /* folders and tar archives of inputs */

/* The most decompressed bytes one input may hold, unless a connector
 * says otherwise (max_bytes below): the text connectors take 8 to 25
 * bytes of memory per byte of text (jansson's objects, measured on large
 * valid inputs), so this keeps a hostile input under a few GiB. */
#define TOKIO__CONNECTOR_MAX_BYTES ((size_t)256 << 20)

struct tokio__connector {
    const char *name;       /* "craysdb": tests/connectors/NAME, fuzz_NAME */
    unsigned flags;
    /* What it reads, as the message "'FILE': not WHAT" puts it:
     * "sacct output or its JSON form". */
    const char *what;
    /* The most decompressed bytes of one input (a file, a collection's
     * member, a whole tar archive); 0: TOKIO__CONNECTOR_MAX_BYTES. */
    size_t max_bytes;
    /* How sure (0 no ... 100 sure) it is that a (decompressed) input
     * starting with the `n` bytes at `head` is its native text; peeks
     * only.  The JSON form is told apart before bidding.  An input
     * nobody bids for is refused before the rest of it is read: it is
     * the first look of every reader, so it must recognise the format
     * positively (a header, a record's shape), never "not the others". */
    int (*bid)(const char *head, size_t n);
    int (*new)(void **out);
    /* `len` bytes of text at `text`, NUL-ended past them, named `name`
     * (the file, or the archive member) in messages */
    int (*add_text)(void *h, const char *text, size_t len, const char *name);
    /* the JSON form (borrowed); NULL when the connector has none */
    int (*add_json)(void *h, const json_t *json);
    /* a collection's member fed next was last modified at `mtime`
     * (seconds since the epoch); NULL: not wanted */
    void (*set_mtime)(void *h, int64_t mtime);
    int (*finish)(void *h);                     /* NULL: nothing to do */
    int (*to_json)(const void *h, json_t **out);
    int (*write_csv)(const void *h, FILE *fp);  /* NULL: no CSV form */
    void (*free)(void *h);
};

/*
 * Read `path` (plain, gzip or bzip2; "-" is standard input; for a
 * collection connector also a folder or tar archive) into a new handle:
 * its JSON form when the first byte that is not white space is '{' or
 * '[' (and the connector has one), else its native text.  What the input
 * is, is decided from its first TOKIO__CONNECTOR_HEAD_BYTES (decompressed)
 * before the rest is read: text the connector does not bid for is
 * TOKIO_EFORMAT ("'FILE': not WHAT") at once, as is an input beyond the
 * connector's max_bytes.  Empty input (or only white space) is its
 * connector's to judge (an empty result for all of them).  A folder or
 * archive none of whose members the connector bids for is TOKIO_EFORMAT
 * too (an empty one is not).
 * @param[out] out  the handle (c->free() it), NULL on failure: nothing is
 *                  left half-built.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_EFORMAT (the message names the input,
 *         and the line where the connector knows it), TOKIO_ENOMEM.
 */
int tokio__connector_open(const struct tokio__connector *c, void **out,
                          const char *path);

/* The first look: enough decompressed bytes for every bid (a header line
 * or a first record), for a tar header and for telling JSON from text. */
#define TOKIO__CONNECTOR_HEAD_BYTES ((size_t)64 << 10)

/* Feed the input at `path`, read as tokio__connector_open() reads it,
 * to the existing handle `h` (then finish() it), as the reference's
 * load() adds more inputs to one object.  On failure `h` may hold part
 * of the input; it is still the caller's to free.
 * @return as tokio__connector_open(). */
int tokio__connector_add(const struct tokio__connector *c, void *h,
                         const char *path);

/* As tokio__connector_open() over `len` bytes at `buf` (not kept), which
 * may be compressed (or a tar archive, for a collection connector), named
 * `name` (NULL: "<memory>") in messages. */
int tokio__connector_open_mem(const struct tokio__connector *c, void **out,
                              const void *buf, size_t len, const char *name);

/* A new handle holding the JSON form `json` (borrowed). */
int tokio__connector_from_json(const struct tokio__connector *c, void **out,
                               const json_t *json);

/*
 * For readers outside the table (JSON caches, CSV): read `in` (named
 * `name`) whole, at most `max` decompressed bytes (0:
 * TOKIO__CONNECTOR_MAX_BYTES), after the same first look: an input whose
 * first TOKIO__CONNECTOR_HEAD_BYTES `bid` gives 0 is TOKIO_EFORMAT
 * "'NAME': not WHAT" before more of it is read (empty input is read).
 * @param[out] buf_out  the bytes (free()), NUL-ended past *len_out
 * @return TOKIO_OK, TOKIO_EFORMAT, TOKIO_EIO, TOKIO_ENOMEM.
 */
struct tokio_input;
int tokio__read_whole(struct tokio_input *in, const char *name, size_t max,
                      int (*bid)(const char *head, size_t n),
                      const char *what, unsigned char **buf_out,
                      size_t *len_out);

/*
 * `in`, when it is a plain (not compressed) regular file opened by name,
 * of 1 to `max` bytes, and nothing of it read yet: the whole file mapped
 * read-only, without copying it (munmap(*p, *len) when done; a file cut
 * shorter while mapped would raise SIGBUS).  0 when mapped; 1 when `in`
 * is not such a file (read it as before: a pipe, standard input,
 * compressed, empty or too big).
 */
int tokio__input_map(struct tokio_input *in, size_t max,
                     const unsigned char **p, size_t *len);

/* The bid of JSON: 100 when the first byte that is not white space is
 * '{' or '[', else 0. */
int tokio__bid_json(const char *head, size_t n);

/* Read and parse the JSON input `path` (plain, gzip or bzip2; "-" is
 * standard input) as tokio__read_whole() with tokio__bid_json():
 * `*out` is a new reference, NULL on failure (the message names the
 * path, and the line and column of a syntax error). */
int tokio__read_json_file(const char *path, json_t **out);

/*
 * The public tokio_MOD_open(), tokio_MOD_open_mem() and
 * tokio_MOD_from_json() of connector MOD (handle struct tokio_MOD, table
 * entry tokio__MOD_connector), as its header declares them: the three are
 * the same for every connector but for the handle's type.
 */
#define TOKIO__CONNECTOR_OPEN_FUNCTIONS(MOD)                                \
    int tokio_##MOD##_open(struct tokio_##MOD **out, const char *path)     \
    {                                                                       \
        void *h;                                                            \
        int rc = tokio__connector_open(&tokio__##MOD##_connector, &h,       \
                                       path);                               \
        *out = h;                                                           \
        return rc;                                                          \
    }                                                                       \
    int tokio_##MOD##_open_mem(struct tokio_##MOD **out, const void *buf,  \
                               size_t len, const char *name)                \
    {                                                                       \
        void *h;                                                            \
        int rc = tokio__connector_open_mem(&tokio__##MOD##_connector, &h,   \
                                           buf, len, name);                 \
        *out = h;                                                           \
        return rc;                                                          \
    }                                                                       \
    int tokio_##MOD##_from_json(struct tokio_##MOD **out,                  \
                                const json_t *json)                         \
    {                                                                       \
        void *h;                                                            \
        int rc = tokio__connector_from_json(&tokio__##MOD##_connector, &h,  \
                                            json);                          \
        *out = h;                                                           \
        return rc;                                                          \
    }

#endif
