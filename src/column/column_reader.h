/*
 * column/column_reader.h: one column chunk, pages -> levels + dense values.
 *
 * A column chunk is decoded a page at a time into contiguous buffers by a
 * cursor that hands out any number of records per call (a record batch):
 * the current page's levels are decoded once, its values are decoded as
 * they are asked for, straight into the caller's buffers, and the next
 * page is read only when this one is used up. The caller's buffers hold:
 *   - definition levels (int16, one per entry) when the column's max
 *     definition level is > 0, repetition levels likewise;
 *   - the non-null values, dense, in the physical layout Arrow uses:
 *     fixed-width values back to back (INT96 as 12 bytes, FLBA as width
 *     bytes), BOOLEAN as an LSB-first bitmap, BYTE_ARRAY as int32 offsets
 *     (n_values + 1) plus the bytes.
 * Dictionary pages are decoded once; dictionary-encoded data pages gather
 * straight into the dense output, so a chunk that falls back from
 * dictionary to plain midway simply appends.
 *
 * Every count from the file is checked: a non-repeated column must hold
 * exactly the row group's rows; the levels must be in range; the values a
 * page claims must be present in its bytes.
 */
#ifndef PQT_COLUMN_READER_H
#define PQT_COLUMN_READER_H

#include "codec/codec.h"
#include "core/core.h"
#include "encoding/delta_byte_array.h"
#include "page/page_reader.h"
#include "thrift/parquet_types.h"

typedef struct pqt_column_desc {
  int32_t physical_type;
  int32_t type_length; /* FLBA width */
  int16_t max_def;
  int16_t max_rep;
  const int16_t *repeated_def; /* [max_rep]: def level of the r-th repeated ancestor */
  const char *path;            /* for error messages */
  bool validate_utf8;          /* a STRING/ENUM/JSON column: check the bytes */
} pqt_column_desc;

typedef struct pqt_column_data {
  int64_t n_levels;   /* entries (values incl. nulls) */
  pqt_buf def;        /* int16[n_levels] when max_def > 0; empty when every
                       * entry is max_def (a column without nulls) */
  pqt_buf rep;        /* int16[n_levels] when max_rep > 0 */
  int64_t n_values;   /* dense non-null values */
  pqt_buf values;     /* see above */
  pqt_buf offsets;    /* BYTE_ARRAY: int32[n_values + 1] */
  int32_t n_pages;    /* data pages finished into this buffer */
  int64_t n_rows;     /* records (rep level 0 entries, or n_levels when flat) */
  pqt_buf *page_ends; /* NULL, or set by the caller (borrowed): one pqt_page_end
                       * appended after each data page decoded (a page lost to
                       * skip_corrupt_pages gets none) */
  /* Dictionary output (set want_dict before the first read into this
   * buffer; not for BOOLEAN, not with skip_corrupt_pages, not with
   * _read_sel): `values` holds int32 indexes (n_values of them) into a
   * dictionary of this buffer's own, dict_n entries in the dense value
   * layout (dict_values, and dict_offsets int32[dict_n + 1] for BYTE_ARRAY).
   * Dictionary-encoded pages give their indexes (the chunk's dictionary is
   * copied in once, at its first use in this buffer, offset by what was
   * there before); pages of any other encoding append their values to the
   * dictionary and give the indexes of those new entries. So every page
   * (a chunk that falls back to PLAIN midway, a chunk without a
   * dictionary) is read, and the dictionary may hold duplicates. */
  bool want_dict;
  bool is_dict;          /* values are indexes (want_dict, a type that allows it) */
  int64_t dict_n;        /* entries in dict_values */
  int64_t dict_page_at;  /* where the chunk's dictionary starts in it (-1: not copied in) */
  pqt_buf dict_values;   /* fixed-width entries, or BYTE_ARRAY bytes */
  pqt_buf dict_offsets;  /* BYTE_ARRAY: int32[dict_n + 1] */
  /* View output (set want_views before the first read into this buffer;
   * BYTE_ARRAY only, not with want_dict, skip_corrupt_pages or _read_sel):
   * `views` holds one 16-byte Arrow view (utf8view/binaryview layout) per
   * dense value. A value of over 12 bytes points into variadic buffer k:
   * k = 0 is this buffer's own bytes (`values`, `offsets` over its n_own
   * values: what no shared page holds: DELTA_BYTE_ARRAY values with a
   * prefix, uncompressed pages in a caller's memory); k >= 1 is view_bufs'
   * entry k - 1 (pqt_shared_buf *, one reference each: the decompressed
   * pages, slices of the mapped file or of the reader's copy of the chunk,
   * and the chunk's dictionary the views point into, not copied out). */
  bool want_views;
  bool is_views; /* want_views on a BYTE_ARRAY leaf: values are views */
  pqt_buf views;
  pqt_buf view_bufs;
  int64_t n_own;
} pqt_column_data;

/* Where a data page ended in a pqt_column_data: entries and dense values
 * of the chunk so far. Page i holds entries [end[i-1].n_levels,
 * end[i].n_levels) and values [end[i-1].n_values, end[i].n_values). */
typedef struct pqt_page_end {
  int64_t n_levels;
  int64_t n_values;
} pqt_page_end;

void pqt_column_data_init(pqt_column_data *cd, const pqt_allocator *alloc);
void pqt_column_data_free(pqt_column_data *cd);

/* The first dense fixed-width value. */
static inline uint8_t *pqt_column_values(const pqt_column_data *cd) { return cd->values.data; }

/* Byte width of one dense value (0 for BOOLEAN and BYTE_ARRAY). */
size_t pqt_physical_width(int32_t physical_type, int32_t type_length);

typedef struct pqt_column_read_options {
  pqt_page_reader_options page;
  int64_t expected_rows; /* the row group's num_rows (checked), -1 to skip the check */
  uint64_t max_values;   /* ceiling on entries in one chunk (default 2^31 - 1) */
  /* Error recovery (PQT_SKIP_CORRUPT; needs expected_rows >= 0 and the
   * chunk read in one call): a page that cannot be read is left out, the
   * rows it held recorded (pqt_column_cursor_lost), and reading goes on
   * with the next page. The rows of a lost page: a flat column's
   * num_values, a v2 page's num_rows, a nested v1 page's from the offset
   * index (page_first_row); where they cannot be known (a page header that
   * cannot be read, a nested v1 page without an offset index) the rest of
   * the chunk is lost. */
  bool skip_corrupt_pages;
  const int64_t *page_first_row; /* per data page, from the offset index; borrowed; may be NULL */
  int32_t n_page_first_row;
  int64_t expected_values; /* the chunk's num_values: pages may not hold more (checked
                            * before level buffers are sized); -1 to skip */
} pqt_column_read_options;

/* ---- the cursor ------------------------------------------------------ */

typedef struct pqt_column_cursor pqt_column_cursor;

/* Rows of a chunk left out (skip_corrupt_pages), and why. n_rows 0: the
 * chunk held data past the row group's rows, which was left out. */
typedef struct pqt_lost_rows {
  int64_t first_row; /* record index within the chunk */
  int64_t n_rows;
  int32_t page; /* page index (-1: the chunk as a whole) */
  pqt_error why;
} pqt_lost_rows;

/*
 * Start reading the chunk [offset, offset+len) of io. desc (its
 * repeated_def too) and opts are copied; io, codec_ctx and a decryptor in
 * opts are borrowed and must outlive the cursor.
 */
pqt_status pqt_column_cursor_open(pqt_column_cursor **out, const pqt_io *io, uint64_t offset, uint64_t len,
                                  int32_t codec, const pqt_column_desc *desc, pqt_codec_ctx *codec_ctx,
                                  const pqt_column_read_options *opts, const pqt_allocator *alloc, pqt_error *err);
/*
 * Append the next max_rows records (a flat column: entries) to cd; *rows
 * says how many came, fewer only where the chunk ends. A record that goes
 * on into the next page is read whole. On error, err names the page; the
 * cursor cannot be read further.
 */
pqt_status pqt_column_cursor_read(pqt_column_cursor *c, int64_t max_rows, pqt_column_data *cd, int64_t *rows,
                                  pqt_error *err);
/* After the last read: the chunk must hold nothing more, and its records
 * (read and lost) must number opts.expected_rows (when that is >= 0). */
pqt_status pqt_column_cursor_finish(pqt_column_cursor *c, pqt_error *err);
/* The rows left out so far (skip_corrupt_pages), in row order. */
const pqt_lost_rows *pqt_column_cursor_lost(const pqt_column_cursor *c, int32_t *n);
/* The codec context pages are decompressed with from now on (parallel
 * reads give each thread its own: a context is not thread-safe). */
void pqt_column_cursor_set_codec(pqt_column_cursor *c, pqt_codec_ctx *ctx);
void pqt_column_cursor_close(pqt_column_cursor *c);

/*
 * Selective reads (scan/ranged.c): the cursor reads a window of the chunk
 * at a time, the pages the offset index points at.
 *
 * _prime: read the pages of the current window up to its first data page
 * (the window opened on the dictionary page: the dictionary is decoded and
 * *data_page says whether a data page came after it).
 * _seek: go on at the run of pages [offset, offset+len) whose first data
 * page has ordinal data_ordinal (page_index counting every page) and starts
 * record first_row; the dictionary read so far stays. A nested page found
 * there must start a record (else ECORRUPT: the caller reads the chunk
 * whole instead).
 * _skip: pass over the next max_rows records (as _read would hand them
 * out) without handing them out: PLAIN fixed-width, BYTE_STREAM_SPLIT, ALP
 * and boolean values and dictionary indexes are stepped over, others are
 * decoded into scratch.
 * _pages: data pages started so far.
 */
pqt_status pqt_column_cursor_prime(pqt_column_cursor *c, bool *data_page, pqt_error *err);
pqt_status pqt_column_cursor_seek(pqt_column_cursor *c, const pqt_io *io, uint64_t offset, uint64_t len,
                                  int32_t page_index, int32_t data_ordinal, int64_t first_row, pqt_error *err);
pqt_status pqt_column_cursor_skip(pqt_column_cursor *c, int64_t max_rows, int64_t *rows, pqt_error *err);
int64_t pqt_column_cursor_pages(const pqt_column_cursor *c);
/* A flat column (max_rep 0): of the next n rows, those with keep[i] != 0
 * are appended to cd, the others stepped over (PLAIN values and dictionary
 * indexes are read once, only the kept ones copied); *rows: the rows
 * passed (fewer only where the pages end). */
pqt_status pqt_column_cursor_read_sel(pqt_column_cursor *c, int64_t n, const uint8_t *keep, pqt_column_data *cd,
                                      int64_t *rows, pqt_error *err);

/* ---- recovery: rows kept, made null or left out ----------------------- */

typedef struct pqt_row_range {
  int64_t first, n;
} pqt_row_range;

/*
 * Rebuild cd row by row, for a chunk of `rows` rows of which cd holds every
 * one outside own[] (the rows its cursor lost), in order. Rows in drop[]
 * are left out; rows in nul[], and lost rows not dropped, become one entry
 * with definition and repetition level 0 (null at the top level: the column
 * must have max_def > 0); the rest stay as they are. Ranges are sorted and
 * disjoint within each array. The result has its def levels materialised.
 */
pqt_status pqt_column_data_patch(pqt_column_data *cd, int32_t physical_type, int32_t type_length, int16_t max_def,
                                 int16_t max_rep, int64_t rows, const pqt_row_range *own, int32_t n_own,
                                 const pqt_row_range *drop, int32_t n_drop, const pqt_row_range *nul, int32_t n_null,
                                 pqt_error *err);

/*
 * Decode the whole chunk [offset, offset+len) of io into cd (initialised by
 * the caller; appended to): a cursor read to the end. codec_ctx is borrowed.
 * On error, err names the page index.
 */
pqt_status pqt_column_read_chunk(const pqt_io *io, uint64_t offset, uint64_t len, int32_t codec,
                                 const pqt_column_desc *desc, pqt_codec_ctx *codec_ctx,
                                 const pqt_column_read_options *opts, const pqt_allocator *alloc, pqt_column_data *cd,
                                 pqt_error *err);

#endif
