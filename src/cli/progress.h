/*
 * src/cli/progress.h - one progress line on stderr for long runs
 * (index-darshanlogs, summarize-darshanlogs): items done of the total,
 * the rate and the time left, redrawn at most ten times a second, and
 * only when stderr is a terminal, so cron jobs and pipes see nothing.
 */
#ifndef TOKIO_CLI_PROGRESS_H
#define TOKIO_CLI_PROGRESS_H

#include <stddef.h>

struct cli_progress {
    const char *unit;           /* "logs" */
    int on;                     /* stderr is a terminal and not quiet */
    int shown;                  /* a line is on the screen */
    double t0, last;
};

/* Start: on only when `enabled` and stderr is a terminal. */
void cli_progress_start(struct cli_progress *p, const char *unit,
                        int enabled);

/* `done` of `total` items; the first `skipped` of them took no time (they
 * were done before, as logs already indexed), so the rate leaves them
 * out.  The last update (done == total) always shows. */
void cli_progress_update(struct cli_progress *p, size_t done, size_t total,
                         size_t skipped);

/* Erase the line, before a message or at the end. */
void cli_progress_clear(struct cli_progress *p);

#endif
