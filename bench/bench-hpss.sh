#!/bin/sh
# HPSS logs and daily report: tokio_hpss_open() (bench/bench_hpss) against
# the reference's HsiLog/FtpLog.from_file() and HpssDailyReport, parse only
# (in-process), and parse + JSON end to end (one process each: `tokio
# cache-hpss --json` against a script doing json.dumps, sorted, indent 4,
# each the mean of repeated runs), on the sample inputs and on 100x
# enlarged copies.  Prints MB/s of uncompressed text, the ratios and peak
# RSS, all in CPU time (the machine may be shared); never fails the build.
set -u
build=$1
top=$(cd "$(dirname "$0")/.." && pwd)
inputs=${TOKIO_TESTDATA:-$top/../shared/testdata}/pytokio-inputs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TZ=America/Los_Angeles
py=/usr/bin/python3
pytokio=${PYTOKIO:-/tmp/pytokio}

if [ ! -d "$inputs" ]; then
    echo "bench-hpss: $inputs absent; nothing to measure"
    exit 0
fi
zcat "$inputs/hsilog.txt.gz" > "$work/hsi.txt"
zcat "$inputs/hpssftplog.txt.gz" > "$work/ftp.txt"
cp "$inputs/hpss_daily.txt" "$work/daily.txt"
for f in hsi ftp; do
    i=0; while [ $i -lt 100 ]; do cat "$work/$f.txt"; i=$((i + 1)); done \
        > "$work/${f}100.txt"
done
# the daily report enlarged: its tables repeated under new system names
{ head -1 "$work/daily.txt"
  i=0; while [ $i -lt 100 ]; do
      sed -e '1d' -e "s/^Archive *:/Archive$i :/" -e "s/^Hpss *:/Hpss$i :/" \
          -e "s/^Archive:/Archive$i:/" -e "s/^Hpss:/Hpss$i:/" "$work/daily.txt"
      i=$((i + 1)); done; } > "$work/daily100.txt"

# "seconds_per_parse" of the reference, repeated to run >= ~1 s
py_parse='
import sys, time, tokio.connectors.hpss as m
cls = {"hsi": m.HsiLog.from_file, "ftp": m.FtpLog.from_file,
       "daily": lambda f: m.HpssDailyReport(cache_file=f)}[sys.argv[1]]
reps = int(sys.argv[3]); t = time.process_time()
for _ in range(reps): cls(sys.argv[2])
print((time.process_time() - t) / reps)'
py_json='
import sys, json, tokio.connectors.hpss as m
cls = {"hsi": m.HsiLog.from_file, "ftp": m.FtpLog.from_file,
       "daily": lambda f: m.HpssDailyReport(cache_file=f)}[sys.argv[1]]
print(json.dumps(cls(sys.argv[2]), indent=4, sort_keys=True, default=str))'

rss() { # peak KiB of a command
    /usr/bin/time -f '%M' -o "$work/rss" "$@" > /dev/null 2>&1
    cat "$work/rss"
}
cpu() { # mean user + system seconds of $1 runs of a command, its stdout
        # to $work/out
    n=$1; shift
    /usr/bin/time -f '%U %S' -o "$work/cpu" sh -c '
        out=$1 n=$2; shift 2; i=0
        while [ $i -lt $n ]; do "$@" > "$out" 2>/dev/null; i=$((i + 1)); done
    ' sh "$work/out" "$n" "$@"
    awk -v n="$n" '{ print ($1 + $2) / n }' "$work/cpu"
}
mbs() { awk -v b="$1" -v t="$2" 'BEGIN { printf "%.1f", b / t / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
same_json='
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
print("same JSON" if a == b else "JSON DIFFERS")'

for kind in hsi ftp daily; do
    for f in $kind ${kind}100; do
        file=$work/$f.txt
        bytes=$(wc -c < "$file")
        reps=$((20000000 / bytes + 1))
        t=$("$build/bench/bench_hpss" "$file" $reps 2>&1 >/dev/null |
            cut -d' ' -f2)
        t_rss=$(rss "$build/tokio" cache-hpss --json "$file")
        tj=$(cpu 20 "$build/tokio" cache-hpss --json "$file")
        mv "$work/out" "$work/c.json"
        line="$f ($bytes B): tokio parse $(mbs $bytes $t) MB/s, RSS $t_rss KiB"
        if [ -x "$py" ] && [ -d "$pytokio/tokio" ]; then
            preps=$((2000000 / bytes + 1))
            export PYTHONPATH=$pytokio
            p=$("$py" -c "$py_parse" $kind "$file" $preps)
            p_rss=$(rss "$py" -c "$py_json" $kind "$file")
            pj=$(cpu 3 "$py" -c "$py_json" $kind "$file")
            same=$("$py" -c "$same_json" "$work/c.json" "$work/out")
            line="$line; reference $(mbs $bytes $p) MB/s, RSS $p_rss KiB"
            line="$line; parse $(ratio $p $t)x; parse+JSON $tj vs $pj CPU s"
            line="$line ($(ratio $pj $tj)x)"
            line="$line; $same"
        fi
        echo "$line"
    done
done
