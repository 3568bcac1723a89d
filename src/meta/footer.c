/* meta/footer.c: see footer.h. */
#include "meta/footer.h"

#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

pqt_status pqt_footer_locate(const uint8_t *head4, const uint8_t tail[PQT_FOOTER_TAIL_BYTES], uint64_t file_size,
                             pqt_footer_location *loc, pqt_error *err) {
  if (file_size < 12)
    return pqt_corrupt(err, "file is %llu bytes, too small to be a Parquet file (needs at least 12)",
                       (unsigned long long)file_size);
  bool encrypted = memcmp(tail + 4, "PARE", 4) == 0;
  if (head4 && memcmp(head4, encrypted ? "PARE" : "PAR1", 4) != 0)
    return pqt_corrupt(err, "not a Parquet file: no %s magic at the start", encrypted ? "PARE" : "PAR1");
  if (!encrypted && memcmp(tail + 4, "PAR1", 4) != 0)
    return pqt_corrupt(err, "not a Parquet file (or truncated): no PAR1 magic at the end");
  uint32_t len = pqt_load_u32le(tail);
  if (len == 0) return pqt_corrupt(err, "footer length is 0");
  if ((uint64_t)len > file_size - 12)
    return pqt_corrupt(err, "footer length %u exceeds the file size %llu", len, (unsigned long long)file_size);
  loc->metadata_len = len;
  loc->metadata_offset = file_size - 8 - len;
  loc->encrypted_footer = encrypted;
  return PQT_OK;
}

pqt_status pqt_footer_decode(const uint8_t *buf, size_t len, pqt_arena *arena, pqt_file_metadata *md, pqt_error *err) {
  pqt_status st = pqt_thrift_decode(&pqt_desc_file_metadata, buf, len, NULL, arena, md, err);
  if (st != PQT_OK) {
    pqt_error_prefix(err, "footer");
    return st;
  }
  PQT_CHECK_CORRUPT(md->schema.n >= 1, err, "footer: the schema is empty");
  PQT_CHECK_CORRUPT(md->num_rows >= 0, err, "footer: num_rows is negative (%lld)", (long long)md->num_rows);
  for (int32_t i = 0; i < md->row_groups.n; i++) {
    const pqt_row_group *rg = &md->row_groups.items[i];
    PQT_CHECK_CORRUPT(rg->num_rows >= 0, err, "footer: row group %d: num_rows is negative", i);
  }
  return PQT_OK;
}
