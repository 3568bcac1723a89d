/*
 * levels/validate.c: checks of decoded level streams, record boundaries
 * and level histograms (spec "Nested Encoding", parquet-format README.md; rep == 0 starts
 * a record; SizeStatistics histograms in parquet.thrift).
 */
#include "core/core.h"
#include "levels/levels.h"
#include "levels/levels_kernels.h"

/* Index of the first level outside [0, max], or -1. Vectorizable scan first. */
static int64_t first_out_of_range(const int16_t *lv, int64_t n, int16_t max) {
  const uint16_t umax = (uint16_t)max;
  int64_t i = 0;
  while (i < n) {
    int64_t m = n - i < 1024 ? n - i : 1024;
    uint16_t bad = 0;
    for (int64_t j = 0; j < m; j++) bad |= (uint16_t)((uint16_t)lv[i + j] > umax);
    if (bad) {
      for (int64_t j = 0; j < m; j++)
        if ((uint16_t)lv[i + j] > umax) return i + j;
    }
    i += m;
  }
  return -1;
}

pqt_status pqt_levels_validate(const int16_t *def, const int16_t *rep, int64_t n, int16_t max_def, int16_t max_rep,
                               const int16_t *repeated_def, int16_t *prev_def, pqt_error *err) {
  return pqt_levels_validate_isa(def, rep, n, max_def, max_rep, repeated_def, prev_def, err, PQT_LEVELS_ISA_BEST);
}

pqt_status pqt_levels_validate_isa(const int16_t *def, const int16_t *rep, int64_t n, int16_t max_def, int16_t max_rep,
                                   const int16_t *repeated_def, int16_t *prev_def, pqt_error *err, pqt_levels_isa isa) {
  if (n < 0 || max_def < 0 || max_rep < 0 || !prev_def)
    return pqt_error_set(err, PQT_EINVAL, "levels: bad validate arguments");
  if ((!def && max_def != 0) || (max_rep > 0 && !repeated_def))
    return pqt_error_set(err, PQT_EINVAL, "levels: missing def levels or repeated_def");
  if (n == 0) return PQT_OK;
  /* One vectorized pass doing every check below; on any failure the
   * scalar checks run to report the first problem exactly. */
  if (def && rep && pqt_lvk_validate(isa, def, rep, n, max_def, max_rep, repeated_def, *prev_def)) {
    *prev_def = def[n - 1];
    return PQT_OK;
  }
  if (def) {
    int64_t b = first_out_of_range(def, n, max_def);
    PQT_CHECK_CORRUPT(b < 0, err, "definition level %d at entry %lld exceeds max %d", (int)def[b], (long long)b,
                      (int)max_def);
  }
  if (rep) {
    int64_t b = first_out_of_range(rep, n, max_rep);
    PQT_CHECK_CORRUPT(b < 0, err, "repetition level %d at entry %lld exceeds max %d", (int)rep[b], (long long)b,
                      (int)max_rep);
    if (max_rep > 0) {
      int16_t prev = *prev_def;
      PQT_CHECK_CORRUPT(prev >= 0 || rep[0] == 0, err, "column chunk starts with repetition level %d (must be 0)",
                        (int)rep[0]);
      for (int64_t i = 0; i < n; i++) {
        int16_t d = def ? def[i] : max_def;
        int16_t r = rep[i];
        if (r > 0) {
          int16_t need = repeated_def[r - 1];
          if (PQT_UNLIKELY(prev < need || d < need))
            return pqt_corrupt(err,
                               "entry %lld: repetition level %d continues a list that is "
                               "not open (def %d, previous def %d, need %d)",
                               (long long)i, (int)r, (int)d, (int)prev, (int)need);
        }
        prev = d;
      }
    }
  }
  *prev_def = def ? def[n - 1] : max_def;
  return PQT_OK;
}

int64_t pqt_levels_count_records(const int16_t *rep, int64_t n) {
  if (!rep) return n > 0 ? n : 0;
  int64_t c = 0;
  for (int64_t i = 0; i < n; i++) c += rep[i] == 0;
  return c;
}

void pqt_levels_find_records(const int16_t *rep, int64_t n, int64_t max_records, bool data_ends_here,
                             int64_t *n_entries, int64_t *n_records) {
  int64_t recs = 0, cut = 0;
  if (n > 0 && max_records > 0) {
    if (!rep) {
      /* No repetition: every entry is a complete record. */
      recs = n < max_records ? n : max_records;
      cut = recs;
    } else {
      int64_t i = 1;
      for (; i < n && recs < max_records; i++) {
        if (rep[i] == 0) {
          recs++;
          cut = i;
        }
      }
      if (recs < max_records && data_ends_here) {
        recs++;
        cut = n;
      }
    }
  }
  *n_entries = cut;
  *n_records = recs;
}

void pqt_levels_histogram(const int16_t *levels, int64_t n, int16_t max_level, int64_t *hist) {
  if (!hist || n <= 0) return;
  if (!levels || max_level == 0) {
    hist[0] += n; /* absent levels are all 0 */
    return;
  }
  if (max_level < 0) return;
  if (max_level == 1) {
    int64_t ones = 0, zeros = 0;
    for (int64_t i = 0; i < n; i++) {
      ones += levels[i] == 1;
      zeros += levels[i] == 0;
    }
    hist[0] += zeros;
    hist[1] += ones;
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    uint16_t l = (uint16_t)levels[i];
    if (l <= (uint16_t)max_level) hist[l]++;
  }
}
