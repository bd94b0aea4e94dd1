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
 * configuration) exits 1, and so does a run where no log given could be
 * read at all (each named, even with --quiet).  Differs from pytokio:
 * -v reports everything the reference's -v and -vv did, after the run
 * (the library does the whole run in one call), and never echoes SQL; a progress line goes to
 * stderr when it is a terminal.  --shard K/N indexes one shard's share
 * into a part that `tokio merge-index` merges with the others.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/held.h"
#include "cli/progress.h"
#include "cli/shard.h"
#include "tokio/config.h"
#include "tokio/tools/darshan_indexer.h"

#ifdef TOKIO_HAVE_MPI
/* src/cli/mpi/mpi_run.c: run under mpirun (rank 0 hands out batches) */
#include "cli/mpi/mpi_run.h"
#endif

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
    struct cli_progress bar;
    struct cli_held held;       /* unreadable logs while none was read */
    size_t n_unreadable;
};

static void
on_warn(void *arg, const char *path, const char *why, int unreadable)
{
    struct ui *ui = arg;
    size_t n = strlen(path);

    /* the reader's messages start with the quoted path: say it once */
    if (why[0] == '\'' && strncmp(why + 1, path, n) == 0 &&
        strncmp(why + 1 + n, "': ", 3) == 0)
        why += n + 4;
    /* a log skipped for another reason could be read */
    if (unreadable)
        ui->n_unreadable++;
    else
        cli_held_read(&ui->held);
    cli_held_skip(&ui->held, "'%s': %s", path, why);
}

static void
on_skip(void *arg, const char *path, const char *why)
{
    on_warn(arg, path, why, 0);
}

static void
on_unreadable(void *arg, const char *path, const char *why)
{
    on_warn(arg, path, why, 1);
}

static void
on_progress(void *arg, size_t done, size_t total)
{
    struct ui *ui = arg;

    /* more done than unreadable: one was read, or already indexed */
    if (done > ui->n_unreadable)
        cli_held_read(&ui->held);
    cli_progress_update(&ui->bar, done, total, 0);
}

static double
now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
cmd_index_darshanlogs(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *output = "darshanlogs.db";
    long long threads = 1;
    double max_mb = 0.0;
    int verbose = 0, quiet = 0, no_bulk = 0;
    const char *shard = NULL;
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
        OPT_STRING(0, "shard", &shard, "<K/N>", CLI_SHARD_HELP
                   " (tokio merge-index)"),
        OPT_END
    };
    struct tokio_config *cfg = NULL;
    struct tokio_darshan_index_stats st;
    struct ui ui = { 0 };
    int npos, rc;

#ifdef TOKIO_HAVE_MPI
    cli_mpi_hush();             /* under mpirun, rank 0 answers alone */
#endif
    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos == 0)
        return cli_usage_error(cmd, "no Darshan logs given");
    if (threads < 1 || threads > 1024)
        return cli_usage_error(cmd, "--threads must be from 1 to 1024");
    if (!(max_mb >= 0.0))
        return cli_usage_error(cmd, "--max-mb must be 0 or more");
    unsigned shard_k, shard_n;
    if ((rc = cli_shard(cmd, shard, &shard_k, &shard_n)) != 0)
        return rc;

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
    ui.held = (struct cli_held){ .cmd = cmd, .skipping = "skipping ",
                                 .quiet = quiet, .bar = &ui.bar };
    cli_progress_start(&ui.bar, "logs", !quiet);
    struct tokio_darshan_index_opts o = {
        .threads = (unsigned)threads,
        .max_mb = max_mb,
        .no_bulk_insert = no_bulk,
        .shard_k = shard_k,
        .shard_n = shard_n,
        .warn = on_skip,
        .unreadable = on_unreadable,
        .progress = on_progress,
        .arg = &ui,
    };
#ifdef TOKIO_HAVE_MPI
    cli_mpi_unhush();
    if (cli_mpi_active() && shard == NULL) {
        rc = cli_mpi_index(cmd, output, argv + 1, (size_t)npos, cfg, &o,
                           quiet);
        tokio_config_free(cfg);
        return rc;
    }
#endif
    double t0 = now();
    rc = tokio_darshan_index(output, (const char *const *)argv + 1,
                             (size_t)npos, cfg, &o, &st);
    cli_progress_clear(&ui.bar);
    tokio_config_free(cfg);
    if (rc < 0) {
        rc = cli_fail(cmd, NULL);
    } else if (st.n_unreadable > 0 &&
               st.n_unreadable + st.n_duplicates == st.n_inputs) {
        /* nothing done at all: every log given is missing, damaged or
         * not a Darshan log; one line each, --quiet or not */
        cli_held_fail(&ui.held);
        if (ui.held.n == 0)     /* said as warnings already */
            cli_fail(cmd, "none of the %zu logs given could be read",
                     st.n_unreadable);
        rc = CLI_EXIT_FAILURE;
    } else {
        cli_held_read(&ui.held);
    }
    cli_held_free(&ui.held);
    if (rc != CLI_EXIT_OK)
        return rc;
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
