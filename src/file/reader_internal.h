/* file/reader_internal.h: the reader object shared by the file/ modules. */
#ifndef PQT_FILE_READER_INTERNAL_H
#define PQT_FILE_READER_INTERNAL_H

#include <stdatomic.h>

#include "codec/codec.h"
#include "core/core.h"
#include "core/pool.h"
#include "crypto/file_decryptor.h"
#include "meta/footer.h"
#include "meta/schema.h"
#include "parquetry_remote.h"
#include "thrift/parquet_types.h"

struct pqt_thrift_desc;

/* Page reader options from the read options (CRC checks, page size
 * limits); the caller sets the rest (levels, decryption). */
struct pqt_page_reader_options;
void pqt_reader_page_options(const pqt_reader *r, struct pqt_page_reader_options *po);

/* Append the readable metadata summary (inspect/summary.c). */

/* The reader's state is shared by reference: pqt_reader_close drops the
 * caller's reference, and every stream (and column reader) holds one of
 * its own, so it stays usable after the reader is closed. The last
 * reference dropped frees the state and releases the io. */
void pqt_reader_ref(pqt_reader *r);
void pqt_reader_unref(pqt_reader *r);

struct pqt_reader {
  atomic_int refs;                 /* see pqt_reader_ref */
  const pqt_allocator *alloc;      /* the caller's: reader state, metadata */
  pqt_pool *pool;                  /* caching allocator over alloc */
  const pqt_allocator *data_alloc; /* the pool's: decoded data, exported buffers */
  pqt_read_options opts;
  pqt_io io;             /* user_io behind guards (private_data: the reader) */
  pqt_io user_io;        /* the caller's source, released with the last reference */
  pqt_arena arena;       /* footer lists, schema tree */
  const uint8_t *footer; /* borrowed from io, or footer_copy */
  uint8_t *footer_copy;
  size_t footer_len;
  pqt_file_metadata md;
  pqt_schema *schema;
  pqt_codec_ctx *codec_ctx;   /* reused by every column chunk read */
  const char *created_by;     /* NUL-terminated, "" when absent */
  pqt_file_decryptor *crypto; /* encrypted files (arena); NULL otherwise */
  char *path;                 /* pqt_reader_open_file's path (external column data); NULL otherwise */
  /* pqt_reader_open_url's URL and remote options (their strings copied into
   * remote_strings), for column chunks in other objects; NULL otherwise. */
  char *url;
  struct pqt_remote_options *remote;
  char *remote_strings;
  size_t remote_strings_len;
  /* A remote file's header magic not read at open (the speculative tail did
   * not hold it): read with the first batch of data ranges (or hint) and
   * checked then, against the tail's 8 bytes (guarded_read_ranges). */
  atomic_int head_pending;
  uint8_t tail8[8];
};

/* The source of column data in another file: ColumnChunk.file_path fp
 * resolved against the directory of the footer's file (a local path) or
 * URL (same remote options), into ext (set up by pqt_io_init). An absolute
 * path or a ".." component is refused unless allow_external_paths (an
 * absolute path under a URL always). shown (cap bytes) gets the file or
 * URL as errors show it (no credentials). The one place an external chunk
 * is opened (file/external.c). */
pqt_status pqt_reader_open_external(const pqt_reader *r, const pqt_bytes *fp, pqt_io *ext, char *shown, size_t cap,
                                    pqt_error *err);
/* What errors call the footer's file: its path or URL (no credentials), or "the file". */
const char *pqt_reader_shown_name(const pqt_reader *r, char *buf, size_t cap);

#endif
