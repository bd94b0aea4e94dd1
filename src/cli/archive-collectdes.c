/*
 * src/cli/archive-collectdes.c - `tokio archive-collectdes`: collectd's
 * cpu, disk and memory metrics of burst-buffer nodes, from Elasticsearch
 * or a cache of its pages (--input), into a TOKIO Time Series HDF5 file
 * (the reference's archive_collectdes, with its options).  The work is
 * tokio_archive_collectdes() (src/tools/archive_collectdes.c).
 *
 * Basic auth: PYTOKIO_ES_USER and PYTOKIO_ES_PASSWORD (the reference's),
 * or the site configuration's es_user and es_password.  Differs from
 * pytokio: --threads is accepted and has nothing to do; --host may be a
 * URL ("https://es.example.org") to use TLS; no "Wrote output" line.
 */
#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/elasticsearch.h"
#include "cli/interrupt.h"
#include "tokio/connectors/collectd_es.h"
#include "tokio/connectors/es.h"
#include "tokio/time.h"
#include "tokio/tools/archive_collectdes.h"

static const char *const usage[] = {
    "tokio archive-collectdes [--input <file>] [-h <host>] [-p <port>] "
    "[-i <index>] [--timeout <s>] [-o <file>] [--init-start <time>] "
    "[--init-end <time>] [--timestep <s>] [--num-nodes <n>] "
    "[--ssds-per-node <n>] <start> <end>",
    NULL
};

static const char description[] =
    "Archive collectd's cpu, disk and memory metrics of burst-buffer nodes\n"
    "between <start> and <end> (YYYY-MM-DDTHH:MM:SS) from Elasticsearch,\n"
    "or from a cache of a query's pages (--input), into the TOKIO Time\n"
    "Series HDF5 file -o (default output.hdf5), creating it, or its\n"
    "missing datasets, over --init-start..--init-end.";

int
cmd_archive_collectdes(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *input = NULL, *output = "output.hdf5";
    struct cli_es server = CLI_ES_DEFAULTS(TOKIO_COLLECTD_ES_DEFAULT_INDEX);
    const char *init_start_s = NULL, *init_end_s = NULL;
    long long timestep = 10, nodes = 288, ssds = 4;
    long long threads = 1;
    int debug = 0;
    const struct cli_option opts[] = {
        OPT_STRING(0, "init-start", &init_start_s, "<time>",
                   "min timestamp if creating new output file (default: "
                   "same as start)"),
        OPT_STRING(0, "init-end", &init_end_s, "<time>",
                   "max timestamp if creating new output file (default: "
                   "same as end)"),
        OPT_FLAG(0, "debug", &debug, "accepted for compatibility"),
        OPT_INT(0, "num-nodes", &nodes, "<n>",
                "number of expected burst buffer nodes (default: 288)"),
        OPT_INT(0, "ssds-per-node", &ssds, "<n>",
                "number of SSDs in each BB node (default: 4)"),
        OPT_INT(0, "timestep", &timestep, "<s>",
                "collection frequency, in seconds (default: 10)"),
        OPT_ES_TIMEOUT(&server),
        OPT_INT(0, "threads", &threads, "<n>",
                "accepted for compatibility (default: 1)"),
        OPT_STRING(0, "input", &input, "<file>",
                   "use cached ElasticSearch json as input"),
        OPT_STRING('o', "output", &output, "<file>",
                   "output file (default: output.hdf5)"),
        OPT_ES_SERVER(&server, TOKIO_COLLECTD_ES_DEFAULT_INDEX),
        OPT_END
    };
    struct tokio_archive_collectdes_options o = { 0 };
    int npos, rc;

    (void)debug;
    (void)threads;
    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 2)
        return cli_usage_error(cmd, "expected <start> <end>");
    if (cli_archive_times(cmd, argv[1], argv[2], init_start_s, init_end_s,
                          timestep, &o.range) != 0)
        return CLI_EXIT_USAGE;
    if (nodes < 1 || nodes > 1000000 || ssds < 1 || ssds > 1000)
        return cli_usage_error(cmd, "--num-nodes and --ssds-per-node must be "
                               "positive and sane");
    if (cli_es_check(cmd, &server) != 0)
        return CLI_EXIT_USAGE;

    o.output = output;
    o.num_nodes = (long)nodes;
    o.ssds_per_node = (long)ssds;
    o.input = input;
    if (input == NULL && cli_es_open(&o.es, &server) < 0)
        return cli_fail(cmd, NULL);
    cli_interrupt_catch();
    rc = tokio_archive_collectdes(&o);
    tokio_es_free(o.es);
    cli_interrupt_release();
    return rc < 0 ? cli_fail(cmd, NULL) : CLI_EXIT_OK;
}
