/*
 * src/cli/cache-craysdb.c - `tokio cache-craysdb`: a Cray service
 * database processor table (connectors/craysdb, saved `xtdb2proc -f -`
 * output or JSON) as JSON, CSV or xtdb2proc text.
 *
 * The reference has no command for this connector; this one prints what
 * its CraySdbProc holds (json.dumps of it, sorted keys, indented by 4, as
 * the golden was made), its save_cache() text with --native, or a CSV
 * with one row per processor, on stdout or whole into -o.  Without an
 * input file it runs `xtdb2proc -f -` as the reference did.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/craysdb.h"
#include "tokio/input.h"
#include "tokio/output.h"

static const char *const usage[] = {
    "tokio cache-craysdb [--json | --csv | --native] [-o <file>] [<file>]",
    NULL
};

static const char description[] =
    "Print a Cray XT/XC processor table saved from `xtdb2proc -f -` (plain\n"
    "or compressed) or written by this command with --json: per processor\n"
    "its cabinet, cage, slot, status and network coordinates.  Without a\n"
    "file, runs `xtdb2proc -f -` (on a Cray system's SDB node).";

static int
write_csv(FILE *fp, void *db)
{
    return tokio_craysdb_write_csv(db, fp);
}

static int
write_native(FILE *fp, void *db)
{
    return tokio_craysdb_write_native(db, fp);
}

int
cmd_cache_craysdb(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL;
    int form = CLI_FORM_JSON;
    const struct cli_option opts[] = {
        OPT_SET_INT('j', "json", &form, CLI_FORM_JSON,
                    "JSON keyed by processor_id [default]"),
        OPT_SET_INT('c', "csv", &form, CLI_FORM_CSV,
                    "CSV, one row per processor"),
        OPT_SET_INT('n', "native", &form, CLI_FORM_NATIVE,
                    "xtdb2proc text (key=value,...)"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_craysdb *db = NULL;
    json_t *table = NULL;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos > 1)
        return cli_usage_error(cmd, "only one input file");
    if ((npos == 1 ? tokio_craysdb_open(&db, argv[1])
                   : tokio_craysdb_query(&db)) < 0)
        return cli_fail(cmd, NULL);
    if (form != CLI_FORM_JSON)
        rc = cli_write_output(cmd, output, form == CLI_FORM_CSV
                              ? write_csv : write_native, db);
    else if (tokio_craysdb_to_json(db, &table) < 0)
        rc = cli_fail(cmd, NULL);
    else    /* as the golden was made: json.dumps(sort_keys, indent=4) */
        rc = cli_write_json(cmd, output, table, TOKIO_JSON_SORT_KEYS |
                            TOKIO_JSON_SORT_INT_KEYS | TOKIO_JSON_INDENT(4));
    json_decref(table);
    tokio_craysdb_free(db);
    return rc;
}
