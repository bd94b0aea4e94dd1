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

        if (tokio_mmperfmon_new(&m) < 0)
            goto fail;
        for (int i = 2; i < argc; i++)
            if (tokio_mmperfmon_load(m, argv[i]) < 0) {
                tokio_mmperfmon_free(m);
                goto fail;
            }
        if (tokio_mmperfmon_write_json(m, null) < 0) {
            tokio_mmperfmon_free(m);
            goto fail;
        }
        count = tokio_mmperfmon_count(m);
        tokio_mmperfmon_free(m);
    }
    printf("%zu %.3f\n", count, (double)(clock() - start) / CLOCKS_PER_SEC);
    fclose(null);
    return 0;
fail:
    fprintf(stderr, "%s\n", tokio_errmsg());
    return 1;
}
