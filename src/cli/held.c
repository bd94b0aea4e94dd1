/*
 * src/cli/held.c - unreadable logs held back while none was read
 * (held.h).
 */
#include "cli/held.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void
cli_held_read(struct cli_held *h)
{
    if (h->any_read)
        return;
    h->any_read = 1;
    if (!h->quiet && h->n > 0)
        cli_progress_clear(h->bar);
    for (size_t i = 0; i < h->n; i++) {
        if (!h->quiet)
            fprintf(stderr, "tokio %s: warning: %s%s\n", h->cmd,
                    h->skipping, h->lines[i]);
        free(h->lines[i]);
    }
    free(h->lines);
    h->lines = NULL;
    h->n = 0;
}

void
cli_held_skip(struct cli_held *h, const char *fmt, ...)
{
    va_list ap;

    if (!h->any_read) {
        char *line = NULL, **more;
        va_start(ap, fmt);
        int len = vsnprintf(NULL, 0, fmt, ap);
        va_end(ap);
        if (len >= 0 && (line = malloc((size_t)len + 1)) != NULL &&
            (more = realloc(h->lines, (h->n + 1) * sizeof(*more))) != NULL) {
            va_start(ap, fmt);
            vsnprintf(line, (size_t)len + 1, fmt, ap);
            va_end(ap);
            h->lines = more;
            h->lines[h->n++] = line;
            return;
        }
        free(line);     /* out of memory: say it now */
    }
    if (h->quiet)
        return;
    cli_progress_clear(h->bar);
    fprintf(stderr, "tokio %s: warning: %s", h->cmd, h->skipping);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void
cli_held_fail(const struct cli_held *h)
{
    for (size_t i = 0; i < h->n; i++)
        fprintf(stderr, "tokio %s: error: %s\n", h->cmd, h->lines[i]);
}

void
cli_held_free(struct cli_held *h)
{
    for (size_t i = 0; i < h->n; i++)
        free(h->lines[i]);
    free(h->lines);
    h->lines = NULL;
    h->n = 0;
}
