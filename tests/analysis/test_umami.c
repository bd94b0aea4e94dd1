/*
 * tests/analysis/test_umami.c - UMAMI diagrams (src/analysis/umami.c):
 * the highlighted run's quartile colour, worked out by hand from numpy's
 * linear percentiles, in the colour call, in the SVG and in the PNG's
 * pixels; the JSON and table forms; reading a history CSV.
 */
#include "testutil.h"

#include <math.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <jansson.h>

#include "tokio/analysis/umami.h"
#include "tokio/csv.h"
#include "tokio/output.h"

static const char *const scale[4] = {
    TOKIO_UMAMI_COLOR_Q1, TOKIO_UMAMI_COLOR_Q2, TOKIO_UMAMI_COLOR_Q3,
    TOKIO_UMAMI_COLOR_Q4
};

/* History 10, 20, 30, 40, 50: the percentiles of the runs before the
 * last are 20 (25th), 30 (50th), 40 (75th) and 50 (100th). */
static const int64_t times[6] = {
    1488362400, 1488448800, 1488535200, 1488621600, 1488708000, 1488794400
};

static struct tokio_umami *
one_metric(double last, int big_is_good, double third)
{
    double v[6] = { 10, 20, third, 40, 50, last };
    struct tokio_umami *u = NULL;

    assert_int_equal(tokio_umami_new(&u), TOKIO_OK);
    assert_int_equal(tokio_umami_add(u, "m", "a metric", big_is_good, times,
                                     v, 6), TOKIO_OK);
    return u;
}

/* Which of the four colours the picture holds, and how much of it. */
struct seen {
    size_t pixels[4];
};

static struct seen
png_colors(const struct tokio_umami *u, long highlight)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    struct seen seen = { { 0 } };

    assert_non_null(fp);
    assert_int_equal(tokio_umami_write_figure(u, fp, TOKIO_UMAMI_PNG,
                                              highlight), TOKIO_OK);
    fclose(fp);
    assert_true(len > 8 && memcmp(buf, "\x89PNG", 4) == 0);
    char path[] = "/tmp/tokio-umami-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    tokio_test_write_file(path, buf, len);
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    unlink(path);
    assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    int w = cairo_image_surface_get_width(s);
    int h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    const unsigned char *data = cairo_image_surface_get_data(s);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t px = *(const uint32_t *)(data + y * stride + 4 * x);
            unsigned long rgb = px & 0xffffff;
            for (int k = 0; k < 4; k++)
                if (rgb == strtoul(scale[k] + 1, NULL, 16))
                    seen.pixels[k]++;
        }
    cairo_surface_destroy(s);
    free(buf);
    return seen;
}

/* cairo's SVG names a colour as rgb(R%,G%,B%), each "%f" without its
 * trailing zeros */
static char *
svg_text(const struct tokio_umami *u, long highlight)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    assert_int_equal(tokio_umami_write_figure(u, fp, TOKIO_UMAMI_SVG,
                                              highlight), TOKIO_OK);
    fclose(fp);
    return buf;
}

static void
percent(char *out, size_t size, unsigned byte)
{
    size_t n = (size_t)snprintf(out, size, "%f", byte * 100.0 / 255.0);

    while (n > 0 && out[n - 1] == '0')
        out[--n] = '\0';
    if (n > 0 && out[n - 1] == '.')
        out[--n] = '\0';
}

static void
svg_color(const char *hex, char *out, size_t size)
{
    unsigned long v = strtoul(hex + 1, NULL, 16);
    char r[32], g[32], b[32];

    percent(r, sizeof(r), (v >> 16) & 0xff);
    percent(g, sizeof(g), (v >> 8) & 0xff);
    percent(b, sizeof(b), v & 0xff);
    snprintf(out, size, "rgb(%s%%,%s%%,%s%%)", r, g, b);
}

/* The colour call, the PNG and the SVG all show `want` and no other. */
static void
check_highlight(const struct tokio_umami *u, long highlight, int want)
{
    const char *color = NULL;
    struct seen seen = png_colors(u, highlight);
    char *svg = svg_text(u, highlight);

    assert_int_equal(tokio_umami_highlight_color(u, 0, highlight, &color),
                     TOKIO_OK);
    assert_string_equal(color, scale[want]);
    for (int k = 0; k < 4; k++) {
        char rgb[128];
        svg_color(scale[k], rgb, sizeof(rgb));
        print_message("%s: %zu pixels\n", scale[k], seen.pixels[k]);
        if (k == want) {
            assert_true(seen.pixels[k] > 40);   /* the star's inside */
            assert_contains(svg, rgb);
        } else {
            assert_int_equal(seen.pixels[k], 0);
            assert_null(strstr(svg, rgb));
        }
    }
    free(svg);
}

static void
test_umami_big_is_good_colors_by_quartile(void **state)
{
    (void)state;
    /* <= 25th: red; <= 50th: orange; <= 75th: green; <= 100th: blue */
    const double last[4] = { 15, 25, 40, 45 };
    for (int q = 0; q < 4; q++) {
        struct tokio_umami *u = one_metric(last[q], 1, 30);
        check_highlight(u, -1, q);
        tokio_umami_free(u);
    }
}

static void
test_umami_small_is_good_reads_the_scale_backwards(void **state)
{
    (void)state;
    const double last[4] = { 15, 25, 40, 45 };
    for (int q = 0; q < 4; q++) {
        struct tokio_umami *u = one_metric(last[q], 0, 30);
        check_highlight(u, -1, 3 - q);
        tokio_umami_free(u);
    }
}

static void
test_umami_value_above_all_keeps_the_last_color(void **state)
{
    (void)state;
    struct tokio_umami *u = one_metric(1000, 1, 30);
    check_highlight(u, -1, 3);                  /* blue */
    tokio_umami_free(u);
    u = one_metric(1000, 0, 30);
    check_highlight(u, -1, 0);                  /* red: small is good */
    tokio_umami_free(u);
}

/* A missing value in the history is skipped: 10, 20, 40, 50 have the
 * percentiles 17.5, 30, 42.5, 50, so 25 is orange and 35 green. */
static void
test_umami_missing_history_values_are_skipped(void **state)
{
    (void)state;
    struct tokio_umami *u = one_metric(25, 1, NAN);
    check_highlight(u, -1, 1);
    tokio_umami_free(u);
    u = one_metric(35, 1, NAN);
    check_highlight(u, -1, 2);
    tokio_umami_free(u);
}

/* A missing highlighted value is not drawn (no colour anywhere) and its
 * colour is the reference's: above nothing, so the last. */
static void
test_umami_missing_highlight_draws_nothing(void **state)
{
    (void)state;
    struct tokio_umami *u = one_metric(NAN, 1, 30);
    const char *color = NULL;
    struct seen seen = png_colors(u, -1);

    assert_int_equal(tokio_umami_highlight_color(u, 0, -1, &color),
                     TOKIO_OK);
    assert_string_equal(color, TOKIO_UMAMI_COLOR_Q4);
    for (int k = 0; k < 4; k++)
        assert_int_equal(seen.pixels[k], 0);
    tokio_umami_free(u);
}

/* --highlight of an earlier run: the runs before it are its history. */
static void
test_umami_highlight_an_earlier_run(void **state)
{
    (void)state;
    /* run 3 (40) against 10, 20, 30: percentiles 15, 20, 25, 30 */
    struct tokio_umami *u = one_metric(5, 1, 30);
    check_highlight(u, 3, 3);
    /* run 1 (20) against 10 alone: above it */
    check_highlight(u, 1, 3);
    /* run 0 has no history: the last colour */
    check_highlight(u, 0, 3);
    const char *color;
    assert_int_equal(tokio_umami_highlight_color(u, 0, 6, &color),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_umami_highlight_color(u, 1, -1, &color),
                     TOKIO_EINVAL);
    tokio_umami_free(u);
}

static void
test_umami_pdf_is_a_pdf(void **state)
{
    (void)state;
    struct tokio_umami *u = one_metric(45, 1, 30);
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_int_equal(tokio_umami_write_figure(u, fp, TOKIO_UMAMI_PDF, -1),
                     TOKIO_OK);
    fclose(fp);
    assert_true(len > 100 && memcmp(buf, "%PDF-", 5) == 0);
    free(buf);
    tokio_umami_free(u);
}

static void
test_umami_json_and_table_forms(void **state)
{
    (void)state;
    const int64_t t[2] = { times[0], times[1] };
    const double a[2] = { 1.5, NAN }, b[1] = { 7 };
    struct tokio_umami *u = NULL;
    json_t *json = NULL;
    char *text = NULL, *csv = NULL;
    size_t len = 0;

    assert_int_equal(tokio_umami_new(&u), TOKIO_OK);
    assert_int_equal(tokio_umami_add(u, "a", NULL, 1, t, a, 2), TOKIO_OK);
    assert_int_equal(tokio_umami_add(u, "b", "B!", 0, t + 1, b, 1),
                     TOKIO_OK);
    assert_int_equal(tokio_umami_add(u, "a", NULL, 1, t, a, 2),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_umami_to_json(u, &json), TOKIO_OK);
    assert_int_equal(tokio_json_dumps(&text, json, TOKIO_JSON_SORT_KEYS),
                     TOKIO_OK);
    /* TZ=America/Los_Angeles: 1488362400 is 2017-03-01 02:00:00 */
    assert_string_equal(text, "{\"2017-03-01 02:00:00\": {\"a\": 1.5}, "
                              "\"2017-03-02 02:00:00\": {\"a\": null, "
                              "\"b\": 7.0}}");
    FILE *fp = open_memstream(&csv, &len);
    assert_int_equal(tokio_umami_write_csv(u, fp), TOKIO_OK);
    fclose(fp);
    assert_string_equal(csv, ",a,b\n2017-03-01 02:00:00,1.5,\n"
                             "2017-03-02 02:00:00,,7.0\n");
    free(csv);
    free(text);
    json_decref(json);
    tokio_umami_free(u);
}

static const char history[] =
    "index,_datetime_start,_jobid,perf,app,mds_cpu,\"notes, free\"\n"
    "0,2017-03-01 02:00:00,100,1.5,vpic,20.0,x\n"
    "1,2017-03-02 02:00:00,101,2.5,vpic,,\"y, z\"\n"
    "2,2017-03-03 02:00:00,102,1.8,vpic,30.0,\n";

static struct tokio_csv *
csv_of(const char *text)
{
    struct tokio_csv *t = NULL;

    if (tokio_csv_open_mem(&t, text, strlen(text), "h.csv") < 0)
        fail_msg("%s", tokio_errmsg());
    return t;
}

static void
test_umami_reads_a_history(void **state)
{
    (void)state;
    struct tokio_csv *t = csv_of(history);
    struct tokio_umami *u = NULL;
    const char *color;

    assert_int_equal(tokio_csv_rows(t), 3);
    assert_int_equal(tokio_csv_cols(t), 7);
    assert_string_equal(tokio_csv_cell(t, 0, 6), "notes, free");
    assert_string_equal(tokio_csv_cell(t, 2, 6), "y, z");
    /* index, _jobid, the time and text columns are not metrics */
    assert_int_equal(tokio_umami_from_csv(&u, t, "h.csv", NULL), TOKIO_OK);
    assert_int_equal(tokio_umami_count(u), 2);
    assert_string_equal(tokio_umami_name(u, 0), "perf");
    assert_string_equal(tokio_umami_name(u, 1), "mds_cpu");
    /* 30 above 20 (the missing one skipped): blue */
    assert_int_equal(tokio_umami_highlight_color(u, 1, -1, &color),
                     TOKIO_OK);
    assert_string_equal(color, TOKIO_UMAMI_COLOR_Q4);
    tokio_umami_free(u);

    /* chosen columns, labels and small-is-good */
    const char *names[] = { "mds_cpu", "_jobid" };
    const char *labels[] = { "MDS CPU", "job" };
    const char *small[] = { "mds_cpu" };
    struct tokio_umami_columns cols = { names, 2, labels, 2, small, 1 };
    assert_int_equal(tokio_umami_from_csv(&u, t, "h.csv", &cols), TOKIO_OK);
    assert_int_equal(tokio_umami_count(u), 2);
    assert_int_equal(tokio_umami_highlight_color(u, 0, -1, &color),
                     TOKIO_OK);
    assert_string_equal(color, TOKIO_UMAMI_COLOR_Q1);    /* red */
    tokio_umami_free(u);
    tokio_csv_free(t);
}

static void
test_umami_bad_histories_say_what_is_wrong(void **state)
{
    (void)state;
    struct tokio_csv *t = csv_of(history);
    struct tokio_umami *u = NULL;
    const char *text_col[] = { "app" }, *absent[] = { "nope" };
    struct tokio_umami_columns cols = { text_col, 1, NULL, 0, NULL, 0 };

    assert_int_equal(tokio_umami_from_csv(&u, t, "h.csv", &cols),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'h.csv' row 1: column 'app' holds "
                                    "'vpic', not a number");
    assert_null(u);
    cols.names = absent;
    assert_int_equal(tokio_umami_from_csv(&u, t, "h.csv", &cols),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "'h.csv' has no column 'nope'");
    tokio_csv_free(t);

    t = csv_of("when,app\n2017-03-01,vpic\n");
    assert_int_equal(tokio_umami_from_csv(&u, t, "h.csv", NULL),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'h.csv' has no numeric column to draw");
    tokio_csv_free(t);

    t = csv_of("when,x\nyesterday,1\n");
    assert_int_equal(tokio_umami_from_csv(&u, t, "h.csv", NULL),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "row 1: 'yesterday' in column 'when' is "
                                    "not a time");
    tokio_csv_free(t);
}

static void
test_csv_malformed_tables(void **state)
{
    (void)state;
    static const struct {
        const char *text, *message;
    } bad[] = {
        { "a,b\n1,2,3\n", "'bad.csv' line 2: 3 fields where the header has "
                          "2" },
        { "a,b\n\"1,2\n", "'bad.csv' line 2: quote not closed" },
        { "a,b\n1\n", "line 2: 1 fields where the header has 2" },
        { "a\xff,b\n", "'bad.csv': invalid UTF-8" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct tokio_csv *t = NULL;
        assert_int_equal(tokio_csv_open_mem(&t, bad[i].text,
                                            strlen(bad[i].text), "bad.csv"),
                         TOKIO_EFORMAT);
        assert_null(t);
        assert_contains(tokio_errmsg(), bad[i].message);
    }
    /* quotes, doubled quotes, CRLF, blank lines and a last empty field */
    struct tokio_csv *t = csv_of("a,b\r\n\r\n\"x \"\"q\"\"\",\n\"l1\nl2\",3");
    assert_int_equal(tokio_csv_rows(t), 2);
    assert_string_equal(tokio_csv_cell(t, 1, 0), "x \"q\"");
    assert_string_equal(tokio_csv_cell(t, 1, 1), "");
    assert_string_equal(tokio_csv_cell(t, 2, 0), "l1\nl2");
    assert_string_equal(tokio_csv_cell(t, 2, 1), "3");
    assert_null(tokio_csv_cell(t, 3, 0));
    assert_int_equal(tokio_csv_column(t, "b"), 1);
    assert_int_equal(tokio_csv_column(t, "c"), -1);
    tokio_csv_free(t);
}

static int
read_history(void *ctx)
{
    struct tokio_csv *t = NULL;
    struct tokio_umami *u = NULL;
    json_t *json = NULL;
    int rc = tokio_csv_open_mem(&t, ctx, strlen(ctx), "h.csv");

    if (rc >= 0)
        rc = tokio_umami_from_csv(&u, t, "h.csv", NULL);
    if (rc >= 0)
        rc = tokio_umami_to_json(u, &json);
    json_decref(json);
    tokio_umami_free(u);
    tokio_csv_free(t);
    return rc;
}

static void
test_umami_survives_every_oom(void **state)
{
    (void)state;
    tokio_test_every_oom(read_history, (void *)history, 1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_umami_big_is_good_colors_by_quartile),
        cmocka_unit_test(test_umami_small_is_good_reads_the_scale_backwards),
        cmocka_unit_test(test_umami_value_above_all_keeps_the_last_color),
        cmocka_unit_test(test_umami_missing_history_values_are_skipped),
        cmocka_unit_test(test_umami_missing_highlight_draws_nothing),
        cmocka_unit_test(test_umami_highlight_an_earlier_run),
        cmocka_unit_test(test_umami_pdf_is_a_pdf),
        cmocka_unit_test(test_umami_json_and_table_forms),
        cmocka_unit_test(test_umami_reads_a_history),
        cmocka_unit_test(test_umami_bad_histories_say_what_is_wrong),
        cmocka_unit_test(test_csv_malformed_tables),
        cmocka_unit_test(test_umami_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
