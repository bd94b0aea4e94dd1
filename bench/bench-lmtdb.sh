#!/bin/bash
# archive-lmtdb on a generated day of LMT data (5 s steps, 248 OSTs, 24
# OSSes, one MDS with 20 operations), from SQLite and from a MariaDB
# server started here on a loopback port, against the reference's
# archive_lmtdb.py on the same SQLite data.  Prints seconds, rows/s and
# peak memory side by side; never fails the build.
#
#   bench/bench-lmtdb.sh BUILD_DIR
#   HOURS=24      hours of data generated and archived by tokio
#   REF_HOURS=6   hours the reference archives (it needs ~0.4 KiB per row;
#                 tokio is timed on the same hours for the ratio)
#   MARIADB=1     also load the data into MariaDB and archive from it
#   DB=FILE       the generated SQLite data: reused when FILE exists (made
#                 by an earlier run with the same HOURS), else made there
#                 and kept (default: made in a temporary folder, removed)
#
# rows/s are per CPU second (user + sys, all threads: the machine may be
# shared); the wall-clock rate follows in parentheses.
set -u
build=$1
tokio=$build/tokio
hours=${HOURS:-24}
ref_hours=${REF_HOURS:-6}
use_mariadb=${MARIADB:-1}
py=/usr/bin/python3
export TZ=America/Los_Angeles
work=$(mktemp -d)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null
        wait "$server_pid" 2>/dev/null
    fi
    rm -rf "$work"
}
trap cleanup EXIT
db=${DB:-$work/lmt.sqlite3}

if [ -e "$db" ]; then
    echo "reusing $db"
else
echo "generating $hours h of LMT data (248 OSTs, 24 OSSes, 1 MDS) ..."
$py - "$db" "$hours" <<'EOF'
import sqlite3, sys, datetime, random
path, hours = sys.argv[1], int(sys.argv[2])
db = sqlite3.connect(path)
db.executescript("""
PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
CREATE TABLE FILESYSTEM_INFO (FILESYSTEM_ID, FILESYSTEM_NAME, FILESYSTEM_MOUNT_NAME, SCHEMA_VERSION, PRIMARY KEY(FILESYSTEM_ID));
CREATE TABLE OST_INFO (OST_ID, OSS_ID, OST_NAME, HOSTNAME, OFFLINE, DEVICE_NAME, PRIMARY KEY(OST_ID));
CREATE TABLE OSS_INFO (OSS_ID, FILESYSTEM_ID, HOSTNAME, FAILOVERHOST, PRIMARY KEY(OSS_ID, HOSTNAME));
CREATE TABLE MDS_INFO (MDS_ID, FILESYSTEM_ID, MDS_NAME, HOSTNAME, DEVICE_NAME, PRIMARY KEY(MDS_ID));
CREATE TABLE OPERATION_INFO (OPERATION_ID, OPERATION_NAME, UNITS, PRIMARY KEY(OPERATION_ID));
CREATE TABLE TIMESTAMP_INFO (TS_ID, TIMESTAMP, PRIMARY KEY(TS_ID));
CREATE TABLE OST_DATA (OST_ID, TS_ID, READ_BYTES, WRITE_BYTES, PCT_CPU, KBYTES_FREE, KBYTES_USED, INODES_FREE, INODES_USED, PRIMARY KEY(OST_ID, TS_ID));
CREATE TABLE OSS_DATA (OSS_ID, TS_ID, PCT_CPU, PCT_MEMORY, PRIMARY KEY(OSS_ID, TS_ID));
CREATE TABLE MDS_DATA (MDS_ID, TS_ID, PCT_CPU, KBYTES_FREE, KBYTES_USED, INODES_FREE, INODES_USED, PRIMARY KEY(MDS_ID, TS_ID));
CREATE TABLE MDS_OPS_DATA (MDS_ID, TS_ID, OPERATION_ID, SAMPLES, SUM, SUMSQUARES, PRIMARY KEY(MDS_ID, TS_ID, OPERATION_ID));
""")
db.execute("INSERT INTO FILESYSTEM_INFO VALUES (1, 'bench', '', 1.1)")
db.executemany("INSERT INTO OSS_INFO VALUES (?, 1, ?, '')", [(i + 1, "bench-oss%02d" % i) for i in range(24)])
db.executemany("INSERT INTO OST_INFO VALUES (?, ?, ?, ?, 0, '')", [(i + 1, i % 24 + 1, "bench-OST%04x" % i, "bench-oss%02d" % (i % 24)) for i in range(248)])
db.execute("INSERT INTO MDS_INFO VALUES (1, 1, 'bench-MDT0000', 'bench-mds', '')")
ops = ["open", "close", "mknod", "link", "unlink", "mkdir", "rmdir", "rename", "getxattr", "statfs", "setattr", "getattr", "setxattr", "sync", "samedir_rename", "crossdir_rename", "read", "write", "punch", "quotactl"]
db.executemany("INSERT INTO OPERATION_INFO VALUES (?, ?, 'reqs')", [(i + 1, n) for i, n in enumerate(ops)])
t0 = datetime.datetime(2019, 3, 1)
n = hours * 720 + 1
db.executemany("INSERT INTO TIMESTAMP_INFO VALUES (?, ?)", [(k + 1, (t0 + datetime.timedelta(seconds=5 * k)).strftime("%Y-%m-%d %H:%M:%S")) for k in range(n)])
rnd = random.Random(1)
def ost_rows():
    for k in range(n):
        for i in range(248):
            yield (i + 1, k + 1, k * 1000003 + i, k * 2000003 + i, 1.5, 10 ** 9 - k, 10 ** 8 + k, 10 ** 7, 10 ** 6 + i)
db.executemany("INSERT INTO OST_DATA VALUES (?,?,?,?,?,?,?,?,?)", ost_rows())
db.executemany("INSERT INTO OSS_DATA VALUES (?,?,?,?)", ((i + 1, k + 1, rnd.random() * 100, 50.5) for k in range(n) for i in range(24)))
db.executemany("INSERT INTO MDS_DATA VALUES (1,?,?,1,2,3,4)", ((k + 1, rnd.random() * 100) for k in range(n)))
db.executemany("INSERT INTO MDS_OPS_DATA VALUES (1,?,?,?,0,0)", ((k + 1, o + 1, k * 31 + o) for k in range(n) for o in range(len(ops))))
# the secondary indexes a real LMT database has
db.executescript("""
CREATE INDEX ts_stamp ON TIMESTAMP_INFO(TIMESTAMP);
CREATE INDEX ost_ts ON OST_DATA(TS_ID);
CREATE INDEX oss_ts ON OSS_DATA(TS_ID);
CREATE INDEX mds_ts ON MDS_DATA(TS_ID);
CREATE INDEX ops_ts ON MDS_OPS_DATA(TS_ID);
""")
db.commit()
EOF
fi

start=2019-03-01T00:00:00
end_of() {  # start + $1 hours
    $py -c "import datetime,sys; print((datetime.datetime(2019,3,1) + datetime.timedelta(hours=int(sys.argv[1]))).strftime('%Y-%m-%dT%H:%M:%S'))" "$1"
}
end=$(end_of "$hours")
ref_end=$(end_of "$ref_hours")
# rows archive-lmtdb reads: every *_DATA row up to one timestep past the end
rows_of() {
    local h=$1
    echo $(( (h * 720 + 1) * (248 + 24 + 1 + 20) ))
}
rows=$(rows_of "$hours")
ref_rows=$(rows_of "$ref_hours")

# "cpu_seconds maxrss_kib wall_seconds" of one command (CPU time: this
# machine is shared, so wall time says more about the neighbours)
measure() {
    /usr/bin/time -f '%U %S %M %e' -o "$work/time" "$@" > "$work/out" 2> "$work/err" ||
        { echo "FAILED: $*" >&2; tail -3 "$work/err" >&2; }
    tail -1 "$work/time" | awk '{ printf "%.2f %d %.2f\n", $1 + $2, $3, $4 }'
}
report() {  # label rows cpu_seconds rss wall_seconds
    awk -v l="$1" -v n="$2" -v s="$3" -v m="$4" -v w="$5" 'BEGIN {
        printf "%-36s %8d rows %7.2f s CPU %9.0f rows/s (wall %6.2f s, %9.0f rows/s) %7.1f MiB peak\n",
               l, n, s, (s > 0 ? n / s : 0), w, (w > 0 ? n / w : 0), m / 1024 }'
}

echo
set -- $(measure "$tokio" archive-lmtdb -i "$db" -o "$work/t.hdf5" "$start" "$end")
report "tokio from SQLite (${hours} h)" "$rows" "$1" "$2" "$3"
rm -f "$work/t.hdf5"

set -- $(measure "$tokio" archive-lmtdb -i "$db" -o "$work/t.hdf5" "$start" "$ref_end")
t_secs=$1
report "tokio from SQLite (${ref_hours} h)" "$ref_rows" "$1" "$2" "$3"
if [ -d /tmp/pytokio ]; then
    # h5py 3 opens files read-only by default; the reference was written
    # for h5py 2 (mode "a"): open its output for writing as it expected
    cat > "$work/ref.py" <<'EOF'
import sys, tokio.connectors.hdf5 as h
_init = h.Hdf5.__init__
def init(self, *args, **kwargs):
    if len(args) < 2 and 'mode' not in kwargs:
        kwargs['mode'] = 'a'
    _init(self, *args, **kwargs)
h.Hdf5.__init__ = init
import tokio.cli.archive_lmtdb
tokio.cli.archive_lmtdb.main(sys.argv[1:])
EOF
    set -- $(measure env PYTHONPATH=/tmp/pytokio $py "$work/ref.py" -i "$db" -o "$work/r.hdf5" "$start" "$ref_end")
    report "reference from SQLite (${ref_hours} h)" "$ref_rows" "$1" "$2" "$3"
    awk -v a="$1" -v b="$t_secs" 'BEGIN { printf "tokio is %.1fx faster than the reference\n", (b > 0 ? a / b : 0) }'
    rm -f "$work/r.hdf5"
else
    echo "reference absent (/tmp/pytokio): no ratio"
fi
rm -f "$work/t.hdf5"

# ---- MariaDB --------------------------------------------------------
mysqld=$(command -v mariadbd || echo /usr/sbin/mariadbd)
if [ "$use_mariadb" = 1 ] && [ -x "$mysqld" ] && command -v mariadb >/dev/null; then
    echo
    echo "loading the same data into MariaDB ..."
    user=root; [ "$(id -u)" = 0 ] || user=$(id -un)
    mariadb-install-db --no-defaults --datadir="$work/data" --user="$user" \
        --auth-root-authentication-method=normal --skip-test-db > "$work/install.log" 2>&1
    port=$($py -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$mysqld" --no-defaults --datadir="$work/data" --user="$user" \
        --socket="$work/s.sock" --port="$port" --bind-address=127.0.0.1 \
        --skip-log-bin --innodb-buffer-pool-size=512M \
        --innodb-flush-log-at-trx-commit=0 --local-infile=1 \
        --log-error="$work/error.log" > /dev/null 2>&1 &
    server_pid=$!
    for _ in $(seq 100); do
        mariadb -S "$work/s.sock" -uroot -e 'SELECT 1' > /dev/null 2>&1 && break
        sleep 0.2
    done
    sql() { mariadb -S "$work/s.sock" -uroot --local-infile=1 "$@"; }
    sql -e "CREATE DATABASE lmt; CREATE USER 'bench'@'127.0.0.1' IDENTIFIED BY 'b3nch'; GRANT SELECT ON lmt.* TO 'bench'@'127.0.0.1'"
    sql lmt <<'EOF'
CREATE TABLE FILESYSTEM_INFO (FILESYSTEM_ID INT PRIMARY KEY, FILESYSTEM_NAME VARCHAR(128), FILESYSTEM_MOUNT_NAME VARCHAR(128), SCHEMA_VERSION FLOAT);
CREATE TABLE OST_INFO (OST_ID INT PRIMARY KEY, OSS_ID INT, OST_NAME VARCHAR(128), HOSTNAME VARCHAR(128), OFFLINE INT, DEVICE_NAME VARCHAR(128));
CREATE TABLE OSS_INFO (OSS_ID INT, FILESYSTEM_ID INT, HOSTNAME VARCHAR(128), FAILOVERHOST VARCHAR(128), PRIMARY KEY(OSS_ID, HOSTNAME));
CREATE TABLE MDS_INFO (MDS_ID INT PRIMARY KEY, FILESYSTEM_ID INT, MDS_NAME VARCHAR(128), HOSTNAME VARCHAR(128), DEVICE_NAME VARCHAR(128));
CREATE TABLE OPERATION_INFO (OPERATION_ID INT PRIMARY KEY, OPERATION_NAME VARCHAR(64), UNITS VARCHAR(16));
CREATE TABLE TIMESTAMP_INFO (TS_ID INT PRIMARY KEY, TIMESTAMP DATETIME, INDEX(TIMESTAMP));
CREATE TABLE OST_DATA (OST_ID INT, TS_ID INT, READ_BYTES BIGINT, WRITE_BYTES BIGINT, PCT_CPU FLOAT, KBYTES_FREE BIGINT, KBYTES_USED BIGINT, INODES_FREE BIGINT, INODES_USED BIGINT, PRIMARY KEY(OST_ID, TS_ID), INDEX(TS_ID));
CREATE TABLE OSS_DATA (OSS_ID INT, TS_ID INT, PCT_CPU DOUBLE, PCT_MEMORY DOUBLE, PRIMARY KEY(OSS_ID, TS_ID), INDEX(TS_ID));
CREATE TABLE MDS_DATA (MDS_ID INT, TS_ID INT, PCT_CPU DOUBLE, KBYTES_FREE BIGINT, KBYTES_USED BIGINT, INODES_FREE BIGINT, INODES_USED BIGINT, PRIMARY KEY(MDS_ID, TS_ID), INDEX(TS_ID));
CREATE TABLE MDS_OPS_DATA (MDS_ID INT, TS_ID INT, OPERATION_ID INT, SAMPLES BIGINT, SUM BIGINT, SUMSQUARES BIGINT, PRIMARY KEY(MDS_ID, TS_ID, OPERATION_ID), INDEX(TS_ID));
EOF
    for t in FILESYSTEM_INFO OST_INFO OSS_INFO MDS_INFO OPERATION_INFO TIMESTAMP_INFO OST_DATA OSS_DATA MDS_DATA MDS_OPS_DATA; do
        sqlite3 -csv "$db" "SELECT * FROM $t" > "$work/$t.csv"
        sql lmt -e "LOAD DATA LOCAL INFILE '$work/$t.csv' INTO TABLE $t FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"'"
        rm -f "$work/$t.csv"
    done
    set -- $(measure env PYTOKIO_LMT_HOST=127.0.0.1 PYTOKIO_LMT_PORT="$port" PYTOKIO_LMT_USER=bench PYTOKIO_LMT_PASSWORD=b3nch PYTOKIO_LMT_DB=lmt \
             "$tokio" archive-lmtdb -o "$work/m.hdf5" "$start" "$end")
    report "tokio from MariaDB (${hours} h)" "$rows" "$1" "$2" "$3"
    echo "  (CPU time of tokio only; the server's is not counted)"
    mariadb-admin -S "$work/s.sock" -uroot shutdown > /dev/null 2>&1
    wait "$server_pid" 2>/dev/null
    server_pid=
fi
