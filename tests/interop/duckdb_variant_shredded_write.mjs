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
import { openDuckDB } from "../../tools/duckdb_open.mjs";

const [dir] = process.argv.slice(2);
let { con } = await openDuckDB();
try {
  await con.runAndReadAll("SELECT 1::VARIANT");
} catch (e) {
  console.log(`SKIP: this DuckDB has no VARIANT: ${e}`);
  process.exit(3);
}
const norm = (x) => {
  if (Array.isArray(x)) return x.map(norm);
  if (x && typeof x === "object") {
    const o = {};
    for (const k of Object.keys(x).sort()) o[k] = norm(x[k]);
    return o;
  }
  return x;
};
// a fatal error on one file (DuckDB's, on some corpus files) invalidates the
// database: every file is read on a fresh one
const read = async (f) => {
  ({ con } = await openDuckDB());
  const q = f.replaceAll("'", "''");
  const r = await con.runAndReadAll(`SELECT var::JSON AS v FROM read_parquet('${q}') ORDER BY file_row_number`);
  return r.getRowObjectsJson().map((row) => (row.v === null ? "null" : JSON.stringify(norm(JSON.parse(row.v)))));
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
  const diff = got.length !== want.length ? 0 : got.findIndex((g, i) => g !== want[i]);
  if (got.length !== want.length || diff >= 0) {
    console.log(`FAIL ${path.basename(written)}: row ${diff}: got ${got[diff]} want ${want[diff]} (${got.length}/${want.length} rows)`);
    bad++;
  } else same++;
}
console.log(`${same} rewritten files read equal by DuckDB, ${bad} differ, ${skipped} originals DuckDB does not read`);
process.exit(bad || same === 0 ? 1 : 0);
