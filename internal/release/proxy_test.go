package release_test

import (
	"archive/zip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/internal/release"
)

// writeFiles writes files (slash paths to contents) below dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
}

// zipNames returns the names of the files in the zip file name.
func zipNames(t *testing.T, name string) []string {
	t.Helper()
	r, err := zip.OpenReader(name)
	require.NoError(t, err)
	defer r.Close()
	var names []string
	for _, f := range r.File {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	return names
}

// TestWriteProxy checks the proxy's files for a module and a module nested
// in its directory, two versions of one of them: the list names both
// versions, the .mod is the go.mod, the .info names the version, and each
// zip holds its module's files under path@version/, the nested module's
// left out of the outer one.
func TestWriteProxy(t *testing.T) {
	src := t.TempDir()
	writeFiles(t, src, map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.24\n",
		"m.go":            "package m\n",
		"a/a.go":          "package a\n",
		"sub/go.mod":      "module example.com/m/sub\n\ngo 1.24\n",
		"sub/sub.go":      "package sub\n",
		".git/HEAD":       "ref: refs/heads/main\n",
		"testdata/x.json": "{}\n",
	})
	proxy := t.TempDir()
	require.NoError(t, release.WriteProxy(proxy,
		release.Module{Path: "example.com/m", Version: "v0.1.0", Dir: src},
		release.Module{Path: "example.com/m/sub", Version: "v0.1.0", Dir: filepath.Join(src, "sub")},
		release.Module{Path: "example.com/m", Version: "v0.2.0", Dir: src},
	))
	v := filepath.Join(proxy, "example.com", "m", "@v")
	list, err := os.ReadFile(filepath.Join(v, "list"))
	require.NoError(t, err)
	assert.Equal(t, "v0.1.0\nv0.2.0\n", string(list))
	mod, err := os.ReadFile(filepath.Join(v, "v0.1.0.mod"))
	require.NoError(t, err)
	assert.Equal(t, "module example.com/m\n\ngo 1.24\n", string(mod))
	var info struct{ Version string }
	b, err := os.ReadFile(filepath.Join(v, "v0.2.0.info"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &info))
	assert.Equal(t, "v0.2.0", info.Version)
	assert.Equal(t, []string{
		"example.com/m@v0.1.0/a/a.go",
		"example.com/m@v0.1.0/go.mod",
		"example.com/m@v0.1.0/m.go",
		"example.com/m@v0.1.0/testdata/x.json",
	}, zipNames(t, filepath.Join(v, "v0.1.0.zip")))
	assert.Equal(t, []string{
		"example.com/m/sub@v0.1.0/go.mod",
		"example.com/m/sub@v0.1.0/sub.go",
	}, zipNames(t, filepath.Join(proxy, "example.com", "m", "sub", "@v", "v0.1.0.zip")))
}

// TestWriteProxyErrors checks the modules WriteProxy refuses: a go.mod
// declaring another path, no go.mod, a version that is not canonical
// semver, a major version the path does not carry.
func TestWriteProxyErrors(t *testing.T) {
	src := t.TempDir()
	writeFiles(t, src, map[string]string{"go.mod": "module example.com/m\n", "m.go": "package m\n"})
	tests := []struct {
		name string
		m    release.Module
		want string
	}{
		{"other module path", release.Module{Path: "example.com/other", Version: "v0.1.0", Dir: src}, `declares module "example.com/m"`},
		{"no go.mod", release.Module{Path: "example.com/m", Version: "v0.1.0", Dir: t.TempDir()}, "go.mod"},
		{"version not canonical", release.Module{Path: "example.com/m", Version: "v0.1", Dir: src}, "v0.1"},
		{"major version not in path", release.Module{Path: "example.com/m", Version: "v2.0.0", Dir: src}, "v2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := release.WriteProxy(t.TempDir(), tt.m)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "release: "+tt.m.Path+"@"+tt.m.Version)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
