// Canonical value formatting shared by gen_expected.mjs (and its self-test).
// The rules are documented in tests/conformance/expected/README.md; the
// parquetry CLI `cat` prints exactly this form.

// ---------- floating point ----------

// Format a decimal given as a digit string (no leading/trailing zeros, at
// least one digit) and the ECMAScript exponent n (value = 0.DIGITS x 10^n),
// following the ECMAScript Number::toString(10) layout rules.
export function layoutDecimal(neg, digits, n) {
  const k = digits.length;
  let s;
  if (k <= n && n <= 21) s = digits + "0".repeat(n - k);
  else if (0 < n && n <= 21) s = digits.slice(0, n) + "." + digits.slice(n);
  else if (-6 < n && n <= 0) s = "0." + "0".repeat(-n) + digits;
  else {
    const e = n - 1;
    const es = (e < 0 ? "-" : "+") + Math.abs(e);
    s = k === 1 ? digits + "e" + es : digits[0] + "." + digits.slice(1) + "e" + es;
  }
  return (neg ? "-" : "") + s;
}

// Split x.toExponential(p-1) into {digits, n} with trailing zeros removed.
function expParts(x, p) {
  const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(Math.abs(x).toExponential(p - 1));
  let digits = m[1] + (m[2] ?? "");
  const n = Number(m[3]) + 1;
  return { digits, n };
}

function stripZeros(d) {
  const t = d.replace(/0+$/, "");
  return t === "" ? "0" : t;
}

// Shortest decimal that round-trips through `round` (Math.fround or
// f16round); among the shortest, the one closest to x (as ECMAScript
// specifies for doubles). x must already be exactly representable.
function shortestRoundTrip(x, round, maxDigits) {
  const neg = x < 0;
  const ax = Math.abs(x);
  for (let p = 1; p <= maxDigits; p++) {
    const { digits, n } = expParts(ax, p);
    const base = BigInt(digits);
    let best = null;
    for (const d of [-1n, 0n, 1n]) {
      const m = base + d;
      if (m <= 0n) continue;
      const ms = m.toString();
      const v = Number(`${ms}e${n - p}`); // m x 10^(n-p)
      const nn = ms.length + n - p; // as 0.MS x 10^nn
      if (round(v) !== ax) continue;
      const dist = Math.abs(v - ax);
      if (best === null || dist < best.dist) best = { dist, ms, nn };
    }
    if (best) return layoutDecimal(neg, stripZeros(best.ms), best.nn);
  }
  throw new Error(`no round trip for ${x}`);
}

// Round a double to the nearest IEEE 754 binary16 value (ties to even).
export function f16round(x) {
  if (!Number.isFinite(x) || x === 0) return x;
  const ax = Math.abs(x);
  if (ax >= 65520) return x < 0 ? -Infinity : Infinity;
  let e = Math.floor(Math.log2(ax));
  if (2 ** e > ax) e -= 1;
  if (2 ** (e + 1) <= ax) e += 1;
  if (e < -14) e = -14; // subnormal range shares the quantum 2^-24
  const q = 2 ** (e - 10);
  const t = ax / q; // exact: division by a power of two
  let r = Math.floor(t);
  const frac = t - r;
  if (frac > 0.5 || (frac === 0.5 && r % 2 === 1)) r += 1;
  const v = r * q;
  return x < 0 ? -v : v;
}

function specialFloat(x) {
  if (Number.isNaN(x)) return '"NaN"';
  if (x === Infinity) return '"Infinity"';
  if (x === -Infinity) return '"-Infinity"';
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  return null;
}

export function fmtDouble(x) {
  return specialFloat(x) ?? String(x);
}

export function fmtFloat(x) {
  const s = specialFloat(x);
  if (s) return s;
  if (Math.fround(x) !== x) throw new Error(`${x} is not a float32`);
  return shortestRoundTrip(x, Math.fround, 9);
}

export function fmtFloat16(x) {
  const s = specialFloat(x);
  if (s) return s;
  if (f16round(x) !== x) throw new Error(`${x} is not a float16`);
  return shortestRoundTrip(x, f16round, 5);
}

// ---------- dates and times ----------

function floorDiv(a, b) { // bigint
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

// days since 1970-01-01 -> [y, m, d] (proleptic Gregorian), bigint-safe.
function civilFromDays(z) {
  z = BigInt(z) + 719468n;
  const era = floorDiv(z, 146097n);
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  let y = yoe + era * 400n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const d = doy - (153n * mp + 2n) / 5n + 1n;
  const m = mp < 10n ? mp + 3n : mp - 9n;
  if (m <= 2n) y += 1n;
  return [y, Number(m), Number(d)];
}

function pad(n, w) { return String(n).padStart(w, "0"); }

function fmtYear(y) {
  return y < 0n ? "-" + pad(-y, 4) : pad(y, 4);
}

export function fmtDate(days) {
  const [y, m, d] = civilFromDays(days);
  return `${fmtYear(y)}-${pad(m, 2)}-${pad(d, 2)}`;
}

const UNIT_PER_SEC = { MILLIS: 1000n, MICROS: 1000000n, NANOS: 1000000000n };
const UNIT_DIGITS = { MILLIS: 3, MICROS: 6, NANOS: 9 };

// time of day given as a count of `unit` since midnight
export function fmtTime(count, unit) {
  count = BigInt(count);
  const per = UNIT_PER_SEC[unit];
  const secs = floorDiv(count, per);
  const frac = count - secs * per;
  const h = secs / 3600n, mi = (secs / 60n) % 60n, s = secs % 60n;
  return `${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(frac, UNIT_DIGITS[unit])}`;
}

// timestamp given as a count of `unit` since the epoch
export function fmtTimestamp(count, unit, utc) {
  count = BigInt(count);
  const perDay = UNIT_PER_SEC[unit] * 86400n;
  const days = floorDiv(count, perDay);
  const rest = count - days * perDay;
  return `${fmtDate(days)}T${fmtTime(rest, unit)}${utc ? "Z" : ""}`;
}

// ---------- others ----------

export function fmtDecimal(unscaled, scale) {
  unscaled = BigInt(unscaled);
  const neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, "0");
    digits = digits.slice(0, digits.length - scale) + "." + digits.slice(digits.length - scale);
  } else if (scale < 0) {
    digits = digits === "0" ? "0" : digits + "0".repeat(-scale);
  }
  return JSON.stringify((neg ? "-" : "") + digits);
}

export function fmtString(s) {
  return JSON.stringify(s);
}

export function fmtBase64(bytes) {
  return JSON.stringify(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"));
}
