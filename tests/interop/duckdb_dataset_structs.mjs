#!/usr/bin/env node
// Struct columns whose fields differ between the files of a dataset (a
// field added in a later file, fields in another order, a nested struct, an
// int32 field widened to int64, a list of structs), written by `parquetry
// convert`, read by `parquetry cat DIR` (and `cat -c s.a DIR`) and by
// DuckDB's read_parquet([...], union_by_name=true): the same rows with the
// same values, struct fields compared by name.
//   node tests/interop/duckdb_dataset_structs.mjs CLI WORKDIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB missing.
import fs from "node:fs";
import path from "node:path";
import { openDuckDB, runCli, sameRows, sortKeys } from "../../tools/duckdb_open.mjs";

const [cli, work] = process.argv.slice(2);
const { con } = await openDuckDB();
const dir = path.join(work, "ds");
fs.mkdirSync(dir, { recursive: true });
const files = [
  ["message m { optional int64 id; optional group s { optional int32 a; optional binary b (STRING); } }",
    ['{"id":1,"s":{"a":1,"b":"x"}}', '{"id":2,"s":null}', '{"id":3,"s":{"a":null,"b":"y"}}']],
  [null, ['{"id":4,"s":{"c":2.5,"a":7,"n":{"x":1}}}', '{"id":5,"s":{"a":null,"c":null,"n":null}}',
    '{"id":6,"s":{"b":"z","n":{"x":null}}}']],
  [null, ['{"id":7,"s":{"n":{"y":"q","x":9}},"l":[{"p":1},{"p":2,"q":"r"}]}', '{"id":8,"s":null,"l":[]}',
    '{"id":9,"s":{"a":8000000000},"l":null}']],
];
const paths = [];
files.forEach(([schema, rows], i) => {
  const src = path.join(work, `f${i}.jsonl`);
  fs.writeFileSync(src, rows.join("\n") + "\n");
  const out = path.join(dir, `f${i}.parquet`);
  const args = ["convert", ...(schema ? ["--schema", schema] : []), src, out];
  const conv = runCli(cli, args);
  if (conv.status !== 0) { console.log("FAIL convert: " + conv.stderr); process.exit(1); }
  paths.push(out);
});
// values with object keys sorted (struct fields compared by name), bigints as numbers
const norm = (v) => sortKeys(v, (x) => (x === null || x === undefined ? null : typeof x === "bigint" ? Number(x) : x));
const list = "[" + paths.map((p) => `'${p}'`).join(", ") + "]";
let failed = 0;
const cases = [
  ["all columns", [], `SELECT * FROM read_parquet(${list}, union_by_name=true) ORDER BY id`],
  ["-c id,s.a", ["-c", "id,s.a"],
    `SELECT id, CASE WHEN s IS NULL THEN NULL ELSE {'a': s.a} END AS s FROM read_parquet(${list}, union_by_name=true) ORDER BY id`],
  ["-c id,s.n.x", ["-c", "id,s.n.x"],
    `SELECT id, CASE WHEN s IS NULL THEN NULL ELSE {'n': CASE WHEN s.n IS NULL THEN NULL ELSE {'x': s.n.x} END} END AS s FROM read_parquet(${list}, union_by_name=true) ORDER BY id`],
];
for (const [name, args, sql] of cases) {
  let r;
  try {
    r = await con.runAndReadAll(sql);
  } catch (e) {
    console.log(`FAIL ${name}: DuckDB: ${e.message}`);
    failed++;
    continue;
  }
  const cols = r.columnNames();
  const rows = r.getRows().map((row) => {
    const o = {};
    cols.forEach((c, i) => { o[c] = row[i]; });
    return o;
  });
  const conv = (v) => {
    if (v && typeof v === "object" && "entries" in v && typeof v.entries === "object" && !Array.isArray(v.entries))
      return conv(v.entries);
    if (v && typeof v === "object" && "items" in v && Array.isArray(v.items)) return v.items.map(conv);
    if (Array.isArray(v)) return v.map(conv);
    if (v && typeof v === "object" && typeof v !== "bigint") {
      const o = {};
      for (const k of Object.keys(v)) o[k] = conv(v[k]);
      return o;
    }
    return v;
  };
  const wantRows = rows.map((o) => JSON.stringify(norm(conv(o))));
  const ours = runCli(cli, ["cat", ...args, dir]);
  if (ours.status !== 0) { console.log(`FAIL ${name}: parquetry: ${ours.stderr.trim()}`); failed++; continue; }
  const got = ours.stdout.trim().split("\n").map((l) => JSON.stringify(norm(JSON.parse(l))));
  if (!sameRows(name, got, wantRows)) failed++;
  else console.log(`ok ${name}: ${got.length} rows`);
}
process.exit(failed ? 1 : 0);
