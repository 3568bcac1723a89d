#!/usr/bin/env bash
# convert --variant through JSON arrays: --variant 'items[]' (the same as
# the Parquet dotted path items.list.element) stores each element of the
# array column items as VARIANT (list<VARIANT>), and 'recs[].v' field v of
# each element object of recs (list<struct<v VARIANT>>), shredded by the
# types of the first rows (typed_value under the element at depth 2, none
# at depth 0); cat prints every row back equal to the input (empty, null
# and missing arrays, null elements, a missing v). Refused saying why: a
# path that names an object's field where the input has an array, [] not
# after a name, a path through a column that is not an array (exit 1 for
# the data, 2 for the arguments).
# Usage: CLI CORPUS_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib/variant_convert.sh"
vc_setup "$1"

vc_python "$tmp/in.jsonl" <<'EOF2'
rnd, gen = make_gen(1414, ["a", "b", "id", "name", "x y", "tags", "\u00e9"], 3, 4)
with open(sys.argv[1], "w") as f:
    for i in range(1500):
        r = {"id": i}
        m = i % 17
        if m == 1: pass                       # no items
        elif m == 2: r["items"] = None        # null items
        elif m == 3: r["items"] = []          # empty
        else:                                 # mostly objects of one shape (shredded), then anything
            r["items"] = [{"id": i, "name": "n%d" % j} if (i + j) % 4 else gen(0) for j in range(rnd.randrange(1, 5))]
        if m != 5:
            r["recs"] = [({"v": gen(0) if j % 3 else i, "w": j} if (m != 6 or j) else {"w": j}) for j in range(rnd.randrange(3))]
        f.write(json.dumps(r, ensure_ascii=False) + "\n")
EOF2

# cat's rows equal the input's: a missing items null, v missing in an element null
vc_expect='
def expect(w):
    recs = w.get("recs")
    return {"id": w["id"], "items": w.get("items"),
            "recs": None if recs is None else [{"v": x.get("v"), "w": x["w"]} for x in recs]}'

for depth in 0 2; do
  for spelling in brackets dotted; do
    if [ $spelling = brackets ]; then a='items[]'; b='recs[].v'; else a=items.list.element; b=recs.list.element.v; fi
    out="$tmp/d$depth-$spelling.parquet"
    if ! "$cli" convert --variant "$a" --variant "$b" --variant-shred-depth $depth --row-group-size 400 \
        "$tmp/in.jsonl" "$out" 2>"$tmp/err"; then
      echo "FAIL: depth $depth $spelling: convert: $(cat "$tmp/err")"; fail=1; continue
    fi
    "$cli" schema "$out" >"$tmp/schema"
    n_var=$(grep -c '(VARIANT)' "$tmp/schema")
    [ "$n_var" = 2 ] || { echo "FAIL: depth $depth: $n_var VARIANT groups, want 2"; cat "$tmp/schema"; fail=1; }
    grep -q 'optional group element (VARIANT)' "$tmp/schema" ||
      { echo "FAIL: depth $depth: items' element is not a VARIANT group"; fail=1; }
    grep -q 'optional group v (VARIANT)' "$tmp/schema" || { echo "FAIL: depth $depth: recs' v is not VARIANT"; fail=1; }
    n_typed=$(grep -c 'typed_value' "$tmp/schema")
    if [ $depth = 0 ] && [ "$n_typed" != 0 ]; then echo "FAIL: depth 0 is shredded"; fail=1; fi
    if [ $depth = 2 ]; then
      grep -q 'required group id' "$tmp/schema" ||
        { echo "FAIL: depth 2: items' elements are not shredded by their fields"; cat "$tmp/schema"; fail=1; }
    fi
    vc_check_rows "$out" "depth $depth $spelling"
  done
done
# both spellings write the same file
cmp -s "$tmp/d2-brackets.parquet" "$tmp/d2-dotted.parquet" || { echo "FAIL: items[] and items.list.element differ"; fail=1; }

# with --schema: the list's element declared as a VARIANT group {metadata; value} (unshredded)
sch='message m { optional int64 id; optional group items (LIST) { repeated group list {
  optional group element (VARIANT) { required binary metadata; required binary value; } } }
  optional group recs (LIST) { repeated group list { optional group element {
  optional group v (VARIANT) { required binary metadata; required binary value; } optional int64 w; } } } }'
if "$cli" convert --schema "$sch" --variant 'items[]' --variant recs.list.element.v "$tmp/in.jsonl" "$tmp/s.parquet" \
    2>"$tmp/err"; then
  vc_check_rows "$tmp/s.parquet" "--schema"
else
  echo "FAIL: --schema: $(cat "$tmp/err")"; fail=1
fi

vc_refuse "object path through an array" 1 "where the path names an object's field" --variant items.id "$tmp/in.jsonl"
vc_refuse "[] first" 2 "follows a name" --variant '[]' "$tmp/in.jsonl"
vc_refuse "not an array" 2 "is kept as JSON text" --variant 'id[]' "$tmp/in.jsonl"
exit $fail
