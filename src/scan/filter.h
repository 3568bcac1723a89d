/*
 * scan/filter.h: a filter expression bound to a file's schema, evaluated
 * over decoded batches (scan/filter.c), pruning row groups by statistics
 * and dictionaries (scan/prune.c), and the scan state that the stream and
 * the text output share (scan/scan.c).
 */
#ifndef PQT_SCAN_FILTER_H
#define PQT_SCAN_FILTER_H

#include "scan/row_group.h"
#include "scan/expr_internal.h"

typedef enum pqt_bkind {
  PQT_B_CONST = 0, /* cval */
  PQT_B_CMP,       /* leaf op lits[0] */
  PQT_B_IN,        /* leaf = any of lits */
  PQT_B_ISNULL,    /* node IS [NOT] NULL (negate) */
  PQT_B_LIKE,      /* leaf LIKE pat */
  PQT_B_AND,
  PQT_B_OR,
  PQT_B_NOT,
  PQT_B_GEO /* the leaf's envelope intersects the box lits[0..3].d (xmin, ymin, xmax, ymax); op: pqt_geo_edges */
} pqt_bkind;

/* Comparison ops: pqt_cmp_op, plus two that ignore the value (a literal
 * no value can equal, or beyond the column's range). */
enum { PQT_OP_NEVER = 6, PQT_OP_ALWAYS = 7 };

typedef enum pqt_dom { PQT_DOM_INT = 0, PQT_DOM_FLOAT, PQT_DOM_BYTES } pqt_dom;

/* How a stored value is read into its domain. */
typedef enum pqt_vx {
  PQT_VX_BOOL = 0,
  PQT_VX_I32,
  PQT_VX_U32,
  PQT_VX_I64,
  PQT_VX_U64,
  PQT_VX_INT96,
  PQT_VX_DEC_FLBA,
  PQT_VX_DEC_BA,
  PQT_VX_FLOAT,
  PQT_VX_DOUBLE,
  PQT_VX_HALF,
  PQT_VX_FLBA,
  PQT_VX_BA
} pqt_vx;

typedef struct pqt_blit {
  __int128 i;
  double d;
  const uint8_t *b;
  size_t n;
} pqt_blit;

typedef struct pqt_bound pqt_bound;
struct pqt_bound {
  pqt_bkind kind;
  int op;
  bool negate;
  bool cval;
  const pqt_schema_node *node; /* the column (a leaf, or a group for ISNULL) */
  int32_t leaf;                /* leaf decoded for node (its own, or one under a group) */
  pqt_dom dom;
  pqt_vx vx;
  size_t width; /* FLBA width */
  pqt_blit *lits;
  int32_t n_lits;
  const uint8_t *pat;
  size_t pat_len;
  pqt_bound *a, *b;
  /* variant_get (scan/expr_variant.c): node is the VARIANT group, dom/vx
   * those of the target type, the leaf array built per batch */
  const char *vpath;    /* NUL-terminated; NULL for a plain column */
  int32_t vtype;        /* pqt_variant_target */
  pqt_bound *shadow;    /* the same predicate on the path's shredded typed_value leaf (NULL: none) */
  const int32_t *vnull; /* leaves (value columns) that must be all null in a row group for shadow to prune */
  int32_t n_vnull;
};

typedef struct pqt_filter {
  pqt_arena arena;
  const pqt_allocator *alloc;
  const pqt_reader *r;
  pqt_bound *root;
  uint8_t *leaves; /* per leaf: 1 when the predicate reads it */
  int32_t n_leaves;
} pqt_filter;

/* Bind e to r's schema. user_sel (may be NULL): the projection, so that a
 * group tested for NULL reads a leaf already projected when there is one. */
pqt_status pqt_filter_bind(const pqt_reader *r, const pqt_expr *e, const uint8_t *user_sel, const pqt_allocator *alloc,
                           pqt_filter **out, pqt_error *err);
void pqt_filter_free(pqt_filter *f);

/* Evaluate over a decoded batch (leaves in the Parquet layout, before the
 * Arrow conversion): sel[i] = 1 where the predicate is true. */
pqt_status pqt_filter_eval(const pqt_filter *f, const pqt_row_group_data *d, uint8_t *sel, int64_t *n_true,
                           pqt_error *err);
/* Evaluate one leaf predicate over an array of that leaf (a dictionary):
 * *any = some slot satisfies it. */
pqt_status pqt_filter_eval_leaf(const pqt_bound *b, const pqt_array *leaf, bool *any, const pqt_allocator *alloc,
                                pqt_error *err);

/* Keep the rows with sel[i] != 0 (n_sel of them) in every field of d. */
pqt_status pqt_batch_select(const pqt_allocator *alloc, pqt_row_group_data *d, const uint8_t *sel, int64_t n_sel,
                            pqt_error *err);
/* Drop from d the fields and struct children with no leaf in user_sel. */
pqt_status pqt_batch_project(const pqt_allocator *alloc, pqt_row_group_data *d, const uint8_t *user_sel,
                             pqt_error *err);

/* Read value i of a leaf array / raw bytes into the domain. */
__int128 pqt_vx_int(pqt_vx vx, const uint8_t *p, size_t n);
double pqt_vx_float(pqt_vx vx, const uint8_t *p);
/* Bytes of one value of kind vx (flba_width for DEC_FLBA), 0 for the kinds
 * of any length (BA, FLBA, DEC_BA). */
size_t pqt_vx_width(pqt_vx vx, size_t flba_width);
int pqt_dom_cmp_int(__int128 a, __int128 b);
int pqt_dom_cmp_float(double a, double b);
int pqt_dom_cmp_bytes(const uint8_t *a, size_t an, const uint8_t *b, size_t bn);

/* Whether comparison operator op (PQT_CMP_*, PQT_OP_ALWAYS) holds of a
 * three-way result c (< 0, 0, > 0): the row filter and the dataset's
 * partition pruning decide with this one function. */
static inline bool pqt_cmp_holds(int op, int c) {
  switch (op) {
    case PQT_CMP_EQ: return c == 0;
    case PQT_CMP_NE: return c != 0;
    case PQT_CMP_LT: return c < 0;
    case PQT_CMP_LE: return c <= 0;
    case PQT_CMP_GT: return c > 0;
    case PQT_CMP_GE: return c >= 0;
    case PQT_OP_ALWAYS: return true;
    default: return false;
  }
}
bool pqt_like_match(const uint8_t *pat, size_t pn, const uint8_t *s, size_t sn);

/* Row-group pruning (scan/prune.c): *skip = 1 (statistics) or 2
 * (dictionary) when no row of group g can satisfy the predicate; 0 keeps it.
 * Reads a dictionary page only when the statistics keep the group. */
pqt_status pqt_filter_prune(const pqt_filter *f, pqt_reader *r, int32_t g, int *skip, pqt_error *err);

/* ---- spatial predicates (scan/expr_geo.c, scan/prune_geo.c) ---- */
/* Bind PQT_EK_GEO node e to b (whose node and leaf are bound): the column must
 * be GEOMETRY or GEOGRAPHY; fills the query box. *never: the query geometry
 * is empty (no row can intersect it). */
pqt_status pqt_geo_bind(const pqt_expr *e, pqt_bound *b, pqt_arena *arena, bool *never, pqt_error *err);
/* t[i] = row i's own envelope intersects the box, f[i] = it does not (valid
 * rows), both 0 for nulls; an invalid WKB is an error naming the row. */
pqt_status pqt_geo_eval(const pqt_bound *b, const pqt_array *a, int64_t n, uint8_t *t, uint8_t *f, pqt_error *err);
/* Row group g's GeospatialStatistics box does not intersect the query box. */
bool pqt_geo_prune_skip(const pqt_reader *r, int32_t g, const pqt_bound *b);
/* Page pruning (scan/page_prune.c): can no row of page `page` (its
 * ColumnIndex entry in ci) of leaf predicate b's column in group g satisfy
 * b? The same trust rules as the chunk's statistics (scan/prune.c). */
bool pqt_filter_page_excludes(const pqt_reader *r, int32_t g, const pqt_bound *b, const pqt_column_index *ci,
                              int32_t page);

/* ---- variant_get (scan/expr_variant.c) ---- */
/* The values of variant predicate b over the batch's VARIANT group array
 * (reconstructed or stored shredded) as a leaf array in b's vx layout:
 * null where variant_get is SQL NULL. */
pqt_status pqt_vget_materialise(const pqt_bound *b, const pqt_array *group, const pqt_allocator *alloc,
                                pqt_array **out, pqt_error *err);
/* The shredded typed_value leaf of path under VARIANT group node: *leaf
 * NULL when the path is not shredded down to a leaf through object fields;
 * vnull (arena) the value leaves on the way. */
pqt_status pqt_vget_shredded_leaf(const pqt_schema_node *group, const char *path, pqt_arena *arena,
                                  const pqt_schema_node **leaf, int32_t **vnull, int32_t *n_vnull, pqt_error *err);
/* The bound to prune row group g (and its pages) with for variant predicate
 * b: b->shadow when every value column of b->vnull is all null in g by its
 * statistics, else NULL (nothing may be pruned). */
const pqt_bound *pqt_vget_prune_bound(const pqt_reader *r, int32_t g, const pqt_bound *b);

/* ---- the scan state (scan/scan.c) ---- */
typedef struct pqt_count_io {
  pqt_io inner;
  uint64_t *bytes;
} pqt_count_io;

typedef struct pqt_scan {
  pqt_reader *r;
  pqt_filter *filter;      /* NULL without a predicate */
  const uint8_t *user_sel; /* the projection (borrowed) */
  uint8_t *read_sel;       /* projection + the predicate's leaves */
  pqt_scan_stats stats;
  pqt_scan_stats *out; /* the caller's (options), may be NULL */
  pqt_io saved;
  pqt_count_io wrap;
  int io_depth;
  /* selective reads (scan/ranged.c): the caller's row ranges, and the
   * first row of each row group in the file */
  const pqt_row_span *spans;
  int32_t n_spans;
  int64_t *group_first;
  /* the rows of the next row group pqt_sel_readahead worked out, taken by
   * pqt_sel_cursor_open of that row group (scan/ranged.c); NULL when none */
  struct pqt_sel_ahead *ahead;
} pqt_scan;

pqt_status pqt_scan_init(pqt_scan *s, pqt_reader *r, const pqt_scan_options *opts, const uint8_t *user_sel,
                         pqt_error *err);
void pqt_scan_free(pqt_scan *s);
/* Drop s->ahead (scan/ranged.c; pqt_scan_free calls it). */
void pqt_sel_ahead_free(pqt_scan *s);
/* Count bytes requested from the reader's source between begin and end. */
void pqt_scan_io_begin(pqt_scan *s);
void pqt_scan_io_end(pqt_scan *s);
/* Decide whether to read row group g (counts it). */
pqt_status pqt_scan_group(pqt_scan *s, int32_t g, bool *read, pqt_error *err);
/* After row group g was read: its decoded data pages. */
void pqt_scan_group_done(pqt_scan *s, int32_t g, int64_t pages);
/* Apply the predicate to a batch and drop the predicate-only columns. */
pqt_status pqt_scan_batch(pqt_scan *s, pqt_row_group_data *d, pqt_error *err);
/* Rows handed out (text output with a limit counts what it wrote). */
void pqt_scan_rows(pqt_scan *s, int64_t n);
void pqt_scan_publish(pqt_scan *s);

#endif
