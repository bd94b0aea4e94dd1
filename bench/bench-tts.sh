#!/bin/sh
# TOKIO Time Series: `tokio summarize-tts` and `tokio export-tts` (CSV of
# one dataset) against the reference's summarize_tts.py and
# Hdf5.to_dataframe().to_csv(), on files bench_tts writes with the
# project's HDF5 writer: a day of 5 s steps for 248 OSTs, and an hour for
# 10,000 OSTs (datatargets/readbytes and writebytes, gzip as the
# reference writes them); and the reference's archive_lmtdb output for a
# day of 5 s data from one OST (lmtdb-reset.hdf5) when the test data are
# there.  Prints milliseconds, peak memory and ratios;
# never fails the build.
set -u
build=$1
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TZ=America/Los_Angeles
py=/usr/bin/python3
ref=/tmp/pytokio

"$build/bench/bench_tts" "$work/day.hdf5" 17280 248 || exit 0
"$build/bench/bench_tts" "$work/wide.hdf5" 720 10000 || exit 0
# the reference's own day of 5 s LMT data (one OST), when the test data
# pack is beside the project
lmt=${TOKIO_TESTDATA:-$top/../shared/testdata}/golden/pytokio/archive_lmtdb/lmtdb-reset.hdf5
files="day wide"
if [ -r "$lmt" ]; then
    ln -s "$lmt" "$work/lmtdb-reset.hdf5"
    files="lmtdb-reset day wide"
fi

# "cpu_ms maxrss_kib wall_ms" of one command (user + system CPU: the
# machine may be shared), its output to $work/out
measure() {
    /usr/bin/time -f '%U %S %M %e' -o "$work/time" "$@" > "$work/out" 2>/dev/null
    awk '{ printf "%d %d %d\n", ($1 + $2) * 1000, $3, $4 * 1000 }' "$work/time"
}

# The same for tokio, per run of `reps` runs in a row: time(1) counts in
# 10 ms steps, and tokio is often under that
reps=5
measure_reps() {
    /usr/bin/time -f '%U %S %M %e' -o "$work/time" \
        sh -c 'n=$1; shift; while [ "$n" -gt 0 ]; do "$@" || exit 1; n=$((n - 1)); done' \
        sh "$reps" "$@" > "$work/out" 2>/dev/null
    awk -v r="$reps" '{ printf "%d %d %d\n", ($1 + $2) * 1000 / r, $3, $4 * 1000 / r }' "$work/time"
}

have_ref=0
if [ -x "$py" ] && [ -d "$ref" ] \
   && PYTHONPATH=$ref "$py" -c 'import h5py, pandas' 2>/dev/null; then
    have_ref=1
fi

py_csv='
import sys, tokio.connectors.hdf5
tokio.connectors.hdf5.Hdf5(sys.argv[1], "r").to_dataframe(sys.argv[2]).to_csv(sys.stdout)'

row() {     # name, tokio ms, tokio KiB, ref ms, ref KiB, agreement
    if [ "$4" = "-" ]; then
        printf '%-32s tokio %6d ms %7d KiB   (reference absent)\n' "$1" "$2" "$3"
    else
        printf '%-32s tokio %6d ms %7d KiB   reference %6d ms %7d KiB   %sx faster   %s\n' \
            "$1" "$2" "$3" "$4" "$5" \
            "$(awk -v a="$4" -v b="$2" 'BEGIN { printf "%.1f", a / (b > 0 ? b : 1) }')" "$6"
    fi
}
echo "CPU milliseconds (user + system) per run and peak RSS; tokio: mean of $reps runs"

for f in $files; do
    # summarize-tts (best of 3 for tokio: the machine is shared)
    set -- $(measure_reps "$build/tokio" summarize-tts "$work/$f.hdf5")
    best=$1 rss=$2
    "$build/tokio" summarize-tts "$work/$f.hdf5" > "$work/ours.txt"
    if [ $have_ref = 1 ]; then
        set -- $(measure env PYTHONPATH=$ref "$py" "$ref/bin/summarize_tts.py" "$work/$f.hdf5")
        same=$(cmp -s "$work/out" "$work/ours.txt" && echo "same output" || echo "OUTPUT DIFFERS")
        row "summarize-tts $f" "$best" "$rss" "$1" "$2" "$same"
    else
        row "summarize-tts $f" "$best" "$rss" - - ""
    fi
    # CSV of datatargets/readbytes
    set -- $(measure_reps "$build/tokio" export-tts "$work/$f.hdf5" datatargets/readbytes)
    t_ms=$1 t_rss=$2
    "$build/tokio" export-tts "$work/$f.hdf5" datatargets/readbytes > "$work/ours.csv"
    if [ $have_ref = 1 ]; then
        set -- $(measure env PYTHONPATH=$ref "$py" -c "$py_csv" "$work/$f.hdf5" datatargets/readbytes)
        same=$(cmp -s "$work/out" "$work/ours.csv" && echo "same bytes" || echo "CSV DIFFERS")
        row "export-tts $f readbytes" "$t_ms" "$t_rss" "$1" "$2" "$same"
    else
        row "export-tts $f readbytes" "$t_ms" "$t_rss" - - ""
    fi
    rm -f "$work/ours.csv" "$work/out"
done
echo "files: day $(du -k "$work/day.hdf5" | cut -f1) KiB (17280 x 248 x 2 datasets), wide $(du -k "$work/wide.hdf5" | cut -f1) KiB (720 x 10000 x 2)"
