/* libFuzzer target for the Variant binary encoding (src/variant): the input
 * is split into metadata and value (the first two bytes give the metadata's
 * length) and validated; a value that validates is printed as JSON, walked
 * by paths, re-encoded (the copy must validate and be equal) and compared
 * with itself. The whole input is also parsed as JSON text: what parses
 * must validate, print, and read back from its printed form (a fixed point
 * from the second printing on). Objects with field ids out of name order
 * pass the reading side's validation only: sorted in place, the copy must
 * pass pqt_variant_validate and be equal (or, for overlapping bytes, be
 * refused and left unchanged). */
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"
#include "parquetry_variant.h"
#include "variant/variant.h"

static void variant_check_value(const pqt_variant *v) {
  pqt_error e;
  bool unsorted = false;
  if (pqt_variant_validate_read(v, &unsorted, &e) != PQT_OK) {
    /* unvalidated bytes: the accessors fail cleanly, never read out of bounds */
    pqt_variant out;
    int found;
    (void)pqt_variant_path(v, "$.a[1].b", &out, &found, &e);
    (void)pqt_variant_path(v, "$[0]['x']", &out, &found, &e);
    return;
  }
  pqt_string s = {0};
  if (pqt_variant_to_json(v, &s, &e) != PQT_OK) abort();
  pqt_string_free(&s);
  pqt_variant out;
  int found, eq = 0;
  if (pqt_variant_path(v, "$[0]", &out, &found, &e) != PQT_OK) abort();
  if (pqt_variant_equal(v, v, &eq, &e) != PQT_OK || !eq) abort();
  pqt_variant_owned r;
  if (pqt_variant_rebuild(v, NULL, &r, &e) != PQT_OK) abort();
  if (pqt_variant_validate(&r.view, &e) != PQT_OK) abort();
  if (pqt_variant_equal(v, &r.view, &eq, &e) != PQT_OK || !eq) abort();
  pqt_variant_owned_free(&r);
  if ((pqt_variant_validate(v, &e) == PQT_OK) == unsorted) abort();
  if (unsorted) {
    uint8_t *copy = malloc(v->value_len);
    if (!copy) return;
    memcpy(copy, v->value, v->value_len);
    pqt_variant sorted = {v->metadata, v->metadata_len, copy, v->value_len};
    if (pqt_variant_sort_fields(v->metadata, v->metadata_len, copy, v->value_len, &e) == PQT_OK) {
      if (pqt_variant_validate(&sorted, &e) != PQT_OK) abort();
      if (pqt_variant_equal(v, &sorted, &eq, &e) != PQT_OK || !eq) abort();
    } else if (memcmp(copy, v->value, v->value_len) != 0) {
      abort(); /* refused (overlapping bytes): the value is left as it was */
    }
    free(copy);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size >= 2) {
    size_t mlen = (size_t)(data[0] | data[1] << 8);
    if (mlen > size - 2) mlen = size - 2;
    pqt_variant v = {data + 2, mlen, data + 2 + mlen, size - 2 - mlen};
    variant_check_value(&v);
  }
  pqt_variant_owned o;
  pqt_error e;
  if (pqt_variant_from_json((const char *)data, size, NULL, &o, &e) == PQT_OK) {
    if (pqt_variant_validate(&o.view, &e) != PQT_OK) abort();
    pqt_string s = {0};
    if (pqt_variant_to_json(&o.view, &s, &e) != PQT_OK) abort();
    pqt_variant_owned back;
    if (pqt_variant_from_json(s.data, s.len, NULL, &back, &e) != PQT_OK) abort();
    pqt_string s2 = {0};
    if (pqt_variant_to_json(&back.view, &s2, &e) != PQT_OK) abort();
    /* a double printed as an integer reads back as an exact number, a decimal
     * as a string: from the second printing on, the text is a fixed point */
    pqt_variant_owned again;
    if (pqt_variant_from_json(s2.data, s2.len, NULL, &again, &e) != PQT_OK) abort();
    pqt_string s3 = {0};
    if (pqt_variant_to_json(&again.view, &s3, &e) != PQT_OK) abort();
    if (s2.len != s3.len || memcmp(s2.data, s3.data, s2.len) != 0) abort();
    pqt_string_free(&s);
    pqt_string_free(&s2);
    pqt_string_free(&s3);
    pqt_variant_owned_free(&back);
    pqt_variant_owned_free(&again);
    variant_check_value(&o.view);
    pqt_variant_owned_free(&o);
  }
  return 0;
}
