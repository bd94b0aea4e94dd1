/*
 * src/cli/summarize-darshanlogs.c - `tokio summarize-darshanlogs`: POSIX
 * bytes read and written per log and mount point, as JSON (the
 * reference's summarize_darshanlogs, as its Quick Start shows it; pytokio
 * removed the module in 2019 in favour of index_darshanlogs, and its
 * last version is what we follow):
 *
 *   { "<log path>": { "<mount point>": { "read_bytes": n,
 *                                        "write_bytes": n } } }
 *
 * Logs without POSIX I/O are left out; logs that cannot be read are
 * reported on stderr and left out, and the exit status stays 0, as in
 * the reference -- unless no log given could be read (exit 1).  Standard output is json.dumps(sort_keys, indent=4);
 * -o FILE writes json.dump()'s one line (written whole or not at all)
 * and says how many summaries it added.  -i FILE starts from an earlier
 * output and skips the logs it has.  Differs from pytokio: --threads is
 * accepted and ignored (a native parse is faster than the reference's
 * process start-up; NEEDSWORK: use the indexer's pool if it matters);
 * a folder argument is listed in name order; with -i, -o's lock is taken
 * before -i is read and holds it through the rename, so two updates of
 * one file take turns and neither is lost; a log name that is not UTF-8
 * is keyed with '?' for its bytes above 0x7f (a JSON key must be UTF-8);
 * --shard K/N takes shard K's share of the logs (by a hash of the path
 * as given) for `tokio merge-summaries`; a progress line goes to stderr
 * when it is a terminal.
 *
 * Under mpirun (src/cli/mpi/mpi_run.h) rank 0 does all of the above but
 * the reading: each log it would read is read on whichever rank asks,
 * whose result (or why the log cannot be read) comes back to rank 0 and
 * is folded in the logs' order, so the output and the messages are one
 * process's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/held.h"
#ifdef TOKIO_HAVE_MPI
#include "cli/mpi/mpi_run.h"
#endif
#include "cli/progress.h"
#include "cli/shard.h"
#include "tokio/output.h"
#include "tokio/tools/darshan_indexer.h"

static const char *const usage[] = {
    "tokio summarize-darshanlogs [<options>] <log>...",
    "tokio summarize-darshanlogs [<options>] <folder>",
    NULL
};

static const char description[] =
    "Print, per Darshan log and mount point, the bytes its POSIX\n"
    "records read and wrote, as JSON.  One folder argument stands for\n"
    "the files in it.";

/* A run over many logs: what summarize_one() folds them into. */
struct run {
    const char *cmd;
    json_t *all;                /* the summaries, by log path */
    long long max_mb;
    size_t n_given;             /* logs of this run (its shard) */
    size_t n_unreadable;        /* of them, could not be read at all */
    struct cli_held held;       /* the unreadable ones while none read */
    struct cli_progress bar;    /* cleared before any message */
    /* the log's outcome when another rank read it (MPI; borrowed):
     * {"res": summary} or {"unreadable": why}; NULL: read here */
    const json_t *pre;
};

/* A log that cannot be read: `why` names it. */
static void
unreadable(struct run *r, const char *why)
{
    r->n_unreadable++;
    cli_held_skip(&r->held, "%s", why);
}

/*
 * `path` as a JSON key: itself, or when it is not UTF-8 (a JSON key must
 * be), a copy with '?' for each byte above 0x7f.
 * *copy_out is that copy (free() it); NULL when the path is its key.
 * NULL when out of memory.
 */
static const char *
key_of(const char *path, char **copy_out)
{
    json_t *probe = json_string(path);
    char *copy;

    *copy_out = NULL;
    if (probe != NULL) {
        json_decref(probe);
        return path;
    }
    if ((copy = strdup(path)) == NULL)
        return NULL;
    for (char *p = copy; *p; p++)
        if ((unsigned char)*p >= 0x80)
            *p = '?';
    if ((probe = json_string(copy)) == NULL) {
        free(copy);
        return NULL;
    }
    json_decref(probe);
    *copy_out = copy;
    return copy;
}

/*
 * One log into r->all: its POSIX bytes per mount point, unless an earlier
 * output has it or it is over --max-mb.  A log that cannot be read is
 * named on stderr, counted and left out.  -1 only when out of memory.
 * (The step a parallel driver runs per log.)
 */
static int
summarize_one(struct run *r, const char *path)
{
    struct stat st;
    json_t *res = NULL;
    char *copy = NULL;
    const char *key = key_of(path, &copy);
    int rc = 0;

    if (key == NULL)
        return -1;
    if (json_object_get(r->all, key) != NULL) {
        cli_held_read(&r->held);
        goto done;
    }
    if (r->max_mb > 0 && stat(path, &st) == 0 &&
        (double)st.st_size / 1048576.0 > (double)r->max_mb) {
        cli_held_read(&r->held);
        cli_progress_clear(&r->bar);
        fprintf(stderr, "tokio %s: warning: skipping '%s' due to size "
                "(%lld MiB)\n", r->cmd, key,
                (long long)(st.st_size / 1048576));
        goto done;
    }
    if (r->pre != NULL) {
        const char *why = json_string_value(json_object_get(r->pre,
                                                            "unreadable"));
        if (why != NULL) {
            unreadable(r, why);
            goto done;
        }
        res = json_incref(json_object_get(r->pre, "res"));
    } else if (tokio_darshan_bytes_per_fs(&res, path) < 0) {
        if (tokio_errcode() == TOKIO_ENOMEM) {
            rc = -1;
            goto done;
        }
        /* the reader's message names the log */
        unreadable(r, tokio_errmsg());
        goto done;
    }
    cli_held_read(&r->held);
    if (copy != NULL) {
        cli_progress_clear(&r->bar);
        fprintf(stderr, "tokio %s: warning: the name of '%s' is not UTF-8; "
                "its key has '?' for each byte above 0x7f\n", r->cmd, key);
    }
    if (json_object_size(res) > 0 && json_object_set(r->all, key, res) < 0)
        rc = -1;
done:
    json_decref(res);
    free(copy);
    return rc;
}

#ifdef TOKIO_HAVE_MPI
/* What summarize_one() reads of a log, read on another rank (MPI): its
 * r->pre.  NULL when out of memory. */
static json_t *
read_remote(void *arg, const char *path)
{
    json_t *res = NULL;

    (void)arg;
    if (tokio_darshan_bytes_per_fs(&res, path) == 0)
        return json_pack("{s:o}", "res", res);
    if (tokio_errcode() == TOKIO_ENOMEM)
        return NULL;
    return json_pack("{s:o}", "unreadable",
                     json_string_nocheck(tokio_errmsg()));
}

/* Read the logs of logs[0, n) that summarize_one() would read on the
 * ranks that ask for work: (*pre)[i] is log i's outcome, or NULL for a
 * log it does not read (in -i, over --max-mb).  An exit status. */
static int
read_on_ranks(const struct run *r, char **logs, size_t n, json_t ***pre)
{
    const char **todo = calloc(n + 1, sizeof(*todo));
    size_t *at = calloc(n + 1, sizeof(*at)), m = 0;
    json_t **out;
    int rc = CLI_EXIT_OK;

    *pre = calloc(n + 1, sizeof(**pre));
    if (todo == NULL || at == NULL || *pre == NULL) {
        rc = cli_fail(r->cmd, "out of memory");
        n = 0;
    }
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        char *copy;
        const char *key = key_of(logs[i], &copy);
        int skip = key != NULL && json_object_get(r->all, key) != NULL;
        free(copy);
        if (!skip && r->max_mb > 0 && stat(logs[i], &st) == 0 &&
            (double)st.st_size / 1048576.0 > (double)r->max_mb)
            skip = 1;
        if (!skip) {
            at[m] = i;
            todo[m++] = logs[i];
        }
    }
    if ((out = cli_mpi_map(r->cmd, todo, m, read_remote, NULL)) == NULL)
        rc = CLI_EXIT_FAILURE;
    for (size_t j = 0; out != NULL && j < m; j++)
        (*pre)[at[j]] = out[j];
    free(todo);
    free(at);
    free(out);
    return rc;
}
#endif

/* The summaries as the reference saves them: compact, no newline. */
static int
write_compact(FILE *fp, void *ctx)
{
    return tokio_json_write(ctx, fp, 0);
}

/* The logs to summarize: the arguments, or the regular files of the one
 * folder given, in name order (as index-darshanlogs lists it); only those
 * of the shard.  *out (free() it and, when *owned, each entry) holds
 * *n_out. */
static int
list_logs(const char *cmd, char **argv, int npos, unsigned k, unsigned n,
          char ***out, size_t *n_out, int *owned)
{
    struct stat st;
    char **v = NULL;
    size_t m = 0, n_v = 0;

    *out = NULL;
    *n_out = 0;
    *owned = 0;
    if (npos == 1 && stat(argv[1], &st) == 0 && S_ISDIR(st.st_mode)) {
        int rc = tokio_darshan_list_folder(argv[1], &v, &n_v);
        if (rc == TOKIO_ENOMEM)
            return cli_fail(cmd, "out of memory");
        if (rc < 0)
            return cli_fail(cmd, "cannot read folder '%s'", argv[1]);
        for (size_t i = 0; i < n_v; i++) {
            if (tokio_darshan_in_shard(v[i], k, n))
                v[m++] = v[i];
            else
                free(v[i]);
        }
        *owned = 1;
    } else {
        if ((v = calloc((size_t)npos + 1, sizeof(*v))) == NULL)
            return cli_fail(cmd, "out of memory");
        for (int i = 1; i <= npos; i++)
            if (tokio_darshan_in_shard(argv[i], k, n))
                v[m++] = argv[i];
    }
    *out = v;
    *n_out = m;
    return CLI_EXIT_OK;
}

int
cmd_summarize_darshanlogs(int argc, char **argv)
{
    const char *cmd = argv[0];
    const char *input = NULL, *output = NULL, *shard = NULL;
    long long threads = 1, max_mb = 0;
    const struct cli_option opts[] = {
        OPT_INT('t', "threads", &threads, "<n>",
                "accepted for compatibility; logs are read one by one"),
        OPT_STRING('i', "input", &input, "<file>",
                   "an earlier output to update (its logs are skipped)"),
        OPT_STRING('o', "output", &output, "<file>",
                   "write one-line JSON to <file> instead of stdout"),
        OPT_INT('m', "max-mb", &max_mb, "<MiB>",
                "skip logs larger than this (default: 0, no limit)"),
        OPT_STRING(0, "shard", &shard, "<K/N>", CLI_SHARD_HELP
                   " (tokio merge-summaries)"),
        OPT_END
    };
    struct run run = { .cmd = cmd,
                       .held = { .cmd = cmd, .skipping = "skipping: ",
                                 .bar = &run.bar } };
    char **logs = NULL;
    size_t start_ct = 0, n_logs = 0;
    unsigned shard_k, shard_n;
    int npos, owned = 0, lock = -1, rc = CLI_EXIT_OK;

#ifdef TOKIO_HAVE_MPI
    cli_mpi_hush();             /* under mpirun, rank 0 answers alone */
#endif
    npos = cli_parse(argc, argv, opts, usage, description);
    if (npos < 0)
        return cli_parse_exit(npos);
    if (npos == 0)
        return cli_usage_error(cmd, "no Darshan logs given");
    if (threads < 1)
        return cli_usage_error(cmd, "--threads must be 1 or more");
    if ((rc = cli_shard(cmd, shard, &shard_k, &shard_n)) != 0)
        return rc;
    run.max_mb = max_mb;
#ifdef TOKIO_HAVE_MPI
    /* under mpirun the other ranks only read logs for rank 0 */
    json_t **pre = NULL;
    cli_mpi_unhush();
    int mpi = cli_mpi_active() && shard == NULL;
    if (mpi && cli_mpi_start() != 0)
        return cli_mpi_serve(cmd, read_remote, NULL);
#endif

    /* an update (-i, often of -o itself) takes turns with any other
     * writer of -o: the lock is taken before reading and held through
     * the rename */
    if (input != NULL && output != NULL &&
        tokio_output_lock(output, &lock) < 0) {
        rc = cli_fail(cmd, NULL);
        goto out;
    }
    if (input != NULL) {
        json_error_t err;
        run.all = json_load_file(input, 0, &err);
        if (run.all == NULL) {
            rc = cli_fail(cmd, "cannot read '%s' line %d: %s", input,
                          err.line, err.text);
            goto out;
        }
        if (!json_is_object(run.all)) {
            rc = cli_fail(cmd, "'%s' is not a JSON object", input);
            goto out;
        }
        start_ct = json_object_size(run.all);
    } else if ((run.all = json_object()) == NULL) {
        rc = cli_fail(cmd, "out of memory");
        goto out;
    }

    if ((rc = list_logs(cmd, argv, npos, shard_k, shard_n, &logs, &n_logs,
                        &owned)) != CLI_EXIT_OK)
        goto out;
    run.n_given = n_logs;
#ifdef TOKIO_HAVE_MPI
    if (mpi)
        rc = read_on_ranks(&run, logs, n_logs, &pre);
#endif
    cli_progress_start(&run.bar, "logs", 1);
    for (size_t i = 0; i < n_logs && rc == CLI_EXIT_OK; i++) {
#ifdef TOKIO_HAVE_MPI
        run.pre = pre != NULL ? pre[i] : NULL;
#endif
        if (summarize_one(&run, logs[i]) < 0)
            rc = cli_fail(cmd, "out of memory summarizing '%s'", logs[i]);
        cli_progress_update(&run.bar, i + 1, n_logs, 0);
    }
    cli_progress_clear(&run.bar);
    if (rc == CLI_EXIT_OK && run.n_unreadable > 0 &&
        run.n_unreadable == run.n_given) {
        /* nothing done at all: one line for each log */
        cli_held_fail(&run.held);
        rc = CLI_EXIT_FAILURE;
    } else if (rc == CLI_EXIT_OK) {
        cli_held_read(&run.held);
    }

    if (rc == CLI_EXIT_OK && output == NULL) {
        rc = cli_write_json(cmd, NULL, run.all, TOKIO_JSON_SORT_KEYS |
                            TOKIO_JSON_INDENT(4));
    } else if (rc == CLI_EXIT_OK) {
        rc = cli_write_output(cmd, output, write_compact, run.all);
        if (rc == CLI_EXIT_OK) {
            printf("Added %zu log summaries to %s\n",
                   json_object_size(run.all) - start_ct, output);
        }
    }
out:
    tokio_output_unlock(lock);
    cli_held_free(&run.held);
    for (size_t i = 0; owned && i < n_logs; i++)
        free(logs[i]);
    free(logs);
    json_decref(run.all);
#ifdef TOKIO_HAVE_MPI
    if (mpi)
        rc = cli_mpi_finish(pre, n_logs, rc);
#endif
    return rc;
}
