/* scan/row_group.h: one row group's projected columns as array trees. */
#ifndef PQT_FILE_ROW_GROUP_H
#define PQT_FILE_ROW_GROUP_H

#include <pthread.h>

#include "arrow/array.h"
#include "column/column_reader.h"
#include "core/thread_pool.h"
#include "file/reader_internal.h"

typedef struct pqt_row_group_data {
  int64_t num_rows;
  pqt_array **fields; /* projected top-level fields, schema order */
  int32_t n_fields;
  int32_t n_fields_cap;
} pqt_row_group_data;

/* selected: one byte per leaf column (1 = projected), filled from options. */
pqt_status pqt_projection_resolve(const pqt_reader *r, const pqt_scan_options *opts, uint8_t *selected, pqt_error *err);
/* The whole row group in one batch. */
pqt_status pqt_row_group_read(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_row_group_data *out,
                              pqt_error *err);
/* Where a column chunk's bytes are: from the smaller valid page offset
 * (dictionary_page_offset 0 means none), total_compressed_size long, inside the file. */
pqt_status pqt_chunk_range(const pqt_reader *r, const pqt_column_metadata *cm, uint64_t *start, uint64_t *len,
                           pqt_error *err);

/*
 * scan/chunk.c: one column chunk opened for reading, the one way every
 * reader of chunks opens them (the row-group reader and its recovery, the
 * column API, `pages`, `verify`), encrypted chunks included: its metadata
 * (ColumnMetaData, decrypted from encrypted_column_metadata at file open
 * when the column's key is at hand), its byte range checked against the
 * file, and for an encrypted chunk the module decryptor its page headers,
 * pages, page index and Bloom filter modules need (key, file AAD, row
 * group and column ordinals; page ordinals are counted by the page reader).
 * Errors are not prefixed with the row group and column: callers do that.
 */
typedef struct pqt_chunk {
  int32_t g, leaf;
  const pqt_column_chunk *cc;
  const pqt_column_metadata *cm; /* NULL when the open failed before it was known */
  uint64_t start, len;           /* the chunk's pages */
  bool encrypted;                /* dec holds the column's key */
  bool no_key;                   /* the open failed for lack of the column's key only */
  pqt_module_decryptor dec;      /* page readers borrow it: the chunk must not move while they live */
  bool external;                 /* the pages are in ext (ColumnChunk.file_path), opened by pqt_chunk_open_data */
  pqt_io ext;
} pqt_chunk;

pqt_status pqt_chunk_open(const pqt_reader *r, int32_t g, int32_t leaf, pqt_chunk *ch, pqt_error *err);
/* pqt_chunk_open that also takes a chunk stored in another file: ch->ext is
 * that file (resolved against r's path; see
 * pqt_read_options.allow_external_paths) and ch->start/len lie in it.
 * pqt_chunk_open refuses such chunks (its callers read r->io). */
pqt_status pqt_chunk_open_data(const pqt_reader *r, int32_t g, int32_t leaf, pqt_chunk *ch, pqt_error *err);
/* Wipe the key copy (safe on a chunk whose open failed). */
void pqt_chunk_close(pqt_chunk *ch);
struct pqt_page_reader_options;
/* Page reader options for the chunk: the read options (CRC, size limits),
 * the column's levels, and the decryptor when encrypted. */
void pqt_chunk_page_options(const pqt_reader *r, const pqt_chunk *ch, struct pqt_page_reader_options *po);
/* The file a chunk's pages, page index and Bloom filter are in: ch->ext for
 * a chunk in another file (ColumnChunk.file_path), else r->io. */
const pqt_io *pqt_chunk_io(const pqt_reader *r, const pqt_chunk *ch);
struct pqt_page_reader;
/*
 * The one open of a chunk's page reader (the page cursor, the dictionary of
 * pqt_reader_dictionary and of row-group pruning): ch opened by
 * pqt_chunk_open_data (a chunk in another file is read there, an encrypted
 * one with its decryptor), pr on the chunk's pages in pqt_chunk_io with
 * pqt_chunk_page_options. window (NULL: the whole chunk) narrows the bytes
 * read to [window[0], +window[1]), which must lie inside the chunk (e.g.
 * its dictionary page only). crc_report_only: a CRC mismatch is reported
 * on the page, not an error. alloc: the page buffers'. On success the
 * caller frees pr (pqt_page_reader_free) then closes ch; pr borrows ch's
 * decryptor, so ch must not move while pr lives. On failure both are
 * released (ch->no_key still tells a missing key) and the error is not
 * prefixed with the row group and column: callers do that.
 */
pqt_status pqt_chunk_page_reader_open(const pqt_reader *r, int32_t g, int32_t leaf, const uint64_t *window,
                                      bool crc_report_only, const pqt_allocator *alloc, pqt_chunk *ch,
                                      struct pqt_page_reader *pr, pqt_error *err);
/* The chunk's offset index (module_type PQT_MODULE_OFFSET_INDEX, out a
 * pqt_offset_index) or column index (PQT_MODULE_COLUMN_INDEX, out a
 * pqt_column_index), decrypted when the chunk is encrypted. *found is false
 * (PQT_OK) when the chunk has none. Lists go to arena; byte views point
 * into hold (the caller frees it after out) or into the source's memory. */
pqt_status pqt_chunk_read_index(const pqt_reader *r, const pqt_chunk *ch, int module_type, pqt_arena *arena,
                                pqt_buf *hold, void *out, bool *found, pqt_error *err);
/* The chunk's Bloom filter (header and bitset; two modules when
 * encrypted) into *b (pqt_bloom_free it); *found false when it has none. */
struct pqt_bloom;
pqt_status pqt_chunk_read_bloom(const pqt_reader *r, const pqt_chunk *ch, struct pqt_bloom *b, bool *found,
                                pqt_error *err);
/*
 * Probe the chunk's Bloom filter for n XXH64 hashes without reading the
 * whole bitset: the filter's header, then only the 32-byte block each hash
 * selects (spec BloomFilter.md; an encrypted filter's header and bitset are
 * two modules, read and decrypted whole). maybe[i] is 1 when hashes[i] may
 * be in the set, 0 when it is definitely not. *found false (PQT_OK, maybe
 * untouched) when the chunk has no filter. Read from pqt_chunk_io (the
 * chunk's own file). Errors are not prefixed with the row group and column.
 */
pqt_status pqt_chunk_bloom_probe(const pqt_reader *r, const pqt_chunk *ch, const uint64_t *hashes, size_t n,
                                 uint8_t *maybe, bool *found, pqt_error *err);
/* Decode one column chunk (errors name the row group and column). */
pqt_status pqt_row_group_read_leaf(pqt_reader *r, int32_t g, int32_t leaf, pqt_column_data *cd, pqt_error *err);

/* One column chunk read a few records at a time (a column cursor set up
 * from the file's metadata: codec, decryption, recovery); errors name the
 * row group and column. See pqt_column_cursor_read / _finish. */
typedef struct pqt_leaf_cursor pqt_leaf_cursor;
pqt_status pqt_leaf_cursor_open(pqt_reader *r, int32_t g, int32_t leaf, pqt_leaf_cursor **out, pqt_error *err);
pqt_status pqt_leaf_cursor_read(pqt_leaf_cursor *c, int64_t max_rows, pqt_column_data *cd, int64_t *rows,
                                pqt_error *err);
pqt_status pqt_leaf_cursor_finish(pqt_leaf_cursor *c, pqt_error *err);
void pqt_leaf_cursor_close(pqt_leaf_cursor *c);
/* skip_pages: error recovery (pqt_column_read_options.skip_corrupt_pages),
 * with the chunk's offset index telling the rows of lost nested pages. */
pqt_status pqt_leaf_cursor_open_ex(pqt_reader *r, int32_t g, int32_t leaf, bool skip_pages, pqt_leaf_cursor **out,
                                   pqt_error *err);
const pqt_lost_rows *pqt_leaf_cursor_lost(const pqt_leaf_cursor *c, int32_t *n);
/* Selective reads (scan/ranged.c): the cursor starts on the bytes
 * [offset, offset+len) of the file only (the chunk's dictionary page, or
 * none), and is moved with pqt_column_cursor_seek; no row count checks. */
pqt_status pqt_leaf_cursor_open_window(pqt_reader *r, int32_t g, int32_t leaf, uint64_t offset, uint64_t len,
                                       pqt_leaf_cursor **out, pqt_error *err);
pqt_column_cursor *pqt_leaf_cursor_column(pqt_leaf_cursor *c);
const pqt_chunk *pqt_leaf_cursor_chunk(const pqt_leaf_cursor *c);
/* st with err naming the cursor's row group and column. */
pqt_status pqt_leaf_cursor_error(pqt_leaf_cursor *c, pqt_status st, pqt_error *err);

/* Damage that PQT_SKIP_CORRUPT recovers from (a chunk or row group is
 * lost): ECORRUPT, EUNSUPPORTED, ECRYPTO. */
bool pqt_recoverable_status(pqt_status st);

/* scan/recovery.c: with PQT_SKIP_CORRUPT, decode every selected leaf of
 * row group g whole into cols (indexed by leaf), leaving out what is
 * damaged, and make the leaves agree again: rows a lost page held read as
 * null in its top-level field when that field is optional, and are left
 * out of every column otherwise. Each loss is reported through on_skip.
 * *rows: the rows the columns hold now. */
struct pqt_rg_threads;
/* threads (NULL: one after the other): the leaves are read in parallel
 * when the file is not encrypted. */
pqt_status pqt_recover_leaves(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_column_data *cols, int64_t *rows,
                              struct pqt_rg_threads *threads, pqt_error *err);

/*
 * A row group read a batch of records at a time: every projected leaf has
 * a column cursor (column/column_reader.h), so memory holds a page per
 * column plus one batch. Errors name the row group and column (and page).
 * PQT_SKIP_CORRUPT: the row group is read in one batch by
 * pqt_recover_leaves (what a damage costs must not depend on the batch
 * size).
 */
typedef struct pqt_rg_cursor pqt_rg_cursor;
pqt_status pqt_rg_cursor_open(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_rg_cursor **out, pqt_error *err);
/* The next max_rows rows (<= 0: all that are left) as top-level fields;
 * out->num_rows == 0 once the row group is read. The batch that ends the
 * row group also checks that every chunk ends there. */
pqt_status pqt_rg_cursor_next(pqt_rg_cursor *c, int64_t max_rows, pqt_row_group_data *out, pqt_error *err);
bool pqt_rg_cursor_done(const pqt_rg_cursor *c);
/* Per leaf (borrowed, NULL: none): PQT_LEAF_DICT decodes its chunks as
 * dictionary indexes (pqt_column_data.want_dict), else PQT_LEAF_VIEWS as
 * views (want_views); ignored when recovering. */
enum { PQT_LEAF_DICT = 1, PQT_LEAF_VIEWS = 2 };
void pqt_rg_cursor_set_dict(pqt_rg_cursor *c, const uint8_t *dict_leaves);
/* Data pages decoded so far (for pqt_scan_stats). */
int64_t pqt_rg_cursor_pages(const pqt_rg_cursor *c);
/* Rows of the row group handed out so far (before any predicate). */
int64_t pqt_rg_cursor_rows_done(const pqt_rg_cursor *c);
void pqt_rg_cursor_close(pqt_rg_cursor *c);
/* Threads for the cursor's batches: the projected leaves of a batch are
 * read in parallel through par, the thread of slot k decompressing with
 * codecs[k] (pqt_par_slots(&par) entries, created on first use by that
 * slot; codecs[0] is the reader's codec_ctx, slot 0 being the calling
 * thread). Set up from the scan options by pqt_rg_threads_init
 * (scan/stream.c), which leaves codecs NULL for one thread; borrowed by
 * the cursors it is given to. Without it the leaves are read in order. */
typedef struct pqt_rg_threads {
  pqt_par par;
  pqt_codec_ctx **codecs;
} pqt_rg_threads;
/* opts: a whole (loaded) struct; its threads/executor, else the reader's. */
pqt_status pqt_rg_threads_init(pqt_rg_threads *t, pqt_reader *r, const pqt_scan_options *opts, pqt_error *err);
/* Joins the threads and frees the contexts (no cursor may use t after). */
void pqt_rg_threads_free(pqt_rg_threads *t, pqt_reader *r);
void pqt_rg_cursor_set_threads(pqt_rg_cursor *c, pqt_rg_threads *t);
/* One leaf's share of a parallel read (pqt_rg_threads_run): read `leaf`
 * decompressing with codec (the slot's context); codec NULL: the context
 * could not be made (st, err say why): name the leaf in err, return st. */
typedef pqt_status (*pqt_leaf_job)(void *ctx, int32_t leaf, pqt_codec_ctx *codec, pqt_status st, pqt_error *err);
/* Run job for leaves[0..n) on t's threads (t->codecs set; contexts made
 * with alloc on a slot's first use). Returns what reading the leaves in
 * order would have stopped at: the status and error of the failing leaf
 * of lowest index (a leaf above a known failure is not read). *watched
 * (may be NULL) tells whether some leaf failed with the status `watch`. */
pqt_status pqt_rg_threads_run(pqt_rg_threads *t, const pqt_allocator *alloc, const int32_t *leaves, int32_t n,
                              pqt_leaf_job job, void *ctx, pqt_status watch, bool *watched, pqt_error *err);
/* The same honouring pqt_read_options.on_error: with PQT_SKIP_CORRUPT a
 * row group that cannot be opened, or the rest of one that fails, is
 * reported (on_skip, with the rows lost) and *skipped set instead of
 * failing; out is then empty and the cursor done. */
pqt_status pqt_rg_cursor_open_recover(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_rg_cursor **out,
                                      bool *skipped, pqt_error *err);
pqt_status pqt_rg_cursor_next_recover(pqt_rg_cursor *c, int64_t max_rows, pqt_row_group_data *out, bool *skipped,
                                      pqt_error *err);
/*
 * Read-ahead (scan/row_group.c): while row group N decodes, the column
 * chunks of the next one the stream will read are announced to the source
 * (pqt_io.will_need), so a remote source fetches them while the decoding
 * goes on. At most one row group ahead: a new announcement waits for the
 * previous one. How, by source:
 *   - http(s)/s3 sources (thread-safe, their cache served while a batch is
 *     on the wire): on a thread of the stream's own, started on first use
 *     (an IO thread: it waits on the network, so it neither takes a slot
 *     of `threads` nor runs on the caller's executor, whose tasks must not
 *     block);
 *   - a caller's source with will_need and threads > 1 (the caller said it
 *     is thread-safe): the same;
 *   - a mapped file at threads > 1: the IO thread maps the next row group's
 *     pages in (MADV_POPULATE_READ), which the calling thread otherwise
 *     does when the group opens;
 *   - otherwise (a mapped file at one thread: MADV_WILLNEED, which returns
 *     at once; a caller's source at one thread): on the calling thread.
 * With pqt_read_options.max_memory set, a row group whose announced bytes
 * exceed half of it is not read ahead. Only a hint: failures are ignored
 * (the read itself reports them).
 */
typedef struct pqt_readahead {
  int mode; /* 0: off, 1: on the calling thread, 2: on the IO thread */
  bool populate; /* a mapped file: pqt_io_populate instead of will_need */
  pqt_thread_pool *io_thread; /* started on first use (mode 2) */
  bool failed_start;
  pthread_mutex_t mu; /* with cv: busy */
  pthread_cond_t cv;
  bool busy;          /* an announcement is queued or running */
  pqt_io io;          /* the caller's source (pqt_reader.user_io), for the IO thread */
  pqt_io_range *rs;   /* the announcement (rs_cap entries of r->alloc) */
  size_t n, rs_cap;
  const pqt_allocator *alloc;
  int64_t started;    /* announcements made (tests) */
} pqt_readahead;
/* enabled false: off. threads: the stream's (their slot count decides
 * whether a caller's source may be called from another thread). */
void pqt_readahead_init(pqt_readahead *ra, pqt_reader *r, bool enabled, const pqt_rg_threads *threads);
/* Announce the selected chunks of row group g (best effort). */
void pqt_readahead_start(pqt_readahead *ra, pqt_reader *r, int32_t g, const uint8_t *selected);
/* Announce the byte ranges rs[0..n) (copied; best effort), as _start
 * does for whole chunks: the selective read's pages (scan/ranged.c). */
void pqt_readahead_ranges(pqt_readahead *ra, pqt_reader *r, const pqt_io_range *rs, size_t n);
/* Returns once no announcement is queued or running. */
void pqt_readahead_wait(pqt_readahead *ra);
/* Waits, joins the IO thread, frees. */
void pqt_readahead_free(pqt_readahead *ra);

/* st, or PQT_ELIMIT when st is an allocation refused at max_memory. */
pqt_status pqt_reader_limit_status(pqt_reader *r, pqt_status st, pqt_error *err);
void pqt_row_group_data_free(const pqt_allocator *alloc, pqt_row_group_data *d);

/* scan/assemble_batch.c: the top-level fields holding a leaf in mask, built
 * from cols (indexed by leaf; value buffers taken over where they can be,
 * the caller frees what is left) with every post-assembly step (VARIANT
 * reconstruction): the one assembly of every read path (scan/row_group.c,
 * scan/ranged.c). rebuild (NULL: mask): the leaves whose VARIANT groups are
 * reconstructed (a filtered read passes the caller's projection, so a group
 * read only for a predicate's variant_get stays as stored). rows: the batch's rows; row_base: the row of the row
 * group g its first row is (numbers rows in errors). Errors name g and the
 * field. out is the caller's to free, also on failure. */
pqt_status pqt_batch_assemble(pqt_reader *r, int32_t g, pqt_column_data *cols, const uint8_t *mask,
                              const uint8_t *rebuild, int64_t rows, int64_t row_base, pqt_row_group_data *out,
                              pqt_error *err);

#endif
