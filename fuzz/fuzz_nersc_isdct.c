/*
 * fuzz/fuzz_nersc_isdct.c - the NERSC ISDCT reader
 * (src/connectors/nersc_isdct.c) on arbitrary bytes, two ways: as given
 * (a tar archive or a JSON dump, maybe compressed), and wrapped as the one
 * member of a tar archive, so that mutations reach the isdct text parser
 * without having to keep a tar header valid.  Then every way out: JSON,
 * back to a dump, both CSV forms, a diff with itself in GiB, its
 * reduction and the summary.  Three oracles: the direct JSON writer
 * writes what the general one makes of the JSON form; JSON text reads the
 * same (or fails alike) through the connector's own reader as through
 * jansson and tokio_nersc_isdct_from_json(); the one-step reduction
 * (tokio_nersc_isdct_diff_reduced()) is the reduction of the diff.
 * Seeds: fuzz/corpus/nersc_isdct/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "tokio/connectors/nersc_isdct.h"
#include "tokio/output.h"
#include "fuzz_same_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Bytes as the one member "dump/nid00001/ssd0.txt" of a ustar archive;
 * NULL when too large to bother. */
static unsigned char *
wrap_tar(const uint8_t *data, size_t size, size_t *len_out)
{
    size_t blocks = (size + 511) / 512, len = 512 * (blocks + 3);
    unsigned char *t;
    unsigned sum = 0;
    char num[32];

    if (size > ((size_t)1 << 24) || (t = calloc(1, len)) == NULL)
        return NULL;
    memcpy(t, "dump/nid00001/ssd0.txt", 22);
    memcpy(t + 100, "0000644", 7);
    memcpy(t + 108, "0000000", 7);
    memcpy(t + 116, "0000000", 7);
    snprintf(num, sizeof(num), "%011lo", (unsigned long)size);
    memcpy(t + 124, num, 11);
    memcpy(t + 136, "13000000000", 11);
    memset(t + 148, ' ', 8);
    t[156] = '0';
    memcpy(t + 257, "ustar", 6);
    memcpy(t + 263, "00", 2);
    for (int i = 0; i < 512; i++)
        sum += t[i];
    snprintf(num, sizeof(num), "%06o", sum & 0777777);
    memcpy(t + 148, num, 7);
    if (size > 0)
        memcpy(t + 512, data, size);
    *len_out = len;
    return t;
}

/* tokio_nersc_isdct_write_json() writes one layout, the compact one */
static int
write_isdct(const void *d, FILE *fp, unsigned flags)
{
    (void)flags;
    return tokio_nersc_isdct_write_json(d, fp);
}

/* The same bytes read from a file (through the windowed reader of
 * tokio_nersc_isdct_open()) and from memory: the same status and dump. */
static void
check_file_reader(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/fuzz-isdct-XXXXXX";
    struct tokio_nersc_isdct *x = NULL, *y = NULL;
    json_t *jx = NULL, *jy = NULL;
    int fd = mkstemp(path);

    if (fd < 0)
        return;
    FILE *fp = fdopen(fd, "w");
    if (fp == NULL || fwrite(data, 1, size, fp) != size || fclose(fp) != 0) {
        if (fp == NULL)
            close(fd);
        unlink(path);
        return;
    }
    int rx = tokio_nersc_isdct_open(&x, path);
    int ry = tokio_nersc_isdct_open_mem(&y, data, size, path);
    unlink(path);
    if (rx != TOKIO_ENOMEM && ry != TOKIO_ENOMEM &&
        (rx != ry ||
         (rx == TOKIO_OK &&
          (tokio_nersc_isdct_to_json(x, &jx) != TOKIO_OK ||
           tokio_nersc_isdct_to_json(y, &jy) != TOKIO_OK ||
           !json_equal(jx, jy)))))
        abort();
    json_decref(jx);
    json_decref(jy);
    tokio_nersc_isdct_free(x);
    tokio_nersc_isdct_free(y);
}

/* Plain JSON text: the connector's reading against jansson's. */
static void
check_json_reader(const uint8_t *data, size_t size)
{
    struct tokio_nersc_isdct *x = NULL, *y = NULL;
    json_t *j, *jx = NULL, *jy = NULL;

    if (size == 0 || data[0] != '{' ||
        (size >= 262 && memcmp(data + 257, "ustar", 5) == 0))
        return;
    j = json_loadb((const char *)data, size, 0, NULL);
    int rx = j == NULL ? TOKIO_EFORMAT : tokio_nersc_isdct_from_json(&x, j);
    int ry = tokio_nersc_isdct_open_mem(&y, data, size, "fuzz");
    if (rx == TOKIO_ENOMEM || ry == TOKIO_ENOMEM)
        goto done;
    if ((rx == TOKIO_OK) != (ry == TOKIO_OK))
        abort();
    if (rx == TOKIO_OK &&
        (tokio_nersc_isdct_to_json(x, &jx) != TOKIO_OK ||
         tokio_nersc_isdct_to_json(y, &jy) != TOKIO_OK ||
         !json_equal(jx, jy) ||
         tokio_nersc_isdct_count(x) != tokio_nersc_isdct_count(y)))
        abort();
done:
    json_decref(jx);
    json_decref(jy);
    json_decref(j);
    tokio_nersc_isdct_free(x);
    tokio_nersc_isdct_free(y);
}

/* The one-step reduction must be the reduction of the diff. */
static void
check_reduced(const struct tokio_nersc_isdct *now,
              const struct tokio_nersc_isdct *old, const json_t *diff)
{
    json_t *want = NULL, *got = NULL;
    int rw = tokio_nersc_isdct_reduce_diff(diff, &want);
    int rg = tokio_nersc_isdct_diff_reduced(now, old, 1, &got);

    if (rw != rg || (rw == TOKIO_OK && !json_equal(want, got)))
        abort();
    json_decref(want);
    json_decref(got);
}

static void
exercise(const void *buf, size_t len)
{
    struct tokio_nersc_isdct *d = NULL, *again = NULL;
    json_t *json = NULL, *diff = NULL, *gibs = NULL, *red = NULL;
    FILE *fp;

    if (tokio_nersc_isdct_open_mem(&d, buf, len, "fuzz") < 0)
        return;
    if ((fp = fopen("/dev/null", "w")) == NULL) {
        tokio_nersc_isdct_free(d);
        return;
    }
    fuzz_same_json(write_isdct, d, tokio_nersc_isdct_json(d), 0);
    if (tokio_nersc_isdct_to_json(d, &json) == TOKIO_OK &&
        tokio_nersc_isdct_from_json(&again, json) == TOKIO_OK) {
        (void)tokio_nersc_isdct_write_csv(again, fp, 0);
        (void)tokio_nersc_isdct_write_csv(again, fp, 1);
        if (tokio_nersc_isdct_diff(again, d, 1, &diff) == TOKIO_OK) {
            check_reduced(again, d, diff);
            if (tokio_nersc_isdct_diff_gibs(diff, &gibs) == TOKIO_OK &&
                tokio_nersc_isdct_reduce_diff(gibs, &red) == TOKIO_OK)
                (void)tokio_nersc_isdct_write_summary(fp, d, again, gibs);
        }
    }
    fclose(fp);
    json_decref(red);
    json_decref(gibs);
    json_decref(diff);
    json_decref(json);
    tokio_nersc_isdct_free(again);
    tokio_nersc_isdct_free(d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t len;
    unsigned char *tar;

    exercise(data, size);
    check_json_reader(data, size);
    check_file_reader(data, size);
    if ((tar = wrap_tar(data, size, &len)) != NULL) {
        exercise(tar, len);
        free(tar);
    }
    return 0;
}
