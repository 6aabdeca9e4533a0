package bench

// Capped returns how many bytes of corpus c an implementation reads with
// the given reads in the benchmarks, and whether that is a cap: the peers
// that rescan an unfinished event from its start (Impl.Rescans) are
// quadratic with 1-byte reads, so on the large events they only read a
// prefix (MB/s is then measured on that prefix, and falls further as
// events grow).
func Capped(im Impl, corpus, read string) (int, bool) {
	n := len(CorpusByName(corpus).Data)
	if read != "1B" || !im.Rescans {
		return n, false
	}
	if corpus == "large" {
		return 64 << 10, true
	}
	return n, false
}

// ScalingSizes are the event sizes of BenchmarkOneByteEvent: a2astream's
// implementations and the linear peers read events up to 1 MiB, the peers
// that rescan (quadratic with 1-byte reads) up to 64 KiB.
func ScalingSizes(im Impl) []int {
	if !im.Rescans {
		return []int{64 << 10, 256 << 10, 1 << 20}
	}
	return []int{16 << 10, 32 << 10, 64 << 10}
}
