/*
 * cli/convert.c: `parquetry convert` (CSV / JSON Lines -> Parquet), on the
 * public API only.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "parquetry.h"
#include "parquetry_arrow.h"

#include "cli.h"

const char cmd_convert_summary[] =
    "Convert CSV (with a header line) or JSON Lines to Parquet. Types are inferred\n"
    "(BOOLEAN, INT64, DOUBLE, DATE for YYYY-MM-DD, TIMESTAMP(MICROS) for\n"
    "YYYY-MM-DD HH:MM:SS[.f], STRING; empty CSV fields and JSON null are null) unless\n"
    "--schema gives a flat message. Nested JSON values are kept as JSON text.\n\n"
    "  --schema 'message m { ... }'   the schema (flat: one leaf per input column)\n"
    "  --format csv|jsonl             input format (default: from the file name)\n" WRITER_OPTIONS_HELP;
const char cmd_convert_usage[] = "parquetry convert [OPTIONS] IN.csv|IN.jsonl OUT.parquet";

/* ---- convert: input parsing -------------------------------------------------- */

typedef struct field {
  const char *p; /* NULL = null */
  size_t n;
  bool quoted;   /* JSON string / quoted CSV field (never a number or bool) */
} field;

typedef struct table {
  char **names;
  int ncols;
  field *cells; /* row-major */
  size_t nrows, cap;
  char *arena;  /* unescaped strings */
  size_t alen, acap;
} table;

static int add_col(table *t, const char *name, size_t n) {
  char **nn = realloc(t->names, (size_t)(t->ncols + 1) * sizeof *nn);
  if (!nn) return -1;
  t->names = nn;
  t->names[t->ncols] = strndup(name, n);
  return t->names[t->ncols] ? t->ncols++ : -1;
}

static field *new_row(table *t) {
  if (t->nrows == t->cap) {
    size_t nc = t->cap ? t->cap * 2 : 1024;
    field *n = realloc(t->cells, nc * (size_t)t->ncols * sizeof *n);
    if (!n) return NULL;
    t->cells = n;
    t->cap = nc;
  }
  field *r = t->cells + t->nrows++ * (size_t)t->ncols;
  for (int i = 0; i < t->ncols; i++) r[i] = (field){NULL, 0, false};
  return r;
}

/* Strings are stored as offsets into t->arena (which may move) during
 * parsing: p holds the offset + 1 cast to a pointer, fixed up at the end. */
static size_t arena_put(table *t, const char *p, size_t n) {
  if (t->alen + n + 1 > t->acap) {
    size_t nc = t->acap ? t->acap : 1 << 16;
    while (nc < t->alen + n + 1) nc *= 2;
    char *a = realloc(t->arena, nc);
    if (!a) return (size_t)-1;
    t->arena = a;
    t->acap = nc;
  }
  memcpy(t->arena + t->alen, p, n);
  size_t at = t->alen;
  t->alen += n;
  t->arena[t->alen++] = 0;
  return at;
}

static void fixup(table *t) {
  size_t n = t->nrows * (size_t)t->ncols;
  for (size_t i = 0; i < n; i++)
    if (t->cells[i].p) t->cells[i].p = t->arena + ((uintptr_t)t->cells[i].p - 1);
}

static void table_free(table *t) {
  for (int i = 0; i < t->ncols; i++) free(t->names[i]);
  free(t->names);
  free(t->cells);
  free(t->arena);
}

static const char *parse_csv(const char *s, size_t len, table *t) {
  size_t i = 0;
  char *buf = NULL;
  size_t bcap = 0;
  bool header = true;
  int col = 0;
  field *row = NULL;
  while (i < len) {
    size_t bl = 0;
    bool quoted = false;
    if (s[i] == '"') {
      quoted = true;
      i++;
      for (;;) {
        if (i >= len) { free(buf); return "unterminated quoted field"; }
        if (s[i] == '"') {
          if (i + 1 < len && s[i + 1] == '"') i++;
          else { i++; break; }
        }
        if (bl + 1 > bcap) { bcap = bcap ? bcap * 2 : 256; char *nb = realloc(buf, bcap); if (!nb) { free(buf); return "out of memory"; } buf = nb; }
        buf[bl++] = s[i++];
      }
    } else {
      while (i < len && s[i] != ',' && s[i] != '\n' && s[i] != '\r') {
        if (bl + 1 > bcap) { bcap = bcap ? bcap * 2 : 256; char *nb = realloc(buf, bcap); if (!nb) { free(buf); return "out of memory"; } buf = nb; }
        buf[bl++] = s[i++];
      }
    }
    if (header) {
      if (add_col(t, bl ? buf : "", bl) < 0) { free(buf); return "out of memory"; }
    } else {
      if (col == 0 && !(row = new_row(t))) { free(buf); return "out of memory"; }
      if (col >= t->ncols) { free(buf); return "a row has more fields than the header"; }
      if (bl > 0 || quoted) {
        size_t at = arena_put(t, bl ? buf : "", bl);
        if (at == (size_t)-1) { free(buf); return "out of memory"; }
        row = t->cells + (t->nrows - 1) * (size_t)t->ncols;
        row[col] = (field){(const char *)(uintptr_t)(at + 1), bl, quoted};
      }
    }
    col++;
    if (i < len && s[i] == ',') { i++; continue; }
    if (i < len && s[i] == '\r') i++;
    if (i < len && s[i] == '\n') i++;
    if (header) header = false;
    col = 0;
    /* skip blank lines */
    while (i < len && (s[i] == '\n' || s[i] == '\r')) i++;
  }
  free(buf);
  if (header && t->ncols == 0) return "empty input";
  return NULL;
}

/* Minimal JSON: flat objects per line; nested values kept as raw text. */
static const char *json_skip_value(const char *p, const char *end) {
  int depth = 0;
  bool in_str = false;
  for (; p < end; p++) {
    char c = *p;
    if (in_str) {
      if (c == '\\') p++;
      else if (c == '"') in_str = false;
      continue;
    }
    if (c == '"') in_str = true;
    else if (c == '{' || c == '[') depth++;
    else if (c == '}' || c == ']') {
      if (depth == 0) return p;
      if (--depth == 0) return p + 1;
    } else if (depth == 0 && (c == ',' )) return p;
  }
  return p;
}

static const char *json_string(const char *p, const char *end, char **out, size_t *olen, const char **next) {
  /* p at the opening quote */
  size_t cap = 64, n = 0;
  char *b = malloc(cap);
  if (!b) return "out of memory";
  p++;
  while (p < end && *p != '"') {
    char c = *p++;
    if (c == '\\') {
      if (p >= end) { free(b); return "bad escape"; }
      char e = *p++;
      unsigned cp = 0;
      switch (e) {
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case 'r': c = '\r'; break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'u': {
          if (end - p < 4) { free(b); return "bad \\u escape"; }
          for (int k = 0; k < 4; k++) {
            char h = *p++;
            cp = cp * 16 + (unsigned)(isdigit((unsigned char)h) ? h - '0' : (tolower((unsigned char)h) - 'a' + 10));
          }
          if (cp >= 0xD800 && cp < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
            unsigned lo = 0;
            for (int k = 2; k < 6; k++) { char h = p[k]; lo = lo * 16 + (unsigned)(isdigit((unsigned char)h) ? h - '0' : (tolower((unsigned char)h) - 'a' + 10)); }
            if (lo >= 0xDC00 && lo < 0xE000) { cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00); p += 6; }
          }
          char u[4];
          int ul;
          if (cp < 0x80) { u[0] = (char)cp; ul = 1; }
          else if (cp < 0x800) { u[0] = (char)(0xC0 | (cp >> 6)); u[1] = (char)(0x80 | (cp & 0x3F)); ul = 2; }
          else if (cp < 0x10000) { u[0] = (char)(0xE0 | (cp >> 12)); u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)); u[2] = (char)(0x80 | (cp & 0x3F)); ul = 3; }
          else { u[0] = (char)(0xF0 | (cp >> 18)); u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)); u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); u[3] = (char)(0x80 | (cp & 0x3F)); ul = 4; }
          if (n + 4 > cap) { cap *= 2; char *nb = realloc(b, cap); if (!nb) { free(b); return "out of memory"; } b = nb; }
          memcpy(b + n, u, (size_t)ul);
          n += (size_t)ul;
          continue;
        }
        default: c = e; break;
      }
    }
    if (n + 1 > cap) { cap *= 2; char *nb = realloc(b, cap); if (!nb) { free(b); return "out of memory"; } b = nb; }
    b[n++] = c;
  }
  if (p >= end) { free(b); return "unterminated string"; }
  *next = p + 1;
  *out = b;
  *olen = n;
  return NULL;
}

static const char *ws(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
  return p;
}

static int find_col(table *t, const char *name, size_t n) {
  for (int i = 0; i < t->ncols; i++)
    if (strlen(t->names[i]) == n && memcmp(t->names[i], name, n) == 0) return i;
  return -1;
}

static const char *parse_jsonl(const char *s, size_t len, table *t) {
  /* pass 1: column names in first-seen order; pass 2: values */
  for (int pass = 0; pass < 2; pass++) {
    const char *p = s, *end = s + len;
    while (p < end) {
      const char *eol = memchr(p, '\n', (size_t)(end - p));
      if (!eol) eol = end;
      const char *q = ws(p, eol);
      if (q == eol) { p = eol + 1; continue; }
      if (*q != '{') return "each line must be a JSON object";
      field *row = NULL;
      if (pass == 1 && !(row = new_row(t))) return "out of memory";
      q = ws(q + 1, eol);
      while (q < eol && *q != '}') {
        if (*q != '"') return "expected a key";
        char *key;
        size_t kl;
        const char *e = json_string(q, eol, &key, &kl, &q);
        if (e) return e;
        q = ws(q, eol);
        if (q >= eol || *q != ':') { free(key); return "expected ':'"; }
        q = ws(q + 1, eol);
        int c = find_col(t, key, kl);
        if (pass == 0 && c < 0) c = add_col(t, key, kl);
        free(key);
        if (c < 0) return "out of memory";
        const char *vs = q, *ve;
        char *str = NULL;
        size_t sl = 0;
        bool quoted = false, isnull = false;
        if (*q == '"') {
          e = json_string(q, eol, &str, &sl, &ve);
          if (e) return e;
          quoted = true;
        } else {
          ve = json_skip_value(q, eol);
          while (ve > vs && (ve[-1] == ' ' || ve[-1] == '\t' || ve[-1] == '\r')) ve--;
          isnull = (size_t)(ve - vs) == 4 && memcmp(vs, "null", 4) == 0;
          quoted = *vs == '{' || *vs == '[';
        }
        if (pass == 1 && !isnull) {
          size_t at = quoted && str ? arena_put(t, str, sl) : arena_put(t, vs, (size_t)(ve - vs));
          if (at == (size_t)-1) { free(str); return "out of memory"; }
          row = t->cells + (t->nrows - 1) * (size_t)t->ncols;
          row[c] = (field){(const char *)(uintptr_t)(at + 1), str ? sl : (size_t)(ve - vs), quoted};
        }
        free(str);
        q = ws(ve, eol);
        if (q < eol && *q == ',') q = ws(q + 1, eol);
      }
      p = eol + 1;
    }
  }
  if (t->ncols == 0) return "no fields found";
  return NULL;
}

/* ---- convert: types and columns ------------------------------------------------ */

enum { T_BOOL, T_I32, T_I64, T_F32, T_F64, T_STR, T_DATE, T_TS };

static bool parse_i64(const char *p, size_t n, int64_t *v) {
  if (n == 0 || n > 20) return false;
  char b[24];
  memcpy(b, p, n);
  b[n] = 0;
  char *end;
  errno = 0;
  long long x = strtoll(b, &end, 10);
  if (*end || errno) return false;
  *v = x;
  return true;
}

static bool parse_f64(const char *p, size_t n, double *v) {
  if (n == 0 || n > 64) return false;
  char b[72];
  memcpy(b, p, n);
  b[n] = 0;
  char *end;
  double x = strtod(b, &end);
  if (*end) return false;
  *v = x;
  return true;
}

static bool parse_bool(const char *p, size_t n, uint8_t *v) {
  if (n == 4 && strncasecmp(p, "true", 4) == 0) { *v = 1; return true; }
  if (n == 5 && strncasecmp(p, "false", 5) == 0) { *v = 0; return true; }
  return false;
}

static bool parse_date(const char *p, size_t n, int32_t *v) {
  int y, m, d;
  char b[16];
  if (n != 10) return false;
  memcpy(b, p, n);
  b[n] = 0;
  if (sscanf(b, "%4d-%2d-%2d", &y, &m, &d) != 3 || m < 1 || m > 12 || d < 1 || d > 31) return false;
  /* days from civil (Howard Hinnant) */
  y -= m <= 2;
  int era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = (unsigned)(y - era * 400);
  unsigned doy = (unsigned)((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1);
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  *v = era * 146097 + (int)doe - 719468;
  return true;
}

/* "YYYY-MM-DD[T ]HH:MM:SS[.fraction][Z]" -> count of units (10^-digits s)
 * since the epoch; unit_digits 3, 6 or 9. */
static bool parse_ts(const char *p, size_t n, int unit_digits, int64_t *v) {
  int32_t days;
  if (n < 19 || (p[10] != 'T' && p[10] != ' ') || !parse_date(p, 10, &days)) return false;
  int hh, mm, ss;
  char b[16];
  memcpy(b, p + 11, 8);
  b[8] = 0;
  if (sscanf(b, "%2d:%2d:%2d", &hh, &mm, &ss) != 3 || b[2] != ':' || b[5] != ':' || hh > 23 || mm > 59 || ss > 60) return false;
  size_t i = 19;
  int64_t frac = 0;
  int digits = 0;
  if (i < n && p[i] == '.') {
    for (i++; i < n && p[i] >= '0' && p[i] <= '9'; i++)
      if (digits < unit_digits) { frac = frac * 10 + (p[i] - '0'); digits++; }
  }
  for (; digits < unit_digits; digits++) frac *= 10;
  if (i < n && p[i] == 'Z') i++;
  if (i != n) return false;
  int64_t scale = unit_digits == 3 ? 1000 : unit_digits == 6 ? 1000000 : 1000000000;
  *v = ((int64_t)days * 86400 + hh * 3600 + mm * 60 + ss) * scale + frac;
  return true;
}

static int infer(const table *t, int c) {
  bool can_i = true, can_f = true, can_b = true, can_d = true, can_t = true, any = false;
  for (size_t r = 0; r < t->nrows; r++) {
    const field *f = &t->cells[r * (size_t)t->ncols + (size_t)c];
    if (!f->p) continue;
    any = true;
    if (f->quoted) return T_STR;
    int64_t i;
    double d;
    uint8_t b;
    int32_t dd;
    int64_t tt;
    if (can_d && !parse_date(f->p, f->n, &dd)) can_d = false;
    if (can_t && !parse_ts(f->p, f->n, 6, &tt)) can_t = false;
    if (can_i && !parse_i64(f->p, f->n, &i)) can_i = false;
    if (can_f && !parse_f64(f->p, f->n, &d)) can_f = false;
    if (can_b && !parse_bool(f->p, f->n, &b)) can_b = false;
    if (!can_i && !can_f && !can_b && !can_d && !can_t) return T_STR;
  }
  if (!any) return T_STR;
  return can_i ? T_I64 : can_f ? T_F64 : can_b ? T_BOOL : can_d ? T_DATE : can_t ? T_TS : T_STR;
}

static void append_name(char **s, size_t *len, size_t *cap, const char *x) {
  size_t n = strlen(x);
  if (*len + n + 1 > *cap) {
    *cap = (*len + n + 1) * 2;
    *s = realloc(*s, *cap);
  }
  if (*s) {
    memcpy(*s + *len, x, n + 1);
    *len += n;
  }
}

static int type_of_format(const char *f) {
  if (!strcmp(f, "b")) return T_BOOL;
  if (!strcmp(f, "i") || !strcmp(f, "c") || !strcmp(f, "s") || !strcmp(f, "C") || !strcmp(f, "S") || !strcmp(f, "I")) return T_I32;
  if (!strcmp(f, "l") || !strcmp(f, "L")) return T_I64;
  if (!strcmp(f, "f")) return T_F32;
  if (!strcmp(f, "g")) return T_F64;
  if (!strcmp(f, "u") || !strcmp(f, "z")) return T_STR;
  if (!strcmp(f, "tdD")) return T_DATE;
  if (f[0] == 't' && f[1] == 's' && (f[2] == 'm' || f[2] == 'u' || f[2] == 'n')) return T_TS;
  return -1;
}

int cmd_convert(int argc, char **argv) {
  if (want_help(argc, argv)) {
    printf("usage: %s\n\n%s\n", cmd_convert_usage, cmd_convert_summary);
    return 0;
  }
  wopts w;
  int rc = parse_args("convert", argc, argv, &w, CMD_CONVERT);
  if (rc) {
    free_args(&w);
    return rc;
  }
  table t;
  memset(&t, 0, sizeof t);
  char *text = NULL, *schema_text = NULL;
  pqt_writer *wr = NULL;
  int *types = NULL;
  int *col_of_leaf = NULL;
  bool *nullable = NULL;
  pqt_error e;
  pqt_error_init(&e);
  struct ArrowSchema as;
  memset(&as, 0, sizeof as);
  FILE *f = fopen(w.in, "rb");
  if (!f) {
    fprintf(stderr, "parquetry: %s: %s\n", w.in, strerror(errno));
    rc = EXIT_DATA;
    goto out;
  }
  size_t cap = 1 << 16, len = 0;
  text = malloc(cap);
  for (;;) {
    if (!text) break;
    if (len == cap) {
      char *n = realloc(text, cap * 2);
      if (!n) { free(text); text = NULL; break; }
      text = n;
      cap *= 2;
    }
    size_t k = fread(text + len, 1, cap - len, f);
    if (k == 0) break;
    len += k;
  }
  fclose(f);
  if (!text) {
    fprintf(stderr, "parquetry: %s: out of memory\n", w.in);
    rc = EXIT_DATA;
    goto out;
  }
  const char *fmt = w.format;
  if (!fmt) {
    size_t nl = strlen(w.in);
    fmt = (nl > 6 && (strcmp(w.in + nl - 6, ".jsonl") == 0 || strcmp(w.in + nl - 7, ".ndjson") == 0)) ||
                  (nl > 5 && strcmp(w.in + nl - 5, ".json") == 0)
              ? "jsonl"
              : "csv";
  }
  const char *perr = strcmp(fmt, "csv") == 0 ? parse_csv(text, len, &t) : parse_jsonl(text, len, &t);
  if (perr) {
    fprintf(stderr, "parquetry: %s: %s\n", w.in, perr);
    rc = EXIT_DATA;
    goto out;
  }
  fixup(&t);
  types = calloc((size_t)t.ncols, sizeof *types);
  if (!types) { rc = EXIT_DATA; goto out; }
  if (!w.schema) {
    size_t sl = 0, sc = 0;
    append_name(&schema_text, &sl, &sc, "message schema {\n");
    for (int c = 0; c < t.ncols; c++) {
      types[c] = infer(&t, c);
      static const char *decl[] = {"boolean", "int32", "int64", "float", "double", "binary", "int32", "int64"};
      static const char *ann[] = {"", "", "", "", "", " (STRING)", " (DATE)", " (TIMESTAMP(MICROS,false))"};
      append_name(&schema_text, &sl, &sc, "  optional ");
      append_name(&schema_text, &sl, &sc, decl[types[c]]);
      append_name(&schema_text, &sl, &sc, " `");
      for (const char *p = t.names[c]; *p; p++) {
        char ch[8] = {0};
        if (*p == '`' || *p == '\\' || (unsigned char)*p < 0x20) snprintf(ch, sizeof ch, "\\x%02X", (unsigned char)*p);
        else ch[0] = *p;
        append_name(&schema_text, &sl, &sc, ch);
      }
      append_name(&schema_text, &sl, &sc, "`");
      append_name(&schema_text, &sl, &sc, ann[types[c]]);
      append_name(&schema_text, &sl, &sc, ";\n");
    }
    append_name(&schema_text, &sl, &sc, "}\n");
    if (!schema_text) { rc = EXIT_DATA; goto out; }
  }
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = w.schema ? w.schema : schema_text};
  if (pqt_writer_open_file(&wr, w.out, &ws, &w.o, &e) != PQT_OK) {
    if (e.code == PQT_EINVAL && w.schema) rc = usage("convert", "--schema: %s", e.message);
    else rc = fail(w.out, &e);
    goto out;
  }
  /* match leaves to input columns by name, and learn their types */
  if (pqt_writer_arrow_schema(wr, &as, &e) != PQT_OK) { rc = fail(w.out, &e); goto out; }
  int nleaf = (int)as.n_children;
  col_of_leaf = malloc((size_t)(nleaf ? nleaf : 1) * sizeof *col_of_leaf);
  nullable = malloc((size_t)(nleaf ? nleaf : 1) * sizeof *nullable);
  int *ltype = malloc((size_t)(nleaf ? nleaf : 1) * sizeof *ltype);
  if (!col_of_leaf || !nullable || !ltype) { free(ltype); rc = EXIT_DATA; goto out; }
  if (pqt_writer_num_columns(wr) != nleaf) {
    free(ltype);
    rc = usage("convert", "%s", "--schema must be flat (one leaf per top-level field)");
    goto out;
  }
  for (int i = 0; i < nleaf; i++) {
    const struct ArrowSchema *ch = as.children[i];
    col_of_leaf[i] = find_col(&t, ch->name, strlen(ch->name));
    nullable[i] = (ch->flags & ARROW_FLAG_NULLABLE) != 0;
    ltype[i] = type_of_format(ch->format);
    if (ltype[i] < 0) {
      free(ltype);
      rc = usage("convert", "column type '%s' is not supported by convert", ch->format);
      goto out;
    }
  }
  /* write, one row group at a time */
  int16_t *def = malloc(65536 * sizeof *def);
  uint8_t *vals = malloc(65536 * 8);
  int32_t *offs = malloc((65536 + 1) * sizeof *offs);
  char *sbuf = NULL;
  size_t scap = 0;
  if (!def || !vals || !offs) { rc = EXIT_DATA; goto wdone; }
  int64_t rg = w.o.row_group_rows;
  progress bar;
  progress_init(&bar, (int64_t)t.nrows);
  /* blocks of at most 65536 rows that never straddle a row group boundary */
  for (size_t r0 = 0, n = 0; r0 < t.nrows; r0 += n) {
    size_t to_boundary = (size_t)rg - r0 % (size_t)rg;
    n = t.nrows - r0 < 65536 ? t.nrows - r0 : 65536;
    if (n > to_boundary) n = to_boundary;
    progress_update(&bar, (int64_t)r0);
    for (int li = 0; li < nleaf; li++) {
      int c = col_of_leaf[li];
      int ty = ltype[li];
      int64_t nv = 0;
      size_t sl = 0;
      offs[0] = 0;
      for (size_t k = 0; k < n; k++) {
        const field *fd = c >= 0 ? &t.cells[(r0 + k) * (size_t)t.ncols + (size_t)c] : NULL;
        if (!fd || !fd->p) {
          if (!nullable[li]) {
            fprintf(stderr, "parquetry: %s: row %zu: null in required column %s\n", w.in, r0 + k + 1, as.children[li]->name);
            rc = EXIT_DATA;
            goto wdone;
          }
          def[k] = 0;
          continue;
        }
        def[k] = 1;
        bool ok = true;
        switch (ty) {
          case T_BOOL: ok = parse_bool(fd->p, fd->n, vals + nv); break;
          case T_I32: { int64_t x = 0; ok = parse_i64(fd->p, fd->n, &x) && x >= INT32_MIN && x <= UINT32_MAX; int32_t y = (int32_t)x; memcpy(vals + 4 * nv, &y, 4); break; }
          case T_I64: { int64_t x = 0; ok = parse_i64(fd->p, fd->n, &x); memcpy(vals + 8 * nv, &x, 8); break; }
          case T_F32: { double x = 0; ok = parse_f64(fd->p, fd->n, &x); float y = (float)x; memcpy(vals + 4 * nv, &y, 4); break; }
          case T_F64: { double x = 0; ok = parse_f64(fd->p, fd->n, &x); memcpy(vals + 8 * nv, &x, 8); break; }
          case T_DATE: { int32_t x = 0; ok = parse_date(fd->p, fd->n, &x); memcpy(vals + 4 * nv, &x, 4); break; }
          case T_TS: {
            char u = as.children[li]->format[2];
            int64_t x = 0;
            ok = parse_ts(fd->p, fd->n, u == 'm' ? 3 : u == 'u' ? 6 : 9, &x);
            memcpy(vals + 8 * nv, &x, 8);
            break;
          }
          default: {
            if (sl + fd->n > scap) {
              scap = (sl + fd->n) * 2 + 1024;
              char *nb = realloc(sbuf, scap);
              if (!nb) { rc = EXIT_DATA; goto wdone; }
              sbuf = nb;
            }
            memcpy(sbuf + sl, fd->p, fd->n);
            sl += fd->n;
            offs[nv + 1] = (int32_t)sl;
          }
        }
        if (!ok) {
          fprintf(stderr, "parquetry: %s: row %zu, column %s: cannot read '%.*s' as %s\n", w.in, r0 + k + 1,
                  as.children[li]->name, (int)(fd->n > 40 ? 40 : fd->n), fd->p, as.children[li]->format);
          rc = EXIT_DATA;
          goto wdone;
        }
        nv++;
      }
      const void *vp = ty == T_STR ? (const void *)(sbuf ? sbuf : "") : (const void *)vals;
      if (pqt_writer_write_column(wr, li, (int64_t)n, nullable[li] ? def : NULL, NULL, vp, ty == T_STR ? offs : NULL,
                                  nv, &e) != PQT_OK) {
        rc = fail(w.out, &e);
        goto wdone;
      }
    }
    /* row groups: flush when the rows reached the limit */
    if ((r0 + n) % (size_t)rg == 0) {
      if (pqt_writer_flush_row_group(wr, &e) != PQT_OK) { rc = fail(w.out, &e); goto wdone; }
    }
  }
  progress_done(&bar);
  {
    pqt_status st = pqt_writer_close(wr, &e);
    wr = NULL;
    if (st != PQT_OK) rc = fail(w.out, &e);
  }
wdone:
  free(def);
  free(vals);
  free(offs);
  free(sbuf);
  free(ltype);
out:
  if (as.release) as.release(&as);
  if (wr) pqt_writer_discard(wr);
  free(types);
  free(col_of_leaf);
  free(nullable);
  free(schema_text);
  free(text);
  table_free(&t);
  free_args(&w);
  return rc;
}
