#!/usr/bin/env bash
# Several FILEs, directories and globs on the reading commands that took one
# file until now (cli/row_options.c row_command_args, cli/dataset_input.c):
# tail, sample and export read them as one table as cat does, and their rows
# are compared with cat's over the same inputs and with the single files';
# verify, pages, stats, column-index and dictionary take each file in turn
# under a header naming it. One bad file among several: an error naming it,
# exit status 1, and no output file left by export. diff keeps exactly two.
# Usage: CLI CORPUS_DIR (the corpus is not used).
set -u
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-multi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
expect() { # NAME WANT GOT
  if [ "$2" != "$3" ]; then bad "$1: wanted [$2], got [$3]"; fi
}
d=$tmp/data
mkdir -p "$d/part=1" "$d/part=2"
awk 'BEGIN { print "id,name"; for (i = 0; i < 50; i++) printf "%d,n%d\n", i, i % 7 }' >"$tmp/a.csv"
awk 'BEGIN { print "id,name"; for (i = 50; i < 80; i++) printf "%d,n%d\n", i, i % 7 }' >"$tmp/b.csv"
awk 'BEGIN { print "id,name"; for (i = 80; i < 125; i++) printf "%d,n%d\n", i, i % 7 }' >"$tmp/c.csv"
schema='message m { required int64 id; optional binary name (STRING); }'
"$cli" convert --row-group-size 16 --schema "$schema" "$tmp/a.csv" "$d/part=1/a.parquet" >/dev/null || bad "convert a"
"$cli" convert --row-group-size 16 --schema "$schema" "$tmp/b.csv" "$d/part=1/b.parquet" >/dev/null || bad "convert b"
"$cli" convert --row-group-size 16 --schema "$schema" "$tmp/c.csv" "$d/part=2/c.parquet" >/dev/null || bad "convert c"
a=$d/part=1/a.parquet b=$d/part=1/b.parquet c=$d/part=2/c.parquet
touch "$d/_SUCCESS"

# the whole table as cat prints it: what tail, sample and export are held to
"$cli" cat "$d" >"$tmp/all.jsonl" || bad "cat dir"
expect "cat dir rows" 125 "$(wc -l <"$tmp/all.jsonl" | tr -d ' ')"
"$cli" cat "$a" "$b" >"$tmp/ab.jsonl" || bad "cat a b"

# ---- tail: the last N rows of the whole ----
expect "tail dir" "$(tail -n 7 "$tmp/all.jsonl")" "$("$cli" tail -n 7 "$d")"
expect "tail glob" "$(tail -n 60 "$tmp/all.jsonl")" "$("$cli" tail -n 60 "$d/*/*.parquet")"
expect "tail files" "$(tail -n 3 "$tmp/ab.jsonl")" "$("$cli" tail -n 3 "$a" "$b")"
expect "tail more than all" "$(cat "$tmp/ab.jsonl")" "$("$cli" tail -n 1000 "$a" "$b")"
# the last file's rows alone: what tail of that file prints (with the partition column)
expect "tail within the last file" "$("$cli" tail -n 5 "$c" | sed 's/}$/,"part":2}/')" "$("$cli" tail -n 5 "$d")"
expect "tail --where" "$("$cli" cat "$d" --where 'id < 60' | tail -n 4)" "$("$cli" tail -n 4 --where 'id < 60' "$d")"
expect "tail csv" "$("$cli" cat --format csv -c id "$a" "$b" | sed -n '1p;$p')" \
  "$("$cli" tail -n 1 --format csv -c id "$a" "$b")"
expect "tail -n 0 csv: the header" "id" "$("$cli" tail -n 0 --format csv -c id "$a" "$b")"

# ---- sample: N rows of the whole, in order, repeatable with --seed ----
"$cli" sample -n 20 --seed 7 "$d" >"$tmp/s1" || bad "sample dir"
expect "sample rows" 20 "$(wc -l <"$tmp/s1" | tr -d ' ')"
expect "sample rows are rows of the table, in order" "$(cat "$tmp/s1")" "$(grep -Fxf "$tmp/s1" "$tmp/all.jsonl")"
expect "sample repeatable" "$(cat "$tmp/s1")" "$("$cli" sample -n 20 --seed 7 "$d/**/*.parquet")"
# drawn over all files: with these seeds rows come from more than one file
parts=$(for s in 1 2 3 4 5; do "$cli" sample -n 10 --seed $s "$d"; done | grep -o '"part":[0-9]' | sort -u | wc -l)
expect "sample over every file" 2 "$(echo $parts)"
expect "sample all" "$(cat "$tmp/all.jsonl")" "$("$cli" sample -n 500 "$d")"
expect "sample more than half" 100 "$("$cli" sample -n 100 --seed 3 "$d" | grep -Fxf - "$tmp/all.jsonl" | wc -l | tr -d ' ')"
"$cli" sample -n 5 --seed 9 --where 'id >= 100' "$a" "$b" "$c" >"$tmp/s2" || bad "sample --where"
expect "sample --where" 5 "$(grep -c '"id":1[0-2][0-9]' "$tmp/s2")"

# ---- export: one output of all rows ----
"$cli" export -o "$tmp/all.csv" "$d" >"$tmp/out" || bad "export csv"
expect "export csv message" "$tmp/all.csv: 125 rows written" "$(cat "$tmp/out")"
expect "export csv = cat csv" "$("$cli" cat --format csv "$d")" "$(cat "$tmp/all.csv")"
"$cli" export --json -o "$tmp/all.parquet" --codec zstd "$a" "$b" "$c" >"$tmp/out" || bad "export parquet"
expect "export --json" "{\"output\": \"$tmp/all.parquet\", \"format\": \"parquet\", \"rows\": 125}" "$(cat "$tmp/out")"
expect "export parquet = cat" "$("$cli" cat "$a" "$b" "$c")" "$("$cli" cat "$tmp/all.parquet")"
"$cli" meta "$tmp/all.parquet" | grep -q ZSTD || bad "export parquet: writer option --codec not taken"
"$cli" export -o "$tmp/w.jsonl" -c id --where 'id IN (0, 10, 70, 120)' "$d/**/*.parquet" >/dev/null || bad "export where"
expect "export where/columns" "$("$cli" cat -c id --where 'id IN (0, 10, 70, 120)' "$d")" "$(cat "$tmp/w.jsonl")"
# a file of the wrong schema among them: the error names both files
printf 'id,name\nx,y\n' >"$tmp/s.csv"
"$cli" convert "$tmp/s.csv" "$tmp/strid.parquet" >/dev/null || bad "convert strid"
"$cli" export -o "$tmp/mixed.csv" "$a" "$tmp/strid.parquet" >/dev/null 2>"$tmp/err"
expect "export incompatible exit" 1 $?
grep -q "strid.parquet" "$tmp/err" || bad "export incompatible message: $(cat "$tmp/err")"
[ ! -e "$tmp/mixed.csv" ] || bad "export incompatible left an output"

# ---- one bad file among several ----
mkdir -p "$tmp/bad"
cp "$a" "$tmp/bad/a.parquet"
cp "$b" "$tmp/bad/b.parquet"
head -c 300 "$c" >"$tmp/bad/c.parquet" # cut: no footer
for fmt in csv parquet; do
  "$cli" export -o "$tmp/bad.$fmt" "$tmp/bad" >/dev/null 2>"$tmp/err"
  expect "export bad $fmt exit" 1 $?
  grep -q "bad/c.parquet" "$tmp/err" || bad "export bad $fmt message: $(cat "$tmp/err")"
  [ ! -e "$tmp/bad.$fmt" ] || bad "export bad $fmt left an output"
done
[ -z "$(ls -A "$tmp" | grep tmp-)" ] || bad "export left a temporary file: $(ls -A "$tmp")"
"$cli" tail -n 2 "$tmp/bad" >/dev/null 2>"$tmp/err"; expect "tail bad exit" 1 $?
grep -q "bad/c.parquet" "$tmp/err" || bad "tail bad message: $(cat "$tmp/err")"
"$cli" sample -n 2 "$tmp/bad" >/dev/null 2>"$tmp/err"; expect "sample bad exit" 1 $?
grep -q "bad/c.parquet" "$tmp/err" || bad "sample bad message: $(cat "$tmp/err")"
"$cli" verify "$tmp/bad" >"$tmp/out" 2>"$tmp/err"; expect "verify bad exit" 1 $?
expect "verify the good files" 2 "$(grep -c ': ok (' "$tmp/out")"
grep -q "bad/c.parquet" "$tmp/err" || bad "verify bad message: $(cat "$tmp/err")"
"$cli" pages "$tmp/bad" >"$tmp/out" 2>"$tmp/err"; expect "pages bad exit" 1 $?
grep -q "bad/c.parquet" "$tmp/err" || bad "pages bad message: $(cat "$tmp/err")"
expect "pages bad: every file named" 3 "$(grep -c '^file: ' "$tmp/out")"

# ---- verify: every file, each report naming it ----
"$cli" verify "$d" >"$tmp/out" || bad "verify dir"
expect "verify dir" "$a: ok (50 rows in 4 row groups, 2 columns)
$b: ok (30 rows in 2 row groups, 2 columns)
$c: ok (45 rows in 3 row groups, 2 columns)" "$(cat "$tmp/out")"
"$cli" verify --json "$a" "$c" >"$tmp/out" || bad "verify --json"
expect "verify --json lines" 2 "$(grep -c '"ok": true' "$tmp/out")"
grep -q "\"file\": \"$c\"" "$tmp/out" || bad "verify --json names the file: $(cat "$tmp/out")"

# ---- pages, stats, column-index, dictionary: per file, with a header ----
expect "pages headers" "file: $a
file: $b
file: $c" "$("$cli" pages "$d" | grep '^file: ')"
# each file's part is what pages prints for that file alone
"$cli" pages "$a" "$b" | sed -n "/^file: .*b.parquet/,\$p" | tail -n +2 >"$tmp/p_many"
"$cli" pages "$b" >"$tmp/p_one"
cmp -s "$tmp/p_many" "$tmp/p_one" || bad "pages of b among several differs from pages b"
expect "pages --json objects" 3 "$("$cli" pages --json "$d/*/*.parquet" | grep -c '^{"file": ')"
expect "pages --lines headers" 2 "$("$cli" pages --lines "$a" "$c" | grep -c '^file: ')"
expect "stats headers" "# $a
# $c" "$("$cli" stats -c id "$a" "$c" | grep '^# ')"
"$cli" stats -c id "$d" | sed -n "/^# .*c.parquet/,\$p" | tail -n +2 >"$tmp/s_many"
"$cli" stats -c id "$c" | cmp -s - "$tmp/s_many" || bad "stats of c among several differs from stats c"
expect "stats --json" 3 "$("$cli" stats --json -c id "$d" | grep -c '^{"file": ".*", "column": "id"')"
expect "column-index headers" 3 "$("$cli" column-index -c id "$d" | grep -c '^# ')"
expect "dictionary headers" 2 "$("$cli" dictionary -c name "$a" "$b" | grep -c '^# ')"
"$cli" stats -c nope "$a" "$b" >/dev/null 2>"$tmp/err"; expect "stats unknown column" 2 $?

# layout, footer, size-stats, geospatial-stats: the same, each file's part as for it alone
for k in layout footer size-stats geospatial-stats; do
  "$cli" $k "$a" "$c" >"$tmp/m_many" || bad "$k several"
  expect "$k headers" "# $a
# $c" "$(grep '^# ' "$tmp/m_many")"
  sed -n "/^# .*c.parquet/,\$p" "$tmp/m_many" | tail -n +2 >"$tmp/m_part"
  "$cli" $k "$c" >"$tmp/m_one"
  if [ $k = footer ]; then sed -i '/^$/d; /prints the whole FileMetaData/d' "$tmp/m_one"; fi
  cmp -s "$tmp/m_part" "$tmp/m_one" || bad "$k of c among several differs from $k c: $(diff "$tmp/m_part" "$tmp/m_one" | head -5)"
  expect "$k --json objects" 3 "$("$cli" $k --json "$d" | grep -c '^{"file": \?"')"
done
"$cli" footer --scrub -o "$tmp/scrub.parquet" "$a" "$b" >/dev/null 2>"$tmp/err"; expect "footer --scrub two" 2 $?
"$cli" layout "$tmp/bad" >/dev/null 2>"$tmp/err"; expect "layout bad exit" 1 $?
grep -q "bad/c.parquet" "$tmp/err" || bad "layout bad message: $(cat "$tmp/err")"

# ---- diff: exactly two ----
"$cli" diff "$a" "$b" "$c" >/dev/null 2>"$tmp/err"; expect "diff three exit" 2 $?
grep -q "unexpected argument" "$tmp/err" || bad "diff three message: $(cat "$tmp/err")"
"$cli" diff "$a" "$a" >/dev/null || bad "diff a a"
# the shared argument loop: did-you-mean and -- on every one of them
"$cli" tail --limt 3 "$a" >/dev/null 2>"$tmp/err"; expect "tail typo exit" 2 $?
grep -q "did you mean '--limit'" "$tmp/err" || bad "tail typo: $(cat "$tmp/err")"
"$cli" sample -n 1 --sed 3 "$a" >/dev/null 2>"$tmp/err"; expect "sample typo exit" 2 $?
grep -q "did you mean '--seed'" "$tmp/err" || bad "sample typo: $(cat "$tmp/err")"
expect "sample --seed=S" "$("$cli" sample -n 3 --seed 5 "$a")" "$("$cli" sample -n 3 --seed=5 "$a")"
expect "tail after --" "$("$cli" tail -n 2 "$a")" "$(cd "$(dirname "$a")" && "$cli" tail -n 2 -- a.parquet)"

[ $fail = 0 ] && echo "multi-file: ok"
exit $fail
