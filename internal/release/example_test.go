package release_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/a2astream/a2astream/internal/release"
)

// WriteProxy serves a module from its directory; a module nested in it
// (here sub/, with a go.mod of its own) is left out of its zip.
func ExampleWriteProxy() {
	src, _ := os.MkdirTemp("", "module")
	defer os.RemoveAll(src)
	os.WriteFile(filepath.Join(src, "go.mod"), []byte("module example.com/Hello\n\ngo 1.24\n"), 0o644)
	os.WriteFile(filepath.Join(src, "hello.go"), []byte("package hello\n"), 0o644)
	os.Mkdir(filepath.Join(src, "sub"), 0o755)
	os.WriteFile(filepath.Join(src, "sub", "go.mod"), []byte("module example.com/Hello/sub\n"), 0o644)

	proxy, _ := os.MkdirTemp("", "proxy")
	defer os.RemoveAll(proxy)
	err := release.WriteProxy(proxy, release.Module{Path: "example.com/Hello", Version: "v0.1.0", Dir: src})
	fmt.Println("error:", err)
	fs.WalkDir(os.DirFS(proxy), ".", func(p string, d fs.DirEntry, err error) error {
		if !d.IsDir() {
			fmt.Println(p)
		}
		return nil
	})
	// Output:
	// error: <nil>
	// example.com/!hello/@v/list
	// example.com/!hello/@v/v0.1.0.info
	// example.com/!hello/@v/v0.1.0.mod
	// example.com/!hello/@v/v0.1.0.zip
}
