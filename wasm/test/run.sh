#!/usr/bin/env bash
# run.sh is the wasm part of CI: it builds wasm/a2astream.wasm twice and
# checks that the bytes match (reproducible), checks what the module links,
# runs the Go packages' tests compiled for wasip1 under Node, type-checks
# a2astream.d.ts, runs the Node tests of the wrapper (imports, size, results
# byte for byte against the CLI) and the browser test in Debian's headless
# Chromium (installed when missing). Every step runs; the script fails at
# the end if any failed. BENCH=1 also runs the benchmark.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$PWD
failed=()
step() {
	local name=$1
	shift
	echo "--- wasm: $name"
	if ! "$@"; then
		echo "FAIL wasm: $name" >&2
		failed+=("$name")
	fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

reproducible() {
	sh wasm/build.sh "$tmp/a.wasm" && sh wasm/build.sh "$tmp/b.wasm" || return 1
	cmp "$tmp/a.wasm" "$tmp/b.wasm" || { echo "two builds differ" >&2; return 1; }
	cp "$tmp/a.wasm" wasm/a2astream.wasm
	echo "a2astream.wasm: $(wc -c <wasm/a2astream.wasm) bytes, $(gzip -9 -c wasm/a2astream.wasm | wc -c) gzipped, sha256 $(sha256sum wasm/a2astream.wasm | cut -c1-16)"
}

links() {
	local deps bad=0
	deps=$(GOOS=wasip1 GOARCH=wasm go list -deps ./wasm) || return 1
	# Each of these would add tens of KB to the module; none is needed.
	for pkg in encoding/json syscall/js net/http fmt reflect time os; do
		if grep -qx "$pkg" <<<"$deps"; then
			echo "the module links $pkg: $(GOOS=wasip1 GOARCH=wasm go list -f '{{.ImportPath}}: {{join .Imports " "}}' -deps ./wasm | grep -E "(^| )$pkg( |$)" | cut -d: -f1 | grep -v "^$pkg\$" | tr '\n' ' ')" >&2
			bad=1
		fi
	done
	return $bad
}

# gotests runs the packages' tests under Node. Node 20 itself sometimes dies
# of a segmentation fault in the middle of a long test binary (about one run
# in four of reconstruct's, at any commit, with or without V8's wasm trap
# handler): a package whose run ends that way is run once more, and fails
# only if it fails again. A test that fails is not run again.
gotests() {
	local out rc crashed
	out=$(GOOS=wasip1 GOARCH=wasm go test -count=1 -exec="node $root/wasm/test/go_wasip1_exec.mjs" \
		./parser/ ./utf8buf/ ./citations/ ./reconstruct/ ./internal/... ./wasm/... 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 0 ] && return 0
	crashed=$(awk '/^signal: segmentation fault/ { seg = 1; next } seg && $1 == "FAIL" { print $2; seg = 0 }' <<<"$out")
	if [ -z "$crashed" ] || [ "$(grep -c '^FAIL'$'\t' <<<"$out")" -ne "$(wc -l <<<"$crashed")" ]; then
		return 1
	fi
	echo "wasm: Node crashed (SIGSEGV) running $(echo $crashed); running them once more" >&2
	GOOS=wasip1 GOARCH=wasm go test -count=1 -exec="node $root/wasm/test/go_wasip1_exec.mjs" $crashed
}

npmci() {
	(cd wasm && { [ -d node_modules/playwright-core ] && [ -d node_modules/typescript ] && [ -d node_modules/eventsource-parser ]; } ||
		npm ci --no-audit --no-fund)
}

chromium() {
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
}

step "reproducible build" reproducible
step "linked packages (no encoding/json, syscall/js, net/http, fmt, reflect, time, os)" links
step "Go tests under GOOS=wasip1 in Node" gotests
step "npm ci" npmci
step "tsc --strict on a2astream.d.ts" bash -c 'cd wasm && npx tsc --strict --noEmit -p test/types/tsconfig.json'
step "Node tests of the wrapper" node --test wasm/test/wrapper.test.mjs
step "install Chromium" chromium
step "browser test in headless Chromium" node --test wasm/test/browser.test.mjs
if [ "${BENCH:-0}" = 1 ]; then
	step "benchmark" node wasm/bench/bench.mjs
fi

if [ ${#failed[@]} -gt 0 ]; then
	echo "wasm: ${#failed[@]} step(s) failed:" >&2
	printf '  %s\n' "${failed[@]}" >&2
	exit 1
fi
echo "wasm: all steps passed"
