/*
 * page/page_reader.c: see page_reader.h.
 *
 * Spec points handled here:
 *  - PageHeader sizes are untrusted: compressed_page_size must fit in the
 *    chunk, uncompressed_page_size is capped (max_page_bytes and
 *    max_expansion x compressed + floor) before anything is allocated.
 *  - CRC-32 (standard, as gzip) over the page bytes as stored (an encrypted
 *    page: its whole module, length prefix included), after the
 *    header, for every page type.
 *  - v1 data page: [rep levels][def levels][values], all compressed together;
 *    RLE level sections carry a 4-byte little-endian length; BIT_PACKED
 *    sections (deprecated) have none: their size follows from num_values.
 *  - v2 data page: [rep][def] uncompressed with lengths from the header,
 *    then the values, compressed unless is_compressed is false (absent means
 *    true). A zero-length values section is valid (all-null page).
 */
#include "page/page_reader.h"

#include "crypto/crypto.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

void pqt_page_reader_options_init(pqt_page_reader_options *o) {
  memset(o, 0, sizeof *o);
  o->verify_crc = true;
  o->max_page_bytes = (uint64_t)1 << 30;
  o->max_expansion = 64;
  o->expansion_floor = 1u << 20;
}

pqt_status pqt_page_reader_init(pqt_page_reader *pr, const pqt_io *io, uint64_t offset, uint64_t len, int32_t codec,
                                pqt_codec_ctx *codec_ctx, const pqt_page_reader_options *opts,
                                const pqt_allocator *alloc, pqt_error *err) {
  memset(pr, 0, sizeof *pr);
  pr->alloc = pqt_alloc_or_default(alloc);
  if (opts) pr->opts = *opts;
  else pqt_page_reader_options_init(&pr->opts);
  pr->codec = codec;
  pr->codec_ctx = codec_ctx;
  pqt_buf_init(&pr->scratch, pr->alloc);
  pqt_buf_init(&pr->crypt_header, pr->alloc);
  pqt_buf_init(&pr->crypt_page, pr->alloc);
  if (offset > io->size || len > io->size - offset)
    return pqt_corrupt(err, "column chunk [%llu, +%llu) lies outside the %llu-byte file", (unsigned long long)offset,
                       (unsigned long long)len, (unsigned long long)io->size);
  if (len > SIZE_MAX) return pqt_error_set(err, PQT_ELIMIT, "column chunk too large for this platform");
  pr->chunk_offset = offset;
  pr->chunk_len = (size_t)len;
  if (io->borrow_at) {
    PQT_RETURN_NOT_OK(io->borrow_at(io->private_data, offset, (size_t)len, &pr->chunk, err));
  } else {
    pr->chunk_copy = pqt_mem_alloc(pr->alloc, len ? (size_t)len : 1);
    if (!pr->chunk_copy) return pqt_nomem(err);
    PQT_RETURN_NOT_OK(io->read_at(io->private_data, offset, pr->chunk_copy, (size_t)len, err));
    pr->chunk = pr->chunk_copy;
  }
  return PQT_OK;
}

void pqt_page_reader_free(pqt_page_reader *pr) {
  pqt_shared_unref(pr->shared);
  pr->shared = NULL;
  pqt_buf_free(&pr->scratch);
  pqt_buf_free(&pr->crypt_header);
  pqt_buf_free(&pr->crypt_page);
  if (pr->chunk_copy) pqt_mem_free(pr->alloc, pr->chunk_copy, pr->chunk_len ? pr->chunk_len : 1);
  pr->chunk_copy = NULL;
  pqt_shared_unref(pr->chunk_shared); /* arrays pointing into it hold their own references */
  pr->chunk_shared = NULL;
  pr->chunk = NULL;
}

pqt_status pqt_page_reader_seek(pqt_page_reader *pr, const pqt_io *io, uint64_t offset, uint64_t len,
                                int32_t page_index, int32_t data_page_ordinal, pqt_error *err) {
  pqt_shared_unref(pr->shared);
  pr->shared = NULL;
  if (pr->chunk_copy) pqt_mem_free(pr->alloc, pr->chunk_copy, pr->chunk_len ? pr->chunk_len : 1);
  pr->chunk_copy = NULL;
  pqt_shared_unref(pr->chunk_shared); /* arrays pointing into it hold their own references */
  pr->chunk_shared = NULL;
  pr->chunk = NULL;
  pr->chunk_len = 0;
  pr->pos = 0;
  if (offset > io->size || len > io->size - offset)
    return pqt_corrupt(err, "pages [%llu, +%llu) lie outside the %llu-byte file", (unsigned long long)offset,
                       (unsigned long long)len, (unsigned long long)io->size);
  if (len > SIZE_MAX) return pqt_error_set(err, PQT_ELIMIT, "pages too large for this platform");
  if (io->borrow_at) {
    PQT_RETURN_NOT_OK(io->borrow_at(io->private_data, offset, (size_t)len, &pr->chunk, err));
  } else {
    pr->chunk_copy = pqt_mem_alloc(pr->alloc, len ? (size_t)len : 1);
    if (!pr->chunk_copy) return pqt_nomem(err);
    pqt_status st = io->read_at(io->private_data, offset, pr->chunk_copy, (size_t)len, err);
    if (st != PQT_OK) {
      pqt_mem_free(pr->alloc, pr->chunk_copy, len ? (size_t)len : 1);
      pr->chunk_copy = NULL;
      return st;
    }
    pr->chunk = pr->chunk_copy;
  }
  pr->chunk_offset = offset;
  pr->chunk_len = (size_t)len;
  pr->page_index = pr->current = page_index;
  pr->data_page_ordinal = data_page_ordinal;
  return PQT_OK;
}

/* Decompress src into the scratch buffer (exactly n bytes). */
static pqt_status decompress_into_scratch(pqt_page_reader *pr, const uint8_t *src, size_t src_len, size_t n,
                                          size_t keep, pqt_error *err) {
  pr->scratch.len = keep;
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&pr->scratch, n + 8, err)); /* +8: slack for word-at-a-time readers */
  if (n > 0 || src_len > 0) {
    /* an empty section may still be a codec frame (snappy: 1 byte, zstd: 9) */
    PQT_RETURN_NOT_OK(pqt_codec_decompress(pr->codec_ctx, pr->codec, src, src_len, pr->scratch.data + keep, n, err));
  }
  pr->scratch.len = keep + n;
  return PQT_OK;
}

/* Split one v1 level section off the front of [*p, *p + *left). */
static pqt_status take_v1_levels(int32_t encoding, int16_t max_level, int32_t num_values, const uint8_t **p,
                                 size_t *left, const uint8_t **out, size_t *out_len, const char *what, pqt_error *err) {
  if (encoding == PQT_ENC_RLE) {
    PQT_CHECK_CORRUPT(*left >= 4, err, "%s levels: missing the 4-byte length", what);
    uint32_t n = pqt_load_u32le(*p);
    PQT_CHECK_CORRUPT(n <= *left - 4, err, "%s levels: length %u exceeds the %zu bytes left in the page", what, n,
                      *left - 4);
    *out = *p + 4;
    *out_len = n;
    *p += 4 + (size_t)n;
    *left -= 4 + (size_t)n;
    return PQT_OK;
  }
  if (encoding == PQT_ENC_BIT_PACKED) {
    unsigned bw = 0;
    while ((1 << bw) <= max_level) bw++;
    uint64_t n = ((uint64_t)(uint32_t)num_values * bw + 7) / 8;
    PQT_CHECK_CORRUPT(n <= *left, err, "%s levels: BIT_PACKED section of %llu bytes exceeds the page", what,
                      (unsigned long long)n);
    *out = *p;
    *out_len = (size_t)n;
    *p += n;
    *left -= (size_t)n;
    return PQT_OK;
  }
  return pqt_error_set(err, PQT_EUNSUPPORTED, "%s levels: encoding %s is not a level encoding", what,
                       PQT_ENCODING_NAME(encoding));
}

/* Encrypted chunk: decrypt the page header module at src into crypt_header.
 * Its AAD depends on whether it heads the dictionary page, which the column
 * metadata hints at (dictionary_first); as writers disagree on how they mark
 * a dictionary page, the first page also tries the other kind. */
static pqt_status decrypt_page_header(pqt_page_reader *pr, const uint8_t *src, size_t avail, size_t *used,
                                      pqt_error *err) {
  const pqt_module_decryptor *d = pr->opts.decryptor;
  bool first = pr->page_index == 0;
  int type = first && pr->opts.dictionary_first ? PQT_MODULE_DICTIONARY_PAGE_HEADER : PQT_MODULE_DATA_PAGE_HEADER;
  pqt_status st = pqt_module_decrypt(d, type, pr->data_page_ordinal, src, avail, used, &pr->crypt_header, err);
  if (st == PQT_ECRYPTO && first) {
    int other = type == PQT_MODULE_DATA_PAGE_HEADER ? PQT_MODULE_DICTIONARY_PAGE_HEADER : PQT_MODULE_DATA_PAGE_HEADER;
    if (pqt_module_decrypt(d, other, pr->data_page_ordinal, src, avail, used, &pr->crypt_header, NULL) == PQT_OK)
      return PQT_OK;
  }
  return st;
}

/* Decode the header of the page at pr->pos (decrypting it first for an
 * encrypted chunk), check its sizes against the chunk, and move past the
 * page. *body gets the page's bytes as stored. */
static pqt_status read_header(pqt_page_reader *pr, pqt_page *page, const uint8_t **body, size_t *stored_size,
                               pqt_error *err) {
  const uint8_t *hp = pr->chunk + pr->pos;
  size_t left = pr->chunk_len - pr->pos;
  size_t hlen = 0;
  page->index = pr->current = pr->page_index;
  page->file_offset = pr->chunk_offset + pr->pos;
  pr->header_decoded = false;
  pqt_status st;
  if (pr->opts.decryptor) {
    st = decrypt_page_header(pr, hp, left, &hlen, err);
    if (st == PQT_OK)
      st = pqt_thrift_decode(&pqt_desc_page_header, pr->crypt_header.data, pr->crypt_header.len, NULL, NULL,
                             &pr->header, err);
  } else {
    st = pqt_thrift_decode(&pqt_desc_page_header, hp, left, &hlen, NULL, &pr->header, err);
  }
  if (st != PQT_OK) {
    pqt_error_prefix(err, "page header at offset %llu", (unsigned long long)page->file_offset);
    return st;
  }
  const pqt_page_header *h = &pr->header;
  page->header = h;
  PQT_CHECK_CORRUPT(h->compressed_page_size >= 0 && h->uncompressed_page_size >= 0, err,
                    "page header: negative page size (compressed %d, uncompressed %d)", h->compressed_page_size,
                    h->uncompressed_page_size);
  size_t csize = (size_t)h->compressed_page_size;
  if (pr->opts.decryptor && pr->opts.decryptor->no_aad) {
    /* DuckDB's files (no AAD; crypto/file_decryptor.h): compressed_page_size
     * is the plaintext's, the module after the header is that plus its
     * length, nonce and tag */
    PQT_CHECK_CORRUPT(left - hlen >= PQT_CRYPTO_GCM_OVERHEAD &&
                          !pqt_module_uses_ctr(pr->opts.decryptor, PQT_MODULE_DATA_PAGE),
                      err, "encrypted page at offset %llu: no room for its module",
                      (unsigned long long)page->file_offset);
    size_t mod = PQT_CRYPTO_LENGTH_BYTES + (size_t)pqt_load_u32le(hp + hlen);
    PQT_CHECK_CORRUPT(mod >= PQT_CRYPTO_GCM_OVERHEAD && mod - PQT_CRYPTO_GCM_OVERHEAD == csize, err,
                      "encrypted page at offset %llu: a module of %zu bytes for a page of %zu",
                      (unsigned long long)page->file_offset, mod, csize);
    csize = mod;
  }
  PQT_CHECK_CORRUPT(csize <= left - hlen, err,
                    "page of %zu bytes at offset %llu runs past the end of the column chunk (%zu bytes left)", csize,
                    (unsigned long long)page->file_offset, left - hlen);
  *body = hp + hlen;
  *stored_size = csize;
  page->header_len = hlen;
  pr->pos += hlen + csize;
  pr->page_index++;
  pr->header_decoded = true; /* its type and extent are known, and the reader is past it */
  return PQT_OK;
}

/* The stored page (*body, *csize bytes) as its plaintext: decrypted for an
 * encrypted chunk, its claimed uncompressed size usize held to the
 * expansion limits, its CRC checked. */
static pqt_status open_body(pqt_page_reader *pr, pqt_page *page, const uint8_t **body, size_t *csize, size_t usize,
                            pqt_error *err) {
  const pqt_page_header *h = &pr->header;
  const uint8_t *stored = *body; /* the CRC covers the page as stored (encrypted: the whole module) */
  size_t stored_len = *csize;
  if (pr->opts.decryptor) {
    /* the page as stored is one module; the sizes below are the plaintext's.
     * A data page takes its ordinal (AAD) whether or not it decrypts, so a
     * tampered page does not shift the ordinals of the pages after it. */
    int mt = h->type == PQT_PAGE_DICTIONARY ? PQT_MODULE_DICTIONARY_PAGE : PQT_MODULE_DATA_PAGE;
    int32_t ordinal = pr->data_page_ordinal;
    if (mt == PQT_MODULE_DATA_PAGE) pr->data_page_ordinal++;
    size_t used = 0;
    PQT_RETURN_NOT_OK(pqt_module_decrypt(pr->opts.decryptor, mt, ordinal, *body, *csize, &used, &pr->crypt_page, err));
    PQT_CHECK_CORRUPT(used == *csize, err, "encrypted page: its module takes %zu of the page's %zu bytes", used,
                      *csize);
    *body = pr->crypt_page.data;
    *csize = pr->crypt_page.len;
  }
  uint64_t cap = (uint64_t)*csize * pr->opts.max_expansion + pr->opts.expansion_floor;
  if (cap > pr->opts.max_page_bytes) cap = pr->opts.max_page_bytes;
  if (usize > cap)
    return pqt_error_set(err, PQT_ELIMIT,
                         "page claims %zu uncompressed bytes from %zu compressed (limit %llu): refusing", usize, *csize,
                         (unsigned long long)cap);
  if (PQT_HAS_FIELD(h, page_header, crc) && pr->opts.verify_crc) {
    uint32_t crc = pqt_crc32(0, stored, stored_len);
    if (crc != (uint32_t)h->crc && !pr->opts.crc_report_only)
      return pqt_corrupt(err, "CRC32 mismatch: page says %08x, bytes give %08x", (uint32_t)h->crc, crc);
    page->crc_checked = crc == (uint32_t)h->crc;
    page->crc_mismatch = crc != (uint32_t)h->crc;
  }
  return PQT_OK;
}

/* The page's bytes (csize of them) decompressed to usize, or as they are
 * for an uncompressed chunk (whose sizes must agree). */
static pqt_status page_plain(pqt_page_reader *pr, const uint8_t *body, size_t csize, size_t usize, const uint8_t **out,
                             pqt_error *err) {
  if (pr->codec == PQT_CODEC_UNCOMPRESSED) {
    PQT_CHECK_CORRUPT(usize == csize, err, "uncompressed page: sizes differ (%zu vs %zu)", usize, csize);
    *out = body;
    return PQT_OK;
  }
  PQT_RETURN_NOT_OK(decompress_into_scratch(pr, body, csize, usize, 0, err));
  *out = pr->scratch.data;
  return PQT_OK;
}

static pqt_status dictionary_page(pqt_page_reader *pr, pqt_page *page, const uint8_t *body, size_t csize, size_t usize,
                                  pqt_error *err) {
  const pqt_page_header *h = &pr->header;
  PQT_CHECK_CORRUPT(PQT_HAS_FIELD(h, page_header, dictionary_page_header), err,
                    "dictionary page without a dictionary_page_header");
  const pqt_dictionary_page_header *dh = &h->dictionary_page_header;
  PQT_CHECK_CORRUPT(dh->num_values >= 0, err, "dictionary page: negative num_values %d", dh->num_values);
  page->num_values = dh->num_values;
  page->encoding = dh->encoding;
  PQT_RETURN_NOT_OK(page_plain(pr, body, csize, usize, &page->values, err));
  page->values_len = usize;
  return PQT_OK;
}

/* DATA_PAGE (v1): levels and values compressed together. */
static pqt_status data_page_v1(pqt_page_reader *pr, pqt_page *page, const uint8_t *body, size_t csize, size_t usize,
                               pqt_error *err) {
  const pqt_page_header *h = &pr->header;
  PQT_CHECK_CORRUPT(PQT_HAS_FIELD(h, page_header, data_page_header), err, "data page without a data_page_header");
  const pqt_data_page_header *dh = &h->data_page_header;
  PQT_CHECK_CORRUPT(dh->num_values >= 0, err, "data page: negative num_values %d", dh->num_values);
  page->num_values = dh->num_values;
  page->encoding = dh->encoding;
  page->def_encoding = dh->definition_level_encoding;
  page->rep_encoding = dh->repetition_level_encoding;
  const uint8_t *p = NULL;
  PQT_RETURN_NOT_OK(page_plain(pr, body, csize, usize, &p, err));
  size_t rest = usize;
  if (pr->opts.max_rep > 0)
    PQT_RETURN_NOT_OK(take_v1_levels(page->rep_encoding, pr->opts.max_rep, page->num_values, &p, &rest, &page->rep,
                                     &page->rep_len, "repetition", err));
  if (pr->opts.max_def > 0)
    PQT_RETURN_NOT_OK(take_v1_levels(page->def_encoding, pr->opts.max_def, page->num_values, &p, &rest, &page->def,
                                     &page->def_len, "definition", err));
  page->values = p;
  page->values_len = rest;
  return PQT_OK;
}

/* DATA_PAGE_V2: levels stored as they are, then the values section,
 * compressed unless is_compressed says otherwise. */
static pqt_status data_page_v2(pqt_page_reader *pr, pqt_page *page, const uint8_t *body, size_t csize, size_t usize,
                               pqt_error *err) {
  const pqt_page_header *h = &pr->header;
  PQT_CHECK_CORRUPT(PQT_HAS_FIELD(h, page_header, data_page_header_v2), err,
                    "v2 data page without a data_page_header_v2");
  const pqt_data_page_header_v2 *dh = &h->data_page_header_v2;
  PQT_CHECK_CORRUPT(dh->num_values >= 0 && dh->num_rows >= 0, err, "v2 data page: negative num_values or num_rows");
  PQT_CHECK_CORRUPT(dh->definition_levels_byte_length >= 0 && dh->repetition_levels_byte_length >= 0, err,
                    "v2 data page: negative level lengths");
  size_t rl = (size_t)dh->repetition_levels_byte_length, dl = (size_t)dh->definition_levels_byte_length;
  PQT_CHECK_CORRUPT(rl + dl <= csize && rl + dl <= usize, err,
                    "v2 data page: level sections (%zu + %zu bytes) exceed the page (%zu/%zu bytes)", rl, dl, csize,
                    usize);
  page->num_values = dh->num_values;
  page->num_nulls = dh->num_nulls;
  page->num_rows = dh->num_rows;
  page->encoding = dh->encoding;
  page->def_encoding = PQT_ENC_RLE;
  page->rep_encoding = PQT_ENC_RLE;
  page->rep = body;
  page->rep_len = rl;
  page->def = body + rl;
  page->def_len = dl;
  bool compressed = PQT_HAS_FIELD(dh, data_page_header_v2, is_compressed) ? dh->is_compressed : true;
  size_t vc = csize - rl - dl, vu = usize - rl - dl;
  if (!compressed || pr->codec == PQT_CODEC_UNCOMPRESSED) {
    PQT_CHECK_CORRUPT(vc == vu, err, "v2 data page: uncompressed values section sizes differ (%zu vs %zu)", vc, vu);
    page->values = body + rl + dl;
  } else if (vu == 0 && vc == 0) {
    page->values = body + rl + dl; /* empty data section */
  } else {
    PQT_RETURN_NOT_OK(decompress_into_scratch(pr, body + rl + dl, vc, vu, 0, err));
    page->values = pr->scratch.data;
  }
  page->values_len = vu;
  if (pr->opts.max_rep == 0) page->rep_len = 0;
  if (pr->opts.max_def == 0) page->def_len = 0;
  return PQT_OK;
}

static bool holds(const pqt_buf *b, const uint8_t *p, size_t n) {
  return b->data && p >= b->data && n <= b->len && (size_t)(p - b->data) <= b->len - n;
}

pqt_status pqt_page_reader_share_values(pqt_page_reader *pr, const uint8_t *values, size_t values_len,
                                        pqt_shared_buf **out, pqt_error *err) {
  *out = NULL;
  if (pr->shared) {
    if (values >= pr->shared->data && (size_t)(values - pr->shared->data) <= pr->shared->len)
      *out = pr->shared;
    return PQT_OK;
  }
  pqt_buf *b = holds(&pr->scratch, values, values_len)      ? &pr->scratch
               : holds(&pr->crypt_page, values, values_len) ? &pr->crypt_page
                                                            : NULL;
  if (b) {
    PQT_RETURN_NOT_OK(pqt_shared_from_buf(b, &pr->shared, err)); /* b is left empty: the next page gets a new one */
    *out = pr->shared;
    return PQT_OK;
  }
  /* read in place: from the reader's copy of the chunk, or the mapped file */
  uintptr_t v = (uintptr_t)values, c = (uintptr_t)pr->chunk;
  bool in_chunk = pr->chunk && v >= c && v - c <= pr->chunk_len && values_len <= pr->chunk_len - (v - c);
  pqt_shared_buf *whole = NULL;
  if (in_chunk && (pr->chunk_copy || pr->chunk_shared)) {
    if (!pr->chunk_shared) {
      size_t cap = pr->chunk_len ? pr->chunk_len : 1;
      pqt_buf cb = {.data = pr->chunk_copy, .len = pr->chunk_len, .cap = cap, .alloc = pr->alloc};
      PQT_RETURN_NOT_OK(pqt_shared_from_buf(&cb, &pr->chunk_shared, err));
      pr->chunk_copy = NULL; /* now freed with the last reference */
    }
    whole = pr->chunk_shared;
  } else if (pr->opts.source) {
    uintptr_t lo = (uintptr_t)pr->opts.source->data;
    if (v >= lo && v - lo <= pr->opts.source->len && values_len <= pr->opts.source->len - (v - lo))
      whole = pr->opts.source;
  }
  if (!whole) return PQT_OK; /* a caller's memory: copied by the caller */
  PQT_RETURN_NOT_OK(pqt_shared_slice(whole, values, values_len, pr->alloc, &pr->shared, err));
  *out = pr->shared;
  return PQT_OK;
}

pqt_status pqt_page_reader_next(pqt_page_reader *pr, pqt_page *page, bool *eof, pqt_error *err) {
  pqt_shared_unref(pr->shared); /* the arrays that point into the last page hold their own references */
  pr->shared = NULL;
  for (;;) {
    memset(page, 0, sizeof *page);
    if (pr->pos >= pr->chunk_len) {
      *eof = true;
      return PQT_OK;
    }
    *eof = false;
    const uint8_t *body = NULL;
    size_t csize = 0;
    PQT_RETURN_NOT_OK(read_header(pr, page, &body, &csize, err));
    const pqt_page_header *h = &pr->header;
    if (h->type != PQT_PAGE_DATA && h->type != PQT_PAGE_DATA_V2 && h->type != PQT_PAGE_DICTIONARY)
      continue; /* index pages and unknown types: skipped */
    size_t usize = (size_t)h->uncompressed_page_size;
    PQT_RETURN_NOT_OK(open_body(pr, page, &body, &csize, usize, err));
    page->type = h->type;
    page->num_nulls = -1;
    page->num_rows = -1;
    if (h->type == PQT_PAGE_DICTIONARY) return dictionary_page(pr, page, body, csize, usize, err);
    if (h->type == PQT_PAGE_DATA) return data_page_v1(pr, page, body, csize, usize, err);
    return data_page_v2(pr, page, body, csize, usize, err);
  }
}
