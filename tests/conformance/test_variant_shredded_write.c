/* Writing from the shredded Arrow form (an arrow.parquet.variant
 * struct<metadata, value, typed_value>, as variant_shredded exports it):
 * every case of the corpus's shredded_variant/cases.json read with the
 * shredded export, written back through the writer, and read again gives
 * equal variants (as values) and the same typed_value layout; the cases
 * seed 003 calls invalid fail to write, naming row and column, and leave
 * no file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "variant_fixture.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_variant.h"
#include "shredded_cases.h"

/* Read path with the shredded export and write every batch to out. */
static int write_back(const char *path, const char *out, char *msg, size_t cap, char *layout, size_t lcap);

/* The typed_value layout of an exported field: every path below
 * typed_value with its format, one per line (value columns left out: the
 * writer adds a value beside every typed_value). */
static void layout_of(const struct ArrowSchema *s, const char *prefix, int in_typed, char *out, size_t cap) {
  for (int64_t k = 0; k < s->n_children; k++) {
    const struct ArrowSchema *c = s->children[k];
    char p[512];
    snprintf(p, sizeof p, "%s.%s", prefix, c->name);
    bool typed = in_typed || strcmp(c->name, "typed_value") == 0;
    if (typed && strcmp(c->name, "value") != 0) {
      size_t at = strlen(out);
      snprintf(out + at, cap - at, "%s %s\n", p, c->format);
    }
    layout_of(c, p, typed, out, cap);
  }
}

static int write_back(const char *path, const char *out, char *msg, size_t cap, char *layout, size_t lcap) {
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.variant_shredded = 1;
  ro.arrow_extensions = 1;
  pqt_reader *r = NULL;
  pqt_error e;
  struct ArrowArrayStream st;
  if (pqt_sc_open_stream(path, &ro, &r, &st, msg, cap) != 0) return 1;
  struct ArrowSchema sch;
  int rc = st.get_schema(&st, &sch);
  if (rc != 0) {
    snprintf(msg, cap, "schema: %s", st.get_last_error(&st));
    st.release(&st);
    pqt_reader_close(r);
    return 1;
  }
  int64_t col = pqt_sc_child_index(&sch, "var");
  if (layout) {
    layout[0] = 0;
    if (col >= 0) layout_of(sch.children[col], "var", 0, layout, lcap);
  }
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.arrow = &sch;
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.row_group_rows = 3; /* several row groups where a case has rows enough */
  pqt_writer *w = NULL;
  if (pqt_writer_open_file(&w, out, &ws, &wo, &e) != PQT_OK) {
    snprintf(msg, cap, "%s", e.message);
    rc = 1;
  }
  while (rc == 0) {
    struct ArrowArray b;
    rc = st.get_next(&st, &b);
    if (rc != 0) {
      snprintf(msg, cap, "read: %s", st.get_last_error(&st));
      break;
    }
    if (!b.release) break;
    /* in two slices (the columns' Arrow offsets moved): rows [0, 1), then
     * [1, n), so the second reaches the views with a nonzero offset */
    for (int64_t at = 0; rc == 0 && at < b.length;) {
      int64_t len = at == 0 ? 1 : b.length - at;
      struct ArrowArray kids[16], *kp[16];
      struct ArrowArray part = b;
      if (b.n_children > 16) abort();
      for (int64_t k = 0; k < b.n_children; k++) {
        kids[k] = *b.children[k];
        kids[k].offset += at;
        kids[k].length = len;
        kids[k].null_count = -1; /* unknown for the slice */
        kp[k] = &kids[k];
      }
      part.children = kp;
      part.length = len;
      if (pqt_writer_write_batch(w, &part, &e) != PQT_OK) {
        snprintf(msg, cap, "%s", e.message);
        rc = 1;
      }
      at += len;
    }
    b.release(&b);
  }
  if (w && rc == 0 && pqt_writer_close(w, &e) != PQT_OK) {
    snprintf(msg, cap, "close: %s", e.message);
    rc = 1;
  } else if (w && rc != 0) {
    pqt_writer_discard(w);
  }
  sch.release(&sch);
  st.release(&st);
  pqt_reader_close(r);
  return rc;
}

/* Write the case's shredded `var` inside a struct s (as s.var) or as the
 * elements of a list l (row 0 an empty list, row k + 1 holding element k),
 * read back reconstructed: equal to want. */
static void nested_case(const char *path, const char *out, const pqt_sc_rows *want, bool as_list, int number) {
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.variant_shredded = 1;
  ro.arrow_extensions = 1;
  pqt_reader *r = NULL;
  pqt_error e;
  CHECK_OK(pqt_reader_open_file(&r, path, &ro, &e));
  struct ArrowArrayStream st;
  CHECK_OK(pqt_reader_get_stream(r, NULL, &st, &e));
  struct ArrowSchema sch;
  CHECK(st.get_schema(&st, &sch) == 0);
  int64_t col = pqt_sc_child_index(&sch, "var");
  struct ArrowSchema *kids[1] = {sch.children[col]};
  struct ArrowSchema wrap = {.format = as_list ? "+l" : "+s",
                             .name = as_list ? "l" : "s",
                             .flags = ARROW_FLAG_NULLABLE,
                             .n_children = 1,
                             .children = kids,
                             .release = pqt_vt_noop_schema_release};
  struct ArrowSchema *tops[1] = {&wrap};
  struct ArrowSchema top = {
      .format = "+s", .name = "", .n_children = 1, .children = tops, .release = pqt_vt_noop_schema_release};
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.arrow = &top;
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_file(&w, out, &ws, NULL, &e));
  int64_t total = 0;
  for (;;) {
    struct ArrowArray b;
    CHECK(st.get_next(&st, &b) == 0);
    if (!b.release) break;
    struct ArrowArray *var = b.children[col];
    int64_t n = var->length;
    int32_t *offs = malloc(sizeof *offs * (size_t)(n + 2));
    offs[0] = offs[1] = 0;
    for (int64_t k = 0; k < n; k++) offs[k + 2] = (int32_t)(k + 1);
    const void *lbufs[2] = {NULL, offs}, *sbufs[1] = {NULL};
    struct ArrowArray *vk[1] = {var};
    struct ArrowArray wa = {.length = as_list ? n + 1 : n,
                            .n_buffers = as_list ? 2 : 1,
                            .buffers = as_list ? lbufs : sbufs,
                            .n_children = 1,
                            .children = vk,
                            .release = pqt_vt_noop_array_release};
    struct ArrowArray *wk[1] = {&wa};
    struct ArrowArray ta = {.length = wa.length,
                            .n_buffers = 1,
                            .buffers = sbufs,
                            .n_children = 1,
                            .children = wk,
                            .release = pqt_vt_noop_array_release};
    pqt_status ws_st = pqt_writer_write_batch(w, &ta, &e);
    CHECK_MSG(ws_st == PQT_OK, "case %d %s: %s", number, as_list ? "list" : "struct", e.message);
    total += n;
    free(offs);
    b.release(&b);
    if (ws_st != PQT_OK) break;
  }
  CHECK_OK(pqt_writer_close(w, &e));
  sch.release(&sch);
  st.release(&st);
  pqt_reader_close(r);
  /* stored shredded: typed_value columns below s.var / l.list.element */
  CHECK_OK(pqt_reader_open_file(&r, out, &ro, &e));
  CHECK_OK(pqt_reader_get_stream(r, NULL, &st, &e));
  CHECK(st.get_schema(&st, &sch) == 0);
  static char lay[8192];
  lay[0] = 0;
  layout_of(&sch, "", 0, lay, sizeof lay);
  CHECK_MSG(strstr(lay, as_list ? ".l.element.typed_value" : ".s.var.typed_value"), "case %d: written as\n%s", number,
            lay);
  sch.release(&sch);
  st.release(&st);
  pqt_reader_close(r);
  /* read back, reconstructed */
  CHECK_OK(pqt_reader_open_file(&r, out, NULL, &e));
  CHECK_OK(pqt_reader_get_stream(r, NULL, &st, &e));
  pqt_sc_rows got = {0};
  for (;;) {
    struct ArrowArray b;
    CHECK(st.get_next(&st, &b) == 0);
    if (!b.release) break;
    const struct ArrowArray *wa = b.children[0];
    for (int64_t i = 0; i < wa->length; i++) {
      if (!as_list) {
        pqt_sc_push(&got, wa->children[0], wa->offset + i);
        continue;
      }
      const int32_t *o = wa->buffers[1];
      for (int32_t x = o[wa->offset + i]; x < o[wa->offset + i + 1]; x++) pqt_sc_push(&got, wa->children[0], x);
    }
    b.release(&b);
  }
  st.release(&st);
  pqt_reader_close(r);
  char why[900] = "";
  CHECK_MSG(got.n == total && pqt_sc_rows_equal(want, &got, why, sizeof why), "case %d in a %s: %s", number,
            as_list ? "list" : "struct", why);
  pqt_sc_rows_free(&got);
}

static char tmp_dir[256];

static void test_cases(void) {
  pqt_sc_cases it;
  if (!pqt_sc_cases_open(&it)) return;
  char out[1200];
  int ok_cases = 0, error_cases = 0, typed_cases = 0;
  char pairs_path[400];
  snprintf(pairs_path, sizeof pairs_path, "%s/pairs.txt", tmp_dir);
  FILE *pairs = fopen(pairs_path, "w");
  while (pqt_sc_cases_next(&it)) {
    int number = it.number;
    const char *path = it.path, *file = it.file;
    snprintf(out, sizeof out, "%s/%s", tmp_dir, file);
    pqt_sc_rows want, got;
    char msg[700] = "", wmsg[700] = "", why[900] = "";
    static char layout_in[8192], layout_out[8192];
    int rc = pqt_sc_read_var(path, &want, msg, sizeof msg, NULL);
    int wrc = write_back(path, out, wmsg, sizeof wmsg, layout_in, sizeof layout_in);
    if (rc != 0) { /* an invalid case (or a type Variant does not shred to): not written */
      CHECK_MSG(wrc != 0, "case %d: the reader fails (%s) but the write succeeded", number, msg);
      CHECK_MSG(access(out, F_OK) != 0, "case %d: a failed write left %s", number, out);
      if (strstr(msg, "unsupported") == NULL)
        CHECK_MSG(strstr(wmsg, "row ") && strstr(wmsg, "column var"), "case %d: the error does not name the place: %s",
                  number, wmsg);
      if (getenv("PQT_TEST_VERBOSE")) fprintf(stderr, "  case %d: %s\n", number, wmsg);
      error_cases++;
    } else {
      CHECK_MSG(wrc == 0, "case %d (%s): write failed: %s", number, file, wmsg);
      int rc2 = wrc == 0 ? pqt_sc_read_var(out, &got, msg, sizeof msg, NULL) : 1;
      if (wrc == 0) CHECK_MSG(rc2 == 0, "case %d: read back: %s", number, msg);
      if (rc2 == 0) {
        CHECK_MSG(pqt_sc_rows_equal(&want, &got, why, sizeof why), "case %d: %s", number, why);
        /* the same typed_value layout */
        char m2[700] = "";
        (void)write_back(out, "/dev/null/x", m2, sizeof m2, layout_out, sizeof layout_out); /* the layout only */
        CHECK_MSG(strcmp(layout_in, layout_out) == 0, "case %d: typed_value layout\n%s\nwritten as\n%s", number,
                  layout_in, layout_out);
        if (strstr(layout_in, "typed_value")) {
          typed_cases++;
          char nested_out[1300];
          snprintf(nested_out, sizeof nested_out, "%s.s.parquet", out);
          nested_case(path, nested_out, &want, false, number);
          snprintf(nested_out, sizeof nested_out, "%s.l.parquet", out);
          nested_case(path, nested_out, &want, true, number);
        }
        ok_cases++;
        if (pairs) fprintf(pairs, "%s\t%s\n", path, out);
      }
      if (wrc == 0) pqt_sc_rows_free(&got); /* read (whole or in part) */
    }
    pqt_sc_rows_free(&want);
  }
  fprintf(stderr, "  %d cases written back equal (%d with typed_value), %d invalid cases refused\n", ok_cases,
          typed_cases, error_cases);
  CHECK(ok_cases >= 100);
  CHECK(typed_cases >= 90);
  CHECK(error_cases >= 3);
  pqt_sc_cases_close(&it);
  if (pairs) fclose(pairs);
}

/* DuckDB reads the rewritten files with the values it reads from the corpus
 * files (tests/interop/duckdb_variant_shredded_write.mjs); skipped (77)
 * without DuckDB. */
static void test_duckdb_reads(void) {
  if (!tmp_dir[0]) {
    pqt_t_current_skipped = 1;
    return;
  }
  int rc = pqt_vt_run_duckdb("duckdb_variant_shredded_write.mjs", tmp_dir, 0);
  if (rc == 77) pqt_t_current_skipped = 1;
  else CHECK_EQ_INT(rc, 0);
}

/* Arrow offsets inside the group: typed_value (int64) at offset 1 and
 * value at offset 2 (its validity not byte-aligned), three rows 10, 5
 * (in value, int8), 30; then a row whose value and typed_value are both set
 * (invalid): refused naming row 3 and the column. */
static void test_child_offsets(void) {
  static const uint8_t md[] = {0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00};
  int32_t moff[5] = {0, 3, 6, 9, 12};
  int64_t tv[5] = {999, 10, 0, 30, 40};
  uint8_t tvalid = 0x1a; /* physical 1, 3, 4 */
  int32_t voff[7] = {0, 0, 0, 0, 2, 2, 4};
  uint8_t vvalid = 0x28; /* physical 3, 5 */
  static const uint8_t vd[] = {0x0c, 0x05, 0x0c, 0x07};
  for (int bad = 0; bad < 2; bad++) {
    int64_t n = bad ? 4 : 3;
    struct ArrowSchema cm = {.format = "z", .name = "metadata", .release = pqt_vt_noop_schema_release};
    struct ArrowSchema cv = {
        .format = "z", .name = "value", .flags = ARROW_FLAG_NULLABLE, .release = pqt_vt_noop_schema_release};
    struct ArrowSchema ct = {
        .format = "l", .name = "typed_value", .flags = ARROW_FLAG_NULLABLE, .release = pqt_vt_noop_schema_release};
    struct ArrowSchema *vk[3] = {&cm, &cv, &ct};
    struct ArrowSchema sv = {.format = "+s",
                             .name = "v",
                             .metadata = PQT_VT_EXT_MD,
                             .flags = ARROW_FLAG_NULLABLE,
                             .n_children = 3,
                             .children = vk,
                             .release = pqt_vt_noop_schema_release};
    struct ArrowSchema *rk[1] = {&sv};
    struct ArrowSchema root = {
        .format = "+s", .name = "", .n_children = 1, .children = rk, .release = pqt_vt_noop_schema_release};
    const void *bm[3] = {NULL, moff, md}, *bv[3] = {&vvalid, voff, vd}, *bt[2] = {&tvalid, tv}, *bn[1] = {NULL};
    struct ArrowArray am = {.length = n, .n_buffers = 3, .buffers = bm, .release = pqt_vt_noop_array_release};
    struct ArrowArray av = {.length = n,
                            .offset = 2,
                            .null_count = -1,
                            .n_buffers = 3,
                            .buffers = bv,
                            .release = pqt_vt_noop_array_release};
    struct ArrowArray at = {.length = n,
                            .offset = 1,
                            .null_count = -1,
                            .n_buffers = 2,
                            .buffers = bt,
                            .release = pqt_vt_noop_array_release};
    struct ArrowArray *sk[3] = {&am, &av, &at};
    struct ArrowArray as = {.length = n,
                            .n_buffers = 1,
                            .buffers = bn,
                            .n_children = 3,
                            .children = sk,
                            .release = pqt_vt_noop_array_release};
    struct ArrowArray *ak[1] = {&as};
    struct ArrowArray ar = {.length = n,
                            .n_buffers = 1,
                            .buffers = bn,
                            .n_children = 1,
                            .children = ak,
                            .release = pqt_vt_noop_array_release};
    pqt_write_schema ws;
    pqt_write_schema_init(&ws);
    ws.arrow = &root;
    pqt_string out = {0};
    pqt_writer *w = NULL;
    pqt_error e;
    CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
    pqt_status st = pqt_writer_write_batch(w, &ar, &e);
    if (bad) {
      CHECK(st != PQT_OK);
      CHECK_MSG(st != PQT_OK && strstr(e.message, "row 3, column v.typed_value") && strstr(e.message, "conflicting"),
                "%s", e.message);
      pqt_writer_discard(w);
      pqt_string_free(&out);
      continue;
    }
    CHECK_OK(st);
    CHECK_OK(pqt_writer_close(w, &e));
    pqt_reader *r = NULL;
    CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
    struct ArrowArrayStream stream;
    CHECK_OK(pqt_reader_get_stream(r, NULL, &stream, &e));
    struct ArrowArray b;
    CHECK(stream.get_next(&stream, &b) == 0 && b.release && b.length == 3);
    const char *want[3] = {"10", "5", "30"};
    for (int64_t k = 0; b.release && k < 3; k++) {
      size_t ml, vl;
      const struct ArrowArray *v = b.children[0];
      const uint8_t *m = pqt_sc_bin_at(v->children[0], v->offset + k, &ml);
      const uint8_t *x = pqt_sc_bin_at(v->children[1], v->offset + k, &vl);
      pqt_variant var = {m, ml, x, vl};
      pqt_string js = {0};
      CHECK_OK(pqt_variant_to_json(&var, &js, &e));
      CHECK_MSG(js.data && strcmp(js.data, want[k]) == 0, "row %lld: %s, want %s", (long long)k,
                js.data ? js.data : "?", want[k]);
      pqt_string_free(&js);
    }
    if (b.release) b.release(&b);
    stream.release(&stream);
    pqt_reader_close(r);
    pqt_string_free(&out);
  }
}

static void cleanup(void) {
  char cmd[400];
  if (!tmp_dir[0]) return;
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp_dir);
}

static void setup(void) {
  const char *t = getenv("TMPDIR");
  snprintf(tmp_dir, sizeof tmp_dir, "%s/pqt_vsw_XXXXXX", t && *t ? t : "/tmp");
  if (!mkdtemp(tmp_dir)) tmp_dir[0] = 0;
  atexit(cleanup);
}

static void test_all(void) {
  setup();
  test_cases();
}

RUN_TESTS("variant_shredded_write", {"cases", test_all}, {"duckdb_reads", test_duckdb_reads},
          {"child_offsets", test_child_offsets})
