# tests/cli/lib/s3rver.sh: sourced by the tests/cli/*_s3.sh tests (a folder
# below tests/cli/, so CMake's tests/cli/*.sh glob does not run it as a test).
# It runs s3rver (npm; scripts/install-remote-test-deps.sh) on loopback behind
# our signature-checking proxy (tests/remote/s3_sig_proxy.py: s3rver 3.7
# checks no signature), so every request parquetry sends is checked.
#
#   s3rver_init CORPUS NAME   skip (77, saying why) without CORPUS/data, node,
#                             python3 or the s3rver package; sets `tmp` to a
#                             fresh folder pqt-NAME.XXXXXX and traps EXIT to
#                             s3rver_stop
#   s3rver_start BUCKET       starts s3rver with BUCKET and the proxy; sets
#                             `s3port` (s3rver, takes unsigned PUTs), `pport`
#                             (the proxy, whose log is $tmp/proxy.port.log),
#                             `AK` and `SK` (the credentials the proxy checks);
#                             77 when s3rver does not start, 1 when the proxy
#                             does not
#   s3rver_env                exports the AWS_* variables that point
#                             parquetry at the proxy with AK/SK
#   s3rver_stop               kills what s3rver_start started, removes $tmp
s3rver_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
s3rver_pids=()

s3rver_init() {
  local corpus=$1 name=$2 t
  if [ ! -d "$corpus/data" ]; then echo "SKIP: corpus not found at $corpus"; exit 77; fi
  for t in node python3; do command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }; done
  bash "$s3rver_root/scripts/install-remote-test-deps.sh" s3rver >/dev/null 2>&1
  if [ ! -f "$s3rver_root/tools/s3rver/node_modules/s3rver/package.json" ]; then
    echo "SKIP: s3rver not installed (scripts/install-remote-test-deps.sh s3rver: npm unavailable)"; exit 77
  fi
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-$name.XXXXXX")
  trap s3rver_stop EXIT
}

s3rver_stop() {
  local p
  for p in "${s3rver_pids[@]}"; do kill "$p" 2>/dev/null; done
  rm -rf "$tmp"
}

s3rver_start() {
  local bucket=$1
  s3port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  mkdir -p "$tmp/s3"
  (cd "$s3rver_root/tools/s3rver" && exec node -e '
    const S3rver = require("s3rver");
    new S3rver({ port: +process.argv[1], address: "127.0.0.1", silent: true, directory: process.argv[2],
                 configureBuckets: [{ name: process.argv[3] }] }).run().then(() => console.log("up"));
  ' "$s3port" "$tmp/s3" "$bucket") > "$tmp/s3rver.out" 2>&1 &
  s3rver_pids+=($!)
  for _ in $(seq 100); do grep -q up "$tmp/s3rver.out" 2>/dev/null && break; sleep 0.1; done
  grep -q up "$tmp/s3rver.out" || { echo "SKIP: s3rver did not start: $(head -3 "$tmp/s3rver.out")"; exit 77; }
  AK=AKIDPARQUETRYTEST; SK='pqt/secret+Key/0123456789abcdefEXAMPLE'
  python3 "$s3rver_root/tests/remote/s3_sig_proxy.py" "$tmp/proxy.port" "$s3port" "$AK" "$SK" 2>"$tmp/proxy.err" &
  s3rver_pids+=($!)
  for _ in $(seq 50); do [ -f "$tmp/proxy.port" ] && break; sleep 0.1; done
  pport=$(cat "$tmp/proxy.port" 2>/dev/null)
  [ -n "$pport" ] || { echo "FAIL: the signature proxy did not start: $(cat "$tmp/proxy.err")"; exit 1; }
}

s3rver_env() {
  export AWS_ACCESS_KEY_ID=$AK AWS_SECRET_ACCESS_KEY=$SK AWS_REGION=us-east-1
  unset AWS_SESSION_TOKEN
  export AWS_ENDPOINT_URL="http://127.0.0.1:$pport"
}
