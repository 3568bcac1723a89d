#!/usr/bin/env bash
# CLI conventions: --help on every command (exit 0), usage errors (exit 2),
# data errors as "parquetry: FILE: message" (exit 1), and the outputs of the
# seed 004 fixture. Usage: CLI CORPUS_DIR
set -u
cli=$1
here=$(cd "$(dirname "$0")/../.." && pwd)
simple=$here/tests/fixtures/seed004_simple.parquet
pass=0; fail=0
check() { # name expected_rc command...
  local name=$1 want=$2; shift 2
  "$@" >/tmp/pqt_cli_out.$$ 2>/tmp/pqt_cli_err.$$
  local rc=$?
  if [ $rc -eq "$want" ]; then pass=$((pass+1)); else echo "FAIL: $name: exit $rc, want $want: $(head -c 300 /tmp/pqt_cli_err.$$)"; fail=$((fail+1)); fi
}
cmds="schema meta cat head count pages verify dictionary column-index bloom-filter stats convert rewrite salvage help version"
for c in $cmds; do check "$c --help" 0 "$cli" $c --help; done
# the overview: every command on one line of its own, nothing cut, 80 columns
"$cli" help >/tmp/pqt_cli_out.$$ 2>&1
for c in $cmds; do
  line=$(grep -E "^  $c +[^ ]" /tmp/pqt_cli_out.$$)
  if [ -n "$line" ] && [ ${#line} -le 80 ]; then pass=$((pass+1)); else echo "FAIL: help line for $c: '$line'"; fail=$((fail+1)); fi
done
check "no args" 2 "$cli"
check "unknown command" 2 "$cli" frobnicate
check "unknown option" 2 "$cli" cat --frobnicate "$simple"
check "missing file arg" 2 "$cli" schema
check "bad format" 2 "$cli" cat --format xml "$simple"
check "bad column" 2 "$cli" cat -c nope "$simple"
check "bad key" 2 "$cli" cat --footer-key short "$simple"
check "missing file" 1 "$cli" meta /nonexistent.parquet
grep -q "^parquetry: /nonexistent.parquet: " /tmp/pqt_cli_err.$$ && pass=$((pass+1)) || { echo "FAIL: error format"; fail=$((fail+1)); }
printf 'not parquet at all' > /tmp/pqt_cli_bad.$$
check "not parquet" 1 "$cli" cat /tmp/pqt_cli_bad.$$
check "cat" 0 "$cli" cat "$simple"
if [ "$(cat /tmp/pqt_cli_out.$$)" = '{"text":"text1"}
{"text":"text2"}
{"text":"text3"}
{"text":"text4"}
{"text":"text5"}' ]; then pass=$((pass+1)); else echo "FAIL: cat output"; fail=$((fail+1)); fi
check "head -n 2 csv" 0 "$cli" head -n 2 --format csv "$simple"
if [ "$(cat /tmp/pqt_cli_out.$$)" = 'text
text1
text2' ]; then pass=$((pass+1)); else echo "FAIL: csv output: $(cat /tmp/pqt_cli_out.$$)"; fail=$((fail+1)); fi
check "schema" 0 "$cli" schema "$simple"
grep -q "required binary text (STRING);" /tmp/pqt_cli_out.$$ && pass=$((pass+1)) || { echo "FAIL: schema output"; fail=$((fail+1)); }
check "meta" 0 "$cli" meta --parquet-tools "$simple"
grep -q 'text: BYTE_ARRAY UNCOMPRESSED DO:- FPO:4 SZ:73/73/1.00 VC:5 ENC:PLAIN ST:\[min: "text1", max: "text5"\]' /tmp/pqt_cli_out.$$ && pass=$((pass+1)) || { echo "FAIL: meta output: $(cat /tmp/pqt_cli_out.$$)"; fail=$((fail+1)); }
check "meta --json" 0 "$cli" meta --json "$simple"
grep -q '"created_by": "github.com/parquet-go/parquet-go version 0.23.0(build )"' /tmp/pqt_cli_out.$$ && grep -q '"codec": "UNCOMPRESSED"' /tmp/pqt_cli_out.$$ && grep -q '"logicalType": {' /tmp/pqt_cli_out.$$ && pass=$((pass+1)) || { echo "FAIL: meta --json keys"; fail=$((fail+1)); }
check "pages" 0 "$cli" pages --lines "$simple"
grep -q "rg=0 col=text page=0 type=DATA_PAGE_V2 enc=PLAIN .*compressed=45 uncompressed=45 values=5 nulls=0 rows=5.*crc=ok" /tmp/pqt_cli_out.$$ && pass=$((pass+1)) || { echo "FAIL: pages output: $(cat /tmp/pqt_cli_out.$$)"; fail=$((fail+1)); }
check "verify ok" 0 "$cli" verify "$simple"
grep -q "seed004_simple.parquet: ok (5 rows in 1 row group, 1 columns)" /tmp/pqt_cli_out.$$ && pass=$((pass+1)) || { echo "FAIL: verify output: $(cat /tmp/pqt_cli_out.$$)"; fail=$((fail+1)); }
corpus=${PARQUET_TESTING_DIR:-$2}
if [ -f "$corpus/data/datapage_v1-corrupt-checksum.parquet" ]; then
  check "verify corrupt" 1 "$cli" verify "$corpus/data/datapage_v1-corrupt-checksum.parquet"
  [ "$(grep -c 'CRC32 mismatch' /tmp/pqt_cli_out.$$)" = 2 ] && grep -q "2 problems found" /tmp/pqt_cli_err.$$ && pass=$((pass+1)) || { echo "FAIL: verify corrupt output"; fail=$((fail+1)); }
  # a column index that does not describe its pages: parquet-mr's checksum
  # test writer gave pages without statistics, so its index says both pages
  # of each column hold only nulls (null_pages true, null_counts -1) though
  # each holds 2560 values; a reader filtering with it would skip them
  check "verify column index" 1 "$cli" verify "$corpus/data/datapage_v1-uncompressed-checksum.parquet"
  [ "$(grep -c 'null_pages says only nulls, the page has 2560 values' /tmp/pqt_cli_out.$$)" = 4 ] &&
    [ "$(grep -c 'null_counts says -1 nulls, the page has 0' /tmp/pqt_cli_out.$$)" = 4 ] &&
    grep -q "8 problems found" /tmp/pqt_cli_err.$$ && pass=$((pass+1)) || { echo "FAIL: verify column index output: $(cat /tmp/pqt_cli_out.$$)"; fail=$((fail+1)); }
  # rows were lost: exit status 3 (what could be read was printed)
  check "skip-corrupt" 3 "$cli" cat --skip-corrupt "$corpus/data/datapage_v1-corrupt-checksum.parquet"
  # a's page 0 and b's page 1 fail their CRCs: each loses its 2560 rows (both columns are required)
  grep -q "skipped 2560 rows: row group 0, column a, page 0: CRC32 mismatch.*(rows 0-2559 are lost)" /tmp/pqt_cli_err.$$ &&
    grep -q "skipped 2560 rows: row group 0, column b, page 1: CRC32 mismatch.*(rows 2560-5119 are lost)" /tmp/pqt_cli_err.$$ &&
    grep -q "datapage_v1-corrupt-checksum.parquet: 5120 of 5120 rows lost$" /tmp/pqt_cli_err.$$ &&
    pass=$((pass+1)) || { echo "FAIL: skip-corrupt message: $(cat /tmp/pqt_cli_err.$$)"; fail=$((fail+1)); }
else
  echo "NOTE: corpus not found at $corpus: corrupt-file CLI checks cannot run"
  skipped=1
fi
rm -f /tmp/pqt_cli_out.$$ /tmp/pqt_cli_err.$$ /tmp/pqt_cli_bad.$$
echo "cli_usage: $pass passed, $fail failed"
[ $fail -eq 0 ] || exit 1
[ "${skipped:-0}" -eq 0 ] || exit 77 # ctest's skip code: part of it could not run
