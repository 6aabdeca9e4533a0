//go:build purego

package sse

import (
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The purego build tag leaves lineend_amd64.s out of the build: hasAVX2 is
// then lineend_other.go's constant (this declaration compiles only if it
// is one), never lineend_amd64.go's variable.
const _ = hasAVX2

// TestPuregoPortableSearch checks that the purego build tag makes the Lexer
// take the portable line search on every architecture, amd64 with AVX2
// included, so that CI tests it on the machine it runs on: the search with
// AVX2 is off, and indexLineEnd is lineend_other.go's Go loop, not the
// assembly.
func TestPuregoPortableSearch(t *testing.T) {
	assert.False(t, hasAVX2, "hasAVX2 under purego")
	fn := runtime.FuncForPC(reflect.ValueOf(indexLineEnd).Pointer())
	file, _ := fn.FileLine(fn.Entry())
	assert.Equal(t, "lineend_other.go", filepath.Base(file), "where indexLineEnd comes from under purego")
}
