/*
 * levels/shred.c: record shredding (spec "Nested Encoding", parquet-format README.md;
 * Dremel): nested arrays described per logical node (validity, list
 * offsets) -> the leaf's definition and repetition levels and the indices
 * of its present values, plus optional SizeStatistics level histograms.
 */
#include "core/core.h"
#include "levels/levels.h"

typedef struct shred_ctx {
  const pqt_shred_node *nodes;
  pqt_level_info info[PQT_LEVELS_MAX_NODES];
  int32_t n_nodes;
  int16_t max_def, max_rep;
  pqt_shred_out *out;
  int16_t *def, *rep; /* rep NULL when not written */
  int64_t *vidx;
  int64_t *def_hist, *rep_hist;
  int64_t nl, nv;
  pqt_error *err;
} shred_ctx;

static inline bool bit_at(const uint8_t *bm, int64_t p) { return !bm || ((bm[p >> 3] >> (p & 7)) & 1); }

static pqt_status emit(shred_ctx *c, int16_t d, int16_t r) {
  if (c->def || c->rep) {
    if (PQT_UNLIKELY(c->nl >= c->out->level_capacity))
      return pqt_error_set(c->err, PQT_EINVAL, "levels: level output capacity %lld too small",
                           (long long)c->out->level_capacity);
    if (c->def) c->def[c->nl] = d;
    if (c->rep) c->rep[c->nl] = r;
  }
  if (c->def_hist) c->def_hist[d]++;
  if (c->rep_hist) c->rep_hist[r]++;
  c->nl++;
  return PQT_OK;
}

static pqt_status null_in_required(shred_ctx *c, int32_t k, int64_t p) {
  return pqt_error_set(c->err, PQT_EINVAL, "levels: null at index %lld of non-nullable node %d", (long long)p, (int)k);
}

static pqt_status shred_leaf(shred_ctx *c, int32_t k, int64_t lo, int64_t hi, int16_t r) {
  const pqt_shred_node *nd = &c->nodes[k];
  const int16_t dmax = c->info[k].def_level, rslot = c->info[k].rep_level;
  for (int64_t i = lo; i < hi; i++) {
    int64_t p = nd->offset + i;
    if (bit_at(nd->validity, p)) {
      PQT_RETURN_NOT_OK(emit(c, dmax, r));
      if (c->vidx) {
        if (PQT_UNLIKELY(c->nv >= c->out->value_capacity))
          return pqt_error_set(c->err, PQT_EINVAL, "levels: value output capacity %lld too small",
                               (long long)c->out->value_capacity);
        c->vidx[c->nv] = p;
      }
      c->nv++;
    } else {
      if (!nd->nullable) return null_in_required(c, k, p);
      PQT_RETURN_NOT_OK(emit(c, (int16_t)(dmax - 1), r));
    }
    r = rslot;
  }
  return PQT_OK;
}

/* Shred logical slots [lo, hi) of node k; the first entry gets rep r. */
static pqt_status shred_range(shred_ctx *c, int32_t k, int64_t lo, int64_t hi, int16_t r) {
  const pqt_shred_node *nd = &c->nodes[k];
  if (PQT_UNLIKELY(lo < 0 || hi < lo || hi > nd->length))
    return pqt_error_set(c->err, PQT_EINVAL, "levels: node %d: slots [%lld, %lld) outside length %lld", (int)k,
                         (long long)lo, (long long)hi, (long long)nd->length);
  const pqt_level_info inf = c->info[k];
  const int16_t rslot = inf.rep_level;
  if (nd->kind == PQT_LEVEL_LEAF) return shred_leaf(c, k, lo, hi, r);
  if (nd->kind == PQT_LEVEL_STRUCT) {
    int64_t i = lo;
    while (i < hi) {
      int64_t p = nd->offset + i;
      if (bit_at(nd->validity, p)) {
        int64_t e = i + 1;
        while (e < hi && bit_at(nd->validity, nd->offset + e)) e++;
        /* A struct's slot p is logical index p of its child. */
        PQT_RETURN_NOT_OK(shred_range(c, k + 1, p, nd->offset + e, r));
        i = e;
      } else {
        if (!nd->nullable) return null_in_required(c, k, p);
        PQT_RETURN_NOT_OK(emit(c, (int16_t)(inf.def_level - 1), r));
        i++;
      }
      r = rslot;
    }
    return PQT_OK;
  }
  /* LIST */
  for (int64_t i = lo; i < hi; i++) {
    int64_t p = nd->offset + i;
    if (!bit_at(nd->validity, p)) {
      if (!nd->nullable) return null_in_required(c, k, p);
      PQT_RETURN_NOT_OK(emit(c, (int16_t)(inf.def_level - 1), r));
    } else {
      int64_t a = nd->offsets32 ? nd->offsets32[p] : nd->offsets64[p];
      int64_t b = nd->offsets32 ? nd->offsets32[p + 1] : nd->offsets64[p + 1];
      if (PQT_UNLIKELY(a < 0 || b < a))
        return pqt_error_set(c->err, PQT_EINVAL, "levels: node %d: bad list offsets %lld..%lld at %lld", (int)k,
                             (long long)a, (long long)b, (long long)p);
      if (a == b) {
        PQT_RETURN_NOT_OK(emit(c, inf.def_level, r)); /* present but empty */
      } else {
        PQT_RETURN_NOT_OK(shred_range(c, k + 1, a, b, r));
      }
    }
    r = rslot;
  }
  return PQT_OK;
}

pqt_status pqt_levels_shred(const pqt_shred_node *nodes, int32_t n_nodes, int64_t start, int64_t len,
                            pqt_shred_out *out, pqt_error *err) {
  if (!nodes || !out || n_nodes <= 0 || start < 0 || len < 0)
    return pqt_error_set(err, PQT_EINVAL, "levels: bad shred arguments");
  if (n_nodes > PQT_LEVELS_MAX_NODES)
    return pqt_error_set(err, PQT_EUNSUPPORTED, "levels: path of %d nodes is deeper than %d", (int)n_nodes,
                         PQT_LEVELS_MAX_NODES);
  shred_ctx c;
  pqt_level_node ln[PQT_LEVELS_MAX_NODES];
  for (int32_t k = 0; k < n_nodes; k++) {
    ln[k].kind = nodes[k].kind;
    ln[k].nullable = nodes[k].nullable;
    if (nodes[k].offset < 0 || nodes[k].length < 0)
      return pqt_error_set(err, PQT_EINVAL, "levels: node %d: bad offset or length", (int)k);
    if (nodes[k].kind == PQT_LEVEL_LIST && !nodes[k].offsets32 == !nodes[k].offsets64)
      return pqt_error_set(err, PQT_EINVAL, "levels: list node %d needs exactly one offsets array", (int)k);
  }
  PQT_RETURN_NOT_OK(pqt_levels_path_info(ln, n_nodes, c.info, NULL, &c.max_def, &c.max_rep, err));
  c.nodes = nodes;
  c.n_nodes = n_nodes;
  c.out = out;
  c.def = out->def;
  c.rep = c.max_rep > 0 ? out->rep : NULL;
  c.vidx = out->value_idx;
  c.def_hist = out->def_hist;
  c.rep_hist = out->rep_hist;
  c.nl = 0;
  c.nv = 0;
  c.err = err;
  out->max_def = c.max_def;
  out->max_rep = c.max_rep;
  if (start > nodes[0].length || len > nodes[0].length - start)
    return pqt_error_set(err, PQT_EINVAL, "levels: range [%lld, +%lld) outside length %lld", (long long)start,
                         (long long)len, (long long)nodes[0].length);
  PQT_RETURN_NOT_OK(shred_range(&c, 0, start, start + len, 0));
  out->n_levels = c.nl;
  out->n_values = c.nv;
  return PQT_OK;
}
