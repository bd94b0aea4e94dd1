/*
 * src/cli/darshan-dxt.c - `tokio darshan-dxt`: the DXT traces of a
 * Darshan log as darshan-dxt-parser 3.5.0 prints them (with
 * --show-incomplete), byte for byte: one line per read or write segment,
 * POSIX segments annotated with the Lustre OSTs they touched.
 *
 * The log is read as it is printed (tokio_darshan_stream_dxt()): a trace
 * of gigabytes costs a few hundred KiB of memory.  pytokio had no such
 * command; it is here because darshan-dxt-parser needs the whole trace in
 * memory (darshan issues 779, 802).
 */
#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/darshan.h"

static const char *const usage[] = {
    "tokio darshan-dxt [-o <file>] <logfile>",
    NULL
};

static const char description[] =
    "Print the DXT_POSIX and DXT_MPIIO trace segments of a Darshan log as\n"
    "darshan-dxt-parser --show-incomplete does, reading the log as it\n"
    "prints (memory does not grow with the number of segments).";

static int
write_dxt(FILE *fp, void *ctx)
{
    /* a trace's text is gigabytes: 256 KiB writes, not st_blksize's */
    (void)setvbuf(fp, NULL, _IOFBF, 256u << 10);
    return tokio_darshan_stream_dxt(ctx, fp);
}

int
cmd_darshan_dxt(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = NULL;
    const struct cli_option opts[] = {
        OPT_OUTPUT(&output),
        OPT_END
    };
    int npos = cli_parse(argc, argv, opts, usage, description);

    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos != 1)
        return cli_usage_error(cmd, npos == 0 ? "a Darshan log is required"
                                              : "only one log at a time");
    return cli_write_output(cmd, output, write_dxt, argv[1]);
}
