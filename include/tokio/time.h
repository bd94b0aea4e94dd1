/*
 * tokio/time.h - timestamps.
 *
 * Convention: times inside libtokio are int64 seconds since the epoch
 * (UTC).  Text without a zone (command-line dates, LMT, Slurm, mmperfmon,
 * file-name templates) is local time as the TZ environment variable
 * defines it, exactly as the reference treats it; text with a zone
 * ("Z", "+01:00") means that zone.
 */
#ifndef TOKIO_TIME_H
#define TOKIO_TIME_H

#include <stddef.h>
#include <stdint.h>

#include "tokio/common.h"

/**
 * Parse a date argument: "YYYY-MM-DDTHH:MM:SS", "YYYY-MM-DD HH:MM:SS",
 * "YYYY-MM-DDTHH:MM", "YYYY-MM-DD" (midnight), each optionally followed
 * by fractional seconds (dropped) and a zone ("Z", "+HH:MM", "+HHMM");
 * or "@EPOCH".
 * @return TOKIO_OK, TOKIO_EINVAL (message quotes the text and the formats).
 */
TOKIO_API int tokio_time_parse(const char *text, int64_t *epoch_out);

/**
 * Parse `text` with a strptime(3) `format` as local time; all of `text`
 * must be consumed.  @return TOKIO_OK or TOKIO_EINVAL.
 */
TOKIO_API int tokio_time_parse_format(const char *text, const char *format,
                                      int64_t *epoch_out);

/**
 * strftime(3) of `epoch` in local time (GNU extensions such as %-d
 * included).  @return TOKIO_OK, TOKIO_EINVAL (result does not fit).
 */
TOKIO_API int tokio_time_format(char *buf, size_t size, int64_t epoch,
                                const char *format);

/** "YYYY-MM-DDTHH:MM:SS" in local time (`size` >= 20). */
TOKIO_API int tokio_time_to_iso(char *buf, size_t size, int64_t epoch);

/** Local wall-clock fields to epoch (DST resolved as mktime(3) does). */
TOKIO_API int tokio_time_from_local(int year, int mon, int mday, int hour,
                                    int min, int sec, int64_t *epoch_out);

#endif
