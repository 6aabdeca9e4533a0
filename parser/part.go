package parser

import "strconv"

// PartKind says which content a [Part] holds.
type PartKind uint8

// The part kinds: a part holds exactly one of text, raw bytes, a URL or
// JSON data.
const (
	PartText PartKind = iota + 1
	PartRaw
	PartURL
	PartData
)

// String returns "Text", "Raw", "URL", "Data" or "Invalid(n)".
func (k PartKind) String() string {
	switch k {
	case PartText:
		return "Text"
	case PartRaw:
		return "Raw"
	case PartURL:
		return "URL"
	case PartData:
		return "Data"
	}
	return "Invalid(" + strconv.Itoa(int(k)) + ")"
}

// Part is one content part of a message or artifact. Only the field of its
// Kind is set among Text, Raw, URL and Data; Metadata, Filename and
// MediaType may accompany any kind.
type Part struct {
	// Kind is the part's content kind.
	Kind PartKind
	// Text is the text, unescaped byte-exactly (see [Decoder] for lone
	// surrogate escapes); empty for an empty text part.
	Text []byte
	// Raw is the decoded content of a raw part (base64 on the wire, standard
	// or URL alphabet, padded or not).
	Raw []byte
	// URL is the URL of a url part.
	URL []byte
	// Data is the exact JSON of a data part's value: any JSON value, null
	// included.
	Data []byte
	// Metadata is the part's metadata: on a text part metadata.citations,
	// on a data part metadata.dataPartId.
	Metadata Metadata
	// Filename is the optional file name.
	Filename []byte
	// MediaType is the optional media type, such as "application/json".
	MediaType []byte
}
