/*
 * repair/salvage.c: pqt_salvage, rows from a file whose footer is lost or
 * unreadable (a writer killed mid-file), written anew through a pqt_writer
 * that carries the schema. Spec: parquet-format README.md "File format" (pages follow each
 * other, chunk after chunk, row group after row group) and "Error recovery".
 *
 * 1. Scan: page headers one after another from the first byte after the
 *    magic, until a header does not decode, is implausible or its page runs
 *    past the end of the file (the cut).
 * 2. Codec: the column's codec in the `like` file, else the one that turns
 *    the first compressed page into exactly its uncompressed size.
 * 3. Partition: the pages are split into row groups of one chunk per leaf
 *    column, in schema order. A page is tried against a column by decoding
 *    it (levels, and the value section's size for the encoding and type:
 *    an INT64 page does not pass as INT32, an optional column's page not as
 *    a required one's), a dictionary page can only open a chunk, and every
 *    chunk of a row group must hold the same number of records. Of several
 *    complete readings the one with the previous row group's row count wins,
 *    then the longest. Columns that look alike (same type, encoding and
 *    nullability, no dictionary) can make the reading ambiguous; the search
 *    is bounded (max_page_checks) so it always ends.
 * 4. Write: each accepted row group is decoded chunk by chunk with the
 *    reader's own decoder and handed to the writer. Of a trailing row group
 *    that was being written when the file was cut, the rows every column
 *    holds are kept when the cut fell inside its last column (the only case
 *    in which all columns have them).
 */
#include <stdarg.h>
#include <stdio.h>

#include "column/column_reader.h"
#include "encoding/rle.h"
#include "file/options.h"
#include "file/reader_internal.h"
#include "file/writer_internal.h"
#include "page/page_reader.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

typedef struct spage {
  uint64_t off, end; /* header start, end of the page body */
  int32_t type;      /* PQT_PAGE_DATA, PQT_PAGE_DATA_V2, PQT_PAGE_DICTIONARY */
  int32_t num_values;
  int32_t hlen;
} spage;

typedef struct scol {
  const pqt_schema_node *leaf;
  pqt_column_desc desc;
  int16_t repeated_def[PQT_SCHEMA_MAX_DEPTH + 1];
  int32_t codec;
  size_t width; /* fixed-width values: bytes per value; 0 otherwise */
} scol;

typedef struct salv {
  const pqt_allocator *alloc;
  const pqt_salvage_options *opts;
  pqt_salvage_report *rep;
  pqt_io mem_io; /* over `data` */
  const uint8_t *data;
  uint64_t size;
  spage *pages;
  int64_t n_pages;
  pqt_buf page_buf;
  scol *cols;
  int32_t n_cols;
  pqt_codec_ctx *codec;
  int64_t budget;
  bool out_of_budget;
  int16_t lv[4096];
} salv;

typedef struct chunk_span {
  int64_t first, end; /* pages [first, end) */
} chunk_span;

static void say(salv *s, const char *fmt, ...) PQT_PRINTF(2, 3);
static void say(salv *s, const char *fmt, ...) {
  if (!s->opts->log) return;
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line - 1, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n > sizeof line - 2) n = (int)sizeof line - 2;
  line[n++] = '\n';
  (void)s->opts->log(s->opts->log_ctx, line, (size_t)n);
}

void pqt_salvage_options_defaults(pqt_salvage_options *o) {
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
}

/* ---- 1. scan ------------------------------------------------------------------ */

static pqt_status scan_pages(salv *s, pqt_error *err) {
  uint64_t pos = 4;
  char why[800];
  snprintf(why, sizeof why, "end of file");
  while (pos < s->size) {
    pqt_page_header h;
    size_t hlen = 0;
    pqt_error e;
    pqt_error_init(&e);
    if (pqt_thrift_decode(&pqt_desc_page_header, s->data + pos, (size_t)(s->size - pos), &hlen, NULL, &h, &e) !=
        PQT_OK) {
      snprintf(why, sizeof why, "no page header at offset %llu (%s)", (unsigned long long)pos, e.message);
      break;
    }
    const char *bad = NULL;
    int32_t nv = -1;
    if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0) bad = "negative page size";
    else if (h.type == PQT_PAGE_DATA) {
      if (!PQT_HAS_FIELD(&h, page_header, data_page_header)) bad = "data page without its header";
      else nv = h.data_page_header.num_values;
    } else if (h.type == PQT_PAGE_DICTIONARY) {
      if (!PQT_HAS_FIELD(&h, page_header, dictionary_page_header)) bad = "dictionary page without its header";
      else nv = h.dictionary_page_header.num_values;
    } else if (h.type == PQT_PAGE_DATA_V2) {
      const pqt_data_page_header_v2 *v = &h.data_page_header_v2;
      if (!PQT_HAS_FIELD(&h, page_header, data_page_header_v2)) bad = "data page v2 without its header";
      else if (v->num_rows < 0 || v->num_nulls < 0 || v->num_rows > v->num_values || v->num_nulls > v->num_values)
        bad = "implausible v2 counts";
      else if (v->definition_levels_byte_length < 0 || v->repetition_levels_byte_length < 0 ||
               (int64_t)v->definition_levels_byte_length + v->repetition_levels_byte_length >
                   (int64_t)h.compressed_page_size)
        bad = "implausible v2 level lengths";
      else nv = v->num_values;
    } else if (h.type != PQT_PAGE_INDEX) {
      bad = "unknown page type";
    }
    if (!bad && h.type != PQT_PAGE_INDEX && nv < 0) bad = "negative value count";
    if (bad) {
      snprintf(why, sizeof why, "offset %llu: not a page (%s)", (unsigned long long)pos, bad);
      break;
    }
    uint64_t end = pos + hlen + (uint64_t)h.compressed_page_size;
    if (end > s->size) {
      snprintf(why, sizeof why, "the page at offset %llu is cut short: it needs %llu bytes, the file ends at %llu",
               (unsigned long long)pos, (unsigned long long)(end - pos), (unsigned long long)s->size);
      break;
    }
    if (h.type != PQT_PAGE_INDEX) {
      spage p = {pos, end, h.type, nv, (int32_t)hlen};
      PQT_RETURN_NOT_OK(pqt_buf_append(&s->page_buf, &p, sizeof p, err));
    }
    pos = end;
  }
  s->pages = (spage *)(void *)s->page_buf.data;
  s->n_pages = (int64_t)(s->page_buf.len / sizeof(spage));
  s->rep->pages_found = s->n_pages;
  s->rep->scan_end = pos;
  say(s, "scan: %lld pages in bytes 4..%llu; stopped: %s", (long long)s->n_pages, (unsigned long long)pos, why);
  return PQT_OK;
}

/* ---- 2. codec ----------------------------------------------------------------- */

/* The codec that decompresses page p to exactly its uncompressed size; -1
 * when p says nothing (a v2 page stored uncompressed) or nothing fits. */
static int32_t detect_codec(salv *s, const spage *p) {
  pqt_page_header h;
  size_t hlen = 0;
  if (pqt_thrift_decode(&pqt_desc_page_header, s->data + p->off, (size_t)(p->end - p->off), &hlen, NULL, &h, NULL) !=
      PQT_OK)
    return -1;
  const uint8_t *src = s->data + p->off + hlen;
  size_t n = (size_t)h.compressed_page_size, un = (size_t)h.uncompressed_page_size;
  if (h.type == PQT_PAGE_DATA_V2) {
    const pqt_data_page_header_v2 *v = &h.data_page_header_v2;
    if (PQT_HAS_FIELD(v, data_page_header_v2, is_compressed) && !v->is_compressed) return -1;
    size_t lv = (size_t)v->definition_levels_byte_length + (size_t)v->repetition_levels_byte_length;
    if (lv > n || lv > un) return -1;
    src += lv;
    n -= lv;
    un -= lv;
  }
  if (un > n * (size_t)64 + ((size_t)1 << 20)) return -1;
  static const int32_t order[] = {PQT_CODEC_ZSTD, PQT_CODEC_GZIP,   PQT_CODEC_SNAPPY, PQT_CODEC_LZ4_RAW,
                                  PQT_CODEC_LZ4,  PQT_CODEC_BROTLI, PQT_CODEC_LZO};
  pqt_buf out;
  pqt_buf_init(&out, s->alloc);
  int32_t found = -1;
  if (n == un) found = PQT_CODEC_UNCOMPRESSED;
  else if (pqt_buf_reserve(&out, un + 1, NULL) == PQT_OK) {
    for (size_t i = 0; i < sizeof order / sizeof order[0] && found < 0; i++) {
      if (!pqt_codec_is_available(order[i])) continue;
      if (pqt_codec_decompress(s->codec, order[i], src, n, out.data, un, NULL) == PQT_OK) found = order[i];
    }
  }
  pqt_buf_free(&out);
  return found;
}

/* ---- 3. partition --------------------------------------------------------------- */

/* Walk n byte-array values (4-byte length + bytes) that must fill exactly len bytes. */
static bool plain_byte_arrays_fill(const uint8_t *p, size_t len, int64_t n) {
  size_t pos = 0;
  for (int64_t i = 0; i < n; i++) {
    if (len - pos < 4) return false;
    uint32_t l = pqt_load_u32le(p + pos);
    pos += 4;
    if (l > len - pos) return false;
    pos += l;
  }
  return pos == len;
}

/* Count the levels equal to `level` among n RLE levels; the first one in *first. */
static bool count_levels(salv *s, const uint8_t *in, size_t len, int16_t max_level, int64_t n, int16_t level,
                         int64_t *count, int16_t *first) {
  pqt_rle_decoder d;
  if (pqt_rle_decoder_init(&d, in, len, pqt_bit_width_u32((uint32_t)max_level), NULL) != PQT_OK) return false;
  int64_t c = 0;
  *first = 0;
  for (int64_t done = 0; done < n;) {
    size_t k = (size_t)(n - done < 4096 ? n - done : 4096);
    if (pqt_rle_get_levels(&d, s->lv, k, max_level, NULL) != PQT_OK) return false;
    if (done == 0) *first = s->lv[0];
    for (size_t i = 0; i < k; i++) c += s->lv[i] == level;
    done += (int64_t)k;
  }
  *count = c;
  return true;
}

/* A page's value count against its size: at most 8 per byte (and per byte
 * of a small page's 64-byte allowance), or up to 4 Mi values however small
 * the page (a long run of nulls). What the search decodes stays bounded. */
#define SALVAGE_MAX_SMALL_PAGE_VALUES ((int64_t)1 << 22)
static bool count_plausible(int64_t num_values, int64_t page_bytes) {
  return num_values >= 0 && (num_values <= SALVAGE_MAX_SMALL_PAGE_VALUES || num_values <= 8 * (page_bytes + 64));
}

/* Can page p belong to column c? Decodes its header, levels and the size of
 * its value section. *rows: records that start in the page; *first_rep: the
 * repetition level of its first entry (0 for flat columns). */
static bool page_fits(salv *s, const scol *c, const spage *p, int64_t *rows, int16_t *first_rep) {
  *rows = 0;
  *first_rep = 0;
  if (--s->budget < 0) {
    s->out_of_budget = true;
    return false;
  }
  pqt_page_reader_options po;
  pqt_page_reader_options_init(&po);
  po.verify_crc = true;
  po.max_def = c->leaf->max_def;
  po.max_rep = c->leaf->max_rep;
  pqt_page_reader pr;
  if (pqt_page_reader_init(&pr, &s->mem_io, p->off, p->end - p->off, c->codec, s->codec, &po, s->alloc, NULL) != PQT_OK)
    return false;
  pqt_page pg;
  bool eof = true, ok = false;
  int32_t t = c->leaf->physical_type;
  if (pqt_page_reader_next(&pr, &pg, &eof, NULL) != PQT_OK || eof) goto out;
  if (!count_plausible(pg.num_values, pg.header->uncompressed_page_size)) goto out;
  if (pg.type == PQT_PAGE_DICTIONARY) {
    if (t == PQT_BOOLEAN) goto out;
    if (pg.encoding != PQT_ENC_PLAIN && pg.encoding != PQT_ENC_PLAIN_DICTIONARY) goto out;
    if (t == PQT_BYTE_ARRAY) ok = plain_byte_arrays_fill(pg.values, pg.values_len, pg.num_values);
    else ok = pg.values_len == (size_t)pg.num_values * c->width;
    goto out;
  }
  int64_t n = pg.num_values, nonnull = n;
  if (c->leaf->max_rep > 0) {
    if (pg.rep_encoding != PQT_ENC_RLE) goto out;
    if (!count_levels(s, pg.rep, pg.rep_len, c->leaf->max_rep, n, 0, rows, first_rep)) goto out;
    if (pg.num_rows >= 0 && pg.num_rows != *rows) goto out;
  } else {
    *rows = pg.num_rows >= 0 ? pg.num_rows : n;
    if (*rows != n) goto out;
  }
  bool sized = true;
  if (c->leaf->max_def > 0) {
    int16_t f;
    if (pg.def_encoding != PQT_ENC_RLE) sized = false; /* legacy BIT_PACKED: no size check */
    else if (!count_levels(s, pg.def, pg.def_len, c->leaf->max_def, n, c->leaf->max_def, &nonnull, &f)) goto out;
  }
  if (sized && pg.num_nulls >= 0 && pg.num_nulls != n - nonnull) goto out;
  size_t vl = pg.values_len;
  switch (pg.encoding) {
    case PQT_ENC_PLAIN:
      if (!sized) ok = true;
      else if (t == PQT_BOOLEAN) ok = vl == (size_t)(nonnull + 7) / 8;
      else if (t == PQT_BYTE_ARRAY) ok = plain_byte_arrays_fill(pg.values, vl, nonnull);
      else ok = vl == (size_t)nonnull * c->width;
      break;
    case PQT_ENC_RLE_DICTIONARY:
    case PQT_ENC_PLAIN_DICTIONARY: ok = t != PQT_BOOLEAN && (vl == 0 ? nonnull == 0 : pg.values[0] <= 32); break;
    case PQT_ENC_RLE: ok = t == PQT_BOOLEAN && vl >= 4; break;
    case PQT_ENC_DELTA_BINARY_PACKED: ok = t == PQT_INT32 || t == PQT_INT64; break;
    case PQT_ENC_DELTA_LENGTH_BYTE_ARRAY:
    case PQT_ENC_DELTA_BYTE_ARRAY: ok = t == PQT_BYTE_ARRAY || t == PQT_FIXED_LEN_BYTE_ARRAY; break;
    case PQT_ENC_BYTE_STREAM_SPLIT: ok = c->width > 0 && (!sized || vl == (size_t)nonnull * c->width); break;
    default: ok = false;
  }
out:
  pqt_page_reader_free(&pr);
  return ok;
}

/* Grow column c's chunk from page `first` until it holds `want` records
 * (the next page then starts a record or a chunk). Returns the end page;
 * *rows the records found. Stops early at a page that does not fit or at
 * a dictionary page; *overshoot when a page took it past `want`. */
static int64_t grow_chunk(salv *s, const scol *c, int64_t first, int64_t want, int64_t *rows, bool *overshoot) {
  int64_t j = first, got = 0;
  bool has_data = false;
  *overshoot = false;
  for (; j < s->n_pages; j++) {
    const spage *p = &s->pages[j];
    if (p->type == PQT_PAGE_DICTIONARY && j != first) break;
    int64_t r;
    int16_t fr;
    if (!page_fits(s, c, p, &r, &fr)) break;
    if (p->type != PQT_PAGE_DICTIONARY) {
      if (!has_data && fr != 0) break; /* a chunk starts a record */
      if (has_data && got >= want && fr == 0) break;
      has_data = true;
    }
    got += r;
    if (got > want) {
      *overshoot = true;
      break;
    }
  }
  *rows = got;
  return has_data ? j : first;
}

enum { FIT_NONE = 0, FIT_COMPLETE, FIT_PARTIAL };

/* With column 0 taking pages [first, end0) holding r0 records, place the
 * other columns. FIT_COMPLETE: every column holds r0; FIT_PARTIAL: the pages
 * ran out inside the last column, which holds *keep complete records. */
static int try_fit(salv *s, int64_t first, int64_t end0, int64_t r0, chunk_span *spans, int64_t *keep) {
  spans[0] = (chunk_span){first, end0};
  int64_t pos = end0;
  for (int32_t c = 1; c < s->n_cols; c++) {
    int64_t rows;
    bool over;
    int64_t e = grow_chunk(s, &s->cols[c], pos, r0, &rows, &over);
    if (over || e == pos) return FIT_NONE;
    spans[c] = (chunk_span){pos, e};
    pos = e;
    if (rows != r0) {
      if (c != s->n_cols - 1 || e != s->n_pages) return FIT_NONE;
      /* cut inside the last column: its last record may have lost its tail */
      *keep = s->cols[c].leaf->max_rep > 0 ? rows - 1 : rows;
      return *keep > 0 ? FIT_PARTIAL : FIT_NONE;
    }
  }
  *keep = r0;
  return FIT_COMPLETE;
}

/* Decode pages [first, end) of column c as one chunk. */
static pqt_status decode_span(salv *s, const scol *c, chunk_span sp, int64_t expected_rows, pqt_column_data *cd,
                              pqt_error *err) {
  pqt_column_read_options o;
  memset(&o, 0, sizeof o);
  pqt_page_reader_options_init(&o.page);
  o.page.verify_crc = true;
  o.expected_rows = expected_rows;
  /* the pages' own counts (each checked by page_fits) bound the entries */
  int64_t entries = 0;
  for (int64_t i = sp.first; i < sp.end; i++)
    if (s->pages[i].type != PQT_PAGE_DICTIONARY) entries += s->pages[i].num_values;
  if (entries > INT32_MAX) return pqt_error_set(err, PQT_ELIMIT, "more than 2^31 values in one chunk");
  o.max_values = (uint64_t)entries;
  o.expected_values = entries;
  uint64_t off = s->pages[sp.first].off, end = s->pages[sp.end - 1].end;
  return pqt_column_read_chunk(&s->mem_io, off, end - off, c->codec, &c->desc, s->codec, &o, s->alloc, cd, err);
}

/* Every chunk of the reading decodes with the reader's own decoder: each
 * holds r0 records, except the last column of a partial reading, which must
 * hold at least `keep`. */
static bool spans_decode(salv *s, const chunk_span *spans, int64_t r0, int64_t keep, bool partial) {
  for (int32_t c = 0; c < s->n_cols; c++) {
    bool cut = partial && c == s->n_cols - 1;
    pqt_column_data cd;
    pqt_column_data_init(&cd, s->alloc);
    pqt_status st = decode_span(s, &s->cols[c], spans[c], cut ? -1 : r0, &cd, NULL);
    bool ok = st == PQT_OK && (cut ? cd.n_rows >= keep : cd.n_rows == r0);
    pqt_column_data_free(&cd);
    if (!ok) return false;
  }
  return true;
}

/* ---- 4. write ------------------------------------------------------------------- */

static pqt_status write_records(salv *s, pqt_writer *w, int32_t ci, const pqt_column_data *cd, int64_t keep,
                                pqt_error *err) {
  const scol *c = &s->cols[ci];
  const int16_t *rep = c->leaf->max_rep > 0 ? (const int16_t *)(const void *)cd->rep.data : NULL;
  int64_t n = keep;
  if (rep) {
    int64_t recs = 0;
    for (n = 0; n < cd->n_levels; n++)
      if (rep[n] == 0 && recs++ == keep) break;
  }
  if (n > cd->n_levels) return pqt_corrupt(err, "column %s: fewer entries than records", c->leaf->dotted_path);
  pqt_buf defs, bools;
  pqt_buf_init(&defs, s->alloc);
  pqt_buf_init(&bools, s->alloc);
  pqt_status st = PQT_OK;
  const int16_t *def = NULL;
  int64_t nv = n;
  if (c->leaf->max_def > 0) {
    if (cd->def.len) {
      def = (const int16_t *)(const void *)cd->def.data;
    } else {
      st = pqt_buf_reserve(&defs, (size_t)n * 2 + 2, err);
      if (st != PQT_OK) goto out;
      int16_t *d = (int16_t *)(void *)defs.data;
      for (int64_t i = 0; i < n; i++) d[i] = c->leaf->max_def;
      def = d;
    }
    nv = 0;
    for (int64_t i = 0; i < n; i++) nv += def[i] == c->leaf->max_def;
  }
  const void *values;
  const int32_t *offsets = NULL;
  if (c->leaf->physical_type == PQT_BYTE_ARRAY) {
    values = cd->values.data;
    offsets = (const int32_t *)(const void *)cd->offsets.data;
  } else if (c->leaf->physical_type == PQT_BOOLEAN) {
    st = pqt_buf_reserve(&bools, (size_t)nv + 1, err);
    if (st != PQT_OK) goto out;
    for (int64_t i = 0; i < nv; i++) bools.data[i] = (cd->values.data[i >> 3] >> (i & 7)) & 1;
    values = bools.data;
  } else {
    values = pqt_column_values(cd);
  }
  st = pqt_writer_write_column(w, ci, n, def, rep, values, offsets, nv, err);
out:
  pqt_buf_free(&defs);
  pqt_buf_free(&bools);
  return st;
}

static pqt_status write_row_group(salv *s, pqt_writer *w, const chunk_span *spans, int64_t keep, bool partial,
                                  pqt_error *err) {
  for (int32_t c = 0; c < s->n_cols; c++) {
    pqt_column_data cd;
    pqt_column_data_init(&cd, s->alloc);
    pqt_status st = decode_span(s, &s->cols[c], spans[c], -1, &cd, err);
    if (st == PQT_OK) st = write_records(s, w, c, &cd, keep, err);
    pqt_column_data_free(&cd);
    if (st != PQT_OK) {
      pqt_error_prefix(err, "column %s", s->cols[c].leaf->dotted_path);
      return st;
    }
  }
  PQT_RETURN_NOT_OK(pqt_writer_flush_row_group(w, err));
  s->rep->rows += keep;
  if (partial) s->rep->partial_rows += keep;
  else s->rep->row_groups++;
  return PQT_OK;
}

/* ---- driver ------------------------------------------------------------------- */

static pqt_status setup_columns(salv *s, pqt_writer *w, pqt_error *err) {
  const pqt_schema *schema = pqt_writer_schema(w);
  s->n_cols = schema->n_leaves;
  if (s->n_cols <= 0) return pqt_error_set(err, PQT_EINVAL, "salvage: the schema has no columns");
  s->cols = pqt_mem_calloc(s->alloc, sizeof(scol) * (size_t)s->n_cols);
  if (!s->cols) return pqt_nomem(err);
  const pqt_reader *like = s->opts->like;
  bool like_codecs = like && like->md.row_groups.n > 0 && like->md.row_groups.items[0].columns.n == s->n_cols;
  int32_t file_codec = -2;
  for (int32_t i = 0; i < s->n_cols; i++) {
    scol *c = &s->cols[i];
    const pqt_schema_node *ln = schema->leaves[i];
    c->leaf = ln;
    int k = ln->max_rep;
    for (const pqt_schema_node *x = ln; x && x->parent; x = x->parent)
      if (x->repetition == PQT_REPEATED && k > 0) c->repeated_def[--k] = x->max_def;
    /* text is checked as the reader checks it: a salvaged file must read */
    int lt = pqt_union_which(ln->logical.isset);
    bool is_text = pqt_is_text_type(lt, ln->converted_type);
    c->desc = (pqt_column_desc){ln->physical_type, ln->type_length, ln->max_def, ln->max_rep,
                                c->repeated_def,   ln->dotted_path, is_text};
    c->width = ln->physical_type == PQT_BOOLEAN || ln->physical_type == PQT_BYTE_ARRAY
                   ? 0
                   : pqt_physical_width(ln->physical_type, ln->type_length);
    c->codec = -1;
    if (like_codecs) {
      const pqt_column_chunk *cc = &like->md.row_groups.items[0].columns.items[i];
      if (PQT_HAS_FIELD(cc, column_chunk, meta_data)) c->codec = cc->meta_data.codec;
    }
    if (c->codec < 0) {
      if (file_codec == -2) {
        file_codec = -1;
        for (int64_t p = 0; p < s->n_pages && file_codec < 0; p++) file_codec = detect_codec(s, &s->pages[p]);
        if (file_codec < 0) file_codec = PQT_CODEC_UNCOMPRESSED;
        say(s, "codec: %s (from the pages)", pqt_codec_name(file_codec));
      }
      c->codec = file_codec;
    }
  }
  return PQT_OK;
}

static pqt_status partition_and_write(salv *s, pqt_writer *w, pqt_error *err) {
  chunk_span *spans = pqt_mem_calloc(s->alloc, sizeof(chunk_span) * (size_t)s->n_cols * 2);
  if (!spans) return pqt_nomem(err);
  chunk_span *best = spans + s->n_cols;
  pqt_status st = PQT_OK;
  int64_t pos = 0, prev_rows = -1;
  int32_t g = 0;
  while (pos < s->n_pages && st == PQT_OK) {
    /* the candidate ends of column 0's chunk, and the records before each */
    const scol *c0 = &s->cols[0];
    int64_t best_end = -1, best_rows = -1, best_keep = 0;
    int best_kind = FIT_NONE;
    int64_t rows = 0;
    bool has_data = false;
    for (int64_t j = pos; j < s->n_pages; j++) {
      const spage *p = &s->pages[j];
      if (p->type == PQT_PAGE_DICTIONARY && j != pos) break;
      int64_t r;
      int16_t fr;
      if (!page_fits(s, c0, p, &r, &fr)) break;
      if (p->type != PQT_PAGE_DICTIONARY && !has_data && fr != 0) break;
      if (p->type != PQT_PAGE_DICTIONARY) has_data = true;
      rows += r;
      if (!has_data || rows == 0) continue;
      /* column 0 ends after page j when the next page starts a record */
      if (j + 1 < s->n_pages && s->pages[j + 1].type != PQT_PAGE_DICTIONARY && c0->leaf->max_rep > 0) {
        int64_t r2;
        int16_t fr2;
        if (page_fits(s, c0, &s->pages[j + 1], &r2, &fr2) && fr2 != 0) continue;
      }
      int64_t keep = 0;
      int kind = s->n_cols == 1 ? FIT_COMPLETE : try_fit(s, pos, j + 1, rows, spans, &keep);
      if (s->n_cols == 1) {
        spans[0] = (chunk_span){pos, j + 1};
        keep = rows;
      }
      if (kind == FIT_NONE) continue;
      bool better;
      if (best_kind == FIT_NONE) better = true;
      else if (kind != best_kind) better = kind == FIT_COMPLETE;
      else if (kind == FIT_COMPLETE && (best_rows == prev_rows) != (rows == prev_rows)) better = rows == prev_rows;
      else better = rows > best_rows;
      if (better && !spans_decode(s, spans, rows, keep, kind == FIT_PARTIAL)) better = false;
      if (better) {
        best_kind = kind;
        best_end = j + 1;
        best_rows = rows;
        best_keep = keep;
        memcpy(best, spans, sizeof(chunk_span) * (size_t)s->n_cols);
      }
    }
    if (best_kind == FIT_NONE) {
      say(s, "pages %lld..%lld (from offset %llu) do not form a row group of this schema%s: not recovered",
          (long long)pos, (long long)s->n_pages - 1, (unsigned long long)s->pages[pos].off,
          s->out_of_budget ? " within the search budget" : "");
      break;
    }
    (void)best_end;
    int64_t end = best[s->n_cols - 1].end;
    bool partial = best_kind == FIT_PARTIAL;
    if (partial)
      say(s, "row group %d: cut short in column %s; %lld of its %lld rows are complete and kept (pages %lld..%lld)", g,
          s->cols[s->n_cols - 1].leaf->dotted_path, (long long)best_keep, (long long)best_rows, (long long)pos,
          (long long)end - 1);
    else
      say(s, "row group %d: %lld rows (pages %lld..%lld, bytes %llu..%llu)", g, (long long)best_rows, (long long)pos,
          (long long)end - 1, (unsigned long long)s->pages[pos].off, (unsigned long long)s->pages[end - 1].end);
    st = write_row_group(s, w, best, best_keep, partial, err);
    if (st != PQT_OK) break;
    s->rep->pages_used += end - pos;
    prev_rows = best_rows;
    pos = end;
    g++;
    if (partial) break;
  }
  pqt_mem_free(s->alloc, spans, sizeof(chunk_span) * (size_t)s->n_cols * 2);
  return st;
}

PQT_API pqt_status pqt_salvage(pqt_io *damaged, pqt_writer *w, const pqt_salvage_options *opts,
                               pqt_salvage_report *report, pqt_error *err) {
  if (!damaged || !w) return pqt_error_set(err, PQT_EINVAL, "pqt_salvage: bad arguments");
  pqt_salvage_options given;
  pqt_io src;
  PQT_RETURN_NOT_OK(pqt_salvage_options_load(&given, opts, err));
  PQT_RETURN_NOT_OK(pqt_io_load(&src, damaged, err));
  if (report)
    PQT_RETURN_NOT_OK(pqt_struct_size_check(pqt_struct_size_of(report), sizeof *report, "pqt_salvage_report", err));
  damaged = &src;
  pqt_salvage_report full;
  salv s;
  memset(&s, 0, sizeof s);
  pqt_io_init(&s.mem_io);
  s.opts = &given;
  s.rep = &full;
  memset(s.rep, 0, sizeof *s.rep);
  if (report) (void)pqt_struct_copy_out(report, &full, sizeof full, "pqt_salvage_report", NULL); /* cleared */
  s.alloc = pqt_writer_allocator(w);
  s.size = damaged->size;
  pqt_buf_init(&s.page_buf, s.alloc);
  uint8_t *copy = NULL;
  pqt_status st = PQT_OK;
  if (s.size < 4) return pqt_corrupt(err, "not a Parquet file: %llu bytes", (unsigned long long)s.size);
  if (s.size > (uint64_t)SIZE_MAX / 2) return pqt_error_set(err, PQT_ELIMIT, "file too large to salvage here");
  pqt_error io_err; /* the caller's source fills in an error of ours */
  pqt_error_init(&io_err);
  if (damaged->borrow_at) {
    st = damaged->borrow_at(damaged->private_data, 0, (size_t)s.size, &s.data, &io_err);
  } else {
    copy = pqt_mem_alloc(s.alloc, (size_t)s.size);
    if (!copy) return pqt_nomem(err);
    st = damaged->read_at(damaged->private_data, 0, copy, (size_t)s.size, &io_err);
    s.data = copy;
  }
  if (st != PQT_OK) st = pqt_error_from_callback(err, st, &io_err, "read");
  if (st == PQT_OK && memcmp(s.data, "PAR1", 4) != 0)
    st = memcmp(s.data, "PARE", 4) == 0
             ? pqt_error_set(err, PQT_EUNSUPPORTED, "salvage: an encrypted file (PARE) cannot be salvaged")
             : pqt_corrupt(err, "not a Parquet file: no PAR1 magic at the start");
  if (st == PQT_OK) st = pqt_io_from_buffer(&s.mem_io, s.data, (size_t)s.size, s.alloc, err);
  if (st == PQT_OK) st = pqt_codec_ctx_create(&s.codec, s.alloc, err);
  if (st == PQT_OK) st = scan_pages(&s, err);
  if (st == PQT_OK) {
    s.budget = s.opts->max_page_checks > 0 ? s.opts->max_page_checks : 64 * s.n_pages + 100000;
    st = setup_columns(&s, w, err);
  }
  if (st == PQT_OK) st = partition_and_write(&s, w, err);
  if (s.mem_io.release) s.mem_io.release(s.mem_io.private_data);
  pqt_codec_ctx_destroy(s.codec);
  pqt_buf_free(&s.page_buf);
  if (s.cols) pqt_mem_free(s.alloc, s.cols, sizeof(scol) * (size_t)s.n_cols);
  if (copy) pqt_mem_free(s.alloc, copy, (size_t)s.size);
  if (st == PQT_OK) s.rep->pages_unused = s.rep->pages_found - s.rep->pages_used;
  if (report)
    (void)pqt_struct_copy_out(report, &full, sizeof full, "pqt_salvage_report", NULL); /* size checked above */
  return st;
}
