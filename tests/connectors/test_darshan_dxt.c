/*
 * tests/connectors/test_darshan_dxt.c - tokio_darshan_write_dxt() against
 * darshan-dxt-parser 3.5.0's goldens (testdata/golden/darshan-parser/
 * *.dxt.txt), the derived copies of the DXT logs (re-encoded, swapped,
 * uncompressed: same traces, so the same text after the preamble),
 * logs made here with the project's writer (no DXT, Lustre striping,
 * thread ids, truncated traces), and the OOM loop.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_writer.h"

/* ---- fixtures ------------------------------------------------------- */

/* write_dxt of `log` as a string (free()); the status in *rc_out. */
static char *
dxt_text(const struct tokio_darshan *log, int *rc_out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);

    assert_non_null(fp);
    *rc_out = tokio_darshan_write_dxt(log, fp);
    fclose(fp);
    return text;
}

static struct tokio_darshan *
open_data(const char *rel)
{
    struct tokio_darshan *log = NULL;
    const char *p = tokio_test_data(rel);

    assert_non_null(p);
    int rc = tokio_darshan_open(&log, p);
    if (rc < 0)
        print_message("%s: %s\n", rel, tokio_errmsg());
    assert_int_equal(rc, TOKIO_OK);
    return log;
}

/* Fail showing the first difference unless `text` equals `want`. */
static void
assert_same_text(const char *what, const char *text, const char *want)
{
    if (strcmp(text, want) == 0)
        return;
    size_t i = 0;
    while (text[i] && text[i] == want[i])
        i++;
    print_message("%s: differs at byte %zu:\n got: %.100s\nwant: %.100s\n",
                  what, i, text + i, want + i);
    fail();
}

/* The text from the first DXT banner on (what follows the preamble). */
static const char *
after_preamble(const char *text)
{
    const char *p = strstr(text, "\n# *****");

    assert_non_null(p);
    return p;
}

/* ---- golden comparisons --------------------------------------------- */

static const char *const dxt_logs[] = {
    "dxt", "ior_hdf5_example", "sample-dxt-simple",
};

static void
test_darshan_dxt_matches_golden(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(d, "darshan-logs");
    (void)d;
    for (size_t i = 0; i < sizeof(dxt_logs) / sizeof(*dxt_logs); i++) {
        char lr[256], gr[256];
        snprintf(lr, sizeof(lr), "darshan-logs/%s.darshan", dxt_logs[i]);
        snprintf(gr, sizeof(gr), "golden/darshan-parser/%s.dxt.txt",
                 dxt_logs[i]);
        struct tokio_darshan *log = open_data(lr);
        char *want = tokio_test_read_file(tokio_test_data(gr), NULL);
        assert_non_null(want);
        int rc;
        char *text = dxt_text(log, &rc);
        assert_int_equal(rc, TOKIO_OK);
        assert_same_text(lr, text, want);
        free(text);
        free(want);
        tokio_darshan_free(log);
    }
}

/*
 * `text` (freed) with the thread columns masked: the thread count and
 * each segment line's last field (" N/A" or the " %4lu" thread id).
 * darshan-convert at darshan's HEAD writes DXT_POSIX v2 / DXT_MPIIO v3,
 * and the thread ids it stores for traces that had none are whatever its
 * memory held, so only the rest of the text has a golden.
 */
static char *
mask_threads(char *text)
{
    char *out = malloc(strlen(text) + 1), *o = out;
    const char *line = text;

    assert_non_null(out);
    while (*line) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
        if (strncmp(line, "# DXT, number of threads:", 25) == 0) {
            o += sprintf(o, "# DXT, number of threads: *\n");
        } else if (strncmp(line, " X_", 3) == 0) {
            size_t keep = len - 1;
            while (keep > 0 && line[keep - 1] != ' ')
                keep--;
            while (keep > 0 && line[keep - 1] == ' ')  /* "%4lu" pads */
                keep--;
            memcpy(o, line, keep);
            o += keep;
            o += sprintf(o, " *\n");
        } else {
            memcpy(o, line, len);
            o += len;
        }
        line += len;
    }
    *o = '\0';
    free(text);
    return out;
}

/*
 * `text` (freed) with each record's hostname masked.  The pack's
 * big-endian re-encoding swapped the 64-byte hostname as eight int64s
 * ("sn176.lo" became "ol.671ns"), but darshan-util swaps no hostname
 * bytes, so darshan-dxt-parser prints it scrambled as we do.
 */
static char *
mask_hostnames(char *text)
{
    char *out = malloc(strlen(text) + 1), *o = out;
    const char *line = text;

    assert_non_null(out);
    while (*line) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
        const char *h = strstr(line, ", hostname: ");
        if (strncmp(line, "# DXT, rank: ", 13) == 0 && h != NULL &&
            h < line + len) {
            size_t keep = (size_t)(h - line) + 12;
            memcpy(o, line, keep);
            o += keep;
            o += sprintf(o, "*\n");
        } else {
            memcpy(o, line, len);
            o += len;
        }
        line += len;
    }
    *o = '\0';
    free(text);
    return out;
}

/*
 * The pack has no .dxt.txt for its derived logs; their traces are the
 * originals' (re-encoded by darshan-convert, byte-swapped, uncompressed),
 * so all after the preamble must equal the original's golden (but for
 * the thread columns where the re-encoding added thread ids).
 */
static void
test_darshan_dxt_derived_logs_match_their_originals(void **state)
{
    static const char *const derived[][2] = {
        { "conv_dxt", "dxt" },
        { "conv_bz_dxt", "dxt" },
        { "conv_ior_hdf5_example", "ior_hdf5_example" },
        { "conv_bz_ior_hdf5_example", "ior_hdf5_example" },
        { "nocomp_ior", "ior_hdf5_example" },
        { "conv_sample-dxt-simple", "sample-dxt-simple" },
        { "conv_bz_sample-dxt-simple", "sample-dxt-simple" },
        { "swap_dxtsimple", "sample-dxt-simple" },
    };

    (void)state;
    TOKIO_TEST_NEED_DATA(d, "darshan-logs-derived");
    (void)d;
    for (size_t i = 0; i < sizeof(derived) / sizeof(*derived); i++) {
        char lr[256], gr[256];
        snprintf(lr, sizeof(lr), "darshan-logs-derived/%s.darshan",
                 derived[i][0]);
        snprintf(gr, sizeof(gr), "golden/darshan-parser/%s.dxt.txt",
                 derived[i][1]);
        struct tokio_darshan *log = open_data(lr);
        char *want = tokio_test_read_file(tokio_test_data(gr), NULL);
        assert_non_null(want);
        int rc;
        char *text = dxt_text(log, &rc);
        assert_int_equal(rc, TOKIO_OK);
        if (tokio_darshan_module_version(log, TOKIO_DARSHAN_DXT_POSIX) > 1 ||
            tokio_darshan_module_version(log, TOKIO_DARSHAN_DXT_MPIIO) > 2) {
            want = mask_threads(want);
            text = mask_threads(text);
        }
        if (tokio_darshan_swapped(log)) {
            want = mask_hostnames(want);
            text = mask_hostnames(text);
        }
        assert_same_text(lr, after_preamble(text), after_preamble(want));
        free(text);
        free(want);
        tokio_darshan_free(log);
    }
}

/* ---- logs made here --------------------------------------------------- */

/* A 4-rank job on a Lustre mount with the records `fill` adds. */
static unsigned char *
make_log(void (*fill)(struct tokio_darshan_writer *), int compression,
         size_t *len_out)
{
    static const struct tokio_darshan_mount mounts[] = {
        { "/lus", "lustre" },
    };
    struct tokio_darshan_job_info job = {
        .uid = 1000, .jobid = 42, .start_time = 1600000000,
        .end_time = 1600000010, .nprocs = 4, .exe = "./a.out",
        .n_mounts = 1, .mounts = mounts,
    };
    struct tokio_darshan_writer *w = NULL;
    unsigned char *buf = NULL;

    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_set_compression(w, compression),
                     TOKIO_OK);
    fill(w);
    assert_int_equal(tokio_darshan_writer_write_mem(w, &buf, len_out),
                     TOKIO_OK);
    tokio_darshan_writer_free(w);
    return buf;
}

static void
fill_posix_only(struct tokio_darshan_writer *w)
{
    uint64_t id = tokio_darshan_writer_hash("/lus/a");
    size_t n = tokio_darshan_counter_count(TOKIO_DARSHAN_POSIX);
    size_t nf = tokio_darshan_fcounter_count(TOKIO_DARSHAN_POSIX);
    int64_t *c = calloc(n, sizeof(*c));
    double *f = calloc(nf, sizeof(*f));

    assert_non_null(c);
    assert_non_null(f);
    assert_int_equal(tokio_darshan_writer_add_name(w, id, "/lus/a"),
                     TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_add_record(
                         w, TOKIO_DARSHAN_POSIX, id, 0, c, n, f, nf),
                     TOKIO_OK);
    free(c);
    free(f);
}

/*
 * /lus/striped: two Lustre components, [0, 4 MiB) striped 1 MiB over
 * OSTs 10 11 and [4 MiB, EOF) striped 1 MiB over OSTs 20 21 22; one DXT
 * record on rank 1 with two writes and a read.  /lus/plain: a DXT_MPIIO
 * record without a Lustre record, and a name the table lacks.
 */
#define MIB 1048576
static const struct tokio_darshan_segment striped_segs[] = {
    { 0, 3 * MIB, 0.5, 1.25, 0 },               /* OSTs 10 11 */
    { 3 * MIB + 5, 2 * MIB, 1.5, 2.0, 0 },      /* 11, then 20 21 */
    { 5 * MIB, 100, 2.25, 2.5, 0 },             /* 21 */
};

static void
fill_striped(struct tokio_darshan_writer *w)
{
    uint64_t id = tokio_darshan_writer_hash("/lus/striped");
    struct tokio_darshan_lustre_comp comps[2] = {
        { { MIB, 2, 0, 0, 0, 4 * MIB, 0 }, "" },
        { { MIB, 3, 0, 0, 4 * MIB, -1, 0 }, "fast" },
    };
    const int64_t osts[] = { 10, 11, 20, 21, 22 };
    struct tokio_darshan_record d = { 0 };

    assert_int_equal(tokio_darshan_writer_add_name(w, id, "/lus/striped"),
                     TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_add_lustre(w, id, -1, comps, 2,
                                                     osts, 5), TOKIO_OK);
    d.id = id;
    d.rank = 1;
    d.hostname = "nid00001";
    d.n_writes = 2;
    d.n_reads = 1;
    d.segments = striped_segs;
    assert_int_equal(tokio_darshan_writer_add(w, TOKIO_DARSHAN_DXT_POSIX,
                                              &d), TOKIO_OK);
    d.id = 12345;               /* no name */
    d.rank = 2;
    d.hostname = "nid00002";
    d.n_writes = 1;
    d.n_reads = 0;
    assert_int_equal(tokio_darshan_writer_add(w, TOKIO_DARSHAN_DXT_MPIIO,
                                              &d), TOKIO_OK);
}

/* The DXT text of a log made with `fill` (make_log(), zlib). */
static char *
made_dxt_text(void (*fill)(struct tokio_darshan_writer *))
{
    size_t len = 0;
    unsigned char *buf = make_log(fill, TOKIO_DARSHAN_ZLIB, &len);
    struct tokio_darshan *log = NULL;
    int rc;

    assert_int_equal(tokio_darshan_open_mem(&log, buf, len, "mem"),
                     TOKIO_OK);
    char *text = dxt_text(log, &rc);
    assert_int_equal(rc, TOKIO_OK);
    tokio_darshan_free(log);
    free(buf);
    return text;
}

static void
test_darshan_dxt_without_traces_says_so(void **state)
{
    char *text = made_dxt_text(fill_posix_only);

    (void)state;
    const char *tail = "# mount entry:\t/lus\tlustre\n\n# no DXT module data "
                       "available for this Darshan log.\n";
    assert_true(strlen(text) > strlen(tail));
    assert_string_equal(text + strlen(text) - strlen(tail), tail);
    free(text);
}

/* The OST walk and component lines worked out by hand from the layout
 * (darshan-dxt-logutils.c's rules). */
static void
test_darshan_dxt_annotates_lustre_osts(void **state)
{
    static const char want[] =
        "\n# ***************************************************\n"
        "# DXT_POSIX module data\n"
        "# ***************************************************\n"
        "\n# DXT, file_id: %s, file_name: /lus/striped\n"
        "# DXT, rank: 1, hostname: nid00001\n"
        "# DXT, number of threads: 1\n"
        "# DXT, write_count: 2, read_count: 1\n"
        "# DXT, mnt_pt: /lus, fs_type: lustre\n"
        "# DXT, Lustre stripe components:\n"
        "#\t[Component 1] stripe_ext: 0 - 4194304, stripe_size: 1048576, "
        "stripe_count: 2, OSTs: 10 11\n"
        "#\t[Component 2] stripe_ext: 4194304 - EOF, stripe_size: 1048576, "
        "stripe_count: 3, OSTs: 20 21 22\n"
        "# Module    Rank  Wt/Rd  Segment          Offset          Length"
        "    Start(s)      End(s)   [OST]   Pthread-ID\n"
        " X_POSIX       1  write        0               0         3145728"
        "      0.5000      1.2500   [10] [11]   N/A\n"
        " X_POSIX       1  write        1         3145733         2097152"
        "      1.5000      2.0000   [11] [20] [21]   N/A\n"
        " X_POSIX       1   read        0         5242880             100"
        "      2.2500      2.5000   [21]   N/A\n"
        "\n# ***************************************************\n"
        "# DXT_MPIIO module data\n"
        "# ***************************************************\n"
        "\n# DXT, file_id: 12345, file_name: (null)\n"
        "# DXT, rank: 2, hostname: nid00002\n"
        "# DXT, number of threads: 1\n"
        "# DXT, write_count: 1, read_count: 0\n"
        "# DXT, mnt_pt: UNKNOWN, fs_type: UNKNOWN\n"
        "# Module    Rank  Wt/Rd  Segment          Offset          Length"
        "    Start(s)      End(s)   Pthread-ID\n"
        " X_MPIIO       2  write        0               0         3145728"
        "      0.5000      1.2500   N/A\n";
    char expect[4096], id[32];

    (void)state;
    snprintf(id, sizeof(id), "%llu", (unsigned long long)
             tokio_darshan_writer_hash("/lus/striped"));
    snprintf(expect, sizeof(expect), want, id);
    char *text = made_dxt_text(fill_striped);
    assert_same_text("striped", after_preamble(text), expect);
    free(text);
}

/* ---- malformed inputs ------------------------------------------------- */

/* A log cut anywhere inside its DXT regions does not open, and says
 * which region is short. */
static void
test_darshan_dxt_truncated_region_is_eformat(void **state)
{
    size_t len = 0;
    unsigned char *buf = make_log(fill_striped, TOKIO_DARSHAN_ZLIB, &len);
    struct tokio_darshan *log = NULL;

    (void)state;
    /* the DXT_MPIIO region is last, DXT_POSIX before it: cutting the
     * final bytes truncates DXT_MPIIO */
    for (size_t cut = 1; cut < 16; cut++) {
        int rc = tokio_darshan_open_mem(&log, buf, len - cut, "cut.darshan");
        assert_int_equal(rc, TOKIO_EFORMAT);
        assert_null(log);
        assert_contains(tokio_errmsg(), "cut.darshan");
        assert_contains(tokio_errmsg(), "DXT_MPIIO");
    }
    free(buf);
}

/*
 * A DXT record whose counts claim more segments than its region holds:
 * darshan-util reads records until one is short and stops there, so the
 * claimed record and any after it are not printed.  The region itself is
 * intact (an uncompressed log with the count patched), so the log opens.
 */
static void
test_darshan_dxt_short_record_ends_the_module(void **state)
{
    size_t len = 0;
    unsigned char *buf = make_log(fill_striped, TOKIO_DARSHAN_NONE, &len);
    struct tokio_darshan *log = NULL;
    int rc;

    (void)state;
    /* the hostname sits at byte 24 of a DXT record, write_count at 88 */
    unsigned char *host = NULL;
    for (size_t i = 0; host == NULL && i + 8 <= len; i++)
        if (memcmp(buf + i, "nid00001", 8) == 0)
            host = buf + i;
    assert_non_null(host);
    assert_true((size_t)(host - buf) + 72 <= len);
    int64_t claim = 1000000;
    memcpy(host + 64, &claim, sizeof(claim));
    assert_int_equal(tokio_darshan_open_mem(&log, buf, len, "short"),
                     TOKIO_OK);
    assert_int_equal(tokio_darshan_record_count(log,
                                                TOKIO_DARSHAN_DXT_POSIX), 0);
    char *text = dxt_text(log, &rc);
    assert_int_equal(rc, TOKIO_OK);
    assert_contains(text, "# DXT_POSIX module data\n# *****************"
                          "**********************************\n\n"
                          "# *****");
    assert_null(strstr(text, "nid00001"));
    assert_contains(text, "nid00002");
    free(text);
    tokio_darshan_free(log);
    free(buf);
}

/* ---- anomalies -------------------------------------------------------- */

static void
test_darshan_dxt_survives_every_oom(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(p, "darshan-logs/ior_hdf5_example.darshan");
    struct tokio_darshan *log = NULL;
    assert_int_equal(tokio_darshan_open(&log, p), TOKIO_OK);
    for (size_t n = 1;; n++) {
        char *text = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&text, &len);
        assert_non_null(fp);
        tokio_test_fail_alloc_at(n);
        int rc = tokio_darshan_write_dxt(log, fp);
        tokio_test_fail_alloc_at(0);
        fclose(fp);
        free(text);
        if (rc >= 0)
            break;
        assert_int_equal(rc, TOKIO_ENOMEM);
        assert_contains(tokio_errmsg(), "ior_hdf5_example");
    }
    tokio_darshan_free(log);
}

static void
test_darshan_dxt_write_error_is_eio(void **state)
{
    size_t len = 0;
    unsigned char *buf = make_log(fill_striped, TOKIO_DARSHAN_ZLIB, &len);
    struct tokio_darshan *log = NULL;
    FILE *fp = fopen("/dev/full", "w");

    (void)state;
    if (fp == NULL) {
        free(buf);
        skip();
    }
    setvbuf(fp, NULL, _IONBF, 0);
    assert_int_equal(tokio_darshan_open_mem(&log, buf, len, "full"),
                     TOKIO_OK);
    assert_int_equal(tokio_darshan_write_dxt(log, fp), TOKIO_EIO);
    assert_contains(tokio_errmsg(), "full");
    fclose(fp);
    tokio_darshan_free(log);
    free(buf);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_darshan_dxt_matches_golden),
        cmocka_unit_test(test_darshan_dxt_derived_logs_match_their_originals),
        cmocka_unit_test(test_darshan_dxt_without_traces_says_so),
        cmocka_unit_test(test_darshan_dxt_annotates_lustre_osts),
        cmocka_unit_test(test_darshan_dxt_truncated_region_is_eformat),
        cmocka_unit_test(test_darshan_dxt_short_record_ends_the_module),
        cmocka_unit_test(test_darshan_dxt_survives_every_oom),
        cmocka_unit_test(test_darshan_dxt_write_error_is_eio),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
