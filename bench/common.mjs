// Shared helpers for the DuckDB bench scripts: load @duckdb/node-api from
// tools/duckdb/node_modules (run scripts/install-duckdb.sh first) through
// tools/duckdb_open.mjs, as the tests do.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadDuckDB } from "../tools/duckdb_open.mjs";

export const benchDir = path.dirname(fileURLToPath(import.meta.url));
export const repoDir = path.dirname(benchDir);

export async function duckdb() {
  return loadDuckDB({ message: "@duckdb/node-api not installed: run scripts/install-duckdb.sh", log: console.error });
}

export async function connect(threads = 1) {
  const { DuckDBInstance } = await duckdb();
  const inst = await DuckDBInstance.create(":memory:");
  const con = await inst.connect();
  await con.run(`SET threads=${threads}`);
  return { inst, con };
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

export function sqlStr(s) {
  return "'" + String(s).replaceAll("'", "''") + "'";
}

// Load a peer package installed by scripts/install-bench-peers.sh into
// tools/<dir>/node_modules; null when it is absent (the caller reports it).
export async function peer(dir, pkg) {
  const req = createRequire(path.join(repoDir, "tools", dir, "package.json"));
  let p;
  try {
    p = req.resolve(pkg);
  } catch {
    return null;
  }
  return import(p);
}

// One warm-up, then RUNS timed calls of fn: median and best wall clock (ms),
// and the median CPU time of the process (user + system, ms) over the call,
// which on a loaded shared machine says more than the wall clock (the peers
// run single-threaded, so their CPU time is their work).
export async function timeRuns(fn, runs) {
  await fn();
  const ms = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { median: median(ms), best: Math.min(...ms), cpu: median(cpu) };
}
