#!/usr/bin/env node
// Encryption interop with DuckDB (1.5: AES_GCM_V1, encrypted footer, one
// footer key, every column encrypted).
//  1. DuckDB reads files parquetry encrypted with a footer key of 16, 24
//     and 32 bytes (flat columns, one data page per chunk, several row
//     groups): its rows equal those it reads from the same data written in
//     plaintext, and a wrong key is refused.
//  2. parquetry reads files DuckDB encrypted (flat and nested columns,
//     several row groups and pages): `cat` with the key gives what `cat`
//     gives for the same query written in plaintext; `verify` is ok; a wrong
//     key fails with exit 1.
//   node tests/interop/duckdb_encrypt.mjs CLI WORKDIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB missing.
import fs from "node:fs";
import path from "node:path";
import { firstLine, jsonText as big, openDuckDB, queryRows, runCli, sqlString } from "../../tools/duckdb_open.mjs";

const [cli, work] = process.argv.slice(2);
const { con } = await openDuckDB();
fs.mkdirSync(work, { recursive: true });
let failed = 0;
const fail = (m) => { console.log("FAIL " + m); failed++; };
const run = (args) => runCli(cli, args);
const rows = (sql) => queryRows(con, sql);

// 1. DuckDB reads what parquetry encrypted
const csv = path.join(work, "in.csv");
let text = "id,name,score,day\n";
for (let i = 0; i < 6000; i++)
  text += `${i},${i % 13 === 0 ? "" : "n" + (i % 41)},${i % 9 === 0 ? "" : (i * 0.25).toFixed(2)},2024-01-${String(1 + (i % 28)).padStart(2, "0")}\n`;
fs.writeFileSync(csv, text);
const schema = "message m { required int64 id; optional binary name (STRING); optional double score; optional int32 day (DATE); }";
const plain = path.join(work, "plain.parquet");
let r = run(["convert", "--row-group-size", "1500", "--schema", schema, csv, plain]);
if (r.status !== 0) fail("convert plain: " + r.stderr);
const keys = { 16: "0123456789abcdef", 24: "0123456789abcdef01234567", 32: "0123456789abcdef0123456789abcdef" };
let n = 0;
for (const [len, key] of Object.entries(keys)) {
  const enc = path.join(work, `enc${len}.parquet`);
  r = run(["convert", "--row-group-size", "1500", "--schema", schema, "--encrypt-footer", key, csv, enc]);
  if (r.status !== 0) { fail(`convert ${len}: ${r.stderr}`); continue; }
  // DuckDB takes a 16/24/32-character key as the key itself
  await con.run(`PRAGMA add_parquet_key('k${len}', '${key}')`);
  try {
    const src = `read_parquet(${sqlString(enc)}, encryption_config = {footer_key: 'k${len}'})`;
    const cnt = await rows(`SELECT count(*) FROM ${src}`);
    const diff = await rows(`SELECT count(*) FROM ((SELECT * FROM ${src} EXCEPT ALL SELECT * FROM '${plain}')
                                                   UNION ALL (SELECT * FROM '${plain}' EXCEPT ALL SELECT * FROM ${src}))`);
    if (Number(cnt[0][0]) !== 6000 || Number(diff[0][0]) !== 0) fail(`key ${len}: DuckDB read ${big(cnt)} rows, ${big(diff)} differ`);
    else n++;
  } catch (e) {
    fail(`key ${len}: DuckDB could not read parquetry's file: ${firstLine(e)}`);
  }
}
await con.run(`PRAGMA add_parquet_key('wrong', 'fedcba9876543210')`);
try {
  await rows(`SELECT count(*) FROM read_parquet('${path.join(work, "enc16.parquet")}', encryption_config = {footer_key: 'wrong'})`);
  fail("DuckDB read parquetry's file with a wrong key");
} catch { /* refused: as it should */ }

// 2. parquetry reads what DuckDB encrypted
try { await con.run("SET force_mbedtls_unsafe = true"); } catch { /* older or OpenSSL-backed builds need none */ }
await con.run(`PRAGMA add_parquet_key('dk', '0123456789abcdef0123456789abcdef')`);
const queries = {
  flat: "SELECT i AS a, 'v' || (i % 17) AS name, i * 0.5 AS d, CASE WHEN i % 5 = 0 THEN NULL ELSE i END AS o FROM range(250000) t(i)",
  nested: "SELECT i AS a, {'x': i * 2, 'y': CASE WHEN i % 3 = 0 THEN NULL ELSE 'y' || i END} AS s, [i, i + 1, NULL] AS l FROM range(3000) t(i)",
};
for (const [name, q] of Object.entries(queries)) {
  const enc = path.join(work, `duck_${name}.parquet`), pl = path.join(work, `duck_${name}_plain.parquet`);
  try {
    await con.run(`COPY (${q}) TO '${enc}' (FORMAT parquet, ROW_GROUP_SIZE 100000, ENCRYPTION_CONFIG {footer_key: 'dk'})`);
    await con.run(`COPY (${q}) TO '${pl}' (FORMAT parquet, ROW_GROUP_SIZE 100000)`);
  } catch (e) {
    console.log(`SKIP: DuckDB cannot write encrypted files here: ${firstLine(e)}`);
    continue;
  }
  const a = run(["cat", "--footer-key", "0123456789abcdef0123456789abcdef", enc]);
  const b = run(["cat", pl]);
  if (a.status !== 0) fail(`${name}: parquetry cat of DuckDB's encrypted file: ${a.stderr}`);
  else if (a.stdout !== b.stdout || a.stdout.length < 1000) fail(`${name}: rows differ from DuckDB's plaintext file`);
  else n++;
  const v = run(["verify", "--footer-key", "0123456789abcdef0123456789abcdef", enc]);
  if (v.status !== 0 || !/: ok/.test(v.stdout)) fail(`${name}: verify: ${v.stdout}${v.stderr}`);
  const w = run(["cat", "--footer-key", "0123456789abcdef0123456789abcdeX", enc]);
  if (w.status !== 1) fail(`${name}: a wrong key gave exit ${w.status}`);
}
console.log(`${n} interop checks passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
