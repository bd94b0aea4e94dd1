/*
 * src/core/error.h - recording failures for tokio_errmsg().
 */
#ifndef TOKIO_CORE_ERROR_H
#define TOKIO_CORE_ERROR_H

#include <stdio.h>

#include "tokio/common.h"

/*
 * Record `status` and a printf-style message for this thread and return
 * `status`, so a function fails in one line:
 *     return tokio__error(TOKIO_EFORMAT, "'%s' line %zu: ...", path, n);
 */
int tokio__error(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Put "CONTEXT: " in front of the current message, keeping its status, and
 * return that status.  Used where a lower layer knew what failed but not
 * for which input (e.g. the config loader names the file a parse was for).
 */
int tokio__error_prefix(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/*
 * TOKIO_OK while writing to `fp` has not failed; else record TOKIO_EIO
 * with the printf-style message, ": " and the cause ("No space left on
 * device"), and return it.  The cause is found by flushing once more: a
 * stream that failed to write keeps those bytes, and trying them again
 * fails the same way (errno from the first failure is long overwritten).
 */
int tokio__write_check(FILE *fp, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* tokio__write_check(), reporting `cause` (an errno noted when the write
 * failed) when it is not 0. */
int tokio__write_check_cause(FILE *fp, int cause, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
