#!/usr/bin/env bash
# s3:// reads (io/s3.c) against s3rver (npm; scripts/install-remote-test-deps.sh)
# started here on loopback behind a signature-checking proxy of our own
# (tests/remote/s3_sig_proxy.py: s3rver 3.7 checks no signature):
#   - `cat s3://bucket/key` with the endpoint from AWS_ENDPOINT_URL or
#     --s3-endpoint prints what the local read prints; every request the
#     proxy saw was signed correctly;
#   - a wrong secret or access key fails with exit 1 naming the s3 URL and
#     the server's error code, and never printing the secret;
#   - a metadata-only footer (`concat --metadata-only`) and its data files
#     (ColumnChunk.file_path, external column data) put in s3rver read as
#     s3://bkt/ext/_metadata print what the local summary prints, the data
#     files fetched through the proxy, signed; a data file missing there
#     fails naming both s3 URLs;
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
# external column data: a metadata-only footer over two data files, all in s3rver
mkdir -p "$tmp/ext/part"
cp "$data/alltypes_tiny_pages_plain.parquet" "$tmp/ext/part/a.parquet"
cp "$data/alltypes_tiny_pages_plain.parquet" "$tmp/ext/part/b c.parquet"
"$cli" concat --metadata-only -o "$tmp/ext/_metadata" "$tmp/ext/part/a.parquet" "$tmp/ext/part/b c.parquet" > "$tmp/out" 2>&1 \
  || fail "concat --metadata-only: $(cat "$tmp/out")"
python3 - "$s3port" "$tmp/ext" <<'PY' || fail "upload of the summary and its data files"
import http.client, os, sys, urllib.parse
port, d = int(sys.argv[1]), sys.argv[2]
for rel in ("_metadata", "part/a.parquet", "part/b c.parquet"):
    body = open(os.path.join(d, rel), "rb").read()
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("PUT", "/bkt/ext/" + urllib.parse.quote(rel, safe="/"), body=body, headers={"Content-Length": str(len(body))})
    r = c.getresponse(); r.read(); c.close()
    assert r.status == 200, (rel, r.status)
PY
"$cli" cat "$tmp/ext/_metadata" > "$tmp/local.out" 2>&1 || fail "local cat of the summary: $(head -3 "$tmp/local.out")"
[ "$(wc -l < "$tmp/local.out")" -gt 200 ] || fail "local cat of the summary printed too little ($(wc -l < "$tmp/local.out") lines)"
before=$(wc -l < "$tmp/proxy.port.log")
"$cli" cat "s3://bkt/ext/_metadata" > "$tmp/s3.out" 2>&1; rc=$?
if [ $rc -ne 0 ] || ! cmp -s "$tmp/local.out" "$tmp/s3.out"; then fail "s3 cat of the summary: rc $rc: $(head -c 300 "$tmp/s3.out")"
else echo "s3 summary over external data files: same as local ($(wc -l < "$tmp/s3.out") rows)"; fi
seen=$(tail -n +$((before + 1)) "$tmp/proxy.port.log")
echo "$seen" | grep -q "^ok GET /bkt/ext/part/a.parquet" || fail "no signed request for part/a.parquet: $seen"
echo "$seen" | grep -q "^ok GET /bkt/ext/part/b%20c.parquet" || fail "no signed request for 'part/b c.parquet': $seen"
echo "$seen" | grep -q '^bad' && fail "the proxy refused a request for the summary: $seen"
# the same with a projection and a predicate: the values equal the local read
"$cli" cat --columns id,string_col --where "id >= 3" "$tmp/ext/_metadata" > "$tmp/local.out" 2>&1
"$cli" cat --columns id,string_col --where "id >= 3" "s3://bkt/ext/_metadata" > "$tmp/s3.out" 2>&1
[ -s "$tmp/local.out" ] && cmp -s "$tmp/local.out" "$tmp/s3.out" || fail "s3 summary, projected and filtered: differs from local: $(head -c 300 "$tmp/s3.out")"
# a data file missing in the bucket: exit 1 naming the footer's and the data file's URLs
python3 - "$s3port" <<'PY' || fail "delete of part/a.parquet"
import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
c.request("DELETE", "/bkt/ext/part/a.parquet"); r = c.getresponse(); r.read()
assert r.status in (200, 204), r.status
PY
out=$("$cli" cat "s3://bkt/ext/_metadata" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "s3://bkt/ext/_metadata" && echo "$out" | grep -q "s3://bkt/ext/part/a.parquet" \
  || fail "a data file missing in s3: rc $rc: $out"
echo "$out" | grep -q -e "$SK" && fail "a secret in the message"
echo "s3 summary, data file missing: $out"
# listing
lister="$(dirname "$cli")/test_remote_s3_list"
if [ -x "$lister" ]; then
  env $(cat "$tmp/upload.env") PQT_TEST_S3_BUCKET=bkt "$lister" || fail "test_remote_s3_list"
else
  fail "$lister not built"
fi
if [ $fails -ne 0 ]; then echo "$fails failure(s)"; exit 1; fi
echo "remote s3: all checks passed"
