/*
 * write_nested.c: write nested data (a list of structs) from an Arrow record
 * batch, then read the file back as JSON Lines.
 *
 *   write_nested [OUT.parquet]     (default: orders.parquet in the current folder)
 *
 * The schema, in Parquet's message syntax:
 *
 *   message orders {
 *     required int64 id;
 *     optional group items (LIST) {          -- null, empty or a list
 *       repeated group list {
 *         optional group element {           -- an item may be null
 *           required binary sku (STRING);
 *           required int32 qty;
 *         }
 *       }
 *     }
 *   }
 *
 * The writer takes Arrow arrays laid out as pqt_writer_arrow_schema says
 * (here: struct<id: int64, items: list<element: struct<sku: utf8, qty: int32>>>)
 * and works out the definition and repetition levels itself. The arrays are
 * built by hand below from static buffers, as any Arrow producer would hand
 * them over; the batch is borrowed, never released by the writer.
 *
 * ctest-args:
 */
#include <stdio.h>

#include <parquetry.h>
#include <parquetry_arrow.h>

/* The buffers are static: nothing to free. */
static void release_nothing(struct ArrowArray *a) { a->release = NULL; }

/* An array with `n_buffers` buffers and the given children. */
static struct ArrowArray array(int64_t length, int64_t null_count, int64_t n_buffers, const void **buffers,
                               int64_t n_children, struct ArrowArray **children) {
  struct ArrowArray a = {
      .length = length,
      .null_count = null_count,
      .offset = 0,
      .n_buffers = n_buffers,
      .n_children = n_children,
      .buffers = buffers,
      .children = children,
      .dictionary = NULL,
      .release = release_nothing,
      .private_data = NULL,
  };
  return a;
}

static pqt_status print_text(void *ctx, const char *data, size_t len) {
  (void)ctx;
  return fwrite(data, 1, len, stdout) == len ? PQT_OK : PQT_EIO;
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "orders.parquet";

  /* Four orders:
   *   {id 1, items [{A1, 2}, {B7, 1}]}
   *   {id 2, items []}
   *   {id 3, items null}
   *   {id 4, items [null, {C3, 5}]}
   * Validity bitmaps have one bit a value, least significant bit first. */
  static const int64_t id[] = {1, 2, 3, 4};
  static const uint8_t items_valid[] = {0x0B};            /* 1011: order 3 has no list */
  static const int32_t items_offsets[] = {0, 2, 2, 2, 4}; /* order i's items: [off[i], off[i+1]) */
  static const uint8_t element_valid[] = {0x0B};          /* 1011: element 2 (order 4's first) is null */
  static const int32_t sku_offsets[] = {0, 2, 4, 4, 6};   /* a null struct slot still has (empty) children */
  static const char sku_data[] = "A1B7C3";
  static const int32_t qty[] = {2, 1, 0, 5};

  const void *id_bufs[] = {NULL, id}; /* NULL validity: no nulls */
  const void *sku_bufs[] = {NULL, sku_offsets, sku_data};
  const void *qty_bufs[] = {NULL, qty};
  const void *element_bufs[] = {element_valid};
  const void *items_bufs[] = {items_valid, items_offsets};
  const void *batch_bufs[] = {NULL};

  struct ArrowArray a_id = array(4, 0, 2, id_bufs, 0, NULL);
  struct ArrowArray a_sku = array(4, 0, 3, sku_bufs, 0, NULL);
  struct ArrowArray a_qty = array(4, 0, 2, qty_bufs, 0, NULL);
  struct ArrowArray *element_children[] = {&a_sku, &a_qty};
  struct ArrowArray a_element = array(4, 1, 1, element_bufs, 2, element_children);
  struct ArrowArray *items_children[] = {&a_element};
  struct ArrowArray a_items = array(4, 1, 2, items_bufs, 1, items_children);
  struct ArrowArray *batch_children[] = {&a_id, &a_items};
  struct ArrowArray batch = array(4, 0, 1, batch_bufs, 2, batch_children);

  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message =
      "message orders { required int64 id; optional group items (LIST) { repeated group list {"
      " optional group element { required binary sku (STRING); required int32 qty; } } } }";
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.defaults.codec = PQT_CODEC_ZSTD;

  pqt_writer *w;
  pqt_error err;
  if (pqt_writer_open_file(&w, path, &ws, &wo, &err) != PQT_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    return 1;
  }
  /* What the writer expects, as an Arrow schema: print the top-level formats. */
  struct ArrowSchema expected;
  if (pqt_writer_arrow_schema(w, &expected, &err) == PQT_OK) {
    for (int64_t i = 0; i < expected.n_children; i++)
      printf("column %s: Arrow format \"%s\"\n", expected.children[i]->name, expected.children[i]->format);
    expected.release(&expected);
  }
  /* A batch is checked before anything is written: a value that does not fit
   * its column is an error naming the column and row, and nothing is lost
   * silently. */
  if (pqt_writer_write_batch(w, &batch, &err) != PQT_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    pqt_writer_discard(w); /* removes the temporary file */
    return 1;
  }
  if (pqt_writer_close(w, &err) != PQT_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    return 1;
  }
  printf("wrote %s\n", path);

  /* Read it back: the rows as JSON Lines, as `parquetry cat` prints them. */
  pqt_reader *r;
  if (pqt_reader_open_file(&r, path, NULL, &err) != PQT_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    return 1;
  }
  pqt_scan_options opts;
  pqt_scan_options_init(&opts);
  pqt_status st = pqt_reader_write_text(r, &opts, PQT_TEXT_JSONL, -1, print_text, NULL, &err);
  if (st != PQT_OK) fprintf(stderr, "%s: %s\n", path, err.message);
  pqt_reader_close(r);
  return st != PQT_OK;
}
