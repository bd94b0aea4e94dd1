/*
 * tokio/tools/darshan_index.h - questions over a Darshan index database,
 * the SQLite file that index-darshanlogs writes (the reference's
 * tokio.cli.index_darshanlogs schema: tables summaries, mounts, headers).
 *
 * The scoreboard is the reference's darshan_scoreboard: bytes read and
 * written and the number of jobs, per user, per file system, per
 * application and per (user, application, file system), largest first.
 */
#ifndef TOKIO_TOOLS_DARSHAN_INDEX_H
#define TOKIO_TOOLS_DARSHAN_INDEX_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "tokio/common.h"

/*
 * Which rows count.  Every value is an SQL LIKE pattern ('%' and '_' are
 * wildcards, ASCII case does not matter), always passed to SQLite as a
 * bound parameter, never as SQL text.  A `limit_*` list keeps rows
 * matching any of its values; an `exclude_*` list drops rows matching any
 * of its values.  A file system value is compared with both the mount
 * point (/global/cscratch1) and the logical name (cscratch) stored in the
 * index.  Empty lists (n == 0, the pointer may be NULL) filter nothing.
 * Zero-initialise and fill in what you need.
 */
struct tokio_scoreboard_filters {
    const char *const *limit_user;
    size_t n_limit_user;
    const char *const *exclude_user;
    size_t n_exclude_user;
    const char *const *limit_fs;
    size_t n_limit_fs;
    const char *const *exclude_fs;
    size_t n_exclude_fs;
    const char *const *limit_exe;
    size_t n_limit_exe;
    const char *const *exclude_exe;
    size_t n_exclude_exe;
    /* 0: every row; else at most this many rows per category and
     * database (the reference's max_results, which its CLI never sets) */
    size_t max_results;
};

/**
 * Compute the scoreboard of one or more index databases, each opened
 * read-only.
 *
 * @param[out] out  a new reference to an object with the arrays
 *   "per_user", "per_fs", "per_exe" and "per_user_exe_fs", in that
 *   (insertion) order.  Each row is [bytes_read, bytes_written, jobs,
 *   name] and, in per_fs only, the mount point after the logical name;
 *   per_user_exe_fs names are "user|exe|fsname".  A name is null when the
 *   index has none (e.g. a log without a user name), sums are null when
 *   every summed value is.  Rows of each database come largest first
 *   (read + written) and the databases' rows are concatenated in the
 *   order given, as the reference does.  NULL on failure.
 * @param db_paths  `n` >= 1 paths of index databases.
 * @param f  filters; NULL for none.
 * @return TOKIO_OK; TOKIO_EIO (a database cannot be opened or read);
 *   TOKIO_EFORMAT (not an SQLite database, corrupt, or without the
 *   index's tables or columns); TOKIO_EINVAL (no paths, too many filter
 *   values); TOKIO_ENOMEM.  Messages name the database and carry
 *   SQLite's own words.
 */
TOKIO_API int tokio_darshan_scoreboard(
    json_t **out, const char *const *db_paths, size_t n,
    const struct tokio_scoreboard_filters *f);

/**
 * Print a scoreboard as the reference's darshan_scoreboard does without
 * --json: for each category a titled table of its `max_show` largest
 * rows across all databases (GiB with one decimal, job counts), names
 * longer than 40 characters shortened in the middle with "...", and
 * "UNKNOWN, UNKNOWN, UNKNOWN" for a missing name.  A category without
 * rows prints nothing; with `max_show` <= 0 a category prints only its
 * title.  Null sums count as 0 (the reference stops with a TypeError).
 *
 * @param board  borrowed; as made by tokio_darshan_scoreboard().
 * @return TOKIO_OK; TOKIO_EINVAL (`board` is not such an object);
 *   TOKIO_EIO (writing failed); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_scoreboard_write_text(FILE *fp,
                                                  const json_t *board,
                                                  long long max_show);

#endif
