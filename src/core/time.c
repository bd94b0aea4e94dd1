/*
 * src/core/time.c - parsing and formatting timestamps.
 *
 * Inside libtokio a time is int64 seconds since the epoch.  Text without a
 * zone is local time as TZ defines it, which is how the reference reads
 * every date it is given (naive datetime objects fed to time.mktime()).
 *
 * Wall-clock fields are turned into an instant here rather than by
 * mktime(3) because glibc's mktime resolves an ambiguous local time (the
 * repeated hour when DST ends) from a cache of the last offset it saw, so
 * the answer depends on what the process did before.  We resolve it the
 * way Python's datetime does with fold=0 (PEP 495): the offset in effect
 * before the transition, i.e. the first of two repeated times, and a time
 * that the spring-forward gap skips is read with the pre-gap offset (which
 * is also what mktime gives for a gap).
 */
/* strptime(3) is X/Open, not POSIX.1 base */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif

#include "tokio/time.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "core/localtime.h"

/*
 * Years outside this range are refused before any arithmetic, so that
 * year * 366 * 86400 and friends can never overflow int64 or tm_year.
 */
#define YEAR_MIN (-1000000)
#define YEAR_MAX 1000000

#define PARSE_FORMATS                                                       \
    "YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS[.frac]][Z|+HH:MM|+HHMM] "            \
    "(a space may replace T), or @EPOCH"

static int
is_leap(int64_t year)
{
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

static int
days_in_month(int64_t year, int mon)
{
    static const int days[12] = { 31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31 };

    return mon == 2 && is_leap(year) ? 29 : days[mon - 1];
}

/*
 * Seconds of wall-clock fields as if they were UTC ("naive seconds"),
 * normalizing out-of-range fields the way mktime(3) does.  timegm(3)
 * would do, but it reports overflow as -1, a valid answer.
 */
static int
naive_seconds(int64_t year, int64_t mon, int64_t mday, int64_t hour,
              int64_t min, int64_t sec, int64_t *out)
{
    /* month 0-based, carried into the year by floor division */
    int64_t m0 = mon - 1;
    int64_t carry = m0 >= 0 ? m0 / 12 : -((11 - m0) / 12);
    year += carry;
    m0 -= 12 * carry;
    if (year < YEAR_MIN || year > YEAR_MAX)
        return -1;

    /* days from 1970-01-01 to year-(m0+1)-01: Howard Hinnant's algorithm */
    int64_t y = m0 < 2 ? year - 1 : year;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t mp = (m0 + 10) % 12;            /* March = 0 */
    int64_t doy = (153 * mp + 2) / 5;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    int64_t days = era * 146097 + doe - 719468 + (mday - 1);

    *out = days * 86400 + hour * 3600 + min * 60 + sec;
    return 0;
}

/* UTC offset (seconds east) of local time at instant `t`. */
static int
local_offset(int64_t t, long *off_out)
{
    time_t tt = (time_t)t;
    struct tm tm;

    if ((int64_t)tt != t || localtime_r(&tt, &tm) == NULL)
        return -1;
    *off_out = tm.tm_gmtoff;
    return 0;
}

/*
 * The instant whose local wall clock reads `naive`.  The offsets a day
 * before and after bracket any transition near it (zones change offset at
 * most once in two days); a candidate is right when the offset at the
 * instant it names is the one it assumed.
 */
static int
local_to_epoch(int64_t naive, int64_t *epoch_out)
{
    long before, after;

    if (local_offset(naive - 86400, &before) < 0
        || local_offset(naive + 86400, &after) < 0)
        return -1;

    int64_t t_before = naive - before, t_after = naive - after;
    long check;
    int ok_before = local_offset(t_before, &check) == 0 && check == before;
    int ok_after = local_offset(t_after, &check) == 0 && check == after;

    if (ok_before && ok_after)
        *epoch_out = t_before < t_after ? t_before : t_after;
    else if (ok_after)
        *epoch_out = t_after;
    else
        *epoch_out = t_before;  /* valid, or in a gap: pre-gap offset */
    return 0;
}

int
tokio_time_from_local(int year, int mon, int mday, int hour, int min,
                      int sec, int64_t *epoch_out)
{
    int64_t naive;

    if (epoch_out == NULL)
        return tokio__error(TOKIO_EINVAL, "time_from_local: no output");
    tzset();
    if (naive_seconds(year, mon, mday, hour, min, sec, &naive) < 0
        || local_to_epoch(naive, epoch_out) < 0)
        return tokio__error(TOKIO_EINVAL,
                            "%04d-%02d-%02d %02d:%02d:%02d: out of range",
                            year, mon, mday, hour, min, sec);
    return TOKIO_OK;
}

int
tokio__local_epoch(struct tokio__local_days *cache, int year, int mon,
                   int mday, int hour, int min, int sec, int64_t *epoch_out)
{
    int64_t naive, day, epoch;
    long off, before, after;
    size_t slot;

    if (naive_seconds(year, mon, mday, hour, min, sec, &naive) < 0)
        return tokio__error(TOKIO_EINVAL,
                            "%04d-%02d-%02d %02d:%02d:%02d: out of range",
                            year, mon, mday, hour, min, sec);
    day = naive >= 0 ? naive / 86400 : -((86399 - naive) / 86400);
    slot = (size_t)day & (TOKIO_LOCAL_DAYS - 1);
    if (cache->day[slot] == day + 1) {
        *epoch_out = naive - cache->off[slot];
        return TOKIO_OK;
    }
    if (tokio_time_from_local(year, mon, mday, hour, min, sec, &epoch) < 0)
        return TOKIO_EINVAL;
    *epoch_out = epoch;
    off = (long)(naive - epoch);
    if (local_offset(epoch - 2 * 86400, &before) == 0 && before == off &&
        local_offset(epoch + 2 * 86400, &after) == 0 && after == off) {
        cache->day[slot] = day + 1;
        cache->off[slot] = off;
    }
    return TOKIO_OK;
}

/* Exactly `n` ASCII digits at *p, advancing past them. */
static int
digits(const char **p, int n, int *out)
{
    int v = 0;

    for (int i = 0; i < n; i++) {
        if ((*p)[i] < '0' || (*p)[i] > '9')
            return -1;
        v = v * 10 + ((*p)[i] - '0');
    }
    *p += n;
    *out = v;
    return 0;
}

/* "@EPOCH": optional sign, then decimal digits, nothing else */
static int
parse_epoch(const char *s, int64_t *out)
{
    char *end;

    if (*s != '-' && *s != '+' && (*s < '0' || *s > '9'))
        return -1;
    if ((*s == '-' || *s == '+') && (s[1] < '0' || s[1] > '9'))
        return -1;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

/* "Z", "+HH:MM", "+HHMM" (or "-"); *p at the sign.  Seconds east. */
static int
parse_zone(const char *p, long *off_out)
{
    int hh, mm, sign;

    if (p[0] == 'Z' && p[1] == '\0') {
        *off_out = 0;
        return 0;
    }
    if (*p != '+' && *p != '-')
        return -1;
    sign = *p++ == '-' ? -1 : 1;
    if (digits(&p, 2, &hh) < 0)
        return -1;
    if (*p == ':')
        p++;
    if (digits(&p, 2, &mm) < 0 || *p != '\0' || hh > 23 || mm > 59)
        return -1;
    *off_out = sign * (hh * 3600L + mm * 60L);
    return 0;
}

/* The date forms; -1 on any mismatch or out-of-range field. */
static int
parse_iso(const char *p, int64_t *epoch_out)
{
    int year, mon, mday, hour = 0, min = 0, sec = 0;
    int have_zone = 0;
    long off = 0;

    if (digits(&p, 4, &year) < 0 || *p++ != '-'
        || digits(&p, 2, &mon) < 0 || *p++ != '-'
        || digits(&p, 2, &mday) < 0)
        return -1;
    if (mon < 1 || mon > 12 || mday < 1 || mday > days_in_month(year, mon))
        return -1;
    if (*p == 'T' || *p == ' ') {
        p++;
        if (digits(&p, 2, &hour) < 0 || *p++ != ':'
            || digits(&p, 2, &min) < 0)
            return -1;
        if (*p == ':') {
            p++;
            if (digits(&p, 2, &sec) < 0)
                return -1;
            /* fractions are dropped: times here are whole seconds */
            if (*p == '.') {
                if (p[1] < '0' || p[1] > '9')
                    return -1;
                for (p++; *p >= '0' && *p <= '9'; p++)
                    ;
            }
        }
        /* 60 would be a leap second, which neither Python nor POSIX
         * time can represent */
        if (hour > 23 || min > 59 || sec > 59)
            return -1;
        if (*p != '\0') {
            if (parse_zone(p, &off) < 0)
                return -1;
            have_zone = 1;
        }
    } else if (*p != '\0') {
        return -1;
    }

    int64_t naive;
    if (naive_seconds(year, mon, mday, hour, min, sec, &naive) < 0)
        return -1;
    if (have_zone) {
        *epoch_out = naive - off;
        return 0;
    }
    tzset();
    return local_to_epoch(naive, epoch_out);
}

int
tokio_time_parse(const char *text, int64_t *epoch_out)
{
    int64_t t;
    int rc;

    if (text == NULL || epoch_out == NULL)
        return tokio__error(TOKIO_EINVAL, "time_parse: no text or output");
    rc = text[0] == '@' ? parse_epoch(text + 1, &t) : parse_iso(text, &t);
    if (rc < 0)
        return tokio__error(TOKIO_EINVAL,
                            "'%s' is not a valid time; expected " PARSE_FORMATS,
                            text);
    *epoch_out = t;
    return TOKIO_OK;
}

int
tokio_time_parse_format(const char *text, const char *format,
                        int64_t *epoch_out)
{
    /* Python's strptime fills what the format leaves out with 1900-01-01
     * 00:00:00; tm_gmtoff stays LONG_MIN unless %z or %s set a zone */
    struct tm tm = { .tm_year = 0, .tm_mon = 0, .tm_mday = 1,
                     .tm_gmtoff = LONG_MIN };
    int64_t naive, t;

    if (text == NULL || format == NULL || epoch_out == NULL)
        return tokio__error(TOKIO_EINVAL,
                            "time_parse_format: no text, format or output");
    const char *rest = strptime(text, format, &tm);
    if (rest == NULL || *rest != '\0')
        return tokio__error(TOKIO_EINVAL,
                            "'%s' does not match the time format '%s'",
                            text, format);
    /* strptime takes any day 1..31 for any month; Python does not */
    int64_t year = (int64_t)tm.tm_year + 1900;
    if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_sec > 59
        || tm.tm_mday > days_in_month(year, tm.tm_mon + 1))
        return tokio__error(TOKIO_EINVAL,
                            "'%s' (format '%s'): field out of range",
                            text, format);
    if (naive_seconds(year, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                      tm.tm_min, tm.tm_sec, &naive) < 0)
        return tokio__error(TOKIO_EINVAL, "'%s': year out of range", text);
    if (tm.tm_gmtoff != LONG_MIN) {
        t = naive - tm.tm_gmtoff;
    } else {
        tzset();
        if (local_to_epoch(naive, &t) < 0)
            return tokio__error(TOKIO_EINVAL, "'%s': out of range", text);
    }
    *epoch_out = t;
    return TOKIO_OK;
}

int
tokio_time_format(char *buf, size_t size, int64_t epoch, const char *format)
{
    time_t tt = (time_t)epoch;
    struct tm tm;

    if (buf == NULL || format == NULL || size == 0)
        return tokio__error(TOKIO_EINVAL, "time_format: no buffer or format");
    buf[0] = '\0';
    tzset();
    if ((int64_t)tt != epoch || localtime_r(&tt, &tm) == NULL)
        return tokio__error(TOKIO_EINVAL, "time %lld is out of range",
                            (long long)epoch);
    if (format[0] == '\0' || strftime(buf, size, format, &tm) > 0)
        return TOKIO_OK;

    /*
     * strftime() returns 0 both when the result does not fit and when it
     * is empty (e.g. "%p" in some locales).  A format that cannot be empty
     * tells them apart: the result of "FORMAT|" is at least "|".
     */
    char probe[2];
    size_t flen = strlen(format);
    char fmt_bar[256];
    if (flen + 2 > sizeof(fmt_bar))
        return tokio__error(TOKIO_EINVAL,
                            "formatting '%s' does not fit in %zu bytes",
                            format, size);
    memcpy(fmt_bar, format, flen);
    memcpy(fmt_bar + flen, "|", 2);
    if (strftime(probe, sizeof(probe), fmt_bar, &tm) == 1) {
        buf[0] = '\0';   /* the result really is empty */
        return TOKIO_OK;
    }
    buf[0] = '\0';
    return tokio__error(TOKIO_EINVAL,
                        "formatting '%s' does not fit in %zu bytes",
                        format, size);
}

int
tokio_time_to_iso(char *buf, size_t size, int64_t epoch)
{
    return tokio_time_format(buf, size, epoch, "%Y-%m-%dT%H:%M:%S");
}
