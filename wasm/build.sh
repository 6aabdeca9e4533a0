#!/bin/sh
# build.sh builds wasm/a2astream.wasm, the a2astream core as a WebAssembly
# reactor. -trimpath and an empty build id make the bytes depend only on the
# sources and the Go version; -s -w drop the symbol names (the Go runtime
# keeps its own for panics).
set -eu
cd "$(dirname "$0")/.."
GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 go build -buildmode=c-shared -trimpath \
	-ldflags='-s -w -buildid=' -o "${1:-wasm/a2astream.wasm}" ./wasm
