#!/usr/bin/env node
// DuckDB reads the lists of VARIANT that `convert --variant 'items[]'
// --variant 'recs[].v'` writes from JSON Lines, unshredded and shredded at
// depth 2: `items::JSON` and `recs::JSON` equal the input values after
// normalising both (parsed, keys sorted); a missing v reads as null.
//   node tests/interop/duckdb_variant_convert_list.mjs CLI WORKDIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB missing.
import fs from "node:fs";
import path from "node:path";
import { openDuckDB, requireVariant } from "../../tools/duckdb_open.mjs";
import { checkShredDepths, expectedById, expectJson, jsonColumnsDiff, makeGen, writeLines } from "./common.mjs";

const [cli, work] = process.argv.slice(2);
const { con } = await openDuckDB();
await requireVariant(con);
fs.mkdirSync(work, { recursive: true });

const { rnd, gen } = makeGen({ seed: 1414, keys: ["a", "b", "id", "name", "x y", "tags", "é"], deep: 3, maxKeys: 4 });
const lines = [];
for (let i = 0; i < 1200; i++) {
  const r = { id: i };
  const m = i % 17;
  if (m === 2) r.items = null;
  else if (m === 3) r.items = [];
  else if (m !== 1) {
    r.items = [];
    for (let j = 1 + rnd(4); j > 0; j--) r.items.push((i + j) % 4 ? { id: i, name: `n${j}` } : gen(0));
  }
  if (m !== 5) {
    r.recs = [];
    for (let j = 0, n = rnd(3); j < n; j++) r.recs.push(m === 6 && j === 0 ? { w: j } : { v: j % 3 ? gen(0) : i, w: j });
  }
  lines.push(JSON.stringify(r));
}
const input = writeLines(path.join(work, "in.jsonl"), lines);
const want = expectedById(lines, (r) => [expectJson(r.items), expectJson(r.recs?.map((x) => ({ v: x.v ?? null, w: x.w })))]);

const failed = await checkShredDepths({
  cli, con, input, work, depths: [0, 2],
  args: ["--variant", "items[]", "--variant", "recs[].v", "--row-group-size", "400"],
  columns: "items::JSON, recs::JSON",
  rows: want.size,
  diff: jsonColumnsDiff(want),
});
process.exit(failed ? 1 : 0);
