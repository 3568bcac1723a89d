#!/usr/bin/env python3
"""Write tiny hand-built Parquet files as fuzz seeds for fuzz_read_file.

usage: gen_seeds.py [OUT_DIR]   (default: fuzz/corpus/read_file next to this script)

Small inputs mutate fast, and each file here packs one feature into a few
hundred bytes: a CRC-checked v1 page, an optional string column with a
dictionary page, a 3-level LIST in a v2 page (levels outside compression),
a DELTA_BINARY_PACKED column, and two row groups. The Thrift compact encoder
below follows parquet.thrift field ids; the files are checked by
`parquetry cat` (see fuzz/README or the hardening report).
"""
import os
import struct
import sys
import zlib

# ---- Thrift compact protocol ----
I32, I64, BINARY, LIST, STRUCT, TRUE, FALSE = 5, 6, 8, 9, 12, 1, 2


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(n):
    return (n << 1) ^ (n >> 63)


def enc_value(t, v):
    if t in (I32, I64):
        return varint(zigzag(v))
    if t == BINARY:
        v = v.encode() if isinstance(v, str) else v
        return varint(len(v)) + v
    if t == STRUCT:
        return struct_(v)
    if t == LIST:
        et, items = v
        n = len(items)
        head = bytes([(n << 4) | et]) if n < 15 else bytes([0xF0 | et]) + varint(n)
        return head + b"".join(enc_value(et, x) for x in items)
    raise ValueError(t)


def struct_(fields):
    """fields: list of (id, type, value); bools as (id, TRUE/FALSE, None)."""
    out = bytearray()
    last = 0
    for fid, t, v in sorted(fields, key=lambda f: f[0]):
        delta = fid - last
        if 0 < delta <= 15:
            out.append((delta << 4) | t)
        else:
            out.append(t)
            out += varint(zigzag(fid))
        if t not in (TRUE, FALSE):
            out += enc_value(t, v)
        last = fid
    out.append(0)
    return bytes(out)


# ---- Parquet enums ----
BOOLEAN, INT32, INT64, BYTE_ARRAY = 0, 1, 2, 6
REQUIRED, OPTIONAL, REPEATED = 0, 1, 2
PLAIN, PLAIN_DICT, RLE, DBP, RLE_DICT = 0, 2, 3, 5, 8
DATA_PAGE, DICT_PAGE, DATA_PAGE_V2 = 0, 2, 3
UTF8, LIST_CT = 0, 3


def schema_el(name, typ=None, rep=None, children=None, converted=None):
    f = [(4, BINARY, name)]
    if typ is not None:
        f.append((1, I32, typ))
    if rep is not None:
        f.append((3, I32, rep))
    if children is not None:
        f.append((5, I32, children))
    if converted is not None:
        f.append((6, I32, converted))
    return f


def page(ptype, body, sub_id, sub, crc=False, uncompressed=None):
    f = [(1, I32, ptype), (2, I32, len(body) if uncompressed is None else uncompressed),
         (3, I32, len(body)), (sub_id, STRUCT, sub)]
    if crc:
        c = zlib.crc32(body) & 0xFFFFFFFF
        f.append((4, I32, c - (1 << 32) if c >= 1 << 31 else c))
    return struct_(f) + body


def data_page_v1(num_values, encoding, body, crc=False):
    sub = [(1, I32, num_values), (2, I32, encoding), (3, I32, RLE), (4, I32, RLE)]
    return page(DATA_PAGE, body, 5, sub, crc)


def dict_page(num_values, body):
    return page(DICT_PAGE, body, 7, [(1, I32, num_values), (2, I32, PLAIN)])


def bitpack(values, bw):
    """RLE/bit-packed hybrid, one bit-packed run (padded to groups of 8)."""
    vals = list(values) + [0] * (-len(values) % 8)
    bits = 0
    for i, v in enumerate(vals):
        bits |= v << (i * bw)
    n = len(vals) * bw // 8
    return varint(((len(vals) // 8) << 1) | 1) + bits.to_bytes(n, "little")


def with_len(b):
    return struct.pack("<I", len(b)) + b


def column_chunk(typ, path, codec, num_values, start, pages_len, encodings, dict_offset=None):
    md = [(1, I32, typ), (2, LIST, (I32, encodings)), (3, LIST, (BINARY, path)), (4, I32, codec),
          (5, I64, num_values), (6, I64, pages_len), (7, I64, pages_len), (9, I64, start)]
    if dict_offset is not None:
        md[-1] = (9, I64, dict_offset[1])
        md.append((11, I64, dict_offset[0]))
    return [(2, I64, start), (3, STRUCT, md)]


def parquet_file(schema, row_groups, num_rows):
    """row_groups: list of (num_rows, [(typ, path, num_values, encodings, [pages], dict_page_count)])."""
    body = bytearray(b"PAR1")
    rgs = []
    for rg_rows, cols in row_groups:
        chunks = []
        size = 0
        for typ, path, nv, encs, pages, n_dict in cols:
            start = len(body)
            offs = []
            for p in pages:
                offs.append(len(body))
                body += p
            length = len(body) - start
            size += length
            d = (offs[0], offs[n_dict]) if n_dict else None
            chunks.append(column_chunk(typ, path, 0, nv, start, length, encs, d))
        rgs.append([(1, LIST, (STRUCT, chunks)), (2, I64, size), (3, I64, rg_rows)])
    md = struct_([(1, I32, 2), (2, LIST, (STRUCT, schema)), (3, I64, num_rows),
                  (4, LIST, (STRUCT, rgs)), (6, BINARY, "parquetry gen_seeds.py")])
    return bytes(body) + md + struct.pack("<I", len(md)) + b"PAR1"


def dbp_encode(values):
    """DELTA_BINARY_PACKED, block 128, 4 miniblocks of 32."""
    out = varint(128) + varint(4) + varint(len(values)) + varint(zigzag(values[0]))
    deltas = [b - a for a, b in zip(values, values[1:])]
    for i in range(0, len(deltas), 128):
        block = deltas[i:i + 128]
        mn = min(block)
        out += varint(zigzag(mn))
        rel = [d - mn for d in block]
        minis = [rel[j:j + 32] for j in range(0, len(rel), 32)]
        widths = [max(x.bit_length() for x in m) for m in minis] + [0] * (4 - len(minis))
        out += bytes(widths)
        for m, w in zip(minis, widths):
            m = m + [0] * (32 - len(m))
            bits = 0
            for k, v in enumerate(m):
                bits |= v << (k * w)
            out += bits.to_bytes(32 * w // 8, "little")
    return out


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                 "corpus", "read_file")
    os.makedirs(out_dir, exist_ok=True)
    files = {}

    # 1. required INT32, PLAIN, one v1 page with a CRC
    vals = [1, -2, 3, 2147483647, -2147483648]
    p = data_page_v1(5, PLAIN, b"".join(struct.pack("<i", v) for v in vals), crc=True)
    files["gen_int32_crc.parquet"] = parquet_file(
        [schema_el("schema", children=1), schema_el("a", INT32, REQUIRED)],
        [(5, [(INT32, ["a"], 5, [PLAIN, RLE], [p], 0)])], 5)

    # 2. optional UTF8 string with a dictionary page, one null
    dp = dict_page(2, with_len(b"ab") + with_len(b"xyz"))
    defs = [1, 1, 0, 1, 1, 1]
    idx = [0, 1, 1, 0, 1]
    body = with_len(bitpack(defs, 1)) + bytes([1]) + bitpack(idx, 1)
    p = data_page_v1(6, RLE_DICT, body)
    files["gen_string_dict.parquet"] = parquet_file(
        [schema_el("schema", children=1), schema_el("s", BYTE_ARRAY, OPTIONAL, converted=UTF8)],
        [(6, [(BYTE_ARRAY, ["s"], 6, [PLAIN, RLE, RLE_DICT], [dp, p], 1)])], 6)

    # 3. LIST<INT64> in a v2 page: [1,2], [], null, [null,3]
    reps = [0, 1, 0, 0, 0, 1]
    defs = [3, 3, 1, 0, 2, 3]
    rl = bitpack(reps, 1)
    dl = bitpack(defs, 2)
    values = b"".join(struct.pack("<q", v) for v in [1, 2, 3])
    sub = [(1, I32, 6), (2, I32, 3), (3, I32, 4), (4, I32, PLAIN), (5, I32, len(dl)), (6, I32, len(rl)),
           (7, FALSE, None)]
    p = page(DATA_PAGE_V2, rl + dl + values, 8, sub)
    files["gen_list_v2.parquet"] = parquet_file(
        [schema_el("schema", children=1), schema_el("l", rep=OPTIONAL, children=1, converted=LIST_CT),
         schema_el("list", rep=REPEATED, children=1), schema_el("element", INT64, OPTIONAL)],
        [(4, [(INT64, ["l", "list", "element"], 6, [PLAIN, RLE], [p], 0)])], 4)

    # 4. DELTA_BINARY_PACKED INT64, 40 values in two pages; two row groups of BOOLEAN too
    vals = [(i * i * 7919) % 1000 - 500 for i in range(40)]
    p1 = data_page_v1(20, DBP, dbp_encode(vals[:20]))
    p2 = data_page_v1(20, DBP, dbp_encode(vals[20:]))
    bools = [i % 3 == 0 for i in range(40)]

    def bool_page(bs):
        bits = 0
        for i, b in enumerate(bs):
            bits |= int(b) << i
        return data_page_v1(len(bs), PLAIN, bits.to_bytes((len(bs) + 7) // 8, "little"))

    files["gen_delta_two_groups.parquet"] = parquet_file(
        [schema_el("schema", children=2), schema_el("d", INT64, REQUIRED), schema_el("b", BOOLEAN, REQUIRED)],
        [(20, [(INT64, ["d"], 20, [DBP, RLE], [p1], 0), (BOOLEAN, ["b"], 20, [PLAIN, RLE], [bool_page(bools[:20])], 0)]),
         (20, [(INT64, ["d"], 20, [DBP, RLE], [p2], 0), (BOOLEAN, ["b"], 20, [PLAIN, RLE], [bool_page(bools[20:])], 0)])],
        40)

    for name, data in files.items():
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(data)
        print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
