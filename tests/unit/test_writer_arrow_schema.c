/*
 * ARROW:schema on write (pqt_write_options.write_arrow_schema): a batch
 * with Arrow types Parquet cannot express (large_utf8, a time zone other
 * than UTC) comes back as the same Arrow types through our reader.
 */
#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"

static void no_release_schema(struct ArrowSchema *s) { s->release = NULL; }
static void no_release_array(struct ArrowArray *a) { a->release = NULL; }

static void test_arrow_types_round_trip(void) {
  struct ArrowSchema c0 = {.format = "U", .name = "s", .flags = ARROW_FLAG_NULLABLE, .release = no_release_schema};
  struct ArrowSchema c1 = {
      .format = "tsu:Europe/Paris", .name = "t", .flags = ARROW_FLAG_NULLABLE, .release = no_release_schema};
  struct ArrowSchema *kids[] = {&c0, &c1};
  struct ArrowSchema top = {
      .format = "+s", .name = "", .n_children = 2, .children = kids, .release = no_release_schema};
  int64_t off64[] = {0, 3, 8};
  const char *data = "abcdefgh";
  const void *b0[] = {NULL, off64, data};
  int64_t ts[] = {1700000000000000LL, -5};
  const void *b1[] = {NULL, ts};
  struct ArrowArray a0 = {.length = 2, .n_buffers = 3, .buffers = b0, .release = no_release_array};
  struct ArrowArray a1 = {.length = 2, .n_buffers = 2, .buffers = b1, .release = no_release_array};
  struct ArrowArray *akids[] = {&a0, &a1};
  const void *bt[] = {NULL};
  struct ArrowArray batch = {
      .length = 2, .n_buffers = 1, .buffers = bt, .n_children = 2, .children = akids, .release = no_release_array};
  for (int with = 0; with <= 1; with++) {
    pqt_string out = {0};
    pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .arrow = &top};
    pqt_write_options wo;
    pqt_write_options_init(&wo);
    wo.write_arrow_schema = with;
    pqt_writer *w = NULL;
    pqt_error e;
    pqt_error_init(&e);
    CHECK_MSG(pqt_writer_open_buffer(&w, &out, &ws, &wo, &e) == PQT_OK, "%s", e.message);
    if (!w) return;
    CHECK_MSG(pqt_writer_write_batch(w, &batch, &e) == PQT_OK, "%s", e.message);
    CHECK_MSG(pqt_writer_close(w, &e) == PQT_OK, "%s", e.message);
    pqt_reader *r = NULL;
    CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, NULL));
    if (r) {
      struct ArrowArrayStream st;
      CHECK_OK(pqt_reader_get_stream(r, NULL, &st, NULL));
      struct ArrowSchema s;
      CHECK_EQ_INT(st.get_schema(&st, &s), 0);
      CHECK_EQ_STR(s.children[0]->format, with ? "U" : "u");
      CHECK_EQ_STR(s.children[1]->format, with ? "tsu:Europe/Paris" : "tsu:UTC");
      struct ArrowArray a;
      CHECK_EQ_INT(st.get_next(&st, &a), 0);
      CHECK_EQ_INT(a.length, 2);
      if (with) {
        const int64_t *o = a.children[0]->buffers[1];
        CHECK(o[0] == 0 && o[1] == 3 && o[2] == 8);
      }
      const int64_t *tv = a.children[1]->buffers[1];
      CHECK(tv[0] == ts[0] && tv[1] == ts[1]);
      a.release(&a);
      s.release(&s);
      st.release(&st);
      pqt_reader_close(r);
    }
    pqt_string_free(&out);
  }
}

RUN_TESTS("writer_arrow_schema", TEST_CASE(test_arrow_types_round_trip))
