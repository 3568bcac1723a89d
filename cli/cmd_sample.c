/*
 * cli/cmd_sample.c: `parquetry sample -n N`, N rows chosen uniformly at
 * random, printed in file order. The row indexes are drawn from the
 * footer's row counts (with --where, from the rows that match, counted per
 * row group) with Floyd's algorithm (each N-subset equally likely), so only
 * the row groups that hold a chosen row are read; --seed makes the choice
 * repeatable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "parquetry.h"

#include "cli.h"

const char cmd_sample_summary[] =
    "Print N rows chosen uniformly at random (every set of N rows equally likely), in\n"
    "file order, one JSON object per line (or CSV). Only the row groups that hold a\n"
    "chosen row are read. All rows when the file has N or fewer.\n\n"
    "  -n, --limit N         how many rows (required)\n"
    "  --seed S              the random choice from seed S (a number): the same seed\n"
    "                        and file give the same rows (default: a new choice\n"
    "                        each run)\n"
    "  -c, --columns a,b.c   only these columns (top-level names or dotted paths)\n"
    "  --format jsonl|csv    output format (default jsonl)\n"
    "  --where EXPR          choose among the rows where EXPR is true (as for cat)\n"
    "  --stats               at the end, on stderr: what was read (as for cat)\n\n"
    "Several FILEs, directories and globs: read as one table as cat reads them; the\n"
    "sample is over the rows of them all (each row equally likely)." READ_OPTIONS_HELP;
const char cmd_sample_usage[] = "parquetry sample -n N [--seed S] [-c a,b.c] [--format jsonl|csv] FILE...";

/* Most row indexes held in memory to draw a sample (16 bytes each). */
#define MAX_DRAWN 100000000

/* splitmix64: a small generator whose whole state is the seed */
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform in [0, bound] (rejection: no modulo bias). */
static uint64_t random_upto(uint64_t *state, uint64_t bound) {
  if (bound == UINT64_MAX) return next_random(state);
  uint64_t range = bound + 1, limit = UINT64_MAX - (UINT64_MAX % range);
  uint64_t v;
  do v = next_random(state);
  while (v >= limit);
  return v % range;
}

/* A set of row indexes: open addressing, index + 1 stored (0 = empty). */
typedef struct index_set {
  uint64_t *slots;
  size_t mask;
} index_set;

static int set_init(index_set *s, size_t n) {
  size_t cap = 16;
  while (cap < 2 * n) cap <<= 1;
  s->slots = calloc(cap, sizeof *s->slots);
  s->mask = cap - 1;
  return s->slots ? 0 : -1;
}

/* Add v; false when it was there already. */
static bool set_add(index_set *s, uint64_t v) {
  size_t h = (size_t)((v * 0x9E3779B97F4A7C15ull) >> 17) & s->mask;
  while (s->slots[h]) {
    if (s->slots[h] == v + 1) return false;
    h = (h + 1) & s->mask;
  }
  s->slots[h] = v + 1;
  return true;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Which records of the text (rows of the row groups read, in order) to
 * keep: those listed (or, drawing the rows left out, those not listed). */
typedef struct keep_list {
  const int64_t *rows; /* sorted, relative to the row groups read */
  int64_t n, next;
  bool listed_are_kept;
} keep_list;

static bool keep_row(void *kctx, int64_t record) {
  keep_list *k = kctx;
  while (k->next < k->n && k->rows[k->next] < record) k->next++;
  bool listed = k->next < k->n && k->rows[k->next] == record;
  return listed == k->listed_are_kept;
}

static int parse_seed(const char *s, uint64_t *out) {
  char *end;
  if (!*s || *s == '-') return -1;
  unsigned long long v = strtoull(s, &end, 0);
  if (*end) return -1;
  *out = v;
  return 0;
}

/* The rows drawn: of total rows, want chosen uniformly; *drawn (sorted) are
 * the rows kept when *draw_kept, else the rows left out (the smaller set is
 * drawn). 0, or an exit status (printed, naming what). */
static int draw_rows(const char *what, int64_t total, int64_t want, uint64_t *seed, int64_t **drawn,
                     int64_t *n_drawn, bool *draw_kept) {
  *drawn = NULL;
  /* draw the smaller of the rows kept and the rows left out */
  *draw_kept = want <= total - want;
  int64_t n_draw = *draw_kept ? want : total - want;
  if (n_draw > MAX_DRAWN) {
    fprintf(stderr,
            "parquetry: %s: a sample of %lld of %lld rows is too large to draw (at most %d rows chosen or left out)\n",
            what, (long long)want, (long long)total, MAX_DRAWN);
    return EXIT_DATA;
  }
  index_set set = {NULL, 0};
  int64_t *d = calloc((size_t)(n_draw ? n_draw : 1), sizeof *d);
  if (!d || set_init(&set, (size_t)n_draw) != 0) {
    free(d);
    free(set.slots);
    fprintf(stderr, "parquetry: out of memory\n");
    return EXIT_DATA;
  }
  /* Floyd: for j in [total - n_draw, total), draw t in [0, j]; take t, or j when t was taken */
  int64_t k = 0;
  for (int64_t j = total - n_draw; j < total; j++) {
    uint64_t t = random_upto(seed, (uint64_t)j);
    d[k++] = set_add(&set, t) ? (int64_t)t : (set_add(&set, (uint64_t)j), j);
  }
  free(set.slots);
  qsort(d, (size_t)n_draw, sizeof *d, cmp_i64);
  *drawn = d;
  *n_drawn = n_draw;
  return 0;
}

/* Several files: the sample over the rows of them all, read as one table
 * (cat's schema unification); rows past the last one kept are not read. */
static int sample_many(const char *cmd, char *const *files, int n_files, const row_opts *o, row_scan *rs,
                       pqt_text_format fmt, uint64_t seed) {
  pqt_dataset_fs fs;
  pqt_dataset *ds = NULL;
  int64_t *drawn = NULL, n_draw = 0, total = 0;
  bool draw_kept = true;
  read_begin(files[0]);
  int rc = dataset_open_inputs(cmd, (const char *const *)files, n_files, NULL, &fs, &ds);
  if (!rc) read_add_rows(pqt_dataset_num_rows(ds));
  if (!rc) rc = dataset_rows(cmd, ds, rs, &total);
  int64_t want = o->limit < total ? o->limit : total;
  if (!rc) rc = draw_rows(files[0], total, want, &seed, &drawn, &n_draw, &draw_kept);
  if (!rc) {
    keep_list keep = {drawn, n_draw, 0, draw_kept};
    int64_t limit = draw_kept && n_draw > 0 ? drawn[n_draw - 1] + 1 : -1;
    rc = row_write_selected(cmd, files[0], NULL, ds, rs, fmt, limit, keep_row, &keep, limit > 0 ? limit : total,
                            want == 0);
  }
  if (!rc && o->stats) row_scan_print_stats(rs);
  free(drawn);
  pqt_dataset_close(ds);
  fflush(stdout);
  return read_finish(files[0], rc);
}

typedef struct sample_args {
  uint64_t seed;
  bool seeded;
} sample_args;

static int take_seed(void *ctx, int id, const char *v) {
  (void)id;
  sample_args *sa = ctx;
  if (parse_seed(v, &sa->seed) != 0) return usage("sample", "bad --seed '%s' (a number from 0)", v);
  sa->seeded = true;
  return 0;
}

int cmd_sample(int argc, char **argv) {
  const char *cmd = "sample", *path = NULL;
  row_opts o;
  row_opts_init(&o, -1);
  static const cli_opt own[] = {{"seed", 0, 1, 's'}, {0}};
  sample_args sa = {0, false};
  row_command rc_args = {cmd, cmd_sample_usage, cmd_sample_summary,
                         ROW_OPT_COLUMNS | ROW_OPT_LIMIT | ROW_OPT_FORMAT | ROW_OPT_WHERE | ROW_OPT_STATS,
                         own, take_seed, &sa, false};
  char **files;
  int n_files;
  int pc = row_command_args(&rc_args, argc, argv, &o, &files, &n_files);
  if (pc) return pc < 0 ? 0 : pc;
  uint64_t seed = sa.seed;
  if (!o.limit_given) return usage(cmd, "%s", "give the number of rows with -n N");
  if (n_files == 0) return usage(cmd, "%s", "missing FILE");
  path = files[0];
  if (!sa.seeded) seed = (uint64_t)time(NULL) * 0x2545F4914F6CDD1Dull ^ (uint64_t)getpid() ^ (uint64_t)clock();
  pqt_text_format fmt;
  row_scan rs;
  int rc = row_command_scan(cmd, &o, &fmt, &rs);
  if (rc) return rc;
  if (dataset_inputs_many(files, n_files)) {
    rc = sample_many(cmd, files, n_files, &o, &rs, fmt, seed);
    row_scan_free(&rs);
    return rc;
  }
  pqt_reader *r = NULL;
  int64_t *counts = NULL, *drawn = NULL, *chosen_in = NULL;
  int32_t *groups = NULL;
  rc = read_open(path, &r);
  if (rc) goto out;
  int32_t n_groups = pqt_reader_num_row_groups(r);
  size_t ng = (size_t)(n_groups ? n_groups : 1);
  counts = calloc(ng, sizeof *counts);
  chosen_in = calloc(ng, sizeof *chosen_in);
  groups = calloc(ng, sizeof *groups);
  if (!counts || !chosen_in || !groups) goto nomem;
  if ((rc = row_group_counts(cmd, path, r, &rs.so, counts)) != 0) goto out;
  int64_t total = 0;
  for (int32_t g = 0; g < n_groups; g++) {
    if (counts[g] > INT64_MAX - total) {
      fprintf(stderr, "parquetry: %s: the row groups' row counts overflow\n", path);
      rc = EXIT_DATA;
      goto out;
    }
    total += counts[g];
  }
  int64_t want = o.limit < total ? o.limit : total;
  bool draw_kept;
  int64_t n_draw = 0;
  if ((rc = draw_rows(path, total, want, &seed, &drawn, &n_draw, &draw_kept)) != 0) goto out;
  /* the chosen rows per row group; the row groups with any are read */
  int64_t d = 0, base = 0;
  for (int32_t g = 0; g < n_groups; g++) {
    int64_t in = 0;
    while (d < n_draw && drawn[d] < base + counts[g]) in++, d++;
    chosen_in[g] = draw_kept ? in : counts[g] - in;
    base += counts[g];
  }
  /* the drawn indexes made relative to the rows of the row groups read
   * (drawn rows of a row group not read are rows left out: dropped) */
  int32_t n_read = 0;
  int64_t skipped = 0, n_rel = 0;
  d = 0;
  base = 0;
  for (int32_t g = 0; g < n_groups; g++) {
    bool read = chosen_in[g] > 0;
    if (read) groups[n_read++] = g;
    for (; d < n_draw && drawn[d] < base + counts[g]; d++)
      if (read) drawn[n_rel++] = drawn[d] - skipped;
    if (!read) skipped += counts[g];
    base += counts[g];
  }
  keep_list keep = {drawn, n_rel, 0, draw_kept};
  /* past the last row kept nothing more is decoded */
  int64_t limit = draw_kept && n_rel > 0 ? drawn[n_rel - 1] + 1 : -1;
  bool none = !(n_read > 0 && want > 0);
  if (!none) {
    rs.so.row_groups = groups;
    rs.so.n_row_groups = n_read;
  }
  rc = row_write_selected(cmd, path, r, NULL, &rs, fmt, limit, keep_row, &keep, limit > 0 ? limit : 0, none);
  if (!rc && o.stats) row_scan_print_stats(&rs);
  goto out;
nomem:
  fprintf(stderr, "parquetry: out of memory\n");
  rc = EXIT_DATA;
out:
  if (r) pqt_reader_close(r);
  free(drawn);
  free(counts);
  free(chosen_in);
  free(groups);
  row_scan_free(&rs);
  fflush(stdout);
  return read_finish(path, rc);
}
