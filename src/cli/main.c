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
 *   3. add its line to `commands[]` below, in alphabetical order;
 *   4. test it in tests/cli/test_NAME.c (found by CMake on its own);
 *   5. add its row to the command list in README.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/common.h"
#include "tokio/output.h"

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    { "archive-collectdes", cmd_archive_collectdes, "collectd burst-buffer metrics (Elasticsearch or a cache of its pages) into a TTS HDF5 file" },
    { "archive-esnet-snmp", cmd_archive_esnet_snmp, "ESnet router interface rates (API or cache) into a TTS HDF5 file" },
    { "archive-lmtdb", cmd_archive_lmtdb, "an LMT database's OST, OSS, MDS and metadata-op counters into a TTS HDF5 file" },
    { "archive-mmperfmon", cmd_archive_mmperfmon, "GPFS mmperfmon outputs into a TTS HDF5 file, LUNs and servers typed by the site config" },
    { "cache-collectdes", cmd_cache_collectdes, "collectd cpu, disk and memory metrics from Elasticsearch (or a cache of its pages) as JSON or CSV" },
    { "cache-craysdb", cmd_cache_craysdb, "a Cray SDB processor table (xtdb2proc) as JSON, CSV or xtdb2proc text" },
    { "cache-darshan", cmd_cache_darshan, "a Darshan log as JSON: header, mounts, records, totals, performance" },
    { "cache-esnet-snmp", cmd_cache_esnet_snmp, "ESnet router interface data rates from ESnet's SNMP REST API (or a cache) as JSON or CSV" },
    { "cache-globuslogs", cmd_cache_globuslogs, "a Globus GridFTP server transfer log as JSON or CSV" },
    { "cache-hpss", cmd_cache_hpss, "an HPSS daily report, HSI/HTAR log or FTP/PFTP log as JSON or CSV" },
    { "cache-isdct", cmd_cache_isdct, "a NERSC ISDCT dump of SSD counters (tarball, folder or JSON) as JSON or CSV" },
    { "cache-lfsstatus", cmd_cache_lfsstatus, "a Lustre file system's OST fullness or failed-over OSTs at a time, as JSON" },
    { "cache-lmtdb", cmd_cache_lmtdb, "copy a time range of an LMT database into an SQLite cache file" },
    { "cache-mmperfmon", cmd_cache_mmperfmon, "GPFS mmperfmon query outputs as JSON, or one host or metric over time as CSV" },
    { "cache-nersc-globuslogs", cmd_cache_nersc_globuslogs, "Globus transfers from a cache of NERSC's Elasticsearch pages as JSON or CSV" },
    { "cache-nersc-jobsdb", cmd_cache_nersc_jobsdb, "cache the NERSC jobs database rows of jobs running in a window on a host" },
    { "cache-slurm", cmd_cache_slurm, "a Slurm job's tasks, times and nodes (sacct) as native text, JSON or CSV" },
    { "cache-topology", cmd_cache_topology, "a job's radius in a Cray network from its nodes and the xtdb2proc node map" },
    { "compare-isdct", cmd_compare_isdct, "changed SSD counters, added and removed drives between two ISDCT dumps" },
    { "config", cmd_config, "print the effective site configuration, or one key" },
    { "darshan-bad-ost", cmd_darshan_bad_ost, "correlate file performance with Lustre OSTs to find slow OSTs" },
    { "darshan-dxt", cmd_darshan_dxt, "the DXT trace segments of a Darshan log, as darshan-dxt-parser prints them, in bounded memory" },
    { "darshan-scoreboard", cmd_darshan_scoreboard, "rank users, file systems and applications by I/O volume" },
    { "export-tts", cmd_export_tts, "one dataset of a TTS or H5LMT file, or of a file system over a time range, as CSV" },
    { "find-darshanlogs", cmd_find_darshanlogs, "list the Darshan logs of some days, user or job in the log repository" },
    { "index-darshanlogs", cmd_index_darshanlogs, "add Darshan logs to an SQLite index of bytes and operations per file system" },
    { "insights", cmd_insights, "what went wrong in a job's I/O and why: rules over its Darshan log and the site's data" },
    { "report", cmd_report, "one self-contained HTML page per job: its I/O, the file system around it, UMAMI" },
    { "summarize-darshanlogs", cmd_summarize_darshanlogs, "bytes read and written per Darshan log and mount point, as JSON" },
    { "summarize-h5lmt", cmd_summarize_h5lmt, "binned bytes, CPU loads and missing data of an H5LMT or TTS file" },
    { "summarize-job", cmd_summarize_job, "one job from every source: Darshan, the file system's data over its window, topology, OSTs, concurrent jobs" },
    { "summarize-tts", cmd_summarize_tts, "bytes read and written in a TTS file, per timestep or column" },
    { "umami", cmd_umami, "an UMAMI diagram of a history of runs (PNG, SVG, PDF) or its numbers" },
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

    /* an interrupted -o write leaves no temporary behind */
    tokio_output_cleanup_on_signals();    return finish_stdout(name, dispatch(argc, argv));
}
