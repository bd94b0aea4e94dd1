/*
 * src/core/run.h - running a site's command-line tools (sacct, xtdb2proc)
 * and collecting what they print.  Always an argument vector, never a
 * shell, so nothing in an argument is ever interpreted.
 */
#ifndef TOKIO_CORE_RUN_H
#define TOKIO_CORE_RUN_H

#include <stddef.h>

/*
 * Run `argv` (argv[0] looked up on PATH) with stdin from /dev/null and
 * collect its standard output, at most `max` bytes (0: the input
 * default).  Its standard error is kept only to quote the last line of a
 * complaint.  `tool` names the program for the "not installed" message
 * ("Slurm's 'sacct'").
 * @param[out] out      the output, NUL-ended (free()); NULL on failure.
 * @param[out] len_out  its length without the NUL.
 * @return TOKIO_OK; TOKIO_ENOTFOUND (argv[0] is not on PATH);
 *         TOKIO_EIO (cannot start it, killed, or non-zero exit status);
 *         TOKIO_ENOMEM (out of memory, or more than `max` bytes).
 */
int tokio__run_capture(const char *const *argv, const char *tool,
                       size_t max, char **out, size_t *len_out);

#endif
