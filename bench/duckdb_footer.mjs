#!/usr/bin/env node
// Time DuckDB opening a Parquet file and decoding its footer, single-threaded.
//   node bench/duckdb_footer.mjs FILE [RUNS]   (RUNS defaults to 5)
// Runs `SELECT count(*) FROM read_parquet(FILE)` with threads=1 and the
// Parquet metadata cache off: the answer comes from the footer alone. The
// footer is read while the query is bound, before the profiler starts, so
// the time is the wall clock around the statement (as seen from Node, which
// adds well under a millisecond here); one warm-up run, then the median and
// best of RUNS. Output: duckdb_footer file=F median_ms=M best_ms=B
import path from "node:path";
import { connect, sqlStr, timeRuns } from "./common.mjs";

const file = process.argv[2];
const runs = Number(process.argv[3] ?? 5);
if (!file) {
  console.error("usage: node bench/duckdb_footer.mjs FILE [RUNS]");
  process.exit(2);
}
const { con } = await connect(1);
await con.run("SET parquet_metadata_cache=false");
const sql = `SELECT count(*) FROM read_parquet(${sqlStr(path.resolve(file))})`;
const t = await timeRuns(() => con.runAndReadAll(sql), runs);
console.log(`duckdb_footer file=${file} median_ms=${t.median.toFixed(1)} best_ms=${t.best.toFixed(1)} cpu_ms=${t.cpu.toFixed(1)}`);
