/*
 * levels/path.c: level info of each node of a column path (spec "Nested
 * Encoding", parquet-format README.md: a def level per optional or repeated field, a rep
 * level per repeated field; LIST/MAP shapes from parquet-format LogicalTypes.md,
 * including the 2-level and unannotated repeated backward-compatible forms).
 */
#include "core/core.h"
#include "levels/levels.h"

pqt_status pqt_levels_path_info(const pqt_level_node *nodes, int32_t n_nodes, pqt_level_info *infos,
                                int16_t *repeated_def, int16_t *max_def, int16_t *max_rep, pqt_error *err) {
  if (!nodes || !infos || n_nodes <= 0) return pqt_error_set(err, PQT_EINVAL, "levels: empty path");
  if (n_nodes > PQT_LEVELS_MAX_NODES)
    return pqt_error_set(err, PQT_EUNSUPPORTED, "levels: path of %d nodes is deeper than %d", (int)n_nodes,
                         PQT_LEVELS_MAX_NODES);
  /* Depth <= 256 nodes, each adding at most 2 levels: no int16 overflow. */
  int d = 0, r = 0, rad = 0;
  for (int32_t k = 0; k < n_nodes; k++) {
    const pqt_level_node *nd = &nodes[k];
    bool last = k == n_nodes - 1;
    if (nd->kind > PQT_LEVEL_LEAF)
      return pqt_error_set(err, PQT_EINVAL, "levels: node %d has unknown kind %d", (int)k, (int)nd->kind);
    if ((nd->kind == PQT_LEVEL_LEAF) != last)
      return pqt_error_set(err, PQT_EINVAL, "levels: node %d: the leaf must be the last node", (int)k);
    if (nd->nullable) d++;
    infos[k].def_level = (int16_t)d;
    infos[k].rep_level = (int16_t)r;
    infos[k].repeated_ancestor_def_level = (int16_t)rad;
    if (nd->kind == PQT_LEVEL_LIST) {
      d++; /* the repeated node: defined when the list has an element */
      r++;
      rad = d;
      if (repeated_def) repeated_def[r - 1] = (int16_t)d;
    }
  }
  if (max_def) *max_def = (int16_t)d;
  if (max_rep) *max_rep = (int16_t)r;
  return PQT_OK;
}

pqt_status pqt_levels_path_from_schema(const uint8_t *repetition, const uint8_t *is_list_or_map, int32_t n_phys,
                                       pqt_level_node *nodes, int32_t *phys_index, int32_t *n_nodes, pqt_error *err) {
  if (!repetition || !nodes || !n_nodes || n_phys <= 0)
    return pqt_error_set(err, PQT_EINVAL, "levels: empty schema path");
  int32_t n = 0;
  for (int32_t i = 0; i < n_phys; i++) {
    if (repetition[i] > PQT_LEVEL_REPEATED)
      return pqt_error_set(err, PQT_EINVAL, "levels: schema node %d: bad repetition %d", (int)i, (int)repetition[i]);
    bool annotated = is_list_or_map && is_list_or_map[i];
    int32_t elem = i;
    if (annotated) {
      PQT_CHECK_CORRUPT(repetition[i] != PQT_LEVEL_REPEATED, err,
                        "schema node %d: a LIST/MAP field must not be repeated", (int)i);
      PQT_CHECK_CORRUPT(i + 1 < n_phys && repetition[i + 1] == PQT_LEVEL_REPEATED, err,
                        "schema node %d: a LIST/MAP field needs a repeated child", (int)i);
      elem = i + 1;
    }
    if (annotated || repetition[i] == PQT_LEVEL_REPEATED) {
      nodes[n].kind = PQT_LEVEL_LIST;
      nodes[n].nullable = repetition[i] == PQT_LEVEL_OPTIONAL;
      if (phys_index) phys_index[n] = i;
      n++;
      nodes[n].kind = elem == n_phys - 1 ? PQT_LEVEL_LEAF : PQT_LEVEL_STRUCT;
      nodes[n].nullable = 0;
      if (phys_index) phys_index[n] = elem;
      n++;
      i = elem;
    } else {
      nodes[n].kind = i == n_phys - 1 ? PQT_LEVEL_LEAF : PQT_LEVEL_STRUCT;
      nodes[n].nullable = repetition[i] == PQT_LEVEL_OPTIONAL;
      if (phys_index) phys_index[n] = i;
      n++;
    }
  }
  *n_nodes = n;
  return PQT_OK;
}
