#!/usr/bin/env bash
# --column-order total|type and --int96-stats (parquet.thrift ColumnOrder).
# 1. parquet-java (1.18) wrote floating_orders_nan_count.parquet with
#    IEEE_754_TOTAL_ORDER for its *_ieee754 columns: `rewrite --column-order
#    total` must write the very same statistics for them (min/max of the
#    non-NaN values, nan_count, NaN bounds for an all-NaN chunk).
# 2. `rewrite --column-order type`: the same, but no bounds for an all-NaN
#    chunk and a zero min written -0, a zero max +0 (parquet.thrift,
#    TYPE_ORDER note (*)). parquet-java also drops the
#    bounds of a chunk that merely holds some NaN; the spec asks for the
#    non-NaN bounds with nan_count set, which is what we write.
# 3. --int96-stats gives INT96 bounds; every output passes `verify`, and
#    `count --where` over it equals the count over the original.
# Usage: CLI CORPUS_DIR; exits 77 when the corpus files are absent.
set -u
cli=$1; corpus=$2
src="$corpus/data/floating_orders_nan_count.parquet"
i96="$corpus/data/int96_from_spark.parquet"
if [ ! -f "$src" ] || [ ! -f "$i96" ]; then echo "SKIP: corpus files not found under $corpus"; exit 77; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-order.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }

# statistics lines of the columns whose name ends in $2, in file order
stats_of() { "$cli" meta "$1" | awk -v suf="$2" '/^  column /{keep = ($2 ~ suf "$")} keep && /statistics:/' ; }

check "rewrite total" '"$cli" rewrite --row-group-size 10 --column-order total "$src" "$tmp/total.parquet" >/dev/null'
check "rewrite type" '"$cli" rewrite --row-group-size 10 --column-order type "$src" "$tmp/type.parquet" >/dev/null'
check "bad value refused" '! "$cli" rewrite --column-order sideways "$src" "$tmp/bad.parquet" 2>/dev/null'
check "nothing written on refusal" '[ ! -e "$tmp/bad.parquet" ]'
want_total=$(stats_of "$src" _ieee754)
want_type=${want_total//min: \"NaN\", max: \"NaN\", /}
# and zeros normalised: min -0, max +0 (total order keeps min +0 / max -0)
want_type=${want_type//min: 0,/min: -0,}
want_type=${want_type//max: -0,/max: 0,}
check "source has NaN bounds under total order" '[[ "$want_total" == *"min: \"NaN\""* ]]'
check "total order statistics equal parquet-java's" '[ "$(stats_of "$tmp/total.parquet" _ieee754)" = "$want_total" ]'
check "total order applied to every float column" '[ "$(stats_of "$tmp/total.parquet" _typedef)" = "$want_total" ]'
check "type order: no NaN bounds" '[ "$want_type" != "$want_total" ] && [ "$(stats_of "$tmp/type.parquet" _typedef)" = "$want_type" ]'
check "type order applied to every float column" '[ "$(stats_of "$tmp/type.parquet" _ieee754)" = "$want_type" ]'
check "default is type order" '"$cli" rewrite --row-group-size 10 "$src" "$tmp/def.parquet" >/dev/null && [ "$(stats_of "$tmp/def.parquet" _ieee754)" = "$want_type" ]'

check "int96 rewrite" '"$cli" rewrite --int96-stats "$i96" "$tmp/i96.parquet" >/dev/null'
check "int96 bounds written" '"$cli" meta "$tmp/i96.parquet" | grep -q "statistics: min:"'
check "no int96 bounds by default" '"$cli" rewrite "$i96" "$tmp/i96d.parquet" >/dev/null && ! "$cli" meta "$tmp/i96d.parquet" | grep -q "statistics: min:"'

for f in total type def i96; do
  check "verify $f" '"$cli" verify "$tmp/$f.parquet" >/dev/null'
done
for col in float_ieee754 float_typedef double_ieee754 double_typedef; do
  for w in "$col > 1" "$col < 0" "$col = 'NaN'" "$col != 2" "$col >= -2" "$col IS NOT NULL"; do
    want=$("$cli" count --where "$w" "$src")
    for f in total type; do
      got=$("$cli" count --where "$w" "$tmp/$f.parquet")
      check "$f: count where $w: $got, source $want" '[ "$got" = "$want" ]'
    done
  done
done
for w in "a > TIMESTAMP '2024-06-01 00:00:00'" "a < TIMESTAMP '2000-01-01 00:00:00'" "a IS NULL"; do
  want=$("$cli" count --where "$w" "$i96")
  got=$("$cli" count --where "$w" "$tmp/i96.parquet")
  check "int96: count where $w: $got, source $want" '[ "$got" = "$want" ]'
done
[ $fail -eq 0 ] && echo "column order: ok"
exit $fail
