/*
 * cli/write_options.c: what the commands that write share: the writer
 * options (seeds/002: encodings, codecs, page versions, Bloom filters),
 * usage and error messages, and the progress bar.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "parquetry.h"
#include "parquetry_arrow.h"

#include "cli.h"

/* ---- a progress bar on a terminal, for runs longer than a second ---- */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_init(progress *p, int64_t total) {
  p->tty = isatty(STDERR_FILENO) != 0;
  p->shown = false;
  p->start = p->last = now_s();
  p->total = total;
}

void progress_update(progress *p, int64_t done) {
  if (!p->tty) return;
  double t = now_s();
  if (t - p->start < 1.0 || (p->shown && t - p->last < 0.1)) return;
  p->last = t;
  p->shown = true;
  int pct = p->total > 0 ? (int)(done * 100 / p->total) : 0;
  if (pct > 100) pct = 100;
  int fill = pct * 30 / 100;
  fprintf(stderr, "\r[%.*s%*s] %3d%%  %lld of %lld rows", fill, "==============================", 30 - fill, "",
          pct, (long long)done, (long long)p->total);
  fflush(stderr);
}

void progress_done(progress *p) {
  if (p->shown) fprintf(stderr, "\r%*s\r", 70, "");
}

int usage(const char *cmd, const char *msg, ...) {
  fprintf(stderr, "parquetry: %s: ", cmd);
  va_list ap;
  va_start(ap, msg);
  vfprintf(stderr, msg, ap);
  va_end(ap);
  fprintf(stderr, "\nTry 'parquetry %s --help'.\n", cmd);
  return EXIT_USAGE;
}

int fail(const char *path, const pqt_error *e) {
  fprintf(stderr, "parquetry: %s: %s\n", path, e->message[0] ? e->message : pqt_status_name(e->code));
  return EXIT_DATA;
}

/* ---- writer options ---- */

/* A value encoding by name (BIT_PACKED is for levels only: not accepted). */
static int encoding_from_name(const char *s) {
  static const struct {
    const char *name;
    pqt_encoding encoding;
  } names[] = {{"PLAIN", PQT_ENCODING_PLAIN},
               {"PLAIN_DICTIONARY", PQT_ENCODING_PLAIN_DICTIONARY},
               {"RLE", PQT_ENCODING_RLE},
               {"DELTA_BINARY_PACKED", PQT_ENCODING_DELTA_BINARY_PACKED},
               {"DELTA_LENGTH_BYTE_ARRAY", PQT_ENCODING_DELTA_LENGTH_BYTE_ARRAY},
               {"DELTA_BYTE_ARRAY", PQT_ENCODING_DELTA_BYTE_ARRAY},
               {"RLE_DICTIONARY", PQT_ENCODING_RLE_DICTIONARY},
               {"BYTE_STREAM_SPLIT", PQT_ENCODING_BYTE_STREAM_SPLIT},
               {"ALP", PQT_ENCODING_ALP},
               {"DICTIONARY", PQT_ENCODING_RLE_DICTIONARY}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcasecmp(s, names[i].name) == 0) return (int)names[i].encoding;
  return -1;
}

static col_spec *spec_for(wopts *w, const char *path, size_t len) {
  for (int i = 0; i < w->n_specs; i++)
    if (strlen(w->specs[i].path) == len && strncmp(w->specs[i].path, path, len) == 0) return &w->specs[i];
  col_spec *n = realloc(w->specs, (size_t)(w->n_specs + 1) * sizeof *n);
  if (!n) return NULL;
  w->specs = n;
  col_spec *s = &w->specs[w->n_specs++];
  s->path = strndup(path, len);
  s->encoding = -2;
  s->bloom = 0;
  return s->path ? s : NULL;
}

static int parse_codec(const char *arg, pqt_column_options *c) {
  char name[32];
  const char *colon = strchr(arg, ':');
  size_t nl = colon ? (size_t)(colon - arg) : strlen(arg);
  if (nl == 0 || nl >= sizeof name) return -1;
  memcpy(name, arg, nl);
  name[nl] = 0;
  int codec = -1;
  static const struct {
    const char *name;
    pqt_codec codec;
  } names[] = {{"uncompressed", PQT_CODEC_UNCOMPRESSED}, {"snappy", PQT_CODEC_SNAPPY}, {"gzip", PQT_CODEC_GZIP},
               {"lzo", PQT_CODEC_LZO},   {"brotli", PQT_CODEC_BROTLI},   {"lz4_hadoop", PQT_CODEC_LZ4},
               {"zstd", PQT_CODEC_ZSTD}, {"lz4_raw", PQT_CODEC_LZ4_RAW}, {"none", PQT_CODEC_UNCOMPRESSED},
               {"lz4", PQT_CODEC_LZ4_RAW} /* LZ4 is written as LZ4_RAW */};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcasecmp(name, names[i].name) == 0) codec = (int)names[i].codec;
  if (codec < 0) return -1;
  c->codec = codec;
  c->codec_level = 0;
  if (colon) {
    char *end;
    long lv = strtol(colon + 1, &end, 10);
    if (*end || end == colon + 1) return -1;
    c->codec_level = (int32_t)lv;
  }
  return 0;
}

/* Parse argv into w; returns 0, or an exit status. */

int parse_args(const char *cmd, int argc, char **argv, wopts *w, int kind) {
  bool is_convert = kind == CMD_CONVERT;
  memset(w, 0, sizeof *w);
  pqt_write_options_init(&w->o);
  const char *pos[2];
  int npos = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--codec") == 0 && v) {
      if (parse_codec(v, &w->o.defaults) != 0) return usage(cmd, "unknown codec '%s'", v);
      i++;
    } else if (strcmp(a, "--encoding") == 0 && v && !strchr(v, '=')) {
      int enc = encoding_from_name(v);
      if (enc < 0) return usage(cmd, "unknown encoding '%s'", v);
      w->o.defaults.encoding = enc;
      if (enc != PQT_ENCODING_RLE_DICTIONARY && enc != PQT_ENCODING_PLAIN_DICTIONARY) w->o.defaults.dictionary = 0;
      i++;
    } else if (strcmp(a, "--encoding") == 0 && v) {
      const char *eq = strchr(v, '=');
      int enc = eq ? encoding_from_name(eq + 1) : -1;
      if (!eq || eq == v || enc < 0) return usage(cmd, "bad --encoding '%s' (COL=ENCODING)", v);
      col_spec *s = spec_for(w, v, (size_t)(eq - v));
      if (!s) return EXIT_DATA;
      s->encoding = enc;
      i++;
    } else if (strcmp(a, "--bloom") == 0 && v) {
      col_spec *s = spec_for(w, v, strlen(v));
      if (!s) return EXIT_DATA;
      s->bloom = 1;
      i++;
    } else if (strcmp(a, "--row-group-size") == 0 && v) {
      char *end;
      long long n = strtoll(v, &end, 10);
      if (*end || n <= 0) return usage(cmd, "bad --row-group-size '%s'", v);
      w->o.row_group_rows = n;
      i++;
    } else if (strcmp(a, "--page-version") == 0 && v) {
      if (strcmp(v, "1") != 0 && strcmp(v, "2") != 0) return usage(cmd, "bad --page-version '%s' (1 or 2)", v);
      w->o.defaults.page_version = atoi(v);
      i++;
    } else if (strcmp(a, "--no-dictionary") == 0) {
      w->o.defaults.dictionary = 0;
    } else if (strcmp(a, "--no-statistics") == 0) {
      w->o.defaults.statistics = 0;
    } else if (strcmp(a, "--no-page-index") == 0) {
      w->o.defaults.page_index = 0;
    } else if (strcmp(a, "--no-crc") == 0) {
      w->o.defaults.crc = 0;
    } else if (kind != CMD_REWRITE && strcmp(a, "--schema") == 0 && v) {
      w->schema = v;
      i++;
    } else if (kind == CMD_SALVAGE && strcmp(a, "--like") == 0 && v) {
      w->like = v;
      i++;
    } else if (is_convert && strcmp(a, "--format") == 0 && v) {
      if (strcmp(v, "csv") != 0 && strcmp(v, "jsonl") != 0) return usage(cmd, "bad --format '%s' (csv or jsonl)", v);
      w->format = v;
      i++;
    } else if (a[0] == '-' && a[1]) {
      return usage(cmd, "unknown or incomplete option '%s'", a);
    } else {
      if (npos == 2) return usage(cmd, "unexpected argument '%s'", a);
      pos[npos++] = a;
    }
  }
  if (npos != 2) return usage(cmd, "%s", "need an input and an output file");
  w->in = pos[0];
  w->out = pos[1];
  if (w->n_specs) {
    w->ovr = calloc((size_t)w->n_specs, sizeof *w->ovr);
    if (!w->ovr) return EXIT_DATA;
    for (int i = 0; i < w->n_specs; i++) {
      w->ovr[i].path = w->specs[i].path;
      w->ovr[i].options = w->o.defaults;
      if (w->specs[i].encoding >= 0) {
        w->ovr[i].options.encoding = w->specs[i].encoding;
        if (w->specs[i].encoding != PQT_ENCODING_RLE_DICTIONARY && w->specs[i].encoding != PQT_ENCODING_PLAIN_DICTIONARY)
          w->ovr[i].options.dictionary = 0;
      }
      if (w->specs[i].bloom) w->ovr[i].options.bloom_filter = 1;
    }
    w->o.columns = w->ovr;
    w->o.n_columns = w->n_specs;
  }
  return 0;
}

void free_args(wopts *w) {
  for (int i = 0; i < w->n_specs; i++) free(w->specs[i].path);
  free(w->specs);
  free(w->ovr);
}

bool want_help(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return true;
  return false;
}

