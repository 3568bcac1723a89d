#!/usr/bin/env bash
# convert --variant s.v: the JSON value at a path inside an object column
# stored as VARIANT inside the group the object becomes, shredded by the
# types of the first rows (typed_value under s.v, and under s.t.w beside a
# top-level --variant), unshredded at depth 0; cat prints every row back
# equal to the input (a missing v or t, a null or missing s). Errors: a value
# that is no Variant (a key given twice) names the line and the path, before
# and after the rows the shredding is inferred from, and writes nothing; a
# list on the path, an object column whose rows differ, a path not in the
# input, --variant s with s.v are refused saying why. Usage: CLI CORPUS_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib/variant_convert.sh"
vc_setup "$1"

vc_python "$tmp/in.jsonl" <<'EOF'
rnd, gen = make_gen(14, ["a", "b", "id", "name", "x y", "tags", "\u00e9", "z"], 4, 5)
with open(sys.argv[1], "w") as f:
    for i in range(1600):
        r = {"id": i}
        m = i % 23
        if m == 1: pass                      # no s
        elif m == 2: r["s"] = None           # null s
        else:
            s = {"a": i}
            if m != 3:                       # no v
                # mostly objects of the same shape (shredded), then anything
                s["v"] = {"id": i, "name": "n%d" % i, "tags": ["t", i]} if i % 3 else gen(0)
            if m == 4: s["v"] = None         # a Variant null
            if m != 5: s["t"] = {"w": i if i % 4 else gen(1)} if m != 6 else None
            r["s"] = s
        r["top"] = gen(0)
        f.write(json.dumps(r, ensure_ascii=False) + "\n")
EOF

# cat's rows equal the input's: s as the group (v, t missing: null)
vc_expect='
def expect(w):
    s = w.get("s")
    return {"id": w["id"], "s": None if s is None else
            {"a": s["a"], "v": s.get("v"), "t": None if s.get("t") is None else {"w": s["t"].get("w")}},
            "top": w.get("top")}'

for depth in 0 1 3; do
  out="$tmp/d$depth.parquet"
  if ! "$cli" convert --variant s.v --variant s.t.w --variant top --variant-shred-depth $depth --row-group-size 500 \
      "$tmp/in.jsonl" "$out" 2>"$tmp/err"; then
    echo "FAIL: depth $depth: convert: $(cat "$tmp/err")"; fail=1; continue
  fi
  "$cli" schema "$out" >"$tmp/schema"
  # the VARIANT groups inside s (and s.t), typed_value only when shredded
  n=$(grep -c 'group \(v\|w\|top\) (VARIANT' "$tmp/schema")
  [ "$n" = 3 ] || { echo "FAIL: depth $depth: $n VARIANT groups, want 3"; cat "$tmp/schema"; fail=1; }
  typed=$(awk '/group v \(VARIANT/ { inv = 1 } inv && /typed_value/ { print "yes"; exit }
    inv { d += gsub(/{/, "{") - gsub(/}/, "}"); if (d == 0) exit }' "$tmp/schema")
  if [ "$depth" = 0 ] && [ -n "$typed" ]; then echo "FAIL: depth 0: s.v shredded"; fail=1; fi
  if [ "$depth" != 0 ] && [ -z "$typed" ]; then echo "FAIL: depth $depth: s.v not shredded"; cat "$tmp/schema"; fail=1; fi
  vc_check_rows "$out" "depth $depth"
done
# the object column's other fields keep their types and input order
"$cli" convert --dry-run --variant s.v --variant s.t.w --variant top "$tmp/in.jsonl" - >"$tmp/dry" 2>&1
order=$(sed -n 's/^ *optional \(int64\|group\) `\([a-z]*\)`.*/\2/p' "$tmp/dry" | tr '\n' ' ')
[ "$order" = "id s a v t w top " ] || { echo "FAIL: dry-run fields '$order'"; cat "$tmp/dry"; fail=1; }
grep -q 'optional group `v` (VARIANT)' "$tmp/dry" || { echo "FAIL: dry-run: no VARIANT v"; fail=1; }

# --schema declaring s.v a VARIANT group: stored unshredded, equal
schema='message m { optional int64 id; optional group s { optional int64 a; optional group v (VARIANT) { required binary metadata; required binary value; } } }'
printf '%s\n' '{"id":1,"s":{"a":1,"v":{"k":[1,"x",null]}}}' '{"id":2,"s":{"a":2}}' '{"id":3,"s":{"v":"x"}}' >"$tmp/sch.jsonl"
if "$cli" convert --schema "$schema" --variant s.v "$tmp/sch.jsonl" "$tmp/sch.parquet" 2>"$tmp/err"; then
  got=$("$cli" cat "$tmp/sch.parquet" | tr '\n' '|')
  want='{"id":1,"s":{"a":1,"v":{"k":[1,"x",null]}}}|{"id":2,"s":{"a":2,"v":null}}|{"id":3,"s":{"a":null,"v":"x"}}|'
  [ "$got" = "$want" ] || { echo "FAIL: --schema: got '$got' want '$want'"; fail=1; }
else
  echo "FAIL: --schema: $(cat "$tmp/err")"; fail=1
fi

# refusals: exit status, message, no output file
printf '%s\n' '{"s":{"v":1}}' '{"s":{"v":{"a":1,"b":{"a":2,"a":3}}}}' >"$tmp/dup.jsonl"
vc_refuse "key twice" 1 'line 2, column s: field s.v: not JSON for a VARIANT' --variant s.v "$tmp/dup.jsonl"
{ for i in $(seq 1 1100); do echo '{"s":{"v":{"a":1}}}'; done; echo '{"s":{"v":[{"x":1,"x":1}]}}'; } >"$tmp/dup2.jsonl"
vc_refuse "key twice after the samples" 1 'line 1101, column s: field s.v: not JSON for a VARIANT' --variant s.v "$tmp/dup2.jsonl"
printf '%s\n' '{"s":{"v":1}}' '{"s":{"v":"x" }' >"$tmp/syntax.jsonl"
vc_refuse "not JSON" 1 'line 2' --variant s.v "$tmp/syntax.jsonl"
printf '%s\n' '{"l":[{"v":1}]}' >"$tmp/list.jsonl"
# a path naming an object's field where the input has an array (l[].v is the way: test_variant_convert_list.sh)
vc_refuse "list" 1 "where the path names an object's field" --variant l.v "$tmp/list.jsonl"
vc_refuse "list element" 1 "where the path names an object's field" --variant l.element "$tmp/list.jsonl"
printf '%s\n' '{"s":{"v":1}}' '{"s":5}' >"$tmp/mixed.jsonl"
vc_refuse "s not an object" 2 '--variant s.v: s is kept as JSON text' --variant s.v "$tmp/mixed.jsonl"
printf '%s\n' '{"s":{"v":1}}' '{"s":{"v":2}}' >"$tmp/plain.jsonl"
vc_refuse "no such field" 2 '--variant s.q: no such field in the input' --variant s.q "$tmp/plain.jsonl"
vc_refuse "no such column" 2 '--variant q.v: no such column in the input' --variant q.v "$tmp/sch.jsonl"
vc_refuse "inside another" 2 'the same, or one inside the other' --variant s --variant s.v "$tmp/sch.jsonl"
vc_refuse "schema without the field" 2 '--variant q.v: no such column in --schema' --schema "$schema" --variant q.v "$tmp/sch.jsonl"
exit $fail
