/*
 * src/connectors/hdf5.c - TOKIO Time Series HDF5 files and legacy H5LMT
 * files through the HDF5 C library, mirroring tokio.connectors.hdf5 and
 * tokio.connectors._hdf5 (pytokio 0.13).  Writing is in hdf5_writer.c.
 *
 * The TTS layout: root attributes start, end (int64 epochs) and version
 * (a string; "1" is the one schema); one group per component class with a
 * `timestamps` int64 dataset and 2-D float64 datasets, rows = timestamps,
 * whose `columns` attribute holds fixed-length NUL-padded names (or
 * variable-length ones).  H5LMT files have no version and hold
 * column x time datasets (OSTReadGroup/OSTBulkReadDataSet, ...) with one
 * extra leading timestep, FSStepsGroup/FSStepsDataSet as the timestamps,
 * and FSMissingGroup/FSMissingDataSet as the missing mask.
 *
 * Test inputs: ../shared/testdata/pytokio-inputs/{snx11025_2018-01-28.hdf5,
 * sample_tokiots.hdf5, snx11025_2018-01-28.h5lmt, versions_test.hdf5};
 * goldens in ../shared/testdata/golden/pytokio/hdf5/.
 *
 * Differs from pytokio: to_timeseries() of a literal H5LMT dataset uses
 * the transposed time x column view, as to_dataframe() does (the
 * reference hands back the raw column x time matrix, whose rows then do
 * not match its timestamps); a `columns` attribute with more names than
 * the dataset has columns is TOKIO_EFORMAT (pandas raises); timestamps
 * that do not match a TTS dataset's rows are TOKIO_EFORMAT.
 *
 * NEEDSWORK: the HDF5 library itself is not hardened against hostile
 * files; we check every shape and size it reports (and refuse datasets
 * that claim far more than they store), but a corrupt file can still trip
 * bugs inside libhdf5: fuzz/fuzz_hdf5.c finds over-reads (H5Aexists on a
 * bad attribute message), a NULL dereference (H5F__accum_read), overlapping
 * copies (H5HG_read) and huge allocations (H5C_protect) in Debian's
 * 1.10.8.  Read untrusted files in a process that may crash.
 */
#include "tokio/connectors/hdf5.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hdf5.h>

#include "tokio/output.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/timeseries_private.h"
#include "hdf5_private.h"

/* Names from tokio/connectors/_hdf5.py and hdf5.py. */
#define TIMESTAMP_KEY       "timestamps"
#define COLUMN_NAME_KEY     "columns"
#define H5LMT_STEPS         "/FSStepsGroup/FSStepsDataSet"
#define H5LMT_MISSING       "/FSMissingGroup/FSMissingDataSet"
#define H5LMT_MDSOPS        "/MDSOpsGroup/MDSOpsDataSet"
#define H5LMT_MDSCPU        "/MDSCPUGroup/MDSCPUDataSet"
#define H5LMT_OSSCPU        "/OSSCPUGroup/OSSCPUDataSet"
#define H5LMT_OSTREAD       "/OSTReadGroup/OSTBulkReadDataSet"
#define H5LMT_OSTWRITE      "/OSTWriteGroup/OSTBulkWriteDataSet"
#define MISSING_SUFFIX      "/missing"

/*
 * A corrupt file can claim 2^60 cells; refuse more than 2^33 (64 GiB of
 * doubles) before allocating, rather than let an allocator abort.
 */
#define MAX_CELLS           (UINT64_C(1) << 33)
#define MAX_ATTR_POINTS     (UINT64_C(1) << 24)

/*
 * A small file can also claim a huge dataset it holds no data for (HDF5
 * then reads fill values).  Deflate expands at most ~1032:1, so above
 * 64 MiB a dataset must store at least 1/1100 of what it claims.
 */
#define FREE_READ_BYTES     (UINT64_C(64) << 20)
#define MAX_EXPANSION       1100

/* The metadata operations MDSOpsDataSet holds and TTS names "<op>s". */
static const char *const md_ops[] = {
    "open", "close", "mknod", "link", "unlink", "mkdir", "rmdir", "rename",
    "getxattr", "statfs", "setattr", "getattr"
};

/* The attribute naming an H5LMT dataset's columns (H5LMT_COLUMN_ATTRS). */
static const struct {
    const char *dataset;
    const char *attr;
} h5lmt_column_attrs[] = {
    { H5LMT_MDSOPS, "OpNames" },
    { H5LMT_OSTREAD, "OSTNames" },
    { H5LMT_OSTWRITE, "OSTNames" },
    { H5LMT_OSSCPU, "OSSNames" },
};

enum conv { CONV_NONE, CONV_TO_COUNTS, CONV_TO_RATES };

/* SCHEMA_DATASET_PROVIDERS[None]: logical name -> H5LMT dataset. */
static const struct {
    const char *name;
    const char *source;
    enum conv conv;
    int force2d;
} h5lmt_providers[] = {
    { "datatargets/readbytes", H5LMT_OSTREAD, CONV_TO_COUNTS, 0 },
    { "datatargets/writebytes", H5LMT_OSTWRITE, CONV_TO_COUNTS, 0 },
    { "datatargets/readrates", H5LMT_OSTREAD, CONV_NONE, 0 },
    { "datatargets/writerates", H5LMT_OSTWRITE, CONV_NONE, 0 },
    { "dataservers/cpuload", H5LMT_OSSCPU, CONV_NONE, 0 },
    { "mdservers/cpuload", H5LMT_MDSCPU, CONV_NONE, 1 },
};

struct tokio_hdf5 {
    hid_t file;
    char *path;
    char *version;              /* root `version`; NULL for H5LMT */
};

/* How a logical name maps onto one dataset of the file. */
struct view {
    hid_t dset;                 /* owned */
    char src[256];              /* its literal path, "/group/name" */
    enum conv conv;
    int transpose;              /* H5LMT column x time */
    int force2d;
    int provider;               /* derived, not a literal dataset */
    const char *demux;          /* MDSOps column, or NULL */
};

/* A dataset's values in the shape the reference presents them. */
struct frame {
    double *data;               /* rows x cols, row-major */
    size_t rows, cols;
    int raw_ndim;               /* dimensions of the dataset in the file */
    hsize_t raw_dims[2];
    int is_int;                 /* print as integers (pandas int64) */
    int is_f32;                 /* print as numpy float32 */
};

/* ---- the library ------------------------------------------------------- */

void
tokio__hdf5_init(void)
{
    /* Only effective before HDF5's first call sets its handler up: a
     * program that used HDF5 before libtokio keeps its own choice. */
    H5dont_atexit();
    /* HDF5 prints its error stack to stderr unless told not to */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* ---- errors ----------------------------------------------------------- */

static herr_t
first_error(unsigned n, const H5E_error2_t *err, void *data)
{
    char *buf = data;

    if (n == 0 && err->desc != NULL)
        snprintf(buf, 512, "%s", err->desc);
    return 0;
}

/*
 * HDF5's description made one short line: its file driver's "file write
 * failed: time = ...\n, filename = ..., errno = 28, error message = 'No
 * space left on device', ..." becomes "file write failed: No space left
 * on device"; any other control character becomes a space.
 */
static void
one_line(char *detail)
{
    const char *msg = strstr(detail, "error message = '");
    char *colon = strchr(detail, ':'), *end, *w = detail;

    if (msg != NULL && colon != NULL && colon < msg &&
        (end = strchr(msg + 17, '\'')) != NULL) {
        int len = (int)(end - (msg + 17));
        memmove(colon + 2, msg + 17, (size_t)len);
        colon[1] = ' ';
        colon[2 + len] = '\0';
    }
    for (const char *r = detail; *r; r++) {
        char c = (unsigned char)*r < 0x20 || *r == 0x7f ? ' ' : *r;
        if (c == ' ' && (w == detail || w[-1] == ' '))
            continue;
        *w++ = c;
    }
    while (w > detail && w[-1] == ' ')
        w--;
    *w = '\0';
}

/*
 * Fail with our message plus the innermost HDF5 error description (e.g.
 * "unable to open file: file signature not found") on the same line,
 * then clear HDF5's stack so the next failure starts clean.
 */
static int
h5_verror(int status, const char *fmt, va_list ap)
{
    char msg[512], detail[512] = "";

    vsnprintf(msg, sizeof(msg), fmt, ap);
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, first_error, detail);
    H5Eclear2(H5E_DEFAULT);
    one_line(detail);
    if (detail[0])
        return tokio__error(status, "%s (%s)", msg, detail);
    return tokio__error(status, "%s", msg);
}

int
tokio__hdf5_error(int status, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = h5_verror(status, fmt, ap);
    va_end(ap);
    return rc;
}

#define h5_error tokio__hdf5_error

static int
oom(const struct tokio_hdf5 *h, const char *name)
{
    return tokio__error(TOKIO_ENOMEM, "out of memory reading '%s' from '%s'",
                        name, h->path);
}

/* 1 when reading `bytes` from `dset` is in proportion to what it stores. */
static int
plausible_read(hid_t dset, uint64_t bytes)
{
    if (bytes <= FREE_READ_BYTES)
        return 1;
    return bytes / MAX_EXPANSION <= (uint64_t)H5Dget_storage_size(dset);
}

/* ---- names and objects ------------------------------------------------ */

/*
 * Whether `path` names an object.  Walks each component because
 * H5Lexists() fails, rather than saying no, when a parent is missing.
 */
int
tokio__hdf5_path_exists(hid_t file, const char *path)
{
    char buf[1024];
    size_t len = strlen(path);

    if (len >= sizeof(buf))
        return 0;
    memcpy(buf, path, len + 1);
    for (size_t i = 0; i <= len; i++) {
        if ((buf[i] == '/' || buf[i] == '\0') && i > 0 && buf[i - 1] != '/') {
            char save = buf[i];
            htri_t ok;
            buf[i] = '\0';
            ok = H5Lexists(file, buf, H5P_DEFAULT);
            if (ok > 0 && save == '\0') {
                /* the last link exists; make sure it resolves */
                ok = H5Oexists_by_name(file, buf, H5P_DEFAULT);
            }
            buf[i] = save;
            if (ok <= 0) {
                H5Eclear2(H5E_DEFAULT);
                return 0;
            }
        }
    }
    return 1;
}

/* "/a//b/" -> "/a/b"; "" and "/" -> "/".  Returns 0 if it does not fit. */
static int
normalize(char *out, size_t size, const char *path)
{
    size_t n = 0;

    for (const char *p = path; *p; p++) {
        if (*p == '/' && (n > 0 && out[n - 1] == '/'))
            continue;
        if (n == 0 && *p != '/')
            out[n++] = '/';
        if (n + 2 > size)
            return 0;
        out[n++] = *p;
    }
    if (n == 0)
        out[n++] = '/';
    if (n > 1 && out[n - 1] == '/')
        n--;
    out[n] = '\0';
    return 1;
}

static int
ends_with_missing(const char *name, size_t *base_len)
{
    size_t n = strlen(name), s = strlen(MISSING_SUFFIX);

    if (n >= s && strcmp(name + n - s, MISSING_SUFFIX) == 0) {
        *base_len = n - s;
        return 1;
    }
    return 0;
}

static int
is_dataset(hid_t file, const char *path)
{
    H5O_info_t info;

    if (H5Oget_info_by_name(file, path, &info, H5P_DEFAULT) < 0) {
        H5Eclear2(H5E_DEFAULT);
        return 0;
    }
    return info.type == H5O_TYPE_DATASET;
}

static int
open_dataset(const struct tokio_hdf5 *h, const char *path, hid_t *out)
{
    if ((*out = H5Dopen2(h->file, path, H5P_DEFAULT)) < 0)
        return h5_error(TOKIO_EFORMAT, "'%s': cannot open dataset '%s'",
                        h->path, path);
    return TOKIO_OK;
}

static void
view_close(struct view *v)
{
    if (v->dset > 0)
        H5Dclose(v->dset);
    v->dset = -1;
}

/*
 * Resolve a logical name as _resolve_schema_key() does: a literal dataset
 * first, then the schema version's providers.  (Version "1"'s SCHEMA maps
 * every name to itself, so the literal lookup covers it.)
 */
static int
resolve(const struct tokio_hdf5 *h, const char *name, struct view *v)
{
    char path[256];
    const char *key;

    memset(v, 0, sizeof(*v));
    v->dset = -1;
    if (!normalize(path, sizeof(path), name))
        return tokio__error(TOKIO_ENOTFOUND, "'%s': no dataset '%s'",
                            h->path, name);
    key = path + 1;
    if (tokio__hdf5_path_exists(h->file, path)) {
        if (!is_dataset(h->file, path))
            return tokio__error(TOKIO_ENOTFOUND, "'%s': '%s' is not a "
                                "dataset", h->path, name);
        snprintf(v->src, sizeof(v->src), "%s", path);
        /* H5LMT datasets are column x time; show them time x column, as
         * to_dataframe() does */
        v->transpose = h->version == NULL;
    } else if (h->version == NULL) {
        for (size_t i = 0; i < sizeof(h5lmt_providers)
                               / sizeof(h5lmt_providers[0]); i++) {
            if (strcmp(key, h5lmt_providers[i].name) == 0) {
                snprintf(v->src, sizeof(v->src), "%s",
                         h5lmt_providers[i].source);
                v->conv = h5lmt_providers[i].conv;
                v->force2d = h5lmt_providers[i].force2d;
            }
        }
        /* mdtargets/<op>s are counts per timestep, <op>rates per second */
        for (size_t i = 0; !v->src[0] && i < sizeof(md_ops) / sizeof(*md_ops);
             i++) {
            size_t n = strlen(md_ops[i]);
            if (strncmp(key, "mdtargets/", 10) != 0
                || strncmp(key + 10, md_ops[i], n) != 0)
                continue;
            if (strcmp(key + 10 + n, "s") == 0)
                v->conv = CONV_TO_COUNTS;
            else if (strcmp(key + 10 + n, "rates") != 0)
                continue;
            snprintf(v->src, sizeof(v->src), "%s", H5LMT_MDSOPS);
            v->demux = md_ops[i];
        }
        if (!v->src[0])
            return tokio__error(TOKIO_ENOTFOUND, "'%s': unknown key '%s'",
                                h->path, name);
        v->transpose = 1;
        v->provider = 1;
    } else if (strcmp(h->version, "1") == 0) {
        /* datatargets/{read,write}{bytes,rates}, mdtargets/<op>{s,rates} */
        char twin[256];
        size_t n = strlen(key);
        twin[0] = '\0';
        if (n > 5 && strcmp(key + n - 5, "bytes") == 0
            && strncmp(key, "datatargets/", 12) == 0) {
            snprintf(twin, sizeof(twin), "/%.*srates", (int)(n - 5), key);
            v->conv = CONV_TO_COUNTS;
        } else if (n > 5 && strcmp(key + n - 5, "rates") == 0
                   && strncmp(key, "datatargets/", 12) == 0) {
            snprintf(twin, sizeof(twin), "/%.*sbytes", (int)(n - 5), key);
            v->conv = CONV_TO_RATES;
        }
        for (size_t i = 0; strncmp(key, "mdtargets/", 10) == 0
                           && i < sizeof(md_ops) / sizeof(*md_ops); i++) {
            size_t m = strlen(md_ops[i]);
            if (strncmp(key + 10, md_ops[i], m) != 0)
                continue;
            if (strcmp(key + 10 + m, "s") == 0) {
                snprintf(twin, sizeof(twin), "/mdtargets/%srates", md_ops[i]);
                v->conv = CONV_TO_COUNTS;
            } else if (strcmp(key + 10 + m, "rates") == 0) {
                snprintf(twin, sizeof(twin), "/mdtargets/%ss", md_ops[i]);
                v->conv = CONV_TO_RATES;
            }
        }
        if (!twin[0])
            return tokio__error(TOKIO_ENOTFOUND, "'%s': unknown key '%s'",
                                h->path, name);
        if (!tokio__hdf5_path_exists(h->file, twin) || !is_dataset(h->file, twin))
            return tokio__error(TOKIO_ENOTFOUND, "'%s': no dataset '%s' "
                                "(nor '%s' to derive it from)", h->path, name,
                                twin);
        snprintf(v->src, sizeof(v->src), "%s", twin);
        v->provider = 1;
    } else {
        return tokio__error(TOKIO_ENOTFOUND, "'%s': unknown key '%s'",
                            h->path, name);
    }
    if (v->provider && !tokio__hdf5_path_exists(h->file, v->src))
        return tokio__error(TOKIO_ENOTFOUND, "'%s': could not find dataset "
                            "'%s' for '%s'", h->path, v->src, name);
    return open_dataset(h, v->src, &v->dset);
}

/* ---- attributes ------------------------------------------------------- */

/*
 * A string attribute (scalar or 1-D; fixed-length with any padding, or
 * variable-length) as one block: n pointers, then the NUL-ended strings.
 */
static int
read_strings(const struct tokio_hdf5 *h, hid_t attr, const char *what,
             char ***out, size_t *n_out)
{
    hid_t ftype = -1, mtype = -1, space = -1;
    hssize_t npoints;
    size_t n, total = 0, fsize = 0;
    char *buf = NULL, **vbuf = NULL, **res = NULL, *p;
    int rc = TOKIO_OK, vlen;

    *out = NULL;
    *n_out = 0;
    if ((ftype = H5Aget_type(attr)) < 0 || (space = H5Aget_space(attr)) < 0
        || (npoints = H5Sget_simple_extent_npoints(space)) < 0) {
        rc = h5_error(TOKIO_EFORMAT, "'%s': cannot read %s", h->path, what);
        goto done;
    }
    if (npoints == 0 && H5Tget_class(ftype) != H5T_STRING)
        goto done;          /* numpy.array([]) of no names: float64 */
    if (H5Tget_class(ftype) != H5T_STRING || (uint64_t)npoints
                                             > MAX_ATTR_POINTS) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s': %s is not a list of strings",
                          h->path, what);
        goto done;
    }
    n = (size_t)npoints;
    vlen = H5Tis_variable_str(ftype) > 0;
    if ((mtype = H5Tcopy(vlen ? H5T_C_S1 : ftype)) < 0
        || H5Tset_cset(mtype, H5Tget_cset(ftype)) < 0
        || (vlen && H5Tset_size(mtype, H5T_VARIABLE) < 0)) {
        rc = h5_error(TOKIO_EFORMAT, "'%s': cannot read %s", h->path, what);
        goto done;
    }
    if (vlen) {
        if ((vbuf = tokio__calloc(n + 1, sizeof(char *))) == NULL) {
            rc = oom(h, what);
            goto done;
        }
        if ((rc = tokio__hdf5_check_vlen(attr, n, h->path, what)) < 0) {
            free(vbuf);
            vbuf = NULL;
            goto done;
        }
        if (H5Aread(attr, mtype, vbuf) < 0) {
            rc = h5_error(TOKIO_EFORMAT, "'%s': cannot read %s", h->path, what);
            free(vbuf);
            vbuf = NULL;
            goto done;
        }
        for (size_t i = 0; i < n; i++)
            total += (vbuf[i] ? strlen(vbuf[i]) : 0) + 1;
    } else {
        fsize = H5Tget_size(ftype);
        if (fsize == 0 || (n && fsize > SIZE_MAX / n)) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s': %s has a bad string size",
                              h->path, what);
            goto done;
        }
        if ((buf = tokio__malloc(n * fsize + 1)) == NULL) {
            rc = oom(h, what);
            goto done;
        }
        if (H5Aread(attr, mtype, buf) < 0) {
            rc = h5_error(TOKIO_EFORMAT, "'%s': cannot read %s", h->path, what);
            goto done;
        }
        total = n * (fsize + 1);
    }
    if ((res = tokio__malloc((n + 1) * sizeof(char *) + total)) == NULL) {
        rc = oom(h, what);
        goto done;
    }
    p = (char *)(res + n + 1);
    for (size_t i = 0; i < n; i++) {
        const char *s = vlen ? (vbuf[i] ? vbuf[i] : "") : buf + i * fsize;
        /* fixed-length: NUL padding ends the name; so does space padding */
        size_t len = vlen ? strlen(s) : strnlen(s, fsize);
        if (!vlen && H5Tget_strpad(ftype) == H5T_STR_SPACEPAD)
            while (len > 0 && s[len - 1] == ' ')
                len--;
        res[i] = p;
        memcpy(p, s, len);
        p[len] = '\0';
        p += len + 1;
    }
    res[n] = NULL;
    *out = res;
    *n_out = n;
done:
    if (vbuf) {
        H5Dvlen_reclaim(mtype, space, H5P_DEFAULT, vbuf);
        free(vbuf);
    }
    free(buf);
    if (mtype >= 0)
        H5Tclose(mtype);
    if (ftype >= 0)
        H5Tclose(ftype);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

static int
open_attr(hid_t obj, const char *name, hid_t *out)
{
    htri_t has = H5Aexists(obj, name);

    *out = -1;
    if (has <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return 0;
    }
    if ((*out = H5Aopen(obj, name, H5P_DEFAULT)) < 0) {
        H5Eclear2(H5E_DEFAULT);
        return 0;
    }
    return 1;
}

/* A string list attribute of `obj`; absent gives 0 names. */
static int
attr_strings(const struct tokio_hdf5 *h, hid_t obj, const char *attr_name,
             const char *dataset, char ***out, size_t *n_out)
{
    char what[320];
    hid_t attr;
    int rc;

    *out = NULL;
    *n_out = 0;
    if (!open_attr(obj, attr_name, &attr))
        return TOKIO_OK;
    snprintf(what, sizeof(what), "attribute '%s' of '%s'", attr_name, dataset);
    rc = read_strings(h, attr, what, out, n_out);
    H5Aclose(attr);
    return rc;
}

int
tokio__hdf5_read_names(hid_t obj, const char *attr_name, const char *path,
                       const char *objname, char ***out, size_t *n_out)
{
    struct tokio_hdf5 h = { .file = -1, .path = (char *)path };

    return attr_strings(&h, obj, attr_name, objname, out, n_out);
}

/*
 * The `version` attribute of `obj` as a string (NULL if absent).  A
 * numeric version becomes its decimal text, as Python's str() would.
 */
static int
attr_version(const struct tokio_hdf5 *h, hid_t obj, const char *objname,
             char **out)
{
    hid_t attr, type;
    int rc = TOKIO_OK;

    *out = NULL;
    if (!open_attr(obj, "version", &attr))
        return TOKIO_OK;
    type = H5Aget_type(attr);
    if (type >= 0 && H5Tget_class(type) == H5T_STRING) {
        char **s;
        size_t n;
        char what[320];
        snprintf(what, sizeof(what), "the version of '%s'", objname);
        if ((rc = read_strings(h, attr, what, &s, &n)) >= 0) {
            if (n == 0 || (*out = tokio__strdup(s[0])) == NULL)
                rc = n == 0 ? tokio__error(TOKIO_EFORMAT, "'%s': empty version "
                                           "of '%s'", h->path, objname)
                            : oom(h, objname);
            free(s);
        }
    } else if (type >= 0 && (H5Tget_class(type) == H5T_INTEGER
                             || H5Tget_class(type) == H5T_FLOAT)) {
        double d;
        char buf[64];
        if (H5Aread(attr, H5T_NATIVE_DOUBLE, &d) < 0)
            rc = h5_error(TOKIO_EFORMAT, "'%s': cannot read the version of "
                          "'%s'", h->path, objname);
        else {
            if (H5Tget_class(type) == H5T_INTEGER)
                snprintf(buf, sizeof(buf), "%.0f", d);
            else
                tokio_format_double(buf, sizeof(buf), d);
            if ((*out = tokio__strdup(buf)) == NULL)
                rc = oom(h, objname);
        }
    } else {
        rc = h5_error(TOKIO_EFORMAT, "'%s': the version of '%s' is neither "
                      "text nor a number", h->path, objname);
    }
    if (type >= 0)
        H5Tclose(type);
    H5Aclose(attr);
    return rc;
}

/* ---- metadata as JSON ------------------------------------------------- */

static json_t *
json_text(const char *s)
{
    json_t *j = json_string(s);
    char *copy;

    if (j != NULL)
        return j;
    /* not UTF-8: keep it readable rather than drop it */
    if ((copy = tokio__strdup(s)) == NULL)
        return NULL;
    for (char *p = copy; *p; p++)
        if ((unsigned char)*p >= 0x80)
            *p = '?';
    j = json_string(copy);
    free(copy);
    return j;
}

struct attr_ctx {
    const struct tokio_hdf5 *h;
    const char *objname;
    json_t *obj;
    int rc;
};

static herr_t
attr_to_json(hid_t loc, const char *name, const H5A_info_t *info, void *data)
{
    struct attr_ctx *ctx = data;
    hid_t attr = -1, type = -1, space = -1;
    json_t *value = NULL;
    H5T_class_t cls;
    int scalar;
    hssize_t npoints;

    (void)info;
    if ((attr = H5Aopen(loc, name, H5P_DEFAULT)) < 0
        || (type = H5Aget_type(attr)) < 0
        || (space = H5Aget_space(attr)) < 0
        || (npoints = H5Sget_simple_extent_npoints(space)) < 0) {
        ctx->rc = h5_error(TOKIO_EFORMAT, "'%s': cannot read attribute '%s' "
                           "of '%s'", ctx->h->path, name, ctx->objname);
        goto done;
    }
    if ((uint64_t)npoints > MAX_ATTR_POINTS) {
        ctx->rc = tokio__error(TOKIO_EFORMAT, "'%s': attribute '%s' of '%s' "
                               "is too large", ctx->h->path, name,
                               ctx->objname);
        goto done;
    }
    cls = H5Tget_class(type);
    scalar = H5Sget_simple_extent_type(space) == H5S_SCALAR;
    if (cls == H5T_STRING) {
        char **s;
        size_t n;
        char what[320];
        snprintf(what, sizeof(what), "attribute '%s' of '%s'", name,
                 ctx->objname);
        if ((ctx->rc = read_strings(ctx->h, attr, what, &s, &n)) < 0)
            goto done;
        if (scalar && n == 1) {
            value = json_text(s[0]);
        } else if ((value = json_array()) != NULL) {
            for (size_t i = 0; i < n; i++)
                if (json_array_append_new(value, json_text(s[i])) < 0) {
                    json_decref(value);
                    value = NULL;
                    break;
                }
        }
        free(s);
    } else if (cls == H5T_INTEGER || cls == H5T_FLOAT) {
        size_t n = (size_t)npoints;
        int is_int = cls == H5T_INTEGER;
        void *buf = tokio__malloc(n * 8 + 1);
        if (buf == NULL)
            goto nomem;
        if (H5Aread(attr, is_int ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE,
                    buf) < 0) {
            free(buf);
            ctx->rc = h5_error(TOKIO_EFORMAT, "'%s': cannot read attribute "
                               "'%s' of '%s'", ctx->h->path, name,
                               ctx->objname);
            goto done;
        }
        if (scalar && n == 1) {
            value = is_int ? json_integer(((int64_t *)buf)[0])
                           : json_real(((double *)buf)[0]);
        } else if ((value = json_array()) != NULL) {
            for (size_t i = 0; i < n; i++) {
                json_t *e = is_int ? json_integer(((int64_t *)buf)[i])
                                   : json_real(((double *)buf)[i]);
                if (json_array_append_new(value, e) < 0) {
                    json_decref(value);
                    value = NULL;
                    break;
                }
            }
        }
        free(buf);
    } else {
        /* NEEDSWORK: compound/enum/reference attributes are not kept; no
         * TTS writer makes them. */
        goto done;
    }
    if (value == NULL || json_object_set_new(ctx->obj, name, value) < 0)
        goto nomem;
    goto done;
nomem:
    ctx->rc = oom(ctx->h, ctx->objname);
done:
    if (space >= 0)
        H5Sclose(space);
    if (type >= 0)
        H5Tclose(type);
    if (attr >= 0)
        H5Aclose(attr);
    return ctx->rc < 0 ? -1 : 0;
}

static int
attrs_to_json(const struct tokio_hdf5 *h, hid_t obj, const char *objname,
              json_t *into)
{
    struct attr_ctx ctx = { h, objname, into, TOKIO_OK };
    hsize_t idx = 0;

    if (H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, &idx, attr_to_json,
                    &ctx) < 0 && ctx.rc >= 0)
        ctx.rc = h5_error(TOKIO_EFORMAT, "'%s': cannot list the attributes "
                          "of '%s'", h->path, objname);
    H5Eclear2(H5E_DEFAULT);
    return ctx.rc;
}

/* ---- timestamps ------------------------------------------------------- */

/* get_timestamps_key(): FSSteps for H5LMT, else attribute or sibling. */
static int
timestamps_key(const struct tokio_hdf5 *h, const struct view *v, char *out,
               size_t size)
{
    char **s;
    size_t n;
    int rc;

    if (h->version == NULL && tokio__hdf5_path_exists(h->file, H5LMT_STEPS)) {
        snprintf(out, size, "%s", H5LMT_STEPS);
        return TOKIO_OK;
    }
    if ((rc = attr_strings(h, v->dset, TIMESTAMP_KEY, v->src, &s, &n)) < 0)
        return rc;
    if (n > 0) {
        int fits = normalize(out, size, s[0]);
        free(s);
        if (!fits)
            return tokio__error(TOKIO_EFORMAT, "'%s': timestamps of '%s' "
                                "name a path too long", h->path, v->src);
    } else {
        free(s);
        const char *slash = strrchr(v->src, '/');
        int len = (int)(slash - v->src);
        snprintf(out, size, "%.*s/%s", len, v->src, TIMESTAMP_KEY);
    }
    if (!tokio__hdf5_path_exists(h->file, out) || !is_dataset(h->file, out))
        return tokio__error(TOKIO_ENOTFOUND, "'%s': timestamp_key '%s' of "
                            "'%s' does not exist", h->path, out, v->src);
    return TOKIO_OK;
}

static int
read_timestamps(const struct tokio_hdf5 *h, const struct view *v,
                int64_t **out, size_t *n_out)
{
    char key[256];
    hid_t dset = -1, space = -1;
    hsize_t dims[2];
    int64_t *t = NULL;
    int rc, ndims;

    *out = NULL;
    *n_out = 0;
    if ((rc = timestamps_key(h, v, key, sizeof(key))) < 0
        || (rc = open_dataset(h, key, &dset)) < 0)
        return rc;
    if ((space = H5Dget_space(dset)) < 0
        || (ndims = H5Sget_simple_extent_ndims(space)) < 0) {
        rc = h5_error(TOKIO_EFORMAT, "'%s': cannot read '%s'", h->path, key);
    } else if (ndims != 1
               || H5Sget_simple_extent_dims(space, dims, NULL) < 0
               || dims[0] > MAX_CELLS) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s': timestamps '%s' are not a "
                          "list", h->path, key);
    } else if (!plausible_read(dset, (uint64_t)dims[0] * sizeof(int64_t))) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s': timestamps '%s' claim %"
                          PRIu64 " values but hold almost no data", h->path,
                          key, (uint64_t)dims[0]);
    } else if ((t = tokio__malloc((size_t)dims[0] * sizeof(int64_t) + 1))
               == NULL) {
        rc = oom(h, key);
    } else if (dims[0] > 0 && H5Dread(dset, H5T_NATIVE_INT64, H5S_ALL,
                                      H5S_ALL, H5P_DEFAULT, t) < 0) {
        rc = h5_error(TOKIO_EFORMAT, "'%s': cannot read '%s'", h->path, key);
        free(t);
        t = NULL;
    } else {
        *out = t;
        *n_out = (size_t)dims[0];
    }
    if (space >= 0)
        H5Sclose(space);
    H5Dclose(dset);
    return rc;
}

static int
view_timestep(const struct tokio_hdf5 *h, const struct view *v,
              int64_t *out)
{
    int64_t *t;
    size_t n;
    int rc;

    if ((rc = read_timestamps(h, v, &t, &n)) < 0)
        return rc;
    if (n < 2)
        rc = tokio__error(TOKIO_EFORMAT, "'%s': '%s' has fewer than two "
                          "timestamps", h->path, v->src);
    else
        *out = t[1] - t[0];
    free(t);
    return rc;
}

/* ---- values ----------------------------------------------------------- */

static int
find_column(char **names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return (int)i;
    return -1;
}

/*
 * Read the dataset behind `v` and shape it as the reference presents it:
 * transposed (H5LMT), one column picked out (MDSOps), 1-D as one column,
 * scaled between counts per timestep and per second.
 */
static int
load_view(const struct tokio_hdf5 *h, const struct view *v, const char *name,
          struct frame *f)
{
    hid_t space = -1, type = -1;
    double *raw = NULL, *out = NULL;
    uint64_t cells;
    H5T_class_t cls;
    int rc = TOKIO_OK;

    memset(f, 0, sizeof(*f));
    if ((space = H5Dget_space(v->dset)) < 0 || (type = H5Dget_type(v->dset))
                                               < 0
        || (f->raw_ndim = H5Sget_simple_extent_ndims(space)) < 0) {
        rc = h5_error(TOKIO_EFORMAT, "'%s': cannot read dataset '%s'",
                      h->path, name);
        goto done;
    }
    cls = H5Tget_class(type);
    if (cls != H5T_INTEGER && cls != H5T_FLOAT) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s': dataset '%s' is not numeric",
                          h->path, name);
        goto done;
    }
    f->is_int = cls == H5T_INTEGER && v->conv != CONV_TO_RATES;
    f->is_f32 = cls == H5T_FLOAT && H5Tget_size(type) == 4;
    if (f->raw_ndim < 1 || f->raw_ndim > 2) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s': dataset '%s' has %d "
                          "dimensions, expected 1 or 2", h->path, name,
                          f->raw_ndim);
        goto done;
    }
    f->raw_dims[1] = 1;
    H5Sget_simple_extent_dims(space, f->raw_dims, NULL);
    if (f->raw_dims[0] > MAX_CELLS || f->raw_dims[1] > MAX_CELLS
        || (cells = (uint64_t)f->raw_dims[0] * f->raw_dims[1]) > MAX_CELLS) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s': dataset '%s' claims %" PRIu64
                          " x %" PRIu64 " cells", h->path, name,
                          (uint64_t)f->raw_dims[0], (uint64_t)f->raw_dims[1]);
        goto done;
    }
    if (!plausible_read(v->dset, cells * sizeof(double))) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s': dataset '%s' claims %" PRIu64
                          " x %" PRIu64 " cells but holds almost no data",
                          h->path, name, (uint64_t)f->raw_dims[0],
                          (uint64_t)f->raw_dims[1]);
        goto done;
    }
    if ((raw = tokio__malloc((size_t)cells * sizeof(double) + 1)) == NULL) {
        rc = oom(h, name);
        goto done;
    }
    if (cells > 0 && H5Dread(v->dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
                             H5P_DEFAULT, raw) < 0) {
        rc = h5_error(TOKIO_EFORMAT, "'%s': cannot read dataset '%s'",
                      h->path, name);
        goto done;
    }
    f->rows = (size_t)f->raw_dims[0];
    f->cols = (size_t)f->raw_dims[1];
    if (v->transpose && f->raw_ndim == 2) {
        if ((out = tokio__malloc((size_t)cells * sizeof(double) + 1))
            == NULL) {
            rc = oom(h, name);
            goto done;
        }
        for (size_t r = 0; r < f->rows; r++)
            for (size_t c = 0; c < f->cols; c++)
                out[c * f->rows + r] = raw[r * f->cols + c];
        free(raw);
        raw = out;
        out = NULL;
        f->rows = (size_t)f->raw_dims[1];
        f->cols = (size_t)f->raw_dims[0];
    }
    if (v->demux) {
        char **ops;
        size_t n_ops;
        int col;
        if ((rc = attr_strings(h, v->dset, "OpNames", v->src, &ops, &n_ops))
            < 0)
            goto done;
        col = find_column(ops, n_ops, v->demux);
        free(ops);
        if (col < 0 || (size_t)col >= f->cols) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s': '%s' has no column '%s'",
                              h->path, v->src, v->demux);
            goto done;
        }
        for (size_t r = 0; r < f->rows; r++)
            raw[r] = raw[r * f->cols + (size_t)col];
        f->cols = 1;
    }
    if (v->conv != CONV_NONE) {
        int64_t step = 0;
        if ((rc = view_timestep(h, v, &step)) < 0)
            goto done;
        /* numpy: x * step, x / step (true division) */
        for (size_t i = 0; i < f->rows * f->cols; i++)
            raw[i] = v->conv == CONV_TO_COUNTS ? raw[i] * (double)step
                                               : raw[i] / (double)step;
    }
    f->data = raw;
    raw = NULL;
done:
    free(raw);
    free(out);
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

/* ---- versions and columns -------------------------------------------- */

static int
version_of(struct tokio_hdf5 *h, const char *name, char **out)
{
    char path[256];
    size_t base;
    struct view v;
    int rc;

    *out = NULL;
    if (name == NULL || ends_with_missing(name, &base))
        goto file_version;      /* the reference's mask has no attributes */
    if (!normalize(path, sizeof(path), name))
        return tokio__error(TOKIO_ENOTFOUND, "'%s': no dataset '%s'",
                            h->path, name);
    if (tokio__hdf5_path_exists(h->file, path)) {
        hid_t obj = H5Oopen(h->file, path, H5P_DEFAULT);
        if (obj < 0)
            return h5_error(TOKIO_EFORMAT, "'%s': cannot open '%s'", h->path,
                            path);
        rc = attr_version(h, obj, path, out);
        H5Oclose(obj);
    } else {
        if ((rc = resolve(h, name, &v)) < 0)
            return rc;
        rc = attr_version(h, v.dset, v.src, out);
        view_close(&v);
    }
    if (rc < 0 || *out != NULL)
        return rc;
file_version:
    if (h->version && (*out = tokio__strdup(h->version)) == NULL)
        return oom(h, name ? name : "/");
    return TOKIO_OK;
}

/* Pack names into the one-block form tokio_hdf5_get_columns() returns. */
static int
pack_names(const struct tokio_hdf5 *h, const char *const *names, size_t n,
           char ***out)
{
    size_t total = 0;
    char **res, *p;

    for (size_t i = 0; i < n; i++)
        total += strlen(names[i]) + 1;
    if ((res = tokio__malloc((n + 1) * sizeof(char *) + total)) == NULL)
        return oom(h, "column names");
    p = (char *)(res + n + 1);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(names[i]) + 1;
        res[i] = memcpy(p, names[i], len);
        p += len;
    }
    res[n] = NULL;
    *out = res;
    return TOKIO_OK;
}

/* _get_columns_h5lmt() */
static int
columns_h5lmt(struct tokio_hdf5 *h, const struct view *v, char ***out,
              size_t *n_out)
{
    *out = NULL;
    *n_out = 0;
    if (v->demux) {
        const char *one[] = { v->demux };
        *n_out = 1;
        return pack_names(h, one, 1, out);
    }
    for (size_t i = 0; i < sizeof(h5lmt_column_attrs)
                           / sizeof(h5lmt_column_attrs[0]); i++)
        if (strcmp(v->src, h5lmt_column_attrs[i].dataset) == 0)
            return attr_strings(h, v->dset, h5lmt_column_attrs[i].attr,
                                v->src, out, n_out);
    if (strcmp(v->src, H5LMT_MDSCPU) == 0) {
        const char *one[] = { "_unknown" };
        *n_out = 1;
        return pack_names(h, one, 1, out);
    }
    if (strcmp(v->src, H5LMT_MISSING) == 0) {
        /* the reference names shape[1] columns of the raw matrix */
        hid_t space = H5Dget_space(v->dset);
        hsize_t dims[2] = { 0, 0 };
        char **names, *p;
        int rc = TOKIO_OK;
        if (space < 0 || H5Sget_simple_extent_ndims(space) != 2
            || H5Sget_simple_extent_dims(space, dims, NULL) < 0
            || dims[1] > MAX_ATTR_POINTS) {
            if (space >= 0)
                H5Sclose(space);
            return h5_error(TOKIO_EFORMAT, "'%s': '%s' is not 2-D", h->path,
                            v->src);
        }
        H5Sclose(space);
        if ((names = tokio__malloc((dims[1] + 1) * (sizeof(char *) + 24)))
            == NULL)
            return oom(h, v->src);
        p = (char *)(names + dims[1] + 1);
        for (size_t i = 0; i < dims[1]; i++, p += 24) {
            snprintf(p, 24, "_unknown%04u", (unsigned)i);
            names[i] = p;
        }
        names[dims[1]] = NULL;
        *out = names;
        *n_out = (size_t)dims[1];
        return rc;
    }
    return tokio__error(TOKIO_ENOTFOUND, "'%s': unknown h5lmt dataset '%s'",
                        h->path, v->src);
}

static int
columns_of(struct tokio_hdf5 *h, const char *name, char ***out,
           size_t *n_out)
{
    char base[256], *version = NULL;
    size_t blen;
    struct view v;
    int rc;

    *out = NULL;
    *n_out = 0;
    snprintf(base, sizeof(base), "%s", name);
    if (ends_with_missing(name, &blen) && blen < sizeof(base))
        base[blen] = '\0';
    if ((rc = version_of(h, base, &version)) < 0)
        return rc;
    if ((rc = resolve(h, base, &v)) >= 0) {
        if (version == NULL)
            rc = columns_h5lmt(h, &v, out, n_out);
        else
            rc = attr_strings(h, v.dset, COLUMN_NAME_KEY, v.src, out, n_out);
    }
    view_close(&v);
    free(version);
    return rc;
}

/* ---- public ----------------------------------------------------------- */

static int read_root_version(struct tokio_hdf5 *h);

int
tokio_hdf5_open(struct tokio_hdf5 **out, const char *path, unsigned flags)
{
    struct tokio_hdf5 *h;
    FILE *probe;
    int rc;

    *out = NULL;
    tokio__hdf5_init();
    if ((probe = fopen(path, "rb")) == NULL)
        return tokio__error(TOKIO_EIO, "cannot open '%s': %s", path,
                            strerror(errno));
    fclose(probe);
    if ((h = tokio__calloc(1, sizeof(*h))) == NULL
        || (h->path = tokio__strdup(path)) == NULL) {
        free(h);
        return tokio__error(TOKIO_ENOMEM, "out of memory opening '%s'", path);
    }
    h->file = -1;
    if (H5Fis_hdf5(path) <= 0) {
        rc = h5_error(TOKIO_EFORMAT, "'%s' is not an HDF5 file", path);
        goto fail;
    }
    if ((h->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0) {
        rc = h5_error(TOKIO_EFORMAT, "cannot open '%s' as HDF5", path);
        goto fail;
    }
    if ((rc = read_root_version(h)) < 0)
        goto fail;
    if (h->version && strcmp(h->version, "1") != 0
        && !(flags & TOKIO_HDF5_IGNORE_VERSION)) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s': unknown schema version '%s'",
                          path, h->version);
        goto fail;
    }
    *out = h;
    return TOKIO_OK;
fail:
    tokio_hdf5_free(h);
    return rc;
}

int
tokio__hdf5_wrap(struct tokio_hdf5 **out, hid_t file, const char *path)
{
    struct tokio_hdf5 *h;
    int rc;

    *out = NULL;
    if ((h = tokio__calloc(1, sizeof(*h))) == NULL
        || (h->path = tokio__strdup(path)) == NULL) {
        free(h);
        return tokio__error(TOKIO_ENOMEM, "out of memory opening '%s'", path);
    }
    h->file = -1;
    if (H5Iinc_ref(file) < 0) {
        rc = h5_error(TOKIO_EIO, "'%s': cannot share the open file", path);
        goto fail;
    }
    h->file = file;
    if ((rc = read_root_version(h)) < 0)
        goto fail;
    *out = h;
    return TOKIO_OK;
fail:
    tokio_hdf5_free(h);
    return rc;
}

int
tokio__hdf5_open_image(struct tokio_hdf5 **out, const void *data,
                       size_t size, const char *name)
{
    hid_t fapl, file = -1;
    int rc;

    *out = NULL;
    tokio__hdf5_init();
    if ((fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0
        || H5Pset_fapl_core(fapl, 65536, 0) < 0
        || H5Pset_file_image(fapl, (void *)data, size) < 0
        || (file = H5Fopen(name, H5F_ACC_RDONLY, fapl)) < 0)
        rc = h5_error(TOKIO_EFORMAT, "cannot open '%s' as HDF5", name);
    else
        rc = tokio__hdf5_wrap(out, file, name);
    if (file >= 0)
        H5Fclose(file);
    if (fapl >= 0)
        H5Pclose(fapl);
    return rc;
}

static int
read_root_version(struct tokio_hdf5 *h)
{
    hid_t root;
    int rc;

    if ((root = H5Gopen2(h->file, "/", H5P_DEFAULT)) < 0)
        return h5_error(TOKIO_EFORMAT, "'%s': cannot open the root group",
                        h->path);
    rc = attr_version(h, root, "/", &h->version);
    H5Gclose(root);
    return rc;
}

const char *
tokio_hdf5_schema_version(const struct tokio_hdf5 *h)
{
    return h->version;
}

const char *
tokio_hdf5_path(const struct tokio_hdf5 *h)
{
    return h->path;
}

int
tokio_hdf5_get_version(struct tokio_hdf5 *h, const char *name, char **out)
{
    return version_of(h, name, out);
}

int
tokio_hdf5_get_columns(struct tokio_hdf5 *h, const char *name, char ***out,
                       size_t *n_out)
{
    return columns_of(h, name, out, n_out);
}

int
tokio_hdf5_get_timestamps(struct tokio_hdf5 *h, const char *name,
                          int64_t **out, size_t *n_out)
{
    char base[256];
    size_t blen;
    struct view v;
    int rc;

    *out = NULL;
    *n_out = 0;
    snprintf(base, sizeof(base), "%s", name);
    if (ends_with_missing(name, &blen) && blen < sizeof(base))
        base[blen] = '\0';
    if ((rc = resolve(h, base, &v)) >= 0)
        rc = read_timestamps(h, &v, out, n_out);
    view_close(&v);
    return rc;
}

int
tokio_hdf5_get_timestep(struct tokio_hdf5 *h, const char *name, int64_t *out)
{
    int64_t *t;
    size_t n;
    int rc;

    if ((rc = tokio_hdf5_get_timestamps(h, name, &t, &n)) < 0)
        return rc;
    if (n < 2)
        rc = tokio__error(TOKIO_EFORMAT, "'%s': '%s' has fewer than two "
                          "timestamps", h->path, name);
    else
        *out = t[1] - t[0];
    free(t);
    return rc;
}

int
tokio_hdf5_get_index(struct tokio_hdf5 *h, const char *name, int64_t epoch,
                     int64_t *out)
{
    int64_t *t;
    size_t n;
    int rc;

    if ((rc = tokio_hdf5_get_timestamps(h, name, &t, &n)) < 0)
        return rc;
    if (n < 2 || t[1] == t[0])
        rc = tokio__error(TOKIO_EFORMAT, "'%s': '%s' has no timestep",
                          h->path, name);
    else
        *out = (epoch - t[0]) / (t[1] - t[0]);   /* int(): toward zero */
    free(t);
    return rc;
}

/* 1 where missing; the mask the reference's get_missing() returns. */
static int
missing_of(struct tokio_hdf5 *h, const char *name, int inverse,
           struct frame *f)
{
    char *version = NULL;
    struct view v;
    int rc;

    memset(f, 0, sizeof(*f));
    if ((rc = version_of(h, name, &version)) < 0)
        return rc;
    if ((rc = resolve(h, name, &v)) < 0)
        goto done;
    if ((rc = load_view(h, &v, name, f)) < 0)
        goto done;
    f->is_int = 1;
    f->is_f32 = 0;
    if (version != NULL) {
        for (size_t i = 0; i < f->rows * f->cols; i++)
            f->data[i] = tokio_timeseries_is_missing(f->data[i]);
    } else {
        /* FSMissingDataSet, transposed, for datasets of its shape */
        struct view m;
        struct frame mf;
        int same = 0;
        for (size_t i = 0; i < f->rows * f->cols; i++)
            f->data[i] = 0;
        if (f->raw_ndim == 2 && tokio__hdf5_path_exists(h->file, H5LMT_MISSING)) {
            memset(&m, 0, sizeof(m));
            snprintf(m.src, sizeof(m.src), "%s", H5LMT_MISSING);
            m.transpose = 1;
            if ((rc = open_dataset(h, H5LMT_MISSING, &m.dset)) < 0)
                goto done;
            rc = load_view(h, &m, H5LMT_MISSING, &mf);
            view_close(&m);
            if (rc < 0)
                goto done;
            same = mf.raw_ndim == 2 && mf.raw_dims[0] == f->raw_dims[0]
                   && mf.raw_dims[1] == f->raw_dims[1];
            if (same && !v.demux)
                memcpy(f->data, mf.data, f->rows * f->cols * sizeof(double));
            free(mf.data);
        }
    }
    if (inverse)
        for (size_t i = 0; i < f->rows * f->cols; i++)
            f->data[i] = f->data[i] == 0;
done:
    view_close(&v);
    free(version);
    if (rc < 0) {
        free(f->data);
        f->data = NULL;
    }
    return rc;
}

int
tokio_hdf5_get_missing(struct tokio_hdf5 *h, const char *name, int inverse,
                       int8_t **out, size_t *rows_out, size_t *cols_out)
{
    struct frame f;
    int8_t *mask;
    int rc;

    *out = NULL;
    if ((rc = missing_of(h, name, inverse, &f)) < 0)
        return rc;
    if ((mask = tokio__malloc(f.rows * f.cols + 1)) == NULL) {
        free(f.data);
        return oom(h, name);
    }
    for (size_t i = 0; i < f.rows * f.cols; i++)
        mask[i] = (int8_t)(f.data[i] != 0);
    free(f.data);
    *out = mask;
    *rows_out = f.rows;
    *cols_out = f.cols;
    return TOKIO_OK;
}

/* Values of `name`, its "/missing" mask when so suffixed. */
static int
load_named(struct tokio_hdf5 *h, const char *name, struct frame *f)
{
    char base[256];
    size_t blen;
    struct view v;
    int rc;

    if (ends_with_missing(name, &blen) && blen < sizeof(base)) {
        snprintf(base, sizeof(base), "%.*s", (int)blen, name);
        return missing_of(h, base, 0, f);
    }
    if ((rc = resolve(h, name, &v)) >= 0)
        rc = load_view(h, &v, name, f);
    view_close(&v);
    return rc;
}

int
tokio_hdf5_to_timeseries(struct tokio_hdf5 *h, const char *name,
                         struct tokio_timeseries **out)
{
    struct tokio_timeseries *ts = NULL;
    struct frame f = { 0 };
    struct view v = { .dset = -1 };
    int64_t *stamps = NULL;
    size_t n_stamps = 0, n_names = 0;
    char **names = NULL, *version = NULL, key[256];
    hid_t group = -1;
    int rc;

    *out = NULL;
    if ((rc = load_named(h, name, &f)) < 0
        || (rc = tokio_hdf5_get_timestamps(h, name, &stamps, &n_stamps)) < 0
        || (rc = columns_of(h, name, &names, &n_names)) < 0
        || (rc = version_of(h, name, &version)) < 0)
        goto done;
    if (n_stamps != f.rows) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s': dataset '%s' has %zu rows "
                          "but %zu timestamps", h->path, name, f.rows,
                          n_stamps);
        goto done;
    }
    if ((rc = tokio__timeseries_new_adopt(&ts, name, stamps, f.rows, f.cols,
                                          f.data)) < 0)
        goto done;
    f.data = NULL;      /* the series has it now */
    if ((rc = tokio_timeseries_set_columns(ts, (const char *const *)names,
                                           n_names)) < 0
        || (rc = tokio_timeseries_set_version(ts, version)) < 0
        || (rc = tokio_timeseries_set_global_version(ts, h->version)) < 0)
        goto done;
    /* metadata: the attributes of the dataset behind the name, and its
     * group's (the reference's dataset.attrs, dataset.parent.attrs) */
    {
        char base[256];
        size_t blen;
        snprintf(base, sizeof(base), "%s", name);
        if (ends_with_missing(name, &blen) && blen < sizeof(base))
            base[blen] = '\0';
        if ((rc = resolve(h, base, &v)) < 0
            || (rc = timestamps_key(h, &v, key, sizeof(key))) < 0
            || (rc = tokio_timeseries_set_timestamp_key(ts, key)) < 0
            || (rc = attrs_to_json(h, v.dset, v.src,
                           tokio_timeseries_dataset_metadata(ts))) < 0)
            goto done;
        if ((group = H5Oopen(h->file, v.src, H5P_DEFAULT)) >= 0) {
            char gpath[256];
            const char *slash = strrchr(v.src, '/');
            H5Oclose(group);
            snprintf(gpath, sizeof(gpath), "%.*s", (int)(slash - v.src),
                     v.src);
            if ((group = H5Oopen(h->file, gpath[0] ? gpath : "/",
                                 H5P_DEFAULT)) < 0) {
                rc = h5_error(TOKIO_EFORMAT, "'%s': cannot open the group of "
                              "'%s'", h->path, v.src);
                goto done;
            }
            rc = attrs_to_json(h, group, gpath[0] ? gpath : "/",
                               tokio_timeseries_group_metadata(ts));
            H5Oclose(group);
        }
    }
done:
    view_close(&v);
    free(f.data);
    free(stamps);
    free(names);
    free(version);
    if (rc < 0) {
        tokio_timeseries_free(ts);
        ts = NULL;
    }
    *out = ts;
    return rc < 0 ? rc : TOKIO_OK;
}

/* ---- CSV -------------------------------------------------------------- */

/*
 * numpy prints a float32 with the fewest digits that read back as that
 * float32; that decimal, parsed as a double, has the same shortest repr.
 */
static void
format_f32(char *buf, size_t size, double d)
{
    float f = (float)d;

    if (isfinite(f)) {
        for (int p = 1; p <= 9; p++) {
            snprintf(buf, size, "%.*g", p, (double)f);
            if (strtof(buf, NULL) == f) {
                tokio_format_double(buf, size, strtod(buf, NULL));
                return;
            }
        }
    }
    tokio_format_double(buf, size, d);
}

/* The DataFrame index: local time, as datetime.fromtimestamp() gives. */
static int
format_index(char *buf, size_t size, int64_t t, int dates_only)
{
    time_t tt = (time_t)t;
    struct tm tm;

    if (localtime_r(&tt, &tm) == NULL)
        return snprintf(buf, size, "%" PRId64, t), TOKIO_OK;
    strftime(buf, size, dates_only ? "%Y-%m-%d" : "%Y-%m-%d %H:%M:%S", &tm);
    return TOKIO_OK;
}

static int
all_midnight(const int64_t *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        time_t tt = (time_t)t[i];
        struct tm tm;
        if (localtime_r(&tt, &tm) == NULL
            || tm.tm_hour || tm.tm_min || tm.tm_sec)
            return 0;
    }
    return n > 0;
}

/*
 * The columns the reference's to_dataframe() labels the frame with: for
 * TTS, get_columns() padded with "" (numpy resize of a string array); for
 * H5LMT, _to_dataframe_h5lmt()'s rules, where a 1-D provider has no
 * labels (pandas numbers them) and MDSCPUDataSet is "unknown_mds".
 */
static int
frame_labels(struct tokio_hdf5 *h, const char *name, const char *version,
             const struct frame *f, char ***out, size_t *n_out, int *numbered)
{
    char norm[256];
    struct view v;
    int rc;

    *numbered = 0;
    *out = NULL;
    *n_out = 0;
    if (version != NULL || strstr(name, MISSING_SUFFIX) != NULL)
        return columns_of(h, name, out, n_out);
    if (!normalize(norm, sizeof(norm), name))
        return tokio__error(TOKIO_ENOTFOUND, "'%s': no dataset '%s'",
                            h->path, name);
    if (strcmp(norm, H5LMT_STEPS) == 0)
        return tokio__error(TOKIO_EINVAL, "'%s': '%s' holds the timestamps, "
                            "not a dataset", h->path, name);
    if ((rc = resolve(h, name, &v)) < 0)
        return rc;
    if (v.provider && f->raw_ndim == 2) {
        rc = columns_h5lmt(h, &v, out, n_out);
    } else if (!v.provider && strcmp(norm, H5LMT_MISSING) == 0) {
        hid_t oss;
        if ((rc = open_dataset(h, H5LMT_OSSCPU, &oss)) >= 0) {
            rc = attr_strings(h, oss, "OSSNames", H5LMT_OSSCPU, out, n_out);
            H5Dclose(oss);
        }
    } else if (!v.provider && strcmp(norm, H5LMT_MDSCPU) == 0) {
        const char *one[] = { "unknown_mds" };
        if ((rc = pack_names(h, one, 1, out)) >= 0)
            *n_out = 1;
    } else if (!v.provider) {
        rc = TOKIO_OK;
        for (size_t i = 0; i < sizeof(h5lmt_column_attrs)
                               / sizeof(h5lmt_column_attrs[0]); i++)
            if (strcmp(norm, h5lmt_column_attrs[i].dataset) == 0)
                rc = attr_strings(h, v.dset, h5lmt_column_attrs[i].attr,
                                  v.src, out, n_out);
        *numbered = *out == NULL;
    } else {
        *numbered = 1;
    }
    view_close(&v);
    return rc;
}

int
tokio_hdf5_write_csv(struct tokio_hdf5 *h, const char *name, FILE *fp)
{
    struct frame f = { 0 };
    int64_t *stamps = NULL;
    size_t n_stamps = 0, n_names = 0, rows;
    char **names = NULL, *version = NULL, buf[64];
    int rc, numbered = 0, dates_only, tts;

    if ((rc = version_of(h, name, &version)) < 0
        || (rc = load_named(h, name, &f)) < 0
        || (rc = frame_labels(h, name, version, &f, &names, &n_names,
                              &numbered)) < 0
        || (rc = tokio_hdf5_get_timestamps(h, name, &stamps, &n_stamps)) < 0)
        goto done;
    tts = version != NULL;
    if (!numbered && n_names > f.cols) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s': dataset '%s' has %zu columns "
                          "but %zu column names", h->path, name, f.cols,
                          n_names);
        goto done;
    }
    if (!numbered && !tts && n_names != f.cols) {
        rc = tokio__error(TOKIO_EFORMAT, "'%s': dataset '%s' has %zu columns "
                          "but %zu column names", h->path, name, f.cols,
                          n_names);
        goto done;
    }
    rows = f.rows;
    if (n_stamps != rows) {
        /*
         * The reference lets an H5LMT file carry more rows than timestamps
         * (initialized, never filled) as long as the extra rows hold only
         * zeros, and drops them.
         */
        int ok = !tts && n_stamps < rows;
        for (size_t i = n_stamps * f.cols; ok && i < rows * f.cols; i++)
            ok = f.data[i] == 0.0;
        if (!ok) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s': dataset size and "
                              "timestamps of '%s' are inconsistent (%zu vs "
                              "%zu)", h->path, name, rows, n_stamps);
            goto done;
        }
        rows = n_stamps;
    }
    dates_only = all_midnight(stamps, n_stamps);
    /* header: the unnamed index, then the labels */
    for (size_t c = 0; c < f.cols; c++) {
        fputc(',', fp);
        if (numbered) {
            fprintf(fp, "%zu", c);
        } else {
            const char *label = c < n_names ? names[c] : "";
            tokio_csv_write_field(fp, label, strlen(label));
        }
    }
    fputc('\n', fp);
    for (size_t r = 0; r < rows; r++) {
        format_index(buf, sizeof(buf), stamps[r], dates_only);
        fputs(buf, fp);
        for (size_t c = 0; c < f.cols; c++) {
            double x = f.data[r * f.cols + c];
            fputc(',', fp);
            /* TTS: never-written -0.0 cells become NaN, which pandas
             * prints as nothing */
            if (tts && !f.is_int && tokio_timeseries_is_missing(x))
                continue;
            if (f.is_int)
                fprintf(fp, "%.0f", x == 0.0 ? 0.0 : x);
            else if (f.is_f32)
                format_f32(buf, sizeof(buf), x), fputs(buf, fp);
            else
                tokio_format_double(buf, sizeof(buf), x), fputs(buf, fp);
        }
        fputc('\n', fp);
    }
    rc = tokio__write_check(fp, "cannot write '%s' of '%s' as CSV", name,
                            h->path);
done:
    free(f.data);
    free(stamps);
    free(names);
    free(version);
    return rc;
}

void
tokio_hdf5_free(struct tokio_hdf5 *h)
{
    if (h == NULL)
        return;
    if (h->file >= 0)
        H5Fclose(h->file);
    free(h->path);
    free(h->version);
    free(h);
}
