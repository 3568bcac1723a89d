/* pqt_variant_get: the spec's variant_get (typed value or SQL NULL). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_variant.h"

static const char k_doc[] =
    "{\"event\": {\"ts\": 1729794114937, \"type\": \"login\", \"ok\": true, \"ratio\": 0.25,"
    " \"price\": 12.50, \"big\": 300, \"whole\": 7.000, \"n\": null, \"s\": \"42\", \"f\": \"1.5e2\","
    " \"bad\": \"4x2\"},"
    " \"items\": [{\"id\": 1}, {\"id\": \"two\"}], \"huge\": 9223372036854775807}";

static pqt_variant_value get(const pqt_variant *v, const char *path, const char *type) {
  pqt_variant_target t;
  pqt_error e;
  pqt_variant_value out;
  memset(&out, 0, sizeof out);
  CHECK_MSG(pqt_variant_target_from_name(type, &t, &e) == PQT_OK, "%s: %s", type, e.message);
  CHECK_MSG(pqt_variant_get(v, path, t, &out, &e) == PQT_OK, "%s %s: %s", path, type, e.message);
  return out;
}

static void test_get(void) {
  pqt_variant_owned d;
  pqt_error e;
  CHECK_OK(pqt_variant_from_json(k_doc, strlen(k_doc), NULL, &d, &e));
  const pqt_variant *v = &d.view;
  pqt_variant_value r;

  r = get(v, "$.event.ts", "int64");
  CHECK(!r.is_null && r.u.i64 == 1729794114937LL);
  r = get(v, "$.event.ts", "int32"); /* out of range: NULL */
  CHECK(r.is_null);
  r = get(v, "$.event.big", "int16");
  CHECK(!r.is_null && r.u.i64 == 300);
  r = get(v, "$.event.big", "int8");
  CHECK(r.is_null);
  r = get(v, "$.event.type", "string");
  CHECK(!r.is_null && r.u.bytes.len == 5 && memcmp(r.u.bytes.data, "login", 5) == 0);
  r = get(v, "$.event.type", "int64"); /* cast fails */
  CHECK(r.is_null);
  r = get(v, "$.event.ok", "boolean");
  CHECK(!r.is_null && r.u.b == 1);
  r = get(v, "$.event.ratio", "double");
  CHECK(!r.is_null && r.u.f64 == 0.25);
  r = get(v, "$.event.ratio", "bigint"); /* not whole */
  CHECK(r.is_null);
  r = get(v, "$.event.price", "double"); /* a decimal */
  CHECK(!r.is_null && fabs(r.u.f64 - 12.5) < 1e-12);
  r = get(v, "$.event.price", "int64");
  CHECK(r.is_null);
  r = get(v, "$.event.whole", "int64"); /* decimal 7.000 */
  CHECK(!r.is_null && r.u.i64 == 7);
  r = get(v, "$.event.n", "int64"); /* Variant null: SQL NULL */
  CHECK(r.is_null);
  r = get(v, "$.event.n", "variant"); /* ... but present as a variant */
  CHECK(!r.is_null);
  r = get(v, "$.event.s", "int64");
  CHECK(!r.is_null && r.u.i64 == 42);
  r = get(v, "$.event.f", "double");
  CHECK(!r.is_null && r.u.f64 == 150.0);
  r = get(v, "$.event.bad", "int64");
  CHECK(r.is_null);
  r = get(v, "$.event.missing", "int64");
  CHECK(r.is_null);
  r = get(v, "$.event", "int64"); /* an object */
  CHECK(r.is_null);
  r = get(v, "$.items[0].id", "int64");
  CHECK(!r.is_null && r.u.i64 == 1);
  r = get(v, "$.items[1].id", "int64");
  CHECK(r.is_null);
  r = get(v, "$.items[5].id", "int64");
  CHECK(r.is_null);
  r = get(v, "$.items[1]", "variant");
  CHECK(!r.is_null);
  if (!r.is_null) {
    pqt_string js = {0};
    CHECK_OK(pqt_variant_to_json(&r.u.variant, &js, &e));
    CHECK_EQ_STR(js.data, "{\"id\":\"two\"}");
    pqt_string_free(&js);
  }
  r = get(v, "$.huge", "int64");
  CHECK(!r.is_null && r.u.i64 == INT64_MAX);
  r = get(v, "$.huge", "float");
  CHECK(!r.is_null && r.u.f32 > 9.2e18f);

  /* errors: a malformed path, an unknown type name or value */
  pqt_variant_target t;
  CHECK(pqt_variant_target_from_name("nosuchtype", &t, &e) == PQT_EINVAL);
  CHECK(pqt_variant_get(v, "event", PQT_VARIANT_GET_INT64, &r, &e) == PQT_EINVAL);
  CHECK(pqt_variant_get(v, "$.a", (pqt_variant_target)99, &r, &e) == PQT_EINVAL);
  pqt_variant_owned_free(&d);
}

static void test_temporal(void) {
  /* a date, a UTC timestamp in nanos, a uuid: built by hand */
  const uint8_t meta[] = {0x01, 0x00, 0x00};
  const uint8_t date[] = {PQT_VARIANT_DATE << 2, 0x10, 0x27, 0, 0}; /* 10000 days */
  pqt_variant v = {meta, sizeof meta, date, sizeof date};
  pqt_variant_value r;
  pqt_error e;
  CHECK_OK(pqt_variant_get(&v, "$", PQT_VARIANT_GET_DATE, &r, &e));
  CHECK(!r.is_null && r.u.i64 == 10000);
  CHECK_OK(pqt_variant_get(&v, "$", PQT_VARIANT_GET_TIMESTAMP, &r, &e));
  CHECK(!r.is_null && r.u.i64 == 10000LL * 86400000000LL);
  uint8_t ts[9] = {PQT_VARIANT_TIMESTAMP_NANOS << 2};
  int64_t ns = 1700000000123456000LL;
  for (int k = 0; k < 8; k++) ts[1 + k] = (uint8_t)((uint64_t)ns >> (8 * k));
  v.value = ts;
  v.value_len = sizeof ts;
  CHECK_OK(pqt_variant_get(&v, "$", PQT_VARIANT_GET_TIMESTAMP, &r, &e));
  CHECK(!r.is_null && r.u.i64 == ns / 1000);
  CHECK_OK(pqt_variant_get(&v, "$", PQT_VARIANT_GET_TIMESTAMP_NTZ, &r, &e)); /* other zone flavour */
  CHECK(r.is_null);
  ts[1] = 1; /* not a whole microsecond */
  CHECK_OK(pqt_variant_get(&v, "$", PQT_VARIANT_GET_TIMESTAMP, &r, &e));
  CHECK(r.is_null);
  uint8_t uu[17] = {PQT_VARIANT_UUID << 2, 0xf2, 0x4f};
  v.value = uu;
  v.value_len = sizeof uu;
  CHECK_OK(pqt_variant_get(&v, "$", PQT_VARIANT_GET_UUID, &r, &e));
  CHECK(!r.is_null && r.u.uuid[0] == 0xf2 && r.u.uuid[1] == 0x4f);
  /* damaged bytes: an error, not a read past the end */
  const uint8_t bad[] = {PQT_VARIANT_INT64 << 2, 1, 2};
  v.value = bad;
  v.value_len = sizeof bad;
  CHECK(pqt_variant_get(&v, "$", PQT_VARIANT_GET_INT64, &r, &e) != PQT_OK);
}

RUN_TESTS("variant_get", TEST_CASE(test_get), TEST_CASE(test_temporal))
