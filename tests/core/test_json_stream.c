/*
 * tests/core/test_json_stream.c - the streaming JSON writer
 * (tokio__jstream_*) writes what tokio_json_write() writes for the same
 * tree: separators, indentation, "{}" and "[]" when empty, lists,
 * escaping, the repr() of reals, big unsigned integers, and json_t values
 * at depth.
 * Then its failures: nesting too deep, a NULL value, a failing FILE.
 */
#include "testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "core/alloc.h"
#include "core/json.h"
#include "tokio/output.h"

/* The stream's text for `flags`, written by `fill`. */
static char *
stream_text(unsigned flags, void (*fill)(struct tokio__jstream *),
            int *rc_out)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    struct tokio__jstream *js = tokio__jstream_open(fp, flags);
    assert_non_null(js);
    fill(js);
    *rc_out = tokio__jstream_close(js);
    assert_int_equal(fclose(fp), 0);
    return buf;
}

static json_t *
sample_tree(void)
{
    json_t *root = json_object();
    json_t *inner = json_object();
    json_t *deep = json_object();

    json_object_set_new(deep, "\"q\"\n\xc3\xa9\xf0\x9f\x98\x80",
                        json_string("caf\xc3\xa9\t"));
    json_object_set_new(deep, "b", json_array());
    json_object_set_new(inner, "deep", deep);
    json_object_set_new(inner, "empty", json_object());
    json_object_set_new(inner, "i", json_integer(-42));
    json_object_set_new(inner, "r", json_real(0.1));
    json_object_set_new(inner, "u", tokio_json_uint64(UINT64_MAX));
    json_object_set_new(root, "a", inner);
    json_object_set_new(root, "b", json_real(1e22));
    json_object_set_new(root, "c", json_string(""));
    json_object_set_new(root, "d", json_pack("{s:i, s:[i, s]}", "z", 1,
                                             "y", 2, "x"));
    json_object_set_new(root, "e", json_object());
    return root;
}

/* The same tree, member by member; "d" and "e" as json_t values. */
static void
fill_sample(struct tokio__jstream *js)
{
    json_t *d = json_pack("{s:i, s:[i, s]}", "z", 1, "y", 2, "x");
    json_t *e = json_object();
    json_t *b = json_array();
    static const char deep_key[] = "\"q\"\n\xc3\xa9\xf0\x9f\x98\x80";

    tokio__jstream_begin(js);
    tokio__jstream_key(js, "a", 1);
    tokio__jstream_begin(js);
    tokio__jstream_key(js, "deep", 4);
    tokio__jstream_begin(js);
    tokio__jstream_key(js, deep_key, sizeof(deep_key) - 1);
    tokio__jstream_string(js, "caf\xc3\xa9\t", 6);
    tokio__jstream_key(js, "b", 1);
    tokio__jstream_value(js, b);
    tokio__jstream_end(js);
    tokio__jstream_key(js, "empty", 5);
    tokio__jstream_begin(js);
    tokio__jstream_end(js);
    tokio__jstream_key(js, "i", 1);
    tokio__jstream_int(js, -42);
    tokio__jstream_key(js, "r", 1);
    tokio__jstream_real(js, 0.1);
    tokio__jstream_key(js, "u", 1);
    tokio__jstream_uint(js, UINT64_MAX);
    tokio__jstream_end(js);
    tokio__jstream_key(js, "b", 1);
    tokio__jstream_real(js, 1e22);
    tokio__jstream_key(js, "c", 1);
    tokio__jstream_string(js, "", 0);
    tokio__jstream_key(js, "d", 1);
    tokio__jstream_value(js, d);
    tokio__jstream_key(js, "e", 1);
    tokio__jstream_value(js, e);
    tokio__jstream_end(js);
    json_decref(d);
    json_decref(e);
    json_decref(b);
}

/* A fill function as a writer for tokio_test_assert_writes_tree(). */
struct filler {
    void (*fill)(struct tokio__jstream *);
};

static int
write_filled(const void *obj, FILE *fp, unsigned flags)
{
    const struct filler *f = obj;
    struct tokio__jstream *js = tokio__jstream_open(fp, flags);

    if (js == NULL)
        return TOKIO_ENOMEM;
    f->fill(js);
    return tokio__jstream_close(js);
}

static void
test_stream_writes_what_the_tree_writer_writes(void **state)
{
    static const unsigned flags[] = {
        TOKIO_JSON_SORT_KEYS, TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4),
        TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(1),
    };
    const struct filler sample = { fill_sample };
    json_t *tree = sample_tree();

    (void)state;
    tokio_test_assert_writes_tree(write_filled, &sample, tree, flags,
                                  sizeof(flags) / sizeof(flags[0]));
    json_decref(tree);
}

/* Lists: of objects, of scalars, empty, nested, at the top level too. */
static void
fill_lists(struct tokio__jstream *js)
{
    tokio__jstream_begin(js);
    tokio__jstream_key(js, "a", 1);
    tokio__jstream_begin_list(js);
    for (int i = 0; i < 2; i++) {
        tokio__jstream_item(js);
        tokio__jstream_begin(js);
        tokio__jstream_key(js, "n", 1);
        tokio__jstream_int(js, i);
        tokio__jstream_key(js, "s", 1);
        tokio__jstream_string(js, "x", 1);
        tokio__jstream_end(js);
    }
    tokio__jstream_end(js);
    tokio__jstream_key(js, "b", 1);
    tokio__jstream_begin_list(js);
    tokio__jstream_end(js);
    tokio__jstream_key(js, "c", 1);
    tokio__jstream_begin_list(js);
    tokio__jstream_item(js);
    tokio__jstream_real(js, 2.5);
    tokio__jstream_item(js);
    tokio__jstream_begin_list(js);
    tokio__jstream_item(js);
    tokio__jstream_begin(js);
    tokio__jstream_end(js);
    tokio__jstream_end(js);
    tokio__jstream_end(js);
    tokio__jstream_end(js);
}

static void
test_stream_lists(void **state)
{
    static const unsigned flags[] = {
        TOKIO_JSON_SORT_KEYS, TOKIO_JSON_SORT_KEYS | TOKIO_JSON_INDENT(4),
    };
    json_t *tree = json_pack("{s:[{s:i, s:s}, {s:i, s:s}], s:[], "
                             "s:[f, [{}]]}", "a", "n", 0, "s", "x", "n", 1,
                             "s", "x", "b", "c", 2.5);

    const struct filler lists = { fill_lists };

    (void)state;
    assert_non_null(tree);
    tokio_test_assert_writes_tree(write_filled, &lists, tree, flags,
                                  sizeof(flags) / sizeof(flags[0]));
    json_decref(tree);
}

static void
fill_empty(struct tokio__jstream *js)
{
    tokio__jstream_begin(js);
    tokio__jstream_end(js);
    tokio__jstream_end(js);     /* one end too many is ignored */
}

static void
test_stream_empty_object(void **state)
{
    int rc;
    char *got = stream_text(TOKIO_JSON_INDENT(4), fill_empty, &rc);

    (void)state;
    assert_int_equal(rc, TOKIO_OK);
    assert_string_equal(got, "{}");
    free(got);
}

static void
fill_too_deep(struct tokio__jstream *js)
{
    for (int i = 0; i < 70; i++) {
        tokio__jstream_begin(js);
        tokio__jstream_key(js, "k", 1);
    }
    tokio__jstream_int(js, 1);
    for (int i = 0; i < 70; i++)
        tokio__jstream_end(js);
}

static void
fill_null_value(struct tokio__jstream *js)
{
    tokio__jstream_begin(js);
    tokio__jstream_key(js, "k", 1);
    tokio__jstream_value(js, NULL);
    tokio__jstream_end(js);
}

static void
test_stream_failures_are_kept_for_close(void **state)
{
    int rc;
    char *got;

    (void)state;
    got = stream_text(0, fill_too_deep, &rc);
    assert_int_equal(rc, TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "deeper than 64");
    free(got);
    got = stream_text(0, fill_null_value, &rc);
    assert_int_equal(rc, TOKIO_EINVAL);
    free(got);

    FILE *full = fopen("/dev/full", "w");
    if (full == NULL) {
        print_message("skipped: no /dev/full\n");
        skip();
    }
    struct tokio__jstream *js = tokio__jstream_open(full, 0);
    assert_non_null(js);
    fill_sample(js);
    assert_int_equal(tokio__jstream_close(js), TOKIO_EIO);
    assert_string_equal(tokio_errmsg(),
                        "writing JSON failed: No space left on device");
    fclose(full);
    assert_int_equal(tokio__jstream_close(NULL), TOKIO_OK);
}

static void
test_stream_open_out_of_memory(void **state)
{
    (void)state;
    tokio_test_fail_alloc_at(1);
    struct tokio__jstream *js = tokio__jstream_open(stdout, 0);
    tokio_test_fail_alloc_at(0);
    assert_null(js);
    assert_int_equal(tokio_errcode(), TOKIO_ENOMEM);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_writes_what_the_tree_writer_writes),
        cmocka_unit_test(test_stream_lists),
        cmocka_unit_test(test_stream_empty_object),
        cmocka_unit_test(test_stream_failures_are_kept_for_close),
        cmocka_unit_test(test_stream_open_out_of_memory),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
