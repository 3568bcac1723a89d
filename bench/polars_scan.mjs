#!/usr/bin/env node
// Time Polars' (npm `nodejs-polars`) single-threaded full decode of a Parquet
// file into a DataFrame (THREADS=N in the environment: POLARS_MAX_THREADS=N) (Arrow memory in Rust; no value goes to JavaScript).
//   node bench/polars_scan.mjs FILE [RUNS]   (RUNS defaults to 5)
// POLARS_MAX_THREADS=1 is set here before Polars loads (its pool size is
// fixed at load). Wall clock around `readParquet`, one warm-up run first,
// then the median and best of RUNS. Exit 3: nodejs-polars not installed
// (scripts/install-bench-peers.sh).
import path from "node:path";
import { peer, timeRuns } from "./common.mjs";

process.env.POLARS_MAX_THREADS = process.env.THREADS ?? "1";
const file = process.argv[2];
const runs = Number(process.argv[3] ?? 5);
if (!file) {
  console.error("usage: node bench/polars_scan.mjs FILE [RUNS]");
  process.exit(2);
}
const mod = await peer("polars", "nodejs-polars").catch(() => null);
if (!mod) {
  console.error("nodejs-polars not installed: run scripts/install-bench-peers.sh");
  process.exit(3);
}
const pl = mod.default ?? mod;
const abs = path.resolve(file);
let rows = 0;
const t = await timeRuns(() => {
  rows = pl.readParquet(abs).height;
}, runs);
console.log(`polars_scan file=${file} rows=${rows} median_ms=${t.median.toFixed(1)} best_ms=${t.best.toFixed(1)} cpu_ms=${t.cpu.toFixed(1)}`);
