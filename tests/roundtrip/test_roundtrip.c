/*
 * Round-trip tests of the writer (seeds/002 file format, encodings, nested
 * encoding): random schemas (struct/list/map to depth 4, every physical and
 * logical type, nulls at every level, empty lists) with random Arrow data,
 * written under a matrix of options (encodings, codecs, page v1/v2,
 * dictionary fallback, tiny pages and row groups, Bloom filters, CRC), read
 * back with our reader's Arrow stream and compared value by value with the
 * input arrays. Seeded: failures print the seed, config and schema.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_width.h"
#include "harness.h"
#include "rng.h"
#include "meta/schema.h"
#include "parquetry.h"
#include "parquetry_arrow.h"

/* ---- deterministic random ---------------------------------------------- */
static uint64_t rng;
static uint64_t rnd(void) {
  return pqt_test_xorshift(&rng);
}
static int rint_(int n) { return (int)(rnd() % (uint64_t)n); }

/* ---- random schema text ------------------------------------------------- */
typedef struct {
  const char *decl;
  int key_ok;
} leaf_t;
static const leaf_t LEAVES[] = {
    {"boolean", 0},
    {"int32", 1},
    {"int32 (INTEGER(8,true))", 1},
    {"int32 (INTEGER(16,false))", 1},
    {"int32 (INTEGER(32,false))", 1},
    {"int32 (DATE)", 1},
    {"int32 (TIME(MILLIS,true))", 1},
    {"int32 (DECIMAL(9,2))", 1},
    {"int64", 1},
    {"int64 (INTEGER(64,false))", 1},
    {"int64 (TIMESTAMP(MICROS,true))", 1},
    {"int64 (TIMESTAMP(NANOS,false))", 1},
    {"int64 (TIME(NANOS,false))", 1},
    {"int64 (DECIMAL(18,3))", 1},
    {"int96", 0},
    {"float", 0},
    {"double", 0},
    {"binary", 1},
    {"binary (STRING)", 1},
    {"binary (JSON)", 0},
    {"binary (ENUM)", 1},
    {"binary (BSON)", 0},
    {"binary (DECIMAL(20,2))", 0},
    {"fixed_len_byte_array(16) (UUID)", 1},
    {"fixed_len_byte_array(2) (FLOAT16)", 0},
    {"fixed_len_byte_array(12) (INTERVAL)", 0},
    {"fixed_len_byte_array(5)", 1},
    {"fixed_len_byte_array(16) (DECIMAL(38,10))", 0},
    {"fixed_len_byte_array(20) (DECIMAL(45,5))", 0},
    {"int32 (UNKNOWN)", 0},
};
#define N_LEAVES (int)(sizeof LEAVES / sizeof *LEAVES)

typedef struct {
  char *s;
  size_t n, cap;
  int names;
} sb;
static void put(sb *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char tmp[512];
  int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (b->n + (size_t)k + 1 > b->cap) {
    b->cap = (b->n + (size_t)k + 1) * 2;
    b->s = realloc(b->s, b->cap);
  }
  memcpy(b->s + b->n, tmp, (size_t)k + 1);
  b->n += (size_t)k;
}

static void gen_field(sb *b, int depth, const char *name, int force_required, int leaf_only_keys) {
  const char *rep = force_required || rint_(3) == 0 ? "required" : "optional";
  int kind = depth >= 4 ? 0 : rint_(leaf_only_keys ? 1 : 7); /* 0-3 leaf, 4 struct, 5 list, 6 map */
  if (kind <= 3) {
    int li;
    do li = rint_(N_LEAVES);
    while ((leaf_only_keys && !LEAVES[li].key_ok) || (strstr(LEAVES[li].decl, "UNKNOWN") && !strcmp(rep, "required")));
    const char *d = LEAVES[li].decl, *an = strstr(d, " (");
    int tl = an ? (int)(an - d) : (int)strlen(d);
    put(b, "%s %.*s %s%s;\n", rep, tl, d, name, an ? an : "");
  } else if (kind == 4) {
    put(b, "%s group %s {\n", rep, name);
    int n = 1 + rint_(3);
    for (int i = 0; i < n; i++) {
      char nm[32];
      snprintf(nm, sizeof nm, "f%d", b->names++);
      gen_field(b, depth + 1, nm, 0, 0);
    }
    put(b, "}\n");
  } else if (kind == 5) {
    put(b, "%s group %s (LIST) {\nrepeated group list {\n", rep, name);
    gen_field(b, depth + 1, "element", 0, 0);
    put(b, "}\n}\n");
  } else {
    put(b, "%s group %s (MAP) {\nrepeated group key_value {\n", rep, name);
    gen_field(b, depth + 1, "key", 1, 1);
    if (rint_(4)) gen_field(b, depth + 1, "value", 0, 0);
    put(b, "}\n}\n");
  }
}

/* ---- random Arrow arrays following an ArrowSchema -------------------------- */
typedef struct holder {
  void *bufs[3];
  const void *ptrs[3];
  struct ArrowArray **children;
  int64_t n_children;
} holder;

static void release_array(struct ArrowArray *a) {
  holder *h = a->private_data;
  for (int i = 0; i < 3; i++) free(h->bufs[i]);
  for (int64_t i = 0; i < h->n_children; i++) {
    h->children[i]->release(h->children[i]);
    free(h->children[i]);
  }
  free(h->children);
  free(h);
  a->release = NULL;
}

static int pool_n;
static uint64_t pool[64];

static void rand_fixed(const char *f, uint8_t *out, int w) {
  uint64_t v = rint_(10) < 7 ? pool[rint_(pool_n)] : rnd();
  if (f[0] == 'd') {
    int p = atoi(f + 2);
    int64_t lim = 1;
    for (int i = 0; i < p && i < 18; i++) lim *= 10;
    int64_t x = (int64_t)(v % (uint64_t)(2 * lim - 1)) - (lim - 1);
    memset(out, x < 0 ? 0xFF : 0, (size_t)w);
    memcpy(out, &x, 8);
    return;
  }
  for (int i = 0; i < w; i++) out[i] = (uint8_t)(v >> ((i % 8) * 8)) ^ (uint8_t)(i / 8);
}

static struct ArrowArray *mk(const struct ArrowSchema *s, int64_t len, int null_pct) {
  struct ArrowArray *a = calloc(1, sizeof *a);
  holder *h = calloc(1, sizeof *h);
  a->private_data = h;
  a->release = release_array;
  a->length = len;
  a->buffers = h->ptrs;
  const char *f = s->format;
  int nullable = (s->flags & ARROW_FLAG_NULLABLE) != 0;
  if (strcmp(f, "n") == 0) {
    a->null_count = len;
    a->n_buffers = 0;
    return a;
  }
  a->n_buffers = 1;
  if (nullable && rint_(4)) {
    uint8_t *v = calloc((size_t)(len + 8) / 8 + 1, 1);
    int64_t nulls = 0;
    for (int64_t i = 0; i < len; i++) {
      if (rint_(100) >= null_pct) v[i >> 3] |= (uint8_t)(1u << (i & 7));
      else nulls++;
    }
    h->bufs[0] = v;
    h->ptrs[0] = v;
    a->null_count = nulls;
  }
  if (f[0] == '+') {
    if (f[1] == 's') {
      a->n_children = h->n_children = s->n_children;
      h->children = calloc((size_t)s->n_children, sizeof *h->children);
      for (int64_t i = 0; i < s->n_children; i++) h->children[i] = mk(s->children[i], len, null_pct);
    } else {
      int32_t *o = malloc((size_t)(len + 1) * 4);
      o[0] = 0;
      for (int64_t i = 0; i < len; i++) o[i + 1] = o[i] + rint_(4); /* empty lists too */
      h->bufs[1] = o;
      h->ptrs[1] = o;
      a->n_buffers = 2;
      a->n_children = h->n_children = 1;
      h->children = calloc(1, sizeof *h->children);
      h->children[0] = mk(s->children[0], o[len], null_pct);
    }
    a->children = h->children;
    return a;
  }
  if (f[0] == 'b') {
    uint8_t *v = calloc((size_t)len / 8 + 1, 1);
    for (int64_t i = 0; i < len; i++)
      if (rint_(2)) v[i >> 3] |= (uint8_t)(1u << (i & 7));
    h->bufs[1] = v;
    h->ptrs[1] = v;
    a->n_buffers = 2;
    return a;
  }
  if (f[0] == 'u' || f[0] == 'z') {
    int32_t *o = malloc((size_t)(len + 1) * 4);
    size_t cap = (size_t)len * 12 + 1;
    uint8_t *d = malloc(cap);
    o[0] = 0;
    for (int64_t i = 0; i < len; i++) {
      uint64_t v = rint_(10) < 7 ? pool[rint_(pool_n)] : rnd();
      int l = (int)(v % 13);
      for (int k = 0; k < l; k++)
        d[o[i] + k] = f[0] == 'u' ? (uint8_t)('a' + (v >> (k * 4)) % 26) : (uint8_t)(v >> (k * 5));
      o[i + 1] = o[i] + l;
    }
    h->bufs[1] = o;
    h->ptrs[1] = o;
    h->bufs[2] = d;
    h->ptrs[2] = d;
    a->n_buffers = 3;
    return a;
  }
  int w = (int)pqt_test_arrow_width(f);
  uint8_t *d = malloc((size_t)len * (size_t)w + 1);
  for (int64_t i = 0; i < len; i++) rand_fixed(f, d + i * w, w);
  h->bufs[1] = d;
  h->ptrs[1] = d;
  a->n_buffers = 2;
  return a;
}

/* ---- comparison ---------------------------------------------------------------- */
static int valid_at(const struct ArrowArray *a, int64_t i) {
  if (a->n_buffers == 0) return 0; /* null type */
  const uint8_t *v = a->buffers[0];
  if (!v || a->null_count == 0) return 1;
  int64_t p = a->offset + i;
  return (v[p >> 3] >> (p & 7)) & 1;
}

static char where[256];
static int cmp_slot(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t ia, const struct ArrowArray *b,
                    int64_t ib) {
  const char *f = s->format;
  if (strcmp(f, "n") == 0) return 0;
  int va = valid_at(a, ia), vb = valid_at(b, ib);
  if (va != vb) {
    snprintf(where, sizeof where, "%s: validity %d vs %d", s->name, va, vb);
    return 1;
  }
  if (!va) return 0;
  if (f[0] == '+' && f[1] == 's') {
    for (int64_t c = 0; c < s->n_children; c++)
      if (cmp_slot(s->children[c], a->children[c], a->offset + ia, b->children[c], b->offset + ib)) return 1;
    return 0;
  }
  if (f[0] == '+') {
    const int32_t *oa = a->buffers[1], *ob = b->buffers[1];
    int64_t pa = a->offset + ia, pb = b->offset + ib;
    int32_t la = oa[pa + 1] - oa[pa], lb = ob[pb + 1] - ob[pb];
    if (la != lb) {
      snprintf(where, sizeof where, "%s: list length %d vs %d", s->name, la, lb);
      return 1;
    }
    for (int32_t k = 0; k < la; k++)
      if (cmp_slot(s->children[0], a->children[0], oa[pa] + k, b->children[0], ob[pb] + k)) return 1;
    return 0;
  }
  int64_t pa = a->offset + ia, pb = b->offset + ib;
  if (f[0] == 'b') {
    const uint8_t *x = a->buffers[1], *y = b->buffers[1];
    int bx = (x[pa >> 3] >> (pa & 7)) & 1, by = (y[pb >> 3] >> (pb & 7)) & 1;
    if (bx != by) {
      snprintf(where, sizeof where, "%s: bool", s->name);
      return 1;
    }
    return 0;
  }
  if (f[0] == 'u' || f[0] == 'z') {
    const int32_t *oa = a->buffers[1], *ob = b->buffers[1];
    const uint8_t *da = a->buffers[2], *db = b->buffers[2];
    int32_t la = oa[pa + 1] - oa[pa], lb = ob[pb + 1] - ob[pb];
    if (la != lb || (la && memcmp(da + oa[pa], db + ob[pb], (size_t)la))) {
      snprintf(where, sizeof where, "%s: bytes (len %d vs %d)", s->name, la, lb);
      return 1;
    }
    return 0;
  }
  int w = (int)pqt_test_arrow_width(f);
  const uint8_t *x = a->buffers[1], *y = b->buffers[1];
  if (memcmp(x + pa * w, y + pb * w, (size_t)w)) {
    int64_t xv = 0, yv = 0;
    memcpy(&xv, x + pa * w, w < 8 ? (size_t)w : 8);
    memcpy(&yv, y + pb * w, w < 8 ? (size_t)w : 8);
    snprintf(where, sizeof where, "%s: value (format %s) %lld vs %lld at %lld/%lld", s->name, f, (long long)xv,
             (long long)yv, (long long)pa, (long long)pb);
    return 1;
  }
  return 0;
}

/* ---- one case ---------------------------------------------------------------- */

static int run_case(int seed, int cfg) {
  rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)seed * 0x100000001B3ull;
  pool_n = 1 + rint_(40);
  for (int i = 0; i < pool_n; i++) pool[i] = rnd();
  sb b = {0};
  put(&b, "message m {\n");
  int nf = 1 + rint_(4);
  for (int i = 0; i < nf; i++) {
    char nm[32];
    snprintf(nm, sizeof nm, "c%d", i);
    gen_field(&b, 1, nm, 0, 0);
  }
  put(&b, "}\n");
  static const int codecs[] = {0, 1, 2, 4, 6, 7};
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.codec = codecs[cfg % 6];
  o.defaults.page_version = 1 + (cfg / 2) % 2;
  o.defaults.dictionary = cfg % 5 != 3;
  if (cfg % 3 == 1) o.defaults.dictionary_page_size_limit = 64; /* fallback mid-chunk */
  if (cfg % 4 == 2) o.defaults.page_row_limit = 3;              /* many pages */
  o.defaults.bloom_filter = cfg % 3 == 0;
  o.defaults.crc = cfg % 2;
  o.defaults.statistics = cfg % 7 != 5;
  o.defaults.page_index = cfg % 6 != 4;
  o.row_group_rows = cfg % 4 == 1 ? 37 : 1 << 20;
  if (getenv("RT_V")) o.defaults.page_version = atoi(getenv("RT_V"));
  if (getenv("RT_ENC")) {
    o.defaults.encoding = atoi(getenv("RT_ENC"));
    o.defaults.dictionary = 0;
  }
  if (getenv("RT_PRL")) o.defaults.page_row_limit = atoi(getenv("RT_PRL"));
  pqt_error e;
  pqt_error_init(&e);
  pqt_string out = {0};
  pqt_writer *w = NULL;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = b.s};
  int failed = 0;
  if (pqt_writer_open_buffer(&w, &out, &ws, &o, &e) != PQT_OK) {
    fprintf(stderr, "  seed %d cfg %d: open: %s\n%s", seed, cfg, e.message, b.s);
    free(b.s);
    return 1;
  }
  /* per-column encodings for some configs: reopen with overrides */
  struct ArrowSchema as;
  CHECK_OK(pqt_writer_arrow_schema(w, &as, &e));
  if (cfg % 5 == 1 || cfg % 5 == 2) {
    /* a random valid encoding for every leaf, by its dotted path; with
     * dictionary on (cfg % 5 == 2) it is the fallback encoding */
    pqt_arena ar;
    pqt_arena_init(&ar, NULL);
    pqt_schema_element *el;
    int32_t ne;
    pqt_schema *sch;
    CHECK_OK(pqt_schema_parse(b.s, b.n, &ar, &el, &ne, NULL));
    CHECK_OK(pqt_schema_build(el, ne, &ar, &sch, NULL));
    pqt_column_override *ov = calloc((size_t)sch->n_leaves, sizeof *ov);
    for (int32_t i = 0; i < sch->n_leaves; i++) {
      static const int I[] = {0, 5, 9}, BA[] = {0, 6, 7}, FL[] = {0, 7, 9}, F[] = {0, 9, 9}, B[] = {0, 3, 3},
                       P[] = {0, 0, 0};
      const int *set;
      switch (sch->leaves[i]->physical_type) {
        case 0: set = B; break;
        case 1:
        case 2: set = I; break;
        case 4:
        case 5: set = F; break;
        case 6: set = BA; break;
        case 7: set = FL; break;
        default: set = P; break;
      }
      ov[i].path = sch->leaves[i]->dotted_path;
      ov[i].options = o.defaults;
      ov[i].options.encoding = set[rint_(3)];
      ov[i].options.dictionary = cfg % 5 == 2;
    }
    pqt_writer_discard(w);
    pqt_string_free(&out);
    memset(&out, 0, sizeof out);
    o.columns = ov;
    o.n_columns = sch->n_leaves;
    pqt_status ost = pqt_writer_open_buffer(&w, &out, &ws, &o, &e);
    free(ov);
    pqt_arena_reset(&ar);
    o.columns = NULL;
    o.n_columns = 0;
    if (ost != PQT_OK) {
      fprintf(stderr, "  seed %d cfg %d: open with encodings: %s\n%s", seed, cfg, e.message, b.s);
      as.release(&as);
      free(b.s);
      return 1;
    }
  }
  int64_t rows = 40 + rint_(260);
  int null_pct = rint_(4) * 15;
  /* a struct batch with one child per top-level field */
  struct ArrowSchema rec = as;
  struct ArrowArray *batch = mk(&rec, rows, null_pct);
  /* the record batch itself has no nulls */
  holder *hb = batch->private_data;
  free(hb->bufs[0]);
  hb->bufs[0] = NULL;
  hb->ptrs[0] = NULL;
  batch->null_count = 0;
  /* write in two slices (offset handling), the second through a sliced view */
  int64_t half = rows / 3;
  struct ArrowArray view = *batch;
  view.length = half;
  if (pqt_writer_write_batch(w, &view, &e) != PQT_OK) failed = 1;
  view.offset = half;
  view.length = rows - half;
  if (!failed && pqt_writer_write_batch(w, &view, &e) != PQT_OK) failed = 1;
  if (failed) {
    fprintf(stderr, "  seed %d cfg %d: write: %s\n%s", seed, cfg, e.message, b.s);
    pqt_writer_discard(w);
  } else if (pqt_writer_close(w, &e) != PQT_OK) {
    fprintf(stderr, "  seed %d cfg %d: close: %s\n%s", seed, cfg, e.message, b.s);
    failed = 1;
  }
  if (!failed && getenv("RT_DUMP")) {
    FILE *df = fopen(getenv("RT_DUMP"), "wb");
    if (df) {
      fwrite(out.data, 1, out.len, df);
      fclose(df);
    }
  }
  if (!failed) {
    pqt_reader *r;
    if (pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e) != PQT_OK) {
      fprintf(stderr, "  seed %d cfg %d: reopen: %s\n%s", seed, cfg, e.message, b.s);
      failed = 1;
    } else {
      pqt_scan_options so;
      pqt_scan_options_init(&so);
      so.batch_size = 1 + rint_(100);
      struct ArrowArrayStream st;
      CHECK_OK(pqt_reader_get_stream(r, &so, &st, &e));
      int64_t row = 0;
      for (;;) {
        struct ArrowArray got;
        if (st.get_next(&st, &got) != 0) {
          fprintf(stderr, "  seed %d cfg %d: read: %s\n%s", seed, cfg, st.get_last_error(&st), b.s);
          failed = 1;
          break;
        }
        if (!got.release) break;
        for (int64_t i = 0; i < got.length && !failed; i++, row++) {
          for (int64_t c = 0; c < as.n_children; c++) {
            if (cmp_slot(as.children[c], batch->children[c], row, got.children[c], got.offset + i)) {
              fprintf(stderr, "  seed %d cfg %d: row %lld (%lld rows, first slice %lld): %s\n%s", seed, cfg,
                      (long long)row, (long long)rows, (long long)half, where, getenv("RT_SEED") ? b.s : "");
              failed = 1;
              break;
            }
          }
        }
        got.release(&got);
        if (failed) break;
      }
      if (!failed && row != rows) {
        fprintf(stderr, "  seed %d cfg %d: %lld rows back, wrote %lld\n", seed, cfg, (long long)row, (long long)rows);
        failed = 1;
      }
      st.release(&st);
      pqt_reader_close(r);
    }
  }
  batch->release(batch);
  free(batch);
  as.release(&as);
  pqt_string_free(&out);
  free(b.s);
  return failed;
}

static void test_random_roundtrips(void) {
  int fails = 0, runs = 0;
  if (getenv("RT_SEED")) {
    CHECK_EQ_INT(run_case(atoi(getenv("RT_SEED")), atoi(getenv("RT_CFG"))), 0);
    return;
  }
  int seeds = getenv("RT_SEEDS") ? atoi(getenv("RT_SEEDS")) : 60; /* more for a longer soak */
  for (int seed = 1; seed <= seeds; seed++)
    for (int cfg = 0; cfg < 12; cfg++) {
      fails += run_case(seed, (cfg * 7 + seed) % 84);
      runs++;
    }
  fprintf(stderr, "  %d round trips, %d failed\n", runs, fails);
  CHECK_EQ_INT(fails, 0);
}

int main(void) {
  static const pqt_test_case cases[] = {TEST_CASE(test_random_roundtrips)};
  return pqt_run_tests("roundtrip", cases, sizeof cases / sizeof cases[0]);
}
