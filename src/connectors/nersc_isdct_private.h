/*
 * src/connectors/nersc_isdct_private.h - what the tests see of the ISDCT
 * connector beyond its public API.
 */
#ifndef TOKIO_CONNECTORS_NERSC_ISDCT_PRIVATE_H
#define TOKIO_CONNECTORS_NERSC_ISDCT_PRIVATE_H

#include "tokio/connectors/nersc_isdct.h"

/*
 * The first try of tokio_nersc_isdct_open() on a file: 1 when it was read
 * through a window (a saved dump in the plain form, inflated and read a
 * window at a time), 0 when it must be read whole (a tarball, or JSON the
 * windowed reader does not take: jansson reads it), or an error.  Tests check with it that the windowed reader does not fall
 * back where it need not.
 */
int tokio__nersc_isdct_open_window(struct tokio_nersc_isdct **out,
                                   const char *path);

#endif
