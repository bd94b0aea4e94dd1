/*
 * src/cli/cache-lfsstatus.c - `tokio cache-lfsstatus`: how full a Lustre
 * file system was (--fullness), or how many OSTs were failed over
 * (--failure), at a time, as JSON (the reference's cache_lfsstatus).
 *
 * As in the reference, --fullness and --failure may take the history file
 * to read (`--fullness FILE fs time`); without it (`--fullness -- fs
 * time`, or just two arguments) the site configuration locates the files.
 * Differs from pytokio: -o writes the same JSON on one line (sorted keys)
 * and prints no "Caching to" line, as every tokio command.
 */
#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/config.h"
#include "tokio/output.h"
#include "tokio/time.h"
#include "tokio/tools/lfsstatus.h"

static const char *const usage[] = {
    "tokio cache-lfsstatus (--fullness | --failure) [<file>] [-o <file>] "
    "<filesystem> <datetime>",
    NULL
};

static const char description[] =
    "Summarize the OST fullness (--fullness) or the failed-over OSTs\n"
    "(--failure) of a Lustre file system at <datetime>\n"
    "(YYYY-MM-DDTHH:MM:SS, local time), from the NERSC 'BEGIN <epoch>'\n"
    "history of `lfs df` or `lctl dl -t`: the snapshot immediately\n"
    "preceding that time.  <file> is the history to read; without it the\n"
    "site configuration's lfsstatus_fullness_files or lfsstatus_map_files\n"
    "name it.  <filesystem> is a logical name (cscratch) or a Lustre one\n"
    "(snx11168).";

int
cmd_cache_lfsstatus(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL;
    int fullness = 0, failure = 0;
    const struct cli_option opts[] = {
        OPT_FLAG(0, "fullness", &fullness,
                 "summarize fullness of OSTs (lfs df history)"),
        OPT_FLAG(0, "failure", &failure,
                 "summarize failure state of OSSes and OSTs (ost map)"),
        OPT_OUTPUT(&output),
        OPT_END
    };
    struct tokio_config *cfg = NULL;
    json_t *json = NULL;
    int64_t when;
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (fullness + failure != 1)
        return cli_usage_error(cmd, "one of --fullness and --failure is "
                               "required");
    if (npos != 2 && npos != 3)
        return cli_usage_error(cmd, "expected [<file>] <filesystem> "
                               "<datetime>");
    const char *file = npos == 3 ? argv[1] : NULL;
    const char *fs = argv[npos - 1];
    const char *dt = argv[npos];
    if (cli_time(cmd, "<datetime>", dt, NULL, &when) != 0)
        return CLI_EXIT_USAGE;

    if (tokio_config_open(&cfg, NULL) < 0)
        return cli_fail(cmd, NULL);
    if ((fullness ? tokio_lfsstatus_get_fullness(&json, cfg, fs, when, file)
                  : tokio_lfsstatus_get_failures(&json, cfg, fs, when,
                                                 file)) < 0)
        rc = cli_fail(cmd, NULL);
    else
        rc = cli_write_json(cmd, output, json, output ? TOKIO_JSON_SORT_KEYS
                            : TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4));
    json_decref(json);
    tokio_config_free(cfg);
    return rc;
}
