#!/bin/sh
# GPFS mmperfmon tarballs: `tokio cache-mmperfmon` against the reference's
# cache_mmperfmon (tokio.cli.cache_mmperfmon, pytokio at /tmp/pytokio run
# with /usr/bin/python3), JSON to a file, end to end, on the sample
# tarballs and on generated 10x and 100x copies of the 2019-05-15-mini
# sample (each copy's members with their host names changed, so nothing
# merges).  Prints MB/s of uncompressed text by wall clock and by CPU
# time (user + sys: the machine may be shared), peak memory, the ratio,
# and whether both wrote the same bytes.  The reference runs on the 100x
# input only with BENCH_REF_100X=1 (about a minute and gigabytes).
# CPU time counts both of tokio's threads (a tarball is inflated in a
# second one, src/core/collection.c); wall time shows what that overlap
# gains on an otherwise idle machine.  Then the start-up alone (`tokio
# cache-mmperfmon --help`: loading and linking the program, which the
# end-to-end figures of the small samples are mostly made of) and
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

run() {   # name input run_reference [repetitions for tokio's times]
    name=$1 input=$2 ref=$3 reps=${4:-1}
    bytes=$(tar xzOf "$input" | wc -c)
    set -- $(measure "$work/tokio.json" "$build/tokio" cache-mmperfmon "$input")
    t_wall=$1 t_cpu=$(awk -v u="$2" -v s="$3" 'BEGIN { print u + s }') t_rss=$4
    if [ "$reps" -gt 1 ]; then
        set -- $(measure_reps "$reps" "$build/tokio" cache-mmperfmon "$input")
        t_wall=$1 t_cpu=$2
    fi
    line="$name ($(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB): tokio $(mbs "$bytes" "$t_wall") MB/s wall, $(mbs "$bytes" "$t_cpu") MB/s CPU, ${t_rss} KiB"
    if [ "$have_ref" = 1 ] && [ "$ref" = 1 ]; then
        set -- $(measure "$work/ref.json" env PYTHONPATH="$pytokio" "$py" -c \
                 'import tokio.cli.cache_mmperfmon as m; m.main()' "$input")
        r_wall=$1 r_cpu=$(awk -v u="$2" -v s="$3" 'BEGIN { print u + s }') r_rss=$4
        same=$(cmp -s "$work/tokio.json" "$work/ref.json" && echo "same JSON" || echo "JSON DIFFERS")
        ratio=$(awk -v a="$r_wall" -v b="$t_wall" 'BEGIN { printf "%.0f", (b > 0 ? a / b : 0) }')
        cratio=$(awk -v a="$r_cpu" -v b="$t_cpu" 'BEGIN { printf "%.0f", (b > 0 ? a / b : 0) }')
        line="$line; reference $(mbs "$bytes" "$r_wall") MB/s wall, $(mbs "$bytes" "$r_cpu") MB/s CPU, ${r_rss} KiB; ${ratio}x faster (CPU ${cratio}x); $same"
    fi
    echo "$line"
}

run mmperfmon.tgz "$data/mmperfmon.tgz" 1 100
run mmperfmon.2019-05-15-micro.tgz "$data/mmperfmon.2019-05-15-micro.tgz" 1 100
run mmperfmon.2019-05-15-mini.tgz "$data/mmperfmon.2019-05-15-mini.tgz" 1 20
if [ -x "$py" ]; then
    enlarge 10 "$work/x10.tgz" && run "mini x10" "$work/x10.tgz" 1
    rm -f "$work/x10.tgz"
    enlarge 100 "$work/x100.tgz" &&
        run "mini x100" "$work/x100.tgz" "${BENCH_REF_100X:-0}"
    # this machine's speed drifts by up to 2x within minutes: gzip -dc on
    # the same input, right after, says which speed the line above had
    # (the issue set 100 MB/s when gzip -dc ran at ~196 MB/s)
    if [ -f "$work/x100.tgz" ]; then
        bytes=$(tar xzOf "$work/x100.tgz" | wc -c)
        set -- $(measure /dev/null gzip -dc "$work/x100.tgz")
        echo "gzip -dc alone on mini x100: $(mbs "$bytes" "$1") MB/s wall, $(mbs "$bytes" "$(awk -v u="$2" -v s="$3" 'BEGIN { print u + s }')") MB/s CPU"
    fi
else
    echo "(no $py: no enlarged inputs)"
fi
set -- $(measure_reps 100 "$build/tokio" cache-mmperfmon --help)
echo "start-up alone (tokio cache-mmperfmon --help, mean of 100): $(awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }') ms wall, $(awk -v s="$2" 'BEGIN { printf "%.1f", s * 1000 }') ms CPU"
if [ -x "$build/bench/bench_mmperfmon" ]; then
    set -- $("$build/bench/bench_mmperfmon" 20 "$data/mmperfmon.2019-05-15-mini.tgz")
    bytes=$(tar xzOf "$data/mmperfmon.2019-05-15-mini.tgz" | wc -c)
    echo "in process, mini x20 loads: $(mbs $((bytes * 20)) "$2") MB/s CPU"
fi
[ "$have_ref" = 1 ] || echo "(reference not found at $pytokio: no ratios)"
exit 0
