/*
 * tests/connectors/test_darshan.c - the native Darshan reader and its
 * `darshan-parser --base` view, against darshan-parser 3.5.0's goldens
 * (testdata/golden/darshan-parser*), the derived format-coverage logs,
 * and damaged copies made here (truncations, byte flips, hostile maps,
 * an inflation bomb), plus the OOM loop.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "core/alloc.h"
#include "tokio/connectors/darshan.h"
#include "tokio/input.h"

/* ---- fixtures ------------------------------------------------------- */

/* A golden file's text: gunzipped if it ends in .gz, else through the
 * pack's link stubs. */
static char *
read_golden(const char *path, size_t *len_out)
{
    unsigned char *buf = NULL;
    size_t n = strlen(path);

    if (n < 3 || strcmp(path + n - 3, ".gz") != 0)
        return tokio_test_read_data(path, len_out);
    assert_int_equal(tokio_read_file(path, 0, &buf, len_out), TOKIO_OK);
    return (char *)buf;
}

/* write_base of `log` as a string (free()). */
static char *
base_text(const struct tokio_darshan *log, size_t *len_out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);

    assert_non_null(fp);
    assert_int_equal(tokio_darshan_write_base(log, fp), TOKIO_OK);
    fclose(fp);
    *len_out = len;
    return text;
}

/* Open `log` (under testdata), compare --base with `golden`. */
static void
check_golden(const char *logrel, const char *goldrel, int expect_rc)
{
    TOKIO_TEST_NEED_DATA(logpath, logrel);
    char lp[4096];
    snprintf(lp, sizeof(lp), "%s", logpath);
    const char *gp = tokio_test_data(goldrel);
    assert_non_null(gp);
    size_t len = 0, glen = 0, tlen = 0;
    unsigned char *buf = (unsigned char *)tokio_test_read_data(lp, &len);
    assert_non_null(buf);
    char *golden = read_golden(gp, &glen);
    assert_non_null(golden);

    struct tokio_darshan *log = NULL;
    int rc = tokio_darshan_open_mem(&log, buf, len, lp);
    if (rc < 0)
        print_message("%s: %s\n", logrel, tokio_errmsg());
    assert_int_equal(rc, expect_rc);
    char *text = base_text(log, &tlen);
    if (tlen != glen || memcmp(text, golden, glen) != 0) {
        size_t i = 0;
        while (i < tlen && i < glen && text[i] == golden[i])
            i++;
        print_message("%s: differs from %s at byte %zu:\n got: %.80s\n"
                      "want: %.80s\n", logrel, goldrel, i, text + i,
                      golden + i);
        fail();
    }
    free(text);
    free(golden);
    free(buf);
    tokio_darshan_free(log);
}

/* ---- golden comparisons --------------------------------------------- */

static const char *const sample_logs[] = {
    "dxt", "example", "ior_hdf5_example", "noposix", "noposixopens",
    "sample-badost", "sample-dxt-simple", "sample-goodost", "sample",
    "shane_macsio_id29959_5-22-32552-7035573431850780836_1590156158",
};

static const char *const pytokio_logs[] = {
    "noposix", "noposixopens", "sample-2", "sample-badost",
    "sample-goodost", "sample",
    "glock_vpicio_uni_id4478544_3-20-7667-18385393005962577517_1",
    "darshanlogs/2017/3/20/"
    "glock_dbscan_read_id4478544_3-20-7800-15217972833987807816_1",
    "darshanlogs/2017/3/20/"
    "glock_vpicio_uni_id4478544_3-20-7667-18385393005962577517_1",
};

static void
golden_for(const char *dir, const char *base, const char *gdir,
           const char *gbase, int rc)
{
    char lr[512], gr[512];
    const char *slash = strrchr(gbase, '/');

    snprintf(lr, sizeof(lr), "%s/%s.darshan", dir, base);
    snprintf(gr, sizeof(gr), "golden/%s/%s.base.txt", gdir,
             slash ? slash + 1 : gbase);
    if (tokio_test_data(gr) == NULL)
        snprintf(gr, sizeof(gr), "golden/%s/%s.base.txt.gz", gdir,
                 slash ? slash + 1 : gbase);
    check_golden(lr, gr, rc);
}

static void
test_darshan_base_matches_golden_sample_logs(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(d, "darshan-logs");
    (void)d;
    for (size_t i = 0; i < sizeof(sample_logs) / sizeof(*sample_logs); i++)
        golden_for("darshan-logs", sample_logs[i], "darshan-parser",
                   sample_logs[i], TOKIO_OK);
}

static void
test_darshan_base_matches_golden_pytokio_logs(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(d, "pytokio-inputs");
    (void)d;
    for (size_t i = 0; i < sizeof(pytokio_logs) / sizeof(*pytokio_logs);
         i++)
        golden_for("pytokio-inputs", pytokio_logs[i], "darshan-parser",
                   pytokio_logs[i], TOKIO_OK);
}

static void
test_darshan_base_matches_golden_derived_logs(void **state)
{
    static const char *const ok[] = {
        "conv_bz_dxt", "conv_bz_ior_hdf5_example",
        "conv_bz_sample-dxt-simple", "conv_bz_sample", "conv_dxt",
        "conv_ior_hdf5_example", "conv_sample-dxt-simple", "conv_sample",
        "nocomp_ior", "nocomp_sample", "swap_dxtsimple", "swap_sample",
        "v320",
    };
    char g[128];

    (void)state;
    TOKIO_TEST_NEED_DATA(d, "darshan-logs-derived");
    (void)d;
    for (size_t i = 0; i < sizeof(ok) / sizeof(*ok); i++)
        golden_for("darshan-logs-derived", ok[i], "darshan-parser-derived",
                   ok[i], TOKIO_OK);
    /* partial logs: we print what --show-incomplete prints */
    for (int k = 0; k < 2; k++) {
        const char *b = k ? "partial2_sample" : "partial_sample";
        snprintf(g, sizeof(g), "%s.show-incomplete", b);
        golden_for("darshan-logs-derived", b, "darshan-parser-derived", g,
                   TOKIO_PARTIAL);
    }
}

/* ---- format coverage -------------------------------------------------- */

static struct tokio_darshan *
open_data(const char *rel, int expect_rc)
{
    struct tokio_darshan *log = NULL;
    const char *p = tokio_test_data(rel);

    assert_non_null(p);
    int rc = tokio_darshan_open(&log, p);
    if (rc != expect_rc)
        print_message("%s: rc %d: %s\n", rel, rc, tokio_errmsg());
    assert_int_equal(rc, expect_rc);
    return log;
}

static void
test_darshan_rejected_versions_name_the_log(void **state)
{
    static const char *const bad[] = {
        "v_2.06", "v_3.01", "v_3.02", "v_3.30", "v_3.40", "v_4.00",
    };
    char rel[128];

    (void)state;
    TOKIO_TEST_NEED_DATA(d, "darshan-logs-derived");
    (void)d;
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        struct tokio_darshan *log = NULL;
        snprintf(rel, sizeof(rel), "darshan-logs-derived/%s.darshan", bad[i]);
        int rc = tokio_darshan_open(&log, tokio_test_data(rel));
        assert_int_equal(rc, TOKIO_EFORMAT);
        assert_null(log);
        assert_contains(tokio_errmsg(), "incompatible darshan file");
        assert_contains(tokio_errmsg(), rel);
    }
}

static void
test_darshan_empty_logs_are_eformat(void **state)
{
    static const char *const empty[] = {
        "pytokio-inputs/darshanlogs/2017/3/21/"
        "glock_dbscan_read_id4487503_3-21-14554-2400062619352127555_1.darshan",
        "pytokio-inputs/darshanlogs/2017/3/21/"
        "glock_vpicio_uni_id4487503_3-21-14391-1931100114561819213_1.darshan",
    };

    (void)state;
    TOKIO_TEST_NEED_DATA(d, "pytokio-inputs");
    (void)d;
    for (size_t i = 0; i < 2; i++) {
        struct tokio_darshan *log = NULL;
        assert_int_equal(tokio_darshan_open(&log, tokio_test_data(empty[i])),
                         TOKIO_EFORMAT);
        assert_null(log);
        assert_contains(tokio_errmsg(), "glock_");
    }
    struct tokio_darshan *log = NULL;
    assert_int_equal(tokio_darshan_open_mem(&log, "", 0, "empty"),
                     TOKIO_EFORMAT);
    assert_int_equal(tokio_darshan_open(&log, "/nonexistent/x.darshan"),
                     TOKIO_EIO);
}

static void
test_darshan_partial_flags_are_reported(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(d, "darshan-logs-derived/partial_sample.darshan");
    (void)d;
    struct tokio_darshan *log =
        open_data("darshan-logs-derived/partial_sample.darshan",
                  TOKIO_PARTIAL);
    assert_true(tokio_darshan_module_partial(log, TOKIO_DARSHAN_POSIX));
    assert_false(tokio_darshan_module_partial(log, TOKIO_DARSHAN_MPIIO));
    assert_true(tokio_darshan_module_partial(log, TOKIO_DARSHAN_MDHIM));
    assert_true(tokio_darshan_record_count(log, TOKIO_DARSHAN_POSIX) > 0);
    tokio_darshan_free(log);

    /* darshan-parser crashes here (partial bit of unknown id 27) */
    log = open_data("darshan-logs-derived/swap_partial.darshan",
                    TOKIO_PARTIAL);
    assert_true(tokio_darshan_swapped(log));
    assert_true(tokio_darshan_module_partial(log, 27));
    size_t len;
    free(base_text(log, &len));
    tokio_darshan_free(log);
}

/* Counters found by name are the ones of that name, and only those. */
static void
test_darshan_counter_index_finds_names(void **state)
{
    const int P = TOKIO_DARSHAN_POSIX;

    (void)state;
    assert_int_equal(tokio_darshan_counter_index(P, "POSIX_OPENS", 0), 0);
    assert_int_equal(tokio_darshan_counter_index(P, "POSIX_F_WRITE_TIME", 1),
                     9);
    for (int mod = 0; mod < TOKIO_DARSHAN_KNOWN_MODULES; mod++) {
        for (size_t i = 0; i < tokio_darshan_counter_count(mod); i++)
            assert_int_equal(tokio_darshan_counter_index(
                                 mod, tokio_darshan_counter_name(mod, i), 0),
                             (int)i);
        for (size_t i = 0; i < tokio_darshan_fcounter_count(mod); i++)
            assert_int_equal(tokio_darshan_counter_index(
                                 mod, tokio_darshan_fcounter_name(mod, i), 1),
                             (int)i);
    }
    /* the other list, another module, no name, no module */
    assert_int_equal(tokio_darshan_counter_index(P, "POSIX_OPENS", 1), -1);
    assert_int_equal(tokio_darshan_counter_index(TOKIO_DARSHAN_MPIIO,
                                                 "POSIX_OPENS", 0), -1);
    assert_int_equal(tokio_darshan_counter_index(P, "POSIX_NONE", 0), -1);
    assert_int_equal(tokio_darshan_counter_index(P, NULL, 0), -1);
    assert_int_equal(tokio_darshan_counter_index(-1, "POSIX_OPENS", 0), -1);
}

static void
test_darshan_accessors_expose_records(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(d, "darshan-logs/ior_hdf5_example.darshan");
    (void)d;
    struct tokio_darshan *log =
        open_data("darshan-logs/ior_hdf5_example.darshan", TOKIO_OK);

    assert_string_equal(tokio_darshan_version(log), "3.21");
    assert_int_equal(tokio_darshan_compression(log), TOKIO_DARSHAN_ZLIB);
    assert_int_equal(tokio_darshan_job(log)->nprocs, 4);
    assert_int_equal(tokio_darshan_module_version(log, TOKIO_DARSHAN_POSIX),
                     4);
    assert_string_equal(tokio_darshan_counter_name(TOKIO_DARSHAN_POSIX, 0),
                        "POSIX_OPENS");
    assert_string_equal(tokio_darshan_fcounter_name(TOKIO_DARSHAN_POSIX, 9),
                        "POSIX_F_WRITE_TIME");
    assert_int_equal(tokio_darshan_counter_count(TOKIO_DARSHAN_POSIX), 69);
    assert_int_equal(tokio_darshan_fcounter_count(TOKIO_DARSHAN_MPIIO), 17);
    assert_null(tokio_darshan_counter_name(TOKIO_DARSHAN_POSIX, 69));
    assert_string_equal(tokio_darshan_module_name(TOKIO_DARSHAN_MPIIO),
                        "MPI-IO");
    const struct tokio_darshan_record *r =
        tokio_darshan_record(log, TOKIO_DARSHAN_H5F, 0);
    assert_non_null(r);
    assert_int_equal(r->n_counters, 3);
    assert_string_equal(tokio_darshan_name(log, r->id),
                        "/global/cscratch1/sd/ssnyder/test123.h5");
    assert_true(tokio_darshan_module_decoded(log, TOKIO_DARSHAN_DXT_POSIX));
    r = tokio_darshan_record(log, TOKIO_DARSHAN_DXT_POSIX, 0);
    assert_non_null(r);
    assert_true(r->n_writes + r->n_reads > 0);
    assert_non_null(r->hostname);
    r = tokio_darshan_record(log, TOKIO_DARSHAN_LUSTRE, 0);
    assert_non_null(r);
    assert_int_equal(r->n_comps, 1);
    assert_int_equal(r->n_extra, 1);
    assert_null(tokio_darshan_record(log, TOKIO_DARSHAN_LUSTRE, 99));
    assert_true(tokio_darshan_mount_count(log) > 0);
    assert_true(tokio_darshan_name_count(log) > 0);
    tokio_darshan_free(log);
}

/* ---- malformed input ------------------------------------------------ */

static unsigned char *
load(const char *rel, size_t *len)
{
    const char *p = tokio_test_data(rel);

    assert_non_null(p);
    unsigned char *buf = (unsigned char *)tokio_test_read_data(p, len);
    assert_non_null(buf);
    return buf;
}

/* Open damaged bytes: must fail cleanly or succeed and print. */
static int
open_damaged(const unsigned char *buf, size_t len)
{
    struct tokio_darshan *log = NULL;
    int rc = tokio_darshan_open_mem(&log, buf, len, "damaged.darshan");

    if (rc >= 0) {
        size_t n;
        free(base_text(log, &n));
        tokio_darshan_free(log);
    } else {
        assert_null(log);
        assert_true(rc == TOKIO_EFORMAT);
        assert_contains(tokio_errmsg(), "damaged.darshan");
    }
    return rc;
}

static void
test_darshan_truncation_is_eformat_at_every_cut(void **state)
{
    static const char *const logs[] = {
        "darshan-logs/noposixopens.darshan",
        "darshan-logs/ior_hdf5_example.darshan",
        "darshan-logs-derived/conv_bz_sample.darshan",
        "darshan-logs-derived/nocomp_ior.darshan",
    };

    (void)state;
    TOKIO_TEST_NEED_DATA(d, "darshan-logs");
    (void)d;
    for (size_t k = 0; k < sizeof(logs) / sizeof(*logs); k++) {
        if (tokio_test_data(logs[k]) == NULL)
            continue;
        size_t len;
        unsigned char *buf = load(logs[k], &len);
        size_t step = len > 4000 ? 3 : 1;
        for (size_t cut = 0; cut < len; cut += step) {
            unsigned char *copy = malloc(cut ? cut : 1);
            memcpy(copy, buf, cut);
            int rc = open_damaged(copy, cut);
            /* every region ends at EOF, so any cut loses data */
            assert_int_equal(rc, TOKIO_EFORMAT);
            free(copy);
        }
        free(buf);
    }
}

static void
test_darshan_header_byte_flips_never_crash(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(d, "darshan-logs/ior_hdf5_example.darshan");
    (void)d;
    size_t len;
    unsigned char *buf = load("darshan-logs/ior_hdf5_example.darshan", &len);
    static const unsigned char masks[] = { 0xff, 0x01, 0x80, 0x10 };

    for (size_t m = 0; m < sizeof(masks); m++) {
        for (size_t i = 0; i < 360; i++) {
            buf[i] ^= masks[m];
            (void)open_damaged(buf, len);
            buf[i] ^= masks[m];
        }
    }
    free(buf);
}

/* Set slot `slot` of a 3.10/3.21 header's map. */
static void
set_map(unsigned char *buf, int slot, uint64_t off, uint64_t len)
{
    memcpy(buf + 40 + 16 * slot, &off, 8);
    memcpy(buf + 40 + 16 * slot + 8, &len, 8);
}

static void
test_darshan_huge_region_claim_is_eformat(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(d, "darshan-logs/noposixopens.darshan");
    (void)d;
    size_t len;
    unsigned char *buf = load("darshan-logs/noposixopens.darshan", &len);
    uint64_t off;
    memcpy(&off, buf + 40 + 16, 8);
    set_map(buf, 1, off, UINT64_C(1) << 60);

    struct tokio_darshan *log = NULL;
    assert_int_equal(tokio_darshan_open_mem(&log, buf, len, "x.darshan"),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "'x.darshan': POSIX module region: "
                    "truncated");
    set_map(buf, 1, UINT64_MAX - 4, 16);
    assert_int_equal(tokio_darshan_open_mem(&log, buf, len, "x.darshan"),
                     TOKIO_EFORMAT);
    free(buf);
}

static void
test_darshan_inflation_bomb_is_eformat(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(d, "darshan-logs/noposixopens.darshan");
    (void)d;
    size_t len;
    unsigned char *buf = load("darshan-logs/noposixopens.darshan", &len);
    /* 32 MiB of zeros deflate to ~32 KiB: far past 64x + 1 MiB */
    size_t zeros = 32u << 20;
    unsigned char *plain = calloc(1, zeros);
    uLongf clen = compressBound(zeros);
    unsigned char *bomb = malloc(len + clen);
    assert_non_null(plain);
    assert_non_null(bomb);
    memcpy(bomb, buf, len);
    assert_int_equal(compress(bomb + len, &clen, plain, zeros), Z_OK);
    set_map(bomb, 1, len, clen);

    struct tokio_darshan *log = NULL;
    assert_int_equal(tokio_darshan_open_mem(&log, bomb, len + clen,
                                            "bomb.darshan"), TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "POSIX module region: inflates past");
    free(plain);
    free(bomb);
    free(buf);
}

/* ---- anomalies -------------------------------------------------------- */

/* Open the log at `path`, a trial of tokio_test_every_oom(): a failure
 * leaves no log, says so and names the log's file. */
static int
open_trial(void *path)
{
    struct tokio_darshan *log = NULL;
    int rc = tokio_darshan_open(&log, path);

    if (rc == TOKIO_ENOMEM) {
        assert_null(log);
        assert_contains(tokio_errmsg(), "out of memory");
        assert_contains(tokio_errmsg(), strrchr(path, '/') + 1);
    }
    tokio_darshan_free(log);
    return rc;
}

static void
test_darshan_open_survives_every_oom(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(p, "darshan-logs/ior_hdf5_example.darshan");
    char path[4096];
    snprintf(path, sizeof(path), "%s", p);
    tokio_test_every_oom(open_trial, path, 1);
}

/* Every allocation failure says so and names the log (no pack needed). */
static void
test_darshan_oom_messages_name_the_log(void **state)
{
    const char *bin = getenv("TOKIO_BIN");
    char path[4300];

    (void)state;
    snprintf(path, sizeof(path), "%.*s/examples/data/darshanlogs/2019/2/14/"
             "alice_h5analyze_id4478655_2-14-43323-6213206756177816041_1."
             "darshan", (int)(strrchr(bin, '/') - bin), bin);
    tokio_test_every_oom(open_trial, path, 1);
}

/* A folder or a device is not a log: the error names it. */
static void
test_darshan_open_non_files_name_the_path(void **state)
{
    struct tokio_darshan *log = NULL;
    char *tmp = tokio_test_mkdtemp();

    (void)state;
    assert_int_equal(tokio_darshan_open(&log, tmp), TOKIO_EIO);
    assert_null(log);
    assert_contains(tokio_errmsg(), "cannot read");
    assert_contains(tokio_errmsg(), tmp);
    /* not a regular file: read to its end, which is at once */
    assert_int_equal(tokio_darshan_open(&log, "/dev/null"), TOKIO_EFORMAT);
    assert_null(log);
    assert_contains(tokio_errmsg(), "'/dev/null': not a darshan log");
    tokio_test_rmtree(tmp);
    free(tmp);
}

/* A log that is not a regular file (here a FIFO) is read whole from it,
 * past its version already read: the same text as from memory. */
static void
test_darshan_log_through_a_pipe_matches_golden(void **state)
{
    TOKIO_TEST_NEED_DATA(path, "darshan-logs/sample.darshan");
    const char *gp = tokio_test_data("golden/darshan-parser/sample.base.txt");
    size_t len = 0, glen = 0, tlen = 0;
    unsigned char *buf = (unsigned char *)tokio_test_read_data(path, &len);
    char *golden = read_golden(gp, &glen);
    char *tmp = tokio_test_mkdtemp(), fifo[4096];
    struct tokio_darshan *log = NULL;
    int status;
    pid_t pid;

    (void)state;
    assert_non_null(buf);
    assert_non_null(golden);
    assert_true(len > 8192);        /* the 4 KiB first room grows twice */
    snprintf(fifo, sizeof(fifo), "%s/log", tmp);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_true((pid = fork()) >= 0);
    if (pid == 0) {
        FILE *fp = fopen(fifo, "wb");
        _exit(fp != NULL && fwrite(buf, 1, len, fp) == len &&
              fclose(fp) == 0 ? 0 : 1);
    }
    assert_int_equal(tokio_darshan_open(&log, fifo), TOKIO_OK);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char *text = base_text(log, &tlen);
    assert_int_equal(tlen, glen);
    assert_memory_equal(text, golden, glen);
    free(text);
    free(golden);
    free(buf);
    tokio_darshan_free(log);
    tokio_test_rmtree(tmp);
    free(tmp);
}

/* ---- regressions ------------------------------------------------------ */

/*
 * A synthetic 3.21 log: header, one zlib job region (struct, `trailer`,
 * NUL), no names, and optionally one POSIX v4 record with id 1 and all
 * counters `v` (record region = one stream).  Our own bytes, so these
 * tests run without the data pack.
 */
static unsigned char *
make_log(const char *trailer, int with_posix, int64_t v, size_t *len_out)
{
    unsigned char job[4096] = { 0 };
    unsigned char rec[704] = { 0 };
    size_t tl = strlen(trailer);
    /* darshan-util wants more than 1080 bytes: zero padding after NUL */
    size_t jl = 1064 + tl + 1 < 1200 ? 1200 : 1064 + tl + 1;
    int64_t fields[5] = { 1000, 1600000000, 1600000100, 4, 77 };
    int64_t magic = 6567223;
    uint64_t u;

    assert_true(jl <= sizeof(job));
    memcpy(job, fields, sizeof(fields));
    memcpy(job + 40, "lib_ver=3.2.1\nh=a=b\nnoequals\n", 29);
    memcpy(job + 1064, trailer, tl);
    uLongf jz = compressBound(jl), rz = compressBound(sizeof(rec));
    unsigned char *buf = calloc(1, 360 + jz + rz);
    assert_non_null(buf);
    assert_int_equal(compress(buf + 360, &jz, job, jl), Z_OK);
    memcpy(buf, "3.21", 4);
    memcpy(buf + 8, &magic, 8);
    u = 360 + jz;
    memcpy(buf + 24, &u, 8);                /* name map: empty */
    size_t len = 360 + jz;
    if (with_posix) {
        u = 1;
        memcpy(rec, &u, 8);
        for (size_t i = 16; i + 8 <= sizeof(rec); i += 8)
            memcpy(rec + i, &v, 8);
        assert_int_equal(compress(buf + len, &rz, rec, sizeof(rec)), Z_OK);
        u = len;
        memcpy(buf + 40 + 16, &u, 8);
        u = rz;
        memcpy(buf + 40 + 24, &u, 8);
        uint32_t ver = 4;
        memcpy(buf + 296 + 4, &ver, 4);
        len += rz;
    }
    *len_out = len;
    return buf;
}

static void
test_darshan_synthetic_log_prints_preamble(void **state)
{
    (void)state;
    size_t len, tlen;
    unsigned char *buf = make_log("./a.out -x\nlustre\t/scratch\n"
                                  "nfs\t/home\nrootfs\t/", 1, 3, &len);
    struct tokio_darshan *log = NULL;

    assert_int_equal(tokio_darshan_open_mem(&log, buf, len, "syn"),
                     TOKIO_OK);
    assert_int_equal(tokio_darshan_job(log)->jobid, 77);
    assert_int_equal(tokio_darshan_job(log)->n_metadata, 2);
    assert_string_equal(tokio_darshan_job(log)->metadata_values[1], "a=b");
    assert_int_equal(tokio_darshan_mount_count(log), 3);
    assert_string_equal(tokio_darshan_mount(log, 0)->path, "/scratch");
    assert_int_equal(tokio_darshan_record_count(log, TOKIO_DARSHAN_POSIX),
                     1);
    char *text = base_text(log, &tlen);
    assert_contains(text, "# exe: ./a.out -x\n");
    assert_contains(text, "# run time: 101.0000\n");
    assert_contains(text, "# metadata: h = a=b\n");
    assert_contains(text, "# POSIX module: ");
    assert_contains(text, "POSIX\t0\t1\tPOSIX_OPENS\t3\t(null)\t"
                    "UNKNOWN\tUNKNOWN\n");
    free(text);
    tokio_darshan_free(log);
    free(buf);

    buf = make_log("exe-without-newline", 0, 0, &len);
    assert_int_equal(tokio_darshan_open_mem(&log, buf, len, "syn"),
                     TOKIO_OK);
    assert_string_equal(tokio_darshan_job(log)->exe, "");
    text = base_text(log, &tlen);
    assert_contains(text, "\n# no module data available.\n");
    free(text);
    tokio_darshan_free(log);
    free(buf);
}

/* fuzz crash: sscanf-style words of one entry may come from the next
 * lines, so entries share words; copying each overflowed the buffer */
static void
test_darshan_mount_words_spanning_lines_regression(void **state)
{
    (void)state;
    size_t len;
    unsigned char *buf = make_log("exe\n\n\nlustre\n/a\nnfs\t/b", 0, 0,
                                  &len);
    struct tokio_darshan *log = NULL;

    assert_int_equal(tokio_darshan_open_mem(&log, buf, len, "syn"),
                     TOKIO_OK);
    assert_int_equal(tokio_darshan_mount_count(log), 5);
    assert_string_equal(tokio_darshan_mount(log, 0)->path, "nfs");
    assert_string_equal(tokio_darshan_mount(log, 0)->type, "/a");
    assert_string_equal(tokio_darshan_mount(log, 1)->type, "lustre");
    assert_string_equal(tokio_darshan_mount(log, 4)->path, "/b");
    tokio_darshan_free(log);
    free(buf);

    buf = make_log("exe\nlustre", 0, 0, &len);
    assert_int_equal(tokio_darshan_open_mem(&log, buf, len, "syn"),
                     TOKIO_EFORMAT);
    assert_contains(tokio_errmsg(), "poorly formatted mount table");
    free(buf);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_darshan_base_matches_golden_sample_logs),
        cmocka_unit_test(test_darshan_base_matches_golden_pytokio_logs),
        cmocka_unit_test(test_darshan_base_matches_golden_derived_logs),
        cmocka_unit_test(test_darshan_rejected_versions_name_the_log),
        cmocka_unit_test(test_darshan_counter_index_finds_names),
        cmocka_unit_test(test_darshan_empty_logs_are_eformat),
        cmocka_unit_test(test_darshan_open_non_files_name_the_path),
        cmocka_unit_test(test_darshan_log_through_a_pipe_matches_golden),
        cmocka_unit_test(test_darshan_oom_messages_name_the_log),
        cmocka_unit_test(test_darshan_partial_flags_are_reported),
        cmocka_unit_test(test_darshan_accessors_expose_records),
        cmocka_unit_test(test_darshan_truncation_is_eformat_at_every_cut),
        cmocka_unit_test(test_darshan_header_byte_flips_never_crash),
        cmocka_unit_test(test_darshan_huge_region_claim_is_eformat),
        cmocka_unit_test(test_darshan_inflation_bomb_is_eformat),
        cmocka_unit_test(test_darshan_open_survives_every_oom),
        cmocka_unit_test(test_darshan_synthetic_log_prints_preamble),
        cmocka_unit_test(test_darshan_mount_words_spanning_lines_regression),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
