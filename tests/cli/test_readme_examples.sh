#!/usr/bin/env bash
# Every ```c block of README.md and docs/*.md (but the generated API
# reference, docs/api.md, whose blocks are header excerpts), as it stands, compiles (-Wall -Wextra
# -Werror, against the build tree: include/ and libparquetry.a next to the
# CLI) and runs: the writer example writes a file, the stream and column
# reader examples read it back, the salvage example recovers it with its
# footer cut off; the reader examples also meet a file made by `parquetry
# convert` (the stream example then fails on its missing column, saying so).
# Usage: CLI CORPUS_DIR (the corpus is not used).
set -u
cli=$1
build=$(cd "$(dirname "$cli")" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
lib=$build/libparquetry.a
if [ ! -f "$lib" ]; then echo "SKIP: no $lib (the static library is built next to the CLI)"; exit 77; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

# the libraries parquetry links with, from the build's pkg-config file
libs="-lm -lpthread"
if [ -f "$build/parquetry.pc" ]; then
  req=$(sed -n 's/^Requires.private://p' "$build/parquetry.pc")
  # (its own archive and the --as-needed state around it are left out: $lib is the archive)
  priv=$(sed -n 's/^Libs.private://p' "$build/parquetry.pc" | tr ' ' '\n' | grep -v -e '^-l:libparquetry' -e '^-Wl,' | tr '\n' ' ')
  libs="$(pkg-config --libs $req 2>/dev/null) $priv $libs"
else
  libs="-lzstd -llz4 -lbrotlienc -lbrotlidec -ldeflate -lxxhash -lcrypto -lsnappy $libs"
fi
san=""
grep -q "PQT_SANITIZE:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null && san="-fsanitize=address,undefined"
# a gcov build (make coverage) needs the gcov runtime in each example too
grep -q "^CMAKE_C_FLAGS:STRING=.*--coverage" "$build/CMakeCache.txt" 2>/dev/null && san="$san --coverage"

# one file per block, numbered in README order
awk -v dir="$tmp" '/^```c$/{n++; on=1; f=sprintf("%s/block%d.c", dir, n); next} /^```$/{on=0} on{print > f}' \
  "$here/README.md" $(ls "$here"/docs/*.md 2>/dev/null | grep -v '/api\.md$')
n_blocks=$(ls "$tmp"/block*.c 2>/dev/null | wc -l)
[ "$n_blocks" -ge 4 ] && ok || bad "expected at least 4 C blocks in README.md, found $n_blocks"

writer= reader= columns= salvage= stats=
for f in "$tmp"/block*.c; do
  b=${f%.c}
  if cc -std=c11 -Wall -Wextra -Werror $san -I"$here/include" "$f" -o "$b" "$lib" $libs >"$b.log" 2>&1; then
    ok
  else
    bad "$(basename "$f") does not compile: $(head -20 "$b.log")"
    continue
  fi
  if grep -q pqt_salvage "$f"; then salvage=$b
  elif grep -q pqt_writer_write_column "$f"; then writer=$b
  elif grep -q pqt_reader_get_stream "$f"; then reader=$b
  elif grep -q pqt_column_reader_open "$f"; then columns=$b
  elif grep -q pqt_reader_chunk_statistics "$f"; then stats=$b
  else bad "$(basename "$f"): an example this script does not know how to run (add it here)"
  fi
done
for v in writer reader columns salvage stats; do [ -n "${!v}" ] && ok || bad "no runnable $v example in README.md"; done

expected='{"id":1,"address":{"city":"Oslo"}}
{"id":2,"address":null}
{"id":3,"address":{"city":null}}'
check() { # name expected-output command...
  local name=$1 want=$2; shift 2
  local got rc
  got=$("$@" 2>"$tmp/err"); rc=$?
  if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then ok; else bad "$name: exit $rc, output '$got' (want '$want'), stderr: $(head -5 "$tmp/err")"; fi
}

if [ -n "$writer" ]; then
  check "writer example" "wrote $tmp/data.parquet" "$writer" "$tmp/data.parquet"
  check "the written file" "$expected" "$cli" cat "$tmp/data.parquet"
  [ -n "$reader" ] && check "stream example" "3 rows" "$reader" "$tmp/data.parquet"
  [ -n "$columns" ] && check "column reader example" "3 levels, 1 values" "$columns" "$tmp/data.parquet"
  [ -n "$stats" ] && check "statistics example (ids 1..3 < 1000)" "row group 0: skip" "$stats" "$tmp/data.parquet"
  if [ -n "$salvage" ] && [ -f "$tmp/data.parquet" ]; then
    size=$(wc -c <"$tmp/data.parquet")
    head -c $((size - 20)) "$tmp/data.parquet" >"$tmp/damaged.parquet" # the footer cut short
    if "$cli" cat "$tmp/damaged.parquet" >/dev/null 2>&1; then bad "the damaged file still reads"; else ok; fi
    check "salvage example" "3 rows recovered" "$salvage" "$tmp/damaged.parquet" "$tmp/recovered.parquet"
    check "the recovered file" "$expected" "$cli" cat "$tmp/recovered.parquet"
  fi
fi

# a file made by convert: the column reader reads its column 1; the stream
# example fails (no address.city), naming the column, with status 1
printf 'id,name\n1,a\n2,\n3,c\n' >"$tmp/small.csv"
if "$cli" convert "$tmp/small.csv" "$tmp/small.parquet" >"$tmp/conv.log" 2>&1; then
  ok
  [ -n "$columns" ] && check "column reader example on a converted CSV" "3 levels, 2 values" "$columns" "$tmp/small.parquet"
  printf 'id\n5\n5000\n' >"$tmp/big.csv"
  if "$cli" convert "$tmp/big.csv" "$tmp/big.parquet" >/dev/null 2>&1; then
    [ -n "$stats" ] && check "statistics example (an id of 5000)" "row group 0: read" "$stats" "$tmp/big.parquet"
  else bad "convert big.csv"; fi
  if [ -n "$reader" ]; then
    "$reader" "$tmp/small.parquet" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ $rc -eq 1 ] && grep -q "address" "$tmp/err" && [ ! -s "$tmp/out" ]; then ok
    else bad "stream example on a file without address.city: exit $rc, stderr: $(cat "$tmp/err")"; fi
  fi
else
  bad "convert: $(cat "$tmp/conv.log")"
fi
# a file that is not there: status 1 and a message, from every reader example
for b in "$reader" "$columns" "$stats"; do
  [ -n "$b" ] || continue
  "$b" "$tmp/missing.parquet" >/dev/null 2>"$tmp/err"; rc=$?
  if [ $rc -eq 1 ] && grep -q "missing.parquet" "$tmp/err"; then ok; else bad "$(basename "$b") on a missing file: exit $rc"; fi
done

echo "readme_examples: $pass passed, $fail failed"
[ $fail -eq 0 ]
