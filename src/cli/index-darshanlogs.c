/*
 * src/cli/index-darshanlogs.c - `tokio index-darshanlogs`: add Darshan
 * logs to an SQLite index of their headers and per-file-system summaries
 * (the reference's index_darshanlogs; the schema and rules are in
 * src/tools/darshan_indexer.c).
 *
 * Options are the reference's.  As there, a log that cannot be read or
 * holds nothing to index is reported on stderr (unless --quiet) and
 * skipped, and the exit status stays 0; only a failure of the index
 * itself (cannot create or write it, a bad mount_to_fsname in the site
 * configuration) exits 1.  Differs from pytokio: -v reports everything
 * the reference's -v and -vv did, after the run (the library does the
 * whole run in one call), and never echoes SQL; a progress bar goes to
 * stderr when it is a terminal.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli/cli.h"
#include "cli/commands.h"
#include "tokio/config.h"
#include "tokio/tools/darshan_indexer.h"

static const char *const usage[] = {
    "tokio index-darshanlogs [<options>] <log>...",
    "tokio index-darshanlogs [<options>] <folder>",
    NULL
};

static const char description[] =
    "Add Darshan logs to an SQLite index (tables headers, mounts and\n"
    "summaries) of bytes and operations per log and file system.  Logs\n"
    "already in the index are skipped, so a run can be repeated or\n"
    "resumed.  One folder argument stands for the files in it.  Mount\n"
    "points are named by the site configuration's mount_to_fsname.";

struct ui {
    const char *cmd;
    int quiet;
    int bar;                    /* stderr is a terminal */
    int bar_shown;
    double last;
};

static double
now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
clear_bar(struct ui *ui)
{
    if (ui->bar_shown) {
        fputs("\r\033[K", stderr);
        ui->bar_shown = 0;
    }
}

static void
on_warn(void *arg, const char *path, const char *why)
{
    struct ui *ui = arg;

    size_t n = strlen(path);

    if (ui->quiet)
        return;
    clear_bar(ui);
    /* the reader's messages start with the quoted path: say it once */
    if (why[0] == '\'' && strncmp(why + 1, path, n) == 0 &&
        strncmp(why + 1 + n, "': ", 3) == 0)
        why += n + 4;
    fprintf(stderr, "tokio %s: warning: skipping '%s': %s\n", ui->cmd, path,
            why);
}

static void
on_progress(void *arg, size_t done, size_t total)
{
    struct ui *ui = arg;
    double t = now();
    const int width = 40;

    /* ten updates a second are plenty, and the last one always shows */
    if (!ui->bar || (done < total && t - ui->last < 0.1))
        return;
    ui->last = t;
    int fill = total ? (int)((double)done / (double)total * width) : width;
    fprintf(stderr, "\r[%.*s%*s] %zu/%zu logs", fill,
            "########################################", width - fill, "",
            done, total);
    ui->bar_shown = 1;
    fflush(stderr);
}

int
cmd_index_darshanlogs(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = "darshanlogs.db";
    long long threads = 1;
    double max_mb = 0.0;
    int verbose = 0, quiet = 0, no_bulk = 0;
    const struct cli_option opts[] = {
        OPT_INT('t', "threads", &threads, "<n>",
                "parse logs with <n> threads (default: 1)"),
        OPT_STRING('o', "output", &output, "<file>",
                   "the index to create or update (default: "
                   "darshanlogs.db)"),
        OPT_DOUBLE('m', "max-mb", &max_mb, "<MiB>",
                   "parse logs of at least this size one at a time, "
                   "without file counts (default: 0, never)"),
        OPT_FLAG('v', "verbose", &verbose, "report counts and times"),
        OPT_FLAG('q', "quiet", &quiet,
                 "do not warn about logs that cannot be indexed"),
        OPT_FLAG(0, "no-bulk-insert", &no_bulk,
                 "commit each log as soon as it is parsed"),
        OPT_END
    };
    struct tokio_config *cfg = NULL;
    struct tokio_darshan_index_stats st;
    struct ui ui = { 0 };
    int npos, rc;

    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos == 0)
        return cli_usage_error(cmd, "no Darshan logs given");
    if (threads < 1 || threads > 1024)
        return cli_usage_error(cmd, "--threads must be from 1 to 1024");
    if (!(max_mb >= 0.0))
        return cli_usage_error(cmd, "--max-mb must be 0 or more");

    if (tokio_config_open(&cfg, NULL) < 0)
        return cli_fail(cmd, NULL);
#ifdef __GLIBC__
    /* Every log allocates and frees the same few MiB.  By default glibc
     * hands them back to the kernel each time (large blocks are mapped
     * and unmapped, a thread's heap is trimmed) and faults them in again:
     * a third of the CPU time on 500 KiB logs went to the kernel.  Keep
     * them: the peak is what it was, it just stays. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
    ui.cmd = cmd;
    ui.quiet = quiet;
    ui.bar = !quiet && isatty(STDERR_FILENO);
    struct tokio_darshan_index_opts o = {
        .threads = (unsigned)threads,
        .max_mb = max_mb,
        .no_bulk_insert = no_bulk,
        .warn = on_warn,
        .progress = on_progress,
        .arg = &ui,
    };
    double t0 = now();
    rc = tokio_darshan_index(output, (const char *const *)argv + 1,
                             (size_t)npos, cfg, &o, &st);
    clear_bar(&ui);
    tokio_config_free(cfg);
    if (rc < 0)
        return cli_fail(cmd, NULL);
    if (verbose) {
        printf("%zu log files already found in database\n",
               st.n_existing_in_db);
        printf("Adding %zu new logs\n",
               st.n_inputs - st.n_existing - st.n_duplicates);
        printf("Excluding %zu existing logs\n", st.n_existing);
        if (st.n_duplicates)
            printf("Excluding %zu logs named twice\n", st.n_duplicates);
        printf("Ingested %zu logs in %.1f seconds\n", st.n_indexed,
               now() - t0);
        printf("Updated %s\n", output);
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        return cli_fail(cmd, "cannot write to standard output");
    return CLI_EXIT_OK;
}
