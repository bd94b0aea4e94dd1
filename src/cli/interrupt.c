/*
 * src/cli/interrupt.c - signals caught as a flag during a network query
 * (see interrupt.h).
 */
#include "cli/interrupt.h"

#include <string.h>

#include "tokio/output.h"

volatile sig_atomic_t cli_interrupted;

static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction saved[3];

/* The flag, and no output committed after the signal: the temporaries
 * go now, so a write under way fails instead of replacing its target. */
static void
on_signal(int sig)
{
    cli_interrupted = sig;
    tokio_output_remove_temporaries();
}

void
cli_interrupt_catch(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < 3; i++)
        sigaction(sigs[i], &sa, &saved[i]);
}

void
cli_interrupt_release(void)
{
    for (size_t i = 0; i < 3; i++)
        sigaction(sigs[i], &saved[i], NULL);
    if (cli_interrupted)
        raise(cli_interrupted);
}
