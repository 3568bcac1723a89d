#!/usr/bin/env node
// DuckDB reads the lists of VARIANT that `convert --variant 'items[]'
// --variant 'recs[].v'` writes from JSON Lines, unshredded and shredded at
// depth 2: `items::JSON` and `recs::JSON` equal the input values after
// normalising both (parsed, keys sorted); a missing v reads as null.
//   node tests/interop/duckdb_variant_convert_list.mjs CLI WORKDIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB missing.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { openDuckDB } from "../../tools/duckdb_open.mjs";

const [cli, work] = process.argv.slice(2);
const { con } = await openDuckDB();
try {
  await con.runAndReadAll("SELECT 1::VARIANT");
} catch (e) {
  console.log(`SKIP: this DuckDB has no VARIANT: ${e}`);
  process.exit(3);
}
fs.mkdirSync(work, { recursive: true });

let seed = 1414;
const rnd = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const keys = ["a", "b", "id", "name", "x y", "tags", "é"];
function gen(depth) {
  switch (rnd(depth > 3 ? 6 : 9)) {
    case 0: return null;
    case 1: return rnd(2) === 1;
    case 2: return rnd(200) - 100;
    case 3: return rnd(2000000000) * 1000 - 7;
    case 4: return `s${rnd(50)}\t"q" é中`;
    case 5: return `k${rnd(9)}`;
    case 6: case 7: {
      const o = {};
      for (let i = rnd(4); i > 0; i--) o[keys[rnd(keys.length)]] = gen(depth + 1);
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
  const m = i % 17;
  if (m === 2) r.items = null;
  else if (m === 3) r.items = [];
  else if (m !== 1) {
    r.items = [];
    for (let j = 1 + rnd(4); j > 0; j--) r.items.push((i + j) % 4 ? { id: i, name: `n${j}` } : gen(0));
  }
  if (m !== 5) {
    r.recs = [];
    for (let j = 0, n = rnd(3); j < n; j++) r.recs.push(m === 6 && j === 0 ? { w: j } : { v: j % 3 ? gen(0) : i, w: j });
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
  want.set(r.id, [text(r.items), text(r.recs?.map((x) => ({ v: x.v ?? null, w: x.w })))]);
}
const got = (j) => (j === null || String(j) === "null" ? null : JSON.stringify(norm(JSON.parse(String(j)))));

let failed = 0;
for (const depth of [0, 2]) {
  const out = path.join(work, `d${depth}.parquet`);
  const conv = spawnSync(cli, ["convert", "--variant", "items[]", "--variant", "recs[].v", "--variant-shred-depth",
    String(depth), "--row-group-size", "400", input, out], { encoding: "utf8" });
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
  const r = await con.runAndReadAll(`SELECT id, items::JSON, recs::JSON FROM read_parquet('${out}') ORDER BY id`);
  const rows = r.getRows();
  let bad = 0;
  if (rows.length !== want.size) {
    console.log(`FAIL depth ${depth}: ${rows.length} rows, want ${want.size}`);
    bad++;
  }
  for (const [id, items, recs] of rows) {
    const [wi, wr] = want.get(Number(id));
    const gi = got(items), gr = got(recs);
    if (gi !== wi || gr !== wr) {
      if (bad++ < 3) console.log(`FAIL depth ${depth} id ${id}:\n  want ${wi} / ${wr}\n  got  ${gi} / ${gr}`);
    }
  }
  console.log(`depth ${depth}: ${rows.length} rows, ${bad} differ${shredded ? ", shredded" : ""}`);
  failed += bad ? 1 : 0;
}
process.exit(failed ? 1 : 0);
