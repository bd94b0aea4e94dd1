/*
 * bench/bench_insights.c - the driver bench/bench-insights.sh times:
 *
 *   bench_insights client N LOG...
 *       per log, the median of N in-process runs of the client side of
 *       `tokio insights` (tokio_insights_log() on the log alone), and of
 *       reading the same modules of the log with nothing done to them
 *       (the floor the rules add to), in milliseconds.
 *   bench_insights rss read|insights LOG
 *       one run of either, then this process's peak RSS in KiB.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "tokio/analysis/insights.h"
#include "tokio/connectors/darshan.h"

/* The modules the rules read (src/analysis/insights_darshan.c). */
#define MODULES                                                             \
    (TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_POSIX) |                        \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_MPIIO) |                        \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_H5F) |                          \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_H5D) |                          \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_PNETCDF_VAR) |                  \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_LUSTRE) |                       \
     TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_STDIO))

static double
now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int
read_only(const char *path)
{
    const struct tokio_darshan_select sel = { .modules = MODULES };
    struct tokio_darshan *log = NULL;
    int rc = tokio_darshan_open_select(&log, path, &sel);

    tokio_darshan_free(log);
    return rc < 0 ? rc : 0;
}

static int
client(const char *path)
{
    struct tokio_insights_opts o = { 0 };
    json_t *res = NULL;
    int rc;

    o.client_only = 1;
    rc = tokio_insights_log(&res, NULL, path, NULL, &o);
    json_decref(res);
    return rc;
}

static int
cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static double
median_ms(int (*fn)(const char *), const char *path, long n, int *rc)
{
    double *t = calloc((size_t)n, sizeof(*t)), m;

    for (long i = 0; i < n; i++) {
        double t0 = now_ms();
        *rc = fn(path);
        t[i] = now_ms() - t0;
        if (*rc < 0)
            break;
    }
    qsort(t, (size_t)n, sizeof(*t), cmp);
    m = t[n / 2];
    free(t);
    return m;
}

int
main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "client") == 0) {
        long n = atol(argv[2]);
        if (n < 1)
            n = 1;
        for (int i = 3; i < argc; i++) {
            int rc = 0;
            double read = median_ms(read_only, argv[i], n, &rc);
            if (rc < 0) {
                printf("%-60s (not a log the reader accepts)\n", argv[i]);
                continue;
            }
            double all = median_ms(client, argv[i], n, &rc);
            const char *base = strrchr(argv[i], '/');
            printf("%-60s %8.3f ms  (reading alone %8.3f ms)\n",
                   base ? base + 1 : argv[i], all, read);
        }
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "rss") == 0) {
        struct rusage ru;
        int rc = strcmp(argv[2], "read") == 0 ? read_only(argv[3])
                                              : client(argv[3]);
        if (rc < 0) {
            fprintf(stderr, "bench_insights: %s\n", tokio_errmsg());
            return 1;
        }
        getrusage(RUSAGE_SELF, &ru);
        printf("%ld\n", ru.ru_maxrss);
        return 0;
    }
    fprintf(stderr, "usage: bench_insights client N LOG... | "
            "rss read|insights LOG\n");
    return 2;
}
