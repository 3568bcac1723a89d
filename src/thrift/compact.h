/*
 * thrift/compact.h: the Thrift compact protocol (Apache Thrift,
 * doc/specs/thrift-compact-protocol.md), which is how parquet.thrift
 * structures are serialized in a Parquet file (parquet-format README.md, "Metadata").
 *
 * Reader: a sticky-error cursor over an untrusted buffer. Every primitive
 * read checks bounds; on the first error the reader records it (status and
 * message) and every later read returns 0 without touching memory, so
 * parsing code may run straight on and check `r->status` at convenient
 * points. Nothing here allocates.
 *
 * Writer: appends to a pqt_buf, also with a sticky error (out of memory).
 *
 * Wire facts this module relies on:
 *   - i16/i32/i64 are zigzag ULEB128 varints; a varint is at most 10 bytes.
 *     i32/i16 values that do not fit their type are corrupt.
 *   - i8 is one raw byte, double 8 bytes little-endian.
 *   - binary/string: varint length (must fit int32), then the bytes.
 *   - Field header: one byte, high nibble = id delta (1..15), low nibble =
 *     type; delta 0 means a zigzag i16 field id follows (the long form).
 *     A bool field carries its value in the type nibble (1 true, 2 false)
 *     and has no payload.
 *   - list/set header: one byte, high nibble = size (0..14) and low nibble =
 *     element type; size nibble 15 means a varint size follows.
 *     Bool elements are one byte each (1 true; 2, or 0 from some writers,
 *     false). Element type 1 or 2 both mean bool.
 *   - map header: a varint size; 0 means an empty map with no type byte,
 *     otherwise one byte (key type << 4 | value type) follows.
 *
 * Plausibility of counts: in the compact protocol every list element takes
 * at least one byte (a bool is one byte, an empty struct is its STOP byte, an
 * empty list its header byte, a binary its length byte), a double takes 8
 * and a map entry at least the sum of its key and value minimums. So a
 * claimed count is rejected as corrupt when count * minimum > remaining
 * bytes, before anything is allocated from it. There is no zero-byte
 * element, which is why no element type is exempt.
 */
#ifndef PQT_THRIFT_COMPACT_H
#define PQT_THRIFT_COMPACT_H

#include "core/core.h"
#include "thrift/parquet_types.h"

/* Compact-protocol wire types (the low nibble of a field header). */
enum {
  PQT_TW_STOP = 0,
  PQT_TW_TRUE = 1,  /* bool field with value true; also "bool" as element type */
  PQT_TW_FALSE = 2, /* bool field with value false */
  PQT_TW_I8 = 3,
  PQT_TW_I16 = 4,
  PQT_TW_I32 = 5,
  PQT_TW_I64 = 6,
  PQT_TW_DOUBLE = 7,
  PQT_TW_BINARY = 8,
  PQT_TW_LIST = 9,
  PQT_TW_SET = 10,
  PQT_TW_MAP = 11,
  PQT_TW_STRUCT = 12
};

/* Resource limits for decoding untrusted Thrift. Exceeding one gives
 * PQT_ELIMIT (while impossible values, e.g. a count larger than the bytes
 * left, give PQT_ECORRUPT). A zero member means "use the default". */
typedef struct pqt_thrift_limits {
  int32_t max_depth;           /* nesting of structs/lists/maps; default 64 */
  int64_t max_string_bytes;    /* one binary/string; default 100,000,000 */
  int64_t max_container_elems; /* one list/set/map; default 10,000,000 */
  /* Bytes of decoded lists one decode may take from the arena. A C struct
   * can be far larger than its smallest encoding (a ColumnChunk is ~520
   * bytes in memory and can be 3 bytes on the wire), so a hostile footer
   * could otherwise make the decoder allocate ~170x its size. Default:
   * 64 * input length + 1 MiB (real footers stay well below 25x). */
  int64_t max_alloc_bytes;
} pqt_thrift_limits;

#define PQT_THRIFT_DEFAULT_MAX_DEPTH           64
#define PQT_THRIFT_DEFAULT_MAX_STRING_BYTES    100000000
#define PQT_THRIFT_DEFAULT_MAX_CONTAINER_ELEMS 10000000

/* ---- reader ---------------------------------------------------------- */

typedef struct pqt_tcr {
  const uint8_t *begin;
  const uint8_t *p;
  const uint8_t *end;
  pqt_status status; /* sticky: PQT_OK until the first error */
  pqt_error *err;
  int32_t max_depth;
  int64_t max_string_bytes;
  int64_t max_container_elems;
} pqt_tcr;

/* Start reading buf[0..len). lim may be NULL (defaults). */
void pqt_tcr_init(pqt_tcr *r, const uint8_t *buf, size_t len, const pqt_thrift_limits *lim, pqt_error *err);

/* Record an error (only the first one sticks); returns r->status. The
 * message is prefixed with "thrift at byte N: ". */
pqt_status pqt_tcr_fail(pqt_tcr *r, pqt_status code, const char *fmt, ...) PQT_PRINTF(3, 4);

static inline size_t pqt_tcr_offset(const pqt_tcr *r) { return (size_t)(r->p - r->begin); }
static inline size_t pqt_tcr_remaining(const pqt_tcr *r) { return (size_t)(r->end - r->p); }

uint64_t pqt_tcr_varint_slow(pqt_tcr *r);

/* Unsigned LEB128 varint, at most 10 bytes. */
static inline uint64_t pqt_tcr_varint(pqt_tcr *r) {
  if (PQT_LIKELY(r->p < r->end && *r->p < 0x80)) return *r->p++;
  return pqt_tcr_varint_slow(r);
}

/* zigzag: pqt_zigzag_decode64 / pqt_zigzag_encode64 in core/core.h */

/* Single-byte read; 0 at end of input (and sets the error). */
static inline uint8_t pqt_tcr_byte(pqt_tcr *r) {
  if (PQT_LIKELY(r->p < r->end)) return *r->p++;
  pqt_tcr_fail(r, PQT_ECORRUPT, "truncated input");
  return 0;
}

int8_t pqt_tcr_i8(pqt_tcr *r);
int16_t pqt_tcr_i16(pqt_tcr *r);
int32_t pqt_tcr_i32_slow(pqt_tcr *r);
static inline int32_t pqt_tcr_i32(pqt_tcr *r) {
  if (PQT_LIKELY(r->p < r->end && *r->p < 0x80)) {
    uint32_t v = *r->p++;
    return (int32_t)((v >> 1) ^ (~(v & 1) + 1));
  }
  return pqt_tcr_i32_slow(r);
}
static inline int64_t pqt_tcr_i64(pqt_tcr *r) { return pqt_zigzag_decode64(pqt_tcr_varint(r)); }
double pqt_tcr_double(pqt_tcr *r);
/* A bool stored as a list/set/map element (one byte). */
bool pqt_tcr_bool_elem(pqt_tcr *r);
/* binary/string: a view into the input buffer. */
pqt_bytes pqt_tcr_binary(pqt_tcr *r);

/* Read a field header. Returns the wire type (PQT_TW_STOP at the end of the
 * struct, also on error) and sets *id; *last_id is the previous field id of
 * this struct (start at 0) and is updated. Invalid types are corrupt. */
int pqt_tcr_field_begin_slow(pqt_tcr *r, int16_t *last_id, int16_t *id);
static inline int pqt_tcr_field_begin(pqt_tcr *r, int16_t *last_id, int16_t *id) {
  /* fast path: a short-form header with a valid type and a small id */
  if (PQT_LIKELY(r->p < r->end)) {
    uint8_t b = *r->p;
    int type = b & 0x0f, delta = b >> 4;
    if (PQT_LIKELY(delta && type <= PQT_TW_STRUCT && *last_id < 32000)) {
      r->p++;
      *id = (int16_t)(*last_id + delta);
      *last_id = *id;
      return type;
    }
  }
  return pqt_tcr_field_begin_slow(r, last_id, id);
}

/* Read a list/set header: element wire type (bool normalized to
 * PQT_TW_TRUE) and size, checked against the remaining bytes and the
 * container limit. On error returns false and *n = 0. */
bool pqt_tcr_list_begin(pqt_tcr *r, int *elem_type, int32_t *n);
/* Read a map header; key and value types are 0 for an empty map. */
bool pqt_tcr_map_begin(pqt_tcr *r, int *ktype, int *vtype, int32_t *n);

/* Minimum bytes a value of this wire type occupies as a container element. */
size_t pqt_tcr_min_elem_bytes(int type);

/* Skip one value of wire type `type`. `in_container` is true for list/map
 * elements (where a bool is one byte); false for struct fields (where the
 * bool lives in the header). `depth` is the nesting depth of the value's
 * container (the enclosing struct is at depth >= 1). */
void pqt_tcr_skip(pqt_tcr *r, int type, bool in_container, int depth);

/* ---- writer ---------------------------------------------------------- */

typedef struct pqt_tcw {
  pqt_buf *out;
  pqt_status status; /* sticky */
  pqt_error *err;
} pqt_tcw;

void pqt_tcw_init(pqt_tcw *w, pqt_buf *out, pqt_error *err);
void pqt_tcw_byte(pqt_tcw *w, uint8_t b);
void pqt_tcw_varint(pqt_tcw *w, uint64_t v);
void pqt_tcw_i8(pqt_tcw *w, int8_t v);
void pqt_tcw_i16(pqt_tcw *w, int16_t v);
void pqt_tcw_i32(pqt_tcw *w, int32_t v);
void pqt_tcw_i64(pqt_tcw *w, int64_t v);
void pqt_tcw_double(pqt_tcw *w, double v);
void pqt_tcw_binary(pqt_tcw *w, const uint8_t *p, size_t n);
void pqt_tcw_bool_elem(pqt_tcw *w, bool v);
/* Field header (short form when 0 < id - *last_id <= 15, else long form).
 * For a bool field pass type PQT_TW_TRUE or PQT_TW_FALSE as the value. */
void pqt_tcw_field_begin(pqt_tcw *w, int type, int16_t id, int16_t *last_id);
static inline void pqt_tcw_stop(pqt_tcw *w) { pqt_tcw_byte(w, PQT_TW_STOP); }
void pqt_tcw_list_begin(pqt_tcw *w, int elem_type, int32_t n);
void pqt_tcw_map_begin(pqt_tcw *w, int ktype, int vtype, int32_t n);

#endif /* PQT_THRIFT_COMPACT_H */
