#!/usr/bin/env node
// DuckDB reads the VARIANT fields inside structs that `convert --variant
// s.v --variant s.t.w` writes from JSON Lines, unshredded and shredded at
// depths 1..3: `s.v::JSON` and `s.t.w::JSON` equal the input values after
// normalising both (parsed, keys sorted); a missing field, a missing or
// null s and a JSON null all read as NULL (DuckDB calls a Variant null
// "IS NULL" too, and prints both as JSON null).
//   node tests/interop/duckdb_variant_convert_nested.mjs CLI WORKDIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB missing.
import fs from "node:fs";
import path from "node:path";
import { openDuckDB } from "../../tools/duckdb_open.mjs";
import { checkShredDepths, expectedById, expectJson, jsonColumnsDiff, makeGen, writeLines } from "./common.mjs";

const [cli, work] = process.argv.slice(2);
const { con } = await openDuckDB();
fs.mkdirSync(work, { recursive: true });

const { gen } = makeGen({ seed: 4114, keys: ["a", "b", "id", "name", "x y", "tags", "é", "z"], deep: 4, maxKeys: 5 });
const lines = [];
for (let i = 0; i < 1200; i++) {
  const r = { id: i };
  const m = i % 19;
  if (m === 2) r.s = null;
  else if (m !== 1) {
    const s = { a: i };
    if (m !== 3) s.v = i % 3 ? { id: i, name: `n${i}`, tags: ["t", i] } : gen(0);
    if (m !== 5) s.t = { w: i % 4 ? i : gen(1) };
    r.s = s;
  }
  lines.push(JSON.stringify(r));
}
const input = writeLines(path.join(work, "in.jsonl"), lines);
const want = expectedById(lines, (r) => [expectJson(r.s?.v), expectJson(r.s?.t?.w)]);

const failed = await checkShredDepths({
  cli, con, input, work, depths: [0, 1, 3],
  args: ["--variant", "s.v", "--variant", "s.t.w", "--row-group-size", "400"],
  columns: "s.v::JSON, s.t.w::JSON",
  rows: want.size,
  diff: jsonColumnsDiff(want),
});
process.exit(failed ? 1 : 0);
