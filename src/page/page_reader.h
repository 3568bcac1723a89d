/*
 * page/page_reader.h: the pages of one column chunk (spec: "Column chunks",
 * "Data Pages", "DataPageHeaderV2", "Checksumming", "Compression").
 *
 * The reader walks the chunk's bytes header by header. For each page it
 * checks the header's sizes against the chunk and the configured limits,
 * verifies the CRC32 when present, decompresses (v2: only the values
 * section; levels are stored uncompressed), and splits the page into its
 * repetition-level, definition-level and values byte spans. Level streams
 * are not decoded here; v1 RLE level streams are returned without their
 * 4-byte length prefix.
 *
 * Index pages and unknown page types are skipped. Memory: one reusable
 * decompression buffer per reader; the chunk bytes are borrowed from the
 * source when it can lend them (mmap, memory), otherwise read once.
 */
#ifndef PQT_PAGE_READER_H
#define PQT_PAGE_READER_H

#include "codec/codec.h"
#include "core/core.h"
#include "core/shared_buf.h"
#include "thrift/parquet_types.h"

typedef struct pqt_page {
  int32_t type;         /* PQT_PAGE_DATA, PQT_PAGE_DATA_V2, PQT_PAGE_DICTIONARY */
  int32_t index;        /* ordinal of the page in the chunk (all page types) */
  uint64_t file_offset; /* where the page header starts */
  const pqt_page_header *header;
  int32_t num_values;   /* data pages: values incl. nulls; dictionary: entries */
  int32_t num_nulls;    /* v2 header value (may be -1 or wrong: a hint only); v1: -1 */
  int32_t num_rows;     /* v2 only; -1 otherwise */
  int32_t encoding;     /* encoding of the values */
  int32_t def_encoding; /* v1: RLE or BIT_PACKED; v2: RLE */
  int32_t rep_encoding;
  const uint8_t *rep;
  size_t rep_len; /* empty when the column has no rep levels */
  const uint8_t *def;
  size_t def_len; /* empty when the column has no def levels */
  const uint8_t *values;
  size_t values_len;
  bool crc_checked;  /* a CRC was present and verified */
  bool crc_mismatch; /* with crc_report_only: the CRC did not match */
  size_t header_len; /* bytes of the page header as stored */
} pqt_page;

typedef struct pqt_page_reader_options {
  bool verify_crc;
  bool crc_report_only;
  /* with crc_report_only, a CRC mismatch is reported in the page, not an error */
  int16_t max_def; /* of the column: decides which level sections exist */
  int16_t max_rep;
  uint64_t max_page_bytes;  /* hard ceiling on an uncompressed page (default 1 GiB) */
  uint32_t max_expansion;   /* uncompressed <= compressed * this + floor (default 64) */
  uint32_t expansion_floor; /* default 1 MiB */
  /* Encrypted chunk (crypto/crypto.h): page headers and pages are decrypted
   * as they are read; NULL = plaintext. Borrowed. */
  const struct pqt_module_decryptor *decryptor;
  bool dictionary_first; /* encrypted: the chunk starts with a dictionary page (AAD hint) */
  /* The file's bytes as a shared buffer when the source can be kept alive
   * (a mapped file, io/source.h: pqt_io_keeper), else NULL. Borrowed. An
   * uncompressed page read in place from it is shared (a slice of it) with
   * arrays that point there. A chunk whose bytes lie elsewhere (another
   * file) is simply not found in it. */
  pqt_shared_buf *source;
} pqt_page_reader_options;

void pqt_page_reader_options_init(pqt_page_reader_options *o);

typedef struct pqt_page_reader {
  const pqt_allocator *alloc;
  pqt_page_reader_options opts;
  int32_t codec;
  pqt_codec_ctx *codec_ctx; /* borrowed */
  const uint8_t *chunk;     /* the chunk bytes */
  uint8_t *chunk_copy;      /* owned when the source could not lend */
  pqt_shared_buf *chunk_shared; /* chunk_copy once handed over to arrays (owned reference; chunk_copy is then NULL) */
  size_t chunk_len;
  uint64_t chunk_offset; /* file offset of chunk[0] */
  size_t pos;
  int32_t page_index;  /* pages started so far */
  int32_t current;     /* index of the page being read (for errors) */
  bool header_decoded; /* the current page's header was read and its extent is
                          sound (the reader is past it), even if the page then
                          failed: its type and sizes are in `header` */
  pqt_buf scratch;     /* decompressed page */
  pqt_page_header header;
  int32_t data_page_ordinal; /* encrypted: data pages started (AAD page ordinal) */
  pqt_buf crypt_header;      /* encrypted: the decrypted page header */
  pqt_buf crypt_page;        /* encrypted: the decrypted page */
  pqt_shared_buf *shared;    /* the current page's buffer once handed over (pqt_page_reader_share_values) */
} pqt_page_reader;

/* Prepare to read the chunk at [offset, offset+len) of io. The range must
 * lie inside the file (checked). codec_ctx is borrowed. */
pqt_status pqt_page_reader_init(pqt_page_reader *pr, const pqt_io *io, uint64_t offset, uint64_t len, int32_t codec,
                                pqt_codec_ctx *codec_ctx, const pqt_page_reader_options *opts,
                                const pqt_allocator *alloc, pqt_error *err);

/* The next data or dictionary page; *eof is set (and PQT_OK returned) at the
 * end of the chunk. The page's spans are valid until the next call. */
pqt_status pqt_page_reader_next(pqt_page_reader *pr, pqt_page *page, bool *eof, pqt_error *err);

void pqt_page_reader_free(pqt_page_reader *pr);

/* The buffer holding the current page's values section (values,
 * values_len: as pqt_page gave them), for arrays that
 * point into the page (Arrow views) instead of copying out of it: the
 * decompressed (or decrypted) page buffer is handed over as a shared
 * buffer, and the reader makes a new one for its next page. An
 * uncompressed page read in place gets a slice (data = values) of what
 * holds it: the chunk's bytes as read from the source (read_at: the copy
 * is the reader's, handed over whole), or the mapped file
 * (opts.source). *out is NULL only when the values lie in memory the
 * library cannot keep alive (a caller's buffer or borrow_at): the caller
 * copies them. The reader keeps a reference until its next page (asking
 * twice gives the same buffer); a caller that keeps it takes its own
 * (pqt_shared_ref). */
pqt_status pqt_page_reader_share_values(pqt_page_reader *pr, const uint8_t *values, size_t values_len,
                                        pqt_shared_buf **out, pqt_error *err);

/* Read pages from [offset, offset+len) of io from now on (a run of pages
 * the offset index points at: only those bytes are requested from io).
 * page_index and data_page_ordinal: the ordinals of the first page there
 * (error messages; the AAD of an encrypted page). */
pqt_status pqt_page_reader_seek(pqt_page_reader *pr, const pqt_io *io, uint64_t offset, uint64_t len,
                                int32_t page_index, int32_t data_page_ordinal, pqt_error *err);

#endif
