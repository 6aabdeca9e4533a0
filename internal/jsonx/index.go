package jsonx

// This file evaluates many JSON Pointers over the same documents without
// reading a document from its start for each: Index reads each container
// a pointer descends into once, recording where its members or elements
// are (object members sorted by key), and later pointers look them up.

import (
	"bytes"
	"slices"
)

// Index evaluates JSON Pointers as Pointer does, over documents it indexes
// as they are walked: the first pointer to descend into an object or an
// array reads it once and records its members or elements; every later
// pointer through it finds an element by its index and a member by a
// binary search over the keys. n pointers into a document of size s cost
// at most s per level of nesting they pass through, plus n times the
// tokens' lookups, where Pointer costs up to n times s. It keeps its
// memory from one use to the next; a warm Index does not allocate for
// containers no larger than those it indexed before. Its zero value is
// ready to use.
//
// An Index holds several documents at once: the caller keeps one root
// handle per document (see Eval) and calls Reset before the documents
// change or are dropped.
type Index struct {
	conts []container
	kids  []kid
	keys  []byte // the decoded keys that hold escapes
	ptr   Pointer
	// Read counts the bytes of the documents that indexing has read
	// since the last Reset: each container's size, once.
	Read int
}

// container is an indexed object or array: its members or elements are
// kids[first : first+n], an object's sorted by key, then by position.
type container struct {
	first, n int
	obj      bool
}

// kid is one member or element of an indexed container.
type kid struct {
	key        []byte // an object member's decoded key
	start, end int    // the value: doc[start:end]
	sub        int32  // the value's container, plus 1, once indexed; 0 before
}

// Reset forgets every document. It drops the buffers that grew past
// keep bytes, so that one large document does not stay pinned.
func (x *Index) Reset(keep int) {
	if cap(x.kids)*48 > keep {
		x.kids = nil
	}
	if cap(x.conts)*24 > keep {
		x.conts = nil
	}
	if cap(x.keys) > keep {
		x.keys = nil
	}
	x.conts, x.kids, x.keys, x.Read = x.conts[:0], x.kids[:0], x.keys[:0], 0
}

// Eval evaluates ptr on the JSON value doc, as Pointer.Eval does, with
// the same results on a document that passed Valid. root is the handle of
// doc in x: 0 for a document x has not indexed yet, which Eval then sets;
// pass the same handle with the same doc until Reset. On a document that
// did not pass Valid Eval never panics, but may report PointerBadDocument
// where Pointer.Eval finds a target before the damage.
func (x *Index) Eval(doc []byte, root *int32, ptr []byte) (raw []byte, off int, kind Kind, token int, code PointerCode) {
	var ok bool
	if ptr, token, ok = x.ptr.unfragment(ptr); !ok {
		return nil, 0, KindInvalid, token, PointerSyntax
	}
	if len(ptr) == 0 {
		// The whole document: nothing to index.
		return x.ptr.Eval(doc, ptr)
	}
	if ptr[0] != '/' {
		return nil, 0, KindInvalid, -1, PointerSyntax
	}
	// The value the walk is at: doc[start:end] (end unknown, -1, for the
	// root), kids[at] (-1 for the root, whose handle is *root).
	start, end, at := skipSpace(doc, 0), -1, -1
	token = 0
	for i := 1; ; token++ {
		j, ok := x.ptr.nextToken(ptr, i)
		if !ok {
			return nil, 0, KindInvalid, token, PointerSyntax
		}
		if start >= len(doc) {
			return nil, 0, KindInvalid, token, PointerBadDocument
		}
		switch KindOf(doc[start]) {
		case KindObject, KindArray:
		case KindInvalid:
			return nil, 0, KindInvalid, token, PointerBadDocument
		default:
			return nil, 0, KindInvalid, token, PointerNotContainer
		}
		h := *root
		if at >= 0 {
			h = x.kids[at].sub
		}
		if h == 0 {
			if h = x.index(doc, start, end); h == 0 {
				return nil, 0, KindInvalid, token, PointerBadDocument
			}
			if at >= 0 {
				x.kids[at].sub = h
			} else {
				*root = h
			}
		}
		c := x.conts[h-1]
		kids := x.kids[c.first : c.first+c.n]
		var n int
		if c.obj {
			var found bool
			n, found = slices.BinarySearchFunc(kids, x.ptr.tok, func(k kid, name []byte) int {
				return bytes.Compare(k.key, name)
			})
			if !found {
				return nil, 0, KindInvalid, token, PointerNoMember
			}
		} else {
			var code PointerCode
			if n, code = arrayIndex(x.ptr.tok); code != PointerOK {
				return nil, 0, KindInvalid, token, code
			}
			if n >= len(kids) {
				return nil, 0, KindInvalid, token, PointerIndexRange
			}
		}
		at = c.first + n
		start, end = x.kids[at].start, x.kids[at].end
		if j == len(ptr) {
			return doc[start:end], start, KindOf(doc[start]), token, PointerOK
		}
		i = j + 1
	}
}

// index records the members or elements of the container at doc[start:]
// (ending at end, or -1 when not known) and returns its handle, 0 on
// malformed JSON.
func (x *Index) index(doc []byte, start, end int) int32 {
	cur, k := Open(doc, start)
	c := container{first: len(x.kids), obj: k == KindObject}
	for {
		var (
			key []byte
			off int
			ok  bool
		)
		if c.obj {
			key, off, ok = cur.NextKey()
		} else {
			off, ok = cur.NextIndex()
		}
		if !ok {
			break
		}
		raw, ok := cur.Value()
		if !ok {
			break
		}
		if c.obj && HasEscape(key) {
			from := len(x.keys)
			var bad int
			if x.keys, bad = AppendUnescaped(x.keys, key, SurrogateReplace); bad >= 0 {
				break
			}
			key = x.keys[from:len(x.keys):len(x.keys)]
		}
		x.kids = append(x.kids, kid{key: key, start: off, end: off + len(raw)})
	}
	if !cur.closed() {
		x.kids = x.kids[:c.first]
		return 0
	}
	if end < 0 {
		end = cur.i + 1
	}
	x.Read += end - start
	c.n = len(x.kids) - c.first
	if c.obj {
		// By key, then by position: the first of duplicate keys is found
		// first, as Pointer finds it.
		slices.SortStableFunc(x.kids[c.first:], func(a, b kid) int { return bytes.Compare(a.key, b.key) })
	}
	x.conts = append(x.conts, c)
	return int32(len(x.conts))
}
