/*
 * tokio/connectors/nersc_isdct.h - the counters of Intel data-center SSDs
 * (burst-buffer NVMe drives) as NERSC collects them daily: every node
 * runs Intel's ISDCT tool (`isdct show -a`, `-smart`, `-sensor`,
 * `-performance`, `-smarthealthinfo`, ...), and the text outputs of a node
 * are gathered in a folder named after it (nid01234/ssd0_smart.txt), the
 * folders in a tarball, optionally with an empty timestamp_YYYYmmddHHMMSS
 * file.
 * Mirrors tokio.connectors.nersc_isdct.NerscIsdct, and the reductions of
 * the reference's compare_isdct tool.
 *
 * A dump is a JSON object keyed by drive serial number; each drive's
 * object holds its counters under snake_case names ("DataUnitsRead" ->
 * "data_units_read", SMART register F4's raw value ->
 * "smart_nand_bytes_written_raw"), values recast to integers, reals,
 * booleans or kept as text, plus "node_name", "timestamp" (seconds since
 * the epoch), "*_unit" for counters printed with a unit, and the
 * synthesized "*_bytes" and "write_amplification_factor".
 */
#ifndef TOKIO_CONNECTORS_NERSC_ISDCT_H
#define TOKIO_CONNECTORS_NERSC_ISDCT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "tokio/common.h"

struct tokio_nersc_isdct;

/**
 * Read an ISDCT dump: a folder of per-node folders, a tar archive of one
 * (plain, gzip or bzip2), or a dump saved as JSON (plain or compressed;
 * "-" is standard input).
 * @param[out] out  the dump; free with tokio_nersc_isdct_free().  NULL on
 *                  failure.
 * @return TOKIO_OK, TOKIO_EIO (missing or unreadable), TOKIO_EFORMAT (a
 *         garbled line: the message names the member, as ARCHIVE/MEMBER,
 *         and the line; bad JSON: file, line and column; a single text
 *         file), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_isdct_open(struct tokio_nersc_isdct **out,
                                     const char *path);

/**
 * As tokio_nersc_isdct_open() over `len` bytes at `buf` (a tar archive or
 * JSON, either possibly compressed; not kept), named `name` (may be NULL)
 * in messages.  Members' node names come from their folder, as from a
 * file.
 */
TOKIO_API int tokio_nersc_isdct_open_mem(struct tokio_nersc_isdct **out,
                                         const void *buf, size_t len,
                                         const char *name);

/**
 * Build a dump from its JSON form (borrowed): an object keyed by serial
 * number whose values are objects of integer, real, string, boolean or
 * null counters.  The synthesized counters are computed again, as the
 * reference does on loading.
 * @return TOKIO_OK, TOKIO_EFORMAT (the message names the drive and
 *         counter), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_isdct_from_json(struct tokio_nersc_isdct **out,
                                          const json_t *json);

/** Number of drives (serial numbers) in the dump. */
TOKIO_API size_t tokio_nersc_isdct_count(const struct tokio_nersc_isdct *d);

/**
 * The counters of drive `serial` (an object, borrowed until `d` is
 * freed), or NULL when the dump has no such drive.
 */
TOKIO_API const json_t *tokio_nersc_isdct_device(
    const struct tokio_nersc_isdct *d, const char *serial);

/**
 * The dump as the reference's JSON cache (see above): a new reference in
 * `*out` to the dump's own object (read it, do not change it), drives and
 * counters in the order they were first read.  The reference's
 * save_cache() is tokio_json_write(json, fp, 0): one line, no final
 * newline.
 * @return TOKIO_OK.
 */
TOKIO_API int tokio_nersc_isdct_to_json(const struct tokio_nersc_isdct *d,
                                        json_t **out);

/**
 * Write the dump as the reference's to_dataframe().to_csv(): one row per
 * drive indexed by "serial_number", a column per counter (first-seen
 * order), cells typed per column as pandas infers them (a numeric column
 * with a gap is real: "18.0").  With `only_numeric`, "node_name" and then,
 * sorted, the integer and real columns whose values are not all the same.
 * @return TOKIO_OK, TOKIO_EIO, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_isdct_write_csv(const struct tokio_nersc_isdct *d,
                                          FILE *fp, int only_numeric);

/**
 * What changed from `old_dump` to `new_dump`, as the reference's
 * new.diff(old): {"added_devices": [...], "removed_devices": [...],
 * "devices": {serial: {counter: change}}}, numbers subtracted, changed
 * text as "+++NEW ---OLD" ("" if unchanged).  Without `report_zeros`,
 * unchanged counters are left out.  A non-numeric endurance_analyzer is
 * skipped, as there.
 * @param[out] out  a new reference.
 * @return TOKIO_OK, TOKIO_EFORMAT (a counter is a number in one dump and
 *         not in the other: the message names drive and counter),
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_isdct_diff(const struct tokio_nersc_isdct *old_dump,
                                     const struct tokio_nersc_isdct *new_dump,
                                     int report_zeros, json_t **out);

/**
 * The diff with every counter whose name ends in "_bytes" converted to
 * GiB (times 2^-30), "_bytes" becoming "_gibs" in its name, as
 * compare_isdct --gibs.  `diff` is borrowed; `*out` a new reference.
 * @return TOKIO_OK, TOKIO_EFORMAT (such a counter is not a number),
 *         TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_isdct_diff_gibs(const json_t *diff, json_t **out);

/**
 * The diff reduced over drives, as compare_isdct's default output:
 * "sum_X", "ave_X", "min_X", "max_X" for every numeric counter X and
 * "count_X" (drives reporting X) for every counter.  `*out` is a new
 * reference.  @return TOKIO_OK, TOKIO_EFORMAT (not a diff, or a sum out
 * of range), TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_isdct_reduce_diff(const json_t *diff,
                                            json_t **out);

/**
 * Write the text of compare_isdct --summary for `diff` (borrowed), the
 * diff from `old_dump` to `new_dump` (in GiB or not): the two dumps'
 * times (local time), drives whose error counters changed, drives
 * removed and installed, and the total read, written and the worst write
 * amplification.
 * @return TOKIO_OK, TOKIO_EFORMAT (a dump is empty or a drive lacks its
 *         node_name or timestamp), TOKIO_EIO, TOKIO_ENOMEM.
 */
TOKIO_API int tokio_nersc_isdct_write_summary(
    const struct tokio_nersc_isdct *old_dump,
    const struct tokio_nersc_isdct *new_dump, const json_t *diff, FILE *fp);

/** Release the dump; NULL is fine. */
TOKIO_API void tokio_nersc_isdct_free(struct tokio_nersc_isdct *d);

#endif
