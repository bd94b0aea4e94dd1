#!/bin/sh
# NERSC ISDCT dumps: tokio against the reference (pytokio's
# bin/cache_isdct.py, bin/compare_isdct.py and NerscIsdct()), on the test
# data pack's samples and on dumps made BENCH_SCALE times larger (every
# drive copied under new nids and serial numbers):
#   tgz      a tarball of isdct outputs: parse, recast, synthesize, write
#            (cache-isdct --json and --csv, output to /dev/null);
#   json.gz  the same dump saved as JSON: load it back, write it out;
#   compare  compare-isdct OLD NEW on two JSON caches (two loads, the diff
#            and its reduction);
#   parse    the read alone in-process, import and start-up excluded on
#            both sides: NerscIsdct(path) (best of 3) against
#            bench/bench_isdct (build/bench/bench_isdct, the same
#            tokio_nersc_isdct_open() the commands use, nothing written).
# The end-to-end lines include each side's start-up: Python's imports
# (pandas) on the reference's, loading tokio's libraries on tokio's.
#
# Prints per input: MB of uncompressed input text, CPU seconds (user +
# system; on a shared machine wall time says more about the neighbours),
# MB/s, peak RSS of both and the ratio of CPU times.  Never pass/fail.
#
# The reference is found through environment variables only:
#   PYTOKIO_SRC     a pytokio checkout; default /tmp/pytokio when present
#   PYTOKIO_PYTHON  default /usr/bin/python3 (Debian's, with pandas)
# Usage: bench/bench-isdct.sh [BUILD_DIR]; TOKIO_TESTDATA (default
# ../shared/testdata beside the project); BENCH_SCALE (default 100).
set -u
# internal: `bench-isdct.sh --repeat N CMD...` runs CMD N times (timed as one)
if [ "${1:-}" = "--repeat" ]; then
    n=$2; shift 2
    i=0
    while [ "$i" -lt "$n" ]; do "$@" > /dev/null 2>&1; i=$((i + 1)); done
    exit 0
fi
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
tokio=$build/tokio
data=${TOKIO_TESTDATA:-$top/../shared/testdata}/pytokio-inputs
scale=${BENCH_SCALE:-100}
py=${PYTOKIO_PYTHON:-/usr/bin/python3}
pysrc=${PYTOKIO_SRC:-}
[ -n "$pysrc" ] || [ ! -d /tmp/pytokio/tokio ] || pysrc=/tmp/pytokio
export LC_ALL=C TZ=America/Los_Angeles

if [ ! -x "$tokio" ]; then
    echo "bench-isdct: $tokio missing (build first)"
    exit 0
fi
if [ ! -f "$data/sample_nersc_isdct.tgz" ]; then
    echo "bench-isdct: $data/sample_nersc_isdct.tgz absent (the shared test-data pack)"
    exit 0
fi
if ! [ -x "$py" ]; then
    echo "bench-isdct: $py absent: it also makes the generated input"
    exit 0
fi
if [ -z "$pysrc" ] || [ ! -f "$pysrc/tokio/connectors/nersc_isdct.py" ]; then
    echo "pytokio not found (set PYTOKIO_SRC=...): tokio's figures only"
    pysrc=
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The enlarged dump: `scale` copies of every node folder.
cat > "$work/gen.py" <<'PYEOF'
import io, re, sys, tarfile
src, scale, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
members = []
with tarfile.open(src) as t:
    for m in t.getmembers():
        if m.isfile():
            members.append((m, t.extractfile(m).read()))
with tarfile.open(out, "w:gz") as t:
    for copy in range(scale):
        for m, data in members:
            name = re.sub(r"nid(\d+)", lambda x: "nid%05d" % (int(x.group(1)) + 10000 * copy), m.name)
            text = re.sub(rb"(CVF[^ ]+)-(\d+)", lambda x: x.group(1) + b"X%d-" % copy + x.group(2), data)
            ti = tarfile.TarInfo(name); ti.size = len(text); ti.mtime = m.mtime
            t.addfile(ti, io.BytesIO(text))
PYEOF
# The enlarged JSON caches: the same renaming over the saved dumps.
cat > "$work/genjson.py" <<'PYEOF'
import gzip, json, re, sys
src, scale, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with gzip.open(src, "rt") as f:
    dump = json.load(f)
big = {}
for copy in range(scale):
    for sn, counters in dump.items():
        c = dict(counters)
        if isinstance(c.get("node_name"), str):
            c["node_name"] = re.sub(r"nid(\d+)", lambda x: "nid%05d" % (int(x.group(1)) + 10000 * copy), c["node_name"])
        big[re.sub(r"(CVF[^ ]+)-(\d+)", lambda x: x.group(1) + "X%d-" % copy + x.group(2), sn)] = c
with gzip.open(out, "wt") as f:
    json.dump(big, f)
PYEOF
cp "$data/sample_nersc_isdct.tgz" "$work/sample.tgz"
cp "$data/sample_nersc_isdct.json.gz" "$work/sample.json.gz"
cp "$data/sample_nersc_isdct-1.json.gz" "$work/sample-1.json.gz"
"$py" "$work/gen.py" "$work/sample.tgz" "$scale" "$work/large.tgz"
"$py" "$work/genjson.py" "$work/sample.json.gz" "$scale" "$work/large.json.gz"
"$py" "$work/genjson.py" "$work/sample-1.json.gz" "$scale" "$work/large-1.json.gz"

# "cpu_seconds maxrss_kib" of one command, best of 3
measure() {
    best=
    for _ in 1 2 3; do
        /usr/bin/time -f '%U %S %M' -o "$work/time" "$@" > /dev/null 2>&1
        read -r u y m < "$work/time"
        s=$(awk -v u="$u" -v y="$y" 'BEGIN { printf "%.2f", u + y }')
        if [ -z "$best" ] || awk -v a="$s" -v b="${best% *}" 'BEGIN { exit !(a < b) }'; then
            best="$s $m"
        fi
    done
    echo "$best"
}

# CPU times come in 10 ms ticks: tokio takes about one on the samples and
# 10 to 130 on the large inputs, so `reps` runs are timed as one and the
# time divided (1% or better)
reps_for() {
    case $1 in sample*) echo 50 ;; *) echo 10 ;; esac
}

# measure() of `reps` runs, CPU seconds divided by `reps`
measure_reps() {
    reps=$1; shift
    set -- $(measure "$top/bench/bench-isdct.sh" --repeat "$reps" "$@")
    awk -v s="$1" -v m="$2" -v n="$reps" 'BEGIN { printf "%.4f %s\n", s / n, m }'
}

# MB of the text in a .tgz or .json.gz
text_mb() {
    case $1 in
    *.tgz) tar xzOf "$1" | wc -c ;;
    *) gzip -dc "$1" | wc -c ;;
    esac | awk '{ printf "%.2f", $1 / 1e6 }'
}

# one line: LABEL, MB, repetitions, the reference's script in bin/ and
# its arguments; tokio runs the command of the same name with the same
# arguments.  Both end to end.
side_by_side() {
    label=$1 mb=$2 reps=$3 script=$4; shift 4
    cmd=$(basename "$script" .py | tr _ -)
    t=$(measure_reps "$reps" "$tokio" "$cmd" "$@")
    r=
    if [ -n "$pysrc" ]; then
        r=$(PYTHONPATH=$pysrc measure "$py" -W ignore "$pysrc/bin/$script" "$@")
    fi
    set -- $t
    t_s=$1 t_rss=$2
    line=$(awk -v mb="$mb" -v s="$t_s" 'BEGIN { printf "%.1f MB/s", (s > 0 ? mb / s : 0) }')
    if [ -n "$r" ]; then
        set -- $r
        ratio=$(awk -v a="$1" -v b="$t_s" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
        echo "$label: $mb MB; tokio ${t_s}s ($line) ${t_rss} KiB; $script ${1}s ${2} KiB; ${ratio}x"
    else
        echo "$label: $mb MB; tokio ${t_s}s ($line) ${t_rss} KiB"
    fi
}

py_parse='
import sys, time, tokio.connectors.nersc_isdct as m
best = None
for _ in range(3):
    t = time.process_time(); m.NerscIsdct(sys.argv[1]); t = time.process_time() - t
    best = t if best is None or t < best else best
print("%.5f" % best)'
driver=$build/bench/bench_isdct

for f in sample.tgz large.tgz sample.json.gz large.json.gz; do
    mb=$(text_mb "$work/$f")
    reps=$(reps_for "$f")
    for fmt in --json --csv; do
        side_by_side "$f $fmt" "$mb" "$reps" cache_isdct.py $fmt "$work/$f"
    done
    if [ -n "$pysrc" ] && [ -x "$driver" ]; then
        case $f in sample*) n=200 ;; *) n=3 ;; esac
        set -- $("$driver" "$n" "$work/$f")
        t_parse=$2
        r_parse=$(PYTHONPATH=$pysrc "$py" -W ignore -c "$py_parse" "$work/$f" 2>/dev/null)
        ratio=$(awk -v a="$r_parse" -v b="$t_parse" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
        rate=$(awk -v mb="$mb" -v s="$t_parse" 'BEGIN { printf "%.1f", (s > 0 ? mb / s : 0) }')
        echo "$f parse only (in-process): tokio ${t_parse}s CPU ($rate MB/s); NerscIsdct() ${r_parse}s CPU; ${ratio}x"
    elif [ -n "$pysrc" ]; then
        echo "$f parse only: $driver missing (build the bench drivers)"
    fi
done
for size in sample large; do
    old=$work/$size-1.json.gz new=$work/$size.json.gz
    mb=$(awk -v a="$(text_mb "$old")" -v b="$(text_mb "$new")" 'BEGIN { printf "%.2f", a + b }')
    side_by_side "compare $size-1.json.gz $size.json.gz" "$mb" \
        "$(reps_for "$size")" compare_isdct.py "$old" "$new"
done
