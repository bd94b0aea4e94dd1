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
 * Its man page (tokio-NAME.1) and bash completion are written from the
 * same usage, table and summary (src/cli/man.c, cmake/man.cmake).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

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
    { "merge-index", cmd_merge_index, "merge the partial Darshan indexes of index-darshanlogs --shard runs" },
    { "merge-summaries", cmd_merge_summaries, "merge the partial outputs of summarize-darshanlogs --shard runs" },
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
            "       tokio help --man [<command>]\n"
            "       tokio completion bash\n"
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

/*
 * tokio(1): what `tokio help` says, as a man page naming each command's
 * own page.
 */
static void
print_overview_man(FILE *fp)
{
    cli_man_head(fp, "tokio", "Total Knowledge of I/O: the I/O monitoring "
                 "data of an HPC site, connected");
    fputs(".SH SYNOPSIS\n"
          "\\fBtokio\\fR \\fI<command>\\fR [\\fI<options>\\fR] "
          "[\\fI<args>\\fR]\n.br\n"
          "\\fBtokio help\\fR [\\fB\\-\\-man\\fR] [\\fI<command>\\fR]\n"
          ".br\n"
          "\\fBtokio completion bash\\fR\n.br\n"
          "\\fBtokio \\-\\-version\\fR\n"
          ".SH DESCRIPTION\n"
          "tokio (Total Knowledge of I/O) connects the I/O monitoring data"
          " of an HPC site.  Each command has its page, listed below.\n"
          ".PP\n"
          "\\fBtokio help\\fR \\fI<command>\\fR, as"
          " \\fBtokio\\fR \\fI<command>\\fR \\fB\\-\\-help\\fR, shows a"
          " command\\(aqs options.  \\fBtokio help \\-\\-man\\fR"
          " \\fI<command>\\fR writes its man page in roff, from the same"
          " option table (\\fBtokio help \\-\\-man\\fR alone writes this"
          " one; read one with \\fBman \\-l \\-\\fR);"
          " \\fBtokio completion bash\\fR writes the bash completion"
          " of the commands and their options.  Both are installed with"
          " tokio.\n"
          ".SH COMMANDS\n", fp);
    for (size_t i = 0; i < N_COMMANDS; i++) {
        fputs(".TP\n\\fBtokio\\-", fp);
        cli_roff(fp, commands[i].name);
        fputs("\\fR(1)\n", fp);
        cli_roff(fp, commands[i].summary);
        fputc('\n', fp);
    }
    fputs(".SH EXIT STATUS\n"
          "0 on success, 1 when a command failed (the message names the"
          " input and what is wrong), 2 on a bad command line.\n", fp);
}

/*
 * `tokio help --man [<command>]` (the words after --man in argv): the
 * man page of a command, written by the command itself (its --help, in
 * roff), or tokio(1).
 */
static int
man_page(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(stderr, "tokio help: --man takes one command, or none\n"
                        "see 'tokio help'\n");
        return CLI_EXIT_USAGE;
    }
    if (argc == 0) {
        print_overview_man(stdout);
        return CLI_EXIT_OK;
    }
    const struct command *c = find_command(argv[0]);
    if (c == NULL)
        return unknown_command(argv[0]);
    char *help_argv[] = { (char *)c->name, "--help", NULL };
    cli_set_help_form(CLI_HELP_MAN, c->summary);
    return c->run(2, help_argv);
}

/*
 * `tokio completion bash`: a bash completion of the commands (the
 * reference's cache_darshan spelling too) and, after a command, of its
 * options, each command's written by the command itself (its --help as
 * words).  Other words fall back to bash's file names.
 */
static int
completion(int argc, char **argv)
{
    if (argc != 1 || strcmp(argv[0], "bash") != 0) {
        fprintf(stderr, "tokio completion: give the shell: bash\n"
                        "see 'tokio help'\n");
        return CLI_EXIT_USAGE;
    }
    printf("# bash completion of tokio %s, written by "
           "`tokio completion bash`\n"
           "_tokio()\n"
           "{\n"
           "    local cur=${COMP_WORDS[COMP_CWORD]} "
           "cmd=${COMP_WORDS[1]//_/-} words= c\n"
           "    local commands='", tokio_version());
    for (size_t i = 0; i < N_COMMANDS; i++)
        printf("%s%s", i ? " " : "", commands[i].name);
    printf("'\n"
           "    COMPREPLY=()\n"
           "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
           "        words=\"--help --version completion help $commands\"\n"
           "    elif [ \"$cmd\" = help ]; then\n"
           "        words=\"--man $commands\"\n"
           "    elif [ \"$cmd\" = completion ]; then\n"
           "        words=bash\n"
           "    elif [[ $cur == -* ]]; then\n"
           "        case $cmd in\n");
    for (size_t i = 0; i < N_COMMANDS; i++) {
        char *help_argv[] = { (char *)commands[i].name, "--help", NULL };
        int rc;

        printf("        %s) words='", commands[i].name);
        cli_set_help_form(CLI_HELP_WORDS, NULL);
        if ((rc = commands[i].run(2, help_argv)) != CLI_EXIT_OK)
            return rc;
        printf("' ;;\n");
    }
    printf("        esac\n"
           "    fi\n"
           "    for c in $(compgen -W \"$words\" -- \"$cur\"); do\n"
           "        COMPREPLY+=(\"$c\")\n"
           "    done\n"
           "    return 0\n"
           "}\n"
           "complete -o default -F _tokio tokio\n");
    return CLI_EXIT_OK;
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
        if (strcmp(argv[2], "--man") == 0)
            return man_page(argc - 3, argv + 3);
        const struct command *c = find_command(argv[2]);
        if (c == NULL)
            return unknown_command(argv[2]);
        char *help_argv[] = { (char *)c->name, "--help", NULL };
        return c->run(2, help_argv);
    }
    if (strcmp(name, "completion") == 0)
        return completion(argc - 2, argv + 2);
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

#if defined(__GLIBC__) && defined(M_TRIM_THRESHOLD)
    /* HDF5 deflates each chunk with zlib's compress2(), which allocates
     * and frees some 270 KB of state every time; glibc handed it back to
     * the kernel and faulted it in again chunk after chunk.  Keep up to
     * 32 MB of freed heap instead (the peak stays the same).  CPU and
     * minor faults: archive-collectdes --input (bench-collectdes.sh)
     * -15%, 27,400 -> 8,200; archive-lmtdb (4 h of bench-lmtdb.sh's
     * data) -9%, 27,962 -> 6,995; archive-mmperfmon (bench-mmperfmon.sh's
     * mini x10) -12%, 40,560 -> 39,191; archive-esnet-snmp (the pack's
     * sample, 10 ms) 1,975 -> 1,491 faults; cache-darshan,
     * darshan-bad-ost and cache-mmperfmon within the noise. */
    mallopt(M_TRIM_THRESHOLD, 32 << 20);
#endif
    /* an interrupted -o write leaves no temporary behind */
    tokio_output_cleanup_on_signals();
    return finish_stdout(name, dispatch(argc, argv));
}
