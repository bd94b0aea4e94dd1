/*
 * tests/cli/test_darshan_bad_ost.c - `tokio darshan-bad-ost`.
 *
 * The reference's five runs (golden/pytokio/COMMANDS.md, section
 * darshan_bad_ost) all failed with KeyError 'STRIPE_WIDTH' (pytokio read
 * the pre-3.4.6 LUSTRE text; see src/analysis/darshan_bad_ost.c), so
 * there is no golden output.  Instead: the outcomes its own tests
 * (tests/test_cli_darshan_bad_ost.py) assert for the same runs, the JSON
 * values of OST 14 and the whole text table, computed independently by
 * tests/analysis/darshan_bad_ost_reference.py (mpmath, 60 digits) and
 * printed through the reference's own format strings.  Then the
 * command's messages and exit statuses.
 */
#include "testutil.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BADOST "pytokio-inputs/sample-badost.darshan"
#define GOODOST "pytokio-inputs/sample-goodost.darshan"
#define SAMPLE "pytokio-inputs/sample.darshan"

/* The reference's text for `darshan_bad_ost sample-badost.darshan`: the
 * script's r and p of every OST through "%-10s %12.3f %10.4g%s". */
static const char badost_table[] =
    "OST Name    Correlation    P-Value\n"
    "OST#14           -0.703 2.473e-305 <-- this OST looks unhealthy\n"
    "OST#8            -0.102  4.039e-06\n"
    "OST#7            -0.067    0.00246\n"
    "OST#9            -0.060   0.006223\n"
    "OST#22            0.044    0.04465\n"
    "OST#2             0.049    0.02773\n"
    "OST#20            0.051    0.02009\n"
    "OST#23            0.056    0.01158\n"
    "OST#16            0.068   0.002174\n"
    "OST#5             0.075  0.0006407\n"
    "OST#15            0.082  0.0001891\n"
    "OST#3             0.100  5.522e-06\n"
    "OST#11            0.114  2.079e-07\n"
    "OST#13            0.119  7.443e-08\n"
    "OST#4             0.140  1.827e-10\n";

/* A copy of the pack path of `rel` (free()), or skip the test. */
static char *
data(const char *rel)
{
    const char *p = tokio_test_data(rel);

    if (p == NULL) {
        print_message("skipped: ../shared/testdata/%s is absent\n", rel);
        skip();
    }
    return strdup(p);
}

/* `tokio darshan-bad-ost ARGS...` (NULL-ended) */
static struct tokio_run
run(const char *const *args)
{
    const char *argv[16] = { "darshan-bad-ost" };
    size_t n = 1;

    for (; *args != NULL && n < 15; args++)
        argv[n++] = *args;
    argv[n] = NULL;
    return tokio_test_run(NULL, NULL, argv);
}

static json_t *
parse(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);

    if (j == NULL)
        fail_msg("not JSON (%s): %s", e.text, text);
    return j;
}

static void
test_good_log_json_p001_is_empty(void **state)
{
    char *good = data(GOODOST);
    const char *args[] = { "--json", "-p", "0.01", good, NULL };

    (void)state;
    struct tokio_run r = run(args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "[]\n");
    assert_string_equal(r.err, "");
    tokio_run_free(&r);
    free(good);
}

static void
test_bad_log_json_strong_cutoffs_is_ost14(void **state)
{
    char *bad = data(BADOST);
    const char *args[] = { "--json", "-p", "0.00001", "-c", "0.50", bad,
                           NULL };

    (void)state;
    struct tokio_run r = run(args);
    assert_int_equal(r.status, 0);
    json_t *j = parse(r.out);
    assert_int_equal(json_array_size(j), 1);
    json_t *o = json_array_get(j, 0);
    assert_string_equal(json_string_value(json_object_get(o, "ost_name")),
                        "OST#14");
    double c = json_real_value(json_object_get(o, "coefficient"));
    double p = json_real_value(json_object_get(o, "p-value"));
    assert_true(fabs(c - -0.70313629725735990294) < 1e-13 * 0.71);
    assert_true(fabs(p - 2.4730475144456275304e-305) <
                1e-10 * 2.4730475144456275304e-305);
    json_decref(j);
    /* json.dumps(indent=4, sort_keys=True) layout */
    static const char head[] = "[\n    {\n        \"coefficient\": -0.70313";
    assert_true(strncmp(r.out, head, strlen(head)) == 0);
    assert_contains(r.out, "\n        \"ost_name\": \"OST#14\",\n"
                           "        \"p-value\": 2.47304751444");
    assert_contains(r.out, "e-305\n    }\n]\n");
    tokio_run_free(&r);
    free(bad);
}

static void
test_single_file_log_json_is_empty(void **state)
{
    char *one = data(SAMPLE);
    const char *args[] = { "--json", one, NULL };

    (void)state;
    struct tokio_run r = run(args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "[]\n");
    tokio_run_free(&r);
    free(one);
}

static void
test_two_logs_json_c010_is_empty(void **state)
{
    char *bad = data(BADOST), *good = data(GOODOST);
    const char *args[] = { "--json", "-c", "0.10", bad, good, NULL };
    const char *args0[] = { "--json", bad, good, NULL };

    (void)state;
    struct tokio_run r = run(args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "[]\n");
    tokio_run_free(&r);
    /* without -c, OST 14 (r = -0.0758, p = 0.00051) is the only one */
    r = run(args0);
    assert_int_equal(r.status, 0);
    json_t *j = parse(r.out);
    assert_int_equal(json_array_size(j), 1);
    assert_string_equal(json_string_value(json_object_get(
        json_array_get(j, 0), "ost_name")), "OST#14");
    json_decref(j);
    tokio_run_free(&r);
    free(bad);
    free(good);
}

static void
test_bad_log_text_table(void **state)
{
    char *bad = data(BADOST);
    const char *args[] = { bad, NULL };
    const char *warn[] = { "-C", "0.1", "-p", "1e-5", bad, NULL };

    (void)state;
    struct tokio_run r = run(args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, badost_table);
    assert_string_equal(r.err, "");
    tokio_run_free(&r);
    /* -C lowers the warning level */
    r = run(warn);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out,
        "OST Name    Correlation    P-Value\n"
        "OST#14           -0.703 2.473e-305 <-- this OST looks unhealthy\n"
        "OST#8            -0.102  4.039e-06 <-- this OST looks unhealthy\n"
        "OST#3             0.100  5.522e-06 <-- this OST is running "
        "unusually quickly\n"
        "OST#11            0.114  2.079e-07 <-- this OST is running "
        "unusually quickly\n"
        "OST#13            0.119  7.443e-08 <-- this OST is running "
        "unusually quickly\n"
        "OST#4             0.140  1.827e-10 <-- this OST is running "
        "unusually quickly\n");
    tokio_run_free(&r);
    free(bad);
}

static void
test_output_file(void **state)
{
    char *bad = data(BADOST);
    char *dir = tokio_test_mkdtemp();
    char path[4200];
    const char *args[] = { "-o", path, bad, NULL };

    (void)state;
    snprintf(path, sizeof(path), "%s/table.txt", dir);
    struct tokio_run r = run(args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    char *text = tokio_test_read_file(path, NULL);
    assert_non_null(text);
    assert_string_equal(text, badost_table);
    free(text);
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
    free(bad);
}

static void
test_logs_without_posix_or_lustre_warn_and_go_on(void **state)
{
    char *np = data("pytokio-inputs/noposix.darshan");
    char *nl = data("pytokio-inputs/noposixopens.darshan");
    char *good = data(GOODOST);
    const char *args[] = { "--json", np, nl, NULL };
    const char *mixed[] = { "--json", "-p", "0.05", np, good, NULL };

    (void)state;
    struct tokio_run r = run(args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "[]\n");
    assert_contains(r.err, "noposix.darshan' has no POSIX records; "
                           "skipped");
    assert_contains(r.err, "noposixopens.darshan' has no LUSTRE records; "
                           "skipped");
    tokio_run_free(&r);
    /* the usable log still counts: goodost alone at p < 0.05 */
    r = run(mixed);
    assert_int_equal(r.status, 0);
    json_t *j = parse(r.out);
    assert_int_equal(json_array_size(j), 4);   /* OSTs 22, 16, 4, 19 */
    json_decref(j);
    tokio_run_free(&r);
    free(np);
    free(nl);
    free(good);
}

static void
test_empty_log_is_skipped_missing_log_fails(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char empty[4200], missing[4200];
    const char *args[] = { empty, NULL };
    const char *args2[] = { "--json", missing, NULL };

    (void)state;
    snprintf(empty, sizeof(empty), "%s/empty.darshan", dir);
    snprintf(missing, sizeof(missing), "%s/missing.darshan", dir);
    tokio_test_write_file(empty, "", 0);
    struct tokio_run r = run(args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "OST Name    Correlation    P-Value\n");
    assert_contains(r.err, "empty.darshan' is empty (0 bytes); skipped");
    tokio_run_free(&r);
    r = run(args2);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_contains(r.err, "tokio darshan-bad-ost: error: ");
    assert_contains(r.err, "missing.darshan");
    tokio_run_free(&r);
    /* not a Darshan log */
    tokio_test_write_file(empty, "hello, world\n", SIZE_MAX);
    r = run(args);
    assert_int_equal(r.status, 1);
    assert_contains(r.err, "empty.darshan");
    tokio_run_free(&r);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_bad_usage_exits_2(void **state)
{
    static const char *const cases[][4] = {
        { NULL },                               /* no log */
        { "-p", "abc", "x.darshan", NULL },
        { "-c", NULL },                         /* missing value */
        { "--ost", "14", "x.darshan", NULL },   /* no such option */
        { "-x", "x.darshan", NULL },
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_run r = run(cases[i]);
        assert_int_equal(r.status, 2);
        assert_string_equal(r.out, "");
        assert_contains(r.err, "see 'tokio darshan-bad-ost --help'");
        tokio_run_free(&r);
    }
    struct tokio_run r = run((const char *[]){ NULL });
    assert_contains(r.err, "at least one Darshan log is required");
    tokio_run_free(&r);
}

static void
test_help_and_reference_spelling(void **state)
{
    const char *help[] = { "--help", NULL };
    const char *alias[] = { "darshan_bad_ost", "--help", NULL };

    (void)state;
    struct tokio_run r = run(help);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "--p-threshold");
    assert_contains(r.out, "--c-threshold");
    assert_contains(r.out, "--c-warning");
    assert_contains(r.out, "--json");
    tokio_run_free(&r);
    r = tokio_test_run(NULL, NULL, alias);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "tokio darshan-bad-ost");
    tokio_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_log_json_p001_is_empty),
        cmocka_unit_test(test_bad_log_json_strong_cutoffs_is_ost14),
        cmocka_unit_test(test_single_file_log_json_is_empty),
        cmocka_unit_test(test_two_logs_json_c010_is_empty),
        cmocka_unit_test(test_bad_log_text_table),
        cmocka_unit_test(test_output_file),
        cmocka_unit_test(test_logs_without_posix_or_lustre_warn_and_go_on),
        cmocka_unit_test(test_empty_log_is_skipped_missing_log_fails),
        cmocka_unit_test(test_bad_usage_exits_2),
        cmocka_unit_test(test_help_and_reference_spelling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
