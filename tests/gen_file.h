/*
 * tests/gen_file.h: writing a generated file into memory, for the tests
 * that make their own patterned or random data
 * (tests/arrow/test_arrow_output.c, tests/roundtrip/test_filter_random.c):
 * open a writer on a buffer, append strings to a BYTE_ARRAY run, end a row
 * group, close. Each step prints why it failed on stderr.
 */
#ifndef PQT_TESTS_GEN_FILE_H
#define PQT_TESTS_GEN_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "parquetry.h"

/* A writer on buf (emptied first) for the message schema, with options o;
 * NULL (printed) when it cannot be opened. Public structs have their _init
 * from PQT_VERSION_NUMBER on; before it they are plain. */
static inline pqt_writer *pqt_test_gen_open(pqt_string *buf, const char *schema, const pqt_write_options *o) {
  memset(buf, 0, sizeof *buf);
  pqt_write_schema ws;
#ifdef PQT_VERSION_NUMBER
  pqt_write_schema_init(&ws);
#else
  memset(&ws, 0, sizeof ws);
#endif
  ws.message = schema;
  pqt_writer *w = NULL;
  pqt_error err;
  if (pqt_writer_open_buffer(&w, buf, &ws, o, &err) != PQT_OK) {
    fprintf(stderr, "  open writer: %s\n", err.message);
    return NULL;
  }
  return w;
}

/* Append v to a BYTE_ARRAY run: its bytes at bytes + *nb, its end in
 * offs[++*nv] (offs[0] is the caller's 0). */
static inline void pqt_test_gen_string(char *bytes, size_t *nb, int32_t *offs, int64_t *nv, const char *v) {
  size_t len = strlen(v);
  memcpy(bytes + *nb, v, len);
  *nb += len;
  offs[++*nv] = (int32_t)*nb;
}

/* End the row group when ok is still true; the new ok (false printed). */
static inline bool pqt_test_gen_flush(pqt_writer *w, bool ok) {
  pqt_error err;
  if (ok && pqt_writer_flush_row_group(w, &err) != PQT_OK) {
    fprintf(stderr, "  flush: %s\n", err.message);
    return false;
  }
  return ok;
}

/* Close w when ok, else discard it; true when the file is complete. */
static inline bool pqt_test_gen_close(pqt_writer *w, bool ok) {
  if (!ok) {
    pqt_writer_discard(w);
    return false;
  }
  pqt_error err;
  if (pqt_writer_close(w, &err) != PQT_OK) {
    fprintf(stderr, "  close: %s\n", err.message);
    return false;
  }
  return true;
}

#endif
