/*
 * The writer's encryption (spec "Parquet Modular Encryption"): files written
 * under the matrix algorithm (AES_GCM_V1, AES_GCM_CTR_V1) x footer
 * (encrypted, plaintext) x keys (footer key only, a key per column, some
 * columns plain) x AAD prefix (none, stored, supplied) x pages v1/v2 x
 * dictionary x page index x Bloom filters, key sizes 16/24/32 in turn, are
 * read back by our reader with the keys and give the rows of the same data
 * written in plaintext; `verify` finds every chunk sound and nothing
 * unchecked; no plaintext of an encrypted column is in the file; a
 * plaintext footer shows no statistics of encrypted columns. Then the
 * clean errors: wrong or missing footer key, column key, AAD prefix; bad
 * writer options; no key in any message; no key left in freed memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encrypt_fixture.h"
#include "harness.h"
#include "parquetry.h"

static bool has_bytes(const char *hay, size_t n, const char *needle) {
  size_t k = strlen(needle);
  for (size_t i = 0; i + k <= n; i++)
    if (memcmp(hay + i, needle, k) == 0) return true;
  return false;
}

static pqt_status discard_text(void *ctx, const char *d, size_t n) {
  (void)ctx, (void)d, (void)n;
  return PQT_OK;
}

/* No key of the fixture in an error message. */
static void check_no_key(const pqt_error *e) {
  CHECK_MSG(!strstr(e->message, "footer-key-0123") && !strstr(e->message, "col-key-"), "a key in: %s", e->message);
}

static const char *cfg_name(const ef_cfg *c, char *buf, size_t n) {
  static const char *const keys[] = {"footer-key", "column-keys", "some-plain"};
  static const char *const aad[] = {"no-aad", "aad-stored", "aad-supplied"};
  snprintf(buf, n, "%s %s %s %s v%d dict=%d pidx=%d bloom=%d key=%zu",
           c->algorithm == PQT_ENCRYPTION_AES_GCM_V1 ? "GCM" : "GCM_CTR",
           c->plaintext_footer ? "plain-footer" : "enc-footer", keys[c->keys], aad[c->aad], c->v2 ? 2 : 1, c->dict,
           c->page_index, c->bloom, c->key_len);
  return buf;
}

static void test_matrix(void) {
  int n_cfg = 0;
  for (int feat = 0; feat < 16; feat++) {
    ef_cfg base = {0};
    base.v2 = feat & 1;
    base.dict = (feat >> 1) & 1;
    base.page_index = (feat >> 2) & 1;
    base.bloom = (feat >> 3) & 1;
    base.key_len = 16;
    pqt_error e;
    pqt_error_init(&e);
    pqt_string plain;
    if (ef_write(&base, &plain, &e) != 0) {
      CHECK_MSG(0, "plaintext write failed: %s", e.message);
      return;
    }
    pqt_read_options ro0;
    pqt_read_options_init(&ro0);
    pqt_string ref;
    CHECK_OK(ef_read_text(plain.data, plain.len, &ro0, &ref, &e));
    CHECK(ref.len > 1000);
    for (int alg = 1; alg <= 2; alg++)
      for (int pf = 0; pf <= 1; pf++)
        for (int keys = 0; keys <= 2; keys++)
          for (int aad = 0; aad <= 2; aad++) {
            ef_cfg c = base;
            c.algorithm = alg;
            c.plaintext_footer = pf;
            c.keys = keys;
            c.aad = aad;
            c.key_len = (size_t)(16 + 8 * (n_cfg % 3));
            n_cfg++;
            char name[160];
            cfg_name(&c, name, sizeof name);
            pqt_string img;
            pqt_error_init(&e);
            if (ef_write(&c, &img, &e) != 0) {
              CHECK_MSG(0, "%s: write failed: %s", name, e.message);
              pqt_string_free(&img);
              continue;
            }
            const char *magic = pf ? "PAR1" : "PARE";
            CHECK_MSG(img.len > 8 && memcmp(img.data, magic, 4) == 0 && memcmp(img.data + img.len - 4, magic, 4) == 0,
                      "%s: magic", name);
            /* nothing of the encrypted columns in plaintext (name is encrypted in every configuration) */
            CHECK_MSG(!has_bytes(img.data, img.len, "name-13"), "%s: plaintext of column name in the file", name);
            if (keys != EF_SOME_PLAIN)
              CHECK_MSG(!has_bytes(img.data, img.len, "b1234"), "%s: plaintext of column s.b in the file", name);
            ef_read_keys rk;
            pqt_encryption_options eo;
            pqt_column_encryption cols[8];
            ef_encryption(&c, &eo, cols, &rk);
            pqt_read_options ro;
            ef_read_options(&c, &ro, &rk);
            pqt_string got;
            pqt_status st = ef_read_text(img.data, img.len, &ro, &got, &e);
            CHECK_MSG(st == PQT_OK, "%s: read: %s", name, e.message);
            CHECK_MSG(st != PQT_OK || (got.len == ref.len && memcmp(got.data, ref.data, ref.len) == 0),
                      "%s: rows differ from the plaintext file's", name);
            free(got.data);
            /* verify: every chunk checked and sound */
            pqt_reader *r;
            if (pqt_reader_open_buffer(&r, img.data, img.len, &ro, &e) == PQT_OK) {
              pqt_verify_report rep;
              pqt_verify_report_init(&rep);
              CHECK_OK(pqt_reader_verify_ex(r, discard_text, NULL, &rep, &e));
              CHECK_MSG(rep.problems == 0 && rep.unchecked == 0 && rep.chunks_checked == 3 * EF_LEAVES,
                        "%s: verify: %lld problems, %lld unchecked, %lld chunks", name, (long long)rep.problems,
                        (long long)rep.unchecked, (long long)rep.chunks_checked);
              pqt_reader_close(r);
            } else {
              CHECK_MSG(0, "%s: open: %s", name, e.message);
            }
            /* a plaintext footer opens without keys and shows no statistics of encrypted columns */
            if (pf && aad != EF_AAD_SUPPLIED) {
              pqt_read_options none;
              pqt_read_options_init(&none);
              if (pqt_reader_open_buffer(&r, img.data, img.len, &none, &e) == PQT_OK) {
                pqt_string js = {0};
                CHECK_OK(pqt_reader_metadata_json(r, 0, &js, &e));
                if (keys != EF_SOME_PLAIN)
                  CHECK_MSG(js.data && !strstr(js.data, "statistics"), "%s: statistics in the plaintext footer", name);
                else
                  CHECK_MSG(js.data && strstr(js.data, "\"statistics\""), "%s: plaintext columns lost statistics",
                            name);
                CHECK_MSG(js.data && strstr(js.data, "encrypted_column_metadata"), "%s: no encrypted_column_metadata",
                          name);
                pqt_string_free(&js);
                pqt_string t = {0};
                st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, ef_collect, &t, &e);
                CHECK_MSG(st == PQT_ECRYPTO, "%s: reading encrypted columns without keys gave %d", name, st);
                check_no_key(&e);
                free(t.data);
                pqt_reader_close(r);
              } else {
                CHECK_MSG(0, "%s: a plaintext footer did not open without keys: %s", name, e.message);
              }
            }
            pqt_string_free(&img);
          }
    free(ref.data);
    pqt_string_free(&plain);
  }
  CHECK_EQ_INT(n_cfg, 16 * 36);
}

/* The file of cfg, written; NULL on failure. */
static pqt_string write_cfg(const ef_cfg *c) {
  pqt_string img;
  pqt_error e;
  pqt_error_init(&e);
  if (ef_write(c, &img, &e) != 0) {
    fprintf(stderr, "write: %s\n", e.message);
    pqt_string_free(&img);
    memset(&img, 0, sizeof img);
  }
  return img;
}

/* The file of cfg, written (img.data NULL on failure), and in *rk the
 * column keys that read it (they point at static strings only). */
static pqt_string write_cfg_keys(const ef_cfg *c, ef_read_keys *rk) {
  pqt_encryption_options eo;
  pqt_column_encryption cols[8];
  ef_encryption(c, &eo, cols, rk);
  return write_cfg(c);
}

static pqt_status read_with(const pqt_string *img, const pqt_read_options *ro, pqt_error *e) {
  pqt_string t;
  pqt_error_init(e);
  pqt_status st = ef_read_text(img->data, img->len, ro, &t, e);
  free(t.data);
  return st;
}

static void test_key_errors(void) {
  for (int pf = 0; pf <= 1; pf++) {
    ef_cfg c = {PQT_ENCRYPTION_AES_GCM_V1, pf, EF_COLUMN_KEYS, EF_AAD_NONE, 0, 1, 1, 1, 16, 0, 0, 0};
    ef_read_keys rk;
    pqt_string img = write_cfg_keys(&c, &rk);
    CHECK(img.data != NULL);
    if (!img.data) return;
    pqt_read_options ro;
    pqt_error e;
    /* no key at all */
    pqt_read_options_init(&ro);
    pqt_status st = read_with(&img, &ro, &e);
    CHECK_MSG(st == PQT_ECRYPTO, "pf=%d no keys: %d %s", pf, st, e.message);
    check_no_key(&e);
    /* wrong footer key */
    ef_read_options(&c, &ro, &rk);
    ro.footer_key = (const uint8_t *)"wrong-key-0123456789";
    st = read_with(&img, &ro, &e);
    CHECK_MSG(st == PQT_ECRYPTO, "pf=%d wrong footer key: %d %s", pf, st, e.message);
    check_no_key(&e);
    /* footer key, no column keys */
    ef_read_options(&c, &ro, &rk);
    ro.n_column_keys = 0;
    ro.column_keys = NULL;
    st = read_with(&img, &ro, &e);
    CHECK_MSG(st == PQT_ECRYPTO && strstr(e.message, "id"), "pf=%d no column key: %d %s", pf, st, e.message);
    check_no_key(&e);
    /* a wrong column key */
    ef_read_options(&c, &ro, &rk);
    pqt_column_key bad[8];
    memcpy(bad, rk.ck, sizeof bad);
    bad[2].key = (const uint8_t *)ef_col_key[3];
    ro.column_keys = bad;
    st = read_with(&img, &ro, &e);
    CHECK_MSG(st == PQT_ECRYPTO && strstr(e.message, "authentication"), "pf=%d wrong column key: %d %s", pf, st,
              e.message);
    check_no_key(&e);
    pqt_string_free(&img);
  }
}

static void test_aad_errors(void) {
  for (int pf = 0; pf <= 1; pf++)
    for (int aad = EF_AAD_STORED; aad <= EF_AAD_SUPPLIED; aad++) {
      ef_cfg c = {PQT_ENCRYPTION_AES_GCM_CTR_V1, pf, EF_FOOTER_ONLY, aad, 1, 1, 1, 0, 32, 0, 0, 0};
      ef_read_keys rk;
      pqt_string img = write_cfg_keys(&c, &rk);
      CHECK(img.data != NULL);
      if (!img.data) return;
      pqt_read_options ro;
      pqt_error e;
      ef_read_options(&c, &ro, &rk);
      CHECK_EQ_INT(read_with(&img, &ro, &e), PQT_OK);
      /* stored: the stored one is used without being given */
      if (aad == EF_AAD_SUPPLIED) {
        ro.aad_prefix = NULL;
        ro.aad_prefix_len = 0;
        pqt_status st = read_with(&img, &ro, &e);
        CHECK_MSG(st == PQT_ECRYPTO && strstr(e.message, "AAD prefix"), "pf=%d missing prefix: %d %s", pf, st,
                  e.message);
      }
      ro.aad_prefix = (const uint8_t *)"tables/orders/2026-11-26";
      ro.aad_prefix_len = strlen("tables/orders/2026-11-26");
      pqt_status st = read_with(&img, &ro, &e);
      CHECK_MSG(st == PQT_ECRYPTO, "pf=%d aad=%d wrong prefix: %d %s", pf, aad, st, e.message);
      check_no_key(&e);
      pqt_string_free(&img);
    }
}

static void test_option_errors(void) {
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message = EF_SCHEMA;
  pqt_encryption_options eo;
  pqt_column_encryption cols[2];
  pqt_write_options wo;
  pqt_error e;
  struct {
    const char *what;
    int footer_len;
    const char *path1, *path2;
    size_t col_len;
    int32_t alg;
  } cases[] = {
      {"footer key of 15 bytes", 15, NULL, NULL, 16, 1},   {"no footer key", 0, NULL, NULL, 16, 1},
      {"column key of 17 bytes", 16, "name", NULL, 17, 1}, {"no such column", 16, "nope", NULL, 16, 1},
      {"a column named twice", 16, "s", "s.a", 16, 1},     {"unknown algorithm", 16, NULL, NULL, 16, 3},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    pqt_encryption_options_init(&eo);
    eo.algorithm = cases[i].alg;
    eo.footer_key = cases[i].footer_len ? (const uint8_t *)ef_footer_key : NULL;
    eo.footer_key_len = (size_t)cases[i].footer_len;
    int n = 0;
    if (cases[i].path1)
      cols[n++] = (pqt_column_encryption){cases[i].path1, (const uint8_t *)ef_col_key[0], cases[i].col_len, NULL, 0};
    if (cases[i].path2)
      cols[n++] = (pqt_column_encryption){cases[i].path2, (const uint8_t *)ef_col_key[1], 16, NULL, 0};
    eo.columns = cols;
    eo.n_columns = n;
    pqt_write_options_init(&wo);
    wo.encryption = &eo;
    pqt_string out = {0};
    pqt_writer *w = NULL;
    pqt_error_init(&e);
    pqt_status st = pqt_writer_open_buffer(&w, &out, &ws, &wo, &e);
    CHECK_MSG(st == PQT_EINVAL, "%s: %d", cases[i].what, st);
    CHECK_MSG(e.message[0] != 0, "%s: no message", cases[i].what);
    check_no_key(&e);
    if (st == PQT_OK) pqt_writer_discard(w);
    pqt_string_free(&out);
  }
}

/* An allocator that fails the test when a block freed holds a key. */
static int g_leaks;
static bool holds_key(const void *p, size_t n) {
  const char *needles[] = {"footer-key-0123456789abc", "col-key-A-0123456789abcd", "col-key-B-0123456789abcd",
                           "col-key-E-0123456789abcd"};
  for (int k = 0; k < 4; k++)
    for (size_t i = 0; i + 16 <= n; i++)
      if (memcmp((const char *)p + i, needles[k], 16) == 0) return true;
  return false;
}
static void *scan_realloc(void *ctx, void *ptr, size_t old, size_t n) {
  (void)ctx;
  /* zeroed: a block malloc recycles may hold stale bytes the library never
   * wrote (a key from the test's own buffers, freed unwiped by libc); only
   * ASan's malloc, which fills new blocks, hid that. So the check sees only
   * what the library put there, under any allocator (TSan, release). */
  void *q = n ? calloc(1, n) : NULL;
  if (n && !q) return NULL;
  if (ptr) {
    if (q) memcpy(q, ptr, old < n ? old : n);
    if (holds_key(ptr, old)) g_leaks++;
    free(ptr);
  }
  return q;
}
static void scan_free(void *ctx, void *ptr, size_t n) {
  (void)ctx;
  if (ptr && holds_key(ptr, n)) g_leaks++;
  free(ptr);
}

/* A writer into *out with eo's keys whose every freed block the scanning
 * allocator checks for a key (g_leaks reset here). */
static pqt_status open_scanned_writer(pqt_writer **w, pqt_string *out, const pqt_encryption_options *eo,
                                      pqt_error *e) {
  static const pqt_allocator a = {scan_realloc, scan_free, NULL};
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.alloc = &a;
  wo.encryption = eo;
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message = EF_SCHEMA;
  g_leaks = 0;
  return pqt_writer_open_buffer(w, out, &ws, &wo, e);
}

static void test_keys_wiped(void) {
  for (int k = 0; k < 3; k++) {
    ef_cfg c = {PQT_ENCRYPTION_AES_GCM_V1,
                k == 1,
                k == 2 ? EF_SOME_PLAIN : EF_COLUMN_KEYS,
                EF_AAD_STORED,
                0,
                1,
                1,
                1,
                32,
                0,
                0,
                0};
    pqt_encryption_options eo;
    pqt_column_encryption cols[8];
    ef_read_keys rk;
    ef_encryption(&c, &eo, cols, &rk);
    pqt_string out = {0};
    pqt_writer *w;
    pqt_error e;
    CHECK_OK(open_scanned_writer(&w, &out, &eo, &e));
    if (k == 2) pqt_writer_discard(w); /* discarded: wiped too */
    else CHECK_OK(pqt_writer_close(w, &e));
    CHECK_MSG(g_leaks == 0, "case %d: %d freed blocks held a key", k, g_leaks);
    CHECK(!out.data || !holds_key(out.data, out.len));
    pqt_string_free(&out);
  }
  /* a writer that fails to open (a column named twice) wipes what it copied */
  pqt_encryption_options eo;
  pqt_encryption_options_init(&eo);
  eo.footer_key = (const uint8_t *)ef_footer_key;
  eo.footer_key_len = 32;
  pqt_column_encryption cols[2] = {{"name", (const uint8_t *)ef_col_key[0], 32, NULL, 0},
                                   {"name", (const uint8_t *)ef_col_key[1], 32, NULL, 0}};
  eo.columns = cols;
  eo.n_columns = 2;
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  CHECK(open_scanned_writer(&w, &out, &eo, &e) == PQT_EINVAL);
  CHECK_MSG(g_leaks == 0, "failed open: %d freed blocks held a key", g_leaks);
  pqt_string_free(&out);
}

/* A file written with an AAD prefix it stores reads with the prefix given too. */
static void test_stored_prefix_given(void) {
  ef_cfg c = {PQT_ENCRYPTION_AES_GCM_V1, 0, EF_FOOTER_ONLY, EF_AAD_STORED, 0, 0, 0, 0, 24, 5000, 5000, 0};
  ef_read_keys rk;
  pqt_string img = write_cfg_keys(&c, &rk);
  CHECK(img.data != NULL);
  if (!img.data) return;
  pqt_read_options ro;
  ef_read_options(&c, &ro, &rk);
  ro.aad_prefix = (const uint8_t *)ef_aad_prefix;
  ro.aad_prefix_len = strlen(ef_aad_prefix);
  pqt_error e;
  CHECK_EQ_INT(read_with(&img, &ro, &e), PQT_OK);
  /* the same data written twice differs (fresh aad_file_unique and nonces) */
  pqt_string img2 = write_cfg(&c);
  CHECK(img2.data != NULL);
  /* (sizes may differ: page CRCs over random ciphertext are varints of any length) */
  CHECK(img2.data && img2.len > 16 && memcmp(img.data + 4, img2.data + 4, 16) != 0);
  pqt_string_free(&img);
  pqt_string_free(&img2);
}

RUN_TESTS("encrypted_write", TEST_CASE(test_matrix), TEST_CASE(test_key_errors), TEST_CASE(test_aad_errors),
          TEST_CASE(test_option_errors), TEST_CASE(test_keys_wiped), TEST_CASE(test_stored_prefix_given))
