#!/usr/bin/env bash
# Interop test of the a2astream CLI against a real A2A 1.0 server built with
# the reference JavaScript SDK (@a2a-js/sdk 1.x, Node 20+): installs the
# server's locked dependencies in this folder, starts it on 127.0.0.1 with a
# free port, runs the Go test with the build tag "interop" against it, and
# stops the server.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"

major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 20 ]; then
  echo "interop: Node 20 or later is needed, found $(node --version)" >&2
  exit 1
fi

cd "$here"
npm ci --no-audit --no-fund --loglevel=error

log="$(mktemp)"
node server.js >"$log" 2>&1 &
pid=$!
cleanup() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -f "$log"
}
trap cleanup EXIT

url=""
for _ in $(seq 1 200); do
  url="$(sed -n 's/^listening //p' "$log")"
  [ -n "$url" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "interop: the server exited:" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "interop: the server did not start within 20 s:" >&2
  cat "$log" >&2
  exit 1
fi
echo "interop: @a2a-js/sdk $(node -p 'require("./node_modules/@a2a-js/sdk/package.json").version') server at $url"

cd "$root"
A2A_INTEROP_URL="$url" go test -count=1 -tags interop ./cmd/a2astream/ -run Interop -v
