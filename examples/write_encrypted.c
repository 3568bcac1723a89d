/*
 * examples/write_encrypted.c: write an encrypted Parquet file and read it
 * back (Parquet Modular Encryption).
 *
 * The file has three columns: "id" and "email" are encrypted, "id" with the
 * footer key and "email" with a key of its own, and "country" is left in
 * plaintext. The footer is encrypted too. The file is written into a fresh
 * temporary directory, read back with the keys, and removed.
 *
 * Build (after `make install`):
 *   cc write_encrypted.c $(pkg-config --cflags --libs parquetry) -o write_encrypted
 * Run with no arguments; exit status 0 means the rows came back as written.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <parquetry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Keys are 16, 24 or 32 bytes. Real programs get them from a key
 * management service; never hard-code them. */
static const uint8_t footer_key[16] = "footer key 16 B!";
static const uint8_t email_key[32] = "a 32-byte key for the email col.";

/* Collects text output into a string. */
static pqt_status collect(void *ctx, const char *data, size_t len) {
  pqt_string *s = ctx;
  char *p = realloc(s->data, s->len + len + 1);
  if (!p) return PQT_ENOMEM;
  memcpy(p + s->len, data, len);
  s->data = p;
  s->len += len;
  s->data[s->len] = '\0';
  return PQT_OK;
}

int main(void) {
  char dir[] = "/tmp/pqt-example-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  char path[sizeof dir + 32];
  snprintf(path, sizeof path, "%s/customers.parquet", dir);
  pqt_error err;
  int rc = 1;

  /* 1. What to encrypt: "id" with the footer key (key NULL), "email" with
   *    its own key and a key id readers' key retrievers can look up;
   *    columns not listed ("country") stay in plaintext. */
  pqt_column_encryption columns[2] = {
      {.path = "id", .key = NULL},
      {.path = "email",
       .key = email_key,
       .key_len = sizeof email_key,
       .key_metadata = (const uint8_t *)"email-key-v1",
       .key_metadata_len = 12},
  };
  pqt_encryption_options enc;
  pqt_encryption_options_init(&enc);
  enc.algorithm = PQT_ENCRYPTION_AES_GCM_V1;
  enc.footer_key = footer_key;
  enc.footer_key_len = sizeof footer_key;
  enc.columns = columns;
  enc.n_columns = 2;
  /* bind the file to its name: a reader must know it (and a file copied
   * under another name's place is refused) */
  enc.aad_prefix = (const uint8_t *)"customers.parquet";
  enc.aad_prefix_len = strlen("customers.parquet");

  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.encryption = &enc; /* keys are copied when the writer opens */

  /* 2. Write three rows, column by column. */
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message =
      "message customers { required int64 id; required binary email (STRING);"
      " required binary country (STRING); }";
  pqt_writer *w;
  if (pqt_writer_open_file(&w, path, &ws, &wo, &err) != PQT_OK) {
    fprintf(stderr, "open: %s\n", err.message);
    goto out;
  }
  int64_t ids[3] = {1, 2, 3};
  const char emails[] = "ann@example.combob@example.orgcy@example.net";
  int32_t email_offsets[4] = {0, 15, 30, 44};
  const char countries[] = "NOSEFI";
  int32_t country_offsets[4] = {0, 2, 4, 6};
  if (pqt_writer_write_column(w, 0, 3, NULL, NULL, ids, NULL, 3, &err) != PQT_OK ||
      pqt_writer_write_column(w, 1, 3, NULL, NULL, emails, email_offsets, 3, &err) != PQT_OK ||
      pqt_writer_write_column(w, 2, 3, NULL, NULL, countries, country_offsets, 3, &err) != PQT_OK) {
    fprintf(stderr, "write: %s\n", err.message);
    pqt_writer_discard(w);
    goto out;
  }
  if (pqt_writer_close(w, &err) != PQT_OK) { /* the footer is encrypted and written here */
    fprintf(stderr, "close: %s\n", err.message);
    goto out;
  }

  /* 3. Without keys the file does not even open (its footer is encrypted). */
  pqt_reader *r;
  if (pqt_reader_open_file(&r, path, NULL, &err) == PQT_OK) {
    fprintf(stderr, "opened without keys?\n");
    pqt_reader_close(r);
    goto out;
  }
  printf("without keys: %s\n", err.message);

  /* 4. With the keys (and the AAD prefix, which the file stores here but a
   *    reader may give to check it) the rows come back. */
  pqt_column_key keys[1] = {{"email", email_key, sizeof email_key}};
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.footer_key = footer_key;
  ro.footer_key_len = sizeof footer_key;
  ro.column_keys = keys;
  ro.n_column_keys = 1;
  ro.aad_prefix = (const uint8_t *)"customers.parquet";
  ro.aad_prefix_len = strlen("customers.parquet");
  if (pqt_reader_open_file(&r, path, &ro, &err) != PQT_OK) {
    fprintf(stderr, "open with keys: %s\n", err.message);
    goto out;
  }
  pqt_string text = {0};
  pqt_status st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, collect, &text, &err);
  pqt_reader_close(r);
  if (st != PQT_OK) {
    fprintf(stderr, "read: %s\n", err.message);
    free(text.data);
    goto out;
  }
  printf("%s", text.data);
  rc = strstr(text.data, "\"email\":\"cy@example.net\"") && strstr(text.data, "\"country\":\"SE\"") ? 0 : 1;
  free(text.data);

out:
  unlink(path);
  rmdir(dir);
  return rc;
}
