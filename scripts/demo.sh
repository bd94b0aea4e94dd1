#!/bin/sh
# The demo `make demo` runs: tokio on the project's own bundled sample data
# (examples/), nothing from outside the repository.
set -eu
tokio=${1:-build/tokio}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export PYTOKIO_CONFIG="$top/examples/site.json"
export TZ=${TZ:-America/Los_Angeles}

step() { printf '\n$ %s\n' "$*"; "$@"; }

step "$tokio" --version
step "$tokio" help
step "$tokio" config
step "$tokio" config darshan_log_dirs
step "$tokio" config --path
