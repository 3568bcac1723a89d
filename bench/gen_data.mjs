#!/usr/bin/env node
// Deterministically generate the benchmark Parquet files with DuckDB.
//   node bench/gen_data.mjs [OUT_DIR]      (default bench/data)
// Writes 12 files: {lineitem,nested,wide}_{uncompressed,snappy,zstd,zstd_v2}.parquet
// All values come from hash(row, k) (DuckDB's deterministic hash), threads=1,
// preserve_insertion_order on, so the same DuckDB version rewrites identical
// data. Set BENCH_SCALE=0.1 (etc.) to scale row counts down for a quick check.
import fs from "node:fs";
import path from "node:path";
import { connect, benchDir, sqlStr } from "./common.mjs";

const out = path.resolve(process.argv[2] ?? path.join(benchDir, "data"));
fs.mkdirSync(out, { recursive: true });
const scale = Number(process.env.BENCH_SCALE ?? 1);
const N = (n) => Math.max(1, Math.round(n * scale));

const { con } = await connect(1);
await con.run("SET preserve_insertion_order=true");

// A small word list for free-text comments (built by hand for this project).
const words = ("the quick brown fox jumps over lazy dog carefully final " +
  "pending requests deposits accounts packages ironic express regular special " +
  "furiously slyly blithely quickly bold even silent unusual ideas theodolites " +
  "instructions foxes pinto beans asymptotes platelets dependencies excuses " +
  "courts warthogs sheaves somas frets dolphins waters sauternes hockey players " +
  "across above after against along among around before behind").split(" ");
const wordList = "[" + words.map(sqlStr).join(",") + "]";
const nw = words.length;

const tables = {
  lineitem: `
    SELECT
      i::BIGINT AS l_key,
      ((hash(i, 1) % 4294967296)::BIGINT - 2147483648)::INTEGER AS l_rand,
      (hash(i, 2) % 50)::INTEGER AS l_small,
      ((hash(i, 3) % 10000000)::DECIMAL(15,0) / 100)::DECIMAL(15,2) AS l_price,
      (hash(i, 4) % 1000000)::DOUBLE / 7.0 AS l_double,
      (DATE '1992-01-01' + (hash(i, 5) % 2557)::INTEGER) AS l_date,
      (['A','N','R'])[(hash(i, 6) % 3)::INTEGER + 1] AS l_flag,
      left(concat_ws(' ',
        ${wordList}[(hash(i, 7) % ${nw})::INTEGER + 1],
        ${wordList}[(hash(i, 8) % ${nw})::INTEGER + 1],
        ${wordList}[(hash(i, 9) % ${nw})::INTEGER + 1],
        ${wordList}[(hash(i, 10) % ${nw})::INTEGER + 1],
        ${wordList}[(hash(i, 11) % ${nw})::INTEGER + 1],
        ${wordList}[(hash(i, 12) % ${nw})::INTEGER + 1],
        ${wordList}[(hash(i, 13) % ${nw})::INTEGER + 1],
        ${wordList}[(hash(i, 14) % ${nw})::INTEGER + 1]),
        10 + (hash(i, 15) % 31)::INTEGER) AS l_comment,
      CASE WHEN hash(i, 16) % 5 = 0 THEN NULL ELSE (hash(i, 17) % 100000000)::BIGINT END AS l_nullable,
      TIMESTAMP '1992-01-01 00:00:00' + to_microseconds((hash(i, 18) % 220898664000000)::BIGINT) AS l_ts
    FROM range(${N(6_000_000)}) t(i)`,
  nested: `
    SELECT
      CASE WHEN hash(i, 1) % 10 = 0 THEN NULL
           ELSE list_transform(range((hash(i, 2) % 6)::BIGINT), j -> (hash(i, j, 3) % 100000)::BIGINT) END AS l,
      {'a': (hash(i, 4) % 1000000)::INTEGER, 'b': 'name_' || (hash(i, 5) % 5000)::VARCHAR} AS s,
      map_from_entries(list_transform(range((hash(i, 6) % 4)::BIGINT),
        j -> {'k': 'key' || j::VARCHAR, 'v': (hash(i, j, 7) % 100000)::DOUBLE / 100})) AS m
    FROM range(${N(1_000_000)}) t(i)`,
  wide: `
    SELECT ${[...Array(8).keys()].map((c) =>
      `round(${20 + 5 * c} + ${3 + c} * sin(i / ${2000 + 700 * c}.0) + ((hash(i, ${c}) % 200)::DOUBLE - 100) / 1000, 3) AS s${c}`).join(",\n      ")}
    FROM range(${N(4_000_000)}) t(i)`,
};

const variants = [
  ["uncompressed", "COMPRESSION uncompressed"],
  ["snappy", "COMPRESSION snappy"],
  ["zstd", "COMPRESSION zstd"],
  ["zstd_v2", "COMPRESSION zstd, PARQUET_VERSION V2"],
];

const t0 = performance.now();
for (const [name, sql] of Object.entries(tables)) {
  const t1 = performance.now();
  await con.run(`CREATE OR REPLACE TABLE ${name} AS ${sql}`);
  for (const [suffix, opts] of variants) {
    const f = path.join(out, `${name}_${suffix}.parquet`);
    await con.run(`COPY ${name} TO ${sqlStr(f)} (FORMAT parquet, ${opts}, ROW_GROUP_SIZE 1000000)`);
    console.log(`${path.relative(process.cwd(), f)} ${fs.statSync(f).size} bytes`);
  }
  await con.run(`DROP TABLE ${name}`);
  console.log(`${name}: ${((performance.now() - t1) / 1000).toFixed(1)} s`);
}
console.log(`total: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
