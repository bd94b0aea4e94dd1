/*
 * tests/darshan_gen.h - Darshan logs of a chosen size, made with the
 * library's writer: the one generator of the scale tests (tests/cli) and
 * of the benches (bench/bench_darshan_gen.c, bench/bench_dxt.c).  Plain
 * C without cmocka, so that the bench drivers build it too.
 */
#ifndef TOKIO_DARSHAN_GEN_H
#define TOKIO_DARSHAN_GEN_H

#include <stddef.h>

#include "tokio/common.h"

/*
 * Write at `path` a log of `records` POSIX records: `files` files (fewer
 * when `records` is smaller) on /scratch (lustre), each with
 * ceil(records / files) ranks' records (nprocs is that count), and one
 * LUSTRE record per file (a 4-stripe layout over 64 OSTs).  The other
 * counters are pseudo-random, so the log compresses about as real ones
 * do (the reader refuses regions that inflate far beyond their size).
 * Returns TOKIO_OK, or a negative TOKIO_E* code (tokio_errmsg() says
 * why).
 */
int tokio_test_darshan_records_log(const char *path, long long records,
                                   long long files);

/*
 * The log of tokio_test_darshan_records_log() without its LUSTRE records:
 * POSIX records only.
 */
int tokio_test_darshan_posix_log(const char *path, long long records,
                                 long long files);

/*
 * Write at `path` a log of `ranks` DXT_POSIX records (rank r on
 * /lus/scratch/ior/out.RRRRR, lustre), each of `segments` 1 MiB segments
 * (32 bytes each in the log): sequential writes, then reads of the same
 * offsets, with jittered times that do not compress to nothing.  Returns
 * TOKIO_OK, or a negative TOKIO_E* code (tokio_errmsg() says why).
 */
int tokio_test_darshan_dxt_log(const char *path, int ranks, size_t segments);

struct tokio_darshan_lustre_comp;

/* Two LUSTRE layout components into c[0..1]: raid0 1 MiB x 2 OSTs, then
 * one OST of pool "flash" from 4 MiB on. */
void tokio_test_darshan_lustre_comps(struct tokio_darshan_lustre_comp *c);

#endif
