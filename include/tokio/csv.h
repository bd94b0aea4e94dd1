/*
 * tokio/csv.h - reading CSV tables as pandas' to_csv() writes them (the
 * reference's --csv outputs, summarize-job's history of runs): a header
 * row, then rows of as many fields, RFC 4180 quoting ("a,b", "say ""hi""",
 * line breaks inside quotes).  The writers are in tokio/output.h.
 */
#ifndef TOKIO_CSV_H
#define TOKIO_CSV_H

#include <stddef.h>

#include "tokio/common.h"

struct tokio_csv;

/**
 * Read the table in `path` (plain or compressed; "-" is standard input).
 * Blank lines are skipped; a row with more or fewer fields than the
 * header, an unclosed quote, a NUL byte or invalid UTF-8 is
 * TOKIO_EFORMAT naming the file and line.
 * @param[out] out  the table; tokio_csv_free() it.  NULL on failure.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_EFORMAT, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_csv_open(struct tokio_csv **out, const char *path);

/** As tokio_csv_open() over `len` bytes at `buf` (not kept), named `name`
 * (NULL: "<memory>") in messages. */
TOKIO_API int tokio_csv_open_mem(struct tokio_csv **out, const void *buf,
                                 size_t len, const char *name);

/** Number of rows after the header. */
TOKIO_API size_t tokio_csv_rows(const struct tokio_csv *t);

/** Number of columns (fields of the header). */
TOKIO_API size_t tokio_csv_cols(const struct tokio_csv *t);

/** The field at `row` (0 is the header) and `col`, unquoted; borrowed
 * until the table is freed.  NULL when out of range. */
TOKIO_API const char *tokio_csv_cell(const struct tokio_csv *t, size_t row,
                                     size_t col);

/** The index of the header field `name`, or -1. */
TOKIO_API long tokio_csv_column(const struct tokio_csv *t, const char *name);

/** Release the table; NULL is fine. */
TOKIO_API void tokio_csv_free(struct tokio_csv *t);

#endif
