/*
 * page/page_writer: serialize one page (spec parquet-format README.md "Data Pages",
 * PageHeader in parquet.thrift, "Checksumming": CRC-32 over the page bytes
 * after the header, as stored, i.e. compressed).
 */
#ifndef PQT_PAGE_WRITER_H
#define PQT_PAGE_WRITER_H

#include "core/core.h"
#include "crypto/crypto.h"
#include "thrift/parquet_types.h"

/* Append header h and body[0..len) to out. compressed_page_size is set to
 * len; with crc, h->crc is set from body. *header_len gets the header's
 * byte length. uncompressed_page_size must be set by the caller. */
pqt_status pqt_page_append(pqt_buf *out, pqt_page_header *h, const uint8_t *body, size_t len, bool crc,
                           size_t *header_len, pqt_error *err);

/* The same for a page of an encrypted column (spec "Parquet Modular
 * Encryption"): the body becomes one module (data page: its ordinal
 * data_page_ordinal in the AAD; dictionary page when h is one), then the
 * header, with compressed_page_size the module's size and the CRC over the
 * module as stored, becomes another; out gets header module, body module.
 * scratch is the caller's buffer for the body module. */
pqt_status pqt_page_append_encrypted(pqt_buf *out, pqt_page_header *h, const uint8_t *body, size_t len, bool crc,
                                     const pqt_module_encryptor *e, int32_t data_page_ordinal, pqt_buf *scratch,
                                     size_t *header_len, pqt_error *err);

/* Append a v1 level stream: 4-byte LE length, then the RLE hybrid runs. */
pqt_status pqt_page_append_v1_levels(pqt_buf *out, const int16_t *levels, size_t n, int16_t max_level, pqt_error *err);

#endif
