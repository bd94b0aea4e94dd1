/*
 * tests/lmt_check.h - checks shared by the LMT and jobs database tests
 * (header-only: each test is a program of one source file): an SQLite
 * file as `sqlite3 FILE .dump` text, that text with its lines sorted
 * (a server returns rows in its own order), and two TOKIO Time Series
 * files compared dataset by dataset, bit for bit (-0.0 included).
 */
#ifndef TOKIO_TESTS_LMT_CHECK_H
#define TOKIO_TESTS_LMT_CHECK_H

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "tokio/connectors/hdf5.h"
#include "tokio/timeseries.h"

/* The datasets archive-lmtdb writes (the reference's DatasetDict). */
static const char *const lmt_datasets[] = {
    "/datatargets/readbytes", "/datatargets/writebytes", "/fullness/bytes",
    "/fullness/bytestotal", "/fullness/inodes", "/fullness/inodestotal",
    "/dataservers/cpuload", "/dataservers/memused", "/mdservers/cpuload",
    "/mdtargets/opens", "/mdtargets/closes", "/mdtargets/mknods",
    "/mdtargets/links", "/mdtargets/unlinks", "/mdtargets/mkdirs",
    "/mdtargets/rmdirs", "/mdtargets/renames", "/mdtargets/getxattrs",
    "/mdtargets/statfss", "/mdtargets/setattrs", "/mdtargets/getattrs",
};
#define N_LMT_DATASETS (sizeof(lmt_datasets) / sizeof(lmt_datasets[0]))

__attribute__((unused)) static int
lmt_cmp_lines(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* `text` with its lines sorted (changed in place; returns it). */
__attribute__((unused)) static char *
lmt_sort_lines(char *text)
{
    size_t n = 0, len = strlen(text);
    char **lines, *out, *p;

    for (p = text; *p; p++)
        n += *p == '\n';
    lines = malloc((n + 1) * sizeof(*lines));
    n = 0;
    for (p = strtok(text, "\n"); p; p = strtok(NULL, "\n"))
        lines[n++] = p;
    qsort(lines, n, sizeof(*lines), lmt_cmp_lines);
    out = malloc(len + 2);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        strcat(out, lines[i]);
        strcat(out, "\n");
    }
    free(lines);
    strcpy(text, out);
    free(out);
    return text;
}

/* Metadata without "updated" (the generation time), as a JSON string. */
__attribute__((unused)) static char *
lmt_meta(json_t *meta)
{
    json_t *copy = json_deep_copy(meta);
    char *s;

    json_object_del(copy, "updated");
    s = json_dumps(copy, JSON_SORT_KEYS);
    json_decref(copy);
    return s;
}

/* Fail unless the datasets `names` of the TTS files `got` and `want`
 * are equal: shape, timestamps, columns, cells bit for bit, dataset and
 * group metadata but "updated". */
__attribute__((unused)) static void
tts_assert_same(const char *got, const char *want, const char *const *names,
                size_t n)
{
    struct tokio_hdf5 *a = NULL, *b = NULL;

    assert_int_equal(tokio_hdf5_open(&a, got, 0), 0);
    assert_int_equal(tokio_hdf5_open(&b, want, 0), 0);
    assert_string_equal(tokio_hdf5_schema_version(a),
                        tokio_hdf5_schema_version(b));
    /* the root's start and end */
    for (int k = 0; k < 2; k++) {
        const char *attr = k ? "end" : "start";
        int64_t v[2];

        for (int f = 0; f < 2; f++) {
            hid_t file = H5Fopen(f ? want : got, H5F_ACC_RDONLY, H5P_DEFAULT);
            hid_t at = H5Aopen(file, attr, H5P_DEFAULT);

            assert_true(file >= 0 && at >= 0);
            assert_true(H5Aread(at, H5T_NATIVE_INT64, &v[f]) >= 0);
            H5Aclose(at);
            H5Fclose(file);
        }
        if (v[0] != v[1])
            fail_msg("%s: root %s is %lld, want %lld", got, attr,
                     (long long)v[0], (long long)v[1]);
    }
    for (size_t i = 0; i < n; i++) {
        struct tokio_timeseries *x = NULL, *y = NULL;
        const char *name = names[i];
        char *mx, *my;

        if (tokio_hdf5_to_timeseries(a, name, &x) != 0)
            fail_msg("%s: %s: %s", got, name, tokio_errmsg());
        assert_int_equal(tokio_hdf5_to_timeseries(b, name, &y), 0);
        size_t rows = tokio_timeseries_rows(x), cols = tokio_timeseries_cols(x);
        if (rows != tokio_timeseries_rows(y) ||
            cols != tokio_timeseries_cols(y))
            fail_msg("%s: %zux%zu, want %zux%zu", name, rows, cols,
                     tokio_timeseries_rows(y), tokio_timeseries_cols(y));
        assert_memory_equal(tokio_timeseries_timestamps(x),
                            tokio_timeseries_timestamps(y),
                            rows * sizeof(int64_t));
        assert_int_equal(tokio_timeseries_n_names(x),
                         tokio_timeseries_n_names(y));
        for (size_t c = 0; c < tokio_timeseries_n_names(x); c++)
            assert_string_equal(tokio_timeseries_column(x, c),
                                tokio_timeseries_column(y, c));
        /* bit for bit: -0.0 (missing) and 0.0 differ */
        if (rows > 0 && cols > 0 && memcmp(tokio_timeseries_cdata(x),
                                  tokio_timeseries_cdata(y),
                                  rows * cols * sizeof(double)) != 0) {
            for (size_t k = 0; k < rows * cols; k++)
                if (memcmp(&tokio_timeseries_cdata(x)[k],
                           &tokio_timeseries_cdata(y)[k], sizeof(double)))
                    fail_msg("%s: cell (%zu, %zu) is %.17g, want %.17g", name,
                             k / cols, k % cols, tokio_timeseries_cdata(x)[k],
                             tokio_timeseries_cdata(y)[k]);
        }
        mx = lmt_meta(tokio_timeseries_dataset_metadata(x));
        my = lmt_meta(tokio_timeseries_dataset_metadata(y));
        assert_string_equal(mx, my);
        free(mx);
        free(my);
        mx = lmt_meta(tokio_timeseries_group_metadata(x));
        my = lmt_meta(tokio_timeseries_group_metadata(y));
        assert_string_equal(mx, my);
        free(mx);
        free(my);
        tokio_timeseries_free(x);
        tokio_timeseries_free(y);
    }
    tokio_hdf5_free(a);
    tokio_hdf5_free(b);
}

/* Fail unless every archive-lmtdb dataset of `got` equals `want`'s. */
__attribute__((unused)) static void
lmt_assert_same_tts(const char *got, const char *want)
{
    tts_assert_same(got, want, lmt_datasets, N_LMT_DATASETS);
}

#endif
