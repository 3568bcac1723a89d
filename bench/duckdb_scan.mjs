#!/usr/bin/env node
// Time DuckDB's full decode of a Parquet file, single-threaded (THREADS=N in
// the environment for N threads).
//   node bench/duckdb_scan.mjs FILE [RUNS] [COLUMNS]   (RUNS defaults to 5)
// COLUMNS (comma-separated) projects, to compare one column's decode.
// Runs `EXPLAIN ANALYZE SELECT * FROM read_parquet(FILE)` with threads=1:
// every column is projected, so every page is read, decompressed and decoded
// into DuckDB vectors, but nothing is sent to JavaScript. The time reported
// is the profiler's "Total Time" (query execution inside DuckDB), one warm-up
// run first, then the median and best of RUNS runs. wall_ms (median) also
// includes the Node round trip.
import path from "node:path";
import { connect, median, sqlStr } from "./common.mjs";

const file = process.argv[2];
const runs = Number(process.argv[3] ?? 5);
if (!file) {
  console.error("usage: node bench/duckdb_scan.mjs FILE [RUNS]");
  process.exit(2);
}
const threads = Number(process.env.THREADS ?? 1);
const { con } = await connect(threads);
const cols = process.argv[4] ? process.argv[4].split(",").map((c) => `"${c.replace(/"/g, '""')}"`).join(", ") : "*";
const sql = `EXPLAIN ANALYZE SELECT ${cols} FROM read_parquet(${sqlStr(path.resolve(file))})`;

async function once() {
  const t0 = performance.now();
  const r = await con.runAndReadAll(sql);
  const wall = performance.now() - t0;
  const text = r.getRows().map((row) => row.join("\n")).join("\n");
  const m = /Total Time: ([0-9.]+)s/.exec(text);
  if (!m) throw new Error("no Total Time in the profile output");
  return { ms: Number(m[1]) * 1000, wall };
}

await once(); // warm-up (page cache, metadata)
const res = [];
for (let i = 0; i < runs; i++) res.push(await once());
const ms = res.map((r) => r.ms);
console.log(`duckdb_scan file=${file} median_ms=${median(ms).toFixed(1)} best_ms=${Math.min(...ms).toFixed(1)} wall_ms=${median(res.map((r) => r.wall)).toFixed(1)}`);
