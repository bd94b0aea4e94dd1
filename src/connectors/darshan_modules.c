/*
 * src/connectors/darshan_modules.c - the record layouts of every module
 * darshan-util 3.5.0 knows, their up-conversion from older record-format
 * versions to the current one, and how darshan-parser --base prints them.
 *
 * Facts come from the counter lists of the include/darshan-*-log-format.h
 * headers of darshan 3.5.0 (darshan-hpc/darshan at 45bcba8e) and the fact
 * sheet ../shared/notes/darshan-log-format.md beside the project
 * (sections 7-10, 16).  darshan.c holds the container; this file sees
 * only one decompressed module region at a time.
 */
#include "tokio/connectors/darshan.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "connectors/darshan_private.h"
#include "connectors/darshan_text.h"
#include "core/alloc.h"

/*
 * Counter names, in list order (X-macro lists of the 3.5.0 headers,
 * without their *_NUM_INDICES sentinels).
 */
/* POSIX_COUNTERS (69) */
static const char *const posix_i[] = {
    "POSIX_OPENS", "POSIX_FILENOS", "POSIX_DUPS", "POSIX_READS",
    "POSIX_WRITES", "POSIX_SEEKS", "POSIX_STATS", "POSIX_MMAPS",
    "POSIX_FSYNCS", "POSIX_FDSYNCS", "POSIX_RENAME_SOURCES",
    "POSIX_RENAME_TARGETS", "POSIX_RENAMED_FROM", "POSIX_MODE",
    "POSIX_BYTES_READ", "POSIX_BYTES_WRITTEN", "POSIX_MAX_BYTE_READ",
    "POSIX_MAX_BYTE_WRITTEN", "POSIX_CONSEC_READS", "POSIX_CONSEC_WRITES",
    "POSIX_SEQ_READS", "POSIX_SEQ_WRITES", "POSIX_RW_SWITCHES",
    "POSIX_MEM_NOT_ALIGNED", "POSIX_MEM_ALIGNMENT", "POSIX_FILE_NOT_ALIGNED",
    "POSIX_FILE_ALIGNMENT", "POSIX_MAX_READ_TIME_SIZE",
    "POSIX_MAX_WRITE_TIME_SIZE", "POSIX_SIZE_READ_0_100",
    "POSIX_SIZE_READ_100_1K", "POSIX_SIZE_READ_1K_10K",
    "POSIX_SIZE_READ_10K_100K", "POSIX_SIZE_READ_100K_1M",
    "POSIX_SIZE_READ_1M_4M", "POSIX_SIZE_READ_4M_10M",
    "POSIX_SIZE_READ_10M_100M", "POSIX_SIZE_READ_100M_1G",
    "POSIX_SIZE_READ_1G_PLUS", "POSIX_SIZE_WRITE_0_100",
    "POSIX_SIZE_WRITE_100_1K", "POSIX_SIZE_WRITE_1K_10K",
    "POSIX_SIZE_WRITE_10K_100K", "POSIX_SIZE_WRITE_100K_1M",
    "POSIX_SIZE_WRITE_1M_4M", "POSIX_SIZE_WRITE_4M_10M",
    "POSIX_SIZE_WRITE_10M_100M", "POSIX_SIZE_WRITE_100M_1G",
    "POSIX_SIZE_WRITE_1G_PLUS", "POSIX_STRIDE1_STRIDE", "POSIX_STRIDE2_STRIDE",
    "POSIX_STRIDE3_STRIDE", "POSIX_STRIDE4_STRIDE", "POSIX_STRIDE1_COUNT",
    "POSIX_STRIDE2_COUNT", "POSIX_STRIDE3_COUNT", "POSIX_STRIDE4_COUNT",
    "POSIX_ACCESS1_ACCESS", "POSIX_ACCESS2_ACCESS", "POSIX_ACCESS3_ACCESS",
    "POSIX_ACCESS4_ACCESS", "POSIX_ACCESS1_COUNT", "POSIX_ACCESS2_COUNT",
    "POSIX_ACCESS3_COUNT", "POSIX_ACCESS4_COUNT", "POSIX_FASTEST_RANK",
    "POSIX_FASTEST_RANK_BYTES", "POSIX_SLOWEST_RANK",
    "POSIX_SLOWEST_RANK_BYTES",
};
/* POSIX_F_COUNTERS (17) */
static const char *const posix_f[] = {
    "POSIX_F_OPEN_START_TIMESTAMP", "POSIX_F_READ_START_TIMESTAMP",
    "POSIX_F_WRITE_START_TIMESTAMP", "POSIX_F_CLOSE_START_TIMESTAMP",
    "POSIX_F_OPEN_END_TIMESTAMP", "POSIX_F_READ_END_TIMESTAMP",
    "POSIX_F_WRITE_END_TIMESTAMP", "POSIX_F_CLOSE_END_TIMESTAMP",
    "POSIX_F_READ_TIME", "POSIX_F_WRITE_TIME", "POSIX_F_META_TIME",
    "POSIX_F_MAX_READ_TIME", "POSIX_F_MAX_WRITE_TIME",
    "POSIX_F_FASTEST_RANK_TIME", "POSIX_F_SLOWEST_RANK_TIME",
    "POSIX_F_VARIANCE_RANK_TIME", "POSIX_F_VARIANCE_RANK_BYTES",
};
/* MPIIO_COUNTERS (51) */
static const char *const mpiio_i[] = {
    "MPIIO_INDEP_OPENS", "MPIIO_COLL_OPENS", "MPIIO_INDEP_READS",
    "MPIIO_INDEP_WRITES", "MPIIO_COLL_READS", "MPIIO_COLL_WRITES",
    "MPIIO_SPLIT_READS", "MPIIO_SPLIT_WRITES", "MPIIO_NB_READS",
    "MPIIO_NB_WRITES", "MPIIO_SYNCS", "MPIIO_HINTS", "MPIIO_VIEWS",
    "MPIIO_MODE", "MPIIO_BYTES_READ", "MPIIO_BYTES_WRITTEN",
    "MPIIO_RW_SWITCHES", "MPIIO_MAX_READ_TIME_SIZE",
    "MPIIO_MAX_WRITE_TIME_SIZE", "MPIIO_SIZE_READ_AGG_0_100",
    "MPIIO_SIZE_READ_AGG_100_1K", "MPIIO_SIZE_READ_AGG_1K_10K",
    "MPIIO_SIZE_READ_AGG_10K_100K", "MPIIO_SIZE_READ_AGG_100K_1M",
    "MPIIO_SIZE_READ_AGG_1M_4M", "MPIIO_SIZE_READ_AGG_4M_10M",
    "MPIIO_SIZE_READ_AGG_10M_100M", "MPIIO_SIZE_READ_AGG_100M_1G",
    "MPIIO_SIZE_READ_AGG_1G_PLUS", "MPIIO_SIZE_WRITE_AGG_0_100",
    "MPIIO_SIZE_WRITE_AGG_100_1K", "MPIIO_SIZE_WRITE_AGG_1K_10K",
    "MPIIO_SIZE_WRITE_AGG_10K_100K", "MPIIO_SIZE_WRITE_AGG_100K_1M",
    "MPIIO_SIZE_WRITE_AGG_1M_4M", "MPIIO_SIZE_WRITE_AGG_4M_10M",
    "MPIIO_SIZE_WRITE_AGG_10M_100M", "MPIIO_SIZE_WRITE_AGG_100M_1G",
    "MPIIO_SIZE_WRITE_AGG_1G_PLUS", "MPIIO_ACCESS1_ACCESS",
    "MPIIO_ACCESS2_ACCESS", "MPIIO_ACCESS3_ACCESS", "MPIIO_ACCESS4_ACCESS",
    "MPIIO_ACCESS1_COUNT", "MPIIO_ACCESS2_COUNT", "MPIIO_ACCESS3_COUNT",
    "MPIIO_ACCESS4_COUNT", "MPIIO_FASTEST_RANK", "MPIIO_FASTEST_RANK_BYTES",
    "MPIIO_SLOWEST_RANK", "MPIIO_SLOWEST_RANK_BYTES",
};
/* MPIIO_F_COUNTERS (17) */
static const char *const mpiio_f[] = {
    "MPIIO_F_OPEN_START_TIMESTAMP", "MPIIO_F_READ_START_TIMESTAMP",
    "MPIIO_F_WRITE_START_TIMESTAMP", "MPIIO_F_CLOSE_START_TIMESTAMP",
    "MPIIO_F_OPEN_END_TIMESTAMP", "MPIIO_F_READ_END_TIMESTAMP",
    "MPIIO_F_WRITE_END_TIMESTAMP", "MPIIO_F_CLOSE_END_TIMESTAMP",
    "MPIIO_F_READ_TIME", "MPIIO_F_WRITE_TIME", "MPIIO_F_META_TIME",
    "MPIIO_F_MAX_READ_TIME", "MPIIO_F_MAX_WRITE_TIME",
    "MPIIO_F_FASTEST_RANK_TIME", "MPIIO_F_SLOWEST_RANK_TIME",
    "MPIIO_F_VARIANCE_RANK_TIME", "MPIIO_F_VARIANCE_RANK_BYTES",
};
/* H5F_COUNTERS (3) */
static const char *const h5f_i[] = {
    "H5F_OPENS", "H5F_FLUSHES", "H5F_USE_MPIIO",
};
/* H5F_F_COUNTERS (5) */
static const char *const h5f_f[] = {
    "H5F_F_OPEN_START_TIMESTAMP", "H5F_F_CLOSE_START_TIMESTAMP",
    "H5F_F_OPEN_END_TIMESTAMP", "H5F_F_CLOSE_END_TIMESTAMP", "H5F_F_META_TIME",
};
/* H5D_COUNTERS (94) */
static const char *const h5d_i[] = {
    "H5D_OPENS", "H5D_READS", "H5D_WRITES", "H5D_FLUSHES", "H5D_BYTES_READ",
    "H5D_BYTES_WRITTEN", "H5D_RW_SWITCHES", "H5D_REGULAR_HYPERSLAB_SELECTS",
    "H5D_IRREGULAR_HYPERSLAB_SELECTS", "H5D_POINT_SELECTS",
    "H5D_MAX_READ_TIME_SIZE", "H5D_MAX_WRITE_TIME_SIZE",
    "H5D_SIZE_READ_AGG_0_100", "H5D_SIZE_READ_AGG_100_1K",
    "H5D_SIZE_READ_AGG_1K_10K", "H5D_SIZE_READ_AGG_10K_100K",
    "H5D_SIZE_READ_AGG_100K_1M", "H5D_SIZE_READ_AGG_1M_4M",
    "H5D_SIZE_READ_AGG_4M_10M", "H5D_SIZE_READ_AGG_10M_100M",
    "H5D_SIZE_READ_AGG_100M_1G", "H5D_SIZE_READ_AGG_1G_PLUS",
    "H5D_SIZE_WRITE_AGG_0_100", "H5D_SIZE_WRITE_AGG_100_1K",
    "H5D_SIZE_WRITE_AGG_1K_10K", "H5D_SIZE_WRITE_AGG_10K_100K",
    "H5D_SIZE_WRITE_AGG_100K_1M", "H5D_SIZE_WRITE_AGG_1M_4M",
    "H5D_SIZE_WRITE_AGG_4M_10M", "H5D_SIZE_WRITE_AGG_10M_100M",
    "H5D_SIZE_WRITE_AGG_100M_1G", "H5D_SIZE_WRITE_AGG_1G_PLUS",
    "H5D_ACCESS1_ACCESS", "H5D_ACCESS1_LENGTH_D1", "H5D_ACCESS1_LENGTH_D2",
    "H5D_ACCESS1_LENGTH_D3", "H5D_ACCESS1_LENGTH_D4", "H5D_ACCESS1_LENGTH_D5",
    "H5D_ACCESS1_STRIDE_D1", "H5D_ACCESS1_STRIDE_D2", "H5D_ACCESS1_STRIDE_D3",
    "H5D_ACCESS1_STRIDE_D4", "H5D_ACCESS1_STRIDE_D5", "H5D_ACCESS2_ACCESS",
    "H5D_ACCESS2_LENGTH_D1", "H5D_ACCESS2_LENGTH_D2", "H5D_ACCESS2_LENGTH_D3",
    "H5D_ACCESS2_LENGTH_D4", "H5D_ACCESS2_LENGTH_D5", "H5D_ACCESS2_STRIDE_D1",
    "H5D_ACCESS2_STRIDE_D2", "H5D_ACCESS2_STRIDE_D3", "H5D_ACCESS2_STRIDE_D4",
    "H5D_ACCESS2_STRIDE_D5", "H5D_ACCESS3_ACCESS", "H5D_ACCESS3_LENGTH_D1",
    "H5D_ACCESS3_LENGTH_D2", "H5D_ACCESS3_LENGTH_D3", "H5D_ACCESS3_LENGTH_D4",
    "H5D_ACCESS3_LENGTH_D5", "H5D_ACCESS3_STRIDE_D1", "H5D_ACCESS3_STRIDE_D2",
    "H5D_ACCESS3_STRIDE_D3", "H5D_ACCESS3_STRIDE_D4", "H5D_ACCESS3_STRIDE_D5",
    "H5D_ACCESS4_ACCESS", "H5D_ACCESS4_LENGTH_D1", "H5D_ACCESS4_LENGTH_D2",
    "H5D_ACCESS4_LENGTH_D3", "H5D_ACCESS4_LENGTH_D4", "H5D_ACCESS4_LENGTH_D5",
    "H5D_ACCESS4_STRIDE_D1", "H5D_ACCESS4_STRIDE_D2", "H5D_ACCESS4_STRIDE_D3",
    "H5D_ACCESS4_STRIDE_D4", "H5D_ACCESS4_STRIDE_D5", "H5D_ACCESS1_COUNT",
    "H5D_ACCESS2_COUNT", "H5D_ACCESS3_COUNT", "H5D_ACCESS4_COUNT",
    "H5D_DATASPACE_NDIMS", "H5D_DATASPACE_NPOINTS", "H5D_DATATYPE_SIZE",
    "H5D_CHUNK_SIZE_D1", "H5D_CHUNK_SIZE_D2", "H5D_CHUNK_SIZE_D3",
    "H5D_CHUNK_SIZE_D4", "H5D_CHUNK_SIZE_D5", "H5D_USE_MPIIO_COLLECTIVE",
    "H5D_USE_DEPRECATED", "H5D_FASTEST_RANK", "H5D_FASTEST_RANK_BYTES",
    "H5D_SLOWEST_RANK", "H5D_SLOWEST_RANK_BYTES",
};
/* H5D_F_COUNTERS (17) */
static const char *const h5d_f[] = {
    "H5D_F_OPEN_START_TIMESTAMP", "H5D_F_READ_START_TIMESTAMP",
    "H5D_F_WRITE_START_TIMESTAMP", "H5D_F_CLOSE_START_TIMESTAMP",
    "H5D_F_OPEN_END_TIMESTAMP", "H5D_F_READ_END_TIMESTAMP",
    "H5D_F_WRITE_END_TIMESTAMP", "H5D_F_CLOSE_END_TIMESTAMP",
    "H5D_F_READ_TIME", "H5D_F_WRITE_TIME", "H5D_F_META_TIME",
    "H5D_F_MAX_READ_TIME", "H5D_F_MAX_WRITE_TIME", "H5D_F_FASTEST_RANK_TIME",
    "H5D_F_SLOWEST_RANK_TIME", "H5D_F_VARIANCE_RANK_TIME",
    "H5D_F_VARIANCE_RANK_BYTES",
};
/* PNETCDF_FILE_COUNTERS (9) */
static const char *const ncfile_i[] = {
    "PNETCDF_FILE_CREATES", "PNETCDF_FILE_OPENS", "PNETCDF_FILE_REDEFS",
    "PNETCDF_FILE_INDEP_WAITS", "PNETCDF_FILE_COLL_WAITS",
    "PNETCDF_FILE_SYNCS", "PNETCDF_FILE_BYTES_READ",
    "PNETCDF_FILE_BYTES_WRITTEN", "PNETCDF_FILE_WAIT_FAILURES",
};
/* PNETCDF_FILE_F_COUNTERS (8) */
static const char *const ncfile_f[] = {
    "PNETCDF_FILE_F_OPEN_START_TIMESTAMP",
    "PNETCDF_FILE_F_CLOSE_START_TIMESTAMP",
    "PNETCDF_FILE_F_WAIT_START_TIMESTAMP", "PNETCDF_FILE_F_OPEN_END_TIMESTAMP",
    "PNETCDF_FILE_F_CLOSE_END_TIMESTAMP", "PNETCDF_FILE_F_WAIT_END_TIMESTAMP",
    "PNETCDF_FILE_F_META_TIME", "PNETCDF_FILE_F_WAIT_TIME",
};
/* PNETCDF_VAR_COUNTERS (120) */
static const char *const ncvar_i[] = {
    "PNETCDF_VAR_OPENS", "PNETCDF_VAR_INDEP_READS", "PNETCDF_VAR_INDEP_WRITES",
    "PNETCDF_VAR_COLL_READS", "PNETCDF_VAR_COLL_WRITES",
    "PNETCDF_VAR_NB_READS", "PNETCDF_VAR_NB_WRITES", "PNETCDF_VAR_BYTES_READ",
    "PNETCDF_VAR_BYTES_WRITTEN", "PNETCDF_VAR_RW_SWITCHES",
    "PNETCDF_VAR_PUT_VAR", "PNETCDF_VAR_PUT_VAR1", "PNETCDF_VAR_PUT_VARA",
    "PNETCDF_VAR_PUT_VARS", "PNETCDF_VAR_PUT_VARM", "PNETCDF_VAR_PUT_VARN",
    "PNETCDF_VAR_PUT_VARD", "PNETCDF_VAR_GET_VAR", "PNETCDF_VAR_GET_VAR1",
    "PNETCDF_VAR_GET_VARA", "PNETCDF_VAR_GET_VARS", "PNETCDF_VAR_GET_VARM",
    "PNETCDF_VAR_GET_VARN", "PNETCDF_VAR_GET_VARD", "PNETCDF_VAR_IPUT_VAR",
    "PNETCDF_VAR_IPUT_VAR1", "PNETCDF_VAR_IPUT_VARA", "PNETCDF_VAR_IPUT_VARS",
    "PNETCDF_VAR_IPUT_VARM", "PNETCDF_VAR_IPUT_VARN", "PNETCDF_VAR_IGET_VAR",
    "PNETCDF_VAR_IGET_VAR1", "PNETCDF_VAR_IGET_VARA", "PNETCDF_VAR_IGET_VARS",
    "PNETCDF_VAR_IGET_VARM", "PNETCDF_VAR_IGET_VARN", "PNETCDF_VAR_BPUT_VAR",
    "PNETCDF_VAR_BPUT_VAR1", "PNETCDF_VAR_BPUT_VARA", "PNETCDF_VAR_BPUT_VARS",
    "PNETCDF_VAR_BPUT_VARM", "PNETCDF_VAR_BPUT_VARN",
    "PNETCDF_VAR_MAX_READ_TIME_SIZE", "PNETCDF_VAR_MAX_WRITE_TIME_SIZE",
    "PNETCDF_VAR_SIZE_READ_AGG_0_100", "PNETCDF_VAR_SIZE_READ_AGG_100_1K",
    "PNETCDF_VAR_SIZE_READ_AGG_1K_10K", "PNETCDF_VAR_SIZE_READ_AGG_10K_100K",
    "PNETCDF_VAR_SIZE_READ_AGG_100K_1M", "PNETCDF_VAR_SIZE_READ_AGG_1M_4M",
    "PNETCDF_VAR_SIZE_READ_AGG_4M_10M", "PNETCDF_VAR_SIZE_READ_AGG_10M_100M",
    "PNETCDF_VAR_SIZE_READ_AGG_100M_1G", "PNETCDF_VAR_SIZE_READ_AGG_1G_PLUS",
    "PNETCDF_VAR_SIZE_WRITE_AGG_0_100", "PNETCDF_VAR_SIZE_WRITE_AGG_100_1K",
    "PNETCDF_VAR_SIZE_WRITE_AGG_1K_10K", "PNETCDF_VAR_SIZE_WRITE_AGG_10K_100K",
    "PNETCDF_VAR_SIZE_WRITE_AGG_100K_1M", "PNETCDF_VAR_SIZE_WRITE_AGG_1M_4M",
    "PNETCDF_VAR_SIZE_WRITE_AGG_4M_10M", "PNETCDF_VAR_SIZE_WRITE_AGG_10M_100M",
    "PNETCDF_VAR_SIZE_WRITE_AGG_100M_1G", "PNETCDF_VAR_SIZE_WRITE_AGG_1G_PLUS",
    "PNETCDF_VAR_ACCESS1_ACCESS", "PNETCDF_VAR_ACCESS1_LENGTH_D1",
    "PNETCDF_VAR_ACCESS1_LENGTH_D2", "PNETCDF_VAR_ACCESS1_LENGTH_D3",
    "PNETCDF_VAR_ACCESS1_LENGTH_D4", "PNETCDF_VAR_ACCESS1_LENGTH_D5",
    "PNETCDF_VAR_ACCESS1_STRIDE_D1", "PNETCDF_VAR_ACCESS1_STRIDE_D2",
    "PNETCDF_VAR_ACCESS1_STRIDE_D3", "PNETCDF_VAR_ACCESS1_STRIDE_D4",
    "PNETCDF_VAR_ACCESS1_STRIDE_D5", "PNETCDF_VAR_ACCESS2_ACCESS",
    "PNETCDF_VAR_ACCESS2_LENGTH_D1", "PNETCDF_VAR_ACCESS2_LENGTH_D2",
    "PNETCDF_VAR_ACCESS2_LENGTH_D3", "PNETCDF_VAR_ACCESS2_LENGTH_D4",
    "PNETCDF_VAR_ACCESS2_LENGTH_D5", "PNETCDF_VAR_ACCESS2_STRIDE_D1",
    "PNETCDF_VAR_ACCESS2_STRIDE_D2", "PNETCDF_VAR_ACCESS2_STRIDE_D3",
    "PNETCDF_VAR_ACCESS2_STRIDE_D4", "PNETCDF_VAR_ACCESS2_STRIDE_D5",
    "PNETCDF_VAR_ACCESS3_ACCESS", "PNETCDF_VAR_ACCESS3_LENGTH_D1",
    "PNETCDF_VAR_ACCESS3_LENGTH_D2", "PNETCDF_VAR_ACCESS3_LENGTH_D3",
    "PNETCDF_VAR_ACCESS3_LENGTH_D4", "PNETCDF_VAR_ACCESS3_LENGTH_D5",
    "PNETCDF_VAR_ACCESS3_STRIDE_D1", "PNETCDF_VAR_ACCESS3_STRIDE_D2",
    "PNETCDF_VAR_ACCESS3_STRIDE_D3", "PNETCDF_VAR_ACCESS3_STRIDE_D4",
    "PNETCDF_VAR_ACCESS3_STRIDE_D5", "PNETCDF_VAR_ACCESS4_ACCESS",
    "PNETCDF_VAR_ACCESS4_LENGTH_D1", "PNETCDF_VAR_ACCESS4_LENGTH_D2",
    "PNETCDF_VAR_ACCESS4_LENGTH_D3", "PNETCDF_VAR_ACCESS4_LENGTH_D4",
    "PNETCDF_VAR_ACCESS4_LENGTH_D5", "PNETCDF_VAR_ACCESS4_STRIDE_D1",
    "PNETCDF_VAR_ACCESS4_STRIDE_D2", "PNETCDF_VAR_ACCESS4_STRIDE_D3",
    "PNETCDF_VAR_ACCESS4_STRIDE_D4", "PNETCDF_VAR_ACCESS4_STRIDE_D5",
    "PNETCDF_VAR_ACCESS1_COUNT", "PNETCDF_VAR_ACCESS2_COUNT",
    "PNETCDF_VAR_ACCESS3_COUNT", "PNETCDF_VAR_ACCESS4_COUNT",
    "PNETCDF_VAR_NDIMS", "PNETCDF_VAR_NPOINTS", "PNETCDF_VAR_DATATYPE_SIZE",
    "PNETCDF_VAR_IS_RECORD_VAR", "PNETCDF_VAR_FASTEST_RANK",
    "PNETCDF_VAR_FASTEST_RANK_BYTES", "PNETCDF_VAR_SLOWEST_RANK",
    "PNETCDF_VAR_SLOWEST_RANK_BYTES",
};
/* PNETCDF_VAR_F_COUNTERS (17) */
static const char *const ncvar_f[] = {
    "PNETCDF_VAR_F_OPEN_START_TIMESTAMP", "PNETCDF_VAR_F_READ_START_TIMESTAMP",
    "PNETCDF_VAR_F_WRITE_START_TIMESTAMP",
    "PNETCDF_VAR_F_CLOSE_START_TIMESTAMP", "PNETCDF_VAR_F_OPEN_END_TIMESTAMP",
    "PNETCDF_VAR_F_READ_END_TIMESTAMP", "PNETCDF_VAR_F_WRITE_END_TIMESTAMP",
    "PNETCDF_VAR_F_CLOSE_END_TIMESTAMP", "PNETCDF_VAR_F_READ_TIME",
    "PNETCDF_VAR_F_WRITE_TIME", "PNETCDF_VAR_F_META_TIME",
    "PNETCDF_VAR_F_MAX_READ_TIME", "PNETCDF_VAR_F_MAX_WRITE_TIME",
    "PNETCDF_VAR_F_FASTEST_RANK_TIME", "PNETCDF_VAR_F_SLOWEST_RANK_TIME",
    "PNETCDF_VAR_F_VARIANCE_RANK_TIME", "PNETCDF_VAR_F_VARIANCE_RANK_BYTES",
};
/* BGQ_COUNTERS (11) */
static const char *const bgq_i[] = {
    "BGQ_CSJOBID", "BGQ_NNODES", "BGQ_RANKSPERNODE", "BGQ_DDRPERNODE",
    "BGQ_INODES", "BGQ_ANODES", "BGQ_BNODES", "BGQ_CNODES", "BGQ_DNODES",
    "BGQ_ENODES", "BGQ_TORUSENABLED",
};
/* BGQ_F_COUNTERS (1) */
static const char *const bgq_f[] = {
    "BGQ_F_TIMESTAMP",
};
/* STDIO_COUNTERS (14) */
static const char *const stdio_i[] = {
    "STDIO_OPENS", "STDIO_FDOPENS", "STDIO_READS", "STDIO_WRITES",
    "STDIO_SEEKS", "STDIO_FLUSHES", "STDIO_BYTES_WRITTEN", "STDIO_BYTES_READ",
    "STDIO_MAX_BYTE_READ", "STDIO_MAX_BYTE_WRITTEN", "STDIO_FASTEST_RANK",
    "STDIO_FASTEST_RANK_BYTES", "STDIO_SLOWEST_RANK",
    "STDIO_SLOWEST_RANK_BYTES",
};
/* STDIO_F_COUNTERS (15) */
static const char *const stdio_f[] = {
    "STDIO_F_META_TIME", "STDIO_F_WRITE_TIME", "STDIO_F_READ_TIME",
    "STDIO_F_OPEN_START_TIMESTAMP", "STDIO_F_CLOSE_START_TIMESTAMP",
    "STDIO_F_WRITE_START_TIMESTAMP", "STDIO_F_READ_START_TIMESTAMP",
    "STDIO_F_OPEN_END_TIMESTAMP", "STDIO_F_CLOSE_END_TIMESTAMP",
    "STDIO_F_WRITE_END_TIMESTAMP", "STDIO_F_READ_END_TIMESTAMP",
    "STDIO_F_FASTEST_RANK_TIME", "STDIO_F_SLOWEST_RANK_TIME",
    "STDIO_F_VARIANCE_RANK_TIME", "STDIO_F_VARIANCE_RANK_BYTES",
};
/* MDHIM_COUNTERS (5) */
static const char *const mdhim_i[] = {
    "MDHIM_PUTS", "MDHIM_GETS", "MDHIM_PUT_MAX_SIZE", "MDHIM_GET_MAX_SIZE",
    "MDHIM_SERVERS",
};
/* MDHIM_F_COUNTERS (4) */
static const char *const mdhim_f[] = {
    "MDHIM_F_PUT_TIMESTAMP", "MDHIM_F_GET_TIMESTAMP",
    "MDHIM_F_PUT_MAX_DURATION", "MDHIM_F_GET_MAX_DURATION",
};
/* DFS_COUNTERS (52) */
static const char *const dfs_i[] = {
    "DFS_OPENS", "DFS_GLOBAL_OPENS", "DFS_LOOKUPS", "DFS_DUPS", "DFS_READS",
    "DFS_READXS", "DFS_WRITES", "DFS_WRITEXS", "DFS_NB_READS", "DFS_NB_WRITES",
    "DFS_GET_SIZES", "DFS_PUNCHES", "DFS_REMOVES", "DFS_STATS",
    "DFS_BYTES_READ", "DFS_BYTES_WRITTEN", "DFS_RW_SWITCHES",
    "DFS_MAX_READ_TIME_SIZE", "DFS_MAX_WRITE_TIME_SIZE", "DFS_SIZE_READ_0_100",
    "DFS_SIZE_READ_100_1K", "DFS_SIZE_READ_1K_10K", "DFS_SIZE_READ_10K_100K",
    "DFS_SIZE_READ_100K_1M", "DFS_SIZE_READ_1M_4M", "DFS_SIZE_READ_4M_10M",
    "DFS_SIZE_READ_10M_100M", "DFS_SIZE_READ_100M_1G", "DFS_SIZE_READ_1G_PLUS",
    "DFS_SIZE_WRITE_0_100", "DFS_SIZE_WRITE_100_1K", "DFS_SIZE_WRITE_1K_10K",
    "DFS_SIZE_WRITE_10K_100K", "DFS_SIZE_WRITE_100K_1M",
    "DFS_SIZE_WRITE_1M_4M", "DFS_SIZE_WRITE_4M_10M", "DFS_SIZE_WRITE_10M_100M",
    "DFS_SIZE_WRITE_100M_1G", "DFS_SIZE_WRITE_1G_PLUS", "DFS_ACCESS1_ACCESS",
    "DFS_ACCESS2_ACCESS", "DFS_ACCESS3_ACCESS", "DFS_ACCESS4_ACCESS",
    "DFS_ACCESS1_COUNT", "DFS_ACCESS2_COUNT", "DFS_ACCESS3_COUNT",
    "DFS_ACCESS4_COUNT", "DFS_CHUNK_SIZE", "DFS_FASTEST_RANK",
    "DFS_FASTEST_RANK_BYTES", "DFS_SLOWEST_RANK", "DFS_SLOWEST_RANK_BYTES",
};
/* DFS_F_COUNTERS (15) */
static const char *const dfs_f[] = {
    "DFS_F_OPEN_START_TIMESTAMP", "DFS_F_READ_START_TIMESTAMP",
    "DFS_F_WRITE_START_TIMESTAMP", "DFS_F_CLOSE_START_TIMESTAMP",
    "DFS_F_OPEN_END_TIMESTAMP", "DFS_F_READ_END_TIMESTAMP",
    "DFS_F_WRITE_END_TIMESTAMP", "DFS_F_CLOSE_END_TIMESTAMP",
    "DFS_F_READ_TIME", "DFS_F_WRITE_TIME", "DFS_F_META_TIME",
    "DFS_F_MAX_READ_TIME", "DFS_F_MAX_WRITE_TIME", "DFS_F_FASTEST_RANK_TIME",
    "DFS_F_SLOWEST_RANK_TIME",
};
/* DAOS_COUNTERS (64) */
static const char *const daos_i[] = {
    "DAOS_OBJ_OPENS", "DAOS_OBJ_FETCHES", "DAOS_OBJ_UPDATES",
    "DAOS_OBJ_PUNCHES", "DAOS_OBJ_DKEY_PUNCHES", "DAOS_OBJ_AKEY_PUNCHES",
    "DAOS_OBJ_DKEY_LISTS", "DAOS_OBJ_AKEY_LISTS", "DAOS_OBJ_RECX_LISTS",
    "DAOS_ARRAY_OPENS", "DAOS_ARRAY_READS", "DAOS_ARRAY_WRITES",
    "DAOS_ARRAY_GET_SIZES", "DAOS_ARRAY_SET_SIZES", "DAOS_ARRAY_STATS",
    "DAOS_ARRAY_PUNCHES", "DAOS_ARRAY_DESTROYS", "DAOS_KV_OPENS",
    "DAOS_KV_GETS", "DAOS_KV_PUTS", "DAOS_KV_REMOVES", "DAOS_KV_LISTS",
    "DAOS_KV_DESTROYS", "DAOS_NB_OPS", "DAOS_BYTES_READ", "DAOS_BYTES_WRITTEN",
    "DAOS_RW_SWITCHES", "DAOS_MAX_READ_TIME_SIZE", "DAOS_MAX_WRITE_TIME_SIZE",
    "DAOS_SIZE_READ_0_100", "DAOS_SIZE_READ_100_1K", "DAOS_SIZE_READ_1K_10K",
    "DAOS_SIZE_READ_10K_100K", "DAOS_SIZE_READ_100K_1M",
    "DAOS_SIZE_READ_1M_4M", "DAOS_SIZE_READ_4M_10M", "DAOS_SIZE_READ_10M_100M",
    "DAOS_SIZE_READ_100M_1G", "DAOS_SIZE_READ_1G_PLUS",
    "DAOS_SIZE_WRITE_0_100", "DAOS_SIZE_WRITE_100_1K",
    "DAOS_SIZE_WRITE_1K_10K", "DAOS_SIZE_WRITE_10K_100K",
    "DAOS_SIZE_WRITE_100K_1M", "DAOS_SIZE_WRITE_1M_4M",
    "DAOS_SIZE_WRITE_4M_10M", "DAOS_SIZE_WRITE_10M_100M",
    "DAOS_SIZE_WRITE_100M_1G", "DAOS_SIZE_WRITE_1G_PLUS",
    "DAOS_ACCESS1_ACCESS", "DAOS_ACCESS2_ACCESS", "DAOS_ACCESS3_ACCESS",
    "DAOS_ACCESS4_ACCESS", "DAOS_ACCESS1_COUNT", "DAOS_ACCESS2_COUNT",
    "DAOS_ACCESS3_COUNT", "DAOS_ACCESS4_COUNT", "DAOS_OBJ_OTYPE",
    "DAOS_ARRAY_CELL_SIZE", "DAOS_ARRAY_CHUNK_SIZE", "DAOS_FASTEST_RANK",
    "DAOS_FASTEST_RANK_BYTES", "DAOS_SLOWEST_RANK", "DAOS_SLOWEST_RANK_BYTES",
};
/* DAOS_F_COUNTERS (15) */
static const char *const daos_f[] = {
    "DAOS_F_OPEN_START_TIMESTAMP", "DAOS_F_READ_START_TIMESTAMP",
    "DAOS_F_WRITE_START_TIMESTAMP", "DAOS_F_CLOSE_START_TIMESTAMP",
    "DAOS_F_OPEN_END_TIMESTAMP", "DAOS_F_READ_END_TIMESTAMP",
    "DAOS_F_WRITE_END_TIMESTAMP", "DAOS_F_CLOSE_END_TIMESTAMP",
    "DAOS_F_READ_TIME", "DAOS_F_WRITE_TIME", "DAOS_F_META_TIME",
    "DAOS_F_MAX_READ_TIME", "DAOS_F_MAX_WRITE_TIME",
    "DAOS_F_FASTEST_RANK_TIME", "DAOS_F_SLOWEST_RANK_TIME",
};
/* NULL_COUNTERS (2) */
static const char *const null_i[] = {
    "NULL_FOOS", "NULL_FOO_MAX_DAT",
};
/* NULL_F_COUNTERS (2) */
static const char *const null_f[] = {
    "NULL_F_FOO_TIMESTAMP", "NULL_F_FOO_MAX_DURATION",
};
/* LUSTRE_COMP_COUNTERS (7) */
static const char *const lustre_comp[] = {
    "LUSTRE_COMP_STRIPE_SIZE", "LUSTRE_COMP_STRIPE_COUNT",
    "LUSTRE_COMP_STRIPE_PATTERN", "LUSTRE_COMP_FLAGS", "LUSTRE_COMP_EXT_START",
    "LUSTRE_COMP_EXT_END", "LUSTRE_COMP_MIRROR_ID",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Current record-format versions (darshan 3.5.0 headers, fact sheet §7;
 * DXT at the tree's HEAD, which also reads the older ones). */
struct modinfo {
    const char *name;           /* darshan_module_names[] */
    unsigned cur_ver;
    const char *const *inames;
    size_t ni;
    const char *const *fnames;
    size_t nf;
};

static const struct modinfo modinfo[TOKIO_DARSHAN_KNOWN_MODULES] = {
    { "NULL", 1, null_i, N(null_i), null_f, N(null_f) },
    { "POSIX", 4, posix_i, N(posix_i), posix_f, N(posix_f) },
    { "MPI-IO", 3, mpiio_i, N(mpiio_i), mpiio_f, N(mpiio_f) },
    { "H5F", 3, h5f_i, N(h5f_i), h5f_f, N(h5f_f) },
    { "H5D", 2, h5d_i, N(h5d_i), h5d_f, N(h5d_f) },
    { "PNETCDF_FILE", 3, ncfile_i, N(ncfile_i), ncfile_f, N(ncfile_f) },
    { "PNETCDF_VAR", 1, ncvar_i, N(ncvar_i), ncvar_f, N(ncvar_f) },
    { "BG/Q", 2, bgq_i, N(bgq_i), bgq_f, N(bgq_f) },
    { "LUSTRE", 2, NULL, 0, NULL, 0 },
    { "STDIO", 2, stdio_i, N(stdio_i), stdio_f, N(stdio_f) },
    { "DXT_POSIX", 2, NULL, 0, NULL, 0 },
    { "DXT_MPIIO", 3, NULL, 0, NULL, 0 },
    { "MDHIM", 1, mdhim_i, N(mdhim_i), mdhim_f, N(mdhim_f) },
    { "APXC", 1, NULL, 0, NULL, 0 },
    { "APMPI", 1, NULL, 0, NULL, 0 },
    { "HEATMAP", 1, NULL, 0, NULL, 0 },
    { "DFS", 1, dfs_i, N(dfs_i), dfs_f, N(dfs_f) },
    { "DAOS", 1, daos_i, N(daos_i), daos_f, N(daos_f) },
};

/* Largest counter lists of any module (PNETCDF_VAR ints, 17 doubles). */
#define MAX_INTS 120
#define MAX_DBLS 17

/* On-disk sizes (fact sheet §7-8; base record = id + rank = 16 bytes). */
#define BASE_SIZE 16
#define DXT_HEADER_SIZE 104
#define DXT_HOSTNAME_LEN 64
#define LUSTRE_COMP_SIZE 72
#define LUSTRE_POOL_LEN 16
#define HEATMAP_HEADER_SIZE 48
#define MDHIM_FIXED_SIZE 88
#define UUID_LEN 16

/* ---- pools ---------------------------------------------------------- */

/* Make room for `want` items in all (no-op when there is room already). */
static int
pool_reserve(struct dpool *p, size_t want, size_t size)
{
    if (want <= p->cap)
        return TOKIO_OK;
    unsigned char *d = tokio__reallocarray(p->data, want, size);
    if (d == NULL)
        return TOKIO_ENOMEM;
    p->data = d;
    p->cap = want;
    return TOKIO_OK;
}

/* Room for `count` more items: grows by doubling (at least), for when a
 * hint given to pool_reserve() fell short. */
static int
pool_room(struct dpool *p, size_t count, size_t size)
{
    if (count <= p->cap - p->n)
        return TOKIO_OK;
    size_t cap = p->cap ? p->cap * 2 : 64;
    if (cap < p->n + count)
        cap = p->n + count;
    return pool_reserve(p, cap, size);
}

/* Append `count` items with one copy. */
static int
pool_push_n(struct dpool *p, const void *items, size_t count, size_t size)
{
    int rc = pool_room(p, count, size);

    if (rc < 0)
        return rc;
    if (count > 0)
        memcpy(p->data + p->n * size, items, count * size);
    p->n += count;
    return TOKIO_OK;
}

static int
pool_push(struct dpool *p, const void *item, size_t size, size_t *off_out)
{
    if (off_out != NULL)
        *off_out = p->n;
    return pool_push_n(p, item, 1, size);
}

static void
pool_free(struct dpool *p)
{
    free(p->data);
    memset(p, 0, sizeof(*p));
}

void
tokio__darshan_module_clear(struct dmodule *m)
{
    pool_free(&m->recs);
    pool_free(&m->ints);
    pool_free(&m->dbls);
    pool_free(&m->comps);
    pool_free(&m->segs);
    pool_free(&m->bytes);
    free(m->pub);
    m->pub = NULL;
    m->n_pub = 0;
    m->decoded = 0;
    free(m->dxt);
    m->dxt = NULL;
}

static int
push_ints(struct dmodule *m, const int64_t *v, size_t n, size_t *off_out)
{
    *off_out = m->ints.n;
    return pool_push_n(&m->ints, v, n, sizeof(v[0]));
}

static int
push_raw_ints(struct dmodule *m, const unsigned char *p, size_t n, int swap)
{
    int rc = pool_room(&m->ints, n, sizeof(int64_t));

    if (rc < 0 || n == 0)       /* an empty pool may have no data yet */
        return rc;
    int64_t *dst = (int64_t *)m->ints.data + m->ints.n;
    for (size_t i = 0; i < n; i++)
        dst[i] = (int64_t)darshan_u64(p + 8 * i, swap);
    m->ints.n += n;
    return TOKIO_OK;
}

static int
push_dbls(struct dmodule *m, const double *v, size_t n, size_t *off_out)
{
    *off_out = m->dbls.n;
    return pool_push_n(&m->dbls, v, n, sizeof(v[0]));
}

static void
rd_ints(int64_t *dst, const unsigned char *p, size_t n, int swap)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = (int64_t)darshan_u64(p + 8 * i, swap);
}

static void
rd_dbls(double *dst, const unsigned char *p, size_t n, int swap)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = darshan_f64(p + 8 * i, swap);
}

static void
rd_base(struct dprec *r, const unsigned char *p, int swap)
{
    memset(r, 0, sizeof(*r));
    r->id = darshan_u64(p, swap);
    r->rank = (int64_t)darshan_u64(p + 8, swap);
}

/*
 * A record of plain counter arrays, already in the current layout (with
 * DFS/DAOS's two uuids, 32 bytes at `uuids`): handed to the open's
 * callback at once when the module is streamed, else kept in the pools.
 */
static int
add_plain(struct tokio_darshan *log, struct dmodule *m, struct dprec *r,
          const int64_t *iv, size_t ni, const double *fv, size_t nf,
          const unsigned char *uuids)
{
    int rc;

    if (m->streamed) {
        const struct tokio_darshan_record pr = {
            .id = r->id, .rank = r->rank, .n_counters = ni, .counters = iv,
            .n_fcounters = nf, .fcounters = fv,
            .file_rec_id = r->file_rec_id, .pool_uuid = uuids,
            .cont_uuid = uuids ? uuids + UUID_LEN : NULL,
            .oid_hi = r->oid_hi, .oid_lo = r->oid_lo,
        };
        return log->record(log->payload, log, (int)(m - log->mods), &pr);
    }
    r->ni = ni;
    r->nf = nf;
    if (uuids != NULL) {
        r->has_uuid = 1;
        r->uuid_off = m->bytes.n;
        if ((rc = pool_push_n(&m->bytes, uuids, 2 * UUID_LEN, 1)) < 0)
            return rc;
    }
    if ((rc = push_ints(m, iv, ni, &r->i_off)) < 0 ||
        (rc = push_dbls(m, fv, nf, &r->f_off)) < 0)
        return rc;
    return pool_push(&m->recs, r, sizeof(*r), NULL);
}

/* ---- fixed-size modules, with up-conversion (fact sheet §8) --------- */

/*
 * Each returns the bytes the record used, 0 for "skip these bytes and
 * print nothing" is not needed: a record too short for the rest of the
 * region ends the module, as in darshan-util (trailing bytes ignored).
 */
typedef int (*decode_fn)(struct tokio_darshan *log, struct dmodule *m,
                         const unsigned char *p, size_t left,
                         size_t *used_out);

/* POSIX (§8.1): v1 680 B, v2 648 B, v3 664 B, v4 704 B. */
static int
dec_posix(struct tokio_darshan *log, struct dmodule *m,
          const unsigned char *p, size_t left, size_t *used_out)
{
    static const size_t size[] = { 0, 680, 648, 664, 704 };
    int64_t iv[MAX_INTS], t[MAX_INTS];
    double fv[MAX_DBLS], f[MAX_DBLS];
    int swap = log->swap;
    unsigned ver = m->ver;
    struct dprec r;

    *used_out = 0;
    if (left < size[ver])
        return TOKIO_OK;
    *used_out = size[ver];
    rd_base(&r, p, swap);
    if (ver == 4) {
        rd_ints(iv, p + BASE_SIZE, 69, swap);
        rd_dbls(fv, p + BASE_SIZE + 69 * 8, 17, swap);
        return add_plain(log, m, &r, iv, 69, fv, 17, NULL);
    }
    size_t nint = ver == 1 ? 68 : 64;
    size_t ndbl = ver == 3 ? 17 : 15;
    const unsigned char *fp = p + BASE_SIZE + nint * 8;
    rd_ints(t, p + BASE_SIZE, nint, swap);
    if (ver == 1) {
        /* v1 records with stdio counters (old POSIX_FOPENS > 0) are
         * dropped by darshan-util rather than converted */
        if (t[6] > 0)
            return TOKIO_OK;
        memmove(&t[6], &t[10], (68 - 10) * sizeof(t[0]));
    }
    /* v3 -> v4: FILENOS, DUPS at 1, 2; RENAME_* at 10..12 */
    iv[0] = t[0];
    iv[1] = iv[2] = -1;
    memcpy(&iv[3], &t[1], 7 * sizeof(iv[0]));
    iv[10] = iv[11] = -1;
    iv[12] = 0;
    memcpy(&iv[13], &t[8], 56 * sizeof(iv[0]));
    rd_dbls(f, fp, ndbl, swap);
    if (ver == 3) {
        memcpy(fv, f, 17 * sizeof(fv[0]));
    } else {
        /* v2 -> v3: CLOSE_START and OPEN_END did not exist */
        memcpy(fv, f, 3 * sizeof(fv[0]));
        fv[3] = fv[4] = -1.0;
        memcpy(&fv[5], &f[3], 12 * sizeof(fv[0]));
    }
    /* darshan-util's in-place shifts use the pre-conversion record
     * length and lose the last doubles (§8.1, data-loss bug) */
    if (ver == 3)
        fv[15] = fv[16] = 0.0;
    else if (ver == 2)
        fv[13] = fv[14] = fv[15] = fv[16] = 0.0;
    if (swap) {
        /* §9: for v<4 darshan-util leaves F_META_TIME, F_MAX_READ_TIME
         * and F_MAX_WRITE_TIME unswapped (index mix-up with RENAME_*) */
        size_t src = ver == 3 ? 10 : 8;
        for (size_t k = 0; k < 3; k++)
            fv[10 + k] = darshan_f64(fp + (src + k) * 8, 0);
    }
    return add_plain(log, m, &r, iv, 69, fv, 17, NULL);
}

/* MPI-IO (§8.2): v1, v2 544 B with 15 doubles; v3 560 B. */
static int
dec_mpiio(struct tokio_darshan *log, struct dmodule *m,
          const unsigned char *p, size_t left, size_t *used_out)
{
    int64_t iv[MAX_INTS];
    double fv[MAX_DBLS], f[MAX_DBLS];
    size_t ndbl = m->ver >= 3 ? 17 : 15;
    size_t size = BASE_SIZE + 51 * 8 + ndbl * 8;
    struct dprec r;

    *used_out = 0;
    if (left < size)
        return TOKIO_OK;
    *used_out = size;
    rd_base(&r, p, log->swap);
    rd_ints(iv, p + BASE_SIZE, 51, log->swap);
    rd_dbls(f, p + BASE_SIZE + 51 * 8, ndbl, log->swap);
    if (ndbl == 17) {
        memcpy(fv, f, sizeof(fv));
    } else {
        memcpy(fv, f, 3 * sizeof(fv[0]));
        fv[3] = fv[4] = -1.0;
        memcpy(&fv[5], &f[3], 12 * sizeof(fv[0]));
    }
    return add_plain(log, m, &r, iv, 51, fv, 17, NULL);
}

/* STDIO (§8.3): v1 240 B lacks FDOPENS; v2 248 B. */
static int
dec_stdio(struct tokio_darshan *log, struct dmodule *m,
          const unsigned char *p, size_t left, size_t *used_out)
{
    int64_t iv[MAX_INTS], t[MAX_INTS];
    double fv[MAX_DBLS];
    size_t nint = m->ver >= 2 ? 14 : 13;
    size_t size = BASE_SIZE + nint * 8 + 15 * 8;
    struct dprec r;

    *used_out = 0;
    if (left < size)
        return TOKIO_OK;
    *used_out = size;
    rd_base(&r, p, log->swap);
    rd_ints(t, p + BASE_SIZE, nint, log->swap);
    rd_dbls(fv, p + BASE_SIZE + nint * 8, 15, log->swap);
    if (nint == 14) {
        memcpy(iv, t, 14 * sizeof(iv[0]));
    } else {
        iv[0] = t[0];
        iv[1] = -1;
        memcpy(&iv[2], &t[1], 12 * sizeof(iv[0]));
    }
    return add_plain(log, m, &r, iv, 14, fv, 15, NULL);
}

/* H5F (§8.4): v1 40 B, v2 56 B, v3 80 B. */
static int
dec_h5f(struct tokio_darshan *log, struct dmodule *m,
        const unsigned char *p, size_t left, size_t *used_out)
{
    static const size_t size[] = { 0, 40, 56, 80 };
    int64_t iv[3];
    double fv[5], f[4];
    struct dprec r;

    *used_out = 0;
    if (left < size[m->ver])
        return TOKIO_OK;
    *used_out = size[m->ver];
    rd_base(&r, p, log->swap);
    if (m->ver == 3) {
        rd_ints(iv, p + BASE_SIZE, 3, log->swap);
        rd_dbls(fv, p + BASE_SIZE + 24, 5, log->swap);
        return add_plain(log, m, &r, iv, 3, fv, 5, NULL);
    }
    rd_ints(iv, p + BASE_SIZE, 1, log->swap);
    iv[1] = iv[2] = -1;
    if (m->ver == 2) {
        rd_dbls(f, p + BASE_SIZE + 8, 4, log->swap);
    } else {
        rd_dbls(f, p + BASE_SIZE + 8, 2, log->swap);
        f[3] = f[1];
        f[1] = f[2] = -1.0;
    }
    memcpy(fv, f, sizeof(f));
    fv[4] = -1.0;
    return add_plain(log, m, &r, iv, 3, fv, 5, NULL);
}

/* H5D (§8.4): v1 904 B, v2 912 B with file_rec_id before the counters. */
static int
dec_h5d(struct tokio_darshan *log, struct dmodule *m,
        const unsigned char *p, size_t left, size_t *used_out)
{
    int64_t iv[MAX_INTS];
    double fv[MAX_DBLS];
    size_t pre = m->ver >= 2 ? 8 : 0;
    size_t size = BASE_SIZE + pre + 94 * 8 + 17 * 8;
    struct dprec r;

    *used_out = 0;
    if (left < size)
        return TOKIO_OK;
    *used_out = size;
    rd_base(&r, p, log->swap);
    if (pre) {
        /* §9: darshan-util swaps it only when the H5F module is >= v2 */
        int sw = log->swap && log->mods[TOKIO_DARSHAN_H5F].ver >= 2;
        r.file_rec_id = darshan_u64(p + BASE_SIZE, sw);
    }
    rd_ints(iv, p + BASE_SIZE + pre, 94, log->swap);
    rd_dbls(fv, p + BASE_SIZE + pre + 94 * 8, 17, log->swap);
    return add_plain(log, m, &r, iv, 94, fv, 17, NULL);
}

/* PNETCDF_FILE (§8.5): v1 48 B, v2 64 B, v3 152 B. */
static int
dec_ncfile(struct tokio_darshan *log, struct dmodule *m,
           const unsigned char *p, size_t left, size_t *used_out)
{
    static const size_t size[] = { 0, 48, 64, 152 };
    int64_t iv[9], t[2];
    double fv[8], f[4];
    struct dprec r;

    *used_out = 0;
    if (left < size[m->ver])
        return TOKIO_OK;
    *used_out = size[m->ver];
    rd_base(&r, p, log->swap);
    if (m->ver == 3) {
        rd_ints(iv, p + BASE_SIZE, 9, log->swap);
        rd_dbls(fv, p + BASE_SIZE + 72, 8, log->swap);
        return add_plain(log, m, &r, iv, 9, fv, 8, NULL);
    }
    rd_ints(t, p + BASE_SIZE, 2, log->swap);
    if (m->ver == 2) {
        rd_dbls(f, p + BASE_SIZE + 16, 4, log->swap);
    } else {
        rd_dbls(f, p + BASE_SIZE + 16, 2, log->swap);
        f[3] = f[1];
        f[1] = f[2] = -1.0;
    }
    for (size_t i = 0; i < 9; i++)
        iv[i] = -1;
    iv[1] = t[0] + t[1];        /* FILE_OPENS = INDEP + COLL opens */
    fv[0] = f[0];               /* OPEN_START */
    fv[1] = f[1];               /* CLOSE_START */
    fv[2] = -1.0;               /* WAIT_START */
    fv[3] = f[2];               /* OPEN_END */
    fv[4] = f[3];               /* CLOSE_END */
    fv[5] = fv[6] = fv[7] = -1.0;
    return add_plain(log, m, &r, iv, 9, fv, 8, NULL);
}

/* PNETCDF_VAR (§8.5): v1 1120 B. */
static int
dec_ncvar(struct tokio_darshan *log, struct dmodule *m,
          const unsigned char *p, size_t left, size_t *used_out)
{
    int64_t iv[MAX_INTS];
    double fv[MAX_DBLS];
    struct dprec r;

    *used_out = 0;
    if (left < 1120)
        return TOKIO_OK;
    *used_out = 1120;
    rd_base(&r, p, log->swap);
    r.file_rec_id = darshan_u64(p + BASE_SIZE, log->swap);
    rd_ints(iv, p + BASE_SIZE + 8, 120, log->swap);
    rd_dbls(fv, p + BASE_SIZE + 8 + 960, 17, log->swap);
    return add_plain(log, m, &r, iv, 120, fv, 17, NULL);
}

/* BG/Q (§8.10): v1 has 8 more bytes (int32 + pad) before the counters. */
static int
dec_bgq(struct tokio_darshan *log, struct dmodule *m,
        const unsigned char *p, size_t left, size_t *used_out)
{
    int64_t iv[11];
    double fv[1];
    size_t pre = m->ver == 1 ? 8 : 0;
    size_t size = BASE_SIZE + pre + 12 * 8;
    struct dprec r;

    *used_out = 0;
    if (left < size)
        return TOKIO_OK;
    *used_out = size;
    rd_base(&r, p, log->swap);
    rd_ints(iv, p + BASE_SIZE + pre, 11, log->swap);
    rd_dbls(fv, p + BASE_SIZE + pre + 88, 1, log->swap);
    return add_plain(log, m, &r, iv, 11, fv, 1, NULL);
}

/* DFS, DAOS (§8.11): counters, then 16-byte pool and container uuids
 * (reversed as 128-bit units on swap), DAOS adds the object id. */
static int
dec_dfs_daos(struct tokio_darshan *log, struct dmodule *m,
             const unsigned char *p, size_t left, size_t *used_out)
{
    int daos = m == &log->mods[TOKIO_DARSHAN_DAOS];
    size_t ni = daos ? 64 : 52;
    size_t size = daos ? 696 : 584;
    size_t uoff = BASE_SIZE + ni * 8 + 15 * 8;
    unsigned char u[2 * UUID_LEN];
    int64_t iv[MAX_INTS];
    double fv[MAX_DBLS];
    struct dprec r;

    *used_out = 0;
    if (left < size)
        return TOKIO_OK;
    *used_out = size;
    rd_base(&r, p, log->swap);
    rd_ints(iv, p + BASE_SIZE, ni, log->swap);
    rd_dbls(fv, p + BASE_SIZE + ni * 8, 15, log->swap);
    for (size_t k = 0; k < 2 * UUID_LEN; k++) {
        size_t j = k % UUID_LEN, base = k - j;
        u[k] = p[uoff + base + (log->swap ? UUID_LEN - 1 - j : j)];
    }
    if (daos) {
        r.oid_hi = darshan_u64(p + uoff + 32, log->swap);
        r.oid_lo = darshan_u64(p + uoff + 40, log->swap);
    }
    return add_plain(log, m, &r, iv, ni, fv, 15, u);
}

/* MDHIM (§8.9): fixed part, then max(1, MDHIM_SERVERS) histogram slots. */
static int
dec_mdhim(struct tokio_darshan *log, struct dmodule *m,
          const unsigned char *p, size_t left, size_t *used_out)
{
    int64_t iv[5];
    double fv[4];
    struct dprec r;
    int rc;

    *used_out = 0;
    if (left < MDHIM_FIXED_SIZE + 8)
        return TOKIO_OK;
    rd_base(&r, p, log->swap);
    rd_ints(iv, p + BASE_SIZE, 5, log->swap);
    rd_dbls(fv, p + BASE_SIZE + 40, 4, log->swap);
    /* a corrupt count must not claim more slots than the region holds */
    size_t nserv = iv[4] > 1 ? (size_t)iv[4] : 1;
    if (iv[4] > 1 && (uint64_t)iv[4] > (left - MDHIM_FIXED_SIZE) / 8)
        return TOKIO_OK;
    *used_out = MDHIM_FIXED_SIZE + 8 * nserv;
    r.x_off = m->ints.n;
    r.nx = iv[4] > 0 ? nserv : 0;
    if ((rc = push_raw_ints(m, p + MDHIM_FIXED_SIZE, r.nx, log->swap)) < 0)
        return rc;
    return add_plain(log, m, &r, iv, 5, fv, 4, NULL);
}

/* HEATMAP (§8.8): 48-byte header, write bins, read bins; bin counts one
 * off from the first record's are fixed up as darshan-util does. */
static int
dec_heatmap(struct tokio_darshan *log, struct dmodule *m,
            const unsigned char *p, size_t left, size_t *used_out)
{
    struct dprec r;
    double width;
    int rc;

    *used_out = 0;
    if (left < HEATMAP_HEADER_SIZE)
        return TOKIO_OK;
    rd_base(&r, p, log->swap);
    width = darshan_f64(p + BASE_SIZE, log->swap);
    int64_t nbins = (int64_t)darshan_u64(p + BASE_SIZE + 8, log->swap);
    if (nbins < 0 || (uint64_t)nbins > (left - HEATMAP_HEADER_SIZE) / 16)
        return TOKIO_OK;
    *used_out = HEATMAP_HEADER_SIZE + 16 * (size_t)nbins;
    size_t keep = (size_t)nbins, pad = 0;
    if (m->recs.n > 0) {
        const struct dprec *first = (const struct dprec *)m->recs.data;
        double w0 = ((const double *)m->dbls.data)[first->f_off];
        size_t n0 = first->nx / 2;
        if (w0 == width && keep == n0 + 1)
            keep = n0;
        else if (w0 == width && keep + 1 == n0)
            pad = 1;
    }
    const unsigned char *wb = p + HEATMAP_HEADER_SIZE;
    const unsigned char *rb = wb + 8 * (size_t)nbins;
    int64_t zero = 0;
    r.x_off = m->ints.n;
    r.nx = 2 * (keep + pad);
    if ((rc = push_raw_ints(m, rb, keep, log->swap)) < 0 ||
        (pad && (rc = pool_push(&m->ints, &zero, 8, NULL)) < 0) ||
        (rc = push_raw_ints(m, wb, keep, log->swap)) < 0 ||
        (pad && (rc = pool_push(&m->ints, &zero, 8, NULL)) < 0))
        return rc;
    return add_plain(log, m, &r, NULL, 0, &width, 1, NULL);
}

/* LUSTRE (§8.6): v1 one implicit component; v2 explicit components. */
static int
dec_lustre(struct tokio_darshan *log, struct dmodule *m,
           const unsigned char *p, size_t left, size_t *used_out)
{
    struct tokio_darshan_lustre_comp c;
    const unsigned char *osts;
    struct dprec r;
    int swap = log->swap;
    int rc;

    *used_out = 0;
    if (left < BASE_SIZE + 16)
        return TOKIO_OK;
    rd_base(&r, p, swap);
    r.c_off = m->comps.n;
    if (m->ver == 1) {
        int64_t t[5];
        if (left < BASE_SIZE + 40)
            return TOKIO_OK;
        rd_ints(t, p + BASE_SIZE, 5, swap);
        /* t: OSTS, MDTS, STRIPE_OFFSET, STRIPE_SIZE, STRIPE_WIDTH */
        if (t[4] < 0 || (uint64_t)t[4] > (left - BASE_SIZE - 40) / 8)
            return TOKIO_OK;
        *used_out = BASE_SIZE + 40 + 8 * (size_t)t[4];
        memset(&c, 0, sizeof(c));
        c.counters[0] = t[3];
        c.counters[1] = t[4];
        c.counters[2] = c.counters[3] = -1;
        c.counters[4] = 0;
        c.counters[5] = c.counters[6] = -1;
        if ((rc = pool_push(&m->comps, &c, sizeof(c), NULL)) < 0)
            return rc;
        r.nc = 1;
        r.x_off = m->ints.n;
        r.nx = (size_t)t[4];
        osts = p + BASE_SIZE + 40;
    } else {
        int64_t nc = (int64_t)darshan_u64(p + BASE_SIZE, swap);
        int64_t ns = (int64_t)darshan_u64(p + BASE_SIZE + 8, swap);
        size_t room = left - BASE_SIZE - 16;
        if (nc < 0 || ns < 0 || (uint64_t)nc > room / LUSTRE_COMP_SIZE ||
            (uint64_t)ns > (room - (size_t)nc * LUSTRE_COMP_SIZE) / 8)
            return TOKIO_OK;
        *used_out = BASE_SIZE + 16 + (size_t)nc * LUSTRE_COMP_SIZE +
                    8 * (size_t)ns;
        uint64_t stripes = 0;
        const unsigned char *cp = p + BASE_SIZE + 16;
        for (size_t i = 0; i < (size_t)nc; i++, cp += LUSTRE_COMP_SIZE) {
            memset(&c, 0, sizeof(c));
            rd_ints(c.counters, cp, 7, swap);
            /* the runtime marks unused components with size -1 and
             * darshan-util stops there */
            if (c.counters[0] == -1)
                break;
            memcpy(c.pool_name, cp + 56, LUSTRE_POOL_LEN);
            if ((rc = pool_push(&m->comps, &c, sizeof(c), NULL)) < 0)
                return rc;
            r.nc++;
            if (c.counters[1] > 0)
                stripes += (uint64_t)c.counters[1];
        }
        /* NEEDSWORK: darshan-util re-reads the OSTs from their old place
         * after trimming components; we take the first ones, bounded by
         * what the record holds. */
        r.x_off = m->ints.n;
        r.nx = stripes < (uint64_t)ns ? (size_t)stripes : (size_t)ns;
        osts = p + BASE_SIZE + 16 + (size_t)nc * LUSTRE_COMP_SIZE;
    }
    if ((rc = push_raw_ints(m, osts, r.nx, swap)) < 0)
        return rc;
    return add_plain(log, m, &r, NULL, 0, NULL, 0, NULL);
}

/* DXT (§8.7): 104-byte header, then write and read segments of 32 bytes
 * (40 with a pthread id in DXT_POSIX >= 2, DXT_MPIIO >= 3). */
static int
dec_dxt(struct tokio_darshan *log, struct dmodule *m,
        const unsigned char *p, size_t left, size_t *used_out)
{
    int mpiio = m == &log->mods[TOKIO_DARSHAN_DXT_MPIIO];
    int has_tid = mpiio ? m->ver >= 3 : m->ver >= 2;
    size_t segsize = has_tid ? 40 : 32;
    struct tokio_darshan_segment s;
    struct dprec r;
    char host[DXT_HOSTNAME_LEN + 1];
    int swap = log->swap;
    int rc;

    *used_out = 0;
    if (left < DXT_HEADER_SIZE)
        return TOKIO_OK;
    rd_base(&r, p, swap);
    int64_t w = (int64_t)darshan_u64(p + 88, swap);
    int64_t rd = (int64_t)darshan_u64(p + 96, swap);
    size_t room = (left - DXT_HEADER_SIZE) / segsize;
    if (w < 0 || rd < 0 || (uint64_t)w > room || (uint64_t)rd > room - w)
        return TOKIO_OK;
    *used_out = DXT_HEADER_SIZE + ((size_t)w + (size_t)rd) * segsize;
    memcpy(host, p + 24, DXT_HOSTNAME_LEN);
    host[DXT_HOSTNAME_LEN] = '\0';
    r.has_host = 1;
    r.host_off = m->bytes.n;
    for (size_t k = 0; k <= strlen(host); k++)
        if ((rc = pool_push(&m->bytes, &host[k], 1, NULL)) < 0)
            return rc;
    r.nw = (size_t)w;
    r.nr = (size_t)rd;
    r.s_off = m->segs.n;
    const unsigned char *sp = p + DXT_HEADER_SIZE;
    for (size_t i = 0; i < r.nw + r.nr; i++, sp += segsize) {
        s.offset = (int64_t)darshan_u64(sp, swap);
        s.length = (int64_t)darshan_u64(sp + 8, swap);
        s.start_time = darshan_f64(sp + 16, swap);
        s.end_time = darshan_f64(sp + 24, swap);
        /* darshan-util does not swap the thread id (§9) */
        s.pthread_id = has_tid ? darshan_u64(sp + 32, 0) : 0;
        /* DXT_MPIIO v1 offsets were meaningless (§8.7) */
        if (mpiio && m->ver == 1)
            s.offset = -1;
        if ((rc = pool_push(&m->segs, &s, sizeof(s), NULL)) < 0)
            return rc;
    }
    return add_plain(log, m, &r, NULL, 0, NULL, 0, NULL);
}

/*
 * DXT records handed over in pieces (tokio_darshan_select's dxt_pieces):
 * the 104-byte header is read and kept, then its segments are decoded
 * and handed over DXT_BATCH at a time as the region is inflated, so a
 * record of millions of segments costs a few KiB.  A record whose counts
 * claim more than the region holds has its segments up to the region's
 * end handed over (darshan-util drops such a record; only the region's
 * end, unknown while inflating, would tell).
 */
#define DXT_BATCH 256

struct dxt_piece_state {
    struct tokio_darshan_record r;      /* the record being handed over */
    char host[DXT_HOSTNAME_LEN + 1];
    size_t next;                        /* segments handed over so far */
    size_t left;                        /* segments still to come */
    struct tokio_darshan_segment batch[DXT_BATCH];
};

static int
dec_dxt_piece(struct tokio_darshan *log, struct dmodule *m,
              const unsigned char *p, size_t left, size_t *used_out)
{
    int mod = (int)(m - log->mods);
    int mpiio = mod == TOKIO_DARSHAN_DXT_MPIIO;
    int has_tid = mpiio ? m->ver >= 3 : m->ver >= 2;
    size_t segsize = has_tid ? 40 : 32;
    struct dxt_piece_state *st = m->dxt;
    int swap = log->swap;

    *used_out = 0;
    if (st == NULL && (st = m->dxt = tokio__calloc(1, sizeof(*st))) == NULL)
        return TOKIO_ENOMEM;
    if (st->left == 0) {
        if (left < DXT_HEADER_SIZE)
            return TOKIO_OK;
        int64_t w = (int64_t)darshan_u64(p + 88, swap);
        int64_t rd = (int64_t)darshan_u64(p + 96, swap);
        if (w < 0 || rd < 0 || (uint64_t)w > SIZE_MAX / 64 ||
            (uint64_t)rd > SIZE_MAX / 64)
            return TOKIO_OK;    /* ends the module, as a short record */
        memset(&st->r, 0, sizeof(st->r));
        st->r.id = darshan_u64(p, swap);
        st->r.rank = (int64_t)darshan_u64(p + 8, swap);
        memcpy(st->host, p + 24, DXT_HOSTNAME_LEN);
        st->host[DXT_HOSTNAME_LEN] = '\0';
        st->r.hostname = st->host;
        st->r.n_writes = (size_t)w;
        st->r.n_reads = (size_t)rd;
        st->r.segments = st->batch;
        st->next = 0;
        st->left = (size_t)w + (size_t)rd;
        *used_out = DXT_HEADER_SIZE;
        if (st->left > 0)
            return TOKIO_OK;
        st->r.segments = NULL;  /* no segments: handed over at once */
        return log->record(log->payload, log, mod, &st->r);
    }
    size_t k = left / segsize;
    if (k > st->left)
        k = st->left;
    if (k > DXT_BATCH)
        k = DXT_BATCH;
    if (k == 0)
        return TOKIO_OK;
    for (size_t i = 0; i < k; i++, p += segsize) {
        struct tokio_darshan_segment *s = &st->batch[i];
        s->offset = (int64_t)darshan_u64(p, swap);
        s->length = (int64_t)darshan_u64(p + 8, swap);
        s->start_time = darshan_f64(p + 16, swap);
        s->end_time = darshan_f64(p + 24, swap);
        s->pthread_id = has_tid ? darshan_u64(p + 32, 0) : 0;
        if (mpiio && m->ver == 1)
            s->offset = -1;
    }
    st->r.seg_first = st->next;
    st->r.n_piece = k;
    st->next += k;
    st->left -= k;
    *used_out = k * segsize;
    return log->record(log->payload, log, mod, &st->r);
}

/* Per module: decoder, lowest and highest record version it reads, and
 * whether its records have a fixed size (at most 1120 bytes): those can
 * be decoded a piece of the region at a time. */
static const struct {
    decode_fn fn;
    unsigned min_ver, max_ver;
    int fixed;
} decoders[TOKIO_DARSHAN_KNOWN_MODULES] = {
    [TOKIO_DARSHAN_POSIX] = { dec_posix, 1, 4, 1 },
    [TOKIO_DARSHAN_MPIIO] = { dec_mpiio, 1, 3, 1 },
    [TOKIO_DARSHAN_H5F] = { dec_h5f, 1, 3, 1 },
    [TOKIO_DARSHAN_H5D] = { dec_h5d, 1, 2, 1 },
    [TOKIO_DARSHAN_PNETCDF_FILE] = { dec_ncfile, 1, 3, 1 },
    [TOKIO_DARSHAN_PNETCDF_VAR] = { dec_ncvar, 1, 1, 1 },
    [TOKIO_DARSHAN_BGQ] = { dec_bgq, 1, 2, 1 },
    [TOKIO_DARSHAN_LUSTRE] = { dec_lustre, 1, 2, 0 },
    [TOKIO_DARSHAN_STDIO] = { dec_stdio, 1, 2, 1 },
    [TOKIO_DARSHAN_DXT_POSIX] = { dec_dxt, 1, 2, 0 },
    [TOKIO_DARSHAN_DXT_MPIIO] = { dec_dxt, 1, 3, 0 },
    [TOKIO_DARSHAN_MDHIM] = { dec_mdhim, 1, 1, 0 },
    [TOKIO_DARSHAN_HEATMAP] = { dec_heatmap, 1, 1, 0 },
    [TOKIO_DARSHAN_DFS] = { dec_dfs_daos, 1, 1, 1 },
    [TOKIO_DARSHAN_DAOS] = { dec_dfs_daos, 1, 1, 1 },
};

/* Whether module `mod` of `log` is decoded at all. */
static int
decodable(const struct tokio_darshan *log, int mod)
{
    unsigned ver = log->mods[mod].ver;

    return mod < TOKIO_DARSHAN_KNOWN_MODULES && decoders[mod].fn != NULL &&
           ver >= decoders[mod].min_ver && ver <= decoders[mod].max_ver;
}

/* Turn pool offsets into the public records' pointers. */
static int
publish(struct dmodule *m)
{
    size_t n = m->recs.n;
    const struct dprec *pr = (const struct dprec *)m->recs.data;

    m->pub = tokio__calloc(n ? n : 1, sizeof(*m->pub));
    if (m->pub == NULL)
        return TOKIO_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        struct tokio_darshan_record *r = &m->pub[i];
        const int64_t *ints = (const int64_t *)m->ints.data;
        r->id = pr[i].id;
        r->rank = pr[i].rank;
        r->n_counters = pr[i].ni;
        r->counters = pr[i].ni ? ints + pr[i].i_off : NULL;
        r->n_fcounters = pr[i].nf;
        r->fcounters = pr[i].nf ? (const double *)m->dbls.data + pr[i].f_off
                                : NULL;
        r->file_rec_id = pr[i].file_rec_id;
        r->n_extra = pr[i].nx;
        r->extra = pr[i].nx ? ints + pr[i].x_off : NULL;
        r->n_comps = pr[i].nc;
        r->comps = pr[i].nc ? (const struct tokio_darshan_lustre_comp *)
                              m->comps.data + pr[i].c_off : NULL;
        if (pr[i].has_uuid) {
            r->pool_uuid = m->bytes.data + pr[i].uuid_off;
            r->cont_uuid = r->pool_uuid + UUID_LEN;
        }
        r->oid_hi = pr[i].oid_hi;
        r->oid_lo = pr[i].oid_lo;
        if (pr[i].has_host)
            r->hostname = (const char *)m->bytes.data + pr[i].host_off;
        r->n_writes = pr[i].nw;
        r->n_reads = pr[i].nr;
        r->segments = pr[i].nw + pr[i].nr
                          ? (const struct tokio_darshan_segment *)
                                m->segs.data + pr[i].s_off
                          : NULL;
    }
    m->n_pub = n;
    return TOKIO_OK;
}

/*
 * Size the pools once, from the first record: the region holds about
 * raw_len / used records like it.  A hint only (the pools still grow if
 * later records are bigger), and skipped when it would cost more than a
 * few times the region itself.
 */
static int
size_pools(struct dmodule *m, size_t used)
{
    size_t est = m->raw_len / used;
    size_t per = sizeof(struct dprec) + m->ints.n * sizeof(int64_t) +
                 m->dbls.n * sizeof(double) +
                 m->comps.n * sizeof(struct tokio_darshan_lustre_comp) +
                 m->segs.n * sizeof(struct tokio_darshan_segment) +
                 m->bytes.n;
    int rc;

    if (est < 2 || per / used > 8)
        return TOKIO_OK;
    if ((rc = pool_reserve(&m->recs, est, sizeof(struct dprec))) < 0 ||
        (rc = pool_reserve(&m->ints, est * m->ints.n, sizeof(int64_t))) < 0 ||
        (rc = pool_reserve(&m->dbls, est * m->dbls.n, sizeof(double))) < 0 ||
        (rc = pool_reserve(&m->comps, est * m->comps.n,
                           sizeof(struct tokio_darshan_lustre_comp))) < 0 ||
        (rc = pool_reserve(&m->segs, est * m->segs.n,
                           sizeof(struct tokio_darshan_segment))) < 0)
        return rc;
    return pool_reserve(&m->bytes, est * m->bytes.n, 1);
}

static int
is_dxt(int mod)
{
    return mod == TOKIO_DARSHAN_DXT_POSIX || mod == TOKIO_DARSHAN_DXT_MPIIO;
}

int
tokio__darshan_streamable(const struct tokio_darshan *log, int mod)
{
    if (!decodable(log, mod))
        return 0;
    if (is_dxt(mod))
        return log->dxt_pieces && log->record != NULL &&
               !(log->kept >> mod & 1);
    return decoders[mod].fixed;
}

int
tokio__darshan_decode_piece(struct tokio_darshan *log, int mod,
                            const unsigned char *p, size_t n,
                            size_t *used_out)
{
    struct dmodule *m = &log->mods[mod];
    size_t pos = 0;
    int rc = TOKIO_OK;

    decode_fn fn = m->streamed && is_dxt(mod) ? dec_dxt_piece
                                              : decoders[mod].fn;

    while (pos < n) {
        size_t used = 0;
        rc = fn(log, m, p + pos, n - pos, &used);
        if (rc < 0 || used == 0)
            break;
        /* a whole region's records: size the pools from the first */
        if (pos == 0 && m->recs.n == 1 && (rc = size_pools(m, used)) < 0)
            break;
        pos += used;
    }
    *used_out = pos;
    return rc;
}

int
tokio__darshan_decode_end(struct tokio_darshan *log, int mod)
{
    struct dmodule *m = &log->mods[mod];
    int rc = m->streamed ? TOKIO_OK : publish(m);

    if (rc < 0) {
        tokio__darshan_module_clear(m);
        return rc;
    }
    m->decoded = 1;
    return TOKIO_OK;
}

int
tokio__darshan_decode_module(struct tokio_darshan *log, int mod)
{
    struct dmodule *m = &log->mods[mod];
    size_t used;
    int rc;

    if (!decodable(log, mod))
        return TOKIO_OK;        /* kept raw, reported as not decoded */
    rc = tokio__darshan_decode_piece(log, mod, m->raw, m->raw_len, &used);
    if (rc < 0) {
        tokio__darshan_module_clear(m);
        return rc;
    }
    return tokio__darshan_decode_end(log, mod);
}

/* ---- public name tables -------------------------------------------- */

const char *
tokio_darshan_module_name(int mod)
{
    if (mod < 0 || mod >= TOKIO_DARSHAN_KNOWN_MODULES)
        return NULL;
    return modinfo[mod].name;
}

size_t
tokio_darshan_counter_count(int mod)
{
    if (mod < 0 || mod >= TOKIO_DARSHAN_KNOWN_MODULES)
        return 0;
    if (mod == TOKIO_DARSHAN_LUSTRE)
        return N(lustre_comp);
    return modinfo[mod].ni;
}

size_t
tokio_darshan_fcounter_count(int mod)
{
    if (mod < 0 || mod >= TOKIO_DARSHAN_KNOWN_MODULES)
        return 0;
    return modinfo[mod].nf;
}

const char *
tokio_darshan_counter_name(int mod, size_t i)
{
    if (i >= tokio_darshan_counter_count(mod))
        return NULL;
    if (mod == TOKIO_DARSHAN_LUSTRE)
        return lustre_comp[i];
    return modinfo[mod].inames[i];
}

const char *
tokio_darshan_fcounter_name(int mod, size_t i)
{
    if (i >= tokio_darshan_fcounter_count(mod))
        return NULL;
    return modinfo[mod].fnames[i];
}

int
tokio_darshan_counter_index(int mod, const char *name, int fcounter)
{
    size_t n = fcounter ? tokio_darshan_fcounter_count(mod)
                        : tokio_darshan_counter_count(mod);

    for (size_t i = 0; name != NULL && i < n; i++)
        if (strcmp(fcounter ? tokio_darshan_fcounter_name(mod, i)
                            : tokio_darshan_counter_name(mod, i), name) == 0)
            return (int)i;
    return -1;
}

/* ---- darshan-parser --base text ------------------------------------ */

/*
 * Module descriptions as darshan-parser 3.5.0 prints them (the
 * *_print_description functions of darshan-util/darshan-*-logutils.c);
 * a line is printed when the module's record version is in [lo, hi].
 */
struct desc_line {
    unsigned lo, hi;
    const char *text;
};

static const struct desc_line desc_posix[] = {
    { 0, 99, "\n# description of POSIX counters:\n" },
    { 0, 99, "#   POSIX_*: posix operation counts.\n" },
    { 0, 99,
      "#   READS,WRITES,OPENS,SEEKS,STATS,MMAPS,SYNCS,FILENOS,DUPS are types"
      " of operations.\n" },
    { 0, 99,
      "#   POSIX_RENAME_SOURCES/TARGETS: total count file was source or targ"
      "et of a rename operation\n" },
    { 0, 99,
      "#   POSIX_RENAMED_FROM: Darshan record ID of the first rename source,"
      " if file was a rename target\n" },
    { 0, 99, "#   POSIX_MODE: mode that file was opened in.\n" },
    { 0, 99, "#   POSIX_BYTES_*: total bytes read and written.\n" },
    { 0, 99, "#   POSIX_MAX_BYTE_*: highest offset byte read and written.\n" },
    { 0, 99,
      "#   POSIX_CONSEC_*: number of exactly adjacent reads and writes.\n" },
    { 0, 99,
      "#   POSIX_SEQ_*: number of reads and writes from increasing offsets."
      "\n" },
    { 0, 99,
      "#   POSIX_RW_SWITCHES: number of times access alternated between read"
      " and write.\n" },
    { 0, 99, "#   POSIX_*_ALIGNMENT: memory and file alignment.\n" },
    { 0, 99,
      "#   POSIX_*_NOT_ALIGNED: number of reads and writes that were not ali"
      "gned.\n" },
    { 0, 99,
      "#   POSIX_MAX_*_TIME_SIZE: size of the slowest read and write operati"
      "ons.\n" },
    { 0, 99,
      "#   POSIX_SIZE_*_*: histogram of read and write access sizes.\n" },
    { 0, 99,
      "#   POSIX_STRIDE*_STRIDE: the four most common strides detected.\n" },
    { 0, 99,
      "#   POSIX_STRIDE*_COUNT: count of the four most common strides.\n" },
    { 0, 99,
      "#   POSIX_ACCESS*_ACCESS: the four most common access sizes.\n" },
    { 0, 99,
      "#   POSIX_ACCESS*_COUNT: count of the four most common access sizes."
      "\n" },
    { 0, 99,
      "#   POSIX_*_RANK: rank of the processes that were the fastest and slo"
      "west at I/O (for shared files).\n" },
    { 0, 99,
      "#   POSIX_*_RANK_BYTES: bytes transferred by the fastest and slowest "
      "ranks (for shared files).\n" },
    { 0, 99,
      "#   POSIX_F_*_START_TIMESTAMP: timestamp of first open/read/write/clo"
      "se.\n" },
    { 0, 99,
      "#   POSIX_F_*_END_TIMESTAMP: timestamp of last open/read/write/close."
      "\n" },
    { 0, 99,
      "#   POSIX_F_READ/WRITE/META_TIME: cumulative time spent in read, writ"
      "e, or metadata operations.\n" },
    { 0, 99,
      "#   POSIX_F_MAX_*_TIME: duration of the slowest read and write operat"
      "ions.\n" },
    { 0, 99,
      "#   POSIX_F_*_RANK_TIME: fastest and slowest I/O time for a single ra"
      "nk (for shared files).\n" },
    { 0, 99,
      "#   POSIX_F_VARIANCE_RANK_*: variance of total I/O time and bytes mov"
      "ed for all ranks (for shared files).\n" },
    { 1, 1,
      "\n# WARNING: POSIX module log format version 1 has the following limi"
      "tations:\n" },
    { 1, 1,
      "# - Darshan version 3.1.0 and earlier had only partial instrumentatio"
      "n of stdio stream I/O functions.\n" },
    { 1, 1,
      "#   File records with stdio counters present will be omitted from out"
      "put.\n" },
    { 1, 1, "#   Use darshan-logutils < 3.1.0 to retrieve those records.\n" },
    { 0, 2,
      "\n# WARNING: POSIX module log format version <=2 has the following li"
      "mitations:\n" },
    { 0, 2, "# - No support for the following timers:\n" },
    { 0, 2, "# \t- POSIX_F_CLOSE_START_TIMESTAMP\n" },
    { 0, 2, "# \t- POSIX_F_OPEN_END_TIMESTAMP\n" },
    { 0, 3,
      "\n# WARNING: POSIX module log format version <=3 has the following li"
      "mitations:\n" },
    { 0, 3,
      "# - No support for the following counters to properly instrument dup,"
      " fileno, and rename operations:\n" },
    { 0, 3, "# \t- POSIX_FILENOS\n" },
    { 0, 3, "# \t- POSIX_DUPS\n" },
    { 0, 3, "# \t- POSIX_RENAME_SOURCES\n" },
    { 0, 3, "# \t- POSIX_RENAME_TARGETS\n" },
    { 0, 3, "# \t- POSIX_RENAMED_FROM\n" },
    { 4, 99,
      "\n# WARNING: POSIX_OPENS counter includes both POSIX_FILENOS and POSI"
      "X_DUPS counts\n" },
    { 4, 99,
      "\n# WARNING: POSIX counters related to file offsets may be incorrect "
      "if a file is simultaneously accessed by both POSIX and STDIO (e.g., u"
      "sing fileno())\n" },
    { 4, 99,
      "# \t- Affected counters include: MAX_BYTE_{READ|WRITTEN}, CONSEC_{REA"
      "DS|WRITES}, SEQ_{READS|WRITES}, {MEM|FILE}_NOT_ALIGNED, STRIDE*_STRID"
      "E\n" },
    { 0, 0, NULL }
};

static const struct desc_line desc_mpiio[] = {
    { 0, 99, "\n# description of MPIIO counters:\n" },
    { 0, 99, "#   MPIIO_INDEP_*: MPI independent operation counts.\n" },
    { 0, 99, "#   MPIIO_COLL_*: MPI collective operation counts.\n" },
    { 0, 99, "#   MPIIO_SPLIT_*: MPI split collective operation counts.\n" },
    { 0, 99, "#   MPIIO_NB_*: MPI non blocking operation counts.\n" },
    { 0, 99, "#   READS,WRITES,and OPENS are types of operations.\n" },
    { 0, 99, "#   MPIIO_SYNCS: MPI file sync operation counts.\n" },
    { 0, 99, "#   MPIIO_HINTS: number of times MPI hints were used.\n" },
    { 0, 99, "#   MPIIO_VIEWS: number of times MPI file views were used.\n" },
    { 0, 99,
      "#   MPIIO_MODE: MPI-IO access mode that file was opened with.\n" },
    { 0, 99,
      "#   MPIIO_BYTES_*: total bytes read and written at MPI-IO layer.\n" },
    { 0, 99,
      "#   MPIIO_RW_SWITCHES: number of times access alternated between read"
      " and write.\n" },
    { 0, 99,
      "#   MPIIO_MAX_*_TIME_SIZE: size of the slowest read and write operati"
      "ons.\n" },
    { 0, 99,
      "#   MPIIO_SIZE_*_AGG_*: histogram of MPI datatype total sizes for rea"
      "d and write operations.\n" },
    { 0, 99,
      "#   MPIIO_ACCESS*_ACCESS: the four most common total access sizes.\n" },
    { 0, 99,
      "#   MPIIO_ACCESS*_COUNT: count of the four most common total access s"
      "izes.\n" },
    { 0, 99,
      "#   MPIIO_*_RANK: rank of the processes that were the fastest and slo"
      "west at I/O (for shared files).\n" },
    { 0, 99,
      "#   MPIIO_*_RANK_BYTES: total bytes transferred at MPI-IO layer by th"
      "e fastest and slowest ranks (for shared files).\n" },
    { 0, 99,
      "#   MPIIO_F_*_START_TIMESTAMP: timestamp of first MPI-IO open/read/wr"
      "ite/close.\n" },
    { 0, 99,
      "#   MPIIO_F_*_END_TIMESTAMP: timestamp of last MPI-IO open/read/write"
      "/close.\n" },
    { 0, 99,
      "#   MPIIO_F_READ/WRITE/META_TIME: cumulative time spent in MPI-IO rea"
      "d, write, or metadata operations.\n" },
    { 0, 99,
      "#   MPIIO_F_MAX_*_TIME: duration of the slowest MPI-IO read and write"
      " operations.\n" },
    { 0, 99,
      "#   MPIIO_F_*_RANK_TIME: fastest and slowest I/O time for a single ra"
      "nk (for shared files).\n" },
    { 0, 99,
      "#   MPIIO_F_VARIANCE_RANK_*: variance of total I/O time and bytes mov"
      "ed for all ranks (for shared files).\n" },
    { 1, 1,
      "\n# WARNING: MPIIO module log format version 1 has the following limi"
      "tations:\n" },
    { 1, 1, "# - MPIIO_F_WRITE_START_TIMESTAMP may not be accurate.\n" },
    { 0, 2,
      "\n# WARNING: MPIIO module log format version <=2 does not support the"
      " following counters:\n" },
    { 0, 2, "# - MPIIO_F_CLOSE_START_TIMESTAMP\n" },
    { 0, 2, "# - MPIIO_F_OPEN_END_TIMESTAMP\n" },
    { 0, 0, NULL }
};

static const struct desc_line desc_hdf5_file[] = {
    { 0, 99, "\n# description of HDF5 counters:\n" },
    { 0, 99, "#   H5F_OPENS: HDF5 file open/create operation counts.\n" },
    { 0, 99, "#   H5F_FLUSHES: HDF5 file flush operation counts.\n" },
    { 0, 99,
      "#   H5F_USE_MPIIO: flag indicating whether MPI-IO was used to access "
      "this file.\n" },
    { 0, 99,
      "#   H5F_F_*_START_TIMESTAMP: timestamp of first HDF5 file open/close."
      "\n" },
    { 0, 99,
      "#   H5F_F_*_END_TIMESTAMP: timestamp of last HDF5 file open/close.\n" },
    { 0, 99,
      "#   H5F_F_META_TIME: cumulative time spent in HDF5 metadata operation"
      "s.\n" },
    { 1, 1,
      "\n# WARNING: H5F module log format version 1 does not support the fol"
      "lowing counters:\n" },
    { 1, 1, "# - H5F_F_CLOSE_START_TIMESTAMP\n" },
    { 1, 1, "# - H5F_F_OPEN_END_TIMESTAMP\n" },
    { 0, 2,
      "\n# WARNING: H5F module log format version <=2 does not support the f"
      "ollowing counters:\n" },
    { 0, 2, "# \t- H5F_FLUSHES\n" },
    { 0, 2, "# \t- H5F_USE_MPIIO\n" },
    { 0, 2, "# \t- H5F_F_META_TIME\n" },
    { 0, 0, NULL }
};

static const struct desc_line desc_hdf5_dataset[] = {
    { 0, 99, "\n# description of HDF5 counters:\n" },
    { 0, 99, "#   H5D_OPENS: HDF5 dataset open/create operation counts.\n" },
    { 0, 99, "#   H5D_READS: HDF5 dataset read operation counts.\n" },
    { 0, 99, "#   H5D_WRITES: HDF5 dataset write operation counts.\n" },
    { 0, 99, "#   H5D_FLUSHES: HDF5 dataset flush operation counts.\n" },
    { 0, 99,
      "#   H5D_BYTES_*: total bytes read and written at HDF5 dataset layer."
      "\n" },
    { 0, 99,
      "#   H5D_RW_SWITCHES: number of times access alternated between read a"
      "nd write.\n" },
    { 0, 99,
      "#   H5D_*_SELECTS: number of different access selections (regular/irr"
      "egular hyperslab or points).\n" },
    { 0, 99,
      "#   H5D_MAX_*_TIME_SIZE: size of the slowest read and write operation"
      "s.\n" },
    { 0, 99,
      "#   H5D_SIZE_*_AGG_*: histogram of H5D total access sizes for read an"
      "d write operations.\n" },
    { 0, 99,
      "#   H5D_ACCESS*_*: the four most common total accesses, in terms of s"
      "ize and length/stride (in last 5 dimensions).\n" },
    { 0, 99,
      "#   H5D_ACCESS*_COUNT: count of the four most common total access siz"
      "es.\n" },
    { 0, 99,
      "#   H5D_DATASPACE_NDIMS: number of dimensions in dataset's dataspace."
      "\n" },
    { 0, 99,
      "#   H5D_DATASPACE_NPOINTS: number of points in dataset's dataspace.\n" },
    { 0, 99, "#   H5D_DATATYPE_SIZE: size of each dataset element.\n" },
    { 0, 99,
      "#   H5D_CHUNK_SIZE_D*: chunk size in last 5 dimensions of dataset.\n" },
    { 0, 99,
      "#   H5D_USE_MPIIO_COLLECTIVE: flag indicating whether MPI-IO collecti"
      "ves were used to access this dataset.\n" },
    { 0, 99,
      "#   H5D_USE_DEPRECATED: flag indicating whether deprecated H5D calls "
      "were used.\n" },
    { 0, 99,
      "#   H5D_*_RANK: rank of the processes that were the fastest and slowe"
      "st at I/O (for shared datasets).\n" },
    { 0, 99,
      "#   H5D_*_RANK_BYTES: total bytes transferred at H5D layer by the fas"
      "test and slowest ranks (for shared datasets).\n" },
    { 0, 99,
      "#   H5D_F_*_START_TIMESTAMP: timestamp of first HDF5 dataset open/rea"
      "d/write/close.\n" },
    { 0, 99,
      "#   H5D_F_*_END_TIMESTAMP: timestamp of last HDF5 datset open/read/wr"
      "ite/close.\n" },
    { 0, 99,
      "#   H5D_F_READ/WRITE/META_TIME: cumulative time spent in H5D read, wr"
      "ite, or metadata operations.\n" },
    { 0, 99,
      "#   H5D_F_MAX_*_TIME: duration of the slowest H5D read and write oper"
      "ations.\n" },
    { 0, 99,
      "#   H5D_F_*_RANK_TIME: fastest and slowest I/O time for a single rank"
      " (for shared datasets).\n" },
    { 0, 99,
      "#   H5D_F_VARIANCE_RANK_*: variance of total I/O time and bytes moved"
      " for all ranks (for shared datasets).\n" },
    { 0, 99,
      "#   H5D_FILE_REC_ID: Darshan file record ID of the file the dataset b"
      "elongs to.\n" },
    { 1, 1,
      "\n# WARNING: H5D module log format version 1 does not support the fol"
      "lowing counters:\n" },
    { 1, 1, "# - H5D_FILE_REC_ID\n" },
    { 0, 0, NULL }
};

static const struct desc_line desc_pnetcdf_file[] = {
    { 0, 99, "\n# description of PnetCDF counters:\n" },
    { 0, 99,
      "#   PNETCDF_FILE_CREATES: PnetCDF file create operation counts.\n" },
    { 0, 99, "#   PNETCDF_FILE_OPENS: PnetCDF file open operation counts.\n" },
    { 0, 99,
      "#   PNETCDF_FILE_REDEFS: PnetCDF file re-define operation counts.\n" },
    { 0, 99,
      "#   PNETCDF_FILE_INDEP_WAITS: PnetCDF independent file wait operation"
      " counts.\n" },
    { 0, 99,
      "#   PNETCDF_FILE_COLL_WAITS: PnetCDF collective file wait operation c"
      "ounts.\n" },
    { 0, 99, "#   PNETCDF_FILE_SYNCS: PnetCDF file sync operation counts.\n" },
    { 0, 99,
      "#   PNETCDF_FILE_BYTES_READ: PnetCDF total bytes read for all file va"
      "riables.\n" },
    { 0, 99,
      "#   PNETCDF_FILE_BYTES_WRITTEN: PnetCDF total bytes written for all f"
      "ile variables.\n" },
    { 0, 99,
      "#   PNETCDF_FILE_WAIT_FAILURES: PnetCDF file wait operation failure c"
      "ounts.\n" },
    { 0, 99,
      "#   PNETCDF_FILE_F_*_START_TIMESTAMP: timestamp of first PnetCDF file"
      " open/close/wait operation.\n" },
    { 0, 99,
      "#   PNETCDF_FILE_F_*_END_TIMESTAMP: timestamp of last PnetCDF file op"
      "en/close/wait operation.\n" },
    { 0, 99,
      "#   PNETCDF_FILE_F_META_TIME: Cumulative time spent in file metadata "
      "operations.\n" },
    { 0, 99,
      "#   PNETCDF_FILE_F_WAIT_TIME: Cumulative time spent in file wait oper"
      "ations.\n" },
    { 1, 1,
      "\n# WARNING: PnetCDF file module log format version 1 does not suppor"
      "t the following counters:\n" },
    { 1, 1, "# - PNETCDF_FILE_F_CLOSE_START_TIMESTAMP\n" },
    { 1, 1, "# - PNETCDF_FILE_F_OPEN_END_TIMESTAMP\n" },
    { 0, 2,
      "\n# WARNING: PnetCDF file module log format version <=2 does not supp"
      "ort the following counters:\n" },
    { 0, 2, "# - PNETCDF_FILE_CREATES\n" },
    { 0, 2, "# - PNETCDF_FILE_REDEFS\n" },
    { 0, 2, "# - PNETCDF_FILE_INDEP_WAITS\n" },
    { 0, 2, "# - PNETCDF_FILE_COLL_WAITS\n" },
    { 0, 2, "# - PNETCDF_FILE_SYNCS\n" },
    { 0, 2, "# - PNETCDF_FILE_BYTES_READ\n" },
    { 0, 2, "# - PNETCDF_FILE_BYTES_WRITTEN\n" },
    { 0, 2, "# - PNETCDF_FILE_WAIT_FAILURES\n" },
    { 0, 2, "# - PNETCDF_FILE_F_WAIT_START_TIMESTAMP\n" },
    { 0, 2, "# - PNETCDF_FILE_F_WAIT_END_TIMESTAMP\n" },
    { 0, 2, "# - PNETCDF_FILE_F_META_TIME\n" },
    { 0, 2, "# - PNETCDF_FILE_F_WAIT_TIME\n" },
    { 0, 0, NULL }
};

static const struct desc_line desc_pnetcdf_var[] = {
    { 0, 99, "\n# description of PnetCDF counters:\n" },
    { 0, 99,
      "#   PNETCDF_VAR_OPENS: PnetCDF variable define/inquire operation coun"
      "ts.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_INDEP_READS: PnetCDF variable independent read operat"
      "ion counts.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_INDEP_WRITES: PnetCDF variable independent write oper"
      "ation counts.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_COLL_READS: PnetCDF variable collective read operatio"
      "n counts.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_COLL_WRITES: PnetCDF variable collective write operat"
      "ion counts.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_NB_READS: PnetCDF variable nonblocking read operation"
      " counts.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_NB_WRITES: PnetCDF variable nonblocking write operati"
      "on counts.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_BYTES_*: total bytes read and written at PnetCDF vari"
      "able layer.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_RW_SWITCHES: number of times access alternated betwee"
      "n read and write.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_PUT_VAR*: number of calls to ncmpi_put_var* APIs (var"
      ", var1, vara, vars, varm, varn, vard).\n" },
    { 0, 99,
      "#   PNETCDF_VAR_GET_VAR*: number of calls to ncmpi_get_var* APIs (var"
      ", var1, vara, vars, varm, varn, vard).\n" },
    { 0, 99,
      "#   PNETCDF_VAR_IPUT_VAR*: number of calls to ncmpi_iput_var* APIs (v"
      "ar, var1, vara, vars, varm, varn).\n" },
    { 0, 99,
      "#   PNETCDF_VAR_IGET_VAR*: number of calls to ncmpi_iget_var* APIs (v"
      "ar, var1, vara, vars, varm, varn).\n" },
    { 0, 99,
      "#   PNETCDF_VAR_BPUT_VAR*: number of calls to ncmpi_bput_var* APIs (v"
      "ar, var1, vara, vars, varm, varn).\n" },
    { 0, 99,
      "#   PNETCDF_VAR_MAX_*_TIME_SIZE: size of the slowest read and write o"
      "perations.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_SIZE_*_AGG_*: histogram of PnetCDf total access sizes"
      " for read and write operations.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_ACCESS*_*: the four most common total accesses, in te"
      "rms of size and length/stride (in last 5 dimensions).\n" },
    { 0, 99,
      "#   PNETCDF_VAR_ACCESS*_COUNT: count of the four most common total ac"
      "cess sizes.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_NDIMS: number of dimensions in the variable.\n" },
    { 0, 99, "#   PNETCDF_VAR_NPOINTS: number of points in the variable.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_DATATYPE_SIZE: size of each variable element.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_*_RANK: rank of the processes that were the fastest a"
      "nd slowest at I/O (for shared datasets).\n" },
    { 0, 99,
      "#   PNETCDF_VAR_*_RANK_BYTES: total bytes transferred at PnetCDF laye"
      "r by the fastest and slowest ranks (for shared datasets).\n" },
    { 0, 99,
      "#   PNETCDF_VAR_F_*_START_TIMESTAMP: timestamp of first PnetCDF varia"
      "ble open/read/write/close.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_F_*_END_TIMESTAMP: timestamp of last PnetCDF variable"
      " open/read/write/close.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_F_READ/WRITE/META_TIME: cumulative time spent in Pnet"
      "CDF read, write, or metadata operations.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_F_MAX_*_TIME: duration of the slowest PnetCDF read an"
      "d write operations.\n" },
    { 0, 99,
      "#   PNETCDF_VAR_F_*_RANK_TIME: fastest and slowest I/O time for a sin"
      "gle rank (for shared datasets).\n" },
    { 0, 99,
      "#   PNETCDF_VAR_F_VARIANCE_RANK_*: variance of total I/O time and byt"
      "es moved for all ranks (for shared datasets).\n" },
    { 0, 99,
      "#   PNETCDF_VAR_FILE_REC_ID: Darshan file record ID of the file the v"
      "ariable belongs to.\n" },
    { 0, 0, NULL }
};

static const struct desc_line desc_bgq[] = {
    { 0, 99, "\n# description of BGQ counters:\n" },
    { 0, 99, "#   BGQ_CSJOBID: BGQ control system job ID.\n" },
    { 0, 99, "#   BGQ_NNODES: number of BGQ compute nodes for this job.\n" },
    { 0, 99, "#   BGQ_RANKSPERNODE: number of MPI ranks per compute node.\n" },
    { 0, 99, "#   BGQ_DDRPERNODE: size in MB of DDR3 per compute node.\n" },
    { 0, 99, "#   BGQ_INODES: number of BGQ I/O nodes for this job.\n" },
    { 0, 99,
      "#   BGQ_*NODES: dimension of A, B, C, D, & E dimensions of torus.\n" },
    { 0, 99,
      "#   BGQ_TORUSENABLED: which dimensions of the torus are enabled.\n" },
    { 0, 99,
      "#   BGQ_F_TIMESTAMP: timestamp when the BGQ data was collected.\n" },
    { 0, 0, NULL }
};

static const struct desc_line desc_lustre[] = {
    { 0, 99, "\n# description of LUSTRE counters:\n" },
    { 0, 99,
      "#   LUSTRE_NUM_COMPONENTS: number of instrumented components in the L"
      "ustre layout.\n" },
    { 0, 99,
      "#   LUSTRE_NUM_STRIPES: number of active stripes in the Lustre layout"
      " components.\n" },
    { 0, 99,
      "#   LUSTRE_COMP*_STRIPE_SIZE: stripe size for this file layout compon"
      "ent in bytes.\n" },
    { 0, 99,
      "#   LUSTRE_COMP*_STRIPE_COUNT: number of OSTs over which the file lay"
      "out component is striped.\n" },
    { 0, 99,
      "#   LUSTRE_COMP*_STRIPE_PATTERN: pattern (e.g., raid0, mdt, overstrip"
      "ed) for this file layout component.\n" },
    { 0, 99,
      "#   LUSTRE_COMP*_FLAGS: captured flags (e.g. init, prefwr, stale) for"
      " this file layout component.\n" },
    { 0, 99,
      "#   LUSTRE_COMP*_EXT_START: starting file extent for this file layout"
      " component.\n" },
    { 0, 99,
      "#   LUSTRE_COMP*_EXT_END: ending file extent for this file layout com"
      "ponent (-1 means EOF).\n" },
    { 0, 99,
      "#   LUSTRE_COMP*_MIRROR_ID: mirror ID for this file layout component,"
      " if mirrors are enabled.\n" },
    { 0, 99,
      "#   LUSTRE_COMP*_POOL_NAME: Lustre OST pool used for this file layout"
      " component.\n" },
    { 0, 99,
      "#   LUSTRE_COMP*_OST_ID_*: indices of OSTs over which this file layou"
      "t component is striped.\n" },
    { 0, 0, NULL }
};

static const struct desc_line desc_stdio[] = {
    { 0, 99, "\n# description of STDIO counters:\n" },
    { 0, 99,
      "#   STDIO_{OPENS|FDOPENS|WRITES|READS|SEEKS|FLUSHES} are types of ope"
      "rations.\n" },
    { 0, 99, "#   STDIO_BYTES_*: total bytes read and written.\n" },
    { 0, 99, "#   STDIO_MAX_BYTE_*: highest offset byte read and written.\n" },
    { 0, 99,
      "#   STDIO_*_RANK: rank of the processes that were the fastest and slo"
      "west at I/O (for shared files).\n" },
    { 0, 99,
      "#   STDIO_*_RANK_BYTES: bytes transferred by the fastest and slowest "
      "ranks (for shared files).\n" },
    { 0, 99,
      "#   STDIO_F_*_START_TIMESTAMP: timestamp of the first call to that ty"
      "pe of function.\n" },
    { 0, 99,
      "#   STDIO_F_*_END_TIMESTAMP: timestamp of the completion of the last "
      "call to that type of function.\n" },
    { 0, 99,
      "#   STDIO_F_*_TIME: cumulative time spent in different types of funct"
      "ions.\n" },
    { 0, 99,
      "#   STDIO_F_*_RANK_TIME: fastest and slowest I/O time for a single ra"
      "nk (for shared files).\n" },
    { 0, 99,
      "#   STDIO_F_VARIANCE_RANK_*: variance of total I/O time and bytes mov"
      "ed for all ranks (for shared files).\n" },
    { 1, 1,
      "\n# WARNING: STDIO module log format version 1 has the following limi"
      "tations:\n" },
    { 1, 1,
      "# - No support for properly instrumenting fdopen operations (STDIO_FD"
      "OPENS)\n" },
    { 2, 99,
      "\n# WARNING: STDIO_OPENS counter includes STDIO_FDOPENS count\n" },
    { 2, 99,
      "\n# WARNING: STDIO counters related to file offsets may be incorrect "
      "if a file is simultaneously accessed by both STDIO and POSIX (e.g., u"
      "sing fdopen())\n" },
    { 2, 99, "# \t- Affected counters include: MAX_BYTE_{READ|WRITTEN}\n" },
    { 0, 0, NULL }
};

static const struct desc_line desc_mdhim[] = {
    { 0, 99, "\n# description of MDHIM counters:\n" },
    { 0, 99, "#   MDHIM_PUTS: number of 'mdhim_put' function calls.\n" },
    { 0, 99, "#   MDHIM_GETS: number of 'mdhim_get' function calls.\n" },
    { 0, 99, "#   MDHIM_SERVERS: how many mdhim servers \n" },
    { 0, 99,
      "#   MDHIM_F_PUT_TIMESTAMP: timestamp of the first call to function 'm"
      "dhim_put'.\n" },
    { 0, 99,
      "#   MDHIM_F_GET_TIMESTAMP: timestamp of the first call to function 'm"
      "dhim_get'.\n" },
    { 0, 99, "#   MDHIM_SERVER_N: how many operations sent to this server\n" },
    { 0, 0, NULL }
};

static const struct desc_line desc_heatmap[] = {
    { 0, 99, "\n# description of heatmap counters:\n" },
    { 0, 99,
      "#   HEATMAP_F_BIN_WIDTH_SECONDS: time duration of each heatmap bin\n" },
    { 0, 99,
      "#   HEATMAP_{READ|WRITE}_BIN_{*}: number of bytes read or written wit"
      "hin specified heatmap bin\n" },
    { 0, 0, NULL }
};

static const struct desc_line desc_dfs[] = {
    { 0, 99, "\n# description of DFS counters:\n" },
    { 0, 99, "#   DFS_*: DFS operation counts.\n" },
    { 0, 99,
      "#   OPENS,GLOBAL_OPENS,LOOKUPS,DUPS,READS,READXS,WRITES,WRITEXS,GET_S"
      "IZES,PUNCHES,REMOVES,STATS are types of operations.\n" },
    { 0, 99, "#   DFS_BYTES_*: total bytes read and written.\n" },
    { 0, 99,
      "#   DFS_RW_SWITCHES: number of times access alternated between read a"
      "nd write.\n" },
    { 0, 99,
      "#   DFS_MAX_*_TIME_SIZE: size of the slowest read and write operation"
      "s.\n" },
    { 0, 99, "#   DFS_SIZE_*_*: histogram of read and write access sizes.\n" },
    { 0, 99, "#   DFS_ACCESS*_ACCESS: the four most common access sizes.\n" },
    { 0, 99,
      "#   DFS_ACCESS*_COUNT: count of the four most common access sizes.\n" },
    { 0, 99, "#   DFS_CHUNK_SIZE: DFS file chunk size.\n" },
    { 0, 99,
      "#   DFS_*_RANK: rank of the processes that were the fastest and slowe"
      "st at I/O (for shared files).\n" },
    { 0, 99,
      "#   DFS_*_RANK_BYTES: bytes transferred by the fastest and slowest ra"
      "nks (for shared files).\n" },
    { 0, 99,
      "#   DFS_F_*_START_TIMESTAMP: timestamp of first open/read/write/close"
      ".\n" },
    { 0, 99,
      "#   DFS_F_*_END_TIMESTAMP: timestamp of last open/read/write/close.\n" },
    { 0, 99,
      "#   DFS_F_READ/WRITE/META_TIME: cumulative time spent in read, write,"
      " or metadata operations.\n" },
    { 0, 99,
      "#   DFS_F_MAX_*_TIME: duration of the slowest read and write operatio"
      "ns.\n" },
    { 0, 99,
      "#   DFS_F_*_RANK_TIME: fastest and slowest I/O time for a single rank"
      " (for shared files).\n" },
    { 0, 0, NULL }
};

static const struct desc_line desc_daos[] = {
    { 0, 99, "\n# description of DAOS counters:\n" },
    { 0, 99, "#   DAOS_*: DAOS operation counts.\n" },
    { 0, 99,
      "#   OBJ_OPENS,OBJ_FETCHES,OBJ_UPDATES,OBJ_PUNCHES,OBJ_DKEY_PUNCHES,OB"
      "J_AKEY_PUNCHES,OBJ_DKEY_LISTS,OBJ_AKEY_LISTS,OBJ_RECX_LISTS are types"
      " of DAOS object operations.\n" },
    { 0, 99,
      "#   ARRAY_OPENS,ARRAY_READS,ARRAY_WRITES,ARRAY_GET_SIZES,ARRAY_SET_SI"
      "ZES,ARRAY_STATS,ARRAY_PUNCHES,ARRAY_DESTROYS are types of DAOS array "
      "operations\n" },
    { 0, 99,
      "#   KV_OPENS,KV_GETS,KV_PUTS,KV_REMOVES,KV_LISTS,KV_DESTROYS are type"
      "s of DAOS kv operations\n" },
    { 0, 99,
      "#   DAOS_BYTES_*: total bytes read and written using all DAOS object "
      "APIs.\n" },
    { 0, 99,
      "#   DAOS_RW_SWITCHES: number of times access alternated between read "
      "and write.\n" },
    { 0, 99,
      "#   DAOS_MAX_*_TIME_SIZE: size of the slowest read and write operatio"
      "ns.\n" },
    { 0, 99,
      "#   DAOS_SIZE_*_*: histogram of read and write access sizes.\n" },
    { 0, 99, "#   DAOS_ACCESS*_ACCESS: the four most common access sizes.\n" },
    { 0, 99,
      "#   DAOS_ACCESS*_COUNT: count of the four most common access sizes.\n" },
    { 0, 99, "#   DAOS_OBJ_OTYPE: DAOS otype value for the object.\n" },
    { 0, 99,
      "#   DAOS_ARRAY_CELL_SIZE: the cell size for DAOS array objects\n" },
    { 0, 99,
      "#   DAOS_ARRAY_CHUNK_SIZE: the chunk size for DAOS array objects\n" },
    { 0, 99,
      "#   DAOS_*_RANK: rank of the processes that were the fastest and slow"
      "est at I/O (for shared objects).\n" },
    { 0, 99,
      "#   DAOS_*_RANK_BYTES: bytes transferred by the fastest and slowest r"
      "anks (for shared objects).\n" },
    { 0, 99,
      "#   DAOS_F_*_START_TIMESTAMP: timestamp of first open/read/write/clos"
      "e.\n" },
    { 0, 99,
      "#   DAOS_F_*_END_TIMESTAMP: timestamp of last open/read/write/close."
      "\n" },
    { 0, 99,
      "#   DAOS_F_READ/WRITE/META_TIME: cumulative time spent in read, write"
      ", or metadata operations.\n" },
    { 0, 99,
      "#   DAOS_F_MAX_*_TIME: duration of the slowest read and write operati"
      "ons.\n" },
    { 0, 99,
      "#   DAOS_F_*_RANK_TIME: fastest and slowest I/O time for a single ran"
      "k (for shared objects).\n" },
    { 0, 0, NULL }
};
static const struct desc_line *const descriptions[] = {
    [TOKIO_DARSHAN_POSIX] = desc_posix,
    [TOKIO_DARSHAN_MPIIO] = desc_mpiio,
    [TOKIO_DARSHAN_H5F] = desc_hdf5_file,
    [TOKIO_DARSHAN_H5D] = desc_hdf5_dataset,
    [TOKIO_DARSHAN_PNETCDF_FILE] = desc_pnetcdf_file,
    [TOKIO_DARSHAN_PNETCDF_VAR] = desc_pnetcdf_var,
    [TOKIO_DARSHAN_BGQ] = desc_bgq,
    [TOKIO_DARSHAN_LUSTRE] = desc_lustre,
    [TOKIO_DARSHAN_STDIO] = desc_stdio,
    [TOKIO_DARSHAN_MDHIM] = desc_mdhim,
    [TOKIO_DARSHAN_HEATMAP] = desc_heatmap,
    [TOKIO_DARSHAN_DFS] = desc_dfs,
    [TOKIO_DARSHAN_DAOS] = desc_daos,
    [TOKIO_DARSHAN_DAOS + 1] = NULL,
};

void
tokio__darshan_print_description_text(int mod, unsigned ver, FILE *fp)
{
    if (mod < 0 || mod > TOKIO_DARSHAN_DAOS || descriptions[mod] == NULL)
        return;
    for (const struct desc_line *d = descriptions[mod]; d->text; d++)
        if (ver >= d->lo && ver <= d->hi)
            fputs(d->text, fp);
}

void
tokio__darshan_print_description(int mod, unsigned ver, FILE *fp)
{
    if (mod < 0 || mod > TOKIO_DARSHAN_DAOS || descriptions[mod] == NULL)
        return;
    tokio__darshan_print_description_text(mod, ver, fp);
    fputs("\n#<module>\t<rank>\t<record id>\t<counter>\t<value>"
          "\t<file name>\t<mount pt>\t<fs type>\n", fp);
}

/* ---- record lines (§10.4): one visitor for every view ---------------- */

/*
 * "%f" of |v| < 4e9 read back, without the text: "%f" is M / 10^6 with M
 * the exact v * 10^6 rounded to an integer (ties to even, glibc's printf
 * in the default rounding mode), and for |M| < 2^53 strtod() of it is the
 * one correctly rounded division M / 1e6 (Clinger's fast path).  M comes
 * from p = v * 1e6 rounded and its exact error fma(v, 1e6, -p): only when
 * p is a tie does the error decide.  Cache-darshan reads every real
 * counter through it: printing and reading back each would double the
 * time of --base.
 */
static int
fixed6(double v, double *out)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    if (!(fabs(v) < 4e9))
        return 0;
    double p = v * 1e6;
    double m = nearbyint(p);
    double fl = floor(p);
    if (p - fl == 0.5) {
        double err = fma(v, 1e6, -p);
        if (err > 0)
            m = fl + 1;
        else if (err < 0)
            m = fl;
    }
    *out = m == 0 ? copysign(0.0, v) : m / 1e6;
    return 1;
#else
    (void)v;
    (void)out;
    return 0;
#endif
}

double
tokio_darshan_printed(double v)
{
    char buf[64];
    double d;

    /* from 1e15 on the double has no digits below 1/8, which "%f" prints
     * exactly: it reads back as itself (so do NaN and infinities) */
    if (!(fabs(v) < 1e15))
        return v;
    if (fixed6(v, &d))
        return d;
    snprintf(buf, sizeof(buf), "%f", v);
    return strtod(buf, NULL);
}

/* Lustre layout pattern and flag names (lustreapi.h values, as quoted by
 * darshan-lustre-logutils.c). */
static const char *
lustre_pattern(int64_t v)
{
    switch (v) {
    case 0: return "raid0";
    case 2: return "mdt";
    case 4: return "raid0,overstriped";
    case 8: return "foreign";
    default: return "N/A";
    }
}

static void
lustre_flags(int64_t v, char *buf, size_t size)
{
    static const char *const flag[] = {
        "stale", "prefrd", "prefwr", "offline", "init", "nosync",
        "extension", "parity", "compress", "partial", "nocompr", "neg"
    };
    size_t len = 0;

    if (v == -1) {
        snprintf(buf, size, "N/A");
        return;
    }
    buf[0] = '\0';
    for (size_t k = 0; k < N(flag); k++) {
        if (((uint64_t)v & (UINT64_C(1) << k)) == 0)
            continue;
        int n = snprintf(buf + len, size - len, "%s%s", len ? "," : "",
                         flag[k]);
        if (n < 0 || (size_t)n >= size - len)
            break;
        len += (size_t)n;
    }
    if (len == 0)
        snprintf(buf, size, "0");
}

/* The visitor's callback with a value built in place. */
static int
emit_i(tokio__darshan_counter_fn fn, void *payload, const char *counter,
       int64_t v)
{
    struct tokio__darshan_value val = { .kind = TOKIO__DARSHAN_INT };

    val.v.i = v;
    return fn(payload, counter, &val);
}

static int
emit_u(tokio__darshan_counter_fn fn, void *payload, const char *counter,
       uint64_t v)
{
    struct tokio__darshan_value val = { .kind = TOKIO__DARSHAN_UINT };

    val.v.u = v;
    return fn(payload, counter, &val);
}

static int
emit_f(tokio__darshan_counter_fn fn, void *payload, const char *counter,
       double v)
{
    struct tokio__darshan_value val = { .kind = TOKIO__DARSHAN_DOUBLE };

    val.v.d = v;
    return fn(payload, counter, &val);
}

static int
emit_s(tokio__darshan_counter_fn fn, void *payload, const char *counter,
       const char *v)
{
    struct tokio__darshan_value val = { .kind = TOKIO__DARSHAN_STRING };

    val.v.s = v;
    return fn(payload, counter, &val);
}

static int
visit_lustre(const struct tokio_darshan_record *r,
             tokio__darshan_counter_fn fn, void *payload)
{
    size_t ost = 0;
    char cname[64], val[128];
    int rc;

    if ((rc = emit_i(fn, payload, "LUSTRE_NUM_COMPONENTS",
                     (int64_t)r->n_comps)) < 0 ||
        (rc = emit_i(fn, payload, "LUSTRE_NUM_STRIPES",
                     (int64_t)r->n_extra)) < 0)
        return rc;
    for (size_t i = 0; i < r->n_comps; i++) {
        const struct tokio_darshan_lustre_comp *c = &r->comps[i];
        for (size_t j = 0; j < N(lustre_comp); j++) {
            /* LUSTRE_COMP_X -> LUSTRE_COMP<n>_X */
            snprintf(cname, sizeof(cname), "LUSTRE_COMP%zu%s", i + 1,
                     lustre_comp[j] + strlen("LUSTRE_COMP"));
            if (j == 2) {
                rc = emit_s(fn, payload, cname,
                            lustre_pattern(c->counters[j]));
            } else if (j == 3) {
                lustre_flags(c->counters[j], val, sizeof(val));
                rc = emit_s(fn, payload, cname, val);
            } else {
                rc = emit_i(fn, payload, cname, c->counters[j]);
            }
            if (rc < 0)
                return rc;
        }
        snprintf(cname, sizeof(cname), "LUSTRE_COMP%zu_POOL_NAME", i + 1);
        if ((rc = emit_s(fn, payload, cname,
                         c->pool_name[0] ? c->pool_name : "N/A")) < 0)
            return rc;
        for (int64_t k = 0; k < c->counters[1] && ost < r->n_extra; k++) {
            snprintf(cname, sizeof(cname), "LUSTRE_COMP%zu_OST_ID_%" PRId64,
                     i + 1, k);
            if ((rc = emit_i(fn, payload, cname, r->extra[ost++])) < 0)
                return rc;
        }
    }
    return TOKIO_OK;
}

static int
visit_heatmap(const struct tokio_darshan_record *r,
              tokio__darshan_counter_fn fn, void *payload)
{
    size_t nb = r->n_extra / 2;
    char cname[64];
    int rc;

    if ((rc = emit_f(fn, payload, "HEATMAP_F_BIN_WIDTH_SECONDS",
                     r->fcounters[0])) < 0)
        return rc;
    for (size_t k = 0; k < nb; k++) {
        snprintf(cname, sizeof(cname), "HEATMAP_READ_BIN_%zu", k);
        if ((rc = emit_i(fn, payload, cname, r->extra[k])) < 0)
            return rc;
    }
    for (size_t k = 0; k < nb; k++) {
        snprintf(cname, sizeof(cname), "HEATMAP_WRITE_BIN_%zu", k);
        if ((rc = emit_i(fn, payload, cname, r->extra[nb + k])) < 0)
            return rc;
    }
    return TOKIO_OK;
}

int
tokio__darshan_visit_record(int mod, const struct tokio_darshan_record *r,
                            tokio__darshan_counter_fn fn, void *payload)
{
    const struct modinfo *mi = &modinfo[mod];
    char cname[64];
    int rc;

    if (mod == TOKIO_DARSHAN_LUSTRE)
        return visit_lustre(r, fn, payload);
    if (mod == TOKIO_DARSHAN_HEATMAP)
        return visit_heatmap(r, fn, payload);
    for (size_t i = 0; i < r->n_counters; i++) {
        /* POSIX_RENAMED_FROM holds a record id (§10.4) */
        if (mod == TOKIO_DARSHAN_POSIX && i == 12)
            rc = emit_u(fn, payload, mi->inames[i],
                        (uint64_t)r->counters[i]);
        else
            rc = emit_i(fn, payload, mi->inames[i], r->counters[i]);
        if (rc < 0)
            return rc;
    }
    for (size_t i = 0; i < r->n_fcounters; i++)
        if ((rc = emit_f(fn, payload, mi->fnames[i], r->fcounters[i])) < 0)
            return rc;
    /* the file record id comes last although it precedes the counters
     * on disk (§10.4) */
    if (mod == TOKIO_DARSHAN_H5D)
        return emit_u(fn, payload, "H5D_FILE_REC_ID", r->file_rec_id);
    if (mod == TOKIO_DARSHAN_PNETCDF_VAR)
        return emit_u(fn, payload, "PNETCDF_VAR_FILE_REC_ID",
                      r->file_rec_id);
    if (mod == TOKIO_DARSHAN_MDHIM) {
        for (size_t k = 0; k < r->n_extra &&
                           (int64_t)k < r->counters[4]; k++) {
            snprintf(cname, sizeof(cname), "MDHIM_SERVER_%zu", k);
            if ((rc = emit_i(fn, payload, cname, r->extra[k])) < 0)
                return rc;
        }
    }
    return TOKIO_OK;
}

/* uuid_unparse() form, lower case. */
static void
uuid_str(const unsigned char *u, char *buf)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;

    for (size_t i = 0; i < UUID_LEN; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            buf[o++] = '-';
        buf[o++] = hex[u[i] >> 4];
        buf[o++] = hex[u[i] & 15];
    }
    buf[o] = '\0';
}

static int
uuid_null(const unsigned char *u)
{
    for (size_t i = 0; i < UUID_LEN; i++)
        if (u[i])
            return 0;
    return 1;
}

void
tokio__darshan_record_columns(const struct tokio_darshan *log, int mod,
                              const struct tokio_darshan_record *r,
                              struct tokio__darshan_columns *out)
{
    const char *name = tokio_darshan_name(log, r->id);

    tokio__darshan_mount_of(log, name, &out->mnt, &out->fs);
    /* glibc prints a NULL %s as "(null)" */
    if (name == NULL)
        name = mod == TOKIO_DARSHAN_BGQ ? "darshan-bgq-record" : "(null)";
    out->name = name;
    if (mod != TOKIO_DARSHAN_DFS && mod != TOKIO_DARSHAN_DAOS)
        return;
    /* §10.4: pool:container uuids stand in for the mount point; DAOS
     * names the object by its id */
    if (r->pool_uuid == NULL || r->cont_uuid == NULL ||
        (mod == TOKIO_DARSHAN_DFS &&
         (uuid_null(r->pool_uuid) || uuid_null(r->cont_uuid)))) {
        snprintf(out->mnt_buf, sizeof(out->mnt_buf), "UNKNOWN");
    } else {
        uuid_str(r->pool_uuid, out->mnt_buf);
        out->mnt_buf[36] = ':';
        uuid_str(r->cont_uuid, out->mnt_buf + 37);
    }
    out->mnt = out->mnt_buf;
    out->fs = "N/A";
    if (mod == TOKIO_DARSHAN_DAOS) {
        snprintf(out->name_buf, sizeof(out->name_buf),
                 "%" PRIu64 ".%" PRIu64, r->oid_hi, r->oid_lo);
        out->name = out->name_buf;
    }
}

/* What a --base line needs besides the counter: the shared columns. */
struct line {
    FILE *fp;
    const char *mod;
    int64_t rank;
    uint64_t id;
    const struct tokio__darshan_columns *cols;
};

static int
print_line(void *payload, const char *counter,
           const struct tokio__darshan_value *v)
{
    const struct line *l = payload;

    fprintf(l->fp, "%s\t%" PRId64 "\t%" PRIu64 "\t%s\t", l->mod, l->rank,
            l->id, counter);
    switch (v->kind) {
    case TOKIO__DARSHAN_INT:
        fprintf(l->fp, "%" PRId64, v->v.i);
        break;
    case TOKIO__DARSHAN_UINT:
        fprintf(l->fp, "%" PRIu64, v->v.u);
        break;
    case TOKIO__DARSHAN_DOUBLE:
        fprintf(l->fp, "%f", v->v.d);
        break;
    case TOKIO__DARSHAN_STRING:
        fputs(v->v.s, l->fp);
        break;
    }
    fprintf(l->fp, "\t%s\t%s\t%s\n", l->cols->name, l->cols->mnt,
            l->cols->fs);
    return TOKIO_OK;
}

void
tokio__darshan_print_record(const struct tokio_darshan *log, int mod,
                            const struct tokio_darshan_record *r, FILE *fp)
{
    struct tokio__darshan_columns cols;
    struct line l = { fp, modinfo[mod].name, r->rank, r->id, &cols };

    tokio__darshan_record_columns(log, mod, r, &cols);
    (void)tokio__darshan_visit_record(mod, r, print_line, &l);
}
