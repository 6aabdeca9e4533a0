package sse_test

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/a2astream/a2astream/parser/sse"
)

// TestPoolConcurrentLexers: Lexers on several goroutines that take large
// buffers from the pool and give them back, event after event, never
// share one: each reads its own events whole (a shared buffer would mix
// their bytes; under -race it is also a reported race). The pool may hold
// a box whose buffer a Lexer uses (pool.go): such a box is not handed out.
func TestPoolConcurrentLexers(t *testing.T) {
	const workers, rounds = 4, 20
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				// Each worker's event has its own letter and size.
				fill := bytes.Repeat([]byte{byte('a' + w)}, 40<<10+w*1000+i)
				in := append(append([]byte("data: "), fill...), "\n\ndata: end\n\n"...)
				lx := sse.NewLexer(nil)
				var got [][]byte
				for _, c := range chunksOf(in, 8<<10) {
					lx.Write(c)
					for lx.Next() {
						got = append(got, bytes.Clone(lx.Frame().Data))
					}
				}
				if len(got) != 2 || !bytes.Equal(got[0], fill) || string(got[1]) != "end" {
					errs <- fmt.Errorf("worker %d round %d: %d frames, the first %d bytes, want %d of %q", w, i, len(got), len(got[0]), len(fill), 'a'+w)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
}
