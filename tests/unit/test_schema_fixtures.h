/* test_schema_fixtures.h: helpers shared by the schema tests: build pqt_schema_element values by hand. */
#ifndef PQT_TEST_SCHEMA_FIXTURES_H
#define PQT_TEST_SCHEMA_FIXTURES_H

#include <string.h>

#include "meta/schema.h"

static inline pqt_bytes fx_bytes(const char *s) {
  pqt_bytes b = {(const uint8_t *)s, (int64_t)strlen(s)};
  return b;
}

/* The root: a group with nc children, no repetition. */
static inline pqt_schema_element fx_root(const char *name, int nc) {
  pqt_schema_element e;
  memset(&e, 0, sizeof e);
  e.name = fx_bytes(name);
  PQT_SET_FIELD(&e, schema_element, name);
  e.num_children = nc;
  PQT_SET_FIELD(&e, schema_element, num_children);
  return e;
}

static inline pqt_schema_element fx_group(const char *name, int rep, int nc) {
  pqt_schema_element e = fx_root(name, nc);
  e.repetition_type = rep;
  PQT_SET_FIELD(&e, schema_element, repetition_type);
  return e;
}

static inline pqt_schema_element fx_leaf(const char *name, int rep, int type) {
  pqt_schema_element e;
  memset(&e, 0, sizeof e);
  e.name = fx_bytes(name);
  PQT_SET_FIELD(&e, schema_element, name);
  e.repetition_type = rep;
  PQT_SET_FIELD(&e, schema_element, repetition_type);
  e.type = type;
  PQT_SET_FIELD(&e, schema_element, type);
  return e;
}

static inline pqt_schema_element fx_flba(const char *name, int rep, int len) {
  pqt_schema_element e = fx_leaf(name, rep, PQT_FIXED_LEN_BYTE_ARRAY);
  e.type_length = len;
  PQT_SET_FIELD(&e, schema_element, type_length);
  return e;
}

static inline pqt_schema_element fx_ct(pqt_schema_element e, int ct) {
  e.converted_type = ct;
  PQT_SET_FIELD(&e, schema_element, converted_type);
  return e;
}

static inline pqt_schema_element fx_lt(pqt_schema_element e, int member) {
  memset(&e.logical_type, 0, sizeof e.logical_type);
  PQT_SET(&e.logical_type, member);
  PQT_SET_FIELD(&e, schema_element, logical_type);
  return e;
}

static inline pqt_schema_element fx_decimal_ct(pqt_schema_element e, int precision, int scale) {
  e = fx_ct(e, PQT_CT_DECIMAL);
  e.precision = precision;
  e.scale = scale;
  PQT_SET_FIELD(&e, schema_element, scale);
  PQT_SET_FIELD(&e, schema_element, precision);
  return e;
}

static inline pqt_logical_type fx_time(int member, int unit, bool utc) {
  pqt_logical_type lt;
  memset(&lt, 0, sizeof lt);
  PQT_SET(&lt, member);
  pqt_time_type *t = member == PQT_LT_TIME ? &lt.time : &lt.timestamp;
  t->isset = PQT_FIELD_MASK(time_type, is_adjusted_to_utc, unit);
  t->is_adjusted_to_utc = utc;
  t->unit.isset = 1u << unit;
  return lt;
}

static inline pqt_logical_type fx_int(int bw, bool is_signed) {
  pqt_logical_type lt;
  memset(&lt, 0, sizeof lt);
  PQT_SET_FIELD(&lt, logical_type, integer);
  lt.integer.isset = PQT_FIELD_MASK(int_type, bit_width, is_signed);
  lt.integer.bit_width = (int8_t)bw;
  lt.integer.is_signed = is_signed;
  return lt;
}

static inline pqt_logical_type fx_decimal(int precision, int scale) {
  pqt_logical_type lt;
  memset(&lt, 0, sizeof lt);
  PQT_SET_FIELD(&lt, logical_type, decimal);
  lt.decimal.isset = PQT_FIELD_MASK(decimal_type, scale, precision);
  lt.decimal.precision = precision;
  lt.decimal.scale = scale;
  return lt;
}

static inline pqt_logical_type fx_simple(int member) {
  pqt_logical_type lt;
  memset(&lt, 0, sizeof lt);
  PQT_SET(&lt, member);
  return lt;
}

static inline pqt_schema_element fx_with(pqt_schema_element e, pqt_logical_type lt) {
  e.logical_type = lt;
  PQT_SET_FIELD(&e, schema_element, logical_type);
  return e;
}

#define FX_N(arr) ((int32_t)(sizeof(arr) / sizeof((arr)[0])))

#endif
