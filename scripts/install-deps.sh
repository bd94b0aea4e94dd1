#!/bin/sh
# Install the Debian packages tokio builds and tests with.  Only packages
# that are missing are installed, so a second run costs one dpkg query.
# Not root: print the one command that would do it, and fail.
set -eu

packages="
build-essential cmake pkg-config
libjansson-dev libarchive-dev zlib1g-dev libbz2-dev libpcre2-dev
libyaml-dev libhdf5-dev libsqlite3-dev sqlite3 libmariadb-dev
libcairo2-dev libcurl4-openssl-dev libcmocka-dev
mariadb-server
openmpi-bin libopenmpi-dev
clang libclang-rt-14-dev valgrind
chromium
"

missing=""
for p in $packages; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing="$missing $p"
    fi
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "tokio needs these Debian packages:$missing" >&2
    echo "run as root:  apt-get update && apt-get install -y --no-install-recommends$missing" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
