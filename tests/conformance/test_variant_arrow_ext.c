/* The Arrow extension type of VARIANT columns: Arrow's canonical name
 * arrow.parquet.variant on the reconstructed struct<metadata, value>
 * (default), and, with variant_shredded and arrow_extensions, on the stored
 * shredding struct<metadata, value, typed_value> (the canonical type allows
 * it); variant_shredded alone hands the stored group out as a plain struct. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "shredded_cases.h"
#include "parquetry.h"
#include "parquetry_arrow.h"


/* Field `var` of the file's stream schema: extension name and child names. */
static void field_of(const char *path, int shredded, int ext, char *name, size_t cap, char *kids, size_t kcap) {
  name[0] = kids[0] = 0;
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.variant_shredded = shredded;
  ro.arrow_extensions = ext;
  pqt_reader *r = NULL;
  pqt_error e;
  CHECK_OK(pqt_reader_open_file(&r, path, &ro, &e));
  if (!r) return;
  struct ArrowArrayStream st;
  CHECK_OK(pqt_reader_get_stream(r, NULL, &st, &e));
  struct ArrowSchema s;
  CHECK(st.get_schema(&st, &s) == 0);
  for (int64_t i = 0; i < s.n_children; i++) {
    if (strcmp(s.children[i]->name, "var") != 0) continue;
    pqt_sc_ext_name(s.children[i], name, cap);
    size_t o = 0;
    for (int64_t k = 0; k < s.children[i]->n_children && o < kcap; k++)
      o += (size_t)snprintf(kids + o, kcap - o, "%s%s", k ? "," : "", s.children[i]->children[k]->name);
  }
  s.release(&s);
  struct ArrowArray b;
  while (st.get_next(&st, &b) == 0 && b.release) b.release(&b);
  st.release(&st);
  pqt_reader_close(r);
}

static void test_extension(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char path[1024], name[64], kids[256];
  snprintf(path, sizeof path, "%s/shredded_variant/case-039.parquet", dir);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "NOTE: %s absent\n", path);
    pqt_t_current_skipped = 1;
    return;
  }
  fclose(f);
  field_of(path, 0, 0, name, sizeof name, kids, sizeof kids);
  CHECK_EQ_STR(name, "arrow.parquet.variant");
  CHECK_EQ_STR(kids, "metadata,value");
  field_of(path, 1, 0, name, sizeof name, kids, sizeof kids);
  CHECK_EQ_STR(name, "");
  CHECK_EQ_STR(kids, "metadata,value,typed_value");
  field_of(path, 1, 1, name, sizeof name, kids, sizeof kids);
  CHECK_EQ_STR(name, "arrow.parquet.variant");
  CHECK_EQ_STR(kids, "metadata,value,typed_value");
}

RUN_TESTS("variant_arrow_ext", TEST_CASE(test_extension))
