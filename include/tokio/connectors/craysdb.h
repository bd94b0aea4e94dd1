/*
 * tokio/connectors/craysdb.h - the processor table of a Cray XT/XC
 * service database (SDB), as printed by `xtdb2proc -f -`: one record per
 * processor (node), giving among others its cabinet, cage, slot and its
 * x/y/z coordinates in the network.  Mirrors
 * tokio.connectors.craysdb.CraySdbProc.
 *
 * Its JSON form (tokio_craysdb_to_json()) is an object keyed by
 * processor_id (as a string), each record an object of the line's keys
 * in their order, values as the reference keeps them: integers, strings
 * (quotes removed) and null.
 */
#ifndef TOKIO_CONNECTORS_CRAYSDB_H
#define TOKIO_CONNECTORS_CRAYSDB_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_craysdb;

/**
 * Read a saved table from `path` (plain or compressed; "-" is standard
 * input): `xtdb2proc -f -` output, or the JSON of tokio_craysdb_to_json()
 * (text whose first non-blank character is '{').
 * @param[out] out  the table; free with tokio_craysdb_free().  NULL on
 *                  failure.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_EFORMAT (a garbled line: the message
 *         names the file and line; a duplicate processor_id; JSON that
 *         does not parse or is not such a table), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_craysdb_open(struct tokio_craysdb **out, const char *path);

/**
 * As tokio_craysdb_open() over `len` bytes at `buf` (not kept; text may
 * be gzip), named `name` (may be NULL) in messages.
 */
TOKIO_API int tokio_craysdb_open_mem(struct tokio_craysdb **out,
                                     const void *buf, size_t len,
                                     const char *name);

/**
 * Run `xtdb2proc -f -` (found on PATH; an argument vector, no shell) and
 * read its output, as the reference's CraySdbProc() without a cache file.
 * @return as tokio_craysdb_open(); TOKIO_ENOTFOUND when xtdb2proc is not
 *         installed here; TOKIO_EIO when it fails (its complaint quoted).
 */
TOKIO_API int tokio_craysdb_query(struct tokio_craysdb **out);

/** Number of processors in the table. */
TOKIO_API size_t tokio_craysdb_count(const struct tokio_craysdb *db);

/**
 * The x, y and z coordinates of processor `processor_id` into `xyz_out`.
 * @return TOKIO_OK, TOKIO_ENOTFOUND (no such processor), TOKIO_EFORMAT (a
 *         coordinate is missing or not an integer).
 */
TOKIO_API int tokio_craysdb_coords(const struct tokio_craysdb *db,
                                   int64_t processor_id, int64_t xyz_out[3]);

/**
 * The table as the reference's JSON (see above): a new reference in
 * `*out` to the table's own records (read it, do not change it), in
 * input order.  Written with TOKIO_JSON_SORT_KEYS |
 * TOKIO_JSON_SORT_INT_KEYS, records come in the numeric order of their
 * processor_id (9 before 10), as Python sorted the reference's int keys.
 * @return TOKIO_OK.
 */
TOKIO_API int tokio_craysdb_to_json(const struct tokio_craysdb *db,
                                    json_t **out);

/**
 * Build a table from the JSON form (borrowed): an object keyed by
 * processor_id, each record an object holding "processor_id" equal to its
 * key and only integer, string or null values.
 * @return TOKIO_OK, TOKIO_EFORMAT (the message names the record),
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_craysdb_from_json(struct tokio_craysdb **out,
                                      const json_t *json);

/**
 * Write the table in `xtdb2proc -f -` form, as the reference's
 * save_cache(): no comment header, one line per record in table order,
 * the first record's keys in its order, `key='text'`, `key=123`,
 * `key=null`.
 * @return TOKIO_OK, TOKIO_EFORMAT (a record lacks one of the first
 *         record's keys: the reference failed too), TOKIO_EIO.
 */
TOKIO_API int tokio_craysdb_write_native(const struct tokio_craysdb *db,
                                         FILE *fp);

/**
 * Write the table as CSV, one row per processor in table order; the
 * columns are the keys in order of first appearance (the first record's,
 * then any new ones of later records); null and missing values are empty
 * cells.
 * @return TOKIO_OK, TOKIO_ENOMEM, TOKIO_EIO.
 */
TOKIO_API int tokio_craysdb_write_csv(const struct tokio_craysdb *db,
                                      FILE *fp);

/** Release the table; NULL is fine. */
TOKIO_API void tokio_craysdb_free(struct tokio_craysdb *db);

#endif
