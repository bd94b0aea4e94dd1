/*
 * src/core/error.c - the per-thread last error.
 *
 * A status and a message live in thread-local storage so that concurrent
 * callers (index-darshanlogs' worker threads) never see each other's
 * messages.  Messages longer than the buffer are cut, never overflowed.
 */
#include "tokio/common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"

#define ERRMSG_SIZE 1024

static _Thread_local char errmsg[ERRMSG_SIZE];
static _Thread_local int errcode;

int
tokio__error(int status, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(errmsg, sizeof(errmsg), fmt, ap);
    va_end(ap);
    errcode = status;
    return status;
}

int
tokio__error_prefix(const char *fmt, ...)
{
    char old[ERRMSG_SIZE];
    va_list ap;

    memcpy(old, errmsg, sizeof(old));
    va_start(ap, fmt);
    int n = vsnprintf(errmsg, sizeof(errmsg), fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    /* cut, never overflow, when the two together are too long */
    size_t used = (size_t)n < sizeof(errmsg) ? (size_t)n : sizeof(errmsg) - 1;
    size_t room = sizeof(errmsg) - used;
    size_t oldlen = strlen(old);
    if (room > 2) {
        memcpy(errmsg + used, ": ", 2);
        used += 2;
        room -= 2;
        size_t take = oldlen < room - 1 ? oldlen : room - 1;
        memcpy(errmsg + used, old, take);
        used += take;
    }
    errmsg[used] = '\0';
    return errcode;
}

const char *
tokio_errmsg(void)
{
    return errmsg;
}

int
tokio_errcode(void)
{
    return errcode;
}

void
tokio_errclear(void)
{
    errmsg[0] = '\0';
    errcode = TOKIO_OK;
}

const char *
tokio_version(void)
{
    return TOKIO_VERSION;
}

/* What tokio__write_check() and _cause() share: `cause` 0 means unknown
 * (then found by one more flush, when the stream has failed). */
static int
write_failed(FILE *fp, int cause, const char *fmt, va_list ap)
{
    char what[ERRMSG_SIZE];

    if (cause == 0 && !ferror(fp))
        return TOKIO_OK;
    if (cause == 0) {
        errno = 0;
        (void)fflush(fp);
        cause = errno != 0 ? errno : EIO;
    }
    vsnprintf(what, sizeof(what), fmt, ap);
    return tokio__error(TOKIO_EIO, "%s: %s", what, strerror(cause));
}

int
tokio__write_check(FILE *fp, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    int rc = write_failed(fp, 0, fmt, ap);
    va_end(ap);
    return rc;
}

int
tokio__write_check_cause(FILE *fp, int cause, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    int rc = write_failed(fp, cause, fmt, ap);
    va_end(ap);
    return rc;
}
