# bench/lib.sh - what the bench scripts measure with, sourced by them.
# Callers set $work (a scratch folder) first, and $data (the test data
# pack) for make_logs.  Figures are printed, never judged: benches are
# not tests.

# MB/s of $1 bytes in $2 seconds
mbs() {
    awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.1f", b / 1e6 / s; else printf "-" }'
}
# $1 seconds as milliseconds
ms() {
    awk -v s="$1" 'BEGIN { printf "%.2f", s * 1e3 }'
}
# $1 / $2, or - when either is missing
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.1f", a / b; else printf "-" }'
}
# wall seconds of one run of a command, start to end (output dropped)
wall() {
    t0=$(date +%s%N)
    "$@" > /dev/null 2>&1 || { echo 0; return; }
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }'
}
# the best of three wall()s
wall3() {
    w1=$(wall "$@") w2=$(wall "$@") w3=$(wall "$@")
    printf '%s\n%s\n%s\n' "$w1" "$w2" "$w3" | sort -n | head -1
}
# best user + system seconds of 3 runs of a command and its peak KiB,
# "SECONDS KIB" (output dropped)
cpu3() {
    best=
    for _ in 1 2 3; do
        /usr/bin/time -f '%U %S %M' -o "$work/time" "$@" > /dev/null \
            2>/dev/null || { echo "0 0"; return; }
        best=$(awk -v b="$best" '{ s = $1 + $2
            if (b == "" || s < b + 0) print s, $3; else print b }' \
            "$work/time")
    done
    echo "$best"
}
# user + system seconds and peak KiB of one run, "SECONDS KIB", its
# output to $1
cpu_rss() {
    out=$1; shift
    /usr/bin/time -f '%U %S %M' -o "$work/time" "$@" > "$out" 2>/dev/null ||
        { echo "- -"; return; }
    awk '{ printf "%.2f %d", $1 + $2, $3 }' "$work/time"
}
# exit 0, saying why, unless mpirun is on PATH and the tokio $1 was built
# with TOKIO_MPI (its part names are in the binary): the MPI benches' check
need_mpi() {
    command -v mpirun >/dev/null ||
        { echo "no mpirun: nothing to bench"; exit 0; }
    grep -q 'rank%d.part' "$1" ||
        { echo "tokio built without TOKIO_MPI: nothing to bench"; exit 0; }
}
# $work/logs: $1 Darshan logs u1_app_id<i>.darshan, copies in turn of the
# pack's ($data) pytokio-inputs logs named $3..., else of the project's
# generated logs in the build folder $2; exit 0, saying so, if none
make_logs() {
    logs_n=$1 logs_build=$2
    shift 2
    if [ -d "$data/pytokio-inputs" ]; then
        logs_from=
        for f in "$@"; do logs_from="$logs_from $data/pytokio-inputs/$f"; done
        # shellcheck disable=SC2086
        logs_from=$(ls $logs_from 2>/dev/null)
    else
        logs_from=$(find "$logs_build/examples/data/darshanlogs" -name '*.darshan')
    fi
    [ -n "$logs_from" ] || { echo "no sample logs found"; exit 0; }
    mkdir "$work/logs"
    # shellcheck disable=SC2086
    set -- $logs_from
    logs_i=0
    while [ $logs_i -lt "$logs_n" ]; do
        # shellcheck disable=SC2086
        [ $# -eq 0 ] && set -- $logs_from
        # a copy, not a link: the pack's files may be stored symlinks
        cp "$(readlink -f "$1")" "$work/logs/u1_app_id$logs_i.darshan"
        shift
        logs_i=$((logs_i + 1))
    done
}
