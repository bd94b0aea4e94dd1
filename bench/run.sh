#!/bin/sh
# Run every benchmark in bench/ (bench/*.sh), each printing its figures and
# ratios against the reference.  Never pass/fail: a benchmark that cannot
# find the reference says so and prints tokio's own figures only.
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
for b in "$top"/bench/bench-*.sh; do
    [ -x "$b" ] || continue
    echo "== $(basename "$b")"
    "$b" "$top/$build" || echo "(benchmark $(basename "$b") did not finish)"
done
exit 0
