/*
 * tokio/tools/archive_collectdes.h - collectd metrics of burst-buffer
 * nodes from Elasticsearch (or a cache of its pages) into a TOKIO Time
 * Series HDF5 file (the reference's archive_collectdes): SSD read/write
 * byte and op rates per "host:device", memory and CPU shares per host.
 */
#ifndef TOKIO_TOOLS_ARCHIVE_COLLECTDES_H
#define TOKIO_TOOLS_ARCHIVE_COLLECTDES_H

#include <stdint.h>

#include "tokio/common.h"
#include "tokio/timeseries.h"

struct tokio_es;

struct tokio_archive_collectdes_options {
    const char *output;             /* the TTS file, created or updated */
    struct tokio_archive_range range; /* documents of [start, end) */
    long num_nodes;                 /* columns of the server datasets */
    long ssds_per_node;             /* num_nodes * this: of the SSD ones */
    const char *input;              /* a cache of pages, or NULL: */
    struct tokio_es *es;            /* the server (borrowed) */
};

/**
 * In one all-or-nothing update of `output` (holding its lock): read each
 * dataset, or make it over range's [init_start, init_end); clear the
 * CPU datasets over [start, end); add every page of the cache or
 * of the cpu, disk and memory queries as it arrives; turn CPU sums into
 * averages; commit.  The file is left as it was on any failure.
 * @return TOKIO_OK; TOKIO_EINVAL (bad ranges, sizes; more hosts or
 *         devices than columns; the file's range disagrees); TOKIO_EFORMAT
 *         (a hit without _source, plugin or @timestamp, a value of the
 *         wrong type: the message names page, hit and field); TOKIO_EIO
 *         (the server, the file); TOKIO_ENOMEM.
 */
TOKIO_API int
tokio_archive_collectdes(const struct tokio_archive_collectdes_options *o);

#endif
