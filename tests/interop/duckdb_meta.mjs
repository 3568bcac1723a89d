#!/usr/bin/env node
// DuckDB sees the metadata we write: statistics through parquet_metadata()
// and Bloom filters through parquet_bloom_probe().
//   node tests/interop/duckdb_meta.mjs CLI WORKDIR
// Converts a generated CSV with `CLI convert --bloom name --bloom id`, then
// checks DuckDB's view. Exit 0 = pass, 1 = fail, 3 = DuckDB missing.
import fs from "node:fs";
import path from "node:path";
import { loadDuckDB, queryRows, runCli, sqlString } from "../../tools/duckdb_open.mjs";

const [cli, work] = process.argv.slice(2);
const duck = await loadDuckDB();
fs.mkdirSync(work, { recursive: true });
const csv = path.join(work, "meta.csv");
let text = "id,name,price,flag\n";
for (let i = 0; i < 5000; i++) text += `${i},n${i % 100},${i % 7 === 0 ? "" : (i * 0.25).toFixed(2)},${i % 2 === 0}\n`;
fs.writeFileSync(csv, text);
let failed = 0;
const check = (ok, what) => { if (!ok) { console.log("FAIL " + what); failed++; } };
for (const opts of [[], ["--page-version", "2", "--codec", "zstd"], ["--no-dictionary", "--codec", "gzip"]]) {
  const out = path.join(work, "meta.parquet");
  const r = runCli(cli, ["convert", "--force", ...opts, "--bloom", "name", "--bloom", "id", csv, out]);
  if (r.status !== 0) { console.log("FAIL convert: " + r.stderr); process.exit(1); }
  const inst = await duck.DuckDBInstance.create(":memory:");
  const con = await inst.connect();
  const q = sqlString(out);
  const md = (await con.runAndReadAll(`SELECT path_in_schema, stats_min_value, stats_max_value, stats_null_count, num_values, bloom_filter_offset FROM parquet_metadata(${q})`)).getRowObjectsJS();
  const col = (n) => md.find((m) => m.path_in_schema === n);
  check(col("id")?.stats_min_value === "0" && col("id")?.stats_max_value === "4999", `[${opts}] id stats ${col("id")?.stats_min_value}..${col("id")?.stats_max_value}`);
  check(col("name")?.stats_min_value === "n0" && col("name")?.stats_max_value === "n99", `[${opts}] name stats`);
  check(Number(col("price")?.stats_null_count) === 715, `[${opts}] price null_count ${col("price")?.stats_null_count}`);
  check(Number(col("price")?.stats_min_value) === 0.25 && Number(col("price")?.stats_max_value) === 4999 * 0.25, `[${opts}] price bounds`);
  check(col("flag")?.stats_min_value === "false" && col("flag")?.stats_max_value === "true", `[${opts}] flag bounds ${col("flag")?.stats_min_value}`);
  check(col("name")?.bloom_filter_offset > 0 && col("id")?.bloom_filter_offset > 0, `[${opts}] bloom offsets`);
  const probe = async (c, v) => (await queryRows(con, `SELECT bool_and(bloom_filter_excludes) FROM parquet_bloom_probe(${q}, '${c}', ${v})`))[0][0];
  for (const v of ["'n0'", "'n42'", "'n99'"]) check((await probe("name", v)) === false, `[${opts}] bloom excludes present name ${v}`);
  for (const v of [0, 1234, 4999]) check((await probe("id", v)) === false, `[${opts}] bloom excludes present id ${v}`);
  let excluded = 0;
  for (let k = 0; k < 20; k++) excluded += (await probe("name", `'absent${k}'`)) === true ? 1 : 0;
  check(excluded >= 15, `[${opts}] bloom excludes only ${excluded} of 20 absent names`);
  const rows = (await queryRows(con, `SELECT count(*), sum(id), count(price) FROM read_parquet(${q})`))[0];
  check(Number(rows[0]) === 5000 && Number(rows[1]) === 12497500 && Number(rows[2]) === 4285, `[${opts}] values ${rows}`);
  con.closeSync?.();
  inst.closeSync?.();
}
console.log(failed ? `${failed} checks failed` : "DuckDB sees our statistics and Bloom filters");
process.exit(failed ? 1 : 0);
