/* Runs the libFuzzer target fuzz/fuzz_encoding.c under the ordinary test
 * build (ASan + UBSan) on deterministic inputs: valid streams from our
 * encoders, then the same streams with random byte flips and truncations,
 * so the fuzz harness and every decoder's error paths run in plain ctest. */
#include "../../fuzz/fuzz_encoding.c"

#include "encoding/delta_binary_packed.h"
#include "enc_test_util.h"
#include "harness.h"

static void run(const uint8_t *hdr, const pqt_buf *body) {
  size_t len = 4 + body->len;
  uint8_t *in = malloc(len);
  memcpy(in, hdr, 4);
  if (body->len) memcpy(in + 4, body->data, body->len);
  LLVMFuzzerTestOneInput(in, len);
  for (int m = 0; m < 8; m++) {
    size_t cut = 4 + (body->len ? enc_rand() % (body->len + 1) : 0);
    uint8_t *t = enc_dup(in, cut);
    if (cut > 4 && (enc_rand() & 1)) t[4 + enc_rand() % (cut - 4)] ^= (uint8_t)(1u << (enc_rand() % 8));
    LLVMFuzzerTestOneInput(t, cut);
    free(t);
  }
  free(in);
}

static void test_fuzz_smoke(void) {
  enc_seed(77);
  for (int iter = 0; iter < 1500; iter++) {
    unsigned mode = (unsigned)(enc_rand() % 12);
    size_t n = enc_rand() % 700;
    unsigned w = (unsigned)(enc_rand() % 33);
    pqt_buf b;
    pqt_buf_init(&b, NULL);
    uint32_t *v = malloc((n + 1) * 4);
    for (size_t i = 0; i < n; i++) v[i] = (uint32_t)enc_rand_bits(enc_rand() % 2 || w < 2 ? w : 2);
    uint8_t hdr[4] = {(uint8_t)mode, (uint8_t)w, (uint8_t)n, (uint8_t)(n >> 8)};
    switch (mode) {
      case 2:
      case 3: {
        uint8_t bw = 6;
        for (size_t i = 0; i < n; i++) v[i] %= 45;
        pqt_buf_append(&b, &bw, 1, NULL);
        pqt_rle_encode_u32(v, n, bw, &b, NULL);
        break;
      }
      case 6:
      case 7:
      case 8:
      case 9:
        pqt_delta_bp_encode_i32((const int32_t *)v, n, &b, NULL);
        if (mode == 9) pqt_delta_bp_encode_i32((const int32_t *)v, n, &b, NULL);
        for (size_t i = 0; i < n && mode >= 8; i++) pqt_buf_append(&b, "xyz", 3, NULL);
        break;
      case 1:
      case 11:
        hdr[1] = (uint8_t)(w % 17);
        for (size_t i = 0; i < n; i++) v[i] &= (1u << (w % 17)) - 1;
        pqt_rle_encode_u32(v, n, w % 17, &b, NULL);
        break;
      default: {
        pqt_rle_encode_u32(v, n, w, &b, NULL);
        /* the unmutated stream must decode to the values */
        uint32_t *o = malloc((n + 1) * 4);
        pqt_rle_decoder d;
        CHECK_OK(pqt_rle_decoder_init(&d, b.data, b.len, w, NULL));
        CHECK_OK(pqt_rle_get_u32(&d, o, n, NULL));
        CHECK(n == 0 || memcmp(o, v, n * 4) == 0);
        free(o);
      }
    }
    run(hdr, &b);
    pqt_buf_free(&b);
    free(v);
  }
  /* The assertions are the target's own abort()s (a status other than
   * PQT_OK/PQT_ECORRUPT, or a corrupt error without a message) and the
   * sanitizers, which end the process. */
}

RUN_TESTS("enc_fuzz_smoke", TEST_CASE(test_fuzz_smoke))
