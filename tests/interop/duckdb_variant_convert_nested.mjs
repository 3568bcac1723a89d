#!/usr/bin/env node
// DuckDB reads the VARIANT fields inside structs that `convert --variant
// s.v --variant s.t.w` writes from JSON Lines, unshredded and shredded at
// depths 1..3: `s.v::JSON` and `s.t.w::JSON` equal the input values after
// normalising both (parsed, keys sorted); a missing field, a missing or
// null s and a JSON null all read as NULL (DuckDB calls a Variant null
// "IS NULL" too, and prints both as JSON null).
//   node tests/interop/duckdb_variant_convert_nested.mjs CLI WORKDIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB missing.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { openDuckDB } from "../../tools/duckdb_open.mjs";

const [cli, work] = process.argv.slice(2);
const { con } = await openDuckDB();
fs.mkdirSync(work, { recursive: true });

let seed = 4114;
const rnd = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const keys = ["a", "b", "id", "name", "x y", "tags", "é", "z"];
function gen(depth) {
  switch (rnd(depth > 4 ? 6 : 9)) {
    case 0: return null;
    case 1: return rnd(2) === 1;
    case 2: return rnd(200) - 100;
    case 3: return rnd(2000000000) * 1000 - 7;
    case 4: return `s${rnd(50)}\t"q" é中`;
    case 5: return `k${rnd(9)}`;
    case 6: case 7: {
      const o = {};
      for (let i = rnd(5); i > 0; i--) o[keys[rnd(keys.length)]] = gen(depth + 1);
      return o;
    }
    default: {
      const a = [];
      for (let i = rnd(4); i > 0; i--) a.push(gen(depth + 1));
      return a;
    }
  }
}
const lines = [];
for (let i = 0; i < 1200; i++) {
  const r = { id: i };
  const m = i % 19;
  if (m === 2) r.s = null;
  else if (m !== 1) {
    const s = { a: i };
    if (m !== 3) s.v = i % 3 ? { id: i, name: `n${i}`, tags: ["t", i] } : gen(0);
    if (m !== 5) s.t = { w: i % 4 ? i : gen(1) };
    r.s = s;
  }
  lines.push(JSON.stringify(r));
}
const input = path.join(work, "in.jsonl");
fs.writeFileSync(input, lines.join("\n") + "\n");

const norm = (x) => {
  if (Array.isArray(x)) return x.map(norm);
  if (x && typeof x === "object") {
    const o = {};
    for (const k of Object.keys(x).sort()) o[k] = norm(x[k]);
    return o;
  }
  return x;
};
const text = (x) => (x === undefined || x === null ? null : JSON.stringify(norm(x)));
const want = new Map();
for (const l of lines) {
  const r = JSON.parse(l);
  want.set(r.id, [text(r.s?.v), text(r.s?.t?.w)]);
}
const got = (j) => (j === null || String(j) === "null" ? null : JSON.stringify(norm(JSON.parse(String(j)))));

let failed = 0;
for (const depth of [0, 1, 3]) {
  const out = path.join(work, `d${depth}.parquet`);
  const conv = spawnSync(cli, ["convert", "--variant", "s.v", "--variant", "s.t.w", "--variant-shred-depth", String(depth),
    "--row-group-size", "400", input, out], { encoding: "utf8" });
  if (conv.status !== 0) {
    console.log(`FAIL depth ${depth}: convert: ${conv.stderr}`);
    failed++;
    continue;
  }
  const shredded = spawnSync(cli, ["schema", out], { encoding: "utf8" }).stdout.includes("typed_value");
  if (shredded !== depth > 0) {
    console.log(`FAIL depth ${depth}: typed_value ${shredded ? "present" : "absent"}`);
    failed++;
  }
  const r = await con.runAndReadAll(`SELECT id, s.v::JSON, s.t.w::JSON FROM read_parquet('${out}') ORDER BY id`);
  const rows = r.getRows();
  let bad = 0;
  if (rows.length !== want.size) {
    console.log(`FAIL depth ${depth}: ${rows.length} rows, want ${want.size}`);
    bad++;
  }
  for (const [id, v, w] of rows) {
    const [wv, ww] = want.get(Number(id));
    const gv = got(v), gw = got(w);
    if (gv !== wv || gw !== ww) {
      if (bad++ < 3) console.log(`FAIL depth ${depth} id ${id}:\n  want ${wv} / ${ww}\n  got  ${gv} / ${gw}`);
    }
  }
  console.log(`depth ${depth}: ${rows.length} rows, ${bad} differ${shredded ? ", shredded" : ""}`);
  failed += bad ? 1 : 0;
}
process.exit(failed ? 1 : 0);
