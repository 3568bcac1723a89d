/*
 * cli/text_parse.c: the text the data commands read back: the schema in
 * the message syntax (cut to a projection for export -c), rows of JSON
 * Lines split into their top-level fields (diff), and records of JSON Lines
 * or CSV picked by index (tail, sample). The text comes from the library,
 * but names and values in it come from the file: fuzz/fuzz_cli_text.c.
 * Depends on nothing else of the CLI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- keeping chosen records of the text ---------------------------------- */

void text_select_init(text_select *t, pqt_text_format fmt, pqt_write_fn write, void *ctx,
                      bool (*keep)(void *kctx, int64_t record), void *kctx) {
  memset(t, 0, sizeof *t);
  t->fmt = fmt;
  t->write = write;
  t->ctx = ctx;
  t->keep = keep;
  t->kctx = kctx;
  t->in_header = fmt == PQT_TEXT_CSV;
  t->at_start = true;
}

/* A record of JSON Lines ends at a newline (strings escape theirs); one of
 * CSV at a newline outside quotes (a quote inside a quoted cell is doubled,
 * which toggles the state twice). The CSV header is always kept. */
pqt_status text_select_write(void *ctx, const char *data, size_t len) {
  text_select *t = ctx;
  size_t span = 0; /* start of the bytes to pass on */
  for (size_t k = 0; k < len; k++) {
    if (t->at_start) {
      t->at_start = false;
      if (t->in_header) t->keep_current = true;
      else {
        t->keep_current = t->keep(t->kctx, t->record);
        if (t->keep_current) t->kept++;
      }
      span = k;
    }
    char c = data[k];
    if (c == '"' && t->fmt == PQT_TEXT_CSV && !t->in_header) t->in_quote = !t->in_quote;
    if (c != '\n' || t->in_quote) continue;
    /* the record ends here */
    if (t->keep_current) {
      pqt_status st = t->write(t->ctx, data + span, k + 1 - span);
      if (st != PQT_OK) return st;
    }
    if (t->in_header) t->in_header = false;
    else t->record++;
    t->at_start = true;
  }
  if (!t->at_start && t->keep_current && len > span) return t->write(t->ctx, data + span, len - span);
  return PQT_OK;
}

/* Whether the field at `path` (len bytes) is on the way to, or under, one
 * of the projected names (top-level names or dotted paths). */
static bool on_projection(const char *path, size_t len, const char *const *names, int32_t n) {
  for (int32_t i = 0; i < n; i++) {
    size_t k = strlen(names[i]);
    size_t m = k < len ? k : len;
    if (memcmp(names[i], path, m) != 0) continue;
    if (k == len || (k > len && names[i][len] == '.') || (k < len && path[k] == '.')) return true;
  }
  return false;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* The name at s (n bytes) as the schema text prints it, plain or `quoted`
 * (`` a backtick, \\ and \\xHH a byte), into out; its length, or
 * (size_t)-1 when there is none. */
static size_t read_name(const char *s, size_t n, char *out) {
  size_t k = 0;
  if (n > 0 && s[0] == '`') {
    for (size_t i = 1; i < n; i++) {
      if (s[i] == '`') {
        if (i + 1 < n && s[i + 1] == '`') out[k++] = s[++i];
        else return k;
      } else if (s[i] == '\\' && i + 1 < n && s[i + 1] == 'x' && i + 3 < n) {
        /* exactly two hex digits (sscanf's %2x also took one digit, a sign or a space) */
        int hi = hex_digit(s[i + 2]), lo = hex_digit(s[i + 3]);
        if (hi < 0 || lo < 0) return (size_t)-1;
        out[k++] = (char)(hi * 16 + lo);
        i += 3;
      } else if (s[i] == '\\' && i + 1 < n) {
        out[k++] = s[++i];
      } else {
        out[k++] = s[i];
      }
    }
    return (size_t)-1; /* unterminated */
  }
  while (k < n && !strchr(" \t;{}()=,[]`\"", s[k])) {
    out[k] = s[k];
    k++;
  }
  return k ? k : (size_t)-1;
}

/* The file's schema in the message syntax with only the projected fields
 * (and the groups above them): every type, logical type, repetition and
 * field id as the file has them. NULL when the text is not as expected. */
char *schema_text_project(const char *text, const char *const *names, int32_t n) {
  size_t len = strlen(text);
  char *out = malloc(len + 2), *path = malloc(len + 1); /* (out: a newline added to the last line) */
  size_t *stack = malloc((len + 1) * sizeof *stack);    /* path length at each open group */
  if (!out || !path || !stack) goto bad;
  size_t o = 0, depth = 0, plen = 0;
  bool done = false; /* the message's closing brace seen */
  const char *line = text;
  for (; *line; line += *line == '\n') {
    size_t ll = strcspn(line, "\n");
    const char *t = line;
    while (t < line + ll && *t == ' ') t++;
    size_t tl = (size_t)(line + ll - t);
    bool keep;
    if (tl == 0) { /* an empty line */
      line += ll;
      continue;
    }
    if (done) goto bad;
    if (depth == 0) {
      keep = true; /* "message NAME {" */
      if (line[ll - 1] != '{') goto bad;
      stack[depth++] = (0 << 1) | 1;
    } else if (tl >= 1 && t[0] == '}') {
      size_t top = stack[--depth];
      keep = top & 1;
      plen = top >> 1;
      path[plen] = 0;
      done = depth == 0;
    } else {
      /* REPETITION TYPE NAME ...: the name is the third word */
      const char *w = t;
      for (int word = 0; word < 2; word++) {
        while (w < line + ll && *w != ' ') w++;
        while (w < line + ll && *w == ' ') w++;
      }
      size_t at = plen;
      if (depth > 1) path[at++] = '.';
      size_t nl = read_name(w, (size_t)(line + ll - w), path + at);
      if (nl == (size_t)-1) goto bad;
      keep = on_projection(path, at + nl, names, n);
      if (line[ll - 1] == '{') {
        stack[depth++] = (plen << 1) | (keep ? 1 : 0);
        plen = at + nl;
      } else {
        path[plen] = 0;
      }
    }
    if (keep) {
      memcpy(out + o, line, ll);
      o += ll;
      out[o++] = '\n';
    }
    line += ll;
  }
  if (depth != 0 || !done) goto bad;
  out[o] = 0;
  free(path);
  free(stack);
  return out;
bad:
  free(out);
  free(path);
  free(stack);
  return NULL;
}

/* ---- a row of canonical JSON split into its top-level fields ---- */

/* The end of the JSON string starting at s[i] == '"'. */
static size_t skip_string(const char *s, size_t n, size_t i) {
  for (i++; i < n; i++) {
    if (s[i] == '\\') i++;
    else if (s[i] == '"') return i + 1;
  }
  return n;
}

/* Split `{"k":v,...}` into fields; false when it is not such an object. */
bool json_row_split(const char *s, size_t n, row_fields *out) {
  out->n = 0;
  if (n < 2 || s[0] != '{') return false;
  size_t i = 1;
  while (i < n && s[i] != '}') {
    if (s[i] != '"') return false;
    size_t k0 = i;
    i = skip_string(s, n, i);
    if (i >= n || s[i] != ':') return false;
    size_t v0 = ++i;
    int depth = 0;
    while (i < n) {
      char c = s[i];
      if (c == '"') {
        i = skip_string(s, n, i);
        continue;
      }
      if (c == '{' || c == '[') depth++;
      else if ((c == '}' || c == ']') && depth > 0) depth--;
      else if ((c == ',' || c == '}') && depth == 0) break;
      i++;
    }
    if (i >= n) return false;
    if (out->n == out->cap) {
      size_t cap = out->cap ? 2 * out->cap : 16;
      field_span *p = realloc(out->items, cap * sizeof *p);
      if (!p) return false;
      out->items = p;
      out->cap = cap;
    }
    out->items[out->n++] = (field_span){s + k0, s + v0, v0 - 1 - k0, i - v0};
    if (s[i] == ',') i++;
  }
  return true;
}

const field_span *json_row_field(const row_fields *f, const field_span *key) {
  for (size_t i = 0; i < f->n; i++)
    if (f->items[i].key_len == key->key_len && memcmp(f->items[i].key, key->key, key->key_len) == 0)
      return &f->items[i];
  return NULL;
}

/* ---- JSON output ---- */

void json_print_string(FILE *f, const char *s, size_t n) {
  fputc('"', f);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c == '\n') fputs("\\n", f);
    else if (c == '\t') fputs("\\t", f);
    else if (c == '\r') fputs("\\r", f);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}
