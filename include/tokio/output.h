/*
 * tokio/output.h - writing results: JSON, CSV, and files that appear whole
 * or not at all.
 */
#ifndef TOKIO_OUTPUT_H
#define TOKIO_OUTPUT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_output;

/**
 * Start writing to `path`, or to standard output when `path` is NULL or
 * "-".  A file is written to a temporary file beside it and renamed over
 * `path` by tokio_output_commit(), so readers never see a partial file;
 * through symbolic links, the file they name is written, existing or
 * not.  A device, FIFO or socket (/dev/null) is
 * written in place instead, never replaced.  An existing file the user
 * may not write is refused.
 * @param[out] out  release with tokio_output_commit() or _abort().
 * @return TOKIO_OK, TOKIO_EIO (folder missing or not writable, `path` is
 *         a folder or not writable), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_output_open(struct tokio_output **out, const char *path);

/** The stream to write to; borrowed. */
TOKIO_API FILE *tokio_output_fp(struct tokio_output *o);

/**
 * Flush and close; for a file, rename it into place.  Frees `o` whatever
 * happens.  A write error anywhere before (disk full) is reported here,
 * and then `path` is left as it was.
 */
TOKIO_API int tokio_output_commit(struct tokio_output *o);

/** Discard what was written (the temporary file is removed); frees `o`. */
TOKIO_API void tokio_output_abort(struct tokio_output *o);

/**
 * Take the exclusive lock of the file `path` names (through links) for an
 * update: a command that reads a file it then replaces (its -i is its
 * -o) takes it before reading and releases it after the commit, so two
 * such runs take turns and neither loses the other's update.  The lock
 * is a hidden ".NAME.lock" beside the file; a second run waits up to 10
 * minutes.  *lock_out is -1 for standard output or a device.
 * @return TOKIO_OK, TOKIO_EIO (naming `path`).
 */
TOKIO_API int tokio_output_lock(const char *path, int *lock_out);

/** Release a lock of tokio_output_lock(); -1 is fine. */
TOKIO_API void tokio_output_unlock(int lock);

/**
 * Make SIGINT, SIGTERM and SIGHUP remove the temporary files of outputs
 * being written (files of tokio_output_open() and HDF5 updates) before
 * the process dies of them.  For programs: a library does not take
 * signals on its own.
 */
TOKIO_API void tokio_output_cleanup_on_signals(void);

/**
 * Remove the temporary files of every output this process is writing, so
 * that none of them is renamed into place (the rename then fails): for a
 * signal handler that lets the program go on to clean up before it dies
 * of the signal.  Async-signal-safe.
 */
TOKIO_API void tokio_output_remove_temporaries(void);

/* Flags for tokio_json_write() */
#define TOKIO_JSON_SORT_KEYS 0x100u     /* else insertion order */
/* with SORT_KEYS: an object whose keys are all integers ("-3", "10") is
 * sorted by their values, as Python sorts a dict of int keys */
#define TOKIO_JSON_SORT_INT_KEYS 0x200u
#define TOKIO_JSON_INDENT(n) ((unsigned)(n) & 0xffu) /* 0: one line */

/**
 * Write `value` as Python's json.dumps() would (the reference's caches are
 * made that way): ", " and ": " separators, newline and `n` spaces per
 * level with TOKIO_JSON_INDENT(n), non-ASCII escaped as \uXXXX, reals in
 * shortest round-trip form ("1.0", "1e-05", "1e+16").
 * @return TOKIO_OK, TOKIO_EIO (write failed), TOKIO_EINVAL (not JSON).
 */
TOKIO_API int tokio_json_write(const json_t *value, FILE *fp, unsigned flags);

/** As tokio_json_write() into a new string (caller frees). */
TOKIO_API int tokio_json_dumps(char **out, const json_t *value,
                               unsigned flags);

/**
 * A JSON integer for any uint64_t.  jansson holds only int64, yet Darshan
 * record ids use all 64 bits and Python prints them exactly; values above
 * INT64_MAX are kept in a private form that only tokio_json_write() and
 * tokio_json_uint64_value() understand (to jansson it is a string whose
 * first byte is NUL).  Returns a new reference, NULL when out of memory.
 */
TOKIO_API json_t *tokio_json_uint64(uint64_t value);

/**
 * If `json` is an integer >= 0 (plain or made by tokio_json_uint64()),
 * store it in *value_out and return 1; else return 0.
 */
TOKIO_API int tokio_json_uint64_value(const json_t *json,
                                      uint64_t *value_out);

/**
 * Format `d` as Python's repr(float) does: shortest digits that read back
 * as `d`; "nan", "inf", "-inf" for the others.  `size` >= 32 always fits.
 */
TOKIO_API int tokio_format_double(char *buf, size_t size, double d);

/**
 * One CSV field (RFC 4180 quoting as pandas does it: quoted when it holds
 * a comma, a double quote, CR or LF; inner quotes doubled).
 */
TOKIO_API int tokio_csv_write_field(FILE *fp, const char *field, size_t len);

/** A whole row: fields joined with ",", ended with "\n". */
TOKIO_API int tokio_csv_write_row(FILE *fp, const char *const *fields,
                                  size_t n);

/**
 * Write `rows` (a JSON list of objects, borrowed) as pandas'
 * DataFrame.from_records(rows).to_csv() prints it: a first column
 * `index_label` of row numbers, then one column per key in order of
 * first appearance; a column whose values are all integers prints them
 * as such, one of numbers with a missing cell (absent or null) or any
 * real prints every number as a real ("3.0"), any other prints each
 * value as Python's str() would; missing cells are empty.  Real values
 * of the `n_dates` columns named in `dates` are local times counted as
 * if UTC (what the reference's datetimes serialize to) and print as
 * "YYYY-MM-DD HH:MM:SS".
 * @return TOKIO_OK, TOKIO_EINVAL (not a list of objects), TOKIO_EIO,
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_csv_write_records(const json_t *rows, FILE *fp,
                                      const char *index_label,
                                      const char *const *dates,
                                      size_t n_dates);

#endif
