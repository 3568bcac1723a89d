#!/usr/bin/env node
// DuckDB reads what parquetry writes from the shredded Arrow form
// (tests/conformance/test_variant_shredded_write.c writes DIR/pairs.txt, one
// line per case: the corpus file and parquetry's rewrite of it, tab
// separated): `var::JSON` of every row of the rewrite equals DuckDB's
// reading of the corpus file (parsed, keys sorted). A corpus file DuckDB
// cannot read itself is counted and left out.
//   node tests/interop/duckdb_variant_shredded_write.mjs DIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB missing.
import fs from "node:fs";
import path from "node:path";
import { openDuckDB, queryJson, requireVariant, sameRows, sortedJson, sqlString } from "../../tools/duckdb_open.mjs";

const [dir] = process.argv.slice(2);
let { con } = await openDuckDB();
await requireVariant(con);
// a fatal error on one file (DuckDB's, on some corpus files) invalidates the
// database: every file is read on a fresh one
const read = async (f) => {
  ({ con } = await openDuckDB());
  const rows = await queryJson(con, `SELECT var::JSON AS v FROM read_parquet(${sqlString(f)}) ORDER BY file_row_number`);
  return rows.map((row) => (row.v === null ? "null" : sortedJson(JSON.parse(row.v))));
};
const pairs = fs.readFileSync(path.join(dir, "pairs.txt"), "utf8").trim().split("\n").map((l) => l.split("\t"));
let bad = 0, same = 0, skipped = 0;
for (const [orig, written] of pairs) {
  let want;
  try {
    want = await read(orig);
  } catch (e) {
    if (process.env.PQT_TEST_VERBOSE) console.log(`skip ${path.basename(orig)}: ${e}`);
    skipped++;
    continue;
  }
  let got;
  try {
    got = await read(written);
  } catch (e) {
    console.log(`FAIL ${path.basename(written)}: DuckDB cannot read it: ${e}`);
    bad++;
    continue;
  }
  if (sameRows(path.basename(written), got, want, { gotName: "got", wantName: "want" })) same++;
  else bad++;
}
console.log(`${same} rewritten files read equal by DuckDB, ${bad} differ, ${skipped} originals DuckDB does not read`);
process.exit(bad || same === 0 ? 1 : 0);
