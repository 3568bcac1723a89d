#!/usr/bin/env bash
# tools/check_layers.sh on a made-up tree: a file listed in ARCHITECTURE.md's
# public-api-only block fails the check when it includes a private header
# (thrift/, meta/, file/ ...), passes with the public headers and core/ only,
# and a listed file that does not exist fails too (a rename must not drop it).
# Args: $1 parquetry binary, $2 corpus dir (both unused).
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
mkdir -p "$tmp/src/core" "$tmp/src/thrift" "$tmp/src/inspect" "$tmp/cli" "$tmp/include"
printf '# x\n\n```layers\ncore thrift inspect\n```\n\n```public-api-only\nsrc/inspect/summary.c\n```\n' \
  >"$tmp/ARCHITECTURE.md"
printf '#include "core/core.h"\n#include "parquetry_meta.h"\n' >"$tmp/src/inspect/summary.c"
printf '#include "thrift/codec.h"\n' >"$tmp/src/inspect/verify.c"
if ! out=$(bash "$src/tools/check_layers.sh" "$tmp" 2>&1); then
  echo "FAIL: public headers and core/ only should pass: $out"; fail=1
fi
printf '#include "core/core.h"\n#include "thrift/codec.h"\n' >"$tmp/src/inspect/summary.c"
if out=$(bash "$src/tools/check_layers.sh" "$tmp" 2>&1); then
  echo "FAIL: summary.c including thrift/ passed"; fail=1
elif ! grep -q '^src/inspect/summary.c:2: the public API' <<<"$out"; then
  echo "FAIL: the message does not name summary.c line 2: $out"; fail=1
fi
rm "$tmp/src/inspect/summary.c"
if out=$(bash "$src/tools/check_layers.sh" "$tmp" 2>&1) || ! grep -q 'summary.c.*does not exist' <<<"$out"; then
  echo "FAIL: a listed file that is gone is not reported: $out"; fail=1
fi
# the real tree passes
if ! out=$(bash "$src/tools/check_layers.sh" "$src" 2>&1); then echo "FAIL: the tree: $out"; fail=1; fi
[ $fail -eq 0 ] && echo "check_layers public-api-only: ok"
exit $fail
