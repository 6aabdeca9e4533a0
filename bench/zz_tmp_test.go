package bench

import (
	"bytes"
	"os"
	"strconv"
	"testing"
)

func TestZZRun(t *testing.T) {
	key := os.Getenv("ZZ_IMPL")
	if key == "" {
		t.Skip()
	}
	k, _ := strconv.Atoi(os.Getenv("ZZ_K"))
	c := CorpusByName(os.Getenv("ZZ_CORPUS"))
	wrap := readsByName(os.Getenv("ZZ_READS"))
	var im Impl
	for _, x := range Impls() {
		if x.Key == key {
			im = x
		}
	}
	for range k {
		var s Sink
		if err := im.Run(wrap(bytes.NewReader(c.Data)), c, &s); err != nil {
			t.Fatal(err)
		}
	}
}
