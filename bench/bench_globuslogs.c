/*
 * bench/bench_globuslogs.c - read a Globus transfer log REPS times with
 * tokio_globuslogs_open() (what the reference's GlobusLog.from_file()
 * does), or with "--nersc" first a cache of NERSC's Elasticsearch pages
 * with tokio_nersc_globuslogs_open() (NerscGlobusLogs.from_cache() and
 * query()); or once and write its JSON (as json.dumps of the reference's
 * object, or its save_cache()) to stdout with "--json".  Prints "records
 * seconds" (CPU seconds per read: the machine may be shared) on stderr
 * for the bench script.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tokio/connectors/globuslogs.h"
#include "tokio/connectors/nersc_globuslogs.h"
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
    struct tokio_globuslogs *g = NULL;
    struct tokio_nersc_globuslogs *ng = NULL;
    int nersc = argc > 1 && strcmp(argv[1], "--nersc") == 0;
    int json, rc = 0;
    long reps;
    size_t n = 0;

    argc -= nersc;
    argv += nersc;
    json = argc == 3 && strcmp(argv[2], "--json") == 0;
    reps = argc == 3 && !json ? atol(argv[2]) : 1;
    if (argc < 2 || argc > 3 || reps < 1) {
        fprintf(stderr, "usage: bench_globuslogs [--nersc] FILE "
                "[REPS | --json]\n");
        return 2;
    }
    double t0 = now();
    for (long i = 0; i < reps && rc == 0; i++) {
        if (nersc) {
            tokio_nersc_globuslogs_free(ng);
            rc = tokio_nersc_globuslogs_open(&ng, argv[1]);
        } else {
            tokio_globuslogs_free(g);
            rc = tokio_globuslogs_open(&g, argv[1]);
        }
    }
    if (rc == 0 && json) {
        json_t *j = NULL;
        rc = nersc ? tokio_nersc_globuslogs_to_json(ng, &j)
                   : tokio_globuslogs_to_json(g, &j);
        if (rc == 0)
            rc = tokio_json_write(j, stdout, TOKIO_JSON_SORT_KEYS |
                                             TOKIO_JSON_INDENT(4));
        json_decref(j);
    }
    if (rc < 0) {
        fprintf(stderr, "%s\n", tokio_errmsg());
        return 1;
    }
    n = nersc ? tokio_nersc_globuslogs_count(ng) : tokio_globuslogs_count(g);
    fprintf(stderr, "%zu %.6f\n", n, (now() - t0) / (double)reps);
    tokio_globuslogs_free(g);
    tokio_nersc_globuslogs_free(ng);
    return 0;
}
