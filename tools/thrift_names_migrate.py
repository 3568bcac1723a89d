#!/usr/bin/env python3
"""Replace numeric Thrift field ids and isset masks with named, typed forms.

    tools/thrift_names_migrate.py [--dry-run] [-p BUILD_DIR] [FILE...]

With no FILE, every .c/.h under src/ cli/ tests/ fuzz/ (except the field
lists and the descriptor tables themselves). Rewrites, in place:

    PQT_HAS(x, 8)                 -> PQT_HAS_FIELD(x, column_chunk, crypto_metadata)
    PQT_SET(x, PQT_LT_DECIMAL)    -> PQT_SET_FIELD(x, logical_type, decimal)
    y.isset = (1u << 1) | (1u << 2) -> y.isset = PQT_FIELD_MASK(int_type, bit_width, is_signed)
    y.isset &= ~(1u << 11)        -> y.isset &= ~PQT_FIELD_MASK(column_metadata, dictionary_page_offset)
    y.isset |= 0xF << 1, y.isset = 6, CHECK_EQ_INT(y.isset, 1u << 1), ...

The struct of each site is not guessed from variable names: the tool asks
the compiler. It writes a probe copy of the file next to it in which every
site's object is accessed as `->pqt_probe_<n>` (or `.pqt_probe_<n>`), runs
`cc -fsyntax-only`, and reads the struct type from each "'pqt_X' has no
member named 'pqt_probe_<n>'" diagnostic. Field names come from the lists in
src/thrift/parquet_fields.h. Only the matched text is replaced (no
reformatting), so edits stay line-local. Sites it cannot resolve (struct not
from parquet.thrift, a bit that is no field, an id held in a variable) are
listed at the end for a hand edit; exit status 1 if any numeric site is left.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP = {
    "src/thrift/parquet_fields.h",
    "src/thrift/parquet_desc.c",
    "src/thrift/parquet_types.h",
}
ALIASES = {  # named union member constants of parquet_types.h
    "PQT_LT_": "logical_type",
    "PQT_TIME_UNIT_": "time_unit",
    "PQT_ORDER_": "column_order",
}


def load_lists():
    text = open(os.path.join(ROOT, "src/thrift/parquet_fields.h")).read()
    lists = {}
    for m in re.finditer(r"#define PQT_FIELDS_(\w+)\(X, S\)((?:.*\\\n)*.*)", text):
        fields = {}
        for row in re.finditer(r"X\(S, (\w+), (\d+),", m.group(2)):
            fields[int(row.group(2))] = row.group(1)
        lists[m.group(1)] = fields
    lists["timestamp_type"] = lists["time_type"]
    return lists


def alias_ids(lists):
    text = open(os.path.join(ROOT, "src/thrift/parquet_types.h")).read()
    out = {}
    for m in re.finditer(r"\b(PQT_(?:LT|TIME_UNIT|ORDER)_\w+) = PQT_FID_(\w+)", text):
        name, fid = m.group(1), m.group(2)
        for prefix, ns in ALIASES.items():
            if name.startswith(prefix) and fid.startswith(ns + "_"):
                out[name] = (ns, fid[len(ns) + 1:])
    return out


def match_paren(s, i):
    """s[i] == '(' -> index of the matching ')' (or -1)."""
    depth = 0
    while i < len(s):
        c = s[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        elif c == '"' or c == "'":
            j = i + 1
            while j < len(s) and s[j] != c:
                j += 2 if s[j] == "\\" else 1
            i = j
        i += 1
    return -1


def split_top(s):
    """Split macro arguments at top-level commas."""
    parts, depth, cur = [], 0, ""
    for c in s:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return parts


MASK_TOK = re.compile(r"\s*(\(|\)|\||<<|0[xX][0-9a-fA-F]+[uU]?|\d+[uU]?)")
MASK_END = re.compile(r"\s*(;|\)|,|&&|\|\||\?|:|$)")


def parse_mask(s, i):
    """Parse a constant isset mask starting at s[i]: returns (start, end, neg, value) or None."""
    m = re.compile(r"\s*").match(s, i)
    i = m.end()
    start = i
    neg = False
    if i < len(s) and s[i] == "~":
        neg = True
        i += 1
    body_start = i
    depth = 0
    toks = []
    while True:
        m = MASK_TOK.match(s, i)
        if not m:
            break
        t = m.group(1)
        if t == ")":
            if depth == 0:
                break
            depth -= 1
        elif t == "(":
            depth += 1
        toks.append(t)
        i = m.end()
    if not toks or depth != 0:
        return None
    if not any(re.match(r"\d|0[xX]", t) for t in toks):
        return None
    if not MASK_END.match(s, i):
        return None
    expr = "".join(" " + re.sub(r"[uU]$", "", t) + " " for t in toks)
    try:
        value = eval(expr, {"__builtins__": {}})  # digits, parens, | and << only
    except Exception:
        return None
    if not isinstance(value, int) or value <= 0:
        return None
    end = i
    while end > body_start and s[end - 1].isspace():
        end -= 1
    return (start, end, neg, body_start, value)


def find_sites(text, aliases):
    """Sites: dicts with kind, span, object text (for the probe) and data."""
    sites = []
    for m in re.finditer(r"(?<![\w])PQT_(HAS|SET)\(", text):
        open_i = m.end() - 1
        close_i = match_paren(text, open_i)
        if close_i < 0:
            continue
        args = split_top(text[open_i + 1:close_i])
        if len(args) != 2:
            continue
        obj, idt = args[0], args[1].strip()
        if re.fullmatch(r"\d+", idt):
            ident = int(idt)
        elif idt in aliases:
            ident = idt
        else:
            continue
        sites.append({"kind": "call", "op": m.group(1), "start": m.start(), "end": close_i + 1,
                      "obj": obj, "id": ident, "probe_span": (m.start(), close_i + 1)})
    for m in re.finditer(r"(\.|->)\s*isset\b", text):
        tok_start = m.end() - len("isset")
        j = m.end()
        op = re.compile(r"\s*(\|=|&=|\^=|==|!=|=(?!=)|,)").match(text, j)
        if not op:
            continue
        pm = parse_mask(text, op.end())
        if not pm:
            continue
        start, end, neg, body_start, value = pm
        sites.append({"kind": "mask", "start": body_start, "end": end, "value": value,
                      "probe_span": (tok_start, m.end())})
    return sites


def compile_flags(path, build):
    cc, flags = "cc", ["-std=c11", "-D_DEFAULT_SOURCE", "-D_POSIX_C_SOURCE=200809L",
                       "-I" + os.path.join(ROOT, "include"), "-I" + os.path.join(ROOT, "src"),
                       "-I" + os.path.join(ROOT, "tests")]
    db = os.path.join(build, "compile_commands.json") if build else None
    if db and os.path.exists(db):
        for e in json.load(open(db)):
            if os.path.abspath(e["file"]) == os.path.abspath(path):
                args = shlex.split(e["command"]) if "command" in e else e["arguments"]
                cc = args[0]
                flags = [a for a in args[1:] if a.startswith(("-I", "-D", "-std="))] + flags
                break
    return cc, flags


def probe_types(path, text, sites, build):
    """Fill site['type'] with the C struct name the compiler reports."""
    edits = sorted(((s["probe_span"], k) for k, s in enumerate(sites)), reverse=True)
    probe = text
    for (a, b), k in edits:
        s = sites[k]
        if s["kind"] == "call":
            probe = probe[:a] + "((%s)->pqt_probe_%d)" % (s["obj"], k) + probe[b:]
        else:
            probe = probe[:a] + "pqt_probe_%d" % k + probe[b:]
    d, base = os.path.split(path)
    ppath = os.path.join(d, ".thrift_probe_" + base + (".c" if path.endswith(".c") else ".h"))
    cc, flags = compile_flags(path, build)
    try:
        open(ppath, "w").write(probe)
        r = subprocess.run([cc, "-fsyntax-only", "-fmax-errors=0", "-w", "-x", "c"] + flags + [ppath],
                           capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
    finally:
        os.unlink(ppath)
    for m in re.finditer(r"'(?:const )?(\w+)'(?: \{aka '[^']*'\})? has no member named 'pqt_probe_(\d+)'",
                         r.stderr):
        sites[int(m.group(2))]["type"] = m.group(1)


def migrate(path, lists, aliases, build, dry):
    text = open(path).read()
    sites = find_sites(text, aliases)
    if not sites:
        return 0, []
    probe_types(path, text, sites, build)
    left = []
    out = text
    n = 0
    for s in sorted(sites, key=lambda s: s["start"], reverse=True):
        line = text.count("\n", 0, s["start"]) + 1
        t = s.get("type", "")
        ns = t[4:] if t.startswith("pqt_") else None
        fields = lists.get(ns) if ns else None
        if not fields:
            if s["kind"] == "mask" or isinstance(s["id"], int):
                left.append("%s:%d: %s (struct %s unknown)" % (path, line, text[s["start"]:s["end"]], t or "?"))
            continue
        if s["kind"] == "call":
            if isinstance(s["id"], str):
                ans, fname = aliases[s["id"]]
                if ans != ns:
                    left.append("%s:%d: %s names a %s member on a %s" % (path, line, s["id"], ans, t))
                    continue
            else:
                fname = fields.get(s["id"])
            if not fname:
                left.append("%s:%d: field id %s is no field of %s" % (path, line, s["id"], t))
                continue
            rep = "PQT_%s_FIELD(%s, %s, %s)" % (s["op"], s["obj"], ns, fname)
        else:
            bits = [b for b in range(32) if s["value"] >> b & 1]
            if any(b not in fields for b in bits):
                left.append("%s:%d: mask %s has bits that are no field of %s" % (path, line, hex(s["value"]), t))
                continue
            rep = "PQT_FIELD_MASK(%s, %s)" % (ns, ", ".join(fields[b] for b in bits))
        out = out[:s["start"]] + rep + out[s["end"]:]
        n += 1
    if n and not dry:
        open(path, "w").write(out)
    return n, left


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("-p", "--build", default=os.path.join(ROOT, "build/asan"),
                    help="build dir with compile_commands.json (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)")
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    files = a.files
    if not files:
        for top in ("src", "cli", "tests", "fuzz"):
            for d, _, names in os.walk(os.path.join(ROOT, top)):
                for nm in sorted(names):
                    p = os.path.join(d, nm)
                    if nm.endswith((".c", ".h")) and os.path.relpath(p, ROOT) not in SKIP:
                        files.append(p)
    lists = load_lists()
    aliases = alias_ids(lists)
    total, left = 0, []
    for f in files:
        n, l = migrate(f, lists, aliases, a.build, a.dry_run)
        if n:
            print("%s: %d site(s) %s" % (os.path.relpath(f, ROOT), n, "found" if a.dry_run else "rewritten"))
        total += n
        left += l
    print("total: %d" % total)
    for l in left:
        print("left for a hand edit: " + l)
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
