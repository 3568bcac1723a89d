#!/usr/bin/env node
// Time DuckDB's single-threaded `SELECT * ... WHERE` on a Parquet file.
//   node bench/duckdb_select.mjs FILE WHERE [RUNS]   (WHERE "" = no predicate; RUNS default 3)
// Runs `EXPLAIN ANALYZE SELECT * FROM read_parquet(FILE) WHERE ...` with
// threads=1 (every column of the rows that pass is decoded into DuckDB
// vectors, nothing is sent to JavaScript) and reports the profiler's
// "Total Time": one warm-up run, then the median and every run.
import path from "node:path";
import { connect, median, sqlStr } from "./common.mjs";

const file = process.argv[2];
const where = process.argv[3] ?? "";
const runs = Number(process.argv[4] ?? 3);
if (!file) {
  console.error("usage: node bench/duckdb_select.mjs FILE WHERE [RUNS]");
  process.exit(2);
}
const { con } = await connect(1);
const sql = `EXPLAIN ANALYZE SELECT * FROM read_parquet(${sqlStr(path.resolve(file))})${where ? ` WHERE ${where}` : ""}`;

async function once() {
  const r = await con.runAndReadAll(sql);
  const text = r.getRows().map((row) => row.join("\n")).join("\n");
  const m = /Total Time: ([0-9.]+)s/.exec(text);
  if (!m) throw new Error("no Total Time in the profile output");
  return Number(m[1]) * 1000;
}

await once();
const ms = [];
for (let i = 0; i < runs; i++) ms.push(await once());
console.log(`duckdb_select median_ms=${median(ms).toFixed(1)} runs_ms=${ms.map((x) => x.toFixed(1)).join(",")}`);
