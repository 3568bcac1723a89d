/*
 * scan/expr_geo.c: the spatial predicate ST_Intersects(column, geometry)
 * for GEOMETRY and GEOGRAPHY columns, with BOUNDING-BOX semantics: a row
 * matches when its own envelope (the box src/geo computes for the value,
 * the edges of GEOGRAPHY included) intersects the query's envelope (the box
 * of the WKT literal's geometry, computed with the column's edge model, or
 * the box given as BOX(xmin, ymin, xmax, ymax)); no exact geometry
 * intersection test. X ranges may wrap the antimeridian (xmin > xmax) for
 * GEOGRAPHY. A null or empty value never matches (NULL: unknown). Row
 * groups whose GeospatialStatistics box does not intersect the query box
 * are skipped (scan/prune_geo.c).
 */
#include <math.h>

#include "geo/wkb.h"
#include "scan/filter.h"

static const pqt_allocator *A(void) { return pqt_default_allocator(); }

PQT_API pqt_expr *pqt_expr_st_intersects(pqt_expr *column, const uint8_t *wkb, size_t len) {
  if (!column || (!wkb && len)) {
    pqt_expr_free(column);
    return NULL;
  }
  pqt_expr *e = pqt_expr_new_node(PQT_EK_GEO, 1);
  if (!e) {
    pqt_expr_free(column);
    return NULL;
  }
  e->args[0] = column;
  e->bytes = pqt_mem_alloc(A(), len + 1);
  if (!e->bytes) {
    pqt_expr_free(e);
    return NULL;
  }
  if (len) memcpy(e->bytes, wkb, len);
  e->bytes[len] = 0;
  e->len = len;
  return e;
}

PQT_API pqt_expr *pqt_expr_bbox_intersects(pqt_expr *column, double xmin, double ymin, double xmax, double ymax) {
  if (!column) return NULL;
  pqt_expr *e = pqt_expr_new_node(PQT_EK_GEO, 1);
  if (!e) {
    pqt_expr_free(column);
    return NULL;
  }
  e->args[0] = column;
  e->op = 1;
  e->gbox[0] = xmin, e->gbox[1] = ymin, e->gbox[2] = xmax, e->gbox[3] = ymax;
  return e;
}

pqt_status pqt_geo_expr_put(pqt_buf *b, const pqt_expr *e, pqt_error *err) {
  PQT_RETURN_NOT_OK(pqt_buf_append(b, "ST_Intersects(", 14, err));
  pqt_string s = {0};
  PQT_RETURN_NOT_OK(pqt_expr_to_string(e->args[0], &s, err));
  pqt_status st = pqt_buf_append(b, s.data, s.len, err);
  pqt_string_free(&s);
  PQT_RETURN_NOT_OK(st);
  if (e->op == 1) {
    PQT_RETURN_NOT_OK(pqt_buf_append(b, ", BOX(", 6, err));
    for (int i = 0; i < 4; i++) {
      if (i) PQT_RETURN_NOT_OK(pqt_buf_append(b, ", ", 2, err));
      pqt_format_double(e->gbox[i], b, err);
    }
    return pqt_buf_append(b, "))", 2, err);
  }
  PQT_RETURN_NOT_OK(pqt_wkb_to_wkt((const uint8_t *)e->bytes, e->len, A(), &s, err));
  st = pqt_buf_append(b, ", '", 3, err);
  if (st == PQT_OK) st = pqt_buf_append(b, s.data, s.len, err); /* WKT has no quote characters */
  pqt_string_free(&s);
  PQT_RETURN_NOT_OK(st);
  return pqt_buf_append(b, "')", 2, err);
}

static pqt_geo_edges column_edges(const pqt_schema_node *n) {
  int l = pqt_union_which(n->logical.isset);
  if (l != PQT_LT_GEOGRAPHY) return PQT_GEO_EDGES_PLANAR;
  return PQT_HAS_FIELD(&n->logical.geography, geography_type, algorithm) &&
                 n->logical.geography.algorithm != PQT_EDGE_SPHERICAL
             ? PQT_GEO_EDGES_ELLIPSOIDAL
             : PQT_GEO_EDGES_GEOGRAPHY;
}

pqt_status pqt_geo_bind(const pqt_expr *e, pqt_bound *b, pqt_arena *arena, bool *never, pqt_error *err) {
  *never = false;
  const pqt_schema_node *n = b->node;
  int l = pqt_union_which(n->logical.isset);
  const char *name = e->args[0]->bytes;
  if (n->physical_type != PQT_BYTE_ARRAY || (l != PQT_LT_GEOMETRY && l != PQT_LT_GEOGRAPHY))
    return pqt_error_set(err, PQT_EINVAL,
                         "position %d: ST_Intersects needs a GEOMETRY or GEOGRAPHY column; '%s' is not", (int)e->pos,
                         name);
  pqt_geo_edges edges = column_edges(n);
  b->op = (int)edges;
  b->dom = PQT_DOM_BYTES;
  b->vx = PQT_VX_BA;
  b->lits = pqt_arena_array(arena, 4, sizeof(pqt_blit));
  if (!b->lits) return pqt_nomem(err);
  b->n_lits = 4;
  if (e->op == 1) {
    const double *g = e->gbox;
    for (int i = 0; i < 4; i++)
      if (isnan(g[i]))
        return pqt_error_set(err, PQT_EINVAL, "position %d: ST_Intersects: a box bound is NaN", (int)e->pos);
    if (g[1] > g[3])
      return pqt_error_set(err, PQT_EINVAL, "position %d: ST_Intersects: ymin %g > ymax %g", (int)e->pos, g[1], g[3]);
    if (g[0] > g[2] && edges == PQT_GEO_EDGES_PLANAR)
      return pqt_error_set(err, PQT_EINVAL,
                           "position %d: ST_Intersects: xmin %g > xmax %g (only a GEOGRAPHY box may wrap the "
                           "antimeridian; '%s' is GEOMETRY)",
                           (int)e->pos, g[0], g[2], name);
    for (int i = 0; i < 4; i++) b->lits[i].d = g[i];
    return PQT_OK;
  }
  pqt_geo_bbox q;
  pqt_geo_bbox_init(&q, edges);
  pqt_error e2;
  if (pqt_geo_bbox_add_wkb(&q, (const uint8_t *)e->bytes, e->len, &e2) != PQT_OK)
    return pqt_error_set(err, PQT_EINVAL, "position %d: ST_Intersects: the geometry: %s", (int)e->pos, e2.message);
  pqt_geo_bbox_result(&q);
  if (!q.has_xy) {
    *never = true;
    return PQT_OK;
  }
  b->lits[0].d = q.xmin, b->lits[1].d = q.ymin, b->lits[2].d = q.xmax, b->lits[3].d = q.ymax;
  return PQT_OK;
}

static void query_box(const pqt_bound *b, pqt_geo_bbox *q) {
  pqt_geo_bbox_init(q, (pqt_geo_edges)b->op);
  q->has_xy = 1;
  q->xmin = b->lits[0].d, q->ymin = b->lits[1].d, q->xmax = b->lits[2].d, q->ymax = b->lits[3].d;
}

pqt_status pqt_geo_eval(const pqt_bound *b, const pqt_array *a, int64_t n, uint8_t *t, uint8_t *f, pqt_error *err) {
  pqt_geo_bbox q;
  query_box(b, &q);
  const int32_t *o = (const int32_t *)(const void *)a->offsets->data;
  for (int64_t i = 0; i < n; i++) {
    if (!pqt_array_is_valid(a, i)) {
      t[i] = f[i] = 0;
      continue;
    }
    pqt_geo_bbox v;
    pqt_geo_bbox_init(&v, (pqt_geo_edges)b->op);
    pqt_error e2;
    if (o[i + 1] < o[i] || pqt_geo_bbox_add_wkb(&v, a->values->data + o[i], (size_t)(o[i + 1] - o[i]), &e2) != PQT_OK)
      return pqt_error_set(err, PQT_ECORRUPT, "filter: column %s, value %lld of the batch: not valid WKB: %s",
                           b->node->dotted_path ? b->node->dotted_path : b->node->name, (long long)i,
                           o[i + 1] < o[i] ? "bad offsets" : e2.message);
    pqt_geo_bbox_result(&v);
    t[i] = (uint8_t)pqt_geo_bbox_intersects(&v, &q);
    f[i] = !t[i];
  }
  return PQT_OK;
}
