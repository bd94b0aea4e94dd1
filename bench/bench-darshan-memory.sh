#!/bin/sh
# Peak memory of the Darshan summaries against the number of records in
# one log (issue 17 item 5): logs of 10k, 100k and 1M POSIX records (1000
# files, more ranks each; bench/bench_darshan_gen.c makes them with the
# library's writer), and per command its peak RSS (/usr/bin/time -f %M,
# KiB) and wall time:
#
#   index-darshanlogs, index-darshanlogs -m 1 (lite), summarize-darshanlogs,
#   darshan-bad-ost, and cache-darshan --total for comparison.
#
# Flat means the column does not grow with the records.  Never pass/fail.
#
# Measured 2026-11-26 (2 shared cores, loaded), peak KiB / seconds:
#
#   records  log MiB  index   index -m 1  summarize  bad-ost  cache --total
#   10000        2    18456    18360      15568     16260    14940
#   100000      15    31984    31720      28920     29864    28968
#   1000000    150   167008   167332     167068    167776   166688
#
# Every command peaks within ~20 MiB of the log's size, exactly as
# cache-darshan --total does: no record is held (the issue's 1.9 GB on a
# 1M-record log was the records); what remains is the log file itself,
# which the reader reads whole before inflating its regions (reader
# internals: streaming the file would make these flat too).
# darshan-bad-ost before this work: 126384 KiB on the 100000-record log.
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

peak() {    # peak RSS in KiB and seconds of: "$@"
    if /usr/bin/time -f "%M %e" -o "$TMP/time" "$@" >/dev/null 2>"$TMP/err"
    then tail -n 1 "$TMP/time"
    else echo "failed: $* ($(head -c 300 "$TMP/err"))" >&2; echo "- -"
    fi
}

printf "%-8s %-8s %-42s %10s %8s\n" records "log MiB" command "peak KiB" \
    seconds
for n in $SIZES; do
    log=$TMP/u_bench_id$n-1-1-1-1_1.darshan
    "$GEN" "$log" "$n"
    mib=$(du -m "$log" | cut -f1)
    for cmd in "index-darshanlogs -q -o $TMP/i$n.db" \
               "index-darshanlogs -q -m 1 -o $TMP/m$n.db" \
               "summarize-darshanlogs" "darshan-bad-ost" \
               "cache-darshan --total"; do
        rm -f "$TMP"/*.db
        set -- $cmd
        r=$(peak "$TOKIO" "$@" "$log")
        printf "%-8s %-8s %-42s %10s %8s\n" "$n" "$mib" \
            "$(echo "$cmd" | sed "s|$TMP/||")" ${r% *} ${r#* }
    done
    rm -f "$log"
done
