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
