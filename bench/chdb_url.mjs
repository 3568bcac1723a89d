#!/usr/bin/env node
// ClickHouse (chDB, npm `chdb`) reading a Parquet file over HTTP with its
// url() table function: the projected, filtered query of
// bench/remote_bench.sh, so the nginx access log gives chDB's requests and
// bytes next to parquetry's (DuckDB's httpfs extension is not in its npm
// package and is downloaded on first use, which an offline machine cannot).
//   node bench/chdb_url.mjs URL COLUMNS WHERE
// Runs `SELECT COLUMNS FROM url(URL, Parquet) WHERE WHERE FORMAT Null
// SETTINGS max_threads=1` once (WHERE is SQL: remote_bench's default,
// `l_key < 100000`, is the same text in both). Exit 3: chdb not installed
// (scripts/install-bench-peers.sh).
import { peer, sqlStr } from "./common.mjs";

const [url, cols, where] = process.argv.slice(2);
if (!url || !cols || !where) {
  console.error("usage: node bench/chdb_url.mjs URL COLUMNS WHERE");
  process.exit(2);
}
const chdb = await peer("chdb", "chdb");
if (!chdb) {
  console.error("chdb not installed: run scripts/install-bench-peers.sh");
  process.exit(3);
}
const sql = `SELECT ${cols} FROM url(${sqlStr(url)}, Parquet) WHERE ${where} FORMAT Null SETTINGS max_threads=1`;
const t0 = performance.now();
chdb.query(sql, "CSV");
console.log(`chdb_url ms=${(performance.now() - t0).toFixed(1)}`);
