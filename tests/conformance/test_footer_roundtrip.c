/* Conformance: every file of the parquet-testing corpus (recursive walk).
 * For each "PAR1" file the footer FileMetaData is decoded, re-encoded and
 * decoded again; the two models must be deep-equal, and the two encodings
 * and the two JSON dumps byte-identical. The original bytes may differ from
 * our encoding (field order, varint padding), so models are compared, not
 * bytes. For good files the page index structs (ColumnIndex, OffsetIndex)
 * and the first page header of every column chunk are decoded and
 * round-tripped the same way. "PARE" files (encrypted footer) have their
 * plaintext FileCryptoMetaData round-tripped and the encrypted FileMetaData
 * skipped (it needs a key). Files under bad_data/ may fail to decode, but
 * must fail cleanly (sanitizers watch). */
#include <dirent.h>
#include <sys/stat.h>

#include "core/core.h"
#include "harness.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

typedef struct tally {
  int unknown_union_files;
  int files, par1, pare, other, too_small;
  int footers_ok, bad_data_rejected, bad_data_ok;
  int crypto_meta_ok, signed_footers;
  int page_headers_ok, column_indexes_ok, offset_indexes_ok;
  int aux_failed_bad_data;
} tally;

/* A union field whose member this version does not know (isset == 0) is
 * left out by the encoder (codec.h). Clear such fields in a decoded model so
 * that it can be compared with its re-decoded encoding; returns how many
 * were cleared. */
static int clear_unknown_unions(const pqt_thrift_desc *d, uint8_t *s) {
  if (!s || !d->size) return 0;
  int n = 0;
  uint32_t isset;
  memcpy(&isset, s, 4);
  for (uint16_t i = 0; i < d->n_fields; i++) {
    const pqt_thrift_field *f = &d->fields[i];
    if (!((isset >> f->id) & 1u) || f->offset < 0) continue;
    uint8_t *v = s + f->offset;
    if (f->kind == PQT_TK_STRUCT) {
      uint32_t sub_isset;
      memcpy(&sub_isset, v, 4);
      if (f->sub->is_union && sub_isset == 0) {
        isset &= ~(1u << f->id);
        n++;
      } else {
        n += clear_unknown_unions(f->sub, v);
      }
    } else if (f->kind == PQT_TK_LIST && f->elem == PQT_TK_STRUCT && f->sub->size) {
      pqt_list_i64 l; /* every list has the {items, n} layout */
      memcpy(&l, v, sizeof l);
      for (int32_t k = 0; k < l.n; k++)
        n += clear_unknown_unions(f->sub, (uint8_t *)l.items + (size_t)k * f->sub->size);
    }
  }
  memcpy(s, &isset, 4);
  return n;
}

static int g_unknown_unions; /* set by roundtrip() for the tally */

/* decode -> encode -> decode -> encode; compare models, bytes and JSON. */
static pqt_status roundtrip(const pqt_thrift_desc *d, const uint8_t *buf, size_t len, size_t *consumed,
                            const char *path, pqt_error *err) {
  void *m1 = calloc(1, d->size ? d->size : 1), *m2 = calloc(1, d->size ? d->size : 1);
  pqt_arena a1, a2;
  pqt_arena_init(&a1, NULL);
  pqt_arena_init(&a2, NULL);
  pqt_buf e1, e2, j1, j2;
  pqt_buf_init(&e1, NULL);
  pqt_buf_init(&e2, NULL);
  pqt_buf_init(&j1, NULL);
  pqt_buf_init(&j2, NULL);
  pqt_status st = pqt_thrift_decode(d, buf, len, consumed, &a1, m1, err);
  if (st == PQT_OK) {
    CHECK_OK(pqt_thrift_encode(d, m1, &e1, NULL));
    size_t used2 = 0;
    pqt_error e;
    pqt_error_init(&e);
    pqt_status st2 = pqt_thrift_decode(d, e1.data, e1.len, &used2, &a2, m2, &e);
    CHECK_MSG(st2 == PQT_OK, "%s: %s re-decode failed: %s", path, d->name, e.message);
    if (st2 == PQT_OK) {
      g_unknown_unions = clear_unknown_unions(d, m1);
      CHECK_MSG(used2 == e1.len, "%s: %s re-decode used %zu of %zu", path, d->name, used2, e1.len);
      CHECK_MSG(pqt_thrift_equal(d, m1, m2), "%s: %s models differ after round trip", path, d->name);
      CHECK_OK(pqt_thrift_encode(d, m2, &e2, NULL));
      CHECK_MSG(e1.len == e2.len && memcmp(e1.data, e2.data, e1.len) == 0, "%s: %s encodings differ", path, d->name);
      CHECK_OK(pqt_thrift_to_json(d, m1, 0, &j1, NULL));
      CHECK_OK(pqt_thrift_to_json(d, m2, 0, &j2, NULL));
      CHECK_MSG(j1.len > 2 && j1.len == j2.len && memcmp(j1.data, j2.data, j1.len) == 0, "%s: %s JSON differs", path,
                d->name);
    }
  }
  pqt_buf_free(&e1);
  pqt_buf_free(&e2);
  pqt_buf_free(&j1);
  pqt_buf_free(&j2);
  pqt_arena_reset(&a1);
  pqt_arena_reset(&a2);
  free(m1);
  free(m2);
  return st;
}

/* Page headers and page index structs referenced by a good footer. */
static void check_aux(const uint8_t *file, size_t n, const pqt_file_metadata *m, bool bad, const char *path, tally *t) {
  for (int32_t r = 0; r < m->row_groups.n; r++) {
    const pqt_row_group *rg = &m->row_groups.items[r];
    for (int32_t c = 0; c < rg->columns.n; c++) {
      const pqt_column_chunk *cc = &rg->columns.items[c];
      if (PQT_HAS_FIELD(cc, column_chunk, crypto_metadata) ||
          PQT_HAS_FIELD(cc, column_chunk, encrypted_column_metadata) ||
          PQT_HAS_FIELD(m, file_metadata, encryption_algorithm))
        continue; /* encrypted */
      if (!PQT_HAS_FIELD(cc, column_chunk, meta_data)) continue;
      const pqt_column_metadata *md = &cc->meta_data;
      int64_t off = md->data_page_offset;
      if (PQT_HAS_FIELD(md, column_metadata, dictionary_page_offset) && md->dictionary_page_offset > 0 &&
          md->dictionary_page_offset < off)
        off = md->dictionary_page_offset;
      pqt_error e;
      pqt_error_init(&e);
      if (off >= 4 && (uint64_t)off < n) {
        size_t used = 0;
        pqt_status st = roundtrip(&pqt_desc_page_header, file + off, n - (size_t)off, &used, path, &e);
        if (st == PQT_OK) t->page_headers_ok++;
        else if (bad) t->aux_failed_bad_data++;
        else CHECK_MSG(0, "%s rg %d col %d: page header at %lld: %s", path, r, c, (long long)off, e.message);
      }
      if (PQT_HAS_FIELD(cc, column_chunk, column_index_offset) &&
          PQT_HAS_FIELD(cc, column_chunk, column_index_length) && cc->column_index_offset >= 0 &&
          cc->column_index_length > 0 && (uint64_t)cc->column_index_offset + (uint64_t)cc->column_index_length <= n) {
        size_t used = 0;
        pqt_status st = roundtrip(&pqt_desc_column_index, file + cc->column_index_offset,
                                  (size_t)cc->column_index_length, &used, path, &e);
        if (st == PQT_OK) t->column_indexes_ok++;
        else if (bad) t->aux_failed_bad_data++;
        else CHECK_MSG(0, "%s rg %d col %d: column index: %s", path, r, c, e.message);
      }
      if (PQT_HAS_FIELD(cc, column_chunk, offset_index_offset) &&
          PQT_HAS_FIELD(cc, column_chunk, offset_index_length) && cc->offset_index_offset >= 0 &&
          cc->offset_index_length > 0 && (uint64_t)cc->offset_index_offset + (uint64_t)cc->offset_index_length <= n) {
        size_t used = 0;
        pqt_status st = roundtrip(&pqt_desc_offset_index, file + cc->offset_index_offset,
                                  (size_t)cc->offset_index_length, &used, path, &e);
        if (st == PQT_OK) t->offset_indexes_ok++;
        else if (bad) t->aux_failed_bad_data++;
        else CHECK_MSG(0, "%s rg %d col %d: offset index: %s", path, r, c, e.message);
      }
    }
  }
}

static void check_file(const char *path, bool bad, tally *t) {
  size_t n = 0;
  uint8_t *file = pqt_test_read_file(path, &n);
  CHECK_MSG(file != NULL, "cannot read %s", path);
  if (!file) return;
  t->files++;
  if (n < 12) {
    t->too_small++;
    free(file);
    return;
  }
  const uint8_t *tail = file + n - 4;
  bool par1 = memcmp(tail, "PAR1", 4) == 0, pare = memcmp(tail, "PARE", 4) == 0;
  if (!par1 && !pare) {
    t->other++;
    free(file);
    return;
  }
  uint32_t flen = pqt_load_u32le(file + n - 8);
  if ((uint64_t)flen + 8 > n) {
    CHECK_MSG(bad, "%s: footer length %u larger than the file", path, flen);
    if (par1) t->par1++;
    else t->pare++;
    t->bad_data_rejected++;
    free(file);
    return;
  }
  /* an exact-size copy of the footer, so any over-read is caught */
  uint8_t *footer = malloc(flen ? flen : 1);
  memcpy(footer, file + n - 8 - flen, flen);
  pqt_error e;
  pqt_error_init(&e);
  size_t used = 0;
  if (pare) {
    t->pare++;
    pqt_status st = roundtrip(&pqt_desc_file_crypto_metadata, footer, flen, &used, path, &e);
    if (st == PQT_OK) t->crypto_meta_ok++;
    else CHECK_MSG(bad, "%s: FileCryptoMetaData: %s", path, e.message);
    free(footer);
    free(file);
    return;
  }
  t->par1++;
  g_unknown_unions = 0;
  pqt_status st = roundtrip(&pqt_desc_file_metadata, footer, flen, &used, path, &e);
  if (bad && getenv("PQT_VERBOSE"))
    printf("  bad_data %s: footer %s%s\n", path,
           st == PQT_OK ? "decoded" : "rejected: ", st == PQT_OK ? "" : e.message);
  if (st != PQT_OK) {
    CHECK_MSG(bad, "%s: footer decode failed: %s", path, e.message);
    if (bad) t->bad_data_rejected++;
  } else {
    if (bad) t->bad_data_ok++;
    else t->footers_ok++;
    if (g_unknown_unions) t->unknown_union_files++;
    /* keep a model for the page-level checks */
    pqt_arena a;
    pqt_arena_init(&a, NULL);
    pqt_file_metadata m;
    CHECK_OK(pqt_thrift_decode(&pqt_desc_file_metadata, footer, flen, NULL, &a, &m, NULL));
    if (used != flen) {
      /* Only a signed plaintext footer (nonce + tag = 28 bytes) may follow. */
      bool signed_footer = PQT_HAS_FIELD(&m, file_metadata, encryption_algorithm) && flen - used == 28;
      if (signed_footer) t->signed_footers++;
      CHECK_MSG(bad || signed_footer, "%s: footer used %zu of %u bytes", path, used, flen);
    }
    check_aux(file, n, &m, bad, path, t);
    pqt_arena_reset(&a);
  }
  free(footer);
  free(file);
}

static void walk(const char *dir, bool bad, tally *t) {
  DIR *d = opendir(dir);
  CHECK_MSG(d != NULL, "cannot open %s", dir);
  if (!d) return;
  /* collect and sort names for a stable order */
  char **names = NULL;
  size_t nn = 0, cap = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    if (de->d_name[0] == '.') continue;
    if (nn == cap) {
      cap = cap ? cap * 2 : 64;
      names = realloc(names, cap * sizeof *names);
    }
    names[nn++] = strdup(de->d_name);
  }
  closedir(d);
  for (size_t i = 1; i < nn; i++)
    for (size_t k = i; k > 0 && strcmp(names[k - 1], names[k]) > 0; k--) {
      char *tmp = names[k];
      names[k] = names[k - 1];
      names[k - 1] = tmp;
    }
  for (size_t i = 0; i < nn; i++) {
    size_t plen = strlen(dir) + strlen(names[i]) + 2;
    char *path = malloc(plen);
    snprintf(path, plen, "%s/%s", dir, names[i]);
    struct stat st;
    if (stat(path, &st) == 0) {
      if (S_ISDIR(st.st_mode)) walk(path, bad || strcmp(names[i], "bad_data") == 0, t);
      else if (S_ISREG(st.st_mode)) check_file(path, bad, t);
    }
    free(path);
    free(names[i]);
  }
  free(names);
}

static void test_corpus_footers_roundtrip(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return; /* NOTE printed by pqt_testing_dir */
  tally t;
  memset(&t, 0, sizeof t);
  walk(dir, false, &t);
  printf(
      "corpus %s: %d files: %d PAR1 (%d footers round-tripped, %d signed plaintext footers;"
      " bad_data: %d rejected cleanly, %d decoded; %d with unknown union members, dropped on"
      " re-encode), %d PARE (encrypted footer: %d "
      "FileCryptoMetaData round-tripped, FileMetaData skipped: needs a key), %d other, %d too "
      "small\n",
      dir, t.files, t.par1, t.footers_ok, t.signed_footers, t.bad_data_rejected, t.bad_data_ok, t.unknown_union_files,
      t.pare, t.crypto_meta_ok, t.other, t.too_small);
  printf(
      "  page-level: %d page headers, %d column indexes, %d offset indexes round-tripped;"
      " %d failures in bad_data files\n",
      t.page_headers_ok, t.column_indexes_ok, t.offset_indexes_ok, t.aux_failed_bad_data);
  CHECK(t.par1 > 100);
  CHECK(t.footers_ok > 100);
  CHECK(t.page_headers_ok > 100);
  CHECK(t.unknown_union_files >= 1); /* data/unknown-logical-type.parquet */
}

RUN_TESTS("footer_roundtrip", TEST_CASE(test_corpus_footers_roundtrip))
