package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/a2astream/a2astream/internal/resultjson"
	"github.com/a2astream/a2astream/reconstruct"
)

// TestResultJSONSameBytes checks that the --json document is byte for
// byte the one internal/resultjson writes for the WebAssembly module, for
// every sample and odd stream.
func TestResultJSONSameBytes(t *testing.T) {
	streams := map[string][]byte{}
	for _, name := range sampleNames(t) {
		streams[name] = sample(t, name)
	}
	local, _ := filepath.Glob(filepath.Join("testdata", "*.sse"))
	for _, path := range local {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		streams[filepath.Base(path)] = b
	}
	for name, data := range streams {
		t.Run(name, func(t *testing.T) {
			got := runWith(t, []string{"--json", "-"}, bytes.NewReader(data), nil)
			res, err := reconstruct.Read(bytes.NewReader(data), nil)
			want := resultjson.Append(nil, res, err, &resultjson.Options{Indent: true})
			if got.stdout != string(want) {
				t.Errorf("--json differs from resultjson:\n%s\nresultjson:\n%s", got.stdout, want)
			}
		})
	}
}
