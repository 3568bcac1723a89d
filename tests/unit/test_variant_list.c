/* VARIANT inside lists and maps through Arrow: list<parquet.variant> and
 * map<string, parquet.variant> written unshredded and shredded (a
 * variant_shredding entry naming "l.list.element" / "m.key_value.value"),
 * read back reconstructed as list<arrow.parquet.variant> with equal values:
 * random values, null lists, null elements, empty lists, null maps. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "variant_fixture.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_variant.h"


/* ---- random values ---------------------------------------------------------- */

static pqt_vt_rng rng_state;
static bool plain_values; /* no decimals or doubles (their JSON forms differ between readers) */

static void gen(FILE *f, int depth) {
  uint32_t k = pqt_vt_rnd(&rng_state) % (depth > 2 ? 6 : 9);
  if (plain_values && (k == 3 || k == 5)) k = 1;
  switch (k) {
    case 0: fprintf(f, "%d", (int)(pqt_vt_rnd(&rng_state) % 100000) - 50000); break;
    case 1: fprintf(f, "\"s%u\"", pqt_vt_rnd(&rng_state) % 1000); break;
    case 2: fputs(pqt_vt_rnd(&rng_state) % 2 ? "true" : "null", f); break;
    case 3: fprintf(f, "%u.%02u", pqt_vt_rnd(&rng_state) % 1000, pqt_vt_rnd(&rng_state) % 100); break;
    case 4: fprintf(f, "%lld", (long long)pqt_vt_rnd(&rng_state) * 1000003LL); break;
    case 5: fprintf(f, "1.5e%u", pqt_vt_rnd(&rng_state) % 30); break;
    case 6:
    case 7: /* the shape the shredding schemas name, with extras */
      fprintf(f, "{\"a\":%d,\"b\":\"x%u\"", (int)(pqt_vt_rnd(&rng_state) % 100), pqt_vt_rnd(&rng_state) % 50);
      if (pqt_vt_rnd(&rng_state) % 3 == 0) {
        fputs(",\"c\":", f);
        gen(f, depth + 1);
      }
      fputc('}', f);
      break;
    default: {
      int n = (int)(pqt_vt_rnd(&rng_state) % 4);
      fputc('[', f);
      for (int i = 0; i < n; i++) {
        if (i) fputc(',', f);
        gen(f, depth + 1);
      }
      fputc(']', f);
    }
  }
}

/* ---- Arrow input ------------------------------------------------------------ */

#define NROWS 600
#define MAXE  (NROWS * 4)

typedef struct input {
  pqt_variant_owned own[MAXE];
  bool elem_null[MAXE];
  int64_t n_elems;
  int32_t offs[NROWS + 1];
  bool row_null[NROWS];
  /* Arrow buffers */
  int32_t moff[MAXE + 1], voff[MAXE + 1], koff[MAXE + 1];
  uint8_t *mdata, *vdata;
  char kdata[MAXE * 8];
  uint8_t evalid[MAXE / 8 + 1], lvalid[NROWS / 8 + 1];
  const void *b_m[3], *b_v[3], *b_k[3], *b_var[1], *b_list[2], *b_ent[1], *b_root[1];
  struct ArrowArray am, av, avar, alist, ak, aent, amap, aroot;
  struct ArrowArray *k_var[2], *k_list[1], *k_ent[2], *k_map[1], *k_root[2];
  struct ArrowSchema sm, sv, svar, slist, svar2, sk, sent, smap, sroot;
  struct ArrowSchema *ks_var[2], *ks_list[1], *ks_var2[2], *ks_ent[2], *ks_map[1], *ks_root[2];
} input;

static void set_bit(uint8_t *b, int64_t i) { b[i / 8] |= (uint8_t)(1u << (i % 8)); }

/* bad_at >= 0: that element's value bytes cut short (invalid) */
static void input_make(input *x, uint64_t seed, int64_t bad_at) {
  memset(x, 0, sizeof *x);
  rng_state.s = seed;
  int64_t e = 0, lnulls = 0, enulls = 0;
  for (int r = 0; r < NROWS; r++) {
    x->offs[r] = (int32_t)e;
    x->row_null[r] = r % 11 == 10;
    int n = x->row_null[r] ? 0 : (int)(pqt_vt_rnd(&rng_state) % 4); /* 0: an empty list */
    if (x->row_null[r]) lnulls++;
    else set_bit(x->lvalid, r);
    for (int i = 0; i < n; i++, e++) {
      x->elem_null[e] = pqt_vt_rnd(&rng_state) % 6 == 0;
      if (x->elem_null[e]) {
        enulls++;
        continue;
      }
      set_bit(x->evalid, e);
      char *p = NULL;
      size_t len = 0;
      FILE *f = open_memstream(&p, &len);
      gen(f, 0);
      fclose(f);
      pqt_error err;
      if (pqt_variant_from_json(p, len, NULL, &x->own[e], &err) != PQT_OK) {
        fprintf(stderr, "  from_json %s: %s\n", p, err.message);
        pqt_t_current_failed = 1;
      }
      free(p);
    }
  }
  x->offs[NROWS] = (int32_t)e;
  x->n_elems = e;
  size_t mt = 0, vt = 0;
  for (int64_t i = 0; i < e; i++) {
    mt += x->own[i].view.metadata_len;
    vt += x->own[i].view.value_len;
  }
  x->mdata = malloc(mt + 1);
  x->vdata = malloc(vt + 1);
  for (int64_t i = 0; i < e; i++) {
    const pqt_variant *v = &x->own[i].view;
    size_t vl = v->value_len;
    if (i == bad_at && vl > 1) vl = 1;
    if (v->metadata) memcpy(x->mdata + x->moff[i], v->metadata, v->metadata_len);
    if (v->value) memcpy(x->vdata + x->voff[i], v->value, vl);
    x->moff[i + 1] = x->moff[i] + (int32_t)v->metadata_len;
    x->voff[i + 1] = x->voff[i] + (int32_t)vl;
    int kl = snprintf(x->kdata + x->koff[i], 8, "k%lld", (long long)(i % 100000));
    x->koff[i + 1] = x->koff[i] + kl;
  }
  /* the Variant struct array, shared by the list and the map */
  x->b_m[1] = x->moff;
  x->b_m[2] = x->mdata;
  x->b_v[1] = x->voff;
  x->b_v[2] = x->vdata;
  x->am = (struct ArrowArray){.length = e, .n_buffers = 3, .buffers = x->b_m, .release = pqt_vt_noop_array_release};
  x->av = (struct ArrowArray){.length = e, .n_buffers = 3, .buffers = x->b_v, .release = pqt_vt_noop_array_release};
  x->k_var[0] = &x->am;
  x->k_var[1] = &x->av;
  x->b_var[0] = x->evalid;
  x->avar = (struct ArrowArray){.length = e,
                                .null_count = enulls,
                                .n_buffers = 1,
                                .buffers = x->b_var,
                                .n_children = 2,
                                .children = x->k_var,
                                .release = pqt_vt_noop_array_release};
  x->b_list[0] = x->lvalid;
  x->b_list[1] = x->offs;
  x->k_list[0] = &x->avar;
  x->alist = (struct ArrowArray){.length = NROWS,
                                 .null_count = lnulls,
                                 .n_buffers = 2,
                                 .buffers = x->b_list,
                                 .n_children = 1,
                                 .children = x->k_list,
                                 .release = pqt_vt_noop_array_release};
  x->b_k[1] = x->koff;
  x->b_k[2] = x->kdata;
  x->ak = (struct ArrowArray){.length = e, .n_buffers = 3, .buffers = x->b_k, .release = pqt_vt_noop_array_release};
  x->k_ent[0] = &x->ak;
  x->k_ent[1] = &x->avar;
  x->aent = (struct ArrowArray){.length = e,
                                .n_buffers = 1,
                                .buffers = x->b_ent,
                                .n_children = 2,
                                .children = x->k_ent,
                                .release = pqt_vt_noop_array_release};
  x->k_map[0] = &x->aent;
  x->amap = x->alist;
  x->amap.children = x->k_map;
  x->k_root[0] = &x->alist;
  x->k_root[1] = &x->amap;
  x->aroot = (struct ArrowArray){.length = NROWS,
                                 .n_buffers = 1,
                                 .buffers = x->b_root,
                                 .n_children = 2,
                                 .children = x->k_root,
                                 .release = pqt_vt_noop_array_release};
  /* schema: struct<l: list<element: parquet.variant>, m: map<string, parquet.variant>> */
  x->sm = (struct ArrowSchema){.format = "z", .name = "metadata", .release = pqt_vt_noop_schema_release};
  x->sv = (struct ArrowSchema){.format = "z", .name = "value", .release = pqt_vt_noop_schema_release};
  x->ks_var[0] = &x->sm;
  x->ks_var[1] = &x->sv;
  x->svar = (struct ArrowSchema){.format = "+s",
                                 .name = "element",
                                 .metadata = PQT_VT_EXT_MD,
                                 .flags = ARROW_FLAG_NULLABLE,
                                 .n_children = 2,
                                 .children = x->ks_var,
                                 .release = pqt_vt_noop_schema_release};
  x->ks_list[0] = &x->svar;
  x->slist = (struct ArrowSchema){.format = "+l",
                                  .name = "l",
                                  .flags = ARROW_FLAG_NULLABLE,
                                  .n_children = 1,
                                  .children = x->ks_list,
                                  .release = pqt_vt_noop_schema_release};
  x->svar2 = x->svar;
  x->svar2.name = "value";
  x->sk = (struct ArrowSchema){.format = "u", .name = "key", .release = pqt_vt_noop_schema_release};
  x->ks_ent[0] = &x->sk;
  x->ks_ent[1] = &x->svar2;
  x->sent = (struct ArrowSchema){
      .format = "+s", .name = "entries", .n_children = 2, .children = x->ks_ent, .release = pqt_vt_noop_schema_release};
  x->ks_map[0] = &x->sent;
  x->smap = (struct ArrowSchema){.format = "+m",
                                 .name = "m",
                                 .flags = ARROW_FLAG_NULLABLE,
                                 .n_children = 1,
                                 .children = x->ks_map,
                                 .release = pqt_vt_noop_schema_release};
  x->ks_root[0] = &x->slist;
  x->ks_root[1] = &x->smap;
  x->sroot = (struct ArrowSchema){
      .format = "+s", .name = "", .n_children = 2, .children = x->ks_root, .release = pqt_vt_noop_schema_release};
}

static void input_free(input *x) {
  for (int64_t i = 0; i < x->n_elems; i++) pqt_variant_owned_free(&x->own[i]);
  free(x->mdata);
  free(x->vdata);
}

/* the layout of input as a message schema */
static const char msg_schema[] =
    "message m { optional group l (LIST) { repeated group list { optional group element (VARIANT(1)) {"
    " required binary metadata; required binary value; } } }"
    " optional group m (MAP) { repeated group key_value { required binary key (STRING);"
    " optional group value (VARIANT(1)) { required binary metadata; required binary value; } } } }";
static const char msg_schema_wrapped[] =
    "message m { required group s { optional group l (LIST) { repeated group list {"
    " optional group element (VARIANT(1)) { required binary metadata; required binary value; } } } }"
    " optional group m (MAP) { repeated group key_value { required binary key (STRING);"
    " optional group value (VARIANT(1)) { required binary metadata; required binary value; } } } }";
static bool use_message; /* write_input gives msg_schema instead of the Arrow schema */
static bool wrapped;     /* the list inside a struct s (s.l.list.element) */

static pqt_status write_input(input *x, const char *shred_list, const char *shred_map, pqt_string *out, pqt_error *e) {
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.page_row_limit = 50; /* several pages */
  o.row_group_rows = 250;         /* several row groups */
  pqt_variant_shredding sh[2] = {
      {.struct_size = sizeof sh[0], .column = "l.list.element", .typed_value = shred_list},
      {.struct_size = sizeof sh[0], .column = "m.key_value.value", .typed_value = shred_map}};
  o.variant_shredding = sh;
  o.n_variant_shredding = 2;
  pqt_write_schema ws = {.struct_size = sizeof ws, .arrow = &x->sroot};
  if (use_message)
    ws = (pqt_write_schema){.struct_size = sizeof ws, .message = wrapped ? msg_schema_wrapped : msg_schema};
  /* wrapped: struct<s: struct<l>, m> */
  struct ArrowSchema *ks[1] = {&x->slist}, *kr[2] = {NULL, &x->smap};
  struct ArrowSchema ss = {
      .format = "+s", .name = "s", .n_children = 1, .children = ks, .release = pqt_vt_noop_schema_release};
  struct ArrowSchema sr = x->sroot;
  kr[0] = &ss;
  sr.children = kr;
  struct ArrowArray *ka[1] = {&x->alist}, *kra[2] = {NULL, &x->amap};
  const void *nob[1] = {NULL};
  struct ArrowArray as = {
      .length = NROWS, .n_buffers = 1, .buffers = nob, .n_children = 1, .children = ka, .release = pqt_vt_noop_array_release};
  struct ArrowArray ar = x->aroot;
  kra[0] = &as;
  ar.children = kra;
  if (wrapped) {
    sh[0].column = "s.l.list.element";
    if (!use_message) ws.arrow = &sr;
  }
  pqt_writer *w;
  pqt_status st = pqt_writer_open_buffer(&w, out, &ws, &o, e);
  if (st == PQT_OK) {
    st = pqt_writer_write_batch(w, wrapped ? &ar : &x->aroot, e);
    if (st == PQT_OK) st = pqt_writer_close(w, e);
    else pqt_writer_discard(w);
  }
  return st;
}

/* ---- reading back ----------------------------------------------------------- */

static bool is_valid(const struct ArrowArray *a, int64_t i) {
  const uint8_t *v = a->null_count ? a->buffers[0] : NULL;
  int64_t j = a->offset + i;
  return !v || ((v[j >> 3] >> (j & 7)) & 1);
}

static bool has_ext(const struct ArrowSchema *s) {
  const char *p = s->metadata;
  if (!p) return false;
  int32_t n, kl, vl;
  memcpy(&n, p, 4);
  p += 4;
  for (int32_t i = 0; i < n; i++) {
    memcpy(&kl, p, 4);
    const char *k = p + 4;
    memcpy(&vl, k + kl, 4);
    const char *v = k + kl + 4;
    if (kl == 20 && memcmp(k, "ARROW:extension:name", 20) == 0 && vl >= 15 &&
        memcmp(v + vl - 15, "parquet.variant", 15) == 0)
      return true;
    p = v + vl;
  }
  return false;
}

static bool has_child(const struct ArrowSchema *s, const char *name) {
  for (int64_t k = 0; k < s->n_children; k++)
    if (strcmp(s->children[k]->name, name) == 0) return true;
  return false;
}

/* One reconstructed Variant struct array `var` at index i against element e. */
static int64_t check_elem(const input *x, const struct ArrowArray *var, int64_t i, int64_t e, const char *label,
                          int64_t row) {
  bool want = !x->elem_null[e], got = is_valid(var, i);
  if (want != got) {
    fprintf(stderr, "  %s row %lld element %lld: null %d, want %d\n", label, (long long)row, (long long)e, !got, !want);
    return 1;
  }
  if (!want) return 0;
  const struct ArrowArray *am = var->children[0], *av = var->children[1];
  const int32_t *mo = am->buffers[1], *vo = av->buffers[1];
  int64_t mi = am->offset + var->offset + i, vi = av->offset + var->offset + i;
  pqt_variant g = {(const uint8_t *)am->buffers[2] + mo[mi], (size_t)(mo[mi + 1] - mo[mi]),
                   (const uint8_t *)av->buffers[2] + vo[vi], (size_t)(vo[vi + 1] - vo[vi])};
  int eq = 0;
  pqt_error err;
  if (pqt_variant_equal(&x->own[e].view, &g, &eq, &err) == PQT_OK && eq) return 0;
  fprintf(stderr, "  %s row %lld element %lld differs\n", label, (long long)row, (long long)e);
  return 1;
}

static void read_back(const input *x, const pqt_string *out, bool shredded_list, bool shredded_map, const char *label) {
  pqt_error e;
  pqt_reader *r = NULL;
  pqt_read_options ro;
  struct ArrowArrayStream stream;
  struct ArrowSchema sch;
  /* as stored: typed_value where a shredding entry named the path */
  pqt_read_options_init(&ro);
  ro.variant_shredded = 1;
  CHECK_OK(pqt_reader_open_buffer(&r, out->data, out->len, &ro, &e));
  if (!r) return;
  CHECK_OK(pqt_reader_get_stream(r, NULL, &stream, &e));
  CHECK(stream.get_schema(&stream, &sch) == 0);
  const struct ArrowSchema *sl = wrapped ? sch.children[0]->children[0] : sch.children[0];
  CHECK_EQ_INT(has_child(sl->children[0], "typed_value"), shredded_list);
  CHECK_EQ_INT(has_child(sch.children[1]->children[0]->children[1], "typed_value"), shredded_map);
  sch.release(&sch);
  stream.release(&stream);
  pqt_reader_close(r);
  /* reconstructed: list<arrow.parquet.variant>, map<string, arrow.parquet.variant> */
  pqt_read_options_init(&ro);
  CHECK_OK(pqt_reader_open_buffer(&r, out->data, out->len, &ro, &e));
  CHECK_OK(pqt_reader_get_stream(r, NULL, &stream, &e));
  CHECK(stream.get_schema(&stream, &sch) == 0);
  sl = wrapped ? sch.children[0]->children[0] : sch.children[0];
  CHECK_EQ_STR(sl->format, "+l");
  CHECK_MSG(has_ext(sl->children[0]), "%s: list element without the extension", label);
  CHECK_EQ_STR(sch.children[1]->format, "+m");
  CHECK_MSG(has_ext(sch.children[1]->children[0]->children[1]), "%s: map value without the extension", label);
  sch.release(&sch);
  int64_t row = 0, bad = 0;
  struct ArrowArray b;
  while (stream.get_next(&stream, &b) == 0 && b.release) {
    for (int c = 0; c < 2; c++) {
      const struct ArrowArray *l = b.children[c];
      if (wrapped && c == 0) l = l->children[0]; /* s is never null */
      const struct ArrowArray *var = c == 0 ? l->children[0] : l->children[0]->children[1];
      const int32_t *lo = l->buffers[1];
      for (int64_t i = 0; i < b.length; i++) {
        int64_t rr = row + i;
        if (is_valid(l, i) == x->row_null[rr]) {
          if (bad++ < 5) fprintf(stderr, "  %s %c row %lld: null list mismatch\n", label, "lm"[c], (long long)rr);
          continue;
        }
        int64_t a = lo[l->offset + i], z = lo[l->offset + i + 1];
        if (z - a != x->offs[rr + 1] - x->offs[rr]) {
          if (bad++ < 5)
            fprintf(stderr, "  %s %c row %lld: %lld elements\n", label, "lm"[c], (long long)rr, (long long)(z - a));
          continue;
        }
        int64_t base = c == 1 ? l->children[0]->offset : 0; /* the entries struct's offset */
        for (int64_t k = a; k < z; k++) bad += check_elem(x, var, k + base, x->offs[rr] + (k - a), label, rr);
      }
    }
    row += b.length;
    b.release(&b);
  }
  CHECK_MSG(bad == 0 && row == NROWS, "%s: %lld differ, %lld rows read", label, (long long)bad, (long long)row);
  stream.release(&stream);
  pqt_reader_close(r);
}

static void roundtrip(uint64_t seed, const char *shred_list, const char *shred_map, const char *label) {
  static input x;
  input_make(&x, seed, -1);
  pqt_string out = {0};
  pqt_error e;
  pqt_status st = write_input(&x, shred_list, shred_map, &out, &e);
  CHECK_MSG(st == PQT_OK, "%s: %s", label, st == PQT_OK ? "" : e.message);
  if (st == PQT_OK) read_back(&x, &out, shred_list != NULL, shred_map != NULL, label);
  pqt_string_free(&out);
  input_free(&x);
}

static void test_unshredded(void) { roundtrip(1, NULL, NULL, "unshredded"); }

static void test_shredded(void) {
  roundtrip(2, "message s { optional int64 typed_value; }", "message s { optional binary typed_value (STRING); }",
            "primitive");
  roundtrip(3, "message s { optional group typed_value { optional int32 a; optional binary b (STRING); } }",
            "message s { optional group typed_value { optional int64 a; } }", "object");
  roundtrip(4,
            "message s { optional group typed_value (LIST) { repeated group list { optional group element {"
            " optional int64 a; optional binary b (STRING); } } } }",
            "message s { optional group typed_value (LIST) { repeated group list { optional int64 element; } } }",
            "list in list");
}

/* the same through a message schema: its VARIANT groups inside lists and
 * maps are validated and shredded as the Arrow ones are */
static void test_message_schema(void) {
  use_message = true;
  roundtrip(8, NULL, NULL, "message unshredded");
  roundtrip(9, "message s { optional group typed_value { optional int32 a; optional binary b (STRING); } }",
            "message s { optional int64 typed_value; }", "message shredded");
  use_message = false;
}

/* a list inside a struct: s.l.list.element, from Arrow and from a message */
static void test_in_struct(void) {
  wrapped = true;
  const char *obj = "message s { optional group typed_value { optional int32 a; optional binary b (STRING); } }";
  roundtrip(10, obj, NULL, "arrow s.l unshredded map");
  use_message = true;
  roundtrip(11, obj, NULL, "message s.l");
  use_message = false;
  wrapped = false;
}

/* an invalid element fails, naming the row and the column */
static void test_invalid_fails(void) {
  static input x;
  int64_t bad_at = -1;
  input_make(&x, 5, -1);
  for (int64_t i = 0; i < x.n_elems && bad_at < 0; i++)
    if (!x.elem_null[i] && x.own[i].view.value_len > 2 && i > 300) bad_at = i;
  input_free(&x);
  CHECK(bad_at > 0);
  input_make(&x, 5, bad_at);
  int64_t row = 0;
  while (x.offs[row + 1] <= bad_at) row++;
  for (int shred = 0; shred < 2; shred++) {
    pqt_string out = {0};
    pqt_error e;
    pqt_status st = write_input(&x, shred ? "message s { optional int64 typed_value; }" : NULL, NULL, &out, &e);
    CHECK(st != PQT_OK);
    char want[64];
    snprintf(want, sizeof want, "row %lld, column l.list.element", (long long)row);
    CHECK_MSG(st != PQT_OK && strstr(e.message, want), "%s (want %s)", st == PQT_OK ? "" : e.message, want);
    pqt_string_free(&out);
  }
  input_free(&x);
}

/* DuckDB reads what is written (l::JSON, m::JSON) with equal values
 * (tests/interop/duckdb_variant_list.mjs); skipped (77) without DuckDB. */
static void test_duckdb_reads(void) {
  char dir[] = "/tmp/pqt-variant-list.XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK(0);
    return;
  }
  static input x;
  plain_values = true;
  input_make(&x, 7, -1);
  plain_values = false;
  char path[256];
  snprintf(path, sizeof path, "%s/want.jsonl", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  for (int r = 0; f && r < NROWS; r++) {
    if (x.row_null[r]) {
      fputs("null\n", f);
      continue;
    }
    fputc('[', f);
    for (int32_t e = x.offs[r]; e < x.offs[r + 1]; e++) {
      if (e > x.offs[r]) fputc(',', f);
      pqt_string js = {0};
      pqt_error err;
      if (x.elem_null[e]) fputs("null", f);
      else if (pqt_variant_to_json(&x.own[e].view, &js, &err) == PQT_OK) fwrite(js.data, 1, js.len, f);
      else CHECK(0);
      pqt_string_free(&js);
    }
    fputs("]\n", f);
  }
  if (f) fclose(f);
  static const char *const shreds[2][3] = {
      {"unshredded", NULL, NULL},
      {"shredded", "message s { optional group typed_value { optional int32 a; optional binary b (STRING); } }",
       "message s { optional int64 typed_value; }"}};
  for (int i = 0; i < 2; i++) {
    pqt_string out = {0};
    pqt_error e;
    pqt_status st = write_input(&x, shreds[i][1], shreds[i][2], &out, &e);
    CHECK_MSG(st == PQT_OK, "%s", st == PQT_OK ? "" : e.message);
    snprintf(path, sizeof path, "%s/%s.parquet", dir, shreds[i][0]);
    FILE *o = fopen(path, "wb");
    CHECK(o && fwrite(out.data, 1, out.len, o) == out.len);
    if (o) fclose(o);
    pqt_string_free(&out);
  }
  input_free(&x);
  int rc = pqt_vt_run_duckdb("duckdb_variant_list.mjs", dir, 1);
  if (rc == 77) pqt_t_current_skipped = 1;
  else CHECK_EQ_INT(rc, 0);
}

RUN_TESTS("variant_list", {"unshredded", test_unshredded}, {"shredded", test_shredded},
          {"invalid_fails", test_invalid_fails}, {"duckdb_reads", test_duckdb_reads},
          {"message_schema", test_message_schema}, {"in_struct", test_in_struct})
