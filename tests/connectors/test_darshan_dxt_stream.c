/*
 * tests/connectors/test_darshan_dxt_stream.c - DXT logs of any size:
 * the writer's DXT_POSIX and DXT_MPIIO records read back segment by
 * segment (kept, and handed over in pieces), and tokio_darshan_stream_dxt()
 * against tokio_darshan_write_dxt() on every sample and derived log (the
 * derived ones include thread-id versions, bzip2, uncompressed and
 * swapped logs) and on logs made here; where darshan-util 3.5.0 is
 * installed at /tmp/darshan-util/bin (not on CI), darshan-dxt-parser
 * agrees with us on a log our writer made.
 */
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "connectors/darshan_text.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_writer.h"

#define MIB 1048576
#define NREC 6

/* A segment of record `r`, index `i`: values no two segments share, and
 * times with bits in every place (not a run that compresses to nothing). */
static struct tokio_darshan_segment
seg_of(size_t r, size_t i)
{
    struct tokio_darshan_segment s = { 0 };
    uint64_t x = (uint64_t)(r * 1000003 + i) * UINT64_C(0x9e3779b97f4a7c15);

    s.offset = (int64_t)(i * MIB + (x >> 50));
    s.length = (int64_t)(MIB - (x >> 54));
    s.start_time = (double)i * 0.001 + (double)(x >> 40) * 1e-12;
    s.end_time = s.start_time + 0.0005 + (double)(x >> 44) * 1e-13;
    return s;
}

/* Writes of record `r` (of NREC): the first ones, then reads. */
static size_t
writes_of(size_t r, size_t nseg)
{
    return r % 3 == 2 ? 0 : r % 3 == 1 ? nseg : nseg / 3;
}

/*
 * A log of NREC DXT records of `nseg` segments each (one of them empty,
 * on rank 3), POSIX on even ranks, MPI-IO on odd ones, with a Lustre
 * record for /lus/f0, written to `path` with `comp`.
 */
static void
make_log(const char *path, size_t nseg, int comp)
{
    struct tokio_darshan_job_info job = {
        .uid = 1000, .jobid = 4242, .start_time = 1600000000,
        .end_time = 1600000100, .nprocs = NREC, .exe = "./dxt-writer",
    };
    const struct tokio_darshan_mount mounts[] = { { "/lus", "lustre" } };
    struct tokio_darshan_lustre_comp comp0 = {
        { MIB, 4, 0, 0, 0, -1, 0 }, ""
    };
    const int64_t osts[] = { 7, 8, 9, 10 };
    struct tokio_darshan_writer *w = NULL;
    struct tokio_darshan_segment *segs = calloc(nseg ? nseg : 1,
                                                sizeof(*segs));

    assert_non_null(segs);
    job.n_mounts = 1;
    job.mounts = mounts;
    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_set_compression(w, comp),
                     TOKIO_OK);
    for (size_t r = 0; r < NREC; r++) {
        char name[32], host[32];
        snprintf(name, sizeof(name), "/lus/f%zu", r);
        snprintf(host, sizeof(host), "nid%05zu", r);
        uint64_t id = tokio_darshan_writer_hash(name);
        assert_int_equal(tokio_darshan_writer_add_name(w, id, name),
                         TOKIO_OK);
        if (r == 0)
            assert_int_equal(tokio_darshan_writer_add_lustre(
                                 w, id, -1, &comp0, 1, osts, 4), TOKIO_OK);
        size_t n = r == 3 ? 0 : nseg;
        for (size_t i = 0; i < n; i++)
            segs[i] = seg_of(r, i);
        struct tokio_darshan_record d = { 0 };
        d.id = id;
        d.rank = (int64_t)r;
        d.hostname = host;
        d.n_writes = writes_of(r, n);
        d.n_reads = n - d.n_writes;
        d.segments = segs;
        assert_int_equal(tokio_darshan_writer_add(
                             w, r % 2 ? TOKIO_DARSHAN_DXT_MPIIO
                                      : TOKIO_DARSHAN_DXT_POSIX, &d),
                         TOKIO_OK);
    }
    assert_int_equal(tokio_darshan_writer_write(w, path), TOKIO_OK);
    tokio_darshan_writer_free(w);
    free(segs);
}

/* The text of `path` (streamed, or whole), free(); its status. */
static char *
text_of(int stream, const char *path, int *rc_out)
{
    struct mem {
        char *text;
        size_t len;
    } *m = calloc(1, sizeof(*m));
    assert_non_null(m);
    FILE *fp = open_memstream(&m->text, &m->len);

    assert_non_null(fp);
    if (stream) {
        *rc_out = tokio_darshan_stream_dxt(path, fp);
    } else {
        struct tokio_darshan *log = NULL;
        *rc_out = tokio_darshan_open(&log, path);
        if (*rc_out >= 0)
            *rc_out = tokio_darshan_write_dxt(log, fp);
        tokio_darshan_free(log);
    }
    fclose(fp);
    char *text = m->text;
    free(m);
    return text;
}

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

/* ---- the writer's DXT, read back ------------------------------------- */

struct seen {
    size_t records, segments;
    size_t next[NREC];          /* segments seen per rank */
    int pieces;                 /* more than one piece for some record */
};

static int
check_piece(void *payload, const struct tokio_darshan *log, int mod,
            const struct tokio_darshan_record *r)
{
    struct seen *s = payload;
    size_t rank = (size_t)r->rank;

    (void)log;
    assert_true(mod == (rank % 2 ? TOKIO_DARSHAN_DXT_MPIIO
                                 : TOKIO_DARSHAN_DXT_POSIX));
    assert_int_equal(r->seg_first, s->next[rank]);
    if (r->seg_first == 0)
        s->records++;
    else
        s->pieces = 1;
    for (size_t k = 0; k < r->n_piece; k++) {
        struct tokio_darshan_segment want = seg_of(rank, r->seg_first + k);
        assert_memory_equal(&r->segments[k], &want, sizeof(want));
    }
    s->next[rank] += r->n_piece;
    s->segments += r->n_piece;
    return TOKIO_OK;
}

/* Every segment of every record comes back as written, kept whole and
 * handed over in pieces, whatever the compression. */
static void
test_dxt_round_trip_every_segment(void **state)
{
    const size_t nseg = 3001;
    const int comps[] = { TOKIO_DARSHAN_ZLIB, TOKIO_DARSHAN_BZIP2,
                          TOKIO_DARSHAN_NONE };
    char path[4200];

    snprintf(path, sizeof(path), "%s/rt.darshan", (char *)*state);
    for (size_t c = 0; c < 3; c++) {
        struct tokio_darshan *log = NULL;
        make_log(path, nseg, comps[c]);
        assert_int_equal(tokio_darshan_open(&log, path), TOKIO_OK);
        for (size_t r = 0; r < NREC; r++) {
            int mod = r % 2 ? TOKIO_DARSHAN_DXT_MPIIO
                            : TOKIO_DARSHAN_DXT_POSIX;
            const struct tokio_darshan_record *d =
                tokio_darshan_record(log, mod, r / 2);
            size_t n = r == 3 ? 0 : nseg;
            char host[32];
            snprintf(host, sizeof(host), "nid%05zu", r);
            assert_non_null(d);
            assert_int_equal(d->rank, (int64_t)r);
            assert_string_equal(d->hostname, host);
            assert_int_equal(d->n_writes, writes_of(r, n));
            assert_int_equal(d->n_reads, n - writes_of(r, n));
            for (size_t i = 0; i < n; i++) {
                struct tokio_darshan_segment want = seg_of(r, i);
                assert_memory_equal(&d->segments[i], &want, sizeof(want));
            }
        }
        tokio_darshan_free(log);

        struct seen s = { 0 };
        struct tokio_darshan_select sel = {
            .modules = TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DXT_POSIX) |
                       TOKIO_DARSHAN_MODULE_BIT(TOKIO_DARSHAN_DXT_MPIIO),
            .record = check_piece, .payload = &s, .dxt_pieces = 1,
        };
        assert_int_equal(tokio_darshan_open_select(&log, path, &sel),
                         TOKIO_OK);
        assert_int_equal(s.records, NREC);
        assert_int_equal(s.segments, (NREC - 1) * nseg);
        assert_true(s.pieces);
        for (size_t r = 0; r < NREC; r++)
            assert_int_equal(s.next[r], r == 3 ? 0 : nseg);
        assert_int_equal(tokio_darshan_record_count(
                             log, TOKIO_DARSHAN_DXT_POSIX), 0);
        tokio_darshan_free(log);
    }
}

/* ---- streamed text = whole text --------------------------------------- */

static void
check_folder(const char *dir, size_t *n_logs)
{
    DIR *d = opendir(dir);
    struct dirent *e;

    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        char path[4200];
        int rc1, rc2;
        if (len < 8 || strcmp(e->d_name + len - 8, ".darshan") != 0)
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        char *whole = text_of(0, path, &rc1);
        char *streamed = text_of(1, path, &rc2);
        if (rc1 >= 0 || rc2 >= 0) {
            if (rc1 != rc2)
                print_message("%s: %d against %d\n", path, rc2, rc1);
            assert_int_equal(rc2, rc1);
            assert_same_text(path, streamed, whole);
        }
        (*n_logs)++;
        free(whole);
        free(streamed);
    }
    closedir(d);
}

static void
test_stream_matches_whole_on_every_sample(void **state)
{
    (void)state;
    TOKIO_TEST_NEED_DATA(a, "darshan-logs");
    TOKIO_TEST_NEED_DATA(b, "darshan-logs-derived");
    size_t n = 0;
    check_folder(a, &n);
    check_folder(b, &n);
    assert_true(n >= 10);
}

static void
test_stream_matches_whole_on_written_logs(void **state)
{
    const int comps[] = { TOKIO_DARSHAN_ZLIB, TOKIO_DARSHAN_BZIP2,
                          TOKIO_DARSHAN_NONE };
    const size_t sizes[] = { 0, 1, 255, 256, 257, 5000 };
    char path[4200];

    snprintf(path, sizeof(path), "%s/w.darshan", (char *)*state);
    for (size_t c = 0; c < 3; c++)
        for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
            int rc1, rc2;
            make_log(path, sizes[k], comps[c]);
            char *whole = text_of(0, path, &rc1);
            char *streamed = text_of(1, path, &rc2);
            assert_int_equal(rc1, TOKIO_OK);
            assert_int_equal(rc2, TOKIO_OK);
            assert_same_text(path, streamed, whole);
            /* the OSTs of /lus/f0's segments are there */
            if (sizes[k] > 0)
                assert_non_null(strstr(streamed, " [7]"));
            free(whole);
            free(streamed);
        }
}

/* A log cut inside its DXT region fails, naming it, as the open does. */
static void
test_stream_truncated_log_fails(void **state)
{
    char path[4200];
    int rc;

    snprintf(path, sizeof(path), "%s/t.darshan", (char *)*state);
    make_log(path, 2000, TOKIO_DARSHAN_ZLIB);
    size_t len = 0;
    char *buf = tokio_test_read_file(path, &len);
    assert_non_null(buf);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(buf, 1, len - 100, fp), len - 100);
    fclose(fp);
    free(buf);
    char *text = text_of(1, path, &rc);
    assert_int_equal(rc, TOKIO_EFORMAT);
    assert_non_null(strstr(tokio_errmsg(), "t.darshan"));
    assert_non_null(strstr(tokio_errmsg(), "DXT_MPIIO"));
    free(text);
}

/* The segment lines' own "%12.4f" writes what printf writes: ties,
 * signs, zeros, tiny, huge and non-finite values, and random doubles. */
static void
test_f4_matches_printf(void **state)
{
    static const double edge[] = {
        0.0, -0.0, 0.00005, 0.00015, 0.00025, -0.00005, 1.23455, 2.5,
        0.99995, 9999999.99995, 1e-300, -1e-320, 5e-324, 123456789.0,
        0x1p49, -0x1p49, 0x1p49 - 0.5, 1e15, 1e300, -1e300, 0.1, 0.7,
        1.0 / 3.0, 12345.678949999999, 12345.67895,
    };
    uint64_t x = 0x2545f4914f6cdd1dULL;

    (void)state;
    for (size_t i = 0; i < 200000 + sizeof(edge) / sizeof(*edge); i++) {
        double v;
        if (i < sizeof(edge) / sizeof(*edge)) {
            v = edge[i];
        } else {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            if (i % 3 == 0) {
                memcpy(&v, &x, sizeof(v));      /* any bits at all */
            } else {
                /* times as traces hold them, some on exact ties */
                v = (double)(x >> 20) * (i % 3 == 1 ? 1e-7 : 0.00005);
                if (x & 1)
                    v = -v;
            }
        }
        char want[512], got[512];
        snprintf(want, sizeof(want), "%12.4f", v);
        char *end = tokio__darshan_put_f4(got, v);
        if (!(fabs(v) < 0x1p49)) {
            assert_null(end);   /* left to printf */
            continue;
        }
        assert_non_null(end);
        *end = '\0';
        if (strcmp(got, want) != 0)
            print_message("%a: got '%s', want '%s'\n", v, got, want);
        assert_string_equal(got, want);
    }
}

/* The heat map spreads each segment's bytes over the bins its time
 * spans: figures worked out by hand for a 100-second job in 10 bins. */
static void
test_heatmap_by_hand(void **state)
{
    struct tokio_darshan_job_info job = {
        .uid = 1, .jobid = 2, .start_time = 1000, .end_time = 1100,
        .nprocs = 3, .exe = "./a",
    };
    const struct tokio_darshan_segment w0[] = {
        { 0, 2000, 5.0, 25.0, 0 },      /* 500 | 1000 | 500 in bins 0-2 */
        { 0, 7, 95.0, 95.0, 0 },        /* no time: all in bin 9 */
        { 0, 30, 150.0, 160.0, 0 },     /* past the end: the last bin */
        { 0, 64, 31.0, 33.0, 0 },       /* a read: bin 3 */
    };
    struct tokio_darshan_writer *w = NULL;
    struct tokio_darshan_dxt_heatmap *h = NULL;
    char path[4200];

    snprintf(path, sizeof(path), "%s/h.darshan", (char *)*state);
    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    struct tokio_darshan_record d = { 0 };
    d.id = 1;
    d.rank = 2;
    d.hostname = "h";
    d.n_writes = 3;
    d.n_reads = 1;
    d.segments = w0;
    assert_int_equal(tokio_darshan_writer_add(w, TOKIO_DARSHAN_DXT_POSIX,
                                              &d), TOKIO_OK);
    d.rank = 0;
    d.n_writes = 1;
    d.n_reads = 0;
    assert_int_equal(tokio_darshan_writer_add(w, TOKIO_DARSHAN_DXT_MPIIO,
                                              &d), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_write(w, path), TOKIO_OK);
    tokio_darshan_writer_free(w);

    assert_int_equal(tokio_darshan_dxt_heatmap(path, 10, 1, &h), TOKIO_OK);
    assert_int_equal(h->nranks, 3);
    assert_int_equal(h->nbins, 10);
    assert_true(h->bin_seconds == 10.0);
    assert_int_equal(h->segments, 4);
    const double *wr = h->write_bytes + 2 * 10, *rd = h->read_bytes + 2 * 10;
    const double want_w[10] = { 500, 1000, 500, 0, 0, 0, 0, 0, 0, 37 };
    const double want_r[10] = { 0, 0, 0, 64, 0, 0, 0, 0, 0, 0 };
    for (size_t b = 0; b < 10; b++) {
        assert_true(wr[b] == want_w[b]);
        assert_true(rd[b] == want_r[b]);
        assert_true(h->write_bytes[b] == 0);    /* rank 0: MPI-IO only */
    }
    tokio_darshan_dxt_heatmap_free(h);
    /* both modules: rank 0's MPI-IO write too */
    assert_int_equal(tokio_darshan_dxt_heatmap(path, 10, 3, &h), TOKIO_OK);
    assert_int_equal(h->segments, 5);
    assert_true(h->write_bytes[0] == 500 && h->write_bytes[1] == 1000);
    tokio_darshan_dxt_heatmap_free(h);
    assert_int_equal(tokio_darshan_dxt_heatmap(path, 0, 3, &h),
                     TOKIO_EINVAL);
    assert_null(h);
}

/* darshan-dxt-parser 3.5.0, where installed, prints what we print. */
static void
test_darshan_dxt_parser_agrees(void **state)
{
    const char *bin = "/tmp/darshan-util/bin/darshan-dxt-parser";
    char path[4200], cmd[8600];
    int rc;

    if (getenv("CI") != NULL || access(bin, X_OK) != 0) {
        print_message("skipped: no darshan-dxt-parser at %s\n", bin);
        skip();
    }
    snprintf(path, sizeof(path), "%s/p.darshan", (char *)*state);
    make_log(path, 700, TOKIO_DARSHAN_ZLIB);
    snprintf(cmd, sizeof(cmd), "TZ=UTC %s --show-incomplete '%s' > '%s.txt'",
             bin, path, path);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof(cmd), "%s.txt", path);
    char *want = tokio_test_read_file(cmd, NULL);
    assert_non_null(want);
    setenv("TZ", "UTC", 1);
    tzset();
    char *text = text_of(1, path, &rc);
    assert_int_equal(rc, TOKIO_OK);
    /* the first line names the log as given */
    assert_same_text(path, strchr(text, '\n'), strchr(want, '\n'));
    free(text);
    free(want);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_dxt_round_trip_every_segment,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test(test_stream_matches_whole_on_every_sample),
        cmocka_unit_test_setup_teardown(
            test_stream_matches_whole_on_written_logs,
            tokio_test_mkdtemp_setup, tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(test_stream_truncated_log_fails,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test(test_f4_matches_printf),
        cmocka_unit_test_setup_teardown(test_heatmap_by_hand,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
        cmocka_unit_test_setup_teardown(test_darshan_dxt_parser_agrees,
                                        tokio_test_mkdtemp_setup,
                                        tokio_test_remove_dir),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
