/*
 * tests/core/test_error.c - the per-thread last error, and write
 * failures reported with their cause.
 */
#include "testutil.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/wbuf.h"

static void
test_error_returns_status_and_keeps_message(void **state)
{
    (void)state;
    assert_int_equal(tokio__error(TOKIO_EFORMAT, "'%s' line %d: bad", "f.txt",
                                  7), TOKIO_EFORMAT);
    assert_string_equal(tokio_errmsg(), "'f.txt' line 7: bad");
    assert_int_equal(tokio_errcode(), TOKIO_EFORMAT);
    tokio_errclear();
    assert_string_equal(tokio_errmsg(), "");
    assert_int_equal(tokio_errcode(), TOKIO_OK);
}

static void
test_error_prefix_adds_context_and_keeps_status(void **state)
{
    (void)state;
    tokio__error(TOKIO_EIO, "read failed");
    assert_int_equal(tokio__error_prefix("'%s'", "site.json"), TOKIO_EIO);
    assert_string_equal(tokio_errmsg(), "'site.json': read failed");
}

static void
test_error_long_messages_are_cut_not_overflowed(void **state)
{
    char big[3000];

    (void)state;
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    tokio__error(TOKIO_ERR, "%s", big);
    assert_int_equal(strlen(tokio_errmsg()), 1023);
    tokio__error_prefix("%s", big);
    assert_int_equal(strlen(tokio_errmsg()), 1023);
    tokio__error(TOKIO_ERR, "tail");
    tokio__error_prefix("%s", big);
    assert_int_equal(strlen(tokio_errmsg()), 1023);
}

static void *
other_thread(void *arg)
{
    (void)arg;
    tokio__error(TOKIO_ENOTFOUND, "from the other thread");
    return (void *)tokio_errmsg();
}

static void
test_error_messages_are_per_thread(void **state)
{
    pthread_t t;
    void *other_msg;

    (void)state;
    tokio__error(TOKIO_EIO, "from the main thread");
    assert_int_equal(pthread_create(&t, NULL, other_thread, NULL), 0);
    assert_int_equal(pthread_join(t, &other_msg), 0);
    assert_string_equal(tokio_errmsg(), "from the main thread");
    assert_int_equal(tokio_errcode(), TOKIO_EIO);
    assert_ptr_not_equal(other_msg, tokio_errmsg());
}

static void
test_version_is_semantic(void **state)
{
    int major, minor, patch;

    (void)state;
    assert_int_equal(sscanf(tokio_version(), "%d.%d.%d", &major, &minor,
                            &patch), 3);
}

/* A stream on /dev/full, or skip. */
static FILE *
open_full(void)
{
    FILE *fp = fopen("/dev/full", "w");

    if (fp == NULL) {
        print_message("skipped: no /dev/full\n");
        skip();
    }
    return fp;
}

static void
test_write_check_names_the_cause(void **state)
{
    (void)state;
    FILE *fp = open_full();

    /* a healthy stream: nothing to report */
    assert_int_equal(tokio__write_check(stdout, "cannot write %s", "x"),
                     TOKIO_OK);
    /* more than stdio's buffer, so a write has already failed (and
     * errno been overwritten since) */
    for (int i = 0; i < 10000; i++)
        fprintf(fp, "line %d\n", i);
    assert_true(ferror(fp));
    errno = 0;
    assert_int_equal(tokio__write_check(fp, "cannot write the %s", "table"),
                     TOKIO_EIO);
    assert_string_equal(tokio_errmsg(),
                        "cannot write the table: No space left on device");
    fclose(fp);
}

static void
test_wbuf_notes_the_cause_of_a_large_write(void **state)
{
    (void)state;
    static char big[3 << 16];
    FILE *fp = open_full();
    struct tokio__wbuf *w = malloc(sizeof(*w));

    assert_non_null(w);
    memset(big, 'x', sizeof(big));
    tokio__wbuf_init(w, fp);
    tokio__wbuf_put(w, "[", 1);
    /* larger than the buffer: written straight, bypassing stdio's, so
     * no retry can find the cause later */
    tokio__wbuf_put(w, big, sizeof(big));
    tokio__wbuf_char(w, ']');
    assert_int_equal(tokio__wbuf_finish(w, 1, "writing JSON failed"),
                     TOKIO_EIO);
    assert_string_equal(tokio_errmsg(),
                        "writing JSON failed: No space left on device");
    /* a stream that takes it all: nothing to report */
    FILE *mem = fopen("/dev/null", "w");
    assert_non_null(mem);
    tokio__wbuf_init(w, mem);
    tokio__wbuf_put(w, big, sizeof(big));
    assert_int_equal(tokio__wbuf_finish(w, 1, "writing JSON failed"),
                     TOKIO_OK);
    fclose(mem);
    fclose(fp);
    free(w);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_returns_status_and_keeps_message),
        cmocka_unit_test(test_error_prefix_adds_context_and_keeps_status),
        cmocka_unit_test(test_error_long_messages_are_cut_not_overflowed),
        cmocka_unit_test(test_error_messages_are_per_thread),
        cmocka_unit_test(test_version_is_semantic),
        cmocka_unit_test(test_write_check_names_the_cause),
        cmocka_unit_test(test_wbuf_notes_the_cause_of_a_large_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
