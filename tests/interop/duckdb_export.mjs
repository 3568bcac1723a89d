#!/usr/bin/env node
// DuckDB reads what `parquetry export` writes and finds the rows its own
// query of the input selects: for --format parquet (DuckDB's read_parquet of
// the output against SELECT cols FROM read_parquet(input) WHERE pred, row for
// row in file order) and --format csv (DuckDB's read_csv of the output, values
// compared as text). A file converted by the CLI (ints, doubles, strings with
// commas, quotes and line breaks, booleans, dates, nulls; four row groups) and
// corpus files.
//   node tests/interop/duckdb_export.mjs CLI CORPUS_DIR WORKDIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB missing.
import fs from "node:fs";
import path from "node:path";
import { firstLine, jsonText, openDuckDB, queryRows, runCli, sameRows, sqlString } from "../../tools/duckdb_open.mjs";

const [cli, corpus, work] = process.argv.slice(2);
const { inst, con } = await openDuckDB();
fs.mkdirSync(work, { recursive: true });
const jsonl = path.join(work, "e.jsonl");
let text = "";
for (let i = 0; i < 4000; i++) {
  const day = `2021-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`;
  const name = i % 13 === 0 ? null : i % 17 === 0 ? `with, comma "and" quote\nand line ${i}` : `n${(i * 7919) % 97}`;
  text += JSON.stringify({ id: i, name, score: i % 9 === 0 ? null : ((i * 37) % 1000) / 8, flag: i % 3 === 0, day }) + "\n";
}
fs.writeFileSync(jsonl, text);
const gen = path.join(work, "e.parquet");
const conv = runCli(cli, ["convert", "--row-group-size", "1000", "--schema",
  "message m { required int64 id; optional binary name (STRING); optional double score; required boolean flag; required int32 day (DATE); }",
  jsonl, gen]);
if (conv.status !== 0) { console.log("FAIL convert: " + conv.stderr); process.exit(1); }

const data = (f) => path.join(corpus, "data", f);
// [file, columns (null: all), predicate, CSV-comparable columns]
const cases = [
  [gen, null, "id >= 900 AND id < 2100", ["id", "name", "score", "flag", "day"]],
  [gen, ["name", "id"], "name LIKE 'with%' OR score IS NULL", ["id", "name"]],
  [gen, ["day", "score"], "day BETWEEN DATE '2021-03-01' AND DATE '2021-03-10' AND flag = true", ["day", "score"]],
  [gen, ["id"], "id = -1", ["id"]],
  [data("alltypes_plain.parquet"), ["id", "bool_col", "double_col", "string_col"], "id >= 3", ["id", "bool_col", "double_col"]],
  [data("alltypes_tiny_pages.parquet"), ["id", "int_col", "float_col", "date_string_col"], "id BETWEEN 100 AND 1200 AND bigint_col = 20", ["id", "int_col", "date_string_col"]],
  [data("datapage_v2.snappy.parquet"), null, "b > 2", ["a", "b", "c", "d"]],
  [data("delta_byte_array.parquet"), ["c_customer_id", "c_salutation", "c_last_name"], "c_salutation = 'Mrs.'", ["c_customer_id", "c_salutation", "c_last_name"]],
];
const q = (c) => `"${c.replace(/"/g, '""')}"`;
const rows = async (sql) => (await queryRows(con, sql)).map(jsonText);
let failed = 0, checked = 0, skipped = 0;
for (const [file, cols, where, csvCols] of cases) {
  if (!fs.existsSync(file)) { console.log(`SKIP: ${file} missing`); skipped++; continue; }
  const name = `${path.basename(file)} [${cols ? cols.join(",") : "*"}] ${where}`;
  const sel = cols ? cols.map(q).join(", ") : "*";
  const proj = cols ? ["-c", cols.join(",")] : [];
  // parquet
  const outP = path.join(work, `out${checked}.parquet`);
  const ex = runCli(cli, ["export", ...proj, "--where", where, file, "-o", outP]);
  if (ex.status !== 0) { console.log(`FAIL export parquet ${name}: ${ex.stderr.trim()}`); failed++; continue; }
  let want, got;
  try {
    want = await rows(`SELECT ${sel} FROM read_parquet(${sqlString(file)}) WHERE ${where}`);
    got = await rows(`SELECT ${sel} FROM read_parquet(${sqlString(outP)})`); // (export keeps the schema's order)
  } catch (e) {
    console.log(`FAIL duckdb ${name}: ${firstLine(e)}`);
    failed++;
    continue;
  }
  const n = want.length;
  if (!ex.stdout.includes(`: ${n} row`)) { console.log(`FAIL ${name}: export says "${ex.stdout.trim()}", DuckDB selects ${n}`); failed++; }
  if (!sameRows(`parquet ${name}`, got, want)) failed++;
  // csv: the same rows as text
  const outC = path.join(work, `out${checked}.csv`);
  const exc = runCli(cli, ["export", ...proj, "--where", where, file, "-o", outC]);
  if (exc.status !== 0) { console.log(`FAIL export csv ${name}: ${exc.stderr.trim()}`); failed++; continue; }
  const cs = csvCols.map((c) => `CAST(${q(c)} AS VARCHAR)`).join(", ");
  try {
    want = await rows(`SELECT ${cs} FROM read_parquet(${sqlString(file)}) WHERE ${where}`);
    // the CSV read with the input's column types (no guessing)
    const header = fs.readFileSync(outC, "utf8").split("\n")[0].split(",");
    const types = await queryRows(con, `DESCRIBE SELECT ${header.map(q).join(", ")} FROM read_parquet(${sqlString(file)})`);
    const colspec = "{" + types.map((t) => `'${t[0]}': '${t[1]}'`).join(", ") + "}";
    got = n === 0 ? [] : await rows(`SELECT ${cs} FROM read_csv(${sqlString(outC)}, header = true, quote = '"', escape = '"', columns = ${colspec})`);
  } catch (e) {
    console.log(`FAIL duckdb csv ${name}: ${firstLine(e)}`);
    failed++;
    continue;
  }
  if (!sameRows(`csv ${name}`, got, want)) failed++;
  checked++;
}
console.log(`duckdb_export: ${checked} exports checked (parquet and csv), ${failed} failed, ${skipped} files skipped`);
process.exit(failed ? 1 : 0);
