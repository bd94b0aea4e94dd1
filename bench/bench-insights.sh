#!/bin/sh
# Insights: the client side of `tokio insights` (the rules over a Darshan
# log alone) per log of the test-data pack, against reading the same
# modules of the log with nothing done (the floor), end to end per call
# and per log of one call over all of them, and against Drishti (the
# peer, hpc-io/drishti-io) when it is installed; then peak memory on
# logs of 10^4, 10^5 and 10^6 POSIX records.  Prints figures and ratios,
# never pass/fail.
#
# The issue's figures: under 20 ms per log for the client side on the
# sample logs; memory bounded on a 1,000,000-record log.  The reader
# keeps the records of the modules it reads for now (a callback reader
# is on its way), so the memory table sets the reader alone (bench_
# insights rss read) beside insights (rss insights): their difference is
# what the rules themselves hold.
#
# Measured (2 shared cores, BENCH_N=11): the client side in process
# 0.22-0.95 ms per pack log, sample-badost.darshan 11.6 ms of which
# reading is 10.7 ms; end to end one call per log 14-26 ms (process
# start-up ~13 ms), 2.7 ms per log in one call over all fifteen; peak
# memory of the rules beyond the reader 104 / 92 / 12 KiB at 10^4 /
# 10^5 / 10^6 records, the reader itself 31 MiB / 191 MiB / 1.7 GiB
# (records kept).  Drishti could not be installed here (no network).
#
# Drishti is found through DRISHTI only (e.g. a venv's bin/drishti after
# `pip install drishti-io`, which brings pydarshan); it is never part of
# the project.
#
# Usage: bench/bench-insights.sh [BUILD_DIR]; BENCH_N (default 21) runs
# per command; BENCH_BIG=0 skips the 10^6-record log (its writing takes
# a minute); TOKIO_TESTDATA (default ../shared/testdata beside the
# project).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
tokio=$build/tokio
drv=$build/bench/bench_insights
timer=$build/bench/bench_darshan
gen=$build/examples/make_sample_data
data=${TOKIO_TESTDATA:-$top/../shared/testdata}
n=${BENCH_N:-21}
export TZ=America/Los_Angeles LC_ALL=C PYTOKIO_CONFIG= TOKIO_CONFIG=

for x in "$tokio" "$drv" "$timer" "$gen"; do
    if [ ! -x "$x" ]; then
        echo "bench-insights: $x missing (build first)"
        exit 0
    fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

logs=
for f in "$data"/darshan-logs/*.darshan "$data"/pytokio-inputs/*.darshan; do
    [ -f "$f" ] && [ "$(wc -c < "$f")" -gt 1024 ] && logs="$logs $f"
done
if [ -z "$logs" ]; then
    echo "bench-insights: no logs in $data (the shared test-data pack)"
else
    echo "== client side, in process: median of $n runs per log"
    # shellcheck disable=SC2086
    "$drv" client "$n" $logs
    echo
    echo "== end to end: tokio insights --client-only --json (median/min ms of $n)"
    # shellcheck disable=SC2086
    set -- $("$timer" time "$n" -- "$tokio" insights --client-only --json $logs \
             -- "$tokio" --version)
    count=$(echo $logs | wc -w)
    all=$1 startup=$7
    echo "all $count logs in one call: $all ms; start-up alone $startup ms;" \
         "per log $(awk -v a="$all" -v s="$startup" -v c="$count" \
                    'BEGIN { printf "%.2f", (a - s) / c }') ms"
    drishti=${DRISHTI:-}
    printf '%-52s %10s %12s %8s\n' log tokio_ms drishti_ms d/t
    for log in $logs; do
        if [ -n "$drishti" ]; then
            set -- $("$timer" time "$n" -- "$tokio" insights --client-only \
                     --json "$log" -- "$drishti" "$log")
            t=$1 d=$7
            r=$(awk -v a="$d" -v b="$t" 'BEGIN { if (b > 0) printf "%.1f", a / b; else printf "-" }')
        else
            set -- $("$timer" time "$n" -- "$tokio" insights --client-only \
                     --json "$log")
            t=$1 d=- r=-
        fi
        printf '%-52s %10s %12s %8s\n' "$(basename "$log" | cut -c1-52)" \
            "$t" "$d" "$r"
    done
    [ -n "$drishti" ] || echo "(Drishti not found: set DRISHTI=path/to/drishti for its column)"
    echo
fi

echo "== peak memory (KiB): reading alone, insights, their difference"
printf '%10s %12s %12s %12s %10s\n' records read_KiB insights_KiB diff_KiB log_MB
for size in "10 1000" "100 1000" "1000 1000"; do
    set -- $size
    ranks=$1 files=$2
    records=$((ranks * files))
    if [ "$records" -ge 1000000 ] && [ "${BENCH_BIG:-1}" = 0 ]; then
        continue
    fi
    log=$tmp/bench-$records.darshan
    "$gen" --bench-log "$log" --ranks "$ranks" --files "$files" >/dev/null || continue
    r=$("$drv" rss read "$log")
    i=$("$drv" rss insights "$log")
    printf '%10s %12s %12s %12s %10s\n' "$records" "$r" "$i" $((i - r)) \
        "$(awk -v b="$(wc -c < "$log")" 'BEGIN { printf "%.1f", b / 1e6 }')"
    rm -f "$log"
done
exit 0
