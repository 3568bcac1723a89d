#!/usr/bin/env bash
# Install what the remote-IO tests start on loopback: Debian's nginx
# (tests/cli/test_remote_http.sh) and the npm package s3rver into
# tools/s3rver/node_modules (tests/cli/test_remote_s3.sh). Only the tests use
# them; parquetry never links them.
# Exit codes: 0 installed / already there, 3 a package manager unavailable.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
what=${1:-all}
if [ "$what" = all ] || [ "$what" = nginx ]; then
  if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
    command -v apt-get >/dev/null 2>&1 || { echo "install-remote-test-deps: no apt-get for nginx" >&2; exit 3; }
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nginx-light >/dev/null
  fi
fi
if [ "$what" = all ] || [ "$what" = s3rver ]; then
  dir="$here/tools/s3rver"
  if [ ! -f "$dir/node_modules/s3rver/package.json" ]; then
    command -v npm >/dev/null 2>&1 || { echo "install-remote-test-deps: npm not found" >&2; exit 3; }
    mkdir -p "$dir"
    [ -f "$dir/package.json" ] || echo '{"name":"pqt-s3rver","private":true}' > "$dir/package.json"
    (cd "$dir" && npm install --no-audit --no-fund s3rver@3.7.1 >/dev/null 2>&1) || exit 3
  fi
fi
