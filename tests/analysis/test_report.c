/*
 * tests/analysis/test_report.c - the job report (src/analysis/report.c)
 * on logs this test writes with the Darshan writer and a TTS file it
 * writes for the job's window: text from the log is escaped (a file
 * named <script>... renders as text), every section is there or says why
 * it is not, figures are inline SVG with ids no two figures share, and
 * the page fetches nothing.
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "tokio/analysis/report.h"
#include "tokio/config.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_writer.h"
#include "tokio/connectors/hdf5.h"
#include "tokio/timeseries.h"

#define HOSTILE "/scratch/u/<script>alert(\"x\")</script>&amp;.dat"

static int
counter_index(int mod, const char *name)
{
    for (size_t i = 0; i < tokio_darshan_counter_count(mod); i++)
        if (strcmp(tokio_darshan_counter_name(mod, i), name) == 0)
            return (int)i;
    fail_msg("no counter %s", name);
    return -1;
}

/* A log of one job on /scratch from 2019-02-14 02:00:00 for 100 s: one
 * shared file with a hostile name, one per-rank file. */
static void
write_log(const char *path)
{
    static const struct tokio_darshan_mount mounts[] = {
        { "/scratch", "lustre" }, { "/", "rootfs" }
    };
    struct tokio_darshan_job_info job = { 0 };
    struct tokio_darshan_writer *w = NULL;
    const int mod = TOKIO_DARSHAN_POSIX;
    size_t n = tokio_darshan_counter_count(mod);
    size_t nf = tokio_darshan_fcounter_count(mod);
    int64_t *c = calloc(n, sizeof(*c));
    double *f = calloc(nf, sizeof(*f));
    const char *names[2] = { HOSTILE, "/scratch/u/rank0.dat" };

    job.uid = 1000;
    job.jobid = 777;
    job.start_time = tokio_test_local(2019, 2, 14, 2, 0, 0);
    job.end_time = job.start_time + 100;
    job.nprocs = 4;
    job.exe = "/bin/app --name <b>bold</b>";
    job.n_mounts = 2;
    job.mounts = mounts;
    assert_int_equal(tokio_darshan_writer_new(&w, &job), TOKIO_OK);
    for (int k = 0; k < 2; k++) {
        uint64_t id = tokio_darshan_writer_hash(names[k]);
        memset(c, 0, n * sizeof(*c));
        c[counter_index(mod, "POSIX_OPENS")] = 4;
        c[counter_index(mod, "POSIX_WRITES")] = 100;
        c[counter_index(mod, "POSIX_BYTES_WRITTEN")] = (k + 1) * 104857600;
        c[counter_index(mod, "POSIX_SIZE_WRITE_1M_4M")] = 100;
        assert_int_equal(tokio_darshan_writer_add_name(w, id, names[k]),
                         TOKIO_OK);
        assert_int_equal(tokio_darshan_writer_add_record(w, mod, id,
                                                         k ? 0 : -1, c, n, f,
                                                         nf), TOKIO_OK);
    }
    assert_int_equal(tokio_darshan_writer_write(w, path), TOKIO_OK);
    tokio_darshan_writer_free(w);
    free(c);
    free(f);
}

/* A TTS file for "scratch" over 01:00-03:00 of the day, and the site. */
static struct tokio_config *
make_site(const char *dir, int with_tts)
{
    struct tokio_config *cfg = NULL;
    char path[4096], text[4096];

    if (with_tts) {
        struct tokio_hdf5_update *u = NULL;
        struct tokio_timeseries *ts = NULL;
        int64_t t0 = tokio_test_local(2019, 2, 14, 1, 0, 0);
        static const char *const cols[] = { "OST0000", "OST0001" };
        snprintf(path, sizeof(path), "%s/2019-02-14", dir);
        mkdir(path, 0755);
        strcat(path, "/scr.hdf5");
        assert_int_equal(tokio_hdf5_update_begin(&u, path), TOKIO_OK);
        assert_int_equal(tokio_hdf5_update_set_version(u, "1"), TOKIO_OK);
        assert_int_equal(tokio_timeseries_new(&ts, "datatargets/writebytes",
                                              t0, t0 + 7200, 5, 2, cols, 2),
                         TOKIO_OK);
        for (size_t i = 0; i < tokio_timeseries_rows(ts) * 2; i++)
            tokio_timeseries_data(ts)[i] = (double)(i % 7) * 1e6;
        assert_int_equal(tokio_hdf5_update_commit(u, ts), TOKIO_OK);
        tokio_timeseries_free(ts);
        assert_int_equal(tokio_hdf5_update_finish(u), TOKIO_OK);
    }
    snprintf(text, sizeof(text),
             "{\"mount_to_fsname\": {\"^/scratch\": \"scratch\"},"
             " \"hdf5_files\": {\"scratch\": \"%s/%%Y-%%m-%%d/scr.hdf5\"}}",
             dir);
    assert_int_equal(tokio_config_open_mem(&cfg, text, strlen(text), "site"),
                     TOKIO_OK);
    return cfg;
}

/* The report of the log of write_log() on the site of make_site(dir,
 * `fs_data`), with the history `history` (CSV text; NULL: none); its
 * warnings into *warnings. */
static char *
report(int fs_data, const char *history, json_t **warnings)
{
    char *dir = tokio_test_mkdtemp(), *log = tokio_test_join(dir, "a.darshan");
    char *hist = tokio_test_join(dir, "history.csv");
    struct tokio_report_opts o = { 0 };
    char *html = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&html, &len);

    assert_non_null(fp);
    write_log(log);
    struct tokio_config *cfg = make_site(dir, fs_data);
    if (history != NULL) {
        tokio_test_write_file(hist, history, SIZE_MAX);
        o.history = hist;
    }
    const char *const logs[] = { log };
    if (tokio_report_write(fp, cfg, logs, 1, &o, warnings) < 0)
        fail_msg("%s", tokio_errmsg());
    fclose(fp);
    tokio_config_free(cfg);
    tokio_test_rmtree(dir);
    free(hist);
    free(log);
    free(dir);
    return html;
}

static size_t
count(const char *hay, const char *needle)
{
    size_t n = 0;

    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void
test_report_escapes_what_the_log_says(void **state)
{
    (void)state;
    json_t *warnings = NULL;
    char *html = report(0, NULL, &warnings);

    /* no markup from the log: only ours */
    assert_null(strstr(html, "<script"));
    assert_null(strstr(html, "<b>"));
    assert_contains(html, "/scratch/u/&lt;script&gt;alert(&quot;x&quot;)"
                          "&lt;/script&gt;&amp;amp;.dat");
    assert_contains(html, "--name &lt;b&gt;bold&lt;/b&gt;");
    /* nothing is fetched: a policy forbids it and nothing names a URL
     * but the SVG namespaces */
    assert_contains(html, "default-src 'none'");
    assert_null(strstr(html, "href=\"http"));
    assert_null(strstr(html, "url(http"));
    assert_null(strstr(html, "@import"));
    assert_null(strstr(html, "src="));
    json_decref(warnings);
    free(html);
}

static void
test_report_says_what_is_absent(void **state)
{
    (void)state;
    json_t *warnings = NULL;
    char *html = report(0, NULL, &warnings);

    assert_contains(html, "<h2>The job</h2>");
    assert_contains(html, "<h2>Its I/O (Darshan)</h2>");
    assert_contains(html, "No file system data: the site has no TTS or H5LMT"
                          " file for scratch over this window");
    assert_contains(html, "Not gathered: give -o (--ost)");
    assert_contains(html, "Not gathered: give -t (--topology)");
    assert_contains(html, "Not gathered: give -c (--concurrentjobs)");
    assert_contains(html, "No history of earlier runs");
    assert_contains(html, "unknown (no Slurm record of the job)");
    /* the access sizes and the time split: two figures */
    assert_int_equal(count(html, "<svg"), 2);
    assert_true(json_array_size(warnings) >= 1);
    json_decref(warnings);
    free(html);
}

/* With the file system's data and a history: charts and UMAMI, every
 * figure's ids its own. */
static void
test_report_draws_the_file_system_and_history(void **state)
{
    (void)state;
    json_t *warnings = NULL;
    char *html = report(1, "index,_datetime_start,"
                           "darshan_tot_bytes_written_posix\n"
                           "0,2019-02-10 02:00:00,100000000\n"
                           "1,2019-02-11 02:00:00,400000000\n"
                           "2,2019-02-12 02:00:00,200000000\n", &warnings);
    assert_contains(html, "the job's span is shaded");
    assert_contains(html, "coverage factor");
    assert_contains(html, "against 3 earlier runs");
    /* sizes, split, the write rate (the only dataset), UMAMI */
    assert_int_equal(count(html, "<svg"), 4);
    assert_true(count(html, "id=\"f4-") > 0);
    /* no id is given twice */
    for (const char *p = strstr(html, " id=\""); p != NULL;
         p = strstr(p + 1, " id=\"")) {
        char id[128];
        size_t n = strcspn(p + 5, "\"");
        snprintf(id, sizeof(id), " id=\"%.*s\"", (int)(n < 100 ? n : 100),
                 p + 5);
        assert_int_equal(count(html, id), 1);
    }
    json_decref(warnings);
    free(html);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_escapes_what_the_log_says),
        cmocka_unit_test(test_report_says_what_is_absent),
        cmocka_unit_test(test_report_draws_the_file_system_and_history),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
