/*
 * src/cli/cache-topology.c - `tokio cache-topology`: a job's radius in a
 * Cray network (tools/topology) as the reference's cache_topology: JSON
 * {"job_avg_radius", "job_max_radius", "job_min_radius"}, or {} when the
 * job has no nodes or one that is not a Cray nid (with a warning, as the
 * reference warned).
 *
 * Options are the reference's: the job comes from --jobinfo-cache (a
 * Slurm cache, whose every task counts) or from a job id asked of sacct,
 * not both; --nodemap-cache is saved `xtdb2proc -f -` output, else
 * xtdb2proc is run, as the reference ran it.  Differs from pytokio:
 * -o writes the same JSON on one line (sorted keys) and prints no
 * "Caching to" line.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/output.h"
#include "tokio/tools/topology.h"

static const char *const usage[] = {
    "tokio cache-topology [--nodemap-cache <file>] "
    "(--jobinfo-cache <file> | <jobid>) [-o <file>]",
    NULL
};

static const char description[] =
    "Print how widely a job's nodes are spread over a Cray network: the\n"
    "smallest, largest and mean distance of a node from the centre of\n"
    "mass of the job's nodes (x/y/z coordinates from the node map).  The\n"
    "node list comes from a Slurm cache (every task in it) or from sacct\n"
    "for <jobid>.";

int
cmd_cache_topology(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *jobinfo = NULL, *nodemap = NULL, *output = NULL;
    const struct cli_option opts[] = {
        OPT_FILE(0, "jobinfo-cache", &jobinfo, "<file>",
                 "path to jobinfo (e.g., Slurm) cache file"),
        OPT_FILE(0, "nodemap-cache", &nodemap, "<file>",
                 "path to xtdb2proc cache file"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_job_diameter d;
    json_t *json = NULL;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos > 1)
        return cli_usage_error(cmd, "only one job id at a time");
    const char *jobid = npos == 1 ? argv[1] : NULL;
    /* the reference's mutually exclusive, required group */
    if (jobid != NULL && jobinfo != NULL)
        return cli_usage_error(cmd, "give --jobinfo-cache or a job id, not "
                               "both");
    if (jobid == NULL && jobinfo == NULL)
        return cli_usage_error(cmd, "--jobinfo-cache or a job id is "
                               "required");

    if (tokio_topology_get_job_diameter(&d, jobid, nodemap, jobinfo) < 0 ||
        tokio_topology_diameter_to_json(&d, &json) < 0)
        return cli_fail(cmd, NULL);
    if (d.n_nodes == 0) {
        if (d.bad_node[0] != '\0')
            fprintf(stderr, "tokio %s: warning: cannot place node '%s' of "
                    "job '%s'; printing {}\n", cmd, d.bad_node,
                    jobid ? jobid : jobinfo);
        else
            fprintf(stderr, "tokio %s: warning: job '%s' has no nodes; "
                    "printing {}\n", cmd, jobid ? jobid : jobinfo);
    }
    /* the reference: indented and sorted on stdout, one line to -o */
    rc = cli_write_json(cmd, output, json, output ? TOKIO_JSON_SORT_KEYS
                        : TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4));
    json_decref(json);
    return rc;
}
