/* io/source.h: what the library knows about a byte source. */
#ifndef PQT_IO_SOURCE_H
#define PQT_IO_SOURCE_H

#include "core/core.h"
#include "core/shared_buf.h"

/* Is io one of the library's own sources (pqt_io_open_file,
 * pqt_io_from_buffer), whose read_at and borrow_at any number of threads
 * may call at once? A caller's callbacks are not assumed to be. */
bool pqt_io_is_builtin(const pqt_io *io);

/* For a mapped file of pqt_io_open_file: map the ranges' pages in now
 * (MADV_POPULATE_READ; blocks while they are read from disk), so that a
 * later borrow_at of them costs no page faults. Run by the stream's IO
 * thread for the row group read ahead. Returns false when io is not such a
 * source (nothing done). Only advice: failures are ignored. */
bool pqt_io_populate(const pqt_io *io, const pqt_io_range *ranges, size_t n);

/* For a mapped file of pqt_io_open_file: the mapping as a shared buffer
 * (borrowed; pqt_shared_ref to keep it), which stays mapped while any
 * reference lives, after the source is released too. NULL for any other
 * source: a caller's buffer or pqt_io cannot be kept alive by the library. */
pqt_shared_buf *pqt_io_keeper(const pqt_io *io);

#endif
