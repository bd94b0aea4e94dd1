#!/bin/sh
# The demo `make demo` runs: tokio on the project's own sample data, which
# the build generates with its Darshan log writer (examples/make_sample_data
# -> BUILD/examples/data), and the bundled example site configuration.
# Nothing from outside the repository is used.
set -eu
tokio=$(cd "$(dirname "${1:-build/tokio}")" && pwd)/$(basename "${1:-build/tokio}")
build=$(dirname "$tokio")
top=$(cd "$(dirname "$0")/.." && pwd)

# examples/site.json names its files relative to the folder tokio runs in
cd "$build"
export PYTOKIO_CONFIG="$top/examples/site.json"
export TZ=${TZ:-America/Los_Angeles}

step() { printf '\n$ %s\n' "$*" | sed "s|$tokio|tokio|"; "$@"; }

step "$tokio" --version
step "$tokio" help
step "$tokio" config darshan_log_dirs
step "$tokio" find-darshanlogs --start 2019-02-14 --end 2019-02-15
log=$("$tokio" find-darshanlogs --start 2019-02-14 --end 2019-02-14 --username glock | head -n 1)
step "$tokio" cache-darshan --perf "$log"
step "$tokio" summarize-tts examples/data/2019-02-14/exscr01.hdf5
step "$tokio" summarize-h5lmt --summary --bins 24 examples/data/2019-02-14/exscr01.hdf5
step "$tokio" export-tts --start 2019-02-14T23:59:40 --end 2019-02-15T00:00:20 scratch datatargets/readbytes
step "$tokio" summarize-job --json "$log"
step "$tokio" insights "$log"
step "$tokio" umami --format csv "$top/examples/ior-history.csv"
step "$tokio" report --history "$top/examples/ior-history.csv" -o "$build/report.html" "$log"
printf '\nThe job report is %s: open it in a browser.\n' "$build/report.html"
