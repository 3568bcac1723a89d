#!/usr/bin/env bash
# `make install` works for another C program. The test build is installed into
# a temporary DESTDIR under /usr/local, and a second build configured for
# /usr (GNUInstallDirs: a multiarch libdir such as lib/x86_64-linux-gnu on
# Debian) under another one. Against each copy the README's API example is
# built with pkg-config (shared; --static, which links the archive even with
# the shared library installed; and the archive via parquetry-static) and with CMake's find_package(parquetry CONFIG) (both
# imported targets), then run; ldd shows which libparquetry each one uses.
# The shared library must carry a SONAME and export only pqt_* symbols. The
# man page and the bash and zsh completions are installed, render without
# warnings, and complete every command.
# Usage: CLI CORPUS_DIR (the build dir is the CLI's folder).
set -u
build=$(cd "$(dirname "$1")" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
for tool in pkg-config cmake ldd nm readelf; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not found"; exit 77; }
done
# the test build carries sanitizers: build the examples the same way
san=""
grep -q "PQT_SANITIZE:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null && san="-fsanitize=address,undefined"
fixture="$here/tests/fixtures/seed004_nested.parquet"

# the README's example, extracted from README.md so the two cannot drift apart
# (a whole program: it reads the file named by its argument; the fixture
# has other columns than the example's)
awk '/^```c$/{n++; if (n==1) {on=1; next}} /^```$/{on=0} on' "$here/README.md" |
  sed "s|{\"id\", \"address.city\"}|{\"nest.nest\", \"nest.repeated\"}|" > "$tmp/example.c"

# run_example NAME BINARY: it prints its row count and exits 0
run_example() {
  local out
  out=$("$2" "$fixture" 2>&1)
  if [ $? -eq 0 ] && echo "$out" | grep -Eq '^[1-9][0-9]* rows$'; then ok; else bad "$1: example output: $out"; fi
}
# uses_shared BINARY: does the dynamic loader load libparquetry.so?
uses_shared() { ldd "$1" 2>/dev/null | grep -q 'libparquetry\.so'; }

# check_cli_docs LABEL ROOT: the man page and the bash and zsh completions
# (tools/gen_cli_docs.sh, from the installed binary's help) are installed,
# name every command of the command table, and work
check_cli_docs() {
  local label=$1 root=$2 man=$2/share/man/man1/parquetry.1
  local bashc=$2/share/bash-completion/completions/parquetry zshc=$2/share/zsh/site-functions/_parquetry
  local f cmds c missing=""
  for f in "$man" "$bashc" "$zshc"; do
    [ -s "$f" ] && ok || bad "$label: ${f#"$root"/} not installed"
  done
  [ -s "$man" ] && [ -s "$bashc" ] || return
  cmds=$("$root/bin/parquetry" help --commands)
  [ -n "$cmds" ] && ok || bad "$label: 'parquetry help --commands' lists nothing"
  # man renders it at 80 columns without a single warning (and groff -ww agrees)
  local warn
  if command -v man >/dev/null; then
    warn=$(MANWIDTH=80 man --warnings -l "$man" 2>&1 >/dev/null)
    [ -z "$warn" ] && ok || bad "$label: man --warnings: $warn"
    local text
    text=$(MANWIDTH=80 man -l "$man" 2>/dev/null)
    for c in $cmds; do
      echo "$text" | grep -Eq "^   $c\$" || missing="$missing $c"
    done
    [ -z "$missing" ] && ok || bad "$label: the man page has no section for:$missing"
    # each section carries the command's --help text (its usage line)
    echo "$text" | grep -q 'parquetry cat ' && ok || bad "$label: the man page lacks cat's usage"
  fi
  if command -v groff >/dev/null; then
    warn=$(groff -ww -z -man "$man" 2>&1)
    [ -z "$warn" ] && ok || bad "$label: groff -ww: $warn"
  fi
  # bash: complete a command, an option, and an option's fixed values
  local got
  got=$(bash -c 'source "$1"; COMP_WORDS=(parquetry ca); COMP_CWORD=1; _parquetry; echo "${COMPREPLY[*]}"' _ "$bashc")
  [ "$got" = cat ] && ok || bad "$label: bash completion of 'parquetry ca': '$got'"
  got=$(bash -c 'source "$1"; COMP_WORDS=(parquetry cat --whe); COMP_CWORD=2; _parquetry; echo "${COMPREPLY[*]}"' _ "$bashc")
  case " $got " in *" --where "*) ok ;; *) bad "$label: bash completion of 'parquetry cat --whe': '$got'" ;; esac
  got=$(bash -c 'source "$1"; COMP_WORDS=(parquetry cat --format ""); COMP_CWORD=3; _parquetry; echo "${COMPREPLY[*]}"' _ "$bashc")
  local want_fmt found=0
  for want_fmt in jsonl csv; do case " $got " in *" $want_fmt "*) found=$((found+1)) ;; esac; done
  [ $found -eq 2 ] && ok || bad "$label: bash completion of 'parquetry cat --format': '$got'"
  got=$(bash -c 'source "$1"; COMP_WORDS=(parquetry ""); COMP_CWORD=1; _parquetry; echo "${COMPREPLY[*]}"' _ "$bashc")
  missing=""
  for c in $cmds; do case " $got " in *" $c "*) ;; *) missing="$missing $c" ;; esac; done
  [ -z "$missing" ] && ok || bad "$label: bash completion lacks commands:$missing"
  # zsh: a #compdef file that parses (when zsh is here to parse it)
  head -1 "$zshc" | grep -qx '#compdef parquetry' && ok || bad "$label: _parquetry does not start with #compdef"
  if command -v zsh >/dev/null; then
    zsh -n "$zshc" && ok || bad "$label: zsh -n _parquetry fails"
  fi
}

# check_install LABEL DESTDIR PREFIX EXPECTED_LIBDIR (relative to PREFIX; "" = any)
check_install() {
  local label=$1 dest=$2 prefix=$3 want=$4
  local root="$dest$prefix" pc libdir rel
  for f in include/parquetry.h include/parquetry_arrow.h include/parquetry_filter.h; do
    [ -e "$root/$f" ] && ok || bad "$label: $f not installed"
  done
  pc=$(find "$root" -name parquetry.pc | head -1)
  if [ -z "$pc" ]; then bad "$label: parquetry.pc not installed"; return; fi
  libdir=$(dirname "$(dirname "$pc")")
  rel=${libdir#"$root"/}
  if [ -n "$want" ] && [ "$rel" != "$want" ]; then bad "$label: libdir is $rel, expected $want"; else ok; fi
  for f in libparquetry.a libparquetry.so pkgconfig/parquetry-static.pc pkgconfig/parquetry-shared.pc \
           cmake/parquetry/parquetryConfig.cmake cmake/parquetry/parquetryConfigVersion.cmake; do
    [ -e "$libdir/$f" ] && ok || bad "$label: $rel/$f not installed"
  done
  # SONAME, and the real file behind the libparquetry.so.0 link
  local soname
  soname=$(readelf -d "$libdir/libparquetry.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  if [ "$soname" = libparquetry.so.0 ] && [ -e "$libdir/$soname" ]; then ok; else bad "$label: SONAME '$soname'"; fi
  # only pqt_* exported (the linker's own _init/_fini/_edata/_end/__bss_start aside)
  local extra
  extra=$(nm -D --defined-only "$libdir/libparquetry.so" | awk '{print $NF}' |
          grep -Ev '^(pqt_|_init$|_fini$|_edata$|_end$|__bss_start$)')
  [ -z "$extra" ] && ok || bad "$label: libparquetry.so exports non-pqt_ symbols: $(echo $extra | head -c 300)"

  check_cli_docs "$label" "$root"

  export PKG_CONFIG_PATH="$libdir/pkgconfig"
  # the .pc's paths resolve into this very installation
  local pl pi
  pl=$(cd "$(pkg-config --variable=libdir parquetry)" 2>/dev/null && pwd -P)
  pi=$(cd "$(pkg-config --variable=includedir parquetry)" 2>/dev/null && pwd -P)
  if [ "$pl" = "$(cd "$libdir" && pwd -P)" ] && [ "$pi" = "$(cd "$root/include" && pwd -P)" ]; then ok
  else bad "$label: parquetry.pc points at libdir '$pl', includedir '$pi'"; fi
  # --static names what libparquetry.a needs
  local sl
  sl=" $(pkg-config --static --libs parquetry) "
  for l in -l:libparquetry.a -lzstd -llz4 -lbrotlienc -lbrotlidec -ldeflate -lxxhash -lcrypto -lsnappy -lm; do
    case "$sl" in *" $l "*) ok ;; *) bad "$label: pkg-config --static --libs lacks $l: $sl" ;; esac
  done

  # pkg-config, shared
  local b="$tmp/$label"
  mkdir -p "$b"
  if cc -std=c11 -Wall -Werror $san "$tmp/example.c" -o "$b/ex_shared" \
       $(pkg-config --cflags --libs parquetry) -Wl,-rpath,"$libdir" >"$b/cc.log" 2>&1; then
    ok; uses_shared "$b/ex_shared" && ok || bad "$label: pkg-config shared build does not load libparquetry.so"
    run_example "$label pkg-config shared" "$b/ex_shared"
  else bad "$label: pkg-config shared build: $(head -20 "$b/cc.log")"; fi
  # pkg-config --static, with the shared library installed next to the
  # archive: the archive is linked, the program does not need libparquetry.so
  if cc -std=c11 -Wall -Werror $san "$tmp/example.c" -o "$b/ex_static_flags" \
       $(pkg-config --cflags --libs --static parquetry) -Wl,-rpath,"$libdir" >"$b/cc.log" 2>&1; then
    ok; uses_shared "$b/ex_static_flags" && bad "$label: pkg-config --static build needs libparquetry.so" || ok
    readelf -d "$b/ex_static_flags" | grep -q "NEEDED.*libparquetry" &&
      bad "$label: pkg-config --static build records libparquetry.so (DT_NEEDED)" || ok
    run_example "$label pkg-config --static" "$b/ex_static_flags"
  else bad "$label: pkg-config --static build: $(head -20 "$b/cc.log")"; fi
  # parquetry-static: the archive, never the shared library
  if cc -std=c11 -Wall -Werror $san "$tmp/example.c" -o "$b/ex_static" \
       $(pkg-config --cflags --libs --static parquetry-static) >"$b/cc.log" 2>&1; then
    ok; uses_shared "$b/ex_static" && bad "$label: parquetry-static build needs libparquetry.so" || ok
    run_example "$label pkg-config parquetry-static" "$b/ex_static"
  else bad "$label: parquetry-static build: $(head -20 "$b/cc.log")"; fi

  # CMake: find_package(parquetry CONFIG), both imported targets
  mkdir -p "$b/proj"
  cp "$tmp/example.c" "$b/proj/example.c"
  cat > "$b/proj/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(uses_parquetry C)
find_package(parquetry 0.1 CONFIG REQUIRED)
add_executable(ex_shared example.c)
target_link_libraries(ex_shared PRIVATE parquetry::parquetry)
add_executable(ex_static example.c)
target_link_libraries(ex_static PRIVATE parquetry::parquetry_static)
CM
  if cmake -S "$b/proj" -B "$b/proj/build" -DCMAKE_PREFIX_PATH="$root" -DCMAKE_C_FLAGS="$san" \
       -DCMAKE_EXE_LINKER_FLAGS="$san" >"$b/cmake.log" 2>&1 &&
     cmake --build "$b/proj/build" >>"$b/cmake.log" 2>&1; then
    ok
    uses_shared "$b/proj/build/ex_shared" && ok || bad "$label: parquetry::parquetry does not load libparquetry.so"
    uses_shared "$b/proj/build/ex_static" && bad "$label: parquetry::parquetry_static needs libparquetry.so" || ok
    run_example "$label cmake shared" "$b/proj/build/ex_shared"
    run_example "$label cmake static" "$b/proj/build/ex_static"
  else bad "$label: CMake build: $(tail -20 "$b/cmake.log")"; fi
}

# 0. `make install` only builds and copies, into $(DESTDIR)$(PREFIX): no
#    package manager call (that is `make deps`)
mk=$(make -n -C "$here" install PREFIX=/opt/pq DESTDIR=/tmp/stage 2>&1)
if echo "$mk" | grep -Eq 'install-deps|apt-get|dpkg|sudo'; then bad "make install calls the package manager: $mk"; else ok; fi
echo "$mk" | grep -q 'DESTDIR="/tmp/stage" cmake --install .* --prefix /opt/pq' && ok ||
  bad "make install ignores DESTDIR or PREFIX: $mk"
echo "$mk" | grep -q 'CMAKE_INSTALL_PREFIX=/opt/pq' && ok || bad "make install does not configure for PREFIX: $mk"

# 1. this build, DESTDIR + /usr/local
if DESTDIR="$tmp/d1" cmake --install "$build" --prefix /usr/local >"$tmp/install1.log" 2>&1; then ok
  check_install usr_local "$tmp/d1" /usr/local ""
else bad "install into DESTDIR/usr/local: $(tail -5 "$tmp/install1.log")"; fi
[ -e "$tmp/d1/usr/local/bin/parquetry" ] && ok || bad "usr_local: bin/parquetry not installed"

# 2. a build configured for /usr: the libdir GNUInstallDirs picks there
#    (the compiler's multiarch triplet on Debian), DESTDIR honoured
multi=$(cc -print-multiarch 2>/dev/null)
want=""; [ -n "$multi" ] && want="lib/$multi"
sanopt=OFF; [ -n "$san" ] && sanopt=ON
if cmake -S "$here" -B "$tmp/b2" -DCMAKE_BUILD_TYPE=Debug -DPQT_SANITIZE=$sanopt -DPQT_BUILD_TESTS=OFF \
     -DCMAKE_INSTALL_PREFIX=/usr >"$tmp/b2.log" 2>&1 &&
   cmake --build "$tmp/b2" -j2 --target parquetry_static parquetry_shared parquetry_cli parquetry_cli_docs >>"$tmp/b2.log" 2>&1 &&
   DESTDIR="$tmp/d2" cmake --install "$tmp/b2" >>"$tmp/b2.log" 2>&1; then ok
  check_install usr "$tmp/d2" /usr "$want"
else bad "build and install for /usr: $(tail -10 "$tmp/b2.log")"; fi

echo "install: $pass passed, $fail failed"
[ $fail -eq 0 ]
