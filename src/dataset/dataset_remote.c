/*
 * dataset/dataset_remote.c: the dataset lister and opener over the remote
 * sources of io/ (include/parquetry_remote.h): s3:// prefixes listed with
 * ListObjectsV2, URLs opened with pqt_io_open_url, other paths local.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset/dataset_internal.h"
#include "parquetry_remote.h"

static pqt_status remote_open(void *ctx, const char *path, pqt_io *io, pqt_error *err) {
  const pqt_remote_options *ro = ctx;
  if (pqt_is_url(path)) return pqt_io_open_url(io, path, ro, NULL, err);
  return pqt_io_open_file(io, path, NULL, err);
}

typedef struct s3_emit_ctx {
  const char *bucket_url; /* "s3://bucket/" */
  size_t bucket_len;
  pqt_dataset_emit_fn emit;
  void *emit_ctx;
  pqt_status st;
  pqt_error *err;
  int64_t n;
} s3_emit_ctx;

static int s3_emit(void *c, const pqt_s3_object *obj) {
  s3_emit_ctx *e = c;
  size_t kl = strlen(obj->key);
  if (kl == 0 || obj->key[kl - 1] == '/') return 0; /* a "directory" marker, not a file */
  char *full = malloc(e->bucket_len + kl + 1);
  if (!full) {
    e->st = pqt_nomem(e->err);
    return 1;
  }
  memcpy(full, e->bucket_url, e->bucket_len);
  memcpy(full + e->bucket_len, obj->key, kl + 1);
  e->n++;
  e->st = e->emit(e->emit_ctx, full, e->err);
  free(full);
  return e->st != PQT_OK;
}

static pqt_status remote_list(void *ctx, const char *path, int *is_dir, pqt_dataset_emit_fn emit, void *ectx,
                              pqt_error *err) {
  const pqt_remote_options *ro = ctx;
  if (!pqt_is_url(path)) return pqt_ds_local_list(NULL, path, is_dir, emit, ectx, err);
  *is_dir = 0;
  if (strncmp(path, "s3://", 5) != 0) return PQT_OK; /* http(s)://: one object, no listing */
  const char *slash = strchr(path + 5, '/');
  size_t blen = slash ? (size_t)(slash - path) + 1 : strlen(path) + 1; /* "s3://bucket/" */
  size_t pl = strlen(path);
  char *bucket = malloc(blen + 1), *prefix = malloc(pl + 2);
  if (!bucket || !prefix) {
    free(bucket);
    free(prefix);
    return pqt_nomem(err);
  }
  memcpy(bucket, path, blen - 1);
  bucket[blen - 1] = '/';
  bucket[blen] = 0;
  memcpy(prefix, path, pl + 1);
  if (pl == 0 || prefix[pl - 1] != '/') { /* under the prefix as a directory, not keys merely starting with it */
    prefix[pl] = '/';
    prefix[pl + 1] = 0;
  }
  s3_emit_ctx e = {bucket, blen, emit, ectx, PQT_OK, err, 0};
  pqt_status st = pqt_s3_list(prefix, ro, s3_emit, &e, err);
  if (st == PQT_OK) st = e.st;
  if (st == PQT_OK && e.n > 0) *is_dir = 1;
  free(bucket);
  free(prefix);
  return st;
}

bool pqt_ds_fs_is_remote(const pqt_dataset_fs *fs) { return fs && fs->open == remote_open; }

void pqt_dataset_fs_remote(pqt_dataset_fs *fs, const struct pqt_remote_options *ropts) {
  if (!fs) return;
  fs->open = remote_open;
  fs->list = remote_list;
  fs->ctx = (void *)(uintptr_t)ropts;
}
