/*
 * tests/connectors/test_connectors.c - what every text connector of the
 * table (src/connectors/registry.c) must do, checked alike for all from
 * the project's own fixtures, so none needs the test-data pack:
 *
 *   tests/connectors/NAME/good/FILE     opens; its JSON form read back
 *                                       gives the same JSON; opening it
 *                                       survives every failed allocation;
 *                                       native text is bid for by NAME
 *                                       above every other connector
 *   tests/connectors/NAME/bad/X.EXT     fails as X.expect says: its first
 *                                       line the status (EFORMAT, EIO...),
 *                                       its second a part of the message
 */
#include "testutil.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/alloc.h"
#include "connectors/registry.h"
#include "tokio/output.h"

static const struct {
    const char *name;
    int status;
} statuses[] = {
    { "ERR", TOKIO_ERR },         { "ENOMEM", TOKIO_ENOMEM },
    { "EIO", TOKIO_EIO },         { "EFORMAT", TOKIO_EFORMAT },
    { "ENOTFOUND", TOKIO_ENOTFOUND }, { "EINVAL", TOKIO_EINVAL },
};

static int
status_named(const char *name)
{
    for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
        if (strcmp(statuses[i].name, name) == 0)
            return statuses[i].status;
    fail_msg("unknown status '%s' in an .expect file", name);
    return 0;
}

/* The sorted names of the files in `dir` not ending in `.expect`
 * (NULL-ended; free each and the list), or NULL when there is no such
 * folder. */
static char **
fixtures(const char *dir)
{
    DIR *dp = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0;

    if (dp == NULL)
        return NULL;
    while ((e = readdir(dp)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' ||
            (len > 7 && strcmp(e->d_name + len - 7, ".expect") == 0))
            continue;
        names = realloc(names, (n + 2) * sizeof(*names));
        assert_non_null(names);
        names[n++] = strdup(e->d_name);
    }
    closedir(dp);
    if (names == NULL)
        names = calloc(1, sizeof(*names));
    assert_non_null(names);
    names[n] = NULL;
    for (size_t i = 1; i < n; i++)      /* insertion sort: a few files */
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    return names;
}

static void
free_names(char **names)
{
    for (size_t i = 0; names != NULL && names[i] != NULL; i++)
        free(names[i]);
    free(names);
}

struct trial {
    const struct tokio__connector *c;
    const char *path;
    const json_t *want;     /* the JSON form opened without failures */
};

/* Open, take the JSON form and read it back: for the OOM sweep.  A run
 * that succeeds despite a failed allocation must give what a run without
 * one gives: a failure swallowed on the way would show here. */
static int
open_and_round_trip(void *ctx)
{
    const struct trial *t = ctx;
    void *h = NULL, *again = NULL;
    json_t *json = NULL, *back = NULL;
    int rc = tokio__connector_open(t->c, &h, t->path);

    /* out of memory too names the input (issue 17 item 8: "out of memory
     * reading Slurm tasks" did not say which) */
    if (rc < 0) {
        assert_null(h);
        assert_contains(tokio_errmsg(), t->path);
    }
    if (rc >= 0)
        rc = t->c->to_json(h, &json);
    if (rc >= 0 && t->c->add_json != NULL &&
        (rc = tokio__connector_from_json(t->c, &again, json)) >= 0)
        rc = t->c->to_json(again, &back);
    if (rc >= 0 && !json_equal(json, t->want))
        fail_msg("%s: opened despite a failed allocation, it differs",
                 t->path);
    json_decref(back);
    json_decref(json);
    if (again != NULL)
        t->c->free(again);
    if (h != NULL)
        t->c->free(h);
    return rc;
}

static void
check_good(const struct tokio__connector *c, const char *path)
{
    void *h = NULL, *again = NULL;
    json_t *json = NULL, *back = NULL;
    char *text;
    size_t len = 0, i = 0;
    struct trial t = { c, path, NULL };

    print_message("%s: %s\n", c->name, path);
    if (tokio__connector_open(c, &h, path) < 0)
        fail_msg("%s: %s", path, tokio_errmsg());
    assert_int_equal(c->to_json(h, &json), TOKIO_OK);
    if (c->add_json != NULL) {
        if (tokio__connector_from_json(c, &again, json) < 0)
            fail_msg("%s: its JSON read back: %s", path, tokio_errmsg());
        assert_int_equal(c->to_json(again, &back), TOKIO_OK);
        if (!json_equal(json, back))
            fail_msg("%s: its JSON read back is not the same", path);
    }
    if (c->write_csv != NULL) {
        FILE *null = fopen("/dev/null", "w");
        assert_non_null(null);
        assert_int_equal(c->write_csv(h, null), TOKIO_OK);
        fclose(null);
    }
    /* native text (not a JSON form, not compressed): bid for by its own
     * connector above all others */
    text = tokio_test_read_file(path, &len);
    assert_non_null(text);
    while (i < len && strchr(" \t\r\n", text[i]) != NULL)
        i++;
    if (i < len && text[i] != '{' && text[i] != '[' &&
        (unsigned char)text[0] != 0x1f && strncmp(text, "BZh", 3) != 0) {
        const struct tokio__connector *best = tokio__connector_bid(text, len);
        if (best != c)
            fail_msg("%s: bid for by %s, not %s", path,
                     best ? best->name : "no connector", c->name);
    }
    free(text);
    t.want = json;
    tokio_test_every_oom(open_and_round_trip, &t, 1);
    json_decref(back);
    json_decref(json);
    if (again != NULL)
        c->free(again);
    c->free(h);
}

static void
check_bad(const struct tokio__connector *c, const char *dir,
          const char *file)
{
    char *path = tokio_test_join(dir, file), *expect, *want, *nl;
    const char *dot = strrchr(file, '.');
    void *h = NULL;
    int rc;

    assert_non_null(dot);
    expect = malloc(strlen(dir) + strlen(file) + 16);
    assert_non_null(expect);
    sprintf(expect, "%s/%.*s.expect", dir, (int)(dot - file), file);
    want = tokio_test_read_file(expect, NULL);
    if (want == NULL)
        fail_msg("%s has no %s", path, expect);
    nl = strchr(want, '\n');
    assert_non_null(nl);
    *nl = '\0';
    nl[1 + strcspn(nl + 1, "\n")] = '\0';
    rc = tokio__connector_open(c, &h, path);
    print_message("%s: %s: %d %s\n", c->name, file, rc, tokio_errmsg());
    assert_int_equal(rc, status_named(want));
    assert_null(h);
    assert_contains(tokio_errmsg(), nl + 1);
    free(want);
    free(expect);
    free(path);
}

static void
test_every_connector_reads_its_fixtures(void **state)
{
    (void)state;
    for (size_t k = 0; tokio__connectors[k] != NULL; k++) {
        const struct tokio__connector *c = tokio__connectors[k];
        char sub[256];
        char *good_dir, *bad_dir, **good, **bad;

        snprintf(sub, sizeof(sub), "tests/connectors/%s/good", c->name);
        good_dir = strdup(tokio_test_source(sub));
        snprintf(sub, sizeof(sub), "tests/connectors/%s/bad", c->name);
        bad_dir = strdup(tokio_test_source(sub));
        good = fixtures(good_dir);
        bad = fixtures(bad_dir);
        if (good == NULL || good[0] == NULL)
            fail_msg("%s has no fixtures in %s", c->name, good_dir);
        if (bad == NULL || bad[0] == NULL)
            fail_msg("%s has no malformed inputs in %s", c->name, bad_dir);
        for (size_t i = 0; good[i] != NULL; i++) {
            char *path = tokio_test_join(good_dir, good[i]);
            check_good(c, path);
            free(path);
        }
        for (size_t i = 0; bad[i] != NULL; i++)
            check_bad(c, bad_dir, bad[i]);
        free_names(good);
        free_names(bad);
        free(good_dir);
        free(bad_dir);
    }
}

/* A missing file is an I/O error naming it, for every connector. */
static void
test_every_connector_names_a_missing_file(void **state)
{
    (void)state;
    for (size_t k = 0; tokio__connectors[k] != NULL; k++) {
        void *h = NULL;
        int rc = tokio__connector_open(tokio__connectors[k], &h,
                                       "/nonexistent/tokio-input");
        assert_int_equal(rc, TOKIO_EIO);
        assert_null(h);
        assert_contains(tokio_errmsg(), "/nonexistent/tokio-input");
    }
}

/* Empty input is an empty result, not an error, as in the reference. */
static void
test_every_connector_opens_empty_input(void **state)
{
    (void)state;
    for (size_t k = 0; tokio__connectors[k] != NULL; k++) {
        const struct tokio__connector *c = tokio__connectors[k];
        void *h = NULL;
        if (tokio__connector_open_mem(c, &h, "", 0, "empty") < 0)
            fail_msg("%s: %s", c->name, tokio_errmsg());
        c->free(h);
    }
}

/*
 * Issue 17: a gigabyte of something else (a sparse file's zeros, a gzip
 * bomb of "x" lines) was read whole, and for some connectors accepted.
 * Now its head decides: refused as not the connector's (EFORMAT, naming
 * the file), and cheaply: allocations beyond a few MiB in all fail, so a
 * reader that read on would fail with ENOMEM instead.
 */
static void
test_every_connector_refuses_foreign_input_from_its_head(void **state)
{
    char *sparse = tokio_test_join(*state, "sparse");
    char *bomb = tokio_test_join(*state, "bomb.gz");

    tokio_test_write_sparse(sparse, (long long)1 << 30);
    tokio_test_write_gzip_repeat(bomb, NULL, "x\n", (size_t)1 << 29);
    for (size_t k = 0; tokio__connectors[k] != NULL; k++) {
        const struct tokio__connector *c = tokio__connectors[k];
        const char *paths[] = { sparse, bomb };

        for (size_t i = 0; i < 2; i++) {
            void *h = NULL;
            int rc;

            tokio_test_fail_alloc_bytes((size_t)16 << 20);
            rc = tokio__connector_open(c, &h, paths[i]);
            tokio_test_fail_alloc_bytes(0);
            print_message("%s: %s\n", c->name, tokio_errmsg());
            assert_int_equal(rc, TOKIO_EFORMAT);
            assert_null(h);
            assert_contains(tokio_errmsg(), paths[i]);
        }
    }
    free(sparse);
    free(bomb);
}

/* Issue 17: an input that looks right is read no further than its
 * connector's budget (craysdb's, the smallest: 64 MiB), then refused
 * naming the file and the budget. */
static void
test_budget_bounds_what_is_read(void **state)
{
    char *path = tokio_test_join(*state, "big.gz");
    const struct tokio__connector *c = tokio__connector_find("craysdb");
    void *h = NULL;

    assert_non_null(c);
    /* an xtdb2proc comment, then 80 MiB of lines */
    tokio_test_write_gzip_repeat(path, "#\n", "x\n", (size_t)40 << 20);
    assert_int_equal(tokio__connector_open(c, &h, path), TOKIO_EFORMAT);
    assert_null(h);
    assert_contains(tokio_errmsg(), "big.gz': more than 64 MiB after "
                    "decompression, the most the craysdb reader takes");
    free(path);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_connector_reads_its_fixtures),
        cmocka_unit_test(test_every_connector_names_a_missing_file),
        cmocka_unit_test(test_every_connector_opens_empty_input),
        cmocka_unit_test_setup_teardown(
            test_every_connector_refuses_foreign_input_from_its_head,
            tokio_test_mkdtemp_setup, tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(test_budget_bounds_what_is_read,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
