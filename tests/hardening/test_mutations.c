/*
 * Seeded mutation test of the whole reader (issue 5).
 *
 * Sources: tests/fixtures/seed004_*.parquet and every corpus file
 * ($PARQUET_TESTING_DIR) of at most SOURCE_MAX_BYTES, sorted by path. Each
 * source is analysed once: where its footer lies, and its pages (headers
 * and data), found by walking page headers from offset 4; the footer and
 * every page header are walked as Thrift compact structs to find the bytes
 * of every integer field and list header.
 *
 * N_MUTANTS mutated copies are made with a fixed seed (splitmix64): bytes
 * flipped in the footer, in a page header, in page data, or anywhere;
 * truncations at random offsets; and lengths inflated in place (the footer
 * length, integer fields of the footer and page headers such as page sizes,
 * num_values, num_rows and offsets, and list counts), each rewritten with
 * the same number of bytes (non-canonical varints) so nothing else moves.
 * Every page boundary of the smallest multi-page sources is also cut, both
 * as a plain truncation and with the original footer appended.
 *
 * Every mutant is read every way (fuzz/fuzz_read_file.c:
 * open, schema/metadata text, an Arrow stream of every row group with each
 * batch validated, JSONL and CSV) and must
 *   - not crash (ASan/UBSan abort the test) and fail only with a "bad
 *     file" status and a message;
 *   - finish within READ_TIME_LIMIT_S seconds of wall time;
 *   - never ask for a single allocation above 256 MiB (the allocator refuses
 *     those; a refusal is counted and fails the test), and keep its peak of
 *     live bytes under PEAK_FIXED + PEAK_PER_BYTE x the input size. The
 *     bound follows from the page reader's limits: a page may expand at most
 *     64x plus a 1 MiB floor (page_reader.c), and a chunk's decoded values,
 *     levels and the Arrow export each hold about one expanded copy.
 *   - free everything (checked by the allocator after close).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "harness.h"

#define LLVMFuzzerTestOneInput pqt_fuzz_entry_read_file_unused
#include "../../fuzz/fuzz_read_file.c"
#undef LLVMFuzzerTestOneInput

#include "meta/footer.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

#define N_MUTANTS         10000
#define SOURCE_MAX_BYTES  16384
#define READ_TIME_LIMIT_S 2.0
#define MAX_SINGLE_ALLOC  ((size_t)256 << 20)
#define PEAK_FIXED        ((size_t)64 << 20)
#define PEAK_PER_BYTE     256u

/* ---- PRNG ---------------------------------------------------------- */

static uint64_t rng_state = 0x5eed0004c0ffee11ull;
static uint64_t rng_next(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static size_t rng_below(size_t n) { return n ? (size_t)(rng_next() % n) : 0; }

/* ---- Thrift compact walker: where the integers and list headers are ---- */

typedef struct int_field {
  uint32_t pos, len; /* the varint's bytes */
  int short_list;    /* a short list header: the size is its high nibble */
  int zz;            /* a zigzag integer (i16/i32/i64), else a raw length/count */
} int_field;

typedef struct walk {
  const uint8_t *p;
  size_t len, pos;
  int_field *fields;
  size_t n_fields, cap;
  int depth;
} walk;

static void walk_note_kind(walk *w, size_t pos, size_t len, int short_list, int zz) {
  if (w->n_fields == w->cap) {
    w->cap = w->cap ? w->cap * 2 : 64;
    w->fields = realloc(w->fields, w->cap * sizeof *w->fields);
  }
  w->fields[w->n_fields].pos = (uint32_t)pos;
  w->fields[w->n_fields].len = (uint32_t)len;
  w->fields[w->n_fields].short_list = short_list;
  w->fields[w->n_fields].zz = zz;
  w->n_fields++;
}
static void walk_note(walk *w, size_t pos, size_t len) { walk_note_kind(w, pos, len, 0, 0); }

static int walk_varint(walk *w, uint64_t *v, int note) {
  size_t start = w->pos;
  uint64_t x = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (w->pos >= w->len) return 0;
    uint8_t b = w->p[w->pos++];
    x |= (uint64_t)(b & 0x7f) << (shift < 64 ? shift : 63);
    if (!(b & 0x80)) {
      if (v) *v = x;
      if (note) walk_note(w, start, w->pos - start);
      return 1;
    }
  }
  return 0;
}

static int walk_struct(walk *w);

static int walk_value(walk *w, int type) {
  uint64_t n;
  switch (type) {
    case 1:
    case 2: return 1; /* bool in a struct field: in the header */
    case 3:
      if (w->pos >= w->len) return 0;
      w->pos++;
      return 1;
    case 4:
    case 5:
    case 6: {
      size_t start = w->pos;
      if (!walk_varint(w, NULL, 0)) return 0;
      walk_note_kind(w, start, w->pos - start, 0, 1);
      return 1;
    }
    case 7:
      if (w->len - w->pos < 8) return 0;
      w->pos += 8;
      return 1;
    case 8:
      if (!walk_varint(w, &n, 1) || n > w->len - w->pos) return 0;
      w->pos += (size_t)n;
      return 1;
    case 9:
    case 10: {
      if (w->pos >= w->len) return 0;
      size_t hpos = w->pos;
      uint8_t h = w->p[w->pos++];
      int et = h & 0x0f;
      n = h >> 4;
      if (n == 15) {
        if (!walk_varint(w, &n, 1)) return 0;
      } else {
        walk_note_kind(w, hpos, 1, 1, 0); /* short form: the size nibble */
      }
      if (n > w->len) return 0;
      for (uint64_t i = 0; i < n; i++) {
        if (et == 1 || et == 2) {
          if (w->pos >= w->len) return 0;
          w->pos++;
        } else if (!walk_value(w, et)) {
          return 0;
        }
      }
      return 1;
    }
    case 11: {
      if (!walk_varint(w, &n, 1) || n > w->len) return 0;
      if (n == 0) return 1;
      if (w->pos >= w->len) return 0;
      uint8_t kv = w->p[w->pos++];
      for (uint64_t i = 0; i < n; i++)
        if (!walk_value(w, kv >> 4) || !walk_value(w, kv & 0x0f)) return 0;
      return 1;
    }
    case 12: return walk_struct(w);
    default: return 0;
  }
}

static int walk_struct(walk *w) {
  if (++w->depth > 64) return 0;
  for (;;) {
    if (w->pos >= w->len) return 0;
    uint8_t h = w->p[w->pos++];
    if (h == 0) break;
    if ((h >> 4) == 0 && !walk_varint(w, NULL, 0)) return 0;
    if (!walk_value(w, h & 0x0f)) return 0;
  }
  w->depth--;
  return 1;
}

/* Rewrite the field's varint in place with about `v`, keeping its length
 * (continuation bytes pad a small value; a value that does not fit is
 * saturated). For a short list header only the size nibble changes. */
static void rewrite_field(uint8_t *buf, const int_field *f, uint64_t v) {
  if (f->short_list) {
    buf[f->pos] = (uint8_t)((v > 14 ? 14 : v) << 4 | (buf[f->pos] & 0x0f));
    return;
  }
  uint64_t maxv = f->len >= 10 ? UINT64_MAX : ((uint64_t)1 << (7 * f->len)) - 1;
  if (v > maxv) v = maxv;
  for (uint32_t i = 0; i < f->len; i++) {
    uint8_t b = (uint8_t)(v & 0x7f);
    v >>= 7;
    if (i + 1 < f->len) b |= 0x80;
    buf[f->pos + i] = b;
  }
}

/* ---- sources ------------------------------------------------------- */

typedef struct page_loc {
  uint32_t hdr, data, end; /* header start, data start, data end */
} page_loc;

typedef struct source {
  char name[512];
  uint8_t *data;
  size_t len;
  size_t footer_start, footer_end; /* FileMetaData bytes [start, end) */
  page_loc *pages;
  size_t n_pages;
  int_field *footer_fields; /* positions relative to the file */
  size_t n_footer_fields;
  int_field *page_fields;
  size_t n_page_fields;
} source;

static source *sources;
static size_t n_sources, cap_sources;

static void analyse(source *s) {
  s->footer_start = s->footer_end = 0;
  if (s->len >= 12 && memcmp(s->data + s->len - 4, "PAR1", 4) == 0) {
    uint32_t fl = pqt_load_u32le(s->data + s->len - 8);
    if (fl <= s->len - 12) {
      s->footer_start = s->len - 8 - fl;
      s->footer_end = s->len - 8;
      walk w = {s->data, s->footer_end, s->footer_start, NULL, 0, 0, 0};
      walk_struct(&w);
      s->footer_fields = w.fields;
      s->n_footer_fields = w.n_fields;
    }
  }
  size_t limit = s->footer_start ? s->footer_start : s->len;
  size_t pos = 4, cap = 0;
  walk pw = {s->data, limit, 0, NULL, 0, 0, 0};
  while (pos < limit) {
    pqt_page_header ph;
    size_t used = 0;
    if (pqt_thrift_decode(&pqt_desc_page_header, s->data + pos, limit - pos, &used, NULL, &ph, NULL) != PQT_OK) break;
    if (ph.compressed_page_size < 0 || (uint64_t)ph.compressed_page_size > limit - pos - used) break;
    if (s->n_pages == cap) {
      cap = cap ? cap * 2 : 16;
      s->pages = realloc(s->pages, cap * sizeof *s->pages);
    }
    page_loc *pl = &s->pages[s->n_pages++];
    pl->hdr = (uint32_t)pos;
    pl->data = (uint32_t)(pos + used);
    pl->end = (uint32_t)(pos + used + (size_t)ph.compressed_page_size);
    pw.pos = pos;
    pw.len = pos + used;
    pw.depth = 0;
    walk_struct(&pw);
    pos = pl->end;
  }
  s->page_fields = pw.fields;
  s->n_page_fields = pw.n_fields;
}

static void add_source(const char *path, const char *name) {
  size_t len = 0;
  uint8_t *data = pqt_test_read_file(path, &len);
  if (!data) return;
  if (n_sources == cap_sources) {
    cap_sources = cap_sources ? cap_sources * 2 : 64;
    sources = realloc(sources, cap_sources * sizeof *sources);
  }
  source *s = &sources[n_sources++];
  memset(s, 0, sizeof *s);
  snprintf(s->name, sizeof s->name, "%s", name);
  s->data = data;
  s->len = len;
  analyse(s);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Collect corpus files (relative paths) of at most max_bytes under dir. */
static void collect(const char *root, const char *rel, char ***out, size_t *n, size_t *cap, size_t max_bytes) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char relp[4096], full[8192];
    snprintf(relp, sizeof relp, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
    snprintf(full, sizeof full, "%s/%s", root, relp);
    struct stat st;
    if (stat(full, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      collect(root, relp, out, n, cap, max_bytes);
    } else if (S_ISREG(st.st_mode) && (size_t)st.st_size <= max_bytes &&
               (strstr(e->d_name, ".parquet") || strstr(e->d_name, ".encrypted"))) {
      if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 128;
        *out = realloc(*out, *cap * sizeof **out);
      }
      (*out)[(*n)++] = strdup(relp);
    }
  }
  closedir(d);
}

static void load_sources(void) {
  if (sources) return;
  static const char *fixtures[] = {"seed004_simple.parquet", "seed004_nested.parquet"};
  for (size_t i = 0; i < 2; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fixtures/%s", PQT_SOURCE_DIR, fixtures[i]);
    add_source(path, fixtures[i]);
  }
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char **names = NULL;
  size_t n = 0, cap = 0;
  collect(dir, "", &names, &n, &cap, SOURCE_MAX_BYTES);
  if (n) qsort(names, n, sizeof *names, cmp_str);
  for (size_t i = 0; i < n; i++) {
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    add_source(path, names[i]);
    free(names[i]);
  }
  free(names);
}

/* ---- reading one mutant ---------------------------------------------- */

typedef struct stats {
  uint64_t reads, opened, fully_read, refused_allocs;
  double worst_time;
  char worst_time_name[600];
  double worst_ratio;
  size_t worst_peak, worst_peak_input;
  char worst_peak_name[600];
} stats;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A failing mutant is written to failed-mutant-<n>.parquet in the working
 * directory (the build directory under ctest), to be replayed or kept. */
static void keep_failed(const uint8_t *data, size_t len) {
  static int n;
  char name[64];
  snprintf(name, sizeof name, "failed-mutant-%d.parquet", n++);
  FILE *f = fopen(name, "wb");
  if (f) {
    fwrite(data, 1, len, f);
    fclose(f);
    fprintf(stderr, "    kept as %s\n", name);
  }
}

static void read_mutant(stats *st, const uint8_t *data, size_t len, unsigned variant, const char *what) {
  int failed_before = pqt_t_failed_checks;
  /* an exact-size heap copy, so ASan sees any read past the end */
  uint8_t *copy = malloc(len ? len : 1);
  if (len) memcpy(copy, data, len);
  pqt_fuzz_alloc fa;
  pqt_fuzz_alloc_init(&fa);
  fa.max_single = MAX_SINGLE_ALLOC;
  double t0 = now_s();
  pqt_fuzz_read_result res = pqt_fuzz_read_file_with(copy, len, variant, &fa);
  double dt = now_s() - t0;
  free(copy);
  st->reads++;
  st->opened += res.open == PQT_OK;
  st->fully_read += res.open == PQT_OK && res.stream_errno == 0 && res.jsonl == PQT_OK;
  st->refused_allocs += fa.n_failed;
  CHECK_MSG(fa.n_failed == 0, "%s: asked for an allocation above 256 MiB (largest granted %zu)", what, fa.largest);
  if (dt > st->worst_time) {
    st->worst_time = dt;
    snprintf(st->worst_time_name, sizeof st->worst_time_name, "%s", what);
  }
  CHECK_MSG(dt <= READ_TIME_LIMIT_S, "%s: read took %.2f s", what, dt);
  size_t bound = PEAK_FIXED + PEAK_PER_BYTE * len;
  CHECK_MSG(fa.peak <= bound, "%s: peak %zu bytes for %zu input bytes (bound %zu)", what, fa.peak, len, bound);
  double ratio = len ? (double)fa.peak / (double)len : 0;
  if (fa.peak > st->worst_peak) {
    st->worst_peak = fa.peak;
    st->worst_peak_input = len;
    snprintf(st->worst_peak_name, sizeof st->worst_peak_name, "%s", what);
  }
  if (ratio > st->worst_ratio) st->worst_ratio = ratio;
  if (pqt_t_failed_checks != failed_before) keep_failed(data, len);
}

static void report(const stats *st, const char *label) {
  fprintf(stderr,
          "  %s: %llu reads, %llu opened, %llu read fully; slowest %.3f s (%s); "
          "largest peak %zu bytes for a %zu-byte input (%s); refused allocations %llu\n",
          label, (unsigned long long)st->reads, (unsigned long long)st->opened, (unsigned long long)st->fully_read,
          st->worst_time, st->worst_time_name, st->worst_peak, st->worst_peak_input, st->worst_peak_name,
          (unsigned long long)st->refused_allocs);
}

/* ---- mutations ------------------------------------------------------- */

static const int64_t interesting[] = {0,         1,
                                      -1,        2,
                                      7,         8,
                                      15,        16,
                                      127,       128,
                                      255,       4095,
                                      65535,     65536,
                                      1 << 20,   (1 << 24) + 1,
                                      1 << 28,   INT32_MAX,
                                      INT32_MIN, INT64_MAX,
                                      INT64_MIN, (int64_t)1 << 40};

/* A new value for a field whose current (decoded) value is orig. */
static int64_t interesting_value(int64_t orig) {
  switch (rng_below(4)) {
    case 0: return (int64_t)((uint64_t)orig * 2 + 1);
    case 1: return (int64_t)((uint64_t)orig + rng_below(64));
    case 2: return (int64_t)((uint64_t)orig - 1);
    default: return interesting[rng_below(sizeof interesting / sizeof interesting[0])];
  }
}

static uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

/* The field's value (zigzag-decoded for integers). */
static int64_t read_field(const uint8_t *p, const int_field *f) {
  if (f->short_list) return p[f->pos] >> 4;
  uint64_t v = 0;
  for (uint32_t i = 0; i < f->len && i < 10; i++) v |= (uint64_t)(p[f->pos + i] & 0x7f) << (7 * i);
  return f->zz ? (int64_t)((v >> 1) ^ (~(v & 1) + 1)) : (int64_t)v;
}

/* The raw varint for value v of field f. */
static uint64_t field_raw(const int_field *f, int64_t v) { return f->zz ? zigzag(v) : (uint64_t)v; }

/* In place, same length (saturated). */
static void set_field(uint8_t *buf, const int_field *f, int64_t v) {
  if (f->short_list) {
    rewrite_field(buf, f, (uint64_t)(v < 0 ? 0 : v));
    return;
  }
  rewrite_field(buf, f, field_raw(f, v));
}

static size_t put_varint(uint8_t *o, uint64_t v) {
  size_t n = 0;
  do {
    uint8_t b = (uint8_t)(v & 0x7f);
    v >>= 7;
    o[n++] = (uint8_t)(b | (v ? 0x80 : 0));
  } while (v);
  return n;
}

static void shift_offset(int64_t *off, size_t at, size_t k) {
  if (*off > (int64_t)at) *off += (int64_t)k;
}

/* Grow the varint of field f (a page-header or footer field) to hold v,
 * moving everything after it. A footer field only changes the footer
 * length; a page-header field also needs the footer re-encoded with every
 * offset past it shifted and its chunk's total_compressed_size grown.
 * Returns the new length, 0 when it cannot (then buf is unspecified). */
static size_t grow_field(const source *s, const int_field *f, int64_t v, uint8_t *buf, size_t cap) {
  uint8_t nv[10];
  size_t nl = put_varint(nv, field_raw(f, v));
  if (f->short_list || nl <= f->len) return 0;
  size_t k = nl - f->len, at = f->pos;
  if (at >= s->footer_start) {
    if (s->len + k > cap) return 0;
    memcpy(buf, s->data, at);
    memcpy(buf + at, nv, nl);
    memcpy(buf + at + nl, s->data + at + f->len, s->len - at - f->len);
    size_t n = s->len + k;
    uint32_t fl = (uint32_t)(s->footer_end - s->footer_start + k);
    memcpy(buf + n - 8, &fl, 4);
    return n;
  }
  pqt_arena arena;
  pqt_arena_init(&arena, NULL);
  pqt_file_metadata md;
  size_t n = 0;
  if (pqt_thrift_decode(&pqt_desc_file_metadata, s->data + s->footer_start, s->footer_end - s->footer_start, NULL,
                        &arena, &md, NULL) == PQT_OK) {
    for (int32_t g = 0; g < md.row_groups.n; g++) {
      pqt_row_group *rg = &md.row_groups.items[g];
      for (int32_t c = 0; c < rg->columns.n; c++) {
        pqt_column_chunk *cc = &rg->columns.items[c];
        pqt_column_metadata *cm = &cc->meta_data;
        int64_t st = cm->data_page_offset;
        if (cm->dictionary_page_offset > 0 && cm->dictionary_page_offset < st) st = cm->dictionary_page_offset;
        if ((int64_t)at >= st && (int64_t)at < st + cm->total_compressed_size) {
          cm->total_compressed_size += (int64_t)k;
          cm->total_uncompressed_size += (int64_t)k;
        }
        shift_offset(&cc->file_offset, at, k);
        shift_offset(&cc->offset_index_offset, at, k);
        shift_offset(&cc->column_index_offset, at, k);
        shift_offset(&cm->data_page_offset, at, k);
        shift_offset(&cm->index_page_offset, at, k);
        shift_offset(&cm->dictionary_page_offset, at, k);
        shift_offset(&cm->bloom_filter_offset, at, k);
      }
    }
    pqt_buf enc;
    pqt_buf_init(&enc, NULL);
    if (pqt_thrift_encode(&pqt_desc_file_metadata, &md, &enc, NULL) == PQT_OK &&
        s->footer_start + k + enc.len + 8 <= cap) {
      memcpy(buf, s->data, at);
      memcpy(buf + at, nv, nl);
      memcpy(buf + at + nl, s->data + at + f->len, s->footer_start - at - f->len);
      n = s->footer_start + k;
      memcpy(buf + n, enc.data, enc.len);
      n += enc.len;
      uint32_t fl = (uint32_t)enc.len;
      memcpy(buf + n, &fl, 4);
      memcpy(buf + n + 4, "PAR1", 4);
      n += 8;
    }
    pqt_buf_free(&enc);
  }
  pqt_arena_reset(&arena);
  return n;
}

static void flip_in(uint8_t *buf, size_t lo, size_t hi) {
  if (hi <= lo) return;
  size_t k = 1 + rng_below(4);
  for (size_t i = 0; i < k; i++) {
    size_t at = lo + rng_below(hi - lo);
    if (rng_below(2)) buf[at] ^= (uint8_t)(1u << rng_below(8));
    else buf[at] = (uint8_t)rng_next();
  }
}

/* Make mutant number i of s into buf (capacity s->len); returns its length
 * and names the mutation in what. */
static size_t mutate(const source *s, uint8_t *buf, size_t cap, char *what, size_t what_cap) {
  memcpy(buf, s->data, s->len);
  size_t len = s->len;
  const char *kind = "";
  int k = (int)rng_below(11);
  if (k == 1 || k == 2 || k == 5) {
    if (!s->n_pages) k = 0;
  }
  if ((k == 0 || k == 4 || k == 6) && !s->footer_end) k = 7;
  if (k == 4 && !s->n_footer_fields) k = 0;
  if (k == 5 && !s->n_page_fields) k = 1;
  switch (k) {
    case 0:
      kind = "footer bytes";
      flip_in(buf, s->footer_start, s->footer_end);
      break;
    case 1: {
      kind = "page header bytes";
      const page_loc *p = &s->pages[rng_below(s->n_pages)];
      flip_in(buf, p->hdr, p->data);
      break;
    }
    case 2: {
      kind = "page data bytes";
      const page_loc *p = &s->pages[rng_below(s->n_pages)];
      flip_in(buf, p->data, p->end);
      break;
    }
    case 3:
      kind = "truncated";
      len = rng_below(s->len);
      break;
    case 4: {
      kind = "footer field inflated";
      const int_field *f = &s->footer_fields[rng_below(s->n_footer_fields)];
      set_field(buf, f, interesting_value(read_field(s->data, f)));
      break;
    }
    case 5: {
      kind = "page header field inflated";
      const int_field *f = &s->page_fields[rng_below(s->n_page_fields)];
      set_field(buf, f, interesting_value(read_field(s->data, f)));
      break;
    }
    case 6: {
      kind = "footer length";
      uint32_t fl = pqt_load_u32le(s->data + s->len - 8);
      uint32_t v = (uint32_t)interesting_value((int64_t)fl);
      memcpy(buf + s->len - 8, &v, 4);
      break;
    }
    case 7:
      kind = "bytes anywhere";
      flip_in(buf, 0, s->len);
      break;
    case 8: {
      kind = "two mutations";
      flip_in(buf, 0, s->len);
      if (s->n_page_fields) {
        const int_field *f = &s->page_fields[rng_below(s->n_page_fields)];
        set_field(buf, f, interesting_value(read_field(s->data, f)));
      }
      break;
    }
    case 9:
    case 10: {
      /* grow a length or count past what its bytes can hold */
      const int_field *f = NULL;
      if (k == 9 && s->n_page_fields) f = &s->page_fields[rng_below(s->n_page_fields)];
      if (k == 10 && s->n_footer_fields) f = &s->footer_fields[rng_below(s->n_footer_fields)];
      static const int64_t big[] = {
          (int64_t)1 << 20, (int64_t)1 << 24, (int64_t)1 << 28, INT32_MAX, (int64_t)1 << 40, INT64_MAX, -1, INT32_MIN};
      int64_t v = big[rng_below(sizeof big / sizeof big[0])];
      size_t n = f ? grow_field(s, f, v, buf, cap) : 0;
      if (n) {
        kind = k == 9 ? "page header field grown" : "footer field grown";
        len = n;
      } else {
        memcpy(buf, s->data, s->len);
        kind = "bytes anywhere";
        flip_in(buf, 0, s->len);
      }
      break;
    }
  }
  snprintf(what, what_cap, "%s [%s]", s->name, kind);
  return len;
}

static void test_mutants(void) {
  load_sources();
  CHECK(n_sources >= 2);
  if (!n_sources) return;
  size_t with_pages = 0, max_len = 0;
  for (size_t i = 0; i < n_sources; i++) {
    with_pages += sources[i].n_pages > 0;
    if (sources[i].len > max_len) max_len = sources[i].len;
  }
  fprintf(stderr, "  %zu sources, %zu with pages found\n", n_sources, with_pages);
  CHECK(with_pages >= 2);
  size_t cap = 2 * max_len + 4096;
  uint8_t *buf = malloc(cap);
  stats st;
  memset(&st, 0, sizeof st);
  char what[700];
  for (int i = 0; i < N_MUTANTS; i++) {
    const source *s = &sources[(size_t)i % n_sources];
    size_t len = mutate(s, buf, cap, what, sizeof what);
    char label[760];
    snprintf(label, sizeof label, "mutant %d: %s", i, what);
    read_mutant(&st, buf, len, (unsigned)rng_next(), label);
  }
  free(buf);
  report(&st, "mutants");
  CHECK_EQ_INT(st.reads, N_MUTANTS);
  /* the mutants must exercise reading past open, not only footer checks */
  CHECK(st.opened > N_MUTANTS / 4);
  CHECK(st.fully_read > N_MUTANTS / 10);
}

/* Every page boundary of the smallest sources with several pages: cut
 * there, and cut there with the original footer appended. */
static void test_page_boundaries(void) {
  load_sources();
  stats st;
  memset(&st, 0, sizeof st);
  int files = 0;
  for (size_t i = 0; i < n_sources && files < 8; i++) {
    const source *s = &sources[i];
    if (s->n_pages < 2 || !s->footer_end) continue;
    files++;
    size_t tail = s->len - s->footer_start;
    uint8_t *buf = malloc(s->len + tail);
    for (size_t p = 0; p < s->n_pages; p++) {
      size_t cuts[3] = {s->pages[p].hdr, s->pages[p].data, s->pages[p].end};
      for (int c = 0; c < 3; c++) {
        char what[700];
        snprintf(what, sizeof what, "%s cut at %zu", s->name, cuts[c]);
        read_mutant(&st, s->data, cuts[c], (unsigned)p, what);
        memcpy(buf, s->data, cuts[c]);
        memcpy(buf + cuts[c], s->data + s->footer_start, tail);
        snprintf(what, sizeof what, "%s cut at %zu + footer", s->name, cuts[c]);
        read_mutant(&st, buf, cuts[c] + tail, (unsigned)p, what);
      }
    }
    free(buf);
  }
  report(&st, "page boundaries");
  CHECK(files >= 2);
}

int main(void) {
  static const pqt_test_case cases[] = {
      TEST_CASE(test_page_boundaries),
      TEST_CASE(test_mutants),
  };
  int rc = pqt_run_tests("mutations", cases, sizeof cases / sizeof cases[0]);
  for (size_t i = 0; i < n_sources; i++) {
    free(sources[i].data);
    free(sources[i].pages);
    free(sources[i].footer_fields);
    free(sources[i].page_fields);
  }
  free(sources);
  return rc;
}
