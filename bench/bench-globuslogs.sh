#!/bin/sh
# Globus GridFTP transfer logs and NERSC's Elasticsearch cache of them.
# Parse only: tokio_globuslogs_open() (bench/bench_globuslogs) against the
# reference's GlobusLog.from_file(), tokio_nersc_globuslogs_open()
# against NerscGlobusLogs.from_cache() + query().  End to end (process
# start to exit, best CPU of several runs): `tokio cache-globuslogs` (JSON
# and CSV) against json.dumps() / pandas' to_csv() of GlobusLog, `tokio
# cache-nersc-globuslogs` (JSON and CSV) against the reference's
# cache_nersc_globuslogs.py; outputs compared byte for byte.  On the
# sample inputs and on 100x enlarged copies (the cache's hits repeated
# 100 times in their page; made with the reference's Python, so only when
# it is there).  Prints MB/s of uncompressed text, ratios and peak RSS,
# all in CPU time (the machine may be shared); never fails the build.
set -u
build=$1
top=$(cd "$(dirname "$0")/.." && pwd)
inputs=${TOKIO_TESTDATA:-$top/../shared/testdata}/pytokio-inputs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TZ=America/Los_Angeles
py=/usr/bin/python3
pytokio=${PYTOKIO:-/tmp/pytokio}

if [ ! -f "$inputs/globuslogs.txt.gz" ]; then
    echo "bench-globuslogs: $inputs absent; nothing to measure"
    exit 0
fi
zcat "$inputs/globuslogs.txt.gz" > "$work/globus.txt"
i=0; while [ $i -lt 100 ]; do cat "$work/globus.txt"; i=$((i + 1)); done \
    > "$work/globus100.txt"
zcat "$inputs/globuslogs.json.gz" > "$work/nersc.txt"
nersc_files=nersc
if [ -x "$py" ]; then
    "$py" -c '
import json, sys
pages = json.load(open(sys.argv[1]))
json.dump([[h for _ in range(100) for h in p] for p in pages],
          open(sys.argv[2], "w"), indent=4)' "$work/nersc.txt" \
        "$work/nersc100.txt" && nersc_files="nersc nersc100"
fi

# argv: kind (globus, nersc), file[, reps]
# (imported before the clock starts)
py_load='
import sys, time, datetime, json
import tokio.connectors.globuslogs as g, tokio.connectors.nersc_globuslogs as n
def load(kind, f):
    if kind == "globus":
        return g.GlobusLog.from_file(f)
    es = n.NerscGlobusLogs.from_cache(f)
    es.query(datetime.datetime(2019, 1, 29), datetime.datetime(2019, 1, 30))
    return es.scroll_pages
'
py_parse="$py_load
reps = int(sys.argv[3]); t = time.process_time()
for _ in range(reps): load(sys.argv[1], sys.argv[2])
print((time.process_time() - t) / reps)"
rss() { # peak KiB of a command
    /usr/bin/time -f '%M' -o "$work/rss" "$@" > /dev/null 2>&1
    cat "$work/rss"
}
cpu() { # mean user + system seconds of N runs of a command, timed
    # together (/usr/bin/time counts in 10 ms steps); its stdout to
    # $work/out
    /usr/bin/time -f '%U %S' -o "$work/cpu" sh -c 'n=$1; shift
        while [ "$n" -gt 0 ]; do "$@" > "$0"; n=$((n - 1)); done' \
        "$work/out" "$@" 2>/dev/null
    awk -v n="$1" '{ printf "%.4f\n", ($1 + $2) / n }' "$work/cpu"
}
mbs() { awk -v b="$1" -v t="$2" 'BEGIN { printf "%.1f", b / t / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
dates="2019-01-29T00:00:00 2019-01-29T00:10:00"
py_globus_json='
import sys, json, tokio.connectors.globuslogs as g
print(json.dumps(g.GlobusLog.from_file(sys.argv[1]), indent=4, sort_keys=True,
                 default=str))'
py_globus_csv='
import sys, pandas, tokio.connectors.globuslogs as g
sys.stdout.write(pandas.DataFrame(g.GlobusLog.from_file(sys.argv[1])).to_csv())'

for f in globus globus100 $nersc_files; do
    file=$work/$f.txt
    kind=globus; opt=
    case $f in nersc*) kind=nersc; opt=--nersc ;; esac
    bytes=$(wc -c < "$file")
    reps=$((20000000 / bytes + 1))
    t=$("$build/bench/bench_globuslogs" $opt "$file" $reps 2>&1 >/dev/null |
        cut -d' ' -f2)
    t_rss=$(rss "$build/bench/bench_globuslogs" $opt "$file" --json)
    line="$f ($bytes B): tokio parse $(mbs $bytes $t) MB/s, RSS $t_rss KiB"
    have_py=
    if [ -x "$py" ] && [ -d "$pytokio/tokio" ]; then
        have_py=1
        preps=$((2000000 / bytes + 1))
        export PYTHONPATH=$pytokio
        p=$("$py" -c "$py_parse" $kind "$file" $preps)
        line="$line; reference $(mbs $bytes $p) MB/s, parse $(ratio $p $t)x"
    fi
    echo "$line"
    for mode in json csv; do
        flag=; [ $mode = csv ] && flag=--csv
        if [ $kind = globus ]; then
            tj=$(cpu 20 "$build/tokio" cache-globuslogs $flag "$file")
        else
            tj=$(cpu 20 "$build/tokio" cache-nersc-globuslogs $flag \
                 --input "$file" $dates)
        fi
        mv "$work/out" "$work/ours"
        line="  $mode end to end: tokio $tj CPU s/run"
        if [ -n "$have_py" ]; then
            if [ $kind = globus ]; then
                eval "prog=\$py_globus_$mode"
                pj=$(cpu 3 "$py" -c "$prog" "$file")
            else
                pj=$(cpu 3 "$py" "$pytokio/bin/cache_nersc_globuslogs.py" \
                     $flag --input "$file" $dates)
            fi
            same="OUTPUTS DIFFER"
            cmp -s "$work/ours" "$work/out" && same="same output"
            line="$line, reference $pj: $(ratio $pj $tj)x; $same"
        fi
        echo "$line"
    done
done
