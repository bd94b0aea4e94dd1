/*
 * tokio/tools/darshan_indexer.h - building the Darshan index database
 * (the reference's tokio.cli.index_darshanlogs) and the per-file-system
 * byte counts of the reference's older summarize_darshanlogs.
 *
 * The index is an SQLite file with the reference's three tables, created
 * with the reference's very statements so that `sqlite3 DB .dump` reads
 * the same:
 *
 *   mounts(fs_id INTEGER PRIMARY KEY, mountpt CHAR UNIQUE, fsname CHAR)
 *   headers(log_id INTEGER PRIMARY KEY, filename CHAR UNIQUE, end_time,
 *           exe, exename, jobid, nprocs, start_time, uid, username,
 *           version, walltime)
 *   summaries(log_id, fs_id, 19 integer counters, 8 real timestamps,
 *             UNIQUE(log_id, fs_id))
 *
 * One summaries row per log and file system the log did I/O on, reduced
 * over its POSIX and STDIO records (sums; min/max for the timestamps).
 */
#ifndef TOKIO_TOOLS_DARSHAN_INDEXER_H
#define TOKIO_TOOLS_DARSHAN_INDEXER_H

#include <jansson.h>
#include <stddef.h>

#include "tokio/common.h"

struct tokio_config;
struct tokio_darshan_fsmap;

/**
 * Compile the site configuration's mount_to_fsname (an object of Python
 * regular expressions, matched at the start of a mount point, to logical
 * file system names; when several match, the last in the file wins, as
 * in the reference).  `cfg` may be NULL or lack the key: nothing maps.
 *
 * @param[out] out  free with tokio_darshan_fsmap_free(); NULL on failure.
 * @return TOKIO_OK; TOKIO_EFORMAT (the key is not an object, a value is
 *         not a string, or a pattern does not compile: the message names
 *         mount_to_fsname, the pattern and the offset); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_fsmap_new(struct tokio_darshan_fsmap **out,
                                      const struct tokio_config *cfg);

/**
 * The logical name of `mountpt` (borrowed from the map), or NULL when no
 * pattern matches.  Thread-safe.
 */
TOKIO_API const char *tokio_darshan_fsmap_lookup(
    const struct tokio_darshan_fsmap *map, const char *mountpt);

/** Release a map; NULL is fine. */
TOKIO_API void tokio_darshan_fsmap_free(struct tokio_darshan_fsmap *map);

/**
 * What the reference's summarize_by_fs() returns for the log at `path`:
 * {"headers": {...}, "mounts": {mountpt: fsname},
 *  "summaries": {mountpt: {counter: value or null, ..., "filename"}}}.
 * With `lite`, as its lite parser meant to (posix_files and stdio_files
 * stay null, since that parser could not count records).
 *
 * @param[out] out  a new reference; an empty object when the reference
 *   gives {} (no POSIX or STDIO records, no mount table).  NULL on
 *   failure.
 * @return TOKIO_OK; what tokio_darshan_open() fails with; TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_summarize_by_fs(
    json_t **out, const char *path, const struct tokio_darshan_fsmap *map,
    int lite);

/* How tokio_darshan_index() works; zero-initialise, then set. */
struct tokio_darshan_index_opts {
    unsigned threads;           /* parsing workers; 0 means 1 */
    /* logs of at least this many MiB are parsed in lite mode, one at a
     * time (bounded memory); 0: never */
    double max_mb;
    /* nonzero: commit after every log (the reference's
     * --no-bulk-insert); else in batches */
    int no_bulk_insert;
    size_t batch_logs;          /* logs per transaction; 0: 1000 */
    /* --shard K/N: 0 < shard_k <= shard_n takes only the logs whose file
     * name (the index's key) is in shard K of N
     * (tokio_darshan_in_shard()), and tags the database as that shard's
     * part for tokio_darshan_index_merge(); shard_n 0: every log */
    unsigned shard_k, shard_n;
    /* Called from the calling thread, in input order.  `warn` gets a log
     * that could not be indexed and why; may be NULL. */
    void (*warn)(void *arg, const char *path, const char *why);
    /* a log that could not be read at all (missing, not a Darshan log,
     * damaged), when set; else `warn` gets it too */
    void (*unreadable)(void *arg, const char *path, const char *why);
    /* after each log is written or skipped: done of total; may be NULL */
    void (*progress)(void *arg, size_t done, size_t total);
    void *arg;
};

/* What tokio_darshan_index() did. */
struct tokio_darshan_index_stats {
    size_t n_inputs;            /* logs named (after directory expansion) */
    size_t n_existing;          /* skipped: already in the index */
    size_t n_duplicates;        /* skipped: same file name given twice */
    size_t n_indexed;           /* written to the index */
    size_t n_failed;            /* unreadable, or nothing to index */
    size_t n_unreadable;        /* of n_failed: could not be read at all
                                   (missing, not a Darshan log, damaged) */
    size_t n_existing_in_db;    /* logs the index held before */
};

/**
 * Add the Darshan logs `logs` (or, when `n` is 1 and it is a directory,
 * the regular files in it, in name order) to the index at `db_path`,
 * creating it and its tables if needed.  Logs already in the index (by
 * file name without folders, as the reference keys them) are skipped.
 *
 * Logs are parsed by `opts->threads` workers and written by the calling
 * thread in input order, so the database's content does not depend on
 * the number of threads.  Each log's rows are written in one transaction
 * with others of its batch: an interrupted run (even by SIGKILL) leaves
 * every committed batch, SQLite's rollback journal undoes the rest, and
 * a rerun adds what is missing.
 *
 * A log that cannot be read, or holds nothing to index, is reported to
 * opts->warn (or opts->unreadable) and skipped (the run goes on, as in
 * the reference).  A new index is made when the first log is written,
 * so when no log given can be read (stats n_unreadable), none is left.
 * With opts->shard_n, only shard opts->shard_k's share of the logs is
 * indexed, into a part tagged as that shard's; re-running the shard adds
 * what its part misses.
 *
 * @param cfg    site configuration for mount_to_fsname; may be NULL.
 * @param opts   NULL: defaults.
 * @param[out] stats_out  may be NULL; filled as far as the run got.
 * @return TOKIO_OK; TOKIO_EFORMAT (bad mount_to_fsname; the database is
 *         not an index); TOKIO_EIO (the database cannot be opened or
 *         written; message has SQLite's words); TOKIO_EINVAL;
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_index(
    const char *db_path, const char *const *logs, size_t n,
    const struct tokio_config *cfg,
    const struct tokio_darshan_index_opts *opts,
    struct tokio_darshan_index_stats *stats_out);

/**
 * The logs tokio_darshan_index() takes for the folder `dir`: its regular
 * files (links to them included) as "dir/name", in byte order of their
 * names.  *out is a new array of *n_out new strings (free() each and it;
 * NULL when there are none).
 *
 * @return TOKIO_OK; TOKIO_EIO (the folder cannot be read); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_list_folder(const char *dir, char ***out,
                                        size_t *n_out);

/**
 * Whether `name` belongs to shard `k` of `n` (1 <= k <= n): zlib's
 * crc32 of its bytes, modulo n, is k - 1.  Stable across runs, hosts and
 * versions, so a Slurm array task or cron job always gets the same share.
 * Commands keyed by file name (the index) hash the name without folders,
 * so a log given twice under two folders falls into one shard.
 */
TOKIO_API int tokio_darshan_in_shard(const char *name, unsigned k,
                                     unsigned n);

/**
 * Merge the partial indexes `parts` (each written by tokio_darshan_index()
 * with a shard, or any index) into a new index at `out_path`, replacing
 * it whole (written beside it and renamed; its lock held throughout):
 * the rows one run over all the logs would have written, given the logs
 * in file-name order (as a folder is listed) -- the same log_id and fs_id
 * numbering, so `sqlite3 OUT .dump` is that run's.  Parts are read, never
 * changed.
 *
 * @return TOKIO_OK; TOKIO_EFORMAT (a part is not an index, has another
 *         schema, two parts are tagged as the same shard or as shards of
 *         different counts, or hold the same log: the message names the
 *         parts); TOKIO_EIO (a part cannot be read, `out_path` cannot be
 *         written); TOKIO_EINVAL (no parts); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_index_merge(const char *out_path,
                                        const char *const *parts,
                                        size_t n_parts);

/**
 * The reference's older summarize_darshanlogs for one log: POSIX bytes
 * read and written per mount point, {mountpt: {"read_bytes": n,
 * "write_bytes": n}}, mount points without I/O left out.  A file belongs
 * to the first mount point, in reverse byte order of their paths, that
 * its name starts with.
 *
 * @param[out] out  a new reference; an empty object when the log has no
 *   POSIX records, no mount table or no I/O.  NULL on failure.
 * @return TOKIO_OK; what tokio_darshan_open() fails with; TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_bytes_per_fs(json_t **out, const char *path);

/**
 * The partial outputs of `summarize-darshanlogs --shard K/N` runs (JSON
 * objects of {log: {mountpt: bytes...}}) merged into what one run over
 * all the logs writes: the logs in name order, as one run over a folder
 * adds them.
 *
 * @param[out] out  a new reference; NULL on failure.
 * @return TOKIO_OK; TOKIO_EFORMAT (a part is not such an output, or two
 *         parts hold one log, overlapping shards: the message names the
 *         parts); TOKIO_EIO (a part cannot be read); TOKIO_ENOMEM.
 */
TOKIO_API int tokio_darshan_summaries_merge(json_t **out,
                                            const char *const *parts,
                                            size_t n_parts);

#endif
