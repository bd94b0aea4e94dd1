/*
 * tokio/tools/hdf5_summary.h - summaries of a TOKIO Time Series or H5LMT
 * file: totals, per-timestep and per-column bytes (the reference's
 * tokio.cli.summarize_tts) and binned bytes, CPU loads and missing data
 * (its tokio.cli.summarize_h5lmt), with their text forms.
 *
 * Results are JSON values with the reference's keys, integer where it
 * printed integers, so `--json` is a plain tokio_json_write(); numbers are
 * the reference's to the last bit (sums follow numpy's summation order).
 * Same thread rule as tokio/connectors/hdf5.h.
 */
#ifndef TOKIO_TOOLS_HDF5_SUMMARY_H
#define TOKIO_TOOLS_HDF5_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "tokio/common.h"
#include "tokio/connectors/hdf5.h"

/* Flags of tokio_hdf5_summary_tts() */
#define TOKIO_HDF5_SUMMARY_TIMESTEPS 0x1u  /* add "timesteps" */
#define TOKIO_HDF5_SUMMARY_COLUMNS   0x2u  /* add "columns" */

/**
 * The reference's summarize_tts results for datatargets/readbytes and
 * writebytes: {"total": {read_bytes, write_bytes, missing_pts, total_pts,
 * missing_pct, first_nonzero_idx, last_nonzero_idx}}, plus "timesteps"
 * ({"<epoch>": {read_bytes, write_bytes}}) and "columns" ({"<name>":
 * {read_bytes, write_bytes}}) as `flags` ask, each in the reference's
 * insertion order (what the text form prints).
 * @param[out] out  new reference.
 * @return TOKIO_OK; TOKIO_ENOTFOUND (a dataset is absent); TOKIO_EFORMAT;
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_hdf5_summary_tts(struct tokio_hdf5 *h, unsigned flags,
                                     json_t **out);

/**
 * Print a tokio_hdf5_summary_tts() result as the reference's text: the
 * totals with binary units, then the timesteps and columns present.
 * @return TOKIO_OK, TOKIO_EINVAL (not such a result), TOKIO_EIO.
 */
TOKIO_API int tokio_hdf5_summary_tts_print(FILE *fp, const json_t *summary);

/**
 * Bin datatargets/readbytes, writebytes, dataservers/cpuload and
 * mdservers/cpuload (those present) into `num_bins` bins, as the
 * reference's bin_datasets(orient='index'): {"<epoch of the bin's first
 * row>": {index0, indexf, tstart, tend, max_/min_/sum_/ave_KEY,
 * missing_KEY, num_KEY, frac_missing_KEY, ...}} with KEY ost_read,
 * ost_write, oss_cpu, mds_cpu, and for the ost keys each aggregate also
 * in _bytes, _kibs, _mibs, _gibs, _tibs.  Rows left over when `num_bins`
 * does not divide the timesteps (an H5LMT file's first row aside) are
 * dropped, as there.
 * @param[out] out           new reference.
 * @param[out] warnings_out  NULL, or a new array of the distinct warning
 *                           messages ("Bin count 24 does not evenly
 *                           divide into FSStepsDataSet size 60"), to be
 *                           shown to the user.
 * @return TOKIO_OK; TOKIO_EINVAL (num_bins 0 or above the timesteps);
 *         TOKIO_EFORMAT (datasets disagree on the bins' rows or times);
 *         TOKIO_ENOMEM; the errors of tokio_hdf5_to_timeseries().
 */
TOKIO_API int tokio_hdf5_summary_bins(struct tokio_hdf5 *h, size_t num_bins,
                                      json_t **out, json_t **warnings_out);

/**
 * Totals over bins (one file's, or several merged with
 * json_object_update()), as the reference's summarize_reduced_data():
 * n, sum_bytes_read/write in every unit, averages per timestep, CPU
 * averages and maxima, missing counts and fractions.
 * @param[out] out  new reference.
 * @return TOKIO_OK; TOKIO_EINVAL (no bins, or bins without OST bytes);
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_hdf5_summary_reduce(const json_t *bins, json_t **out);

/* Units of the binned text forms (the reference's --bytes ... --tibs). */
enum tokio_hdf5_units {
    TOKIO_UNITS_BYTE,
    TOKIO_UNITS_KIB,
    TOKIO_UNITS_MIB,
    TOKIO_UNITS_GIB,        /* the reference's default */
    TOKIO_UNITS_TIB
};

/** The column headings line of the binned table. */
TOKIO_API int tokio_hdf5_summary_print_header(FILE *fp,
                                              enum tokio_hdf5_units units);

/**
 * One line per bin, in time order: start, end, bytes read and written,
 * CPU averages and maxima (blank where absent), percent of OST data
 * missing.
 * @return TOKIO_OK, TOKIO_EINVAL (a bin lacks the OST keys), TOKIO_EIO.
 */
TOKIO_API int tokio_hdf5_summary_print_bins(FILE *fp, const json_t *bins,
                                            enum tokio_hdf5_units units);

/**
 * The reference's --summary text of a tokio_hdf5_summary_reduce()
 * result: totals read and written, then OSS and MDS CPU where known.
 * @return TOKIO_OK, TOKIO_EINVAL, TOKIO_EIO.
 */
TOKIO_API int tokio_hdf5_summary_print_totals(FILE *fp, const json_t *totals,
                                              enum tokio_hdf5_units units);

#endif
