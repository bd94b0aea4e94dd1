/*
 * tests/connectors/test_darshan_writer.c - the Darshan log writer: logs
 * built here read back field for field (zlib, bzip2, uncompressed; memory
 * and file), record ids match the runtime's hash on the sample logs,
 * every real log of the data pack survives open -> rewrite -> open, bad
 * arguments are refused without damage, a failed write leaves the target
 * alone, and every allocation failure is clean.
 */
#include "testutil.h"
#include "darshan_gen.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/alloc.h"
#include "tokio/connectors/darshan.h"
#include "tokio/connectors/darshan_writer.h"

/* ---- fixtures ------------------------------------------------------- */

#define NPROCS 8

static const char *const meta_keys[] = { "lib_ver", "h" };
static const char *const meta_values[] = { "3.5.0", "romio_no_indep_rw=true" };
/* given in an order the reader's longest-first sort keeps */
static const struct tokio_darshan_mount mounts[] = {
    { "/global/cscratch1", "lustre" },
    { "/home", "nfs" },
    { "/", "rootfs" },
};

static struct tokio_darshan_job_info
job_info(void)
{
    struct tokio_darshan_job_info j;

    memset(&j, 0, sizeof(j));
    j.uid = 69615;
    j.jobid = 4478544;
    j.start_time = 1490000000;
    j.start_time_nsec = 250000000;
    j.end_time = 1490000117;
    j.end_time_nsec = 750000000;
    j.nprocs = NPROCS;
    j.exe = "/global/homes/u/user/ior -a MPIIO -b 4m";
    j.n_metadata = 2;
    j.metadata_keys = meta_keys;
    j.metadata_values = meta_values;
    j.n_mounts = 3;
    j.mounts = mounts;
    return j;
}

/* Counter i of a record made with `seed`; doubles are exact in binary. */
static int64_t
ival(int seed, size_t i)
{
    return (int64_t)seed * 1000 + (int64_t)i - 3;
}

static double
fval(int seed, size_t i)
{
    return seed + (double)i / 8.0;
}

static const int fixed_mods[] = {
    TOKIO_DARSHAN_POSIX, TOKIO_DARSHAN_MPIIO, TOKIO_DARSHAN_H5F,
    TOKIO_DARSHAN_H5D, TOKIO_DARSHAN_STDIO,
};
#define N_FIXED (sizeof(fixed_mods) / sizeof(fixed_mods[0]))

static const char *const files[] = {
    "/global/cscratch1/sd/user/ior.dat", "<STDOUT>", "/home/u/in.h5",
};

static const struct tokio_darshan_segment segs[3] = {
    { 0, 4096, 0.5, 0.75, 0 },
    { 4096, 4096, 0.75, 1.0, 0 },
    { 0, 8192, 2.0, 2.5, 0 },
};

static const int64_t osts[] = { 12, 13, 200 };

/* A writer with names, two records of each fixed module, a LUSTRE and a
 * DXT_POSIX record.  Returns the first failing status. */
static int
build(struct tokio_darshan_writer **out)
{
    struct tokio_darshan_job_info j = job_info();
    struct tokio_darshan_writer *w = NULL;
    int64_t iv[128];
    double fv[32];
    int rc;

    *out = NULL;
    if ((rc = tokio_darshan_writer_new(&w, &j)) < 0)
        return rc;
    for (size_t i = 0; i < 3 && rc == 0; i++)
        rc = tokio_darshan_writer_add_name(
            w, tokio_darshan_writer_hash(files[i]), files[i]);
    for (size_t k = 0; k < N_FIXED && rc == 0; k++) {
        int mod = fixed_mods[k];
        size_t ni = tokio_darshan_counter_count(mod);
        size_t nf = tokio_darshan_fcounter_count(mod);
        for (int r = 0; r < 2 && rc == 0; r++) {
            int seed = mod * 10 + r;
            for (size_t i = 0; i < ni; i++)
                iv[i] = ival(seed, i);
            for (size_t i = 0; i < nf; i++)
                fv[i] = fval(seed, i);
            struct tokio_darshan_record rec;
            memset(&rec, 0, sizeof(rec));
            rec.id = tokio_darshan_writer_hash(files[r]);
            rec.rank = r ? NPROCS - 1 : -1;
            rec.counters = iv;
            rec.n_counters = ni;
            rec.fcounters = fv;
            rec.n_fcounters = nf;
            rec.file_rec_id = mod == TOKIO_DARSHAN_H5D ? 77 : 0;
            rc = tokio_darshan_writer_add(w, mod, &rec);
        }
    }
    struct tokio_darshan_lustre_comp c[2];
    tokio_test_darshan_lustre_comps(c);
    if (rc == 0)
        rc = tokio_darshan_writer_add_lustre(
            w, tokio_darshan_writer_hash(files[0]), -1, c, 2, osts, 3);
    if (rc == 0) {
        struct tokio_darshan_record d;
        memset(&d, 0, sizeof(d));
        d.id = tokio_darshan_writer_hash(files[0]);
        d.rank = 3;
        d.hostname = "nid00042";
        d.n_writes = 2;
        d.n_reads = 1;
        d.segments = segs;
        rc = tokio_darshan_writer_add(w, TOKIO_DARSHAN_DXT_POSIX, &d);
    }
    if (rc < 0) {
        tokio_darshan_writer_free(w);
        return rc;
    }
    *out = w;
    return TOKIO_OK;
}

/* Every field `build` wrote, read back from `log`. */
static void
check_built(const struct tokio_darshan *log, int comp)
{
    const struct tokio_darshan_job *j = tokio_darshan_job(log);

    assert_string_equal(tokio_darshan_version(log), "3.41");
    assert_int_equal(tokio_darshan_compression(log), comp);
    assert_false(tokio_darshan_swapped(log));
    assert_int_equal(tokio_darshan_partial_flags(log), 0);
    assert_int_equal(j->uid, 69615);
    assert_int_equal(j->jobid, 4478544);
    assert_int_equal(j->start_time, 1490000000);
    assert_int_equal(j->start_time_nsec, 250000000);
    assert_int_equal(j->end_time, 1490000117);
    assert_int_equal(j->end_time_nsec, 750000000);
    assert_int_equal(j->nprocs, NPROCS);
    assert_true(tokio_darshan_run_time(log) == 117.5);
    assert_string_equal(j->exe, "/global/homes/u/user/ior -a MPIIO -b 4m");
    assert_int_equal(j->n_metadata, 2);
    for (size_t i = 0; i < 2; i++) {
        assert_string_equal(j->metadata_keys[i], meta_keys[i]);
        assert_string_equal(j->metadata_values[i], meta_values[i]);
    }
    assert_int_equal(tokio_darshan_mount_count(log), 3);
    for (size_t i = 0; i < 3; i++) {
        assert_string_equal(tokio_darshan_mount(log, i)->path,
                            mounts[i].path);
        assert_string_equal(tokio_darshan_mount(log, i)->type,
                            mounts[i].type);
    }
    assert_int_equal(tokio_darshan_name_count(log), 3);
    for (size_t i = 0; i < 3; i++) {
        uint64_t id = 0;
        assert_string_equal(tokio_darshan_name_at(log, i, &id), files[i]);
        assert_true(id == tokio_darshan_writer_hash(files[i]));
    }
    for (size_t k = 0; k < N_FIXED; k++) {
        int mod = fixed_mods[k];
        assert_true(tokio_darshan_module_decoded(log, mod));
        assert_int_equal(tokio_darshan_record_count(log, mod), 2);
        for (size_t r = 0; r < 2; r++) {
            const struct tokio_darshan_record *rec =
                tokio_darshan_record(log, mod, r);
            int seed = mod * 10 + (int)r;
            assert_true(rec->id == tokio_darshan_writer_hash(files[r]));
            assert_int_equal(rec->rank, r ? NPROCS - 1 : -1);
            assert_int_equal(rec->n_counters,
                             tokio_darshan_counter_count(mod));
            assert_int_equal(rec->n_fcounters,
                             tokio_darshan_fcounter_count(mod));
            for (size_t i = 0; i < rec->n_counters; i++)
                assert_int_equal(rec->counters[i], ival(seed, i));
            for (size_t i = 0; i < rec->n_fcounters; i++)
                assert_true(rec->fcounters[i] == fval(seed, i));
            assert_int_equal(rec->file_rec_id,
                             mod == TOKIO_DARSHAN_H5D ? 77 : 0);
        }
    }
    /* module versions: current in 3.5.0, DXT as released 3.5.0 reads */
    assert_int_equal(tokio_darshan_module_version(log, TOKIO_DARSHAN_POSIX),
                     4);
    assert_int_equal(tokio_darshan_module_version(log, TOKIO_DARSHAN_MPIIO),
                     3);
    assert_int_equal(tokio_darshan_module_version(log, TOKIO_DARSHAN_H5D), 2);
    assert_int_equal(tokio_darshan_module_version(log, TOKIO_DARSHAN_STDIO),
                     2);
    assert_int_equal(tokio_darshan_module_version(log,
                                                  TOKIO_DARSHAN_LUSTRE), 2);
    assert_int_equal(tokio_darshan_module_version(log,
                                                  TOKIO_DARSHAN_DXT_POSIX),
                     1);
    assert_int_equal(tokio_darshan_module_len(log, TOKIO_DARSHAN_DXT_MPIIO),
                     0);

    struct tokio_darshan_lustre_comp c[2];
    tokio_test_darshan_lustre_comps(c);
    const struct tokio_darshan_record *l =
        tokio_darshan_record(log, TOKIO_DARSHAN_LUSTRE, 0);
    assert_non_null(l);
    assert_int_equal(l->rank, -1);
    assert_int_equal(l->n_comps, 2);
    for (size_t i = 0; i < 2; i++) {
        assert_memory_equal(l->comps[i].counters, c[i].counters,
                            sizeof(c[i].counters));
        assert_string_equal(l->comps[i].pool_name, c[i].pool_name);
    }
    assert_int_equal(l->n_extra, 3);
    assert_memory_equal(l->extra, osts, sizeof(osts));

    const struct tokio_darshan_record *d =
        tokio_darshan_record(log, TOKIO_DARSHAN_DXT_POSIX, 0);
    assert_non_null(d);
    assert_int_equal(d->rank, 3);
    assert_string_equal(d->hostname, "nid00042");
    assert_int_equal(d->n_writes, 2);
    assert_int_equal(d->n_reads, 1);
    assert_memory_equal(d->segments, segs, sizeof(segs));
}

/* ---- reading back what was written ---------------------------------- */

static void
roundtrip_mem(int comp)
{
    struct tokio_darshan_writer *w = NULL;
    struct tokio_darshan *log = NULL;
    unsigned char *buf = NULL;
    size_t len = 0;

    assert_int_equal(build(&w), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_set_compression(w, comp),
                     TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_write_mem(w, &buf, &len),
                     TOKIO_OK);
    /* §15: 1328-byte header, version 3.41, regions right after it */
    assert_true(len > 1328);
    assert_memory_equal(buf, "3.41\0\0\0\0", 8);
    assert_int_equal(buf[16], comp);
    int rc = tokio_darshan_open_mem(&log, buf, len, "built.darshan");
    if (rc != TOKIO_OK)
        print_message("%s\n", tokio_errmsg());
    assert_int_equal(rc, TOKIO_OK);
    check_built(log, comp);
    tokio_darshan_free(log);
    free(buf);
    tokio_darshan_writer_free(w);
}

static void
test_darshan_writer_zlib_log_reads_back_every_field(void **state)
{
    (void)state;
    roundtrip_mem(TOKIO_DARSHAN_ZLIB);
}

static void
test_darshan_writer_bzip2_log_reads_back_every_field(void **state)
{
    (void)state;
    roundtrip_mem(TOKIO_DARSHAN_BZIP2);
}

static void
test_darshan_writer_uncompressed_log_reads_back_every_field(void **state)
{
    (void)state;
    roundtrip_mem(TOKIO_DARSHAN_NONE);
}

static void
test_darshan_writer_file_equals_memory_image(void **state)
{
    struct tokio_darshan_writer *w = NULL;
    struct tokio_darshan *log = NULL;
    unsigned char *buf = NULL;
    size_t len = 0, flen = 0;
    char path[4096];

    (void)state;
    char *dir = tokio_test_mkdtemp();
    snprintf(path, sizeof(path), "%s/out.darshan", dir);
    assert_int_equal(build(&w), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_write(w, path), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_write_mem(w, &buf, &len),
                     TOKIO_OK);
    char *file = tokio_test_read_file(path, &flen);
    assert_non_null(file);
    assert_int_equal(flen, len);
    assert_memory_equal(file, buf, len);
    assert_int_equal(tokio_darshan_open(&log, path), TOKIO_OK);
    check_built(log, TOKIO_DARSHAN_ZLIB);
    tokio_darshan_free(log);
    free(file);
    free(buf);
    tokio_darshan_writer_free(w);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_darshan_writer_empty_log_reads_back(void **state)
{
    struct tokio_darshan_job_info j;
    struct tokio_darshan_writer *w = NULL;
    struct tokio_darshan *log = NULL;
    unsigned char *buf = NULL;
    size_t len = 0;

    (void)state;
    memset(&j, 0, sizeof(j));
    j.nprocs = 1;
    assert_int_equal(tokio_darshan_writer_new(&w, &j), TOKIO_OK);
    tokio_darshan_writer_set_partial(w, UINT64_C(1) << TOKIO_DARSHAN_POSIX);
    assert_int_equal(tokio_darshan_writer_write_mem(w, &buf, &len),
                     TOKIO_OK);
    assert_int_equal(tokio_darshan_open_mem(&log, buf, len, "empty"),
                     TOKIO_PARTIAL);
    assert_string_equal(tokio_darshan_job(log)->exe, "");
    assert_int_equal(tokio_darshan_mount_count(log), 0);
    assert_int_equal(tokio_darshan_name_count(log), 0);
    assert_true(tokio_darshan_module_partial(log, TOKIO_DARSHAN_POSIX));
    tokio_darshan_free(log);
    free(buf);
    tokio_darshan_writer_free(w);
}

/* ---- real logs -------------------------------------------------------- */

static char *
base_text(const struct tokio_darshan *log)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);

    assert_non_null(fp);
    assert_int_equal(tokio_darshan_write_base(log, fp), TOKIO_OK);
    fclose(fp);
    return text;
}

/*
 * The lines of darshan-parser --base that describe the data rather than
 * the container.  Dropped, because a rewrite changes them by design: the
 * version and compression lines; "# run time" (3.41 computes it from
 * nanoseconds without the +1 of older versions, §10.2); the region sizes
 * and module versions; the 3.20 warning and the per-module description
 * blocks (their text and blank lines depend on the record version).
 * Kept: exe, ids, times, nprocs, metadata, mounts, module banners and
 * every record line.
 */
static char *
data_lines(const char *text)
{
    static const char *const keep[] = {
        "# exe:", "# uid:", "# jobid:", "# start_time", "# end_time",
        "# nprocs:", "# metadata:", "# mount entry:", "# no module data",
    };
    size_t n = strlen(text), used = 0;
    char *out = malloc(n + 1);

    assert_non_null(out);
    for (const char *p = text; *p; ) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) + 1 : strlen(p);
        int ok = p[0] != '#' && p[0] != '\n';
        for (size_t k = 0; !ok && k < sizeof(keep) / sizeof(*keep); k++)
            ok = strncmp(p, keep[k], strlen(keep[k])) == 0;
        if (!ok && l > 14 && strncmp(p + l - 13, " module data\n", 13) == 0)
            ok = 1;
        if (ok) {
            memcpy(out + used, p, l);
            used += l;
        }
        p += l;
    }
    out[used] = '\0';
    return out;
}

static void
assert_records_equal(const struct tokio_darshan *a,
                     const struct tokio_darshan *b)
{
    for (int m = 0; m < TOKIO_DARSHAN_KNOWN_MODULES; m++) {
        size_t n = tokio_darshan_record_count(a, m);
        assert_int_equal(tokio_darshan_record_count(b, m), n);
        for (size_t i = 0; i < n; i++) {
            const struct tokio_darshan_record *x = tokio_darshan_record(a, m,
                                                                        i);
            const struct tokio_darshan_record *y = tokio_darshan_record(b, m,
                                                                        i);
            assert_true(x->id == y->id);
            assert_int_equal(x->rank, y->rank);
            assert_int_equal(x->n_counters, y->n_counters);
            assert_int_equal(x->n_fcounters, y->n_fcounters);
            if (x->n_counters)
                assert_memory_equal(x->counters, y->counters,
                                    8 * x->n_counters);
            if (x->n_fcounters)
                assert_memory_equal(x->fcounters, y->fcounters,
                                    8 * x->n_fcounters);
            assert_true(x->file_rec_id == y->file_rec_id);
            assert_int_equal(x->n_extra, y->n_extra);
            if (x->n_extra)
                assert_memory_equal(x->extra, y->extra, 8 * x->n_extra);
            assert_int_equal(x->n_comps, y->n_comps);
            if (x->n_comps)
                assert_memory_equal(x->comps, y->comps,
                                    x->n_comps * sizeof(*x->comps));
            assert_int_equal(x->n_writes, y->n_writes);
            assert_int_equal(x->n_reads, y->n_reads);
            if (x->n_writes + x->n_reads)
                assert_memory_equal(x->segments, y->segments,
                                    (x->n_writes + x->n_reads) *
                                        sizeof(*x->segments));
            if (x->hostname)
                assert_string_equal(x->hostname, y->hostname);
        }
    }
}

/* open -> rewrite (memory) -> open; 1 if it round-tripped, 0 if the log
 * does not open or holds a module the writer does not write. */
static int
roundtrip_log(const char *path, int comp)
{
    struct tokio_darshan *a = NULL, *b = NULL;
    struct tokio_darshan_writer *w = NULL;
    unsigned char *buf = NULL, *out = NULL;
    size_t len = 0, olen = 0;

    buf = (unsigned char *)tokio_test_read_data(path, &len);
    assert_non_null(buf);
    int rc = tokio_darshan_open_mem(&a, buf, len, path);
    free(buf);
    if (rc < 0)
        return 0;               /* the pack's empty logs */
    int rcw = tokio_darshan_writer_from_log(&w, a);
    if (rcw == TOKIO_EINVAL) {
        print_message("not rewritten: %s\n", tokio_errmsg());
        tokio_darshan_free(a);
        return 0;
    }
    assert_int_equal(rcw, TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_set_compression(w, comp), 0);
    assert_int_equal(tokio_darshan_writer_write_mem(w, &out, &olen), 0);
    int rc2 = tokio_darshan_open_mem(&b, out, olen, "rewritten");
    if (rc2 < 0)
        print_message("%s: %s\n", path, tokio_errmsg());
    assert_int_equal(rc2, rc);
    assert_string_equal(tokio_darshan_version(b), "3.41");
    assert_int_equal(tokio_darshan_compression(b), comp);
    assert_true(tokio_darshan_partial_flags(a) ==
                tokio_darshan_partial_flags(b));

    char *ta = base_text(a), *tb = base_text(b);
    char *da = data_lines(ta), *db = data_lines(tb);
    if (strcmp(da, db) != 0) {
        size_t i = 0;
        while (da[i] && da[i] == db[i])
            i++;
        print_message("%s: rewrite differs at byte %zu:\n was: %.100s\n"
                      " now: %.100s\n", path, i, da + i, db + i);
        fail();
    }
    assert_records_equal(a, b);
    assert_int_equal(tokio_darshan_name_count(a),
                     tokio_darshan_name_count(b));
    for (size_t i = 0; i < tokio_darshan_name_count(a); i++) {
        uint64_t ia, ib;
        assert_string_equal(tokio_darshan_name_at(a, i, &ia),
                            tokio_darshan_name_at(b, i, &ib));
        assert_true(ia == ib);
    }
    free(ta);
    free(tb);
    free(da);
    free(db);
    free(out);
    tokio_darshan_writer_free(w);
    tokio_darshan_free(a);
    tokio_darshan_free(b);
    return 1;
}

/* Round-trip every *.darshan under `dir` (recursively). */
static void
roundtrip_dir(const char *dir, int comp, size_t *done, size_t *seen)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4096];

    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        if (n > 8 && strcmp(e->d_name + n - 8, ".darshan") == 0) {
            (*seen)++;
            *done += (size_t)roundtrip_log(path, comp);
        } else {
            DIR *sub = opendir(path);
            if (sub != NULL) {
                closedir(sub);
                roundtrip_dir(path, comp, done, seen);
            }
        }
    }
    closedir(d);
}

static void
test_darshan_writer_rewrites_every_sample_log(void **state)
{
    static const char *const dirs[] = {
        "darshan-logs", "pytokio-inputs", "darshan-logs-derived",
    };
    size_t done = 0, seen = 0;

    (void)state;
    TOKIO_TEST_NEED_DATA(d, "darshan-logs");
    (void)d;
    for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
        char p[4096];
        const char *dp = tokio_test_data(dirs[i]);
        if (dp == NULL)
            continue;
        snprintf(p, sizeof(p), "%s", dp);
        roundtrip_dir(p, i == 1 ? TOKIO_DARSHAN_BZIP2 : TOKIO_DARSHAN_ZLIB,
                      &done, &seen);
    }
    print_message("rewrote %zu of %zu logs\n", done, seen);
    assert_true(done >= 10);
}

static void
test_darshan_writer_rewrite_to_file(void **state)
{
    struct tokio_darshan *a = NULL, *b = NULL;
    char path[4096];

    (void)state;
    TOKIO_TEST_NEED_DATA(p, "darshan-logs/ior_hdf5_example.darshan");
    assert_int_equal(tokio_darshan_open(&a, p), TOKIO_OK);
    char *dir = tokio_test_mkdtemp();
    snprintf(path, sizeof(path), "%s/re.darshan", dir);
    assert_int_equal(tokio_darshan_rewrite(a, TOKIO_DARSHAN_NONE, path),
                     TOKIO_OK);
    assert_int_equal(tokio_darshan_open(&b, path), TOKIO_OK);
    assert_int_equal(tokio_darshan_compression(b), TOKIO_DARSHAN_NONE);
    assert_records_equal(a, b);
    tokio_darshan_free(a);
    tokio_darshan_free(b);
    tokio_test_rmtree(dir);
    free(dir);
}

/* §6: record ids are lookup8 hashes of the names. */
static void
test_darshan_writer_hash_matches_runtime_ids(void **state)
{
    struct tokio_darshan *log = NULL;
    size_t checked = 0;

    (void)state;
    TOKIO_TEST_NEED_DATA(p, "darshan-logs/ior_hdf5_example.darshan");
    assert_int_equal(tokio_darshan_open(&log, p), TOKIO_OK);
    for (size_t i = 0; i < tokio_darshan_name_count(log); i++) {
        uint64_t id;
        const char *name = tokio_darshan_name_at(log, i, &id);
        assert_true(tokio_darshan_writer_hash(name) == id);
        checked++;
    }
    assert_true(checked > 3);
    tokio_darshan_free(log);
    TOKIO_TEST_NEED_DATA(q, "darshan-logs/sample-badost.darshan");
    assert_int_equal(tokio_darshan_open(&log, q), TOKIO_OK);
    for (size_t i = 0; i < tokio_darshan_name_count(log); i++) {
        uint64_t id;
        const char *name = tokio_darshan_name_at(log, i, &id);
        assert_true(tokio_darshan_writer_hash(name) == id);
    }
    tokio_darshan_free(log);
}

/* ---- bad arguments ---------------------------------------------------- */

static void
test_darshan_writer_refuses_what_readers_would_misread(void **state)
{
    struct tokio_darshan_job_info j = job_info();
    struct tokio_darshan_writer *w = NULL;
    struct tokio_darshan_mount bad_mount = { "/my scratch", "lustre" };
    int64_t iv[69] = { 0 };
    double fv[17] = { 0 };
    char meta[1100];

    (void)state;
    j.exe = "two\nlines";
    assert_int_equal(tokio_darshan_writer_new(&w, &j), TOKIO_EINVAL);
    assert_null(w);
    assert_contains(tokio_errmsg(), "newline");
    j = job_info();
    j.mounts = &bad_mount;
    j.n_mounts = 1;
    assert_int_equal(tokio_darshan_writer_new(&w, &j), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "mount 1");
    j = job_info();
    memset(meta, 'x', sizeof(meta) - 1);
    meta[sizeof(meta) - 1] = '\0';
    const char *mv[2] = { meta, "v" };
    j.metadata_values = mv;
    assert_int_equal(tokio_darshan_writer_new(&w, &j), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "1023 bytes");
    j = job_info();
    j.nprocs = 0;
    assert_int_equal(tokio_darshan_writer_new(&w, &j), TOKIO_EINVAL);

    j = job_info();
    assert_int_equal(build(&w), TOKIO_OK);
    unsigned char *before = NULL, *after = NULL;
    size_t blen, alen;
    assert_int_equal(tokio_darshan_writer_write_mem(w, &before, &blen), 0);
    assert_int_equal(tokio_darshan_writer_add_record(w, TOKIO_DARSHAN_POSIX,
                                                     1, 0, iv, 68, fv, 17),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "POSIX record has 68 counters");
    assert_int_equal(tokio_darshan_writer_add_record(w, TOKIO_DARSHAN_POSIX,
                                                     1, NPROCS, iv, 69, fv,
                                                     17), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "rank 8 outside -1 .. 7");
    assert_int_equal(tokio_darshan_writer_add_record(w, TOKIO_DARSHAN_HEATMAP,
                                                     1, 0, iv, 1, fv, 1),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "HEATMAP");
    assert_int_equal(tokio_darshan_writer_add_record(w, 40, 1, 0, iv, 1, fv,
                                                     1), TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "module 40");
    struct tokio_darshan_lustre_comp c[2];
    tokio_test_darshan_lustre_comps(c);
    assert_int_equal(tokio_darshan_writer_add_lustre(w, 1, 0, c, 2, osts, 2),
                     TOKIO_EINVAL);
    assert_contains(tokio_errmsg(), "2 OST ids for 3 stripes");
    c[1].counters[0] = -1;
    assert_int_equal(tokio_darshan_writer_add_lustre(w, 1, 0, c, 2, osts, 3),
                     TOKIO_EINVAL);
    assert_int_equal(tokio_darshan_writer_set_compression(w, 7),
                     TOKIO_EINVAL);
    /* nothing of the refused records reached the log */
    assert_int_equal(tokio_darshan_writer_write_mem(w, &after, &alen), 0);
    assert_int_equal(alen, blen);
    assert_memory_equal(after, before, blen);
    free(before);
    free(after);
    tokio_darshan_writer_free(w);
    tokio_darshan_writer_free(NULL);
}

static void
test_darshan_writer_rewrite_names_unwritable_modules(void **state)
{
    struct tokio_darshan *log = NULL;
    struct tokio_darshan_writer *w = NULL;

    (void)state;
    /* partial_sample carries an MDHIM region this writer does not write */
    TOKIO_TEST_NEED_DATA(p, "darshan-logs-derived/partial_sample.darshan");
    assert_true(tokio_darshan_open(&log, p) >= 0);
    int rc = tokio_darshan_writer_from_log(&w, log);
    if (tokio_darshan_module_len(log, TOKIO_DARSHAN_MDHIM) > 0) {
        assert_int_equal(rc, TOKIO_EINVAL);
        assert_null(w);
        assert_contains(tokio_errmsg(), "cannot write modules: MDHIM");
    } else {
        assert_int_equal(rc, TOKIO_OK);
        tokio_darshan_writer_free(w);
    }
    tokio_darshan_free(log);
}

/* The fuzz seeds examples/make_sample_data --seeds wrote: small, and
 * whole logs the reader takes without complaint. */
static void
test_darshan_writer_fuzz_seeds_open_cleanly(void **state)
{
    static const char *const seeds[] = {
        "fuzz/corpus/darshan/writer_posix_lustre_stdio_zlib.darshan",
        "fuzz/corpus/darshan/writer_stdio_only_none.darshan",
        "fuzz/corpus/darshan/writer_mpiio_bzip2.darshan",
    };

    (void)state;
    for (size_t i = 0; i < sizeof(seeds) / sizeof(*seeds); i++) {
        struct tokio_darshan *log = NULL;
        size_t len = 0;
        const char *p = tokio_test_source(seeds[i]);
        unsigned char *buf = (unsigned char *)tokio_test_read_file(p, &len);
        assert_non_null(buf);
        assert_true(len < 4096);
        assert_int_equal(tokio_darshan_open_mem(&log, buf, len, seeds[i]),
                         TOKIO_OK);
        assert_string_equal(tokio_darshan_version(log), "3.41");
        assert_true(tokio_darshan_record_count(log, TOKIO_DARSHAN_STDIO) > 0);
        tokio_darshan_free(log);
        free(buf);
    }
}

/* ---- anomalies -------------------------------------------------------- */

static void
test_darshan_writer_failed_write_keeps_target(void **state)
{
    struct tokio_darshan_writer *w = NULL;
    struct rlimit old, small;
    char path[4096];
    size_t len;

    (void)state;
    char *dir = tokio_test_mkdtemp();
    snprintf(path, sizeof(path), "%s/keep.darshan", dir);
    tokio_test_write_file(path, "old content", SIZE_MAX);
    assert_int_equal(build(&w), TOKIO_OK);
    assert_int_equal(tokio_darshan_writer_set_compression(
                         w, TOKIO_DARSHAN_NONE), TOKIO_OK);

    /* a file-size limit makes the write fail part-way (EFBIG) */
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    small = old;
    small.rlim_cur = 2048;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    int rc = tokio_darshan_writer_write(w, path);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, prev);
    assert_int_equal(rc, TOKIO_EIO);

    char *text = tokio_test_read_file(path, &len);
    assert_non_null(text);
    assert_string_equal(text, "old content");
    free(text);
    /* and no temporary file is left beside it */
    assert_int_equal(tokio_test_count_entries(dir), 1);

    snprintf(path, sizeof(path), "%s/no/such/dir/x.darshan", dir);
    assert_int_equal(tokio_darshan_writer_write(w, path), TOKIO_EIO);
    tokio_darshan_writer_free(w);
    tokio_test_rmtree(dir);
    free(dir);
}

static void
test_darshan_writer_survives_every_oom(void **state)
{
    (void)state;
    for (int comp = 0; comp <= TOKIO_DARSHAN_NONE; comp++) {
        for (size_t n = 1;; n++) {
            struct tokio_darshan_writer *w = NULL;
            unsigned char *buf = NULL;
            size_t len = 0;
            tokio_test_fail_alloc_at(n);
            int rc = build(&w);
            if (rc == TOKIO_OK) {
                tokio_darshan_writer_set_compression(w, comp);
                rc = tokio_darshan_writer_write_mem(w, &buf, &len);
            }
            tokio_test_fail_alloc_at(0);
            tokio_darshan_writer_free(w);
            if (rc >= 0) {
                free(buf);
                break;
            }
            assert_int_equal(rc, TOKIO_ENOMEM);
            assert_null(buf);
        }
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_darshan_writer_zlib_log_reads_back_every_field),
        cmocka_unit_test(
            test_darshan_writer_bzip2_log_reads_back_every_field),
        cmocka_unit_test(
            test_darshan_writer_uncompressed_log_reads_back_every_field),
        cmocka_unit_test(test_darshan_writer_file_equals_memory_image),
        cmocka_unit_test(test_darshan_writer_empty_log_reads_back),
        cmocka_unit_test(test_darshan_writer_rewrites_every_sample_log),
        cmocka_unit_test(test_darshan_writer_rewrite_to_file),
        cmocka_unit_test(test_darshan_writer_hash_matches_runtime_ids),
        cmocka_unit_test(
            test_darshan_writer_refuses_what_readers_would_misread),
        cmocka_unit_test(
            test_darshan_writer_rewrite_names_unwritable_modules),
        cmocka_unit_test(test_darshan_writer_fuzz_seeds_open_cleanly),
        cmocka_unit_test(test_darshan_writer_failed_write_keeps_target),
        cmocka_unit_test(test_darshan_writer_survives_every_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
