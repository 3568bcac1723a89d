/* Randomised differential test of filtered scans (scan/): random files
 * written with the library's writer (ints, doubles with NaN, strings,
 * dates, a struct, a list, nulls; sorted or not; several row groups and
 * pages; dictionary on or off; v1 or v2 pages) x random predicates. The
 * rows a filtered scan returns must be exactly the rows of the unfiltered
 * read that this test's own evaluator (three-valued logic, NaN equal to
 * itself and above every number) accepts, by the text output and by the
 * Arrow stream (with the predicate's columns left out of the projection);
 * the counts never exceed the full read's, and sorted files get row
 * groups pruned. Hand-made cases check dictionary pruning, the created_by
 * rule for old writers' byte-array statistics, and corpus files written by
 * old writers (their statistics must never lose a row). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen_file.h"
#include "harness.h"
#include "rng.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_meta.h"
#include "file/reader_internal.h"  /* the chunks' dictionary page sizes */
#include "../../fuzz/fuzz_alloc.h" /* every allocation freed, with its size */

/* Public structs get a struct_size and _init functions with the growth
 * scheme (PQT_VERSION_NUMBER marks it); before it they are plain. */
#ifdef PQT_VERSION_NUMBER
#define T_WRITE_SCHEMA_INIT(ws) pqt_write_schema_init(ws)
#define T_COLUMN_INFO_INIT(ci)  pqt_column_info_init(ci)
#define T_COLUMN_BATCH_INIT(b)  pqt_column_batch_init(b)
#else
#define T_WRITE_SCHEMA_INIT(ws) memset((ws), 0, sizeof *(ws))
#define T_COLUMN_INFO_INIT(ci)  memset((ci), 0, sizeof *(ci))
#define T_COLUMN_BATCH_INIT(b)  memset((b), 0, sizeof *(b))
#endif

/* ---- a tiny deterministic RNG ---- */
static uint64_t g_rng;
static uint32_t rnd(void) {
  pqt_test_xorshift(&g_rng);
  return (uint32_t)(g_rng >> 11);
}
static int rint_in(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }
static bool chance(int pct) { return (int)(rnd() % 100) < pct; }

/* ---- the data ---- */
enum { C_K, C_I, C_F, C_S, C_D, C_GX, C_G, N_PCOLS };
typedef struct row {
  int32_t k;
  bool i_null, f_null, s_null, d_null, g_null, x_null, l_null;
  int64_t i;
  double f;
  char s[8];
  int32_t d;
  int32_t x;
  int n_l;
  int32_t l[3];
} row;

typedef struct dataset {
  row *rows;
  int n;
  int rg_rows;
  bool sorted, dict, bloom;
  bool no_page_index;
  int page_version;
  const char *created_by;
} dataset;

static const char *SCHEMA =
    "message m {\n"
    "  required int32 k;\n"
    "  optional int64 i;\n"
    "  optional double f;\n"
    "  optional binary s (STRING);\n"
    "  optional int32 d (DATE);\n"
    "  optional group g { optional int32 x; }\n"
    "  optional group l (LIST) { repeated group list { optional int32 element; } }\n"
    "}\n";

static void make_rows(dataset *ds) {
  int pn = ds->sorted ? rint_in(0, 10) : rint_in(0, 30);
  for (int r = 0; r < ds->n; r++) {
    row *w = &ds->rows[r];
    memset(w, 0, sizeof *w);
    w->k = r;
    w->i_null = chance(pn);
    w->f_null = chance(pn);
    w->s_null = chance(pn);
    w->d_null = chance(pn);
    w->g_null = chance(pn);
    w->x_null = chance(pn);
    w->l_null = chance(pn);
    if (ds->sorted) {
      w->i = (int64_t)r * 3 + rint_in(0, 2);
      w->f = r * 0.25;
      snprintf(w->s, sizeof w->s, "%05d", (r / 3) % 100000);
      w->d = 9000 + r / 5;
    } else {
      w->i = rint_in(-1000, 1000);
      w->f = rint_in(-400, 400) * 0.25;
      int len = rint_in(1, 3);
      for (int c = 0; c < len; c++) w->s[c] = (char)('a' + rint_in(0, 3));
      w->d = 9000 + rint_in(0, 400);
    }
    if (chance(5)) w->f = NAN;
    w->x = rint_in(-50, 50);
    w->n_l = rint_in(0, 3);
    for (int c = 0; c < w->n_l; c++) w->l[c] = rint_in(0, 9);
  }
}

/* Write ds into buf; false on failure. */
static bool write_file(const dataset *ds, pqt_string *buf) {
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.row_group_rows = 1 << 30;
  o.defaults.dictionary = ds->dict;
  o.defaults.bloom_filter = ds->bloom;
  o.defaults.bloom_ndv = 1000;
  o.defaults.page_version = ds->page_version;
  o.defaults.page_row_limit = rint_in(7, 60);
  o.defaults.page_index = !ds->no_page_index;
  o.created_by = ds->created_by;
  pqt_writer *w = pqt_test_gen_open(buf, SCHEMA, &o);
  if (!w) return false;
  pqt_error err;
  int n = ds->n;
  int16_t *def = malloc(sizeof(int16_t) * (size_t)n * 3 + 16), *rep = malloc(sizeof(int16_t) * (size_t)n * 3 + 16);
  int64_t *v64 = malloc(sizeof(int64_t) * (size_t)n * 3 + 16);
  int32_t *offs = malloc(sizeof(int32_t) * (size_t)n + 16);
  char *bytes = malloc((size_t)n * 8 + 16);
  bool ok = def && rep && v64 && offs && bytes;
  for (int start = 0; ok && start < n; start += ds->rg_rows) {
    int end = start + ds->rg_rows < n ? start + ds->rg_rows : n, m = end - start;
    for (int c = 0; ok && c < 7; c++) {
      int64_t nl = 0, nv = 0;
      size_t nb = 0;
      offs[0] = 0;
      for (int r = start; r < end; r++) {
        const row *x = &ds->rows[r];
        switch (c) {
          case 0:
            ((int32_t *)v64)[nv++] = x->k;
            nl++;
            break;
          case 1:
            def[nl++] = !x->i_null;
            if (!x->i_null) v64[nv++] = x->i;
            break;
          case 2:
            def[nl++] = !x->f_null;
            if (!x->f_null) ((double *)v64)[nv++] = x->f;
            break;
          case 3:
            def[nl++] = !x->s_null;
            if (!x->s_null) pqt_test_gen_string(bytes, &nb, offs, &nv, x->s);
            break;
          case 4:
            def[nl++] = !x->d_null;
            if (!x->d_null) ((int32_t *)v64)[nv++] = x->d;
            break;
          case 5: {
            int16_t dl = x->g_null ? 0 : x->x_null ? 1 : 2;
            def[nl++] = dl;
            if (dl == 2) ((int32_t *)v64)[nv++] = x->x;
            break;
          }
          case 6:
            if (x->l_null || x->n_l == 0) {
              rep[nl] = 0;
              def[nl++] = x->l_null ? 0 : 1;
            } else {
              for (int e = 0; e < x->n_l; e++) {
                rep[nl] = e ? 1 : 0;
                def[nl++] = 3;
                ((int32_t *)v64)[nv++] = x->l[e];
              }
            }
            break;
        }
      }
      (void)m;
      pqt_status st =
          pqt_writer_write_column(w, c, nl, c ? def : NULL, c == 6 ? rep : NULL,
                                  c == 3 ? (const void *)bytes : (const void *)v64, c == 3 ? offs : NULL, nv, &err);
      if (st != PQT_OK) {
        fprintf(stderr, "  write column %d: %s\n", c, err.message);
        ok = false;
      }
    }
    ok = pqt_test_gen_flush(w, ok);
  }
  free(def);
  free(rep);
  free(v64);
  free(offs);
  free(bytes);
  return pqt_test_gen_close(w, ok);
}

/* ---- predicates: generated, printed, evaluated here ---- */
enum { P_CMP, P_IN, P_BETWEEN, P_ISNULL, P_LIKE, P_AND, P_OR, P_NOT };
typedef struct lit {
  int64_t i;
  double f;
  char s[8];
} lit;
typedef struct pred {
  int kind, col, op, n;
  bool negate;
  lit v[4];
  struct pred *a, *b;
} pred;

static void civil(int64_t z, int *y, int *m, int *d) {
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  *d = (int)(doy - (153 * mp + 2) / 5 + 1);
  *m = (int)(mp < 10 ? mp + 3 : mp - 9);
  *y = (int)(yoe + era * 400 + (*m <= 2));
}

static lit gen_lit(const dataset *ds, int col) {
  lit l;
  memset(&l, 0, sizeof l);
  const row *r = &ds->rows[rint_in(0, ds->n - 1)];
  bool from_data = chance(70);
  switch (col) {
    case C_K: l.i = from_data ? r->k : rint_in(-5, ds->n + 5); break;
    case C_I: l.i = from_data ? r->i : rint_in(-1100, ds->n * 3 + 10); break;
    case C_F: l.f = chance(10) ? NAN : from_data ? r->f : rint_in(-500, 500) * 0.25; break;
    case C_S:
      if (from_data) memcpy(l.s, r->s, sizeof l.s);
      else snprintf(l.s, sizeof l.s, "%c%c", 'a' + rint_in(0, 4), 'a' + rint_in(0, 4));
      if (!l.s[0]) l.s[0] = 'a';
      break;
    case C_D: l.i = from_data ? r->d : 9000 + rint_in(-10, 420); break;
    case C_GX: l.i = rint_in(-55, 55); break;
  }
  return l;
}

static pred *gen(const dataset *ds, int depth) {
  pred *p = calloc(1, sizeof *p);
  int k = depth < 3 && chance(40) ? rint_in(P_AND, P_NOT) : rint_in(P_CMP, P_LIKE);
  p->kind = k;
  if (k >= P_AND) {
    p->a = gen(ds, depth + 1);
    if (k != P_NOT) p->b = gen(ds, depth + 1);
    return p;
  }
  p->col = rint_in(C_K, C_GX);
  if (k == P_ISNULL) {
    p->col = rint_in(C_I, C_G);
    p->negate = chance(50);
    return p;
  }
  if (k == P_LIKE) {
    p->col = C_S;
    p->v[0] = gen_lit(ds, C_S);
    if (strlen(p->v[0].s) > 1 && chance(60)) p->v[0].s[rint_in(1, (int)strlen(p->v[0].s) - 1)] = 0;
    return p;
  }
  p->op = rint_in(0, 5);
  p->n = k == P_IN ? rint_in(1, 4) : k == P_BETWEEN ? 2 : 1;
  for (int j = 0; j < p->n; j++) p->v[j] = gen_lit(ds, p->col);
  return p;
}

static void free_pred(pred *p) {
  if (!p) return;
  free_pred(p->a);
  free_pred(p->b);
  free(p);
}

static const char *COLS[] = {"k", "i", "f", "s", "d", "g.x", "g"};

static void print_lit(char *out, size_t cap, int col, const lit *l) {
  switch (col) {
    case C_F:
      if (isnan(l->f)) snprintf(out, cap, "NaN");
      else snprintf(out, cap, "%.2f", l->f);
      break;
    case C_S: snprintf(out, cap, "'%s'", l->s); break;
    case C_D: {
      int y, m, d;
      civil(l->i, &y, &m, &d);
      snprintf(out, cap, "DATE '%04d-%02d-%02d'", y, m, d);
      break;
    }
    default: snprintf(out, cap, "%lld", (long long)l->i); break;
  }
}

static void print_pred(const pred *p, char *out, size_t cap) {
  static const char *ops[] = {"=", "!=", "<", "<=", ">", ">="};
  char a[2048], b[2048], l[64], l2[64];
  switch (p->kind) {
    case P_AND:
    case P_OR:
      print_pred(p->a, a, sizeof a);
      print_pred(p->b, b, sizeof b);
      snprintf(out, cap, "(%s %s %s)", a, p->kind == P_AND ? "AND" : "OR", b);
      return;
    case P_NOT:
      print_pred(p->a, a, sizeof a);
      snprintf(out, cap, "NOT %s", a);
      return;
    case P_ISNULL: snprintf(out, cap, "%s IS %sNULL", COLS[p->col], p->negate ? "NOT " : ""); return;
    case P_LIKE: snprintf(out, cap, "s LIKE '%s%%'", p->v[0].s); return;
    case P_CMP:
      print_lit(l, sizeof l, p->col, &p->v[0]);
      snprintf(out, cap, "%s %s %s", COLS[p->col], ops[p->op], l);
      return;
    case P_BETWEEN:
      print_lit(l, sizeof l, p->col, &p->v[0]);
      print_lit(l2, sizeof l2, p->col, &p->v[1]);
      snprintf(out, cap, "%s BETWEEN %s AND %s", COLS[p->col], l, l2);
      return;
    case P_IN: {
      size_t k = (size_t)snprintf(out, cap, "%s IN (", COLS[p->col]);
      for (int j = 0; j < p->n && k < cap; j++) {
        print_lit(l, sizeof l, p->col, &p->v[j]);
        k += (size_t)snprintf(out + k, cap - k, "%s%s", j ? ", " : "", l);
      }
      if (k < cap) snprintf(out + k, cap - k, ")");
      return;
    }
  }
}

/* -1 unknown, 0 false, 1 true */
static int cmp_f(double a, double b) {
  if (isnan(a) || isnan(b)) return isnan(a) - isnan(b);
  return (a > b) - (a < b);
}

static bool is_null(const row *r, int col) {
  switch (col) {
    case C_I: return r->i_null;
    case C_F: return r->f_null;
    case C_S: return r->s_null;
    case C_D: return r->d_null;
    case C_GX: return r->g_null || r->x_null;
    case C_G: return r->g_null;
    default: return false;
  }
}

static int cmp_val(const row *r, int col, const lit *l) {
  int64_t v;
  switch (col) {
    case C_F: return cmp_f(r->f, l->f);
    case C_S: {
      int c = strcmp(r->s, l->s);
      return (c > 0) - (c < 0);
    }
    case C_K: v = r->k; break;
    case C_I: v = r->i; break;
    case C_D: v = r->d; break;
    default: v = r->x; break;
  }
  return (v > l->i) - (v < l->i);
}

static bool op_ok(int op, int c) {
  switch (op) {
    case 0: return c == 0;
    case 1: return c != 0;
    case 2: return c < 0;
    case 3: return c <= 0;
    case 4: return c > 0;
    default: return c >= 0;
  }
}

static int eval(const pred *p, const row *r) {
  switch (p->kind) {
    case P_AND: {
      int a = eval(p->a, r), b = eval(p->b, r);
      if (a == 0 || b == 0) return 0;
      return a == 1 && b == 1 ? 1 : -1;
    }
    case P_OR: {
      int a = eval(p->a, r), b = eval(p->b, r);
      if (a == 1 || b == 1) return 1;
      return a == 0 && b == 0 ? 0 : -1;
    }
    case P_NOT: {
      int a = eval(p->a, r);
      return a < 0 ? -1 : !a;
    }
    case P_ISNULL: return is_null(r, p->col) != p->negate;
    default: break;
  }
  if (is_null(r, p->col)) return -1;
  switch (p->kind) {
    case P_CMP: return op_ok(p->op, cmp_val(r, p->col, &p->v[0]));
    case P_BETWEEN: return cmp_val(r, p->col, &p->v[0]) >= 0 && cmp_val(r, p->col, &p->v[1]) <= 0;
    case P_IN:
      for (int j = 0; j < p->n; j++)
        if (cmp_val(r, p->col, &p->v[j]) == 0) return 1;
      return 0;
    case P_LIKE: return strncmp(r->s, p->v[0].s, strlen(p->v[0].s)) == 0;
  }
  return -1;
}

/* ---- reading ---- */
typedef struct lines {
  char *text;
  size_t len, cap;
} lines;

static pqt_status collect(void *ctx, const char *data, size_t len) {
  lines *l = ctx;
  if (l->len + len + 1 > l->cap) {
    size_t cap = (l->len + len + 1) * 2;
    char *t = realloc(l->text, cap);
    if (!t) return PQT_ENOMEM;
    l->text = t;
    l->cap = cap;
  }
  memcpy(l->text + l->len, data, len);
  l->len += len;
  l->text[l->len] = 0;
  return PQT_OK;
}

/* start offsets of each line of text (n lines) */
static size_t *split(char *text, size_t len, size_t *n) {
  size_t cnt = 0;
  for (size_t i = 0; i < len; i++) cnt += text[i] == '\n';
  size_t *starts = malloc(sizeof(size_t) * (cnt + 1));
  size_t k = 0, s = 0;
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\n') {
      starts[k++] = s;
      text[i] = 0;
      s = i + 1;
    }
  *n = cnt;
  return starts;
}

static int g_pruned_sorted, g_cases, g_dict_checked, g_bloom_checked, g_index_checked;

static bool in_spans(const pqt_row_span *s, int n, int64_t at) {
  if (n == 0) return true;
  for (int k = 0; k < n; k++)
    if (at >= s[k].first && at < s[k].first + s[k].count) return true;
  return false;
}

/* One dataset x some predicates. */
static void run_case(const dataset *ds, int n_preds) {
  pqt_string buf;
  if (!write_file(ds, &buf)) {
    CHECK(!"writing the random file failed");
    pqt_string_free(&buf);
    return;
  }
  pqt_reader *r = NULL;
  pqt_error err;
  pqt_fuzz_alloc fa;
  pqt_fuzz_alloc_init(&fa);
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.alloc = &fa.base;
  CHECK_OK(pqt_reader_open_buffer(&r, buf.data, buf.len, &ro, &err));
  if (!r) {
    pqt_string_free(&buf);
    return;
  }
  /* the full read */
  lines full = {0};
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  pqt_scan_stats full_stats;
  so.stats = &full_stats;
  CHECK_OK(pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, collect, &full, NULL));
  size_t n_full = 0;
  size_t *full_starts = split(full.text ? full.text : (char *)"", full.len, &n_full);
  CHECK_EQ_INT(n_full, ds->n);
  CHECK_EQ_INT(full_stats.rows, ds->n);
  CHECK_EQ_INT(full_stats.row_groups_read, full_stats.row_groups_total);
  CHECK_EQ_INT(full_stats.pages_read, full_stats.pages_total);
  CHECK(full_stats.bytes_read > 0 && full_stats.bytes_read <= buf.len);
  /* the full read of the flat columns only (k i f s d g): their late reads
   * select values inside pages (pqt_column_cursor_read_sel) */
  static const char *const flat_cols[] = {"k", "i", "f", "s", "d", "g"};
  lines full_flat = {0};
  pqt_scan_options so_flat;
  pqt_scan_options_init(&so_flat);
  so_flat.columns = flat_cols;
  so_flat.n_columns = 6;
  CHECK_OK(pqt_reader_write_text(r, &so_flat, PQT_TEXT_JSONL, -1, collect, &full_flat, NULL));
  size_t n_flat = 0;
  size_t *flat_starts = split(full_flat.text ? full_flat.text : (char *)"", full_flat.len, &n_flat);
  CHECK_EQ_INT(n_flat, ds->n);
  int n_groups = pqt_reader_num_row_groups(r);
  uint64_t dict_bytes = 0;
  for (int32_t g = 0; g < r->md.row_groups.n; g++)
    for (int32_t c = 0; c < r->md.row_groups.items[g].columns.n; c++) {
      const pqt_column_metadata *cm = &r->md.row_groups.items[g].columns.items[c].meta_data;
      if (PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset) && cm->dictionary_page_offset > 0 &&
          cm->dictionary_page_offset < cm->data_page_offset)
        dict_bytes += (uint64_t)(cm->data_page_offset - cm->dictionary_page_offset);
      if (PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset))
        dict_bytes += 64 + 32 * 32; /* a Bloom filter's header and a block per literal */
      /* the page index read to prune pages and to read by pages */
      const pqt_column_chunk *cc = &r->md.row_groups.items[g].columns.items[c];
      if (PQT_HAS_FIELD(cc, column_chunk, column_index_length)) dict_bytes += (uint64_t)cc->column_index_length;
      if (PQT_HAS_FIELD(cc, column_chunk, offset_index_length)) dict_bytes += (uint64_t)cc->offset_index_length;
    }
  for (int q = 0; q < n_preds && n_full == (size_t)ds->n; q++) {
    pred *p = gen(ds, 0);
    if (ds->sorted && q < 3) { /* narrow ranges on sorted columns */
      free_pred(p);
      p = calloc(1, sizeof *p);
      p->kind = P_BETWEEN;
      p->col = q == 0 ? C_K : q == 1 ? C_I : C_D;
      int at = rint_in(0, ds->n - 1);
      const row *x = &ds->rows[at];
      int64_t base = p->col == C_K ? x->k : p->col == C_I ? x->i : x->d;
      p->n = 2;
      p->v[0].i = base;
      p->v[1].i = base + (p->col == C_D ? 1 : 4);
    }
    char text[8192];
    print_pred(p, text, sizeof text);
    pqt_expr *e = NULL;
    pqt_status st = pqt_expr_parse(text, strlen(text), &e, &err);
    CHECK_MSG(st == PQT_OK, "%s: %s", text, err.message);
    if (st != PQT_OK) {
      free_pred(p);
      continue;
    }
    /* random row ranges on some of the cases (sorted, disjoint) */
    pqt_row_span spans[3];
    int n_spans = 0;
    if (chance(40)) {
      int at = rint_in(0, ds->n / 2);
      int want_spans = rint_in(1, 3);
      for (int k = 0; k < want_spans && at < ds->n; k++) {
        spans[n_spans].first = at;
        spans[n_spans].count = rint_in(0, ds->n / 4);
        at += (int)spans[n_spans].count + rint_in(0, ds->n / 8);
        n_spans++;
      }
    }
    /* expected: the full read's lines this evaluator accepts */
    lines want = {0};
    int64_t n_want = 0;
    for (int i = 0; i < ds->n; i++)
      if (in_spans(spans, n_spans, i) && eval(p, &ds->rows[i]) == 1) {
        collect(&want, full.text + full_starts[i], strlen(full.text + full_starts[i]));
        collect(&want, "\n", 1);
        n_want++;
      }
    lines got = {0};
    pqt_scan_stats stats;
    memset(&stats, 0xAB, sizeof stats);
    so.filter = e;
    so.stats = &stats;
    so.row_ranges = n_spans ? spans : NULL;
    so.n_row_ranges = n_spans;
    st = pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, collect, &got, &err);
    CHECK_MSG(st == PQT_OK, "%s: %s", text, err.message);
    bool same = (got.len == want.len) && (got.len == 0 || memcmp(got.text, want.text, got.len) == 0);
    CHECK_MSG(same, "%s (sorted %d dict %d v%d index %d, %d row ranges): %lld rows wanted, output %zu bytes vs %zu",
              text, ds->sorted, ds->dict, ds->page_version, !ds->no_page_index, n_spans, (long long)n_want, got.len,
              want.len);
    CHECK_EQ_INT(stats.rows, n_want);
    /* the flat columns: the same rows, values selected inside pages */
    if (n_flat == (size_t)ds->n) {
      lines want_flat = {0}, got_flat = {0};
      for (int i = 0; i < ds->n; i++)
        if (in_spans(spans, n_spans, i) && eval(p, &ds->rows[i]) == 1) {
          collect(&want_flat, full_flat.text + flat_starts[i], strlen(full_flat.text + flat_starts[i]));
          collect(&want_flat, "\n", 1);
        }
      so_flat.filter = e;
      so_flat.row_ranges = so.row_ranges;
      so_flat.n_row_ranges = so.n_row_ranges;
      CHECK_OK(pqt_reader_write_text(r, &so_flat, PQT_TEXT_JSONL, -1, collect, &got_flat, NULL));
      CHECK_MSG(got_flat.len == want_flat.len && (got_flat.len == 0 || memcmp(got_flat.text, want_flat.text, got_flat.len) == 0),
                "%s: flat columns differ (%zu vs %zu bytes)", text, got_flat.len, want_flat.len);
      so_flat.filter = NULL;
      so_flat.row_ranges = NULL;
      so_flat.n_row_ranges = 0;
      free(want_flat.text);
      free(got_flat.text);
    }
    CHECK(stats.row_groups_read <= stats.row_groups_total && stats.row_groups_total == n_groups);
    CHECK(stats.pages_read <= stats.pages_total && stats.pages_total <= full_stats.pages_total);
    /* more than the full read only by dictionary pages read to prune and then read again with their
     * chunk, by Bloom filter headers and blocks that did not prune, and by the page index */
    CHECK_MSG(stats.bytes_read <= full_stats.bytes_read + dict_bytes, "%s: %llu bytes read, the full read %llu", text,
              (unsigned long long)stats.bytes_read, (unsigned long long)full_stats.bytes_read);
    if (!ds->dict && !ds->bloom && ds->no_page_index) CHECK(stats.bytes_read <= full_stats.bytes_read);
    if (n_spans == 0) g_index_checked += stats.pages_read < full_stats.pages_read && !ds->no_page_index;
    /* row ranges that miss a row group leave it unread without pruning it */
    if (n_spans == 0)
      CHECK_EQ_INT(stats.row_groups_read + stats.row_groups_pruned_stats + stats.row_groups_pruned_dictionary +
                       stats.row_groups_pruned_bloom,
                   stats.row_groups_total);
    else
      CHECK(stats.row_groups_read + stats.row_groups_pruned_stats + stats.row_groups_pruned_dictionary +
                stats.row_groups_pruned_bloom <=
            stats.row_groups_total);
    if (ds->sorted && q < 3 && n_groups >= 4) {
      CHECK_MSG(stats.row_groups_read <= 2, "%s: %lld of %d row groups read on a sorted column", text,
                (long long)stats.row_groups_read, n_groups);
      g_pruned_sorted += (int)stats.row_groups_pruned_stats;
    }
    if (stats.row_groups_pruned_dictionary) g_dict_checked++;
    if (stats.row_groups_pruned_bloom) g_bloom_checked++;
    /* count agrees */
    int64_t cnt = -1;
    CHECK_OK(pqt_reader_count(r, &so, &cnt, NULL));
    CHECK_EQ_INT(cnt, n_want);
    /* the stream, with the predicate's columns out of the projection: k and l only */
    const char *proj[] = {"k", "l"};
    pqt_scan_options so2;
    pqt_scan_options_init(&so2);
    so2.columns = proj;
    so2.n_columns = 2;
    so2.filter = e;
    so2.batch_size = rint_in(1, 3) * 37;
    so2.row_ranges = so.row_ranges;
    so2.n_row_ranges = so.n_row_ranges;
    struct ArrowArrayStream stream;
    CHECK_OK(pqt_reader_get_stream(r, &so2, &stream, NULL));
    int64_t seen = 0;
    bool order_ok = true;
    int next_row = 0;
    struct ArrowSchema sch;
    if (stream.get_schema(&stream, &sch) == 0) {
      CHECK_EQ_INT(sch.n_children, 2);
      sch.release(&sch);
    }
    for (;;) {
      struct ArrowArray b;
      if (stream.get_next(&stream, &b) != 0) {
        CHECK(!"get_next failed");
        break;
      }
      if (!b.release) break;
      CHECK_EQ_INT(b.n_children, 2);
      const int32_t *k = b.n_children ? (const int32_t *)b.children[0]->buffers[1] : NULL;
      for (int64_t j = 0; k && j < b.length; j++) {
        int32_t kv = k[b.children[0]->offset + j];
        while (next_row < ds->n &&
               (!in_spans(spans, n_spans, next_row) || eval(p, &ds->rows[next_row]) != 1))
          next_row++;
        if (next_row >= ds->n || kv != next_row) order_ok = false;
        next_row++;
        seen++;
      }
      b.release(&b);
    }
    stream.release(&stream);
    CHECK_MSG(order_ok && seen == n_want, "%s: stream gave %lld rows (want %lld), order %d", text, (long long)seen,
              (long long)n_want, order_ok);
    g_cases++;
    free(want.text);
    free(got.text);
    pqt_expr_free(e);
    so.filter = NULL;
    so.row_ranges = NULL;
    so.n_row_ranges = 0;
    free_pred(p);
  }
  free(full_starts);
  free(full.text);
  free(flat_starts);
  free(full_flat.text);
  pqt_reader_close(r);
  CHECK_EQ_INT(fa.live, 0);
  CHECK_EQ_INT(fa.size_mismatches, 0);
  pqt_string_free(&buf);
}

static void test_random(void) {
  for (int c = 0; c < 24; c++) {
    g_rng = 0x9E3779B97F4A7C15ULL * (uint64_t)(c + 1);
    dataset ds;
    memset(&ds, 0, sizeof ds);
    ds.n = rint_in(50, 900);
    ds.rg_rows = rint_in(40, 250);
    ds.sorted = c % 2 == 0;
    ds.dict = (c / 2) % 2 == 0;
    ds.page_version = (c / 4) % 2 ? 2 : 1;
    ds.bloom = (c / 8) % 2 == 1;
    ds.no_page_index = c % 3 == 2;
    ds.rows = malloc(sizeof(row) * (size_t)ds.n);
    make_rows(&ds);
    run_case(&ds, 30);
    free(ds.rows);
  }
  printf(
      "  %d predicates checked, %d row groups pruned by statistics on narrow ranges of sorted columns, %d "
      "predicates with dictionary pruning, %d with Bloom filter pruning, %d read fewer pages than the full read\n",
      g_cases, g_pruned_sorted, g_dict_checked, g_bloom_checked, g_index_checked);
  CHECK(g_cases >= 24 * 25);
  CHECK(g_pruned_sorted > 0);
  CHECK(g_index_checked > 0);
}

/* ---- hand-made cases ---- */

static pqt_scan_stats count_where(const pqt_string *buf, const char *text, int64_t *n) {
  pqt_scan_stats st;
  memset(&st, 0, sizeof st);
  *n = -1;
  pqt_reader *r = NULL;
  pqt_expr *e = NULL;
  pqt_error err;
  if (pqt_reader_open_buffer(&r, buf->data, buf->len, NULL, &err) != PQT_OK) return st;
  if (pqt_expr_parse(text, strlen(text), &e, &err) == PQT_OK) {
    pqt_scan_options so;
    pqt_scan_options_init(&so);
    so.filter = e;
    so.stats = &st;
    CHECK_OK(pqt_reader_count(r, &so, n, &err));
  }
  pqt_expr_free(e);
  pqt_reader_close(r);
  return st;
}

/* s alternates "aa"/"cc": min/max cannot rule out "bb", the dictionary can. */
static void test_dictionary_pruning(void) {
  for (int dict = 0; dict <= 1; dict++) {
    g_rng = 42;
    dataset ds;
    memset(&ds, 0, sizeof ds);
    ds.n = 400;
    ds.rg_rows = 100;
    ds.dict = dict;
    ds.page_version = 1;
    ds.rows = calloc((size_t)ds.n, sizeof(row));
    for (int i = 0; i < ds.n; i++) {
      ds.rows[i].k = i;
      strcpy(ds.rows[i].s, i % 2 ? "cc" : "aa");
      ds.rows[i].s_null = i % 7 == 0;
    }
    pqt_string buf;
    CHECK(write_file(&ds, &buf));
    int64_t n;
    pqt_scan_stats st = count_where(&buf, "s = 'bb'", &n);
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_INT(st.row_groups_total, 4);
    CHECK_EQ_INT(st.row_groups_pruned_stats, 0);
    CHECK_EQ_INT(st.row_groups_pruned_dictionary, dict ? 4 : 0);
    CHECK_EQ_INT(st.row_groups_read, dict ? 0 : 4);
    st = count_where(&buf, "s IN ('ab', 'bc') OR s = 'ba'", &n);
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_INT(st.row_groups_pruned_dictionary, dict ? 4 : 0);
    st = count_where(&buf, "s IN ('ab', 'cc')", &n);
    CHECK_EQ_INT(n, 200 - 29); /* odd rows, less the 29 odd multiples of 7 */
    CHECK_EQ_INT(st.row_groups_read, 4);
    st = count_where(&buf, "s = 'zz'", &n); /* above max: statistics */
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_INT(st.row_groups_pruned_stats, 4);
    CHECK_EQ_INT(st.bytes_read, 0);
    st = count_where(&buf, "i IS NOT NULL", &n); /* i written all null here? no: i_null false */
    CHECK_EQ_INT(n, 400);
    st = count_where(&buf, "s IS NULL", &n);
    CHECK_EQ_INT(n, 58);
    CHECK_EQ_INT(st.row_groups_read, 4);
    st = count_where(&buf, "i IS NULL", &n); /* null_count 0 everywhere */
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_INT(st.row_groups_pruned_stats, 4);
    pqt_string_free(&buf);
    free(ds.rows);
  }
}

/* Bloom filters: values spread over the whole range (statistics cannot
 * prune), no dictionary: an absent value skips nearly every row group by
 * its filter, reading the header and one 32-byte block per probe; a
 * present value is never skipped. */
static void test_bloom_pruning(void) {
  g_rng = 99;
  dataset ds;
  memset(&ds, 0, sizeof ds);
  ds.n = 2000;
  ds.rg_rows = 500;
  ds.dict = false;
  ds.bloom = true;
  ds.page_version = 1;
  ds.rows = calloc((size_t)ds.n, sizeof(row));
  make_rows(&ds);
  for (int i = 0; i < ds.n; i++) {
    ds.rows[i].i_null = ds.rows[i].s_null = false;
    ds.rows[i].i = ((int64_t)i * 2654435761LL) % 1000000007LL * 2; /* even, distinct, spread out */
    snprintf(ds.rows[i].s, sizeof ds.rows[i].s, "k%d", i % 100000);
  }
  ds.rows[0].i = -2000000000; /* the bounds of every group cover the probes */
  ds.rows[1].i = 2100000000;
  pqt_string buf;
  CHECK(write_file(&ds, &buf));
  int64_t pruned = 0, probes = 0;
  for (int q = 0; q < 50; q++) {
    char text[128];
    int64_t n;
    const row *x = &ds.rows[rint_in(0, ds.n - 1)];
    snprintf(text, sizeof text, "i = %lld", (long long)(x->i + 1)); /* odd: absent */
    pqt_scan_stats st = count_where(&buf, text, &n);
    CHECK_EQ_INT(n, 0);
    pruned += st.row_groups_pruned_bloom;
    probes += 4;
    CHECK_MSG(st.row_groups_read == 0 || st.bytes_read > 4 * 96, "%s", text);
    if (st.row_groups_read == 0)
      CHECK_MSG(st.bytes_read <= 4 * (64 + 32), "%s: %llu bytes", text, (unsigned long long)st.bytes_read);
    snprintf(text, sizeof text, "i IN (%lld, 7) OR s = '%s'", (long long)x->i, x->s); /* present */
    st = count_where(&buf, text, &n);
    CHECK_EQ_INT(n, 1);
  }
  printf("  %lld of %lld row groups skipped by Bloom filters for absent values\n", (long long)pruned,
         (long long)probes);
  CHECK(pruned >= probes * 9 / 10);
  pqt_string_free(&buf);
  free(ds.rows);
}

/* Byte-array statistics from parquet-mr before 1.10 are in signed order:
 * never used. The same file from a current writer is pruned. */
static void test_old_writer_rule(void) {
  const char *writers[] = {"parquet-mr version 1.8.1 (build 4aba4dae7bb0d4edbcf7923ae1339f28fd3f7fcf)",
                           "parquet-cpp version 1.2.0", "parquet-mr version 1.12.3 (build x)"};
  for (int w = 0; w < 3; w++) {
    g_rng = 7;
    dataset ds;
    memset(&ds, 0, sizeof ds);
    ds.n = 400;
    ds.rg_rows = 100;
    ds.sorted = true;
    ds.dict = false;
    ds.page_version = 1;
    ds.created_by = writers[w];
    ds.rows = calloc((size_t)ds.n, sizeof(row));
    make_rows(&ds);
    for (int i = 0; i < ds.n; i++) {
      ds.rows[i].s_null = ds.rows[i].i_null = false;
      /* bytes >= 0x80 sort differently signed and unsigned */
      if (i < 200) {
        ds.rows[i].s[0] = 'a';
      } else { /* U+00E9 */
        ds.rows[i].s[0] = (char)0xC3;
        ds.rows[i].s[1] = (char)0xA9;
      }
    }
    pqt_string buf;
    CHECK(write_file(&ds, &buf));
    int64_t n;
    pqt_scan_stats st = count_where(&buf, "s = 'zzz'", &n);
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_INT(st.row_groups_pruned_stats, w == 2 ? 4 : 0);
    st = count_where(&buf, "s > 'b'", &n);
    CHECK_EQ_INT(n, 200);
    CHECK_EQ_INT(st.row_groups_pruned_stats, w == 2 ? 2 : 0);
    st = count_where(&buf, "i < 30", &n); /* signed INT64 statistics stay usable */
    CHECK(n >= 8 && n <= 10);
    CHECK_EQ_INT(st.row_groups_pruned_stats, 3);
    pqt_string_free(&buf);
    free(ds.rows);
  }
}

/* Corpus files from old writers (wrong-order or NaN statistics): every
 * value of every flat string/binary column, and each of =, <, > against
 * it, counts the same rows as the full column does. */
static void check_corpus_file(const char *path, int *checked) {
  pqt_reader *r = NULL;
  if (pqt_reader_open_file(&r, path, NULL, NULL) != PQT_OK) return;
  for (int32_t c = 0; c < pqt_reader_num_columns(r); c++) {
    pqt_column_info ci;
    pqt_column_info_init(&ci);
    T_COLUMN_INFO_INIT(&ci);
    if (pqt_reader_column_info(r, c, &ci, NULL) != PQT_OK || ci.max_rep_level > 0 || ci.max_def_level > 1) continue;
    if (ci.physical_type != 6 && ci.physical_type != 5 && ci.physical_type != 1 && ci.physical_type != 2) continue;
    /* every value of the column, as bytes */
    size_t cap = 1024, nv = 0;
    char **vals = malloc(sizeof(char *) * cap);
    size_t *lens = malloc(sizeof(size_t) * cap);
    bool ok = true;
    for (int32_t g = 0; ok && g < pqt_reader_num_row_groups(r); g++) {
      pqt_column_reader *cr = NULL;
      if (pqt_column_reader_open(&cr, r, g, c, NULL) != PQT_OK) {
        ok = false;
        break;
      }
      pqt_column_batch b;
      pqt_column_batch_init(&b);
      T_COLUMN_BATCH_INIT(&b);
      while (pqt_column_reader_next(cr, 4096, &b, NULL) == PQT_OK && b.n_levels > 0) {
        for (int64_t j = 0; j < b.n_values && nv < 100000; j++) {
          if (nv == cap) {
            cap *= 2;
            vals = realloc(vals, sizeof(char *) * cap);
            lens = realloc(lens, sizeof(size_t) * cap);
          }
          size_t w = ci.physical_type == 6 ? (size_t)(b.offsets[j + 1] - b.offsets[j]) : ci.physical_type == 1 ? 4 : 8;
          const uint8_t *src = ci.physical_type == 6 ? (const uint8_t *)b.values + b.offsets[j]
                                                     : (const uint8_t *)b.values + (size_t)j * w;
          vals[nv] = malloc(w + 1);
          memcpy(vals[nv], src, w);
          lens[nv++] = w;
        }
      }
      pqt_column_reader_close(cr);
    }
    for (size_t t = 0; ok && t < nv && t < 40; t++) {
      size_t pick = (t * 7919) % nv;
      for (int op = 0; op < 3; op++) {
        int64_t want = 0;
        for (size_t j = 0; j < nv; j++) {
          int cmp;
          if (ci.physical_type == 6) {
            size_t m = lens[j] < lens[pick] ? lens[j] : lens[pick];
            cmp = memcmp(vals[j], vals[pick], m);
            if (!cmp) cmp = (lens[j] > lens[pick]) - (lens[j] < lens[pick]);
          } else if (ci.physical_type == 5) {
            double a, bb;
            memcpy(&a, vals[j], 8);
            memcpy(&bb, vals[pick], 8);
            cmp = cmp_f(a, bb);
          } else if (ci.physical_type == 1) {
            int32_t a, bb;
            memcpy(&a, vals[j], 4);
            memcpy(&bb, vals[pick], 4);
            cmp = (a > bb) - (a < bb);
          } else {
            int64_t a, bb;
            memcpy(&a, vals[j], 8);
            memcpy(&bb, vals[pick], 8);
            cmp = (a > bb) - (a < bb);
          }
          want += op == 0 ? cmp == 0 : op == 1 ? cmp < 0 : cmp > 0;
        }
        pqt_expr *lt;
        if (ci.physical_type == 6) lt = pqt_expr_binary(vals[pick], lens[pick]);
        else if (ci.physical_type == 5) {
          double d;
          memcpy(&d, vals[pick], 8);
          lt = pqt_expr_double(d);
        } else if (ci.physical_type == 1) {
          int32_t v;
          memcpy(&v, vals[pick], 4);
          lt = pqt_expr_int(v);
        } else {
          int64_t v;
          memcpy(&v, vals[pick], 8);
          lt = pqt_expr_int(v);
        }
        pqt_cmp_op ops[3] = {PQT_CMP_EQ, PQT_CMP_LT, PQT_CMP_GT};
        pqt_expr *e = pqt_expr_compare(ops[op], pqt_expr_column(ci.path), lt);
        pqt_scan_options so;
        pqt_scan_options_init(&so);
        so.filter = e;
        int64_t got = -1;
        pqt_error err;
        if (pqt_expr_check(e, r, &err) == PQT_OK) { /* annotated types may refuse a raw literal */
          CHECK_OK(pqt_reader_count(r, &so, &got, &err));
          CHECK_MSG(got == want, "%s column %s op %d value #%zu: %lld rows, want %lld", path, ci.path, op, pick,
                    (long long)got, (long long)want);
          (*checked)++;
        }
        pqt_expr_free(e);
      }
    }
    for (size_t j = 0; j < nv; j++) free(vals[j]);
    free(vals);
    free(lens);
  }
  pqt_reader_close(r);
}

static void test_corpus_old_writers(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  const char *files[] = {
      "datapage_v2.snappy.parquet", "nan_in_stats.parquet",          "nulls.snappy.parquet",
      "alltypes_plain.parquet",     "alltypes_dictionary.parquet",   "binary.parquet",
      "single_nan.parquet",         "alltypes_plain.snappy.parquet", "hadoop_lz4_compressed.parquet",
      "delta_byte_array.parquet",   "dict-page-offset-zero.parquet", "nation.dict-malformed.parquet"};
  int checked = 0;
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[2048];
    snprintf(path, sizeof path, "%s/data/%s", dir, files[i]);
    check_corpus_file(path, &checked);
  }
  printf("  %d corpus predicates checked against full reads\n", checked);
  CHECK(checked > 100);
  /* nan_in_stats.parquet: parquet-cpp 1.3 wrote max = NaN and no nan_count */
  char path[2048];
  snprintf(path, sizeof path, "%s/data/nan_in_stats.parquet", dir);
  pqt_reader *r = NULL;
  if (pqt_reader_open_file(&r, path, NULL, NULL) == PQT_OK) {
    const char *texts[] = {"x > 1", "x = NaN", "x >= 1", "x != 1"};
    int64_t want[] = {1, 1, 2, 1};
    for (int t = 0; t < 4; t++) {
      pqt_expr *e = NULL;
      CHECK_OK(pqt_expr_parse(texts[t], strlen(texts[t]), &e, NULL));
      pqt_scan_options so;
      pqt_scan_options_init(&so);
      so.filter = e;
      int64_t n = -1;
      CHECK_OK(pqt_reader_count(r, &so, &n, NULL));
      CHECK_MSG(n == want[t], "nan_in_stats %s: %lld", texts[t], (long long)n);
      pqt_expr_free(e);
    }
    pqt_reader_close(r);
  }
}

/* A predicate on one field of a struct, the projection another field of
 * it and a map: the output keeps exactly the projected shape (the struct
 * with its projected child only), rows as the full read's. */
static void test_struct_projection(void) {
  const char *schema =
      "message m {\n"
      "  required int32 k;\n"
      "  optional group a { optional int32 b; optional binary c (STRING); }\n"
      "  optional group mm (MAP) { repeated group key_value { required binary key (STRING); optional int32 value; } }\n"
      "}\n";
  pqt_string buf;
  memset(&buf, 0, sizeof buf);
  pqt_write_schema ws;
  T_WRITE_SCHEMA_INIT(&ws);
  ws.message = schema;
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &buf, &ws, NULL, NULL));
  if (!w) return;
  enum { N = 60 };
  int32_t k[N], b[N * 3], val[N * 3], offs[N * 3 + 1], koffs[N * 3 + 1];
  int16_t def[N * 3], rep[N * 3];
  char cbytes[N * 8], kbytes[N * 3];
  int64_t nv = 0, nl = 0;
  for (int i = 0; i < N; i++) k[i] = i;
  CHECK_OK(pqt_writer_write_column(w, 0, N, NULL, NULL, k, NULL, N, NULL));
  /* a.b: a null when i % 5 == 0, b null when i % 4 == 0 */
  for (int i = 0; i < N; i++) {
    def[i] = i % 5 == 0 ? 0 : i % 4 == 0 ? 1 : 2;
    if (def[i] == 2) b[nv++] = i;
  }
  CHECK_OK(pqt_writer_write_column(w, 1, N, def, NULL, b, NULL, nv, NULL));
  nv = 0;
  size_t nb = 0;
  offs[0] = 0;
  for (int i = 0; i < N; i++) {
    def[i] = i % 5 == 0 ? 0 : 2;
    if (def[i] == 2) {
      nb += (size_t)snprintf(cbytes + nb, 8, "c%d", i);
      offs[++nv] = (int32_t)nb;
    }
  }
  CHECK_OK(pqt_writer_write_column(w, 2, N, def, NULL, cbytes, offs, nv, NULL));
  /* mm: null when i % 6 == 0, else i % 3 entries key 'x'+e, value e or null */
  nl = nv = 0;
  koffs[0] = 0;
  nb = 0;
  int64_t nvv = 0;
  int16_t vdef[N * 3];
  for (int i = 0; i < N; i++) {
    if (i % 6 == 0 || i % 3 == 0) {
      rep[nl] = 0;
      vdef[nl] = def[nl] = i % 6 == 0 ? 0 : 1;
      nl++;
      continue;
    }
    for (int e = 0; e < i % 3; e++) {
      rep[nl] = e ? 1 : 0;
      def[nl] = 2;
      kbytes[nb++] = (char)('x' + e);
      koffs[++nv] = (int32_t)nb;
      vdef[nl] = (i + e) % 2 ? 3 : 2;
      if (vdef[nl] == 3) val[nvv++] = i * 10 + e;
      nl++;
    }
  }
  CHECK_OK(pqt_writer_write_column(w, 3, nl, def, rep, kbytes, koffs, nv, NULL));
  CHECK_OK(pqt_writer_write_column(w, 4, nl, vdef, rep, val, NULL, nvv, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, buf.data, buf.len, NULL, NULL));
  if (!r) {
    pqt_string_free(&buf);
    return;
  }
  const char *proj[] = {"a.c", "mm"};
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.columns = proj;
  so.n_columns = 2;
  lines full = {0}, got = {0}, want = {0};
  CHECK_OK(pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, collect, &full, NULL));
  size_t n_full = 0;
  size_t *starts = split(full.text, full.len, &n_full);
  CHECK_EQ_INT(n_full, N);
  int64_t n_want = 0;
  for (int i = 0; i < N && n_full == N; i++)
    if (i % 5 != 0 && i % 4 != 0 && i > 17) { /* a.b > 17 */
      collect(&want, full.text + starts[i], strlen(full.text + starts[i]));
      collect(&want, "\n", 1);
      n_want++;
    }
  pqt_expr *e = NULL;
  CHECK_OK(pqt_expr_parse("a.b > 17", 8, &e, NULL));
  so.filter = e;
  CHECK_OK(pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, collect, &got, NULL));
  CHECK_MSG(got.len == want.len && memcmp(got.text, want.text, got.len) == 0, "struct projection:\n%s\nwant\n%s",
            got.text ? got.text : "", want.text ? want.text : "");
  CHECK(want.text && strstr(want.text, "{\"a\":{\"c\":\"c18\"},\"mm\":null}\n") == want.text);
  CHECK(want.text && strstr(want.text, "{\"a\":{\"c\":\"c19\"},\"mm\":[{\"key\":\"x\",\"value\":190}]}\n"));
  /* the stream: the same shape as without the predicate */
  struct ArrowArrayStream st;
  CHECK_OK(pqt_reader_get_stream(r, &so, &st, NULL));
  struct ArrowArray arr;
  int64_t rows = 0;
  while (st.get_next(&st, &arr) == 0 && arr.release) {
    CHECK_EQ_INT(arr.n_children, 2);
    if (arr.n_children == 2) {
      CHECK_EQ_INT(arr.children[0]->n_children, 1); /* a: c only */
      CHECK_EQ_INT(arr.children[0]->length, arr.length);
      CHECK_EQ_INT(arr.children[1]->length, arr.length);
    }
    rows += arr.length;
    arr.release(&arr);
  }
  st.release(&st);
  CHECK_EQ_INT(rows, n_want);
  pqt_expr_free(e);
  free(starts);
  free(full.text);
  free(got.text);
  free(want.text);
  pqt_reader_close(r);
  pqt_string_free(&buf);
}

/* Exact counts on a hand-made file: 4 row groups of 100 rows, several
 * pages per chunk, no dictionary: a range inside row group 1 of the sorted
 * key reads that group only: exactly its chunks' data pages (as their
 * encoding_stats count them) and exactly their bytes; the full read reads
 * every page and byte of every chunk. */
/* What reading rows [a, b) of row group g by pages costs for column c:
 * the pages that hold them (their bytes added to *bytes, their count
 * returned) and the offset index (with_ci: and the column index). */
static int64_t pages_for_rows(pqt_reader *r, int32_t g, int32_t c, int64_t a, int64_t b, bool with_ci,
                              uint64_t *bytes) {
  pqt_page_index pi;
  pqt_page_index_init(&pi);
  CHECK_OK(pqt_reader_page_index(r, g, c, &pi, NULL));
  pqt_chunk_info ci;
  pqt_chunk_info_init(&ci);
  CHECK_OK(pqt_reader_chunk(r, g, c, &ci, NULL));
  int64_t rows = pqt_reader_row_group_num_rows(r, g), n = 0;
  CHECK(pi.has_offset_index && pi.n_locations >= 2);
  for (int32_t p = 0; p < pi.n_locations; p++) {
    int64_t x = pi.first_row_indexes[p], y = p + 1 < pi.n_locations ? pi.first_row_indexes[p + 1] : rows;
    if (x < b && y > a) {
      n++;
      *bytes += (uint64_t)pi.compressed_page_sizes[p];
    }
  }
  *bytes += (uint64_t)ci.offset_index_length;
  if (with_ci) *bytes += (uint64_t)ci.column_index_length;
  pqt_page_index_free(&pi);
  return n;
}

/* Hand-made: a sorted key, 4 row groups of 100 rows, pages of 7-60 rows,
 * no dictionary. The exact pages and bytes a selective read takes. */
static void test_exact_counts(void) {
  g_rng = 5;
  dataset ds;
  memset(&ds, 0, sizeof ds);
  ds.n = 400;
  ds.rg_rows = 100;
  ds.sorted = true;
  ds.dict = false;
  ds.page_version = 1;
  ds.rows = calloc((size_t)ds.n, sizeof(row));
  make_rows(&ds);
  pqt_string buf;
  memset(&buf, 0, sizeof buf);
  bool ok = write_file(&ds, &buf);
  CHECK(ok);
  pqt_reader *r = NULL;
  if (ok) CHECK_OK(pqt_reader_open_buffer(&r, buf.data, buf.len, NULL, NULL));
  if (r) {
    /* the flat columns k, i, f, s, d, g.x (leaves 0-5); the list l (leaf 6, v1 pages) is read whole */
    const char *proj[] = {"k", "i", "f", "s", "d", "g"};
    int64_t pages_per_group[4] = {0}, bytes_per_group[4] = {0};
    for (int32_t g = 0; g < r->md.row_groups.n && g < 4; g++)
      for (int32_t c = 0; c < 6; c++) {
        const pqt_column_metadata *cm = &r->md.row_groups.items[g].columns.items[c].meta_data;
        bytes_per_group[g] += cm->total_compressed_size;
        for (int32_t k = 0; k < cm->encoding_stats.n; k++)
          if (cm->encoding_stats.items[k].page_type == 0 || cm->encoding_stats.items[k].page_type == 3)
            pages_per_group[g] += cm->encoding_stats.items[k].count;
      }
    CHECK_EQ_INT(r->md.row_groups.n, 4);
    CHECK(pages_per_group[1] >= 6 * 2); /* several pages per chunk */
    /* k BETWEEN 150 AND 160: rows 50-60 of group 1; k's pages pruned by its
     * column index, the other columns read at the rows that pass */
    uint64_t want_bytes = 0, want_count_bytes = 0;
    int64_t want_pages = 0;
    for (int32_t c = 0; c < 6; c++) want_pages += pages_for_rows(r, 1, c, 50, 61, c == 0, &want_bytes);
    int64_t want_count_pages = pages_for_rows(r, 1, 0, 50, 61, true, &want_count_bytes);
    CHECK(want_pages < pages_per_group[1]);
    CHECK(want_bytes < (uint64_t)bytes_per_group[1]);
    int64_t n;
    pqt_scan_stats st = count_where(&buf, "k BETWEEN 150 AND 160", &n);
    CHECK_EQ_INT(n, 11);
    CHECK_EQ_INT(st.pages_read, want_count_pages);
    CHECK_EQ_INT(st.bytes_read, want_count_bytes);
    lines out = {0};
    pqt_expr *e = NULL;
    CHECK_OK(pqt_expr_parse("k BETWEEN 150 AND 160", 21, &e, NULL));
    pqt_scan_options so;
    pqt_scan_options_init(&so);
    so.columns = proj;
    so.n_columns = 6;
    so.filter = e;
    so.stats = &st;
    memset(&st, 0, sizeof st);
    CHECK_OK(pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, collect, &out, NULL));
    CHECK_EQ_INT(st.rows, 11);
    CHECK_EQ_INT(st.row_groups_read, 1);
    CHECK_EQ_INT(st.row_groups_total, 4);
    CHECK_EQ_INT(st.row_groups_pruned_stats, 3);
    CHECK_EQ_INT(st.pages_read, want_pages);
    CHECK_EQ_INT(st.pages_total, pages_per_group[0] + pages_per_group[1] + pages_per_group[2] + pages_per_group[3]);
    CHECK_EQ_INT(st.bytes_read, want_bytes);
    CHECK(out.text && strncmp(out.text, "{\"k\":150,", 9) == 0);
    /* rows 120-129 without a predicate: the pages that hold them, in every column */
    pqt_row_span span = {120, 10};
    uint64_t span_bytes = 0;
    int64_t span_pages = 0;
    for (int32_t c = 0; c < 6; c++) span_pages += pages_for_rows(r, 1, c, 20, 30, false, &span_bytes);
    lines part = {0};
    so.filter = NULL;
    so.row_ranges = &span;
    so.n_row_ranges = 1;
    memset(&st, 0, sizeof st);
    CHECK_OK(pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, collect, &part, NULL));
    CHECK_EQ_INT(st.rows, 10);
    CHECK_EQ_INT(st.row_groups_read, 1);
    CHECK_EQ_INT(st.pages_read, span_pages);
    CHECK_EQ_INT(st.bytes_read, span_bytes);
    CHECK(part.text && strncmp(part.text, "{\"k\":120,", 9) == 0);
    int64_t cnt = -1;
    memset(&st, 0, sizeof st);
    CHECK_OK(pqt_reader_count(r, &so, &cnt, NULL)); /* from the footer: nothing read */
    CHECK_EQ_INT(cnt, 10);
    CHECK_EQ_INT(st.bytes_read, 0);
    /* the whole file */
    pqt_scan_stats full;
    memset(&full, 0, sizeof full);
    so.row_ranges = NULL;
    so.n_row_ranges = 0;
    so.stats = &full;
    lines all = {0};
    CHECK_OK(pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, collect, &all, NULL));
    CHECK_EQ_INT(full.pages_read, full.pages_total);
    CHECK_EQ_INT(full.bytes_read, bytes_per_group[0] + bytes_per_group[1] + bytes_per_group[2] + bytes_per_group[3]);
    free(out.text);
    free(part.text);
    free(all.text);
    pqt_expr_free(e);
    pqt_reader_close(r);
  }
  pqt_string_free(&buf);
  free(ds.rows);
}

RUN_TESTS("filter_random", TEST_CASE(test_exact_counts), TEST_CASE(test_struct_projection),
          TEST_CASE(test_bloom_pruning), TEST_CASE(test_random), TEST_CASE(test_dictionary_pruning),
          TEST_CASE(test_old_writer_rule), TEST_CASE(test_corpus_old_writers))
