/*
 * tokio/tools/lfsstatus.h - how full a Lustre file system was, and how
 * many of its OSTs were failed over, at a given time (tokio.tools.lfsstatus
 * in the reference), from the site's TTS files or NERSC lfsstate
 * histories.
 */
#ifndef TOKIO_TOOLS_LFSSTATUS_H
#define TOKIO_TOOLS_LFSSTATUS_H

#include <jansson.h>
#include <stdint.h>

#include "tokio/common.h"

struct tokio_config;

/**
 * Summary of OST fullness of `file_system` at `when` (epoch), from the
 * snapshot immediately preceding it (the first snapshot when all follow
 * it): ost_count, ost_avg_full_kib, ost_avg_full_pct, ost_least_full_*
 * and ost_most_full_* (kib, pct, name, id), ost_actual_timestamp,
 * ost_requested_timestamp and, unless it was the last snapshot,
 * ost_next_timestamp.
 *
 * With `cache_file`, that history is read.  Else the providers of the
 * site's lfsstatus_fullness_providers (default ["hdf5", "nersc_lfsstate"])
 * are tried in turn until one has data: "hdf5" reads /fullness/bytes and
 * /fullness/bytestotal of the TTS files hdf5_files names for
 * `file_system` (the sample nearest `when` within an hour, missing cells
 * filled from the previous sample, else the next; passed over without
 * hdf5_files); "nersc_lfsstate" reads the files named by
 * lfsstatus_fullness_files for the day before `when` to an hour after,
 * with a logical name (scratch2) mapped through fsname_to_backend_name
 * (snx11035).
 *
 * @param cfg  the site configuration; may be NULL with `cache_file`.
 * @param[out] out  a new reference; NULL on failure.
 * @return TOKIO_OK; TOKIO_ENOTFOUND (no provider has data, no
 *         snapshot, the file system absent from the snapshot, no OST);
 *         TOKIO_EINVAL (no usable provider, template missing);
 *         TOKIO_EFORMAT (a TTS column naming no OST index); the statuses
 *         of tokio_nersc_lfsstate_open() and of reading the TTS files.
 */
TOKIO_API int tokio_lfsstatus_get_fullness(json_t **out,
                                           const struct tokio_config *cfg,
                                           const char *file_system,
                                           int64_t when,
                                           const char *cache_file);

/**
 * As tokio_lfsstatus_get_fullness(), for failovers, from the OST map
 * history (lfsstatus_map_files): ost_overloaded_oss_count,
 * ost_overloaded_ost_count, ost_avg_overloaded_ost_per_oss,
 * ost_avg_overloaded_overload_factor and the timestamps.
 */
TOKIO_API int tokio_lfsstatus_get_failures(json_t **out,
                                           const struct tokio_config *cfg,
                                           const char *file_system,
                                           int64_t when,
                                           const char *cache_file);

#endif
