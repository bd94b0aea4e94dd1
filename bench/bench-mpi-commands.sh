#!/bin/sh
# `mpirun -n N tokio summarize-darshanlogs | darshan-bad-ost | insights`
# throughput against ranks (1, 2, 4) over N_LOGS logs (copies of the
# pack's sample logs, else the project's generated ones), beside the
# one-process command's.  Never fails the build.
#
#   bench/bench-mpi-commands.sh BUILD_DIR [N_LOGS]
#
# With N > 1 ranks, rank 0 hands out batches, takes each log's result
# back and writes, so N - 1 ranks parse.  The best of three wall times
# (bench/lib.sh), mpirun's start-up (about 0.5 s here) included.  This
# machine has 2 cores shared with others: -n 4 is oversubscribed and
# shows the overhead, not a speed-up; the per-parsing-rank rate is what
# a node with a core per rank would see.
set -u
build=$(cd "$1" && pwd)
n_logs=${2:-1000}
top=$(cd "$(dirname "$0")/.." && pwd)
data=$top/../shared/testdata
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$top/bench/lib.sh"
tokio=$build/tokio

need_mpi "$tokio"
make_logs "$n_logs" "$build" sample.darshan sample-2.darshan \
    sample-goodost.darshan sample-badost.darshan
mib=$(du -sm "$work/logs" | cut -f1)
echo "$n_logs logs, $mib MiB"

# logs/s of wall seconds $2 with $1 ranks (0: one process, no mpirun)
rate() {
    awk -v n="$1" -v logs="$n_logs" -v s="$2" 'BEGIN {
        if (s <= 0) { print "failed"; exit }
        w = (n > 1) ? n - 1 : 1
        if (n == 0) printf "one process: %.2f s = %.0f logs/s\n", s, logs / s
        else printf "ranks %d: %.2f s = %.0f logs/s (%.0f per parsing rank)\n",
                    n, s, logs / s, logs / s / w }'
}
cd "$work"
for cmd in summarize-darshanlogs darshan-bad-ost insights; do
    case $cmd in
    summarize-darshanlogs) args=logs ;;
    *) args=$(ls logs/* | sort) ;;
    esac
    echo "$cmd:"
    # shellcheck disable=SC2086
    rate 0 "$(wall3 env -u OMPI_COMM_WORLD_SIZE "$tokio" $cmd $args)"
    for n in 1 2 4; do
        # shellcheck disable=SC2086
        rate $n "$(wall3 mpirun --allow-run-as-root --oversubscribe -n $n \
                    "$tokio" $cmd $args)"
    done
done
