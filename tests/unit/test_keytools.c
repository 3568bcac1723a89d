/* Key tools (include/parquetry_keytools.h): the key material parser on
 * parquet-java's material from the corpus (the external file of
 * external_key_material_java.parquet.encrypted) and on bad material; files
 * written with key tools (internal and external material, single and
 * double wrapping, plaintext and encrypted footer, 16- and 32-byte data
 * keys) read back through pqt_keytools_key_retriever, the code path that
 * reads the corpus file; the written material in parquet-java's form;
 * clean errors for a wrong or missing master key and a missing material
 * file, never showing a key. */
#include <unistd.h>

#include "crypto/key_material_json.h"
#include "harness.h"
#include "parquetry_keytools.h"

static const char *const mk_kf = "0123456789012345", *const mk_kc1 = "1234567890123450";

static void test_parse_corpus_material(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/data/_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json", dir);
  size_t len = 0;
  unsigned char *buf = pqt_test_read_file(path, &len);
  CHECK_MSG(buf != NULL, "cannot read %s", path);
  if (!buf) return;
  pqt_error e;
  pqt_json_flat file;
  CHECK_MSG(pqt_json_flat_parse((const char *)buf, len, "file", &file, &e) == PQT_OK, "%s", e.message);
  CHECK_EQ_INT(file.n, 3);
  const pqt_json_flat_member *f = pqt_json_flat_get(&file, "footerKey");
  CHECK(f && f->kind == PQT_JSON_FLAT_STRING);
  pqt_key_material m;
  CHECK_MSG(pqt_key_material_parse(f->value, f->value_len, false, &m, &e) == PQT_OK, "%s", e.message);
  CHECK(m.is_footer_key && m.double_wrapping);
  CHECK_EQ_STR(m.master_key_id, "kf");
  CHECK_EQ_STR(m.kms_instance_id, "DEFAULT");
  CHECK_EQ_STR(m.kek_id, "NFkiTmDXYzZMTb+O3b9nSA==");
  uint8_t raw[64];
  size_t n;
  CHECK(pqt_km_base64_decode(m.wrapped_dek, strlen(m.wrapped_dek), raw, sizeof raw, &n, "x", &e) == PQT_OK);
  CHECK_EQ_INT(n, 12 + 16 + 16); /* nonce | 16-byte DEK | tag */
  /* written back in the same form: same fields, parsed again equal */
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK(pqt_key_material_write(&m, false, &b, &e) == PQT_OK);
  pqt_key_material r;
  CHECK(pqt_key_material_parse((const char *)b.data, b.len, false, &r, &e) == PQT_OK);
  CHECK_EQ_STR(r.wrapped_kek, m.wrapped_kek);
  CHECK_EQ_STR(r.wrapped_dek, m.wrapped_dek);
  pqt_key_material_free(&r);
  pqt_buf_free(&b);
  pqt_key_material_free(&m);
  const pqt_json_flat_member *c = pqt_json_flat_get(&file, "columnKey0");
  CHECK(c && pqt_key_material_parse(c->value, c->value_len, false, &m, &e) == PQT_OK);
  CHECK(!m.is_footer_key && m.kms_instance_id == NULL);
  CHECK_EQ_STR(m.master_key_id, "kc1");
  pqt_key_material_free(&m);
  pqt_json_flat_free(&file);
  free(buf);
}

static void test_bad_material(void) {
  static const char *const bad[] = {
      "",
      "[]",
      "{\"keyMaterialType\":\"PKMT1\"",
      "{\"keyMaterialType\":\"PKMT2\",\"internalStorage\":false,\"keyReference\":\"x\"}",
      "{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":false}",
      "{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":\"no\",\"keyReference\":\"x\"}",
      "{\"keyMaterialType\":\"PKMT1\",\"keyMaterialType\":\"PKMT1\"}",
      "{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":true,\"isFooterKey\":true,\"masterKeyID\":\"kf\","
      "\"wrappedDEK\":\"AAAA\",\"doubleWrapping\":true}",
      "{\"a\":{\"b\":1}}",
      "{\"a\":\"\\u0000\"}",
      "{\"a\":\"\xff\"}",
      "{\"a\":1} x",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    pqt_error e;
    pqt_error_init(&e);
    pqt_key_material m;
    pqt_status st = pqt_key_metadata_parse(bad[i], strlen(bad[i]), &m, &e);
    CHECK_MSG(st == PQT_ECRYPTO && e.message[0], "bad material %zu: status %d", i, st);
  }
  uint8_t out[8];
  size_t n;
  pqt_error e;
  CHECK(pqt_km_base64_decode("AAA", 3, out, sizeof out, &n, "x", &e) == PQT_ECRYPTO);
  CHECK(pqt_km_base64_decode("A=AA", 4, out, sizeof out, &n, "x", &e) == PQT_ECRYPTO);
  CHECK(pqt_km_base64_decode("AAAAAAAAAAAA", 12, out, sizeof out, &n, "x", &e) == PQT_ECRYPTO); /* 9 > 8 */
  CHECK(pqt_km_base64_decode("AQI=", 4, out, sizeof out, &n, "x", &e) == PQT_OK && n == 2 && out[1] == 2);
}

/* ---- round trips ---- */
typedef struct rt {
  bool external, single, plaintext_footer;
  int32_t dek_bytes;
} rt;

static pqt_status collect(void *ctx, const char *d, size_t n) { return pqt_buf_append(ctx, d, n, NULL); }

static pqt_inmemory_kms *make_kms(const char *kf, const char *kc1) {
  pqt_inmemory_kms *kms;
  pqt_error e;
  CHECK(pqt_inmemory_kms_new(&kms, &e) == PQT_OK);
  if (kf) CHECK(pqt_inmemory_kms_add_key(kms, "kf", (const uint8_t *)kf, strlen(kf), &e) == PQT_OK);
  if (kc1) CHECK(pqt_inmemory_kms_add_key(kms, "kc1", (const uint8_t *)kc1, strlen(kc1), &e) == PQT_OK);
  return kms;
}

/* Read path with the key tools (the corpus file's code path). */
static pqt_status read_back(const char *path, pqt_inmemory_kms *kms, pqt_buf *out, pqt_error *e) {
  pqt_kms_client c;
  pqt_inmemory_kms_client(kms, &c);
  pqt_keytools_reader *kr;
  CHECK(pqt_keytools_reader_new(&kr, &c, path, e) == PQT_OK);
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.key_retriever = pqt_keytools_key_retriever;
  ro.key_retriever_ctx = kr;
  pqt_reader *r;
  pqt_status st = pqt_reader_open_file(&r, path, &ro, e);
  if (st == PQT_OK) {
    st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, collect, out, e);
    pqt_reader_close(r);
  }
  pqt_keytools_reader_free(kr);
  return st;
}

static void write_file(const char *path, const rt *t, pqt_inmemory_kms *kms) {
  pqt_error e;
  pqt_kms_client c;
  pqt_inmemory_kms_client(kms, &c);
  pqt_keytools_column cols[2] = {{"id", "kf"}, {"email", "kc1"}};
  pqt_keytools_write_options ko;
  pqt_keytools_write_options_init(&ko);
  ko.kms = &c;
  ko.footer_master_key_id = "kf";
  ko.columns = cols;
  ko.n_columns = 2;
  ko.double_wrapping = !t->single;
  ko.external_key_material = t->external;
  ko.data_key_bytes = t->dek_bytes;
  pqt_keytools_writer *kw;
  CHECK_MSG(pqt_keytools_writer_new(&kw, &ko, &e) == PQT_OK, "%s", e.message);
  pqt_encryption_options enc;
  pqt_encryption_options_init(&enc);
  enc.plaintext_footer = t->plaintext_footer;
  CHECK(pqt_keytools_writer_fill(kw, &enc, &e) == PQT_OK);
  CHECK_EQ_INT(enc.n_columns, 2);
  CHECK_EQ_INT(enc.footer_key_len, t->dek_bytes);
  /* the metadata: parquet-java's form */
  const char *want = t->external
                         ? "{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":false,\"keyReference\":\"footerKey\"}"
                         : "{\"keyMaterialType\":\"PKMT1\",\"internalStorage\":true,\"isFooterKey\":true,"
                           "\"kmsInstanceID\":\"DEFAULT\",\"kmsInstanceURL\":\"DEFAULT\",\"masterKeyID\":\"kf\","
                           "\"wrappedDEK\":\"";
  CHECK_MSG(enc.footer_key_metadata_len >= strlen(want) && memcmp(enc.footer_key_metadata, want, strlen(want)) == 0,
            "footer key_metadata %.*s", (int)enc.footer_key_metadata_len, (const char *)enc.footer_key_metadata);
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.encryption = &enc;
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message = "message m { required int64 id; required binary email (STRING); required binary country (STRING); }";
  pqt_writer *w;
  CHECK_MSG(pqt_writer_open_file(&w, path, &ws, &wo, &e) == PQT_OK, "%s", e.message);
  int64_t ids[3] = {1, 2, 3};
  const char emails[] = "ann@example.combob@example.orgcy@example.net";
  int32_t eo[4] = {0, 15, 30, 44};
  const char countries[] = "NOSEFI";
  int32_t co[4] = {0, 2, 4, 6};
  CHECK(pqt_writer_write_column(w, 0, 3, NULL, NULL, ids, NULL, 3, &e) == PQT_OK);
  CHECK(pqt_writer_write_column(w, 1, 3, NULL, NULL, emails, eo, 3, &e) == PQT_OK);
  CHECK(pqt_writer_write_column(w, 2, 3, NULL, NULL, countries, co, 3, &e) == PQT_OK);
  CHECK(pqt_keytools_writer_store(kw, path, &e) == PQT_OK);
  CHECK_MSG(pqt_writer_close(w, &e) == PQT_OK, "%s", e.message);
  pqt_keytools_writer_free(kw);
}

static void test_round_trips(void) {
  char dir[] = "/tmp/pqt-keytools-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  const char *want =
      "{\"id\":1,\"email\":\"ann@example.com\",\"country\":\"NO\"}\n"
      "{\"id\":2,\"email\":\"bob@example.org\",\"country\":\"SE\"}\n"
      "{\"id\":3,\"email\":\"cy@example.net\",\"country\":\"FI\"}\n";
  int cases = 0;
  for (int v = 0; v < 16; v++) {
    rt t = {.external = v & 1,
            .single = (v >> 1) & 1,
            .plaintext_footer = (v >> 2) & 1,
            .dek_bytes = (v >> 3) & 1 ? 32 : 16};
    char path[256], mpath[300];
    snprintf(path, sizeof path, "%s/f%d.parquet", dir, v);
    pqt_error e;
    CHECK(pqt_keytools_material_path(path, mpath, sizeof mpath, &e) == PQT_OK);
    pqt_inmemory_kms *kms = make_kms(mk_kf, mk_kc1);
    write_file(path, &t, kms);
    CHECK_MSG((access(mpath, F_OK) == 0) == t.external, "case %d: material file %s", v, mpath);
    pqt_buf out;
    pqt_buf_init(&out, NULL);
    pqt_status st = read_back(path, kms, &out, &e);
    CHECK_MSG(st == PQT_OK, "case %d: %s", v, e.message);
    CHECK_MSG(out.len == strlen(want) && memcmp(out.data, want, out.len) == 0, "case %d: %.*s", v, (int)out.len,
              (const char *)out.data);
    pqt_inmemory_kms_free(kms);
    /* a wrong master key kc1: the email column fails, the message names kc1, shows no key */
    kms = make_kms(mk_kf, "1234567890123459");
    pqt_buf_clear(&out);
    st = read_back(path, kms, &out, &e);
    CHECK_EQ_INT(st, PQT_ECRYPTO);
    CHECK_MSG(strstr(e.message, "\"kc1\"") && strstr(e.message, "email") && !strstr(e.message, "123456789012345"),
              "case %d: %s", v, e.message);
    pqt_inmemory_kms_free(kms);
    /* no master key kf */
    kms = make_kms(NULL, mk_kc1);
    pqt_buf_clear(&out);
    st = read_back(path, kms, &out, &e);
    CHECK_EQ_INT(st, PQT_ECRYPTO);
    CHECK_MSG(strstr(e.message, "no master key \"kf\""), "case %d: %s", v, e.message);
    /* the material file missing: named */
    if (t.external) {
      pqt_inmemory_kms_free(kms);
      kms = make_kms(mk_kf, mk_kc1);
      CHECK(remove(mpath) == 0);
      st = read_back(path, kms, &out, &e);
      CHECK_EQ_INT(st, PQT_ECRYPTO);
      CHECK_MSG(strstr(e.message, mpath), "case %d: %s", v, e.message);
    }
    pqt_inmemory_kms_free(kms);
    pqt_buf_free(&out);
    remove(path);
    cases++;
  }
  CHECK_EQ_INT(cases, 16);
  rmdir(dir);
}

static void test_api_misuse(void) {
  pqt_error e;
  pqt_inmemory_kms *kms = make_kms(mk_kf, NULL);
  CHECK(pqt_inmemory_kms_add_key(kms, "kf", (const uint8_t *)mk_kc1, 16, &e) == PQT_EINVAL); /* twice */
  CHECK(pqt_inmemory_kms_add_key(kms, "k2", (const uint8_t *)mk_kc1, 15, &e) == PQT_EINVAL);
  CHECK(pqt_inmemory_kms_add_key_base64(kms, "k3", "MDEyMzQ1Njc4OTAxMjM0NQ", &e) == PQT_EINVAL); /* no padding */
  CHECK_MSG(!strstr(e.message, "MDEy"), "%s", e.message);
  /* many master keys (the table grows); wrap / unwrap with the last */
  for (int k = 0; k < 20; k++) {
    char id[8];
    uint8_t key[32];
    snprintf(id, sizeof id, "m%d", k);
    for (int i = 0; i < 32; i++) key[i] = (uint8_t)(k + i);
    CHECK(pqt_inmemory_kms_add_key(kms, id, key, k % 2 ? 32 : 24, &e) == PQT_OK);
  }
  pqt_kms_client c;
  pqt_inmemory_kms_client(kms, &c);
  char wrapped[PQT_KMS_WRAPPED_MAX];
  uint8_t key[32], back[32];
  size_t back_len = 0;
  memset(key, 7, sizeof key);
  CHECK(c.wrap(c.ctx, "m19", key, 24, wrapped, sizeof wrapped, &e) == PQT_OK);
  CHECK(c.unwrap(c.ctx, "m19", wrapped, back, sizeof back, &back_len, &e) == PQT_OK);
  CHECK(back_len == 24 && memcmp(back, key, 24) == 0);
  CHECK(c.unwrap(c.ctx, "m18", wrapped, back, sizeof back, &back_len, &e) == PQT_ECRYPTO); /* AAD: the id */
  pqt_keytools_write_options ko;
  pqt_keytools_write_options_init(&ko);
  CHECK_EQ_INT(ko.double_wrapping, 1);
  CHECK_EQ_INT(ko.data_key_bytes, 16);
  ko.kms = &c;
  pqt_keytools_writer *kw = NULL;
  CHECK(pqt_keytools_writer_new(&kw, &ko, &e) == PQT_EINVAL); /* no footer master key */
  ko.footer_master_key_id = "nope";
  CHECK(pqt_keytools_writer_new(&kw, &ko, &e) == PQT_ECRYPTO);
  CHECK_MSG(strstr(e.message, "\"nope\""), "%s", e.message);
  CHECK(kw == NULL);
  pqt_inmemory_kms_free(kms);
  pqt_inmemory_kms_free(NULL);
  pqt_keytools_writer_free(NULL);
  pqt_keytools_reader_free(NULL);
}

RUN_TESTS("keytools", TEST_CASE(test_parse_corpus_material), TEST_CASE(test_bad_material), TEST_CASE(test_round_trips),
          TEST_CASE(test_api_misuse))
