/*
 * tests/cli/test_darshan_dxt.c - `tokio darshan-dxt`: darshan-dxt-parser's
 * goldens byte for byte, its command line, and bounded memory: two logs
 * written here, one with 20 times the segments of the other, cost the
 * same peak memory within a small constant (darshan-dxt, its --heatmap,
 * and cache-darshan, which does not read the traces at all), with outputs
 * alike in structure and equal to the library's whole-log text.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "darshan_gen.h"
#include "tokio/connectors/darshan.h"

#define NREC 4          /* records (ranks) of the logs made here */

static void
test_darshan_dxt_matches_goldens(void **state)
{
    static const char *const logs[] = {
        "dxt", "ior_hdf5_example", "sample-dxt-simple", "sample"
    };
    const char *const env[] = { "TZ=America/Los_Angeles", NULL };

    (void)state;
    TOKIO_TEST_NEED_DATA(dir, "darshan-logs");
    for (size_t i = 0; i < sizeof(logs) / sizeof(*logs); i++) {
        char log[4200], golden[200];
        snprintf(log, sizeof(log), "%s/%s.darshan", dir, logs[i]);
        snprintf(golden, sizeof(golden), "golden/darshan-parser/%s.dxt.txt",
                 logs[i]);
        const char *g = tokio_test_data(golden);
        if (g == NULL)
            continue;           /* sample.darshan has no DXT golden */
        char *want = tokio_test_read_file(g, NULL);
        assert_non_null(want);
        /* the first line names the log as given to the parser */
        const char *argv[] = { "darshan-dxt", log, NULL };
        struct tokio_run r = tokio_test_run(NULL, env, argv);
        assert_int_equal(r.status, 0);
        assert_string_equal(strchr(r.out, '\n'), strchr(want, '\n'));
        tokio_run_free(&r);
        free(want);
    }
}

static void
test_darshan_dxt_command_line(void **state)
{
    (void)state;
    const char *none[] = { "darshan-dxt", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, none);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "a Darshan log is required"));
    tokio_run_free(&r);
    const char *two[] = { "darshan-dxt", "a", "b", NULL };
    r = tokio_test_run(NULL, NULL, two);
    assert_int_equal(r.status, 2);
    tokio_run_free(&r);
    const char *missing[] = { "darshan-dxt", "/nonexistent/x.darshan",
                              NULL };
    r = tokio_test_run(NULL, NULL, missing);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "/nonexistent/x.darshan"));
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
}

/* The lines after the preamble that are not segments or counts. */
static char *
skeleton(const char *text, size_t *n_segments)
{
    const char *p = strstr(text, "\n# *****");
    char *out = calloc(1, strlen(text) + 1), *o = out;

    assert_non_null(p);
    assert_non_null(out);
    *n_segments = 0;
    for (p++; *p; ) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
        if (strncmp(p, " X_POSIX", 8) == 0)
            (*n_segments)++;
        else if (strncmp(p, "# DXT, write_count:", 19) != 0)
            o += sprintf(o, "%.*s", (int)len, p);
        p += len;
    }
    return out;
}

/* The library's text of the whole log, read whole. */
static char *
whole_text(const char *path)
{
    struct tokio_darshan *log = NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);

    assert_non_null(fp);
    assert_int_equal(tokio_darshan_open(&log, path), TOKIO_OK);
    assert_int_equal(tokio_darshan_write_dxt(log, fp), TOKIO_OK);
    tokio_darshan_free(log);
    fclose(fp);
    return text;
}

/* Peak memory of `tokio <cmd> -o <dir>/out <log>` in KiB; the output. */
static long
peak_of(const char *dir, const char *cmd, const char *log, char **out)
{
    const struct tokio_test_limits lim = { 0, 60 };
    const char *const env[] = { "TZ=UTC", NULL };
    char *o = tokio_test_join(dir, "out");
    const char *argv[] = { cmd, "-o", o, log, NULL, NULL, NULL };
    if (strcmp(cmd, "darshan-dxt --heatmap") == 0) {
        argv[0] = "darshan-dxt";
        argv[3] = "--heatmap";
        argv[4] = "50";
        argv[5] = log;
    }
    long rss = 0;
    struct tokio_run r = tokio_test_run_bounded(dir, env, argv, &lim, &rss);

    if (r.status != 0)
        print_message("%s: %s\n", cmd, r.err);
    assert_int_equal(r.status, 0);
    tokio_run_free(&r);
    *out = tokio_test_read_file(o, NULL);
    assert_non_null(*out);
    free(o);
    return rss;
}

static void
test_darshan_dxt_memory_does_not_grow_with_segments(void **state)
{
    const char *dir = *state;
    const size_t small = 5000, big = 20 * small;
    char *small_log = tokio_test_join(dir, "small.darshan");
    char *big_log = tokio_test_join(dir, "big.darshan");
    char *t_small, *t_big;
    size_t n_small, n_big;

    /* ASan's allocator and shadow pages add a few MiB of their own; the
     * big log's segments alone would add 3.9 MB read, 16 MB decoded */
    const long slack = tokio_test_sanitized() ? 8192 : 2048;

    assert_int_equal(tokio_test_darshan_dxt_log(small_log, NREC, small),
                     TOKIO_OK);
    assert_int_equal(tokio_test_darshan_dxt_log(big_log, NREC, big),
                     TOKIO_OK);
    long rss_small = peak_of(dir, "darshan-dxt", small_log, &t_small);
    long rss_big = peak_of(dir, "darshan-dxt", big_log, &t_big);
    print_message("darshan-dxt peak RSS: %ld KiB (%zu segments), %ld KiB "
                  "(%zu)\n", rss_small, NREC * small, rss_big, NREC * big);
    /* the big log's segments are 12.8 MB (3.9 MB compressed on disk),
     * 16 MB decoded */
    assert_true(rss_big <= rss_small + slack);

    setenv("TZ", "UTC", 1);
    char *w = whole_text(big_log);
    assert_string_equal(t_big, w);
    free(w);
    char *s_small = skeleton(t_small, &n_small);
    char *s_big = skeleton(t_big, &n_big);
    assert_int_equal(n_small, NREC * small);
    assert_int_equal(n_big, NREC * big);
    assert_string_equal(s_small, s_big);
    free(s_small);
    free(s_big);
    free(t_small);
    free(t_big);

    /* cache-darshan never inflates the traces its JSON does not show */
    rss_small = peak_of(dir, "cache-darshan", small_log, &t_small);
    rss_big = peak_of(dir, "cache-darshan", big_log, &t_big);
    print_message("cache-darshan peak RSS: %ld KiB, %ld KiB\n", rss_small,
                  rss_big);
    assert_true(rss_big <= rss_small + slack);
    free(t_small);
    free(t_big);

    /* the heat map: its cells, not the segments */
    rss_small = peak_of(dir, "darshan-dxt --heatmap", small_log, &t_small);
    rss_big = peak_of(dir, "darshan-dxt --heatmap", big_log, &t_big);
    print_message("darshan-dxt --heatmap peak RSS: %ld KiB, %ld KiB\n",
                  rss_small, rss_big);
    assert_true(rss_big <= rss_small + slack);
    assert_non_null(strstr(t_small, "\"segments\": 20000,"));
    assert_non_null(strstr(t_big, "\"segments\": 400000,"));
    free(t_small);
    free(t_big);
    free(small_log);
    free(big_log);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_darshan_dxt_matches_goldens),
        cmocka_unit_test(test_darshan_dxt_command_line),
        cmocka_unit_test_setup_teardown(
            test_darshan_dxt_memory_does_not_grow_with_segments,
            tokio_test_mkdtemp_setup, tokio_test_remove_dir),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
