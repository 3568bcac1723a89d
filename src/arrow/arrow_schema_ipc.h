/*
 * arrow/arrow_schema_ipc.h: the "ARROW:schema" key-value metadata that
 * Arrow-based writers (Arrow C++/pyarrow, arrow-rs, DuckDB) store in the
 * Parquet footer: the base64 text of an encapsulated Arrow IPC Schema
 * message (0xFFFFFFFF continuation marker, 4-byte little-endian metadata
 * length, then a FlatBuffers `Message` table, format/Message.fbs, whose
 * header is a `Schema`, format/Schema.fbs).
 *
 * Decoding turns that text into a tree of fields whose types are written as
 * Arrow C Data Interface format strings ("u", "tsu:America/New_York",
 * "+w:3", "d:38,10"...). Every byte is untrusted: a bounds-checked
 * FlatBuffers reader validates each offset, length, vtable and union before
 * use, nesting is limited to PQT_ARROW_SCHEMA_MAX_DEPTH and the total number
 * of decoded items to what the message size can hold (shared subtrees
 * cannot blow up), and a malformed message gets PQT_ECORRUPT (an unknown
 * Type union member or a pre-V4 message: PQT_EUNSUPPORTED).
 *
 * Encoding writes the message as Arrow C++ does (continuation marker,
 * length padded to 8, Message with version V5 and a Schema header, scalars
 * aligned as the FlatBuffers verifier requires), from a field tree or from
 * an ArrowSchema (a "+s" struct whose children are the columns).
 */
#ifndef PQT_ARROW_ARROW_SCHEMA_IPC_H
#define PQT_ARROW_ARROW_SCHEMA_IPC_H

#include "core/core.h"
#include "parquetry_arrow.h"

#define PQT_ARROW_SCHEMA_KEY "ARROW:schema"
/* Deepest field nesting accepted in either direction. */
#define PQT_ARROW_SCHEMA_MAX_DEPTH 64

typedef struct pqt_arrow_field {
  const char *name; /* never NULL after decode ("" when the message has none) */
  bool nullable;
  /* Arrow C Data Interface format string, e.g. "u", "U",
   * "tsu:America/New_York", "tDs", "+L", "w:16", "+w:3", "d:38,10", "tdm".
   * For a dictionary field this is the value type. */
  char format[64];
  bool dictionary;
  char index_format[8]; /* dictionary fields: the index type ("i", "l", "C"...) */
  int32_t n_children;
  struct pqt_arrow_field *children;
  int32_t n_metadata; /* custom_metadata (e.g. ARROW:extension:name) */
  const char **meta_keys;
  const char **meta_values;
  /* Beyond the format string: */
  bool dictionary_ordered; /* DictionaryEncoding.isOrdered */
  int64_t dictionary_id;   /* DictionaryEncoding.id */
  bool map_keys_sorted;    /* Map.keysSorted ("+m" only) */
} pqt_arrow_field;

/* The whole Schema: its fields plus schema-level metadata. */
typedef struct pqt_arrow_schema {
  int32_t n_fields;
  pqt_arrow_field *fields;
  int32_t n_metadata;
  const char **meta_keys;
  const char **meta_values;
  bool big_endian; /* Schema.endianness == Big */
  int16_t version; /* Message.version (4 = V5) */
} pqt_arrow_schema;

/* Decode the base64 text of an ARROW:schema value (len bytes, no NUL
 * needed). Everything (strings included) is allocated in arena and lives
 * until the arena is reset. Standard alphabet; padding optional. */
pqt_status pqt_arrow_schema_decode(const char *base64, size_t len, pqt_arena *arena, pqt_arrow_field **fields,
                                   int32_t *n_fields, pqt_error *err);
/* The same with schema-level metadata, endianness and version. */
pqt_status pqt_arrow_schema_decode_ex(const char *base64, size_t len, pqt_arena *arena, pqt_arrow_schema *out,
                                      pqt_error *err);
/* Decode the raw (already base64-decoded) IPC bytes. Accepted framings:
 * continuation marker + length + Message; the pre-0.15 4-byte length +
 * Message; the bare Message flatbuffer. */
pqt_status pqt_arrow_schema_decode_ipc(const uint8_t *data, size_t len, pqt_arena *arena, pqt_arrow_schema *out,
                                       pqt_error *err);

/* Append to out the encapsulated IPC Schema message (raw bytes). Field
 * formats are validated (PQT_EINVAL for a malformed tree). */
pqt_status pqt_arrow_schema_encode_ipc(const pqt_arrow_schema *schema, pqt_buf *out, pqt_error *err);
/* Append to base64_out the base64 text of that message: the ARROW:schema value. */
pqt_status pqt_arrow_schema_encode(const pqt_arrow_schema *schema, pqt_buf *base64_out, pqt_error *err);
pqt_status pqt_arrow_schema_encode_fields(const pqt_arrow_field *fields, int32_t n_fields, pqt_buf *base64_out,
                                          pqt_error *err);
/* From an ArrowSchema: a struct ("+s") whose children are the columns; its
 * metadata becomes the schema's custom_metadata. Dictionary fields take
 * their value type from schema->dictionary and get ids 0, 1, ... in
 * pre-order. */
pqt_status pqt_arrow_schema_encode_from_c(const struct ArrowSchema *schema, pqt_buf *base64_out, pqt_error *err);

/* Deep equality of two fields / two field lists (names, types, flags,
 * dictionary, metadata, children). */
bool pqt_arrow_field_equal(const pqt_arrow_field *a, const pqt_arrow_field *b);
bool pqt_arrow_fields_equal(const pqt_arrow_field *a, int32_t na, const pqt_arrow_field *b, int32_t nb);

/* base64: pqt_base64_decode / pqt_base64_append in core/core.h */

#endif /* PQT_ARROW_ARROW_SCHEMA_IPC_H */
