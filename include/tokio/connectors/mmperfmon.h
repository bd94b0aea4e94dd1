/*
 * tokio/connectors/mmperfmon.h - GPFS performance counters as printed by
 * `mmperfmon query` (a legend of `N: host|subsystem[|device]|counter`
 * lines, then fixed-width tables of rows "N YYYY-MM-DD-HH:MM:SS cell
 * cell ...", a cell being a number, "null" or a value and unit such as
 * "31371.0 MB").  Mirrors tokio.connectors.mmperfmon.Mmperfmon.
 *
 * The data is the reference's dict: timestamp (epoch seconds of the row's
 * local time) -> host -> counter -> value, or, for counters of a device
 * (a LUN, a network interface), counter -> device -> value.  Values in MB
 * or kB are turned into bytes (a real) and their counter gets the suffix
 * "_bytes"; "null" cells are left out.  Every level keeps insertion
 * order; adding more inputs adds to (and overwrites in) the same dict.
 */
#ifndef TOKIO_CONNECTORS_MMPERFMON_H
#define TOKIO_CONNECTORS_MMPERFMON_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_mmperfmon;

/**
 * Read `path`: a folder or a tarball (plain, gzip or bzip2) of mmperfmon
 * outputs, one mmperfmon output (plain, gzip or bzip2), or the JSON of
 * tokio_mmperfmon_to_json() (text whose first non-blank character is
 * '{').  An empty file is an empty dict.
 * @param[out] out  the dict; free with tokio_mmperfmon_free().  NULL on
 *                  failure.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_ENOMEM, TOKIO_EFORMAT (a garbled
 *         line: the message names the file, or archive/member, and the
 *         line; JSON of another shape; a corrupt archive).
 */
TOKIO_API int tokio_mmperfmon_open(struct tokio_mmperfmon **out,
                                   const char *path);

/**
 * As tokio_mmperfmon_open() over `len` bytes at `buf` (not kept): a
 * tarball, one output or JSON, any of them compressed.  `name` (may be
 * NULL) names the input in messages.
 */
TOKIO_API int tokio_mmperfmon_open_mem(struct tokio_mmperfmon **out,
                                       const void *buf, size_t len,
                                       const char *name);

/**
 * A dict holding the JSON form `json` (borrowed): an object keyed by
 * integer timestamps, of objects keyed by host, of objects keyed by
 * counter whose values are numbers, booleans, strings, null, or objects
 * of those keyed by device.
 * @return TOKIO_OK, TOKIO_EFORMAT (the message names the key),
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_mmperfmon_from_json(struct tokio_mmperfmon **out,
                                        const json_t *json);

/**
 * Add the contents of `path`, read as tokio_mmperfmon_open() reads them,
 * to `m`, as the reference's load() adds to one dict.
 * @return as tokio_mmperfmon_open().  On failure `m` may hold part of the
 *         input.
 */
TOKIO_API int tokio_mmperfmon_add(struct tokio_mmperfmon *m,
                                  const char *path);

/**
 * The dict as the reference's JSON: a new reference in `*out` to the
 * dict's own tree (read it, do not change it).  tokio_json_write() with
 * no flags writes it as the reference's save_cache() does (json.dumps()
 * on one line, insertion order, no newline at the end).
 * @return TOKIO_OK.
 */
TOKIO_API int tokio_mmperfmon_to_json(const struct tokio_mmperfmon *m,
                                      json_t **out);

/**
 * Write the reference's to_dataframe(by_host=host) or
 * to_dataframe(by_metric=metric) (exactly one of `host`, `metric` is
 * non-NULL) as pandas' to_csv() prints it: a "timestamp" column of local
 * times ("YYYY-MM-DD HH:MM:SS"), then one column per metric of the host
 * ("counter" or "counter:device") or per host of the metric ("host" or
 * "host:device"), in order of first appearance.  Rows are in timestamp
 * order when there is one column, else in pandas' order of first
 * appearance column by column; a column holding only integers and
 * gaps prints as reals, as pandas does.
 * @return TOKIO_OK, TOKIO_EINVAL (not exactly one of host, metric),
 *         TOKIO_EIO, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_mmperfmon_write_csv(const struct tokio_mmperfmon *m,
                                        FILE *fp, const char *host,
                                        const char *metric);

/** Release the dict; NULL is fine. */
TOKIO_API void tokio_mmperfmon_free(struct tokio_mmperfmon *m);

#endif
