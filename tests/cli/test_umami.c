/*
 * tests/cli/test_umami.c - `tokio umami`: the formats (chosen by -o's
 * extension or --format), the numbers as JSON, and failures: a bad
 * command line (exit 2), a history it cannot draw or an output it cannot
 * write (exit 1, a message naming it, no output file).
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char history[] =
    "index,_datetime_start,_jobid,perf,app\n"
    "0,2017-03-01 02:00:00,100,1.5,vpic\n"
    "1,2017-03-02 02:00:00,101,2.5,vpic\n"
    "2,2017-03-03 02:00:00,102,1.0,vpic\n";

struct files {
    char *dir, csv[4096];
};

static struct files
make_history(const char *text)
{
    struct files f;

    f.dir = tokio_test_mkdtemp();
    snprintf(f.csv, sizeof(f.csv), "%s/history.csv", f.dir);
    tokio_test_write_file(f.csv, text, SIZE_MAX);
    return f;
}

static void
free_files(struct files *f)
{
    tokio_test_rmtree(f->dir);
    free(f->dir);
}

/* The file `name` in the folder starts with `magic`. */
static void
check_written(const struct files *f, const char *name, const char *magic)
{
    char *path = tokio_test_join(f->dir, name);
    size_t len = 0;
    char *text = tokio_test_read_file(path, &len);

    assert_non_null(text);
    assert_true(len > strlen(magic));
    assert_memory_equal(text, magic, strlen(magic));
    free(text);
    free(path);
}

static void
test_umami_format_follows_the_extension(void **state)
{
    (void)state;
    struct files f = make_history(history);
    static const struct {
        const char *name, *magic;
    } outs[] = {
        { "u.png", "\x89PNG" }, { "u.svg", "<?xml" }, { "u.pdf", "%PDF-" },
        { "u.json", "{\n    \"2017-03-01 02:00:00\"" },
        { "u.csv", ",perf\n2017-03-01 02:00:00,1.5\n" },
    };

    for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
        char *out = tokio_test_join(f.dir, outs[i].name);
        const char *argv[] = { "umami", f.csv, "-o", out, NULL };
        struct tokio_run r = tokio_test_run(NULL, NULL, argv);
        if (r.status != 0)
            fail_msg("%s: exit %d: %s", outs[i].name, r.status, r.err);
        assert_string_equal(r.out, "");
        check_written(&f, outs[i].name, outs[i].magic);
        tokio_run_free(&r);
        free(out);
    }
    /* --format wins over the name */
    char *out = tokio_test_join(f.dir, "picture.dat");
    const char *argv[] = { "umami", "--format", "svg", "-o", out, f.csv,
                           NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);
    assert_int_equal(r.status, 0);
    check_written(&f, "picture.dat", "<?xml");
    tokio_run_free(&r);
    free(out);
    free_files(&f);
}

static void
test_umami_prints_its_numbers(void **state)
{
    (void)state;
    struct files f = make_history(history);
    const char *argv[] = { "umami", "--columns", "perf,_jobid", "--labels",
                           "GiB/s,job", f.csv, NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);

    assert_int_equal(r.status, 0);
    assert_string_equal(r.out,
        "{\n"
        "    \"2017-03-01 02:00:00\": {\n"
        "        \"_jobid\": 100.0,\n"
        "        \"perf\": 1.5\n"
        "    },\n"
        "    \"2017-03-02 02:00:00\": {\n"
        "        \"_jobid\": 101.0,\n"
        "        \"perf\": 2.5\n"
        "    },\n"
        "    \"2017-03-03 02:00:00\": {\n"
        "        \"_jobid\": 102.0,\n"
        "        \"perf\": 1.0\n"
        "    }\n"
        "}\n");
    tokio_run_free(&r);
    free_files(&f);
}

static void
test_umami_bad_command_lines_exit_2(void **state)
{
    (void)state;
    struct files f = make_history(history);
    char *bmp = tokio_test_join(f.dir, "u.bmp");
    const char *no_input[] = { "umami", NULL };
    const char *bad_format[] = { "umami", "--format", "gif", f.csv, NULL };
    const char *bad_ext[] = { "umami", "-o", bmp, f.csv, NULL };
    const char *labels_alone[] = { "umami", "--labels", "a", f.csv, NULL };
    const char *label_count[] = { "umami", "--columns", "perf", "--labels",
                                  "a,b", f.csv, NULL };

    tokio_test_run_fails(NULL, no_input, 2, "a history CSV is required");
    tokio_test_run_fails(NULL, bad_format, 2, "unknown format 'gif'");
    tokio_test_run_fails(NULL, bad_ext, 2, "cannot tell a format from");
    tokio_test_run_fails(NULL, labels_alone, 2, "--labels needs --columns");
    tokio_test_run_fails(NULL, label_count, 2, "2 labels for 1 columns");
    assert_int_equal(tokio_test_count_entries(f.dir), 1);
    free(bmp);
    free_files(&f);
}

static void
test_umami_failures_name_the_input_and_leave_no_file(void **state)
{
    (void)state;
    struct files f = make_history("when,app\n2017-03-01,vpic\n");
    char *out = tokio_test_join(f.dir, "u.png");
    const char *text_only[] = { "umami", f.csv, "-o", out, NULL };
    const char *missing[] = { "umami", "/nonexistent/h.csv", NULL };
    const char *unwritable[] = { "umami", f.csv, "-o",
                                 "/nonexistent/dir/u.png", NULL };

    tokio_test_run_fails(NULL, text_only, 1, "has no numeric column to "
                                              "draw");
    assert_int_equal(tokio_test_count_entries(f.dir), 1);
    tokio_test_run_fails(NULL, missing, 1, "/nonexistent/h.csv");
    free_files(&f);
    f = make_history(history);
    unwritable[1] = f.csv;
    tokio_test_run_fails(NULL, unwritable, 1, "/nonexistent/dir/u.png");
    free(out);
    free_files(&f);
}

/* Regression (fuzz_csv in CI): a history spanning 4.7 million years drew
 * a date tick a year, 9 GB and a minute before 'out of memory'; values
 * whose tick step is lost in their magnitude never left the y grid.  Now
 * at most a handful of ticks each: drawn in a second and 256 MiB.  And a
 * label too long for its lines is cut. */
static void
test_umami_absurd_axes_draw_few_ticks(void **state)
{
    (void)state;
    static const char *const histories[] = {
        "0,1\n@148844884426700,nan\n@0744267600,-5e3\n",
        "t,a\n1,1e20\n2,1.00000000000001e20\n3,1e20\n",
        /* a label wrapped past its last line was drawn from beyond the
         * lines (ASan: stack-buffer-overflow, fuzz_csv in CI) */
        "t,Ming(for ISO10z646)000" "dddddddddddddddddddddddddddddddddddddd"
        "dddddddddddddddddddddddddddddddddddddd000ddddddddddddddddddddddd"
        "dddddddddddddddddddd000$SO10z646)000000$01e20\n3,1e20\n",
    };
    const struct tokio_test_limits lim = { (size_t)256 << 20, 5 };

    for (size_t k = 0; k < 3; k++) {
        struct files f = make_history(histories[k]);
        char *out = tokio_test_join(f.dir, "u.svg");
        const char *argv[] = { "umami", f.csv, "-o", out, NULL };
        struct tokio_run r = tokio_test_run_bounded(NULL, NULL, argv, &lim,
                                                    NULL);
        if (r.status != 0)
            fail_msg("history %zu: exit %d: %s", k, r.status, r.err);
        check_written(&f, "u.svg", "<?xml");
        tokio_run_free(&r);
        free(out);
        free_files(&f);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_umami_format_follows_the_extension),
        cmocka_unit_test(test_umami_prints_its_numbers),
        cmocka_unit_test(test_umami_bad_command_lines_exit_2),
        cmocka_unit_test(test_umami_failures_name_the_input_and_leave_no_file),
        cmocka_unit_test(test_umami_absurd_axes_draw_few_ticks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
