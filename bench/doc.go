// Package bench compares a2astream with the Server-Sent Events readers a Go
// SDK author would otherwise use, on the same generated corpora in one run,
// for speed (the benchmarks of bench_test.go, summarised by
// cmd/benchtable) and for correctness (Matrix, checked event by event).
//
// It is its own module so that the peers it imports never reach the users
// of a2astream.
//
//	cd bench && go run ./cmd/benchtable > RESULTS.md   # the full comparison (about 10 minutes)
//	cd bench && go test -short -run='^$' -bench=. -benchtime=1x ./...   # every body once, short inputs (CI)
//	cd bench && go test -run=Matrix ./...        # the correctness matrix (CI)
//
// RESULTS.md holds the latest table, with the date and machine it came from;
// -raw FILE also writes the benchmark lines it is made of (benchstat's
// input).
package bench
