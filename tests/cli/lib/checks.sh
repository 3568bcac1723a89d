# tests/cli/lib/checks.sh: the check helpers of the CLI tests that count
# passes and failures (sourced; a folder below tests/cli/, so CMake's
# tests/cli/*.sh glob does not run it as a test). The test sets `cli` (the
# parquetry binary) and `tmp` (its temporary folder) and starts with
# pass=0 fail=0; every helper adds one to pass (ok) or prints FAIL and adds
# one to fail (bad).
#
#   run NAME EXPECTED_RC ARGS...   "$cli" ARGS: output in $tmp/out and
#                                  $tmp/err; the exit status must be
#                                  EXPECTED_RC and stderr free of sanitizer
#                                  reports (returns 1 when not)
#   json NAME PYTHON_EXPR          true with d = $tmp/out parsed as JSON
#   has NAME TEXT / has_err NAME TEXT   $tmp/out / $tmp/err holds TEXT
#   same NAME FILE1 FILE2          the two files are byte for byte equal
#   width NAME                     no line of $tmp/out is over 80 columns
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
run() {
  local name=$1 want=$2; shift 2
  "$cli" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne "$want" ]; then bad "$name: exit $rc, wanted $want: $(head -c 300 "$tmp/err")"; return 1; fi
  if grep -q "runtime error\|AddressSanitizer\|LeakSanitizer" "$tmp/err"; then bad "$name: sanitizer output"; return 1; fi
  ok
}
json() {
  if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$tmp/out" 2>"$tmp/pyerr"; then ok
  else bad "$1: JSON check failed: $2 $(head -c 300 "$tmp/pyerr") output: $(head -c 300 "$tmp/out")"; fi
}
has() { if grep -qF -- "$2" "$tmp/out"; then ok; else bad "$1: no line with '$2' in: $(head -c 400 "$tmp/out")"; fi; }
has_err() { if grep -qF -- "$2" "$tmp/err"; then ok; else bad "$1: stderr lacks '$2': $(head -c 300 "$tmp/err")"; fi; }
same() { if cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ: $(diff "$2" "$3" | head -5)"; fi; }
width() {
  local w; w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/out")
  if [ "$w" -le 80 ]; then ok; else bad "$1: a line of $w columns"; fi
}
