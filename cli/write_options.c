/*
 * cli/write_options.c: what the commands that write share: the writer
 * options (parquet-format README.md: encodings, codecs, page versions, Bloom filters),
 * usage and error messages (the progress bar is cli/progress.c).
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
#include "parquetry_meta.h"

#include "cli.h"

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
  char msg[sizeof e->message];
  snprintf(msg, sizeof msg, "%s", e->message[0] ? e->message : pqt_status_name(e->code));
  name_codes(msg, sizeof msg);
  fprintf(stderr, "parquetry: %s: %s\n", path, msg);
  return EXIT_DATA;
}

/* "codec 6" -> "codec ZSTD" (and encodings, physical types): the names are
 * the library's (pqt_compression_name & co.); a number without a name stays. */
void name_codes(char *msg, size_t cap) {
  static const struct {
    const char *word;
    const char *(*name)(int32_t);
  } tab[] = {{"codec ", pqt_compression_name}, {"encoding ", pqt_encoding_name}, {"physical type ", pqt_physical_name}};
  for (int t = 0; t < 3; t++) {
    char *p = msg;
    while ((p = strstr(p, tab[t].word)) != NULL) {
      char *d = p + strlen(tab[t].word), *end;
      long v = strtol(d, &end, 10);
      const char *name =
          (end == d || !isdigit((unsigned char)*d) || v < 0 || v > INT32_MAX) ? "?" : tab[t].name((int32_t)v);
      if (strcmp(name, "?") == 0) {
        p = d;
        continue;
      }
      size_t nl = strlen(name), tail = strlen(end);
      if ((size_t)(d - msg) + nl + tail + 1 > cap) break;
      memmove(d + nl, end, tail + 1);
      memcpy(d, name, nl);  // NOLINT(bugprone-not-null-terminated-result): splices name in; memmove kept the terminator
      p = d + nl;
    }
  }
}

/* ---- writer options ---- */

/* A value encoding by name, the library's names (pqt_encoding_from_name) and
 * DICTIONARY for RLE_DICTIONARY; BIT_PACKED is for levels only: not accepted. */
static int encoding_from_name(const char *s) {
  if (strcasecmp(s, "DICTIONARY") == 0) return PQT_ENCODING_RLE_DICTIONARY;
  int32_t e = pqt_encoding_from_name(s);
  return e == PQT_ENCODING_BIT_PACKED ? -1 : (int)e;
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
  /* the library's names (pqt_compression_from_name), except that "lz4" is
   * written as LZ4_RAW and the Hadoop framing is asked for as lz4_hadoop */
  int codec;
  if (strcasecmp(name, "lz4") == 0) codec = PQT_CODEC_LZ4_RAW;
  else if (strcasecmp(name, "lz4_hadoop") == 0) codec = PQT_CODEC_LZ4;
  else codec = (int)pqt_compression_from_name(name);
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

/* ROWS, or a size with a unit (KiB, MiB, GiB; also K, M, G, KB, MB, GB as powers of 1024). */
static int parse_row_group_size(const char *v, pqt_write_options *o) {
  char *end;
  errno = 0;
  long long n = strtoll(v, &end, 10);
  if (end == v || errno || n <= 0) return -1;
  if (!*end) {
    o->row_group_rows = n;
    return 0;
  }
  static const char *const units[] = {"k", "kb", "kib", "m", "mb", "mib", "g", "gb", "gib"};
  for (int i = 0; i < 9; i++) {
    if (strcasecmp(end, units[i]) != 0) continue;
    int shift = 10 * (i / 3 + 1);
    if (n > (INT64_MAX >> shift)) return -1;
    o->row_group_bytes = (int64_t)n << shift;
    o->row_group_rows = INT64_MAX;
    return 0;
  }
  return -1;
}

/* ---- --encrypt-* ---- */

/* A key as text or hex:...; 0 when it is 16, 24 or 32 bytes. */
static int parse_write_key(const char *s, uint8_t out[32], size_t *len) {
  size_t n;
  if (strncmp(s, "hex:", 4) == 0) {
    s += 4;
    n = strlen(s);
    if (n % 2 || n / 2 > 32) return -1;
    for (size_t i = 0; i < n; i++)
      if (!isxdigit((unsigned char)s[i])) return -1;
    for (size_t i = 0; i < n / 2; i++) {
      char hx[3] = {s[2 * i], s[2 * i + 1], 0};
      out[i] = (uint8_t)strtoul(hx, NULL, 16);
    }
    n /= 2;
  } else {
    n = strlen(s);
    if (n > 32) return -1;
    memcpy(out, s, n);
  }
  *len = n;
  return n == 16 || n == 24 || n == 32 ? 0 : -1;
}

static void wipe(void *p, size_t n) {
  volatile unsigned char *v = p;
  while (n--) *v++ = 0;
}

/* The --encrypt-* options: 0 not one, 1 a flag, 2 with its value; -status on a usage error.
 * No message shows a key. */
static int encrypt_option(const char *cmd, const char *a, const char *v, wopts *w) {
  int kr = kms_encrypt_option(cmd, a, v); /* --kms-key, --encrypt-kms-*: cli/kms_options.c */
  if (kr != 0) return kr;
  if (strncmp(a, "--encrypt-", 10) != 0) return 0;
  if (strcmp(a, "--encrypt-footer") != 0) w->encrypt_flags = true;
  /* the two flags first: every other --encrypt-* takes a value */
  if (strcmp(a, "--encrypt-plaintext-footer") == 0) {
    w->enc.plaintext_footer = 1;
    return 1;
  }
  if (strcmp(a, "--encrypt-no-store-aad-prefix") == 0) {
    w->enc.store_aad_prefix = 0;
    return 1;
  }
  if (!v) {
    usage(cmd, "%s needs a value", a);
    return -EXIT_USAGE;
  }
  if (strcmp(a, "--encrypt-footer") == 0) {
    size_t len;
    if (parse_write_key(v, w->enc_footer_key, &len) != 0)
      return -usage(cmd, "%s", "bad --encrypt-footer key (16, 24 or 32 bytes, as text or hex:...)");
    w->enc.footer_key = w->enc_footer_key;
    w->enc.footer_key_len = len;
    return 2;
  }
  if (strcmp(a, "--encrypt-column") == 0) {
    const char *colon = strchr(v, ':');
    if (!colon || colon == v) return -usage(cmd, "%s", "bad --encrypt-column (PATH:KEY, or PATH: for the footer key)");
    int n = w->n_enc_cols;
    if (n == 64) return -usage(cmd, "%s", "at most 64 --encrypt-column");
    pqt_column_encryption *nc = realloc(w->enc_cols, (size_t)(n + 1) * sizeof *nc);
    if (nc) w->enc_cols = nc;
    uint8_t(*nk)[32] = w->enc_col_keys;
    char *path = strndup(v, (size_t)(colon - v));
    if (!nc || !path) {
      free(path);
      return -EXIT_DATA;
    }
    memset(&nc[n], 0, sizeof nc[n]);
    nc[n].path = path;
    w->n_enc_cols++;
    if (colon[1]) {
      size_t len;
      if (parse_write_key(colon + 1, nk[n], &len) != 0)
        return -usage(cmd, "bad --encrypt-column key for column '%s' (16, 24 or 32 bytes, as text or hex:...)", path);
      nc[n].key = nk[n];
      nc[n].key_len = len;
    }
    return 2;
  }
  if (strcmp(a, "--encrypt-algorithm") == 0) {
    if (strcasecmp(v, "AES_GCM_V1") == 0) w->enc.algorithm = PQT_ENCRYPTION_AES_GCM_V1;
    else if (strcasecmp(v, "AES_GCM_CTR_V1") == 0) w->enc.algorithm = PQT_ENCRYPTION_AES_GCM_CTR_V1;
    else return -usage(cmd, "bad --encrypt-algorithm '%s' (AES_GCM_V1 or AES_GCM_CTR_V1)", v);
    return 2;
  }
  if (strcmp(a, "--encrypt-aad-prefix") == 0) {
    if (!v[0]) return -usage(cmd, "%s", "empty --encrypt-aad-prefix");
    w->enc.aad_prefix = (const uint8_t *)v;
    w->enc.aad_prefix_len = strlen(v);
    return 2;
  }
  if (strcmp(a, "--encrypt-key-metadata") == 0) {
    const char **nk = realloc(w->enc_km, (size_t)(w->n_enc_km + 1) * sizeof *nk);
    if (!nk) return -EXIT_DATA;
    w->enc_km = nk;
    nk[w->n_enc_km++] = v;
    return 2;
  }
  return -usage(cmd, "unknown option '%s'", a);
}

/* After parsing: check the combination and point the write options at it. */
static int finish_encryption(const char *cmd, wopts *w) {
  int kr = kms_encrypt_finish(cmd, w); /* keys from the key tools: cli/kms_options.c */
  if (kr < 0) return -kr;
  if (!w->enc.footer_key) {
    if (w->encrypt_flags) return usage(cmd, "%s", "the --encrypt-* options need --encrypt-footer KEY");
    return 0;
  }
  if (!w->enc.aad_prefix && !w->enc.store_aad_prefix)
    return usage(cmd, "%s", "--encrypt-no-store-aad-prefix needs --encrypt-aad-prefix TEXT");
  /* --encrypt-key-metadata PATH:TEXT names a column given to --encrypt-column with its own key;
   * anything else is the footer key's */
  for (int i = 0; i < w->n_enc_km; i++) {
    const char *v = w->enc_km[i], *colon = strchr(v, ':');
    pqt_column_encryption *col = NULL;
    for (int k = 0; colon && k < w->n_enc_cols && !col; k++)
      if (strlen(w->enc_cols[k].path) == (size_t)(colon - v) && strncmp(w->enc_cols[k].path, v, (size_t)(colon - v)) == 0)
        col = &w->enc_cols[k];
    if (col) {
      if (!col->key)
        return usage(cmd, "--encrypt-key-metadata: column '%s' uses the footer key (its metadata is the footer's)",
                     col->path);
      col->key_metadata = (const uint8_t *)colon + 1;
      col->key_metadata_len = strlen(colon + 1);
    } else {
      w->enc.footer_key_metadata = (const uint8_t *)v;
      w->enc.footer_key_metadata_len = strlen(v);
    }
  }
  if (kr == 0) {
    w->enc.columns = w->enc_cols;
    w->enc.n_columns = w->n_enc_cols;
  }
  w->o.encryption = &w->enc;
  return 0;
}

/* The input options of convert: 0 not one, 1 a flag, 2 with its value; -status on a usage error. */
static int convert_option(const char *cmd, const char *a, const char *v, wopts *w) {
  if ((strcmp(a, "--delimiter") == 0 || strcmp(a, "--quote") == 0) && v) {
    char c = strcmp(v, "\\t") == 0 || strcmp(v, "tab") == 0 ? '\t' : v[0];
    if (!((!v[1] || c == '\t') && c && c != '\n' && c != '\r'))
      return -usage(
          cmd, a[2] == 'd' ? "bad --delimiter '%s' (one character, or \\t)" : "bad --quote '%s' (one character)", v);
    if (a[2] == 'd') w->delimiter = c;
    else w->quote = c;
    return 2;
  }
  if (strcmp(a, "--null-string") == 0 && v) {
    w->null_string = v;
    return 2;
  }
  if (strcmp(a, "--input-encoding") == 0 && v) {
    if (strcasecmp(v, "latin1") == 0 || strcasecmp(v, "latin-1") == 0 || strcasecmp(v, "iso-8859-1") == 0)
      w->latin1 = true;
    else if (strcasecmp(v, "utf8") != 0 && strcasecmp(v, "utf-8") != 0)
      return -usage(cmd, "unknown --input-encoding '%s' (utf8 or latin1)", v);
    return 2;
  }
  if (strcmp(a, "--variant") == 0 && v) {
    if (w->n_variant == (int)(sizeof w->variant / sizeof *w->variant)) return -usage(cmd, "too many --variant columns");
    w->variant[w->n_variant++] = v;
    return 2;
  }
  if (strcmp(a, "--variant-shred-depth") == 0 && v) {
    char *end;
    long d = strtol(v, &end, 10);
    if (*end || end == v || d < 0 || d > 64) return -usage(cmd, "bad --variant-shred-depth '%s' (0 to 64)", v);
    w->variant_depth = (int)d;
    return 2;
  }
  if (strcmp(a, "--no-header") == 0) w->no_header = true;
  else if (strcmp(a, "--dry-run") == 0) w->dry_run = true;
  else if (strcmp(a, "--format") == 0 && v) {
    if (strcmp(v, "csv") != 0 && strcmp(v, "jsonl") != 0) return -usage(cmd, "bad --format '%s' (csv or jsonl)", v);
    w->format = v;
    return 2;
  } else return 0;
  return 1;
}

/* Parse argv into w; returns 0, or an exit status. */

int parse_args(const char *cmd, int argc, char **argv, wopts *w, int kind) {
  bool is_convert = kind == CMD_CONVERT;
  int r;
  memset(w, 0, sizeof *w);
  w->variant_depth = -1;
  pqt_write_options_init(&w->o);
  pqt_encryption_options_init(&w->enc);
  const char *pos[2];
  int npos = 0;
  bool threads_given = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--") == 0) { /* the rest are files, whatever they look like */
      for (i++; i < argc; i++) {
        if (npos == 2) return usage(cmd, "unexpected argument '%s'", argv[i]);
        pos[npos++] = argv[i];
      }
      break;
    }
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
      if (parse_row_group_size(v, &w->o) != 0)
        return usage(cmd, "bad --row-group-size '%s' (ROWS, or a size such as 64MiB)", v);
      i++;
    } else if (strcmp(a, "--page-size") == 0 && v) {
      char *end;
      errno = 0;
      long long n = strtoll(v, &end, 10);
      int shift = 0;
      if (*end == 'k' || *end == 'K') shift = 10;
      else if (*end == 'm' || *end == 'M') shift = 20;
      if (shift) end++;
      if (shift && (strcasecmp(end, "ib") == 0 || strcasecmp(end, "b") == 0)) end += strlen(end);
      if (end == v || *end || errno || n <= 0 || n > (INT32_MAX >> shift))
        return usage(cmd, "bad --page-size '%s' (bytes, or with K or M: 8K, 64KiB, 1M)", v);
      w->o.defaults.page_size = (int64_t)n << shift;
      i++;
    } else if (strcmp(a, "--page-rows") == 0 && v) {
      char *end;
      errno = 0;
      long long n = strtoll(v, &end, 10);
      if (end == v || *end || errno || n <= 0 || n > INT32_MAX) return usage(cmd, "bad --page-rows '%s' (a positive number)", v);
      w->o.defaults.page_row_limit = n;
      i++;
    } else if (strcmp(a, "--page-version") == 0 && v) {
      if (strcmp(v, "1") != 0 && strcmp(v, "2") != 0) return usage(cmd, "bad --page-version '%s' (1 or 2)", v);
      w->o.defaults.page_version = atoi(v);  // NOLINT(cert-err34-c): v is "1" or "2", checked above
      i++;
    } else if (strcmp(a, "--no-dictionary") == 0) {
      w->o.defaults.dictionary = 0;
    } else if (strcmp(a, "--no-statistics") == 0) {
      w->o.defaults.statistics = 0;
    } else if (strcmp(a, "--no-page-index") == 0) {
      w->o.defaults.page_index = 0;
    } else if (strcmp(a, "--no-write-crc") == 0) {
      w->o.defaults.crc = 0;
    } else if (strcmp(a, "--column-order") == 0 && v) {
      if (strcmp(v, "total") == 0) w->o.float_column_order = PQT_FLOAT_ORDER_TOTAL;
      else if (strcmp(v, "type") == 0) w->o.float_column_order = PQT_FLOAT_ORDER_TYPE;
      else return usage(cmd, "bad --column-order '%s' (total or type)", v);
      i++;
    } else if ((strcmp(a, "--threads") == 0 || strcmp(a, "-j") == 0) && v) {
      if (parse_threads(v, &w->o.threads) != 0)
        return usage(cmd, "bad %s '%s' (0 to 1024 threads; 0: one per core)", a, v);
      threads_given = true;
      i++;
    } else if (strcmp(a, "--int96-stats") == 0) {
      w->o.int96_statistics = 1;
    } else if (strcmp(a, "--no-crc") == 0) {
      return usage(cmd, "%s",
                   "'--no-crc' means 'do not verify checksums when reading'; to write no page "
                   "checksums say --no-write-crc");
    } else if ((r = encrypt_option(cmd, a, v, w)) != 0 || (is_convert && (r = convert_option(cmd, a, v, w)) != 0)) {
      if (r < 0) return -r;
      i += r - 1;
    } else if (strcmp(a, "--force") == 0) {
      w->force = true;
    } else if (kind == CMD_MERGE && (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && v) {
      w->out = v;
      i++;
    } else if (kind != CMD_REWRITE && kind != CMD_MERGE && strcmp(a, "--schema") == 0 && v) {
      w->schema = v;
      i++;
    } else if (kind == CMD_SALVAGE && strcmp(a, "--like") == 0 && v) {
      w->like = v;
      i++;
    } else if (a[0] == '-' && a[1]) {
      return usage(cmd, "unknown or incomplete option '%s'", a);
    } else if (kind == CMD_MERGE) {
      if (!w->inputs && !(w->inputs = calloc((size_t)argc, sizeof *w->inputs))) return EXIT_DATA;
      w->inputs[w->n_inputs++] = a;
    } else {
      if (npos == 2) return usage(cmd, "unexpected argument '%s'", a);
      pos[npos++] = a;
    }
  }
  if (kind == CMD_MERGE) {
    if (!w->out) return usage(cmd, "%s", "missing -o OUT (the file to write)");
    if (w->n_inputs == 0) return usage(cmd, "%s", "missing the input files");
    w->in = w->inputs[0];
  } else {
    if (npos != 2 && !(w->dry_run && npos == 1)) return usage(cmd, "%s", "need an input and an output file");
    w->in = pos[0];
    w->out = npos == 2 ? pos[1] : NULL;
  }
  /* a command that reads Parquet takes -j among its reading options: the writer too */
  if (!threads_given) w->o.threads = read_options()->threads;
  if ((r = finish_encryption(cmd, w)) != 0) return r;
  if (w->n_specs) {
    w->ovr = calloc((size_t)w->n_specs, sizeof *w->ovr);
    if (!w->ovr) return EXIT_DATA;
    for (int i = 0; i < w->n_specs; i++) {
      w->ovr[i].path = w->specs[i].path;
      w->ovr[i].options = w->o.defaults;
      if (w->specs[i].encoding >= 0) {
        w->ovr[i].options.encoding = w->specs[i].encoding;
        if (w->specs[i].encoding != PQT_ENCODING_RLE_DICTIONARY &&
            w->specs[i].encoding != PQT_ENCODING_PLAIN_DICTIONARY)
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
  free(w->inputs);
  w->inputs = NULL;
  wipe(w->enc_footer_key, sizeof w->enc_footer_key);
  wipe(w->enc_col_keys, sizeof w->enc_col_keys);
  for (int i = 0; i < w->n_enc_cols; i++) free((char *)w->enc_cols[i].path);
  free(w->enc_cols);
  free(w->enc_km);
  for (int i = 0; i < w->n_specs; i++) free(w->specs[i].path);
  free(w->specs);
  free(w->ovr);
}

bool want_help(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return true;
  return false;
}

static bool is_column(const struct ArrowSchema *s, const char *path) {
  for (int64_t i = 0; i < s->n_children; i++) {
    const char *n = s->children[i]->name;
    size_t l = strlen(n);
    if (strncmp(path, n, l) != 0) continue;
    if (!path[l]) return true;
    if (path[l] == '.' && is_column(s->children[i], path + l + 1)) return true;
  }
  /* Parquet paths name the list/map levels that Arrow leaves out */
  for (int64_t i = 0; i < s->n_children; i++) {
    const char *f = s->children[i]->format;
    if ((strcmp(f, "+l") == 0 || strcmp(f, "+m") == 0) && is_column(s->children[i], path)) return true;
  }
  return false;
}

int check_option_columns(const char *cmd, const wopts *w, pqt_writer *wr) {
  struct ArrowSchema as;
  memset(&as, 0, sizeof as);
  pqt_error e;
  if (pqt_writer_arrow_schema(wr, &as, &e) != PQT_OK) return fail(cmd, &e);
  int rc = 0;
  for (int i = 0; i < w->n_specs && !rc; i++) {
    const char *p = w->specs[i].path;
    /* a.list.element / m.key_value.key: accept the Parquet levels too */
    char *q = strdup(p);
    if (!q) break;
    for (const char *lv[] = {".list.element", ".key_value", ".list", ".element", NULL}, **x = lv; *x; x++) {
      char *at;
      while ((at = strstr(q, *x)) != NULL) memmove(at, at + strlen(*x), strlen(at + strlen(*x)) + 1);
    }
    if (!is_column(&as, p) && !is_column(&as, q))
      rc = usage(
          cmd, w->specs[i].bloom ? "--bloom: no column '%s' in the schema" : "--encoding: no column '%s' in the schema",
          p);
    free(q);
  }
  if (as.release) as.release(&as);
  return rc;
}
