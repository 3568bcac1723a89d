/*
 * levels: Dremel definition/repetition levels <-> validity bitmaps, list
 * offsets and value positions (spec: "Nested Encoding", parquet-format README.md; the
 * worked example in tests/fixtures/seed004.md). Plain arrays only: no Arrow structs and no
 * Parquet metadata structs, so both the Arrow layer and the plain column
 * API can use it.
 *
 * Vocabulary
 * ----------
 * A column's path from the root to its leaf is described as LOGICAL nodes:
 *   STRUCT  a group that is not repeated (required or optional);
 *   LIST    a list slot: nullable or not. A list always owns exactly one
 *           repeated Parquet node below it (the repeated group of a 3-level
 *           LIST/MAP, the repeated element of a 2-level list, or the
 *           repeated field itself for an unannotated `repeated` field, which
 *           is a non-nullable list of required elements). The element is the
 *           next logical node.
 *   LEAF    the primitive column; always the last node.
 * A MAP is a LIST whose element is a required STRUCT<key, value>.
 *
 * Per logical node, pqt_level_info (computed by pqt_levels_path_info):
 *   def_level  the slot of this node is non-null iff def >= def_level.
 *              For a LIST: the list is non-null (maybe empty) iff
 *              def >= def_level, and an entry adds an element iff
 *              def >= def_level + 1 (the repeated node's def level).
 *              For the LEAF: def_level == max_def, i.e. a value is present.
 *   rep_level  the number of repeated nodes strictly above this node (a
 *              LIST's own repeated node is below it). An entry with
 *              rep <= rep_level starts a new slot of this node (if it is a
 *              slot at all, see next); rep > rep_level continues a deeper
 *              list. For a LIST, rep == rep_level + 1 appends an element to
 *              the current list.
 *   repeated_ancestor_def_level  def level of the closest repeated node
 *              above this node (0 if none). Entries with def below it stand
 *              for an empty/null ancestor list and are not slots here.
 * So an entry (def, rep) is a slot of a node iff
 *     def >= repeated_ancestor_def_level && rep <= rep_level,
 * and it is an element of a LIST iff
 *     def >= def_level + 1 && rep <= rep_level + 1.
 * The second predicate is the first one for the element node, so the sum
 * of list lengths always equals the element node's slot count, whatever
 * the input (even unvalidated).
 *
 * Reader contract: decode a batch of levels, check it with
 * pqt_levels_validate (carrying prev_def across batches of one column
 * chunk), cut it at record boundaries (pqt_levels_find_records), then run
 * the per-node kernels. Every kernel is memory-safe on any input: output
 * capacities are given by the caller and never exceeded; results are only
 * meaningful on validated levels. Kernels that take rep levels require the
 * batch to start a record (rep[0] == 0).
 *
 * Bitmaps are LSB-first (Arrow/Parquet order), addressed by a bit offset;
 * bits outside the written range are preserved.
 */
#ifndef PQT_LEVELS_H
#define PQT_LEVELS_H

#include <stdbool.h>
#include <stdint.h>

#include "parquetry.h"

/* Longest logical path accepted (deeper schemas give PQT_EUNSUPPORTED). */
#define PQT_LEVELS_MAX_NODES 256

typedef enum pqt_level_kind { PQT_LEVEL_STRUCT = 0, PQT_LEVEL_LIST = 1, PQT_LEVEL_LEAF = 2 } pqt_level_kind;

/* Parquet field repetition (the FieldRepetitionType values). */
typedef enum pqt_level_repetition {
  PQT_LEVEL_REQUIRED = 0,
  PQT_LEVEL_OPTIONAL = 1,
  PQT_LEVEL_REPEATED = 2
} pqt_level_repetition;

typedef struct pqt_level_node {
  uint8_t kind;     /* pqt_level_kind */
  uint8_t nullable; /* 1: optional (adds a def level) */
} pqt_level_node;

typedef struct pqt_level_info {
  int16_t def_level;
  int16_t rep_level;
  int16_t repeated_ancestor_def_level;
} pqt_level_info;

/* ---- path description --------------------------------------------- */

/*
 * Compute the level info of every logical node of a path. infos has
 * n_nodes entries. repeated_def (may be NULL) receives, for r = 1..max_rep,
 * the def level of the r-th repeated node at index r-1 (at most n_nodes
 * entries are written); it is what pqt_levels_validate needs.
 * Errors: PQT_EINVAL if the path is malformed (empty, leaf not last, node
 * after the leaf, unknown kind); PQT_EUNSUPPORTED if deeper than
 * PQT_LEVELS_MAX_NODES.
 */
pqt_status pqt_levels_path_info(const pqt_level_node *nodes, int32_t n_nodes, pqt_level_info *infos,
                                int16_t *repeated_def, int16_t *max_def, int16_t *max_rep, pqt_error *err);

/*
 * Build the logical path from the PHYSICAL schema path root->leaf (the
 * root message itself excluded): per node its repetition and whether it is
 * annotated LIST or MAP (or MAP_KEY_VALUE). Rules:
 *  - an annotated node (required/optional) becomes a LIST; its child must
 *    be repeated and becomes the element: a required STRUCT (or the LEAF if
 *    it is the last node). For a 3-level list this element is the
 *    `repeated group list` wrapper, whose single child is the real element:
 *    a required struct adds no level, so the caller may skip it.
 *  - any other repeated node becomes a required LIST followed by itself as
 *    the required element (STRUCT, or LEAF if last).
 *  - any other node becomes a STRUCT (LEAF if last), nullable if optional.
 * nodes must have room for 2 * n_phys entries; phys_index (may be NULL)
 * receives, per logical node, the physical node it came from.
 * Errors: PQT_ECORRUPT for an annotated node that is repeated or whose
 * child is not repeated / missing; PQT_EINVAL for bad repetition values.
 */
pqt_status pqt_levels_path_from_schema(const uint8_t *repetition, const uint8_t *is_list_or_map, int32_t n_phys,
                                       pqt_level_node *nodes, int32_t *phys_index, int32_t *n_nodes, pqt_error *err);

/* ---- reader side ---------------------------------------------------- */

/*
 * Check a decoded batch: 0 <= def <= max_def, 0 <= rep <= max_rep, and
 * every rep == r > 0 continues a list that is open: the r-th repeated node
 * is defined both here and in the previous entry (def >= repeated_def[r-1]
 * for both). *prev_def carries the previous entry's def across batches of
 * one column chunk: set it to -1 at the chunk start (then rep[0] must be
 * 0); it is updated to the last def. def NULL means all max_def (only when
 * max_def == 0); rep NULL means all 0 (only when max_rep == 0).
 * Errors: PQT_ECORRUPT naming the entry.
 */
pqt_status pqt_levels_validate(const int16_t *def, const int16_t *rep, int64_t n, int16_t max_def, int16_t max_rep,
                               const int16_t *repeated_def, int16_t *prev_def, pqt_error *err);

/*
 * Flat fast path (no repetition): bit i of the validity bitmap (at
 * valid_offset + i) = (def[i] == max_def); *null_count = number of 0 bits.
 * Also validates def (PQT_ECORRUPT if any def is outside [0, max_def]).
 * def NULL: all valid. valid needs (valid_offset + n + 7) / 8 bytes.
 */
pqt_status pqt_levels_def_to_bitmap(const int16_t *def, int64_t n, int16_t max_def, uint8_t *valid,
                                    int64_t valid_offset, int64_t *null_count, pqt_error *err);

/*
 * Slots of a STRUCT or LEAF node at any depth: one slot per entry with
 * def >= info.repeated_ancestor_def_level and rep <= info.rep_level;
 * validity = def >= info.def_level (for the LEAF: a value is present).
 * valid may be NULL (counts only). At most slot_capacity slots are
 * written, else PQT_ECORRUPT. rep NULL means all 0; def NULL all defined.
 * With rep NULL (no repeated ancestor) a word-at-a-time path is used and
 * negative def levels are PQT_ECORRUPT.
 */
pqt_status pqt_levels_to_struct_bitmap(const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info,
                                       uint8_t *valid, int64_t valid_offset, int64_t slot_capacity, int64_t *n_slots,
                                       int64_t *null_count, pqt_error *err);

/*
 * Slots of a LIST node: offsets has slot_capacity + 1 entries; offsets[0]
 * is read as the base (the end of the previous batch) and offsets[1..n_slots]
 * are written, so the list at slot s is [offsets[s], offsets[s+1]) in its
 * element node. Validity = def >= info.def_level (a null list is distinct
 * from an empty one: def == def_level is present-but-empty). valid may be
 * NULL. Errors: PQT_ECORRUPT for too many slots or an element that
 * continues no open list; PQT_ELIMIT when int32 offsets would overflow.
 * rep must not be NULL.
 */
pqt_status pqt_levels_to_list32(const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info,
                                int32_t *offsets, uint8_t *valid, int64_t valid_offset, int64_t slot_capacity,
                                int64_t *n_slots, int64_t *null_count, pqt_error *err);
pqt_status pqt_levels_to_list64(const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info,
                                int64_t *offsets, uint8_t *valid, int64_t valid_offset, int64_t slot_capacity,
                                int64_t *n_slots, int64_t *null_count, pqt_error *err);

/*
 * Scatter n_dense fixed-width values (width bytes each) into n_slots slots
 * following the validity bitmap; null slots are zeroed. out holds
 * n_slots * width bytes and may be the same buffer as dense (in place,
 * done back to front); otherwise they must not overlap.
 * PQT_ECORRUPT if the bitmap's valid count differs from n_dense.
 */
pqt_status pqt_levels_spread_fixed(uint8_t *out, const uint8_t *dense, int64_t n_dense, int32_t width,
                                   const uint8_t *valid, int64_t valid_offset, int64_t n_slots, pqt_error *err);

/*
 * Same for variable-length values: dense_offsets has n_dense + 1 entries,
 * out_offsets gets n_slots + 1 entries, null slots have zero length, the
 * data buffer is unchanged. out_offsets may equal dense_offsets (in place).
 */
pqt_status pqt_levels_spread_offsets32(int32_t *out_offsets, const int32_t *dense_offsets, int64_t n_dense,
                                       const uint8_t *valid, int64_t valid_offset, int64_t n_slots, pqt_error *err);
pqt_status pqt_levels_spread_offsets64(int64_t *out_offsets, const int64_t *dense_offsets, int64_t n_dense,
                                       const uint8_t *valid, int64_t valid_offset, int64_t n_slots, pqt_error *err);

/* Where the nth (0-based) entry equal to v is in levels[0, n), or n when
 * there are fewer; *before (may be NULL) = the entries equal to v before
 * that index. 64 entries a step. */
int64_t pqt_levels_find_nth(const int16_t *levels, int64_t n, int16_t v, int64_t nth, int64_t *before);
/* Entries equal to v in levels[0, n). */
int64_t pqt_levels_count_eq(const int16_t *levels, int64_t n, int16_t v);

/* Number of records starting in rep[0, n) (entries with rep == 0). */
int64_t pqt_levels_count_records(const int16_t *rep, int64_t n);

/*
 * Cut a span of rep levels after at most max_records complete records.
 * A record ends before each entry p > 0 with rep[p] == 0, and at n when
 * data_ends_here (nothing of the column chunk follows the span). Leading
 * entries with rep > 0 complete a record begun before the span and count
 * as one. Returns in *n_entries the length of the prefix holding exactly
 * *n_records complete records (0 if none is complete yet).
 */
void pqt_levels_find_records(const int16_t *rep, int64_t n, int64_t max_records, bool data_ends_here,
                             int64_t *n_entries, int64_t *n_records);

/* hist[l] += number of entries equal to l, for l in [0, max_level]
 * (SizeStatistics histograms); levels NULL counts n zeros. Out-of-range
 * values are ignored. */
void pqt_levels_histogram(const int16_t *levels, int64_t n, int16_t max_level, int64_t *hist);

/* ---- writer side (shredding) ---------------------------------------- */

/*
 * One logical node of the array being written (Arrow-like, plain arrays).
 * A node receives LOGICAL indices i from its parent (the top node gets the
 * caller's range); its PHYSICAL index is p = offset + i (bit p of validity,
 * offsets[p] and offsets[p + 1]; for the leaf, the value index reported).
 * STRUCT: slot p maps to logical index p of the child (as Arrow applies a
 * struct's offset to its children). LIST: slot p maps to child logical
 * indices [offsets[p], offsets[p+1]). Every logical index must be < length.
 */
typedef struct pqt_shred_node {
  uint8_t kind;             /* pqt_level_kind */
  uint8_t nullable;         /* schema optional; a null in a non-nullable node is PQT_EINVAL */
  const uint8_t *validity;  /* NULL: all valid */
  const int32_t *offsets32; /* LIST: exactly one of offsets32 / offsets64 */
  const int64_t *offsets64;
  int64_t offset;
  int64_t length;
} pqt_shred_node;

typedef struct pqt_shred_out {
  /* Outputs; any may be NULL to count only. rep is written only when
   * max_rep > 0. value_idx gets the leaf physical index of each present
   * value, in order (so the writer can gather dense values). */
  int16_t *def;
  int16_t *rep;
  int64_t *value_idx;
  int64_t level_capacity;
  int64_t value_capacity;
  /* Optional histograms, added to (+=) on every call (so pass them on the
   * filling call only): max_def + 1 and max_rep + 1 entries. */
  int64_t *def_hist;
  int64_t *rep_hist;
  /* Results. */
  int64_t n_levels;
  int64_t n_values;
  int16_t max_def;
  int16_t max_rep;
} pqt_shred_out;

/*
 * Shred logical slots [start, start + len) of nodes[0] into the leaf's def
 * and rep levels. Empty list -> one entry with def = the list's def_level;
 * null node -> one entry with def = its def_level - 1; rep of an entry is
 * the depth of the innermost list it continues (0 for a new record).
 * Call with NULL outputs to size them, then again to fill.
 * Errors: PQT_EINVAL for malformed arrays (bad or non-monotonic offsets,
 * index >= length, null in a non-nullable node, output too small).
 */
pqt_status pqt_levels_shred(const pqt_shred_node *nodes, int32_t n_nodes, int64_t start, int64_t len,
                            pqt_shred_out *out, pqt_error *err);

#endif /* PQT_LEVELS_H */
