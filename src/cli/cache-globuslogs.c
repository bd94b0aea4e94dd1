/*
 * src/cli/cache-globuslogs.c - `tokio cache-globuslogs`: a Globus GridFTP
 * server transfer log (connectors/globuslogs) as JSON or CSV.
 *
 * The reference has no command for this connector; this one prints what
 * its GlobusLog holds (json.dumps of GlobusLog.from_file(), sorted keys,
 * indented by 4, as the golden was made), or the CSV pandas writes of it,
 * on stdout or whole into -o.  The JSON it writes reads back as input.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/globuslogs.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio cache-globuslogs [--json | --csv] [-o <file>] <file>",
    NULL
};

static const char description[] =
    "Print the transfers of a Globus GridFTP server transfer log (plain or\n"
    "compressed, or JSON written by this command): one record per line of\n"
    "its KEY=VALUE pairs, DATE and START as epoch seconds, sizes as\n"
    "integers, DEST as a list.";

static int
write_csv(FILE *fp, void *ctx)
{
    return tokio_globuslogs_write_csv(ctx, fp);
}

int
cmd_cache_globuslogs(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL;
    int form = CLI_FORM_JSON;
    const struct cli_option opts[] = {
        OPT_SET_INT('j', "json", &form, CLI_FORM_JSON,
                    "JSON, a list of records [default]"),
        OPT_SET_INT('c', "csv", &form, CLI_FORM_CSV,
                    "CSV, one row per record"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_globuslogs *g = NULL;
    json_t *j = NULL;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 1)
        return cli_usage_error(cmd, npos == 0 ? "an input file is required"
                                              : "only one input file");
    if (tokio_globuslogs_open(&g, argv[1]) < 0)
        return cli_fail(cmd, NULL);
    if (form == CLI_FORM_JSON) {
        if (tokio_globuslogs_to_json(g, &j) < 0) {
            rc = cli_fail(cmd, NULL);
        } else {
            rc = cli_write_json(cmd, output, j, TOKIO_JSON_SORT_KEYS |
                                                TOKIO_JSON_INDENT(4));
            json_decref(j);
        }
    } else {
        rc = cli_write_output(cmd, output, write_csv, g);
    }
    tokio_globuslogs_free(g);
    return rc;
}
