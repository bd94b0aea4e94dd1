/*
 * fuzz/fuzz_collection.c - libFuzzer target for the tar walk.
 *
 * Bytes → tokio__walk_archive_mem (the archive half of
 * tokio_walk_file_collection, without a file) → each member's bytes read
 * to their NUL, and every third member also read as a compressed input.
 * Members are capped at 1 MiB so a small input cannot ask for gigabytes.
 */
#include <stddef.h>
#include <stdint.h>

#include "core/collection.h"
#include "tokio/input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where the bytes read are summed, so the reads cannot be optimised away
 * and ASan checks each one. */
static volatile size_t sink;

#define FUZZ_MEMBER_MAX ((size_t)1 << 20)

struct tally {
    size_t members, sum;
};

static int
visit(const struct tokio_collection_member *m, void *payload)
{
    struct tally *t = payload;
    struct tokio_input *in;
    const char *line;

    for (size_t i = 0; i <= m->len; i++)
        t->sum += m->data[i];
    for (const char *p = m->name; *p != '\0'; p++)
        t->sum += (unsigned char)*p;
    if (t->members++ % 3 == 0
        && tokio_input_open_mem(&in, m->data, m->len, m->name) == TOKIO_OK) {
        while (tokio_input_getline(in, &line, NULL) == TOKIO_OK
               && line != NULL)
            t->sum++;
        tokio_input_close(in);
    }
    return TOKIO_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tally t = { 0, 0 };

    tokio__walk_archive_mem(data, size, "fuzz.tar", FUZZ_MEMBER_MAX, visit,
                            &t);
    sink = t.sum;
    return 0;
}
