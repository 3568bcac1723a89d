/*
 * cli/read_options.c: the options every command that reads a Parquet file
 * takes (keys of encrypted files, checks, recovery, resource limits), and
 * what reading reports: errors with the option that would allow what a
 * limit refused, and the rows lost under --skip-corrupt.
 *
 * The settings are the CLI's own state (one command runs per process; the
 * library has no global state).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"
#include "parquetry_remote.h"

#include "cli.h"

#define MAX_COLUMN_KEYS 64

typedef struct key_id_entry {
  const char *id; /* borrowed from argv, without the ":KEY" */
  size_t id_len;
  uint8_t key[32];
  size_t key_len;
} key_id_entry;

typedef struct read_settings {
  pqt_read_options opts;
  pqt_read_options defaults;
  uint8_t footer_key[32];
  pqt_column_key column_keys[MAX_COLUMN_KEYS];
  uint8_t column_key_bytes[MAX_COLUMN_KEYS][32];
  int n_column_keys;
  key_id_entry key_ids[MAX_COLUMN_KEYS]; /* --key ID:KEY */
  int n_key_ids;
  bool initialised;
  const char *path;   /* the file being read, for the loss report */
  int64_t rows_lost;  /* rows left out (on_skip's rows_lost) */
  int64_t skips;      /* losses reported (rows lost, or fields read as null) */
  int64_t rows_total; /* rows of the file(s) read */
  pqt_remote_options remote; /* http(s):// and s3:// paths */
} read_settings;

static read_settings g_read;

static void settings_init(void) {
  if (g_read.initialised) return;
  pqt_read_options_init(&g_read.opts);
  g_read.defaults = g_read.opts;
  pqt_remote_options_init(&g_read.remote);
  g_read.initialised = true;
}

/* A key given as text ("0123456789012345") or hex ("hex:00112233..."). */
static int parse_key(const char *s, uint8_t *out, size_t *len) {
  if (strncmp(s, "hex:", 4) == 0) {
    s += 4;
    size_t n = strlen(s);
    if (n % 2 || n / 2 > 32) return -1;
    for (size_t i = 0; i < n / 2; i++) {
      char hex[3] = {s[2 * i], s[2 * i + 1], 0}; /* two hex digits, no sign or space (sscanf took those) */
      if (!isxdigit((unsigned char)hex[0]) || !isxdigit((unsigned char)hex[1])) return -1;
      out[i] = (uint8_t)strtoul(hex, NULL, 16);
    }
    *len = n / 2;
  } else {
    size_t n = strlen(s);
    if (n > 32) return -1;
    memcpy(out, s, n);  // NOLINT(bugprone-not-null-terminated-result): key bytes, not a string
    *len = n;
  }
  return (*len == 16 || *len == 24 || *len == 32) ? 0 : -1;
}

/* A positive count of bytes, with an optional K, M or G (powers of 1024,
 * also written KiB, MiB, GiB). */
static int parse_bytes(const char *s, uint64_t *out) {
  if (!*s || *s == '-' || *s == '+') return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s) return -1;
  unsigned shift = 0;
  if (*end) {
    switch (*end) {
      case 'k':
      case 'K': shift = 10; break;
      case 'm':
      case 'M': shift = 20; break;
      case 'g':
      case 'G': shift = 30; break;
      default: return -1;
    }
    end++;
    if (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0) end += strlen(end);
    if (*end) return -1;
  }
  if (v == 0 || v > (UINT64_MAX >> shift)) return -1;
  *out = (uint64_t)v << shift;
  return 0;
}

int parse_threads(const char *v, int32_t *out) {
  char *end;
  errno = 0;
  long t = strtol(v, &end, 10);
  if (end == v || *end || errno || t < 0 || t > 1024) return -1;
  *out = (int32_t)t;
  return 0;
}

static void record_skip(void *ctx, const pqt_error *what, int64_t rows_lost) {
  (void)ctx;
  g_read.skips++;
  if (rows_lost > 0) g_read.rows_lost += rows_lost;
  fprintf(stderr, "parquetry: %s: skipped %lld rows: %s\n", g_read.path ? g_read.path : "", (long long)rows_lost,
          what->message);
}

/* The key retriever of --key ID:KEY: key_metadata equal to an ID gives its
 * key; then the key tools (--kms-key), when given. */
static pqt_status key_id_retriever(void *ctx, const uint8_t *km, size_t n, const char *column_path, uint8_t *key,
                                   size_t *key_len, pqt_error *err) {
  (void)ctx;
  for (int k = 0; k < g_read.n_key_ids; k++) {
    const key_id_entry *e = &g_read.key_ids[k];
    if (e->id_len == n && memcmp(e->id, km, n) == 0) {
      memcpy(key, e->key, e->key_len);
      *key_len = e->key_len;
      return PQT_OK;
    }
  }
  if (kms_read_active()) return kms_read_retriever(km, n, column_path, key, key_len, err);
  snprintf(err->message, sizeof err->message, "no --key given for this key id");
  err->code = PQT_ECRYPTO;
  return PQT_ECRYPTO;
}

static void use_retriever(void) {
  g_read.opts.key_retriever = key_id_retriever;
  g_read.opts.key_retriever_ctx = NULL;
}

static const char *const value_options[] = {"--footer-key",     "--column-key",         "--aad-prefix", "--key", "--kms-key",
                                            "--max-page-bytes", "--max-page-expansion", "--page-expansion-floor",
                                            "--max-memory",     "--max-footer-bytes",   "--int96-unit",
                                            "--s3-endpoint",    "--s3-region",          "--ca-file",
                                            "--threads",        "-j",
                                            NULL};

int read_option(const char *cmd, int argc, char **argv, int *i) {
  settings_init();
  const char *a = argv[*i];
  if (strcmp(a, "--no-crc") == 0) {
    g_read.opts.verify_checksums = 0;
    return 1;
  }
  if (strcmp(a, "--skip-corrupt") == 0) {
    g_read.opts.on_error = PQT_SKIP_CORRUPT;
    g_read.opts.on_skip = record_skip;
    return 1;
  }
  if (strcmp(a, "--no-utf8-check") == 0) {
    g_read.opts.validate_utf8 = 0;
    return 1;
  }
  if (strcmp(a, "--s3-path-style") == 0) {
    g_read.remote.s3_path_style = 1;
    return 1;
  }
  bool takes_value = false;
  for (int k = 0; value_options[k]; k++)
    if (strcmp(a, value_options[k]) == 0) takes_value = true;
  if (!takes_value) return 0;
  if (*i + 1 >= argc) {
    usage(cmd, "option '%s' needs a value", a);
    return 2;
  }
  const char *v = argv[++*i];
  if (strcmp(a, "--s3-endpoint") == 0 || strcmp(a, "--s3-region") == 0 || strcmp(a, "--ca-file") == 0) {
    if (a[2] == 'c')
      g_read.remote.ca_file = v;
    else if (a[5] == 'e')
      g_read.remote.s3_endpoint = v;
    else
      g_read.remote.s3_region = v;
    return 1;
  }
  if (strcmp(a, "--key") == 0) {
    const char *colon = strchr(v, ':'); /* ID:KEY, the key may itself be hex:... */
    if (!colon || colon == v || g_read.n_key_ids >= MAX_COLUMN_KEYS) {
      usage(cmd, "%s", "bad --key (ID:KEY, at most 64 of them)");
      return 2;
    }
    key_id_entry *e = &g_read.key_ids[g_read.n_key_ids];
    if (parse_key(colon + 1, e->key, &e->key_len) != 0) {
      usage(cmd, "bad --key for key id '%.*s' (16, 24 or 32 bytes, as text or hex:...)", (int)(colon - v), v);
      return 2;
    }
    e->id = v;
    e->id_len = (size_t)(colon - v);
    g_read.n_key_ids++;
    use_retriever();
    return 1;
  }
  if (strcmp(a, "--kms-key") == 0) {
    if (kms_key_option(cmd, v) != 0) return 2;
    use_retriever();
    return 1;
  }
  if (strcmp(a, "--footer-key") == 0) {
    size_t len;
    if (parse_key(v, g_read.footer_key, &len) != 0) {
      usage(cmd, "%s", "bad --footer-key (16, 24 or 32 bytes, as text or hex:...)"); /* a key is never shown */
      return 2;
    }
    g_read.opts.footer_key = g_read.footer_key;
    g_read.opts.footer_key_len = len;
    return 1;
  }
  if (strcmp(a, "--column-key") == 0) {
    char *spec = argv[*i];
    char *colon = strchr(spec, ':'); /* PATH:KEY, the key may itself be hex:... */
    if (!colon || g_read.n_column_keys >= MAX_COLUMN_KEYS) {
      usage(cmd, "%s", "bad --column-key (PATH:KEY, at most 64 of them)");
      return 2;
    }
    *colon = '\0';
    int k = g_read.n_column_keys;
    size_t len;
    if (parse_key(colon + 1, g_read.column_key_bytes[k], &len) != 0) {
      usage(cmd, "bad --column-key for column '%s' (16, 24 or 32 bytes, as text or hex:...)", spec);
      return 2;
    }
    g_read.column_keys[k].path = spec;
    g_read.column_keys[k].key = g_read.column_key_bytes[k];
    g_read.column_keys[k].key_len = len;
    g_read.n_column_keys++;
    g_read.opts.column_keys = g_read.column_keys;
    g_read.opts.n_column_keys = g_read.n_column_keys;
    return 1;
  }
  if (strcmp(a, "--threads") == 0 || strcmp(a, "-j") == 0) {
    int32_t t;
    if (parse_threads(v, &t) != 0) {
      usage(cmd, "bad %s '%s' (0 to 1024 threads; 0: one per core)", a, v);
      return 2;
    }
    g_read.opts.threads = t;
    return 1;
  }
  if (strcmp(a, "--int96-unit") == 0) {
    static const char *const units[] = {"ns", "us", "ms", "s"};
    for (int k = 0; k < 4; k++)
      if (strcmp(v, units[k]) == 0) {
        g_read.opts.int96_unit = (int32_t)k; /* pqt_int96_unit: NANOS, MICROS, MILLIS, SECONDS */
        return 1;
      }
    usage(cmd, "bad --int96-unit '%s' (ns, us, ms or s)", v);
    return 2;
  }
  if (strcmp(a, "--aad-prefix") == 0) {
    g_read.opts.aad_prefix = (const uint8_t *)v;
    g_read.opts.aad_prefix_len = strlen(v);
    return 1;
  }
  uint64_t n;
  if (parse_bytes(v, &n) != 0) {
    char msg[400];
    snprintf(msg, sizeof msg, "bad %s '%.200s' (a positive number%s)", a, v,
             strcmp(a, "--max-page-expansion") == 0 ? "" : " of bytes, K, M or G allowed");
    usage(cmd, "%s", msg);
    return 2;
  }
  if (strcmp(a, "--max-page-expansion") == 0) {
    if (n > UINT32_MAX) {
      usage(cmd, "bad --max-page-expansion '%s' (at most 4294967295)", v);
      return 2;
    }
    g_read.opts.max_page_expansion = (uint32_t)n;
  } else if (strcmp(a, "--max-page-bytes") == 0) {
    g_read.opts.max_page_bytes = n;
  } else if (strcmp(a, "--page-expansion-floor") == 0) {
    g_read.opts.page_expansion_floor = n;
  } else if (strcmp(a, "--max-memory") == 0) {
    g_read.opts.max_memory = n;
  } else {
    g_read.opts.max_footer_bytes = n;
  }
  return 1;
}

const pqt_read_options *read_options(void) {
  settings_init();
  return &g_read.opts;
}

void read_begin(const char *path) {
  settings_init();
  g_read.path = path;
  kms_read_file(path);
}

void read_add_rows(int64_t rows) {
  if (rows > 0) g_read.rows_total += rows;
}

pqt_status cli_reader_open(pqt_reader **r, const char *path, const pqt_read_options *ro, pqt_error *e) {
  settings_init();
  return pqt_is_url(path) ? pqt_reader_open_url(r, path, &g_read.remote, ro, e) : pqt_reader_open_file(r, path, ro, e);
}

const struct pqt_remote_options *cli_remote_options(void) {
  settings_init();
  return &g_read.remote;
}

int read_open(const char *path, pqt_reader **r) {
  pqt_error e;
  pqt_error_init(&e);
  read_begin(path);
  if (cli_reader_open(r, path, read_options(), &e) != PQT_OK) return read_fail(path, &e);
  int64_t rows = 0;
  for (int32_t g = 0; g < pqt_reader_num_row_groups(*r); g++) rows += pqt_reader_row_group_num_rows(*r, g);
  read_add_rows(rows);
  return 0;
}

/* The effective value of a limit (0 in the options means the default). */
static uint64_t eff(uint64_t set, uint64_t dflt) { return set ? set : dflt; }

/* n rounded up to a power of two (a value that also lets through pages a
 * little larger than the one refused), written with K, M or G when it
 * divides. */
static void round_up(unsigned long long n, char *out, size_t len) {
  unsigned long long p = 1;
  while (p < n && p < (1ULL << 62)) p <<= 1;
  const char *unit = "";
  if (p >= (1ULL << 30)) {
    p >>= 30;
    unit = "G";
  } else if (p >= (1ULL << 20)) {
    p >>= 20;
    unit = "M";
  } else if (p >= (1ULL << 10)) {
    p >>= 10;
    unit = "K";
  }
  snprintf(out, len, "%llu%s", p, unit);
}

/* The options that would let through what a limit refused, from the
 * library's message; "" when the message is not one we know. */
static void limit_hint(const char *msg, char *out, size_t n) {
  out[0] = 0;
  const pqt_read_options *o = &g_read.opts, *d = &g_read.defaults;
  const char *p = strstr(msg, "page claims ");
  unsigned long long usize, csize;
  if (p && sscanf(p, "page claims %llu uncompressed bytes from %llu compressed", &usize, &csize) == 2) {  // NOLINT(cert-err34-c): reads back the library's own message
    uint64_t max_bytes = eff(o->max_page_bytes, d->max_page_bytes);
    uint64_t expansion = eff(o->max_page_expansion, d->max_page_expansion);
    uint64_t floor = eff(o->page_expansion_floor, d->page_expansion_floor);
    size_t k = 0;
    k += (size_t)snprintf(out + k, n - k, " (allow it with");
    char v[32];
    if (usize > max_bytes) {
      round_up(usize, v, sizeof v);
      k += (size_t)snprintf(out + k, n - k, " --max-page-bytes %s", v);
    }
    if (usize > (unsigned long long)csize * expansion + floor) {
      unsigned long long need = csize ? (usize - floor + csize - 1) / csize : 0, pw = 1;
      while (pw < need && pw < (1ULL << 31)) pw <<= 1;
      round_up(usize, v, sizeof v);
      if (csize) k += (size_t)snprintf(out + k, n - k, " --max-page-expansion %llu", pw);
      else k += (size_t)snprintf(out + k, n - k, " --page-expansion-floor %s", v);
    }
    if (k < n) snprintf(out + k, n - k, ")");
    return;
  }
  if (strstr(msg, "memory ceiling")) {
    snprintf(out, n, " (allow more with --max-memory BYTES)");
    return;
  }
  if (strstr(msg, "footer of ")) {
    unsigned long long len;
    const char *f = strstr(msg, "footer of ");
    if (sscanf(f, "footer of %llu bytes", &len) == 1) snprintf(out, n, " (allow it with --max-footer-bytes %llu)", len);  // NOLINT(cert-err34-c): reads back the library's own message
  }
}

/* The option that gives a missing key or prefix. */
static const char *crypto_hint(const char *msg) {
  if (!msg) return "";
  if (strstr(msg, "give the footer key") || strstr(msg, "footer key, which was not given"))
    return " (give it with --footer-key KEY)";
  if (strstr(msg, "give the column key")) return " (give it with --column-key PATH:KEY)";
  if (strstr(msg, "give the AAD prefix")) return " (give it with --aad-prefix TEXT)";
  if (strstr(msg, "key tools:")) return ""; /* the key tools said what is wrong */
  if (strstr(msg, "key retriever")) return " (give the key of its key id with --key ID:KEY, or master keys with --kms-key ID:BASE64)";
  return "";
}

/* A URL as messages show it: no user:password@, no ?query (which may hold a
 * presigned signature). Other paths as they are. */
static const char *shown_path(const char *path, char *buf, size_t cap) {
  if (!pqt_is_url(path)) return path;
  const char *host = strstr(path, "://") + 3;
  const char *slash = strchr(host, '/'), *at = strchr(host, '@');
  if (at && (!slash || at < slash)) host = at + 1;
  snprintf(buf, cap, "%.*s%.*s", (int)(strstr(path, "://") + 3 - path), path, (int)strcspn(host, "?#"), host);
  return buf;
}

int read_fail_text(const char *path, int code, const char *msg) {
  char hint[160] = "", text[600], shown[512];
  path = shown_path(path, shown, sizeof shown);
  /* the library names its option field; the CLI names the flag below */
  const char *field = msg ? strstr(msg, " (max_memory)") : NULL;
  if (field) {
    snprintf(text, sizeof text, "%.*s%s", (int)(field - msg), msg, field + strlen(" (max_memory)"));
    msg = text;
  }
  if (code == PQT_ELIMIT) limit_hint(msg, hint, sizeof hint);
  if (code == PQT_ECRYPTO) snprintf(hint, sizeof hint, "%s", crypto_hint(msg));
  const char *col = msg ? strstr(msg, "column ") : NULL;
  if (code == PQT_ECRYPTO && strstr(hint, "PATH:KEY") && col) {
    col += 7;
    int n = (int)strcspn(col, ":,");
    if (n > 0 && n < 100) snprintf(hint, sizeof hint, " (give it with --column-key %.*s:KEY)", n, col);
  }
  fprintf(stderr, "parquetry: %s: %s%s\n", path, msg && msg[0] ? msg : pqt_status_name(code), hint);
  return EXIT_DATA;
}

int read_fail(const char *path, const pqt_error *e) { return read_fail_text(path, e->code, e->message); }

int read_stream_fail(const char *path, int errno_code, const char *msg) {
  int code = errno_code == E2BIG ? PQT_ELIMIT : PQT_ECORRUPT;
  return read_fail_text(path, code, msg ? msg : "read failed");
}

int read_finish(const char *path, int rc) {
  if (rc != 0 || g_read.skips == 0) return rc;
  fflush(stdout);
  if (g_read.rows_lost > 0)
    fprintf(stderr, "parquetry: %s: %lld of %lld rows lost\n", path, (long long)g_read.rows_lost,
            (long long)g_read.rows_total);
  else
    fprintf(stderr, "parquetry: %s: 0 of %lld rows lost, but damaged fields read as null (see above)\n", path,
            (long long)g_read.rows_total);
  return EXIT_ROWS_LOST;
}

int parse_row_spans(const char *text, pqt_row_span *spans, int32_t max, int32_t *n) {
  *n = 0;
  const char *p = text;
  int64_t prev_end = 0;
  while (*p) {
    char *end;
    errno = 0;
    if (*p < '0' || *p > '9') return -1;
    long long a = strtoll(p, &end, 10);
    if (errno || *end != '-') return -1;
    p = end + 1;
    long long b = -1; /* "A-": to the end */
    if (*p >= '0' && *p <= '9') {
      b = strtoll(p, &end, 10);
      if (errno || b < a) return -1;
      p = end;
    }
    if (*p == ',') p++;
    else if (*p) return -1;
    if (*n >= max || a < prev_end) return -1;
    spans[*n].first = a;
    spans[*n].count = b < 0 ? INT64_MAX - a : b - a;
    prev_end = spans[*n].first + spans[*n].count;
    (*n)++;
  }
  return *n > 0 ? 0 : -1;
}
