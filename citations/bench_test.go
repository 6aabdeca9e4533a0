package citations_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/a2astream/a2astream/citations"
	"github.com/a2astream/a2astream/parser"
)

// benchParts builds an answer of about size bytes of mixed-script text
// citing n times into ten data parts (nested objects, and a transcript
// string cited by line ranges), offsets in code points, scattered.
func benchParts(size, n int) []parser.Part { return benchPartsOrder(size, n, false) }

// benchPartsOrder is benchParts with the entries in text order when
// sorted, as servers usually emit them.
func benchPartsOrder(size, n int, sorted bool) []parser.Part {
	const sentence = "Le patient présente une toux 咳嗽 depuis 3 jours 😷; HbA1c 7.2 %, LDL 4.1 mmol/L. "
	var text strings.Builder
	for text.Len() < size {
		text.WriteString(sentence)
	}
	runes := len([]rune(text.String()))
	var meta strings.Builder
	meta.WriteString(`{"citations":[`)
	for i := range n {
		if i > 0 {
			meta.WriteByte(',')
		}
		meta.WriteString(`{"data_part_id":"dp.`)
		meta.WriteString(strconv.Itoa(i % 10))
		meta.WriteString(`","offset":`)
		meta.WriteString(strconv.Itoa((i * 7919) % (runes + 1)))
		meta.WriteString(`,"locator":`)
		if i%10 == 9 {
			meta.WriteString(`"L` + strconv.Itoa(1+i%5) + `-L` + strconv.Itoa(2+i%5) + `"`)
		} else {
			meta.WriteString(`"/entries/` + strconv.Itoa(i%20) + `/code/coding/0/code"`)
		}
		meta.WriteByte('}')
	}
	meta.WriteString(`]}`)
	parts := []parser.Part{{Kind: parser.PartText, Text: []byte(text.String()), Metadata: parser.Metadata{Raw: []byte(meta.String())}}}
	for d := range 10 {
		var data strings.Builder
		if d == 9 {
			data.WriteString(`"Dr: How do you sleep?\nPatient: Badly, I cough.\nDr: Since when?\nPatient: Since Monday.\nDr: Any fever?\nPatient: No."`)
		} else {
			data.WriteString(`{"entries":[`)
			for e := range 20 {
				if e > 0 {
					data.WriteByte(',')
				}
				data.WriteString(`{"id":"e` + strconv.Itoa(e) + `","code":{"coding":[{"system":"http://loinc.org","code":"4548-` + strconv.Itoa(e) + `"}]},"value":7.2}`)
			}
			data.WriteString(`]}`)
		}
		parts = append(parts, parser.Part{
			Kind:     parser.PartData,
			Data:     []byte(data.String()),
			Metadata: parser.Metadata{Raw: []byte(`{"dataPartId":"dp.` + strconv.Itoa(d) + `"}`)},
		})
	}
	return parts
}

// BenchmarkResolve resolves 1,000 citations over a 100 KiB answer with a
// warm Resolver. SetBytes counts the answer text.
func BenchmarkResolve(b *testing.B) {
	for _, order := range []struct {
		name   string
		sorted bool
	}{{"scattered", false}, {"text-order", true}} {
		b.Run(order.name, func(b *testing.B) {
			parts := benchPartsOrder(100<<10, 1000, order.sorted)
			var r citations.Resolver
			res := r.Resolve(parts)
			require.Empty(b, res.Diagnostics, "diagnostics")
			require.Len(b, res.Citations, 1000, "citations")
			b.SetBytes(int64(len(parts[0].Text)))
			b.ReportAllocs()
			for b.Loop() {
				r.Resolve(parts)
			}
		})
	}
}

// BenchmarkAppendRender renders the same 1,000 citations as Markdown
// footnotes into a reused buffer.
func BenchmarkAppendRender(b *testing.B) {
	parts := benchParts(100<<10, 1000)
	res := citations.Resolve(parts, nil)
	dst := citations.AppendRender(nil, res.Text, res.Citations, citations.Footnotes)
	b.SetBytes(int64(len(res.Text)))
	b.ReportAllocs()
	for b.Loop() {
		dst = citations.AppendRender(dst[:0], res.Text, res.Citations, citations.Footnotes)
	}
}

// BenchmarkResolveOneDataPart resolves 10^4 and 10^5 JSON-pointer
// citations spread over one 7 MiB data part with a warm Resolver: the part
// is indexed once, so the time per citation stays flat as their number
// grows tenfold (each citation read the part from its start before, and
// 10^5 ran out of MaxScan after about 10^4). SetBytes counts the data part.
func BenchmarkResolveOneDataPart(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			parts, _ := manyPointerParts(n, 7<<20)
			r := citations.NewResolver(&citations.Options{MaxCitations: n})
			res := r.Resolve(parts)
			require.Empty(b, res.Diagnostics, "diagnostics")
			require.Len(b, res.Citations, n, "citations")
			b.SetBytes(int64(len(parts[1].Data)))
			b.ReportAllocs()
			for b.Loop() {
				r.Resolve(parts)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/citation")
		})
	}
}
