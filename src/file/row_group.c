/*
 * file/row_group.c: reading one row group: for each projected leaf, locate
 * its column chunk (spec "Column chunks"; interop: dictionary_page_offset
 * of 0 means absent, and the chunk starts at the smaller valid offset),
 * decode it, then assemble the top-level fields. Errors are prefixed with
 * the row group and column path, and carry them in pqt_error's fields.
 */
#include "file/row_group.h"

#include <stdio.h>

#include "arrow/assemble.h"
#include "column/column_reader.h"
#include "crypto/crypto.h"

pqt_status pqt_projection_resolve(const pqt_reader *r, const pqt_scan_options *opts, uint8_t *selected,
                                  pqt_error *err) {
  const pqt_schema *sc = r->schema;
  if (!opts || !opts->columns || opts->n_columns == 0) {
    memset(selected, 1, (size_t)sc->n_leaves);
    return PQT_OK;
  }
  memset(selected, 0, (size_t)sc->n_leaves);
  for (int32_t k = 0; k < opts->n_columns; k++) {
    const char *want = opts->columns[k];
    size_t wl = strlen(want);
    bool found = false;
    for (int32_t i = 0; i < sc->n_leaves; i++) {
      const char *p = sc->leaves[i]->dotted_path;
      /* a leaf matches when its path equals `want` or lies below it */
      if (strncmp(p, want, wl) == 0 && (p[wl] == '\0' || p[wl] == '.')) {
        selected[i] = 1;
        found = true;
      }
    }
    if (!found) return pqt_error_set(err, PQT_EINVAL, "no column named '%s'", want);
  }
  return PQT_OK;
}

pqt_status pqt_chunk_range(const pqt_reader *r, const pqt_column_metadata *cm, uint64_t *start, uint64_t *len,
                              pqt_error *err) {
  /* The chunk starts at the smaller valid offset: some writers store a
   * dictionary_page_offset of 0 for "none", others a data_page_offset of 0
   * with the real start in dictionary_page_offset. The page headers decide
   * what is where. */
  int64_t s = cm->data_page_offset >= 4 ? cm->data_page_offset : -1;
  if (PQT_HAS(cm, 11) && cm->dictionary_page_offset >= 4 && (s < 0 || cm->dictionary_page_offset < s))
    s = cm->dictionary_page_offset;
  PQT_CHECK_CORRUPT(s >= 4, err, "column chunk has no valid offset (data_page_offset %lld)",
                    (long long)cm->data_page_offset);
  PQT_CHECK_CORRUPT(cm->total_compressed_size >= 0, err, "negative total_compressed_size");
  uint64_t end = (uint64_t)s + (uint64_t)cm->total_compressed_size;
  PQT_CHECK_CORRUPT(end <= r->io.size, err, "column chunk [%lld, +%lld) runs past the end of the file (%llu bytes)",
                    (long long)s, (long long)cm->total_compressed_size, (unsigned long long)r->io.size);
  *start = (uint64_t)s;
  *len = (uint64_t)cm->total_compressed_size;
  return PQT_OK;
}

typedef struct page_loss_ctx {
  pqt_reader *r;
  int32_t g;
  const pqt_schema_node *leaf;
} page_loss_ctx;

static void page_lost(void *ctx, int32_t page, int64_t entries, const pqt_error *why) {
  page_loss_ctx *c = ctx;
  if (!c->r->opts.on_skip) return;
  pqt_error e;
  pqt_error_init(&e);
  e.code = why ? why->code : PQT_ECORRUPT;
  e.row_group = c->g;
  e.column = c->leaf->column_index;
  e.page = page;
  snprintf(e.message, sizeof e.message, "row group %d, column %.200s, page %d: %.250s (its %lld values read as nulls)", c->g,
           c->leaf->dotted_path, page, why ? why->message : "unreadable", (long long)entries);
  c->r->opts.on_skip(c->r->opts.on_skip_ctx, &e, 0);
}

static pqt_status read_leaf(pqt_reader *r, int32_t g, int32_t leaf, pqt_column_data *cd, pqt_error *err) {
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  const pqt_column_chunk *cc = &rg->columns.items[leaf];
  const pqt_schema_node *ln = r->schema->leaves[leaf];
  pqt_module_decryptor dec;
  bool encrypted = PQT_HAS(cc, 8);
  if (encrypted) {
    if (!r->crypto)
      return pqt_error_set(err, PQT_ECRYPTO, "column is encrypted but the file has no encryption algorithm");
    PQT_RETURN_NOT_OK(pqt_file_decryptor_column(r->crypto, cc, ln->dotted_path,
                                                pqt_file_decryptor_row_group_ordinal(rg, g), leaf, &dec, err));
  }
  if (!PQT_HAS(cc, 3)) {
    if (PQT_HAS(cc, 9)) return pqt_error_set(err, PQT_ECRYPTO, "column metadata is encrypted: a key is needed");
    return pqt_corrupt(err, "column chunk has no metadata");
  }
  const pqt_column_metadata *cm = &cc->meta_data;
  if (PQT_HAS(cc, 1) && cc->file_path.len > 0)
    return pqt_error_set(err, PQT_EUNSUPPORTED, "column data in another file (file_path) is not supported");
  PQT_CHECK_CORRUPT(cm->type == ln->physical_type, err, "column chunk type %d differs from the schema's %d", cm->type,
                    ln->physical_type);
  uint64_t start = 0, len = 0;
  PQT_RETURN_NOT_OK(pqt_chunk_range(r, cm, &start, &len, err));
  int16_t repeated_def[PQT_SCHEMA_MAX_DEPTH + 1];
  int k = 0;
  for (const pqt_schema_node *x = ln; x && k <= PQT_SCHEMA_MAX_DEPTH; x = x->parent)
    if (x->repetition == PQT_REPEATED) k++;
  PQT_CHECK_CORRUPT(k == ln->max_rep, err, "inconsistent repetition levels");
  for (const pqt_schema_node *x = ln; x; x = x->parent)
    if (x->repetition == PQT_REPEATED) repeated_def[--k] = x->max_def;
  int lt = pqt_union_which(ln->logical.isset);
  bool is_text = lt == PQT_LT_STRING || lt == PQT_LT_ENUM || lt == PQT_LT_JSON ||
                 (lt == 0 && (ln->converted_type == PQT_CT_UTF8 || ln->converted_type == PQT_CT_ENUM ||
                              ln->converted_type == PQT_CT_JSON));
  pqt_column_desc desc = {ln->physical_type, ln->type_length,  ln->max_def, ln->max_rep, repeated_def, ln->dotted_path,
                          is_text && r->opts.validate_utf8};
  pqt_column_read_options o;
  memset(&o, 0, sizeof o);
  pqt_page_reader_options_init(&o.page);
  o.page.verify_crc = r->opts.verify_checksums != 0;
  if (encrypted) {
    o.page.decryptor = &dec;
    o.page.dictionary_first = PQT_HAS(cm, 11) && cm->dictionary_page_offset > 0;
  }
  o.expected_rows = rg->num_rows;
  o.max_values = INT32_MAX;
  o.expected_values = cm->num_values;
  /* with PQT_SKIP_CORRUPT, a top-level optional column loses only its bad pages */
  page_loss_ctx plc = {r, g, ln};
  if (r->opts.on_error == PQT_SKIP_CORRUPT && ln->max_rep == 0 && ln->max_def == 1 && ln->parent == r->schema->root) {
    o.null_corrupt_pages = true;
    o.on_page_lost = page_lost;
    o.on_page_lost_ctx = &plc;
  }
  pqt_status st = pqt_column_read_chunk(&r->io, start, len, cm->codec, &desc, r->codec_ctx, &o, r->data_alloc, cd, err);
  if (encrypted) pqt_module_decryptor_wipe(&dec);
  return st;
}

/* An allocation refused at pqt_read_options.max_memory reads as ELIMIT. */
pqt_status pqt_reader_limit_status(pqt_reader *r, pqt_status st, pqt_error *err) {
  if (st == PQT_ENOMEM && pqt_pool_take_limit_hit(r->pool))
    return pqt_error_set(err, PQT_ELIMIT, "the memory ceiling of %llu bytes (max_memory) would be exceeded",
                         (unsigned long long)r->opts.max_memory);
  return st;
}

pqt_status pqt_row_group_read_leaf(pqt_reader *r, int32_t g, int32_t leaf, pqt_column_data *cd, pqt_error *err) {
  pqt_status st = pqt_reader_limit_status(r, read_leaf(r, g, leaf, cd, err), err);
  if (st != PQT_OK) {
    if (err) {
      err->row_group = g;
      err->column = leaf;
    }
    pqt_error_prefix(err, "row group %d, column %s", g, r->schema->leaves[leaf]->dotted_path);
  }
  return st;
}

/* ---- chunk loss (PQT_SKIP_CORRUPT) ---------------------------------------- */

static const pqt_schema_node *top_field(const pqt_schema_node *n) {
  while (n->parent && n->parent->parent) n = n->parent;
  return n;
}

/* A damaged chunk costs only its top-level field's values (read as null)
 * when that field is optional; otherwise the row group is lost. */
static bool chunk_loss_allowed(const pqt_reader *r, pqt_status st, const pqt_schema_node *leaf) {
  if (r->opts.on_error != PQT_SKIP_CORRUPT) return false;
  if (st != PQT_ECORRUPT && st != PQT_EUNSUPPORTED && st != PQT_ECRYPTO) return false;
  return top_field(leaf)->repetition == PQT_OPTIONAL;
}

static void report_chunk_loss(pqt_reader *r, int32_t g, const pqt_schema_node *leaf, const pqt_schema_node *f,
                              int64_t rows, const pqt_error *why) {
  if (!r->opts.on_skip) return;
  pqt_error e;
  pqt_error_init(&e);
  e.code = why && why->code ? why->code : PQT_ECORRUPT;
  e.row_group = g;
  e.column = leaf->column_index;
  e.page = why ? why->page : -1;
  snprintf(e.message, sizeof e.message, "%.300s (field %.100s reads as null in its %lld rows)",
           why ? why->message : "unreadable", f->name, (long long)rows);
  r->opts.on_skip(r->opts.on_skip_ctx, &e, 0);
}

/* Column data of `rows` records, each null at the top level. */
static pqt_status null_leaf(pqt_column_data *cd, const pqt_schema_node *leaf, int64_t rows,
                            const pqt_allocator *alloc, pqt_error *err) {
  pqt_column_data_free(cd);
  pqt_column_data_init(cd, alloc);
  PQT_CHECK_CORRUPT(rows >= 0 && rows <= INT32_MAX, err, "row count %lld out of range", (long long)rows);
  size_t n = (size_t)rows * sizeof(int16_t);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->def, n + 2, err));
  memset(cd->def.data, 0, n);
  cd->def.len = n;
  if (leaf->max_rep > 0) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->rep, n + 2, err));
    memset(cd->rep.data, 0, n);
    cd->rep.len = n;
  }
  if (leaf->physical_type == PQT_BYTE_ARRAY) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cd->offsets, sizeof(int32_t), err));
    memset(cd->offsets.data, 0, sizeof(int32_t));
    cd->offsets.len = sizeof(int32_t);
  }
  cd->n_levels = rows;
  cd->n_rows = rows;
  return PQT_OK;
}

void pqt_row_group_data_free(const pqt_allocator *alloc, pqt_row_group_data *d) {
  for (int32_t i = 0; i < d->n_fields; i++) pqt_array_free(alloc, d->fields[i]);
  if (d->fields) pqt_mem_free(alloc, d->fields, sizeof(pqt_array *) * (size_t)d->n_fields_cap);
  memset(d, 0, sizeof *d);
}

pqt_status pqt_row_group_read(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_row_group_data *out,
                              pqt_error *err) {
  memset(out, 0, sizeof *out);
  if (g < 0 || g >= r->md.row_groups.n) return pqt_error_set(err, PQT_EINVAL, "no row group %d", g);
  const pqt_schema *sc = r->schema;
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  int32_t nl = sc->n_leaves;
  size_t cols_bytes = (sizeof(pqt_column_data) + 1) * (size_t)(nl ? nl : 1);
  pqt_column_data *cols = pqt_mem_calloc(r->data_alloc, cols_bytes);
  if (!cols) return pqt_nomem(err);
  uint8_t *lost = (uint8_t *)(cols + (nl ? nl : 1)); /* leaves of fields read as null */
  for (int32_t i = 0; i < nl; i++) pqt_column_data_init(&cols[i], r->data_alloc);
  pqt_status st = PQT_OK;
  int32_t n_read = 0, n_lost = 0;
  for (int32_t i = 0; i < nl && st == PQT_OK; i++) {
    if (!selected[i]) continue;
    st = pqt_row_group_read_leaf(r, g, i, &cols[i], err);
    if (st == PQT_OK) {
      n_read++;
    } else if (chunk_loss_allowed(r, st, sc->leaves[i])) {
      /* the chunk is lost; its top-level field reads as null (below) */
      const pqt_schema_node *f = top_field(sc->leaves[i]);
      report_chunk_loss(r, g, sc->leaves[i], f, rg->num_rows, err);
      for (int32_t k = f->first_leaf; k < f->first_leaf + f->n_leaves; k++) {
        if (selected[k] && k < i) n_read--; /* read before the damaged one: dropped too */
        lost[k] = selected[k];
      }
      n_lost++;
      i = f->first_leaf + f->n_leaves - 1;
      st = PQT_OK;
    }
  }
  /* Lost fields become nulls, when a column that did read vouches for the
   * row group's row count (so num_rows alone never sizes the nulls). */
  if (st == PQT_OK && n_lost > 0) {
    if (n_read <= 0) {
      st = pqt_corrupt(err, "every column read is damaged");
    } else {
      for (int32_t i = 0; i < nl && st == PQT_OK; i++)
        if (lost[i]) st = null_leaf(&cols[i], sc->leaves[i], rg->num_rows, r->data_alloc, err);
    }
  }
  /* top-level fields with at least one projected leaf */
  const pqt_schema_node *root = sc->root;
  int32_t nf = 0;
  for (int32_t k = 0; k < root->n_children; k++) {
    const pqt_schema_node *f = root->children[k];
    for (int32_t i = f->first_leaf; i < f->first_leaf + f->n_leaves; i++)
      if (selected[i]) { nf++; break; }
  }
  if (st == PQT_OK) {
    out->fields = pqt_mem_calloc(r->data_alloc, sizeof(pqt_array *) * (size_t)(nf ? nf : 1));
    out->n_fields_cap = nf ? nf : 1;
    if (!out->fields) st = pqt_nomem(err);
  }
  out->num_rows = rg->num_rows;
  for (int32_t k = 0; k < root->n_children && st == PQT_OK; k++) {
    const pqt_schema_node *f = root->children[k];
    bool any = false;
    for (int32_t i = f->first_leaf; i < f->first_leaf + f->n_leaves; i++) any |= selected[i] != 0;
    if (!any) continue;
    st = pqt_reader_limit_status(r, pqt_assemble_field(f, cols, nl, selected, r->data_alloc, &out->fields[out->n_fields], err),
                      err);
    if (st == PQT_OK) {
      if (out->fields[out->n_fields]->length != rg->num_rows)
        st = pqt_corrupt(err, "field %s has %lld rows, the row group %lld", f->name,
                         (long long)out->fields[out->n_fields]->length, (long long)rg->num_rows);
      out->n_fields++;
    }
    if (st != PQT_OK) {
      if (err) err->row_group = g;
      pqt_error_prefix(err, "row group %d, field %s", g, f->name);
    }
  }
  for (int32_t i = 0; i < nl; i++) pqt_column_data_free(&cols[i]);
  pqt_mem_free(r->data_alloc, cols, cols_bytes);
  if (st != PQT_OK) pqt_row_group_data_free(r->data_alloc, out);
  return st;
}

pqt_status pqt_row_group_read_recover(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_row_group_data *out,
                                      bool *skipped, pqt_error *err) {
  *skipped = false;
  pqt_error local;
  pqt_error_init(&local);
  pqt_status st = pqt_reader_limit_status(r, pqt_row_group_read(r, g, selected, out, &local), &local);
  if (st == PQT_OK) return PQT_OK;
  bool recoverable = st == PQT_ECORRUPT || st == PQT_EUNSUPPORTED || st == PQT_ECRYPTO;
  if (r->opts.on_error != PQT_SKIP_CORRUPT || !recoverable) {
    if (err) *err = local;
    return st;
  }
  /* the row group is lost, the rest of the file is not */
  *skipped = true;
  if (r->opts.on_skip) r->opts.on_skip(r->opts.on_skip_ctx, &local, r->md.row_groups.items[g].num_rows);
  return PQT_OK;
}
