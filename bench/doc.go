// Package bench compares a2astream with the Server-Sent Events readers a Go
// SDK author would otherwise use, on the same generated corpora in one run,
// for speed (the benchmarks of bench_test.go, summarised by
// cmd/benchtable) and for correctness (Matrix, checked event by event).
//
// The corpora (Corpora) are those of the shapes real servers send: the
// A2A token stream with short ids, its CRLF and CR-only variants, the same
// stream with a2a-go's UUID ids, Corti-style prefixed ids and no ids, 100
// events of 256 KiB, and a 10 MB answer in one event; each is read whole, 4
// KiB at a time and 1 byte at a time. BenchmarkRatio judges the targets by
// running the two sides of each in turn on the same input, once their
// garbage has been collected (a process's heap growing for the first time
// costs a page fault per 4 KiB, which is not the implementations' speed).
//
// It is its own module so that the peers it imports never reach the users
// of a2astream.
//
//	cd bench && go run ./cmd/benchtable -svg chart.svg > table.md   # the full comparison (12-20 minutes)
//	cd bench && go test -short -run='^$' -bench=. -benchtime=1x ./...   # every body once, short inputs (CI)
//	cd bench && go test -short ./...   # the correctness matrix on the corpora made small (CI)
//
// RESULTS.md holds the latest table, with the date and machine it came from;
// -raw FILE also writes the benchmark lines it is made of (benchstat's
// input), -base DIR compares with the bench directory of another checkout.
package bench
