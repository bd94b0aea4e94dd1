#!/bin/sh
# Peak memory of the Darshan summaries against the number of records in
# one log (issue 17 item 5): logs of 10k, 100k and 1M POSIX records (1000
# files, more ranks each; bench/bench_darshan_gen.c makes them with the
# library's writer), and per command its peak RSS (KiB) and user + system
# CPU seconds (bench/lib.sh's cpu_rss):
#
#   index-darshanlogs, index-darshanlogs -m 1 (lite), summarize-darshanlogs,
#   darshan-bad-ost, cache-darshan --total, and cache-darshan --base (the
#   default) and --base --total --perf (issue 20; JSON to /dev/null).
#
# Flat means the column does not grow with the records.  Never pass/fail.
#
# Measured 2026-11-26 (2 shared cores, loaded), peak KiB:
#
#   records  log MiB  index   index -m 1  summarize  bad-ost  cache --total
#   10000        2    16836    16888      15192     15292    15196
#   100000      15    16892    16952      14768     15492    14804
#   1000000    150    16788    16884      15224     15400    15072
#
# Flat: no record is held, and the reader reads the file 256 KiB at a
# time as it inflates its regions (before that, each command peaked at
# the log's size + ~17 MiB: 167 MB at 1M records; the issue's 1.9 GB
# was the records).  1M records take 4-5 s per command.
# darshan-bad-ost before this work: 126384 KiB on the 100000-record log.
#
# cache-darshan --base (the default; issue 20), measured 2026-11-27 (2
# shared cores, load ~3), peak KiB and user + system CPU s:
#
#   records  log MiB  cache-darshan       --base --total --perf
#   10000        2    17224   0.15        17008   0.15
#   100000      15    20856   0.90        21020   0.88
#   1000000    150    63048   9.63        63236   9.16
#
# It held every record before (about 1 KiB each): 122 MB at 100k and
# 1.07 GB at 1M records.  Now records beyond the first MiB go to an
# unlinked temporary file in $TMPDIR as they are decoded (about 750
# bytes each: 0.75 GB of temporary file at 1M) and are read back in the
# JSON's order; what grows is the 32-byte index entry per record (and
# qsort's copy of it while sorting) and the log's name table.  Wall time
# for 1M records, best of 3 to /dev/null: 9.14 s before, 9.29 s after
# (100k: 0.86 s both).
#
#   bench/bench-darshan-memory.sh [BUILD] [RECORDS...]
#       BUILD defaults to ./build; RECORDS to "10000 100000 1000000".
set -eu
BUILD=${1:-build}
[ $# -gt 0 ] && shift
SIZES=${*:-10000 100000 1000000}
TOKIO=$BUILD/tokio
GEN=$BUILD/bench/bench_darshan_gen
[ -x "$TOKIO" ] && [ -x "$GEN" ] || {
    echo "build first: $TOKIO and $GEN are needed" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
export PYTOKIO_CONFIG= TOKIO_CONFIG=
work=$TMP
. "$(dirname "$0")/lib.sh"

printf "%-8s %-8s %-42s %10s %8s\n" records "log MiB" command "peak KiB" \
    "cpu s"
for n in $SIZES; do
    log=$TMP/u_bench_id$n-1-1-1-1_1.darshan
    "$GEN" "$log" "$n"
    mib=$(du -m "$log" | cut -f1)
    for cmd in "index-darshanlogs -q -o $TMP/i$n.db" \
               "index-darshanlogs -q -m 1 -o $TMP/m$n.db" \
               "summarize-darshanlogs" "darshan-bad-ost" \
               "cache-darshan --total" "cache-darshan" \
               "cache-darshan --base --total --perf"; do
        rm -f "$TMP"/*.db
        set -- $cmd
        r=$(cpu_rss /dev/null "$TOKIO" "$@" "$log")
        printf "%-8s %-8s %-42s %10s %8s\n" "$n" "$mib" \
            "$(echo "$cmd" | sed "s|$TMP/||")" ${r#* } ${r% *}
    done
    rm -f "$log"
done
