/*
 * src/cli/progress.c - the progress line of long runs (progress.h).
 */
#include "cli/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double
now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
cli_progress_start(struct cli_progress *p, const char *unit, int enabled)
{
    p->unit = unit;
    p->on = enabled && isatty(STDERR_FILENO);
    p->shown = 0;
    p->t0 = now();
    p->last = 0.0;
}

void
cli_progress_update(struct cli_progress *p, size_t done, size_t total,
                    size_t skipped)
{
    double t = now();

    if (!p->on || (done < total && t - p->last < 0.1))
        return;
    p->last = t;
    double secs = t - p->t0;
    double rate = secs > 0.0 && done > skipped
                  ? (double)(done - skipped) / secs : 0.0;
    fprintf(stderr, "\r\033[K%zu/%zu %s", done, total, p->unit);
    if (rate > 0.0) {
        double left = (double)(total - done) / rate;
        fprintf(stderr, ", %.1f/s, ", rate);
        if (left >= 3600.0)
            fprintf(stderr, "%dh%02dm left", (int)(left / 3600.0),
                    (int)(left / 60.0) % 60);
        else
            fprintf(stderr, "%dm%02ds left", (int)(left / 60.0),
                    (int)left % 60);
    }
    p->shown = 1;
    fflush(stderr);
}

void
cli_progress_clear(struct cli_progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->shown = 0;
    }
}
