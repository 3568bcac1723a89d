/*
 * arrow/arrow_schema_ipc.c: the "ARROW:schema" key-value metadata, both
 * directions: base64, a bounds-checked FlatBuffers reader and a small
 * FlatBuffers writer, and the Arrow IPC Message/Schema/Field/Type tables
 * (format/Message.fbs, format/Schema.fbs) mapped to and from Arrow C Data
 * Interface format strings. See arrow_schema_ipc.h.
 *
 * FlatBuffers in brief (what the reader checks): the buffer starts with a
 * u32 offset to the root table. A table starts with an i32 "soffset": its
 * vtable is at table - soffset. A vtable is u16 vtable size, u16 table
 * size, then one u16 per field slot: the field's offset from the table
 * start, 0 when absent (the default applies). Strings, vectors and
 * sub-tables are referenced by u32 offsets relative to where the offset is
 * stored (always forward). A vector is a u32 count then the elements; a
 * string is a u32 length, the bytes and a NUL. A union is two slots: the
 * member type (u8, 0 = NONE) then the offset to the member table.
 */
#include "arrow/arrow_schema_ipc.h"
#include "arrow/format.h"

#include <inttypes.h>
#include <stdio.h>

/* ==================================================================== */
/* FlatBuffers reader                                                    */
/* ==================================================================== */

typedef struct fbr {
  const uint8_t *p;
  size_t len; /* < 2^31, checked on entry */
  pqt_error *err;
} fbr;

typedef struct fbt {
  size_t pos;      /* table start */
  size_t vt;       /* vtable start */
  uint32_t vtsize; /* vtable bytes */
  uint32_t tsize;  /* table inline bytes */
} fbt;

static uint16_t ld16(const fbr *b, size_t pos) { return pqt_load_u16le(b->p + pos); }
static uint32_t ld32(const fbr *b, size_t pos) { return pqt_load_u32le(b->p + pos); }

/* Room for n bytes at pos? */
static bool fb_fits(const fbr *b, size_t pos, size_t n) { return pos <= b->len && n <= b->len - pos; }

static pqt_status fb_table_at(const fbr *b, size_t pos, fbt *t, const char *what) {
  if (!fb_fits(b, pos, 4))
    return pqt_corrupt(b->err, "%s table at offset %zu is outside the %zu-byte message", what, pos, b->len);
  int32_t so = (int32_t)ld32(b, pos);
  int64_t vt = (int64_t)pos - (int64_t)so;
  if (vt < 0 || !fb_fits(b, (size_t)vt, 4))
    return pqt_corrupt(b->err, "%s table at offset %zu: vtable offset %" PRId64 " is outside the message", what, pos,
                       vt);
  t->pos = pos;
  t->vt = (size_t)vt;
  t->vtsize = ld16(b, t->vt);
  t->tsize = ld16(b, t->vt + 2);
  if (t->vtsize < 4 || (t->vtsize & 1u) || !fb_fits(b, t->vt, t->vtsize))
    return pqt_corrupt(b->err, "%s table at offset %zu: bad vtable size %u", what, pos, (unsigned)t->vtsize);
  if (t->tsize < 4 || !fb_fits(b, pos, t->tsize))
    return pqt_corrupt(b->err, "%s table at offset %zu: table size %u runs past the message", what, pos,
                       (unsigned)t->tsize);
  return PQT_OK;
}

/* Position of the scalar/offset of `slot` (size bytes), or 0 when absent. */
static pqt_status fb_field(const fbr *b, const fbt *t, unsigned slot, size_t size, size_t *fpos, const char *what) {
  *fpos = 0;
  size_t vo = 4 + 2 * (size_t)slot;
  if (vo + 2 > t->vtsize) return PQT_OK;
  uint32_t off = ld16(b, t->vt + vo);
  if (off == 0) return PQT_OK;
  if (off < 4 || off + size > t->tsize)
    return pqt_corrupt(b->err, "%s: field slot %u (offset %u) lies outside its %u-byte table", what, slot,
                       (unsigned)off, (unsigned)t->tsize);
  *fpos = t->pos + off;
  return PQT_OK;
}

static pqt_status fb_u8(const fbr *b, const fbt *t, unsigned slot, uint8_t def, uint8_t *v, const char *what) {
  size_t f;
  PQT_RETURN_NOT_OK(fb_field(b, t, slot, 1, &f, what));
  *v = f ? b->p[f] : def;
  return PQT_OK;
}

static pqt_status fb_bool(const fbr *b, const fbt *t, unsigned slot, bool *v, const char *what) {
  uint8_t u;
  PQT_RETURN_NOT_OK(fb_u8(b, t, slot, 0, &u, what));
  *v = u != 0;
  return PQT_OK;
}

static pqt_status fb_i16(const fbr *b, const fbt *t, unsigned slot, int16_t def, int16_t *v, const char *what) {
  size_t f;
  PQT_RETURN_NOT_OK(fb_field(b, t, slot, 2, &f, what));
  *v = f ? (int16_t)ld16(b, f) : def;
  return PQT_OK;
}

static pqt_status fb_i32(const fbr *b, const fbt *t, unsigned slot, int32_t def, int32_t *v, const char *what) {
  size_t f;
  PQT_RETURN_NOT_OK(fb_field(b, t, slot, 4, &f, what));
  *v = f ? (int32_t)ld32(b, f) : def;
  return PQT_OK;
}

static pqt_status fb_i64(const fbr *b, const fbt *t, unsigned slot, int64_t def, int64_t *v, const char *what) {
  size_t f;
  PQT_RETURN_NOT_OK(fb_field(b, t, slot, 8, &f, what));
  *v = f ? (int64_t)pqt_load_u64le(b->p + f) : def;
  return PQT_OK;
}

/* Follow the u32 offset stored at pos. */
static pqt_status fb_deref(const fbr *b, size_t pos, size_t *target, const char *what) {
  if (!fb_fits(b, pos, 4)) return pqt_corrupt(b->err, "%s: offset at %zu is outside the message", what, pos);
  uint32_t off = ld32(b, pos);
  if (off == 0 || off >= b->len - pos)
    return pqt_corrupt(b->err, "%s: offset %" PRIu32 " at %zu points outside the %zu-byte message", what, off, pos,
                       b->len);
  *target = pos + off;
  return PQT_OK;
}

/* The target of the offset field `slot`, or 0 when absent. */
static pqt_status fb_ref(const fbr *b, const fbt *t, unsigned slot, size_t *target, const char *what) {
  size_t f;
  *target = 0;
  PQT_RETURN_NOT_OK(fb_field(b, t, slot, 4, &f, what));
  if (!f) return PQT_OK;
  return fb_deref(b, f, target, what);
}

/* A NUL-terminated string at pos; *s points into the buffer. */
static pqt_status fb_string_at(const fbr *b, size_t pos, const char **s, const char *what) {
  if (!fb_fits(b, pos, 4)) return pqt_corrupt(b->err, "%s: string at %zu is outside the message", what, pos);
  uint32_t n = ld32(b, pos);
  if ((size_t)n >= b->len - pos - 4)
    return pqt_corrupt(b->err, "%s: string length %" PRIu32 " at %zu runs past the message", what, n, pos);
  if (b->p[pos + 4 + n] != 0) return pqt_corrupt(b->err, "%s: string at %zu is not NUL-terminated", what, pos);
  *s = (const char *)b->p + pos + 4;
  return PQT_OK;
}

/* An optional string field: "" when absent. */
static pqt_status fb_string(const fbr *b, const fbt *t, unsigned slot, const char **s, bool *present,
                            const char *what) {
  size_t pos = 0;
  PQT_RETURN_NOT_OK(fb_ref(b, t, slot, &pos, what));
  if (present) *present = pos != 0;
  if (!pos) {
    *s = "";
    return PQT_OK;
  }
  return fb_string_at(b, pos, s, what);
}

/* A vector at pos of n elements of elem bytes; *data = first element. */
static pqt_status fb_vector_at(const fbr *b, size_t pos, size_t elem, size_t *data, uint32_t *n, const char *what) {
  if (!fb_fits(b, pos, 4)) return pqt_corrupt(b->err, "%s: vector at %zu is outside the message", what, pos);
  *n = ld32(b, pos);
  if ((size_t)*n > (b->len - pos - 4) / elem)
    return pqt_corrupt(b->err, "%s: vector of %" PRIu32 " elements at %zu runs past the message", what, *n, pos);
  *data = pos + 4;
  return PQT_OK;
}

/* An optional vector field; n = 0 when absent. */
static pqt_status fb_vector(const fbr *b, const fbt *t, unsigned slot, size_t elem, size_t *data, uint32_t *n,
                            bool *present, const char *what) {
  size_t pos = 0;
  PQT_RETURN_NOT_OK(fb_ref(b, t, slot, &pos, what));
  if (present) *present = pos != 0;
  *n = 0;
  *data = 0;
  if (!pos) return PQT_OK;
  return fb_vector_at(b, pos, elem, data, n, what);
}

/* ==================================================================== */
/* Decoding the Schema                                                   */
/* ==================================================================== */

/* Type union members (Schema.fbs, union Type). */
enum {
  T_NONE = 0,
  T_NULL,
  T_INT,
  T_FLOAT,
  T_BINARY,
  T_UTF8,
  T_BOOL,
  T_DECIMAL,
  T_DATE,
  T_TIME,
  T_TIMESTAMP,
  T_INTERVAL,
  T_LIST,
  T_STRUCT,
  T_UNION,
  T_FIXED_BINARY,
  T_FIXED_LIST,
  T_MAP,
  T_DURATION,
  T_LARGE_BINARY,
  T_LARGE_UTF8,
  T_LARGE_LIST,
  T_RUN_END,
  T_BINARY_VIEW,
  T_UTF8_VIEW,
  T_LIST_VIEW,
  T_LARGE_LIST_VIEW,
  T_MAX_
};

#define MAX_UNION_CHILDREN 128

typedef struct dctx {
  fbr b;
  pqt_arena *arena;
  pqt_error *err;
  size_t items;  /* fields, metadata pairs and union ids decoded so far */
  size_t budget; /* what a message of this size can hold without sharing */
} dctx;

static pqt_status charge(dctx *c, size_t n, const char *what) {
  if (n > c->budget - c->items)
    return pqt_corrupt(c->err,
                       "%s: more items than a %zu-byte message can hold "
                       "(shared or cyclic subtrees?)",
                       what, c->b.len);
  c->items += n;
  return PQT_OK;
}

static const char *const UNIT_CHARS = "smun"; /* TimeUnit SECOND..NANOSECOND */

/* Int table -> "c", "C", "s", ... */
static pqt_status int_format(dctx *c, const fbt *t, char *out, const char *what) {
  int32_t bw;
  bool sgn;
  PQT_RETURN_NOT_OK(fb_i32(&c->b, t, 0, 0, &bw, what));
  PQT_RETURN_NOT_OK(fb_bool(&c->b, t, 1, &sgn, what));
  char ch;
  switch (bw) {
    case 8: ch = 'c'; break;
    case 16: ch = 's'; break;
    case 32: ch = 'i'; break;
    case 64: ch = 'l'; break;
    default: return pqt_corrupt(c->err, "%s: integer bit width %" PRId32 " (not 8/16/32/64)", what, bw);
  }
  out[0] = sgn ? ch : (char)(ch - 'a' + 'A');
  out[1] = '\0';
  return PQT_OK;
}

static pqt_status unit_check(dctx *c, int16_t unit, int16_t max, const char *what) {
  if (unit < 0 || unit > max) return pqt_corrupt(c->err, "%s: unit %d out of range", what, (int)unit);
  return PQT_OK;
}

static pqt_status set_format(dctx *c, pqt_arrow_field *f, int n) {
  if (n < 0 || (size_t)n >= sizeof f->format)
    return pqt_error_set(c->err, PQT_EUNSUPPORTED, "format string longer than %zu bytes", sizeof f->format - 1);
  return PQT_OK;
}

/* The Type table of member tt -> f->format (children already decoded). */
static pqt_status type_format(dctx *c, uint8_t tt, const fbt *t, pqt_arrow_field *f) {
  const fbr *b = &c->b;
  char *fmt = f->format;
  size_t cap = sizeof f->format;
  int16_t unit;
  int32_t a, s, w;
  switch (tt) {
    case T_NULL: strcpy(fmt, "n"); return PQT_OK;
    case T_INT: return int_format(c, t, fmt, "Int");
    case T_FLOAT:
      PQT_RETURN_NOT_OK(fb_i16(b, t, 0, 0, &unit, "FloatingPoint"));
      PQT_RETURN_NOT_OK(unit_check(c, unit, 2, "FloatingPoint precision"));
      fmt[0] = "efg"[unit];
      fmt[1] = '\0';
      return PQT_OK;
    case T_BINARY: strcpy(fmt, "z"); return PQT_OK;
    case T_UTF8: strcpy(fmt, "u"); return PQT_OK;
    case T_BOOL: strcpy(fmt, "b"); return PQT_OK;
    case T_DECIMAL:
      PQT_RETURN_NOT_OK(fb_i32(b, t, 0, 0, &a, "Decimal"));
      PQT_RETURN_NOT_OK(fb_i32(b, t, 1, 0, &s, "Decimal"));
      PQT_RETURN_NOT_OK(fb_i32(b, t, 2, 128, &w, "Decimal"));
      if (w != 32 && w != 64 && w != 128 && w != 256)
        return pqt_corrupt(c->err, "Decimal: bit width %" PRId32 " (not 32/64/128/256)", w);
      if (a < 1) return pqt_corrupt(c->err, "Decimal: precision %" PRId32, a);
      if (w == 128) return set_format(c, f, snprintf(fmt, cap, "d:%" PRId32 ",%" PRId32, a, s));
      return set_format(c, f, snprintf(fmt, cap, "d:%" PRId32 ",%" PRId32 ",%" PRId32, a, s, w));
    case T_DATE:
      PQT_RETURN_NOT_OK(fb_i16(b, t, 0, 1, &unit, "Date"));
      PQT_RETURN_NOT_OK(unit_check(c, unit, 1, "Date"));
      strcpy(fmt, unit == 0 ? "tdD" : "tdm");
      return PQT_OK;
    case T_TIME:
      PQT_RETURN_NOT_OK(fb_i16(b, t, 0, 1, &unit, "Time"));
      PQT_RETURN_NOT_OK(fb_i32(b, t, 1, 32, &w, "Time"));
      PQT_RETURN_NOT_OK(unit_check(c, unit, 3, "Time"));
      if (w != (unit <= 1 ? 32 : 64))
        return pqt_corrupt(c->err, "Time: bit width %" PRId32 " does not match unit %d", w, (int)unit);
      fmt[0] = 't';
      fmt[1] = 't';
      fmt[2] = UNIT_CHARS[unit];
      fmt[3] = '\0';
      return PQT_OK;
    case T_TIMESTAMP: {
      const char *tz;
      PQT_RETURN_NOT_OK(fb_i16(b, t, 0, 0, &unit, "Timestamp"));
      PQT_RETURN_NOT_OK(unit_check(c, unit, 3, "Timestamp"));
      PQT_RETURN_NOT_OK(fb_string(b, t, 1, &tz, NULL, "Timestamp.timezone"));
      return set_format(c, f, snprintf(fmt, cap, "ts%c:%s", UNIT_CHARS[unit], tz));
    }
    case T_INTERVAL:
      PQT_RETURN_NOT_OK(fb_i16(b, t, 0, 0, &unit, "Interval"));
      PQT_RETURN_NOT_OK(unit_check(c, unit, 2, "Interval"));
      fmt[0] = 't';
      fmt[1] = 'i';
      fmt[2] = "MDn"[unit];
      fmt[3] = '\0';
      return PQT_OK;
    case T_LIST: strcpy(fmt, "+l"); return PQT_OK;
    case T_STRUCT: strcpy(fmt, "+s"); return PQT_OK;
    case T_UNION: {
      int16_t mode;
      size_t data;
      uint32_t n;
      bool present;
      PQT_RETURN_NOT_OK(fb_i16(b, t, 0, 0, &mode, "Union"));
      if (mode != 0 && mode != 1) return pqt_corrupt(c->err, "Union: mode %d", (int)mode);
      PQT_RETURN_NOT_OK(fb_vector(b, t, 1, 4, &data, &n, &present, "Union.typeIds"));
      if (f->n_children > MAX_UNION_CHILDREN)
        return pqt_corrupt(c->err, "Union: %" PRId32 " children (at most 128)", f->n_children);
      if (present && n != (uint32_t)f->n_children)
        return pqt_corrupt(c->err, "Union: %" PRIu32 " type ids for %" PRId32 " children", n, f->n_children);
      PQT_RETURN_NOT_OK(charge(c, n, "Union.typeIds"));
      size_t len = (size_t)snprintf(fmt, cap, "+u%c:", mode ? 'd' : 's');
      for (int32_t i = 0; i < f->n_children; i++) {
        int32_t id = present ? (int32_t)ld32(b, data + 4 * (size_t)i) : i;
        if (id < 0 || id > 127) return pqt_corrupt(c->err, "Union: type id %" PRId32, id);
        for (int32_t j = 0; present && j < i; j++)
          if ((int32_t)ld32(b, data + 4 * (size_t)j) == id)
            return pqt_corrupt(c->err, "Union: type id %" PRId32 " repeated", id);
        int k = snprintf(fmt + len, cap - len, i ? ",%" PRId32 : "%" PRId32, id);
        if (k < 0 || (size_t)k >= cap - len) return set_format(c, f, -1);
        len += (size_t)k;
      }
      return PQT_OK;
    }
    case T_FIXED_BINARY:
      PQT_RETURN_NOT_OK(fb_i32(b, t, 0, 0, &w, "FixedSizeBinary"));
      if (w < 0) return pqt_corrupt(c->err, "FixedSizeBinary: byte width %" PRId32, w);
      return set_format(c, f, snprintf(fmt, cap, "w:%" PRId32, w));
    case T_FIXED_LIST:
      PQT_RETURN_NOT_OK(fb_i32(b, t, 0, 0, &w, "FixedSizeList"));
      if (w < 0) return pqt_corrupt(c->err, "FixedSizeList: list size %" PRId32, w);
      return set_format(c, f, snprintf(fmt, cap, "+w:%" PRId32, w));
    case T_MAP:
      PQT_RETURN_NOT_OK(fb_bool(b, t, 0, &f->map_keys_sorted, "Map"));
      strcpy(fmt, "+m");
      return PQT_OK;
    case T_DURATION:
      PQT_RETURN_NOT_OK(fb_i16(b, t, 0, 1, &unit, "Duration"));
      PQT_RETURN_NOT_OK(unit_check(c, unit, 3, "Duration"));
      fmt[0] = 't';
      fmt[1] = 'D';
      fmt[2] = UNIT_CHARS[unit];
      fmt[3] = '\0';
      return PQT_OK;
    case T_LARGE_BINARY: strcpy(fmt, "Z"); return PQT_OK;
    case T_LARGE_UTF8: strcpy(fmt, "U"); return PQT_OK;
    case T_LARGE_LIST: strcpy(fmt, "+L"); return PQT_OK;
    case T_RUN_END: strcpy(fmt, "+r"); return PQT_OK;
    case T_BINARY_VIEW: strcpy(fmt, "vz"); return PQT_OK;
    case T_UTF8_VIEW: strcpy(fmt, "vu"); return PQT_OK;
    case T_LIST_VIEW: strcpy(fmt, "+vl"); return PQT_OK;
    case T_LARGE_LIST_VIEW: strcpy(fmt, "+vL"); return PQT_OK;
    default: return pqt_error_set(c->err, PQT_EUNSUPPORTED, "unknown Arrow Type union member %u", (unsigned)tt);
  }
}

/* The child count and shape each nested type requires (the same rules for
 * decoded and to-be-encoded trees). Returns a message or NULL when fine. */
static const char *shape_problem(const pqt_arrow_field *f) {
  const char *fm = f->format;
  int32_t n = f->n_children;
  if (fm[0] != '+') return n ? "a non-nested type has children" : NULL;
  switch (fm[1]) {
    case 'l':
    case 'L':
    case 'v':
    case 'w': return n == 1 ? NULL : "a list type needs exactly one child";
    case 'm': {
      if (n != 1) return "a map needs exactly one child (entries)";
      const pqt_arrow_field *e = &f->children[0];
      if (strcmp(e->format, "+s") != 0 || e->dictionary || e->n_children != 2)
        return "a map's child must be a struct of key and value";
      return NULL;
    }
    case 'r': {
      if (n != 2) return "a run-end encoded type needs two children (run_ends, values)";
      const pqt_arrow_field *r = &f->children[0];
      if (r->dictionary || (strcmp(r->format, "s") != 0 && strcmp(r->format, "i") != 0 && strcmp(r->format, "l") != 0))
        return "run ends must be int16, int32 or int64";
      return NULL;
    }
    case 'u': return n <= MAX_UNION_CHILDREN ? NULL : "a union has at most 128 children";
    default: return NULL; /* struct */
  }
}

/* A [KeyValue] vector in slot. */
static pqt_status decode_kv(dctx *c, const fbt *t, unsigned slot, int32_t *n_out, const char ***keys,
                            const char ***values) {
  size_t data;
  uint32_t n;
  *n_out = 0;
  *keys = *values = NULL;
  PQT_RETURN_NOT_OK(fb_vector(&c->b, t, slot, 4, &data, &n, NULL, "custom_metadata"));
  if (!n) return PQT_OK;
  PQT_RETURN_NOT_OK(charge(c, n, "custom_metadata"));
  const char **k = pqt_arena_array(c->arena, n, sizeof *k);
  const char **v = pqt_arena_array(c->arena, n, sizeof *v);
  if (!k || !v) return pqt_nomem(c->err);
  for (uint32_t i = 0; i < n; i++) {
    size_t pos = 0;
    fbt kv;
    PQT_RETURN_NOT_OK(fb_deref(&c->b, data + 4 * (size_t)i, &pos, "custom_metadata"));
    PQT_RETURN_NOT_OK(fb_table_at(&c->b, pos, &kv, "KeyValue"));
    PQT_RETURN_NOT_OK(fb_string(&c->b, &kv, 0, &k[i], NULL, "KeyValue.key"));
    PQT_RETURN_NOT_OK(fb_string(&c->b, &kv, 1, &v[i], NULL, "KeyValue.value"));
  }
  *n_out = (int32_t)n;
  *keys = k;
  *values = v;
  return PQT_OK;
}

static pqt_status decode_fields(dctx *c, size_t vec_data, uint32_t n, int depth, pqt_arrow_field **out);

static pqt_status decode_field_body(dctx *c, const fbt *t, pqt_arrow_field *f, int depth) {
  const fbr *b = &c->b;
  uint8_t tt;
  size_t tpos, dpos, cdata;
  uint32_t nc;
  fbt tt_tab;
  PQT_RETURN_NOT_OK(fb_bool(b, t, 1, &f->nullable, "Field.nullable"));
  PQT_RETURN_NOT_OK(fb_u8(b, t, 2, 0, &tt, "Field.type_type"));
  PQT_RETURN_NOT_OK(fb_ref(b, t, 3, &tpos, "Field.type"));
  if (tt == T_NONE) return pqt_corrupt(c->err, "no type (Type union is NONE)");
  if (!tpos) return pqt_corrupt(c->err, "Type union member %u without its table", (unsigned)tt);
  PQT_RETURN_NOT_OK(fb_table_at(b, tpos, &tt_tab, "Type"));
  /* children */
  PQT_RETURN_NOT_OK(fb_vector(b, t, 5, 4, &cdata, &nc, NULL, "Field.children"));
  if (nc) {
    if (depth + 1 > PQT_ARROW_SCHEMA_MAX_DEPTH)
      return pqt_corrupt(c->err, "fields nested deeper than %d levels", PQT_ARROW_SCHEMA_MAX_DEPTH);
    PQT_RETURN_NOT_OK(decode_fields(c, cdata, nc, depth + 1, &f->children));
    f->n_children = (int32_t)nc;
  }
  PQT_RETURN_NOT_OK(decode_kv(c, t, 6, &f->n_metadata, &f->meta_keys, &f->meta_values));
  /* dictionary */
  PQT_RETURN_NOT_OK(fb_ref(b, t, 4, &dpos, "Field.dictionary"));
  if (dpos) {
    fbt d;
    size_t ipos = 0;
    int16_t kind;
    PQT_RETURN_NOT_OK(fb_table_at(b, dpos, &d, "DictionaryEncoding"));
    PQT_RETURN_NOT_OK(fb_i64(b, &d, 0, 0, &f->dictionary_id, "DictionaryEncoding.id"));
    PQT_RETURN_NOT_OK(fb_ref(b, &d, 1, &ipos, "DictionaryEncoding.indexType"));
    PQT_RETURN_NOT_OK(fb_bool(b, &d, 2, &f->dictionary_ordered, "DictionaryEncoding.isOrdered"));
    PQT_RETURN_NOT_OK(fb_i16(b, &d, 3, 0, &kind, "DictionaryEncoding.dictionaryKind"));
    if (kind != 0) return pqt_corrupt(c->err, "dictionary kind %d (only DenseArray)", (int)kind);
    if (ipos) {
      fbt it;
      PQT_RETURN_NOT_OK(fb_table_at(b, ipos, &it, "DictionaryEncoding.indexType"));
      PQT_RETURN_NOT_OK(int_format(c, &it, f->index_format, "dictionary index type"));
    } else {
      strcpy(f->index_format, "i");
    }
    f->dictionary = true;
  }
  PQT_RETURN_NOT_OK(type_format(c, tt, &tt_tab, f));
  const char *problem = shape_problem(f);
  if (problem) return pqt_corrupt(c->err, "type %s: %s", f->format, problem);
  return PQT_OK;
}

static pqt_status decode_fields(dctx *c, size_t vec_data, uint32_t n, int depth, pqt_arrow_field **out) {
  PQT_RETURN_NOT_OK(charge(c, n, "fields"));
  pqt_arrow_field *fs = pqt_arena_array(c->arena, n, sizeof *fs);
  if (!fs) return pqt_nomem(c->err);
  for (uint32_t i = 0; i < n; i++) {
    size_t pos = 0;
    fbt t;
    pqt_arrow_field *f = &fs[i];
    PQT_RETURN_NOT_OK(fb_deref(&c->b, vec_data + 4 * (size_t)i, &pos, "Field"));
    PQT_RETURN_NOT_OK(fb_table_at(&c->b, pos, &t, "Field"));
    PQT_RETURN_NOT_OK(fb_string(&c->b, &t, 0, &f->name, NULL, "Field.name"));
    pqt_status st = decode_field_body(c, &t, f, depth);
    if (st != PQT_OK) {
      /* name the path down to 8 levels; deeper ones would crowd the message out */
      if (depth <= 8) pqt_error_prefix(c->err, "field %" PRIu32 " \"%.64s\"", i, f->name);
      return st;
    }
  }
  *out = fs;
  return PQT_OK;
}

/* A Message flatbuffer (root offset first) in c->b. */
static pqt_status decode_message(dctx *c, pqt_arrow_schema *out) {
  const fbr *b = &c->b;
  size_t root = 0, spos = 0, fdata = 0;
  uint32_t nf;
  fbt msg, sch;
  uint8_t ht;
  int16_t endian;
  PQT_RETURN_NOT_OK(fb_deref(b, 0, &root, "Message root"));
  PQT_RETURN_NOT_OK(fb_table_at(b, root, &msg, "Message"));
  PQT_RETURN_NOT_OK(fb_i16(b, &msg, 0, 0, &out->version, "Message.version"));
  if (out->version < 3 || out->version > 4)
    return pqt_error_set(c->err, PQT_EUNSUPPORTED, "Arrow IPC metadata version V%d is not supported (V4 and V5 are)",
                         (int)out->version + 1);
  PQT_RETURN_NOT_OK(fb_u8(b, &msg, 1, 0, &ht, "Message.header_type"));
  if (ht != 1) return pqt_corrupt(c->err, "Message header type %u is not Schema (1)", (unsigned)ht);
  PQT_RETURN_NOT_OK(fb_ref(b, &msg, 2, &spos, "Message.header"));
  if (!spos) return pqt_corrupt(c->err, "Message without its Schema table");
  PQT_RETURN_NOT_OK(fb_table_at(b, spos, &sch, "Schema"));
  PQT_RETURN_NOT_OK(fb_i16(b, &sch, 0, 0, &endian, "Schema.endianness"));
  if (endian != 0 && endian != 1) return pqt_corrupt(c->err, "Schema endianness %d", (int)endian);
  out->big_endian = endian == 1;
  PQT_RETURN_NOT_OK(fb_vector(b, &sch, 1, 4, &fdata, &nf, NULL, "Schema.fields"));
  if (nf) PQT_RETURN_NOT_OK(decode_fields(c, fdata, nf, 1, &out->fields));
  out->n_fields = (int32_t)nf;
  return decode_kv(c, &sch, 2, &out->n_metadata, &out->meta_keys, &out->meta_values);
}

/* data lives in the arena (strings point into it). */
static pqt_status decode_owned(const uint8_t *p, size_t len, pqt_arena *arena, pqt_arrow_schema *out, pqt_error *err) {
  const uint8_t *fb = p;
  size_t fblen = len;
  if (len >= 8 && pqt_load_u32le(p) == 0xFFFFFFFFu) {
    uint32_t ml = pqt_load_u32le(p + 4);
    if (ml == 0) return pqt_corrupt(err, "ARROW:schema: end-of-stream marker instead of a Schema message");
    if (ml > len - 8)
      return pqt_corrupt(err, "ARROW:schema: metadata length %" PRIu32 " exceeds the %zu bytes after the prefix", ml,
                         len - 8);
    fb = p + 8;
    fblen = ml;
  } else if (len >= 8 && pqt_load_u32le(p) == len - 4) {
    fb = p + 4; /* pre-0.15 framing: length without continuation marker */
    fblen = len - 4;
  }
  if (fblen < 8) return pqt_corrupt(err, "ARROW:schema: %zu-byte message is too short", fblen);
  dctx c = {.b = {fb, fblen, err}, .arena = arena, .err = err, .items = 0, .budget = fblen / 2 + 64};
  pqt_status st = decode_message(&c, out);
  if (st != PQT_OK) {
    pqt_error_prefix(err, "ARROW:schema");
    memset(out, 0, sizeof *out);
  }
  return st;
}

pqt_status pqt_arrow_schema_decode_ipc(const uint8_t *data, size_t len, pqt_arena *arena, pqt_arrow_schema *out,
                                       pqt_error *err) {
  if (!out || !arena || (!data && len))
    return pqt_error_set(err, PQT_EINVAL, "pqt_arrow_schema_decode_ipc: bad argument");
  memset(out, 0, sizeof *out);
  if (len > INT32_MAX) return pqt_corrupt(err, "ARROW:schema: %zu-byte message exceeds 2 GiB", len);
  uint8_t *copy = pqt_arena_alloc(arena, len ? len : 1);
  if (!copy) return pqt_nomem(err);
  if (len) memcpy(copy, data, len);
  return decode_owned(copy, len, arena, out, err);
}

pqt_status pqt_arrow_schema_decode_ex(const char *base64, size_t len, pqt_arena *arena, pqt_arrow_schema *out,
                                      pqt_error *err) {
  if (!out || !arena || (!base64 && len))
    return pqt_error_set(err, PQT_EINVAL, "pqt_arrow_schema_decode: bad argument");
  memset(out, 0, sizeof *out);
  uint8_t *raw;
  size_t n;
  pqt_status st = pqt_base64_decode(base64, len, arena, &raw, &n, err);
  if (st != PQT_OK) {
    pqt_error_prefix(err, "ARROW:schema");
    return st;
  }
  if (n > INT32_MAX) return pqt_corrupt(err, "ARROW:schema: %zu-byte message exceeds 2 GiB", n);
  return decode_owned(raw, n, arena, out, err);
}

pqt_status pqt_arrow_schema_decode(const char *base64, size_t len, pqt_arena *arena, pqt_arrow_field **fields,
                                   int32_t *n_fields, pqt_error *err) {
  if (!fields || !n_fields) return pqt_error_set(err, PQT_EINVAL, "pqt_arrow_schema_decode: bad argument");
  *fields = NULL;
  *n_fields = 0;
  pqt_arrow_schema s;
  PQT_RETURN_NOT_OK(pqt_arrow_schema_decode_ex(base64, len, arena, &s, err));
  *fields = s.fields;
  *n_fields = s.n_fields;
  return PQT_OK;
}

/* ==================================================================== */
/* Format strings -> Type parameters                                     */
/* ==================================================================== */

typedef struct ptype {
  uint8_t type;
  int32_t a, b, c; /* Int: width, signed; Decimal: precision, scale, width; unit/width/size */
  const char *tz;  /* Timestamp time zone or NULL */
  int32_t n_ids;
  int32_t ids[MAX_UNION_CHILDREN];
} ptype;

static int unit_index(char ch) {
  const char *u = strchr(UNIT_CHARS, ch);
  return (ch && u) ? (int)(u - UNIT_CHARS) : -1;
}

/* The shared parse (arrow/format.h) -> the IPC Type table's parameters. */
static pqt_status parse_format(const char *fm, ptype *t, pqt_error *err) {
  memset(t, 0, offsetof(ptype, ids));
  pqt_arrow_format af;
  if (!pqt_arrow_format_parse(fm, &af)) goto bad;
  switch (af.kind) {
    case PQT_AK_NULL: t->type = T_NULL; break;
    case PQT_AK_BOOL: t->type = T_BOOL; break;
    case PQT_AK_INT:
      t->type = T_INT;
      t->a = af.bit_width;
      t->b = af.is_signed ? 1 : 0;
      break;
    case PQT_AK_FLOAT:
      t->type = T_FLOAT;
      t->a = af.bit_width == 16 ? 0 : af.bit_width == 32 ? 1 : 2;
      break;
    case PQT_AK_BINARY: t->type = T_BINARY; break;
    case PQT_AK_LARGE_BINARY: t->type = T_LARGE_BINARY; break;
    case PQT_AK_BINARY_VIEW: t->type = T_BINARY_VIEW; break;
    case PQT_AK_UTF8: t->type = T_UTF8; break;
    case PQT_AK_LARGE_UTF8: t->type = T_LARGE_UTF8; break;
    case PQT_AK_UTF8_VIEW: t->type = T_UTF8_VIEW; break;
    case PQT_AK_DATE:
      t->type = T_DATE;
      t->a = af.unit == 'D' ? 0 : 1;
      break;
    case PQT_AK_TIME:
      t->type = T_TIME;
      t->a = unit_index(af.unit);
      t->b = af.bit_width;
      break;
    case PQT_AK_DURATION:
      t->type = T_DURATION;
      t->a = unit_index(af.unit);
      break;
    case PQT_AK_INTERVAL:
      t->type = T_INTERVAL;
      t->a = af.unit == 'M' ? 0 : af.unit == 'D' ? 1 : 2;
      break;
    case PQT_AK_TIMESTAMP:
      t->type = T_TIMESTAMP;
      t->a = unit_index(af.unit);
      t->tz = af.tz;
      break;
    case PQT_AK_DECIMAL:
      t->type = T_DECIMAL;
      t->a = af.precision;
      t->b = af.scale;
      t->c = af.bit_width;
      break;
    case PQT_AK_FIXED_BINARY:
    case PQT_AK_FIXED_LIST:
      t->type = af.kind == PQT_AK_FIXED_BINARY ? T_FIXED_BINARY : T_FIXED_LIST;
      t->a = af.fixed_width;
      break;
    case PQT_AK_LIST: t->type = T_LIST; break;
    case PQT_AK_LARGE_LIST: t->type = T_LARGE_LIST; break;
    case PQT_AK_LIST_VIEW: t->type = T_LIST_VIEW; break;
    case PQT_AK_LARGE_LIST_VIEW: t->type = T_LARGE_LIST_VIEW; break;
    case PQT_AK_STRUCT: t->type = T_STRUCT; break;
    case PQT_AK_MAP: t->type = T_MAP; break;
    case PQT_AK_RUN_END: t->type = T_RUN_END; break;
    case PQT_AK_UNION:
      t->type = T_UNION;
      t->a = af.union_dense ? 1 : 0;
      t->n_ids = af.n_union_ids;
      memcpy(t->ids, af.union_ids, (size_t)af.n_union_ids * sizeof t->ids[0]);
      break;
    default: goto bad;
  }
  return PQT_OK;
bad:
  return pqt_error_set(err, PQT_EINVAL, "format string \"%.80s\" is not an Arrow type IPC can store", fm);
}

/* ==================================================================== */
/* FlatBuffers writer (front to back, offsets patched once the target is
 * written; targets always follow their offsets)                         */
/* ==================================================================== */

typedef struct fbw {
  pqt_buf *b;
  size_t base; /* the flatbuffer's first byte in b */
  pqt_error *err;
} fbw;

typedef struct wfield {
  uint8_t slot;
  uint8_t size; /* 1, 2, 4 or 8 */
  bool ref;     /* a u32 offset patched later */
  uint64_t v;
  size_t pos; /* filled by w_table: where the field landed */
} wfield;

static size_t w_pos(const fbw *w) { return w->b->len - w->base; }

static pqt_status w_pad(fbw *w, size_t align) {
  static const uint8_t zeros[8] = {0};
  size_t r = w_pos(w) % align;
  return r ? pqt_buf_append(w->b, zeros, align - r, w->err) : PQT_OK;
}

static pqt_status w_u32(fbw *w, uint32_t v) {
  uint8_t x[4];
  pqt_store_u32le(x, v);
  return pqt_buf_append(w->b, x, 4, w->err);
}

static void w_patch(fbw *w, size_t at, size_t target) {
  pqt_store_u32le(w->b->data + w->base + at, (uint32_t)(target - at));
}

/* vtable, then the table (aligned for its widest scalar). */
static pqt_status w_table(fbw *w, wfield *f, int n, size_t *tpos) {
  uint16_t off[8];
  size_t cur = 4, nslots = 0;
  bool has8 = false;
  for (int size = 8; size >= 1; size /= 2) {
    for (int i = 0; i < n; i++) {
      if (f[i].size != size) continue;
      cur = (cur + (size_t)size - 1) / (size_t)size * (size_t)size;
      off[i] = (uint16_t)cur;
      cur += (size_t)size;
      if (size == 8) has8 = true;
    }
  }
  for (int i = 0; i < n; i++)
    if ((size_t)f[i].slot + 1 > nslots) nslots = (size_t)f[i].slot + 1;
  uint8_t vt[4 + 2 * 16];
  size_t vtsize = 4 + 2 * nslots;
  memset(vt, 0, sizeof vt);
  vt[0] = (uint8_t)vtsize;
  vt[2] = (uint8_t)cur;
  vt[3] = (uint8_t)(cur >> 8);
  for (int i = 0; i < n; i++) {
    vt[4 + 2 * f[i].slot] = (uint8_t)off[i];
    vt[5 + 2 * f[i].slot] = (uint8_t)(off[i] >> 8);
  }
  PQT_RETURN_NOT_OK(w_pad(w, 2));
  size_t vpos = w_pos(w);
  PQT_RETURN_NOT_OK(pqt_buf_append(w->b, vt, vtsize, w->err));
  PQT_RETURN_NOT_OK(w_pad(w, has8 ? 8 : 4));
  size_t t = w_pos(w);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(w->b, cur, w->err));
  uint8_t *p = w->b->data + w->b->len;
  memset(p, 0, cur);
  pqt_store_u32le(p, (uint32_t)(t - vpos));
  for (int i = 0; i < n; i++) {
    uint64_t v = f[i].ref ? 0 : f[i].v;
    uint8_t le[8];
    pqt_store_u64le(le, v);
    memcpy(p + off[i], le, f[i].size);
    f[i].pos = t + off[i];
  }
  w->b->len += cur;
  *tpos = t;
  return PQT_OK;
}

static pqt_status w_string(fbw *w, const char *s, size_t *pos) {
  size_t n = s ? strlen(s) : 0;
  if (n > INT32_MAX) return pqt_error_set(w->err, PQT_EINVAL, "string too long");
  PQT_RETURN_NOT_OK(w_pad(w, 4));
  *pos = w_pos(w);
  PQT_RETURN_NOT_OK(w_u32(w, (uint32_t)n));
  PQT_RETURN_NOT_OK(pqt_buf_append(w->b, s ? s : "", n + 1, w->err));
  return PQT_OK;
}

/* A vector of n u32 slots (offsets or int32 values): *data = first slot. */
static pqt_status w_vector(fbw *w, uint32_t n, size_t *pos, size_t *data) {
  PQT_RETURN_NOT_OK(w_pad(w, 4));
  *pos = w_pos(w);
  PQT_RETURN_NOT_OK(w_u32(w, n));
  *data = w_pos(w);
  for (uint32_t i = 0; i < n; i++) PQT_RETURN_NOT_OK(w_u32(w, 0));
  return PQT_OK;
}

/* Write a string and point the offset at `at` to it. */
static pqt_status w_string_ref(fbw *w, size_t at, const char *s) {
  size_t pos = 0;
  PQT_RETURN_NOT_OK(w_string(w, s, &pos));
  w_patch(w, at, pos);
  return PQT_OK;
}

static pqt_status w_kv(fbw *w, size_t at, int32_t n, const char *const *k, const char *const *v) {
  size_t vpos, data;
  if (n < 0 || (n && (!k || !v)))
    return pqt_error_set(w->err, PQT_EINVAL, "bad custom metadata (%" PRId32 " pairs)", n);
  PQT_RETURN_NOT_OK(w_vector(w, (uint32_t)n, &vpos, &data));
  w_patch(w, at, vpos);
  for (int32_t i = 0; i < n; i++) {
    wfield f[2] = {{.slot = 0, .size = 4, .ref = true}, {.slot = 1, .size = 4, .ref = true}};
    size_t t;
    PQT_RETURN_NOT_OK(w_table(w, f, 2, &t));
    w_patch(w, data + 4 * (size_t)i, t);
    PQT_RETURN_NOT_OK(w_string_ref(w, f[0].pos, k[i]));
    PQT_RETURN_NOT_OK(w_string_ref(w, f[1].pos, v[i]));
  }
  return PQT_OK;
}

/* The Type member table. */
static pqt_status w_type(fbw *w, const ptype *pt, const pqt_arrow_field *fl, size_t *tpos) {
  wfield f[3];
  int n = 0;
  switch (pt->type) {
    case T_INT:
      f[n++] = (wfield){.slot = 0, .size = 4, .v = (uint32_t)pt->a};
      f[n++] = (wfield){.slot = 1, .size = 1, .v = (uint64_t)pt->b};
      break;
    case T_FLOAT:
    case T_DATE:
    case T_INTERVAL:
    case T_DURATION: f[n++] = (wfield){.slot = 0, .size = 2, .v = (uint16_t)pt->a}; break;
    case T_DECIMAL:
      f[n++] = (wfield){.slot = 0, .size = 4, .v = (uint32_t)pt->a};
      f[n++] = (wfield){.slot = 1, .size = 4, .v = (uint32_t)pt->b};
      f[n++] = (wfield){.slot = 2, .size = 4, .v = (uint32_t)pt->c};
      break;
    case T_TIME:
      f[n++] = (wfield){.slot = 0, .size = 2, .v = (uint16_t)pt->a};
      f[n++] = (wfield){.slot = 1, .size = 4, .v = (uint32_t)pt->b};
      break;
    case T_TIMESTAMP:
      f[n++] = (wfield){.slot = 0, .size = 2, .v = (uint16_t)pt->a};
      if (pt->tz) f[n++] = (wfield){.slot = 1, .size = 4, .ref = true};
      break;
    case T_UNION:
      f[n++] = (wfield){.slot = 0, .size = 2, .v = (uint16_t)pt->a};
      f[n++] = (wfield){.slot = 1, .size = 4, .ref = true};
      break;
    case T_FIXED_BINARY:
    case T_FIXED_LIST: f[n++] = (wfield){.slot = 0, .size = 4, .v = (uint32_t)pt->a}; break;
    case T_MAP: f[n++] = (wfield){.slot = 0, .size = 1, .v = fl->map_keys_sorted ? 1 : 0}; break;
    default: break;
  }
  PQT_RETURN_NOT_OK(w_table(w, f, n, tpos));
  if (pt->type == T_TIMESTAMP && pt->tz) PQT_RETURN_NOT_OK(w_string_ref(w, f[1].pos, pt->tz));
  if (pt->type == T_UNION) {
    size_t vpos, data;
    PQT_RETURN_NOT_OK(w_vector(w, (uint32_t)pt->n_ids, &vpos, &data));
    w_patch(w, f[1].pos, vpos);
    for (int32_t i = 0; i < pt->n_ids; i++)
      pqt_store_u32le(w->b->data + w->base + data + 4 * (size_t)i, (uint32_t)pt->ids[i]);
  }
  return PQT_OK;
}

static pqt_status w_fields(fbw *w, size_t at, const pqt_arrow_field *fs, int32_t n, int depth);

static pqt_status w_field(fbw *w, const pqt_arrow_field *fl, int depth, size_t *tpos) {
  pqt_error *err = w->err;
  if (strnlen(fl->format, sizeof fl->format) == sizeof fl->format)
    return pqt_error_set(err, PQT_EINVAL, "format not NUL-terminated");
  if (fl->n_children < 0 || (fl->n_children && !fl->children))
    return pqt_error_set(err, PQT_EINVAL, "bad children (%" PRId32 ")", fl->n_children);
  ptype pt;
  PQT_RETURN_NOT_OK(parse_format(fl->format, &pt, err));
  if (pt.type == T_UNION && pt.n_ids != fl->n_children)
    return pqt_error_set(err, PQT_EINVAL, "union format lists %" PRId32 " type ids for %" PRId32 " children", pt.n_ids,
                         fl->n_children);
  const char *problem = shape_problem(fl);
  if (problem) return pqt_error_set(err, PQT_EINVAL, "type %s: %s", fl->format, problem);
  ptype it = {0};
  if (fl->dictionary) {
    if (strnlen(fl->index_format, sizeof fl->index_format) == sizeof fl->index_format)
      return pqt_error_set(err, PQT_EINVAL, "index format not NUL-terminated");
    PQT_RETURN_NOT_OK(parse_format(fl->index_format, &it, err));
    if (it.type != T_INT)
      return pqt_error_set(err, PQT_EINVAL, "dictionary index type \"%s\" is not an integer", fl->index_format);
  }
  wfield f[7];
  int n = 0;
  f[n++] = (wfield){.slot = 0, .size = 4, .ref = true};                     /* name */
  f[n++] = (wfield){.slot = 1, .size = 1, .v = fl->nullable ? 1 : 0};       /* nullable */
  f[n++] = (wfield){.slot = 2, .size = 1, .v = pt.type};                    /* type_type */
  f[n++] = (wfield){.slot = 3, .size = 4, .ref = true};                     /* type */
  f[n++] = (wfield){.slot = 5, .size = 4, .ref = true};                     /* children */
  if (fl->dictionary) f[n++] = (wfield){.slot = 4, .size = 4, .ref = true}; /* dictionary */
  if (fl->n_metadata) f[n++] = (wfield){.slot = 6, .size = 4, .ref = true}; /* custom_metadata */
  PQT_RETURN_NOT_OK(w_table(w, f, n, tpos));
  PQT_RETURN_NOT_OK(w_string_ref(w, f[0].pos, fl->name));
  size_t t;
  PQT_RETURN_NOT_OK(w_type(w, &pt, fl, &t));
  w_patch(w, f[3].pos, t);
  int k = 5;
  if (fl->dictionary) {
    wfield d[3] = {{.slot = 0, .size = 8, .v = (uint64_t)fl->dictionary_id},
                   {.slot = 1, .size = 4, .ref = true},
                   {.slot = 2, .size = 1, .v = fl->dictionary_ordered ? 1 : 0}};
    PQT_RETURN_NOT_OK(w_table(w, d, 3, &t));
    w_patch(w, f[k++].pos, t);
    PQT_RETURN_NOT_OK(w_type(w, &it, fl, &t));
    w_patch(w, d[1].pos, t);
  }
  if (fl->n_metadata) PQT_RETURN_NOT_OK(w_kv(w, f[k].pos, fl->n_metadata, fl->meta_keys, fl->meta_values));
  return w_fields(w, f[4].pos, fl->children, fl->n_children, depth + 1);
}

static pqt_status w_fields(fbw *w, size_t at, const pqt_arrow_field *fs, int32_t n, int depth) {
  size_t vpos, data;
  if (n < 0 || (n && !fs)) return pqt_error_set(w->err, PQT_EINVAL, "bad field list (%" PRId32 ")", n);
  if (n && depth > PQT_ARROW_SCHEMA_MAX_DEPTH)
    return pqt_error_set(w->err, PQT_EINVAL, "fields nested deeper than %d levels", PQT_ARROW_SCHEMA_MAX_DEPTH);
  PQT_RETURN_NOT_OK(w_vector(w, (uint32_t)n, &vpos, &data));
  w_patch(w, at, vpos);
  for (int32_t i = 0; i < n; i++) {
    size_t t;
    pqt_status st = w_field(w, &fs[i], depth, &t);
    if (st != PQT_OK) {
      if (depth <= 8) pqt_error_prefix(w->err, "field %" PRId32 " \"%.64s\"", i, fs[i].name ? fs[i].name : "");
      return st;
    }
    w_patch(w, data + 4 * (size_t)i, t);
  }
  return PQT_OK;
}

pqt_status pqt_arrow_schema_encode_ipc(const pqt_arrow_schema *schema, pqt_buf *out, pqt_error *err) {
  if (!schema || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_arrow_schema_encode: bad argument");
  size_t start = out->len;
  /* prefix: continuation marker + length (patched) */
  PQT_RETURN_NOT_OK(pqt_buf_append(out, "\xff\xff\xff\xff\0\0\0\0", 8, err));
  fbw w = {out, out->len, err};
  pqt_status st;
  size_t mt, st_pos;
  st = w_u32(&w, 0); /* root offset */
  /* The prefix is 8 bytes, so positions relative to w.base keep the
   * alignment out->data gives (malloc: at least 8). */
  wfield m[4] = {{.slot = 0, .size = 2, .v = 4 /* V5 */},
                 {.slot = 1, .size = 1, .v = 1 /* Schema */},
                 {.slot = 2, .size = 4, .ref = true},
                 {.slot = 3, .size = 8, .v = 0 /* bodyLength */}};
  if (st == PQT_OK) st = w_table(&w, m, 4, &mt);
  if (st == PQT_OK) {
    w_patch(&w, 0, mt);
    wfield s[3] = {{.slot = 0, .size = 2, .v = schema->big_endian ? 1 : 0},
                   {.slot = 1, .size = 4, .ref = true},
                   {.slot = 2, .size = 4, .ref = true}};
    st = w_table(&w, s, schema->n_metadata ? 3 : 2, &st_pos);
    if (st == PQT_OK) {
      w_patch(&w, m[2].pos, st_pos);
      st = w_fields(&w, s[1].pos, schema->fields, schema->n_fields, 1);
    }
    if (st == PQT_OK && schema->n_metadata)
      st = w_kv(&w, s[2].pos, schema->n_metadata, schema->meta_keys, schema->meta_values);
  }
  if (st == PQT_OK) st = w_pad(&w, 8);
  if (st == PQT_OK && w_pos(&w) > INT32_MAX) st = pqt_error_set(err, PQT_EINVAL, "schema too large");
  if (st != PQT_OK) {
    out->len = start;
    return st;
  }
  pqt_store_u32le(out->data + start + 4, (uint32_t)w_pos(&w));
  return PQT_OK;
}

pqt_status pqt_arrow_schema_encode(const pqt_arrow_schema *schema, pqt_buf *base64_out, pqt_error *err) {
  if (!schema || !base64_out) return pqt_error_set(err, PQT_EINVAL, "pqt_arrow_schema_encode: bad argument");
  pqt_buf raw;
  pqt_buf_init(&raw, base64_out->alloc);
  pqt_status st = pqt_arrow_schema_encode_ipc(schema, &raw, err);
  if (st == PQT_OK) st = pqt_base64_append(base64_out, raw.data, raw.len, err);
  pqt_buf_free(&raw);
  return st;
}

pqt_status pqt_arrow_schema_encode_fields(const pqt_arrow_field *fields, int32_t n_fields, pqt_buf *base64_out,
                                          pqt_error *err) {
  pqt_arrow_schema s;
  memset(&s, 0, sizeof s);
  s.fields = (pqt_arrow_field *)fields;
  s.n_fields = n_fields;
  s.version = 4;
  return pqt_arrow_schema_encode(&s, base64_out, err);
}

/* ==================================================================== */
/* ArrowSchema -> field tree                                             */
/* ==================================================================== */

/* The C Data Interface metadata encoding: int32 count, then per pair an
 * int32 length and bytes for the key and the value (native endianness). */
static pqt_status c_metadata(pqt_arena *a, const char *md, int32_t *n_out, const char ***keys, const char ***values,
                             pqt_error *err) {
  *n_out = 0;
  if (!md) return PQT_OK;
  int32_t n;
  memcpy(&n, md, 4);
  md += 4;
  if (n < 0) return pqt_error_set(err, PQT_EINVAL, "ArrowSchema metadata: %" PRId32 " pairs", n);
  if (!n) return PQT_OK;
  const char **k = pqt_arena_array(a, (size_t)n, sizeof *k);
  const char **v = pqt_arena_array(a, (size_t)n, sizeof *v);
  if (!k || !v) return pqt_nomem(err);
  for (int32_t i = 0; i < n; i++) {
    for (int j = 0; j < 2; j++) {
      int32_t len;
      memcpy(&len, md, 4);
      md += 4;
      if (len < 0) return pqt_error_set(err, PQT_EINVAL, "ArrowSchema metadata: length %" PRId32, len);
      char *s = pqt_arena_strdup(a, md, (size_t)len);
      if (!s) return pqt_nomem(err);
      (j ? v : k)[i] = s;
      md += len;
    }
  }
  *n_out = n;
  *keys = k;
  *values = v;
  return PQT_OK;
}

static pqt_status c_format(char *dst, size_t cap, const char *src, pqt_error *err) {
  size_t n = strlen(src);
  if (n >= cap) return pqt_error_set(err, PQT_EINVAL, "format \"%.80s\" longer than %zu bytes", src, cap - 1);
  memcpy(dst, src, n + 1);
  return PQT_OK;
}

static pqt_status c_children(pqt_arena *a, const struct ArrowSchema *s, pqt_arrow_field **out, int32_t *n_out,
                             int depth, int64_t *next_id, pqt_error *err);

static pqt_status c_field(pqt_arena *a, const struct ArrowSchema *s, pqt_arrow_field *f, int depth, int64_t *next_id,
                          pqt_error *err) {
  if (!s || !s->format || !s->release)
    return pqt_error_set(err, PQT_EINVAL, "ArrowSchema is NULL, released or has no format");
  f->name = s->name ? s->name : "";
  f->nullable = (s->flags & ARROW_FLAG_NULLABLE) != 0;
  const struct ArrowSchema *vt = s;
  if (s->dictionary) {
    vt = s->dictionary;
    if (!vt->format || !vt->release)
      return pqt_error_set(err, PQT_EINVAL, "dictionary ArrowSchema released or without format");
    if (vt->dictionary)
      return pqt_error_set(err, PQT_EINVAL, "a dictionary whose values are dictionary-encoded cannot be stored in IPC");
    f->dictionary = true;
    f->dictionary_ordered = (s->flags & ARROW_FLAG_DICTIONARY_ORDERED) != 0;
    f->dictionary_id = (*next_id)++;
    PQT_RETURN_NOT_OK(c_format(f->index_format, sizeof f->index_format, s->format, err));
  }
  PQT_RETURN_NOT_OK(c_format(f->format, sizeof f->format, vt->format, err));
  f->map_keys_sorted = strcmp(f->format, "+m") == 0 && (vt->flags & ARROW_FLAG_MAP_KEYS_SORTED);
  PQT_RETURN_NOT_OK(c_metadata(a, s->metadata, &f->n_metadata, &f->meta_keys, &f->meta_values, err));
  return c_children(a, vt, &f->children, &f->n_children, depth + 1, next_id, err);
}

static pqt_status c_children(pqt_arena *a, const struct ArrowSchema *s, pqt_arrow_field **out, int32_t *n_out,
                             int depth, int64_t *next_id, pqt_error *err) {
  *out = NULL;
  *n_out = 0;
  if (s->n_children < 0 || s->n_children > INT32_MAX || (s->n_children && !s->children))
    return pqt_error_set(err, PQT_EINVAL, "ArrowSchema with %" PRId64 " children", s->n_children);
  if (!s->n_children) return PQT_OK;
  if (depth > PQT_ARROW_SCHEMA_MAX_DEPTH)
    return pqt_error_set(err, PQT_EINVAL, "ArrowSchema nested deeper than %d levels (cyclic?)",
                         PQT_ARROW_SCHEMA_MAX_DEPTH);
  pqt_arrow_field *fs = pqt_arena_array(a, (size_t)s->n_children, sizeof *fs);
  if (!fs) return pqt_nomem(err);
  for (int64_t i = 0; i < s->n_children; i++) {
    pqt_status st = c_field(a, s->children[i], &fs[i], depth, next_id, err);
    if (st != PQT_OK) {
      if (depth <= 8) pqt_error_prefix(err, "child %" PRId64, i);
      return st;
    }
  }
  *out = fs;
  *n_out = (int32_t)s->n_children;
  return PQT_OK;
}

pqt_status pqt_arrow_schema_encode_from_c(const struct ArrowSchema *schema, pqt_buf *base64_out, pqt_error *err) {
  if (!schema || !base64_out || !schema->release || !schema->format)
    return pqt_error_set(err, PQT_EINVAL, "pqt_arrow_schema_encode_from_c: bad argument");
  if (strcmp(schema->format, "+s") != 0 || schema->dictionary)
    return pqt_error_set(err, PQT_EINVAL, "the top-level ArrowSchema must be a struct (\"+s\"), not \"%.32s\"",
                         schema->format);
  pqt_arena a;
  pqt_arena_init(&a, base64_out->alloc);
  pqt_arrow_schema s;
  memset(&s, 0, sizeof s);
  s.version = 4;
  int64_t next_id = 0;
  pqt_status st = c_metadata(&a, schema->metadata, &s.n_metadata, &s.meta_keys, &s.meta_values, err);
  if (st == PQT_OK) st = c_children(&a, schema, &s.fields, &s.n_fields, 1, &next_id, err);
  if (st == PQT_OK) st = pqt_arrow_schema_encode(&s, base64_out, err);
  pqt_arena_reset(&a);
  return st;
}

/* ==================================================================== */
/* Equality                                                              */
/* ==================================================================== */

static bool str_eq(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : "") == 0; }

static bool kv_eq(int32_t na, const char *const *ka, const char *const *va, int32_t nb, const char *const *kb,
                  const char *const *vb) {
  if (na != nb) return false;
  for (int32_t i = 0; i < na; i++)
    if (!str_eq(ka[i], kb[i]) || !str_eq(va[i], vb[i])) return false;
  return true;
}

bool pqt_arrow_field_equal(const pqt_arrow_field *a, const pqt_arrow_field *b) {
  if (!str_eq(a->name, b->name) || a->nullable != b->nullable || strncmp(a->format, b->format, sizeof a->format) != 0 ||
      a->dictionary != b->dictionary || a->map_keys_sorted != b->map_keys_sorted)
    return false;
  if (a->dictionary && (strncmp(a->index_format, b->index_format, sizeof a->index_format) != 0 ||
                        a->dictionary_ordered != b->dictionary_ordered || a->dictionary_id != b->dictionary_id))
    return false;
  if (!kv_eq(a->n_metadata, a->meta_keys, a->meta_values, b->n_metadata, b->meta_keys, b->meta_values)) return false;
  return pqt_arrow_fields_equal(a->children, a->n_children, b->children, b->n_children);
}

bool pqt_arrow_fields_equal(const pqt_arrow_field *a, int32_t na, const pqt_arrow_field *b, int32_t nb) {
  if (na != nb) return false;
  for (int32_t i = 0; i < na; i++)
    if (!pqt_arrow_field_equal(&a[i], &b[i])) return false;
  return true;
}
