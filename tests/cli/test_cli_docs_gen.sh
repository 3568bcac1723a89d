#!/usr/bin/env bash
# tools/gen_cli_docs.sh follows the command table: given a stand-in binary
# whose table has a command the real one lacks (with an option list in
# another layout, a heading, a shared section and fixed choices), the man
# page gets its section without a warning, the shared section is printed
# once, and the bash completion offers the command, its options and the
# choices. Then the same for the real binary: every command of
# `parquetry help --commands` is in the man page and the completion.
# Usage: CLI CORPUS_DIR (the corpus is not used).
set -u
cli=$1
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

cat > "$tmp/fake" <<'FAKE'
#!/usr/bin/env bash
shared='Reading options:
  --footer-key KEY       key of an encrypted footer
  --no-crc               do not verify page checksums'
case "$*" in
  "help") printf 'usage: parquetry COMMAND [OPTIONS] FILE\n\nRead and write Apache Parquet files.\n\nCommands:\n  cat           rows\n  frobnicate    twist a file into shape\n  help          help for a command\n\nExit status: 0 ok, 1 error, 2 usage.\n' ;;
  "help --commands") printf 'cat\nfrobnicate\nhelp\n' ;;
  "help cat") printf 'usage: parquetry cat [--format jsonl|csv] FILE\n\nPrint rows.\n\n  --format jsonl|csv    output format\n%s\n' "$shared" ;;
  "help frobnicate") printf '%s\n' 'usage: parquetry frobnicate [--mode fast|safe] [-k N] FILE' '' \
      'Twist a file. The next paragraph starts with a dot and holds a backslash:' '' \
      '.not a request \fB not a font' '' \
      '  -k, --keep N          keep N things, e.g.' '                        three' \
      '  --mode fast|safe      how' '  --a-very-long-option-name X a description after one space' \
      '  (an indented remark)' "$shared" ;;
  "help help") printf 'usage: parquetry help [COMMAND]\n\nShow help.\n' ;;
  "version") echo "parquetry 9.9.9" ;;
  *) exit 2 ;;
esac
FAKE
chmod +x "$tmp/fake"
if bash "$here/tools/gen_cli_docs.sh" "$tmp/fake" "$tmp/out" 2>"$tmp/err"; then ok; else bad "gen_cli_docs.sh: $(cat "$tmp/err")"; fi
man1=$tmp/out/parquetry.1
if command -v man >/dev/null; then
  warn=$(MANWIDTH=80 man --warnings -l "$man1" 2>&1 >/dev/null)
  [ -z "$warn" ] && ok || bad "man --warnings: $warn"
  text=$(MANWIDTH=80 man -l "$man1" 2>/dev/null)
  echo "$text" | grep -q '^   frobnicate$' && ok || bad "no frobnicate section: $text"
  echo "$text" | grep -q 'parquetry 9.9.9' && ok || bad "no version in the man page"
  echo "$text" | grep -Fq '.not a request \fB not a font' && ok || bad "a line starting with a dot or a backslash is not printed as text"
  echo "$text" | grep -Eq -- '--a-very-long-option-name X' && ok || bad "the option without two spaces is lost"
  echo "$text" | grep -q 'a description after one space' && ok || bad "its description is lost"
  echo "$text" | grep -q '(an indented remark)' && ok || bad "the indented remark is lost"
  # the shared "Reading options" once, as its own section
  [ "$(echo "$text" | grep -c 'key of an encrypted footer')" = 1 ] && ok || bad "the shared section is not printed once"
  echo "$text" | grep -q '^READING OPTIONS' && ok || bad "no READING OPTIONS section"
  echo "$text" | grep -q '^EXIT STATUS' && ok || bad "no EXIT STATUS section"
fi
bashc=$tmp/out/parquetry.bash
comp() { bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _parquetry; echo "${COMPREPLY[*]}"' _ "$bashc" "$@"; }
[ "$(comp parquetry fr)" = frobnicate ] && ok || bad "bash: 'parquetry fr' gives '$(comp parquetry fr)'"
[ "$(comp parquetry frobnicate --mo)" = --mode ] && ok || bad "bash: --mo gives '$(comp parquetry frobnicate --mo)'"
[ "$(comp parquetry frobnicate --mode '')" = "fast safe" ] && ok || bad "bash: --mode gives '$(comp parquetry frobnicate --mode '')'"
[ "$(comp parquetry frobnicate --foo)" = --footer-key ] && ok || bad "bash: the shared options are not offered"
[ "$(comp parquetry help fr)" = frobnicate ] && ok || bad "bash: 'help fr' gives '$(comp parquetry help fr)'"
grep -qx '## frobnicate' "$tmp/out/cli.md" && ok || bad "cli.md has no frobnicate section"
if command -v zsh >/dev/null; then
  zsh -n "$tmp/out/_parquetry" && ok || bad "zsh -n _parquetry"
fi

# the real binary
if bash "$here/tools/gen_cli_docs.sh" "$cli" "$tmp/real" 2>"$tmp/err"; then ok; else bad "gen_cli_docs.sh on $cli: $(cat "$tmp/err")"; fi
cmds=$("$cli" help --commands)
[ "$(echo "$cmds" | wc -w)" -ge 10 ] && ok || bad "'help --commands' lists too few: $cmds"
text=$(MANWIDTH=80 man -l "$tmp/real/parquetry.1" 2>/dev/null)
all=$(bash -c 'source "$1"; COMP_WORDS=(parquetry ""); COMP_CWORD=1; _parquetry; echo "${COMPREPLY[*]}"' _ "$tmp/real/parquetry.bash")
for c in $cmds; do
  if command -v man >/dev/null; then
    echo "$text" | grep -q "^   $c\$" && ok || bad "man page: no section for $c"
  fi
  case " $all " in *" $c "*) ok ;; *) bad "bash completion: no $c" ;; esac
  grep -q "^  *'$c:" "$tmp/real/_parquetry" && ok || bad "zsh completion: no $c"
done
echo "cli_docs_gen: $pass passed, $fail failed"
[ $fail -eq 0 ]
