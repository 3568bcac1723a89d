#!/usr/bin/env bash
# `make install` works for another C program: install the build into a
# temporary prefix, then compile and run the README's API example against it
# with pkg-config. Usage: CLI CORPUS_DIR (the build dir is the CLI's folder).
set -u
build=$(cd "$(dirname "$1")" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
if cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then pass=$((pass+1)); else echo "FAIL: install: $(tail -5 "$tmp/install.log")"; fail=$((fail+1)); fi
for f in include/parquetry.h include/parquetry_arrow.h lib/libparquetry.a; do
  if [ -e "$tmp/prefix/$f" ]; then pass=$((pass+1)); else echo "FAIL: $f not installed"; fail=$((fail+1)); fi
done
pc=$(find "$tmp/prefix" -name parquetry.pc | head -1)
[ -n "$pc" ] && pass=$((pass+1)) || { echo "FAIL: parquetry.pc not installed"; fail=$((fail+1)); }
# the README's example, extracted from README.md so the two cannot drift apart
# (a whole program: it reads the file named by its argument; the fixture
# has other columns than the example's)
awk '/^```c$/{n++; if (n==1) {on=1; next}} /^```$/{on=0} on' "$here/README.md" |
  sed "s|{\"id\", \"address.city\"}|{\"nest.nest\", \"nest.repeated\"}|" > "$tmp/example.c"
# the test build carries sanitizers: link the example the same way
san=""
grep -q "PQT_SANITIZE:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null && san="-fsanitize=address,undefined"
export PKG_CONFIG_PATH="$(dirname "$pc")"
if cc -std=c11 -Wall -Werror $san "$tmp/example.c" -o "$tmp/example" $(pkg-config --cflags --libs --static parquetry) -Wl,-rpath,"$tmp/prefix/lib" >"$tmp/cc.log" 2>&1; then
  pass=$((pass+1))
  out=$("$tmp/example" "$here/tests/fixtures/seed004_nested.parquet" 2>&1)
  if [ $? -eq 0 ] && echo "$out" | grep -Eq '^[1-9][0-9]* rows$'; then pass=$((pass+1)); else echo "FAIL: example output: $out"; fail=$((fail+1)); fi
else
  echo "FAIL: compiling the README example: $(head -20 "$tmp/cc.log")"; fail=$((fail+1))
fi
echo "install: $pass passed, $fail failed"
[ $fail -eq 0 ]
