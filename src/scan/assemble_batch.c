/*
 * scan/assemble_batch.c: the one place a batch of decoded leaf columns
 * becomes the top-level fields a reader hands out, for every way a row
 * group is read (scan/row_group.c whole or by batches, its recovery, and
 * scan/ranged.c's selective reads). What a field looks like must not depend
 * on how its rows were found: every step after the array tree is built
 * (VARIANT reconstruction, and any later one) is applied here.
 */
#include "arrow/assemble.h"
#include "arrow/variant_arrow.h"
#include "scan/row_group.h"

pqt_status pqt_batch_assemble(pqt_reader *r, int32_t g, pqt_column_data *cols, const uint8_t *mask,
                              const uint8_t *rebuild, int64_t rows, int64_t row_base, pqt_row_group_data *out,
                              pqt_error *err) {
  const pqt_schema_node *root = r->schema->root;
  const int32_t nl = r->schema->n_leaves;
  memset(out, 0, sizeof *out);
  int32_t nf = 0;
  for (int32_t k = 0; k < root->n_children; k++) {
    const pqt_schema_node *f = root->children[k];
    for (int32_t i = f->first_leaf; i < f->first_leaf + f->n_leaves; i++)
      if (mask[i]) {
        nf++;
        break;
      }
  }
  out->fields = pqt_mem_calloc(r->data_alloc, sizeof(pqt_array *) * (size_t)(nf ? nf : 1));
  out->n_fields_cap = nf ? nf : 1;
  if (!out->fields) return pqt_nomem(err);
  out->num_rows = rows;
  pqt_status st = PQT_OK;
  for (int32_t k = 0; k < root->n_children && st == PQT_OK; k++) {
    const pqt_schema_node *f = root->children[k];
    bool any = false;
    for (int32_t i = f->first_leaf; i < f->first_leaf + f->n_leaves; i++) any |= mask[i] != 0;
    if (!any) continue;
    st = pqt_reader_limit_status(
        r, pqt_assemble_field(f, cols, nl, mask, r->data_alloc, &out->fields[out->n_fields], err), err);
    if (st == PQT_OK) {
      pqt_array **slot = &out->fields[out->n_fields];
      out->n_fields++;
      if ((*slot)->length != rows)
        st = pqt_corrupt(err, "field %s has %lld rows, the batch %lld", f->name, (long long)(*slot)->length,
                         (long long)rows);
      /* post-assembly steps, the same for every read path */
      if (st == PQT_OK) st = pqt_variant_rebuild_tree(r->data_alloc, slot, rebuild ? rebuild : mask, row_base, err);
    }
    if (st != PQT_OK) {
      if (err) err->row_group = g;
      pqt_error_prefix(err, "row group %d, field %s", g, f->name);
    }
  }
  return st;
}
