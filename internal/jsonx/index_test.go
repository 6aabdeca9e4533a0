package jsonx

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// indexResult is what an evaluation gives.
type indexResult struct {
	raw   string
	off   int
	kind  Kind
	token int
	code  PointerCode
}

func pointerResult(doc, ptr string) indexResult {
	var p Pointer
	raw, off, kind, token, code := p.Eval([]byte(doc), []byte(ptr))
	return indexResult{raw: string(raw), off: off, kind: kind, token: token, code: code}
}

// Index gives what Pointer gives, for every pointer of the RFC 6901
// examples and of the error cases, whatever the pointers evaluated before
// on the same documents (the pointers are run forwards and backwards over
// two documents held by one Index at once).
func TestIndexMatchesPointer(t *testing.T) {
	errDoc := `{"a":{"b":[10,{"c":true}],"s":"x","n":null},"e\u0301":1,"k":{"k":1,"k":2},"z":{"\u00e9":3,"é":4}}`
	docs := []string{rfcDoc, errDoc, `  [ {"a" : [ [1], [2, {"x":"y"}] ] } , 7 ]  `, `"scalar"`, `{}`, `[]`}
	ptrs := []string{"", "#", "/foo", "/foo/0", "/foo/1", "/", "/a~1b", "/c%d", "/e^f", "/g|h", `/i\j`, `/k"l`, "/ ", "/m~0n",
		"#/foo/0", "#/", "#/c%25d", "#/%20", "#/m~0n", "a", "/a/~2", "/a~", "#/a/%zz", "#/a%2", "#%41", "/a/x", "/a/b/c",
		"/a/b/01", "/a/b/", "/a/b/-1", "/a/b/-", "/a/b/2", "/a/b/99999999999999999999", "/a/s/0", "/a/n/x", "/a/b/1/c/d",
		"/e", "/e\u0301", "/k/k", "/z/é", "/a/b/1/c", "/0/a/1/1/x", "/0/a/1/1", "/0/a/0/0", "/1", "/2", "/0/b", "/x"}
	for _, order := range []string{"forwards", "backwards"} {
		t.Run(order, func(t *testing.T) {
			var x Index
			roots := make([]int32, len(docs))
			for k := range ptrs {
				ptr := ptrs[k]
				if order == "backwards" {
					ptr = ptrs[len(ptrs)-1-k]
				}
				for d, doc := range docs {
					want := pointerResult(doc, ptr)
					raw, off, kind, token, code := x.Eval([]byte(doc), &roots[d], []byte(ptr))
					got := indexResult{raw: string(raw), off: off, kind: kind, token: token, code: code}
					if code != PointerOK {
						got.raw, got.off, got.kind, want.raw, want.off, want.kind = "", 0, 0, "", 0, 0
					}
					require.Equal(t, want, got, "doc %d %q, pointer %q", d, doc, ptr)
				}
			}
		})
	}
}

// Each container is read once, however many pointers pass through it.
func TestIndexReadsEachContainerOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range 1000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id":"e` + strconv.Itoa(i) + `","code":{"value":` + strconv.Itoa(i) + `}}`)
	}
	b.WriteString(`]}`)
	doc := []byte(b.String())
	var x Index
	var root int32
	read := 0
	for round := range 2 {
		for i := range 1000 {
			raw, _, _, _, code := x.Eval(doc, &root, []byte("/items/"+strconv.Itoa(i)+"/code/value"))
			require.Equal(t, PointerOK, code)
			require.Equal(t, strconv.Itoa(i), string(raw))
		}
		if round == 0 {
			// The root, the array, 1,000 items and their codes: the
			// document about 3.3 times over.
			assert.Less(t, x.Read, 4*len(doc))
			read = x.Read
		}
	}
	assert.Equal(t, read, x.Read, "the second round reads nothing")
	x.Reset(1 << 20)
	assert.Zero(t, x.Read)
	root = 0
	raw, _, _, _, code := x.Eval(doc, &root, []byte("/items/999/id"))
	require.Equal(t, PointerOK, code)
	assert.Equal(t, `"e999"`, string(raw))
}

// A malformed container is reported, never indexed.
func TestIndexBadDocument(t *testing.T) {
	for _, d := range []string{``, `   `, `{"a":`, `{"a" 1}`, `[1,`, `{"b":1,`, `{"b":"x\"}`, `{"b":[}`, `{"a\q":1}`} {
		var x Index
		var root int32
		for range 2 {
			_, _, _, _, code := x.Eval([]byte(d), &root, []byte("/a"))
			assert.NotEqual(t, PointerOK, code, "Eval(%q, /a)", d)
		}
		assert.Zero(t, root, "%q", d)
	}
}
