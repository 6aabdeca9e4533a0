#!/bin/sh
# build.sh builds wasm/a2astream.wasm, the a2astream core as a WebAssembly
# reactor. -trimpath and an empty build id make the bytes depend only on the
# sources and the Go version; -s -w drop the symbol names (the Go runtime
# keeps its own for panics).
#
# -l (no inlining) for reconstruct (the reducer), reconstruct/resultjson (the --json document, written
# once per result), citations (once per citation) and internal/jsonx (the
# JSON reader; the decoder's path for repeated token deltas bypasses it).
# Inlining there mostly grows the module: without it the module gzips to
# about 790 KB instead of 808 KB (the budget is 800 KB). CPU time of
# alternating runs of both builds, on the benchmark corpus and on every
# recorded stream, differed by no more than the noise (±10%).
# reconstruct joined them on 2026-12-02 (799.9 KB -> 795 KB, after the
# model and memory work of issues 18 and 20): BenchmarkSession of ./wasm
# built natively with and without it, run in turn three times, was within
# the machine's noise (200 B chunks 5.9-7.2 ms with inlining, 5.5-7.5 ms
# without; 40 KiB chunks 4.4-4.9 ms and 4.7-4.9 ms).
# Measured on 2026-12-02 (module 793.1 KB) and not taken: -l for parser
# (-4.4 KB; BenchmarkSession of the module under Node, the two builds in
# turn, 8 and 10 rounds: medians 6-9% slower for 200 B chunks, equal and
# 9% slower for 40 KiB, minimums equal) and for wasm (-1.3 KB; 40 KiB
# chunks 20% slower). At 799.9 KB: -l for runtime saved 23 KB with 40 KiB
# chunks 18-90% slower; for parser/sse and utf8buf it grew the module by
# 1.6 KB each.
#
# NAMES=1 keeps the function names (no -s -w), for bench/cmd/wasmsize,
# which says what each package adds to the module.
set -eu
cd "$(dirname "$0")/.."
p=github.com/a2astream/a2astream
strip='-s -w '
[ "${NAMES:-0}" = 1 ] && strip=
GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 go build -buildmode=c-shared -trimpath \
	-gcflags=$p/reconstruct=-l -gcflags=$p/reconstruct/resultjson=-l -gcflags=$p/citations=-l -gcflags=$p/internal/jsonx=-l \
	-ldflags="${strip}-buildid=" -o "${1:-wasm/a2astream.wasm}" ./wasm
