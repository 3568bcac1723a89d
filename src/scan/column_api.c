/*
 * scan/column_api.c: the low-level column reader of the public API
 * (pqt_column_reader): one column chunk decoded by column/column_reader.c,
 * handed out in batches of levels and dense values, cut at record
 * boundaries where possible.
 */
#include "column/column_reader.h"
#include "core/struct_size.h"
#include "scan/row_group.h"

struct pqt_column_reader {
  pqt_reader *r;
  const pqt_allocator *alloc;
  pqt_column_data cd;
  int32_t physical_type;
  int32_t type_length;
  int16_t max_def, max_rep;
  int64_t level_pos;   /* next entry */
  int64_t value_pos;   /* next dense value */
  pqt_buf scratch_def; /* materialised levels when the chunk stored none */
  pqt_buf scratch_bool;
};

PQT_API pqt_status pqt_reader_column_info(const pqt_reader *r, int32_t column, pqt_column_info *out, pqt_error *err) {
  if (!r || !out || column < 0 || column >= r->schema->n_leaves)
    return pqt_error_set(err, PQT_EINVAL, "no column %d", column);
  const pqt_schema_node *n = r->schema->leaves[column];
  pqt_column_info info;
  memset(&info, 0, sizeof info);
  info.path = n->dotted_path;
  info.physical_type = n->physical_type;
  info.type_length = n->physical_type == PQT_FIXED_LEN_BYTE_ARRAY ? n->type_length : 0;
  info.max_def_level = n->max_def;
  info.max_rep_level = n->max_rep;
  info.logical_type = pqt_union_which(n->logical.isset);
  return pqt_struct_copy_out(out, &info, sizeof info, "pqt_column_info", err);
}

PQT_API pqt_status pqt_column_reader_open(pqt_column_reader **out, pqt_reader *r, int32_t row_group, int32_t column,
                                          pqt_error *err) {
  if (!out || !r) return pqt_error_set(err, PQT_EINVAL, "pqt_column_reader_open: bad arguments");
  if (row_group < 0 || row_group >= r->md.row_groups.n)
    return pqt_error_set(err, PQT_EINVAL, "no row group %d", row_group);
  if (column < 0 || column >= r->schema->n_leaves) return pqt_error_set(err, PQT_EINVAL, "no column %d", column);
  const pqt_allocator *alloc = r->data_alloc;
  pqt_column_reader *cr = pqt_mem_calloc(alloc, sizeof *cr);
  if (!cr) return pqt_nomem(err);
  cr->r = r;
  pqt_reader_ref(r); /* the column reader outlives a closed reader */
  cr->alloc = alloc;
  const pqt_schema_node *leaf = r->schema->leaves[column];
  cr->physical_type = leaf->physical_type;
  cr->type_length = leaf->type_length;
  cr->max_def = leaf->max_def;
  cr->max_rep = leaf->max_rep;
  pqt_column_data_init(&cr->cd, alloc);
  pqt_buf_init(&cr->scratch_def, alloc);
  pqt_buf_init(&cr->scratch_bool, alloc);
  pqt_status st = pqt_row_group_read_leaf(r, row_group, column, &cr->cd, err);
  if (st != PQT_OK) {
    pqt_column_reader_close(cr);
    return st;
  }
  *out = cr;
  return PQT_OK;
}

static pqt_status column_reader_next(pqt_column_reader *cr, int64_t max_levels, pqt_column_batch *out, pqt_error *err) {
  memset(out, 0, sizeof *out);
  if (max_levels <= 0) return pqt_error_set(err, PQT_EINVAL, "max_levels must be positive");
  pqt_column_data *cd = &cr->cd;
  int64_t left = cd->n_levels - cr->level_pos;
  if (left <= 0) return PQT_OK;
  int64_t n = left < max_levels ? left : max_levels;
  const int16_t *rep = cd->rep.len ? (const int16_t *)(const void *)cd->rep.data + cr->level_pos : NULL;
  if (rep && n < left) {
    /* end the batch where a record ends, if one ends inside it */
    int64_t cut = n;
    while (cut > 0 && rep[cut] != 0) cut--;
    if (cut > 0) n = cut;
  }
  const int16_t *def = NULL;
  if (cr->max_def > 0) {
    if (cd->def.len) {
      def = (const int16_t *)(const void *)cd->def.data + cr->level_pos;
    } else { /* the chunk had no nulls: levels were not stored */
      pqt_buf_clear(&cr->scratch_def);
      PQT_RETURN_NOT_OK(pqt_buf_reserve(&cr->scratch_def, (size_t)n * 2, err));
      int16_t *d = (int16_t *)(void *)cr->scratch_def.data;
      for (int64_t i = 0; i < n; i++) d[i] = cr->max_def;
      def = d;
    }
  }
  int64_t nv = n;
  if (def) {
    nv = 0;
    for (int64_t i = 0; i < n; i++) nv += def[i] == cr->max_def;
  }
  out->n_levels = n;
  out->def_levels = def;
  out->rep_levels = rep;
  out->n_values = nv;
  if (cr->physical_type == PQT_BYTE_ARRAY) {
    out->offsets = (const int32_t *)(const void *)cd->offsets.data + cr->value_pos;
    out->values = cd->values.data;
  } else if (cr->physical_type == PQT_BOOLEAN) {
    pqt_buf_clear(&cr->scratch_bool);
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cr->scratch_bool, (size_t)nv + 1, err));
    for (int64_t i = 0; i < nv; i++)
      cr->scratch_bool.data[i] = (cd->values.data[(cr->value_pos + i) >> 3] >> ((cr->value_pos + i) & 7)) & 1;
    out->values = cr->scratch_bool.data;
  } else {
    size_t w = pqt_physical_width(cr->physical_type, cr->type_length);
    out->values = pqt_column_values(cd) + (size_t)cr->value_pos * w;
  }
  cr->level_pos += n;
  cr->value_pos += nv;
  return PQT_OK;
}

/* The batch is built whole and handed out as far as the caller's struct goes
 * (an empty one on failure, as before). */
PQT_API pqt_status pqt_column_reader_next(pqt_column_reader *cr, int64_t max_levels, pqt_column_batch *out,
                                          pqt_error *err) {
  if (!cr || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_column_reader_next: bad arguments");
  PQT_RETURN_NOT_OK(pqt_struct_size_check(pqt_struct_size_of(out), sizeof *out, "pqt_column_batch", err));
  pqt_column_batch b;
  pqt_status st = column_reader_next(cr, max_levels, &b, err);
  if (st != PQT_OK) memset(&b, 0, sizeof b);
  (void)pqt_struct_copy_out(out, &b, sizeof b, "pqt_column_batch", NULL); /* size checked above */
  return st;
}

PQT_API void pqt_column_reader_close(pqt_column_reader *cr) {
  if (!cr) return;
  pqt_column_data_free(&cr->cd);
  pqt_buf_free(&cr->scratch_def);
  pqt_buf_free(&cr->scratch_bool);
  pqt_reader *r = cr->r;
  pqt_mem_free(cr->alloc, cr, sizeof *cr);
  pqt_reader_unref(r);
}
