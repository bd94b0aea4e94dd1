/*
 * src/core/error.h - recording failures for tokio_errmsg().
 */
#ifndef TOKIO_CORE_ERROR_H
#define TOKIO_CORE_ERROR_H

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

#endif
