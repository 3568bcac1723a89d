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
#include "core/varint.h"

#include "encoding/alp.h"
#include "encoding/byte_stream_split.h"
#include "encoding/delta_binary_packed.h"
#include "encoding/delta_length_byte_array.h"
#include "encoding/plain.h"
#include "encoding/rle.h"
#include "levels/levels.h"
#include "thrift/parquet_desc.h"

void pqt_column_data_init(pqt_column_data *cd, const pqt_allocator *alloc) {
  memset(cd, 0, sizeof *cd);
  pqt_buf_init(&cd->def, alloc);
  pqt_buf_init(&cd->rep, alloc);
  pqt_buf_init(&cd->values, alloc);
  pqt_buf_init(&cd->offsets, alloc);
  pqt_buf_init(&cd->dict_values, alloc);
  pqt_buf_init(&cd->dict_offsets, alloc);
  pqt_buf_init(&cd->views, alloc);
  pqt_buf_init(&cd->view_bufs, alloc);
  cd->dict_page_at = -1;
}

void pqt_column_data_free(pqt_column_data *cd) {
  pqt_buf_free(&cd->def);
  pqt_buf_free(&cd->rep);
  pqt_buf_free(&cd->values);
  pqt_buf_free(&cd->offsets);
  pqt_buf_free(&cd->dict_values);
  pqt_buf_free(&cd->dict_offsets);
  pqt_buf_free(&cd->views);
  pqt_shared_buf **vb = (pqt_shared_buf **)(void *)cd->view_bufs.data;
  for (size_t i = 0; i < cd->view_bufs.len / sizeof *vb; i++) pqt_shared_unref(vb[i]);  // NOLINT(bugprone-sizeof-expression): an array of pointers
  pqt_buf_free(&cd->view_bufs);
}

size_t pqt_physical_width(int32_t t, int32_t type_length) {
  switch (t) {
    case PQT_INT32:
    case PQT_FLOAT: return 4;
    case PQT_INT64:
    case PQT_DOUBLE: return 8;
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
  pqt_buf dict_values;    /* fixed width entries, or byte-array bytes */
  pqt_buf dict_offsets;   /* byte arrays: int32[dict_n + 1] */
  int32_t dict_fixed_len; /* byte arrays: the length of every entry when all are equal (> 0), else -1 */
  pqt_buf indices;        /* scratch: uint32 dictionary indices */
  /* view output: the dictionary's bytes shared by every batch's views, and
   * one view per entry (buffer index left 0: set per batch) */
  pqt_shared_buf *dict_shared;
  pqt_buf dict_views;
  bool dict_long; /* some entry is over 12 bytes */
  pqt_delta_byte_array_state dba;
  int16_t prev_def; /* last def level of the previous page (-1 at the start) */
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
    st = pqt_error_set(err, PQT_EUNSUPPORTED, "level encoding %s", PQT_ENCODING_NAME(encoding));
  }
  if (st != PQT_OK) pqt_error_prefix(err, "%s levels", what);
  return st;
}

static pqt_status read_dictionary(chunk_state *cs, const pqt_page *pg, pqt_error *err) {
  PQT_CHECK_CORRUPT(!cs->has_dict, err, "a second dictionary page in one column chunk");
  PQT_CHECK_CORRUPT(pg->encoding == PQT_ENC_PLAIN || pg->encoding == PQT_ENC_PLAIN_DICTIONARY, err,
                    "dictionary page encoding %s is not PLAIN", PQT_ENCODING_NAME(pg->encoding));
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
      PQT_RETURN_NOT_OK(pqt_utf8_validate_values(
          cs->dict_values.data, (const int32_t *)(const void *)cs->dict_offsets.data, (int64_t)n, err));
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
  int32_t *off = (int32_t *)(void *)cd->offsets.data + cd->n_values;
  uint8_t *o = cd->values.data + cd->values.len;
  int32_t cur = (int32_t)cd->values.len;
  off[0] = cur;
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

/* Is an RLE level stream one run of `value` covering at least n entries?
 * (The common case of a column without nulls on a page.) */
static bool levels_one_run(int32_t encoding, const uint8_t *p, size_t len, int16_t value, int16_t max_level, size_t n) {
  if (encoding != PQT_ENC_RLE) return false;
  uint64_t h = 0;
  const uint8_t *q = p;
  if (pqt_uleb_read(&q, p + len, &h) != PQT_ULEB_OK) return false;
  size_t i = (size_t)(q - p);
  if ((h & 1) || (h >> 1) < n) return false;
  unsigned nb = ((unsigned)bit_width_for(max_level) + 7) / 8;
  if (len - i < nb) return false;
  uint32_t v = 0;
  for (unsigned k = 0; k < nb; k++) v |= (uint32_t)p[i + k] << (8 * k);
  return v == (uint32_t)value;
}

/* Materialise max_def levels up to entry `upto` (see def_mode). */
static pqt_status fill_def_gap(pqt_column_data *cd, int16_t max_def, size_t upto, pqt_error *err) {
  size_t have = cd->def.len / 2;
  if (have >= upto) return PQT_OK;
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->def, (upto - have) * 2, err));
  int16_t *d = (int16_t *)(void *)(cd->def.data + cd->def.len);
  for (size_t i = 0; i < upto - have; i++) d[i] = max_def;
  cd->def.len = upto * 2;
  return PQT_OK;
}

/* ---- the cursor ---------------------------------------------------------- */

/* How the current page's definition levels are held. */
typedef enum def_mode {
  DEF_NONE = 0, /* the column has none (max_def 0) */
  DEF_ALL,      /* every entry is max_def: not materialised (a page without nulls) */
  DEF_LEVELS    /* decoded into c->pdef */
} def_mode;

/* How the current page's values are decoded, a batch at a time. */
typedef enum value_kind {
  VK_NONE = 0,    /* no values left to decode */
  VK_PLAIN_FIXED, /* vpos: byte offset */
  VK_PLAIN_BA,    /* vpos: byte offset */
  VK_PLAIN_BOOL,  /* vpos: bit offset */
  VK_RLE_BOOL,
  VK_DICT,
  VK_DBP,
  VK_BSS, /* vpos: value index */
  VK_DLBA,
  VK_DBA,
  VK_ALP /* vpos: value index */
} value_kind;

struct pqt_column_cursor {
  const pqt_allocator *alloc;
  pqt_column_desc desc;
  int16_t *repeated_def; /* owned copy of desc.repeated_def */
  pqt_column_read_options opts;
  chunk_state cs;
  pqt_page_reader pr;
  bool skip; /* opts.skip_corrupt_pages: lost pages are left out */
  bool eof;  /* no page left */
  bool failed;
  int32_t page_index;  /* the page being read (errors) */
  int32_t data_pages;  /* data page headers read (the offset index's page ordinal) */
  int64_t loaded;      /* entries of the data pages started (and flat pages lost) so far */
  int64_t loaded_rows; /* records starting in the data pages started so far */
  bool last_was_loss;  /* nothing handed out since the last loss */
  int64_t rows;        /* records handed out or lost */
  pqt_buf lost;        /* pqt_lost_rows */
  bool dict_lost;      /* the dictionary page was lost */
  pqt_error dict_why;
  /* the current data page */
  bool have_page;
  int64_t pn, ppos;     /* entries, entries handed out */
  int64_t pvals, pvpos; /* values present, values handed out */
  def_mode dm;
  pqt_buf pdef, prep; /* decoded levels of the page */
  value_kind vk;
  const uint8_t *vin; /* the values section */
  size_t vlen, vpos;
  pqt_rle_decoder rle;
  pqt_delta_bp_decoder dbp;
  pqt_delta_length_decoder dl;
  pqt_delta_byte_array_decoder dba;
  pqt_alp_page alp;
  pqt_buf tmp_off, tmp_data; /* FIXED_LEN_BYTE_ARRAY through the byte-array delta decoders */
  int64_t pages_started;     /* data pages started (pqt_column_cursor_pages) */
  pqt_column_data skip_cd;   /* _skip: values decoded only to be passed over */
  pqt_buf keep_scratch;      /* _read_sel: which values of a page piece are kept */
  bool skip_cd_init;
};

/* DELTA_LENGTH_BYTE_ARRAY / DELTA_BYTE_ARRAY values (fixed_width > 0: FLBA). */
static pqt_status start_byte_array_deltas(pqt_column_cursor *c, int32_t enc, const uint8_t *in, size_t len,
                                          size_t fixed_width, size_t nv, pqt_error *err) {
  if (enc == PQT_ENC_DELTA_BYTE_ARRAY) {
    PQT_RETURN_NOT_OK(pqt_delta_byte_array_init(&c->dba, in, len, fixed_width, err));
    PQT_CHECK_CORRUPT(pqt_delta_byte_array_total(&c->dba) >= nv, err,
                      "DELTA_BYTE_ARRAY: %zu values expected, %llu present", nv,
                      (unsigned long long)pqt_delta_byte_array_total(&c->dba));
    c->vk = VK_DBA;
  } else {
    PQT_RETURN_NOT_OK(pqt_delta_length_init(&c->dl, in, len, err));
    PQT_CHECK_CORRUPT(pqt_delta_length_total(&c->dl) >= nv, err,
                      "DELTA_LENGTH_BYTE_ARRAY: %zu values expected, %llu lengths present", nv,
                      (unsigned long long)pqt_delta_length_total(&c->dl));
    c->vk = VK_DLBA;
  }
  return PQT_OK;
}

/* Set up the value decoder of a data page holding nv values. */
static pqt_status start_values(pqt_column_cursor *c, const pqt_page *pg, size_t nv, pqt_error *err) {
  chunk_state *cs = &c->cs;
  int32_t t = c->desc.physical_type, enc = pg->encoding;
  const uint8_t *in = pg->values;
  size_t len = pg->values_len, w = cs->width;
  c->vin = in;
  c->vlen = len;
  c->vpos = 0;
  c->vk = VK_NONE;
  if (nv == 0) return PQT_OK; /* nothing to decode (an all-null page may have an empty values section) */
  if (enc == PQT_ENC_RLE_DICTIONARY || enc == PQT_ENC_PLAIN_DICTIONARY) {
    if (t == PQT_BOOLEAN)
      return pqt_error_set(err, PQT_EUNSUPPORTED, "encoding %s for BOOLEAN", PQT_ENCODING_NAME(enc));
    PQT_CHECK_CORRUPT(cs->has_dict, err, "dictionary-encoded page but no dictionary page");
    PQT_RETURN_NOT_OK(pqt_rle_dict_page_init(&c->rle, in, len, err));
    c->vk = VK_DICT;
    return PQT_OK;
  }
  if (t == PQT_BYTE_ARRAY) {
    switch (enc) {
      case PQT_ENC_PLAIN:
        PQT_CHECK_CORRUPT(nv <= len / 4, err, "PLAIN BYTE_ARRAY: %zu values cannot fit in %zu bytes", nv, len);
        c->vk = VK_PLAIN_BA;
        return PQT_OK;
      case PQT_ENC_DELTA_LENGTH_BYTE_ARRAY:
      case PQT_ENC_DELTA_BYTE_ARRAY: return start_byte_array_deltas(c, enc, in, len, 0, nv, err);
      default: return pqt_error_set(err, PQT_EUNSUPPORTED, "encoding %s for BYTE_ARRAY", PQT_ENCODING_NAME(enc));
    }
  }
  if (t == PQT_BOOLEAN) {
    if (enc == PQT_ENC_PLAIN) {
      PQT_CHECK_CORRUPT(nv <= (uint64_t)len * 8, err, "PLAIN BOOLEAN: %zu values cannot fit in %zu bytes", nv, len);
      c->vk = VK_PLAIN_BOOL;
      return PQT_OK;
    }
    if (enc == PQT_ENC_RLE) {
      /* RLE booleans carry a 4-byte length prefix (spec: "RLE ... for BOOLEAN values in data pages") */
      PQT_CHECK_CORRUPT(len >= 4, err, "RLE BOOLEAN page: missing the 4-byte length");
      uint32_t l = pqt_load_u32le(in);
      PQT_CHECK_CORRUPT(l <= len - 4, err, "RLE BOOLEAN page: length %u exceeds the page", l);
      PQT_RETURN_NOT_OK(pqt_rle_decoder_init(&c->rle, in + 4, l, 1, err));
      c->vk = VK_RLE_BOOL;
      return PQT_OK;
    }
    return pqt_error_set(err, PQT_EUNSUPPORTED, "encoding %s for BOOLEAN", PQT_ENCODING_NAME(enc));
  }
  /* fixed width: INT32, INT64, INT96, FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY */
  PQT_CHECK_CORRUPT(w > 0, err, "fixed-width column without a width");
  switch (enc) {
    case PQT_ENC_PLAIN:
      PQT_CHECK_CORRUPT(nv <= len / w, err, "PLAIN: %zu values of %zu bytes exceed the %zu bytes of the page", nv, w,
                        len);
      c->vk = VK_PLAIN_FIXED;
      return PQT_OK;
    case PQT_ENC_DELTA_BINARY_PACKED:
      if (t != PQT_INT32 && t != PQT_INT64)
        return pqt_error_set(err, PQT_EUNSUPPORTED, "DELTA_BINARY_PACKED for physical type %s", PQT_TYPE_NAME(t));
      PQT_RETURN_NOT_OK(pqt_delta_bp_init(&c->dbp, in, len, t == PQT_INT32, err));
      PQT_CHECK_CORRUPT(pqt_delta_bp_total(&c->dbp) >= nv, err,
                        "DELTA_BINARY_PACKED: %zu values expected, the header says %llu", nv,
                        (unsigned long long)pqt_delta_bp_total(&c->dbp));
      c->vk = VK_DBP;
      return PQT_OK;
    case PQT_ENC_BYTE_STREAM_SPLIT:
      PQT_CHECK_CORRUPT(len % w == 0, err, "BYTE_STREAM_SPLIT: %zu bytes are not a multiple of the width %zu", len, w);
      PQT_CHECK_CORRUPT(nv <= len / w, err, "BYTE_STREAM_SPLIT: %zu values expected, %zu present", nv, len / w);
      c->vk = VK_BSS;
      return PQT_OK;
    case PQT_ENC_ALP:
      if (t != PQT_FLOAT && t != PQT_DOUBLE) return pqt_error_set(err, PQT_EUNSUPPORTED, "ALP for physical type %d", t);
      PQT_RETURN_NOT_OK(pqt_alp_page_init(&c->alp, in, len, w, err));
      PQT_CHECK_CORRUPT(nv <= c->alp.n, err, "ALP: %zu values expected, the header says %zu", nv, c->alp.n);
      c->vk = VK_ALP;
      return PQT_OK;
    case PQT_ENC_DELTA_BYTE_ARRAY:
    case PQT_ENC_DELTA_LENGTH_BYTE_ARRAY:
      if (t != PQT_FIXED_LEN_BYTE_ARRAY)
        return pqt_error_set(err, PQT_EUNSUPPORTED, "encoding %s for physical type %s", PQT_ENCODING_NAME(enc),
                             PQT_TYPE_NAME(t));
      return start_byte_array_deltas(c, enc, in, len, w, nv, err);
    default:
      return pqt_error_set(err, PQT_EUNSUPPORTED, "encoding %s for physical type %s", PQT_ENCODING_NAME(enc),
                           PQT_TYPE_NAME(t));
  }
}

/* BYTE_ARRAY dictionary whose entries all have fl bytes: gather them as
 * fixed-width values (the RLE runs become fills, bit-packed ones fused
 * gathers) and the offsets step by fl. */
static pqt_status gather_dict_fixed_len(pqt_column_cursor *c, size_t m, int32_t fl, int32_t *off, pqt_column_data *cd,
                                        pqt_error *err) {
  chunk_state *cs = &c->cs;
  uint64_t total = (uint64_t)m * (uint64_t)fl;
  PQT_CHECK_CORRUPT(total + cd->values.len <= INT32_MAX, err, "more than 2 GiB of BYTE_ARRAY data in one chunk");
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->values, (size_t)total + 16, err));
  PQT_RETURN_NOT_OK(pqt_rle_get_dict_fixed(&c->rle, cs->dict_values.data, (size_t)cs->dict_n, (size_t)fl,
                                           cd->values.data + cd->values.len, m, err));
  int32_t cur = (int32_t)cd->values.len;
  off[0] = cur;
  for (size_t i = 0; i < m; i++) off[i + 1] = cur + (int32_t)(i + 1) * fl;
  cd->values.len += (size_t)total;
  return PQT_OK;
}

/* BYTE_ARRAY: m values appended to cd (offsets and bytes). */
static pqt_status take_byte_arrays(pqt_column_cursor *c, size_t m, pqt_column_data *cd, pqt_error *err) {
  chunk_state *cs = &c->cs;
  /* offsets[n_values] is there: cursor_read starts every buffer with offsets[0] */
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->offsets, m * sizeof(int32_t), err));
  int32_t *off = (int32_t *)(void *)cd->offsets.data + cd->n_values;
  size_t used = 0;
  pqt_status st;
  switch (c->vk) {
    case VK_PLAIN_BA:
      st = pqt_plain_decode_byte_array(c->vin + c->vpos, c->vlen - c->vpos, off, &cd->values, m, &used, err);
      c->vpos += used;
      break;
    case VK_DLBA: st = pqt_delta_length_next(&c->dl, off, &cd->values, m, err); break;
    case VK_DBA: st = pqt_delta_byte_array_next(&c->dba, &cs->dba, off, &cd->values, m, err); break;
    case VK_DICT: {
      int32_t fl = cs->dict_fixed_len;
      if (fl == 1 || fl == 2 || fl == 4 || fl == 8 || fl == 12 || fl == 16) {
        st = gather_dict_fixed_len(c, m, fl, off, cd, err);
      } else {
        PQT_RETURN_NOT_OK(pqt_buf_reserve(&cs->indices, m * sizeof(uint32_t), err));
        uint32_t *idx = (uint32_t *)(void *)cs->indices.data;
        PQT_RETURN_NOT_OK(pqt_rle_get_u32(&c->rle, idx, m, err));
        st = gather_byte_array(cs, idx, m, cd, err);
      }
      break;
    }
    default: return pqt_corrupt(err, "value decoder %d for BYTE_ARRAY", (int)c->vk);
  }
  PQT_RETURN_NOT_OK(st);
  /* Dictionary pages were validated once when read: gathered values need no second look. */
  if (c->desc.validate_utf8 && c->vk != VK_DICT)
    PQT_RETURN_NOT_OK(pqt_utf8_validate_values(cd->values.data, off, (int64_t)m, err));
  cd->offsets.len = ((size_t)cd->n_values + m + 1) * sizeof(int32_t);
  return PQT_OK;
}

/* BOOLEAN: m values appended to cd's bitmap. */
static pqt_status take_booleans(pqt_column_cursor *c, size_t m, pqt_column_data *cd, pqt_error *err) {
  size_t nbits = (size_t)cd->n_values + m;
  size_t old = cd->values.len, need = (nbits + 7) / 8 + 8;
  if (need > old) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->values, need - old, err));
    memset(cd->values.data + old, 0, need - old);
    cd->values.len = (nbits + 7) / 8;
  }
  if (c->vk == VK_PLAIN_BOOL) {
    size_t used = 0;
    PQT_RETURN_NOT_OK(
        pqt_plain_decode_bool_bitmap(c->vin, c->vlen, c->vpos, cd->values.data, (size_t)cd->n_values, m, &used, err));
    c->vpos += m;
    return PQT_OK;
  }
  if (c->vk == VK_RLE_BOOL) return pqt_rle_get_bool_bitmap(&c->rle, cd->values.data, (size_t)cd->n_values, m, err);
  return pqt_corrupt(err, "value decoder %d for BOOLEAN", (int)c->vk);
}

/* FIXED_LEN_BYTE_ARRAY through the byte-array delta decoders: decode m
 * values into scratch, check every length is the width, copy `bytes` to out. */
static pqt_status take_flba_deltas(pqt_column_cursor *c, size_t m, size_t bytes, uint8_t *out, pqt_error *err) {
  chunk_state *cs = &c->cs;
  size_t w = cs->width;
  pqt_status st;
  pqt_buf_clear(&c->tmp_off);
  pqt_buf_clear(&c->tmp_data);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&c->tmp_off, (m + 1) * sizeof(int32_t), err));
  int32_t *o = (int32_t *)(void *)c->tmp_off.data;
  st = c->vk == VK_DBA ? pqt_delta_byte_array_next(&c->dba, &cs->dba, o, &c->tmp_data, m, err)
                       : pqt_delta_length_next(&c->dl, o, &c->tmp_data, m, err);
  if (st == PQT_OK && c->tmp_data.len != bytes)
    st = pqt_corrupt(err, "FIXED_LEN_BYTE_ARRAY(%zu): values of the wrong length", w);
  for (size_t i = 0; i < m && st == PQT_OK; i++)
    if ((size_t)(o[i + 1] - o[i]) != w)
      st = pqt_corrupt(err, "FIXED_LEN_BYTE_ARRAY(%zu): value %zu has length %d", w, i, o[i + 1] - o[i]);
  if (st == PQT_OK) memcpy(out, c->tmp_data.data, bytes);
  return st;
}

/* Fixed width (INT32 to FIXED_LEN_BYTE_ARRAY): m values appended to cd. */
static pqt_status take_fixed(pqt_column_cursor *c, size_t m, pqt_column_data *cd, pqt_error *err) {
  chunk_state *cs = &c->cs;
  int32_t t = c->desc.physical_type;
  size_t w = cs->width;
  size_t bytes;
  if (!pqt_mul_size(m, w, &bytes)) return pqt_corrupt(err, "value count overflow");
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->values, bytes + 16, err));
  uint8_t *out = cd->values.data + cd->values.len;
  pqt_status st = PQT_OK;
  switch (c->vk) {
    case VK_PLAIN_FIXED:
      /* start_values checked that every value of the page is present */
      PQT_CHECK_CORRUPT(bytes <= c->vlen - c->vpos, err, "PLAIN: values run past the page");
      memcpy(out, c->vin + c->vpos, bytes);
      c->vpos += bytes;
      break;
    case VK_DICT: st = pqt_rle_get_dict_fixed(&c->rle, cs->dict_values.data, (size_t)cs->dict_n, w, out, m, err); break;
    case VK_DBP:
      st = t == PQT_INT32 ? pqt_delta_bp_get_i32(&c->dbp, (int32_t *)(void *)out, m, err)
                          : pqt_delta_bp_get_i64(&c->dbp, (int64_t *)(void *)out, m, err);
      break;
    case VK_BSS:
      st = pqt_bss_decode(c->vin, c->vlen, w, c->vpos, m, out, err);
      c->vpos += m;
      break;
    case VK_ALP:
      st = pqt_alp_decode(&c->alp, c->vpos, m, out, err);
      c->vpos += m;
      break;
    case VK_DLBA:
    case VK_DBA: st = take_flba_deltas(c, m, bytes, out, err); break;
    default: return pqt_corrupt(err, "value decoder %d for physical type %s", (int)c->vk, PQT_TYPE_NAME(t));
  }
  if (st == PQT_OK) cd->values.len += bytes;
  return st;
}

static pqt_status take_values(pqt_column_cursor *c, size_t m, pqt_column_data *cd, pqt_error *err);

/* Dictionary output (pqt_column_data.want_dict): append m int32 indexes to
 * cd->values, from the page's dictionary indexes or from values appended to
 * cd's dictionary. */
static pqt_status take_dict_indexes(pqt_column_cursor *c, size_t m, pqt_column_data *cd, pqt_error *err) {
  chunk_state *cs = &c->cs;
  bool ba = c->desc.physical_type == PQT_BYTE_ARRAY;
  if (ba && cd->dict_offsets.len == 0) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->dict_offsets, sizeof(int32_t), err));
    ((int32_t *)(void *)cd->dict_offsets.data)[0] = 0;
    cd->dict_offsets.len = sizeof(int32_t);
  }
  size_t bytes;
  if (!pqt_mul_size(m, sizeof(int32_t), &bytes)) return pqt_corrupt(err, "value count overflow");
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->values, bytes + 16, err));
  int32_t *out = (int32_t *)(void *)(cd->values.data + cd->values.len);
  if (c->vk == VK_DICT) {
    if (cd->dict_page_at < 0) { /* the chunk's dictionary, copied in at its first use */
      PQT_CHECK_CORRUPT(cd->dict_n + cs->dict_n <= INT32_MAX, err, "dictionary of more than 2^31 entries");
      int64_t at = cd->dict_n;
      if (ba) {
        const int32_t *so = (const int32_t *)(const void *)cs->dict_offsets.data;
        size_t nb = (size_t)so[cs->dict_n];
        size_t base = cd->dict_values.len;
        PQT_CHECK_CORRUPT(base + nb <= INT32_MAX, err, "more than 2 GiB of BYTE_ARRAY data in one chunk");
        PQT_RETURN_NOT_OK(pqt_buf_append(&cd->dict_values, cs->dict_values.data, nb, err));
        PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->dict_offsets, (size_t)cs->dict_n * sizeof(int32_t), err));
        int32_t *dof = (int32_t *)(void *)cd->dict_offsets.data + at;
        for (int64_t k = 1; k <= cs->dict_n; k++) dof[k] = (int32_t)base + so[k];
        cd->dict_offsets.len = (size_t)(at + cs->dict_n + 1) * sizeof(int32_t);
      } else {
        PQT_RETURN_NOT_OK(pqt_buf_append(&cd->dict_values, cs->dict_values.data, (size_t)cs->dict_n * cs->width, err));
      }
      cd->dict_n += cs->dict_n;
      cd->dict_page_at = at;
    }
    PQT_RETURN_NOT_OK(pqt_rle_get_u32(&c->rle, (uint32_t *)(void *)out, m, err));
    uint32_t lim = (uint32_t)cs->dict_n, bad = 0;
    const uint32_t *u = (const uint32_t *)(const void *)out;
    for (size_t i = 0; i < m; i++) bad |= u[i] >= lim; /* one pass, no branch per value */
    if (bad) {
      for (size_t i = 0; i < m; i++)
        if (u[i] >= lim)
          return pqt_corrupt(err, "dictionary index %u out of range (dictionary has %lld entries)", u[i],
                             (long long)cs->dict_n);
    }
    int32_t at = (int32_t)cd->dict_page_at;
    if (at) for (size_t i = 0; i < m; i++) out[i] += at;
  } else {
    /* any other encoding: the values go to the end of the dictionary */
    int64_t at = cd->dict_n;
    PQT_CHECK_CORRUPT(at + (int64_t)m <= INT32_MAX, err, "dictionary of more than 2^31 entries");
    pqt_column_data tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.values = cd->dict_values;
    tmp.offsets = cd->dict_offsets;
    tmp.n_values = at;
    pqt_status st = take_values(c, m, &tmp, err);
    cd->dict_values = tmp.values; /* the buffers may have moved */
    cd->dict_offsets = tmp.offsets;
    PQT_RETURN_NOT_OK(st);
    out = (int32_t *)(void *)(cd->values.data + cd->values.len);
    for (size_t i = 0; i < m; i++) out[i] = (int32_t)(at + (int64_t)i);
    cd->dict_n = at + (int64_t)m;
  }
  cd->values.len += bytes;
  return PQT_OK;
}

/* ---- view output (pqt_column_data.want_views) ---------------------------- */

/* One 16-byte view: the length, then the value inline (up to 12 bytes,
 * zero-padded), else its first 4 bytes, the variadic buffer and the offset. */
static inline void put_view(uint8_t *v, const uint8_t *s, uint32_t l, int32_t buf, uint32_t off) {
  memset(v, 0, 16);
  memcpy(v, &l, 4);
  if (l <= 12) {
    if (l) memcpy(v + 4, s, l);
  } else {
    memcpy(v + 4, s, 4);
    memcpy(v + 8, &buf, 4);
    memcpy(v + 12, &off, 4);
  }
}

/* The variadic buffer index of sb in cd (1 + its place in view_bufs),
 * taking a reference on it at its first use in cd. */
static pqt_status view_buf_index(pqt_column_data *cd, pqt_shared_buf *sb, int32_t *idx, pqt_error *err) {
  pqt_shared_buf **vb = (pqt_shared_buf **)(void *)cd->view_bufs.data;
  size_t n = cd->view_bufs.len / sizeof *vb;  // NOLINT(bugprone-sizeof-expression): an array of pointers
  for (size_t i = n; i > 0; i--) /* a page's values come together: the last one first */
    if (vb[i - 1] == sb) {
      *idx = (int32_t)i;
      return PQT_OK;
    }
  PQT_CHECK_CORRUPT(n < INT32_MAX - 1, err, "too many pages in one batch");
  PQT_RETURN_NOT_OK(pqt_buf_append(&cd->view_bufs, &sb, sizeof sb, err));  // NOLINT(bugprone-sizeof-expression): appends the pointer
  pqt_shared_ref(sb);
  *idx = (int32_t)n + 1;
  return PQT_OK;
}

/* m values decoded as the default layout does into cd's own bytes
 * (variadic buffer 0), and their views. */
static pqt_status take_own_views(pqt_column_cursor *c, size_t m, pqt_column_data *cd, uint8_t *v, pqt_error *err) {
  if (cd->offsets.len == 0) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->offsets, sizeof(int32_t), err));
    ((int32_t *)(void *)cd->offsets.data)[0] = 0;
    cd->offsets.len = sizeof(int32_t);
  }
  pqt_column_data tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.values = cd->values;
  tmp.offsets = cd->offsets;
  tmp.n_values = cd->n_own;
  pqt_status st = take_byte_arrays(c, m, &tmp, err);
  cd->values = tmp.values; /* the buffers may have moved */
  cd->offsets = tmp.offsets;
  PQT_RETURN_NOT_OK(st);
  const int32_t *off = (const int32_t *)(const void *)cd->offsets.data + cd->n_own;
  for (size_t i = 0; i < m; i++, v += 16)
    put_view(v, cd->values.data + off[i], (uint32_t)(off[i + 1] - off[i]), 0, (uint32_t)off[i]);
  cd->n_own += (int64_t)m;
  return PQT_OK;
}

/* One value appended to cd's own bytes (variadic buffer 0); *off: where. */
static pqt_status own_append(pqt_column_data *cd, const uint8_t *p, uint32_t l, uint32_t *off, pqt_error *err) {
  PQT_CHECK_CORRUPT(cd->values.len + l <= INT32_MAX, err, "more than 2 GiB of BYTE_ARRAY data in one chunk");
  if (cd->offsets.len == 0) PQT_RETURN_NOT_OK(pqt_buf_append(&cd->offsets, &(int32_t){0}, sizeof(int32_t), err));
  *off = (uint32_t)cd->values.len;
  PQT_RETURN_NOT_OK(pqt_buf_append(&cd->values, p, l, err));
  int32_t end = (int32_t)cd->values.len;
  PQT_RETURN_NOT_OK(pqt_buf_append(&cd->offsets, &end, sizeof end, err));
  cd->n_own++;
  return PQT_OK;
}

/* m PLAIN values (length-prefixed, n bytes at p, their extent checked) are
 * UTF-8: at once when every byte is ASCII (the prefixes of values under
 * 128 bytes are), else value by value. */
static pqt_status validate_plain_utf8(const uint8_t *p, size_t n, size_t m, pqt_error *err) {
  uint64_t h0 = 0, h1 = 0, h2 = 0, h3 = 0; /* four accumulators in registers (an array spilled to the stack) */
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    uint64_t w0, w1, w2, w3;
    memcpy(&w0, p + i, 8);
    memcpy(&w1, p + i + 8, 8);
    memcpy(&w2, p + i + 16, 8);
    memcpy(&w3, p + i + 24, 8);
    h0 |= w0;
    h1 |= w1;
    h2 |= w2;
    h3 |= w3;
  }
  uint64_t hi = h0 | h1 | h2 | h3;
  for (; i < n; i++) hi |= p[i];
  if (!(hi & 0x8080808080808080ULL)) return PQT_OK;
  for (size_t k = 0, pos = 0; k < m; k++) {
    uint32_t l = pqt_load_u32le(p + pos);
    if (pqt_utf8_invalid_at(p + pos + 4, l) < l) return pqt_corrupt(err, "invalid UTF-8 in value %zu of a STRING column", k);
    pos += 4 + (size_t)l;
  }
  return PQT_OK;
}

/* The page's buffer for views of its long values, at the first one
 * (*probed): NULL when the page lies in memory the library cannot keep
 * (the values are then copied into cd's own bytes). */
static pqt_status page_view_buf(pqt_column_cursor *c, pqt_column_data *cd, bool *probed, pqt_shared_buf **sb,
                                int32_t *idx, pqt_error *err) {
  *probed = true;
  *sb = NULL;
  if (c->vlen <= INT32_MAX) PQT_RETURN_NOT_OK(pqt_page_reader_share_values(&c->pr, c->vin, c->vlen, sb, err));
  if (*sb && (*sb)->len > INT32_MAX) *sb = NULL; /* offsets are int32 */
  if (*sb) PQT_RETURN_NOT_OK(view_buf_index(cd, *sb, idx, err));
  return PQT_OK;
}

/* Where a page's long values are viewed (page_view_buf, at the first one). */
typedef struct page_views {
  bool probed;
  pqt_shared_buf *sb;
  int32_t idx;
} page_views;

/* The view of value p[0..l): inline when short; else pointing into the
 * page's buffer, or into cd's own bytes when the page cannot be kept. p
 * must lie in the page's values when the page is kept. */
static inline pqt_status view_value(pqt_column_cursor *c, pqt_column_data *cd, page_views *pv, const uint8_t *p,
                                    uint32_t l, uint8_t *v, pqt_error *err) {
  int32_t idx = 0;
  uint32_t off = 0;
  if (l > 12) {
    if (!pv->probed) PQT_RETURN_NOT_OK(page_view_buf(c, cd, &pv->probed, &pv->sb, &pv->idx, err));
    if (pv->sb) {
      idx = pv->idx;
      off = (uint32_t)(p - pv->sb->data);
    } else {
      PQT_RETURN_NOT_OK(own_append(cd, p, l, &off, err));
    }
  }
  put_view(v, p, l, idx, off);
  return PQT_OK;
}

/* PLAIN values: views into the page's (decompressed) buffer, handed over
 * by the page reader at the page's first long value; a page read in place
 * from the chunk's bytes has its long values copied into cd's own bytes. */
static pqt_status take_plain_views(pqt_column_cursor *c, size_t m, pqt_column_data *cd, uint8_t *v, pqt_error *err) {
  size_t pos = c->vpos;
  page_views pv = {false, NULL, 0}; /* the page's buffer (probed at the first long value) */
  for (size_t i = 0; i < m; i++, v += 16) {
    PQT_CHECK_CORRUPT(c->vlen - pos >= 4, err, "PLAIN BYTE_ARRAY: value %zu runs past the page", i);
    uint32_t l = pqt_load_u32le(c->vin + pos);
    PQT_CHECK_CORRUPT(l <= c->vlen - pos - 4, err, "PLAIN BYTE_ARRAY: value %zu of %u bytes runs past the page", i, l);
    PQT_RETURN_NOT_OK(view_value(c, cd, &pv, c->vin + pos + 4, l, v, err));
    pos += 4 + (size_t)l;
  }
  if (c->desc.validate_utf8) PQT_RETURN_NOT_OK(validate_plain_utf8(c->vin + c->vpos, pos - c->vpos, m, err));
  c->vpos = pos;
  return PQT_OK;
}

/* DELTA_LENGTH_BYTE_ARRAY values: their bytes lie back to back in the page
 * after the lengths, so long values point there as PLAIN ones do. */
static pqt_status take_dlba_views(pqt_column_cursor *c, size_t m, pqt_column_data *cd, uint8_t *v, pqt_error *err) {
  pqt_buf_clear(&c->tmp_off);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&c->tmp_off, (m + 1) * sizeof(int32_t), err));
  int32_t *o = (int32_t *)(void *)c->tmp_off.data;
  const uint8_t *src = NULL;
  PQT_RETURN_NOT_OK(pqt_delta_length_span(&c->dl, o, m, 0, &src, err));
  if (c->desc.validate_utf8) PQT_RETURN_NOT_OK(pqt_utf8_validate_values(src, o, (int64_t)m, err));
  page_views pv = {false, NULL, 0};
  for (size_t i = 0; i < m; i++, v += 16) {
    PQT_RETURN_NOT_OK(view_value(c, cd, &pv, src + o[i], (uint32_t)(o[i + 1] - o[i]), v, err));
  }
  return PQT_OK;
}

/* DELTA_BYTE_ARRAY values: a long value whose prefix length is 0 is its
 * suffix, in the page, and points there; one with a prefix is the previous
 * value's start + its suffix, bytes that exist nowhere in the page, so it
 * is built (in the state's `last`, as the decoder keeps it) and copied
 * into cd's own bytes. */
static pqt_status take_dba_views(pqt_column_cursor *c, size_t m, pqt_column_data *cd, uint8_t *v, pqt_error *err) {
  pqt_buf *last = &c->cs.dba.last;
  page_views pv = {false, NULL, 0};
  size_t prev_len = last->len;
  for (size_t done = 0; done < m;) {
    int32_t pl[256], sl[256];
    size_t k = m - done < 256 ? m - done : 256;
    const uint8_t *suf = NULL;
    PQT_RETURN_NOT_OK(pqt_delta_byte_array_lengths(&c->dba, pl, sl, k, &prev_len, &suf, err));
    for (size_t i = 0; i < k; i++, v += 16) {
      size_t pre = (size_t)pl[i], q = (size_t)sl[i];
      uint32_t l = (uint32_t)(pre + q);
      last->len = pre; /* pre <= the previous value's length: checked */
      PQT_RETURN_NOT_OK(pqt_buf_append(last, suf, q, err));
      if (c->desc.validate_utf8 && l && pqt_utf8_invalid_at(last->data, l) < l)
        return pqt_corrupt(err, "invalid UTF-8 in value %zu of a STRING column", done + i);
      if (pre == 0) { /* the whole value is in the page */
        PQT_RETURN_NOT_OK(view_value(c, cd, &pv, suf, l, v, err));
      } else { /* built from the previous value: its bytes are nowhere in the page */
        uint32_t off = 0;
        if (l > 12) PQT_RETURN_NOT_OK(own_append(cd, last->data, l, &off, err));
        put_view(v, last->data, l, 0, off);
      }
      suf += q;
    }
    done += k;
  }
  return PQT_OK;
}

/* The chunk's dictionary as views, once per chunk: its bytes copied once
 * into a buffer every batch's views share. */
static pqt_status dict_views_init(chunk_state *cs, pqt_error *err) {
  const int32_t *doff = (const int32_t *)(const void *)cs->dict_offsets.data;
  size_t n = (size_t)cs->dict_n, nb = n && doff ? (size_t)doff[n] : 0;
  PQT_CHECK_CORRUPT(n == 0 || doff, err, "dictionary of %zu values without offsets", n);
  pqt_shared_buf *sb;
  PQT_RETURN_NOT_OK(pqt_shared_alloc_raw(cs->alloc, nb, &sb, err));
  if (nb) memcpy(sb->data, cs->dict_values.data, nb);
  pqt_status st = pqt_buf_reserve(&cs->dict_views, n * 16 + 16, err);
  if (st != PQT_OK) {
    pqt_shared_unref(sb);
    return st;
  }
  uint8_t *v = cs->dict_views.data;
  for (size_t k = 0; k < n; k++, v += 16) {
    uint32_t l = (uint32_t)(doff[k + 1] - doff[k]);
    cs->dict_long |= l > 12;
    put_view(v, sb->data + doff[k], l, 0, (uint32_t)doff[k]);
  }
  cs->dict_views.len = n * 16;
  cs->dict_shared = sb;
  return PQT_OK;
}

/* Dictionary-encoded values: the dictionary's views by index. */
static pqt_status take_dict_views(pqt_column_cursor *c, size_t m, pqt_column_data *cd, uint8_t *v, pqt_error *err) {
  chunk_state *cs = &c->cs;
  if (!cs->dict_shared) PQT_RETURN_NOT_OK(dict_views_init(cs, err));
  int32_t idx = 0;
  if (cs->dict_long) PQT_RETURN_NOT_OK(view_buf_index(cd, cs->dict_shared, &idx, err));
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&cs->indices, m * sizeof(uint32_t), err));
  uint32_t *ix = (uint32_t *)(void *)cs->indices.data;
  PQT_RETURN_NOT_OK(pqt_rle_get_u32(&c->rle, ix, m, err));
  const uint8_t *dv = cs->dict_views.data;
  for (size_t i = 0; i < m; i++, v += 16) {
    uint32_t k = ix[i];
    if (PQT_UNLIKELY(k >= (uint64_t)cs->dict_n))
      return pqt_corrupt(err, "dictionary index %u out of range (dictionary has %lld entries)", k,
                         (long long)cs->dict_n);
    memcpy(v, dv + (size_t)k * 16, 16);
    if (pqt_load_u32le(v) > 12) memcpy(v + 8, &idx, 4);
  }
  return PQT_OK;
}

/* View output: m values appended to cd->views. */
static pqt_status take_views(pqt_column_cursor *c, size_t m, pqt_column_data *cd, pqt_error *err) {
  size_t bytes;
  if (!pqt_mul_size(m, 16, &bytes)) return pqt_corrupt(err, "value count overflow");
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->views, bytes, err));
  uint8_t *v = cd->views.data + cd->views.len;
  pqt_status st;
  if (c->vk == VK_DICT) {
    st = take_dict_views(c, m, cd, v, err);
  } else if (c->vk == VK_PLAIN_BA) {
    st = take_plain_views(c, m, cd, v, err);
  } else if (c->vk == VK_DLBA) {
    st = take_dlba_views(c, m, cd, v, err);
  } else if (c->vk == VK_DBA) {
    st = take_dba_views(c, m, cd, v, err);
  } else {
    st = take_own_views(c, m, cd, v, err);
  }
  PQT_RETURN_NOT_OK(st);
  cd->views.len += bytes;
  return PQT_OK;
}

/* Decode the next m values of the page and append them to cd. */
static pqt_status take_values(pqt_column_cursor *c, size_t m, pqt_column_data *cd, pqt_error *err) {
  if (m == 0) return PQT_OK;
  if (c->vk == VK_NONE) return pqt_corrupt(err, "page holds no values to decode");
  if (cd->is_dict) return take_dict_indexes(c, m, cd, err);
  if (cd->is_views) return take_views(c, m, cd, err);
  if (c->desc.physical_type == PQT_BYTE_ARRAY) return take_byte_arrays(c, m, cd, err);
  if (c->desc.physical_type == PQT_BOOLEAN) return take_booleans(c, m, cd, err);
  return take_fixed(c, m, cd, err);
}

/* Start a data page: check its counts, decode its levels, set up its values. */
static pqt_status start_data_page(pqt_column_cursor *c, const pqt_page *pg, pqt_error *err) {
  const pqt_column_desc *desc = &c->desc;
  const pqt_column_read_options *opts = &c->opts;
  size_t n = (size_t)pg->num_values;
  if ((uint64_t)c->loaded + n > opts->max_values)
    return pqt_error_set(err, PQT_ELIMIT, "column chunk holds more than %llu values",
                         (unsigned long long)opts->max_values);
  if (opts->expected_values >= 0 && (uint64_t)c->loaded + n > (uint64_t)opts->expected_values)
    return pqt_corrupt(err, "pages hold more values (%llu) than the column chunk's num_values (%lld)",
                       (unsigned long long)((uint64_t)c->loaded + n), (long long)opts->expected_values);
  if (desc->max_rep == 0 && opts->expected_rows >= 0 && c->loaded + (int64_t)n > opts->expected_rows)
    return pqt_corrupt(err, "pages hold more values (%lld) than the row group has rows (%lld)",
                       (long long)(c->loaded + (int64_t)n), (long long)opts->expected_rows);
  size_t n_nonnull = n;
  int64_t page_rows = (int64_t)n;
  /* n == 0 (an empty page): no levels, and nothing is decoded */
  if (desc->max_rep > 0 && n > 0) {
    pqt_buf_clear(&c->prep);
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&c->prep, n * 2, err));
    int16_t *rep = (int16_t *)(void *)c->prep.data;
    size_t rows = 0;
    PQT_RETURN_NOT_OK(
        decode_levels(pg->rep_encoding, pg->rep, pg->rep_len, desc->max_rep, rep, n, 0, &rows, "repetition", err));
    page_rows = (int64_t)rows;
    if (pg->type == PQT_PAGE_DATA_V2 && rep[0] != 0)
      return pqt_corrupt(err, "v2 data page does not start at a row boundary (repetition level %d)", rep[0]);
  }
  if (pg->type == PQT_PAGE_DATA_V2 && pg->num_rows != page_rows)
    return pqt_corrupt(err, "v2 data page says %d rows, its levels hold %lld", pg->num_rows, (long long)page_rows);
  if (desc->max_rep > 0 && opts->expected_rows >= 0 && c->loaded_rows + page_rows > opts->expected_rows)
    return pqt_corrupt(err, "pages hold more records (%lld) than the row group has rows (%lld)",
                       (long long)(c->loaded_rows + page_rows), (long long)opts->expected_rows);
  if (desc->max_def == 0) {
    c->dm = DEF_NONE;
  } else if (n == 0 || (desc->max_rep == 0 &&
                        levels_one_run(pg->def_encoding, pg->def, pg->def_len, desc->max_def, desc->max_def, n))) {
    c->dm = DEF_ALL; /* no nulls on this page: its definition levels are not materialised */
  } else {
    pqt_buf_clear(&c->pdef);
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&c->pdef, n * 2, err));
    PQT_RETURN_NOT_OK(decode_levels(pg->def_encoding, pg->def, pg->def_len, desc->max_def,
                                    (int16_t *)(void *)c->pdef.data, n, desc->max_def, &n_nonnull, "definition", err));
    c->dm = DEF_LEVELS;
  }
  if (desc->max_rep > 0 && n > 0) {
    /* every rep level must continue a list that is open (see levels.h) */
    const int16_t *def = c->dm == DEF_LEVELS ? (const int16_t *)(const void *)c->pdef.data : NULL;
    PQT_RETURN_NOT_OK(pqt_levels_validate(def, (const int16_t *)(const void *)c->prep.data, (int64_t)n, desc->max_def,
                                          desc->max_rep, c->repeated_def, &c->cs.prev_def, err));
  }
  /* A v2 header's num_nulls is advisory (parquet-java < 1.18 writes -1):
   * the definition levels are authoritative. */
  PQT_RETURN_NOT_OK(start_values(c, pg, n_nonnull, err));
  c->loaded += (int64_t)n;
  c->loaded_rows += page_rows;
  c->have_page = true;
  c->pages_started++;
  c->pn = (int64_t)n;
  c->ppos = 0;
  c->pvals = (int64_t)n_nonnull;
  c->pvpos = 0;
  return PQT_OK;
}

static bool recoverable(pqt_status st) {
  return st == PQT_ECORRUPT || st == PQT_EUNSUPPORTED || st == PQT_ELIMIT || st == PQT_ECRYPTO;
}

/* Leave out n rows from here on (why says what went wrong); reading goes on
 * at a page that must start a record. A loss of no rows is recorded only
 * as a note (past_rows: a page past the row group's rows was left out). */
static pqt_status lose_rows(pqt_column_cursor *c, int64_t n, bool flat_page_not_started, bool past_rows,
                            const pqt_error *why, pqt_error *err) {
  if (n < 0) n = 0;
  if (n > 0 || (past_rows && why)) {
    pqt_lost_rows l;
    memset(&l, 0, sizeof l);
    l.first_row = c->rows;
    l.n_rows = n;
    l.page = c->page_index;
    if (n > 0 && c->dict_lost) l.why = c->dict_why; /* the data pages that needed it: the dictionary is why */
    else if (why) l.why = *why;
    PQT_RETURN_NOT_OK(pqt_buf_append(&c->lost, &l, sizeof l, err));
  }
  c->rows += n;
  c->last_was_loss = true;
  if (flat_page_not_started) c->loaded += n;
  c->have_page = false;
  c->cs.prev_def = -1; /* the next page must start a record */
  pqt_delta_byte_array_state_reset(&c->cs.dba);
  return PQT_OK;
}

/* A nested column's page is lost and may have held the end of the record
 * before it (a v1 page need not start a record): that record is taken back
 * out of cd and lost with the page. */
static pqt_status drop_last_record(pqt_column_cursor *c, pqt_column_data *cd, pqt_error *err) {
  /* after a loss the record before is lost already; past the last read
   * (cd NULL) nothing can be taken back */
  if (!cd || c->last_was_loss || cd->n_rows <= 0 || cd->n_levels <= 0 || cd->rep.len < (size_t)cd->n_levels * 2)
    return PQT_OK;
  const int16_t *rep = (const int16_t *)(const void *)cd->rep.data;
  int64_t e = cd->n_levels - 1;
  while (e > 0 && rep[e] != 0) e--;
  int64_t k = cd->n_levels - e;
  int64_t nv = k;
  if (c->desc.max_def > 0 && cd->def.len >= (size_t)cd->n_levels * 2)
    nv = pqt_levels_count_eq((const int16_t *)(const void *)cd->def.data + e, k, c->desc.max_def);
  PQT_CHECK_CORRUPT(nv <= cd->n_values, err, "column data holds fewer values than its levels");
  cd->n_levels = e;
  cd->n_values -= nv;
  cd->n_rows--;
  cd->rep.len = (size_t)e * 2;
  if (cd->def.len > (size_t)e * 2) cd->def.len = (size_t)e * 2;
  int32_t t = c->desc.physical_type;
  if (t == PQT_BYTE_ARRAY) {
    cd->values.len = (size_t)((const int32_t *)(const void *)cd->offsets.data)[cd->n_values];
    cd->offsets.len = ((size_t)cd->n_values + 1) * 4;
  } else if (t == PQT_BOOLEAN) {
    cd->values.len = ((size_t)cd->n_values + 7) / 8;
  } else {
    cd->values.len = (size_t)cd->n_values * c->cs.width;
  }
  c->rows--;
  return PQT_OK;
}

/* Does the offset index place data page `ordinal` at the next record? */
static bool indexed_at_next_row(const pqt_column_cursor *c, int32_t ordinal) {
  return c->opts.page_first_row && ordinal >= 0 && ordinal < c->opts.n_page_first_row &&
         c->opts.page_first_row[ordinal] == c->rows;
}

/* The rows a data page that could not be read held, from what is known of
 * it; -1 when they cannot be known. */
static int64_t lost_page_rows(const pqt_column_cursor *c, const pqt_page_header *h, int32_t ordinal) {
  int64_t rest = c->opts.expected_rows - c->rows;
  int64_t n = -1;
  if (c->desc.max_rep == 0) {
    if (h->type == PQT_PAGE_DATA && PQT_HAS_FIELD(h, page_header, data_page_header)) n = h->data_page_header.num_values;
    else if (h->type == PQT_PAGE_DATA_V2 && PQT_HAS_FIELD(h, page_header, data_page_header_v2))
      n = h->data_page_header_v2.num_values;
  } else if (h->type == PQT_PAGE_DATA_V2 && PQT_HAS_FIELD(h, page_header, data_page_header_v2)) {
    n = h->data_page_header_v2.num_rows;
  } else if (indexed_at_next_row(c, ordinal)) {
    int64_t next = ordinal + 1 < c->opts.n_page_first_row ? c->opts.page_first_row[ordinal + 1] : c->opts.expected_rows;
    n = next - c->rows;
  }
  return n < 0 || n > rest ? -1 : n;
}

/* Read pages until a data page is current or the chunk ends (cd: where
 * the records read so far are, for a loss that must take one back). */
static pqt_status next_page(pqt_column_cursor *c, pqt_column_data *cd, pqt_error *err) {
  c->have_page = false;
  while (!c->eof) {
    pqt_page pg;
    bool eof;
    pqt_status st = pqt_page_reader_next(&c->pr, &pg, &eof, err);
    c->page_index = c->pr.current;
    if (st == PQT_OK && eof) {
      c->eof = true;
      break;
    }
    const pqt_page_header *h = &c->pr.header;
    bool header_ok = c->pr.header_decoded;
    int32_t ordinal = -1;
    if (header_ok && (h->type == PQT_PAGE_DATA || h->type == PQT_PAGE_DATA_V2)) ordinal = c->data_pages++;
    if (st == PQT_OK) {
      if (pg.type == PQT_PAGE_DICTIONARY) {
        st = read_dictionary(&c->cs, &pg, err);
        if (st == PQT_OK) continue;
      } else {
        st = start_data_page(c, &pg, err);
        if (st == PQT_OK) return PQT_OK;
      }
    }
    if (!c->skip || !recoverable(st)) return st;
    /* the page is lost, the chunk is not */
    if (header_ok && ordinal < 0) {
      /* a dictionary page: the data pages that need it are lost one by one,
       * and its failure is why */
      if (h->type == PQT_PAGE_DICTIONARY && !c->cs.has_dict && !c->dict_lost && err) {
        c->dict_why = *err;
        pqt_error_prefix(&c->dict_why, "page %d (the dictionary)", c->page_index);
        c->dict_lost = true;
      }
      continue;
    }
    /* A nested page that is not known to start a record (a v2 page does; so
     * does one the offset index places at the next row) may hold the end of
     * the record before it. */
    bool starts_record = header_ok && (h->type == PQT_PAGE_DATA_V2 || indexed_at_next_row(c, ordinal));
    if (c->desc.max_rep > 0 && !starts_record) PQT_RETURN_NOT_OK(drop_last_record(c, cd, err));
    int64_t n = header_ok ? lost_page_rows(c, h, ordinal) : -1;
    /* no way to the next page, or no way to count this one's rows: the rest of the chunk */
    bool rest_of_chunk = n < 0;
    if (rest_of_chunk) n = c->opts.expected_rows - c->rows;
    int64_t page_values = !header_ok                 ? 0
                          : h->type == PQT_PAGE_DATA ? h->data_page_header.num_values
                                                     : h->data_page_header_v2.num_values;
    /* n <= 0 with values: a page past the row group's rows, noted */
    PQT_RETURN_NOT_OK(lose_rows(c, n, c->desc.max_rep == 0, n <= 0 && page_values > 0, err, err));
    if (rest_of_chunk) {
      c->eof = true;
      break;
    }
  }
  return PQT_OK;
}

/* Hand out entries [ppos, ppos + k) of the current page (holding `records`
 * record starts) into cd; *taken = the records handed out (fewer when the
 * rest of the page is lost). */
static pqt_status take(pqt_column_cursor *c, int64_t k, int64_t records, pqt_column_data *cd, int64_t *taken,
                       pqt_error *err) {
  const pqt_column_desc *desc = &c->desc;
  *taken = 0;
  if (k > 0) {
    pqt_column_data snap = *cd; /* lengths to roll back to */
    int64_t m;
    pqt_status st = PQT_OK;
    if (desc->max_rep > 0) {
      st = pqt_buf_append(&cd->rep, c->prep.data + (size_t)c->ppos * 2, (size_t)k * 2, err);
      if (st != PQT_OK) return st;
    }
    switch (c->dm) {
      case DEF_NONE:
      case DEF_ALL:
        m = k; /* levels implied (DEF_ALL: filled in when a page with nulls comes, see fill_def_gap) */
        break;
      default: {
        const int16_t *d = (const int16_t *)(const void *)c->pdef.data + c->ppos;
        /* the rest of the page: the count of its values is known */
        m = c->ppos + k == c->pn ? c->pvals - c->pvpos : pqt_levels_count_eq(d, k, desc->max_def);
        st = fill_def_gap(cd, desc->max_def, (size_t)cd->n_levels, err);
        if (st == PQT_OK) st = pqt_buf_append(&cd->def, d, (size_t)k * 2, err);
        break;
      }
    }
    if (st == PQT_OK && m > c->pvals - c->pvpos) st = pqt_corrupt(err, "page levels count more values than it holds");
    if (st == PQT_OK) st = take_values(c, (size_t)m, cd, err);
    if (st != PQT_OK) {
      /* roll back what this call appended */
      cd->def.len = snap.def.len <= cd->def.cap ? snap.def.len : cd->def.len;
      cd->rep.len = snap.rep.len;
      cd->values.len = snap.values.len;
      cd->offsets.len = snap.offsets.len;
      if (!c->skip || !recoverable(st)) return st;
      /* the rest of the page is lost, the chunk is not: the records that
       * start in it, and the one its first entries continue, if they do */
      int64_t n = c->pn - c->ppos;
      if (desc->max_rep > 0) {
        const int16_t *rep = (const int16_t *)(const void *)c->prep.data + c->ppos;
        if (rep[0] != 0) PQT_RETURN_NOT_OK(drop_last_record(c, cd, err));
        n = pqt_levels_count_eq(rep, n, 0);
      }
      return lose_rows(c, n, false, false, err, err);
    }
    cd->n_levels += k;
    cd->n_values += m;
    cd->n_rows += records;
    c->ppos += k;
    c->pvpos += m;
    c->rows += records;
    c->last_was_loss = false;
    *taken = records;
  }
  if (c->ppos == c->pn) {
    /* the page is used up */
    c->have_page = false;
    cd->n_pages++;
    if (cd->page_ends) {
      pqt_page_end pe = {cd->n_levels, cd->n_values};
      PQT_RETURN_NOT_OK(pqt_buf_append(cd->page_ends, &pe, sizeof pe, err));
    }
  }
  return PQT_OK;
}

/* The next run to take or skip, got of max_rows rows done: k entries of the page holding r rows (whole
 * records where the column is nested), a page loaded (into cd, or NULL) where none is. *more is false where
 * the read stops here: the chunk ends, max_rows are done, or the next record is not wanted. */
static pqt_status next_run(pqt_column_cursor *c, pqt_column_data *cd, int64_t got, int64_t max_rows, int64_t *k,
                           int64_t *r, bool *more, pqt_error *err) {
  const bool nested = c->desc.max_rep > 0;
  *k = *r = 0;
  *more = false;
  if (!c->have_page) {
    if (c->eof || (!nested && got == max_rows)) return PQT_OK;
    PQT_RETURN_NOT_OK(next_page(c, cd, err));
    if (!c->have_page) return PQT_OK; /* the chunk ends */
  }
  if (!nested) {
    *k = c->pn - c->ppos;
    if (*k > max_rows - got) *k = max_rows - got;
    *r = *k;
  } else {
    /* whole records: stop before the record after the last one wanted */
    const int16_t *rep = (const int16_t *)(const void *)c->prep.data + c->ppos;
    *k = pqt_levels_find_nth(rep, c->pn - c->ppos, 0, max_rows - got, r);
  }
  *more = !(*k == 0 && c->ppos < c->pn); /* false: the next record is not wanted */
  return PQT_OK;
}

static pqt_status cursor_read(pqt_column_cursor *c, int64_t max_rows, pqt_column_data *cd, int64_t *rows,
                              pqt_error *err) {
  int64_t got = 0;
  /* dictionary or view output: decided at the buffer's first read */
  if (cd->n_levels == 0 && cd->n_values == 0) {
    cd->is_dict = cd->want_dict && !c->skip && c->desc.physical_type != PQT_BOOLEAN;
    cd->is_views = cd->want_views && !cd->is_dict && !c->skip && c->desc.physical_type == PQT_BYTE_ARRAY;
  }
  if (c->desc.physical_type == PQT_BYTE_ARRAY && cd->offsets.len == 0) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->offsets, sizeof(int32_t), err));
    ((int32_t *)(void *)cd->offsets.data)[0] = 0;
    cd->offsets.len = sizeof(int32_t);
  }
  for (;;) {
    int64_t k, r;
    bool more;
    PQT_RETURN_NOT_OK(next_run(c, cd, got, max_rows, &k, &r, &more, err));
    if (!more) break;
    int64_t taken;
    PQT_RETURN_NOT_OK(take(c, k, r, cd, &taken, err));
    got += taken;
  }
  /* levels of pages without nulls, when an earlier page had some */
  if (c->desc.max_def > 0 && cd->def.len > 0)
    PQT_RETURN_NOT_OK(fill_def_gap(cd, c->desc.max_def, (size_t)cd->n_levels, err));
  *rows = got;
  return PQT_OK;
}

/* st from a read: after an error the cursor is done, and err names the page. */
static pqt_status cursor_failed(pqt_column_cursor *c, pqt_status st, pqt_error *err) {
  if (st == PQT_OK) return st;
  c->failed = true;
  if (err) err->page = c->page_index;
  pqt_error_prefix(err, "page %d", c->page_index);
  return st;
}

pqt_status pqt_column_cursor_read(pqt_column_cursor *c, int64_t max_rows, pqt_column_data *cd, int64_t *rows,
                                  pqt_error *err) {
  *rows = 0;
  if (c->failed) return pqt_error_set(err, PQT_EINVAL, "column cursor: an earlier read failed");
  if (max_rows < 0) return pqt_error_set(err, PQT_EINVAL, "column cursor: negative row count");
  return cursor_failed(c, cursor_read(c, max_rows, cd, rows, err), err);
}

pqt_status pqt_column_cursor_finish(pqt_column_cursor *c, pqt_error *err) {
  if (c->failed) return pqt_error_set(err, PQT_EINVAL, "column cursor: an earlier read failed");
  /* pages left must hold nothing (empty pages may follow) */
  while (c->have_page || !c->eof) {
    if (c->have_page && c->ppos < c->pn) {
      if (c->desc.max_rep == 0)
        return pqt_corrupt(err, "column chunk holds more values than the row group's %lld rows",
                           (long long)c->opts.expected_rows);
      return pqt_corrupt(err, "column chunk holds more records than the row group's %lld rows",
                         (long long)c->opts.expected_rows);
    }
    c->have_page = false;
    PQT_RETURN_NOT_OK(cursor_failed(c, next_page(c, NULL, err), err));
  }
  if (c->opts.expected_rows < 0) return PQT_OK;
  if (c->desc.max_rep == 0 && c->rows != c->opts.expected_rows)
    return pqt_corrupt(err, "column chunk holds %lld values but the row group has %lld rows", (long long)c->rows,
                       (long long)c->opts.expected_rows);
  if (c->desc.max_rep > 0 && c->rows != c->opts.expected_rows)
    return pqt_corrupt(err, "column chunk holds %lld records but the row group has %lld rows", (long long)c->rows,
                       (long long)c->opts.expected_rows);
  return PQT_OK;
}

void pqt_column_cursor_set_codec(pqt_column_cursor *c, pqt_codec_ctx *ctx) { c->pr.codec_ctx = ctx; }

const pqt_lost_rows *pqt_column_cursor_lost(const pqt_column_cursor *c, int32_t *n) {
  *n = (int32_t)(c->lost.len / sizeof(pqt_lost_rows));
  return (const pqt_lost_rows *)(const void *)c->lost.data;
}

void pqt_column_cursor_close(pqt_column_cursor *c) {
  if (!c) return;
  pqt_buf_free(&c->lost);
  pqt_page_reader_free(&c->pr);
  pqt_buf_free(&c->cs.dict_values);
  pqt_buf_free(&c->cs.dict_offsets);
  pqt_buf_free(&c->cs.indices);
  pqt_buf_free(&c->cs.dict_views);
  pqt_shared_unref(c->cs.dict_shared);
  pqt_delta_byte_array_state_free(&c->cs.dba);
  pqt_buf_free(&c->pdef);
  pqt_buf_free(&c->prep);
  pqt_buf_free(&c->tmp_off);
  pqt_buf_free(&c->tmp_data);
  if (c->skip_cd_init) pqt_column_data_free(&c->skip_cd);
  pqt_buf_free(&c->keep_scratch);
  if (c->repeated_def) pqt_mem_free(c->alloc, c->repeated_def, sizeof(int16_t) * (size_t)c->desc.max_rep);
  pqt_mem_free(c->alloc, c, sizeof *c);
}

pqt_status pqt_column_cursor_open(pqt_column_cursor **out, const pqt_io *io, uint64_t offset, uint64_t len,
                                  int32_t codec, const pqt_column_desc *desc, pqt_codec_ctx *codec_ctx,
                                  const pqt_column_read_options *opts, const pqt_allocator *alloc, pqt_error *err) {
  *out = NULL;
  alloc = pqt_alloc_or_default(alloc);
  if (!pqt_codec_is_available(codec))
    return pqt_error_set(err, PQT_EUNSUPPORTED, "compression codec %s is not available in this build",
                         pqt_codec_name(codec));
  if (desc->physical_type < PQT_BOOLEAN || desc->physical_type > PQT_FIXED_LEN_BYTE_ARRAY)
    return pqt_corrupt(err, "unknown physical type %d", desc->physical_type);
  if (desc->max_rep < 0 || desc->max_def < 0 || (desc->max_rep > 0 && !desc->repeated_def))
    return pqt_error_set(err, PQT_EINVAL, "column cursor: bad levels");
  pqt_column_cursor *c = pqt_mem_calloc(alloc, sizeof *c);
  if (!c) return pqt_nomem(err);
  c->alloc = alloc;
  c->desc = *desc;
  c->opts = *opts;
  chunk_state *cs = &c->cs;
  cs->desc = &c->desc;
  cs->alloc = alloc;
  cs->width = pqt_physical_width(desc->physical_type, desc->type_length);
  cs->prev_def = -1;
  cs->dict_fixed_len = -1;
  pqt_buf_init(&cs->dict_values, alloc);
  pqt_buf_init(&cs->dict_views, alloc);
  pqt_buf_init(&cs->dict_offsets, alloc);
  pqt_buf_init(&cs->indices, alloc);
  pqt_delta_byte_array_state_init(&cs->dba, alloc);
  pqt_buf_init(&c->pdef, alloc);
  pqt_buf_init(&c->prep, alloc);
  pqt_buf_init(&c->tmp_off, alloc);
  pqt_buf_init(&c->tmp_data, alloc);
  pqt_buf_init(&c->keep_scratch, alloc);
  c->page_index = -1;
  c->skip = opts->skip_corrupt_pages && opts->expected_rows >= 0;
  pqt_buf_init(&c->lost, alloc);
  pqt_status st = PQT_OK;
  if (desc->max_rep > 0) {
    c->repeated_def = pqt_mem_alloc(alloc, sizeof(int16_t) * (size_t)desc->max_rep);
    if (!c->repeated_def) st = pqt_nomem(err);
    else memcpy(c->repeated_def, desc->repeated_def, sizeof(int16_t) * (size_t)desc->max_rep);
    c->desc.repeated_def = c->repeated_def;
  } else {
    c->desc.repeated_def = NULL;
  }
  if (st == PQT_OK && desc->physical_type == PQT_FIXED_LEN_BYTE_ARRAY && cs->width == 0)
    st = pqt_corrupt(err, "FIXED_LEN_BYTE_ARRAY column without a positive type_length");
  pqt_page_reader_options popts = opts->page;
  popts.max_def = desc->max_def;
  popts.max_rep = desc->max_rep;
  /* the page reader is set up even on error, so close can free it */
  pqt_status pst = pqt_page_reader_init(&c->pr, io, offset, len, codec, codec_ctx, &popts, alloc, err);
  if (st == PQT_OK) st = pst;
  if (st != PQT_OK) {
    pqt_column_cursor_close(c);
    return st;
  }
  *out = c;
  return PQT_OK;
}

/* ---- selective reads ----------------------------------------------------- */

int64_t pqt_column_cursor_pages(const pqt_column_cursor *c) { return c ? c->pages_started : 0; }

pqt_status pqt_column_cursor_prime(pqt_column_cursor *c, bool *data_page, pqt_error *err) {
  *data_page = false;
  if (c->failed) return pqt_error_set(err, PQT_EINVAL, "column cursor: an earlier read failed");
  if (!c->have_page) PQT_RETURN_NOT_OK(cursor_failed(c, next_page(c, NULL, err), err));
  *data_page = c->have_page;
  return PQT_OK;
}

pqt_status pqt_column_cursor_seek(pqt_column_cursor *c, const pqt_io *io, uint64_t offset, uint64_t len,
                                  int32_t page_index, int32_t data_ordinal, int64_t first_row, pqt_error *err) {
  if (c->failed) return pqt_error_set(err, PQT_EINVAL, "column cursor: an earlier read failed");
  if (first_row < 0 || data_ordinal < 0 || page_index < 0)
    return pqt_error_set(err, PQT_EINVAL, "column cursor: bad seek");
  c->have_page = false;
  c->eof = false;
  c->page_index = page_index;
  c->data_pages = data_ordinal;
  c->rows = first_row;
  c->loaded_rows = first_row;
  if (c->desc.max_rep == 0) c->loaded = first_row; /* a flat column: entries are rows */
  c->cs.prev_def = -1;                            /* the page there must start a record */
  pqt_delta_byte_array_state_reset(&c->cs.dba);
  return cursor_failed(c, pqt_page_reader_seek(&c->pr, io, offset, len, page_index, data_ordinal, err), err);
}

/* Pass over entries [ppos, ppos + k) of the current page (`records` record
 * starts) without handing them out. */
static pqt_status skip_entries(pqt_column_cursor *c, int64_t k, int64_t records, pqt_error *err) {
  const pqt_column_desc *desc = &c->desc;
  int64_t m = k;
  if (c->dm == DEF_LEVELS)
    m = c->ppos + k == c->pn ? c->pvals - c->pvpos
                             : pqt_levels_count_eq((const int16_t *)(const void *)c->pdef.data + c->ppos, k,
                                                   desc->max_def);
  PQT_CHECK_CORRUPT(m <= c->pvals - c->pvpos, err, "page levels count more values than it holds");
  if (m > 0) {
    size_t w = c->cs.width;
    switch (c->vk) {
      case VK_PLAIN_FIXED: {
        size_t bytes;
        PQT_CHECK_CORRUPT(pqt_mul_size((size_t)m, w, &bytes) && bytes <= c->vlen - c->vpos, err,
                          "PLAIN: values run past the page");
        c->vpos += bytes;
        break;
      }
      case VK_PLAIN_BOOL:
      case VK_BSS:
      case VK_ALP: c->vpos += (size_t)m; break; /* start_values checked every value is present */
      case VK_DICT:
      case VK_RLE_BOOL: PQT_RETURN_NOT_OK(pqt_rle_skip(&c->rle, (size_t)m, err)); break;
      case VK_PLAIN_BA: { /* step over each length and its bytes (nothing handed out: no UTF-8 check) */
        size_t pos = c->vpos;
        for (int64_t i = 0; i < m; i++) {
          PQT_CHECK_CORRUPT(c->vlen - pos >= 4, err, "PLAIN BYTE_ARRAY: value %lld runs past the page",
                            (long long)(c->pvpos + i));
          uint32_t l = pqt_load_u32le(c->vin + pos);
          PQT_CHECK_CORRUPT(l <= c->vlen - pos - 4, err, "PLAIN BYTE_ARRAY: value %lld of %u bytes runs past the page",
                            (long long)(c->pvpos + i), l);
          pos += 4 + (size_t)l;
        }
        c->vpos = pos;
        break;
      }
      default: {
        /* decode into scratch, a bounded piece at a time */
        if (!c->skip_cd_init) {
          pqt_column_data_init(&c->skip_cd, c->alloc);
          c->skip_cd_init = true;
        }
        int64_t left = m;
        while (left > 0) {
          int64_t piece = left > 4096 ? 4096 : left;
          pqt_column_data *sc = &c->skip_cd;
          sc->n_values = 0;
          pqt_buf_clear(&sc->values);
          pqt_buf_clear(&sc->offsets);
          if (desc->physical_type == PQT_BYTE_ARRAY) {
            PQT_RETURN_NOT_OK(pqt_buf_reserve(&sc->offsets, sizeof(int32_t), err));
            ((int32_t *)(void *)sc->offsets.data)[0] = 0;
            sc->offsets.len = sizeof(int32_t);
          }
          PQT_RETURN_NOT_OK(take_values(c, (size_t)piece, sc, err));
          left -= piece;
        }
        break;
      }
    }
  }
  c->ppos += k;
  c->pvpos += m;
  c->rows += records;
  c->last_was_loss = false;
  if (c->ppos == c->pn) c->have_page = false;
  return PQT_OK;
}

static pqt_status cursor_skip(pqt_column_cursor *c, int64_t max_rows, int64_t *rows, pqt_error *err) {
  int64_t got = 0;
  for (;;) {
    int64_t k, r;
    bool more;
    PQT_RETURN_NOT_OK(next_run(c, NULL, got, max_rows, &k, &r, &more, err));
    if (!more) break;
    PQT_RETURN_NOT_OK(skip_entries(c, k, r, err));
    got += r;
  }
  *rows = got;
  return PQT_OK;
}

pqt_status pqt_column_cursor_skip(pqt_column_cursor *c, int64_t max_rows, int64_t *rows, pqt_error *err) {
  *rows = 0;
  if (c->failed) return pqt_error_set(err, PQT_EINVAL, "column cursor: an earlier read failed");
  if (max_rows < 0) return pqt_error_set(err, PQT_EINVAL, "column cursor: negative row count");
  if (c->skip) return pqt_error_set(err, PQT_EINVAL, "column cursor: no skipping while recovering");
  return cursor_failed(c, cursor_skip(c, max_rows, rows, err), err);
}

/* Append the values of the current page's next m values whose vkeep is
 * set (mk of them) to cd, stepping over the rest. */
static pqt_status take_values_sel(pqt_column_cursor *c, size_t m, const uint8_t *vkeep, size_t mk,
                                  pqt_column_data *cd, pqt_error *err) {
  chunk_state *cs = &c->cs;
  int32_t t = c->desc.physical_type;
  size_t w = cs->width;
  if (m == 0) return PQT_OK;
  if (mk == m) return take_values(c, m, cd, err);
  if (c->vk == VK_NONE) return pqt_corrupt(err, "page holds no values to decode");
  if (t != PQT_BYTE_ARRAY && t != PQT_BOOLEAN && c->vk == VK_PLAIN_FIXED) {
    size_t bytes;
    PQT_CHECK_CORRUPT(pqt_mul_size(m, w, &bytes) && bytes <= c->vlen - c->vpos, err, "PLAIN: values run past the page");
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->values, (mk + 1) * w + 16, err));
    uint8_t *out = cd->values.data + cd->values.len;
    const uint8_t *in = c->vin + c->vpos;
    size_t j = 0;
    if (w == 4)
      for (size_t i = 0; i < m; i++) {
        memcpy(out + j * 4, in + i * 4, 4);
        j += vkeep[i] != 0;
      }
    else if (w == 8)
      for (size_t i = 0; i < m; i++) {
        memcpy(out + j * 8, in + i * 8, 8);
        j += vkeep[i] != 0;
      }
    else
      for (size_t i = 0; i < m; i++)
        if (vkeep[i]) memcpy(out + (j++) * w, in + i * w, w);
    c->vpos += bytes;
    cd->values.len += mk * w;
    return PQT_OK;
  }
  if (t == PQT_BYTE_ARRAY && c->vk == VK_PLAIN_BA) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->offsets, mk * sizeof(int32_t), err));
    int32_t *off = (int32_t *)(void *)cd->offsets.data + cd->n_values;
    size_t pos = c->vpos, j = 0;
    for (size_t i = 0; i < m; i++) {
      PQT_CHECK_CORRUPT(c->vlen - pos >= 4, err, "PLAIN BYTE_ARRAY: value %zu runs past the page", i);
      uint32_t l = pqt_load_u32le(c->vin + pos);
      PQT_CHECK_CORRUPT(l <= c->vlen - pos - 4, err, "PLAIN BYTE_ARRAY: value %zu of %u bytes runs past the page", i, l);
      if (vkeep[i]) {
        PQT_CHECK_CORRUPT(cd->values.len + l <= INT32_MAX, err, "more than 2 GiB of BYTE_ARRAY data in one chunk");
        PQT_RETURN_NOT_OK(pqt_buf_append(&cd->values, c->vin + pos + 4, l, err));
        off[++j] = (int32_t)cd->values.len;
      }
      pos += 4 + (size_t)l;
    }
    c->vpos = pos;
    if (c->desc.validate_utf8) PQT_RETURN_NOT_OK(pqt_utf8_validate_values(cd->values.data, off, (int64_t)mk, err));
    cd->offsets.len = ((size_t)cd->n_values + mk + 1) * sizeof(int32_t);
    return PQT_OK;
  }
  if (c->vk == VK_DICT) {
    /* the indexes once, the kept ones gathered */
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cs->indices, m * sizeof(uint32_t), err));
    uint32_t *idx = (uint32_t *)(void *)cs->indices.data;
    PQT_RETURN_NOT_OK(pqt_rle_get_u32(&c->rle, idx, m, err));
    size_t j = 0;
    for (size_t i = 0; i < m; i++) {
      idx[j] = idx[i];
      j += vkeep[i] != 0;
    }
    if (t == PQT_BYTE_ARRAY) {
      PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->offsets, mk * sizeof(int32_t), err));
      PQT_RETURN_NOT_OK(gather_byte_array(cs, idx, mk, cd, err));
      cd->offsets.len = ((size_t)cd->n_values + mk + 1) * sizeof(int32_t);
      return PQT_OK;
    }
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->values, mk * w + 16, err));
    uint8_t *out = cd->values.data + cd->values.len;
    const uint8_t *dict = cs->dict_values.data;
    for (size_t i = 0; i < mk; i++) {
      if (PQT_UNLIKELY(idx[i] >= (uint64_t)cs->dict_n))
        return pqt_corrupt(err, "dictionary index %u out of range (dictionary has %lld entries)", idx[i],
                           (long long)cs->dict_n);
      memcpy(out + i * w, dict + (size_t)idx[i] * w, w);
    }
    cd->values.len += mk * w;
    return PQT_OK;
  }
  /* any other decoder: the m values into scratch, then the kept ones copied */
  if (!c->skip_cd_init) {
    pqt_column_data_init(&c->skip_cd, c->alloc);
    c->skip_cd_init = true;
  }
  pqt_column_data *sc = &c->skip_cd;
  sc->n_values = 0;
  pqt_buf_clear(&sc->values);
  pqt_buf_clear(&sc->offsets);
  if (t == PQT_BYTE_ARRAY) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&sc->offsets, sizeof(int32_t), err));
    ((int32_t *)(void *)sc->offsets.data)[0] = 0;
    sc->offsets.len = sizeof(int32_t);
  }
  PQT_RETURN_NOT_OK(take_values(c, m, sc, err));
  if (t == PQT_BYTE_ARRAY) {
    const int32_t *so = (const int32_t *)(const void *)sc->offsets.data;
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->offsets, mk * sizeof(int32_t), err));
    int32_t *off = (int32_t *)(void *)cd->offsets.data + cd->n_values;
    size_t j = 0;
    for (size_t i = 0; i < m; i++) {
      if (!vkeep[i]) continue;
      size_t l = (size_t)(so[i + 1] - so[i]);
      PQT_CHECK_CORRUPT(cd->values.len + l <= INT32_MAX, err, "more than 2 GiB of BYTE_ARRAY data in one chunk");
      PQT_RETURN_NOT_OK(pqt_buf_append(&cd->values, sc->values.data + so[i], l, err));
      off[++j] = (int32_t)cd->values.len;
    }
    cd->offsets.len = ((size_t)cd->n_values + mk + 1) * sizeof(int32_t);
    return PQT_OK;
  }
  if (t == PQT_BOOLEAN) {
    size_t nbits = (size_t)cd->n_values + mk, old = cd->values.len, need = (nbits + 7) / 8 + 8;
    if (need > old) {
      PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->values, need - old, err));
      memset(cd->values.data + old, 0, need - old);
      cd->values.len = (nbits + 7) / 8;
    }
    size_t j = (size_t)cd->n_values;
    for (size_t i = 0; i < m; i++)
      if (vkeep[i]) {
        if (sc->values.data[i / 8] >> (i % 8) & 1) cd->values.data[j / 8] |= (uint8_t)(1u << (j % 8));
        j++;
      }
    return PQT_OK;
  }
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->values, mk * w + 16, err));
  uint8_t *out = cd->values.data + cd->values.len;
  size_t j = 0;
  for (size_t i = 0; i < m; i++)
    if (vkeep[i]) memcpy(out + (j++) * w, sc->values.data + i * w, w);
  cd->values.len += mk * w;
  return PQT_OK;
}

static pqt_status cursor_read_sel(pqt_column_cursor *c, int64_t n, const uint8_t *keep, pqt_column_data *cd,
                                  int64_t *rows, pqt_error *err) {
  const pqt_column_desc *desc = &c->desc;
  int64_t got = 0;
  if (desc->physical_type == PQT_BYTE_ARRAY && cd->offsets.len == 0) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->offsets, sizeof(int32_t), err));
    ((int32_t *)(void *)cd->offsets.data)[0] = 0;
    cd->offsets.len = sizeof(int32_t);
  }
  while (got < n) {
    if (!c->have_page) {
      if (c->eof) break;
      PQT_RETURN_NOT_OK(next_page(c, cd, err));
      if (!c->have_page) break;
    }
    int64_t k = c->pn - c->ppos;
    if (k > n - got) k = n - got;
    const uint8_t *kp = keep + got;
    /* the entries kept, and which values are kept */
    int64_t kept = 0, m = k, mk;
    for (int64_t i = 0; i < k; i++) kept += kp[i] != 0;
    const uint8_t *vkeep = kp;
    if (c->dm == DEF_LEVELS) {
      const int16_t *d = (const int16_t *)(const void *)c->pdef.data + c->ppos;
      pqt_buf_clear(&c->keep_scratch);
      PQT_RETURN_NOT_OK(pqt_buf_reserve(&c->keep_scratch, (size_t)k + 1, err));
      uint8_t *vk = c->keep_scratch.data;
      m = 0;
      mk = 0;
      for (int64_t i = 0; i < k; i++)
        if (d[i] == desc->max_def) {
          vk[m++] = kp[i] != 0;
          mk += kp[i] != 0;
        }
      vkeep = vk;
      PQT_RETURN_NOT_OK(fill_def_gap(cd, desc->max_def, (size_t)cd->n_levels, err));
      if (kept > 0) {
        PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->def, (size_t)kept * 2, err));
        int16_t *od = (int16_t *)(void *)(cd->def.data + cd->def.len);
        int64_t j = 0;
        for (int64_t i = 0; i < k; i++)
          if (kp[i]) od[j++] = d[i];
        cd->def.len += (size_t)kept * 2;
      }
    } else {
      mk = kept;
    }
    PQT_CHECK_CORRUPT(m <= c->pvals - c->pvpos, err, "page levels count more values than it holds");
    PQT_RETURN_NOT_OK(take_values_sel(c, (size_t)m, vkeep, (size_t)mk, cd, err));
    cd->n_levels += kept;
    cd->n_values += mk;
    cd->n_rows += kept;
    c->ppos += k;
    c->pvpos += m;
    c->rows += k;
    c->last_was_loss = false;
    got += k;
    if (c->ppos == c->pn) {
      c->have_page = false;
      cd->n_pages++;
    }
  }
  if (desc->max_def > 0 && cd->def.len > 0)
    PQT_RETURN_NOT_OK(fill_def_gap(cd, desc->max_def, (size_t)cd->n_levels, err));
  *rows = got;
  return PQT_OK;
}

pqt_status pqt_column_cursor_read_sel(pqt_column_cursor *c, int64_t n, const uint8_t *keep, pqt_column_data *cd,
                                      int64_t *rows, pqt_error *err) {
  *rows = 0;
  if (c->failed) return pqt_error_set(err, PQT_EINVAL, "column cursor: an earlier read failed");
  if (n < 0 || c->desc.max_rep > 0 || c->skip)
    return pqt_error_set(err, PQT_EINVAL, "column cursor: selective read of a nested column or while recovering");
  return cursor_failed(c, cursor_read_sel(c, n, keep, cd, rows, err), err);
}

pqt_status pqt_column_read_chunk(const pqt_io *io, uint64_t offset, uint64_t len, int32_t codec,
                                 const pqt_column_desc *desc, pqt_codec_ctx *codec_ctx,
                                 const pqt_column_read_options *opts, const pqt_allocator *alloc, pqt_column_data *cd,
                                 pqt_error *err) {
  pqt_column_cursor *c;
  PQT_RETURN_NOT_OK(pqt_column_cursor_open(&c, io, offset, len, codec, desc, codec_ctx, opts, alloc, err));
  int64_t rows;
  pqt_status st = pqt_column_cursor_read(c, INT64_MAX, cd, &rows, err);
  if (st == PQT_OK) st = pqt_column_cursor_finish(c, err);
  pqt_column_cursor_close(c);
  return st;
}
