/*
 * tokio/tools/archive_esnet_snmp.h - ESnet router interface rates into a
 * TOKIO Time Series HDF5 file (the reference's archive_esnet_snmp):
 * datatargets/readrates from the "in" rates, datatargets/writerates from
 * the "out" rates, one column "endpoint:interface" per interface.
 */
#ifndef TOKIO_TOOLS_ARCHIVE_ESNET_SNMP_H
#define TOKIO_TOOLS_ARCHIVE_ESNET_SNMP_H

#include <jansson.h>
#include <signal.h>
#include <stdint.h>

#include "tokio/common.h"
#include "tokio/timeseries.h"

struct tokio_archive_esnet_snmp_options {
    const char *output;             /* the TTS file, created or updated */
    struct tokio_archive_range range; /* rates of [start, end] */
    const json_t *interfaces;       /* {endpoint: [interface, ...]} */
    const char *input;              /* a cache of rates, or NULL: the API */
    const char *url;                /* the API (when input is NULL) */
    long timeout;                   /* seconds to connect and between bytes */
    volatile sig_atomic_t *stop;    /* stop the queries when set; or NULL */
};

/**
 * Read the rates (from `input`, or from the API: each interface's "in"
 * and "out", averaged every `timestep` seconds), then, in one
 * all-or-nothing update of `output` (holding its lock), create its
 * datasets over [init_start, init_end) where missing and commit the
 * rates into them.  The file is left as it was on any failure.
 * @return TOKIO_OK; TOKIO_EINVAL (bad ranges or timestep; the file's
 *         range or columns disagree); TOKIO_EFORMAT (a cache or answer
 *         of another shape; an interface missing from a cache; an answer
 *         without data, or with a count of points unlike the others);
 *         TOKIO_EIO; TOKIO_ENOMEM.
 */
TOKIO_API int
tokio_archive_esnet_snmp(const struct tokio_archive_esnet_snmp_options *o);

#endif
