/* inspect/meta_internal.h: what inspect/meta_api.c shares with inspect/page_index.c. */
#ifndef PQT_INSPECT_META_INTERNAL_H
#define PQT_INSPECT_META_INTERNAL_H

#include "file/reader_internal.h"
#include "parquetry_meta.h"

/* PQT_EINVAL unless have >= need ("call its _init"). */
pqt_status pqt_meta_check_size(size_t have, size_t need, const char *what, pqt_error *err);
/* The chunk of (rg, col) with its metadata at hand: PQT_EINVAL for bad
 * indexes, PQT_ECRYPTO naming the column when it is encrypted and its key
 * was not given. */
pqt_status pqt_meta_chunk(const pqt_reader *r, int32_t rg, int32_t col, const pqt_column_chunk **cc, pqt_error *err);
/* pqt_column_order_kind of column col. */
int32_t pqt_meta_column_order(const pqt_reader *r, int32_t col);
/* May min_value/max_value of column col prune (a known column order and a
 * type with a sort order)? */
bool pqt_meta_bounds_usable(const pqt_reader *r, int32_t col);

/* A Statistics struct (NULL: absent) of column col decoded into *out (its
 * struct_size checked by the caller). stored: a bound that does not decode
 * is kept as PLAIN bytes with kind PQT_VALUE_NONE instead of an error.
 * Errors are not prefixed with the row group and column. */
pqt_status pqt_meta_fill_statistics(const pqt_reader *r, int32_t col, const pqt_statistics *st, bool stored,
                                    pqt_chunk_statistics *out, pqt_error *err);

#endif
