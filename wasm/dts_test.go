package main

import (
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
	"github.com/a2astream/a2astream/parser/sse"
	"github.com/a2astream/a2astream/reconstruct"
	"github.com/a2astream/a2astream/reconstruct/resultjson"
)

// dtsUnions returns the string-literal unions of a2astream.d.ts, by type
// name: `export type Name = 'a' | 'b';`.
func dtsUnions(t *testing.T) map[string][]string {
	t.Helper()
	src, err := os.ReadFile("a2astream.d.ts")
	require.NoError(t, err)
	unions := map[string][]string{}
	lit := regexp.MustCompile(`'([^']*)'`)
	for _, m := range regexp.MustCompile(`(?s)export type (\w+) =([^;]*);`).FindAllSubmatch(src, -1) {
		if strings.Contains(string(m[2]), "<") || !strings.Contains(string(m[2]), "'") {
			continue // not a union of string literals
		}
		var vals []string
		for _, l := range lit.FindAllSubmatch(m[2], -1) {
			vals = append(vals, string(l[1]))
		}
		unions[string(m[1])] = vals
	}
	return unions
}

// names returns the String() of the values from first until the first
// whose name starts with "Invalid(".
func names[T interface{ String() string }](first int, of func(int) T) []string {
	var out []string
	for i := first; ; i++ {
		s := of(i).String()
		if strings.HasPrefix(s, "Invalid(") {
			return out
		}
		out = append(out, s)
	}
}

// documentValues runs resultjson.Append and collects the string values of
// the members named key, anywhere in the document.
func documentValues(t *testing.T, res *reconstruct.Result, err error, key string) []string {
	t.Helper()
	var doc any
	require.NoError(t, json.Unmarshal(resultjson.Append(nil, res, err, nil), &doc))
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if s, ok := e.(string); ok && k == key {
					out = append(out, s)
				}
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(doc)
	return out
}

func set(vals []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range vals {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

// TestDeclarationsMatchGo enumerates what the Go side can emit for each
// string-literal union of a2astream.d.ts (the values' String methods, and
// what resultjson writes for every part kind and error type) and compares
// it with the union: a value the module emits that the union lacks would
// not type-check in a user's switch, and one the union has that the module
// never emits would be a case that cannot happen.
func TestDeclarationsMatchGo(t *testing.T) {
	unions := dtsUnions(t)

	// Every part kind the parser knows, and one it does not (0).
	var parts []parser.Part
	for k := 0; k <= len(names(1, func(i int) parser.PartKind { return parser.PartKind(i) }))+1; k++ {
		parts = append(parts, parser.Part{Kind: parser.PartKind(k)})
	}
	partKinds := documentValues(t, &reconstruct.Result{Artifacts: []*reconstruct.Artifact{{Artifact: parser.Artifact{ArtifactID: []byte("a"), Parts: parts}}}}, nil, "kind")

	// One error of each kind resultjson tells apart.
	errs := []error{
		&reconstruct.TruncatedError{TaskID: "t"},
		&parser.APIError{Binding: parser.BindingREST, Code: 404, Message: "not found"},
		&reconstruct.HTTPError{StatusCode: 502, ContentType: "text/html"},
		&reconstruct.NotEventStreamError{StatusCode: 200, ContentType: "text/html", Head: []byte("<!doctype html>")},
		&reconstruct.Diagnostic{Err: reconstruct.ErrTransition},
		&parser.DecodeError{Err: parser.ErrInvalidJSON},
		&reconstruct.EventError{Err: sse.ErrEventTooLarge},
		errors.New("something else"),
	}
	var errorTypes []string
	for _, err := range errs {
		errorTypes = append(errorTypes, documentValues(t, nil, err, "type")...)
	}

	var updateKinds []string
	for _, n := range names(1, func(i int) reconstruct.UpdateKind { return reconstruct.UpdateKind(i) }) {
		updateKinds = append(updateKinds, strings.ToLower(n))
	}

	tests := []struct {
		name string
		want []string // what the Go side emits
	}{
		{"TaskState", names(0, func(i int) parser.TaskState { return parser.TaskState(i) })},
		{"Role", names(0, func(i int) parser.Role { return parser.Role(i) })},
		{"Binding", names(1, func(i int) parser.Binding { return parser.Binding(i) })},
		{"PartKind", partKinds},
		{"UpdateKind", updateKinds},
		{"ErrorType", errorTypes},
		{"TargetKind", names(0, func(i int) citations.ValueKind { return citations.ValueKind(i) })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := unions[tt.name]
			require.True(t, ok, "a2astream.d.ts declares no union %s", tt.name)
			assert.Empty(t, cmp.Diff(set(tt.want), set(got)), "Go's values (-) and the union in a2astream.d.ts (+) differ")
		})
	}
}
