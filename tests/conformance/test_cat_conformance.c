/*
 * Conformance: `cat` output of every corpus file against DuckDB's values.
 *
 * tests/conformance/expected/MANIFEST.tsv lists every corpus file with the
 * status DuckDB gave it, the row count, and the SHA-256 of the complete
 * canonical JSON Lines output; <name>.jsonl holds the first rows. For every
 * "ok" file the full output of pqt_reader_write_text must hash to the same
 * value (the first differing stored line is printed when it does not).
 *
 * Files DuckDB could not read, or read wrongly, are listed below with what
 * we check instead. A file whose result differs from its listed expectation
 * fails the test, so a fixed gap must be moved out of the list.
 */
#include <openssl/evp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "harness.h"
#include "parquetry.h"
#include "parquetry_geo.h"

typedef struct expect_override {
  const char *path;
  int status; /* expected status of reading every row */
  const char *reason;
} expect_override;

/* Files whose expected outcome is not DuckDB's. */
static const expect_override overrides[] = {
    {"data/datapage_v1-corrupt-checksum.parquet", PQT_ECORRUPT,
     "a page's CRC32 is wrong on purpose; DuckDB does not verify CRCs"},
    {"data/rle-dict-uncompressed-corrupt-checksum.parquet", PQT_ECORRUPT,
     "a page's CRC32 is wrong on purpose; DuckDB does not verify CRCs"},
    {"data/large_string_map.brotli.parquet", PQT_ELIMIT,
     "a page claims 1 GiB + 4 bytes uncompressed from 1.6 KB: over the default page limits "
     "(64x expansion, 1 GiB); reading it needs raised limits"},
    {"data/nation.dict-malformed.parquet", PQT_ECORRUPT, "malformed on purpose (dictionary page size)"},
    /* DuckDB decodes VARIANT groups and turns a variant null (value 0x00)
     * into SQL NULL; we print the Variant (null as JSON null). */
    {"shredded_variant/case-047.parquet", PQT_OK, "DuckDB reads the VARIANT, we print it as JSON"},
    {"shredded_variant/case-089.parquet", PQT_OK, "DuckDB reads the VARIANT, we print it as JSON"},
    {"shredded_variant/case-129.parquet", PQT_OK, "DuckDB reads the VARIANT, we print it as JSON"},
    {"shredded_variant/case-135.parquet", PQT_OK, "DuckDB reads the VARIANT, we print it as JSON"},
    /* typed_value fixed_len_byte_array(4): not a shredded type of the spec
     * (the corpus's error case "Unsupported shredded value type") */
    {"shredded_variant/case-137.parquet", PQT_EUNSUPPORTED, "an unsupported shredded value type (corpus error case)"},
};

static const expect_override *find_override(const char *path) {
  for (size_t i = 0; i < sizeof overrides / sizeof overrides[0]; i++)
    if (strcmp(overrides[i].path, path) == 0) return &overrides[i];
  return NULL;
}

typedef struct sink {
  EVP_MD_CTX *md;
  char *text; /* first bytes of output, for diagnostics */
  size_t len, cap;
  bool whole; /* keep all of the output and hash it later (geospatial files) */
} sink;

static pqt_status sink_write(void *ctx, const char *data, size_t n) {
  sink *s = ctx;
  if (!s->whole) EVP_DigestUpdate(s->md, data, n);
  else if (s->len + n > (64u << 20)) return PQT_ELIMIT;
  if (s->whole || s->len < (8u << 20)) {
    if (s->len + n + 1 > s->cap) {
      size_t nc = (s->len + n + 1) * 2;
      char *p = realloc(s->text, nc);
      if (!p) return PQT_ENOMEM;
      s->text = p;
      s->cap = nc;
    }
    memcpy(s->text + s->len, data, n);
    s->len += n;
    s->text[s->len] = '\0';
  }
  return PQT_OK;
}

/*
 * GEOMETRY/GEOGRAPHY. `cat` prints these values as WKT; DuckDB's reference
 * output (MANIFEST.tsv, expected/data__geospatial__*.jsonl) has them as
 * base64 of the stored WKB bytes. The reference is kept as DuckDB made it:
 * our output is turned back into that form before hashing, each value of a
 * geometry column parsed from our WKT into little-endian ISO WKB
 * (pqt_wkt_to_wkb) and base64-encoded. The corpus stores little-endian ISO
 * WKB, so the hashes agree only if every WKT we print names exactly the
 * stored coordinates (shortest round-trip doubles, NaN as NaN). A value
 * that is not WKT (our base64 fallback for invalid WKB) is left as it is.
 */
static bool is_geo_file(const char *rel) { return strncmp(rel, "data/geospatial/", 16) == 0; }

static char *geo_to_duckdb_form(const char *text, const pqt_reader *r) {
  pqt_buf out;
  pqt_buf_init(&out, NULL);
  char keys[8][256];
  int nk = 0;
  for (int32_t c = 0; c < pqt_reader_num_columns(r) && nk < 8; c++) {
    pqt_column_info info;
    pqt_column_info_init(&info);
    if (pqt_reader_column_info(r, c, &info, NULL) != PQT_OK) continue;
    if (info.logical_type == PQT_LOGICAL_GEOMETRY || info.logical_type == PQT_LOGICAL_GEOGRAPHY)
      snprintf(keys[nk++], sizeof keys[0], "\"%s\":\"", info.path);
  }
  const char *p = text;
  while (*p) {
    const char *best = NULL;
    size_t bl = 0;
    for (int k = 0; k < nk; k++) {
      const char *f = strstr(p, keys[k]);
      if (f && (!best || f < best)) best = f, bl = strlen(keys[k]);
    }
    if (!best) {
      pqt_buf_append(&out, p, strlen(p), NULL);
      break;
    }
    const char *v = best + bl, *end = strchr(v, '"');
    pqt_buf_append(&out, p, (size_t)(v - p), NULL);
    if (!end) {
      p = v;
      continue;
    }
    pqt_wkb_buffer wkb = {0};
    if (!memchr(v, '\\', (size_t)(end - v)) && pqt_wkt_to_wkb(v, (size_t)(end - v), NULL, &wkb, NULL) == PQT_OK) {
      pqt_base64_append(&out, wkb.data, wkb.len, NULL);
      pqt_wkb_buffer_free(&wkb);
    } else {
      pqt_buf_append(&out, v, (size_t)(end - v), NULL);
    }
    p = end;
  }
  pqt_buf_append(&out, "", 1, NULL);
  char *t = out.data ? strdup((const char *)out.data) : NULL;
  pqt_buf_free(&out);
  return t;
}

static void first_difference(const char *got, const char *expected_path) {
  size_t n = 0;
  unsigned char *exp = pqt_test_read_file(expected_path, &n);
  if (!exp) {
    fprintf(stderr, "    (no %s)\n", expected_path);
    return;
  }
  const char *g = got, *e = (const char *)exp, *eend = (const char *)exp + n;
  int line = 1;
  while (e < eend) {
    const char *ge = strchr(g, '\n'), *ee = memchr(e, '\n', (size_t)(eend - e));
    if (!ee) ee = eend;
    size_t gl = ge ? (size_t)(ge - g) : strlen(g), el = (size_t)(ee - e);
    if (gl != el || memcmp(g, e, el) != 0) {
      fprintf(stderr, "    line %d differs:\n      got:      %.*s\n      expected: %.*s\n", line,
              (int)(gl > 600 ? 600 : gl), g, (int)(el > 600 ? 600 : el), e);
      free(exp);
      return;
    }
    if (!ge) break;
    g = ge + 1;
    e = ee + 1;
    line++;
  }
  fprintf(stderr, "    stored lines agree; the difference is past line %d\n", line);
  free(exp);
}

static void test_corpus_against_duckdb(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char manifest_path[4096];
  snprintf(manifest_path, sizeof manifest_path, "%s/tests/conformance/expected/MANIFEST.tsv", PQT_SOURCE_DIR);
  size_t mlen;
  char *manifest = (char *)pqt_test_read_file(manifest_path, &mlen);
  CHECK(manifest != NULL);
  if (!manifest) return;
  manifest = realloc(manifest, mlen + 1);
  manifest[mlen] = '\0';
  int n_ok = 0, n_checked = 0, n_override = 0, n_other = 0;
  char *save = NULL;
  strtok_r(manifest, "\n", &save); /* header */
  for (char *line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char *cols[6] = {0};
    int nc = 0;
    for (char *p = line; nc < 6;) {
      cols[nc++] = p;
      char *t = strchr(p, '\t');
      if (!t) break;
      *t = '\0';
      p = t + 1;
    }
    if (nc < 5) continue;
    const char *rel = cols[0], *status = cols[1], *sha = cols[4];
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    const expect_override *ov = find_override(rel);
    bool duck_ok = strncmp(status, "ok", 2) == 0 || strncmp(status, "duckdb-imprecise", 16) == 0;
    pqt_reader *r = NULL;
    pqt_error e;
    pqt_error_init(&e);
    sink s = {EVP_MD_CTX_new(), NULL, 0, 0, false};
    EVP_DigestInit_ex(s.md, EVP_sha256(), NULL);
    pqt_status st = pqt_reader_open_file(&r, path, NULL, &e);
    if (st == PQT_OK) {
      s.whole = is_geo_file(rel);
      st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, sink_write, &s, &e);
      if (st == PQT_OK && s.whole) {
        char *t = geo_to_duckdb_form(s.text ? s.text : "", r);
        CHECK(t != NULL);
        if (t) {
          EVP_DigestUpdate(s.md, t, strlen(t));
          free(s.text);
          s.text = t;
        }
      }
      pqt_reader_close(r);
    }
    unsigned char digest[32];
    unsigned int dl = 0;
    EVP_DigestFinal_ex(s.md, digest, &dl);
    char hex[65];
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    if (ov) {
      n_override++;
      CHECK_MSG(st == ov->status, "%s: expected %s (%s), got %s: %s", rel, pqt_status_name(ov->status), ov->reason,
                pqt_status_name(st), e.message);
    } else if (duck_ok) {
      n_checked++;
      if (st != PQT_OK) {
        CHECK_MSG(st == PQT_OK, "%s: %s", rel, e.message);
      } else if (strcmp(hex, sha) != 0) {
        CHECK_MSG(strcmp(hex, sha) == 0, "%s: output differs from DuckDB's", rel);
        char base[1024];
        size_t bl = 0;
        for (const char *p = rel; *p && bl + 3 < sizeof base; p++) {
          if (*p == '/') {
            base[bl++] = '_';
            base[bl++] = '_';
          } else base[bl++] = *p;
        }
        base[bl] = '\0';
        char *dot = strstr(base, ".parquet");
        if (dot) *dot = '\0';
        char exp_path[4096];
        snprintf(exp_path, sizeof exp_path, "%s/tests/conformance/expected/%s.jsonl", PQT_SOURCE_DIR, base);
        first_difference(s.text ? s.text : "", exp_path);
      } else {
        n_ok++;
      }
    } else {
      /* DuckDB could not read it (or it was skipped): no reference values,
       * but reading must end cleanly with a clear status. */
      n_other++;
      CHECK_MSG(st == PQT_OK || st == PQT_ECORRUPT || st == PQT_ECRYPTO || st == PQT_EUNSUPPORTED || st == PQT_ELIMIT,
                "%s: unexpected status %s: %s", rel, pqt_status_name(st), e.message);
      if (st != PQT_OK) fprintf(stderr, "  note: %s (%s): %s\n", rel, pqt_status_name(st), e.message);
    }
    EVP_MD_CTX_free(s.md);
    free(s.text);
  }
  printf("conformance: %d of %d DuckDB-checked files identical; %d with listed expectations; %d without reference\n",
         n_ok, n_checked, n_override, n_other);
  free(manifest);
}

/* Whole canonical output of a corpus file (NULL on error). */
static char *cat_file(const char *rel, const char *const *columns, int32_t n_columns) {
  const char *dir = pqt_testing_dir();
  if (!dir) return NULL;
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_reader_open_file(&r, path, NULL, &e) != PQT_OK) {
    fprintf(stderr, "  %s: %s\n", rel, e.message);
    return NULL;
  }
  sink s = {EVP_MD_CTX_new(), NULL, 0, 0, false};
  EVP_DigestInit_ex(s.md, EVP_sha256(), NULL);
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.columns = columns;
  so.n_columns = n_columns;
  pqt_status st = pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, sink_write, &s, &e);
  if (st != PQT_OK) fprintf(stderr, "  %s: %s\n", rel, e.message);
  pqt_reader_close(r);
  EVP_MD_CTX_free(s.md);
  if (st != PQT_OK) {
    free(s.text);
    return NULL;
  }
  return s.text ? s.text : calloc(1, 1);
}

/* Files DuckDB cannot read, checked against a file with the same data that
 * it can read (the LZ4 framings), or against the corpus's own description. */
static void test_files_duckdb_cannot_read(void) {
  if (!pqt_testing_dir()) return;
  static const char *const same[][2] = {
      {"data/hadoop_lz4_compressed.parquet", "data/lz4_raw_compressed.parquet"},
      {"data/non_hadoop_lz4_compressed.parquet", "data/lz4_raw_compressed.parquet"},
      {"data/hadoop_lz4_compressed_larger.parquet", "data/lz4_raw_compressed_larger.parquet"},
  };
  for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
    char *a = cat_file(same[i][0], NULL, 0), *b = cat_file(same[i][1], NULL, 0);
    CHECK_MSG(a && b && strlen(a) > 0 && strcmp(a, b) == 0, "%s differs from %s", same[i][0], same[i][1]);
    free(a);
    free(b);
  }
  /* BYTE_STREAM_SPLIT on every type: each *_byte_stream_split column holds
   * the values of its *_plain twin (DuckDB reads only FLOAT/DOUBLE). */
  static const char *const kinds[] = {"float16", "float", "double", "int32", "int64", "flba5", "decimal"};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    char c1[64], c2[64];
    snprintf(c1, sizeof c1, "%s_plain", kinds[i]);
    snprintf(c2, sizeof c2, "%s_byte_stream_split", kinds[i]);
    const char *p1[] = {c1}, *p2[] = {c2};
    char *a = cat_file("data/byte_stream_split_extended.gzip.parquet", p1, 1);
    char *b = cat_file("data/byte_stream_split_extended.gzip.parquet", p2, 1);
    CHECK_MSG(a && b, "byte_stream_split_extended: %s", kinds[i]);
    if (a && b) {
      /* same values under different keys: compare with the keys cut off */
      char *pa = a, *pb = b;
      int lines = 0;
      bool same_values = true;
      while (*pa && *pb) {
        char *va = strchr(pa, ':'), *vb = strchr(pb, ':');
        char *ea = strchr(pa, '\n'), *eb = strchr(pb, '\n');
        if (!va || !vb || !ea || !eb || (ea - va) != (eb - vb) || memcmp(va, vb, (size_t)(ea - va)) != 0) {
          same_values = false;
          break;
        }
        pa = ea + 1;
        pb = eb + 1;
        lines++;
      }
      CHECK_MSG(same_values && lines > 100 && !*pa && !*pb, "byte_stream_split_extended: %s columns differ", kinds[i]);
    }
    free(a);
    free(b);
  }
  /* map_no_value.md: keys 1..9 in three maps of three, values absent
   * (the optional value column holds only nulls), the list the same keys. */
  char *m = cat_file("data/map_no_value.parquet", NULL, 0);
  CHECK(m != NULL);
  if (m) {
    const char *want =
        "{\"my_map\":[{\"key\":1,\"value\":null},{\"key\":2,\"value\":null},{\"key\":3,\"value\":null}],"
        "\"my_map_no_v\":[{\"key\":1,\"value\":null},{\"key\":2,\"value\":null},{\"key\":3,\"value\":null}],"
        "\"my_list\":[1,2,3]}\n";
    CHECK_MSG(strncmp(m, want, strlen(want)) == 0, "map_no_value first row: %.300s", m);
    CHECK(strstr(m, "\"my_list\":[7,8,9]}\n") != NULL);
    free(m);
  }
}

RUN_TESTS("cat_conformance", TEST_CASE(test_corpus_against_duckdb), TEST_CASE(test_files_duckdb_cannot_read))
