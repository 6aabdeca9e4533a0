// Package bench compares a2astream with the Server-Sent Events readers a Go
// SDK author would otherwise use, on the same generated corpora in one run,
// for speed (the benchmarks of bench_test.go, summarised by
// cmd/benchtable) and for correctness (Matrix, checked event by event).
//
// It is its own module so that the peers it imports never reach the users
// of a2astream.
//
//	cd bench && go run ./cmd/benchtable          # the full comparison, a Markdown table
//	cd bench && go test -run='^$' -bench=. -benchtime=1x ./...   # every body once (CI)
//	cd bench && go test -run=Matrix ./...        # the correctness matrix (CI)
package bench
