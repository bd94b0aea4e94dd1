/*
 * tests/cli/test_summarize_darshanlogs.c - `tokio summarize-darshanlogs`.
 * The pack has no golden for it (pytokio removed the tool before the
 * pack's commit); the expected values are the POSIX byte totals of the
 * index goldens (golden/pytokio/index_darshanlogs/pytokio-inputs.sql),
 * which the reference computed from the same records, and the format is
 * the reference's Quick Start: json.dumps(sort_keys=True, indent=4).
 */
#include "testutil.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char want_two[] =
    "{\n"
    "    \"inputs/sample-2.darshan\": {\n"
    "        \"/scratch2\": {\n"
    "            \"read_bytes\": 1649291067392,\n"
    "            \"write_bytes\": 0\n"
    "        }\n"
    "    },\n"
    "    \"inputs/sample-badost.darshan\": {\n"
    "        \"/scratch1\": {\n"
    "            \"read_bytes\": 0,\n"
    "            \"write_bytes\": 549755813888\n"
    "        }\n"
    "    }\n"
    "}\n";

static void
test_bytes_per_mount(void **state)
{
    struct tokio_workdir *fx = *state;
    TOKIO_TEST_NEED_DATA(in, "pytokio-inputs/sample-2.darshan");
    /* noposix.darshan has no POSIX records: left out */
    const char *argv[] = { "summarize-darshanlogs",
                           "inputs/sample-badost.darshan",
                           "inputs/noposix.darshan",
                           "inputs/sample-2.darshan", NULL };
    struct tokio_run r = tokio_test_run(fx->dir, NULL, argv);

    (void)in;
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, want_two);
    tokio_run_free(&r);
}

/* -o writes json.dump()'s line; -i skips what an earlier run has. */
static void
test_output_and_update(void **state)
{
    struct tokio_workdir *fx = *state;
    TOKIO_TEST_NEED_DATA(in, "pytokio-inputs/sample-2.darshan");
    const char *a1[] = { "summarize-darshanlogs", "-o", "one.json",
                         "inputs/sample-2.darshan", NULL };
    const char *a2[] = { "summarize-darshanlogs", "-i", "one.json",
                         "inputs/sample-2.darshan",
                         "inputs/sample-badost.darshan", NULL };
    char path[4300];

    (void)in;
    struct tokio_run r = tokio_test_run(fx->dir, NULL, a1);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "Added 1 log summaries to one.json\n");
    tokio_run_free(&r);
    snprintf(path, sizeof(path), "%s/one.json", fx->dir);
    char *text = tokio_test_read_file(path, NULL);
    assert_string_equal(text, "{\"inputs/sample-2.darshan\": {\"/scratch2\": "
                        "{\"read_bytes\": 1649291067392, \"write_bytes\": "
                        "0}}}");
    free(text);
    r = tokio_test_run(fx->dir, NULL, a2);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, want_two);
    tokio_run_free(&r);
}

/* Unreadable logs among readable ones are named and left out; the exit
 * status stays 0.  When none can be read, nothing was done: exit 1, each
 * named on its own line (issue 17 item 6). */
static void
test_bad_logs_warn(void **state)
{
    struct tokio_workdir *fx = *state;
    char path[4300];
    const char *argv[] = { "summarize-darshanlogs", "empty.darshan",
                           "missing.darshan", "noise.darshan", NULL };
    const char *mixed[] = { "summarize-darshanlogs", "empty.darshan",
                            "missing.darshan", "good.darshan", NULL };
    unsigned char noise[2048];

    for (size_t i = 0; i < sizeof(noise); i++)
        noise[i] = (unsigned char)(i * 2654435761u >> 13);
    snprintf(path, sizeof(path), "%s/empty.darshan", fx->dir);
    tokio_test_write_file(path, "", 0);
    snprintf(path, sizeof(path), "%s/noise.darshan", fx->dir);
    tokio_test_write_file(path, noise, sizeof(noise));
    snprintf(path, sizeof(path), "%s/good.darshan", fx->dir);
    tokio_test_make_darshan_log(path, 4);
    struct tokio_run r = tokio_test_run(fx->dir, NULL, argv);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "'empty.darshan'");
    assert_contains(r.err, "'missing.darshan'");
    assert_contains(r.err, "'noise.darshan'");
    assert_contains(r.err, "tokio summarize-darshanlogs: error: "
                    "'noise.darshan': ");
    size_t lines = 0;
    for (const char *p = r.err; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 3);
    tokio_run_free(&r);

    r = tokio_test_run(fx->dir, NULL, mixed);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "\"good.darshan\"");
    assert_contains(r.err, "warning: skipping: 'empty.darshan'");
    assert_contains(r.err, "'missing.darshan'");
    tokio_run_free(&r);
}

/* Issue 17 item 8: a valid log whose name is not UTF-8 is summarized
 * (keyed with '?' for its bytes above 0x7f, and said so), not "out of
 * memory". */
static void
test_name_not_utf8(void **state)
{
    struct tokio_workdir *fx = *state;
    char path[4300];
    const char *argv[] = { "summarize-darshanlogs", "caf\xe9.darshan",
                           NULL };

    snprintf(path, sizeof(path), "%s/caf\xe9.darshan", fx->dir);
    tokio_test_make_darshan_log(path, 2);
    struct tokio_run r = tokio_test_run(fx->dir, NULL, argv);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "\"caf?.darshan\": {");
    assert_contains(r.out, "\"/scratch\"");
    assert_contains(r.err, "warning: the name of 'caf?.darshan' is not "
                    "UTF-8");
    assert_null(strstr(r.err, "memory"));
    tokio_run_free(&r);
}

/* Issue 17 item 1: two updates of one file at once (-i X -o X) take turns
 * under its lock; both land. */
static void
test_concurrent_updates_both_land(void **state)
{
    struct tokio_workdir *fx = *state;
    enum { PER_RUN = 60 };
    const char *a[PER_RUN + 6] = { "summarize-darshanlogs", "-i", "x.json",
                                   "-o", "x.json" };
    const char *b[PER_RUN + 6] = { "summarize-darshanlogs", "-i", "x.json",
                                   "-o", "x.json" };
    static char names[2 * PER_RUN][32];
    char path[4300];

    for (int i = 0; i < 2 * PER_RUN; i++) {
        snprintf(names[i], sizeof(names[i]), "log%03d.darshan", i);
        snprintf(path, sizeof(path), "%s/%s", fx->dir, names[i]);
        tokio_test_make_darshan_log(path, (unsigned)i + 1);
        (i < PER_RUN ? a : b)[5 + i % PER_RUN] = names[i];
    }
    snprintf(path, sizeof(path), "%s/x.json", fx->dir);
    tokio_test_write_file(path, "{}", 2);
    const char *const *argvs[] = { a, b };
    struct tokio_run out[2];
    tokio_test_run_concurrently(fx->dir, NULL, argvs, 2, out);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(out[k].status, 0);
        tokio_run_free(&out[k]);
    }
    json_error_t err;
    json_t *v = json_load_file(path, 0, &err);
    assert_non_null(v);
    assert_int_equal(json_object_size(v), 2 * PER_RUN);
    json_decref(v);
    assert_int_equal(tokio_test_count_temporaries(fx->dir), 0);
}

/* The project's own sample logs, for when the pack is absent. */
static void
test_own_samples(void **state)
{
    struct tokio_workdir *fx = *state;
    const char *bin = getenv("TOKIO_BIN");
    char folder[4300];

    snprintf(folder, sizeof(folder), "%.*s/examples/data/darshanlogs/2019/"
             "2/14", (int)(strrchr(bin, '/') - bin), bin);
    const char *argv[] = { "summarize-darshanlogs", folder, NULL };
    struct tokio_run r = tokio_test_run(fx->dir, NULL, argv);
    json_error_t err;
    json_t *v = json_loads(r.out, 0, &err);

    assert_int_equal(r.status, 0);
    assert_non_null(v);
    assert_true(json_object_size(v) >= 1);
    json_decref(v);
    tokio_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        TOKIO_TEST_IN_WORKDIR(test_bytes_per_mount),
        TOKIO_TEST_IN_WORKDIR(test_output_and_update),
        TOKIO_TEST_IN_WORKDIR(test_bad_logs_warn),
        TOKIO_TEST_IN_WORKDIR(test_name_not_utf8),
        TOKIO_TEST_IN_WORKDIR(test_concurrent_updates_both_land),
        TOKIO_TEST_IN_WORKDIR(test_own_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
