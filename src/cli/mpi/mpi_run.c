/*
 * src/cli/mpi/mpi_run.c - the commands' MPI runs (`mpirun -n N tokio
 * index-darshanlogs | summarize-darshanlogs | darshan-bad-ost | insights
 * ...`): the one MPI file, compiled only with -DTOKIO_MPI=ON (then
 * TOKIO_HAVE_MPI is defined for the command files); its interface is
 * src/cli/mpi/mpi_run.h.
 *
 * A command runs this way when it was started by an MPI launcher (Open
 * MPI's OMPI_COMM_WORLD_SIZE, or PMI_SIZE / PMIX_RANK of others, is in the
 * environment): no flag, so the same command line works under mpirun and
 * without it.
 *
 * distribute() is the one way work is handed out: rank 0 holds the items
 * and sends them in batches of a few to whichever rank asks
 * (request-reply, so one slow log -- logs range from kilobytes to
 * gigabytes -- does not stall a static split); with one rank, rank 0
 * does the work itself.
 *
 * index-darshanlogs: rank 0 expands the inputs (a folder stands for the
 * regular files in it, in name order, as the one-process command lists
 * it); every other rank indexes its batches into its own part beside OUT
 * (OUT.rank<R>.part).  At the end rank 0 merges the parts into OUT with
 * tokio_darshan_index_merge() -- the rows one run would have written --
 * and removes them.  OUT is only ever written whole by that merge, so a
 * rank that dies (mpirun then aborts the job) leaves no partial OUT; its
 * stale part is removed by the next run.  An OUT that exists already is
 * refused (the one-process command adds to it; here the merge would
 * replace it).
 *
 * The other commands (cli_mpi_map()): each item's outcome is a JSON value
 * the worker keeps by the item's place; at the end each worker sends its
 * outcomes to rank 0 as JSON text (tokio_json_dumps(), read back with
 * jansson: reals are written in shortest round-trip form, so they come
 * back the same doubles; strings are escaped on the way, recode(), so
 * that bytes that are not UTF-8 come back too), and rank 0 folds them in
 * the items' order.
 */
#include <fcntl.h>
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/mpi/mpi_run.h"
#include "tokio/output.h"
#include "tokio/tools/darshan_indexer.h"
#include "tokio/util.h"

enum { TAG_REQ = 1, TAG_WORK = 2, TAG_RES = 3, TAG_CTL = 4, BATCH = 4 };

/*
 * Wait for a message of `tag` from `src` without spinning a core: Open
 * MPI's blocking calls poll flat out, and a rank that only waits (rank 0
 * handing out work, a worker while rank 0 writes) would take a core from
 * the ranks that parse when the node has no spare one.  A message is
 * seen within 0.2 ms, against batches of milliseconds at least.
 */
static void
await_msg(int src, int tag, MPI_Status *ms)
{
    struct timespec nap = { 0, 200000 };
    int flag = 0;

    for (;;) {
        MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, ms);
        if (flag)
            return;
        nanosleep(&nap, NULL);
    }
}

/* Rank 0: `v` to every other rank (what cli_mpi_serve() waits for). */
static void
tell_workers(int v)
{
    int size;

    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int r = 1; r < size; r++)
        MPI_Send(&v, 1, MPI_INT, r, TAG_CTL, MPI_COMM_WORLD);
}

int
cli_mpi_active(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") != NULL ||
           getenv("PMI_SIZE") != NULL || getenv("PMIX_RANK") != NULL;
}

/* A hushed rank's standard output and error (-1: not hushed). */
static int hushed_out = -1, hushed_err = -1;

/*
 * A rank that ends still hushed (--help, a bad command line) exits 0:
 * mpirun aborts the job as soon as any rank exits non-zero, and could
 * kill rank 0 before it has said why.  Rank 0's status is the job's.
 */
static void
exit_hushed(void)
{
    if (hushed_err >= 0)
        _exit(0);
}

void
cli_mpi_hush(void)
{
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    int null;

    if (rank == NULL)
        rank = getenv("PMI_RANK");
    if (rank == NULL)
        rank = getenv("PMIX_RANK");
    if (rank == NULL || atoi(rank) == 0 || hushed_err >= 0 ||
        (null = open("/dev/null", O_WRONLY)) < 0)
        return;
    fflush(stdout);
    fflush(stderr);
    hushed_out = dup(STDOUT_FILENO);
    hushed_err = dup(STDERR_FILENO);
    if (hushed_out >= 0 && hushed_err >= 0 && atexit(exit_hushed) == 0) {
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
    } else {                    /* cannot be undone: say it all */
        close(hushed_out);
        close(hushed_err);
        hushed_out = hushed_err = -1;
    }
    close(null);
}

void
cli_mpi_unhush(void)
{
    if (hushed_err < 0)
        return;
    fflush(stdout);
    fflush(stderr);
    dup2(hushed_out, STDOUT_FILENO);
    dup2(hushed_err, STDERR_FILENO);
    close(hushed_out);
    close(hushed_err);
    hushed_out = hushed_err = -1;
}

/* The logs to index: `inputs`, or the regular files in the one folder
 * given, as the one-process command lists it (none, for an empty
 * folder).  -1 when the folder cannot be listed or memory runs out. */
static int
expand(char **inputs, size_t n_in, char ***out, size_t *n)
{
    struct stat sb;

    *out = NULL;
    *n = 0;
    if (n_in == 1 && stat(inputs[0], &sb) == 0 && S_ISDIR(sb.st_mode))
        return tokio_darshan_list_folder(inputs[0], out, n) == 0 ? 0 : -1;
    if ((*out = calloc(n_in ? n_in : 1, sizeof(**out))) == NULL)
        return -1;
    for (; *n < n_in; (*n)++)
        if (((*out)[*n] = strdup(inputs[*n])) == NULL)
            return -1;
    return 0;
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

/* The work of one batch: items[k] is item index[k] of rank 0's list.
 * 0, or -1 when this rank cannot go on (reported). */
typedef int (*batch_fn)(void *arg, const size_t *index,
                        const char *const *items, size_t n);

/* Rank 0's reply to a request: up to BATCH items from *next, each as its
 * index (8 bytes) and its NUL-terminated text; empty when none is left.
 * The length, or -1 when out of memory. */
static int
pack_batch(const char *const *items, size_t n, size_t *next, char **buf,
           size_t *cap)
{
    size_t len = 0;

    for (int k = 0; k < BATCH && *next < n; k++, (*next)++) {
        size_t l = strlen(items[*next]) + 1;
        uint64_t idx = *next;
        if (len + 8 + l > *cap) {
            size_t want = 2 * (len + 8 + l);
            char *more = want <= INT_MAX ? realloc(*buf, want) : NULL;
            if (more == NULL)
                return -1;
            *buf = more;
            *cap = want;
        }
        memcpy(*buf + len, &idx, 8);
        memcpy(*buf + len + 8, items[*next], l);
        len += 8 + l;
    }
    return (int)len;
}

/*
 * Collective over MPI_COMM_WORLD: rank 0 hands items[0, n) out (only its
 * `items` are read) in batches to whichever rank asks, and works through
 * them itself when it is the only rank; the other ranks call `work` on
 * each batch they get.  A rank whose work failed asks on (no more work
 * is done there) so the others are not held up.  0, or -1 when this
 * rank's work failed (or rank 0 ran out of memory handing out; reported).
 */
static int
distribute(const char *cmd, const char *const *items, size_t n,
           batch_fn work, void *arg)
{
    int rank, size, failed = 0;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0 && size == 1) {
        size_t idx[BATCH];
        for (size_t i = 0; i < n && !failed; i += BATCH) {
            size_t nb = n - i < BATCH ? n - i : BATCH;
            for (size_t k = 0; k < nb; k++)
                idx[k] = i + k;
            failed = work(arg, idx, items + i, nb) < 0;
        }
    } else if (rank == 0) {
        size_t next = 0, cap = 0;
        int active = size - 1;
        char *buf = NULL;
        while (active > 0) {
            MPI_Status ms;
            int dummy, len = 0;
            await_msg(MPI_ANY_SOURCE, TAG_REQ, &ms);
            MPI_Recv(&dummy, 1, MPI_INT, ms.MPI_SOURCE, TAG_REQ,
                     MPI_COMM_WORLD, &ms);
            /* out of memory: nothing more is handed out, and no rank's
             * outcome is trusted */
            if (!failed && (len = pack_batch(items, n, &next, &buf,
                                             &cap)) < 0) {
                cli_fail(cmd, "out of memory handing out work");
                failed = 1;
                len = 0;
            }
            if (len == 0)
                active--;
            MPI_Send(buf, len, MPI_CHAR, ms.MPI_SOURCE, TAG_WORK,
                     MPI_COMM_WORLD);
        }
        free(buf);
    } else {
        char *buf = NULL;
        for (;;) {
            int dummy = 0, len, at = 0;
            MPI_Status ms;
            const char *batch[BATCH];
            size_t idx[BATCH], nb = 0;
            char *more;
            MPI_Send(&dummy, 1, MPI_INT, 0, TAG_REQ, MPI_COMM_WORLD);
            MPI_Probe(0, TAG_WORK, MPI_COMM_WORLD, &ms);
            MPI_Get_count(&ms, MPI_CHAR, &len);
            if ((more = realloc(buf, (size_t)len + 1)) == NULL) {
                /* the batch cannot be taken: the job fails, loudly */
                cli_fail(cmd, "rank %d: out of memory taking work", rank);
                MPI_Abort(MPI_COMM_WORLD, CLI_EXIT_FAILURE);
            }
            buf = more;
            MPI_Recv(buf, len, MPI_CHAR, 0, TAG_WORK, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            if (len == 0)
                break;
            while (at < len && nb < BATCH) {
                uint64_t u;
                memcpy(&u, buf + at, 8);
                idx[nb] = (size_t)u;
                batch[nb++] = buf + at + 8;
                at += 8 + (int)strlen(buf + at + 8) + 1;
            }
            if (!failed)
                failed = work(arg, idx, batch, nb) < 0;
        }
        free(buf);
    }
    return failed ? -1 : 0;
}

/* index-darshanlogs' batch: into this rank's part, adding to tot */
struct index_job {
    const char *cmd, *part;
    const struct tokio_config *cfg;
    const struct tokio_darshan_index_opts *o;
    unsigned long *tot;
};

/* Index logs [0, n) of `logs` into `part`, adding to `tot`.  0 or -1. */
static int
index_batch(void *arg, const size_t *index, const char *const *logs,
            size_t n)
{
    const struct index_job *j = arg;
    struct tokio_darshan_index_stats st = { 0 };

    (void)index;
    if (tokio_darshan_index(j->part, logs, n, j->cfg, j->o, &st) < 0) {
        cli_fail(j->cmd, NULL);
        return -1;
    }
    j->tot[0] += st.n_inputs;
    j->tot[1] += st.n_unreadable;
    j->tot[2] += st.n_duplicates;
    j->tot[3] += st.n_indexed;
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
        if (expand(inputs, n, &logs, &n_logs) < 0) {
            cli_fail(cmd, "cannot list '%s'", inputs[0]);
            MPI_Abort(MPI_COMM_WORLD, CLI_EXIT_FAILURE);
        }
    }
    struct index_job job = { cmd, part, cfg, &o, tot };
    failed = distribute(cmd, (const char *const *)logs, n_logs, index_batch,
                        &job) < 0;
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
        } else if (np == 0 &&   /* nothing to index: an empty index */
                   tokio_darshan_index(output, NULL, 0, cfg, &o, NULL) < 0) {
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

/* cli_mpi_map()'s work on one rank: outcomes by the item's place */
struct map_job {
    const char *cmd;
    cli_mpi_item_fn fn;
    void *arg;
    json_t *got;                /* {"<index>": outcome} */
};

static int
map_batch(void *arg, const size_t *index, const char *const *items,
          size_t n)
{
    struct map_job *j = arg;

    for (size_t k = 0; k < n; k++) {
        char key[32];
        json_t *v = j->got != NULL ? j->fn(j->arg, items[k]) : NULL;
        snprintf(key, sizeof(key), "%zu", index[k]);
        if (v == NULL || json_object_set_new(j->got, key, v) < 0) {
            cli_fail(j->cmd, "cannot keep the result of '%s' (out of "
                     "memory)", items[k]);
            return -1;
        }
    }
    return 0;
}

/*
 * Outcomes travel as JSON text, which holds only UTF-8; a log's path, and
 * so its messages and results, need not be.  On the way each string value
 * is escaped and then restored: each byte that does not decode as UTF-8,
 * and each ESC, becomes ESC and two hex digits.  (Keys name fields: they
 * are UTF-8.)
 */
enum { ESC = 0x01 };

static int
hex_digit(int c)
{
    return c >= '0' && c <= '9' ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Whether `s` (n bytes) changes when escaped (to_wire) or restored. */
static int
changes(const unsigned char *s, size_t n, int to_wire)
{
    const unsigned char *p = s, *end = s + n;

    if (memchr(s, ESC, n) != NULL)
        return 1;
    while (to_wire && p < end)
        if (tokio_utf8_next(&p, end) == TOKIO_UTF8_INVALID)
            return 1;
    return 0;
}

/* The string `v` escaped (to_wire) or restored, in place.  0, or -1
 * when out of memory. */
static int
recode_string(json_t *v, int to_wire)
{
    const unsigned char *p = (const unsigned char *)json_string_value(v);
    size_t n = json_string_length(v), k = 0;
    const unsigned char *end = p + n;
    char *t;
    int rc;

    if (!changes(p, n, to_wire))
        return 0;
    if ((t = malloc(3 * n + 1)) == NULL)
        return -1;
    while (p < end) {
        const unsigned char *c = p;
        if (to_wire && (*c == ESC ||
                        tokio_utf8_next(&p, end) == TOKIO_UTF8_INVALID)) {
            k += (size_t)sprintf(t + k, "%c%02x", ESC, *c);
            p = c + 1;
        } else if (to_wire) {
            memcpy(t + k, c, (size_t)(p - c));
            k += (size_t)(p - c);
        } else if (*c == ESC && end - c >= 3 && hex_digit(c[1]) >= 0 &&
                   hex_digit(c[2]) >= 0) {
            t[k++] = (char)(hex_digit(c[1]) * 16 + hex_digit(c[2]));
            p += 3;
        } else {
            t[k++] = (char)*p++;
        }
    }
    rc = json_string_setn_nocheck(v, t, k);
    free(t);
    return rc;
}

/* Every string value in `v` escaped or restored (recode_string()). */
static int
recode(json_t *v, int to_wire)
{
    const char *key;
    json_t *x;
    size_t i;

    if (json_is_string(v))
        return recode_string(v, to_wire);
    if (json_is_array(v)) {
        json_array_foreach(v, i, x)
            if (recode(x, to_wire) < 0)
                return -1;
    }
    if (json_is_object(v)) {
        json_object_foreach(v, key, x)
            if (recode(x, to_wire) < 0)
                return -1;
    }
    return 0;
}

/* Texts of up to 1 GiB a message: MPI counts are ints. */
enum { CHUNK = 1 << 30 };

/* A worker's outcomes, as JSON text, to rank 0: first its length and
 * whether this rank failed, then the text. */
static void
send_outcomes(const char *cmd, json_t *got, int failed)
{
    char *text = NULL;
    long long head[2] = { 0, failed };

    if (!failed && recode(got, 1) < 0) {
        cli_fail(cmd, "out of memory sending results");
        head[1] = 1;
    } else if (!failed && tokio_json_dumps(&text, got, 0) < 0) {
        cli_fail(cmd, NULL);
        head[1] = 1;
    }
    if (text != NULL)
        head[0] = (long long)strlen(text);
    MPI_Send(head, 2, MPI_LONG_LONG, 0, TAG_RES, MPI_COMM_WORLD);
    for (long long at = 0; at < head[0]; at += CHUNK)
        MPI_Send(text + at, (int)(head[0] - at < CHUNK ? head[0] - at
                                                       : CHUNK),
                 MPI_CHAR, 0, TAG_RES, MPI_COMM_WORLD);
    free(text);
}

/* The outcomes in `got` into out[0, n) by their keys. */
static void
take_outcomes(json_t *got, json_t **out, size_t n)
{
    const char *key;
    json_t *v;

    json_object_foreach(got, key, v) {
        unsigned long long i = strtoull(key, NULL, 10);
        if (i < n && out[i] == NULL)
            out[i] = json_incref(v);
    }
}

/* Rank r's outcomes into out[0, n).  0, or -1 (that rank failed, or its
 * text cannot be read: reported). */
static int
recv_outcomes(const char *cmd, int r, json_t **out, size_t n)
{
    long long head[2];
    json_error_t err;
    json_t *got;
    char *text;

    MPI_Status ms;

    await_msg(r, TAG_RES, &ms);
    MPI_Recv(head, 2, MPI_LONG_LONG, r, TAG_RES, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    if (head[0] == 0)
        return head[1] ? -1 : 0;
    if ((text = malloc((size_t)head[0])) == NULL) {
        cli_fail(cmd, "out of memory taking rank %d's results", r);
        MPI_Abort(MPI_COMM_WORLD, CLI_EXIT_FAILURE);
    }
    for (long long at = 0; at < head[0]; at += CHUNK)
        MPI_Recv(text + at, (int)(head[0] - at < CHUNK ? head[0] - at
                                                       : CHUNK),
                 MPI_CHAR, r, TAG_RES, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    got = json_loadb(text, (size_t)head[0], 0, &err);
    free(text);
    if (got == NULL) {
        cli_fail(cmd, "rank %d's results cannot be read: %s", r, err.text);
        return -1;
    }
    if (recode(got, 0) < 0) {
        cli_fail(cmd, "out of memory taking rank %d's results", r);
        json_decref(got);
        return -1;
    }
    take_outcomes(got, out, n);
    json_decref(got);
    return head[1] ? -1 : 0;
}

/* out[0, n) and out released (NULL entries, or out NULL, are fine) */
static void
free_outcomes(json_t **out, size_t n)
{
    for (size_t i = 0; out != NULL && i < n; i++)
        json_decref(out[i]);
    free(out);
}

int
cli_mpi_start(void)
{
    int rank;

    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

int
cli_mpi_serve(const char *cmd, cli_mpi_item_fn fn, void *arg)
{
    for (;;) {
        int go, failed;
        struct map_job job = { cmd, fn, arg, json_object() };
        MPI_Status ms;
        /* -1: a map follows; else rank 0's exit status, the end */
        await_msg(0, TAG_CTL, &ms);
        MPI_Recv(&go, 1, MPI_INT, 0, TAG_CTL, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        if (go >= 0) {
            json_decref(job.got);
            MPI_Finalize();
            return go;
        }
        failed = distribute(cmd, NULL, 0, map_batch, &job) < 0;
        send_outcomes(cmd, job.got, failed);
        json_decref(job.got);
    }
}

json_t **
cli_mpi_map(const char *cmd, const char *const *items, size_t n,
            cli_mpi_item_fn fn, void *arg)
{
    struct map_job job = { cmd, fn, arg, json_object() };
    json_t **out = calloc(n + 1, sizeof(*out));
    int size, failed;

    if (out == NULL) {
        json_decref(job.got);
        cli_fail(cmd, "out of memory");
        return NULL;
    }
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    tell_workers(-1);
    failed = distribute(cmd, items, n, map_batch, &job) < 0;
    if (size == 1)
        take_outcomes(job.got, out, n);
    for (int r = 1; r < size; r++)
        if (recv_outcomes(cmd, r, out, n) < 0)
            failed = 1;
    json_decref(job.got);
    /* a rank that stopped dropped the rest of its share: each is named */
    for (size_t i = 0; i < n; i++) {
        if (out[i] == NULL) {
            cli_fail(cmd, "'%s' was not done: its rank stopped", items[i]);
            failed = 1;
        }
    }
    if (failed) {
        free_outcomes(out, n);
        return NULL;
    }
    return out;
}

int
cli_mpi_end(int rc)
{
    tell_workers(rc);
    MPI_Finalize();
    return rc;
}

int
cli_mpi_finish(json_t **out, size_t n, int rc)
{
    free_outcomes(out, n);
    return cli_mpi_end(rc);
}
