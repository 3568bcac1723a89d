/*
 * dataset/dataset.c: pqt_dataset_open. Inputs (files, directories, globs)
 * become a list of files through the lister (pqt_dataset_fs, local files by
 * default); Hive-style key=value directories become partition columns;
 * every footer is read once to unify the schemas (top-level columns by
 * name, int32->int64 and float->double widening). The footers are read
 * concurrently (read_footers), the schemas unified in file order.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "core/struct_size.h"
#include "core/thread_pool.h"
#include "dataset/dataset_internal.h"

#define DS_DEFAULT_MAX_FILES 1000000

static pqt_dataset_options ds_defaults(void) {
  pqt_dataset_options d;
  memset(&d, 0, sizeof d);
  d.struct_size = sizeof d;
  d.hive_partitioning = 1;
  d.max_files = DS_DEFAULT_MAX_FILES;
  return d;
}

PQT_API void pqt_dataset_options_init_sized(pqt_dataset_options *o, size_t size) {
  pqt_dataset_options d = ds_defaults();
  pqt_struct_init(o, size, &d, sizeof d);
}

/* ---- a growable list of strings ---- */
typedef struct strlist {
  char **v;
  int32_t n, cap;
  int32_t max;
} strlist;

static pqt_status strlist_add(strlist *l, const char *s, size_t n, pqt_error *err) {
  if (l->n >= l->max) return pqt_error_set(err, PQT_ELIMIT, "more than %d files", (int)l->max);
  if (l->n == l->cap) {
    int32_t cap = l->cap ? l->cap * 2 : 16;
    char **v = realloc(l->v, sizeof(char *) * (size_t)cap);
    if (!v) return pqt_nomem(err);
    l->v = v;
    l->cap = cap;
  }
  char *c = malloc(n + 1);
  if (!c) return pqt_nomem(err);
  memcpy(c, s, n);
  c[n] = 0;
  l->v[l->n++] = c;
  return PQT_OK;
}

static void strlist_free(strlist *l) {
  for (int32_t i = 0; i < l->n; i++) free(l->v[i]);
  free(l->v);
  memset(l, 0, sizeof *l);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* ---- the local lister and opener ---- */
static pqt_status local_walk(const char *dir, int depth, pqt_dataset_emit_fn emit, void *ectx, pqt_error *err) {
  if (depth > 64) return pqt_error_set(err, PQT_ELIMIT, "%s: directories nested deeper than 64", dir);
  DIR *d = opendir(dir);
  if (!d) return pqt_error_set(err, PQT_EIO, "%s: %s", dir, strerror(errno));
  pqt_status st = PQT_OK;
  struct dirent *de;
  size_t dl = strlen(dir);
  while (st == PQT_OK && (de = readdir(d)) != NULL) {
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
    size_t nl = strlen(de->d_name);
    char *p = malloc(dl + nl + 2);
    if (!p) {
      st = pqt_nomem(err);
      break;
    }
    memcpy(p, dir, dl);
    p[dl] = '/';
    memcpy(p + dl + 1, de->d_name, nl + 1);
    struct stat sb;
    if (stat(p, &sb) != 0) st = pqt_error_set(err, PQT_EIO, "%s: %s", p, strerror(errno));
    else if (S_ISDIR(sb.st_mode)) st = local_walk(p, depth + 1, emit, ectx, err);
    else if (S_ISREG(sb.st_mode)) st = emit(ectx, p, err);
    free(p);
  }
  closedir(d);
  return st;
}

pqt_status pqt_ds_local_list(void *ctx, const char *path, int *is_dir, pqt_dataset_emit_fn emit, void *ectx,
                             pqt_error *err) {
  (void)ctx;
  struct stat sb;
  if (stat(path, &sb) != 0) return pqt_error_set(err, PQT_EIO, "%s: %s", path, strerror(errno));
  *is_dir = S_ISDIR(sb.st_mode) ? 1 : 0;
  if (!*is_dir) return PQT_OK;
  return local_walk(path, 0, emit, ectx, err);
}

pqt_status pqt_ds_open_reader(const pqt_dataset *ds, int32_t f, pqt_reader **out, pqt_error *err) {
  const pqt_read_options *ro = ds->has_ropts ? &ds->ropts : NULL;
  const char *path = ds->files[f].path;
  pqt_status st;
  if (ds->fs.open) {
    pqt_io io;
    pqt_io_init(&io);
    pqt_error local;
    pqt_error_init(&local);
    st = ds->fs.open(ds->fs.ctx, path, &io, &local);
    if (st != PQT_OK) {
      pqt_error_from_callback(err, st, &local, "open");
      pqt_error_prefix(err, "%s", path);
      return st;
    }
    st = pqt_reader_open(out, &io, ro, err);
  } else {
    st = pqt_reader_open_file(out, path, ro, err);
  }
  if (st != PQT_OK && err && !strstr(err->message, path)) pqt_error_prefix(err, "%s", path);
  return st;
}

/* ---- globs ---- */
static bool has_wild(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] == '*' || s[i] == '?' || s[i] == '[') return true;
  return false;
}

/* Match path components rel[0..nr) against pattern components pat[0..np). */
static bool glob_match(char **pat, int np, char **rel, int nr) {
  if (np == 0) return nr == 0;
  if (strcmp(pat[0], "**") == 0) {
    for (int k = 0; k <= nr; k++)
      if (glob_match(pat + 1, np - 1, rel + k, nr - k)) return true;
    return false;
  }
  return nr > 0 && fnmatch(pat[0], rel[0], 0) == 0 && glob_match(pat + 1, np - 1, rel + 1, nr - 1);
}

/* Split s at '/' in place (empty components dropped). */
static int split_path(char *s, char **parts, int cap) {
  int n = 0;
  char *save = NULL;
  for (char *t = strtok_r(s, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
    if (n == cap) return -1;
    parts[n++] = t;
  }
  return n;
}

/* A name the directory walk leaves out: hidden or metadata (_SUCCESS, .crc, _metadata). */
static bool ignored_name(const char *rel) {
  const char *c = rel;
  for (;;) {
    if (*c == '.' || *c == '_') return true;
    const char *s = strchr(c, '/');
    if (!s) return false;
    c = s + 1;
  }
}

typedef struct walk_ctx {
  strlist found;
  const char *root; /* emitted paths start with root + '/' (or are relative for "." ) */
  size_t root_len;
  bool strip_dot;
  char **pat; /* NULL: every file */
  int np;
  pqt_error *err;
} walk_ctx;

#define DS_MAX_DEPTH 256

static pqt_status walk_emit(void *c, const char *path, pqt_error *err) {
  walk_ctx *w = c;
  const char *p = path;
  if (w->strip_dot && p[0] == '.' && p[1] == '/') p += 2;
  const char *rel = p;
  if (!w->strip_dot) {
    if (strncmp(p, w->root, w->root_len) != 0) return pqt_error_set(err, PQT_EIO, "%s: listed outside %s", p, w->root);
    rel = p + w->root_len;
    while (*rel == '/') rel++;
  }
  if (ignored_name(rel)) return PQT_OK;
  if (w->pat) {
    size_t n = strlen(rel);
    char *tmp = malloc(n + 1);
    if (!tmp) return pqt_nomem(err);
    memcpy(tmp, rel, n + 1);
    char *parts[DS_MAX_DEPTH];
    int nr = split_path(tmp, parts, DS_MAX_DEPTH);
    bool m = nr >= 0 && glob_match(w->pat, w->np, parts, nr);
    free(tmp);
    if (!m) return PQT_OK;
  }
  return strlist_add(&w->found, p, strlen(p), err);
}

static pqt_status list_input(const pqt_dataset_fs *fs, const char *in, strlist *files, size_t **rel_at,
                             int32_t *rel_cap, pqt_error *err) {
  pqt_status (*list)(void *, const char *, int *, pqt_dataset_emit_fn, void *, pqt_error *) =
      fs && fs->list ? fs->list : pqt_ds_local_list;
  void *lctx = fs && fs->list ? fs->ctx : NULL;
  size_t n = strlen(in);
  walk_ctx w;
  memset(&w, 0, sizeof w);
  w.found.max = files->max - files->n;
  w.err = err;
  char *root = NULL, *patbuf = NULL;
  char *parts[DS_MAX_DEPTH];
  pqt_status st = PQT_OK;
  if (has_wild(in, n)) {
    /* the fixed prefix: the components before the first with a wildcard */
    size_t cut = 0;
    for (size_t i = 0; i < n; i++) {
      if (in[i] == '/') cut = i;
      if (in[i] == '*' || in[i] == '?' || in[i] == '[') break;
    }
    bool absolute = in[0] == '/';
    if (cut == 0 && !absolute) { /* no fixed directory */
      root = malloc(2);
      if (root) memcpy(root, ".", 2);
      w.strip_dot = true;
      patbuf = malloc(n + 1);
      if (patbuf) memcpy(patbuf, in, n + 1);
    } else {
      size_t rl = cut == 0 ? 1 : cut;
      root = malloc(rl + 1);
      if (root) {
        memcpy(root, in, rl);
        root[rl] = 0;
      }
      patbuf = malloc(n - cut);  // NOLINT(clang-analyzer-optin.portability.UnixAPI): cut is an index of in, so n - cut >= 1
      if (patbuf) {
        memcpy(patbuf, in + cut + 1, n - cut - 1);
        patbuf[n - cut - 1] = 0;
      }
    }
    if (!root || !patbuf) {
      st = pqt_nomem(err);
      goto done;
    }
    w.np = split_path(patbuf, parts, DS_MAX_DEPTH);
    if (w.np <= 0) {
      st = pqt_error_set(err, PQT_EINVAL, "%s: bad pattern", in);
      goto done;
    }
    w.pat = parts;
  } else {
    root = malloc(n + 1);
    if (!root) {
      st = pqt_nomem(err);
      goto done;
    }
    memcpy(root, in, n + 1);
    while (n > 1 && root[n - 1] == '/') root[--n] = 0;
  }
  w.root = root;
  w.root_len = strlen(root);
  int is_dir = 0;
  pqt_error local;
  pqt_error_init(&local);
  st = list(lctx, root, &is_dir, walk_emit, &w, &local);  // NOLINT(clang-analyzer-core.CallAndMessage): list is fs->list or pqt_ds_local_list, never NULL
  if (st != PQT_OK) {
    if (err) *err = local;
    if (err && !local.message[0]) pqt_error_set(err, st, "%s: listing failed", root);
    goto done;
  }
  if (!is_dir && !w.pat) {
    st = strlist_add(&w.found, root, strlen(root), err);
    if (st != PQT_OK) goto done;
    /* an explicit file: every directory of its path may be a partition */
    st = PQT_OK;
  } else if (!is_dir) {
    st = pqt_error_set(err, PQT_EINVAL, "%s: not a directory", root);
    goto done;
  }
  if (w.found.n == 0) {
    st = pqt_error_set(err, PQT_EIO, "%s: no files match", in);
    goto done;
  }
  qsort(w.found.v, (size_t)w.found.n, sizeof(char *), cmp_str);
  if (*rel_cap < files->n + w.found.n) {
    int32_t cap = files->n + w.found.n + 16;
    size_t *r = realloc(*rel_at, sizeof(size_t) * (size_t)cap);
    if (!r) {
      st = pqt_nomem(err);
      goto done;
    }
    *rel_at = r;
    *rel_cap = cap;
  }
  for (int32_t i = 0; i < w.found.n && st == PQT_OK; i++) {
    size_t at = 0;
    if (is_dir && !w.strip_dot) at = w.root_len;
    (*rel_at)[files->n] = at;
    st = strlist_add(files, w.found.v[i], strlen(w.found.v[i]), err);
  }
done:
  strlist_free(&w.found);
  free(root);
  free(patbuf);
  return st;
}

/* ---- Hive partitions ---- */
static int hexv(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static char *unescape(const char *s, size_t n) {
  char *o = malloc(n + 1);
  if (!o) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '%' && i + 2 < n && hexv(s[i + 1]) >= 0 && hexv(s[i + 2]) >= 0) {
      o[k++] = (char)(hexv(s[i + 1]) * 16 + hexv(s[i + 2]));
      i += 2;
    } else {
      o[k++] = s[i];
    }
  }
  o[k] = 0;
  return o;
}

/* The key=value directories of path from `at` on (not the file name). */
typedef struct kv_list {
  char *key[64];
  char *val[64]; /* NULL: the default partition (NULL) */
  int n;
} kv_list;

static void kv_free(kv_list *l) {
  for (int i = 0; i < l->n; i++) free(l->key[i]), free(l->val[i]);
  l->n = 0;
}

static pqt_status parse_partitions(const char *path, size_t at, kv_list *out, pqt_error *err) {
  out->n = 0;
  const char *c = path + at;
  for (;;) {
    while (*c == '/') c++;
    const char *s = strchr(c, '/');
    if (!s) break; /* the file name */
    const char *eq = memchr(c, '=', (size_t)(s - c));
    if (eq && eq > c) {
      if (out->n == 64) return pqt_error_set(err, PQT_ELIMIT, "%s: more than 64 partition directories", path);
      out->key[out->n] = unescape(c, (size_t)(eq - c));
      size_t vl = (size_t)(s - eq - 1);
      bool dflt = vl == 26 && memcmp(eq + 1, "__HIVE_DEFAULT_PARTITION__", 26) == 0;
      out->val[out->n] = dflt ? NULL : unescape(eq + 1, vl);
      out->n++;
      if (!out->key[out->n - 1] || (!dflt && !out->val[out->n - 1])) return pqt_nomem(err);
    }
    c = s + 1;
  }
  return PQT_OK;
}

static bool parse_i64(const char *s, int64_t *v) {
  if (!s || !*s) return false;
  const char *p = s;
  if (*p == '-') p++;
  if (!*p) return false;
  for (const char *q = p; *q; q++)
    if (*q < '0' || *q > '9') return false;
  errno = 0;
  char *end;
  long long x = strtoll(s, &end, 10);
  if (errno || *end) return false;
  *v = x;
  return true;
}

/* ---- schema unification ---- */
static pqt_status file_schema(pqt_reader *r, struct ArrowSchema *out, pqt_error *err) {
  struct ArrowArrayStream s;
  pqt_status st = pqt_reader_get_stream(r, NULL, &s, err);
  if (st != PQT_OK) return st;
  int rc = s.get_schema(&s, out);
  if (rc != 0) {
    const char *m = s.get_last_error(&s);
    st = pqt_error_set(err, PQT_EIO, "%s", m ? m : "no schema");
  }
  s.release(&s);
  return st;
}

static bool widens_to(const char *from, const char *to) {
  return (strcmp(from, "i") == 0 && strcmp(to, "l") == 0) || (strcmp(from, "f") == 0 && strcmp(to, "g") == 0);
}

static const struct ArrowSchema *child_named(const struct ArrowSchema *s, const char *name) {
  for (int64_t i = 0; i < s->n_children; i++)
    if (strcmp(s->children[i]->name ? s->children[i]->name : "", name) == 0) return s->children[i];
  return NULL;
}

/* Unify type c (file fc) into the unified type u (first from file fu),
 * recursively: the fields of structs by name (a field only some files have
 * is added, NULL in the others' rows), int32->int64 and float->double
 * widening at any depth, the element of lists, maps and fixed-size lists.
 * Anything else that differs is PQT_EINVAL naming the dotted path and both
 * files. */
#define DS_MAX_FIELD_DEPTH 64

/* The first of files [0, f) whose schema has the field at trail[0..depth) (names from the top), or -1. */
static int32_t file_with_field(const pqt_dataset *ds, int32_t f, const char **trail, int depth,
                               const struct ArrowSchema **type) {
  for (int32_t g = 0; g < f; g++) {
    const struct ArrowSchema *s = &ds->files[g].schema;
    for (int d = 0; s && d < depth; d++) s = child_named(s, trail[d]);
    if (s) {
      *type = s;
      return g;
    }
  }
  return -1;
}

static pqt_status unify_type(const pqt_dataset *ds, int32_t f, struct ArrowSchema *u, const struct ArrowSchema *c,
                             const char *path, const char **trail, int depth, pqt_error *err) {
  if (depth > DS_MAX_FIELD_DEPTH) return pqt_error_set(err, PQT_ELIMIT, "column %s: nested deeper than %d", path, DS_MAX_FIELD_DEPTH);
  trail[depth - 1] = c->name ? c->name : "";
  if (pqt_ds_schema_same(u, c) || widens_to(c->format, u->format)) return PQT_OK;
  if (widens_to(u->format, c->format)) {
    /* widen the unified type (its format string is ours: "i"/"f" -> "l"/"g") */
    char *fmt = (char *)u->format;
    fmt[0] = c->format[0];
    return PQT_OK;
  }
  bool nested = !u->dictionary && !c->dictionary && strcmp(u->format, c->format) == 0 &&
                (strcmp(u->format, "+s") == 0 || strcmp(u->format, "+l") == 0 || strcmp(u->format, "+L") == 0 ||
                 strcmp(u->format, "+m") == 0 || strncmp(u->format, "+w:", 3) == 0);
  if (nested && strcmp(u->format, "+s") == 0) {
    for (int64_t i = 0; i < c->n_children; i++) {
      const struct ArrowSchema *cc = c->children[i];
      const char *n = cc->name ? cc->name : "";
      struct ArrowSchema *uc = (struct ArrowSchema *)child_named(u, n);
      if (!uc) {
        pqt_status st = pqt_ds_schema_add_child(u, cc, err);
        if (st != PQT_OK) return st;
        continue;
      }
      char sub[512];
      snprintf(sub, sizeof sub, "%s.%s", path, n);
      pqt_status st = unify_type(ds, f, uc, cc, sub, trail, depth + 1, err);
      if (st != PQT_OK) return st;
    }
    return PQT_OK;
  }
  if (nested && u->n_children == 1 && c->n_children == 1) {
    char sub[512];
    snprintf(sub, sizeof sub, "%s.%s", path, u->children[0]->name ? u->children[0]->name : "");
    return unify_type(ds, f, u->children[0], c->children[0], sub, trail, depth + 1, err);
  }
  const struct ArrowSchema *gt = u;
  int32_t g = file_with_field(ds, f, trail, depth, &gt);
  return pqt_error_set(err, PQT_EINVAL, "column %s: %s has type '%s', %s has type '%s'", path,
                       g >= 0 ? ds->files[g].path : "another file", gt->format, ds->files[f].path, c->format);
}

static pqt_status unify(pqt_dataset *ds, int32_t f, const struct ArrowSchema *fs, pqt_error *err) {
  pqt_ds_file *file = &ds->files[f];
  file->names = calloc((size_t)(fs->n_children ? fs->n_children : 1), sizeof(char *));
  if (!file->names) return pqt_nomem(err);
  for (int64_t i = 0; i < fs->n_children; i++) {
    const struct ArrowSchema *c = fs->children[i];
    const char *name = c->name ? c->name : "";
    file->names[i] = strdup(name);
    if (!file->names[i]) return pqt_nomem(err);
    file->n_names = (int32_t)i + 1;
    int32_t k = pqt_ds_find_col(ds, name, strlen(name));
    if (k >= ds->n_cols) {
      return pqt_error_set(err, PQT_EINVAL, "%s: column %s is also a partition directory name", file->path, name);
    }
    if (k < 0) {
      struct ArrowSchema *cols = realloc(ds->cols, sizeof *cols * (size_t)(ds->n_cols + 1));
      if (!cols) return pqt_nomem(err);
      ds->cols = cols;
      int32_t *cf = realloc(ds->col_file, sizeof *cf * (size_t)(ds->n_cols + 1));
      if (!cf) return pqt_nomem(err);
      ds->col_file = cf;
      pqt_status st = pqt_ds_schema_copy(c, &ds->cols[ds->n_cols], err);
      if (st != PQT_OK) return st;
      ds->cols[ds->n_cols].flags |= ARROW_FLAG_NULLABLE;
      ds->col_file[ds->n_cols] = f;
      ds->n_cols++;
      continue;
    }
    const char *trail[DS_MAX_FIELD_DEPTH + 1];
    pqt_status st = unify_type(ds, f, &ds->cols[k], c, name, trail, 1, err);
    if (st != PQT_OK) return st;
  }
  return PQT_OK;
}

/* ---- footers, read concurrently ---- */

/* How many footers are read at once: the read options' threads (their
 * executor when given). threads 0 (the default) means the cores, and at
 * least 8 with the remote fs (a footer read waits on the network); it
 * means 1 when a caller's opener or allocator might not be thread-safe
 * (as for a stream: asking for threads says they are). */
static int32_t footer_threads(const pqt_dataset *ds, const pqt_executor **ex) {
  const pqt_read_options *ro = ds->has_ropts ? &ds->ropts : NULL;
  int32_t threads = ro ? ro->threads : 0;
  *ex = ro ? ro->executor : NULL;
  if (threads != 0 || *ex) return threads;
  bool remote = pqt_ds_fs_is_remote(&ds->fs);
  if ((ds->fs.open && !remote) || (ro && ro->alloc)) return 1;
  int32_t n = pqt_default_threads();
  return remote && n < 8 ? 8 : n;
}

typedef struct footer_job {
  pqt_dataset *ds;
  pqt_status *st;              /* per file */
  pqt_error *errs;             /* per file */
  struct ArrowSchema *schemas; /* per file (released: none) */
} footer_job;

static void footer_task(void *ctx, int32_t f, int32_t slot) {
  (void)slot;
  footer_job *j = ctx;
  pqt_dataset *ds = j->ds;
  pqt_error *err = &j->errs[f];
  pqt_error_init(err);
  pqt_reader *r;
  pqt_status st = pqt_ds_open_reader(ds, f, &r, err);
  if (st == PQT_OK) {
    ds->files[f].rows = pqt_reader_num_rows(r);
    ds->files[f].n_groups = pqt_reader_num_row_groups(r);
    st = file_schema(r, &j->schemas[f], err);
    pqt_reader_close(r);
    if (st != PQT_OK) pqt_error_prefix(err, "%s", ds->files[f].path);
  }
  j->st[f] = st;
}

/* Every file's footer (rows, row groups, schema), then the schemas unified
 * in file order: the first file in order that fails is the error, as when
 * they are read one after the other. */
static pqt_status read_footers(pqt_dataset *ds, pqt_error *err) {
  int32_t n = ds->n_files;
  if (n <= 0) return PQT_OK;
  footer_job j = {ds, calloc((size_t)n, sizeof(pqt_status)), calloc((size_t)n, sizeof(pqt_error)),
                  calloc((size_t)n, sizeof(struct ArrowSchema))};
  pqt_status st = (!j.st || !j.errs || !j.schemas) ? pqt_nomem(err) : PQT_OK;
  pqt_par par;
  memset(&par, 0, sizeof par);
  const pqt_executor *ex = NULL;
  int32_t threads = st == PQT_OK ? footer_threads(ds, &ex) : 1;
  if (st == PQT_OK) st = pqt_par_init(&par, threads, ex, NULL, "pqt_read_options.threads", err);
  if (st == PQT_OK) pqt_par_run(&par, n, footer_task, &j);
  pqt_par_free(&par);
  for (int32_t f = 0; f < n && st == PQT_OK; f++) {
    if (j.st[f] != PQT_OK) {
      st = j.st[f];
      if (err) *err = j.errs[f];
      break;
    }
    st = unify(ds, f, &j.schemas[f], err);
    if (st == PQT_OK) { /* the file keeps its schema (the projection per file needs it) */
      ds->files[f].schema = j.schemas[f];
      j.schemas[f].release = NULL;
    }
  }
  for (int32_t f = 0; j.schemas && f < n; f++)
    if (j.schemas[f].release) j.schemas[f].release(&j.schemas[f]);
  free(j.st);
  free(j.errs);
  free(j.schemas);
  return st;
}

int32_t pqt_ds_find_col(const pqt_dataset *ds, const char *name, size_t len) {
  for (int32_t i = 0; i < ds->n_cols; i++)
    if (strlen(ds->cols[i].name) == len && memcmp(ds->cols[i].name, name, len) == 0) return i;
  for (int32_t i = 0; i < ds->n_parts; i++)
    if (strlen(ds->part_names[i]) == len && memcmp(ds->part_names[i], name, len) == 0) return ds->n_cols + i;
  return -1;
}

PQT_API void pqt_dataset_close(pqt_dataset *ds) {
  if (!ds) return;
  for (int32_t f = 0; ds->files && f < ds->n_files; f++) {
    pqt_ds_file *file = &ds->files[f];
    for (int32_t i = 0; i < ds->n_parts && file->part_raw; i++) free(file->part_raw[i]);
    free(file->part_raw);
    free(file->part_i);
    for (int32_t i = 0; i < file->n_names; i++) free(file->names[i]);
    free(file->names);
    if (file->schema.release) file->schema.release(&file->schema);
    free(file->path);
  }
  free(ds->files);
  for (int32_t i = 0; i < ds->n_cols; i++)
    if (ds->cols[i].release) ds->cols[i].release(&ds->cols[i]);
  free(ds->cols);
  free(ds->col_file);
  for (int32_t i = 0; i < ds->n_parts; i++) free(ds->part_names[i]);
  free(ds->part_names);
  free(ds->part_types);
  free(ds);
}

PQT_API pqt_status pqt_dataset_open(pqt_dataset **out, const char *const *inputs, int32_t n_inputs,
                                    const pqt_dataset_options *opts_in, pqt_error *err) {
  if (err) pqt_error_init(err);
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_dataset_open: out is NULL");
  *out = NULL;
  if (!inputs || n_inputs <= 0) return pqt_error_set(err, PQT_EINVAL, "pqt_dataset_open: no inputs");
  pqt_dataset_options o = ds_defaults();
  pqt_status st = pqt_options_copy(&o, sizeof o, opts_in, "pqt_dataset_options", err);
  if (st != PQT_OK) return st;
  if (o.max_files <= 0) o.max_files = DS_DEFAULT_MAX_FILES;
  pqt_dataset *ds = calloc(1, sizeof *ds);
  if (!ds) return pqt_nomem(err);
  if (o.read) {
    st = pqt_options_copy(&ds->ropts, sizeof ds->ropts, o.read, "pqt_read_options", err);
    if (st != PQT_OK) goto fail;
    ds->has_ropts = true;
  }
  if (o.fs) ds->fs = *o.fs;
  strlist files = {.max = o.max_files};
  size_t *rel_at = NULL;
  int32_t rel_cap = 0;
  for (int32_t i = 0; i < n_inputs && st == PQT_OK; i++) {
    if (!inputs[i]) st = pqt_error_set(err, PQT_EINVAL, "pqt_dataset_open: input %d is NULL", (int)i);
    else st = list_input(&ds->fs, inputs[i], &files, &rel_at, &rel_cap, err);
  }
  if (st != PQT_OK) {
    strlist_free(&files);
    free(rel_at);
    goto fail;
  }
  ds->files = calloc((size_t)files.n, sizeof *ds->files);
  if (!ds->files) {
    strlist_free(&files);
    free(rel_at);
    st = pqt_nomem(err);
    goto fail;
  }
  for (int32_t i = 0; i < files.n; i++) ds->files[i].path = files.v[i];
  ds->n_files = files.n;
  free(files.v);
  /* partitions */
  kv_list first = {.n = 0}, kv = {.n = 0};
  for (int32_t f = 0; f < ds->n_files && st == PQT_OK && o.hive_partitioning; f++) {
    kv_list *l = f == 0 ? &first : &kv;
    st = parse_partitions(ds->files[f].path, rel_at[f], l, err);
    if (st != PQT_OK) break;
    if (f == 0) {
      ds->n_parts = first.n;
      ds->part_names = calloc((size_t)(first.n + 1), sizeof(char *));
      ds->part_types = calloc((size_t)(first.n + 1), sizeof(int32_t));
      if (!ds->part_names || !ds->part_types) {
        st = pqt_nomem(err);
        break;
      }
      for (int i = 0; i < first.n; i++) {
        for (int j = 0; j < i; j++)
          if (strcmp(first.key[i], first.key[j]) == 0)
            st = pqt_error_set(err, PQT_EINVAL, "%s: partition key %s appears twice", ds->files[f].path, first.key[i]);
        ds->part_names[i] = strdup(first.key[i]);
        if (!ds->part_names[i]) st = pqt_nomem(err);
      }
    } else {
      bool same = kv.n == first.n;
      for (int i = 0; same && i < kv.n; i++) same = strcmp(kv.key[i], first.key[i]) == 0;
      if (!same) {
        st = pqt_error_set(err, PQT_EINVAL, "partition directories differ: %s and %s", ds->files[0].path,
                           ds->files[f].path);
        kv_free(&kv);
        break;
      }
    }
    pqt_ds_file *file = &ds->files[f];
    file->part_raw = calloc((size_t)(l->n + 1), sizeof(char *));
    file->part_i = calloc((size_t)(l->n + 1), sizeof(int64_t));
    if (!file->part_raw || !file->part_i) st = pqt_nomem(err);
    for (int i = 0; i < l->n && st == PQT_OK; i++) {
      file->part_raw[i] = l->val[i];
      l->val[i] = NULL;
    }
    kv_free(&kv);
  }
  kv_free(&first);
  free(rel_at);
  if (st != PQT_OK) goto fail;
  for (int32_t p = 0; p < ds->n_parts; p++) {
    int32_t type = PQT_PARTITION_INFER;
    for (int32_t j = 0; j < o.n_partition_fields && o.partition_fields; j++)
      if (o.partition_fields[j].name && strcmp(o.partition_fields[j].name, ds->part_names[p]) == 0)
        type = o.partition_fields[j].type;
    if (type != PQT_PARTITION_INFER && type != PQT_PARTITION_INT64 && type != PQT_PARTITION_STRING) {
      st = pqt_error_set(err, PQT_EINVAL, "partition column %s: unknown type %d", ds->part_names[p], (int)type);
      goto fail;
    }
    bool all_int = true;
    for (int32_t f = 0; f < ds->n_files; f++) {
      const char *v = ds->files[f].part_raw[p];  // NOLINT(clang-analyzer-core.NullDereference): each file got part_raw above, or open failed
      if (v && !parse_i64(v, &ds->files[f].part_i[p])) {
        all_int = false;
        if (type == PQT_PARTITION_INT64) {
          st = pqt_error_set(err, PQT_EINVAL, "%s: partition %s=%s is not an int64", ds->files[f].path,
                             ds->part_names[p], v);
          goto fail;
        }
      }
    }
    ds->part_types[p] = type == PQT_PARTITION_INFER ? (all_int ? PQT_PARTITION_INT64 : PQT_PARTITION_STRING) : type;
  }
  /* footers */
  st = read_footers(ds, err);
  if (st != PQT_OK) goto fail;
  *out = ds;
  return PQT_OK;
fail:
  pqt_dataset_close(ds);
  return st;
}

PQT_API pqt_status pqt_dataset_list(const char *const *inputs, int32_t n_inputs, const pqt_dataset_options *opts_in,
                                    char ***paths, int32_t *n_paths, pqt_error *err) {
  if (err) pqt_error_init(err);
  if (!paths || !n_paths) return pqt_error_set(err, PQT_EINVAL, "pqt_dataset_list: NULL argument");
  *paths = NULL;
  *n_paths = 0;
  if (!inputs || n_inputs <= 0) return pqt_error_set(err, PQT_EINVAL, "pqt_dataset_list: no inputs");
  pqt_dataset_options o = ds_defaults();
  pqt_status st = pqt_options_copy(&o, sizeof o, opts_in, "pqt_dataset_options", err);
  if (st != PQT_OK) return st;
  if (o.max_files <= 0) o.max_files = DS_DEFAULT_MAX_FILES;
  pqt_dataset_fs fs = {0};
  if (o.fs) fs = *o.fs;
  strlist files = {.max = o.max_files};
  size_t *rel_at = NULL;
  int32_t rel_cap = 0;
  for (int32_t i = 0; i < n_inputs && st == PQT_OK; i++) {
    if (!inputs[i]) st = pqt_error_set(err, PQT_EINVAL, "pqt_dataset_list: input %d is NULL", (int)i);
    else st = list_input(&fs, inputs[i], &files, &rel_at, &rel_cap, err);
  }
  free(rel_at);
  if (st != PQT_OK) {
    strlist_free(&files);
    return st;
  }
  *paths = files.v;
  *n_paths = files.n;
  return PQT_OK;
}

PQT_API void pqt_dataset_list_free(char **paths, int32_t n_paths) {
  for (int32_t i = 0; paths && i < n_paths; i++) free(paths[i]);
  free(paths);
}

PQT_API int32_t pqt_dataset_num_files(const pqt_dataset *ds) { return ds ? ds->n_files : 0; }
PQT_API const char *pqt_dataset_file_path(const pqt_dataset *ds, int32_t f) {
  return ds && f >= 0 && f < ds->n_files ? ds->files[f].path : NULL;
}
PQT_API int64_t pqt_dataset_file_num_rows(const pqt_dataset *ds, int32_t f) {
  return ds && f >= 0 && f < ds->n_files ? ds->files[f].rows : -1;
}
PQT_API int32_t pqt_dataset_file_num_row_groups(const pqt_dataset *ds, int32_t f) {
  return ds && f >= 0 && f < ds->n_files ? ds->files[f].n_groups : -1;
}
PQT_API int64_t pqt_dataset_num_rows(const pqt_dataset *ds) {
  int64_t n = 0;
  for (int32_t f = 0; ds && f < ds->n_files; f++) n += ds->files[f].rows;
  return n;
}
PQT_API pqt_status pqt_dataset_open_file(const pqt_dataset *ds, int32_t f, pqt_reader **out, pqt_error *err) {
  if (err) pqt_error_init(err);
  if (!ds || !out || f < 0 || f >= ds->n_files) return pqt_error_set(err, PQT_EINVAL, "no file %d", (int)f);
  return pqt_ds_open_reader(ds, f, out, err);
}
