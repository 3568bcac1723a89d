#!/usr/bin/env node
// GEOMETRY/GEOGRAPHY between DuckDB 1.5 (core, no spatial extension: it
// cannot be installed offline) and parquetry, both directions:
//  - parquetry rewrites the corpus's geospatial files: DuckDB's DESCRIBE
//    gives GEOMETRY for the column, its parquet_metadata() shows the same
//    boxes and type lists as `parquetry geospatial-stats --json`, and
//    geometry::VARCHAR equals parquetry's `cat` WKT row by row;
//  - DuckDB writes geometries (COPY ... GEOPARQUET_VERSION 'V2' and 'NONE':
//    the GEOMETRY logical type with GeospatialStatistics; the default 'V1'
//    writes plain binary with GeoParquet "geo" metadata only): parquetry's
//    schema says GEOMETRY, `cat` prints the WKT DuckDB prints, `verify`
//    recomputes its boxes and types without a problem, and geospatial-stats
//    equals DuckDB's parquet_metadata().
//   node tests/interop/duckdb_geo.mjs CLI CORPUS_DIR WORKDIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB missing.
import fs from "node:fs";
import path from "node:path";
import { openDuckDB, queryJson, runCli, sqlString, tally } from "../../tools/duckdb_open.mjs";
import { normWkt as norm } from "./common.mjs";

const [cli, corpus, work] = process.argv.slice(2);
const { con } = await openDuckDB();
fs.mkdirSync(work, { recursive: true });
const rows = (sql) => queryJson(con, sql);
const { ok, bad, done } = tally();
const run = (args) => runCli(cli, args);

const NAMES = ["point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon", "geometrycollection"];
const SUFFIX = ["", "_z", "_m", "_zm"];
const typeName = (code) => NAMES[(code % 1000) - 1] + SUFFIX[Math.floor(code / 1000)];

// DuckDB's parquet_metadata() geo stats of column `col` vs parquetry's geospatial-stats --json.
async function compareStats(file, col, label) {
  const r = run(["geospatial-stats", "--json", "-c", col, file]);
  if (r.status !== 0) return bad(`${label}: geospatial-stats: ${r.stderr}`);
  const ours = JSON.parse(r.stdout).columns[0].row_groups;
  const theirs = await rows(`SELECT row_group_id, geo_bbox, geo_types FROM parquet_metadata(${sqlString(file)}) WHERE path_in_schema = ${sqlString(col)} ORDER BY row_group_id`);
  if (theirs.length !== ours.length) return bad(`${label}: ${theirs.length} row groups in DuckDB, ${ours.length} ours`);
  let same = 0;
  for (let i = 0; i < ours.length; i++) {
    const a = ours[i], b = theirs[i];
    const tb = b.geo_bbox, ob = a.bbox;
    let eq = (tb == null || tb.xmin == null) === (ob == null);
    if (eq && ob) for (const k of Object.keys(ob)) eq = eq && Number(tb[k]) === ob[k];
    const tt = (b.geo_types || []).join(","), ot = (a.types || []).map((t) => typeName(t.code)).join(",");
    eq = eq && tt === ot;
    if (eq) same++;
    else bad(`${label} rg ${i}: DuckDB ${JSON.stringify(tb)} [${tt}], parquetry ${JSON.stringify(ob)} [${ot}]`);
  }
  if (same === ours.length) ok();
}

// DuckDB's geometry::VARCHAR vs parquetry's cat, row by row (MULTIPOINT normalised).
async function compareWkt(file, col, label) {
  const r = run(["cat", "-c", col, file]);
  if (r.status !== 0) return bad(`${label}: cat: ${r.stderr}`);
  const ours = r.stdout.trim().split("\n").map((l) => JSON.parse(l)[col]);
  const theirs = (await rows(`SELECT "${col}"::VARCHAR AS g FROM ${sqlString(file)}`)).map((x) => x.g);
  if (ours.length !== theirs.length) return bad(`${label}: ${ours.length} rows, DuckDB ${theirs.length}`);
  let diff = 0, first = "";
  for (let i = 0; i < ours.length; i++)
    if (norm(ours[i]) !== norm(theirs[i])) { if (!diff++) first = `row ${i}: parquetry ${ours[i]} DuckDB ${theirs[i]}`; }
  if (diff) bad(`${label}: ${diff} of ${ours.length} WKT differ, first ${first}`);
  else ok();
}

// 1. parquetry writes (rewrite of the corpus files), DuckDB reads
for (const name of ["geospatial.parquet", "geography-lines.parquet", "geography-polygons.parquet", "crs-projjson.parquet", "crs-srid.parquet"]) {
  const src = path.join(corpus, "data/geospatial", name);
  if (!fs.existsSync(src)) { console.log(`SKIP ${name}: not in the corpus`); continue; }
  const out = path.join(work, "pqt-" + name);
  const r = run(["rewrite", src, out]);
  if (r.status !== 0) { bad(`rewrite ${name}: ${r.stderr}`); continue; }
  const d = await rows(`DESCRIBE SELECT geometry FROM ${sqlString(out)}`);
  if (/^GEOMETRY/.test(d[0].column_type)) ok(); else bad(`${name}: DuckDB type ${d[0].column_type}`);
  await compareStats(out, "geometry", `pqt ${name}`);
  await compareWkt(out, "geometry", `pqt ${name}`);
}

// 2. DuckDB writes, parquetry reads
const wkts = [
  "POINT (1 2)", "POINT (-179.5 89)", "LINESTRING (0 0, 3 4, -1.25 7.5)",
  "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 3 2, 3 3, 2 2))", "MULTIPOINT ((1 1), (2 2))",
  "MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))", "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)))",
  "GEOMETRYCOLLECTION (POINT (5 5), LINESTRING (6 6, 7 7))", "POINT Z (1 2 3)", "LINESTRING Z (0 0 1, 1 1 2)",
  "POINT M (1 2 4)", "POINT ZM (1 2 3 4)", "POLYGON Z ((0 0 0, 1 0 1, 1 1 2, 0 0 0))", "LINESTRING EMPTY", "POINT EMPTY",
];
const values = wkts.map((w, i) => `(${i}, '${w}'::GEOMETRY)`).join(", ") + ", (99, NULL)";
for (const v of ["V2", "NONE"]) {
  const f = path.join(work, `duck-${v}.parquet`);
  try {
    await con.run(`COPY (SELECT id, g FROM (VALUES ${values}) t(id, g) ORDER BY id) TO ${sqlString(f)} (FORMAT parquet, GEOPARQUET_VERSION '${v}', ROW_GROUP_SIZE 6)`);
  } catch (e) { bad(`DuckDB COPY ${v}: ${e.message}`); continue; }
  const s = run(["schema", f]);
  if (/binary g \(GEOMETRY\)/.test(s.stdout)) ok(); else bad(`duck ${v}: schema ${s.stdout}`);
  const vr = run(["verify", f]);
  if (vr.status === 0) ok(); else bad(`duck ${v}: verify: ${vr.stdout}${vr.stderr}`);
  await compareStats(f, "g", `duck ${v}`);
  await compareWkt(f, "g", `duck ${v}`);
  const c = run(["count", "--bbox", "0,0,2,2", f]);
  const want = (await rows(`SELECT count(*) AS n FROM ${sqlString(f)} WHERE id IN (0, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12)`))[0].n;
  if (c.status === 0 && c.stdout.trim() === String(want)) ok(); else bad(`duck ${v}: count --bbox 0,0,2,2 = ${c.stdout.trim()} ${c.stderr}, want ${want}`);
}
// the default (GeoParquet 1.0 metadata only): plain binary, read as such
{
  const f = path.join(work, "duck-default.parquet");
  await con.run(`COPY (SELECT 'POINT (1 2)'::GEOMETRY AS g) TO ${sqlString(f)} (FORMAT parquet)`);
  const s = run(["schema", f]);
  if (/optional binary g;/.test(s.stdout)) ok(); else bad(`duck default: schema ${s.stdout}`);
}
done("duckdb geo");
