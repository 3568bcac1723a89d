/*
 * cli/kms_options.c: key tools on the command line. --kms-key ID:BASE64
 * (repeatable) gives master keys to the test-only in-memory KMS; reading
 * then unwraps the keys of files written with parquet-java's / Arrow's key
 * tools (key material in key_metadata or in _KEY_MATERIAL_FOR_<file>.json),
 * and convert / rewrite can write such files (--encrypt-kms-*).
 *
 * The settings are the CLI's own state (one command runs per process).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"
#include "parquetry_keytools.h"

#include "cli.h"

typedef struct kms_settings {
  pqt_inmemory_kms *kms;
  pqt_kms_client client;
  pqt_keytools_reader *reader;
  char *reader_path;
} kms_settings;

static kms_settings g_kms;

static void kms_cleanup(void) {
  pqt_keytools_reader_free(g_kms.reader);
  free(g_kms.reader_path);
  pqt_inmemory_kms_free(g_kms.kms);
  memset(&g_kms, 0, sizeof g_kms);
}

int kms_key_option(const char *cmd, const char *v) {
  const char *colon = strchr(v, ':');
  if (!colon || colon == v || !colon[1]) return usage(cmd, "%s", "bad --kms-key (ID:BASE64)");
  pqt_error e;
  pqt_error_init(&e);
  if (!g_kms.kms) {
    if (pqt_inmemory_kms_new(&g_kms.kms, &e) != PQT_OK) return usage(cmd, "%s", e.message);
    pqt_inmemory_kms_client(g_kms.kms, &g_kms.client);
    atexit(kms_cleanup);
  }
  char id[300];
  size_t n = (size_t)(colon - v);
  if (n >= sizeof id) return usage(cmd, "%s", "bad --kms-key (the master key id is too long)");
  memcpy(id, v, n);
  id[n] = '\0';
  /* the message names the id, never the key */
  if (pqt_inmemory_kms_add_key_base64(g_kms.kms, id, colon + 1, &e) != PQT_OK)
    return usage(cmd, "bad --kms-key: %s", e.message);
  return 0;
}

bool kms_active(void) { return g_kms.kms != NULL; }

const pqt_kms_client *kms_client(void) { return g_kms.kms ? &g_kms.client : NULL; }

bool kms_read_active(void) { return g_kms.kms != NULL; }

void kms_read_file(const char *path) {
  if (!g_kms.kms) return;
  if (g_kms.reader && path && g_kms.reader_path && strcmp(path, g_kms.reader_path) == 0) return;
  pqt_keytools_reader_free(g_kms.reader);
  free(g_kms.reader_path);
  g_kms.reader = NULL;
  g_kms.reader_path = path ? strdup(path) : NULL;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_keytools_reader_new(&g_kms.reader, &g_kms.client, path, &e) != PQT_OK) g_kms.reader = NULL;
}

pqt_status kms_read_retriever(const uint8_t *km, size_t n, const char *column_path, uint8_t *key, size_t *key_len,
                              pqt_error *err) {
  if (!g_kms.reader) kms_read_file(NULL);
  if (!g_kms.reader) {
    snprintf(err->message, sizeof err->message, "key tools: out of memory");
    err->code = PQT_ENOMEM;
    return PQT_ENOMEM;
  }
  return pqt_keytools_key_retriever(g_kms.reader, km, n, column_path, key, key_len, err);
}

/* ---- writing: --encrypt-kms-* ---- */
typedef struct kms_write_settings {
  const char *footer_master; /* --encrypt-kms-footer */
  pqt_keytools_column cols[64];
  char *col_paths[64];
  int n_cols;
  bool single_wrapping, external, any;
  int32_t data_key_bytes;
  pqt_keytools_writer *kw;
  const char *out; /* the output path, for the external material */
  bool stored;
} kms_write_settings;

static kms_write_settings g_kw;

static void kms_write_cleanup(void) {
  pqt_keytools_writer_free(g_kw.kw);
  for (int i = 0; i < g_kw.n_cols; i++) free(g_kw.col_paths[i]);
  memset(&g_kw, 0, sizeof g_kw);
}

int kms_encrypt_option(const char *cmd, const char *a, const char *v) {
  if (strcmp(a, "--kms-key") == 0) {
    if (!v) return -usage(cmd, "%s", "--kms-key needs a value");
    int r = kms_key_option(cmd, v);
    return r ? -r : 2;
  }
  if (strncmp(a, "--encrypt-kms-", 14) != 0 && strcmp(a, "--encrypt-external-key-material") != 0) return 0;
  if (!g_kw.any) atexit(kms_write_cleanup);
  g_kw.any = true;
  if (strcmp(a, "--encrypt-external-key-material") == 0) {
    g_kw.external = true;
    return 1;
  }
  if (strcmp(a, "--encrypt-kms-single-wrapping") == 0) {
    g_kw.single_wrapping = true;
    return 1;
  }
  if (!v) return -usage(cmd, "%s needs a value", a);
  if (strcmp(a, "--encrypt-kms-footer") == 0) {
    if (!v[0]) return -usage(cmd, "%s", "empty --encrypt-kms-footer (a master key id)");
    g_kw.footer_master = v;
    return 2;
  }
  if (strcmp(a, "--encrypt-kms-column") == 0) {
    const char *colon = strrchr(v, ':');
    if (!colon || colon == v || !colon[1]) return -usage(cmd, "%s", "bad --encrypt-kms-column (PATH:MASTER_KEY_ID)");
    if (g_kw.n_cols == 64) return -usage(cmd, "%s", "at most 64 --encrypt-kms-column");
    char *path = strndup(v, (size_t)(colon - v));
    if (!path) return -EXIT_DATA;
    g_kw.col_paths[g_kw.n_cols] = path;
    g_kw.cols[g_kw.n_cols] = (pqt_keytools_column){path, colon + 1};
    g_kw.n_cols++;
    return 2;
  }
  if (strcmp(a, "--encrypt-kms-key-bytes") == 0) {
    if (strcmp(v, "16") != 0 && strcmp(v, "24") != 0 && strcmp(v, "32") != 0)
      return -usage(cmd, "bad --encrypt-kms-key-bytes '%s' (16, 24 or 32)", v);
    g_kw.data_key_bytes = (int)strtol(v, NULL, 10); /* one of the three checked above */
    return 2;
  }
  return -usage(cmd, "unknown option '%s'", a);
}

int kms_encrypt_finish(const char *cmd, wopts *w) {
  if (!g_kw.any) return 0;
  if (!g_kw.footer_master)
    return -usage(cmd, "%s", "the --encrypt-kms-* options need --encrypt-kms-footer MASTER_KEY_ID");
  if (w->enc.footer_key || w->n_enc_cols || w->n_enc_km)
    return -usage(cmd, "%s",
                  "--encrypt-kms-* generate the keys: give no --encrypt-footer, --encrypt-column or "
                  "--encrypt-key-metadata with them");
  if (!kms_active()) return -usage(cmd, "%s", "--encrypt-kms-* need the master keys: --kms-key ID:BASE64");
  if (g_kw.external && (!w->out || strcmp(w->out, "-") == 0))
    return -usage(cmd, "%s", "--encrypt-external-key-material needs an output file (its key material goes beside it)");
  pqt_keytools_write_options o;
  pqt_keytools_write_options_init(&o);
  o.kms = kms_client();
  o.footer_master_key_id = g_kw.footer_master;
  o.columns = g_kw.cols;
  o.n_columns = g_kw.n_cols;
  o.double_wrapping = !g_kw.single_wrapping;
  o.external_key_material = g_kw.external;
  if (g_kw.data_key_bytes) o.data_key_bytes = g_kw.data_key_bytes;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_keytools_writer_new(&g_kw.kw, &o, &e) != PQT_OK || pqt_keytools_writer_fill(g_kw.kw, &w->enc, &e) != PQT_OK) {
    fprintf(stderr, "parquetry %s: %s\n", cmd, e.message);
    return -EXIT_DATA;
  }
  g_kw.out = w->out;
  return 1;
}

pqt_status kms_writer_close(pqt_writer *wr, pqt_error *e) {
  char mpath[4096] = "";
  if (g_kw.kw && g_kw.external) {
    /* the material first: the Parquet file never appears without it */
    pqt_status st = pqt_keytools_material_path(g_kw.out, mpath, sizeof mpath, e);
    if (st == PQT_OK) st = pqt_keytools_writer_store(g_kw.kw, g_kw.out, e);
    if (st != PQT_OK) {
      pqt_writer_discard(wr);
      return st;
    }
  }
  pqt_status st = pqt_writer_close(wr, e);
  if (st != PQT_OK && mpath[0]) remove(mpath);
  return st;
}
