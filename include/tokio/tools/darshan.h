/*
 * tokio/tools/darshan.h - finding a site's Darshan logs and loading them
 * (tokio.tools.darshan in the reference: find_darshanlogs and
 * load_darshanlogs) and reading what a log's file name says about its job
 * (the reference's tokio.connectors.darshan.parse_filename_metadata).
 *
 * Darshan writes each job's log into a per-day folder of a system-wide
 * repository, <log_dir>/<year>/<month>/<day>/ (no zero padding), named
 *     <user>_<exe>_id<jobid>_<month>-<day>-<seconds>-<logmod>_<n>.darshan
 * where <seconds> is the job's start as seconds into its day, <logmod> a
 * hash and <n> the seconds the shutdown took.
 */
#ifndef TOKIO_TOOLS_DARSHAN_H
#define TOKIO_TOOLS_DARSHAN_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "tokio/common.h"

struct tokio_config;

/* What a Darshan log's file name says; the reference's key names. */
struct tokio_darshan_filename {
    char *username;
    char *exename;              /* may hold underscores */
    char *jobid;                /* digits, kept as text as the reference does */
    int64_t start_month;
    int64_t start_day;
    int64_t start_second_in_day;
    uint64_t logmod;            /* a 64-bit hash: may exceed INT64_MAX */
    int64_t shutdown_secs;
};

/**
 * Read the job metadata out of a Darshan log's name.  `filename` may be a
 * base name or a whole path; as in the reference, the pattern is searched
 * for anywhere in it (the leftmost match wins) and the executable name is
 * the shortest that lets the rest match, so "a_b_c_id1_..." gives user "a"
 * and exe "b_c".
 *
 * @param[out] out  the fields; free with tokio_darshan_filename_free().
 *                  NULL on failure.
 * @return TOKIO_OK; TOKIO_EFORMAT when the name does not follow the
 *         pattern (the reference returns an empty dict: no field is ever
 *         known alone) or a number is too large for its field;
 *         TOKIO_EINVAL (NULL arguments); TOKIO_ENOMEM.  Thread-safe.
 */
TOKIO_API int tokio_darshan_parse_filename(struct tokio_darshan_filename **out,
                                           const char *filename);

/** Release a parsed name; NULL is fine. */
TOKIO_API void tokio_darshan_filename_free(struct tokio_darshan_filename *f);

/*
 * Which logs to find.  Zero-initialise and fill in what you need; NULL
 * strings mean "any" or "the default".
 */
struct tokio_find_darshanlogs_query {
    int have_start;             /* 0: start is unset */
    int64_t start;              /* seconds since the epoch; its local day */
    int have_end;               /* 0: the same day as start */
    int64_t end;                /* inclusive: its whole local day counts */
    const char *username;       /* NULL or "": any user */
    const char *jobid;          /* NULL: any job ("" matches no log) */
    const char *log_dir;        /* the repository; NULL: darshan_log_dirs */
    const char *system;         /* key into darshan_log_dirs when an object */
};

/**
 * The Darshan logs in the repository for the local days from q->start's
 * to q->end's inclusive, of q->username and q->jobid, as the reference's
 * find_darshanlogs().
 *
 * The repository is q->log_dir, else the site configuration's
 * darshan_log_dirs: a string, a list, or an object keyed by system name.
 * With q->system, only that key's folders count and the first that exists
 * wins each day; without, every folder listed counts.  The repository
 * path is itself a strftime template (as in the reference), so a site may
 * keep one per year.  Usernames and job ids are glob patterns, as in the
 * reference.
 *
 * Differs from pytokio: the paths come back sorted (byte order) instead
 * of in Python's set order; when a repository is configured but none of
 * its folders exists, that is an error naming it instead of an empty
 * result (a mistyped --logdir would otherwise look like a quiet day); and
 * a start date is needed even with a job id.  NEEDSWORK: the reference
 * then asks the job databases when the job started; the jobinfo tool
 * (tokio_jobinfo_get_job_startend()) could, at the price of running
 * sacct from the finder.
 *
 * @param cfg  the site configuration; may be NULL when q->log_dir is set.
 * @param[out] paths_out  sorted, duplicate-free paths as the repository
 *             path spells them (relative stays relative); free with
 *             tokio_free_strings().  NULL when none match.
 * @return TOKIO_OK (also when no log matches, or q->system names no
 *         entry); TOKIO_EINVAL (no start date, end before start, no
 *         repository configured, darshan_log_dirs not a string, list or
 *         object); TOKIO_ENOTFOUND (no folder of the repository exists;
 *         the message names it); TOKIO_EIO; TOKIO_ENOMEM.
 */
TOKIO_API int tokio_find_darshanlogs(
    char ***paths_out, size_t *n_out, const struct tokio_config *cfg,
    const struct tokio_find_darshanlogs_query *q);

/* ---- load_darshanlogs ------------------------------------------------ */

/* The parts of a log tokio_load_darshanlogs() loads (flags). */
enum tokio_darshan_load_views {
    TOKIO_DARSHAN_LOAD_BASE = 1,        /* records: darshan-parser --base */
    TOKIO_DARSHAN_LOAD_TOTAL = 2,       /* "_total": --total */
    TOKIO_DARSHAN_LOAD_PERF = 4         /* "_perf": --perf */
};

/**
 * Read the reference's `which` argument: a comma-separated list, any
 * case, of base, total and perf, of which at least one must appear
 * (other items are ignored, as there).
 *
 * @param[out] views_out  TOKIO_DARSHAN_LOAD_* flags; 0 on failure.
 * @return TOKIO_OK, or TOKIO_EINVAL (the reference's TypeError "which
 *         must be base, total, and/or perf") naming `which`.
 */
TOKIO_API int tokio_darshan_load_views(const char *which,
                                       unsigned *views_out);

/**
 * The reference's load_darshanlogs(): find the logs as
 * tokio_find_darshanlogs() does, read each, and return an object keyed
 * by each log's path (as the finder spells it) whose value is the log's
 * cache-darshan JSON (tokio_darshan_to_json(), see
 * tokio/connectors/darshan_json.h) with the views in `views`.  A 0-byte
 * log (a repository's placeholder) gives {}, as the reference's failed
 * darshan-parser run did.  A path that is not UTF-8 (a JSON key must be)
 * is keyed with '?' for each byte above 0x7f.
 *
 * Differs from pytokio: as for tokio_find_darshanlogs(); and a log that
 * is not empty but cannot be read fails the whole load with the reader's
 * message naming it (the reference kept whatever darshan-parser printed
 * before failing).
 *
 * @param cfg    the site configuration; may be NULL when q->log_dir is
 *               set.
 * @param views  TOKIO_DARSHAN_LOAD_* flags (see tokio_darshan_load_views).
 * @param[out] out  a new reference (json_decref() it); {} when no log
 *                  matches; NULL on failure.
 * @return TOKIO_OK, or TOKIO_PARTIAL when some log says a module ran out
 *         of memory (its JSON holds what the log kept); TOKIO_EINVAL
 *         (views without base, total or perf, or
 *         as tokio_find_darshanlogs()); TOKIO_ENOTFOUND, TOKIO_EIO,
 *         TOKIO_EFORMAT (a log the reader rejects), TOKIO_ENOMEM.
 *         Thread-safe when `cfg` is not being changed.
 */
TOKIO_API int tokio_load_darshanlogs(
    json_t **out, const struct tokio_config *cfg,
    const struct tokio_find_darshanlogs_query *q, unsigned views);

#endif
