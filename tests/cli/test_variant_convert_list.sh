#!/usr/bin/env bash
# convert --variant through JSON arrays: --variant 'items[]' (the same as
# the Parquet dotted path items.list.element) stores each element of the
# array column items as VARIANT (list<VARIANT>), and 'recs[].v' field v of
# each element object of recs (list<struct<v VARIANT>>), shredded by the
# types of the first rows (typed_value under the element at depth 2, none
# at depth 0); cat prints every row back equal to the input (empty, null
# and missing arrays, null elements, a missing v). Refused saying why: a
# path that names an object's field where the input has an array, [] not
# after a name, a path through a column that is not an array.
# Usage: CLI CORPUS_DIR
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 77; }

python3 - "$tmp/in.jsonl" <<'EOF2'
import json, random, sys
rnd = random.Random(1414)
keys = ["a", "b", "id", "name", "x y", "tags", "\u00e9"]
def gen(d):
    k = rnd.randrange(6 if d > 3 else 9)
    if k == 0: return None
    if k == 1: return rnd.random() < 0.5
    if k == 2: return rnd.randrange(-100, 100)
    if k == 3: return rnd.randrange(-2**40, 2**40)
    if k == 4: return "s%d\t\"q\" \\ \u00e9\u4e2d" % rnd.randrange(50)
    if k == 5: return "k%d" % rnd.randrange(9)
    if k in (6, 7): return {keys[rnd.randrange(len(keys))]: gen(d + 1) for _ in range(rnd.randrange(4))}
    return [gen(d + 1) for _ in range(rnd.randrange(4))]
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

check_rows() { # file label
  "$cli" cat "$1" >"$tmp/out.jsonl" 2>"$tmp/err" || { echo "FAIL: $2: cat: $(cat "$tmp/err")"; fail=1; return; }
  python3 - "$tmp/in.jsonl" "$tmp/out.jsonl" "$2" <<'EOF2' || fail=1
import json, sys
want = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
got = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
if len(got) != len(want):
    print("FAIL: %s: %d rows, want %d" % (sys.argv[3], len(got), len(want)))
    sys.exit(1)
bad = 0
for w, g in zip(want, got):
    recs = w.get("recs")
    exp = {"id": w["id"], "items": w.get("items"),
           "recs": None if recs is None else [{"v": x.get("v"), "w": x["w"]} for x in recs]}
    if exp != g:
        bad += 1
        if bad <= 3: print("FAIL: %s id %d:\n  want %s\n  got  %s" % (sys.argv[3], w["id"], json.dumps(exp)[:300], json.dumps(g)[:300]))
sys.exit(1 if bad else 0)
EOF2
}

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
    check_rows "$out" "depth $depth $spelling"
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
  check_rows "$tmp/s.parquet" "--schema"
else
  echo "FAIL: --schema: $(cat "$tmp/err")"; fail=1
fi

refused() { # label expected-text convert-args...
  local label=$1 want=$2
  shift 2
  if "$cli" convert "$@" "$tmp/bad.parquet" 2>"$tmp/err"; then echo "FAIL: $label: accepted"; fail=1; return; fi
  grep -q -- "$want" "$tmp/err" || { echo "FAIL: $label: $(cat "$tmp/err")"; fail=1; }
  [ -e "$tmp/bad.parquet" ] && { echo "FAIL: $label: wrote a file"; fail=1; }
  return 0
}
refused "object path through an array" "where the path names an object's field" --variant items.id "$tmp/in.jsonl"
refused "[] first" "follows a name" --variant '[]' "$tmp/in.jsonl"
refused "not an array" "is kept as JSON text" --variant 'id[]' "$tmp/in.jsonl"
exit $fail
