#!/usr/bin/env bash
# Remote read over loopback HTTP vs the local read (same program, same
# thread count): starts nginx (Debian; scripts/install-remote-test-deps.sh)
# over the folder of FILE, runs read_bench on the path and on the URL, and
# counts nginx's requests and body bytes for one full read, for a
# projected, filtered read (`parquetry count --where`, `cat --columns
# --where`), and for the same query by chDB's url() table function when the
# chdb npm package is installed (bench/chdb_url.mjs; skipped, saying so,
# when it is not). WHERE must then be SQL as well (the default is).
#   bench/remote_bench.sh build/release bench/data/lineitem_zstd.parquet [REPEAT] [WHERE] [COLUMNS]
# READ_BENCH_ARGS (environment) is passed to both read_bench runs, e.g.
# "--threads 1" or "--no-read-ahead" (the row group read ahead while one
# decodes is on by default).
set -euo pipefail
bin=$1; file=$2; repeat=${3:-3}
where=${4:-"l_key < 100000"}
cols=${5:-"l_key,l_price"}
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx" ] || { echo "remote_bench: nginx not installed" >&2; exit 3; }
dir=$(cd "$(dirname "$file")" && pwd); name=$(basename "$file")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-rbench.XXXXXX")
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$tmp/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
error_log $tmp/error.log;
pid $tmp/nginx.pid;
events { worker_connections 256; }
http {
  client_body_temp_path $tmp;
  log_format rng '\$status \$body_bytes_sent "\$http_range"';
  access_log $tmp/access.log rng;
  keepalive_requests 100000;
  server { listen 127.0.0.1:$port; root $dir; }
}
CONF
"$nginx" -c "$tmp/nginx.conf" -p "$tmp" 2>/dev/null &
ng=$!
trap 'kill $ng 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do (echo >/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
url="http://127.0.0.1:$port/$name"
log="$tmp/access.log"
count() { local b=$1; tail -n +$((b + 1)) "$log" | awk '{n++; s+=$2} END {printf "requests=%d body_bytes=%d\n", n, s}'; }
# shellcheck disable=SC2086 # READ_BENCH_ARGS is a list of words
echo "local: $("$bin/read_bench" "$file" --repeat "$repeat" ${READ_BENCH_ARGS:-} | tail -n1)"
b=$(wc -l < "$log")
# shellcheck disable=SC2086
echo "http:  $("$bin/read_bench" "$url" --repeat "$repeat" ${READ_BENCH_ARGS:-} | tail -n1)"
echo "http full reads x$repeat: $(count "$b")"
b=$(wc -l < "$log")
"$bin/parquetry" count --where "$where" "$url" >/dev/null
echo "http count --where '$where': $(count "$b")"
b=$(wc -l < "$log")
"$bin/parquetry" cat --columns "$cols" --where "$where" "$url" >/dev/null
echo "http cat --columns $cols --where '$where': $(count "$b")"
b=$(wc -l < "$log")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if command -v node >/dev/null && node "$here/chdb_url.mjs" "$url" "$cols" "$where" >"$tmp/chdb.out" 2>&1; then
  echo "chdb url() SELECT $cols WHERE $where: $(count "$b") ($(cat "$tmp/chdb.out"))"
else
  echo "chdb url(): skipped ($(head -c 200 "$tmp/chdb.out" 2>/dev/null || echo "node not installed"))"
fi
echo "file size: $(stat -c %s "$file")"
