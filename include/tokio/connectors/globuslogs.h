/*
 * tokio/connectors/globuslogs.h - the transfer log of a Globus GridFTP
 * server (globus-gridftp-server's transfer log): one line per transfer
 * of space-separated KEY=VALUE pairs, e.g.
 *
 *   DATE=20190809091437.927804 HOST=dtn11.nersc.gov PROG=... USER=glock
 *   FILE=/home/g/glock/results 0.tar.gz NBYTES=35616 DEST=[0.0.0.0] ...
 *
 * Mirrors tokio.connectors.globuslogs.GlobusLog (pytokio 0.13): a list of
 * records, each an object of the line's keys as they appear (a value runs
 * until the next " KEY=" with KEY all capital letters, so file names may
 * hold spaces and '='), with DATE and START as epoch seconds (the log's
 * local time, microseconds kept), BUFFER, BLOCK, NBYTES, STREAMS and
 * STRIPES as integers, DEST as a list of destination strings and every
 * other value a string.
 */
#ifndef TOKIO_CONNECTORS_GLOBUSLOGS_H
#define TOKIO_CONNECTORS_GLOBUSLOGS_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_globuslogs;

/**
 * Read a transfer log (plain or compressed; "-" is standard input), or
 * the JSON list this library writes (told by a leading '[' or '{').
 * Blank lines are skipped.
 * @param[out] out  the records; free with tokio_globuslogs_free().  NULL
 *                  on failure.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_EFORMAT (the message names the file
 *         and line: text without '=', a bad date or integer, invalid
 *         UTF-8 or a NUL byte; malformed JSON), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_globuslogs_open(struct tokio_globuslogs **out,
                                    const char *path);

/**
 * As tokio_globuslogs_open() over `len` bytes at `buf` (not kept; may be
 * gzip), named `name` (may be NULL) in messages.
 */
TOKIO_API int tokio_globuslogs_open_mem(struct tokio_globuslogs **out,
                                        const void *buf, size_t len,
                                        const char *name);

/** Number of records (transfers). */
TOKIO_API size_t tokio_globuslogs_count(const struct tokio_globuslogs *g);

/**
 * The reference's JSON: a new reference in `*out` to the log's own list
 * of record objects (read it, do not change it; json_decref() it), in
 * input order, each record's keys in line order.  @return TOKIO_OK.
 */
TOKIO_API int tokio_globuslogs_to_json(const struct tokio_globuslogs *g,
                                       json_t **out);

/**
 * Build from the JSON form (borrowed: copied): a list of objects whose
 * values are strings, numbers or lists of strings.
 * @return TOKIO_OK, TOKIO_EFORMAT (names the record and key),
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_globuslogs_from_json(struct tokio_globuslogs **out,
                                         const json_t *json);

/**
 * CSV as pandas.DataFrame(records).to_csv() writes it: an unnamed index
 * column (0, 1, ...), then one column per key in order of first
 * appearance; an integer column with a missing cell prints as floats
 * ("5.0"), lists print as Python reprs ("['1.2.3.4']"), missing cells
 * are empty.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_globuslogs_write_csv(const struct tokio_globuslogs *g,
                                         FILE *fp);

/** Release; NULL is fine. */
TOKIO_API void tokio_globuslogs_free(struct tokio_globuslogs *g);

#endif
