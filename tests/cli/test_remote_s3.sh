#!/usr/bin/env bash
# s3:// reads (io/s3.c) against s3rver (npm; scripts/install-remote-test-deps.sh)
# started here on loopback behind a signature-checking proxy of our own
# (tests/remote/s3_sig_proxy.py: s3rver 3.7 checks no signature):
#   - `cat s3://bucket/key` with the endpoint from AWS_ENDPOINT_URL or
#     --s3-endpoint prints what the local read prints; every request the
#     proxy saw was signed correctly;
#   - a wrong secret or access key fails with exit 1 naming the s3 URL and
#     the server's error code, and never printing the secret;
#   - pqt_s3_list over a prefix and over more than 1000 keys (pages), by
#     test_remote_s3_list next to the CLI.
# Without node, the s3rver package or python3 it says so and exits 77.
# Usage: CLI CORPUS_DIR
set -u
cli=$1; corpus=$2
data="$corpus/data"
# shellcheck source=lib/s3rver.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/s3rver.sh"
s3rver_init "$corpus" s3
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
s3rver_start bkt
# upload straight to s3rver (it takes unsigned PUTs): a small partitioned dataset and 1005 tiny keys
python3 - "$s3port" "$data" <<'PY' > "$tmp/upload.env" || { echo "FAIL: upload"; exit 1; }
import http.client, os, sys, urllib.parse
port, data = int(sys.argv[1]), sys.argv[2]
def put(key, body):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("PUT", "/bkt/" + urllib.parse.quote(key, safe="/"), body=body, headers={"Content-Length": str(len(body))})
    r = c.getresponse(); r.read(); c.close()
    assert r.status == 200, (key, r.status)
files = {"data/year=2023/part-0.parquet": "alltypes_plain.parquet",
         "data/year=2024/part 0.parquet": "alltypes_tiny_pages_plain.parquet",
         "data/year=2024/part-1.parquet": "nested_lists.snappy.parquet"}
total = 0
for k, f in files.items():
    b = open(os.path.join(data, f), "rb").read(); total += len(b); put(k, b)
for i in range(1005):
    put("many/k%05d" % i, b"x")
print("PQT_TEST_S3_DATA_KEYS=%d PQT_TEST_S3_DATA_BYTES=%d PQT_TEST_S3_MANY_KEYS=1005" % (len(files), total))
PY
s3rver_env
for pair in "data/year=2023/part-0.parquet alltypes_plain.parquet" "data/year=2024/part 0.parquet alltypes_tiny_pages_plain.parquet" "data/year=2024/part-1.parquet nested_lists.snappy.parquet"; do
  key=${pair% *}; f=${pair##* }
  "$cli" cat "$data/$f" > "$tmp/local.out" 2>&1
  "$cli" cat "s3://bkt/$key" > "$tmp/s3.out" 2>&1; rc=$?
  if [ $rc -ne 0 ] || ! cmp -s "$tmp/local.out" "$tmp/s3.out"; then fail "s3 cat $key: rc $rc: $(head -c 300 "$tmp/s3.out")"; else echo "s3 cat $key: same as local"; fi
done
# the endpoint as an option instead of the environment
AWS_ENDPOINT_URL= "$cli" cat --s3-endpoint "http://127.0.0.1:$pport" --s3-path-style --s3-region us-east-1 "s3://bkt/data/year=2023/part-0.parquet" > "$tmp/s3.out" 2>&1 || fail "--s3-endpoint: $(head -c 300 "$tmp/s3.out")"
"$cli" cat "$data/alltypes_plain.parquet" | cmp -s - "$tmp/s3.out" || fail "--s3-endpoint read differs"
grep -q '^bad' "$tmp/proxy.port.log" && fail "the proxy refused a request parquetry signed: $(grep '^bad' "$tmp/proxy.port.log" | head -3)"
echo "requests through the proxy: $(wc -l < "$tmp/proxy.port.log"), all correctly signed"
# wrong credentials: a clear error naming the URL, never the secret
out=$(AWS_SECRET_ACCESS_KEY='WRONGsecretVALUE123' "$cli" cat "s3://bkt/data/year=2023/part-0.parquet" 2>&1); rc=$?
echo "wrong secret: $out"
[ $rc -eq 1 ] || fail "wrong secret: rc $rc"
echo "$out" | grep -q "s3://bkt/data/year=2023/part-0.parquet" || fail "wrong secret: the message names no s3 URL"
echo "$out" | grep -q "SignatureDoesNotMatch" || fail "wrong secret: no server error code"
echo "$out" | grep -q -e WRONGsecretVALUE123 -e "$SK" && fail "a secret in the message"
out=$(AWS_ACCESS_KEY_ID=AKIDWRONG "$cli" cat "s3://bkt/data/year=2023/part-0.parquet" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q InvalidAccessKeyId || fail "wrong access key: rc $rc: $out"
out=$("$cli" cat "s3://bkt/data/absent.parquet" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "not found (HTTP 404" || fail "absent key: rc $rc: $out"
# listing
lister="$(dirname "$cli")/test_remote_s3_list"
if [ -x "$lister" ]; then
  env $(cat "$tmp/upload.env") PQT_TEST_S3_BUCKET=bkt "$lister" || fail "test_remote_s3_list"
else
  fail "$lister not built"
fi
if [ $fails -ne 0 ]; then echo "$fails failure(s)"; exit 1; fi
echo "remote s3: all checks passed"
