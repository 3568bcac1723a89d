/*
 * encoding/alp: ALP (parquet-format AlpEncoding.md, "ALP = 10", preview).
 *
 * Decoding a vector: unpack the deltas (LSB-first, as the RLE/bit-packing
 * hybrid), add the frame of reference (wrapping), convert to the float type,
 * multiply by 10^factor then by 10^-exponent (two multiplications by the
 * correctly rounded constants, as the spec requires), then patch the
 * exceptions with their stored bits. Work is done a chunk of at most
 * ALP_CHUNK values at a time on the stack; no allocation.
 *
 * Encoding: per page, a sample of values picks up to ALP_CANDIDATES
 * (exponent, factor) pairs; per vector, the candidate giving the smallest
 * estimated size on a sample of the vector is used. Every value is checked
 * against the normative decode; one that does not come back bit for bit is
 * an exception.
 */
#include "encoding/alp.h"

#include "core/cpu.h"
#include "encoding/bitpack.h"

#define ALP_HEADER       7
#define ALP_LOG_VS       10 /* vectors of 1024 values when writing */
#define ALP_CHUNK        1024
#define ALP_CANDIDATES   5
#define ALP_MAX_E_DOUBLE 18
#define ALP_MAX_E_FLOAT  10

/* 10^i and 10^-i: decimal literals, converted by the compiler (correctly
 * rounded, IEEE 754 5.12.2); never computed with pow(). */
static const double alp_pow10[19] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8, 1e9,
                                     1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
static const double alp_neg10[19] = {1e0,   1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,  1e-7,  1e-8, 1e-9,
                                     1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18};
static const float alp_pow10f[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
static const float alp_neg10f[11] = {1e0f, 1e-1f, 1e-2f, 1e-3f, 1e-4f, 1e-5f, 1e-6f, 1e-7f, 1e-8f, 1e-9f, 1e-10f};

static inline uint64_t alp_dbits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static inline double alp_bitsd(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}
static inline uint32_t alp_fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* ---- decoding ------------------------------------------------------------ */

pqt_status pqt_alp_page_init(pqt_alp_page *pg, const uint8_t *in, size_t len, size_t width, pqt_error *err) {
  memset(pg, 0, sizeof *pg);
  if (width != 4 && width != 8) return pqt_error_set(err, PQT_EINVAL, "ALP: width %zu", width);
  PQT_CHECK_CORRUPT(len >= ALP_HEADER, err, "ALP: page of %zu bytes is shorter than the 7-byte header", len);
  PQT_CHECK_CORRUPT(in[0] == 0, err, "ALP: compression mode %u (only 0, ALP, is defined)", in[0]);
  PQT_CHECK_CORRUPT(in[1] == 0, err, "ALP: integer encoding %u (only 0, FOR + bit-packing, is defined)", in[1]);
  PQT_CHECK_CORRUPT(in[2] >= 3 && in[2] <= 15, err, "ALP: log2 vector size %u outside [3, 15]", in[2]);
  int32_t ne = (int32_t)pqt_load_u32le(in + 3);
  PQT_CHECK_CORRUPT(ne >= 0, err, "ALP: negative element count %d", ne);
  size_t vs = (size_t)1 << in[2];
  size_t nvec = ((size_t)ne + vs - 1) / vs;
  PQT_CHECK_CORRUPT(nvec <= (len - ALP_HEADER) / 4, err,
                    "ALP: %zu vectors' offsets do not fit in the %zu bytes of the page", nvec, len);
  pg->in = in;
  pg->len = len;
  pg->width = width;
  pg->log_vs = in[2];
  pg->n = (size_t)ne;
  pg->n_vectors = nvec;
  return PQT_OK;
}

/* A vector's header, checked against the page. */
typedef struct alp_vec {
  unsigned e, f, bw;
  size_t nexc, nval;
  uint64_t ref; /* frame of reference, as unsigned (int32 sign-extended for FLOAT) */
  const uint8_t *packed, *pos, *exc;
  size_t packed_len;
} alp_vec;

static pqt_status alp_vec_read(const pqt_alp_page *pg, size_t v, alp_vec *h, pqt_error *err) {
  const size_t w = pg->width, hdr = w == 8 ? 13 : 9;
  size_t vs = (size_t)1 << pg->log_vs;
  h->nval = v + 1 < pg->n_vectors ? vs : pg->n - v * vs;
  uint32_t off = pqt_load_u32le(pg->in + ALP_HEADER + 4 * v);
  size_t room = pg->len - ALP_HEADER; /* bytes from the start of the offset array */
  PQT_CHECK_CORRUPT(off >= pg->n_vectors * 4 && off <= room && room - off >= hdr, err,
                    "ALP: vector %zu offset %u outside the page (%zu bytes after the header)", v, off, room);
  const uint8_t *p = pg->in + ALP_HEADER + off;
  size_t left = room - off - hdr;
  h->e = p[0];
  h->f = p[1];
  h->nexc = pqt_load_u16le(p + 2);
  unsigned max_e = w == 8 ? ALP_MAX_E_DOUBLE : ALP_MAX_E_FLOAT;
  PQT_CHECK_CORRUPT(h->e <= max_e, err, "ALP: vector %zu exponent %u above %u", v, h->e, max_e);
  PQT_CHECK_CORRUPT(h->f <= h->e, err, "ALP: vector %zu factor %u above its exponent %u", v, h->f, h->e);
  if (w == 8) {
    h->ref = pqt_load_u64le(p + 4);
    h->bw = p[12];
  } else {
    h->ref = (uint64_t)(int64_t)(int32_t)pqt_load_u32le(p + 4);
    h->bw = p[8];
  }
  PQT_CHECK_CORRUPT(h->bw <= w * 8, err, "ALP: vector %zu bit width %u above %zu", v, h->bw, w * 8);
  PQT_CHECK_CORRUPT(h->nexc <= h->nval, err, "ALP: vector %zu has %zu exceptions for %zu values", v, h->nexc, h->nval);
  h->packed_len = pqt_bitpack_bytes(h->nval, h->bw);
  size_t need = h->packed_len + h->nexc * (2 + w);
  PQT_CHECK_CORRUPT(need <= left, err, "ALP: vector %zu needs %zu bytes, %zu left in the page", v, need, left);
  h->packed = p + hdr;
  h->pos = h->packed + h->packed_len;
  h->exc = h->pos + 2 * h->nexc;
  for (size_t j = 0; j < h->nexc; j++) {
    uint16_t q = pqt_load_u16le(h->pos + 2 * j);
    PQT_CHECK_CORRUPT(q < h->nval, err, "ALP: vector %zu exception %zu at position %u, past its %zu values", v, j, q,
                      h->nval);
  }
  return PQT_OK;
}

/* The fast conversion of a chunk: every value is frame + delta with
 * |frame + delta| < 2^51, so adding the delta to the bits of 1.5 * 2^52 +
 * frame and subtracting 1.5 * 2^52 gives (double)(frame + delta) exactly.
 * Then the spec's two multiplications (the first skipped when the factor is
 * 0: x * 1.0 == x exactly). One body, compiled for AVX-512, AVX2 and the
 * baseline; the widest the CPU has is used. */
#define ALP_CONV_BODY                  \
  if (F == 1.0) {                      \
    for (size_t i = 0; i < cnt; i++) { \
      uint64_t u = K + t[i];           \
      double d;                        \
      memcpy(&d, &u, 8);               \
      o[i] = (d - 0x1.8p52) * E;       \
    }                                  \
  } else {                             \
    for (size_t i = 0; i < cnt; i++) { \
      uint64_t u = K + t[i];           \
      double d;                        \
      memcpy(&d, &u, 8);               \
      o[i] = (d - 0x1.8p52) * F * E;   \
    }                                  \
  }

static void alp_conv_base(const uint32_t *restrict t, size_t cnt, double *restrict o, uint64_t K, double F, double E) {
  ALP_CONV_BODY
}
#if defined(__x86_64__) && defined(__GNUC__)
#define ALP_HAVE_X86_CONV 1
__attribute__((target("avx2"))) static void alp_conv_avx2(const uint32_t *restrict t, size_t cnt, double *restrict o,
                                                          uint64_t K, double F, double E) {
  ALP_CONV_BODY
}
__attribute__((target("avx512f"))) static void alp_conv_avx512(const uint32_t *restrict t, size_t cnt,
                                                               double *restrict o, uint64_t K, double F, double E) {
  ALP_CONV_BODY
}
#endif

static void alp_conv(const uint32_t *t, size_t cnt, double *o, uint64_t K, double F, double E) {
#ifdef ALP_HAVE_X86_CONV
  if (pqt_cpu_has(PQT_CPU_AVX512F)) {
    alp_conv_avx512(t, cnt, o, K, F, E);
    return;
  }
  if (pqt_cpu_has(PQT_CPU_AVX2)) {
    alp_conv_avx2(t, cnt, o, K, F, E);
    return;
  }
#endif
  alp_conv_base(t, cnt, o, K, F, E);
}

/* Values [a, b) of a DOUBLE vector into o[0 .. b-a). */
static void alp_vec_decode_d(const alp_vec *h, size_t a, size_t b, double *o) {
  uint64_t tmp[ALP_CHUNK];
  const double F = alp_pow10[h->f], E = alp_neg10[h->e];
  const int64_t ref = (int64_t)h->ref;
  const int64_t two51 = (int64_t)1 << 51;
  /* frame + delta stays within [-2^51, 2^51): the exact bit trick of alp_conv applies */
  bool fast = h->bw <= 32 && ref >= -two51 && ref < two51 - ((int64_t)1 << 32);
  const uint64_t K = 0x4338000000000000ull + h->ref; /* bits of 1.5 * 2^52, plus the frame */
  for (size_t c0 = a & ~(size_t)7; c0 < b; c0 += ALP_CHUNK) {
    size_t c1 = c0 + ALP_CHUNK < b ? c0 + ALP_CHUNK : b;
    size_t skip = c0 * h->bw / 8; /* c0 is a multiple of 8: byte aligned */
    size_t lo = c0 < a ? a - c0 : 0, cnt = c1 - c0;
    double *oc = o + (c0 + lo - a);
    if (h->bw <= 32) {
      uint32_t *t32 = (uint32_t *)(void *)tmp;
      pqt_bitunpack32(h->packed + skip, h->packed_len - skip, t32, cnt, h->bw);
      if (fast) alp_conv(t32 + lo, cnt - lo, oc, K, F, E);
      else
        for (size_t i = lo; i < cnt; i++) oc[i - lo] = (double)(int64_t)(h->ref + t32[i]) * F * E;
    } else {
      pqt_bitunpack64(h->packed + skip, h->packed_len - skip, tmp, cnt, h->bw);
      for (size_t i = lo; i < cnt; i++) oc[i - lo] = (double)(int64_t)(h->ref + tmp[i]) * F * E;
    }
  }
  for (size_t j = 0; j < h->nexc; j++) {
    size_t q = pqt_load_u16le(h->pos + 2 * j);
    if (q >= a && q < b) o[q - a] = alp_bitsd(pqt_load_u64le(h->exc + 8 * j));
  }
}

static void alp_vec_decode_f(const alp_vec *h, size_t a, size_t b, float *o) {
  uint32_t tmp[ALP_CHUNK];
  const float F = alp_pow10f[h->f], E = alp_neg10f[h->e];
  const uint32_t ref = (uint32_t)h->ref;
  for (size_t c0 = a & ~(size_t)7; c0 < b; c0 += ALP_CHUNK) {
    size_t c1 = c0 + ALP_CHUNK < b ? c0 + ALP_CHUNK : b;
    size_t skip = c0 * h->bw / 8;
    size_t lo = c0 < a ? a - c0 : 0, cnt = c1 - c0;
    float *oc = o + (c0 + lo - a);
    pqt_bitunpack32(h->packed + skip, h->packed_len - skip, tmp, cnt, h->bw);
    for (size_t i = lo; i < cnt; i++) oc[i - lo] = (float)(int32_t)(ref + tmp[i]) * F * E;
  }
  for (size_t j = 0; j < h->nexc; j++) {
    size_t q = pqt_load_u16le(h->pos + 2 * j);
    if (q >= a && q < b) {
      uint32_t u = pqt_load_u32le(h->exc + 4 * j);
      memcpy(&o[q - a], &u, 4);
    }
  }
}

pqt_status pqt_alp_decode(const pqt_alp_page *pg, size_t start, size_t n, void *out, pqt_error *err) {
  if (start > pg->n || n > pg->n - start)
    return pqt_corrupt(err, "ALP: values [%zu, %zu+%zu) past the %zu present", start, start, n, pg->n);
  const size_t w = pg->width, lv = pg->log_vs, vs = (size_t)1 << lv;
  uint8_t *o = out;
  bool aligned = ((uintptr_t)out & (w - 1)) == 0;
  size_t i = start, end = start + n;
  while (i < end) {
    size_t v = i >> lv, vbase = v * vs;
    alp_vec h;
    PQT_RETURN_NOT_OK(alp_vec_read(pg, v, &h, err));
    size_t a = i - vbase, b = end - vbase < h.nval ? end - vbase : h.nval;
    uint8_t *dst = o + (i - start) * w;
    if (aligned) {
      if (w == 8) alp_vec_decode_d(&h, a, b, (double *)(void *)dst);
      else alp_vec_decode_f(&h, a, b, (float *)(void *)dst);
    } else {
      /* the caller's buffer is not aligned to the value width: a chunk at a time through the stack */
      double buf[ALP_CHUNK];
      for (size_t x = a; x < b; x += ALP_CHUNK) {
        size_t y = x + ALP_CHUNK < b ? x + ALP_CHUNK : b;
        if (w == 8) alp_vec_decode_d(&h, x, y, buf);
        else alp_vec_decode_f(&h, x, y, (float *)(void *)buf);
        memcpy(dst + (x - a) * w, buf, (y - x) * w);
      }
    }
    i = vbase + b;
  }
  return PQT_OK;
}

/* ---- encoding ------------------------------------------------------------ */

/* The integer a value is stored as under (e, f), if it round-trips bit for bit. */
static inline bool alp_enc_d(double v, unsigned e, unsigned f, int64_t *out) {
  double x = v * alp_pow10[e] * alp_neg10[f];
  if (!(x > -9.2e18 && x < 9.2e18)) return false; /* NaN, inf, outside int64 */
  const double M = 0x1p52;
  double r = x;
  if (x >= 0 && x < M) r = (x + M) - M;
  else if (x < 0 && x > -M) r = (x - M) + M;
  int64_t i = (int64_t)r;
  double d = (double)i * alp_pow10[f] * alp_neg10[e];
  if (alp_dbits(d) != alp_dbits(v)) return false;
  *out = i;
  return true;
}

static inline bool alp_enc_f(float v, unsigned e, unsigned f, int64_t *out) {
  float x = v * alp_pow10f[e] * alp_neg10f[f];
  if (!(x > -2147483520.0f && x < 2147483520.0f)) return false;
  const float M = 0x1p23f;
  float r = x;
  if (x >= 0 && x < M) r = (x + M) - M;
  else if (x < 0 && x > -M) r = (x - M) + M;
  int32_t i = (int32_t)r;
  float d = (float)i * alp_pow10f[f] * alp_neg10f[e];
  if (alp_fbits(d) != alp_fbits(v)) return false;
  *out = i;
  return true;
}

static inline bool alp_enc(const void *values, size_t w, size_t i, unsigned e, unsigned f, int64_t *out) {
  if (w == 8) {
    double v;
    memcpy(&v, (const uint8_t *)values + 8 * i, 8);
    return alp_enc_d(v, e, f, out);
  }
  float v;
  memcpy(&v, (const uint8_t *)values + 4 * i, 4);
  return alp_enc_f(v, e, f, out);
}

static unsigned alp_bits_for(uint64_t range) {
  unsigned b = 0;
  while (b < 64 && (range >> b) != 0) b++;
  return b;
}

/* Estimated bits for the values at idx[0..k) of `values` under (e, f). */
static uint64_t alp_estimate(const void *values, size_t w, const size_t *idx, size_t k, unsigned e, unsigned f) {
  int64_t mn = INT64_MAX, mx = INT64_MIN;
  size_t nexc = 0;
  for (size_t j = 0; j < k; j++) {
    int64_t x;
    if (!alp_enc(values, w, idx[j], e, f, &x)) {
      nexc++;
      continue;
    }
    if (x < mn) mn = x;
    if (x > mx) mx = x;
  }
  unsigned bw = nexc == k ? 0 : alp_bits_for((uint64_t)mx - (uint64_t)mn);
  return (uint64_t)(k - nexc) * bw + (uint64_t)nexc * (16 + 8 * w);
}

typedef struct alp_pair {
  unsigned e, f;
  uint64_t cost;
} alp_pair;

/* Pick up to ALP_CANDIDATES (e, f) pairs from a sample of the page. */
static size_t alp_choose_candidates(const void *values, size_t w, size_t n, alp_pair *best) {
  size_t idx[256], k = 0;
  size_t vs = (size_t)1 << ALP_LOG_VS, nvec = (n + vs - 1) / vs;
  size_t nsv = nvec < 8 ? nvec : 8;
  for (size_t s = 0; s < nsv; s++) {
    size_t v = s * nvec / nsv, base = v * vs, len = n - base < vs ? n - base : vs;
    size_t per = len < 32 ? len : 32;
    for (size_t j = 0; j < per; j++) idx[k++] = base + j * len / per;
  }
  unsigned max_e = w == 8 ? ALP_MAX_E_DOUBLE : ALP_MAX_E_FLOAT;
  size_t nb = 0;
  for (unsigned e = 0; e <= max_e; e++)
    for (unsigned f = 0; f <= e; f++) {
      alp_pair p = {e, f, alp_estimate(values, w, idx, k, e, f)};
      /* insertion into the sorted best list; ties keep the earlier (smaller) pair */
      size_t at = nb;
      while (at > 0 && best[at - 1].cost > p.cost) at--;
      if (at >= ALP_CANDIDATES) continue;
      size_t last = nb < ALP_CANDIDATES ? nb : ALP_CANDIDATES - 1;
      for (size_t q = last; q > at; q--) best[q] = best[q - 1];
      best[at] = p;
      if (nb < ALP_CANDIDATES) nb++;
    }
  return nb;
}

pqt_status pqt_alp_encode(const void *values, size_t w, size_t n, pqt_buf *out, pqt_error *err) {
  if (w != 4 && w != 8) return pqt_error_set(err, PQT_EINVAL, "ALP: width %zu", w);
  if (n > INT32_MAX) return pqt_error_set(err, PQT_EINVAL, "ALP: %zu values in one page", n);
  const size_t vs = (size_t)1 << ALP_LOG_VS, nvec = (n + vs - 1) / vs, hdr = w == 8 ? 13 : 9;
  size_t base = out->len;
  PQT_RETURN_NOT_OK(pqt_buf_reserve(out, ALP_HEADER + 4 * nvec, err));
  uint8_t *h = out->data + base;
  h[0] = 0;
  h[1] = 0;
  h[2] = ALP_LOG_VS;
  pqt_store_u32le(h + 3, (uint32_t)n);
  out->len += ALP_HEADER + 4 * nvec;
  alp_pair cand[ALP_CANDIDATES] = {{0}}; /* filled up to ncand; zeroed so no reader (nor cppcheck) sees garbage */
  size_t ncand = n ? alp_choose_candidates(values, w, n, cand) : 0;
  int64_t enc[1 << ALP_LOG_VS];
  uint64_t delta[1 << ALP_LOG_VS];
  uint16_t epos[1 << ALP_LOG_VS];
  for (size_t v = 0; v < nvec; v++) {
    size_t b0 = v * vs, len = n - b0 < vs ? n - b0 : vs;
    /* the candidate with the smallest estimate on a sample of this vector */
    alp_pair pick = cand[0];
    if (ncand > 1) {
      size_t idx[64], k = len < 64 ? len : 64;
      for (size_t j = 0; j < k; j++) idx[j] = b0 + j * len / k;
      uint64_t bestc = UINT64_MAX;
      for (size_t c = 0; c < ncand; c++) {
        uint64_t cost = alp_estimate(values, w, idx, k, cand[c].e, cand[c].f);
        if (cost < bestc) {
          bestc = cost;
          pick = cand[c];
        }
      }
    }
    size_t nexc = 0;
    bool have = false;
    int64_t first = 0, mn = 0, mx = 0;
    for (size_t j = 0; j < len; j++) {
      int64_t x;
      if (!alp_enc(values, w, b0 + j, pick.e, pick.f, &x)) {
        epos[nexc++] = (uint16_t)j;
        enc[j] = 0;
        continue;
      }
      enc[j] = x;
      if (!have) {
        have = true;
        first = mn = mx = x;
      }
      if (x < mn) mn = x;
      if (x > mx) mx = x;
    }
    for (size_t q = 0; q < nexc; q++) enc[epos[q]] = first; /* placeholder keeps the range tight */
    unsigned bw = alp_bits_for((uint64_t)mx - (uint64_t)mn);
    for (size_t j = 0; j < len; j++) delta[j] = (uint64_t)enc[j] - (uint64_t)mn;
    size_t packed = pqt_bitpack_bytes(len, bw);
    size_t vbytes = hdr + packed + nexc * (2 + w);
    PQT_RETURN_NOT_OK(pqt_buf_reserve(out, vbytes + 8, err));
    size_t off = out->len - base - ALP_HEADER;
    if (off > UINT32_MAX) return pqt_error_set(err, PQT_ELIMIT, "ALP: page larger than 4 GiB");
    pqt_store_u32le(out->data + base + ALP_HEADER + 4 * v, (uint32_t)off);
    uint8_t *p = out->data + out->len;
    p[0] = (uint8_t)pick.e;
    p[1] = (uint8_t)pick.f;
    p[2] = (uint8_t)(nexc & 0xff);
    p[3] = (uint8_t)(nexc >> 8);
    if (w == 8) {
      pqt_store_u64le(p + 4, (uint64_t)mn);
      p[12] = (uint8_t)bw;
    } else {
      pqt_store_u32le(p + 4, (uint32_t)mn);
      p[8] = (uint8_t)bw;
    }
    p += hdr;
    if (bw) pqt_bitpack64(delta, len, bw, p);
    p += packed;
    for (size_t q = 0; q < nexc; q++) {
      p[2 * q] = (uint8_t)(epos[q] & 0xff);
      p[2 * q + 1] = (uint8_t)(epos[q] >> 8);
    }
    p += 2 * nexc;
    for (size_t q = 0; q < nexc; q++) { /* the exact bits, little-endian */
      const uint8_t *src = (const uint8_t *)values + w * (b0 + epos[q]);
      if (w == 8) {
        uint64_t u;
        memcpy(&u, src, 8);
        pqt_store_u64le(p + 8 * q, u);
      } else {
        uint32_t u;
        memcpy(&u, src, 4);
        pqt_store_u32le(p + 4 * q, u);
      }
    }
    out->len += vbytes;
  }
  return PQT_OK;
}
