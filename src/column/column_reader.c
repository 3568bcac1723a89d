/*
 * column/column_reader.c: see column_reader.h. Spec sections: "Data Pages"
 * (levels then values), "Dictionary Pages" (PLAIN dictionary page, data
 * pages RLE_DICTIONARY / legacy PLAIN_DICTIONARY with a one-byte bit width),
 * "Encodings" (which the value decoders in encoding/ implement), "Nested
 * Encoding" (levels), and DELTA_BYTE_ARRAY's prefix state which carries
 * across the pages of a chunk.
 */
#include "column/column_reader.h"

#include "core/utf8.h"

#include "encoding/byte_stream_split.h"
#include "encoding/delta_binary_packed.h"
#include "encoding/delta_length_byte_array.h"
#include "encoding/plain.h"
#include "encoding/rle.h"
#include "levels/levels.h"

void pqt_column_data_init(pqt_column_data *cd, const pqt_allocator *alloc) {
  memset(cd, 0, sizeof *cd);
  pqt_buf_init(&cd->def, alloc);
  pqt_buf_init(&cd->rep, alloc);
  pqt_buf_init(&cd->values, alloc);
  pqt_buf_init(&cd->offsets, alloc);
}

void pqt_column_data_free(pqt_column_data *cd) {
  pqt_buf_free(&cd->def);
  pqt_buf_free(&cd->rep);
  pqt_buf_free(&cd->values);
  pqt_buf_free(&cd->offsets);
}

size_t pqt_physical_width(int32_t t, int32_t type_length) {
  switch (t) {
    case PQT_INT32: case PQT_FLOAT: return 4;
    case PQT_INT64: case PQT_DOUBLE: return 8;
    case PQT_INT96: return 12;
    case PQT_FIXED_LEN_BYTE_ARRAY: return type_length > 0 ? (size_t)type_length : 0;
    default: return 0;
  }
}

typedef struct chunk_state {
  const pqt_column_desc *desc;
  const pqt_allocator *alloc;
  size_t width;
  /* dictionary */
  bool has_dict;
  int64_t dict_n;
  pqt_buf dict_values;   /* fixed width entries, or byte-array bytes */
  pqt_buf dict_offsets;  /* byte arrays: int32[dict_n + 1] */
  int32_t dict_fixed_len; /* byte arrays: the length of every entry when all are equal (> 0), else -1 */
  pqt_buf indices;       /* scratch: uint32 dictionary indices */
  pqt_delta_byte_array_state dba;
  int16_t prev_def;      /* last def level of the previous page (-1 at the start) */
} chunk_state;

static int bit_width_for(int16_t max_level) {
  int bw = 0;
  while ((1 << bw) <= max_level) bw++;
  return bw;
}

/* Decode one level section into out[0..n) and count the levels equal to
 * count_level (free on RLE runs). */
static pqt_status decode_levels(int32_t encoding, const uint8_t *p, size_t len, int16_t max_level, int16_t *out,
                                size_t n, int16_t count_level, size_t *count, const char *what, pqt_error *err) {
  unsigned bw = (unsigned)bit_width_for(max_level);
  pqt_status st;
  if (encoding == PQT_ENC_RLE) {
    st = pqt_levels_decode_rle_count(p, len, bw, out, n, max_level, count_level, count, err);
  } else if (encoding == PQT_ENC_BIT_PACKED) {
    st = pqt_levels_decode_bit_packed(p, len, bw, out, n, max_level, NULL, err);
    if (st == PQT_OK) {
      size_t c = 0;
      for (size_t i = 0; i < n; i++) c += out[i] == count_level;
      *count = c;
    }
  } else {
    st = pqt_error_set(err, PQT_EUNSUPPORTED, "level encoding %d", encoding);
  }
  if (st != PQT_OK) pqt_error_prefix(err, "%s levels", what);
  return st;
}

static pqt_status read_dictionary(chunk_state *cs, const pqt_page *pg, pqt_error *err) {
  PQT_CHECK_CORRUPT(!cs->has_dict, err, "a second dictionary page in one column chunk");
  PQT_CHECK_CORRUPT(pg->encoding == PQT_ENC_PLAIN || pg->encoding == PQT_ENC_PLAIN_DICTIONARY, err,
                    "dictionary page encoding %d is not PLAIN", pg->encoding);
  int32_t t = cs->desc->physical_type;
  size_t n = (size_t)pg->num_values, used = 0;
  if (t == PQT_BYTE_ARRAY) {
    /* each entry needs at least its 4-byte length */
    PQT_CHECK_CORRUPT(n <= pg->values_len / 4, err, "dictionary claims %zu entries in %zu bytes", n, pg->values_len);
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cs->dict_offsets, (n + 1) * sizeof(int32_t), err));
    PQT_RETURN_NOT_OK(pqt_plain_decode_byte_array(pg->values, pg->values_len, (int32_t *)cs->dict_offsets.data,
                                                  &cs->dict_values, n, &used, err));
    cs->dict_offsets.len = (n + 1) * sizeof(int32_t);
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cs->dict_values, 16, err)); /* slack for gather_byte_array */
    /* entries all of one length: a fixed-width dictionary (entry k at k * len) */
    const int32_t *doff = (const int32_t *)(const void *)cs->dict_offsets.data;
    int32_t l0 = n > 0 && doff[0] == 0 ? doff[1] : -1;
    for (size_t k = 1; k < n && l0 > 0; k++)
      if (doff[k + 1] - doff[k] != l0) l0 = -1;
    cs->dict_fixed_len = l0 > 0 ? l0 : -1;
    if (cs->desc->validate_utf8)
      PQT_RETURN_NOT_OK(pqt_utf8_validate_values(cs->dict_values.data, (const int32_t *)(const void *)cs->dict_offsets.data,
                                                 (int64_t)n, err));
  } else if (t == PQT_BOOLEAN) {
    return pqt_error_set(err, PQT_EUNSUPPORTED, "dictionary encoding of BOOLEAN columns");
  } else {
    size_t w = cs->width;
    PQT_CHECK_CORRUPT(w > 0, err, "fixed-width column without a width");
    PQT_CHECK_CORRUPT(n <= pg->values_len / w, err, "dictionary claims %zu entries in %zu bytes", n, pg->values_len);
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cs->dict_values, n * w + 16, err));
    PQT_RETURN_NOT_OK(pqt_plain_decode_fixed(pg->values, pg->values_len, w, cs->dict_values.data, n, &used, err));
    cs->dict_values.len = n * w;
  }
  cs->dict_n = (int64_t)n;
  cs->has_dict = true;
  return PQT_OK;
}

/* Gather n byte-array dictionary entries by index into the output. */
static pqt_status gather_byte_array(chunk_state *cs, const uint32_t *idx, size_t n, pqt_column_data *cd,
                                    pqt_error *err) {
  const int32_t *doff = (const int32_t *)cs->dict_offsets.data;
  const uint8_t *dval = cs->dict_values.data;
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t k = idx[i];
    if (PQT_UNLIKELY(k >= (uint64_t)cs->dict_n))
      return pqt_corrupt(err, "dictionary index %u out of range (dictionary has %lld entries)", k,
                         (long long)cs->dict_n);
    total += (uint64_t)(doff[k + 1] - doff[k]);
  }
  PQT_CHECK_CORRUPT(total + cd->values.len <= INT32_MAX, err, "more than 2 GiB of BYTE_ARRAY data in one chunk");
  /* +16: entries of up to 16 bytes are copied as 16 (the dictionary keeps
   * 16 bytes of slack too, see read_dictionary) */
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->values, (size_t)total + 16, err));
  int32_t *off = (int32_t *)cd->offsets.data + cd->n_values;
  uint8_t *o = cd->values.data + cd->values.len;
  int32_t cur = off[0];
  if (dval) {
    for (size_t i = 0; i < n; i++) {
      uint32_t k = idx[i];
      int32_t l = doff[k + 1] - doff[k];
      if (l <= 16) memcpy(o, dval + doff[k], 16);
      else memcpy(o, dval + doff[k], (size_t)l);
      o += l;
      cur += l;
      off[i + 1] = cur;
    }
  } else { /* no dictionary bytes: every entry is empty */
    for (size_t i = 0; i < n; i++) off[i + 1] = cur;
  }
  cd->values.len += (size_t)total;
  return PQT_OK;
}

/* Decode n dense values of one data page and append them. */
static pqt_status decode_values(chunk_state *cs, const pqt_page *pg, size_t n, pqt_column_data *cd, pqt_error *err) {
  const pqt_column_desc *desc = cs->desc;
  int32_t t = desc->physical_type;
  size_t w = cs->width;
  const uint8_t *in = pg->values;
  size_t len = pg->values_len, used = 0;
  int32_t enc = pg->encoding;

  if (t == PQT_BYTE_ARRAY) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->offsets, (n + 1) * sizeof(int32_t), err));
    int32_t *off = (int32_t *)cd->offsets.data + cd->n_values;
    switch (enc) {
      case PQT_ENC_PLAIN:
        PQT_CHECK_CORRUPT(n <= len / 4, err, "PLAIN BYTE_ARRAY: %zu values cannot fit in %zu bytes", n, len);
        return pqt_plain_decode_byte_array(in, len, off, &cd->values, n, &used, err);
      case PQT_ENC_DELTA_LENGTH_BYTE_ARRAY:
        return pqt_delta_length_decode(in, len, off, &cd->values, n, &used, err);
      case PQT_ENC_DELTA_BYTE_ARRAY:
        return pqt_delta_byte_array_decode(&cs->dba, in, len, 0, off, &cd->values, n, &used, err);
      case PQT_ENC_RLE_DICTIONARY:
      case PQT_ENC_PLAIN_DICTIONARY: {
        PQT_CHECK_CORRUPT(cs->has_dict, err, "dictionary-encoded page but no dictionary page");
        pqt_rle_decoder d;
        PQT_RETURN_NOT_OK(pqt_rle_dict_page_init(&d, in, len, err));
        int32_t fl = cs->dict_fixed_len;
        if (fl == 1 || fl == 2 || fl == 4 || fl == 8 || fl == 12 || fl == 16) {
          /* every entry has fl bytes: gather them as fixed-width values (the
           * RLE runs become fills, bit-packed ones fused gathers) and the
           * offsets step by fl */
          uint64_t total = (uint64_t)n * (uint64_t)fl;
          PQT_CHECK_CORRUPT(total + cd->values.len <= INT32_MAX, err,
                            "more than 2 GiB of BYTE_ARRAY data in one chunk");
          PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->values, (size_t)total + 16, err));
          PQT_RETURN_NOT_OK(pqt_rle_get_dict_fixed(&d, cs->dict_values.data, (size_t)cs->dict_n, (size_t)fl,
                                                   cd->values.data + cd->values.len, n, err));
          int32_t cur = off[0];
          for (size_t i = 0; i < n; i++) off[i + 1] = cur + (int32_t)(i + 1) * fl;
          cd->values.len += (size_t)total;
          return PQT_OK;
        }
        PQT_RETURN_NOT_OK(pqt_buf_reserve(&cs->indices, n * sizeof(uint32_t), err));
        uint32_t *idx = (uint32_t *)cs->indices.data;
        PQT_RETURN_NOT_OK(pqt_rle_get_u32(&d, idx, n, err));
        return gather_byte_array(cs, idx, n, cd, err);
      }
      default:
        return pqt_error_set(err, PQT_EUNSUPPORTED, "encoding %d for BYTE_ARRAY", enc);
    }
  }

  if (t == PQT_BOOLEAN) {
    size_t nbits = (size_t)cd->n_values + n;
    size_t old = cd->values.len, need = (nbits + 7) / 8 + 8;
    if (need > old) {
      PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->values, need - old, err));
      memset(cd->values.data + old, 0, need - old);
      cd->values.len = (nbits + 7) / 8;
    }
    if (enc == PQT_ENC_PLAIN)
      return pqt_plain_decode_bool_bitmap(in, len, 0, cd->values.data, (size_t)cd->n_values, n, &used, err);
    if (enc == PQT_ENC_RLE) {
      /* RLE booleans carry a 4-byte length prefix (spec: "RLE ... for BOOLEAN values in data pages") */
      PQT_CHECK_CORRUPT(len >= 4, err, "RLE BOOLEAN page: missing the 4-byte length");
      uint32_t l = pqt_load_u32le(in);
      PQT_CHECK_CORRUPT(l <= len - 4, err, "RLE BOOLEAN page: length %u exceeds the page", l);
      pqt_rle_decoder d;
      PQT_RETURN_NOT_OK(pqt_rle_decoder_init(&d, in + 4, l, 1, err));
      return pqt_rle_get_bool_bitmap(&d, cd->values.data, (size_t)cd->n_values, n, err);
    }
    return pqt_error_set(err, PQT_EUNSUPPORTED, "encoding %d for BOOLEAN", enc);
  }

  /* fixed width: INT32, INT64, INT96, FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY */
  PQT_CHECK_CORRUPT(w > 0, err, "fixed-width column without a width");
  size_t bytes;
  if (!pqt_mul_size(n, w, &bytes)) return pqt_corrupt(err, "value count overflow");
  /* a page decompressed in place (values_dst) lies inside the value buffer */
  ptrdiff_t in_place = (cd->values.data && in >= cd->values.data && in < cd->values.data + cd->values.cap)
                           ? in - cd->values.data
                           : -1;
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->values, bytes + 16, err));
  if (in_place >= 0) in = cd->values.data + in_place;
  uint8_t *out = cd->values.data + cd->values.len;
  pqt_status st;
  switch (enc) {
    case PQT_ENC_PLAIN:
      if (in_place >= 0) {
        /* decompressed in place (values_dst): the values follow the page's levels */
        PQT_CHECK_CORRUPT(n <= len / w, err, "PLAIN: %zu values of %zu bytes exceed the %zu bytes left", n, w, len);
        if (cd->values.len == 0 && cd->n_values == 0 && in > out && (size_t)(in - out) % 8 == 0) {
          cd->values_start = (size_t)(in - out); /* first page: keep the (aligned) values where they are */
        } else if (in != out) {
          memmove(out, in, bytes);
        }
        st = PQT_OK;
      } else {
        st = pqt_plain_decode_fixed(in, len, w, out, n, &used, err);
      }
      break;
    case PQT_ENC_RLE_DICTIONARY:
    case PQT_ENC_PLAIN_DICTIONARY: {
      PQT_CHECK_CORRUPT(cs->has_dict, err, "dictionary-encoded page but no dictionary page");
      pqt_rle_decoder d;
      PQT_RETURN_NOT_OK(pqt_rle_dict_page_init(&d, in, len, err));
      st = pqt_rle_get_dict_fixed(&d, cs->dict_values.data, (size_t)cs->dict_n, w, out, n, err);
      break;
    }
    case PQT_ENC_DELTA_BINARY_PACKED:
      if (t == PQT_INT32) st = pqt_delta_bp_decode_i32(in, len, (int32_t *)(void *)out, n, &used, err);
      else if (t == PQT_INT64) st = pqt_delta_bp_decode_i64(in, len, (int64_t *)(void *)out, n, &used, err);
      else st = pqt_error_set(err, PQT_EUNSUPPORTED, "DELTA_BINARY_PACKED for physical type %d", t);
      break;
    case PQT_ENC_BYTE_STREAM_SPLIT:
      st = pqt_bss_decode(in, len, w, 0, n, out, err);
      break;
    case PQT_ENC_DELTA_BYTE_ARRAY:
    case PQT_ENC_DELTA_LENGTH_BYTE_ARRAY: {
      if (t != PQT_FIXED_LEN_BYTE_ARRAY)
        return pqt_error_set(err, PQT_EUNSUPPORTED, "encoding %d for physical type %d", enc, t);
      /* decode as byte arrays into scratch, then check every length is w */
      pqt_buf tmp_off, tmp_data;
      pqt_buf_init(&tmp_off, cs->alloc);
      pqt_buf_init(&tmp_data, cs->alloc);
      st = pqt_buf_reserve(&tmp_off, (n + 1) * sizeof(int32_t), err);
      if (st == PQT_OK) {
        if (enc == PQT_ENC_DELTA_BYTE_ARRAY)
          st = pqt_delta_byte_array_decode(&cs->dba, in, len, w, (int32_t *)tmp_off.data, &tmp_data, n, &used, err);
        else
          st = pqt_delta_length_decode(in, len, (int32_t *)tmp_off.data, &tmp_data, n, &used, err);
      }
      if (st == PQT_OK && tmp_data.len != bytes)
        st = pqt_corrupt(err, "FIXED_LEN_BYTE_ARRAY(%zu): values of the wrong length", w);
      if (st == PQT_OK) {
        const int32_t *o = (const int32_t *)tmp_off.data;
        for (size_t i = 0; i < n && st == PQT_OK; i++)
          if ((size_t)(o[i + 1] - o[i]) != w) st = pqt_corrupt(err, "FIXED_LEN_BYTE_ARRAY(%zu): value %zu has length %d", w, i, o[i + 1] - o[i]);
        if (st == PQT_OK && bytes) memcpy(out, tmp_data.data, bytes);
      }
      pqt_buf_free(&tmp_off);
      pqt_buf_free(&tmp_data);
      break;
    }
    default:
      return pqt_error_set(err, PQT_EUNSUPPORTED, "encoding %d for physical type %d", enc, t);
  }
  if (st == PQT_OK) cd->values.len += bytes + (cd->values.len == 0 ? cd->values_start : 0);
  return st;
}

/* Materialise max_def levels up to entry `upto` (see read_data_page). */
static pqt_status fill_def_gap(pqt_column_data *cd, int16_t max_def, size_t upto, pqt_error *err) {
  size_t have = cd->def.len / 2;
  if (have >= upto) return PQT_OK;
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->def, (upto - have) * 2, err));
  int16_t *d = (int16_t *)(void *)(cd->def.data + cd->def.len);
  for (size_t i = 0; i < upto - have; i++) d[i] = max_def;
  cd->def.len = upto * 2;
  return PQT_OK;
}

/* Is an RLE level stream one run of `value` covering at least n entries?
 * (The common case of a column without nulls on a page.) */
static bool levels_one_run(int32_t encoding, const uint8_t *p, size_t len, int16_t value, int16_t max_level, size_t n) {
  if (encoding != PQT_ENC_RLE) return false;
  uint64_t h = 0;
  size_t i = 0;
  for (int shift = 0; i < len && shift < 35; shift += 7) {
    uint8_t b = p[i++];
    h |= (uint64_t)(b & 0x7F) << shift;
    if (!(b & 0x80)) break;
    if (i == len) return false;
  }
  if ((h & 1) || (h >> 1) < n) return false;
  unsigned nb = ((unsigned)bit_width_for(max_level) + 7) / 8;
  if (len - i < nb) return false;
  uint32_t v = 0;
  for (unsigned k = 0; k < nb; k++) v |= (uint32_t)p[i + k] << (8 * k);
  return v == (uint32_t)value;
}

/* values_dst for the page reader: PLAIN fixed-width pages decompress
 * straight into the column's value buffer, after the values so far. */
typedef struct dst_ctx {
  chunk_state *cs;
  pqt_column_data *cd;
} dst_ctx;

static uint8_t *values_dst(void *ctx, int32_t encoding, int32_t num_values, size_t n) {
  dst_ctx *d = ctx;
  if (encoding != PQT_ENC_PLAIN || d->cs->width == 0) return NULL;
  /* The first page's values are kept where they land, after the page's
   * levels: start the page so that they land 8-byte aligned, guessing the
   * levels' size as one RLE run (a page without nulls); a wrong guess costs
   * one move (see decode_values). */
  size_t pad = 0;
  const pqt_column_desc *desc = d->cs->desc;
  if (d->cd->values.len == 0 && desc->max_def > 0 && desc->max_rep == 0 && num_values > 0) {
    size_t guess = 4 + (size_t)((bit_width_for(desc->max_def) + 7) / 8), v = (size_t)num_values << 1;
    do {
      guess++;
      v >>= 7;
    } while (v);
    pad = (8 - guess % 8) % 8;
  }
  if (pqt_buf_reserve(&d->cd->values, n + pad + 16, NULL) != PQT_OK) return NULL;
  return d->cd->values.data + d->cd->values.len + pad;
}

static pqt_status read_data_page(chunk_state *cs, const pqt_page *pg, const pqt_column_read_options *opts,
                                 pqt_column_data *cd, pqt_error *err) {
  const pqt_column_desc *desc = cs->desc;
  size_t n = (size_t)pg->num_values;
  if ((uint64_t)cd->n_levels + n > opts->max_values)
    return pqt_error_set(err, PQT_ELIMIT, "column chunk holds more than %llu values",
                         (unsigned long long)opts->max_values);
  if (opts->expected_values >= 0 && (uint64_t)cd->n_levels + n > (uint64_t)opts->expected_values)
    return pqt_corrupt(err, "pages hold more values (%llu) than the column chunk's num_values (%lld)",
                       (unsigned long long)((uint64_t)cd->n_levels + n), (long long)opts->expected_values);
  if (desc->max_rep == 0 && opts->expected_rows >= 0 && cd->n_levels + (int64_t)n > opts->expected_rows)
    return pqt_corrupt(err, "pages hold more values (%lld) than the row group has rows (%lld)",
                       (long long)(cd->n_levels + (int64_t)n), (long long)opts->expected_rows);
  size_t n_nonnull = n;
  int64_t page_rows = (int64_t)n;
  /* n == 0 (an empty page): no levels, and the level buffers may still be
   * NULL, so no pointer arithmetic on them */
  if (desc->max_rep > 0 && n > 0) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->rep, n * 2, err));
    int16_t *rep = (int16_t *)(void *)(cd->rep.data + cd->rep.len);
    size_t rows = 0;
    PQT_RETURN_NOT_OK(
        decode_levels(pg->rep_encoding, pg->rep, pg->rep_len, desc->max_rep, rep, n, 0, &rows, "repetition", err));
    page_rows = (int64_t)rows;
    if (pg->type == PQT_PAGE_DATA_V2 && n > 0 && rep[0] != 0)
      return pqt_corrupt(err, "v2 data page does not start at a row boundary (repetition level %d)", rep[0]);
    cd->rep.len += n * 2;
  }
  if (pg->type == PQT_PAGE_DATA_V2 && pg->num_rows != page_rows)
    return pqt_corrupt(err, "v2 data page says %d rows, its levels hold %lld", pg->num_rows, (long long)page_rows);
  cd->n_rows += page_rows;
  if (desc->max_def > 0 && desc->max_rep == 0 &&
      levels_one_run(pg->def_encoding, pg->def, pg->def_len, desc->max_def, desc->max_def, n)) {
    /* No nulls on this page: its definition levels are not materialised.
     * Entries past def.len / 2 are max_def until a page with nulls comes
     * (then the gap is filled) or the chunk ends (see pqt_column_read_chunk). */
  } else if (desc->max_def > 0 && n > 0) {
    PQT_RETURN_NOT_OK(fill_def_gap(cd, desc->max_def, (size_t)cd->n_levels, err));
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->def, n * 2, err));
    int16_t *def = (int16_t *)(void *)(cd->def.data + cd->def.len);
    PQT_RETURN_NOT_OK(decode_levels(pg->def_encoding, pg->def, pg->def_len, desc->max_def, def, n, desc->max_def,
                                    &n_nonnull, "definition", err));
    cd->def.len += n * 2;
  }
  if (desc->max_rep > 0 && n > 0) {
    /* every rep level must continue a list that is open (see levels.h) */
    const int16_t *def = desc->max_def > 0 ? (const int16_t *)(const void *)(cd->def.data + cd->def.len - n * 2) : NULL;
    const int16_t *rep = (const int16_t *)(const void *)(cd->rep.data + cd->rep.len - n * 2);
    PQT_RETURN_NOT_OK(pqt_levels_validate(def, rep, (int64_t)n, desc->max_def, desc->max_rep, desc->repeated_def,
                                          &cs->prev_def, err));
  }
  /* A v2 header's num_nulls is advisory (parquet-java < 1.18 writes -1):
   * the definition levels are authoritative. */
  if (desc->physical_type == PQT_BYTE_ARRAY && cd->offsets.len == 0) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->offsets, sizeof(int32_t), err));
    ((int32_t *)cd->offsets.data)[0] = 0;
    cd->offsets.len = sizeof(int32_t);
  }
  PQT_RETURN_NOT_OK(decode_values(cs, pg, n_nonnull, cd, err));
  /* Dictionary pages were validated once when read: gathered values need no second look. */
  bool from_dict = pg->encoding == PQT_ENC_RLE_DICTIONARY || pg->encoding == PQT_ENC_PLAIN_DICTIONARY;
  if (desc->validate_utf8 && desc->physical_type == PQT_BYTE_ARRAY && !from_dict)
    PQT_RETURN_NOT_OK(pqt_utf8_validate_values(cd->values.data, (const int32_t *)(const void *)cd->offsets.data +
                                                                    cd->n_values,
                                               (int64_t)n_nonnull, err));
  cd->n_values += (int64_t)n_nonnull;
  if (desc->physical_type == PQT_BYTE_ARRAY) cd->offsets.len = ((size_t)cd->n_values + 1) * sizeof(int32_t);
  cd->n_levels += (int64_t)n;
  cd->n_pages++;
  if (cd->page_ends) {
    pqt_page_end pe = {cd->n_levels, cd->n_values};
    PQT_RETURN_NOT_OK(pqt_buf_append(cd->page_ends, &pe, sizeof pe, err));
  }
  return PQT_OK;
}

pqt_status pqt_column_read_chunk(const pqt_io *io, uint64_t offset, uint64_t len, int32_t codec,
                                 const pqt_column_desc *desc, pqt_codec_ctx *codec_ctx,
                                 const pqt_column_read_options *opts, const pqt_allocator *alloc,
                                 pqt_column_data *cd, pqt_error *err) {
  alloc = pqt_alloc_or_default(alloc);
  if (!pqt_codec_is_available(codec))
    return pqt_error_set(err, PQT_EUNSUPPORTED, "compression codec %s (%d) is not available",
                         pqt_codec_name(codec), codec);
  if (desc->physical_type < PQT_BOOLEAN || desc->physical_type > PQT_FIXED_LEN_BYTE_ARRAY)
    return pqt_corrupt(err, "unknown physical type %d", desc->physical_type);
  chunk_state cs;
  memset(&cs, 0, sizeof cs);
  cs.desc = desc;
  cs.alloc = alloc;
  cs.width = pqt_physical_width(desc->physical_type, desc->type_length);
  cs.prev_def = -1;
  cs.dict_fixed_len = -1;
  if (desc->physical_type == PQT_FIXED_LEN_BYTE_ARRAY && cs.width == 0)
    return pqt_corrupt(err, "FIXED_LEN_BYTE_ARRAY column without a positive type_length");
  pqt_buf_init(&cs.dict_values, alloc);
  pqt_buf_init(&cs.dict_offsets, alloc);
  pqt_buf_init(&cs.indices, alloc);
  pqt_delta_byte_array_state_init(&cs.dba, alloc);

  pqt_page_reader pr;
  pqt_page_reader_options popts = opts->page;
  popts.max_def = desc->max_def;
  popts.max_rep = desc->max_rep;
  dst_ctx dctx = {&cs, cd};
  if (cs.width > 0 && desc->physical_type != PQT_BOOLEAN && !popts.decryptor) {
    popts.values_dst = values_dst;
    popts.values_dst_ctx = &dctx;
  }
  pqt_status st = pqt_page_reader_init(&pr, io, offset, len, codec, codec_ctx, &popts, alloc, err);
  int32_t page_index = -1;
  bool recover = opts->null_corrupt_pages && desc->max_rep == 0 && desc->max_def > 0;
  while (st == PQT_OK) {
    pqt_page pg;
    bool eof;
    size_t pos_before = pr.pos;
    pqt_column_data snap = *cd; /* lengths and counts to roll back to */
    st = pqt_page_reader_next(&pr, &pg, &eof, err);
    page_index = pr.current;
    if (st == PQT_OK && eof) break;
    if (st == PQT_OK) {
      if (pg.type == PQT_PAGE_DICTIONARY) st = read_dictionary(&cs, &pg, err);
      else st = read_data_page(&cs, &pg, opts, cd, err);
    }
    if (st == PQT_OK || !recover || (st != PQT_ECORRUPT && st != PQT_EUNSUPPORTED && st != PQT_ELIMIT)) continue;
    /* the page is lost, the chunk is not: its entries become nulls */
    const pqt_page_header *h = &pr.header;
    bool header_ok = pr.pos > pos_before;
    int64_t entries;
    if (header_ok && h->type == PQT_PAGE_DATA && h->data_page_header.num_values >= 0)
      entries = h->data_page_header.num_values;
    else if (header_ok && h->type == PQT_PAGE_DATA_V2 && h->data_page_header_v2.num_values >= 0)
      entries = h->data_page_header_v2.num_values;
    else if (header_ok && h->type != PQT_PAGE_DATA && h->type != PQT_PAGE_DATA_V2)
      entries = 0; /* a dictionary page: its data pages fail and are lost one by one */
    else
      entries = opts->expected_rows - snap.n_levels; /* no way to the next page: the rest of the chunk */
    if (entries < 0 || snap.n_levels + entries > opts->expected_rows) entries = opts->expected_rows - snap.n_levels;
    cd->n_levels = snap.n_levels;
    cd->n_values = snap.n_values;
    cd->n_rows = snap.n_rows;
    cd->def.len = snap.def.len <= cd->def.cap ? snap.def.len : cd->def.len;
    cd->values.len = snap.values.len;
    cd->values_start = snap.values_start;
    cd->offsets.len = snap.offsets.len;
    if (opts->on_page_lost) {
      if (err) err->page = page_index;
      opts->on_page_lost(opts->on_page_lost_ctx, page_index, entries, err);
    }
    st = fill_def_gap(cd, desc->max_def, (size_t)cd->n_levels, err);
    if (st == PQT_OK && entries > 0) {
      st = pqt_buf_reserve(&cd->def, (size_t)entries * 2, err);
      if (st == PQT_OK) {
        memset(cd->def.data + cd->def.len, 0, (size_t)entries * 2); /* def 0: null */
        cd->def.len += (size_t)entries * 2;
        cd->n_levels += entries;
        cd->n_rows += entries;
      }
    }
    if (st == PQT_OK && !header_ok) break;
  }
  /* levels of trailing pages without nulls, when an earlier page had some */
  if (st == PQT_OK && desc->max_def > 0 && cd->def.len > 0)
    st = fill_def_gap(cd, desc->max_def, (size_t)cd->n_levels, err);
  if (st == PQT_OK && desc->max_rep == 0 && opts->expected_rows >= 0 && cd->n_levels != opts->expected_rows)
    st = pqt_corrupt(err, "column chunk holds %lld values but the row group has %lld rows", (long long)cd->n_levels,
                     (long long)opts->expected_rows);
  else if (st == PQT_OK && desc->max_rep > 0 && opts->expected_rows >= 0 && cd->n_rows != opts->expected_rows)
    st = pqt_corrupt(err, "column chunk holds %lld records but the row group has %lld rows", (long long)cd->n_rows,
                     (long long)opts->expected_rows);
  else if (st != PQT_OK) {
    if (err) err->page = page_index;
    pqt_error_prefix(err, "page %d", page_index);
  }
  pqt_page_reader_free(&pr);
  pqt_buf_free(&cs.dict_values);
  pqt_buf_free(&cs.dict_offsets);
  pqt_buf_free(&cs.indices);
  pqt_delta_byte_array_state_free(&cs.dba);
  return st;
}
