/*
 * bench/bench_hpss.c - read an HPSS log or daily report REPS times with
 * tokio_hpss_open() (what the reference's from_file() does), or once and
 * write its JSON (as json.dumps of the reference's object) to stdout with
 * "--json".  Prints "records seconds" (CPU seconds per read: the machine
 * may be shared) on stderr for the bench script.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tokio/connectors/hpss.h"
#include "tokio/output.h"

static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
    struct tokio_hpss *h = NULL;
    int json = argc == 3 && strcmp(argv[2], "--json") == 0;
    long reps = argc == 3 && !json ? atol(argv[2]) : 1;
    size_t n = 0;

    if (argc < 2 || argc > 3 || reps < 1) {
        fprintf(stderr, "usage: bench_hpss FILE [REPS | --json]\n");
        return 2;
    }
    double t0 = now();
    for (long i = 0; i < reps; i++) {
        tokio_hpss_free(h);
        if (tokio_hpss_open(&h, argv[1], TOKIO_HPSS_AUTO) < 0) {
            fprintf(stderr, "%s\n", tokio_errmsg());
            return 1;
        }
    }
    if (json) {
        json_t *j = NULL;
        if (tokio_hpss_to_json(h, &j) < 0 ||
            tokio_json_write(j, stdout, TOKIO_JSON_SORT_KEYS |
                                        TOKIO_JSON_INDENT(4)) < 0) {
            fprintf(stderr, "%s\n", tokio_errmsg());
            return 1;
        }
        json_decref(j);
    }
    n = tokio_hpss_count(h, "hsi") + tokio_hpss_count(h, "htar") +
        tokio_hpss_count(h, "ftp") + tokio_hpss_count(h, "pftp");
    fprintf(stderr, "%zu %.6f\n", n, (now() - t0) / (double)reps);
    tokio_hpss_free(h);
    return 0;
}
