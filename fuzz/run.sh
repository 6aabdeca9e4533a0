#!/usr/bin/env bash
# fuzz/run.sh fuzzes every fuzz target of the module for a bounded time and
# fails on any finding, printing the reproducer.
#
#   bash fuzz/run.sh                    # all targets, FUZZ_BUDGET seconds in all
#   FUZZ_BUDGET=120 bash fuzz/run.sh    # a shorter run
#   FUZZ_EACH=60 bash fuzz/run.sh       # 60 seconds per target
#   FUZZ_LOG=fuzz/FUZZ_LOG.md bash fuzz/run.sh   # also add time and executions to the log
#   FUZZ_PARALLEL=1 bash fuzz/run.sh    # one fuzzing worker (default: one per core)
#   FUZZ_MINIMIZE=2s bash fuzz/run.sh   # -fuzzminimizetime (default 100x)
#   bash fuzz/run.sh FuzzWHATWG FuzzLexer        # only these targets
#
# Targets are found by grep: every "func FuzzX(f *testing.F)" in a _test.go
# file of the main module (bench/ is another module and is skipped). The
# budget (default 240 s, for about 5 minutes on 2 cores with the builds) is
# shared among them, between 5 and 20 seconds each. Each new interesting
# input is minimised for at most FUZZ_MINIMIZE (default 100x: 100 runs of
# the target): go test's own default of 60s per input can eat a whole short
# -fuzztime, leaving a target with a few dozen executions, and so can 2s
# (FuzzPipelineBytes, one worker, 20 s: 26 executions with 2s, each new
# input taking its full 2 s; 36,237 with 100x). The script prints the
# executions each target ran (go test's last "execs:" line) and the log
# counts them. On a finding, go test writes the input to <package>/testdata/fuzz/FuzzX/<hash>; this script
# prints that file and the failing output, the command that replays it,
# carries on with the other targets and exits 1 at the end. A bare "context
# deadline exceeded" with no input written is Go's own race at the end of
# -fuzztime (golang/go#75804, fixed in Go 1.27): reported as a flake, not a
# finding.
set -u
cd "$(dirname "$0")/.."

budget=${FUZZ_BUDGET:-240}
log=${FUZZ_LOG:-}
minimize=${FUZZ_MINIMIZE:-100x}
parallel=()
[ -n "${FUZZ_PARALLEL:-}" ] && parallel=(-parallel="$FUZZ_PARALLEL")

# name<TAB>package dir, one per target.
targets=$(grep -rEo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' . \
	| grep -v -e '^./bench/' -e node_modules \
	| sed -E 's|^\./(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]*)\(.*|\2\t\1|' | sort -u -k2,2 -k1,1)
if [ $# -gt 0 ]; then
	want=$(printf '%s\n' "$@")
	targets=$(printf '%s\n' "$targets" | awk -F'\t' 'NR==FNR{w[$1]=1;next} w[$1]' <(echo "$want") -)
fi
n=$(printf '%s\n' "$targets" | grep -c .)
if [ "$n" -eq 0 ]; then
	echo "fuzz/run.sh: no fuzz targets found" >&2
	exit 1
fi
each=$((budget / n))
[ "$each" -lt 5 ] && each=5
[ "$each" -gt 20 ] && each=20
each=${FUZZ_EACH:-$each}
echo "fuzz/run.sh: $n targets, ${each}s each, -fuzzminimizetime=$minimize${FUZZ_PARALLEL:+, -parallel=$FUZZ_PARALLEL}"

# execs prints the executions of a go test -fuzz output: the count of its
# last "fuzz: elapsed: ..., execs: N (...)" line, which go test writes when
# the fuzzing stops; 0 if there is none.
execs() {
	grep -Eo 'execs: [0-9]+' "$1" | tail -n 1 | grep -Eo '[0-9]+' || echo 0
}

# add_log adds secs and n executions to the target's totals in the log
# table, whose rows read "| target | package | seconds | executions | date |";
# a target not in it yet gets a new row at the end of the file.
add_log() {
	local name=$1 pkg=$2 secs=$3 n=$4 day
	day=$(date -u +%Y-%m-%d)
	[ -f "$log" ] || return 0
	if grep -Eq "^\| $name \| $pkg \| [0-9]+ \| [0-9]+ \|" "$log"; then
		awk -v n="$name" -v p="$pkg" -v s="$secs" -v x="$n" -v d="$day" '
			$0 ~ "^\\| " n " \\| " p " \\| [0-9]+ \\| [0-9]+ \\|" {
				split($0, c, / \| /)
				printf "| %s | %s | %d | %d | %s |\n", n, p, c[3] + s, c[4] + x, d
				next
			}
			{ print }' "$log" >"$log.tmp" && mv "$log.tmp" "$log"
	else
		printf '| %s | %s | %d | %d | %s |\n' "$name" "$pkg" "$secs" "$n" "$day" >>"$log"
	fi
}

failed=0
while IFS=$'\t' read -r name pkg; do
	out=$(mktemp)
	start=$(date +%s)
	if go test -run='^$' -fuzz="^${name}\$" -fuzztime="${each}s" -fuzzminimizetime="$minimize" "${parallel[@]}" "./$pkg/" >"$out" 2>&1; then
		x=$(execs "$out")
		echo "ok    $pkg $name ($(($(date +%s) - start))s, $x execs)"
		[ -n "$log" ] && add_log "$name" "$pkg" "$each" "$x"
	elif grep -q 'context deadline exceeded' "$out" && ! grep -q 'Failing input written to' "$out"; then
		# Go's fuzz coordinator can report its own -fuzztime deadline as a
		# failure, with no input written (golang/go#75804, fixed in Go 1.27).
		echo "flake $pkg $name: 'context deadline exceeded' at the -fuzztime deadline, no input written (golang/go#75804); $(execs "$out") execs not counted"
	else
		failed=1
		echo "FAIL  $pkg $name"
		cat "$out"
		# "Failing input written to testdata/fuzz/FuzzX/<hash>"
		for f in $(grep -Eo 'testdata/fuzz/'"$name"'/[0-9a-f]+' "$out" | sort -u); do
			echo "---- reproducer $pkg/$f:"
			cat "$pkg/$f"
			echo "---- replay: go test -run='^${name}/$(basename "$f")\$' ./$pkg/"
		done
	fi
	rm -f "$out"
done <<<"$targets"
exit $failed
