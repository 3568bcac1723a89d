/*
 * arrow/export.c: see export.h. ArrowSchema and ArrowArray release
 * callbacks follow the C Data Interface contract: release children, free
 * private data, then mark released by setting release to NULL. Exported
 * arrays hold references on the shared buffers, so they outlive the reader.
 */
#include "arrow/export.h"

#include <stdio.h>
#include <stdlib.h>

#include "arrow/arrow_schema_ipc.h"
#include "arrow/format.h"
#include "arrow/variant_arrow.h"
#include "column/column_reader.h"
#include "meta/value_format.h"

/* ---- type mapping ---------------------------------------------------- */

typedef enum conv_kind {
  CONV_NONE = 0,
  CONV_I32_TO_I8,
  CONV_I32_TO_I16,
  CONV_I32_TO_DEC128,
  CONV_I64_TO_DEC128,
  CONV_BE_TO_DEC128,
  CONV_BE_TO_DEC256,
  CONV_INT96_TO_NS,
  CONV_TO_NULL,
  CONV_LARGE_OFFSETS
} conv_kind;

typedef struct leaf_type {
  char format[64];
  conv_kind conv;
} leaf_type;

static int time_unit_char(const pqt_time_unit *u) {
  int w = pqt_union_which(u->isset);
  return w == PQT_TIME_UNIT_MILLIS ? 'm' : w == PQT_TIME_UNIT_MICROS ? 'u' : 'n';
}

static void parquet_leaf_type(const pqt_schema_node *x, leaf_type *lt) {
  memset(lt, 0, sizeof *lt);
  int l = pqt_union_which(x->logical.isset);
  int ct = x->converted_type;
  int32_t t = x->physical_type;
  const char *f = NULL;
  if (l == PQT_LT_UNKNOWN) {
    f = "n";
    lt->conv = CONV_TO_NULL;
  } else if (l == PQT_LT_DECIMAL && t != PQT_BOOLEAN && t != PQT_FLOAT && t != PQT_DOUBLE && t != PQT_INT96) {
    int32_t p = x->logical.decimal.precision, s = x->logical.decimal.scale;
    if (p > 38) {
      snprintf(lt->format, sizeof lt->format, "d:%d,%d,256", p, s);
      lt->conv = CONV_BE_TO_DEC256;
    } else {
      snprintf(lt->format, sizeof lt->format, "d:%d,%d", p, s);
      lt->conv = t == PQT_INT32 ? CONV_I32_TO_DEC128 : t == PQT_INT64 ? CONV_I64_TO_DEC128 : CONV_BE_TO_DEC128;
    }
    return;
  } else {
    switch (t) {
      case PQT_BOOLEAN: f = "b"; break;
      case PQT_INT32:
        f = "i";
        if (l == PQT_LT_INTEGER) {
          int bw = x->logical.integer.bit_width;
          bool sg = x->logical.integer.is_signed;
          if (bw == 8) {
            f = sg ? "c" : "C";
            lt->conv = CONV_I32_TO_I8;
          } else if (bw == 16) {
            f = sg ? "s" : "S";
            lt->conv = CONV_I32_TO_I16;
          } else f = sg ? "i" : "I";
        } else if (l == PQT_LT_DATE) f = "tdD";  // NOLINT(bugprone-branch-clone): a logical type and its converted type map to one format
        else if (l == PQT_LT_TIME) f = "ttm";  // NOLINT(bugprone-branch-clone): a logical type and its converted type map to one format
        else if (l == 0 && ct == PQT_CT_UINT_8) {
          f = "C";
          lt->conv = CONV_I32_TO_I8;
        } else if (l == 0 && ct == PQT_CT_UINT_16) {
          f = "S";
          lt->conv = CONV_I32_TO_I16;
        } else if (l == 0 && ct == PQT_CT_UINT_32) f = "I";
        else if (l == 0 && ct == PQT_CT_INT_8) {
          f = "c";
          lt->conv = CONV_I32_TO_I8;
        } else if (l == 0 && ct == PQT_CT_INT_16) {
          f = "s";
          lt->conv = CONV_I32_TO_I16;
        } else if (l == 0 && ct == PQT_CT_DATE) f = "tdD";
        else if (l == 0 && ct == PQT_CT_TIME_MILLIS) f = "ttm";
        break;
      case PQT_INT64:
        f = "l";
        if (l == PQT_LT_INTEGER && !x->logical.integer.is_signed) f = "L";  // NOLINT(bugprone-branch-clone): a logical type and its converted type map to one format
        else if (l == PQT_LT_TIME) f = time_unit_char(&x->logical.time.unit) == 'n' ? "ttn" : "ttu";
        else if (l == PQT_LT_TIMESTAMP) {
          snprintf(lt->format, sizeof lt->format, "ts%c:%s", time_unit_char(&x->logical.timestamp.unit),
                   x->logical.timestamp.is_adjusted_to_utc ? "UTC" : "");
          return;
        } else if (l == 0 && ct == PQT_CT_UINT_64) f = "L";
        else if (l == 0 && ct == PQT_CT_TIME_MICROS) f = "ttu";
        else if (l == 0 && ct == PQT_CT_TIMESTAMP_MILLIS) f = "tsm:UTC";
        else if (l == 0 && ct == PQT_CT_TIMESTAMP_MICROS) f = "tsu:UTC";
        break;
      case PQT_INT96:
        if (x->int96_raw) {
          f = "w:12"; /* the stored bytes: nothing lost, whatever the year */
        } else {
          static const char *const int96_formats[] = {"tsn:", "tsu:", "tsm:", "tss:"};
          f = x->int96_unit >= 0 && x->int96_unit <= 3 ? int96_formats[x->int96_unit] : "tsn:";
          lt->conv = CONV_INT96_TO_NS;
        }
        break;
      case PQT_FLOAT: f = "f"; break;
      case PQT_DOUBLE: f = "g"; break;
      case PQT_BYTE_ARRAY: f = pqt_is_text_type(l, ct) ? "u" : "z"; break;
      case PQT_FIXED_LEN_BYTE_ARRAY:
        if (l == PQT_LT_FLOAT16 && x->type_length == 2) f = "e";
        else {
          snprintf(lt->format, sizeof lt->format, "w:%d", x->type_length);
          return;
        }
        break;
      default:
        f = "n";
        lt->conv = CONV_TO_NULL;
        break;
    }
  }
  snprintf(lt->format, sizeof lt->format, "%s", f);
}

/* The Arrow type of a leaf: the Parquet mapping, refined by the file's
 * ARROW:schema where the stored layout allows it (interop pitfall 20): a
 * timestamp's time zone, durations, large string/binary. */
static void leaf_type_of(const pqt_schema_node *x, leaf_type *lt) {
  parquet_leaf_type(x, lt);
  const pqt_arrow_field *h = x->arrow_hint;
  if (!h || h->dictionary || lt->conv != CONV_NONE) return;
  const char *hf = h->format;
  pqt_arrow_format f, hint;
  pqt_arrow_format_parse(lt->format, &f);
  pqt_arrow_format_parse(hf, &hint);
  if (f.kind == PQT_AK_TIMESTAMP && hint.kind == PQT_AK_TIMESTAMP && f.unit == hint.unit) {  // NOLINT(bugprone-branch-clone): each case that takes Arrow's format stands apart
    snprintf(lt->format, sizeof lt->format, "%s", hf); /* same unit: take Arrow's time zone */
  } else if (f.kind == PQT_AK_INT && f.bit_width == 64 && f.is_signed && hint.kind == PQT_AK_DURATION) {
    snprintf(lt->format, sizeof lt->format, "%s", hf); /* duration stored as INT64 */
  } else if ((f.kind == PQT_AK_UTF8 && hint.kind == PQT_AK_LARGE_UTF8) ||
             (f.kind == PQT_AK_BINARY && hint.kind == PQT_AK_LARGE_BINARY)) {
    snprintf(lt->format, sizeof lt->format, "%s", hf);
    lt->conv = CONV_LARGE_OFFSETS;
  } else if (f.kind == PQT_AK_BINARY && hint.kind == PQT_AK_UTF8) {
    snprintf(lt->format, sizeof lt->format, "u");
  }
}

/* ---- layout conversion -------------------------------------------------- */

/* Sign-extend big-endian two's complement bytes into a little-endian
 * integer of out_w bytes. Returns false when it does not fit. */
static bool be_to_le(const uint8_t *p, size_t n, uint8_t *out, size_t out_w) {
  uint8_t fill = (n > 0 && (p[0] & 0x80)) ? 0xFF : 0x00;
  memset(out, fill, out_w);
  size_t skip = 0;
  while (n - skip > out_w) {
    if (p[skip] != fill) return false;
    skip++;
  }
  for (size_t i = skip; i < n; i++) out[n - 1 - i] = p[i];
  return true;
}

static pqt_status convert_leaf(const pqt_allocator *alloc, pqt_array *a, pqt_error *err) {
  leaf_type lt;
  leaf_type_of(a->node, &lt);
  if (lt.conv == CONV_NONE) return PQT_OK;
  int64_t n = a->length;
  pqt_shared_buf *nb = NULL;
  if (lt.conv == CONV_TO_NULL) {
    pqt_shared_unref(a->values);
    pqt_shared_unref(a->offsets);
    a->values = a->offsets = NULL;
    return PQT_OK;
  }
  if (lt.conv == CONV_LARGE_OFFSETS) {
    PQT_RETURN_NOT_OK(pqt_shared_alloc_raw(alloc, (size_t)(n + 1) * 8, &nb, err));
    const int32_t *o32 = (const int32_t *)(const void *)a->offsets->data;
    for (int64_t i = 0; i <= n; i++) pqt_store_u64le(nb->data + 8 * i, (uint64_t)(int64_t)o32[i]);
    pqt_shared_unref(a->offsets);
    a->offsets = nb;
    return PQT_OK;
  }
  size_t out_w = lt.conv == CONV_I32_TO_I8      ? 1
                 : lt.conv == CONV_I32_TO_I16   ? 2
                 : lt.conv == CONV_INT96_TO_NS  ? 8
                 : lt.conv == CONV_BE_TO_DEC256 ? 32
                                                : 16;
  /* decimals from byte arrays leave null slots unwritten: those start zeroed */
  if (lt.conv == CONV_BE_TO_DEC128 || lt.conv == CONV_BE_TO_DEC256)
    PQT_RETURN_NOT_OK(pqt_shared_alloc(alloc, (size_t)n * out_w, &nb, err));
  else PQT_RETURN_NOT_OK(pqt_shared_alloc_raw(alloc, (size_t)n * out_w, &nb, err));
  const uint8_t *src = a->values ? a->values->data : NULL;
  if (!src && n > 0 && lt.conv != CONV_BE_TO_DEC128 && lt.conv != CONV_BE_TO_DEC256) { /* fixed-width values */
    pqt_shared_unref(nb);
    return pqt_error_set(err, PQT_EINVAL, "column %s: %lld values without a values buffer",
                         a->node->dotted_path ? a->node->dotted_path : "?", (long long)n);
  }
  uint8_t *dst = nb->data;
  pqt_status st = PQT_OK;
  switch (lt.conv) {
    case CONV_I32_TO_I8:
    case CONV_I32_TO_I16: {
      /* an INT32 outside the 8/16-bit range of its annotation fails (never wrapped) */
      bool w8 = lt.conv == CONV_I32_TO_I8, sg = lt.format[0] == 'c' || lt.format[0] == 's';
      int32_t lo = sg ? (w8 ? INT8_MIN : INT16_MIN) : 0, hi = sg ? (w8 ? INT8_MAX : INT16_MAX) : (w8 ? UINT8_MAX : UINT16_MAX);
      for (int64_t i = 0; i < n && st == PQT_OK; i++) {
        int32_t v = (int32_t)pqt_load_u32le(src + 4 * i);
        if ((v < lo || v > hi) && pqt_array_is_valid(a, i))
          st = pqt_error_set(err, PQT_ERANGE, "column %s: value %lld of the batch is %d, outside its %s %d-bit range",
                             a->node->dotted_path ? a->node->dotted_path : "?", (long long)i, (int)v,
                             sg ? "signed" : "unsigned", w8 ? 8 : 16);
        if (w8) dst[i] = (uint8_t)v;
        else {
          uint16_t h = (uint16_t)v;
          memcpy(dst + 2 * i, &h, 2);
        }
      }
      break;
    }
    case CONV_I32_TO_DEC128:
    case CONV_I64_TO_DEC128:
      for (int64_t i = 0; i < n; i++) {
        int64_t v = lt.conv == CONV_I32_TO_DEC128 ? (int64_t)(int32_t)pqt_load_u32le(src + 4 * i)
                                                  : (int64_t)pqt_load_u64le(src + 8 * i);
        pqt_store_u64le(dst + 16 * i, (uint64_t)v);
        pqt_store_u64le(dst + 16 * i + 8, v < 0 ? UINT64_MAX : 0);
      }
      break;
    case CONV_BE_TO_DEC128:
    case CONV_BE_TO_DEC256: {
      bool flba = a->node->physical_type == PQT_FIXED_LEN_BYTE_ARRAY;
      size_t w = flba ? (size_t)a->node->type_length : 0;
      const int32_t *off = a->offsets ? (const int32_t *)(const void *)a->offsets->data : NULL;
      for (int64_t i = 0; i < n && st == PQT_OK; i++) {
        if (!pqt_array_is_valid(a, i)) continue;
        const uint8_t *p = flba ? src + (size_t)i * w : src + off[i];  // NOLINT(clang-analyzer-core.NullDereference): a BYTE_ARRAY array has offsets
        size_t len = flba ? w : (size_t)(off[i + 1] - off[i]);
        if (!be_to_le(p, len, dst + (size_t)i * out_w, out_w))
          st = pqt_corrupt(err, "decimal value %lld does not fit its precision", (long long)i);
      }
      if (st == PQT_OK) {
        pqt_shared_unref(a->offsets);
        a->offsets = NULL;
      }
      break;
    }
    case CONV_INT96_TO_NS: {
      /* The value the text output prints (days and time of day, see
       * pqt_int96_split), in the chosen unit: a value outside int64 in that
       * unit, or with digits below it, fails the read (never wrapped or
       * truncated). */
      static const int64_t per_unit[] = {1, 1000, 1000000, 1000000000};
      static const char *const unit_name[] = {"nanoseconds", "microseconds", "milliseconds", "seconds"};
      int u = a->node->int96_unit >= 0 && a->node->int96_unit <= 3 ? a->node->int96_unit : 0;
      const __int128 ns_per_day = (__int128)86400 * 1000000000;
      for (int64_t i = 0; i < n && st == PQT_OK; i++) {
        if (a->validity && !pqt_array_is_valid(a, i)) {
          pqt_store_u64le(dst + 8 * i, 0);
          continue;
        }
        int64_t days, nod;
        pqt_int96_split_bytes(src + 12 * i, &days, &nod);
        __int128 total = (__int128)days * ns_per_day + nod;
        __int128 q = total / per_unit[u], r = total % per_unit[u];
        if (r != 0 || q < (__int128)INT64_MIN || q > (__int128)INT64_MAX) {
          st = pqt_error_set(err, PQT_ERANGE,
                             "column %s: INT96 timestamp in value %lld of the batch (day %lld since 1970-01-01) "
                             "%s int64 %s (read it with another INT96 unit, e.g. --int96-unit us, or as its "
                             "stored bytes)",
                             a->node->dotted_path ? a->node->dotted_path : "?", (long long)i, (long long)days,
                             r != 0 ? "has digits below" : "does not fit", unit_name[u]);
        } else pqt_store_u64le(dst + 8 * i, (uint64_t)(int64_t)q);
      }
      break;
    }
    default: break;
  }
  if (st != PQT_OK) {
    pqt_shared_unref(nb);
    return st;
  }
  pqt_shared_unref(a->values);
  a->values = nb;
  return PQT_OK;
}

pqt_status pqt_array_to_arrow_layout(const pqt_allocator *alloc, pqt_array *a, pqt_error *err) {
  if (a->kind == PQT_ARRAY_LEAF) return convert_leaf(alloc, a->dictionary ? a->dictionary : a, err);
  for (int32_t i = 0; i < a->n_children; i++) PQT_RETURN_NOT_OK(pqt_array_to_arrow_layout(alloc, a->children[i], err));
  return PQT_OK;
}

/* ---- schema export -------------------------------------------------------- */

typedef struct schema_priv {
  char *format;
  char *name;
  struct ArrowSchema **children;
  int64_t n_children;
  char *metadata; /* ArrowSchema.metadata when set (pqt_export_schema_set_metadata, variant_schema), or NULL */
  struct ArrowSchema *dictionary; /* ArrowSchema.dictionary (PQT_ARROW_DICTIONARY), or NULL */
} schema_priv;

static void schema_release(struct ArrowSchema *s) {
  if (!s || !s->release) return;
  schema_priv *p = s->private_data;
  for (int64_t i = 0; s->children && i < s->n_children; i++) {
    struct ArrowSchema *c = s->children[i];
    if (c && c->release) c->release(c);
    free(c);
  }
  free(p->children);
  if (p->dictionary) {
    if (p->dictionary->release) p->dictionary->release(p->dictionary);
    free(p->dictionary);
  }
  free(p->metadata);
  free(p->format);
  free(p->name);
  free(p);
  s->release = NULL;
}

pqt_status pqt_export_schema_set_metadata(struct ArrowSchema *s, const char *md, size_t len, pqt_error *err) {
  if (!s || !s->release || s->release != schema_release) return pqt_error_set(err, PQT_EINVAL, "not our schema");
  schema_priv *p = s->private_data;
  char *c = malloc(len ? len : 1);
  if (!c) return pqt_nomem(err);
  if (len) memcpy(c, md, len);
  free(p->metadata);
  p->metadata = c;
  s->metadata = c;
  return PQT_OK;
}

static pqt_status put_md_string(pqt_buf *out, const char *s, size_t len, pqt_error *err) {
  if (len > INT32_MAX) return pqt_error_set(err, PQT_ELIMIT, "Arrow metadata string of %zu bytes", len);
  int32_t l = (int32_t)len;
  pqt_status st = pqt_buf_append(out, &l, 4, err);
  return st == PQT_OK && len ? pqt_buf_append(out, s, len, err) : st;
}

pqt_status pqt_export_extension_metadata(pqt_buf *out, const char *ext_name, const char *ext_meta, size_t ext_meta_len,
                                         pqt_error *err) {
  static const char NAME_KEY[] = "ARROW:extension:name", META_KEY[] = "ARROW:extension:metadata";
  int32_t n = 2;
  pqt_status st = pqt_buf_append(out, &n, 4, err);
  if (st == PQT_OK) st = put_md_string(out, NAME_KEY, strlen(NAME_KEY), err);
  if (st == PQT_OK) st = put_md_string(out, ext_name, strlen(ext_name), err);
  if (st == PQT_OK) st = put_md_string(out, META_KEY, strlen(META_KEY), err);
  if (st == PQT_OK) st = put_md_string(out, ext_meta, ext_meta_len, err);
  return st;
}

static pqt_status schema_init(struct ArrowSchema *s, const char *format, const char *name, bool nullable,
                              int64_t n_children, pqt_error *err) {
  memset(s, 0, sizeof *s);
  schema_priv *p = calloc(1, sizeof *p);
  if (!p) return pqt_nomem(err);
  p->format = strdup(format);
  p->name = strdup(name ? name : "");
  p->children = n_children ? calloc((size_t)n_children, sizeof *p->children) : NULL;  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
  bool ok = p->format && p->name && (!n_children || p->children);
  for (int64_t i = 0; ok && i < n_children; i++) {
    p->children[i] = calloc(1, sizeof(struct ArrowSchema));
    ok = p->children[i] != NULL;
  }
  s->format = p->format;
  s->name = p->name;
  s->flags = nullable ? ARROW_FLAG_NULLABLE : 0;
  s->n_children = n_children;
  s->children = p->children;
  s->private_data = p;
  s->release = schema_release;
  if (!ok) {
    schema_release(s);
    return pqt_nomem(err);
  }
  return PQT_OK;
}

/* ---- Arrow output options (pqt_arrow_output) ---------------------------- */

/* Leaves under a VARIANT group (reconstructed from its leaves) and
 * GEOMETRY/GEOGRAPHY leaves (geoarrow.wkb) keep the default layout. */
static bool output_options_apply(const pqt_schema_node *leaf) {
  for (const pqt_schema_node *x = leaf; x; x = x->parent) {
    int l = pqt_union_which(x->logical.isset);
    if (l == PQT_LT_VARIANT || l == PQT_LT_GEOMETRY || l == PQT_LT_GEOGRAPHY) return false;
  }
  return true;
}

bool pqt_export_leaf_dictionary(const pqt_schema_node *leaf, uint64_t arrow_output) {
  if (!(arrow_output & PQT_ARROW_DICTIONARY) || !leaf || !leaf->is_leaf || leaf->physical_type == PQT_BOOLEAN)
    return false;
  leaf_type lt;
  leaf_type_of(leaf, &lt);
  /* conversions that may fail on a value (range checks) stay per slot */
  if (lt.conv != CONV_NONE && lt.conv != CONV_LARGE_OFFSETS && lt.conv != CONV_I32_TO_DEC128 &&
      lt.conv != CONV_I64_TO_DEC128)
    return false;
  return output_options_apply(leaf);
}

bool pqt_export_leaf_view(const pqt_schema_node *leaf, uint64_t arrow_output) {
  if (!(arrow_output & PQT_ARROW_VIEW) || !leaf || !leaf->is_leaf || leaf->physical_type != PQT_BYTE_ARRAY)
    return false;
  leaf_type lt;
  leaf_type_of(leaf, &lt);
  if (lt.conv != CONV_NONE || (strcmp(lt.format, "u") != 0 && strcmp(lt.format, "z") != 0)) return false;
  return output_options_apply(leaf);
}

/* The schema of a leaf under the output options: the value type (a view
 * type for strings and binaries with PQT_ARROW_VIEW), as the dictionary of
 * int32 indexes with PQT_ARROW_DICTIONARY. */
static pqt_status leaf_schema(const pqt_schema_node *x, uint64_t fl, bool nullable, struct ArrowSchema *out,
                              pqt_error *err) {
  leaf_type lt;
  leaf_type_of(x, &lt);
  char fmt[sizeof lt.format];
  if (pqt_export_leaf_view(x, fl)) snprintf(fmt, sizeof fmt, "%s", lt.format[0] == 'u' ? "vu" : "vz");
  else snprintf(fmt, sizeof fmt, "%s", lt.format);
  if (!pqt_export_leaf_dictionary(x, fl)) return schema_init(out, fmt, x->name, nullable, 0, err);
  PQT_RETURN_NOT_OK(schema_init(out, "i", x->name, nullable, 0, err));
  schema_priv *p = out->private_data;
  p->dictionary = calloc(1, sizeof(struct ArrowSchema));
  pqt_status st = p->dictionary ? schema_init(p->dictionary, fmt, "", true, 0, err) : pqt_nomem(err);
  if (st != PQT_OK) {
    out->release(out);
    return st;
  }
  out->dictionary = p->dictionary;
  return PQT_OK;
}

static bool any_selected(const pqt_schema_node *x, const uint8_t *sel) {
  if (!sel) return true;
  for (int32_t i = x->first_leaf; i < x->first_leaf + x->n_leaves; i++)
    if (sel[i]) return true;
  return false;
}

static pqt_status export_node_schema(const pqt_schema_node *x, const uint8_t *sel, uint64_t fl, bool as_content,
                                     struct ArrowSchema *out, pqt_error *err);

/* A reconstructed VARIANT group (arrow/variant_arrow.c): struct<metadata:
 * binary, value: binary> with Arrow's canonical extension type arrow.parquet.variant
 * (ARROW:extension:name, empty ARROW:extension:metadata). */
static pqt_status variant_schema(const char *name, bool nullable, struct ArrowSchema *out, pqt_error *err) {
  PQT_RETURN_NOT_OK(schema_init(out, "+s", name, nullable, 2, err));
  pqt_status st = schema_init(out->children[0], "z", "metadata", false, 0, err);
  if (st == PQT_OK) st = schema_init(out->children[1], "z", "value", false, 0, err);
  pqt_buf md;
  pqt_buf_init(&md, pqt_default_allocator());
  if (st == PQT_OK) st = pqt_export_extension_metadata(&md, PQT_VARIANT_ARROW_EXTENSION, "", 0, err);
  if (st == PQT_OK) st = pqt_export_schema_set_metadata(out, (const char *)md.data, md.len, err);
  pqt_buf_free(&md);
  if (st != PQT_OK) out->release(out);
  return st;
}

static pqt_status export_struct_schema(const pqt_schema_node *x, const uint8_t *sel, uint64_t fl, const char *name, bool nullable,
                                       struct ArrowSchema *out, pqt_error *err) {
  if (pqt_variant_node_rebuilt(x, sel)) return variant_schema(name, nullable, out, err);
  int64_t n = 0;
  for (int32_t i = 0; i < x->n_children; i++) n += any_selected(x->children[i], sel);
  PQT_RETURN_NOT_OK(schema_init(out, "+s", name, nullable, n, err));
  int64_t k = 0;
  for (int32_t i = 0; i < x->n_children; i++) {
    if (!any_selected(x->children[i], sel)) continue;
    pqt_status st = export_node_schema(x->children[i], sel, fl, false, out->children[k++], err);
    if (st != PQT_OK) {
      out->release(out);
      return st;
    }
  }
  return PQT_OK;
}

/* as_content: x is a repeated node standing for its own element (required). */
static pqt_status export_listlike_schema(const pqt_schema_node *x, const uint8_t *sel, uint64_t fl, bool nullable,
                                         struct ArrowSchema *out, pqt_error *err);

static pqt_status export_node_schema(const pqt_schema_node *x, const uint8_t *sel, uint64_t fl, bool as_content,
                                     struct ArrowSchema *out, pqt_error *err) {
  pqt_status st;
  if (as_content) {
    if (!x->is_leaf && (x->kind == PQT_NODE_LIST || x->kind == PQT_NODE_MAP))
      return export_listlike_schema(x, sel, fl, false, out, err);
    if (x->is_leaf) return leaf_schema(x, fl, false, out, err);
    return export_struct_schema(x, sel, fl, x->name, false, out, err);
  }
  if (x->repetition == PQT_REPEATED) {
    PQT_RETURN_NOT_OK(schema_init(out, "+l", x->name, false, 1, err));
    st = export_node_schema(x, sel, fl, true, out->children[0], err);
    if (st != PQT_OK) out->release(out);
    return st;
  }
  bool nullable = x->repetition == PQT_OPTIONAL;
  switch (x->kind) {
    case PQT_NODE_PRIMITIVE: return leaf_schema(x, fl, nullable, out, err);
    case PQT_NODE_STRUCT: return export_struct_schema(x, sel, fl, x->name, nullable, out, err);
    case PQT_NODE_LIST:
    case PQT_NODE_MAP: return export_listlike_schema(x, sel, fl, nullable, out, err);
    default: return pqt_error_set(err, PQT_EUNSUPPORTED, "%s: this node kind cannot be exported yet", x->name);
  }
}

static pqt_status export_listlike_schema(const pqt_schema_node *x, const uint8_t *sel, uint64_t fl, bool nullable,
                                         struct ArrowSchema *out, pqt_error *err) {
  pqt_status st;
  const pqt_schema_node *r = x->repeated;
  if (x->kind == PQT_NODE_LIST) {
    PQT_RETURN_NOT_OK(schema_init(out, "+l", x->name, nullable, 1, err));
    if (!x->element || x->element == r) st = export_node_schema(r, sel, fl, true, out->children[0], err);
    else st = export_node_schema(x->element, sel, fl, false, out->children[0], err);
    if (st != PQT_OK) out->release(out);
    return st;
  }
  bool has_value = x->value && any_selected(x->value, sel) && any_selected(x->key, sel);
  PQT_RETURN_NOT_OK(schema_init(out, has_value ? "+m" : "+l", x->name, nullable, 1, err));
  st = export_struct_schema(r, sel, fl, has_value ? "entries" : r->name, false, out->children[0], err);
  if (st == PQT_OK && has_value && out->children[0]->n_children == 2)
    out->children[0]->children[0]->flags &= ~(int64_t)ARROW_FLAG_NULLABLE; /* map keys are never null */
  if (st != PQT_OK) out->release(out);
  return st;
}

pqt_status pqt_export_schema(const pqt_schema *s, const uint8_t *selected, struct ArrowSchema *out, pqt_error *err) {
  return export_struct_schema(s->root, selected, 0, "", false, out, err);
}

pqt_status pqt_export_schema_opts(const pqt_schema *s, const uint8_t *selected, uint64_t arrow_output,
                                  struct ArrowSchema *out, pqt_error *err) {
  return export_struct_schema(s->root, selected, arrow_output, "", false, out, err);
}

/* ---- array export ---------------------------------------------------------- */

typedef struct array_priv {
  const pqt_allocator *alloc;
  pqt_shared_buf *bufs[4];
  const void *buffer_ptrs[4];
  struct ArrowArray **children;
  int64_t n_children;
  struct ArrowArray *dictionary; /* ArrowArray.dictionary, or NULL */
  /* view arrays: buffers validity, views, the variadic buffers (own bytes,
   * then the pages and dictionaries pointed into), their int64 sizes */
  const void **view_ptrs;       /* n_buffers entries (ArrowArray.buffers) */
  pqt_shared_buf **view_refs;   /* variadic buffers 1.. */
  int64_t *variadic_sizes;      /* 1 + n_view_refs */
  int32_t n_view_refs;
} array_priv;

static void array_release(struct ArrowArray *a) {
  if (!a || !a->release) return;
  array_priv *p = a->private_data;
  for (int64_t i = 0; p->children && i < p->n_children; i++) {
    struct ArrowArray *c = p->children[i];
    if (c && c->release) c->release(c);
    if (c) pqt_mem_free(p->alloc, c, sizeof *c);
  }
  if (p->children) pqt_mem_free(p->alloc, p->children, sizeof(struct ArrowArray *) * (size_t)p->n_children);
  if (p->dictionary) {
    if (p->dictionary->release) p->dictionary->release(p->dictionary);
    pqt_mem_free(p->alloc, p->dictionary, sizeof *p->dictionary);
  }
  for (int i = 0; i < 4; i++) pqt_shared_unref(p->bufs[i]);
  for (int32_t i = 0; p->view_refs && i < p->n_view_refs; i++) pqt_shared_unref(p->view_refs[i]);
  size_t nv = (size_t)p->n_view_refs;
  if (p->view_refs) pqt_mem_free(p->alloc, p->view_refs, sizeof(pqt_shared_buf *) * nv);
  if (p->view_ptrs) pqt_mem_free(p->alloc, p->view_ptrs, sizeof(void *) * (nv + 4));
  if (p->variadic_sizes) pqt_mem_free(p->alloc, p->variadic_sizes, sizeof(int64_t) * (nv + 1));
  pqt_mem_free(p->alloc, p, sizeof *p);
  a->release = NULL;
}

static pqt_status array_init(const pqt_allocator *alloc, struct ArrowArray *out, int64_t n_children, pqt_error *err) {
  memset(out, 0, sizeof *out);
  array_priv *p = pqt_mem_calloc(alloc, sizeof *p);
  if (!p) return pqt_nomem(err);
  p->alloc = alloc;
  out->private_data = p;
  out->release = array_release;
  out->buffers = p->buffer_ptrs;
  if (n_children > 0) {
    p->children = pqt_mem_calloc(alloc, sizeof(struct ArrowArray *) * (size_t)n_children);
    if (!p->children) {
      array_release(out);
      return pqt_nomem(err);
    }
    p->n_children = n_children;
    for (int64_t i = 0; i < n_children; i++) {
      p->children[i] = pqt_mem_calloc(alloc, sizeof(struct ArrowArray));
      if (!p->children[i]) {
        array_release(out);
        return pqt_nomem(err);
      }
    }
  }
  out->n_children = n_children;
  out->children = p->children;
  return PQT_OK;
}

static void set_buffer(struct ArrowArray *out, int i, pqt_shared_buf *b) {
  array_priv *p = out->private_data;
  p->bufs[i] = pqt_shared_ref(b);
  p->buffer_ptrs[i] = b ? b->data : NULL;
}

static pqt_status export_array(const pqt_allocator *alloc, const pqt_array *a, int64_t offset, int64_t length,
                               struct ArrowArray *out, pqt_error *err) {
  PQT_RETURN_NOT_OK(array_init(alloc, out, a->n_children, err));
  out->length = length;
  out->offset = offset;
  out->null_count = a->validity ? (offset == 0 && length == a->length ? a->null_count : -1) : 0;
  set_buffer(out, 0, a->validity);
  switch (a->kind) {
    case PQT_ARRAY_LEAF: {
      leaf_type lt;
      leaf_type_of(a->node, &lt);
      if (a->dictionary) { /* int32 indexes; the dictionary whole, whatever the slice */
        out->n_buffers = 2;
        set_buffer(out, 1, a->values);
        array_priv *p = out->private_data;
        p->dictionary = pqt_mem_calloc(alloc, sizeof(struct ArrowArray));
        if (!p->dictionary) return pqt_nomem(err);
        PQT_RETURN_NOT_OK(export_array(alloc, a->dictionary, 0, a->dictionary->length, p->dictionary, err));
        out->dictionary = p->dictionary;
      } else if (a->view_data) { /* views, the variadic data buffers, their sizes */
        array_priv *p = out->private_data;
        size_t nv = (size_t)a->n_view_bufs;
        set_buffer(out, 1, a->values);
        set_buffer(out, 2, a->view_data);
        p->n_view_refs = (int32_t)nv; /* the sizes array_release frees with */
        p->view_ptrs = pqt_mem_calloc(alloc, sizeof(void *) * (nv + 4));
        p->variadic_sizes = pqt_mem_alloc(alloc, sizeof(int64_t) * (nv + 1));
        p->view_refs = nv ? pqt_mem_calloc(alloc, sizeof(pqt_shared_buf *) * nv) : NULL;
        if (!p->view_ptrs || !p->variadic_sizes || (nv && !p->view_refs)) return pqt_nomem(err);
        for (size_t i = 0; i < 3; i++) p->view_ptrs[i] = p->buffer_ptrs[i];
        p->variadic_sizes[0] = (int64_t)a->view_data->len;
        for (size_t i = 0; i < nv; i++) {
          p->view_refs[i] = pqt_shared_ref(a->view_bufs[i]);
          p->view_ptrs[3 + i] = a->view_bufs[i]->data;
          p->variadic_sizes[1 + i] = (int64_t)a->view_bufs[i]->len;
        }
        p->view_ptrs[3 + nv] = p->variadic_sizes;
        out->buffers = p->view_ptrs;
        out->n_buffers = (int64_t)(nv + 4);
      } else if (lt.conv == CONV_TO_NULL) {
        out->n_buffers = 0;
        out->null_count = length;
      } else if (a->node->physical_type == PQT_BYTE_ARRAY && a->offsets) {
        out->n_buffers = 3;
        set_buffer(out, 1, a->offsets);
        set_buffer(out, 2, a->values);
      } else {
        out->n_buffers = 2;
        set_buffer(out, 1, a->values);
      }
      return PQT_OK;
    }
    case PQT_ARRAY_STRUCT:
      out->n_buffers = 1;
      /* Consumers apply a struct's offset to its children (Arrow C data
       * interface), so the children are exported unsliced from 0. */
      for (int32_t i = 0; i < a->n_children; i++)
        PQT_RETURN_NOT_OK(export_array(alloc, a->children[i], 0, offset + length, out->children[i], err));
      return PQT_OK;
    case PQT_ARRAY_LIST:
    case PQT_ARRAY_MAP: {
      out->n_buffers = 2;
      set_buffer(out, 1, a->offsets);
      const pqt_array *c = a->children[0];
      return export_array(alloc, c, 0, c->length, out->children[0], err);
    }
  }
  return PQT_OK;
}

pqt_status pqt_export_batch(const pqt_allocator *alloc, pqt_array *const *fields, int32_t n_fields, int64_t offset,
                            int64_t length, struct ArrowArray *out, pqt_error *err) {
  alloc = pqt_alloc_or_default(alloc);
  PQT_RETURN_NOT_OK(array_init(alloc, out, n_fields, err));
  out->length = length;
  out->n_buffers = 1;
  for (int32_t i = 0; i < n_fields; i++) {
    pqt_status st = export_array(alloc, fields[i], offset, length, out->children[i], err);
    if (st != PQT_OK) {
      out->release(out);
      return st;
    }
  }
  return PQT_OK;
}

/* ---- Arrow output options: dictionaries and views --------------------------- */

/* Identity dictionary: a leaf read without indexes (a filtered or selective
 * read, recovery) becomes its own dictionary, indexes 0..n-1, so the type
 * stays the one the schema announced. */
static pqt_status identity_dictionary(const pqt_allocator *alloc, pqt_array *a, pqt_error *err) {
  pqt_array *d;
  PQT_RETURN_NOT_OK(pqt_array_new(alloc, PQT_ARRAY_LEAF, 0, &d, err));
  d->node = a->node;
  d->name = a->name;
  d->nullable = a->nullable;
  d->length = a->length;
  d->null_count = a->null_count;
  d->validity = pqt_shared_ref(a->validity);
  d->offsets = a->offsets;
  d->values = a->values;
  pqt_shared_buf *ix;
  pqt_status st = pqt_shared_alloc_raw(alloc, (size_t)a->length * 4, &ix, err);
  if (st != PQT_OK) {
    d->offsets = d->values = NULL;
    pqt_array_free(alloc, d);
    return st;
  }
  int32_t *x = (int32_t *)(void *)ix->data;
  for (int64_t i = 0; i < a->length; i++) x[i] = (int32_t)i;
  a->offsets = NULL;
  a->values = ix;
  a->dictionary = d;
  return PQT_OK;
}

/* A BYTE_ARRAY leaf (offsets + bytes) in the view layout: 16-byte views,
 * values of up to 12 bytes inline, longer ones pointing into the bytes,
 * which stay where they are (variadic buffer 0). */
static pqt_status to_views(const pqt_allocator *alloc, pqt_array *a, pqt_error *err) {
  if (!a->offsets || !a->values) return PQT_OK;
  int64_t n = a->length;
  pqt_shared_buf *vb;
  PQT_RETURN_NOT_OK(pqt_shared_alloc_raw(alloc, (size_t)n * 16, &vb, err));
  const int32_t *off = (const int32_t *)(const void *)a->offsets->data;
  const uint8_t *data = a->values->data;
  uint8_t *v = vb->data;
  for (int64_t i = 0; i < n; i++, v += 16) {
    int32_t o = off[i], len = off[i + 1] - o;
    if (len < 0 || o < 0 || (uint64_t)o + (uint64_t)len > a->values->len) {
      pqt_shared_unref(vb);
      return pqt_corrupt(err, "column %s: value %lld lies outside its data", a->node->dotted_path, (long long)i);
    }
    memset(v, 0, 16);
    memcpy(v, &len, 4);
    if (len <= 12) {
      if (len) memcpy(v + 4, data + o, (size_t)len);
    } else {
      int32_t buf_index = 0;
      memcpy(v + 4, data + o, 4); /* prefix */
      memcpy(v + 8, &buf_index, 4);
      memcpy(v + 12, &o, 4);
    }
  }
  a->view_data = a->values;
  a->values = vb;
  pqt_shared_unref(a->offsets);
  a->offsets = NULL;
  return PQT_OK;
}

pqt_status pqt_array_apply_output(const pqt_allocator *alloc, pqt_array *a, uint64_t arrow_output, pqt_error *err) {
  if (!arrow_output) return PQT_OK;
  if (a->kind != PQT_ARRAY_LEAF) {
    for (int32_t i = 0; i < a->n_children; i++)
      PQT_RETURN_NOT_OK(pqt_array_apply_output(alloc, a->children[i], arrow_output, err));
    return PQT_OK;
  }
  bool want_dict = pqt_export_leaf_dictionary(a->node, arrow_output);
  bool want_view = pqt_export_leaf_view(a->node, arrow_output);
  if (want_dict && !a->dictionary) PQT_RETURN_NOT_OK(identity_dictionary(alloc, a, err));
  pqt_array *vals = a->dictionary ? a->dictionary : a;
  if (want_view && !vals->view_data) PQT_RETURN_NOT_OK(to_views(alloc, vals, err));
  if (!want_dict && a->dictionary) { /* views only, decoded as indexes: the dictionary's views per slot */
    pqt_array *d = a->dictionary;
    if (!d->view_data) return pqt_error_set(err, PQT_EINVAL, "column %s: indexes without views", a->node->dotted_path);
    pqt_shared_buf *vb;
    PQT_RETURN_NOT_OK(pqt_shared_alloc_raw(alloc, (size_t)a->length * 16, &vb, err));
    const int32_t *ix = (const int32_t *)(const void *)a->values->data;
    const uint8_t *dv = d->values->data;
    uint8_t *v = vb->data;
    for (int64_t i = 0; i < a->length; i++) {
      int32_t k = ix[i];
      if (!pqt_array_is_valid(a, i)) { /* a null slot: an empty view (its index is 0, the dictionary may be empty) */
        memset(v + 16 * i, 0, 16);
        continue;
      }
      if (k < 0 || k >= d->length) {
        pqt_shared_unref(vb);
        return pqt_corrupt(err, "column %s: dictionary index %d out of range", a->node->dotted_path, (int)k);
      }
      memcpy(v + 16 * i, dv + 16 * (size_t)k, 16);
    }
    pqt_shared_unref(a->values);
    a->values = vb;
    a->view_data = pqt_shared_ref(d->view_data);
    a->dictionary = NULL;
    pqt_array_free(alloc, d);
  }
  return PQT_OK;
}
