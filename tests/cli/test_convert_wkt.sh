#!/usr/bin/env bash
# convert: a GEOMETRY/GEOGRAPHY column of CSV or JSON Lines takes WKT text
# (every type, Z/M/ZM, EMPTY, nested collections) and writes ISO WKB; `cat`
# prints the same WKT back, geospatial-stats shows the box and types computed
# from it (as for WKB input), verify agrees. WKB given as base64 is still
# taken, and checked. A malformed WKT or WKB fails naming the line, the column
# and where in the value, and leaves no output file. Usage: CLI CORPUS_DIR
set -u
cli=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-wkt.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
schema='message m { required int64 id; optional binary g (GEOMETRY); }'

# Every WKT form, in the canonical text `cat` prints: cat must give it back as is.
wkts=(
  'POINT (1 2)'
  'POINT Z (1 2 3)'
  'POINT M (1 2 4)'
  'POINT ZM (1 2 3 4)'
  'POINT EMPTY'
  'LINESTRING (0 0, 1 1.5, -2.25 3e-7)'
  'LINESTRING EMPTY'
  'POLYGON ((0 0, 10 0, 10 10, 0 0), (1 1, 2 1, 2 2, 1 1))'
  'POLYGON Z EMPTY'
  'MULTIPOINT ((1 2), (3 4))'
  'MULTIPOINT EMPTY'
  'MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))'
  'MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))'
  'MULTIPOLYGON ZM (((0 0 0 0, 1 0 0 -7, 1 1 0 0, 0 0 0 0)))'
  'GEOMETRYCOLLECTION (POINT (1 1), LINESTRING (0 0, 2 2))'
  'GEOMETRYCOLLECTION EMPTY'
  'GEOMETRYCOLLECTION Z (POINT Z (1 1 1), GEOMETRYCOLLECTION Z (LINESTRING Z (0 0 0, 1 1 100)))'
  'MULTILINESTRING M ((0 0 5, 1 1 6))'
)
{
  echo 'id,g'
  i=0
  for w in "${wkts[@]}"; do i=$((i+1)); echo "$i,\"$w\""; done
  echo "$((i+1)),"
} > "$tmp/in.csv"
n=${#wkts[@]}
"$cli" convert --schema "$schema" "$tmp/in.csv" "$tmp/out.parquet" 2> "$tmp/err" && ok || bad "convert WKT CSV: $(cat "$tmp/err")"
"$cli" cat "$tmp/out.parquet" > "$tmp/cat.jsonl" || bad "cat"
python3 - "$tmp/cat.jsonl" "$n" "${wkts[@]}" <<'PY' && ok || bad "cat does not give the WKT back"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
n = int(sys.argv[2]); want = sys.argv[3:]
assert len(rows) == n + 1, len(rows)
for i, w in enumerate(want):
    assert rows[i]["id"] == i + 1 and rows[i]["g"] == w, (rows[i], w)
assert rows[n]["g"] is None, rows[n]
PY
# the statistics are computed from the WKB as for WKB input
"$cli" geospatial-stats "$tmp/out.parquet" > "$tmp/gs.txt" || bad "geospatial-stats"
grep -qxF '  row group 0 (19 rows): x [-2.25, 10] y [0, 10] z [0, 100] m [-7, 6]' "$tmp/gs.txt" && ok || bad "box: $(cat "$tmp/gs.txt")"
grep -qxF '    types: 1 Point, 2 LineString, 3 Polygon, 4 MultiPoint, 5 MultiLineString, 6 MultiPolygon, 7 GeometryCollection, 1001 Point Z, 1003 Polygon Z, 1007 GeometryCollection Z, 2001 Point M, 2005 MultiLineString M, 3001 Point ZM, 3006 MultiPolygon ZM' "$tmp/gs.txt" && ok || bad "types: $(cat "$tmp/gs.txt")"
"$cli" verify "$tmp/out.parquet" >/dev/null 2>&1 && ok || bad "verify of the written file"
# no ColumnIndex and no min/max for a geo column (docs/geospatial.md), an OffsetIndex
"$cli" column-index -c g "$tmp/out.parquet" > "$tmp/ci.txt" 2>&1
grep -qxF 'row group 0: 1 pages, no column index' "$tmp/ci.txt" && grep -q '^  page 0: offset ' "$tmp/ci.txt" && ok || bad "column index: $(cat "$tmp/ci.txt")"
"$cli" stats -c g "$tmp/out.parquet" | grep -qxF '  min -, max -' && ok || bad "min/max written for a geo column"

# the same file from WKB (base64, little- and big-endian) has the same statistics
wkb_le=$(python3 -c 'import base64,struct;print(base64.b64encode(b"\x01"+struct.pack("<Idd",1,1,2)).decode())')
wkb_be=$(python3 -c 'import base64,struct;print(base64.b64encode(b"\x00"+struct.pack(">Idd",1,3,-4)).decode())')
printf 'id,g\n1,%s\n2,"point(3 -4)"\n3,%s\n' "$wkb_le" "$wkb_be" > "$tmp/mix.csv"
"$cli" convert --schema "$schema" "$tmp/mix.csv" "$tmp/mix.parquet" 2> "$tmp/err" && ok || bad "WKB and WKT mixed: $(cat "$tmp/err")"
[ "$("$cli" cat "$tmp/mix.parquet" | tr '\n' ' ')" = '{"id":1,"g":"POINT (1 2)"} {"id":2,"g":"POINT (3 -4)"} {"id":3,"g":"POINT (3 -4)"} ' ] && ok || bad "WKB/WKT mix: $("$cli" cat "$tmp/mix.parquet")"
"$cli" geospatial-stats "$tmp/mix.parquet" | grep -qxF '  row group 0 (3 rows): x [1, 3] y [-4, 2]' && ok || bad "mix box"

# JSON Lines, GEOGRAPHY: a line across the antimeridian gives a wrapped box
printf '{"id":1,"g":"LINESTRING (170 10, -170 12)"}\n{"id":2,"g":"POINT (175 -5)"}\n{"id":3,"g":null}\n' > "$tmp/in.jsonl"
"$cli" convert --schema 'message m { required int64 id; optional binary g (GEOGRAPHY); }' "$tmp/in.jsonl" "$tmp/geog.parquet" 2> "$tmp/err" && ok || bad "JSON GEOGRAPHY: $(cat "$tmp/err")"
"$cli" cat -c g "$tmp/geog.parquet" | head -1 | grep -qxF '{"g":"LINESTRING (170 10, -170 12)"}' && ok || bad "JSON cat"
"$cli" geospatial-stats --json "$tmp/geog.parquet" > "$tmp/gg.json" || bad "geospatial-stats --json"
python3 - "$tmp/gg.json" <<'PY' && ok || bad "GEOGRAPHY box does not wrap: $(cat "$tmp/gg.json")"
import json, sys
rg = json.load(open(sys.argv[1]))["columns"][0]["row_groups"][0]
b = rg["bbox"]
assert rg["x_wraps"] and b["xmin"] == 170 and b["xmax"] == -170, b
assert b["ymin"] == -5 and b["ymax"] >= 12, b
assert [t["code"] for t in rg["types"]] == [1, 2], rg["types"]
PY
# a GEOMETRY leaf inside a JSON group
printf '{"s":{"name":"a","g":"POINT (5 6)"}}\n' > "$tmp/nest.jsonl"
"$cli" convert --schema 'message m { optional group s { optional binary name (STRING); optional binary g (GEOMETRY); } }' "$tmp/nest.jsonl" "$tmp/nest.parquet" 2> "$tmp/err" && ok || bad "nested: $(cat "$tmp/err")"
"$cli" cat "$tmp/nest.parquet" | grep -qF '"g":"POINT (5 6)"' && ok || bad "nested cat: $("$cli" cat "$tmp/nest.parquet")"

# malformed WKT: exit 1, line, column and character named, no output left
expect_fail() { # label file schema pattern
  rm -f "$tmp/bad.parquet"
  "$cli" convert --schema "$3" "$2" "$tmp/bad.parquet" 2> "$tmp/err"
  local rc=$?
  [ $rc = 1 ] && ok || bad "$1: exit $rc (1 expected)"
  grep -qF -- "$4" "$tmp/err" && ok || bad "$1: message '$(cat "$tmp/err")' lacks '$4'"
  [ ! -e "$tmp/bad.parquet" ] && ok || bad "$1: output left behind"
}
printf 'id,g\n1,POINT (1 2)\n2,"POLYGON ((0 0, 1 x))"\n' > "$tmp/b1.csv"
expect_fail "bad number" "$tmp/b1.csv" "$schema" "line 3, column g: cannot read 'POLYGON ((0 0, 1 x))' as GEOMETRY: WKT: number expected at character 17 ('x')"
printf 'id,g\n1,"LINESTRING (0 0, 1 1"\n' > "$tmp/b2.csv"
expect_fail "unclosed" "$tmp/b2.csv" "$schema" "line 2, column g: cannot read 'LINESTRING (0 0, 1 1' as GEOMETRY: WKT: ')' expected at character 20 (end of text)"
printf 'id,g\n1,"POINT Z (1 2)"\n' > "$tmp/b3.csv"
expect_fail "too few ordinates" "$tmp/b3.csv" "$schema" "line 2, column g: cannot read 'POINT Z (1 2)' as GEOMETRY: WKT: number expected at character 12"
printf 'id,g\n1,"GEOMETRYCOLLECTION Z (POINT M (1 2 3))"\n' > "$tmp/b4.csv"
expect_fail "mixed dimensions" "$tmp/b4.csv" "$schema" "part with other dimensions than its collection"
printf 'id,g\n1,"POINT (1 2) x"\n' > "$tmp/b5.csv"
expect_fail "trailing text" "$tmp/b5.csv" "$schema" "end of text expected at character 12"
printf 'id,g\n1,CIRCLE (1 2)\n' > "$tmp/b6.csv"
expect_fail "no geometry" "$tmp/b6.csv" "$schema" "line 2, column g: cannot read 'CIRCLE (1 2)' as GEOMETRY: neither WKT, base64"
printf 'id,g\n1,AQEAAAAAAAAAAADw\n' > "$tmp/b7.csv"
expect_fail "truncated WKB" "$tmp/b7.csv" "$schema" "line 2, column g: cannot read 'AQEAAAAAAAAAAADw' as GEOMETRY: WKB: truncated Point coordinates at byte 5"
printf '{"id":1,"g":"POINT (1 2)"}\n{"id":2,"g":"MULTIPOINT ((1 2), (3))"}\n' > "$tmp/b8.jsonl"
expect_fail "JSON" "$tmp/b8.jsonl" "$schema" "line 2, column g: cannot read 'MULTIPOINT ((1 2), (3))' as GEOMETRY: WKT: number expected at character 21"
printf 'id,g\n1,"POINT (1 2)"\n2,"LINESTRING (1)"\n' > "$tmp/b9.csv"
expect_fail "GEOGRAPHY" "$tmp/b9.csv" 'message m { required int64 id; optional binary g (GEOGRAPHY); }' "line 3, column g: cannot read 'LINESTRING (1)' as GEOGRAPHY: WKT: number expected at character 13"

# a plain BINARY column does not take WKT (no silent change of meaning)
printf 'id,b\n1,POINT (1 2)\n' > "$tmp/p.csv"
expect_fail "binary" "$tmp/p.csv" 'message m { required int64 id; optional binary b; }' "as BINARY: neither base64 nor"

# a file holding a bad WKB (type 9): verify names row group, column and value; a spatial
# filter fails naming row group, column and value; cat keeps the bytes (base64, documented)
printf 'id,g\n1,POINT (1 2)\n2,POINT (3 4)\n' > "$tmp/m.csv"
"$cli" convert --codec uncompressed --no-write-crc --schema "$schema" "$tmp/m.csv" "$tmp/m.parquet" || bad "convert m.csv"
python3 - "$tmp/m.parquet" "$tmp/badwkb.parquet" <<'PY' || bad "could not make the bad file"
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
pt = b"\x01" + struct.pack("<Idd", 1, 3, 4)
i = d.find(pt)
assert i > 0 and d.find(pt, i + 1) < 0
d[i + 1] = 9
open(sys.argv[2], "wb").write(d)
PY
"$cli" verify "$tmp/badwkb.parquet" > "$tmp/v.txt" 2>&1; rc=$?
[ $rc = 1 ] && grep -qF 'row group 0, column g: value 1 is not valid WKB: WKB: unknown geometry type 9 at byte 1' "$tmp/v.txt" && ok || bad "verify bad WKB ($rc): $(cat "$tmp/v.txt")"
for c in "count --bbox 0,0,10,10" "cat --where ST_Intersects(g,BOX(0,0,10,10))"; do
  # shellcheck disable=SC2086
  "$cli" $c "$tmp/badwkb.parquet" > /dev/null 2> "$tmp/e.txt"; rc=$?
  [ $rc = 1 ] && grep -qF 'row group 0, ' "$tmp/e.txt" && grep -qF 'column g, value 1 of the batch: not valid WKB: WKB: unknown geometry type 9' "$tmp/e.txt" && ok || bad "$c on a bad WKB ($rc): $(cat "$tmp/e.txt")"
done
[ "$("$cli" cat -c g "$tmp/badwkb.parquet" | sed -n 2p)" = '{"g":"AQkAAAAAAAAAAAAIQAAAAAAAABBA"}' ] && ok || bad "cat of a bad WKB"

echo "convert WKT: $pass passed, $fail failed"
[ $fail = 0 ]
