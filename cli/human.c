/*
 * cli/human.c: output for people (API in cli.h): sizes with binary units,
 * counts with thousands separators, the output width, colour, and aligned
 * tables that fit the width.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"

const char *human_size(char *buf, size_t cap, int64_t bytes) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) {
    snprintf(buf, cap, "%lld B", (long long)bytes);
    return buf;
  }
  double v = (double)bytes;
  int u = 0;
  while (v >= 1024.0 && u < 6) {
    v /= 1024.0;
    u++;
  }
  /* 1023.95 KiB would print as 1024.0 KiB: show it as the next unit */
  if (v >= 1023.95 && u < 6) {
    v /= 1024.0;
    u++;
  }
  snprintf(buf, cap, "%.1f %s", v, units[u]);
  return buf;
}

const char *human_count(char *buf, size_t cap, int64_t n) {
  char digits[32];
  unsigned long long u = n < 0 ? 0ULL - (unsigned long long)n : (unsigned long long)n;
  int len = snprintf(digits, sizeof digits, "%llu", u);
  size_t k = 0;
  if (n < 0 && k + 1 < cap) buf[k++] = '-';
  for (int i = 0; i < len && k + 1 < cap; i++) {
    if (i > 0 && (len - i) % 3 == 0 && k + 2 < cap) buf[k++] = ',';
    buf[k++] = digits[i];
  }
  if (cap) buf[k < cap ? k : cap - 1] = '\0';
  return buf;
}

int human_width(void) {
  struct winsize ws;
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 80) return ws.ws_col;
  return 80;
}

bool human_color(void) {
  const char *no = getenv("NO_COLOR");
  if (no && no[0]) return false;
  const char *term = getenv("TERM");
  if (term && strcmp(term, "dumb") == 0) return false;
  return isatty(STDOUT_FILENO) != 0;
}

const char *human_bold(void) { return human_color() ? "\033[1m" : ""; }
const char *human_dim(void) { return human_color() ? "\033[2m" : ""; }
const char *human_reset(void) { return human_color() ? "\033[0m" : ""; }

/* ---- tables ---- */

struct human_table {
  int n;
  bool *right;
  char **cells; /* rows * n, row 0 the heads */
  int rows, cap;
};

static char *dup_cell(const char *s) {
  if (!s) s = "-";
  size_t n = strlen(s);
  char *d = malloc(n + 1);
  if (d) memcpy(d, s, n + 1);
  return d;
}

human_table *table_new(int n, const char *const *heads, const bool *right) {
  human_table *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->n = n;
  t->right = calloc((size_t)n, sizeof *t->right);
  if (!t->right) {
    free(t);
    return NULL;
  }
  for (int k = 0; k < n; k++) t->right[k] = right && right[k];
  table_row(t, heads);
  return t;
}

void table_row(human_table *t, const char *const *cells) {
  if (!t) return;
  if (t->rows == t->cap) {
    int cap = t->cap ? t->cap * 2 : 16;
    char **c = realloc(t->cells, (size_t)cap * (size_t)t->n * sizeof *c);
    if (!c) return;
    t->cells = c;
    t->cap = cap;
  }
  for (int k = 0; k < t->n; k++) t->cells[(size_t)t->rows * (size_t)t->n + (size_t)k] = dup_cell(cells[k]);
  t->rows++;
}

static void table_free(human_table *t) {
  for (int i = 0; i < t->rows * t->n; i++) free(t->cells[i]);
  free(t->cells);
  free(t->right);
  free(t);
}

void table_print(human_table *t) {
  if (!t) return;
  int n = t->n;
  int *w = calloc((size_t)n, sizeof *w);
  if (!w) {
    table_free(t);
    return;
  }
  for (int i = 0; i < t->rows; i++)
    for (int k = 0; k < n; k++) {
      const char *c = t->cells[(size_t)i * (size_t)n + (size_t)k];
      int len = c ? (int)strlen(c) : 1;
      if (len > w[k]) w[k] = len;
    }
  /* shrink the widest column until the line fits (cells then end "...") */
  int width = human_width();
  for (;;) {
    int total = 0, widest = 0;
    for (int k = 0; k < n; k++) {
      total += w[k] + (k ? 2 : 0);
      if (w[k] > w[widest]) widest = k;
    }
    if (total <= width || w[widest] <= 6) break;
    w[widest]--;
  }
  const char *bold = human_bold(), *reset = human_reset();
  for (int i = 0; i < t->rows; i++) {
    char line[4096];
    size_t len = 0;
    for (int k = 0; k < n && len < sizeof line - 1; k++) {
      const char *c = t->cells[(size_t)i * (size_t)n + (size_t)k];
      if (!c) c = "-";
      int cl = (int)strlen(c);
      char cut[512];
      if (cl > w[k]) {
        int keep = w[k] - 3 < (int)sizeof cut - 4 ? w[k] - 3 : (int)sizeof cut - 4;
        snprintf(cut, sizeof cut, "%.*s...", keep, c);
        c = cut;
        cl = (int)strlen(c);
      }
      int pad = w[k] - cl;
      bool last = k == n - 1;
      int wrote;
      if (t->right[k]) wrote = snprintf(line + len, sizeof line - len, "%s%*s%s", k ? "  " : "", pad, "", c);
      else wrote = snprintf(line + len, sizeof line - len, "%s%s%*s", k ? "  " : "", c, last ? 0 : pad, "");
      if (wrote < 0) break;
      len += (size_t)wrote;
      if (len >= sizeof line) len = sizeof line - 1;
    }
    while (len && line[len - 1] == ' ') len--;
    line[len] = '\0';
    if (i == 0) printf("%s%s%s\n", bold, line, reset);
    else printf("%s\n", line);
  }
  free(w);
  table_free(t);
}

