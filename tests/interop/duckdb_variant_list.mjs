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
import { openDuckDB, queryJson, requireVariant, sameRows, sortedJson, sqlString } from "../../tools/duckdb_open.mjs";

const [dir] = process.argv.slice(2);
const { con } = await openDuckDB();
const want = fs.readFileSync(path.join(dir, "want.jsonl"), "utf8").trim().split("\n").map((l) => sortedJson(JSON.parse(l)));
await requireVariant(con);
let bad = 0;
for (const name of ["unshredded", "shredded"]) {
  const f = sqlString(path.join(dir, `${name}.parquet`));
  let rows;
  try {
    rows = await queryJson(con, `SELECT l::JSON AS l, map_values(m)::JSON AS m FROM read_parquet(${f}) ORDER BY file_row_number`);
  } catch (e) {
    console.log(`FAIL ${name}: ${e}`);
    process.exit(1);
  }
  let same = true;
  for (const c of ["l", "m"]) {
    const got = rows.map((r) => (r[c] === null ? "null" : sortedJson(JSON.parse(r[c]))));
    same = sameRows(`${name} ${c}`, got, want, { show: 3, gotName: "got", wantName: "want" }) && same;
  }
  if (!same) bad++;
  else console.log(`ok ${name}: ${rows.length} rows, l and m equal`);
}
process.exit(bad ? 1 : 0);
