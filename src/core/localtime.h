/*
 * src/core/localtime.h - local wall-clock time to epoch, fast, for
 * parsers that convert a timestamp on every line of a log.
 */
#ifndef TOKIO_CORE_LOCALTIME_H
#define TOKIO_CORE_LOCALTIME_H

#include <stdint.h>

/*
 * The UTC offsets of recently seen local days, in a slot chosen by the
 * day, so logs concatenated out of order still hit.  Zero it before use;
 * one per parser (not thread-safe).
 */
#define TOKIO_LOCAL_DAYS 64
struct tokio__local_days {
    int64_t day[TOKIO_LOCAL_DAYS];  /* naive day number + 1; 0: empty */
    long off[TOKIO_LOCAL_DAYS];
};

/*
 * tokio_time_from_local() with a cache: a day's offset is kept only when
 * the offsets two days either side agree with it (zones change offset at
 * most once in two days), so days with a transition are always asked
 * afresh and give exactly what tokio_time_from_local() gives.
 * @return TOKIO_OK, or TOKIO_EINVAL (fields out of range).
 */
int tokio__local_epoch(struct tokio__local_days *cache, int year, int mon,
                       int mday, int hour, int min, int sec,
                       int64_t *epoch_out);

#endif
