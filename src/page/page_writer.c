/*
 * page/page_writer: page header + body serialization with the optional
 * CRC-32 (parquet-format README.md "Data Pages", "Checksumming"; parquet.thrift PageHeader).
 */
#include "page/page_writer.h"

#include "codec/codec.h"
#include "encoding/rle.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

pqt_status pqt_page_append(pqt_buf *out, pqt_page_header *h, const uint8_t *body, size_t len, bool crc,
                           size_t *header_len, pqt_error *err) {
  if (len > INT32_MAX) return pqt_error_set(err, PQT_ELIMIT, "page of %zu bytes is too large", len);
  h->compressed_page_size = (int32_t)len;
  PQT_SET_FIELD(h, page_header, type);
  PQT_SET_FIELD(h, page_header, uncompressed_page_size);
  PQT_SET_FIELD(h, page_header, compressed_page_size);
  if (crc) {
    h->crc = (int32_t)pqt_crc32(0, body, len);
    PQT_SET_FIELD(h, page_header, crc);
  }
  size_t before = out->len;
  PQT_RETURN_NOT_OK(pqt_thrift_encode(&pqt_desc_page_header, h, out, err));
  if (header_len) *header_len = out->len - before;
  return pqt_buf_append(out, body, len, err);
}

pqt_status pqt_page_append_encrypted(pqt_buf *out, pqt_page_header *h, const uint8_t *body, size_t len, bool crc,
                                     const pqt_module_encryptor *e, int32_t data_page_ordinal, pqt_buf *scratch,
                                     size_t *header_len, pqt_error *err) {
  bool dict = h->type == PQT_PAGE_DICTIONARY;
  pqt_buf_clear(scratch);
  PQT_RETURN_NOT_OK(pqt_module_encrypt(e, dict ? PQT_MODULE_DICTIONARY_PAGE : PQT_MODULE_DATA_PAGE, data_page_ordinal,
                                       body, len, NULL, scratch, err));
  size_t module_len = scratch->len;
  if (module_len > INT32_MAX) return pqt_error_set(err, PQT_ELIMIT, "page of %zu bytes is too large", len);
  h->compressed_page_size = (int32_t)module_len;
  PQT_SET_FIELD(h, page_header, type);
  PQT_SET_FIELD(h, page_header, uncompressed_page_size);
  PQT_SET_FIELD(h, page_header, compressed_page_size);
  if (crc) {
    h->crc = (int32_t)pqt_crc32(0, scratch->data, module_len);
    PQT_SET_FIELD(h, page_header, crc);
  }
  /* the serialized header goes after the body module in scratch, then out gets it encrypted */
  PQT_RETURN_NOT_OK(pqt_thrift_encode(&pqt_desc_page_header, h, scratch, err));
  size_t before = out->len;
  PQT_RETURN_NOT_OK(pqt_module_encrypt(e, dict ? PQT_MODULE_DICTIONARY_PAGE_HEADER : PQT_MODULE_DATA_PAGE_HEADER,
                                       data_page_ordinal, scratch->data + module_len, scratch->len - module_len, NULL,
                                       out, err));
  if (header_len) *header_len = out->len - before;
  return pqt_buf_append(out, scratch->data, module_len, err);
}

pqt_status pqt_page_append_v1_levels(pqt_buf *out, const int16_t *levels, size_t n, int16_t max_level, pqt_error *err) {
  PQT_RETURN_NOT_OK(pqt_buf_reserve(out, 4, err));
  size_t at = out->len;
  out->len += 4;
  PQT_RETURN_NOT_OK(pqt_rle_encode_levels(levels, n, pqt_bit_width_u32((uint32_t)max_level), out, err));
  pqt_store_u32le(out->data + at, (uint32_t)(out->len - at - 4));
  return PQT_OK;
}
