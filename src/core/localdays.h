/*
 * src/core/localdays.h - a per-thread cache of local days' UTC offsets
 * (see localtime.h) that outlives one parse, for parsers opened many
 * times on small inputs (one log a day), where filling a fresh cache
 * costs more than the parse.
 */
#ifndef TOKIO_CORE_LOCALDAYS_H
#define TOKIO_CORE_LOCALDAYS_H

#include "core/localtime.h"

/*
 * The calling thread's cache, emptied first when $TZ differs from the
 * last call's (offsets depend on the zone and nothing else).  Valid until
 * the thread's next call; one parse at a time per thread.
 */
struct tokio__local_days *tokio__local_days_cached(void);

#endif
