/*
 * fuzz/fuzz_insights.c - bytes -> a Darshan log file -> the client-side
 * findings of `tokio insights` (tokio_insights_log(), the log alone) ->
 * their text and CSV forms -> free.  The rules read every counter as it
 * comes: negative, huge or NaN counters, ranks beyond the job's, Lustre
 * records without OSTs must give findings or a clean failure, never a
 * crash.  The reader takes a path, so each input is written to one
 * temporary file first.  Seeds: fuzz/corpus/insights/README.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tokio/analysis/insights.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[] = "/tmp/fuzz_insights_XXXXXX";
    static int fd = -1;
    struct tokio_insights_opts o = { 0 };
    json_t *res = NULL, *list;
    FILE *null;

    if (fd < 0 && (fd = mkstemp(path)) < 0)
        abort();
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
        abort();
    o.client_only = 1;
    o.top = 3;
    if (tokio_insights_log(&res, NULL, path, NULL, &o) < 0)
        return 0;
    if ((null = fopen("/dev/null", "w")) == NULL)
        abort();
    tokio_insights_write_text(null, res, 1);
    list = json_pack("[O]", res);
    tokio_insights_write_csv(null, list);
    fclose(null);
    json_decref(list);
    json_decref(res);
    return 0;
}
