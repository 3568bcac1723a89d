#!/usr/bin/env node
// DuckDB reads VARIANT inside lists and maps as parquetry writes them
// (tests/unit/test_variant_list.c writes DIR/unshredded.parquet,
// DIR/shredded.parquet and DIR/want.jsonl, one JSON line per row: null for
// a null list, else the elements' values): `l::JSON` and the map's values
// (`map_values(m)::JSON`) equal the expected values after normalising both
// (parsed, keys sorted).
//   node tests/interop/duckdb_variant_list.mjs DIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB missing.
import fs from "node:fs";
import path from "node:path";
import { openDuckDB } from "../../tools/duckdb_open.mjs";

const [dir] = process.argv.slice(2);
const { con } = await openDuckDB();
const want = fs.readFileSync(path.join(dir, "want.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
const norm = (x) => {
  if (Array.isArray(x)) return x.map(norm);
  if (x && typeof x === "object") {
    const o = {};
    for (const k of Object.keys(x).sort()) o[k] = norm(x[k]);
    return o;
  }
  return x;
};
try {
  await con.runAndReadAll("SELECT 1::VARIANT");
} catch (e) {
  console.log(`SKIP: this DuckDB has no VARIANT: ${e}`);
  process.exit(3);
}
let bad = 0;
for (const name of ["unshredded", "shredded"]) {
  const f = path.join(dir, `${name}.parquet`).replaceAll("'", "''");
  let rows;
  try {
    const r = await con.runAndReadAll(
      `SELECT l::JSON AS l, map_values(m)::JSON AS m FROM read_parquet('${f}') ORDER BY file_row_number`,
    );
    rows = r.getRowObjectsJson();
  } catch (e) {
    console.log(`FAIL ${name}: ${e}`);
    process.exit(1);
  }
  if (rows.length !== want.length) {
    console.log(`FAIL ${name}: ${rows.length} rows, want ${want.length}`);
    bad++;
    continue;
  }
  let diff = 0;
  for (let i = 0; i < rows.length; i++) {
    const w = JSON.stringify(norm(want[i]));
    for (const c of ["l", "m"]) {
      const got = rows[i][c] === null ? "null" : JSON.stringify(norm(JSON.parse(rows[i][c])));
      if (got !== w && diff++ < 3) console.log(`FAIL ${name} row ${i} ${c}: got ${got} want ${w}`);
    }
  }
  if (diff) bad++;
  else console.log(`ok ${name}: ${rows.length} rows, l and m equal`);
}
process.exit(bad ? 1 : 0);
