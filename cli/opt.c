/*
 * cli/opt.c: the one option parser of the parquetry commands (API in cli.h):
 * long options as `--name VALUE` or `--name=VALUE`, short ones as `-c VALUE`
 * or `-cVALUE` (`-n5`), `--` ends the options, -h/--help, the shared reading
 * options (read_option), and "did you mean" for a mistyped name.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_args_init(cli_args *a, const char *cmd, int argc, char **argv, const cli_opt *opts) {
  memset(a, 0, sizeof *a);
  a->cmd = cmd;
  a->argc = argc;
  a->argv = argv;
  a->opts = opts;
  a->i = 1;
  a->read_options = true;
}

int cli_edit_distance(const char *s, const char *t) {
  size_t n = strlen(s), m = strlen(t);
  if (n > 64 || m > 64) return 99;
  int row[65];
  for (size_t j = 0; j <= m; j++) row[j] = (int)j;
  for (size_t i = 1; i <= n; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= m; j++) {
      int up = row[j];
      int best = diag + (tolower((unsigned char)s[i - 1]) != tolower((unsigned char)t[j - 1]));
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[m];
}

const char *cli_closest(const char *word, const char *const *names, int n) {
  const char *best = NULL;
  int best_d = 99;
  size_t wl = strlen(word);
  for (int k = 0; k < n; k++) {
    if (!names[k]) continue;
    int d = cli_edit_distance(word, names[k]);
    /* a prefix of a longer name ("dict" for "dictionary") also counts */
    if (wl >= 3 && strncmp(names[k], word, wl) == 0) d = 1;
    if (d < best_d) {
      best_d = d;
      best = names[k];
    }
  }
  /* close enough: at most 2 edits, and fewer than half the word */
  return best && best_d <= 2 && (size_t)best_d * 2 < (wl > 2 ? wl : 3) ? best : NULL;
}

static const cli_opt *find_long(const cli_opt *o, const char *name, size_t n) {
  for (; o && (o->name || o->shrt); o++)
    if (o->name && strlen(o->name) == n && strncmp(o->name, name, n) == 0) return o;
  return NULL;
}

static const cli_opt *find_short(const cli_opt *o, char c) {
  for (; o && (o->name || o->shrt); o++)
    if (o->shrt == c) return o;
  return NULL;
}

static bool looks_negative_number(const char *s) {
  return s[0] == '-' && (isdigit((unsigned char)s[1]) || (s[1] == '.' && isdigit((unsigned char)s[2])));
}

static int unknown(cli_args *a, const char *s) {
  const char *names[64];
  char bufs[64][40];
  int n = 0;
  for (const cli_opt *o = a->opts; o && (o->name || o->shrt) && n < 64; o++)
    if (o->name) {
      snprintf(bufs[n], sizeof bufs[n], "--%s", o->name);
      names[n] = bufs[n];
      n++;
    }
  char word[64];
  snprintf(word, sizeof word, "%.*s", (int)strcspn(s, "="), s);
  const char *near = cli_closest(word, names, n);
  if (near) usage(a->cmd, "unknown option '%s' (did you mean '%s'?)", s, near);
  else usage(a->cmd, "unknown option '%s'", s);
  return CLI_ERROR;
}

int cli_match(const char *cmd, int argc, char **argv, int *i, const cli_opt *opts, char **val) {
  const char *s = argv[*i];
  *val = NULL;
  if (s[0] != '-' || s[1] == '\0' || strcmp(s, "--") == 0) return 0;
  const cli_opt *o;
  if (s[1] == '-') {
    const char *name = s + 2;
    const char *eq = strchr(name, '=');
    size_t n = eq ? (size_t)(eq - name) : strlen(name);
    o = find_long(opts, name, n);
    if (!o) return 0;
    if (!o->has_arg) {
      if (!eq) return o->id;
      usage(cmd, "option '--%.*s' takes no value", (int)n, name);
      return CLI_ERROR;
    }
    if (eq) {
      *val = (char *)eq + 1;
      return o->id;
    }
  } else {
    o = find_short(opts, s[1]);
    if (!o) return 0;
    if (!o->has_arg) return s[2] ? 0 : o->id; /* "-jx": not this option */
    if (s[2]) {
      *val = (char *)s + 2;
      return o->id;
    }
  }
  if (*i + 1 >= argc) {
    usage(cmd, "option '%s' needs a value", s);
    return CLI_ERROR;
  }
  *val = argv[++*i];
  return o->id;
}

int cli_next(cli_args *a) {
  a->arg = NULL;
  a->opt = NULL;
  if (a->i >= a->argc) return CLI_END;
  char *s = a->argv[a->i++];
  if (a->operands_only || s[0] != '-' || s[1] == '\0') {
    a->arg = s;
    return CLI_OPERAND;
  }
  if (strcmp(s, "--") == 0) {
    a->operands_only = true;
    return cli_next(a);
  }
  if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) return CLI_HELP;
  a->opt = s;
  int k = a->i - 1;
  int id = cli_match(a->cmd, a->argc, a->argv, &k, a->opts, &a->arg);
  a->i = k + 1;
  if (id != 0) return id;
  if (s[1] == '-') {
    const char *eq = strchr(s, '=');
    if (a->read_options) {
      int ro;
      if (eq) {
        char flag[64];
        snprintf(flag, sizeof flag, "%.*s", (int)(eq - s), s);
        char *two[2] = {flag, (char *)eq + 1};
        int j = 0;
        ro = read_option(a->cmd, 2, two, &j);
        if (ro == 1 && j == 0) {
          usage(a->cmd, "option '%s' takes no value", flag);
          return CLI_ERROR;
        }
      } else {
        int j = a->i - 1;
        ro = read_option(a->cmd, a->argc, a->argv, &j);
        if (ro == 1) a->i = j + 1;
      }
      if (ro == 2) return CLI_ERROR;
      if (ro == 1) return cli_next(a);
    }
    return unknown(a, s);
  }
  if (!find_short(a->opts, s[1]) && looks_negative_number(s)) {
    a->opt = NULL;
    a->arg = s;
    return CLI_OPERAND;
  }
  return unknown(a, s);
}

int cli_count(const char *cmd, const char *opt, const char *text, int64_t *out) {
  char *end;
  long long v = strtoll(text, &end, 10);
  if (!*text || *end || v < 0) return usage(cmd, "%s wants a count (0 or more), not '%s'", opt, text);
  *out = v;
  return 0;
}

void cli_normalise_args(int argc, char **argv, int *out_argc, char **out) {
  int n = 0;
  bool rest = false;
  for (int i = 0; i < argc; i++) {
    char *s = argv[i];
    if (i == 0 || rest || s[0] != '-') {
      out[n++] = s;
      continue;
    }
    if (strcmp(s, "--") == 0) {
      rest = true;
      out[n++] = s;
      continue;
    }
    char *eq = s[1] == '-' ? strchr(s, '=') : NULL;
    if (eq) { /* --name=value -> --name value */
      *eq = '\0';
      out[n++] = s;
      out[n++] = eq + 1;
    } else if (s[1] != '-' && isalpha((unsigned char)s[1]) && isdigit((unsigned char)s[2])) {
      /* -n5 -> -n 5 (a letter then digits: a short option and its number) */
      static char flags[256][3];
      unsigned char c = (unsigned char)s[1];
      flags[c][0] = '-';
      flags[c][1] = (char)c;
      out[n++] = flags[c];
      out[n++] = s + 2;
    } else {
      out[n++] = s;
    }
  }
  out[n] = NULL;
  *out_argc = n;
}

int cli_help(const char *usage_text, const char *summary) {
  printf("usage: %s\n\n%s\n", usage_text, summary);
  return 0;
}
