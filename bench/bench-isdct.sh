#!/bin/sh
# NERSC ISDCT dumps: `tokio cache-isdct` against the reference's
# bin/cache_isdct.py, end to end (JSON and CSV out to /dev/null), on the
# test-data pack's sample_nersc_isdct.tgz and on a dump made BENCH_SCALE
# times larger (every node folder copied under new nids, serial numbers
# made unique), as .tgz.  Also the reference's parse alone
# (NerscIsdct(path) in-process, import time left out) for a fair ratio.
#
# Prints per input: MB of uncompressed isdct text, CPU seconds (user +
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
cp "$data/sample_nersc_isdct.tgz" "$work/sample.tgz"
"$py" "$work/gen.py" "$work/sample.tgz" "$scale" "$work/large.tgz"

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

# tokio on the small sample takes about 10 ms, the clock's resolution:
# time `reps` runs and divide
reps_for() {
    case $1 in sample.tgz) echo 50 ;; *) echo 1 ;; esac
}

# measure() of `reps` runs, CPU seconds divided by `reps`
measure_reps() {
    reps=$1; shift
    set -- $(measure "$top/bench/bench-isdct.sh" --repeat "$reps" "$@")
    awk -v s="$1" -v m="$2" -v n="$reps" 'BEGIN { printf "%.4f %s\n", s / n, m }'
}

py_parse='
import sys, time, tokio.connectors.nersc_isdct as m
t = time.process_time(); m.NerscIsdct(sys.argv[1]); print(time.process_time() - t)'

for f in sample.tgz large.tgz; do
    mb=$(tar xzOf "$work/$f" | wc -c | awk '{ printf "%.2f", $1 / 1e6 }')
    reps=$(reps_for "$f")
    for fmt in --json --csv; do
        set -- $(measure_reps "$reps" "$tokio" cache-isdct $fmt "$work/$f")
        t_s=$1 t_rss=$2
        line=$(awk -v mb="$mb" -v s="$t_s" 'BEGIN { printf "%.1f MB/s", (s > 0 ? mb / s : 0) }')
        if [ -n "$pysrc" ]; then
            set -- $(PYTHONPATH=$pysrc measure "$py" -W ignore "$pysrc/bin/cache_isdct.py" $fmt "$work/$f")
            r_s=$1 r_rss=$2
            ratio=$(awk -v a="$r_s" -v b="$t_s" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
            echo "$f $fmt: $mb MB; tokio ${t_s}s ($line) ${t_rss} KiB; cache_isdct.py ${r_s}s ${r_rss} KiB; ${ratio}x"
        else
            echo "$f $fmt: $mb MB; tokio ${t_s}s ($line) ${t_rss} KiB"
        fi
    done
    if [ -n "$pysrc" ]; then
        r_parse=$(PYTHONPATH=$pysrc "$py" -W ignore -c "$py_parse" "$work/$f" 2>/dev/null)
        set -- $(measure_reps "$reps" "$tokio" cache-isdct --json "$work/$f")
        ratio=$(awk -v a="$r_parse" -v b="$1" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
        echo "$f parse only: NerscIsdct() ${r_parse}s CPU (import excluded) vs tokio end to end ${1}s CPU: ${ratio}x"
    fi
done
