#!/usr/bin/env node
// `parquetry convert` of WKT text into GEOMETRY/GEOGRAPHY, read by DuckDB 1.5.
//   mode "core": DuckDB without extensions: DESCRIBE gives GEOMETRY for the
//     GEOMETRY column, geometry::VARCHAR equals the WKT given (MULTIPOINT's
//     inner parentheses aside) row by row, parquet_metadata() has the box
//     and type list `parquetry geospatial-stats --json` shows.
//   mode "spatial": with the spatial extension (LOAD only: it is never
//     downloaded here): ST_AsText of each value equals the WKT given and
//     ST_XMin/ST_YMax of the column equal the written box.
//   node tests/interop/duckdb_convert_wkt.mjs MODE CLI WORKDIR
// Exit 0 = pass, 1 = fail, 3 = DuckDB (or, in mode spatial, the extension) missing.
import fs from "node:fs";
import path from "node:path";
import { firstLine, openDuckDB, queryJson, runCli, sqlString, tally } from "../../tools/duckdb_open.mjs";
import { normWkt as norm } from "./common.mjs";

const [mode, cli, work] = process.argv.slice(2);
const { con } = await openDuckDB();
fs.mkdirSync(work, { recursive: true });
const rows = (sql) => queryJson(con, sql);
const { ok, bad, done } = tally();
const run = (args) => runCli(cli, args);

if (mode === "spatial") {
  try {
    await con.run("LOAD spatial");
  } catch (e) {
    console.log(`SKIP: DuckDB's spatial extension cannot be loaded offline (${firstLine(e)})`);
    process.exit(3);
  }
}

const wkts = [
  "POINT (1 2)", "POINT Z (1 2 3)", "POINT M (1 2 4)", "POINT ZM (1 2 3 4)",
  "LINESTRING (0 0, 3 4, -1.25 7.5)", "LINESTRING EMPTY",
  "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 3 2, 3 3, 2 2))", "POLYGON Z ((0 0 0, 1 0 1, 1 1 2, 0 0 0))",
  "MULTIPOINT ((1 1), (2 2))", "MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))", "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)))",
  "GEOMETRYCOLLECTION (POINT (5 5), LINESTRING (6 6, 7 7))", "GEOMETRYCOLLECTION EMPTY",
];
const csv = path.join(work, "wkt.csv");
fs.writeFileSync(csv, "id,g\n" + wkts.map((w, i) => `${i},"${w}"`).join("\n") + `\n${wkts.length},\n`);
const out = path.join(work, "wkt.parquet");
const c = run(["convert", "--force", "--schema", "message m { required int64 id; optional binary g (GEOMETRY); }", csv, out]);
if (c.status !== 0) { bad(`convert: ${c.stderr}`); process.exit(1); }

if (mode === "core") {
  const d = await rows(`DESCRIBE SELECT g FROM ${sqlString(out)}`);
  if (/^GEOMETRY/.test(d[0].column_type)) ok(); else bad(`DuckDB type ${d[0].column_type}`);
  const got = (await rows(`SELECT id, g::VARCHAR AS g FROM ${sqlString(out)} ORDER BY id`));
  if (got.length !== wkts.length + 1) bad(`${got.length} rows, ${wkts.length + 1} written`);
  let diff = 0;
  for (let i = 0; i < wkts.length; i++)
    if (!got[i] || norm(got[i].g) !== norm(wkts[i])) { diff++; bad(`row ${i}: DuckDB ${got[i] && got[i].g}, given ${wkts[i]}`); }
  if (!diff) ok();
  if (got.length > wkts.length && got[wkts.length].g === null) ok(); else bad("the null row");
  const r = run(["geospatial-stats", "--json", "-c", "g", out]);
  const ours = JSON.parse(r.stdout).columns[0].row_groups[0];
  const theirs = (await rows(`SELECT geo_bbox, geo_types FROM parquet_metadata(${sqlString(out)}) WHERE path_in_schema = 'g'`))[0];
  let eq = theirs && theirs.geo_bbox && ours.bbox;
  if (eq) for (const k of Object.keys(ours.bbox)) eq = eq && Number(theirs.geo_bbox[k]) === ours.bbox[k];
  if (eq) ok(); else bad(`box: DuckDB ${JSON.stringify(theirs)}, parquetry ${JSON.stringify(ours.bbox)}`);
  if (theirs && (theirs.geo_types || []).length === ours.types.length) ok();
  else bad(`types: DuckDB ${JSON.stringify(theirs && theirs.geo_types)}, parquetry ${JSON.stringify(ours.types)}`);
} else {
  const got = await rows(`SELECT id, ST_AsText(g) AS t FROM ${sqlString(out)} ORDER BY id`);
  let diff = 0;
  for (let i = 0; i < wkts.length; i++)
    if (!got[i] || norm(got[i].t) !== norm(wkts[i])) { diff++; bad(`row ${i}: ST_AsText ${got[i] && got[i].t}, given ${wkts[i]}`); }
  if (!diff) ok();
  const b = (await rows(`SELECT min(ST_XMin(g)) AS xmin, max(ST_YMax(g)) AS ymax FROM ${sqlString(out)}`))[0];
  const ours = JSON.parse(run(["geospatial-stats", "--json", "-c", "g", out]).stdout).columns[0].row_groups[0].bbox;
  if (Number(b.xmin) === ours.xmin && Number(b.ymax) === ours.ymax) ok();
  else bad(`ST_XMin/ST_YMax ${JSON.stringify(b)}, box ${JSON.stringify(ours)}`);
}
done(`duckdb convert WKT (${mode})`);
