/*
 * scan/chunk.c: opening one column chunk (see row_group.h, pqt_chunk):
 * locate it (spec "Column chunks"; interop: dictionary_page_offset of 0
 * means absent, and the chunk starts at the smaller valid offset), pick the
 * decryptor of an encrypted column (spec "Parquet Modular Encryption":
 * ColumnChunk.crypto_metadata, module AADs with the row group and column
 * ordinals), and read the modules that belong to the chunk outside its
 * pages: the offset index, the column index and the Bloom filter, each
 * decrypted when the chunk is encrypted.
 */
#include <stdio.h>
#include <string.h>

#include "crypto/crypto.h"
#include "scan/row_group.h"
#include "meta/bloom.h"
#include "page/page_reader.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

pqt_status pqt_chunk_range(const pqt_reader *r, const pqt_column_metadata *cm, uint64_t *start, uint64_t *len,
                           pqt_error *err) {
  /* The chunk starts at the smaller valid offset: some writers store a
   * dictionary_page_offset of 0 for "none", others a data_page_offset of 0
   * with the real start in dictionary_page_offset. The page headers decide
   * what is where. */
  int64_t s = cm->data_page_offset >= 4 ? cm->data_page_offset : -1;
  if (PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset) && cm->dictionary_page_offset >= 4 &&
      (s < 0 || cm->dictionary_page_offset < s))
    s = cm->dictionary_page_offset;
  PQT_CHECK_CORRUPT(s >= 4, err, "column chunk has no valid offset (data_page_offset %lld)",
                    (long long)cm->data_page_offset);
  PQT_CHECK_CORRUPT(cm->total_compressed_size >= 0, err, "negative total_compressed_size");
  uint64_t end = (uint64_t)s + (uint64_t)cm->total_compressed_size;
  PQT_CHECK_CORRUPT(end <= r->io.size, err, "column chunk [%lld, +%lld) runs past the end of the file (%llu bytes)",
                    (long long)s, (long long)cm->total_compressed_size, (unsigned long long)r->io.size);
  *start = (uint64_t)s;
  *len = (uint64_t)cm->total_compressed_size;
  return PQT_OK;
}

/* Open the file a chunk's file_path names (pqt_reader_open_external:
 * relative to the footer's file or URL) and check the chunk lies in it. */
static pqt_status open_external(const pqt_reader *r, const pqt_bytes *fp, pqt_chunk *ch, pqt_error *err) {
  char shown[1024];
  PQT_RETURN_NOT_OK(pqt_reader_open_external(r, fp, &ch->ext, shown, sizeof shown, err));
  ch->external = true;
  char fbuf[1024];
  const char *foot = pqt_reader_shown_name(r, fbuf, sizeof fbuf);
  const pqt_column_metadata *cm = ch->cm;
  int64_t s = cm->data_page_offset >= 4 ? cm->data_page_offset : -1;
  if (PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset) && cm->dictionary_page_offset >= 4 &&
      (s < 0 || cm->dictionary_page_offset < s))
    s = cm->dictionary_page_offset;
  if (s < 4 || cm->total_compressed_size < 0)
    return pqt_corrupt(err, "column chunk has no valid offset (data_page_offset %lld)",
                       (long long)cm->data_page_offset);
  if ((uint64_t)s + (uint64_t)cm->total_compressed_size > ch->ext.size)
    return pqt_error_set(err, PQT_ECORRUPT,
                         "%s: column data [%lld, +%lld) runs past the end of %s (%llu bytes): short external file",
                         foot, (long long)s, (long long)cm->total_compressed_size, shown,
                         (unsigned long long)ch->ext.size);
  ch->start = (uint64_t)s;
  ch->len = (uint64_t)cm->total_compressed_size;
  return PQT_OK;
}

static pqt_status chunk_open(const pqt_reader *r, int32_t g, int32_t leaf, pqt_chunk *ch, bool external_ok,
                             pqt_error *err);

pqt_status pqt_chunk_open(const pqt_reader *r, int32_t g, int32_t leaf, pqt_chunk *ch, pqt_error *err) {
  return chunk_open(r, g, leaf, ch, false, err);
}

pqt_status pqt_chunk_open_data(const pqt_reader *r, int32_t g, int32_t leaf, pqt_chunk *ch, pqt_error *err) {
  return chunk_open(r, g, leaf, ch, true, err);
}

static pqt_status chunk_open(const pqt_reader *r, int32_t g, int32_t leaf, pqt_chunk *ch, bool external_ok,
                             pqt_error *err) {
  memset(ch, 0, sizeof *ch);
  if (g < 0 || g >= r->md.row_groups.n || leaf < 0 || leaf >= r->schema->n_leaves)
    return pqt_error_set(err, PQT_EINVAL, "no row group %d column %d", g, leaf);
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  PQT_CHECK_CORRUPT(leaf < rg->columns.n, err, "row group %d has %d column chunks", g, rg->columns.n);
  const pqt_column_chunk *cc = &rg->columns.items[leaf];
  const pqt_schema_node *ln = r->schema->leaves[leaf];
  ch->g = g;
  ch->leaf = leaf;
  ch->cc = cc;
  if (PQT_HAS_FIELD(cc, column_chunk, crypto_metadata)) {
    if (!r->crypto)
      return pqt_error_set(err, PQT_ECRYPTO, "column is encrypted but the file has no encryption algorithm");
    pqt_status st = pqt_file_decryptor_column(r->crypto, cc, ln->dotted_path,
                                              pqt_file_decryptor_row_group_ordinal(rg, g), leaf, &ch->dec, err);
    if (st != PQT_OK) {
      /* every ECRYPTO of pqt_file_decryptor_column is a key not at hand */
      ch->no_key = st == PQT_ECRYPTO;
      return st;
    }
    ch->encrypted = true;
  }
  if (!PQT_HAS_FIELD(cc, column_chunk, meta_data)) {
    if (PQT_HAS_FIELD(cc, column_chunk, encrypted_column_metadata)) {
      ch->no_key = true;
      return pqt_error_set(err, PQT_ECRYPTO, "column metadata is encrypted: a key is needed");
    }
    return pqt_corrupt(err, "column chunk has no metadata");
  }
  const pqt_column_metadata *cm = &cc->meta_data;
  ch->cm = cm;
  bool ext = PQT_HAS_FIELD(cc, column_chunk, file_path) && cc->file_path.len > 0;
  if (ext && (!external_ok || ch->encrypted))
    return pqt_error_set(err, PQT_EUNSUPPORTED, "column data in another file (file_path) is not supported here");
  PQT_CHECK_CORRUPT(cm->type == ln->physical_type, err, "column chunk type %d differs from the schema's %d", cm->type,
                    ln->physical_type);
  if (ext) return open_external(r, &cc->file_path, ch, err);
  return pqt_chunk_range(r, cm, &ch->start, &ch->len, err);
}

void pqt_chunk_close(pqt_chunk *ch) {
  if (ch && ch->encrypted) pqt_module_decryptor_wipe(&ch->dec);
  if (ch) ch->encrypted = false;
  if (ch && ch->ext.release) ch->ext.release(ch->ext.private_data);
  if (ch) {
    ch->ext.release = NULL;
    ch->external = false;
  }
}

void pqt_chunk_page_options(const pqt_reader *r, const pqt_chunk *ch, pqt_page_reader_options *po) {
  pqt_reader_page_options(r, po);
  const pqt_schema_node *ln = r->schema->leaves[ch->leaf];
  po->max_def = ln->max_def;
  po->max_rep = ln->max_rep;
  if (ch->encrypted) {
    po->decryptor = &ch->dec;
    po->dictionary_first =
        ch->cm && PQT_HAS_FIELD(ch->cm, column_metadata, dictionary_page_offset) && ch->cm->dictionary_page_offset > 0;
  }
}

/* The file a chunk's page index and Bloom filter offsets point into: the
 * one its pages are in (ColumnChunk.file_path when set, as parquet-java
 * reads them), else the reader's. */
const pqt_io *pqt_chunk_io(const pqt_reader *r, const pqt_chunk *ch) { return ch->external ? &ch->ext : &r->io; }

pqt_status pqt_chunk_page_reader_open(const pqt_reader *r, int32_t g, int32_t leaf, const uint64_t *window,
                                      bool crc_report_only, const pqt_allocator *alloc, pqt_chunk *ch,
                                      pqt_page_reader *pr, pqt_error *err) {
  memset(pr, 0, sizeof *pr);
  pqt_status st = pqt_chunk_open_data(r, g, leaf, ch, err);
  uint64_t start = ch->start, len = ch->len;
  if (st == PQT_OK && window) {
    if (window[0] < ch->start || window[0] - ch->start > ch->len || window[1] > ch->len - (window[0] - ch->start))
      st = pqt_corrupt(err, "[%llu, +%llu) lies outside the column chunk [%llu, +%llu)",
                       (unsigned long long)window[0], (unsigned long long)window[1], (unsigned long long)ch->start,
                       (unsigned long long)ch->len);
    start = window[0];
    len = window[1];
  }
  if (st == PQT_OK) {
    pqt_page_reader_options po;
    pqt_chunk_page_options(r, ch, &po);
    if (crc_report_only) {
      po.verify_crc = true;
      po.crc_report_only = true;
    }
    st = pqt_page_reader_init(pr, pqt_chunk_io(r, ch), start, len, ch->cm->codec, r->codec_ctx, &po, alloc, err);
    if (st != PQT_OK) pqt_page_reader_free(pr);
  }
  if (st != PQT_OK) {
    bool no_key = ch->no_key;
    pqt_chunk_close(ch);
    ch->no_key = no_key;
  }
  return st;
}

/* The bytes [off, off+len) of io: borrowed from the source when it lends,
 * else read into hold. */
static pqt_status chunk_bytes(const pqt_io *io, uint64_t off, size_t len, pqt_buf *hold, const uint8_t **p,
                              pqt_error *err) {
  if (io->borrow_at) return io->borrow_at(io->private_data, off, len, p, err);
  pqt_buf_clear(hold);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(hold, len ? len : 1, err));
  PQT_RETURN_NOT_OK(io->read_at(io->private_data, off, hold->data, len, err));
  hold->len = len;
  *p = hold->data;
  return PQT_OK;
}

pqt_status pqt_chunk_read_index(const pqt_reader *r, const pqt_chunk *ch, int module_type, pqt_arena *arena,
                                pqt_buf *hold, void *out, bool *found, pqt_error *err) {
  const pqt_column_chunk *cc = ch->cc;
  bool column = module_type == PQT_MODULE_COLUMN_INDEX;
  const char *what = column ? "column index" : "offset index";
  const pqt_thrift_desc *desc = column ? &pqt_desc_column_index : &pqt_desc_offset_index;
  *found = column ? PQT_HAS_FIELD(cc, column_chunk, column_index_offset) &&
                        PQT_HAS_FIELD(cc, column_chunk, column_index_length)
                  : PQT_HAS_FIELD(cc, column_chunk, offset_index_offset) &&
                        PQT_HAS_FIELD(cc, column_chunk, offset_index_length);
  if (!*found) return PQT_OK;
  int64_t off = column ? cc->column_index_offset : cc->offset_index_offset;
  int32_t len = column ? cc->column_index_length : cc->offset_index_length;
  const pqt_io *io = pqt_chunk_io(r, ch);
  if (off < 0 || len <= 0 || (uint64_t)off + (uint64_t)len > io->size)
    return pqt_corrupt(err, "%s [%lld, +%d) lies outside the file", what, (long long)off, len);
  const uint8_t *p = NULL;
  if (!ch->encrypted) {
    PQT_RETURN_NOT_OK(chunk_bytes(io, (uint64_t)off, (size_t)len, hold, &p, err));
    pqt_status st = pqt_thrift_decode(desc, p, (size_t)len, NULL, arena, out, err);
    if (st != PQT_OK) pqt_error_prefix(err, "%s", what);
    return st;
  }
  pqt_buf raw;
  pqt_buf_init(&raw, hold->alloc);
  size_t used = 0;
  pqt_status st = chunk_bytes(io, (uint64_t)off, (size_t)len, &raw, &p, err);
  if (st == PQT_OK)
    st = pqt_decrypt_thrift_module(&ch->dec, module_type, desc, p, (size_t)len, &used, hold, arena, out, err);
  if (st == PQT_OK && used != (size_t)len)
    st = pqt_corrupt(err, "%s: its module takes %zu of its %d bytes", what, used, len);
  pqt_buf_free(&raw);
  return st;
}

#define BLOOM_HEADER_READ 256 /* a BloomFilterHeader takes about 15 bytes */
/* read at most this past the bitset: the header (and, encrypted, the
 * framing of its two modules) */
#define BLOOM_HEADER_ROOM 4096
#define BLOOM_READ_MAX    (((uint64_t)128 << 20) + BLOOM_HEADER_ROOM) /* the largest filter (128 MiB) and its header */

/* An encrypted filter: header and bitset are two modules, read and
 * decrypted whole (p, avail: the bytes from bloom_filter_offset on). */
static pqt_status read_encrypted_bloom(const pqt_reader *r, const pqt_chunk *ch, const uint8_t *p, size_t avail,
                                       pqt_bloom *b, pqt_error *err) {
  pqt_bloom_filter_header h = {0}; /* set by the decrypt; zeroed for the paths cppcheck follows */
  pqt_buf bits;
  pqt_buf_init(&bits, r->data_alloc);
  pqt_status st = pqt_decrypt_bloom_filter(&ch->dec, p, avail, &h, &bits, NULL, err);
  if (st == PQT_OK) st = pqt_bloom_header_check(&h, err);
  /* (the decrypt checked the bitset holds numBytes bytes) */
  if (st == PQT_OK) st = pqt_bloom_init_blocks(b, (uint32_t)(h.num_bytes / 32), r->data_alloc, err);
  if (st == PQT_OK) pqt_bloom_set_bits(b, bits.data);
  pqt_buf_free(&bits);
  return st;
}

pqt_status pqt_chunk_read_bloom(const pqt_reader *r, const pqt_chunk *ch, pqt_bloom *b, bool *found, pqt_error *err) {
  memset(b, 0, sizeof *b);
  const pqt_column_metadata *cm = ch->cm;
  *found = cm && PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset);
  if (!*found) return PQT_OK;
  uint64_t off = (uint64_t)cm->bloom_filter_offset;
  const pqt_io *io = pqt_chunk_io(r, ch);
  if (cm->bloom_filter_offset < 4 || off >= io->size)
    return pqt_corrupt(err, "bloom_filter_offset %lld lies outside the file", (long long)cm->bloom_filter_offset);
  uint64_t len = PQT_HAS_FIELD(cm, column_metadata, bloom_filter_length) && cm->bloom_filter_length > 0
                     ? (uint64_t)cm->bloom_filter_length
                     : 0;
  if (len > io->size - off)
    return pqt_corrupt(err, "Bloom filter [%lld, +%d) runs past the end of the file",
                       (long long)cm->bloom_filter_offset, cm->bloom_filter_length);
  if (!len) len = io->size - off; /* the header says how much is the filter */
  if (len > BLOOM_READ_MAX) len = BLOOM_READ_MAX;
  pqt_buf raw;
  pqt_buf_init(&raw, r->data_alloc);
  const uint8_t *p = NULL;
  pqt_status st = chunk_bytes(io, off, (size_t)len, &raw, &p, err);
  if (st == PQT_OK && !ch->encrypted) st = pqt_bloom_parse(p, (size_t)len, r->data_alloc, b, NULL, err);
  else if (st == PQT_OK) st = read_encrypted_bloom(r, ch, p, (size_t)len, b, err);
  if (st == PQT_EINVAL) { /* a size pqt_bloom_init refuses: the file's fault */
    char why[256];
    snprintf(why, sizeof why, "%.200s", err ? err->message : "bad size");
    st = pqt_corrupt(err, "Bloom filter: %s", why);
  }
  if (st != PQT_OK) pqt_bloom_free(b);
  pqt_buf_free(&raw);
  return st;
}

pqt_status pqt_chunk_bloom_probe(const pqt_reader *r, const pqt_chunk *ch, const uint64_t *hashes, size_t n,
                                 uint8_t *maybe, bool *found, pqt_error *err) {
  const pqt_column_metadata *cm = ch->cm;
  *found = cm && PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset);
  if (!*found) return PQT_OK;
  if (ch->encrypted) { /* two modules, read and decrypted whole: the filter as pqt_chunk_read_bloom reads it */
    pqt_bloom b;
    bool has = false;
    pqt_status st = pqt_chunk_read_bloom(r, ch, &b, &has, err);
    for (size_t i = 0; st == PQT_OK && i < n; i++) maybe[i] = pqt_bloom_check(&b, hashes[i]) ? 1 : 0;
    pqt_bloom_free(&b);
    return st;
  }
  const pqt_io *io = pqt_chunk_io(r, ch);
  int64_t off = cm->bloom_filter_offset;
  if (off < 4 || (uint64_t)off >= io->size)
    return pqt_corrupt(err, "bloom_filter_offset %lld lies outside the file", (long long)off);
  uint64_t avail = io->size - (uint64_t)off;
  if (PQT_HAS_FIELD(cm, column_metadata, bloom_filter_length) && cm->bloom_filter_length > 0 &&
      (uint64_t)cm->bloom_filter_length < avail)
    avail = (uint64_t)cm->bloom_filter_length;
  pqt_status st = PQT_OK;
  /* the header is about 15 bytes: read a small window, a larger one if it was cut */
  uint8_t head[BLOOM_HEADER_READ];
  pqt_bloom_filter_header h;
  size_t used = 0;
  for (size_t win = 64;; win = sizeof head) {
    size_t k = avail < win ? (size_t)avail : win;
    PQT_RETURN_NOT_OK(io->read_at(io->private_data, (uint64_t)off, head, k, err));
    st = pqt_thrift_decode(&pqt_desc_bloom_filter_header, head, k, &used, NULL, &h, err);
    if (st == PQT_OK) break;
    if (k == avail || win == sizeof head) {
      pqt_error_prefix(err, "Bloom filter header");
      return st;
    }
  }
  PQT_RETURN_NOT_OK(pqt_bloom_header_check(&h, err));
  if ((uint64_t)h.num_bytes > io->size - (uint64_t)off - used)
    return pqt_corrupt(err, "Bloom filter: %d bytes do not fit in the file", h.num_bytes);
  if (PQT_HAS_FIELD(cm, column_metadata, bloom_filter_length) && cm->bloom_filter_length > 0 &&
      used + (uint64_t)h.num_bytes > (uint64_t)cm->bloom_filter_length)
    return pqt_corrupt(err, "Bloom filter: header and %d bytes pass bloom_filter_length %d", h.num_bytes,
                       cm->bloom_filter_length);
  uint32_t n_blocks = (uint32_t)(h.num_bytes / 32);
  for (size_t i = 0; i < n; i++) {
    uint8_t block[32];
    uint64_t at = (uint64_t)off + used + (uint64_t)pqt_bloom_block_of(hashes[i], n_blocks) * 32;
    PQT_RETURN_NOT_OK(io->read_at(io->private_data, at, block, sizeof block, err));
    maybe[i] = pqt_bloom_check_block(block, hashes[i]) ? 1 : 0;
  }
  return PQT_OK;
}
