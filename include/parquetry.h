/*
 * parquetry: read and write Apache Parquet files from C11.
 *
 * This header is the manual. Conventions used throughout:
 *   - Every fallible function returns pqt_status (PQT_OK == 0) and takes a
 *     pqt_error* as its last argument, which may be NULL. The pqt_error is
 *     output only: no function reads what it held before the call (it need
 *     not be initialised). A function that fails sets every field: code,
 *     message (NUL-terminated, never empty) and the places, -1 where they do
 *     not apply. After success its content is unspecified.
 *   - Objects are opaque; constructors return them through an out-parameter.
 *     `_open/_close` for objects that own I/O, `_create/_destroy` otherwise.
 *   - Every object records the allocator it was created with and frees
 *     through it. No global mutable state: objects may be used from different
 *     threads as long as one object is not used by two threads at once.
 *   - Every byte read from a file is untrusted: a malformed file gives
 *     PQT_ECORRUPT with a message naming where it is bad, never a crash.
 *   - Structs that carry options in or results out begin with
 *     `size_t struct_size`, set by the struct's _init (an inline function
 *     that hands the library the struct's size as this header declares it).
 *     Call _init before filling a struct or passing it to be filled; a
 *     designated initialiser may set `.struct_size = sizeof(T)` itself.
 *     Fields are only ever added at the end, so a program built with an
 *     older header keeps working with a newer library: the library reads
 *     and writes only the program's struct_size bytes and uses defaults for
 *     fields added since. struct_size 0 (never initialised) or larger than
 *     the library's struct (a header newer than the library) is PQT_EINVAL.
 *     pqt_error, pqt_allocator, pqt_string, pqt_column_key and
 *     pqt_sorting_column_spec are fixed value structs without struct_size.
 *   - Pointers inside options are borrowed, never freed by the library;
 *     each field says how long it must stay valid.
 */
#ifndef PARQUETRY_H
#define PARQUETRY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define PQT_API __declspec(dllexport)
#elif defined(__GNUC__)
#define PQT_API __attribute__((visibility("default")))
#else
#define PQT_API
#endif

#define PQT_VERSION_MAJOR  0
#define PQT_VERSION_MINOR  1
#define PQT_VERSION_PATCH  0
#define PQT_VERSION_STRING "0.1.0"

/* The version as one number, MAJOR * 10000 + MINOR * 100 + PATCH
 * (0.1.0 is 100, 1.2.3 is 10203), for comparisons in #if. */
#define PQT_VERSION_NUMBER (PQT_VERSION_MAJOR * 10000 + PQT_VERSION_MINOR * 100 + PQT_VERSION_PATCH)

/* Library version string, e.g. "0.1.0". */
PQT_API const char *pqt_version(void);
/* The library's PQT_VERSION_NUMBER (the library linked at run time, which
 * may differ from the header an application was compiled with). */
PQT_API int pqt_version_number(void);

/* ------------------------------------------------------------------ */
/* Parquet's enumerations                                              */
/* ------------------------------------------------------------------ */

/*
 * The values are those of parquet.thrift (apache/parquet-format), so they
 * are what a file stores. Struct fields that hold them stay int32_t ("a
 * pqt_codec value"): an enum's size and signedness are the compiler's
 * choice (-fshort-enums changes them), which would make the struct layouts
 * compiler-dependent, and an int32_t also carries values that a newer
 * specification adds and this header does not name yet.
 */

/* CompressionCodec */
typedef enum pqt_codec {
  PQT_CODEC_UNCOMPRESSED = 0,
  PQT_CODEC_SNAPPY = 1,
  PQT_CODEC_GZIP = 2,
  PQT_CODEC_LZO = 3,
  PQT_CODEC_BROTLI = 4,
  PQT_CODEC_LZ4 = 5, /* deprecated Hadoop framing; LZ4_RAW is the interoperable one */
  PQT_CODEC_ZSTD = 6,
  PQT_CODEC_LZ4_RAW = 7
} pqt_codec;

/* Encoding (1, GROUP_VAR_INT, was never used; values the specification
 * has not released, such as proposals still in review, are not named) */
typedef enum pqt_encoding {
  PQT_ENCODING_PLAIN = 0,
  PQT_ENCODING_PLAIN_DICTIONARY = 2, /* deprecated: v1 dictionary pages */
  PQT_ENCODING_RLE = 3,
  PQT_ENCODING_BIT_PACKED = 4, /* deprecated: levels only */
  PQT_ENCODING_DELTA_BINARY_PACKED = 5,
  PQT_ENCODING_DELTA_LENGTH_BYTE_ARRAY = 6,
  PQT_ENCODING_DELTA_BYTE_ARRAY = 7,
  PQT_ENCODING_RLE_DICTIONARY = 8,
  PQT_ENCODING_BYTE_STREAM_SPLIT = 9,
  PQT_ENCODING_ALP = 10 /* FLOAT/DOUBLE; a preview in parquet-format: never chosen by default */
} pqt_encoding;

/* Type (the physical type) */
typedef enum pqt_type {
  PQT_TYPE_BOOLEAN = 0,
  PQT_TYPE_INT32 = 1,
  PQT_TYPE_INT64 = 2,
  PQT_TYPE_INT96 = 3, /* deprecated (legacy timestamps) */
  PQT_TYPE_FLOAT = 4,
  PQT_TYPE_DOUBLE = 5,
  PQT_TYPE_BYTE_ARRAY = 6,
  PQT_TYPE_FIXED_LEN_BYTE_ARRAY = 7,
  PQT_TYPE_NONE = -1 /* a group (parquetry_meta.h's schema nodes) */
} pqt_type;

/* LogicalType: the field id of the union member that is set (9 is
 * reserved for INTERVAL, which only exists as a ConvertedType); NONE when
 * the column carries no logical type. */
typedef enum pqt_logical {
  PQT_LOGICAL_NONE = 0,
  PQT_LOGICAL_STRING = 1,
  PQT_LOGICAL_MAP = 2,
  PQT_LOGICAL_LIST = 3,
  PQT_LOGICAL_ENUM = 4,
  PQT_LOGICAL_DECIMAL = 5,
  PQT_LOGICAL_DATE = 6,
  PQT_LOGICAL_TIME = 7,
  PQT_LOGICAL_TIMESTAMP = 8,
  PQT_LOGICAL_INTERVAL = 9, /* a ConvertedType only: the id parquet.thrift reserves for it */
  PQT_LOGICAL_INTEGER = 10,
  PQT_LOGICAL_UNKNOWN = 11,
  PQT_LOGICAL_JSON = 12,
  PQT_LOGICAL_BSON = 13,
  PQT_LOGICAL_UUID = 14,
  PQT_LOGICAL_FLOAT16 = 15,
  PQT_LOGICAL_VARIANT = 16,
  PQT_LOGICAL_GEOMETRY = 17,
  PQT_LOGICAL_GEOGRAPHY = 18,
  PQT_LOGICAL_VECTOR = 19
} pqt_logical;

/* ------------------------------------------------------------------ */
/* Status and errors                                                   */
/* ------------------------------------------------------------------ */

typedef int pqt_status;

enum {
  PQT_OK = 0,
  PQT_EINVAL = 1,       /* misuse of the API (bad argument, wrong state) */
  PQT_ENOMEM = 2,       /* an allocation failed */
  PQT_EIO = 3,          /* the source or sink failed */
  PQT_ECORRUPT = 4,     /* the file is malformed */
  PQT_EUNSUPPORTED = 5, /* valid, but a feature or codec is not available */
  PQT_ECRYPTO = 6,      /* a key is missing or authentication failed */
  PQT_ELIMIT = 7,       /* a configured resource limit was exceeded */
  PQT_ERANGE = 8        /* a stored value does not fit the requested in-memory
                           type (e.g. an INT96 timestamp outside int64 nanoseconds) */
};

/* Where an error happened; fields are -1 when not applicable. Output
 * only: the library never reads it, so it has no struct_size (its layout
 * is fixed). */
typedef struct pqt_error {
  pqt_status code;
  char message[512];
  int64_t file_offset;
  int32_t row_group;
  int32_t column;
  int32_t page;
} pqt_error;

/* Reset an error to "no error" (code PQT_OK, places -1, empty message). */
PQT_API void pqt_error_init(pqt_error *err);

/* A short constant name for a status code ("PQT_ECORRUPT"). */
PQT_API const char *pqt_status_name(pqt_status code);

/* ------------------------------------------------------------------ */
/* Allocator                                                           */
/* ------------------------------------------------------------------ */

/*
 * Caller-supplied allocator. realloc(ctx, NULL, 0, n) allocates;
 * realloc(ctx, p, old, n) resizes; free(ctx, p, size) releases. Sizes are
 * always passed back exactly as allocated, so pools and arenas work.
 * A NULL pqt_allocator* anywhere in the API means the C library's malloc.
 * A fixed function table (no struct_size): an allocator that needs more
 * would be a new struct. It must outlive every object created with it and
 * every buffer those objects handed out.
 */
typedef struct pqt_allocator {
  void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
  void (*free)(void *ctx, void *ptr, size_t size);
  void *ctx;
} pqt_allocator;

/* The default allocator (malloc/realloc/free). */
PQT_API const pqt_allocator *pqt_default_allocator(void);

/*
 * A cache of large buffers that readers reuse instead of asking the
 * allocator again (big blocks come from mmap, and every fresh page faults).
 * Each reader has a private one unless pqt_read_options.buffer_pool names a
 * shared one: a process that reads many files keeps one warm pool. Buffers
 * handed out (including those inside exported ArrowArrays) stay valid after
 * the pool is destroyed; the pool's memory is freed as they are released.
 * Thread-safe.
 */
typedef struct pqt_buffer_pool pqt_buffer_pool;
PQT_API pqt_status pqt_buffer_pool_create(pqt_buffer_pool **out, const pqt_allocator *alloc, uint64_t budget_bytes,
                                          pqt_error *err);
PQT_API void pqt_buffer_pool_destroy(pqt_buffer_pool *pool);

/* ------------------------------------------------------------------ */
/* Input                                                               */
/* ------------------------------------------------------------------ */

/* One range of a vectored read: length bytes at offset, into dst. */
typedef struct pqt_io_range {
  uint64_t offset;
  uint64_t length;
  void *dst; /* length bytes; unused by will_need */
} pqt_io_range;

/*
 * A random-access byte source. read_at fills dst with exactly n bytes at
 * offset (a short read is an error). borrow_at, when not NULL, returns a
 * pointer to n bytes that stay valid until release (memory and mmap
 * sources), so pages can be decoded without a copy. release frees the
 * source's private state. Begin with pqt_io_init (also before
 * pqt_io_open_file and pqt_io_from_buffer, which fill it).
 */
typedef struct pqt_io {
  size_t struct_size; /* set by pqt_io_init */
  pqt_status (*read_at)(void *private_data, uint64_t offset, void *dst, size_t n, pqt_error *err);
  pqt_status (*borrow_at)(void *private_data, uint64_t offset, size_t n, const uint8_t **out, pqt_error *err);
  void (*release)(void *private_data); /* may be NULL */
  uint64_t size;
  void *private_data; /* owned by the source; freed by release */
  /* Appended (vectored IO). Both may be NULL: the library then loops over
   * read_at, and skips the hint. read_ranges fills every range's dst with
   * exactly its length bytes (in any order, possibly concurrently); a
   * remote source merges nearby ranges into fewer requests. will_need
   * announces ranges about to be read (the projected column chunks of a
   * row group): a remote source fetches them in one batch and serves the
   * read_at/read_ranges calls that follow from memory; dst is ignored. */
  pqt_status (*read_ranges)(void *private_data, const pqt_io_range *ranges, size_t n, pqt_error *err);
  pqt_status (*will_need)(void *private_data, const pqt_io_range *ranges, size_t n, pqt_error *err);
} pqt_io;

/* Read every range of the batch through io (its read_ranges when set, else
 * one read_at per range). A fixed struct pqt_io_range (no struct_size). */
PQT_API pqt_status pqt_io_read_ranges(const pqt_io *io, const pqt_io_range *ranges, size_t n, pqt_error *err);

PQT_API void pqt_io_init_sized(pqt_io *io, size_t struct_size);
/* Set struct_size, every other field NULL/0. */
static inline void pqt_io_init(pqt_io *io) { pqt_io_init_sized(io, sizeof *io); }

/* A source over a file (memory-mapped when possible), into an io set up by
 * pqt_io_init. Release with io->release (or hand it to a reader). */
PQT_API pqt_status pqt_io_open_file(pqt_io *io, const char *path, const pqt_allocator *alloc, pqt_error *err);

/* A source over a caller's buffer (borrowed: it must outlive the source),
 * into an io set up by pqt_io_init. */
PQT_API pqt_status pqt_io_from_buffer(pqt_io *io, const void *data, size_t len, const pqt_allocator *alloc,
                                      pqt_error *err);

/* ------------------------------------------------------------------ */
/* Strings returned by the library                                     */
/* ------------------------------------------------------------------ */

/* A NUL-terminated string owned by the caller; free with pqt_string_free.
 * A fixed value struct (no struct_size). */
typedef struct pqt_string {
  char *data;
  size_t len;
  const pqt_allocator *alloc;
  size_t cap;
} pqt_string;

PQT_API void pqt_string_free(pqt_string *s);

/* ------------------------------------------------------------------ */
/* Decryption (Parquet Modular Encryption)                             */
/* ------------------------------------------------------------------ */

/*
 * Encrypted files (AES_GCM_V1 and AES_GCM_CTR_V1, encrypted or signed
 * plaintext footer) are read when pqt_read_options carries the keys:
 *   - footer_key: decrypts an encrypted footer, verifies a plaintext
 *     footer's signature, and decrypts columns encrypted with the footer key;
 *   - column_keys: keys of columns encrypted with their own key, by dotted
 *     column path ("a.b.c", as pqt_reader_schema_text shows the leaves);
 *   - key_retriever: asked for any key not given above, with the key_metadata
 *     stored in the file (e.g. a key id, or material for a KMS);
 *   - aad_prefix: the file identity, needed when the file was written with
 *     an AAD prefix it does not store; when the file stores one, a prefix
 *     given here must equal it.
 * Keys are 16, 24 or 32 bytes and are copied at open. Without a needed
 * key, opening (encrypted footer) or reading a column fails with
 * PQT_ECRYPTO; a file with a plaintext footer opens without keys and its
 * plaintext columns read as usual. Authentication failures are PQT_ECRYPTO
 * naming the module ("row group 0, column x, page 2: data page header:
 * AES-GCM authentication failed ..."). Key material stored outside the file
 * (parquet-java's external key material) is the key_retriever's business.
 */
typedef struct pqt_column_key { /* a fixed value struct, used in arrays (no struct_size) */
  const char *path;             /* dotted column path; borrowed until pqt_reader_open returns */
  const uint8_t *key;           /* borrowed until pqt_reader_open returns (copied there) */
  size_t key_len;               /* 16, 24 or 32 */
} pqt_column_key;

/*
 * Find the key for key_metadata (bytes stored in the file; may be empty).
 * column_path is the dotted column path, or NULL for the footer key. Write
 * the key to key_out (room for 32 bytes), its length to *key_len, and
 * return PQT_OK; any other status means "unknown key" (fill err to say why).
 */
typedef pqt_status (*pqt_key_retriever_fn)(void *ctx, const uint8_t *key_metadata, size_t key_metadata_len,
                                           const char *column_path, uint8_t *key_out, size_t *key_len, pqt_error *err);

/* ------------------------------------------------------------------ */
/* Reader                                                              */
/* ------------------------------------------------------------------ */

typedef struct pqt_reader pqt_reader;

typedef struct pqt_read_options {
  size_t struct_size;           /* set by pqt_read_options_init */
  const pqt_allocator *alloc;   /* NULL: malloc. Borrowed: must outlive the reader, its streams
                                   and every batch they handed out */
  int verify_checksums;         /* verify page CRC32 when present (default 1) */
  int validate_utf8;            /* validate STRING columns (default 1) */
  uint64_t max_footer_bytes;    /* largest footer accepted (default 256 MiB) */
  uint64_t max_memory;          /* ceiling on decoded data in memory (private pool; 0 = none):
                                   reading stays under it or fails with PQT_ELIMIT */
  int32_t max_nesting_depth;    /* deepest schema nesting accepted, the root's children being
                                   depth 1 (default and most 256; 0 = 256; other values outside
                                   1..256 are PQT_EINVAL); a deeper schema is PQT_ELIMIT at open */
  uint64_t buffer_cache_bytes;  /* private pool: freed large buffers kept (default 512 MiB) */
  pqt_buffer_pool *buffer_pool; /* shared pool to use instead (NULL: a private one). Borrowed:
                                   must outlive the reader and its streams */
  int int96_as_fixed;           /* INT96 in Arrow as fixed_size_binary(12), the stored bytes
                                   (default 0: timestamp in int96_unit, ns unless set) */
  /* Decryption (see above); all empty by default. The keys, the column_keys
   * array and aad_prefix are copied at open: borrowed only until
   * pqt_reader_open returns. */
  const uint8_t *footer_key; /* footer key (16, 24 or 32 bytes), or NULL */
  size_t footer_key_len;
  const pqt_column_key *column_keys;
  int32_t n_column_keys;
  const uint8_t *aad_prefix; /* NULL: none given */
  size_t aad_prefix_len;
  pqt_key_retriever_fn key_retriever; /* NULL: none */
  void *key_retriever_ctx;            /* must outlive the reader (and its streams) */
  int verify_footer_signature;        /* plaintext footers: check the signature when a key is at hand (default 1) */
  /* What corrupt data does: PQT_FAIL (default) stops the read with the
   * error. PQT_SKIP_CORRUPT reports each loss through on_skip (when set) and
   * goes on (spec: "Error recovery"): a bad page loses the rows it held, a
   * bad page header or column chunk the rest of its chunk. Lost rows of a
   * column under an optional top-level field make that field null in those
   * rows, in all its columns (rows_lost 0); lost rows of a column under a
   * required top-level field are left out of every column (rows_lost = the
   * rows). A nested v1 page's rows are known from the offset index; without
   * one, its loss costs the rest of its chunk. A row group where every
   * column lost every row is lost (rows_lost = its rows). With it, row
   * groups are decoded whole before any of their rows go out. */
  int on_error;
  void (*on_skip)(void *ctx, const pqt_error *what, int64_t rows_lost);
  void *on_skip_ctx; /* borrowed: must outlive the reader and its streams */
  /* Decompression bombs: a page may not claim more uncompressed bytes than
   * max_page_expansion times its compressed size plus page_expansion_floor,
   * nor more than max_page_bytes (defaults 64, 1 MiB, 1 GiB; a larger claim
   * is refused with PQT_ELIMIT before anything is allocated). */
  uint32_t max_page_expansion;
  uint64_t page_expansion_floor;
  uint64_t max_page_bytes;
  /* Arrow export of GEOMETRY and GEOGRAPHY columns as the GeoArrow
   * extension type geoarrow.wkb (binary storage; field metadata
   * ARROW:extension:name "geoarrow.wkb" and ARROW:extension:metadata
   * {"crs": ..., "crs_type": ..., "edges": ...}: the PROJJSON object when the
   * column's crs is "projjson:KEY" and the file has KEY, else the crs
   * string, "OGC:CRS84" when absent; "edges" for GEOGRAPHY). Default 0:
   * plain binary, as Arrow C++ (arrow_extensions_enabled) and as before, so
   * that consumers comparing schemas see no change unless they ask. */
  int32_t arrow_extensions;
  /* VARIANT columns: 0 (default) reads each as the Variant it stands for,
   * shredded columns reconstructed (VariantShredding.md), exported as
   * struct<metadata: binary, value: binary> with Arrow's canonical
   * extension type arrow.parquet.variant; 1 hands out the stored group as
   * it is (value, typed_value, ... as plain columns), and with
   * arrow_extensions set as well, marked arrow.parquet.variant (the
   * canonical type's shredded storage struct<metadata, value, typed_value>).
   * Writers take the extension under either name (arrow.parquet.variant, or
   * the older parquet.variant). */
  int variant_shredded;
  /* The Arrow unit of INT96 timestamps (unless int96_as_fixed): one of
   * pqt_int96_unit, default PQT_INT96_NANOS. A value that does not fit
   * int64 in that unit (nanoseconds: outside 1677-09-21..2262-04-11), or has
   * digits below it, fails the read with PQT_ERANGE naming row group, column
   * and row; nothing is wrapped or truncated. */
  int32_t int96_unit;
  /* Threads (parquetry_threads.h): the streams of this reader decode the
   * columns of a batch on `threads` threads (0, default: one per core; 1:
   * the calling thread only), through `executor` when not NULL (borrowed:
   * must outlive the reader and its streams), else through threads of
   * their own. Output is the same whatever the count. With more than one,
   * alloc and the io's callbacks are called from several threads at once
   * and must be thread-safe: so 0 means 1 when either is the caller's (an
   * io not from pqt_io_open_file or pqt_io_from_buffer) and no executor
   * is given; set threads to say they are. (A shared buffer_pool is
   * thread-safe, its allocator included, as before.) */
  const struct pqt_executor *executor;
  int32_t threads;
  /* Bytes read from the end of the file in the first request, so that a
   * footer smaller than this costs one read (0: 64 KiB; capped at the file
   * size). A larger footer is read with a second request. */
  uint64_t footer_read_bytes;
  /* Column chunks stored in another file (ColumnChunk.file_path, e.g. a
   * summary file's footer over data files) are read from that file,
   * resolved relative to the directory of the file holding the footer
   * (pqt_reader_open_file only). 0 (default): a file_path that is absolute
   * or climbs out of that directory with ".." is refused (PQT_EINVAL); 1:
   * allowed. */
  int32_t allow_external_paths;
  /* Arrow output that costs less (pqt_arrow_output bits, default 0 = the
   * plain layout): the default of this reader's streams, used when
   * pqt_scan_options.arrow_output is 0. See pqt_arrow_output. */
  uint64_t arrow_output;
} pqt_read_options;

/*
 * Arrow output options (bits of pqt_read_options.arrow_output and
 * pqt_scan_options.arrow_output), for pqt_reader_get_stream. Both are
 * opt-in; the text output and every other API ignore them.
 *
 * PQT_ARROW_DICTIONARY: every projected leaf column except BOOLEAN goes out
 *   as an Arrow dictionary array: ArrowSchema format "i" (int32 indexes)
 *   with ArrowSchema.dictionary the value type; the index array's
 *   validity carries the nulls (a null slot has index 0), the dictionary has
 *   none. One dictionary per batch: a dictionary-encoded chunk's indexes
 *   come straight from its pages (no gather), into a copy of the chunk's
 *   dictionary page made once per batch; pages of any other encoding (a
 *   writer that fell back to PLAIN midway, a chunk without a dictionary)
 *   have their values appended to that batch's dictionary, so the schema is
 *   one for the whole stream and a dictionary may hold values more than
 *   once (and values no row of the batch uses). Nested leaves (in structs,
 *   lists, maps) too. Where the rows are picked after decoding (a filter,
 *   row_ranges, PQT_SKIP_CORRUPT), the batch is decoded plainly and each
 *   leaf is its own dictionary (indexes 0..n-1): same type, no saving.
 *   Not affected (keep their default type): BOOLEAN, leaves whose Arrow
 *   type is narrower than the stored one (INT(8/16), decimals from byte
 *   arrays, INT96 timestamps: converted value by value, with range checks),
 *   leaves under a VARIANT group, GEOMETRY/GEOGRAPHY leaves, UNKNOWN.
 * PQT_ARROW_VIEW: strings and binaries (Arrow utf8/binary) go out as
 *   utf8view / binaryview ("vu" / "vz"): 16-byte views, values of up to 12
 *   bytes inline, longer ones pointing into variadic data buffers (the
 *   buffers are validity, views, the data buffers, then their int64 sizes).
 *   Without a copy where the bytes can be kept alive: a PLAIN or
 *   DELTA_LENGTH_BYTE_ARRAY page's values, and the DELTA_BYTE_ARRAY values
 *   stored whole (prefix length 0), are pointed at where they lie in the
 *   decompressed (or decrypted) page, or, for an uncompressed page read
 *   in place, in the mapped file (pqt_reader_open_file: the mapping stays
 *   until the last batch pointing into it is released) or the reader's
 *   own copy of the chunk; a dictionary-encoded page's into the chunk's
 *   dictionary (its bytes held once, shared by every batch of the row
 *   group); the batch keeps those buffers alive by reference (released
 *   with the batch, on any thread, after the stream and the reader are
 *   gone; a batch holding one value of a page holds the whole page, or
 *   the whole mapped file). Data buffer 0 holds what no such buffer
 *   does, copied once as the default layout does: DELTA_BYTE_ARRAY values
 *   with a prefix (built from the previous value: they are nowhere in the
 *   page), values of uncompressed pages in memory the library cannot keep
 *   (a caller's buffer, pqt_reader_open_buffer, or a caller's pqt_io), and
 *   of reads that pick rows after decoding (a filter, row_ranges,
 *   PQT_SKIP_CORRUPT). With PQT_ARROW_DICTIONARY too, a dictionary of
 *   views (into the batch's dictionary, see above). Strings stored with
 *   Arrow's large_utf8 hint keep that type.
 */
typedef enum pqt_arrow_output {
  PQT_ARROW_PLAIN = 0,
  PQT_ARROW_DICTIONARY = 1,
  PQT_ARROW_VIEW = 2
} pqt_arrow_output;

enum { PQT_FAIL = 0, PQT_SKIP_CORRUPT = 1 };

typedef enum pqt_int96_unit {
  PQT_INT96_NANOS = 0,
  PQT_INT96_MICROS = 1,
  PQT_INT96_MILLIS = 2,
  PQT_INT96_SECONDS = 3
} pqt_int96_unit;

PQT_API void pqt_read_options_init_sized(pqt_read_options *opts, size_t struct_size);
/* Fill options with defaults (and struct_size). */
static inline void pqt_read_options_init(pqt_read_options *opts) { pqt_read_options_init_sized(opts, sizeof *opts); }

/*
 * Open a reader over io. On success the reader owns io (it calls
 * io->release when the reader and every stream and column reader made from
 * it are closed); on failure io is left to the caller. io's callbacks are
 * given a pqt_error of the library's: one that fails without filling it in
 * still gives the caller a complete error. opts may be
 * NULL for defaults. The footer is read and validated here.
 */
PQT_API pqt_status pqt_reader_open(pqt_reader **out, pqt_io *io, const pqt_read_options *opts, pqt_error *err);
/* Convenience: open a file by path (memory-mapped when possible). */
PQT_API pqt_status pqt_reader_open_file(pqt_reader **out, const char *path, const pqt_read_options *opts,
                                        pqt_error *err);
/* Convenience: open a caller's buffer, which must outlive the reader and
 * the streams and column readers made from it. */
PQT_API pqt_status pqt_reader_open_buffer(pqt_reader **out, const void *data, size_t len, const pqt_read_options *opts,
                                          pqt_error *err);
/* Close the reader. Streams and column readers made from it stay valid
 * (each holds a reference); the last one released frees what is shared. */
PQT_API void pqt_reader_close(pqt_reader *r);

PQT_API int64_t pqt_reader_num_rows(const pqt_reader *r);
PQT_API int32_t pqt_reader_num_row_groups(const pqt_reader *r);
/* Rows of row group g (-1 when g is out of range). FileMetaData.num_rows
 * is not always their sum (some writers leave it 0). */
PQT_API int64_t pqt_reader_row_group_num_rows(const pqt_reader *r, int32_t g);
/* Number of leaf columns. */
PQT_API int32_t pqt_reader_num_columns(const pqt_reader *r);
/* Sum of the column chunks' total_uncompressed_size over the file. */
PQT_API int64_t pqt_reader_uncompressed_bytes(const pqt_reader *r);
/* "created_by" of the footer, or "" when absent (valid until close). */
PQT_API const char *pqt_reader_created_by(const pqt_reader *r);

/* The sorting_columns row group g declares: up to max of them into out
 * (may be NULL with max 0); returns how many it declares, or -1 when g is
 * out of range. */
struct pqt_sorting_column_spec;
PQT_API int32_t pqt_reader_sorting_columns(const pqt_reader *r, int32_t g, struct pqt_sorting_column_spec *out,
                                           int32_t max);

/* The schema in the message syntax ("message schema { ... }"). */
PQT_API pqt_status pqt_reader_schema_text(const pqt_reader *r, pqt_string *out, pqt_error *err);
/* The whole FileMetaData as JSON, keys named as in parquet.thrift.
 * indent 0 gives one line, otherwise pretty-printed with that many spaces. */
PQT_API pqt_status pqt_reader_metadata_json(const pqt_reader *r, int indent, pqt_string *out, pqt_error *err);
/* A readable multi-line summary of the metadata (what `parquetry meta` prints). */
PQT_API pqt_status pqt_reader_metadata_summary(const pqt_reader *r, pqt_string *out, pqt_error *err);
/* The summary in a style: PQT_SUMMARY_READABLE (what pqt_reader_metadata_summary
 * gives: labelled lines no wider than `width` columns, 0 = 80; longer values
 * are cut, ending "...") or PQT_SUMMARY_PARQUET_TOOLS (a line per column chunk
 * as parquet-tools printed it, `name: INT32 SNAPPY DO:4 FPO:22 SZ:72/72/1.00
 * VC:1 ENC:PLAIN,RLE` plus statistics; width ignored). */
enum { PQT_SUMMARY_READABLE = 0, PQT_SUMMARY_PARQUET_TOOLS = 1 };
PQT_API pqt_status pqt_reader_metadata_summary_styled(const pqt_reader *r, int32_t style, int32_t width,
                                                      pqt_string *out, pqt_error *err);

/* ------------------------------------------------------------------ */
/* Low-level column access: values plus levels                         */
/* ------------------------------------------------------------------ */

/* What a leaf column is (filled by pqt_reader_column_info into a struct set
 * up by pqt_column_info_init). Strings are the reader's: valid until it is
 * closed. */
typedef struct pqt_column_info {
  size_t struct_size;    /* set by pqt_column_info_init */
  const char *path;      /* dotted path, e.g. "a.list.element" */
  int32_t physical_type; /* a pqt_type value (PQT_TYPE_INT32, ...) */
  int32_t type_length;   /* FIXED_LEN_BYTE_ARRAY width, else 0 */
  int16_t max_def_level;
  int16_t max_rep_level;
  int32_t logical_type; /* a pqt_logical value: the column's LogicalType, or the one its
                           ConvertedType implies; PQT_LOGICAL_NONE when it has neither */
} pqt_column_info;

PQT_API void pqt_column_info_init_sized(pqt_column_info *info, size_t struct_size);
static inline void pqt_column_info_init(pqt_column_info *info) { pqt_column_info_init_sized(info, sizeof *info); }

PQT_API pqt_status pqt_reader_column_info(const pqt_reader *r, int32_t column, pqt_column_info *out, pqt_error *err);

/*
 * One batch of a column chunk, for callers that assemble records
 * themselves: n_levels entries of definition and repetition levels (NULL
 * when the column's max level is 0) and the n_values non-null values, dense:
 * fixed-width values back to back (INT96 12 bytes, FIXED_LEN_BYTE_ARRAY
 * type_length bytes), BOOLEAN one byte (0/1) per value, BYTE_ARRAY as
 * offsets[n_values + 1] into data. Pointers are the column reader's: valid
 * until the next call or pqt_column_reader_close. Set up with
 * pqt_column_batch_init before the first call.
 */
typedef struct pqt_column_batch {
  size_t struct_size; /* set by pqt_column_batch_init */
  int64_t n_levels;
  const int16_t *def_levels;
  const int16_t *rep_levels;
  int64_t n_values;
  const void *values;
  const int32_t *offsets; /* BYTE_ARRAY only: offsets[0] may be non-zero */
} pqt_column_batch;

PQT_API void pqt_column_batch_init_sized(pqt_column_batch *b, size_t struct_size);
static inline void pqt_column_batch_init(pqt_column_batch *b) { pqt_column_batch_init_sized(b, sizeof *b); }

typedef struct pqt_column_reader pqt_column_reader;

/* Read column `column` of row group `row_group` (the whole chunk is
 * decoded here; batches are then handed out without further decoding). */
PQT_API pqt_status pqt_column_reader_open(pqt_column_reader **out, pqt_reader *r, int32_t row_group, int32_t column,
                                          pqt_error *err);
/* The next at most max_levels entries; n_levels == 0 at the end. Batches
 * end where a record ends (the next entry has repetition level 0) unless a
 * single record is longer than max_levels. */
PQT_API pqt_status pqt_column_reader_next(pqt_column_reader *cr, int64_t max_levels, pqt_column_batch *out,
                                          pqt_error *err);
PQT_API void pqt_column_reader_close(pqt_column_reader *cr);

/* ------------------------------------------------------------------ */
/* Scans: rows as Arrow record batches or as text                     */
/* ------------------------------------------------------------------ */

struct ArrowArrayStream;

/* The pointers here are borrowed and read during the call that takes the
 * options only (pqt_reader_get_stream, pqt_reader_write_text). */
typedef struct pqt_scan_options {
  size_t struct_size; /* set by pqt_scan_options_init */
  /* Projection: top-level field names or dotted paths ("a.b.c"), in any
   * order; the output keeps schema order. NULL/0 = every column. */
  const char *const *columns;
  int32_t n_columns;
  /* Row groups to read, in the order given. NULL/0 = all. */
  const int32_t *row_groups;
  int32_t n_row_groups;
  /* Rows per record batch (at most; a row group's last batch may be
   * shorter, and batches never span row groups); 0 = PQT_DEFAULT_BATCH_ROWS.
   * Each batch is decoded when it is asked for: release it before asking
   * for the next and its buffers are reused while still in cache. */
  int64_t batch_size;
  /* Rows to return: only those where this predicate is true (NULL: all).
   * See parquetry_filter.h; the expression must outlive the scan. Its
   * columns need not be projected. Row groups that statistics,
   * dictionaries or Bloom filters show cannot match are not read. */
  const struct pqt_expr *filter;
  /* When not NULL, filled with what the scan read (pqt_scan_stats): at the
   * end of pqt_reader_write_text, after each batch of a stream (it must
   * then outlive the stream). */
  struct pqt_scan_stats *stats;
  /* Rows to read by their position in the file (row 0: the first row of
   * row group 0, whatever row_groups selects): sorted, not overlapping.
   * NULL/0 = every row. Served from the offset index where the file has
   * one: pages before, between and after the ranges are not read. The
   * filter, when set, applies to these rows. Not with PQT_SKIP_CORRUPT. */
  const struct pqt_row_span *row_ranges;
  int32_t n_row_ranges;
  /* Threads for this stream (parquetry_threads.h), overriding the reader's
   * pqt_read_options.threads / executor: executor NULL and threads 0
   * (the defaults) take the reader's. The executor must outlive the stream. */
  const struct pqt_executor *executor;
  int32_t threads;
  /* pqt_arrow_output bits for this stream; 0 (default): the reader's
   * pqt_read_options.arrow_output. */
  uint64_t arrow_output;
  /* Read-ahead: while a row group decodes, the projected column chunks of
   * the next one are asked of the source (pqt_io.will_need), so a remote
   * source fetches them meanwhile (on an IO thread of the stream's own,
   * even at threads = 1: it waits on the network and takes no core's
   * work). At most one row group ahead. 0 (the default): on; negative:
   * off; positive: on, and decode ahead (below). The batches are the same
   * in every case. Used by the Arrow stream,
   * pqt_reader_write_text (not past its limit) and pqt_reader_count with a
   * filter under PQT_SKIP_CORRUPT; a filtered or row-ranged read of pages
   * through the page index (scan/ranged.c) reads nothing ahead.
   * Decode-ahead (read_ahead > 0, opt-in: measured slower on lineitem-like
   * files at 2 threads, where both cores are busy decoding already; it
   * pays when the consumer does work of its own between batches). With
   * threads > 1 the Arrow stream then also decodes ahead: when it starts
   * handing out row group N, row group N+1 is decoded on a pool thread,
   * batch after batch, and handed out in file order once N is done (the
   * batches and any error the same as at one thread). Memory: besides the
   * batches the consumer holds, up to one row group's projected columns,
   * decoded (about its total_uncompressed_size, more for dictionary-encoded
   * strings expanded), plus a second codec context per stream. Not with a
   * memory ceiling (pqt_read_options.max_memory), PQT_SKIP_CORRUPT, an
   * encrypted file or a selective (filtered, row-ranged) read. */
  int32_t read_ahead;
} pqt_scan_options;

/* Rows [first, first + count) (a fixed value struct, used in arrays). */
typedef struct pqt_row_span {
  int64_t first;
  int64_t count;
} pqt_row_span;

/* The default rows per batch. */
#define PQT_DEFAULT_BATCH_ROWS 65536

PQT_API void pqt_scan_options_init_sized(pqt_scan_options *opts, size_t struct_size);
/* Every column, every row group, default batch size (and struct_size). */
static inline void pqt_scan_options_init(pqt_scan_options *opts) { pqt_scan_options_init_sized(opts, sizeof *opts); }

/*
 * Stream the selected rows as Arrow record batches (a struct array per
 * batch, one child per projected top-level field). The stream holds a
 * reference to what it needs from the reader: it stays valid after
 * pqt_reader_close (the stream's release then frees the reader's state and
 * releases its io; a buffer given to pqt_reader_open_buffer, and a shared
 * pqt_read_options.buffer_pool, must outlive the stream too). Batches (ArrowArray) stay valid after both are released.
 * On failure *out is a released stream (out->release == NULL), whatever it held. See README.md for the Parquet -> Arrow
 * type mapping.
 */
PQT_API pqt_status pqt_reader_get_stream(pqt_reader *r, const pqt_scan_options *opts, struct ArrowArrayStream *out,
                                         pqt_error *err);

typedef enum pqt_text_format {
  PQT_TEXT_JSONL = 0, /* one JSON object per row, canonical value forms */
  PQT_TEXT_CSV = 1    /* a header line, then one line per row */
} pqt_text_format;

/* Receives output text; return PQT_OK to continue. */
typedef pqt_status (*pqt_write_fn)(void *ctx, const char *data, size_t len);

/*
 * Write the selected rows as text, at most `limit` rows (-1 = all).
 * Errors name the row group, column and page.
 */
/*
 * Describe every page of every column chunk (or of the columns under
 * `column`, a name or dotted path; NULL = all), one line per page: row
 * group, column, page type, encodings, offset, sizes, value counts, level
 * byte lengths, statistics and CRC status ("ok", "MISMATCH" or "none").
 * Encrypted chunks are shown with the keys of the read options; a chunk
 * whose key is not at hand is one line "... not shown: no key for column
 * PATH" (not an error).
 */
PQT_API pqt_status pqt_reader_describe_pages(pqt_reader *r, const char *column, pqt_write_fn write, void *ctx,
                                             pqt_error *err);

/*
 * Check the whole file: every page (header, CRC, decompression, decoding),
 * value counts, chunk statistics against the data, the offset index against
 * the pages, the column index (null pages, null and NaN counts, min/max
 * bounds, boundary order, level histograms) against each data page, and
 * Bloom filters against the values. Each problem is written as one line
 * (at most 20 for one chunk's column index, then a count of the rest);
 * *n_problems counts them all.
 * Returns PQT_OK when the check ran (whatever it found).
 */
PQT_API pqt_status pqt_reader_verify(pqt_reader *r, pqt_write_fn write, void *ctx, int64_t *n_problems, pqt_error *err);

/*
 * What pqt_reader_verify_ex found. Set up with pqt_verify_report_init:
 * struct_size tells the library how much of the struct the caller knows,
 * so fields can be added at the end.
 * Encrypted files are checked with the keys of the read options, every
 * module decrypted (pages and their headers, page index, Bloom filters).
 * What cannot be checked for lack of a key (a column chunk whose key is
 * not at hand, a plaintext footer's signature without the footer key) is
 * written as a line "... not checked: ..." and counted in `unchecked`,
 * never as sound. pqt_reader_verify counts it in *n_problems.
 */
typedef struct pqt_verify_report {
  size_t struct_size;     /* sizeof(pqt_verify_report) as the caller was compiled */
  int64_t problems;       /* problems found, each written as a line */
  int64_t unchecked;      /* things not checked for lack of a key */
  int64_t chunks_checked; /* column chunks checked */
  /* Set by the caller (optional, after pqt_verify_report_init; left as
   * given): called after each column chunk with the chunks done and the
   * total (row groups x leaf columns), e.g. to move a progress bar. */
  void (*progress)(void *progress_ctx, int64_t done, int64_t total);
  void *progress_ctx;
} pqt_verify_report;

PQT_API void pqt_verify_report_init(pqt_verify_report *report);
PQT_API pqt_status pqt_reader_verify_ex(pqt_reader *r, pqt_write_fn write, void *ctx, pqt_verify_report *report,
                                        pqt_error *err);

PQT_API pqt_status pqt_reader_write_text(pqt_reader *r, const pqt_scan_options *opts, pqt_text_format format,
                                         int64_t limit, pqt_write_fn write, void *ctx, pqt_error *err);

/* ------------------------------------------------------------------ */
/* Writer                                                              */
/* ------------------------------------------------------------------ */

/*
 * A Parquet writer. Data arrive as Arrow record batches (a struct array,
 * one child per top-level field) or, column by column, as values with
 * their definition/repetition levels. Pages are encoded and compressed as
 * they fill: a row group in progress costs its compressed size plus one
 * open page per column. Row groups close when they reach row_group_rows
 * rows or row_group_bytes compressed bytes (or on pqt_writer_flush_row_group).
 */
typedef struct pqt_writer pqt_writer;
struct ArrowSchema;
struct ArrowArray;

/* Options that may differ per column (a leaf, or every leaf under a group).
 * Embedded by value in pqt_write_options and pqt_column_override: its own
 * struct_size tells the library where the fields after it are. */
typedef struct pqt_column_options {
  size_t struct_size;                 /* set by pqt_column_options_init (or pqt_write_options_init) */
  int32_t codec;                      /* a pqt_codec value: PQT_CODEC_SNAPPY (default), _UNCOMPRESSED,
                                         _GZIP, _BROTLI, _ZSTD, _LZ4_RAW, or _LZ4 (deprecated Hadoop
                                         framing: only on explicit request; LZO is not written) */
  int32_t codec_level;                /* 0 = the codec's default */
  int32_t encoding;                   /* value encoding when not dictionary encoded (a pqt_encoding value);
                                         in pqt_write_options.defaults it applies to the columns whose
                                         type it fits, in an override it must fit. -1 = default: PLAIN (v1 pages); v2 pages:
                                         DELTA_BINARY_PACKED                   for INT32/INT64, DELTA_LENGTH_BYTE_ARRAY for BYTE_ARRAY,                   RLE for BOOLEAN,
                                         PLAIN otherwise */
  int32_t dictionary;                 /* 1 (default): RLE_DICTIONARY first, falling back to `encoding`
                                         when the dictionary outgrows dictionary_page_size_limit */
  int64_t dictionary_page_size_limit; /* bytes (default 1 MiB) */
  int32_t page_version;               /* 1 (default) or 2 */
  int64_t page_size;                  /* target encoded bytes per data page (default 1 MiB) */
  int64_t page_row_limit;             /* most rows per page (default 20000) */
  int32_t statistics;                 /* page and chunk statistics (default 1) */
  int32_t statistics_truncate_length; /* binary bounds cut to this (default 64; 0 = never) */
  int32_t page_index;                 /* ColumnIndex + OffsetIndex (default 1; a chunk with a page of
                                         only NaNs gets no ColumnIndex: such a page has no bounds) */
  int32_t bloom_filter;               /* split-block Bloom filter (default 0) */
  int64_t bloom_ndv;                  /* expected distinct values per row group (default 100000) */
  double bloom_fpp;                   /* false-positive probability (default 0.01) */
  int32_t crc;                        /* page CRC32 (default 1) */
} pqt_column_options;

PQT_API void pqt_column_options_init_sized(pqt_column_options *o, size_t struct_size);
static inline void pqt_column_options_init(pqt_column_options *o) { pqt_column_options_init_sized(o, sizeof *o); }

/* Options for the columns at `path` (dotted: "a.b"; a group applies to its
 * leaves). No struct_size of its own: its size follows options.struct_size,
 * which must be the same in every element of an array. */
typedef struct pqt_column_override {
  const char *path;           /* borrowed until the writer is open (pqt_writer_open_* returns) */
  pqt_column_options options; /* start from pqt_column_options_init */
} pqt_column_override;

/* A fixed value struct, used in arrays (no struct_size). */
typedef struct pqt_sorting_column_spec {
  int32_t column; /* leaf column index */
  int32_t descending;
  int32_t nulls_first;
} pqt_sorting_column_spec;

/* One key-value pair of a column chunk's metadata. */
typedef struct pqt_column_key_value {
  int32_t column; /* leaf column index */
  const char *key;
  const char *value; /* NULL: a key without value */
} pqt_column_key_value;

enum {
  PQT_COMPAT_NONE = 0,
  PQT_COMPAT_SPARK_INT96 = 1, /* timestamps as INT96, no unsigned 64-bit (INT64 instead) */
  PQT_COMPAT_SPARK_MICROS = 2 /* timestamps coerced to MICROS, no unsigned 64-bit */
};

/* Encryption of a file written (Parquet Modular Encryption), given to the
 * writer through pqt_write_options.encryption.
 *
 * Every module of an encrypted column is encrypted with its AAD (pages and
 * their headers, dictionary pages, ColumnIndex, OffsetIndex, Bloom filter
 * header and bitset, column metadata), and the footer is encrypted ("PARE")
 * or left in plaintext and signed (plaintext_footer). Which columns:
 *   - n_columns 0: every column, with the footer key;
 *   - otherwise exactly the columns listed (a group path: every leaf under
 *     it), each with its own key or, key NULL, the footer key; the others
 *     are written in plaintext.
 * A column with its own key keeps its ColumnMetaData in
 * encrypted_column_metadata; so does every encrypted column under a
 * plaintext footer, whose plaintext ColumnMetaData then holds no
 * statistics, encoding stats, size or geospatial statistics.
 * key_metadata (footer_key_metadata, pqt_column_encryption.key_metadata)
 * is stored in the file for a reader's key retriever (a key id, or the
 * key material of a KMS's key tools); it is never secret.
 * The keys (16, 24 or 32 bytes), key metadata and AAD prefix are copied
 * when the writer opens (borrowed until pqt_writer_open_* returns; the
 * caller may wipe its copies then); the writer's copies of the keys are
 * wiped when it is closed or discarded. No error message shows a key.
 * Nonces and the file's aad_file_unique come from OpenSSL's RAND_bytes. */
enum {
  PQT_ENCRYPTION_AES_GCM_V1 = 1,    /* AES-GCM for every module */
  PQT_ENCRYPTION_AES_GCM_CTR_V1 = 2 /* AES-CTR for pages (no tag), AES-GCM for the rest */
};

/* A fixed value struct, used in arrays (no struct_size). */
typedef struct pqt_column_encryption {
  const char *path;            /* dotted column path (leaf, or a group: its leaves) */
  const uint8_t *key;          /* 16, 24 or 32 bytes; NULL: the footer key */
  size_t key_len;
  const uint8_t *key_metadata; /* stored with the column (own key only); NULL: none */
  size_t key_metadata_len;
} pqt_column_encryption;

typedef struct pqt_encryption_options {
  size_t struct_size; /* set by pqt_encryption_options_init */
  int32_t algorithm;  /* PQT_ENCRYPTION_AES_GCM_V1 (default) or PQT_ENCRYPTION_AES_GCM_CTR_V1 */
  int32_t plaintext_footer;           /* 0 (default): encrypted footer; 1: plaintext footer, signed */
  const uint8_t *footer_key;          /* required: 16, 24 or 32 bytes */
  size_t footer_key_len;
  const uint8_t *footer_key_metadata; /* NULL: none */
  size_t footer_key_metadata_len;
  const pqt_column_encryption *columns; /* see above; n_columns 0: all with the footer key */
  int32_t n_columns;
  int32_t store_aad_prefix;  /* with aad_prefix: store it in the file (default 1); 0: readers
                                must supply it (the file says supply_aad_prefix) */
  const uint8_t *aad_prefix; /* NULL: none (the file identity is then aad_file_unique only) */
  size_t aad_prefix_len;
} pqt_encryption_options;

PQT_API void pqt_encryption_options_init_sized(pqt_encryption_options *o, size_t struct_size);
static inline void pqt_encryption_options_init(pqt_encryption_options *o) {
  pqt_encryption_options_init_sized(o, sizeof *o);
}

/* Read when the writer opens; pointer fields say how long they must live. */
typedef struct pqt_write_options {
  size_t struct_size;                 /* set by pqt_write_options_init */
  const pqt_allocator *alloc;         /* NULL: malloc. Borrowed: must outlive the writer */
  pqt_column_options defaults;        /* for every column */
  const pqt_column_override *columns; /* per-column overrides (last match wins); the array and
                                         its paths are borrowed until pqt_writer_open_* returns */
  int32_t n_columns;
  int64_t row_group_rows;     /* default 1048576 */
  int64_t row_group_bytes;    /* compressed bytes, default 128 MiB */
  const char *const *kv_keys; /* key-value metadata; the arrays and strings are borrowed
                                 until pqt_writer_close (the footer is written there) */
  const char *const *kv_values;
  int32_t n_kv;
  const pqt_sorting_column_spec *sorting_columns; /* borrowed until pqt_writer_close */
  int32_t n_sorting_columns;
  const char *created_by;     /* NULL: "parquetry version X (build Y)"; borrowed until
                                 pqt_writer_close */
  int32_t compat;             /* PQT_COMPAT_* (Arrow schemas only) */
  int32_t int96_as_fixed;     /* INT96 columns take fixed_size_binary(12) batches (the
                                 stored bytes, as read with pqt_read_options.int96_as_fixed) */
  int32_t write_arrow_schema; /* store the Arrow schema as ARROW:schema (Arrow schemas
                                 only; default 0: our encoding has been checked by our
                                 own decoder and flatc, not yet by Arrow C++) */
  /* Key-value metadata of column chunks (ColumnMetaData.key_value_metadata),
   * written on every chunk of their leaf column; a key given twice for one
   * column: the last wins. */
  const pqt_column_key_value *column_kv;
  int32_t n_column_kv;
  /* With a schema from a reader (pqt_write_schema.like), carry over its
   * key-value metadata (default 1): the file's (ARROW:schema kept while the
   * schema written is the reader's leaf for leaf, re-derived from what is
   * written otherwise), each column's chunk metadata (from the first row
   * group that has some), and its created_by, recorded under
   * "parquetry.rewritten_from" (earlier ones after " <- "). kv_keys and
   * column_kv add to it; a key given there replaces the carried one.
   * 0: the schema only. */
  int32_t like_key_value;
  /* With a schema from a reader, carry over its sorting_columns when every
   * row group declares the same (default 0: only true when the rows are
   * written in the reader's order and no row group takes rows of two of the
   * reader's; pqt_writer_flush_row_group at its row-group ends keeps that).
   * sorting_columns given above take precedence. */
  int32_t like_sorting_columns;
  /* Encrypt the file (see pqt_encryption_options); NULL (default): plaintext.
   * Read, and what it points to copied, while the writer opens. */
  const pqt_encryption_options *encryption;
  /* The ColumnOrder of FLOAT, DOUBLE and FLOAT16 columns (a
   * pqt_float_column_order): PQT_FLOAT_ORDER_TYPE (0, default: TYPE_ORDER,
   * which every reader knows; NaN kept out of the bounds, nan_count
   * written) or PQT_FLOAT_ORDER_TOTAL (IEEE_754_TOTAL_ORDER, parquet-format
   * 2.13: -0.0 < +0.0 kept apart in the bounds, nan_count written, a page or
   * chunk of only NaNs gets its smallest and largest NaN as bounds).
   * TYPE_ORDER stays the default as in parquet-java (PARQUET-2249 kept it
   * the default) and released Arrow C++: a reader that does not know
   * IEEE_754_TOTAL_ORDER must ignore the bounds (Polars fails on the
   * footer), so the new order costs old readers their pruning. */
  int32_t float_column_order;
  /* INT96 columns: 1 = min/max statistics and a column index in
   * INT96_TIMESTAMP_ORDER (default 0: none, as TYPE_ORDER has no order for
   * INT96). */
  int32_t int96_statistics;
  /* VARIANT columns to write shredded (parquetry_variant.h): Arrow fields
   * marked ARROW:extension:name = parquet.variant become VARIANT groups,
   * unshredded unless an entry here names them. Elements are
   * variant_shredding[0].struct_size bytes apart; borrowed until
   * pqt_writer_open_* returns. */
  const struct pqt_variant_shredding *variant_shredding;
  int32_t n_variant_shredding;
  /* Threads (parquetry_threads.h): the column chunks of a row group are
   * encoded and compressed on `threads` threads (0, default: one per core;
   * 1: the calling thread only), through `executor` when not NULL
   * (borrowed: must outlive the writer), else through threads of the
   * writer's own. The file is the same, byte for byte, whatever the count.
   * With more than one, alloc is called from several threads at once and
   * must be thread-safe: so 0 means 1 when alloc is set and no executor is
   * given. The sink callback is only called from the calling thread. */
  const struct pqt_executor *executor;
  int32_t threads;
} pqt_write_options;

typedef enum pqt_float_column_order {
  PQT_FLOAT_ORDER_TYPE = 0,
  PQT_FLOAT_ORDER_TOTAL = 1
} pqt_float_column_order;

/* column_options_size: sizeof(pqt_column_options) as the caller sees it
 * (the embedded `defaults` decides where the later fields are). */
PQT_API void pqt_write_options_init_sized(pqt_write_options *o, size_t struct_size, size_t column_options_size);
/* Defaults for every field, `defaults` included (and both struct_size). */
static inline void pqt_write_options_init(pqt_write_options *o) {
  pqt_write_options_init_sized(o, sizeof *o, sizeof o->defaults);
}

/* Where the schema comes from: exactly one member set. Read while the
 * writer opens only: what it points to may go once pqt_writer_open_* returns. */
typedef struct pqt_write_schema {
  size_t struct_size;              /* set by pqt_write_schema_init (or `.struct_size = sizeof(pqt_write_schema)`) */
  const char *message;             /* message syntax ("message m { ... }") */
  const struct ArrowSchema *arrow; /* a struct schema (record batch); not released */
  const pqt_reader *like;          /* the schema of an open file (LIST/MAP written
                                      in the standard 3-level form) */
} pqt_write_schema;

PQT_API void pqt_write_schema_init_sized(pqt_write_schema *ws, size_t struct_size);
/* Every member NULL (and struct_size). */
static inline void pqt_write_schema_init(pqt_write_schema *ws) { pqt_write_schema_init_sized(ws, sizeof *ws); }

/* Write to `path`: a temporary name in the same folder, renamed on a
 * successful close (a failed or discarded writer removes it). */
PQT_API pqt_status pqt_writer_open_file(pqt_writer **out, const char *path, const pqt_write_schema *schema,
                                        const pqt_write_options *opts, pqt_error *err);
/* Write into *dst (bytes appended; dst->alloc used when set). The caller
 * owns dst and frees it with pqt_string_free. */
PQT_API pqt_status pqt_writer_open_buffer(pqt_writer **out, pqt_string *dst, const pqt_write_schema *schema,
                                          const pqt_write_options *opts, pqt_error *err);
/* Write through a callback (called with consecutive bytes). */
PQT_API pqt_status pqt_writer_open_callbacks(pqt_writer **out, pqt_write_fn write, void *ctx,
                                             const pqt_write_schema *schema, const pqt_write_options *opts,
                                             pqt_error *err);

/* The Arrow layout the writer expects for record batches (the usual
 * Parquet -> Arrow mapping of its schema, or the caller's ArrowSchema). */
PQT_API pqt_status pqt_writer_arrow_schema(pqt_writer *w, struct ArrowSchema *out, pqt_error *err);

/* The readable name of an Arrow C Data Interface format string, as Arrow's
 * type printers spell it: "i" int32, "u" utf8, "tsu:UTC"
 * timestamp[us, tz=UTC], "d:12,2" decimal(12,2), "+l" list. Written into
 * buf (n > 0; cut to fit) and returned; an unknown format reads
 * "Arrow format 'FMT'", a NULL one "(no format)". */
PQT_API const char *pqt_arrow_format_name(const char *format, char *buf, size_t n);
PQT_API int32_t pqt_writer_num_columns(const pqt_writer *w);

/* Append a record batch (struct array, one child per top-level field).
 * The batch is borrowed: it is not released. */
PQT_API pqt_status pqt_writer_write_batch(pqt_writer *w, const struct ArrowArray *batch, pqt_error *err);

/*
 * Low-level: append to leaf column `column` n_levels levels (def may be
 * NULL when the column's max definition level is 0, rep when its max
 * repetition level is 0) and the n_values present values, dense, in the
 * physical layout: fixed-width values contiguous (BOOLEAN one byte 0/1,
 * INT96 12 bytes, FLBA type_length bytes); BYTE_ARRAY as `offsets`
 * (n_values + 1 entries) into `values`. Write whole records (rep level 0
 * first) and the same rows to every column, then call
 * pqt_writer_flush_row_group.
 */
PQT_API pqt_status pqt_writer_write_column(pqt_writer *w, int32_t column, int64_t n_levels, const int16_t *def,
                                           const int16_t *rep, const void *values, const int32_t *offsets,
                                           int64_t n_values, pqt_error *err);
/* Close the current row group (no-op when empty). */
PQT_API pqt_status pqt_writer_flush_row_group(pqt_writer *w, pqt_error *err);
/* Finish the file (page indexes, footer), rename/deliver it, free w. On
 * failure the partial output is removed (files) and w is freed anyway. */
PQT_API pqt_status pqt_writer_close(pqt_writer *w, pqt_error *err);
/* Free w without finishing (a file being written is removed). */
PQT_API void pqt_writer_discard(pqt_writer *w);
/* Bytes written so far and rows accepted. */
PQT_API int64_t pqt_writer_bytes_written(const pqt_writer *w);
PQT_API int64_t pqt_writer_num_rows(const pqt_writer *w);

/* ------------------------------------------------------------------ */
/* Salvage: the rows of a file whose footer is lost                   */
/* ------------------------------------------------------------------ */

/* Read during pqt_salvage only; the pointers must stay valid until it returns. */
typedef struct pqt_salvage_options {
  size_t struct_size;     /* set by pqt_salvage_options_init */
  const pqt_reader *like; /* a file written the same way (optional): its column codecs
                             are used instead of detecting one codec from the pages */
  pqt_write_fn log;       /* receives one line per finding (optional) */
  void *log_ctx;
  int64_t max_page_checks; /* bound on page trials while grouping pages (0: 64 per page
                              found + 100000); the search stops there */
} pqt_salvage_options;

PQT_API void pqt_salvage_options_init_sized(pqt_salvage_options *o, size_t struct_size);
static inline void pqt_salvage_options_init(pqt_salvage_options *o) { pqt_salvage_options_init_sized(o, sizeof *o); }

/* Filled by pqt_salvage into a struct set up by pqt_salvage_report_init. */
typedef struct pqt_salvage_report {
  size_t struct_size;   /* set by pqt_salvage_report_init */
  int64_t pages_found;  /* page headers found by the scan */
  uint64_t scan_end;    /* offset where the scan stopped (a cut, or the footer area) */
  int32_t row_groups;   /* complete row groups recovered */
  int64_t rows;         /* rows written, including partial_rows */
  int64_t partial_rows; /* rows kept from a row group cut short */
  int64_t pages_used;   /* pages in the row groups written */
  int64_t pages_unused; /* found but not recovered */
} pqt_salvage_report;

/*
 * Recover the rows of a file whose footer is missing or unreadable (for
 * example a writer killed mid-file): scan its page headers from the start,
 * group the pages into column chunks and row groups of the schema of `w`
 * (which must be the schema the file was written with), and write every
 * complete row group, plus the complete rows of a row group cut short in
 * its last column, to `w`. The caller then closes (or discards) `w`.
 * The file's own footer, if any, is not used. Returns PQT_OK when the scan
 * ran, even if nothing could be recovered (see report->rows). damaged is
 * borrowed (the caller releases it); report may be NULL.
 */
PQT_API void pqt_salvage_report_init_sized(pqt_salvage_report *rep, size_t struct_size);
static inline void pqt_salvage_report_init(pqt_salvage_report *rep) { pqt_salvage_report_init_sized(rep, sizeof *rep); }

PQT_API pqt_status pqt_salvage(pqt_io *damaged, pqt_writer *w, const pqt_salvage_options *opts,
                               pqt_salvage_report *report, pqt_error *err);

#ifdef __cplusplus
}
#endif

#include "parquetry_filter.h"

#endif /* PARQUETRY_H */
