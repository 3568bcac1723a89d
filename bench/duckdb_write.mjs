#!/usr/bin/env node
// Time DuckDB's single-threaded Parquet writer on the lineitem table.
//   node bench/duckdb_write.mjs [SOURCE] [CODECS] [RUNS]
//   SOURCE defaults to bench/data/lineitem_zstd.parquet (run gen_data.mjs first)
//   CODECS defaults to snappy,zstd; RUNS to 5
// Loads the table into memory, then with threads=1 times
//   COPY lineitem TO '/dev/shm/parquetry-bench-duckdb-<codec>.parquet'
//        (FORMAT parquet, COMPRESSION <codec>, ROW_GROUP_SIZE 1000000)
// (wall clock around the statement, median and best of RUNS after one
// warm-up) and prints the output size. The output file is removed at the end
// unless KEEP_OUTPUT=1 is set (to compare its pages with parquetry's).
import fs from "node:fs";
import path from "node:path";
import { connect, median, sqlStr, benchDir } from "./common.mjs";

const src = path.resolve(process.argv[2] ?? path.join(benchDir, "data/lineitem_zstd.parquet"));
const codecs = (process.argv[3] ?? "snappy,zstd").split(",");
const runs = Number(process.argv[4] ?? 5);
if (!fs.existsSync(src)) {
  console.error(`${src} missing: run node bench/gen_data.mjs first`);
  process.exit(2);
}
const { con } = await connect(2);
await con.run(`CREATE TABLE lineitem AS SELECT * FROM read_parquet(${sqlStr(src)})`);
const n = (await con.runAndReadAll("SELECT count(*) FROM lineitem")).getRows()[0][0];
await con.run("SET threads=1");
const outDir = fs.existsSync("/dev/shm") ? "/dev/shm" : "/tmp";
for (const codec of codecs) {
  const out = path.join(outDir, `parquetry-bench-duckdb-${codec}.parquet`);
  const sql = `COPY lineitem TO ${sqlStr(out)} (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE 1000000)`;
  const times = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    await con.run(sql);
    if (i > 0) times.push(performance.now() - t0); // first run is the warm-up
  }
  const size = fs.statSync(out).size;
  if (process.env.KEEP_OUTPUT !== "1") fs.unlinkSync(out);
  console.log(`duckdb_write table=lineitem rows=${n} codec=${codec} median_ms=${median(times).toFixed(1)} best_ms=${Math.min(...times).toFixed(1)} bytes=${size}`);
}
