#!/usr/bin/env bash
# GEOMETRY/GEOGRAPHY on the command line, on the corpus's geospatial files:
# `geospatial-stats` (human and --json: boxes with Z/M, wrap, type codes with
# names, equal to `meta --json`'s GeospatialStatistics), `meta` shows the box
# and types per chunk. Usage: CLI CORPUS_DIR
set -u
cli=$1
dir=$2/data/geospatial
[ -f "$dir/geospatial.parquet" ] || { echo "no corpus at $dir"; exit 77; }
command -v python3 >/dev/null || { echo "python3 not found"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-geo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

# geospatial-stats human output
"$cli" geospatial-stats "$dir/geospatial.parquet" > "$tmp/h.txt" || bad "geospatial-stats exit"
grep -q '^column geometry: GEOMETRY, crs OGC:CRS84 (default)$' "$tmp/h.txt" && ok || bad "column line"
grep -q '^  row group 0 (28 rows): x \[10, 40\] y \[10, 40\] z \[30, 80\] m \[200, 1600\]$' "$tmp/h.txt" && ok || bad "box with z and m"
grep -q '3007 GeometryCollection ZM$' "$tmp/h.txt" && ok || bad "type names"
"$cli" geospatial-stats "$dir/geography-polygons.parquet" | grep -q 'edges spherical' && ok || bad "edges"
"$cli" geospatial-stats "$dir/geography-lines.parquet" | grep -q 'wraps the antimeridian' && ok || bad "wrap shown"
"$cli" geospatial-stats -c group "$dir/geospatial.parquet" >/dev/null 2>&1; [ $? = 2 ] && ok || bad "non-geo column is a usage error"

# --json equals meta --json's statistics, for every corpus file
for f in "$dir"/*.parquet; do
  "$cli" geospatial-stats --json "$f" > "$tmp/g.json" || { bad "$f: --json exit"; continue; }
  "$cli" meta --json "$f" > "$tmp/m.json" || { bad "$f: meta --json"; continue; }
  python3 - "$tmp/g.json" "$tmp/m.json" <<'PY' && ok || bad "$f: geospatial-stats --json differs from meta --json"
import json, sys
g = json.load(open(sys.argv[1])); m = json.load(open(sys.argv[2]))
assert g["columns"], "no geo column"
for c in g["columns"]:
    for rg in c["row_groups"]:
        mc = [x for x in m["row_groups"][rg["row_group"]]["columns"]
              if ".".join(x["meta_data"]["path_in_schema"]) == c["column"]][0]["meta_data"]
        gs = mc.get("geospatial_statistics")
        assert rg["statistics"] == (gs is not None)
        if gs is None: continue
        box = gs.get("bbox")
        assert (rg["bbox"] is None) == (box is None), (rg, box)
        if box:
            for k, v in rg["bbox"].items(): assert v == box[k], (k, v, box[k])
            assert set(rg["bbox"]) == set(box), (rg["bbox"], box)
            assert rg["x_wraps"] == (box["xmin"] > box["xmax"])
        codes = gs.get("geospatial_types") or []
        assert [t["code"] for t in rg["types"]] == codes, (rg["types"], codes)
PY
done

# meta: box and types per chunk
"$cli" meta "$dir/geospatial.parquet" > "$tmp/meta.txt"
grep -q '^    geo box: x \[10, 40\], y \[10, 40\]$' "$tmp/meta.txt" && ok || bad "meta geo box"
grep -q '^    geo box: z \[30, 80\], m \[200, 1600\]$' "$tmp/meta.txt" && ok || bad "meta geo box z m"
grep -q '^    geo types: Point, LineString, ' "$tmp/meta.txt" && ok || bad "meta geo types"
grep -q '^    geo box: none$' "$tmp/meta.txt" && ok || bad "meta no box"

# --bbox and ST_Intersects on the points file: equal to a brute force over cat's WKT
"$cli" cat "$dir/geography-points.parquet" > "$tmp/pts.jsonl" || bad "cat points"
for box in "-10,-10,0,0" "170,-90,-170,90" "-180,-90,180,90" "20,0,60,30"; do
  got=$("$cli" count --bbox "$box" "$dir/geography-points.parquet") || bad "count --bbox $box"
  want=$(python3 - "$tmp/pts.jsonl" "$box" <<'PY'
import json, sys, re
x0, y0, x1, y1 = map(float, sys.argv[2].split(","))
n = 0
for line in open(sys.argv[1]):
    g = json.loads(line)["geometry"]
    m = re.match(r"POINT \((\S+) (\S+)\)", g or "")
    if not m: continue
    x, y = float(m.group(1)), float(m.group(2))
    inx = (x0 <= x <= x1) if x0 <= x1 else (x >= x0 or x <= x1)
    n += inx and y0 <= y <= y1
print(n)
PY
)
  [ "$got" = "$want" ] && ok || bad "--bbox $box: $got rows, brute force $want"
done
"$cli" count --stats --bbox -10,-10,0,0 "$dir/geography-points.parquet" 2>&1 >/dev/null | grep -qE 'row_groups=[0-9]/50' && ok || bad "--bbox skips row groups"
a=$("$cli" count --where "ST_Intersects(geometry, BOX(20, 0, 60, 30))" "$dir/geography-points.parquet")
b=$("$cli" count --bbox 20,0,60,30 "$dir/geography-points.parquet")
[ "$a" = "$b" ] && [ "$a" -gt 0 ] && ok || bad "ST_Intersects BOX $a vs --bbox $b"
a=$("$cli" head -n 3 --where "ST_Intersects(geometry, 'POLYGON ((30 10, 40 40, 20 40, 10 20, 30 10))')" "$dir/geospatial.parquet" | wc -l)
[ "$a" = 3 ] && ok || bad "ST_Intersects WKT head: $a rows"
"$cli" count --where "ST_Intersects(id, 'POINT (1 2)')" "$dir/geography-points.parquet" >/dev/null 2>&1; [ $? = 2 ] && ok || bad "ST_Intersects on a non-geo column is a usage error"
"$cli" count --bbox 1,2,3 "$dir/geography-points.parquet" >/dev/null 2>&1; [ $? = 2 ] && ok || bad "--bbox with three numbers"
"$cli" help cat | grep -q 'bounding-box semantics' && ok || bad "help states bounding-box semantics"

echo "geospatial: $pass passed, $fail failed"
[ "$fail" = 0 ]
