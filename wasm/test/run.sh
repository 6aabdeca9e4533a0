#!/usr/bin/env bash
# run.sh is the wasm part of CI: it builds wasm/a2astream.wasm twice and
# checks that the bytes match (reproducible), checks what the module links,
# runs the Go packages' tests compiled for wasip1 on wazero, type-checks
# a2astream.d.ts and ai-sdk.d.ts, runs the Node tests of the wrapper (imports, size, results
# byte for byte against the CLI, the Client against a fake server and
# against the @a2a-js/sdk agent of the CLI's interop test) and the browser test in Debian's headless
# Chromium (installed when missing), then packs the package and builds it
# with webpack, Vite and esbuild, each bundle run in that Chromium. Every
# step runs; the script fails at the end if any failed. BENCH=1 also runs
# the benchmark.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$PWD
failed=()
started=$SECONDS
step() {
	local name=$1
	shift
	echo "--- wasm [$((SECONDS - started))s]: $name"
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
	# errors.As and errors.Is link internal/reflectlite and its type data
	# (15 KB gzipped); the module reaches neither (errtext.As instead).
	local reached
	reached=$(GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 go build -buildmode=c-shared -ldflags=-dumpdep -o "$tmp/dumpdep.wasm" ./wasm 2>&1 |
		grep -E -- '-> errors\.(As|Is)$' | grep -vE '^errors\.')
	if [ -n "$reached" ]; then
		echo "the module reaches errors.As or errors.Is: $reached" >&2
		bad=1
	fi
	return $bad
}

# wazero installs wazero's CLI, the WASI runtime the Go tests for wasip1
# run on (Node 20's WASI dies of a segmentation fault in long test binaries).
wazeroVersion=v1.12.0
gobin=$(go env GOPATH)/bin
wazero() {
	[ "$("$gobin/wazero" version 2>/dev/null)" = "$wazeroVersion" ] ||
		go install "github.com/tetratelabs/wazero/cmd/wazero@$wazeroVersion"
}

# gotests runs the packages' tests compiled for wasip1 under wazero, through
# the exec script Go ships for it. They take a few minutes of CPU and are
# started in the background (startGotests) while the npm and apt steps
# wait on the network; gotests waits for them and prints their output.
# They run with -short: the exhaustive cases (every cut of every stream,
# byte-by-byte feeds of long streams) ran natively in .ci/run, and wazero
# runs them several times slower; -short samples them.
startGotests() {
	PATH="$gobin:$PATH" GOWASIRUNTIME=wazero GOOS=wasip1 GOARCH=wasm go test -short -count=1 \
		-exec="$(go env GOROOT)/lib/wasm/go_wasip1_wasm_exec" \
		./parser/... ./utf8buf/ ./citations/ ./reconstruct/ ./reconstruct/resultjson/ ./internal/... ./wasm/... >"$tmp/gotests.log" 2>&1 &
	gotestsPID=$!
}
gotestsPID=
gotests() {
	[ -n "$gotestsPID" ] || { echo "the tests were not started (wazero missing)" >&2; return 1; }
	local rc=0
	wait "$gotestsPID" || rc=$?
	cat "$tmp/gotests.log"
	return $rc
}

# npmci installs the dev dependencies from the lock file, unless the
# node_modules already hold that lock file's packages.
npmci() {
	(cd wasm && { cmp -s package-lock.json node_modules/.a2astream-lock || {
		npm ci --no-audit --no-fund && cp package-lock.json node_modules/.a2astream-lock
	}; })
}

# npmciBundlers installs the bundlers the package is built with, as npmci
# does; --ignore-scripts: esbuild's postinstall only checks its binary.
npmciBundlers() {
	(cd wasm/test/bundlers && { cmp -s package-lock.json node_modules/.a2astream-lock || {
		npm ci --no-audit --no-fund --ignore-scripts && cp package-lock.json node_modules/.a2astream-lock
	}; })
}

# npmciChat installs the chat app's packages (React, @ai-sdk/react), as npmci does.
npmciChat() {
	(cd wasm/test/chat && { cmp -s package-lock.json node_modules/.a2astream-lock || {
		npm ci --no-audit --no-fund --ignore-scripts && cp package-lock.json node_modules/.a2astream-lock
	}; })
}

# installChromium installs Debian's chromium when it is missing. (The
# function must not be named chromium: command -v would find the function.)
installChromium() {
	[ -x /usr/bin/chromium ] || { apt-get update && apt-get install -y --no-install-recommends chromium; }
}

step "reproducible build" reproducible
step "linked packages (no encoding/json, syscall/js, net/http, fmt, reflect, time, os; no errors.As, errors.Is)" links
step "install wazero $wazeroVersion" wazero
startGotests
step "npm ci" npmci
step "tsc --strict on a2astream.d.ts" bash -c 'cd wasm && npx tsc --strict --noEmit -p test/types/tsconfig.json'
step "tsc --strict on ai-sdk.d.ts, against ai 7 and ai 6" bash -c 'cd wasm && npx tsc -p test/types/ai/tsconfig.json && npx tsc -p test/types/ai/tsconfig.ai6.json'
step "README.md's snippets under tsc --strict" node wasm/test/readme.mjs
step "Node tests of the wrapper" node --test wasm/test/wrapper.test.mjs wasm/test/load.test.mjs wasm/test/frames.test.mjs wasm/test/resume.test.mjs wasm/test/client.test.mjs wasm/test/replay.test.mjs wasm/test/view.test.mjs
step "the Client against the @a2a-js/sdk agent of cmd/a2astream/interop" node --test wasm/test/interop.test.mjs
step "the npm tarball (npm pack --dry-run)" node --test wasm/test/pack.test.mjs
step "install Chromium" installChromium
step "browser test in headless Chromium" node --test wasm/test/browser.test.mjs
step "npm ci in test/bundlers (webpack, Vite 7 and 8, esbuild)" npmciBundlers
step "the packed package built by each bundler, run in Chromium" node --test wasm/test/bundlers/bundlers.test.mjs
step "a2astream/ai-sdk with ai 7 and ai 6 (after test/bundlers: its size is measured with esbuild)" node --test wasm/test/ai-sdk.test.mjs
step "npm ci in test/chat (React, @ai-sdk/react)" npmciChat
step "the React + useChat chat (built with Vite) in Chromium, with the transport and a server route" node --test wasm/test/chat/chat.test.mjs
step "Go tests under GOOS=wasip1 on wazero (started after the wazero step)" gotests
if [ "${BENCH:-0}" = 1 ]; then
	step "benchmark" node wasm/bench/bench.mjs
fi

if [ ${#failed[@]} -gt 0 ]; then
	echo "wasm: ${#failed[@]} step(s) failed:" >&2
	printf '  %s\n' "${failed[@]}" >&2
	exit 1
fi
echo "wasm: all steps passed in $((SECONDS - started))s"
