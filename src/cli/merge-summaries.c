/*
 * src/cli/merge-summaries.c - `tokio merge-summaries OUT PARTS...`: merge
 * the partial outputs of `summarize-darshanlogs --shard K/N -o PART` runs
 * into the one-line JSON one run over all the logs writes with -o
 * (tokio_darshan_summaries_merge()).  A log in two parts (overlapping
 * shards) or a part that is not such an output is refused, naming the
 * parts; OUT is replaced whole, under its lock.
 */
#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/output.h"
#include "tokio/tools/darshan_indexer.h"

static const char *const usage[] = {
    "tokio merge-summaries <out> <part>...",
    NULL
};

static const char description[] =
    "Merge the partial outputs of `tokio summarize-darshanlogs --shard\n"
    "K/N -o <part>` into <out>, replacing it: what one run over all the\n"
    "logs writes.";

static int
write_compact(FILE *fp, void *ctx)
{
    return tokio_json_write(ctx, fp, 0);
}

int
cmd_merge_summaries(int argc, char **argv)
{
    const char *cmd = argv[0];
    const struct cli_option opts[] = { OPT_END };
    json_t *all = NULL;
    int npos, lock = -1, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos < 2)
        return cli_usage_error(cmd, "an output and at least one part are "
                               "required");
    /* OUT replaced under its lock, as summarize-darshanlogs -i X -o X */
    if (tokio_output_lock(argv[1], &lock) < 0)
        return cli_fail(cmd, NULL);
    if (tokio_darshan_summaries_merge(&all, (const char *const *)argv + 2,
                                      (size_t)npos - 1) < 0)
        rc = cli_fail(cmd, NULL);
    else
        rc = cli_write_output(cmd, argv[1], write_compact, all);
    tokio_output_unlock(lock);
    json_decref(all);
    return rc;
}
