/*
 * src/core/localdays.c - the per-thread local days cache: see
 * localdays.h.
 */
#include "core/localdays.h"

#include <stdlib.h>
#include <string.h>

/* Longer zone names are not remembered: the cache is emptied each call. */
#define TZ_MAX 256

static _Thread_local struct tokio__local_days days;
static _Thread_local char zone[TZ_MAX];     /* of `days`; "": none */

struct tokio__local_days *
tokio__local_days_cached(void)
{
    const char *tz = getenv("TZ");
    char mark = tz ? '=' : '-';     /* zone[0]: set or unset */
    size_t len;

    if (tz == NULL)
        tz = "";
    len = strlen(tz);
    if (len + 2 > sizeof(zone) || zone[0] != mark ||
        strcmp(zone + 1, tz) != 0) {
        memset(&days, 0, sizeof(days));
        zone[0] = '\0';
        if (len + 2 <= sizeof(zone)) {
            zone[0] = mark;
            memcpy(zone + 1, tz, len + 1);
        }
    }
    return &days;
}
