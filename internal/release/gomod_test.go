package release_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/mod/modfile"

	"github.com/a2astream/a2astream/internal/release"
)

// TestNestedModulesRequireRelease checks every go.mod below the
// repository's root: a module that needs the core requires it at
// release.Version, the version a user's go command can fetch once it is
// tagged, and replaces it with the working tree for development only (a
// replace is ignored outside the module).
func TestNestedModulesRequireRelease(t *testing.T) {
	var nested []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (d.Name() == "node_modules" || d.Name()[0] == '.') {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "go.mod" && filepath.Dir(p) != root {
			nested = append(nested, p)
		}
		return nil
	})
	require.NoError(t, err)
	require.Contains(t, nested, filepath.Join(root, "reconstruct", "a2ago", "go.mod"))
	for _, p := range nested {
		name, err := filepath.Rel(root, p)
		require.NoError(t, err)
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			f, err := modfile.Parse(p, b, nil)
			require.NoError(t, err)
			for _, r := range f.Require {
				if r.Mod.Path == coreModule {
					assert.Equal(t, release.Version, r.Mod.Version, "the core's version")
					assert.True(t, replaced(f, coreModule), "a replace for development")
					return
				}
			}
			t.Logf("%s does not require the core", p)
		})
	}
}

// replaced reports whether f replaces every version of path with a
// directory.
func replaced(f *modfile.File, path string) bool {
	for _, r := range f.Replace {
		if r.Old.Path == path && r.Old.Version == "" && modfile.IsDirectoryPath(r.New.Path) {
			return true
		}
	}
	return false
}
