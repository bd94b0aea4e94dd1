#!/bin/sh
# Run every libFuzzer target of a fuzz build for a few seconds each, from a
# scratch copy of its seed corpus (fuzz/corpus/NAME/), so findings never
# touch the tree.  Any crash, leak or timeout fails the run.
set -eu
build=$1
seconds=${2:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

found=0
for target in "$build"/fuzz/fuzz_*; do
    [ -x "$target" ] || continue
    name=$(basename "$target")
    corpus=$scratch/${name#fuzz_}
    mkdir -p "$corpus"
    if [ -d "$top/fuzz/corpus/${name#fuzz_}" ]; then
        cp -r "$top/fuzz/corpus/${name#fuzz_}/." "$corpus/"
    fi
    echo "fuzz: $name for ${seconds}s"
    "$target" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 \
        -artifact_prefix="$scratch/" -print_final_stats=0 "$corpus" \
        >"$scratch/$name.log" 2>&1 || {
        tail -n 40 "$scratch/$name.log"
        echo "fuzz: $name FAILED (artifacts above)"
        exit 1
    }
    found=$((found + 1))
done
echo "fuzz: $found targets ran clean"
