/*
 * src/cli/front/archive.c - `tokio`'s stand-in for
 * src/core/collection_archive.c, linked into the front executable only.
 *
 * The front links no libarchive: loading it (and what it loads) is most
 * of a short run's start-up.  Commands whose input is far more often a
 * saved JSON dump than a tarball (cache-isdct, compare-isdct) run here;
 * when one meets a tarball, tokio-libarchive runs the same command line
 * from the start.  That is safe because they read every input before
 * writing anything.
 */
#include <errno.h>
#include <string.h>

#include "cli/cli.h"
#include "core/collection.h"
#include "core/error.h"

/* Returns only when tokio-libarchive cannot be run. */
static int
rerun(const char *name)
{
    cli_exec_level(1);
    return tokio__error(TOKIO_EIO, "'%s' is a tar archive, read by "
                        "tokio-libarchive, which cannot be run: %s", name,
                        strerror(errno));
}

int
tokio__walk_archive_file(const char *path, tokio_collection_cb cb,
                         void *payload)
{
    (void)cb;
    (void)payload;
    return rerun(path);
}

int
tokio__walk_archive_mem(const void *buf, size_t len, const char *name,
                        size_t max, tokio_collection_cb cb, void *payload)
{
    (void)buf;
    (void)len;
    (void)max;
    (void)cb;
    (void)payload;
    return rerun(name != NULL ? name : "the input");
}
