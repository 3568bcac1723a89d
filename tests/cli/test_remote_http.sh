#!/usr/bin/env bash
# Remote reads over HTTP(S) (io/http.c), against nginx started here on
# loopback (Debian nginx; scripts/install-remote-test-deps.sh) and a
# fault-injecting proxy of our own (tests/remote/fault_proxy.py):
#   - `cat` of corpus files over http:// and https:// (a self-signed
#     certificate made here with openssl, trusted with --ca-file) prints
#     exactly what the local read prints; the nginx access log shows how
#     many requests a read took (one for a file under 64 KiB, two for a
#     larger file of one row group: the header magic is read with the data,
#     not alone, and a file without it still fails naming the URL); a file of
#     six row groups (cat reads the next ahead) moves each range once;
#   - a missing object, an untrusted certificate and a refused connection
#     fail with exit 1 naming the URL (never a password in it) and range;
#   - faults: 503s, 429, a dropped connection, a truncated body, delays and
#     a server ignoring Range are retried or handled and give the local
#     output; a changed object, a server always failing and one sending
#     more than asked fail cleanly, never with wrong data.
# nginx is installed when absent (scripts/install-remote-test-deps.sh); where
# that cannot be done, or openssl or python3 is missing, it says so and exits
# 77 (skipped).
# Usage: CLI CORPUS_DIR
set -u
cli=$1; corpus=$2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
data="$corpus/data"
if [ ! -d "$data" ]; then echo "SKIP: corpus not found at $corpus"; exit 77; fi
# a fresh machine gets Debian's nginx here (as test_remote_s3.sh gets s3rver)
bash "$here/scripts/install-remote-test-deps.sh" nginx >/dev/null 2>&1
nginx=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null)
if [ -z "$nginx" ]; then echo "SKIP: nginx not installed (scripts/install-remote-test-deps.sh)"; exit 77; fi
for t in openssl python3; do
  command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-remote.XXXXXX")
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
http_port=$(free_port); https_port=$(free_port)
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 1 \
  -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" >/dev/null 2>&1 || { echo "SKIP: openssl cannot make a certificate"; exit 77; }
mkdir -p "$tmp/ng"
cat > "$tmp/ng/nginx.conf" <<CONF
daemon off;
master_process off;
worker_processes 1;
error_log $tmp/ng/error.log;
pid $tmp/ng/nginx.pid;
events { worker_connections 256; }
http {
  client_body_temp_path $tmp/ng;
  proxy_temp_path $tmp/ng;
  fastcgi_temp_path $tmp/ng;
  uwsgi_temp_path $tmp/ng;
  scgi_temp_path $tmp/ng;
  log_format rng '\$status \$body_bytes_sent "\$http_range" \$request_uri';
  access_log $tmp/ng/access.log rng;
  server {
    listen 127.0.0.1:$http_port;
    listen 127.0.0.1:$https_port ssl http2;
    ssl_certificate $tmp/cert.pem;
    ssl_certificate_key $tmp/key.pem;
    root $data;
    location /ds/ { alias $tmp/ds/; }
  }
}
CONF
"$nginx" -c "$tmp/ng/nginx.conf" -p "$tmp/ng" >"$tmp/ng/out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do (echo >/dev/tcp/127.0.0.1/$http_port) 2>/dev/null && break; sleep 0.1; done
if ! (echo >/dev/tcp/127.0.0.1/$http_port) 2>/dev/null; then
  echo "SKIP: nginx did not start: $(cat "$tmp/ng/out" "$tmp/ng/error.log" 2>/dev/null | head -3)"; exit 77
fi
log="$tmp/ng/access.log"
requests() { wc -l < "$log"; }

files="alltypes_plain.parquet alltypes_tiny_pages_plain.parquet nested_lists.snappy.parquet datapage_v2.snappy.parquet lz4_raw_compressed_larger.parquet byte_array_decimal.parquet"
for f in $files; do
  [ -f "$data/$f" ] || continue
  "$cli" cat "$data/$f" > "$tmp/local.out" 2>&1; lrc=$?
  before=$(requests)
  "$cli" cat "http://127.0.0.1:$http_port/$f" > "$tmp/http.out" 2>&1; hrc=$?
  n=$(( $(requests) - before ))
  if [ $lrc -ne $hrc ] || ! cmp -s "$tmp/local.out" "$tmp/http.out"; then fail "http cat $f differs from local (rc $lrc vs $hrc)"; diff "$tmp/local.out" "$tmp/http.out" | head -5; fi
  size=$(stat -c %s "$data/$f")
  echo "http $f: $size bytes, $n requests"
  if [ "$size" -le 65536 ] && [ "$n" -ne 1 ]; then fail "$f ($size bytes) took $n requests, expected 1"; fi
  # a larger file of one row group: the tail, then the data with the header
  # magic folded into its batch (no request of its own): 2 requests, not 3
  case $f in alltypes_tiny_pages_plain.parquet|lz4_raw_compressed_larger.parquet)
    [ "$n" -eq 2 ] || fail "$f ($size bytes) took $n requests, expected 2 (tail; data with the header magic)";;
  esac
  "$cli" cat --ca-file "$tmp/cert.pem" "https://127.0.0.1:$https_port/$f" > "$tmp/https.out" 2>&1; src=$?
  if [ $lrc -ne $src ] || ! cmp -s "$tmp/local.out" "$tmp/https.out"; then fail "https cat $f differs from local"; head -3 "$tmp/https.out"; fi
done
# the bytes a whole read moved are the file's bytes, about once
f=alltypes_tiny_pages_plain.parquet
before=$(requests)
"$cli" cat "http://127.0.0.1:$http_port/$f" > /dev/null
bytes=$(tail -n $(( $(requests) - before )) "$log" | awk '{s+=$2} END {print s}')
size=$(stat -c %s "$data/$f")
echo "http $f: $bytes body bytes for a $size-byte file"
if [ "$bytes" -gt $(( size + 65536 )) ]; then fail "read $bytes bytes of a $size-byte file"; fi
# a projection fetches less
before=$(requests)
"$cli" cat --columns id "http://127.0.0.1:$http_port/$f" > /dev/null || fail "projected read failed"
pbytes=$(tail -n $(( $(requests) - before )) "$log" | awk '{s+=$2} END {print s}')
echo "http $f --columns id: $pbytes body bytes"
if [ "$pbytes" -ge "$bytes" ]; then fail "projection read $pbytes bytes, the whole read $bytes"; fi

# a file of several row groups: cat reads the next one ahead while one is
# printed (as the Arrow stream does); the text is the local text and every
# byte range is fetched once (the bytes moved are about the file's)
mkdir -p "$tmp/ds"
python3 -c 'import sys
print("id,name,x")
for i in range(30000): print("%d,n%d,%d.25" % (i, i * 7919 % 100003, i * 31 % 977))' > "$tmp/rg.csv"
"$cli" convert --row-group-size 5000 "$tmp/rg.csv" "$tmp/ds/rg.parquet" > /dev/null || fail "convert of a file of 6 row groups"
"$cli" cat "$tmp/ds/rg.parquet" > "$tmp/local.out"
before=$(requests)
"$cli" cat "http://127.0.0.1:$http_port/ds/rg.parquet" > "$tmp/http.out" 2>&1 || fail "http cat of 6 row groups: $(head -3 "$tmp/http.out")"
cmp -s "$tmp/local.out" "$tmp/http.out" || fail "http cat of 6 row groups differs from local"
[ "$(wc -l < "$tmp/local.out")" -eq 30000 ] || fail "cat of 6 row groups printed $(wc -l < "$tmp/local.out") lines"
rgbytes=$(tail -n $(( $(requests) - before )) "$log" | awk '{s+=$2} END {print s}')
rgdup=$(tail -n $(( $(requests) - before )) "$log" | awk '{print $3}' | sort | uniq -d | head -3)
size=$(stat -c %s "$tmp/ds/rg.parquet")
echo "http cat of 6 row groups: $(( $(requests) - before )) requests, $rgbytes bytes of a $size-byte file"
if [ "$rgbytes" -gt $(( size + 65536 )) ]; then fail "cat of 6 row groups moved $rgbytes bytes of a $size-byte file"; fi
[ -z "$rgdup" ] || fail "a range fetched twice: $rgdup"
[ $(( $(requests) - before )) -le 6 ] || fail "cat of 6 row groups took $(( $(requests) - before )) requests, expected at most 6"
# the header magic, read with the first data instead of alone, is still
# checked: a file whose first 4 bytes are not PAR1 fails naming the URL,
# larger than the speculative tail (magic read with the data) or not
for big in 1 0; do
  if [ $big = 1 ]; then cp "$tmp/ds/rg.parquet" "$tmp/ds/nohead.parquet"; else cp "$data/alltypes_plain.parquet" "$tmp/ds/nohead.parquet"; fi
  printf 'XXXX' | dd of="$tmp/ds/nohead.parquet" bs=1 seek=0 conv=notrunc 2>/dev/null
  "$cli" cat "http://127.0.0.1:$http_port/ds/nohead.parquet" > "$tmp/nohead.out" 2> "$tmp/nohead.err"; rc=$?
  [ $rc -eq 1 ] || fail "no header magic (big=$big): exit $rc, expected 1"
  grep -q "http://127.0.0.1:$http_port/ds/nohead.parquet.*no PAR1 magic at the start" "$tmp/nohead.err" ||
    fail "no header magic (big=$big): message $(cat "$tmp/nohead.err")"
  [ ! -s "$tmp/nohead.out" ] || fail "no header magic (big=$big): rows printed: $(head -c 200 "$tmp/nohead.out")"
done
"$cli" cat --columns id,x --format csv "$tmp/ds/rg.parquet" > "$tmp/local.out"
"$cli" cat --columns id,x --format csv "http://127.0.0.1:$http_port/ds/rg.parquet" > "$tmp/http.out" 2>&1
cmp -s "$tmp/local.out" "$tmp/http.out" || fail "http cat --columns of 6 row groups differs from local"
"$cli" head -n 7000 "$tmp/ds/rg.parquet" > "$tmp/local.out"
"$cli" head -n 7000 "http://127.0.0.1:$http_port/ds/rg.parquet" > "$tmp/http.out" 2>&1
[ "$(wc -l < "$tmp/local.out")" -eq 7000 ] && cmp -s "$tmp/local.out" "$tmp/http.out" || fail "http head -n 7000 of 6 row groups differs from local"

# several URLs on the commands that take several files: as the local files
f2=$f # the same file twice: once over http, once over https
u1=http://127.0.0.1:$http_port/$f u2=https://127.0.0.1:$https_port/$f2
for args in "tail -n 3" "sample -n 4 --seed 2" "verify"; do
  # shellcheck disable=SC2086
  "$cli" $args "$data/$f" "$data/$f2" 2>&1 | sed "s|$data/||g" > "$tmp/local.out"
  # shellcheck disable=SC2086
  "$cli" $args --ca-file "$tmp/cert.pem" "$u1" "$u2" 2>&1 | sed "s|http://127.0.0.1:$http_port/||g; s|https://127.0.0.1:$https_port/||g" > "$tmp/http.out"
  cmp -s "$tmp/local.out" "$tmp/http.out" || { fail "$args over two URLs differs from the local files"; diff "$tmp/local.out" "$tmp/http.out" | head -5; }
done
"$cli" export --ca-file "$tmp/cert.pem" -o "$tmp/two.csv" "$u1" "$u2" > /dev/null || fail "export of two URLs"
"$cli" cat --format csv "$data/$f" "$data/$f2" | cmp -s - "$tmp/two.csv" || fail "export of two URLs differs from cat of the local files"

# errors name the URL and the range, never the password
out=$("$cli" cat "http://127.0.0.1:$http_port/absent.parquet" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "http://127.0.0.1:$http_port/absent.parquet.*not found (HTTP 404)" || fail "404: rc $rc: $out"
out=$("$cli" cat "https://127.0.0.1:$https_port/alltypes_plain.parquet" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "https://127.0.0.1:$https_port/alltypes_plain.parquet" || fail "untrusted certificate: rc $rc: $out"
dead=$(free_port)
out=$("$cli" cat "http://user:hunter2@127.0.0.1:$dead/x.parquet?X-Amz-Signature=topsecret" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "http://127.0.0.1:$dead/x.parquet" || fail "refused connection: rc $rc: $out"
if echo "$out" | grep -q -e hunter2 -e topsecret; then fail "a credential in the message: $out"; fi

# a metadata-only footer over data files (ColumnChunk.file_path), served
# over HTTP: the chunks are read from the URLs next to the footer's
mkdir -p "$tmp/ds/part"
cp "$data/alltypes_plain.parquet" "$tmp/ds/part/a.parquet"
cp "$data/alltypes_plain.parquet" "$tmp/ds/part/b c.parquet"
"$cli" concat --metadata-only -o "$tmp/ds/_metadata" "$tmp/ds/part/a.parquet" "$tmp/ds/part/b c.parquet" > "$tmp/out" 2>&1 \
  || fail "concat --metadata-only: $(cat "$tmp/out")"
"$cli" cat "$tmp/ds/_metadata" > "$tmp/local.out" 2>&1 || fail "local cat of the summary: $(head -3 "$tmp/local.out")"
[ "$(wc -l < "$tmp/local.out")" -gt 8 ] || fail "local cat of the summary printed too little"
before=$(requests)
"$cli" cat "http://127.0.0.1:$http_port/ds/_metadata?v=1" > "$tmp/http.out" 2>&1 || fail "http cat of the summary: $(head -3 "$tmp/http.out")"
cmp -s "$tmp/local.out" "$tmp/http.out" && echo "http summary: same rows as local ($(wc -l < "$tmp/http.out"))" \
  || { fail "http cat of the summary differs from local"; diff "$tmp/local.out" "$tmp/http.out" | head -5; }
tail -n $(( $(requests) - before )) "$log" | grep -q " /ds/part/b%20c.parquet" || fail "no request for the data file b c.parquet: $(tail -n 5 "$log")"
"$cli" cat --ca-file "$tmp/cert.pem" "https://127.0.0.1:$https_port/ds/_metadata" > "$tmp/https.out" 2>&1
cmp -s "$tmp/local.out" "$tmp/https.out" || fail "https cat of the summary differs from local: $(head -3 "$tmp/https.out")"
# file_paths that climb out ("..") or are absolute are refused under a URL
python3 - "$tmp/ds" <<'PY'
import sys
d = sys.argv[1]
b = open(d + "/_metadata", "rb").read()
assert b.count(b"part/a.parquet") >= 1
open(d + "/_esc", "wb").write(b.replace(b"part/a.parquet", b"../p/a.parquet"))
open(d + "/_abs", "wb").write(b.replace(b"part/a.parquet", b"/tmp/a.parquet"))
PY
out=$("$cli" cat "http://127.0.0.1:$http_port/ds/_esc" 2>&1 >/dev/null); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "climbs out" && echo "$out" | grep -q "http://127.0.0.1:$http_port/ds/_esc" \
  || fail "'..' under a URL: rc $rc: $out"
out=$("$cli" cat "http://127.0.0.1:$http_port/ds/_abs" 2>&1 >/dev/null); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "absolute path, which a footer read from a URL cannot name" || fail "absolute path under a URL: rc $rc: $out"
# a data file missing on the server: exit 1, naming both URLs, no credentials
rm "$tmp/ds/part/b c.parquet"
out=$("$cli" cat "http://user:hunter2@127.0.0.1:$http_port/ds/_metadata" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "http://127.0.0.1:$http_port/ds/_metadata" \
  && echo "$out" | grep -q "http://127.0.0.1:$http_port/ds/part/b%20c.parquet" || fail "missing data file over http: rc $rc: $out"
if echo "$out" | grep -q hunter2; then fail "a credential in the message: $out"; fi
echo "http summary, data file missing: $out"

# faults, through the proxy
python3 "$here/tests/remote/fault_proxy.py" "$tmp/proxy.port" "$http_port" 2>"$tmp/proxy.err" &
pids+=($!)
for _ in $(seq 50); do [ -f "$tmp/proxy.port" ] && break; sleep 0.1; done
pport=$(cat "$tmp/proxy.port" 2>/dev/null)
[ -n "$pport" ] || { fail "the fault proxy did not start: $(cat "$tmp/proxy.err")"; exit 1; }
f=alltypes_tiny_pages_plain.parquet
"$cli" cat "$data/$f" > "$tmp/local.out"
for fault in ok 503x2 429x1 drop1 trunc1 delay norange; do
  "$cli" cat "http://127.0.0.1:$pport/$fault/$f" > "$tmp/fault.out" 2>"$tmp/fault.err"; rc=$?
  if [ $rc -ne 0 ] || ! cmp -s "$tmp/local.out" "$tmp/fault.out"; then fail "fault $fault: rc $rc, $(head -c 300 "$tmp/fault.err")"; else echo "fault $fault: read ok"; fi
done
for fault in changed always503 longer; do
  "$cli" cat "http://127.0.0.1:$pport/$fault/$f" > "$tmp/fault.out" 2>"$tmp/fault.err"; rc=$?
  if [ $rc -ne 1 ]; then fail "fault $fault: rc $rc, expected 1"; fi
  grep -q "http://127.0.0.1:$pport/$fault/$f (bytes [0-9]*-[0-9]*\|http://127.0.0.1:$pport/$fault/$f (the last" "$tmp/fault.err" || fail "fault $fault: the error names no URL and range: $(cat "$tmp/fault.err")"
  echo "fault $fault: $(head -c 300 "$tmp/fault.err")"
done
grep -q "changed during the read" "$tmp/fault.err" 2>/dev/null || true
"$cli" cat "http://127.0.0.1:$pport/changed/$f" 2>&1 >/dev/null | grep -q "changed during the read" || fail "a changed object is not reported as such"
# a failing read printed no row that differs from the local read (it may print a prefix)
"$cli" cat "http://127.0.0.1:$pport/changed/$f" 2>/dev/null > "$tmp/fault.out"
if [ -s "$tmp/fault.out" ] && ! cmp -s "$tmp/fault.out" <(head -c "$(stat -c %s "$tmp/fault.out")" "$tmp/local.out"); then fail "changed object: output differs from the local read"; fi

if [ $fails -ne 0 ]; then echo "$fails failure(s)"; exit 1; fi
echo "remote http: all checks passed"
