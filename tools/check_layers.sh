#!/usr/bin/env bash
# Includes point down the data flow only. The layer order is written once, in
# ARCHITECTURE.md's ```layers block (lowest first); a file in src/X may include
# "Y/..." only when Y is X or a layer below X. cli/ uses the public headers
# only, and include/ never reaches into src/; the printers listed in the
# ```public-api-only block use the public API and core/ only.
# Usage: tools/check_layers.sh [ROOT]
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
order=$(awk '/^```layers$/{on=1; next} /^```$/{on=0} on' "$root/ARCHITECTURE.md" | tr -s ' \n' ' ')
if [ -z "${order// /}" ]; then echo "check_layers: no \`\`\`layers block in ARCHITECTURE.md"; exit 1; fi
declare -A rank
i=0
for l in $order; do rank[$l]=$i; i=$((i+1)); done
bad=0; checked=0
for dir in "$root"/src/*/; do
  layer=$(basename "$dir")
  if [ -z "${rank[$layer]+x}" ]; then echo "check_layers: src/$layer is not in ARCHITECTURE.md's layer list"; bad=$((bad+1)); continue; fi
  while IFS= read -r hit; do
    file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}
    dep=$(sed -E 's/.*#include "([a-z_0-9]+)\/.*/\1/' <<<"$rest")
    checked=$((checked+1))
    if [ -z "${rank[$dep]+x}" ]; then
      echo "${file#$root/}:$line: includes from '$dep', which is not a layer"; bad=$((bad+1))
    elif [ "${rank[$dep]}" -gt "${rank[$layer]}" ]; then
      echo "${file#$root/}:$line: $layer includes $dep, a layer above it"; bad=$((bad+1))
    fi
  done < <(grep -nE '^#include "[a-z_0-9]+/' "$dir"*.[ch] "$dir"*.inc 2>/dev/null | sed -E 's/^([^:]+):([0-9]+):/\1:\2:/')
done
# the command-line tool and the public headers: no internal headers
while IFS= read -r hit; do
  echo "$hit: the public API only (include/*.h) here"; bad=$((bad+1))
done < <(grep -nE '^#include "[a-z_0-9]+/' "$root"/cli/*.[ch] "$root"/include/*.h 2>/dev/null)
# printers on the public API: the files listed in ARCHITECTURE.md's
# ```public-api-only block include the public headers and core/ only
only=$(awk '/^```public-api-only$/{on=1; next} /^```$/{on=0} on' "$root/ARCHITECTURE.md")
for f in $only; do
  if [ ! -f "$root/$f" ]; then echo "check_layers: $f (public-api-only in ARCHITECTURE.md) does not exist"; bad=$((bad+1)); continue; fi
  while IFS= read -r hit; do
    echo "$f:${hit%%:*}: the public API (include/*.h) and core/ only here"; bad=$((bad+1))
  done < <(grep -nE '^#include "[a-z_0-9]+/' "$root/$f" | grep -vE '^[0-9]+:#include "core/')
  checked=$((checked+1))
done
echo "check_layers: $checked includes checked, $bad out of order"
[ $bad -eq 0 ]
