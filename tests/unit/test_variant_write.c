/* Writing VARIANT columns: the parquet.variant Arrow extension written
 * unshredded and shredded (a given schema, and inferred at every depth);
 * the raw columns read back and reconstructed here (a small reconstruction
 * of seed 003's algorithm) equal the values written; invalid values fail
 * naming row and column; the invalid shapes of seed 003 never appear. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "file/reader_internal.h"
#include "harness.h"
#include "variant_fixture.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_variant.h"

/* ---- Arrow input ----------------------------------------------------------- */


typedef struct vin {
  struct ArrowSchema root, v, cm, cv;
  struct ArrowSchema *root_kids[1], *v_kids[2];
  struct ArrowArray aroot, av, am, aval;
  struct ArrowArray *aroot_kids[1], *av_kids[2];
  const void *bufs_root[1], *bufs_v[1], *bufs_m[3], *bufs_val[3];
  uint8_t *valid;
  int32_t *moff, *voff;
  uint8_t *mdata, *vdata;
} vin;

/* rows[i].metadata == NULL: a null row */
static void vin_make(vin *x, const pqt_variant *rows, int64_t n) {
  memset(x, 0, sizeof *x);
  x->cm = (struct ArrowSchema){.format = "z", .name = "metadata", .release = pqt_vt_noop_schema_release};
  x->cv = (struct ArrowSchema){.format = "z", .name = "value", .release = pqt_vt_noop_schema_release};
  x->v_kids[0] = &x->cm;
  x->v_kids[1] = &x->cv;
  x->v = (struct ArrowSchema){.format = "+s",
                              .name = "v",
                              .metadata = PQT_VT_EXT_MD,
                              .flags = ARROW_FLAG_NULLABLE,
                              .n_children = 2,
                              .children = x->v_kids,
                              .release = pqt_vt_noop_schema_release};
  x->root_kids[0] = &x->v;
  x->root = (struct ArrowSchema){
      .format = "+s", .name = "", .n_children = 1, .children = x->root_kids, .release = pqt_vt_noop_schema_release};
  size_t mt = 0, vt = 0;
  for (int64_t i = 0; i < n; i++) {
    mt += rows[i].metadata ? rows[i].metadata_len : 0;
    vt += rows[i].metadata ? rows[i].value_len : 0;
  }
  x->valid = calloc((size_t)n / 8 + 1, 1);
  x->moff = calloc((size_t)n + 1, 4);
  x->voff = calloc((size_t)n + 1, 4);
  x->mdata = malloc(mt + 1);
  x->vdata = malloc(vt + 1);
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; i++) {
    x->moff[i + 1] = x->moff[i];
    x->voff[i + 1] = x->voff[i];
    if (!rows[i].metadata) {
      nulls++;
      continue;
    }
    x->valid[i / 8] |= (uint8_t)(1u << (i % 8));
    memcpy(x->mdata + x->moff[i], rows[i].metadata, rows[i].metadata_len);
    x->moff[i + 1] += (int32_t)rows[i].metadata_len;
    memcpy(x->vdata + x->voff[i], rows[i].value, rows[i].value_len);
    x->voff[i + 1] += (int32_t)rows[i].value_len;
  }
  x->bufs_m[1] = x->moff;
  x->bufs_m[2] = x->mdata;
  x->bufs_val[1] = x->voff;
  x->bufs_val[2] = x->vdata;
  x->bufs_v[0] = x->valid;
  x->am = (struct ArrowArray){.length = n, .n_buffers = 3, .buffers = x->bufs_m, .release = pqt_vt_noop_array_release};
  x->aval = (struct ArrowArray){.length = n, .n_buffers = 3, .buffers = x->bufs_val, .release = pqt_vt_noop_array_release};
  x->av_kids[0] = &x->am;
  x->av_kids[1] = &x->aval;
  x->av = (struct ArrowArray){.length = n,
                              .null_count = nulls,
                              .n_buffers = 1,
                              .buffers = x->bufs_v,
                              .n_children = 2,
                              .children = x->av_kids,
                              .release = pqt_vt_noop_array_release};
  x->aroot_kids[0] = &x->av;
  x->aroot = (struct ArrowArray){.length = n,
                                 .n_buffers = 1,
                                 .buffers = x->bufs_root,
                                 .n_children = 1,
                                 .children = x->aroot_kids,
                                 .release = pqt_vt_noop_array_release};
}

static void vin_free(vin *x) {
  free(x->valid);
  free(x->moff);
  free(x->voff);
  free(x->mdata);
  free(x->vdata);
}

static pqt_status write_rows(const pqt_variant *rows, int64_t n, const char *shred, pqt_string *out, pqt_error *e) {
  vin x;
  vin_make(&x, rows, n);
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.page_row_limit = 50; /* several pages */
  pqt_variant_shredding sh = {.struct_size = sizeof sh, .column = "v", .typed_value = shred};
  if (shred) {
    o.variant_shredding = &sh;
    o.n_variant_shredding = 1;
  }
  pqt_write_schema ws = {.struct_size = sizeof ws, .arrow = &x.root};
  pqt_writer *w;
  pqt_status st = pqt_writer_open_buffer(&w, out, &ws, &o, e);
  if (st == PQT_OK) {
    st = pqt_writer_write_batch(w, &x.aroot, e);
    if (st == PQT_OK) st = pqt_writer_close(w, e);
    else pqt_writer_discard(w);
  }
  vin_free(&x);
  return st;
}

/* ---- a canonical text of a Variant (types kept, ints of any width alike) -- */

static void dump(FILE *f, const pqt_variant *v);

static void dump_prim(FILE *f, const pqt_variant *v) {
  pqt_variant_kind k;
  pqt_error e;
  if (pqt_variant_get_type(v, &k, &e) != PQT_OK) {
    fputs("<bad>", f);
    return;
  }
  pqt_string s = {0};
  if (pqt_variant_to_json(v, &s, &e) != PQT_OK) {
    fputs("<bad>", f);
    return;
  }
  int cls = (k >= PQT_VARIANT_INT8 && k <= PQT_VARIANT_INT64)           ? 3
            : (k >= PQT_VARIANT_DECIMAL4 && k <= PQT_VARIANT_DECIMAL16) ? 8
                                                                        : (int)k;
  fprintf(f, "%d:%s", cls, s.data);
  pqt_string_free(&s);
}

typedef struct entry {
  char *name;
  size_t name_len;
  char *text;
} entry;

static int entry_cmp(const void *pa, const void *pb) {
  const entry *a = pa, *b = pb;
  size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
  int c = memcmp(a->name, b->name, n);
  return c ? c : (a->name_len < b->name_len ? -1 : a->name_len > b->name_len);
}

static void print_entries(FILE *f, entry *es, size_t n) {
  qsort(es, n, sizeof *es, entry_cmp);
  fputc('{', f);
  for (size_t i = 0; i < n; i++) {
    fprintf(f, "%s%.*s=%s", i ? "," : "", (int)es[i].name_len, es[i].name, es[i].text);
    free(es[i].name);
    free(es[i].text);
  }
  fputc('}', f);
}

static char *dump_str(const pqt_variant *v) {
  char *p = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&p, &n);
  dump(f, v);
  fclose(f);
  return p;
}

/* object fields of v as entries appended to *es */
static void object_entries(const pqt_variant *v, entry **es, size_t *n) {
  int64_t nf = 0;
  pqt_error e;
  if (pqt_variant_num_elements(v, &nf, &e) != PQT_OK) return;
  *es = realloc(*es, (*n + (size_t)nf + 1) * sizeof **es);
  for (int64_t i = 0; i < nf; i++) {
    const char *name;
    size_t len;
    pqt_variant c;
    if (pqt_variant_object_field(v, i, &name, &len, &c, &e) != PQT_OK) continue;
    entry *x = &(*es)[(*n)++];
    x->name = malloc(len + 1);
    memcpy(x->name, name, len);
    x->name_len = len;
    x->text = dump_str(&c);
  }
}

static void dump(FILE *f, const pqt_variant *v) {
  pqt_variant_kind k;
  pqt_error e;
  if (pqt_variant_get_type(v, &k, &e) != PQT_OK) {
    fputs("<bad>", f);
    return;
  }
  if (k == PQT_VARIANT_OBJECT) {
    entry *es = NULL;
    size_t n = 0;
    object_entries(v, &es, &n);
    print_entries(f, es, n);
    free(es);
  } else if (k == PQT_VARIANT_ARRAY) {
    int64_t n = 0;
    pqt_variant_num_elements(v, &n, &e);
    fputc('[', f);
    for (int64_t i = 0; i < n; i++) {
      pqt_variant c;
      if (i) fputc(',', f);
      if (pqt_variant_array_element(v, i, &c, &e) == PQT_OK) dump(f, &c);
    }
    fputc(']', f);
  } else {
    dump_prim(f, v);
  }
}

/* ---- the columns read back, and a small reconstruction ---------------------- */

typedef struct cur {
  int16_t *def, *rep;
  int64_t n, pos;
  uint8_t *data;
  int64_t *off; /* value i: data + off[i] .. off[i + 1] */
  int64_t nv, vpos;
  size_t data_len;
} cur;

typedef struct rd {
  pqt_reader *r;
  const pqt_schema *s;
  cur *c;
  int bad; /* an invalid shape seen */
} rd;

static bool load(rd *x, const pqt_string *file) {
  pqt_error e;
  if (pqt_reader_open_buffer(&x->r, file->data, file->len, NULL, &e) != PQT_OK) {
    fprintf(stderr, "  open: %s\n", e.message);
    return false;
  }
  x->s = x->r->schema;
  x->c = calloc((size_t)x->s->n_leaves, sizeof *x->c);
  for (int32_t l = 0; l < x->s->n_leaves; l++) {
    const pqt_schema_node *leaf = x->s->leaves[l];
    cur *c = &x->c[l];
    int64_t cap = 16, vcap = 16;
    c->def = malloc((size_t)cap * 2);
    c->rep = malloc((size_t)cap * 2);
    c->off = malloc((size_t)vcap * 8);
    c->off[0] = 0;
    for (int32_t g = 0; g < x->r->md.row_groups.n; g++) {
      pqt_column_reader *cr;
      if (pqt_column_reader_open(&cr, x->r, g, l, &e) != PQT_OK) {
        fprintf(stderr, "  column: %s\n", e.message);
        return false;
      }
      for (;;) {
        pqt_column_batch b;
        pqt_column_batch_init(&b);
        if (pqt_column_reader_next(cr, 4096, &b, &e) != PQT_OK) {
          fprintf(stderr, "  next: %s\n", e.message);
          pqt_column_reader_close(cr);
          return false;
        }
        if (b.n_levels == 0) break;
        while (c->n + b.n_levels > cap) cap *= 2;
        c->def = realloc(c->def, (size_t)cap * 2);
        c->rep = realloc(c->rep, (size_t)cap * 2);
        for (int64_t i = 0; i < b.n_levels; i++) {
          c->def[c->n + i] = leaf->max_def ? b.def_levels[i] : 0;
          c->rep[c->n + i] = leaf->max_rep ? b.rep_levels[i] : 0;
        }
        c->n += b.n_levels;
        while (c->nv + b.n_values + 1 > vcap) vcap *= 2;
        c->off = realloc(c->off, (size_t)vcap * 8);
        for (int64_t i = 0; i < b.n_values; i++) {
          const uint8_t *p;
          size_t len;
          if (leaf->physical_type == PQT_BYTE_ARRAY) {
            p = (const uint8_t *)b.values + b.offsets[i];
            len = (size_t)(b.offsets[i + 1] - b.offsets[i]);
          } else {
            len = leaf->physical_type == PQT_BOOLEAN                                     ? 1
                  : leaf->physical_type == PQT_INT32 || leaf->physical_type == PQT_FLOAT ? 4
                  : leaf->physical_type == PQT_FIXED_LEN_BYTE_ARRAY                      ? (size_t)leaf->type_length
                                                                                         : 8;
            p = (const uint8_t *)b.values + (size_t)i * len;
          }
          c->data = realloc(c->data, c->data_len + len + 1);
          memcpy(c->data + c->data_len, p, len);
          c->data_len += len;
          c->off[++c->nv] = (int64_t)c->data_len;
        }
      }
      pqt_column_reader_close(cr);
    }
  }
  return true;
}

static void unload(rd *x) {
  for (int32_t l = 0; x->c && l < x->s->n_leaves; l++) {
    free(x->c[l].def);
    free(x->c[l].rep);
    free(x->c[l].off);
    free(x->c[l].data);
  }
  free(x->c);
  pqt_reader_close(x->r);
}

static const pqt_schema_node *kid(const pqt_schema_node *x, const char *name) {
  for (int32_t i = 0; x && i < x->n_children; i++)
    if (strcmp(x->children[i]->name, name) == 0) return x->children[i];
  return NULL;
}

static cur *first(rd *x, const pqt_schema_node *n) { return &x->c[n->first_leaf]; }
static int16_t peek(rd *x, const pqt_schema_node *n) {
  cur *c = first(x, n);
  return c->pos < c->n ? c->def[c->pos] : -1;
}
static void skip(rd *x, const pqt_schema_node *n) {
  for (int32_t i = 0; i < n->n_leaves; i++) {
    cur *c = &x->c[n->first_leaf + i];
    const pqt_schema_node *leaf = x->s->leaves[n->first_leaf + i];
    if (c->pos < c->n && c->def[c->pos] == leaf->max_def) c->vpos++;
    c->pos++;
  }
}
/* a leaf's next level: its value, or NULL */
static const uint8_t *take(rd *x, const pqt_schema_node *leaf, size_t *len) {
  cur *c = &x->c[leaf->column_index];
  if (c->pos >= c->n) {
    x->bad = 1;
    return NULL;
  }
  bool present = c->def[c->pos++] == leaf->max_def;
  if (!present) return NULL;
  const uint8_t *p = c->data + c->off[c->vpos];
  *len = (size_t)(c->off[c->vpos + 1] - c->off[c->vpos]);
  c->vpos++;
  return p ? p : (const uint8_t *)"";
}

static const uint8_t empty_md[3] = {0x01, 0x00, 0x00};

static void put_le(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* a typed_value as a Variant primitive, dumped */
static char *typed_text(const pqt_schema_node *t, const uint8_t *p, size_t n) {
  uint8_t buf[64];
  uint8_t *big = NULL;
  size_t len = 0;
  int lt = t->logical.isset ? pqt_union_which(t->logical.isset) : -1;
  int64_t i64 = 0;
  if (t->physical_type == PQT_INT32 && n == 4) {
    int32_t v;
    memcpy(&v, p, 4);
    i64 = v;
  } else if (t->physical_type == PQT_INT64 && n == 8) {
    memcpy(&i64, p, 8);
  }
  if (lt == PQT_LT_DECIMAL) {
    uint8_t le[16];
    if (t->physical_type == PQT_INT32 || t->physical_type == PQT_INT64) {
      memset(le, i64 < 0 ? 0xff : 0, 16);
      put_le(le, (uint64_t)i64, 8);
    } else {
      memset(le, (n && (p[0] & 0x80)) ? 0xff : 0, 16);
      for (size_t i = 0; i < n && i < 16; i++) le[i] = p[n - 1 - i];
    }
    buf[0] = (uint8_t)(PQT_VARIANT_DECIMAL16 << 2);
    buf[1] = (uint8_t)t->logical.decimal.scale;
    memcpy(buf + 2, le, 16);
    len = 18;
  } else {
    switch (t->physical_type) {
      case PQT_BOOLEAN:
        buf[0] = (uint8_t)((p[0] ? PQT_VARIANT_TRUE : PQT_VARIANT_FALSE) << 2);
        len = 1;
        break;
      case PQT_FLOAT:
        buf[0] = PQT_VARIANT_FLOAT << 2;
        memcpy(buf + 1, p, 4);
        len = 5;
        break;
      case PQT_DOUBLE:
        buf[0] = PQT_VARIANT_DOUBLE << 2;
        memcpy(buf + 1, p, 8);
        len = 9;
        break;
      case PQT_INT32:
      case PQT_INT64: {
        pqt_variant_kind k = PQT_VARIANT_INT64;
        if (lt == PQT_LT_DATE) k = PQT_VARIANT_DATE;
        else if (lt == PQT_LT_TIME) k = PQT_VARIANT_TIME_NTZ_MICROS;
        else if (lt == PQT_LT_TIMESTAMP) {
          bool utc = t->logical.timestamp.is_adjusted_to_utc;
          bool ns = pqt_union_which(t->logical.timestamp.unit.isset) == PQT_TIME_UNIT_NANOS;
          k = ns ? (utc ? PQT_VARIANT_TIMESTAMP_NANOS : PQT_VARIANT_TIMESTAMP_NTZ_NANOS)
                 : (utc ? PQT_VARIANT_TIMESTAMP_MICROS : PQT_VARIANT_TIMESTAMP_NTZ_MICROS);
        }
        buf[0] = (uint8_t)(k << 2);
        int w = k == PQT_VARIANT_DATE ? 4 : 8;
        put_le(buf + 1, (uint64_t)i64, w);
        len = (size_t)w + 1;
        break;
      }
      case PQT_FIXED_LEN_BYTE_ARRAY:
        buf[0] = PQT_VARIANT_UUID << 2;
        memcpy(buf + 1, p, 16);
        len = 17;
        break;
      case PQT_BYTE_ARRAY: {
        big = malloc(n + 5);
        big[0] = (uint8_t)((lt == PQT_LT_STRING ? PQT_VARIANT_STRING : PQT_VARIANT_BINARY) << 2);
        put_le(big + 1, n, 4);
        memcpy(big + 5, p, n);
        len = n + 5;
        break;
      }
      default: return strdup("<type>");
    }
  }
  pqt_variant v = {empty_md, 3, big ? big : buf, len};
  char *s = dump_str(&v);
  free(big);
  return s;
}

/* the value of pair group p (value / typed_value); NULL when missing */
static char *recon(rd *x, const pqt_schema_node *p, const uint8_t *md, size_t md_len) {
  const pqt_schema_node *V = kid(p, "value"), *T = kid(p, "typed_value");
  size_t vlen = 0;
  const uint8_t *vp = V ? take(x, V, &vlen) : NULL;
  char *typed = NULL;
  bool object = false;
  entry *es = NULL;
  size_t ne = 0;
  if (T && T->is_leaf) {
    size_t tl = 0;
    const uint8_t *tp = take(x, T, &tl);
    if (tp) typed = typed_text(T, tp, tl);
  } else if (T && T->logical.isset && pqt_union_which(T->logical.isset) == PQT_LT_LIST) {
    int16_t d = peek(x, T);
    if (d < T->max_def) {
      skip(x, T);
    } else if (d == T->max_def) {
      skip(x, T);
      typed = strdup("[]");
    } else {
      const pqt_schema_node *R = T->children[0], *E = R->children[0];
      char *p2 = NULL;
      size_t n2 = 0;
      FILE *f = open_memstream(&p2, &n2);
      fputc('[', f);
      for (int i = 0;; i++) {
        char *el = recon(x, E, md, md_len);
        if (!el) x->bad = 1; /* a missing array element */
        fprintf(f, "%s%s", i ? "," : "", el ? el : "?");
        free(el);
        cur *c = first(x, T);
        if (!(c->pos < c->n && c->rep[c->pos] == R->max_rep)) break;
      }
      fputc(']', f);
      fclose(f);
      typed = p2;
    }
  } else if (T) {
    if (peek(x, T) < T->max_def) {
      skip(x, T);
    } else {
      object = true;
      es = calloc((size_t)T->n_children + 1, sizeof *es);
      for (int32_t i = 0; i < T->n_children; i++) {
        char *t = recon(x, T->children[i], md, md_len);
        if (!t) continue;
        es[ne].name = strdup(T->children[i]->name);
        es[ne].name_len = T->children[i]->name_len;
        es[ne++].text = t;
      }
    }
  }
  char *out = NULL;
  if (object) {
    size_t shredded = ne;
    if (vp) {
      pqt_variant v = {md, md_len, vp, vlen};
      pqt_variant_kind k;
      pqt_error e;
      if (pqt_variant_get_type(&v, &k, &e) != PQT_OK || k != PQT_VARIANT_OBJECT)
        x->bad = 1; /* non-object beside object */
      else object_entries(&v, &es, &ne);
      for (size_t i = shredded; i < ne; i++) /* a field both in value and typed_value */
        for (int32_t j = 0; j < T->n_children; j++)
          if (es[i].name_len == T->children[j]->name_len && !memcmp(es[i].name, T->children[j]->name, es[i].name_len))
            x->bad = 1;
    }
    char *p2 = NULL;
    size_t n2 = 0;
    FILE *f = open_memstream(&p2, &n2);
    print_entries(f, es, ne);
    fclose(f);
    free(es);
    out = p2;
  } else if (typed) {
    if (vp) x->bad = 1; /* both value and typed_value for a non-object */
    out = typed;
    typed = NULL;
  } else if (vp) {
    pqt_variant v = {md, md_len, vp, vlen};
    out = dump_str(&v);
  }
  free(typed);
  return out;
}

/* row i's reconstruction; "NULL" for a null row */
static char *recon_row(rd *x) {
  const pqt_schema_node *g = x->s->root->children[0];
  if (g->repetition == PQT_OPTIONAL && peek(x, g) < g->max_def) {
    skip(x, g);
    return strdup("NULL");
  }
  size_t ml = 0;
  const uint8_t *m = take(x, kid(g, "metadata"), &ml);
  if (!m) {
    x->bad = 1;
    return strdup("<no metadata>");
  }
  char *s = recon(x, g, m, ml);
  return s ? s : strdup("<missing>");
}

/* ---- values --------------------------------------------------------------- */

typedef pqt_vt_rng rng;

static void gen_json(rng *r, FILE *f, int depth) {
  uint32_t k = pqt_vt_rnd(r) % (depth > 6 ? 7 : 10);
  static const char *keys[] = {"a", "b`q", "c\\\\d", "id", "name", "t\\tab", "x y", "tags", "n", "z"};
  switch (k) {
    case 0: fputs("null", f); break;
    case 1: fputs(pqt_vt_rnd(r) % 2 ? "true" : "false", f); break;
    case 2: fprintf(f, "%d", (int)(pqt_vt_rnd(r) % 200) - 100); break;
    case 3: fprintf(f, "%lld", (long long)pqt_vt_rnd(r) * 100003LL - 7); break;
    case 4: fprintf(f, "%d.%02u", (int)(pqt_vt_rnd(r) % 1000) - 500, pqt_vt_rnd(r) % 100); break;
    case 5: fprintf(f, "%d.5e3", (int)(pqt_vt_rnd(r) % 100)); break;
    case 6: fprintf(f, "\"s%u\"", pqt_vt_rnd(r) % 50); break;
    case 7:
    case 8: {
      int n = (int)(pqt_vt_rnd(r) % 5);
      fputc('{', f);
      unsigned used = 0;
      for (int i = 0, w = 0; i < n; i++) {
        unsigned kk = pqt_vt_rnd(r) % 10;
        if (used & (1u << kk)) continue;
        used |= 1u << kk;
        fprintf(f, "%s\"%s\":", w++ ? "," : "", keys[kk]);
        gen_json(r, f, depth + 1);
      }
      fputc('}', f);
      break;
    }
    default: {
      int n = (int)(pqt_vt_rnd(r) % 4);
      fputc('[', f);
      for (int i = 0; i < n; i++) {
        if (i) fputc(',', f);
        gen_json(r, f, depth + 1);
      }
      fputc(']', f);
    }
  }
}

typedef struct vals {
  pqt_variant *v;
  pqt_variant_owned *own;
  uint8_t **extra;
  int64_t n, cap, n_extra;
} vals;

static void vals_add_json(vals *s, const char *json) {
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 64;
    s->v = realloc(s->v, (size_t)s->cap * sizeof *s->v);
    s->own = realloc(s->own, (size_t)s->cap * sizeof *s->own);
  }
  pqt_error e;
  memset(&s->own[s->n], 0, sizeof s->own[s->n]);
  if (pqt_variant_from_json(json, strlen(json), NULL, &s->own[s->n], &e) != PQT_OK) {
    fprintf(stderr, "  from_json %s: %s\n", json, e.message);
    pqt_t_current_failed = 1;
    return;
  }
  s->v[s->n] = s->own[s->n].view;
  s->n++;
}

static void vals_add_raw(vals *s, const uint8_t *m, size_t mn, const uint8_t *v, size_t vn) {
  vals_add_json(s, "null");
  uint8_t *b = malloc(mn + vn);
  memcpy(b, m, mn);
  memcpy(b + mn, v, vn);
  s->extra = realloc(s->extra, (size_t)(s->n_extra + 1) * sizeof *s->extra);
  s->extra[s->n_extra++] = b;
  s->v[s->n - 1] = (pqt_variant){b, mn, b + mn, vn};
}

static void vals_free(vals *s) {
  for (int64_t i = 0; i < s->n; i++) pqt_variant_owned_free(&s->own[i]);
  for (int64_t i = 0; i < s->n_extra; i++) free(s->extra[i]);
  free(s->v);
  free(s->own);
  free(s->extra);
}

/* The object at the top of v re-encoded with 4-byte field ids and offsets
 * (and the large element count), appended as a value. */
static void vals_add_wide(vals *s, const pqt_variant *v) {
  pqt_error e;
  int64_t n;
  if (pqt_variant_num_elements(v, &n, &e) != PQT_OK) return;
  size_t cap = 1 + 4 + (size_t)n * 8 + 4 + v->value_len;
  uint8_t *b = malloc(cap);
  b[0] = (uint8_t)(((3u | (3u << 2) | (1u << 4)) << 2) | 2u);
  put_le(b + 1, (uint64_t)n, 4);
  /* field ids from the encoding: read them back by name in the metadata */
  size_t ids = 5, offs = ids + (size_t)n * 4, data = offs + (size_t)(n + 1) * 4, at = 0;
  const uint8_t *src = v->value;
  unsigned hdr = src[0] >> 2, idw = ((hdr >> 2) & 3) + 1, offw = (hdr & 3) + 1;
  bool large = (hdr >> 4) & 1;
  size_t p = 1 + (large ? 4 : 1);
  for (int64_t i = 0; i < n; i++) {
    uint64_t id = 0;
    for (unsigned k = 0; k < idw; k++) id |= (uint64_t)src[p + (size_t)i * idw + k] << (8 * k);
    put_le(b + ids + (size_t)i * 4, id, 4);
  }
  for (int64_t i = 0; i < n; i++) {
    pqt_variant c;
    pqt_variant_object_field(v, i, &(const char *){0}, &(size_t){0}, &c, &e);
    put_le(b + offs + (size_t)i * 4, at, 4);
    memcpy(b + data + at, c.value, c.value_len);
    at += c.value_len;
  }
  put_le(b + offs + (size_t)n * 4, at, 4);
  (void)offw;
  vals_add_raw(s, v->metadata, v->metadata_len, b, data + at);
  free(b);
}

static void add_corpus(vals *s) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  static const char *names[] = {"primitive_binary",
                                "primitive_boolean_false",
                                "primitive_boolean_true",
                                "primitive_date",
                                "primitive_decimal16",
                                "primitive_decimal4",
                                "primitive_decimal8",
                                "primitive_double",
                                "primitive_float",
                                "primitive_int16",
                                "primitive_int32",
                                "primitive_int64",
                                "primitive_int8",
                                "primitive_null",
                                "primitive_string",
                                "primitive_time",
                                "primitive_timestamp",
                                "primitive_timestampntz",
                                "primitive_timestamp_nanos",
                                "primitive_timestampntz_nanos",
                                "primitive_uuid",
                                "short_string",
                                "long_string",
                                "object_nested",
                                "object_primitive",
                                "array_nested",
                                "array_primitive",
                                "object_empty",
                                "array_empty"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    char path[1024];
    uint8_t *part[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
      snprintf(path, sizeof path, "%s/variant/%s.%s", dir, names[i], k ? "value" : "metadata");
      FILE *f = fopen(path, "rb");
      if (!f) break;
      part[k] = malloc(1 << 20);
      len[k] = fread(part[k], 1, 1 << 20, f);
      fclose(f);
    }
    if (part[0] && part[1]) vals_add_raw(s, part[0], len[0], part[1], len[1]);
    free(part[0]);
    free(part[1]);
  }
}

static void make_values(vals *s, uint64_t seed, int n) {
  rng r = {seed};
  for (int i = 0; i < n; i++) {
    char *p = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&p, &len);
    if (i % 3 == 0) { /* mostly one shape, so inference finds types */
      fprintf(f,
              "{\"id\":%d,\"name\":\"n%d\",\"score\":%d.%d,\"tags\":[\"t%d\",\"u\"],\"loc\":{\"lat\":%d.25,\"z\":", i,
              i, i, i % 10, i, i % 90);
      gen_json(&r, f, 3);
      fputs("},\"extra\":", f);
      gen_json(&r, f, 1);
      fputc('}', f);
    } else {
      gen_json(&r, f, 0);
    }
    fclose(f);
    vals_add_json(s, p);
    free(p);
  }
  /* deep nesting */
  char deep[4096] = "";
  for (int i = 0; i < 60; i++) strcat(deep, i % 2 ? "[" : "{\"k\":");
  strcat(deep, "1");
  for (int i = 59; i >= 0; i--) strcat(deep, i % 2 ? "]" : "}");
  vals_add_json(s, deep);
  /* thousands of keys */
  char *p = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&p, &len);
  fputc('{', f);
  for (int i = 0; i < 3000; i++) fprintf(f, "%s\"key%05d\":%d", i ? "," : "", i, i);
  fputc('}', f);
  fclose(f);
  vals_add_json(s, p);
  free(p);
  vals_add_wide(s, &s->v[s->n - 1]);
  vals_add_json(s, "{\"id\":7,\"name\":null,\"tags\":[null,\"x\",1],\"loc\":{\"lat\":\"far\"}}");
  vals_add_wide(s, &s->v[s->n - 1]);
  vals_add_json(s, "{\"id\":\"seven\",\"tags\":{\"not\":\"a list\"},\"loc\":[1,2]}");
  vals_add_json(s, "[]");
  vals_add_json(s, "{}");
  vals_add_json(s, "{\"tags\":[]}");
  vals_add_json(s, "\"\""); /* an empty string, the only typed value of its batch */
  vals_add_json(s, "{\"name\":\"\"}");
  add_corpus(s);
}

/* every row, written with shredding `shred` (NULL: none), read back equal;
 * returns how many values landed in typed_value columns */
static int64_t roundtrip(const vals *s, const char *shred, const char *label) {
  /* every 7th row a null row */
  int64_t n = s->n + s->n / 7;
  pqt_variant *rows = calloc((size_t)n, sizeof *rows);
  char **want = calloc((size_t)n, sizeof *want);
  for (int64_t i = 0, j = 0; i < n; i++) {
    if (i % 8 == 7 || j >= s->n) {
      want[i] = strdup("NULL");
      continue;
    }
    rows[i] = s->v[j++];
    want[i] = dump_str(&rows[i]);
  }
  pqt_string out = {0};
  pqt_error e;
  pqt_status st = write_rows(rows, n, shred, &out, &e);
  CHECK_MSG(st == PQT_OK, "%s: %s", label, st == PQT_OK ? "" : e.message);
  rd x = {0};
  int64_t typed = 0;
  if (st == PQT_OK && load(&x, &out)) {
    const pqt_schema_node *g = x.s->root->children[0];
    CHECK_EQ_INT(pqt_union_which(g->logical.isset), PQT_LT_VARIANT);
    CHECK_EQ_INT(kid(g, "typed_value") != NULL, shred != NULL);
    int64_t mismatches = 0;
    for (int64_t i = 0; i < n; i++) {
      char *got = recon_row(&x);
      if (strcmp(got, want[i]) != 0 && mismatches++ < 3)
        fprintf(stderr, "  %s row %lld:\n    want %.300s\n    got  %.300s\n", label, (long long)i, want[i], got);
      free(got);
    }
    CHECK_MSG(mismatches == 0, "%s: %lld rows differ", label, (long long)mismatches);
    CHECK_MSG(!x.bad, "%s: an invalid shredding shape was written", label);
    for (int32_t l = 0; l < x.s->n_leaves; l++)
      if (strcmp(x.s->leaves[l]->name, "typed_value") == 0) typed += x.c[l].nv;
    for (int32_t l = 0; l < x.s->n_leaves; l++) CHECK_EQ_INT(x.c[l].pos, x.c[l].n);
    if (!shred) { /* unshredded: the bytes as given */
      int64_t same = 0;
      cur *cv = &x.c[kid(g, "value")->column_index];
      for (int64_t i = 0, k = 0; i < n; i++) {
        if (!rows[i].metadata) continue;
        pqt_variant back = {rows[i].metadata, rows[i].metadata_len, cv->data + cv->off[k],
                            (size_t)(cv->off[k + 1] - cv->off[k])};
        int eq = 0;
        if (pqt_variant_equal(&rows[i], &back, &eq, &e) == PQT_OK && eq && back.value_len == rows[i].value_len) same++;
        k++;
      }
      CHECK_EQ_INT(same, s->n);
    }
  }
  if (x.r) unload(&x);
  pqt_string_free(&out);
  for (int64_t i = 0; i < n; i++) free(want[i]);
  free(want);
  free(rows);
  return typed;
}

static void test_unshredded(void) {
  vals s = {0};
  make_values(&s, 1, 300);
  roundtrip(&s, NULL, "unshredded");
  vals_free(&s);
}

static void test_shredded_given(void) {
  vals s = {0};
  make_values(&s, 2, 300);
  roundtrip(&s, "message s { optional int64 typed_value; }", "int64");
  roundtrip(&s, "message s { optional binary typed_value (STRING); }", "string");
  roundtrip(&s,
            "message s { optional group typed_value { optional int32 id; optional binary name (STRING);"
            " optional int64 score (DECIMAL(18,1)); optional group tags (LIST) { repeated group list {"
            " optional binary element (STRING); } } optional group loc { optional int32 lat (DECIMAL(9,2)); } } }",
            "object");
  roundtrip(&s,
            "message s { optional group typed_value (LIST) { repeated group list { optional group element {"
            " optional int64 a; optional boolean b; } } } }",
            "list of objects");
  vals_free(&s);
}

static void test_shredded_inferred(void) {
  vals s = {0};
  make_values(&s, 3, 400);
  for (int depth = 0; depth <= 6; depth++) {
    pqt_string text = {0};
    pqt_error e;
    CHECK_OK(pqt_variant_shred_infer(s.v, s.n, depth, 0, NULL, &text, &e));
    char label[32];
    snprintf(label, sizeof label, "depth %d", depth);
    if (depth == 0) CHECK_EQ_INT(text.len, 0);
    else CHECK(text.len > 0);
    if (depth <= 2) printf("  %s: %.400s\n", label, text.data ? text.data : "");
    int64_t typed = roundtrip(&s, text.len ? text.data : NULL, label);
    if (depth > 0) CHECK(typed > 0);
    pqt_string_free(&text);
  }
  vals_free(&s);
}

/* Every value type of the corpus shredded as its own type: all in typed_value. */
static void test_every_primitive_typed(void) {
  static const char *types[] = {"boolean",
                                "int32 typed_value (INTEGER(8,true))",
                                "int32 typed_value (INTEGER(16,true))",
                                "int32",
                                "int64",
                                "float",
                                "double",
                                "int32 typed_value (DECIMAL(9,2))",
                                "int64 typed_value (DECIMAL(18,2))",
                                "fixed_len_byte_array(16) typed_value (DECIMAL(38,2))",
                                "int32 typed_value (DATE)",
                                "int64 typed_value (TIME(MICROS,false))",
                                "int64 typed_value (TIMESTAMP(MICROS,true))",
                                "int64 typed_value (TIMESTAMP(MICROS,false))",
                                "int64 typed_value (TIMESTAMP(NANOS,true))",
                                "int64 typed_value (TIMESTAMP(NANOS,false))",
                                "binary",
                                "binary typed_value (STRING)",
                                "fixed_len_byte_array(16) typed_value (UUID)",
                                "binary typed_value (DECIMAL(38,2))"};
  vals s = {0};
  add_corpus(&s);
  if (s.n == 0) {
    printf("  corpus absent: skipped\n");
    pqt_t_current_skipped = 1;
    return;
  }
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
    char shred[256];
    if (strchr(types[i], ' ')) snprintf(shred, sizeof shred, "message s { optional %s; }", types[i]);
    else snprintf(shred, sizeof shred, "message s { optional %s typed_value; }", types[i]);
    CHECK_MSG(roundtrip(&s, shred, types[i]) > 0, "%s: nothing shredded", types[i]);
  }
  vals_free(&s);
}

/* One row's value breaks the encoding: the write fails naming row and column. */
static void test_invalid_value_fails(void) {
  vals s = {0};
  for (int i = 0; i < 10; i++) vals_add_json(&s, "{\"a\":1}");
  uint8_t bad[] = {0x02, 0x05, 0x00}; /* an object claiming 5 fields */
  s.v[6].value = bad;
  s.v[6].value_len = sizeof bad;
  for (int k = 0; k < 2; k++) {
    pqt_string out = {0};
    pqt_error e;
    pqt_status st =
        write_rows(s.v, s.n, k ? "message s { optional group typed_value { optional int32 a; } }" : NULL, &out, &e);
    CHECK(st != PQT_OK);
    if (st != PQT_OK) {
      printf("  error: %s\n", e.message);
      CHECK(strstr(e.message, "row 6") != NULL);
      CHECK(strstr(e.message, "column v") != NULL);
    }
    pqt_string_free(&out);
  }
  s.v[6] = s.v[5];
  vals_free(&s);
}

static void test_bad_shredding_schema(void) {
  vals s = {0};
  vals_add_json(&s, "1");
  static const char *bad[] = {"message s { optional int64 x; }", "message s { optional int96 typed_value; }",
                              "message s { optional binary typed_value (JSON); }",
                              "message s { optional group typed_value (LIST) { optional int32 x; } }", "message s {"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    pqt_string out = {0};
    pqt_error e;
    pqt_status st = write_rows(s.v, s.n, bad[i], &out, &e);
    CHECK_MSG(st != PQT_OK, "%s accepted", bad[i]);
    if (st != PQT_OK) printf("  %s: %s\n", bad[i], e.message);
    pqt_string_free(&out);
  }
  vals_free(&s);
}

/* typed_value columns get statistics as any column: min/max of the ints. */
static void test_typed_statistics(void) {
  vals s = {0};
  for (int i = 0; i < 100; i++) {
    char j[64];
    snprintf(j, sizeof j, i % 10 == 3 ? "{\"a\":\"x%d\"}" : "{\"a\":%d}", i - 20);
    vals_add_json(&s, j);
  }
  pqt_string out = {0};
  pqt_error e;
  CHECK_OK(write_rows(s.v, s.n, "message s { optional group typed_value { optional int64 a; } }", &out, &e));
  pqt_reader *r;
  if (out.data && pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e) == PQT_OK) {
    int32_t col = -1;
    for (int32_t l = 0; l < r->schema->n_leaves; l++)
      if (strcmp(r->schema->leaves[l]->dotted_path, "v.typed_value.a.typed_value") == 0) col = l;
    CHECK(col >= 0);
    if (col >= 0) {
      const pqt_column_metadata *md = &r->md.row_groups.items[0].columns.items[col].meta_data;
      CHECK(PQT_HAS_FIELD(&md->statistics, statistics, min_value));
      int64_t mn = 0, mx = 0;
      if (md->statistics.min_value.len == 8) memcpy(&mn, md->statistics.min_value.ptr, 8);
      if (md->statistics.max_value.len == 8) memcpy(&mx, md->statistics.max_value.ptr, 8);
      CHECK_EQ_INT(mn, -20);
      CHECK_EQ_INT(mx, 79);
      CHECK_EQ_INT(md->statistics.null_count, 10);
    }
    pqt_reader_close(r);
  }
  pqt_string_free(&out);
  vals_free(&s);
}

/* ---- shredding a VARIANT inside a struct ------------------------------------ */

/* rows written as s.v (s null every 5th row, v null every 7th), shredded by
 * the variant_shredding entry naming "s.v"; read back through the reader
 * (reconstructed), every row equal. Returns the typed_value leaves written. */
static void nested_roundtrip(const vals *s, const char *shred, const char *label) {
  int64_t n = s->n;
  pqt_variant *rows = calloc((size_t)n, sizeof *rows);
  for (int64_t i = 0; i < n; i++)
    if (i % 7 != 6) rows[i] = s->v[i];
  vin x;
  vin_make(&x, rows, n);
  /* wrap v in a nullable struct s */
  struct ArrowSchema ss = {.format = "+s",
                           .name = "s",
                           .flags = ARROW_FLAG_NULLABLE,
                           .n_children = 1,
                           .children = x.root_kids,
                           .release = pqt_vt_noop_schema_release};
  struct ArrowSchema *root_kids[1] = {&ss};
  struct ArrowSchema root = {
      .format = "+s", .name = "", .n_children = 1, .children = root_kids, .release = pqt_vt_noop_schema_release};
  uint8_t *svalid = calloc((size_t)n / 8 + 1, 1);
  int64_t snulls = 0;
  for (int64_t i = 0; i < n; i++) {
    if (i % 5 == 4) snulls++;
    else svalid[i / 8] |= (uint8_t)(1u << (i % 8));
  }
  const void *sbufs[1] = {svalid};
  struct ArrowArray sa = {.length = n,
                          .null_count = snulls,
                          .n_buffers = 1,
                          .buffers = sbufs,
                          .n_children = 1,
                          .children = x.aroot_kids,
                          .release = pqt_vt_noop_array_release};
  struct ArrowArray *aroot_kids[1] = {&sa};
  const void *rbufs[1] = {NULL};
  struct ArrowArray aroot = {
      .length = n, .n_buffers = 1, .buffers = rbufs, .n_children = 1, .children = aroot_kids, .release = pqt_vt_noop_array_release};
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.page_row_limit = 50;
  pqt_variant_shredding sh = {.struct_size = sizeof sh, .column = "s.v", .typed_value = shred};
  o.variant_shredding = &sh;
  o.n_variant_shredding = 1;
  pqt_write_schema ws = {.struct_size = sizeof ws, .arrow = &root};
  pqt_writer *w;
  pqt_string out = {0};
  pqt_error e;
  pqt_status st = pqt_writer_open_buffer(&w, &out, &ws, &o, &e);
  if (st == PQT_OK) {
    st = pqt_writer_write_batch(w, &aroot, &e);
    if (st == PQT_OK) st = pqt_writer_close(w, &e);
    else pqt_writer_discard(w);
  }
  CHECK_MSG(st == PQT_OK, "%s: %s", label, st == PQT_OK ? "" : e.message);
  if (st == PQT_OK) {
    /* the stored group has typed_value */
    pqt_read_options ro;
    pqt_read_options_init(&ro);
    ro.variant_shredded = 1;
    pqt_reader *r = NULL;
    CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, &ro, &e));
    struct ArrowArrayStream stream;
    CHECK_OK(pqt_reader_get_stream(r, NULL, &stream, &e));
    struct ArrowSchema sch;
    CHECK(stream.get_schema(&stream, &sch) == 0);
    const struct ArrowSchema *gv = sch.children[0]->children[0];
    int has_typed = 0;
    for (int64_t k = 0; k < gv->n_children; k++) has_typed |= strcmp(gv->children[k]->name, "typed_value") == 0;
    CHECK_MSG(has_typed, "%s: s.v was not shredded", label);
    sch.release(&sch);
    stream.release(&stream);
    pqt_reader_close(r);
    /* reconstructed */
    pqt_read_options_init(&ro);
    CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, &ro, &e));
    CHECK_OK(pqt_reader_get_stream(r, NULL, &stream, &e));
    int64_t row = 0, bad = 0;
    struct ArrowArray b;
    while (stream.get_next(&stream, &b) == 0 && b.release) {
      const struct ArrowArray *as = b.children[0], *av = as->children[0];
      const struct ArrowArray *am = av->children[0], *aval = av->children[1];
      for (int64_t i = 0; i < b.length; i++, row++) {
        const uint8_t *sv = as->null_count ? as->buffers[0] : NULL, *vv = av->null_count ? av->buffers[0] : NULL;
        int64_t si = as->offset + i, vi = av->offset + i;
        bool s_ok = !sv || ((sv[si >> 3] >> (si & 7)) & 1), v_ok = !vv || ((vv[vi >> 3] >> (vi & 7)) & 1);
        bool want_s = row % 5 != 4, want_v = want_s && rows[row].metadata;
        if (s_ok != want_s || (want_s && v_ok != want_v)) {
          if (bad++ < 3) fprintf(stderr, "  %s row %lld: s %d v %d\n", label, (long long)row, s_ok, v_ok);
          continue;
        }
        if (!want_v) continue;
        const int32_t *mo = am->buffers[1], *vo = aval->buffers[1];
        int64_t mi = am->offset + vi, xi = aval->offset + vi;
        pqt_variant got = {(const uint8_t *)am->buffers[2] + mo[mi], (size_t)(mo[mi + 1] - mo[mi]),
                           (const uint8_t *)aval->buffers[2] + vo[xi], (size_t)(vo[xi + 1] - vo[xi])};
        int eq = 0;
        if (pqt_variant_equal(&rows[row], &got, &eq, &e) != PQT_OK || !eq) {
          if (bad++ < 3) {
            char *a = dump_str(&rows[row]), *g = dump_str(&got);
            fprintf(stderr, "  %s row %lld:\n    want %.300s\n    got  %.300s\n", label, (long long)row, a, g);
            free(a);
            free(g);
          }
        }
      }
      b.release(&b);
    }
    CHECK_MSG(bad == 0 && row == n, "%s: %lld rows differ, %lld of %lld read", label, (long long)bad, (long long)row,
              (long long)n);
    stream.release(&stream);
    pqt_reader_close(r);
  }
  free(svalid);
  vin_free(&x);
  pqt_string_free(&out);
  free(rows);
}

static void test_nested_shredded(void) {
  vals s = {0};
  make_values(&s, 5, 300);
  nested_roundtrip(&s, "message s { optional int64 typed_value; }", "s.v int64");
  nested_roundtrip(&s,
                   "message s { optional group typed_value { optional int32 id; optional binary name (STRING);"
                   " optional group loc { optional int32 lat (DECIMAL(9,2)); } } }",
                   "s.v object");
  nested_roundtrip(&s,
                   "message s { optional group typed_value (LIST) { repeated group list { optional group element {"
                   " optional int64 a; optional boolean b; } } } }",
                   "s.v list of objects");
  vals_free(&s);
}

RUN_TESTS("variant_write", {"unshredded", test_unshredded}, {"shredded_given", test_shredded_given},
          {"shredded_inferred", test_shredded_inferred}, {"every_primitive_typed", test_every_primitive_typed},
          {"invalid_value_fails", test_invalid_value_fails}, {"bad_shredding_schema", test_bad_shredding_schema},
          {"typed_statistics", test_typed_statistics}, {"nested_shredded", test_nested_shredded})
