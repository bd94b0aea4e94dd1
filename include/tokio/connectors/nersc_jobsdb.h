/*
 * tokio/connectors/nersc_jobsdb.h - NERSC's jobs database: one row per job
 * step (stepid, hostname, start, completion, numnodes) in the table
 * `summary`, on a MySQL server or in an SQLite cache of it.  Mirrors
 * tokio.connectors.nersc_jobsdb.NerscJobsDb.
 *
 * The data are append-only, so every answered query is remembered in
 * memory and its rows kept under `summary` for
 * tokio_cachingdb_save_cache().  Times are epoch seconds.
 */
#ifndef TOKIO_CONNECTORS_NERSC_JOBSDB_H
#define TOKIO_CONNECTORS_NERSC_JOBSDB_H

#include <stddef.h>
#include <stdint.h>

#include "tokio/common.h"
#include "tokio/connectors/cachingdb.h"

struct tokio_nersc_jobsdb;

/* Environment variables naming the server (the reference's), + "PORT". */
#define TOKIO_NERSC_JOBSDB_ENV_PREFIX "NERSC_JOBSDB_"

/* What get_concurrent_jobs() adds up (the reference's dict). */
struct tokio_nersc_concurrent {
    double nodehrs;     /* node-hours burned inside the window */
    int64_t numnodes;   /* nodes of every job overlapping it */
    int64_t numjobs;    /* jobs overlapping it */
};

/**
 * Open the SQLite cache `cache_file` when not NULL, else the server
 * `remote`, or when `remote` is NULL the one NERSC_JOBSDB_HOST, _USER,
 * _PASSWORD, _DB (and _PORT) name.
 * @param[out] out  free with tokio_nersc_jobsdb_free().
 * @return as tokio_cachingdb_open().
 */
TOKIO_API int tokio_nersc_jobsdb_open(struct tokio_nersc_jobsdb **out,
                                      const char *cache_file,
                                      const struct tokio_db_remote *remote);

/** As tokio_nersc_jobsdb_open() over `db`, which `out` then owns (freed
 *  even on failure). */
TOKIO_API int tokio_nersc_jobsdb_open_db(struct tokio_nersc_jobsdb **out,
                                         struct tokio_cachingdb *db);

/** The underlying database (borrowed): for tokio_cachingdb_save_cache(). */
TOKIO_API struct tokio_cachingdb *
tokio_nersc_jobsdb_db(struct tokio_nersc_jobsdb *j);

/**
 * Start and completion of job `jobid` on `host` (steps "JOBID.*"; with
 * several, the one completing last).
 * @return TOKIO_OK; TOKIO_ENOTFOUND (no such job); database errors.
 */
TOKIO_API int tokio_nersc_jobsdb_get_job_startend(struct tokio_nersc_jobsdb *j,
                                                  const char *jobid,
                                                  const char *host,
                                                  int64_t *start_out,
                                                  int64_t *end_out);

/**
 * Jobs on `host` running at some time in (start, end), and the node-hours
 * each burned inside the window: nodes * (min(completion, end) -
 * max(start_job, start)) / 3600, summed.
 * @return TOKIO_OK; TOKIO_EFORMAT (a row without integer times);
 *         database errors.
 */
TOKIO_API int tokio_nersc_jobsdb_get_concurrent_jobs(
    struct tokio_nersc_jobsdb *j, int64_t start, int64_t end,
    const char *host, struct tokio_nersc_concurrent *out);

/** Close; NULL is fine. */
TOKIO_API void tokio_nersc_jobsdb_free(struct tokio_nersc_jobsdb *j);

#endif
