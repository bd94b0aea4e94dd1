#!/bin/sh
# Cray SDB processor table (`xtdb2proc -f -`): tokio's craysdb connector
# (bench/bench_text.c, in-process) against the reference pytokio's
# tokio.connectors.craysdb.CraySdbProc(cache_file=...) (in-process too),
# side by side, on the test-data pack's sample.xtdb2proc.gz and on a
# table 100 times larger generated from it (processor_id + copy * 100000,
# so every record stays distinct), each also uncompressed (both sides
# then read plain text: the gzip rows include zlib's inflate, which
# neither side can speed up and which bounds their ratio).
#
# Prints, per input: uncompressed MB, the best CPU time of one parse
# (decompression included), MB/s, peak RSS, the reference's figures and
# the speed ratio, import time left out on both sides; then the wall time
# of one process each that opens the input once (the reference's imports
# included, as the issue's end-to-end figures are).  Then, per input, the
# CPU time (user + system, best of 3) and peak RSS of one process each
# that reads it and prints its JSON (json.dumps, sorted keys, indent 4):
# `tokio cache-craysdb FILE` against the reference.  Never pass/fail.
#
# The reference is found through environment variables only:
#   PYTOKIO_SRC     a pytokio checkout (NERSC/pytokio; see bench-darshan.sh);
#                   default /tmp/pytokio when present
#   PYTOKIO_PYTHON  default /usr/bin/python3 (Debian's)
# Usage: bench/bench-craysdb.sh [BUILD_DIR]; TOKIO_TESTDATA (default
# ../shared/testdata beside the project); BENCH_SCALE (default 100).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
drv=$build/bench/bench_text
data=${TOKIO_TESTDATA:-$top/../shared/testdata}/pytokio-inputs
scale=${BENCH_SCALE:-100}
py=${PYTOKIO_PYTHON:-/usr/bin/python3}
pysrc=${PYTOKIO_SRC:-}
[ -n "$pysrc" ] || [ ! -d /tmp/pytokio/tokio ] || pysrc=/tmp/pytokio
export LC_ALL=C

if [ ! -x "$drv" ]; then
    echo "bench-craysdb: $drv missing (build first)"
    exit 0
fi
sample=$data/sample.xtdb2proc.gz
if [ ! -f "$sample" ]; then
    echo "bench-craysdb: $sample absent (the shared test-data pack)"
    exit 0
fi
if [ -z "$pysrc" ] || [ ! -f "$pysrc/tokio/connectors/craysdb.py" ] ||
   ! [ -x "$py" ]; then
    echo "pytokio not found (set PYTOKIO_SRC=...): tokio's figures only"
    pysrc=
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/refjson.py" <<'EOF'
import sys, json
from tokio.connectors.craysdb import CraySdbProc
print(json.dumps(CraySdbProc(cache_file=sys.argv[1]), sort_keys=True,
                 indent=4))
EOF

cat > "$work/ref.py" <<'EOF'
import sys, time, resource
from tokio.connectors.craysdb import CraySdbProc
best, start = None, time.process_time()
while True:
    t0 = time.process_time()
    obj = CraySdbProc(cache_file=sys.argv[1])
    dt = time.process_time() - t0
    best = dt if best is None or dt < best else best
    if time.process_time() - start >= float(sys.argv[2]):
        break
    del obj
print("%.6f %d %d" % (best, len(obj),
                      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
EOF

# the comment header once, then `scale` copies of the records
big=$work/x$scale-sample.xtdb2proc.gz
gzip -dc "$sample" | awk -v n="$scale" '
    /^#/ { if (m == 0) print; next }
    { line[++m] = $0 }
    END { for (k = 0; k < n; k++) for (i = 1; i <= m; i++) {
              s = line[i]
              if (match(s, /processor_id=[0-9]+/)) {
                  id = substr(s, RSTART + 13, RLENGTH - 13) + k * 100000
                  s = substr(s, 1, RSTART - 1) "processor_id=" id \
                      substr(s, RSTART + RLENGTH)
              }
              print s } }' | gzip > "$big"
gzip -dc "$sample" > "$work/sample.xtdb2proc"
gzip -dc "$big" > "$work/x$scale-sample.xtdb2proc"

. "$top/bench/lib.sh"


echo "in-process: best CPU time of one parse (decompression included), MB/s of"
echo "uncompressed text, peak RSS of the process; e2e: wall ms of one process"
echo "that opens the input once (the reference's imports included)"
printf '%-30s %6s %8s %6s %7s %6s | %8s %6s %7s %6s | %5s | %7s %7s %6s\n' \
    input MB tok_ms MB/s RSS_KiB items ref_ms MB/s RSS_KiB items ratio \
    e2e_tok e2e_ref ratio
for file in "$sample" "$work/sample.xtdb2proc" "$big" \
            "$work/x$scale-sample.xtdb2proc"; do
    set -- $("$drv" craysdb "$file" 0.5) || { echo "$file: tokio failed"; continue; }
    t_s=$1 bytes=$2 t_items=$3 t_rss=$4
    r_ms=- r_mbs=- r_rss=- r_items=- r=- e_t=- e_r=- e=-
    if [ -n "$pysrc" ] &&
       set -- $(PYTHONPATH=$pysrc "$py" "$work/ref.py" "$file" 0.5 2>/dev/null); then
        r_ms=$(ms "$1") r_mbs=$(mbs "$bytes" "$1") r_items=$2 r_rss=$3
        r=$(ratio "$1" "$t_s")
    fi
    if [ -n "$pysrc" ]; then
        # one process each, start to end: the reference's import included
        a=$(wall "$drv" craysdb "$file" once)
        b=$(wall env PYTHONPATH="$pysrc" "$py" "$work/ref.py" "$file" 0)
        e_t=$(ms "$a") e_r=$(ms "$b") e=$(ratio "$b" "$a")
    fi
    printf '%-30s %6.2f %8s %6s %7s %6s | %8s %6s %7s %6s | %5s | %7s %7s %6s\n' \
        "$(basename "$file")" "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" \
        "$(ms "$t_s")" "$(mbs "$bytes" "$t_s")" "$t_rss" "$t_items" "$r_ms" \
        "$r_mbs" "$r_rss" "$r_items" "$r" "$e_t" "$e_r" "$e"
done

[ -x "$build/tokio" ] || exit 0
echo
echo "JSON out, one process each: best CPU s (user + system) of 3, peak RSS"
printf '%-30s %8s %8s | %8s %8s | %5s\n' input tok_s RSS_KiB ref_s RSS_KiB \
    ratio
for file in "$sample" "$big" "$work/x$scale-sample.xtdb2proc"; do
    set -- $(cpu3 "$build/tokio" cache-craysdb "$file")
    t=$1 t_rss=$2 r=- r_rss=- q=-
    if [ -n "$pysrc" ]; then
        set -- $(cpu3 env PYTHONPATH="$pysrc" "$py" "$work/refjson.py" "$file")
        r=$1 r_rss=$2 q=$(ratio "$r" "$t")
    fi
    printf '%-30s %8s %8s | %8s %8s | %5s\n' "$(basename "$file")" "$t" \
        "$t_rss" "$r" "$r_rss" "$q"
done
exit 0
