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
#include "cli/interrupt.h"
#include "tokio/config.h"
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
    const char *input = NULL, *output = "output.hdf5", *host = "localhost";
    const char *index = TOKIO_COLLECTD_ES_DEFAULT_INDEX;
    const char *init_start_s = NULL, *init_end_s = NULL;
    long long timestep = 10, timeout = TOKIO_ES_DEFAULT_TIMEOUT;
    long long port = TOKIO_ES_DEFAULT_PORT, nodes = 288, ssds = 4;
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
        OPT_INT(0, "timeout", &timeout, "<s>",
                "ElasticSearch timeout time (default: 30)"),
        OPT_INT(0, "threads", &threads, "<n>",
                "accepted for compatibility (default: 1)"),
        OPT_STRING(0, "input", &input, "<file>",
                   "use cached ElasticSearch json as input"),
        OPT_STRING('o', "output", &output, "<file>",
                   "output file (default: output.hdf5)"),
        OPT_STRING('h', "host", &host, "<host>",
                   "hostname of ElasticSearch endpoint (default: "
                   "localhost; https://<host> for TLS)"),
        OPT_INT('p', "port", &port, "<port>",
                "port of ElasticSearch endpoint (default: 9200)"),
        OPT_STRING('i', "index", &index, "<index>",
                   "ElasticSearch index to query (default: "
                   "cori-collectd-*)"),
        OPT_END
    };
    struct tokio_archive_collectdes_options o = { 0 };
    struct tokio_config *cfg = NULL;
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
    if (port < 1 || port > 65535)
        return cli_usage_error(cmd, "--port must be a port number");
    if (timeout < 1 || timeout > 86400)
        return cli_usage_error(cmd, "--timeout must be 1 to 86400 seconds");

    o.output = output;
    o.num_nodes = (long)nodes;
    o.ssds_per_node = (long)ssds;
    o.input = input;
    if (input == NULL) {
        struct tokio_es_options eo = {
            .host = host, .port = (long)port, .index = index,
            .timeout = (long)timeout, .stop = &cli_interrupted,
        };
        if (tokio_config_open(&cfg, NULL) < 0)
            return cli_fail(cmd, NULL);
        tokio_es_credentials(cfg, &eo.user, &eo.password);
        rc = tokio_es_open(&o.es, &eo);
        tokio_config_free(cfg);
        if (rc < 0)
            return cli_fail(cmd, NULL);
    }
    cli_interrupt_catch();
    rc = tokio_archive_collectdes(&o);
    tokio_es_free(o.es);
    cli_interrupt_release();
    return rc < 0 ? cli_fail(cmd, NULL) : CLI_EXIT_OK;
}
