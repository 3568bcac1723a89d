/* Tampering with encrypted files of parquet-testing is detected by
 * `verify` (pqt_reader_verify_ex) and by reading: every byte of
 * uniform_encryption.parquet.encrypted (footer, column metadata, page
 * headers, dictionary and data pages, column and offset indexes: all GCM
 * modules) and of the encrypted modules of a file with column keys
 * (encrypt_columns_and_footer, and the Bloom filter modules of
 * encrypt_columns_and_footer_bloom_filter) is flipped in turn: the file
 * must fail to open, or verify must report a problem; never a crash, never
 * "ok". Keys per data/README.md (as in test_encrypted_corpus.c). */
#include <stddef.h>

#include "crypto/crypto.h"
#include "file/reader_internal.h"
#include "scan/row_group.h"
#include "harness.h"
#include "page/page_reader.h"
#include "parquetry.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static const char *g_dir;
static char g_path[4096];

static const char *data_file(const char *name) {
  snprintf(g_path, sizeof g_path, "%s/data/%s", g_dir, name);
  return g_path;
}

typedef struct keys {
  uint8_t footer[16], dbl[16], flt[16];
  pqt_column_key ck[2];
  pqt_read_options o;
} keys;

static void make_keys(keys *k) {
  memcpy(k->footer, "0123456789012345", 16);
  memcpy(k->dbl, "1234567890123450", 16);
  memcpy(k->flt, "1234567890123451", 16);
  pqt_read_options_init(&k->o);
  k->o.footer_key = k->footer;
  k->o.footer_key_len = 16;
  k->ck[0] = (pqt_column_key){"double_field", k->dbl, 16};
  k->ck[1] = (pqt_column_key){"float_field", k->flt, 16};
  k->o.column_keys = k->ck;
  k->o.n_column_keys = 2;
}

/* key_metadata "kf" / "kc1" / "kc2" -> key (the README's key ids). */
static pqt_status retriever(void *ctx, const uint8_t *km, size_t n, const char *column_path, uint8_t *key,
                            size_t *key_len, pqt_error *err) {
  const keys *k = ctx;
  (void)column_path;
  const uint8_t *p = n == 2 && memcmp(km, "kf", 2) == 0    ? k->footer
                     : n == 3 && memcmp(km, "kc1", 3) == 0 ? k->dbl
                     : n == 3 && memcmp(km, "kc2", 3) == 0 ? k->flt
                                                           : NULL;
  if (!p) return pqt_error_set(err, PQT_ECRYPTO, "unknown key id");
  memcpy(key, p, 16);
  *key_len = 16;
  return PQT_OK;
}

static pqt_status discard(void *ctx, const char *d, size_t n) {
  (void)ctx, (void)d, (void)n;
  return PQT_OK;
}

typedef enum outcome { OPEN_FAILED, VERIFY_FAILED, PROBLEMS, UNCHECKED, SOUND } outcome;

/* Open the image and verify it; *code: the open's or verify's status. */
static outcome verify_image(const uint8_t *img, size_t len, const pqt_read_options *o, pqt_status *code,
                            pqt_verify_report *rep) {
  pqt_reader *r;
  pqt_error e;
  pqt_error_init(&e);
  pqt_verify_report_init(rep);
  *code = pqt_reader_open_buffer(&r, img, len, o, &e);
  if (*code != PQT_OK) return OPEN_FAILED;
  *code = pqt_reader_verify_ex(r, discard, NULL, rep, &e);
  pqt_reader_close(r);
  if (*code != PQT_OK) return VERIFY_FAILED;
  return rep->problems ? PROBLEMS : rep->unchecked ? UNCHECKED : SOUND;
}

/* Read every column of the image as text. */
static pqt_status read_image(const uint8_t *img, size_t len, const pqt_read_options *o) {
  pqt_reader *r;
  pqt_error e;
  pqt_status st = pqt_reader_open_buffer(&r, img, len, o, &e);
  if (st != PQT_OK) return st;
  st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, discard, NULL, &e);
  pqt_reader_close(r);
  return st;
}

/* A byte range of the file [lo, hi). */
typedef struct range {
  uint64_t lo, hi;
} range;

#define MAX_RANGES 64
typedef struct ranges {
  range r[MAX_RANGES];
  int n;
} ranges;

static void add_range(ranges *s, uint64_t lo, uint64_t hi) {
  if (s->n < MAX_RANGES && hi > lo) s->r[s->n++] = (range){lo, hi};
}

static bool in_ranges(const ranges *s, uint64_t at) {
  for (int i = 0; i < s->n; i++)
    if (at >= s->r[i].lo && at < s->r[i].hi) return true;
  return false;
}

/* The bytes a flip of which no reader can notice, by the format's design:
 * FileCryptoMetaData.key_metadata of an encrypted footer (plaintext,
 * unauthenticated, unused when the footer key is given) and, for columns
 * left unencrypted, their pages and page index (plaintext, no CRC in these
 * files). */
static void unprotected(const uint8_t *img, size_t len, const pqt_read_options *o, ranges *out) {
  out->n = 0;
  pqt_reader *r;
  pqt_error e;
  CHECK_OK(pqt_reader_open_buffer(&r, img, len, o, &e));
  if (!r) return;
  if (r->crypto && r->crypto->encrypted_footer) {
    pqt_arena arena;
    pqt_arena_init(&arena, NULL);
    pqt_file_crypto_metadata fcm;
    CHECK_OK(pqt_thrift_decode(&pqt_desc_file_crypto_metadata, r->footer, r->footer_len, NULL, &arena, &fcm, &e));
    if (PQT_HAS_FIELD(&fcm, file_crypto_metadata, key_metadata)) {
      uint64_t at = (uint64_t)(fcm.key_metadata.ptr - img);
      add_range(out, at, at + (uint64_t)fcm.key_metadata.len);
    }
    pqt_arena_reset(&arena);
  }
  for (int32_t g = 0; g < r->md.row_groups.n; g++)
    for (int32_t c = 0; c < r->md.row_groups.items[g].columns.n; c++) {
      const pqt_column_chunk *cc = &r->md.row_groups.items[g].columns.items[c];
      if (PQT_HAS_FIELD(cc, column_chunk, crypto_metadata)) continue;
      pqt_chunk ch;
      CHECK_OK(pqt_chunk_open(r, g, c, &ch, &e));
      add_range(out, ch.start, ch.start + ch.len);
      if (PQT_HAS_FIELD(cc, column_chunk, offset_index_offset))
        add_range(out, (uint64_t)cc->offset_index_offset,
                  (uint64_t)cc->offset_index_offset + (uint64_t)cc->offset_index_length);
      if (PQT_HAS_FIELD(cc, column_chunk, column_index_offset))
        add_range(out, (uint64_t)cc->column_index_offset,
                  (uint64_t)cc->column_index_offset + (uint64_t)cc->column_index_length);
      CHECK(!PQT_HAS_FIELD(ch.cm, column_metadata,
                           bloom_filter_offset)); /* no plaintext Bloom filters in the files flipped whole */
      pqt_chunk_close(&ch);
    }
  pqt_reader_close(r);
}

/* Flip bit 0 of every byte of the file in turn: verify must not call the
 * result sound unless the byte is in `skip`; reading must fail cleanly or
 * succeed. Returns the flips that went unnoticed. */
static int flip_all(const char *name, uint8_t *img, size_t len, const pqt_read_options *o, const ranges *skip) {
  int undetected = 0, read_failed = 0, flips = 0;
  for (size_t at = 0; at < len; at++) {
    if (in_ranges(skip, at)) continue;
    flips++;
    img[at] ^= 0x01;
    pqt_status code;
    pqt_verify_report rep;
    outcome out = verify_image(img, len, o, &code, &rep);
    if (out == SOUND || out == UNCHECKED) {
      if (undetected++ < 20) fprintf(stderr, "%s: flip at %zu of %zu unnoticed (outcome %d)\n", name, at, len, out);
    }
    CHECK_MSG(out != VERIFY_FAILED || code == PQT_ENOMEM, "%s: flip at %zu: verify failed with %d", name, at, code);
    pqt_status rs = read_image(img, len, o);
    CHECK_MSG(rs == PQT_OK || rs == PQT_ECRYPTO || rs == PQT_ECORRUPT || rs == PQT_EUNSUPPORTED || rs == PQT_ELIMIT,
              "%s: flip at %zu: read status %d", name, at, rs);
    read_failed += rs != PQT_OK;
    img[at] ^= 0x01;
  }
  printf("%s: %d of its %zu bytes flipped, %d unnoticed by verify, %d failed the read\n", name, flips, len, undetected,
         read_failed);
  return undetected;
}

/* The corpus file `name` (NULL, a failed check, when it cannot be read)
 * and in *k the keys that open it, with which verify finds it sound (its
 * report in *rep). */
static uint8_t *load_sound(const char *name, size_t *len, keys *k, pqt_verify_report *rep) {
  uint8_t *img = pqt_test_read_file(data_file(name), len);
  CHECK(img != NULL);
  if (!img) return NULL;
  make_keys(k);
  pqt_status code;
  CHECK_EQ_INT(verify_image(img, *len, &k->o, &code, rep), SOUND);
  return img;
}

static void test_flip_every_byte_uniform(void) {
  if (!g_dir) return;
  const char *name = "uniform_encryption.parquet.encrypted";
  size_t len;
  keys k;
  pqt_verify_report rep;
  uint8_t *img = load_sound(name, &len, &k, &rep);
  if (!img) return;
  pqt_status code;
  CHECK_EQ_INT(rep.chunks_checked, 8);
  ranges skip;
  unprotected(img, len, &k.o, &skip);
  CHECK_EQ_INT(skip.n, 1); /* every column encrypted: only the footer's key metadata */
  CHECK_EQ_INT(flip_all(name, img, len, &k.o, &skip), 0);
  /* the key metadata matters when keys are looked up by it: a flip there is
   * then noticed too (no key for "kg") */
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.key_retriever = retriever;
  ro.key_retriever_ctx = &k;
  CHECK_EQ_INT(verify_image(img, len, &ro, &code, &rep), SOUND);
  if (skip.n == 1) {
    img[skip.r[0].lo + 1] ^= 0x01;
    CHECK_EQ_INT(verify_image(img, len, &ro, &code, &rep), OPEN_FAILED);
    CHECK_EQ_INT(code, PQT_ECRYPTO);
    img[skip.r[0].lo + 1] ^= 0x01;
  }
  free(img);
}

/* Two columns with their own keys, the footer encrypted, the rest plain. */
static void test_flip_every_encrypted_byte_column_keys(void) {
  if (!g_dir) return;
  const char *name = "encrypt_columns_and_footer.parquet.encrypted";
  size_t len;
  keys k;
  pqt_verify_report rep;
  uint8_t *img = load_sound(name, &len, &k, &rep);
  if (!img) return;
  ranges skip;
  unprotected(img, len, &k.o, &skip);
  CHECK(skip.n > 1);
  CHECK_EQ_INT(flip_all(name, img, len, &k.o, &skip), 0);
  free(img);
}

/* Plaintext footer, signed: every byte of the footer and of the two
 * encrypted columns' modules. */
static void test_flip_every_protected_byte_plaintext_footer(void) {
  if (!g_dir) return;
  const char *name = "encrypt_columns_plaintext_footer.parquet.encrypted";
  size_t len;
  keys k;
  pqt_verify_report rep;
  uint8_t *img = load_sound(name, &len, &k, &rep);
  if (!img) return;
  CHECK_EQ_INT(rep.chunks_checked, 8);
  ranges skip;
  unprotected(img, len, &k.o, &skip);
  CHECK(skip.n > 1);
  CHECK_EQ_INT(flip_all(name, img, len, &k.o, &skip), 0);
  free(img);
}

/* The Bloom filter, column index and offset index modules of the
 * encrypted columns of the Bloom filter file: a flip in any is reported by
 * verify (reading rows never touches them). Every byte of the index
 * modules and of the Bloom filter headers, every 7th of the bitsets. */
static void test_flip_bloom_and_index_modules(void) {
  if (!g_dir) return;
  const char *name = "encrypt_columns_and_footer_bloom_filter.parquet.encrypted";
  size_t len;
  keys k;
  pqt_verify_report rep;
  uint8_t *img = load_sound(name, &len, &k, &rep);
  if (!img) return;
  pqt_status code;
  pqt_reader *r;
  pqt_error e;
  CHECK_OK(pqt_reader_open_buffer(&r, img, len, &k.o, &e));
  if (!r) {
    free(img);
    return;
  }
  int modules = 0, flips = 0, unnoticed = 0;
  for (int32_t c = 0; c < r->md.row_groups.items[0].columns.n; c++) {
    const pqt_column_chunk *cc = &r->md.row_groups.items[0].columns.items[c];
    if (!PQT_HAS_FIELD(cc, column_chunk, crypto_metadata)) continue;
    const pqt_column_metadata *cm = &cc->meta_data;
    CHECK(PQT_HAS_FIELD(cc, column_chunk, offset_index_offset) &&
          PQT_HAS_FIELD(cc, column_chunk, column_index_offset) &&
          PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset));
    if (!PQT_HAS_FIELD(cc, column_chunk, offset_index_offset) ||
        !PQT_HAS_FIELD(cc, column_chunk, column_index_offset) ||
        !PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset))
      continue;
    uint64_t bloom = (uint64_t)cm->bloom_filter_offset;
    CHECK(bloom + 8 < len);
    if (bloom + 8 >= len) continue;
    uint64_t header_end = bloom + 4 + pqt_load_u32le(img + bloom); /* the header module */
    CHECK(header_end + 4 < len);
    if (header_end + 4 >= len) continue;
    uint64_t bitset_end = header_end + 4 + pqt_load_u32le(img + header_end);
    CHECK(bitset_end <= len);
    struct {
      uint64_t lo, hi;
      int step;
    } mods[] = {
        {(uint64_t)cc->column_index_offset, (uint64_t)cc->column_index_offset + (uint64_t)cc->column_index_length, 1},
        {(uint64_t)cc->offset_index_offset, (uint64_t)cc->offset_index_offset + (uint64_t)cc->offset_index_length, 1},
        {bloom, header_end, 1},
        {header_end, bitset_end < len ? bitset_end : len, 7}};
    for (size_t m = 0; m < sizeof mods / sizeof *mods; m++) {
      modules++;
      for (uint64_t at = mods[m].lo; at < mods[m].hi; at += (uint64_t)mods[m].step) {
        flips++;
        img[at] ^= 0x01;
        outcome out = verify_image(img, len, &k.o, &code, &rep);
        if (out != PROBLEMS && unnoticed++ < 20)
          fprintf(stderr, "%s: column %d, module %zu: flip at %llu: outcome %d\n", name, c, m, (unsigned long long)at,
                  out);
        img[at] ^= 0x01;
      }
    }
  }
  pqt_reader_close(r);
  printf("%s: %d flips in %d modules, %d unnoticed\n", name, flips, modules, unnoticed);
  CHECK_EQ_INT(modules, 8); /* double_field and float_field: column index, offset index, filter header and bitset */
  CHECK_EQ_INT(unnoticed, 0);
  free(img);
}

/* Swap the first two data pages (each with its header) of an encrypted
 * chunk: each page header's AAD holds its page ordinal, so reading fails
 * at the first page and verify reports it. The Bloom filter file's
 * double_field chunk has three encrypted data pages (the other encrypted
 * files of the corpus have one data page per chunk). */
static void test_swap_pages(void) {
  if (!g_dir) return;
  const char *name = "encrypt_columns_and_footer_bloom_filter.parquet.encrypted";
  size_t len;
  uint8_t *img = pqt_test_read_file(data_file(name), &len);
  CHECK(img != NULL);
  if (!img) return;
  keys k;
  make_keys(&k);
  /* the page boundaries, as the page reader finds them */
  pqt_reader *r;
  pqt_error e;
  CHECK_OK(pqt_reader_open_buffer(&r, img, len, &k.o, &e));
  uint64_t at[3] = {0, 0, 0};
  int n = 0;
  int32_t leaf = -1;
  for (int32_t c = 0; r && c < r->schema->n_leaves; c++)
    if (strcmp(r->schema->leaves[c]->dotted_path, "double_field") == 0) leaf = c;
  CHECK(leaf >= 0);
  if (r && leaf >= 0) {
    pqt_chunk ch;
    CHECK_OK(pqt_chunk_open(r, 0, leaf, &ch, &e));
    CHECK(ch.encrypted);
    pqt_page_reader_options po;
    pqt_chunk_page_options(r, &ch, &po);
    pqt_page_reader pr;
    CHECK_OK(pqt_page_reader_init(&pr, &r->io, ch.start, ch.len, ch.cm->codec, r->codec_ctx, &po, NULL, &e));
    for (;;) {
      pqt_page pg;
      bool eof;
      pqt_status ps = pqt_page_reader_next(&pr, &pg, &eof, &e);
      CHECK_EQ_INT(ps, PQT_OK);
      if (ps != PQT_OK || eof) break;
      if (pg.type == PQT_PAGE_DICTIONARY) continue;
      if (n < 3) at[n] = pg.file_offset;
      if (++n == 3) break;
    }
    pqt_page_reader_free(&pr);
    pqt_chunk_close(&ch);
  }
  pqt_reader_close(r);
  CHECK_EQ_INT(n, 3);
  if (n != 3) {
    free(img);
    return;
  }
  /* [p0][p1] -> [p1][p0] */
  size_t l0 = (size_t)(at[1] - at[0]), l1 = (size_t)(at[2] - at[1]);
  uint8_t *copy = malloc(len);
  CHECK(copy != NULL);
  if (!copy) {
    free(img);
    return;
  }
  memcpy(copy, img, len);
  memcpy(copy + at[0], img + at[1], l1);
  memcpy(copy + at[0] + l1, img + at[0], l0);
  CHECK(memcmp(copy, img, len) != 0);
  pqt_status code;
  pqt_verify_report rep;
  CHECK_EQ_INT(verify_image(img, len, &k.o, &code, &rep), SOUND);
  CHECK_EQ_INT(verify_image(copy, len, &k.o, &code, &rep), PROBLEMS);
  CHECK_EQ_INT(read_image(copy, len, &k.o), PQT_ECRYPTO);
  free(copy);
  free(img);
}

/* Without a column's key its chunks are listed as not checked and
 * counted apart, never as sound; pqt_reader_verify counts them as
 * problems. With every key, everything is checked, the encrypted Bloom
 * filters and page indexes included. */
static void test_unchecked_without_keys(void) {
  if (!g_dir) return;
  keys k;
  make_keys(&k);
  k.o.n_column_keys = 0; /* footer key only */
  pqt_reader *r;
  pqt_error e;
  CHECK_OK(pqt_reader_open_file(&r, data_file("encrypt_columns_and_footer.parquet.encrypted"), &k.o, &e));
  if (!r) return;
  pqt_test_text t = {0};
  pqt_verify_report rep;
  pqt_verify_report_init(&rep);
  CHECK_OK(pqt_reader_verify_ex(r, pqt_test_collect, &t, &rep, &e));
  CHECK_EQ_INT(rep.problems, 0);
  CHECK_EQ_INT(rep.unchecked, 2);
  CHECK_EQ_INT(rep.chunks_checked, 6);
  CHECK(t.p && strstr(t.p, "row group 0, column double_field: not checked: no key for column double_field") != NULL);
  CHECK(t.p && strstr(t.p, "row group 0, column float_field: not checked: no key for column float_field") != NULL);
  free(t.p);
  int64_t problems = -1;
  CHECK_OK(pqt_reader_verify(r, discard, NULL, &problems, &e));
  CHECK_EQ_INT(problems, 2);
  /* a caller that knows only the first fields gets only those */
  struct {
    pqt_verify_report rep;
    int64_t canary;
  } small;
  memset(&small, 0x5A, sizeof small);
  small.rep.struct_size = offsetof(pqt_verify_report, unchecked);
  CHECK_OK(pqt_reader_verify_ex(r, discard, NULL, &small.rep, &e));
  CHECK_EQ_INT(small.rep.problems, 0);
  CHECK(small.rep.unchecked == (int64_t)0x5A5A5A5A5A5A5A5AULL);
  pqt_reader_close(r);
  /* plaintext footer, no keys: the signature and the two columns */
  CHECK_OK(pqt_reader_open_file(&r, data_file("encrypt_columns_plaintext_footer.parquet.encrypted"), NULL, &e));
  if (!r) return;
  pqt_test_text t2 = {0};
  pqt_verify_report_init(&rep);
  CHECK_OK(pqt_reader_verify_ex(r, pqt_test_collect, &t2, &rep, &e));
  CHECK_EQ_INT(rep.problems, 0);
  CHECK_EQ_INT(rep.unchecked, 3);
  CHECK(t2.p && strstr(t2.p, "not checked: the plaintext footer's signature (no footer key)") != NULL);
  free(t2.p);
  pqt_reader_close(r);
  /* every key: everything checked */
  make_keys(&k);
  const char *files[] = {"encrypt_columns_plaintext_footer.parquet.encrypted",
                         "encrypt_columns_and_footer_bloom_filter.parquet.encrypted",
                         "encrypt_columns_and_footer_ctr.parquet.encrypted"};
  for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
    CHECK_OK(pqt_reader_open_file(&r, data_file(files[f]), &k.o, &e));
    if (!r) continue;
    pqt_verify_report_init(&rep);
    CHECK_OK(pqt_reader_verify_ex(r, discard, NULL, &rep, &e));
    CHECK_MSG(rep.problems == 0 && rep.unchecked == 0 && rep.chunks_checked == pqt_reader_num_columns(r), "%s",
              files[f]);
    pqt_reader_close(r);
  }
}

typedef struct losses {
  int n;
  int64_t rows;
  char first[512];
} losses;

static void on_skip(void *ctx, const pqt_error *what, int64_t rows_lost) {
  losses *l = ctx;
  if (l->n++ == 0) snprintf(l->first, sizeof l->first, "%s", what->message);
  l->rows += rows_lost;
}

/* Error recovery (PQT_SKIP_CORRUPT) on encrypted files: a tampered page is
 * damage, lost and reported; a column whose key was not given is not
 * damage: the read fails naming it instead of reading it as lost. */
static void test_recovery_encrypted(void) {
  if (!g_dir) return;
  keys k;
  make_keys(&k);
  losses l = {0, 0, ""};
  k.o.on_error = PQT_SKIP_CORRUPT;
  k.o.on_skip = on_skip;
  k.o.on_skip_ctx = &l;
  size_t len;
  uint8_t *img = pqt_test_read_file(data_file("uniform_encryption.parquet.encrypted"), &len);
  CHECK(img != NULL && len > 3100);
  if (!img || len <= 3100) {
    free(img);
    return;
  }
  /* double_field's data page header module is at 2952 (46 bytes after its
   * length): the page module follows at 3002; flip a ciphertext byte */
  CHECK_EQ_INT(pqt_load_u32le(img + 2952), 46);
  img[3002 + 4 + 12 + 3] ^= 0x01;
  CHECK_EQ_INT(read_image(img, len, &k.o), PQT_OK);
  CHECK_EQ_INT(l.n, 1);
  CHECK_MSG(strstr(l.first, "double_field") && strstr(l.first, "data page: AES-GCM authentication failed"), "%s",
            l.first);
  img[3002 + 4 + 12 + 3] ^= 0x01;
  /* without the double_field key */
  k.o.n_column_keys = 0;
  memset(&l, 0, sizeof l);
  pqt_reader *r;
  pqt_error e;
  CHECK_OK(pqt_reader_open_file(&r, data_file("encrypt_columns_and_footer.parquet.encrypted"), &k.o, &e));
  if (r) {
    pqt_error_init(&e);
    CHECK_EQ_INT(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, discard, NULL, &e), PQT_ECRYPTO);
    CHECK_MSG(strstr(e.message, "float_field") && strstr(e.message, "\"kc2\""), "%s", e.message);
    CHECK_EQ_INT(l.n, 0);
    pqt_reader_close(r);
  }
  free(img);
}

/* A source that cannot lend its bytes (read_at only): the page index and
 * Bloom filter modules verify reads must then live in buffers of their
 * own (ASan watches the views into them). */
typedef struct copy_src {
  const uint8_t *p;
  size_t n;
} copy_src;

static pqt_status copy_read_at(void *pd, uint64_t off, void *dst, size_t n, pqt_error *err) {
  const copy_src *s = pd;
  if (off > s->n || n > s->n - off) return pqt_error_set(err, PQT_EIO, "read past the end");
  memcpy(dst, s->p + off, n);
  return PQT_OK;
}

static outcome verify_without_borrowing(const char *name, const pqt_read_options *o, pqt_verify_report *rep) {
  size_t len;
  uint8_t *img = pqt_test_read_file(data_file(name), &len);
  CHECK(img != NULL);
  if (!img) return OPEN_FAILED;
  copy_src src = {img, len};
  pqt_io io;
  pqt_io_init(&io);
  io.read_at = copy_read_at;
  io.size = len;
  io.private_data = &src;
  pqt_reader *r;
  pqt_error e;
  pqt_verify_report_init(rep);
  outcome out = OPEN_FAILED;
  if (pqt_reader_open(&r, &io, o, &e) == PQT_OK) {
    out = pqt_reader_verify_ex(r, discard, NULL, rep, &e) != PQT_OK ? VERIFY_FAILED
          : rep->problems                                           ? PROBLEMS
          : rep->unchecked                                          ? UNCHECKED
                                                                    : SOUND;
    pqt_reader_close(r);
  }
  free(img);
  return out;
}

static void test_verify_from_a_source_that_cannot_lend(void) {
  if (!g_dir) return;
  keys k;
  make_keys(&k);
  pqt_verify_report rep;
  CHECK_EQ_INT(verify_without_borrowing("encrypt_columns_and_footer_bloom_filter.parquet.encrypted", &k.o, &rep),
               SOUND);
  CHECK_EQ_INT(rep.chunks_checked, 4);
  CHECK_EQ_INT(verify_without_borrowing("uniform_encryption.parquet.encrypted", &k.o, &rep), SOUND);
  /* plaintext page index (column index min/max views) */
  CHECK_EQ_INT(verify_without_borrowing("alltypes_tiny_pages_plain.parquet", NULL, &rep), SOUND);
  CHECK(rep.chunks_checked > 0);
}

static void setup(void) { g_dir = pqt_testing_dir(); }

RUN_TESTS("encrypted_tamper", TEST_CASE(setup), TEST_CASE(test_flip_every_byte_uniform),
          TEST_CASE(test_flip_every_encrypted_byte_column_keys),
          TEST_CASE(test_flip_every_protected_byte_plaintext_footer), TEST_CASE(test_flip_bloom_and_index_modules),
          TEST_CASE(test_swap_pages), TEST_CASE(test_unchecked_without_keys), TEST_CASE(test_recovery_encrypted),
          TEST_CASE(test_verify_from_a_source_that_cannot_lend))
