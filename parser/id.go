package parser

import "strconv"

// IDKind is the kind of a Corti identifier, which fixes its prefix.
type IDKind uint8

// The identifier kinds and their prefixes.
const (
	IDTask     IDKind = iota + 1 // "task."
	IDContext                    // "ctx."
	IDMessage                    // "msg."
	IDArtifact                   // "art."
	IDAgent                      // "agt."
)

var idPrefixes = [...]string{"", "task.", "ctx.", "msg.", "art.", "agt."}

// Prefix returns the kind's prefix with its dot, such as "task.", or "" for
// an invalid kind.
func (k IDKind) Prefix() string {
	if int(k) < len(idPrefixes) {
		return idPrefixes[k]
	}
	return ""
}

// String returns the kind's prefix without its dot, such as "task", or
// "Invalid(n)".
func (k IDKind) String() string {
	if k > 0 && int(k) < len(idPrefixes) {
		p := idPrefixes[k]
		return p[:len(p)-1]
	}
	return "Invalid(" + strconv.Itoa(int(k)) + ")"
}

// ID is a Corti identifier: a UUIDv7 with the prefix of its kind, such as
// "task.0192f4c8-4e7c-7d50-b13c-5eaf8a4d9c62". The zero ID is invalid.
//
// Only Corti issues such ids. Other A2A servers use UUIDv4 or free strings,
// which the Decoder accepts as they are: use ParseID only where a Corti id
// is required.
type ID struct {
	kind IDKind
	uuid [36]byte // canonical lowercase text form
}

// ParseID parses s as an id of the given kind: a UUIDv7 in lowercase
// canonical form (8-4-4-4-12 hex digits, version 7, RFC 9562 variant),
// either bare or with the kind's prefix. Any other input, including the
// prefix of another kind or uppercase hex, gives ErrInvalidID. s is a
// string as a caller types it, or the []byte of a decoded or reconstructed
// id (Result.TaskID), parsed without a copy.
func ParseID[T string | []byte](kind IDKind, s T) (ID, error) {
	p := kind.Prefix()
	if p == "" {
		return ID{}, ErrInvalidID
	}
	if len(s) > len(p) && string(s[:len(p)]) == p {
		s = s[len(p):]
	}
	if len(s) != 36 {
		return ID{}, ErrInvalidID
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return ID{}, ErrInvalidID
			}
			continue
		}
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return ID{}, ErrInvalidID
		}
	}
	if s[14] != '7' {
		return ID{}, ErrInvalidID // not version 7
	}
	switch s[19] {
	case '8', '9', 'a', 'b':
	default:
		return ID{}, ErrInvalidID // not the RFC 9562 variant
	}
	id := ID{kind: kind}
	copy(id.uuid[:], s)
	return id, nil
}

// Kind returns the id's kind.
func (id ID) Kind() IDKind { return id.kind }

// String returns the id with its prefix, as Corti returns it; "" for the
// zero ID.
func (id ID) String() string {
	if id.kind == 0 {
		return ""
	}
	return id.kind.Prefix() + string(id.uuid[:])
}

// AppendTo appends the prefixed id to dst.
func (id ID) AppendTo(dst []byte) []byte {
	if id.kind == 0 {
		return dst
	}
	dst = append(dst, id.kind.Prefix()...)
	return append(dst, id.uuid[:]...)
}

// UUID returns the id without its prefix.
func (id ID) UUID() string { return string(id.uuid[:]) }

// UnixMilli returns the 48-bit timestamp of the UUIDv7: milliseconds since
// the Unix epoch when the id was made; time.UnixMilli turns it into a
// time.Time. (The package does not import time, which would add its
// weight to the WebAssembly module.)
func (id ID) UnixMilli() int64 {
	var ms int64
	for i := 0; i < 13; i++ {
		if i == 8 {
			continue // the dash
		}
		ms = ms<<4 | int64(unhex(id.uuid[i]))
	}
	return ms
}

func unhex(c byte) byte {
	if c >= 'a' {
		return c - 'a' + 10
	}
	return c - '0'
}
