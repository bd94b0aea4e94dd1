/*
 * src/cli/archive-esnet-snmp.c - `tokio archive-esnet-snmp`: ESnet
 * router interface rates, from ESnet's SNMP REST API or a cache of them
 * (--input), into a TOKIO Time Series HDF5 file (the reference's
 * archive_esnet_snmp, with its options).  The work is
 * tokio_archive_esnet_snmp() (src/tools/archive_esnet_snmp.c).
 *
 * Differs from pytokio: --timeout is rounded up to whole seconds; no
 * "Initialized"/"Writing out" lines.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "tokio/config.h"
#include "tokio/connectors/esnet_snmp.h"
#include "tokio/time.h"
#include "tokio/tools/archive_esnet_snmp.h"

static const char *const usage[] = {
    "tokio archive-esnet-snmp [-i <file>] [-o <file>] [--init-start <time>] "
    "[--init-end <time>] [--timestep <s>] [--timeout <s>] <start> <end> "
    "<endpoints>",
    NULL
};

static const char description[] =
    "Archive the data rates of ESnet router interfaces between <start> and\n"
    "<end> (YYYY-MM-DDTHH:MM:SS, both included) from ESnet's SNMP REST API\n"
    "(the site configuration's esnet_snmp_url, or PYTOKIO_ESNET_SNMP_URI),\n"
    "or from a cache (-i), into the TOKIO Time Series HDF5 file -o (default\n"
    "output.hdf5), creating it, or its missing datasets, over\n"
    "--init-start..--init-end.  <endpoints> is a name of the site's\n"
    "esnet_snmp_interfaces (\"nersc\") or endpoint0:if0,endpoint1:if1,...";

int
cmd_archive_esnet_snmp(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *input = NULL, *output = "output.hdf5";
    const char *init_start_s = NULL, *init_end_s = NULL;
    long long timestep = 30;
    double timeout = 30.0;
    int debug = 0;
    const struct cli_option opts[] = {
        OPT_STRING('i', "input", &input, "<file>", "input cache db file"),
        OPT_STRING('o', "output", &output, "<file>",
                   "output file (default: output.hdf5)"),
        OPT_STRING(0, "init-start", &init_start_s, "<time>",
                   "first timestamp (inclusive) when creating new output "
                   "file (default: same as start)"),
        OPT_STRING(0, "init-end", &init_end_s, "<time>",
                   "final timestamp (exclusive) when creating new output "
                   "file (default: same as end)"),
        OPT_FLAG(0, "debug", &debug, "accepted for compatibility"),
        OPT_INT(0, "timestep", &timestep, "<s>",
                "collection frequency, in seconds (default: 30)"),
        OPT_DOUBLE(0, "timeout", &timeout, "<s>",
                   "connection timeout, in seconds (default: 30 sec)"),
        OPT_END
    };
    struct tokio_archive_esnet_snmp_options o = { 0 };
    struct tokio_config *cfg = NULL;
    json_t *interfaces = NULL;
    int npos, rc;

    (void)debug;
    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 3)
        return cli_usage_error(cmd, "expected <start> <end> <endpoints>");
    if (cli_archive_times(cmd, argv[1], argv[2], init_start_s, init_end_s,
                          timestep, &o.range) != 0)
        return CLI_EXIT_USAGE;
    if (!(timeout > 0 && timeout <= 86400))
        return cli_usage_error(cmd, "--timeout must be 0 to 86400 seconds");

    if (tokio_config_open(&cfg, NULL) < 0)
        return cli_fail(cmd, NULL);
    o.output = output;
    o.input = input;
    o.timeout = (long)ceil(timeout);
    o.stop = &cli_interrupted;
    if ((rc = tokio_esnet_snmp_interfaces(cfg, argv[3], &interfaces)) >= 0 &&
        (input != NULL || (rc = tokio_esnet_snmp_url(cfg, &o.url)) >= 0)) {
        o.interfaces = interfaces;
        cli_interrupt_catch();
        rc = tokio_archive_esnet_snmp(&o);
        cli_interrupt_release();
    }
    rc = rc < 0 ? cli_fail(cmd, NULL) : CLI_EXIT_OK;
    json_decref(interfaces);
    tokio_config_free(cfg);
    return rc;
}
