/* tests/readahead_fixture.h: what the read-ahead tests (roundtrip/test_readahead.c,
 * roundtrip/test_readahead_text.c, roundtrip/test_threads.c) share: the file they
 * read, where a row group's first page starts, and a caller's source that logs
 * every announcement (pqt_io.will_need) and every byte read. */
#ifndef PQT_TESTS_READAHEAD_FIXTURE_H
#define PQT_TESTS_READAHEAD_FIXTURE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_meta.h"

/* groups row groups of group_rows rows: id int64 (ascending from 0, so
 * statistics prune), s optional string (null every 7th row, "s<v*31%1000>"),
 * and with_x: x double (not compressible to nothing). Small pages (4 KiB). */
static inline void ra_write_file(pqt_string *out, int groups, int group_rows, bool with_x) {
  memset(out, 0, sizeof *out);
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message = with_x ? "message m { required int64 id; optional binary s (STRING); required double x; }"
                      : "message m { required int64 id; optional binary s (STRING); }";
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.page_size = 4096;
  pqt_writer *w = NULL;
  pqt_error e;
  int64_t *id = calloc((size_t)group_rows, sizeof *id);
  double *x = calloc((size_t)group_rows, sizeof *x);
  int16_t *sd = calloc((size_t)group_rows, sizeof *sd);
  int32_t *soff = calloc((size_t)group_rows + 1, sizeof *soff);
  char *sdata = calloc((size_t)group_rows, 16);
  CHECK(id && x && sd && soff && sdata);
  if (id && x && sd && soff && sdata) CHECK_OK(pqt_writer_open_buffer(&w, out, &ws, &o, &e));
  for (int g = 0; g < groups && w; g++) {
    int ns = 0;
    soff[0] = 0;
    for (int i = 0; i < group_rows; i++) {
      int64_t v = (int64_t)g * group_rows + i;
      id[i] = v;
      x[i] = (double)((uint64_t)v * 2654435761u % 1000003) * 0.25;
      sd[i] = v % 7 != 0;
      if (sd[i]) {
        int n = snprintf(sdata + soff[ns], 16, "s%lld", (long long)(v * 31 % 1000));
        soff[ns + 1] = soff[ns] + n;
        ns++;
      }
    }
    CHECK_OK(pqt_writer_write_column(w, 0, group_rows, NULL, NULL, id, NULL, group_rows, &e));
    CHECK_OK(pqt_writer_write_column(w, 1, group_rows, sd, NULL, sdata, soff, ns, &e));
    if (with_x) CHECK_OK(pqt_writer_write_column(w, 2, group_rows, NULL, NULL, x, NULL, group_rows, &e));
    CHECK_OK(pqt_writer_flush_row_group(w, &e));
  }
  if (w) CHECK_OK(pqt_writer_close(w, &e));
  free(id);
  free(x);
  free(sd);
  free(soff);
  free(sdata);
}

/* Where row group g's first column chunk starts in file (its dictionary page
 * when it has one, else its first data page): the offset a read-ahead
 * announces for that row group. 0 when the file or the chunk cannot be read. */
static inline uint64_t ra_group_offset(const pqt_string *file, int32_t g) {
  pqt_reader *r = NULL;
  pqt_error e;
  uint64_t off = 0;
  if (pqt_reader_open_buffer(&r, file->data, file->len, NULL, &e) != PQT_OK) return 0;
  pqt_chunk_info ci;
  pqt_chunk_info_init(&ci);
  if (pqt_reader_chunk(r, g, 0, &ci, &e) == PQT_OK)
    off = ci.dictionary_page_offset > 0 && ci.dictionary_page_offset < ci.data_page_offset
              ? (uint64_t)ci.dictionary_page_offset
              : (uint64_t)ci.data_page_offset;
  pqt_reader_close(r);
  return off;
}

enum { RA_MAX_LOG = 4096 };

/* A thread-safe source over a buffer: every announcement logged (the
 * ranges' offsets in order, the calls, those made on another thread than
 * the one that set it up, the bytes of the first), every byte read marked
 * in touched (when set). */
typedef struct ra_source {
  const uint8_t *data;
  size_t len;
  uint8_t *touched; /* len bytes, 1 where read_at read; NULL: not kept */
  pthread_mutex_t mu;
  pthread_t caller;
  uint64_t ann[RA_MAX_LOG];
  int n_ann;
  int calls, calls_elsewhere;
  uint64_t first_bytes;
} ra_source;

static inline pqt_status ra_read_at(void *pd, uint64_t off, void *dst, size_t n, pqt_error *err) {
  ra_source *l = pd;
  if (off > l->len || n > l->len - off) {
    snprintf(err->message, sizeof err->message, "past the end");
    return err->code = PQT_EIO;
  }
  memcpy(dst, l->data + off, n);
  if (l->touched) {
    pthread_mutex_lock(&l->mu);
    memset(l->touched + off, 1, n);
    pthread_mutex_unlock(&l->mu);
  }
  return PQT_OK;
}

static inline pqt_status ra_will_need(void *pd, const pqt_io_range *rs, size_t n, pqt_error *err) {
  (void)err;
  ra_source *l = pd;
  pthread_mutex_lock(&l->mu);
  l->calls++;
  if (!pthread_equal(pthread_self(), l->caller)) l->calls_elsewhere++;
  for (size_t i = 0; i < n && l->calls == 1; i++) l->first_bytes += rs[i].length;
  for (size_t i = 0; i < n && l->n_ann < RA_MAX_LOG; i++) l->ann[l->n_ann++] = rs[i].offset;
  pthread_mutex_unlock(&l->mu);
  return PQT_OK;
}

/* A source over file (calloc'd; ra_source_free it after the reader is closed) and io over it. */
static inline ra_source *ra_source_new(const pqt_string *file, bool keep_touched, pqt_io *io) {
  ra_source *l = calloc(1, sizeof *l);
  if (!l) return NULL;
  l->data = (const uint8_t *)file->data;
  l->len = file->len;
  if (keep_touched && !(l->touched = calloc(file->len ? file->len : 1, 1))) {
    free(l);
    return NULL;
  }
  pthread_mutex_init(&l->mu, NULL);
  l->caller = pthread_self();
  pqt_io_init(io);
  io->read_at = ra_read_at;
  io->size = file->len;
  io->private_data = l;
  io->will_need = ra_will_need;
  return l;
}

/* Forget what was logged so far (what the open read is not what a scan reads). */
static inline void ra_source_reset(ra_source *l) {
  pthread_mutex_lock(&l->mu);
  if (l->touched) memset(l->touched, 0, l->len);
  l->calls = l->calls_elsewhere = l->n_ann = 0;
  l->first_bytes = 0;
  pthread_mutex_unlock(&l->mu);
}

static inline void ra_source_free(ra_source *l) {
  if (!l) return;
  pthread_mutex_destroy(&l->mu);
  free(l->touched);
  free(l);
}

#endif
