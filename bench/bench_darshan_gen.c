/*
 * bench/bench_darshan_gen.c - Darshan logs of a chosen number of records,
 * made with the library's writer, for bench/bench-darshan-memory.sh:
 *
 *   bench_darshan_gen OUT RECORDS [FILES]
 *
 * writes OUT with RECORDS POSIX records: FILES files (default 1000, fewer
 * when RECORDS is smaller) on /scratch (lustre), each with RECORDS/FILES
 * ranks' records, and one LUSTRE record per file
 * (tokio_test_darshan_records_log(), tests/darshan_gen.c: the logs of the
 * scale tests too).  index-darshanlogs, summarize-darshanlogs and
 * darshan-bad-ost all have work to do; more records mean more ranks, not
 * more files.
 */
#include <stdio.h>
#include <stdlib.h>

#include "darshan_gen.h"

int
main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_darshan_gen OUT RECORDS [FILES]\n");
        return 2;
    }
    long long records = atoll(argv[2]);
    long long files = argc > 3 ? atoll(argv[3]) : 1000;
    if (records < 1 || files < 1) {
        fprintf(stderr, "bench_darshan_gen: RECORDS and FILES must be 1 "
                "or more\n");
        return 2;
    }
    if (tokio_test_darshan_records_log(argv[1], records, files) < 0) {
        fprintf(stderr, "bench_darshan_gen: %s\n", tokio_errmsg());
        return 1;
    }
    return 0;
}
