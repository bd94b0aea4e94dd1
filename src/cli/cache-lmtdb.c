/*
 * src/cli/cache-lmtdb.c - `tokio cache-lmtdb`: copy a time range of an
 * LMT database (a MySQL/MariaDB server or an SQLite cache of one) into a
 * new SQLite cache file (the reference's cache_lmtdb).
 *
 * Every LMT table is copied; the time-indexed ones only for the TS_IDs
 * of [start, end].  The file is written whole or not at all, and dumps
 * (`sqlite3 FILE .dump`) the same as the reference's.
 *
 * Differs from pytokio: the password is read from PYTOKIO_LMT_PASSWORD
 * only (--password would show it to every user of the machine in ps);
 * --port and PYTOKIO_LMT_PORT are additions.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/connectors/lmtdb.h"
#include "tokio/time.h"

static const char *const usage[] = {
    "tokio cache-lmtdb [-i <cache-file>] [-o <file>] [-l <n>] "
    "[--host <host>] [--user <user>] [--database <db>] [--port <port>] "
    "<start> <end>",
    NULL
};

static const char description[] =
    "Copy the LMT data of <start>..<end> (YYYY-MM-DDTHH:MM:SS, local time)\n"
    "into a new SQLite cache file (-o; default lmtdb-N.sqlite).  The data\n"
    "come from the cache file given with -i, else from the MySQL server\n"
    "named by the options or by PYTOKIO_LMT_HOST, PYTOKIO_LMT_USER,\n"
    "PYTOKIO_LMT_DB and PYTOKIO_LMT_PORT; the password is read from\n"
    "PYTOKIO_LMT_PASSWORD only.";

int
cmd_cache_lmtdb(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *input = NULL, *output = NULL, *host = NULL, *user = NULL;
    const char *database = NULL, *password = NULL;
    long long limit = 0, port = 0;
    const struct cli_option opts[] = {
        OPT_STRING('i', "input", &input, "<cache-file>",
                   "read this SQLite cache instead of a server"),
        OPT_STRING('o', "output", &output, "<file>",
                   "the cache file to write (default lmtdb-N.sqlite)"),
        OPT_INT('l', "limit", &limit, "<n>",
                "at most <n> rows per table (mostly for testing)"),
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
    int64_t start, end;
    char name[64];
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (password != NULL)
        return cli_usage_error(cmd, "a password on the command line is "
                               "visible to every user; set "
                               "PYTOKIO_LMT_PASSWORD instead");
    if (npos != 2)
        return cli_usage_error(cmd, "expected <start> <end>");
    /* an end before the start is a bad command line (issue 17) */
    if (cli_time(cmd, "<start>", argv[1], NULL, &start) != 0 ||
        cli_time(cmd, "<end>", argv[2], NULL, &end) != 0 ||
        (end < start &&
         cli_time_order(cmd, "<start>", start, "<end>", end) != 0))
        return CLI_EXIT_USAGE;
    if (limit < 0)
        return cli_usage_error(cmd, "--limit must not be negative");
    if (port < 0 || port > 65535)
        return cli_usage_error(cmd, "--port must be a port number");
    if (tokio_cachingdb_remote_from_env(&remote, TOKIO_LMTDB_ENV_PREFIX) < 0)
        return cli_fail(cmd, NULL);
    tokio_cachingdb_remote_override(&remote, &(struct tokio_db_remote){
        .host = host, .user = user, .database = database,
        .port = (unsigned)port });

    if (output == NULL) {
        /* the reference's first free lmtdb-N.sqlite */
        for (unsigned i = 0;; i++) {
            snprintf(name, sizeof(name), "lmtdb-%u.sqlite", i);
            if (access(name, F_OK) != 0)
                break;
        }
        output = name;
    }
    if (tokio_lmtdb_open(&lmt, input, &remote) < 0)
        return cli_fail(cmd, NULL);
    if (tokio_lmtdb_retrieve_tables(lmt, start, end, limit) < 0) {
        rc = cli_fail(cmd, NULL);
    } else {
        printf("Caching to %s\n", output);
        fflush(stdout);
        rc = tokio_cachingdb_save_cache(tokio_lmtdb_db(lmt), output) < 0
             ? cli_fail(cmd, NULL) : CLI_EXIT_OK;
    }
    tokio_lmtdb_free(lmt);
    return rc;
}
