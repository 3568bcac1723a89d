/*
 * fuzz_cli_text: the CLI's readers of the library's text (cli/text_parse.c),
 * whose names and values come from files. Byte 0 chooses:
 *   0: schema text (the rest, up to a 0 byte) cut to projected names (after
 *      it, separated by 0 bytes): NULL, or lines of the input in order.
 *   1: a JSON Lines row split into fields: spans inside the input, in order,
 *      not overlapping; each found again by its key.
 *   2: JSON Lines or CSV (byte 1) records picked (every other one) from the
 *      text fed in pieces whose sizes come from byte 2: the same output as
 *      fed at once; never more bytes than the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/text_parse.c"

#define CHECK(c)       \
  do {                 \
    if (!(c)) abort(); \
  } while (0)

typedef struct sink {
  char *data;
  size_t len, cap;
} sink;

static pqt_status to_sink(void *ctx, const char *data, size_t len) {
  sink *s = ctx;
  if (s->len + len > s->cap) {
    size_t cap = s->cap ? s->cap : 64;
    while (cap < s->len + len) cap *= 2;
    char *p = realloc(s->data, cap);
    if (!p) return PQT_ENOMEM;
    s->data = p;
    s->cap = cap;
  }
  memcpy(s->data + s->len, data, len);
  s->len += len;
  return PQT_OK;
}

static bool every_other(void *kctx, int64_t record) {
  (void)kctx;
  return record % 2 == 0;
}

static void project(const uint8_t *data, size_t size) {
  size_t tl = strnlen((const char *)data, size);
  char *text = malloc(tl + 1);
  if (!text) return;
  memcpy(text, data, tl);
  text[tl] = 0;
  /* the names: 0-separated after the text */
  const char *names[8];
  char *copies[8];
  int32_t n = 0;
  size_t i = tl + 1;
  while (i < size && n < 8) {
    size_t l = strnlen((const char *)data + i, size - i);
    copies[n] = malloc(l + 1);
    if (!copies[n]) break;
    memcpy(copies[n], data + i, l);
    copies[n][l] = 0;
    names[n] = copies[n];
    n++;
    i += l + 1;
  }
  char *out = schema_text_project(text, names, n);
  if (out) {
    /* every output line is an input line, in order */
    const char *in = text;
    for (const char *o = out; *o;) {
      size_t ol = strcspn(o, "\n");
      bool found = false;
      while (*in && !found) {
        size_t il = strcspn(in, "\n");
        found = il == ol && memcmp(in, o, ol) == 0;
        in += il + (in[il] == '\n');
      }
      CHECK(found);
      o += ol + (o[ol] == '\n');
    }
    free(out);
  }
  for (int32_t k = 0; k < n; k++) free(copies[k]);
  free(text);
}

static void split(const uint8_t *data, size_t size) {
  row_fields f = {NULL, 0, 0};
  const char *s = (const char *)data;
  if (json_row_split(s, size, &f)) {
    const char *end = s;
    for (size_t i = 0; i < f.n; i++) {
      const field_span *x = &f.items[i];
      CHECK(x->key >= end && x->key + x->key_len <= x->value && x->value + x->value_len <= s + size);
      end = x->value + x->value_len;
      const field_span *y = json_row_field(&f, x);
      CHECK(y && y->key_len == x->key_len && memcmp(y->key, x->key, x->key_len) == 0);
    }
  }
  free(f.items);
}

static void pick(const uint8_t *data, size_t size) {
  if (size < 2) return;
  pqt_text_format fmt = data[0] & 1 ? PQT_TEXT_CSV : PQT_TEXT_JSONL;
  size_t step = 1 + data[1] % 17;
  data += 2;
  size -= 2;
  sink whole = {NULL, 0, 0}, pieces = {NULL, 0, 0};
  text_select t;
  text_select_init(&t, fmt, to_sink, &whole, every_other, NULL);
  pqt_status a = text_select_write(&t, (const char *)data, size);
  text_select_init(&t, fmt, to_sink, &pieces, every_other, NULL);
  pqt_status b = PQT_OK;
  for (size_t i = 0; i < size && b == PQT_OK; i += step)
    b = text_select_write(&t, (const char *)data + i, size - i < step ? size - i : step);
  if (a == PQT_OK && b == PQT_OK) {
    CHECK(whole.len == pieces.len && (whole.len == 0 || memcmp(whole.data, pieces.data, whole.len) == 0));
    CHECK(whole.len <= size);
  }
  free(whole.data);
  free(pieces.data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  switch (data[0] % 3) {
    case 0: project(data + 1, size - 1); break;
    case 1: split(data + 1, size - 1); break;
    default: pick(data + 1, size - 1); break;
  }
  return 0;
}
