/*
 * tests/cli/test_convert_parsers.c: convert's CSV and JSON Lines parsers,
 * inference and value checks (the cli parser sources are built in, see CMakeLists), and the
 * fuzz_convert seed corpus replayed through the fuzz target's own code.
 */
#include <dirent.h>

#include "harness.h"

#include "../../cli/convert.h"

#define LLVMFuzzerTestOneInput pqt_fuzz_entry_convert
#include "../../fuzz/fuzz_convert.c"

typedef struct parsed {
  cv_input *in;
  cv_bytes b;
  cv_csv c;
  cv_json j;
  cv_record r;
  char err[CV_ERR];
} parsed;

static void open_text(parsed *p, const char *text, bool json) {
  memset(p, 0, sizeof *p);
  CHECK(cv_input_open_memory(&p->in, text, strlen(text), p->err) == 0);
  cv_bytes_init(&p->b, p->in, false);
  p->c = (cv_csv){&p->b, {',', '"', NULL}, false};
  p->j.b = &p->b;
  (void)json;
}

static void close_text(parsed *p) {
  cv_record_free(&p->r);
  cv_json_free(&p->j);
  cv_input_close(p->in);
}

static bool field_is(const cv_record *r, int i, const char *want, cv_kind k) {
  return i < r->nf && r->f[i].kind == k && r->f[i].len == strlen(want) &&
         memcmp(r->data + r->f[i].off, want, r->f[i].len) == 0;
}

static void test_csv_records(void) {
  parsed p;
  open_text(&p,
            "\xef\xbb\xbf"
            "a,b,c\r\n1,\"x,\"\"y\"\"\",\n\"multi\nline\",,\"\"\n",
            false);
  CHECK_EQ_INT(cv_csv_next(&p.c, &p.r, p.err), 1);
  CHECK(field_is(&p.r, 0, "a", CV_TEXT)); /* the BOM is not part of the name */
  CHECK_EQ_INT(p.r.nf, 3);
  CHECK_EQ_INT(cv_csv_next(&p.c, &p.r, p.err), 1);
  CHECK_EQ_INT(p.r.line, 2);
  CHECK(field_is(&p.r, 1, "x,\"y\"", CV_TEXT));
  CHECK(field_is(&p.r, 2, "", CV_NULL));
  CHECK_EQ_INT(cv_csv_next(&p.c, &p.r, p.err), 1);
  CHECK_EQ_INT(p.r.line, 3);
  CHECK(field_is(&p.r, 0, "multi\nline", CV_TEXT));
  CHECK(field_is(&p.r, 1, "", CV_NULL));
  CHECK(field_is(&p.r, 2, "", CV_QUOTED)); /* "" is an empty string, not null */
  CHECK_EQ_INT(cv_csv_next(&p.c, &p.r, p.err), 0);
  close_text(&p);

  open_text(&p, "a\n\"x\"y\n", false);
  CHECK_EQ_INT(cv_csv_next(&p.c, &p.r, p.err), 1);
  CHECK_EQ_INT(cv_csv_next(&p.c, &p.r, p.err), -1);
  CHECK_MSG(strstr(p.err, "line 2, column 1: text after the closing quote") != NULL, "%s", p.err);
  close_text(&p);

  open_text(&p, "a\n\xff\n", false);
  CHECK_EQ_INT(cv_csv_next(&p.c, &p.r, p.err), 1);
  CHECK_EQ_INT(cv_csv_next(&p.c, &p.r, p.err), -1);
  CHECK_MSG(strstr(p.err, "line 2, column 1, byte offset 2: not valid UTF-8") != NULL, "%s", p.err);
  close_text(&p);
}

static void test_json_lines(void) {
  parsed p;
  const char *keys;
  open_text(
      &p,
      "{\"a\": 1, \"b\":\"\\u00e9\\ud83d\\ude00\", \"c\": [1, {\"d\": null}], \"e\": false, \"f\": null}\n\n  \n{}\n",
      true);
  CHECK_EQ_INT(cv_json_next(&p.j, &p.r, &keys, p.err), 1);
  CHECK_EQ_INT(p.r.nf, 5);
  CHECK(field_is(&p.r, 0, "1", CV_JSON_NUMBER));
  CHECK(field_is(&p.r, 1, "\xc3\xa9\xf0\x9f\x98\x80", CV_QUOTED));
  CHECK(field_is(&p.r, 2, "[1, {\"d\": null}]", CV_JSON_NESTED));
  CHECK(field_is(&p.r, 3, "false", CV_JSON_BOOL));
  CHECK_EQ_INT(p.r.f[4].kind, CV_NULL);
  CHECK_EQ_STR(keys, "a");
  CHECK_EQ_INT(cv_json_next(&p.j, &p.r, &keys, p.err), 1); /* blank lines skipped */
  CHECK_EQ_INT(p.r.line, 4);
  CHECK_EQ_INT(p.r.nf, 0);
  CHECK_EQ_INT(cv_json_next(&p.j, &p.r, &keys, p.err), 0);
  close_text(&p);

  static const struct {
    const char *line, *msg;
  } bad[] = {
      {"{\"a\":01}", "position 7"},
      {"{\"a\":1,}", "expected a key"},
      {"[1]", "must be a JSON object"},
      {"{\"a\":\"\\ud800x\"}", "surrogate"},
      {"{\"a\":1} x", "text after the object"},
      {"{\"a\":tru}", "bad value"},
      {"{\"a\":1,\"a\":2}", "given twice"},
      {"{\"a\":\"\x01\"}", "control character"},
      {"{\"a\":1.}", "bad number"},
      {"{\"a\":[1,2}", "expected ',' or ']'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cv_json j = {0};
    cv_record r = {0};
    char err[CV_ERR];
    CHECK_EQ_INT(cv_json_parse_line(&j, bad[i].line, strlen(bad[i].line), 7, 0, &r, err), -1);
    CHECK_MSG(strstr(err, "line 7, position") && strstr(err, bad[i].msg), "%s: %s", bad[i].line, err);
    cv_json_free(&j);
    cv_record_free(&r);
  }
}

static cv_type infer_of(const char *const *vals, cv_kind k) {
  cv_infer s;
  cv_infer_init(&s);
  for (; *vals; vals++) cv_infer_add(&s, *vals, strlen(*vals), k);
  return cv_infer_result(&s);
}

static void test_inference(void) {
  CHECK_EQ_INT(infer_of((const char *[]){"1", "-2", "9223372036854775807", NULL}, CV_TEXT), CV_T_INT64);
  CHECK_EQ_INT(infer_of((const char *[]){"1", "00123", NULL}, CV_TEXT), CV_T_STRING);
  CHECK_EQ_INT(infer_of((const char *[]){"+1", NULL}, CV_TEXT), CV_T_STRING);
  CHECK_EQ_INT(infer_of((const char *[]){"1", "1e5", NULL}, CV_TEXT), CV_T_STRING);
  CHECK_EQ_INT(infer_of((const char *[]){"9223372036854775808", NULL}, CV_TEXT), CV_T_STRING);
  CHECK_EQ_INT(infer_of((const char *[]){"-0", NULL}, CV_TEXT), CV_T_STRING);
  CHECK_EQ_INT(infer_of((const char *[]){"1", "2.5", NULL}, CV_TEXT), CV_T_DOUBLE);
  CHECK_EQ_INT(infer_of((const char *[]){"9007199254740993", "2.5", NULL}, CV_TEXT), CV_T_STRING);
  CHECK_EQ_INT(infer_of((const char *[]){"0.8874023119893687", "0.30000000000000004", NULL}, CV_TEXT), CV_T_DOUBLE);
  CHECK_EQ_INT(infer_of((const char *[]){"0.10000000000000001", NULL}, CV_TEXT), CV_T_STRING); /* reads back as 0.1 */
  CHECK_EQ_INT(infer_of((const char *[]){"0.12345678901234567", NULL}, CV_TEXT),
               CV_T_STRING); /* not a double's digits */
  CHECK_EQ_INT(infer_of((const char *[]){"0.123456789012345678", NULL}, CV_TEXT), CV_T_STRING);
  CHECK_EQ_INT(infer_of((const char *[]){"7", NULL}, CV_QUOTED), CV_T_STRING); /* a JSON string */
  CHECK_EQ_INT(infer_of((const char *[]){"TRUE", "false", NULL}, CV_TEXT), CV_T_BOOL);
  CHECK_EQ_INT(infer_of((const char *[]){"2024-02-29", NULL}, CV_QUOTED), CV_T_DATE);
  CHECK_EQ_INT(infer_of((const char *[]){"2023-02-29", NULL}, CV_TEXT), CV_T_STRING);
  CHECK_EQ_INT(infer_of((const char *[]){"2023-01-01 00:00:00", "2023-01-01T01:02:03.5", NULL}, CV_TEXT), CV_T_TS);
  CHECK_EQ_INT(infer_of((const char *[]){"2023-01-01 00:00:00Z", "2023-01-01T01:02:03-05:00", NULL}, CV_TEXT),
               CV_T_TS_TZ);
  CHECK_EQ_INT(infer_of((const char *[]){"2023-01-01 00:00:00Z", "2023-01-01T01:02:03", NULL}, CV_TEXT), CV_T_STRING);
  CHECK_EQ_INT(infer_of((const char *[]){"23:59:59", NULL}, CV_TEXT), CV_T_TIME);
  CHECK_EQ_INT(infer_of((const char *[]){"0224-02-29 10:00:00.24775807", NULL}, CV_TEXT),
               CV_T_STRING); /* NANOS cannot */
  CHECK_EQ_INT(infer_of((const char *[]){"0224-02-29 10:00:00.247758", NULL}, CV_TEXT), CV_T_TS);
  CHECK_EQ_INT(infer_of((const char *[]){"24:00:00", NULL}, CV_TEXT), CV_T_STRING);
  CHECK_EQ_INT(infer_of((const char *[]){"1.5e3", NULL}, CV_JSON_NUMBER), CV_T_DOUBLE);
  CHECK_EQ_INT(infer_of((const char *[]){"1E2457889", NULL}, CV_JSON_NUMBER), CV_T_STRING); /* beyond DOUBLE */
  CHECK_EQ_INT(infer_of((const char *[]){"1e-400", NULL}, CV_JSON_NUMBER), CV_T_STRING);
  CHECK_EQ_INT(infer_of((const char *[]){"true", NULL}, CV_JSON_BOOL), CV_T_BOOL);
}

static void test_unique_names(void) {
  const char *given[] = {"a", "", "a", "b", "", "a", "a_1"};
  char *names[7];
  for (int i = 0; i < 7; i++) names[i] = strdup(given[i]);
  CHECK_EQ_INT(cv_unique_names(names, 7, false, "x"), 4);
  const char *want[] = {"a", "column1", "a_2", "b", "column4", "a_3", "a_1"};
  for (int i = 0; i < 7; i++) {
    CHECK_EQ_STR(names[i], want[i]);
    free(names[i]);
  }
}

static int append(const char *format, const char *text, char *err) {
  struct ArrowSchema s = {0};
  s.format = format;
  s.name = "x";
  s.flags = ARROW_FLAG_NULLABLE;
  cv_column c;
  if (cv_column_init(&c, &s, err) != 0) return -2;
  int rc = cv_column_append(&c, text, strlen(text), CV_TEXT, err);
  cv_column_free(&c);
  return rc;
}

static void test_values(void) {
  static const struct {
    const char *format, *text;
    int ok;
  } cases[] = {
      {"c", "127", 1},
      {"c", "-128", 1},
      {"c", "128", 0},
      {"c", "300", 0},
      {"C", "255", 1},
      {"C", "-1", 0},
      {"s", "-32769", 0},
      {"I", "4294967295", 1},
      {"I", "4294967296", 0},
      {"l", "-9223372036854775808", 1},
      {"l", "9223372036854775808", 0},
      {"L", "18446744073709551615", 1},
      {"L", "18446744073709551616", 0},
      {"l", "1.0", 0},
      {"l", "", 0},
      {"l", " 1", 0},
      {"d:5,2", "123.45", 1},
      {"d:5,2", "-123.45", 1},
      {"d:5,2", "1234.5", 0},
      {"d:5,2", "1.235", 0},
      {"d:5,2", "1.230", 1},
      {"d:5,2", "0.001", 0},
      {"d:38,0", "99999999999999999999999999999999999999", 1},
      {"d:38,0", "100000000000000000000000000000000000000", 0},
      {"d:5,2", "1e2", 0},
      {"tdD", "2023-02-28", 1},
      {"tdD", "2023-02-30", 0},
      {"tdD", "2023-13-01", 0},
      {"tdD", "2000-02-29", 1},
      {"tdD", "1900-02-29", 0},
      {"tdD", "2023-1-01", 0},
      {"ttm", "23:59:59.999", 1},
      {"ttm", "25:00", 0},
      {"ttm", "25:00:00", 0},
      {"ttm", "12:00:00.0001", 0},
      {"ttm", "12:60:00", 0},
      {"ttu", "00:00:00.000001", 1},
      {"ttn", "00:00:00.000000001", 1},
      {"tsu:", "2023-01-01 00:00:00", 1},
      {"tsu:", "2023-01-01 00:00:00Z", 0},
      {"tsu:UTC", "2023-01-01 00:00:00+01:00", 1},
      {"tsu:UTC", "2023-02-30 00:00:00", 0},
      {"tsn:", "2262-04-11 23:47:16.854775807", 1},
      {"tsn:", "2262-04-11 23:47:16.854775808", 0},
      {"tsm:", "2023-01-01 00:00:00.0001", 0},
      {"f", "3.4e38", 1},
      {"f", "1e39", 0},
      {"f", "1e-50", 0},
      {"g", "1e-400", 0},
      {"e", "65504", 1},
      {"e", "65520", 0},
      {"g", "1e400", 0},
      {"g", "x", 0},
      {"w:16", "6ba7b810-9dad-11d1-80b4-00c04fd430c8", 1},
      {"w:16", "6ba7b810-9dad-11d1-80b4-00c04fd430cg", 0},
      {"w:3", "YWJj", 1},
      {"w:3", "\\x616263", 1},
      {"w:3", "\\x6162", 0},
      {"z", "YW=", 0},
      {"z", "YQ==", 1},
      {"z", "YR==", 0},
      {"b", "TRUE", 1},
      {"b", "yes", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char err[CV_ERR] = "";
    int rc = append(cases[i].format, cases[i].text, err);
    CHECK_MSG((rc == 0) == (cases[i].ok == 1), "%s '%s': %s", cases[i].format, cases[i].text, err);
  }
  char err[CV_ERR];
  CHECK(append("c", "300", err) == -1);
  CHECK_MSG(strcmp(err, "cannot read '300' as INT(8,true): out of range") == 0, "%s", err);
}

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The checked-in seeds through the fuzz target's checks. */
static void test_fuzz_corpus(void) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/fuzz/corpus/convert", PQT_SOURCE_DIR);
  DIR *d = opendir(dir);
  CHECK_MSG(d != NULL, "no %s", dir);
  if (!d) return;
  char *names[256];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL && n < 256)
    if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp_name);
  CHECK(n >= 4);
  for (int i = 0; i < n; i++) {
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    FILE *f = fopen(path, "rb");
    unsigned char buf[1 << 16];
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    unsigned char *exact = malloc(len ? len : 1);
    memcpy(exact, buf, len);
    pqt_fuzz_entry_convert(exact, len);
    free(exact);
    free(names[i]);
  }
}

RUN_TESTS("convert_parsers", TEST_CASE(test_csv_records), TEST_CASE(test_json_lines), TEST_CASE(test_inference),
          TEST_CASE(test_unique_names), TEST_CASE(test_values), TEST_CASE(test_fuzz_corpus))
