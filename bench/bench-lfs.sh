#!/bin/sh
# Lustre health text: one `lfs df` / `lctl dl -t` snapshot (lfshealth) and
# NERSC's BEGIN-separated histories of them (nersc_lfsstate), parsed by
# tokio in-process (bench/bench_text.c) and by the reference pytokio's
# connectors (LfsOstFullness, LfsOstMap, NerscLfsOstFullness,
# NerscLfsOstMap) in-process too, side by side, on the test-data pack's
# inputs and on inputs 100 times larger generated from them (distinct file
# systems or timestamps per copy, so the parsed result grows 100 times).
#
# Prints, per input: uncompressed MB, the best CPU time of one parse
# (decompression included), MB/s of uncompressed text, peak RSS, the
# reference's figures and the speed ratio, import time left out on both
# sides; then the wall time of one process each that opens the input once
# (best of three for tokio; the reference's imports included, as the
# issue's end-to-end figures are; the reference's only on the samples),
# and tokio's MB/s by that wall time.  CPU time counts both of tokio's
# threads (gzip is inflated in a second one, src/core/input.c), wall time
# shows what that overlap gains, on an otherwise idle machine.  The last
# line of that table is the floor: the same text through
# tokio_input_getline() alone.  A history is read whole but its snapshots
# are parsed when asked for (src/connectors/nersc_lfsstate.c), so its rows
# time reading and checking every line.
#
# Then the command end to end, as people run it: `tokio cache-lfsstatus
# --fullness|--failure FILE snx11035 2017-03-20T02:07:47` against the
# reference's bin/cache_lfsstatus.py, one process each, best user + system
# CPU seconds of 3 and peak RSS, on the histories and their large copies.
# Never pass/fail.
#
# The reference is found through environment variables only:
#   PYTOKIO_SRC     a pytokio checkout (NERSC/pytokio; see bench-darshan.sh);
#                   default /tmp/pytokio when present
#   PYTOKIO_PYTHON  default /usr/bin/python3 (Debian's)
# Usage: bench/bench-lfs.sh [BUILD_DIR]; TOKIO_TESTDATA (default
# ../shared/testdata beside the project); BENCH_SCALE (default 100) copies
# in the large inputs; BENCH_REF_BIG=0 skips the reference on them (it
# needs minutes and a few GB).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
drv=$build/bench/bench_text
data=${TOKIO_TESTDATA:-$top/../shared/testdata}/pytokio-inputs
scale=${BENCH_SCALE:-100}
ref_big=${BENCH_REF_BIG:-1}
py=${PYTOKIO_PYTHON:-/usr/bin/python3}
pysrc=${PYTOKIO_SRC:-}
[ -n "$pysrc" ] || [ ! -d /tmp/pytokio/tokio ] || pysrc=/tmp/pytokio
export LC_ALL=C

if [ ! -x "$drv" ]; then
    echo "bench-lfs: $drv missing (build first)"
    exit 0
fi
if [ ! -d "$data" ]; then
    echo "bench-lfs: $data absent (the shared test-data pack); nothing to time"
    exit 0
fi
if [ -z "$pysrc" ] || [ ! -f "$pysrc/tokio/connectors/lfshealth.py" ] ||
   ! [ -x "$py" ]; then
    echo "pytokio not found (set PYTOKIO_SRC=...): tokio's figures only"
    pysrc=
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The reference, in-process: "best_seconds items peak_rss_kib".
cat > "$work/ref.py" <<'EOF'
import sys, time, resource
kind, path = sys.argv[1], sys.argv[2]
from tokio.connectors import lfshealth, nersc_lfsstate
cls = {"lfs-df": lfshealth.LfsOstFullness, "lctl-dl": lfshealth.LfsOstMap,
       "fullness": nersc_lfsstate.NerscLfsOstFullness,
       "map": nersc_lfsstate.NerscLfsOstMap}[kind]
best, start = None, time.process_time()
while True:
    t0 = time.process_time()
    obj = cls(cache_file=path)
    dt = time.process_time() - t0
    best = dt if best is None or dt < best else best
    if time.process_time() - start >= float(sys.argv[3]):
        break
    del obj
items = (sum(len(v) for v in obj.values()) if kind in ("lfs-df", "lctl-dl")
         else len(obj))
print("%.6f %d %d" % (best, items,
                      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
EOF

# Generated inputs: `scale` copies, each with its own file system names
# (snx11025 -> snx1102507 in copy 7) or its own timestamps (shifted by
# copy * 10^6 s, beyond the samples' one-day span); gzip's default level,
# as the samples (a faster level makes inflating slower).
rename_fs() {
    gzip -dc "$1" | awk -v n="$scale" '
        { line[NR] = $0 }
        END { for (k = 0; k < n; k++) for (i = 1; i <= NR; i++) {
                  s = line[i]; t = ""
                  while (match(s, /snx[0-9]+/)) {
                      t = t substr(s, 1, RSTART + RLENGTH - 1) sprintf("%02d", k)
                      s = substr(s, RSTART + RLENGTH)
                  }
                  print t s } }' | gzip > "$2"
}
shift_epochs() {
    gzip -dc "$1" | awk -v n="$scale" '
        { line[NR] = $0 }
        END { for (k = 0; k < n; k++) for (i = 1; i <= NR; i++) {
                  if (line[i] ~ /^BEGIN [0-9]+$/) {
                      split(line[i], f, " ")
                      printf "BEGIN %d\n", f[2] + k * 1000000
                  } else print line[i] } }' | gzip > "$2"
}

. "$top/bench/lib.sh"

row() {     # kind file label ref(0/1) e2e(0/1; 2: tokio's only)
    kind=$1 file=$2 label=$3 want_ref=$4 want_e2e=$5
    set -- $("$drv" "$kind" "$file" 0.5) || { echo "$label: tokio failed"; return; }
    t_s=$1 bytes=$2 t_items=$3 t_rss=$4
    r_ms=- r_mbs=- r_rss=- r_items=- r=- e_t=- e_r=- e=- e_mbs=- note=
    if [ -n "$pysrc" ] && [ "$want_ref" = 1 ]; then
        if set -- $(PYTHONPATH=$pysrc "$py" "$work/ref.py" "$kind" "$file" 0.5 2>/dev/null); then
            r_ms=$(ms "$1") r_mbs=$(mbs "$bytes" "$1") r_items=$2 r_rss=$3
            r=$(ratio "$1" "$t_s")
        else
            note="reference failed"
        fi
    fi
    if [ "$want_e2e" != 0 ]; then
        # one process each, start to end: the reference's import included
        a=$(wall3 "$drv" "$kind" "$file" once)
        e_t=$(ms "$a") e_mbs=$(mbs "$bytes" "$a")
    fi
    if [ -n "$pysrc" ] && [ "$want_e2e" = 1 ]; then
        b=$(wall env PYTHONPATH="$pysrc" "$py" "$work/ref.py" "$kind" "$file" 0)
        e_r=$(ms "$b") e=$(ratio "$b" "$a")
    fi
    # the reference never stored the last map snapshot (nersc_lfsstate.c)
    [ "$kind" = map ] && [ "$r_items" != - ] && note="tokio keeps the last snapshot"
    printf '%-30s %6.1f %8s %6s %7s %6s | %8s %6s %7s %6s | %5s | %7s %6s %7s %6s %s\n' \
        "$label" "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" "$(ms "$t_s")" \
        "$(mbs "$bytes" "$t_s")" "$t_rss" "$t_items" "$r_ms" "$r_mbs" "$r_rss" \
        "$r_items" "$r" "$e_t" "$e_mbs" "$e_r" "$e" "$note"
}

echo "in-process: best CPU time of one parse (decompression included), MB/s of"
echo "uncompressed text, peak RSS of the process; e2e: wall ms of one process"
echo "that opens the input once (the reference's imports included)"
printf '%-30s %6s %8s %6s %7s %6s | %8s %6s %7s %6s | %5s | %7s %6s %7s %6s %s\n' \
    input MB tok_ms MB/s RSS_KiB items ref_ms MB/s RSS_KiB items ratio \
    e2e_tok MB/s e2e_ref ratio note
for spec in lfs-df:lfs-df.txt.gz lctl-dl:lctl-dl-t.txt.gz \
            fullness:sample_ost-fullness.txt.gz map:sample_ost-map.txt.gz; do
    kind=${spec%%:*} f=${spec#*:}
    [ -f "$data/$f" ] || { echo "$f absent"; continue; }
    row "$kind" "$data/$f" "$f" 1 1
    big=$work/x$scale-$f
    case $kind in
    lfs-df|lctl-dl) rename_fs "$data/$f" "$big" ;;
    *) shift_epochs "$data/$f" "$big" ;;
    esac
    row "$kind" "$big" "x$scale-$f" "$ref_big" 2
    case $kind in lfs-df|lctl-dl) rm -f "$big" ;; esac
done
row lines "$data/sample_ost-fullness.txt.gz" "floor: lines of ost-fullness" 0 2


[ -x "$build/tokio" ] || exit 0
echo
echo "cache-lfsstatus FILE snx11035 2017-03-20T02:07:47, one process each:"
echo "best CPU s (user + system) of 3, peak RSS"
printf '%-40s %8s %8s | %8s %8s | %5s\n' input tok_s RSS_KiB ref_s RSS_KiB \
    ratio
for spec in fullness:sample_ost-fullness.txt.gz failure:sample_ost-map.txt.gz \
            fullness:x$scale-sample_ost-fullness.txt.gz \
            failure:x$scale-sample_ost-map.txt.gz; do
    mode=${spec%%:*} f=${spec#*:}
    file=$data/$f
    [ -f "$file" ] || file=$work/$f
    [ -f "$file" ] || continue
    set -- $(cpu3 env TZ=America/Los_Angeles "$build/tokio" cache-lfsstatus \
             --$mode "$file" snx11035 2017-03-20T02:07:47)
    t=$1 t_rss=$2 r=- r_rss=- q=-
    if [ -n "$pysrc" ]; then
        set -- $(cpu3 env TZ=America/Los_Angeles PYTHONPATH="$pysrc" "$py" \
                 "$pysrc/bin/cache_lfsstatus.py" --$mode "$file" snx11035 \
                 2017-03-20T02:07:47)
        r=$1 r_rss=$2 q=$(ratio "$r" "$t")
    fi
    printf '%-40s %8s %8s | %8s %8s | %5s\n' "--$mode $f" "$t" "$t_rss" \
        "$r" "$r_rss" "$q"
done
exit 0
