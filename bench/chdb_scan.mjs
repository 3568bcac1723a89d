#!/usr/bin/env node
// Time ClickHouse's (chDB, npm `chdb`) single-threaded full decode of a
// Parquet file (THREADS=N in the environment: max_threads=N,
// max_parsing_threads=N).
//   node bench/chdb_scan.mjs FILE [RUNS] [SQL]   (RUNS defaults to 5)
// Runs `SELECT * FROM file(FILE, Parquet) FORMAT Null SETTINGS max_threads=1,
// max_parsing_threads=1`: every column is read, decompressed and decoded into
// ClickHouse columns, nothing is sent to JavaScript. SQL replaces the query
// (FILE is substituted for {file}), e.g. `SELECT count() FROM file({file},
// Parquet)` for the footer alone. Wall clock around the call, one warm-up
// run first, then the median and best of RUNS. Exit 3: chdb not installed
// (scripts/install-bench-peers.sh).
import path from "node:path";
import { peer, sqlStr, timeRuns } from "./common.mjs";

const file = process.argv[2];
const runs = Number(process.argv[3] ?? 5);
if (!file) {
  console.error("usage: node bench/chdb_scan.mjs FILE [RUNS] [SQL]");
  process.exit(2);
}
const chdb = await peer("chdb", "chdb");
if (!chdb) {
  console.error("chdb not installed: run scripts/install-bench-peers.sh");
  process.exit(3);
}
const threads = Number(process.env.THREADS ?? 1);
const settings = `SETTINGS max_threads=${threads}, max_parsing_threads=${threads}`;
const tmpl = process.argv[4] ?? "SELECT * FROM file({file}, Parquet) FORMAT Null";
const sql = `${tmpl.replaceAll("{file}", sqlStr(path.resolve(file)))} ${settings}`;
const t = await timeRuns(() => chdb.query(sql, "CSV"), runs);
console.log(`chdb_scan file=${file} median_ms=${t.median.toFixed(1)} best_ms=${t.best.toFixed(1)} cpu_ms=${t.cpu.toFixed(1)}`);
