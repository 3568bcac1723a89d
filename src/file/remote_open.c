/* file/remote_open.c: a reader over a URL (io/http.c, io/s3.c). */
#include "core/core.h"
#include "file/options.h"
#include "parquetry_remote.h"

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
  if (st != PQT_OK) io.release(io.private_data);
  return st;
}
