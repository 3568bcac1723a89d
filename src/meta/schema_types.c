/*
 * meta/schema_types.c: LogicalType <-> ConvertedType and annotation checks.
 *
 * Spec: parquet-format LogicalTypes.md "Parquet Logical Type Definitions", the Compatibility,
 * "Backward compatibility" and "Forward compatibility" tables of each type
 * (STRING/UTF8, INT/INT_x/UINT_x, DECIMAL, TIME, TIMESTAMP); parquet-format LogicalTypes.md for
 * the ConvertedType-only annotations (INTERVAL, MAP_KEY_VALUE); parquet.thrift
 * comments on LogicalType ("use ConvertedType ..." / "no compatible
 * ConvertedType").
 *
 * Notes on the tables:
 *   - TIME/TIMESTAMP with unit MILLIS or MICROS map to the _MILLIS / _MICROS
 *     ConvertedType whatever isAdjustedToUTC is (writers must annotate local
 *     times too); NANOS has no ConvertedType.
 *   - Reading TIME_x and TIMESTAMP_x gives isAdjustedToUTC = true.
 *   - INTERVAL and MAP_KEY_VALUE have no LogicalType.
 */
#include "meta/schema.h"

static const char *const k_physical_names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                               "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
static const char *const k_repetition_names[] = {"REQUIRED", "OPTIONAL", "REPEATED", "VECTOR"};
static const char *const k_converted_names[] = {"UTF8",
                                                "MAP",
                                                "MAP_KEY_VALUE",
                                                "LIST",
                                                "ENUM",
                                                "DECIMAL",
                                                "DATE",
                                                "TIME_MILLIS",
                                                "TIME_MICROS",
                                                "TIMESTAMP_MILLIS",
                                                "TIMESTAMP_MICROS",
                                                "UINT_8",
                                                "UINT_16",
                                                "UINT_32",
                                                "UINT_64",
                                                "INT_8",
                                                "INT_16",
                                                "INT_32",
                                                "INT_64",
                                                "JSON",
                                                "BSON",
                                                "INTERVAL"};

const char *pqt_physical_type_name(int32_t t) {
  return (t >= 0 && t <= PQT_FIXED_LEN_BYTE_ARRAY) ? k_physical_names[t] : "?";
}
const char *pqt_repetition_name(int32_t r) { return (r >= 0 && r <= PQT_VECTOR) ? k_repetition_names[r] : "?"; }
const char *pqt_converted_type_name(int32_t ct) {
  return (ct >= 0 && ct <= PQT_CT_INTERVAL) ? k_converted_names[ct] : "?";
}
const char *pqt_node_kind_name(pqt_node_kind k) {
  switch (k) {
    case PQT_NODE_PRIMITIVE: return "primitive";
    case PQT_NODE_STRUCT: return "struct";
    case PQT_NODE_LIST: return "list";
    case PQT_NODE_MAP: return "map";
    case PQT_NODE_VECTOR: return "vector";
  }
  return "?";
}

static void set_time(pqt_time_type *t, bool utc, int unit) {
  t->isset = PQT_FIELD_MASK(time_type, is_adjusted_to_utc, unit);
  t->is_adjusted_to_utc = utc;
  t->unit.isset = 1u << unit;
}

bool pqt_logical_to_converted(const pqt_logical_type *lt, int32_t *ct, int32_t *scale, int32_t *precision) {
  int32_t c = -1;
  switch (pqt_union_which(lt->isset)) {
    case PQT_LT_STRING: c = PQT_CT_UTF8; break;
    case PQT_LT_MAP: c = PQT_CT_MAP; break;
    case PQT_LT_LIST: c = PQT_CT_LIST; break;
    case PQT_LT_ENUM: c = PQT_CT_ENUM; break;
    case PQT_LT_DECIMAL:
      c = PQT_CT_DECIMAL;
      if (scale) *scale = lt->decimal.scale;
      if (precision) *precision = lt->decimal.precision;
      break;
    case PQT_LT_DATE: c = PQT_CT_DATE; break;
    case PQT_LT_TIME:
      if (lt->time.unit.isset == (1u << PQT_TIME_UNIT_MILLIS)) c = PQT_CT_TIME_MILLIS;
      else if (lt->time.unit.isset == (1u << PQT_TIME_UNIT_MICROS)) c = PQT_CT_TIME_MICROS;
      break;
    case PQT_LT_TIMESTAMP:
      if (lt->timestamp.unit.isset == (1u << PQT_TIME_UNIT_MILLIS)) c = PQT_CT_TIMESTAMP_MILLIS;
      else if (lt->timestamp.unit.isset == (1u << PQT_TIME_UNIT_MICROS)) c = PQT_CT_TIMESTAMP_MICROS;
      break;
    case PQT_LT_INTEGER: {
      int bw = lt->integer.bit_width;
      int k = bw == 8 ? 0 : bw == 16 ? 1 : bw == 32 ? 2 : bw == 64 ? 3 : -1;
      if (k >= 0) c = (lt->integer.is_signed ? PQT_CT_INT_8 : PQT_CT_UINT_8) + k;
      break;
    }
    case PQT_LT_JSON: c = PQT_CT_JSON; break;
    case PQT_LT_BSON: c = PQT_CT_BSON; break;
    default: break; /* UNKNOWN, UUID, FLOAT16, VARIANT, GEOMETRY, GEOGRAPHY, VECTOR */
  }
  if (c < 0) return false;
  *ct = c;
  return true;
}

bool pqt_converted_to_logical(int32_t ct, bool has_scale, int32_t scale, bool has_precision, int32_t precision,
                              pqt_logical_type *out) {
  memset(out, 0, sizeof *out);
  switch (ct) {
    case PQT_CT_UTF8: PQT_SET_FIELD(out, logical_type, string); return true;
    case PQT_CT_MAP: PQT_SET_FIELD(out, logical_type, map); return true;
    case PQT_CT_LIST: PQT_SET_FIELD(out, logical_type, list); return true;
    case PQT_CT_ENUM: PQT_SET_FIELD(out, logical_type, enum); return true;
    case PQT_CT_DECIMAL:
      if (!has_precision) return false;
      PQT_SET_FIELD(out, logical_type, decimal);
      out->decimal.isset = PQT_FIELD_MASK(decimal_type, scale, precision);
      out->decimal.precision = precision;
      out->decimal.scale = has_scale ? scale : 0;
      return true;
    case PQT_CT_DATE: PQT_SET_FIELD(out, logical_type, date); return true;
    case PQT_CT_TIME_MILLIS:
      PQT_SET_FIELD(out, logical_type, time);
      set_time(&out->time, true, PQT_TIME_UNIT_MILLIS);
      return true;
    case PQT_CT_TIME_MICROS:
      PQT_SET_FIELD(out, logical_type, time);
      set_time(&out->time, true, PQT_TIME_UNIT_MICROS);
      return true;
    case PQT_CT_TIMESTAMP_MILLIS:
      PQT_SET_FIELD(out, logical_type, timestamp);
      set_time(&out->timestamp, true, PQT_TIME_UNIT_MILLIS);
      return true;
    case PQT_CT_TIMESTAMP_MICROS:
      PQT_SET_FIELD(out, logical_type, timestamp);
      set_time(&out->timestamp, true, PQT_TIME_UNIT_MICROS);
      return true;
    case PQT_CT_UINT_8:
    case PQT_CT_UINT_16:
    case PQT_CT_UINT_32:
    case PQT_CT_UINT_64:
    case PQT_CT_INT_8:
    case PQT_CT_INT_16:
    case PQT_CT_INT_32:
    case PQT_CT_INT_64: {
      bool is_signed = ct >= PQT_CT_INT_8;
      int k = ct - (is_signed ? PQT_CT_INT_8 : PQT_CT_UINT_8);
      PQT_SET_FIELD(out, logical_type, integer);
      out->integer.isset = PQT_FIELD_MASK(int_type, bit_width, is_signed);
      out->integer.bit_width = (int8_t)(8 << k);
      out->integer.is_signed = is_signed;
      return true;
    }
    case PQT_CT_JSON: PQT_SET_FIELD(out, logical_type, json); return true;
    case PQT_CT_BSON: PQT_SET_FIELD(out, logical_type, bson); return true;
    default: return false; /* MAP_KEY_VALUE, INTERVAL, out of range */
  }
}

bool pqt_is_text_type(int logical, int32_t converted_type) {
  if (logical != 0) return logical == PQT_LT_STRING || logical == PQT_LT_ENUM || logical == PQT_LT_JSON;
  return converted_type == PQT_CT_UTF8 || converted_type == PQT_CT_ENUM || converted_type == PQT_CT_JSON;
}

int32_t pqt_decimal_max_precision_flba(int32_t n) {
  if (n <= 0) return 0;
  /* 2^k - 1 is never a power of ten for k >= 1, so
   * floor(log10(2^k - 1)) == floor(k * log10(2)). Exact for small k via
   * integer powers; the floating form is used beyond (k * log10 2 is never
   * within 1e-9 of an integer for k < 2^34, far past int32 precisions). */
  int64_t k = (int64_t)n * 8 - 1;
  if (k <= 63) {
    uint64_t v = ((uint64_t)1 << k) - 1;
    int32_t d = 0;
    while (v >= 10) {
      v /= 10;
      d++;
    }
    return d;
  }
  double digits = (double)k * 0.30102999566398119521; /* truncated below */
  return digits > (double)INT32_MAX ? INT32_MAX : (int32_t)digits;
}

static bool fail(const char **why, const char *reason) {
  if (why) *why = reason;
  return false;
}

static bool decimal_fits(int32_t physical, int32_t type_length, int32_t precision, int32_t scale, const char **why) {
  if (precision < 1) return fail(why, "DECIMAL precision must be at least 1");
  if (scale < 0 || scale > precision) return fail(why, "DECIMAL scale must be between 0 and the precision");
  switch (physical) {
    case PQT_INT32: return precision <= 9 ? true : fail(why, "DECIMAL precision over 9 on INT32");
    case PQT_INT64: return precision <= 18 ? true : fail(why, "DECIMAL precision over 18 on INT64");
    case PQT_FIXED_LEN_BYTE_ARRAY:
      return precision <= pqt_decimal_max_precision_flba(type_length)
                 ? true
                 : fail(why, "DECIMAL precision too large for the FIXED_LEN_BYTE_ARRAY length");
    case PQT_BYTE_ARRAY: return true;
    default: return fail(why, "DECIMAL needs INT32, INT64, BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY");
  }
}

static bool unit_ok(const pqt_time_unit *u) {
  return u->isset == (1u << PQT_TIME_UNIT_MILLIS) || u->isset == (1u << PQT_TIME_UNIT_MICROS) ||
         u->isset == (1u << PQT_TIME_UNIT_NANOS);
}

bool pqt_logical_type_fits(const pqt_logical_type *lt, bool is_group, int32_t physical, int32_t type_length,
                           const char **why) {
  int which = pqt_union_which(lt->isset);
  if (lt->isset & (lt->isset - 1)) return fail(why, "LogicalType union has several members");
  switch (which) {
    case PQT_LT_MAP:
    case PQT_LT_LIST:
    case PQT_LT_VARIANT:
    case PQT_LT_VECTOR: return is_group ? true : fail(why, "annotation needs a group");
    case 0: return fail(why, "unknown LogicalType");
    default: break;
  }
  if (is_group) return fail(why, "annotation needs a primitive type");
  switch (which) {
    case PQT_LT_STRING:
    case PQT_LT_ENUM:
    case PQT_LT_JSON:
    case PQT_LT_BSON:
    case PQT_LT_GEOMETRY: return physical == PQT_BYTE_ARRAY ? true : fail(why, "annotation needs BYTE_ARRAY");
    case PQT_LT_GEOGRAPHY:
      if (physical != PQT_BYTE_ARRAY) return fail(why, "annotation needs BYTE_ARRAY");
      if (PQT_HAS_FIELD(&lt->geography, geography_type, algorithm) &&
          (lt->geography.algorithm < 0 || lt->geography.algorithm > PQT_EDGE_KARNEY))
        return fail(why, "unknown GEOGRAPHY edge algorithm");
      return true;
    case PQT_LT_DECIMAL: return decimal_fits(physical, type_length, lt->decimal.precision, lt->decimal.scale, why);
    case PQT_LT_DATE: return physical == PQT_INT32 ? true : fail(why, "DATE needs INT32");
    case PQT_LT_TIME:
      if (!unit_ok(&lt->time.unit)) return fail(why, "TIME has an unknown unit");
      if (lt->time.unit.isset == (1u << PQT_TIME_UNIT_MILLIS))
        return physical == PQT_INT32 ? true : fail(why, "TIME(MILLIS) needs INT32");
      return physical == PQT_INT64 ? true : fail(why, "TIME(MICROS|NANOS) needs INT64");
    case PQT_LT_TIMESTAMP:
      if (!unit_ok(&lt->timestamp.unit)) return fail(why, "TIMESTAMP has an unknown unit");
      return physical == PQT_INT64 ? true : fail(why, "TIMESTAMP needs INT64");
    case PQT_LT_INTEGER: {
      int bw = lt->integer.bit_width;
      if (bw == 8 || bw == 16 || bw == 32)
        return physical == PQT_INT32 ? true : fail(why, "INTEGER(8|16|32) needs INT32");
      if (bw == 64) return physical == PQT_INT64 ? true : fail(why, "INTEGER(64) needs INT64");
      return fail(why, "INTEGER bit width must be 8, 16, 32 or 64");
    }
    case PQT_LT_UNKNOWN: return true;
    case PQT_LT_UUID:
      return (physical == PQT_FIXED_LEN_BYTE_ARRAY && type_length == 16)
                 ? true
                 : fail(why, "UUID needs FIXED_LEN_BYTE_ARRAY(16)");
    case PQT_LT_FLOAT16:
      return (physical == PQT_FIXED_LEN_BYTE_ARRAY && type_length == 2)
                 ? true
                 : fail(why, "FLOAT16 needs FIXED_LEN_BYTE_ARRAY(2)");
    default: return fail(why, "unknown LogicalType");
  }
}

bool pqt_converted_type_fits(int32_t ct, bool is_group, int32_t physical, int32_t type_length, bool has_precision,
                             int32_t precision, int32_t scale, const char **why) {
  if (ct < 0 || ct > PQT_CT_INTERVAL) return fail(why, "unknown ConvertedType");
  if (ct == PQT_CT_MAP || ct == PQT_CT_MAP_KEY_VALUE || ct == PQT_CT_LIST)
    return is_group ? true : fail(why, "annotation needs a group");
  if (is_group) return fail(why, "annotation needs a primitive type");
  if (ct == PQT_CT_INTERVAL)
    return (physical == PQT_FIXED_LEN_BYTE_ARRAY && type_length == 12)
               ? true
               : fail(why, "INTERVAL needs FIXED_LEN_BYTE_ARRAY(12)");
  if (ct == PQT_CT_DECIMAL) {
    if (!has_precision) return fail(why, "DECIMAL without precision");
    return decimal_fits(physical, type_length, precision, scale, why);
  }
  pqt_logical_type lt;
  if (!pqt_converted_to_logical(ct, true, scale, has_precision, precision, &lt))
    return fail(why, "unknown ConvertedType");
  return pqt_logical_type_fits(&lt, is_group, physical, type_length, why);
}

static bool bytes_eq(pqt_bytes a, pqt_bytes b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, (size_t)a.len) == 0);
}

bool pqt_logical_type_equal(const pqt_logical_type *a, const pqt_logical_type *b) {
  if (a->isset != b->isset) return false;
  switch (pqt_union_which(a->isset)) {
    case PQT_LT_DECIMAL: return a->decimal.scale == b->decimal.scale && a->decimal.precision == b->decimal.precision;
    case PQT_LT_TIME:
      return a->time.is_adjusted_to_utc == b->time.is_adjusted_to_utc && a->time.unit.isset == b->time.unit.isset;
    case PQT_LT_TIMESTAMP:
      return a->timestamp.is_adjusted_to_utc == b->timestamp.is_adjusted_to_utc &&
             a->timestamp.unit.isset == b->timestamp.unit.isset;
    case PQT_LT_INTEGER:
      return a->integer.bit_width == b->integer.bit_width && a->integer.is_signed == b->integer.is_signed;
    case PQT_LT_VARIANT:
      return a->variant.isset == b->variant.isset &&
             (!a->variant.isset || a->variant.specification_version == b->variant.specification_version);
    case PQT_LT_GEOMETRY:
      return a->geometry.isset == b->geometry.isset &&
             (!a->geometry.isset || bytes_eq(a->geometry.crs, b->geometry.crs));
    case PQT_LT_GEOGRAPHY:
      return a->geography.isset == b->geography.isset &&
             (!PQT_HAS_FIELD(&a->geography, geography_type, crs) || bytes_eq(a->geography.crs, b->geography.crs)) &&
             (!PQT_HAS_FIELD(&a->geography, geography_type, algorithm) ||
              a->geography.algorithm == b->geography.algorithm);
    default: return true;
  }
}

void pqt_element_set_converted(pqt_schema_element *e, const pqt_logical_type *lt) {
  int32_t ct, sc = 0, pr = 0;
  if (pqt_logical_to_converted(lt, &ct, &sc, &pr)) {
    e->converted_type = ct;
    PQT_SET_FIELD(e, schema_element, converted_type);
    if (ct == PQT_CT_DECIMAL) {
      e->scale = sc;
      e->precision = pr;
      PQT_SET_FIELD(e, schema_element, scale);
      PQT_SET_FIELD(e, schema_element, precision);
    }
  }
}
