package parser

// Metadata is a metadata object (a google.protobuf.Struct on the wire) with
// the keys this package knows picked out while decoding. Raw keeps every
// key for later packages; the typed fields are views of the same bytes
// (unescaped for strings).
type Metadata struct {
	// Raw is the exact JSON of the metadata object; nil when absent.
	Raw []byte
	// Usage is Corti's "$usage" (on status updates and tasks); see
	// Usage.Fields for what was present.
	Usage Usage
	// Timestamp is Corti's "$timestamp" (on messages): a string's unescaped
	// bytes, or a number's text; nil when absent.
	Timestamp []byte
	// Type is the "type" string; "intermediate-thinking" on an artifact
	// that closes pre-tool narration.
	Type []byte
	// DataPartID is the "dataPartId" string of a data part: the GID that
	// citations refer to.
	DataPartID []byte
	// Citations is the exact JSON of the "citations" value of a text part;
	// nil when absent.
	Citations []byte
}

// IntermediateThinking reports whether Type is "intermediate-thinking": the
// artifact is the model's pre-tool narration, not the answer.
func (m *Metadata) IntermediateThinking() bool {
	return string(m.Type) == "intermediate-thinking"
}

// UsageField is a bit set of the fields of [Usage] that were present.
type UsageField uint8

// The $usage fields.
const (
	UsageModel UsageField = 1 << iota
	UsageInputTokens
	UsageOutputTokens
	UsageCachedInputTokens
	UsageCacheCreationInputTokens
	UsageTotalTokens
	UsageCredits
)

// Usage is Corti's "$usage" token and credit accounting.
type Usage struct {
	// Model is the model that served the request.
	Model []byte
	// InputTokens is the number of prompt tokens consumed.
	InputTokens int64
	// OutputTokens is the number of completion tokens produced.
	OutputTokens int64
	// CachedInputTokens is the part of InputTokens served from the prompt
	// cache.
	CachedInputTokens int64
	// CacheCreationInputTokens is the number of input tokens written to the
	// prompt cache.
	CacheCreationInputTokens int64
	// TotalTokens is the number of tokens billed.
	TotalTokens int64
	// Credits is the number of Corti credits charged.
	Credits float64
	// Fields says which of the above were present; 0 when $usage was
	// absent.
	Fields UsageField
}

// Has reports whether every field in f was present.
func (u *Usage) Has(f UsageField) bool { return u.Fields&f == f && f != 0 }
