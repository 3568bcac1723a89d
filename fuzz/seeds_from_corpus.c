/*
 * fuzz/seeds_from_corpus.c: seed inputs for fuzz_codec and fuzz_encoding
 * cut from real files. Every data page of every readable file under DIR is
 * walked with the page reader:
 *   - fuzz_codec: its compressed bytes (v1: the page; v2: the values
 *     section), framed as fuzz_codec reads them (byte 0: codec and size
 *     class, bytes 1-2: the exact uncompressed size);
 *   - fuzz_encoding: its level sections (RLE levels) and its values section
 *     under the selector of its encoding (PLAIN, dictionary indices,
 *     DELTA_*, BYTE_STREAM_SPLIT, RLE booleans), framed as fuzz_encoding
 *     reads them (byte 0: decoder, byte 1: width, bytes 2-3: value count);
 * and for fuzz_arrow_schema (ARROW_OUT, optional) every file's ARROW:schema
 * value as stored (base64 of the IPC message).
 * Spans over 64 KiB are skipped; at most PER_KIND seeds of each kind.
 *
 *   seeds_from_corpus DIR CODEC_OUT ENCODING_OUT [ARROW_OUT]
 *
 * Built with the fuzz targets (make fuzz); scripts/fuzz-smoke.sh runs it
 * when the corpus is there. Nothing it writes is kept in the repository.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file/reader_internal.h"
#include "scan/row_group.h"
#include "page/page_reader.h"

#define MAX_SPAN 65535
#define PER_KIND 60

static const char *g_codec_out, *g_enc_out, *g_arrow_out;
static int g_count[8 + 16 + 1];
static int g_written;

static void put(const char *dir, const char *tag, int kind, const uint8_t hdr[4], size_t hdr_len, const uint8_t *p,
                size_t n) {
  if (n > MAX_SPAN || g_count[kind] >= PER_KIND) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/%s-%03d", dir, tag, g_count[kind]++);
  FILE *f = fopen(path, "wb");
  if (!f) return;
  if (hdr_len) fwrite(hdr, 1, hdr_len, f);
  if (n) fwrite(p, 1, n, f);
  fclose(f);
  g_written++;
}

/* fuzz_codec: byte 0 = codec | size class 8 << 3 (exact sizes below 64 KiB). */
static void codec_seed(int32_t codec, const uint8_t *src, size_t n, size_t usize) {
  if (codec <= PQT_CODEC_UNCOMPRESSED || codec > PQT_CODEC_LZ4_RAW || usize > 0xffff) return;
  uint8_t h[3] = {(uint8_t)(codec | (8 << 3)), (uint8_t)usize, (uint8_t)(usize >> 8)};
  char tag[32];
  snprintf(tag, sizeof tag, "codec%d", codec);
  put(g_codec_out, tag, codec, h, 3, src, n);
}

/* fuzz_encoding: [mode][param][n lo][n hi] + span */
static void enc_seed(int mode, unsigned param, size_t count, const uint8_t *span, size_t n) {
  if (count > 0xffff) count = 0xffff;
  uint8_t h[4] = {(uint8_t)mode, (uint8_t)param, (uint8_t)count, (uint8_t)(count >> 8)};
  char tag[32];
  snprintf(tag, sizeof tag, "mode%d", mode);
  put(g_enc_out, tag, 8 + mode, h, 4, span, n);
}

static unsigned bit_width(int16_t max_level) {
  unsigned bw = 0;
  while ((1 << bw) <= max_level) bw++;
  return bw;
}

static void walk_chunk(pqt_reader *r, const uint8_t *file, int32_t g, int32_t leaf) {
  const pqt_schema_node *ln = r->schema->leaves[leaf];
  pqt_error e;
  pqt_chunk ch;
  /* seeds are page bodies as stored: encrypted chunks are left out */
  if (pqt_chunk_open(r, g, leaf, &ch, &e) != PQT_OK || ch.encrypted) {
    pqt_chunk_close(&ch);
    return;
  }
  const pqt_column_metadata *cm = ch.cm;
  pqt_page_reader_options po;
  pqt_chunk_page_options(r, &ch, &po);
  pqt_page_reader pr;
  if (pqt_page_reader_init(&pr, &r->io, ch.start, ch.len, cm->codec, r->codec_ctx, &po, NULL, &e) != PQT_OK) {
    pqt_page_reader_free(&pr);
    return;
  }
  int32_t t = ln->physical_type;
  for (int pages = 0; pages < 64; pages++) {
    pqt_page pg;
    bool eof;
    if (pqt_page_reader_next(&pr, &pg, &eof, &e) != PQT_OK || eof) break;
    const pqt_page_header *h = pg.header;
    const uint8_t *body = file + pg.file_offset + pg.header_len;
    size_t csize = (size_t)h->compressed_page_size;
    if (pg.type == PQT_PAGE_DATA) {
      codec_seed(cm->codec, body, csize, (size_t)h->uncompressed_page_size);
    } else if (pg.type == PQT_PAGE_DATA_V2) {
      size_t lv = (size_t)h->data_page_header_v2.repetition_levels_byte_length +
                  (size_t)h->data_page_header_v2.definition_levels_byte_length;
      if (lv <= csize) codec_seed(cm->codec, body + lv, csize - lv, (size_t)h->uncompressed_page_size - lv);
    }
    if (pg.type == PQT_PAGE_DICTIONARY) {
      if (t != PQT_BYTE_ARRAY && t != PQT_BOOLEAN) enc_seed(5, 3, (size_t)pg.num_values, pg.values, pg.values_len);
      continue;
    }
    size_t nv = (size_t)pg.num_values;
    if (pg.def_len && pg.def_encoding == PQT_ENC_RLE) enc_seed(1, bit_width(ln->max_def), nv, pg.def, pg.def_len);
    if (pg.rep_len && pg.rep_encoding == PQT_ENC_RLE) enc_seed(1, bit_width(ln->max_rep), nv, pg.rep, pg.rep_len);
    if (pg.def_len && pg.def_encoding == PQT_ENC_BIT_PACKED)
      enc_seed(11, bit_width(ln->max_def), nv, pg.def, pg.def_len);
    size_t w = t == PQT_INT32 || t == PQT_FLOAT    ? 4
               : t == PQT_INT64 || t == PQT_DOUBLE ? 8
               : t == PQT_INT96                    ? 12
               : t == PQT_FIXED_LEN_BYTE_ARRAY     ? (size_t)ln->type_length
                                                   : 0;
    switch (pg.encoding) {
      case PQT_ENC_PLAIN:
        if (t == PQT_BOOLEAN) enc_seed(4, 0, nv, pg.values, pg.values_len);
        else enc_seed(5, w ? (unsigned)(w - 1) : 0, nv, pg.values, pg.values_len);
        break;
      case PQT_ENC_RLE_DICTIONARY:
      case PQT_ENC_PLAIN_DICTIONARY:
        enc_seed(t == PQT_BYTE_ARRAY ? 3 : 2, w ? (unsigned)(w - 1) : 0, nv, pg.values, pg.values_len);
        break;
      case PQT_ENC_RLE:
        if (t == PQT_BOOLEAN && pg.values_len > 4) enc_seed(4, 0, nv, pg.values + 4, pg.values_len - 4);
        break;
      case PQT_ENC_DELTA_BINARY_PACKED: enc_seed(t == PQT_INT32 ? 6 : 7, 31, nv, pg.values, pg.values_len); break;
      case PQT_ENC_DELTA_LENGTH_BYTE_ARRAY:
        enc_seed(8, 0, nv, pg.values, pg.values_len);
        enc_seed(12, 7, nv, pg.values, pg.values_len);
        break;
      case PQT_ENC_DELTA_BYTE_ARRAY:
        enc_seed(9, t == PQT_FIXED_LEN_BYTE_ARRAY && w < 9 ? (unsigned)(w | 1) : 0, nv, pg.values, pg.values_len);
        enc_seed(13, 7, nv, pg.values, pg.values_len);
        break;
      case PQT_ENC_BYTE_STREAM_SPLIT:
        if (w) enc_seed(10, (unsigned)(w - 1), nv, pg.values, pg.values_len);
        break;
      default: break;
    }
  }
  pqt_page_reader_free(&pr);
}

static void do_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *data = n > 0 ? malloc((size_t)n) : NULL;
  if (!data || fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    fclose(f);
    return;
  }
  fclose(f);
  pqt_reader *r;
  pqt_error e;
  if (pqt_reader_open_buffer(&r, data, (size_t)n, NULL, &e) == PQT_OK) {
    for (int32_t i = 0; g_arrow_out && i < r->md.key_value_metadata.n; i++) {
      const pqt_key_value *kv = &r->md.key_value_metadata.items[i];
      if (kv->key.len == 12 && memcmp(kv->key.ptr, "ARROW:schema", 12) == 0 && PQT_HAS_FIELD(kv, key_value, value))
        put(g_arrow_out, "arrow", 8 + 16, NULL, 0, kv->value.ptr, (size_t)kv->value.len);
    }
    for (int32_t g = 0; g < r->md.row_groups.n && g < 4; g++)
      for (int32_t i = 0;
           i < r->schema->n_leaves && i < 64 && r->md.row_groups.items[g].columns.n == r->schema->n_leaves; i++)
        walk_chunk(r, data, g, i);
    pqt_reader_close(r);
  }
  free(data);
}

static void walk(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (de->d_name[0] == '.') continue;
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
    struct stat sb;
    if (stat(p, &sb) != 0) continue;
    if (S_ISDIR(sb.st_mode)) {
      if (strcmp(de->d_name, "bad_data") != 0) walk(p);
    } else if (strstr(de->d_name, ".parquet")) {
      do_file(p);
    }
  }
  closedir(d);
}

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5) {
    fprintf(stderr, "usage: seeds_from_corpus DIR CODEC_OUT ENCODING_OUT [ARROW_OUT]\n");
    return 2;
  }
  g_codec_out = argv[2];
  g_enc_out = argv[3];
  g_arrow_out = argc == 5 ? argv[4] : NULL;
  walk(argv[1]);
  printf("seeds_from_corpus: %d seeds\n", g_written);
  return 0;
}
