/* Conformance: the encrypted files of parquet-testing (data/ *.parquet.encrypted
 * and data/aes256/). Keys per data/README.md: footer "0123456789012345",
 * double_field "1234567890123450", float_field "1234567890123451" (key ids
 * kf, kc1, kc2); aes256: 32-byte keys of the same pattern, kc1..kc8 for all
 * eight columns; AAD prefix "tester" for the _aad and _disable_aad_storage
 * files. Values are those of Arrow C++'s encryption test writer (row i of a
 * row group): boolean i%2==0, int32 i, int64 list [2i, 2i+1] x 10^12,
 * float i*1.1f, double i*1.1111111, ba_field "parquet" + 3 digits of i (null
 * for odd i), flba_field 10 bytes of i. Checked through the Arrow stream.
 * Also: missing / wrong keys and AAD prefixes, tampering, the bloom filter
 * and page index modules, and re-encryption of corpus modules with their
 * own nonces (must reproduce the file's bytes: the writer-side primitives). */
#include <unistd.h>
#include <xxhash.h>

#include "core/core.h"
#include "crypto/crypto.h"
#include "crypto/file_decryptor.h"
#include "file/reader_internal.h"
#include "harness.h"
#include "parquetry_arrow.h"
#include "parquetry_keytools.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static const char *g_dir;
static char g_path[4096];

static const char *data_file(const char *name) {
  snprintf(g_path, sizeof g_path, "%s/data/%s", g_dir, name);
  return g_path;
}

/* ---- keys ---- */
typedef struct keyset {
  uint8_t footer[32];
  uint8_t col[8][32]; /* kc1..kc8 */
  size_t len;
} keyset;

static void make_keys(keyset *k, bool aes256) {
  const char *d = "0123456789";
  k->len = aes256 ? 32 : 16;
  for (size_t i = 0; i < 32; i++) k->footer[i] = (uint8_t)d[i % 10];
  for (int c = 0; c < 8; c++) {
    for (size_t i = 0; i < 32; i++) k->col[c][i] = (uint8_t)d[(i + 1) % 10];
    k->col[c][k->len - 1] = (uint8_t)('0' + (aes256 ? 2 + c : c)); /* ...450, ...451 / ...0102..0109 */
  }
}

/* key_metadata "kf" / "kcN" -> key (the README's key ids). */
static pqt_status retriever(void *ctx, const uint8_t *km, size_t n, const char *column_path, uint8_t *key,
                            size_t *key_len, pqt_error *err) {
  const keyset *k = ctx;
  if (n == 2 && memcmp(km, "kf", 2) == 0) {
    memcpy(key, k->footer, k->len);
  } else if (n == 3 && km[0] == 'k' && km[1] == 'c' && km[2] >= '1' && km[2] <= '8') {
    memcpy(key, k->col[km[2] - '1'], k->len);
  } else {
    return pqt_error_set(err, PQT_ECRYPTO, "unknown key id");
  }
  *key_len = k->len;
  return PQT_OK;
}

typedef struct opts_holder {
  pqt_read_options o;
  keyset k;
  pqt_column_key ck[2];
} opts_holder;

/* Explicit keys for the 128-bit files: footer, double_field, float_field. */
static void explicit_opts(opts_holder *h) {
  make_keys(&h->k, false);
  pqt_read_options_init(&h->o);
  h->o.int96_as_fixed = 1; /* int96_field: days near Julian day 0 with sub-us digits, fits no timestamp unit */
  h->o.footer_key = h->k.footer;
  h->o.footer_key_len = 16;
  h->ck[0] = (pqt_column_key){"double_field", h->k.col[0], 16};
  h->ck[1] = (pqt_column_key){"float_field", h->k.col[1], 16};
  h->o.column_keys = h->ck;
  h->o.n_column_keys = 2;
}

static void retriever_opts(opts_holder *h, bool aes256) {
  make_keys(&h->k, aes256);
  pqt_read_options_init(&h->o);
  h->o.int96_as_fixed = 1;
  h->o.key_retriever = retriever;
  h->o.key_retriever_ctx = &h->k;
}

/* ---- value checks ---- */
static bool bit(const void *buf, int64_t i) { return (((const uint8_t *)buf)[i >> 3] >> (i & 7)) & 1; }

static const struct ArrowArray *field(const struct ArrowArray *b, const struct ArrowSchema *s, const char *name) {
  for (int64_t k = 0; k < s->n_children; k++)
    if (strcmp(s->children[k]->name, name) == 0) return b->children[k];
  return NULL;
}

/* Check one batch (a whole row group) of the 8-column files; returns rows checked. */
static int64_t check_standard_batch(const struct ArrowArray *b, const struct ArrowSchema *s, const char *file) {
  int64_t n = b->length, bad = 0;
  const struct ArrowArray *a;
  if ((a = field(b, s, "boolean_field")))
    for (int64_t i = 0; i < n; i++) bad += bit(a->buffers[1], a->offset + i) != (i % 2 == 0);
  if ((a = field(b, s, "int32_field")))
    for (int64_t i = 0; i < n; i++) bad += ((const int32_t *)a->buffers[1])[a->offset + i] != (int32_t)i;
  if ((a = field(b, s, "int64_field"))) {
    const int32_t *off = (const int32_t *)a->buffers[1] + a->offset;
    const struct ArrowArray *v = a->children[0];
    const int64_t *vals = (const int64_t *)v->buffers[1] + v->offset;
    for (int64_t i = 0; i < n; i++) {
      bad += off[i + 1] - off[i] != 2;
      if (off[i + 1] - off[i] == 2)
        bad += vals[off[i]] != 2 * i * 1000000000000LL || vals[off[i] + 1] != (2 * i + 1) * 1000000000000LL;
    }
  }
  if ((a = field(b, s, "float_field")))
    for (int64_t i = 0; i < n; i++) bad += ((const float *)a->buffers[1])[a->offset + i] != (float)i * 1.1f;
  if ((a = field(b, s, "double_field")))
    for (int64_t i = 0; i < n; i++) bad += ((const double *)a->buffers[1])[a->offset + i] != (double)i * 1.1111111;
  if ((a = field(b, s, "ba_field"))) {
    const int32_t *off = (const int32_t *)a->buffers[1] + a->offset;
    const char *data = a->buffers[2];
    for (int64_t i = 0; i < n; i++) {
      bool valid = !a->buffers[0] || bit(a->buffers[0], a->offset + i);
      if (i % 2) {
        bad += valid;
        continue;
      }
      char want[10] = {'p',
                       'a',
                       'r',
                       'q',
                       'u',
                       'e',
                       't',
                       (char)('0' + (i / 100) % 10),
                       (char)('0' + (i / 10) % 10),
                       (char)('0' + i % 10)};
      bad += !valid || off[i + 1] - off[i] != 10 || memcmp(data + off[i], want, 10) != 0;
    }
  }
  if ((a = field(b, s, "flba_field")))
    for (int64_t i = 0; i < n; i++) {
      const uint8_t *p = (const uint8_t *)a->buffers[1] + (a->offset + i) * 10;
      for (int j = 0; j < 10; j++) bad += p[j] != (uint8_t)i;
    }
  CHECK_MSG(bad == 0, "%s: %lld wrong values", file, (long long)bad);
  return n;
}

/* The bloom filter file: double i+0.5, float i+0.25, int32 i, name "name_i". */
static int64_t check_bloom_batch(const struct ArrowArray *b, const struct ArrowSchema *s, int64_t first,
                                 const char *file) {
  int64_t n = b->length, bad = 0;
  const struct ArrowArray *a;
  if ((a = field(b, s, "double_field")))
    for (int64_t i = 0; i < n; i++) bad += ((const double *)a->buffers[1])[a->offset + i] != (double)(first + i) + 0.5;
  if ((a = field(b, s, "float_field")))
    for (int64_t i = 0; i < n; i++) bad += ((const float *)a->buffers[1])[a->offset + i] != (float)(first + i) + 0.25f;
  if ((a = field(b, s, "int32_field")))
    for (int64_t i = 0; i < n; i++) bad += ((const int32_t *)a->buffers[1])[a->offset + i] != (int32_t)(first + i);
  if ((a = field(b, s, "name"))) {
    const int32_t *off = (const int32_t *)a->buffers[1] + a->offset;
    for (int64_t i = 0; i < n; i++) {
      char want[32];
      int wl = snprintf(want, sizeof want, "name_%lld", (long long)(first + i));
      bad += off[i + 1] - off[i] != wl || memcmp((const char *)a->buffers[2] + off[i], want, (size_t)wl) != 0;
    }
  }
  CHECK_MSG(bad == 0, "%s: %lld wrong values", file, (long long)bad);
  return n;
}

static pqt_status discard(void *ctx, const char *d, size_t n) {
  (void)ctx, (void)d, (void)n;
  return PQT_OK;
}

/* Open and scan (columns: NULL = all); returns the status, checks values,
 * and gives the rows read and the error. */
static pqt_status scan(const char *name, const pqt_read_options *o, const char *const *cols, int32_t n_cols,
                       bool bloom_values, int64_t *rows, pqt_error *e) {
  pqt_error_init(e);
  *rows = 0;
  pqt_reader *r;
  pqt_status st = pqt_reader_open_file(&r, data_file(name), o, e);
  if (st != PQT_OK) return st;
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.columns = cols;
  so.n_columns = n_cols;
  /* the text path first: it reports errors as pqt_error (with places) */
  st = pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, discard, NULL, e);
  struct ArrowArrayStream stream;
  if (st == PQT_OK) st = pqt_reader_get_stream(r, &so, &stream, e);
  if (st == PQT_OK) {
    struct ArrowSchema schema;
    CHECK(stream.get_schema(&stream, &schema) == 0);
    for (;;) {
      struct ArrowArray b;
      if (stream.get_next(&stream, &b) != 0) {
        const char *msg = stream.get_last_error(&stream);
        st = e->code != PQT_OK ? e->code : PQT_ECORRUPT;
        if (e->code == PQT_OK) snprintf(e->message, sizeof e->message, "%s", msg ? msg : "stream error");
        break;
      }
      if (!b.release) break;
      *rows += bloom_values ? check_bloom_batch(&b, &schema, *rows, name) : check_standard_batch(&b, &schema, name);
      b.release(&b);
    }
    schema.release(&schema);
    stream.release(&stream);
  }
  pqt_reader_close(r);
  return st;
}

/* ---- tests ---- */
static const char *const standard_files[] = {"uniform_encryption.parquet.encrypted",
                                             "encrypt_columns_and_footer.parquet.encrypted",
                                             "encrypt_columns_and_footer_aad.parquet.encrypted",
                                             "encrypt_columns_and_footer_ctr.parquet.encrypted",
                                             "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
                                             "encrypt_columns_plaintext_footer.parquet.encrypted"};

static void test_explicit_keys_128(void) {
  if (!g_dir) return;
  for (size_t f = 0; f < sizeof standard_files / sizeof *standard_files; f++) {
    opts_holder h;
    explicit_opts(&h);
    h.o.aad_prefix = (const uint8_t *)"tester";
    h.o.aad_prefix_len = 6;
    if (!strstr(standard_files[f], "_aad")) h.o.aad_prefix = NULL; /* only the two prefixed files */
    pqt_error e;
    int64_t rows;
    pqt_status st = scan(standard_files[f], &h.o, NULL, 0, false, &rows, &e);
    CHECK_MSG(st == PQT_OK, "%s: %s", standard_files[f], e.message);
    CHECK_MSG(rows == 50, "%s: %lld rows", standard_files[f], (long long)rows);
  }
}

static void test_key_retriever_128_and_256(void) {
  if (!g_dir) return;
  for (int aes256 = 0; aes256 <= 1; aes256++) {
    for (size_t f = 0; f < sizeof standard_files / sizeof *standard_files; f++) {
      if (aes256 && strstr(standard_files[f], "_and_footer_aad")) continue; /* not in aes256/ */
      char name[256];
      snprintf(name, sizeof name, "%s%s", aes256 ? "aes256/" : "", standard_files[f]);
      opts_holder h;
      retriever_opts(&h, aes256);
      if (strstr(name, "disable_aad_storage")) {
        h.o.aad_prefix = (const uint8_t *)"tester";
        h.o.aad_prefix_len = 6;
      }
      pqt_error e;
      int64_t rows;
      pqt_status st = scan(name, &h.o, NULL, 0, false, &rows, &e);
      CHECK_MSG(st == PQT_OK, "%s: %s", name, e.message);
      CHECK_MSG(rows == 50, "%s: %lld rows", name, (long long)rows);
    }
  }
}

static void test_missing_keys(void) {
  if (!g_dir) return;
  pqt_error e;
  int64_t rows;
  /* a key for a column the file does not have: a clear error, not ignored */
  {
    opts_holder h;
    explicit_opts(&h);
    h.ck[1].path = "no_such_field";
    pqt_reader *r = NULL;
    pqt_status st = pqt_reader_open_file(&r, data_file("encrypt_columns_and_footer.parquet.encrypted"), &h.o, &e);
    CHECK_EQ_INT(st, PQT_EINVAL);
    CHECK_MSG(st != PQT_OK && strstr(e.message, "'no_such_field'") != NULL, "%s", e.message);
    if (r) pqt_reader_close(r);
  }
  /* encrypted footer, no keys at all */
  pqt_status st = scan("uniform_encryption.parquet.encrypted", NULL, NULL, 0, false, &rows, &e);
  CHECK_EQ_INT(st, PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "\"kf\"") != NULL, "%s", e.message);
  /* footer key only: plaintext-key columns read, double_field names its key */
  opts_holder h;
  explicit_opts(&h);
  h.o.n_column_keys = 0;
  const char *cols[] = {"boolean_field", "int32_field", "int64_field", "ba_field", "flba_field"};
  st = scan("encrypt_columns_and_footer.parquet.encrypted", &h.o, cols, 5, false, &rows, &e);
  CHECK_MSG(st == PQT_OK && rows == 50, "%s", e.message);
  const char *dbl[] = {"double_field"};
  st = scan("encrypt_columns_and_footer.parquet.encrypted", &h.o, dbl, 1, false, &rows, &e);
  CHECK_EQ_INT(st, PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "double_field") && strstr(e.message, "\"kc1\""), "%s", e.message);
  CHECK_EQ_INT(e.row_group, 0);
  CHECK_EQ_INT(e.column, 5);
  /* plaintext footer without any key: plaintext columns read, encrypted ones fail */
  st = scan("encrypt_columns_plaintext_footer.parquet.encrypted", NULL, cols, 5, false, &rows, &e);
  CHECK_MSG(st == PQT_OK && rows == 50, "%s", e.message);
  st = scan("encrypt_columns_plaintext_footer.parquet.encrypted", NULL, dbl, 1, false, &rows, &e);
  CHECK_EQ_INT(st, PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "double_field") != NULL, "%s", e.message);
  /* external key material: the retriever does not know the ids */
  retriever_opts(&h, false);
  st = scan("external_key_material_java.parquet.encrypted", &h.o, NULL, 0, false, &rows, &e);
  CHECK_EQ_INT(st, PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "key retriever") != NULL, "%s", e.message);
}

static void test_wrong_keys_and_prefixes(void) {
  if (!g_dir) return;
  pqt_error e;
  int64_t rows;
  opts_holder h;
  explicit_opts(&h);
  h.k.footer[3] ^= 1;
  pqt_status st = scan("uniform_encryption.parquet.encrypted", &h.o, NULL, 0, false, &rows, &e);
  CHECK_EQ_INT(st, PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "footer") && strstr(e.message, "authentication failed"), "%s", e.message);
  /* plaintext footer: signature */
  st = scan("encrypt_columns_plaintext_footer.parquet.encrypted", &h.o, NULL, 0, false, &rows, &e);
  CHECK_EQ_INT(st, PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "signature") != NULL, "%s", e.message);
  /* ... unless verification is off: then plaintext columns still read */
  h.o.verify_footer_signature = 0;
  const char *cols[] = {"int32_field"};
  st = scan("encrypt_columns_plaintext_footer.parquet.encrypted", &h.o, cols, 1, false, &rows, &e);
  CHECK_MSG(st == PQT_OK, "%s", e.message);
  /* a wrong column key: its metadata fails to authenticate at open */
  explicit_opts(&h);
  h.k.col[0][0] ^= 1;
  st = scan("encrypt_columns_and_footer.parquet.encrypted", &h.o, NULL, 0, false, &rows, &e);
  CHECK_EQ_INT(st, PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "double_field") && strstr(e.message, "column metadata"), "%s", e.message);
  /* AAD prefix: required but absent, given but different */
  explicit_opts(&h);
  st = scan("encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", &h.o, NULL, 0, false, &rows, &e);
  CHECK_EQ_INT(st, PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "AAD prefix it does not store") != NULL, "%s", e.message);
  h.o.aad_prefix = (const uint8_t *)"tesfer";
  h.o.aad_prefix_len = 6;
  st = scan("encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", &h.o, NULL, 0, false, &rows, &e);
  CHECK_EQ_INT(st, PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "authentication failed") != NULL, "%s", e.message);
  st = scan("encrypt_columns_and_footer_aad.parquet.encrypted", &h.o, NULL, 0, false, &rows, &e);
  CHECK_EQ_INT(st, PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "differs") != NULL, "%s", e.message);
  /* a bad key length */
  explicit_opts(&h);
  h.o.footer_key_len = 15;
  st = scan("uniform_encryption.parquet.encrypted", &h.o, NULL, 0, false, &rows, &e);
  CHECK_EQ_INT(st, PQT_EINVAL);
}

/* Open a file image from memory with explicit keys and read one column. */
static pqt_status read_image(const uint8_t *img, size_t len, const char *col, pqt_error *e) {
  opts_holder h;
  explicit_opts(&h);
  pqt_error_init(e);
  pqt_reader *r;
  pqt_status st = pqt_reader_open_buffer(&r, img, len, &h.o, e);
  if (st != PQT_OK) return st;
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  const char *cols[] = {col};
  so.columns = cols;
  so.n_columns = 1;
  st = pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, discard, NULL, e);
  pqt_reader_close(r);
  return st;
}

/* Flip bytes in a page, a page header and the footer: authentication fails,
 * naming the module (GCM); CTR pages are not authenticated (spec 4.2.2). */
static void test_tampering(void) {
  if (!g_dir) return;
  size_t len;
  uint8_t *img = pqt_test_read_file(data_file("encrypt_columns_and_footer.parquet.encrypted"), &len);
  uint8_t *ctr = NULL;
  size_t ctr_len = 0;
  CHECK(img != NULL);
  if (!img) return;
  /* locate double_field's chunk through a reader */
  opts_holder h;
  explicit_opts(&h);
  pqt_reader *r;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_reader_open_buffer(&r, img, len, &h.o, &e));
  const pqt_column_metadata *dcm = &r->md.row_groups.items[0].columns.items[5].meta_data;
  int64_t start = dcm->data_page_offset;
  bool has_dict = PQT_HAS_FIELD(dcm, column_metadata, dictionary_page_offset) && dcm->dictionary_page_offset > 0;
  int64_t dict_at = has_dict ? dcm->dictionary_page_offset : -1;
  pqt_reader_close(r);
  CHECK(start > 4 && (size_t)start + 64 < len);
  uint32_t hmod = pqt_load_u32le(img + start);            /* the first page header module */
  size_t page_ct = (size_t)start + 4 + hmod + 4 + 12 + 2; /* inside the first page's ciphertext */
  size_t hdr_ct = (size_t)start + 4 + 12 + 1;             /* inside the header's ciphertext */
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  const char *cols[] = {"double_field"};
  so.columns = cols;
  so.n_columns = 1;
  struct {
    size_t at;
    const char *want;
  } cases[] = {{page_ct, "data page: AES-GCM authentication failed"},
               {hdr_ct, "header: AES-GCM authentication failed"},
               {len - 8 - 30, "footer: AES-GCM authentication failed"}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    img[cases[c].at] ^= 0x40;
    pqt_error_init(&e);
    pqt_status st = pqt_reader_open_buffer(&r, img, len, &h.o, &e);
    if (st == PQT_OK) {
      st = pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, discard, NULL, &e);
      pqt_reader_close(r);
    }
    CHECK_EQ_INT(st, PQT_ECRYPTO);
    CHECK_MSG(strstr(e.message, cases[c].want) != NULL, "case %zu: %s", c, e.message);
    if (c == 0) {
      CHECK_MSG(strstr(e.message, "row group 0, column double_field: page ") != NULL, "%s", e.message);
      CHECK_EQ_INT(e.page, has_dict ? 1 : 0); /* pages counted from the chunk start */
    }
    img[cases[c].at] ^= 0x40;
  }
  /* untouched again: reads */
  CHECK_EQ_INT(read_image(img, len, "double_field", &e), PQT_OK);
  /* CTR: a flipped page byte goes unnoticed by the cipher (values change), a
   * flipped header byte does not */
  ctr = pqt_test_read_file(data_file("encrypt_columns_and_footer_ctr.parquet.encrypted"), &ctr_len);
  CHECK(ctr != NULL);
  if (ctr) {
    CHECK_OK(pqt_reader_open_buffer(&r, ctr, ctr_len, &h.o, &e));
    dcm = &r->md.row_groups.items[0].columns.items[5].meta_data;
    start = dcm->data_page_offset;
    has_dict = PQT_HAS_FIELD(dcm, column_metadata, dictionary_page_offset) && dcm->dictionary_page_offset > 0;
    dict_at = has_dict ? dcm->dictionary_page_offset : -1;
    pqt_reader_close(r);
    size_t at = (size_t)start + 4 + 12 + 1;
    ctr[at] ^= 0x40;
    CHECK_EQ_INT(read_image(ctr, ctr_len, "double_field", &e), PQT_ECRYPTO);
    ctr[at] ^= 0x40;
    CHECK_EQ_INT(read_image(ctr, ctr_len, "double_field", &e), PQT_OK);
    CHECK(has_dict);
    if (has_dict) { /* same layout as the GCM file: flip a byte of the PLAIN dictionary's ciphertext */
      size_t dict_page = (size_t)dict_at + 4 + pqt_load_u32le(ctr + dict_at);
      ctr[dict_page + 4 + 12 + 3] ^= 0x01;
      CHECK_EQ_INT(read_image(ctr, ctr_len, "double_field", &e), PQT_OK);
      ctr[dict_page + 4 + 12 + 3] ^= 0x01;
    }
  }
  free(ctr);
  free(img);
}

/* SBBF membership (spec "Bloom filter": split block, xxHash64 seed 0). */
static bool sbbf_contains(const uint8_t *bits, size_t nbytes, uint64_t h) {
  static const uint32_t salt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                   0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
  uint64_t nblocks = nbytes / 32;
  uint64_t block = ((h >> 32) * nblocks) >> 32;
  uint32_t key = (uint32_t)h;
  for (int i = 0; i < 8; i++) {
    uint32_t word = pqt_load_u32le(bits + block * 32 + (size_t)i * 4);
    if (!((word >> ((key * salt[i]) >> 27)) & 1)) return false;
  }
  return true;
}

static void test_bloom_filter_and_page_index(void) {
  if (!g_dir) return;
  opts_holder h;
  explicit_opts(&h);
  const char *name = "encrypt_columns_and_footer_bloom_filter.parquet.encrypted";
  pqt_error e;
  int64_t rows;
  pqt_status st = scan(name, &h.o, NULL, 0, true, &rows, &e);
  CHECK_MSG(st == PQT_OK, "%s", e.message);
  CHECK(rows > 0);
  pqt_reader *r;
  pqt_error_init(&e);
  st = pqt_reader_open_file(&r, data_file(name), &h.o, &e);
  CHECK_MSG(st == PQT_OK, "%s", e.message);
  if (st != PQT_OK) return;
  CHECK(r->crypto != NULL);
  int checked_filters = 0, checked_indexes = 0;
  const pqt_row_group *rg = &r->md.row_groups.items[0];
  for (int32_t c = 0; c < rg->columns.n; c++) {
    const pqt_column_chunk *cc = &rg->columns.items[c];
    const char *path = r->schema->leaves[c]->dotted_path;
    bool is_double = strcmp(path, "double_field") == 0, is_float = strcmp(path, "float_field") == 0;
    if (!PQT_HAS_FIELD(cc, column_chunk, crypto_metadata)) continue;
    pqt_module_decryptor d;
    CHECK_OK(pqt_file_decryptor_column(r->crypto, cc, path, 0, c, &d, &e));
    const pqt_column_metadata *cm = &cc->meta_data;
    if ((is_double || is_float) && PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset)) {
      CHECK(PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset));
      uint64_t off = (uint64_t)cm->bloom_filter_offset;
      size_t avail = (size_t)(r->io.size - off);
      uint8_t *buf = malloc(avail);
      CHECK_OK(r->io.read_at(r->io.private_data, off, buf, avail, &e));
      pqt_bloom_filter_header hdr;
      pqt_buf bits;
      pqt_buf_init(&bits, NULL);
      size_t used = 0;
      st = pqt_decrypt_bloom_filter(&d, buf, avail, &hdr, &bits, &used, &e);
      CHECK_MSG(st == PQT_OK, "%s: %s", path, e.message);
      if (st == PQT_OK) {
        checked_filters++;
        if (PQT_HAS_FIELD(cm, column_metadata, bloom_filter_length)) CHECK_EQ_INT(used, cm->bloom_filter_length);
        int64_t missing = 0, absent_hits = 0;
        for (int64_t i = 0; i < rows; i++) {
          uint8_t v[8];
          if (is_double) {
            double x = (double)i + 0.5, y = (double)i + 0.75;
            memcpy(v, &x, 8);
            missing += !sbbf_contains(bits.data, bits.len, XXH64(v, 8, 0));
            memcpy(v, &y, 8);
            absent_hits += sbbf_contains(bits.data, bits.len, XXH64(v, 8, 0));
          } else {
            float x = (float)i + 0.25f;
            memcpy(v, &x, 4);
            missing += !sbbf_contains(bits.data, bits.len, XXH64(v, 4, 0));
          }
        }
        CHECK_MSG(missing == 0, "%s: %lld values missing from the bloom filter", path, (long long)missing);
        CHECK_MSG(absent_hits < rows / 10, "%s: %lld false positives", path, (long long)absent_hits);
      }
      pqt_buf_free(&bits);
      /* the wrong module type does not authenticate */
      pqt_buf_init(&bits, NULL);
      CHECK_EQ_INT(pqt_module_decrypt(&d, PQT_MODULE_COLUMN_INDEX, 0, buf, avail, NULL, &bits, NULL), PQT_ECRYPTO);
      pqt_buf_free(&bits);
      free(buf);
    }
    if (PQT_HAS_FIELD(cc, column_chunk, offset_index_offset) && PQT_HAS_FIELD(cc, column_chunk, offset_index_length) &&
        PQT_HAS_FIELD(cc, column_chunk, column_index_offset) && PQT_HAS_FIELD(cc, column_chunk, column_index_length)) {
      size_t oil = (size_t)cc->offset_index_length, cil = (size_t)cc->column_index_length;
      uint8_t *oi = malloc(oil), *ci = malloc(cil);
      CHECK_OK(r->io.read_at(r->io.private_data, (uint64_t)cc->offset_index_offset, oi, oil, &e));
      CHECK_OK(r->io.read_at(r->io.private_data, (uint64_t)cc->column_index_offset, ci, cil, &e));
      pqt_arena arena;
      pqt_arena_init(&arena, NULL);
      pqt_buf p1, p2;
      pqt_buf_init(&p1, NULL);
      pqt_buf_init(&p2, NULL);
      pqt_offset_index oidx;
      pqt_column_index cidx;
      size_t used = 0;
      st = pqt_decrypt_thrift_module(&d, PQT_MODULE_OFFSET_INDEX, &pqt_desc_offset_index, oi, oil, &used, &p1, &arena,
                                     &oidx, &e);
      CHECK_MSG(st == PQT_OK && used == oil, "%s offset index: %s", path, e.message);
      if (st == PQT_OK) {
        CHECK(oidx.page_locations.n >= 1);
        if (oidx.page_locations.n >= 1) {
          CHECK_EQ_INT(oidx.page_locations.items[0].first_row_index, 0);
          CHECK_EQ_INT(oidx.page_locations.items[0].offset, cm->data_page_offset);
        }
      }
      st = pqt_decrypt_thrift_module(&d, PQT_MODULE_COLUMN_INDEX, &pqt_desc_column_index, ci, cil, &used, &p2, &arena,
                                     &cidx, &e);
      CHECK_MSG(st == PQT_OK && used == cil, "%s column index: %s", path, e.message);
      if (st == PQT_OK) {
        CHECK_EQ_INT(cidx.null_pages.n, oidx.page_locations.n);
        checked_indexes++;
      }
      pqt_buf_free(&p1);
      pqt_buf_free(&p2);
      pqt_arena_reset(&arena);
      free(oi);
      free(ci);
    }
  }
  CHECK_EQ_INT(checked_filters, 2);
  CHECK(checked_indexes >= 2);
  pqt_reader_close(r);
}

/* Writer primitives against the corpus: decrypt a module, encrypt it again
 * with its own nonce, and get the file's bytes back (GCM footer and page
 * header, CTR page); sign a plaintext footer with its nonce. */
static void test_reencrypt_corpus_modules(void) {
  if (!g_dir) return;
  opts_holder h;
  explicit_opts(&h);
  /* 1. the encrypted footer of uniform_encryption */
  size_t len;
  uint8_t *img = pqt_test_read_file(data_file("uniform_encryption.parquet.encrypted"), &len);
  CHECK(img != NULL);
  if (!img) return;
  pqt_reader *r;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_reader_open_buffer(&r, img, len, &h.o, &e));
  uint32_t flen = pqt_load_u32le(img + len - 8);
  const uint8_t *region = img + len - 8 - flen;
  pqt_file_crypto_metadata fcm;
  size_t used = 0;
  pqt_arena arena;
  pqt_arena_init(&arena, NULL);
  CHECK_OK(pqt_thrift_decode(&pqt_desc_file_crypto_metadata, region, flen, &used, &arena, &fcm, &e));
  const uint8_t *mod = region + used;
  size_t mod_len = flen - used;
  pqt_module_decryptor d;
  CHECK_OK(pqt_module_decryptor_init(&d, r->crypto->algorithm, h.k.footer, 16, r->crypto->file_aad,
                                     r->crypto->file_aad_len, &e));
  pqt_buf plain, again;
  pqt_buf_init(&plain, NULL);
  pqt_buf_init(&again, NULL);
  CHECK_OK(pqt_module_decrypt(&d, PQT_MODULE_FOOTER, 0, mod, mod_len, NULL, &plain, &e));
  CHECK_OK(pqt_module_encrypt(&d, PQT_MODULE_FOOTER, 0, plain.data, plain.len, mod + 4, &again, &e));
  CHECK(again.len == mod_len && memcmp(again.data, mod, mod_len) == 0);
  /* 2. the first data page header of int32_field (footer key, GCM) */
  const pqt_column_metadata *cm = &r->md.row_groups.items[0].columns.items[1].meta_data;
  int64_t at = PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset) && cm->dictionary_page_offset > 0
                   ? cm->dictionary_page_offset
                   : cm->data_page_offset;
  bool dict = at != cm->data_page_offset;
  d.row_group = 0;
  d.column = 1;
  int type = dict ? PQT_MODULE_DICTIONARY_PAGE_HEADER : PQT_MODULE_DATA_PAGE_HEADER;
  size_t hused = 0;
  CHECK_OK(pqt_module_decrypt(&d, type, 0, img + at, len - (size_t)at, &hused, &plain, &e));
  again.len = 0;
  CHECK_OK(pqt_module_encrypt(&d, type, 0, plain.data, plain.len, img + at + 4, &again, &e));
  CHECK(again.len == hused && memcmp(again.data, img + at, hused) == 0);
  pqt_reader_close(r);
  free(img);
  /* 3. a CTR page: encrypt_columns_and_footer_ctr, double_field (column key
   * kc1), whose chunk starts with its dictionary page */
  img = pqt_test_read_file(data_file("encrypt_columns_and_footer_ctr.parquet.encrypted"), &len);
  CHECK(img != NULL);
  if (img) {
    CHECK_OK(pqt_reader_open_buffer(&r, img, len, &h.o, &e));
    CHECK_EQ_INT(r->crypto->algorithm, PQT_AES_GCM_CTR_V1);
    cm = &r->md.row_groups.items[0].columns.items[5].meta_data;
    CHECK(PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset) && cm->dictionary_page_offset > 0);
    at = cm->dictionary_page_offset;
    CHECK_OK(pqt_module_decryptor_init(&d, PQT_AES_GCM_CTR_V1, h.k.col[0], 16, r->crypto->file_aad,
                                       r->crypto->file_aad_len, &e));
    d.row_group = 0;
    d.column = 5;
    CHECK_OK(
        pqt_module_decrypt(&d, PQT_MODULE_DICTIONARY_PAGE_HEADER, 0, img + at, len - (size_t)at, &hused, &plain, &e));
    pqt_page_header ph;
    CHECK_OK(pqt_thrift_decode(&pqt_desc_page_header, plain.data, plain.len, NULL, NULL, &ph, &e));
    CHECK_EQ_INT(ph.type, PQT_PAGE_DICTIONARY);
    const uint8_t *page = img + at + hused;
    size_t page_len = (size_t)ph.compressed_page_size;
    CHECK_EQ_INT(pqt_load_u32le(page) + 4, page_len);
    CHECK_OK(pqt_module_decrypt(&d, PQT_MODULE_DICTIONARY_PAGE, 0, page, page_len, NULL, &plain, &e));
    CHECK_EQ_INT(plain.len, page_len - PQT_CRYPTO_CTR_OVERHEAD);
    again.len = 0;
    CHECK_OK(pqt_module_encrypt(&d, PQT_MODULE_DICTIONARY_PAGE, 0, plain.data, plain.len, page + 4, &again, &e));
    CHECK(again.len == page_len && memcmp(again.data, page, page_len) == 0);
    pqt_reader_close(r);
    free(img);
  }
  /* 4. the plaintext footer's signature */
  img = pqt_test_read_file(data_file("encrypt_columns_plaintext_footer.parquet.encrypted"), &len);
  CHECK(img != NULL);
  if (img) {
    CHECK_OK(pqt_reader_open_buffer(&r, img, len, &h.o, &e));
    CHECK(r->crypto && r->crypto->footer_verified);
    flen = pqt_load_u32le(img + len - 8);
    region = img + len - 8 - flen;
    uint8_t sig[PQT_CRYPTO_SIGNATURE_BYTES];
    CHECK_OK(pqt_module_decryptor_init(&d, r->crypto->algorithm, h.k.footer, 16, r->crypto->file_aad,
                                       r->crypto->file_aad_len, &e));
    CHECK_OK(pqt_footer_sign(&d, region, flen - 28, region + flen - 28, sig, &e));
    CHECK(memcmp(sig, region + flen - 28, 28) == 0);
    pqt_reader_close(r);
    free(img);
  }
  pqt_buf_free(&plain);
  pqt_buf_free(&again);
  pqt_arena_reset(&arena);
}

/* Mutated encrypted files (flipped bytes, truncation) must fail cleanly
 * (sanitizers watch); in the all-GCM uniform file, a flip inside a
 * column chunk read is always caught by authentication or a CRC. */
static void test_mutations(void) {
  if (!g_dir) return;
  const char *files[] = {"uniform_encryption.parquet.encrypted", "encrypt_columns_and_footer_ctr.parquet.encrypted",
                         "encrypt_columns_plaintext_footer.parquet.encrypted"};
  uint64_t rng = 0x9e3779b97f4a7c15ULL;
  for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
    size_t len;
    uint8_t *img = pqt_test_read_file(data_file(files[f]), &len);
    CHECK(img != NULL);
    if (!img) continue;
    uint8_t *copy = malloc(len);
    int caught = 0, in_chunks = 0;
    /* the byte ranges of the two chunks read (int32_field, double_field) */
    uint64_t lo[2] = {0, 0}, hi[2] = {0, 0};
    if (f == 0) {
      opts_holder h;
      explicit_opts(&h);
      pqt_reader *r;
      pqt_error e;
      CHECK_OK(pqt_reader_open_buffer(&r, img, len, &h.o, &e));
      for (int k = 0; k < 2; k++) {
        const pqt_column_metadata *cm = &r->md.row_groups.items[0].columns.items[k ? 5 : 1].meta_data;
        lo[k] = (uint64_t)(PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset) && cm->dictionary_page_offset > 0
                               ? cm->dictionary_page_offset
                               : cm->data_page_offset);
        hi[k] = lo[k] + (uint64_t)cm->total_compressed_size;
      }
      pqt_reader_close(r);
    }
    for (int m = 0; m < 300; m++) {
      memcpy(copy, img, len);
      rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
      size_t at = (size_t)((rng >> 20) % len), use = len;
      if (m % 10 == 9) use = at + 1; /* truncated */
      else copy[at] ^= (uint8_t)(1u << ((rng >> 8) % 8));
      pqt_error e;
      pqt_status st = read_image(copy, use, "int32_field", &e);
      if (st == PQT_OK) st = read_image(copy, use, "double_field", &e);
      CHECK_MSG(st == PQT_OK || st == PQT_ECORRUPT || st == PQT_ECRYPTO || st == PQT_EUNSUPPORTED || st == PQT_ELIMIT,
                "%s: mutation %d: status %d: %s", files[f], m, st, e.message);
      if (f == 0 && use == len && ((at >= lo[0] && at < hi[0]) || (at >= lo[1] && at < hi[1]))) {
        in_chunks++;
        caught += st != PQT_OK;
      }
    }
    if (f == 0) CHECK_MSG(in_chunks >= 10, "only %d flips landed in the chunks", in_chunks);
    if (f == 0) CHECK_MSG(caught == in_chunks, "%d of %d flips inside the chunks caught", caught, in_chunks);
    free(copy);
    free(img);
  }
}

/* ---- key tools: external_key_material_java (parquet-java's InMemoryKMS,
 * double wrapping, material in _KEY_MATERIAL_FOR_...json): the 13th file ---- */
static pqt_status append_text(void *ctx, const char *d, size_t n) {
  pqt_buf *b = ctx;
  return pqt_buf_append(b, d, n, NULL);
}

/* Open name with an in-memory KMS holding the README keys (footer_key
 * overrides kf's; NULL: kf left out) and print it as JSONL to out. */
static pqt_status read_with_kms(const char *path, const char *footer_key, bool with_kc1, pqt_buf *out, pqt_error *e) {
  pqt_inmemory_kms *kms;
  pqt_error_init(e);
  CHECK(pqt_inmemory_kms_new(&kms, e) == PQT_OK);
  if (footer_key) CHECK(pqt_inmemory_kms_add_key(kms, "kf", (const uint8_t *)footer_key, 16, e) == PQT_OK);
  if (with_kc1) CHECK(pqt_inmemory_kms_add_key(kms, "kc1", (const uint8_t *)"1234567890123450", 16, e) == PQT_OK);
  CHECK(pqt_inmemory_kms_add_key_base64(kms, "kc2", "MTIzNDU2Nzg5MDEyMzQ1MQ==", e) == PQT_OK); /* 1234567890123451 */
  pqt_kms_client client;
  pqt_inmemory_kms_client(kms, &client);
  pqt_keytools_reader *kr;
  CHECK(pqt_keytools_reader_new(&kr, &client, path, e) == PQT_OK);
  pqt_read_options o;
  pqt_read_options_init(&o);
  o.key_retriever = pqt_keytools_key_retriever;
  o.key_retriever_ctx = kr;
  pqt_reader *r;
  pqt_status st = pqt_reader_open_file(&r, path, &o, e);
  if (st == PQT_OK) {
    pqt_scan_options so;
    pqt_scan_options_init(&so);
    st = pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, append_text, out, e);
    pqt_reader_close(r);
  }
  pqt_keytools_reader_free(kr);
  pqt_inmemory_kms_free(kms);
  return st;
}

static void test_keytools_external_material(void) {
  if (!g_dir) return;
  char path[4096];
  snprintf(path, sizeof path, "%s", data_file("external_key_material_java.parquet.encrypted"));
  pqt_buf out, want;
  pqt_buf_init(&out, NULL);
  pqt_buf_init(&want, NULL);
  pqt_error e;
  pqt_status st = read_with_kms(path, "0123456789012345", true, &out, &e);
  CHECK_MSG(st == PQT_OK, "%s", e.message);
  for (int i = 0; i < 100; i++) pqt_buf_printf(&want, NULL, "{\"integers\":%d,\"strings\":\"%c%d\"}\n", i, 'a' + i % 10, i);
  CHECK_MSG(out.len == want.len && memcmp(out.data, want.data, want.len) == 0, "external material: rows differ (%zu bytes)",
            out.len);
  /* a wrong master key: PQT_ECRYPTO naming the master key, never a key */
  pqt_buf_clear(&out);
  st = read_with_kms(path, "0123456789012346", true, &out, &e);
  CHECK_EQ_INT(st, PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "master key \"kf\"") && strstr(e.message, "authentication failed"), "%s", e.message);
  CHECK_MSG(!strstr(e.message, "012345"), "%s", e.message);
  /* no master key kf / kc1 */
  st = read_with_kms(path, NULL, true, &out, &e);
  CHECK_EQ_INT(st, PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "no master key \"kf\""), "%s", e.message);
  pqt_buf_clear(&out);
  st = read_with_kms(path, "0123456789012345", false, &out, &e);
  CHECK_EQ_INT(st, PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "no master key \"kc1\"") && strstr(e.message, "integers"), "%s", e.message);
  /* the material file missing: named */
  char tmpdir[] = "/tmp/pqt-kt-XXXXXX";
  CHECK(mkdtemp(tmpdir) != NULL);
  char copy[4200];
  snprintf(copy, sizeof copy, "%s/f.parquet.encrypted", tmpdir);
  FILE *in = fopen(path, "rb"), *o = fopen(copy, "wb");
  CHECK(in && o);
  char buf[4096];
  size_t n;
  while (in && o && (n = fread(buf, 1, sizeof buf, in)) > 0) CHECK(fwrite(buf, 1, n, o) == n);
  if (in) fclose(in);
  if (o) fclose(o);
  st = read_with_kms(copy, "0123456789012345", true, &out, &e);
  CHECK_EQ_INT(st, PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "_KEY_MATERIAL_FOR_f.parquet.encrypted.json"), "%s", e.message);
  remove(copy);
  rmdir(tmpdir);
  pqt_buf_free(&out);
  pqt_buf_free(&want);
}

static void setup(void) { g_dir = pqt_testing_dir(); }

RUN_TESTS("encrypted_corpus", TEST_CASE(setup), TEST_CASE(test_explicit_keys_128),
          TEST_CASE(test_key_retriever_128_and_256), TEST_CASE(test_missing_keys),
          TEST_CASE(test_wrong_keys_and_prefixes), TEST_CASE(test_tampering),
          TEST_CASE(test_bloom_filter_and_page_index), TEST_CASE(test_reencrypt_corpus_modules),
          TEST_CASE(test_mutations), TEST_CASE(test_keytools_external_material))
