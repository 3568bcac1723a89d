/*
 * thrift/codec.h: a table-driven decoder, encoder, JSON dumper and deep
 * comparison for Thrift structs described by pqt_thrift_desc tables
 * (the parquet.thrift tables are in thrift/parquet_desc.h).
 *
 * Decoding policy (the same for every field of every struct):
 *   - Unknown field ids are skipped (any type, up to the depth limit).
 *   - A known field whose wire type does not match its descriptor is
 *     skipped as if unknown, as Apache Thrift's generated readers (used by
 *     Arrow C++ and parquet-java) do. If that field is required, the decode
 *     then fails with "required field missing". A list whose element type
 *     does not match is handled the same way.
 *   - Required fields must be present: PQT_ECORRUPT naming struct and field.
 *   - Unions: exactly one member must be on the wire (zero or two or more
 *     is PQT_ECORRUPT). A member id this version does not know is skipped
 *     and leaves isset == 0 (forward compatibility).
 *   - A field that appears twice: the last occurrence wins.
 *   - Enums are stored as raw int32 and never range-checked here.
 *   - binary/string values are pqt_bytes views into the input buffer.
 *   - Lists are allocated in the caller's arena only after their count was
 *     found plausible (compact.h); a big struct list starts with 64 KiB of
 *     elements and is then sized for its whole count only when the input
 *     left can hold the rest at the rate the decoded elements took (and the
 *     budget below allows), else it grows geometrically as elements are
 *     actually decoded, so a claimed count never drives a large allocation
 *     by itself; the total bytes of decoded lists are capped by
 *     pqt_thrift_limits.max_alloc_bytes (default 64 x input length + 1 MiB,
 *     PQT_ELIMIT beyond), so a hostile input cannot make the decoder
 *     allocate much more than it is long. Decoding a struct without lists (PageHeader) needs
 *     no arena (pass NULL) and allocates nothing.
 *   - Defaults: DataPageHeaderV2.is_compressed reads as true when absent
 *     (its isset bit stays clear, so re-encoding keeps it absent).
 *
 * Encoding writes set fields in id order; a required field that is not set
 * is PQT_EINVAL. A union value with no known member (isset == 0) used as a
 * field is left out of the encoding.
 */
#ifndef PQT_THRIFT_CODEC_H
#define PQT_THRIFT_CODEC_H

#include "core/core.h"
#include "thrift/compact.h"
#include "thrift/parquet_types.h"

/* Storage kinds (what the C member is). */
enum {
  PQT_TK_BOOL = 1,
  PQT_TK_I8,
  PQT_TK_I16,
  PQT_TK_I32,
  PQT_TK_I64,
  PQT_TK_DOUBLE,
  PQT_TK_BINARY, /* pqt_bytes, JSON base64 */
  PQT_TK_STRING, /* pqt_bytes, JSON string */
  PQT_TK_ENUM,   /* int32_t, JSON enum name */
  PQT_TK_STRUCT, /* struct or union described by `sub` */
  PQT_TK_LIST    /* {items, n}; element kind in `elem` */
};

/* Field flags. */
enum {
  PQT_TF_REQUIRED = 1,
  PQT_TF_DEFAULT_TRUE = 2 /* bool: reads as true when absent */
};

#define PQT_TF_NO_STORAGE (-1) /* empty-struct member: nothing stored */

typedef struct pqt_thrift_enum {
  const char *name;         /* Thrift enum name, e.g. "Encoding" */
  const char *const *names; /* names[value], NULL for holes */
  int32_t count;
} pqt_thrift_enum;

struct pqt_thrift_desc;

typedef struct pqt_thrift_field {
  const char *name; /* exactly as in parquet.thrift */
  int16_t id;
  uint8_t kind;                      /* PQT_TK_* */
  uint8_t elem;                      /* for PQT_TK_LIST: the element kind */
  uint8_t flags;                     /* PQT_TF_* */
  int32_t offset;                    /* offsetof in the C struct, or PQT_TF_NO_STORAGE */
  const struct pqt_thrift_desc *sub; /* struct/union (field or element) */
  const pqt_thrift_enum *en;         /* enum (field or element) */
} pqt_thrift_field;

typedef struct pqt_thrift_desc {
  const char *name;               /* Thrift struct name, e.g. "FileMetaData" */
  const pqt_thrift_field *fields; /* sorted by id */
  uint16_t n_fields;
  uint8_t is_union;
  uint32_t size; /* sizeof the C struct; 0 for storage-less empty structs */
} pqt_thrift_desc;

/* Decode one struct from buf[0..len). *consumed (may be NULL) gets the
 * number of bytes it occupied. `out` (d->size bytes) is zeroed first. arena
 * holds lists; it may be NULL when no non-empty list is met (else
 * PQT_EINVAL). On error the contents of out are unspecified but safe to
 * ignore (arena memory is not leaked: it belongs to the arena). */
pqt_status pqt_thrift_decode(const pqt_thrift_desc *d, const uint8_t *buf, size_t len, size_t *consumed,
                             pqt_arena *arena, void *out, pqt_error *err);
/* The same with explicit limits (NULL = defaults). */
pqt_status pqt_thrift_decode_ex(const pqt_thrift_desc *d, const uint8_t *buf, size_t len, size_t *consumed,
                                pqt_arena *arena, const pqt_thrift_limits *limits, void *out, pqt_error *err);

/* Append the compact encoding of `in` to out. */
pqt_status pqt_thrift_encode(const pqt_thrift_desc *d, const void *in, pqt_buf *out, pqt_error *err);

/* Append a JSON rendering of `in` to out: keys are the Thrift field names,
 * enums their Thrift names (an integer when out of range), binary fields
 * base64 strings, string fields JSON strings, unions {"MEMBER": {...}}
 * ({} when no known member), doubles as numbers ("NaN"/"Infinity"/
 * "-Infinity" as strings). indent 0 = one line; indent > 0 = pretty-printed
 * with that many spaces per level. */
pqt_status pqt_thrift_to_json(const pqt_thrift_desc *d, const void *in, int indent, pqt_buf *out, pqt_error *err);

/* Deep comparison of two decoded structs (isset bits, values, bytes by
 * content, lists element-wise). */
bool pqt_thrift_equal(const pqt_thrift_desc *d, const void *a, const void *b);

/* Find a field descriptor by id (NULL when unknown). */
const pqt_thrift_field *pqt_thrift_find_field(const pqt_thrift_desc *d, int16_t id);

/* Name of an enum value, or NULL when out of range / a hole. */
static inline const char *pqt_thrift_enum_name(const pqt_thrift_enum *e, int32_t v) {
  return (v >= 0 && v < e->count) ? e->names[v] : NULL;
}

#endif /* PQT_THRIFT_CODEC_H */
