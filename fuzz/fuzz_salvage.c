/*
 * fuzz/fuzz_salvage.c: libFuzzer target for pqt_salvage. The input is a
 * (damaged) Parquet file, salvaged with each of three writer schemas: a
 * nested six-column one (the shape of tests/hardening/test_salvage.c), one
 * optional INT32 column, and INT64 + STRING.
 *
 * Invariants (abort = finding):
 *   - failures carry a "bad file" status (ECORRUPT, EUNSUPPORTED, ELIMIT,
 *     ENOMEM) and a message;
 *   - what salvage hands the writer is valid: closing the writer succeeds,
 *     and the file it wrote reads back with exactly report.rows rows;
 *   - every byte allocated is freed (fuzz_alloc.h, 256 MiB per request and
 *     1 GiB live).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_alloc.h"
#include "parquetry.h"

#define SV_FAIL(...)                   \
  do {                                 \
    fprintf(stderr, "fuzz_salvage: "); \
    fprintf(stderr, __VA_ARGS__);      \
    fputc('\n', stderr);               \
    abort();                           \
  } while (0)

static const char *const schemas[] = {
    "message m { required int64 id; optional binary name (STRING); optional double score;"
    " optional group tags (LIST) { repeated group list { optional int32 element; } }"
    " required boolean flag; optional binary cat (STRING); }",
    "message m { optional int32 a; }",
    "message m { required int64 a; optional binary b (STRING); }",
};

static void check_status(pqt_status st, const pqt_error *err, const char *what) {
  if (st == PQT_OK) return;
  if (st != PQT_ECORRUPT && st != PQT_EUNSUPPORTED && st != PQT_ELIMIT && st != PQT_ERANGE && st != PQT_ENOMEM)
    SV_FAIL("%s: unexpected status %s: %s", what, pqt_status_name(st), err->message);
  if (err->message[0] == '\0') SV_FAIL("%s: failure without a message", what);
}

static pqt_status discard(void *ctx, const char *d, size_t n) {
  (void)ctx, (void)d, (void)n;
  return PQT_OK;
}

static void salvage_one(const uint8_t *data, size_t size, const char *schema) {
  pqt_fuzz_alloc fa;
  pqt_fuzz_alloc_init(&fa);
  fa.max_single = (size_t)256 << 20;
  fa.max_live = (size_t)1 << 30;
  pqt_error e;
  pqt_error_init(&e);
  pqt_io io;
  pqt_io_init(&io);
  if (pqt_io_from_buffer(&io, data, size, &fa.base, &e) != PQT_OK) SV_FAIL("io: %s", e.message);
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.alloc = &fa.base;
  pqt_string out;
  memset(&out, 0, sizeof out);
  out.alloc = &fa.base;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schema};
  pqt_writer *w = NULL;
  if (pqt_writer_open_buffer(&w, &out, &ws, &wo, &e) != PQT_OK) SV_FAIL("writer: %s", e.message);
  pqt_salvage_options so;
  pqt_salvage_options_init(&so);
  so.log = discard;
  pqt_salvage_report rep;
  pqt_salvage_report_init(&rep);
  pqt_status st = pqt_salvage(&io, w, &so, &rep, &e);
  io.release(io.private_data);
  check_status(st, &e, "salvage");
  if (st == PQT_OK && rep.rows > 0) {
    if (rep.rows > (int64_t)size * 8 + 1) SV_FAIL("%lld rows from %zu bytes", (long long)rep.rows, size);
    st = pqt_writer_close(w, &e);
    if (st != PQT_OK && st != PQT_ENOMEM) SV_FAIL("closing the salvaged file: %s", e.message);
    if (st == PQT_OK) {
      pqt_read_options ro;
      pqt_read_options_init(&ro);
      ro.alloc = &fa.base;
      pqt_reader *r = NULL;
      st = pqt_reader_open_buffer(&r, out.data, out.len, &ro, &e);
      if (st != PQT_OK && st != PQT_ENOMEM) SV_FAIL("reading the salvaged file: %s", e.message);
      if (st == PQT_OK) {
        if (pqt_reader_num_rows(r) != rep.rows)
          SV_FAIL("salvaged file has %lld rows, report says %lld", (long long)pqt_reader_num_rows(r),
                  (long long)rep.rows);
        st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, discard, NULL, &e);
        if (st != PQT_OK && st != PQT_ENOMEM) SV_FAIL("reading the salvaged rows: %s", e.message);
        pqt_reader_close(r);
      }
    }
  } else {
    pqt_writer_discard(w);
  }
  pqt_string_free(&out);
  if (fa.live != 0) SV_FAIL("%zu bytes leaked", fa.live);
  if (fa.size_mismatches) SV_FAIL("free with a wrong size");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; i++) salvage_one(data, size, schemas[i]);
  return 0;
}
