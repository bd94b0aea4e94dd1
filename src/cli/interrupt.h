/*
 * src/cli/interrupt.h - SIGINT, SIGTERM and SIGHUP while a command talks
 * to a server: caught as a flag the library polls (struct
 * tokio_es_options.stop), so that it stops and frees what it holds on
 * the server (an Elasticsearch scroll context) first; then the signal
 * is raised again and ends the process as it would have.  The command's
 * temporary files are removed when the signal arrives, so an output being
 * written then is not committed (issue 17: archive-collectdes replaced
 * its output when interrupted while writing it).
 */
#ifndef TOKIO_CLI_INTERRUPT_H
#define TOKIO_CLI_INTERRUPT_H

#include <signal.h>

/* Set by the handlers cli_interrupt_catch() installs. */
extern volatile sig_atomic_t cli_interrupted;

/* Catch the three signals into cli_interrupted until
 * cli_interrupt_release(). */
void cli_interrupt_catch(void);

/* Put the previous handlers back; if a signal was caught, raise it. */
void cli_interrupt_release(void);

#endif
