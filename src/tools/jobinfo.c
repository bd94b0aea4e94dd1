/*
 * src/tools/jobinfo.c - job times and nodes through the site's provider
 * lists, as the reference's tokio.tools.jobinfo.
 *
 * Differs from pytokio:
 *  - an unknown or unavailable provider is skipped with its reason and
 *    the next one is asked; the reference raised ConfigError at the first
 *    provider it did not know, even with good ones after it;
 *  - with a cache file, only the tasks of the asked job count; the
 *    reference ignored the job id then and answered for the whole file.
 */
#include "tokio/tools/jobinfo.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "tokio/config.h"
#include "tokio/connectors/nersc_jobsdb.h"
#include "tokio/connectors/slurm.h"
#include "tokio/tools/common.h"

/* The reference's DEFAULT_JOBID_PROVIDERS and DEFAULT_JOBNODES_PROVIDERS */
#define DEFAULT_PROVIDER "slurm"

enum question { ASK_STARTEND, ASK_NODES };

struct answer {
    int64_t start, end;
    char **nodes;
    size_t n_nodes;
};

/* Load a job's tasks from the cache file, or from sacct. */
static int
slurm_job(struct tokio_slurm **out, const char *jobid, const char *cache)
{
    int rc = cache ? tokio_slurm_open(out, cache)
                   : tokio_slurm_query(out, jobid);

    if (rc >= 0 && (rc = tokio_slurm_select_job(*out, jobid)) < 0) {
        tokio_slurm_free(*out);
        *out = NULL;
    }
    return rc;
}

static int
ask_slurm(enum question q, const char *jobid, const char *cache,
          struct answer *a)
{
    struct tokio_slurm *s = NULL;
    const char **nodes = NULL;
    size_t n = 0;
    int rc;

    if ((rc = slurm_job(&s, jobid, cache)) < 0)
        return rc;
    if (q == ASK_STARTEND) {
        rc = tokio_slurm_get_job_startend(s, &a->start, &a->end);
    } else if ((rc = tokio_slurm_get_job_nodes(s, &nodes, &n)) >= 0 && n) {
        /* the names belong to `s`: copy them out before it goes */
        if ((a->nodes = tokio__calloc(n, sizeof(*a->nodes))) == NULL)
            rc = tokio__error(TOKIO_ENOMEM, "out of memory listing nodes");
        for (size_t i = 0; rc >= 0 && i < n; i++, a->n_nodes++)
            if ((a->nodes[i] = tokio__strdup(nodes[i])) == NULL)
                rc = tokio__error(TOKIO_ENOMEM, "out of memory listing "
                                  "nodes");
        if (rc < 0) {
            tokio_free_strings(a->nodes, a->n_nodes);
            a->nodes = NULL;
            a->n_nodes = 0;
        }
    }
    free(nodes);
    tokio_slurm_free(s);
    return rc;
}

/* 1 when `path` starts as an SQLite database does. */
static int
is_sqlite_file(const char *path)
{
    static const char magic[16] = "SQLite format 3";
    char head[16];
    FILE *fp = fopen(path, "rb");
    int yes = 0;

    if (fp != NULL) {
        yes = fread(head, 1, sizeof(head), fp) == sizeof(head) &&
              memcmp(head, magic, sizeof(head)) == 0;
        fclose(fp);
    }
    return yes;
}

/*
 * The jobs database: the cache file when it is an SQLite one, else the
 * server NERSC_JOBSDB_* name; the host from the site configuration's
 * "nersc_host" or $NERSC_HOST, as in the reference.  Unconfigured is
 * TOKIO_ENOTFOUND with the reason in `why`, so the next provider is asked.
 */
static int
ask_jobsdb(const struct tokio_config *cfg, enum question q, const char *jobid,
           const char *cache, struct answer *a, const char **why)
{
    const json_t *h = cfg ? tokio_config_get(cfg, "nersc_host") : NULL;
    const char *host = json_string_value(h);
    struct tokio_nersc_jobsdb *j = NULL;
    int rc;

    *why = NULL;
    if (q != ASK_STARTEND) {
        *why = "not available: it knows no job nodes";
        return TOKIO_ENOTFOUND;
    }
    if (host == NULL)
        host = getenv("NERSC_HOST");
    if (host == NULL || *host == '\0') {
        *why = "not available: NERSC_HOST is not set in the environment or "
               "the site configuration (nersc_host)";
        return TOKIO_ENOTFOUND;
    }
    if (cache != NULL && !is_sqlite_file(cache))
        cache = NULL;
    if (cache == NULL && getenv("NERSC_JOBSDB_HOST") == NULL) {
        *why = "not available: no SQLite cache file and no "
               "NERSC_JOBSDB_HOST";
        return TOKIO_ENOTFOUND;
    }
    if ((rc = tokio_nersc_jobsdb_open(&j, cache, NULL)) >= 0)
        rc = tokio_nersc_jobsdb_get_job_startend(j, jobid, host, &a->start,
                                                 &a->end);
    tokio_nersc_jobsdb_free(j);
    return rc;
}

/* Append "; NAME: WHY" to the running explanation (cut when long). */
static void
note(char *why, size_t size, const char *provider, const char *reason)
{
    size_t n = strlen(why);

    if (n + 1 < size)
        snprintf(why + n, size - n, "%s%s: %s", n ? "; " : "", provider,
                 reason);
}

static int
ask(const struct tokio_config *cfg, enum question q, const char *jobid,
    const char *cache, struct answer *a)
{
    const char *key = q == ASK_STARTEND ? "jobinfo_jobid_providers"
                                        : "jobinfo_jobnodes_providers";
    const json_t *list = cfg ? tokio_config_get(cfg, key) : NULL;
    char why[2048] = "";
    int first_rc = 0;

    if (jobid == NULL || *jobid == '\0')
        return tokio__error(TOKIO_EINVAL, "a job id is required");
    if (list != NULL && !json_is_array(list))
        return tokio__error(TOKIO_EINVAL, "site configuration: '%s' must be "
                            "a list of provider names", key);
    size_t n = list ? json_array_size(list) : 1;
    if (n == 0)
        return tokio__error(TOKIO_ENOTFOUND, "site configuration: '%s' is "
                            "empty, so no provider can tell about job '%s'",
                            key, jobid);
    for (size_t i = 0; i < n; i++) {
        const json_t *item = list ? json_array_get(list, i) : NULL;
        const char *name = list ? json_string_value(item) : DEFAULT_PROVIDER;
        int rc;

        if (name == NULL)
            return tokio__error(TOKIO_EINVAL, "site configuration: '%s' item "
                                "%zu is not a provider name", key, i);
        if (strcmp(name, "slurm") == 0) {
            if ((rc = ask_slurm(q, jobid, cache, a)) >= 0)
                return rc;
            if (rc == TOKIO_ENOMEM)
                return rc;
            note(why, sizeof(why), name, tokio_errmsg());
        } else if (strcmp(name, "nersc_jobsdb") == 0) {
            const char *reason;

            if ((rc = ask_jobsdb(cfg, q, jobid, cache, a, &reason)) >= 0)
                return rc;
            if (rc == TOKIO_ENOMEM)
                return rc;
            note(why, sizeof(why), name, reason ? reason : tokio_errmsg());
        } else {
            rc = TOKIO_ENOTFOUND;
            note(why, sizeof(why), name, "unknown provider");
        }
        if (first_rc == 0 || first_rc == TOKIO_ENOTFOUND)
            first_rc = rc;
    }
    return tokio__error(first_rc, "no jobinfo provider could answer for job "
                        "'%s' (%s): %s", jobid, key, why);
}

int
tokio_jobinfo_get_job_startend(const struct tokio_config *cfg,
                               const char *jobid, const char *cache_file,
                               int64_t *start_out, int64_t *end_out)
{
    struct answer a = { 0, 0, NULL, 0 };
    int rc = ask(cfg, ASK_STARTEND, jobid, cache_file, &a);

    if (rc >= 0) {
        *start_out = a.start;
        *end_out = a.end;
    }
    return rc;
}

int
tokio_jobinfo_get_job_nodes(const struct tokio_config *cfg,
                            const char *jobid, const char *cache_file,
                            char ***nodes_out, size_t *n_out)
{
    struct answer a = { 0, 0, NULL, 0 };
    int rc;

    *nodes_out = NULL;
    *n_out = 0;
    if ((rc = ask(cfg, ASK_NODES, jobid, cache_file, &a)) < 0)
        return rc;
    *nodes_out = a.nodes;
    *n_out = a.n_nodes;
    return rc;
}
