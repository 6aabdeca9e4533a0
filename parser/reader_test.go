package parser_test

import (
	"os"
	"path/filepath"
	"testing"
)

// testdataStreams returns the recorded streams in ../testdata by file name.
func testdataStreams(t testing.TB) map[string]string {
	t.Helper()
	names, err := filepath.Glob("../testdata/*.sse")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		m[filepath.Base(name)] = string(b)
	}
	return m
}
