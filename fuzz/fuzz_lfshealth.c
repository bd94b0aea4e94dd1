/*
 * fuzz/fuzz_lfshealth.c - bytes as `lfs df`, `lctl dl -t` and both NERSC
 * BEGIN histories: open_mem -> to_json (-> failovers) -> text -> free.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/connectors/lfshealth.h"
#include "tokio/connectors/nersc_lfsstate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *null = fopen("/dev/null", "w");
    struct tokio_lfs_df *df = NULL;
    struct tokio_lfs_dl *dl = NULL;
    json_t *j = NULL;

    if (tokio_lfs_df_open_mem(&df, data, size, "fuzz") >= 0) {
        if (tokio_lfs_df_to_json(df, &j) >= 0) {
            struct tokio_lfs_df *back = NULL;
            if (tokio_lfs_df_from_json(&back, j) >= 0)
                tokio_lfs_df_free(back);
        }
        json_decref(j);
        j = NULL;
        if (null)
            tokio_lfs_df_write(df, null);
        tokio_lfs_df_free(df);
    }
    if (tokio_lfs_dl_open_mem(&dl, data, size, "fuzz") >= 0) {
        if (tokio_lfs_dl_failovers(dl, &j) >= 0)
            json_decref(j);
        j = NULL;
        if (null)
            tokio_lfs_dl_write(dl, null);
        tokio_lfs_dl_free(dl);
    }
    for (int k = 0; k < 2; k++) {
        struct tokio_nersc_lfsstate *s = NULL;
        enum tokio_lfsstate_kind kind = k ? TOKIO_LFSSTATE_MAP
                                          : TOKIO_LFSSTATE_FULLNESS;
        if (tokio_nersc_lfsstate_open_mem(&s, kind, data, size, "fuzz") < 0)
            continue;
        if (tokio_nersc_lfsstate_to_json(s, &j) >= 0)
            json_decref(j);
        if (k && tokio_nersc_lfsstate_failovers(s, &j) >= 0)
            json_decref(j);
        if (null)
            tokio_nersc_lfsstate_write(s, null);
        tokio_nersc_lfsstate_free(s);
    }
    if (null)
        fclose(null);
    return 0;
}
