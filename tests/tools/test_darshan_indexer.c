/*
 * tests/tools/test_darshan_indexer.c - src/tools/darshan_indexer.c:
 * mount_to_fsname, the per-log summary (the reference's summarize_by_fs),
 * its lite mode, and the index on the project's own sample logs.
 */
#include "testutil.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tokio/config.h"
#include "tokio/tools/darshan_indexer.h"

static struct tokio_config *
config(const char *text)
{
    struct tokio_config *cfg = NULL;

    assert_int_equal(tokio_config_open_mem(&cfg, text, strlen(text),
                                           "test.json"), 0);
    return cfg;
}

/* Every pattern is tried; the last match wins (the reference's loop). */
static void
test_fsmap_last_match_wins(void **state)
{
    struct tokio_config *cfg = config(
        "{\"mount_to_fsname\": {\"^/global/project\": \"project2\", "
        "\"^/global/projectb\": \"projectb\", \"^/scr.tch\\\\d\": \"s\"}}");
    struct tokio_darshan_fsmap *map = NULL;

    (void)state;
    assert_int_equal(tokio_darshan_fsmap_new(&map, cfg), 0);
    assert_string_equal(tokio_darshan_fsmap_lookup(map, "/global/project"),
                        "project2");
    assert_string_equal(tokio_darshan_fsmap_lookup(map, "/global/projectb"),
                        "projectb");
    assert_string_equal(tokio_darshan_fsmap_lookup(map, "/scratch2"), "s");
    /* anchored at the start, as re.match() */
    assert_null(tokio_darshan_fsmap_lookup(map, "/x/global/project"));
    tokio_darshan_fsmap_free(map);
    tokio_config_free(cfg);
}

static void
test_fsmap_bad_pattern_names_key(void **state)
{
    struct tokio_config *cfg = config(
        "{\"mount_to_fsname\": {\"^/ok\": \"ok\", \"[a-\": \"bad\"}}");
    struct tokio_darshan_fsmap *map = NULL;

    (void)state;
    assert_int_equal(tokio_darshan_fsmap_new(&map, cfg), TOKIO_EFORMAT);
    assert_null(map);
    assert_contains(tokio_errmsg(), "mount_to_fsname");
    assert_contains(tokio_errmsg(), "'[a-'");
    tokio_config_free(cfg);

    cfg = config("{\"mount_to_fsname\": {\"^/ok\": 3}}");
    assert_int_equal(tokio_darshan_fsmap_new(&map, cfg), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "mount_to_fsname");
    tokio_config_free(cfg);
    cfg = config("{\"mount_to_fsname\": [\"^/ok\"]}");
    assert_int_equal(tokio_darshan_fsmap_new(&map, cfg), TOKIO_EFORMAT);
    tokio_config_free(cfg);
}

/* sample.darshan as the reference's summarize_by_fs saw it (values of
 * golden/pytokio/index_darshanlogs/pytokio-inputs.sql, log 7). */
static void
test_summarize_sample(void **state)
{
    TOKIO_TEST_NEED_DATA(log, "pytokio-inputs/sample.darshan");
    struct tokio_config *cfg = config(
        "{\"mount_to_fsname\": {\"^/scratch2\": \"scratch2\"}}");
    struct tokio_darshan_fsmap *map = NULL;
    json_t *s = NULL, *lite = NULL;

    (void)state;
    assert_int_equal(tokio_darshan_fsmap_new(&map, cfg), 0);
    assert_int_equal(tokio_darshan_summarize_by_fs(&s, log, map, 0), 0);
    json_t *scratch = json_object_get(json_object_get(s, "summaries"),
                                      "/scratch2");
    assert_non_null(scratch);
    assert_int_equal(json_integer_value(json_object_get(scratch,
                     "bytes_written")), 2199023259968LL);
    assert_int_equal(json_integer_value(json_object_get(scratch,
                     "posix_files")), 1);
    assert_true(json_is_null(json_object_get(scratch, "stdio_files")));
    assert_true(json_real_value(json_object_get(scratch,
                "f_close_start_timestamp")) == 3.927094);
    assert_string_equal(json_string_value(json_object_get(
        json_object_get(s, "mounts"), "/scratch2")), "scratch2");
    assert_string_equal(json_string_value(json_object_get(
        json_object_get(s, "headers"), "exename")), "vpicio_uni");
    assert_int_equal(json_integer_value(json_object_get(
        json_object_get(s, "headers"), "walltime")), 117);

    /* lite: the same, but no file counts */
    assert_int_equal(tokio_darshan_summarize_by_fs(&lite, log, map, 1), 0);
    json_t *ls = json_object_get(json_object_get(lite, "summaries"),
                                 "/scratch2");
    assert_true(json_is_null(json_object_get(ls, "posix_files")));
    json_object_set_new(scratch, "posix_files", json_null());
    json_t *unk = json_object_get(json_object_get(s, "summaries"),
                                  "UNKNOWN");
    json_object_set_new(unk, "stdio_files", json_null());
    assert_true(json_equal(s, lite));
    json_decref(s);
    json_decref(lite);
    tokio_darshan_fsmap_free(map);
    tokio_config_free(cfg);
}

/* The index on the project's own samples (no pack needed). */
static void
test_index_own_samples(void **state)
{
    const char *bin = getenv("TOKIO_BIN");
    char folder[4300], db[4300];
    char *tmp = tokio_test_mkdtemp();
    struct tokio_darshan_index_stats st;
    struct tokio_darshan_index_opts o = { .threads = 2 };

    (void)state;
    snprintf(folder, sizeof(folder), "%.*s/examples/data/darshanlogs/2019/"
             "2/14", (int)(strrchr(bin, '/') - bin), bin);
    snprintf(db, sizeof(db), "%s/i.db", tmp);
    const char *logs[] = { folder };
    assert_int_equal(tokio_darshan_index(db, logs, 1, NULL, &o, &st), 0);
    assert_int_equal(st.n_inputs, 2);
    assert_int_equal(st.n_indexed + st.n_failed, 2);
    assert_true(st.n_indexed >= 1);
    assert_int_equal(tokio_darshan_index(db, logs, 1, NULL, &o, &st), 0);
    assert_int_equal(st.n_existing, st.n_existing_in_db);
    assert_int_equal(st.n_indexed, 0);
    tokio_test_rmtree(tmp);
    free(tmp);
}

/*
 * A folder gives its regular files and links to them (not folders or
 * dangling links), and two runs of one log each build the index one run
 * of both does: mount rows the first run wrote are found again.
 */
static void
test_index_folder_then_log_by_log(void **state)
{
    static const char *const names[2] = {
        "alice_h5analyze_id4478655_2-14-43323-6213206756177816041_1.darshan",
        "glock_ior_id4478601_2-14-36000-4991620618526952987_1.darshan"
    };
    const char *bin = getenv("TOKIO_BIN");
    char *tmp = tokio_test_mkdtemp();
    char src[4300], dir[4300], path[2][4400], db[2][4300], x[4400];
    struct tokio_darshan_index_stats st;
    size_t len;

    (void)state;
    snprintf(dir, sizeof(dir), "%s/logs", tmp);
    assert_int_equal(mkdir(dir, 0755), 0);
    for (int i = 0; i < 2; i++) {
        snprintf(src, sizeof(src), "%.*s/examples/data/darshanlogs/2019/2/"
                 "14/%s", (int)(strrchr(bin, '/') - bin), bin, names[i]);
        snprintf(path[i], sizeof(path[i]), "%s/%s", dir, names[i]);
        snprintf(db[i], sizeof(db[i]), "%s/%d.db", tmp, i);
        if (i == 0) {
            assert_int_equal(symlink(src, path[i]), 0);
        } else {
            char *bytes = tokio_test_read_file(src, &len);
            tokio_test_write_file(path[i], bytes, len);
            free(bytes);
        }
    }
    snprintf(x, sizeof(x), "%s/sub", dir);
    assert_int_equal(mkdir(x, 0755), 0);
    snprintf(x, sizeof(x), "%s/gone.darshan", dir);
    assert_int_equal(symlink("/nonexistent/gone.darshan", x), 0);

    const char *folder[] = { dir };
    assert_int_equal(tokio_darshan_index(db[0], folder, 1, NULL, NULL, &st),
                     0);
    assert_int_equal(st.n_inputs, 2);
    for (int i = 0; i < 2; i++) {
        const char *one[] = { path[i] };
        assert_int_equal(tokio_darshan_index(db[1], one, 1, NULL, NULL,
                                             &st), 0);
        assert_int_equal(st.n_inputs, 1);
    }
    char *a = tokio_test_sqlite_dump(db[0]), *b = tokio_test_sqlite_dump(db[1]);
    if (a != NULL) {
        assert_non_null(strstr(a, "INSERT INTO mounts"));
        assert_string_equal(a, b);
    }
    free(a);
    free(b);
    tokio_test_rmtree(tmp);
    free(tmp);
    TOKIO_TEST_NEED_SQLITE3(a);
}

/* One run for the sweep below: a log the failure hit counts as failed. */
struct oom_run {
    char db[4300], folder[4300];
    int log_oom;
};

static void
oom_warn(void *arg, const char *path, const char *why)
{
    struct oom_run *t = arg;

    (void)path;
    assert_non_null(strstr(why, "out of memory"));
    t->log_oom = 1;
}

static int
oom_trial(void *ctx)
{
    struct oom_run *t = ctx;
    struct tokio_darshan_index_opts o = { .warn = oom_warn, .arg = t };
    const char *logs[] = { t->folder };

    unlink(t->db);
    t->log_oom = 0;
    int rc = tokio_darshan_index(t->db, logs, 1, NULL, &o, NULL);
    return rc == TOKIO_OK && t->log_oom ? TOKIO_ENOMEM : rc;
}

/* Out of memory anywhere: the run fails or the log is skipped, cleanly. */
static void
test_index_survives_every_oom(void **state)
{
    const char *bin = getenv("TOKIO_BIN");
    char *tmp = tokio_test_mkdtemp();
    struct oom_run t;

    (void)state;
    snprintf(t.folder, sizeof(t.folder), "%.*s/examples/data/darshanlogs/"
             "2019/2/14", (int)(strrchr(bin, '/') - bin), bin);
    snprintf(t.db, sizeof(t.db), "%s/oom.db", tmp);
    tokio_test_every_oom(oom_trial, &t, 1);
    tokio_test_rmtree(tmp);
    free(tmp);
}

static void
test_index_bad_arguments(void **state)
{
    struct tokio_darshan_index_opts o = { .max_mb = -1 };
    const char *logs[] = { "x" };

    (void)state;
    assert_int_equal(tokio_darshan_index(NULL, logs, 1, NULL, NULL, NULL),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_darshan_index("/nonexistent/dir/x.db", logs, 1,
                                         NULL, &o, NULL), TOKIO_EINVAL);
    assert_int_equal(tokio_darshan_index("/nonexistent/dir/x.db", logs, 1,
                                         NULL, NULL, NULL), TOKIO_EIO);
    assert_contains(tokio_errmsg(), "/nonexistent/dir/x.db");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fsmap_last_match_wins),
        cmocka_unit_test(test_fsmap_bad_pattern_names_key),
        cmocka_unit_test(test_summarize_sample),
        cmocka_unit_test(test_index_own_samples),
        cmocka_unit_test(test_index_folder_then_log_by_log),
        cmocka_unit_test(test_index_survives_every_oom),
        cmocka_unit_test(test_index_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
