# tests/cli/lib/variant_convert.sh: what the `convert --variant` tests
# (tests/cli/test_variant_convert_list.sh, test_variant_convert_nested.sh)
# share. Sourced; a folder below tests/cli/, so CMake's tests/cli/*.sh glob
# does not run it as a test.
#
#   vc_setup CLI                 sets cli, tmp (removed on exit) and fail=0;
#                                exits 77 (skipped) without python3
#   vc_python ARGS... <<'EOF'    python3 on the script given on stdin, with
#                                ARGS in sys.argv[1:] and, defined before it,
#                                json, random, sys and
#                                  make_gen(seed, keys, deep, max_keys):
#                                    (rnd, gen): gen(depth) a random JSON
#                                    value (null, booleans, small and large
#                                    integers, strings with tabs, quotes, a
#                                    backslash and non-ASCII text, objects
#                                    of up to max_keys - 1 of keys, arrays),
#                                    scalars only below depth `deep`
#                                  compare_rows(want, got, label, expect):
#                                    every line of the JSON Lines file got
#                                    equals expect(its line of want);
#                                    prints the first 3 differences, exits
#                                    1 on any (or on another row count)
#   vc_check_rows FILE LABEL     `cat FILE` equals $tmp/in.jsonl row for row
#                                through the Python function expect(row)
#                                that $vc_expect defines; fail=1 when not
#   vc_refuse LABEL STATUS TEXT ARGS...
#                                `convert ARGS $tmp/x.parquet` exits STATUS,
#                                says TEXT (a fixed string) on stderr and
#                                leaves no file; fail=1 when not
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # fail is the caller's; vc_expect is set by the caller
vc_setup() {
  cli=$1
  tmp=$(mktemp -d)
  # shellcheck disable=SC2064 # the folder's name is fixed now
  trap "rm -rf '$tmp'" EXIT
  fail=0
  command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 77; }
}

vc_prelude=$(cat <<'PY'
import json, random, sys

def make_gen(seed, keys, deep, max_keys):
    rnd = random.Random(seed)
    def gen(d):
        k = rnd.randrange(6 if d > deep else 9)
        if k == 0: return None
        if k == 1: return rnd.random() < 0.5
        if k == 2: return rnd.randrange(-100, 100)
        if k == 3: return rnd.randrange(-2**40, 2**40)
        if k == 4: return "s%d\t\"q\" \\ \u00e9\u4e2d" % rnd.randrange(50)
        if k == 5: return "k%d" % rnd.randrange(9)
        if k in (6, 7): return {keys[rnd.randrange(len(keys))]: gen(d + 1) for _ in range(rnd.randrange(max_keys))}
        return [gen(d + 1) for _ in range(rnd.randrange(4))]
    return rnd, gen

def compare_rows(want_path, got_path, label, expect):
    want = [json.loads(l) for l in open(want_path, encoding="utf-8")]
    got = [json.loads(l) for l in open(got_path, encoding="utf-8")]
    if len(got) != len(want):
        print("FAIL: %s: %d rows, want %d" % (label, len(got), len(want)))
        sys.exit(1)
    bad = 0
    for w, g in zip(want, got):
        exp = expect(w)
        if exp != g:
            bad += 1
            if bad <= 3: print("FAIL: %s id %d:\n  want %s\n  got  %s" % (label, w["id"], json.dumps(exp)[:300], json.dumps(g)[:300]))
    sys.exit(1 if bad else 0)
PY
)

vc_python() {
  python3 -c "$vc_prelude
$(cat)" "$@"
}

vc_check_rows() { # file label
  "$cli" cat "$1" >"$tmp/out.jsonl" 2>"$tmp/err" || { echo "FAIL: $2: cat: $(cat "$tmp/err")"; fail=1; return; }
  vc_python "$tmp/in.jsonl" "$tmp/out.jsonl" "$2" <<PY || fail=1
$vc_expect
compare_rows(sys.argv[1], sys.argv[2], sys.argv[3], expect)
PY
}

vc_refuse() { # label expected-status message-part args...
  local label=$1 st=$2 msg=$3
  shift 3
  rm -f "$tmp/x.parquet"
  "$cli" convert "$@" "$tmp/x.parquet" >/dev/null 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne "$st" ] || ! grep -qF -- "$msg" "$tmp/err" || [ -e "$tmp/x.parquet" ]; then
    echo "FAIL: $label: rc=$rc (want $st) '$(cat "$tmp/err")' (want '$msg')"; fail=1
  fi
}
