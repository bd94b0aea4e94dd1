/*
 * src/cli/archive-lmtdb.c - `tokio archive-lmtdb`: LMT database (server or
 * SQLite cache) -> TOKIO Time Series HDF5 (the reference's archive_lmtdb),
 * by tokio_archive_lmtdb() (src/tools/archive_lmtdb.c).
 *
 * Differs from pytokio: the password comes from PYTOKIO_LMT_PASSWORD only;
 * no "Initialized"/"Writing out" chatter; --port is an addition.
 */
#include <stdint.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/connectors/lmtdb.h"
#include "tokio/time.h"
#include "tokio/tools/archive_lmtdb.h"

static const char *const usage[] = {
    "tokio archive-lmtdb [-i <cache-file>] [-o <file>] [--init-start <time>] "
    "[--init-end <time>] [--timestep <s>] [--host <host>] [--user <user>] "
    "[--database <db>] [--port <port>] <start> <end>",
    NULL
};

static const char description[] =
    "Archive the LMT data of <start>..<end> (YYYY-MM-DDTHH:MM:SS, local\n"
    "time) into the TOKIO Time Series HDF5 file -o (default output.hdf5),\n"
    "creating it, or its missing datasets, over --init-start..--init-end.\n"
    "The data come from the SQLite cache given with -i, else from the MySQL\n"
    "server named by the options or PYTOKIO_LMT_HOST, PYTOKIO_LMT_USER,\n"
    "PYTOKIO_LMT_DB and PYTOKIO_LMT_PORT (password: PYTOKIO_LMT_PASSWORD).";

static int
parse_time(const char *cmd, const char *text, int64_t *out)
{
    if (tokio_time_parse_format(text, "%Y-%m-%dT%H:%M:%S", out) < 0) {
        cli_usage_error(cmd, "'%s': times must be YYYY-MM-DDTHH:MM:SS", text);
        return -1;
    }
    return 0;
}

int
cmd_archive_lmtdb(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *input = NULL, *output = "output.hdf5", *host = NULL;
    const char *user = NULL, *database = NULL, *password = NULL;
    const char *init_start_s = NULL, *init_end_s = NULL;
    long long timestep = 5, port = 0;
    int debug = 0;
    const struct cli_option opts[] = {
        OPT_STRING('i', "input", &input, "<cache-file>",
                   "read this SQLite cache instead of a server"),
        OPT_STRING('o', "output", &output, "<file>",
                   "the HDF5 file to create or update (default output.hdf5)"),
        OPT_STRING(0, "init-start", &init_start_s, "<time>",
                   "first timestamp of a new file (default: <start>)"),
        OPT_STRING(0, "init-end", &init_end_s, "<time>",
                   "end (exclusive) of a new file (default: <end>)"),
        OPT_INT(0, "timestep", &timestep, "<s>",
                "collection frequency in seconds (default 5)"),
        OPT_FLAG(0, "debug", &debug, "accepted for compatibility"),
        OPT_STRING(0, "host", &host, "<host>", "database host name"),
        OPT_STRING(0, "user", &user, "<user>", "database user"),
        OPT_STRING(0, "database", &database, "<db>", "database name"),
        OPT_INT(0, "port", &port, "<port>", "database port (default 3306)"),
        OPT_STRING(0, "password", &password, "<password>",
                   "refused: set PYTOKIO_LMT_PASSWORD instead"),
        OPT_END
    };
    struct tokio_db_remote remote;
    struct tokio_lmtdb *lmt = NULL;
    int64_t start, end, init_start, init_end;
    int npos, rc;

    (void)debug;
    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (password != NULL)
        return cli_usage_error(cmd, "a password on the command line is "
                               "visible to every user; set "
                               "PYTOKIO_LMT_PASSWORD instead");
    if (npos != 2)
        return cli_usage_error(cmd, "expected <start> <end>");
    if (parse_time(cmd, argv[1], &start) < 0 ||
        parse_time(cmd, argv[2], &end) < 0)
        return CLI_EXIT_USAGE;
    init_start = start;
    init_end = end;
    if ((init_start_s && parse_time(cmd, init_start_s, &init_start) < 0) ||
        (init_end_s && parse_time(cmd, init_end_s, &init_end) < 0))
        return CLI_EXIT_USAGE;
    if (start >= end)
        return cli_usage_error(cmd, "<start> must come before <end>");
    if (init_start >= init_end)
        return cli_usage_error(cmd, "--init-start must come before "
                               "--init-end");
    if (timestep < 1 || timestep > 86400 * 366)
        return cli_usage_error(cmd, "--timestep must be > 0");
    /* a runaway range (1900 to 2200) is refused before any work: the
     * range lies within the span of a new file, which is bounded */
    if (start < init_start || end > init_end)
        return cli_usage_error(cmd, "<start>..<end> must lie within "
                               "--init-start..--init-end");
    uint64_t span = (uint64_t)init_end - (uint64_t)init_start;
    if (span / (uint64_t)timestep + (span % (uint64_t)timestep != 0)
        > TOKIO_HDF5_MAX_ROWS)
        return cli_usage_error(cmd, "--init-start..--init-end spans more "
                               "than the %zu rows of %lld s a file may "
                               "hold", TOKIO_HDF5_MAX_ROWS, timestep);
    if (port < 0 || port > 65535)
        return cli_usage_error(cmd, "--port must be a port number");
    if (tokio_cachingdb_remote_from_env(&remote, TOKIO_LMTDB_ENV_PREFIX) < 0)
        return cli_fail(cmd, NULL);
    tokio_cachingdb_remote_override(&remote, &(struct tokio_db_remote){
        .host = host, .user = user, .database = database,
        .port = (unsigned)port });

    if (tokio_lmtdb_open(&lmt, input, &remote) < 0)
        return cli_fail(cmd, NULL);
    rc = tokio_archive_lmtdb(lmt, output, &(struct tokio_archive_lmtdb_range){
        .start = start, .end = end, .init_start = init_start,
        .init_end = init_end, .timestep = timestep });
    rc = rc < 0 ? cli_fail(cmd, NULL) : CLI_EXIT_OK;
    tokio_lmtdb_free(lmt);
    return rc;
}
