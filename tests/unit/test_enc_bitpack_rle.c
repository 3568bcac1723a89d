/* Unit tests for src/encoding/bitpack.c and rle.c: the spec's examples,
 * every bit width round-tripped with random data, runs crossing batch
 * boundaries, truncation at every byte, dictionary and level bounds. */
#include "core/core.h"
#include "encoding/bitpack.h"
#include "encoding/dictionary.h"
#include "encoding/enc_util.h"
#include "encoding/rle.h"
#include "enc_test_util.h"
#include "harness.h"

/* Spec: 0..7 at bit width 3, LSB-first => 10001000 11000110 11111010. */
static void test_spec_lsb_example(void) {
  uint32_t v[8] = {0, 1, 2, 3, 4, 5, 6, 7}, out[8];
  uint8_t packed[3];
  pqt_bitpack32(v, 8, 3, packed);
  CHECK_EQ_INT(packed[0], 0x88);
  CHECK_EQ_INT(packed[1], 0xC6);
  CHECK_EQ_INT(packed[2], 0xFA);
  uint8_t *in = enc_dup(packed, 3);
  pqt_bitunpack32(in, 3, out, 8, 3);
  CHECK(memcmp(out, v, sizeof v) == 0);
  free(in);
}

/* Spec: the deprecated BIT_PACKED order => 00000101 00111001 01110111. */
static void test_spec_msb_example(void) {
  uint32_t v[8] = {0, 1, 2, 3, 4, 5, 6, 7}, out[8];
  uint8_t packed[3];
  pqt_bitpack32_msb(v, 8, 3, packed);
  CHECK_EQ_INT(packed[0], 0x05);
  CHECK_EQ_INT(packed[1], 0x39);
  CHECK_EQ_INT(packed[2], 0x77);
  uint8_t *in = enc_dup(packed, 3);
  pqt_bitunpack32_msb(in, 3, out, 8, 3);
  CHECK(memcmp(out, v, sizeof v) == 0);
  int16_t lv[8];
  size_t used = 0;
  CHECK_OK(pqt_levels_decode_bit_packed(in, 3, 3, lv, 8, 7, &used, NULL));
  CHECK_EQ_INT(used, 3);
  for (int i = 0; i < 8; i++) CHECK_EQ_INT(lv[i], i);
  CHECK(pqt_levels_decode_bit_packed(in, 3, 3, lv, 8, 6, &used, NULL) == PQT_ECORRUPT);
  CHECK(pqt_levels_decode_bit_packed(in, 2, 3, lv, 8, 7, &used, NULL) == PQT_ECORRUPT);
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  int16_t lev[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  CHECK_OK(pqt_levels_encode_bit_packed(lev, 8, 3, &b, NULL));
  CHECK(b.len == 3 && memcmp(b.data, packed, 3) == 0);
  pqt_buf_free(&b);
  free(in);
}

/* Every width 0..32 (uint32) and 0..64 (uint64), many lengths, exact-size
 * buffers, reference check against a bit-by-bit extraction. */
static uint64_t ref_bits(const uint8_t *p, size_t bit, unsigned w) {
  uint64_t v = 0;
  for (unsigned k = 0; k < w; k++, bit++) v |= (uint64_t)((p[bit >> 3] >> (bit & 7)) & 1) << k;
  return v;
}

static void test_roundtrip_all_widths(void) {
  enc_seed(1);
  static const size_t lens[] = {0, 1, 7, 8, 31, 32, 33, 63, 64, 65, 100, 255, 256, 1000, 1031};
  uint64_t *v = malloc(1031 * sizeof *v), *o = malloc(1031 * sizeof *o);
  uint32_t *v32 = malloc(1031 * sizeof *v32), *o32 = malloc(1031 * sizeof *o32);
  uint8_t *packed = malloc(1031 * 8 + 8);
  for (unsigned w = 0; w <= 64; w++) {
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
      size_t n = lens[li];
      for (size_t i = 0; i < n; i++) v[i] = enc_rand_bits(w);
      size_t nb = pqt_bitpack_bytes(n, w);
      memset(packed, 0xAB, 1031 * 8 + 8);
      pqt_bitpack64(v, n, w, packed);
      CHECK(packed[nb] == 0xAB); /* nothing written past the packed size */
      int bad = 0;
      for (size_t i = 0; i < n; i++) bad |= ref_bits(packed, i * w, w) != v[i];
      CHECK_MSG(!bad, "pack64 w=%u n=%zu", w, n);
      uint8_t *in = enc_dup(packed, nb);
      pqt_bitunpack64(in, nb, o, n, w);
      CHECK_MSG(n == 0 || memcmp(o, v, n * 8) == 0, "unpack64 w=%u n=%zu", w, n);
      if (w <= 32) {
        for (size_t i = 0; i < n; i++) v32[i] = (uint32_t)v[i];
        memset(packed, 0xAB, 1031 * 8 + 8);
        pqt_bitpack32(v32, n, w, packed);
        CHECK(nb == 0 || memcmp(packed, in, nb) == 0);
        CHECK(packed[nb] == 0xAB);
        pqt_bitunpack32(in, nb, o32, n, w);
        CHECK_MSG(n == 0 || memcmp(o32, v32, n * 4) == 0, "unpack32 w=%u n=%zu", w, n);
        /* a larger span takes the fast path for more groups: same result */
        uint8_t *big = calloc(nb + 64, 1);
        memcpy(big, in, nb);
        pqt_bitunpack32(big, nb + 64, o32, n, w);
        CHECK_MSG(n == 0 || memcmp(o32, v32, n * 4) == 0, "unpack32 big w=%u n=%zu", w, n);
        free(big);
      }
      free(in);
    }
  }
  free(v);
  free(o);
  free(v32);
  free(o32);
  free(packed);
}

/* Hybrid: a bit-packed run with the spec's bytes, then an RLE run. */
static void test_rle_spec_stream(void) {
  const uint8_t raw[] = {0x03, 0x88, 0xC6, 0xFA, /* 1 group of 8, width 3 */
                         0x0A, 0x05};            /* RLE: 5 x value 5 */
  uint8_t *in = enc_dup(raw, sizeof raw);
  pqt_rle_decoder d;
  uint32_t out[13];
  CHECK_OK(pqt_rle_decoder_init(&d, in, sizeof raw, 3, NULL));
  CHECK_OK(pqt_rle_get_u32(&d, out, 13, NULL));
  for (int i = 0; i < 8; i++) CHECK_EQ_INT(out[i], i);
  for (int i = 8; i < 13; i++) CHECK_EQ_INT(out[i], 5);
  pqt_error e;
  pqt_error_init(&e);
  CHECK(pqt_rle_get_u32(&d, out, 1, &e) == PQT_ECORRUPT); /* no more values */
  CHECK(e.code == PQT_ECORRUPT && strlen(e.message) > 0);
  /* batch size 1 and 3 cross every run boundary */
  for (size_t bs = 1; bs <= 13; bs++) {
    CHECK_OK(pqt_rle_decoder_init(&d, in, sizeof raw, 3, NULL));
    for (size_t i = 0; i < 13; i += bs) {
      size_t k = 13 - i < bs ? 13 - i : bs;
      CHECK_OK(pqt_rle_get_u32(&d, out + i, k, NULL));
    }
    for (int i = 0; i < 8; i++) CHECK_EQ_INT(out[i], i);
    for (int i = 8; i < 13; i++) CHECK_EQ_INT(out[i], 5);
  }
  free(in);
  /* RLE value wider than the bit width is corrupt */
  const uint8_t wide[] = {0x04, 0x09};
  in = enc_dup(wide, 2);
  CHECK_OK(pqt_rle_decoder_init(&d, in, 2, 3, NULL));
  CHECK(pqt_rle_get_u32(&d, out, 1, NULL) == PQT_ECORRUPT);
  free(in);
  CHECK(pqt_rle_decoder_init(&d, raw, 1, 33, NULL) == PQT_ECORRUPT);
}

/* A last bit-packed run whose header claims more groups than bytes left:
 * values present decode, missing ones are an error. */
static void test_rle_short_last_run(void) {
  const uint8_t raw[] = {0x05 /* 2 groups */, 0x88, 0xC6, 0xFA, 0x01};
  uint8_t *in = enc_dup(raw, sizeof raw);
  pqt_rle_decoder d;
  uint32_t out[16];
  CHECK_OK(pqt_rle_decoder_init(&d, in, sizeof raw, 3, NULL));
  CHECK_OK(pqt_rle_get_u32(&d, out, 10, NULL)); /* 8 + 2 values in 4 bytes */
  CHECK_EQ_INT(out[7], 7);
  CHECK_EQ_INT(out[8], 1);
  CHECK_EQ_INT(out[9], 0);
  CHECK(pqt_rle_get_u32(&d, out, 1, NULL) == PQT_ECORRUPT); /* 11th value: missing */
  free(in);
}

static size_t make_runs(uint32_t *v, size_t n, unsigned w) {
  size_t i = 0;
  while (i < n) {
    size_t r = 1 + enc_rand() % 40;
    uint32_t x = (uint32_t)enc_rand_bits(w);
    bool lit = enc_rand() & 1;
    for (size_t j = 0; j < r && i < n; j++, i++) v[i] = lit ? (uint32_t)enc_rand_bits(w) : x;
  }
  return n;
}

static void test_rle_roundtrip_batches(void) {
  enc_seed(2);
  const size_t n = 3001;
  uint32_t *v = malloc(n * 4), *o = malloc(n * 4);
  for (unsigned w = 0; w <= 32; w++) {
    make_runs(v, n, w);
    pqt_buf b;
    pqt_buf_init(&b, NULL);
    CHECK_OK(pqt_rle_encode_u32(v, n, w, &b, NULL));
    uint8_t *in = enc_dup(b.data, b.len);
    pqt_rle_decoder d;
    CHECK_OK(pqt_rle_decoder_init(&d, in, b.len, w, NULL));
    size_t i = 0;
    while (i < n) {
      size_t k = 1 + enc_rand() % 77;
      if (k > n - i) k = n - i;
      if (enc_rand() % 5 == 0) {
        CHECK_OK(pqt_rle_skip(&d, k, NULL));
        memcpy(o + i, v + i, k * 4);
      } else {
        CHECK_OK(pqt_rle_get_u32(&d, o + i, k, NULL));
      }
      i += k;
    }
    CHECK_MSG(memcmp(o, v, n * 4) == 0, "rle roundtrip w=%u", w);
    free(in);
    pqt_buf_free(&b);
  }
  free(v);
  free(o);
}

/* Encoder output: repeats become RLE runs (compact), runs > 2^31 split. */
static void test_rle_encoder_shape(void) {
  uint32_t v[100];
  for (int i = 0; i < 100; i++) v[i] = 3;
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_rle_encode_u32(v, 50, 2, &b, NULL));
  CHECK_EQ_INT(b.len, 2);
  CHECK_EQ_INT(b.data[0], 100);
  CHECK_EQ_INT(b.data[1], 3);
  CHECK(pqt_rle_encode_u32(v, 50, 1, &b, NULL) == PQT_EINVAL); /* 3 needs 2 bits */
  pqt_buf_clear(&b);
  /* 3 literals then 13 repeats: literals topped up to 8, then RLE of 8 */
  uint32_t w[16] = {1, 2, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
  CHECK_OK(pqt_rle_encode_u32(w, 16, 2, &b, NULL));
  CHECK_EQ_INT(b.len, 1 + 2 + 2);
  CHECK_EQ_INT(b.data[0], 3);
  CHECK_EQ_INT(b.data[3], 16);
  CHECK_EQ_INT(b.data[4], 3);
  pqt_buf_clear(&b);
  /* 3 literals then 10 repeats: too short once topped up, all literals */
  CHECK_OK(pqt_rle_encode_u32(w, 13, 2, &b, NULL));
  CHECK_EQ_INT(b.len, 1 + 4);
  CHECK_EQ_INT(b.data[0], 5);
  pqt_buf_free(&b);
}

/* Truncation at every byte: error or correct values, never a bad read.
 * With a stream ending in an RLE run every strict prefix must fail. */
static void test_rle_truncation(void) {
  enc_seed(3);
  const size_t n = 400;
  uint32_t v[400], o[400];
  make_runs(v, n, 5);
  for (size_t i = n - 20; i < n; i++) v[i] = 9; /* ends in an RLE run */
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_rle_encode_u32(v, n, 5, &b, NULL));
  for (size_t cut = 0; cut < b.len; cut++) {
    uint8_t *in = enc_dup(b.data, cut);
    pqt_rle_decoder d;
    CHECK_OK(pqt_rle_decoder_init(&d, in, cut, 5, NULL));
    CHECK_MSG(pqt_rle_get_u32(&d, o, n, NULL) == PQT_ECORRUPT, "cut %zu", cut);
    free(in);
  }
  pqt_buf_free(&b);
}

/* Dictionary gathers of 1-, 2-, 4- and 8-byte entries at every bit width:
 * long bit-packed runs (the fused unpack + gather path) mixed with RLE runs,
 * read in batches that split groups, from an exact-size buffer (the fused
 * path's 8-byte loads must stay inside it); then one index out of range,
 * placed anywhere, must be reported. */
static void test_rle_dict_gather_widths(void) {
  enc_seed(99);
  static const int widths[4] = {1, 2, 4, 8};
  for (unsigned w = 1; w <= 32; w++) {
    for (int rep = 0; rep < 6; rep++) {
      size_t n = 1 + (size_t)(enc_rand() % 3000);
      size_t dict_n = w >= 12 ? 4096 : ((size_t)1 << w) - (enc_rand() % 2 ? 0 : ((size_t)1 << w) / 3);
      if (dict_n == 0) dict_n = 1;
      uint32_t *idx = malloc(n * sizeof *idx);
      for (size_t i = 0; i < n;) {
        size_t r = 1 + (size_t)(enc_rand() % (enc_rand() % 4 == 0 ? 40 : 4));
        uint32_t v = (uint32_t)(enc_rand() % dict_n);
        for (size_t k = 0; k < r && i < n; k++, i++) idx[i] = enc_rand() % 3 == 0 ? v : (uint32_t)(enc_rand() % dict_n);
      }
      if (w >= 12 && n > 0) idx[enc_rand() % n] = (uint32_t)(dict_n - 1);
      pqt_buf b;
      pqt_buf_init(&b, NULL);
      uint8_t hdr = (uint8_t)w;
      CHECK_OK(pqt_buf_append(&b, &hdr, 1, NULL));
      CHECK_OK(pqt_rle_encode_u32(idx, n, w, &b, NULL));
      uint8_t *in = enc_dup(b.data, b.len);
      uint8_t *dict = malloc(dict_n * 8);
      for (size_t i = 0; i < dict_n * 8; i++) dict[i] = (uint8_t)enc_rand();
      uint8_t *out = malloc(n * 8);
      for (int wi = 0; wi < 8; wi++) {
        const size_t width = (size_t)widths[wi % 4];
        const int vector = wi >= 4; /* the scalar kernels, then the vector ones where the CPU has them */
        pqt_rle_decoder d;
        CHECK_OK(pqt_rle_dict_page_init(&d, in, b.len, NULL));
        size_t done = 0;
        while (done < n) {
          size_t k = 1 + (size_t)(enc_rand() % (enc_rand() % 2 ? 13 : 700));
          if (k > n - done) k = n - done;
          CHECK_OK(pqt_rle_get_dict_fixed_isa(&d, dict, dict_n, width, out + done * width, k, vector, NULL));
          done += k;
        }
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) bad += memcmp(out + i * width, dict + (size_t)idx[i] * width, width) != 0;
        CHECK_MSG(bad == 0, "w %u width %zu vector %d n %zu: %zu wrong", w, width, vector, n, bad);
      }
      /* one index out of range */
      if (dict_n < ((size_t)1 << (w < 32 ? w : 31))) {
        size_t at = (size_t)(enc_rand() % n);
        idx[at] = (uint32_t)dict_n;
        b.len = 0;
        CHECK_OK(pqt_buf_append(&b, &hdr, 1, NULL));
        CHECK_OK(pqt_rle_encode_u32(idx, n, w, &b, NULL));
        free(in);
        in = enc_dup(b.data, b.len);
        for (int wi = 0; wi < 8; wi++) {
          const size_t width = (size_t)widths[wi % 4];
          pqt_rle_decoder d;
          pqt_error e;
          pqt_error_init(&e);
          CHECK_OK(pqt_rle_dict_page_init(&d, in, b.len, NULL));
          CHECK_MSG(pqt_rle_get_dict_fixed_isa(&d, dict, dict_n, width, out, n, wi >= 4, &e) == PQT_ECORRUPT,
                    "w %u width %zu at %zu", w, width, at);
          CHECK(strstr(e.message, "out of range") != NULL);
        }
      }
      free(in);
      free(idx);
      free(dict);
      free(out);
      pqt_buf_free(&b);
    }
  }
}

static void test_rle_dict_gather(void) {
  const uint32_t idx[20] = {0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 1, 0, 0, 0, 0, 0, 0};
  const int64_t dict[4] = {-1, 10, 200, INT64_MAX};
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  uint8_t hdr = 2;
  CHECK_OK(pqt_buf_append(&b, &hdr, 1, NULL));
  CHECK_OK(pqt_rle_encode_u32(idx, 20, 2, &b, NULL));
  uint8_t *in = enc_dup(b.data, b.len);
  pqt_rle_decoder d;
  int64_t out[20];
  CHECK_OK(pqt_rle_dict_page_init(&d, in, b.len, NULL));
  CHECK_OK(pqt_rle_get_dict_fixed(&d, dict, 4, 8, out, 7, NULL));
  CHECK_OK(pqt_rle_get_dict_fixed(&d, dict, 4, 8, out + 7, 13, NULL));
  for (int i = 0; i < 20; i++) CHECK(out[i] == dict[idx[i]]);
  /* dictionary of 3 entries: index 3 is out of range (in RLE and literal runs) */
  CHECK_OK(pqt_rle_dict_page_init(&d, in, b.len, NULL));
  CHECK(pqt_rle_get_dict_fixed(&d, dict, 3, 8, out, 20, NULL) == PQT_ECORRUPT);
  /* width 12 (INT96) and 3 (odd FLBA) gathers */
  uint8_t d12[4 * 12], o12[20 * 12];
  for (int i = 0; i < 48; i++) d12[i] = (uint8_t)i;
  CHECK_OK(pqt_rle_dict_page_init(&d, in, b.len, NULL));
  CHECK_OK(pqt_rle_get_dict_fixed(&d, d12, 4, 12, o12, 20, NULL));
  for (int i = 0; i < 20; i++) CHECK(memcmp(o12 + 12 * i, d12 + 12 * idx[i], 12) == 0);
  CHECK_OK(pqt_rle_dict_page_init(&d, in, b.len, NULL));
  CHECK_OK(pqt_rle_get_dict_fixed(&d, d12, 4, 3, o12, 20, NULL));
  for (int i = 0; i < 20; i++) CHECK(memcmp(o12 + 3 * i, d12 + 3 * idx[i], 3) == 0);
  /* byte arrays */
  const uint8_t ddata[] = "aabbbcccc";
  const int32_t doff[5] = {0, 0, 2, 5, 9};
  int32_t offs[21];
  pqt_buf data;
  pqt_buf_init(&data, NULL);
  CHECK_OK(pqt_rle_dict_page_init(&d, in, b.len, NULL));
  CHECK_OK(pqt_rle_get_dict_binary(&d, doff, ddata, 4, offs, &data, 20, NULL));
  CHECK_EQ_INT(offs[0], 0);
  CHECK_EQ_INT(offs[20], 2 + 3 + 4 * 9 + 3 + 2);
  CHECK(memcmp(data.data, "aabbbcccc", 9) == 0);
  CHECK_OK(pqt_rle_dict_page_init(&d, in, b.len, NULL));
  CHECK(pqt_rle_get_dict_binary(&d, doff, ddata, 3, offs, &data, 20, NULL) == PQT_ECORRUPT);
  pqt_buf_free(&data);
  /* bit width byte > 32 */
  uint8_t bad = 33;
  CHECK(pqt_rle_dict_page_init(&d, &bad, 1, NULL) == PQT_ECORRUPT);
  CHECK(pqt_rle_dict_page_init(&d, &bad, 0, NULL) == PQT_ECORRUPT);
  free(in);
  pqt_buf_free(&b);
}

static void test_levels(void) {
  int16_t lv[300], out[300];
  enc_seed(4);
  for (int i = 0; i < 300; i++) lv[i] = (int16_t)(i < 100 ? 2 : enc_rand() % 3);
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  uint8_t prefix[4] = {0};
  CHECK_OK(pqt_buf_append(&b, prefix, 4, NULL));
  CHECK_OK(pqt_rle_encode_levels(lv, 300, 2, &b, NULL));
  pqt_store_u32le(b.data, (uint32_t)(b.len - 4));
  CHECK_OK(pqt_buf_append(&b, "XYZ", 3, NULL)); /* what follows the levels */
  const uint8_t *body;
  size_t body_len, used;
  CHECK_OK(pqt_rle_v1_span(b.data, b.len, &body, &body_len, &used, NULL));
  CHECK_EQ_INT(used, b.len - 3);
  CHECK_OK(pqt_levels_decode_rle(body, body_len, 2, out, 300, 2, NULL));
  CHECK(memcmp(out, lv, sizeof lv) == 0);
  CHECK(pqt_levels_decode_rle(body, body_len, 2, out, 300, 1, NULL) == PQT_ECORRUPT);
  CHECK(pqt_rle_v1_span(b.data, 3, &body, &body_len, &used, NULL) == PQT_ECORRUPT);
  CHECK(pqt_rle_v1_span(b.data, 10, &body, &body_len, &used, NULL) == PQT_ECORRUPT);
  pqt_buf_free(&b);
}

/* pqt_rle_get_levels' fast paths (RLE runs as fills, bit-packed widths 1-2
 * by table, whole groups) against pqt_rle_get_u32, in batches of random
 * sizes (so groups are entered mid-way), with levels above max_level at
 * random places, bit-packed runs cut short by the end of the span, and the
 * counting variant. */
static void test_levels_fast_paths(void) {
  enc_seed(11);
  enum { N = 2500 };
  static uint32_t v[N], ref[N];
  static int16_t out[N];
  for (int iter = 0; iter < 300; iter++) {
    unsigned w = (unsigned)(enc_rand() % 5);
    size_t n = 1 + enc_rand() % N;
    make_runs(v, n, w);
    pqt_buf b;
    pqt_buf_init(&b, NULL);
    if (enc_rand() % 4 == 0) {
      /* one long bit-packed run, maybe claiming more groups than bytes */
      size_t groups = (n + 7) / 8, claim = groups + (enc_rand() % 3 ? 0 : enc_rand() % 5);
      CHECK_OK(pqt_enc_buf_put_uleb(&b, (uint64_t)claim << 1 | 1, NULL));
      CHECK_OK(pqt_buf_reserve(&b, groups * w + 8, NULL));
      static uint32_t tmp[N + 8];
      memset(tmp, 0, sizeof tmp);
      memcpy(tmp, v, n * 4);
      pqt_bitpack32(tmp, groups * 8, w, b.data + b.len);
      b.len += groups * w;
      if (w && claim == groups && enc_rand() % 2) b.len -= 1; /* cut: fewer values present */
    } else {
      CHECK_OK(pqt_rle_encode_u32(v, n, w, &b, NULL));
    }
    uint8_t *in = enc_dup(b.data, b.len);
    int16_t max_level = (int16_t)(w == 0 ? 0 : enc_rand() % (1u << w));
    pqt_rle_decoder dr, dl;
    CHECK_OK(pqt_rle_decoder_init(&dr, in, b.len, w, NULL));
    CHECK_OK(pqt_rle_decoder_init(&dl, in, b.len, w, NULL));
    size_t i = 0;
    while (i < n) {
      size_t k = 1 + enc_rand() % (enc_rand() % 2 ? 9 : 700);
      if (k > n - i) k = n - i;
      pqt_status sr = pqt_rle_get_u32(&dr, ref + i, k, NULL);
      pqt_status sl = pqt_rle_get_levels(&dl, out + i, k, max_level, NULL);
      bool over = false;
      for (size_t j = 0; sr == PQT_OK && j < k; j++) over |= ref[i + j] > (uint32_t)max_level;
      CHECK_MSG(sl == (sr != PQT_OK ? sr
                       : over       ? PQT_ECORRUPT
                                    : PQT_OK),
                "iter %d w %u at %zu+%zu: %d vs ref %d over %d", iter, w, i, k, sl, sr, over);
      if (sl != PQT_OK || sr != PQT_OK) break;
      for (size_t j = 0; j < k; j++)
        CHECK_MSG(out[i + j] == (int16_t)ref[i + j], "iter %d w %u entry %zu", iter, w, i + j);
      i += k;
    }
    /* counting variant: whole span at once */
    int16_t cl = (int16_t)(w == 0 ? 0 : enc_rand() % (1u << w));
    size_t cnt = 12345;
    pqt_status sc = pqt_levels_decode_rle_count(in, b.len, w, out, n, (int16_t)((1 << w) - 1), cl, &cnt, NULL);
    pqt_rle_decoder d2;
    CHECK_OK(pqt_rle_decoder_init(&d2, in, b.len, w, NULL));
    pqt_status s2 = pqt_rle_get_u32(&d2, ref, n, NULL);
    CHECK_EQ_INT(sc, s2);
    if (sc == PQT_OK) {
      size_t want = 0;
      for (size_t j = 0; j < n; j++) want += ref[j] == (uint32_t)cl;
      CHECK_EQ_INT(cnt, want);
      for (size_t j = 0; j < n; j++) CHECK(out[j] == (int16_t)ref[j]);
    } else {
      CHECK_EQ_INT(cnt, 12345); /* untouched on failure */
    }
    free(in);
    pqt_buf_free(&b);
  }
}

static void test_rle_bools(void) {
  uint8_t v[1000], o[1000], bm[130];
  enc_seed(5);
  for (int i = 0; i < 1000; i++) v[i] = (i / 50) % 2 ? 1 : (enc_rand() & 1);
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_rle_encode_bool_bytes(v, 1000, &b, NULL));
  pqt_rle_decoder d;
  CHECK_OK(pqt_rle_decoder_init(&d, b.data, b.len, 1, NULL));
  CHECK_OK(pqt_rle_get_bool_bytes(&d, o, 1000, NULL));
  CHECK(memcmp(o, v, 1000) == 0);
  memset(bm, 0x5A, sizeof bm);
  CHECK_OK(pqt_rle_decoder_init(&d, b.data, b.len, 1, NULL));
  CHECK_OK(pqt_rle_get_bool_bitmap(&d, bm, 3, 500, NULL));
  CHECK_OK(pqt_rle_get_bool_bitmap(&d, bm, 503, 500, NULL));
  int bad = 0;
  for (int i = 0; i < 1000; i++) bad |= ((bm[(i + 3) >> 3] >> ((i + 3) & 7)) & 1) != v[i];
  CHECK(!bad);
  CHECK_EQ_INT(bm[0] & 7, 0x5A & 7);     /* bits before out_bit kept */
  CHECK_EQ_INT(bm[125] >> 3, 0x5A >> 3); /* bits after kept (bit 1003 on) */
  CHECK_OK(pqt_rle_decoder_init(&d, b.data, b.len, 2, NULL));
  CHECK(pqt_rle_get_bool_bytes(&d, o, 1, NULL) == PQT_ECORRUPT);
  pqt_buf_free(&b);
}

/* A huge claimed run costs nothing: decoding never writes past n. */
static void test_rle_huge_counts(void) {
  const uint8_t raw[] = {0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 0x01}; /* RLE of 2^31-1 ones */
  pqt_rle_decoder d;
  uint32_t out[16] = {7, 7, 7, 7};
  CHECK_OK(pqt_rle_decoder_init(&d, raw, sizeof raw, 1, NULL));
  CHECK_OK(pqt_rle_get_u32(&d, out, 3, NULL));
  CHECK(out[0] == 1 && out[2] == 1 && out[3] == 7);
  CHECK_OK(pqt_rle_skip(&d, 1000000000, NULL));
  const uint8_t bp[] = {0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0xAA}; /* 2^31 groups, 1 byte */
  CHECK_OK(pqt_rle_decoder_init(&d, bp, sizeof bp, 1, NULL));
  CHECK_OK(pqt_rle_get_u32(&d, out, 3, NULL));
  CHECK(out[0] == 0 && out[1] == 1 && out[3] == 7);
  CHECK(pqt_rle_get_u32(&d, out, 6, NULL) == PQT_ECORRUPT); /* only 8 present */
  const uint8_t over[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F};
  CHECK_OK(pqt_rle_decoder_init(&d, over, sizeof over, 1, NULL));
  CHECK(pqt_rle_get_u32(&d, out, 1, NULL) == PQT_ECORRUPT);
}

static void test_dict_builder(void) {
  pqt_dict_builder b;
  pqt_dict_builder_init(&b, 4, NULL);
  int32_t vals[5000];
  uint32_t idx[5000];
  for (int i = 0; i < 5000; i++) vals[i] = (i * 7919) % 1500;
  CHECK_OK(pqt_dict_builder_add_fixed(&b, vals, 5000, idx, NULL));
  CHECK_EQ_INT(pqt_dict_builder_count(&b), 1500);
  CHECK_EQ_INT(pqt_dict_builder_bytes(&b), 1500 * 4);
  CHECK_EQ_INT(pqt_dict_builder_index_width(&b), 11);
  int bad = 0;
  for (int i = 0; i < 5000; i++) bad |= memcmp(b.plain.data + 4 * idx[i], &vals[i], 4) != 0;
  CHECK(!bad);
  CHECK_EQ_INT(idx[0], 0);
  pqt_dict_builder_free(&b);
  pqt_dict_builder_init(&b, 0, NULL);
  const uint8_t data[] = "abcabcab";
  const int32_t offs[6] = {0, 3, 6, 8, 8, 8}; /* abc abc ab "" "" */
  uint32_t bi[5];
  CHECK_OK(pqt_dict_builder_add_binary(&b, offs, data, 5, bi, NULL));
  CHECK(bi[0] == 0 && bi[1] == 0 && bi[2] == 1 && bi[3] == 2 && bi[4] == 2);
  CHECK_EQ_INT(pqt_dict_builder_bytes(&b), 4 + 3 + 4 + 2 + 4);
  CHECK(memcmp(b.plain.data, "\x03\0\0\0abc\x02\0\0\0ab\0\0\0\0", 17) == 0);
  pqt_dict_builder_free(&b);
}

RUN_TESTS("enc_bitpack_rle", TEST_CASE(test_spec_lsb_example), TEST_CASE(test_spec_msb_example),
          TEST_CASE(test_roundtrip_all_widths), TEST_CASE(test_rle_spec_stream), TEST_CASE(test_rle_short_last_run),
          TEST_CASE(test_rle_roundtrip_batches), TEST_CASE(test_rle_encoder_shape), TEST_CASE(test_rle_truncation),
          TEST_CASE(test_rle_dict_gather), TEST_CASE(test_rle_dict_gather_widths), TEST_CASE(test_levels),
          TEST_CASE(test_levels_fast_paths), TEST_CASE(test_rle_bools), TEST_CASE(test_rle_huge_counts),
          TEST_CASE(test_dict_builder))
