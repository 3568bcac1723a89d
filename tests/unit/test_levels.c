/* Unit tests for src/levels: level infos, validation, record cutting,
 * assembly (levels -> bitmaps/offsets/values) and shredding (arrays ->
 * levels), with the Dremel paper example, the seeds/004 example, list/map
 * shapes, malformed streams and a seeded random round trip. */
#include "core/core.h"
#include "harness.h"
#include "rng.h"
#include "levels/levels.h"

#define MAXN 16

/* ---- a test-side column assembler built on the kernels --------------- */

typedef struct col {
  int32_t n;
  pqt_level_node ln[MAXN];
  pqt_level_info info[MAXN];
  int16_t rdef[MAXN], max_def, max_rep;
  const char *names[MAXN]; /* optional: field name of node k (for JSON) */
  uint8_t *valid[MAXN];
  int64_t *off[MAXN];
  int64_t n_slots[MAXN];
  bool strings;
  int64_t *ivals; /* leaf slots, int mode */
  int64_t *soff;  /* leaf slots + 1, string mode */
  char *sdata;
} col;

static void col_init(col *c, const pqt_level_node *ln, int32_t n) {
  memset(c, 0, sizeof *c);
  c->n = n;
  memcpy(c->ln, ln, (size_t)n * sizeof *ln);
  CHECK_OK(pqt_levels_path_info(ln, n, c->info, c->rdef, &c->max_def, &c->max_rep, NULL));
}

static void col_free(col *c) {
  for (int k = 0; k < c->n; k++) {
    free(c->valid[k]);
    free(c->off[k]);
  }
  free(c->ivals);
  free(c->soff);
  free(c->sdata);
}

/* Assemble levels (+ dense values) in batches of at most batch_records
 * records. Returns the pqt_status of the first failing kernel. */
static pqt_status col_assemble(col *c, const int16_t *def, const int16_t *rep, int64_t n, const int64_t *dense_i,
                               const char *const *dense_s, int64_t n_dense, int64_t batch_records, pqt_error *err) {
  int64_t cap = n + 1;
  for (int k = 0; k < c->n; k++) {
    c->valid[k] = calloc((size_t)cap / 8 + 2, 1);
    c->off[k] = calloc((size_t)cap + 1, sizeof(int64_t));
    c->n_slots[k] = 0;
  }
  int64_t *dense_off = NULL;
  if (c->strings) {
    size_t tot = 0;
    for (int64_t i = 0; i < n_dense; i++) tot += strlen(dense_s[i]);
    c->sdata = malloc(tot + 1);
    dense_off = malloc((size_t)(n_dense + 1) * sizeof(int64_t));
    dense_off[0] = 0;
    for (int64_t i = 0; i < n_dense; i++) {
      size_t l = strlen(dense_s[i]);
      memcpy(c->sdata + dense_off[i], dense_s[i], l);
      dense_off[i + 1] = dense_off[i] + (int64_t)l;
    }
    c->soff = calloc((size_t)cap + 1, sizeof(int64_t));
  } else {
    c->ivals = calloc((size_t)cap, sizeof(int64_t));
  }
  pqt_status st = PQT_OK;
  int16_t prev_def = -1;
  int64_t pos = 0, vpos = 0;
  int leaf = c->n - 1;
  while (pos < n && st == PQT_OK) {
    int64_t ne = 0, nr = 0;
    const int16_t *r = rep ? rep + pos : NULL;
    const int16_t *d = def ? def + pos : NULL;
    pqt_levels_find_records(r, n - pos, batch_records, true, &ne, &nr);
    if (ne <= 0) {
      st = PQT_EINVAL;
      break;
    }
    st = pqt_levels_validate(d, r, ne, c->max_def, c->max_rep, c->rdef, &prev_def, err);
    if (st) break;
    for (int k = 0; k < c->n && st == PQT_OK; k++) {
      int64_t ns = 0, nulls = 0, s0 = c->n_slots[k];
      if (c->ln[k].kind == PQT_LEVEL_LIST) {
        st = pqt_levels_to_list64(d, r, ne, c->info[k], c->off[k] + s0, c->valid[k], s0, cap - s0, &ns, &nulls, err);
      } else if (!r && k == leaf && d) {
        st = pqt_levels_def_to_bitmap(d, ne, c->max_def, c->valid[k], s0, &nulls, err);
        ns = ne;
      } else {
        st = pqt_levels_to_struct_bitmap(d, r, ne, c->info[k], c->valid[k], s0, cap - s0, &ns, &nulls, err);
      }
      if (st) break;
      c->n_slots[k] += ns;
      if (k == leaf) {
        int64_t nv = ns - nulls;
        if (vpos + nv > n_dense) {
          st = PQT_ECORRUPT;
          break;
        }
        if (c->strings) st = pqt_levels_spread_offsets64(c->soff + s0, dense_off + vpos, nv, c->valid[k], s0, ns, err);
        else
          st = pqt_levels_spread_fixed((uint8_t *)(c->ivals + s0), (const uint8_t *)(dense_i + vpos), nv, 8,
                                       c->valid[k], s0, ns, err);
        vpos += nv;
      }
    }
    pos += ne;
  }
  if (st == PQT_OK && vpos != n_dense) st = PQT_ECORRUPT;
  free(dense_off);
  return st;
}

static bool bit(const uint8_t *bm, int64_t i) { return (bm[i >> 3] >> (i & 7)) & 1; }

static void render(const col *c, int k, int64_t i, pqt_buf *b) {
  if (!bit(c->valid[k], i)) {
    pqt_buf_printf(b, NULL, "null");
    return;
  }
  switch (c->ln[k].kind) {
    case PQT_LEVEL_STRUCT:
      pqt_buf_printf(b, NULL, "{");
      if (c->names[k + 1]) pqt_buf_printf(b, NULL, "\"%s\":", c->names[k + 1]);
      render(c, k + 1, i, b);
      pqt_buf_printf(b, NULL, "}");
      break;
    case PQT_LEVEL_LIST:
      pqt_buf_printf(b, NULL, "[");
      for (int64_t e = c->off[k][i]; e < c->off[k][i + 1]; e++) {
        if (e > c->off[k][i]) pqt_buf_printf(b, NULL, ",");
        render(c, k + 1, e, b);
      }
      pqt_buf_printf(b, NULL, "]");
      break;
    default:
      if (c->strings) pqt_buf_printf(b, NULL, "\"%.*s\"", (int)(c->soff[i + 1] - c->soff[i]), c->sdata + c->soff[i]);
      else pqt_buf_printf(b, NULL, "%lld", (long long)c->ivals[i]);
  }
}

/* Render every record, separated by '|', into a static-lifetime buffer. */
static char *render_all(const col *c) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  for (int64_t i = 0; i < c->n_slots[0]; i++) {
    if (i) pqt_buf_printf(&b, NULL, "|");
    render(c, 0, i, &b);
  }
  pqt_buf_append(&b, "", 1, NULL);
  char *s = strdup((char *)b.data);
  pqt_buf_free(&b);
  return s;
}

/* Assemble in several batch sizes; every result must equal `expect`. */
static void check_assembles(const pqt_level_node *ln, int32_t n_nodes, const int16_t *def, const int16_t *rep,
                            int64_t n, const int64_t *dense_i, const char *const *dense_s, int64_t n_dense,
                            const char *expect) {
  static const int64_t batches[] = {1, 2, 3, 1000};
  for (size_t bi = 0; bi < sizeof batches / sizeof batches[0]; bi++) {
    col c;
    col_init(&c, ln, n_nodes);
    c.strings = dense_s != NULL;
    pqt_error e;
    pqt_error_init(&e);
    pqt_status st = col_assemble(&c, def, rep, n, dense_i, dense_s, n_dense, batches[bi], &e);
    CHECK_MSG(st == PQT_OK, "status %d: %s", st, e.message);
    if (st == PQT_OK) {
      char *got = render_all(&c);
      CHECK_MSG(strcmp(got, expect) == 0, "batch %lld\n   got  %s\n   want %s", (long long)batches[bi], got, expect);
      free(got);
    }
    col_free(&c);
  }
}

/* ---- shred helpers --------------------------------------------------- */

typedef struct shredded {
  int16_t *def, *rep;
  int64_t *vidx;
  int64_t n_levels, n_values;
  int64_t def_hist[MAXN * 2], rep_hist[MAXN];
} shredded;

static pqt_status shred_all(const pqt_shred_node *nodes, int32_t n, int64_t start, int64_t len, shredded *s,
                            pqt_error *err) {
  memset(s, 0, sizeof *s);
  pqt_shred_out o;
  memset(&o, 0, sizeof o);
  PQT_RETURN_NOT_OK(pqt_levels_shred(nodes, n, start, len, &o, err));
  s->def = malloc((size_t)o.n_levels * 2 + 2);
  s->rep = malloc((size_t)o.n_levels * 2 + 2);
  s->vidx = malloc((size_t)o.n_values * 8 + 8);
  pqt_shred_out o2;
  memset(&o2, 0, sizeof o2);
  o2.def = s->def;
  o2.rep = s->rep;
  o2.value_idx = s->vidx;
  o2.level_capacity = o.n_levels;
  o2.value_capacity = o.n_values;
  o2.def_hist = s->def_hist;
  o2.rep_hist = s->rep_hist;
  PQT_RETURN_NOT_OK(pqt_levels_shred(nodes, n, start, len, &o2, err));
  CHECK_EQ_INT(o2.n_levels, o.n_levels);
  CHECK_EQ_INT(o2.n_values, o.n_values);
  s->n_levels = o2.n_levels;
  s->n_values = o2.n_values;
  return PQT_OK;
}

static void shredded_free(shredded *s) {
  free(s->def);
  free(s->rep);
  free(s->vidx);
}

static void check_levels(const int16_t *got, const int16_t *want, int64_t n, const char *what) {
  for (int64_t i = 0; i < n; i++)
    CHECK_MSG(got[i] == want[i], "%s[%lld] = %d, want %d", what, (long long)i, got[i], want[i]);
}

#define L_STRUCT(nl) \
  { PQT_LEVEL_STRUCT, nl }
#define L_LIST(nl) \
  { PQT_LEVEL_LIST, nl }
#define L_LEAF(nl) \
  { PQT_LEVEL_LEAF, nl }

/* ---- path infos -------------------------------------------------------- */

static void test_path_info(void) {
  /* seeds/004 nest.repeated.nest.repeated:
   * optional nest / repeated repeated / optional nest / repeated repeated */
  pqt_level_node ln[] = {L_STRUCT(1), L_LIST(0), L_STRUCT(0), L_STRUCT(1), L_LIST(0), L_LEAF(0)};
  pqt_level_info in[6];
  int16_t rd[6], md, mr;
  CHECK_OK(pqt_levels_path_info(ln, 6, in, rd, &md, &mr, NULL));
  CHECK_EQ_INT(md, 4);
  CHECK_EQ_INT(mr, 2);
  CHECK_EQ_INT(rd[0], 2);
  CHECK_EQ_INT(rd[1], 4);
  CHECK(in[0].def_level == 1 && in[0].rep_level == 0 && in[0].repeated_ancestor_def_level == 0);
  CHECK(in[1].def_level == 1 && in[1].rep_level == 0 && in[1].repeated_ancestor_def_level == 0);
  CHECK(in[2].def_level == 2 && in[2].rep_level == 1 && in[2].repeated_ancestor_def_level == 2);
  CHECK(in[3].def_level == 3 && in[3].rep_level == 1 && in[3].repeated_ancestor_def_level == 2);
  CHECK(in[4].def_level == 3 && in[4].rep_level == 1 && in[4].repeated_ancestor_def_level == 2);
  CHECK(in[5].def_level == 4 && in[5].rep_level == 2 && in[5].repeated_ancestor_def_level == 4);

  /* Physical -> logical. */
  const uint8_t rep4[] = {PQT_LEVEL_OPTIONAL, PQT_LEVEL_REPEATED, PQT_LEVEL_OPTIONAL, PQT_LEVEL_REPEATED};
  pqt_level_node out[8];
  int32_t phys[8], nn = 0;
  CHECK_OK(pqt_levels_path_from_schema(rep4, NULL, 4, out, phys, &nn, NULL));
  CHECK_EQ_INT(nn, 6);
  for (int k = 0; k < 6 && k < nn; k++) {
    CHECK_EQ_INT(out[k].kind, ln[k].kind);
    CHECK_EQ_INT(out[k].nullable, ln[k].nullable);
  }
  CHECK_EQ_INT(phys[1], 1);
  CHECK_EQ_INT(phys[2], 1);
  CHECK_EQ_INT(phys[5], 3);

  /* 3-level list: optional group l (LIST) { repeated group list { optional int32 element } } */
  const uint8_t rep3[] = {PQT_LEVEL_OPTIONAL, PQT_LEVEL_REPEATED, PQT_LEVEL_OPTIONAL};
  const uint8_t lst3[] = {1, 0, 0};
  CHECK_OK(pqt_levels_path_from_schema(rep3, lst3, 3, out, phys, &nn, NULL));
  CHECK_EQ_INT(nn, 3);
  CHECK(out[0].kind == PQT_LEVEL_LIST && out[0].nullable);
  CHECK(out[1].kind == PQT_LEVEL_STRUCT && !out[1].nullable);
  CHECK(out[2].kind == PQT_LEVEL_LEAF && out[2].nullable);
  CHECK_OK(pqt_levels_path_info(out, nn, in, rd, &md, &mr, NULL));
  CHECK_EQ_INT(md, 3);
  CHECK_EQ_INT(mr, 1);

  /* 2-level legacy list: optional group l (LIST) { repeated int32 element } */
  const uint8_t rep2[] = {PQT_LEVEL_OPTIONAL, PQT_LEVEL_REPEATED};
  const uint8_t lst2[] = {1, 0};
  CHECK_OK(pqt_levels_path_from_schema(rep2, lst2, 2, out, phys, &nn, NULL));
  CHECK_EQ_INT(nn, 2);
  CHECK(out[0].kind == PQT_LEVEL_LIST && out[0].nullable);
  CHECK(out[1].kind == PQT_LEVEL_LEAF && !out[1].nullable);

  /* Errors. */
  const uint8_t bad1[] = {PQT_LEVEL_REPEATED, PQT_LEVEL_REPEATED};
  CHECK_EQ_INT(pqt_levels_path_from_schema(bad1, lst2, 2, out, phys, &nn, NULL), PQT_ECORRUPT);
  const uint8_t bad2[] = {PQT_LEVEL_OPTIONAL, PQT_LEVEL_OPTIONAL};
  CHECK_EQ_INT(pqt_levels_path_from_schema(bad2, lst2, 2, out, phys, &nn, NULL), PQT_ECORRUPT);
  CHECK_EQ_INT(pqt_levels_path_from_schema(rep2, lst2, 1, out, phys, &nn, NULL), PQT_ECORRUPT);
  const uint8_t bad3[] = {7};
  CHECK_EQ_INT(pqt_levels_path_from_schema(bad3, NULL, 1, out, phys, &nn, NULL), PQT_EINVAL);
  pqt_level_node badp[] = {L_LEAF(0), L_LEAF(0)};
  CHECK_EQ_INT(pqt_levels_path_info(badp, 2, in, rd, &md, &mr, NULL), PQT_EINVAL);
  pqt_level_node badq[] = {L_STRUCT(0)};
  CHECK_EQ_INT(pqt_levels_path_info(badq, 1, in, rd, &md, &mr, NULL), PQT_EINVAL);
}

/* ---- the Dremel paper example ----------------------------------------- */

static void test_dremel_paper(void) {
  /* DocId: required int64. */
  {
    pqt_level_node ln[] = {L_LEAF(0)};
    const int64_t v[] = {10, 20};
    check_assembles(ln, 1, NULL, NULL, 2, v, NULL, 2, "10|20");
  }
  /* Links.Forward / Links.Backward: optional group Links { repeated int64 ... } */
  pqt_level_node links[] = {L_STRUCT(1), L_LIST(0), L_LEAF(0)};
  {
    const int16_t d[] = {2, 2, 2, 2}, r[] = {0, 1, 1, 0};
    const int64_t v[] = {20, 40, 60, 80};
    check_assembles(links, 3, d, r, 4, v, NULL, 4, "{[20,40,60]}|{[80]}");
  }
  {
    const int16_t d[] = {1, 2, 2}, r[] = {0, 0, 1};
    const int64_t v[] = {10, 30};
    check_assembles(links, 3, d, r, 3, v, NULL, 2, "{[]}|{[10,30]}");
  }
  /* Name.Language.Code / Country, Name.Url. */
  pqt_level_node code[] = {L_LIST(0), L_STRUCT(0), L_LIST(0), L_STRUCT(0), L_LEAF(0)};
  pqt_level_node country[] = {L_LIST(0), L_STRUCT(0), L_LIST(0), L_STRUCT(0), L_LEAF(1)};
  pqt_level_node url[] = {L_LIST(0), L_STRUCT(0), L_LEAF(1)};
  const int16_t code_d[] = {2, 2, 1, 2, 1}, code_r[] = {0, 2, 1, 1, 0};
  const int16_t ctry_d[] = {3, 2, 1, 3, 1}, ctry_r[] = {0, 2, 1, 1, 0};
  const int16_t url_d[] = {2, 2, 1, 2}, url_r[] = {0, 1, 1, 0};
  {
    const char *v[] = {"en-us", "en", "en-gb"};
    check_assembles(code, 5, code_d, code_r, 5, NULL, v, 3, "[{[{\"en-us\"},{\"en\"}]},{[]},{[{\"en-gb\"}]}]|[{[]}]");
  }
  {
    const char *v[] = {"us", "gb"};
    check_assembles(country, 5, ctry_d, ctry_r, 5, NULL, v, 2, "[{[{\"us\"},{null}]},{[]},{[{\"gb\"}]}]|[{[]}]");
  }
  {
    const char *v[] = {"http://A", "http://B", "http://C"};
    check_assembles(url, 3, url_d, url_r, 4, NULL, v, 3, "[{\"http://A\"},{\"http://B\"},{null}]|[{\"http://C\"}]");
  }
  /* And shred the same two records back into the paper's levels. */
  const int64_t name_off[] = {0, 3, 4};       /* r1: 3 Names, r2: 1 */
  const int64_t lang_off[] = {0, 2, 2, 3, 3}; /* per Name: languages */
  const uint8_t country_valid[] = {0x5};      /* us, null, gb */
  const uint8_t url_valid[] = {0xB};          /* A, B, null, C */
  pqt_shred_node sn[5] = {
      {PQT_LEVEL_LIST, 0, NULL, NULL, name_off, 0, 2}, {PQT_LEVEL_STRUCT, 0, NULL, NULL, NULL, 0, 4},
      {PQT_LEVEL_LIST, 0, NULL, NULL, lang_off, 0, 4}, {PQT_LEVEL_STRUCT, 0, NULL, NULL, NULL, 0, 3},
      {PQT_LEVEL_LEAF, 0, NULL, NULL, NULL, 0, 3},
  };
  shredded s;
  CHECK_OK(shred_all(sn, 5, 0, 2, &s, NULL));
  CHECK_EQ_INT(s.n_levels, 5);
  CHECK_EQ_INT(s.n_values, 3);
  check_levels(s.def, code_d, 5, "code def");
  check_levels(s.rep, code_r, 5, "code rep");
  CHECK(s.vidx[0] == 0 && s.vidx[1] == 1 && s.vidx[2] == 2);
  CHECK(s.def_hist[0] == 0 && s.def_hist[1] == 2 && s.def_hist[2] == 3);
  CHECK(s.rep_hist[0] == 2 && s.rep_hist[1] == 2 && s.rep_hist[2] == 1);
  shredded_free(&s);
  sn[4].nullable = 1;
  sn[4].validity = country_valid;
  CHECK_OK(shred_all(sn, 5, 0, 2, &s, NULL));
  CHECK_EQ_INT(s.n_levels, 5);
  check_levels(s.def, ctry_d, 5, "country def");
  check_levels(s.rep, ctry_r, 5, "country rep");
  CHECK_EQ_INT(s.n_values, 2);
  CHECK(s.vidx[0] == 0 && s.vidx[1] == 2);
  shredded_free(&s);
  pqt_shred_node su[3] = {
      {PQT_LEVEL_LIST, 0, NULL, NULL, name_off, 0, 2},
      {PQT_LEVEL_STRUCT, 0, NULL, NULL, NULL, 0, 4},
      {PQT_LEVEL_LEAF, 1, url_valid, NULL, NULL, 0, 4},
  };
  CHECK_OK(shred_all(su, 3, 0, 2, &s, NULL));
  CHECK_EQ_INT(s.n_levels, 4);
  check_levels(s.def, url_d, 4, "url def");
  check_levels(s.rep, url_r, 4, "url rep");
  shredded_free(&s);
}

/* ---- seeds/004 -------------------------------------------------------- */

static void test_seed004(void) {
  /* nest.nest: D 2,2,1 R 0 */
  const uint8_t p1_rep[] = {PQT_LEVEL_OPTIONAL, PQT_LEVEL_OPTIONAL};
  const uint8_t p2_rep[] = {PQT_LEVEL_OPTIONAL, PQT_LEVEL_REPEATED, PQT_LEVEL_OPTIONAL, PQT_LEVEL_REPEATED};
  pqt_level_node ln1[4], ln2[8];
  int32_t n1, n2;
  CHECK_OK(pqt_levels_path_from_schema(p1_rep, NULL, 2, ln1, NULL, &n1, NULL));
  CHECK_OK(pqt_levels_path_from_schema(p2_rep, NULL, 4, ln2, NULL, &n2, NULL));
  const int16_t d1[] = {2, 2, 1};
  const char *v1[] = {"nest1", "nest2"};
  const int16_t d2[] = {4, 4, 4, 4, 4, 4, 1}, r2[] = {0, 2, 2, 1, 2, 0, 0};
  const char *v2[] = {"nestRep1", "nestRep2", "nestRep3", "nestRep4", "nestRep5", "nestRep6"};
  col c1, c2;
  col_init(&c1, ln1, n1);
  col_init(&c2, ln2, n2);
  CHECK_EQ_INT(c1.max_def, 2);
  CHECK_EQ_INT(c2.max_def, 4);
  CHECK_EQ_INT(c2.max_rep, 2);
  c1.strings = c2.strings = true;
  CHECK_OK(col_assemble(&c1, d1, NULL, 3, NULL, v1, 2, 100, NULL));
  CHECK_OK(col_assemble(&c2, d2, r2, 7, NULL, v2, 6, 1, NULL));
  /* Field names of c2's nodes: nest{repeated: [ {nest: {repeated: [..]}} ]} */
  c2.names[3] = "nest";
  c2.names[4] = "repeated";
  CHECK_EQ_INT(c1.n_slots[0], 3);
  CHECK_EQ_INT(c2.n_slots[0], 3);
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_buf_printf(&b, NULL, "[");
  for (int64_t i = 0; i < 3; i++) {
    /* The struct `nest` is the same node in both columns. */
    CHECK_EQ_INT(bit(c1.valid[0], i), bit(c2.valid[0], i));
    pqt_buf_printf(&b, NULL, "%s{\"nest\":{\"nest\":", i ? "," : "");
    render(&c1, 1, i, &b);
    pqt_buf_printf(&b, NULL, ",\"repeated\":");
    render(&c2, 1, i, &b);
    pqt_buf_printf(&b, NULL, "}}");
  }
  pqt_buf_printf(&b, NULL, "]");
  pqt_buf_append(&b, "", 1, NULL);
  const char *want =
      "[{\"nest\":{\"nest\":\"nest1\",\"repeated\":["
      "{\"nest\":{\"repeated\":[\"nestRep1\",\"nestRep2\",\"nestRep3\"]}},"
      "{\"nest\":{\"repeated\":[\"nestRep4\",\"nestRep5\"]}}]}},"
      "{\"nest\":{\"nest\":\"nest2\",\"repeated\":["
      "{\"nest\":{\"repeated\":[\"nestRep6\"]}}]}},"
      "{\"nest\":{\"nest\":null,\"repeated\":[]}}]";
  CHECK_MSG(strcmp((char *)b.data, want) == 0, "\n   got  %s\n   want %s", (char *)b.data, want);
  pqt_buf_free(&b);
  col_free(&c1);
  col_free(&c2);

  /* Shred the same data back to D/R. */
  const int64_t rep1_off[] = {0, 2, 3, 3};
  const int64_t rep2_off[] = {0, 3, 5, 6};
  pqt_shred_node sn[6] = {
      {PQT_LEVEL_STRUCT, 1, NULL, NULL, NULL, 0, 3},   {PQT_LEVEL_LIST, 0, NULL, NULL, rep1_off, 0, 3},
      {PQT_LEVEL_STRUCT, 0, NULL, NULL, NULL, 0, 3},   {PQT_LEVEL_STRUCT, 1, NULL, NULL, NULL, 0, 3},
      {PQT_LEVEL_LIST, 0, NULL, NULL, rep2_off, 0, 3}, {PQT_LEVEL_LEAF, 0, NULL, NULL, NULL, 0, 6},
  };
  shredded s;
  CHECK_OK(shred_all(sn, 6, 0, 3, &s, NULL));
  CHECK_EQ_INT(s.n_levels, 7);
  CHECK_EQ_INT(s.n_values, 6);
  check_levels(s.def, d2, 7, "def");
  check_levels(s.rep, r2, 7, "rep");
  shredded_free(&s);
}

/* ---- list shapes -------------------------------------------------------- */

static void test_list_null_empty_nullelem(void) {
  /* optional list<optional int>: null, [], [null], [1,2] */
  pqt_level_node ln[] = {L_LIST(1), L_LEAF(1)};
  const int16_t d[] = {0, 1, 2, 3, 3}, r[] = {0, 0, 0, 0, 1};
  const int64_t v[] = {1, 2};
  check_assembles(ln, 2, d, r, 5, v, NULL, 2, "null|[]|[null]|[1,2]");
  /* Exact offsets and validity. */
  col c;
  col_init(&c, ln, 2);
  CHECK_OK(col_assemble(&c, d, r, 5, v, NULL, 2, 100, NULL));
  CHECK_EQ_INT(c.n_slots[0], 4);
  CHECK_EQ_INT(c.n_slots[1], 3);
  const int64_t want_off[] = {0, 0, 0, 1, 3};
  for (int i = 0; i < 5; i++) CHECK_EQ_INT(c.off[0][i], want_off[i]);
  CHECK_EQ_INT(c.valid[0][0] & 0xF, 0xE);
  CHECK_EQ_INT(c.valid[1][0] & 0x7, 0x6);
  col_free(&c);
  /* int32 offsets too, with a base carried from a previous batch. */
  pqt_level_info li[2];
  int16_t md, mr;
  CHECK_OK(pqt_levels_path_info(ln, 2, li, NULL, &md, &mr, NULL));
  int32_t off32[5] = {7};
  uint8_t vb[1] = {0};
  int64_t ns = 0, nulls = 0;
  CHECK_OK(pqt_levels_to_list32(d, r, 5, li[0], off32, vb, 0, 4, &ns, &nulls, NULL));
  CHECK_EQ_INT(ns, 4);
  CHECK_EQ_INT(nulls, 1);
  const int32_t want32[] = {7, 7, 7, 8, 10};
  for (int i = 0; i < 5; i++) CHECK_EQ_INT(off32[i], want32[i]);
  /* Shred back. */
  const int32_t soff[] = {0, 0, 0, 1, 3};
  const uint8_t lvalid[] = {0xE}, evalid[] = {0x6};
  pqt_shred_node sn[2] = {{PQT_LEVEL_LIST, 1, lvalid, soff, NULL, 0, 4}, {PQT_LEVEL_LEAF, 1, evalid, NULL, NULL, 0, 3}};
  shredded s;
  CHECK_OK(shred_all(sn, 2, 0, 4, &s, NULL));
  CHECK_EQ_INT(s.n_levels, 5);
  check_levels(s.def, d, 5, "def");
  check_levels(s.rep, r, 5, "rep");
  CHECK(s.n_values == 2 && s.vidx[0] == 1 && s.vidx[1] == 2);
  shredded_free(&s);
  /* A sub-range with Arrow offsets on both nodes: slots 2..3 of a list
   * array at offset 1 = [null] and [1,2] after shifting. */
  const int32_t soff2[] = {9, 0, 0, 0, 1, 3};
  const uint8_t lvalid2[] = {0x1C};
  const uint8_t evalid2[] = {0x6 << 2};
  pqt_shred_node sn2[2] = {{PQT_LEVEL_LIST, 1, lvalid2, soff2, NULL, 1, 4},
                           {PQT_LEVEL_LEAF, 1, evalid2, NULL, NULL, 2, 3}};
  CHECK_OK(shred_all(sn2, 2, 2, 2, &s, NULL));
  CHECK_EQ_INT(s.n_levels, 3);
  check_levels(s.def, d + 2, 3, "def");
  check_levels(s.rep, r + 2, 3, "rep");
  CHECK(s.n_values == 2 && s.vidx[0] == 3 && s.vidx[1] == 4);
  shredded_free(&s);
}

static void test_list_of_list(void) {
  /* optional list<optional list<optional int>>:
   * [[1,2],[],null,[null]] | null | [] | [[3],[4,5]] */
  pqt_level_node ln[] = {L_LIST(1), L_LIST(1), L_LEAF(1)};
  const int16_t d[] = {5, 5, 3, 2, 4, 0, 1, 5, 5, 5};
  const int16_t r[] = {0, 2, 1, 1, 1, 0, 0, 0, 1, 2};
  const int64_t v[] = {1, 2, 3, 4, 5};
  check_assembles(ln, 3, d, r, 10, v, NULL, 5, "[[1,2],[],null,[null]]|null|[]|[[3],[4,5]]");
  const int32_t o0[] = {0, 4, 4, 4, 6}, o1[] = {0, 2, 2, 2, 3, 4, 6};
  const uint8_t v0[] = {0xD}, v1[] = {0x3B}, v2[] = {0x3B};
  pqt_shred_node sn[3] = {{PQT_LEVEL_LIST, 1, v0, o0, NULL, 0, 4},
                          {PQT_LEVEL_LIST, 1, v1, o1, NULL, 0, 6},
                          {PQT_LEVEL_LEAF, 1, v2, NULL, NULL, 0, 6}};
  shredded s;
  CHECK_OK(shred_all(sn, 3, 0, 4, &s, NULL));
  CHECK_EQ_INT(s.n_levels, 10);
  check_levels(s.def, d, 10, "def");
  check_levels(s.rep, r, 10, "rep");
  shredded_free(&s);
}

static void test_list_of_struct_with_list(void) {
  /* optional list<optional struct<a: optional int, b: optional list<optional int>>>:
   * r0 [{a:1,b:[10,11]}, null, {a:null,b:null}, {a:4,b:[]}]  r1 null  r2 [{a:5,b:[null]}] */
  const int32_t lo[] = {0, 4, 4, 5};
  const uint8_t lv[] = {0x5};
  const uint8_t sv[] = {0x1D};
  const uint8_t avalid[] = {0x19};
  const int32_t bo[] = {0, 2, 2, 2, 2, 3};
  const uint8_t bvalid[] = {0x19};
  const uint8_t bev[] = {0x3};
  pqt_shred_node na[3] = {{PQT_LEVEL_LIST, 1, lv, lo, NULL, 0, 3},
                          {PQT_LEVEL_STRUCT, 1, sv, NULL, NULL, 0, 5},
                          {PQT_LEVEL_LEAF, 1, avalid, NULL, NULL, 0, 5}};
  pqt_shred_node nb[4] = {{PQT_LEVEL_LIST, 1, lv, lo, NULL, 0, 3},
                          {PQT_LEVEL_STRUCT, 1, sv, NULL, NULL, 0, 5},
                          {PQT_LEVEL_LIST, 1, bvalid, bo, NULL, 0, 5},
                          {PQT_LEVEL_LEAF, 1, bev, NULL, NULL, 0, 3}};
  shredded sa, sb;
  CHECK_OK(shred_all(na, 3, 0, 3, &sa, NULL));
  CHECK_OK(shred_all(nb, 4, 0, 3, &sb, NULL));
  /* a: max def 4 (list 1, rep 2, struct 3, a 4) */
  const int16_t ad[] = {4, 2, 3, 4, 0, 4}, ar[] = {0, 1, 1, 1, 0, 0};
  CHECK_EQ_INT(sa.n_levels, 6);
  check_levels(sa.def, ad, 6, "a def");
  check_levels(sa.rep, ar, 6, "a rep");
  /* b: list 1, rep 2, struct 3, b 4, b.rep 5, elem 6 */
  const int16_t bd[] = {6, 6, 2, 3, 4, 0, 5}, br[] = {0, 2, 1, 1, 1, 0, 0};
  CHECK_EQ_INT(sb.n_levels, 7);
  check_levels(sb.def, bd, 7, "b def");
  check_levels(sb.rep, br, 7, "b rep");
  pqt_level_node la[] = {L_LIST(1), L_STRUCT(1), L_LEAF(1)};
  pqt_level_node lb[] = {L_LIST(1), L_STRUCT(1), L_LIST(1), L_LEAF(1)};
  const int64_t adense[] = {1, 4, 5}, bdense[] = {10, 11};
  check_assembles(la, 3, sa.def, sa.rep, sa.n_levels, adense, NULL, 3, "[{1},null,{null},{4}]|null|[{5}]");
  check_assembles(lb, 4, sb.def, sb.rep, sb.n_levels, bdense, NULL, 2, "[{[10,11]},null,{null},{[]}]|null|[{[null]}]");
  shredded_free(&sa);
  shredded_free(&sb);
}

static void test_map_with_null_values(void) {
  /* optional map<string, optional int>: {a:1, b:null} | null | {} | {c:3} */
  const int32_t mo[] = {0, 2, 2, 2, 3};
  const uint8_t mv[] = {0xD};
  const uint8_t vv[] = {0x5};
  pqt_shred_node nk[3] = {{PQT_LEVEL_LIST, 1, mv, mo, NULL, 0, 4},
                          {PQT_LEVEL_STRUCT, 0, NULL, NULL, NULL, 0, 3},
                          {PQT_LEVEL_LEAF, 0, NULL, NULL, NULL, 0, 3}};
  pqt_shred_node nv[3] = {{PQT_LEVEL_LIST, 1, mv, mo, NULL, 0, 4},
                          {PQT_LEVEL_STRUCT, 0, NULL, NULL, NULL, 0, 3},
                          {PQT_LEVEL_LEAF, 1, vv, NULL, NULL, 0, 3}};
  shredded sk, sv;
  CHECK_OK(shred_all(nk, 3, 0, 4, &sk, NULL));
  CHECK_OK(shred_all(nv, 3, 0, 4, &sv, NULL));
  const int16_t kd[] = {2, 2, 0, 1, 2}, kr[] = {0, 1, 0, 0, 0};
  const int16_t vd[] = {3, 2, 0, 1, 3};
  CHECK_EQ_INT(sk.n_levels, 5);
  CHECK_EQ_INT(sv.n_levels, 5);
  check_levels(sk.def, kd, 5, "key def");
  check_levels(sk.rep, kr, 5, "key rep");
  check_levels(sv.def, vd, 5, "value def");
  check_levels(sv.rep, kr, 5, "value rep");
  CHECK(sv.n_values == 2 && sv.vidx[0] == 0 && sv.vidx[1] == 2);
  /* Physical schema: optional group m (MAP) { repeated group key_value {
   * required binary key; optional int32 value } } */
  const uint8_t prep[] = {PQT_LEVEL_OPTIONAL, PQT_LEVEL_REPEATED, PQT_LEVEL_OPTIONAL};
  const uint8_t plist[] = {1, 0, 0};
  pqt_level_node ln[6];
  int32_t n = 0;
  CHECK_OK(pqt_levels_path_from_schema(prep, plist, 3, ln, NULL, &n, NULL));
  CHECK_EQ_INT(n, 3);
  const char *keys[] = {"a", "b", "c"};
  const int64_t vals[] = {1, 3};
  pqt_level_node lk[] = {L_LIST(1), L_STRUCT(0), L_LEAF(0)};
  check_assembles(lk, 3, sk.def, sk.rep, 5, NULL, keys, 3, "[{\"a\"},{\"b\"}]|null|[]|[{\"c\"}]");
  check_assembles(ln, 3, sv.def, sv.rep, 5, vals, NULL, 2, "[{1},{null}]|null|[]|[{3}]");
  shredded_free(&sk);
  shredded_free(&sv);
}

static void test_struct_shapes(void) {
  /* required struct { optional struct { optional int } }: 1 | {null} | null */
  pqt_level_node l1[] = {L_STRUCT(0), L_STRUCT(1), L_LEAF(1)};
  const int16_t d1[] = {2, 1, 0};
  const int64_t v1[] = {1};
  check_assembles(l1, 3, d1, NULL, 3, v1, NULL, 1, "{{1}}|{{null}}|{null}");
  const uint8_t sv[] = {0x3}, lv[] = {0x1};
  pqt_shred_node s1[3] = {{PQT_LEVEL_STRUCT, 0, NULL, NULL, NULL, 0, 3},
                          {PQT_LEVEL_STRUCT, 1, sv, NULL, NULL, 0, 3},
                          {PQT_LEVEL_LEAF, 1, lv, NULL, NULL, 0, 3}};
  shredded s;
  CHECK_OK(shred_all(s1, 3, 0, 3, &s, NULL));
  CHECK_EQ_INT(s.n_levels, 3);
  check_levels(s.def, d1, 3, "def");
  shredded_free(&s);
  /* required leaf under optional parents: optional s { optional t { required int } } */
  pqt_level_node l2[] = {L_STRUCT(1), L_STRUCT(1), L_LEAF(0)};
  pqt_level_info li[3];
  int16_t md, mr;
  CHECK_OK(pqt_levels_path_info(l2, 3, li, NULL, &md, &mr, NULL));
  CHECK_EQ_INT(md, 2);
  CHECK_EQ_INT(li[2].def_level, 2);
  const int16_t d2[] = {2, 0, 1, 2};
  const int64_t v2[] = {7, 8};
  check_assembles(l2, 3, d2, NULL, 4, v2, NULL, 2, "{{7}}|null|{null}|{{8}}");
  /* The required struct's child and a NULL validity with nulls in the
   * required leaf below a null parent are fine. */
  const uint8_t ps[] = {0x9}, pt[] = {0x9}, lf[] = {0x9};
  pqt_shred_node s2[3] = {{PQT_LEVEL_STRUCT, 1, ps, NULL, NULL, 0, 4},
                          {PQT_LEVEL_STRUCT, 1, pt, NULL, NULL, 0, 4},
                          {PQT_LEVEL_LEAF, 0, lf, NULL, NULL, 0, 4}};
  const int16_t d2b[] = {2, 0, 0, 2};
  CHECK_OK(shred_all(s2, 3, 0, 4, &s, NULL));
  check_levels(s.def, d2b, 4, "def");
  shredded_free(&s);
}

static void test_legacy_lists(void) {
  /* 2-level: optional group l (LIST) { repeated int32 element }: null | [] | [1,2] */
  const uint8_t prep[] = {PQT_LEVEL_OPTIONAL, PQT_LEVEL_REPEATED};
  const uint8_t plist[] = {1, 0};
  pqt_level_node ln[4];
  int32_t n = 0;
  CHECK_OK(pqt_levels_path_from_schema(prep, plist, 2, ln, NULL, &n, NULL));
  const int16_t d[] = {0, 1, 2, 2}, r[] = {0, 0, 0, 1};
  const int64_t v[] = {1, 2};
  check_assembles(ln, n, d, r, 4, v, NULL, 2, "null|[]|[1,2]");
  /* Unannotated repeated field: repeated int32 x (list of required, never null). */
  const uint8_t urep[] = {PQT_LEVEL_REPEATED};
  CHECK_OK(pqt_levels_path_from_schema(urep, NULL, 1, ln, NULL, &n, NULL));
  CHECK_EQ_INT(n, 2);
  const int16_t ud[] = {0, 1, 1, 1}, ur[] = {0, 0, 1, 0};
  const int64_t uv[] = {5, 6, 7};
  check_assembles(ln, n, ud, ur, 4, uv, NULL, 3, "[]|[5,6]|[7]");
  /* Repeated group with two-level element: optional group l (LIST) {
   * repeated group array { required int32 x } } */
  const uint8_t grep[] = {PQT_LEVEL_OPTIONAL, PQT_LEVEL_REPEATED, PQT_LEVEL_REQUIRED};
  const uint8_t glist[] = {1, 0, 0};
  CHECK_OK(pqt_levels_path_from_schema(grep, glist, 3, ln, NULL, &n, NULL));
  CHECK_EQ_INT(n, 3);
  check_assembles(ln, n, d, r, 4, v, NULL, 2, "null|[]|[{1},{2}]");
}

/* ---- flat def -> bitmap ------------------------------------------------ */

static uint64_t rng_state;
static uint64_t rnd(void) {
  return pqt_test_xorshift(&rng_state);
}
static int64_t rndn(int64_t n) { return n > 0 ? (int64_t)(rnd() % (uint64_t)n) : 0; }

static void test_def_to_bitmap(void) {
  rng_state = 0x9E3779B97F4A7C15ull;
  for (int iter = 0; iter < 300; iter++) {
    int64_t n = rndn(300);
    int64_t off = rndn(20);
    int16_t maxd = (int16_t)(1 + rndn(3));
    int16_t *d = malloc((size_t)n * 2 + 2);
    for (int64_t i = 0; i < n; i++) d[i] = (int16_t)rndn(maxd + 1);
    size_t nb = (size_t)(off + n + 7) / 8 + 1;
    uint8_t *bm = malloc(nb), *ref = malloc(nb);
    for (size_t i = 0; i < nb; i++) bm[i] = ref[i] = (uint8_t)rnd();
    int64_t want_nulls = 0;
    for (int64_t i = 0; i < n; i++) {
      int64_t p = off + i;
      if (d[i] == maxd) ref[p >> 3] |= (uint8_t)(1u << (p & 7));
      else {
        ref[p >> 3] &= (uint8_t) ~(1u << (p & 7));
        want_nulls++;
      }
    }
    int64_t nulls = -1;
    CHECK_OK(pqt_levels_def_to_bitmap(d, n, maxd, bm, off, &nulls, NULL));
    CHECK_EQ_INT(nulls, want_nulls);
    CHECK(memcmp(bm, ref, nb) == 0);
    /* A bad level anywhere is reported. */
    if (n > 0) {
      int64_t b = rndn(n);
      d[b] = (int16_t)(rndn(2) ? maxd + 1 : -1);
      pqt_error e;
      pqt_error_init(&e);
      CHECK_EQ_INT(pqt_levels_def_to_bitmap(d, n, maxd, bm, off, &nulls, &e), PQT_ECORRUPT);
      CHECK(strstr(e.message, "level") != NULL);
    }
    free(d);
    free(bm);
    free(ref);
  }
  /* def NULL: all valid, neighbours kept. */
  uint8_t bm[4] = {0, 0, 0, 0};
  int64_t nulls = -1;
  CHECK_OK(pqt_levels_def_to_bitmap(NULL, 10, 0, bm, 3, &nulls, NULL));
  CHECK(bm[0] == 0xF8 && bm[1] == 0x1F && bm[2] == 0 && nulls == 0);
}

/* ---- spreading values ------------------------------------------------- */

static void test_spread(void) {
  const uint8_t valid[] = {0xB2, 0x01}; /* slots 1,4,5,7,8 of 9 valid */
  int32_t buf[9] = {11, 22, 33, 44, 55, 0, 0, 0, 0};
  CHECK_OK(pqt_levels_spread_fixed((uint8_t *)buf, (const uint8_t *)buf, 5, 4, valid, 0, 9, NULL));
  const int32_t want[] = {0, 11, 0, 0, 22, 33, 0, 44, 55};
  for (int i = 0; i < 9; i++) CHECK_EQ_INT(buf[i], want[i]);
  int32_t dense[] = {11, 22, 33, 44, 55}, out[9];
  memset(out, 0x7F, sizeof out);
  CHECK_OK(pqt_levels_spread_fixed((uint8_t *)out, (const uint8_t *)dense, 5, 4, valid, 0, 9, NULL));
  for (int i = 0; i < 9; i++) CHECK_EQ_INT(out[i], want[i]);
  /* Count mismatch. */
  CHECK_EQ_INT(pqt_levels_spread_fixed((uint8_t *)out, (const uint8_t *)dense, 4, 4, valid, 0, 9, NULL), PQT_ECORRUPT);
  /* Offsets, in place: values "a","bb","","ccc","d". */
  int64_t offs[10] = {0, 1, 3, 3, 6, 7};
  CHECK_OK(pqt_levels_spread_offsets64(offs, offs, 5, valid, 0, 9, NULL));
  const int64_t wo[] = {0, 0, 1, 1, 1, 3, 3, 3, 6, 7};
  for (int i = 0; i < 10; i++) CHECK_EQ_INT(offs[i], wo[i]);
  int32_t o32[10] = {5, 6, 8, 8, 11, 12};
  CHECK_OK(pqt_levels_spread_offsets32(o32, o32, 5, valid, 0, 9, NULL));
  for (int i = 0; i < 10; i++) CHECK_EQ_INT(o32[i], wo[i] + 5);
  CHECK_EQ_INT(pqt_levels_spread_offsets32(o32, o32, 6, valid, 0, 9, NULL), PQT_ECORRUPT);
  /* Bit offset into the bitmap. */
  const uint8_t v2[] = {0x64, 0x03}; /* the same bits, one later */
  int64_t offs2[10] = {0, 1, 3, 3, 6, 7};
  CHECK_OK(pqt_levels_spread_offsets64(offs2, offs2, 5, v2, 1, 9, NULL));
  for (int i = 0; i < 10; i++) CHECK_EQ_INT(offs2[i], wo[i]);
}

/* ---- record cutting ----------------------------------------------------- */

static void test_records(void) {
  const int16_t r[] = {0, 1, 1, 0, 0, 2, 1, 0};
  CHECK_EQ_INT(pqt_levels_count_records(r, 8), 4);
  CHECK_EQ_INT(pqt_levels_count_records(NULL, 5), 5);
  int64_t ne, nr;
  pqt_levels_find_records(r, 8, 1, false, &ne, &nr);
  CHECK(ne == 3 && nr == 1);
  pqt_levels_find_records(r, 8, 2, false, &ne, &nr);
  CHECK(ne == 4 && nr == 2);
  pqt_levels_find_records(r, 8, 3, false, &ne, &nr);
  CHECK(ne == 7 && nr == 3);
  pqt_levels_find_records(r, 8, 4, false, &ne, &nr);
  CHECK(ne == 7 && nr == 3); /* the last record may continue */
  pqt_levels_find_records(r, 8, 4, true, &ne, &nr);
  CHECK(ne == 8 && nr == 4);
  pqt_levels_find_records(r, 8, 100, true, &ne, &nr);
  CHECK(ne == 8 && nr == 4);
  pqt_levels_find_records(r, 3, 5, false, &ne, &nr);
  CHECK(ne == 0 && nr == 0); /* nothing complete yet */
  pqt_levels_find_records(r + 1, 4, 5, false, &ne, &nr);
  CHECK(ne == 3 && nr == 2); /* a leading continuation completes one record */
  pqt_levels_find_records(NULL, 5, 3, false, &ne, &nr);
  CHECK(ne == 3 && nr == 3);
  pqt_levels_find_records(r, 8, 0, true, &ne, &nr);
  CHECK(ne == 0 && nr == 0);
  int64_t h[3] = {0, 0, 0};
  pqt_levels_histogram(r, 8, 2, h);
  CHECK(h[0] == 4 && h[1] == 3 && h[2] == 1);
  int64_t h1[2] = {0, 0};
  const int16_t d1[] = {1, 0, 1, 1, 7};
  pqt_levels_histogram(d1, 5, 1, h1);
  CHECK(h1[0] == 1 && h1[1] == 3);
  pqt_levels_histogram(NULL, 4, 0, h1);
  CHECK(h1[0] == 5);
}

/* ---- malformed input ---------------------------------------------------- */

static void test_malformed(void) {
  /* Name.Language.Country path: max def 3, max rep 2, repeated defs 1, 2. */
  const int16_t rd[] = {1, 2};
  int16_t prev;
  pqt_error e;
  pqt_error_init(&e);
#define VALIDATE(D, R, N) (prev = -1, pqt_levels_validate(D, R, N, 3, 2, rd, &prev, &e))
  const int16_t ok_d[] = {3, 2, 1, 3, 1}, ok_r[] = {0, 2, 1, 1, 0};
  CHECK_OK(VALIDATE(ok_d, ok_r, 5));
  CHECK_EQ_INT(prev, 1);
  const int16_t d_big[] = {3, 4}, r0[] = {0, 0};
  CHECK_EQ_INT(VALIDATE(d_big, r0, 2), PQT_ECORRUPT);
  CHECK(strstr(e.message, "entry 1") != NULL);
  const int16_t d_neg[] = {-1, 3};
  CHECK_EQ_INT(VALIDATE(d_neg, r0, 2), PQT_ECORRUPT);
  const int16_t d_ok[] = {3, 3}, r_big[] = {0, 3};
  CHECK_EQ_INT(VALIDATE(d_ok, r_big, 2), PQT_ECORRUPT);
  const int16_t r_start[] = {1, 0};
  CHECK_EQ_INT(VALIDATE(d_ok, r_start, 2), PQT_ECORRUPT);
  CHECK(strstr(e.message, "starts") != NULL);
  /* rep 2 after an entry whose inner list is empty (def 1 < 2). */
  const int16_t d_j[] = {1, 3}, r_j[] = {0, 2};
  CHECK_EQ_INT(VALIDATE(d_j, r_j, 2), PQT_ECORRUPT);
  CHECK(strstr(e.message, "not open") != NULL);
  /* rep 1 on an entry whose def says Name itself is missing. */
  const int16_t d_k[] = {3, 0}, r_k[] = {0, 1};
  CHECK_EQ_INT(VALIDATE(d_k, r_k, 2), PQT_ECORRUPT);
  /* A continuation across batches is fine with prev_def carried. */
  prev = -1;
  CHECK_OK(pqt_levels_validate(ok_d, ok_r, 1, 3, 2, rd, &prev, NULL));
  CHECK_OK(pqt_levels_validate(ok_d + 1, ok_r + 1, 4, 3, 2, rd, &prev, NULL));
  /* Without repetition, only the range matters. */
  prev = -1;
  CHECK_OK(pqt_levels_validate(d_ok, NULL, 2, 3, 0, NULL, &prev, NULL));
  CHECK_EQ_INT(pqt_levels_validate(d_big, NULL, 2, 3, 0, NULL, &prev, NULL), PQT_ECORRUPT);
#undef VALIDATE

  /* Kernels never exceed capacities, and refuse batches not at a record. */
  pqt_level_node ln[] = {L_LIST(1), L_LEAF(1)};
  pqt_level_info li[2];
  int16_t md, mr;
  CHECK_OK(pqt_levels_path_info(ln, 2, li, NULL, &md, &mr, NULL));
  const int16_t d[] = {3, 3, 3, 3}, r[] = {0, 0, 0, 1};
  int64_t off[3] = {0, -5, -5};
  uint8_t vb[1] = {0};
  int64_t ns, nulls;
  CHECK_EQ_INT(pqt_levels_to_list64(d, r, 4, li[0], off, vb, 0, 2, &ns, &nulls, NULL), PQT_ECORRUPT);
  const int16_t rc[] = {1, 0};
  CHECK_EQ_INT(pqt_levels_to_list64(d, rc, 2, li[0], off, vb, 0, 2, &ns, &nulls, NULL), PQT_ECORRUPT);
  CHECK_EQ_INT(pqt_levels_to_struct_bitmap(d, rc, 2, li[1], vb, 0, 2, &ns, &nulls, NULL), PQT_ECORRUPT);
  CHECK_EQ_INT(pqt_levels_to_struct_bitmap(d, r, 4, li[1], vb, 0, 3, &ns, &nulls, NULL), PQT_ECORRUPT);
  CHECK_OK(pqt_levels_to_struct_bitmap(d, r, 4, li[1], vb, 0, 4, &ns, &nulls, NULL));
  CHECK_EQ_INT(ns, 4);
  /* The no-repetition fast path checks capacity and rejects negative levels. */
  pqt_level_info flat = {1, 0, 0};
  const int16_t dneg[] = {1, 0, -3, 1};
  CHECK_EQ_INT(pqt_levels_to_struct_bitmap(dneg, NULL, 4, flat, vb, 0, 4, &ns, &nulls, NULL), PQT_ECORRUPT);
  CHECK_EQ_INT(pqt_levels_to_struct_bitmap(d, NULL, 4, flat, vb, 0, 3, &ns, &nulls, NULL), PQT_ECORRUPT);
  const int16_t dflat[] = {1, 0, 2, 1};
  vb[0] = 0xF0;
  CHECK_OK(pqt_levels_to_struct_bitmap(dflat, NULL, 4, flat, vb, 0, 4, &ns, &nulls, NULL));
  CHECK(ns == 4 && nulls == 1 && vb[0] == 0xFD);
  /* int32 overflow is a limit, not a crash. */
  int32_t o32[3] = {INT32_MAX - 1, 0, 0};
  CHECK_EQ_INT(pqt_levels_to_list32(d, r, 4, li[0], o32, NULL, 0, 3, &ns, &nulls, NULL), PQT_ELIMIT);
  /* Garbage levels (unvalidated) stay in bounds and keep the element count
   * equal to the element node's slot count. */
  rng_state = 12345;
  for (int iter = 0; iter < 200; iter++) {
    int16_t gd[64], gr[64];
    int64_t n = 1 + rndn(64);
    for (int64_t i = 0; i < n; i++) {
      gd[i] = (int16_t)(rndn(8) - 2);
      gr[i] = (int16_t)(rndn(5) - 1);
    }
    gr[0] = 0;
    int64_t lo[65] = {0};
    uint8_t lv[9], ev[9];
    int64_t nl = 0, ne = 0;
    pqt_status s1 = pqt_levels_to_list64(gd, gr, n, li[0], lo, lv, 0, n, &nl, &nulls, NULL);
    pqt_status s2 = pqt_levels_to_struct_bitmap(gd, gr, n, li[1], ev, 0, n, &ne, &nulls, NULL);
    if (s1 == PQT_OK && s2 == PQT_OK) CHECK_EQ_INT(lo[nl], ne);
  }

  /* Shredding: malformed arrays are EINVAL, capacities are respected. */
  const int32_t bad_off[] = {0, 3, 1};
  pqt_shred_node sn[2] = {{PQT_LEVEL_LIST, 1, NULL, bad_off, NULL, 0, 2}, {PQT_LEVEL_LEAF, 1, NULL, NULL, NULL, 0, 3}};
  pqt_shred_out o;
  memset(&o, 0, sizeof o);
  CHECK_EQ_INT(pqt_levels_shred(sn, 2, 0, 2, &o, NULL), PQT_EINVAL);
  const int32_t far_off[] = {0, 5};
  sn[0].offsets32 = far_off;
  CHECK_EQ_INT(pqt_levels_shred(sn, 2, 0, 1, &o, NULL), PQT_EINVAL);
  const int32_t good_off[] = {0, 2, 3};
  sn[0].offsets32 = good_off;
  CHECK_EQ_INT(pqt_levels_shred(sn, 2, 0, 3, &o, NULL), PQT_EINVAL); /* range > length */
  const uint8_t some_null[] = {0x5};
  sn[1].nullable = 0;
  sn[1].validity = some_null;
  CHECK_EQ_INT(pqt_levels_shred(sn, 2, 0, 2, &o, NULL), PQT_EINVAL);
  sn[1].nullable = 1;
  int16_t dd[2], rr[2];
  o.def = dd;
  o.rep = rr;
  o.level_capacity = 2;
  CHECK_EQ_INT(pqt_levels_shred(sn, 2, 0, 2, &o, NULL), PQT_EINVAL);
  o.level_capacity = 3;
  int64_t vi[1];
  int16_t dd3[3], rr3[3];
  o.def = dd3;
  o.rep = rr3;
  o.value_idx = vi;
  o.value_capacity = 1;
  CHECK_EQ_INT(pqt_levels_shred(sn, 2, 0, 2, &o, NULL), PQT_EINVAL);
  o.value_capacity = 2;
  int64_t vi2[2];
  o.value_idx = vi2;
  CHECK_OK(pqt_levels_shred(sn, 2, 0, 2, &o, NULL));
  sn[0].offsets64 = (const int64_t *)good_off;
  CHECK_EQ_INT(pqt_levels_shred(sn, 2, 0, 2, &o, NULL), PQT_EINVAL); /* both offsets */
}

/* Spreading against a reference, every width class (the 4- and 8-byte
 * kernels and the generic loop), separate buffers and in place, bitmap
 * offsets, leading/trailing nulls; dense values in an exact-size buffer. */
static void test_spread_random(void) {
  rng_state = 0x243F6A8885A308D3ull;
  const int32_t widths[] = {1, 2, 3, 4, 8, 12, 16};
  for (int iter = 0; iter < 400; iter++) {
    int32_t w = widths[rndn(7)];
    int64_t n_slots = rndn(300), off = rndn(20);
    int64_t pct = rndn(101);
    uint8_t *valid = calloc((size_t)(off + n_slots) / 8 + 2, 1);
    int64_t nv = 0;
    for (int64_t i = 0; i < n_slots; i++)
      if (rndn(100) < pct) {
        valid[(off + i) >> 3] |= (uint8_t)(1u << ((off + i) & 7));
        nv++;
      }
    size_t bytes = (size_t)n_slots * (size_t)w;
    uint8_t *dense = malloc((size_t)nv * (size_t)w + 1), *want = malloc(bytes + 1), *out = malloc(bytes + 1);
    for (int64_t i = 0; i < nv * w; i++) dense[i] = (uint8_t)rnd();
    int64_t j = 0;
    for (int64_t i = 0; i < n_slots; i++) {
      bool v = (valid[(off + i) >> 3] >> ((off + i) & 7)) & 1;
      if (v) memcpy(want + (size_t)i * (size_t)w, dense + (size_t)j++ * (size_t)w, (size_t)w);
      else memset(want + (size_t)i * (size_t)w, 0, (size_t)w);
    }
    memset(out, 0xAB, bytes + 1);
    CHECK_OK(pqt_levels_spread_fixed(out, nv ? dense : out, nv, w, valid, off, n_slots, NULL));
    CHECK_MSG(memcmp(out, want, bytes) == 0, "w %d n %lld", w, (long long)n_slots);
    /* in place */
    memcpy(out, dense, (size_t)nv * (size_t)w);
    CHECK_OK(pqt_levels_spread_fixed(out, out, nv, w, valid, off, n_slots, NULL));
    CHECK_MSG(memcmp(out, want, bytes) == 0, "in place: w %d n %lld", w, (long long)n_slots);
    if (n_slots > 0) CHECK(pqt_levels_spread_fixed(out, dense, nv + 1, w, valid, off, n_slots, NULL) == PQT_ECORRUPT);
    free(valid);
    free(dense);
    free(want);
    free(out);
  }
}

/* ---- random round trip ------------------------------------------------- */

typedef struct rnode {
  pqt_shred_node sn;
  uint8_t *validity;
  int64_t *offsets;
  int64_t *values;
} rnode;

static void render_src(const rnode *rn, int k, int64_t i, pqt_buf *b) {
  const pqt_shred_node *nd = &rn[k].sn;
  int64_t p = nd->offset + i;
  if (nd->validity && !bit(nd->validity, p)) {
    pqt_buf_printf(b, NULL, "null");
    return;
  }
  if (nd->kind == PQT_LEVEL_STRUCT) {
    pqt_buf_printf(b, NULL, "{");
    render_src(rn, k + 1, p, b);
    pqt_buf_printf(b, NULL, "}");
  } else if (nd->kind == PQT_LEVEL_LIST) {
    pqt_buf_printf(b, NULL, "[");
    for (int64_t e = nd->offsets64[p]; e < nd->offsets64[p + 1]; e++) {
      if (e > nd->offsets64[p]) pqt_buf_printf(b, NULL, ",");
      render_src(rn, k + 1, e, b);
    }
    pqt_buf_printf(b, NULL, "]");
  } else {
    pqt_buf_printf(b, NULL, "%lld", (long long)rn[k].values[p]);
  }
}

static void test_random_round_trip(void) {
  rng_state = 0xC0FFEEull;
  for (int iter = 0; iter < 400; iter++) {
    int32_t n_nodes = 1 + (int32_t)rndn(6);
    rnode rn[8];
    memset(rn, 0, sizeof rn);
    pqt_level_node ln[8];
    int64_t logical_len = 1 + rndn(40); /* logical length of node 0 */
    int64_t start = rndn(logical_len), len = rndn(logical_len - start + 1);
    int null_pct = (int)rndn(50);
    for (int32_t k = 0; k < n_nodes; k++) {
      pqt_shred_node *nd = &rn[k].sn;
      nd->kind = k == n_nodes - 1 ? PQT_LEVEL_LEAF : (rndn(2) ? PQT_LEVEL_LIST : PQT_LEVEL_STRUCT);
      nd->nullable = (uint8_t)rndn(2);
      nd->offset = rndn(4);
      nd->length = logical_len;
      int64_t phys = nd->offset + logical_len;
      if (nd->nullable || rndn(3) == 0) {
        rn[k].validity = malloc((size_t)phys / 8 + 1);
        for (int64_t p = 0; p < phys; p++) {
          bool v = !nd->nullable || (int)rndn(100) >= null_pct;
          if (v) rn[k].validity[p >> 3] |= (uint8_t)(1u << (p & 7));
          else rn[k].validity[p >> 3] &= (uint8_t) ~(1u << (p & 7));
        }
        nd->validity = rn[k].validity;
      }
      if (nd->kind == PQT_LEVEL_LIST) {
        rn[k].offsets = malloc((size_t)(phys + 1) * sizeof(int64_t));
        rn[k].offsets[0] = rndn(3);
        for (int64_t p = 0; p < phys; p++) rn[k].offsets[p + 1] = rn[k].offsets[p] + (rndn(4) == 0 ? 0 : rndn(4));
        nd->offsets64 = rn[k].offsets;
        logical_len = rn[k].offsets[phys] + rndn(2);
      } else if (nd->kind == PQT_LEVEL_STRUCT) {
        logical_len = phys; /* a struct's offset applies to its child */
      } else {
        rn[k].values = malloc((size_t)phys * sizeof(int64_t) + 8);
        for (int64_t p = 0; p < phys; p++) rn[k].values[p] = (int64_t)rndn(1000);
      }
      ln[k].kind = nd->kind;
      ln[k].nullable = nd->nullable;
    }
    pqt_shred_node sn[8];
    for (int32_t k = 0; k < n_nodes; k++) sn[k] = rn[k].sn;
    shredded s;
    pqt_error e;
    pqt_error_init(&e);
    pqt_status st = shred_all(sn, n_nodes, start, len, &s, &e);
    CHECK_MSG(st == PQT_OK, "iter %d: shred: %s", iter, e.message);
    if (st == PQT_OK) {
      /* Gather dense values and the expected rendering. */
      int64_t *dense = malloc((size_t)s.n_values * 8 + 8);
      for (int64_t i = 0; i < s.n_values; i++) dense[i] = rn[n_nodes - 1].values[s.vidx[i]];
      pqt_buf b;
      pqt_buf_init(&b, NULL);
      for (int64_t i = start; i < start + len; i++) {
        if (i > start) pqt_buf_printf(&b, NULL, "|");
        render_src(rn, 0, i, &b);
      }
      pqt_buf_append(&b, "", 1, NULL);
      /* Histograms agree with the levels. */
      int64_t hd[MAXN * 2] = {0}, hr[MAXN] = {0}, sum = 0;
      col c0;
      col_init(&c0, ln, n_nodes);
      pqt_levels_histogram(s.def, s.n_levels, c0.max_def, hd);
      pqt_levels_histogram(c0.max_rep ? s.rep : NULL, s.n_levels, c0.max_rep, hr);
      for (int l = 0; l <= c0.max_def; l++) {
        CHECK_EQ_INT(hd[l], s.def_hist[l]);
        sum += hd[l];
      }
      for (int l = 0; l <= c0.max_rep; l++) CHECK_EQ_INT(hr[l], s.rep_hist[l]);
      CHECK_EQ_INT(sum, s.n_levels);
      CHECK_EQ_INT(pqt_levels_count_records(c0.max_rep ? s.rep : NULL, s.n_levels), len);
      col_free(&c0);
      check_assembles(ln, n_nodes, s.def, c0.max_rep ? s.rep : NULL, s.n_levels, dense, NULL, s.n_values,
                      (char *)b.data);
      pqt_buf_free(&b);
      free(dense);
      shredded_free(&s);
    }
    for (int32_t k = 0; k < n_nodes; k++) {
      free(rn[k].validity);
      free(rn[k].offsets);
      free(rn[k].values);
    }
  }
}

RUN_TESTS("levels", TEST_CASE(test_path_info), TEST_CASE(test_dremel_paper), TEST_CASE(test_seed004),
          TEST_CASE(test_list_null_empty_nullelem), TEST_CASE(test_list_of_list),
          TEST_CASE(test_list_of_struct_with_list), TEST_CASE(test_map_with_null_values), TEST_CASE(test_struct_shapes),
          TEST_CASE(test_legacy_lists), TEST_CASE(test_def_to_bitmap), TEST_CASE(test_spread),
          TEST_CASE(test_spread_random), TEST_CASE(test_records), TEST_CASE(test_malformed),
          TEST_CASE(test_random_round_trip))
