/*
 * column/column_writer: one column chunk being written (spec parquet-format README.md:
 * "Column chunks", "Data Pages", "Nested Encoding", Encodings.md, "Page
 * Index", BloomFilter.md). Input: levels plus dense values in the
 * physical layout (fixed width contiguous, BOOLEAN one byte 0/1,
 * BYTE_ARRAY int32 offsets + data). Pages are cut at record boundaries,
 * encoded and compressed as they fill; the chunk (dictionary page + data
 * pages) stays in memory until pqt_column_writer_emit writes it.
 */
#ifndef PQT_COLUMN_WRITER_H
#define PQT_COLUMN_WRITER_H

#include "codec/codec.h"
#include "column/statistics.h"
#include "core/core.h"
#include "crypto/crypto.h"
#include "encoding/dictionary.h"
#include "meta/bloom.h"
#include "parquetry_geo.h"
#include "thrift/parquet_types.h"

typedef struct pqt_column_writer {
  const pqt_allocator *alloc;
  pqt_column_options o;
  int32_t physical, type_length;
  size_t width; /* fixed width (BOOLEAN 1), 0 for BYTE_ARRAY */
  bool utf8;
  int16_t max_def, max_rep;
  pqt_sort_kind sort;
  pqt_codec_ctx *codec;
  int32_t value_encoding; /* encoding when not dictionary encoded */
  bool dict_on;           /* dictionary encoding the current pages */
  bool dict_used;         /* some page of this chunk is dictionary encoded */
  bool stats_on;
  pqt_dict_builder dict;
  /* open page */
  pqt_buf def, rep, vals, offs, idx;
  int64_t pg_levels, pg_values, pg_rows, pg_ba_bytes;
  pqt_stats pg_stats, ck_stats;
  int64_t *pg_hist, *ck_hist; /* def (max_def+1) then rep (max_rep+1) */
  /* chunk output */
  pqt_buf dict_page;
  int64_t dict_page_uncompressed;
  int32_t dict_count;
  pqt_buf pages;
  int64_t data_uncompressed;
  int64_t ck_levels, ck_rows, ck_values, ck_ba_bytes;
  int32_t enc_pages[11]; /* data pages per encoding */
  /* page index */
  pqt_buf pi, pi_bounds, pi_hist;
  int32_t n_pages;
  bool bloom_on;
  pqt_bloom bloom;
  uint32_t bloom_blocks; /* the filter's full size (it is folded per row group) */
  /* GEOMETRY/GEOGRAPHY leaf: the chunk's GeospatialStatistics */
  bool geo;
  pqt_geo_bbox geo_box;
  int64_t rows_before_chunk; /* rows of the chunks already emitted (for error messages) */
  /* scratch */
  pqt_buf s_lv, s_val, s_comp, s_body;
  /* encryption: the column's module encryptor (borrowed from the file
   * writer, which sets it after init; NULL: plaintext) and its scratch */
  const pqt_module_encryptor *enc;
  pqt_buf s_crypt;
} pqt_column_writer;

/* Set up for a leaf (physical type, FLBA length, levels, annotation).
 * codec is shared (owned by the caller). */
pqt_status pqt_column_writer_init(pqt_column_writer *cw, const pqt_column_options *o, int32_t physical,
                                  int32_t type_length, int16_t max_def, int16_t max_rep,
                                  const pqt_logical_type *logical, int32_t converted_type, pqt_codec_ctx *codec,
                                  const pqt_allocator *alloc, pqt_error *err);
/* Right after init, before any value: order statistics in IEEE 754 total
 * order (FLOAT, DOUBLE, FLOAT16 columns) and/or INT96 chronological order
 * (INT96 columns; otherwise they get none). Returns the ColumnOrder to write
 * in the footer for the column (a PQT_ORDER_* value). */
int32_t pqt_column_writer_set_order(pqt_column_writer *cw, bool float_total, bool int96);
void pqt_column_writer_free(pqt_column_writer *cw);

/* Append n levels and the n_values present values (see header comment).
 * With max_rep > 0 the input must start a record (rep[0] == 0). */
pqt_status pqt_column_writer_write(pqt_column_writer *cw, int64_t n, const int16_t *def, const int16_t *rep,
                                   const uint8_t *values, const int32_t *offsets, int64_t n_values, pqt_error *err);
/* Close the open page and the dictionary. */
pqt_status pqt_column_writer_finish(pqt_column_writer *cw, pqt_error *err);
/* Compressed bytes held (pages closed so far + dictionary estimate). */
int64_t pqt_column_writer_buffered(const pqt_column_writer *cw);
static inline int64_t pqt_column_writer_rows(const pqt_column_writer *cw) { return cw->ck_rows + cw->pg_rows; }

/* May value encoding enc (not a dictionary encoding) encode this physical type? */
bool pqt_encoding_fits(int32_t enc, int32_t physical);

typedef pqt_status (*pqt_sink_fn)(void *ctx, const void *data, size_t len, pqt_error *err);

/* Where pqt_column_writer_emit puts a finished chunk. */
typedef struct pqt_chunk_out {
  pqt_sink_fn sink; /* the chunk's pages go through sink(sink_ctx, ...) */
  void *sink_ctx;
  int64_t at;            /* file offset of the chunk's first byte */
  pqt_arena *arena;      /* holds cc's metadata lists and bytes */
  pqt_column_chunk *cc;  /* filled; path_in_schema is the caller's */
  pqt_buf *ci, *oi;      /* encoded ColumnIndex / OffsetIndex appended */
  pqt_buf *bloom;        /* serialized Bloom filter appended (NULL: none) */
  size_t ci_len, oi_len; /* out: bytes appended to ci / oi (ci_len 0: no column index) */
} pqt_chunk_out;

/* Write the finished chunk (dictionary page, data pages) through
 * out->sink, fill out->cc, append its page index and Bloom filter (see
 * pqt_chunk_out). Then resets for the next row group. */
pqt_status pqt_column_writer_emit(pqt_column_writer *cw, pqt_chunk_out *out, pqt_error *err);

#endif
