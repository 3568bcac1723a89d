/*
 * cli/geo_stats.c: `parquetry geospatial-stats`: the GeospatialStatistics
 * of every GEOMETRY/GEOGRAPHY column chunk (bounding box with Z and M when
 * present, the geometry type codes with their names), per row group, from
 * the public metadata API (parquetry_meta.h, parquetry_geo.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "geo_stats.h"
#include "parquetry.h"
#include "parquetry_filter.h"
#include "parquetry_geo.h"
#include "parquetry_meta.h"

const char cmd_geospatial_stats_summary[] =
    "Print the geospatial statistics of each GEOMETRY or GEOGRAPHY column chunk: the\n"
    "bounding box (x, y, and z and m when the values have them; for GEOGRAPHY x may wrap\n"
    "the antimeridian: xmin > xmax means x >= xmin or x <= xmax) and the WKB geometry\n"
    "type codes with their names (1 Point ... 7 GeometryCollection, +1000 Z, +2000 M,\n"
    "+3000 ZM).\n\n"
    "  -c, --column PATH   only this column (dotted path)\n"
    "  --json              {\"file\", \"columns\": [{\"column\", \"logical_type\", \"crs\",\n"
    "                      \"edges\", \"row_groups\": [{\"row_group\", \"rows\", \"statistics\",\n"
    "                      \"bbox\": {\"xmin\", \"xmax\", \"ymin\", \"ymax\", \"zmin\", \"zmax\",\n"
    "                      \"mmin\", \"mmax\"} or null, \"x_wraps\",\n"
    "                      \"types\": [{\"code\", \"name\"}] (null without statistics)}]}]}\n\n"
    "Several FILEs, directories and globs: each file in turn (human output after a\n"
    "line \"# PATH\"; --json: one object a file)." READ_OPTIONS_HELP;
const char cmd_geospatial_stats_usage[] = "parquetry geospatial-stats [-c COL] [--json] FILE...";

static const char *const EDGES[] = {"spherical", "vincenty", "thomas", "andoyer", "karney"};

/* The shortest %g form that reads back as the same double. */
static void put_double(double v, int json) {
  if (!isfinite(v)) {
    printf(json ? "null" : "%s", isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
    return;
  }
  char buf[40];
  for (int p = 15; p <= 17; p++) {
    snprintf(buf, sizeof buf, "%.*g", p, v);
    if (strtod(buf, NULL) == v) break;
  }
  fputs(buf, stdout);
}

static void json_str(const char *s, size_t n) {
  putchar('"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
}

static int one_column(pqt_reader *r, int32_t col, int json, int first, pqt_error *e) {
  pqt_schema_info si;
  pqt_schema_info_init(&si);
  if (pqt_reader_schema_node(r, pqt_reader_column_node(r, col), &si, e) != PQT_OK) return EXIT_DATA;
  const char *lt = si.logical == PQT_LOGICAL_GEOGRAPHY ? "GEOGRAPHY" : "GEOMETRY";
  const char *edges = si.logical != PQT_LOGICAL_GEOGRAPHY ? NULL
                      : si.edge_algorithm < 0             ? "spherical"
                      : si.edge_algorithm < 5             ? EDGES[si.edge_algorithm]
                                                          : "unknown";
  if (json) {
    printf("%s{\"column\":", first ? "" : ",");
    json_str(si.path, strlen(si.path));
    printf(",\"logical_type\":\"%s\",\"crs\":", lt);
    if (si.crs) json_str(si.crs, si.crs_len);
    else printf("null");
    printf(",\"edges\":");
    if (edges) json_str(edges, strlen(edges));
    else printf("null");
    printf(",\"row_groups\":[");
  } else {
    printf("%scolumn %s: %s, crs %.*s%s", first ? "" : "\n", si.path, lt, si.crs ? (int)si.crs_len : 10,
           si.crs ? si.crs : "OGC:CRS84", si.crs ? "" : " (default)");
    if (edges) printf(", edges %s", edges);
    printf("\n");
  }
  for (int32_t g = 0; g < pqt_reader_num_row_groups(r); g++) {
    pqt_geo_stats gs;
    pqt_geo_stats_init(&gs);
    if (pqt_reader_chunk_geo_stats(r, g, col, &gs, e) != PQT_OK) return EXIT_DATA;
    const double v[8] = {gs.xmin, gs.xmax, gs.ymin, gs.ymax, gs.zmin, gs.zmax, gs.mmin, gs.mmax};
    const int has[4] = {gs.has_bbox, gs.has_bbox, gs.has_bbox && gs.has_z, gs.has_bbox && gs.has_m};
    long long rows = (long long)pqt_reader_row_group_num_rows(r, g);
    if (json) {
      printf("%s{\"row_group\":%d,\"rows\":%lld,\"statistics\":%s,\"bbox\":", g ? "," : "", (int)g, rows,
             gs.present ? "true" : "false");
      if (gs.has_bbox) {
        static const char *const K[8] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax", "mmin", "mmax"};
        putchar('{');
        for (int k = 0; k < 8; k++) {
          if (!has[k / 2]) continue;
          printf("%s\"%s\":", k ? "," : "", K[k]);
          put_double(v[k], 1);
        }
        printf("},\"x_wraps\":%s", gs.xmin > gs.xmax ? "true" : "false");
      } else {
        printf("null,\"x_wraps\":false");
      }
      printf(",\"types\":");
      if (gs.present) {
        putchar('[');
        for (int32_t i = 0; i < gs.n_geospatial_types; i++) {
          const char *nm = pqt_geo_type_code_name(gs.geospatial_types[i]);
          printf("%s{\"code\":%d,\"name\":", i ? "," : "", (int)gs.geospatial_types[i]);
          if (nm) json_str(nm, strlen(nm));
          else printf("null");
          putchar('}');
        }
        putchar(']');
      } else {
        printf("null");
      }
      putchar('}');
      continue;
    }
    printf("  row group %d (%lld rows):", (int)g, rows);
    if (!gs.present) {
      printf(" no geospatial statistics\n");
      continue;
    }
    if (!gs.has_bbox) printf(" no box");
    for (int d = 0; d < 4; d++) {
      if (!has[d]) continue;
      printf(" %c [", "xyzm"[d]);
      put_double(v[2 * d], 0);
      printf(", ");
      put_double(v[2 * d + 1], 0);
      printf("]%s", d == 0 && gs.xmin > gs.xmax ? " (wraps the antimeridian)" : "");
    }
    printf("\n    types:");
    if (!gs.geospatial_types || gs.n_geospatial_types == 0) printf(" none given");
    for (int32_t i = 0; i < gs.n_geospatial_types && gs.geospatial_types; i++) {
      const char *nm = pqt_geo_type_code_name(gs.geospatial_types[i]);
      printf("%s %d %s", i ? "," : "", (int)gs.geospatial_types[i], nm ? nm : "(unknown code)");
    }
    printf("\n");
  }
  if (json) printf("]}");
  return 0;
}

typedef struct geo_args {
  const char *column;
  int json;
  bool many; /* several files: each named (JSON has "file" always) */
} geo_args;

static int geo_one(const char *path, void *ctx) {
  const geo_args *ga = ctx;
  const char *cmd = "geospatial-stats", *column = ga->column;
  int json = ga->json;
  if (ga->many && !json) printf("# %s\n", path);
  pqt_error e;
  pqt_error_init(&e);
  pqt_reader *r;
  if (cli_reader_open(&r, path, read_options(), &e) != PQT_OK) return fail(path, &e);
  int rc = 0, n = 0;
  int32_t only = -1;
  if (column) {
    only = pqt_reader_find_column(r, column);
    if (only < 0) {
      pqt_reader_close(r);
      return usage(cmd, "no leaf column '%s' (give its dotted path, as `parquetry schema` shows it)", column);
    }
  }
  if (json) {
    printf("{\"file\":");
    json_str(path, strlen(path));
    printf(",\"columns\":[");
  }
  for (int32_t c = 0; c < pqt_reader_num_columns(r) && !rc; c++) {
    if (only >= 0 && c != only) continue;
    pqt_column_info info;
    pqt_column_info_init(&info);
    if (pqt_reader_column_info(r, c, &info, &e) != PQT_OK) {
      rc = EXIT_DATA;
      break;
    }
    if (info.logical_type != PQT_LOGICAL_GEOMETRY && info.logical_type != PQT_LOGICAL_GEOGRAPHY) {
      if (only >= 0) {
        pqt_reader_close(r);
        return usage(cmd, "column '%s' is not GEOMETRY or GEOGRAPHY", column);
      }
      continue;
    }
    rc = one_column(r, c, json, n == 0, &e);
    n++;
  }
  if (json && !rc) printf("]}\n");
  if (!json && !rc && n == 0) printf("no GEOMETRY or GEOGRAPHY columns\n");
  pqt_reader_close(r);
  if (rc) return fail(path, &e);
  if (fflush(stdout) != 0) {
    fprintf(stderr, "parquetry: %s: cannot write the output\n", cmd);
    return EXIT_DATA;
  }
  return 0;
}

int cmd_geospatial_stats(int argc, char **argv) {
  const char *cmd = "geospatial-stats";
  geo_args ga = {NULL, 0, false};
  char **paths = argv + 1; /* several FILEs: in argv's slots already read */
  int n_paths = 0;
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
      printf("usage: %s\n\n%s\n", cmd_geospatial_stats_usage, cmd_geospatial_stats_summary);
      return 0;
    }
    int ro = read_option(cmd, argc, argv, &i);
    if (ro == 2) return EXIT_USAGE;
    if (ro == 1) continue;
    if ((!strcmp(s, "-c") || !strcmp(s, "--column")) && i + 1 < argc) ga.column = argv[++i];
    else if (!strncmp(s, "--column=", 9)) ga.column = s + 9;
    else if (!strcmp(s, "--json")) ga.json = 1;
    else if (s[0] == '-' && s[1]) return usage(cmd, "unknown or incomplete option '%s'", s);
    else paths[n_paths++] = argv[i];
  }
  if (n_paths == 0) return usage(cmd, "%s", "missing FILE");
  if (dataset_inputs_many(paths, n_paths)) {
    ga.many = true;
    return dataset_each_file(cmd, (const char *const *)paths, n_paths, geo_one, &ga);
  }
  return geo_one(paths[0], &ga);
}

/* ---- --bbox on cat, head and count ---- */

int geo_bbox_parse(const char *cmd, const char *text, double box[4]) {
  const char *s = text;
  for (int i = 0; i < 4; i++) {
    char *end;
    box[i] = strtod(s, &end);
    if (end == s || isnan(box[i]) || (i < 3 ? *end != ',' : *end != 0))
      return usage(cmd, "--bbox: expected xmin,ymin,xmax,ymax (four numbers), got '%s'", text);
    s = end + 1;
  }
  if (box[1] > box[3]) return usage(cmd, "--bbox: ymin %g > ymax %g", box[1], box[3]);
  return 0;
}

int geo_bbox_filter(const char *cmd, pqt_reader *r, const double box[4], pqt_expr **filter) {
  int32_t col = -1;
  pqt_column_info info;
  for (int32_t c = 0; c < pqt_reader_num_columns(r) && col < 0; c++) {
    pqt_column_info_init(&info);
    if (pqt_reader_column_info(r, c, &info, NULL) != PQT_OK) continue;
    if (info.logical_type == PQT_LOGICAL_GEOMETRY || info.logical_type == PQT_LOGICAL_GEOGRAPHY) col = c;
  }
  if (col < 0) return usage(cmd, "%s", "--bbox: the file has no GEOMETRY or GEOGRAPHY column");
  pqt_expr *g = pqt_expr_bbox_intersects(pqt_expr_column(info.path), box[0], box[1], box[2], box[3]);
  pqt_expr *f = g && *filter ? pqt_expr_and(*filter, g) : g;
  if (!f) {
    if (!g) pqt_expr_free(*filter);
    *filter = NULL;
    fprintf(stderr, "parquetry: out of memory\n");
    return EXIT_DATA;
  }
  *filter = f;
  return 0;
}
