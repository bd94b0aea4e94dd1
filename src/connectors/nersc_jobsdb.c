/*
 * src/connectors/nersc_jobsdb.c - NERSC's jobs database (table `summary`:
 * stepid, hostname, start, completion, numnodes; times as epoch seconds).
 * Mirrors tokio.connectors.nersc_jobsdb.NerscJobsDb (pytokio 0.13).
 *
 * Test input: ../shared/testdata/pytokio-inputs/sample_nersc_jobsdb.sqlite3;
 * goldens in golden/pytokio/{nersc_jobsdb,cache_nersc_jobsdb}/.
 *
 * Differs from pytokio: a job that is not there is TOKIO_ENOTFOUND (the
 * reference returned (None, None)); several matching steps are not
 * warned about (the library prints nothing), the last one still wins.
 */
#include "tokio/connectors/nersc_jobsdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

/* NERSC_JOBSDB_SCHEMA and NERSC_JOBSDB_QUERY of the reference */
static const char *const summary_columns[] = {
    "STEPID", "HOSTNAME", "START", "COMPLETION", "NUMNODES"
};
static const char *const summary_key[] = { "STEPID" };
static const struct tokio_db_table summary_table = {
    "summary", summary_columns, 5, summary_key, 1
};
#define SELECT_SUMMARY \
    "SELECT s.stepid, s.hostname, s.start, s.completion, s.numnodes " \
    "FROM summary AS s "

struct tokio_nersc_jobsdb {
    struct tokio_cachingdb *db;
};

int
tokio_nersc_jobsdb_open_db(struct tokio_nersc_jobsdb **out,
                           struct tokio_cachingdb *db)
{
    if ((*out = tokio__calloc(1, sizeof(**out))) == NULL) {
        tokio_cachingdb_free(db);
        return tokio__error(TOKIO_ENOMEM, "out of memory opening the jobs "
                            "database");
    }
    (*out)->db = db;
    return TOKIO_OK;
}

int
tokio_nersc_jobsdb_open(struct tokio_nersc_jobsdb **out,
                        const char *cache_file,
                        const struct tokio_db_remote *remote)
{
    struct tokio_db_remote env;
    struct tokio_cachingdb *db;
    int rc;

    *out = NULL;
    if (cache_file == NULL && remote == NULL) {
        if ((rc = tokio_cachingdb_remote_from_env(
                 &env, TOKIO_NERSC_JOBSDB_ENV_PREFIX)) < 0)
            return rc;
        remote = &env;
        if (env.host == NULL || env.user == NULL || env.database == NULL)
            return tokio__error(TOKIO_EINVAL, "no jobs database: give a "
                                "cache file, or set NERSC_JOBSDB_HOST, "
                                "NERSC_JOBSDB_USER, NERSC_JOBSDB_PASSWORD "
                                "and NERSC_JOBSDB_DB");
    }
    if ((rc = tokio_cachingdb_open(&db, cache_file, remote)) < 0)
        return rc;
    return tokio_nersc_jobsdb_open_db(out, db);
}

struct tokio_cachingdb *
tokio_nersc_jobsdb_db(struct tokio_nersc_jobsdb *j)
{
    return j->db;
}

/* A row's start, completion and node count, which must be integers. */
static int
row_times(const struct tokio_db_value *row, size_t n, int64_t *start,
          int64_t *end, int64_t *nodes)
{
    if (n != 5 || row[2].type != TOKIO_DB_INT || row[3].type != TOKIO_DB_INT ||
        row[4].type != TOKIO_DB_INT)
        return tokio__error(TOKIO_EFORMAT, "jobs database: step '%.*s' has "
                            "no integer start, completion or numnodes",
                            n && row[0].type == TOKIO_DB_TEXT
                            ? (int)(row[0].len > 64 ? 64 : row[0].len) : 1,
                            n && row[0].type == TOKIO_DB_TEXT ? row[0].s
                            : "?");
    *start = row[2].i;
    *end = row[3].i;
    *nodes = row[4].i;
    return TOKIO_OK;
}

struct startend {
    int64_t start, end;
    size_t n;
};

static int
take_startend(void *payload, const struct tokio_db_value *row, size_t n)
{
    struct startend *se = payload;
    int64_t nodes = 0;
    int rc = row_times(row, n, &se->start, &se->end, &nodes);

    if (rc >= 0)
        se->n++;
    return rc;
}

int
tokio_nersc_jobsdb_get_job_startend(struct tokio_nersc_jobsdb *j,
                                    const char *jobid, const char *host,
                                    int64_t *start_out, int64_t *end_out)
{
    struct startend se = { 0, 0, 0 };
    struct tokio_db_value p[2];
    char *like;
    int rc;

    if (jobid == NULL || host == NULL)
        return tokio__error(TOKIO_EINVAL, "a job id and a host are needed");
    if ((like = tokio__malloc(strlen(jobid) + 3)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory asking about job "
                            "'%s'", jobid);
    sprintf(like, "%s.%%", jobid);
    memset(p, 0, sizeof(p));
    p[0].type = p[1].type = TOKIO_DB_TEXT;
    p[0].s = like;
    p[0].len = strlen(like);
    p[1].s = host;
    p[1].len = strlen(host);
    rc = tokio_cachingdb_query(j->db, SELECT_SUMMARY "WHERE s.stepid LIKE "
                               "%(ps)s AND s.hostname = %(ps)s ORDER BY "
                               "s.completion", p, 2, &summary_table,
                               TOKIO_DB_REMEMBER, take_startend, &se);
    free(like);
    if (rc < 0)
        return rc;
    if (se.n == 0)
        return tokio__error(TOKIO_ENOTFOUND, "jobs database '%s' has no job "
                            "'%s' on '%s'", tokio_cachingdb_source(j->db),
                            jobid, host);
    *start_out = se.start;
    *end_out = se.end;
    return TOKIO_OK;
}

struct window {
    int64_t start, end;
    struct tokio_nersc_concurrent *totals;
};

static int
add_job(void *payload, const struct tokio_db_value *row, size_t n)
{
    struct window *w = payload;
    int64_t s = 0, e = 0, nodes = 0;
    int rc = row_times(row, n, &s, &e, &nodes);

    if (rc < 0)
        return rc;
    if (s < w->start)
        s = w->start;
    if (e > w->end)
        e = w->end;
    /* Python: float total += int nodes * int seconds (exact, then
     * rounded once); values beyond int64 only come from a garbled row */
    int64_t nodesecs;
    if (__builtin_sub_overflow(e, s, &nodesecs) ||
        __builtin_mul_overflow(nodes, nodesecs, &nodesecs) ||
        __builtin_add_overflow(w->totals->numnodes, nodes,
                               &w->totals->numnodes))
        return tokio__error(TOKIO_EFORMAT, "jobs database: step '%.*s' has "
                            "times or a node count out of range",
                            row[0].type == TOKIO_DB_TEXT
                            ? (int)(row[0].len > 64 ? 64 : row[0].len) : 1,
                            row[0].type == TOKIO_DB_TEXT ? row[0].s : "?");
    w->totals->nodehrs += (double)nodesecs;
    w->totals->numjobs++;
    return TOKIO_OK;
}

int
tokio_nersc_jobsdb_get_concurrent_jobs(struct tokio_nersc_jobsdb *j,
                                       int64_t start, int64_t end,
                                       const char *host,
                                       struct tokio_nersc_concurrent *out)
{
    struct window w = { start, end, out };
    struct tokio_db_value p[3];
    int rc;

    memset(out, 0, sizeof(*out));
    if (host == NULL)
        return tokio__error(TOKIO_EINVAL, "a host is needed");
    memset(p, 0, sizeof(p));
    p[0].type = TOKIO_DB_TEXT;
    p[0].s = host;
    p[0].len = strlen(host);
    p[1].type = p[2].type = TOKIO_DB_INT;
    p[1].i = start;
    p[2].i = end;
    rc = tokio_cachingdb_query(j->db, SELECT_SUMMARY "WHERE s.hostname = "
                               "%(ps)s AND s.completion > %(ps)s AND "
                               "s.start < %(ps)s", p, 3, &summary_table,
                               TOKIO_DB_REMEMBER, add_job, &w);
    if (rc < 0) {
        memset(out, 0, sizeof(*out));
        return rc;
    }
    out->nodehrs /= 3600.0;
    return TOKIO_OK;
}

void
tokio_nersc_jobsdb_free(struct tokio_nersc_jobsdb *j)
{
    if (j == NULL)
        return;
    tokio_cachingdb_free(j->db);
    free(j);
}
