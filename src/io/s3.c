/* io/s3.c: s3:// URLs (placeholder until the signer lands). */
#include "io/http.h"

pqt_status pqt_s3_open(pqt_io *io, const char *url, const pqt_remote_options *o, const pqt_allocator *alloc,
                       pqt_error *err);

pqt_status pqt_s3_open(pqt_io *io, const char *url, const pqt_remote_options *o, const pqt_allocator *alloc,
                       pqt_error *err) {
  (void)io;
  (void)url;
  (void)o;
  (void)alloc;
  return pqt_error_set(err, PQT_EUNSUPPORTED, "s3:// is not supported yet");
}

PQT_API pqt_status pqt_s3_list(const char *url, const pqt_remote_options *opts,
                               int (*fn)(void *ctx, const pqt_s3_object *obj), void *ctx, pqt_error *err) {
  (void)url;
  (void)opts;
  (void)fn;
  (void)ctx;
  return pqt_error_set(err, PQT_EUNSUPPORTED, "s3:// is not supported yet");
}
