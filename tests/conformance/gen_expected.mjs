#!/usr/bin/env node
// Generate tests/conformance/expected/ from the parquet-testing corpus with
// DuckDB (@duckdb/node-api, installed by scripts/install-duckdb.sh) as the
// peer reader. See tests/conformance/expected/README.md for the format.
//
//   PARQUET_TESTING_DIR=/path/to/parquet-testing node tests/conformance/gen_expected.mjs [FILTER]
//
// FILTER (optional) is a substring of the corpus-relative path: only matching
// files are regenerated and MANIFEST.tsv is then left untouched.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as C from "./canonical.mjs";
import { loadDuckDB } from "../../tools/duckdb_open.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const corpus = path.resolve(process.env.PARQUET_TESTING_DIR ?? path.join(repo, "../shared/parquet-testing"));
const outDir = process.env.PQT_EXPECTED_OUT ? path.resolve(process.env.PQT_EXPECTED_OUT) : path.join(here, "expected"); // PQT_EXPECTED_OUT: tests/interop
const filter = process.argv[2];

const FULL_LIMIT = 2000; // files with more rows store only the first KEEP rows
const KEEP = 1000;

const duck = await loadDuckDB({ message: "@duckdb/node-api missing: run scripts/install-duckdb.sh", log: console.error });
const { DuckDBInstance } = duck;
const V = duck; // value classes

// ---------------------------------------------------------------- corpus walk

function walk(rel) {
  const abs = path.join(corpus, rel);
  if (!fs.existsSync(abs)) return [];
  let out = [];
  for (const e of fs.readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const r = rel + "/" + e.name;
    if (e.isDirectory()) out = out.concat(walk(r));
    else if (/\.parquet(\.encrypted)?$/.test(e.name)) out.push(r);
  }
  return out;
}

// Notes on where the corpus carries its own expected values.
function corpusExpectations(rel) {
  const notes = [];
  const base = path.join(corpus, rel.replace(/\.parquet$/, ""));
  if (fs.existsSync(base + "_expect.csv")) notes.push(`corpus expected values: ${rel.replace(/\.parquet$/, "")}_expect.csv`);
  if (fs.existsSync(base + ".md")) notes.push(`described in ${rel.replace(/\.parquet$/, "")}.md`);
  if (rel.startsWith("shredded_variant/")) notes.push("corpus expected values: shredded_variant/cases.json and *.variant.bin");
  if (rel.startsWith("data/geospatial/")) notes.push("described in data/geospatial/README.md");
  return notes;
}

// ---------------------------------------------------------------- schema

function parseLogical(s) {
  if (!s) return null;
  const name = /^(\w+?)Type\b/.exec(s)?.[1] ?? s;
  const lt = { name, raw: s };
  const unit = /unit=TimeUnit\((\w+)=/.exec(s)?.[1];
  if (unit) lt.unit = unit;
  const utc = /isAdjustedToUTC=(\w+)/.exec(s)?.[1];
  if (utc !== undefined) lt.utc = utc === "1" || utc === "true";
  const sc = /scale=(-?\d+)/.exec(s)?.[1];
  if (sc !== undefined) lt.scale = Number(sc);
  const signed = /isSigned=(\w+)/.exec(s)?.[1];
  if (signed !== undefined) lt.signed = signed === "1" || signed === "true";
  return lt;
}

function buildTree(rows) {
  let i = 0;
  function node() {
    const r = rows[i++];
    const n = {
      name: r.name, type: r.type, typeLength: r.type_length, rep: r.repetition_type,
      conv: r.converted_type, scale: r.scale === null ? null : Number(r.scale),
      logical: parseLogical(r.logical_type), children: [],
    };
    const k = r.num_children === null ? 0 : Number(r.num_children);
    if (r.type === null || k > 0) {
      n.group = true;
      for (let j = 0; j < k; j++) n.children.push(node());
    }
    return n;
  }
  return node();
}

// Leaf kind from the Parquet schema (logical type first, then converted type, then physical).
function leafKind(n) {
  const lt = n.logical;
  if (lt) {
    switch (lt.name) {
      case "String": case "Enum": case "Json": return { k: "string" };
      case "Bson": return { k: "binary" };
      case "UUID": return { k: "uuid" };
      case "Float16": return { k: "f16" };
      case "Decimal": return { k: "decimal", scale: lt.scale ?? n.scale ?? 0 };
      case "Date": return { k: "date" };
      case "Time": return { k: "time", unit: lt.unit, utc: lt.utc };
      case "Timestamp": return { k: "ts", unit: lt.unit, utc: lt.utc };
      case "Int": return { k: "int" };
      case "Geometry": case "Geography": return { k: "binary", geo: true };
      case "Variant": return { k: "variant" };
      default: break; // Unknown, etc.: fall through to converted/physical
    }
  }
  switch (n.conv) {
    case "UTF8": case "ENUM": case "JSON": return { k: "string" };
    case "BSON": return { k: "binary" };
    case "DECIMAL": return { k: "decimal", scale: n.scale ?? 0 };
    case "DATE": return { k: "date" };
    case "TIME_MILLIS": return { k: "time", unit: "MILLIS", utc: true };
    case "TIME_MICROS": return { k: "time", unit: "MICROS", utc: true };
    case "TIMESTAMP_MILLIS": return { k: "ts", unit: "MILLIS", utc: true };
    case "TIMESTAMP_MICROS": return { k: "ts", unit: "MICROS", utc: true };
    case "INTERVAL": return { k: "interval" };
    default:
      if (n.conv && /^U?INT_\d+$/.test(n.conv)) return { k: "int" };
  }
  switch (n.type) {
    case "BOOLEAN": return { k: "bool" };
    case "INT32": case "INT64": return { k: "int" };
    case "INT96": return { k: "int96" };
    case "FLOAT": return { k: "f32" };
    case "DOUBLE": return { k: "f64" };
    case "BYTE_ARRAY": case "FIXED_LEN_BYTE_ARRAY": return { k: "binary" };
  }
  throw new Error(`unknown leaf type ${n.type}`);
}

// ---------------------------------------------------------------- values

class Imprecise extends Error {}
class Shape extends Error {}

const UNIT_EXP = { SECONDS: 0, MILLIS: 3, MICROS: 6, NANOS: 9 };

// Convert a DuckDB time-like value to {count, unit}.
function timeCount(v) {
  if (v instanceof V.DuckDBTimestampValue || v instanceof V.DuckDBTimestampTZValue) return { c: v.micros, u: "MICROS" };
  if (v instanceof V.DuckDBTimestampMillisecondsValue) return { c: v.millis, u: "MILLIS" };
  if (v instanceof V.DuckDBTimestampNanosecondsValue) return { c: v.nanos, u: "NANOS" };
  if (v instanceof V.DuckDBTimestampSecondsValue) return { c: v.seconds, u: "SECONDS" };
  if (v instanceof V.DuckDBTimeValue || v instanceof V.DuckDBTimeTZValue) return { c: v.micros, u: "MICROS" };
  if (v instanceof V.DuckDBTimeNSValue) return { c: v.nanos, u: "NANOS" };
  return null;
}

function rescale(c, from, to, ctx) {
  c = BigInt(c);
  const d = UNIT_EXP[to] - UNIT_EXP[from];
  if (d >= 0) {
    if (d > 0) ctx.imprecise(`${from.toLowerCase()} from DuckDB for ${to.toLowerCase()} column`);
    return c * 10n ** BigInt(d);
  }
  const f = 10n ** BigInt(-d);
  if (c % f !== 0n) throw new Shape(`cannot rescale ${c} ${from} to ${to}`);
  return c / f;
}

function bytesOf(v) {
  if (v instanceof V.DuckDBBlobValue || v instanceof V.DuckDBGeometryValue) return v.bytes;
  if (typeof v === "string") return new TextEncoder().encode(v);
  if (v instanceof V.DuckDBBitValue) throw new Shape("BIT value");
  throw new Shape(`expected bytes, got ${v?.constructor?.name ?? typeof v}`);
}

function leaf(n, v, ctx) {
  const lk = leafKind(n);
  switch (lk.k) {
    case "bool":
      if (typeof v !== "boolean") throw new Shape(`bool expected for ${n.name}`);
      return v ? "true" : "false";
    case "int":
      if (typeof v === "number" && Number.isInteger(v)) return String(v);
      if (typeof v === "bigint") return v.toString();
      throw new Shape(`integer expected for ${n.name}, got ${v?.constructor?.name ?? typeof v}`);
    case "f32": return C.fmtFloat(v);
    case "f64": return C.fmtDouble(v);
    case "f16": return C.fmtFloat16(v);
    case "string":
      if (typeof v === "string") return C.fmtString(v);
      if (v instanceof V.DuckDBBlobValue) return C.fmtString(new TextDecoder("utf-8", { fatal: true }).decode(v.bytes));
      throw new Shape(`string expected for ${n.name}, got ${v?.constructor?.name ?? typeof v}`);
    case "binary":
      if (lk.geo) ctx.geo.push(bytesOf(v));
      return C.fmtBase64(bytesOf(v));
    case "decimal": {
      if (v instanceof V.DuckDBDecimalValue) {
        let u = v.value;
        if (v.scale !== lk.scale) {
          if (v.scale > lk.scale) throw new Shape("decimal scale");
          u *= 10n ** BigInt(lk.scale - v.scale);
        }
        return C.fmtDecimal(u, lk.scale);
      }
      if (typeof v === "bigint" || (typeof v === "number" && lk.scale === 0 && Number.isInteger(v))) return C.fmtDecimal(BigInt(v), lk.scale);
      if (typeof v === "number") {
        ctx.imprecise("decimal read by DuckDB as DOUBLE");
        return C.fmtDecimal(BigInt(Math.round(v * 10 ** lk.scale)), lk.scale);
      }
      throw new Shape("decimal expected");
    }
    case "date":
      if (v instanceof V.DuckDBDateValue) return JSON.stringify(C.fmtDate(v.days));
      throw new Shape("date expected");
    case "time": {
      const t = timeCount(v);
      if (!t) throw new Shape("time expected");
      return JSON.stringify(C.fmtTime(rescale(t.c, t.u, lk.unit, ctx), lk.unit));
    }
    case "ts": case "int96": {
      if (v instanceof Exact) return JSON.stringify(C.fmtTimestamp(v.nanos, "NANOS", false));
      const t = timeCount(v);
      if (!t) throw new Shape("timestamp expected");
      const unit = lk.k === "int96" ? "NANOS" : lk.unit;
      if (lk.k === "int96") ctx.int96Candidate(rescale(t.c, t.u, "NANOS", { imprecise() {} }));
      return JSON.stringify(C.fmtTimestamp(rescale(t.c, t.u, unit, ctx), unit, lk.k === "int96" ? false : lk.utc));
    }
    case "uuid":
      if (v instanceof V.DuckDBUUIDValue) return JSON.stringify(v.toString().toLowerCase());
      throw new Shape("uuid expected");
    case "interval":
      if (v instanceof V.DuckDBIntervalValue) {
        if (v.micros % 1000n !== 0n) throw new Shape("interval micros not whole millis");
        return `{"months":${v.months},"days":${v.days},"millis":${v.micros / 1000n}}`;
      }
      throw new Shape("interval expected");
    case "variant":
      throw new Shape("VARIANT");
  }
  throw new Shape(`unhandled kind ${lk.k}`);
}

const isStructT = (t) => t && t.entryNames !== undefined;
const sameNames = (t, names) => isStructT(t) && t.entryNames.length === names.length && t.entryNames.every((x, i) => x === names[i]);

// A group element of a list (an unannotated repeated group, or a legacy
// two-level list element). DuckDB may collapse a single-child group to its
// child; detect that from the DuckDB element type and re-insert the level.
function groupElement(g, x, t, ctx) {
  const names = g.children.map((c) => c.name);
  if (g.children.length === 1) {
    const c = g.children[0];
    const direct = sameNames(t, names);
    const collapsed = c.group ? sameNames(t, c.children.map((cc) => cc.name)) : t !== null && !isStructT(t);
    if (collapsed) { // when both shapes match, DuckDB's observed behaviour is to collapse
      ctx.note(`DuckDB drops the single-child repeated group level ${g.name}`);
      return `{${JSON.stringify(c.name)}:${field(c, x, t, ctx)}}`;
    }
    if (!direct) throw new Shape(`cannot match DuckDB type ${t} to repeated group ${g.name}`);
  }
  return groupObject(g, x, t, ctx);
}

function groupObject(g, v, t, ctx) {
  if (v === null) return "null";
  if (!(v instanceof V.DuckDBStructValue)) throw new Shape(`struct expected for ${g.name}, got ${v?.constructor?.name}`);
  const parts = [];
  g.children.forEach((c, i) => {
    const key = isStructT(t) ? t.entryNames[i] : c.name;
    if (!(key in v.entries)) throw new Shape(`DuckDB struct lacks field ${c.name}`);
    parts.push(`${JSON.stringify(c.name)}:${field(c, v.entries[key], isStructT(t) ? t.entryTypes[i] : null, ctx)}`);
  });
  return `{${parts.join(",")}}`;
}

function listItems(v, n) {
  if (v instanceof V.DuckDBListValue || v instanceof V.DuckDBArrayValue) return v.items;
  throw new Shape(`list expected for ${n.name}, got ${v?.constructor?.name}`);
}

// A field as it appears in its parent: repeated fields become arrays.
function field(n, v, t, ctx) {
  if (n.rep === "REPEATED") {
    if (v === null) throw new Shape(`null for repeated ${n.name}`);
    const et = t?.valueType ?? null;
    return "[" + listItems(v, n).map((x) => (n.group ? groupElement(n, x, et, ctx) : value(n, x, et, ctx))).join(",") + "]";
  }
  return value(n, v, t, ctx);
}

// The value of a node itself (ignoring its own repetition).
function value(n, v, t, ctx) {
  if (v === null) return "null";
  if (!n.group) return leaf(n, v, ctx);
  const ann = n.logical?.name === "List" || n.conv === "LIST" ? "LIST"
    : n.logical?.name === "Map" || n.conv === "MAP" || n.conv === "MAP_KEY_VALUE" ? "MAP"
    : n.logical?.name === "Variant" ? "VARIANT" : null;
  if (ann === "VARIANT" || v instanceof V.DuckDBVariantValue) throw new Shape("VARIANT converted by DuckDB");
  if (ann === "LIST" && n.children.length === 1 && n.children[0].rep === "REPEATED") {
    const r = n.children[0];
    const et = t?.valueType ?? null;
    const items = listItems(v, n);
    if (!r.group) return "[" + items.map((x) => value(r, x, et, ctx)).join(",") + "]";
    if (r.children.length > 1 || r.name === "array" || r.name === n.name + "_tuple") {
      // two-level list whose element is the repeated group itself
      const annotated = r.logical || r.conv;
      return "[" + items.map((x) => (annotated ? value(r, x, et, ctx) : groupElement(r, x, et, ctx))).join(",") + "]";
    }
    const e = r.children[0];
    return "[" + items.map((x) => field(e, x, et, ctx)).join(",") + "]";
  }
  if (ann === "MAP" && n.children.length === 1 && n.children[0].rep === "REPEATED" && n.children[0].group) {
    const kv = n.children[0];
    const kn = kv.children.find((c) => c.name === "key") ?? kv.children[0];
    const vn = kv.children.length > 1 ? (kv.children.find((c) => c.name === "value") ?? kv.children[1]) : null;
    let entries;
    if (v instanceof V.DuckDBMapValue) entries = v.entries.map((e) => [e.key, e.value]);
    else if (v instanceof V.DuckDBListValue) entries = v.items.map((s) => Object.values(s.entries));
    else throw new Shape(`map expected for ${n.name}`);
    const kt = t?.keyType ?? null, vt = t?.valueType ?? null;
    return "[" + entries.map(([k, x]) => `{"key":${field(kn, k, kt, ctx)},"value":${vn ? field(vn, x, vt, ctx) : "null"}}`).join(",") + "]";
  }
  return groupObject(n, v, t, ctx);
}

// ---------------------------------------------------------------- overrides

// An exact INT96 value (nanoseconds since the epoch) taken from the corpus.
class Exact { constructor(nanos) { this.nanos = nanos; } }

// Files whose description in the corpus gives exact values that DuckDB cannot
// produce. int96_from_spark.md lists the six values as microseconds since the
// epoch (Spark writes microsecond precision, so they are exact); DuckDB
// truncates INT96 to microseconds (harmless here) and overflows the last one.
const OVERRIDES = {
  "data/int96_from_spark.parquet": () => {
    const md = fs.readFileSync(path.join(corpus, "data/int96_from_spark.md"), "utf8");
    const m = /As microseconds since the epoch, they correspond to:\s*```\s*([^`]+?)\s*```/.exec(md);
    if (!m) return null;
    const us = m[1].split(",").map((x) => x.trim());
    return {
      note: "values of column a taken from int96_from_spark.md (DuckDB overflows row 6: year 290000)",
      columns: { a: (r, v) => (us[r] === "null" ? null : new Exact(BigInt(us[r]) * 1000n)) },
    };
  },
};

// The file's bytes followed by the decompressed contents of every zstd frame
// found in it (via the zstd CLI, when present), so that values stored in
// ZSTD-compressed pages can be looked up verbatim too.
function withZstdFrames(buf) {
  const magic = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
  const parts = [buf];
  for (let off = buf.indexOf(magic); off >= 0; off = buf.indexOf(magic, off + 1)) {
    const r = spawnSync("zstd", ["-d", "-c", "-q"], { input: buf.subarray(off), maxBuffer: 1 << 28 });
    if (r.error) break; // no zstd CLI
    if (r.stdout?.length) parts.push(r.stdout);
  }
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------- per file

async function processFile(rel) {
  const abs = path.join(corpus, rel);
  const notes = corpusExpectations(rel);
  if (rel.endsWith(".encrypted")) {
    return { status: "skipped: encrypted (needs keys, see data/README.md)", rows: "", notes };
  }
  const inst = await DuckDBInstance.create(":memory:", { threads: "1" });
  const con = await inst.connect();
  const q = "'" + abs.replaceAll("'", "''") + "'";
  try {
    let schemaRows, reader, rows;
    try {
      schemaRows = (await con.runAndReadAll(`SELECT * FROM parquet_schema(${q})`)).getRowObjectsJS();
      reader = await con.runAndReadAll(`SELECT * FROM read_parquet(${q})`);
      rows = reader.getRows();
    } catch (e) {
      if (/Cannot create a string longer/.test(e.message)) {
        const n = (await con.runAndReadAll(`SELECT count(*) FROM read_parquet(${q})`)).getRows()[0][0];
        return { status: "skipped: DuckDB reads it, but a value exceeds the longest string Node can hold (0x1fffffe8 chars)", rows: String(n), notes };
      }
      return { status: "duckdb-error: " + e.message.split("\n")[0].replaceAll("\t", " ").replace(abs, rel), rows: "", notes };
    }
    const root = buildTree(schemaRows);
    const types = reader.columnTypes();
    if (types.length !== root.children.length) {
      return { status: `skipped: DuckDB returned ${types.length} columns for ${root.children.length} top-level fields`, rows: "", notes };
    }
    const ctx = { impreciseCols: new Map(), geo: [], notes: new Set(), col: null,
      imprecise(why) { this.impreciseCols.set(this.col, why); }, note(s) { this.notes.add(s); },
      int96: new Map(),
      int96Candidate(nanos) { // the 12 bytes DuckDB's value would have in the file
        const perDay = 86400000000000n;
        const days = nanos >= 0n ? nanos / perDay : -((-nanos + perDay - 1n) / perDay);
        const b = Buffer.alloc(12);
        b.writeBigInt64LE(nanos - days * perDay, 0);
        b.writeInt32LE(Number(days + 2440588n), 8);
        if (!this.int96.has(this.col)) this.int96.set(this.col, []);
        this.int96.get(this.col).push(b);
      } };
    const override = OVERRIDES[rel]?.(root);
    if (override) {
      for (const [col, fn] of Object.entries(override.columns)) {
        const i = root.children.findIndex((c) => c.name === col);
        rows.forEach((row, r) => { row[i] = fn(r, row[i]); });
      }
      notes.push(override.note);
    }
    const lines = [];
    for (const row of rows) {
      const parts = root.children.map((c, i) => {
        ctx.col = c.name;
        return `${JSON.stringify(c.name)}:${field(c, row[i], types[i], ctx)}`;
      });
      lines.push(`{${parts.join(",")}}\n`);
    }
    let all;
    try {
      all = lines.join("");
    } catch (e) {
      if (e instanceof RangeError) return { status: `skipped: rows too large for JSON Lines in Node (${e.message})`, rows: String(rows.length), notes };
      throw e;
    }
    const sha = crypto.createHash("sha256").update(all).digest("hex");
    const stored = lines.length > FULL_LIMIT ? KEEP : lines.length;
    const out = path.join(outDir, rel.replaceAll("/", "__").replace(/\.parquet$/, "") + ".jsonl");
    fs.writeFileSync(out, lines.slice(0, stored).join(""));
    for (const s of ctx.notes) notes.push(s);
    if (ctx.int96.size) {
      // DuckDB reads INT96 as microseconds. If every value's 12 bytes, rebuilt
      // from DuckDB's microseconds, occur verbatim in the file (PLAIN or
      // dictionary pages, uncompressed or zstd), nothing was lost.
      const buf = withZstdFrames(fs.readFileSync(abs));
      for (const [col, cands] of ctx.int96) {
        const miss = cands.filter((b) => buf.indexOf(b) < 0).length;
        if (miss === 0) {
          ctx.impreciseCols.delete(col);
          notes.push(`INT96 column ${col}: DuckDB reads microseconds, but all ${cands.length} values occur verbatim as INT96 bytes in the file, so they are exact`);
        } else {
          notes.push(`INT96 column ${col}: ${miss} of ${cands.length} values not found verbatim in the file (compressed or sub-microsecond), compare to the microsecond`);
        }
      }
    }
    let status = "ok";
    if (ctx.impreciseCols.size) {
      status = "duckdb-imprecise: " + [...ctx.impreciseCols].map(([c, w]) => `${c} (${w})`).join("; ");
    }
    if (ctx.geo.length) {
      // DuckDB re-serialises GEOMETRY/GEOGRAPHY; check each WKB occurs verbatim in the file.
      const buf = withZstdFrames(fs.readFileSync(abs));
      const miss = ctx.geo.filter((b) => buf.indexOf(Buffer.from(b)) < 0).length;
      notes.push(miss === 0 ? `GEOMETRY/GEOGRAPHY: DuckDB converts to its GEOMETRY type; all ${ctx.geo.length} WKB values found verbatim in the file`
        : `GEOMETRY/GEOGRAPHY: DuckDB converts to its GEOMETRY type; ${miss} of ${ctx.geo.length} WKB values not found verbatim in the file (compressed pages or re-serialised), bytes unverified`);
      if (miss) status = status === "ok" ? "ok-unverified: geometry WKB as re-serialised by DuckDB" : status;
    }
    return { status, rows: String(lines.length), stored: String(stored), sha, notes };
  } catch (e) {
    if (e instanceof Shape) {
      const why = /VARIANT/.test(e.message)
        ? "skipped: DuckDB converts the VARIANT group to its VARIANT type; the physical metadata/value binaries cannot be read back through DuckDB"
        : "duckdb-shape: " + e.message;
      return { status: why, rows: "", notes };
    }
    return { status: "duckdb-error: " + String(e.message).split("\n")[0].replace(abs, rel), rows: "", notes };
  } finally {
    con.closeSync?.();
    inst.closeSync?.();
  }
}

// ---------------------------------------------------------------- main

fs.mkdirSync(outDir, { recursive: true });
let files = ["data", "variant", "shredded_variant"].flatMap(walk);
if (filter) files = files.filter((f) => f.includes(filter));
else for (const f of fs.readdirSync(outDir)) if (f.endsWith(".jsonl")) fs.unlinkSync(path.join(outDir, f));
const manifest = ["path\tstatus\trows\tstored_rows\tsha256\tnotes"];
const counts = {};
for (const rel of files) {
  const r = await processFile(rel);
  const key = r.status.split(":")[0];
  counts[key] = (counts[key] ?? 0) + 1;
  manifest.push([rel, r.status, r.rows, r.stored ?? "", r.sha ?? "", r.notes.join("; ")].map((s) => String(s).replaceAll("\t", " ").replaceAll("\n", " ")).join("\t"));
  if (filter) console.log(manifest[manifest.length - 1]);
}
if (!filter) fs.writeFileSync(path.join(outDir, "MANIFEST.tsv"), manifest.join("\n") + "\n");
console.log(`${files.length} files:`, JSON.stringify(counts));
