#!/usr/bin/env node
// DuckDB reads what `parquetry concat` and `parquetry prune` write, with the
// values of the inputs: concat of a file with itself against DuckDB's own
// UNION ALL of the file twice, prune against the file's other columns, in
// both directions (EXCEPT ALL both ways, counts equal).
//   node tests/interop/duckdb_edit.mjs CLI CORPUS_DIR WORKDIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB missing.
import fs from "node:fs";
import path from "node:path";
import { firstLine, openDuckDB, queryValue, runCli, sqlString as q } from "../../tools/duckdb_open.mjs";

const [cli, corpus, work] = process.argv.slice(2);
const { inst, con } = await openDuckDB();
fs.mkdirSync(work, { recursive: true });
const data = (f) => path.join(corpus, "data", f);
const one = (sql) => queryValue(con, sql);
let failed = 0, checked = 0, skipped = 0;

// rows of query a and b are the same multiset
async function sameRows(label, a, b) {
  try {
    const na = Number(await one(`SELECT count(*) FROM (${a})`));
    const nb = Number(await one(`SELECT count(*) FROM (${b})`));
    const ab = Number(await one(`SELECT count(*) FROM ((${a}) EXCEPT ALL (${b}))`));
    const ba = Number(await one(`SELECT count(*) FROM ((${b}) EXCEPT ALL (${a}))`));
    if (na !== nb || ab !== 0 || ba !== 0 || na === 0) {
      console.log(`FAIL ${label}: ${na} and ${nb} rows, ${ab} and ${ba} differ`);
      failed++;
    }
    checked++;
  } catch (e) {
    console.log(`FAIL ${label}: DuckDB: ${firstLine(e)}`);
    failed++;
  }
}

const concatFiles = ["alltypes_plain.parquet", "alltypes_tiny_pages.parquet", "data_index_bloom_encoding_stats.parquet",
  "datapage_v2.snappy.parquet", "nested_lists.snappy.parquet", "nullable.impala.parquet", "int32_decimal.parquet",
  "byte_stream_split.zstd.parquet", "delta_byte_array.parquet", "list_columns.parquet", "nulls.snappy.parquet"];
for (const f of concatFiles) {
  const file = data(f);
  if (!fs.existsSync(file)) { console.log(`SKIP: ${file} missing`); skipped++; continue; }
  const out = path.join(work, "c_" + f);
  const r = runCli(cli, ["concat", "-o", out, file, file]);
  if (r.status !== 0) { console.log(`FAIL concat ${f}: ${r.stderr.trim()}`); failed++; continue; }
  await sameRows(`concat ${f}`, `SELECT * FROM read_parquet(${q(out)})`,
    `SELECT * FROM read_parquet(${q(file)}) UNION ALL SELECT * FROM read_parquet(${q(file)})`);
}

// prune: [file, columns dropped (parquetry names), columns kept (DuckDB names)]
const pruneCases = [
  ["alltypes_tiny_pages.parquet", "string_col,timestamp_col",
   "id, bool_col, tinyint_col, smallint_col, int_col, bigint_col, float_col, double_col, date_string_col, year, month"],
  ["nullable.impala.parquet", "int_array,nested_struct.A", "id, int_array_Array, int_map, int_Map_Array, nested_struct"],
  ["list_columns.parquet", "int64_list", "utf8_list"],
  ["data_index_bloom_encoding_stats.parquet", "nothing-dropped", null],
];
for (const [f, drop, keep] of pruneCases) {
  const file = data(f);
  if (!fs.existsSync(file)) { console.log(`SKIP: ${file} missing`); skipped++; continue; }
  const out = path.join(work, "p_" + f);
  const r = runCli(cli, ["prune", "-c", drop, "-o", out, file]);
  if (keep === null) { // a name that is no column: a usage error, nothing written
    if (r.status !== 2 || fs.existsSync(out)) { console.log(`FAIL prune ${f}: exit ${r.status}`); failed++; }
    checked++;
    continue;
  }
  if (r.status !== 0) { console.log(`FAIL prune ${f}: ${r.stderr.trim()}`); failed++; continue; }
  if (f === "nullable.impala.parquet") {
    // nested_struct lost a field: compare the struct's other fields
    await sameRows(`prune ${f}`,
      `SELECT id, int_array_Array, int_map, int_Map_Array, nested_struct.b, nested_struct.C, nested_struct.g FROM read_parquet(${q(out)})`,
      `SELECT id, int_array_Array, int_map, int_Map_Array, nested_struct.b, nested_struct.C, nested_struct.g FROM read_parquet(${q(file)})`);
    const cols = Number(await one(`SELECT count(*) FROM (DESCRIBE SELECT * FROM read_parquet(${q(out)}))`));
    if (cols !== 5) { console.log(`FAIL prune ${f}: ${cols} top-level columns, wanted 5`); failed++; }
    continue;
  }
  await sameRows(`prune ${f}`, `SELECT * FROM read_parquet(${q(out)})`, `SELECT ${keep} FROM read_parquet(${q(file)})`);
}
console.log(`duckdb_edit: ${checked} comparisons, ${failed} failed, ${skipped} files skipped`);
process.exit(failed ? 1 : 0);
