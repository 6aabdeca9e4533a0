package release

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// Version is the version the next release of the repository's modules
// carries, the one the nested modules require the core at.
const Version = "v0.1.0"

// Module is one version of a module to serve from a directory.
type Module struct {
	// Path is the module path, such as github.com/a2astream/a2astream.
	Path string
	// Version is the semantic version served, such as v0.1.0.
	Version string
	// Dir is the directory holding the module's go.mod.
	Dir string
}

// WriteProxy writes mods into dir in the layout of a module proxy that
// GOPROXY=file://dir serves (the GOPROXY protocol of the Go modules
// reference): for each module, <path>/@v/list naming its versions in the
// order given, and <path>/@v/<version>.info, .mod and .zip, path and
// version escaped as the protocol has it. The .mod is Dir's go.mod, whose
// module line must be Path; the .zip holds Dir's files as
// golang.org/x/mod/zip.CreateFromDir selects them (nested modules, VCS
// directories and symbolic links left out, its size limits applied). An
// error names the module.
func WriteProxy(dir string, mods ...Module) error {
	lists := map[string][]string{} // versions by escaped path, in order
	var order []string
	for _, m := range mods {
		esc, err := writeVersion(dir, m)
		if err != nil {
			return fmt.Errorf("release: %s@%s: %w", m.Path, m.Version, err)
		}
		if _, ok := lists[esc]; !ok {
			order = append(order, esc)
		}
		lists[esc] = append(lists[esc], m.Version)
	}
	for _, esc := range order {
		list := strings.Join(lists[esc], "\n") + "\n"
		if err := os.WriteFile(filepath.Join(dir, esc, "@v", "list"), []byte(list), 0o644); err != nil {
			return fmt.Errorf("release: %w", err)
		}
	}
	return nil
}

// writeVersion writes m's .info, .mod and .zip, and returns its escaped
// path.
func writeVersion(dir string, m Module) (string, error) {
	if err := module.Check(m.Path, m.Version); err != nil {
		return "", err
	}
	esc, err := module.EscapePath(m.Path)
	if err != nil {
		return "", err
	}
	escVer, err := module.EscapeVersion(m.Version)
	if err != nil {
		return "", err
	}
	gomod, err := os.ReadFile(filepath.Join(m.Dir, "go.mod"))
	if err != nil {
		return "", err
	}
	if p := modfile.ModulePath(gomod); p != m.Path {
		return "", fmt.Errorf("%s/go.mod declares module %q", m.Dir, p)
	}
	base := filepath.Join(dir, esc, "@v", escVer)
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return "", err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{m.Version, time.Now().UTC().Truncate(time.Second)})
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(base+".info", info, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(base+".mod", gomod, 0o644); err != nil {
		return "", err
	}
	return esc, writeZip(base+".zip", m)
}

// writeZip writes the module zip of m to name.
func writeZip(name string, m Module) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	err = zip.CreateFromDir(f, module.Version{Path: m.Path, Version: m.Version}, m.Dir)
	return errors.Join(err, f.Close())
}
