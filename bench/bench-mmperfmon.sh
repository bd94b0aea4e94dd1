#!/bin/sh
# GPFS mmperfmon tarballs: `tokio cache-mmperfmon` (JSON, and CSV of one
# metric) and `tokio archive-mmperfmon` against the reference's
# cache_mmperfmon and archive_mmperfmon (pytokio at /tmp/pytokio run with
# /usr/bin/python3), end to end, on the sample tarballs and on generated
# 10x and 100x copies of the 2019-05-15-mini sample (each copy's members
# with their host names changed, so nothing merges).  Prints MB/s of
# uncompressed text by wall clock and by CPU time (user + sys: the machine
# may be shared), peak memory, the ratio, and whether both wrote the same
# bytes (for archives: the same h5dump but for the 'updated' times).  The
# reference runs on the 100x input only with BENCH_REF_100X=1 (a minute
# or more, and gigabytes).  The reference's archive_mmperfmon opens its
# output read-only under h5py 3 (golden COMMANDS.md); it is run with the
# output opened "a", its intended mode.  Then the start-up alone and
# in-process figures without start-up: bench_mmperfmon.  Never fails.
set -u
build=$1
top=$(cd "$(dirname "$0")/.." && pwd)
data=${TOKIO_TESTDATA:-$top/../shared/testdata}/pytokio-inputs
pytokio=${PYTOKIO:-/tmp/pytokio}
py=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TZ=America/Los_Angeles

if [ ! -f "$data/mmperfmon.2019-05-15-mini.tgz" ]; then
    echo "mmperfmon: test data absent ($data), nothing to time"
    exit 0
fi
have_ref=0
if [ -x "$py" ] && [ -d "$pytokio/tokio" ] &&
   PYTHONPATH=$pytokio "$py" -c 'import tokio.cli.cache_mmperfmon' 2>/dev/null; then
    have_ref=1
fi

# the mini sample, `copies` times, host names suffixed with the copy
enlarge() {
    "$py" - "$data/mmperfmon.2019-05-15-mini.tgz" "$1" "$2" <<'EOF'
import io, sys, tarfile
src, copies, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
members = []
with tarfile.open(src) as t:
    for m in t.getmembers():
        if m.isfile():
            members.append((m, t.extractfile(m).read()))
with tarfile.open(dst, "w:gz", compresslevel=1) as out:
    for k in range(copies):
        for m, data in members:
            data = data.replace(b".nersc.gov", b"-%d.nersc.gov" % k)
            info = tarfile.TarInfo("%d/%s" % (k, m.name))
            info.size, info.mtime = len(data), m.mtime
            out.addfile(info, io.BytesIO(data))
EOF
}

# "wall user sys maxrss_kib" of one command, its stdout to $2
measure() {
    out=$1
    shift
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" > "$out" 2>/dev/null
    cat "$work/time"
}

mbs() {
    awk -v b="$1" -v s="$2" 'BEGIN { printf "%.1f", (s > 0 ? b / 1e6 / s : 0) }'
}

# "wall cpu" of `reps` runs of a command timed as one, divided by `reps`:
# times come in 10 ms ticks, and tokio takes one or two on the samples
measure_reps() {
    reps=$1
    shift
    set -- $(measure /dev/null sh -c 'n=$1; shift; i=0
        while [ "$i" -lt "$n" ]; do "$@" > /dev/null || exit 1; i=$((i + 1)); done' \
        sh "$reps" "$@")
    awk -v w="$1" -v u="$2" -v s="$3" -v n="$reps" 'BEGIN { print w / n, (u + s) / n }'
}

# the site config of the pack, with file system testfs-NAME reading
# $work/mmperfmon.2019-05-15-NAME.tgz
site() {
    "$py" - "$data/site.json" "$work/site.json" "$work" "$@" <<'EOF'
import json, sys
cfg = json.load(open(sys.argv[1]))
for name in sys.argv[4:]:
    cfg["mmperfmon_output_files"]["testfs-" + name] = [
        "%s/mmperfmon.%%Y-%%m-%%d-%s.tgz" % (sys.argv[3], name)]
json.dump(cfg, open(sys.argv[2], "w"))
EOF
}

# One line: tokio, and the reference when $ref is 1, on the same input.
# $1 name, $2 bytes, $3 run_reference, $4 repetitions for tokio's times,
# $5 compare (a command comparing $work/tokio.out and $work/ref.out),
# then "--", tokio's arguments, "--", the reference's.
run() {
    name=$1 bytes=$2 ref=$3 reps=$4 compare=$5
    shift 6
    targs="" rargs=""
    while [ "$1" != "--" ]; do targs="$targs '$1'"; shift; done
    shift
    for a in "$@"; do rargs="$rargs '$a'"; done
    set -- $(eval measure "$work/tokio.out" "$build/tokio" $targs)
    t_wall=$1 t_cpu=$(awk -v u="$2" -v s="$3" 'BEGIN { print u + s }') t_rss=$4
    if [ "$reps" -gt 1 ]; then
        set -- $(eval measure_reps "$reps" "$build/tokio" $targs)
        t_wall=$1 t_cpu=$2
    fi
    line="$name ($(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB): tokio $(mbs "$bytes" "$t_wall") MB/s wall, $(mbs "$bytes" "$t_cpu") MB/s CPU, ${t_rss} KiB"
    if [ "$have_ref" = 1 ] && [ "$ref" = 1 ]; then
        set -- $(eval measure "$work/ref.out" $rargs)
        r_wall=$1 r_cpu=$(awk -v u="$2" -v s="$3" 'BEGIN { print u + s }') r_rss=$4
        same=$($compare && echo "same output" || echo "OUTPUT DIFFERS")
        ratio=$(awk -v a="$r_wall" -v b="$t_wall" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
        cratio=$(awk -v a="$r_cpu" -v b="$t_cpu" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
        line="$line; reference $(mbs "$bytes" "$r_wall") MB/s wall, $(mbs "$bytes" "$r_cpu") MB/s CPU, ${r_rss} KiB; ${ratio}x faster (CPU ${cratio}x); $same"
    fi
    echo "$line"
}

same_text() { cmp -s "$work/tokio.out" "$work/ref.out"; }
same_archive() {
    for f in tokio ref; do
        h5dump "$work/$f.hdf5" 2>/dev/null | sed '1d; /ATTRIBUTE "updated"/,+6d' > "$work/$f.dump"
    done
    cmp -s "$work/tokio.dump" "$work/ref.dump"
}

ref_cache="env PYTHONPATH=$pytokio $py -c 'import tokio.cli.cache_mmperfmon as m; m.main()'"
# h5py 3 opens read-only without a mode: the output opened "a"
cat > "$work/ref_archive.py" <<'EOF'
import sys
import tokio.connectors.hdf5 as h
init = h.Hdf5.__init__
def opened_a(self, *args, **kwargs):
    if len(args) < 2:
        kwargs.setdefault("mode", "a")
    init(self, *args, **kwargs)
h.Hdf5.__init__ = opened_a
import tokio.cli.archive_mmperfmon as m
m.main(sys.argv[1:])
EOF
ref_archive="env PYTHONPATH=$pytokio $py $work/ref_archive.py"

cache() {   # name input run_reference repetitions [CSV options]
    name=$1 input=$2 ref=$3 reps=$4
    shift 4
    bytes=$(tar xzOf "$input" | wc -c)
    eval run "'$name'" "$bytes" "$ref" "$reps" same_text -- cache-mmperfmon "$@" "'$input'" -- $ref_cache "$@" "'$input'"
}

archive() {   # name input run_reference
    name=$1 input=$2 ref=$3
    bytes=$(tar xzOf "$input" | wc -c)
    ln -sf "$input" "$work/mmperfmon.2019-05-15-$name.tgz"
    set -- --init-start 2019-05-15T00:00:00 --init-end 2019-05-16T00:00:00 \
        --timestep 60 --filesystem "testfs-$name" 2019-05-15T11:00:00 \
        2019-05-15T14:00:00
    rm -f "$work/tokio.hdf5" "$work/ref.hdf5"
    export PYTOKIO_CONFIG="$work/site.json"
    eval run "'archive $name'" "$bytes" "$ref" 1 same_archive -- archive-mmperfmon -o "'$work/tokio.hdf5'" "$@" -- $ref_archive -o "'$work/ref.hdf5'" "$@"
}

cache mmperfmon.tgz "$data/mmperfmon.tgz" 1 100
cache mmperfmon.2019-05-15-micro.tgz "$data/mmperfmon.2019-05-15-micro.tgz" 1 100
cache mmperfmon.2019-05-15-mini.tgz "$data/mmperfmon.2019-05-15-mini.tgz" 1 20
if [ -x "$py" ]; then
    enlarge 10 "$work/x10.tgz"
    enlarge 100 "$work/x100.tgz"
    site x10 x100
    cache "mini x10" "$work/x10.tgz" 1 1
    cache "mini x10 --csv --metric" "$work/x10.tgz" 1 1 --csv --metric gpfs_nsdds_bytes_read
    archive x10 "$work/x10.tgz" 1
    cache "mini x100" "$work/x100.tgz" "${BENCH_REF_100X:-0}" 1
    cache "mini x100 --csv --metric" "$work/x100.tgz" "${BENCH_REF_100X:-0}" 1 --csv --metric gpfs_nsdds_bytes_read
    # this machine's speed drifts by up to 2x within minutes: gzip -dc on
    # the same input, right after, says which speed the lines above had
    bytes=$(tar xzOf "$work/x100.tgz" | wc -c)
    set -- $(measure /dev/null gzip -dc "$work/x100.tgz")
    echo "gzip -dc alone on mini x100: $(mbs "$bytes" "$1") MB/s wall, $(mbs "$bytes" "$(awk -v u="$2" -v s="$3" 'BEGIN { print u + s }')") MB/s CPU"
else
    echo "(no $py: no enlarged inputs)"
fi
set -- $(measure_reps 100 "$build/tokio" cache-mmperfmon --help)
echo "start-up alone (tokio cache-mmperfmon --help, mean of 100): $(awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }') ms wall, $(awk -v s="$2" 'BEGIN { printf "%.1f", s * 1000 }') ms CPU"
if [ -x "$build/bench/bench_mmperfmon" ]; then
    set -- $("$build/bench/bench_mmperfmon" 20 "$data/mmperfmon.2019-05-15-mini.tgz")
    bytes=$(tar xzOf "$data/mmperfmon.2019-05-15-mini.tgz" | wc -c)
    echo "in process, mini x20 opens: $(mbs $((bytes * 20)) "$2") MB/s CPU"
fi
[ "$have_ref" = 1 ] || echo "(reference not found at $pytokio: no ratios)"
exit 0
