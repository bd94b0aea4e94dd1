/*
 * src/cli/cache-esnet-snmp.c - `tokio cache-esnet-snmp`: the data rates
 * of ESnet router interfaces from ESnet's SNMP REST API (at the site
 * configuration's esnet_snmp_url, or $PYTOKIO_ESNET_SNMP_URI), or from a
 * cache of them (--input), as JSON or CSV.  The reference's
 * cache_esnet_snmp, with its options.
 *
 * <endpoints> is a name of the site's esnet_snmp_interfaces ("nersc") or
 * "endpoint:interface[,endpoint:interface]..."; each interface is asked
 * for its "in" then "out" rates, averaged.  --start defaults to an hour
 * ago, --end to an hour after the start; neither filters --input, as in
 * the reference.  stdout gets the JSON indented by 4 with sorted keys,
 * or the CSV, each with a newline after it; -o writes the JSON on one
 * line in the order it came, or the CSV without that newline.
 *
 * Differs from pytokio: --timeout is rounded up to whole seconds; no
 * "Caching to" line.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "tokio/config.h"
#include "tokio/connectors/esnet_snmp.h"
#include "tokio/output.h"
#include "tokio/time.h"

static const char *const usage[] = {
    "tokio cache-esnet-snmp [-s <time>] [-e <time>] [-j | -c] "
    "[--timeout <s>] [-i <file>] [-o <file>] <endpoints>",
    NULL
};

static const char description[] =
    "Print the data rates of ESnet router interfaces from ESnet's SNMP\n"
    "REST API (the site configuration's esnet_snmp_url, or\n"
    "PYTOKIO_ESNET_SNMP_URI), or from a cache of them, as JSON or CSV.\n"
    "<endpoints> is a name of the site's esnet_snmp_interfaces (\"nersc\")\n"
    "or endpoint0:if0,endpoint1:if1,...; times are YYYY-MM-DDTHH:MM:SS.";

struct job {
    const struct tokio_esnet_snmp *e;
    int csv, to_file;
};

static int
write_result(FILE *fp, void *ctx)
{
    const struct job *job = ctx;
    json_t *j = NULL;
    int rc;

    if (job->csv) {
        rc = tokio_esnet_snmp_write_csv(job->e, fp, 0);
    } else {
        tokio_esnet_snmp_to_json(job->e, &j);
        rc = tokio_json_write(j, fp, job->to_file ? 0
                              : TOKIO_JSON_INDENT(4) | TOKIO_JSON_SORT_KEYS |
                                TOKIO_JSON_SORT_INT_KEYS);
        json_decref(j);
    }
    if (rc >= 0 && !job->to_file)
        fputc('\n', fp);
    return rc;
}

/* Ask for every interface's in and out rates. */
static int
query(struct tokio_esnet_snmp *e, const json_t *interfaces)
{
    const char *endpoint;
    json_t *list, *iface;
    size_t i;
    int rc = TOKIO_OK;

    json_object_foreach((json_t *)interfaces, endpoint, list)
        json_array_foreach(list, i, iface)
            for (int d = 0; d < 2 && rc >= 0; d++)
                rc = tokio_esnet_snmp_get(e, endpoint,
                                          json_string_value(iface),
                                          d ? "out" : "in", "average", 0,
                                          NULL);
    return rc;
}

int
cmd_cache_esnet_snmp(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *start_s = NULL, *end_s = NULL, *input = NULL, *output = NULL;
    int form = CLI_FORM_JSON;
    double timeout = 30.0;
    const struct cli_option opts[] = {
        OPT_STRING('s', "start", &start_s, "<time>",
                   "start time of query in YYYY-MM-DDTHH:MM:SS format"),
        OPT_STRING('e', "end", &end_s, "<time>",
                   "end time of query in YYYY-MM-DDTHH:MM:SS format"),
        OPT_SET_INT('j', "json", &form, CLI_FORM_JSON,
                    "return output in JSON format"),
        OPT_SET_INT('c', "csv", &form, CLI_FORM_CSV,
                    "return output in CSV format"),
        OPT_DOUBLE(0, "timeout", &timeout,
                   "<s>", "connection timeout, in seconds (default: 30 sec)"),
        OPT_FILE('i', "input", &input, "<file>",
                 "read input from this JSON instead of accessing REST API"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_config *cfg = NULL;
    struct tokio_esnet_snmp *e = NULL;
    json_t *interfaces = NULL;
    const char *url;
    int64_t start, end;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 1)
        return cli_usage_error(cmd, "expected one <endpoints> argument");
    if (end_s != NULL && start_s == NULL)
        return cli_usage_error(cmd, "--start must be specified with --end");
    if ((start_s && cli_time(cmd, "--start", start_s, NULL, &start) != 0) ||
        (end_s && cli_time(cmd, "--end", end_s, NULL, &end) != 0))
        return CLI_EXIT_USAGE;
    if (start_s == NULL)
        start = (int64_t)time(NULL) - 3600;
    if (end_s == NULL)
        end = start + 3600;
    if (cli_time_order(cmd, "--start", start, "--end", end) != 0)
        return CLI_EXIT_USAGE;
    if (!(timeout > 0 && timeout <= 86400))
        return cli_usage_error(cmd, "--timeout must be 0 to 86400 seconds");

    if (tokio_config_open(&cfg, NULL) < 0)
        return cli_fail(cmd, NULL);
    if ((rc = tokio_esnet_snmp_interfaces(cfg, argv[1], &interfaces)) < 0) {
        tokio_config_free(cfg);
        return cli_fail(cmd, NULL);
    }
    if (input != NULL) {
        rc = tokio_esnet_snmp_open(&e, input, start, end);
    } else if ((rc = tokio_esnet_snmp_url(cfg, &url)) >= 0 &&
               (rc = tokio_esnet_snmp_new(&e, start, end)) >= 0 &&
               (rc = tokio_esnet_snmp_connect(e, url, (long)ceil(timeout),
                                              &cli_interrupted)) >= 0) {
        cli_interrupt_catch();
        rc = query(e, interfaces);
        cli_interrupt_release();
    }
    if (rc < 0) {
        rc = cli_fail(cmd, NULL);
    } else {
        struct job job = { e, form == CLI_FORM_CSV, output != NULL };
        rc = cli_write_output(cmd, output, write_result, &job);
    }
    tokio_esnet_snmp_free(e);
    json_decref(interfaces);
    tokio_config_free(cfg);
    return rc;
}
