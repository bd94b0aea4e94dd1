/*
 * tests/cli/test_man.c - the man pages and the bash completion (issue 20,
 * "For people at the terminal"): a page per command naming every option
 * its --help names, roff that groff renders without a warning, a
 * completion script bash reads and that completes commands and options,
 * and `cmake --install` putting them where man and bash-completion look.
 *
 * The options expected are read from each command's --help output, not
 * from the table both are written from, so a page that lost or misspelt
 * an option fails here.
 */
#include "testutil.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* The escaping is tested on its own: the functions, not the command. */
#include "cli/man.c"

#define MAX_WORDS 128

/* Run `command` with sh; its standard output and error (NUL-ended,
 * free()) in *out; returns the exit status. */
static int
sh(const char *command, char **out)
{
    FILE *p = popen(command, "r");
    size_t n = 0, cap = 4096;
    char *buf = malloc(cap);
    size_t got;
    int status;

    assert_non_null(p);
    assert_non_null(buf);
    while ((got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (cap - n < 2) {
            buf = realloc(buf, cap *= 2);
            assert_non_null(buf);
        }
    }
    buf[n] = '\0';
    status = pclose(p);
    *out = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* 1 if `program` is on PATH. */
static int
have(const char *program)
{
    char command[256], *out;
    int rc;

    snprintf(command, sizeof(command), "command -v %s >/dev/null 2>&1",
             program);
    rc = sh(command, &out);
    free(out);
    return rc == 0;
}

/* The build folder: the built tokio is at its top (static buffer). */
static const char *
build_dir(void)
{
    static char dir[4096];
    const char *bin = getenv("TOKIO_BIN");

    assert_non_null(bin);
    snprintf(dir, sizeof(dir), "%s", bin);
    return dirname(dir);
}

/* A file of the build's share/ folder, read whole (free()). */
static char *
read_share(const char *rel)
{
    char path[4096];
    char *text;

    snprintf(path, sizeof(path), "%s/share/%s", build_dir(), rel);
    text = tokio_test_read_file(path, NULL);
    if (text == NULL)
        fail_msg("%s is missing: the build writes it", path);
    return text;
}

static void
free_words(char **words)
{
    for (size_t i = 0; words[i] != NULL; i++)
        free(words[i]);
    free(words);
}

/*
 * The option spellings ("-t", "--topology") of `tokio CMD --help`, read
 * from its options: lines "  -t, --topology [<nodemap>]  help" and
 * "      --end-time <time>  help" (NULL-ended); *entries is the number
 * of options, one per such line.
 */
static char **
read_help_options(const char *cmd, size_t *entries)
{
    const char *argv[] = { cmd, "--help", NULL };
    struct tokio_run r = tokio_test_run(NULL, NULL, argv);
    char **words = calloc(MAX_WORDS, sizeof(*words));
    size_t n = 0;
    const char *line;

    assert_int_equal(r.status, 0);
    assert_non_null(words);
    *entries = 0;
    line = strstr(r.out, "\noptions:\n");
    assert_non_null(line);
    for (line = strchr(line + 1, '\n'); line != NULL;
         line = strchr(line + 1, '\n')) {
        const char *p = line + 1;
        size_t indent = strspn(p, " ");

        if ((indent != 2 && indent != 6) || p[indent] != '-')
            continue;
        ++*entries;
        p += indent;
        while (*p == '-') {
            size_t len = strcspn(p, ", \n");
            assert_true(n < MAX_WORDS - 1);
            words[n++] = strndup(p, len);
            p += len;
            p += strspn(p, ", ");
        }
    }
    tokio_run_free(&r);
    /* every command has --help (merge-index nothing else) */
    assert_true(*entries >= 1);
    return words;
}

/*
 * What the tests ask of --help, asked once per command: the commands and
 * their options are read at the first call and kept (borrowed: freed by
 * the group's teardown).
 */
static struct {
    char **names;
    char *cmd[MAX_WORDS];
    char **options[MAX_WORDS];
    size_t entries[MAX_WORDS];
    size_t n;
} seen;

static char **
command_names(void)
{
    if (seen.names == NULL)
        seen.names = tokio_test_command_names();
    return seen.names;
}

static char **
help_options(const char *cmd, size_t *entries)
{
    size_t i;

    for (i = 0; i < seen.n && strcmp(seen.cmd[i], cmd) != 0; i++)
        continue;
    if (i == seen.n) {
        assert_true(i < MAX_WORDS);
        seen.options[i] = read_help_options(cmd, &seen.entries[i]);
        seen.cmd[seen.n++] = strdup(cmd);
    }
    *entries = seen.entries[i];
    return seen.options[i];
}

static int
forget_help(void **state)
{
    (void)state;
    if (seen.names != NULL)
        free_words(seen.names);
    for (size_t i = 0; i < seen.n; i++) {
        free(seen.cmd[i]);
        free_words(seen.options[i]);
    }
    memset(&seen, 0, sizeof(seen));
    return 0;
}

/* `word` as the man pages write it: hyphens as \- */
static void
roff_word(char *buf, size_t size, const char *word)
{
    size_t n = 0;

    for (; *word && n + 3 < size; word++) {
        if (*word == '-')
            buf[n++] = '\\';
        buf[n++] = *word;
    }
    buf[n] = '\0';
}

static size_t
count(const char *haystack, const char *needle)
{
    size_t n = 0;

    for (const char *p = strstr(haystack, needle); p != NULL;
         p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Every command's page: what `tokio help --man NAME` writes, installed
 * by the build, its OPTIONS naming each option of its --help in bold, one
 * entry each; tokio(1) names every page. */
static void
test_every_command_has_a_page_naming_its_options(void **state)
{
    char **names = command_names();
    char *overview = read_share("man/man1/tokio.1");
    char want[300];

    (void)state;
    for (size_t i = 0; names[i] != NULL; i++) {
        const char *argv[] = { "help", "--man", names[i], NULL };
        struct tokio_run r = tokio_test_run(NULL, NULL, argv);
        char rel[128];
        size_t entries;
        char **options = help_options(names[i], &entries);
        char *page, *section, *end;

        print_message("%s\n", names[i]);
        assert_int_equal(r.status, 0);
        assert_string_equal(r.err, "");
        snprintf(rel, sizeof(rel), "man/man1/tokio-%s.1", names[i]);
        page = read_share(rel);
        assert_string_equal(page, r.out);
        roff_word(want, sizeof(want), names[i]);
        assert_contains(page, "\n.SH NAME\ntokio\\-");
        assert_contains(page, want);
        section = strstr(page, "\n.SH OPTIONS\n");
        assert_non_null(section);
        end = strstr(section + 1, "\n.SH ");
        assert_non_null(end);
        *end = '\0';
        assert_int_equal(count(section, "\n.TP\n"), entries);
        for (size_t j = 0; options[j] != NULL; j++) {
            char spelled[256];
            roff_word(spelled, sizeof(spelled), options[j]);
            snprintf(want, sizeof(want), "\\fB%s\\fR", spelled);
            if (strstr(section, want) == NULL)
                fail_msg("tokio-%s.1 does not name %s (%s) in OPTIONS:\n%s",
                         names[i], options[j], want, section);
        }
        free(page);
        tokio_run_free(&r);
    }
    for (size_t i = 0; names[i] != NULL; i++) {
        char spelled[128];
        roff_word(spelled, sizeof(spelled), names[i]);
        snprintf(want, sizeof(want), "\\fBtokio\\-%s\\fR(1)\n", spelled);
        assert_contains(overview, want);
    }
    free(overview);
}

/* What roff would read as markup is written as text: a leading '.',
 * backslashes, quotes, hyphens as \-, UTF-8 as \[uXXXX]. */
static void
test_roff_escapes_markup(void **state)
{
    static const char text[] =
        "a\\b 'q' `x` \"y\" -n\n.TH x\n'c\n\xc3\xa9 \xe2\x9c\x93 \xff\tz";
    static const char want[] =
        "a\\(rsb \\(aqq\\(aq \\(gax\\(ga \\(dqy\\(dq \\-n\n\\&.TH x\n"
        "\\(aqc\n\\[u00E9] \\[u2713] ? z";
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    (void)state;
    assert_non_null(fp);
    cli_roff(fp, text);
    assert_int_equal(fclose(fp), 0);
    assert_string_equal(buf, want);
    free(buf);
}

/* The escaped text renders as the text it came from (groff; skipped
 * without it). */
static void
test_roff_escapes_render_as_the_text(void **state)
{
    char *dir = tokio_test_mkdtemp();
    char *path = tokio_test_join(dir, "t.1");
    char command[4200], *out;
    FILE *fp;

    (void)state;
    if (!have("groff")) {
        print_message("skipped: groff is not installed\n");
        tokio_test_rmtree(dir);
        free(path);
        free(dir);
        skip();
    }
    fp = fopen(path, "w");
    assert_non_null(fp);
    cli_man_head(fp, "tokio-x", "a summary");
    fputs(".SH DESCRIPTION\n", fp);
    cli_roff(fp, "a\\b 'q' \"y\" --n\n.TH x\n'c\n");
    assert_int_equal(fclose(fp), 0);
    snprintf(command, sizeof(command),
             "groff -man -Tutf8 -ww -P-cbou %s 2>&1", path);
    assert_int_equal(sh(command, &out), 0);
    assert_null(strstr(out, "troff:"));
    assert_contains(out, "a\\b 'q' \"y\" --n .TH x 'c");
    assert_contains(out, "tokio-x - a summary");
    free(out);
    tokio_test_rmtree(dir);
    free(path);
    free(dir);
}

/* Every page the build wrote renders with no warning, as man shows it,
 * its options readable as typed (groff, all pages in one run; skipped
 * without it). */
static void
test_pages_render_without_warnings(void **state)
{
    char **names = command_names();
    char command[4200], *out;

    (void)state;
    if (!have("groff")) {
        print_message("skipped: groff is not installed\n");
        skip();
    }
    snprintf(command, sizeof(command),
             "cd %s/share/man/man1 && groff -man -Tutf8 -ww -P-cbou "
             "tokio.1 tokio-*.1 2>&1", build_dir());
    assert_int_equal(sh(command, &out), 0);
    /* groff's diagnostics: "troff: FILE:LINE: warning: ..." */
    if (strstr(out, "troff:") != NULL)
        fail_msg("%s", out);
    assert_contains(out, "TOKIO(1)");
    assert_contains(out, "tokio-summarize-job(1)");
    for (size_t i = 0; names[i] != NULL; i++) {
        size_t entries;
        char **options = help_options(names[i], &entries);
        char name_line[128], *page, *end;

        /* the page: from its NAME line to the next page's */
        snprintf(name_line, sizeof(name_line), "\n       tokio-%s - ",
                 names[i]);
        page = strstr(out, name_line);
        if (page == NULL)
            fail_msg("no page of %s among:\n%s", names[i], out);
        end = strstr(page + 1, "\nNAME\n");
        if (end != NULL)
            *end = '\0';
        for (size_t j = 0; options[j] != NULL; j++)
            assert_contains(page, options[j]);
        if (end != NULL)
            *end = '\n';
    }
    free(out);
}

/* What the completion offers for the words `line` (the word completed
 * last), one per line, in the order bash gets them. */
static char *
complete(const char *line)
{
    char command[4200], *out;

    snprintf(command, sizeof(command),
             "bash --norc --noprofile -c '. %s/share/bash-completion/"
             "completions/tokio && COMP_WORDS=(%s) && "
             "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && _tokio && "
             "printf \"%%s\\n\" \"${COMPREPLY[@]}\"' 2>&1",
             build_dir(), line);
    assert_int_equal(sh(command, &out), 0);
    return out;
}

/* The script is what `tokio completion bash` writes, and bash reads it
 * (bash -n), registers it, and completes commands, options, and words
 * of help and completion; other words are left to file names. */
static void
test_completion_completes_commands_and_options(void **state)
{
    const char *argv[] = { "completion", "bash", NULL };
    struct tokio_run r;
    char *script;
    char command[4200], *out;
    size_t entries, n_long = 0;
    char **options;

    (void)state;
    if (!have("bash")) {
        print_message("skipped: bash is not installed\n");
        skip();
    }
    r = tokio_test_run(NULL, NULL, argv);
    script = read_share("bash-completion/completions/tokio");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_string_equal(script, r.out);
    snprintf(command, sizeof(command),
             "bash -n %s/share/bash-completion/completions/tokio 2>&1 && "
             "bash --norc -c '. %s/share/bash-completion/completions/tokio "
             "&& complete -p tokio' 2>&1", build_dir(), build_dir());
    assert_int_equal(sh(command, &out), 0);
    assert_string_equal(out, "complete -o default -F _tokio tokio\n");
    free(out);

    out = complete("tokio cache-s");
    assert_string_equal(out, "cache-slurm\n");
    free(out);
    out = complete("tokio summ");
    assert_string_equal(out, "summarize-darshanlogs\nsummarize-h5lmt\n"
                             "summarize-job\nsummarize-tts\n");
    free(out);

    /* summarize-job --<TAB>: the long options of its --help, in order */
    options = help_options("summarize-job", &entries);
    out = complete("tokio summarize-job --");
    for (size_t j = 0; options[j] != NULL; j++)
        if (options[j][1] == '-') {
            char want[128];
            snprintf(want, sizeof(want), "%s\n", options[j]);
            assert_contains(out, want);
            n_long++;
        }
    assert_int_equal(count(out, "\n"), n_long);
    assert_true(n_long >= 14);
    free(out);

    out = complete("tokio summarize_job --slu");   /* the reference's */
    assert_string_equal(out, "--slurm-jobid\n");
    free(out);
    out = complete("tokio cache-slurm -");
    assert_contains(out, "-j\n");
    assert_contains(out, "--native\n");
    free(out);
    out = complete("tokio help --man summarize-j");
    assert_string_equal(out, "summarize-job\n");
    free(out);
    out = complete("tokio completion ba");
    assert_string_equal(out, "bash\n");
    free(out);
    out = complete("tokio cache-darshan sam");     /* files: bash's */
    assert_string_equal(out, "\n");
    free(out);
    out = complete("tokio --v");
    assert_string_equal(out, "--version\n");
    free(out);
    free(script);
    tokio_run_free(&r);
}

/* A bad `help --man` or `completion` line is a usage error. */
static void
test_bad_man_and_completion_lines_exit_2(void **state)
{
    const char *nosuch[] = { "help", "--man", "frobnicate", NULL };
    const char *two[] = { "help", "--man", "config", "umami", NULL };
    const char *zsh[] = { "completion", "zsh", NULL };
    const char *none[] = { "completion", NULL };

    (void)state;
    tokio_test_run_fails(NULL, nosuch, 2, "'frobnicate' is not a tokio");
    tokio_test_run_fails(NULL, two, 2, "--man takes one command, or none");
    tokio_test_run_fails(NULL, zsh, 2, "give the shell: bash");
    tokio_test_run_fails(NULL, none, 2, "give the shell: bash");
}

/* `cmake --install` with DESTDIR puts a page per command, tokio(1) and
 * the completion where man and bash-completion look for them, as the
 * build wrote them (cmake; skipped without it). */
static void
test_install_puts_pages_and_completion_in_place(void **state)
{
    char **names = command_names();
    char command[4200], path[4200], rel[256], *out, *dest;

    (void)state;
    if (!have("cmake")) {
        print_message("skipped: cmake is not installed\n");
        skip();
    }
    dest = tokio_test_mkdtemp();
    snprintf(command, sizeof(command),
             "DESTDIR=%s cmake --install %s --prefix /usr/local 2>&1",
             dest, build_dir());
    if (sh(command, &out) != 0)
        fail_msg("%s: %s", command, out);
    free(out);
    for (size_t i = 0; names[i] != NULL; i++) {
        char *installed, *built;
        snprintf(rel, sizeof(rel), "man/man1/tokio-%s.1", names[i]);
        snprintf(path, sizeof(path), "%s/usr/local/share/%s", dest, rel);
        installed = tokio_test_read_file(path, NULL);
        if (installed == NULL)
            fail_msg("%s was not installed", path);
        built = read_share(rel);
        assert_string_equal(installed, built);
        free(installed);
        free(built);
    }
    const char *others[] = { "man/man1/tokio.1",
                             "bash-completion/completions/tokio" };
    for (size_t i = 0; i < 2; i++) {
        char *installed;
        snprintf(path, sizeof(path), "%s/usr/local/share/%s", dest,
                 others[i]);
        installed = tokio_test_read_file(path, NULL);
        if (installed == NULL)
            fail_msg("%s was not installed", path);
        free(installed);
    }
    snprintf(path, sizeof(path), "%s/usr/local/share/man/man1", dest);
    size_t n = 0;
    while (names[n] != NULL)
        n++;
    assert_int_equal(tokio_test_count_entries(path), n + 1);
    tokio_test_rmtree(dest);
    free(dest);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_command_has_a_page_naming_its_options),
        cmocka_unit_test(test_roff_escapes_markup),
        cmocka_unit_test(test_roff_escapes_render_as_the_text),
        cmocka_unit_test(test_pages_render_without_warnings),
        cmocka_unit_test(test_completion_completes_commands_and_options),
        cmocka_unit_test(test_bad_man_and_completion_lines_exit_2),
        cmocka_unit_test(test_install_puts_pages_and_completion_in_place),
    };

    return cmocka_run_group_tests(tests, NULL, forget_help);
}
