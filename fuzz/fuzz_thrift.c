/* libFuzzer target for the Thrift compact codec (src/thrift): the input is
 * decoded as FileMetaData, PageHeader, ColumnIndex, OffsetIndex,
 * BloomFilterHeader and FileCryptoMetaData. Whenever a decode succeeds the
 * model is encoded, decoded again and compared (deep equality, identical
 * re-encoding) and rendered as JSON. The first input byte also selects
 * tight limits for some runs so the limit paths are exercised. */
#include <stdio.h>
#include <stdlib.h>

#include "core/core.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static void check(const pqt_thrift_desc *d, const uint8_t *data, size_t size, const pqt_thrift_limits *lim) {
  void *m1 = calloc(1, d->size), *m2 = calloc(1, d->size);
  pqt_arena a1, a2;
  pqt_arena_init(&a1, NULL);
  pqt_arena_init(&a2, NULL);
  a1.limit_bytes = 256u << 20;
  pqt_buf e1, e2, j;
  pqt_buf_init(&e1, NULL);
  pqt_buf_init(&e2, NULL);
  pqt_buf_init(&j, NULL);
  size_t used = 0;
  pqt_error err;
  pqt_error_init(&err);
  if (pqt_thrift_decode_ex(d, data, size, &used, &a1, lim, m1, &err) == PQT_OK) {
    if (used > size) abort();
    if (pqt_thrift_encode(d, m1, &e1, NULL) == PQT_OK) {
      /* unknown union members are dropped on encode (codec.h), so only
       * require equality when the encoding decodes back */
      size_t used2 = 0;
      if (pqt_thrift_decode(d, e1.data, e1.len, &used2, &a2, m2, NULL) != PQT_OK) {
        /* a model we decoded must encode to something we can decode, except
         * when a required union field had an unknown member (encode fails
         * then, not here) */
        fprintf(stderr, "re-decode of our own encoding failed for %s\n", d->name);
        abort();
      }
      if (used2 != e1.len) abort();
      if (pqt_thrift_encode(d, m2, &e2, NULL) != PQT_OK) abort();
      if (e1.len != e2.len || memcmp(e1.data, e2.data, e1.len) != 0) abort();
    }
    if (pqt_thrift_to_json(d, m1, (size & 1) ? 2 : 0, &j, NULL) != PQT_OK) abort();
  } else if (err.code == PQT_OK) {
    abort(); /* an error must carry its code */
  }
  pqt_buf_free(&e1);
  pqt_buf_free(&e2);
  pqt_buf_free(&j);
  pqt_arena_reset(&a1);
  pqt_arena_reset(&a2);
  free(m1);
  free(m2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pqt_thrift_limits tight = {
      .max_depth = 8, .max_string_bytes = 64, .max_container_elems = 64, .max_alloc_bytes = 4096};
  const pqt_thrift_limits *lim = (size && data[0] == 0xff) ? &tight : NULL;
  check(&pqt_desc_file_metadata, data, size, lim);
  check(&pqt_desc_page_header, data, size, lim);
  check(&pqt_desc_column_index, data, size, lim);
  check(&pqt_desc_offset_index, data, size, lim);
  check(&pqt_desc_bloom_filter_header, data, size, lim);
  check(&pqt_desc_file_crypto_metadata, data, size, lim);
  return 0;
}
