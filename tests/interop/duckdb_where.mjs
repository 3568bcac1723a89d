#!/usr/bin/env node
// DuckDB's WHERE and `parquetry count --where` select the same rows: a file
// converted by the CLI (ints, doubles, strings, booleans, dates, nulls; five
// row groups) and corpus files (NaN in statistics, old writers' statistics,
// DECIMAL on INT32/FIXED/BYTE_ARRAY, INT96, nulls), the same predicate text
// given to both.
//   node tests/interop/duckdb_where.mjs CLI CORPUS_DIR WORKDIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB missing.
import fs from "node:fs";
import path from "node:path";
import { firstLine, openDuckDB, queryValue, runCli, sqlString } from "../../tools/duckdb_open.mjs";

const [cli, corpus, work] = process.argv.slice(2);
const { inst, con } = await openDuckDB();
fs.mkdirSync(work, { recursive: true });
const csv = path.join(work, "w.csv");
let text = "id,name,score,flag,day\n";
for (let i = 0; i < 5000; i++) {
  const day = `2020-${String(1 + Math.floor(i / 500)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`;
  text += `${i},${i % 11 === 0 ? "" : "n" + ((i * 7919) % 50)},${i % 7 === 0 ? "" : (((i * 31) % 10000) / 100).toFixed(2)},${i % 3 ? "true" : "false"},${day}\n`;
}
fs.writeFileSync(csv, text);
const gen = path.join(work, "w.parquet");
const conv = runCli(cli, ["convert", "--row-group-size", "1000", "--schema",
  "message m { required int64 id; optional binary name (STRING); optional double score; optional boolean flag; optional int32 day (DATE); }",
  csv, gen]);
if (conv.status !== 0) { console.log("FAIL convert: " + conv.stderr); process.exit(1); }

const data = (f) => path.join(corpus, "data", f);
const cases = [
  [gen, ["id >= 1200 AND id < 1250", "name = 'n7' OR name IS NULL", "name LIKE 'n1%' AND flag = false",
         "score > 50.5 AND NOT id IN (1, 2, 3, 4000)", "day BETWEEN DATE '2020-03-01' AND DATE '2020-03-05'",
         "score IS NULL AND name IS NOT NULL", "NOT (score < 10 OR score > 90)", "name != 'n3'",
         "day >= DATE '2020-05-01' OR id BETWEEN 10 AND 20", "name IN ('n1', 'n2', 'zz') AND score <= 20.25",
         "NOT name LIKE 'n_%'", "id = 4999 OR id = -1", "flag = true AND NOT flag = false"]],
  [data("nan_in_stats.parquet"), ["x > 1", "x = 'NaN'", "x >= 1", "x != 1", "x < 'NaN'", "x <= 1"]],
  [data("single_nan.parquet"), ["mycol IS NULL", "mycol = 'NaN'", "mycol IS NOT NULL"]],
  [data("datapage_v2.snappy.parquet"), ["a = 'abc'", "b > 2 AND c < 4", "d = true", "a IS NULL", "a < 'abd'"]],
  [data("alltypes_plain.parquet"), ["id >= 4 AND bool_col = true", "double_col > 5 OR int_col = 0",
                                   "tinyint_col IN (0, 1)", "float_col < 1.1"]],
  [data("alltypes_tiny_pages.parquet"), ["id BETWEEN 100 AND 200", "bigint_col = 20 AND month = 3",
                                         "date_string_col = '03/01/09'", "float_col > 5.5"]],
  [data("int32_decimal.parquet"), ["value > 10.5", "value = 3", "value IN (1.00, 2.50, 24)"]],
  [data("int64_decimal.parquet"), ["value <= 7.25", "value BETWEEN 2 AND 9"]],
  [data("fixed_length_decimal.parquet"), ["value >= 5.00", "value = 13.00", "value < 2.5"]],
  [data("byte_array_decimal.parquet"), ["value < 12", "value = 4.00"]],
  [data("nulls.snappy.parquet"), ["b_struct IS NULL", "b_struct.b_c_int IS NULL"]],
  [data("nullable.impala.parquet"), ["id > 3", "nested_struct IS NOT NULL", "int_map IS NULL", "int_array IS NOT NULL"]],
  // (DuckDB reads this file's year-290000 INT96 value wrapped to a year BC, so
  // no predicate here may depend on it)
  [data("int96_from_spark.parquet"), ["a > TIMESTAMP '2024-06-01 00:00:00' AND a < TIMESTAMP '3000-01-01 00:00:00'",
                                      "a = TIMESTAMP '2024-01-01 01:00:00'", "a IS NULL"]],
  [data("delta_byte_array.parquet"), ["c_customer_id LIKE 'AAAAAAAAB%'", "c_salutation = 'Mrs.'", "c_birth_country >= 'U'"]],
];
let failed = 0, checked = 0, skipped = 0;
for (const [file, preds] of cases) {
  if (!fs.existsSync(file)) { console.log(`SKIP: ${file} missing`); skipped++; continue; }
  for (const where of preds) {
    let want;
    try {
      want = Number(await queryValue(con, `SELECT count(*) FROM read_parquet(${sqlString(file)}) WHERE ${where}`));
    } catch (e) {
      console.log(`FAIL duckdb refused ${path.basename(file)}: ${where}: ${firstLine(e)}`);
      failed++;
      continue;
    }
    const ours = runCli(cli, ["count", "--where", where, file]);
    const got = ours.status === 0 ? Number(ours.stdout.trim()) : NaN;
    if (got !== want) {
      console.log(`FAIL ${path.basename(file)}: ${where}: parquetry ${ours.status === 0 ? got : ours.stderr.trim()}, DuckDB ${want}`);
      failed++;
    }
    checked++;
  }
}
console.log(`duckdb_where: ${checked} predicates, ${failed} failed, ${skipped} files skipped`);
process.exit(failed ? 1 : 0);
