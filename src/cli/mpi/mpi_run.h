/*
 * src/cli/mpi/mpi_run.h - the commands' MPI runs (src/cli/mpi/mpi_run.c),
 * compiled only with -DTOKIO_MPI=ON (then TOKIO_HAVE_MPI is defined).
 *
 * index-darshanlogs runs whole in cli_mpi_index().  The other commands
 * (summarize-darshanlogs, darshan-bad-ost, insights) keep their own flow
 * on rank 0 and hand only the per-log work out:
 *
 *   if (cli_mpi_active()) {
 *       if (cli_mpi_start() != 0)                 (a worker rank)
 *           return cli_mpi_serve(cmd, one_log, &ctx);
 *       ... rank 0: lists the logs as one process does ...
 *       out = cli_mpi_map(cmd, logs, n, one_log, &ctx);
 *       ... folds out[0..n) in the logs' order, as one process would
 *       have folded its own results, and writes ...
 *       rc = cli_mpi_finish(out, n, rc);
 *   }
 *
 * so the output, the messages and the exit status are those of one
 * process: the workers print nothing about a log; what they found
 * (errors included) comes back as data and rank 0 says it, in order.
 */
#ifndef TOKIO_CLI_MPI_RUN_H
#define TOKIO_CLI_MPI_RUN_H

#include <jansson.h>
#include <stddef.h>

struct tokio_config;
struct tokio_darshan_index_opts;

/* Whether an MPI launcher started this process (no flag needed). */
int cli_mpi_active(void);

/* Before the command line is read: on a launcher's rank other than 0,
 * standard output and error go to /dev/null until cli_mpi_unhush(), so
 * --help, a bad command line and the checks before the run are said
 * once, by rank 0; a rank that exits still hushed exits 0, leaving the
 * job's exit status to rank 0. */
void cli_mpi_hush(void);

/* Once the command line is read: standard output and error back. */
void cli_mpi_unhush(void);

/* `mpirun -n N tokio index-darshanlogs`: the whole run; an exit status. */
int cli_mpi_index(const char *cmd, const char *output, char **inputs,
                  size_t n, const struct tokio_config *cfg,
                  const struct tokio_darshan_index_opts *base, int quiet);

/* One item's work on whichever rank it was handed to: its outcome as a
 * new JSON value (errors of the item included, as data), or NULL when
 * this rank cannot go on (out of memory, or a result JSON cannot
 * hold; `item` is then named). */
typedef json_t *(*cli_mpi_item_fn)(void *arg, const char *item);

/* MPI_Init; this process's rank (0 goes on as the one process would). */
int cli_mpi_start(void);

/* A worker rank: run `fn` over the items rank 0's cli_mpi_map() calls
 * hand it, until rank 0 calls cli_mpi_end(); then MPI_Finalize and rank
 * 0's exit status. */
int cli_mpi_serve(const char *cmd, cli_mpi_item_fn fn, void *arg);

/*
 * Rank 0: `fn` over items[0, n) on the ranks that ask for work (on rank 0
 * itself when it is the only one): a new array of the n outcomes, item
 * i's at [i] (release it with cli_mpi_finish()), or NULL when a rank
 * could not go on (it named the item) or out of memory (reported).
 */
json_t **cli_mpi_map(const char *cmd, const char *const *items, size_t n,
                     cli_mpi_item_fn fn, void *arg);

/* Rank 0: `rc` to the workers (their cli_mpi_serve() returns it), then
 * MPI_Finalize.  Returns rc. */
int cli_mpi_end(int rc);

/* Rank 0, the end of the run: the outcomes out[0, n) of cli_mpi_map()
 * (NULL, or entries NULL, are fine) released, then cli_mpi_end(rc). */
int cli_mpi_finish(json_t **out, size_t n, int rc);

#endif
