/*
 * bench/bench_mmperfmon.c - read mmperfmon inputs (src/connectors/
 * mmperfmon.c) and write their JSON to /dev/null, `repeat` times in one
 * process, so that small samples are timed without process start-up.
 * Prints "timestamps cpu_seconds" (CPU time of the whole loop).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tokio/connectors/mmperfmon.h"
#include "tokio/output.h"

int
main(int argc, char **argv)
{
    FILE *null = fopen("/dev/null", "w");
    size_t count = 0;
    clock_t start;
    int repeat;

    if (argc < 3 || (repeat = atoi(argv[1])) < 1 || null == NULL) {
        fprintf(stderr, "usage: bench_mmperfmon REPEAT INPUT...\n");
        return 2;
    }
    start = clock();
    for (int r = 0; r < repeat; r++) {
        struct tokio_mmperfmon *m = NULL;
        json_t *json = NULL;
        int rc = tokio_mmperfmon_open(&m, argv[2]);

        for (int i = 3; rc >= 0 && i < argc; i++)
            rc = tokio_mmperfmon_add(m, argv[i]);
        if (rc >= 0 && (rc = tokio_mmperfmon_to_json(m, &json)) >= 0)
            rc = tokio_json_write(json, null, 0);
        count = json_object_size(json);
        json_decref(json);
        tokio_mmperfmon_free(m);
        if (rc < 0) {
            fprintf(stderr, "%s\n", tokio_errmsg());
            return 1;
        }
    }
    printf("%zu %.3f\n", count, (double)(clock() - start) / CLOCKS_PER_SEC);
    fclose(null);
    return 0;
}
