/*
 * cli/layout.c: `parquetry pages` (a table of the pages of each column
 * chunk) and `parquetry layout` (the byte map of the file: every page, the
 * column and offset indexes, the Bloom filters and the footer, in file
 * order, with gaps), on the metadata API (parquetry_meta.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inspect2.h"
#include "parquetry.h"
#include "parquetry_meta.h"

const char cmd_pages_summary[] =
    "A table of the pages of each column chunk, from their headers: page type,\n"
    "encoding of the values, file offset, header size, compressed and uncompressed\n"
    "sizes (bytes after the header), value count (v2 pages: nulls too) and CRC\n"
    "status (ok, MISMATCH, or none when the page has no CRC).\n\n"
    "  -c, --column PATH   only the columns under PATH\n"
    "  --json              {\"pages\": [{\"row_group\", \"column\", \"page\", \"type\",\n"
    "                      \"encoding\", \"def_encoding\", \"rep_encoding\", \"offset\",\n"
    "                      \"header_size\", \"compressed_size\", \"uncompressed_size\",\n"
    "                      \"num_values\", \"num_nulls\", \"num_rows\", \"crc\",\n"
    "                      \"has_statistics\"}]} (absent numbers null; crc \"ok\",\n"
    "                      \"mismatch\" or null)\n"
    "  --lines             one line per page with its levels and statistics\n"
    "                      (rg=0 col=a page=0 type=DATA_PAGE enc=PLAIN ...; also for\n"
    "                      encrypted columns, with their keys)\n\n"
    "Several FILEs, directories and globs: each file in turn under a line\n"
    "\"file: PATH\" (--json: one object a file, with \"file\": PATH first); exit 1\n"
    "if any file cannot be read." READ_OPTIONS_HELP;
const char cmd_pages_usage[] = "parquetry pages [-c PATH] [--json | --lines] FILE...";

const char cmd_layout_summary[] =
    "The byte map of the file, in file order: the magic, every page of every column\n"
    "chunk (type, encoding, codec, header and data sizes), the column and offset\n"
    "indexes, the Bloom filters and the footer; bytes that nothing accounts for are\n"
    "shown as gaps, and regions that overlap are flagged.\n\n"
    "  --json   {\"file_size\", \"regions\": [{\"offset\", \"length\", \"kind\" (magic, page,\n"
    "           column_index, offset_index, bloom_filter, footer, footer_length,\n"
    "           encrypted_chunk, gap), \"row_group\", \"column\", \"page\", \"page_type\",\n"
    "           \"encoding\", \"codec\", \"header_size\", \"compressed_size\",\n"
    "           \"uncompressed_size\", \"num_values\", \"overlaps\"}], \"gaps\": N,\n"
    "           \"gap_bytes\": N, \"overlaps\": N} (fields that do not apply absent)\n\n"
    "Several FILEs, directories and globs: each file in turn after a line \"# PATH\"\n"
    "(--json: one object a file, with \"file\": PATH first)." READ_OPTIONS_HELP;
const char cmd_layout_usage[] = "parquetry layout [--json] FILE...";

/* ---- regions of the file ---- */

enum { R_MAGIC, R_PAGE, R_COLUMN_INDEX, R_OFFSET_INDEX, R_BLOOM, R_FOOTER, R_FOOTER_LEN, R_ENCRYPTED, R_GAP };
static const char *const kind_names[] = {"magic",  "page",          "column_index",    "offset_index", "bloom_filter",
                                         "footer", "footer_length", "encrypted_chunk", "gap"};

typedef struct region {
  int64_t offset, length; /* length -1: not stored (a Bloom filter without bloom_filter_length) */
  int kind;
  int32_t rg, col;
  pqt_page_info page;
  int32_t codec;
  int overlaps;
} region;

typedef struct regions {
  region *items;
  size_t n, cap;
  int32_t rg, col, codec;
} regions;

static region *add(regions *rs, int kind, int64_t offset, int64_t length) {
  if (rs->n == rs->cap) {
    size_t cap = rs->cap ? rs->cap * 2 : 64;
    region *p = realloc(rs->items, cap * sizeof *p);
    if (!p) return NULL;
    rs->items = p;
    rs->cap = cap;
  }
  region *r = &rs->items[rs->n++];
  memset(r, 0, sizeof *r);
  r->kind = kind;
  r->offset = offset;
  r->length = length;
  r->rg = rs->rg;
  r->col = rs->col;
  r->codec = rs->codec;
  return r;
}

static pqt_status on_page(void *ctx, const pqt_page_info *p) {
  regions *rs = ctx;
  region *r = add(rs, R_PAGE, p->offset, (int64_t)p->header_size + p->compressed_size);
  if (!r) return PQT_ENOMEM;
  r->page = *p;
  return PQT_OK;
}

static int cmp_region(const void *a, const void *b) {
  const region *x = a, *y = b;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  return x->kind - y->kind;
}

static const char *column_path(pqt_reader *r, int32_t col) {
  pqt_column_info ci;
  pqt_column_info_init(&ci);
  if (pqt_reader_column_info(r, col, &ci, NULL) != PQT_OK) return "?";
  return ci.path;
}

static const char *type_word(int32_t t) {
  switch (t) {
    case PQT_PAGE_KIND_DATA_PAGE: return "v1";
    case PQT_PAGE_KIND_DATA_PAGE_V2: return "v2";
    case PQT_PAGE_KIND_DICTIONARY_PAGE: return "dict";
    case PQT_PAGE_KIND_INDEX_PAGE: return "index";
    default: return "unknown";
  }
}

static int collect_regions(const char *path, pqt_reader *r, regions *rs, pqt_file_layout *fl) {
  pqt_error e;
  pqt_error_init(&e);
  pqt_file_layout_init(fl);
  if (pqt_reader_file_layout(r, fl, &e) != PQT_OK) return read_fail(path, &e);
  rs->rg = rs->col = -1;
  rs->codec = -1;
  if (!add(rs, R_MAGIC, 0, 4)) return EXIT_DATA;
  int32_t ng = pqt_reader_num_row_groups(r), nc = pqt_reader_num_columns(r);
  for (int32_t g = 0; g < ng; g++)
    for (int32_t c = 0; c < nc; c++) {
      rs->rg = g;
      rs->col = c;
      pqt_chunk_info ci;
      pqt_chunk_info_init(&ci);
      if (pqt_reader_chunk(r, g, c, &ci, &e) != PQT_OK) {
        if (e.code == PQT_ECRYPTO) continue; /* its place is unknown without the key */
        return read_fail(path, &e);
      }
      rs->codec = ci.codec;
      if (ci.encrypted) {
        int64_t start = ci.dictionary_page_offset >= 0 && ci.dictionary_page_offset < ci.data_page_offset
                            ? ci.dictionary_page_offset
                            : ci.data_page_offset;
        if (!add(rs, R_ENCRYPTED, start, ci.total_compressed_size)) return EXIT_DATA;
      } else if (pqt_reader_chunk_pages(r, g, c, 0, on_page, rs, &e) != PQT_OK) {
        return read_fail(path, &e);
      }
      rs->codec = -1;
      if (ci.column_index_offset >= 0 && !add(rs, R_COLUMN_INDEX, ci.column_index_offset, ci.column_index_length))
        return EXIT_DATA;
      if (ci.offset_index_offset >= 0 && !add(rs, R_OFFSET_INDEX, ci.offset_index_offset, ci.offset_index_length))
        return EXIT_DATA;
      if (ci.bloom_filter_offset >= 0 && !add(rs, R_BLOOM, ci.bloom_filter_offset, ci.bloom_filter_length))
        return EXIT_DATA;
    }
  rs->rg = rs->col = -1;
  if (!add(rs, R_FOOTER, fl->footer_offset, fl->footer_length)) return EXIT_DATA;
  if (!add(rs, R_FOOTER_LEN, fl->file_size - 8, 8)) return EXIT_DATA;
  qsort(rs->items, rs->n, sizeof *rs->items, cmp_region);
  /* gaps between regions; a Bloom filter without a stored length runs to the next region */
  size_t n = rs->n;
  int64_t end = 0;
  for (size_t i = 0; i < n; i++) {
    region *x = &rs->items[i];
    if (x->length < 0) {
      int64_t next = i + 1 < n ? rs->items[i + 1].offset : fl->file_size;
      x->length = -(next - x->offset) - 1; /* encoded: -(length) - 1, "to the next region" */
    }
    int64_t len = x->length < 0 ? -x->length - 1 : x->length;
    if (x->offset > end) {
      rs->rg = rs->col = -1;
      rs->codec = -1;
      if (!add(rs, R_GAP, end, x->offset - end)) return EXIT_DATA;
      x = &rs->items[i]; /* add may move the array */
    } else if (x->offset < end) {
      x->overlaps = 1;
    }
    if (x->offset + len > end) end = x->offset + len;
  }
  qsort(rs->items, rs->n, sizeof *rs->items, cmp_region);
  return 0;
}

static void json_region(pqt_reader *r, const region *x, bool first) {
  int64_t len = x->length < 0 ? -x->length - 1 : x->length;
  printf("%s\n  {\"offset\": %lld, \"length\": %lld, \"kind\": \"%s\"", first ? "" : ",", (long long)x->offset,
         (long long)len, kind_names[x->kind]);
  if (x->length < 0) printf(", \"length_stored\": false");
  if (x->rg >= 0) {
    printf(", \"row_group\": %d, \"column\": ", x->rg);
    const char *p = column_path(r, x->col);
    json_print_string(stdout, p, strlen(p));
  }
  if (x->kind == R_PAGE) {
    const pqt_page_info *p = &x->page;
    printf(", \"page\": %d, \"page_type\": \"%s\", \"encoding\": ", p->index, pqt_page_kind_name(p->page_type));
    if (p->encoding >= 0) printf("\"%s\"", pqt_encoding_name(p->encoding));
    else printf("null");
    printf(", \"codec\": \"%s\", \"header_size\": %d, \"compressed_size\": %d, \"uncompressed_size\": %d",
           pqt_compression_name(x->codec), p->header_size, p->compressed_size, p->uncompressed_size);
    if (p->num_values >= 0) printf(", \"num_values\": %d", p->num_values);
  }
  if (x->overlaps) printf(", \"overlaps\": true");
  printf("}");
}

static void human_region(pqt_reader *r, human_table *t, const region *x) {
  char off[32], len[32], rg[16], what[256], hs[32] = "";
  int64_t l = x->length < 0 ? -x->length - 1 : x->length;
  human_count(off, sizeof off, x->offset);
  human_count(len, sizeof len, l);
  snprintf(rg, sizeof rg, "%d", x->rg);
  const char *col = x->rg >= 0 ? column_path(r, x->col) : NULL;
  switch (x->kind) {
    case R_MAGIC: snprintf(what, sizeof what, "magic \"PAR1\""); break;
    case R_PAGE: {
      const pqt_page_info *p = &x->page;
      human_count(hs, sizeof hs, p->header_size);
      snprintf(what, sizeof what, "page %d %s %s %s", p->index, type_word(p->page_type),
               p->encoding >= 0 ? pqt_encoding_name(p->encoding) : "-", pqt_compression_name(x->codec));
      break;
    }
    case R_COLUMN_INDEX: snprintf(what, sizeof what, "column index"); break;
    case R_OFFSET_INDEX: snprintf(what, sizeof what, "offset index"); break;
    case R_BLOOM: snprintf(what, sizeof what, "Bloom filter%s", x->length < 0 ? " (length not stored)" : ""); break;
    case R_FOOTER: snprintf(what, sizeof what, "footer (FileMetaData)"); break;
    case R_FOOTER_LEN: snprintf(what, sizeof what, "footer length and magic"); break;
    case R_ENCRYPTED: snprintf(what, sizeof what, "encrypted column chunk"); break;
    default: snprintf(what, sizeof what, "GAP: bytes nothing refers to"); break;
  }
  if (x->overlaps) strncat(what, " OVERLAPS the region before", sizeof what - strlen(what) - 1);
  const char *cells[6] = {off, len, hs, x->rg >= 0 ? rg : "", col ? col : "", what};
  table_row(t, cells);
}

typedef struct layout_args {
  int json;
  bool many; /* several files: each named */
} layout_args;

static int layout_one(const char *path, void *ctx) {
  const layout_args *la = ctx;
  int json = la->json;
  if (la->many && !json) printf("# %s\n", path);
  pqt_reader *r;
  int rc = read_open(path, &r);
  if (rc) return rc;
  regions rs;
  memset(&rs, 0, sizeof rs);
  pqt_file_layout fl;
  rc = collect_regions(path, r, &rs, &fl);
  if (rc == 0) {
    int64_t gaps = 0, gap_bytes = 0, overlaps = 0;
    for (size_t i = 0; i < rs.n; i++) {
      if (rs.items[i].kind == R_GAP) {
        gaps++;
        gap_bytes += rs.items[i].length;
      }
      overlaps += rs.items[i].overlaps;
    }
    if (json) {
      printf("{");
      if (la->many) {
        printf("\"file\": ");
        json_print_string(stdout, path, strlen(path));
        printf(", ");
      }
      printf("\"file_size\": %lld, \"regions\": [", (long long)fl.file_size);
      for (size_t i = 0; i < rs.n; i++) json_region(r, &rs.items[i], i == 0);
      printf("\n], \"gaps\": %lld, \"gap_bytes\": %lld, \"overlaps\": %lld}\n", (long long)gaps, (long long)gap_bytes,
             (long long)overlaps);
    } else {
      char s1[32], s2[32], s3[32];
      printf("%s bytes (%s), %s regions\n", human_count(s1, sizeof s1, fl.file_size),
             human_size(s2, sizeof s2, fl.file_size), human_count(s3, sizeof s3, (int64_t)rs.n));
      printf(
          "%s(bytes: the region's length; header: a page's header bytes, within\n"
          "bytes; rg: row group; page types v1, v2 data pages, dict dictionary)%s\n",
          human_dim(), human_reset());
      static const char *const heads[] = {"offset", "bytes", "header", "rg", "column", "what"};
      static const bool right[] = {true, true, true, true, false, false};
      human_table *t = table_new(6, heads, right);
      for (size_t i = 0; i < rs.n; i++) human_region(r, t, &rs.items[i]);
      table_print(t);
      if (gaps)
        printf("%lld gap%s, %s bytes in all\n", (long long)gaps, gaps == 1 ? "" : "s",
               human_count(s1, sizeof s1, gap_bytes));
      else printf("no gaps\n");
      if (overlaps) printf("%lld region%s overlap the one before\n", (long long)overlaps, overlaps == 1 ? "" : "s");
    }
  }
  free(rs.items);
  pqt_reader_close(r);
  return rc;
}

int cmd_layout(int argc, char **argv) {
  static const cli_opt opts[] = {{"json", 0, 0, 'j'}, {0}};
  cli_args a;
  cli_args_init(&a, "layout", argc, argv, opts);
  layout_args la = {0, false};
  char **paths = argv + 1; /* several FILEs: in argv's slots already read */
  int n_paths = 0;
  for (int id; (id = cli_next(&a)) != CLI_END;) {
    switch (id) {
      case CLI_HELP: return cli_help(cmd_layout_usage, cmd_layout_summary);
      case CLI_ERROR: return EXIT_USAGE;
      case 'j': la.json = 1; break;
      default: paths[n_paths++] = a.arg;
    }
  }
  if (n_paths == 0) return usage("layout", "%s", "missing FILE");
  if (dataset_inputs_many(paths, n_paths)) {
    la.many = true;
    return dataset_each_file("layout", (const char *const *)paths, n_paths, layout_one, &la);
  }
  return layout_one(paths[0], &la);
}

/* ---- pages ---- */

static pqt_status write_out(void *ctx, const char *data, size_t len) {
  (void)ctx;
  return fwrite(data, 1, len, stdout) == len ? PQT_OK : PQT_EIO;
}

typedef struct page_ctx {
  pqt_reader *r;
  const char *path;
  int32_t rg, col;
  int json;
  bool first;
  human_table *t;
  bool any_v2;
  regions rs; /* human output: the chunk's pages, printed once all are known */
} page_ctx;

static const char *crc_word(const pqt_page_info *p) {
  return !p->has_crc ? "none" : p->crc_ok == 1 ? "ok" : p->crc_ok == 0 ? "MISMATCH" : "?";
}

static void json_num(const char *key, int64_t v) {
  if (v < 0) printf(", \"%s\": null", key);
  else printf(", \"%s\": %lld", key, (long long)v);
}

static pqt_status on_page_json(void *ctx, const pqt_page_info *p) {
  page_ctx *pc = ctx;
  const char *col = column_path(pc->r, pc->col);
  printf("%s\n  {\"row_group\": %d, \"column\": ", pc->first ? "" : ",", pc->rg);
  pc->first = false;
  json_print_string(stdout, col, strlen(col));
  printf(", \"page\": %d, \"type\": \"%s\"", p->index, pqt_page_kind_name(p->page_type));
  const int32_t encs[3] = {p->encoding, p->def_encoding, p->rep_encoding};
  const char *const names[3] = {"encoding", "def_encoding", "rep_encoding"};
  for (int k = 0; k < 3; k++)
    if (encs[k] >= 0) printf(", \"%s\": \"%s\"", names[k], pqt_encoding_name(encs[k]));
    else printf(", \"%s\": null", names[k]);
  printf(", \"offset\": %lld, \"header_size\": %d, \"compressed_size\": %d, \"uncompressed_size\": %d",
         (long long)p->offset, p->header_size, p->compressed_size, p->uncompressed_size);
  json_num("num_values", p->num_values);
  json_num("num_nulls", p->page_type == PQT_PAGE_KIND_DATA_PAGE_V2 ? p->num_nulls : -1);
  json_num("num_rows", p->page_type == PQT_PAGE_KIND_DATA_PAGE_V2 ? p->num_rows : -1);
  printf(", \"crc\": %s, \"has_statistics\": %s}",
         !p->has_crc ? "null"
         : p->crc_ok ? "\"ok\""
                     : "\"mismatch\"",
         p->has_statistics ? "true" : "false");
  return PQT_OK;
}

static void print_chunk_table(page_ctx *pc) {
  static const char *const heads_v1[] = {"page", "type", "encoding", "offset", "header",
                                         "size", "raw",  "values",   "crc"};
  static const char *const heads_v2[] = {"page", "type", "encoding", "offset", "header",
                                         "size", "raw",  "values",   "nulls",  "crc"};
  static const bool right[] = {true, false, false, true, true, true, true, true, true, false};
  static const bool right_v1[] = {true, false, false, true, true, true, true, true, false};
  int n = pc->any_v2 ? 10 : 9;
  human_table *t = table_new(n, pc->any_v2 ? heads_v2 : heads_v1, pc->any_v2 ? right : right_v1);
  for (size_t i = 0; i < pc->rs.n; i++) {
    const pqt_page_info *p = &pc->rs.items[i].page;
    char c[8][32];
    snprintf(c[0], 32, "%d", p->index);
    human_count(c[1], 32, p->offset);
    human_count(c[2], 32, p->header_size);
    human_count(c[3], 32, p->compressed_size);
    human_count(c[4], 32, p->uncompressed_size);
    if (p->num_values >= 0) human_count(c[5], 32, p->num_values);
    if (p->num_nulls >= 0) human_count(c[6], 32, p->num_nulls);
    const char *cells[10];
    int k = 0;
    cells[k++] = c[0];
    cells[k++] = type_word(p->page_type);
    cells[k++] = p->encoding >= 0 ? pqt_encoding_name(p->encoding) : NULL;
    cells[k++] = c[1];
    cells[k++] = c[2];
    cells[k++] = c[3];
    cells[k++] = c[4];
    cells[k++] = p->num_values >= 0 ? c[5] : NULL;
    if (pc->any_v2) cells[k++] = p->page_type == PQT_PAGE_KIND_DATA_PAGE_V2 && p->num_nulls >= 0 ? c[6] : NULL;
    cells[k++] = crc_word(p);
    table_row(t, cells);
  }
  table_print(t);
}

static pqt_status on_page_human(void *ctx, const pqt_page_info *p) {
  page_ctx *pc = ctx;
  if (p->page_type == PQT_PAGE_KIND_DATA_PAGE_V2) pc->any_v2 = true;
  return on_page(&pc->rs, p);
}

typedef struct pages_args {
  const char *column;
  int json, lines;
  bool many; /* several files: a header naming each */
} pages_args;

static int pages_one(const char *path, void *ctx) {
  const pages_args *pa = ctx;
  const char *column = pa->column;
  int json = pa->json, lines = pa->lines;
  if (pa->many && !json) {
    fflush(stdout);
    printf("%sfile: %s%s\n", human_bold(), path, human_reset());
  }
  pqt_reader *r;
  int rc = read_open(path, &r);
  if (rc) return rc;
  pqt_error e;
  pqt_error_init(&e);
  if (lines) {
    if (pqt_reader_describe_pages(r, column, write_out, NULL, &e) != PQT_OK) {
      fflush(stdout);
      rc = e.code == PQT_EINVAL ? usage("pages", "%s", e.message) : read_fail(path, &e);
    }
    pqt_reader_close(r);
    return rc;
  }
  /* the columns under PATH: the leaf itself, or every leaf below a group */
  int32_t nc = pqt_reader_num_columns(r), ng = pqt_reader_num_row_groups(r), matched = 0;
  bool *want = calloc((size_t)(nc > 0 ? nc : 1), sizeof *want);
  if (!want) {
    pqt_reader_close(r);
    fprintf(stderr, "parquetry: out of memory\n");
    return EXIT_DATA;
  }
  for (int32_t c = 0; c < nc; c++) {
    const char *p = column_path(r, c);
    size_t n = column ? strlen(column) : 0;
    want[c] = !column || strcmp(p, column) == 0 || (strncmp(p, column, n) == 0 && p[n] == '.');
    matched += want[c];
  }
  if (column && !matched) {
    rc = usage("pages", "no column '%s' (give a name or dotted path, as `parquetry schema` shows it)", column);
    nc = 0;
  }
  page_ctx pc;
  memset(&pc, 0, sizeof pc);
  pc.r = r;
  pc.path = path;
  pc.json = json;
  pc.first = true;
  if (json && rc == 0 && pa->many) {
    printf("{\"file\": ");
    json_print_string(stdout, path, strlen(path));
    printf(", \"pages\": [");
  } else if (json && rc == 0) {
    printf("{\"pages\": [");
  }
  if (!json && rc == 0)
    printf(
        "%s(offset: of the page header; header: its bytes; size: the bytes after it as\n"
        "stored, compressed; raw: uncompressed; type: v1 or v2 data page, dict the\n"
        "dictionary page; crc: none when the page has no CRC)%s\n\n",
        human_dim(), human_reset());
  progress bar;
  progress_init_unit(&bar, PROGRESS_CHUNKS, (int64_t)ng * nc);
  for (int32_t g = 0; g < ng && rc == 0; g++)
    for (int32_t c = 0; c < nc && rc == 0; c++) {
      if (!want[c]) continue;
      progress_update(&bar, (int64_t)g * nc + c);
      pc.rg = g;
      pc.col = c;
      pc.rs.n = 0;
      pc.any_v2 = false;
      pqt_chunk_info ci;
      pqt_chunk_info_init(&ci);
      pqt_status st = pqt_reader_chunk(r, g, c, &ci, &e);
      if (st == PQT_OK && ci.encrypted) {
        st = PQT_EUNSUPPORTED;
        snprintf(e.message, sizeof e.message, "encrypted");
      } else if (st == PQT_OK) {
        st = pqt_reader_chunk_pages(r, g, c, 1, json ? on_page_json : on_page_human, &pc, &e);
      }
      const char *col = column_path(r, c);
      /* only a column not readable without its key is "not shown"; other errors fail */
      bool keyless = st == PQT_ECRYPTO || st == PQT_EUNSUPPORTED;
      if (!json && (st == PQT_OK || keyless)) {
        char s1[32], s2[32], s3[32], rest[160], head[32];
        if (st == PQT_OK)
          snprintf(rest, sizeof rest, "%s page%s, %s, %s (raw %s)", human_count(s1, sizeof s1, (int64_t)pc.rs.n),
                   pc.rs.n == 1 ? "" : "s", pqt_compression_name(ci.codec),
                   human_size(s2, sizeof s2, ci.total_compressed_size),
                   human_size(s3, sizeof s3, ci.total_uncompressed_size));
        else
          snprintf(rest, sizeof rest, "pages not shown (%s; `pages --lines` shows them with the keys)",
                   e.code == PQT_ECRYPTO || st == PQT_EUNSUPPORTED ? "encrypted" : "error");
        snprintf(head, sizeof head, "row group %d, column ", g);
        /* the path's tail when the line would not fit; what the chunk holds below it */
        int room = human_width() - (int)strlen(head), n = (int)strlen(col);
        if (room < 8) room = 8;
        printf("%s%s%s%s%s%s\n  %s\n", pc.first ? "" : "\n", head, human_bold(), n > room ? "..." : "",
               n > room ? col + n - (room - 3) : col, human_reset(), rest);
        pc.first = false;
        if (st == PQT_OK) print_chunk_table(&pc);
        if (st != PQT_OK) st = PQT_OK;
      } else if (json && keyless) {
        st = PQT_OK; /* encrypted without its key: not listed */
      }
      if (st != PQT_OK) {
        if (!json) print_chunk_table(&pc); /* the pages before the bad one */
        fflush(stdout);
        rc = read_fail(path, &e);
      }
    }
  progress_done(&bar);
  if (json && rc == 0) printf("\n]}\n");
  free(pc.rs.items);
  free(want);
  pqt_reader_close(r);
  return rc;
}

int cmd_pages(int argc, char **argv) {
  static const cli_opt opts[] = {
      {"column", 'c', 1, 'c'}, {"columns", 0, 1, 'c'}, {"json", 0, 0, 'j'}, {"lines", 0, 0, 'l'}, {0}};
  cli_args a;
  cli_args_init(&a, "pages", argc, argv, opts);
  pages_args pa = {NULL, 0, 0, false};
  char **paths = argv + 1; /* several FILEs: in argv's slots already read */
  int n_paths = 0;
  for (int id; (id = cli_next(&a)) != CLI_END;) {
    switch (id) {
      case CLI_HELP: return cli_help(cmd_pages_usage, cmd_pages_summary);
      case CLI_ERROR: return EXIT_USAGE;
      case 'c': pa.column = a.arg; break;
      case 'j': pa.json = 1; break;
      case 'l': pa.lines = 1; break;
      default: paths[n_paths++] = a.arg;
    }
  }
  if (n_paths == 0) return usage("pages", "%s", "missing FILE");
  if (pa.json && pa.lines) return usage("pages", "%s", "give --json or --lines, not both");
  if (dataset_inputs_many(paths, n_paths)) {
    pa.many = true;
    return dataset_each_file("pages", (const char *const *)paths, n_paths, pages_one, &pa);
  }
  return pages_one(paths[0], &pa);
}
