/*
 * src/cli/mpi/mpi_run.c - `mpirun -n N tokio index-darshanlogs ...`: the
 * one MPI file, compiled only with -DTOKIO_MPI=ON (then TOKIO_HAVE_MPI is
 * defined for the command files).
 *
 * A command runs this way when it was started by an MPI launcher (Open
 * MPI's OMPI_COMM_WORLD_SIZE, or PMI_SIZE / PMIX_RANK of others, is in the
 * environment): no flag, so the same command line works under mpirun and
 * without it.
 *
 * Rank 0 expands the inputs (a folder stands for the regular files in it,
 * in name order, as the one-process command lists it) and hands them out
 * in batches of a few logs to whichever rank asks (request-reply, so one
 * slow log does not stall a static split).  Every other rank indexes its
 * batches into its own part beside OUT (OUT.rank<R>.part); with one rank,
 * rank 0 does the work itself.  At the end rank 0 merges the parts into
 * OUT with tokio_darshan_index_merge() -- the rows one run would have
 * written -- and removes them.  OUT is only ever written whole by that
 * merge, so a rank that dies (mpirun then aborts the job) leaves no
 * partial OUT; its stale part is removed by the next run.  An OUT that
 * exists already is refused (the one-process command adds to it; here
 * the merge would replace it).
 */
#include <dirent.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "tokio/tools/darshan_indexer.h"

int cli_mpi_active(void);
int cli_mpi_index(const char *cmd, const char *output, char **inputs,
                  size_t n, const struct tokio_config *cfg,
                  const struct tokio_darshan_index_opts *base, int quiet);

enum { TAG_REQ = 1, TAG_WORK = 2, BATCH = 4 };

int
cli_mpi_active(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") != NULL ||
           getenv("PMI_SIZE") != NULL || getenv("PMIX_RANK") != NULL;
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The logs to index: `inputs`, or the regular files in the one folder
 * given, in name order.  NULL (and *n 0) on failure. */
static char **
expand(char **inputs, size_t n_in, size_t *n)
{
    struct stat sb;
    char **out = NULL;

    *n = 0;
    if (n_in == 1 && stat(inputs[0], &sb) == 0 && S_ISDIR(sb.st_mode)) {
        DIR *d = opendir(inputs[0]);
        struct dirent *e;
        size_t cap = 0;
        if (d == NULL)
            return NULL;
        while ((e = readdir(d)) != NULL) {
            size_t len = strlen(inputs[0]) + strlen(e->d_name) + 2;
            char *p = malloc(len);
            if (p == NULL)
                break;
            snprintf(p, len, "%s/%s", inputs[0], e->d_name);
            if (stat(p, &sb) != 0 || !S_ISREG(sb.st_mode)) {
                free(p);
                continue;
            }
            if (*n == cap) {
                char **more = realloc(out, (cap = cap ? 2 * cap : 256) *
                                      sizeof(*out));
                if (more == NULL) {
                    free(p);
                    break;
                }
                out = more;
            }
            out[(*n)++] = p;
        }
        closedir(d);
        if (*n > 0)
            qsort(out, *n, sizeof(*out), cmp_str);
        return out;
    }
    out = calloc(n_in ? n_in : 1, sizeof(*out));
    for (size_t i = 0; out != NULL && i < n_in; i++)
        if ((out[(*n)++] = strdup(inputs[i])) == NULL)
            (*n)--;
    return out;
}

static void
on_warn(void *arg, const char *path, const char *why)
{
    const char *cmd = arg;
    size_t n = strlen(path);

    if (why[0] == '\'' && strncmp(why + 1, path, n) == 0 &&
        strncmp(why + 1 + n, "': ", 3) == 0)
        why += n + 4;
    fprintf(stderr, "tokio %s: warning: skipping '%s': %s\n", cmd, path,
            why);
}

/* Index logs [0, n) of `logs` into `part`, adding to `tot`.  0 or -1. */
static int
index_batch(const char *cmd, const char *part, const char *const *logs,
            size_t n, const struct tokio_config *cfg,
            const struct tokio_darshan_index_opts *o, unsigned long *tot)
{
    struct tokio_darshan_index_stats st = { 0 };

    if (tokio_darshan_index(part, logs, n, cfg, o, &st) < 0) {
        cli_fail(cmd, NULL);
        return -1;
    }
    tot[0] += st.n_inputs;
    tot[1] += st.n_unreadable;
    tot[2] += st.n_duplicates;
    tot[3] += st.n_indexed;
    return 0;
}

int
cli_mpi_index(const char *cmd, const char *output, char **inputs, size_t n,
              const struct tokio_config *cfg,
              const struct tokio_darshan_index_opts *base, int quiet)
{
    int rank, size, failed = 0;
    /* inputs, unreadable, duplicates, indexed, index failures */
    unsigned long tot[5] = { 0 }, all[5] = { 0 };
    struct tokio_darshan_index_opts o = *base;
    char part[4096];
    char **logs = NULL;
    size_t n_logs = 0;

    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    o.shard_k = o.shard_n = 0;
    o.warn = o.unreadable = quiet ? NULL : on_warn;
    o.progress = NULL;
    o.arg = (void *)cmd;
    snprintf(part, sizeof(part), "%s.rank%d.part", output, rank);
    unlink(part);               /* a stale part of a run that died */

    /* The merge writes OUT whole: an index already there would be lost
     * (one process adds to it).  Refused, before any work. */
    int exists = rank == 0 && access(output, F_OK) == 0;
    MPI_Bcast(&exists, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (exists) {
        if (rank == 0)
            cli_fail(cmd, "'%s' exists: an MPI run writes a new index; "
                     "write it beside and join them with `tokio "
                     "merge-index`", output);
        MPI_Finalize();
        return CLI_EXIT_FAILURE;
    }
    if (rank == 0) {
        logs = expand(inputs, n, &n_logs);
        if (logs == NULL && n_logs == 0) {
            cli_fail(cmd, "cannot list '%s'", inputs[0]);
            MPI_Abort(MPI_COMM_WORLD, CLI_EXIT_FAILURE);
        }
    }
    if (rank == 0 && size == 1) {
        for (size_t i = 0; i < n_logs && !failed; i += BATCH)
            failed = index_batch(cmd, part, (const char *const *)logs + i,
                                 n_logs - i < BATCH ? n_logs - i : BATCH,
                                 cfg, &o, tot) < 0;
    } else if (rank == 0) {
        size_t next = 0;
        int active = size - 1;
        char buf[BATCH * 4096];
        while (active > 0) {
            MPI_Status ms;
            int dummy, len = 0;
            MPI_Recv(&dummy, 1, MPI_INT, MPI_ANY_SOURCE, TAG_REQ,
                     MPI_COMM_WORLD, &ms);
            /* NUL-terminated paths; an empty reply means no more work */
            for (int k = 0; k < BATCH && next < n_logs; k++, next++) {
                size_t l = strlen(logs[next]) + 1;
                if (len + l > sizeof(buf))
                    break;
                memcpy(buf + len, logs[next], l);
                len += (int)l;
            }
            if (len == 0)
                active--;
            MPI_Send(buf, len, MPI_CHAR, ms.MPI_SOURCE, TAG_WORK,
                     MPI_COMM_WORLD);
        }
    } else {
        char buf[BATCH * 4096];
        for (;;) {
            int dummy = 0, len;
            MPI_Status ms;
            const char *batch[BATCH];
            size_t nb = 0;
            MPI_Send(&dummy, 1, MPI_INT, 0, TAG_REQ, MPI_COMM_WORLD);
            MPI_Recv(buf, (int)sizeof(buf), MPI_CHAR, 0, TAG_WORK,
                     MPI_COMM_WORLD, &ms);
            MPI_Get_count(&ms, MPI_CHAR, &len);
            if (len == 0)
                break;
            for (int at = 0; at < len && nb < BATCH;
                 at += (int)strlen(buf + at) + 1)
                batch[nb++] = buf + at;
            if (!failed)
                failed = index_batch(cmd, part, batch, nb, cfg, &o,
                                     tot) < 0;
        }
    }
    tot[4] = (unsigned long)failed;
    MPI_Reduce(tot, all, 5, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);

    int rc = CLI_EXIT_OK;
    if (rank == 0) {
        char **parts = calloc((size_t)size, sizeof(*parts));
        size_t np = 0;
        for (int r = 0; parts != NULL && r < size; r++) {
            char p[4096];
            snprintf(p, sizeof(p), "%s.rank%d.part", output, r);
            if (access(p, F_OK) == 0 && (parts[np] = strdup(p)) != NULL)
                np++;
        }
        if (parts == NULL || all[4] > 0) {
            rc = CLI_EXIT_FAILURE;
        } else if (all[1] > 0 && all[1] + all[2] == all[0]) {
            cli_fail(cmd, "none of the %lu logs given could be read",
                     all[1]);
            rc = CLI_EXIT_FAILURE;
        } else if (np > 0 && tokio_darshan_index_merge(
                       output, (const char *const *)parts, np) < 0) {
            rc = cli_fail(cmd, NULL);
        }
        for (size_t i = 0; i < np; i++) {
            unlink(parts[i]);
            free(parts[i]);
        }
        free(parts);
        for (size_t i = 0; i < n_logs; i++)
            free(logs[i]);
        free(logs);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
