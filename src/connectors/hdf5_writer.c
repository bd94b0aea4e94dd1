/*
 * src/connectors/hdf5_writer.c - writing TOKIO Time Series HDF5 files:
 * the reference's Hdf5 in mode "a" with init_hdf5_file() and
 * commit_timeseries() (pytokio 0.13, tokio/connectors/hdf5.py and
 * tokio/cli/archive_lmtdb.py).
 *
 * The layout is the one h5py gives the reference's calls, so files open
 * the same in either: a data dataset is float64, chunked as h5py's
 * guess_chunk() picks, gzip level 4, fill time "alloc"; timestamps are a
 * contiguous int64 dataset; the root's start/end are int64 scalars and
 * its version a variable-length UTF-8 string (a Python str); dataset and
 * group string attributes are fixed-length NUL-padded ASCII
 * (numpy.string_), `columns` a 1-D array of them (an empty float64 array
 * when no column is named, as numpy.array([]) is), `updated` an int64.
 *
 * All or nothing, one writer at a time: begin takes NAME's lock (two
 * archivers updating one file take turns, and neither loses the other's
 * rows), copies the file (if any) to a temporary beside it
 * (core/beside.c) and every change goes there; finish flushes, fsyncs,
 * gives the copy the old file's mode and rename()s it over NAME, fsyncs
 * the directory, then releases the lock.  A crash leaves NAME as it was
 * plus a hidden temporary that no glob or template matches; the next
 * update of NAME removes those of its host whose writer is dead.
 *
 * Differs from pytokio: every check commit_timeseries() makes (insert
 * indices, root start/end, shape) happens before anything is written, so
 * a failed commit leaves the update as it was; committing into a dataset
 * that names its columns puts the series' columns in that order first
 * (the reference's rearrange_columns(timeseries.columns) is a no-op, so
 * it would write reordered data under the old names); a series whose
 * width differs from the dataset's is TOKIO_EINVAL.
 */
#define _GNU_SOURCE     /* memfd_create() */
#include "tokio/connectors/hdf5.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/beside.h"
#include "core/error.h"
#include "core/fdio.h"
#include "hdf5_private.h"

#define h5_error tokio__hdf5_error

struct tokio_hdf5_update {
    char *path;             /* the file being updated */
    char *tmp;              /* the private copy */
    hid_t file;
    int existed;
    int lock;               /* path's lock (core/beside.c), or -1 */
    mode_t mode;            /* for the result */
};

/* ---- the private copy ------------------------------------------------- */

static int
copy_fd(int in, int out, const char *path, const char *tmp)
{
    char buf[65536];
    ssize_t n;

    while ((n = tokio__read(in, buf, sizeof(buf))) != 0) {
        if (n < 0)
            return tokio__error(TOKIO_EIO, "cannot read '%s': %s", path,
                                strerror(errno));
        if (tokio__write_all(out, buf, (size_t)n) < 0)
            return tokio__error(TOKIO_EIO, "cannot write '%s': %s", tmp,
                                strerror(errno));
    }
    return TOKIO_OK;
}

/*
 * Close an update's file whose writes are thrown away.  After a failed
 * write (a full disk) HDF5 1.10 cannot close the file: the close flushes
 * again, fails again, and leaves a dangling file identifier that the
 * library's exit handler then crashes on (SIGSEGV in H5F__close_cb).
 * With the file's descriptor moved onto an empty file in memory first,
 * the flush and the final truncate succeed (sparse: nothing but what is
 * flushed costs memory) and the file closes, taking along its objects
 * still open (a dataset whose close failed).  The temporary is removed by
 * the caller.  A write that fails even there (a file-size limit) still
 * cannot crash at exit: see tokio__hdf5_init().
 */
static void
discard(hid_t file)
{
    void *handle = NULL;
    hid_t ids[64];
    ssize_t n;
    int spare;

    if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) >= 0 && handle != NULL
        && (spare = memfd_create("tokio-discarded", MFD_CLOEXEC)) >= 0) {
        dup2(spare, *(int *)handle);
        close(spare);
    }
    /* 64 at a time, while closing them gets anywhere */
    for (int round = 0; round < 1024; round++) {
        n = H5Fget_obj_ids(file, H5F_OBJ_LOCAL | H5F_OBJ_DATASET
                           | H5F_OBJ_GROUP | H5F_OBJ_DATATYPE
                           | H5F_OBJ_ATTR, 64, ids);
        for (ssize_t i = 0; i < n; i++) {
            if (H5Iget_type(ids[i]) == H5I_ATTR)
                H5Aclose(ids[i]);
            else
                H5Oclose(ids[i]);
        }
        if (n < 64)
            break;
    }
    H5Fclose(file);
    H5Eclear2(H5E_DEFAULT);
}

static void
update_free(struct tokio_hdf5_update *u)
{
    if (u->file >= 0)
        discard(u->file);
    u->file = -1;
    tokio__temporary_done(u->tmp, 1);
    free(u->tmp);
    tokio__unlock(u->lock);
    free(u->path);
    free(u);
}

/*
 * Open the private copy `tmp` (create it when it is new).  Raw data goes
 * to the file at once, not through HDF5's sieve buffer: a write that
 * fails (a full disk) then fails the call that made it, rather than a
 * later read that finds zeros where the timestamps should be.  A new file
 * gets version 2 object headers (HDF5 1.8 and later read them, h5py and
 * the reference included): an attribute over 64 KiB, such as the columns
 * of a large mmperfmon archive, goes to dense storage, as in the files of
 * the reference's archive_mmperfmon (libver "latest"); version 1 headers
 * refuse it ("object header message is too large").
 */
static hid_t
open_copy(const char *tmp, int existed)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), file = -1;

    if (fapl >= 0 && H5Pset_sieve_buf_size(fapl, 0) >= 0) {
        if (existed)
            file = H5Fopen(tmp, H5F_ACC_RDWR, fapl);
        else if (H5Pset_libver_bounds(fapl, H5F_LIBVER_V18,
                                      H5F_LIBVER_LATEST) >= 0)
            file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    }
    if (fapl >= 0)
        H5Pclose(fapl);
    return file;
}

/*
 * An existing file is updated only if it is a TOKIO Time Series of the
 * one schema version there is ("1"), or holds nothing at all: an H5LMT
 * file (no version), a file of a later schema or anyone else's HDF5 file
 * would be changed into something its readers then misread.
 */
static int
check_tts(struct tokio_hdf5_update *u)
{
    struct tokio_hdf5 *h;
    const char *version;
    H5G_info_t links;
    H5O_info_t root;
    int rc;

    if ((rc = tokio__hdf5_wrap(&h, u->file, u->path)) < 0)
        return rc;
    version = tokio_hdf5_schema_version(h);
    if (version != NULL && strcmp(version, "1") != 0)
        rc = tokio__error(TOKIO_EFORMAT, "'%s' is a TOKIO Time Series of "
                          "unknown version '%s': not updated", u->path,
                          version);
    else if (version == NULL &&
             (H5Gget_info(u->file, &links) < 0 ||
              H5Oget_info2(u->file, &root, H5O_INFO_NUM_ATTRS) < 0))
        rc = h5_error(TOKIO_EFORMAT, "'%s': cannot read the root", u->path);
    else if (version == NULL && (links.nlinks > 0 || root.num_attrs > 0))
        rc = tokio__error(TOKIO_EFORMAT, "'%s' is %s, not a TOKIO Time "
                          "Series: not updated", u->path,
                          tokio__hdf5_path_exists(u->file, "/FSStepsGroup")
                          ? "an H5LMT file" : "an HDF5 file without a "
                          "schema version");
    tokio_hdf5_free(h);
    return rc;
}

static int
update_begin(struct tokio_hdf5_update **out, const char *path)
{
    struct tokio_hdf5_update *u;
    struct stat st;
    int fd, in, rc = TOKIO_OK;

    *out = NULL;
    tokio__hdf5_init();
    if ((u = tokio__calloc(1, sizeof(*u))) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory updating '%s'", path);
    u->file = -1;
    u->lock = -1;
    if ((u->path = tokio__strdup(path)) == NULL) {
        update_free(u);
        return tokio__error(TOKIO_ENOMEM, "out of memory updating '%s'", path);
    }
    /* the lock first: the file is read only once no one else writes it */
    if ((rc = tokio__lock(path, TOKIO__LOCK_WAIT, &u->lock)) < 0 ||
        (rc = tokio__temporary(path, &u->tmp, &fd)) < 0) {
        update_free(u);
        return rc;
    }
    /* O_NONBLOCK: a FIFO in the way is refused at once, not waited on */
    if ((in = open(path, O_RDONLY | O_NONBLOCK)) >= 0) {
        u->existed = 1;
        if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
            rc = tokio__error(TOKIO_EIO, "'%s' is not a regular file", path);
        } else {
            u->mode = st.st_mode & 07777;
            rc = copy_fd(in, fd, path, u->tmp);
        }
        close(in);
    } else if (errno != ENOENT) {
        rc = tokio__error(TOKIO_EIO, "cannot open '%s': %s", path,
                          strerror(errno));
    } else {
        mode_t mask = umask(022);
        umask(mask);
        u->mode = 0666 & ~mask;
    }
    if (close(fd) != 0 && rc >= 0)
        rc = tokio__error(TOKIO_EIO, "cannot write '%s': %s", u->tmp,
                          strerror(errno));
    if (rc < 0) {
        update_free(u);
        return rc;
    }
    if (u->existed && H5Fis_hdf5(u->tmp) <= 0) {
        H5Eclear2(H5E_DEFAULT);
        update_free(u);
        return tokio__error(TOKIO_EFORMAT, "'%s' is not an HDF5 file", path);
    }
    if ((u->file = open_copy(u->tmp, u->existed)) < 0) {
        rc = h5_error(u->existed ? TOKIO_EFORMAT : TOKIO_EIO,
                      "cannot open '%s' for update", path);
        update_free(u);
        return rc;
    }
    if (u->existed && (rc = check_tts(u)) < 0) {
        update_free(u);
        return rc;
    }
    *out = u;
    return TOKIO_OK;
}

int
tokio_hdf5_update_begin(struct tokio_hdf5_update **out, const char *path)
{
    char *target;
    int rc;

    /* as every writer (core/beside.h): through symbolic links the file
     * they name, existing or not, is updated and replaced, never the
     * link; a file the user may not write is refused */
    *out = NULL;
    if ((rc = tokio__replace_target(path, &target)) < 0)
        return rc;
    rc = update_begin(out, target);
    free(target);
    return rc;
}

int
tokio_hdf5_update_finish(struct tokio_hdf5_update *u)
{
    char *dir;
    int fd, rc = TOKIO_OK;

    if (H5Fflush(u->file, H5F_SCOPE_GLOBAL) < 0 || H5Fclose(u->file) < 0) {
        u->file = -1;
        rc = h5_error(TOKIO_EIO, "cannot write '%s'", u->path);
        update_free(u);
        return rc;
    }
    u->file = -1;
    if ((fd = open(u->tmp, O_RDWR)) < 0 || fchmod(fd, u->mode) != 0
        || fsync(fd) != 0) {
        rc = tokio__error(TOKIO_EIO, "cannot write '%s': %s", u->path,
                          strerror(errno));
    }
    if (fd >= 0)
        close(fd);
    if (rc >= 0 && rename(u->tmp, u->path) != 0)
        rc = tokio__error(TOKIO_EIO, "cannot replace '%s': %s", u->path,
                          strerror(errno));
    if (rc >= 0) {
        tokio__temporary_done(u->tmp, 0);
        free(u->tmp);
        u->tmp = NULL;          /* renamed: nothing to unlink */
        /* make the rename itself durable */
        if ((dir = tokio__strdup(u->path)) != NULL) {
            if ((fd = open(dirname(dir), O_RDONLY | O_DIRECTORY)) >= 0) {
                fsync(fd);
                close(fd);
            }
            free(dir);
        }
    }
    update_free(u);
    return rc;
}

void
tokio_hdf5_update_abort(struct tokio_hdf5_update *u)
{
    if (u != NULL)
        update_free(u);
}

/* ---- attributes, as h5py stores Python values --------------------------- */

/* Remove attribute `name` of `obj` if present. */
static int
attr_clear(hid_t obj, const char *name)
{
    htri_t has = H5Aexists(obj, name);

    if (has < 0)
        return -1;
    return has ? (int)H5Adelete(obj, name) : 0;
}

/* Create attribute `name` of `type` over `space`, write `buf` (any old
 * attribute of that name goes first). */
static int
attr_put(struct tokio_hdf5_update *u, hid_t obj, const char *objname,
         const char *name, hid_t type, hid_t space, hid_t mtype,
         const void *buf)
{
    hid_t attr = -1;
    int rc = TOKIO_OK;

    if (type < 0 || space < 0 || attr_clear(obj, name) < 0
        || (attr = H5Acreate2(obj, name, type, space, H5P_DEFAULT,
                              H5P_DEFAULT)) < 0
        || H5Awrite(attr, mtype, buf) < 0)
        rc = h5_error(TOKIO_EIO, "'%s': cannot write attribute '%s' of '%s'",
                      u->path, name, objname);
    if (attr >= 0)
        H5Aclose(attr);
    return rc;
}

static int
attr_put_scalar(struct tokio_hdf5_update *u, hid_t obj, const char *objname,
                const char *name, hid_t ftype, hid_t mtype, const void *buf)
{
    hid_t space = H5Screate(H5S_SCALAR);
    int rc = attr_put(u, obj, objname, name, ftype, space, mtype, buf);

    if (space >= 0)
        H5Sclose(space);
    return rc;
}

/* numpy.string_(s): fixed-length, NUL-padded, at least one byte. */
static int
attr_put_bytes(struct tokio_hdf5_update *u, hid_t obj, const char *objname,
               const char *name, const char *s)
{
    size_t len = strlen(s);
    hid_t type = H5Tcopy(H5T_C_S1);
    int rc;

    if (type >= 0 && (H5Tset_size(type, len ? len : 1) < 0
                      || H5Tset_strpad(type, H5T_STR_NULLPAD) < 0)) {
        H5Tclose(type);
        type = -1;
    }
    rc = attr_put_scalar(u, obj, objname, name, type, type, len ? s : "");
    if (type >= 0)
        H5Tclose(type);
    return rc;
}

/* A Python str: variable-length UTF-8. */
static int
attr_put_str(struct tokio_hdf5_update *u, hid_t obj, const char *objname,
             const char *name, const char *s)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    int rc;

    if (type >= 0 && (H5Tset_size(type, H5T_VARIABLE) < 0
                      || H5Tset_cset(type, H5T_CSET_UTF8) < 0)) {
        H5Tclose(type);
        type = -1;
    }
    rc = attr_put_scalar(u, obj, objname, name, type, type, &s);
    if (type >= 0)
        H5Tclose(type);
    return rc;
}

static int
attr_put_i64(struct tokio_hdf5_update *u, hid_t obj, const char *objname,
             const char *name, int64_t v)
{
    return attr_put_scalar(u, obj, objname, name, H5T_STD_I64LE,
                           H5T_NATIVE_INT64, &v);
}

/*
 * numpy.array([numpy.string_(x) for x in names]): one fixed-length string
 * type as wide as the longest; with no names, numpy.array([]), float64.
 */
static int
attr_put_names(struct tokio_hdf5_update *u, hid_t obj, const char *objname,
               const char *name, const char *const *names, size_t n)
{
    hsize_t dim = n;
    size_t width = 1;
    hid_t type = -1, space = H5Screate_simple(1, &dim, NULL);
    char *buf = NULL;
    int rc;

    if (n == 0) {
        double none = 0.0;
        rc = attr_put(u, obj, objname, name, H5T_IEEE_F64LE, space,
                      H5T_NATIVE_DOUBLE, &none);
        if (space >= 0)
            H5Sclose(space);
        return rc;
    }
    for (size_t i = 0; i < n; i++)
        if (strlen(names[i]) > width)
            width = strlen(names[i]);
    if (width > SIZE_MAX / n - 1
        || (buf = tokio__calloc(n * width + 1, 1)) == NULL) {
        if (space >= 0)
            H5Sclose(space);
        return tokio__error(TOKIO_ENOMEM, "out of memory writing '%s' of "
                            "'%s' in '%s'", name, objname, u->path);
    }
    for (size_t i = 0; i < n; i++)
        memcpy(buf + i * width, names[i], strlen(names[i]));
    if ((type = H5Tcopy(H5T_C_S1)) >= 0
        && (H5Tset_size(type, width) < 0
            || H5Tset_strpad(type, H5T_STR_NULLPAD) < 0)) {
        H5Tclose(type);
        type = -1;
    }
    rc = attr_put(u, obj, objname, name, type, space, type, buf);
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
    free(buf);
    return rc;
}

/* h5py's numpy.bool_: an int8 enum FALSE = 0, TRUE = 1. */
static hid_t
bool_type(void)
{
    hid_t type = H5Tenum_create(H5T_NATIVE_INT8);
    int8_t f = 0, t = 1;

    if (type >= 0 && (H5Tenum_insert(type, "FALSE", &f) < 0
                      || H5Tenum_insert(type, "TRUE", &t) < 0)) {
        H5Tclose(type);
        return -1;
    }
    return type;
}

/* A list of numbers: int64 when all are integers, else float64. */
static int
attr_put_numbers(struct tokio_hdf5_update *u, hid_t obj, const char *objname,
                 const char *name, const json_t *arr)
{
    size_t n = json_array_size(arr), i;
    hsize_t dim = n;
    int all_int = 1;
    double *d;
    int64_t *l;
    hid_t space;
    int rc;
    json_t *v;

    json_array_foreach(arr, i, v)
        all_int &= json_is_integer(v);
    if ((d = tokio__calloc(n + 1, sizeof(double))) == NULL
        || (l = tokio__calloc(n + 1, sizeof(int64_t))) == NULL) {
        free(d);
        return tokio__error(TOKIO_ENOMEM, "out of memory writing '%s' of "
                            "'%s' in '%s'", name, objname, u->path);
    }
    json_array_foreach(arr, i, v) {
        d[i] = json_number_value(v);
        l[i] = json_is_integer(v) ? json_integer_value(v) : 0;
    }
    space = H5Screate_simple(1, &dim, NULL);
    if (all_int && n > 0)
        rc = attr_put(u, obj, objname, name, H5T_STD_I64LE, space,
                      H5T_NATIVE_INT64, l);
    else
        rc = attr_put(u, obj, objname, name, H5T_IEEE_F64LE, space,
                      H5T_NATIVE_DOUBLE, d);
    if (space >= 0)
        H5Sclose(space);
    free(d);
    free(l);
    return rc;
}

/* One metadata value as the reference's attrs[key] = value stores it. */
static int
attr_put_json(struct tokio_hdf5_update *u, hid_t obj, const char *objname,
              const char *name, const json_t *value)
{
    if (json_is_string(value))
        return attr_put_bytes(u, obj, objname, name, json_string_value(value));
    if (json_is_integer(value))
        return attr_put_i64(u, obj, objname, name, json_integer_value(value));
    if (json_is_real(value)) {
        double d = json_real_value(value);
        return attr_put_scalar(u, obj, objname, name, H5T_IEEE_F64LE,
                               H5T_NATIVE_DOUBLE, &d);
    }
    if (json_is_boolean(value)) {
        int8_t b = json_is_true(value);
        hid_t type = bool_type();
        int rc = attr_put_scalar(u, obj, objname, name, type, type, &b);
        if (type >= 0)
            H5Tclose(type);
        return rc;
    }
    if (json_is_array(value)) {
        size_t i, n = json_array_size(value), n_str = 0, n_num = 0;
        json_t *v;
        json_array_foreach(value, i, v) {
            n_str += json_is_string(v);
            n_num += json_is_number(v);
        }
        if (n > 0 && n_str == n) {
            const char **names = tokio__calloc(n, sizeof(*names));
            int rc;
            if (names == NULL)
                return tokio__error(TOKIO_ENOMEM, "out of memory writing "
                                    "'%s' of '%s' in '%s'", name, objname,
                                    u->path);
            json_array_foreach(value, i, v)
                names[i] = json_string_value(v);
            rc = attr_put_names(u, obj, objname, name, names, n);
            free(names);
            return rc;
        }
        if (n_num == n)
            return attr_put_numbers(u, obj, objname, name, value);
    }
    return tokio__error(TOKIO_EINVAL, "'%s': attribute '%s' of '%s' is "
                        "neither text, a number nor a list of either",
                        u->path, name, objname);
}

/* ---- datasets --------------------------------------------------------- */

/*
 * h5py's guess_chunk() for a fixed-size dataset: halve the dimensions in
 * turn until the chunk is near a target that grows with the dataset.
 */
static void
guess_chunk(const hsize_t *shape, int ndims, size_t typesize, hsize_t *chunk)
{
    double c[2], dset_size = (double)typesize, target;
    int idx = 0;

    for (int i = 0; i < ndims; i++) {
        c[i] = shape[i] ? (double)shape[i] : 1024.0;
        dset_size *= c[i];
    }
    target = 16.0 * 1024 * pow(2.0, log10(dset_size / (1024.0 * 1024)));
    if (target > 1024.0 * 1024)
        target = 1024.0 * 1024;
    else if (target < 8.0 * 1024)
        target = 8.0 * 1024;
    for (;;) {
        double bytes = (double)typesize, cells = 1;
        for (int i = 0; i < ndims; i++)
            cells *= c[i];
        bytes *= cells;
        if ((bytes < target || fabs(bytes - target) / target < 0.5)
            && bytes < 1024.0 * 1024)
            break;
        if (cells == 1)
            break;
        c[idx % ndims] = ceil(c[idx % ndims] / 2.0);
        idx++;
    }
    for (int i = 0; i < ndims; i++)
        chunk[i] = (hsize_t)c[i];
}

/* "a/b" -> "/a/b" in `out`; 0 when too long or empty. */
static int
abs_name(char *out, size_t size, const char *name)
{
    int n;

    while (*name == '/')
        name++;
    if (!*name)
        return 0;
    n = snprintf(out, size, "/%s", name);
    return n > 0 && (size_t)n < size;
}

static hid_t
lcpl_intermediate(void)
{
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);

    if (lcpl >= 0 && (H5Pset_create_intermediate_group(lcpl, 1) < 0
                      || H5Pset_char_encoding(lcpl, H5T_CSET_UTF8) < 0)) {
        H5Pclose(lcpl);
        return -1;
    }
    return lcpl;
}

/* h5py's compression='gzip' */
#define DEFLATE_LEVEL 4

/*
 * A dataset access list whose chunk cache holds a row of chunks and one
 * more (at least HDF5's default 1 MiB, at most 16 MiB): rows written block by
 * block then never see a chunk evicted half written, compressed, and
 * read back to be finished by the next block.
 */
static hid_t
chunk_cache(const hsize_t chunk[2], size_t cols)
{
    hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
    double per_row = chunk[1] ? ceil((double)cols / (double)chunk[1]) : 1;
    double bytes = (per_row + 1) * (double)chunk[0] * (double)chunk[1]
                   * sizeof(double);

    if (bytes < 1024.0 * 1024)
        bytes = 1024.0 * 1024;
    if (bytes > 16.0 * 1024 * 1024)
        bytes = 16.0 * 1024 * 1024;
    if (dapl >= 0 && H5Pset_chunk_cache(dapl, 12421, (size_t)bytes, 0.75)
                     < 0) {
        H5Pclose(dapl);
        return -1;
    }
    return dapl;
}

/* create_dataset(shape, dtype='f8', chunks=True, compression='gzip'),
 * its chunk shape in `chunk` */
static hid_t
create_data(hid_t file, const char *name, size_t rows, size_t cols,
            hsize_t chunk[2])
{
    hsize_t dims[2] = { rows, cols };
    hid_t space, dcpl, lcpl, dapl, dset = -1;

    guess_chunk(dims, 2, sizeof(double), chunk);
    space = H5Screate_simple(2, dims, NULL);
    dcpl = H5Pcreate(H5P_DATASET_CREATE);
    lcpl = lcpl_intermediate();
    dapl = chunk_cache(chunk, cols);
    if (space >= 0 && dcpl >= 0 && lcpl >= 0 && dapl >= 0
        && H5Pset_chunk(dcpl, 2, chunk) >= 0
        && H5Pset_deflate(dcpl, DEFLATE_LEVEL) >= 0
        && H5Pset_fill_time(dcpl, H5D_FILL_TIME_ALLOC) >= 0)
        dset = H5Dcreate2(file, name, H5T_IEEE_F64LE, space, lcpl, dcpl,
                          dapl);
    if (space >= 0)
        H5Sclose(space);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (lcpl >= 0)
        H5Pclose(lcpl);
    if (dapl >= 0)
        H5Pclose(dapl);
    return dset;
}

/* An existing 2-D chunked dataset, its chunk cache sized as above; its
 * chunk shape in `chunk` (the whole extent when not chunked). */
static hid_t
open_data(hid_t file, const char *name, hsize_t chunk[2])
{
    hid_t dset = H5Dopen2(file, name, H5P_DEFAULT), dcpl, space, dapl;
    hsize_t dims[2] = { 1, 1 };

    if (dset < 0)
        return -1;
    chunk[0] = chunk[1] = 1;
    if ((space = H5Dget_space(dset)) >= 0) {
        if (H5Sget_simple_extent_ndims(space) == 2)
            H5Sget_simple_extent_dims(space, dims, NULL);
        H5Sclose(space);
    }
    chunk[0] = dims[0] ? dims[0] : 1;
    chunk[1] = dims[1] ? dims[1] : 1;
    if ((dcpl = H5Dget_create_plist(dset)) >= 0) {
        if (H5Pget_layout(dcpl) == H5D_CHUNKED
            && H5Pget_chunk(dcpl, 2, chunk) != 2)
            chunk[0] = chunk[1] = 1;
        H5Pclose(dcpl);
    }
    H5Eclear2(H5E_DEFAULT);
    /* reopen with a cache that fits the chunk shape */
    if ((dapl = chunk_cache(chunk, (size_t)dims[1])) < 0)
        return dset;
    H5Dclose(dset);
    dset = H5Dopen2(file, name, dapl);
    H5Pclose(dapl);
    return dset;
}

/* create_dataset(shape, dtype='i8'), filled with `t`. */
static int
create_timestamps(struct tokio_hdf5_update *u, const char *name,
                  const int64_t *t, size_t n)
{
    hsize_t dim = n;
    hid_t space = H5Screate_simple(1, &dim, NULL), lcpl = lcpl_intermediate();
    hid_t dset = -1;
    int rc = TOKIO_OK;

    if (space < 0 || lcpl < 0
        || (dset = H5Dcreate2(u->file, name, H5T_STD_I64LE, space, lcpl,
                              H5P_DEFAULT, H5P_DEFAULT)) < 0
        || (n > 0 && H5Dwrite(dset, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL,
                              H5P_DEFAULT, t) < 0))
        rc = h5_error(TOKIO_EIO, "'%s': cannot write '%s'", u->path, name);
    if (dset >= 0)
        H5Dclose(dset);
    if (space >= 0)
        H5Sclose(space);
    if (lcpl >= 0)
        H5Pclose(lcpl);
    return rc;
}

/* The int64 dataset at `name` (1-D). */
static int
read_i64s(struct tokio_hdf5_update *u, const char *name, int64_t **out,
          size_t *n_out)
{
    hid_t dset, space = -1;
    hsize_t dim;
    int rc = TOKIO_OK;

    *out = NULL;
    *n_out = 0;
    if ((dset = H5Dopen2(u->file, name, H5P_DEFAULT)) < 0)
        return h5_error(TOKIO_EFORMAT, "'%s': cannot open '%s'", u->path,
                        name);
    if ((space = H5Dget_space(dset)) < 0
        || H5Sget_simple_extent_ndims(space) != 1
        || H5Sget_simple_extent_dims(space, &dim, NULL) < 0
        || dim > (UINT64_C(1) << 32)
        || (dim > (UINT64_C(8) << 20)     /* 64 MiB that store ~nothing */
            && dim * sizeof(int64_t) / 1100 > H5Dget_storage_size(dset))) {
        rc = h5_error(TOKIO_EFORMAT, "'%s': '%s' is not a list of "
                      "timestamps", u->path, name);
    } else if ((*out = tokio__malloc((size_t)dim * sizeof(int64_t) + 1))
               == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory reading '%s' of '%s'",
                          name, u->path);
    } else if (dim > 0 && H5Dread(dset, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL,
                                  H5P_DEFAULT, *out) < 0) {
        rc = h5_error(TOKIO_EFORMAT, "'%s': cannot read '%s'", u->path, name);
    } else {
        *n_out = (size_t)dim;
    }
    if (rc < 0) {
        free(*out);
        *out = NULL;
    }
    if (space >= 0)
        H5Sclose(space);
    H5Dclose(dset);
    return rc;
}

/* The root's `start` or `end` (0 when absent). */
static int
root_bound(struct tokio_hdf5_update *u, const char *name, int *has,
           int64_t *out)
{
    hid_t attr;
    htri_t ok = H5Aexists(u->file, name);

    *has = 0;
    if (ok < 0)
        return h5_error(TOKIO_EFORMAT, "'%s': cannot read the root", u->path);
    if (ok == 0)
        return TOKIO_OK;
    if ((attr = H5Aopen(u->file, name, H5P_DEFAULT)) < 0
        || H5Aread(attr, H5T_NATIVE_INT64, out) < 0) {
        if (attr >= 0)
            H5Aclose(attr);
        return h5_error(TOKIO_EFORMAT, "'%s': cannot read the root's '%s'",
                        u->path, name);
    }
    H5Aclose(attr);
    *has = 1;
    return TOKIO_OK;
}

static int
write_metadata(struct tokio_hdf5_update *u, hid_t obj, const char *objname,
               json_t *meta, int skip_columns)
{
    const char *key;
    json_t *value;
    int rc;

    json_object_foreach(meta, key, value) {
        if (skip_columns && strcmp(key, "columns") == 0)
            continue;
        if (json_is_null(value))
            continue;           /* the reference warns and skips */
        if ((rc = attr_put_json(u, obj, objname, key, value)) < 0)
            return rc;
    }
    return TOKIO_OK;
}

/*
 * Put `ts` in the order of the names an existing dataset has: each of
 * them that `ts` has, first, in order.
 */
static int
keep_order(struct tokio_hdf5_update *u, hid_t dset, const char *name,
           struct tokio_timeseries *ts)
{
    char **names;
    const char **order = NULL;
    size_t n, k = 0;
    int rc;

    if ((rc = tokio__hdf5_read_names(dset, "columns", u->path, name, &names,
                                     &n)) < 0)
        return rc;
    if (n > 0 && (order = tokio__calloc(n, sizeof(*order))) == NULL)
        rc = tokio__error(TOKIO_ENOMEM, "out of memory updating '%s'",
                          u->path);
    for (size_t i = 0; rc >= 0 && i < n; i++)
        if (tokio_timeseries_column_index(ts, names[i]) >= 0)
            order[k++] = names[i];
    if (rc >= 0 && k > 0)
        rc = tokio_timeseries_rearrange_columns(ts, order, k);
    free(order);
    free(names);
    return rc;
}

static int
has_attr(hid_t obj, const char *name)
{
    htri_t ok = H5Aexists(obj, name);

    if (ok < 0)
        H5Eclear2(H5E_DEFAULT);
    return ok > 0;
}

/* A dataset being written row block by row block. */
struct tokio_hdf5_rows {
    struct tokio_hdf5_update *u;
    char name[512];
    hid_t dset;
    size_t offset;          /* dataset row of row 0 */
    size_t rows, cols;      /* of the rows to write */
    hsize_t chunk[2];
    int created;            /* by this commit */
};

/* create_timestamps() of start, start + step, ... (`rows` of them). */
static int
create_regular_timestamps(struct tokio_hdf5_update *u, const char *name,
                          int64_t start, int64_t step, size_t rows)
{
    int64_t *t;
    int rc;

    if (rows > SIZE_MAX / sizeof(int64_t) - 1
        || (t = tokio__malloc(rows * sizeof(int64_t) + 1)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing '%s' of "
                            "'%s'", name, u->path);
    for (size_t i = 0; i < rows; i++)
        t[i] = start + (int64_t)i * step;
    rc = create_timestamps(u, name, t, rows);
    free(t);
    return rc;
}

/*
 * Everything commit_timeseries() does but writing the cells: the checks,
 * the column order, the dataset, its timestamps, the root start/end and
 * the attributes, for `rows` rows from `t0` every timestep of `ts`
 * (`t`: their timestamps, NULL when regular).  The cells come later
 * through tokio_hdf5_rows_write().
 */
static int
commit_begin(struct tokio_hdf5_update *u, struct tokio_timeseries *ts,
             int64_t t0, size_t rows, const int64_t *t,
             struct tokio_hdf5_rows **out)
{
    char dname[512], tkey[512], gname[512];
    const char *key = tokio_timeseries_timestamp_key(ts), *slash;
    size_t cols = tokio_timeseries_cols(ts);
    int64_t step = tokio_timeseries_timestep(ts), start, end, t_start = 0;
    int64_t *old = NULL, root_start, root_end;
    size_t n_old = 0;
    hid_t dset = -1, space = -1, group = -1;
    hsize_t chunk[2] = { 1, 1 };
    int rc = TOKIO_OK, exists, has_start, has_end, has_columns = 0;
    struct tokio_hdf5_rows *w;

    *out = NULL;
    if (!abs_name(dname, sizeof(dname), tokio_timeseries_dataset_name(ts)))
        return tokio__error(TOKIO_EINVAL, "'%s': bad dataset name '%s'",
                            u->path, tokio_timeseries_dataset_name(ts));
    if (rows == 0 || cols == 0)
        return tokio__error(TOKIO_EINVAL, "'%s': cannot commit '%s' with "
                            "%zu rows and %zu columns", u->path, dname, rows,
                            cols);
    if (step <= 0)
        return tokio__error(TOKIO_EINVAL, "'%s': cannot commit '%s' with "
                            "timestep %" PRId64, u->path, dname, step);
    if (t == NULL && (rows > (uint64_t)INT64_MAX / (uint64_t)step
                      || t0 > INT64_MAX - (int64_t)rows * step))
        return tokio__error(TOKIO_EINVAL, "'%s': cannot commit '%s' with "
                            "%zu rows", u->path, dname, rows);
    slash = strrchr(dname, '/');
    snprintf(gname, sizeof(gname), "%.*s", (int)(slash - dname), dname);
    if (!gname[0])
        snprintf(gname, sizeof(gname), "/");
    if (key == NULL) {
        int n = snprintf(tkey, sizeof(tkey), "%s/timestamps",
                         strcmp(gname, "/") ? gname : "");
        if (n < 0 || (size_t)n >= sizeof(tkey))
            return tokio__error(TOKIO_EINVAL, "'%s': bad dataset name '%s'",
                                u->path, dname);
    } else if (!abs_name(tkey, sizeof(tkey), key))
        return tokio__error(TOKIO_EINVAL, "'%s': bad timestamp key '%s'",
                            u->path, key);

    /* every check first, so that a refused commit changes nothing */
    exists = tokio__hdf5_path_exists(u->file, dname);
    if (tokio__hdf5_path_exists(u->file, tkey)) {
        int64_t old_step;
        if ((rc = read_i64s(u, tkey, &old, &n_old)) < 0)
            return rc;
        if (n_old < 2) {
            rc = tokio__error(TOKIO_EINVAL, "'%s': '%s' has fewer than two "
                              "timestamps", u->path, tkey);
            goto done;
        }
        old_step = old[1] - old[0];
        if (old_step != step) {
            rc = tokio__error(TOKIO_EINVAL, "'%s': existing dataset '%s' has "
                              "a different timestep (mine=%" PRId64
                              ", existing=%" PRId64 ")", u->path, dname, step,
                              old_step);
            goto done;
        }
        /* get_insert_indices(): floor division, as Python's // */
        t_start = (t0 - old[0]) / old_step;
        if ((t0 - old[0]) % old_step != 0 && (t0 - old[0]) < 0)
            t_start--;
        if (t_start < 0 || t_start > (int64_t)n_old - 2
            || t_start + (int64_t)rows < 1
            || t_start + (int64_t)rows > (int64_t)n_old) {
            rc = tokio__error(TOKIO_EINVAL, "'%s': cannot commit '%s' that is "
                              "not a subset of existing data", u->path,
                              dname);
            goto done;
        }
        start = old[0];
        end = old[n_old - 1] + step;
    } else {
        start = t0;
        end = (t ? t[rows - 1] : t0 + (int64_t)(rows - 1) * step) + step;
    }
    if ((rc = root_bound(u, "start", &has_start, &root_start)) < 0
        || (rc = root_bound(u, "end", &has_end, &root_end)) < 0)
        goto done;
    if (has_start && (root_start != start || !has_end || root_end != end)) {
        rc = tokio__error(TOKIO_EINVAL, "'%s': mismatched start or end "
                          "values: %" PRId64 " != %" PRId64 " or %" PRId64
                          " != %" PRId64, u->path, start, root_start, end,
                          has_end ? root_end : 0);
        goto done;
    }
    if (exists) {
        hsize_t dims[2];
        if ((dset = open_data(u->file, dname, chunk)) < 0
            || (space = H5Dget_space(dset)) < 0
            || H5Sget_simple_extent_ndims(space) != 2
            || H5Sget_simple_extent_dims(space, dims, NULL) < 0) {
            rc = h5_error(TOKIO_EFORMAT, "'%s': '%s' is not a 2-D dataset",
                          u->path, dname);
            goto done;
        }
        if (dims[1] != cols || (hsize_t)t_start + rows > dims[0]) {
            rc = tokio__error(TOKIO_EINVAL, "'%s': cannot commit %zu x %zu "
                              "at row %" PRId64 " of '%s', which is %llu x "
                              "%llu", u->path, rows, cols, t_start, dname,
                              (unsigned long long)dims[0],
                              (unsigned long long)dims[1]);
            goto done;
        }
        has_columns = has_attr(dset, "columns");
    } else if (rows > TOKIO_HDF5_MAX_ROWS) {
        rc = tokio__error(TOKIO_EINVAL, "'%s': cannot create '%s' with %zu "
                          "rows (at most %zu)", u->path, dname, rows,
                          TOKIO_HDF5_MAX_ROWS);
        goto done;
    } else if ((hsize_t)t_start + rows > rows) {
        rc = tokio__error(TOKIO_EINVAL, "'%s': cannot create '%s' at row %"
                          PRId64 " of '%s'", u->path, dname, t_start, tkey);
        goto done;
    }

    /* columns: an existing dataset's order, else sorted naturally */
    if (has_columns)
        rc = keep_order(u, dset, dname, ts);
    else if (!exists)
        rc = tokio_timeseries_sort_columns(ts, 0);
    if (rc < 0)
        goto done;

    /* now write */
    if (!exists
        && (dset = create_data(u->file, dname, rows, cols, chunk)) < 0) {
        rc = h5_error(TOKIO_EIO, "'%s': cannot create '%s'", u->path, dname);
        goto done;
    }
    if (n_old == 0
        && (rc = t ? create_timestamps(u, tkey, t, rows)
                   : create_regular_timestamps(u, tkey, t0, step, rows)) < 0)
        goto done;
    if (!has_start && ((rc = attr_put_i64(u, u->file, "/", "start", start)) < 0
                       || (rc = attr_put_i64(u, u->file, "/", "end", end))
                          < 0))
        goto done;
    /* attributes in the reference's order: version, the file's version,
     * the metadata (columns and updated included) */
    {
        size_t n = tokio_timeseries_n_names(ts);
        const char **names = tokio__calloc(n + 1, sizeof(*names));
        if (names == NULL) {
            rc = tokio__error(TOKIO_ENOMEM, "out of memory updating '%s'",
                              u->path);
            goto done;
        }
        for (size_t i = 0; i < n; i++)
            names[i] = tokio_timeseries_column(ts, i);
        if (tokio_timeseries_version(ts) != NULL)
            rc = attr_put_str(u, dset, dname, "version",
                              tokio_timeseries_version(ts));
        if (rc >= 0 && tokio_timeseries_global_version(ts) != NULL)
            rc = attr_put_str(u, u->file, "/", "version",
                              tokio_timeseries_global_version(ts));
        if (rc >= 0)
            rc = write_metadata(u, dset, dname,
                                tokio_timeseries_dataset_metadata(ts), 1);
        if (rc >= 0)
            rc = attr_put_names(u, dset, dname, "columns", names, n);
        if (rc >= 0)
            rc = attr_put_i64(u, dset, dname, "updated", (int64_t)time(NULL));
        free(names);
        if (rc < 0)
            goto done;
    }
    if ((group = H5Oopen(u->file, gname, H5P_DEFAULT)) < 0) {
        rc = h5_error(TOKIO_EIO, "'%s': cannot open '%s'", u->path, gname);
        goto done;
    }
    if ((rc = write_metadata(u, group, gname,
                             tokio_timeseries_group_metadata(ts), 0)) < 0)
        goto done;
    if ((w = tokio__calloc(1, sizeof(*w))) == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory updating '%s'",
                          u->path);
        goto done;
    }
    w->u = u;
    snprintf(w->name, sizeof(w->name), "%s", dname);
    w->dset = dset;
    dset = -1;              /* w's now */
    w->offset = (size_t)t_start;
    w->rows = rows;
    w->cols = cols;
    w->chunk[0] = chunk[0] ? chunk[0] : 1;
    w->chunk[1] = chunk[1] ? chunk[1] : 1;
    w->created = !exists;
    *out = w;
done:
    if (group >= 0)
        H5Oclose(group);
    if (space >= 0)
        H5Sclose(space);
    if (dset >= 0)
        H5Dclose(dset);
    free(old);
    return rc;
}

int
tokio_hdf5_rows_write(struct tokio_hdf5_rows *w, size_t row,
                      const double *data, size_t n_rows)
{
    hsize_t off[2] = { (hsize_t)(w->offset + row), 0 };
    hsize_t cnt[2] = { n_rows, w->cols };
    hid_t space = -1, mspace = -1;
    int rc = TOKIO_OK;

    if (row > w->rows || n_rows > w->rows - row)
        return tokio__error(TOKIO_EINVAL, "'%s': cannot write rows %zu to "
                            "%zu of the %zu of '%s'", w->u->path, row,
                            row + n_rows, w->rows, w->name);
    if (n_rows == 0)
        return TOKIO_OK;
    if ((space = H5Dget_space(w->dset)) < 0
        || (mspace = H5Screate_simple(2, cnt, NULL)) < 0
        || H5Sselect_hyperslab(space, H5S_SELECT_SET, off, NULL, cnt, NULL)
           < 0
        || H5Dwrite(w->dset, H5T_NATIVE_DOUBLE, mspace, space, H5P_DEFAULT,
                    data) < 0)
        rc = h5_error(TOKIO_EIO, "'%s': cannot write '%s'", w->u->path,
                      w->name);
    if (mspace >= 0)
        H5Sclose(mspace);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

size_t
tokio_hdf5_rows_chunk(const struct tokio_hdf5_rows *w, size_t *first_out)
{
    size_t c = (size_t)w->chunk[0];

    if (first_out)
        *first_out = (c - w->offset % c) % c;
    return c;
}

int
tokio_hdf5_rows_end(struct tokio_hdf5_rows *w)
{
    int rc = TOKIO_OK;

    if (w == NULL)
        return TOKIO_OK;
    /* closing writes out the chunks still cached */
    if (H5Dclose(w->dset) < 0)
        rc = h5_error(TOKIO_EIO, "'%s': cannot write '%s'", w->u->path,
                      w->name);
    free(w);
    return rc;
}

int
tokio_hdf5_update_commit_begin(struct tokio_hdf5_update *u,
                               struct tokio_timeseries *ts, int64_t start,
                               size_t n_rows, struct tokio_hdf5_rows **out)
{
    return commit_begin(u, ts, start, n_rows, NULL, out);
}

int
tokio_hdf5_update_commit(struct tokio_hdf5_update *u,
                         struct tokio_timeseries *ts)
{
    struct tokio_hdf5_rows *w;
    size_t rows = tokio_timeseries_rows(ts);
    const int64_t *t = tokio_timeseries_timestamps(ts);
    int rc;

    if ((rc = commit_begin(u, ts, rows ? t[0] : 0, rows, t, &w)) < 0)
        return rc;
    rc = tokio_hdf5_rows_write(w, 0, tokio_timeseries_cdata(ts), rows);
    if (tokio_hdf5_rows_end(w) < 0 && rc >= 0)
        rc = TOKIO_EIO;
    return rc;
}

int
tokio_hdf5_update_set_version(struct tokio_hdf5_update *u, const char *version)
{
    return attr_put_str(u, u->file, "/", "version", version);
}

/*
 * Fill a dataset just created with -0.0 as H5Dwrite() of an all -0.0
 * series would, but compressing each distinct chunk once: an inner
 * chunk, and the edge chunks whose cells beyond the extent hold the
 * fill value 0.0 as HDF5 leaves them; each is written as it is with
 * H5Dwrite_chunk().  The stored chunks are the bytes the deflate filter
 * makes of them (it calls compress2() at the same level).
 */
static int
fill_missing(struct tokio_hdf5_rows *w)
{
    const hsize_t cr = w->chunk[0], cc = w->chunk[1];
    size_t cells = (size_t)(cr * cc), raw = cells * sizeof(double);
    uLong bound = compressBound((uLong)raw);
    unsigned char *z[4] = { NULL, NULL, NULL, NULL };
    uLongf zlen[4] = { 0, 0, 0, 0 };
    double *buf = NULL;
    int rc = TOKIO_OK;

    if (!w->created || w->offset != 0)
        return tokio__error(TOKIO_EINVAL, "'%s': '%s' was not created by "
                            "this update", w->u->path, w->name);
    if (cells == 0 || cells > SIZE_MAX / sizeof(double) / 2
        || (buf = tokio__malloc(raw)) == NULL)
        return tokio__error(TOKIO_ENOMEM, "out of memory writing '%s' of "
                            "'%s'", w->name, w->u->path);
    for (hsize_t r = 0; rc >= 0 && r < w->rows; r += cr) {
        for (hsize_t c = 0; rc >= 0 && c < w->cols; c += cc) {
            int edge_r = r + cr > w->rows, edge_c = c + cc > w->cols;
            int k = edge_r * 2 + edge_c;
            hsize_t off[2] = { r, c };

            if (z[k] == NULL) {
                for (hsize_t i = 0; i < cr; i++)
                    for (hsize_t j = 0; j < cc; j++)
                        buf[i * cc + j] = (r + i < w->rows && c + j < w->cols)
                                          ? -0.0 : 0.0;
                zlen[k] = bound;
                if ((z[k] = tokio__malloc(bound)) == NULL) {
                    rc = tokio__error(TOKIO_ENOMEM, "out of memory writing "
                                      "'%s' of '%s'", w->name, w->u->path);
                    break;
                }
                if (compress2(z[k], &zlen[k], (const Bytef *)buf, raw,
                              DEFLATE_LEVEL) != Z_OK) {
                    rc = tokio__error(TOKIO_ENOMEM, "out of memory "
                                      "compressing '%s' of '%s'", w->name,
                                      w->u->path);
                    break;
                }
            }
            if (H5Dwrite_chunk(w->dset, H5P_DEFAULT, 0, off, zlen[k], z[k])
                < 0)
                rc = h5_error(TOKIO_EIO, "'%s': cannot write '%s'",
                              w->u->path, w->name);
        }
    }
    for (int k = 0; k < 4; k++)
        free(z[k]);
    free(buf);
    return rc;
}

uint64_t
tokio_hdf5_rows(int64_t start, int64_t end, int64_t timestep)
{
    uint64_t span = (uint64_t)end - (uint64_t)start;

    return span / (uint64_t)timestep + (span % (uint64_t)timestep != 0);
}

int
tokio_hdf5_check_range(const struct tokio_archive_range *r,
                       const char *output)
{
    if (r->timestep <= 0 || r->end > INT64_MAX - r->timestep)
        return tokio__error(TOKIO_EINVAL, "archiving into '%s': timestep "
                            "%" PRId64 " s", output, r->timestep);
    if (r->start >= r->end || r->init_start >= r->init_end)
        return tokio__error(TOKIO_EINVAL, "archiving into '%s': the range "
                            "must end after it starts", output);
    if (tokio_hdf5_rows(r->start, r->end, r->timestep) > TOKIO_HDF5_MAX_ROWS ||
        tokio_hdf5_rows(r->init_start, r->init_end, r->timestep) >
            TOKIO_HDF5_MAX_ROWS)
        return tokio__error(TOKIO_EINVAL, "archiving into '%s': more than "
                            "the %zu rows of %" PRId64 " s a file may hold",
                            output, TOKIO_HDF5_MAX_ROWS, r->timestep);
    return TOKIO_OK;
}

int
tokio_hdf5_update_init_dataset(struct tokio_hdf5_update *u, const char *name,
                               int64_t init_start, int64_t init_end,
                               int64_t timestep, size_t num_columns)
{
    struct tokio_timeseries *ts;
    struct tokio_hdf5_rows *w;
    char dname[512];
    uint64_t rows;
    int rc;

    if (!abs_name(dname, sizeof(dname), name))
        return tokio__error(TOKIO_EINVAL, "'%s': bad dataset name '%s'",
                            u->path, name);
    if (tokio__hdf5_path_exists(u->file, dname))
        return TOKIO_OK;
    if (timestep <= 0 || init_end <= init_start)
        return tokio__error(TOKIO_EINVAL, "'%s': cannot initialize '%s' over "
                            "[%" PRId64 ", %" PRId64 ") every %" PRId64 " s",
                            u->path, name, init_start, init_end, timestep);
    rows = tokio_hdf5_rows(init_start, init_end, timestep);
    if (rows > TOKIO_HDF5_MAX_ROWS)
        return tokio__error(TOKIO_EINVAL, "'%s': cannot initialize '%s' with "
                            "%" PRIu64 " rows (at most %zu)", u->path, name,
                            rows, TOKIO_HDF5_MAX_ROWS);
    /* one row stands for them all: only its shape and names are used */
    if ((rc = tokio_timeseries_new_rows(&ts, dname + 1, &init_start, 1,
                                        num_columns)) < 0)
        return rc;
    tokio_timeseries_set_timestep(ts, timestep);
    if ((rc = commit_begin(u, ts, init_start, (size_t)rows, NULL, &w)) >= 0) {
        rc = fill_missing(w);
        if (tokio_hdf5_rows_end(w) < 0 && rc >= 0)
            rc = TOKIO_EIO;
    }
    tokio_timeseries_free(ts);
    return rc;
}

int
tokio_hdf5_update_to_timeseries(struct tokio_hdf5_update *u, const char *name,
                                struct tokio_timeseries **out)
{
    struct tokio_hdf5 *h;
    int rc;

    *out = NULL;
    if ((rc = tokio__hdf5_wrap(&h, u->file, u->path)) < 0)
        return rc;
    rc = tokio_hdf5_to_timeseries(h, name, out);
    tokio_hdf5_free(h);
    return rc;
}
