/*
 * meta/schema_text.c: the schema message syntax (print and parse).
 *
 * Spec: the schema notation used throughout parquet-format's documents and the walkthrough in tests/fixtures/seed004.md
 * (e.g. "optional group my_list (LIST) { repeated group list { ... } }"), which is the syntax of parquet-java's
 * MessageTypeParser and the toString of its LogicalTypeAnnotation. Written from those examples; no code is shared.
 *
 * Grammar (keywords and annotation names are case-insensitive; whitespace
 * and comments, "//" or "#" to the end of a line, separate tokens):
 *   schema     := "message" name "{" field* "}"
 *   field      := repetition "group" name vector? annotation? id? "{" field+ "}" ";"?
 *               | repetition primitive name vector? annotation? id? ";"
 *   repetition := required | optional | repeated | vector
 *   primitive  := boolean | int32 | int64 | int96 | float | double | binary
 *               | fixed_len_byte_array "(" N ")"
 *   vector     := "[" N "]"            (only, and always, with repetition vector)
 *   annotation := "(" NAME ( "(" arg ("," arg)* ")" )? ")"
 *   id         := "=" N                (SchemaElement.field_id)
 *   name       := a run of bytes other than whitespace, control bytes and
 *                 ; { } ( ) = , [ ] ` " (not starting with # or //), or a
 *                 `quoted` name where `` is a backtick and \\ and \xHH escape
 *                 a backslash and any byte. The printer quotes exactly the
 *                 names that need it (e.g. the empty name).
 *
 * Annotations printed (LogicalType when the element has one, else the
 * ConvertedType name, so old files show what they contain):
 *   STRING MAP LIST ENUM DATE JSON BSON UUID FLOAT16 UNKNOWN VECTOR
 *   DECIMAL(P,S)  TIME(MILLIS|MICROS|NANOS,true|false)  TIMESTAMP(unit,utc)
 *   INTEGER(8|16|32|64,true|false)  VARIANT  VARIANT(v)
 *   GEOMETRY  GEOMETRY(crs)  GEOGRAPHY  GEOGRAPHY(crs)  GEOGRAPHY(crs,ALGORITHM)
 *   GEOGRAPHY(,ALGORITHM) (algorithm without crs)
 *   ConvertedType only: UTF8 MAP_KEY_VALUE TIME_MILLIS ... INT_8 ... UINT_64
 *   INTERVAL, DECIMAL(P,S) from scale/precision.
 * A crs is printed bare when it is made of letters, digits and _ : . / + -,
 * otherwise "double-quoted" with \" \\ \xHH escapes.
 *
 * The parser accepts all of these plus INT(bw,signed) and DECIMAL(P) (scale
 * 0), and always sets both LogicalType and the matching ConvertedType (with
 * scale/precision for DECIMAL): legacy names (UTF8, TIMESTAMP_MILLIS, INT_8,
 * ...) yield their LogicalType by the backward-compatibility table;
 * INTERVAL and MAP_KEY_VALUE set only the ConvertedType. Annotations that do
 * not fit their type are errors (writers should not produce them). Printing
 * the parse of canonical text gives the same text back.
 */
#include <stdio.h>

#include "core/hex.h"
#include "meta/schema.h"

/* ---- printing ---------------------------------------------------------- */

static bool name_byte_plain(uint8_t c) {
  if (c < 0x21 || c == 0x7f) return false;
  switch (c) {
    case ';':
    case '{':
    case '}':
    case '(':
    case ')':
    case '=':
    case ',':
    case '[':
    case ']':
    case '`':
    case '"': return false;
    default: return true;
  }
}

static bool name_needs_quotes(const uint8_t *p, size_t n) {
  if (n == 0 || p[0] == '#' || (n >= 2 && p[0] == '/' && p[1] == '/')) return true;
  for (size_t i = 0; i < n; i++)
    if (!name_byte_plain(p[i])) return true;
  return false;
}

static pqt_status append_quoted(pqt_buf *out, const uint8_t *p, size_t n, char q, pqt_error *err) {
  PQT_RETURN_NOT_OK(pqt_buf_append(out, &q, 1, err));
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    uint8_t c = p[i];
    bool ctl = c < 0x20 || c == 0x7f;
    if (!ctl && c != '\\' && c != (uint8_t)q) continue;
    PQT_RETURN_NOT_OK(pqt_buf_append(out, p + run, i - run, err));
    run = i + 1;
    if (c == (uint8_t)q && q == '`') {
      PQT_RETURN_NOT_OK(pqt_buf_append(out, "``", 2, err));
    } else if (c == (uint8_t)q || c == '\\') {
      char esc[2] = {'\\', (char)c};
      PQT_RETURN_NOT_OK(pqt_buf_append(out, esc, 2, err));
    } else {
      PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, "\\x%02x", c));
    }
  }
  PQT_RETURN_NOT_OK(pqt_buf_append(out, p + run, n - run, err));
  return pqt_buf_append(out, &q, 1, err);
}

static pqt_status append_name(pqt_buf *out, const char *name, size_t n, pqt_error *err) {
  const uint8_t *p = (const uint8_t *)name;
  if (!name_needs_quotes(p, n)) return pqt_buf_append(out, p, n, err);
  return append_quoted(out, p, n, '`', err);
}

static bool crs_plain(pqt_bytes b) {
  if (b.len <= 0) return false;
  for (int64_t i = 0; i < b.len; i++) {
    uint8_t c = b.ptr[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == ':' ||
              c == '.' || c == '/' || c == '+' || c == '-';
    if (!ok) return false;
  }
  return true;
}

static pqt_status append_crs(pqt_buf *out, pqt_bytes b, pqt_error *err) {
  if (crs_plain(b)) return pqt_buf_append(out, b.ptr, (size_t)b.len, err);
  return append_quoted(out, b.len > 0 ? b.ptr : (const uint8_t *)"", b.len > 0 ? (size_t)b.len : 0, '"', err);
}

static const char *const k_units[] = {"?", "MILLIS", "MICROS", "NANOS"};
static const char *const k_algos[] = {"SPHERICAL", "VINCENTY", "THOMAS", "ANDOYER", "KARNEY"};

static const char *unit_name(const pqt_time_unit *u) {
  int w = pqt_union_which(u->isset);
  return (w >= 1 && w <= 3 && (u->isset & (u->isset - 1)) == 0) ? k_units[w] : "?";
}

pqt_status pqt_schema_annotation_text(const pqt_schema_element *e, pqt_buf *out, pqt_error *err) {
  if (PQT_HAS_FIELD(e, schema_element, logical_type) && e->logical_type.isset != 0) {
    const pqt_logical_type *lt = &e->logical_type;
    switch (pqt_union_which(lt->isset)) {
      case PQT_LT_STRING: return pqt_buf_printf(out, err, "STRING");
      case PQT_LT_MAP: return pqt_buf_printf(out, err, "MAP");
      case PQT_LT_LIST: return pqt_buf_printf(out, err, "LIST");
      case PQT_LT_ENUM: return pqt_buf_printf(out, err, "ENUM");
      case PQT_LT_DECIMAL:
        return pqt_buf_printf(out, err, "DECIMAL(%d,%d)", (int)lt->decimal.precision, (int)lt->decimal.scale);
      case PQT_LT_DATE: return pqt_buf_printf(out, err, "DATE");
      case PQT_LT_TIME:
        return pqt_buf_printf(out, err, "TIME(%s,%s)", unit_name(&lt->time.unit),
                              lt->time.is_adjusted_to_utc ? "true" : "false");
      case PQT_LT_TIMESTAMP:
        return pqt_buf_printf(out, err, "TIMESTAMP(%s,%s)", unit_name(&lt->timestamp.unit),
                              lt->timestamp.is_adjusted_to_utc ? "true" : "false");
      case PQT_LT_INTEGER:
        return pqt_buf_printf(out, err, "INTEGER(%d,%s)", (int)lt->integer.bit_width,
                              lt->integer.is_signed ? "true" : "false");
      case PQT_LT_UNKNOWN: return pqt_buf_printf(out, err, "UNKNOWN");
      case PQT_LT_JSON: return pqt_buf_printf(out, err, "JSON");
      case PQT_LT_BSON: return pqt_buf_printf(out, err, "BSON");
      case PQT_LT_UUID: return pqt_buf_printf(out, err, "UUID");
      case PQT_LT_FLOAT16: return pqt_buf_printf(out, err, "FLOAT16");
      case PQT_LT_VECTOR: return pqt_buf_printf(out, err, "VECTOR");
      case PQT_LT_VARIANT:
        if (PQT_HAS_FIELD(&lt->variant, variant_type, specification_version))
          return pqt_buf_printf(out, err, "VARIANT(%d)", (int)lt->variant.specification_version);
        return pqt_buf_printf(out, err, "VARIANT");
      case PQT_LT_GEOMETRY:
        PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, "GEOMETRY"));
        if (!PQT_HAS_FIELD(&lt->geometry, geometry_type, crs)) return PQT_OK;
        PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, "("));
        PQT_RETURN_NOT_OK(append_crs(out, lt->geometry.crs, err));
        return pqt_buf_printf(out, err, ")");
      case PQT_LT_GEOGRAPHY: {
        const pqt_geography_type *g = &lt->geography;
        PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, "GEOGRAPHY"));
        if (!PQT_HAS_FIELD(g, geography_type, crs) && !PQT_HAS_FIELD(g, geography_type, algorithm)) return PQT_OK;
        PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, "("));
        if (PQT_HAS_FIELD(g, geography_type, crs)) PQT_RETURN_NOT_OK(append_crs(out, g->crs, err));
        if (PQT_HAS_FIELD(g, geography_type, algorithm)) {
          if (g->algorithm >= 0 && g->algorithm <= PQT_EDGE_KARNEY)
            PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, ",%s", k_algos[g->algorithm]));
          else PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, ",%d", (int)g->algorithm));
        }
        return pqt_buf_printf(out, err, ")");
      }
      default: break; /* a union member this version does not know */
    }
  }
  if (PQT_HAS_FIELD(e, schema_element, converted_type)) {
    int32_t ct = e->converted_type;
    if (ct == PQT_CT_DECIMAL && PQT_HAS_FIELD(e, schema_element, precision))
      return pqt_buf_printf(out, err, "DECIMAL(%d,%d)", (int)e->precision,
                            PQT_HAS_FIELD(e, schema_element, scale) ? (int)e->scale : 0);
    if (ct >= 0 && ct <= PQT_CT_INTERVAL) return pqt_buf_printf(out, err, "%s", pqt_converted_type_name(ct));
    return pqt_buf_printf(out, err, "ConvertedType(%d)", (int)ct);
  }
  return PQT_OK;
}

static const char *const k_prim_lower[] = {"boolean", "int32",  "int64",  "int96",
                                           "float",   "double", "binary", "fixed_len_byte_array"};
static const char *const k_rep_lower[] = {"required", "optional", "repeated", "vector"};

static pqt_status print_node_line(const pqt_schema_node *node, pqt_buf *out, pqt_error *err) {
  const pqt_schema_element *e = node->elem;
  PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, "%*s%s ", node->depth * 2, "", k_rep_lower[node->repetition]));
  if (!node->is_leaf) {
    PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, "group "));
  } else if (node->physical_type == PQT_FIXED_LEN_BYTE_ARRAY) {
    PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, "fixed_len_byte_array(%d) ", (int)node->type_length));
  } else {
    PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, "%s ", k_prim_lower[node->physical_type]));
  }
  PQT_RETURN_NOT_OK(append_name(out, node->name, node->name_len, err));
  if (node->repetition == PQT_VECTOR) PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, " [%d]", (int)node->vector_length));
  size_t before = out->len;
  PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, " ("));
  size_t mark = out->len;
  PQT_RETURN_NOT_OK(pqt_schema_annotation_text(e, out, err));
  if (out->len == mark) out->len = before;
  else PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, ")"));
  if (node->has_field_id) PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, " = %d", (int)node->field_id));
  return pqt_buf_printf(out, err, node->is_leaf ? ";\n" : " {\n");
}

pqt_status pqt_schema_to_text(const pqt_schema *s, pqt_buf *out, pqt_error *err) {
  if (!s || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_schema_to_text: NULL argument");
  PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, "message "));
  PQT_RETURN_NOT_OK(append_name(out, s->root->name, s->root->name_len, err));
  PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, " {\n"));
  /* Nodes are in depth-first order: before each node, close the groups that
   * are not its ancestors. */
  const pqt_schema_node *open = s->root; /* deepest open group */
  for (int32_t i = 1; i < s->n_nodes; i++) {
    const pqt_schema_node *node = &s->nodes[i];
    while (open != node->parent) {
      PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, "%*s}\n", open->depth * 2, ""));
      open = open->parent;
    }
    PQT_RETURN_NOT_OK(print_node_line(node, out, err));
    if (!node->is_leaf) open = node;
  }
  while (open) {
    PQT_RETURN_NOT_OK(pqt_buf_printf(out, err, "%*s}\n", open->depth * 2, ""));
    open = open->parent;
  }
  return PQT_OK;
}

/* ---- parsing ------------------------------------------------------------- */

typedef enum { T_EOF, T_WORD, T_QNAME, T_STRING, T_PUNCT } tok_type;

typedef struct tok {
  tok_type type;
  const char *p; /* raw text (word / punct) */
  size_t n;
  int line, col;
} tok;

typedef struct parser {
  const char *text;
  size_t len, pos;
  int line;
  size_t line_start;
  pqt_arena *arena;
  pqt_error *err;
  pqt_schema_element *elems;
  size_t n_elems, cap;
  const pqt_allocator *alloc;
} parser;

static pqt_status perr(parser *ps, const tok *t, const char *fmt, ...) PQT_PRINTF(3, 4);
static pqt_status perr(parser *ps, const tok *t, const char *fmt, ...) {
  char msg[384];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return pqt_error_set(ps->err, PQT_EINVAL, "schema text line %d, column %d: %s", t->line, t->col, msg);
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

static void skip_space(parser *ps) {
  while (ps->pos < ps->len) {
    char c = ps->text[ps->pos];
    if (is_space(c)) {
      if (c == '\n') {
        ps->line++;
        ps->line_start = ps->pos + 1;
      }
      ps->pos++;
    } else if (c == '#' || (c == '/' && ps->pos + 1 < ps->len && ps->text[ps->pos + 1] == '/')) {
      while (ps->pos < ps->len && ps->text[ps->pos] != '\n') ps->pos++;
    } else {
      break;
    }
  }
}

/* Read the next token. Quoted tokens keep their raw text (with quotes);
 * unquote() decodes them. */
static pqt_status next_tok(parser *ps, tok *t) {
  skip_space(ps);
  t->line = ps->line;
  t->col = (int)(ps->pos - ps->line_start) + 1;
  t->p = ps->text + ps->pos;
  t->n = 0;
  t->type = T_EOF; /* also on an error return: no caller reads a token left unset */
  if (ps->pos >= ps->len) {
    return PQT_OK;
  }
  char c = ps->text[ps->pos];
  if (c == '`' || c == '"') {
    size_t i = ps->pos + 1;
    for (;;) {
      if (i >= ps->len) return perr(ps, t, "unterminated %s", c == '`' ? "quoted name" : "string");
      char d = ps->text[i];
      if (d == '\n') return perr(ps, t, "line break inside a %s", c == '`' ? "quoted name" : "string");
      if (d == '\\') {
        i += 2;
        continue;
      }
      if (d == c) {
        if (c == '`' && i + 1 < ps->len && ps->text[i + 1] == '`') {
          i += 2;
          continue;
        }
        break;
      }
      i++;
    }
    t->type = c == '`' ? T_QNAME : T_STRING;
    t->n = i + 1 - ps->pos;
    ps->pos = i + 1;
    return PQT_OK;
  }
  if (!name_byte_plain((uint8_t)c)) {
    if ((uint8_t)c < 0x20 || c == 0x7f) return perr(ps, t, "unexpected control byte 0x%02x", (unsigned)(uint8_t)c);
    t->type = T_PUNCT;
    t->n = 1;
    ps->pos++;
    return PQT_OK;
  }
  size_t i = ps->pos;
  while (i < ps->len && name_byte_plain((uint8_t)ps->text[i])) i++;
  t->type = T_WORD;
  t->n = i - ps->pos;
  ps->pos = i;
  return PQT_OK;
}

static bool tok_is(const tok *t, const char *s) {
  size_t n = strlen(s);
  if (t->type != T_WORD || t->n != n) return false;
  for (size_t i = 0; i < n; i++) {
    char a = t->p[i], b = s[i];
    if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
    if (b >= 'A' && b <= 'Z') b = (char)(b - 'A' + 'a');
    if (a != b) return false;
  }
  return true;
}

static bool tok_punct(const tok *t, char c) { return t->type == T_PUNCT && t->p[0] == c; }

static pqt_status expect_punct(parser *ps, tok *t, char c, const char *what) {
  PQT_RETURN_NOT_OK(next_tok(ps, t));
  if (!tok_punct(t, c))
    return perr(ps, t, "expected '%c' %s, found %s%.*s%s", c, what, t->type == T_EOF ? "the end of the text" : "'",
                (int)(t->n > 40 ? 40 : t->n), t->p, t->type == T_EOF ? "" : "'");
  return PQT_OK;
}

/* Decode a word or quoted token into arena bytes. */
static pqt_status tok_bytes(parser *ps, const tok *t, pqt_bytes *out) {
  if (t->type == T_WORD) {
    char *c = pqt_arena_strdup(ps->arena, t->p, t->n);
    if (!c) return pqt_nomem(ps->err);
    out->ptr = (const uint8_t *)c;
    out->len = (int64_t)t->n;
    return PQT_OK;
  }
  char q = t->p[0];
  char *buf = pqt_arena_alloc(ps->arena, t->n);
  if (!buf) return pqt_nomem(ps->err);
  size_t o = 0;
  for (size_t i = 1; i + 1 < t->n; i++) {
    char c = t->p[i];
    if (c == q) {
      buf[o++] = q;
      i++;
      continue;
    } /* `` inside a quoted name */
    if (c != '\\') {
      buf[o++] = c;
      continue;
    }
    char d = t->p[++i];
    if (d == 'x') {
      int h = i + 2 < t->n ? pqt_hex_digit(t->p[i + 1]) : -1;
      int l = i + 2 < t->n ? pqt_hex_digit(t->p[i + 2]) : -1;
      if (h < 0 || l < 0) return perr(ps, t, "bad \\x escape (two hex digits expected)");
      buf[o++] = (char)(h * 16 + l);
      i += 2;
    } else if (d == '\\' || d == '"' || d == '`') {
      buf[o++] = d;
    } else {
      return perr(ps, t, "unknown escape '\\%c'", d);
    }
  }
  out->ptr = (const uint8_t *)buf;
  out->len = (int64_t)o;
  return PQT_OK;
}

static pqt_status parse_name(parser *ps, tok *t, pqt_bytes *out) {
  PQT_RETURN_NOT_OK(next_tok(ps, t));
  if (t->type != T_WORD && t->type != T_QNAME)
    return perr(ps, t, "expected a name, found %s%.*s%s", t->type == T_EOF ? "the end of the text" : "'",
                (int)(t->n > 40 ? 40 : t->n), t->p, t->type == T_EOF ? "" : "'");
  return tok_bytes(ps, t, out);
}

static pqt_status parse_int(parser *ps, tok *t, int32_t *v, const char *what) {
  PQT_RETURN_NOT_OK(next_tok(ps, t));
  if (t->type != T_WORD) return perr(ps, t, "expected %s", what);
  size_t i = 0;
  bool neg = false;
  if (t->p[0] == '-' || t->p[0] == '+') {
    neg = t->p[0] == '-';
    i = 1;
  }
  if (i == t->n) return perr(ps, t, "expected %s", what);
  int64_t x = 0;
  for (; i < t->n; i++) {
    char c = t->p[i];
    if (c < '0' || c > '9') return perr(ps, t, "expected %s, found '%.*s'", what, (int)(t->n > 40 ? 40 : t->n), t->p);
    x = x * 10 + (c - '0');
    if (x > (int64_t)INT32_MAX + 1) return perr(ps, t, "%s out of range", what);
  }
  if (neg) x = -x;
  if (x > INT32_MAX || x < INT32_MIN) return perr(ps, t, "%s out of range", what);
  *v = (int32_t)x;
  return PQT_OK;
}

#define MAX_ARGS 4
typedef struct ann_args {
  tok a[MAX_ARGS];
  int n;
} ann_args;

static pqt_status parse_bool(parser *ps, const tok *t, bool *b) {
  if (tok_is(t, "true")) {
    *b = true;
    return PQT_OK;
  }
  if (tok_is(t, "false")) {
    *b = false;
    return PQT_OK;
  }
  return perr(ps, t, "expected true or false");
}

static pqt_status parse_unit(parser *ps, const tok *t, pqt_time_unit *u) {
  for (int k = 1; k <= 3; k++)
    if (tok_is(t, k_units[k])) {
      u->isset = 1u << k;
      return PQT_OK;
    }
  return perr(ps, t, "expected a time unit (MILLIS, MICROS or NANOS)");
}

static pqt_status int_arg(parser *ps, const tok *t, int32_t *v, const char *what) {
  /* Re-tokenize one word as an integer. */
  parser sub = *ps;
  sub.text = t->p;
  sub.len = t->n;
  sub.pos = 0;
  sub.line = t->line;
  sub.line_start = 0;
  tok tt;
  pqt_status st = parse_int(&sub, &tt, v, what);
  if (st != PQT_OK) return perr(ps, t, "expected %s", what);
  return PQT_OK;
}

static const struct {
  const char *name;
  int32_t ct;
} k_legacy[] = {
    {"UTF8", PQT_CT_UTF8},
    {"MAP_KEY_VALUE", PQT_CT_MAP_KEY_VALUE},
    {"TIME_MILLIS", PQT_CT_TIME_MILLIS},
    {"TIME_MICROS", PQT_CT_TIME_MICROS},
    {"TIMESTAMP_MILLIS", PQT_CT_TIMESTAMP_MILLIS},
    {"TIMESTAMP_MICROS", PQT_CT_TIMESTAMP_MICROS},
    {"UINT_8", PQT_CT_UINT_8},
    {"UINT_16", PQT_CT_UINT_16},
    {"UINT_32", PQT_CT_UINT_32},
    {"UINT_64", PQT_CT_UINT_64},
    {"INT_8", PQT_CT_INT_8},
    {"INT_16", PQT_CT_INT_16},
    {"INT_32", PQT_CT_INT_32},
    {"INT_64", PQT_CT_INT_64},
    {"INTERVAL", PQT_CT_INTERVAL},
};

static const struct {
  const char *name;
  int lt;
} k_simple[] = {
    {"STRING", PQT_LT_STRING},   {"MAP", PQT_LT_MAP},         {"LIST", PQT_LT_LIST},     {"ENUM", PQT_LT_ENUM},
    {"DATE", PQT_LT_DATE},       {"JSON", PQT_LT_JSON},       {"BSON", PQT_LT_BSON},     {"UUID", PQT_LT_UUID},
    {"FLOAT16", PQT_LT_FLOAT16}, {"UNKNOWN", PQT_LT_UNKNOWN}, {"VECTOR", PQT_LT_VECTOR},
};

/* After "(" of an annotation: NAME [ "(" args ")" ] ")". Fills e. */
static pqt_status parse_annotation(parser *ps, pqt_schema_element *e, bool is_group, tok *name_tok) {
  tok t;
  PQT_RETURN_NOT_OK(next_tok(ps, name_tok));
  if (name_tok->type != T_WORD) return perr(ps, name_tok, "expected an annotation name");
  ann_args args = {.n = 0}; /* all zero: a tok_is on a parameter not given reads T_EOF */
  args.n = 0;
  bool has_args = false;
  PQT_RETURN_NOT_OK(next_tok(ps, &t));
  if (tok_punct(&t, '(')) {
    has_args = true;
    for (;;) {
      PQT_RETURN_NOT_OK(next_tok(ps, &t));
      if (args.n == MAX_ARGS) return perr(ps, &t, "too many annotation parameters");
      if (tok_punct(&t, ',') || tok_punct(&t, ')')) {
        /* an empty parameter */
        args.a[args.n] = t;
        args.a[args.n].type = T_EOF;
        args.a[args.n].n = 0;
        args.n++;
      } else if (t.type == T_WORD || t.type == T_STRING) {
        args.a[args.n++] = t;
        PQT_RETURN_NOT_OK(next_tok(ps, &t));
      } else {
        return perr(ps, &t, "expected an annotation parameter");
      }
      if (tok_punct(&t, ')')) break;
      if (!tok_punct(&t, ',')) return perr(ps, &t, "expected ',' or ')' in annotation parameters");
    }
    PQT_RETURN_NOT_OK(next_tok(ps, &t));
  }
  if (!tok_punct(&t, ')')) return perr(ps, &t, "expected ')' to close the annotation");

  const tok *nt = name_tok;
  pqt_logical_type *lt = &e->logical_type;
  memset(lt, 0, sizeof *lt);
  int32_t legacy = -1;
  bool done = false;
#define NEED_ARGS(lo, hi)                                                                                   \
  do {                                                                                                      \
    if (args.n < (lo) || args.n > (hi))                                                                     \
      return perr(ps, nt, "%.*s takes %d to %d parameters, got %d", (int)nt->n, nt->p, (lo), (hi), args.n); \
    for (int a_ = 0; a_ < args.n && a_ < (lo); a_++)                                                        \
      if (args.a[a_].type == T_EOF) return perr(ps, &args.a[a_], "missing parameter");                      \
  } while (0)

  for (size_t k = 0; k < sizeof k_simple / sizeof k_simple[0] && !done; k++) {
    if (!tok_is(nt, k_simple[k].name)) continue;
    NEED_ARGS(0, 0);
    PQT_SET(lt, k_simple[k].lt);
    done = true;
  }
  for (size_t k = 0; k < sizeof k_legacy / sizeof k_legacy[0] && !done; k++) {
    if (!tok_is(nt, k_legacy[k].name)) continue;
    NEED_ARGS(0, 0);
    legacy = k_legacy[k].ct;
    done = true;
  }
  if (done) {
    (void)has_args;
  } else if (tok_is(nt, "DECIMAL")) {
    NEED_ARGS(1, 2);
    int32_t p, s = 0;
    PQT_RETURN_NOT_OK(int_arg(ps, &args.a[0], &p, "a precision"));
    if (args.n > 1) {
      if (args.a[1].type == T_EOF) return perr(ps, &args.a[1], "missing scale");
      PQT_RETURN_NOT_OK(int_arg(ps, &args.a[1], &s, "a scale"));
    }
    PQT_SET_FIELD(lt, logical_type, decimal);
    lt->decimal.isset = PQT_FIELD_MASK(decimal_type, scale, precision);
    lt->decimal.precision = p;
    lt->decimal.scale = s;
  } else if (tok_is(nt, "TIME") || tok_is(nt, "TIMESTAMP")) {
    NEED_ARGS(2, 2);
    bool is_time = tok_is(nt, "TIME");
    pqt_time_type *tt = is_time ? &lt->time : &lt->timestamp;
    PQT_SET(lt, is_time ? PQT_LT_TIME : PQT_LT_TIMESTAMP);
    tt->isset = PQT_FIELD_MASK(time_type, is_adjusted_to_utc, unit);
    PQT_RETURN_NOT_OK(parse_unit(ps, &args.a[0], &tt->unit));
    PQT_RETURN_NOT_OK(parse_bool(ps, &args.a[1], &tt->is_adjusted_to_utc));
  } else if (tok_is(nt, "INTEGER") || tok_is(nt, "INT")) {
    NEED_ARGS(2, 2);
    int32_t bw;
    PQT_RETURN_NOT_OK(int_arg(ps, &args.a[0], &bw, "a bit width"));
    if (bw != 8 && bw != 16 && bw != 32 && bw != 64)
      return perr(ps, &args.a[0], "INTEGER bit width must be 8, 16, 32 or 64");
    PQT_SET_FIELD(lt, logical_type, integer);
    lt->integer.isset = PQT_FIELD_MASK(int_type, bit_width, is_signed);
    lt->integer.bit_width = (int8_t)bw;
    PQT_RETURN_NOT_OK(parse_bool(ps, &args.a[1], &lt->integer.is_signed));
  } else if (tok_is(nt, "VARIANT")) {
    NEED_ARGS(0, 1);
    PQT_SET_FIELD(lt, logical_type, variant);
    if (args.n == 1) {
      int32_t v;
      PQT_RETURN_NOT_OK(int_arg(ps, &args.a[0], &v, "a specification version"));
      if (v < -128 || v > 127) return perr(ps, &args.a[0], "specification version out of range");
      lt->variant.isset = PQT_FIELD_MASK(variant_type, specification_version);
      lt->variant.specification_version = (int8_t)v;
    }
  } else if (tok_is(nt, "GEOMETRY") || tok_is(nt, "GEOGRAPHY")) {
    bool geo = tok_is(nt, "GEOGRAPHY");
    if (geo) NEED_ARGS(0, 2);
    else NEED_ARGS(0, 1);
    PQT_SET(lt, geo ? PQT_LT_GEOGRAPHY : PQT_LT_GEOMETRY);
    if (args.n >= 1 && args.a[0].type != T_EOF) {
      pqt_bytes crs;
      PQT_RETURN_NOT_OK(tok_bytes(ps, &args.a[0], &crs));
      if (geo) {
        lt->geography.crs = crs;
        PQT_SET_FIELD(&lt->geography, geography_type, crs);
      } else {
        lt->geometry.crs = crs;
        PQT_SET_FIELD(&lt->geometry, geometry_type, crs);
      }
    }
    if (args.n == 2) {
      int a = -1;
      for (int k = 0; k <= PQT_EDGE_KARNEY; k++)
        if (tok_is(&args.a[1], k_algos[k])) a = k;
      if (a < 0) return perr(ps, &args.a[1], "unknown edge interpolation algorithm");
      lt->geography.algorithm = a;
      PQT_SET_FIELD(&lt->geography, geography_type, algorithm);
    }
  } else {
    return perr(ps, nt, "unknown annotation '%.*s'", (int)(nt->n > 40 ? 40 : nt->n), nt->p);
  }
#undef NEED_ARGS

  /* Set both annotations, then check they fit the type. */
  const char *why = NULL;
  bool fits;
  int32_t phys = PQT_HAS_FIELD(e, schema_element, type) ? e->type : -1;
  int32_t tl = PQT_HAS_FIELD(e, schema_element, type_length) ? e->type_length : -1;
  if (legacy >= 0) {
    e->converted_type = legacy;
    PQT_SET_FIELD(e, schema_element, converted_type);
    pqt_logical_type from;
    if (pqt_converted_to_logical(legacy, false, 0, false, 0, &from)) {
      *lt = from;
      PQT_SET_FIELD(e, schema_element, logical_type);
    }
    fits = pqt_converted_type_fits(legacy, is_group, phys, tl, false, 0, 0, &why);
  } else {
    PQT_SET_FIELD(e, schema_element, logical_type);
    pqt_element_set_converted(e, lt);
    fits = pqt_logical_type_fits(lt, is_group, phys, tl, &why);
  }
  if (!fits)
    return perr(ps, nt, "annotation %.*s does not fit this %s: %s", (int)(nt->n > 40 ? 40 : nt->n), nt->p,
                is_group ? "group" : "type", why);
  return PQT_OK;
}

static pqt_status push_elem(parser *ps, pqt_schema_element **out) {
  if (ps->n_elems == ps->cap) {
    size_t ncap = ps->cap ? ps->cap * 2 : 64;
    if (ncap > (size_t)INT32_MAX) return pqt_error_set(ps->err, PQT_ELIMIT, "schema text: too many fields");
    size_t old_b = ps->cap * sizeof *ps->elems, new_b = ncap * sizeof *ps->elems;
    pqt_schema_element *p = pqt_mem_realloc(ps->alloc, ps->elems, old_b, new_b);
    if (!p) return pqt_nomem(ps->err);
    ps->elems = p;
    ps->cap = ncap;
  }
  *out = &ps->elems[ps->n_elems++];
  memset(*out, 0, sizeof **out);
  return PQT_OK;
}

static const char *const k_prim_kw[] = {"boolean", "int32", "int64", "int96", "float", "double", "binary"};

static pqt_status parse_fields(parser *ps) {
  size_t stack[PQT_SCHEMA_MAX_DEPTH + 1];
  int sp = 0;
  tok t;
  pqt_schema_element *e;

  PQT_RETURN_NOT_OK(next_tok(ps, &t));
  if (!tok_is(&t, "message")) return perr(ps, &t, "expected 'message'");
  PQT_RETURN_NOT_OK(push_elem(ps, &e));
  PQT_RETURN_NOT_OK(parse_name(ps, &t, &e->name));
  PQT_SET_FIELD(e, schema_element, name);
  PQT_SET_FIELD(e, schema_element, num_children);
  PQT_RETURN_NOT_OK(expect_punct(ps, &t, '{', "after the message name"));
  stack[sp++] = 0;

  while (sp > 0) {
    PQT_RETURN_NOT_OK(next_tok(ps, &t));
    if (tok_punct(&t, '}')) {
      size_t gi = stack[--sp];
      if (gi != 0 && ps->elems[gi].num_children == 0)
        return perr(ps, &t, "group \"%.*s\" has no fields", (int)ps->elems[gi].name.len,
                    (const char *)ps->elems[gi].name.ptr);
      if (sp > 0) {
        /* optional ';' after a group */
        size_t save = ps->pos, save_ls = ps->line_start;
        int save_line = ps->line;
        tok t2;
        PQT_RETURN_NOT_OK(next_tok(ps, &t2));
        if (!tok_punct(&t2, ';')) {
          ps->pos = save;
          ps->line = save_line;
          ps->line_start = save_ls;
        }
      }
      continue;
    }
    if (t.type == T_EOF) return perr(ps, &t, "the text ends inside a group (missing '}')");
    int32_t rep = -1;
    for (int k = 0; k <= PQT_VECTOR; k++)
      if (tok_is(&t, k_rep_lower[k])) rep = k;
    if (rep < 0)
      return perr(ps, &t,
                  "expected a repetition (required, optional, repeated or vector) or '}'"
                  ", found '%.*s'",
                  (int)(t.n > 40 ? 40 : t.n), t.p);
    size_t parent = stack[sp - 1];
    if (ps->elems[parent].num_children == INT32_MAX) return perr(ps, &t, "too many fields");
    ps->elems[parent].num_children++;
    PQT_RETURN_NOT_OK(push_elem(ps, &e));
    size_t ei = ps->n_elems - 1;
    e->repetition_type = rep;
    PQT_SET_FIELD(e, schema_element, repetition_type);

    PQT_RETURN_NOT_OK(next_tok(ps, &t));
    bool is_group = tok_is(&t, "group");
    if (!is_group) {
      int32_t phys = -1;
      for (int k = 0; k < 7; k++)
        if (tok_is(&t, k_prim_kw[k])) phys = k;
      if (tok_is(&t, "fixed_len_byte_array")) {
        tok t2;
        PQT_RETURN_NOT_OK(expect_punct(ps, &t2, '(', "after fixed_len_byte_array"));
        int32_t n;
        PQT_RETURN_NOT_OK(parse_int(ps, &t2, &n, "a byte length"));
        if (n <= 0) return perr(ps, &t2, "fixed_len_byte_array length must be positive");
        PQT_RETURN_NOT_OK(expect_punct(ps, &t2, ')', "after the length"));
        phys = PQT_FIXED_LEN_BYTE_ARRAY;
        e->type_length = n;
        PQT_SET_FIELD(e, schema_element, type_length);
      }
      if (phys < 0)
        return perr(ps, &t, "expected 'group' or a primitive type, found '%.*s'", (int)(t.n > 40 ? 40 : t.n), t.p);
      e->type = phys;
      PQT_SET_FIELD(e, schema_element, type);
    }
    PQT_RETURN_NOT_OK(parse_name(ps, &t, &e->name));
    PQT_SET_FIELD(e, schema_element, name);
    tok name_tok = t;

    PQT_RETURN_NOT_OK(next_tok(ps, &t));
    if (tok_punct(&t, '[')) {
      if (rep != PQT_VECTOR) return perr(ps, &t, "'[N]' is only allowed with vector repetition");
      int32_t vl;
      PQT_RETURN_NOT_OK(parse_int(ps, &t, &vl, "a vector length"));
      if (vl <= 0) return perr(ps, &t, "vector length must be positive");
      e->vector_length = vl;
      PQT_SET_FIELD(e, schema_element, vector_length);
      PQT_RETURN_NOT_OK(expect_punct(ps, &t, ']', "after the vector length"));
      PQT_RETURN_NOT_OK(next_tok(ps, &t));
    } else if (rep == PQT_VECTOR) {
      return perr(ps, &name_tok, "vector repetition needs a length: name [N]");
    }
    if (tok_punct(&t, '(')) {
      tok ann;
      PQT_RETURN_NOT_OK(parse_annotation(ps, e, is_group, &ann));
      PQT_RETURN_NOT_OK(next_tok(ps, &t));
    }
    if (tok_punct(&t, '=')) {
      PQT_RETURN_NOT_OK(parse_int(ps, &t, &e->field_id, "a field id"));
      PQT_SET_FIELD(e, schema_element, field_id);
      PQT_RETURN_NOT_OK(next_tok(ps, &t));
    }
    if (is_group) {
      if (!tok_punct(&t, '{'))
        return perr(ps, &t, "expected '{' to open group \"%.*s\"", (int)e->name.len, (const char *)e->name.ptr);
      if (sp > PQT_SCHEMA_MAX_DEPTH - 1) return perr(ps, &t, "nesting deeper than %d levels", PQT_SCHEMA_MAX_DEPTH);
      PQT_SET_FIELD(e, schema_element, num_children);
      e->num_children = 0;
      stack[sp++] = ei;
    } else if (!tok_punct(&t, ';')) {
      return perr(ps, &t, "expected ';' after field \"%.*s\"", (int)e->name.len, (const char *)e->name.ptr);
    }
  }
  PQT_RETURN_NOT_OK(next_tok(ps, &t));
  if (t.type != T_EOF) return perr(ps, &t, "unexpected text after the message");
  return PQT_OK;
}

pqt_status pqt_schema_parse(const char *text, size_t len, pqt_arena *arena, pqt_schema_element **elems_out,
                            int32_t *n_out, pqt_error *err) {
  if ((!text && len) || !arena || !elems_out || !n_out)
    return pqt_error_set(err, PQT_EINVAL, "pqt_schema_parse: NULL argument");
  parser ps;
  memset(&ps, 0, sizeof ps);
  ps.text = text ? text : "";
  ps.len = len;
  ps.line = 1;
  ps.arena = arena;
  ps.err = err;
  ps.alloc = pqt_alloc_or_default(arena->alloc);
  pqt_status st = parse_fields(&ps);
  if (st == PQT_OK) {
    pqt_schema_element *out = pqt_arena_array(arena, ps.n_elems, sizeof *out);
    if (!out) {
      st = pqt_nomem(err);
    } else {
      memcpy(out, ps.elems, ps.n_elems * sizeof *out);
      *elems_out = out;
      *n_out = (int32_t)ps.n_elems;
    }
  }
  pqt_mem_free(ps.alloc, ps.elems, ps.cap * sizeof *ps.elems);
  return st;
}
