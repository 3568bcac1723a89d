/*
 * variant/variant.h: the Variant binary encoding inside the library
 * (parquet-format VariantEncoding.md, "Metadata encoding" and "Value
 * encoding"). The public API is include/parquetry_variant.h; this header
 * gives the other layers (shredding, JSON text) the parsed views.
 */
#ifndef PQT_VARIANT_VARIANT_H
#define PQT_VARIANT_VARIANT_H

#include "core/core.h"
#include "parquetry_variant.h"

/* The metadata's dictionary, parsed (offsets and sizes checked). */
typedef struct pqt_vmeta {
  uint32_t dict_size;
  unsigned offset_size; /* 1..4 */
  bool sorted;
  const uint8_t *offsets; /* dict_size + 1 entries of offset_size bytes */
  const uint8_t *bytes;   /* the strings */
  size_t bytes_len;
} pqt_vmeta;

pqt_status pqt_vmeta_parse(const uint8_t *p, size_t n, pqt_vmeta *m, pqt_error *err);
/* Dictionary string id (checked against the dictionary and its bounds). */
pqt_status pqt_vmeta_key(const pqt_vmeta *m, uint32_t id, const uint8_t **s, size_t *len, pqt_error *err);

/* An object or array value, its header parsed. */
typedef struct pqt_vcont {
  bool is_object;
  uint32_t n;             /* fields or elements */
  unsigned id_size;       /* objects: bytes per field id */
  unsigned offset_size;   /* bytes per field offset */
  const uint8_t *ids;     /* objects: n field ids */
  const uint8_t *offsets; /* n + 1 offsets */
  const uint8_t *fields;  /* the values' bytes */
  size_t fields_len;      /* = the last offset */
} pqt_vcont;

/* The size of the value starting at p (at most n bytes available): its
 * header and, for containers, the offset table and last offset checked. */
pqt_status pqt_vvalue_size(const uint8_t *p, size_t n, size_t *size, pqt_error *err);
pqt_status pqt_vcont_open(const uint8_t *p, size_t n, pqt_vcont *c, pqt_error *err);
/* Child i of a container: its bytes (exactly its size). */
pqt_status pqt_vcont_child(const pqt_vcont *c, uint32_t i, const uint8_t **p, size_t *n, pqt_error *err);
/* Objects: the field id of field i. */
uint32_t pqt_vcont_field_id(const pqt_vcont *c, uint32_t i);

/* Validation for reading: pqt_variant_validate's checks, except that an
 * object whose field ids are not in name order (DuckDB 1.5 writes them so)
 * is accepted when its names are unique; *unsorted says whether one was
 * seen. pqt_variant_validate, which writers use, refuses such objects. */
pqt_status pqt_variant_validate_read(const pqt_variant *v, bool *unsorted, pqt_error *err);
/* Put every object's field ids (and offsets) in name order, in place; the
 * value (validated by pqt_variant_validate_read) keeps its size and its
 * metadata. The result passes pqt_variant_validate and equals the value;
 * a value whose bytes overlap so that reordering would change it is
 * refused (PQT_ECORRUPT) and left as it was. */
pqt_status pqt_variant_sort_fields(const uint8_t *metadata, size_t metadata_len, uint8_t *value, size_t value_len,
                                   pqt_error *err);

/* Append v as JSON text (variant_json.c). */
pqt_status pqt_variant_json_append(const pqt_variant *v, pqt_buf *out, pqt_error *err);

static inline uint32_t pqt_vload(const uint8_t *p, unsigned size) {
  uint32_t v = 0;
  for (unsigned i = 0; i < size; i++) v |= (uint32_t)p[i] << (8 * i);
  return v;
}

#endif
