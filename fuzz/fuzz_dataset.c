/* libFuzzer target for datasets (src/dataset/): the input is text, line 1
 * an input (a glob, a directory or a file), line 2 a filter, the other
 * lines the paths an in-memory lister (pqt_dataset_fs) holds, each a small
 * Parquet file written once here (one of three schemas, chosen by the
 * path's length: int32 or int64 v, or a string s instead). This drives the
 * glob matcher, the Hive partition parser (escapes, the default
 * partition, type inference), schema unification, the filter rewritten
 * per file and the Arrow assembly. Invariants: opening fails with a
 * message or succeeds; with a filter that binds, the stream's rows, the
 * JSON Lines lines, the CSV records (less the header) and pqt_dataset_count
 * agree, and the plan's units hold at least those rows. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_dataset.h"
#include "parquetry_filter.h"

static pqt_string files[3];
static int ready;
/* for tests/unit/test_dataset_seeds.c: inputs that opened, and the last count */
static int ds_fuzz_opened;
static int64_t ds_fuzz_count = -1;

static int make(pqt_string *out, const char *msg, int kind) {
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message = msg;
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.row_group_rows = 3;
  pqt_writer *w;
  pqt_error e;
  if (pqt_writer_open_buffer(&w, out, &ws, &o, &e) != PQT_OK) return -1;
  for (int g = 0; g < 2; g++) {
    int64_t id[3] = {g * 3 + 0, g * 3 + 1, g * 3 + 2};
    int32_t v32[3] = {10 * g, 10 * g + 5, -7};
    int64_t v64[3] = {100 * g, 100 * g + 5, -70};
    const char *sd = "abcde";
    int32_t off[4] = {0, 1, 3, 5};
    int16_t def[3] = {1, 0, 1};
    if (pqt_writer_write_column(w, 0, 3, NULL, NULL, id, NULL, 3, &e) != PQT_OK) goto fail;
    pqt_status st = kind == 0   ? pqt_writer_write_column(w, 1, 3, def, NULL, v32, NULL, 2, &e)
                    : kind == 1 ? pqt_writer_write_column(w, 1, 3, def, NULL, v64, NULL, 2, &e)
                                : pqt_writer_write_column(w, 1, 3, def, NULL, sd, off, 2, &e);
    if (st != PQT_OK || pqt_writer_flush_row_group(w, &e) != PQT_OK) goto fail;
  }
  return pqt_writer_close(w, &e) == PQT_OK ? 0 : -1;
fail:
  pqt_writer_discard(w);
  return -1;
}

typedef struct memfs {
  char **paths;
  size_t n;
} memfs;

static pqt_status fs_open(void *ctx, const char *path, pqt_io *io, pqt_error *err) {
  (void)ctx;
  const pqt_string *f = &files[strlen(path) % 3];
  return pqt_io_from_buffer(io, f->data, f->len, NULL, err);
}

static pqt_status fs_list(void *ctx, const char *path, int *is_dir, pqt_dataset_emit_fn emit, void *ectx,
                          pqt_error *err) {
  memfs *m = ctx;
  size_t n = strlen(path);
  *is_dir = 0;
  for (size_t i = 0; i < m->n; i++)
    if (strcmp(m->paths[i], path) == 0) return PQT_OK;
  for (size_t i = 0; i < m->n; i++) {
    bool under = strcmp(path, ".") == 0 || (strncmp(m->paths[i], path, n) == 0 && m->paths[i][n] == '/');
    if (!under) continue;
    *is_dir = 1;
    char buf[600];
    if (strcmp(path, ".") == 0) snprintf(buf, sizeof buf, "./%s", m->paths[i]);
    else snprintf(buf, sizeof buf, "%s", m->paths[i]);
    pqt_status st = emit(ectx, buf, err);
    if (st != PQT_OK) return st;
  }
  if (!*is_dir) {
    if (err) snprintf(err->message, sizeof err->message, "%s: not found", path);
    return PQT_EIO;
  }
  return PQT_OK;
}

static pqt_status count_lines(void *ctx, const char *d, size_t n) {
  int64_t *c = ctx;
  for (size_t i = 0; i < n; i++) *c += d[i] == '\n';
  return PQT_OK;
}

/* CSV records: a line break inside a quoted field (a partition value with
 * %0A in its directory name) is part of the value, not the end of a row. */
typedef struct csv_count {
  int64_t records;
  bool quoted;
} csv_count;

static pqt_status count_csv_records(void *ctx, const char *d, size_t n) {
  csv_count *c = ctx;
  for (size_t i = 0; i < n; i++) {
    if (d[i] == '"') c->quoted = !c->quoted; /* "" inside a field toggles twice */
    else if (d[i] == '\n' && !c->quoted) c->records++;
  }
  return PQT_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!ready) {
    ready = make(&files[0], "message m { required int64 id; optional int32 v; }", 0) == 0 &&
                    make(&files[1], "message m { required int64 id; optional int64 v; }", 1) == 0 &&
                    make(&files[2], "message m { required int64 id; optional binary s (STRING); }", 2) == 0
                ? 1
                : -1;
  }
  if (ready != 1 || size > 4096) return 0;
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = 0;
  char *lines[66];
  size_t nl = 0;
  for (char *s = text; nl < 66;) {
    lines[nl++] = s;
    char *e = strchr(s, '\n');
    if (!e) break;
    *e = 0;
    s = e + 1;
  }
  if (nl < 2 || strlen(lines[0]) > 256) {
    free(text);
    return 0;
  }
  memfs m = {lines + 2, nl - 2};
  for (size_t i = 0; i < m.n; i++)
    if (strlen(m.paths[i]) > 256 || !m.paths[i][0]) m.n = i;
  pqt_dataset_fs fs = {.open = fs_open, .list = fs_list, .ctx = &m};
  pqt_dataset_options o;
  pqt_dataset_options_init(&o);
  o.fs = &fs;
  o.max_files = 64;
  pqt_dataset *ds = NULL;
  pqt_error e;
  const char *in[1] = {lines[0]};
  pqt_status st = pqt_dataset_open(&ds, in, 1, &o, &e);
  if (st != PQT_OK) {
    if (!e.message[0]) abort(); /* a failure says why */
    free(text);
    return 0;
  }
  ds_fuzz_opened++;
  pqt_expr *f = NULL;
  if (lines[1][0] && pqt_expr_parse(lines[1], strlen(lines[1]), &f, &e) != PQT_OK) f = NULL;
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.filter = f;
  int64_t counted = -1;
  if (pqt_dataset_count(ds, &so, &counted, &e) == PQT_OK) {
    struct ArrowArrayStream s;
    if (pqt_dataset_get_stream(ds, &so, &s, &e) != PQT_OK) abort();
    struct ArrowSchema sch;
    if (s.get_schema(&s, &sch) != 0) abort();
    int64_t rows = 0;
    for (;;) {
      struct ArrowArray b;
      if (s.get_next(&s, &b) != 0) abort(); /* the files are sound: only the filter could fail, and it bound */
      if (!b.release) break;
      if (b.n_children != sch.n_children) abort();
      for (int64_t k = 0; k < b.n_children; k++)
        if (b.children[k]->length + b.children[k]->offset < b.length + b.offset) abort();
      rows += b.length;
      b.release(&b);
    }
    sch.release(&sch);
    s.release(&s);
    int64_t jl = 0;
    csv_count cl = {0, false};
    if (pqt_dataset_write_text(ds, &so, PQT_TEXT_JSONL, -1, count_lines, &jl, &e) != PQT_OK) abort();
    if (pqt_dataset_write_text(ds, &so, PQT_TEXT_CSV, -1, count_csv_records, &cl, &e) != PQT_OK) abort();
    if (rows != counted || jl != counted || cl.records != counted + 1 || cl.quoted) abort();
    ds_fuzz_count = counted;
    pqt_dataset_unit *u = NULL;
    int32_t nu = 0;
    if (pqt_dataset_plan(ds, f, 1 + (int64_t)(size % 500), &u, &nu, &e) != PQT_OK) abort();
    int64_t unit_rows = 0;
    for (int32_t i = 0; i < nu; i++) unit_rows += u[i].rows;
    if (unit_rows < counted) abort();
    pqt_dataset_plan_free(u);
  } else if (!e.message[0]) {
    abort();
  }
  pqt_expr_free(f);
  pqt_dataset_close(ds);
  free(text);
  return 0;
}
