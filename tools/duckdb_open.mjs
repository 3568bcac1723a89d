// tools/duckdb_open.mjs: the one place the Node scripts (tests/**/*.mjs,
// bench/*.mjs) load DuckDB's Node API (@duckdb/node-api) from
// tools/duckdb/node_modules, which scripts/install-duckdb.sh fills. Found by
// this file's own location, so the scripts work from any working directory.
//   import { loadDuckDB, openDuckDB } from "../../tools/duckdb_open.mjs";
//   const duck = await loadDuckDB();                 // the module
//   const { duck, inst, con } = await openDuckDB();  // plus :memory: and a connection
// When the package is absent the script prints `message` (to stdout for the
// tests, whose runners show it; `log` can be console.error) and exits 3,
// which tests/cli/lib/duckdb.sh turns into ctest's skip (77).
//
// Below that, what the tests/interop scripts share to compare DuckDB's view
// with parquetry's: SQL quoting, the query helpers, a check tally, the
// parquetry CLI run, values made comparable (keys sorted, bigints as text)
// and the row-by-row comparison that prints where two row lists differ.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export async function loadDuckDB({ message = "SKIP: @duckdb/node-api missing", log = console.log } = {}) {
  try {
    return await import(createRequire(path.join(repoDir, "tools/duckdb/package.json")).resolve("@duckdb/node-api"));
  } catch {
    log(message);
    process.exit(3);
  }
}

export async function openDuckDB(options = {}, config = undefined) {
  const duck = await loadDuckDB(options);
  const inst = await duck.DuckDBInstance.create(":memory:", config);
  const con = await inst.connect();
  return { duck, inst, con };
}

// Exits 3 (skipped) when this DuckDB has no VARIANT type.
export async function requireVariant(con) {
  try {
    await con.runAndReadAll("SELECT 1::VARIANT");
  } catch (e) {
    console.log(`SKIP: this DuckDB has no VARIANT: ${e}`);
    process.exit(3);
  }
}

// A SQL string literal: 'it''s'.
export const sqlString = (s) => `'${String(s).replaceAll("'", "''")}'`;

// The rows of a query: as arrays of DuckDB's JS values, as objects of
// JSON-able values, or the first value of the first row.
export const queryRows = async (con, sql) => (await con.runAndReadAll(sql)).getRows();
export const queryJson = async (con, sql) => (await con.runAndReadAll(sql)).getRowObjectsJson();
export const queryValue = async (con, sql) => (await queryRows(con, sql))[0][0];

// The first line of an error's message.
export const firstLine = (e) => String(e && e.message !== undefined ? e.message : e).split("\n")[0];

// `cli ARGS`, its output as text (up to 256 MiB).
export const runCli = (cli, args) => spawnSync(cli, args, { encoding: "utf8", maxBuffer: 1 << 28 });

// JSON text of a value DuckDB returned: bigints as their decimal text.
export const jsonText = (v) => JSON.stringify(v, (k, x) => (typeof x === "bigint" ? x.toString() : x));

// x with the keys of every object sorted (arrays keep their order), so that
// values equal as JSON compare equal as text; leaf maps every other value.
export function sortKeys(x, leaf = (v) => v) {
  if (Array.isArray(x)) return x.map((y) => sortKeys(y, leaf));
  if (x && typeof x === "object") {
    const o = {};
    for (const k of Object.keys(x).sort()) o[k] = sortKeys(x[k], leaf);
    return o;
  }
  return leaf(x);
}
export const sortedJson = (x) => JSON.stringify(sortKeys(x));

// A tally of checks: ok() counts a pass; bad(m) prints "FAIL: m" and counts
// a failure; check(cond, m) is one or the other; done(summary) prints
// "summary: P passed, F failed" and exits 1 on any failure, else 0.
export function tally() {
  const t = {
    pass: 0,
    fail: 0,
    ok: () => { t.pass++; },
    bad: (m) => { t.fail++; console.log(`FAIL: ${m}`); },
    check: (cond, m) => (cond ? t.ok() : t.bad(m)),
    done: (summary) => {
      console.log(`${summary}: ${t.pass} passed, ${t.fail} failed`);
      process.exit(t.fail ? 1 : 0);
    },
  };
  return t;
}

// Two lists of rows (texts, or values compared as jsonText) the same, in
// order. When not, prints "FAIL label: N rows, NAME M" if the counts differ
// and the first `show` rows that differ, "FAIL label row I:\n  got ...\n
// want ...", and returns false.
export function sameRows(label, got, want, { show = 1, gotName = "parquetry", wantName = "DuckDB" } = {}) {
  const text = (r) => (typeof r === "string" ? r : jsonText(r));
  let same = got.length === want.length;
  if (!same) console.log(`FAIL ${label}: ${gotName} ${got.length} rows, ${wantName} ${want.length}`);
  let shown = 0;
  const w = Math.max(gotName.length, wantName.length);
  for (let i = 0; i < Math.min(got.length, want.length); i++) {
    const g = text(got[i]), x = text(want[i]);
    if (g === x) continue;
    same = false;
    if (shown++ >= show) break;
    console.log(`FAIL ${label} row ${i}:\n  ${gotName.padEnd(w)} ${g}\n  ${wantName.padEnd(w)} ${x}`);
  }
  return same;
}
