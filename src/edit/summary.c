/*
 * edit/summary.c: a metadata-only footer file over data files (parquet-mr's
 * summary files): the inputs' row groups, each column chunk's file_path
 * naming the data file it lies in (include/parquetry_edit.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file/reader_internal.h"
#include "parquetry_edit.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static pqt_status write_atomic(const char *path, const uint8_t *footer, size_t len, pqt_error *err) {
  size_t pl = strlen(path);
  char *tmp = malloc(pl + 16);
  if (!tmp) return pqt_nomem(err);
  snprintf(tmp, pl + 16, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    pqt_status st = pqt_error_set(err, PQT_EIO, "%s: cannot create a temporary file", path);
    free(tmp);
    return st;
  }
  FILE *f = fdopen(fd, "wb");
  uint8_t tail[8] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16), (uint8_t)(len >> 24), 'P', 'A', 'R', '1'};
  bool ok = f && fwrite("PAR1", 1, 4, f) == 4 && fwrite(footer, 1, len, f) == len && fwrite(tail, 1, 8, f) == 8;
  if (f) ok = fclose(f) == 0 && ok;
  else close(fd);
  if (ok) ok = rename(tmp, path) == 0;
  pqt_status st = ok ? PQT_OK : pqt_error_set(err, PQT_EIO, "%s: write failed", path);
  if (!ok) remove(tmp);
  free(tmp);
  return st;
}

PQT_API pqt_status pqt_edit_write_summary(const char *path, pqt_reader *const *inputs, const char *const *file_paths,
                                          int32_t n_inputs, pqt_error *err) {
  if (!path || !inputs || !file_paths || n_inputs < 1)
    return pqt_error_set(err, PQT_EINVAL, "pqt_edit_write_summary: a path and at least one input are needed");
  int64_t n_groups = 0, rows = 0;
  for (int32_t i = 0; i < n_inputs; i++) {
    const pqt_reader *r = inputs[i];
    if (!r || !file_paths[i] || !file_paths[i][0])
      return pqt_error_set(err, PQT_EINVAL, "pqt_edit_write_summary: input %d has no reader or no file path", i);
    if (r->crypto)
      return pqt_error_set(err, PQT_EUNSUPPORTED, "%s: encrypted files cannot be summarised", file_paths[i]);
    if (i > 0) PQT_RETURN_NOT_OK(pqt_edit_same_schema(inputs[0], file_paths[0], r, file_paths[i], err));
    for (int32_t g = 0; g < r->md.row_groups.n; g++)
      for (int32_t c = 0; c < r->md.row_groups.items[g].columns.n; c++) {
        const pqt_column_chunk *cc = &r->md.row_groups.items[g].columns.items[c];
        if (PQT_HAS_FIELD(cc, column_chunk, file_path) && cc->file_path.len > 0)
          return pqt_error_set(err, PQT_EUNSUPPORTED, "%s: row group %d already holds column data in another file",
                               file_paths[i], g);
        if (!PQT_HAS_FIELD(cc, column_chunk, meta_data))
          return pqt_error_set(err, PQT_EUNSUPPORTED, "%s: row group %d column %d has no metadata", file_paths[i], g,
                               c);
      }
    n_groups += r->md.row_groups.n;
    rows += r->md.num_rows;
  }
  if (n_groups > INT32_MAX / 2) return pqt_error_set(err, PQT_EINVAL, "too many row groups");
  pqt_file_metadata md = inputs[0]->md;
  pqt_row_group *rgs = calloc((size_t)(n_groups ? n_groups : 1), sizeof *rgs);
  // NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers
  pqt_column_chunk **cols = calloc((size_t)(n_groups ? n_groups : 1), sizeof *cols);
  pqt_status st = rgs && cols ? PQT_OK : pqt_nomem(err);
  int64_t k = 0;
  for (int32_t i = 0; i < n_inputs && st == PQT_OK; i++) {
    const pqt_reader *r = inputs[i];
    for (int32_t g = 0; g < r->md.row_groups.n && st == PQT_OK; g++, k++) {
      rgs[k] = r->md.row_groups.items[g];
      int32_t nc = rgs[k].columns.n;
      cols[k] = calloc((size_t)(nc ? nc : 1), sizeof **cols);
      if (!cols[k]) {
        st = pqt_nomem(err);
        break;
      }
      for (int32_t c = 0; c < nc; c++) {
        pqt_column_chunk cc = rgs[k].columns.items[c];
        cc.file_path = (pqt_bytes){(const uint8_t *)file_paths[i], (int64_t)strlen(file_paths[i])};
        PQT_SET_FIELD(&cc, column_chunk, file_path);
        /* the page index and Bloom filters stay in the data file: their offsets do not point into this one */
        cc.isset &= ~PQT_FIELD_MASK(column_chunk, offset_index_offset, offset_index_length, column_index_offset,
                                    column_index_length);
        cc.meta_data.isset &= ~PQT_FIELD_MASK(column_metadata, bloom_filter_offset, bloom_filter_length);
        cols[k][c] = cc;
      }
      rgs[k].columns.items = cols[k];
    }
  }
  pqt_buf out;
  pqt_buf_init(&out, NULL);
  if (st == PQT_OK) {
    md.row_groups.items = rgs;
    md.row_groups.n = (int32_t)n_groups;
    md.num_rows = rows;
    st = pqt_thrift_encode(&pqt_desc_file_metadata, &md, &out, err);
  }
  if (st == PQT_OK && out.len > UINT32_MAX) st = pqt_error_set(err, PQT_EINVAL, "%s: footer too large", path);
  if (st == PQT_OK) st = write_atomic(path, out.data, out.len, err);
  pqt_buf_free(&out);
  for (int64_t j = 0; cols && j < n_groups; j++) free(cols[j]);
  free(cols);
  free(rgs);
  return st;
}
