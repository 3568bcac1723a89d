/* libFuzzer target for shredded VARIANT writing (src/variant/variant_shred_*.c,
 * src/file/writer*.c): bytes 0-1 give the metadata's length, then metadata
 * and value (fuzz_variant's framing); the whole input is also tried as JSON
 * text. The input size modulo 5 picks the shredding depth. A value that validates gets a
 * shredding schema inferred from itself and from a JSON sample, and is
 * written unshredded and shredded (twice, with a null row between) into a
 * buffer: every such write must succeed and the file must open again. The
 * shredded write is also done with the three values as the elements of a
 * list (l.list.element), beside an empty list. A value that does not
 * validate must be refused by the writer. Each shredded file is also read
 * with variant_shredded and written again from that shredded Arrow form
 * (struct<metadata, value, typed_value>), and the value is written alone in
 * that form: both must succeed for a valid value. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_variant.h"

static void no_schema_release(struct ArrowSchema *s) { s->release = NULL; }
static void no_array_release(struct ArrowArray *a) { a->release = NULL; }

static const char ext_md[] =
    "\x01\x00\x00\x00\x14\x00\x00\x00"
    "ARROW:extension:name"
    "\x0f\x00\x00\x00"
    "parquet.variant";

static pqt_status rewrite(const pqt_string *buf);

/* three rows: v, null, v; in_list: one row [v, null, v] and one row [] */
static pqt_status write_three(const pqt_variant *v, const char *shred, bool in_list) {
  struct ArrowSchema cm = {.format = "z", .name = "metadata", .release = no_schema_release};
  struct ArrowSchema cv = {.format = "z", .name = "value", .release = no_schema_release};
  struct ArrowSchema *vk[2] = {&cm, &cv};
  struct ArrowSchema sv = {.format = "+s",
                           .name = "v",
                           .metadata = ext_md,
                           .flags = ARROW_FLAG_NULLABLE,
                           .n_children = 2,
                           .children = vk,
                           .release = no_schema_release};
  struct ArrowSchema *lk[1] = {&sv};
  struct ArrowSchema sl = {.format = "+l",
                           .name = "l",
                           .flags = ARROW_FLAG_NULLABLE,
                           .n_children = 1,
                           .children = lk,
                           .release = no_schema_release};
  if (in_list) sv.name = "element";
  struct ArrowSchema *rk[1] = {in_list ? &sl : &sv};
  struct ArrowSchema root = {.format = "+s", .name = "", .n_children = 1, .children = rk, .release = no_schema_release};
  int32_t moff[4] = {0, (int32_t)v->metadata_len, (int32_t)v->metadata_len, (int32_t)(2 * v->metadata_len)};
  int32_t voff[4] = {0, (int32_t)v->value_len, (int32_t)v->value_len, (int32_t)(2 * v->value_len)};
  uint8_t *md = malloc(2 * v->metadata_len + 1), *vd = malloc(2 * v->value_len + 1);
  if (!md || !vd) abort();
  memcpy(md, v->metadata, v->metadata_len);
  memcpy(md + v->metadata_len, v->metadata, v->metadata_len);
  memcpy(vd, v->value, v->value_len);
  memcpy(vd + v->value_len, v->value, v->value_len);
  uint8_t valid = 5;
  const void *bm[3] = {NULL, moff, md}, *bv[3] = {NULL, voff, vd}, *bs[1] = {&valid}, *br[1] = {NULL};
  struct ArrowArray am = {.length = 3, .n_buffers = 3, .buffers = bm, .release = no_array_release};
  struct ArrowArray av = {.length = 3, .n_buffers = 3, .buffers = bv, .release = no_array_release};
  struct ArrowArray *sk[2] = {&am, &av};
  struct ArrowArray as = {.length = 3,
                          .null_count = 1,
                          .n_buffers = 1,
                          .buffers = bs,
                          .n_children = 2,
                          .children = sk,
                          .release = no_array_release};
  int32_t loff[3] = {0, 3, 3};
  const void *bl[2] = {NULL, loff};
  struct ArrowArray *lak[1] = {&as};
  struct ArrowArray al = {
      .length = 2, .n_buffers = 2, .buffers = bl, .n_children = 1, .children = lak, .release = no_array_release};
  struct ArrowArray *ak[1] = {in_list ? &al : &as};
  struct ArrowArray ar = {.length = in_list ? 2 : 3,
                          .n_buffers = 1,
                          .buffers = br,
                          .n_children = 1,
                          .children = ak,
                          .release = no_array_release};
  pqt_write_options o;
  pqt_write_options_init(&o);
  pqt_variant_shredding sh = {.struct_size = sizeof sh, .column = in_list ? "l.list.element" : "v", .typed_value = shred};
  o.variant_shredding = &sh;
  o.n_variant_shredding = 1;
  pqt_write_schema ws = {.struct_size = sizeof ws, .arrow = &root};
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_status st = pqt_writer_open_buffer(&w, &out, &ws, &o, &e);
  if (st == PQT_OK) {
    st = pqt_writer_write_batch(w, &ar, &e);
    if (st == PQT_OK) st = pqt_writer_close(w, &e);
    else pqt_writer_discard(w);
  }
  if (st == PQT_OK) {
    pqt_reader *r;
    if (pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e) != PQT_OK) abort();
    pqt_reader_close(r);
    if (shred && rewrite(&out) != PQT_OK) abort(); /* the shredded form written again */
  }
  pqt_string_free(&out);
  free(md);
  free(vd);
  return st;
}

/* The shredded Arrow form (struct<metadata, value, typed_value>) as the
 * writer's input: the file in buf read with variant_shredded and written
 * again (it must succeed: the file came from valid values), and v alone in
 * a three-field struct beside an all-null int64 typed_value (a value that
 * validates must be written; an invalid one may be refused, never crash). */
static pqt_status rewrite(const pqt_string *buf) {
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.variant_shredded = 1;
  ro.arrow_extensions = 1;
  pqt_reader *r;
  pqt_error e;
  if (pqt_reader_open_buffer(&r, buf->data, buf->len, &ro, &e) != PQT_OK) abort();
  struct ArrowArrayStream st;
  if (pqt_reader_get_stream(r, NULL, &st, &e) != PQT_OK) abort();
  struct ArrowSchema sch;
  if (st.get_schema(&st, &sch) != 0) abort();
  pqt_write_schema ws = {.struct_size = sizeof ws, .arrow = &sch};
  pqt_string out = {0};
  pqt_writer *w;
  pqt_status rc = pqt_writer_open_buffer(&w, &out, &ws, NULL, &e);
  while (rc == PQT_OK) {
    struct ArrowArray b;
    if (st.get_next(&st, &b) != 0) abort();
    if (!b.release) break;
    rc = pqt_writer_write_batch(w, &b, &e);
    b.release(&b);
  }
  if (rc == PQT_OK) rc = pqt_writer_close(w, &e);
  else if (w) pqt_writer_discard(w);
  pqt_string_free(&out);
  sch.release(&sch);
  st.release(&st);
  pqt_reader_close(r);
  return rc;
}

static pqt_status write_shredded_form(const pqt_variant *v) {
  struct ArrowSchema cm = {.format = "z", .name = "metadata", .release = no_schema_release};
  struct ArrowSchema cv = {.format = "z", .name = "value", .flags = ARROW_FLAG_NULLABLE, .release = no_schema_release};
  struct ArrowSchema ct = {
      .format = "l", .name = "typed_value", .flags = ARROW_FLAG_NULLABLE, .release = no_schema_release};
  struct ArrowSchema *vk[3] = {&cm, &cv, &ct};
  struct ArrowSchema sv = {.format = "+s",
                           .name = "v",
                           .metadata = ext_md,
                           .flags = ARROW_FLAG_NULLABLE,
                           .n_children = 3,
                           .children = vk,
                           .release = no_schema_release};
  struct ArrowSchema *rk[1] = {&sv};
  struct ArrowSchema root = {.format = "+s", .name = "", .n_children = 1, .children = rk, .release = no_schema_release};
  int32_t moff[2] = {0, (int32_t)v->metadata_len}, voff[2] = {0, (int32_t)v->value_len};
  int64_t tv[1] = {0};
  uint8_t none = 0;
  const void *bm[3] = {NULL, moff, v->metadata}, *bv[3] = {NULL, voff, v->value}, *bt[2] = {&none, tv},
             *bn[1] = {NULL};
  struct ArrowArray am = {.length = 1, .n_buffers = 3, .buffers = bm, .release = no_array_release};
  struct ArrowArray av = {.length = 1, .n_buffers = 3, .buffers = bv, .release = no_array_release};
  struct ArrowArray at = {.length = 1, .null_count = 1, .n_buffers = 2, .buffers = bt, .release = no_array_release};
  struct ArrowArray *sk[3] = {&am, &av, &at};
  struct ArrowArray as = {
      .length = 1, .n_buffers = 1, .buffers = bn, .n_children = 3, .children = sk, .release = no_array_release};
  struct ArrowArray *ak[1] = {&as};
  struct ArrowArray ar = {
      .length = 1, .n_buffers = 1, .buffers = bn, .n_children = 1, .children = ak, .release = no_array_release};
  pqt_write_schema ws = {.struct_size = sizeof ws, .arrow = &root};
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_status st = pqt_writer_open_buffer(&w, &out, &ws, NULL, &e);
  if (st == PQT_OK) {
    st = pqt_writer_write_batch(w, &ar, &e);
    if (st == PQT_OK) st = pqt_writer_close(w, &e);
    else pqt_writer_discard(w);
  }
  pqt_string_free(&out);
  return st;
}

static void one(const pqt_variant *vp, int depth);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > (1u << 20)) return 0;
  int depth = (int)(size % 5);
  if (size >= 2) { /* fuzz_variant's framing: its seeds serve here too */
    size_t ml = (size_t)(data[0] | data[1] << 8);
    if (ml > size - 2) ml = size - 2;
    pqt_variant v = {data + 2, ml, data + 2 + ml, size - 2 - ml};
    one(&v, depth);
  }
  pqt_variant_owned o;
  pqt_error e;
  if (pqt_variant_from_json((const char *)data, size, NULL, &o, &e) == PQT_OK) {
    one(&o.view, depth);
    pqt_variant_owned_free(&o);
  }
  return 0;
}

static void one(const pqt_variant *vp, int depth) {
  pqt_variant v = *vp;
  pqt_error e;
  bool valid = pqt_variant_validate(&v, &e) == PQT_OK;
  if (!valid) {
    if (write_three(&v, NULL, false) == PQT_OK) abort(); /* an invalid value written */
    if (write_three(&v, NULL, true) == PQT_OK) abort();
    (void)write_shredded_form(&v);
    return;
  }
  if (write_shredded_form(&v) != PQT_OK) abort();
  pqt_string text = {0};
  if (pqt_variant_shred_infer(&v, 1, depth, 0, NULL, &text, &e) != PQT_OK) abort();
  if (write_three(&v, NULL, false) != PQT_OK) abort();
  if (text.len && write_three(&v, text.data, false) != PQT_OK) abort();
  if (text.len && write_three(&v, text.data, true) != PQT_OK) abort();
  pqt_string_free(&text);
  /* a schema from other values: v mostly goes to value columns */
  static const char *sample = "{\"a\":1,\"b\":[\"x\",2.5],\"c\":{\"d\":true}}";
  pqt_variant_owned s;
  memset(&s, 0, sizeof s);
  if (pqt_variant_from_json(sample, strlen(sample), NULL, &s, &e) != PQT_OK) abort();
  pqt_string t2 = {0};
  if (pqt_variant_shred_infer(&s.view, 1, depth ? depth : 1, 0, NULL, &t2, &e) != PQT_OK) abort();
  if (t2.len && write_three(&v, t2.data, false) != PQT_OK) abort();
  if (t2.len && write_three(&v, t2.data, true) != PQT_OK) abort();
  pqt_string_free(&t2);
  pqt_variant_owned_free(&s);
}
