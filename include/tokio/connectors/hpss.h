/*
 * tokio/connectors/hpss.h - what an HPSS archive leaves behind as text:
 * the transfer logs of its FTP/PFTP daemon and of HSI/HTAR, and the daily
 * report's tables.  Mirrors tokio.connectors.hpss (pytokio 0.13): FtpLog,
 * HsiLog and HpssDailyReport.
 *
 * One handle holds one of three kinds:
 *
 *  - an HSI/HTAR log: {"hsi": [record, ...], "htar": [record, ...]};
 *  - an FTP log: {"ftp": [record, ...], "pftp": [record, ...]};
 *  - a daily report: {system: {table title: records}}, where records is
 *    a list of row objects, or for the tables the reference re-keys (IO
 *    totals by client application, by client host, by HPSS client
 *    gateway host; migration purge report) an object keyed by that
 *    column.
 *
 * Records carry the reference's field names and types: e.g. an HSI
 * transfer has client_pid, opname, return_code, access_latency_sec,
 * bytes, bytes_sec (bytes per second, the log's KB/s times 1000), cos_id,
 * source_path, dest_path, account_id, hpss_uid, remote_host and
 * end_timestamp (epoch seconds, the log's local time).  Because the logs
 * print times and rates with few decimals (a tiny transfer takes "0.00"
 * seconds), each such value has a FIELD_resolution companion: the
 * smallest step its text could express (0.01 for "0.03"), so analyses can
 * bound a rate instead of dividing by zero.
 */
#ifndef TOKIO_CONNECTORS_HPSS_H
#define TOKIO_CONNECTORS_HPSS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_hpss;

/* What a handle holds, or what to read an input as. */
enum tokio_hpss_kind {
    TOKIO_HPSS_AUTO = 0,    /* tell by content (open only) */
    TOKIO_HPSS_DAILY,       /* daily report (HpssDailyReport) */
    TOKIO_HPSS_HSI,         /* HSI/HTAR transaction log (HsiLog) */
    TOKIO_HPSS_FTP          /* FTP/PFTP transfer log (FtpLog) */
};

/**
 * Read `path` (plain or compressed; "-" is standard input) as `kind`:
 * native text, or the JSON of tokio_hpss_to_json() (text whose first
 * non-blank character is '{': its top-level keys tell a log from a
 * report).  With TOKIO_HPSS_AUTO the kind is told by the first non-blank
 * line: an HSI/HTAR line (eight space-separated fields, app "hsi" or
 * "htar", then tab-separated ones), an FTP line ("..._Cmd" in the 9th or
 * 12th field), else a daily report, which must hold a line starting
 * "HPSS Report for Date"; input without such a line is an empty HSI log.
 * Blank lines are skipped, and lines of other applications or FTP
 * commands are skipped as the reference skips them.
 * @param[out] out  the data; free with tokio_hpss_free().  NULL on
 *                  failure.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_EFORMAT (the message names the file
 *         and line: too few fields, a bad date or number, invalid UTF-8;
 *         a report without its date line; a daily report table keyed by
 *         a column with a repeated value; unrecognizable with AUTO; JSON
 *         as tokio_hpss_from_json() refuses it), TOKIO_EINVAL (no such
 *         kind), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_hpss_open(struct tokio_hpss **out, const char *path,
                              enum tokio_hpss_kind kind);

/**
 * As tokio_hpss_open() over `len` bytes at `buf` (not kept; may be gzip),
 * named `name` (may be NULL) in messages.
 */
TOKIO_API int tokio_hpss_open_mem(struct tokio_hpss **out, const void *buf,
                                  size_t len, const char *name,
                                  enum tokio_hpss_kind kind);

/** What `h` holds: TOKIO_HPSS_DAILY, _HSI or _FTP. */
TOKIO_API enum tokio_hpss_kind tokio_hpss_kind(const struct tokio_hpss *h);

/**
 * Number of records of application `app` ("hsi", "htar", "ftp", "pftp")
 * in a log; 0 for a report or an application without records.
 */
TOKIO_API size_t tokio_hpss_count(const struct tokio_hpss *h,
                                  const char *app);

/**
 * The daily report's date as "YYYY-MM-DD" (borrowed), or NULL when `h` is
 * no report or was read from JSON (the reference's JSON lacks it).
 */
TOKIO_API const char *tokio_hpss_report_date(const struct tokio_hpss *h);

/**
 * The reference's JSON (as json.dumps of the pytokio object): a new
 * reference in `*out` to the handle's own tree (read it, do not change
 * it; json_decref() it); applications, systems and tables in input
 * order.  Written with TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4) it is
 * what the reference's goldens hold.
 * @return TOKIO_OK.
 */
TOKIO_API int tokio_hpss_to_json(const struct tokio_hpss *h, json_t **out);

/**
 * Build from the JSON form (borrowed).  `kind` may be TOKIO_HPSS_AUTO: an
 * object whose keys are all "hsi"/"htar" is an HSI log, all "ftp"/"pftp"
 * an FTP log, else a daily report (the empty object is an empty HSI log).
 * Log records may hold only their application's fields with their types
 * (applications without records are dropped); report rows only strings
 * and numbers.
 * @return TOKIO_OK, TOKIO_EFORMAT (names the application or table and the
 *         record), TOKIO_EINVAL (no such kind), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_hpss_from_json(struct tokio_hpss **out,
                                   const json_t *json,
                                   enum tokio_hpss_kind kind);

/**
 * CSV.  A log: one row per record in input order, columns "app" then
 * every field name of the log's kind sorted, empty where a record lacks
 * the field.  A report: one row per cell, columns system, table, row (the
 * key of a re-keyed table, else the 0-based row number), column, value.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_ENOMEM (a report's rows).
 */
TOKIO_API int tokio_hpss_write_csv(const struct tokio_hpss *h, FILE *fp);

/** Release; NULL is fine. */
TOKIO_API void tokio_hpss_free(struct tokio_hpss *h);

#endif
