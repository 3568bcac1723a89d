/*
 * inspect/meta_json.c: pqt_reader_metadata_json, the whole FileMetaData as
 * JSON (`parquetry meta --json`). It walks the footer with the Thrift
 * descriptor tables' JSON printer (thrift/codec.h), so every field the
 * footer holds, known to this version, is printed under its parquet.thrift
 * name: it is not built on the public metadata API, whose accessors give
 * decoded views rather than the struct as stored (ARCHITECTURE.md, "Printers
 * on the public API").
 */
#include "file/reader_internal.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

PQT_API pqt_status pqt_reader_metadata_json(const pqt_reader *r, int indent, pqt_string *out, pqt_error *err) {
  if (!r || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_metadata_json: bad arguments");
  pqt_buf b;
  pqt_buf_init(&b, r->alloc);
  pqt_status st = pqt_thrift_to_json(&pqt_desc_file_metadata, &r->md, indent, &b, err);
  if (st != PQT_OK) {
    pqt_buf_free(&b);
    return st;
  }
  return pqt_buf_to_string(&b, out, err);
}
