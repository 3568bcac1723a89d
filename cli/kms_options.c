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
