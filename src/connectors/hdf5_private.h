/*
 * src/connectors/hdf5_private.h - what hdf5.c (reading) and hdf5_writer.c
 * (writing) share.  Not installed.
 */
#ifndef TOKIO_CONNECTORS_HDF5_PRIVATE_H
#define TOKIO_CONNECTORS_HDF5_PRIVATE_H

#include <hdf5.h>

#include "tokio/connectors/hdf5.h"

/*
 * Ready HDF5 for libtokio: no error stack printed to stderr (every
 * failure becomes our message), and, when libtokio is the first to use
 * HDF5 in the process, no exit handler: tokio closes every file it
 * opens, and HDF5 1.10's handler crashes (SIGSEGV) on a file whose close
 * failed, as a close does when the disk is full.  Call before any other
 * HDF5 function.
 */
void tokio__hdf5_init(void);

/*
 * Whether `path` names an object that resolves.  Walks each component
 * because H5Lexists() fails, rather than saying no, when a parent is
 * missing.
 */
int tokio__hdf5_path_exists(hid_t file, const char *path);

/*
 * A reader over `file`, an HDF5 file already open (the update's private
 * copy); `path` names it in messages.  The reader holds its own reference
 * to `file`, so tokio_hdf5_free() leaves the caller's open.  Any root
 * version is accepted.
 */
int tokio__hdf5_wrap(struct tokio_hdf5 **out, hid_t file, const char *path);

/*
 * A reader over an HDF5 file image in memory (the core driver; `data` is
 * copied), named `name` in messages; any root version is accepted.  For
 * the fuzz target.
 */
int tokio__hdf5_open_image(struct tokio_hdf5 **out, const void *data,
                           size_t size, const char *name);

/*
 * The string list attribute `attr_name` of `obj` (absent: none; an empty
 * non-string array: none), as tokio_hdf5_get_columns() returns names;
 * `path` and `objname` name them in messages.
 */
int tokio__hdf5_read_names(hid_t obj, const char *attr_name, const char *path,
                           const char *objname, char ***out, size_t *n_out);

/*
 * Check the `n` global heap references of the variable-length string
 * attribute `attr` before H5Aread() follows them (src/connectors/
 * hdf5_heap.c): HDF5 1.10 crashes on a corrupt one.  `path` and `what`
 * name the file and the attribute in messages.
 * @return TOKIO_OK; TOKIO_EFORMAT (a reference or its heap is corrupt);
 *         TOKIO_EIO; TOKIO_ENOMEM.
 */
int tokio__hdf5_check_vlen(hid_t attr, size_t n, const char *path,
                           const char *what);

/*
 * Fail with status and message plus HDF5's innermost error description,
 * clearing HDF5's error stack.
 */
int tokio__hdf5_error(int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
