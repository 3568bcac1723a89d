// tests/interop/common.mjs: what several tests/interop scripts share beyond
// tools/duckdb_open.mjs (which holds the DuckDB and comparison helpers):
// the seeded random JSON values the `convert --variant` scripts write, the
// loop that converts them at each shredding depth and compares DuckDB's
// reading row by row, and the WKT normalisation of the geo scripts. Not a
// test itself (tests/cli/lib/duckdb.sh runs scripts by name).
import fs from "node:fs";
import path from "node:path";
import { queryRows, runCli, sortedJson, sqlString } from "../../tools/duckdb_open.mjs";

// A seeded generator: rnd(n) in [0, n), the same sequence on every machine.
export function lcg(seed) {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
}

// gen(depth): a random JSON value (null, booleans, small and large
// integers, strings with a tab, quotes and non-ASCII text, objects of up to
// maxKeys - 1 of keys, arrays of up to 3), scalars only below depth `deep`.
export function makeGen({ seed, keys, deep, maxKeys }) {
  const rnd = lcg(seed);
  function gen(depth) {
    switch (rnd(depth > deep ? 6 : 9)) {
      case 0: return null;
      case 1: return rnd(2) === 1;
      case 2: return rnd(200) - 100;
      case 3: return rnd(2000000000) * 1000 - 7;
      case 4: return `s${rnd(50)}\t"q" é中`;
      case 5: return `k${rnd(9)}`;
      case 6: case 7: {
        const o = {};
        for (let i = rnd(maxKeys); i > 0; i--) o[keys[rnd(keys.length)]] = gen(depth + 1);
        return o;
      }
      default: {
        const a = [];
        for (let i = rnd(4); i > 0; i--) a.push(gen(depth + 1));
        return a;
      }
    }
  }
  return { rnd, gen };
}

// For each depth: `cli convert ...args --variant-shred-depth DEPTH INPUT
// WORK/file(DEPTH)`; the schema has typed_value exactly when DEPTH > 0;
// DuckDB's `SELECT id, COLUMNS FROM read_parquet(out) ORDER BY id` gives
// `rows` rows, each of which diff(row) passes (it returns null, or the text
// saying how the row differs; the first 3 are printed). One line a depth.
// Returns how many checks failed (convert, typed_value, rows: one each a
// depth at most).
export async function checkShredDepths({ cli, con, input, work, depths, args, columns, rows, diff,
                                         file = (d) => `d${d}.parquet` }) {
  let failed = 0;
  for (const depth of depths) {
    const out = path.join(work, file(depth));
    const conv = runCli(cli, ["convert", ...args, "--variant-shred-depth", String(depth), input, out]);
    if (conv.status !== 0) {
      console.log(`FAIL depth ${depth}: convert: ${conv.stderr}`);
      failed++;
      continue;
    }
    const shredded = runCli(cli, ["schema", out]).stdout.includes("typed_value");
    if (shredded !== depth > 0) {
      console.log(`FAIL depth ${depth}: typed_value ${shredded ? "present" : "absent"}`);
      failed++;
    }
    const got = await queryRows(con, `SELECT id, ${columns} FROM read_parquet(${sqlString(out)}) ORDER BY id`);
    let bad = 0;
    if (got.length !== rows) {
      console.log(`FAIL depth ${depth}: ${got.length} rows, want ${rows}`);
      bad++;
    }
    for (const row of got) {
      const d = diff(row);
      if (d !== null && bad++ < 3) console.log(`FAIL depth ${depth} id ${row[0]}:\n${d}`);
    }
    console.log(`depth ${depth}: ${got.length} rows, ${bad} differ${shredded ? ", shredded" : ""}`);
    failed += bad ? 1 : 0;
  }
  return failed;
}

// lines (JSON texts) written one a line to `file`, which is returned.
export function writeLines(file, lines) {
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

// id -> pick(row) for each of lines, JSON objects with an id.
export function expectedById(lines, pick) {
  const want = new Map();
  for (const l of lines) {
    const r = JSON.parse(l);
    want.set(r.id, pick(r));
  }
  return want;
}

// An input value as compared: its JSON text with keys sorted, null for a
// missing or null value; DuckDB's ::JSON text likewise (SQL NULL and JSON
// null both null).
export const expectJson = (x) => (x === undefined || x === null ? null : sortedJson(x));
export const gotJson = (j) => (j === null || String(j) === "null" ? null : sortedJson(JSON.parse(String(j))));

// A diff for checkShredDepths: the row [id, ...::JSON columns] against
// want.get(id), the expectJson texts of those columns.
export const jsonColumnsDiff = (want) => ([id, ...cols]) => {
  const w = want.get(Number(id)).map(String), g = cols.map(gotJson).map(String);
  return g.every((x, k) => x === w[k]) ? null : `  want ${w.join(" / ")}\n  got  ${g.join(" / ")}`;
};

// WKT compared without MULTIPOINT's inner parentheses: parquetry writes the
// ISO form "MULTIPOINT ((1 1), (2 2))", DuckDB "MULTIPOINT (1 1, 2 2)".
export const normWkt = (w) => (w == null ? w : w.replace(/([(,] ?)\(([^(),\s]+(?: [^(),\s]+){1,3})\)/g, "$1$2"));
