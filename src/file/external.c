/*
 * file/external.c: opening the file a column chunk's file_path names (spec
 * "Column chunks": ColumnChunk.file_path, the column data in another file),
 * relative to the directory of the file holding the footer: a local path
 * (pqt_reader_open_file) or a URL (pqt_reader_open_url, read through the
 * same remote options). The one place external column data is opened.
 */
#include <stdio.h>

#include "core/core.h"
#include "file/reader_internal.h"
#include "io/http.h"
#include "parquetry_remote.h"

const char *pqt_reader_shown_name(const pqt_reader *r, char *buf, size_t cap) {
  if (r->path) return r->path;
  if (r->url && cap) {
    pqt_url_shown(r->url, buf, cap);
    return buf;
  }
  return "the file";
}

/* Where the directory part of url ends (just past its last '/'), the query
 * and fragment dropped; *slash false when the path has no '/' at all
 * ("http://host"). */
static size_t url_dir_len(const char *url, bool *slash) {
  size_t n = strcspn(url, "?#");
  const char *scheme = strstr(url, "://");
  size_t host = scheme && (size_t)(scheme - url) < n ? (size_t)(scheme - url) + 3 : 0;
  size_t d = 0;
  for (size_t i = host; i < n; i++)
    if (url[i] == '/') d = i + 1;
  *slash = d > 0;
  return d ? d : n;
}

static bool url_plain(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strchr("-._~/!$&'()*+,;=:@", c);
}

pqt_status pqt_reader_open_external(const pqt_reader *r, const pqt_bytes *fp, pqt_io *ext, char *shown, size_t cap,
                                    pqt_error *err) {
  const char *p = (const char *)fp->ptr;
  size_t n = (size_t)fp->len;
  int pn = (int)(n > 200 ? 200 : n);
  if (cap) shown[0] = 0;
  if (!r->path && !r->url)
    return pqt_error_set(
        err, PQT_EUNSUPPORTED,
        "column data in another file (file_path '%.*s'): the footer was read from a buffer or a "
        "caller's pqt_io, which has no directory to resolve it against (open the file by its path or URL)",
        pn, p);
  if (n == 0 || memchr(p, 0, n)) return pqt_corrupt(err, "file_path is empty or holds a NUL byte");
  char fbuf[1024];
  const char *foot = pqt_reader_shown_name(r, fbuf, sizeof fbuf);
  bool absolute = p[0] == '/';
  bool escapes = absolute;
  for (size_t i = 0; i < n && !escapes;) { /* a ".." component */
    size_t e = i;
    while (e < n && p[e] != '/') e++;
    if (e - i == 2 && p[i] == '.' && p[i + 1] == '.') escapes = true;
    i = e + 1;
  }
  if (absolute && r->url)
    return pqt_error_set(err, PQT_EINVAL,
                         "%s: file_path '%.*s' is an absolute path, which a footer read from a URL cannot name (only "
                         "paths relative to the URL's directory are read, even with allow_external_paths)",
                         foot, pn, p);
  if (escapes && !r->opts.allow_external_paths)
    return pqt_error_set(err, PQT_EINVAL,
                         "%s: file_path '%.*s' is absolute or climbs out of the file's directory (allow it with "
                         "pqt_read_options.allow_external_paths)",
                         foot, pn, p);
  bool remote = r->url != NULL;
  const char *base = remote ? r->url : r->path;
  bool has_slash = false;
  size_t dl;
  if (remote) {
    dl = url_dir_len(base, &has_slash);
  } else {
    const char *slash = strrchr(base, '/');
    dl = absolute || !slash ? 0 : (size_t)(slash - base) + 1;
  }
  /* http(s) URLs get the path percent-encoded; s3.c encodes the key itself */
  bool encode = remote && strncmp(base, "s3://", 5) != 0;
  size_t full_len = dl + (has_slash || !remote ? 0 : 1) + (encode ? 3 * n : n) + 1;
  char *full = pqt_mem_alloc(r->alloc, full_len);
  if (!full) return pqt_nomem(err);
  size_t o = 0;
  memcpy(full, base, dl);
  o = dl;
  if (remote && !has_slash) full[o++] = '/';
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    if (!encode || url_plain(c)) {
      full[o++] = (char)c;
    } else {
      static const char hex[] = "0123456789ABCDEF";
      full[o++] = '%';
      full[o++] = hex[c >> 4];
      full[o++] = hex[c & 15];
    }
  }
  full[o] = 0;
  if (remote) {
    pqt_url_shown(full, shown, cap);
  } else if (cap) {
    snprintf(shown, cap, "%s", full);
  }
  pqt_io_init(ext);
  pqt_status st =
      remote ? pqt_io_open_url(ext, full, r->remote, r->alloc, err) : pqt_io_open_file(ext, full, r->alloc, err);
  if (st != PQT_OK) {
    ext->release = NULL;
    pqt_error_prefix(err, "%s: column data in %s", foot, shown);
  }
  pqt_mem_free(r->alloc, full, full_len);
  return st;
}
