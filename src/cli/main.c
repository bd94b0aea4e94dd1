/*
 * src/cli/main.c - the `tokio` command: the table of commands and the
 * dispatch.
 *
 * Adding a command:
 *   1. write src/cli/NAME.c with `int cmd_NAME(int argc, char **argv)`:
 *      a usage array, an option table, one cli_parse() call, argument
 *      checks (exit 2), calls into libtokio, output through cli_write_json()
 *      or the output/CSV helpers (exit 0, or 1 with the library's message);
 *   2. declare it in src/cli/commands.h;
 *   3. add its line to `commands[]` below, in alphabetical order, its
 *      function wrapped in HERE(), or IN_LIBARCHIVE() if the command
 *      reaches libarchive, or IN_FULL() if it reaches HDF5 or MariaDB
 *      (the test cli/executables_link_their_level fails otherwise);
 *   4. test it in tests/cli/test_NAME.c (found by CMake on its own);
 *   5. add its row to the command list in README.md.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/common.h"

/*
 * Three executables are built from this file, each linking the libraries
 * its commands need and no more: loading HDF5 (which brings curl, GnuTLS
 * and Kerberos) costs about 12 M instructions, libarchive 4.4 M and
 * MariaDB Connector/C 4.1 M, against 1.7 M for all of `tokio --help` and
 * 23 M for a whole `cache-darshan --total` of a 2,000-record log.
 *   tokio              (TOKIO_CLI_LEVEL 0) the light libraries only;
 *   tokio-libarchive   (TOKIO_CLI_LEVEL 1) and libarchive;
 *   tokio-full         (TOKIO_CLI_LEVEL 2) every command.
 * The table names each command's level: HERE() for the front's own,
 * IN_LIBARCHIVE() and IN_FULL() for the others.  An executable runs a
 * command above its level by exec'ing the one that has it, in place (same
 * process, same arguments).  cache-isdct and compare-isdct, mostly run on
 * saved JSON dumps, are the front's: the front links
 * src/cli/front/archive.c in place of libarchive's reader, which hands a
 * tarball over to tokio-libarchive (cli_exec_level()).
 */
#ifndef TOKIO_CLI_LEVEL
#define TOKIO_CLI_LEVEL 2
#endif
#define HERE(fn) fn, 0
#if TOKIO_CLI_LEVEL >= 1
#define IN_LIBARCHIVE(fn) fn, 1
#else
#define IN_LIBARCHIVE(fn) NULL, 1
#endif
#if TOKIO_CLI_LEVEL >= 2
#define IN_FULL(fn) fn, 2
#else
#define IN_FULL(fn) NULL, 2
#endif

struct command {
    const char *name;
    int (*run)(int argc, char **argv);  /* NULL: run by a higher level */
    int level;
    const char *summary;
};

static const struct command commands[] = {
    { "archive-lmtdb", IN_FULL(cmd_archive_lmtdb), "an LMT database's OST, OSS, MDS and metadata-op counters into a TTS HDF5 file" },
    { "archive-mmperfmon", IN_FULL(cmd_archive_mmperfmon), "GPFS mmperfmon outputs into a TTS HDF5 file, LUNs and servers typed by the site config" },
    { "cache-craysdb", HERE(cmd_cache_craysdb), "a Cray SDB processor table (xtdb2proc) as JSON, CSV or xtdb2proc text" },
    { "cache-darshan", HERE(cmd_cache_darshan), "a Darshan log as JSON: header, mounts, records, totals, performance" },
    { "cache-globuslogs", HERE(cmd_cache_globuslogs), "a Globus GridFTP server transfer log as JSON or CSV" },
    { "cache-hpss", HERE(cmd_cache_hpss), "an HPSS daily report, HSI/HTAR log or FTP/PFTP log as JSON or CSV" },
    { "cache-isdct", HERE(cmd_cache_isdct), "a NERSC ISDCT dump of SSD counters (tarball, folder or JSON) as JSON or CSV" },
    { "cache-lfsstatus", IN_FULL(cmd_cache_lfsstatus), "a Lustre file system's OST fullness or failed-over OSTs at a time, as JSON" },
    { "cache-lmtdb", IN_FULL(cmd_cache_lmtdb), "copy a time range of an LMT database into an SQLite cache file" },
    { "cache-mmperfmon", IN_LIBARCHIVE(cmd_cache_mmperfmon), "GPFS mmperfmon query outputs as JSON, or one host or metric over time as CSV" },
    { "cache-nersc-globuslogs", HERE(cmd_cache_nersc_globuslogs), "Globus transfers from a cache of NERSC's Elasticsearch pages as JSON or CSV" },
    { "cache-nersc-jobsdb", IN_FULL(cmd_cache_nersc_jobsdb), "cache the NERSC jobs database rows of jobs running in a window on a host" },
    { "cache-slurm", HERE(cmd_cache_slurm), "a Slurm job's tasks, times and nodes (sacct) as native text, JSON or CSV" },
    { "cache-topology", HERE(cmd_cache_topology), "a job's radius in a Cray network from its nodes and the xtdb2proc node map" },
    { "compare-isdct", HERE(cmd_compare_isdct), "changed SSD counters, added and removed drives between two ISDCT dumps" },
    { "config", HERE(cmd_config), "print the effective site configuration, or one key" },
    { "darshan-bad-ost", HERE(cmd_darshan_bad_ost), "correlate file performance with Lustre OSTs to find slow OSTs" },
    { "darshan-scoreboard", HERE(cmd_darshan_scoreboard), "rank users, file systems and applications by I/O volume" },
    { "export-tts", IN_FULL(cmd_export_tts), "one dataset of a TTS or H5LMT file, or of a file system over a time range, as CSV" },
    { "find-darshanlogs", HERE(cmd_find_darshanlogs), "list the Darshan logs of some days, user or job in the log repository" },
    { "index-darshanlogs", HERE(cmd_index_darshanlogs), "add Darshan logs to an SQLite index of bytes and operations per file system" },
    { "summarize-darshanlogs", HERE(cmd_summarize_darshanlogs), "bytes read and written per Darshan log and mount point, as JSON" },
    { "summarize-h5lmt", IN_FULL(cmd_summarize_h5lmt), "binned bytes, CPU loads and missing data of an H5LMT or TTS file" },
    { "summarize-tts", IN_FULL(cmd_summarize_tts), "bytes read and written in a TTS file, per timestep or column" },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void
print_overview(FILE *fp)
{
    fprintf(fp,
            "usage: tokio <command> [<options>] [<args>]\n"
            "       tokio help [<command>]\n"
            "       tokio --version\n"
            "\n"
            "tokio (Total Knowledge of I/O) connects the I/O monitoring data of"
            " an HPC site.\n"
            "\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(fp, "  %-24s %s\n", commands[i].name, commands[i].summary);
    fprintf(fp, "\nSee 'tokio <command> --help' for a command's options.\n");
}

static const struct command *
find_command(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    /* the reference's spelling (cache_darshan) is accepted too */
    char dashed[64];
    if (strlen(name) >= sizeof(dashed))
        return NULL;
    strcpy(dashed, name);
    for (char *p = dashed; *p; p++)
        if (*p == '_')
            *p = '-';
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, dashed) == 0)
            return &commands[i];
    return NULL;
}

#if TOKIO_CLI_LEVEL < 2
static const char *const level_executable[] = {
    "tokio", "tokio-libarchive", "tokio-full"
};

/* "DIR/EXE" into path; false when it does not fit */
static int
path_in(char *path, size_t size, const char *dir, size_t dir_len,
        const char *exe)
{
    size_t exe_len = strlen(exe);

    if (dir_len + 1 + exe_len + 1 > size)
        return 0;
    memcpy(path, dir, dir_len);
    path[dir_len] = '/';
    memcpy(path + dir_len + 1, exe, exe_len + 1);
    return 1;
}

/* The command line as given (option parsing reorders argv), for
 * cli_exec_level(); main_argv[0] NULL when it was too long to keep. */
#define MAIN_ARGV_MAX 256
static char *main_argv[MAIN_ARGV_MAX];

/*
 * Exec the executable of `level` with `argv`, its full path left in
 * `path`.  It is looked for in $TOKIO_EXEC_PATH when set (and only
 * there), else beside this executable (a build tree, or the libexec
 * folder itself), else in the libexec folder relative to it (an installed
 * tree, wherever it was moved), else in the libexec folder it was
 * installed with.  Returns only on failure, errno set.
 */
static void
exec_level(int level, char **argv, char *path)
{
    const char *exe = level_executable[level];
    const char *dir = getenv("TOKIO_EXEC_PATH");

    if (dir != NULL && dir[0] != '\0') {
        if (path_in(path, PATH_MAX, dir, strlen(dir), exe))
            execv(path, argv);
    } else {
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
        self[n > 0 ? n : 0] = '\0';
        char *slash = strrchr(self, '/');
        size_t len = slash != NULL ? (size_t)(slash - self) : 0;
        if (slash != NULL && path_in(path, PATH_MAX, self, len, exe) &&
            access(path, X_OK) == 0)
            execv(path, argv);
        if (slash != NULL &&
            len + 1 + strlen(TOKIO_LIBEXEC_FROM_BIN) < sizeof(self)) {
            snprintf(slash + 1, sizeof(self) - len - 1, "%s",
                     TOKIO_LIBEXEC_FROM_BIN);
            if (path_in(path, PATH_MAX, self, strlen(self), exe) &&
                access(path, X_OK) == 0)
                execv(path, argv);
        }
        path_in(path, PATH_MAX, TOKIO_LIBEXEC_DIR,
                strlen(TOKIO_LIBEXEC_DIR), exe);
        execv(path, argv);
    }
}

/* Command `c` run by the executable of its level; returns only on
 * failure. */
static int
run_elsewhere(const struct command *c, char **argv)
{
    char path[PATH_MAX] = "";

    exec_level(c->level, argv, path);
    fprintf(stderr, "tokio: %s is run by %s, which cannot be run: %s\n",
            c->name, path, strerror(errno));
    return CLI_EXIT_FAILURE;
}

void
cli_exec_level(int level)
{
    char path[PATH_MAX] = "";

    if (main_argv[0] != NULL && level > TOKIO_CLI_LEVEL && level <= 2)
        exec_level(level, main_argv, path);
    else
        errno = main_argv[0] == NULL ? E2BIG : EINVAL;
}
#endif

static int
unknown_command(const char *name)
{
    fprintf(stderr, "tokio: '%s' is not a tokio command\n"
                    "see 'tokio help' for the list of commands\n", name);
    return CLI_EXIT_USAGE;
}

static int
dispatch(int argc, char **argv)
{
    if (argc < 2) {
        print_overview(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[1];

    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("tokio %s\n", tokio_version());
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 ||
        strcmp(name, "-h") == 0) {
        if (argc < 3) {
            print_overview(stdout);
            return CLI_EXIT_OK;
        }
        const struct command *c = find_command(argv[2]);
        if (c == NULL)
            return unknown_command(argv[2]);
#if TOKIO_CLI_LEVEL < 2
        if (c->run == NULL)
            return run_elsewhere(c, argv);
#endif
        char *help_argv[] = { (char *)c->name, "--help", NULL };
        return c->run(2, help_argv);
    }
    if (name[0] == '-') {
        fprintf(stderr, "tokio: unknown option '%s'\n"
                        "see 'tokio help'\n", name);
        return CLI_EXIT_USAGE;
    }
    const struct command *c = find_command(name);
    if (c == NULL)
        return unknown_command(name);
    argv[1] = (char *)c->name;
#if TOKIO_CLI_LEVEL < 2
    if (c->run == NULL)
        return run_elsewhere(c, argv);
#endif
    return c->run(argc - 1, argv + 1);
}

/*
 * What is still in standard output's buffer is written at exit, where a
 * failure (a full disk) would go unreported: flushed here instead, and a
 * command that had succeeded fails, naming the cause.
 */
static int
finish_stdout(const char *name, int status)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return status;
    if (status != CLI_EXIT_OK)
        return status;              /* the command said what failed */
    fprintf(stderr, "tokio%s%s: error: writing to standard output: %s\n",
            name ? " " : "", name ? name : "", strerror(errno ? errno : EIO));
    return CLI_EXIT_FAILURE;
}

int
main(int argc, char **argv)
{
    const char *name = argc >= 2 && find_command(argv[1]) != NULL
                           ? argv[1] : NULL;

#if TOKIO_CLI_LEVEL < 2
    if (argc < MAIN_ARGV_MAX)
        memcpy(main_argv, argv, ((size_t)argc + 1) * sizeof(*argv));
#endif
    return finish_stdout(name, dispatch(argc, argv));
}
