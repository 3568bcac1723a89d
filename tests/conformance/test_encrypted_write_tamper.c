/*
 * Tampering with encrypted files parquetry wrote is detected by `verify`
 * (pqt_reader_verify_ex) or by opening: a flip of any byte of the file
 * (every 3rd to 7th byte, so every module type: footer or its signature, FileCryptoMetaData, column
 * metadata, page headers, dictionary and data pages, column and offset
 * indexes, Bloom filter headers and bitsets), in AES_GCM_V1 and
 * AES_GCM_CTR_V1 (whose pages are authenticated through the CRC in their
 * GCM-encrypted headers), encrypted and plaintext footers; two pages of a
 * chunk swapped; row groups or column chunks swapped within a file or
 * taken from another file written with the same keys; the footer of a
 * plaintext-footer file replaced by another file's. Never a crash, never
 * "sound".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encrypt_fixture.h"
#include "file/reader_internal.h"
#include "harness.h"
#include "parquetry.h"

typedef enum outcome { OPEN_FAILED, VERIFY_FAILED, PROBLEMS, UNCHECKED, SOUND } outcome;

static pqt_status discard(void *ctx, const char *d, size_t n) {
  (void)ctx, (void)d, (void)n;
  return PQT_OK;
}

static outcome verify_image(const uint8_t *img, size_t len, const pqt_read_options *o, pqt_status *code) {
  pqt_reader *r;
  pqt_error e;
  pqt_error_init(&e);
  pqt_verify_report rep;
  pqt_verify_report_init(&rep);
  *code = pqt_reader_open_buffer(&r, img, len, o, &e);
  if (*code != PQT_OK) return OPEN_FAILED;
  *code = pqt_reader_verify_ex(r, discard, NULL, &rep, &e);
  pqt_reader_close(r);
  if (*code != PQT_OK) return VERIFY_FAILED;
  return rep.problems ? PROBLEMS : rep.unchecked ? UNCHECKED : SOUND;
}

static pqt_status read_image(const uint8_t *img, size_t len, const pqt_read_options *o) {
  pqt_string t;
  pqt_error e;
  pqt_status st = ef_read_text(img, len, o, &t, &e);
  free(t.data);
  return st;
}

/* The fixture file of c, and read options with its keys. */
static uint8_t *write_fixture(ef_cfg c, size_t *len, pqt_read_options *ro, ef_read_keys *rk) {
  pqt_encryption_options eo;
  pqt_column_encryption cols[8];
  ef_encryption(&c, &eo, cols, rk);
  ef_read_options(&c, ro, rk);
  pqt_string out;
  pqt_error e;
  if (ef_write(&c, &out, &e) != 0) {
    fprintf(stderr, "write: %s\n", e.message);
    pqt_string_free(&out);
    return NULL;
  }
  *len = out.len;
  return (uint8_t *)out.data;
}

/* Where the key metadata of an encrypted footer's FileCryptoMetaData is:
 * [*lo, *hi) (0, 0 without one). */
static void fcm_key_metadata(const uint8_t *img, size_t len, size_t *lo, size_t *hi) {
  *lo = *hi = 0;
  if (len < 12 || memcmp(img + len - 4, "PARE", 4) != 0) return;
  size_t flen = pqt_load_u32le(img + len - 8), start = len - 8 - flen;
  /* the fixture's footer key metadata is "kf": find it in FileCryptoMetaData (before the footer module) */
  for (size_t i = start; i + 2 <= len - 8 && i < start + 64; i++)
    if (img[i] == 'k' && img[i + 1] == 'f') {
      *lo = i;
      *hi = i + 2;
      return;
    }
}

/* Flip bit 0 of every `step`-th byte: verify must never call it sound, a read must fail cleanly or succeed. */
static int flip_all(const char *name, uint8_t *img, size_t len, const pqt_read_options *o, size_t step) {
  size_t klo, khi;
  fcm_key_metadata(img, len, &klo, &khi);
  int undetected = 0, flips = 0;
  for (size_t at = 0; at < len; at += step) {
    /* FileCryptoMetaData.key_metadata is not authenticated by design: a flip
     * there is noticed only by a key retriever that looks keys up by it */
    if (at >= klo && at < khi) continue;
    flips++;
    img[at] ^= 0x01;
    pqt_status code;
    outcome out = verify_image(img, len, o, &code);
    if (out == SOUND || out == UNCHECKED) {
      if (undetected++ < 10) fprintf(stderr, "%s: flip at %zu of %zu unnoticed (outcome %d)\n", name, at, len, out);
    }
    CHECK_MSG(out != VERIFY_FAILED || code == PQT_ENOMEM, "%s: flip at %zu: verify failed with %d", name, at, code);
    pqt_status rs = read_image(img, len, o);
    CHECK_MSG(rs == PQT_OK || rs == PQT_ECRYPTO || rs == PQT_ECORRUPT || rs == PQT_EUNSUPPORTED || rs == PQT_ELIMIT,
              "%s: flip at %zu: read status %d", name, at, rs);
    img[at] ^= 0x01;
  }
  printf("%s: %d of its %zu bytes flipped, %d unnoticed\n", name, flips, len, undetected);
  return undetected;
}

static void flip_case(const char *name, ef_cfg c, size_t step) {
  size_t len = 0;
  pqt_read_options ro;
  ef_read_keys rk;
  uint8_t *img = write_fixture(c, &len, &ro, &rk);
  CHECK(img != NULL);
  if (!img) return;
  pqt_status code;
  CHECK_EQ_INT(verify_image(img, len, &ro, &code), SOUND);
  CHECK_EQ_INT(flip_all(name, img, len, &ro, step), 0);
  free(img);
}

/* Every 3rd byte (a stride that lands in every module): GCM, encrypted footer, a key per column, dictionary, page
 * index, Bloom filters. */
static void test_flip_gcm_column_keys(void) {
  ef_cfg c = {PQT_ENCRYPTION_AES_GCM_V1, 0, EF_COLUMN_KEYS, EF_AAD_STORED, 0, 1, 1, 1, 16, 120, 60, 25};
  flip_case("gcm/encrypted footer/column keys", c, 3);
}

/* Every 5th byte. CTR pages (no tag): the CRC in the authenticated header catches them. Plaintext footer, v2 pages. */
static void test_flip_ctr_plaintext_footer(void) {
  ef_cfg c = {PQT_ENCRYPTION_AES_GCM_CTR_V1, 1, EF_FOOTER_ONLY, EF_AAD_SUPPLIED, 1, 1, 1, 1, 32, 120, 60, 25};
  flip_case("ctr/plaintext footer/footer key", c, 5);
}

/* Every 7th byte: CTR, encrypted footer, column keys, v1, no dictionary. */
static void test_flip_ctr_column_keys(void) {
  ef_cfg c = {PQT_ENCRYPTION_AES_GCM_CTR_V1, 0, EF_COLUMN_KEYS, EF_AAD_NONE, 0, 0, 1, 1, 24, 120, 60, 25};
  flip_case("ctr/encrypted footer/column keys", c, 7);
}

/* ---- swaps: a two-column file whose row groups hold the same values ---- */

/* v: i % 50, s: "s" + (i % 50): every row group of 50 rows is the same data,
 * and without CRCs (the varint size of a CRC over ciphertext varies) every
 * chunk of a column has the same size in every file. */
static uint8_t *write_swappable(int plaintext_footer, size_t *len) {
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.defaults.page_row_limit = 10; /* 5 pages per chunk */
  wo.defaults.crc = 0;
  wo.defaults.dictionary = 0;
  wo.defaults.bloom_filter = 1;
  wo.defaults.bloom_ndv = 64;
  pqt_encryption_options eo;
  pqt_encryption_options_init(&eo);
  eo.footer_key = (const uint8_t *)ef_footer_key;
  eo.footer_key_len = 16;
  eo.plaintext_footer = plaintext_footer;
  pqt_column_encryption cols[1] = {{"s", (const uint8_t *)ef_col_key[0], 16, NULL, 0}};
  eo.columns = cols;
  eo.n_columns = 1; /* s with its own key, v plain */
  wo.encryption = &eo;
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message = "message m { required int64 v; required binary s (STRING); }";
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  if (pqt_writer_open_buffer(&w, &out, &ws, &wo, &e) != PQT_OK) return NULL;
  int64_t v[50];
  char txt[50 * 4];
  int32_t off[51];
  size_t tl = 0;
  off[0] = 0;
  for (int i = 0; i < 50; i++) {
    v[i] = i;
    tl += (size_t)sprintf(txt + tl, "s%02d", i);
    off[i + 1] = (int32_t)tl;
  }
  pqt_status st = PQT_OK;
  for (int g = 0; g < 3 && st == PQT_OK; g++) {
    st = pqt_writer_write_column(w, 0, 50, NULL, NULL, v, NULL, 50, &e);
    if (st == PQT_OK) st = pqt_writer_write_column(w, 1, 50, NULL, NULL, txt, off, 50, &e);
    if (st == PQT_OK) st = pqt_writer_flush_row_group(w, &e);
  }
  if (st != PQT_OK) {
    pqt_writer_discard(w);
    pqt_string_free(&out);
    return NULL;
  }
  if (pqt_writer_close(w, &e) != PQT_OK) {
    pqt_string_free(&out);
    return NULL;
  }
  *len = out.len;
  return (uint8_t *)out.data;
}

static void swap_read_options(pqt_read_options *ro, pqt_column_key *ck) {
  pqt_read_options_init(ro);
  ro->footer_key = (const uint8_t *)ef_footer_key;
  ro->footer_key_len = 16;
  *ck = (pqt_column_key){"s", (const uint8_t *)ef_col_key[0], 16};
  ro->column_keys = ck;
  ro->n_column_keys = 1;
}

/* The byte range of chunk (g, c): [*at, *at + *n). */
static bool chunk_range(const uint8_t *img, size_t len, const pqt_read_options *ro, int g, int c, size_t *at,
                        size_t *n) {
  pqt_reader *r;
  pqt_error e;
  if (pqt_reader_open_buffer(&r, img, len, ro, &e) != PQT_OK) return false;
  const pqt_column_metadata *m = &r->md.row_groups.items[g].columns.items[c].meta_data;
  *at = (size_t)(PQT_HAS_FIELD(m, column_metadata, dictionary_page_offset) ? m->dictionary_page_offset
                                                                           : m->data_page_offset);
  *n = (size_t)m->total_compressed_size;
  pqt_reader_close(r);
  return *at + *n <= len;
}

static void swap_bytes(uint8_t *img, size_t a, size_t b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint8_t t = img[a + i];
    img[a + i] = img[b + i];
    img[b + i] = t;
  }
}

/* Expect tampering noticed: not sound; reading fails cleanly. */
static void expect_noticed(const char *what, const uint8_t *img, size_t len, const pqt_read_options *ro) {
  pqt_status code;
  outcome out = verify_image(img, len, ro, &code);
  CHECK_MSG(out == PROBLEMS || out == OPEN_FAILED, "%s: outcome %d (code %d)", what, out, code);
  pqt_status rs = read_image(img, len, ro);
  CHECK_MSG(rs == PQT_ECRYPTO || rs == PQT_ECORRUPT, "%s: read gave %d", what, rs);
}

static void test_swap_pages(void) {
  size_t len;
  uint8_t *img = write_swappable(0, &len);
  CHECK(img != NULL);
  if (!img) return;
  pqt_read_options ro;
  pqt_column_key ck;
  swap_read_options(&ro, &ck);
  pqt_status code;
  CHECK_EQ_INT(verify_image(img, len, &ro, &code), SOUND);
  size_t at = 0, n = 0;
  CHECK(chunk_range(img, len, &ro, 1, 1, &at, &n));
  /* pages: header module, page module, each with its 4-byte length */
  size_t p0 = at, h0 = pqt_load_u32le(img + p0), b0 = pqt_load_u32le(img + p0 + 4 + h0), p1 = p0 + 8 + h0 + b0;
  size_t h1 = pqt_load_u32le(img + p1), b1 = pqt_load_u32le(img + p1 + 4 + h1), p2 = p1 + 8 + h1 + b1;
  CHECK(p2 <= at + n);
  CHECK_EQ_INT((long long)(p1 - p0), (long long)(p2 - p1)); /* same values: same size */
  uint8_t *t = malloc(len);
  memcpy(t, img, len);
  swap_bytes(t, p0, p1, p1 - p0);
  expect_noticed("pages 0 and 1 swapped", t, len, &ro);
  /* the data page module alone, or the header alone */
  memcpy(t, img, len);
  swap_bytes(t, p0 + 4 + h0, p1 + 4 + h1, 4 + b0);
  expect_noticed("page bodies swapped", t, len, &ro);
  memcpy(t, img, len);
  swap_bytes(t, p0, p1, 4 + h0);
  expect_noticed("page headers swapped", t, len, &ro);
  free(t);
  free(img);
}

static void test_swap_row_groups_and_chunks(void) {
  for (int pf = 0; pf <= 1; pf++) {
    size_t la, lb;
    uint8_t *a = write_swappable(pf, &la), *b = write_swappable(pf, &lb);
    CHECK(a && b && la == lb);
    if (!a || !b || la != lb) {
      free(a), free(b);
      return;
    }
    pqt_read_options ro;
    pqt_column_key ck;
    swap_read_options(&ro, &ck);
    size_t a0 = 0, n0 = 0, a1 = 0, n1 = 0, b1 = 0, m1 = 0;
    CHECK(chunk_range(a, la, &ro, 0, 1, &a0, &n0) && chunk_range(a, la, &ro, 1, 1, &a1, &n1) &&
          chunk_range(b, lb, &ro, 1, 1, &b1, &m1));
    CHECK(n0 == n1 && n1 == m1 && a1 == b1);
    uint8_t *t = malloc(la);
    /* row groups 0 and 1 of the encrypted column swapped in one file */
    memcpy(t, a, la);
    swap_bytes(t, a0, a1, n0);
    expect_noticed(pf ? "pf: row groups swapped" : "row groups swapped", t, la, &ro);
    /* row group 1's chunk from another file with the same keys */
    memcpy(t, a, la);
    memcpy(t + a1, b + b1, n1);
    expect_noticed(pf ? "pf: chunk from another file" : "chunk from another file", t, la, &ro);
    /* whole row group 1 (both columns, the plain one too) from the other file */
    size_t v1 = 0, vn = 0;
    CHECK(chunk_range(a, la, &ro, 1, 0, &v1, &vn));
    memcpy(t, a, la);
    memcpy(t + v1, b + v1, vn);
    memcpy(t + a1, b + a1, n1);
    expect_noticed(pf ? "pf: row group from another file" : "row group from another file", t, la, &ro);
    /* the footer (and its signature) of the other file */
    if (pf) {
      size_t fa = pqt_load_u32le(a + la - 8), fb = pqt_load_u32le(b + lb - 8);
      CHECK_EQ_INT((long long)fa, (long long)fb);
      memcpy(t, a, la);
      memcpy(t + la - 8 - fa, b + lb - 8 - fb, fb);
      pqt_status code;
      /* the footer is genuine (its signature holds), but it names the other file's aad_file_unique */
      outcome out = verify_image(t, la, &ro, &code);
      CHECK_MSG(out == PROBLEMS || out == OPEN_FAILED, "footer replaced: outcome %d", out);
      pqt_status rs = read_image(t, la, &ro);
      CHECK_MSG(rs == PQT_ECRYPTO, "footer replaced: read gave %d", rs);
      /* a footer edited in place keeps a signature that no longer matches */
      memcpy(t, a, la);
      size_t start = la - 8 - fa;
      bool edited = false;
      for (size_t i = start; !edited && i + 9 < la - 8; i++)
        if (memcmp(t + i, "parquetry", 9) == 0) t[i] = 'P', edited = true; /* created_by */
      CHECK(edited);
      CHECK_EQ_INT(verify_image(t, la, &ro, &code), OPEN_FAILED);
      CHECK_EQ_INT(code, PQT_ECRYPTO);
    }
    free(t);
    free(a);
    free(b);
  }
}

RUN_TESTS("encrypted_write_tamper", TEST_CASE(test_flip_gcm_column_keys), TEST_CASE(test_flip_ctr_plaintext_footer),
          TEST_CASE(test_flip_ctr_column_keys), TEST_CASE(test_swap_pages), TEST_CASE(test_swap_row_groups_and_chunks))
