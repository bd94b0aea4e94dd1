#!/bin/sh
# DXT traces in bounded memory (issue 20): makes a Darshan log of
# BENCH_DXT_MIB (default 2048) MiB of uncompressed DXT_POSIX segments with
# libtokio's writer (`bench_dxt make`, bench/bench_dxt.c: 64 ranks, one
# file each, 1 MiB sequential writes then reads, jittered times), then
# times, best of 3 (user + system CPU seconds, and peak RSS):
#
#   floor     `bench_dxt inflate`: only inflate every region (a zcat)
#   decode    `bench_dxt decode`: the library reads the traces, handed over
#             a few hundred segments at a time (dxt_pieces), nothing kept
#   dxt text  `tokio darshan-dxt LOG > /dev/null` (darshan-dxt-parser's
#             text: 85 bytes written per 32-byte segment)
#   cache     `tokio cache-darshan LOG > /dev/null` (its JSON shows no
#             traces: their regions are not read)
#
# and MB/s of uncompressed DXT, and each against the floor.  Targets from
# issue 20: peak RSS < 256 MiB; throughput within 1.5x of the floor.
# Never pass/fail.  The log (its compressed size is about 30%) is kept in
# BENCH_DXT_DIR (default /tmp/bench-dxt) and reused; making it takes
# about 6 minutes and 3.3 GB of memory (the writer holds the whole log).
#
# Usage: bench/bench-dxt.sh [BUILD_DIR]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
tokio=$build/tokio
drv=$build/bench/bench_dxt
mib=${BENCH_DXT_MIB:-2048}
work=${BENCH_DXT_DIR:-/tmp/bench-dxt}
. "$top/bench/lib.sh"
export LC_ALL=C

if [ ! -x "$tokio" ] || [ ! -x "$drv" ]; then
    echo "bench-dxt: $tokio or $drv missing (build first)"
    exit 0
fi
mkdir -p "$work"
log=$work/dxt-$mib.darshan
if [ ! -s "$log" ]; then
    echo "bench-dxt: making $log ($mib MiB of DXT segments)..."
    "$drv" make "$log" "$mib" > /dev/null || { echo "bench-dxt: make failed"; exit 0; }
fi
bytes=$((mib * 1048576))
echo "log: $log, $(wc -c < "$log") bytes compressed, $bytes bytes of DXT segments"
printf '%-10s %9s %9s %10s %9s\n' what cpu_s rss_MiB DXT_MB/s x_floor
floor=
for what in floor decode dxt cache; do
    case $what in
        floor) set -- "$drv" inflate "$log" ;;
        decode) set -- "$drv" decode "$log" ;;
        dxt) set -- "$tokio" darshan-dxt "$log" ;;
        cache) set -- "$tokio" cache-darshan "$log" ;;
    esac
    r=$(cpu3 "$@")
    s=${r% *} kib=${r#* }
    [ -n "$floor" ] || floor=$s
    printf '%-10s %9s %9s %10s %9s\n' "$what" "$s" \
        "$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')" \
        "$(mbs "$bytes" "$s")" "$(ratio "$s" "$floor")"
done
