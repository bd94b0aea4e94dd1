/*
 * tokio/tools/jobinfo.h - a job's start, end and nodes from whichever
 * source the site trusts (tokio.tools.jobinfo in the reference).
 *
 * The site configuration lists the sources to ask, in order:
 * "jobinfo_jobid_providers" for times and "jobinfo_jobnodes_providers"
 * for nodes (both ["slurm"] when absent).  Known providers: "slurm" (a
 * saved sacct/JSON file when one is given, else sacct itself) and
 * "nersc_jobsdb" (NERSC's jobs database, times only: the cache file when
 * it is an SQLite one, else the server NERSC_JOBSDB_* name, asked about
 * the host in the configuration's "nersc_host" or $NERSC_HOST; skipped
 * with a reason when none is configured).  The first provider that
 * answers wins.
 */
#ifndef TOKIO_TOOLS_JOBINFO_H
#define TOKIO_TOOLS_JOBINFO_H

#include <stddef.h>
#include <stdint.h>

#include "tokio/common.h"

struct tokio_config;

/**
 * Earliest start and latest end of job `jobid` over all its tasks, as
 * epoch seconds.  `cfg` may be NULL (default providers); `cache_file`, if
 * not NULL, is a saved sacct or JSON file used instead of running sacct
 * (only its tasks of `jobid` count).
 * @return TOKIO_OK; TOKIO_EINVAL (empty job id, a provider list that is
 *         not a list of names); otherwise the first failing provider's
 *         status (TOKIO_ENOTFOUND when every provider was unavailable or
 *         knew no such job), with a message naming each provider tried
 *         and why it could not answer.
 */
TOKIO_API int tokio_jobinfo_get_job_startend(const struct tokio_config *cfg,
                                             const char *jobid,
                                             const char *cache_file,
                                             int64_t *start_out,
                                             int64_t *end_out);

/**
 * The nodes job `jobid` ran on, once each, sorted (byte order).
 * @param[out] nodes_out  `*n_out` new strings; free each and the array
 *                        (tokio_free_strings()).  NULL when none.
 * @return as tokio_jobinfo_get_job_startend().
 */
TOKIO_API int tokio_jobinfo_get_job_nodes(const struct tokio_config *cfg,
                                          const char *jobid,
                                          const char *cache_file,
                                          char ***nodes_out, size_t *n_out);

#endif
