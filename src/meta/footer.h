/*
 * meta/footer.h: locating and decoding the file footer (spec: "File
 * format": 4-byte magic "PAR1", column chunks, FileMetaData, 4-byte
 * little-endian footer length, magic; "PARE" instead of the trailing magic
 * marks an encrypted footer, see "Modular encryption").
 *
 * No I/O happens here: the caller reads the last 8 bytes, asks where the
 * metadata is, reads those bytes and hands them over. Remote readers can
 * thus plan their range requests.
 */
#ifndef PQT_META_FOOTER_H
#define PQT_META_FOOTER_H

#include "core/core.h"
#include "thrift/parquet_types.h"

#define PQT_FOOTER_TAIL_BYTES 8

typedef struct pqt_footer_location {
  uint64_t metadata_offset; /* where FileMetaData (or FileCryptoMetaData) starts */
  uint32_t metadata_len;
  bool encrypted_footer; /* "PARE" */
} pqt_footer_location;

/* Validate the last 8 bytes of a file of file_size bytes and say where the
 * footer metadata lies. head4, when not NULL, is checked for the leading magic. */
pqt_status pqt_footer_locate(const uint8_t *head4, const uint8_t tail[PQT_FOOTER_TAIL_BYTES], uint64_t file_size,
                             pqt_footer_location *loc, pqt_error *err);

/* Decode FileMetaData from buf. Byte views in md point into buf, and lists
 * live in arena: both must outlive md. Checks the consistency a reader
 * relies on (non-negative counts and offsets, schema present). */
pqt_status pqt_footer_decode(const uint8_t *buf, size_t len, pqt_arena *arena, pqt_file_metadata *md, pqt_error *err);

#endif
