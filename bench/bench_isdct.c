/*
 * bench/bench_isdct.c - read an ISDCT dump (src/connectors/nersc_isdct.c)
 * `repeat` times in one process, as the reference's NerscIsdct(path) does
 * (read, recast, synthesize; nothing written), so that the small sample
 * is timed without process start-up.  Prints "drives cpu_seconds" (CPU
 * time of one read: the loop's divided by `repeat`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tokio/connectors/nersc_isdct.h"

int
main(int argc, char **argv)
{
    size_t count = 0;
    clock_t start;
    int repeat;

    if (argc != 3 || (repeat = atoi(argv[1])) < 1) {
        fprintf(stderr, "usage: bench_isdct REPEAT DUMP\n");
        return 2;
    }
    start = clock();
    for (int r = 0; r < repeat; r++) {
        struct tokio_nersc_isdct *d = NULL;

        if (tokio_nersc_isdct_open(&d, argv[2]) < 0) {
            fprintf(stderr, "%s\n", tokio_errmsg());
            return 1;
        }
        count = tokio_nersc_isdct_count(d);
        tokio_nersc_isdct_free(d);
    }
    printf("%zu %.5f\n", count,
           (double)(clock() - start) / CLOCKS_PER_SEC / repeat);
    return 0;
}
