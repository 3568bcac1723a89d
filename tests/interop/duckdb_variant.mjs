#!/usr/bin/env node
// parquetry reads the VARIANT columns DuckDB writes (DuckDB 1.5 shreds them:
// typed_value objects, lists, primitives, with `value` for the rest) with
// the values DuckDB reads back (`SELECT v::JSON`): objects with fields
// missing, null or of another type than the shredded one, arrays, nested
// objects, numbers, strings, booleans, decimals, dates; objects DuckDB
// writes with their field ids out of name order; each row of
// `parquetry cat` equals DuckDB's JSON as a value (numbers compared as
// numbers; a DECIMAL, which cat prints as a string, compared by value).
//   node tests/interop/duckdb_variant.mjs CLI WORKDIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB missing or without VARIANT.
import fs from "node:fs";
import path from "node:path";
import { firstLine, openDuckDB, queryRows, runCli, sqlString as sqlStr } from "../../tools/duckdb_open.mjs";

const [cli, work] = process.argv.slice(2);
const { con } = await openDuckDB();
fs.mkdirSync(work, { recursive: true });

// JSON texts, varied so that DuckDB shreds some paths and leaves others in `value`.
const docs = [];
for (let i = 0; i < 300; i++) {
  switch (i % 10) {
    case 0: docs.push(JSON.stringify({ a: i, b: `s${i}`, c: [1, 2.5, null], d: { x: i * 2, y: "yy" } })); break;
    case 1: docs.push(JSON.stringify({ a: i, b: null, c: [], d: { x: -i } })); break;
    case 2: docs.push(JSON.stringify({ a: "not an int", c: ["str", { k: true }], extra: false })); break;
    case 3: docs.push(JSON.stringify(i)); break;
    case 4: docs.push(JSON.stringify(`plain ${i}`)); break;
    case 5: docs.push("null"); break;
    case 6: docs.push(JSON.stringify([i, "two", [3, [4]], { z: null }])); break;
    case 7: docs.push(JSON.stringify({ a: 1.25 * i, d: "d is a string here", e: { f: { g: [i] } } })); break;
    case 8: docs.push(JSON.stringify({})); break;
    default: docs.push(JSON.stringify({ a: -9007199254740991, b: "unicode é 😀", c: [true, false] })); break;
  }
}
const values = docs.map((d, i) => `(${i}, ${sqlStr(d)})`).join(",");
const cases = [
  ["json", `SELECT id, (CASE WHEN id % 23 = 0 THEN NULL ELSE j END)::JSON::VARIANT AS v FROM (VALUES ${values}) t(id, j)`],
  ["typed", `SELECT i AS id, (CASE i % 5 WHEN 0 THEN (i / 8)::DECIMAL(10,3)::VARIANT WHEN 4 THEN (DATE '2024-01-30' + i::INTEGER)::VARIANT
       WHEN 1 THEN [i, i + 1]::VARIANT WHEN 2 THEN ('t' || i)::VARIANT ELSE (i * 0.5)::DOUBLE::VARIANT END) AS v FROM range(200) r(i)`],
  // STRUCT cast to VARIANT, shredded as an object: equal values.
  ["struct", `SELECT i AS id, {'n': i, 'dec': (i / 8)::DECIMAL(10,3), 'day': DATE '2024-01-30' + i::INTEGER}::VARIANT AS v FROM range(50) r(i)`],
  // ... beside other kinds, so kept whole in `value`: DuckDB 1.5.6 writes the
  // object's field ids in the struct's order, not in name order as the
  // encoding requires. parquetry reads them (as parquet-java and Spark do,
  // with a lookup that does not rely on the order) and hands them out in
  // name order; nested ones too.
  ["struct_mixed", `SELECT i AS id, (CASE i % 4 WHEN 0 THEN {'n': i, 'dec': (i / 8)::DECIMAL(10,3), 'day': DATE '2024-01-30' + i::INTEGER}::VARIANT
       WHEN 1 THEN [i, i + 1]::VARIANT WHEN 2 THEN ('t' || i)::VARIANT ELSE (i * 0.5)::DOUBLE::VARIANT END) AS v FROM range(200) r(i)`],
  ["struct_nested", `SELECT i AS id, (CASE i % 3 WHEN 0 THEN {'z': i, 'm': {'y': 't' || i, 'b': [{'q': i, 'c': 2}]}, 'a': NULL}::VARIANT
       WHEN 1 THEN ('t' || i)::VARIANT ELSE [{'k': i, 'e': true}]::VARIANT END) AS v FROM range(120) r(i)`],
];
// The same documents with every value kept whole in `value` (SHREDDING to
// BLOB, a type none of them has: DuckDB 1.5.6 always writes a typed_value
// column, here one that is null in every row), so parquetry reads them
// through the unshredded path.
const unshredded = new Set(["json_unshredded", "struct_mixed_unshredded", "struct_nested_unshredded"]);
for (const [name, query] of cases.slice()) if (unshredded.has(`${name}_unshredded`)) cases.push([`${name}_unshredded`, query]);

let fail = 0;
const near = (x, y) => x === y || Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
// parquetry hands objects out with their field ids in name order, and cat
// prints keys in the encoding's order (no key here is an array index, so
// JSON.parse keeps that order).
function keysInNameOrder(x) {
  if (x === null || typeof x !== "object") return true;
  if (Array.isArray(x)) return x.every(keysInNameOrder);
  const k = Object.keys(x);
  const bytes = (s) => Buffer.from(s, "utf8");
  return k.every((key, n) => n === 0 || Buffer.compare(bytes(k[n - 1]), bytes(key)) < 0) && k.every((key) => keysInNameOrder(x[key]));
}
function same(a, b) {
  if (typeof a === "number" && typeof b === "string" && b.trim() !== "" && !isNaN(Number(b))) return near(a, Number(b));
  if (typeof b === "number" && typeof a === "string" && a.trim() !== "" && !isNaN(Number(a))) return near(Number(a), b);
  if (typeof a === "number" && typeof b === "number") return near(a, b);
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, k) => same(x, b[k]));
  const ka = Object.keys(a).sort(), kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, n) => k === kb[n] && same(a[k], b[k]));
}

for (const [name, query] of cases) {
  const file = path.join(work, `${name}.parquet`);
  try {
    const opts = unshredded.has(name) ? ", SHREDDING {v: 'BLOB'}" : "";
    await con.run(`COPY (${query}) TO ${sqlStr(file)} (FORMAT parquet${opts})`);
  } catch (e) {
    console.log(`SKIP: DuckDB cannot write VARIANT (${firstLine(e)})`);
    process.exit(3);
  }
  const rows = await queryRows(con, `SELECT id, v::JSON FROM read_parquet(${sqlStr(file)}) ORDER BY id`);
  const schema = runCli(cli, ["schema", file]).stdout;
  const shredded = /typed_value/.test(schema);
  const out = runCli(cli, ["cat", file]);
  if (out.status !== 0) {
    console.log(`FAIL ${name}: parquetry cat exit ${out.status}: ${out.stderr}`);
    fail = 1;
    continue;
  }
  const ours = new Map(out.stdout.trim().split("\n").map((l) => JSON.parse(l)).map((r) => [Number(r.id), r.v]));
  let bad = 0;
  for (const [id, j] of rows) {
    let want = null;
    if (j !== null) {
      try {
        /* DuckDB 1.5.6 prints a DECIMAL below 1 without its leading 0 (".500"), inside objects too */
        want = JSON.parse(j.replace(/([:\[,]\s*-?)\.(\d)/g, (_, pre, d) => `${pre}0.${d}`));
      } catch {
        want = Number(j); /* DuckDB 1.5.6 prints DECIMAL 0.000 as ".000" */
        if (isNaN(want)) want = j;
      }
    }
    const got = ours.get(Number(id));
    if (!keysInNameOrder(got)) {
      if (bad++ < 5) console.log(`FAIL ${name} row ${id}: parquetry's object keys are not in name order: ${JSON.stringify(got)}`);
      continue;
    }
    if (!ours.has(Number(id)) || !same(got, want)) {
      if (bad++ < 5) console.log(`FAIL ${name} row ${id}: parquetry ${JSON.stringify(got)} duckdb ${JSON.stringify(want)}`);
    }
  }
  if (ours.size !== rows.length) {
    console.log(`FAIL ${name}: parquetry ${ours.size} rows, duckdb ${rows.length}`);
    bad++;
  }
  if (bad) fail = 1;
  const how = unshredded.has(name) ? "every value in value" : shredded ? "shredded" : "unshredded";
  console.log(`${bad ? "FAIL" : "ok"}: ${name}: ${rows.length} rows (${how} by DuckDB), ${bad} differ`);
}
process.exit(fail);
