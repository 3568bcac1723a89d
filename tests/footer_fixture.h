/*
 * tests/footer_fixture.h: files made by editing a footer, for tests that
 * need a damaged or unusual file the writer does not make. The footer is
 * the reader's decoded FileMetaData (file/reader_internal.h), changed by
 * the test and encoded again here.
 */
#ifndef PQT_TESTS_FOOTER_FIXTURE_H
#define PQT_TESTS_FOOTER_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "file/reader_internal.h"
#include "harness.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

/* The footer's 4-byte length and the trailing magic. */
static inline void pqt_test_footer_tail(size_t footer_len, uint8_t tail[8]) {
  uint32_t fl = (uint32_t)footer_len;
  uint8_t t[8] = {(uint8_t)fl, (uint8_t)(fl >> 8), (uint8_t)(fl >> 16), (uint8_t)(fl >> 24), 'P', 'A', 'R', '1'};
  memcpy(tail, t, 8);
}

/* out += md encoded as a footer, with its length and the magic. */
static inline void pqt_test_append_footer(pqt_buf *out, const pqt_file_metadata *md) {
  size_t footer_at = out->len;
  CHECK_OK(pqt_thrift_encode(&pqt_desc_file_metadata, md, out, NULL));
  uint8_t tail[8];
  pqt_test_footer_tail(out->len - footer_at, tail);
  CHECK_OK(pqt_buf_append(out, tail, 8, NULL));
}

/* out = the file's bytes before its footer (file_len bytes in all, a footer
 * of footer_len), then md as the new footer. */
static inline void pqt_test_refooter(const void *file, size_t file_len, size_t footer_len,
                                     const pqt_file_metadata *md, pqt_buf *out) {
  CHECK_OK(pqt_buf_append(out, file, file_len - 8 - footer_len, NULL));
  pqt_test_append_footer(out, md);
}

/* Every chunk of md names `name` as its file_path (offsets unchanged). */
static inline void pqt_test_point_chunks_at(pqt_file_metadata *md, const char *name) {
  for (int32_t g = 0; g < md->row_groups.n; g++) {
    pqt_row_group *rg = &md->row_groups.items[g];
    for (int32_t c = 0; c < rg->columns.n; c++) {
      pqt_column_chunk *cc = &rg->columns.items[c];
      cc->file_path.ptr = (const uint8_t *)name;
      cc->file_path.len = (int64_t)strlen(name);
      cc->isset |= PQT_FIELD_MASK(column_chunk, file_path);
    }
  }
}

/* path: a file of md alone ("PAR1", the footer, its length, "PAR1"): with
 * pqt_test_point_chunks_at, a footer over another file's pages. */
static inline void pqt_test_write_footer_file(const char *path, const pqt_file_metadata *md) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_buf_append(&b, "PAR1", 4, NULL));
  pqt_test_append_footer(&b, md);
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (f) {
    CHECK(fwrite(b.data, 1, b.len, f) == b.len);
    CHECK(fclose(f) == 0);
  }
  pqt_buf_free(&b);
}

#endif
