/*
 * tokio/tools/archive_mmperfmon.h - GPFS mmperfmon outputs into a TOKIO
 * Time Series HDF5 file, dataset by dataset, as the reference's
 * archive_mmperfmon (tokio.cli.archive_mmperfmon: its Archiver and
 * init_hdf5_file) fills one.
 */
#ifndef TOKIO_TOOLS_ARCHIVE_MMPERFMON_H
#define TOKIO_TOOLS_ARCHIVE_MMPERFMON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_config;

/* An init_start or init_end left to its default. */
#define TOKIO_ARCHIVE_MMPERFMON_DEFAULT INT64_MIN

/** What tokio_archive_mmperfmon() archives where. */
struct tokio_archive_mmperfmon_args {
    const char *output;         /* the HDF5 file to create or update */
    const char *filesystem;     /* whose outputs the site config names */
    int64_t start, end;         /* the hours of those outputs to read */
    const char *const *files;   /* or, when nfiles > 0, these outputs */
    size_t nfiles;
    /* the span of a dataset the file lacks: [init_start, init_end);
     * by default start and end, or with files the data's first and last
     * timestamps */
    int64_t init_start, init_end;
    int64_t timestep;           /* seconds between rows (> 0) */
    FILE *log;                  /* NULL, or where "Loading PATH" is
                                   printed before each input is read */
};

/**
 * Read the mmperfmon outputs (`files`, else those the site config's
 * mmperfmon_output_files names for `filesystem`, hour by hour from
 * `start` to `end`) into one dict and archive its values into `output`:
 *  - a counter of a device (a LUN) goes to "<type>s/<counter>", the type
 *    being the value of the first mmperfmon_lun_map regular expression
 *    matching the device's name at its start (devices matching none, such
 *    as network interfaces, are left out), in column "host:device";
 *  - any other counter goes to "<type>s/<counter>", the type being the
 *    first match of the host in mmperfmon_server_map, else "dataserver",
 *    in column "host"; cpu_user also adds into "<type>s/cpuload";
 *  - counters are renamed as the reference's COUNTER_MAP does
 *    (gpfs_nsdds_bytes_read -> readbytes, mem_free_bytes -> memfree...);
 *  - a value at time t fills the row of t - timestep (mmperfmon's
 *    timestamp ends the interval it measured); cpuuser and cpusys become
 *    percents; text and null values are left out.
 * Each dataset has a column per name it gets, sorted naturally.  The file
 * is created or updated all or nothing, under its lock; datasets it lacks
 * are made over [init_start, init_end), and only the rows of
 * [start, end) (without files) and those the data fills are written:
 * rows of other ranges keep what other runs archived there.
 * @param cfg  the site configuration (its mmperfmon_lun_map,
 *             mmperfmon_server_map and, without files,
 *             mmperfmon_output_files).
 * @param[out] warnings_out  NULL, or a new array of warning texts
 *             (datasets outside the schema, which are left out); set on
 *             failure too.
 * @return TOKIO_OK; TOKIO_ENOTFOUND (no input file matches, no data);
 *         TOKIO_EINVAL (a malformed map or template in the site config,
 *         init_start not before init_end, a host, device or counter name
 *         too long for a dataset or column); the statuses of
 *         tokio_mmperfmon_open() and of the HDF5 update.
 */
TOKIO_API int
tokio_archive_mmperfmon(const struct tokio_config *cfg,
                        const struct tokio_archive_mmperfmon_args *args,
                        json_t **warnings_out);

#endif
