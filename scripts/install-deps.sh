#!/usr/bin/env bash
# Install the Debian packages parquetry builds with. Harmless when they are
# already present: it only calls apt-get for what is missing.
set -euo pipefail
pkgs=(build-essential cmake pkg-config clang libclang-rt-14-dev
      libzstd-dev libsnappy-dev liblz4-dev libbrotli-dev libdeflate-dev
      libxxhash-dev libssl-dev libcurl4-openssl-dev
      clang-tidy cppcheck) # clang-tidy, cppcheck: make lint (scripts/lint.sh)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
