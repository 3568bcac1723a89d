/*
 * codec internals: the context, the per-codec adapters behind the registry
 * (style.md §2.7) and the Hadoop block framing shared by LZ4 and LZO.
 * Spec: parquet-format "Compression".
 */
#ifndef PQT_CODEC_INTERNAL_H
#define PQT_CODEC_INTERNAL_H

#include "codec/codec.h"

struct ZSTD_DCtx_s;
struct ZSTD_CCtx_s;
struct libdeflate_decompressor;
struct libdeflate_compressor;
struct LZ4F_dctx_s;

struct pqt_codec_ctx {
  const pqt_allocator *alloc;
  struct ZSTD_DCtx_s *zstd_d;
  struct ZSTD_CCtx_s *zstd_c;
  struct libdeflate_decompressor *deflate_d;
  struct libdeflate_compressor *deflate_c;
  int deflate_c_level;
  struct LZ4F_dctx_s *lz4f_d;
  void *lz4_state; /* LZ4_sizeofState() bytes */
  size_t lz4_state_size;
  void *lz4hc_state; /* LZ4_sizeofStateHC() bytes */
  size_t lz4hc_state_size;
  void *lzo_wrkmem;
  size_t lzo_wrkmem_size;
  bool lzo_ready; /* lzo_init() succeeded */
};

typedef pqt_status (*pqt_codec_decompress_fn)(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst,
                                              size_t dst_len, pqt_error *err);
/* Appends the compressed bytes to out. */
typedef pqt_status (*pqt_codec_compress_fn)(pqt_codec_ctx *ctx, int level, const uint8_t *src, size_t src_len,
                                            pqt_buf *out, pqt_error *err);
typedef size_t (*pqt_codec_bound_fn)(size_t src_len);

typedef struct pqt_codec_entry {
  pqt_codec_decompress_fn decompress; /* NULL when not built */
  pqt_codec_compress_fn compress;
  pqt_codec_bound_fn max_compressed_len;
} pqt_codec_entry;

/* Allocation hooks for libraries whose free() does not pass the size
 * (zstd customMem, brotli): a size header precedes each block. opaque is
 * the pqt_codec_ctx. */
void *pqt_codec_shim_alloc(void *opaque, size_t n);
void pqt_codec_shim_free(void *opaque, void *p);

/* Lazily allocate a scratch buffer of n bytes in *slot (size kept in *size). */
pqt_status pqt_codec_scratch(pqt_codec_ctx *ctx, void **slot, size_t *size, size_t n, pqt_error *err);

/* One Hadoop chunk: decompress src[0..n) into at most cap bytes of dst; set
 * *produced. Returns false on malformed input. */
typedef bool (*pqt_hadoop_chunk_fn)(pqt_codec_ctx *ctx, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
                                    size_t *produced);
/* Decode Hadoop block framing: blocks of [BE u32 raw len] then at least one
 * [BE u32 compressed len][chunk] until the block's raw length is produced.
 * True only when the blocks exactly consume src and produce dst_len bytes. */
bool pqt_hadoop_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                           pqt_hadoop_chunk_fn chunk);

/* Adapters, one per codec (codec_<name>.c). */
pqt_status pqt_snappy_decompress(pqt_codec_ctx *, const uint8_t *, size_t, uint8_t *, size_t, pqt_error *);
pqt_status pqt_snappy_compress(pqt_codec_ctx *, int, const uint8_t *, size_t, pqt_buf *, pqt_error *);
size_t pqt_snappy_bound(size_t);

pqt_status pqt_gzip_decompress(pqt_codec_ctx *, const uint8_t *, size_t, uint8_t *, size_t, pqt_error *);
pqt_status pqt_gzip_compress(pqt_codec_ctx *, int, const uint8_t *, size_t, pqt_buf *, pqt_error *);
size_t pqt_gzip_bound(size_t);

pqt_status pqt_brotli_decompress(pqt_codec_ctx *, const uint8_t *, size_t, uint8_t *, size_t, pqt_error *);
pqt_status pqt_brotli_compress(pqt_codec_ctx *, int, const uint8_t *, size_t, pqt_buf *, pqt_error *);
size_t pqt_brotli_bound(size_t);

pqt_status pqt_lz4_hadoop_decompress(pqt_codec_ctx *, const uint8_t *, size_t, uint8_t *, size_t, pqt_error *);
pqt_status pqt_lz4_hadoop_compress(pqt_codec_ctx *, int, const uint8_t *, size_t, pqt_buf *, pqt_error *);
size_t pqt_lz4_hadoop_bound(size_t);

pqt_status pqt_lz4_raw_decompress(pqt_codec_ctx *, const uint8_t *, size_t, uint8_t *, size_t, pqt_error *);
pqt_status pqt_lz4_raw_compress(pqt_codec_ctx *, int, const uint8_t *, size_t, pqt_buf *, pqt_error *);
size_t pqt_lz4_raw_bound(size_t);

pqt_status pqt_zstd_decompress(pqt_codec_ctx *, const uint8_t *, size_t, uint8_t *, size_t, pqt_error *);
pqt_status pqt_zstd_compress(pqt_codec_ctx *, int, const uint8_t *, size_t, pqt_buf *, pqt_error *);
size_t pqt_zstd_bound(size_t);

#ifdef PQT_WITH_LZO
pqt_status pqt_lzo_decompress(pqt_codec_ctx *, const uint8_t *, size_t, uint8_t *, size_t, pqt_error *);
pqt_status pqt_lzo_compress(pqt_codec_ctx *, int, const uint8_t *, size_t, pqt_buf *, pqt_error *);
size_t pqt_lzo_bound(size_t);
#endif

/* Hadoop-framed writers use blocks of at most this many raw bytes. */
#define PQT_HADOOP_BLOCK_SIZE ((size_t)128 * 1024)

/* Release per-codec state (called by pqt_codec_ctx_destroy). */
void pqt_codec_release_state(pqt_codec_ctx *ctx);

#endif /* PQT_CODEC_INTERNAL_H */
