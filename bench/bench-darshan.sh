#!/bin/sh
# Darshan: `tokio cache-darshan --total` / `--base` against darshan-parser
# 3.5.0 (`--total` / `--base`), the inflate floor, and the reference
# pytokio's cache_darshan CLI, per call, on the test-data pack's logs.
# Prints milliseconds per call (median of N runs, the commands run
# round-robin so a busy machine slows all of them alike), MB/s of log
# read, peak RSS, minor page faults, ratios and the distance from the
# inflate floor (wall and least CPU time, user + system).
# Never pass/fail.  On a shared machine wall times are noisy: for
# deterministic figures count instructions instead, e.g.
#   valgrind --tool=callgrind --callgrind-out-file=/dev/null \
#       BUILD/tokio cache-darshan --total LOG >/dev/null
# ("I refs"), against the same for `BUILD/bench/bench_darshan floor LOG`
# and `BUILD/tokio --help` (start-up alone).
#
# The inflate floor is `bench_darshan floor LOG` (bench/bench_darshan.c):
# a process that reads the log, takes the region map from its header and
# inflates every region (job, names, modules) with zlib directly, one
# z_stream and inflateReset() between the per-rank streams as darshan-util
# does, output discarded.  Its in-process time and cache-darshan's steps
# (open, JSON, write) are printed for sample-badost.darshan as well.
#
# The references are found through environment variables only, and are
# never part of the project (build them anywhere, e.g. under /tmp):
#
#   DARSHAN_PARSER   darshan-parser 3.5.0, e.g. built from darshan-hpc/darshan
#                    (the commit in testdata/README.md):
#       git clone https://github.com/darshan-hpc/darshan /tmp/darshan
#       apt-get install -y autoconf automake libtool zlib1g-dev libbz2-dev
#       cd /tmp/darshan && ./prepare.sh &&
#       ./configure --prefix=/tmp/darshan-install --disable-darshan-runtime \
#           --enable-darshan-util && make -j2 && make install
#       export DARSHAN_PARSER=/tmp/darshan-install/bin/darshan-parser
#   PYTOKIO_SRC      a pytokio checkout (NERSC/pytokio, the commit in
#                    testdata/README.md), run with Debian's python3 and
#                    python3-h5py python3-pandas python3-scipy
#                    python3-matplotlib python3-requests; its
#                    cache_darshan runs darshan-parser (DARSHAN_PARSER's
#                    directory is put first on PATH).  Two local fixes for
#                    darshan-util 3.5, in the checkout only:
#       git clone https://github.com/NERSC/pytokio /tmp/pytokio
#       cd /tmp/pytokio && sed -i \
#         's/return "walltime", int(line.split()\[-1\])/return "walltime", int(float(line.split()[-1]))/' \
#         tokio/connectors/darshan.py
#     and in the same file's insert_record(), wrap the `value = float(value)`
#     / `value = int(value)` conversion in `try: ... except ValueError: pass`
#     (darshan-util 3.5 prints "N/A" for some LUSTRE counters; the pack's
#     golden outputs keep those as strings).
#       export PYTOKIO_SRC=/tmp/pytokio
#
# Usage: bench/bench-darshan.sh [BUILD_DIR]; BENCH_N (default 21) runs per
# command, BENCH_N_PY (default 5) per pytokio call, PYTOKIO_PYTHON (default
# /usr/bin/python3, Debian's, which has the packages above), TOKIO_TESTDATA
# (default ../shared/testdata beside the project).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
tokio=$build/tokio
drv=$build/bench/bench_darshan
data=${TOKIO_TESTDATA:-$top/../shared/testdata}
logs=$data/darshan-logs
n=${BENCH_N:-21}
n_py=${BENCH_N_PY:-5}
py=${PYTOKIO_PYTHON:-python3}
[ -n "${PYTOKIO_PYTHON:-}" ] || [ ! -x /usr/bin/python3 ] || py=/usr/bin/python3
export TZ=America/Los_Angeles LC_ALL=C

if [ ! -x "$tokio" ] || [ ! -x "$drv" ]; then
    echo "bench-darshan: $tokio or $drv missing (build first)"
    exit 0
fi
if [ ! -d "$logs" ]; then
    echo "bench-darshan: $logs absent (the shared test-data pack); nothing to time"
    exit 0
fi
parser=${DARSHAN_PARSER:-}
if [ -n "$parser" ] && [ ! -x "$parser" ]; then
    echo "bench-darshan: DARSHAN_PARSER=$parser is not executable"
    parser=
fi
if [ -z "$parser" ]; then
    echo "darshan-parser not found (set DARSHAN_PARSER=...): tokio and the floor only"
else
    echo "darshan-parser: $parser ($("$parser" --version 2>&1 | head -1))"
fi
pysrc=${PYTOKIO_SRC:-}
if [ -z "$pysrc" ] || [ ! -f "$pysrc/bin/cache_darshan.py" ]; then
    echo "pytokio not found (set PYTOKIO_SRC=... to a patched checkout): no pytokio column"
    pysrc=
elif [ -z "$parser" ]; then
    echo "pytokio needs darshan-parser (DARSHAN_PARSER): no pytokio column"
    pysrc=
fi
echo "$n runs per command, round-robin; RSS = peak resident KiB"
echo

# "median min rss failures" lines, one per command, via bench_darshan time
timeit() {
    "$drv" time "$@"
}

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a > 0) printf "%.2f", a / b; else printf "-" }'
}

mbs() {
    awk -v bytes="$1" -v ms="$2" 'BEGIN { if (ms > 0) printf "%.1f", bytes / 1e6 / (ms / 1e3); else printf "-" }'
}

echo "each time: median/min ms; ratios of medians (mins are steadier on a busy machine)"
printf '%-26s %5s %-7s %13s %13s %6s %13s %9s %9s %10s %11s %11s\n' log KiB mode \
    tokio_ms parser_ms p/tok floor_ms tok/floor cpu_t/fl tokio_MB/s RSS_t/p faults_t/fl
for log in "$logs"/*.darshan; do
    name=$(basename "$log" .darshan)
    # the floor driver rejects what is not a log (the pack's example.darshan
    # is a symlink-as-text when copied without -L)
    set -- $("$drv" floor "$log" 2>/dev/null) || true
    if [ $# -ne 3 ]; then
        echo "$name: not a readable log, skipped"
        continue
    fi
    inflated=$3
    bytes=$(wc -c < "$log")
    kib=$((bytes / 1024))
    short=$(printf '%s' "$name" | cut -c1-26)
    for mode in total base; do
        if [ -n "$parser" ]; then
            res=$(timeit "$n" -- "$drv" floor "$log" \
                -- "$tokio" cache-darshan --$mode "$log" \
                -- "$parser" --$mode "$log")
        else
            res=$(timeit "$n" -- "$drv" floor "$log" \
                -- "$tokio" cache-darshan --$mode "$log")
        fi
        set -- $res
        f_ms=$1 f_min=$2 f_flt=$5 f_cpu=$6
        t_ms=$7 t_min=$8 t_rss=$9 t_fail=${10} t_flt=${11} t_cpu=${12}
        p_col=- p_rss=- r=-
        if [ -n "$parser" ]; then
            p_col=${13}/${14} p_rss=${15}
            r=$(ratio "${13}" "$t_ms")
        fi
        t_col=$t_ms/$t_min
        [ "$t_fail" -eq 0 ] || t_col="FAIL"
        printf '%-26s %5s %-7s %13s %13s %6s %13s %9s %9s %10s %11s %11s\n' "$short" \
            "$kib" "--$mode" "$t_col" "$p_col" "$r" "$f_ms/$f_min" \
            "$(ratio "$t_ms" "$f_ms")" "$(ratio "$t_cpu" "$f_cpu")" \
            "$(mbs "$bytes" "$t_ms")" "$t_rss/$p_rss" "$t_flt/$f_flt"
    done
done
echo "(floor_ms: the inflate floor process; tok/floor: tokio over the floor,"
echo " the target for --total on sample-badost is <= 1.20; cpu_t/fl: the same"
echo " for the least user+sys time; MB/s: log bytes read; faults: minor page"
echo " faults of a median run, tokio/floor)"

# what a process costs before it reads anything: tokio's is the dynamic
# linking of every library the binary needs (HDF5 with curl, gnutls,
# kerberos..., MariaDB, libarchive), which the floor process does not pay
set -- $(timeit "$n" -- "$tokio" --help -- "$drv" floor /dev/null)
echo "start-up alone: tokio --help $1/$2 ms (RSS $3 KiB); a process that"
echo " only links zlib and exits: $7/$8 ms.  tokio's time minus its start-up"
echo " is what the reader costs; the in-process lines below exclude start-up."

big=$logs/sample-badost.darshan
if [ -f "$big" ]; then
    echo
    set -- $("$drv" floor "$big")
    echo "sample-badost.darshan: $1 regions, $2 compressed -> $3 inflated bytes"
    echo "in-process (no process start-up), same machine:"
    echo "  inflate floor: $("$drv" floor "$big" 50)"
    echo "  tokio_darshan_open: $("$drv" open "$big" 50)"
    echo "  cache-darshan --total steps: $("$drv" phases "$big" 20 total)"
    echo "  cache-darshan --base steps:  $("$drv" phases "$big" 3 base)"
    echo "(--total and --perf alone read only the modules they derive figures"
    echo " for (POSIX, MPI-IO, STDIO, DFS, DAOS) and no name table, and fold"
    echo " each record into the figures as it is inflated, through one 16 KiB"
    echo " buffer: no region and no records are kept; --base streams its"
    echo " JSON, holding one record's counters at a time)"
fi

if [ -n "$pysrc" ]; then
    echo
    echo "pytokio cache_darshan (darshan-parser subprocess + Python parsing), $n_py runs each:"
    printf '%-26s %-7s %13s %15s %8s %12s\n' log mode tokio_ms pytokio_ms py/tok RSS_t/py
    pdir=$(dirname "$parser")
    for name in sample sample-badost; do
        log=$logs/$name.darshan
        [ -f "$log" ] || continue
        for mode in total base; do
            set -- $(timeit "$n_py" -- "$tokio" cache-darshan --$mode "$log" \
                -- env PATH="$pdir:$PATH" PYTHONPATH="$pysrc" \
                   "$py" "$pysrc/bin/cache_darshan.py" --$mode "$log")
            py_ms=$7
            [ "${10}" -eq 0 ] || py_ms="FAIL"
            printf '%-26s %-7s %13s %15s %8s %12s\n' "$name" "--$mode" "$1/$2" \
                "$py_ms/$8" "$(ratio "$7" "$1")" "$3/$9"
        done
    done
fi
exit 0
