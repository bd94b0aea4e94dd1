#!/bin/sh
# Globus GridFTP transfer logs: tokio_globuslogs_open()
# (bench/bench_globuslogs) against the reference's GlobusLog.from_file(),
# and NERSC's Elasticsearch cache: tokio_nersc_globuslogs_open() against
# NerscGlobusLogs.from_cache() + query() (what cache_nersc_globuslogs
# does before writing), parse only and parse + JSON (json.dumps, sorted,
# indent 4), on the sample inputs and on 100x enlarged copies (the cache's
# hits repeated 100 times in their page; made with the reference's
# Python, so only when it is there).  Prints MB/s of uncompressed text,
# the ratio and peak RSS, all in CPU time (the machine may be shared);
# never fails the build.
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
py_json="$py_load
print(json.dumps(load(sys.argv[1], sys.argv[2]), indent=4, sort_keys=True,
                 default=str))"

rss() { # peak KiB of a command
    /usr/bin/time -f '%M' -o "$work/rss" "$@" > /dev/null 2>&1
    cat "$work/rss"
}
cpu() { # user + system seconds of a command, its stdout to $work/out
    /usr/bin/time -f '%U %S' -o "$work/cpu" "$@" > "$work/out" 2>/dev/null
    awk '{ print $1 + $2 }' "$work/cpu"
}
mbs() { awk -v b="$1" -v t="$2" 'BEGIN { printf "%.1f", b / t / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", a / b }'; }
same_json='
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
print("same JSON" if a == b else "JSON DIFFERS")'

for f in globus globus100 $nersc_files; do
    file=$work/$f.txt
    kind=globus; opt=
    case $f in nersc*) kind=nersc; opt=--nersc ;; esac
    bytes=$(wc -c < "$file")
    reps=$((20000000 / bytes + 1))
    t=$("$build/bench/bench_globuslogs" $opt "$file" $reps 2>&1 >/dev/null |
        cut -d' ' -f2)
    t_rss=$(rss "$build/bench/bench_globuslogs" $opt "$file" --json)
    tj=$(cpu "$build/bench/bench_globuslogs" $opt "$file" --json)
    mv "$work/out" "$work/c.json"
    line="$f ($bytes B): tokio parse $(mbs $bytes $t) MB/s, RSS $t_rss KiB"
    if [ -x "$py" ] && [ -d "$pytokio/tokio" ]; then
        preps=$((2000000 / bytes + 1))
        export PYTHONPATH=$pytokio
        p=$("$py" -c "$py_parse" $kind "$file" $preps)
        p_rss=$(rss "$py" -c "$py_json" $kind "$file")
        pj=$(cpu "$py" -c "$py_json" $kind "$file")
        same=$("$py" -c "$same_json" "$work/c.json" "$work/out")
        line="$line; reference $(mbs $bytes $p) MB/s, RSS $p_rss KiB"
        line="$line; parse $(ratio $p $t)x; parse+JSON $tj vs $pj CPU s"
        line="$line; $same"
    fi
    echo "$line"
done
