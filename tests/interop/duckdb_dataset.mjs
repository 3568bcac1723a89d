#!/usr/bin/env node
// A Hive-partitioned dataset written by `parquetry convert` (year=/region=
// directories, several row groups a file) read with a filter by
// `parquetry cat DIR/**/*.parquet --where ...` and by DuckDB's
// read_parquet('DIR/**/*.parquet', hive_partitioning=true): the same rows
// with the same values, partition columns included.
//   node tests/interop/duckdb_dataset.mjs CLI WORKDIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB missing.
import fs from "node:fs";
import path from "node:path";
import { openDuckDB, queryRows, runCli, sameRows, sqlString } from "../../tools/duckdb_open.mjs";

const [cli, work] = process.argv.slice(2);
const { inst, con } = await openDuckDB();
const root = path.join(work, "ds");
fs.mkdirSync(root, { recursive: true });
let id = 0;
for (const year of [2022, 2023, 2024]) {
  for (const region of ["eu", "us", "ap"]) {
    const dir = path.join(root, `year=${year}`, `region=${region}`);
    fs.mkdirSync(dir, { recursive: true });
    let text = "id,name,score\n";
    for (let i = 0; i < 300; i++, id++)
      text += `${id},${id % 13 === 0 ? "" : "n" + ((id * 7919) % 40)},${id % 9 === 0 ? "" : ((id * 37) % 1000) / 10}\n`;
    const csv = path.join(work, `${year}-${region}.csv`);
    fs.writeFileSync(csv, text);
    const conv = runCli(cli, ["convert", "--row-group-size", "100", "--schema",
      "message m { required int64 id; optional binary name (STRING); optional double score; }",
      csv, path.join(dir, "part-0.parquet")]);
    if (conv.status !== 0) { console.log("FAIL convert: " + conv.stderr); process.exit(1); }
  }
}
const glob = path.join(root, "**", "*.parquet");
const preds = [
  "year = 2023 AND region = 'us'",
  "year >= 2023 AND id < 2000",
  "region IN ('eu', 'ap') AND score > 50",
  "NOT (year = 2022) AND name IS NULL",
  "id BETWEEN 250 AND 950 OR region = 'ap' AND year = 2024",
  "name LIKE 'n1%' AND region <> 'eu'",
  "score IS NULL OR year < 2023 AND id < 20",
];
let failed = 0;
const norm = (v) => (v === null || v === undefined ? null : typeof v === "bigint" ? Number(v) : v);
for (const where of preds) {
  const want = (await queryRows(con,
    `SELECT id, name, score, year, region FROM read_parquet(${sqlString(glob)}, hive_partitioning=true) WHERE ${where} ORDER BY id`))
    .map((row) => JSON.stringify(row.map(norm)));
  const ours = runCli(cli, ["cat", glob, "--where", where]);
  if (ours.status !== 0) { console.log(`FAIL ${where}: parquetry: ${ours.stderr.trim()}`); failed++; continue; }
  const got = ours.stdout.trim().split("\n").filter((l) => l).map((l) => JSON.parse(l))
    .sort((a, b) => a.id - b.id).map((o) => JSON.stringify([o.id, o.name, o.score, o.year, o.region]));
  if (!sameRows(where, got, want)) failed++;
  const count = runCli(cli, ["count", root, "--where", where]);
  if (count.status !== 0 || Number(count.stdout.trim()) !== want.length) {
    console.log(`FAIL count ${where}: ${count.stdout.trim()} ${count.stderr.trim()}, DuckDB ${want.length}`);
    failed++;
  }
}
console.log(`duckdb_dataset: ${preds.length} predicates, ${failed} failed`);
process.exit(failed ? 1 : 0);
