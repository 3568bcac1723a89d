/*
 * fuzz/fuzz_scrub.c: libFuzzer target for pqt_reader_chunk_pages,
 * pqt_reader_file_layout and pqt_reader_scrub (parquetry_meta.h). The input
 * is a whole Parquet file, opened from a buffer: every chunk's pages are
 * walked from their headers (CRC checked on even-sized inputs), and the
 * file is scrubbed into memory. A scrubbed copy must open again, with the
 * same number of rows, row groups, columns and schema nodes, and the pages
 * of each of its chunks must walk; scrubbing it again must give the same
 * bytes (the placeholders are a fixed point).
 *
 * Invariants (abort = finding): failures are a "bad file" status (ECORRUPT,
 * EUNSUPPORTED, ECRYPTO, ELIMIT, ENOMEM) with a message; page walks give
 * pages in increasing offsets inside the file; every byte allocated is
 * freed with its size.
 *
 * pqt_fuzz_scrub_one() is also called by tests/hardening/test_scrub_replay.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_alloc.h"
#include "parquetry.h"
#include "parquetry_meta.h"

#define SC_FAIL(...)                 \
  do {                               \
    fprintf(stderr, "fuzz_scrub: "); \
    fprintf(stderr, __VA_ARGS__);    \
    fputc('\n', stderr);             \
    abort();                         \
  } while (0)

static void sc_check(pqt_status st, const pqt_error *err, const char *what) {
  if (st == PQT_OK) return;
  if (st != PQT_ECORRUPT && st != PQT_EUNSUPPORTED && st != PQT_ECRYPTO && st != PQT_ELIMIT && st != PQT_ENOMEM)
    SC_FAIL("%s: unexpected status %s: %s", what, pqt_status_name(st), err->message);
  if (err->code != st) SC_FAIL("%s: error code %d differs from the status %d", what, err->code, st);
  if (err->message[0] == '\0') SC_FAIL("%s: failure without a message", what);
}

typedef struct walk {
  int64_t last, file_size;
  int32_t n;
} walk;

static pqt_status on_page(void *ctx, const pqt_page_info *p) {
  walk *w = ctx;
  if (p->offset <= w->last)
    SC_FAIL("page %d at %lld is not after %lld", p->index, (long long)p->offset, (long long)w->last);
  if (p->header_size <= 0 || p->compressed_size < 0 ||
      p->offset + p->header_size + (int64_t)p->compressed_size > w->file_size)
    SC_FAIL("page %d at %lld runs past the file", p->index, (long long)p->offset);
  if (p->index != w->n) SC_FAIL("page index %d, wanted %d", p->index, w->n);
  w->last = p->offset;
  w->n++;
  return PQT_OK;
}

static void sc_pages(pqt_reader *r, int64_t file_size) {
  int32_t ng = pqt_reader_num_row_groups(r), nc = pqt_reader_num_columns(r);
  pqt_error err;
  for (int32_t g = 0; g < ng && g < 64; g++)
    for (int32_t c = 0; c < nc && c < 64; c++) {
      walk w = {-1, file_size, 0};
      sc_check(pqt_reader_chunk_pages(r, g, c, (int)(file_size & 1) == 0, on_page, &w, &err), &err, "chunk_pages");
    }
  pqt_file_layout fl;
  pqt_file_layout_init(&fl);
  sc_check(pqt_reader_file_layout(r, &fl, &err), &err, "file_layout");
  if (fl.file_size != file_size || fl.footer_offset < 0 || fl.footer_offset + fl.footer_length + 8 != fl.file_size)
    SC_FAIL("file layout: size %lld, footer %lld + %lld", (long long)fl.file_size, (long long)fl.footer_offset,
            (long long)fl.footer_length);
}

typedef struct sc_out {
  char *data;
  size_t len, cap;
} sc_out;

static pqt_status sc_write(void *ctx, const char *data, size_t len) {
  sc_out *s = ctx;
  if (s->len + len > s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 4096;
    while (cap < s->len + len) cap *= 2;
    char *p = realloc(s->data, cap);
    if (!p) return PQT_ENOMEM;
    s->data = p;
    s->cap = cap;
  }
  memcpy(s->data + s->len, data, len);
  s->len += len;
  return PQT_OK;
}

static void sc_scrub(const uint8_t *data, size_t size, pqt_fuzz_alloc *fa, sc_out *out, int depth) {
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.alloc = &fa->base;
  ro.verify_checksums = (size & 1) == 0;
  pqt_error err;
  pqt_reader *r = NULL;
  if (pqt_reader_open_buffer(&r, data, size, &ro, &err) != PQT_OK) {
    if (depth) SC_FAIL("the scrubbed copy does not open: %s", err.message);
    return;
  }
  sc_pages(r, (int64_t)size);
  pqt_status st = pqt_reader_scrub(r, sc_write, out, &err);
  if (depth && st != PQT_OK && st != PQT_ENOMEM && st != PQT_ELIMIT)
    SC_FAIL("scrubbing the scrubbed copy failed: %s", err.message);
  sc_check(st, &err, "scrub");
  if (st != PQT_OK) {
    free(out->data);
    out->data = NULL;
    out->len = out->cap = 0;
    pqt_reader_close(r);
    return;
  }
  if (depth == 0) {
    sc_out again = {0};
    sc_scrub((const uint8_t *)out->data, out->len, fa, &again, 1);
    pqt_reader *r2 = NULL;
    if (pqt_reader_open_buffer(&r2, out->data, out->len, &ro, &err) == PQT_OK) {
      if (pqt_reader_num_rows(r2) != pqt_reader_num_rows(r) ||
          pqt_reader_num_row_groups(r2) != pqt_reader_num_row_groups(r) ||
          pqt_reader_num_columns(r2) != pqt_reader_num_columns(r) ||
          pqt_reader_schema_node_count(r2) != pqt_reader_schema_node_count(r))
        SC_FAIL("the scrubbed copy has another shape");
      pqt_reader_close(r2);
    }
    if (again.data && (again.len != out->len || memcmp(again.data, out->data, out->len) != 0))
      SC_FAIL("scrubbing twice changed the bytes (%zu, then %zu)", out->len, again.len);
    free(again.data);
  }
  pqt_reader_close(r);
}

static void pqt_fuzz_scrub_one(const uint8_t *data, size_t size) {
  pqt_fuzz_alloc fa;
  pqt_fuzz_alloc_init(&fa);
  fa.max_single = (size_t)256 << 20;
  fa.max_live = (size_t)1 << 30;
  sc_out out = {0};
  sc_scrub(data, size, &fa, &out, 0);
  free(out.data);
  if (fa.live != 0) SC_FAIL("leak: %zu bytes still allocated after close", fa.live);
  if (fa.size_mismatches) SC_FAIL("%llu frees/reallocs with a wrong size", (unsigned long long)fa.size_mismatches);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pqt_fuzz_scrub_one(data, size);
  return 0;
}
