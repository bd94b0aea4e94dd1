/*
 * tokio/connectors/darshan_json.h - a Darshan log as the reference's
 * JSON (tokio.connectors.darshan.Darshan, as cache_darshan prints it):
 *
 *   { "header":   { "version", "compression", "exe": [..], "uid",
 *                   "jobid", "start_time", "start_time_string",
 *                   "end_time", "end_time_string", "nprocs", "walltime",
 *                   "metadata": [..] },
 *     "mounts":   { "<mount point>": "<fs type>" },
 *     "counters": { "<module>": { "<record name>": { "<rank>":
 *                   { "<COUNTER>": value } },
 *                                 "_total": { "<COUNTER>": value },
 *                                 "_perf":  { "<metric>": value } } } }
 *
 * Module keys are darshan-parser's module names lower-cased without '-'
 * and '/' ("mpiio", "bgq"); counter names lose their module prefix
 * ("POSIX_BYTES_READ" -> "BYTES_READ"); ranks are decimal strings ("-1":
 * shared record).  Values are typed as the reference typed the text it
 * read: integers, reals (the value darshan-parser's "%f" text reads back
 * as), and strings for non-numeric values ("N/A", "raid0").
 */
#ifndef TOKIO_CONNECTORS_DARSHAN_JSON_H
#define TOKIO_CONNECTORS_DARSHAN_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "tokio/common.h"
#include "tokio/connectors/darshan.h"

struct tokio_darshan_spool;

/* What to put under "counters"; no view named means base only, as in
 * the reference's cache_darshan (the filters still apply). */
struct tokio_darshan_json_opts {
    int base;                   /* records (darshan-parser --base) */
    int total;                  /* "_total" per module (--total) */
    int perf;                   /* "_perf" per module (--perf) */
    /* Filters of the base records only, as cache_darshan applies them:
     * module keys ("posix", "mpiio") and prefix-less counter names
     * ("BYTES_READ").  NULL or n == 0: no filter. */
    const char *const *modules;
    size_t n_modules;
    const char *const *counters;
    size_t n_counters;
    /* "_total" and "_perf" from these figures, folded while the log was
     * read (tokio_darshan_fold_record()); NULL: from the log's records */
    const struct tokio_darshan_fold *fold;
    /* The base records from this spool, which the log's open filled
     * (tokio_darshan_spool_record()) with these filters; NULL: from the
     * log's records.  Read by one writer at a time. */
    struct tokio_darshan_spool *spool;
};

/**
 * Write the reference's JSON for `log` with `opts` (NULL: base only) to
 * `fp` as it is made, in the layout tokio_json_write() gives `flags`,
 * with its keys sorted whatever `flags` says (TOKIO_JSON_INDENT(n) is
 * honoured).  Memory stays one small entry per record plus one record's
 * counters, besides the records the log holds (none with opts->spool).
 * Returns TOKIO_OK, TOKIO_EFORMAT
 * (two records give the same module/name/rank/counter, which the
 * reference rejects too; or --perf finds a rank beyond nprocs, where
 * darshan-parser aborts: both found before anything is written),
 * TOKIO_EINVAL (no log or no file), TOKIO_ENOMEM or TOKIO_EIO (writing
 * failed, or reading back opts->spool); output may then be incomplete.
 * Thread-safe on a shared log (not on a shared spool);
 * times are ctime() in the local zone (TZ).
 */
TOKIO_API int tokio_darshan_write_json(
    const struct tokio_darshan *log, FILE *fp,
    const struct tokio_darshan_json_opts *opts, unsigned flags);

/**
 * The same JSON as a tree: on success *out holds a new reference
 * (json_decref() it) and the result is TOKIO_OK; else *out is NULL and
 * the statuses are tokio_darshan_write_json()'s but TOKIO_EIO.  The tree
 * of a big log is ten times its decoded size: write what can be written.
 */
TOKIO_API int tokio_darshan_to_json(const struct tokio_darshan *log,
                                    const struct tokio_darshan_json_opts *opts,
                                    json_t **out);

/*
 * The base records of a big log in bounded memory: hand
 * tokio_darshan_spool_record() to tokio_darshan_open_select() as its
 * record callback (the spool as its payload), and every record the
 * filters keep is written to an unlinked temporary file in $TMPDIR (else
 * /tmp) as it is decoded (the first MiB of them stays in memory: a small
 * log makes no file), an index entry of 32 bytes kept for it (and the
 * log keeps its name table).  Then set opts->spool and
 * tokio_darshan_write_json() reads the records back one at a time in the
 * JSON's order: the same output as from a log that kept its records.
 * With --total or --perf, fold the records too (tokio_darshan_fold_record(),
 * opts->fold).  cache-darshan: a log of a million records peaks at tens
 * of MB, not a GB.
 */

/**
 * A new, empty spool for the base records of one log, filtered as `opts`
 * says (its modules and counters lists are borrowed: keep them until the
 * spool is freed; NULL: no filter).  *out holds it (free with
 * tokio_darshan_spool_free()).  Returns TOKIO_OK or TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_spool_new(struct tokio_darshan_spool **out,
                                      const struct tokio_darshan_json_opts *opts);

/**
 * Keep record `r` of module `mod` of `log` in the spool `spool` (a
 * tokio_darshan_record_fn) if the spool's filters keep it; records of one
 * log only, the log handle then given to tokio_darshan_write_json().
 * Returns TOKIO_OK, TOKIO_EIO (the temporary file could not be made or
 * written, e.g. disk full; the message names the log and the folder),
 * TOKIO_ENOMEM, or TOKIO_EINVAL once the spool has been read.
 */
TOKIO_API int tokio_darshan_spool_record(void *spool,
                                         const struct tokio_darshan *log,
                                         int mod,
                                         const struct tokio_darshan_record *r);

/** Release a spool and its temporary file (NULL is fine). */
TOKIO_API void tokio_darshan_spool_free(struct tokio_darshan_spool *s);

#endif
