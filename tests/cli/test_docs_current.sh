#!/usr/bin/env bash
# The generated pages of docs/ match their sources: docs/api.md the public
# headers (tools/gen_api_docs.sh), docs/cli.md the CLI's help text
# (tools/gen_cli_docs.sh, the man page's source). When a header or a
# command's help changes, `make docs` regenerates them.
# Usage: CLI CORPUS_DIR (the corpus is not used).
set -u
cli=$1
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bash "$here/tools/gen_api_docs.sh" "$here" >"$tmp/api.md" || { echo "FAIL: gen_api_docs.sh failed"; exit 1; }
if ! cmp -s "$tmp/api.md" "$here/docs/api.md"; then
  echo "FAIL: docs/api.md is not what include/*.h say (run 'make docs'):"
  diff -u "$here/docs/api.md" "$tmp/api.md" | head -30
  fail=1
fi
bash "$here/tools/gen_cli_docs.sh" "$cli" "$tmp/cli" || { echo "FAIL: gen_cli_docs.sh failed"; exit 1; }
if ! cmp -s "$tmp/cli/cli.md" "$here/docs/cli.md"; then
  echo "FAIL: docs/cli.md is not the CLI's help text (run 'make docs'):"
  diff -u "$here/docs/cli.md" "$tmp/cli/cli.md" | head -30
  fail=1
fi
# every command of the command table has its section in docs/cli.md
for c in $("$cli" help --commands); do
  grep -qx "## $c" "$here/docs/cli.md" || { echo "FAIL: docs/cli.md has no section for '$c'"; fail=1; }
done
[ $fail -eq 0 ] && echo "docs/api.md and docs/cli.md are current"
exit $fail
