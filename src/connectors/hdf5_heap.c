/*
 * src/connectors/hdf5_heap.c - checking the global heap references of a
 * variable-length string attribute before HDF5 follows them.
 *
 * Such a string is stored as its length (4 bytes), the address of a
 * global heap collection and the index of its object there (4 bytes);
 * the collection ("GCOL", HDF5 File Format Specification III.E) lists its
 * objects, each an index, a size and the bytes.  HDF5 1.10.8's H5HG_read()
 * takes the index on trust: an index past the collection's objects (one
 * flipped byte of snx11025_2018-01-28.hdf5) reads wild memory and
 * crashes, as h5dump and h5py do on that file; an object larger than the
 * string's length overruns the buffer it is copied into; a collection
 * whose sizes do not add up walks past its end, or forever.  So every
 * reference is checked against its collection, read from the file here,
 * and only then does H5Aread() follow them.
 *
 * The raw references come through HDF5 itself: a conversion from a
 * variable-length string to an opaque type of the same size, registered
 * below, copies the stored bytes as they are instead of reading the heap.
 */
#include "hdf5_private.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/fdio.h"

#define OPAQUE_TAG      "tokio raw variable-length reference"
#define GCOL_MIN_SIZE   4096            /* H5HG_MINSIZE: smaller is corrupt */
#define GCOL_MAX_SIZE   (64u << 20)     /* an attribute that big is not ours */

/* The stored references, byte for byte: declined for anything else. */
static herr_t
copy_raw(hid_t src, hid_t dst, H5T_cdata_t *cdata, size_t n, size_t stride,
         size_t bkg_stride, void *buf, void *bkg, hid_t dxpl)
{
    char *tag;
    int ours;

    (void)n, (void)stride, (void)bkg_stride, (void)buf, (void)bkg;
    (void)dxpl;
    if (cdata->command != H5T_CONV_INIT)
        return 0;   /* same size: the bytes are already where they go */
    if (H5Tis_variable_str(src) <= 0 || H5Tget_class(dst) != H5T_OPAQUE ||
        H5Tget_size(src) != H5Tget_size(dst) ||
        (tag = H5Tget_tag(dst)) == NULL)
        return -1;
    ours = strcmp(tag, OPAQUE_TAG) == 0;
    H5free_memory(tag);
    return ours ? 0 : -1;
}

static int
register_copy_raw(void)
{
    static int done;
    hid_t vstr, raw;
    herr_t rc = -1;

    if (done)
        return 0;
    vstr = H5Tcopy(H5T_C_S1);
    raw = H5Tcreate(H5T_OPAQUE, 16);
    if (vstr >= 0 && raw >= 0 && H5Tset_size(vstr, H5T_VARIABLE) >= 0 &&
        H5Tset_tag(raw, OPAQUE_TAG) >= 0)
        rc = H5Tregister(H5T_PERS_SOFT, "tokio_copy_raw", vstr, raw,
                         copy_raw);
    if (vstr >= 0)
        H5Tclose(vstr);
    if (raw >= 0)
        H5Tclose(raw);
    done = rc >= 0;
    return done ? 0 : -1;
}

/* The bytes of the file behind an open HDF5 file: its descriptor (the
 * default driver) or its image in memory (the core driver). */
struct raw_file {
    int fd;
    const unsigned char *mem;
    uint64_t size;          /* bytes in the file */
    uint64_t base;          /* where address 0 is: after a user block */
    size_t sizeof_addr, sizeof_size;
};

static int
raw_open(hid_t file, struct raw_file *r)
{
    hid_t fapl = H5Fget_access_plist(file), fcpl = H5Fget_create_plist(file);
    hid_t driver = fapl >= 0 ? H5Pget_driver(fapl) : -1;
    void *handle = NULL;
    hsize_t size = 0, block = 0;
    int rc = -1;

    memset(r, 0, sizeof(*r));
    r->fd = -1;
    if (fcpl >= 0 && driver >= 0 &&
        H5Pget_sizes(fcpl, &r->sizeof_addr, &r->sizeof_size) >= 0 &&
        H5Pget_userblock(fcpl, &block) >= 0 &&
        H5Fget_filesize(file, &size) >= 0 &&
        H5Fget_vfd_handle(file, fapl, &handle) >= 0 && handle != NULL &&
        r->sizeof_addr >= 2 && r->sizeof_addr <= 8 &&
        r->sizeof_size >= 2 && r->sizeof_size <= 8) {
        r->size = size;
        r->base = block;
        if (driver == H5FD_SEC2) {
            r->fd = *(int *)handle;
            rc = 0;
        } else if (driver == H5FD_CORE) {
            r->mem = *(unsigned char **)handle;
            rc = r->mem != NULL ? 0 : -1;
        }
    }
    if (fapl >= 0)
        H5Pclose(fapl);
    if (fcpl >= 0)
        H5Pclose(fcpl);
    return rc;
}

/* `n` bytes at file offset `off`; -1 beyond the end or on error. */
static int
raw_read(const struct raw_file *r, uint64_t off, void *buf, size_t n)
{
    if (off > r->size || n > r->size - off)
        return -1;
    if (r->mem != NULL) {
        memcpy(buf, r->mem + off, n);
        return 0;
    }
    return tokio__pread_full(r->fd, buf, n, off) == (ssize_t)n ? 0 : -1;
}

static uint64_t
le(const unsigned char *p, size_t n)
{
    uint64_t v = 0;

    while (n-- > 0)
        v = v << 8 | p[n];
    return v;
}

/* A global heap collection read whole from the file. */
struct collection {
    uint64_t addr;
    unsigned char *bytes;
    uint64_t size;
};

/*
 * Read the collection at `addr` into `c` and check that its objects
 * tile it exactly as HDF5 will walk them (an object header, then its
 * bytes padded to 8; a last free-space object spanning the rest, or a
 * tail too short for a header).  0, or -1 when it is corrupt.
 */
static int
collection_load(const struct raw_file *r, uint64_t addr, struct collection *c)
{
    unsigned char head[16];
    const size_t hdr = 8 + r->sizeof_size, objhdr = 8 + r->sizeof_size;
    uint64_t size, p;

    free(c->bytes);
    c->bytes = NULL;
    c->addr = addr;
    if (addr > UINT64_MAX - r->base ||
        raw_read(r, r->base + addr, head, hdr) < 0 ||
        memcmp(head, "GCOL", 4) != 0 || head[4] != 1)
        return -1;
    size = le(head + 8, r->sizeof_size);
    if (size < GCOL_MIN_SIZE || size > GCOL_MAX_SIZE ||
        (c->bytes = tokio__malloc((size_t)size)) == NULL ||
        raw_read(r, r->base + addr, c->bytes, (size_t)size) < 0)
        return -1;
    c->size = size;
    for (p = hdr; p + objhdr <= size;) {
        unsigned idx = (unsigned)le(c->bytes + p, 2);
        uint64_t len = le(c->bytes + p + 8, r->sizeof_size);

        if (idx == 0)       /* free space: the rest, header included */
            return len == size - p ? 0 : -1;
        if (len > size || p + objhdr + ((len + 7) & ~(uint64_t)7) > size)
            return -1;
        p += objhdr + ((len + 7) & ~(uint64_t)7);
    }
    return 0;
}

/* The size of object `idx` of a checked collection; -1 when absent (the
 * last of a repeated index, as HDF5 keeps). */
static int64_t
collection_find(const struct collection *c, size_t sizeof_size,
                uint64_t idx)
{
    const size_t objhdr = 8 + sizeof_size;
    int64_t found = -1;

    for (uint64_t p = 8 + sizeof_size; p + objhdr <= c->size;) {
        unsigned i = (unsigned)le(c->bytes + p, 2);
        uint64_t len = le(c->bytes + p + 8, sizeof_size);

        if (i == 0)
            break;
        if (i == idx)
            found = (int64_t)len;
        p += objhdr + ((len + 7) & ~(uint64_t)7);
    }
    return found;
}

int
tokio__hdf5_check_vlen(hid_t attr, size_t n, const char *path,
                       const char *what)
{
    struct raw_file r;
    struct collection c = { 0, NULL, 0 };
    unsigned char *refs = NULL;
    hid_t file = H5Iget_file_id(attr), raw = -1;
    size_t width = 0;
    int rc = TOKIO_OK;

    if (file < 0 || register_copy_raw() < 0 || raw_open(file, &r) < 0) {
        rc = tokio__hdf5_error(TOKIO_EFORMAT, "'%s': cannot check %s", path,
                               what);
        goto done;
    }
    /* a file being written holds its latest heap objects in HDF5's cache
     * until flushed */
    unsigned intent = 0;
    if (H5Fget_intent(file, &intent) >= 0 && (intent & H5F_ACC_RDWR) &&
        H5Fflush(file, H5F_SCOPE_LOCAL) < 0) {
        rc = tokio__hdf5_error(TOKIO_EIO, "'%s': cannot read %s", path,
                               what);
        goto done;
    }
    width = 4 + r.sizeof_addr + 4;
    if ((raw = H5Tcreate(H5T_OPAQUE, width)) < 0 ||
        H5Tset_tag(raw, OPAQUE_TAG) < 0) {
        rc = tokio__hdf5_error(TOKIO_EFORMAT, "'%s': cannot check %s", path,
                               what);
        goto done;
    }
    if ((refs = tokio__malloc(n * width + 1)) == NULL) {
        rc = tokio__error(TOKIO_ENOMEM, "out of memory reading %s of '%s'",
                          what, path);
        goto done;
    }
    if (n > 0 && H5Aread(attr, raw, refs) < 0) {
        rc = tokio__hdf5_error(TOKIO_EFORMAT, "'%s': cannot read %s", path,
                               what);
        goto done;
    }
    for (size_t i = 0; i < n && rc >= 0; i++) {
        const unsigned char *ref = refs + i * width;
        uint64_t len = le(ref, 4), addr = le(ref + 4, r.sizeof_addr);
        uint64_t idx = le(ref + 4 + r.sizeof_addr, 4);

        if (addr == 0)
            continue;       /* a null string: nothing is read */
        if ((c.bytes == NULL || c.addr != addr) &&
            collection_load(&r, addr, &c) < 0) {
            rc = tokio__error(TOKIO_EFORMAT, "'%s': %s points at a corrupt "
                              "global heap (address %" PRIu64 ")", path, what,
                              addr);
            break;
        }
        if (collection_find(&c, r.sizeof_size, idx) != (int64_t)len)
            rc = tokio__error(TOKIO_EFORMAT, "'%s': %s names heap object %"
                              PRIu64 " of %" PRIu64 " bytes, which the heap "
                              "does not hold", path, what, idx, len);
    }
done:
    free(c.bytes);
    free(refs);
    if (raw >= 0)
        H5Tclose(raw);
    if (file >= 0)
        H5Fclose(file);
    return rc;
}
