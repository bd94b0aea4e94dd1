/*
 * src/cli/cache-hpss.c - `tokio cache-hpss`: an HPSS daily report, HSI/HTAR
 * log or FTP/PFTP log (connectors/hpss) as JSON or CSV.
 *
 * The reference has no command for these; this one prints what its
 * classes hold (json.dumps of HpssDailyReport, HsiLog.from_file() or
 * FtpLog.from_file(), sorted keys, indented by 4 as the goldens were
 * made), on stdout or whole into -o.  The kind is told by content unless
 * --daily, --hsi or --ftp says; the JSON it writes reads back as input.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/hpss.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio cache-hpss [--daily | --hsi | --ftp] [--json | --csv] "
    "[-o <file>] <file>",
    NULL
};

static const char description[] =
    "Print HPSS transfer records or daily report tables.  <file> is an\n"
    "HPSS daily report, an HSI/HTAR transaction log, an FTP/PFTP transfer\n"
    "log (plain or compressed), or JSON written by this command.  Logs\n"
    "give {\"hsi\"|\"htar\"|\"ftp\"|\"pftp\": [records]}, a report\n"
    "{system: {table: rows}}.  Times and rates printed with few decimals\n"
    "come with a FIELD_resolution: the smallest step the text could show.";

static int
write_csv(FILE *fp, void *hpss)
{
    return tokio_hpss_write_csv(hpss, fp);
}

int
cmd_cache_hpss(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL;
    int kind = TOKIO_HPSS_AUTO, form = CLI_FORM_JSON;
    const struct cli_option opts[] = {
        OPT_SET_INT(0, "daily", &kind, TOKIO_HPSS_DAILY,
                    "read a daily report (default: tell by content)"),
        OPT_SET_INT(0, "hsi", &kind, TOKIO_HPSS_HSI,
                    "read an HSI/HTAR transaction log"),
        OPT_SET_INT(0, "ftp", &kind, TOKIO_HPSS_FTP,
                    "read an FTP/PFTP transfer log"),
        OPT_SET_INT('j', "json", &form, CLI_FORM_JSON, "JSON [default]"),
        OPT_SET_INT('c', "csv", &form, CLI_FORM_CSV,
                    "CSV: a log's records, or a report's cells"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_hpss *h = NULL;
    json_t *tree = NULL;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 1)
        return cli_usage_error(cmd, npos == 0 ? "an input file is required"
                                              : "only one input file");
    if (tokio_hpss_open(&h, argv[1], (enum tokio_hpss_kind)kind) < 0)
        return cli_fail(cmd, NULL);
    if (form == CLI_FORM_CSV)
        rc = cli_write_output(cmd, output, write_csv, h);
    else if (tokio_hpss_to_json(h, &tree) < 0)
        rc = cli_fail(cmd, NULL);
    else    /* as the goldens were made: json.dumps(sort_keys, indent=4) */
        rc = cli_write_json(cmd, output, tree, TOKIO_JSON_SORT_KEYS |
                            TOKIO_JSON_INDENT(4));
    json_decref(tree);
    tokio_hpss_free(h);
    return rc;
}
