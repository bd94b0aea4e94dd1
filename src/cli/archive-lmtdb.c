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
    struct tokio_archive_range t;
    if (cli_archive_times(cmd, argv[1], argv[2], init_start_s, init_end_s,
                          timestep, &t) != 0)
        return CLI_EXIT_USAGE;
    if (port < 0 || port > 65535)
        return cli_usage_error(cmd, "--port must be a port number");
    if (tokio_cachingdb_remote_from_env(&remote, TOKIO_LMTDB_ENV_PREFIX) < 0)
        return cli_fail(cmd, NULL);
    tokio_cachingdb_remote_override(&remote, &(struct tokio_db_remote){
        .host = host, .user = user, .database = database,
        .port = (unsigned)port });

    if (tokio_lmtdb_open(&lmt, input, &remote) < 0)
        return cli_fail(cmd, NULL);
    rc = tokio_archive_lmtdb(lmt, output, &t);
    rc = rc < 0 ? cli_fail(cmd, NULL) : CLI_EXIT_OK;
    tokio_lmtdb_free(lmt);
    return rc;
}
