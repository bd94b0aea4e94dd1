/*
 * fuzz/fuzz_darshan_filename.c - the Darshan log name parser
 * (tokio_darshan_parse_filename) on arbitrary bytes, cut at the first NUL
 * as a C string is.  Seeds: fuzz/corpus/darshan_filename/.
 *
 * Besides not crashing, a successful parse must hand back fields that are
 * pieces of the name: the user holds no '_' or '/', the exe no '/', and
 * the job id is all digits.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tokio/tools/darshan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *name = malloc(size + 1);
    struct tokio_darshan_filename *f = NULL;

    if (name == NULL)
        return 0;
    memcpy(name, data, size);
    name[size] = '\0';
    if (tokio_darshan_parse_filename(&f, name) >= 0) {
        if (f->username[0] == '\0'
            || strcspn(f->username, "_/") != strlen(f->username)
            || strchr(f->exename, '/') != NULL
            || f->jobid[0] == '\0'
            || strspn(f->jobid, "0123456789") != strlen(f->jobid)
            || strstr(name, f->username) == NULL
            || strstr(name, f->exename) == NULL)
            abort();
        tokio_darshan_filename_free(f);
    }
    free(name);
    return 0;
}
