/*
 * src/cli/darshan-scoreboard.c - `tokio darshan-scoreboard`: the top
 * users, file systems and applications by I/O volume in Darshan index
 * databases (the reference's darshan_scoreboard).
 *
 * Options are the reference's.  -v/--verbose is accepted and does nothing
 * (the reference printed its SQL to stdout, in front of the results).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/output.h"
#include "tokio/tools/darshan_index.h"

static const char *const usage[] = {
    "tokio darshan-scoreboard [<options>] <indexfile>...",
    NULL
};

static const char description[] =
    "Show who and what moved the most data: the top users, file systems,\n"
    "applications and (user, application, file system) triples in index\n"
    "databases made by 'tokio index-darshanlogs'.  Filter values are\n"
    "comma-separated lists of SQL LIKE patterns ('%' matches anything);\n"
    "a file system is its mount point or its logical name.";

/* argparse's mutually exclusive groups: --limit-X and --exclude-X */
static int
exclusive(const char *cmd, const char *limit, const char *exclude,
          const char *what)
{
    if (limit != NULL && exclude != NULL)
        return cli_usage_error(cmd, "--limit-%s and --exclude-%s cannot be "
                               "used together", what, what);
    return 0;
}

int
cmd_darshan_scoreboard(int argc, char **argv)
{
    const char *cmd = argv[0];
    char *limit_user = NULL, *exclude_user = NULL;
    char *limit_fs = NULL, *exclude_fs = NULL;
    char *limit_exe = NULL, *exclude_exe = NULL;
    long long max_show = 10;
    int as_json = 0, verbose = 0;
    const struct cli_option opts[] = {
        OPT_FLAG(0, "json", &as_json, "output in JSON format"),
        OPT_INT(0, "max-show", &max_show, "<n>",
                "show the top <n> of each table (default: 10)"),
        OPT_STRING(0, "limit-fs", &limit_fs, "<fs>[,<fs>...]",
                   "only data on these file systems"),
        OPT_STRING(0, "exclude-fs", &exclude_fs, "<fs>[,<fs>...]",
                   "leave out data on these file systems"),
        OPT_STRING(0, "limit-user", &limit_user, "<user>[,<user>...]",
                   "only logs of these users"),
        OPT_STRING(0, "exclude-user", &exclude_user, "<user>[,<user>...]",
                   "leave out logs of these users"),
        OPT_STRING(0, "limit-exe", &limit_exe, "<exe>[,<exe>...]",
                   "only logs of these executables (base names)"),
        OPT_STRING(0, "exclude-exe", &exclude_exe, "<exe>[,<exe>...]",
                   "leave out logs of these executables"),
        OPT_FLAG('v', "verbose", &verbose,
                 "accepted for compatibility; does nothing"),
        OPT_END
    };
    struct cli_list lists[6] = { { NULL, 0 } };
    struct tokio_scoreboard_filters f;
    json_t *board = NULL;
    int n, rc;

    n = cli_parse(argc, argv, opts, usage, description);
    if (n < 0)
        return cli_parse_exit(n);
    if (n < 1)
        return cli_usage_error(cmd, "expected at least one <indexfile>");
    if ((rc = exclusive(cmd, limit_fs, exclude_fs, "fs")) != 0 ||
        (rc = exclusive(cmd, limit_user, exclude_user, "user")) != 0 ||
        (rc = exclusive(cmd, limit_exe, exclude_exe, "exe")) != 0)
        return rc;

    char *args[6] = { limit_user, exclude_user, limit_fs, exclude_fs,
                      limit_exe, exclude_exe };
    for (size_t i = 0; i < 6; i++)
        if (cli_split_commas(args[i], &lists[i]) < 0) {
            rc = cli_fail(cmd, "out of memory");
            goto done;
        }
    memset(&f, 0, sizeof(f));
    f.limit_user = lists[0].items;
    f.n_limit_user = lists[0].n;
    f.exclude_user = lists[1].items;
    f.n_exclude_user = lists[1].n;
    f.limit_fs = lists[2].items;
    f.n_limit_fs = lists[2].n;
    f.exclude_fs = lists[3].items;
    f.n_exclude_fs = lists[3].n;
    f.limit_exe = lists[4].items;
    f.n_limit_exe = lists[4].n;
    f.exclude_exe = lists[5].items;
    f.n_exclude_exe = lists[5].n;

    if (tokio_darshan_scoreboard(&board, (const char *const *)argv + 1,
                                 (size_t)n, &f) < 0) {
        rc = cli_fail(cmd, NULL);
        goto done;
    }
    if (as_json)
        rc = cli_write_json(cmd, NULL, board,
                            TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4));
    else if (tokio_darshan_scoreboard_write_text(stdout, board,
                                                 max_show) < 0)
        rc = cli_fail(cmd, NULL);
    else
        rc = CLI_EXIT_OK;
done:
    json_decref(board);
    for (size_t i = 0; i < 6; i++)
        free(lists[i].items);
    return rc;
}
