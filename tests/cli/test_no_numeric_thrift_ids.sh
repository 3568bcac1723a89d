#!/usr/bin/env bash
# Fails when a Thrift field id or isset mask is written as a number outside
# the field lists (src/thrift/parquet_fields.h) and the descriptor tables
# they generate (src/thrift/parquet_desc.c). Name fields instead:
#   PQT_HAS_FIELD(cc, column_chunk, meta_data), PQT_SET_FIELD(...),
#   x.isset = PQT_FIELD_MASK(int_type, bit_width, is_signed).
# tools/thrift_names_migrate.py rewrites most such sites mechanically.
# Args: $1 parquetry binary, $2 corpus dir (both unused). Runs from the source tree.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)

# scan DIR...: print offending lines as file:line:text, status 0 when none.
scan() {
  local hits
  hits=$(
    grep -rnHE --include='*.c' --include='*.h' \
      -e '\bPQT_(HAS|SET)[[:space:]]*\(([^(),]|\([^()]*\))*,[[:space:]]*[0-9]+[[:space:]]*\)' \
      -e '(\.|->)[[:space:]]*isset[[:space:]]*([|&^]?=|[!=]=|,)[[:space:]]*~?[[:space:](]*(0[xX][0-9a-fA-F]*[1-9a-fA-F][0-9a-fA-F]*|[1-9][0-9]*)[uU]?[[:space:]]*[;),]' \
      -e '(\.|->)[[:space:]]*isset[[:space:]]*>>[[:space:]]*[0-9]' \
      "$@" 2>/dev/null |
      grep -E 'PQT_(HAS|SET)|isset|\.(algorithm|hash|compression)' |
      grep -vE '^[^:]*src/thrift/(parquet_fields\.h|parquet_desc\.c):'
    # a literal mask shifted by a literal on a line that touches isset
    grep -rnHE --include='*.c' --include='*.h' '\b(0[xX][0-9a-fA-F]+|[0-9]+)[uU]?[[:space:]]*<<[[:space:]]*\(?[[:space:]]*[0-9]' "$@" 2>/dev/null |
      grep -E 'isset|\.(algorithm|hash|compression)[[:space:]]*=' |
      grep -vE '^[^:]*src/thrift/(parquet_fields\.h|parquet_desc\.c):'
  )
  if [ -n "$hits" ]; then
    printf '%s\n' "$hits" | sort -u
    return 1
  fi
  return 0
}

# The check must be able to fail: every bad form below must be caught, and
# the named forms must not be.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/thrift"
cat >"$tmp/bad.c" <<'EOF'
int a = PQT_HAS(cc, 8);
void b(void) { PQT_SET(&rows[3].e.logical_type.geography, 2); }
void c(void) { d->isset |= 0xF << 1; }
void e(void) { lt.integer.isset = 6; }
void f(void) { cm->isset &= ~((1u << 11) | (1u << 12)); }
void g(void) { CHECK_EQ_INT(co.isset, 1u << 1); }
void h(void) { x.algorithm = 1u << 1; }
int i = (s.isset >> 3) & 1u;
EOF
cat >"$tmp/good.c" <<'EOF'
int a = PQT_HAS_FIELD(cc, column_chunk, crypto_metadata);
void b(void) { PQT_SET(&lt, member); x.isset = 0; if (y.isset == 0) return; }
void c(void) { d->isset |= PQT_FIELD_MASK(data_page_header, num_values, encoding); }
void e(void) { lt.isset = 1u << PQT_LT_DATE; n = lt.isset & (lt.isset - 1); }
void f(void) { uint64_t big = 1ull << 40; }
EOF
cp "$tmp/bad.c" "$tmp/src/thrift/parquet_desc.c" # the tables may hold ids
n_bad=$(scan "$tmp/bad.c" | wc -l)
if [ "$n_bad" -ne 8 ]; then
  echo "self-test: expected 8 offending lines in the bad sample, found $n_bad:"
  scan "$tmp/bad.c"
  exit 1
fi
if ! scan "$tmp/good.c" "$tmp/src/thrift/parquet_desc.c" >/dev/null; then
  echo "self-test: named forms or the descriptor tables were flagged:"
  scan "$tmp/good.c" "$tmp/src/thrift/parquet_desc.c"
  exit 1
fi

# The named forms turn a wrong field into a compile error: a field of
# another struct, or a pointer to another struct.
cc=${CC:-cc}
if command -v "$cc" >/dev/null 2>&1; then
  try() { # try NAME EXPR: compile a use of EXPR, status of the compiler
    printf '#include "thrift/parquet_types.h"\nunsigned f(pqt_column_chunk *cc, pqt_column_metadata *cm);\n%s\n' \
      "unsigned f(pqt_column_chunk *cc, pqt_column_metadata *cm) { $2 }" >"$tmp/$1.c"
    "$cc" -std=c11 -fsyntax-only -I"$src/src" -I"$src/include" "$tmp/$1.c" 2>"$tmp/$1.err"
  }
  if ! try ok 'PQT_SET_FIELD(cm, column_metadata, statistics); cc->isset = PQT_FIELD_MASK(column_chunk, file_offset, meta_data); return PQT_HAS_FIELD(cc, column_chunk, meta_data);'; then
    echo "compile check: the named forms do not compile:"; cat "$tmp/ok.err"; exit 1
  fi
  for bad in 'return PQT_HAS_FIELD(cc, column_chunk, statistics);' \
             'return PQT_HAS_FIELD(cm, column_chunk, meta_data);' \
             'PQT_SET_FIELD(cc, column_metadata, statistics); return 0;' \
             'return PQT_FIELD_MASK(column_chunk, statistics);'; do
    if try bad "$bad"; then echo "compile check: a wrong field compiled: $bad"; exit 1; fi
  done
else
  echo "compile check skipped: no C compiler ($cc)"
fi

dirs=()
for d in src cli tests fuzz include tools; do [ -d "$src/$d" ] && dirs+=("$src/$d"); done
if ! out=$(scan "${dirs[@]}"); then
  echo "numeric Thrift field ids or isset masks outside src/thrift/parquet_fields.h and parquet_desc.c:"
  printf '%s\n' "$out" | sed "s|^$src/||"
  echo "use PQT_HAS_FIELD / PQT_SET_FIELD / PQT_FIELD_MASK (tools/thrift_names_migrate.py rewrites most)"
  exit 1
fi
echo "no numeric Thrift field ids outside the field lists"
exit 0
