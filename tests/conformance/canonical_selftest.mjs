#!/usr/bin/env node
// Self-test of canonical.mjs (no DuckDB needed): node tests/conformance/canonical_selftest.mjs
import * as C from "./canonical.mjs";

let passed = 0, failed = 0;
function eq(got, want, what) {
  if (got === want) passed++;
  else { failed++; console.log(`FAIL ${what}: got ${got} want ${want}`); }
}
eq(C.fmtFloat(Math.fround(0.1)), "0.1", "f32 0.1");
eq(C.fmtFloat16(65504), "65500", "f16 max");
eq(C.fmtFloat16(C.f16round(0.1)), "0.1", "f16 0.1");
eq(C.fmtFloat16(2 ** -24), "6e-8", "f16 min subnormal");
eq(C.fmtFloat(Math.fround(3.4028234663852886e38)), "3.4028235e+38", "f32 max");
eq(C.fmtFloat(Math.fround(1e-45)), "1e-45", "f32 min subnormal");
eq(C.fmtFloat(Math.fround(123456789)), "123456790", "f32 123456792");
eq(C.fmtFloat(Math.fround(16777216)), "16777216", "f32 2^24");
eq(C.fmtFloat(-0), "-0", "-0");
eq(C.fmtFloat(NaN), '"NaN"', "NaN");
eq(C.fmtDouble(-Infinity), '"-Infinity"', "-inf");
eq(C.fmtDouble(1e21), "1e+21", "1e21");
eq(C.fmtDouble(1e-7), "1e-7", "1e-7");
eq(C.fmtDouble(0.000001), "0.000001", "1e-6");
eq(C.fmtDate(0), "1970-01-01", "epoch");
eq(C.fmtDate(-719529), "-0001-12-31", "year -1");
eq(C.fmtDate(2932897), "10000-01-01", "year 10000");
eq(C.fmtTimestamp(-1n, "NANOS", true), "1969-12-31T23:59:59.999999999Z", "ts -1ns");
eq(C.fmtTimestamp(1700000000123n, "MILLIS", false), "2023-11-14T22:13:20.123", "ts ms");
eq(C.fmtTime(3600000001n, "MICROS"), "01:00:00.000001", "time us");
eq(C.fmtDecimal(-1230n, 2), '"-12.30"', "dec -12.30");
eq(C.fmtDecimal(5n, 3), '"0.005"', "dec 0.005");
eq(C.fmtDecimal(-5n, 0), '"-5"', "dec scale 0");
// every finite binary16 value round-trips
let bad = 0;
for (let h = 0; h < 0x7c00; h++) {
  const e = h >> 10, m = h & 1023;
  const x = e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15);
  if (C.f16round(x) !== x || C.f16round(Number(C.fmtFloat16(x))) !== x) bad++;
}
eq(bad, 0, "all binary16 round-trip");
// random binary32 values round-trip
const dv = new DataView(new ArrayBuffer(4));
let seed = 12345, bad32 = 0;
for (let i = 0; i < 100000; i++) {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  dv.setUint32(0, seed);
  const x = dv.getFloat32(0);
  if (!Number.isFinite(x)) continue;
  if (Math.fround(Number(C.fmtFloat(x))) !== x) bad32++;
}
eq(bad32, 0, "binary32 round-trip");
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
