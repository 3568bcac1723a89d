/*
 * variant_path.c: the Variant binary encoding (parquetry_variant.h): build a
 * Variant from JSON, read a value by path, and read an encoded Variant
 * (metadata + value bytes, as a VARIANT column stores them) from files.
 *
 *   variant_path                       build {"a": {"b": [10, 20.5, "x"]}} from JSON
 *                                      and print $.a.b and $.a.b[1]
 *   variant_path JSON PATH             the same for your JSON and path ("$.a.b")
 *   variant_path BASE PATH             BASE.metadata and BASE.value, e.g. the corpus's
 *                                      parquet-testing/variant/object_nested
 *
 * JSON numbers without an exponent become exact DECIMALs (20.5 is a DECIMAL4),
 * which pqt_variant_to_json writes as strings with their exact digits.
 *
 * Every byte of an encoded Variant is untrusted: pqt_variant_validate checks
 * the whole tree, and the accessors check what they touch anyway, so a bad
 * value is an error, never an out-of-bounds read.
 *
 * ctest-args: @CORPUS@/variant/object_nested.value $.observation.value.humidity
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <parquetry.h>
#include <parquetry_variant.h>

/* A whole small file into memory (the caller frees *data). */
static int slurp(const char *path, uint8_t **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      uint8_t *bigger = realloc(buf, cap *= 2);
      if (!bigger) free(buf);
      buf = bigger;
    }
  }
  fclose(f);
  if (!buf) return -1;
  *data = buf;
  *len = n;
  return 0;
}

/* Print the value at `path` in v as JSON (or say it is missing). */
static int print_path(const pqt_variant *v, const char *path) {
  pqt_error err;
  pqt_variant found;
  int ok;
  if (pqt_variant_path(v, path, &found, &ok, &err) != PQT_OK) { /* a malformed path */
    fprintf(stderr, "%s: %s\n", path, err.message);
    return 1;
  }
  if (!ok) {
    printf("%s: (missing)\n", path);
    return 0;
  }
  pqt_variant_kind kind;
  pqt_string json = {0};
  if (pqt_variant_get_type(&found, &kind, &err) != PQT_OK || pqt_variant_to_json(&found, &json, &err) != PQT_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    pqt_string_free(&json);
    return 1;
  }
  printf("%s = %.*s (kind %d)\n", path, (int)json.len, json.data, (int)kind);
  pqt_string_free(&json);
  return 0;
}

/* Build from JSON text and read paths. */
static int from_json(const char *text, const char *const *paths, int n_paths) {
  pqt_variant_owned owned;
  pqt_error err;
  if (pqt_variant_from_json(text, strlen(text), NULL, &owned, &err) != PQT_OK) {
    fprintf(stderr, "JSON: %s\n", err.message); /* names the byte offset */
    return 1;
  }
  printf("%s: metadata %zu bytes, value %zu bytes\n", text, owned.view.metadata_len, owned.view.value_len);
  int rc = 0;
  for (int i = 0; i < n_paths && rc == 0; i++) rc = print_path(&owned.view, paths[i]);
  pqt_variant_owned_free(&owned);
  return rc;
}

/* Read BASE.metadata and BASE.value (BASE may be given with either suffix). */
static int from_files(const char *arg, const char *path) {
  char base[4096], name[4200];
  snprintf(base, sizeof base, "%s", arg);
  char *dot = strrchr(base, '.');
  if (dot && (strcmp(dot, ".value") == 0 || strcmp(dot, ".metadata") == 0)) *dot = '\0';
  uint8_t *meta = NULL, *value = NULL;
  size_t meta_len = 0, value_len = 0;
  snprintf(name, sizeof name, "%s.metadata", base);
  if (slurp(name, &meta, &meta_len) != 0) {
    perror(name);
    return 1;
  }
  snprintf(name, sizeof name, "%s.value", base);
  if (slurp(name, &value, &value_len) != 0) {
    perror(name);
    free(meta);
    return 1;
  }
  pqt_variant v = {.metadata = meta, .metadata_len = meta_len, .value = value, .value_len = value_len};
  pqt_error err;
  int rc = 0;
  if (pqt_variant_validate(&v, &err) != PQT_OK) {
    fprintf(stderr, "%s: not a valid Variant: %s\n", base, err.message);
    rc = 1;
  } else {
    pqt_string json = {0};
    if (pqt_variant_to_json(&v, &json, &err) == PQT_OK) printf("%s: %.*s\n", base, (int)json.len, json.data);
    pqt_string_free(&json);
    rc = print_path(&v, path);
  }
  free(meta);
  free(value);
  return rc;
}

int main(int argc, char **argv) {
  if (argc == 1) {
    const char *paths[] = {"$.a.b", "$.a.b[1]", "$.a.c"};
    return from_json("{\"a\": {\"b\": [10, 20.5, \"x\"]}}", paths, 3);
  }
  if (argc != 3) {
    fprintf(stderr, "usage: %s [JSON PATH | BASE PATH]\n", argv[0]);
    return 2;
  }
  const char *s = argv[1];
  while (*s == ' ') s++;
  if (*s == '{' || *s == '[' || *s == '"') {
    const char *paths[] = {argv[2]};
    return from_json(argv[1], paths, 1);
  }
  return from_files(argv[1], argv[2]);
}
