#!/usr/bin/env bash
# --int96-unit (ns, us, ms, s): accepted by the reading commands, a bad unit
# is a usage error (exit 2) naming the choices, and the text output and a
# rewrite (INT96 travels as its stored bytes) print Spark's extreme dates
# whatever the unit: 9999-12-31 and 290000-12-30, never wrapped to 1816.
# Usage: CLI CORPUS_DIR
set -u
cli=$1
corpus=${2:-}
f=$corpus/data/int96_from_spark.parquet
if [ ! -f "$f" ]; then
  echo "corpus file $f not found (parquet-testing): skipping"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
"$cli" cat "$f" >"$tmp/base" 2>"$tmp/err" || bad "cat: $(cat "$tmp/err")"
grep -q '"9999-12-31T03:00:00.000000000"' "$tmp/base" || bad "cat lost 9999-12-31: $(cat "$tmp/base")"
grep -q '"290000-12-30T23:00:00.000000000"' "$tmp/base" || bad "cat lost 290000-12-30"
if grep -q '18[01][0-9]-' "$tmp/base"; then bad "a wrapped date: $(cat "$tmp/base")"; fi
for u in ns us ms s; do
  "$cli" cat --int96-unit "$u" "$f" >"$tmp/out" 2>"$tmp/err" || bad "cat --int96-unit $u: $(cat "$tmp/err")"
  cmp -s "$tmp/base" "$tmp/out" || bad "cat --int96-unit $u differs"
done
"$cli" cat --int96-unit xs "$f" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || bad "bad unit: exit $rc, want 2"
grep -q "bad --int96-unit 'xs' (ns, us, ms or s)" "$tmp/err" || bad "bad unit message: $(cat "$tmp/err")"
"$cli" cat --int96-unit >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] || bad "missing unit: not a usage error"
"$cli" cat --help 2>&1 | grep -q -- "--int96-unit U" || bad "--int96-unit not in cat --help"
"$cli" rewrite --int96-unit us "$f" "$tmp/r.parquet" >"$tmp/out" 2>"$tmp/err" || bad "rewrite: $(cat "$tmp/err")"
"$cli" cat "$tmp/r.parquet" >"$tmp/rw" 2>"$tmp/err" || bad "cat rewritten: $(cat "$tmp/err")"
cmp -s "$tmp/base" "$tmp/rw" || bad "rewrite changed the INT96 values"
[ $fail -eq 0 ] || exit 1
echo "int96-unit: ok"
