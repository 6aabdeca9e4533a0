package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// leb appends n as unsigned LEB128.
func leb(b []byte, n int) []byte {
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// name appends a length-prefixed string.
func name(b []byte, s string) []byte { return append(leb(b, len(s)), s...) }

// sec appends a section of the given id and contents.
func sec(b []byte, id byte, body []byte) []byte {
	return append(leb(append(b, id), len(body)), body...)
}

// testModule builds a module with one imported function (index 0), a
// memory import, the given function bodies (indices 1...) and a name
// section naming them, as the Go linker names them.
func testModule(names []string, bodies [][]byte) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	imp := leb(nil, 2)
	imp = name(name(imp, "wasi_snapshot_preview1"), "fd_write")
	imp = append(imp, 0, 0) // a function of type 0
	imp = name(name(imp, "env"), "memory")
	imp = append(imp, 2, 1, 1, 2) // a memory, limits 1 to 2
	b = sec(b, importSection, imp)
	code := leb(nil, len(bodies))
	for _, body := range bodies {
		code = append(leb(code, len(body)), body...)
	}
	b = sec(b, codeSection, code)
	b = sec(b, 11, bytes.Repeat([]byte("data"), 50)) // a data section
	sub := leb(nil, len(names))
	for i, n := range names {
		sub = name(leb(sub, i+1), n)
	}
	names1 := sec(nil, 1, sub)
	b = sec(b, customSection, append(name(nil, "name"), names1...))
	return b
}

func TestParseModule(t *testing.T) {
	bodies := [][]byte{bytes.Repeat([]byte{1}, 300), {2, 3}, bytes.Repeat([]byte{4}, 10)}
	names := []string{"runtime.mallocgc", "github.com_x_y.__T_.m", "github.com_x_y.f"}
	b := testModule(names, bodies)
	m, err := parseModule(b)
	require.NoError(t, err)
	require.Len(t, m.funcs, 3)
	for i, f := range m.funcs {
		assert.Equal(t, names[i], f.name, "the name of function %d (after the import)", i)
		assert.Equal(t, bodies[i], b[f.start:f.end], "the body of %s", f.name)
	}
	var ids []byte
	for _, s := range m.sections {
		ids = append(ids, s.id)
	}
	assert.Equal(t, []byte{importSection, codeSection, 11, customSection}, ids)
	assert.Equal(t, "name", m.sections[3].name)
	assert.Equal(t, len(b), m.sections[3].end)

	pkgs := packages(m)
	assert.Equal(t, []pkgSize{{name: "runtime", funcs: 1, code: 300}, {name: "github.com_x_y", funcs: 2, code: 12}}, pkgs)
}

// A module without a name section (built with -s) has unnamed functions.
func TestParseModuleStripped(t *testing.T) {
	b := testModule(nil, [][]byte{{1}})
	m, err := parseModule(b)
	require.NoError(t, err)
	require.Len(t, m.funcs, 1)
	assert.Equal(t, "", m.funcs[0].name)
	assert.Equal(t, "?", packageOf(m.funcs[0].name))
}

// Every cut of a module is an error, never a panic or a wrong table.
func TestParseModuleCut(t *testing.T) {
	b := testModule([]string{"a.b"}, [][]byte{{1, 2, 3}})
	for n := range len(b) {
		m, err := parseModule(b[:n])
		if err == nil {
			// A cut between two sections is a valid, shorter module.
			require.Less(t, len(m.sections), 4, "cut at %d", n)
			continue
		}
		assert.Contains(t, err.Error(), "wasmsize: ", "cut at %d", n)
	}
	_, err := parseModule([]byte("\x7fELF...."))
	assert.ErrorContains(t, err, "not a WebAssembly module")
}

func TestPackageOf(t *testing.T) {
	for sym, want := range map[string]string{
		"runtime.mallocgc": "runtime",
		"github.com_a2astream_a2astream_internal_jsonx.__Parser_.Parse": "github.com_a2astream_a2astream_internal_jsonx",
		"github.com_a2astream_a2astream_parser.init":                    "github.com_a2astream_a2astream_parser",
		"golang.org_x_net_html.Parse":                                   "golang.org_x_net_html",
		"internal_strconv.fmtX":                                         "internal_strconv",
		"slices.pdqsortCmpFunc_go.shape.int32_":                         "slices",
		"slices.Grow_go.shape.__github.com_a2astream_a2astream_x.node_": "slices",
		"type_.eq.runtime.Frame":                                        "type_",
		"runtime.wasm_pc_f_loop":                                        "runtime",
		"wasm_pc_f_loop":                                                "wasm_pc_f_loop",
		"":                                                              "?",
	} {
		assert.Equal(t, want, packageOf(sym), sym)
	}
}

// The table gives each package's share of the gzipped module: a package
// of incompressible bytes adds about its size, and the functions of a
// package are listed largest first.
func TestReport(t *testing.T) {
	noise := make([]byte, 4000)
	x := uint32(1)
	for i := range noise {
		x = x*1664525 + 1013904223
		noise[i] = byte(x >> 24)
	}
	b := testModule([]string{"big.f", "small.g", "small.h"}, [][]byte{noise, bytes.Repeat([]byte{7}, 100), {8}})
	var out strings.Builder
	require.NoError(t, run(&out, b, 0, ""))
	lines := strings.Split(out.String(), "\n")
	var big, small string
	for _, l := range lines {
		if strings.HasPrefix(l, "| big |") {
			big = l
		}
		if strings.HasPrefix(l, "| small |") {
			small = l
		}
	}
	require.NotEmpty(t, big, out.String())
	var funcs, code, gz int
	_, err := fmt.Sscanf(big, "| big | %d | %d | %d |", &funcs, &code, &gz)
	require.NoError(t, err)
	assert.Equal(t, 1, funcs)
	assert.Equal(t, 4000, code)
	assert.InDelta(t, 4000, gz, 100, "random bytes do not compress")
	_, err = fmt.Sscanf(small, "| small | %d | %d | %d |", &funcs, &code, &gz)
	require.NoError(t, err)
	assert.Equal(t, 2, funcs)
	assert.Equal(t, 101, code)
	assert.Less(t, gz, 50, "repeated bytes compress")
	m, err := parseModule(b)
	require.NoError(t, err)
	name := m.sections[len(m.sections)-1]
	assert.Contains(t, lines[0], fmt.Sprintf("%d without custom sections", len(b)-(name.end-name.start)), "the name section is not measured")

	out.Reset()
	require.NoError(t, run(&out, b, 0, "small"))
	assert.Equal(t, "    100 small.g\n      1 small.h\n    101 in 2 functions\n", out.String())
	assert.ErrorContains(t, run(&out, b, 0, "none"), "no function of package none")
}
