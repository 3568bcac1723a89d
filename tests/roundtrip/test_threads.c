/* Threads (parquetry_threads.h): the pool and the executor hook, then the
 * Arrow stream at 1, 2, 3 and 8 threads on every corpus file (the same
 * batches, value for value, and the same error where a file fails), and
 * the writer at 1, 2 and 8 threads (the same file, byte for byte), on
 * corpus rewrites and on generated tables. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_width.h"
#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_filter.h"
#include "parquetry_meta.h"
#include "parquetry_threads.h"
#include "readahead_fixture.h"

/* ---- a digest of a stream's batches ---------------------------------------- */

typedef struct digest {
  uint64_t h;
  int64_t rows, batches;
  int unknown; /* a format the digest does not know */
} digest;

static void mix(digest *d, const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) {
    d->h ^= b[i];
    d->h *= 1099511628211ull;
  }
}
static void mix64(digest *d, int64_t v) { mix(d, &v, sizeof v); }

static bool bit(const void *b, int64_t i) { return (((const uint8_t *)b)[i >> 3] >> (i & 7)) & 1; }

/* Entry i of a string or binary array's offsets, 32-bit or (large) 64-bit. */
static int64_t offset_at(const struct ArrowArray *a, bool large, int64_t i) {
  return large ? ((const int64_t *)a->buffers[1])[i] : ((const int32_t *)a->buffers[1])[i];
}

/* Rows [from, from+len) of a (its own offset added): validity, then the
 * values of valid rows (what null slots hold is not part of the output). */
static void digest_array(digest *d, const struct ArrowSchema *s, const struct ArrowArray *a, int64_t from,
                         int64_t len) {
  const char *f = s->format;
  bool view = strcmp(f, "vu") == 0 || strcmp(f, "vz") == 0;
  const char *fm = view ? f + 1 : f; /* a view array digests as the string/binary array it equals */
  mix(d, fm, strlen(fm));
  mix64(d, len);
  int64_t o = a->offset + from;
  const void *valid = a->n_buffers > 0 ? a->buffers[0] : NULL;
  if (strcmp(f, "n") == 0) return;
  for (int64_t i = 0; i < len; i++) {
    uint8_t v = valid ? bit(valid, o + i) : 1;
    mix(d, &v, 1);
  }
#define VALID(i) (!valid || bit(valid, o + (i)))
  if (strcmp(f, "+s") == 0) {
    for (int64_t k = 0; k < a->n_children; k++) digest_array(d, s->children[k], a->children[k], o, len);
    return;
  }
  if (strcmp(f, "+l") == 0 || strcmp(f, "+m") == 0) {
    const int32_t *off = a->buffers[1];
    for (int64_t i = 0; i < len; i++)
      if (VALID(i)) digest_array(d, s->children[0], a->children[0], off[o + i], off[o + i + 1] - off[o + i]);
    return;
  }
  if (strcmp(f, "+L") == 0) {
    const int64_t *off = a->buffers[1];
    for (int64_t i = 0; i < len; i++)
      if (VALID(i)) digest_array(d, s->children[0], a->children[0], off[o + i], off[o + i + 1] - off[o + i]);
    return;
  }
  if (strncmp(f, "+w:", 3) == 0) {
    int64_t n = atoi(f + 3);
    for (int64_t i = 0; i < len; i++)
      if (VALID(i)) digest_array(d, s->children[0], a->children[0], (o + i) * n, n);
    return;
  }
  bool large = strcmp(f, "U") == 0 || strcmp(f, "Z") == 0; /* 64-bit offsets */
  if (large || strcmp(f, "u") == 0 || strcmp(f, "z") == 0) {
    const uint8_t *data = a->buffers[2];
    for (int64_t i = 0; i < len; i++)
      if (VALID(i)) {
        int64_t b = offset_at(a, large, o + i), e = offset_at(a, large, o + i + 1);
        mix64(d, e - b);
        mix(d, data + b, (size_t)(e - b));
      }
    return;
  }
  if (view) {
    const uint8_t *v = a->buffers[1];
    for (int64_t i = 0; i < len; i++)
      if (VALID(i)) {
        const uint8_t *vi = v + 16 * (o + i);
        int32_t l, bi, off;
        memcpy(&l, vi, 4);
        memcpy(&bi, vi + 8, 4);
        memcpy(&off, vi + 12, 4);
        mix64(d, l);
        mix(d, l <= 12 ? vi + 4 : (const uint8_t *)a->buffers[2 + bi] + off, (size_t)l);
      }
    return;
  }
  if (strcmp(f, "b") == 0) {
    for (int64_t i = 0; i < len; i++)
      if (VALID(i)) {
        uint8_t v = bit(a->buffers[1], o + i);
        mix(d, &v, 1);
      }
    return;
  }
  int64_t w = pqt_test_arrow_width(f);
  if (w <= 0) {
    d->unknown++;
    return;
  }
  const uint8_t *vals = a->buffers[1];
  for (int64_t i = 0; i < len; i++)
    if (VALID(i)) mix(d, vals + (o + i) * w, (size_t)w);
#undef VALID
}

/* An empty digest and no error. */
static void digest_start(digest *d, char *error) {
  memset(d, 0, sizeof *d);
  d->h = 14695981039346656037ull;
  error[0] = 0;
}

/* The batches of st into d (each batch's length, then its arrays), at most
 * max_batches of them (< 0: all); the error that ended the stream into
 * error (left empty when it ended cleanly). Releases st. */
static void digest_stream(struct ArrowArrayStream *st, int64_t max_batches, digest *d, char *error,
                          size_t error_len) {
  struct ArrowSchema schema;
  if (st->get_schema(st, &schema) != 0) {
    snprintf(error, error_len, "schema: %s", st->get_last_error(st));
  } else {
    while (max_batches < 0 || d->batches < max_batches) {
      struct ArrowArray a;
      if (st->get_next(st, &a) != 0) {
        const char *m = st->get_last_error(st);
        snprintf(error, error_len, "%s", m ? m : "(no message)");
        break;
      }
      if (!a.release) break;
      mix64(d, a.length);
      digest_array(d, &schema, &a, 0, a.length);
      d->rows += a.length;
      d->batches++;
      a.release(&a);
    }
    schema.release(&schema);
  }
  st->release(st);
}

/* Read options for `threads` threads, through ex (NULL: threads of the streams' own). */
static pqt_read_options thread_options(int32_t threads, const pqt_executor *ex) {
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.threads = threads;
  ro.executor = ex;
  return ro;
}

static uint64_t g_arrow_output; /* the streams' pqt_scan_options.arrow_output */

/* The stream of path at `threads` threads: its batches' digest and the
 * error that ended it (empty: none). *opened false when the file does not
 * open or stream (nothing to compare). */
static void stream_digest(const char *path, int32_t threads, const pqt_executor *ex, int64_t batch_size, digest *d,
                          char *error, size_t error_len, bool *opened) {
  digest_start(d, error);
  *opened = false;
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_read_options ro = thread_options(threads, ex);
  if (pqt_reader_open_file(&r, path, &ro, &e) != PQT_OK) return;
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.batch_size = batch_size;
  so.arrow_output = g_arrow_output;
  struct ArrowArrayStream st;
  if (pqt_reader_get_stream(r, &so, &st, &e) != PQT_OK) {
    pqt_reader_close(r);
    return;
  }
  *opened = true;
  digest_stream(&st, -1, d, error, error_len);
  pqt_reader_close(r);
}

static int g_files, g_errors, g_rows;

static void check_stream(const char *path, void *ctx) {
  (void)ctx;
  static const int32_t counts[] = {2, 3, 8};
  static const int64_t sizes[] = {0, 1000};
  for (size_t b = 0; b < sizeof sizes / sizeof *sizes; b++) {
    digest d1;
    char e1[1100];
    bool opened;
    stream_digest(path, 1, NULL, sizes[b], &d1, e1, sizeof e1, &opened);
    if (!opened) return;
    CHECK_MSG(d1.unknown == 0, "%s: %d arrays of a format the digest does not know", path, d1.unknown);
    if (b == 0) {
      g_files++;
      g_rows += (int)d1.rows;
      g_errors += e1[0] != 0;
    }
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
      digest dn;
      char en[1100];
      stream_digest(path, counts[k], NULL, sizes[b], &dn, en, sizeof en, &opened);
      CHECK_MSG(opened, "%s: opens at 1 thread, not at %d", path, (int)counts[k]);
      CHECK_MSG(dn.h == d1.h && dn.rows == d1.rows && dn.batches == d1.batches,
                "%s (batch size %lld): %d threads give %lld rows in %lld batches (digest %016llx), 1 thread "
                "%lld in %lld (%016llx)",
                path, (long long)sizes[b], (int)counts[k], (long long)dn.rows, (long long)dn.batches,
                (unsigned long long)dn.h, (long long)d1.rows, (long long)d1.batches, (unsigned long long)d1.h);
      CHECK_MSG(strcmp(e1, en) == 0, "%s: %d threads end with \"%s\", 1 thread with \"%s\"", path, (int)counts[k], en,
                e1);
    }
  }
}

static void test_corpus_streams_same_at_any_thread_count(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  pqt_test_walk(dir, ".parq", check_stream, NULL);
  printf("  %d files (%d rows; %d end in an error) read alike at 1, 2, 3 and 8 threads\n", g_files, g_rows, g_errors);
  CHECK(g_files > 150);
}

/* Strings and binaries as views (PQT_ARROW_VIEW: pointing into the pages,
 * which the batches keep alive) at 2 threads equal the default output at
 * one: the page buffers handed between the decoding threads and the
 * caller's (a TSan run watches the reference counts). */
static int v_files;

static void check_view_stream(const char *path, void *ctx) {
  (void)ctx;
  digest d1, d2;
  char e1[1100], e2[1100];
  bool opened;
  g_arrow_output = PQT_ARROW_PLAIN;
  stream_digest(path, 1, NULL, 1000, &d1, e1, sizeof e1, &opened);
  if (!opened) return;
  g_arrow_output = PQT_ARROW_VIEW;
  stream_digest(path, 2, NULL, 1000, &d2, e2, sizeof e2, &opened);
  g_arrow_output = PQT_ARROW_PLAIN;
  CHECK_MSG(opened, "%s: opens by default, not with views", path);
  CHECK_MSG(d2.h == d1.h && d2.rows == d1.rows && d2.batches == d1.batches,
            "%s: views at 2 threads give %lld rows in %lld batches (digest %016llx), the default at 1 thread %lld in "
            "%lld (%016llx)",
            path, (long long)d2.rows, (long long)d2.batches, (unsigned long long)d2.h, (long long)d1.rows,
            (long long)d1.batches, (unsigned long long)d1.h);
  CHECK_MSG(strcmp(e1, e2) == 0, "%s: views at 2 threads end with \"%s\", the default with \"%s\"", path, e2, e1);
  v_files++;
}

static void test_corpus_views_at_two_threads(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  pqt_test_walk(dir, ".parq", check_view_stream, NULL);
  printf("  %d files read with views at 2 threads as by default at 1\n", v_files);
  CHECK(v_files > 150);
}

/* ---- the pool and the hook ------------------------------------------------ */

typedef struct counter {
  atomic_int n;
} counter;
static void bump(void *arg) { atomic_fetch_add(&((counter *)arg)->n, 1); }

static void test_pool_runs_every_task(void) {
  pqt_thread_pool *p = NULL;
  pqt_error e;
  CHECK_OK(pqt_thread_pool_create(&p, 3, NULL, &e));
  CHECK_EQ_INT(pqt_thread_pool_size(p), 3);
  pqt_executor ex;
  pqt_thread_pool_executor(p, &ex);
  CHECK(ex.struct_size == sizeof ex && ex.submit != NULL);
  counter c;
  atomic_init(&c.n, 0);
  for (int i = 0; i < 1000; i++) CHECK_EQ_INT(ex.submit(ex.ctx, bump, &c), 0);
  pqt_thread_pool_destroy(p); /* runs what is queued, then joins */
  CHECK_EQ_INT(atomic_load(&c.n), 1000);
  CHECK_EQ_INT(pqt_thread_pool_create(&p, -1, NULL, &e), PQT_EINVAL);
  CHECK(p == NULL);
  CHECK_EQ_INT(pqt_thread_pool_create(&p, 100000, NULL, &e), PQT_EINVAL);
  CHECK_OK(pqt_thread_pool_create(&p, 0, NULL, &e)); /* 0: one per core */
  CHECK_EQ_INT(pqt_thread_pool_size(p), pqt_default_threads());
  pqt_thread_pool_destroy(p);
  pqt_thread_pool_destroy(NULL);
  CHECK(pqt_default_threads() >= 1);
}

/* An executor that runs nothing until told: every task it accepts runs
 * after the stream or writer that submitted it is done with it (late
 * tasks must find no work and leave), and one that refuses every task. */
typedef struct deferred {
  pthread_mutex_t mu;
  void (**fns)(void *);
  void **args;
  int n, cap;
  int refuse;
} deferred;

static int deferred_submit(void *ctx, void (*fn)(void *), void *arg) {
  deferred *q = ctx;
  if (q->refuse) return -1;
  pthread_mutex_lock(&q->mu);
  if (q->n == q->cap) {
    q->cap = q->cap ? q->cap * 2 : 16;
    q->fns = realloc(q->fns, sizeof *q->fns * (size_t)q->cap);
    q->args = realloc(q->args, sizeof *q->args * (size_t)q->cap);
  }
  q->fns[q->n] = fn;
  q->args[q->n] = arg;
  q->n++;
  pthread_mutex_unlock(&q->mu);
  return 0;
}

static void deferred_run(deferred *q) {
  for (int i = 0; i < q->n; i++) q->fns[i](q->args[i]);
  q->n = 0;
}

static void test_executor_late_or_refusing(void) {
  const char *path = PQT_SOURCE_DIR "/tests/fixtures/seed004_nested.parquet";
  digest d1, d2, d3;
  char e1[1100], e2[1100], e3[1100];
  bool o1, o2, o3;
  stream_digest(path, 1, NULL, 0, &d1, e1, sizeof e1, &o1);
  deferred q;
  memset(&q, 0, sizeof q);
  pthread_mutex_init(&q.mu, NULL);
  pqt_executor ex = {.struct_size = sizeof(pqt_executor), .submit = deferred_submit, .ctx = &q};
  stream_digest(path, 4, &ex, 0, &d2, e2, sizeof e2, &o2);
  CHECK(o1 && o2);
  CHECK(q.n > 0); /* work was handed out (and done by the calling thread alone) */
  CHECK(d1.h == d2.h && d1.rows == d2.rows && strcmp(e1, e2) == 0);
  deferred_run(&q); /* after the stream is gone */
  q.refuse = 1;
  stream_digest(path, 4, &ex, 0, &d3, e3, sizeof e3, &o3);
  CHECK(o3 && d1.h == d3.h && d1.rows == d3.rows && strcmp(e1, e3) == 0);
  CHECK_EQ_INT(q.n, 0);
  free(q.fns);
  free(q.args);
  pthread_mutex_destroy(&q.mu);
}

static void test_bad_thread_counts(void) {
  pqt_reader *r = NULL;
  pqt_error e;
  CHECK_OK(pqt_reader_open_file(&r, PQT_SOURCE_DIR "/tests/fixtures/seed004_simple.parquet", NULL, &e));
  if (!r) return;
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.threads = -2;
  struct ArrowArrayStream st;
  CHECK_EQ_INT(pqt_reader_get_stream(r, &so, &st, &e), PQT_EINVAL);
  CHECK(strstr(e.message, "threads") != NULL);
  CHECK(st.release == NULL);
  so.threads = 5000;
  CHECK_EQ_INT(pqt_reader_get_stream(r, &so, &st, &e), PQT_EINVAL);
  pqt_executor bad = {.struct_size = 3, .submit = deferred_submit};
  so.threads = 2;
  so.executor = &bad;
  CHECK_EQ_INT(pqt_reader_get_stream(r, &so, &st, &e), PQT_EINVAL);
  pqt_reader_close(r);
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.threads = -1;
  pqt_writer *w = NULL;
  pqt_string out = {0};
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message = "message m { required int32 a; }";
  CHECK_EQ_INT(pqt_writer_open_buffer(&w, &out, &ws, &wo, &e), PQT_EINVAL);
  CHECK(w == NULL);
  pqt_string_free(&out);
}

/* ---- the writer ------------------------------------------------------------- */

/* path's rows rewritten with `threads` threads (writer; the stream reads at
 * 1) into out; false when the file cannot be rewritten. */
static bool rewrite(const char *path, int32_t threads, int config, const pqt_executor *ex, pqt_string *out, char *error,
                    size_t error_len) {
  pqt_error e;
  pqt_reader *r;
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.int96_as_fixed = 1;
  ro.variant_shredded = 1;
  ro.threads = 1;
  memset(out, 0, sizeof *out);
  error[0] = 0;
  if (pqt_reader_open_file(&r, path, &ro, &e) != PQT_OK) return false;
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.int96_as_fixed = 1;
  o.threads = threads;
  o.executor = ex;
  if (config == 1) {
    o.defaults.page_version = 2;
    o.defaults.codec = PQT_CODEC_ZSTD;
    o.defaults.dictionary_page_size_limit = 200;
    o.defaults.page_row_limit = 7;
    o.row_group_rows = 50;
  } else if (config == 2) {
    o.defaults.codec = PQT_CODEC_SNAPPY;
  }
  pqt_writer *w = NULL;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .like = r};
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.batch_size = config == 1 ? 33 : 0;
  struct ArrowArrayStream st;
  memset(&st, 0, sizeof st);
  bool ok = pqt_writer_open_buffer(&w, out, &ws, &o, &e) == PQT_OK;
  if (!ok) snprintf(error, error_len, "open: %s", e.message);
  ok = ok && pqt_reader_get_stream(r, &so, &st, &e) == PQT_OK;
  bool read_failed = false;
  while (ok) {
    struct ArrowArray b;
    if (st.get_next(&st, &b) != 0) {
      ok = false;
      read_failed = true;
      break;
    }
    if (!b.release) break;
    if (pqt_writer_write_batch(w, &b, &e) != PQT_OK) {
      ok = false;
      snprintf(error, error_len, "write: %s", e.message);
    }
    b.release(&b);
  }
  if (w && ok) {
    if (pqt_writer_close(w, &e) != PQT_OK) {
      ok = false;
      snprintf(error, error_len, "close: %s", e.message);
    }
  } else if (w) {
    pqt_writer_discard(w);
  }
  if (st.release) st.release(&st);
  pqt_reader_close(r);
  if (read_failed) { /* the original does not read: nothing to compare */
    pqt_string_free(out);
    memset(out, 0, sizeof *out);
    return false;
  }
  return true;
}

static int w_files, w_bytes;

static void check_rewrite(const char *path, void *ctx) {
  (void)ctx;
  size_t l = strlen(path);
  if (l < 8 || strcmp(path + l - 8, ".parquet") != 0) return;
  static const int32_t counts[] = {2, 8};
  for (int config = 0; config < 3; config++) {
    pqt_string a;
    char ea[1100];
    if (!rewrite(path, 1, config, NULL, &a, ea, sizeof ea)) continue;
    if (config == 0 && !ea[0]) {
      w_files++;
      w_bytes += (int)a.len;
    }
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
      pqt_string b;
      char eb[1100];
      rewrite(path, counts[k], config, NULL, &b, eb, sizeof eb);
      CHECK_MSG(strcmp(ea, eb) == 0, "%s (config %d): %d threads fail with \"%s\", 1 thread with \"%s\"", path, config,
                (int)counts[k], eb, ea);
      CHECK_MSG(!ea[0] || a.len == b.len, "%s", path);
      CHECK_MSG(ea[0] || (a.len == b.len && memcmp(a.data, b.data, a.len) == 0),
                "%s (config %d): %d threads write %zu bytes, 1 thread %zu (or other bytes)", path, config,
                (int)counts[k], b.len, a.len);
      pqt_string_free(&b);
    }
    pqt_string_free(&a);
  }
}

static void test_corpus_rewrites_same_at_any_thread_count(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  pqt_test_walk(dir, ".parquet", check_rewrite, NULL);
  printf("  %d files rewritten alike at 1, 2 and 8 threads (%d bytes at the default settings)\n", w_files, w_bytes);
  CHECK(w_files > 150);
}

/* A generated table: many columns, nulls, strings, several row groups and
 * pages, every codec; through a shared pool too. */
static void write_generated(int32_t threads, const pqt_executor *ex, int codec, pqt_string *out) {
  enum { N = 20000 };
  memset(out, 0, sizeof *out);
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message =
      "message m { required int64 id; optional double x; optional binary s (STRING); required int32 k; "
      "optional group l (LIST) { repeated group list { optional int32 element; } } optional float y; }";
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.codec = codec;
  o.row_group_rows = 7000;
  o.defaults.page_size = 4096;
  o.threads = threads;
  o.executor = ex;
  pqt_writer *w = NULL;
  pqt_error e;
  CHECK_OK(pqt_writer_open_buffer(&w, out, &ws, &o, &e));
  if (!w) return;
  int64_t *id = malloc(sizeof(int64_t) * N);
  double *x = malloc(sizeof(double) * N);
  int16_t *xd = malloc(sizeof(int16_t) * N);
  int32_t *k = malloc(sizeof(int32_t) * N);
  int32_t *off = malloc(sizeof(int32_t) * (N + 1));
  char *sdata = malloc((size_t)N * 16);
  int16_t *sd = malloc(sizeof(int16_t) * N);
  float *y = malloc(sizeof(float) * N);
  int16_t *yd = malloc(sizeof(int16_t) * N);
  int nx = 0, ns = 0, ny = 0;
  off[0] = 0;
  uint64_t seed = 42;
  for (int i = 0; i < N; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    id[i] = i;
    xd[i] = (seed >> 33) % 10 != 0;
    if (xd[i]) x[nx++] = (double)(seed >> 20) / 1e6;
    k[i] = (int32_t)((seed >> 40) % 100);
    sd[i] = (seed >> 13) % 7 != 0;
    if (sd[i]) {
      int n = snprintf(sdata + off[ns], 16, "v%llu", (unsigned long long)((seed >> 30) % 5000));
      off[ns + 1] = off[ns] + n;
      ns++;
    }
    yd[i] = i % 3 != 0;
    if (yd[i]) y[ny++] = (float)i * 0.5f;
  }
  /* the list column: 0..3 elements per row, some null lists and elements */
  int16_t *ld = malloc(sizeof(int16_t) * N * 4), *lr = malloc(sizeof(int16_t) * N * 4);
  int32_t *lv = malloc(sizeof(int32_t) * N * 4);
  int nl = 0, nlv = 0;
  for (int i = 0; i < N; i++) {
    int m = i % 5 == 4 ? -1 : i % 4;
    if (m < 0) {
      ld[nl] = 0;
      lr[nl++] = 0;
    } else if (m == 0) {
      ld[nl] = 1;
      lr[nl++] = 0;
    }
    for (int j = 0; j < m; j++) {
      lr[nl] = j ? 1 : 0;
      ld[nl] = (i + j) % 6 == 0 ? 2 : 3;
      if (ld[nl] == 3) lv[nlv++] = i * 10 + j;
      nl++;
    }
  }
  /* in slices, as a program would: each slice a whole number of rows */
  int lpos = 0, lvpos = 0, xpos = 0, spos = 0, ypos = 0;
  for (int at = 0; at < N && w; at += 5000) {
    int n = N - at < 5000 ? N - at : 5000;
    int lend = lpos, lvend = lvpos;
    int rows = 0;
    while (lend < nl && (rows < n || lr[lend] != 0)) {
      if (lr[lend] == 0) rows++;
      if (rows > n) break;
      if (ld[lend] == 3) lvend++;
      lend++;
    }
    int cx = 0, cs = 0, cy = 0;
    for (int i = at; i < at + n; i++) {
      cx += xd[i];
      cs += sd[i];
      cy += yd[i];
    }
    int32_t soff[5001];
    for (int i = 0; i <= cs; i++) soff[i] = off[spos + i] - off[spos];
    CHECK_OK(pqt_writer_write_column(w, 0, n, NULL, NULL, id + at, NULL, n, &e));
    CHECK_OK(pqt_writer_write_column(w, 1, n, xd + at, NULL, x + xpos, NULL, cx, &e));
    CHECK_OK(pqt_writer_write_column(w, 2, n, sd + at, NULL, sdata + off[spos], soff, cs, &e));
    CHECK_OK(pqt_writer_write_column(w, 3, n, NULL, NULL, k + at, NULL, n, &e));
    CHECK_OK(pqt_writer_write_column(w, 4, lend - lpos, ld + lpos, lr + lpos, lv + lvpos, NULL, lvend - lvpos, &e));
    CHECK_OK(pqt_writer_write_column(w, 5, n, yd + at, NULL, y + ypos, NULL, cy, &e));
    CHECK_OK(pqt_writer_flush_row_group(w, &e));
    xpos += cx;
    spos += cs;
    ypos += cy;
    lpos = lend;
    lvpos = lvend;
  }
  CHECK_OK(pqt_writer_close(w, &e));
  free(id);
  free(x);
  free(xd);
  free(k);
  free(off);
  free(sdata);
  free(sd);
  free(y);
  free(yd);
  free(ld);
  free(lr);
  free(lv);
}

/* An executor over another that counts what it is given. */
typedef struct counting {
  pqt_executor inner;
  atomic_int n;
} counting;
static int counting_submit(void *ctx, void (*fn)(void *), void *arg) {
  counting *c = ctx;
  atomic_fetch_add(&c->n, 1);
  return c->inner.submit(c->inner.ctx, fn, arg);
}

static void test_generated_writes_same_at_any_thread_count(void) {
  static const int codecs[] = {PQT_CODEC_UNCOMPRESSED, PQT_CODEC_SNAPPY,  PQT_CODEC_ZSTD,
                               PQT_CODEC_GZIP,         PQT_CODEC_LZ4_RAW, PQT_CODEC_BROTLI};
  pqt_thread_pool *pool = NULL;
  pqt_error e;
  CHECK_OK(pqt_thread_pool_create(&pool, 2, NULL, &e));
  pqt_executor inner;
  pqt_thread_pool_executor(pool, &inner);
  counting cnt = {.inner = inner};
  atomic_init(&cnt.n, 0);
  pqt_executor shared = {.struct_size = sizeof(pqt_executor), .submit = counting_submit, .ctx = &cnt};
  for (size_t c = 0; c < sizeof codecs / sizeof *codecs; c++) {
    pqt_string a, b, d, s;
    write_generated(1, NULL, codecs[c], &a);
    write_generated(2, NULL, codecs[c], &b);
    write_generated(8, NULL, codecs[c], &d);
    write_generated(3, &shared, codecs[c], &s);
    CHECK(a.len > 1000);
    CHECK_MSG(a.len == b.len && memcmp(a.data, b.data, a.len) == 0, "codec %d: 2 threads", codecs[c]);
    CHECK_MSG(a.len == d.len && memcmp(a.data, d.data, a.len) == 0, "codec %d: 8 threads", codecs[c]);
    CHECK_MSG(a.len == s.len && memcmp(a.data, s.data, a.len) == 0, "codec %d: a shared pool", codecs[c]);
    /* and what was written reads back alike at any count */
    if (c == 2) {
      char tmp[] = "/tmp/pqt_threads_XXXXXX";
      int fd = mkstemp(tmp);
      CHECK(fd >= 0);
      if (fd >= 0) {
        FILE *f = fdopen(fd, "wb");
        fwrite(a.data, 1, a.len, f);
        fclose(f);
        check_stream(tmp, NULL);
        remove(tmp);
      }
    }
    pqt_string_free(&a);
    pqt_string_free(&b);
    pqt_string_free(&d);
    pqt_string_free(&s);
  }
  pqt_thread_pool_destroy(pool);
  CHECK(atomic_load(&cnt.n) > 0); /* the shared pool's threads were given work */
}

/* ---- decode-ahead: row group N+1 decoded on the pool while N is handed out ---- */

/* An executor over a pool that records the distinct task functions it is given. */
typedef struct recording {
  pqt_executor inner;
  pthread_mutex_t mu;
  void (*fns[8])(void *);
  int n_fns;
} recording;
static int recording_submit(void *ctx, void (*fn)(void *), void *arg) {
  recording *c = ctx;
  pthread_mutex_lock(&c->mu);
  bool seen = false;
  for (int i = 0; i < c->n_fns; i++) seen |= c->fns[i] == fn;
  if (!seen && c->n_fns < 8) c->fns[c->n_fns++] = fn;
  pthread_mutex_unlock(&c->mu);
  return c->inner.submit(c->inner.ctx, fn, arg);
}

typedef struct ahead_case {
  const char *name;
  int64_t batch_size;
  const int32_t *row_groups;
  int32_t n_row_groups;
  const char *where;
  const pqt_row_span *spans;
  int32_t n_spans;
} ahead_case;

/* The stream of the file in memory at `threads` threads (ex: its executor,
 * may be NULL): digest, error; at most max_batches batches taken (< 0:
 * all) before the stream is released. */
static void buf_stream_digest(const pqt_string *file, int32_t threads, const pqt_executor *ex, const ahead_case *c,
                              int max_batches, digest *d, char *error, size_t error_len) {
  digest_start(d, error);
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_read_options ro = thread_options(threads, ex);
  if (pqt_reader_open_buffer(&r, file->data, file->len, &ro, &e) != PQT_OK) {
    snprintf(error, error_len, "open: %.500s", e.message);
    return;
  }
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.batch_size = c->batch_size;
  so.read_ahead = 1; /* decode-ahead is opt-in */
  so.row_groups = c->row_groups;
  so.n_row_groups = c->n_row_groups;
  so.row_ranges = c->spans;
  so.n_row_ranges = c->n_spans;
  pqt_expr *filter = NULL;
  if (c->where) CHECK_OK(pqt_expr_parse(c->where, strlen(c->where), &filter, &e));
  so.filter = filter;
  struct ArrowArrayStream st;
  if (pqt_reader_get_stream(r, &so, &st, &e) != PQT_OK) {
    snprintf(error, error_len, "stream: %.500s", e.message);
  } else {
    digest_stream(&st, max_batches, d, error, error_len); /* released maybe while the next row group decodes */
  }
  pqt_reader_close(r);
  pqt_expr_free(filter);
}

static void check_cases(const char *what, const pqt_string *file, const ahead_case *cases, size_t n_cases,
                        bool expect_error) {
  static const int32_t counts[] = {2, 3, 8};
  for (size_t k = 0; k < n_cases; k++) {
    const ahead_case *c = &cases[k];
    digest d1;
    char e1[1100];
    buf_stream_digest(file, 1, NULL, c, -1, &d1, e1, sizeof e1);
    CHECK_MSG(d1.rows > 0 && (e1[0] != 0) == expect_error, "%s, %s at 1 thread: %lld rows, \"%s\"", what, c->name,
              (long long)d1.rows, e1);
    for (size_t t = 0; t < sizeof counts / sizeof *counts; t++) {
      digest dn;
      char en[1100];
      buf_stream_digest(file, counts[t], NULL, c, -1, &dn, en, sizeof en);
      CHECK_MSG(dn.h == d1.h && dn.rows == d1.rows && dn.batches == d1.batches && strcmp(en, e1) == 0,
                "%s, %s at %d threads: %lld rows in %lld batches \"%s\"; 1 thread %lld in %lld \"%s\"", what, c->name,
                (int)counts[t], (long long)dn.rows, (long long)dn.batches, en, (long long)d1.rows,
                (long long)d1.batches, e1);
    }
    /* released early: after each of the first batches (the next row group
     * decoding on the pool meanwhile), what was handed out is the start of
     * the 1-thread stream */
    for (int stop = 0; stop <= 12; stop += 3) {
      digest dp, d1p;
      char ep[1100], e1p[1100];
      buf_stream_digest(file, 2, NULL, c, stop, &dp, ep, sizeof ep);
      buf_stream_digest(file, 1, NULL, c, stop, &d1p, e1p, sizeof e1p);
      CHECK_MSG(dp.h == d1p.h && dp.rows == d1p.rows && strcmp(ep, e1p) == 0,
                "%s, %s released after %d batches: other batches at 2 threads", what, c->name, stop);
    }
  }
}

enum { AHEAD_GROUPS = 7, AHEAD_ROWS = 6000 };

static void test_decode_ahead_same_as_one_thread(void) {
  pqt_string file;
  ra_write_file(&file, AHEAD_GROUPS, AHEAD_ROWS, true);
  CHECK(file.len > 0);
  if (!file.data) return;
  static const int32_t some[] = {5, 1, 3, 6};
  static const int32_t repeated[] = {2, 2, 0};
  static const pqt_row_span spans[] = {{100, 5000}, {13000, 20}, {29000, 9000}};
  static const ahead_case cases[] = {
      {"whole file", 0, NULL, 0, NULL, NULL, 0},
      {"batches of 1000", 1000, NULL, 0, NULL, NULL, 0},
      {"batches of 777", 777, NULL, 0, NULL, NULL, 0},
      {"batches larger than a row group", 10000, NULL, 0, NULL, NULL, 0},
      {"row groups 5 1 3 6", 1000, some, 4, NULL, NULL, 0},
      {"row groups 2 2 0", 999, repeated, 3, NULL, NULL, 0},
      {"a filter", 1000, NULL, 0, "id >= 7000 and id < 30000 or s = 's7'", NULL, 0},
      {"row ranges (offset and limit)", 1000, NULL, 0, NULL, spans, 3},
  };
  check_cases("generated", &file, cases, sizeof cases / sizeof *cases, false);

  /* decode-ahead runs: a task besides the leaves' loop is given to the executor */
  pqt_thread_pool *pool = NULL;
  pqt_error e;
  CHECK_OK(pqt_thread_pool_create(&pool, 2, NULL, &e));
  recording rec;
  memset(&rec, 0, sizeof rec);
  pthread_mutex_init(&rec.mu, NULL);
  pqt_thread_pool_executor(pool, &rec.inner);
  pqt_executor ex = {.struct_size = sizeof(pqt_executor), .submit = recording_submit, .ctx = &rec};
  digest d1, d2;
  char e1[1100], e2[1100];
  buf_stream_digest(&file, 1, NULL, &cases[1], -1, &d1, e1, sizeof e1);
  buf_stream_digest(&file, 3, &ex, &cases[1], -1, &d2, e2, sizeof e2);
  CHECK(d1.h == d2.h && d1.rows == d2.rows && e2[0] == 0);
  CHECK_MSG(rec.n_fns >= 2, "%d kinds of task handed out", rec.n_fns);
  pqt_thread_pool_destroy(pool);
  pthread_mutex_destroy(&rec.mu);

  /* an executor that runs its tasks only after the stream is gone: the
   * stream reads every row group itself, the late tasks touch nothing */
  deferred q;
  memset(&q, 0, sizeof q);
  pthread_mutex_init(&q.mu, NULL);
  pqt_executor late = {.struct_size = sizeof(pqt_executor), .submit = deferred_submit, .ctx = &q};
  for (int stop = -1; stop <= 4; stop += 5) {
    digest d3, d4;
    char e3[1100], e4[1100];
    buf_stream_digest(&file, 1, NULL, &cases[1], stop, &d3, e3, sizeof e3);
    buf_stream_digest(&file, 4, &late, &cases[1], stop, &d4, e4, sizeof e4);
    CHECK(q.n > 0);
    CHECK(d3.h == d4.h && d3.rows == d4.rows && strcmp(e3, e4) == 0);
    deferred_run(&q);
  }
  free(q.fns);
  free(q.args);
  pthread_mutex_destroy(&q.mu);

  /* a broken page header in row group 3: its error comes after row groups
   * 0 to 2 and as at one thread */
  uint64_t off = ra_group_offset(&file, 3);
  CHECK(off > 0 && off + 8 < file.len);
  if (off > 0 && off + 8 < file.len) {
    memset(file.data + off, 0xff, 8);
    static const ahead_case bad[] = {
        {"row group 3 broken", 1000, NULL, 0, NULL, NULL, 0},
        {"row group 3 broken, whole groups", 0, NULL, 0, NULL, NULL, 0},
    };
    check_cases("damaged", &file, bad, sizeof bad / sizeof *bad, true);
    digest d;
    char err[1100];
    buf_stream_digest(&file, 2, NULL, &bad[0], -1, &d, err, sizeof err);
    CHECK_MSG(d.rows == 3 * AHEAD_ROWS && strstr(err, "row group 3"), "%lld rows, then \"%s\"", (long long)d.rows,
              err);
  }
  pqt_string_free(&file);
}

RUN_TESTS("threads", TEST_CASE(test_decode_ahead_same_as_one_thread), TEST_CASE(test_pool_runs_every_task), TEST_CASE(test_executor_late_or_refusing),
          TEST_CASE(test_bad_thread_counts), TEST_CASE(test_generated_writes_same_at_any_thread_count),
          TEST_CASE(test_corpus_streams_same_at_any_thread_count),
          TEST_CASE(test_corpus_views_at_two_threads),
          TEST_CASE(test_corpus_rewrites_same_at_any_thread_count))
