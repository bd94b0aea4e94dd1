#!/bin/sh
# Compressed text input: tokio_input_getline() against what the reference's
# text connectors do (Python's gzip.open(..., 'rt') iterated line by line),
# on a generated 200 MB `lfs df`-like file, gzip and bzip2.
# Prints wall seconds, CPU seconds (user + sys: tokio inflates gzip in a
# second thread, so its wall time can be below its CPU time), peak memory
# and the ratio of wall times; for tokio also the reading thread's own
# CPU time and the MB/s it allows (what wall time comes to when the
# machine's other core is free); never fails the build.
set -u
build=$1
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

awk 'BEGIN { for (i = 0; i < 3000000; i++)
    printf "snx11025-OST%04x_UUID  %d  %d  %d  %d%% /scratch1[OST:%d]\n",
           i % 248, 72117127556 + i, 3800000000 + i, 68000000000 - i,
           i % 100, i % 248 }' > "$work/lfs.txt"
gzip -c "$work/lfs.txt" > "$work/lfs.txt.gz"
bzip2 -c "$work/lfs.txt" > "$work/lfs.txt.bz2"

# "seconds cpu_seconds maxrss_kib output" of one command
measure() {
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" > "$work/out" 2>"$work/err"
    set -- $(cat "$work/time")
    printf '%s %s %s %s\n' "$1" "$(awk -v u="$2" -v s="$3" 'BEGIN { print u + s }')" \
        "$4" "$(cat "$work/out")"
}

py_count='
import sys, gzip, bz2
opener = gzip.open if sys.argv[1].endswith(".gz") else bz2.open
n = b = 0
with opener(sys.argv[1], "rt") as f:
    for line in f:
        n += 1; b += len(line.rstrip("\n"))
print(n, b)'

for f in lfs.txt.gz lfs.txt.bz2; do
    set -- $(measure "$build/bench/bench_input" "$work/$f")
    t_secs=$1 t_cpu=$2 t_rss=$3 t_out="$4 $5"
    t_main=$(awk 'NF == 2 { print $2 }' "$work/err")
    t_mbs=$(awk -v b="$5" -v s="$t_main" 'BEGIN { if (s > 0) printf "%.0f", b / 1e6 / s; else printf "-" }')
    if command -v python3 >/dev/null 2>&1; then
        set -- $(measure python3 -c "$py_count" "$work/$f")
        r_secs=$1 r_cpu=$2 r_rss=$3 r_out="$4 $5"
        agree=$([ "$t_out" = "$r_out" ] && echo "same lines" || echo "DIFFERENT: $t_out vs $r_out")
        ratio=$(awk -v a="$r_secs" -v b="$t_secs" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
        echo "$f: tokio ${t_secs}s (CPU ${t_cpu}s, reading thread ${t_main}s: ${t_mbs} MB/s) ${t_rss} KiB; python ${r_secs}s (CPU ${r_cpu}s) ${r_rss} KiB; ${ratio}x faster; $agree"
    else
        echo "$f: tokio ${t_secs}s (CPU ${t_cpu}s, reading thread ${t_main}s: ${t_mbs} MB/s) ${t_rss} KiB (python3 absent: no ratio)"
    fi
done
