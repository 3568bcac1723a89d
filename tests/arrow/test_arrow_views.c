/*
 * Zero-copy string/binary views (PQT_ARROW_VIEW): long values point into
 * the decompressed pages, the mapped file and the chunk's dictionary
 * instead of being copied out. Random files (codecs, PLAIN, dictionary,
 * DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY pages, v1 and v2 pages,
 * nulls, a list leaf, page and batch sizes), read from memory and from a
 * path, with views must equal the default output value for value. No long
 * value is copied (variadic buffer 0, the stream's own bytes, stays empty,
 * the views point into buffers 1..) with a codec (PLAIN, dictionary,
 * DELTA_LENGTH_BYTE_ARRAY pages), and from a path (mmap) without one too;
 * uncompressed pages in a caller's buffer are copied (the library cannot
 * keep that memory alive), but not those a caller's read-only pqt_io
 * gave (the reader's copy of the chunk is handed to the views); DELTA_BYTE_ARRAY values with a prefix are built
 * and copied, those without point into the page. Batches kept after the
 * stream, the reader and the file's bytes (a caller's buffer wiped, a file
 * unlinked) are gone still hold their values (the page buffers and the
 * mapping they point into live as long as they do), released in reverse
 * order. ASan sees every access and every buffer freed.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../fuzz/fuzz_arrow_check.h"
#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "rng.h"

#include <unistd.h>

typedef struct tbuf {
  char *p;
  size_t len, cap;
} tbuf;

static void tput(tbuf *b, const void *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t c = b->cap ? b->cap * 2 : 4096;
    while (c < b->len + n + 1) c *= 2;
    char *q = realloc(b->p, c);
    if (!q) abort();
    b->p = q;
    b->cap = c;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
}

static bool tbit(const void *bits, int64_t i) { return (((const uint8_t *)bits)[i >> 3] >> (i & 7)) & 1; }

/* What the views of a stream pointed at. */
static int64_t g_long, g_into_shared, g_own_bytes;

/* Slot `slot` of a (string, binary, view or list of them) as text. */
static void expand(tbuf *b, const struct ArrowSchema *s, const struct ArrowArray *a, int64_t slot) {
  const char *f = s->format;
  if (a->buffers[0] && !tbit(a->buffers[0], slot)) {
    tput(b, "N", 1);
    return;
  }
  if (strcmp(f, "u") == 0 || strcmp(f, "z") == 0) {
    const int32_t *o = a->buffers[1];
    tput(b, "'", 1);
    tput(b, (const uint8_t *)a->buffers[2] + o[slot], (size_t)(o[slot + 1] - o[slot]));
    tput(b, "'", 1);
    return;
  }
  if (strcmp(f, "vu") == 0 || strcmp(f, "vz") == 0) {
    const uint8_t *v = (const uint8_t *)a->buffers[1] + 16 * slot;
    int32_t len, bi, off;
    memcpy(&len, v, 4);
    tput(b, "'", 1);
    if (len <= 12) {
      tput(b, v + 4, (size_t)len);
    } else {
      memcpy(&bi, v + 8, 4);
      memcpy(&off, v + 12, 4);
      g_long++;
      g_into_shared += bi > 0;
      tput(b, (const uint8_t *)a->buffers[2 + bi] + off, (size_t)len);
    }
    tput(b, "'", 1);
    return;
  }
  if (strcmp(f, "+s") == 0) {
    for (int64_t k = 0; k < a->n_children; k++) {
      tput(b, k ? "," : "{", 1);
      expand(b, s->children[k], a->children[k], slot + a->children[k]->offset);
    }
    tput(b, "}", 1);
    return;
  }
  if (strcmp(f, "+l") == 0) {
    const int32_t *o = a->buffers[1];
    tput(b, "[", 1);
    for (int32_t j = o[slot]; j < o[slot + 1]; j++)
      expand(b, s->children[0], a->children[0], j + a->children[0]->offset);
    tput(b, "]", 1);
    return;
  }
  tput(b, "?", 1);
  tput(b, f, strlen(f));
}

/* Bytes in variadic buffer 0 (the stream's own copies) of every view array. */
static void own_bytes(const struct ArrowSchema *s, const struct ArrowArray *a) {
  if (strcmp(s->format, "vu") == 0 || strcmp(s->format, "vz") == 0) {
    const int64_t *sizes = a->buffers[a->n_buffers - 1];
    g_own_bytes += sizes[0];
  }
  for (int64_t k = 0; k < a->n_children; k++) own_bytes(s->children[k], a->children[k]);
}

static void expand_batch(tbuf *out, const struct ArrowSchema *s, const struct ArrowArray *a) {
  for (int64_t i = 0; i < a->length; i++) {
    expand(out, s, a, a->offset + i);
    tput(out, "\n", 1);
  }
  own_bytes(s, a);
}

#define MAX_BATCHES 256

/* Stream r with the options: every batch expanded into text and released
 * (text non-NULL), else kept (*n batches in out). */
static int stream_all(pqt_reader *r, uint64_t arrow_output, int64_t batch_size, int32_t threads,
                      struct ArrowSchema *schema, struct ArrowArray *out, int *n, struct ArrowArrayStream *st,
                      tbuf *text) {
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.arrow_output = arrow_output;
  so.batch_size = batch_size;
  so.threads = threads;
  pqt_error err;
  *n = 0;
  if (pqt_reader_get_stream(r, &so, st, &err) != PQT_OK) return -1;
  int rc = st->get_schema(st, schema);
  if (rc != 0) return rc;
  for (;;) {
    struct ArrowArray a;
    rc = st->get_next(st, &a);
    if (rc != 0 || !a.release) break;
    pqt_arrow_check chk;
    memset(&chk, 0, sizeof chk);
    const char *bad = pqt_arrow_check_array(&chk, schema, &a, 0);
    CHECK_MSG(bad == NULL, "options %llu: %s %s", (unsigned long long)arrow_output, bad ? bad : "", chk.msg);
    if (text) {
      expand_batch(text, schema, &a);
      a.release(&a);
      continue;
    }
    if (*n == MAX_BATCHES) {
      a.release(&a);
      CHECK(!"too many batches for the test");
      break;
    }
    out[(*n)++] = a;
  }
  return rc;
}

/* ---- random files ----------------------------------------------------- */

static const char *SCHEMA =
    "message m {\n"
    "  optional binary s (STRING);\n"
    "  required binary b;\n"
    "  optional group l (LIST) { repeated group list { optional binary element (STRING); } }\n"
    "}\n";

typedef struct cfg {
  int32_t codec;
  int dictionary;
  int page_version;
  int64_t page_rows;
  uint64_t seed;
  int32_t encoding; /* 0: the writer's default */
} cfg;

/* A value of 0..60 bytes from a pool of 40 (dictionary-friendly) or fresh. */
static size_t rand_value(uint64_t *rng, bool pooled, char *out) {
  uint64_t x = pqt_test_xorshift(rng);
  uint64_t pick = pooled ? x % 40 : x;
  size_t len = (size_t)((pick * 2654435761u) >> 7) % 61;
  if (x % 5 == 0) len = 12 + x % 3; /* around the inline limit */
  uint64_t y = pick * 0x9E3779B97F4A7C15ull + 1;
  for (size_t i = 0; i < len; i++) {
    y = y * 6364136223846793005ull + 1442695040888963407ull;
    out[i] = (char)('a' + (y >> 59) % 26);
  }
  return len;
}

static bool write_random(const cfg *c, pqt_string *buf) {
  memset(buf, 0, sizeof *buf);
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.row_group_rows = 1 << 30;
  o.defaults.codec = c->codec;
  o.defaults.dictionary = c->dictionary;
  o.defaults.page_version = c->page_version;
  o.defaults.page_row_limit = c->page_rows;
  if (c->encoding) o.defaults.encoding = c->encoding;
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message = SCHEMA;
  pqt_writer *w = NULL;
  pqt_error err;
  if (pqt_writer_open_buffer(&w, buf, &ws, &o, &err) != PQT_OK) {
    fprintf(stderr, "  open writer: %s\n", err.message);
    return false;
  }
  enum { N = 1500 };
  static int16_t def[N * 4], rep[N * 4];
  static int32_t offs[N * 4 + 1];
  static char bytes[N * 4 * 64];
  uint64_t rng = c->seed;
  bool ok = true;
  for (int g = 0; ok && g < 2; g++) {
    bool pooled = c->dictionary && g == 0;
    for (int col = 0; ok && col < 2; col++) { /* s (nulls), b (required) */
      int64_t nv = 0;
      size_t nb = 0;
      offs[0] = 0;
      for (int i = 0; i < N; i++) {
        if (col == 0 && pqt_test_xorshift(&rng) % 6 == 0) {
          def[i] = 0;
          continue;
        }
        def[i] = 1;
        nb += rand_value(&rng, pooled, bytes + nb);
        offs[++nv] = (int32_t)nb;
      }
      ok = pqt_writer_write_column(w, col, col == 0 ? N : nv, col == 0 ? def : NULL, NULL, bytes, offs, nv, &err) ==
           PQT_OK;
    }
    if (ok) { /* l: lists of 0..3, null lists, null elements */
      int64_t nl = 0, nv = 0;
      size_t nb = 0;
      offs[0] = 0;
      for (int i = 0; i < N; i++) {
        uint64_t x = pqt_test_xorshift(&rng);
        int n = (int)(x % 4);
        if (x % 11 == 0) {
          rep[nl] = 0;
          def[nl++] = 0;
          continue;
        }
        if (n == 0) {
          rep[nl] = 0;
          def[nl++] = 1;
          continue;
        }
        for (int e = 0; e < n; e++) {
          rep[nl] = e ? 1 : 0;
          if (pqt_test_xorshift(&rng) % 7 == 0) {
            def[nl++] = 2;
            continue;
          }
          def[nl++] = 3;
          nb += rand_value(&rng, pooled, bytes + nb);
          offs[++nv] = (int32_t)nb;
        }
      }
      ok = pqt_writer_write_column(w, 2, nl, def, rep, bytes, offs, nv, &err) == PQT_OK;
    }
    if (ok) ok = pqt_writer_flush_row_group(w, &err) == PQT_OK;
    if (!ok) fprintf(stderr, "  write: %s\n", err.message);
  }
  if (!ok) {
    pqt_writer_discard(w);
    return false;
  }
  if (pqt_writer_close(w, &err) != PQT_OK) {
    fprintf(stderr, "  close: %s\n", err.message);
    return false;
  }
  return true;
}

/* The text of a whole stream, batches released as they come. */
static int read_text(pqt_reader *r, uint64_t arrow_output, int64_t batch_size, int32_t threads, tbuf *out) {
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  struct ArrowArrayStream st;
  int n = 0;
  int rc = stream_all(r, arrow_output, batch_size, threads, &schema, NULL, &n, &st, out);
  if (schema.release) schema.release(&schema);
  if (rc != -1) st.release(&st);
  return rc;
}

/* A random file written into buf and opened (NULL, buf freed: it failed). */
static pqt_reader *open_random(const cfg *c, pqt_string *buf) {
  if (!write_random(c, buf)) {
    CHECK(!"a random file could not be written");
    pqt_string_free(buf);
    return NULL;
  }
  pqt_reader *r = NULL;
  pqt_error err;
  if (pqt_reader_open_buffer(&r, buf->data, buf->len, NULL, &err) != PQT_OK) {
    CHECK_MSG(0, "open: %s", err.message);
    pqt_string_free(buf);
    return NULL;
  }
  return r;
}

/* buf written to a new temporary file (path: its name) and opened from
 * there (mapped); NULL when that failed. */
static pqt_reader *open_as_file(const pqt_string *buf, char *path, size_t cap) {
  snprintf(path, cap, "%s", "/tmp/pqt_views_XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) {
    CHECK(!"mkstemp failed");
    return NULL;
  }
  bool ok = write(fd, buf->data, buf->len) == (ssize_t)buf->len;
  ok = close(fd) == 0 && ok;
  CHECK(ok);
  pqt_reader *r = NULL;
  pqt_error err;
  if (ok && pqt_reader_open_file(&r, path, NULL, &err) != PQT_OK) CHECK_MSG(0, "open %s: %s", path, err.message);
  if (!r) unlink(path);
  return r;
}

static void test_random_files(void) {
  static const int32_t codecs[] = {PQT_CODEC_UNCOMPRESSED, PQT_CODEC_SNAPPY, PQT_CODEC_ZSTD};
  static const int32_t encodings[] = {0, PQT_ENCODING_DELTA_BYTE_ARRAY};
  uint64_t seed = 0x5eed1234abcdull;
  int files = 0;
  int64_t shared_total = 0, dba_shared = 0, dba_copied = 0;
  for (size_t ci = 0; ci < 3; ci++)
    for (int dict = 0; dict <= 1; dict++)
      for (int pv = 1; pv <= 2; pv++)
        for (int ei = 0; ei < 2; ei++) {
          cfg c = {codecs[ci], dict, pv, 0, 0, encodings[ei]};
          c.page_rows = 1 + (int64_t)(pqt_test_xorshift(&seed) % 400);
          c.seed = pqt_test_xorshift(&seed) | 1;
          bool dba = c.encoding == PQT_ENCODING_DELTA_BYTE_ARRAY;
          pqt_string buf;
          pqt_reader *r = open_random(&c, &buf);
          if (!r) continue;
          char path[64];
          pqt_reader *rf = open_as_file(&buf, path, sizeof path);
          static const int64_t sizes[] = {0, 333, 1};
          for (size_t k = 0; k < sizeof sizes / sizeof *sizes + 1; k++) {
            bool from_path = k == 3; /* the last pass: the same file mapped */
            pqt_reader *src = from_path ? rf : r;
            if (!src) continue;
            int64_t bs = from_path ? 0 : sizes[k];
            int32_t threads = k == 1 ? 2 : 1;
            tbuf ref = {0}, got = {0};
            CHECK_EQ_INT(read_text(r, PQT_ARROW_PLAIN, bs, 1, &ref), 0);
            g_long = g_into_shared = g_own_bytes = 0;
            CHECK_EQ_INT(read_text(src, PQT_ARROW_VIEW, bs, threads, &got), 0);
            bool same = got.len == ref.len && (ref.len == 0 || memcmp(got.p, ref.p, ref.len) == 0);
            CHECK_MSG(same,
                      "codec %d, dictionary %d, v%d pages of %lld rows, encoding %d, batches of %lld%s: views differ "
                      "from the default output",
                      (int)c.codec, dict, pv, (long long)c.page_rows, (int)c.encoding, (long long)bs,
                      from_path ? ", from a path" : "");
            CHECK(g_long > 0);
            /* PLAIN, dictionary, DELTA_LENGTH_BYTE_ARRAY pages, decompressed or mapped: nothing copied. (The
             * writer stores a v2 page that snappy does not shrink uncompressed (is_compressed false): in a
             * caller's buffer it is copied, so from memory v2 pages are held to it with zstd only.) */
            if (!dba && (from_path || (c.codec != PQT_CODEC_UNCOMPRESSED && (pv == 1 || c.codec == PQT_CODEC_ZSTD)))) {
              CHECK_MSG(g_into_shared == g_long && g_own_bytes == 0,
                        "codec %d, dictionary %d, v%d%s: %lld of %lld long values copied (%lld own bytes)",
                        (int)c.codec, dict, pv, from_path ? ", from a path" : "", (long long)(g_long - g_into_shared),
                        (long long)g_long, (long long)g_own_bytes);
            }
            /* uncompressed pages in the caller's buffer: copied, not pointed at */
            if (!dba && !dict && !from_path && c.codec == PQT_CODEC_UNCOMPRESSED) CHECK(g_own_bytes > 0);
            if (dba && !dict) {
              /* values with a prefix are built (copied); those without point into the page */
              bool kept = c.codec != PQT_CODEC_UNCOMPRESSED || from_path; /* else the caller's buffer: copied */
              CHECK_MSG(g_own_bytes > 0 && (kept ? g_into_shared > 0 && g_into_shared < g_long : g_into_shared == 0),
                        "DELTA_BYTE_ARRAY, codec %d, v%d%s: %lld of %lld pointed at, %lld own bytes", (int)c.codec,
                        pv, from_path ? ", from a path" : "", (long long)g_into_shared, (long long)g_long,
                        (long long)g_own_bytes);
              dba_shared += g_into_shared;
              dba_copied += g_long - g_into_shared;
            }
            shared_total += g_into_shared;
            free(ref.p);
            free(got.p);
          }
          if (rf) {
            pqt_reader_close(rf);
            unlink(path);
          }
          pqt_reader_close(r);
          pqt_string_free(&buf);
          files++;
        }
  printf("  %d random files read alike with views; %lld long values pointed into pages, mappings or dictionaries; "
         "DELTA_BYTE_ARRAY: %lld pointed at, %lld built\n",
         files, (long long)shared_total, (long long)dba_shared, (long long)dba_copied);
  CHECK_EQ_INT(files, 24);
  CHECK(shared_total > 0);
  CHECK(dba_shared > 0 && dba_copied > 0);
}

/* Batches outlive the stream, the reader and the file's bytes (a caller's
 * buffer wiped and freed; a file closed and unlinked: its mapping lives on
 * while the views point into it); released last to first. */
static void test_batches_outlive_reader(void) {
  static const int32_t codecs[] = {PQT_CODEC_SNAPPY, PQT_CODEC_UNCOMPRESSED};
  static const int32_t encodings[] = {0, PQT_ENCODING_DELTA_BYTE_ARRAY};
  for (int k = 0; k < 12; k++) {
    bool from_path = k >= 4;
    int pv = k >= 8 ? 2 : 1; /* v2: DELTA_LENGTH_BYTE_ARRAY, or DELTA_BYTE_ARRAY */
    cfg c = {codecs[k % 2], k < 4 ? k / 2 : 0, pv, 97, 0x1234567ull + (uint64_t)k, k >= 8 ? encodings[k / 2 % 2] : 0};
    pqt_string buf;
    pqt_reader *r = open_random(&c, &buf);
    if (!r) continue;
    char path[64] = "";
    if (from_path) {
      pqt_reader *rf = open_as_file(&buf, path, sizeof path);
      if (!rf) {
        pqt_reader_close(r);
        pqt_string_free(&buf);
        continue;
      }
      tbuf ref = {0};
      CHECK_EQ_INT(read_text(r, PQT_ARROW_PLAIN, 250, 1, &ref), 0);
      pqt_reader_close(r);
      r = rf;
      memset(buf.data, 0xEE, buf.len);
      pqt_string_free(&buf);
      buf.data = ref.p; /* the expected text, kept in buf's place */
      buf.len = ref.len;
    }
    tbuf ref = {0}, got = {0};
    if (from_path) {
      ref.p = buf.data;
      ref.len = buf.len;
    } else {
      CHECK_EQ_INT(read_text(r, PQT_ARROW_PLAIN, 250, 1, &ref), 0);
    }
    static struct ArrowArray batches[MAX_BATCHES];
    struct ArrowSchema schema;
    memset(&schema, 0, sizeof schema);
    struct ArrowArrayStream st;
    int n = 0;
    CHECK_EQ_INT(stream_all(r, PQT_ARROW_VIEW, 250, k % 2 ? 2 : 1, &schema, batches, &n, &st, NULL), 0);
    st.release(&st);
    pqt_reader_close(r);
    if (from_path) {
      CHECK(unlink(path) == 0); /* closed and unlinked: only the views' references keep it mapped */
    } else {
      memset(buf.data, 0xEE, buf.len); /* nothing may point into the file's bytes */
      pqt_string_free(&buf);
    }
    CHECK(n > 4);
    g_long = g_into_shared = g_own_bytes = 0;
    for (int i = 0; i < n; i++) expand_batch(&got, &schema, &batches[i]);
    for (int i = n - 1; i >= 0; i--) batches[i].release(&batches[i]);
    if (schema.release) schema.release(&schema);
    CHECK_MSG(got.len == ref.len && memcmp(got.p, ref.p, ref.len) == 0,
              "case %d: batches kept past the reader differ from the default output", k);
    CHECK(g_long > 0);
    if (from_path && c.encoding != PQT_ENCODING_DELTA_BYTE_ARRAY)
      CHECK_MSG(g_own_bytes == 0 && g_into_shared == g_long, "case %d, from a path: %lld of %lld long values copied",
                k, (long long)(g_long - g_into_shared), (long long)g_long);
    free(ref.p);
    free(got.p);
  }
}

/* A caller's source that can only read (no borrow_at): over its own copy
 * of the file's bytes, freed at release. */
typedef struct read_only_src {
  uint8_t *data;
  size_t len;
} read_only_src;

static pqt_status ro_read_at(void *pd, uint64_t off, void *dst, size_t n, pqt_error *err) {
  read_only_src *s = pd;
  if (off > s->len || n > s->len - off) {
    err->code = PQT_EIO;
    snprintf(err->message, sizeof err->message, "read past the end");
    return PQT_EIO;
  }
  memcpy(dst, s->data + off, n);
  return PQT_OK;
}

static void ro_release(void *pd) {
  read_only_src *s = pd;
  memset(s->data, 0xEE, s->len); /* nothing may point here once released */
  free(s->data);
  free(s);
}

/* Uncompressed pages through a caller's pqt_io that only reads: the
 * reader's copy of each chunk is handed to the views (nothing copied
 * again), and outlives the reader and the source. */
static void test_read_only_source(void) {
  for (int pv = 1; pv <= 2; pv++) {
    cfg c = {PQT_CODEC_UNCOMPRESSED, 0, pv, 97, 0x777ull + (uint64_t)pv, 0};
    pqt_string buf;
    pqt_reader *r = open_random(&c, &buf);
    if (!r) continue;
    tbuf ref = {0}, got = {0};
    CHECK_EQ_INT(read_text(r, PQT_ARROW_PLAIN, 250, 1, &ref), 0);
    pqt_reader_close(r);
    read_only_src *s = malloc(sizeof *s);
    if (!s) abort();
    s->data = malloc(buf.len);
    if (!s->data) abort();
    memcpy(s->data, buf.data, buf.len);
    s->len = buf.len;
    pqt_string_free(&buf);
    pqt_io io;
    pqt_io_init(&io);
    io.read_at = ro_read_at;
    io.release = ro_release;
    io.size = s->len;
    io.private_data = s;
    pqt_error err;
    r = NULL;
    if (pqt_reader_open(&r, &io, NULL, &err) != PQT_OK) {
      CHECK_MSG(0, "open: %s", err.message);
      free(ref.p);
      continue;
    }
    static struct ArrowArray batches[MAX_BATCHES];
    struct ArrowSchema schema;
    memset(&schema, 0, sizeof schema);
    struct ArrowArrayStream st;
    int n = 0;
    CHECK_EQ_INT(stream_all(r, PQT_ARROW_VIEW, 250, 1, &schema, batches, &n, &st, NULL), 0);
    st.release(&st);
    pqt_reader_close(r); /* releases the source */
    g_long = g_into_shared = g_own_bytes = 0;
    for (int i = 0; i < n; i++) expand_batch(&got, &schema, &batches[i]);
    for (int i = n - 1; i >= 0; i--) batches[i].release(&batches[i]);
    if (schema.release) schema.release(&schema);
    CHECK_MSG(got.len == ref.len && memcmp(got.p, ref.p, ref.len) == 0, "v%d: views differ from the default output",
              pv);
    CHECK(g_long > 0);
    CHECK_MSG(g_own_bytes == 0 && g_into_shared == g_long, "v%d: %lld of %lld long values copied", pv,
              (long long)(g_long - g_into_shared), (long long)g_long);
    free(ref.p);
    free(got.p);
  }
}

/* The last error of a stream read with the options ("" when it ends well). */
static void stream_error(pqt_reader *r, uint64_t arrow_output, char *msg, size_t cap) {
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.arrow_output = arrow_output;
  so.threads = 1;
  struct ArrowArrayStream st;
  pqt_error err;
  msg[0] = 0;
  if (pqt_reader_get_stream(r, &so, &st, &err) != PQT_OK) {
    snprintf(msg, cap, "get_stream: %s", err.message);
    return;
  }
  for (;;) {
    struct ArrowArray a;
    if (st.get_next(&st, &a) != 0) {
      const char *m = st.get_last_error(&st);
      snprintf(msg, cap, "%s", m ? m : "(no message)");
      break;
    }
    if (!a.release) break;
    a.release(&a);
  }
  st.release(&st);
}

/* STRING values are checked as UTF-8 with views as by default: non-ASCII
 * values (and lengths of 128 bytes and more, whose prefixes are not ASCII)
 * pass, an invalid value fails the same way, dictionary or PLAIN. */
static void test_utf8_checked(void) {
  char longv[200];
  memset(longv, 'x', sizeof longv);
  memcpy(longv, "caf\xc3\xa9 ", 6);
  for (int bad = 0; bad <= 1; bad++)
    for (int dict = 0; dict <= 1; dict++) {
      pqt_write_options o;
      pqt_write_options_init(&o);
      o.defaults.dictionary = dict;
      o.defaults.codec = PQT_CODEC_SNAPPY;
      pqt_write_schema ws;
      pqt_write_schema_init(&ws);
      ws.message = "message m { required binary s (STRING); }";
      pqt_string buf = {0};
      pqt_writer *w = NULL;
      pqt_error err;
      CHECK_OK(pqt_writer_open_buffer(&w, &buf, &ws, &o, &err));
      if (!w) continue;
      char bytes[4096];
      int32_t offs[41];
      size_t nb = 0;
      offs[0] = 0;
      for (int i = 0; i < 40; i++) {
        size_t len = i % 3 == 0 ? 150 : i % 3 == 1 ? 20 : 5;
        memcpy(bytes + nb, longv, len);
        if (bad && i == 31) bytes[nb + 10] = (char)0xff;
        nb += len;
        offs[i + 1] = (int32_t)nb;
      }
      CHECK_OK(pqt_writer_write_column(w, 0, 40, NULL, NULL, bytes, offs, 40, &err));
      CHECK_OK(pqt_writer_close(w, &err));
      pqt_reader *r = NULL;
      CHECK_OK(pqt_reader_open_buffer(&r, buf.data, buf.len, NULL, &err));
      if (r) {
        char e0[600], e1[600];
        stream_error(r, PQT_ARROW_PLAIN, e0, sizeof e0);
        stream_error(r, PQT_ARROW_VIEW, e1, sizeof e1);
        CHECK_MSG(strcmp(e0, e1) == 0, "bad %d, dictionary %d: default \"%s\", views \"%s\"", bad, dict, e0, e1);
        CHECK_MSG((strstr(e1, "invalid UTF-8") != NULL) == (bad == 1), "bad %d, dictionary %d: \"%s\"", bad, dict,
                  e1);
        tbuf ref = {0}, got = {0};
        if (!bad) {
          CHECK_EQ_INT(read_text(r, PQT_ARROW_PLAIN, 0, 1, &ref), 0);
          CHECK_EQ_INT(read_text(r, PQT_ARROW_VIEW, 0, 1, &got), 0);
          CHECK(got.len == ref.len && memcmp(got.p, ref.p, ref.len) == 0);
        }
        free(ref.p);
        free(got.p);
        pqt_reader_close(r);
      }
      pqt_string_free(&buf);
    }
}

RUN_TESTS("arrow_views", TEST_CASE(test_random_files), TEST_CASE(test_batches_outlive_reader), TEST_CASE(test_read_only_source),
          TEST_CASE(test_utf8_checked))
