#!/bin/sh
# Text input: tokio_input_getline() against what the reference's text
# connectors do (Python's open()/gzip.open()/bz2.open() in 'rt' mode,
# iterated line by line), on a generated 250 MB `lfs df`-like file, plain,
# gzip and bzip2.  Prints for each: best-of-RUNS wall and CPU seconds
# (user + sys), the MB/s of decompressed text each makes (the machine may
# be shared: CPU time says more), peak memory, and the ratio of wall
# times; never fails the build.
#
#   bench/bench-input.sh BUILD_DIR     (RUNS=3: runs of each, best kept)
set -u
build=$1
runs=${RUNS:-3}
py=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

awk 'BEGIN { for (i = 0; i < 3000000; i++)
    printf "snx11025-OST%04x_UUID  %d  %d  %d  %d%% /scratch1[OST:%d]\n",
           i % 248, 72117127556 + i, 3800000000 + i, 68000000000 - i,
           i % 100, i % 248 }' > "$work/lfs.txt"
gzip -c "$work/lfs.txt" > "$work/lfs.txt.gz"
bzip2 -c "$work/lfs.txt" > "$work/lfs.txt.bz2"
mb=$(wc -c < "$work/lfs.txt" | awk '{ print $1 / 1e6 }')

# "wall_seconds cpu_seconds maxrss_kib output..." of one command, the run
# with the least wall time of $runs
measure() {
    best=
    for _ in $(seq "$runs"); do
        /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" > "$work/out" 2>"$work/err"
        this=$(awk '{ printf "%s %.2f %s", $1, $2 + $3, $4 }' "$work/time")
        if [ -z "$best" ] || awk -v a="${this%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
            best=$this
        fi
    done
    echo "$best $(cat "$work/out")"
}

py_count='
import sys, gzip, bz2
f = sys.argv[1]
opener = gzip.open if f.endswith(".gz") else bz2.open if f.endswith(".bz2") else open
n = b = 0
with opener(f, "rt") as fp:
    for line in fp:
        n += 1; b += len(line.rstrip("\n"))
print(n, b)'

for f in lfs.txt lfs.txt.gz lfs.txt.bz2; do
    set -- $(measure "$build/bench/bench_input" "$work/$f")
    t_secs=$1 t_cpu=$2 t_rss=$3 t_out="$4 $5"
    t_mbs=$(awk -v m="$mb" -v s="$t_secs" 'BEGIN { printf "%.0f", (s > 0 ? m / s : 0) }')
    t_cmbs=$(awk -v m="$mb" -v s="$t_cpu" 'BEGIN { printf "%.0f", (s > 0 ? m / s : 0) }')
    if [ -x "$py" ]; then
        set -- $(measure "$py" -c "$py_count" "$work/$f")
        r_secs=$1 r_cpu=$2 r_rss=$3 r_out="$4 $5"
        agree=$([ "$t_out" = "$r_out" ] && echo "same lines" || echo "DIFFERENT: $t_out vs $r_out")
        ratio=$(awk -v a="$r_secs" -v b="$t_secs" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
        echo "$f: tokio ${t_secs}s (${t_mbs} MB/s; CPU ${t_cpu}s, ${t_cmbs} MB/s) ${t_rss} KiB; python ${r_secs}s (CPU ${r_cpu}s) ${r_rss} KiB; ${ratio}x faster; $agree"
    else
        echo "$f: tokio ${t_secs}s (${t_mbs} MB/s; CPU ${t_cpu}s, ${t_cmbs} MB/s) ${t_rss} KiB ($py absent: no ratio)"
    fi
done
