/* file/remote_open.c: a reader over a URL (io/http.c, io/s3.c). */
#include "core/core.h"
#include "core/struct_size.h"
#include "file/options.h"
#include "file/reader_internal.h"
#include "parquetry_remote.h"

/* Keep the URL and a copy of the remote options (strings included) for
 * column chunks in other objects (ColumnChunk.file_path). */
static pqt_status keep_remote(pqt_reader *r, const char *url, const pqt_remote_options *ropts, pqt_error *err) {
  r->remote = pqt_mem_alloc(r->alloc, sizeof *r->remote);
  if (!r->remote) return pqt_nomem(err);
  pqt_remote_options_init(r->remote);
  PQT_RETURN_NOT_OK(pqt_options_copy(r->remote, sizeof *r->remote, ropts, "pqt_remote_options", err));
  const char **strs[] = {&r->remote->ca_file,       &r->remote->s3_region,         &r->remote->s3_endpoint,
                         &r->remote->access_key_id, &r->remote->secret_access_key, &r->remote->session_token};
  size_t n = strlen(url) + 1;
  for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
    if (*strs[i]) n += strlen(*strs[i]) + 1;
  r->remote_strings = pqt_mem_alloc(r->alloc, n);
  if (!r->remote_strings) return pqt_nomem(err);
  r->remote_strings_len = n;
  char *p = r->remote_strings;
  for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
    if (!*strs[i]) continue;
    size_t k = strlen(*strs[i]) + 1;
    memcpy(p, *strs[i], k);
    *strs[i] = p;
    p += k;
  }
  size_t ul = strlen(url) + 1;
  r->url = pqt_mem_alloc(r->alloc, ul);
  if (!r->url) return pqt_nomem(err);
  memcpy(r->url, url, ul);
  return PQT_OK;
}

PQT_API pqt_status pqt_reader_open_url(pqt_reader **out, const char *url, const pqt_remote_options *ropts,
                                       const pqt_read_options *opts, pqt_error *err) {
  if (!out || !url) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_open_url: bad arguments");
  *out = NULL;
  pqt_read_options o;
  PQT_RETURN_NOT_OK(pqt_read_options_load(&o, opts, err));
  pqt_io io;
  pqt_io_init(&io);
  PQT_RETURN_NOT_OK(pqt_io_open_url(&io, url, ropts, o.alloc, err));
  pqt_status st = pqt_reader_open(out, &io, opts, err);
  if (st != PQT_OK) {
    io.release(io.private_data);
    return st;
  }
  st = keep_remote(*out, url, ropts, err);
  if (st != PQT_OK) {
    pqt_reader_close(*out);
    *out = NULL;
  }
  return st;
}
