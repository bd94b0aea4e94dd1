#!/bin/sh
# Slurm: tokio's slurm connector (bench/bench_text.c, in-process) against
# the reference pytokio's tokio.connectors.slurm.Slurm(cache_file=...)
# (in-process too), side by side, on the test-data pack's sample.slurm (a
# JSON cache), on the same tasks as `sacct -p` text (JobIDRaw|Start|End|
# NodeList| with compact node lists, nid0[5360-5367,...]), and on both
# made 100 times larger (the job copied under 100 job ids).
#
# The reference expands node lists in sacct text by running `scontrol
# show hostname` once per task.  Where Slurm is not installed that fails,
# so the reference's expansion is replaced by a pure-Python one, in the
# benchmark's process only: the reference then spends no time in
# subprocesses, and the ratios on sacct text are lower bounds.
#
# Prints, per input: MB, the best CPU time of one parse, MB/s, peak RSS,
# the reference's figures and the speed ratio, import time left out on
# both sides; then the wall time of one process each that opens the input
# once (the reference's imports included, as the issue's end-to-end
# figures are); last, the commands themselves, `tokio cache-slurm` against
# the reference's cache_slurm.py, with --json and --csv: CPU seconds and
# peak RSS of one process each, and whether the outputs agree (JSON by
# value, CSV by text).  Never pass/fail.
#
# The reference is found through environment variables only:
#   PYTOKIO_SRC     a pytokio checkout (NERSC/pytokio; see bench-darshan.sh);
#                   default /tmp/pytokio when present
#   PYTOKIO_PYTHON  default /usr/bin/python3 (Debian's)
# Usage: bench/bench-slurm.sh [BUILD_DIR]; TOKIO_TESTDATA (default
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
export LC_ALL=C TZ=America/Los_Angeles

if [ ! -x "$drv" ]; then
    echo "bench-slurm: $drv missing (build first)"
    exit 0
fi
if [ ! -f "$data/sample.slurm" ]; then
    echo "bench-slurm: $data/sample.slurm absent (the shared test-data pack)"
    exit 0
fi
if ! [ -x "$py" ]; then
    echo "bench-slurm: $py absent: it also makes the generated inputs"
    exit 0
fi
if [ -z "$pysrc" ] || [ ! -f "$pysrc/tokio/connectors/slurm.py" ]; then
    echo "pytokio not found (set PYTOKIO_SRC=...): tokio's figures only"
    pysrc=
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The generated inputs, from sample.slurm: sacct -p text of its tasks, and
# `scale` copies of the job (job id + copy) as JSON and as text.
cat > "$work/gen.py" <<'EOF'
import json, re, sys
src, scale, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
tasks = json.load(open(src))

def compact(nodes):
    """nid05360..nid05367,nid05390 -> nid[05360-05367,05390], Slurm's form"""
    groups = {}
    for n in sorted(nodes):
        m = re.match(r"(.*?)(\d+)$", n)
        groups.setdefault(m.group(1), []).append(m.group(2))
    parts = []
    for prefix, digits in sorted(groups.items()):
        if len(digits) == 1:
            parts.append(prefix + digits[0])
            continue
        w, nums = len(digits[0]), sorted(int(x) for x in digits)
        ranges, lo = [], nums[0]
        for a, b in zip(nums, nums[1:] + [None]):
            if b != a + 1:
                ranges.append("%0*d" % (w, lo) if lo == a
                              else "%0*d-%0*d" % (w, lo, w, a))
                lo = b
        parts.append("%s[%s]" % (prefix, ",".join(ranges)))
    return ",".join(parts)

def copy(k):
    res = {}
    for key, t in tasks.items():
        job, _, step = key.partition(".")
        nk = str(int(job) + k) + ("." + step if step else "")
        res[nk] = dict(t, jobidraw=nk)
    return res

def text(tasks):
    lines = ["JobIDRaw|Start|End|NodeList|"]
    for key, t in tasks.items():
        lines.append("%s|%s|%s|%s|" % (key, t["start"], t["end"],
                                       compact(t["nodelist"])))
    return "\n".join(lines) + "\n"

big = {}
for k in range(scale):
    big.update(copy(k))
open(out + "/sample.sacct", "w").write(text(tasks))
open(out + "/big.sacct", "w").write(text(big))
json.dump(big, open(out + "/big.slurm", "w"))
EOF
"$py" "$work/gen.py" "$data/sample.slurm" "$scale" "$work" || {
    echo "bench-slurm: could not generate the inputs"; exit 0; }

# the reference's node-list expansion without scontrol (see above), for
# both scripts below; Python finds it beside them
cat > "$work/expand_nodes.py" <<'EOF'
import re
from tokio.connectors import slurm

def expand(text):
    """`scontrol show hostname`, without scontrol"""
    out = set()
    for prefix, inner in re.findall(r"([^,\[]+)(?:\[([^\]]*)\])?,?", text):
        if not inner:
            out.add(prefix)
            continue
        for part in inner.split(","):
            lo, _, hi = part.partition("-")
            for n in range(int(lo), int(hi or lo) + 1):
                out.add("%s%0*d" % (prefix, len(lo), n))
    return out

slurm._RECAST_KEY_MAP["nodelist"] = (expand, slurm._RECAST_KEY_MAP["nodelist"][1])
EOF

cat > "$work/ref.py" <<'EOF'
import sys, time, resource
import expand_nodes
from tokio.connectors import slurm

best, start = None, time.process_time()
while True:
    t0 = time.process_time()
    obj = slurm.Slurm(cache_file=sys.argv[1])
    dt = time.process_time() - t0
    best = dt if best is None or dt < best else best
    if time.process_time() - start >= float(sys.argv[2]):
        break
    del obj
print("%.6f %d %d" % (best, len(obj),
                      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
EOF

. "$top/bench/lib.sh"

echo "in-process: best CPU time of one parse, MB/s of input text, peak RSS of"
echo "the process; e2e: wall ms of one process that opens the input once (the"
echo "reference's imports included)"
printf '%-26s %6s %8s %6s %7s %6s | %8s %6s %7s %6s | %5s | %7s %7s %6s\n' \
    input MB tok_ms MB/s RSS_KiB items ref_ms MB/s RSS_KiB items ratio \
    e2e_tok e2e_ref ratio
for spec in "$data/sample.slurm:sample.slurm (JSON)" \
            "$work/big.slurm:x$scale sample.slurm (JSON)" \
            "$work/sample.sacct:sample as sacct -p" \
            "$work/big.sacct:x$scale sacct -p"; do
    file=${spec%%:*} label=${spec#*:}
    set -- $("$drv" slurm "$file" 0.5) || { echo "$label: tokio failed"; continue; }
    t_s=$1 bytes=$2 t_items=$3 t_rss=$4
    r_ms=- r_mbs=- r_rss=- r_items=- r=- e_t=- e_r=- e=-
    if [ -n "$pysrc" ] &&
       set -- $(PYTHONPATH=$pysrc "$py" "$work/ref.py" "$file" 0.5 2>/dev/null); then
        r_ms=$(ms "$1") r_mbs=$(mbs "$bytes" "$1") r_items=$2 r_rss=$3
        r=$(ratio "$1" "$t_s")
    fi
    if [ -n "$pysrc" ]; then
        # one process each, start to end: the reference's import included
        a=$(wall "$drv" slurm "$file" once)
        b=$(wall env PYTHONPATH="$pysrc" "$py" "$work/ref.py" "$file" 0)
        e_t=$(ms "$a") e_r=$(ms "$b") e=$(ratio "$b" "$a")
    fi
    printf '%-26s %6.3f %8s %6s %7s %6s | %8s %6s %7s %6s | %5s | %7s %7s %6s\n' "$label" \
        "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" "$(ms "$t_s")" \
        "$(mbs "$bytes" "$t_s")" "$t_rss" "$t_items" "$r_ms" "$r_mbs" "$r_rss" \
        "$r_items" "$r" "$e_t" "$e_r" "$e"
done
[ -x "$build/tokio" ] && [ -n "$pysrc" ] || exit 0
# the reference's command, its node-list expansion replaced as above
cat > "$work/ref_cli.py" <<'EOF'
import sys
import expand_nodes
import tokio.cli.cache_slurm
tokio.cli.cache_slurm.main(sys.argv[1:])
EOF
cat > "$work/same.py" <<'EOF'
import json, sys
a, b = (open(f).read() for f in sys.argv[2:4])
if sys.argv[1] == "--json":
    a, b = json.loads(a), json.loads(b)
print("same" if a == b else "DIFFERS")
EOF
echo
echo "commands: CPU s and peak KiB of one process, tokio cache-slurm against"
echo "cache_slurm.py (CPU time is counted in 10 ms ticks)"
printf '%-26s %-6s %7s %8s | %7s %8s | %6s %s\n' input flag tok_s RSS_KiB \
    ref_s RSS_KiB ratio output
for spec in "$data/sample.slurm:sample.slurm (JSON)" \
            "$work/big.slurm:x$scale sample.slurm (JSON)"; do
    file=${spec%%:*} label=${spec#*:}
    for flag in --json --csv; do
        set -- $(cpu_rss "$work/t.out" "$build/tokio" cache-slurm $flag "$file")
        t_s=$1 t_rss=$2
        set -- $(cpu_rss "$work/r.out" env PYTHONPATH="$pysrc" "$py" \
                 "$work/ref_cli.py" $flag "$file")
        r_s=$1 r_rss=$2
        # under one tick, tokio's time is taken as 10 ms: a lower bound
        r=$(awk -v a="$r_s" -v b="$t_s" 'BEGIN {
            if (a == "-" || b == "-") print "-";
            else if (b == 0) printf ">%.0f", a / 0.01; else printf "%.0f", a / b }')
        same=$(PYTHONPATH="$pysrc" "$py" "$work/same.py" $flag "$work/t.out" \
               "$work/r.out" 2>/dev/null || echo "-")
        printf '%-26s %-6s %7s %8s | %7s %8s | %6s %s\n' "$label" $flag \
            "$t_s" "$t_rss" "$r_s" "$r_rss" "$r" "$same"
    done
done
exit 0
