#!/usr/bin/env node
// DuckDB reads files written with --column-order total and --int96-stats:
// corpus files with NaN, -0/+0, all-NaN chunks, FLOAT16 and INT96 are
// rewritten under each order; DuckDB's rows of the rewrite equal its rows of
// the source, and DuckDB's WHERE counts on the rewrite equal those on the
// source (so a reader that does or does not use the new statistics still
// finds every row).
// Known DuckDB limitation (duckdb/duckdb#25521, open): DuckDB ignores
// nan_count and prunes with spec-conformant non-NaN bounds as if no NaN were
// there, so `x > c`, `x != c`, `x < c`, `x <= c` (NaN sorts above every
// number in DuckDB) may lose NaN rows of a row group whose finite values miss
// c. It hits TYPE_ORDER files from any conformant writer (Arrow C++, ours)
// as much as IEEE_754_TOTAL_ORDER ones. Such a difference is printed as
// KNOWN and not counted; rows, `=`, `>=` and isnan() must match.
//   node tests/interop/duckdb_column_order.mjs CLI CORPUS_DIR WORKDIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB or the corpus files missing.
import fs from "node:fs";
import path from "node:path";
import { firstLine, jsonText, openDuckDB, queryRows, queryValue, runCli, sqlString } from "../../tools/duckdb_open.mjs";

const [cli, corpus, work] = process.argv.slice(2);
const { inst, con } = await openDuckDB();
fs.mkdirSync(work, { recursive: true });
const fl = ["float_ieee754", "float_typedef", "double_ieee754", "double_typedef"];
const cases = [
  ["floating_orders_nan_count.parquet", fl.flatMap((c) => [`${c} > 1`, `${c} < 0`, `${c} = 0`, `${c} >= -2`, `isnan(${c})`])],
  ["nan_in_stats.parquet", ["x > 1", "x < 1", "isnan(x)"]],
  ["single_nan.parquet", ["mycol IS NULL", "isnan(mycol)"]],
  ["float16_zeros_and_nans.parquet", []],
  ["float16_nonzeros_and_nans.parquet", []],
  ["int96_from_spark.parquet", ["a > TIMESTAMP '2024-06-01 00:00:00' AND a < TIMESTAMP '3000-01-01 00:00:00'",
                                "a = TIMESTAMP '2024-01-01 01:00:00'", "a IS NULL"]],
  ["alltypes_plain.parquet", ["float_col < 1.1", "double_col > 5"]],
];
const configs = [["--column-order", "total", "--int96-stats"], ["--column-order", "type", "--int96-stats"],
                 ["--column-order", "total", "--page-version", "2", "--row-group-size", "3"]];
// rows as text, NaN and -0 spelled out (JSON would fold them)
const show = (v) => typeof v === "number" ? (Object.is(v, -0) ? "-0" : String(v)) :
  typeof v === "bigint" ? v.toString() : v === null ? "null" : jsonText(v);
const rows = async (f) => (await queryRows(con, `SELECT * FROM read_parquet(${sqlString(f)})`)).map((r) => r.map(show).join("|")).join("\n");
const count = async (f, w) => Number(await queryValue(con, `SELECT count(*) FROM read_parquet(${sqlString(f)}) WHERE ${w}`));
let failed = 0, checked = 0, present = 0, known = 0;
for (const [name, preds] of cases) {
  const src = path.join(corpus, "data", name);
  if (!fs.existsSync(src)) { console.log(`SKIP: ${name} missing`); continue; }
  present++;
  const want = await rows(src);
  for (const [ci, cfg] of configs.entries()) {
    const out = path.join(work, `${ci}_${name}`);
    const r = runCli(cli, ["rewrite", "--force", ...cfg, src, out]);
    if (r.status !== 0) { console.log(`FAIL rewrite ${cfg.join(" ")} ${name}: ${r.stderr.trim()}`); failed++; continue; }
    let got;
    try { got = await rows(out); } catch (e) {
      console.log(`FAIL duckdb refused ${cfg.join(" ")} ${name}: ${firstLine(e)}`); failed++; continue;
    }
    checked++;
    if (got !== want) { console.log(`FAIL ${cfg.join(" ")} ${name}: DuckDB's rows differ from the source's`); failed++; }
    for (const w of preds) {
      const a = await count(src, w), b = await count(out, w);
      checked++;
      if (a === b) continue;
      if (/(^|[^<>!])(>|<|<=|!=) /.test(w) && b < a) {
        console.log(`KNOWN duckdb#25521 ${cfg.join(" ")} ${name}: WHERE ${w}: ${b}, source ${a}`);
        known++;
        continue;
      }
      console.log(`FAIL ${cfg.join(" ")} ${name}: WHERE ${w}: ${b}, source ${a}`);
      failed++;
    }
  }
}
if (!present) { console.log("SKIP: no corpus file found"); process.exit(3); }
console.log(`duckdb_column_order: ${checked} checks, ${failed} failed, ${known} known DuckDB differences`);
process.exit(failed ? 1 : 0);
