/* Unit tests for src/codec: round trips, exact-size enforcement, corrupt and
 * truncated input, the LZ4 framings, multi-member gzip, multi-frame zstd,
 * allocator use, CRC-32 vectors, and real pages from parquet-testing. */
#include <libdeflate.h>
#include <lz4.h>
#include <lz4frame.h>
#include <zstd.h>

#include "codec/codec.h"
#include "harness.h"
#include "rng.h"
#include "parquetry_meta.h"
#include "thrift/parquet_types.h"

/* ---- helpers ------------------------------------------------------------ */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) {
  return pqt_test_xorshift(&rng_state);
}

static uint8_t *make_random(size_t n) {
  uint8_t *p = malloc(n ? n : 1);
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rng();
  return p;
}

/* Text-like, highly compressible. */
static uint8_t *make_text(size_t n) {
  static const char words[] = "parquet column page row group dictionary zstd snappy ";
  uint8_t *p = malloc(n ? n : 1);
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)words[(i + (i / 997)) % (sizeof words - 1)];
  return p;
}

/* Semi-compressible: small alphabet with runs. */
static uint8_t *make_mixed(size_t n) {
  uint8_t *p = malloc(n ? n : 1);
  for (size_t i = 0; i < n;) {
    uint8_t v = (uint8_t)('a' + rng() % 8);
    size_t run = 1 + rng() % 12;
    for (size_t j = 0; j < run && i < n; j++) p[i++] = v;
  }
  return p;
}

static const int all_codecs[] = {PQT_CODEC_UNCOMPRESSED, PQT_CODEC_SNAPPY, PQT_CODEC_GZIP, PQT_CODEC_LZO,
                                 PQT_CODEC_BROTLI,       PQT_CODEC_LZ4,    PQT_CODEC_ZSTD, PQT_CODEC_LZ4_RAW};
#define N_CODECS (sizeof all_codecs / sizeof all_codecs[0])

/* The prefix every error message of a codec starts with. */
static const char *msg_prefix(int codec) {
  switch (codec) {
    case PQT_CODEC_UNCOMPRESSED: return "UNCOMPRESSED:";
    case PQT_CODEC_SNAPPY: return "snappy:";
    case PQT_CODEC_GZIP: return "gzip:";
    case PQT_CODEC_LZO: return "lzo:";
    case PQT_CODEC_BROTLI: return "brotli:";
    case PQT_CODEC_LZ4: return "lz4:";
    case PQT_CODEC_ZSTD: return "zstd:";
    case PQT_CODEC_LZ4_RAW: return "lz4_raw:";
    default: return "?";
  }
}

static pqt_codec_ctx *new_ctx(void) {
  pqt_codec_ctx *ctx = NULL;
  CHECK_OK(pqt_codec_ctx_create(&ctx, NULL, NULL));
  return ctx;
}

/* Compress into a fresh buffer; returns PQT status. */
static pqt_status compress(pqt_codec_ctx *ctx, int codec, int level, const uint8_t *src, size_t n, pqt_buf *out) {
  pqt_buf_init(out, NULL);
  pqt_error err;
  pqt_error_init(&err);
  pqt_status st = pqt_codec_compress(ctx, codec, level, src, n, out, &err);
  if (st != PQT_OK) fprintf(stderr, "  compress %s: %s\n", pqt_codec_name(codec), err.message);
  return st;
}

/* Decompress into an exactly-sized heap buffer (so ASan sees any overrun). */
static pqt_status decompress_exact(pqt_codec_ctx *ctx, int codec, const uint8_t *src, size_t n, size_t dst_len,
                                   uint8_t **out, pqt_error *err) {
  uint8_t *dst = dst_len ? malloc(dst_len) : NULL;
  pqt_error_init(err);
  pqt_status st = pqt_codec_decompress(ctx, codec, src, n, dst, dst_len, err);
  if (out) *out = dst;
  else free(dst);
  return st;
}

/* ---- tests -------------------------------------------------------------- */

static void test_names_and_availability(void) {
  CHECK_EQ_STR(pqt_codec_name(PQT_CODEC_UNCOMPRESSED), "UNCOMPRESSED");
  CHECK_EQ_STR(pqt_codec_name(PQT_CODEC_SNAPPY), "SNAPPY");
  CHECK_EQ_STR(pqt_codec_name(PQT_CODEC_GZIP), "GZIP");
  CHECK_EQ_STR(pqt_codec_name(PQT_CODEC_LZO), "LZO");
  CHECK_EQ_STR(pqt_codec_name(PQT_CODEC_BROTLI), "BROTLI");
  CHECK_EQ_STR(pqt_codec_name(PQT_CODEC_LZ4), "LZ4");
  CHECK_EQ_STR(pqt_codec_name(PQT_CODEC_ZSTD), "ZSTD");
  CHECK_EQ_STR(pqt_codec_name(PQT_CODEC_LZ4_RAW), "LZ4_RAW");
  CHECK_EQ_STR(pqt_codec_name(8), "UNKNOWN");
  CHECK_EQ_STR(pqt_codec_name(-1), "UNKNOWN");
  for (size_t i = 0; i < N_CODECS; i++)
    if (all_codecs[i] != PQT_CODEC_LZO) CHECK(pqt_codec_is_available(all_codecs[i]));
  CHECK(!pqt_codec_is_available(8));
  CHECK(!pqt_codec_is_available(-1));
  CHECK(!pqt_codec_is_available(1000000));
  CHECK_EQ_INT(pqt_codec_from_name("zstd"), PQT_CODEC_ZSTD);
  /* one name table (thrift/parquet_desc.c) both ways, internal and public */
  for (int c = 0; c < 8; c++) {
    CHECK_EQ_INT(pqt_codec_from_name(pqt_codec_name(c)), c);
    CHECK_EQ_INT(pqt_compression_from_name(pqt_compression_name(c)), c);
    CHECK_EQ_STR(pqt_compression_name(c), pqt_codec_name(c));
  }
  CHECK_EQ_INT(pqt_compression_from_name("none"), PQT_CODEC_UNCOMPRESSED);
  CHECK_EQ_INT(pqt_compression_from_name("lz4"), PQT_CODEC_LZ4);
  CHECK_EQ_INT(pqt_compression_from_name("lz4_raw"), PQT_CODEC_LZ4_RAW);
  CHECK_EQ_INT(pqt_compression_from_name("zstdx"), -1);
  CHECK_EQ_INT(pqt_compression_from_name(""), -1);
  CHECK_EQ_INT(pqt_compression_from_name(NULL), -1);
  for (int e = 0; e <= PQT_ENCODING_ALP; e++)
    if (e != 1) CHECK_EQ_INT(pqt_encoding_from_name(pqt_encoding_name(e)), e);
  CHECK_EQ_INT(pqt_encoding_from_name("rle_dictionary"), PQT_ENCODING_RLE_DICTIONARY);
  CHECK_EQ_INT(pqt_encoding_from_name("alp"), PQT_ENCODING_ALP);
  CHECK_EQ_INT(pqt_encoding_from_name("GROUP_VAR_INT"), -1); /* a hole in the table */
  CHECK_EQ_INT(pqt_encoding_from_name("PLAINX"), -1);
  CHECK_EQ_STR(pqt_encoding_name(1), "?");
  CHECK_EQ_INT(pqt_codec_from_name("Lz4_Raw"), PQT_CODEC_LZ4_RAW);
  CHECK_EQ_INT(pqt_codec_from_name("LZ4"), PQT_CODEC_LZ4);
  CHECK_EQ_INT(pqt_codec_from_name("none"), PQT_CODEC_UNCOMPRESSED);
  CHECK_EQ_INT(pqt_codec_from_name("uncompressed"), PQT_CODEC_UNCOMPRESSED);
  CHECK_EQ_INT(pqt_codec_from_name("lzo"), PQT_CODEC_LZO);
  CHECK_EQ_INT(pqt_codec_from_name("zstdx"), -1);
  CHECK_EQ_INT(pqt_codec_from_name("zst"), -1);
  CHECK_EQ_INT(pqt_codec_from_name(""), -1);
  CHECK_EQ_INT(pqt_codec_from_name(NULL), -1);
}

static void test_unknown_codec(void) {
  pqt_codec_ctx *ctx = new_ctx();
  uint8_t src[4] = {1, 2, 3, 4}, dst[4];
  pqt_error err;
  pqt_error_init(&err);
  CHECK_EQ_INT(pqt_codec_decompress(ctx, 8, src, 4, dst, 4, &err), PQT_ECORRUPT);
  CHECK(strstr(err.message, "codec 8") != NULL);
  CHECK_EQ_INT(pqt_codec_decompress(ctx, -7, src, 4, dst, 4, NULL), PQT_ECORRUPT);
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_EQ_INT(pqt_codec_compress(ctx, 9, 0, src, 4, &b, NULL), PQT_EINVAL);
  CHECK_EQ_INT(pqt_codec_max_compressed_len(9, 100), 0);
  CHECK_EQ_INT(pqt_codec_decompress(NULL, PQT_CODEC_ZSTD, src, 4, dst, 4, NULL), PQT_EINVAL);
  CHECK_EQ_INT(pqt_codec_decompress(ctx, PQT_CODEC_ZSTD, NULL, 4, dst, 4, NULL), PQT_EINVAL);
  pqt_buf_free(&b);
  pqt_codec_ctx_destroy(ctx);
  pqt_codec_ctx_destroy(NULL);
}

static void test_lzo_availability(void) {
  pqt_codec_ctx *ctx = new_ctx();
  uint8_t src[16] = {0}, dst[16];
  pqt_error err;
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  if (!pqt_codec_is_available(PQT_CODEC_LZO)) {
    pqt_error_init(&err);
    CHECK_EQ_INT(pqt_codec_decompress(ctx, PQT_CODEC_LZO, src, 16, dst, 16, &err), PQT_EUNSUPPORTED);
    CHECK(strstr(err.message, "LZO support not built") != NULL);
    pqt_error_init(&err);
    CHECK_EQ_INT(pqt_codec_compress(ctx, PQT_CODEC_LZO, 0, src, 16, &b, &err), PQT_EUNSUPPORTED);
    CHECK(strstr(err.message, "LZO support not built") != NULL);
    CHECK_EQ_INT(pqt_codec_max_compressed_len(PQT_CODEC_LZO, 16), 0);
  } else {
    printf("  (LZO built: covered by the round-trip tests)\n");
  }
  pqt_buf_free(&b);
  pqt_codec_ctx_destroy(ctx);
}

/* Levels to try per codec (0 = default). */
static const int *levels_for(int codec, size_t *n) {
  static const int none[] = {0};
  static const int gzip[] = {0, 1, 9, 12};
  static const int brotli[] = {0, 1, 11};
  static const int zstd[] = {0, 1, -5, 19};
  static const int lz4[] = {0, -10, 3, 12};
  switch (codec) {
    case PQT_CODEC_GZIP: *n = 4; return gzip;
    case PQT_CODEC_BROTLI: *n = 3; return brotli;
    case PQT_CODEC_ZSTD: *n = 4; return zstd;
    case PQT_CODEC_LZ4:
    case PQT_CODEC_LZ4_RAW: *n = 4; return lz4;
    default: *n = 1; return none;
  }
}

static void test_roundtrip(void) {
  pqt_codec_ctx *ctx = new_ctx();
  const size_t big = 1u << 20;
  struct {
    const char *name;
    uint8_t *data;
    size_t n;
  } inputs[] = {
      {"empty", make_random(0), 0},
      {"one byte", make_random(1), 1},
      {"random 1 MiB", make_random(big), big},
      {"text 1 MiB", make_text(big), big},
      {"mixed 300 KiB", make_mixed(300 * 1024 + 7), 300 * 1024 + 7},
      {"zeros 64 KiB", calloc(1, 65536), 65536},
  };
  const size_t n_inputs = sizeof inputs / sizeof inputs[0];
  for (size_t c = 0; c < N_CODECS; c++) {
    int codec = all_codecs[c];
    if (!pqt_codec_is_available(codec)) continue;
    size_t nl;
    const int *levels = levels_for(codec, &nl);
    for (size_t l = 0; l < nl; l++) {
      for (size_t i = 0; i < n_inputs; i++) {
        /* Slow levels only on the smaller inputs. */
        if (levels[l] >= 11 && inputs[i].n > 300 * 1024 + 7) continue;
        pqt_buf out;
        pqt_buf_init(&out, NULL);
        /* Appends after existing content. */
        pqt_error err;
        pqt_error_init(&err);
        CHECK_OK(pqt_buf_append(&out, "PFX", 3, NULL));
        pqt_status st = pqt_codec_compress(ctx, codec, levels[l], inputs[i].data, inputs[i].n, &out, &err);
        CHECK_MSG(st == PQT_OK, "%s level %d %s: %s", pqt_codec_name(codec), levels[l], inputs[i].name, err.message);
        if (st != PQT_OK) {
          pqt_buf_free(&out);
          continue;
        }
        CHECK(memcmp(out.data, "PFX", 3) == 0);
        size_t clen = out.len - 3;
        size_t bound = pqt_codec_max_compressed_len(codec, inputs[i].n);
        CHECK_MSG(clen <= bound || (codec == PQT_CODEC_UNCOMPRESSED && clen == 0), "%s: %zu > bound %zu",
                  pqt_codec_name(codec), clen, bound);
        uint8_t *dst = NULL;
        st = decompress_exact(ctx, codec, out.data + 3, clen, inputs[i].n, &dst, &err);
        CHECK_MSG(st == PQT_OK, "%s level %d %s: %s", pqt_codec_name(codec), levels[l], inputs[i].name, err.message);
        if (st == PQT_OK && inputs[i].n)
          CHECK_MSG(memcmp(dst, inputs[i].data, inputs[i].n) == 0, "%s %s: data differs", pqt_codec_name(codec),
                    inputs[i].name);
        if (codec == PQT_CODEC_ZSTD || codec == PQT_CODEC_GZIP || codec == PQT_CODEC_BROTLI ||
            codec == PQT_CODEC_LZ4_RAW) {
          if (!strcmp(inputs[i].name, "text 1 MiB"))
            CHECK_MSG(clen < inputs[i].n / 10, "%s compresses text poorly: %zu", pqt_codec_name(codec), clen);
        }
        free(dst);
        pqt_buf_free(&out);
      }
    }
  }
  for (size_t i = 0; i < n_inputs; i++) free(inputs[i].data);
  pqt_codec_ctx_destroy(ctx);
}

static void test_invalid_levels(void) {
  pqt_codec_ctx *ctx = new_ctx();
  uint8_t src[10] = {0};
  struct {
    int codec, level;
  } bad[] = {
      {PQT_CODEC_GZIP, 13}, {PQT_CODEC_GZIP, -1}, {PQT_CODEC_BROTLI, 12},  {PQT_CODEC_BROTLI, -1},
      {PQT_CODEC_ZSTD, 23}, {PQT_CODEC_LZ4, 13},  {PQT_CODEC_LZ4_RAW, 99},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    pqt_buf b;
    pqt_buf_init(&b, NULL);
    pqt_error err;
    pqt_error_init(&err);
    CHECK_EQ_INT(pqt_codec_compress(ctx, bad[i].codec, bad[i].level, src, 10, &b, &err), PQT_EINVAL);
    CHECK(strstr(err.message, "level") != NULL);
    CHECK_EQ_INT(b.len, 0);
    pqt_buf_free(&b);
  }
  pqt_codec_ctx_destroy(ctx);
}

static void test_exact_size_enforced(void) {
  pqt_codec_ctx *ctx = new_ctx();
  const size_t n = 5000;
  uint8_t *src = make_mixed(n);
  for (size_t c = 0; c < N_CODECS; c++) {
    int codec = all_codecs[c];
    if (!pqt_codec_is_available(codec)) continue;
    pqt_buf out;
    if (compress(ctx, codec, 0, src, n, &out) != PQT_OK) {
      CHECK(0);
      continue;
    }
    const size_t wrong[] = {0, 1, n - 1, n + 1, 2 * n};
    for (size_t w = 0; w < sizeof wrong / sizeof wrong[0]; w++) {
      pqt_error err;
      pqt_status st = decompress_exact(ctx, codec, out.data, out.len, wrong[w], NULL, &err);
      CHECK_MSG(st == PQT_ECORRUPT, "%s dst_len %zu: status %d", pqt_codec_name(codec), wrong[w], st);
      CHECK_MSG(strncmp(err.message, msg_prefix(codec), strlen(msg_prefix(codec))) == 0,
                "message '%s' should start with %s", err.message, msg_prefix(codec));
    }
    /* The right size still works afterwards (context state was reset). */
    pqt_error err;
    CHECK_EQ_INT(decompress_exact(ctx, codec, out.data, out.len, n, NULL, &err), PQT_OK);
    pqt_buf_free(&out);
  }
  free(src);
  pqt_codec_ctx_destroy(ctx);
}

/* A small output, a large declared output: the decoder must stop at dst_len. */
static void test_bomb_is_bounded(void) {
  pqt_codec_ctx *ctx = new_ctx();
  const size_t n = 4u << 20;
  uint8_t *zeros = calloc(1, n);
  for (size_t c = 0; c < N_CODECS; c++) {
    int codec = all_codecs[c];
    if (!pqt_codec_is_available(codec) || codec == PQT_CODEC_UNCOMPRESSED) continue;
    pqt_buf out;
    if (compress(ctx, codec, 0, zeros, n, &out) != PQT_OK) {
      CHECK(0);
      continue;
    }
    CHECK_MSG(out.len < n / 16, "%s: %zu", pqt_codec_name(codec), out.len);
    pqt_error err;
    CHECK_EQ_INT(decompress_exact(ctx, codec, out.data, out.len, 4096, NULL, &err), PQT_ECORRUPT);
    pqt_buf_free(&out);
  }
  free(zeros);
  pqt_codec_ctx_destroy(ctx);
}

static void test_truncated_input(void) {
  pqt_codec_ctx *ctx = new_ctx();
  const size_t n = 300;
  uint8_t *src = make_mixed(n);
  for (size_t c = 0; c < N_CODECS; c++) {
    int codec = all_codecs[c];
    if (!pqt_codec_is_available(codec)) continue;
    pqt_buf out;
    if (compress(ctx, codec, 0, src, n, &out) != PQT_OK) {
      CHECK(0);
      continue;
    }
    int bad = 0;
    for (size_t len = 0; len < out.len; len++) {
      /* Copy to an exact-size buffer so reads past the end are caught. */
      uint8_t *t = malloc(len ? len : 1);
      memcpy(t, out.data, len);
      pqt_error err;
      pqt_status st = decompress_exact(ctx, codec, t, len, n, NULL, &err);
      if (st != PQT_ECORRUPT) bad++;
      free(t);
    }
    CHECK_MSG(bad == 0, "%s: %d truncations not rejected", pqt_codec_name(codec), bad);
    pqt_buf_free(&out);
  }
  free(src);
  pqt_codec_ctx_destroy(ctx);
}

static void test_trailing_garbage(void) {
  pqt_codec_ctx *ctx = new_ctx();
  const size_t n = 2000;
  uint8_t *src = make_mixed(n);
  const int strict[] = {PQT_CODEC_UNCOMPRESSED, PQT_CODEC_GZIP,    PQT_CODEC_BROTLI,
                        PQT_CODEC_ZSTD,         PQT_CODEC_LZ4_RAW, PQT_CODEC_LZ4};
  for (size_t c = 0; c < sizeof strict / sizeof strict[0]; c++) {
    int codec = strict[c];
    pqt_buf out;
    if (compress(ctx, codec, 0, src, n, &out) != PQT_OK) {
      CHECK(0);
      continue;
    }
    const uint8_t junk[3] = {0x00, 0x1f, 0x8b};
    for (size_t k = 1; k <= 3; k++) {
      pqt_buf g;
      pqt_buf_init(&g, NULL);
      CHECK_OK(pqt_buf_append(&g, out.data, out.len, NULL));
      CHECK_OK(pqt_buf_append(&g, junk, k, NULL));
      pqt_error err;
      pqt_status st = decompress_exact(ctx, codec, g.data, g.len, n, NULL, &err);
      CHECK_MSG(st == PQT_ECORRUPT, "%s + %zu junk bytes: %d", pqt_codec_name(codec), k, st);
      pqt_buf_free(&g);
    }
    pqt_buf_free(&out);
  }
  free(src);
  pqt_codec_ctx_destroy(ctx);
}

static void test_corrupted_input(void) {
  pqt_codec_ctx *ctx = new_ctx();
  const size_t n = 3000;
  uint8_t *src = make_mixed(n);
  for (size_t c = 0; c < N_CODECS; c++) {
    int codec = all_codecs[c];
    if (!pqt_codec_is_available(codec) || codec == PQT_CODEC_UNCOMPRESSED) continue;
    pqt_buf out;
    if (compress(ctx, codec, 0, src, n, &out) != PQT_OK) {
      CHECK(0);
      continue;
    }
    int errors = 0, other = 0, tries = 0, undetected = 0;
    const uint8_t masks[] = {0x01, 0x80, 0xff, 0x10};
    uint8_t *t = malloc(out.len);
    for (size_t pos = 0; pos < out.len; pos++) {
      for (size_t m = 0; m < sizeof masks; m++) {
        memcpy(t, out.data, out.len);
        t[pos] ^= masks[m];
        pqt_error err;
        uint8_t *dst = NULL;
        pqt_status st = decompress_exact(ctx, codec, t, out.len, n, &dst, &err);
        tries++;
        /* gzip checks a CRC-32 of the output: a flip it accepts (header
         * fields such as MTIME, padding bits) must not change the data. */
        if (st == PQT_OK && codec == PQT_CODEC_GZIP && memcmp(dst, src, n) != 0) undetected++;
        free(dst);
        if (st == PQT_ECORRUPT) {
          errors++;
          if (strncmp(err.message, msg_prefix(codec), strlen(msg_prefix(codec))) != 0) other++;
        } else if (st != PQT_OK) {
          other++;
        }
      }
    }
    free(t);
    /* Flips inside literals may go unnoticed by snappy/lz4 (no checksum), but
     * most flips must be detected. */
    CHECK_MSG(errors > tries / 4, "%s: only %d of %d flips detected", pqt_codec_name(codec), errors, tries);
    CHECK_EQ_INT(undetected, 0);
    CHECK_EQ_INT(other, 0);
    pqt_buf_free(&out);
  }
  /* Random garbage of every small length into a few sizes. */
  for (size_t c = 0; c < N_CODECS; c++) {
    int codec = all_codecs[c];
    if (!pqt_codec_is_available(codec)) continue;
    for (size_t len = 0; len < 64; len++) {
      uint8_t *g = make_random(len);
      for (size_t d = 0; d < 3; d++) {
        size_t dst_len = (size_t[]){1, 100, 70000}[d];
        pqt_error err;
        pqt_status st = decompress_exact(ctx, codec, g, len, dst_len, NULL, &err);
        CHECK(st == PQT_OK || st == PQT_ECORRUPT);
      }
      free(g);
    }
  }
  free(src);
  pqt_codec_ctx_destroy(ctx);
}

static void test_gzip_members_and_zlib(void) {
  pqt_codec_ctx *ctx = new_ctx();
  uint8_t *a = make_text(7000), *b = make_mixed(3000);
  pqt_buf ca, cb, cempty, all;
  CHECK_OK(compress(ctx, PQT_CODEC_GZIP, 0, a, 7000, &ca));
  CHECK_OK(compress(ctx, PQT_CODEC_GZIP, 9, b, 3000, &cb));
  CHECK_OK(compress(ctx, PQT_CODEC_GZIP, 0, NULL, 0, &cempty));
  pqt_buf_init(&all, NULL);
  CHECK_OK(pqt_buf_append(&all, ca.data, ca.len, NULL));
  CHECK_OK(pqt_buf_append(&all, cempty.data, cempty.len, NULL));
  CHECK_OK(pqt_buf_append(&all, cb.data, cb.len, NULL));
  uint8_t *dst = NULL;
  pqt_error err;
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_GZIP, all.data, all.len, 10000, &dst, &err), PQT_OK);
  if (dst) {
    CHECK(memcmp(dst, a, 7000) == 0);
    CHECK(memcmp(dst + 7000, b, 3000) == 0);
  }
  free(dst);
  /* Too small for both members: an error, not a partial result. */
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_GZIP, all.data, all.len, 7000, NULL, &err), PQT_ECORRUPT);
  /* Second member truncated. */
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_GZIP, all.data, all.len - 1, 10000, NULL, &err), PQT_ECORRUPT);

  /* A zlib stream is accepted (as Arrow's reader does); raw deflate is not. */
  struct libdeflate_compressor *c = libdeflate_alloc_compressor(6);
  uint8_t zbuf[8192];
  size_t zn = libdeflate_zlib_compress(c, a, 7000, zbuf, sizeof zbuf);
  CHECK(zn > 0);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_GZIP, zbuf, zn, 7000, &dst, &err), PQT_OK);
  if (dst) CHECK(memcmp(dst, a, 7000) == 0);
  free(dst);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_GZIP, zbuf, zn, 6999, NULL, &err), PQT_ECORRUPT);
  size_t dn = libdeflate_deflate_compress(c, a, 7000, zbuf, sizeof zbuf);
  CHECK(dn > 0);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_GZIP, zbuf, dn, 7000, NULL, &err), PQT_ECORRUPT);
  libdeflate_free_compressor(c);

  pqt_buf_free(&ca);
  pqt_buf_free(&cb);
  pqt_buf_free(&cempty);
  pqt_buf_free(&all);
  free(a);
  free(b);
  pqt_codec_ctx_destroy(ctx);
}

static void put_be32(pqt_buf *b, uint32_t v) {
  uint8_t p[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
  CHECK_OK(pqt_buf_append(b, p, 4, NULL));
}

/* Append one raw LZ4 chunk [BE u32 clen][block]. */
static void put_lz4_chunk(pqt_buf *b, const uint8_t *src, size_t n) {
  int bound = LZ4_compressBound((int)n);
  char *tmp = malloc((size_t)bound);
  int c = LZ4_compress_default((const char *)src, tmp, (int)n, bound);
  CHECK(c > 0);
  put_be32(b, (uint32_t)c);
  CHECK_OK(pqt_buf_append(b, tmp, (size_t)c, NULL));
  free(tmp);
}

static void test_lz4_hadoop_framing(void) {
  pqt_codec_ctx *ctx = new_ctx();
  const size_t n = 300000;
  uint8_t *src = make_mixed(n);
  pqt_error err;
  uint8_t *dst = NULL;

  /* Several blocks of uneven sizes, one chunk each (Arrow/Hadoop style). */
  pqt_buf h;
  pqt_buf_init(&h, NULL);
  const size_t cuts[] = {0, 100000, 150000, 262144, n};
  for (size_t i = 0; i + 1 < sizeof cuts / sizeof cuts[0]; i++) {
    put_be32(&h, (uint32_t)(cuts[i + 1] - cuts[i]));
    put_lz4_chunk(&h, src + cuts[i], cuts[i + 1] - cuts[i]);
  }
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, h.data, h.len, n, &dst, &err), PQT_OK);
  if (dst) CHECK(memcmp(dst, src, n) == 0);
  free(dst);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, h.data, h.len, n - 1, NULL, &err), PQT_ECORRUPT);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, h.data, h.len + 0, n + 1, NULL, &err), PQT_ECORRUPT);
  pqt_buf_free(&h);

  /* One Hadoop block made of two chunks (BlockCompressorStream style). */
  pqt_buf_init(&h, NULL);
  put_be32(&h, 70000);
  put_lz4_chunk(&h, src, 40000);
  put_lz4_chunk(&h, src + 40000, 30000);
  put_be32(&h, 5);
  put_lz4_chunk(&h, src + 70000, 5);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, h.data, h.len, 70005, &dst, &err), PQT_OK);
  if (dst) CHECK(memcmp(dst, src, 70005) == 0);
  free(dst);
  pqt_buf_free(&h);

  /* Arrow's empty page: [0][1][0x00]. */
  const uint8_t empty_page[9] = {0, 0, 0, 0, 0, 0, 0, 1, 0};
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, empty_page, 9, 0, NULL, &err), PQT_OK);

  /* Hadoop header lies about the raw length of a block. */
  pqt_buf_init(&h, NULL);
  put_be32(&h, 1000);
  put_lz4_chunk(&h, src, 999);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, h.data, h.len, 1000, NULL, &err), PQT_ECORRUPT);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, h.data, h.len, 999, NULL, &err), PQT_ECORRUPT);
  pqt_buf_free(&h);

  /* What we write: blocks of <= 128 KiB, each [raw][clen][block]. */
  pqt_buf w;
  CHECK_OK(compress(ctx, PQT_CODEC_LZ4, 0, src, n, &w));
  size_t pos = 0, blocks = 0, total = 0;
  while (pos + 8 <= w.len) {
    uint32_t raw = ((uint32_t)w.data[pos] << 24) | ((uint32_t)w.data[pos + 1] << 16) |
                   ((uint32_t)w.data[pos + 2] << 8) | w.data[pos + 3];
    uint32_t cl = ((uint32_t)w.data[pos + 4] << 24) | ((uint32_t)w.data[pos + 5] << 16) |
                  ((uint32_t)w.data[pos + 6] << 8) | w.data[pos + 7];
    CHECK(raw <= 128 * 1024);
    total += raw;
    pos += 8 + cl;
    blocks++;
  }
  CHECK_EQ_INT(pos, w.len);
  CHECK_EQ_INT(total, n);
  CHECK_EQ_INT(blocks, 3);
  pqt_buf_free(&w);
  free(src);
  pqt_codec_ctx_destroy(ctx);
}

static void test_lz4_frame_and_raw_under_codec5(void) {
  pqt_codec_ctx *ctx = new_ctx();
  const size_t n = 200000;
  uint8_t *src = make_mixed(n);
  pqt_error err;
  uint8_t *dst = NULL;

  /* LZ4 frame, with a content checksum. */
  LZ4F_preferences_t prefs;
  memset(&prefs, 0, sizeof prefs);
  prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
  size_t cap = LZ4F_compressFrameBound(n, &prefs);
  uint8_t *f = malloc(2 * cap);
  size_t fn = LZ4F_compressFrame(f, cap, src, n, &prefs);
  CHECK(!LZ4F_isError(fn));
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, f, fn, n, &dst, &err), PQT_OK);
  if (dst) CHECK(memcmp(dst, src, n) == 0);
  free(dst);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, f, fn, n - 1, NULL, &err), PQT_ECORRUPT);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, f, fn, n + 1, NULL, &err), PQT_ECORRUPT);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, f, fn - 1, n, NULL, &err), PQT_ECORRUPT);
  /* Damaged content checksum. */
  f[fn - 2] ^= 0x40;
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, f, fn, n, NULL, &err), PQT_ECORRUPT);
  f[fn - 2] ^= 0x40;
  /* Two frames back to back. */
  size_t fn2 = LZ4F_compressFrame(f + fn, cap, src, 1000, NULL);
  CHECK(!LZ4F_isError(fn2));
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, f, fn + fn2, n + 1000, &dst, &err), PQT_OK);
  if (dst) {
    CHECK(memcmp(dst, src, n) == 0);
    CHECK(memcmp(dst + n, src, 1000) == 0);
  }
  free(dst);
  free(f);

  /* A bare raw block under codec 5 (old Arrow). */
  uint8_t *r = malloc((size_t)LZ4_compressBound((int)n));
  int rn = LZ4_compress_default((const char *)src, (char *)r, (int)n, LZ4_compressBound((int)n));
  CHECK(rn > 0);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, r, (size_t)rn, n, &dst, &err), PQT_OK);
  if (dst) CHECK(memcmp(dst, src, n) == 0);
  free(dst);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4, r, (size_t)rn, n - 1, NULL, &err), PQT_ECORRUPT);
  /* And LZ4_RAW reads it but not the Hadoop framing. */
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4_RAW, r, (size_t)rn, n, NULL, &err), PQT_OK);
  pqt_buf h;
  CHECK_OK(compress(ctx, PQT_CODEC_LZ4, 0, src, n, &h));
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_LZ4_RAW, h.data, h.len, n, NULL, &err), PQT_ECORRUPT);
  pqt_buf_free(&h);
  free(r);
  free(src);
  pqt_codec_ctx_destroy(ctx);
}

static void test_zstd_multiple_frames(void) {
  pqt_codec_ctx *ctx = new_ctx();
  uint8_t *a = make_text(50000), *b = make_mixed(20000);
  pqt_buf ca, cb, all;
  CHECK_OK(compress(ctx, PQT_CODEC_ZSTD, 0, a, 50000, &ca));
  CHECK_OK(compress(ctx, PQT_CODEC_ZSTD, 5, b, 20000, &cb));
  pqt_buf_init(&all, NULL);
  CHECK_OK(pqt_buf_append(&all, ca.data, ca.len, NULL));
  /* A skippable frame in between: magic 0x184D2A50, length 3. */
  const uint8_t skip[11] = {0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 'x', 'y', 'z'};
  CHECK_OK(pqt_buf_append(&all, skip, sizeof skip, NULL));
  CHECK_OK(pqt_buf_append(&all, cb.data, cb.len, NULL));
  uint8_t *dst = NULL;
  pqt_error err;
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_ZSTD, all.data, all.len, 70000, &dst, &err), PQT_OK);
  if (dst) {
    CHECK(memcmp(dst, a, 50000) == 0);
    CHECK(memcmp(dst + 50000, b, 20000) == 0);
  }
  free(dst);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_ZSTD, all.data, all.len, 69999, NULL, &err), PQT_ECORRUPT);
  CHECK(strstr(err.message, "zstd: decompresses to more than 69999") != NULL);
  CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_ZSTD, all.data, all.len, 70001, NULL, &err), PQT_ECORRUPT);
  CHECK(strstr(err.message, "zstd: decompressed 70000 bytes, page header says 70001") != NULL);
  pqt_buf_free(&ca);
  pqt_buf_free(&cb);
  pqt_buf_free(&all);
  free(a);
  free(b);
  pqt_codec_ctx_destroy(ctx);
}

static void test_empty_input(void) {
  /* An empty page without a codec envelope is accepted for every codec, but
   * empty input with a non-empty page is corrupt. */
  pqt_codec_ctx *ctx = new_ctx();
  for (size_t c = 0; c < N_CODECS; c++) {
    int codec = all_codecs[c];
    if (!pqt_codec_is_available(codec)) continue;
    pqt_error err;
    CHECK_EQ_INT(decompress_exact(ctx, codec, NULL, 0, 0, NULL, &err), PQT_OK);
    CHECK_EQ_INT(decompress_exact(ctx, codec, (const uint8_t *)"", 0, 10, NULL, &err), PQT_ECORRUPT);
  }
  pqt_codec_ctx_destroy(ctx);
}

/* An allocator that checks every free against its allocation. */
typedef struct {
  size_t live_bytes, live_blocks, bad_frees, total_allocs;
} tally;
static void *tally_realloc(void *c, void *p, size_t old_n, size_t new_n) {
  tally *t = c;
  uint8_t *q = p ? (uint8_t *)p - 16 : NULL;
  if (q) {
    size_t rec;
    memcpy(&rec, q, sizeof rec);
    if (rec != old_n) t->bad_frees++;
    t->live_bytes -= old_n;
    t->live_blocks--;
  }
  q = realloc(q, new_n + 16);
  if (!q) return NULL;
  memcpy(q, &new_n, sizeof new_n);
  t->live_bytes += new_n;
  t->live_blocks++;
  t->total_allocs++;
  return q + 16;
}
static void tally_free(void *c, void *p, size_t n) {
  tally *t = c;
  uint8_t *q = (uint8_t *)p - 16;
  size_t rec;
  memcpy(&rec, q, sizeof rec);
  if (rec != n) t->bad_frees++;
  t->live_bytes -= n;
  t->live_blocks--;
  free(q);
}

static void test_allocator_is_used(void) {
  tally t = {0, 0, 0, 0};
  pqt_allocator a = {tally_realloc, tally_free, &t};
  pqt_codec_ctx *ctx = NULL;
  CHECK_OK(pqt_codec_ctx_create(&ctx, &a, NULL));
  uint8_t *src = make_mixed(100000);
  for (size_t c = 0; c < N_CODECS; c++) {
    int codec = all_codecs[c];
    if (!pqt_codec_is_available(codec)) continue;
    for (int rep = 0; rep < 2; rep++) { /* the second time reuses state */
      pqt_buf out;
      pqt_buf_init(&out, &a);
      pqt_error err;
      pqt_error_init(&err);
      CHECK_OK(pqt_codec_compress(ctx, codec, rep ? 9 : 0, src, 100000, &out, &err));
      uint8_t *dst = malloc(100000);
      CHECK_OK(pqt_codec_decompress(ctx, codec, out.data, out.len, dst, 100000, &err));
      CHECK(memcmp(dst, src, 100000) == 0);
      free(dst);
      pqt_buf_free(&out);
    }
  }
  size_t allocs_with_state = t.total_allocs;
  pqt_codec_ctx_destroy(ctx);
  CHECK(allocs_with_state > 3); /* ctx + zstd + brotli + lz4 state at least */
  CHECK_EQ_INT(t.live_bytes, 0);
  CHECK_EQ_INT(t.live_blocks, 0);
  CHECK_EQ_INT(t.bad_frees, 0);
  free(src);
}

static void test_crc32(void) {
  CHECK_EQ_INT(pqt_crc32(0, "123456789", 9), 0xCBF43926u);
  CHECK_EQ_INT(pqt_crc32(0, "", 0), 0);
  CHECK_EQ_INT(pqt_crc32(0, NULL, 0), 0);
  CHECK_EQ_INT(pqt_crc32(0, "a", 1), 0xE8B7BE43u);
  CHECK_EQ_INT(pqt_crc32(0, "The quick brown fox jumps over the lazy dog", 43), 0x414FA339u);
  /* Chaining equals one shot. */
  uint8_t *r = make_random(10007);
  uint32_t one = pqt_crc32(0, r, 10007);
  uint32_t two = pqt_crc32(pqt_crc32(0, r, 5000), r + 5000, 5007);
  CHECK_EQ_INT(one, two);
  free(r);
}

/* Pages from parquet-testing, located by hand (offsets of the compressed
 * bytes after each page header; for the V2 page, after its 3 level bytes). */
typedef struct {
  const char *file;
  size_t offset, comp_len, uncomp_len;
  int codec;
  int64_t crc; /* page header crc (as unsigned), -1 when absent */
  int crc_ok;  /* whether the file's crc is meant to match */
} corpus_page;

static const corpus_page corpus_pages[] = {
    {"hadoop_lz4_compressed.parquet", 17, 26, 16, PQT_CODEC_LZ4, -1, 1},
    {"hadoop_lz4_compressed.parquet", 104, 12, 3, PQT_CODEC_LZ4, -1, 1},
    {"hadoop_lz4_compressed.parquet", 129, 23, 14, PQT_CODEC_LZ4, -1, 1},
    {"hadoop_lz4_compressed_larger.parquet", 33, 358322, 400000, PQT_CODEC_LZ4, 3900243177, 1},
    {"non_hadoop_lz4_compressed.parquet", 18, 18, 16, PQT_CODEC_LZ4, -1, 1},
    {"non_hadoop_lz4_compressed.parquet", 97, 10, 9, PQT_CODEC_LZ4, -1, 1},
    {"lz4_raw_compressed.parquet", 65, 24, 32, PQT_CODEC_LZ4_RAW, -1, 1},
    {"lz4_raw_compressed_larger.parquet", 107, 380377, 400000, PQT_CODEC_LZ4_RAW, -1, 1},
    {"concatenated_gzip_members.parquet", 55, 1416, 4104, PQT_CODEC_GZIP, -1, 1},
    {"large_string_map.brotli.parquet", 1671, 16, 15, PQT_CODEC_BROTLI, -1, 1},
    {"byte_stream_split.zstd.parquet", 52, 1110, 1207, PQT_CODEC_ZSTD, -1, 1},
    {"datapage_v1-snappy-compressed-checksum.parquet", 30, 735, 10240, PQT_CODEC_SNAPPY, 4252644304, 1},
    {"datapage_v1-snappy-compressed-checksum.parquet", 792, 735, 10240, PQT_CODEC_SNAPPY, 3370649860, 1},
    {"datapage_v1-corrupt-checksum.parquet", 32, 10240, 10240, PQT_CODEC_UNCOMPRESSED, 3150855069, 0},
    {"datapage_v1-corrupt-checksum.parquet", 10300, 10240, 10240, PQT_CODEC_UNCOMPRESSED, 2520066165, 1},
};

static void test_corpus_pages(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  pqt_codec_ctx *ctx = new_ctx();
  for (size_t i = 0; i < sizeof corpus_pages / sizeof corpus_pages[0]; i++) {
    const corpus_page *p = &corpus_pages[i];
    char path[1024];
    snprintf(path, sizeof path, "%s/data/%s", dir, p->file);
    size_t len = 0;
    unsigned char *file = pqt_test_read_file(path, &len);
    CHECK_MSG(file != NULL, "cannot read %s", path);
    if (!file) continue;
    CHECK(p->offset + p->comp_len <= len);
    if (p->offset + p->comp_len > len) {
      free(file);
      continue;
    }
    uint8_t *page = malloc(p->comp_len);
    memcpy(page, file + p->offset, p->comp_len);
    pqt_error err;
    uint8_t *dst = NULL;
    pqt_status st = decompress_exact(ctx, p->codec, page, p->comp_len, p->uncomp_len, &dst, &err);
    CHECK_MSG(st == PQT_OK, "%s @%zu: %s", p->file, p->offset, err.message);
    /* The same page against a wrong size fails. */
    CHECK_EQ_INT(decompress_exact(ctx, p->codec, page, p->comp_len, p->uncomp_len + 1, NULL, &err), PQT_ECORRUPT);
    if (p->crc >= 0) {
      /* V1 page CRC covers the (compressed) page bytes after the header. */
      uint32_t crc = pqt_crc32(0, page, p->comp_len);
      if (p->crc_ok) CHECK_MSG(crc == (uint32_t)p->crc, "%s @%zu crc %08x", p->file, p->offset, crc);
      else CHECK(crc != (uint32_t)p->crc);
    }
    free(dst);
    free(page);
    free(file);
  }
  /* The brotli map pages claim ~1 GiB uncompressed: a small buffer is a clean
   * error, with no large allocation. */
  char path[1024];
  snprintf(path, sizeof path, "%s/data/large_string_map.brotli.parquet", dir);
  size_t len = 0;
  unsigned char *file = pqt_test_read_file(path, &len);
  if (file && len > 23 + 1627) {
    pqt_error err;
    CHECK_EQ_INT(decompress_exact(ctx, PQT_CODEC_BROTLI, file + 23, 1627, 1 << 20, NULL, &err), PQT_ECORRUPT);
    CHECK(strstr(err.message, "brotli: decompresses to more than") != NULL);
  }
  free(file);
  pqt_codec_ctx_destroy(ctx);
}

RUN_TESTS("codec", TEST_CASE(test_names_and_availability), TEST_CASE(test_unknown_codec),
          TEST_CASE(test_lzo_availability), TEST_CASE(test_roundtrip), TEST_CASE(test_invalid_levels),
          TEST_CASE(test_exact_size_enforced), TEST_CASE(test_bomb_is_bounded), TEST_CASE(test_truncated_input),
          TEST_CASE(test_trailing_garbage), TEST_CASE(test_corrupted_input), TEST_CASE(test_gzip_members_and_zlib),
          TEST_CASE(test_lz4_hadoop_framing), TEST_CASE(test_lz4_frame_and_raw_under_codec5),
          TEST_CASE(test_zstd_multiple_frames), TEST_CASE(test_empty_input), TEST_CASE(test_allocator_is_used),
          TEST_CASE(test_crc32), TEST_CASE(test_corpus_pages))
