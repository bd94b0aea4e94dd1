/*
 * tests/core/test_testutil.c - the test helpers other tests trust: the
 * CSV comparison behind assert_golden() must find real differences and
 * ignore only how a number is spelled.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

static void
test_csv_diff_equal_texts_and_number_spellings(void **state)
{
    (void)state;
    assert_int_equal(tokio_test_csv_diff("", ""), 0);
    assert_int_equal(tokio_test_csv_diff("a,b\n1,2\n", "a,b\n1,2\n"), 0);
    assert_int_equal(tokio_test_csv_diff("x,1.0\n", "x,1\n"), 0);
    assert_int_equal(tokio_test_csv_diff("x,1e3\n", "x,1000.0\n"), 0);
    assert_int_equal(tokio_test_csv_diff("\"a,b\",2\n", "\"a,b\",2\r\n"), 0);
    assert_int_equal(tokio_test_csv_diff("\"say \"\"hi\"\"\"\n",
                                         "\"say \"\"hi\"\"\"\n"), 0);
    assert_int_equal(tokio_test_csv_diff(",\n", ",\n"), 0);
}

static void
test_csv_diff_reports_the_first_differing_line(void **state)
{
    (void)state;
    assert_int_equal(tokio_test_csv_diff("a\n1\n2\n", "a\n1\n3\n"), 3);
    assert_int_equal(tokio_test_csv_diff("a,b\n", "a\n"), 1);
    assert_int_equal(tokio_test_csv_diff("a\n1\n", "a\n"), 2);
    assert_int_equal(tokio_test_csv_diff("x,\n", "x,0\n"), 1);
    assert_int_equal(tokio_test_csv_diff("x,1.0\n", "x,1.0x\n"), 1);
    assert_int_equal(tokio_test_csv_diff("\"a,b\"\n", "a,b\n"), 1);
    assert_int_equal(tokio_test_csv_diff("x,-0.0\n", "x,0.0\n"), 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_diff_equal_texts_and_number_spellings),
        cmocka_unit_test(test_csv_diff_reports_the_first_differing_line),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
