/*
 * tokio/common.h - what every public header needs: the export marker and
 * the status codes.
 */
#ifndef TOKIO_COMMON_H
#define TOKIO_COMMON_H

#if defined(TOKIO_BUILDING)
#define TOKIO_API __attribute__((visibility("default")))
#else
#define TOKIO_API
#endif

/*
 * Every library call that can fail returns one of these.  Test `rc < 0` for
 * failure; TOKIO_PARTIAL is success with a caveat the caller must pass on.
 * After a failure, tokio_errmsg() says what went wrong and where.
 */
enum tokio_status {
    TOKIO_PARTIAL   =  1,  /* usable but incomplete (truncated input) */
    TOKIO_OK        =  0,
    TOKIO_ERR       = -1,  /* anything without a code of its own */
    TOKIO_ENOMEM    = -2,
    TOKIO_EIO       = -3,  /* open/read/write/connect failed */
    TOKIO_EFORMAT   = -4,  /* input malformed, or not this format */
    TOKIO_ENOTFOUND = -5,  /* job, key, record or file absent */
    TOKIO_EINVAL    = -6   /* the caller passed a bad argument */
};

/**
 * The message of this thread's last failure, e.g.
 * "'site.json' line 3 column 5: unexpected '}'".  Borrowed: valid until
 * the next failing call on this thread.  Never NULL ("" if none).
 */
TOKIO_API const char *tokio_errmsg(void);

/** The status of this thread's last failure (TOKIO_OK if none). */
TOKIO_API int tokio_errcode(void);

/** Forget this thread's last failure. */
TOKIO_API void tokio_errclear(void);

/** The library's version, "MAJOR.MINOR.PATCH". */
TOKIO_API const char *tokio_version(void);

#endif
