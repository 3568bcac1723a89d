/* Encrypted files written by parquetry, for the tests of the writer's
 * encryption (tests/roundtrip/test_encrypted_write.c,
 * tests/conformance/test_encrypted_write_tamper.c): one schema with flat,
 * nested and repeated columns, deterministic rows, written under a
 * configuration (algorithm, footer mode, keys, AAD prefix, page version,
 * dictionary, page index, Bloom filters) into a memory buffer. */
#ifndef PQT_TESTS_ENCRYPT_FIXTURE_H
#define PQT_TESTS_ENCRYPT_FIXTURE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"

#define EF_SCHEMA                                                                      \
  "message m {\n"                                                                      \
  "  required int64 id;\n"                                                             \
  "  optional binary name (STRING);\n"                                                 \
  "  optional double score;\n"                                                         \
  "  optional group tags (LIST) { repeated group list { optional int32 element; } }\n" \
  "  optional group s { required int32 a; optional binary b (STRING); }\n"             \
  "}\n"
#define EF_LEAVES 6

enum { EF_FOOTER_ONLY = 0, EF_COLUMN_KEYS = 1, EF_SOME_PLAIN = 2 };
enum { EF_AAD_NONE = 0, EF_AAD_STORED = 1, EF_AAD_SUPPLIED = 2 };

typedef struct ef_cfg {
  int32_t algorithm; /* PQT_ENCRYPTION_AES_GCM_V1 / _CTR_V1; 0: no encryption */
  int plaintext_footer;
  int keys; /* EF_* */
  int aad;  /* EF_AAD_* */
  int v2, dict, page_index, bloom;
  size_t key_len;    /* 16, 24 or 32 */
  int64_t rows;      /* default 2400 */
  int64_t rg_rows;   /* rows per row group (default 1000) */
  int64_t page_rows; /* page_row_limit (default 300: several pages per chunk) */
} ef_cfg;

/* The keys: footer, and one per column key (ASCII, so they read as text). */
static const char ef_footer_key[] = "footer-key-0123456789abcdefghijk";
static const char *const ef_col_key[] = {"col-key-A-0123456789abcdefghijkl", "col-key-B-0123456789abcdefghijkl",
                                         "col-key-C-0123456789abcdefghijkl", "col-key-D-0123456789abcdefghijkl",
                                         "col-key-E-0123456789abcdefghijkl"};
static const char ef_aad_prefix[] = "tables/orders/2026-11-25";

static inline size_t ef_strlen0(const char *s) { return s ? strlen(s) : 0; }

/* The column keys of a configuration, as the reader takes them. */
typedef struct ef_read_keys {
  pqt_column_key ck[8];
  int n;
} ef_read_keys;

/* Encryption options for cfg (the arrays live in *cols). */
static inline void ef_encryption(const ef_cfg *c, pqt_encryption_options *eo, pqt_column_encryption cols[8],
                                 ef_read_keys *rk) {
  pqt_encryption_options_init(eo);
  eo->algorithm = c->algorithm;
  eo->plaintext_footer = c->plaintext_footer;
  eo->footer_key = (const uint8_t *)ef_footer_key;
  eo->footer_key_len = c->key_len;
  eo->footer_key_metadata = (const uint8_t *)"kf";
  eo->footer_key_metadata_len = 2;
  int n = 0;
  rk->n = 0;
  size_t kl = c->key_len;
#define EF_COL(p, k, km)                                                                                             \
  do {                                                                                                               \
    cols[n] = (pqt_column_encryption){p, (const uint8_t *)(k), (k) ? kl : 0, (const uint8_t *)(km), ef_strlen0(km)}; \
    n++;                                                                                                             \
  } while (0)
  if (c->keys == EF_COLUMN_KEYS) {
    EF_COL("id", ef_col_key[0], "kA");
    EF_COL("name", ef_col_key[1], "kB");
    EF_COL("score", ef_col_key[2], NULL);
    EF_COL("tags", ef_col_key[3], "kD"); /* a group: its leaf */
    EF_COL("s", ef_col_key[4], "kE");    /* a group: both leaves */
    const char *paths[] = {"id", "name", "score", "tags.list.element", "s.a", "s.b"};
    const int kidx[] = {0, 1, 2, 3, 4, 4};
    for (int i = 0; i < 6; i++) rk->ck[rk->n++] = (pqt_column_key){paths[i], (const uint8_t *)ef_col_key[kidx[i]], kl};
  } else if (c->keys == EF_SOME_PLAIN) {
    EF_COL("name", ef_col_key[1], "kB");
    EF_COL("tags", NULL, NULL); /* footer key */
    EF_COL("s.b", ef_col_key[2], "kC");
    rk->ck[rk->n++] = (pqt_column_key){"name", (const uint8_t *)ef_col_key[1], kl};
    rk->ck[rk->n++] = (pqt_column_key){"s.b", (const uint8_t *)ef_col_key[2], kl};
  }
#undef EF_COL
  eo->columns = n ? cols : NULL;
  eo->n_columns = n;
  if (c->aad != EF_AAD_NONE) {
    eo->aad_prefix = (const uint8_t *)ef_aad_prefix;
    eo->aad_prefix_len = strlen(ef_aad_prefix);
    eo->store_aad_prefix = c->aad == EF_AAD_STORED;
  }
}

/* Read options with every key of cfg (and the AAD prefix when supplied). */
static inline void ef_read_options(const ef_cfg *c, pqt_read_options *ro, ef_read_keys *rk) {
  pqt_read_options_init(ro);
  if (!c->algorithm) return;
  ro->footer_key = (const uint8_t *)ef_footer_key;
  ro->footer_key_len = c->key_len;
  ro->column_keys = rk->n ? rk->ck : NULL;
  ro->n_column_keys = rk->n;
  if (c->aad == EF_AAD_SUPPLIED) {
    ro->aad_prefix = (const uint8_t *)ef_aad_prefix;
    ro->aad_prefix_len = strlen(ef_aad_prefix);
  }
}

/* Write the fixture's rows under cfg into *out (caller frees). 0 on success. */
static inline int ef_write(const ef_cfg *c, pqt_string *out, pqt_error *e) {
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.defaults.page_version = c->v2 ? 2 : 1;
  wo.defaults.dictionary = c->dict;
  wo.defaults.page_index = c->page_index;
  wo.defaults.bloom_filter = c->bloom;
  wo.defaults.bloom_ndv = 200;
  wo.defaults.page_row_limit = c->page_rows > 0 ? c->page_rows : 300;
  pqt_encryption_options eo;
  pqt_column_encryption cols[8];
  ef_read_keys rk;
  if (c->algorithm) {
    ef_encryption(c, &eo, cols, &rk);
    wo.encryption = &eo;
  }
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message = EF_SCHEMA;
  memset(out, 0, sizeof *out);
  pqt_writer *w;
  if (pqt_writer_open_buffer(&w, out, &ws, &wo, e) != PQT_OK) return -1;
  int64_t rows = c->rows > 0 ? c->rows : 2400, per = c->rg_rows > 0 ? c->rg_rows : 1000;
  size_t cap = (size_t)per * 4 + 8;
  int64_t *ids = malloc((size_t)per * 8);
  double *sc = malloc((size_t)per * 8);
  int32_t *iv = malloc(cap * 4), *sa = malloc((size_t)per * 4);
  int16_t *d1 = malloc(cap * 2), *r1 = malloc(cap * 2), *d2 = malloc(cap * 2);
  int32_t *off = malloc(((size_t)per + 1) * 4), *off2 = malloc(((size_t)per + 1) * 4);
  char *txt = malloc((size_t)per * 16), *txt2 = malloc((size_t)per * 16);
  int rc = 0;
  for (int64_t base = 0; base < rows && rc == 0; base += per) {
    int64_t n = rows - base < per ? rows - base : per;
    /* id */
    for (int64_t i = 0; i < n; i++) ids[i] = base + i;
    if (pqt_writer_write_column(w, 0, n, NULL, NULL, ids, NULL, n, e) != PQT_OK) rc = -1;
    /* name: null every 7th, 50 distinct values */
    int64_t nv = 0;
    size_t tl = 0;
    off[0] = 0;
    for (int64_t i = 0; i < n; i++) {
      int64_t r = base + i;
      d1[i] = r % 7 != 0;
      if (!d1[i]) continue;
      tl += (size_t)sprintf(txt + tl, "name-%d", (int)(r % 50));
      off[++nv] = (int32_t)tl;
    }
    if (!rc && pqt_writer_write_column(w, 1, n, d1, NULL, txt, off, nv, e) != PQT_OK) rc = -1;
    /* score: null every 5th */
    nv = 0;
    for (int64_t i = 0; i < n; i++) {
      int64_t r = base + i;
      d1[i] = r % 5 != 0;
      if (d1[i]) sc[nv++] = (double)r * 0.5 - 100.0;
    }
    if (!rc && pqt_writer_write_column(w, 2, n, d1, NULL, sc, NULL, nv, e) != PQT_OK) rc = -1;
    /* tags: r % 4 elements, null list every 9th, element 1 null */
    int64_t nl = 0;
    nv = 0;
    for (int64_t i = 0; i < n; i++) {
      int64_t r = base + i;
      if (r % 9 == 0) {
        d1[nl] = 0, r1[nl++] = 0;
        continue;
      }
      int k = (int)(r % 4);
      if (k == 0) {
        d1[nl] = 1, r1[nl++] = 0;
        continue;
      }
      for (int j = 0; j < k; j++) {
        r1[nl] = j == 0 ? 0 : 1;
        if (j == 1) d1[nl++] = 2;
        else d1[nl++] = 3, iv[nv++] = (int32_t)(r * 10 + j);
      }
    }
    if (!rc && pqt_writer_write_column(w, 3, nl, d1, r1, iv, NULL, nv, e) != PQT_OK) rc = -1;
    /* s: null every 11th; s.b null every 3rd */
    int64_t na = 0, nb = 0;
    size_t tl2 = 0;
    off2[0] = 0;
    for (int64_t i = 0; i < n; i++) {
      int64_t r = base + i;
      bool present = r % 11 != 0;
      d1[i] = present;
      if (present) sa[na++] = (int32_t)(r * 3);
      d2[i] = !present ? 0 : r % 3 == 0 ? 1 : 2;
      if (d2[i] == 2) {
        tl2 += (size_t)sprintf(txt2 + tl2, "b%lld", (long long)r);
        off2[++nb] = (int32_t)tl2;
      }
    }
    if (!rc && pqt_writer_write_column(w, 4, n, d1, NULL, sa, NULL, na, e) != PQT_OK) rc = -1;
    if (!rc && pqt_writer_write_column(w, 5, n, d2, NULL, txt2, off2, nb, e) != PQT_OK) rc = -1;
    if (!rc && pqt_writer_flush_row_group(w, e) != PQT_OK) rc = -1;
  }
  free(ids), free(sc), free(iv), free(sa), free(d1), free(r1), free(d2), free(off), free(off2), free(txt), free(txt2);
  if (rc) {
    pqt_writer_discard(w);
    return -1;
  }
  return pqt_writer_close(w, e) == PQT_OK ? 0 : -1;
}

static inline pqt_status ef_collect(void *ctx, const char *d, size_t n) {
  pqt_string *s = ctx;
  if (s->len + n + 1 > s->cap) {
    size_t nc = (s->len + n + 1) * 2;
    char *p = realloc(s->data, nc);
    if (!p) return PQT_ENOMEM;
    s->data = p;
    s->cap = nc;
  }
  memcpy(s->data + s->len, d, n);
  s->len += n;
  s->data[s->len] = 0;
  return PQT_OK;
}

/* The rows of a file as JSON lines (our reader); PQT_OK or the error. */
static inline pqt_status ef_read_text(const void *img, size_t len, const pqt_read_options *ro, pqt_string *text,
                                      pqt_error *e) {
  memset(text, 0, sizeof *text);
  pqt_reader *r;
  pqt_status st = pqt_reader_open_buffer(&r, img, len, ro, e);
  if (st != PQT_OK) return st;
  st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, ef_collect, text, e);
  pqt_reader_close(r);
  return st;
}

#endif
