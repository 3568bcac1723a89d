#!/usr/bin/env bash
# A Hive-partitioned dataset under an s3:// prefix (pqt_dataset_fs_remote:
# ListObjectsV2 lists, pqt_io_open_url opens) against s3rver on loopback
# behind the signature-checking proxy (as test_remote_s3.sh):
#   - meta lists every file under the prefix;
#   - cat, cat --where on the partition column and on a file column, count
#     and count --where print what the same files read locally print.
# Without node, the s3rver package or python3 it says so and exits 77.
# Usage: CLI CORPUS_DIR
set -u
cli=$1; corpus=$2
data="$corpus/data"
# shellcheck source=lib/s3rver.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/s3rver.sh"
s3rver_init "$corpus" dss3
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
s3rver_start bkt
# the same dataset locally and in the bucket under ds/ (plus a key that only starts with the prefix)
local="$tmp/local/ds"
mkdir -p "$local/year=2023" "$local/year=2024"
cp "$data/alltypes_plain.parquet" "$local/year=2023/part-0.parquet"
cp "$data/alltypes_plain.parquet" "$local/year=2024/part-0.parquet"
cp "$data/alltypes_dictionary.parquet" "$local/year=2024/part-1.parquet"
python3 - "$s3port" "$local" <<'PY' || { echo "FAIL: upload"; exit 1; }
import http.client, os, sys, urllib.parse
port, root = int(sys.argv[1]), sys.argv[2]
def put(key, body):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("PUT", "/bkt/" + urllib.parse.quote(key, safe="/"), body=body, headers={"Content-Length": str(len(body))})
    r = c.getresponse(); r.read(); c.close()
    assert r.status == 200, (key, r.status)
for d, _, fs in os.walk(root):
    for f in fs:
        p = os.path.join(d, f)
        put("ds/" + os.path.relpath(p, root), open(p, "rb").read())
put("dsx/not-in-the-dataset.parquet", b"PAR1")
PY
s3rver_env
same() { # name, then the command's arguments with DS standing for the dataset
  local name=$1; shift
  local la=() ra=()
  for a in "$@"; do
    if [ "$a" = DS ]; then la+=("$local"); ra+=("s3://bkt/ds/"); else la+=("$a"); ra+=("$a"); fi
  done
  "$cli" "${la[@]}" > "$tmp/l.out" 2>&1; local lrc=$?
  "$cli" "${ra[@]}" > "$tmp/r.out" 2>&1; local rrc=$?
  if [ $lrc -ne 0 ] || [ $rrc -ne 0 ] || ! cmp -s "$tmp/l.out" "$tmp/r.out"; then
    fail "$name: local rc $lrc, s3 rc $rrc: $(diff "$tmp/l.out" "$tmp/r.out" | head -5)"
  else
    echo "$name: same as local ($(wc -l < "$tmp/r.out") lines)"
  fi
}
same "cat" cat DS
same "cat --where year" cat --where 'year = 2024' DS
same "cat --where id" cat --where 'id >= 4' DS
same "count" count DS
same "count --where" count --where 'year = 2023 or id < 2' DS
n=$("$cli" count s3://bkt/ds/ 2>&1)
[ "$n" = 18 ] || fail "count over s3: '$n', want 18 (8 + 8 + 2 rows)"
n=$("$cli" count --where 'year = 2024' s3://bkt/ds/ 2>&1)
[ "$n" = 10 ] || fail "count --where year = 2024 over s3: '$n', want 10"
# a glob under the prefix
n=$("$cli" count 's3://bkt/ds/year=2024/*.parquet' 2>&1)
[ "$n" = 10 ] || fail "count over an s3 glob: '$n', want 10"
# meta lists the three files, and nothing of dsx/
out=$("$cli" meta s3://bkt/ds/ 2>&1); rc=$?
[ $rc -eq 0 ] || fail "meta over s3: rc $rc: $(echo "$out" | head -3)"
for k in "ds/year=2023/part-0.parquet" "ds/year=2024/part-0.parquet" "ds/year=2024/part-1.parquet"; do
  echo "$out" | grep -qF "s3://bkt/$k" || fail "meta does not name s3://bkt/$k"
done
echo "$out" | grep -q dsx && fail "meta listed a key outside the prefix directory"
# an empty prefix: a clear error naming it
out=$("$cli" cat s3://bkt/nothing-here/ 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "s3://bkt/nothing-here" || fail "empty prefix: rc $rc: $out"
grep -q '^bad' "$tmp/proxy.port.log" && fail "the proxy refused a request: $(grep '^bad' "$tmp/proxy.port.log" | head -3)"
if [ $fails -ne 0 ]; then echo "$fails failure(s)"; exit 1; fi
echo "dataset over s3: all checks passed"
