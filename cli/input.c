/*
 * cli/input.c: the bytes of convert's input, read twice (once to infer the
 * schema, once to write). A plain file is read with read(2) and rewound;
 * zstd content is decompressed as a stream (rewound by starting again);
 * standard input is copied to an unlinked temporary file first. gzip
 * content is decompressed member by member with libdeflate (which has no
 * streaming interface) into that temporary file: memory is bounded by the
 * largest member, not the input.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libdeflate.h>
#include <zstd.h>

#include "convert.h"

struct cv_input {
  int fd;
  const unsigned char *mem; /* cv_input_open_memory */
  size_t mem_len, mem_pos;
  bool zstd;
  ZSTD_DCtx *dctx;
  unsigned char *zin;
  size_t zin_pos, zin_len, zin_cap;
  bool zin_eof, frame_done;
  unsigned char head[4096]; /* the first bytes of the content */
  size_t head_len;
};

static int set_err(char *err, const char *what) {
  snprintf(err, CV_ERR, "%s", what);
  return -1;
}

static int sys_err(char *err, const char *what) {
  snprintf(err, CV_ERR, "%s: %s", what, strerror(errno));
  return -1;
}

static long read_full(int fd, void *dst, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t k = read(fd, (char *)dst + got, n - got);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return -1;
    if (k == 0) break;
    got += (size_t)k;
  }
  return (long)got;
}

static int write_full(int fd, const void *p, size_t n) {
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    p = (const char *)p + k;
    n -= (size_t)k;
  }
  return 0;
}

static int temp_fd(char *err) {
  const char *dir = getenv("TMPDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/parquetry-convert.XXXXXX", dir && *dir ? dir : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0) return sys_err(err, "temporary file");
  unlink(path);
  return fd;
}

/* Copy fd to a new unlinked temporary file; returns the new fd. */
static int spool(int fd, const unsigned char *pre, size_t pre_len, char *err) {
  int t = temp_fd(err);
  if (t < 0) return -1;
  char *buf = malloc(1 << 16);
  if (!buf) {
    close(t);
    return set_err(err, "out of memory");
  }
  int rc = write_full(t, pre, pre_len);
  for (long k; rc == 0 && (k = read_full(fd, buf, 1 << 16)) != 0;) {
    if (k < 0) {
      rc = -1;
      break;
    }
    rc = write_full(t, buf, (size_t)k);
  }
  free(buf);
  if (rc != 0 || lseek(t, 0, SEEK_SET) != 0) {
    sys_err(err, "copying the input");
    close(t);
    return -1;
  }
  return t;
}

/* gzip members of fd (a regular file, mapped) into a temporary file. */
static int gunzip(int fd, char *err) {
  struct stat st;
  if (fstat(fd, &st) != 0) return sys_err(err, "stat");
  size_t n = (size_t)st.st_size;
  const unsigned char *src = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
  if (src == MAP_FAILED) return sys_err(err, "mmap");
  int t = temp_fd(err);
  struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
  unsigned char *out = NULL;
  size_t cap = 0, pos = 0;
  int rc = t < 0 || !d ? -1 : 0;
  if (t >= 0 && !d) set_err(err, "out of memory");
  while (rc == 0 && pos < n) {
    if (n - pos < 18) {
      rc = set_err(err, "gzip: truncated member");
      break;
    }
    /* ISIZE (the member's size mod 2^32) is the hint; grow when it is short */
    size_t in_used = 0, out_len = 0;
    enum libdeflate_result r = LIBDEFLATE_INSUFFICIENT_SPACE;
    /* the last member's ISIZE (size mod 2^32) as the first guess: one pass for one member */
    size_t isize = (size_t)src[n - 4] | (size_t)src[n - 3] << 8 | (size_t)src[n - 2] << 16 | (size_t)src[n - 1] << 24;
    size_t want = cap ? cap : 1 << 20;
    if (!cap && isize >= want && isize / 1032 <= n) want = isize + 1; /* deflate expands at most ~1032:1 */
    while (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
      if (want > cap) {
        unsigned char *o = realloc(out, want);
        if (!o) {
          rc = set_err(err, "gzip: out of memory (a member too large to decompress)");
          break;
        }
        out = o;
        cap = want;
      }
      r = libdeflate_gzip_decompress_ex(d, src + pos, n - pos, out, cap, &in_used, &out_len);
      want = cap * 2;
    }
    if (rc != 0) break;
    if (r != LIBDEFLATE_SUCCESS) {
      rc = set_err(err, "gzip: corrupt data");
      break;
    }
    if (write_full(t, out, out_len) != 0) {
      rc = sys_err(err, "writing the decompressed input");
      break;
    }
    pos += in_used;
    while (pos < n && src[pos] == 0) pos++; /* padding after the last member */
  }
  free(out);
  if (d) libdeflate_free_decompressor(d);
  munmap((void *)src, n);
  if (rc != 0 || lseek(t, 0, SEEK_SET) != 0) {
    if (t >= 0) close(t);
    return -1;
  }
  return t;
}

static long raw_read(cv_input *in, void *dst, size_t n, char *err) {
  if (in->mem) {
    size_t k = in->mem_len - in->mem_pos < n ? in->mem_len - in->mem_pos : n;
    memcpy(dst, in->mem + in->mem_pos, k);
    in->mem_pos += k;
    return (long)k;
  }
  if (!in->zstd) {
    long k = read_full(in->fd, dst, n);
    if (k < 0) sys_err(err, "read");
    return k;
  }
  ZSTD_outBuffer ob = {dst, n, 0};
  while (ob.pos == 0) {
    if (in->zin_pos == in->zin_len && !in->zin_eof) {
      long k = read_full(in->fd, in->zin, in->zin_cap);
      if (k < 0) return sys_err(err, "read");
      in->zin_pos = 0;
      in->zin_len = (size_t)k;
      in->zin_eof = k == 0;
    }
    ZSTD_inBuffer ib = {in->zin, in->zin_len, in->zin_pos};
    size_t r = ZSTD_decompressStream(in->dctx, &ob, &ib);
    bool moved = ib.pos != in->zin_pos || ob.pos != 0;
    in->zin_pos = ib.pos;
    if (ZSTD_isError(r)) {
      snprintf(err, CV_ERR, "zstd: %s", ZSTD_getErrorName(r));
      return -1;
    }
    if (moved) in->frame_done = r == 0;
    if (in->zin_eof && ob.pos == 0) {
      if (!in->frame_done) return set_err(err, "zstd: truncated input");
      break;
    }
  }
  return (long)ob.pos;
}

static int load_head(cv_input *in, char *err) {
  long k = raw_read(in, in->head, sizeof in->head, err);
  if (k < 0) return -1;
  in->head_len = (size_t)k;
  return 0;
}

int cv_input_open(cv_input **out, const char *path, char *err) {
  *out = NULL;
  cv_input *in = calloc(1, sizeof *in);
  if (!in) return set_err(err, "out of memory");
  in->fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY);
  if (in->fd < 0) {
    free(in);
    return sys_err(err, "cannot open");
  }
  unsigned char magic[4];
  struct stat st;
  bool regular = fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode) && in->fd != STDIN_FILENO;
  long m = read_full(in->fd, magic, 4);
  if (m < 0) {
    sys_err(err, "read");
    goto fail;
  }
  bool is_gz = m >= 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  bool is_zst = m == 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd;
  if (!regular) {
    int t = spool(in->fd, magic, (size_t)m, err);
    if (in->fd != STDIN_FILENO) close(in->fd);
    in->fd = t;
    if (t < 0) goto fail;
  } else if (lseek(in->fd, 0, SEEK_SET) != 0) {
    sys_err(err, "seek");
    goto fail;
  }
  if (is_gz) {
    int t = gunzip(in->fd, err);
    close(in->fd);
    in->fd = t;
    if (t < 0) goto fail;
  } else if (is_zst) {
    in->zstd = true;
    in->dctx = ZSTD_createDCtx();
    in->zin_cap = ZSTD_DStreamInSize();
    in->zin = malloc(in->zin_cap);
    if (!in->dctx || !in->zin) {
      set_err(err, "out of memory");
      goto fail;
    }
  }
  if (load_head(in, err) != 0 || cv_input_rewind(in, err) != 0) goto fail;
  *out = in;
  return 0;
fail:
  cv_input_close(in);
  return -1;
}

int cv_input_open_memory(cv_input **out, const void *data, size_t n, char *err) {
  cv_input *in = calloc(1, sizeof *in);
  *out = in;
  if (!in) return set_err(err, "out of memory");
  in->fd = -1;
  in->mem = n ? data : (const unsigned char *)"";
  in->mem_len = n;
  in->head_len = n < sizeof in->head ? n : sizeof in->head;
  memcpy(in->head, in->mem, in->head_len);
  return 0;
}

int cv_input_rewind(cv_input *in, char *err) {
  if (in->mem) {
    in->mem_pos = 0;
    return 0;
  }
  if (lseek(in->fd, 0, SEEK_SET) != 0) return sys_err(err, "seek");
  if (in->zstd) {
    ZSTD_DCtx_reset(in->dctx, ZSTD_reset_session_only);
    in->zin_pos = in->zin_len = 0;
    in->zin_eof = in->frame_done = false;
  }
  return 0;
}

long cv_input_read(cv_input *in, void *dst, size_t n, char *err) { return raw_read(in, dst, n, err); }

size_t cv_input_peek(cv_input *in, const char **p) {
  *p = (const char *)in->head;
  return in->head_len;
}

void cv_input_close(cv_input *in) {
  if (!in) return;
  if (in->fd > STDIN_FILENO) close(in->fd);
  if (in->dctx) ZSTD_freeDCtx(in->dctx);
  free(in->zin);
  free(in);
}

/* ---- buffered bytes with line numbers; latin1 transcoded to UTF-8 ---- */

void cv_bytes_init(cv_bytes *b, cv_input *in, bool latin1) {
  b->in = in;
  b->pos = b->len = 0;
  b->eof = false;
  b->latin1 = latin1;
  b->offset = 0;
  b->line = 1;
  b->err[0] = 0;
  b->failed = false;
}

int cv_bytes_fill(cv_bytes *b) {
  if (b->pos < b->len) return 1;
  if (b->eof || b->failed) return b->failed ? -1 : 0;
  size_t want = b->latin1 ? sizeof b->buf / 2 : sizeof b->buf;
  long k = cv_input_read(b->in, b->buf, want, b->err);
  if (k < 0) {
    b->failed = true;
    return -1;
  }
  if (k == 0) {
    b->eof = true;
    return 0;
  }
  size_t n = (size_t)k;
  if (b->latin1) {
    /* each byte >= 0x80 becomes two: work from the end */
    size_t extra = 0;
    for (size_t i = 0; i < n; i++) extra += b->buf[i] >= 0x80;
    for (size_t i = n, o = n + extra; i-- > 0;) {
      unsigned char c = b->buf[i];
      if (c < 0x80) b->buf[--o] = c;
      else {
        b->buf[--o] = (unsigned char)(0x80 | (c & 0x3f));
        b->buf[--o] = (unsigned char)(0xc0 | (c >> 6));
      }
    }
    n += extra;
  }
  b->pos = 0;
  b->len = n;
  return 1;
}

/* ---- records ---- */

void cv_record_free(cv_record *r) {
  free(r->data);
  free(r->f);
  memset(r, 0, sizeof *r);
}

int cv_record_put(cv_record *r, const char *p, size_t n) {
  if (r->dlen + n + 1 > r->dcap) {
    size_t nc = r->dcap ? r->dcap : 1024;
    while (nc < r->dlen + n + 1) nc *= 2;
    char *d = realloc(r->data, nc);
    if (!d) return -1;
    r->data = d;
    r->dcap = nc;
  }
  memcpy(r->data + r->dlen, p, n);
  r->dlen += n;
  return 0;
}

int cv_record_field(cv_record *r, size_t start, cv_kind k, int64_t byte) {
  if (r->nf == r->fcap) {
    int nc = r->fcap ? r->fcap * 2 : 16;
    cv_field *f = realloc(r->f, (size_t)nc * sizeof *f);
    if (!f) return -1;
    r->f = f;
    r->fcap = nc;
  }
  if (cv_record_put(r, "", 0) != 0) return -1;
  r->data[r->dlen] = 0; /* a NUL after every field, for the number parsers */
  r->f[r->nf++] = (cv_field){start, r->dlen - start, k, byte};
  r->dlen++;
  return 0;
}

size_t cv_utf8_bad(const unsigned char *p, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned char c = p[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t len;
    uint32_t cp;
    if (c >= 0xc2 && c <= 0xdf) {
      len = 2;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      len = 3;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4;
      cp = c & 0x07;
    } else return i + 1;
    if (i + len > n) return i + 1;
    for (size_t k = 1; k < len; k++) {
      if ((p[i + k] & 0xc0) != 0x80) return i + 1;
      cp = (cp << 6) | (p[i + k] & 0x3f);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
      return i + 1;
    i += len;
  }
  return 0;
}
