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
 * order; loading more inputs adds to (and overwrites in) the same dict.
 */
#ifndef TOKIO_CONNECTORS_MMPERFMON_H
#define TOKIO_CONNECTORS_MMPERFMON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_mmperfmon;

/** A new, empty dict.  @return TOKIO_OK, TOKIO_ENOMEM. */
TOKIO_API int tokio_mmperfmon_new(struct tokio_mmperfmon **out);

/**
 * Add the contents of `path`: a directory or a tarball (plain, gzip or
 * bzip2) of mmperfmon outputs, one mmperfmon output (plain, gzip or
 * bzip2), or a JSON file written by tokio_mmperfmon_write_json().  An
 * empty file adds nothing.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_ENOMEM, TOKIO_EFORMAT (a garbled line:
 *         the message names the file, the archive member and the line; a
 *         JSON file of another shape; a corrupt archive).  On failure `m`
 *         may hold part of the input.
 */
TOKIO_API int tokio_mmperfmon_load(struct tokio_mmperfmon *m,
                                   const char *path);

/**
 * As tokio_mmperfmon_load() over `len` bytes at `buf` (not kept): a
 * tarball, one output or JSON, any of them compressed.  `name` (may be
 * NULL) names the input in messages.
 */
TOKIO_API int tokio_mmperfmon_load_mem(struct tokio_mmperfmon *m,
                                       const void *buf, size_t len,
                                       const char *name);

/**
 * Add a JSON value of the shape tokio_mmperfmon_to_json() makes
 * (borrowed): an object keyed by integer timestamps, of objects keyed by
 * host, of objects keyed by counter whose values are numbers, booleans,
 * strings, null, or objects of those keyed by device.
 * @return TOKIO_OK, TOKIO_EFORMAT (the message names the key),
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_mmperfmon_from_json(struct tokio_mmperfmon *m,
                                        const json_t *json);

/** The dict as JSON (a new reference in `*out`).  @return TOKIO_OK, ENOMEM. */
TOKIO_API int tokio_mmperfmon_to_json(const struct tokio_mmperfmon *m,
                                      json_t **out);

/**
 * Write the dict as the reference's save_cache(): json.dumps() on one
 * line, insertion order, no newline at the end.
 * @return TOKIO_OK, TOKIO_EIO.
 */
TOKIO_API int tokio_mmperfmon_write_json(const struct tokio_mmperfmon *m,
                                         FILE *fp);

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

/** Kinds of tokio_mmperfmon_value. */
enum tokio_mmperfmon_kind {
    TOKIO_MMPM_INT = 1,
    TOKIO_MMPM_REAL,
    TOKIO_MMPM_BOOL,
    TOKIO_MMPM_STRING,
    TOKIO_MMPM_NULL
};

/** One value of the dict, borrowed for a callback's duration. */
struct tokio_mmperfmon_value {
    enum tokio_mmperfmon_kind kind;
    int64_t i;          /* INT; BOOL: 0 or 1 */
    double d;           /* REAL; INT and BOOL: the same as a real */
    const char *s;      /* STRING */
};

/*
 * Called by tokio_mmperfmon_foreach() for each value; `device` is NULL for
 * a counter without devices.  Return TOKIO_OK to go on.
 */
typedef int (*tokio_mmperfmon_cb)(int64_t timestamp, const char *host,
                                  const char *counter, const char *device,
                                  const struct tokio_mmperfmon_value *value,
                                  void *payload);

/**
 * Visit every value in the dict's order.
 * @return TOKIO_OK or the callback's first non-OK status.
 */
TOKIO_API int tokio_mmperfmon_foreach(const struct tokio_mmperfmon *m,
                                      tokio_mmperfmon_cb cb, void *payload);

/** Number of timestamps in the dict. */
TOKIO_API size_t tokio_mmperfmon_count(const struct tokio_mmperfmon *m);

/** Release the dict; NULL is fine. */
TOKIO_API void tokio_mmperfmon_free(struct tokio_mmperfmon *m);

#endif
