#!/usr/bin/env bash
# The progress bar (cli/progress.c): on stderr, only when stderr is a
# terminal (a pty from script(1) here) and the work has run longer than the
# delay (1 s; PARQUETRY_PROGRESS_DELAY_MS=0 shows it at once for this test);
# it counts the rows written with separators against the rows expected
# ("[===  ]  40%  40,000 of 100,000 rows"), or the count alone when a
# predicate makes the total unknown; it is wiped at the end and never
# changes stdout (cat, head, tail, export, sample, diff, verify, pages,
# concat, prune and reads of several files here). Skips (77) without script(1). Usage: CLI CORPUS_DIR
set -u
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
command -v script >/dev/null || { echo "SKIP: script(1) not found"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-progress.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
awk 'BEGIN { print "id,name"; for (i = 0; i < 100000; i++) printf "%d,n%d\n", i, i % 97 }' > "$tmp/t.csv"
"$cli" convert --row-group-size 20000 --schema 'message m { required int64 id; optional binary name (STRING); }' \
  "$tmp/t.csv" "$tmp/t.parquet" || bad convert
"$cli" cat "$tmp/t.parquet" > "$tmp/plain.jsonl"
# on a terminal: CMD's stdout to a file, its stderr (the bar) to the pty
on_tty() { # delay-ms out-file args...
  local d=$1 out=$2; shift 2
  local q=""; for a in "$@"; do q="$q '$a'"; done
  PARQUETRY_PROGRESS_DELAY_MS=$d script -qec "'$cli'$q > '$out'" /dev/null > "$tmp/tty.raw"
  tr '\r' '\n' < "$tmp/tty.raw" > "$tmp/tty.txt"
}
on_tty 0 "$tmp/out.jsonl" cat "$tmp/t.parquet"
grep -qE '^\[=* *\] +[0-9]+%  [0-9,]+ of 100,000 rows' "$tmp/tty.txt" && ok || bad "cat: no bar: $(head -c 300 "$tmp/tty.txt")"
cmp -s "$tmp/out.jsonl" "$tmp/plain.jsonl" && ok || bad "cat: stdout changed by the bar"
# the last thing written is the wipe: spaces only
[ "$(tail -c 81 "$tmp/tty.raw")" = "$(printf '\r%79s\r' '')" ] && ok ||
  bad "cat: the bar is not wiped at the end: $(tail -c 81 "$tmp/tty.raw" | od -c | head -3)"
on_tty 0 "$tmp/out.jsonl" head -n 60000 "$tmp/t.parquet"
grep -qE 'of 60,000 rows' "$tmp/tty.txt" && ok || bad "head -n 60000: $(head -c 300 "$tmp/tty.txt")"
on_tty 0 "$tmp/out.jsonl" tail -n 70000 "$tmp/t.parquet"
grep -qE 'of 70,000 rows' "$tmp/tty.txt" && ok || bad "tail -n 70000: $(head -c 300 "$tmp/tty.txt")"
[ "$(wc -l < "$tmp/out.jsonl")" = 70000 ] && ok || bad "tail -n 70000: $(wc -l < "$tmp/out.jsonl") lines"
on_tty 0 "$tmp/out.jsonl" cat --where "id >= 10" "$tmp/t.parquet"
grep -qE '^[0-9,]+ rows *$' "$tmp/tty.txt" && ok || bad "cat --where: no count: $(head -c 300 "$tmp/tty.txt")"
# export (text and parquet), sample and diff show it too; their output is unchanged
on_tty 0 "$tmp/out.txt" export --format jsonl -o "$tmp/e.jsonl" "$tmp/t.parquet"
grep -qE 'of 100,000 rows' "$tmp/tty.txt" && ok || bad "export jsonl: no bar: $(head -c 300 "$tmp/tty.txt")"
cmp -s "$tmp/e.jsonl" "$tmp/plain.jsonl" && ok || bad "export jsonl: output changed by the bar"
on_tty 0 "$tmp/out.txt" export --format parquet -o "$tmp/e.parquet" "$tmp/t.parquet"
grep -qE 'of 100,000 rows' "$tmp/tty.txt" && ok || bad "export parquet: no bar: $(head -c 300 "$tmp/tty.txt")"
"$cli" cat "$tmp/e.parquet" | cmp -s - "$tmp/plain.jsonl" && ok || bad "export parquet: rows changed"
on_tty 0 "$tmp/out.jsonl" sample -n 5 --seed 1 "$tmp/t.parquet"
grep -qE '[0-9,]+ (of [0-9,]+ )?rows' "$tmp/tty.txt" && ok || bad "sample: no bar: $(head -c 300 "$tmp/tty.txt")"
"$cli" sample -n 5 --seed 1 "$tmp/t.parquet" | cmp -s - "$tmp/out.jsonl" && ok || bad "sample: output changed by the bar"
on_tty 0 "$tmp/out.txt" diff --no-metadata "$tmp/t.parquet" "$tmp/e.parquet"
grep -qE 'of 100,000 rows' "$tmp/tty.txt" && ok || bad "diff: no bar: $(head -c 300 "$tmp/tty.txt")"
grep -q "are equal (100000 rows)" "$tmp/out.txt" && ok || bad "diff: $(cat "$tmp/out.txt")"
on_tty 0 "$tmp/out.txt" verify "$tmp/t.parquet"
grep -qE 'of 10 column chunks' "$tmp/tty.txt" && ok || bad "verify: no bar: $(head -c 300 "$tmp/tty.txt")"
grep -q ": ok (100,000 rows" "$tmp/out.txt" && ok || bad "verify: $(cat "$tmp/out.txt")"
# pages (by column chunks), concat and prune (by row groups copied), and a
# dataset of several files (by the rows of them all)
on_tty 0 "$tmp/out.txt" pages "$tmp/t.parquet"
grep -qE 'of 10 column chunks' "$tmp/tty.txt" && ok || bad "pages: no bar: $(head -c 300 "$tmp/tty.txt")"
"$cli" pages "$tmp/t.parquet" | cmp -s - "$tmp/out.txt" && ok || bad "pages: output changed by the bar"
on_tty 0 "$tmp/out.txt" concat -o "$tmp/cc.parquet" "$tmp/t.parquet" "$tmp/e.parquet"
grep -qE '[0-9]+ of [0-9]+ row groups' "$tmp/tty.txt" && ok || bad "concat: no bar: $(head -c 300 "$tmp/tty.txt")"
[ "$("$cli" count "$tmp/cc.parquet")" = 200000 ] && ok || bad "concat under the bar: $("$cli" count "$tmp/cc.parquet")"
on_tty 0 "$tmp/out.txt" prune -c name -o "$tmp/pr.parquet" "$tmp/t.parquet"
grep -qE 'of 5 row groups' "$tmp/tty.txt" && ok || bad "prune: no bar: $(head -c 300 "$tmp/tty.txt")"
mkdir -p "$tmp/ds" && cp "$tmp/t.parquet" "$tmp/ds/1.parquet" && cp "$tmp/t.parquet" "$tmp/ds/2.parquet"
on_tty 0 "$tmp/out.jsonl" cat "$tmp/ds"
grep -qE 'of 200,000 rows' "$tmp/tty.txt" && ok || bad "cat of a dataset: no bar: $(head -c 300 "$tmp/tty.txt")"
cat "$tmp/plain.jsonl" "$tmp/plain.jsonl" | cmp -s - "$tmp/out.jsonl" && ok || bad "cat of a dataset: output changed"
on_tty 0 "$tmp/out.jsonl" tail -n 150000 "$tmp/ds/1.parquet" "$tmp/ds/2.parquet"
grep -qE 'of 200,000 rows' "$tmp/tty.txt" && ok || bad "tail of two files: no bar: $(head -c 300 "$tmp/tty.txt")"
on_tty 0 "$tmp/out.txt" export -o "$tmp/ds.csv" "$tmp/ds/*.parquet"
grep -qE 'of 200,000 rows' "$tmp/tty.txt" && ok || bad "export of a glob: no bar: $(head -c 300 "$tmp/tty.txt")"
# the default delay: a short run shows nothing
on_tty 1000 "$tmp/out.jsonl" head -n 3 "$tmp/t.parquet"
grep -q 'rows' "$tmp/tty.txt" && bad "head -n 3 under a second shows a bar" || ok
# not a terminal: nothing on stderr
PARQUETRY_PROGRESS_DELAY_MS=0 "$cli" cat "$tmp/t.parquet" 2>"$tmp/err" >/dev/null
[ ! -s "$tmp/err" ] && ok || bad "a bar on a stderr that is not a terminal: $(head -c 200 "$tmp/err")"
echo "progress: $pass passed, $fail failed"
[ $fail = 0 ]
