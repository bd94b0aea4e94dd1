/*
 * src/cli/merge-index.c - `tokio merge-index OUT PARTS...`: merge the
 * partial indexes of `index-darshanlogs --shard K/N` runs (Slurm array
 * tasks, cron jobs) into the index one run over all the logs would have
 * written (tokio_darshan_index_merge()).  OUT is replaced whole; parts of
 * another schema, the same shard twice, shards of different counts or
 * two parts holding one log are refused, naming the parts.  Re-running a
 * shard updates its part; merging again replaces OUT.
 */
#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/tools/darshan_indexer.h"

static const char *const usage[] = {
    "tokio merge-index <out> <part>...",
    NULL
};

static const char description[] =
    "Merge the partial Darshan indexes that `tokio index-darshanlogs\n"
    "--shard K/N` wrote into <out>, replacing it: the same rows, numbered\n"
    "the same way, as one run over all the logs (listed by name) writes.";

int
cmd_merge_index(int argc, char **argv)
{
    const char *cmd = argv[0];
    const struct cli_option opts[] = { OPT_END };
    int npos;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos < 2)
        return cli_usage_error(cmd, "an output and at least one part are "
                               "required");
    if (tokio_darshan_index_merge(argv[1], (const char *const *)argv + 2,
                                  (size_t)npos - 1) < 0)
        return cli_fail(cmd, NULL);
    return CLI_EXIT_OK;
}
