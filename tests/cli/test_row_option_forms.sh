#!/usr/bin/env bash
# The row options (cli/row_options.c) go through opt.c's one parser: every
# form it takes works for them in every command that has them (`--x V`,
# `--x=V`, `-c V`, `-cV`, `-n5`), and the errors are its errors: a missing
# value, a value given to a flag, a bad count, "did you mean". Usage: CLI CORPUS_DIR
set -u
cli=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-optforms.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
printf 'id,name\n' > "$tmp/t.csv"
for i in 0 1 2 3 4 5 6 7 8 9; do printf '%d,n%d\n' "$i" "$i" >> "$tmp/t.csv"; done
"$cli" convert --schema 'message m { required int64 id; optional binary name (STRING); }' "$tmp/t.csv" "$tmp/t.parquet" || bad convert
f=$tmp/t.parquet
want='{"id":3}|{"id":4}|'
for args in "-c id --rows 3-5" "-cid --rows=3-5" "--columns=id --offset=3 -n2" "--columns id --offset 3 -n 2" \
            "-c id --offset 3 --limit=2" "-cid --where=id>=3 -n2" "-c id --where id>=3 --limit 2"; do
  # shellcheck disable=SC2086
  got=$("$cli" cat $args "$f" 2>&1 | tr '\n' '|')
  [ "$got" = "$want" ] && ok || bad "cat $args: '$got'"
done
[ "$("$cli" count --rows=2-7 "$f")" = 5 ] && ok || bad "count --rows=2-7"
[ "$("$cli" tail -n2 -cid --format=csv "$f" | tr '\n' '|')" = 'id|8|9|' ] && ok || bad "tail -n2 -cid --format=csv"
[ "$("$cli" head -n1 --stats "$f" 2>/dev/null)" = '{"id":0,"name":"n0"}' ] && ok || bad "head --stats"
# errors: exit 2, the parser's messages
err() { # expected-text args...
  local want=$1; shift
  "$cli" "$@" >/dev/null 2>"$tmp/e"; local rc=$?
  [ $rc = 2 ] && grep -qF -- "$want" "$tmp/e" && ok || bad "$*: exit $rc, '$(cat "$tmp/e")' (want '$want')"
}
err "option '--rows' needs a value" cat "$f" --rows
err "option '-c' needs a value" cat "$f" -c
err "not a row count: 'x'" cat --offset=x "$f"
err "not a row count: '-3'" head -n -3 "$f"
err "bad --rows '5-2'" cat --rows=5-2 "$f"
err "did you mean '--columns'?" cat --colums=id "$f"
err "did you mean '--where'?" cat --wher "id=1" "$f"
err "unknown or incomplete option '--rows'" sample -n 2 --rows 1-2 "$f"
echo "row option forms: $pass passed, $fail failed"
[ $fail = 0 ]
