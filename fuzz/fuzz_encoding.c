/* libFuzzer target for the encoding kernels (src/encoding): byte 0 picks
 * the decoder (14 of them, the delta byte-array ones also in batches), byte 1 a bit width / value width, bytes 2-3 the
 * value count (at most 65535), the rest is the untrusted span. Decoders must never crash, read out of bounds or write
 * past the bounded outputs. Outputs are heap buffers of exactly the requested size so ASan sees any overrun. */
#include <stdlib.h>

#include "core/core.h"
#include "encoding/byte_stream_split.h"
#include "encoding/delta_binary_packed.h"
#include "encoding/delta_byte_array.h"
#include "encoding/delta_length_byte_array.h"
#include "encoding/dictionary.h"
#include "encoding/plain.h"
#include "encoding/rle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4) return 0;
  const unsigned mode = data[0] % 14;
  const unsigned param = data[1];
  const size_t n = (size_t)data[2] | (size_t)data[3] << 8;
  const uint8_t *in = data + 4;
  const size_t len = size - 4;
  /* exact-size copy of the span */
  uint8_t *span = malloc(len ? len : 1);
  if (len) memcpy(span, in, len);
  void *out = malloc(n * 16 + 1);
  int32_t *offsets = malloc((n + 1) * sizeof(int32_t));
  pqt_buf buf;
  pqt_buf_init(&buf, NULL);
  pqt_error err;
  pqt_error_init(&err);
  size_t used = 0;
  pqt_status st = PQT_OK;
  switch (mode) {
    case 0: { /* RLE hybrid to u32, in two batches */
      pqt_rle_decoder d;
      st = pqt_rle_decoder_init(&d, span, len, param % 34, &err);
      if (!st) st = pqt_rle_get_u32(&d, out, n / 2, &err);
      if (!st) st = pqt_rle_skip(&d, n / 4, &err);
      if (!st) st = pqt_rle_get_u32(&d, out, n - n / 2 - n / 4, &err);
      break;
    }
    case 1: { /* levels */
      pqt_rle_decoder d;
      st = pqt_rle_decoder_init(&d, span, len, param % 17, &err);
      if (!st) st = pqt_rle_get_levels(&d, out, n, (int16_t)(param * 3), &err);
      break;
    }
    case 2: { /* dictionary page, fixed width gather */
      static const uint8_t dict[16 * 40];
      size_t w = 1 + param % 16;
      pqt_rle_decoder d;
      st = pqt_rle_dict_page_init(&d, span, len, &err);
      if (!st) st = pqt_rle_get_dict_fixed(&d, dict, 40, w, out, n, &err);
      break;
    }
    case 3: { /* dictionary page, byte arrays */
      static const int32_t doff[6] = {0, 1, 3, 3, 7, 12};
      static const uint8_t ddata[12] = "abcdefghijk";
      pqt_rle_decoder d;
      st = pqt_rle_dict_page_init(&d, span, len, &err);
      if (!st) st = pqt_rle_get_dict_binary(&d, doff, ddata, 5, offsets, &buf, n, &err);
      break;
    }
    case 4: { /* booleans */
      pqt_rle_decoder d;
      size_t bit = param % 13;
      st = pqt_rle_decoder_init(&d, span, len, 1, &err);
      if (!st) st = pqt_rle_get_bool_bitmap(&d, out, bit, n, &err);
      if (!st) st = pqt_plain_decode_bool_bitmap(span, len, param, out, bit, n, &used, &err);
      if (!st) st = pqt_plain_decode_bool_bytes(span, len, param, out, n, &used, &err);
      break;
    }
    case 5: /* PLAIN fixed + byte array */
      st = pqt_plain_decode_fixed(span, len, 1 + param % 16, out, n, &used, &err);
      st = pqt_plain_decode_byte_array(span, len, offsets, &buf, n, &used, &err);
      break;
    case 6:
    case 7: { /* DELTA_BINARY_PACKED in batches */
      pqt_delta_bp_decoder d;
      bool is32 = mode == 6;
      st = pqt_delta_bp_init(&d, span, len, is32, &err);
      size_t done = 0, step = 1 + param;
      while (!st && done < n) {
        size_t k = n - done < step ? n - done : step;
        st = is32 ? pqt_delta_bp_get_i32(&d, (int32_t *)out + done, k, &err)
                  : pqt_delta_bp_get_i64(&d, (int64_t *)out + done, k, &err);
        done += k;
      }
      if (!st) st = pqt_delta_bp_finish(&d, &used, span, &err);
      if (!st && used > len) abort();
      break;
    }
    case 8:
      st = pqt_delta_length_decode(span, len, offsets, &buf, n, &used, &err);
      if (!st && used > len) abort();
      break;
    case 9: { /* DELTA_BYTE_ARRAY, two pages with carried state */
      pqt_delta_byte_array_state s;
      pqt_delta_byte_array_state_init(&s, NULL);
      size_t fw = param & 1 ? param % 9 : 0;
      size_t half = len / 2;
      st = pqt_delta_byte_array_decode(&s, span, half, fw, fw ? NULL : offsets, &buf, n / 2, &used, &err);
      if (!st)
        st = pqt_delta_byte_array_decode(&s, span + half, len - half, fw, fw ? NULL : offsets + n / 2, &buf, n - n / 2,
                                         &used, &err);
      pqt_delta_byte_array_state_free(&s);
      break;
    }
    case 10: st = pqt_bss_decode(span, len, 1 + param % 16, param % 7, n, out, &err); break;
    case 12: { /* DELTA_LENGTH_BYTE_ARRAY in batches of 1 + param % 64 */
      pqt_delta_length_decoder d;
      st = pqt_delta_length_init(&d, span, len, &err);
      size_t done = 0, step = 1 + param % 64;
      while (!st && done < n) {
        size_t k = n - done < step ? n - done : step;
        st = pqt_delta_length_next(&d, offsets + done, &buf, k, &err);
        done += k;
      }
      if (!st && pqt_delta_length_consumed(&d) > len) abort();
      break;
    }
    case 13: { /* DELTA_BYTE_ARRAY in batches, the state carried */
      pqt_delta_byte_array_state s;
      pqt_delta_byte_array_state_init(&s, NULL);
      pqt_delta_byte_array_decoder d;
      size_t fw = param & 0x80 ? (param & 7) + 1 : 0;
      st = pqt_delta_byte_array_init(&d, span, len, fw, &err);
      size_t done = 0, step = 1 + param % 64;
      while (!st && done < n) {
        size_t k = n - done < step ? n - done : step;
        st = pqt_delta_byte_array_next(&d, &s, fw ? NULL : offsets + done, &buf, k, &err);
        done += k;
      }
      if (!st && pqt_delta_byte_array_consumed(&d) > len) abort();
      pqt_delta_byte_array_state_free(&s);
      if (!fw) { /* the lengths alone (as views read them), values rebuilt: same verdict, same bytes */
        pqt_delta_byte_array_decoder d2;
        pqt_buf last, all;
        pqt_buf_init(&last, NULL);
        pqt_buf_init(&all, NULL);
        int32_t *pl = malloc(step * sizeof *pl), *sl = malloc(step * sizeof *sl);
        pqt_error err2;
        pqt_error_init(&err2);
        pqt_status st2 = pqt_delta_byte_array_init(&d2, span, len, 0, &err2);
        size_t prev = 0;
        for (size_t at = 0; !st2 && at < n;) {
          size_t k = n - at < step ? n - at : step;
          const uint8_t *suf = NULL;
          st2 = pqt_delta_byte_array_lengths(&d2, pl, sl, k, &prev, &suf, &err2);
          for (size_t i = 0; !st2 && i < k; i++) {
            last.len = (size_t)pl[i];
            st2 = pqt_buf_append(&last, suf, (size_t)sl[i], &err2);
            if (!st2) st2 = pqt_buf_append(&all, last.data, last.len, &err2);
            suf += sl[i];
          }
          at += k;
        }
        if ((st == PQT_OK) != (st2 == PQT_OK)) abort();
        if (!st && (all.len != buf.len || (all.len && memcmp(all.data, buf.data, all.len) != 0))) abort();
        if (st2 && st2 != PQT_ECORRUPT && st2 != PQT_ENOMEM) abort();
        free(pl);
        free(sl);
        pqt_buf_free(&last);
        pqt_buf_free(&all);
      }
      break;
    }
    case 11: { /* legacy BIT_PACKED levels */
      st = pqt_levels_decode_bit_packed(span, len, param % 17, out, n, (int16_t)param, &used, &err);
      break;
    }
  }
  if (st != PQT_OK && st != PQT_ECORRUPT) abort(); /* only "corrupt" is a valid failure */
  if (st == PQT_ECORRUPT && err.message[0] == 0) abort();
  pqt_buf_free(&buf);
  free(offsets);
  free(out);
  free(span);
  return 0;
}
