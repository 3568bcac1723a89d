/*
 * meta/schema.h: the schema tree of a Parquet file.
 *
 * Spec: file format "Metadata" (SchemaElement list, depth-first, num_children)
 * and "Nested Encoding" (definition/repetition levels) in parquet-format README.md; logical
 * types, the LogicalType <-> ConvertedType compatibility tables, LIST/MAP and
 * their backward-compatibility rules in parquet-format LogicalTypes.md; VECTOR as in the
 * parquet.thrift this project targets (FieldRepetitionType.VECTOR = 3,
 * LogicalType.VECTOR = 19, SchemaElement.vector_length = 11; draft
 * apache/parquet-format#592).
 *
 * Three parts:
 *   schema.c        pqt_schema_build: flat element list -> validated tree with
 *                   levels, leaf columns and LIST/MAP resolution.
 *   schema_types.c  LogicalType <-> ConvertedType mapping and the check of an
 *                   annotation against a physical type.
 *   schema_text.c   the message syntax: print a tree, parse text back into a
 *                   flat element list.
 *
 * Reading policy (documented decisions):
 *   - Structure errors are PQT_ECORRUPT with a message naming the element
 *     index and name: bad num_children (negative, more than remain, leftover
 *     elements), missing name, non-root element without a valid repetition,
 *     leaf with a physical type out of range, FIXED_LEN_BYTE_ARRAY without a
 *     positive type_length, VECTOR repetition without a positive
 *     vector_length, non-root group with no children.
 *   - Nesting deeper than PQT_SCHEMA_MAX_DEPTH is PQT_ELIMIT. Nothing here
 *     recurses; depth is only bounded to keep levels in int16 and paths small.
 *   - The root may carry a repetition_type (some writers set it): it is
 *     ignored and never counts in levels. A root with zero children is a
 *     valid, empty schema.
 *   - An element with num_children > 0 is a group even if it also has a type
 *     (the type is ignored, as Arrow does). An element with no num_children
 *     (or 0) is a leaf and must have a type.
 *   - Names may be empty and may hold any bytes; they are copied into the
 *     arena with a terminating NUL (name_len keeps the true length).
 *   - Annotations are read leniently: a LogicalType (or ConvertedType) that
 *     does not fit the physical type is dropped (node->annotation_invalid is
 *     set) and the column is read as its physical type, as Arrow does. An
 *     invalid LogicalType falls back to the ConvertedType when that one is
 *     valid. A LogicalType union member this version does not know is
 *     treated as absent (the ConvertedType, if any, applies). A LIST/MAP annotation on a group whose shape does not fit
 * is ignored: the group reads as a struct.
 */
#ifndef PQT_META_SCHEMA_H
#define PQT_META_SCHEMA_H

#include "core/core.h"
#include "thrift/parquet_types.h"

/* Deepest nesting accepted (root = depth 0). */
#define PQT_SCHEMA_MAX_DEPTH 256
/* Most bytes the leaf paths (name arrays + dotted strings) may take. */
#define PQT_SCHEMA_MAX_PATH_BYTES ((size_t)64 << 20)

/* What a node's content is, ignoring its own repetition. */
typedef enum pqt_node_kind {
  PQT_NODE_PRIMITIVE = 0, /* leaf column */
  PQT_NODE_STRUCT = 1,    /* group */
  PQT_NODE_LIST = 2,      /* LIST-annotated group with a valid shape */
  PQT_NODE_MAP = 3,       /* MAP (or stray MAP_KEY_VALUE) group with a valid shape */
  PQT_NODE_VECTOR = 4     /* VECTOR-annotated group over a VECTOR-repetition child */
} pqt_node_kind;

typedef struct pqt_schema_node pqt_schema_node;
struct pqt_schema_node {
  const char *name; /* NUL-terminated copy in the arena */
  size_t name_len;
  int32_t index;                  /* position in the flat element list */
  const pqt_schema_element *elem; /* the source element (caller keeps it alive) */

  int32_t repetition; /* PQT_REQUIRED..PQT_VECTOR; -1 for the root */
  bool is_leaf;
  int32_t physical_type; /* PQT_BOOLEAN..; -1 for groups */
  int32_t type_length;   /* FLBA byte width; -1 when not FLBA */
  int32_t vector_length; /* for VECTOR repetition; else 0 */
  bool has_field_id;
  int32_t field_id;

  /* Annotations. `logical` is the effective LogicalType: the element's own
   * when present and valid, else the one derived from its ConvertedType
   * (isset == 0 when none). converted_type is the element's raw value (-1 when
   * absent or out of range); INTERVAL and MAP_KEY_VALUE live only there. */
  pqt_logical_type logical;
  int32_t converted_type;
  bool annotation_invalid; /* an annotation was present but did not fit */

  pqt_schema_node *parent; /* NULL for the root */
  pqt_schema_node **children;
  int32_t n_children;
  int32_t child_index; /* position among the parent's children */
  int32_t depth;       /* root 0 */

  /* Dremel levels of this node (root 0/0). repeated_ancestor_def is the max
   * definition level of the nearest REPEATED node on the path root..this node
   * (inclusive), 0 when there is none: a leaf value whose definition level is
   * below it has no slot in the innermost list (empty or null list above). */
  int16_t max_def;
  int16_t max_rep;
  int16_t repeated_ancestor_def;

  /* Leaf columns under this node: [first_leaf, first_leaf + n_leaves). */
  int32_t first_leaf;
  int32_t n_leaves;
  /* For leaves: column ordinal (== first_leaf), path from below the root
   * (path_len == depth entries) and the dotted path "a.b.c". -1/NULL for groups. */
  int32_t column_index;
  const char **path;
  int32_t path_len;
  const char *dotted_path;

  /* Reader interpretation (LIST/MAP backward-compatibility rules). */
  pqt_node_kind kind;
  /* REPEATED and not the repeated level of an enclosing LIST/MAP: stands for
   * a required list of required values of this node's content (kind). */
  bool bare_repeated;
  /* For LIST/MAP/VECTOR: the child carrying the repetition. */
  pqt_schema_node *repeated;
  /* For LIST/VECTOR: the element. When element == repeated (legacy rules 1-4
   * or a leaf), elements are required and their content is repeated->kind. */
  pqt_schema_node *element;
  /* For MAP: key (first child of `repeated`) and value (second, or NULL). */
  pqt_schema_node *key;
  pqt_schema_node *value;
  /* Which legacy rule chose a LIST element: 1..5 (see schema.c). 0 otherwise. */
  int8_t list_rule;
  /* The matching field of the file's ARROW:schema (a pqt_arrow_field), set
   * by the reader when the file has one; NULL otherwise. */
  const void *arrow_hint;
  /* INT96 leaves: carried in Arrow as fixed_size_binary(12), the stored bytes,
   * instead of timestamp[ns] (set from pqt_read_options / pqt_write_options). */
  bool int96_raw;
  /* VARIANT groups: read back as the reconstructed struct<metadata, value>
   * (set by the reader unless pqt_read_options.variant_shredded). */
  bool variant_rebuild;
  int8_t int96_unit; /* pqt_int96_unit of the Arrow timestamp (reader option) */
};

typedef struct pqt_schema {
  pqt_schema_node *root;
  pqt_schema_node *nodes; /* all nodes, in element (depth-first) order */
  int32_t n_nodes;
  pqt_schema_node **leaves; /* leaf columns in order */
  int32_t n_leaves;
  int16_t max_def; /* over all leaves */
  int16_t max_rep;
} pqt_schema;

/* Build the tree from the flat depth-first list. All memory (nodes, names,
 * paths) comes from `arena`; `elems` must outlive the schema (nodes point to
 * their element, whose byte views point into the footer). */
pqt_status pqt_schema_build(const pqt_schema_element *elems, int32_t n, pqt_arena *arena, pqt_schema **out,
                            pqt_error *err);
/* The same, refusing (PQT_ELIMIT) nodes deeper than max_depth (1..
 * PQT_SCHEMA_MAX_DEPTH; the root's children are depth 1): the reader's
 * pqt_read_options.max_nesting_depth. */
pqt_status pqt_schema_build_limited(const pqt_schema_element *elems, int32_t n, int32_t max_depth, pqt_arena *arena,
                                    pqt_schema **out, pqt_error *err);

/* Does this node's path (names below the root) equal parts[0..n_parts)?
 * O(depth), no allocation: use it to check ColumnMetaData.path_in_schema of
 * column i against s->leaves[i]. */
bool pqt_schema_node_path_equals(const pqt_schema_node *node, const pqt_bytes *parts, int32_t n_parts);
/* Find a leaf by its path parts; NULL if absent. O(leaves * depth). */
const pqt_schema_node *pqt_schema_find_leaf(const pqt_schema *s, const pqt_bytes *parts, int32_t n_parts);

/* Short names for enums ("INT32", "OPTIONAL", "TIMESTAMP_MILLIS", "LIST");
 * "?" when out of range. */
const char *pqt_physical_type_name(int32_t t);
const char *pqt_repetition_name(int32_t r);
const char *pqt_converted_type_name(int32_t ct);
const char *pqt_node_kind_name(pqt_node_kind k);

/* ---- schema_types.c: annotations -------------------------------------- */

/* LogicalType -> ConvertedType for writers (forward-compatibility tables).
 * Returns true and sets *ct (and *scale, *precision for DECIMAL) when a
 * ConvertedType exists; false for TIME/TIMESTAMP(NANOS), UUID, FLOAT16,
 * UNKNOWN, VARIANT, GEOMETRY, GEOGRAPHY, VECTOR, unknown members. */
bool pqt_logical_to_converted(const pqt_logical_type *lt, int32_t *ct, int32_t *scale, int32_t *precision);
/* Set in e the ConvertedType (with DECIMAL's scale and precision) that
 * pqt_logical_to_converted gives for lt, when there is one. */
void pqt_element_set_converted(pqt_schema_element *e, const pqt_logical_type *lt);

/* ConvertedType -> LogicalType for readers (backward-compatibility tables).
 * DECIMAL needs has_precision (scale defaults to 0). Returns false (and
 * zeroes *out) for INTERVAL, MAP_KEY_VALUE, out-of-range values and DECIMAL
 * without precision. */
bool pqt_converted_to_logical(int32_t ct, bool has_scale, int32_t scale, bool has_precision, int32_t precision,
                              pqt_logical_type *out);

/* May logical type `lt` annotate a node of this shape? is_group selects a
 * group (physical ignored). On false, *why (if not NULL) gets a static reason. */
bool pqt_logical_type_fits(const pqt_logical_type *lt, bool is_group, int32_t physical, int32_t type_length,
                           const char **why);
/* The same for a ConvertedType (with the element's scale/precision). */
bool pqt_converted_type_fits(int32_t ct, bool is_group, int32_t physical, int32_t type_length, bool has_precision,
                             int32_t precision, int32_t scale, const char **why);

/* Largest DECIMAL precision a FIXED_LEN_BYTE_ARRAY of n bytes can hold:
 * floor(log10(2^(8n-1) - 1)). 0 for n <= 0. */
int32_t pqt_decimal_max_precision_flba(int32_t n);

/* True for the types that hold text (UTF-8): STRING, ENUM and JSON, by
 * logical type (pqt_union_which of its isset) or, when there is none
 * (logical == 0), by converted type (UTF8, ENUM, JSON). The one test used
 * by the writer's UTF-8 check, text output, export, scans and salvage. */
bool pqt_is_text_type(int logical, int32_t converted_type);

/* Equality of two logical types (member and parameters; byte views compared
 * by content). */
bool pqt_logical_type_equal(const pqt_logical_type *a, const pqt_logical_type *b);

/* ---- schema_text.c: message syntax ------------------------------------ */

/* Print in the message syntax (see schema_text.c for the exact grammar):
 *   message schema {
 *     optional group a (LIST) {
 *       repeated group list {
 *         optional int32 element;
 *       }
 *     }
 *   }
 * Two-space indentation, one field per line, a final newline. Appends to out. */
pqt_status pqt_schema_to_text(const pqt_schema *s, pqt_buf *out, pqt_error *err);

/* Append the annotation of one element as printed inside "(...)" (without
 * the parentheses); appends nothing when the element has none. */
pqt_status pqt_schema_annotation_text(const pqt_schema_element *e, pqt_buf *out, pqt_error *err);

/* Parse the message syntax into a flat element list (root first) allocated
 * in `arena`, with LogicalType and the matching ConvertedType (and DECIMAL
 * scale/precision) both set. Errors are PQT_EINVAL "line L, column C: ...". */
pqt_status pqt_schema_parse(const char *text, size_t len, pqt_arena *arena, pqt_schema_element **elems_out,
                            int32_t *n_out, pqt_error *err);

#endif /* PQT_META_SCHEMA_H */
