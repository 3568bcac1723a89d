/*
 * inspect/page_list.c: the pages of a column chunk from their headers
 * (pqt_reader_chunk_pages) and where the footer is (pqt_reader_file_layout),
 * for `parquetry pages` and `parquetry layout`. Spec: "File format" (the
 * layout), "Data Pages", "Checksumming".
 */
#include <string.h>

#include "codec/codec.h"
#include "inspect/meta_internal.h"
#include "scan/row_group.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

#include "parquetry_meta.h"

#define PAGE_HEADER_MAX (16u << 20) /* a page header is read in pieces up to this size */

PQT_API void pqt_page_info_init(pqt_page_info *p) {
  if (!p) return;
  memset(p, 0, sizeof *p);
  p->struct_size = sizeof *p;
}

PQT_API void pqt_file_layout_init(pqt_file_layout *l) {
  if (!l) return;
  memset(l, 0, sizeof *l);
  l->struct_size = sizeof *l;
}

static void fill_info(pqt_page_info *pi, const pqt_page_header *h) {
  pi->page_type = h->type;
  pi->compressed_size = h->compressed_page_size;
  pi->uncompressed_size = h->uncompressed_page_size;
  pi->encoding = pi->def_encoding = pi->rep_encoding = -1;
  pi->num_values = pi->num_nulls = pi->num_rows = pi->def_bytes = pi->rep_bytes = -1;
  pi->is_compressed = 1;
  pi->has_crc = PQT_HAS_FIELD(h, page_header, crc);
  pi->crc_ok = -1;
  if (h->type == PQT_PAGE_DATA && PQT_HAS_FIELD(h, page_header, data_page_header)) {
    const pqt_data_page_header *d = &h->data_page_header;
    pi->encoding = d->encoding;
    pi->def_encoding = d->definition_level_encoding;
    pi->rep_encoding = d->repetition_level_encoding;
    pi->num_values = d->num_values;
    pi->has_statistics = PQT_HAS_FIELD(d, data_page_header, statistics);
  } else if (h->type == PQT_PAGE_DATA_V2 && PQT_HAS_FIELD(h, page_header, data_page_header_v2)) {
    const pqt_data_page_header_v2 *d = &h->data_page_header_v2;
    pi->encoding = d->encoding;
    pi->def_encoding = pi->rep_encoding = PQT_ENCODING_RLE;
    pi->num_values = d->num_values;
    pi->num_nulls = d->num_nulls;
    pi->num_rows = d->num_rows;
    pi->def_bytes = d->definition_levels_byte_length;
    pi->rep_bytes = d->repetition_levels_byte_length;
    pi->is_compressed = !PQT_HAS_FIELD(d, data_page_header_v2, is_compressed) || d->is_compressed;
    pi->has_statistics = PQT_HAS_FIELD(d, data_page_header_v2, statistics);
  } else if (h->type == PQT_PAGE_DICTIONARY && PQT_HAS_FIELD(h, page_header, dictionary_page_header)) {
    pi->encoding = h->dictionary_page_header.encoding;
    pi->num_values = h->dictionary_page_header.num_values;
  }
}

PQT_API pqt_status pqt_reader_chunk_pages(pqt_reader *r, int32_t rg, int32_t col, int check_crc, pqt_page_fn fn,
                                          void *ctx, pqt_error *err) {
  if (!fn) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_chunk_pages: fn is NULL");
  const pqt_column_chunk *cc;
  PQT_RETURN_NOT_OK(pqt_meta_chunk(r, rg, col, &cc, err));
  const char *path = r->schema->leaves[col]->dotted_path;
  pqt_chunk ch;
  pqt_status st = pqt_chunk_open_data(r, rg, col, &ch, err); /* pages in another file (file_path) are read there */
  if (st != PQT_OK) {
    pqt_chunk_close(&ch);
    pqt_error_prefix(err, "row group %d, column %s", rg, path);
    return st;
  }
  if (ch.encrypted) {
    pqt_chunk_close(&ch);
    return pqt_error_set(err, PQT_EUNSUPPORTED,
                         "row group %d, column %s: encrypted column chunk (its page headers are "
                         "encrypted)",
                         rg, path);
  }
  uint64_t pos = ch.start, end = ch.start + ch.len;
  const pqt_io *io = pqt_chunk_io(r, &ch);
  pqt_buf hb, body;
  pqt_buf_init(&hb, r->alloc);
  pqt_buf_init(&body, r->alloc);
  for (int32_t index = 0; st == PQT_OK && pos < end; index++) {
    /* read a piece and decode the header; grow the piece while it is cut off */
    size_t want = 256;
    pqt_page_header h;
    size_t used = 0;
    for (;;) {
      size_t n = (uint64_t)want < end - pos ? want : (size_t)(end - pos);
      st = pqt_buf_reserve(&hb, n, err);
      if (st == PQT_OK) st = io->read_at(io->private_data, pos, hb.data, n, err);
      if (st != PQT_OK) break;
      pqt_error he;
      pqt_error_init(&he);
      st = pqt_thrift_decode(&pqt_desc_page_header, hb.data, n, &used, NULL, &h, &he);
      if (st == PQT_OK) break;
      if (n == end - pos || want >= PAGE_HEADER_MAX) {
        st = pqt_corrupt(err, "row group %d, column %s, page %d at offset %llu: bad page header: %s", rg, path, index,
                         (unsigned long long)pos, he.message);
        break;
      }
      want *= 4;
    }
    if (st != PQT_OK) break;
    if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0 ||
        (uint64_t)h.compressed_page_size > end - pos - used) {
      st = pqt_corrupt(err, "row group %d, column %s, page %d at offset %llu: %d bytes run past the column chunk", rg,
                       path, index, (unsigned long long)pos, h.compressed_page_size);
      break;
    }
    pqt_page_info pi;
    pqt_page_info_init(&pi);
    pi.index = index;
    pi.offset = (int64_t)pos;
    pi.header_size = (int32_t)used;
    fill_info(&pi, &h);
    if (check_crc && pi.has_crc) {
      st = pqt_buf_reserve(&body, (size_t)h.compressed_page_size, err);
      if (st == PQT_OK && h.compressed_page_size > 0)
        st = io->read_at(io->private_data, pos + used, body.data, (size_t)h.compressed_page_size, err);
      if (st != PQT_OK) break;
      uint32_t crc = pqt_crc32(0, body.data, (size_t)h.compressed_page_size);
      pi.crc_ok = crc == (uint32_t)h.crc;
    }
    st = fn(ctx, &pi);
    pos += used + (uint64_t)h.compressed_page_size;
  }
  pqt_buf_free(&hb);
  pqt_buf_free(&body);
  pqt_chunk_close(&ch);
  return st;
}

PQT_API pqt_status pqt_reader_file_layout(const pqt_reader *r, pqt_file_layout *out, pqt_error *err) {
  if (!r || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_file_layout: bad arguments");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(out->struct_size, sizeof(pqt_file_layout), "pqt_file_layout", err));
  pqt_file_layout l;
  memset(&l, 0, sizeof l);
  l.file_size = (int64_t)r->io.size;
  l.footer_length = (int64_t)r->footer_len;
  l.footer_offset = l.file_size - 8 - l.footer_length;
  uint8_t tail[4];
  if (r->io.size >= 4) {
    PQT_RETURN_NOT_OK(r->io.read_at(r->io.private_data, r->io.size - 4, tail, 4, err));
    l.encrypted_footer = memcmp(tail, "PARE", 4) == 0;
  }
  {
    size_t caller = out->struct_size;
    l.struct_size = caller;
    memcpy(out, &l, caller < sizeof l ? caller : sizeof l);
  }
  return PQT_OK;
}
