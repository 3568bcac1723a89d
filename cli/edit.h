/*
 * cli/edit.h: the commands that build a file from others: `concat` and
 * `prune` copy column chunks as they are (include/parquetry_edit.h),
 * `merge` re-encodes through the writer (cli/write_options.c's options).
 */
#ifndef PQT_CLI_EDIT_H
#define PQT_CLI_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int cmd_concat(int argc, char **argv);
int cmd_prune(int argc, char **argv);
int cmd_merge(int argc, char **argv);
extern const char cmd_concat_summary[], cmd_concat_usage[];
extern const char cmd_prune_summary[], cmd_prune_usage[];
extern const char cmd_merge_summary[], cmd_merge_usage[];

/* "--" (the rest are files) and "--json", taken by every edit command before its own options: true when a
 * was one of them (*opts_done or *json set); false once options are done. */
bool edit_common_flag(const char *a, bool *opts_done, bool *json);
/* -o OUT, -oOUT, --output OUT, --output=OUT at argv[*i]: 1 taken (*out set),
 * 0 not this option, 2 usage error (printed). */
int edit_output_option(const char *cmd, int argc, char **argv, int *i, const char **out);
/* Copy the row groups of inputs[0..n) less drop[0..n_drop) to out, through
 * pqt_edit_copy_file; print what was written (as JSON with json). Returns the exit status. */
int edit_copy(const char *cmd, const char *out, const char *const *inputs, int n, const char *const *drop, int n_drop,
              bool json);
/* 1234567 -> "1,234,567"; 1536 bytes -> "1.5 KiB" (into buf). */
const char *edit_count_text(int64_t v, char *buf, size_t cap);
const char *edit_size_text(int64_t bytes, char *buf, size_t cap);

#endif
