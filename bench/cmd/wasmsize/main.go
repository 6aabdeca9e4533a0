// Command wasmsize says what a WebAssembly module built by Go holds per Go
// package: the functions of each, their code bytes, and what they add to
// the module gzipped (the module's gzip -9 size with and without their
// bodies). It finds the bytes to win for the npm module's size budget (800
// KB gzipped, wasm/test/wrapper.test.mjs). Build the module with its
// function names kept, then:
//
//	NAMES=1 sh wasm/build.sh /tmp/a2astream.wasm
//	cd bench && go run ./cmd/wasmsize [-top 40] [-funcs PKG] /tmp/a2astream.wasm
//
// Packages are named as the Go linker writes them in the name section,
// with '_' for every '/' ("github.com_a2astream_a2astream_parser").
// Custom sections (the name section above all, which -s -w drops) are left
// out of every gzip measure, so the total is the shipped module's. Go's
// compress/gzip at level 9 differs from zlib's by a few hundred bytes; the
// marginal sizes are estimates: bytes shared between packages count for
// neither.
//
// -funcs PKG lists the functions of package PKG (an import path, or a
// prefix ending in "...") with their code bytes, largest first.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

func main() {
	top := flag.Int("top", 40, "packages to list, largest first (0: all)")
	funcs := flag.String("funcs", "", "list the functions of this package (an import path or a prefix ending in ...)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-top N] [-funcs PKG] module.wasm")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err == nil {
		err = run(os.Stdout, b, *top, *funcs)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run parses the module b and writes the report: the function list of pkg
// when pkg is set, else the table of the top packages.
func run(w io.Writer, b []byte, top int, pkg string) error {
	m, err := parseModule(b)
	if err != nil {
		return err
	}
	if pkg != "" {
		return writeFuncs(w, m, pkg)
	}
	return writeTable(w, b, m, top)
}

// pkgSize is what one package adds to the module.
type pkgSize struct {
	name  string
	funcs int
	code  int
	// gzip is the module's gzipped size less that of the module without
	// the package's function bodies.
	gzip int
}

// packages sums the functions of m per package, largest code first.
func packages(m *module) []pkgSize {
	byName := map[string]*pkgSize{}
	for _, f := range m.funcs {
		p := packageOf(f.name)
		s := byName[p]
		if s == nil {
			s = &pkgSize{name: p}
			byName[p] = s
		}
		s.funcs++
		s.code += f.end - f.start
	}
	out := make([]pkgSize, 0, len(byName))
	for _, s := range byName {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b pkgSize) int {
		if a.code != b.code {
			return b.code - a.code
		}
		return strings.Compare(a.name, b.name)
	})
	return out
}

// shipped returns the bytes of b that the shipped module keeps, less the
// bodies of the functions for which drop is true: the header and every
// section but the custom ones. The result is not a valid module (the section sizes are
// not rewritten); it is only measured.
func shipped(b []byte, m *module, drop func(function) bool) []byte {
	out := append(make([]byte, 0, len(b)), b[:8]...) // magic and version
	for _, s := range m.sections {
		if s.id == customSection {
			continue
		}
		if s.id != codeSection || drop == nil {
			out = append(out, b[s.start:s.end]...)
			continue
		}
		pos := s.start
		for _, f := range m.funcs {
			if drop(f) {
				out = append(out, b[pos:f.start]...)
				pos = f.end
			}
		}
		out = append(out, b[pos:s.end]...)
	}
	return out
}

// gzipSize returns the size of b compressed by compress/gzip at level 9.
func gzipSize(b []byte) int {
	var buf bytes.Buffer
	z, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	z.Write(b)
	z.Close()
	return buf.Len()
}

// writeTable writes the module's sections and its top packages as a
// Markdown table, with the gzipped bytes each adds.
func writeTable(w io.Writer, b []byte, m *module, top int) error {
	all := gzipSize(shipped(b, m, nil))
	fmt.Fprintf(w, "module: %d bytes, %d without custom sections, %d gzipped (Go gzip -9)\n\n", len(b), len(shipped(b, m, nil)), all)
	for _, s := range m.sections {
		name := sectionName(s)
		fmt.Fprintf(w, "section %-8s %9d bytes\n", name, s.end-s.start)
	}
	pkgs := packages(m)
	if top > 0 && len(pkgs) > top {
		pkgs = pkgs[:top]
	}
	fmt.Fprintf(w, "\n| package | functions | code bytes | gzipped bytes it adds |\n|---|--:|--:|--:|\n")
	for i := range pkgs {
		p := &pkgs[i]
		p.gzip = all - gzipSize(shipped(b, m, func(f function) bool { return packageOf(f.name) == p.name }))
		fmt.Fprintf(w, "| %s | %d | %d | %d |\n", p.name, p.funcs, p.code, p.gzip)
	}
	return nil
}

// sectionName names a section for the report: its custom name, or its id.
func sectionName(s section) string {
	names := []string{"custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "datacount"}
	if s.id == customSection {
		return "custom:" + s.name
	}
	if int(s.id) < len(names) {
		return names[s.id]
	}
	return fmt.Sprintf("id%d", s.id)
}

// writeFuncs lists the functions of the packages pkg names, largest first.
func writeFuncs(w io.Writer, m *module, pkg string) error {
	prefix, isPrefix := strings.CutSuffix(pkg, "...")
	var fs []function
	for _, f := range m.funcs {
		p := packageOf(f.name)
		if p == pkg || isPrefix && strings.HasPrefix(p, prefix) {
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return fmt.Errorf("wasmsize: the module has no function of package %s", pkg)
	}
	slices.SortStableFunc(fs, func(a, b function) int { return (b.end - b.start) - (a.end - a.start) })
	total := 0
	for _, f := range fs {
		total += f.end - f.start
		fmt.Fprintf(w, "%7d %s\n", f.end-f.start, f.name)
	}
	fmt.Fprintf(w, "%7d in %d functions\n", total, len(fs))
	return nil
}
