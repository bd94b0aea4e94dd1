/*
 * src/cli/held.h - the logs a long run could not read, held back while it
 * has read none (index-darshanlogs, summarize-darshanlogs): when none
 * can be read, each is an error line after all; once one is, each held
 * one, and every later one, is a warning that it was skipped.
 */
#ifndef TOKIO_CLI_HELD_H
#define TOKIO_CLI_HELD_H

#include <stddef.h>

#include "cli/progress.h"

struct cli_held {
    const char *cmd;
    const char *skipping;       /* the warning's words before a line */
    int quiet;                  /* no warnings (the errors still show) */
    struct cli_progress *bar;   /* cleared before any message */
    char **lines;               /* held back: free() each */
    size_t n;
    int any_read;
};

/* A log was read: the held ones were only skipped, warned now. */
void cli_held_read(struct cli_held *h);

/* A log skipped, the printf-style line naming it and why: held back while
 * no log was read (or when out of memory said at once), else a warning. */
void cli_held_skip(struct cli_held *h, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* No log could be read: "tokio CMD: error: LINE" for each held one. */
void cli_held_fail(const struct cli_held *h);

/* Free the held lines. */
void cli_held_free(struct cli_held *h);

#endif
