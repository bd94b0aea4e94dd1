/*
 * tests/cli/test_report.c - `tokio report` on the project's own sample
 * data (the build's examples/data: the glock ior log and the TTS files
 * covering it, examples/site.json, examples/ior-history.csv), loaded in
 * a real browser: headless Chromium must render it with no console
 * message and show every figure; a screenshot is kept beside the tests
 * (report-screenshot.png) as the run's artefact.  Then failures: a bad
 * command line (exit 2), an unwritable page or a history it cannot draw
 * (exit 1, named, no page left).
 */
#include "testutil.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define LOG "examples/data/darshanlogs/2019/2/14/" \
            "glock_ior_id4478601_2-14-36000-4991620618526952987_1.darshan"

/* The build folder (where tokio and examples/data are), static. */
static const char *
build_dir(void)
{
    static char dir[4096];
    char *slash;

    snprintf(dir, sizeof(dir), "%s", getenv("TOKIO_BIN"));
    if ((slash = strrchr(dir, '/')) != NULL)
        *slash = '\0';
    return dir;
}

static const char *
chromium(void)
{
    static const char *const names[] = { "/usr/bin/chromium",
                                         "/usr/bin/chromium-browser" };
    const char *env = getenv("CHROMIUM");

    if (env != NULL && access(env, X_OK) == 0)
        return env;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (access(names[i], X_OK) == 0)
            return names[i];
    return NULL;
}

/* Run `argv` (at most a minute) with stdout and stderr to files in
 * `dir`; its exit status. */
static int
spawn(const char *const *argv, const char *dir)
{
    posix_spawn_file_actions_t fa;
    char out[4096], err[4096];
    pid_t pid;
    int status = -1;

    snprintf(out, sizeof(out), "%s/stdout", dir);
    snprintf(err, sizeof(err), "%s/stderr", dir);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT |
                                     O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT |
                                     O_TRUNC, 0644);
    if (posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv,
                     environ) == 0)
        waitpid(pid, &status, 0);
    posix_spawn_file_actions_destroy(&fa);
    return status;
}

/* Write the sample job's report into `page`; fail the test unless it
 * works. */
static void
write_report(const char *page)
{
    char site[4096], history[4096];
    const char *src = getenv("TOKIO_SOURCE_DIR");

    snprintf(site, sizeof(site), "PYTOKIO_CONFIG=%s/examples/site.json", src);
    snprintf(history, sizeof(history), "%s/examples/ior-history.csv", src);
    const char *env[] = { site, NULL };
    const char *argv[] = { "report", "--history", history, "-o", page, LOG,
                           NULL };
    struct tokio_run r = tokio_test_run(build_dir(), env, argv);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err);
    assert_string_equal(r.out, "");
    tokio_run_free(&r);
}

static void
test_report_renders_in_chromium(void **state)
{
    (void)state;
    const char *browser = chromium();
    char *dir = tokio_test_mkdtemp(), *page = tokio_test_join(dir, "r.html");
    char url[4200], profile[4200], shot[4200], shot_arg[4300];
    char *dom, *log, *html;

    if (browser == NULL) {
        print_message("skipped: no chromium to render the report in\n");
        tokio_test_rmtree(dir);
        free(dir);
        free(page);
        skip();
    }
    write_report(page);
    html = tokio_test_read_file(page, NULL);
    snprintf(url, sizeof(url), "file://%s", page);
    snprintf(profile, sizeof(profile), "--user-data-dir=%s/profile", dir);
    snprintf(shot, sizeof(shot), "%s/tests/report-screenshot.png",
             build_dir());
    snprintf(shot_arg, sizeof(shot_arg), "--screenshot=%s", shot);
    /* the flags this machine's Chromium runs headless with as root, no
     * network wanted */
    const char *common[] = {
        "timeout", "60", browser, "--headless", "--no-sandbox",
        "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update",
        "--disable-sync", profile, "--enable-logging=stderr", "--v=0",
    };
    const char *argv[24];
    size_t n = sizeof(common) / sizeof(common[0]);

    memcpy(argv, common, sizeof(common));
    argv[n] = "--dump-dom";
    argv[n + 1] = url;
    argv[n + 2] = NULL;
    assert_int_equal(spawn(argv, dir), 0);
    char *p = tokio_test_join(dir, "stdout");
    dom = tokio_test_read_file(p, NULL);
    free(p);
    p = tokio_test_join(dir, "stderr");
    log = tokio_test_read_file(p, NULL);
    free(p);
    assert_non_null(dom);
    /* every section and figure is in the page Chromium built */
    assert_contains(dom, "<h2>The job</h2>");
    assert_contains(dom, "<h2>The file system during the job</h2>");
    assert_contains(dom, "<h2>Against earlier runs (UMAMI)</h2>");
    size_t figures = 0, in_html = 0;
    for (const char *q = strstr(dom, "<svg"); q; q = strstr(q + 1, "<svg"))
        figures++;
    for (const char *q = strstr(html, "<svg"); q; q = strstr(q + 1, "<svg"))
        in_html++;
    /* the time split, five file system charts, UMAMI */
    assert_int_equal(in_html, 7);
    assert_int_equal(figures, in_html);
    /* and nothing the page did made Chromium complain */
    assert_null(strstr(log, ":CONSOLE("));
    assert_null(strstr(log, "Refused to"));
    assert_null(strstr(log, "Failed to load"));
    free(dom);
    free(log);
    /* the screenshot, kept */
    argv[n] = "--window-size=1200,4000";
    argv[n + 1] = shot_arg;
    argv[n + 2] = url;
    argv[n + 3] = NULL;
    assert_int_equal(spawn(argv, dir), 0);
    struct stat st;
    assert_int_equal(stat(shot, &st), 0);
    assert_true(st.st_size > 20000);
    print_message("screenshot: %s\n", shot);
    free(html);
    free(page);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_report_bad_command_lines_exit_2(void **state)
{
    (void)state;
    tokio_test_run_fails(NULL, ((const char *[]){ "report", "x.darshan",
                                                  NULL }),
                         2, "give the page to write with -o");
    tokio_test_run_fails(NULL, ((const char *[]){ "report", "-o", "r.html",
                                                  NULL }),
                         2, "give Darshan logs, or --start-time");
    tokio_test_run_fails(NULL, ((const char *[]){ "report", "-o", "r.html",
                                                  "--top-files", "-3",
                                                  "x.darshan", NULL }),
                         2, "--top-files expects a number 0 or above, not '-3'");
}

static void
test_report_failures_leave_no_page(void **state)
{
    (void)state;
    char *dir = tokio_test_mkdtemp(), *page = tokio_test_join(dir, "r.html");
    char *hist = tokio_test_join(dir, "h.csv"), log[8192];
    char *bad = tokio_test_join(dir, "bad.darshan");

    snprintf(log, sizeof(log), "%s/" LOG, build_dir());
    tokio_test_write_file(hist, "when,app\n2019-02-01,ior\n", SIZE_MAX);
    tokio_test_write_file(bad, "no log\n", SIZE_MAX);
    tokio_test_run_fails(NULL, ((const char *[]){ "report", "-o", page,
                                                  "--history", hist, log,
                                                  NULL }),
                         1, "has no numeric column to draw");
    tokio_test_run_fails(NULL, ((const char *[]){ "report", "-o", page, bad,
                                                  NULL }),
                         1, bad);
    tokio_test_run_fails(NULL, ((const char *[]){ "report", "-o",
                                                  "/nonexistent/r.html", log,
                                                  NULL }),
                         1, "/nonexistent/r.html");
    assert_int_equal(tokio_test_count_entries(dir), 2);
    free(bad);
    free(hist);
    free(page);
    tokio_test_rmtree(dir);
    free(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_renders_in_chromium),
        cmocka_unit_test(test_report_bad_command_lines_exit_2),
        cmocka_unit_test(test_report_failures_leave_no_page),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
