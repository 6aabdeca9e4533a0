package main

import (
	"errors"
	"fmt"
	"strings"
)

// module is what wasmsize reads of a WebAssembly module: its sections in
// order, and the body of each function it defines with the function's name
// from the name section ("" when the module has none, as a build with
// -ldflags=-s leaves it).
type module struct {
	sections []section
	funcs    []function
}

// section is one section of the module: its id, its name when it is a
// custom section (id 0), and the span of its bytes, header included.
type section struct {
	id         byte
	name       string
	start, end int
}

// function is one function the module defines: its name and the span of its
// body in the code section.
type function struct {
	name       string
	start, end int
}

// WebAssembly section ids (the core specification, "Modules").
const (
	customSection = 0
	importSection = 2
	codeSection   = 10
)

// errTruncated reports a module cut short inside a section or a field.
var errTruncated = errors.New("wasmsize: the module ends inside a section")

// reader reads the module's bytes from pos, keeping the first error.
type reader struct {
	b   []byte
	pos int
}

// u32 reads an unsigned LEB128 number of at most 32 bits.
func (r *reader) u32() (uint32, error) {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		if r.pos >= len(r.b) {
			return 0, errTruncated
		}
		c := r.b[r.pos]
		r.pos++
		v |= uint32(c&0x7f) << shift
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, fmt.Errorf("wasmsize: a number at byte %d is longer than 5 bytes", r.pos)
}

// bytes reads a length-prefixed byte string (a name).
func (r *reader) bytes() ([]byte, error) {
	n, err := r.u32()
	if err != nil {
		return nil, err
	}
	if int(n) > len(r.b)-r.pos {
		return nil, errTruncated
	}
	s := r.b[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return s, nil
}

// parseModule reads the sections of b, the bodies of the functions it
// defines and their names. It returns an error naming the byte where b
// stops being a WebAssembly module.
func parseModule(b []byte) (*module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("wasmsize: not a WebAssembly module (no \\0asm magic)")
	}
	m := &module{}
	r := &reader{b: b, pos: 8}
	imported := 0
	var names map[uint32]string
	for r.pos < len(b) {
		start := r.pos
		id := b[r.pos]
		r.pos++
		size, err := r.u32()
		if err != nil {
			return nil, err
		}
		body := r.pos
		if int(size) > len(b)-body {
			return nil, fmt.Errorf("wasmsize: section %d at byte %d: %w", id, start, errTruncated)
		}
		end := body + int(size)
		sec := section{id: id, start: start, end: end}
		in := &reader{b: b[:end], pos: body}
		switch id {
		case customSection:
			name, err := in.bytes()
			if err != nil {
				return nil, err
			}
			sec.name = string(name)
			if sec.name == "name" {
				if names, err = functionNames(in); err != nil {
					return nil, err
				}
			}
		case importSection:
			if imported, err = countFunctionImports(in); err != nil {
				return nil, fmt.Errorf("wasmsize: import section at byte %d: %w", start, err)
			}
		case codeSection:
			if m.funcs, err = functionBodies(in); err != nil {
				return nil, fmt.Errorf("wasmsize: code section at byte %d: %w", start, err)
			}
		}
		m.sections = append(m.sections, sec)
		r.pos = end
	}
	for i := range m.funcs {
		m.funcs[i].name = names[uint32(imported+i)]
	}
	return m, nil
}

// countFunctionImports reads the import section and returns how many of its
// imports are functions: they come first in the function index space.
func countFunctionImports(r *reader) (int, error) {
	n, err := r.u32()
	if err != nil {
		return 0, err
	}
	funcs := 0
	for range n {
		if _, err := r.bytes(); err != nil { // module
			return 0, err
		}
		if _, err := r.bytes(); err != nil { // name
			return 0, err
		}
		if r.pos >= len(r.b) {
			return 0, errTruncated
		}
		kind := r.b[r.pos]
		r.pos++
		if err := skipImportDesc(r, kind); err != nil {
			return 0, err
		}
		if kind == 0 {
			funcs++
		}
	}
	return funcs, nil
}

// skipImportDesc reads past the description of an import of the given kind
// (0 function, 1 table, 2 memory, 3 global).
func skipImportDesc(r *reader, kind byte) error {
	var err error
	switch kind {
	case 0: // type index
		_, err = r.u32()
	case 1: // reference type, then limits
		r.pos++
		err = skipLimits(r)
	case 2:
		err = skipLimits(r)
	case 3: // value type, mutability
		r.pos += 2
	default:
		return fmt.Errorf("an import of unknown kind %d at byte %d", kind, r.pos-1)
	}
	if err == nil && r.pos > len(r.b) {
		err = errTruncated
	}
	return err
}

// skipLimits reads past a limits field: a flag, a minimum and, when the
// flag's low bit is set, a maximum.
func skipLimits(r *reader) error {
	if r.pos >= len(r.b) {
		return errTruncated
	}
	flag := r.b[r.pos]
	r.pos++
	if _, err := r.u32(); err != nil {
		return err
	}
	if flag&1 != 0 {
		_, err := r.u32()
		return err
	}
	return nil
}

// functionBodies reads the code section: one span per body, its size
// prefix excluded.
func functionBodies(r *reader) ([]function, error) {
	n, err := r.u32()
	if err != nil {
		return nil, err
	}
	funcs := make([]function, 0, n)
	for range n {
		size, err := r.u32()
		if err != nil {
			return nil, err
		}
		if int(size) > len(r.b)-r.pos {
			return nil, errTruncated
		}
		funcs = append(funcs, function{start: r.pos, end: r.pos + int(size)})
		r.pos += int(size)
	}
	return funcs, nil
}

// functionNames reads the function names subsection (id 1) of the name
// section, skipping the others.
func functionNames(r *reader) (map[uint32]string, error) {
	names := map[uint32]string{}
	for r.pos < len(r.b) {
		id := r.b[r.pos]
		r.pos++
		size, err := r.u32()
		if err != nil {
			return nil, err
		}
		if int(size) > len(r.b)-r.pos {
			return nil, errTruncated
		}
		end := r.pos + int(size)
		if id == 1 {
			sub := &reader{b: r.b[:end], pos: r.pos}
			n, err := sub.u32()
			if err != nil {
				return nil, err
			}
			for range n {
				idx, err := sub.u32()
				if err != nil {
					return nil, err
				}
				name, err := sub.bytes()
				if err != nil {
					return nil, err
				}
				names[idx] = string(name)
			}
		}
		r.pos = end
	}
	return names, nil
}

// domains are the top-level domains of the module paths wasmsize knows
// ("github.com/...", "golang.org/x/..."): the dot after one of them is part
// of the path, not its end.
var domains = []string{"com_", "org_", "net_", "io_", "dev_", "in_"}

// packageOf returns the Go package of a function named as the Go linker
// names it in a WebAssembly name section, where every byte but letters,
// digits, '_' and '.' is '_' ("github.com/x/y.(*T).m" is
// "github.com_x_y.__T_.m"): the name up to its first dot, or its second
// when the first follows a domain ("github.com_x_y"). Type arguments come
// after the first dot, so "slices.Sort[...]" is "slices"; the linker's own
// symbols ("type:.eq.T" written "type_.eq.T") belong to their prefix
// ("type_"); a function without a dot (the assembly stubs) is its own
// package, and one without a name is "?".
func packageOf(sym string) string {
	if sym == "" {
		return "?"
	}
	dot := strings.IndexByte(sym, '.')
	if dot < 0 {
		return sym
	}
	rest := sym[dot+1:]
	if !strings.Contains(sym[:dot], "_") {
		for _, d := range domains {
			if strings.HasPrefix(rest, d) {
				if next := strings.IndexByte(rest, '.'); next >= 0 {
					return sym[:dot+1+next]
				}
				return sym
			}
		}
	}
	return sym[:dot]
}
