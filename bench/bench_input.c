/*
 * bench/bench_input.c - count the lines of a (possibly compressed) file
 * through tokio_input_getline(), the path every text connector reads by.
 * Prints "lines bytes" so the bench script can check both sides agree.
 */
#include <stdio.h>

#include "tokio/input.h"

int
main(int argc, char **argv)
{
    struct tokio_input *in;
    const char *line;
    size_t len, lines = 0, bytes = 0;
    int rc;

    if (argc != 2) {
        fprintf(stderr, "usage: bench_input FILE\n");
        return 2;
    }
    if (tokio_input_open(&in, argv[1]) < 0) {
        fprintf(stderr, "%s\n", tokio_errmsg());
        return 1;
    }
    while ((rc = tokio_input_getline(in, &line, &len)) == TOKIO_OK &&
           line != NULL) {
        lines++;
        bytes += len;
    }
    tokio_input_close(in);
    if (rc < 0) {
        fprintf(stderr, "%s\n", tokio_errmsg());
        return 1;
    }
    printf("%zu %zu\n", lines, bytes);
    return 0;
}
