/*
 * tests/connectors/test_es.c - the Elasticsearch client (src/connectors/
 * es.c): queries built as the reference's build_timeseries_query() and
 * mutate_query() build them (expected bodies written out by hand from
 * tokio/connectors/es.py); a cache's pages handed on up to the first
 * empty one; the table of hits typed as pandas types it (values worked
 * out from pandas' rules, checked once against pandas 1.5); a scroll
 * against tests/http_server.c: every page in order, the context freed,
 * an interruption freeing it too; out-of-memory sweeps.
 */
#include "testutil.h"
#include "http_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokio/config.h"
#include "tokio/connectors/collectd_es.h"
#include "tokio/connectors/es.h"
#include "tokio/output.h"
#include "connectors/es_hits.h"
#include "core/alloc.h"
#include "core/connector.h"
#include "core/json.h"
#include "connectors/es_hits.h"

/* ---- queries ------------------------------------------------------------ */

static void
assert_json(const json_t *got, const char *want_text)
{
    json_t *want = json_loads(want_text, 0, NULL);

    assert_non_null(want);
    if (!json_equal((json_t *)got, want)) {
        char *g = json_dumps(got, JSON_SORT_KEYS);
        fail_msg("got %s\nwant %s", g, want_text);
    }
    json_decref(want);
}

static void
test_es_builds_queries(void **state)
{
    (void)state;
    json_t *base = tokio_es_base_query(), *q = NULL;

    assert_json(base, "{\"query\": {\"constant_score\": {\"filter\": "
                "{\"bool\": {\"must\": [{\"range\": {\"@timestamp\": {}}}]}}}}}");
    assert_int_equal(tokio_es_mutate_query(base, "plugin",
                                           json_string("cpu"), "term"), 0);
    assert_int_equal(tokio_es_build_timeseries_query(&q, base, 100, 200,
                                                     "@timestamp", NULL), 0);
    assert_json(q, "{\"query\": {\"constant_score\": {\"filter\": {\"bool\": "
                "{\"must\": [{\"range\": {\"@timestamp\": {\"gte\": 100, "
                "\"lt\": 200, \"format\": \"epoch_second\"}}}, {\"term\": "
                "{\"plugin\": \"cpu\"}}]}}}}}");
    /* the original is left alone */
    assert_json(base, "{\"query\": {\"constant_score\": {\"filter\": "
                "{\"bool\": {\"must\": [{\"range\": {\"@timestamp\": {}}}, "
                "{\"term\": {\"plugin\": \"cpu\"}}]}}}}}");
    json_decref(q);

    /* with an end key: records overlapping the interval */
    json_t *jobs = json_loads("{\"a\": [{\"s\": {}}, {\"b\": {\"e\": {}}}]}",
                              0, NULL);
    assert_int_equal(tokio_es_build_timeseries_query(&q, jobs, 100, 200, "s",
                                                     "e"), 0);
    assert_json(q, "{\"a\": [{\"s\": {\"lt\": 200, \"format\": "
                "\"epoch_second\"}}, {\"b\": {\"e\": {\"gte\": 100, "
                "\"format\": \"epoch_second\"}}}]}");
    json_decref(q);
    assert_int_equal(tokio_es_build_timeseries_query(&q, jobs, 1, 2, "x",
                                                     NULL), TOKIO_EINVAL);
    assert_null(q);
    assert_contains(tokio_errmsg(), "unable to locate timestamp 'x'");
    json_t *flat = json_pack("{s:i}", "s", 5);
    assert_int_equal(tokio_es_build_timeseries_query(&q, flat, 1, 2, "s",
                                                     NULL), TOKIO_EINVAL);
    assert_int_equal(tokio_es_mutate_query(jobs, "f", json_integer(1),
                                           "term"), TOKIO_EINVAL);
    json_decref(flat);
    json_decref(jobs);
    json_decref(base);
}

/* The reference's QUERY_DISK_DATA over a range, with SOURCE_FILTER. */
static void
test_collectd_es_disk_query(void **state)
{
    (void)state;
    json_t *q = NULL;
    size_t n;
    const char *const *fields = tokio_collectd_es_fields(&n);

    assert_int_equal(n, 20);
    assert_string_equal(fields[0], "@timestamp");
    assert_string_equal(fields[19], "io_time");
    assert_int_equal(tokio_collectd_es_query(&q, TOKIO_COLLECTD_ES_DISK, 10,
                                             20), 0);
    json_t *src = json_object_get(q, "_source");
    assert_int_equal(json_array_size(src), 20);
    json_object_del(q, "_source");
    assert_json(q, "{\"query\": {\"constant_score\": {\"filter\": {\"bool\": "
                "{\"must\": [{\"range\": {\"@timestamp\": {\"gte\": 10, "
                "\"lt\": 20, \"format\": \"epoch_second\"}}}, {\"prefix\": "
                "{\"hostname\": \"bb\"}}, {\"term\": {\"plugin\": "
                "\"disk\"}}, {\"prefix\": {\"plugin_instance\": \"nvme\"}}, "
                "{\"regexp\": {\"collectd_type\": \"disk_(octets|ops)\"}}]}}}}}");
    json_decref(q);
    assert_int_equal(tokio_collectd_es_query(&q, TOKIO_COLLECTD_ES_CPU, 10,
                                             20), 0);
    char *text = json_dumps(q, 0);
    assert_non_null(strstr(text, "(idle|user|system)"));
    free(text);
    json_decref(q);
    assert_int_equal(tokio_collectd_es_query(&q, (enum tokio_collectd_es_query)7,
                                             10, 20), TOKIO_EINVAL);
}

/* ---- pages and the table ------------------------------------------------ */

static const char *const fields[] = { "a", "b", "c", "d", "e", "f" };

/* What `pages` (JSON text) become as CSV of `fields`. */
static char *
csv_of(const char *pages_text)
{
    struct tokio_es_pages *p = NULL;
    json_t *pages = json_loads(pages_text, 0, NULL);
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(pages);
    assert_int_equal(tokio_es_pages_new_csv(&p, fields, 6), 0);
    if (tokio_es_from_json(pages, "pages", tokio_es_pages_add, p) != 0)
        fail_msg("%s", tokio_errmsg());
    assert_int_equal(tokio_es_pages_write(p, fp), 0);
    fclose(fp);
    tokio_es_pages_free(p);
    json_decref(pages);
    return buf;
}

static void
test_es_csv_types_columns_as_pandas(void **state)
{
    (void)state;
    /* a: ints, one missing -> reals; b: ints only -> ints; c: an int and
     * a string -> str() of each; d: a real and an int -> reals, 1e16 as
     * repr prints it; e: booleans and a missing cell; f: text to quote,
     * with the bytes the temporary file marks with */
    char *csv = csv_of(
        "[[{\"_source\": {\"a\": 1, \"b\": 7, \"c\": 5, \"d\": 0.5, "
        "\"e\": true, \"f\": \"x,\\\"y\\\"\"}},"
        "  {\"_source\": {\"b\": -3, \"c\": \"s\", \"d\": 10000000000000000, "
        "\"f\": \"\\u0001\\u0002\\u0003\\nz\"}}],"
        " [{\"_source\": {\"a\": null, \"b\": 0, \"c\": 2, \"d\": 3}}],"
        " [], [{\"_source\": {\"a\": \"never read\"}}]]");

    assert_string_equal(csv,
        ",a,b,c,d,e,f\n"
        "0,1.0,7,5,0.5,True,\"x,\"\"y\"\"\"\n"
        "1,,-3,s,1e+16,,\"\x01\x02\x03\nz\"\n"
        "2,,0,2,3.0,,\n");
    free(csv);
    /* nothing at all: pandas' empty frame */
    csv = csv_of("[]");
    assert_string_equal(csv, "\"\"\n");
    free(csv);
}

/* Text cells of 8 bytes and more (es.c checks them a word at a time):
 * what calls for quotes (a comma, quote, CR or LF) or for the spool's
 * escape (bytes 1..3) in the first word, a later one or the bytes after
 * the last whole word, and plain ones; quoted as pandas quotes them. */
static void
test_es_csv_quotes_long_text(void **state)
{
    (void)state;
    char *csv = csv_of(
        "[[{\"_source\": {\"a\": \"abcdefghijklmnop\", "
        "\"b\": \"abcdefghij,klmnop\", \"c\": \"abcdefghijklmnopq\\\"\", "
        "\"d\": \"abcdefgh\\nijklmnop\", \"e\": \"\\u0001bcdefghijklmnop\", "
        "\"f\": \"abcdefghijklmno\\r\"}},"
        " {\"_source\": {\"a\": \"a\\\"cdefgh\", \"b\": \"abcdefg\\u0003\", "
        "\"c\": \"abcdefg,\", \"d\": \"\\tbcdefgh\"}}]]");

    assert_string_equal(csv,
        ",a,b,c,d,e,f\n"
        "0,abcdefghijklmnop,\"abcdefghij,klmnop\","
        "\"abcdefghijklmnopq\"\"\",\"abcdefgh\nijklmnop\","
        "\x01" "bcdefghijklmnop,\"abcdefghijklmno\r\"\n"
        "1,\"a\"\"cdefgh\",abcdefg\x03,\"abcdefg,\",\tbcdefgh,,\n");
    free(csv);

    /* texts longer than a cell's share of a row's room, one longer than
     * the block of rows (its room made in the middle of a row) */
    size_t n = 70000;
    char *big = malloc(n + 1), *text = malloc(n + 200), *want;

    assert_non_null(big);
    assert_non_null(text);
    memset(big, 'y', n);
    big[n] = '\0';
    big[n / 2] = ',';
    snprintf(text, n + 200, "[[{\"_source\": {\"a\": \"%.100s\", "
             "\"b\": \"%s\", \"c\": 1.5, \"f\": \"%.30s\"}}]]", big + n / 2 + 1,
             big, big);
    csv = csv_of(text);
    want = malloc(2 * n + 300);
    assert_non_null(want);
    snprintf(want, 2 * n + 300, ",a,b,c,d,e,f\n0,%.100s,\"%s\",1.5,,,%.30s\n",
             big + n / 2 + 1, big, big);
    assert_string_equal(csv, want);
    free(csv);
    free(want);
    free(text);
    free(big);
}

/* The CSV (of `fields`) or JSON form of the cache file `path`, read as
 * tokio_es_from_cache() reads it (es_hits.c for CSV where it can; one
 * page at a time), or (`whole`) from one jansson tree of the whole file
 * as it was read before: the text, then the status and the message. */
static char *
output_of_cache(const char *path, int csv, int whole, int *rc_out)
{
    struct tokio_es_pages *p = NULL;
    json_t *pages = NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    int rc = csv ? tokio_es_pages_new_csv(&p, fields, 6)
                 : tokio_es_pages_new_json(&p, 0);

    if (rc >= 0 && whole) {
        if ((rc = tokio__read_json_file(path, &pages)) >= 0)
            rc = tokio_es_from_json(pages, path, tokio_es_pages_add, p);
    } else if (rc >= 0) {
        rc = tokio_es_from_cache(path, tokio_es_pages_add, p);
    }
    if (rc >= 0)
        rc = tokio_es_pages_write(p, fp);
    fprintf(fp, "-- %d %s", rc, rc < 0 ? tokio_errmsg() : "");
    fclose(fp);
    tokio_es_pages_free(p);
    json_decref(pages);
    if (rc_out != NULL)
        *rc_out = rc;
    return buf;
}

/* es_hits.c finds fields by a table and compares keys of up to 16
 * bytes as two words: keys one byte off a field's name, a prefix of it
 * or one longer, names of 1, 8, 15 and 18 bytes; white space of tabs,
 * CRs and runs of spaces of every length around them.  Both ways, and
 * the CSV worked out by hand. */
static void
test_es_cache_keys_near_field_names(void **state)
{
    (void)state;
    static const char *const names[] = {
        "plugin_instance", "hostname", "x", "collectd_type_1234",
    };
    static const char text[] =
        "[\r\n [\n\t{\"_source\": {\"plugin_instancf\": 1,   "
        "\"plugin_instance\": \"p\",\n         \"hostnam\": 2, "
        "\"hostname\" :\t\"h\", \"hostnamex\": 3, \"x\": 4, \"xx\": 5,"
        "\n\r\t        \"collectd_type_1234\": 6, "
        "\"collectd_type_1235\": 7}},\n"
        "                 {\"_source\": {\"plugin_instance2\": 8, "
        "\"\": 9, \"hostname\":\"h2\"}},\n"
        "        {\"_source\": {\"x\": 1.5, \"plugin_instancf\": 9.5, "
        "\"collectd_type_12345\": 1, \"collectd_type_1233\": 2, "
        "\"hostnamf\": 7}}\n"
        "    ]\n]\n";
    char *dir = tokio_test_mkdtemp(), path[4200], *csv[2];

    snprintf(path, sizeof(path), "%s/pages.json", dir);
    tokio_test_write_file(path, text, SIZE_MAX);
    for (int jansson = 0; jansson <= 1; jansson++) {
        struct tokio_es_pages *p = NULL;
        json_t *pages = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&csv[jansson], &len);

        assert_int_equal(tokio_es_pages_new_csv(&p, names, 4), 0);
        if (jansson) {
            assert_int_equal(tokio__read_json_file(path, &pages), 0);
            assert_int_equal(tokio_es_from_json(pages, path,
                                                tokio_es_pages_add, p), 0);
        } else {
            assert_int_equal(tokio_es_from_cache(path, tokio_es_pages_add,
                                                 p), 0);
        }
        assert_int_equal(tokio_es_pages_write(p, fp), 0);
        fclose(fp);
        tokio_es_pages_free(p);
        json_decref(pages);
    }
    assert_string_equal(csv[0],
        ",plugin_instance,hostname,x,collectd_type_1234\n"
        "0,p,h,4.0,6.0\n"
        "1,,h2,,\n"
        "2,,,1.5,\n");
    assert_string_equal(csv[1], csv[0]);
    free(csv[0]);
    free(csv[1]);
    tokio_test_rmtree(dir);
    free(dir);
}

/* A first page es_hits.c follows, then what it leaves to jansson. */
#define PAGE0 "[[{\"_source\": {\"a\": 1, \"b\": 7, \"c\": 5, \"d\": 0.5, " \
    "\"e\": true, \"f\": \"x,\\\"y\\\"\\nz\"}}, {\"_id\": [1, {}], " \
    "\"_source\": {\"b\": -3, \"c\": \"s\", \"d\": 10000000000000000}}]"

static int
cache_trial(void *ctx)
{
    int rc;

    free(output_of_cache(ctx, 1, 0, &rc));
    return rc;
}

static void
test_es_cache_read_either_way(void **state)
{
    (void)state;
    static const char *const texts[] = {
        PAGE0 ", [{\"_source\": {\"a\": null, \"b\": 0, \"c\": 2, "
        "\"d\": 3}}], [], [{\"_source\": {\"a\": [\"never read\"]}}]]",
        /* left to jansson after hits went: the CSV starts again */
        PAGE0 ", [{\"_source\": {\"f\": \"\\u00e9\"}}]]",
        PAGE0 ", [{\"_source\": {\"f\": \"\xc3\xa9\"}}]]",
        PAGE0 ", [{\"_source\": {\"c\": 1, \"c\": 2}}]]",
        PAGE0 ", [{\"_source\": {\"a\": [1]}}]]",
        PAGE0 ", [{\"_id\": 1}]]",
        PAGE0 ", 7]",
        PAGE0 ", [{\"_source\": {\"a\": 1e999}}]]",
        PAGE0 ", [{\"_source\": {\"a\": 01}}]]",
        PAGE0 ", [{\"_source\": {\"a\": 1}}",
        /* jansson's pages one at a time: a page's error waits for the
         * rest of the text, which jansson's whole tree refuses first */
        PAGE0 ", [{\"_source\": {\"a\": [1]}}], [{\"_source\": {\"f\": "
        "\"\\u00e9\"}}], [{]",
        PAGE0 ", 7, [{\"_source\": {\"f\": \"\xc3\xa9\"}}], [] x",
        PAGE0 ", [{\"_id\": 1}], [{\"_source\": {\"f\": \"\xc3\xa9\"}}]]",
        /* a NUL byte after a number: jansson's whole tree takes it */
        "[[{\"_source\": {\"f\": \"\\u00e9\", \"a\": 1\0}}], []]",
    };
    static const size_t lens[] = {
        [14] = sizeof("[[{\"_source\": {\"f\": \"\\u00e9\", \"a\": "
                      "1\0}}], []]") - 1,
    };
    char *dir = tokio_test_mkdtemp(), path[4200];

    snprintf(path, sizeof(path), "%s/pages.json", dir);
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        tokio_test_write_file(path, texts[i],
                              i < sizeof(lens) / sizeof(lens[0]) && lens[i]
                              ? lens[i] : SIZE_MAX);
        char *fast = output_of_cache(path, 1, 0, NULL);
        char *slow = output_of_cache(path, 1, 1, NULL);
        if (strcmp(fast, slow) != 0)
            fail_msg("case %zu:\n%s\nbut jansson:\n%s", i, fast, slow);
        if (i == 0)
            assert_string_equal(fast,
                ",a,b,c,d,e,f\n"
                "0,1.0,7,5,0.5,True,\"x,\"\"y\"\"\nz\"\n"
                "1,,-3,s,1e+16,,\n"
                "2,,0,2,3.0,,\n-- 0 ");
        if (i == 1)     /* b missing a cell: reals */
            assert_string_equal(fast,
                ",a,b,c,d,e,f\n"
                "0,1.0,7.0,5,0.5,True,\"x,\"\"y\"\"\nz\"\n"
                "1,,-3.0,s,1e+16,,\n"
                "2,,,,,,\xc3\xa9\n-- 0 ");
        if (i == 10)
            assert_contains(fast, "column 218: string or '}' expected near ']'");
        if (i == 14)
            assert_string_equal(fast, ",a,b,c,d,e,f\n0,1,,,,,\xc3\xa9\n-- 0 ");
        free(fast);
        free(slow);
    }
    /* out of memory anywhere, also in the start again */
    tokio_test_write_file(path, texts[1], SIZE_MAX);
    tokio_test_every_oom(cache_trial, path, tokio_test_oom_step());
    tokio_test_rmtree(dir);
    free(dir);
}

static int
json_cache_trial(void *ctx)
{
    int rc;

    free(output_of_cache(ctx, 0, 0, &rc));
    return rc;
}

static int
count_pages(const json_t *hits, size_t page, void *ctx)
{
    (void)hits;
    (void)page;
    ++*(size_t *)ctx;
    return TOKIO_OK;
}

/* Issue 18: the JSON form parses a cache one page at a time, as it
 * writes it, and gives what the whole tree gave: the same pages, the
 * same output, the same message with the whole file's line and column
 * for an error within a page. */
static void
test_es_cache_json_one_page_at_a_time(void **state)
{
    (void)state;
#define HIT "{\"_source\": {\"a\": 1}}"
    static const char *const texts[] = {
        PAGE0 ", [" HIT "], [], [{\"_source\": {\"a\": [\"never "
        "written\"]}}]]",
        PAGE0 ", [" HIT "], null, 7, {\"x\": 1}]",
        PAGE0 ", [" HIT "]]\n",
        "  [\n    [\n        " HIT ",\n        {\"_source\": {\"f\": "
        "\"\\u00e9\xc3\xa9\", \"c\": 1, \"c\": 2.50}}\n    ],\n    [\n"
        "        " HIT "\n    ]\n]\n",
        "[]", " [ ]\t\r\n", "[[]]", "[[], [1]]",
        /* errors within a page: jansson's own message, placed in the
         * whole file */
        PAGE0 ", [{\"_source\": {\"a\": 1e999}}]]",
        PAGE0 ", [{\"_source\": {\"a\": 01}}]]",
        PAGE0 ",\n  [{\"_source\": {\"a\": 1}}",
        "[\n    [\n        " HIT ",\n        {\"_source\": {\"\xc3\xa9\": "
        "tru}}\n    ]\n]",
        "[[" HIT "], [{]]",
        "[[" HIT "],]",
        "[[" HIT "], [1, 2",
        "[[" HIT "],", "[[" HIT "],\n ", "[ ",
        /* not a list of pages: as a whole, as before */
        "{\"a\": [[1]]}", "7", "{\"a\": [[1]]", "",
    };
#undef HIT
    char *dir = tokio_test_mkdtemp(), path[4200];

    snprintf(path, sizeof(path), "%s/pages.json", dir);
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        tokio_test_write_file(path, texts[i], SIZE_MAX);
        char *paged = output_of_cache(path, 0, 0, NULL);
        char *whole = output_of_cache(path, 0, 1, NULL);
        if (strcmp(paged, whole) != 0)
            fail_msg("case %zu:\n%s\nbut as a whole:\n%s", i, paged, whole);
        free(paged);
        free(whole);
    }
    /* each page handed on before the next is read: two pages before a
     * syntax error (the whole tree gave none) */
    size_t n = 0;
    tokio_test_write_file(path, PAGE0 ", [{\"_source\": {}}], [{", SIZE_MAX);
    assert_int_equal(tokio_es_from_cache(path, count_pages, &n),
                     TOKIO_EFORMAT);
    assert_int_equal(n, 2);
    assert_contains(tokio_errmsg(), "pages.json' line 1 column 177: string "
                    "or '}' expected");
    /* a NUL byte after a number: jansson reads past it, Python's json
     * refuses it, so do the pages (the whole tree took it) */
    static const char nul[] = "[[{\"_source\": {\"a\": 1\0}}], []]";
    tokio_test_write_file(path, nul, sizeof(nul) - 1);
    char *paged = output_of_cache(path, 0, 0, NULL);
    assert_contains(paged, "pages.json' line 1 column 22: NUL byte");
    free(paged);
    /* out of memory anywhere */
    tokio_test_write_file(path, texts[0], SIZE_MAX);
    tokio_test_every_oom(json_cache_trial, path, tokio_test_oom_step());
    tokio_test_rmtree(dir);
    free(dir);
}

/* ---- the JSON form's pages without jansson's tree (es_hits.c) --------- */

/* Page `text` written as the JSON form writes it, between "[" and "]":
 * by es_hits.c (`fast`: *rc_out its answer, *used_out its bytes) or
 * from jansson's tree of it, as tokio_es_pages_add() writes one. */
static char *
page_written(const char *text, size_t len, int fast, unsigned flags,
             int *rc_out, size_t *used_out)
{
    char *buf = NULL;
    size_t size = 0, hits = 0;
    FILE *fp = open_memstream(&buf, &size);
    struct tokio__jstream *js = tokio__jstream_open(fp, flags);

    assert_non_null(js);
    tokio__jstream_begin_list(js);
    if (fast) {
        *rc_out = tokio__es_hits_json_page(text, len, js, used_out, &hits);
    } else {
        json_error_t err;
        json_t *page = json_loadb(text, len, JSON_DECODE_ANY |
                                  JSON_DISABLE_EOF_CHECK, &err);

        assert_non_null(page);
        tokio__jstream_item(js);
        tokio__jstream_value(js, page);
        *rc_out = TOKIO_OK;
        *used_out = (size_t)err.position;
        json_decref(page);
    }
    tokio__jstream_end(js);
    assert_int_equal(tokio__jstream_close(js), 0);
    fclose(fp);
    return buf;
}

/* The pages es_hits.c copies into the JSON stream come out as jansson's
 * tree of them does, indented or not, with the page's length jansson
 * reads; each thing outside its subset falls back, checked and written
 * alike, with nothing written. */
static void
test_es_json_page_fast_or_fallback(void **state)
{
    (void)state;
    static const char *const followed[] = {
        "[{\"_source\": {}, \"_id\": \"x\"}]",
        "[ {\"_id\": 1, \"_source\" :{\"a\": 1, \"b\": -2.5, \"c\": \"s\", "
        "\"d\": true, \"e\": false, \"f\": null, \"g\": [], \"h\": {}, "
        "\"i\": [1, [2, {\"j\": \"k\"}]], \"\": \"\"}} ]  ",
        "[\n\t{\"_source\": {\"s\": \"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\", "
        "\"t\": \"\\\\\\\\\"}}\r\n]",
        /* integers to int64's ends; reals strtod() rounds, tiny ones */
        "[{\"_source\": {\"a\": 9223372036854775807, \"b\": "
        "-9223372036854775808, \"c\": -0, \"d\": -0.0, \"e\": 1e-400, "
        "\"f\": 1.7976931348623157e308, \"g\": 9007199254740993.0, "
        "\"h\": 0.30000000000000004, \"i\": 1E5, \"j\": 2.5e-3, "
        "\"k\": 123456789012345678901234567890.5}}]",
        /* keys alike in their first, last and middle bytes, not equal */
        "[{\"_source\": {\"ab\": 1, \"ba\": 2, \"aab\": 3, \"abb\": 4, "
        "\"x\": {\"ab\": 5}, \"y\": {\"ab\": 6}}}]",
        /* deep, short of the limit: the page is 1, its hits 2 */
        "[{\"_source\": {\"d\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]"
        "]]]]]]]]]]]]]]}}]",
    };
    static const struct { const char *why, *text; } fallbacks[] = {
        { "key twice in _source", "[{\"_source\": {\"a\": 1, \"b\": 2, "
          "\"a\": 3}}]" },
        { "key twice in a hit", "[{\"_id\": 1, \"_source\": {}, "
          "\"_id\": 2}]" },
        { "key twice deep", "[{\"_source\": {\"x\": [{\"z\": 1, \"z\": "
          "1}]}}]" },
        { "_source twice", "[{\"_source\": {}, \"_source\": {}}]" },
        { "\\u escape", "[{\"_source\": {\"s\": \"\\u0041\"}}]" },
        { "escaped key", "[{\"_source\": {\"\\n\": 1}}]" },
        { "bad escape", "[{\"_source\": {\"s\": \"\\q\"}}]" },
        { "beyond ASCII", "[{\"_source\": {\"s\": \"\xc3\xa9\"}}]" },
        { "control byte", "[{\"_source\": {\"s\": \"\x01\"}}]" },
        { "integer overflow", "[{\"_source\": {\"a\": "
          "9223372036854775808}}]" },
        { "real overflow", "[{\"_source\": {\"a\": 1e400}}]" },
        { "NaN", "[{\"_source\": {\"a\": NaN}}]" },
        { "leading zero", "[{\"_source\": {\"a\": 01}}]" },
        { "too deep", "[{\"_source\": {\"d\": [[[[[[[[[[[[[[[[[[[[[[[[[[[["
          "[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}]" },
        { "page not a list", "{\"_source\": {}}" },
        { "page of a number", "7" },
        { "hit not an object", "[[1]]" },
        { "hit without _source", "[{\"_id\": 1}]" },
        { "empty hit", "[{}]" },
        { "_source not an object", "[{\"_source\": [1]}]" },
        { "_source null", "[{\"_source\": null}]" },
        { "cut short", "[{\"_source\": {\"a\": 1}}" },
        { "cut short in a string", "[{\"_source\": {\"a\": \"abc" },
        { "trailing comma", "[{\"_source\": {\"a\": 1},}]" },
        { "NUL byte", "[{\"_source\": {\"a\": \"\0\"}}]" },
        { "literal cut", "[{\"_source\": {\"a\": tru}}]" },
    };
    char many[40000];
    int rc, n = snprintf(many, sizeof(many), "[{\"_source\": {");

    for (size_t i = 0; i < sizeof(followed) / sizeof(followed[0]); i++) {
        for (unsigned flags = 0; flags <= 4; flags += 4) {
            size_t used, want_used;
            const size_t len = strlen(followed[i]);
            char *fast = page_written(followed[i], len, 1, flags, &rc,
                                      &used);
            assert_int_equal(rc, TOKIO_OK);
            char *slow = page_written(followed[i], len, 0, flags, &rc,
                                      &want_used);
            if (strcmp(fast, slow) != 0)
                fail_msg("page %zu:\n%s\nbut jansson:\n%s", i, fast, slow);
            assert_int_equal(used, want_used);
            free(fast);
            free(slow);
        }
    }
    /* one by hand: what was read, and jansson's place for a repeat */
    size_t used, hits;
    char *fast = page_written(followed[1], strlen(followed[1]), 1, 0, &rc,
                              &used);
    assert_string_equal(fast, "[[{\"_id\": 1, \"_source\": {\"a\": 1, "
                        "\"b\": -2.5, \"c\": \"s\", \"d\": true, \"e\": "
                        "false, \"f\": null, \"g\": [], \"h\": {}, \"i\": "
                        "[1, [2, {\"j\": \"k\"}]], \"\": \"\"}}]]");
    assert_int_equal(used, strlen(followed[1]) - 2);
    free(fast);
    for (size_t i = 0; i < sizeof(fallbacks) / sizeof(fallbacks[0]); i++) {
        const char *t = fallbacks[i].text;
        size_t len = strlen(t) + (strstr(fallbacks[i].why, "NUL") != NULL
                                  ? strlen(t + strlen(t) + 1) + 1 : 0);

        if (tokio__es_hits_json_page(t, len, NULL, &used, &hits) !=
            TOKIO__ES_HITS_FALLBACK)
            fail_msg("%s: followed", fallbacks[i].why);
        /* written, it writes nothing either */
        char *out = page_written(t, len, 1, 0, &rc, &used);
        if (rc != TOKIO__ES_HITS_FALLBACK)
            fail_msg("%s: followed when written", fallbacks[i].why);
        free(out);
    }
    /* a page too many keys open for the table of repeats */
    for (int k = 0; k < 1100; k++)
        n += snprintf(many + n, sizeof(many) - (size_t)n, "%s\"k%d\": %d",
                      k ? ", " : "", k, k);
    snprintf(many + n, sizeof(many) - (size_t)n, "}}]");
    assert_int_equal(tokio__es_hits_json_page(many, strlen(many), NULL,
                                              &used, &hits),
                     TOKIO__ES_HITS_FALLBACK);
    /* the empty page: followed, no hits, nothing written */
    assert_int_equal(tokio__es_hits_json_page(" [ ] ,", 6, NULL, &used,
                                              &hits), TOKIO_OK);
    assert_int_equal(hits, 0);
    assert_int_equal(used, 4);
    fast = page_written("[]", 2, 1, 0, &rc, &used);
    assert_string_equal(fast, "[]");
    free(fast);
}

/* The JSON form of a cache where es_hits.c copies some pages and jansson
 * reads others: the output as jansson's alone (tokio__es_hits_for_json
 * 0) makes it and as written out by hand; errors the same both ways. */
static void
test_es_cache_json_fast_and_jansson_pages(void **state)
{
    (void)state;
#define HIT "{\"_source\": {\"a\": 1}}"
    static const char *const texts[] = {
        /* fast, jansson's (\u), fast, jansson's (a repeat), an empty
         * page, one never written */
        "[[" HIT ", {\"_source\": {\"b\": \"x\\ny\"}}],\n [{\"_source\": "
        "{\"s\": \"\\u00e9\"}}], [" HIT "], [{\"_source\": {\"a\": 1, "
        "\"a\": 2.5}}], [], [{\"a\": 1, \"a\": 2}], 7]",
        /* an empty page, then jansson's pages only checked */
        "[[" HIT "], [], [{\"\\u00e9\": {\"x\": [1, 2, 3]}}], {\"n\": "
        "[1e5]}]",
        /* a falsy page jansson reads ends the pages too */
        "[[" HIT "], null, [{\"_source\": {\"a\": 1}}]]",
        "[[" HIT "], 0.0, [{\"a\": 1, \"a\": 2}]]",
        /* errors after fast pages, in jansson's words */
        "[[" HIT "], [{\"_id\": 1}]]",
        "[[" HIT "], [{\"_source\": {\"a\": 1e400}}]]",
        "[[" HIT "], [{\"_source\": {\"a\": 1}}",
        "[[" HIT "], {\"a\": 1}]",
        "[[" HIT "], [], [1, 2 3]]",
        "[[" HIT "]\n\n] x",
        "[[" HIT "],\n[" HIT "]\0, []]",
        "[[" HIT "], [], [1]\0]",
    };
    static const size_t lens[] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        sizeof("[[" HIT "],\n[" HIT "]\0, []]") - 1,
        sizeof("[[" HIT "], [], [1]\0]") - 1,
    };
    char *dir = tokio_test_mkdtemp(), path[4200];

    snprintf(path, sizeof(path), "%s/pages.json", dir);
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        tokio_test_write_file(path, texts[i], lens[i] ? lens[i] : SIZE_MAX);
        char *fast = output_of_cache(path, 0, 0, NULL);
        tokio__es_hits_for_json = 0;
        char *slow = output_of_cache(path, 0, 0, NULL);
        tokio__es_hits_for_json = 1;
        if (strcmp(fast, slow) != 0)
            fail_msg("case %zu:\n%s\nbut jansson's:\n%s", i, fast, slow);
        if (i == 0)
            assert_string_equal(fast,
                "[[{\"_source\": {\"a\": 1}}, {\"_source\": {\"b\": "
                "\"x\\ny\"}}], [{\"_source\": {\"s\": \"\\u00e9\"}}], "
                "[{\"_source\": {\"a\": 1}}], [{\"_source\": {\"a\": "
                "2.5}}]]-- 0 ");
        if (i == 4)
            assert_contains(fast, "page 1: hit 0 has no object _source");
        if (i == 10)
            assert_contains(fast, "line 2 column 24: NUL byte");
        free(fast);
        free(slow);
    }
#undef HIT
    /* the hits counted either way */
    struct tokio_es_pages *p = NULL;
    tokio_test_write_file(path, texts[0], SIZE_MAX);
    assert_int_equal(tokio_es_pages_new_json(&p, 0), 0);
    assert_int_equal(tokio_es_from_cache(path, tokio_es_pages_add, p), 0);
    assert_int_equal(tokio_es_pages_count(p), 5);
    tokio_es_pages_free(p);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_es_pages_refuse_what_has_no_table(void **state)
{
    (void)state;
    static const struct { const char *text, *msg; } cases[] = {
        { "[[{\"_source\": {\"a\": [1]}}]]",
          "'pages' page 0: hit 0: field 'a' is a list or object" },
        { "[[{\"_id\": 1}]]", "'pages' page 0: hit 0 has no object _source" },
        { "[{\"_source\": {}}]", "'pages' page 0: not a list of hits" },
        { "{}", "'pages': not a list of pages" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct tokio_es_pages *p = NULL;
        json_t *pages = json_loads(cases[i].text, 0, NULL);

        assert_int_equal(tokio_es_pages_new_csv(&p, fields, 6), 0);
        assert_int_equal(tokio_es_from_json(pages, "pages",
                                            tokio_es_pages_add, p),
                         TOKIO_EFORMAT);
        assert_contains(tokio_errmsg(), cases[i].msg);
        tokio_es_pages_free(p);
        json_decref(pages);
    }
}

static void
test_es_json_pages_as_written(void **state)
{
    (void)state;
    struct tokio_es_pages *p = NULL;
    /* hits are objects with an object _source (issue 17: others were
     * passed through) */
    json_t *pages = json_loads("[[{\"_source\": {\"z\": 1, \"a\": [1.5, "
                               "\"\\u00e9\"]}}], [{\"_source\": {\"k\": "
                               "null}}], []]", 0, NULL);
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_int_equal(tokio_es_pages_new_json(&p, 0), 0);
    assert_int_equal(tokio_es_from_json(pages, "x", tokio_es_pages_add, p),
                     0);
    assert_int_equal(tokio_es_pages_count(p), 2);
    assert_int_equal(tokio_es_pages_write(p, fp), 0);
    fclose(fp);
    /* json.dump(): keys in order, ", " and ": ", non-ASCII escaped, the
     * empty page that ended the scroll not kept */
    assert_string_equal(buf, "[[{\"_source\": {\"z\": 1, \"a\": [1.5, "
                             "\"\\u00e9\"]}}], [{\"_source\": {\"k\": "
                             "null}}]]");
    free(buf);
    tokio_es_pages_free(p);
    json_decref(pages);
}

struct sweep {
    const json_t *pages;
    int csv;
};

static int
pages_trial(void *ctx)
{
    const struct sweep *s = ctx;
    struct tokio_es_pages *p = NULL;
    FILE *fp = fopen("/dev/null", "w");
    int rc = s->csv ? tokio_es_pages_new_csv(&p, fields, 6)
                    : tokio_es_pages_new_json(&p, TOKIO_JSON_INDENT(4));

    if (rc >= 0)
        rc = tokio_es_from_json(s->pages, "x", tokio_es_pages_add, p);
    if (rc >= 0)
        rc = tokio_es_pages_write(p, fp);
    tokio_es_pages_free(p);
    fclose(fp);
    return rc;
}

static int
query_trial(void *ctx)
{
    json_t *q = NULL;
    int rc = tokio_collectd_es_query(&q, *(const int *)ctx, 1, 2);

    json_decref(q);
    return rc;
}

static void
test_es_survives_every_oom(void **state)
{
    (void)state;
    json_t *pages = json_loads("[[{\"_source\": {\"a\": 1, \"f\": \"x\"}}, "
                               "{\"_source\": {\"b\": 2.5}}], "
                               "[{\"_source\": {\"c\": true}}]]", 0, NULL);
    struct sweep s = { pages, 0 };

    tokio_test_every_oom(pages_trial, &s, 1);
    s.csv = 1;
    tokio_test_every_oom(pages_trial, &s, 1);
    for (int which = 0; which < 3; which++)
        tokio_test_every_oom(query_trial, &which, 1);
    json_decref(pages);
}

/* ---- the scroll --------------------------------------------------------- */

struct seen {
    size_t pages, hits;
    volatile sig_atomic_t *stop;
    size_t stop_after;
};

static int
count_page(const json_t *hits, size_t page, void *ctx)
{
    struct seen *s = ctx;

    assert_int_equal(page, s->pages);
    s->pages++;
    s->hits += json_array_size(hits);
    if (s->stop != NULL && s->pages == s->stop_after)
        *s->stop = SIGINT;
    return 0;
}

static json_t *
documents(size_t n)
{
    json_t *hits = json_array();

    for (size_t i = 0; i < n; i++)
        json_array_append_new(hits, json_pack(
            "{s:s,s:{s:s,s:s,s:s,s:i}}", "_index", "cori-collectd-x",
            "_source", "@timestamp", "2017-12-13T08:00:00.000Z", "hostname",
            i % 2 ? "bb1" : "nid1", "plugin", "memory", "value", (int)i));
    return hits;
}

static int
open_es(struct tokio_es **es, const struct http_server *s,
        volatile sig_atomic_t *stop)
{
    struct tokio_es_options o = { .host = "127.0.0.1", .port = s->port,
                                  .index = "cori-collectd-*", .timeout = 5,
                                  .stop = stop };
    return tokio_es_open(es, &o);
}

static void
test_es_scrolls_and_frees_the_context(void **state)
{
    (void)state;
    json_t *hits = documents(25), *q = NULL;
    struct http_server_config c = { .hits = hits, .page_hits = 4 };
    struct http_server s;
    struct tokio_es *es = NULL;
    struct seen seen = { 0 };

    http_server_start(&s, &c);
    assert_int_equal(open_es(&es, &s, NULL), 0);
    assert_string_equal(tokio_es_url(es), s.url);
    /* the memory query: hostname prefix "bb" keeps 12 of the 25 */
    assert_int_equal(tokio_collectd_es_query(&q, TOKIO_COLLECTD_ES_MEMORY,
                                             1513152000, 1513155600), 0);
    if (tokio_es_scroll(es, q, count_page, &seen) != 0)
        fail_msg("%s", tokio_errmsg());
    assert_int_equal(seen.hits, 12);
    assert_int_equal(seen.pages, 3);
    char *log = http_server_log(&s);
    assert_contains(log, "POST /_search/scroll\nPOST /_search/scroll\n"
                         "POST /_search/scroll\nDELETE /_search/scroll\n"
                         "freed=1\n");
    free(log);
    tokio_es_free(es);

    /* a signal during the second page: the scroll stops, freed */
    volatile sig_atomic_t stop = 0;
    struct seen s2 = { 0, 0, &stop, 2 };
    assert_int_equal(open_es(&es, &s, &stop), 0);
    assert_int_equal(tokio_es_scroll(es, q, count_page, &s2), TOKIO_EIO);
    assert_contains(tokio_errmsg(), "interrupted after page 1");
    assert_int_equal(s2.pages, 2);
    log = http_server_log(&s);
    size_t freed = 0;
    for (const char *p = log; (p = strstr(p, "freed=1\n")) != NULL; p++)
        freed++;
    assert_int_equal(freed, 2);
    free(log);
    tokio_es_free(es);
    json_decref(q);
    http_server_stop(&s);
    json_decref(hits);
}

struct scroll_sweep {
    const struct http_server *s;
    const json_t *q;
};

static int
scroll_trial(void *ctx)
{
    const struct scroll_sweep *sw = ctx;
    struct tokio_es *es = NULL;
    struct tokio_es_pages *p = NULL;
    FILE *fp = fopen("/dev/null", "w");
    size_t n;
    const char *const *f = tokio_collectd_es_fields(&n);
    int rc = open_es(&es, sw->s, NULL);

    if (rc >= 0)
        rc = tokio_es_pages_new_csv(&p, f, n);
    if (rc >= 0)
        rc = tokio_es_scroll(es, sw->q, tokio_es_pages_add, p);
    if (rc >= 0)
        rc = tokio_es_pages_write(p, fp);
    tokio_es_pages_free(p);
    tokio_es_free(es);
    fclose(fp);
    return rc;
}

static void
test_es_scroll_survives_every_oom(void **state)
{
    (void)state;
    json_t *hits = documents(9), *q = NULL;
    struct http_server_config c = { .hits = hits, .page_hits = 2 };
    struct http_server s;

    http_server_start(&s, &c);
    assert_int_equal(tokio_collectd_es_query(&q, TOKIO_COLLECTD_ES_MEMORY,
                                             1513152000, 1513155600), 0);
    struct scroll_sweep sw = { &s, q };
    tokio_test_every_oom(scroll_trial, &sw, 1);
    json_decref(q);
    http_server_stop(&s);
    json_decref(hits);
}

static void
test_es_open_refuses_bad_options(void **state)
{
    (void)state;
    struct tokio_es *es = NULL;
    struct tokio_es_options o = { .host = "h", .port = 0, .index = "i",
                                  .timeout = 1 };

    assert_int_equal(tokio_es_open(&es, &o), TOKIO_EINVAL);
    o.port = 9200;
    o.timeout = 0;
    assert_int_equal(tokio_es_open(&es, &o), TOKIO_EINVAL);
    o.timeout = 5;
    o.index = "";
    assert_int_equal(tokio_es_open(&es, &o), TOKIO_EINVAL);
    o.index = "i";
    o.host = "https://es.example.org";
    assert_int_equal(tokio_es_open(&es, &o), 0);
    assert_string_equal(tokio_es_url(es), "https://es.example.org:9200");
    tokio_es_free(es);
}

static void
test_es_credentials_from_env_then_site(void **state)
{
    (void)state;
    const char *user, *password;

    setenv("PYTOKIO_ES_USER", "u", 1);
    setenv("PYTOKIO_ES_PASSWORD", "p", 1);
    tokio_es_credentials(NULL, &user, &password);
    assert_string_equal(user, "u");
    assert_string_equal(password, "p");
    unsetenv("PYTOKIO_ES_PASSWORD");
    tokio_es_credentials(NULL, &user, &password);
    assert_null(user);
    assert_null(password);
    unsetenv("PYTOKIO_ES_USER");
    /* the site configuration's, when the environment has none */
    struct tokio_config *cfg = NULL;
    static const char site[] = "{\"es_user\": \"su\", \"es_password\": \"sp\"}";
    assert_int_equal(tokio_config_open_mem(&cfg, site, sizeof(site) - 1,
                                           "site"), 0);
    tokio_es_credentials(cfg, &user, &password);
    assert_string_equal(user, "su");
    assert_string_equal(password, "sp");
    tokio_config_free(cfg);
}

/* The CSV form written straight into `to` (tokio_es_pages_new_csv_to)
 * from the cache `path`: what `to` holds after (nothing on a failure,
 * when it is dropped), then the status and the message, as
 * output_of_cache() gives them. */
static char *
direct_output_of_cache(const char *path, FILE *to)
{
    struct tokio_es_pages *p = NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    int rc = tokio_es_pages_new_csv_to(&p, fields, 6, to);

    if (rc >= 0)
        rc = tokio_es_from_cache(path, tokio_es_pages_add, p);
    if (rc >= 0)
        rc = tokio_es_pages_write(p, to);
    tokio_es_pages_free(p);
    assert_int_equal(fflush(to), 0);
    rewind(to);
    for (int c; rc >= 0 && (c = getc(to)) != EOF;)
        putc(c, fp);     /* on a failure, to is dropped */
    fprintf(fp, "-- %d %s", rc, rc < 0 ? tokio_errmsg() : "");
    fclose(fp);
    return buf;
}

/* The CSV made in the output file itself equals the one copied from a
 * temporary: marked integers and escaped bytes put right in place (the
 * file shrinks), no hits (""), a start again after a fallback to
 * jansson, errors; an output that is not a regular file at its start
 * takes the temporary. */
static void
test_es_csv_straight_into_the_output(void **state)
{
    (void)state;
    static const char *const texts[] = {
        PAGE0 ", [{\"_source\": {\"a\": null, \"b\": 0, \"c\": 2, "
        "\"d\": 3}}], [], [{\"_source\": {\"a\": [\"never read\"]}}]]",
        PAGE0 ", [{\"_source\": {\"f\": \"\\u00e9\"}}]]",
        PAGE0 ", [{\"_source\": {\"c\": 1, \"c\": 2}}]]",
        PAGE0 ", [{\"_source\": {\"a\": [1]}}]]",
        PAGE0 ", [{\"_source\": {\"a\": 1}}",
        "[[{\"_source\": {\"a\": 1, \"f\": \"\\u0001\\u0002,\\u0003\"}}, "
        "{\"_source\": {\"a\": 2, \"b\": 3}}, {\"_source\": {\"b\": 4}}]]",
        "[]",
        "[[]]",
    };
    char *dir = tokio_test_mkdtemp(), path[4200];

    snprintf(path, sizeof(path), "%s/pages.json", dir);
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        FILE *to = tmpfile();

        assert_non_null(to);
        tokio_test_write_file(path, texts[i], SIZE_MAX);
        char *direct = direct_output_of_cache(path, to);
        char *copied = output_of_cache(path, 1, 0, NULL);
        if (strcmp(direct, copied) != 0)
            fail_msg("case %zu:\n%s\nbut copied:\n%s", i, direct, copied);
        if (i == 5)     /* by hand: a and b miss a cell, so reals */
            assert_string_equal(direct,
                ",a,b,c,d,e,f\n"
                "0,1.0,,,,,\"\x01\x02,\x03\"\n"
                "1,2.0,3.0,,,,\n"
                "2,,4.0,,,,\n-- 0 ");
        if (i == 6)
            assert_string_equal(direct, "\"\"\n-- 0 ");
        free(direct);
        free(copied);
        fclose(to);
    }
    /* written to already, or not read back: through the temporary */
    FILE *to = tmpfile();
    assert_non_null(to);
    fputs("x", to);
    tokio_test_write_file(path, texts[5], SIZE_MAX);
    char *direct = direct_output_of_cache(path, to);
    assert_string_equal(direct,
        "x,a,b,c,d,e,f\n"
        "0,1.0,,,,,\"\x01\x02,\x03\"\n"
        "1,2.0,3.0,,,,\n"
        "2,,4.0,,,,\n-- 0 ");
    free(direct);
    fclose(to);
    tokio_test_rmtree(dir);
    free(dir);
}

/* A value of the fields a..f as text: its kind, then what it holds. */
static void
put_value(FILE *fp, const struct tokio__es_value *v)
{
    switch (v->kind) {
    case TOKIO__ES_ABSENT: fputs("-", fp); break;
    case TOKIO__ES_NULL: fputs("null", fp); break;
    case TOKIO__ES_FALSE: fputs("false", fp); break;
    case TOKIO__ES_TRUE: fputs("true", fp); break;
    case TOKIO__ES_INT: fprintf(fp, "i%lld", (long long)v->i); break;
    case TOKIO__ES_REAL: fprintf(fp, "r%.17g", v->d); break;
    case TOKIO__ES_STRING:
        fprintf(fp, "s%zu:", v->len);
        fwrite(v->s, 1, v->len, fp);
        break;
    case TOKIO__ES_OTHER: fputs("other", fp); break;
    }
    putc(' ', fp);
}

static int
put_hit(const struct tokio__es_value *v, size_t hit, void *payload)
{
    fprintf(payload, "%zu: ", hit);
    for (size_t f = 0; f < 6; f++)
        put_value(payload, &v[f]);
    putc('\n', payload);
    return 0;
}

/* The hits of the cache text `text` as es_hits.c reads them (*followed:
 * whether it did, not leaving the text to jansson), or as jansson's tree
 * gives them (followed NULL). */
static char *
hits_of(const char *text, int *followed)
{
    char *buf = NULL;
    size_t len = 0, page = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    if (followed != NULL) {
        int rc = tokio__es_hits_read(text, strlen(text), fields, 6, put_hit,
                                     NULL, fp, NULL, &page);

        assert_true(rc == 0 || rc == TOKIO__ES_HITS_FALLBACK);
        *followed = rc == 0;
    } else {
        json_error_t err;
        json_t *pages = json_loads(text, JSON_DECODE_ANY, &err), *pg;
        size_t i, h;

        if (pages == NULL)
            fputs("refused", fp);   /* as es_hits.c leaves it to jansson */
        json_array_foreach(pages, i, pg) {
            json_t *hit;

            if (json_array_size(pg) == 0)
                break;
            json_array_foreach(pg, h, hit) {
                struct tokio__es_value v[6];
                json_t *src = json_object_get(hit, "_source");

                for (size_t f = 0; f < 6; f++)
                    tokio__es_value_of(json_object_get(src, fields[f]),
                                       &v[f]);
                put_hit(v, h, fp);
            }
        }
        json_decref(pages);
    }
    fclose(fp);
    return buf;
}

/* `text` with its nth (from 0) `from` made `to`; NULL where it has no
 * nth. */
static char *
replace_nth(const char *text, const char *from, const char *to, size_t nth)
{
    const char *at = text;
    char *out;

    for (size_t i = 0;; i++, at++) {
        if ((at = strstr(at, from)) == NULL)
            return NULL;
        if (i == nth)
            break;
    }
    size_t head = (size_t)(at - text), n = strlen(text) + strlen(to) + 1;
    out = malloc(n);
    assert_non_null(out);
    snprintf(out, n, "%.*s%s%s", (int)head, text, to, at + strlen(from));
    return out;
}

/* The cache of pages as json.dump(indent=4) writes it: its separators,
 * ": " and indentation; the values of a..f as es_hits.c and jansson read
 * them, to which it must come by its shortcuts (a list's separator
 * learned from its opening run, a field's key by its pattern, numbers
 * and strings by words). */
static const char indent4[] =
    "[\n"
    "    [\n"
    "        {\n"
    "            \"_score\": 1.0,\n"
    "            \"_id\": \"ppqhb2IBiYvi4Oh8BuPf\",\n"
    "            \"_source\": {\n"
    "                \"a\": 802265.0611681836,\n"
    "                \"f\": \"2017-12-13T08:08:36.867Z\",\n"
    "                \"ab\": \"not a field\",\n"
    "                \"b\": 1234567,\n"
    "                \"c\": \"bb1\"\n"
    "            },\n"
    "            \"_index\": \"cori-collectd-2018.03.29\"\n"
    "        },\n"
    "        {\n"
    "            \"_source\": {\n"
    "                \"b\": -12345678.5,\n"
    "                \"d\": 0.1234567,\n"
    "                \"e\": true,\n"
    "                \"c\": \"a,b\"\n"
    "            }\n"
    "        }\n"
    "    ],\n"
    "    [\n"
    "        {\n"
    "            \"_source\": {\n"
    "                \"a\": 123456789012.25,\n"
    "                \"d\": null,\n"
    "                \"f\": \"x\\\"y\"\n"
    "            }\n"
    "        }\n"
    "    ],\n"
    "    []\n"
    "]\n";

/* Every separator, opening run and ": " of indent4 one byte off what
 * the shortcuts expect (a space less or more, a tab, a CR before the
 * line feed, no line feed): the same values as jansson's, each followed
 * by es_hits.c. */
static void
test_es_hits_indent_shortcuts_one_byte_off(void **state)
{
    (void)state;
    static const char *const changes[][2] = {
        { ",\n    ", ",\n   " }, { ",\n    ", ",\n     " },
        { ",\n    ", ",\n\t   " }, { ",\n    ", ",\r\n    " },
        { ",\n    ", ", " }, { ",\n    ", ",\n   \t" },
        { "{\n    ", "{\n   " }, { "{\n    ", "{\n     " },
        { "{\n    ", "{\r\n    " }, { "{\n    ", "{ " },
        { "[\n    ", "[\n   " }, { "[\n    ", "[\r\n    " },
        { ": ", ":  " }, { ": ", " : " }, { ": ", ":\t" }, { ": ", ":\n" },
        { ": ", ":" }, { ": ", ": \r\n" },
        { "\n    ", "\n" },
    };
    char *want = hits_of(indent4, NULL);
    int followed, cases = 0;
    char *got = hits_of(indent4, &followed);

    assert_true(followed);
    assert_string_equal(got, want);
    assert_string_equal(want,
        "0: r802265.06116818357 i1234567 s3:bb1 - - s24:2017-12-13T08:08:"
        "36.867Z \n"
        "1: - r-12345678.5 s3:a,b r0.1234567 true - \n"
        "0: r123456789012.25 - - null - s3:x\"y \n");
    free(got);
    free(want);
    for (size_t c = 0; c < sizeof(changes) / sizeof(changes[0]); c++) {
        char *text;

        for (size_t nth = 0; (text = replace_nth(indent4, changes[c][0],
                                                 changes[c][1], nth)) != NULL;
             nth++) {
            want = hits_of(text, NULL);
            got = hits_of(text, &followed);
            if (!followed || strcmp(got, want) != 0)
                fail_msg("change %zu, %zu: followed %d\n%s\nbut jansson:\n"
                         "%s\nof\n%s", c, nth, followed, got, want, text);
            free(got);
            free(want);
            free(text);
            cases++;
        }
    }
    assert_true(cases > 150);
}

/* Numbers of 1 to 20 integer digits and fractions of 1 to 20 digits,
 * ending at every place of a word, and strings of 1 to 30 bytes with a
 * comma, quote or escape at every place: the same values as jansson's
 * (an integer too big for it not followed either). */
static void
test_es_hits_numbers_and_strings_by_words(void **state)
{
    (void)state;
    static const char digits[] = "98765432109876543210";
    char text[512], value[64];
    int followed;

    for (int ints = 1; ints <= 20; ints++) {
        for (int frac = 0; frac <= 20; frac++) {
            for (int pad = 0; pad < 8; pad++) {
                snprintf(value, sizeof(value), "%s%.*s%s%.*s",
                         ints % 3 == 0 ? "-" : "", ints, digits,
                         frac > 0 ? "." : "", frac, digits + 3);
                snprintf(text, sizeof(text),
                         "[[{\"_source\": {\"%.*s\": 1, \"a\": %s, "
                         "\"b\": %s}}]]", pad + 1, "zzzzzzzzz", value,
                         value);
                char *want = hits_of(text, NULL);
                char *got = hits_of(text, &followed);

                if (strcmp(want, "refused") == 0 ? followed
                    : strcmp(got, want) != 0 || (ints <= 18 && !followed))
                    fail_msg("%s: followed %d\n%s\nbut jansson:\n%s", text,
                             followed, got, want);
                free(got);
                free(want);
            }
        }
    }
    for (size_t n = 1; n <= 30; n++) {
        for (size_t at = 0; at <= n; at++) {
            for (int kind = 0; kind < 3; kind++) {
                char str[64];

                memset(str, 'q', n);
                str[n] = '\0';
                if (at < n)
                    str[at] = ',';
                snprintf(text, sizeof(text),
                         "[[{\"_source\": {\"c\": \"%s%s\", \"f\": 1}}]]",
                         str, kind == 1 ? "\\\"" : kind == 2 ? "\\n" : "");
                char *want = hits_of(text, NULL);
                char *got = hits_of(text, &followed);

                if (strcmp(got, want) != 0 || !followed)
                    fail_msg("%s: followed %d\n%s\nbut jansson:\n%s", text,
                             followed, got, want);
                free(got);
                free(want);
            }
        }
    }
}

/* Hits whose members before _source repeat those of the hit before
 * (es_hits.c passes such a member by comparing its bytes with the one
 * before): each member of the second hit one byte off in turn, the
 * byte after a value changed, a value no longer JSON: the same values
 * as jansson's, followed where jansson reads the text. */
static void
test_es_hits_repeated_members_one_byte_off(void **state)
{
    (void)state;
    static const char hit[] =
        "        {\n"
        "            \"_score\": 1.0,\n"
        "            \"_type\": \"doc\",\n"
        "            \"_id\": [1, {\"x\": null}],\n"
        "            \"_index\": \"cori-collectd-2018.03.29\",\n"
        "            \"_source\": {\n"
        "                \"a\": 1.5,\n"
        "                \"f\": \"h\"\n"
        "            },\n"
        "            \"_long\": \"a value that is longer than forty-eight "
        "bytes in all\"\n"
        "        }";
    /* the change, and whether es_hits.c follows the text (the others:
     * not JSON, or a _source not an object, left to jansson) */
    static const struct {
        const char *from, *to;
        int follows;
    } changes[] = {
        { "1.0,", "1.5,", 1 }, { "1.0,", "1.0 ,", 1 }, { "1.0,", "1.05,", 1 },
        { "1.0,", "1.0x,", 0 }, { "1.0,", "10,", 1 },
        { "\"doc\"", "\"dod\"", 1 }, { "\"doc\"", "\"doc\\\"\"", 1 },
        { "\"doc\"", "\"do\"", 1 }, { "\"_type\"", "\"_typf\"", 1 },
        { "null", "nul", 0 }, { "null", "true", 1 }, { "29\"", "28\"", 1 },
        { "29\",", "29\" ,", 1 }, { "\"_score\"", "\"_source\"", 0 },
        { "bytes", "bytez", 1 }, { "\"_index\": ", "\"_index\":  ", 1 },
    };
    char text[4096], *second;
    int followed;

    snprintf(text, sizeof(text), "[\n    [\n%s,\n%s,\n%s\n    ]\n]\n", hit, hit,
             hit);
    char *want = hits_of(text, NULL), *got = hits_of(text, &followed);
    assert_true(followed);
    assert_string_equal(got, want);
    assert_string_equal(want, "0: r1.5 - - - - s1:h \n1: r1.5 - - - - s1:h \n"
                        "2: r1.5 - - - - s1:h \n");
    free(got);
    free(want);
    for (size_t c = 0; c < sizeof(changes) / sizeof(changes[0]); c++) {
        assert_non_null(second = replace_nth(hit, changes[c].from,
                                             changes[c].to, 0));
        snprintf(text, sizeof(text), "[\n    [\n%s,\n%s,\n%s\n    ]\n]\n", hit,
                 second, hit);
        want = hits_of(text, NULL);
        got = hits_of(text, &followed);
        if (followed != changes[c].follows ||
            (followed && strcmp(got, want) != 0))
            fail_msg("change %zu: followed %d\n%s\nbut jansson:\n%s\nof\n%s",
                     c, followed, got, want, text);
        free(got);
        free(want);
        free(second);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_es_builds_queries),
        cmocka_unit_test(test_collectd_es_disk_query),
        cmocka_unit_test(test_es_csv_types_columns_as_pandas),
        cmocka_unit_test(test_es_csv_quotes_long_text),
        cmocka_unit_test(test_es_cache_read_either_way),
        cmocka_unit_test(test_es_cache_keys_near_field_names),
        cmocka_unit_test(test_es_cache_json_one_page_at_a_time),
        cmocka_unit_test(test_es_json_page_fast_or_fallback),
        cmocka_unit_test(test_es_cache_json_fast_and_jansson_pages),
        cmocka_unit_test(test_es_pages_refuse_what_has_no_table),
        cmocka_unit_test(test_es_json_pages_as_written),
        cmocka_unit_test(test_es_survives_every_oom),
        cmocka_unit_test(test_es_scrolls_and_frees_the_context),
        cmocka_unit_test(test_es_scroll_survives_every_oom),
        cmocka_unit_test(test_es_open_refuses_bad_options),
        cmocka_unit_test(test_es_credentials_from_env_then_site),
        cmocka_unit_test(test_es_csv_straight_into_the_output),
        cmocka_unit_test(test_es_hits_indent_shortcuts_one_byte_off),
        cmocka_unit_test(test_es_hits_numbers_and_strings_by_words),
        cmocka_unit_test(test_es_hits_repeated_members_one_byte_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
