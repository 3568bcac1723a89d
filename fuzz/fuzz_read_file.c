/*
 * fuzz/fuzz_read_file.c: libFuzzer target for the whole reader. The input
 * is a complete Parquet file. It is opened from a buffer and, when that
 * works, read every way the public API offers: schema text, metadata JSON
 * and summary, an ArrowArrayStream over every row group (each batch checked
 * by fuzz_arrow_check.h, then released), and pqt_reader_write_text as JSON
 * Lines (every row) and CSV (first rows) into a discarding sink.
 *
 * Invariants (abort = finding):
 *   - failures carry a code from the "bad file" set (ECORRUPT, EUNSUPPORTED,
 *     ECRYPTO, ELIMIT, ENOMEM) and a non-empty message; never EINVAL/EIO;
 *   - exported arrays are structurally valid;
 *   - when both the stream and the JSONL text succeed they agree on the
 *     number of rows;
 *   - every byte allocated is freed, with the sizes the allocator handed out.
 * Allocation goes through fuzz_alloc.h with a 256 MiB ceiling per request and
 * 1 GiB live: a file claiming huge sizes gets ENOMEM (a clean error), not a
 * libFuzzer out-of-memory report. Size parity picks verify_checksums, so
 * mutated pages in files with CRCs are still decoded half of the time.
 * The low two bits of the middle byte pick pqt_read_options.arrow_output
 * (dictionary arrays, string views), which the stream then uses.
 *
 * pqt_fuzz_read_file_one() is also called by the regression driver
 * (tests/hardening/test_fuzz_regressions.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_alloc.h"
#include "fuzz_arrow_check.h"
#include "parquetry.h"
#include "parquetry_arrow.h"

#define RF_FAIL(...)                     \
  do {                                   \
    fprintf(stderr, "fuzz_read_file: "); \
    fprintf(stderr, __VA_ARGS__);        \
    fputc('\n', stderr);                 \
    abort();                             \
  } while (0)

static void rf_check_status(pqt_status st, const pqt_error *err, const char *what) {
  if (st == PQT_OK) return;
  if (st != PQT_ECORRUPT && st != PQT_EUNSUPPORTED && st != PQT_ECRYPTO && st != PQT_ELIMIT && st != PQT_ERANGE && st != PQT_ENOMEM)
    RF_FAIL("%s: unexpected status %s: %s", what, pqt_status_name(st), err->message);
  if (err->code != st) RF_FAIL("%s: error code %d differs from the status %d", what, err->code, st);
  if (err->message[0] == '\0') RF_FAIL("%s: failure without a message", what);
}

typedef struct rf_sink {
  uint64_t bytes, lines;
} rf_sink;

static pqt_status rf_sink_write(void *ctx, const char *data, size_t len) {
  rf_sink *s = ctx;
  s->bytes += len;
  for (size_t i = 0; i < len; i++) s->lines += data[i] == '\n';
  return PQT_OK;
}

/* Stream every row group; returns the rows seen, -1 on a (clean) error. */
static int64_t rf_stream_all(pqt_reader *r, int64_t batch_size, pqt_arrow_check *chk, int *out_errno) {
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.batch_size = batch_size;
  struct ArrowArrayStream stream;
  pqt_error err;
  pqt_error_init(&err);
  pqt_status st = pqt_reader_get_stream(r, &so, &stream, &err);
  rf_check_status(st, &err, "get_stream");
  *out_errno = 0;
  if (st != PQT_OK) {
    *out_errno = st == PQT_ENOMEM ? ENOMEM : EIO;
    return -1;
  }
  struct ArrowSchema schema;
  int rc = stream.get_schema(&stream, &schema);
  int64_t rows = -1;
  if (rc != 0) {
    const char *m = stream.get_last_error(&stream);
    if (rc == EINVAL || !m || !*m) RF_FAIL("get_schema failed (%d) without a message", rc);
    *out_errno = rc;
  } else {
    if (!schema.release || strcmp(schema.format, "+s") != 0) RF_FAIL("schema is not a struct");
    rows = 0;
    for (;;) {
      struct ArrowArray batch;
      memset(&batch, 0xa5, sizeof batch);
      rc = stream.get_next(&stream, &batch);
      if (rc != 0) {
        const char *m = stream.get_last_error(&stream);
        if (rc == EINVAL || !m || !*m) RF_FAIL("get_next failed (%d) without a message", rc);
        *out_errno = rc;
        rows = -1;
        break;
      }
      if (!batch.release) break;
      const char *bad = pqt_arrow_check_array(chk, &schema, &batch, 0);
      if (bad) RF_FAIL("invalid batch: %s %s", bad, chk->msg);
      if (batch.length == 0 && batch_size > 0) RF_FAIL("empty batch before the end of the stream");
      rows += batch.length;
      batch.release(&batch);
      if (batch.release) RF_FAIL("batch release did not mark the array released");
    }
    schema.release(&schema);
  }
  stream.release(&stream);
  if (stream.release) RF_FAIL("stream release did not mark the stream released");
  return rows;
}

/* What reading one file gave (statuses of each step, -1 when not run). */
typedef struct pqt_fuzz_read_result {
  pqt_status open, schema_text, metadata_json, summary, jsonl, csv;
  int stream_errno;    /* 0, or the errno of get_stream/get_schema/get_next (-1: not run) */
  int64_t stream_rows; /* rows streamed, -1 on error */
  uint64_t jsonl_lines;
} pqt_fuzz_read_result;

/* Read one file every way through fa (caller-initialised; checked for
 * leaks and size mismatches after close). `variant` picks options. */
static pqt_fuzz_read_result pqt_fuzz_read_file_with(const uint8_t *data, size_t size, unsigned variant,
                                                    pqt_fuzz_alloc *fa) {
  pqt_fuzz_read_result res = {-1, -1, -1, -1, -1, -1, -1, -1, 0};
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.alloc = &fa->base;
  ro.verify_checksums = (variant & 1) == 0;
  if (variant % 3 == 2) ro.on_error = PQT_SKIP_CORRUPT; /* recovery paths too */
  /* the Arrow output options (dictionary arrays, views), picked by a byte of
   * the input: the middle one, which mutations reach as often as any */
  if (size > 0) ro.arrow_output = data[size / 2] & (PQT_ARROW_DICTIONARY | PQT_ARROW_VIEW);
  pqt_error err;
  pqt_error_init(&err);
  pqt_reader *r = NULL;
  pqt_status st = pqt_reader_open_buffer(&r, data, size, &ro, &err);
  rf_check_status(st, &err, "open");
  res.open = st;
  if (st == PQT_OK) {
    pqt_string s;
    memset(&s, 0, sizeof s);
    pqt_error_init(&err);
    st = pqt_reader_schema_text(r, &s, &err);
    rf_check_status(st, &err, "schema_text");
    res.schema_text = st;
    if (st == PQT_OK && strlen(s.data) != s.len) RF_FAIL("schema text length mismatch");
    pqt_string_free(&s);
    pqt_error_init(&err);
    st = pqt_reader_metadata_json(r, (variant >> 1) & 1 ? 2 : 0, &s, &err);
    rf_check_status(st, &err, "metadata_json");
    res.metadata_json = st;
    if (st == PQT_OK && strlen(s.data) != s.len) RF_FAIL("metadata json length mismatch");
    pqt_string_free(&s);
    pqt_error_init(&err);
    st = pqt_reader_metadata_summary(r, &s, &err);
    rf_check_status(st, &err, "metadata_summary");
    res.summary = st;
    pqt_string_free(&s);
    (void)pqt_reader_num_rows(r);
    (void)pqt_reader_num_columns(r);
    (void)pqt_reader_uncompressed_bytes(r);
    if (!pqt_reader_created_by(r)) RF_FAIL("created_by is NULL");

    static const int64_t batch_sizes[3] = {0, 64, 4096};
    pqt_arrow_check chk = {0};
    int64_t stream_rows = rf_stream_all(r, batch_sizes[(variant >> 1) % 3], &chk, &res.stream_errno);
    res.stream_rows = stream_rows;

    rf_sink sink = {0, 0};
    pqt_error_init(&err);
    st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, rf_sink_write, &sink, &err);
    rf_check_status(st, &err, "write_text jsonl");
    res.jsonl = st;
    res.jsonl_lines = sink.lines;
    if (st == PQT_OK && stream_rows >= 0 && (uint64_t)stream_rows != sink.lines)
      RF_FAIL("stream gave %lld rows, JSONL %llu lines", (long long)stream_rows, (unsigned long long)sink.lines);
    rf_sink csv = {0, 0};
    pqt_error_init(&err);
    st = pqt_reader_write_text(r, NULL, PQT_TEXT_CSV, 3, rf_sink_write, &csv, &err);
    rf_check_status(st, &err, "write_text csv");
    res.csv = st;
    pqt_reader_close(r);
  }
  if (fa->live != 0) RF_FAIL("leak: %zu bytes still allocated after close", fa->live);
  if (fa->size_mismatches) RF_FAIL("%llu frees/reallocs with a wrong size", (unsigned long long)fa->size_mismatches);
  return res;
}

/* The fuzzing configuration: 256 MiB per request, 1 GiB live. */
static void pqt_fuzz_read_file_one(const uint8_t *data, size_t size, unsigned variant) {
  pqt_fuzz_alloc fa;
  pqt_fuzz_alloc_init(&fa);
  fa.max_single = (size_t)256 << 20;
  fa.max_live = (size_t)1 << 30;
  (void)pqt_fuzz_read_file_with(data, size, variant, &fa);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pqt_fuzz_read_file_one(data, size, (unsigned)size);
  return 0;
}
